"""BBO (Bridge Base Online) tournament result pages (``tview.php?t=<tournament id>``).

Layout (fixtures/bbo/tview_1538-1385205517.html): a small table of labelled values
(``<td class="bbo_tll">Title</td><td class="bbo_tlv">#1538 Pairs Untitled</td>``, then ``Host``,
``Tables``), an "Honor list" of the overall leaders (a top-ten repeat of the ranking, ignored),
then per section a ``Section 1`` heading and a ``sectiontable`` with the columns
``Name | Score ( % ) | Rank | Prize``. ``Prize`` is ignored.

Quirks handled:

- **names are BBO handles**: a pair is written ``user1+user2``; each handle is a player as
  written, with no federation id (a handle is not a member number). A name without ``+`` on a page
  where every name lacks it is an individual tournament. Handles may contain spaces
  (``mustafa bo``);
- **robots are not players**: handles ``Robot``, ``robot1``, ``~~robot`` and anything starting
  with ``~~`` (BBO's prefix for its robots) are dropped from the unit; the unit keeps its place and
  score (with no players at all if both seats were robots) and an info issue says so;
- **ties**: the same rank repeated (``3``, ``3``, then ``5``), an ``=`` mark (``3=``) or an empty
  rank cell below a ranked row give the averaged place (spec/inputs.md: ties as shared places);
- **scoring** from the score column's header: ``%`` -> MP, ``IMP`` -> IMP, else ``unknown``;
- **no unit numbers**: BBO does not number pairs, so a unit's label is its name cell as written.

Event fields: ``title`` is the ``Title`` value, ``organiser`` the ``Host`` (the BBO handle that
ran the tournament), ``boards`` None (the page does not say; ``Tables`` is not boards).
``date``, in this order:

1. a date written in a labelled value whose label names a date or start time
   (``Date``, ``Start time``, ...), if the page has one;
2. the tournament id: BBO ids are ``<number>-<unix time of the start>`` (``1538-1385205517`` is
   2013-11-23 11:18:37 UTC), read from the page (``Tourney: 1538-1385205517`` or the ``tourney=``
   of the hand links), else from the file name (``tview_1538-1385205517.html``,
   ``tview.php@t=1538-1385205517.html``); the UTC date of that time is used, with an info issue;
3. otherwise the file is malformed (``MalformedFile``): no date is ever invented.

A page with several section tables is an ``UnsupportedVariant`` for now (the ranks of a
multi-section tournament need checking against a real page first).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import lxml.etree
import lxml.html

from ._dates import find_date
from ._errors import InconsistentResult, MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, parse_place, shared_places
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal

__all__ = ["FORMAT", "detect", "parse", "tournament_start"]

NAME = "bbo"

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""

# --- detection ------------------------------------------------------------------------------

_SECTION_TABLE = re.compile(rb"""class\s*=\s*["']sectiontable["']""", re.IGNORECASE)
_BBO_MARK = re.compile(rb"""class\s*=\s*["']bbo_|bridgebase\.com""", re.IGNORECASE)


def detect(data: bytes, filename: str = "") -> bool:
    """A page with BBO's ``sectiontable`` and a BBO mark (``bbo_`` classes or bridgebase.com)."""
    return bool(_SECTION_TABLE.search(data) and _BBO_MARK.search(data))


# --- the tournament id and its start time ---------------------------------------------------

_PAGE_ID = re.compile(r"tourney\s*[=:]\s*(\d+)-(\d{9,10})(?!\d)", re.IGNORECASE)
_NAME_ID = re.compile(r"(?<!\d)(\d+)-(\d{9,10})(?!\d)")
_EARLIEST = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)
_LATEST = dt.datetime(2100, 1, 1, tzinfo=dt.timezone.utc)


def tournament_start(text: str, *, in_file_name: bool = False) -> dt.datetime | None:
    """The start time (UTC) encoded in the first BBO tournament id of ``text``, if any.

    In a page the id follows ``tourney=`` or ``Tourney:``; in a file name any ``<n>-<10 digits>``
    counts. Times before 2000 or after 2100 are not start times: None.
    """
    pattern = _NAME_ID if in_file_name else _PAGE_ID
    for match in pattern.finditer(text):
        start = dt.datetime.fromtimestamp(int(match[2]), dt.timezone.utc)
        if _EARLIEST <= start < _LATEST:
            return start
    return None


