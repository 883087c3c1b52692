"""Bridgewebs results CSV: what UK scoring programs upload to Bridgewebs, and what it exports.

Bridgewebs (the club web-site service) takes a comma-separated results file from the scoring
program ("CSV std1") and offers the same layout back as a CSV download. The file is a series of
blocks, each opened by a ``#TAG`` line in the first cell; cells may be quoted, trailing empty
cells (a spreadsheet saving the file) are ignored. No real sample was available: the subset
below is what this parser supports, written down from the published descriptions and readers of
the layout. Anything outside it is refused, not guessed at.

Supported subset::

    #VERSION,<scoring program and version>     first line of the upload
    #DATE,23/11/2013                            day/month/year (the format is UK day-first);
                                                ISO 2013-11-23 is accepted too
    #TITLE,Monday Pairs                         the event name; ``#EVENT`` is read the same way
    #DIRECTOR,...  #SCORER,...  #ROUNDS,8       ignored
    #PAIRS                                      kind: pairs (the only kind supported)
    #BOARDS,24                                  boards played
    #WINNERS,1                                  1 = one ranking (Howell), 2 = N-S and E-W
    #SCORES                                     a ranking block (``#RANKING`` read the same way)
    POSITION,PAIR,NAME1,NAME2,MPS,PERCENT       its column header, any order, any case
    1,7,Ann Smith,Bob Jones,120.5,62.76         one line per pair
    #SCORES                                     with ``#WINNERS,2``: the E-W block
    ...
    #BOARDFORMAT / #TRAVELLERS / #BOARD ...     board-by-board scores: ignored (not rated)

Events: one per ranking block. ``#WINNERS,1`` needs exactly one block (section ``""``);
``#WINNERS,2`` exactly two, the first N-S, the second E-W (sections ``NS`` and ``EW``), as the
scoring programs write them. ``organiser`` is empty: the club is the Bridgewebs site the file is
uploaded to, not something the file says.

Columns of a ranking block (header names case-insensitive; aliases in brackets):

- ``POSITION`` (``POS``, ``PLACE``, ``RANK``): the place. UK lists mark ties with ``=``: ``3=``
  (or ``=3``) on every tied pair, which gives the averaged place (3.5 for two pairs); ``5-6`` and
  an empty cell below a placed pair are ties too (docs/rules/inputs.md: ties as shared places);
- ``PAIR`` (``NO``, ``PAIRNO``, ``NUMBER``): the pair number, the unit's label;
- ``NAME1``, ``NAME2`` (``NAME3`` for a substitute): the players as written; names such as
  ``Phantom``, ``Sit out``, ``Bye`` are not players (the pair keeps its place, with no players,
  and an info note);
- the score: ``PERCENT`` (``PCT``, ``%``) -> matchpoints (MP) with the percentage as score; else
  ``IMPS`` (``IMP``) -> IMP; else ``MPS`` (``MATCHPOINTS``, ``TOTAL``) -> MP with the matchpoint
  total; with none of these the scoring is ``unknown`` and the score empty.

Errors name the file, the block (``table``: ``ranking``, ``ranking NS``, ``ranking EW``), the line
of the file (``row``, 1-based) and the column. Places that contradict scores are warnings
(``InconsistentResult`` in strict mode). No ``#DATE`` is a ``MalformedFile``; team and individual
files (``#TEAMS``, ``#INDIVIDUAL``) are ``UnsupportedVariant``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ._dates import parse_date
from ._errors import MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, checked_places, parse_place
from ._registry import Format
from ._text import decode_bytes, normalise_space, parse_decimal

__all__ = ["FORMAT", "detect", "parse"]

NAME = "bridgewebs"

_HEADER_TAGS = frozenset({"VERSION", "DATE", "TITLE", "EVENT"})
_RANKING_TAGS = frozenset({"SCORES", "RANKING"})
_BOARD_TAGS = frozenset({"BOARDFORMAT", "TRAVELLERS", "BOARD"})
_UNSUPPORTED_KINDS = frozenset({"TEAMS", "INDIVIDUAL"})

_POSITION = ("POSITION", "POS", "PLACE", "RANK")
_PAIR = ("PAIR", "NO", "PAIRNO", "NUMBER")
_NAMES = ("NAME1", "NAME2", "NAME3")
_PERCENT = ("PERCENT", "PCT", "%")
_IMPS = ("IMPS", "IMP")
_MPS = ("MPS", "MATCHPOINTS", "TOTAL")

_NOT_PLAYERS = re.compile(r"^(?:phantom|sit[ -]?out|bye|robot|vacant)\b", re.IGNORECASE)
"""Names that stand for an empty seat, not a person."""

_UK_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


# --- lines and tags -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Line:
    """One non-blank CSV record: its 1-based line number in the file and its cells."""

    number: int
    cells: tuple[str, ...]

    @property
    def tag(self) -> str | None:
        """``SCORES`` for a ``#SCORES`` line, None for a data line."""
        first = self.cells[0] if self.cells else ""
        return first[1:].strip().upper() if first.startswith("#") else None

    @property
    def value(self) -> str:
        return self.cells[1] if len(self.cells) > 1 else ""


