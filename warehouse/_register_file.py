"""A federation's member register (CSV, XLSX, ODS or legacy XLS) -> member records. Pure.

docs/rules/inputs.md, "Sources" (3): exports of other systems, e.g. a federation's member register.
One member per row with the columns federation id, first name, surname and, optionally, club,
birth year and status. Bytes in, :class:`RegisterFile` out; no database, no files.

Rules:

- **header**: the first row whose cells name at least the federation id, first-name and surname
  columns; rows above it (a title line, a date) are skipped. Header names are matched without
  regard to case, accents and punctuation, in English, Slovak, Czech, Polish, Hungarian and
  German (``_ALIASES``); German ``Name`` is the surname only beside a ``Vorname`` column. Other
  columns are ignored with a warning;
- **text files**: UTF-8 with or without BOM, UTF-16 with BOM, else the encoding detected by
  charset-normalizer (docs/rules/inputs.md, "Character sets": windows-1250 is common); the delimiter is
  the one of ``,`` ``;`` and tab that yields a header row;
- **workbooks**: the first sheet that has a header; cached values of formulas; a number cell id
  ``1001.0`` is the id ``"1001"``. ODS is read by the result readers' ODS reader
  (``parsers.spreadsheet.read_sheets``: merged ranges filled with the anchor's text);
- **limits**: the ``[limits]`` of the result files (parsers/_limits.py) bound a register file
  too: its size, a zip container's entries and unpacked size, and an ODS sheet's rows, columns,
  merged ranges and characters in a cell;
- **values**: the federation id stays text (leading zeros kept), cells are stripped, blank rows
  are skipped; a birth year is a year (``1961``) or a full date (``1961-03-12``, ``12.3.1961``)
  from 1900 to 2100.

Errors (all :class:`RegisterError`, naming file, sheet, row, column and value): no header row,
an empty federation id, the same id twice, a row without first name or surname, a birth year
that is not a year, a file that cannot be read, a file beyond a ``[limits]`` bound (one line
naming the setting, how to raise it, and the file's value).

    LoadError            (warehouse._errors)
    └── RegisterError    a register file that cannot be read as it is
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
import warnings
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from parsers import ParseError
from parsers._limits import check_bytes

from ._errors import LoadError

__all__ = ["RegisterError", "RegisterFile", "RegisterMember", "read_register"]

Field: TypeAlias = Literal["id", "first", "surname", "club", "birth", "status"]
Value: TypeAlias = object
"""A cell value as the reader gives it: str, int, float, date, datetime, bool or None."""

_LABELS: dict[Field, str] = {
    "id": "federation id",
    "first": "first name",
    "surname": "surname",
    "club": "club",
    "birth": "birth year",
    "status": "status",
}
_REQUIRED: tuple[Field, ...] = ("id", "first", "surname")
_YEARS = range(1900, 2101)
_ZIP = b"PK\x03\x04"
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"
_MAX_COLUMNS = 1024
"""Cells to the right of this are not read (a damaged file can claim millions of columns)."""


# --- records and errors ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RegisterMember:
    """One member as the register writes them."""

    federation_id: str
    """Kept as text: leading zeros stay, surrounding spaces are stripped."""
    first_name: str
    surname: str
    club: str | None
    birth_year: int | None
    status: str | None
    """As written (``aktívny``, ``active``, ``neaktívny``, ...); None when empty."""
    row: int
    """1-based row number in the file or sheet (the header has its own row number)."""


@dataclass(frozen=True, slots=True)
class RegisterFile:
    """The members of one register file, in file order."""

    members: tuple[RegisterMember, ...]
    sheet: str | None
    """The sheet read (workbooks); None for CSV."""
    warnings: tuple[str, ...]
    """What was worked around, e.g. an ignored unknown column."""


class RegisterError(LoadError):
    """A register file that cannot be read as it is; says where and quotes the value."""

    def __init__(
        self, problem: str, *, file: str, sheet: str | None = None, row: int | None = None,
        column: str | None = None, value: object = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.sheet = sheet
        self.row = row
        self.column = column
        self.value = value
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [self.file or "register"]
        if self.sheet is not None:
            where.append(f"sheet {self.sheet!r}")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column!r}")
        got = f", got {self.value!r}" if self.value is not None else ""
        return f"{', '.join(where)}: {self.problem}{got}"


# --- header names ---------------------------------------------------------------------------


def _key(text: str) -> str:
    """Case-, accent-, space- and punctuation-insensitive key: ``Reg. číslo`` -> ``regcislo``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


