"""Hand-made HTML result tables (Slovak, Czech, Polish, English, Hungarian club pages).

A fallback format (``Format(fallback=True)``): asked only when no specific format claims the page.
It never reads a page written by a scoring program (``_grid.PROGRAMS``, one list shared with the
``spreadsheet`` format: a generator tag or the marks of JFR, KoPS, BBO, ACBLscore and
BridgeComposer recaps - a ``MPs`` masterpoints or ``Strat`` column -, Bridgewebs, EBUScore,
Pianola, ScoreBridge, Bridgemate, Compscore, PairsScorer, RealBridge, Magic Contest and others):
such a page is refused, whether the program has a format of its own or not.

Positive evidence (``_grid.lacking_evidence``): a table is read only when it has a names column
and places or scores that order its rows; a page with no such table is refused with what each
table lacks (``table 2 has a names column but no place or score column``). Tables of one board's
play (contract, lead), hand records and seating cards, and league tables of other games are not
rankings.

The page is read into one ``_grid.Grid`` in document order: the text lines outside tables
(headings, paragraphs: title, date, organiser, ``Skupina B``) as one-cell rows, and every table
that holds no nested table row by row, ``colspan``/``rowspan`` cells filled into each cell they
cover. Several tables are sections when each starts with its own header (a title line before it
names the section); a layout table around them is looked through. ``<br>`` inside a cell is a line
break (one player per line). The ``<title>`` is a last heading line. The table logic - headers in
five languages, rows or transposed columns, repeated headers, totals rows, ties, decimal commas,
names and initials - is ``_grid``'s.

Charset (windows-1250 or ISO-8859-2, often mislabelled or unlabelled): the declared
``<meta charset>`` when it decodes cleanly, otherwise detected (``_text.decode_bytes``); how it
was chosen is an info issue.

Errors name the table (``table 2``, counted from 1 over the tables of the page), the row within it
(1-based, header rows included), the column's header and the value.
"""

from __future__ import annotations

import re
from typing import Any

from ._errors import MalformedFile, UnknownFormat
from ._grid import Cell, Grid, has_results_header, program_mark, read_grid
from ._issues import IssueLog, source_name
from ._limits import LimitExceeded, current, over, page_document, page_read
from ._model import ParseResult
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space

__all__ = ["FORMAT", "detect", "page_grid", "parse"]

NAME = "html_tables"

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""

_BLOCKS = frozenset({
    "p", "div", "center", "br", "tr", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
    "section", "article", "header", "footer", "caption", "pre", "blockquote", "hr",
})
_SKIPPED = frozenset({"script", "style", "head", "title", "noscript"})
_MAX_SPAN = 100


