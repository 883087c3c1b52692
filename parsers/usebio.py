"""USEBIO XML (versions 1.0-1.2): the EBU's interchange format for bridge results.

Scoring programs (Compscore, EBUScore, ScoreBridge, ...) write one ``<USEBIO Version="1.2">``
document per session or event (fixtures/usebio/cobalt_mp_pairs_howell.xml is a real Compscore3
file). Layout read here::

    USEBIO
    ├── CLUB/CLUB_NAME                       -> Event.organiser
    └── EVENT EVENT_TYPE="MP_PAIRS"          one or more
        ├── EVENT_DESCRIPTION (else TITLE)   -> Event.title
        ├── DATE  dd/mm/yyyy                 -> Event.date
        ├── WINNER_TYPE  1 | 2               2 = two rankings (NS and EW) in one field
        ├── SCORING_METHOD  IMPS | VPS | ... overrides the scoring implied by EVENT_TYPE
        ├── PARTICIPANTS/PAIR|TEAM|PLAYER    the ranking ("flat" layout)
        ├── BOARDS_PLAYED                    -> Event.boards (else counted from travellers)
        ├── BOARD/TRAVELLER_LINE             travellers: boards are counted from these
        ├── SESSION/SECTION                  "nested" layout: one PARTICIPANTS per section
        │   ├── PARTICIPANTS/...
        │   └── BOARD/TRAVELLER_LINE
        └── SECTION/PARTICIPANTS             sections with no SESSION (NZ Scorer's converter)

Event kinds and scorings by ``EVENT_TYPE`` (``SCORING_METHOD`` wins when it is given)::

    MP_PAIRS              pairs       MP
    BUTLER_PAIRS          pairs       IMP   (IMPs against a datum)
    CROSS_IMP             pairs       IMP   (also IMP_PAIRS, CROSS_IMP_PAIRS)
    SWISS_PAIRS           pairs       VP
    TEAMS                 teams       IMP   (also TEAMS_OF_FOUR)
    SWISS_TEAMS           teams       VP
    INDIVIDUAL            individual  MP

An ``EVENT_TYPE`` that names only the kind (``PAIRS``, as EBUScore and the NZ converters write,
``TEAM``, or any type naming PAIRS, TEAMS or INDIVIDUAL) takes its scoring, in this order, from
a scoring method written on the event, a session, a section or the PARTICIPANTS
(``SCORING_METHOD``, ``MATCH_SCORING_METHOD``, ``BOARD_SCORING_METHOD``, in that order, the
first naming a known scoring: ``MATCH_POINTS``, ``BUTLER_IMPS``, ``CROSS_IMPS``, ``VPS``,
``BAM``, ``PAB``...; a teams event written by TeamsScorer with ``BOARD_SCORING_METHOD`` IMPS
and ``MATCH_SCORING_METHOD`` VPS ranks by VPs), else from words of the type (``SWISS`` VP, ``BAM``,
``IMP``), else from the scores (a PERCENTAGE is matchpoints; totals below zero are IMPs), else
``unknown``; an info issue says which. A method not listed is known by its words (``IMP`` or
``BUTLER``: IMP, ``VP``: VP, ``MATCH_POINT``, ``NEUBERG``, ``PERCENT``: MP, ``BAM``: BAM). No
``EVENT_TYPE`` at all: the kind is the units' (PAIR, TEAM, PLAYER), with an info note. Any
other ``EVENT_TYPE`` is an :class:`UnsupportedVariant`.

Layouts besides the two above: PARTICIPANTS directly under a SESSION (no SECTION) is that
session's ranking (TeamsScorer, EBUScoreTeams); SECTIONs directly under the EVENT (no SESSION:
NZ Scorer through scorer-to-usebio) are read as the sections of one session; sections whose
places run across the whole field (a 6-pair section with a 9th place, the sections together
holding places 1..N; in a two-winner movement, NS places across the NS pairs of every section
and EW likewise, as PairsScorer writes them) are one ranking of the field, sections ranked on
their own are one event each.

Quirks handled:

- **rankings**: the event's own PARTICIPANTS is the ranking when present (a multi-session
  event's totals); otherwise every SESSION/SECTION with PARTICIPANTS is one event whose
  ``section`` is the section's id (``SECTION_ID``/``SECTION_LABEL``/``SECTION_NAME``, as an
  attribute or a child; prefixed with the session number when there are several sessions);
- **two-winner movements**: ``WINNER_TYPE`` 2 (of the section, else of the event) splits a
  ranking by ``DIRECTION`` into two events, section ``"NS"`` / ``"EW"`` (``"A NS"`` / ``"A EW"``
  inside a section); without ``WINNER_TYPE``, a ranking whose NS and EW pairs both have a 1st
  place is split too (with an info note);
- **places**: participants are listed in any order (pair number order in Compscore) and are
  sorted by ``PLACE``; ``5=`` is a tie written with an ``=`` (the units written ``5=`` share
  5th-6th: 5.5), ``5-6`` a tie written as a range; ``place_text`` keeps what the file writes.
  A unit without a PLACE is kept at the end with no place (a warning); a ranking without any
  PLACE is ranked by score (a warning);
- **scores**: ``PERCENTAGE`` when the unit has one, else ``TOTAL_SCORE``;
- **teams**: a TEAM's label is its ``TEAM_NUMBER`` (else the ``TEAM_ID`` attribute or child,
  else ``TEAM_NAME``); its players are its PLAYERs at any depth: TeamsScorer and EBUScoreTeams
  write TEAM/PAIR/PLAYER (the team's pairs with their IMPs); a member written in two of the
  team's pairs is one player;
- **players**: ``PLAYER_NAME`` as written (Compscore writes capitals) and
  ``NATIONAL_ID_NUMBER`` as the federation id, kept as text (leading zeros matter: ``0748821``);
  a PLAYER's ``CLUB_NAME``, if any, is its club (``CLUB_ID_NUMBER`` alone is not a club name);
- **phantoms**: a pair/team whose players are all called PHANTOM / ROBOT / BYE / SIT OUT (or
  have no name) is not players (docs/rules/inputs.md; the preamble of every format): a ranked one
  keeps its place with no players, an unranked one is dropped; both with an info note;
- **boards**: ``BOARDS_PLAYED`` as the file states it for the ranking (its section's or
  session's, else the event's when the event is one session: a Howell or a teams movement
  has more boards in play than each unit plays); else the number of distinct
  ``BOARD_NUMBER`` of BOARD elements that have TRAVELLER_LINEs in the ranking's scope,
  counted per session; the HANDSET's BOARDs are hand records, not played boards. Neither:
  ``boards`` is None;
- **handicap events**: units with a ``HANDICAP`` are placed by handicapped scores; the places
  are kept as written, the score is the unit's own, and places are not checked against the
  scores (an info note);
- **dates**: ``dd/mm/yyyy``, also with ``-`` or ``.``, a two-digit year (``5/12/15``: 2015)
  and ISO ``yyyy-mm-dd``;
- **character set**: as declared; a file that declares UTF-8 (or nothing) but is not, as
  Windows programs write accented names, is read as Windows-1252 (an info note);
- **safety**: the XML is parsed with defusedxml: no entity expansion (billion laughs), no
  external entities, no DTD fetch; the ``<!DOCTYPE USEBIO SYSTEM "...">`` line is allowed but
  never fetched. A document with entity declarations is a :class:`MalformedFile`.

Checks: places against scores (a unit placed lower must not score more, tied units score the
same) and places that do not follow on (``1, 3``): warnings, ``InconsistentResult`` when strict.
Rows in messages are the unit's position among its ranking's participants in the file (1 = the
first PAIR/TEAM/PLAYER element), ``table`` names the ranking (``EVENT 1``, ``EVENT 1 SECTION A``).
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import defusedxml
import defusedxml.ElementTree as SafeET

from ._dates import parse_date
from ._errors import InconsistentResult, MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, parse_place, shared_places
from ._registry import Format
from ._text import normalise_space, parse_decimal

__all__ = ["EVENT_TYPES", "FORMAT", "detect", "parse"]

NAME = "usebio"

EVENT_TYPES: dict[str, tuple[Kind, Scoring]] = {
    "MP_PAIRS": ("pairs", "MP"),
    "BUTLER_PAIRS": ("pairs", "IMP"),
    "CROSS_IMP": ("pairs", "IMP"),
    "CROSS_IMP_PAIRS": ("pairs", "IMP"),
    "IMP_PAIRS": ("pairs", "IMP"),
    "SWISS_PAIRS": ("pairs", "VP"),
    "TEAMS": ("teams", "IMP"),
    "TEAMS_OF_FOUR": ("teams", "IMP"),
    "SWISS_TEAMS": ("teams", "VP"),
    "INDIVIDUAL": ("individual", "MP"),
}
"""EVENT_TYPE -> (kind, scoring unless SCORING_METHOD says otherwise); see the module doc."""

_SCORING_METHODS: dict[str, Scoring] = {
    "MATCHPOINTS": "MP", "MATCH_POINTS": "MP", "MP": "MP", "MPS": "MP", "PERCENTAGE": "MP",
    "NEUBERG": "MP", "IMPS": "IMP", "IMP": "IMP", "CROSS_IMPS": "IMP", "BUTLER": "IMP",
    "BUTLER_IMPS": "IMP", "IMPS_ACROSS_FIELD": "IMP", "CROSS_IMP": "IMP", "IMP_PAIRS": "IMP",
    "AGGREGATE": "unknown", "TOTAL_POINTS": "unknown",
    "VPS": "VP", "VP": "VP", "VICTORY_POINTS": "VP",
    "BAM": "BAM", "POINT_A_BOARD": "BAM", "BOARD_A_MATCH": "BAM", "PAB": "BAM",
}

_VERSIONS = frozenset({"1.0", "1.1", "1.2"})
_UNIT_TAGS = ("PAIR", "TEAM", "PLAYER")
_NOT_PLAYERS = re.compile(r"^(?:phantom|robot|bye|sit\s*-?\s*out|ghost)\b", re.IGNORECASE)
_SLASH_DATE = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$")

# --- detection ------------------------------------------------------------------------------

_ROOT = re.compile(rb"<USEBIO[\s>]")


def detect(data: bytes, filename: str = "") -> bool:
    """An XML document whose root element is ``<USEBIO`` (looked for in the first 4 KB)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and _ROOT.search(head) is not None


