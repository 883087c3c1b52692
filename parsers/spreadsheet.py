"""Generic result spreadsheets: ``.xlsx``, legacy ``.xls``, ``.ods``, ``.csv``/``.tsv``.

A fallback format (``Format(fallback=True)``): asked only when no specific format (the CSV
template, a scoring program's export) claims the file. Each sheet becomes a ``_grid.Grid``; the
table logic (headers in five languages, rows or transposed columns, sections, ties, initials,
event fields from the title rows) lives in ``_grid``.

Reading (spreadsheets with several sheets, formulas instead of values):

- **xlsx** with openpyxl, ``data_only=True``: a formula reads as the value the spreadsheet program
  cached when it saved the file; a formula without a cached value is a warning naming the cell.
  Merged ranges are filled with the anchor's value. A number formatted as a percentage
  (``0.5643`` shown as ``56.43 %``) reads as ``56.43``; dates read as ``YYYY-MM-DD``;
- **xls** (OLE2 ``D0 CF 11 E0``) with xlrd, merged ranges and percent formats likewise;
- **ods** (a zip whose ``mimetype`` is an OpenDocument spreadsheet) with odfpy: rows and cells
  repeated with ``number-rows-repeated`` / ``number-columns-repeated``, merged cells
  (``number-columns-spanned`` / ``number-rows-spanned`` over ``covered-table-cell``);
- **csv/tsv**: delimiter ``,`` ``;`` TAB or ``|`` (whichever splits the lines most consistently),
  UTF-8 with or without BOM, windows-1250 or ISO-8859-2 (``_text.decode_bytes``). Recognised only
  when some line is a results header.

**Never a program's sheet**: a sheet or CSV written by a scoring program is refused, whether the
program has a format of its own or not: the CSV template's header, a tagged export (first line
``#VERSION,...``), or the marks of ``_grid.PROGRAMS`` (the one list the ``html_tables`` format
uses too) in its cells or in the workbook's properties (the application or creator that saved
it) - a BBO export's ``User`` column or ``#4242 Pairs`` title, RealBridge, EBUScore, Pianola,
Bridgemate, ScoreBridge, ...

**Positive evidence** (``_grid.lacking_evidence``): a sheet's table is read only when it has a
names column and places or scores that order its rows; a file with no such table is refused
with what each sheet lacks (``sheet 'Hárok1' has a names column but no place or score column``).

**Several sheets** (one per session plus a summary): the summary is taken - the sheet named like
``Celkové poradie``, ``Súhrn``, ``Summary``, ``Total``, ``Celkem``, ``Razem``, or else the one
sheet whose players include every other sheet's - and an info issue names the sheets left out.
Sheets that are not result tables are ignored. With no summary, every sheet is an event of its
own (its section is the sheet name when two would share a key).

Errors name the sheet, the row and the column, and the cell as ``C7`` in the message.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ._errors import MalformedFile, ParseError, UnknownFormat
from ._grid import (
    Cell,
    Grid,
    GridEvents,
    column_letter,
    fold,
    has_results_header,
    program_mark,
    read_grid,
    table_label,
)
from ._issues import IssueLog, Level, source_name
from ._limits import LimitExceeded, Limits, current, over
from ._model import Event, ParseResult
from ._registry import Format
from ._text import decode_bytes, normalise_space

__all__ = ["FORMAT", "detect", "parse", "read_sheets"]

NAME = "spreadsheet"
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"
_TEMPLATE_COLUMNS = frozenset({"event", "date", "kind", "scoring", "boards", "unit", "place",
                               "player"})
"""The CSV template's required columns (``csv_template``): such files are not generic tables."""
_SUMMARY = re.compile(
    r"celkov|suhrn|summary|total|celkem|souhrn|razem|podsumowanie|klasyfikacja|vysledn|"
    r"final|osszesit|vegeredmeny"
)

# --- building grids -------------------------------------------------------------------------


def _number(value: float, percent: bool = False) -> str:
    """A cell number as text: ``1.0`` -> ``1``, a percent-formatted ``0.5643`` -> ``56.43``."""
    if percent:
        value *= 100
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.10g}"


