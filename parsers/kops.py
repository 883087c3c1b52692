"""KoPS2www results pages (``wyn.html``) from the Polish club pairs scoring program KoPS.

Layout (fixtures/kops/PCH1003_wyn.html, Chorzów 3 Oct 2011): the generator meta reads
``KoPS2www, JFR 2005`` (the page borrows JFR's ``kolorki.css``, but not its markup). Above the one
results table an ``<h4>`` holds the heading: the title, then ``<place>, <date> r.``. The table's
first row (``class=nagl``) is the column header

    miejsce | numer | (names) | WK | okręg | PZBS | (category) | % | PKL | PDF

and one row per pair follows (``class=niep`` / ``class=parz``, odd and even). ``WK`` (members'
ranking), ``okręg`` (district), the unnamed category column (``S`` senior, ``K`` woman, ``N``,
``J``...), ``PKL`` (ranking points) and ``PDF`` are not part of the event model and are ignored.

Quirks handled:

- **names**: both players of a pair in *one* link to the pair's history page, separated by
  ``<br>`` inside the ``<a>`` (unlike JFR Pary, one ``<a>`` per player); every line is a player;
- **federation ids**: the ``PZBS`` column has one line per player, the member id as the link text
  (``03499``, zero-padded to five digits like JFR Pary's; the link's ``r=3499`` drops the zeros),
  kept as written. An empty line is a player without an id; a line that is not digits is noted
  and ignored; a different number of lines than players is a warning (ids assigned in order);
- **ties** (docs/rules/inputs.md: shared places): a range ``9-10``, a repeated place or an empty place
  cell below a placed row all give the averaged place (9.5); ``place_text`` keeps the cell;
- **charset**: ISO-8859-2 declared; an undeclared or mislabelled page is detected (``_text``);
- **scoring**: ``%`` is matchpoints; ``+/-`` / ``IMP`` IMPs; a plain ``WYNIK`` column (KoPS's
  IMP events) is decided by the scores - negative totals or totals summing to zero are IMPs,
  percentages around 50 MP - then by the page's words; else ``unknown`` (a note);
- **phantom** seats (``PHANTOM``, ``ROBOT``, ``pauza``) are not players: the pair keeps its place.

Event fields: ``title`` is the first heading line, ``date`` the first date in the heading (else in
``<title>``); none is malformed (never today's date). ``organiser`` is the date line without its
date (``Chorzów``). Boards are not on the page (None); ``section`` is ``""``. Rows in messages
are counted from the first pair (row 1), the table is ``results``.

Every KoPS page is claimed; pages without the ranking are refused with the reason
(``UnsupportedVariant``): the frameset ``index.html``, a pair's history ``h8.html``, a board's
protocol ``p1.html``, the list of boards ``roz.html``.

Checks as in ``jfr_pary``: places that do not follow on and scores contradicting places are
warnings (``InconsistentResult`` in strict mode).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._errors import MalformedFile, NoResults, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._jfr import (
    Element,
    cell_text,
    clean_heading,
    data_rows,
    decode_page,
    event_date_and_title,
    is_placeholder,
    kops_generator,
    read_heading,
    read_place,
    read_score,
    row_cells,
    infer_scoring,
    page_kind,
    page_title,
    scoring_from_header,
    text_lines,
)
from ._limits import html_document
from ._model import Event, ParseResult, PlayerAsWritten
from ._places import WrittenPlace, ranked_units
from ._registry import Format
from ._text import normalise_space

__all__ = ["FORMAT", "detect", "parse"]

NAME = "kops"
_TABLE = "results"

# --- detection ------------------------------------------------------------------------------

_PLACE_HEADER = re.compile(rb">\s*miejsce\s*<", re.IGNORECASE)
_NUMBER_HEADER = re.compile(rb">\s*numer\s*<", re.IGNORECASE)


def detect(data: bytes, filename: str = "") -> bool:
    """The KoPS2www generator meta: every KoPS page is claimed, the ranking (``miejsce`` /
    ``numer`` header) or not; a page without one (the frameset ``index.html``, a pair's history
    ``h8.html``, a board ``p1.html``, the list of boards ``roz.html``) is refused by ``parse``
    with the reason."""
    return kops_generator(data)


# --- the column header ----------------------------------------------------------------------

_PLACE_NAMES = frozenset({"miejsce", "m-ce"})
_LABEL_NAMES = frozenset({"numer", "nr"})
_ID_NAMES = frozenset({"pzbs", "id", "nr pzbs"})
_SCORE_NAMES = frozenset({"%", "wynik", "wynik %", "+/-", "imp", "impy", "butler", "pkt",
                          "punkty"})


@dataclass(frozen=True, slots=True)
class _Columns:
    """Column positions of the results table and the header texts as written."""

    place: int
    label: int
    names: int
    score: int
    ids: int | None
    headers: tuple[str, ...]

    @property
    def width(self) -> int:
        return max(self.place, self.label, self.names, self.score, self.ids or 0) + 1


def _columns(headers: Sequence[str]) -> _Columns | None:
    """Column positions from a header row's texts, None if it is not the results header."""
    lowered = [h.lower() for h in headers]
    place = next((i for i, h in enumerate(lowered) if h in _PLACE_NAMES), None)
    label = next((i for i, h in enumerate(lowered) if h in _LABEL_NAMES), None)
    if place is None or label is None:
        return None
    names = next((i for i, h in enumerate(lowered) if i > label and h == ""), None)
    score = next((i for i, h in enumerate(lowered) if h in _SCORE_NAMES), None)
    ids = next((i for i, h in enumerate(lowered) if h in _ID_NAMES), None)
    if names is None or score is None:
        return None
    return _Columns(place, label, names, score, ids, tuple(headers))


