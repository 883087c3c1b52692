"""Markup shared by the pages of the JFR family: JFR Pary, JFR Teamy, KoPS2www.

The three Polish scoring programs write the same kind of page (generator meta ``JFR 2005``,
``kolorki.css``, one results table whose first rows - or a block above it - are the heading). The
format modules ``jfr_pary``, ``jfr_teamy`` and ``kops`` keep their own column headers, rows and
checks; what they read alike lives here:

- **detection**: the generator meta (:func:`jfr_generator`, :func:`kops_generator`) and the byte
  patterns for the place column (:data:`PLACE_HEADER`), a team column (:data:`TEAM_HEADER`) and
  the JFR Teamy footer (:data:`TEAMY_FOOTER`);
- **the page**: decoding (:func:`decode_page`, meta charset honoured when it decodes cleanly,
  else detected) and parsing (:func:`read_document`);
- **cells**: a row's cells with ``colspan`` repeated (:func:`row_cells`), a cell's text
  (:func:`cell_text`), an element's text lines split at ``<br>`` and blocks (:func:`text_lines`);
- **the heading**: the lines above the column header (:func:`heading_lines`), title / date /
  organiser from them (:func:`read_heading`), falling back to ``<title>`` and then the footer's
  generation date (:func:`event_date_and_title`);
- **players**: the PZBS member id of a Cezar link (:func:`federation_id`) and seat fillers such as
  ``PHANTOM`` (:func:`is_placeholder`);
- **scoring** from the result column's header (:func:`scoring_from_header`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import lxml.etree
import lxml.html

from ._dates import DateMatch, find_date, strip_date
from ._errors import MalformedFile
from ._issues import IssueLog
from ._model import Scoring
from ._places import WrittenPlace, parse_place
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal

__all__ = [
    "PLACE_HEADER",
    "TEAMY_FOOTER",
    "TEAM_HEADER",
    "Element",
    "Heading",
    "cell_text",
    "data_rows",
    "decode_page",
    "event_date_and_title",
    "federation_id",
    "heading_lines",
    "is_placeholder",
    "jfr_generator",
    "kops_generator",
    "read_document",
    "read_heading",
    "read_place",
    "read_score",
    "row_cells",
    "scoring_from_header",
    "text_lines",
]

# --- detection ------------------------------------------------------------------------------

_META = re.compile(rb"<meta\b[^>]*>", re.IGNORECASE)
PLACE_HEADER = re.compile(rb">\s*(?:m-ce|miejsce)\s*<", re.IGNORECASE)
"""The place column's header cell (``m-ce`` or ``miejsce``), in the page's bytes."""
TEAMY_FOOTER = re.compile(rb"\bTeamy\.\d+\.\d+")
"""The JFR Teamy footer (``Teamy.x.y``), in the page's bytes."""
TEAM_HEADER = re.compile(
    rb">\s*(?:dru(?:\xc5\xbc|\xbf|&#380;|&zdot;|z)yna|team|"
    rb"zesp(?:\xc3\xb3|\xf3|&oacute;|&#243;|o)(?:\xc5\x82|\xb3|&#322;|l))\s*<",
    re.IGNORECASE,
)
"""A team column's header cell (``drużyna``, ``zespół``, ``team``) in any of the charsets."""


def jfr_generator(data: bytes) -> bool:
    """``<meta name="GENERATOR" content="JFR 2005">``, attributes in any order."""
    for tag in _META.findall(data[:16384]):
        lowered = tag.lower()
        if b"generator" in lowered and re.search(rb"content\s*=\s*[\"']?\s*jfr", lowered):
            return True
    return False


def kops_generator(data: bytes) -> bool:
    """``<meta name="GENERATOR" content="KoPS2www, JFR 2005">``: a KoPS page, not JFR Pary."""
    return any(
        b"generator" in (lowered := tag.lower()) and re.search(rb"content\s*=[^>]*kops", lowered)
        for tag in _META.findall(data[:16384])
    )


# --- the page -------------------------------------------------------------------------------

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""


def decode_page(data: bytes, log: IssueLog) -> str:
    decoded = decode_bytes(data, html_declared_charset(data))
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    return decoded.text


def read_document(text: str, file: str) -> Element:
    try:
        return lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise MalformedFile(f"not readable as HTML ({exc})", file=file) from exc


# --- cells and text -------------------------------------------------------------------------

_BLOCKS = frozenset({
    "p", "div", "center", "br", "tr", "td", "th", "table", "li", "ul", "ol",
    "h1", "h2", "h3", "h4", "h5", "h6",
})


def text_lines(element: Element) -> list[str]:
    """Non-empty text lines of ``element``, split at ``<br>`` and block elements."""
    parts: list[list[str]] = [[]]

    def walk(node: Element) -> None:
        parts[-1].append(node.text or "")
        for child in node:
            if isinstance(child.tag, str) and child.tag not in ("script", "style"):
                block = child.tag in _BLOCKS
                if block:
                    parts.append([])
                walk(child)
                if block:
                    parts.append([])
            parts[-1].append(child.tail or "")

    walk(element)
    return [line for part in parts if (line := normalise_space("".join(part)))]


def row_cells(row: Element) -> list[Element]:
    """The row's cells, a cell spanning ``colspan`` columns repeated that many times."""
    cells: list[Element] = []
    for cell in row:
        if isinstance(cell.tag, str) and cell.tag in ("td", "th"):
            try:
                span = max(1, min(int(cell.get("colspan") or 1), 100))
            except ValueError:
                span = 1
            cells.extend([cell] * span)
    return cells


