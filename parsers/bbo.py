"""BBO (Bridge Base Online) tournament results: the result page (``tview.php?t=<id>``) and the
results exported as CSV, one row per player.

**Result page** (fixtures/bbo/tview_1538-1385205517.html): a small table of labelled values
(``<td class="bbo_tll">Title</td><td class="bbo_tlv">#1538 Pairs Untitled</td>``, then ``Host``,
``Tables``), an "Honor list" of the overall leaders (a top-ten repeat of the rankings, ignored),
then per section and direction a ``sectionbreak`` heading (``Section 1``, ``Section 2 N/S``,
``Section 1 E/W``) followed by a ``sectiontable`` with the columns
``Name | Score ( % ) | Rank | Prize | Points``. ``Prize`` and ``Points`` are ignored. Every section
table is one event, ranked as the page ranks it; its ``section`` is the heading without the word
``Section`` and with the direction as ``NS`` / ``EW`` (``2 NS``); a page with one table and no
direction has section ``""``. ACBL tournaments split the rank cell into strats (a small table
``A | B | C`` inside the cell): the first (strat A, the whole field of the section) is the place;
lower-strat ranks are not used. A table without a ``Rank`` column is placed by its scores (higher
is better, equal scores share a place).

**CSV export**: one row per player, under a header naming a player column (``Name``, ``User``,
``Username``, ``Player``, ``Handle``) and a score column (``Score``, ``Result``, ``Percent``,
``IMPs``), optionally ``Rank`` / ``Place``, ``Pair`` (pair number), ``Section`` and
``Direction``; commas, semicolons or tabs separate the fields. A leading ``No.`` / ``#`` column
is a row number, not a rank. A CSV is claimed as BBO's from its content, never its file name: a
``User`` / ``Handle`` / ``BBO`` column, names joined ``a+b``, or robot seats among the players.
Partners are the players sharing a pair number (in one section and direction), else those sharing
a rank and a score (or a score alone when there is no rank); a robot always partners a human.
When the file does not say who partnered whom (four humans share one rank and score, say), it is
refused (``UnsupportedVariant``): guessing partners would load wrong pairs. Rows of one player each
(no group of two) are an individual tournament. The date comes from the tournament id in the file
(``tourney=<n>-<unix time>``) or its name, else the file is refused: no date is ever invented.

Quirks handled (both forms):

- **names are BBO handles**: a pair is written ``user1+user2``; each handle is a player as
  written, with no federation id (a handle is not a member number). Handles may contain spaces
  (``mustafa bo``);
- **robots are not players**: ``Robot``, ``robot1``, ``GIB`` and anything starting with ``~~``
  (BBO's prefix for its robots) are dropped from the unit; the unit keeps its place and score (with
  no players at all if both seats were robots) and an info issue says so;
- **ties**: the same rank repeated (``3``, ``3``, then ``5``), an ``=`` mark (``3=``) or an empty
  rank cell below a ranked row give the averaged place;
- **scoring** from the score column's header: ``%`` / ``Percent`` -> MP, ``IMP`` -> IMP, else
  ``unknown``;
- **no unit numbers**: BBO does not number pairs, so a unit's label is its name cell as written
  (in a CSV, the handles joined with ``+``).

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

Refused: BBO pages that hold no ranking, such as a tournament page whose results are loaded by a
script (its section tables are not in the HTML), hand lists and board travellers
(``hands.php``), and team tournaments (names that are not handles joined by ``+`` on a page
titled as teams).
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from ._dates import find_date
from ._errors import InconsistentResult, MalformedFile, NoResults, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._limits import html_document
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
_TVIEW_SHELL = re.compile(rb"""class\s*=\s*["']bbo_t_l["']|tview\.php""", re.IGNORECASE)
_HTML = re.compile(rb"<\s*(?:html|body|table|div|!doctype)\b", re.IGNORECASE)


def detect(data: bytes, filename: str = "") -> bool:
    """A BBO result page (``sectiontable`` and a BBO mark), a BBO tournament page whose results
    a script loads (the tview header table without section tables), or a BBO results CSV."""
    if _HTML.search(data[:4096]):
        low = data.lower()  # a plain look first: the marks' regex is slow on a large page
        if (b"bbo_" not in low and b"bridgebase.com" not in low) or not _BBO_MARK.search(data):
            return False
        return bool(_SECTION_TABLE.search(data) or (
            _TVIEW_SHELL.search(data) and b"bbo_tll" in data and b"hands.php?traveller" not in data
        ))
    return _csv_header(data) is not None


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


# --- shared pieces --------------------------------------------------------------------------

_DATE_LABEL = re.compile(r"date|start|played|time", re.IGNORECASE)
_ROBOT = re.compile(r"^(?:~~.*|robot\d*|gib\d*)$", re.IGNORECASE)
_TEAMS = re.compile(r"\bteams?\b", re.IGNORECASE)


def _text(element: Element) -> str:
    return normalise_space(element.text_content())


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
            "no event date: the file writes none and no tournament id (<number>-<unix time>) "
            "was found in it or in the file name", file=log.file,
        )
    log.report(MalformedFile(
        f"date taken from {where}: the tournament started {start:%Y-%m-%d %H:%M} UTC",
        has_value=False,
    ), level="info")
    return start.date()


