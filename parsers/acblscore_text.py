"""ACBLscore game results as plain text: the report North American clubs print and publish.

ACBLscore (the ACBL's club scoring program) writes a session's results as a fixed-width text
report, one block per section and direction. Each block opens with labelled header lines::

    EVENT>0-300                    |SESSION>Monday Eve   |SECTION> A N-S
    DATE>October 6, 2008    |CLUB NO.>259960    | 10/07/2008 05:14     (or |SANCTION>ST0902014)
    DIR> Ewa Zwicky      |RATING>Club Masterpoint (80%, 60% Open)|MOVEMENT>MITCHELL
    AVE>   75.0 |TOP>   6 |MP LIMITS>300/50         |CLUB>CAPITAL CITY BRIDGE CLUB

then the pairs of the section in pair-number order under a header row and a dashed rule::

    No         Name                           Name                   |Flt|Rnk-A|Rnk-B| Score | Pct  |Awards   |
    ----------------------------------------------------------------- --- ----- ----- ------- ------ ---------
     4 1191098 Hiroko Kashu           5279100 Geoffrey Mason           A    1     .     90.45  60.30  0.56(A)

and, after a ``Totals`` line, the board-by-board matchpoint matrix (``**PAIRS**``, rows ``  1>``),
which is only used to count the boards, or the travellers (``RESULTS OF BOARD 1``, not read).
Line ends are often ``CR CR LF``.

Layouts read (fixtures/real/acblscore_text/ holds one of each):

- **names with or without ACBL player numbers**: a number column exists when the header leaves
  room for it before each ``Name`` (``No         Name``: 8 or more blank columns); then the
  7-character number before a name (``1191098``, ``N644933``) is its federation id, and a row
  without one has none. ``No Name  Name`` has no number column and the names start right after
  the pair number; every name runs to the next name (or the next ``|`` of the header);
- **rank groups**: one to three strats (``Rnk-A|Rnk-B|Rnk-C``), ``Overall`` and ``Section`` rank
  groups side by side (rows write a ``|`` between them and sit a column or two left of their
  header), a ``Qualifiers``/``Qual`` group (``Q``), ``NE`` (not eligible) in a rank cell, the
  short headers ``| Rank|Score | Pct  |Awards|`` and ``|  Rank| Rank|Score|...``, an ``Adjust``
  column, awards as ``0.56(A)``, ``2.10(OA)`` or ``1.84Red`` with ``1.83Blk`` on a line of its
  own. The cells right of the names are found from the header's ``|``: a value belongs to the
  cell its last character falls in (values are right-aligned in their cells);
- **games without a masterpoint rating**: ``RATING>`` empty and no ``MP LIMITS>`` (the fourth
  header line is ``AVE>|TOP>|CLUB>``, often with ``CLUB>`` and ``CLUB NO.>`` empty, so the
  organiser is empty), ``PAIRS>  4`` for ``PAIRS IN STRAT``, rank groups without strats or
  awards (``| O'all|   Section  |``);
- **movements**: one winner (``MOVEMENT>ONE WINNER``/``WEB``, Howell; section ``A``), two
  winners (Mitchell, ``A N-S`` and ``A E-W``), several sections (``B N-S``, ``C``, ``X``);
- **Swiss teams in victory points** (``GAME>VICTORY POINT``): each team is a group of lines
  between ``- - -`` rules, two per member pair of names (names, then their towns: ``Mercer
  Island WA``), the line with the team number carrying ``Wins`` and ``Score`` (the VPs). The
  members of a team are its players; kind ``teams``, scoring ``VP``, boards ``ROUNDS`` times
  ``BDS/RD``.

Places: the rank columns are masterpoint ranks: they list only the award winners of each strat
and skip pairs not eligible (``NE``), and the Swiss ``Overall Rank`` likewise, so they are not
the finishing order. The place of a unit is its order by score (the percentage, else the
matchpoint or VP total), equal scores sharing the mean of their places; ``place_text`` stays
empty because the report writes no finishing place.

Events: one per block (``pairs``, scoring ``MP``, score the percentage; or the teams above);
``title`` is ``EVENT`` and ``SESSION`` joined (``0-300, Monday Eve``), ``section`` the
``SECTION`` value as written (``A N-S``; empty for a Swiss report, whose first line says
``|Page> 1``), ``organiser`` the ``CLUB`` name (the club number when no name), ``date`` the
``DATE`` value (a block without a readable date is ``MalformedFile``: no date is invented),
``boards`` the number of boards in the block's matrix, else the number of boards whose
travellers the report prints (``RESULTS OF BOARD 27``: the boards in play that session). A block that leaves out header lines
(the web pages of :mod:`parsers.acblmerge` drop ``DATE>`` and ``DIR>`` after the first block)
takes them from the report's first block. A report printed twice into one file (the same blocks
again) gives each event once; a block printed again with different results and a later print
stamp (the time ending the ``DATE>`` line: the game rescored) replaces the earlier one, with a
warning; without a later stamp that is :class:`InconsistentResult`.

Names: a name cell that holds a strat or qualifier mark, ``NE``, ``Totals`` or a number is not a
name (the columns were misread): a warning, and no player.

Refused: other games (``GAME>WIN-LOSS`` Swiss pairs, board-a-match: ``UnsupportedVariant``),
a ranking with one name per row (individual: ``UnsupportedVariant``), a block with no ranking
(``MalformedFile``), a ranking printed without the players' names (pair numbers and scores
only: ``MalformedFile``), rows that stop before the score column (a cut-down copy with the names
cut too, as ACBLmerge's phone page makes of the short layouts: ``MalformedFile``), and blank
templates (``EVENT>0-200 Game``, ``DATE>Month 0, year``, one row ``1  NO RESULTS AVAILABLE``:
``UnsupportedVariant``, saying so).

Errors::

    ParseError
    +-- MalformedFile          no EVENT> line, no date, no ranking, no names, a score not readable
    +-- UnsupportedVariant     win-loss, board-a-match or individual reports, blank templates
    +-- InconsistentResult     a section printed twice with different results, no later stamp
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ._dates import find_date
from ._errors import InconsistentResult, MalformedFile, NoResults, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._registry import Format
from ._text import decode_bytes, normalise_space, parse_decimal

__all__ = ["FORMAT", "detect", "parse", "read_report"]

NAME = "acblscore_text"

_FIRST_LINE = re.compile(rb"^\s*EVENT>[^\r\n]*\|(?:SESSION|SECTION|Page)>")
_MARKS = (b"DATE>", b"DIR>", b"CLUB>")
_LIMITS_OR_TOP = (b"MP LIMITS>", b"TOP>")
"""One of them is on every report's fourth header line: a pairs game prints ``AVE>|TOP>|MP
LIMITS>|CLUB>``, a game without a masterpoint rating (``RATING>`` empty)
``AVE>|TOP>|CLUB>`` without ``MP LIMITS>``, a Swiss teams report ``MP LIMITS>|CLUB>``
without ``AVE>|TOP>``."""


def detect(data: bytes, filename: str = "") -> bool:
    """An ACBLscore text report: its first line ``EVENT>...|SESSION>...`` (or ``|Page>``) and
    the labelled header lines below it (``DATE>``, ``DIR>``, ``CLUB>``, and ``MP LIMITS>`` or
    ``TOP>``)."""
    head = data[:4096]
    return (bool(_FIRST_LINE.match(head)) and all(mark in head for mark in _MARKS)
            and any(mark in head for mark in _LIMITS_OR_TOP))


_LABEL = re.compile(r"([A-Z][A-Z ./]*?)>")
_BOARD_ROW = re.compile(r"^\s*(\d+)>")
_ROW = re.compile(r"^\s{0,2}(\d{1,3})\s")
_HEADER = re.compile(r"^\s?No\s.*\bName\b.*\|")
_NAME = re.compile(r"\bName\b")
_TOKEN = re.compile(r"[^\s|]+")
_TEAM_RULE = re.compile(r"^\s*(?:- ){5,}")
_END = re.compile(r"\bTotals\b|\*\*", re.IGNORECASE)
_PLACE_LINE = re.compile(r"^(?:[^\W\d_][\w .'-]*\s)?[A-Z]{2}$")
"""A team member's second line: the town and state (``Mercer Island WA``) or country (``US``)."""
_NOT_NAME = re.compile(r"^(?:[A-Z]|NE|Q{1,3}|Totals?|TOTALS|Section.*)$|\d")
"""What a name cell holds when the columns were misread: a strat or qualifier mark, a number."""
_NO_RESULTS = re.compile(r"^\s*\d*\s+NO RESULTS AVAILABLE\s*$", re.IGNORECASE)
"""The one row of a blank report template (a club's page for a night not yet scored)."""
_NOT_INHERITED = frozenset({"SECTION", "Page"})
_ID_GAP = 8
"""Blank columns before a ``Name`` header that hold the 7-character ACBL player number."""