_ALIASES: dict[Field, tuple[str, ...]] = {
    "id": (
        # English
        "id", "federation id", "federation no", "federation number", "member id", "member no",
        "member number", "membership no", "membership number", "registration number", "reg no",
        # Slovak, Czech
        "reg. číslo", "reg. č.", "registračné číslo", "registrační číslo", "číslo",
        "číslo člena", "členské číslo", "evidenční číslo", "evid. číslo", "ev. č.", "SBZ",
        "číslo SBZ", "ČBS", "číslo ČBS",
        # Polish
        "nr", "numer", "nr PZBS", "numer PZBS", "PZBS", "PZBS id", "nr członkowski",
        "numer członkowski",
        # Hungarian
        "igazolványszám", "igazolvány szám", "azonosító", "tagszám", "MBSZ azonosító",
        # German
        "Mitgliedsnummer", "Mitglieds-Nr.", "Mitgliedsnr", "Mitglied-Nr.", "DBV-Nr.", "Nummer",
    ),
    "first": (
        "first name", "firstname", "given name", "forename", "meno", "krstné meno", "jméno",
        "křestní jméno", "imię", "keresztnév", "utónév", "Vorname",
    ),
    "surname": (
        "surname", "last name", "lastname", "family name", "priezvisko", "příjmení", "nazwisko",
        "vezetéknév", "családnév", "Nachname", "Familienname", "Zuname",
    ),
    "club": (
        "club", "club name", "klub", "oddiel", "oddíl", "klub/oddiel", "klub/oddíl", "egyesület",
        "sportegyesület", "Verein",
    ),
    "birth": (
        "birth year", "year of birth", "born", "date of birth", "birth date", "rok narodenia",
        "rok nar.", "dátum narodenia", "narodený", "rok narození", "datum narození", "narozen",
        "rok urodzenia", "data urodzenia", "születési év", "születési dátum", "Geburtsjahr",
        "Geburtsdatum", "Jahrgang",
    ),
    "status": ("status", "stav", "state", "állapot", "stan"),
}
_FIELD_OF: dict[str, Field] = {
    _key(alias): field_ for field_, aliases in _ALIASES.items() for alias in aliases
}
_EXAMPLES: dict[Field, tuple[str, ...]] = {
    "id": ("id", "Reg. číslo", "nr PZBS", "Mitgliedsnummer"),
    "first": ("first name", "Meno", "Imię", "Vorname"),
    "surname": ("surname", "Priezvisko", "Nazwisko", "Nachname"),
}
"""Header names quoted when no header row is found."""
_GERMAN_NAME = _key("Name")
_GERMAN_FIRST = _key("Vorname")


@dataclass(frozen=True, slots=True)
class _Header:
    """A header row: where it is, which column gives which field, and what it ignored."""

    row: int
    columns: dict[Field, int]
    names: tuple[str, ...]
    warnings: tuple[str, ...]


def _header(row: int, cells: Sequence[Value]) -> _Header | None:
    """The header read from ``cells``, or None when they do not name id, first name, surname."""
    names = tuple(_text(c) for c in cells)
    keys = [_key(n) for n in names]
    columns: dict[Field, int] = {}
    notes: list[str] = []
    for index, (name, key) in enumerate(zip(names, keys)):
        field_ = _FIELD_OF.get(key)
        if key == _GERMAN_NAME and _GERMAN_FIRST in keys:
            field_ = "surname"  # German: "Name" beside "Vorname" is the surname
        if field_ is None:
            if name:
                notes.append(f"column {name!r} is not a register column; ignored")
        elif field_ in columns:
            first = names[columns[field_]]
            notes.append(f"column {name!r} ignored: column {first!r} already gives the "
                         f"{_LABELS[field_]}")
        else:
            columns[field_] = index
    if not all(f in columns for f in _REQUIRED):
        return None
    return _Header(row, columns, names, tuple(notes))


