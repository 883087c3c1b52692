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
which is only used to count the boards. Line ends are often ``CR CR LF``.

Variants read: one winner (``MOVEMENT>ONE WINNER``, section ``A``) and two winners (Mitchell,
sections ``A N-S`` and ``A E-W``), several sections (``B N-S``, ``C``), one to three strats
(``Rnk-A|Rnk-B|Rnk-C``), section and overall rank columns side by side, and the short header
``| Rank|Score | Pct  |Awards|``. The rank columns are masterpoint ranks: they list only the award
winners of each strat and skip pairs not eligible (``NE``), so they are not the finishing order.
The place of a pair is therefore its order by the section score (the percentage, else the
matchpoint total), equal scores sharing the mean of their places; ``place_text`` stays empty
because the report writes no finishing place.

Players: the 7-character ACBL player number before a name (``1191098``, ``N644933``) is its
federation id; a name without one has none. Events: one per block (``pairs``, scoring ``MP``,
score the percentage); ``title`` is ``EVENT`` and ``SESSION`` joined (``0-300, Monday Eve``),
``section`` the ``SECTION`` value as written, ``organiser`` the ``CLUB`` name (the club number
when no name), ``date`` the ``DATE`` value (a block without a readable date is ``MalformedFile``:
no date is invented), ``boards`` the number of boards in the block's matrix. A report printed
twice into one file (the same blocks again) gives each event once.

Refused: win-loss (Swiss pairs) reports (``GAME>WIN-LOSS``: ``UnsupportedVariant``), a report
with no pairs ranking (``UnsupportedVariant`` for a ranking whose header does
not name two players per row, such as a teams or individual report; ``MalformedFile`` for a
block that has no ranking at all), and blank templates (no date).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._dates import find_date
from ._errors import InconsistentResult, MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Unit
from ._registry import Format
from ._text import decode_bytes, normalise_space, parse_decimal

__all__ = ["FORMAT", "detect", "parse"]

NAME = "acblscore_text"

_FIRST_LINE = re.compile(rb"^\s*EVENT>[^\r\n]*\|(?:SESSION|SECTION|Page)>")
_MARKS = (b"DATE>", b"DIR>", b"CLUB>", b"MP LIMITS>")


def detect(data: bytes, filename: str = "") -> bool:
    """An ACBLscore text report: its first line ``EVENT>...|SESSION>...`` (or ``|Page>``) and
    the labelled header lines below it (``DATE>``, ``DIR>``, ``MP LIMITS>``, ``CLUB>``)."""
    head = data[:4096]
    return bool(_FIRST_LINE.match(head)) and all(mark in head for mark in _MARKS)


_LABEL = re.compile(r"([A-Z][A-Z .]*?)>")
_BOARD_ROW = re.compile(r"^\s*(\d+)>")
_ROW = re.compile(r"^\s{0,2}(\d{1,3})\s")


def _labels(lines: list[str]) -> dict[str, str]:
    """``EVENT`` -> ``0-300``, ``CLUB NO.`` -> ``259960``, ... from the block's header lines."""
    values: dict[str, str] = {}
    for line in lines:
        for part in line.split("|"):
            match = _LABEL.match(part.strip())
            if match:
                key = match[1].strip()
                values.setdefault(key, normalise_space(part.strip()[match.end():]))
    return values


@dataclass(frozen=True, slots=True)
class _Columns:
    header: int
    """Index (in the block) of the ``No  Name  Name |...`` line."""
    name1: int
    name2: int
    names_end: int
    tail: tuple[tuple[str, int, int], ...]
    """(column name, start, end) of every column right of the names."""


def _columns(block: list[str], table: str, file: str) -> _Columns | None:
    for index, line in enumerate(block):
        if not line.startswith("No ") or "|" not in line:
            continue
        first = line.find("Name")
        second = line.find("Name", first + 4) if first >= 0 else -1
        if first < 0 or second < 0:
            raise UnsupportedVariant(
                "the ranking does not name two players per row (a teams or individual report?); "
                "only pairs reports are read", file=file, table=table, value=normalise_space(line),
            )
        bar = line.index("|")
        names = [normalise_space(n) for n in line[bar + 1:].split("|")]
        names = [n for n in names if n]
        rule = block[index + 1] if index + 1 < len(block) else ""
        runs = [(m.start(), m.end()) for m in re.finditer(r"-+", rule)]
        runs = [r for r in runs if r[0] > bar - 2]
        if len(runs) != len(names):
            raise MalformedFile(
                f"the ranking header has {len(names)} columns but its rule {len(runs)}",
                file=file, table=table, value=normalise_space(line),
            )
        spans: list[tuple[str, int, int]] = []
        for position, (name, (start, _end)) in enumerate(zip(names, runs, strict=True)):
            end = runs[position + 1][0] if position + 1 < len(runs) else 10_000
            spans.append((name, start - 1, end - 1))
        return _Columns(index, first, second, bar, tuple(spans))
    return None


