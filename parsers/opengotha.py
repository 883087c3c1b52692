"""OpenGotha tournament files: the XML OpenGotha saves a go tournament in.

The file (OpenGotha's ``tournament.dtd``; docs/rules/inputs.md, "Other games"):

    <Tournament dataVersion="201" ...>
      <Players><Player name="Chauvin" firstName="Robin" rank="2D" grade="2D" country="FR"
                       club="69Ly" rating="2200" ratingOrigin="EGF"
                       egfPin="15662482" ffgLicence="0800145" agaId="" .../></Players>
      <Games><Game roundNumber="1" tableNumber="2" blackPlayer="CHAUVINROBIN"
                   whitePlayer="DUCHAUFOURQUENTIN" handicap="0" knownColor="true"
                   result="RESULT_BLACKWINS"/></Games>
      <ByePlayers><ByePlayer roundNumber="3" player="KEY"/></ByePlayers>
      <TournamentParameterSet><GeneralParameterSet name="..." shortName="..." location="Lyon"
                   beginDate="2017-02-11" endDate="2017-02-12" komi="7.5" .../></...>
    </Tournament>

- a game names its players by key: surname and first name without spaces, in upper case
  (``de Butler`` ``Tristan`` -> ``DEBUTLERTRISTAN``);
- results: ``RESULT_WHITEWINS``, ``RESULT_BLACKWINS``, ``RESULT_EQUAL`` (jigo) are games;
  ``..._BYDEF`` is a result by default (forfeit), ``RESULT_UNKNOWN`` a game not played yet,
  ``RESULT_BOTHWIN`` / ``RESULT_BOTHLOSE`` a tournament director's decision: none of these is a
  game to rate, each is an info issue; a ``ByePlayer`` is an info issue too (OpenGotha 3.52
  nests them, ``<ByePlayer><ByePlayer .../></ByePlayer>``); these rounds that are no game
  are the result's ``round_marks``, which the crosstable writes;
- ``knownColor="false"``: the colours were not recorded, the units carry no colour;
- the player's federation id is the EGD pin, else the FFG licence, else the AGA id;
- the declared grade is ``grade`` (else ``rank``), read by ``go_grades.read_grade`` (``2D``,
  ``30K``, ``1P``); one that does not read is a warning and the player is kept without a grade.
  The stated ``rating`` and its ``ratingOrigin`` are kept as written (``go_grades``);
- the file has no date per round: every game is dated on ``beginDate`` (``end_date`` =
  ``endDate``), said once in an info issue. No ``beginDate`` is a ``MalformedFile``;
- ``komi`` is the komi of even games; a handicap game's komi is left unknown.

A file without one game to rate is refused (``UnsupportedVariant``): a tournament saved before
its first pairing holds registrations only ("no games yet"), and one whose games all lack a
played result has nothing to rate either.

The same file is also a tournament's setup: :func:`read_setup` gives the entry list (keys,
ranks, ratings, clubs, McMahon corrections), the parameter sets (McMahon bar and floor, pairing
and handicap settings), the placement criteria and every game and bye as paired, results known
or not. It is what ``clubratings mcmahon start --from`` pairs from (tournaments/opengotha.py);
unlike :func:`parse` it needs neither a name nor a date (a tournament is set up before it is
named and dated) and keeps the games without a result.

Parsed with ``defusedxml`` (no entity expansion, no external references), within ``[limits]``
(file size; ``rows`` bounds the players and the games). Errors name the element (``table``:
``Game 3``, counted from 1 in file order) and the attribute (``column``).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
import xml.etree.ElementTree as ET  # types only; parsing is defusedxml's
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ._dates import parse_date
from ._errors import InconsistentResult, MalformedFile, ParseError, UnsupportedVariant
from ._gate import ImplausibleResult, filler_reason, junk_reason
from ._issues import IssueLog, source_name
from ._limits import check_bytes, check_markup, current, over
from ._model import Event, ParseResult, PlayerAsWritten, RoundMark, RoundMarkKind, Unit
from ._registry import Format
from ._text import normalise_space
from .egd_table import Colour
from .go_grades import declared

__all__ = [
    "FORMAT",
    "SetupGame",
    "SetupPlayer",
    "TournamentSetup",
    "detect",
    "parse",
    "player_key",
    "read_setup",
]

NAME = "opengotha"

_RESULTS = {
    "RESULT_BLACKWINS": ("black", 1.0, 2.0),
    "RESULT_WHITEWINS": ("white", 2.0, 1.0),
    "RESULT_EQUAL": ("jigo", 1.5, 1.5),
}
"""Results that are games: (what happened, black's place, white's place)."""

_NOT_GAMES = {
    "RESULT_UNKNOWN": "result not known yet (not played)",
    "RESULT_BOTHWIN": "both players given the win",
    "RESULT_BOTHLOSE": "both players given the loss",
}

_DETECT = re.compile(rb"<Tournament\b[^>]*>\s*(?:<!--.*?-->\s*)*<(?:Players|Games)\b", re.DOTALL)


def player_key(name: str, first_name: str) -> str:
    """OpenGotha's key of a player: surname and first name, spaces removed, upper case (only
    the space: a no-break space stays, as OpenGotha keeps it)."""
    return (name + first_name).replace(" ", "").upper()


def _matching(key: str) -> str:
    """A key as games and players are matched by: the dots and accents the Java program's
    locale may add in one place and not the other (a Turkish ``AKDENİZ`` for ``Akdeniz``) and
    the hyphens, underscores and accents older versions drop (``LECALVETANGUY`` for ``le_Calvé
    Tanguy``) folded away."""
    decomposed = unicodedata.normalize("NFKD", key.upper())
    return "".join(c for c in decomposed if c.isalnum()).upper()


def detect(data: bytes, filename: str = "") -> bool:
    """An XML document whose root is ``<Tournament>`` holding ``<Players>`` or ``<Games>``."""
    return bool(_DETECT.search(data[:8192]))


def _root(data: bytes, file: str) -> ET.Element:
    try:
        root: ET.Element = SafeET.fromstring(data)
    except (ET.ParseError, DefusedXmlException, ValueError) as exc:
        raise MalformedFile(f"not readable as XML ({exc})", file=file) from exc
    if root.tag != "Tournament":
        raise MalformedFile("not an OpenGotha tournament: the root element is not <Tournament>",
                            file=file, value=root.tag)
    for what, path in (("players", "Players/Player"), ("games", "Games/Game")):
        count = sum(1 for _ in root.iterfind(path))
        if count > current().rows:
            raise over("rows", count, f"the file has more {what}").with_file(file)
    return root


def _attr(element: ET.Element, name: str) -> str:
    return normalise_space(element.get(name) or "")


def _date(general: ET.Element, name: str, file: str) -> dt.date | None:
    text = _attr(general, name)
    if not text:
        return None
    try:
        return parse_date(text)
    except ValueError:
        raise MalformedFile(f"invalid {name}", file=file, table="GeneralParameterSet",
                            column=name, value=text) from None


def _general(root: ET.Element, file: str) -> tuple[str, str, dt.date, dt.date, float | None]:
    """(name, organiser, first day, last day, komi) from ``GeneralParameterSet``."""
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    if general is None:
        raise MalformedFile("no <GeneralParameterSet>: the tournament has no name or date",
                            file=file)
    name = _attr(general, "name") or _attr(general, "shortName")
    if not name:
        raise MalformedFile("the tournament has no name", file=file,
                            table="GeneralParameterSet", column="name", value="")
    start = _date(general, "beginDate", file)
    if start is None:
        raise MalformedFile("no tournament date", file=file, table="GeneralParameterSet",
                            column="beginDate", value="")
    end = _date(general, "endDate", file) or start
    try:
        komi: float | None = float(_attr(general, "komi")) if _attr(general, "komi") else None
    except ValueError:
        komi = None
    return name, _attr(general, "location") or name, start, max(start, end), komi


def _players(root: ET.Element, log: IssueLog) -> dict[str, PlayerAsWritten]:
    players: dict[str, PlayerAsWritten] = {}
    for index, element in enumerate(root.iterfind("Players/Player"), start=1):
        surname, first = _attr(element, "name"), _attr(element, "firstName")
        if not surname and not first:
            log.report(MalformedFile("player without a name; ignored", table=f"Player {index}",
                                     column="name", value=""))
            continue
        federation_id = next(
            (v for v in (_attr(element, a) for a in ("egfPin", "ffgLicence", "agaId")) if v),
            None,
        )
        key = _matching(player_key(surname, first))
        if key in players:
            log.report(MalformedFile("two players with the same key; the first one is kept",
                                     table=f"Player {index}", column="name", value=key))
            continue
        name = " ".join(p for p in (surname, first) if p)
        base = PlayerAsWritten(
            name=name, federation_id=federation_id, club=_attr(element, "club") or None,
            # a name with digits in OpenGotha's name fields is a go server's user name
            # (online tournaments register players by their KGS/OGS accounts: ``Daiki0``)
            handle=any(c.isdigit() for c in name) and filler_reason(name) is None,
        )
        # the declared grade: ``grade`` (OpenGotha 3.48 on), else ``rank`` (what older files
        # and the pairing use); the stated rating and where it comes from kept as written
        grade = _attr(element, "grade") or _attr(element, "rank")
        players[key] = declared(base, grade, log, where=f"Player {index}",
                                rating=_attr(element, "rating"),
                                rating_origin=_attr(element, "ratingOrigin"))
    return players


def _int(element: ET.Element, attribute: str, where: str, default: int | None) -> int:
    text = _attr(element, attribute)
    if not text and default is not None:
        return default
    if not text.isdigit():
        raise MalformedFile(f"invalid {attribute}", table=where, column=attribute, value=text,
                            has_value=True)
    return int(text)


def _unit(
    player: PlayerAsWritten, key: str, place: float, colour: Colour | None, result: str,
) -> Unit:
    return Unit(
        place=place, place_text=result, label=key,
        score={1.0: 1.0, 2.0: 0.0, 1.5: 0.5}[place], players=(player,),
        colour=colour,
    )


class _Reader:
    """Reads the ``<Game>`` elements of one file into events."""

    def __init__(self, root: ET.Element, log: IssueLog) -> None:
        self.log = log
        self.name, self.organiser, self.start, self.end, self.komi = _general(root, log.file)
        self.players = _players(root, log)
        self.seen: dict[tuple[int, str], str] = {}

    def event(self, element: ET.Element, index: int) -> Event | None:
        """The game of one ``<Game>`` element, or None (with an issue) if it is not one."""
        where = f"Game {index}"
        round_ = _int(element, "roundNumber", where, None)
        table = _int(element, "tableNumber", where, 0)
        result = _attr(element, "result") or "RESULT_UNKNOWN"
        keys = {c: _attr(element, f"{c}Player").upper() for c in ("black", "white")}
        for colour, key in keys.items():
            if _matching(key) not in self.players:
                self.log.report(InconsistentResult(
                    f"round {round_}: {colour} player is not in <Players>; game skipped",
                    table=where, column=f"{colour}Player", value=key))
                return None
        for colour, key in keys.items():
            clash = self.seen.get((round_, key))
            if clash is not None:
                self.log.report(InconsistentResult(
                    f"round {round_}: player already plays in {clash}; game skipped",
                    table=where, column=f"{colour}Player", value=key))
                return None
        for key in keys.values():
            self.seen[(round_, key)] = where
        pairing = " \u2013 ".join(self.players[_matching(k)].name for k in keys.values())
        filler = next((self.players[_matching(k)].name for k in keys.values()
                       if filler_reason(self.players[_matching(k)].name)), None)
        if filler is not None:  # a team's empty board: a "Ghost" registered to fill it
            self.log.report(MalformedFile(
                f"round {round_}: {pairing}: {filler} is a seat filler, not a player; "
                "not an event", table=where, column="player", value=filler), level="info")
            return None
        if result.endswith("_BYDEF") or result in _NOT_GAMES:
            what = _NOT_GAMES.get(result, "result by default (forfeit)")
            self.log.report(MalformedFile(f"round {round_}: {pairing}: {what}; not an event",
                                          table=where, column="result", value=result),
                            level="info")
            return None
        if result not in _RESULTS:
            self.log.report(MalformedFile(f"round {round_}: unknown result; game skipped",
                                          table=where, column="result", value=result))
            return None
        _, black_place, white_place = _RESULTS[result]
        known = _attr(element, "knownColor").lower() != "false"
        if not known:
            self.log.report(MalformedFile(f"round {round_}: {pairing}: colours not recorded",
                                          table=where, column="knownColor", value="false"),
                            level="info")
        handicap = _int(element, "handicap", where, 0)
        units = sorted(
            (_unit(self.players[_matching(keys["black"])], keys["black"], black_place,
                   "black" if known else None, result),
             _unit(self.players[_matching(keys["white"])], keys["white"], white_place,
                   "white" if known else None, result)),
            key=lambda u: u.place or 0.0,
        )
        return Event(
            game="go", title=f"{self.name} round {round_}: {pairing}", date=self.start,
            kind="individual", scoring="unknown", units=tuple(units),
            section=f"board {table}" if table else pairing, organiser=self.organiser,
            format=NAME, end_date=self.end if self.end != self.start else None, round=round_,
            parent=self.name, handicap=handicap, komi=self.komi if handicap == 0 else None,
        )


def _bye_elements(root: ET.Element) -> list[ET.Element]:
    """The ``<ByePlayer>`` elements that give a player a bye. OpenGotha 3.52 writes
    ``<ByePlayer><ByePlayer .../></ByePlayer>``, older versions ``<ByePlayers><ByePlayer
    .../></ByePlayers>``: every element with a player is a bye."""
    return [element for element in root.iter("ByePlayer") if _attr(element, "player")]


def _byes(root: ET.Element, players: dict[str, PlayerAsWritten], log: IssueLog) -> None:
    for index, element in enumerate(_bye_elements(root), start=1):
        key = _attr(element, "player").upper()
        name = players[_matching(key)].name if _matching(key) in players else key
        log.report(MalformedFile(
            f"round {_attr(element, 'roundNumber')}: {name} has a bye; not an event",
            table=f"ByePlayer {index}", column="player", value=key), level="info")


_MARKS_BY_DEFAULT: dict[str, tuple[RoundMarkKind, RoundMarkKind]] = {
    "RESULT_BLACKWINS_BYDEF": ("win by default", "loss by default"),
    "RESULT_WHITEWINS_BYDEF": ("loss by default", "win by default"),
    "RESULT_EQUAL_BYDEF": ("not played", "not played"),
    "RESULT_BOTHWIN": ("win by default", "win by default"),
    "RESULT_BOTHLOSE": ("loss by default", "loss by default"),
    "RESULT_UNKNOWN": ("not played", "not played"),
}
"""Results that are no game, as (black's mark, white's mark) in the crosstable."""


def _round_marks(root: ET.Element) -> tuple[RoundMark, ...]:
    """The rounds that are no game for a player: each bye (both layouts) and each side of a
    ``<Game>`` whose result is by default, decided by the director or not known, by round
    and player; a player's first mark in a round counts. An element without a round number
    that reads is left out (the games report it)."""
    marks: dict[tuple[int, str], tuple[RoundMarkKind, str | None]] = {}
    for element in root.iterfind("Games/Game"):
        result = _attr(element, "result") or "RESULT_UNKNOWN"
        number = _attr(element, "roundNumber")
        if result not in _MARKS_BY_DEFAULT or not number.isdigit():
            continue
        black, white = (_attr(element, f"{c}Player").upper() for c in ("black", "white"))
        for key, other, mark in ((black, white, _MARKS_BY_DEFAULT[result][0]),
                                 (white, black, _MARKS_BY_DEFAULT[result][1])):
            if key:
                marks.setdefault((int(number), key), (mark, other or None))
    for element in _bye_elements(root):
        number = _attr(element, "roundNumber")
        if number.isdigit():
            marks.setdefault((int(number), _attr(element, "player").upper()), ("bye", None))
    return tuple(RoundMark(round=r, player=k, mark=m, opponent=o)
                 for (r, k), (m, o) in sorted(marks.items()))


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events (one per game) of an OpenGotha tournament file; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    root = _root(data, log.file)
    reader = _Reader(root, log)
    events: list[Event] = []
    try:
        for index, element in enumerate(root.iterfind("Games/Game"), start=1):
            event = reader.event(element, index)
            if event is not None:
                events.append(event)
    except MalformedFile as exc:
        raise exc.with_file(log.file) from None
    _byes(root, reader.players, log)
    if not events:
        raise _no_games(root, len(reader.players), log.file)
    if events:
        log.report(MalformedFile(
            f"the file gives no date per round; games dated on the first day "
            f"{reader.start.isoformat()}"
            + (f" (end_date {reader.end.isoformat()})" if reader.end != reader.start else ""),
        ), level="info")
    events.sort(key=lambda e: (e.round or 0, _board(e.section)))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues,
                       round_marks=_round_marks(root))


def _no_games(root: ET.Element, n_players: int, file: str) -> ParseError:
    """The refusal of a file without one game to rate: registrations only (no pairing yet), or
    games whose results are all unknown, by default or decided by the director."""
    games = root.findall("Games/Game")
    if not games:
        return UnsupportedVariant(
            f"no games yet: the tournament has {n_players} registered players but no round has "
            "been paired (a registration list, not results)", file=file, table="Games",
        )
    return UnsupportedVariant(
        f"no games to rate: none of the {len(games)} games has a played result yet "
        "(unknown, by default or decided by the director)", file=file, table="Games",
    )


def _board(section: str) -> int:
    return int(section.removeprefix("board ")) if section.startswith("board ") else 0


# ---------------------------------------------------------------- the tournament's setup

_SCORES = {
    "RESULT_WHITEWINS": (1.0, 0.0), "RESULT_BLACKWINS": (0.0, 1.0), "RESULT_EQUAL": (0.5, 0.5),
    "RESULT_BOTHLOSE": (0.0, 0.0), "RESULT_BOTHLOOSE": (0.0, 0.0),
}
"""Results as (white's score, black's score); ``RESULT_BOTHLOOSE`` is how some versions spell
the double loss. ``RESULT_UNKNOWN`` and ``RESULT_BOTHWIN`` have no scores."""


@dataclass(frozen=True, slots=True)
class SetupPlayer:
    """A player of the entry list (``<Players>``) as the file registers them: text exactly as
    written (the weighted pairing compares clubs as OpenGotha does, ``Lyon `` is not ``Lyon``)."""

    key: str
    """OpenGotha's key (:func:`player_key`), by which games and byes name the player."""
    surname: str
    first_name: str
    rank: str
    """``rank`` as written (``2D``, ``15K``), else ``grade``; empty when the file gives neither."""
    rating: float | None
    """The stated ``rating``; None when the file gives none."""
    club: str = ""
    country: str = ""
    mms_correction: int = 0
    """``smmsCorrection``: McMahon points the director added or took away at the start."""
    federation_id: str | None = None
    """The EGD pin, else the FFG licence, else the AGA id."""