# --- reading the XML ------------------------------------------------------------------------


_DECLARED = re.compile(rb"^(\s*<\?xml[^>]*?encoding\s*=\s*[\"'])([\w.:-]+)([\"'])", re.IGNORECASE)


def _windows_1252(data: bytes) -> bytes | None:
    """A document that declares UTF-8 (or nothing) but is not UTF-8, re-encoded as the UTF-8 of
    its Windows-1252 reading (Windows programs write accented names so); None otherwise."""
    match = _DECLARED.match(data)
    declared = match[2].decode("ascii").lower().replace("_", "-") if match else "utf-8"
    if declared not in ("utf-8", "utf8"):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace").encode("utf-8")
    return None


def _xml(data: bytes, file: str, log: IssueLog | None = None) -> ET.Element:
    """The document's root, parsed safely (see the module docstring, "safety")."""
    try:
        try:
            root = SafeET.fromstring(
                data, forbid_dtd=False, forbid_entities=True, forbid_external=True,
            )
        except ET.ParseError:
            retried = _windows_1252(data)
            if retried is None:
                raise
            root = SafeET.fromstring(
                retried, forbid_dtd=False, forbid_entities=True, forbid_external=True,
            )
            if log is not None:
                log.report(MalformedFile(
                    "declared UTF-8 but is not: read as Windows-1252", table="USEBIO",
                    has_value=False), level="info")
    except defusedxml.DefusedXmlException as exc:
        raise MalformedFile(
            f"XML with entity declarations or external references is refused ({exc})",
            file=file,
        ) from exc
    except (ValueError, LookupError) as exc:  # unknown or unsupported declared encoding
        raise MalformedFile(f"not readable as XML ({exc})", file=file) from exc
    except ET.ParseError as exc:
        line, column = exc.position
        raise MalformedFile(
            f"not well-formed XML ({exc})", file=file, row=f"line {line}",
            column=f"character {column}",
        ) from exc
    if root.tag != "USEBIO":
        raise MalformedFile("the root element is not USEBIO", file=file, value=root.tag)
    return root