def _no_header(file: str, sheet: str | None, searched: Sequence[str]) -> RegisterError:
    examples = "; ".join(
        f"{_LABELS[f]} (e.g. {', '.join(repr(a) for a in _EXAMPLES[f])})" for f in _REQUIRED
    )
    where = f" in sheets {', '.join(repr(s) for s in searched)}" if len(searched) > 1 else ""
    return RegisterError(
        f"no header row{where}: expected columns naming the {examples}", file=file, sheet=sheet,
    )


# --- cell values ----------------------------------------------------------------------------


def _text(value: Value) -> str:
    """A cell as stripped text; whole numbers without ``.0``, dates as ISO dates."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value).strip()


_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T][\d:.]+)?$")
_DOTTED_DATE = re.compile(r"^(\d{1,2})\s*[./]\s*(\d{1,2})\s*[./]\s*(\d{4})$")
_YEAR = re.compile(r"^\d{4}$")


def _year_of(value: Value) -> int | None:
    """The year a birth-year cell gives, or None when it is not a year or a date."""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.year
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = _text(value)
    if _YEAR.match(text):
        return int(text)
    parts: tuple[str, str, str] | None = None
    if (m := _ISO_DATE.match(text)) is not None:
        parts = (m[1], m[2], m[3])
    elif (m := _DOTTED_DATE.match(text)) is not None:
        parts = (m[3], m[2], m[1])
    if parts is None:
        return None
    try:
        return dt.date(int(parts[0]), int(parts[1]), int(parts[2])).year
    except ValueError:
        return None


# --- rows -> members ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Where:
    file: str
    sheet: str | None


def _cell(cells: Sequence[Value], index: int | None) -> Value:
    if index is None or index >= len(cells):
        return None
    return cells[index]


def _is_blank(cells: Sequence[Value]) -> bool:
    return all(_text(c) == "" for c in cells)


def _member(where: _Where, header: _Header, row: int, cells: Sequence[Value]) -> RegisterMember:
    """One member from one data row; RegisterError naming the cell when a value is wrong."""

    def column(field_: Field) -> str:
        return header.names[header.columns[field_]]

    def fail(problem: str, field_: Field, value: Value = None) -> RegisterError:
        return RegisterError(problem, file=where.file, sheet=where.sheet, row=row,
                             column=column(field_), value=value)

    def text(field_: Field) -> str:
        return _text(_cell(cells, header.columns.get(field_)))

    federation_id = text("id")
    if not federation_id:
        raise fail("federation id is empty", "id")
    names: dict[Field, str] = {}
    for field_ in ("first", "surname"):
        names[field_] = text(field_)
        if not names[field_]:
            raise fail(f"{_LABELS[field_]} is missing", field_)
    birth_year: int | None = None
    raw = _cell(cells, header.columns.get("birth"))
    if _text(raw):
        birth_year = _year_of(raw)
        if birth_year is None:
            raise fail("birth year must be a year like 1961", "birth", raw)
        if birth_year not in _YEARS:
            raise fail("birth year must be a year from 1900 to 2100", "birth", raw)
    return RegisterMember(
        federation_id=federation_id,
        first_name=names["first"],
        surname=names["surname"],
        club=text("club") or None,
        birth_year=birth_year,
        status=text("status") or None,
        row=row,
    )


def _members(where: _Where, header: _Header,
             rows: Iterable[tuple[int, Sequence[Value]]]) -> tuple[RegisterMember, ...]:
    """The members below the header: blank rows skipped, ids unique within the file."""
    members: list[RegisterMember] = []
    seen: dict[str, int] = {}
    for row, cells in rows:
        if row <= header.row or _is_blank(cells):
            continue
        member = _member(where, header, row, cells)
        if (first := seen.get(member.federation_id)) is not None:
            raise RegisterError(
                f"federation id appears twice, on rows {first} and {row}", file=where.file,
                sheet=where.sheet, row=row, column=header.names[header.columns["id"]],
                value=member.federation_id,
            )
        seen[member.federation_id] = row
        members.append(member)
    return tuple(members)


def _find_header(rows: Iterable[tuple[int, Sequence[Value]]]) -> _Header | None:
    for row, cells in rows:
        if (header := _header(row, cells)) is not None:
            return header
    return None


# --- text files -----------------------------------------------------------------------------


_BOMS = (
    (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)


def _decode(data: bytes, file: str) -> tuple[str, str | None]:
    """The text of a CSV file and, when it was not UTF-8, a note naming the detected encoding."""
    for bom, encoding, name in _BOMS:
        if data.startswith(bom):
            body = data[len(bom):]
            try:
                return _text_only(body.decode(encoding), file), None
            except UnicodeDecodeError as exc:  # a byte-order mark promises the encoding
                raise RegisterError(
                    f"starts with a {name} byte-order mark but is not valid {name}", file=file,
                    row=body[:exc.start].count(b"\n") + 1, value=body[exc.start:exc.end],
                ) from None
    try:
        return _text_only(data.decode("utf-8"), file), None
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise RegisterError("not readable as text: unknown character set", file=file)
    return _text_only(str(best), file), f"not UTF-8; read as {best.encoding}"


def _text_only(text: str, file: str) -> str:
    if "\x00" in text:
        raise RegisterError("not a CSV or spreadsheet file (binary data)", file=file)
    return text


def _csv_rows(text: str, delimiter: str, file: str) -> list[tuple[int, list[str]]]:
    """Numbered rows (1-based; a blank line is a row of its own) split on ``delimiter``."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return [(number, row) for number, row in enumerate(reader, start=1)]
    except csv.Error as exc:
        raise RegisterError(f"not readable as CSV ({exc})", file=file,
                            row=reader.line_num) from exc