@dataclass(frozen=True, slots=True)
class SetupGame:
    """A game as paired (``<Game>``), whether its result is known yet or not."""

    round: int
    table: int
    white: str
    """The white player's key (the key of the player in ``<Players>`` it names)."""
    black: str
    result: str
    """``result`` as written (``RESULT_UNKNOWN`` when the element has none)."""
    scores: tuple[float, float] | None
    """(white's score, black's score); None while no result is known (``RESULT_UNKNOWN``,
    ``RESULT_BOTHWIN``, an unknown code, or a jigo by default, which OpenGotha cannot mean)."""
    by_default: bool
    """``..._BYDEF``: a result given by default (a forfeit), not a game played."""
    handicap: int = 0


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    """What an OpenGotha file says of a tournament to run it: players, settings, rounds."""

    name: str
    """``GeneralParameterSet`` ``name`` (empty when the file gives none)."""
    short_name: str
    rounds: int | None
    """``numberOfRounds``; None when the file gives none (or 0)."""
    parameters: Mapping[str, Mapping[str, str]]
    """Every parameter set of ``TournamentParameterSet`` by its element name
    (``GeneralParameterSet``, ``PairingParameterSet``, ``HandicapParameterSet`` ...): its
    attributes exactly as written (``genMMBar``: ``1D``, ``paiMaSeedSystem1``:
    ``SPLITANDFOLD``)."""
    placement: tuple[str, ...] | None
    """The placement criteria in their order (``MMS``, ``SOSM``, ...); None when the file has
    no ``PlacementCriteria``."""
    players: tuple[SetupPlayer, ...]
    games: tuple[SetupGame, ...]
    byes: tuple[tuple[int, str], ...]
    """(round, key) of every player given a bye."""


