"""The documented CSV template for clubs without scoring software (docs/csv-template.md).

One row per player. Header names are matched case-insensitively, in any order:
required ``event, date, kind, scoring, boards, unit, place, player``; optional
``organiser, section, score, federation_id, club, game`` (``game`` defaults to ``bridge``).

- rows group into events by (organiser, event, date, section), in order of first appearance;
  ``kind``, ``scoring``, ``boards`` and ``game`` must agree within an event;
- within an event rows group into units by ``unit``; every row of a unit must repeat the same
  ``place`` and ``score``. Units are listed by place (stable: equal places keep file order);
- ties (docs/rules/inputs.md: shared places such as ``5-6``): ``5-6`` or ``5.-6.`` on each tied unit, or
  the same plain number repeated (``5``, ``5``, then ``7``). Either way the tied units get the
  mean of the places they occupy (5.5); ``place_text`` keeps what the file wrote;
- ``score`` takes a decimal point or a decimal comma (``56,43``), a trailing ``%`` is allowed;
- the delimiter is a comma or a semicolon (whichever the header line uses more of); the encoding
  UTF-8 (with or without BOM), otherwise detected (windows-1250 / ISO-8859-2).

Anything the template forbids is an error naming the file, the row (the 1-based line number in
the file, the header being line 1), the column and the value, for example
``invalid date: value '31.2.2013' (file x.csv, row 7, column date)``. Things that still read but
look wrong (an unknown column, places that contradict scores, a pair of one player) are issues,
raised in strict mode.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ._dates import parse_date
from ._errors import InconsistentResult, MalformedFile
from ._issues import IssueLog, source_name
from ._model import GAMES, Event, Game, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, parse_place, shared_places
from ._registry import Format
from ._text import decode_bytes, normalise_space, parse_decimal

__all__ = ["FORMAT", "OPTIONAL_COLUMNS", "REQUIRED_COLUMNS", "detect", "parse"]

NAME = "csv_template"
_T = TypeVar("_T")

REQUIRED_COLUMNS = ("event", "date", "kind", "scoring", "boards", "unit", "place", "player")
OPTIONAL_COLUMNS = ("organiser", "section", "score", "federation_id", "club", "game")

_KINDS: dict[str, Kind] = {"individual": "individual", "pairs": "pairs", "teams": "teams"}
_GAMES: dict[str, Game] = {game: game for game in GAMES}
_SCORINGS: dict[str, Scoring] = {
    "mp": "MP", "imp": "IMP", "vp": "VP", "bam": "BAM", "hybrid": "hybrid", "unknown": "unknown",
}
_PLAYERS_PER_UNIT: dict[str, tuple[int, int]] = {
    # docs/rules/inputs.md: pairs sometimes have three players (a substitute), teams four to eight.
    "individual": (1, 1), "pairs": (2, 3), "teams": (2, 8),
}


# --- text, delimiter, header ----------------------------------------------------------------


def _delimiter(header_line: str) -> str:
    return ";" if header_line.count(";") > header_line.count(",") else ","


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def _header_names(line: str) -> list[str]:
    cells = next(csv.reader([line], delimiter=_delimiter(line)), [])
    return [normalise_space(cell).lower() for cell in cells]


def detect(data: bytes, filename: str = "") -> bool:
    """The first non-blank line is a header with every required column of the template."""
    head = data[:4096]
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = head.decode("latin-1")  # column names are ASCII; only the header matters here
    return set(REQUIRED_COLUMNS) <= set(_header_names(_first_line(text)))


def _decode(data: bytes, log: IssueLog) -> str:
    decoded = decode_bytes(data)
    if decoded.method == "detected":
        log.report(
            MalformedFile(f"file is not UTF-8; read as {decoded.encoding}"), level="info",
        )
    return decoded.text


def _records(text: str, file: str) -> Iterator[tuple[int, list[str]]]:
    """(line number where the record starts, cells) for every CSV record, blank ones skipped."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(_first_line(text)))
    line = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                yield line, cells
            line = reader.line_num + 1
    except csv.Error as exc:  # e.g. an unclosed quote swallowing the rest of the file
        raise MalformedFile(f"not readable as CSV ({exc})", file=file, row=line) from exc


