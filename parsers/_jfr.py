"""Markup shared by the pages of the JFR family: JFR Pary, JFR Teamy, KoPS2www.

The three Polish scoring programs write the same kind of page (generator meta ``JFR 2005``,
``kolorki.css``, one results table whose first rows - or a block above it - are the heading). The
format modules ``jfr_pary``, ``jfr_teamy`` and ``kops`` keep their own column headers, rows and
checks; what they read alike lives here:

- **detection**: the generator meta (:func:`jfr_generator`, :func:`kops_generator`) and the byte
  patterns for the place column (:data:`PLACE_HEADER`), a team column (:data:`TEAM_HEADER`) and
  the JFR Teamy footer (:data:`TEAMY_FOOTER`);
- **the page**: decoding (:func:`decode_page`, meta charset honoured when it decodes cleanly,
  else detected); parsing is ``_limits.html_document``;
- **cells**: a row's cells with ``colspan`` repeated (:func:`row_cells`), a cell's text
  (:func:`cell_text`), an element's text lines split at ``<br>`` and blocks (:func:`text_lines`);
- **the heading**: the lines above the column header (:func:`heading_lines`), title / date /
  organiser from them (:func:`read_heading`) without navigation links and column headings,
  falling back to ``<title>`` and then the file name's date, never the footer's generation date
  (:func:`event_date_and_title`);
- **pages that are not rankings**: framesets, script-loaded frames, boards, pair histories
  (:func:`page_kind`);
- **players**: the PZBS member id of a Cezar link (:func:`federation_id`) and seat fillers such as
  ``PHANTOM`` (:func:`is_placeholder`);
- **scoring** from the result column's header (:func:`scoring_from_header`), else from the
  scores and the page's words (:func:`infer_scoring`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ._dates import DateMatch, find_date, strip_date
from ._errors import MalformedFile
from ._issues import IssueLog, source_name
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
    "clean_heading",
    "date_from_file_name",
    "heading_lines",
    "is_placeholder",
    "jfr_generator",
    "kops_generator",
    "read_heading",
    "read_place",
    "read_score",
    "row_cells",
    "infer_scoring",
    "page_kind",
    "page_title",
    "scoring_from_header",
    "teamy_footer",
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


def teamy_footer(data: bytes) -> bool:
    """The JFR Teamy footer (:data:`TEAMY_FOOTER`) somewhere in the page; a plain substring
    test first, so that a page of many megabytes without one is passed over in milliseconds."""
    return b"Teamy." in data and TEAMY_FOOTER.search(data) is not None


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


# --- pages that are not rankings -------------------------------------------------------------

_SCRIPT_DATA = re.compile(r"initAjax\(\s*['\"]([^'\"]+)['\"]", re.IGNORECASE)
_BOARD_PAGE = re.compile(r"\brozdanie(?:\s+nr)?\s+\d+", re.IGNORECASE)
_TRAVELLER_WORDS = re.compile(r"\b(?:wist|wst|lew|zapisy?|kont\s*rakt|ktr|minimax)\b", re.IGNORECASE)
_PAIR_HISTORY = re.compile(r"\b(?:wyniki\s+pary\s+nr|przeciwnicy|historia\s+pary)\b",
                           re.IGNORECASE)


def page_kind(doc: Element, text: str) -> str | None:
    """Why a page of these programs that has no ranking is not a result list, or None when
    nothing tells: a frameset (the index page; the ranking is a frame of it), a frame whose
    ranking a script loads from a data file, a board's page (hand record and traveller), a
    pair's history (its score card), a list of boards."""
    frames = [f.get("src") or "" for f in doc.iter("frame", "iframe")]
    if doc.find(".//frameset") is not None or (frames and doc.find(".//table") is None):
        names = ", ".join(f for f in frames if f) or "none named"
        return (f"a frameset (index) page, not a ranking: the results are in its frames "
                f"({names}); read the results frame instead")
    words = normalise_space(doc.text_content()) if doc is not None else ""
    if _PAIR_HISTORY.search(words):
        return "a pair's history (score card of one pair), not a ranking"
    if _BOARD_PAGE.search(words) and _TRAVELLER_WORDS.search(words):
        return "a board's page (hand record and traveller), not a ranking"
    script = _SCRIPT_DATA.search(text)
    if script is not None:
        return (f"the ranking is loaded by a script from {script[1]}: the page itself holds no "
                "results table (read the full results page W-*.html instead)")
    links = [normalise_space(a.text_content()) for a in doc.iter("a")]
    if links and sum(1 for t in links if _BOARD_PAGE.match(t)) >= max(2, len(links) // 2):
        return "a list of boards, not a ranking"
    return None


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


_IMP_WORDS = re.compile(
    r"\b(?:imp(?:y|ów|ow|s)?|butler\w*|cross[- ]?imp\w*|na\s+impy|maxy?\s+imp)\b", re.IGNORECASE,
)
_MP_WORDS = re.compile(r"\b(?:maksy|na\s+maksy|matchpoint\w*|punkty\s+meczowe|mp)\b|%",
                       re.IGNORECASE)


def scoring_from_header(score_header: str) -> Scoring:
    """``wynik %`` -> MP; ``+/-``, ``IMP``, ``butler`` -> IMP; anything else -> unknown."""
    lowered = score_header.lower()
    if "%" in lowered:
        return "MP"
    if "+/-" in lowered or _IMP_WORDS.search(lowered):
        return "IMP"
    return "unknown"


def infer_scoring(score_header: str, scores: Sequence[float | None], words: str = "") -> tuple[
        Scoring, str]:
    """The scoring of a pairs ranking and why: the result column's header first; a header that
    does not say (``wynik``, ``WYNIK``, ``pkt``) is decided by the scores - a negative score or
    totals that sum to about zero are IMPs (butler or cross-IMPs: every IMP won is lost by
    someone), totals between 0 and 100 around a mean of 50 are percentages - and then by the
    page's own words (``IMP``, ``butler``; ``maksy``)."""
    by_header = scoring_from_header(score_header)
    if by_header != "unknown":
        return by_header, f"the result column is headed {score_header!r}"
    known = [s for s in scores if s is not None]
    if known:
        total = sum(known)
        spread = max(abs(s) for s in known) or 1.0
        if min(known) < 0:
            return "IMP", "the results include negative scores (IMPs)"
        if len(known) >= 3 and abs(total) <= 0.02 * spread * len(known):
            return "IMP", "the results sum to zero (IMPs)"
    if _IMP_WORDS.search(words):
        return "IMP", "the page says the event was scored in IMPs"
    if known and len(known) >= 3 and all(0 <= s <= 100 for s in known) \
            and 40 <= sum(known) / len(known) <= 60:
        return "MP", "the results are percentages around 50 (matchpoints)"
    if _MP_WORDS.search(words):
        return "MP", "the page says the event was scored in matchpoints"
    return "unknown", "neither the column header, the scores nor the page say how it was scored"


# --- the heading: title, date, organiser ----------------------------------------------------

_GENERATED = re.compile(r"strona wygenerowana\s+(\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True, slots=True)
class Heading:
    title: str
    date_found: DateMatch | None
    organiser: str


_NAVIGATION = re.compile(
    r"^(?:szczeg[oó][lł]y|wyniki(?:\s+(?:ostateczne|turnieju|końcowe|koncowe|par|sesji))?|"
    r"powr[oó]t(?:\s+do\s+wynik[oó]w)?|protoko[lł]y(?:\s+rozda[nń])?|rozdania|historia|"
    r"klasyfikacja(?:\s+\w+)?|ranking|strona\s+g[lł][oó]wna|menu|start|"
    r"punktacja\s+d[lł]ugofalowa.*|m-ce|miejsce|nr|numer|zawodnicy|wynik|pkt|"
    r"zapisy|rozstawienie|uk[lł]ad\s+sto[lł][oó]w|kolejno[sś][cć]|bie[zż][aą]ce|"
    r"\d+|[-\u2013\u2014|•·]+)$",
    re.IGNORECASE,
)
"""Heading lines that are navigation links or column headings, never a title or organiser."""
_GENERIC_TITLE = re.compile(r"^(?:wyniki|wyniki turnieju|results|protok[oó][lł]|)$", re.IGNORECASE)


def _link_texts(element: Element) -> set[str]:
    return {text for a in element.iter("a") if (text := normalise_space(a.text_content()))}


def heading_lines(header_row: Element) -> list[str]:
    """Text lines of the rows above the column header, top to bottom, without navigation: a
    line that is only a link's text (``Punktacja długofalowa 2013``, ``szczegóły``) or a column
    heading is left out (:data:`_NAVIGATION`)."""
    rows = [r for r in header_row.itersiblings(preceding=True) if r.tag == "tr"]
    lines: list[str] = []
    for row in reversed(rows):
        links = _link_texts(row)
        lines.extend(line for line in text_lines(row) if line not in links)
    return clean_heading(lines)


def clean_heading(lines: Iterable[str]) -> list[str]:
    """``lines`` without navigation words and column headings (see :data:`_NAVIGATION`)."""
    return [line for line in lines if not _NAVIGATION.match(line.strip(" :.\u00a0"))]


def read_heading(lines: Sequence[str]) -> Heading:
    """Title = first line that is not only a date; organiser = the date line minus its date."""
    lines = clean_heading(lines)
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


def page_title(doc: Element) -> str:
    element = doc.find(".//title")
    return normalise_space(element.text_content()) if element is not None else ""


_FILE_DATE = re.compile(
    r"^(?:[WHAR]-)?[a-z_]*?(?P<y>\d{2}|(?:19|20)\d{2})(?P<m>\d{2})(?P<d>\d{2})(?:wyn|WYN)?$",
    re.IGNORECASE,
)


def date_from_file_name(source: str) -> DateMatch | None:
    """JFR Pary names its pages after the tournament's prefix, which clubs write as letters and
    the date: ``W-wb130808.html`` (8 Aug 2013), ``ZM20151017.html``. A stem that is letters and
    a valid ``yymmdd`` / ``yyyymmdd`` gives that date; anything else gives None."""
    stem = source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    match = _FILE_DATE.match(stem)
    if match is None:
        return None
    year = int(match["y"]) + (2000 if len(match["y"]) == 2 else 0)
    try:
        day = dt.date(year, int(match["m"]), int(match["d"]))
    except ValueError:
        return None
    if not 1995 <= day.year <= dt.date.today().year + 1:
        return None
    return DateMatch(day, 0, 0)


def event_date_and_title(
    doc: Element, text: str, heading: Heading, log: IssueLog, *, source: str = "",
) -> tuple[str, DateMatch]:
    """The title and date: the heading's, else from ``<title>``, else - with a note - from the
    file name (``W-wb130808.html``); never the date the page was generated (the footer's
    ``strona wygenerowana``: a page regenerated later would date the event wrongly). A page
    with none of these is malformed. A generic ``<title>`` (``WYNIKI``) is no title."""
    written_title = page_title(doc)
    in_title = find_date(written_title)
    title = heading.title
    if not title:
        candidate = strip_date(written_title, in_title) if in_title else written_title
        title = "" if _GENERIC_TITLE.match(candidate) else candidate
    if heading.date_found is not None:
        return title, heading.date_found
    if in_title is not None:
        return title, in_title
    from_name = date_from_file_name(source or log.file)
    if from_name is not None:
        log.report(MalformedFile(
            "no event date in the heading or title; dated by the file name",
            table="heading", value=source_name(source or log.file),
        ), level="info")
        return title, from_name
    generated = _GENERATED.search(text)
    raise MalformedFile(
        "no event date on the page (looked in the heading, the <title> and the file name"
        + ("; the footer's generation date is not the event's" if generated else "") + ")",
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
