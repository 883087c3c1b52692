"""Preferans club game logs: one row per player per game (or segment), as CSV, XLSX/ODS or HTML.

docs/rules/inputs.md ("Other games"): a club's log gives, per player and game, the game id, date,
variant, deals, pulka length, player and vists; docs/rules/preferans.md ("Substitutions") splits a game
interrupted by a substitution into *segments*, each a rating event of its own. docs/preferans-log.md
describes the columns for clubs.

Reading:

- **header** anywhere in the first rows of a sheet/table, columns in any order, English or Russian,
  case- and accent-insensitive (``Game``/``Игра``/``Партия``, ``Date``/``Дата``,
  ``Variant``/``Вариант``/``Конвенция``, ``Deals``/``Раздачи``/``Сдачи``,
  ``Pulka``/``Length``/``Пуля``/``Длина пули``, ``Player``/``Игрок``, ``Vists``/``Висты``,
  optional ``Segment``/``Сегмент`` and ``Club``/``Клуб``); a parenthesised note in a header
  (``Vists (settled)``) is ignored. Recognised by a header naming game, player and vists;
- **variants** in any common spelling: ``Sochi``/``Сочи``/``сочинка``, ``Rostov``/``Ростов``/
  ``ростовка``, ``Leningrad``/``Ленинград``/``ленинградка``/``Питер`` -> ``sochi``/``rostov``/
  ``leningrad``;
- **game fields written once**: a row with an empty game id continues the game (and segment) of
  the row above, and empty date/variant/deals/length/club cells take the segment's written value,
  so a log that writes them on the first row of a game only, or merges the cells, reads the same;
- **CSV** with ``,`` ``;`` or TAB (the one that yields the header), UTF-8 (BOM or not) or a
  single-byte charset: windows-1251 for Russian logs, else ``_text.decode_bytes``'s detection;
- **XLSX/XLS/ODS** through ``spreadsheet.read_sheets`` (cached formula values, merged cells filled),
  every sheet with a header; **HTML** through ``html_tables.page_grid`` (``rowspan`` filled, every
  table with a header, text lines between them ignored);
- **organiser**: the club column, else a ``Club: ...``/``Клуб: ...`` line above the table, else
  the file's title (the first line above the table, the HTML ``<title>``), else ``unknown club``
  with a warning.

Validation (docs/rules/preferans.md, "Input validation"; strict by nature, a club's official log): a
game breaking a rule rejects the whole file, naming the game id, the rule and the table/sheet, row,
column and value. ``InconsistentResult``: vists of a segment do not sum to zero within 0.5; deals
below 1; a player twice in a segment; a segment of other than 3-4 players; two different dates,
variants, deal counts, lengths or clubs in one segment. ``MalformedFile``: a missing column, an
unknown variant, a cell that is not a date/number, an empty player, vists or game field.

Output (the preferans contract): one ``Event`` per segment, ``title`` ``game <id>``, ``section``
``segment <k>``, one unit per player with ``score`` = vists and ``place`` by vists (most vists
first, ties share the mean place; the log writes no places, so ``place_text`` is empty).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ._dates import parse_date
from ._errors import InconsistentResult, MalformedFile, ParseError
from ._grid import Cell, Grid, fold
from ._issues import IssueLog, source_name
from ._limits import html_document
from ._model import Event, ParseResult, PlayerAsWritten, Unit
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal
from .html_tables import page_grid
from .spreadsheet import read_sheets

__all__ = ["FORMAT", "VARIANTS", "canonical_variant", "detect", "parse"]

NAME = "preferans_log"

Role = Literal["game", "date", "variant", "deals", "length", "player", "vists", "segment", "club"]
REQUIRED: tuple[Role, ...] = ("game", "date", "variant", "deals", "length", "player", "vists")
_NAMED_BY_HEADER: tuple[Role, ...] = ("game", "player", "vists")
"""What a header must name to be a preferans log's (detection)."""