def _cell_text(cell: Element) -> str:
    """A cell's text with ``<br>`` and block elements as line breaks."""
    if not len(cell):  # no child element, comment or instruction: one text (most cells)
        text = cell.text or ""
        if "\n" not in text:
            return normalise_space(text)
    parts: list[str] = []
    _cell_parts(cell, parts)
    lines = (normalise_space(line) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _cell_parts(node: Element, parts: list[str]) -> None:
    """The texts of ``node`` in document order into ``parts``, block elements set apart by
    ``\\n``; scripts, styles and the like left out."""
    parts.append(node.text or "")
    for child in node:
        tag = child.tag
        if isinstance(tag, str) and tag not in _SKIPPED:
            if tag in _BLOCKS:
                parts.append("\n")
                _cell_parts(child, parts)
                parts.append("\n")
            else:
                _cell_parts(child, parts)
        parts.append(child.tail or "")


def _span(cell: Element, attribute: str) -> int:
    try:
        return max(1, min(int(cell.get(attribute) or 1), _MAX_SPAN))
    except ValueError:
        return 1


def _table_rows(table: Element, name: str) -> list[tuple[Cell, ...]]:
    """The rows of a leaf table, spanned cells filled in (``merged`` on the covered ones)."""
    taken: dict[int, dict[int, Cell]] = {}
    """Row -> column -> cell: a cell spanning rows fills rows below its own in advance."""
    n_rows = 0
    bounds = current()
    for r, tr in enumerate(table.iter("tr")):
        if r >= bounds.rows:
            raise over("rows", f"more than {bounds.rows}", "a table has more rows", table=name)
        n_rows = r + 1
        row = taken.setdefault(r, {})
        c = 0
        for td in tr:
            tag = td.tag
            if tag != "td" and tag != "th":  # (a comment's tag is a function, never equal)
                continue
            while c in row:
                c += 1
            if c >= bounds.columns:
                raise over("columns", f"more than {bounds.columns}", "a table has more columns",
                           table=name, row=r + 1)
            text = _cell_text(td)
            if len(text) > bounds.cell_chars:
                raise over("cell_chars", len(text), "a cell holds more characters", table=name,
                           row=r + 1)
            if td.get("rowspan") is None and td.get("colspan") is None:  # (most cells)
                row[c] = Cell(text, name, r + 1, c)
                c += 1
                continue
            rows, cols = _span(td, "rowspan"), _span(td, "colspan")
            for dr in range(rows):
                below = taken.setdefault(r + dr, {})
                for dc in range(cols):
                    below[c + dc] = Cell(text, name, r + 1, c + dc, merged=(dr, dc) != (0, 0))
            c += cols
    width = max((max(row) for row in taken.values() if row), default=-1) + 1
    out: list[tuple[Cell, ...]] = []
    for r in range(n_rows):
        row = taken[r]
        if len(row) == width:  # every column filled (the columns are 0 .. width - 1)
            out.append(tuple(map(row.__getitem__, range(width))))
        else:
            out.append(tuple(row[c] if c in row else Cell("", name, r + 1, c)
                             for c in range(width)))
    return out


def page_grid(doc: Element) -> Grid:
    """The page as one grid: text lines and leaf tables in document order (module docstring)."""
    rows: list[tuple[Cell, ...]] = []
    buffer: list[str] = []
    counter = {"tables": 0, "lines": 0}

    def flush() -> None:
        for line in "".join(buffer).split("\n"):
            text = normalise_space(line)
            if text:
                counter["lines"] += 1
                rows.append((Cell(text, "page", counter["lines"], 0),))
        buffer.clear()

    def walk(node: Element) -> None:
        buffer.append(node.text or "")
        for child in node:
            if isinstance(child.tag, str) and child.tag not in _SKIPPED:
                if child.tag == "table" and child.find(".//table") is None:
                    flush()
                    counter["tables"] += 1
                    rows.extend(_table_rows(child, f"table {counter['tables']}"))
                else:
                    block = child.tag in _BLOCKS or child.tag in ("table", "td", "th")
                    if block:
                        buffer.append("\n")
                    walk(child)
                    if block:
                        buffer.append("\n")
            buffer.append(child.tail or "")

    body = doc.find(".//body")
    walk(body if body is not None else doc)
    flush()
    title = doc.find(".//title")
    heading = (normalise_space(title.text_content()),) if title is not None else ()
    return Grid("page", tuple(rows), letters=False, heading=tuple(h for h in heading if h))


_HEAD = 200000
"""Bytes of a page searched for a scoring program's marks."""


_PROGRAM: list[tuple[bytes, str | None]] = []


def _program(data: bytes) -> str | None:
    """The scoring program that wrote the page (``_grid.PROGRAMS``), or None; asked once for
    the same bytes (detection and reading both ask)."""
    if _PROGRAM and _PROGRAM[0][0] is data:
        return _PROGRAM[0][1]
    found = program_mark(data[:_HEAD].decode("latin-1"))
    _PROGRAM[:] = [(data, found)]
    return found


_GRIDS: list[tuple[bytes, object, Grid]] = []
"""The last page read as a grid (its bytes, the limits then, the grid): detection by two
readers and the reading itself ask for the same page's grid, and a page of many megabytes
takes seconds to read."""


def grid_of(data: bytes, file: str | None = None) -> Grid:
    """The page as one grid (:func:`page_grid` of its document), read once for the same bytes
    and limits; ``MalformedFile`` (naming ``file``) where it is no readable page."""
    if _GRIDS and _GRIDS[0][0] is data and _GRIDS[0][1] == current():
        return _GRIDS[0][2]
    grid = page_grid(page_document(data, file)[1])  # (a go detector may have read the page)
    page_read(data)
    _GRIDS[:] = [(data, current(), grid)]
    return grid


def detect(data: bytes, filename: str = "") -> bool:
    """An HTML page with a results table, not made by a scoring program."""
    head = data[:_HEAD]
    if not re.search(rb"<\s*table", head, re.IGNORECASE) or _program(data) is not None:
        return False
    try:
        grid = grid_of(data)
    except LimitExceeded:
        raise
    except MalformedFile:
        return False
    rows = [[c.text for c in row] for row in grid.rows]
    return has_results_header(rows)


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events of a hand-made HTML result page; see the module docstring and ``_grid``."""
    log = IssueLog(file=source_name(source), strict=strict)
    program = _program(data)
    if program is not None:
        raise UnknownFormat(
            f"a page written by {program}, not a hand-made table: a scoring program's page is "
            "read by that program's own format or not at all", file=log.file,
        )
    decoded = decode_bytes(data, html_declared_charset(data))
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    grid = grid_of(data, log.file)
    refusals: list[str] = []
    found = read_grid(grid, fmt=NAME, log=log, source=source, refusals=refusals)
    if found is None:
        if not any(row and row[0].table != "page" for row in grid.rows):
            why = "the page has no table"
        else:
            why = "; ".join(refusals) or "no table has a header naming players and places or scores"
        raise MalformedFile(f"no results table: {why}", file=log.file)
    return ParseResult(format=NAME, events=found.events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="hand-made HTML result tables (SK/CZ/PL/EN/HU): sections, merged cells, any "
    "charset",
    detect=detect,
    parse=parse,
    fallback=True,
)