def _value_text(value: object, percent: bool = False) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, (int, float)):
        return _number(float(value), percent)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _grid(
    name: str, values: dict[tuple[int, int], str],
    spans: Sequence[tuple[int, int, int, int]] = (),
) -> Grid:
    """A dense grid from sparse 0-based ``(row, col) -> text``; ``spans`` are merged ranges
    ``(first_row, first_col, last_row, last_col)`` inclusive, filled with the anchor's text.
    A sheet beyond the bounds of ``[limits]`` (rows, columns, merged ranges and the cells they
    cover, characters in a cell) is refused, never cut short."""
    bounds = current()
    _check_merges(len(spans), sum((max(r1 - r0, 0) + 1) * (max(c1 - c0, 0) + 1)
                                  for r0, c0, r1, c1 in spans), name)
    for (r, c), text in values.items():
        if len(text) > bounds.cell_chars:
            raise over("cell_chars", len(text), "a cell holds more characters", table=name,
                       row=r + 1, column=column_letter(c))
    filled = [key for key, text in values.items() if text.strip()]
    n_rows = max((r for r, _ in filled), default=-1) + 1
    n_cols = max((c for _, c in filled), default=-1) + 1
    if n_rows > bounds.rows:
        raise over("rows", n_rows, "the sheet has more rows", table=name)
    if n_cols > bounds.columns:
        raise over("columns", n_cols, "the sheet has more columns", table=name)
    merged: set[tuple[int, int]] = set()
    for r0, c0, r1, c1 in spans:
        text = values.get((r0, c0), "")
        for r in range(r0, min(r1, bounds.rows) + 1):
            for c in range(c0, min(c1, bounds.columns) + 1):
                if (r, c) != (r0, c0):
                    merged.add((r, c))
                    if text:
                        values[(r, c)] = text
    filled = [key for key, text in values.items() if text.strip()]
    n_rows = max((r for r, _ in filled), default=-1) + 1
    n_cols = max((c for _, c in filled), default=-1) + 1
    return Grid(name, tuple(
        tuple(Cell(values.get((r, c), ""), name, r + 1, c, (r, c) in merged)
              for c in range(n_cols))
        for r in range(min(n_rows, bounds.rows))
    ), letters=True)


_FORMULA = re.compile(rb"<(?:\w+:)?f[ >/]")


def _has_formulas(data: bytes) -> bool:
    """Whether some worksheet of an xlsx workbook holds a formula (an ``<f>`` element): only
    then is the workbook read a second time for the formulas without a cached value."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return any(_FORMULA.search(archive.read(name)) for name in archive.namelist()
                   if name.startswith("xl/worksheets/") and name.endswith(".xml"))


_MERGE_REF = re.compile(rb"<(?:\w+:)?mergeCell\b[^>]*?\bref=\"([A-Z]{1,3})(\d{1,7})"
                        rb"(?::([A-Z]{1,3})(\d{1,7}))?\"")


def _column_number(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _check_merges(count: int, covered: int, table: str) -> None:
    """Refuse a sheet with more merged ranges, or merged ranges covering more cells, than
    ``[limits]`` allows."""
    bounds = current()
    if count > bounds.merged:
        raise over("merged", count, "the sheet has more merged ranges", table=table)
    if covered > bounds.merged_cells:
        raise over("merged_cells", covered, "the sheet's merged ranges cover more cells",
                   table=table)


def _check_xlsx_merges(data: bytes) -> None:
    """Bound the merged ranges of every sheet from its XML, before the workbook is opened (the
    reader makes an object for every cell a merged range covers)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
                continue
            refs = _MERGE_REF.findall(archive.read(name))
            covered = sum((abs(int(r1) - int(r0)) + 1)
                          * (abs(_column_number(c1) - _column_number(c0)) + 1)
                          for c0, r0, c1, r1 in refs if c1)
            _check_merges(len(refs), covered, name.rsplit("/", 1)[-1])