# --- reading the page -----------------------------------------------------------------------

_DATE_LABEL = re.compile(r"date|start|played|time", re.IGNORECASE)
_ROBOT = re.compile(r"^(?:~~.*|robot\d*)$", re.IGNORECASE)


def _text(element: Element) -> str:
    return normalise_space(element.text_content())


def _labelled_values(doc: Element) -> dict[str, str]:
    """``Title`` -> ``#1538 Pairs Untitled``, ... from the ``bbo_tll`` / ``bbo_tlv`` cells."""
    values: dict[str, str] = {}
    for label in doc.find_class("bbo_tll"):
        value = label.getnext()
        if value is not None and value.tag == "td":
            values.setdefault(_text(label), _text(value))
    return values


def _event_date(values: dict[str, str], text: str, source: str, log: IssueLog) -> dt.date:
    """The event date; see the module docstring for the order of the places looked at."""
    for label, value in values.items():
        if _DATE_LABEL.search(label) and (found := find_date(value)) is not None:
            return found.date
    start = tournament_start(text)
    where = "the tournament id on the page"
    if start is None and source:
        start = tournament_start(PurePath(source).name, in_file_name=True)
        where = "the tournament id in the file name"
    if start is None:
        raise MalformedFile(
            "no event date: the page writes none and no tournament id (<number>-<unix time>) "
            "was found on the page or in the file name", file=log.file,
        )
    log.report(MalformedFile(
        f"date taken from {where}: the tournament started {start:%Y-%m-%d %H:%M} UTC",
        has_value=False,
    ), level="info")
    return start.date()


@dataclass(frozen=True, slots=True)
class _Columns:
    name: int
    score: int
    rank: int
    headers: tuple[str, ...]

    @property
    def width(self) -> int:
        return max(self.name, self.score, self.rank) + 1


def _section_table(doc: Element, file: str) -> tuple[Element, str]:
    """The one section table and its section heading (``Section 1``)."""
    tables = [t for t in doc.iter("table") if "sectiontable" in (t.get("class") or "").split()]
    if not tables:
        raise MalformedFile("no section table (class 'sectiontable') on the page", file=file)
    breaks = [_text(b) for b in doc.find_class("sectionbreak")]
    if len(tables) > 1:
        raise UnsupportedVariant(
            f"{len(tables)} section tables on one page; multi-section tournaments are not "
            "handled yet", file=file, value=", ".join(breaks), has_value=bool(breaks),
        )
    return tables[0], breaks[0] if breaks else "section table"


def _columns(rows: Sequence[Element], table: str, file: str) -> tuple[int, _Columns]:
    """Index of the header row and the column positions, from ``Name``, ``Score``, ``Rank``."""
    for index, row in enumerate(rows):
        headers = tuple(_text(c) for c in row if c.tag in ("th", "td"))
        lowered = [h.lower() for h in headers]
        name = next((i for i, h in enumerate(lowered) if h == "name"), None)
        score = next((i for i, h in enumerate(lowered) if h.startswith("score")), None)
        rank = next((i for i, h in enumerate(lowered) if h == "rank"), None)
        if name is not None and score is not None and rank is not None:
            return index, _Columns(name, score, rank, headers)
    raise MalformedFile("the section table has no Name / Score / Rank header", file=file,
                        table=table)


def _scoring(header: str) -> Scoring:
    lowered = header.lower()
    if "%" in lowered:
        return "MP"
    if "imp" in lowered:
        return "IMP"
    return "unknown"


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    rank_text: str
    written: WrittenPlace | None
    names: str
    score: float | None


def _read_row(number: int, cells: Sequence[Element], columns: _Columns, table: str,
              log: IssueLog) -> _Row:
    def error(problem: str, column: int, value: str) -> MalformedFile:
        return MalformedFile(problem, file=log.file, table=table, row=number,
                             column=columns.headers[column], value=value)

    rank_text = _text(cells[columns.rank])
    try:
        written = parse_place(rank_text.strip("="))
    except ValueError:
        raise error("invalid rank", columns.rank, rank_text) from None
    names = _text(cells[columns.name])
    if not names.strip("+ "):
        raise error("row without a name", columns.name, names)
    score_text = _text(cells[columns.score])
    score: float | None = None
    try:
        score = parse_decimal(score_text)
    except ValueError:
        log.report(error(f"{names}: invalid score; left empty", columns.score, score_text))
    return _Row(number, rank_text, written, names, score)


