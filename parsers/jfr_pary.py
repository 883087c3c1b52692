"""JFR Pary "full results" pages (``W-<event>.html``) from the Polish pairs scoring program.

Layout (JFR Pary 4.1; fixtures/jfr_pary/W-wb130808.html): one table. The rows above its column
header are the heading: the title, then ``<place or organiser>, <date in Polish>``, then links.
The header row reads ``m-ce | nr | (names) | wk | okr | klub | wynik % | PKL | PDF`` after an empty
spacer column, and one row per pair follows. ``wk`` (the members' ranking), ``okr`` (district),
``PKL`` (ranking points won) and ``PDF`` are not part of the event model and are ignored.

Quirks handled:

- **ties**: the pairs below the first of a tie have an *empty* place cell (``&nbsp;``); some
  pages write ``5-6`` instead. Both give the averaged place (5.5) (spec/inputs.md: ties as shared
  places). ``Unit.place_text`` keeps the cell as written, so it is ``""`` on the empty rows;
- **names**: one ``<a>`` per player, lines separated by ``<br>``; the link goes to the PZBS Cezar
  member register (``.../cezar/?mycl=1&p=21&r=06542``) whose ``r`` is the member id, kept as text
  with its leading zeros. Unlinked lines are players without an id;
- **clubs**: one ``<br>`` line per member in the ``klub`` cell; a single line belongs to every
  member; an empty line (``&nbsp;``) means no club;
- **scoring**: from the result column's header: ``wynik %`` is matchpoints (MP), ``+/-`` or
  ``IMP`` is IMPs; anything else is ``unknown`` (with a note);
- **charset**: the meta charset is honoured when it decodes cleanly, otherwise detected
  (pages are UTF-8, ISO-8859-2 or windows-1250; see ``_text``).

Event fields: ``title`` is the first heading line (without a date in it); ``date`` the first date
in the heading, else in ``<title>``, else - with a warning - the day the page was generated (the
footer's ``strona wygenerowana 2013-08-08``); a page with none of these is malformed.
``organiser`` is the rest of the heading line that carries the date ("Warszawa - Polinezyjska"):
JFR prints the club's place and venue there, which is what tells two clubs' events apart. Boards
are not on this page (None). Rows in messages are counted from the first pair (row 1).

Checks: a pair placed below another must not score more, tied pairs must score the same, places
must follow on (``1, 2, 2, 4``): each failure is a warning (``InconsistentResult`` in strict mode).
A page with several results tables (sections) is an ``UnsupportedVariant`` for now.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import lxml.etree
import lxml.html

from ._dates import DateMatch, find_date, strip_date
from ._errors import InconsistentResult, MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, parse_place, shared_places
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal

__all__ = ["FORMAT", "detect", "parse"]

NAME = "jfr_pary"
_TABLE = "results"

# --- detection ------------------------------------------------------------------------------

_META = re.compile(rb"<meta\b[^>]*>", re.IGNORECASE)
_FOOTER = re.compile(rb"\bPary\.\d+\.\d+")
_PLACE_HEADER = re.compile(rb">\s*(?:m-ce|miejsce)\s*<", re.IGNORECASE)
_NUMBER_HEADER = re.compile(rb">\s*nr\s*<", re.IGNORECASE)


def _jfr_generator(data: bytes) -> bool:
    """``<meta name="GENERATOR" content="JFR 2005">``, attributes in any order."""
    for tag in _META.findall(data[:16384]):
        lowered = tag.lower()
        if b"generator" in lowered and re.search(rb"content\s*=\s*[\"']?\s*jfr", lowered):
            return True
    return False


def detect(data: bytes, filename: str = "") -> bool:
    """A JFR page (generator meta or ``Pary.4.1`` footer) with the ``m-ce`` / ``nr`` header."""
    made_by_jfr = _jfr_generator(data) or _FOOTER.search(data) is not None
    return bool(
        made_by_jfr and _PLACE_HEADER.search(data) and _NUMBER_HEADER.search(data)
    )


# --- reading the HTML -----------------------------------------------------------------------

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""

_BLOCKS = frozenset({
    "p", "div", "center", "br", "tr", "td", "th", "table", "li", "ul", "ol",
    "h1", "h2", "h3", "h4", "h5", "h6",
})


@dataclass(frozen=True, slots=True)
class _Line:
    """One ``<br>``-separated line of a cell: its text and the links in it (text, href)."""

    text: str
    links: tuple[tuple[str, str], ...]


def _br_lines(cell: Element) -> list[_Line]:
    """The cell's lines, split at every ``<br>`` (also inside nested formatting)."""
    lines: list[_Line] = []
    texts: list[str] = []
    links: list[tuple[str, str]] = []

    def flush() -> None:
        lines.append(_Line(normalise_space("".join(texts)), tuple(links)))
        texts.clear()
        links.clear()

    def walk(element: Element) -> None:
        texts.append(element.text or "")
        for child in element:
            if isinstance(child.tag, str):
                if child.tag == "br":
                    flush()
                elif child.tag == "a":
                    content = child.text_content()
                    texts.append(content)
                    links.append((normalise_space(content), child.get("href") or ""))
                else:
                    walk(child)
            texts.append(child.tail or "")

    walk(cell)
    flush()
    return lines