def _xlsx(data: bytes) -> tuple[list[Grid], list[tuple[str, str]]]:
    """Grids of an xlsx workbook and the cells whose formula has no cached value."""
    import openpyxl

    _check_xlsx_merges(data)
    book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    formulas = openpyxl.load_workbook(io.BytesIO(data), data_only=False) \
        if _has_formulas(data) else None
    grids: list[Grid] = []
    uncached: list[tuple[str, str]] = []
    bounds = current()
    for sheet in book.worksheets:
        values: dict[tuple[int, int], str] = {}
        if sheet.max_row > bounds.rows or sheet.max_column > bounds.columns:
            _check_used(sheet.title, sheet.iter_rows(values_only=True), bounds)
        for row in sheet.iter_rows(max_row=min(sheet.max_row, bounds.rows + 1),
                                   max_col=min(sheet.max_column, bounds.columns + 1)):
            for cell in row:
                if cell.value is None:
                    if formulas is None:
                        continue
                    source = formulas[sheet.title].cell(cell.row, cell.column).value
                    if isinstance(source, str) and source.startswith("="):
                        uncached.append((sheet.title, f"{cell.coordinate}"))
                    continue
                percent = "%" in (cell.number_format or "")
                values[(cell.row - 1, cell.column - 1)] = _value_text(cell.value, percent)
        spans = [(r.min_row - 1, r.min_col - 1, r.max_row - 1, r.max_col - 1)
                 for r in sheet.merged_cells.ranges]
        grids.append(_grid(sheet.title, values, spans))
    return grids, uncached


def _check_used(title: str, rows: Any, bounds: Limits) -> None:
    """Refuse a sheet whose cells with a value reach beyond the row or column bound (its
    declared size alone may be larger: empty formatted cells count there)."""
    for r, row in enumerate(rows, 1):
        if r > bounds.rows and any(v is not None for v in row):
            raise over("rows", r, "the sheet has more rows", table=title)
        if len(row) > bounds.columns and any(v is not None for v in row[bounds.columns:]):
            raise over("columns", len(row), "the sheet has more columns", table=title, row=r)


def _xls(data: bytes) -> list[Grid]:
    import xlrd

    book = xlrd.open_workbook(file_contents=data, formatting_info=True, logfile=io.StringIO())
    grids: list[Grid] = []
    bounds = current()
    for sheet in book.sheets():
        values: dict[tuple[int, int], str] = {}
        for r in range(min(sheet.nrows, bounds.rows + 1)):
            for c in range(min(sheet.ncols, bounds.columns + 1)):
                cell = sheet.cell(r, c)
                if cell.ctype == xlrd.XL_CELL_NUMBER:
                    fmt = book.format_map.get(book.xf_list[cell.xf_index].format_key)
                    values[(r, c)] = _number(cell.value, fmt is not None and
                                             "%" in fmt.format_str)
                elif cell.ctype == xlrd.XL_CELL_DATE:
                    values[(r, c)] = _value_text(
                        xlrd.xldate.xldate_as_datetime(cell.value, book.datemode))
                elif cell.ctype in (xlrd.XL_CELL_TEXT, xlrd.XL_CELL_BOOLEAN):
                    values[(r, c)] = _value_text(cell.value)
        spans = [(r0, c0, r1 - 1, c1 - 1) for r0, r1, c0, c1 in sheet.merged_cells]
        grids.append(_grid(sheet.name, values, spans))
    return grids


def _ods_text(cell: Any) -> str:
    """A cell's value: the number for numbers (percent x 100), else its paragraphs' text."""
    from odf import teletype
    from odf import text as odf_text

    kind = cell.getAttribute("valuetype")
    if kind in ("float", "percentage", "currency"):
        raw = cell.getAttribute("value")
        try:
            return _number(float(raw), kind == "percentage")
        except (TypeError, ValueError):
            pass
    if kind == "date" and cell.getAttribute("datevalue"):
        return str(cell.getAttribute("datevalue"))[:10]
    return "\n".join(teletype.extractText(p) for p in cell.getElementsByType(odf_text.P))


def _ods_int(element: Any, attribute: str) -> int:
    try:
        return max(1, int(element.getAttribute(attribute) or 1))
    except ValueError:
        return 1