def read_setup(data: bytes, *, source: str = "") -> TournamentSetup:
    """The setup of an OpenGotha tournament file: entry list, parameters, games and byes.

    Within ``[limits]``, and every name through the plausibility gate's test of names
    (docs/rules/gate.md): a name that is no person's name (a label, a bare number, markup ...)
    is refused (``ImplausibleResult``). Two players with one key, a game or a bye naming a
    player not in ``<Players>``, or a number that does not read are a :class:`MalformedFile`
    or an :class:`InconsistentResult` naming the element and the attribute.
    """
    file = source_name(source)
    try:
        check_bytes(data)
        check_markup(data)
        return _setup(_root(data, file))
    except ParseError as exc:
        raise exc.with_file(file) from None


def _setup(root: ET.Element) -> TournamentSetup:
    sets = root.find("TournamentParameterSet")
    parameters: dict[str, Mapping[str, str]] = {} if sets is None else {
        element.tag: MappingProxyType(dict(element.attrib)) for element in sets}
    general = parameters.get("GeneralParameterSet", {})
    rounds = general.get("numberOfRounds", "")
    if rounds and not rounds.isdigit():
        raise MalformedFile("invalid numberOfRounds", table="GeneralParameterSet",
                            column="numberOfRounds", value=rounds)
    criteria = root.find("TournamentParameterSet/PlacementParameterSet/PlacementCriteria")
    placement = None
    if criteria is not None:
        numbered = sorted(
            ((_signed(c, "number", f"PlacementCriterion {i}", 0), _attr(c, "name") or "NULL")
             for i, c in enumerate(criteria.iterfind("PlacementCriterion"), start=1)),
            key=lambda c: c[0])
        placement = tuple(name for _, name in numbered)
    players = _setup_players(root)
    keys = {p.key for p in players}
    folded: dict[str, list[str]] = {}
    for p in players:
        folded.setdefault(_matching(p.key), []).append(p.key)

    def player(element: ET.Element, column: str, where: str, what: str) -> str:
        """The key of the player an attribute names: as written, else matched as :func:`parse`
        matches keys (accents, dots and hyphens folded away) when that finds one player."""
        text = _attr(element, column)
        key = text.replace(" ", "").upper()
        if key in keys:
            return key
        found = folded.get(_matching(key), [])
        if len(found) == 1:
            return found[0]
        raise InconsistentResult(f"{what} is not in <Players>", table=where, column=column,
                                 value=text)

    games = []
    for index, element in enumerate(root.iterfind("Games/Game"), start=1):
        where = f"Game {index}"
        number = _int(element, "roundNumber", where, None)
        result = _attr(element, "result") or "RESULT_UNKNOWN"
        by_default = result.endswith("_BYDEF")
        scores = _SCORES.get(result.removesuffix("_BYDEF"))
        games.append(SetupGame(
            round=number, table=_int(element, "tableNumber", where, 0),
            white=player(element, "whitePlayer", where, f"round {number}: the white player"),
            black=player(element, "blackPlayer", where, f"round {number}: the black player"),
            result=result, scores=None if by_default and scores == (0.5, 0.5) else scores,
            by_default=by_default, handicap=_int(element, "handicap", where, 0)))
    byes = []
    for index, element in enumerate(_bye_elements(root), start=1):
        where = f"ByePlayer {index}"
        number = _int(element, "roundNumber", where, None)
        byes.append((number, player(element, "player", where,
                                    f"round {number}: the player with a bye")))
    return TournamentSetup(
        name=general.get("name", ""), short_name=general.get("shortName", ""),
        rounds=(int(rounds) or None) if rounds else None,
        parameters=MappingProxyType(parameters), placement=placement,
        players=tuple(players), games=tuple(games), byes=tuple(byes))