def _text_lines(element: Element) -> list[str]:
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


def _cells(row: Element) -> list[Element]:
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


def _cell_text(cell: Element) -> str:
    return normalise_space(cell.text_content())


# --- the column header ----------------------------------------------------------------------

_PLACE_NAMES = frozenset({"m-ce", "miejsce", "msc."})
_LABEL_NAMES = frozenset({"nr", "numer", "nr pary"})
_NAMES_NAMES = frozenset({"", "zawodnicy", "nazwiska", "nazwisko", "para"})
_CLUB_NAMES = frozenset({"klub"})
_SCORE_NAMES = frozenset({"%", "+/-", "imp", "impy", "pkt", "punkty"})


@dataclass(frozen=True, slots=True)
class _Columns:
    """Column positions of the results table, and the result column's header as written."""

    place: int
    label: int
    names: int
    score: int
    club: int | None
    score_header: str

    @property
    def width(self) -> int:
        return max(self.place, self.label, self.names, self.score, self.club or 0) + 1


def _is_score_header(header: str) -> bool:
    return header.startswith("wynik") or header in _SCORE_NAMES


def _columns(headers: Sequence[str]) -> _Columns | None:
    """Column positions from the header row's texts, None if it is not the results header."""
    lowered = [h.lower() for h in headers]
    place = next((i for i, h in enumerate(lowered) if h in _PLACE_NAMES), None)
    label = next((i for i, h in enumerate(lowered) if h in _LABEL_NAMES), None)
    if place is None or label is None:
        return None
    names = next((i for i, h in enumerate(lowered) if i > label and h in _NAMES_NAMES), None)
    score = next((i for i, h in enumerate(lowered) if _is_score_header(h)), None)
    club = next((i for i, h in enumerate(lowered) if h in _CLUB_NAMES), None)
    if names is None or score is None:
        return None
    return _Columns(place, label, names, score, club, headers[score])


def _scoring(score_header: str) -> Scoring:
    """``wynik %`` -> MP; ``+/-``, ``IMP`` -> IMP; anything else -> unknown."""
    lowered = score_header.lower()
    if "%" in lowered:
        return "MP"
    if "imp" in lowered or "+/-" in lowered:
        return "IMP"
    return "unknown"


def _find_header(doc: Element, file: str) -> tuple[Element, _Columns]:
    """The results table's header row; ``MalformedFile`` if the page has none."""
    found: list[tuple[Element, _Columns]] = []
    for row in doc.iter("tr"):
        columns = _columns([_cell_text(c) for c in _cells(row)])
        if columns is not None:
            found.append((row, columns))
    if not found:
        raise MalformedFile(
            "no results table: no row with the columns 'm-ce', 'nr', names and 'wynik'",
            file=file,
        )
    first_row, columns = found[0]
    table = first_row.getparent()
    if any(row.getparent() is not table for row, _ in found[1:]):
        raise UnsupportedVariant(
            "several results tables on one page (sections); not handled yet", file=file,
        )
    return first_row, columns