def _labels(lines: Sequence[str]) -> dict[str, str]:
    """``EVENT`` -> ``0-300``, ``CLUB NO.`` -> ``259960``, ... from the block's header lines."""
    values: dict[str, str] = {}
    for line in lines:
        if _HEADER.match(line):
            break
        for part in line.split("|"):
            match = _LABEL.match(part.strip())
            if match:
                key = match[1].strip()
                values.setdefault(key, normalise_space(part.strip()[match.end():]))
    return values


@dataclass(frozen=True, slots=True)
class _Name:
    start: int
    end: int
    number: int | None
    """Start of the ACBL player number column before the name, if the report has one."""


@dataclass(frozen=True, slots=True)
class _Columns:
    header: int
    """Index (in the block) of the ``No  Name  Name |...`` line."""
    names: tuple[_Name, ...]
    names_end: int
    bars: tuple[int, ...]
    """Positions of the header's ``|`` from the end of the names on: cell k lies after bar k."""
    cells: tuple[str, ...]
    """The header text of each cell right of the names (``Flt``, ``Rnk-A``, ``Score``, ...)."""
    teams: bool

    def cell(self, label: str) -> int | None:
        return next((i for i, c in enumerate(self.cells) if c.lower() == label.lower()), None)


def _columns(block: Sequence[str], table: str, file: str) -> _Columns | None:
    """The ranking header of a block: where the names stand, whether an ACBL player number
    precedes each, and the cells right of the names between the header's ``|``."""
    for index, line in enumerate(block):
        if not _HEADER.match(line):
            continue
        starts = [m.start() for m in _NAME.finditer(line)]
        bars = [i for i, ch in enumerate(line) if ch == "|"]
        number_end = line.index("No") + 2
        teams = "Points" in line
        if len(starts) < 2:
            raise UnsupportedVariant(
                "the ranking names one player per row (an individual report?); only pairs "
                "and teams reports are read", file=file, table=table, value=normalise_space(line))
        has_numbers = not line[number_end:starts[0]].strip() and \
            starts[0] - number_end >= _ID_GAP + 1
        names: list[_Name] = []
        for position, start in enumerate(starts):
            following = starts[position + 1] if position + 1 < len(starts) else 10_000
            if has_numbers:
                following -= _ID_GAP
            bar = next((b for b in bars if b > start), len(line))
            names.append(_Name(start, min(following, bar),
                               start - _ID_GAP if has_numbers else None))
        names_end = next((b for b in bars if b > starts[-1]), len(line))
        tail_bars = [b for b in bars if b >= names_end]
        cells = tuple(normalise_space(line[b + 1:e]) for b, e in zip(tail_bars, tail_bars[1:]))
        if not cells:
            raise MalformedFile("the ranking header has no columns right of the names",
                                file=file, table=table, value=normalise_space(line))
        return _Columns(index, tuple(names), names_end, tuple(tail_bars), cells, teams)
    return None


