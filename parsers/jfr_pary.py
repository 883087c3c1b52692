"""JFR Pary "full results" pages (``W-<event>.html``) from the Polish pairs scoring program.

Layout (JFR Pary 4.1; fixtures/jfr_pary/W-wb130808.html): one table. The rows above its column
header are the heading: the title, then ``<place or organiser>, <date in Polish>``, then links.
The header row reads ``m-ce | nr | (names) | wk | okr | klub | wynik % | PKL | PDF`` after an empty
spacer column, and one row per pair follows. ``wk`` (the members' ranking), ``okr`` (district),
``PKL`` (ranking points won) and ``PDF`` are not part of the event model and are ignored.

Quirks handled:

- **ties**: the pairs below the first of a tie have an *empty* place cell (``&nbsp;``); some
  pages write ``5-6`` instead. Both give the averaged place (5.5) (docs/rules/inputs.md: ties as shared
  places). ``Unit.place_text`` keeps the cell as written, so it is ``""`` on the empty rows;
- **names**: one ``<a>`` per player, lines separated by ``<br>``; the link goes to the PZBS Cezar
  member register (``.../cezar/?mycl=1&p=21&r=06542``) whose ``r`` is the member id, kept as text
  with its leading zeros. Unlinked lines are players without an id;
- **clubs**: one ``<br>`` line per member in the ``klub`` cell; a single line belongs to every
  member; an empty line (``&nbsp;``) means no club;
- **scoring**: from the result column's header: ``wynik %`` is matchpoints (MP), ``+/-``,
  ``IMP`` or ``butler`` is IMPs; a header that does not say (``wynik``) is decided by the
  scores (negative totals or totals summing to zero are IMPs, percentages around 50 are MP),
  then by the page's words (``IMP``, ``butler``, ``maksy``), else ``unknown`` (with a note);
- **charset**: the meta charset is honoured when it decodes cleanly, otherwise detected
  (pages are UTF-8, ISO-8859-2 or windows-1250; see ``_text``).

Event fields: ``title`` is the first heading line (without a date in it) that is not a link or a
column heading (``szczegóły``, ``Punktacja długofalowa``); ``date`` the first date in the
heading, else in ``<title>``, else - with a note - the file name's (``W-wb130808.html``), never
the day the page was generated (the footer's ``strona wygenerowana``); a page with none of
these is malformed.
``organiser`` is the rest of the heading line that carries the date ("Warszawa - Polinezyjska"):
JFR prints the club's place and venue there, which is what tells two clubs' events apart. Boards
are not on this page (None). Rows in messages are counted from the first pair (row 1).

Checks: a pair placed below another must not score more, tied pairs must score the same, places
must follow on (``1, 2, 2, 4``): each failure is a warning (``InconsistentResult`` in strict mode).

Sections (docs/rules/inputs.md: "several tables on one page (sections A/B, NS/EW lines of a Mitchell)"):
a page - the full results or one of the ranking pages JFR writes beside them for a sector or a
line - may carry several rankings, each with its own ``m-ce | nr | ...`` header. A header starts a
new section when it opens another ``<table>`` or when a *caption row* sits right above it: a row
whose only text is ``Sektor A``, ``Grupa B``, ``Linia NS``, ``Klasyfikacja EW``, ``NS``, ... (or,
for a header that opens its table, the last text before that table). Each section is one event
with ``section`` = the caption as written; a page of several sections where one has no caption
names that one by its position (``"2"``, with a note). A single ranking with a caption (a side
page for one sector) is one event with that section; without one, ``section`` is ``""``. A header
repeated inside a section without a caption (long tables) is skipped. Rows are counted from the
first pair of their section; messages name the section as the table (``results`` when the page
has a single ranking without caption).

Phantom pairs: a player line ``PHANTOM``, ``ROBOT``, ``Bye``, ``pauza`` is not a player; the pair
keeps its place with the real players only (an info note).

Detection claims every JFR Pary page except KoPS2www pages (generator ``KoPS2www, JFR 2005``,
see ``kops``) and JFR Teamy pages (a ``drużyna`` column or the ``Teamy.x.y`` footer, see
``jfr_teamy``). Pages without a ranking are refused with the reason (``UnsupportedVariant``):
the frameset index page (a board frame and the results frame), the results frame whose table a
script loads from ``<prefix>WYN.txt``, a board's page (hand record and traveller), a pair's
history page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ._errors import MalformedFile, NoResults, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._jfr import (
    PLACE_HEADER,
    TEAM_HEADER,
    Element,
    cell_text,
    data_rows,
    decode_page,
    event_date_and_title,
    federation_id,
    heading_lines,
    is_placeholder,
    jfr_generator,
    kops_generator,
    read_heading,
    read_place,
    read_score,
    row_cells,
    infer_scoring,
    page_kind,
    scoring_from_header,
    page_title,
    teamy_footer,
    text_lines,
)
from ._limits import html_document
from ._model import Event, ParseResult, PlayerAsWritten
from ._places import WrittenPlace, ranked_units
from ._registry import Format
from ._text import normalise_space

__all__ = ["FORMAT", "detect", "parse"]

NAME = "jfr_pary"
_TABLE = "results"

# --- detection ------------------------------------------------------------------------------

_FOOTER = re.compile(rb"\bPary\.\d+\.\d+")
_NUMBER_HEADER = re.compile(rb">\s*nr\s*<", re.IGNORECASE)


def _teamy_page(data: bytes) -> bool:
    """A JFR Teamy page: its footer, or a ``drużyna`` (team) column header."""
    return teamy_footer(data) or TEAM_HEADER.search(data) is not None


def detect(data: bytes, filename: str = "") -> bool:
    """A page of JFR Pary (generator meta ``JFR 2005`` or the ``Pary.4.1`` footer), neither a
    KoPS2www page nor a JFR Teamy page. Every such page is claimed, the ranking or not: a page
    without one (frameset, board, pair history, script-loaded frame) is refused by ``parse``
    with the reason, not left to a generic reader."""
    made_by_jfr = jfr_generator(data) or (  # (a plain substring test first: see teamy_footer)
        b"Pary." in data and _FOOTER.search(data) is not None)
    if made_by_jfr and PLACE_HEADER.search(data) and _NUMBER_HEADER.search(data):
        return not kops_generator(data) and not _teamy_page(data)
    return bool(made_by_jfr and not kops_generator(data) and not _teamy_page(data))


# --- reading the HTML -----------------------------------------------------------------------


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


# --- the column header ----------------------------------------------------------------------

_PLACE_NAMES = frozenset({"m-ce", "miejsce", "msc."})
_LABEL_NAMES = frozenset({"nr", "numer", "nr pary"})
_NAMES_NAMES = frozenset({"", "zawodnicy", "nazwiska", "nazwisko", "para"})
_CLUB_NAMES = frozenset({"klub"})
_SCORE_NAMES = frozenset({"%", "+/-", "imp", "impy", "pkt", "punkty", "butler", "cross-imp",
                          "maksy", "mp"})


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


_SECTION_CAPTION = re.compile(
    r"^(?:(?:sektor|sekcja|grupa|linia|klasyfikacja|ranking|strefa|kategoria)\b.*"
    r"|(?:linia\s+)?(?:NS|EW|N-S|E-W|NS/EW))$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Section:
    """One ranking of the page: its header row, columns and caption (None if it has none)."""

    header: Element
    columns: _Columns
    caption: str | None


def _caption_text(lines: Sequence[str]) -> str | None:
    """The caption if ``lines`` (one row or block of text) is nothing but a section caption."""
    if len(lines) == 1 and _SECTION_CAPTION.match(lines[0]):
        return lines[0]
    return None


def _row_caption(row: Element, texts: Sequence[str] | None = None) -> str | None:
    """The caption a row carries (its only text, once, matching :data:`_SECTION_CAPTION`);
    ``texts`` are the row's cell texts when the caller has them already."""
    if texts is None:
        texts = [cell_text(c) for c in row_cells(row)]
    return _caption_text(list(dict.fromkeys(t for t in texts if t)))