# --- one row --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """One player's row, checked and converted."""

    line: int
    organiser: str
    event: str
    date: dt.date
    section: str
    game: Game
    kind: Kind
    scoring: Scoring
    boards: int | None
    unit: str
    place_text: str
    place: WrittenPlace
    score: float | None
    player: PlayerAsWritten


class _Cells:
    """A record's cells by column name, and errors that say where."""

    __slots__ = ("file", "line", "values")

    def __init__(self, file: str, line: int, columns: dict[str, int], cells: list[str]) -> None:
        self.file = file
        self.line = line
        n = len(cells)  # each cell tidied once, not at every look
        self.values = {name: normalise_space(cells[i]) for name, i in columns.items() if i < n}

    def __getitem__(self, column: str) -> str:
        return self.values.get(column, "")

    def error(self, problem: str, column: str, value: str | None = None) -> MalformedFile:
        return MalformedFile(
            problem, file=self.file, row=self.line, column=column,
            value=self[column] if value is None else value, has_value=True,
        )

    def required(self, column: str) -> str:
        value = self[column]
        if not value:
            raise self.error(f"empty {column.replace('_', ' ')}", column)
        return value


def _date(cells: _Cells) -> dt.date:
    try:
        return parse_date(cells.required("date"))
    except ValueError:
        raise cells.error("invalid date", "date") from None


def _choice(cells: _Cells, column: str, choices: Mapping[str, _T]) -> _T:
    """The canonical spelling of a case-insensitive choice (``imp`` -> ``IMP``)."""
    value = cells.required(column).lower()
    if value not in choices:
        expected = ", ".join(str(c) for c in choices.values())
        raise cells.error(f"invalid {column} (expected one of {expected})", column)
    return choices[value]


def _boards(cells: _Cells) -> int | None:
    value = cells["boards"]
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise cells.error("invalid boards (expected a whole number of boards)", "boards")
    return int(value)


def _place(cells: _Cells) -> WrittenPlace:
    try:
        place = parse_place(cells.required("place"))
    except ValueError:
        raise cells.error("invalid place (expected a number or a tie like 5-6)", "place") from None
    assert place is not None  # required() refused a blank
    return place


def _score(cells: _Cells) -> float | None:
    try:
        return parse_decimal(cells["score"])
    except ValueError:
        raise cells.error("invalid score", "score") from None


def _read_row(cells: _Cells) -> _Row:
    game: Game = _choice(cells, "game", _GAMES) if cells["game"] else "bridge"
    return _Row(
        line=cells.line,
        organiser=cells["organiser"],
        event=cells.required("event"),
        date=_date(cells),
        section=cells["section"],
        game=game,
        kind=_choice(cells, "kind", _KINDS),
        scoring=_choice(cells, "scoring", _SCORINGS),
        boards=_boards(cells),
        unit=cells.required("unit"),
        place_text=cells["place"],
        place=_place(cells),
        score=_score(cells),
        player=PlayerAsWritten(
            name=cells.required("player"),
            federation_id=cells["federation_id"] or None,
            club=cells["club"] or None,
        ),
    )


# --- header, rows ---------------------------------------------------------------------------


def _columns(line: int, header: list[str], log: IssueLog) -> dict[str, int]:
    """Column name -> index; missing required or repeated columns are errors.

    Unknown columns are ignored with a warning; unnamed ones (``a,b,c,,``) silently.
    """
    columns: dict[str, int] = {}
    for index, raw in enumerate(header):
        name = normalise_space(raw).lower()
        if not name:
            continue  # an unnamed column (a trailing delimiter from a spreadsheet) is ignored
        if name in columns:
            raise MalformedFile("column appears twice", file=log.file, row=line, column=name,
                                value=raw)
        if name not in REQUIRED_COLUMNS and name not in OPTIONAL_COLUMNS:
            log.report(MalformedFile("unknown column ignored", row=line, column=name, value=raw))
        columns[name] = index
    missing = [name for name in REQUIRED_COLUMNS if name not in columns]
    if missing:
        raise MalformedFile(
            "missing required column(s); the header needs " + ", ".join(REQUIRED_COLUMNS),
            file=log.file, row=line, value=", ".join(missing),
        )
    return columns