def _ods(data: bytes) -> list[Grid]:
    from odf import table as odf_table
    from odf.opendocument import load

    document = load(io.BytesIO(data))
    grids: list[Grid] = []
    bounds = current()
    for table in document.spreadsheet.getElementsByType(odf_table.Table):
        values: dict[tuple[int, int], str] = {}
        spans: list[tuple[int, int, int, int]] = []
        r = 0
        for row in table.getElementsByType(odf_table.TableRow):
            rows_repeated = _ods_int(row, "numberrowsrepeated")
            cells: list[tuple[int, str, int, int]] = []
            c = 0
            for cell in row.childNodes:
                if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                    continue
                repeated = _ods_int(cell, "numbercolumnsrepeated")
                text = _ods_text(cell) if cell.qname[1] == "table-cell" else ""
                if text:
                    if c + repeated > bounds.columns:
                        raise over("columns", c + repeated, "the sheet has more columns",
                                   table=str(table.getAttribute("name") or ""), row=r + 1)
                    for k in range(repeated):
                        cells.append((c + k, text, 1, 1))
                if cell.qname[1] == "table-cell":
                    col_span = _ods_int(cell, "numbercolumnsspanned")
                    row_span = _ods_int(cell, "numberrowsspanned")
                    if col_span > 1 or row_span > 1:
                        spans.append((r, c, r + row_span - 1, c + col_span - 1))
                c += repeated
            if cells:
                if r + rows_repeated > bounds.rows:
                    raise over("rows", r + rows_repeated, "the sheet has more rows",
                               table=str(table.getAttribute("name") or ""))
                for k in range(rows_repeated):
                    for col, text, _, _ in cells:
                        values[(r + k, col)] = text
            r += rows_repeated
        grids.append(_grid(str(table.getAttribute("name") or f"Sheet{len(grids) + 1}"),
                           values, spans))
    return grids


_DELIMITERS = (";", ",", "\t", "|")


def _delimiter(lines: Sequence[str]) -> str:
    """The delimiter that splits the most lines into the same number (> 1) of cells."""
    best, best_score = ",", -1
    for delimiter in _DELIMITERS:
        widths = [len(cells) for cells in csv.reader(lines, delimiter=delimiter)]
        common = max(set(widths), key=widths.count, default=1) if widths else 1
        score = widths.count(common) * (common > 1) * min(common, 12)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _csv_rows(text: str, file: str) -> list[list[str]]:
    lines = [line for line in text.splitlines()[:1000] if line.strip()][:50]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(lines))
    bounds = current()
    rows: list[list[str]] = []
    try:
        for row in reader:
            if len(rows) >= bounds.rows:
                raise over("rows", f"more than {bounds.rows}", "the file has more rows",
                           table=file)
            rows.append(list(row))
        return rows
    except csv.Error as exc:
        raise MalformedFile(f"not readable as CSV ({exc})", file=file,
                            row=reader.line_num) from exc


def _csv(text: str, name: str, file: str) -> Grid:
    rows = _csv_rows(text, file)
    values = {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row) if v.strip()}
    return _grid(name, values)


def _kind_of(data: bytes) -> str | None:
    """``xlsx``, ``ods``, ``xls``, ``text``, or None for other binary data."""
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
                if "xl/workbook.xml" in names:
                    return "xlsx"
                if "mimetype" in names and archive.read("mimetype").strip() == _ODS_MIME:
                    return "ods"
        except Exception:  # zipfile raises many kinds on damaged archives (flags, crc, ...)
            return None
        return None
    if data.startswith(_OLE2):
        return "xls" if b"W\x00o\x00r\x00k\x00b\x00o\x00o\x00k" in data \
            or b"B\x00o\x00o\x00k" in data else None
    if b"\x00" in data[:4096]:
        return None
    return "text"


_READ: list[tuple[bytes, str, object, object]] = []
"""The last workbook read (its bytes, source and grids or error): detection and reading ask
for the same file's sheets up to three times in one parse, and a workbook of many merged
ranges takes seconds to open."""


def read_sheets(data: bytes, *, source: str = "") -> tuple[list[Grid], list[tuple[str, str]],
                                                           str]:
    """The grids of a spreadsheet file, formula cells without a cached value, and a note on the
    character set of a text file. ``MalformedFile`` if it cannot be read.

    A workbook (xlsx, xls, ods) is opened once for the same bytes and source: the answer of
    the last call is kept."""
    if _READ and _READ[0][0] is data and _READ[0][1] == source and _READ[0][3] == current():
        kept = _READ[0][2]
        if isinstance(kept, BaseException):
            raise kept
        grids, uncached, note = kept  # type: ignore[misc]
        return list(grids), list(uncached), note
    try:
        answer = _read_sheets_once(data, source=source)
    except ParseError as exc:
        if _kind_of(data) in ("xlsx", "xls", "ods"):
            _READ[:] = [(data, source, exc, current())]
        raise
    if _kind_of(data) in ("xlsx", "xls", "ods"):
        _READ[:] = [(data, source, (tuple(answer[0]), tuple(answer[1]), answer[2]), current())]
    return answer