def _find_header(doc: Element, file: str, text: str = "") -> tuple[Element, _Columns]:
    """The results header row; ``MalformedFile`` if none, ``UnsupportedVariant`` if several."""
    found = [
        (row, columns) for row in doc.iter("tr")
        if (columns := _columns([cell_text(c) for c in row_cells(row)])) is not None
    ]
    if not found:
        reason = page_kind(doc, text)
        if reason is not None:
            raise NoResults(f"not a results page: {reason}", file=file)
        raise MalformedFile(
            "no results table: no row with the columns 'miejsce', 'numer', names and '%'",
            file=file,
        )
    if any(row.getparent() is not found[0][0].getparent() for row, _ in found[1:]):
        raise UnsupportedVariant("several results tables on one page", file=file)
    return found[0]


# --- the heading ----------------------------------------------------------------------------


def _heading_lines(header_row: Element) -> list[str]:
    """Text above the results table: the body's elements before it (the ``<h4>``), in order."""
    table = header_row.getparent()
    if table is not None and table.tag in ("tbody", "thead"):
        table = table.getparent()
    if table is None:
        return []
    lines: list[str] = []
    for element in reversed(list(table.itersiblings(preceding=True))):
        if isinstance(element.tag, str) and element.tag not in ("script", "style"):
            lines.extend(text_lines(element))
        if element.tail and (tail := normalise_space(element.tail)):
            lines.append(tail)
    parent = table.getparent()
    leading = normalise_space(parent.text or "") if parent is not None else ""
    return clean_heading(([leading] if leading else []) + lines)


# --- the rows -------------------------------------------------------------------------------


def _lines(cell: Element) -> list[str]:
    """The cell's text split at every ``<br>``, also inside links (KoPS puts both names of a
    pair in one ``<a>``)."""
    lines: list[list[str]] = [[]]

    def walk(element: Element) -> None:
        lines[-1].append(element.text or "")
        for child in element:
            if isinstance(child.tag, str):
                if child.tag == "br":
                    lines.append([])
                else:
                    walk(child)
            lines[-1].append(child.tail or "")

    walk(cell)
    return [normalise_space("".join(parts)) for parts in lines]


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    place_text: str
    written: WrittenPlace | None
    label: str
    score: float | None
    players: tuple[PlayerAsWritten, ...]