def _read_rows(text: str, log: IssueLog) -> list[_Row]:
    records = _records(text, log.file)
    try:
        header_line, header = next(records)
    except StopIteration:
        raise MalformedFile("empty file: no header line", file=log.file) from None
    columns = _columns(header_line, header, log)
    rows: list[_Row] = []
    for line, cells in records:
        if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
            raise MalformedFile(
                f"row has {len(cells)} cells but the header has {len(header)} columns",
                file=log.file, row=line, value=cells[len(header)],
            )
        if len(cells) < len(header):
            log.report(MalformedFile(
                f"row has {len(cells)} cells but the header has {len(header)} columns; "
                "missing cells taken as empty", row=line, has_value=False,
            ))
        rows.append(_read_row(_Cells(log.file, line, columns, cells)))
    if not rows:
        raise MalformedFile("no result rows below the header", file=log.file, row=header_line)
    return rows


# --- grouping -------------------------------------------------------------------------------

_EVENT_FIELDS = ("game", "kind", "scoring", "boards")
_UNIT_FIELDS = ("place", "score")


def _agree(rows: Sequence[_Row], fields: Sequence[str], what: str, file: str) -> None:
    """Every row repeats the first row's ``fields``; else ``InconsistentResult`` naming both."""
    first = rows[0]
    for row in rows[1:]:
        for name in fields:
            if getattr(row, name) != getattr(first, name):
                shown = row.place_text if name == "place" else getattr(row, name)
                first_shown = first.place_text if name == "place" else getattr(first, name)
                raise InconsistentResult(
                    f"{what}: {name} differs from row {first.line} ({first_shown!r})",
                    file=file, row=row.line, column=name, value=shown, has_value=True,
                )


def _group(rows: Sequence[_Row], key: str | tuple[str, ...]) -> list[list[_Row]]:
    """Rows grouped by the attribute(s) ``key``, groups in order of first appearance."""
    names = (key,) if isinstance(key, str) else key
    groups: dict[tuple[object, ...], list[_Row]] = {}
    for row in rows:
        groups.setdefault(tuple(getattr(row, n) for n in names), []).append(row)
    return list(groups.values())


def _unit(rows: Sequence[_Row], place: float) -> Unit:
    first = rows[0]
    return Unit(
        place=place, place_text=first.place_text, label=first.unit, score=first.score,
        players=tuple(r.player for r in rows),
    )


def _event(rows: Sequence[_Row], log: IssueLog) -> Event:
    first = rows[0]
    _agree(rows, _EVENT_FIELDS, f"event {first.event!r}", log.file)
    units = _group(rows, "unit")
    for unit_rows in units:
        _agree(unit_rows, _UNIT_FIELDS, f"unit {unit_rows[0].unit!r}", log.file)
    units.sort(key=lambda u: u[0].place.first)  # stable: equal places keep file order
    places, problems = shared_places([u[0].place for u in units])
    for problem in problems:
        row = units[problem.index][0]
        log.report(InconsistentResult(
            f"event {first.event!r}, unit {row.unit!r}: {problem.message}",
            row=row.line, column="place", value=row.place_text,
        ))
    for problem in order_problems(places, [u[0].score for u in units]):
        row = units[problem.index][0]
        log.report(InconsistentResult(
            f"event {first.event!r}, unit {row.unit!r}: {problem.message}",
            row=row.line, column="score", value=row.score,
        ))
    low, high = _PLAYERS_PER_UNIT[first.kind]
    for unit_rows in units:
        if not low <= len(unit_rows) <= high:
            log.report(MalformedFile(
                f"event {first.event!r}: {first.kind} unit {unit_rows[0].unit!r} has "
                f"{len(unit_rows)} player(s), expected {low}-{high}",
                row=unit_rows[0].line, column="player", has_value=False,
            ))
    return Event(
        game=first.game, title=first.event, date=first.date, kind=first.kind,
        scoring=first.scoring, units=tuple(_unit(u, p) for u, p in zip(units, places)),
        boards=first.boards, section=first.section, organiser=first.organiser, format=NAME,
    )


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events from a CSV file in the template; see the module docstring and docs/csv-template.md."""
    log = IssueLog(file=source_name(source), strict=strict)
    rows = _read_rows(_decode(data, log), log)
    events = tuple(
        _event(group, log) for group in _group(rows, ("organiser", "event", "date", "section"))
    )
    return ParseResult(format=NAME, events=events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="CSV template for clubs without scoring software, one row per player",
    detect=detect,
    parse=parse,
)