def _text(element: ET.Element | None, tag: str) -> str:
    """Whitespace-normalised text of ``element``'s child ``tag`` ("" when absent)."""
    if element is None:
        return ""
    child = element.find(tag)
    return normalise_space(child.text or "") if child is not None else ""


def _attr_or_child(element: ET.Element, *names: str) -> str:
    for name in names:
        value = normalise_space(element.get(name) or "") or _text(element, name)
        if value:
            return value
    return ""


# --- event-level fields ---------------------------------------------------------------------


def _date(text: str) -> dt.date:
    """USEBIO writes ``dd/mm/yyyy``; ``dd-mm-yyyy``, ``dd.mm.yyyy``, a two-digit year (20yy) and
    the forms of ``_dates`` are accepted."""
    match = _SLASH_DATE.match(text.strip())
    if match:
        year = int(match[3]) if len(match[3]) == 4 else 2000 + int(match[3])
        return dt.date(year, int(match[2]), int(match[1]))
    return parse_date(text)


def _event_date(event: ET.Element, table: str, file: str) -> dt.date:
    """EVENT/DATE, else the first SESSION's DATE or SESSION_DATE; none -> MalformedFile."""
    candidates = [("DATE", _text(event, "DATE"))]
    for session in event.findall("SESSION"):
        candidates += [("SESSION/DATE", _text(session, "DATE")),
                       ("SESSION/SESSION_DATE", _text(session, "SESSION_DATE"))]
    for column, text in candidates:
        if not text:
            continue
        try:
            return _date(text)
        except ValueError:
            raise MalformedFile(
                "invalid date (USEBIO writes dd/mm/yyyy)", file=file, table=table, column=column,
                value=text,
            ) from None
    raise MalformedFile("the event has no DATE", file=file, table=table, column="DATE")