def _scoring(header: str) -> Scoring:
    lowered = header.lower()
    if "%" in lowered or "percent" in lowered or "pct" in lowered:
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
    handles: tuple[str, ...]
    score: float | None


def _players(row: _Row, table: str, log: IssueLog) -> tuple[PlayerAsWritten, ...]:
    robots = [h for h in row.handles if _ROBOT.match(h)]
    if robots:
        log.report(MalformedFile(
            f"{row.names}: {' and '.join(robots)} "
            f"{'is a robot, not a player' if len(robots) == 1 else 'are robots, not players'}; "
            "the unit keeps its place and score without them",
            table=table, row=row.number, has_value=False,
        ), level="info")
    return tuple(PlayerAsWritten(name=h, handle=True) for h in row.handles if not _ROBOT.match(h))


def _by_score(rows: Sequence[_Row]) -> list[_Row]:
    """Rows without written ranks, best score first; equal scores tie (no rank written)."""
    ordered = sorted(rows, key=lambda r: (r.score is None, -(r.score or 0.0)))
    out: list[_Row] = []
    position = 0
    for index, row in enumerate(ordered):
        if index == 0 or row.score != ordered[index - 1].score:
            position = index + 1
        out.append(_Row(row.number, row.rank_text, WrittenPlace(position, position), row.names,
                        row.handles, row.score))
    return out


def _units(rows: Sequence[_Row], rank_header: str, score_header: str, table: str,
           log: IssueLog) -> tuple[Unit, ...]:
    places, problems = shared_places([r.written for r in rows])
    for problem in problems:
        row = rows[problem.index]
        log.report(InconsistentResult(problem.message, table=table, row=row.number,
                                      column=rank_header, value=row.rank_text))
    for problem in order_problems(places, [r.score for r in rows]):
        row = rows[problem.index]
        log.report(InconsistentResult(
            f"{row.names}: {problem.message}", table=table, row=row.number,
            column=score_header, value=row.score,
        ))
    return tuple(
        Unit(place=place, place_text=row.rank_text, label=row.names, score=row.score,
             players=_players(row, table, log))
        for place, row in zip(places, rows)
    )


def _kind(rows: Sequence[_Row], title: str, table: str, log: IssueLog) -> Kind:
    """Pairs when names are ``a+b``, individual when none is; odd rows of a pairs page noted."""
    paired = [r for r in rows if len(r.handles) > 1]
    if not paired:
        if _TEAMS.search(title):
            raise UnsupportedVariant(
                "a team tournament: the names are teams, not BBO handles; team results are "
                "not read", file=log.file, table=table, value=title,
            )
        return "individual"
    for row in rows:
        if len(row.handles) < 2:
            log.report(MalformedFile("a pairs tournament row with one handle", table=table,
                                     row=row.number, value=row.names))
    return "pairs"


# --- the result page ------------------------------------------------------------------------


def _labelled_values(doc: Element) -> dict[str, str]:
    """``Title`` -> ``#1538 Pairs Untitled``, ... from the ``bbo_tll`` / ``bbo_tlv`` cells."""
    values: dict[str, str] = {}
    for label in doc.find_class("bbo_tll"):
        value = label.getnext()
        if value is not None and value.tag == "td":
            values.setdefault(_text(label), _text(value))
    return values