def _key(text: str) -> str:
    """A header or keyword folded for comparison: no case, accents, notes in brackets, ``№``."""
    without_notes = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text)
    return fold(without_notes.replace("№", "no ").replace("#", "no "))


_HEADER_WORDS: dict[Role, tuple[str, ...]] = {
    "game": ("game", "game id", "game no", "game nr", "game number", "pulka no", "pulka id",
             "игра", "партия", "no игры", "no партии", "номер игры", "номер партии", "id игры",
             "id партии", "no пули", "номер пули"),
    "date": ("date", "played", "дата", "дата игры"),
    "variant": ("variant", "convention", "rules", "game type", "вариант", "конвенция",
                "правила", "вид", "тип игры"),
    "deals": ("deals", "hands", "deals played", "раздачи", "раздач", "сдачи", "сдач",
              "число раздач", "кол-во раздач", "количество раздач", "число сдач",
              "кол-во сдач", "количество сдач"),
    "length": ("pulka", "pulka length", "length", "pool", "pool length", "пуля", "длина пули",
               "длина", "пуля до"),
    "player": ("player", "name", "player name", "игрок", "имя", "фио", "игрок (фио)"),
    "vists": ("vists", "vist", "visty", "vists settled", "result in vists", "висты", "вист",
              "вистов", "итог в вистах", "результат в вистах"),
    "segment": ("segment", "part", "segment no", "сегмент", "часть", "no сегмента"),
    "club": ("club", "organiser", "organizer", "клуб", "организатор"),
}
_ROLE_OF: dict[str, Role] = {
    _key(word): role for role, words in _HEADER_WORDS.items() for word in words
}

VARIANTS: dict[str, str] = {
    _key(word): canonical
    for canonical, words in {
        "sochi": ("sochi", "sochinka", "sochi preferans", "сочи", "сочинка", "сочинский",
                  "сочинская"),
        "rostov": ("rostov", "rostovka", "ростов", "ростовка", "ростовский", "ростовская"),
        "leningrad": ("leningrad", "leningradka", "piter", "piterka", "st petersburg", "spb",
                      "ленинград", "ленинградка", "ленинградский", "ленинградская", "питер",
                      "питерка", "питерский", "спб"),
    }.items()
    for word in words
}
"""Variant spellings (folded) -> canonical name (docs/rules/preferans.md: Sochi, Rostov, Leningrad)."""

_CLUB_LINE = re.compile(
    r"^\s*(club|клуб|organi[sz]er|организатор)\s*[:\-\u2013\u2014]\s*(.+?)\s*$", re.IGNORECASE,
)
_TOTALS = frozenset({"total", "totals", "sum", "итого", "всего", "сумма", "итог"})
_RU_MONTHS = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7, "август": 8,
    "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
}
_RU_DATE = re.compile(r"^(\d{1,2})\s+([а-яё]+)\s+(\d{4})$", re.IGNORECASE)
_SUM_TOLERANCE = 0.5
"""docs/rules/preferans.md, "Input validation": vists sum to zero, tolerance 0.5 for rounded inputs."""


def canonical_variant(text: str) -> str | None:
    """``Сочинка`` -> ``sochi``, ``Питер`` -> ``leningrad``; None for anything else."""
    return VARIANTS.get(_key(text))


# --- decoding -------------------------------------------------------------------------------


def _cyrillic_reads_right(text: str) -> bool:
    """Whether a windows-1251 reading looks like Russian: Cyrillic words, no mixed-script words.

    Central European text read as windows-1251 also turns its accented letters into Cyrillic,
    but inside Latin words (``Nov\u0431k``); Russian text has whole Cyrillic words.
    """
    words = re.findall(r"[^\W\d_]+", text)
    cyrillic = [w for w in words if any("\u0400" <= ch <= "\u04ff" for ch in w)]
    mixed = [w for w in cyrillic if any(ch.isascii() for ch in w)]
    return bool(cyrillic) and len(mixed) * 10 <= len(cyrillic)