_UNIT_KINDS: dict[str, Kind] = {"PAIR": "pairs", "TEAM": "teams", "PLAYER": "individual"}
_GENERIC_TYPES: dict[str, Kind] = {"PAIRS": "pairs", "PAIR": "pairs", "TEAM": "teams",
                                   "INDIVIDUAL": "individual", "INDIVIDUALS": "individual"}
"""EVENT_TYPEs that name the kind only (``PAIRS``): the scoring comes from elsewhere."""
_METHOD_TAGS = ("SCORING_METHOD", "MATCH_SCORING_METHOD", "BOARD_SCORING_METHOD",
                "SCORING_TYPE", "SCORING")
"""Where a scoring method is written, the ranking's own first: the totals of a teams or Swiss
event are in the units of its MATCH_SCORING_METHOD (VPs), not of its BOARD_SCORING_METHOD."""


def _method(elements: Iterable[ET.Element]) -> str:
    """The scoring method the ranking's totals are in: the first method written on any of
    ``elements`` (attribute or child, in :data:`_METHOD_TAGS` order) that names a known
    scoring, else the first written at all ("" when none is)."""
    written = [text for element in elements for tag in _METHOD_TAGS
               if (text := normalise_space(element.get(tag) or _text(element, tag)))]
    known = [text for text in written if _scoring_method(text) is not None]
    return (known or written or [""])[0]


_METHOD_WORDS: tuple[tuple[str, Scoring], ...] = (
    ("BAM", "BAM"), ("BOARD_A_MATCH", "BAM"), ("POINT_A_BOARD", "BAM"), ("VP", "VP"),
    ("VICTORY", "VP"), ("IMP", "IMP"), ("BUTLER", "IMP"), ("DATUM", "IMP"), ("MATCH_POINT", "MP"),
    ("MATCHPOINT", "MP"), ("NEUBERG", "MP"), ("PERCENT", "MP"), ("TOP", "MP"),
)
"""A method not in :data:`_SCORING_METHODS` is known by its words (``IMPS_ACROSS``, ...)."""


def _scoring_method(text: str) -> Scoring | None:
    key = text.upper().replace(" ", "_").replace("-", "_")
    if key in _SCORING_METHODS:
        return _SCORING_METHODS[key]
    return next((scoring for word, scoring in _METHOD_WORDS if word in key), None)


def _scope_elements(event: ET.Element) -> list[ET.Element]:
    """The event and what it holds that may say how it was scored (sessions, sections, their
    PARTICIPANTS), in that order."""
    out = [event]
    for session in _sessions(event):
        if session is not event:
            out.append(session)
        out.extend(session.findall("SECTION"))
    out.extend(event.iter("PARTICIPANTS"))
    return out


def _sessions(event: ET.Element) -> list[ET.Element]:
    """The elements holding the event's sections: its SESSIONs, and the event itself when it
    holds SECTIONs directly (NZ Scorer's converter writes EVENT/SECTION with no SESSION)."""
    return event.findall("SESSION") + ([event] if event.find("SECTION") is not None else [])


def _scoring_from_scores(event: ET.Element) -> Scoring:
    """No method written: percentages are matchpoints; totals that go negative are IMPs."""
    units = [u for p in event.iter("PARTICIPANTS") for tag in _UNIT_TAGS for u in p.findall(tag)]
    if any(_text(u, "PERCENTAGE") for u in units):
        return "MP"
    totals = []
    for u in units:
        try:
            totals.append(float(_text(u, "TOTAL_SCORE").replace(",", ".")))
        except ValueError:
            continue
    if totals and min(totals) < 0:
        return "IMP"
    return "unknown"


def _kind_of(event_type: str) -> Kind | None:
    """The kind an EVENT_TYPE names: a known one, a generic one (``PAIRS``), or by its words
    (``..._PAIRS``, ``..._TEAMS``, ``INDIVIDUAL_...``)."""
    if event_type in EVENT_TYPES:
        return EVENT_TYPES[event_type][0]
    if event_type in _GENERIC_TYPES:
        return _GENERIC_TYPES[event_type]
    for word, kind in (("INDIV", "individual"), ("PAIR", "pairs"), ("TEAM", "teams")):
        if word in event_type:
            return kind  # type: ignore[return-value]
    return None