@dataclass(frozen=True, slots=True)
class _Columns:
    name: int
    score: int
    rank: int | None
    headers: tuple[str, ...]

    @property
    def width(self) -> int:
        return max(self.name, self.score, self.rank or 0) + 1


def _own_rows(table: Element) -> list[Element]:
    """The table's own rows, not those of tables nested in its cells (ACBL strat ranks)."""
    rows = []
    for tr in table.iter("tr"):
        parent = tr.getparent()
        while parent is not None and parent.tag != "table":
            parent = parent.getparent()
        if parent is table:
            rows.append(tr)
    return rows


def _cells(tr: Element) -> list[Element]:
    return [c for c in tr if isinstance(c.tag, str) and c.tag in ("td", "th")]


def _header_text(cell: Element) -> str:
    """A header cell's own words: ``Rank`` without the strat letters of a nested table."""
    parts = [cell.text or ""]
    for child in cell:
        if isinstance(child.tag, str) and child.tag != "table":
            parts.append(child.text_content())
        parts.append(child.tail or "")
    return normalise_space(" ".join(parts))


def _rank_text(cell: Element) -> str:
    """The rank cell's text; of a cell split into strats, the first (strat A) rank."""
    nested = cell.find(".//table")
    if nested is not None:
        inner = [normalise_space(td.text_content()) for td in nested.iter("td")]
        return inner[0] if inner else ""
    return _text(cell)


def _section_tables(doc: Element, file: str) -> list[tuple[Element, str]]:
    """Every section table with its section heading (``Section 1 N/S``)."""
    tables = [t for t in doc.iter("table") if "sectiontable" in (t.get("class") or "").split()]
    if not tables:
        raise NoResults(
            "a BBO tournament page without its results: no section table (class "
            "'sectiontable') in the HTML (the ranking is loaded by a script, or the page is "
            "not a ranking)", file=file,
        )
    found = []
    for table in tables:
        heading = ""
        node = table
        while node is not None and not heading:
            previous = node.getprevious()
            while previous is not None:
                if "sectionbreak" in (previous.get("class") or "").split():
                    heading = _text(previous)
                    break
                previous = previous.getprevious()
            node = node.getparent()
        found.append((table, heading))
    return found


_DIRECTION = re.compile(r"\b(N\s*/\s*S|E\s*/\s*W|N-S|E-W|NS|EW|North[- ]South|East[- ]West)\s*$",
                        re.IGNORECASE)


def _section_name(heading: str, single: bool) -> str:
    text = re.sub(r"^\s*section\b\s*", "", heading, flags=re.IGNORECASE).strip()
    direction = ""
    if match := _DIRECTION.search(text):
        direction = "NS" if match[1][0] in "nN" else "EW"
        text = text[: match.start()].strip()
    if single and not direction:
        return ""
    return f"{text} {direction}".strip()


def _columns(rows: Sequence[Element], table: str, file: str) -> tuple[int, _Columns]:
    """Index of the header row and the column positions, from ``Name``, ``Score``, ``Rank``."""
    for index, row in enumerate(rows):
        headers = tuple(_header_text(c) for c in _cells(row))
        lowered = [h.lower() for h in headers]
        # "Name" (the result page until 2025), "Username" (its layout since)
        name = next((i for i, h in enumerate(lowered) if h in ("name", "username")), None)
        score = next((i for i, h in enumerate(lowered) if h.startswith("score")), None)
        rank = next((i for i, h in enumerate(lowered) if h.startswith("rank")), None)
        if name is not None and score is not None:
            return index, _Columns(name, score, rank, headers)
    raise MalformedFile("the section table has no Name / Score header", file=file,
                        table=table)


def _split_handles(names: str) -> tuple[str, ...]:
    return tuple(h.strip() for h in names.split("+") if h.strip())


def _read_row(number: int, cells: Sequence[Element], columns: _Columns, table: str,
              log: IssueLog) -> _Row:
    def error(problem: str, column: int, value: str) -> MalformedFile:
        return MalformedFile(problem, file=log.file, table=table, row=number,
                             column=columns.headers[column], value=value)

    rank_text = _rank_text(cells[columns.rank]) if columns.rank is not None else ""
    try:
        written = parse_place(rank_text.strip("="))
    except ValueError:
        assert columns.rank is not None
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
    return _Row(number, rank_text, written, names, _split_handles(names), score)