def _read_csv(data: bytes, file: str) -> RegisterFile:
    text, note = _decode(data, file)
    # The delimiter that gives a header row; the most frequent candidate first.
    candidates = sorted((",", ";", "\t"), key=lambda d: -text.count(d))
    for delimiter in candidates:
        rows = _csv_rows(text, delimiter, file)
        if (header := _find_header(rows)) is not None:
            members = _members(_Where(file, None), header, rows)
            notes = ((note,) if note else ()) + header.warnings
            return RegisterFile(members, None, notes)
    raise _no_header(file, None, [])


# --- workbooks ------------------------------------------------------------------------------

Sheet: TypeAlias = tuple[str, list[tuple[int, tuple[Value, ...]]]]
"""A sheet's name and its non-blank rows, numbered from 1."""


def _xlsx_sheets(data: bytes, file: str) -> list[Sheet]:
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        sheets: list[Sheet] = []
        for sheet in book.worksheets:
            sheet.reset_dimensions()  # trust the rows, not a (possibly wrong) stored size
            rows = [
                (number, tuple(row[:_MAX_COLUMNS]))
                for number, row in enumerate(sheet.iter_rows(values_only=True), start=1)
                if row and not _is_blank(row[:_MAX_COLUMNS])
            ]
            sheets.append((sheet.title, rows))
        return sheets
    finally:
        book.close()


def _xls_sheets(data: bytes, file: str) -> list[Sheet]:
    import xlrd

    book = xlrd.open_workbook(file_contents=data, logfile=io.StringIO())
    sheets: list[Sheet] = []
    for sheet in book.sheets():
        rows: list[tuple[int, tuple[Value, ...]]] = []
        for r in range(sheet.nrows):
            cells: list[Value] = []
            for c in range(min(sheet.ncols, _MAX_COLUMNS)):
                cell = sheet.cell(r, c)
                if cell.ctype == xlrd.XL_CELL_DATE:
                    cells.append(xlrd.xldate.xldate_as_datetime(cell.value, book.datemode))
                elif cell.ctype in (xlrd.XL_CELL_NUMBER, xlrd.XL_CELL_TEXT):
                    cells.append(cell.value)
                else:
                    cells.append(None)
            if not _is_blank(cells):
                rows.append((r + 1, tuple(cells)))
        sheets.append((sheet.name, rows))
    return sheets