def _kind_and_scoring(
    event: ET.Element, table: str, log: IssueLog,
) -> tuple[str, Kind, Scoring]:
    event_type = normalise_space(event.get("EVENT_TYPE") or _text(event, "EVENT_TYPE")).upper()
    kind = _kind_of(event_type)
    if kind is None and not event_type:  # no EVENT_TYPE at all: the units say the kind
        tags = {u.tag for p in event.iter("PARTICIPANTS") for u in p if u.tag in _UNIT_TAGS}
        if len(tags) == 1:
            kind = _UNIT_KINDS[tags.pop()]
            log.report(MalformedFile(
                f"no EVENT_TYPE: a {kind} event, as its units are", table=table,
                column="EVENT_TYPE", has_value=False), level="info")
    if kind is None:
        raise UnsupportedVariant(
            f"EVENT_TYPE not handled; known: {', '.join(EVENT_TYPES)} and any naming PAIRS, "
            "TEAMS or INDIVIDUAL", file=log.file, table=table, column="EVENT_TYPE",
            value=event_type,
        )
    scoring: Scoring
    if event_type in EVENT_TYPES:
        scoring = EVENT_TYPES[event_type][1]
    else:  # the type names the kind only: the scoring is said elsewhere, or shown by the scores
        scoring = next((sc for word, sc in (("BAM", "BAM"), ("BOARD_A_MATCH", "BAM"),
                                            ("IMP", "IMP"), ("BUTLER", "IMP"), ("VP", "VP"),
                                            ("SWISS", "VP"), ("MP", "MP"))
                        if word in event_type), None) or _scoring_from_scores(event)
        log.report(UnsupportedVariant(
            f"EVENT_TYPE names no scoring; scoring {scoring} taken from "
            + ("the scoring method" if _method(_scope_elements(event)) else "the scores"),
            table=table, column="EVENT_TYPE", value=event_type), level="info")
    method = _method(_scope_elements(event))
    if method:
        mapped = _scoring_method(method)
        if mapped is None:
            log.report(UnsupportedVariant(
                f"SCORING_METHOD not recognised; scoring taken from EVENT_TYPE {event_type}",
                table=table, column="SCORING_METHOD", value=method,
            ), level="info")
        else:
            scoring = mapped
    return event_type, kind, scoring


# --- rankings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Ranking:
    """One PARTICIPANTS element to read, with what the event needs to know about it."""

    table: str
    section: str
    participants: ET.Element
    scope: tuple[ET.Element, ...]
    """Elements whose BOARDs (with travellers) count as played boards of this ranking."""
    winner_type: str


def _section_id(section: ET.Element, index: int) -> str:
    return _attr_or_child(section, "SECTION_ID", "SECTION_LABEL", "SECTION_NAME",
                          "SECTION_NUMBER", "SECTION_LETTER") or str(index)


def _session_id(session: ET.Element, index: int) -> str:
    return _attr_or_child(session, "SESSION_NUMBER", "SESSION_ID") or str(index)


def _rankings(event: ET.Element, table: str, file: str) -> list[_Ranking]:
    """The event's PARTICIPANTS (flat layout), else every SESSION/SECTION's (nested layout)."""
    winner = _text(event, "WINNER_TYPE")
    own = event.find("PARTICIPANTS")
    if own is not None:
        return [_Ranking(table, "", own, (event,), winner)]
    sessions = _sessions(event)
    rankings: list[_Ranking] = []
    for s_index, session in enumerate(sessions, start=1):
        session_id = _session_id(session, s_index)
        direct = session.find("PARTICIPANTS")
        if session is event:  # sections directly under the event: no session to name
            for x_index, section in enumerate(session.findall("SECTION"), start=1):
                participants = section.find("PARTICIPANTS")
                if participants is not None:
                    label = _section_id(section, x_index)
                    rankings.append(_Ranking(
                        f"{table} SECTION {label}", label, participants, (section,),
                        _text(section, "WINNER_TYPE") or winner,
                    ))
            continue
        if direct is not None and not session.findall("SECTION"):
            # the session's ranking without SECTIONs: one field
            label = session_id if len(sessions) > 1 else ""
            rankings.append(_Ranking(
                f"{table} SESSION {session_id}", label, direct, (session,),
                _text(session, "WINNER_TYPE") or winner,
            ))
            continue
        for x_index, section in enumerate(session.findall("SECTION"), start=1):
            participants = section.find("PARTICIPANTS")
            if participants is None:
                continue
            label = _section_id(section, x_index)
            if len(sessions) > 1:
                label = f"{session_id} {label}"
            rankings.append(_Ranking(
                f"{table} SESSION {session_id} SECTION {label}", label, participants,
                (section,), _text(section, "WINNER_TYPE") or _text(session, "WINNER_TYPE")
                or winner,
            ))
    if not rankings:
        raise MalformedFile(
            "the event has no PARTICIPANTS (neither its own nor in a SESSION or SECTION)",
            file=file, table=table,
        )
    return rankings