def _read_rows(table_element: Element, table: str, log: IssueLog) -> tuple[_Columns, list[_Row]]:
    rows = _own_rows(table_element)
    header_index, columns = _columns(rows, table, log.file)
    read: list[_Row] = []
    for tr in rows[header_index + 1:]:
        cells = _cells(tr)
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
    if columns.rank is None:
        log.report(MalformedFile("the section table has no Rank column; placed by the scores",
                                 table=table, has_value=False), level="info")
        read = _by_score(read)
    return columns, read


def _parse_page(text: str, source: str, log: IssueLog) -> tuple[Event, ...]:
    doc = html_document(text, log.file)
    if not doc.find_class("sectiontable"):
        lowered = text.lower()
        if re.search(r">\s*traveller\s+\d+-\d+", lowered):
            raise NoResults("a BBO board traveller (one board's results), not a "
                                     "ranking", file=log.file)
        if "bbo_tll" not in lowered and ("myhands" in lowered or "hands.php" in lowered):
            raise NoResults("a BBO hand list (one player's boards), not a ranking",
                                     file=log.file)
    values = _labelled_values(doc)
    tables = _section_tables(doc, log.file)
    title = values.get("Title", "")
    if not title:
        log.report(MalformedFile("no tournament title (Title)", has_value=False))
    date = _event_date(values, text, source, log)
    events = []
    seen: set[str] = set()
    for table_element, heading in tables:
        table = heading or "section table"
        columns, rows = _read_rows(table_element, table, log)
        section = _section_name(heading, len(tables) == 1)
        if section in seen:
            raise MalformedFile("two section tables with the same heading", file=log.file,
                                table=table, value=heading)
        seen.add(section)
        score_header = columns.headers[columns.score]
        scoring = _scoring(score_header)
        if scoring == "unknown":
            log.report(UnsupportedVariant(
                "score column is neither percent nor IMPs; scoring left unknown", table=table,
                column=score_header, value=score_header,
            ), level="info")
        rank_header = columns.headers[columns.rank] if columns.rank is not None else "Rank"
        events.append(Event(
            game="bridge", title=title, date=date, kind=_kind(rows, title, table, log),
            scoring=scoring, units=_units(rows, rank_header, score_header, table, log),
            boards=None, section=section, organiser=values.get("Host", ""), format=NAME,
        ))
    return tuple(events)


# --- the CSV export -------------------------------------------------------------------------

_PLAYER_COLUMNS = frozenset({
    "name", "names", "player", "players", "player name", "user", "username", "user name",
    "bbo name", "bbo user", "bbo username", "bbo handle", "handle",
})
_HANDLE_COLUMNS = frozenset({
    "user", "username", "user name", "bbo name", "bbo user", "bbo username", "bbo handle",
    "handle",
})
_SCORE_COLUMNS = frozenset({
    "score", "result", "percent", "percentage", "%", "pct", "pct.", "score (%)", "score ( % )",
    "score %", "score(%)", "imps", "imp", "score (imps)", "score(imps)", "mp", "mps",
    "matchpoints",
})
_RANK_COLUMNS = frozenset({"rank", "place", "pos", "pos.", "position", "pl", "pl."})
_PAIR_COLUMNS = frozenset({"pair", "pair no", "pair no.", "pair number", "pair #", "pairno",
                           "pair id", "partnership"})
_SECTION_COLUMNS = frozenset({"section", "sect", "sec"})
_DIRECTION_COLUMNS = frozenset({"direction", "dir", "dir."})
_TEMPLATE_MARKS = frozenset({"event", "kind", "unit"})
_DELIMITERS = (",", ";", "\t")


@dataclass(frozen=True, slots=True)
class _CsvColumns:
    line: int
    """Index of the header line among the file's lines."""
    delimiter: str
    player: int
    score: int
    rank: int | None
    pair: int | None
    section: int | None
    direction: int | None
    headers: tuple[str, ...]
    handle_column: bool