def _cell_tokens(line: str, columns: _Columns) -> list[list[str]]:
    """The tokens of a row right of the names, each in the header cell its last character
    falls in. ACBLscore shifts the rank groups of some rows a column or two left of their
    header; the cells of the numbers (score, percentage) stay right-aligned in theirs."""
    cells: list[list[str]] = [[] for _ in columns.cells]
    last = len(cells) - 1
    for match in _TOKEN.finditer(line, columns.names_end):
        end = match.end() - 1
        cell = min(max(bisect.bisect_left(columns.bars, end) - 1, 0), last)
        cells[cell].append(match[0])
    return cells


def _player(line: str, name: _Name, table: str, row: int, log: IssueLog,
            ) -> PlayerAsWritten | None:
    text = normalise_space(line[name.start:name.end])
    if not text:
        return None
    number = line[name.number:name.start].strip() if name.number is not None else ""
    if _NOT_NAME.search(text):
        log.report(MalformedFile("a name cell holds no name (the columns are misread?); "
                                 "no player kept", table=table, row=row, column="Name",
                                 value=text))
        return None
    federation_id = number if re.fullmatch(r"[0-9A-Z]\d{6}", number) else None
    return PlayerAsWritten(name=text, federation_id=federation_id)


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    label: str
    score: float
    players: tuple[PlayerAsWritten, ...]