def _enclosing_table(row: Element) -> Element:
    parent = row.getparent()
    if parent is not None and parent.tag in ("tbody", "thead") and parent.getparent() is not None:
        return parent.getparent()
    return parent


def _caption(header_row: Element) -> str | None:
    """The section caption of a header row (see module doc), None if it has none."""
    for row in header_row.itersiblings(preceding=True):
        if isinstance(row.tag, str) and row.tag == "tr" and text_lines(row):
            return _row_caption(row)
    table = _enclosing_table(header_row)
    if table is None:
        return None
    for element in table.itersiblings(preceding=True):
        if not isinstance(element.tag, str) or element.tag in ("script", "style"):
            continue  # comments, processing instructions, scripts
        if element.tag == "table":
            break
        lines = text_lines(element)
        if lines:
            return _caption_text(lines[-1:])
    return None


def _find_sections(doc: Element, file: str, text: str = "") -> list[_Section]:
    """The page's rankings in order; ``MalformedFile`` if it has none (see module doc)."""
    sections: list[_Section] = []
    for row in doc.iter("tr"):
        # Cheap first look: a header row names the place column somewhere in its text.
        if not any(name in row.text_content().lower() for name in _PLACE_NAMES):
            continue
        columns = _columns([cell_text(c) for c in row_cells(row)])
        if columns is None:
            continue
        caption = _caption(row)
        other_table = not sections or row.getparent() is not sections[-1].header.getparent()
        if other_table or caption is not None:
            sections.append(_Section(row, columns, caption))
    if not sections:
        reason = page_kind(doc, text)
        if reason is not None:
            raise NoResults(f"not a results page: {reason}", file=file)
        raise MalformedFile(
            "no results table: no row with the columns 'm-ce', 'nr', names and 'wynik'",
            file=file,
        )
    return sections