def _stated_boards(ranking: _Ranking, event: ET.Element) -> int | None:
    """BOARDS_PLAYED as the file states it for this ranking: on its section or session, else on
    the event when the event is one session (an event's count over several sessions is not a
    session's)."""
    elements = [*ranking.scope]
    if ranking.scope == (event,) or len(event.findall("SESSION")) <= 1:
        elements.append(event)
    for element in elements:
        text = _text(element, "BOARDS_PLAYED")
        if text.isdigit() and int(text) > 0:
            return int(text)
    return None


def _boards(scope: Iterable[ET.Element]) -> int | None:
    """Distinct (session, BOARD_NUMBER) of BOARDs with TRAVELLER_LINEs under ``scope``."""
    seen: set[tuple[int, str]] = set()
    for element in scope:
        sessions = element.findall("SESSION") or [element]
        for s_index, session in enumerate(sessions):
            for board in session.iter("BOARD"):
                if board.find("TRAVELLER_LINE") is not None:
                    seen.add((s_index, _text(board, "BOARD_NUMBER")))
    return len(seen) or None


# --- units ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """One participant as read, before places are resolved."""

    number: int
    label: str
    direction: str
    place_text: str
    written: WrittenPlace | None
    score: float | None
    players: tuple[PlayerAsWritten, ...]
    phantom: bool
    handicap: bool = False
    """The unit has a HANDICAP: a handicap event, placed by handicapped scores."""


def _place(text: str) -> WrittenPlace | None:
    """``5``, ``5=``, ``=5``, ``5-6`` -> a written place; ``=`` marks a tie (shared by equals)."""
    return parse_place(text)


def _players(unit: ET.Element, tag: str) -> tuple[list[PlayerAsWritten], bool]:
    """Players of a PAIR/TEAM (its PLAYERs) or of an individual PLAYER (itself).

    Returns the players and whether the unit is a phantom (every player a phantom or nameless).
    """
    # a PAIR's or TEAM's PLAYERs at any depth: TeamsScorer and EBUScoreTeams write
    # TEAM/PAIR/PLAYER (a team's pairs, with their IMPs); a member in two of its pairs is one
    elements = [unit] if tag == "PLAYER" else list(unit.iter("PLAYER"))
    players: list[PlayerAsWritten] = []
    seen: set[tuple[str, str | None]] = set()
    phantoms = 0
    for element in elements:
        name = _text(element, "PLAYER_NAME")
        if not name or _NOT_PLAYERS.match(name):
            phantoms += 1
            continue
        player = PlayerAsWritten(
            name=name, federation_id=_text(element, "NATIONAL_ID_NUMBER") or None,
            club=_text(element, "CLUB_NAME") or None,
        )
        if (player.name, player.federation_id) in seen:
            continue
        seen.add((player.name, player.federation_id))
        players.append(player)
    if tag == "TEAM" and not elements:
        return [], False
    return players, bool(elements) and phantoms == len(elements)


def _label(unit: ET.Element, tag: str) -> str:
    if tag == "PAIR":
        return _text(unit, "PAIR_NUMBER")
    if tag == "TEAM":
        return _attr_or_child(unit, "TEAM_NUMBER", "TEAM_ID", "TEAM_NAME")
    return _text(unit, "PLAYER_NUMBER") or _text(unit, "PLAYER_NAME")


def _read_row(number: int, unit: ET.Element, tag: str, table: str, log: IssueLog) -> _Row:
    label = _label(unit, tag)
    place_text = _text(unit, "PLACE")
    try:
        written = _place(place_text)
    except ValueError:
        raise MalformedFile("invalid PLACE", file=log.file, table=table, row=number,
                            column="PLACE", value=place_text) from None
    column = "PERCENTAGE" if _text(unit, "PERCENTAGE") else "TOTAL_SCORE"
    score_text = _text(unit, column)
    try:
        score = parse_decimal(score_text)
    except ValueError:
        log.report(MalformedFile("invalid score; left empty", table=table, row=number,
                                 column=column, value=score_text))
        score = None
    players, phantom = _players(unit, tag)
    if not players and not phantom:
        log.report(MalformedFile(
            f"{tag.lower()} {label!r} names no players", table=table, row=number,
            column="PLAYER", has_value=False,
        ))
    handicap = bool(_text(unit, "HANDICAP"))
    return _Row(number, label, _text(unit, "DIRECTION").upper(), place_text, written, score,
                tuple(players), phantom, handicap)