def _score_cell(columns: _Columns, table: str, file: str) -> tuple[str, int]:
    for name in ("Pct", "Score"):
        found = columns.cell(name)
        if found is not None:
            return columns.cells[found], found
    raise MalformedFile("the ranking has neither a Pct nor a Score column", file=file,
                        table=table, value=" | ".join(columns.cells))


def _score(line: str, columns: _Columns, cell: tuple[str, int], label: str, number: int,
           table: str, log: IssueLog) -> float:
    name, index = cell
    tokens = _cell_tokens(line, columns)[index]
    score = parse_decimal(tokens[0]) if len(tokens) == 1 else None
    if score is None and not tokens and len(line) <= columns.bars[index]:
        raise MalformedFile(
            f"{'team' if columns.teams else 'pair'} {label}: the row stops before the {name} "
            "column (a cut-down copy of the report, as ACBLmerge's phone page makes of some "
            "layouts, with the names cut too); not read", file=log.file, table=table,
            row=number, column=name, value=line.strip())
    if score is None:
        raise MalformedFile(f"{'team' if columns.teams else 'pair'} {label}: no readable "
                            f"{name}", file=log.file, table=table, row=number, column=name,
                            value=" ".join(tokens))
    return score


def _pair_rows(block: Sequence[str], first_line: int, columns: _Columns, table: str,
               log: IssueLog) -> list[_Row]:
    cell = _score_cell(columns, table, log.file)
    rows: list[_Row] = []
    for offset, line in enumerate(block[columns.header + 2:], start=columns.header + 2):
        if _END.search(line):
            break
        match = _ROW.match(line)
        if not match:
            continue
        number = first_line + offset + 1
        players = tuple(p for name in columns.names
                        if (p := _player(line, name, table, number, log)) is not None)
        rows.append(_Row(number, match[1],
                         _score(line, columns, cell, match[1], number, table, log), players))
    return rows


def _team_rows(block: Sequence[str], first_line: int, columns: _Columns, table: str,
               log: IssueLog) -> list[_Row]:
    """Teams: each team a group of lines between ``- - -`` rules, two lines per member pair
    of the ranking (the names, then their towns); the line with the team number carries the
    results."""
    cell = _score_cell(columns, table, log.file)
    groups: list[list[tuple[int, str]]] = [[]]
    for offset, line in enumerate(block[columns.header + 2:], start=columns.header + 2):
        if _END.search(line):
            break
        if _TEAM_RULE.match(line):
            groups.append([])
        else:
            groups[-1].append((first_line + offset + 1, line))
    rows: list[_Row] = []
    for group in groups:
        numbered = [(n, line, m[1]) for n, line in group if (m := _ROW.match(line))]
        if not numbered:
            continue
        number, line, label = numbered[0]
        second = [written for _, text in group[1::2] for name in columns.names
                  if (written := normalise_space(text[name.start:name.end]))]
        towns = sum(bool(_PLACE_LINE.match(w)) for w in second) * 2 >= len(second)
        member_lines = group[0::2] if towns else group
        players = tuple(p for n, text in member_lines for name in columns.names
                        if (p := _player(text, name, table, n, log)) is not None)
        rows.append(_Row(number, label,
                         _score(line, columns, cell, label, number, table, log), players))
    return rows