def _read_rows(table_element: Element, table: str, log: IssueLog) -> tuple[_Columns, list[_Row]]:
    rows = [r for r in table_element.iter("tr")]
    header_index, columns = _columns(rows, table, log.file)
    read: list[_Row] = []
    for tr in rows[header_index + 1:]:
        cells = [c for c in tr if c.tag in ("td", "th")]
        texts = [_text(c) for c in cells]
        if not any(texts) or texts == list(columns.headers):
            continue
        if len(cells) < columns.width:
            log.report(MalformedFile(
                "row has fewer cells than the header; skipped", table=table,
                row=len(read) + 1, value=" | ".join(texts),
            ))
            continue
        read.append(_read_row(len(read) + 1, cells, columns, table, log))
    if not read:
        raise MalformedFile("the section table has no rows", file=log.file, table=table)
    return columns, read


def _kind(rows: Sequence[_Row], table: str, log: IssueLog) -> Kind:
    """Pairs when names are ``a+b``, individual when none is; odd rows of a pairs page noted."""
    paired = [r for r in rows if "+" in r.names]
    if not paired:
        return "individual"
    for row in rows:
        if "+" not in row.names:
            log.report(MalformedFile("a pairs tournament row with one handle", table=table,
                                     row=row.number, value=row.names))
    return "pairs"


def _players(row: _Row, table: str, log: IssueLog) -> tuple[PlayerAsWritten, ...]:
    handles = [h.strip() for h in row.names.split("+") if h.strip()]
    robots = [h for h in handles if _ROBOT.match(h)]
    if robots:
        log.report(MalformedFile(
            f"{row.names}: {' and '.join(robots)} "
            f"{'is a robot, not a player' if len(robots) == 1 else 'are robots, not players'}; "
            "the unit keeps its place and score without them",
            table=table, row=row.number, has_value=False,
        ), level="info")
    return tuple(PlayerAsWritten(name=h) for h in handles if not _ROBOT.match(h))


def _units(rows: Sequence[_Row], columns: _Columns, table: str,
           log: IssueLog) -> tuple[Unit, ...]:
    places, problems = shared_places([r.written for r in rows])
    rank_header = columns.headers[columns.rank]
    for problem in problems:
        row = rows[problem.index]
        log.report(InconsistentResult(problem.message, table=table, row=row.number,
                                      column=rank_header, value=row.rank_text))
    for problem in order_problems(places, [r.score for r in rows]):
        row = rows[problem.index]
        log.report(InconsistentResult(
            f"{row.names}: {problem.message}", table=table, row=row.number,
            column=columns.headers[columns.score], value=row.score,
        ))
    return tuple(
        Unit(place=place, place_text=row.rank_text, label=row.names, score=row.score,
             players=_players(row, table, log))
        for place, row in zip(places, rows)
    )


# --- parse ----------------------------------------------------------------------------------


def _document(text: str, file: str) -> Element:
    try:
        return lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise MalformedFile(f"not readable as HTML ({exc})", file=file) from exc


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event from a BBO tournament result page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    decoded = decode_bytes(data, html_declared_charset(data))
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    doc = _document(decoded.text, log.file)
    values = _labelled_values(doc)
    table_element, table = _section_table(doc, log.file)
    columns, rows = _read_rows(table_element, table, log)
    title = values.get("Title", "")
    if not title:
        log.report(MalformedFile("no tournament title (Title)", has_value=False))
    score_header = columns.headers[columns.score]
    scoring = _scoring(score_header)
    if scoring == "unknown":
        log.report(UnsupportedVariant(
            "score column is neither percent nor IMPs; scoring left unknown", table=table,
            column=score_header, value=score_header,
        ), level="info")
    event = Event(
        game="bridge", title=title, date=_event_date(values, decoded.text, source, log),
        kind=_kind(rows, table, log), scoring=scoring,
        units=_units(rows, columns, table, log), boards=None, section="",
        organiser=values.get("Host", ""), format=NAME,
    )
    return ParseResult(format=NAME, events=(event,), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="BBO tournament result page (tview), pairs named by BBO handles",
    detect=detect,
    parse=parse,
)