def _read_rows(ranking: _Ranking, log: IssueLog) -> list[_Row]:
    rows: list[_Row] = []
    for element in ranking.participants:
        if element.tag in _UNIT_TAGS:
            rows.append(_read_row(len(rows) + 1, element, element.tag, ranking.table, log))
    if not rows:
        raise MalformedFile("PARTICIPANTS lists no PAIR, TEAM or PLAYER", file=log.file,
                            table=ranking.table)
    return rows


def _drop_phantoms(rows: list[_Row], table: str, log: IssueLog) -> list[_Row]:
    """Phantom units: kept without players when ranked, dropped when not (module doc)."""
    kept: list[_Row] = []
    for row in rows:
        if not row.phantom:
            kept.append(row)
            continue
        ranked = row.written is not None
        log.report(MalformedFile(
            f"unit {row.label!r} is a phantom/sit-out, not players; "
            + ("kept with its place and no players" if ranked else "not ranked, left out"),
            table=table, row=row.number, column="PLAYER_NAME", has_value=False,
        ), level="info")
        if ranked:
            kept.append(row)
    return kept


def _ranked_order(rows: list[_Row], table: str, log: IssueLog) -> list[_Row]:
    """Rows sorted by written place; no place anywhere -> ranked by score (a warning)."""
    if all(r.written is None for r in rows):
        log.report(MalformedFile(
            "no PLACE in the ranking; places derived from the scores", table=table,
            column="PLACE", has_value=False,
        ))
        order = sorted(rows, key=lambda r: (r.score is None, -(r.score or 0.0)))
        places: list[WrittenPlace] = []
        for i, row in enumerate(order):
            tied = i > 0 and row.score is not None and row.score == order[i - 1].score
            places.append(places[-1] if tied else WrittenPlace(i + 1, i + 1))
        return [replace(r, written=w) for r, w in zip(order, places)]
    for row in rows:
        if row.written is None:
            log.report(MalformedFile(
                f"unit {row.label!r} has no PLACE; listed last without a place", table=table,
                row=row.number, column="PLACE", has_value=False,
            ))
    placed = sorted((r for r in rows if r.written is not None),
                    key=lambda r: (r.written.first if r.written else 0, r.number))
    return placed + [r for r in rows if r.written is None]


def _units(rows: Sequence[_Row], table: str, log: IssueLog) -> tuple[Unit, ...]:
    placed = [r for r in rows if r.written is not None]
    places, problems = shared_places([r.written for r in placed])
    for problem in problems:
        row = placed[problem.index]
        log.report(InconsistentResult(problem.message, table=table, row=row.number,
                                      column="PLACE", value=row.place_text))
    if any(r.handicap for r in rows):
        log.report(MalformedFile(
            "a handicap event (units with a HANDICAP): places are by handicapped scores, not "
            "checked against the scores", table=table, column="HANDICAP", has_value=False),
            level="info")
        placed_scores: list[float | None] = [None] * len(placed)
    else:
        placed_scores = [r.score for r in placed]
    for problem in order_problems(places, placed_scores):
        row = placed[problem.index]
        log.report(InconsistentResult(f"unit {row.label}: {problem.message}", table=table,
                                      row=row.number, column="PLACE", value=row.place_text))
    # _ranked_order lists the placed rows first, so their places are a prefix.
    all_places: list[float | None] = [*places, *([None] * (len(rows) - len(placed)))]
    return tuple(
        Unit(place=place, place_text=r.place_text, label=r.label, score=r.score,
             players=r.players)
        for place, r in zip(all_places, rows)
    )


def _split_directions(
    ranking: _Ranking, rows: list[_Row], log: IssueLog,
) -> list[tuple[str, str, list[_Row]]]:
    """(section, table, rows) per ranking: two for a two-winner movement (module doc)."""
    directions = {r.direction for r in rows}
    two_winner = ranking.winner_type == "2"
    if not ranking.winner_type and {"NS", "EW"} <= directions:
        firsts = {r.direction for r in rows if r.written is not None and r.written.first == 1}
        if {"NS", "EW"} <= firsts:
            two_winner = True
            log.report(MalformedFile(
                "no WINNER_TYPE, but NS and EW each have a 1st place: read as two rankings",
                table=ranking.table, column="WINNER_TYPE", has_value=False,
            ), level="info")
    if not two_winner:
        return [(ranking.section, ranking.table, rows)]
    if not directions <= {"NS", "EW"}:
        log.report(MalformedFile(
            "WINNER_TYPE 2 but not every unit has DIRECTION NS or EW; read as one ranking",
            table=ranking.table, column="DIRECTION", value=sorted(directions),
        ))
        return [(ranking.section, ranking.table, rows)]
    out = []
    for direction in ("NS", "EW"):
        part = [r for r in rows if r.direction == direction]
        if part:
            section = f"{ranking.section} {direction}".strip()
            out.append((section, f"{ranking.table} {direction}", part))
    return out