def _setup_players(root: ET.Element) -> list[SetupPlayer]:
    players: list[SetupPlayer] = []
    seen: dict[str, str] = {}
    for index, element in enumerate(root.iterfind("Players/Player"), start=1):
        where = f"Player {index}"
        surname, first = element.get("name") or "", element.get("firstName") or ""
        name = " ".join(p for p in (normalise_space(surname), normalise_space(first)) if p)
        # a name with digits is a go server's user name, as in parse()
        handle = any(c.isdigit() for c in name) and filler_reason(name) is None
        why = junk_reason(PlayerAsWritten(name=name, handle=handle), handles=handle) \
            if name else "is empty"
        if why is not None:
            raise ImplausibleResult(f"the player's name {why}", table=where, column="name",
                                    value=name)
        key = player_key(surname, first)
        if key in seen:
            raise MalformedFile(f"two players with the key {key!r} ({seen[key]} and this one)",
                                table=where, column="name", value=name)
        seen[key] = where
        rating_text = _attr(element, "rating")
        rating = None
        if rating_text:
            try:
                rating = float(rating_text)
            except ValueError:
                rating = math.nan
            if not math.isfinite(rating):
                raise MalformedFile("invalid rating", table=where, column="rating",
                                    value=rating_text)
        players.append(SetupPlayer(
            key=key, surname=surname, first_name=first,
            rank=element.get("rank") or element.get("grade") or "", rating=rating,
            club=element.get("club") or "", country=element.get("country") or "",
            mms_correction=_signed(element, "smmsCorrection", where, 0),
            federation_id=next((v for v in (_attr(element, a) for a in
                                            ("egfPin", "ffgLicence", "agaId")) if v), None)))
    return players


def _signed(element: ET.Element, attribute: str, where: str, default: int) -> int:
    """A whole number that may be negative (``smmsCorrection="-1"``); ``default`` when empty."""
    text = _attr(element, attribute)
    if not text:
        return default
    if not re.fullmatch(r"[+-]?\d+", text):
        raise MalformedFile(f"invalid {attribute}", table=where, column=attribute, value=text,
                            has_value=True)
    return int(text)


FORMAT = Format(
    name=NAME,
    description="go: OpenGotha tournament file (XML), one event per game",
    detect=detect,
    parse=parse,
)