def _player(number: str, name: str) -> PlayerAsWritten | None:
    name = normalise_space(name)
    if not name:
        return None
    number = number.strip()
    federation_id = number if re.fullmatch(r"[0-9A-Z]\d{6}", number) else None
    return PlayerAsWritten(name=name, federation_id=federation_id)


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    label: str
    score: float
    players: tuple[PlayerAsWritten, ...]


def _rows(block: list[str], first_line: int, columns: _Columns, table: str,
          log: IssueLog) -> tuple[list[_Row], str]:
    names = [c[0] for c in columns.tail]
    score_column = "Pct" if "Pct" in names else "Score" if "Score" in names else ""
    if not score_column:
        raise MalformedFile("the ranking has neither a Pct nor a Score column", file=log.file,
                            table=table, value=" | ".join(names))
    _, start, end = columns.tail[names.index(score_column)]
    rows: list[_Row] = []
    for offset, line in enumerate(block[columns.header + 2:], start=columns.header + 2):
        if "Totals" in line or "**" in line:
            break
        match = _ROW.match(line)
        if not match:
            continue
        number = first_line + offset
        id1_start = columns.name1 - 8
        id2_start = columns.name2 - 8
        players = tuple(p for p in (
            _player(line[id1_start:columns.name1], line[columns.name1:id2_start]),
            _player(line[id2_start:columns.name2], line[columns.name2:columns.names_end]),
        ) if p is not None)
        cell = line[start:end]
        try:
            score = parse_decimal(cell)
        except ValueError:
            score = None
        if score is None:
            raise MalformedFile(f"pair {match[1]}: no readable {score_column}", file=log.file,
                                table=table, row=number, column=score_column,
                                value=normalise_space(cell))
        rows.append(_Row(number, match[1], score, players))
    return rows, score_column


def _places(scores: list[float]) -> list[float]:
    """Places by score, higher better; equal scores share the mean of their places."""
    order = sorted(scores, reverse=True)
    first: dict[float, int] = {}
    count: dict[float, int] = {}
    for position, score in enumerate(order, start=1):
        first.setdefault(score, position)
        count[score] = count.get(score, 0) + 1
    return [first[s] + (count[s] - 1) / 2 for s in scores]


def _boards(block: list[str]) -> int | None:
    numbers = {int(m[1]) for line in block if (m := _BOARD_ROW.match(line))}
    return len(numbers) or None


def _event(block: list[str], first_line: int, log: IssueLog) -> Event:
    values = _labels(block[:12])
    section = values.get("SECTION", "")
    table = f"section {section}" if section else "report header"
    found = find_date(values.get("DATE", ""))
    if found is None:
        raise MalformedFile("no event date: the DATE line holds no readable date",
                            file=log.file, table=table, value=values.get("DATE", ""))
    game = values.get("GAME", "")
    if game and "MATCHPOINT" not in game.upper():
        raise UnsupportedVariant(
            f"a {game} game (its ranking counts wins, not matchpoints); not read yet",
            file=log.file, table=table, value=game)
    columns = _columns(block, table, log.file)
    if columns is None:
        raise MalformedFile("no pairs ranking (a 'No  Name  Name' header) in this block",
                            file=log.file, table=table, row=first_line + 1, has_value=False)
    rows, _ = _rows(block, first_line, columns, table, log)
    places = _places([r.score for r in rows])
    ranked = sorted(zip(places, rows), key=lambda pr: (pr[0], pr[1].line))
    title = ", ".join(v for v in (values.get("EVENT", ""), values.get("SESSION", "")) if v)
    organiser = values.get("CLUB", "") or values.get("CLUB NO.", "")
    return Event(
        game="bridge", title=title, date=found.date, kind="pairs", scoring="MP",
        units=tuple(Unit(place=place, place_text="", label=row.label, score=row.score,
                         players=row.players) for place, row in ranked),
        boards=_boards(block), section=section, organiser=organiser, format=NAME,
    )


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per section block of an ACBLscore text report; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    decoded = decode_bytes(data)
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    lines = [line.rstrip() for line in decoded.text.splitlines()]
    lines = [line for line in lines if line.strip()]
    starts = [i for i, line in enumerate(lines) if line.startswith("EVENT>")]
    if not starts:
        raise MalformedFile("no EVENT> header line: not an ACBLscore results report",
                            file=log.file)
    events: list[Event] = []
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(lines)
        event = _event(lines[start:end], start, log)
        same = next((e for e in events if e.key == event.key), None)
        if same is None:
            events.append(event)
        elif same.units == event.units:
            log.report(MalformedFile(
                f"section {event.section} is printed twice; the repeat is skipped",
                has_value=False), level="info")
        else:
            raise InconsistentResult(
                "the same event and section appear twice with different results",
                file=log.file, table=f"section {event.section}", value=event.title)
    dates = {e.date for e in events}
    if len(dates) > 1:
        log.report(MalformedFile(
            "the sections of this report carry different dates: "
            + ", ".join(sorted(d.isoformat() for d in dates)), has_value=False))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="ACBLscore game results text report (club pairs, one or two winners)",
    detect=detect,
    parse=parse,
)