def _federation_ids(
    cell: Element | None, n_players: int, label: str, where: dict[str, Any], log: IssueLog,
) -> list[str | None]:
    """One id per player from the ``PZBS`` column (see module doc)."""
    if cell is None:
        return [None] * n_players
    lines = _lines(cell)
    if len(lines) != n_players and any(lines):
        log.report(MalformedFile(
            f"pair {label}: {n_players} players but {len(lines)} id lines; ids assigned in order",
            value=cell_text(cell), **where,
        ))
    ids: list[str | None] = []
    for i in range(n_players):
        text = lines[i] if i < len(lines) else ""
        if text and not (text.isascii() and text.isdigit()):
            log.report(MalformedFile(
                f"pair {label}: member id is not a number; ignored", value=text, **where,
            ))
            text = ""
        ids.append(text or None)
    return ids


def _read_row(number: int, cells: Sequence[Element], columns: _Columns, log: IssueLog) -> _Row:
    def where(column: int) -> dict[str, Any]:
        return {"file": log.file, "table": _TABLE, "row": number,
                "column": columns.headers[column] or f"column {column + 1}"}

    place_text, written = read_place(cells[columns.place], where(columns.place))
    label = cell_text(cells[columns.label])
    if not label:
        raise MalformedFile("pair without a number", value=label, **where(columns.label))
    names = [line for line in _lines(cells[columns.names]) if line]
    if not names:
        raise MalformedFile(
            f"pair {label} without player names", has_value=False, **where(columns.names),
        )
    id_cell = cells[columns.ids] if columns.ids is not None else None
    id_where = where(columns.ids) if columns.ids is not None else {}
    ids = _federation_ids(id_cell, len(names), label, id_where, log)
    score = read_score(cells[columns.score], where(columns.score), log, unit=f"pair {label}",
                       what="result")
    players = tuple(
        PlayerAsWritten(name=name, federation_id=fid)
        for name, fid in zip(names, ids) if not is_placeholder(name)
    )
    if len(players) < len(names):
        log.report(MalformedFile(
            f"pair {label}: a phantom/robot seat is not a player; the pair keeps its place",
            value=" / ".join(names), **where(columns.names),
        ), level="info")
    return _Row(number, place_text, written, label, score, players)


def _read_rows(header_row: Element, columns: _Columns, log: IssueLog) -> list[_Row]:
    """Every pair's row below the header; blank rows and repeated headers are skipped."""
    cells = data_rows(header_row.itersiblings(), skip=lambda _, texts: _columns(texts) is not None,
                      width=columns.width, log=log, table=_TABLE)
    rows = [_read_row(number, row, columns, log) for number, row in enumerate(cells, 1)]
    if not rows:
        raise MalformedFile("the results table has no pairs", file=log.file, table=_TABLE)
    return rows


# --- parse ----------------------------------------------------------------------------------


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One pairs event from a KoPS2www results page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = decode_page(data, log)
    doc = html_document(text, log.file)
    header_row, columns = _find_header(doc, log.file, text)
    lines = _heading_lines(header_row)
    heading = read_heading(lines)
    title, date_found = event_date_and_title(doc, text, heading, log, source=source)
    if not title:
        log.report(MalformedFile("no event title on the page", table="heading", has_value=False))
    score_header = columns.headers[columns.score]
    rows = _read_rows(header_row, columns, log)
    scoring, why = infer_scoring(score_header, [r.score for r in rows],
                                 " ".join([*lines, title, page_title(doc)]))
    if scoring_from_header(score_header) == "unknown":
        log.report(UnsupportedVariant(
            f"the result column does not name the scoring; {scoring}: {why}",
            table=_TABLE, column=score_header, value=score_header,
        ), level="info")
    units = ranked_units(
        rows, log, table=_TABLE,
        place_column=columns.headers[columns.place], score_column=score_header, unit="pair",
    )
    event = Event(
        game="bridge", title=title, date=date_found.date, kind="pairs", scoring=scoring,
        units=units, boards=None, section="", organiser=heading.organiser, format=NAME,
    )
    return ParseResult(format=NAME, events=(event,), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="KoPS2www results page (wyn.html), Polish club pairs scoring program",
    detect=detect,
    parse=parse,
)