# --- the heading: title, date, organiser ----------------------------------------------------

_GENERATED = re.compile(r"strona wygenerowana\s+(\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True, slots=True)
class _Heading:
    title: str
    date_found: DateMatch | None
    organiser: str


def _heading_lines(header_row: Element) -> list[str]:
    """Text lines of the rows above the column header, top to bottom."""
    rows = [r for r in header_row.itersiblings(preceding=True) if r.tag == "tr"]
    return [line for row in reversed(rows) for line in _text_lines(row)]


def _read_heading(lines: Sequence[str]) -> _Heading:
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
    return _Heading(title, found, organiser)


def _page_title(doc: Element) -> str:
    element = doc.find(".//title")
    return normalise_space(element.text_content()) if element is not None else ""


def _event_date_and_title(
    doc: Element, text: str, heading: _Heading, log: IssueLog,
) -> tuple[str, DateMatch]:
    """The title and date, falling back to ``<title>`` and then the footer (see module doc)."""
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


# --- the rows -------------------------------------------------------------------------------

_CEZAR_ID = re.compile(r"[?&]r=(\d+)")


@dataclass(frozen=True, slots=True)
class _Row:
    """One pair's row as read, before places are resolved."""

    number: int
    place_text: str
    written: WrittenPlace | None
    label: str
    score: float | None
    players: tuple[PlayerAsWritten, ...]


def _federation_id(href: str) -> str | None:
    """The PZBS member id of a Cezar link (``...cezar/?mycl=1&p=21&r=06542`` -> ``06542``)."""
    if "cezar" not in href.lower():
        return None
    match = _CEZAR_ID.search(href)
    return match[1] if match else None


def _names(cell: Element) -> list[tuple[str, str | None]]:
    """(name, federation id) per player: every link is one, an unlinked line is one."""
    players: list[tuple[str, str | None]] = []
    for line in _br_lines(cell):
        if line.links:
            players.extend((name, _federation_id(href)) for name, href in line.links if name)
        elif line.text:
            players.append((line.text, None))
    return players


def _clubs(cell: Element | None, n_players: int) -> tuple[list[str | None], bool]:
    """Club per player and whether the lines matched the players (see module doc)."""
    if cell is None:
        return [None] * n_players, True
    lines = [line.text or None for line in _br_lines(cell)]
    if len(lines) == 1:
        return lines * n_players, True
    if len(lines) == n_players:
        return lines, True
    return [lines[i] if i < len(lines) else None for i in range(n_players)], False


def _iter_rows(header_row: Element) -> Iterator[Element]:
    return (r for r in header_row.itersiblings() if isinstance(r.tag, str) and r.tag == "tr")


def _read_row(
    number: int, cells: Sequence[Element], columns: _Columns, headers: Sequence[str],
    log: IssueLog,
) -> _Row:
    def where(column: int) -> dict[str, Any]:
        return {"file": log.file, "table": _TABLE, "row": number, "column": headers[column]}

    place_text = _cell_text(cells[columns.place])
    try:
        written = parse_place(place_text)
    except ValueError:
        raise MalformedFile("invalid place", value=place_text, **where(columns.place)) from None
    label = _cell_text(cells[columns.label])
    if not label:
        raise MalformedFile("pair without a number", value=label, **where(columns.label))
    names = _names(cells[columns.names])
    if not names:
        raise MalformedFile(
            f"pair {label} without player names", has_value=False, **where(columns.names),
        )
    club_cell = cells[columns.club] if columns.club is not None else None
    clubs, matched = _clubs(club_cell, len(names))
    if not matched and columns.club is not None:
        log.report(MalformedFile(
            f"pair {label}: {len(names)} players but a different number of club lines; "
            "clubs assigned in order",
            value=_cell_text(cells[columns.club]), **where(columns.club),
        ))
    score_text = _cell_text(cells[columns.score])
    score: float | None = None
    try:
        score = parse_decimal(score_text)
    except ValueError:
        log.report(MalformedFile("invalid result; left empty", value=score_text,
                                 **where(columns.score)))
    if score is None and not score_text:
        log.report(MalformedFile(f"pair {label} has no result", value=score_text,
                                 **where(columns.score)))
    players = tuple(
        PlayerAsWritten(name=name, federation_id=fid, club=club)
        for (name, fid), club in zip(names, clubs)
    )
    return _Row(number, place_text, written, label, score, players)


def _read_rows(header_row: Element, columns: _Columns, log: IssueLog) -> list[_Row]:
    """Every pair's row below the header; blank spacer rows and repeated headers are skipped."""
    headers = [_cell_text(c) for c in _cells(header_row)]
    rows: list[_Row] = []
    for tr in _iter_rows(header_row):
        cells = _cells(tr)
        texts = [_cell_text(c) for c in cells]
        if not any(texts) or _columns(texts) is not None:
            continue
        if len(cells) < columns.width:
            log.report(MalformedFile(
                "row has fewer cells than the header; skipped", table=_TABLE,
                row=len(rows) + 1, value=" | ".join(texts),
            ))
            continue
        rows.append(_read_row(len(rows) + 1, cells, columns, headers, log))
    if not rows:
        raise MalformedFile("the results table has no pairs", file=log.file, table=_TABLE)
    return rows


def _units(rows: Sequence[_Row], columns: _Columns, headers: Sequence[str],
           log: IssueLog) -> tuple[Unit, ...]:
    """Units with shared places for ties; odd places and places contradicting scores are noted."""
    places, problems = shared_places([r.written for r in rows])
    for problem in problems:
        row = rows[problem.index]
        log.report(InconsistentResult(
            problem.message, table=_TABLE, row=row.number, column=headers[columns.place],
            value=row.place_text,
        ))
    for problem in order_problems(places, [r.score for r in rows]):
        row = rows[problem.index]
        log.report(InconsistentResult(
            f"pair {row.label}: {problem.message}", table=_TABLE, row=row.number,
            column=headers[columns.score], value=row.score,
        ))
    return tuple(
        Unit(place=place, place_text=row.place_text, label=row.label, score=row.score,
             players=row.players)
        for place, row in zip(places, rows)
    )


# --- parse ----------------------------------------------------------------------------------


def _decode(data: bytes, log: IssueLog) -> str:
    decoded = decode_bytes(data, html_declared_charset(data))
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    return decoded.text


def _document(text: str, file: str) -> Element:
    try:
        return lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise MalformedFile(f"not readable as HTML ({exc})", file=file) from exc


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One pairs event from a JFR Pary full-results page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = _decode(data, log)
    doc = _document(text, log.file)
    header_row, columns = _find_header(doc, log.file)
    headers = [_cell_text(c) for c in _cells(header_row)]
    heading = _read_heading(_heading_lines(header_row))
    title, date_found = _event_date_and_title(doc, text, heading, log)
    if not title:
        log.report(MalformedFile("no event title on the page", table="heading", has_value=False))
    scoring = _scoring(columns.score_header)
    if scoring == "unknown":
        log.report(UnsupportedVariant(
            "result column is neither percent nor IMP; scoring left unknown",
            table=_TABLE, column=columns.score_header, value=columns.score_header,
        ), level="info")
    units = _units(_read_rows(header_row, columns, log), columns, headers, log)
    event = Event(
        game="bridge", title=title, date=date_found.date, kind="pairs", scoring=scoring,
        units=units, boards=None, section="", organiser=heading.organiser, format=NAME,
    )
    return ParseResult(format=NAME, events=(event,), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="JFR Pary full-results page (W-*.html), Polish pairs scoring program",
    detect=detect,
    parse=parse,
)