def _top(rows: list[_Row]) -> int:
    return max((r.written.last for r in rows if r.written is not None), default=0)


def _across_the_field(group: list[tuple[_Ranking, list[_Row]]]) -> tuple[int, int] | None:
    """(top place, field size) when the sections of ``group`` write places across the whole
    field, else None. In a two-winner movement (WINNER_TYPE 2) each direction is a field of its
    own: NS places run across the NS pairs of every section, EW places across the EW pairs."""
    two_winner = all(ranking.winner_type == "2" for ranking, _ in group) and all(
        r.direction in ("NS", "EW") for _, rows in group for r in rows)
    fields = [[[r for r in rows if r.direction == d] for _, rows in group] for d in ("NS", "EW")
              ] if two_winner else [[rows for _, rows in group]]
    overflow = any(_top(part) > len(part) for parts in fields for part in parts)
    sizes = [(_top([r for part in parts for r in part]), sum(len(part) for part in parts))
             for parts in fields]
    if not overflow or any(top > size for top, size in sizes):
        return None
    return max(top for top, _ in sizes), max(size for _, size in sizes)


def _one_field(
    read: list[tuple[_Ranking, list[_Row]]], table: str, log: IssueLog,
) -> list[tuple[_Ranking, list[_Row]]]:
    """Sections ranked as one field: when the sections of a session write places across the
    whole field (a section of 6 pairs with a 9th place; together they hold places 1..N; per
    direction in a two-winner movement), the sections are one ranking of the field, not
    rankings of their own."""
    by_session: dict[str, list[tuple[_Ranking, list[_Row]]]] = {}
    for ranking, rows in read:
        by_session.setdefault(ranking.table.rsplit(" SECTION ", 1)[0], []).append((ranking, rows))
    out: list[tuple[_Ranking, list[_Row]]] = []
    for session, group in by_session.items():
        across = _across_the_field(group) if len(group) > 1 else None
        if across is None:
            out.extend(group)
            continue
        top, size = across
        everyone = [r for _, rows in group for r in rows]
        first = group[0][0]
        log.report(MalformedFile(
            f"{len(group)} sections whose places run across the whole field "
            f"(up to {top} of {size}): read as one ranking", table=session,
            has_value=False), level="info")
        label = first.section.split(" ")[0] if " " in first.section else ""
        scope = tuple(e for ranking, _ in group for e in ranking.scope)
        out.append((_Ranking(session, label, first.participants, scope, first.winner_type),
                    everyone))
    return out


# --- parse ----------------------------------------------------------------------------------


def _events_of(
    event: ET.Element, index: int, organiser: str, log: IssueLog,
) -> list[Event]:
    table = f"EVENT {index}"
    _, kind, scoring = _kind_and_scoring(event, table, log)
    date = _event_date(event, table, log.file)
    title = _text(event, "EVENT_DESCRIPTION") or _text(event, "TITLE")
    if not title:
        log.report(MalformedFile("the event has no EVENT_DESCRIPTION or TITLE", table=table,
                                 has_value=False))
    events: list[Event] = []
    read = [(ranking, _drop_phantoms(_read_rows(ranking, log), ranking.table, log))
            for ranking in _rankings(event, table, log.file)]
    for ranking, rows in _one_field(read, table, log):
        boards = _stated_boards(ranking, event) or _boards(ranking.scope)
        for section, sub_table, part in _split_directions(ranking, rows, log):
            units = _units(_ranked_order(part, sub_table, log), sub_table, log)
            events.append(Event(
                game="bridge", title=title, date=date, kind=kind, scoring=scoring,
                units=units, boards=boards, section=section, organiser=organiser,
                format=NAME,
            ))
    return events


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Every ranking of a USEBIO document as an event; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    root = _xml(data, log.file, log)
    version = normalise_space(root.get("Version") or "")
    if version not in _VERSIONS:
        log.report(UnsupportedVariant(
            "USEBIO version not 1.0-1.2; read as 1.2", table="USEBIO", column="Version",
            value=version,
        ), level="info")
    organiser = _text(root.find("CLUB"), "CLUB_NAME")
    events: list[Event] = []
    found = root.findall("EVENT")
    if not found:
        raise MalformedFile("the document has no EVENT", file=log.file, table="USEBIO")
    for index, event in enumerate(found, start=1):
        own_club = _text(event.find("CLUB"), "CLUB_NAME")
        events.extend(_events_of(event, index, own_club or organiser, log))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="USEBIO XML 1.0-1.2 (EBU interchange format: Compscore, EBUScore, ...)",
    detect=detect,
    parse=parse,
)