def _places(scores: list[float]) -> list[float]:
    """Places by score, higher better; equal scores share the mean of their places."""
    order = sorted(scores, reverse=True)
    first: dict[float, int] = {}
    count: dict[float, int] = {}
    for position, score in enumerate(order, start=1):
        first.setdefault(score, position)
        count[score] = count.get(score, 0) + 1
    return [first[s] + (count[s] - 1) / 2 for s in scores]


def _boards(block: Sequence[str], values: dict[str, str], teams: bool,
            in_play: int | None) -> int | None:
    """Pairs: the rows of the board matrix, else the boards the session's travellers show
    (``in_play``); teams: ``ROUNDS`` times ``BDS/RD`` (the matrix of a teams report counts
    teams, not boards)."""
    if teams:
        rounds, per_round = values.get("ROUNDS", ""), values.get("BDS/RD", "")
        if rounds.isdigit() and per_round.isdigit():
            return int(rounds) * int(per_round)
        return None
    numbers = {int(m[1]) for line in block if (m := _BOARD_ROW.match(line))}
    return len(numbers) or in_play


_TRAVELLER = re.compile(r"^\s*RESULTS OF BOARD\s+(\d+)", re.MULTILINE)


def boards_in_play(text: str) -> int | None:
    """The boards whose travellers the report prints (``RESULTS OF BOARD 27``), or None."""
    return len({int(m) for m in _TRAVELLER.findall(text)}) or None


def _event(block: Sequence[str], first_line: int, inherited: dict[str, str], log: IssueLog,
           fmt: str, in_play: int | None = None) -> Event:
    values = {**inherited, **_labels(block[:14])}
    section = values.get("SECTION", "")
    table = f"section {section}" if section else "report header"
    if any(_NO_RESULTS.match(line) for line in block):
        raise NoResults(
            "a blank ACBLscore report template: its one row says NO RESULTS AVAILABLE, "
            "no pairs; the night's results are in another file",
            file=log.file, table=table, value=values.get("EVENT", ""))
    found = find_date(values.get("DATE", ""))
    if found is None:
        raise MalformedFile("no event date: the DATE line holds no readable date",
                            file=log.file, table=table, value=values.get("DATE", ""))
    game = values.get("GAME", "").upper()
    kind: Kind = "pairs"
    scoring: Scoring = "MP"
    if "VICTORY" in game:
        kind, scoring = "teams", "VP"
    elif game and "MATCHPOINT" not in game:
        raise UnsupportedVariant(
            f"a {values['GAME']} game: only matchpoint pairs and victory-point teams are read",
            file=log.file, table=table, value=values["GAME"])
    columns = _columns(block, table, log.file)
    if columns is None:
        raise MalformedFile("no ranking (a 'No  Name  Name' header) in this block",
                            file=log.file, table=table, row=first_line + 1, has_value=False)
    if kind == "teams" and not columns.teams:
        columns = dataclasses.replace(columns, teams=True)
    if columns.teams and kind != "teams":
        raise UnsupportedVariant("a teams ranking in a matchpoint game (board-a-match?); not "
                                 "read", file=log.file, table=table, value=values.get("GAME"))
    reader = _team_rows if columns.teams else _pair_rows
    rows = reader(block, first_line, columns, table, log)
    if not rows:
        raise MalformedFile("the ranking has no rows", file=log.file, table=table,
                            row=first_line + columns.header + 1, has_value=False)
    if not any(r.players for r in rows):
        raise MalformedFile(
            f"the ranking names no player: its {len(rows)} "
            f"{'teams' if columns.teams else 'pairs'} have numbers and scores only (the "
            "report was printed without the players' names); not read",
            file=log.file, table=table, row=rows[0].line, column="Name", has_value=False)
    places = _places([r.score for r in rows])
    ranked = sorted(zip(places, rows), key=lambda pr: (pr[0], pr[1].line))
    title = ", ".join(v for v in (values.get("EVENT", ""), values.get("SESSION", "")) if v)
    organiser = values.get("CLUB", "") or values.get("CLUB NO.", "")
    return Event(
        game="bridge", title=title, date=found.date, kind=kind, scoring=scoring,
        units=tuple(Unit(place=place, place_text="", label=row.label, score=row.score,
                         players=row.players) for place, row in ranked),
        boards=_boards(block, values, columns.teams, in_play), section=section,
        organiser=organiser,
        format=fmt,
    )