def _split_line(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _find_columns(line: str, index: int) -> _CsvColumns | None:
    delimiter = max(_DELIMITERS, key=line.count)
    if line.count(delimiter) == 0:
        return None
    headers = tuple(normalise_space(c) for c in _split_line(line, delimiter))
    lowered = [h.lower() for h in headers]
    if _TEMPLATE_MARKS <= set(lowered):
        return None

    def find(options: frozenset[str]) -> int | None:
        return next((i for i, h in enumerate(lowered) if h in options), None)

    player, score = find(_PLAYER_COLUMNS), find(_SCORE_COLUMNS)
    if player is None or score is None:
        return None
    return _CsvColumns(
        index, delimiter, player, score, find(_RANK_COLUMNS), find(_PAIR_COLUMNS),
        find(_SECTION_COLUMNS), find(_DIRECTION_COLUMNS), headers,
        lowered[player] in _HANDLE_COLUMNS,
    )


def _csv_lines(data: bytes) -> list[str] | None:
    head = data[:65536]
    if b"\x00" in head:
        return None
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text.splitlines()


def _csv_header(data: bytes) -> _CsvColumns | None:
    """The header of a BBO results CSV (module docstring), or None when it is not one."""
    lines = _csv_lines(data)
    if not lines:
        return None
    columns = None
    for index, line in enumerate(lines[:10]):
        if line.strip():
            columns = _find_columns(line, index)
            if columns is not None:
                break
    if columns is None:
        return None
    if columns.handle_column:
        return columns
    for line in lines[columns.line + 1: columns.line + 500]:
        cells = _split_line(line, columns.delimiter)
        if len(cells) <= columns.player:
            continue
        name = normalise_space(cells[columns.player])
        if re.fullmatch(r"[^+\s][^+]*\+[^+]*[^+\s]", name) and " + " not in name:
            return columns
        if _ROBOT.match(name):
            return columns
    return None


@dataclass(frozen=True, slots=True)
class _CsvRow:
    number: int
    name: str
    rank_text: str
    score_text: str
    score: float | None
    pair: str
    group: str


def _csv_rows(lines: Sequence[str], columns: _CsvColumns, log: IssueLog) -> list[_CsvRow]:
    reader = csv.reader(lines[columns.line + 1:], delimiter=columns.delimiter)
    rows: list[_CsvRow] = []
    for offset, cells in enumerate(reader, start=columns.line + 2):
        cells = [normalise_space(c) for c in cells]
        if not any(cells):
            continue

        def cell(index: int | None) -> str:
            return cells[index] if index is not None and index < len(cells) else ""

        name = cell(columns.player)
        if not name:
            log.report(MalformedFile("row without a name; skipped", row=offset,
                                     column=columns.headers[columns.player], value=cells))
            continue
        score_text = cell(columns.score)
        try:
            score = parse_decimal(score_text)
        except ValueError:
            raise MalformedFile("invalid score", file=log.file, row=offset,
                                column=columns.headers[columns.score],
                                value=score_text) from None
        group = " ".join(x for x in (cell(columns.section), cell(columns.direction)) if x)
        rows.append(_CsvRow(offset, name, cell(columns.rank), score_text, score,
                            cell(columns.pair), group))
    if not rows:
        raise MalformedFile("the results CSV has no rows", file=log.file)
    return rows


def _partnerships(rows: Sequence[_CsvRow], columns: _CsvColumns, table: str,
                  log: IssueLog) -> list[list[_CsvRow]]:
    """The units of one section: rows joined into partnerships (module docstring)."""
    if all("+" in r.name for r in rows):
        return [[r] for r in rows]
    if any("+" in r.name for r in rows):
        raise UnsupportedVariant("some rows name a pair (a+b) and others one player",
                                 file=log.file, table=table)
    keyed: dict[tuple[str, ...], list[_CsvRow]] = {}
    for row in rows:
        if columns.pair is not None and row.pair:
            key: tuple[str, ...] = ("pair", row.pair)
        elif columns.rank is not None:
            key = ("rank", row.rank_text, row.score_text)
        else:
            key = ("score", row.score_text)
        keyed.setdefault(key, []).append(row)
    groups = list(keyed.values())
    if all(len(g) == 1 for g in groups):
        return groups
    units: list[list[_CsvRow]] = []
    for group in groups:
        robots = [r for r in group if _ROBOT.match(r.name)]
        humans = [r for r in group if not _ROBOT.match(r.name)]
        if len(group) == 2:
            units.append(group)
        elif len(group) % 2 == 0 and len(robots) == len(humans):
            units.extend([h, r] for h, r in zip(humans, robots))
        else:
            what = f"pair {group[0].pair}" if group[0].pair and columns.pair is not None \
                else f"score {group[0].score_text}" + (
                    f" and rank {group[0].rank_text}" if columns.rank is not None else "")
            raise UnsupportedVariant(
                f"{len(group)} players share {what}; the file does not say who partnered "
                "whom", file=log.file, table=table, row=group[0].number,
                value=", ".join(r.name for r in group),
            )
    return units


def _csv_units(units: list[list[_CsvRow]], columns: _CsvColumns, table: str,
               log: IssueLog) -> list[_Row]:
    rows: list[_Row] = []
    for members in units:
        first = members[0]
        handles = tuple(h for m in members for h in _split_handles(m.name))
        label = first.pair if columns.pair is not None and first.pair else "+".join(handles)
        scores = {m.score for m in members}
        if len(scores) > 1:
            log.report(InconsistentResult(
                f"partners {label} have different scores; the first is used", table=table,
                row=first.number, column=columns.headers[columns.score],
                value=", ".join(m.score_text for m in members),
            ))
        try:
            written = parse_place(first.rank_text.strip("="))
        except ValueError:
            raise MalformedFile("invalid rank", file=log.file, table=table, row=first.number,
                                column=columns.headers[columns.rank or 0],
                                value=first.rank_text) from None
        rows.append(_Row(first.number, first.rank_text, written, label, handles, first.score))
    if columns.rank is None:
        return _by_score(rows)
    if any(r.written is None for r in rows):
        raise MalformedFile("a row without a rank", file=log.file, table=table,
                            row=next(r.number for r in rows if r.written is None),
                            column=columns.headers[columns.rank], value="")
    return sorted(rows, key=lambda r: (r.written.first if r.written else 0, r.number))


def _parse_csv(data: bytes, source: str, log: IssueLog) -> tuple[Event, ...]:
    columns = _csv_header(data)
    if columns is None:
        raise MalformedFile("not a BBO results CSV: no header naming a player (Name, User) "
                            "and a score (Score, Result) column", file=log.file)
    decoded = decode_bytes(data)
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    lines = decoded.text.removeprefix("\ufeff").splitlines()
    values: dict[str, str] = {}
    for line in lines[: columns.line]:
        cells = [normalise_space(c) for c in _split_line(line, columns.delimiter)]
        if len(cells) >= 2 and cells[0]:
            values.setdefault(cells[0].rstrip(":"), cells[1])
    rows = _csv_rows(lines, columns, log)
    by_group: dict[str, list[_CsvRow]] = {}
    for row in rows:
        by_group.setdefault(row.group, []).append(row)
    title = values.get("Title", "")
    if not title:
        log.report(MalformedFile("no tournament title (the CSV has no Title line)",
                                 has_value=False))
    score_header = columns.headers[columns.score]
    scoring = _scoring(score_header)
    rank_header = columns.headers[columns.rank] if columns.rank is not None else "Rank"
    built = []
    for group, members in by_group.items():
        table = f"section {group}" if group else "results"
        units = _csv_units(_partnerships(members, columns, table, log), columns, table, log)
        built.append((group, table, units))
    date = _event_date(values, decoded.text, source, log)
    events = []
    for group, table, units in built:
        section = _section_name(group, len(built) == 1)
        events.append(Event(
            game="bridge", title=title, date=date, kind=_kind(units, title, table, log),
            scoring=scoring, units=_units(units, rank_header, score_header, table, log),
            boards=None, section=section, organiser=values.get("Host", ""), format=NAME,
        ))
    return tuple(events)


# --- parse ----------------------------------------------------------------------------------


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """The events of a BBO result page or results CSV; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    if _HTML.search(data[:4096]):
        decoded = decode_bytes(data, html_declared_charset(data))
        if decoded.note:
            log.report(MalformedFile(decoded.note), level="info")
        events = _parse_page(decoded.text, source, log)
    else:
        events = _parse_csv(data, source, log)
    return ParseResult(format=NAME, events=events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="BBO tournament results: the result page (tview, one event per section) and "
                "the results CSV, pairs named by BBO handles",
    detect=detect,
    parse=parse,
)