def _records(text: str, file: str) -> list[_Line]:
    lines: list[_Line] = []
    reader = csv.reader(io.StringIO(text, newline=""))
    number = 1
    try:
        for cells in reader:
            cleaned = [normalise_space(c) for c in cells]
            while cleaned and not cleaned[-1]:
                cleaned.pop()
            if cleaned:
                lines.append(_Line(number, tuple(cleaned)))
            number = reader.line_num + 1
    except csv.Error as exc:
        raise MalformedFile(f"not readable as CSV ({exc})", file=file, row=number) from exc
    return lines


def _head_tags(data: bytes) -> list[str]:
    """Tags of the ``#`` lines near the top of the file; [] unless the file opens with one."""
    text = data[:65536].decode("latin-1").removeprefix("\xef\xbb\xbf")
    tags: list[str] = []
    for line in text.splitlines():
        stripped = line.strip().strip('"')
        if not stripped:
            continue
        if not tags and not stripped.startswith("#"):
            return []
        if stripped.startswith("#"):
            tags.append(re.split(r"[,\s\"]", stripped[1:], maxsplit=1)[0].upper())
    return tags


def detect(data: bytes, filename: str = "") -> bool:
    """Opens with a ``#`` tag line, has a header tag (``#VERSION``, ``#DATE``, ``#TITLE``,
    ``#EVENT``) and, after it, a ``#SCORES`` / ``#RANKING`` block."""
    tags = _head_tags(data)
    first_ranking = next((i for i, t in enumerate(tags) if t in _RANKING_TAGS), None)
    return first_ranking is not None and any(t in _HEADER_TAGS for t in tags[:first_ranking])


# --- header ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Header:
    title: str
    date: dt.date
    boards: int | None
    winners: int
    winners_written: bool


def _date(line: _Line, file: str) -> dt.date:
    text = line.value
    uk = _UK_DATE.match(text)
    try:
        if uk:
            return dt.date(int(uk[3]), int(uk[2]), int(uk[1]))
        return parse_date(text)
    except ValueError:
        raise MalformedFile(
            "invalid date (expected day/month/year)", file=file, table="header",
            row=line.number, column="#DATE", value=text,
        ) from None


def _whole_number(line: _Line, file: str, tag: str) -> int:
    text = line.value
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise MalformedFile(f"invalid {tag} (expected a whole number)", file=file,
                            table="header", row=line.number, column=tag, value=text)
    return int(text)


def _read_header(lines: Sequence[_Line], log: IssueLog) -> _Header:
    title = ""
    date: dt.date | None = None
    boards: int | None = None
    winners = 1
    winners_written = False
    for line in lines:
        tag = line.tag
        if tag in _UNSUPPORTED_KINDS:
            raise UnsupportedVariant(
                f"#{tag} results; only pairs events are handled", file=log.file,
                table="header", row=line.number, column=f"#{tag}", value=line.value,
            )
        if tag in ("TITLE", "EVENT") and not title:
            title = line.value
        elif tag == "DATE":
            date = _date(line, log.file)
        elif tag == "BOARDS" and line.value:
            boards = _whole_number(line, log.file, "#BOARDS")
        elif tag == "WINNERS":
            winners = _whole_number(line, log.file, "#WINNERS")
            winners_written = True
            if winners > 2:
                raise UnsupportedVariant("more than two winners", file=log.file,
                                         table="header", row=line.number, column="#WINNERS",
                                         value=line.value)
    if date is None:
        raise MalformedFile("no event date: the file has no #DATE line", file=log.file,
                            table="header")
    if not title:
        log.report(MalformedFile("no event title (#TITLE)", table="header", has_value=False))
    return _Header(title, date, boards, winners, winners_written)


# --- ranking blocks -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Columns:
    position: int
    pair: int
    names: tuple[int, ...]
    score: int | None
    score_name: str
    scoring: Scoring
    header: tuple[str, ...]


def _find(header: Sequence[str], names: Sequence[str]) -> int | None:
    return next((i for i, h in enumerate(header) if h in names), None)


def _columns(line: _Line, table: str, file: str) -> _Columns:
    header = tuple(c.upper() for c in line.cells)
    position, pair = _find(header, _POSITION), _find(header, _PAIR)
    names = tuple(i for name in _NAMES if (i := _find(header, (name,))) is not None)
    if position is None or pair is None or not names:
        raise MalformedFile(
            "ranking block without its column header (POSITION, PAIR, NAME1, NAME2, ...)",
            file=file, table=table, row=line.number, value=",".join(line.cells),
        )
    for aliases, scoring in ((_PERCENT, "MP"), (_IMPS, "IMP"), (_MPS, "MP")):
        score = _find(header, aliases)
        if score is not None:
            return _Columns(position, pair, names, score, header[score], scoring, header)
    return _Columns(position, pair, names, None, "", "unknown", header)