def _section_names(sections: Sequence[_Section], log: IssueLog) -> list[str]:
    """``Event.section`` per ranking: the caption, else ``""`` alone, else the position."""
    if len(sections) == 1:
        return [sections[0].caption or ""]
    names: list[str] = []
    for number, section in enumerate(sections, start=1):
        if section.caption is None:
            log.report(MalformedFile(
                f"ranking {number} of {len(sections)} has no section caption; named {number!r}",
                table=str(number), has_value=False,
            ), level="info")
        names.append(section.caption or str(number))
    return names


# --- the rows -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """One pair's row as read, before places are resolved."""

    number: int
    place_text: str
    written: WrittenPlace | None
    label: str
    score: float | None
    players: tuple[PlayerAsWritten, ...]


def _names(cell: Element) -> list[tuple[str, str | None]]:
    """(name, federation id) per player: every link is one, an unlinked line is one."""
    players: list[tuple[str, str | None]] = []
    for line in _br_lines(cell):
        if line.links:
            players.extend((name, federation_id(href)) for name, href in line.links if name)
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


def _iter_rows(header_row: Element, stop: Element | None) -> Iterator[Element]:
    """The rows below ``header_row`` in its table, up to (not including) the row ``stop``."""
    for row in header_row.itersiblings():
        if row is stop:
            return
        if isinstance(row.tag, str) and row.tag == "tr":
            yield row


def _read_row(
    number: int, cells: Sequence[Element], columns: _Columns, headers: Sequence[str],
    log: IssueLog, table: str = _TABLE,
) -> _Row:
    def where(column: int) -> dict[str, Any]:
        return {"file": log.file, "table": table, "row": number, "column": headers[column]}

    place_text, written = read_place(cells[columns.place], where(columns.place))
    label = cell_text(cells[columns.label])
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
            value=cell_text(cells[columns.club]), **where(columns.club),
        ))
    score = read_score(cells[columns.score], where(columns.score), log, unit=f"pair {label}",
                       what="result")
    players = tuple(
        PlayerAsWritten(name=name, federation_id=fid, club=club)
        for (name, fid), club in zip(names, clubs) if not is_placeholder(name)
    )
    if len(players) < len(names):
        log.report(MalformedFile(
            f"pair {label}: a phantom/robot seat is not a player; the pair keeps its place",
            value=cell_text(cells[columns.names]), **where(columns.names),
        ), level="info")
    return _Row(number, place_text, written, label, score, players)


def _read_rows(
    header_row: Element, columns: _Columns, log: IssueLog, *, table: str = _TABLE,
    stop: Element | None = None,
) -> list[_Row]:
    """Every pair's row below the header up to ``stop`` (the next section's header); blank
    spacer rows, caption rows and repeated headers are skipped."""
    headers = [cell_text(c) for c in row_cells(header_row)]
    cells = data_rows(
        _iter_rows(header_row, stop), width=columns.width, log=log, table=table,
        skip=lambda tr, texts: _columns(texts) is not None or _row_caption(tr, texts) is not None,
    )
    rows = [_read_row(number, row, columns, headers, log, table)
            for number, row in enumerate(cells, 1)]
    if not rows:
        raise MalformedFile("the results table has no pairs", file=log.file, table=table)
    return rows


# --- parse ----------------------------------------------------------------------------------


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One pairs event per ranking of a JFR Pary results page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = decode_page(data, log)
    doc = html_document(text, log.file)
    sections = _find_sections(doc, log.file, text)
    lines = heading_lines(sections[0].header)
    heading = read_heading(lines)
    title, date_found = event_date_and_title(doc, text, heading, log, source=source)
    words = " ".join([*lines, title, page_title(doc)])
    if not title:
        log.report(MalformedFile("no event title on the page", table="heading", has_value=False))
    names = _section_names(sections, log)
    events: list[Event] = []
    for index, (section, name) in enumerate(zip(sections, names)):
        table = name or _TABLE
        stop = sections[index + 1].header if index + 1 < len(sections) else None
        columns = section.columns
        headers = [cell_text(c) for c in row_cells(section.header)]
        rows = _read_rows(section.header, columns, log, table=table, stop=stop)
        scoring, why = infer_scoring(columns.score_header, [r.score for r in rows], words)
        if scoring_from_header(columns.score_header) == "unknown":
            log.report(UnsupportedVariant(
                f"the result column does not name the scoring; {scoring}: {why}", table=table,
                column=columns.score_header, value=columns.score_header,
            ), level="info")
        events.append(Event(
            game="bridge", title=title, date=date_found.date, kind="pairs", scoring=scoring,
            units=ranked_units(rows, log, table=table, place_column=headers[columns.place],
                               score_column=headers[columns.score], unit="pair"),
            boards=None, section=name,
            organiser=heading.organiser, format=NAME,
        ))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="JFR Pary full-results page (W-*.html), Polish pairs scoring program",
    detect=detect,
    parse=parse,
)