def _ods_sheets(data: bytes, file: str) -> list[Sheet]:
    """An ODS workbook read by the result readers' ODS reader (parsers/spreadsheet.py), under
    the same ``[limits]``: cells as text (a number without ``.0``, a date as its ISO date),
    merged ranges filled with the anchor's text, rows numbered as the sheet numbers them."""
    from parsers.spreadsheet import read_sheets

    grids, _, _ = read_sheets(data, source=file)
    sheets: list[Sheet] = []
    for grid in grids:
        rows = [(number, tuple(c.text for c in cells))
                for number, cells in enumerate(grid.rows, start=1)]
        sheets.append((grid.name, [(n, texts) for n, texts in rows if not _is_blank(texts)]))
    return sheets


def _workbook_kind(data: bytes, file: str) -> Literal["xlsx", "ods", "xls"] | None:
    """``xlsx``, ``ods`` or ``xls`` by content; None for text. RegisterError for other zips."""
    if data.startswith(_OLE2):
        return "xls"
    if not data.startswith(_ZIP):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            if "xl/workbook.xml" in names:
                return "xlsx"
            if "mimetype" in names and archive.read("mimetype").strip() == _ODS_MIME:
                return "ods"
    except Exception as exc:  # zipfile raises many kinds on a damaged archive
        raise RegisterError(f"not a readable workbook ({type(exc).__name__}: {exc})",
                            file=file) from exc
    raise RegisterError("a zip archive, but not an xlsx or ods workbook", file=file)


_READERS = {"xlsx": _xlsx_sheets, "xls": _xls_sheets, "ods": _ods_sheets}


def _read_workbook(data: bytes, file: str, kind: Literal["xlsx", "ods", "xls"]) -> RegisterFile:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about styles and extensions
            sheets = _READERS[kind](data, file)
    except ParseError as exc:  # the result readers' refusal: a [limits] bound, a damaged file
        raise _refused(exc, file) from exc
    except Exception as exc:  # the readers raise many kinds of errors on damaged files
        raise RegisterError(f"not readable as {kind} ({type(exc).__name__}: {exc})",
                            file=file) from exc
    skipped: list[str] = []
    for name, rows in sheets:
        header = _find_header(rows)
        if header is None:
            skipped.append(name)
            continue
        members = _members(_Where(file, name), header, rows)
        notes = tuple(f"sheet {s!r} has no register header; skipped" for s in skipped)
        return RegisterFile(members, name, notes + header.warnings)
    only = sheets[0][0] if len(sheets) == 1 else None
    raise _no_header(file, only, [name for name, _ in sheets])


def _refused(exc: ParseError, file: str) -> RegisterError:
    """A result reader's refusal (parsers/_limits.py, a damaged sheet) as the register's."""
    return RegisterError(
        exc.problem, file=file, sheet=exc.table or None,
        row=exc.row if isinstance(exc.row, int) else None, column=exc.column or None,
        value=exc.value if exc.has_value else None,
    )


# --- entry point ----------------------------------------------------------------------------


def read_register(data: bytes, filename: str) -> RegisterFile:
    """The members of a register file (CSV, XLSX, ODS or XLS, told apart by content).

    ``filename`` only names the file in errors. Raises :class:`RegisterError`.
    """
    try:
        check_bytes(data)  # [limits] file_mb, and a zip's entries and unpacked size
    except ParseError as exc:
        raise _refused(exc, filename) from exc
    kind = _workbook_kind(data, filename)
    if kind is None:
        return _read_csv(data, filename)
    return _read_workbook(data, filename, kind)