def _blocks(lines: Sequence[_Line]) -> tuple[list[_Line], list[tuple[_Line, list[_Line]]]]:
    """The header lines, and every ranking block as (its tag line, the lines below it)."""
    header: list[_Line] = []
    blocks: list[tuple[_Line, list[_Line]]] = []
    in_boards = False
    for line in lines:
        tag = line.tag
        if tag in _RANKING_TAGS:
            blocks.append((line, []))
            in_boards = False
        elif tag in _BOARD_TAGS:
            in_boards = True
        elif in_boards:
            continue
        elif blocks:
            blocks[-1][1].append(line)
        else:
            header.append(line)
    return header, blocks


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    """Line of the file the row is on."""
    place_text: str
    written: WrittenPlace | None
    label: str
    score: float | None
    names: tuple[str, ...]


def _cell(line: _Line, index: int) -> str:
    return line.cells[index] if index < len(line.cells) else ""


def _place(text: str) -> WrittenPlace | None:
    """``3=`` / ``=3`` (the UK tie mark) read as ``3``; otherwise :func:`parse_place`."""
    return parse_place(text)


def _read_row(line: _Line, columns: _Columns, table: str, log: IssueLog) -> _Row:
    def error(problem: str, index: int, value: str) -> MalformedFile:
        return MalformedFile(problem, file=log.file, table=table, row=line.number,
                             column=columns.header[index], value=value)

    place_text = _cell(line, columns.position)
    try:
        written = _place(place_text)
    except ValueError:
        raise error("invalid position", columns.position, place_text) from None
    label = _cell(line, columns.pair)
    if not label:
        raise error("pair without a number", columns.pair, label)
    score: float | None = None
    if columns.score is not None:
        score_text = _cell(line, columns.score)
        try:
            score = parse_decimal(score_text)
        except ValueError:
            log.report(error(f"pair {label}: invalid score; left empty", columns.score,
                             score_text))
    names = tuple(_cell(line, i) for i in columns.names)
    return _Row(line.number, place_text, written, label, score, names)


def _players(row: _Row, table: str, log: IssueLog) -> tuple[PlayerAsWritten, ...]:
    present = [n for n in row.names if n]
    players = tuple(PlayerAsWritten(n) for n in present if not _NOT_PLAYERS.match(n))
    if len(players) < len(present):
        seats = [n for n in present if _NOT_PLAYERS.match(n)]
        log.report(MalformedFile(
            f"pair {row.label}: {' and '.join(seats)} "
            f"{'is an empty seat, not a player' if len(seats) == 1 else 'are empty seats'}; "
            "the pair keeps its place and score without them",
            table=table, row=row.number, has_value=False,
        ), level="info")
    elif len(present) < 2:
        log.report(MalformedFile(
            f"pair {row.label} has {len(present)} name(s)", table=table, row=row.number,
            has_value=False,
        ))
    return players


def _units(rows: Sequence[_Row], columns: _Columns, table: str,
           log: IssueLog) -> tuple[Unit, ...]:
    places = checked_places(
        rows, log, table=table, place_column=columns.header[columns.position],
        score_column=columns.score_name, name=lambda row: f"pair {row.label}",
    )
    return tuple(
        Unit(place=place, place_text=row.place_text, label=row.label, score=row.score,
             players=_players(row, table, log))
        for place, row in zip(places, rows)
    )


def _event(header: _Header, section: str, tag_line: _Line, body: Sequence[_Line],
           log: IssueLog) -> Event:
    table = f"ranking {section}".strip()
    if not body:
        raise MalformedFile("empty ranking block", file=log.file, table=table,
                            row=tag_line.number)
    columns = _columns(body[0], table, log.file)
    if columns.scoring == "unknown":
        log.report(UnsupportedVariant(
            "no PERCENT, IMPS or MPS column; scoring left unknown", table=table,
            row=body[0].number, has_value=False,
        ), level="info")
    rows = [_read_row(line, columns, table, log) for line in body[1:] if line.tag is None]
    if not rows:
        raise MalformedFile("ranking block without pairs", file=log.file, table=table,
                            row=tag_line.number)
    return Event(
        game="bridge", title=header.title, date=header.date, kind="pairs",
        scoring=columns.scoring, units=_units(rows, columns, table, log), boards=header.boards,
        section=section, organiser="", format=NAME,
    )


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """The events of a Bridgewebs results CSV; see the module docstring for the subset read."""
    log = IssueLog(file=source_name(source), strict=strict)
    decoded = decode_bytes(data)
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    header_lines, blocks = _blocks(_records(decoded.text, log.file))
    header = _read_header(header_lines, log)
    if len(blocks) != header.winners:
        raise MalformedFile(
            f"the file has {len(blocks)} ranking block(s) (#SCORES) but "
            + (f"#WINNERS says {header.winners}" if header.winners_written
               else "no #WINNERS line (one winner assumed)"),
            file=log.file, table="header", value=len(blocks),
        )
    sections = ("",) if header.winners == 1 else ("NS", "EW")
    events = tuple(
        _event(header, section, tag_line, body, log)
        for section, (tag_line, body) in zip(sections, blocks)
    )
    return ParseResult(format=NAME, events=events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="Bridgewebs results CSV (#VERSION/#DATE/#TITLE header, #SCORES rankings)",
    detect=detect,
    parse=parse,
)