def _read_sheets_once(data: bytes, *, source: str = "") -> tuple[
        list[Grid], list[tuple[str, str]], str]:
    file = source_name(source)
    kind = _kind_of(data)
    try:
        if kind == "xlsx":
            return *_xlsx(data), ""
        if kind == "xls":
            return _xls(data), [], ""
        if kind == "ods":
            return _ods(data), [], ""
    except ParseError:
        raise
    except Exception as exc:  # the readers raise many kinds of errors on damaged files
        raise MalformedFile(f"not readable as {kind} ({type(exc).__name__}: {exc})",
                            file=file) from exc
    if kind != "text":
        raise MalformedFile("not a spreadsheet (xlsx, xls, ods, csv)", file=file)
    decoded = decode_bytes(data)
    name = file.rsplit(".", 1)[0] if file else "csv"
    note = f"not UTF-8; read as {decoded.encoding}" if decoded.method == "detected" else ""
    return [_csv(decoded.text, name, file)], [], note


# --- detection ------------------------------------------------------------------------------

_TAGGED = re.compile(r"^\ufeff?\s*#[A-Z]{3,}\b")
"""``#VERSION,EBUScore Pairs``: a tagged scoring-program export (Bridgewebs CSV), not a table."""
_MARKUP = re.compile(r"<\s*(html|table|!doctype|body|tr|td)\b", re.IGNORECASE)


def _is_template(rows: Sequence[Sequence[str]]) -> bool:
    first = next((row for row in rows if any(c.strip() for c in row)), [])
    return _TEMPLATE_COLUMNS <= {normalise_space(c).lower() for c in first}


def _texts(grid: Grid) -> list[list[str]]:
    return [[c.text for c in row] for row in grid.rows]


_SCANNED_ROWS = 200
"""Rows of each sheet searched for a scoring program's marks."""


def _sheet_text(rows: Sequence[Sequence[str]]) -> str:
    """A sheet's first rows as tab-separated lines: what ``_grid.program_mark`` reads."""
    return "\n".join("\t".join(normalise_space(c) for c in row) for row in rows[:_SCANNED_ROWS])


def _written_by(rows: Sequence[Sequence[str]], raw: str = "") -> str | None:
    """Who wrote a sheet that is not a hand-made table: a scoring program (``_grid.PROGRAMS``),
    the CSV template, a tagged program export; None for a hand-made sheet."""
    lines = [line for line in raw.splitlines() if line.strip()][:1]
    if lines and _TAGGED.match(lines[0]):
        return "a scoring program (a tagged export: " + lines[0].strip()[:40] + ")"
    if _is_template(rows):
        return "the CSV template (read by the csv_template format)"
    return program_mark(_sheet_text(rows) + "\n" + raw[:65536])


_PROPERTIES = ("docProps/app.xml", "docProps/core.xml", "meta.xml")
"""Where a workbook names the program that wrote it (``<Application>``, ``<dc:creator>``,
``<meta:generator>``)."""


def _properties(data: bytes) -> str:
    """The document properties of an xlsx or ods workbook as text ("" for other files)."""
    if not data.startswith(b"PK\x03\x04"):
        return ""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            return "\n".join(archive.read(n)[:20000].decode("utf-8", "replace")
                             for n in _PROPERTIES if n in names)
    except Exception:  # a damaged archive: its sheets are refused when read
        return ""


def detect(data: bytes, filename: str = "") -> bool:
    """A spreadsheet (by magic bytes) or delimited text with a results header in some sheet,
    not written by a scoring program."""
    kind = _kind_of(data)
    if kind is None:
        return False
    if kind == "text":
        head = decode_bytes(data[:65536]).text
        if _MARKUP.search(head[:4096]):
            return False
        lines = [line for line in head.splitlines() if line.strip()][:60]
        rows = list(csv.reader(lines, delimiter=_delimiter(lines)))
        return _written_by(rows, head) is None and has_results_header(rows)
    try:
        grids, _, _ = read_sheets(data, source=filename)
    except LimitExceeded:
        raise  # beyond a bound whatever it is: refused as such
    except ParseError:
        return False
    texts = [_texts(g) for g in grids]
    properties = _properties(data)
    return all(_written_by(t, properties) is None for t in texts) \
        and any(map(has_results_header, texts))


# --- parse ----------------------------------------------------------------------------------


class _Recording(IssueLog):
    """A lenient log that keeps the errors themselves, to replay into the real log."""

    def __init__(self, file: str) -> None:
        super().__init__(file=file, strict=False)
        self.reported: list[tuple[ParseError, Level]] = []

    def report(self, error: ParseError, level: Level = "warning") -> None:
        self.reported.append((error, level))