def cell_text(cell: Element) -> str:
    return normalise_space(cell.text_content())


def read_place(cell: Element, where: dict[str, Any]) -> tuple[str, WrittenPlace | None]:
    """A row's place cell as written and read; an unreadable place is an error naming the cell
    (``where``: the file, table, row and column keywords of the error)."""
    text = cell_text(cell)
    try:
        return text, parse_place(text)
    except ValueError:
        raise MalformedFile("invalid place", value=text, **where) from None


def read_score(cell: Element, where: dict[str, Any], log: IssueLog, *, unit: str,
               what: str) -> float | None:
    """A row's score cell (``what``: ``result``, ``VP total``): an unreadable score is reported
    and left empty, an empty cell is reported as missing for ``unit`` (``pair 7``)."""
    text = cell_text(cell)
    score: float | None = None
    try:
        score = parse_decimal(text)
    except ValueError:
        log.report(MalformedFile(f"invalid {what}; left empty", value=text, **where))
    if score is None and not text:
        log.report(MalformedFile(f"{unit} has no {what}", value=text, **where))
    return score


def data_rows(
    rows: Iterable[Element], *, skip: Callable[[Element, list[str]], bool], width: int,
    log: IssueLog, table: str,
) -> Iterator[list[Element]]:
    """The cells of each data row of a results table, in order: only ``<tr>`` elements; blank
    rows and rows ``skip(row, texts)`` rejects (repeated headers, captions) are passed over;
    a row with fewer than ``width`` cells is reported and skipped. The rows are numbered by
    the data rows before them (the number a report about a row names)."""
    count = 0
    for tr in rows:
        if not isinstance(tr.tag, str) or tr.tag != "tr":
            continue
        cells = row_cells(tr)
        texts = [cell_text(c) for c in cells]
        if not any(texts) or skip(tr, texts):
            continue
        if len(cells) < width:
            log.report(MalformedFile(
                "row has fewer cells than the header; skipped", table=table,
                row=count + 1, value=" | ".join(texts),
            ))
            continue
        count += 1
        yield cells


# --- scoring --------------------------------------------------------------------------------


def scoring_from_header(score_header: str) -> Scoring:
    """``wynik %`` -> MP; ``+/-``, ``IMP`` -> IMP; anything else -> unknown."""
    lowered = score_header.lower()
    if "%" in lowered:
        return "MP"
    if "imp" in lowered or "+/-" in lowered:
        return "IMP"
    return "unknown"


# --- the heading: title, date, organiser ----------------------------------------------------

_GENERATED = re.compile(r"strona wygenerowana\s+(\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True, slots=True)
class Heading:
    title: str
    date_found: DateMatch | None
    organiser: str


def heading_lines(header_row: Element) -> list[str]:
    """Text lines of the rows above the column header, top to bottom."""
    rows = [r for r in header_row.itersiblings(preceding=True) if r.tag == "tr"]
    return [line for row in reversed(rows) for line in text_lines(row)]


def read_heading(lines: Sequence[str]) -> Heading:
    """Title = first line that is not only a date; organiser = the date line minus its date."""
    dated = [(i, m) for i, line in enumerate(lines) if (m := find_date(line)) is not None]
    date_index: int | None = dated[0][0] if dated else None
    found: DateMatch | None = dated[0][1] if dated else None
    title_index: int | None = None
    title = ""
    for i, line in enumerate(lines):
        text = strip_date(line, found) if i == date_index and found is not None else line
        if text:
            title_index, title = i, text
            break
    organiser = ""
    if found is not None and date_index is not None and title_index is not None \
            and date_index > title_index:
        organiser = strip_date(lines[date_index], found)
    return Heading(title, found, organiser)


def _page_title(doc: Element) -> str:
    element = doc.find(".//title")
    return normalise_space(element.text_content()) if element is not None else ""


def event_date_and_title(
    doc: Element, text: str, heading: Heading, log: IssueLog,
) -> tuple[str, DateMatch]:
    """The title and date: the heading's, else from ``<title>``, else - with a warning - the
    date the page was generated (the footer's ``strona wygenerowana 2013-08-08``); a page with
    none of these is malformed."""
    page_title = _page_title(doc)
    in_title = find_date(page_title)
    title = heading.title
    if not title:
        title = strip_date(page_title, in_title) if in_title else page_title
    if heading.date_found is not None:
        return title, heading.date_found
    if in_title is not None:
        return title, in_title
    generated = _GENERATED.search(text)
    if generated is not None:
        found = find_date(generated[1])
        if found is not None:
            log.report(MalformedFile(
                "no event date in the heading or title; used the date the page was generated",
                table="heading", value=generated[1],
            ))
            return title, found
    raise MalformedFile(
        "no event date on the page (looked in the heading, the <title> and the footer)",
        file=log.file, table="heading",
    )


# --- players --------------------------------------------------------------------------------

_CEZAR_ID = re.compile(r"[?&]r=(\d+)")
_PLACEHOLDER = re.compile(r"^(?:phantom|fantom|robot|bye|pauza|pause|-+)$", re.IGNORECASE)


def federation_id(href: str) -> str | None:
    """The PZBS member id of a Cezar link (``...cezar/?mycl=1&p=21&r=06542`` -> ``06542``)."""
    if "cezar" not in href.lower():
        return None
    match = _CEZAR_ID.search(href)
    return match[1] if match else None


def is_placeholder(name: str) -> bool:
    """``PHANTOM``, ``ROBOT``, ``Bye``, ``pauza``: a seat filler, not a player."""
    return _PLACEHOLDER.match(name.strip(" .()")) is not None