_PRINTED = re.compile(r"\|\s*(\d{2})/(\d{2})/(\d{4})\s+(\d{1,2}):(\d{2})\s*$")


def _printed(block: Sequence[str]) -> dt.datetime | None:
    """When ACBLscore printed the block: the stamp ending its ``DATE>`` line
    (``| 08/03/2021 18:49``, month first); None without one."""
    for line in block[:6]:
        if line.startswith("DATE>") and (m := _PRINTED.search(line)):
            try:
                return dt.datetime(int(m[3]), int(m[1]), int(m[2]), int(m[4]), int(m[5]))
            except ValueError:
                return None
    return None


def read_report(text: str, log: IssueLog, *, fmt: str = NAME,
                in_play: int | None = None) -> list[Event]:
    """The events of an ACBLscore report's text, one per section block (module docstring).

    Shared by the text report and the web pages that carry the same text (``acblmerge``);
    ``in_play``: the boards of the session where the report's blocks have no board matrix.
    """
    lines = [line.rstrip() for line in text.splitlines()]
    lines = [line for line in lines if line.strip()]
    starts = [i for i, line in enumerate(lines) if line.startswith("EVENT>")]
    if not starts:
        raise MalformedFile("no EVENT> header line: not an ACBLscore results report",
                            file=log.file)
    events: list[Event] = []
    stamps: list[dt.datetime | None] = []
    inherited: dict[str, str] = {}
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(lines)
        block = lines[start:end]
        if number == 0:
            inherited = {k: v for k, v in _labels(block[:14]).items()
                         if k not in _NOT_INHERITED}
        event = _event(block, start, inherited, log, fmt, in_play)
        printed = _printed(block)
        same = next((i for i, e in enumerate(events) if e.key == event.key), None)
        if same is None:
            events.append(event)
            stamps.append(printed)
        elif events[same].units == event.units:
            log.report(MalformedFile(
                f"section {event.section} is printed twice; the repeat is skipped",
                has_value=False), level="info")
        elif printed is not None and stamps[same] is not None and printed > stamps[same]:
            log.report(MalformedFile(
                f"section {event.section} is printed again, scored later "
                f"({printed:%Y-%m-%d %H:%M}), with different results; the later scoring "
                "is read", table=f"section {event.section}", value=event.title))
            events[same] = event
            stamps[same] = printed
        else:
            raise InconsistentResult(
                "the same event and section appear twice with different results",
                file=log.file, table=f"section {event.section}", value=event.title)
    dates = {e.date for e in events}
    if len(dates) > 1:
        log.report(MalformedFile(
            "the sections of this report carry different dates: "
            + ", ".join(sorted(d.isoformat() for d in dates)), has_value=False))
    return events


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per section block of an ACBLscore text report; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    decoded = decode_bytes(data)
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    events = read_report(decoded.text, log, in_play=boards_in_play(decoded.text))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="ACBLscore game results text report (club pairs, one or two winners, "
                "Swiss teams in VPs)",
    detect=detect,
    parse=parse,
)