@dataclass(frozen=True, slots=True)
class _Sheet:
    grid: Grid
    found: GridEvents
    recorded: list[tuple[ParseError, Level]]


def _read_sheets(grids: Sequence[Grid], file: str, source: str) -> list[_Sheet]:
    """Every sheet that holds a results table; the first sheet's error if none reads, else
    what each sheet lacks."""
    sheets: list[_Sheet] = []
    errors: list[ParseError] = []
    refusals: list[str] = []
    for grid in grids:
        recording = _Recording(file)
        try:
            found = read_grid(grid, fmt=NAME, log=recording, source=source, refusals=refusals)
        except ParseError as exc:
            errors.append(exc)
            continue
        if found is not None:
            sheets.append(_Sheet(grid, found, recording.reported))
    if not sheets:
        if errors:
            raise errors[0].with_file(file)
        filled = [g for g in grids if any(c.text.strip() for row in g.rows for c in row)]
        why = "; ".join(refusals) or (
            "no sheet has a header naming players and places or scores" if filled
            else "every sheet is empty")
        if not refusals and filled:
            why += " (sheets: " + ", ".join(repr(g.name) for g in grids) + ")"
        raise MalformedFile(f"no results table: {why}", file=file)
    return sheets


def _choose(sheets: list[_Sheet], log: IssueLog) -> list[_Sheet]:
    """The summary sheet of a workbook with several result sheets (see module docstring)."""
    if len(sheets) == 1:
        return sheets
    chosen = next((s for s in sheets if _SUMMARY.search(fold(s.grid.name))), None)
    if chosen is None:
        covering = [s for s in sheets
                    if all(o.found.players <= s.found.players for o in sheets)]
        if len(covering) == 1:
            chosen = covering[0]
    if chosen is None:
        log.report(MalformedFile(
            f"{len(sheets)} sheets hold results and none is a summary; each is read as an event",
            has_value=False,
        ), level="info")
        return sheets
    others = ", ".join(repr(s.grid.name) for s in sheets if s is not chosen)
    log.report(MalformedFile(
        f"several sheets hold results; took the summary sheet {chosen.grid.name!r} and left "
        f"out {others}", table=chosen.grid.name, has_value=False,
    ), level="info")
    return [chosen]


def _distinct_keys(events: list[Event], sheets: Sequence[_Sheet]) -> Iterator[Event]:
    """Events of several sheets; a sheet's name becomes the section where keys would clash."""
    keys = [e.key for e in events]
    for event, sheet in zip(events, sheets):
        if keys.count(event.key) > 1:
            section = f"{sheet.grid.name} {event.section}".strip()
            yield replace(event, section=section)
        else:
            yield event


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events of a result spreadsheet; see the module docstring and ``_grid``."""
    log = IssueLog(file=source_name(source), strict=strict)
    grids, uncached, note = read_sheets(data, source=source)
    raw = decode_bytes(data[:65536]).text if _kind_of(data) == "text" else _properties(data)
    for grid in grids:
        writer = _written_by(_texts(grid), raw)
        if writer is not None:
            raise UnknownFormat(
                f"{table_label(grid.name, True)} was written by {writer}, not by hand: a scoring "
                "program's sheet is read by that program's own format or not at all",
                file=log.file, table=grid.name,
            )
    if note:
        log.report(MalformedFile(f"file is {note}"), level="info")
    for sheet_name, coordinate in uncached:
        log.report(MalformedFile(
            f"formula in cell {coordinate} has no saved value; open and save the file in a "
            "spreadsheet program", table=sheet_name, row=coordinate.lstrip("ABCDEFGHIJKLMNOPQRSTU"
                                                                         "VWXYZ"),
            column=coordinate.rstrip("0123456789"),
        ))
    chosen = _choose(_read_sheets(grids, log.file, source), log)
    events: list[Event] = []
    owners: list[_Sheet] = []
    for sheet in chosen:
        for error, level in sheet.recorded:
            log.report(error, level)
        events.extend(sheet.found.events)
        owners.extend([sheet] * len(sheet.found.events))
    return ParseResult(format=NAME, events=tuple(_distinct_keys(events, owners)),
                       issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="any result spreadsheet (xlsx, xls, ods, csv/tsv): rows or columns, sections, "
    "initials",
    detect=detect,
    parse=parse,
    fallback=True,
)