def _decode(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """The text of a CSV or HTML file and a note on its charset ("" when UTF-8 or declared)."""
    decoded = decode_bytes(data, declared)
    if decoded.method != "detected":
        return decoded.text, decoded.note
    as_1251 = data.decode("cp1251", errors="replace")
    if "\ufffd" not in as_1251 and _cyrillic_reads_right(as_1251):
        return as_1251, "file is not UTF-8; read as windows-1251 (Cyrillic)"
    return decoded.text, decoded.note or f"file is not UTF-8; read as {decoded.encoding}"


# --- grids ----------------------------------------------------------------------------------

_MARKUP = re.compile(r"<\s*(html|table|!doctype|body)\b", re.IGNORECASE)
_DELIMITERS = (",", ";", "\t")


def _csv_grid(text: str, delimiter: str) -> Grid:
    """The CSV's records as one grid; rows are the line numbers where records start."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[Cell, ...]] = []
    line = 1
    try:
        for cells in reader:
            rows.append(tuple(Cell(c, "", line, i) for i, c in enumerate(cells)))
            line = reader.line_num + 1
    except csv.Error as exc:  # an unclosed quote swallowing the rest of the file, a NUL byte
        raise MalformedFile(f"not readable as CSV ({exc})", row=line) from exc
    return Grid("", tuple(rows))


def _csv_grids(text: str) -> list[Grid]:
    """The CSV read with the delimiter that yields a preferans header (``,`` if none does)."""
    grids = [_csv_grid(text, d) for d in _DELIMITERS]
    for grid in grids:
        if _find_header(grid) is not None:
            return [grid]
    return grids[:1]


def _html_grids(text: str) -> list[Grid]:
    doc = html_document(text)
    return [page_grid(doc)]


def _is_binary(data: bytes) -> bool:
    return data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")) or b"\x00" in data[:4096]


def _read_grids(data: bytes, source: str) -> tuple[list[Grid], list[str]]:
    """Grids of the file and notes for info issues (charset, formulas without a value)."""
    if _is_binary(data):
        grids, uncached, _ = read_sheets(data, source=source)
        notes = [f"formula in cell {cell} of sheet {sheet!r} has no saved value"
                 for sheet, cell in uncached]
        return grids, notes
    head = data[:4096].decode("latin-1")
    if _MARKUP.search(head):
        text, note = _decode(data, html_declared_charset(data))
        return _html_grids(text), [note] if note else []
    text, note = _decode(data)
    return _csv_grids(text), [note] if note else []


# --- header ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Header:
    """Where the columns are, and how the header row wrote them."""

    cell: Cell
    """The header row's first cell (for where-fields)."""
    columns: dict[Role, int]
    texts: dict[Role, str]

    def name(self, role: Role) -> str:
        return self.texts.get(role, role)


def _header(row: Sequence[Cell]) -> _Header | None:
    """The row as a preferans header, or None if it does not name game, player and vists."""
    columns: dict[Role, int] = {}
    texts: dict[Role, str] = {}
    for cell in row:
        role = _ROLE_OF.get(_key(cell.text))
        if role is not None and role not in columns:
            columns[role] = cell.col
            texts[role] = normalise_space(cell.text)
    if not all(r in columns for r in _NAMED_BY_HEADER) or not row:
        return None
    return _Header(row[0], columns, texts)


def _find_header(grid: Grid) -> int | None:
    """Index of the first header row of ``grid``."""
    return next((i for i, row in enumerate(grid.rows) if _header(row) is not None), None)


_VISTS_WORD = re.compile(rb"vist|" + "вист".encode() + rb"|" + "Вист".encode() + rb"|"
                         + "ВИСТ".encode() + rb"|" + "\u0432\u0438\u0441\u0442".encode("cp1251")
                         + rb"|" + "\u0412\u0438\u0441\u0442".encode("cp1251")
                         + rb"|" + "\u0412\u0418\u0421\u0422".encode("cp1251"),
                         re.IGNORECASE)
"""The vists column's word in UTF-8 or windows-1251, in the raw bytes of a text file."""


def detect(data: bytes, filename: str = "") -> bool:
    """A CSV/spreadsheet/HTML file with a header naming game, player and vists (EN or RU)."""
    if not _is_binary(data) and not _VISTS_WORD.search(data[:65536]):
        return False  # no header can name the vists: not a preferans log (cheap, first)
    try:
        if not _is_binary(data):
            # the header is near the top: a text file is judged by its first lines (8 KiB; a
            # page 64 KiB), whole lines so that no character is cut
            limit = 65536 if _MARKUP.search(data[:4096].decode("latin-1")) else 8192
            if len(data) > limit:
                data = data[:data.rfind(b"\n", 0, limit) + 1]
        grids, _ = _read_grids(data, filename)
    except ParseError:
        return False
    return any(_find_header(g) is not None for g in grids)


# --- rows -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Value:
    """A game field as one row wrote it (blank ones are not kept)."""

    value: object
    text: str
    cell: Cell


@dataclass(slots=True)
class _Row:
    """One player's row: the game it belongs to and the fields it writes."""

    game: str
    segment: int
    player: str
    vists: float
    cell: Cell
    """The row's player cell."""
    header: _Header
    fields: dict[Role, _Value] = field(default_factory=dict)


def _where(cell: Cell, header: _Header, role: Role) -> dict[str, Any]:
    """The where-fields of an error about ``role`` in ``cell``'s row."""
    return {"table": cell.table or None, "row": cell.row, "column": header.name(role)}


class _Reader:
    """Reads the data rows of the grids below their headers."""

    def __init__(self, log: IssueLog) -> None:
        self.log = log
        self.rows: list[_Row] = []
        self.heading: list[str] = []

    def grid(self, grid: Grid) -> None:
        start = _find_header(grid)
        if start is None:
            return
        self.heading.extend(_lines(grid.rows[:start]))
        self.heading.extend(grid.heading)
        header = _header(grid.rows[start])
        assert header is not None
        _check_columns(header, grid.rows[start], self.log.file)
        for row in grid.rows[start + 1:]:
            found = _header(row)
            if found is not None:
                _check_columns(found, row, self.log.file)
                header = found
                continue
            self.row(row, header)

    def cell(self, row: Sequence[Cell], header: _Header, role: Role) -> Cell | None:
        index = header.columns.get(role)
        if index is None or index >= len(row):
            return None
        return row[index]

    def text(self, row: Sequence[Cell], header: _Header, role: Role) -> str:
        cell = self.cell(row, header, role)
        return normalise_space(cell.text) if cell is not None else ""

    def row(self, row: Sequence[Cell], header: _Header) -> None:
        filled = [c for c in row if normalise_space(c.text)]
        if not filled or len(filled) == 1 and filled[0].table != header.cell.table:
            return  # a blank row, or a text line of an HTML page between its tables
        if len(filled) == 1 or any(_key(c.text) in _TOTALS for c in filled):
            self.log.report(MalformedFile(
                "line that is not a player's row skipped", table=filled[0].table or None,
                row=filled[0].row, value=" | ".join(normalise_space(c.text) for c in filled),
            ), level="info")
            return
        game = self.text(row, header, "game")
        previous = self.rows[-1] if self.rows else None
        if not game:
            if previous is None:
                raise self.malformed(row, header, "game", "empty game id in the first row")
            game = previous.game
        prefix = f"game {game!r}: "
        segment = self.segment(row, header, game, previous, prefix)
        player = self.text(row, header, "player")
        if not player:
            raise self.malformed(row, header, "player", prefix + "empty player")
        vists_text = self.text(row, header, "vists")
        vists = self.number(row, header, "vists", prefix)
        if vists is None:
            raise self.malformed(row, header, "vists", prefix + "empty vists", vists_text)
        player_cell = self.cell(row, header, "player")
        assert player_cell is not None
        read = _Row(game, segment, player, vists, player_cell, header)
        for role in ("date", "variant", "deals", "length", "club"):
            value = self.field(row, header, role, prefix)
            if value is not None:
                read.fields[role] = value
        self.rows.append(read)

    def malformed(self, row: Sequence[Cell], header: _Header, role: Role, problem: str,
                  value: str | None = None) -> MalformedFile:
        cell = self.cell(row, header, role) or row[0]
        text = self.text(row, header, role) if value is None else value
        return MalformedFile(problem, file=self.log.file, value=text, has_value=True,
                             **_where(cell, header, role))

    def number(self, row: Sequence[Cell], header: _Header, role: Role,
               prefix: str) -> float | None:
        try:
            return parse_decimal(self.text(row, header, role))
        except ValueError:
            raise self.malformed(row, header, role, prefix + f"invalid {role} (not a number)") \
                from None

    def whole(self, row: Sequence[Cell], header: _Header, role: Role, prefix: str) -> int | None:
        value = self.number(row, header, role, prefix)
        if value is None:
            return None
        if not value.is_integer():
            raise self.malformed(row, header, role, prefix + f"invalid {role} (not a whole number)")
        return int(value)

    def segment(self, row: Sequence[Cell], header: _Header, game: str, previous: _Row | None,
                prefix: str) -> int:
        """The row's segment: as written, else the previous row's when it is of the same game."""
        number = self.whole(row, header, "segment", prefix)
        if number is None:
            return previous.segment if previous is not None and previous.game == game else 1
        if number < 1:
            raise self.malformed(row, header, "segment", prefix + "invalid segment (expected 1, "
                                 "2, ... counting the parts of a game split by a substitution)")
        return number

    def field(self, row: Sequence[Cell], header: _Header, role: Role,
              prefix: str) -> _Value | None:
        """A game field of the row, converted; None when blank."""
        cell = self.cell(row, header, role)
        text = self.text(row, header, role)
        if cell is None or not text:
            return None
        value: object
        if role == "date":
            value = _date(text)
            if value is None:
                raise self.malformed(row, header, role, prefix + "invalid date")
        elif role == "variant":
            value = canonical_variant(text)
            if value is None:
                raise self.malformed(row, header, role, prefix + "unknown variant (rule: a "
                                     "known variant: Sochi, Rostov or Leningrad)")
        elif role == "deals":
            value = self.whole(row, header, role, prefix)
            assert isinstance(value, int)
            if value < 1:
                raise InconsistentResult(
                    prefix + "rule: a game has at least 1 deal", file=self.log.file,
                    value=text, has_value=True, **_where(cell, header, role),
                )
        elif role == "length":
            value = self.whole(row, header, role, prefix)
            assert isinstance(value, int)
            if value < 0:
                raise self.malformed(row, header, role, prefix + "invalid pulka length "
                                     "(a sum of points, 0 or more)")
        else:
            value = text
        return _Value(value, text, cell)


def _lines(rows: Sequence[Sequence[Cell]]) -> list[str]:
    """Rows above a header as heading lines (the filled cells of a row joined)."""
    lines: list[str] = []
    for row in rows:
        texts = list(dict.fromkeys(normalise_space(c.text) for c in row if c.text.strip()))
        if texts:
            lines.append(" ".join(texts))
    return lines


def _check_columns(header: _Header, row: Sequence[Cell], file: str) -> None:
    """Every required column is there (docs/rules/inputs.md, "Other games")."""
    missing = [r for r in REQUIRED if r not in header.columns]
    if missing:
        first = row[0]
        raise MalformedFile(
            "missing column(s) of a preferans log; the header needs game, date, variant, deals, "
            "pulka length, player and vists", file=file, table=first.table or None,
            row=first.row, value=", ".join(missing), has_value=True,
        )


def _date(text: str) -> dt.date | None:
    """``12.03.2013``, ``2013-03-12``, ``12.03.2013 г.``, ``12 марта 2013``; None if none."""
    stripped = re.sub(r"\s*г\.?$", "", text.strip())
    try:
        return parse_date(stripped)
    except ValueError:
        pass
    match = _RU_DATE.match(stripped)
    if match is None:
        return None
    word = match[2].lower()
    month = next((m for stem, m in sorted(_RU_MONTHS.items(), key=lambda kv: -len(kv[0]))
                  if word.startswith(stem)), None)
    if month is None or (month == 5 and word not in ("мая", "май")):
        return None
    try:
        return dt.date(int(match[3]), month, int(match[1]))
    except ValueError:
        return None


# --- segments -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Segment:
    game: str
    number: int
    rows: tuple[_Row, ...]

    @property
    def name(self) -> str:
        return f"game {self.game!r}, segment {self.number}"


def _segments(rows: Sequence[_Row]) -> list[_Segment]:
    groups: dict[tuple[str, int], list[_Row]] = {}
    for row in rows:
        groups.setdefault((row.game, row.segment), []).append(row)
    return [_Segment(game, number, tuple(rs)) for (game, number), rs in groups.items()]


def _one_value(segment: _Segment, role: Role, file: str) -> object:
    """The segment's single value of ``role`` (spec: one date/variant/deals/length per game)."""
    written = [(row, row.fields[role]) for row in segment.rows if role in row.fields]
    if not written:
        if role == "club":
            return None
        top = segment.rows[0]
        cell = Cell("", top.cell.table, top.cell.row, top.header.columns[role])
        raise MalformedFile(f"{segment.name}: no {role} written in any of its rows",
                            file=file, value="", has_value=True, **_where(cell, top.header, role))
    first = written[0][1]
    for row, value in written[1:]:
        if value.value != first.value:
            raise InconsistentResult(
                f"{segment.name}: {role} differs from row {first.cell.row} ({first.text!r}) "
                f"(rule: one {role} per segment)", file=file, value=value.text, has_value=True,
                **_where(value.cell, row.header, role),
            )
    return first.value


def _check_players(segment: _Segment, file: str) -> None:
    """docs/rules/preferans.md: players distinct; a table seats 3 players (4 with a sitting-out
    dealer); settled vists sum to zero within 0.5."""
    seen: dict[str, _Row] = {}
    for row in segment.rows:
        key = row.player.casefold()
        if key in seen:
            raise InconsistentResult(
                f"{segment.name}: player also in row {seen[key].cell.row} "
                "(rule: the players of a game are distinct)", file=file, value=row.player,
                has_value=True, **_where(row.cell, row.header, "player"),
            )
        seen[key] = row
    first = segment.rows[0]
    if not 3 <= len(segment.rows) <= 4:
        raise InconsistentResult(
            f"{segment.name}: {len(segment.rows)} player(s) (rule: a game has 3 players, "
            "4 with a sitting-out dealer)", file=file,
            value=", ".join(r.player for r in segment.rows), has_value=True,
            **_where(first.cell, first.header, "player"),
        )
    total = round(sum(r.vists for r in segment.rows), 6)
    if abs(total) > _SUM_TOLERANCE:
        vists_cell = Cell("", first.cell.table, first.cell.row, first.header.columns["vists"])
        raise InconsistentResult(
            f"{segment.name}: vists sum to {total:g}, not 0 (rule: a game's settled vists sum "
            f"to zero within {_SUM_TOLERANCE})", file=file, value=total, has_value=True,
            **_where(vists_cell, first.header, "vists"),
        )


def _units(rows: Sequence[_Row]) -> tuple[Unit, ...]:
    """Players ranked by vists (most first, file order among equals), ties on the mean place."""
    ranked = sorted(rows, key=lambda r: -r.vists)
    units: list[Unit] = []
    start = 0
    while start < len(ranked):
        end = start
        while end + 1 < len(ranked) and ranked[end + 1].vists == ranked[start].vists:
            end += 1
        place = (start + end) / 2 + 1
        units.extend(
            Unit(place=place, place_text="", label="", score=r.vists,
                 players=(PlayerAsWritten(name=r.player),))
            for r in ranked[start:end + 1]
        )
        start = end + 1
    return tuple(units)


def _check_numbering(segments: Sequence[_Segment], log: IssueLog) -> None:
    """Segments of a game are numbered 1, 2, ... (a gap is a warning: a lost segment?)."""
    numbers: dict[str, list[_Segment]] = {}
    for segment in segments:
        numbers.setdefault(segment.game, []).append(segment)
    for game, parts in numbers.items():
        found = sorted(p.number for p in parts)
        if found != list(range(1, len(found) + 1)):
            first = parts[0].rows[0]
            log.report(InconsistentResult(
                f"game {game!r}: segments numbered {', '.join(map(str, found))}, expected "
                f"1 to {len(found)}", value=", ".join(map(str, found)), has_value=True,
                **_where(first.cell, first.header, "segment"),
            ))


def _organiser(heading: Sequence[str], log: IssueLog) -> str:
    """A ``Club: ...`` line, else the file's title, else ``unknown club`` with a warning."""
    for line in heading:
        if (match := _CLUB_LINE.match(line)) is not None:
            return match[2]
    for line in heading:
        if _date(line) is None:
            return line
    log.report(MalformedFile(
        "no club named (no club column, no 'Club:' line, no title); organiser set to "
        "'unknown club'", has_value=False,
    ))
    return "unknown club"


def _event(segment: _Segment, organiser: str, file: str) -> Event:
    _check_players(segment, file)
    values = {role: _one_value(segment, role, file)
              for role in ("date", "variant", "deals", "length", "club")}
    date, variant, deals, length = (values["date"], values["variant"], values["deals"],
                                    values["length"])
    assert isinstance(date, dt.date) and isinstance(variant, str)
    assert isinstance(deals, int) and isinstance(length, int)
    club = values["club"]
    return Event(
        game="preferans", title=f"game {segment.game}", date=date, kind="individual",
        scoring="unknown", units=_units(segment.rows), section=f"segment {segment.number}",
        organiser=club if isinstance(club, str) else organiser, format=NAME, deals=deals,
        variant=variant, pulka=length, segment=segment.number,
    )


def _events(reader: _Reader, log: IssueLog) -> Iterator[Event]:
    segments = _segments(reader.rows)
    organiser = ""
    if any("club" not in row.fields for row in reader.rows):
        organiser = _organiser(reader.heading, log)
    for segment in segments:
        yield _event(segment, organiser, log.file)
    _check_numbering(segments, log)


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events of a preferans club log; see the module docstring and docs/preferans-log.md."""
    log = IssueLog(file=source_name(source), strict=strict)
    try:
        grids, notes = _read_grids(data, source)
    except ParseError as exc:
        raise exc.with_file(log.file) from exc
    for note in notes:
        log.report(MalformedFile(note), level="info")
    reader = _Reader(log)
    for grid in grids:
        reader.grid(grid)
    if not reader.rows:
        raise MalformedFile(
            "no preferans log: no header naming game, player and vists with rows below it",
            file=log.file,
        )
    events = tuple(_events(reader, log))
    return ParseResult(format=NAME, events=events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="preferans club game logs (CSV, XLSX/ODS, HTML; English or Russian headers): "
    "one event per game segment",
    detect=detect,
    parse=parse,
)
