"""Recap pages: the HTML standings that BridgeComposer and ACBLscore-style programs publish.

A recap page has a heading (event name, club, date) and one ranking table per section (and per
direction in a two-winner movement), e.g. (fixtures/recap_html/two-sections-strat-columns.html)::

    Section A - Overall Standings
    Pair | Strat | Rank A | Rank B | Rank C | Pct   | Score | MPs  | Names
       1 | A     |      3 |        |        | 52.08 | 62.50 | 0.45 | Margaret Ellison - Dennis Ruiz

A table is a ranking table when its header names a ``Pair`` column, a ``Names``/``Name``/
``Players`` column, a rank column (``Rank``, ``Place``, ``Pos``, ``Overall`` or ``Section``) and
``Pct`` and/or ``Score``. Headers may be two rows deep (``Rank`` spanning the strat columns
``A B C``); row and column spans are expanded. Each ranking table is one event.

Quirks handled:

- **strats**: the first column of the rank group is the place (strat A ranks the whole field);
  the other strat columns (B, C) are lower-strat ranks, reported as info and not used. When the
  header has both ``Overall`` and ``Section`` rank groups, the section ranks are used, since
  the event is the section. A single rank cell may carry the strat ranks itself: ``2/1``;
- **ties**: ``3/4`` written on exactly two consecutive rows is a tie for 3rd-4th (3.5 each),
  ``3-4`` always is; a lone ``2/1`` is place 2 and strat-B rank 1 (``pbn.read_ranks``);
- **order**: rows may be in pair-number order; units are sorted by the first number of their
  rank. A unit without a rank (recaps leave the rank empty below the awards) is placed after
  the ranked ones by its score, sharing the place of an equal score (an info note);
- **sections**: from the table's ``<caption>`` or the headings between it and the previous
  ranking table: ``Section A`` -> section ``A``; ``North-South`` / ``East-West`` add ``NS`` /
  ``EW`` (``"A NS"``). Several ranking tables with no section written are ``1``, ``2``, ...;
- **names**: one player per ``<br>`` line of the names cell, else the line is split like a PBN
  pair (``pbn.split_names``: ``X - Y``, ``X & Y``, ``X/Y``; a hyphenated surname in
  ``Mary Beth Holloway-Reyes - Tom Carver`` stays whole). Phantom / sit-out pairs are not
  players (kept without players when ranked);
- **scoring**: ``Pct`` present -> MP, the percentage is the score; otherwise the ``Score``
  column is the score, IMP when the header says ``IMPs``, else MP;
- **heading**: the text lines above the first ranking table (and the ``<title>``): the first
  date found is the date (none -> :class:`MalformedFile`); the first line that names a club
  (``Club``, ``Bridge Center/Centre``, ``Association``, ``Society``, ``Unit``) is the
  organiser; the first other line (without its date) is the title;
- **charset**: the meta charset is honoured when it decodes cleanly (``_text``).

Checks: places against scores and places that do not follow on are warnings
(:class:`InconsistentResult` when strict). Rows in messages count from the table's first
data row (row 1) in the page's order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import lxml.etree
import lxml.html

from ._dates import find_date, strip_date
from ._errors import InconsistentResult, MalformedFile
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, shared_places
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal
from .pbn import NOT_PLAYERS, rank_number, read_ranks, split_names

__all__ = ["FORMAT", "detect", "parse"]

NAME = "bridgecomposer_recap"

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""

# --- detection ------------------------------------------------------------------------------

_CELL = r">\s*(?:<[^>]*>\s*)*{}\s*(?:<[^>]*>\s*)*<"
_PAIR_HEADER = re.compile(_CELL.format(r"Pair").encode(), re.IGNORECASE)
_NAMES_HEADER = re.compile(_CELL.format(r"(?:Names?|Players)").encode(), re.IGNORECASE)
_SCORE_HEADER = re.compile(_CELL.format(r"(?:Pct\.?|Score)").encode(), re.IGNORECASE)
_RANK_HEADER = re.compile(_CELL.format(r"(?:Rank|Place|Pos\.?|Overall)").encode(),
                          re.IGNORECASE)


def detect(data: bytes, filename: str = "") -> bool:
    """An HTML page with a table header naming Pair, Names, a rank and Pct or Score."""
    head = data[:262144]
    return (
        re.search(rb"<t[hd]\b", head, re.IGNORECASE) is not None
        and all(p.search(head) for p in (_PAIR_HEADER, _NAMES_HEADER, _SCORE_HEADER,
                                         _RANK_HEADER))
    )


# --- tables as grids ------------------------------------------------------------------------


def _span(cell: Element, name: str) -> int:
    try:
        return max(1, min(int(cell.get(name) or 1), 50))
    except ValueError:
        return 1


def _grid(rows: Sequence[Element]) -> list[list[Element]]:
    """The table's rows with row and column spans expanded (a spanning cell is repeated)."""
    grid: list[list[Element]] = []
    carried: dict[int, list[Any]] = {}  # column -> [cell, rows still to cover]
    for tr in rows:
        cells = [c for c in tr if isinstance(c.tag, str) and c.tag in ("td", "th")]
        out: list[Element] = []
        column = 0
        index = 0
        while index < len(cells) or any(k >= column for k in carried):
            if column in carried:
                cell, left = carried[column]
                out.append(cell)
                if left <= 1:
                    del carried[column]
                else:
                    carried[column][1] = left - 1
                column += 1
                continue
            if index >= len(cells):
                column += 1
                continue
            cell = cells[index]
            index += 1
            rowspan = _span(cell, "rowspan")
            for _ in range(_span(cell, "colspan")):
                out.append(cell)
                if rowspan > 1:
                    carried[column] = [cell, rowspan - 1]
                column += 1
        grid.append(out)
    return grid


def _text(cell: Element) -> str:
    return normalise_space(cell.text_content())


def _lines(cell: Element) -> list[str]:
    """The cell's text split at ``<br>``, blank lines dropped."""
    parts: list[list[str]] = [[]]

    def walk(element: Element) -> None:
        parts[-1].append(element.text or "")
        for child in element:
            if isinstance(child.tag, str) and child.tag == "br":
                parts.append([])
            elif isinstance(child.tag, str):
                walk(child)
            parts[-1].append(child.tail or "")

    walk(cell)
    return [line for part in parts if (line := normalise_space("".join(part)))]


# --- the header -----------------------------------------------------------------------------

_LABELS = frozenset({"pair", "pair no", "pair no.", "pair #"})
_NAMES = frozenset({"names", "name", "players", "pair names", "player names"})
_PCTS = frozenset({"pct", "pct.", "%", "percent", "percentage", "pct %"})
_SCORES = frozenset({"score", "matchpoints", "total", "imps", "score imps"})
_RANK_WORDS = ("rank", "place", "pos", "pos.", "position", "overall", "section")


@dataclass(frozen=True, slots=True)
class _Columns:
    label: int
    names: int
    ranks: tuple[int, ...]
    pct: int | None
    score: int | None
    headers: tuple[str, ...]

    @property
    def width(self) -> int:
        used = [self.label, self.names, *self.ranks, self.pct or 0, self.score or 0]
        return max(used) + 1


def _header_names(header_rows: Sequence[Sequence[Element]]) -> list[str]:
    """One name per column: the texts stacked above it, top to bottom (``Rank A``)."""
    width = max(len(r) for r in header_rows)
    names = []
    for column in range(width):
        texts: list[str] = []
        last = None
        for row in header_rows:
            cell = row[column] if column < len(row) else None
            if cell is None or cell is last:
                continue
            last = cell
            if text := _text(cell):
                texts.append(text)
        names.append(" ".join(texts))
    return names


def _columns(headers: Sequence[str]) -> _Columns | None:
    lowered = [h.lower() for h in headers]

    def find(options: frozenset[str]) -> int | None:
        return next((i for i, h in enumerate(lowered) if h in options), None)

    label, names = find(_LABELS), find(_NAMES)
    pct, score = find(_PCTS), find(_SCORES)
    groups: dict[str, list[int]] = {}
    for i, h in enumerate(lowered):
        first = h.split(" ")[0] if h else ""
        if first in _RANK_WORDS and (h == first or re.fullmatch(r"\S+ [a-z]", h)):
            groups.setdefault(first, []).append(i)
    if label is None or names is None or not groups or (pct is None and score is None):
        return None
    ranks = groups.get("section") or next(iter(groups.values()))
    return _Columns(label, names, tuple(ranks), pct, score, tuple(headers))


def _ranking_tables(doc: Element) -> list[tuple[Element, _Columns, list[list[Element]]]]:
    """Every table with a ranking header: (table, columns, data rows as grids)."""
    found = []
    for table in doc.iter("table"):
        rows = [r for r in table.iter("tr") if _owning_table(r) is table]
        if not rows:
            continue
        grid = _grid(rows)
        header_count = 0
        for row in grid:
            if row and all(c.tag == "th" for c in row):
                header_count += 1
            else:
                break
        if header_count == 0:
            header_count = next((i + 1 for i, row in enumerate(grid)
                                 if any(_text(c).lower() in _LABELS for c in row)), 0)
        if header_count == 0:
            continue
        columns = _columns(_header_names(grid[:header_count]))
        if columns is not None:
            found.append((table, columns, grid[header_count:]))
    return found


def _owning_table(row: Element) -> Element | None:
    parent = row.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent


# --- headings: event fields and sections ----------------------------------------------------

_SECTION = re.compile(r"\bSection\s+([A-Z0-9]{1,3})\b", re.IGNORECASE)
_DIRECTION = re.compile(r"\b(North[- ]South|East[- ]West|N-S|E-W)\b", re.IGNORECASE)
_CLUB = re.compile(r"\b(?:club|bridge cent(?:er|re)|association|society|unit|klub)\b",
                   re.IGNORECASE)


_BLOCKS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "p", "caption", "div", "center",
                     "table", "tr", "td", "th", "li", "ul", "ol", "title", "br", "hr"})
_WEEKDAYS = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day$", re.IGNORECASE)


def _texts_between(doc: Element, tables: Sequence[Element]) -> list[list[str]]:
    """For each ranking table: the text lines after the previous one, then its caption."""
    body = doc.find("body")
    position = {id(t): i for i, t in enumerate(tables)}
    chunks: list[list[str]] = [[] for _ in range(len(tables) + 1)]
    pieces: list[str] = []
    current = 0

    def flush() -> None:
        if line := normalise_space("".join(pieces)):
            chunks[current].append(line)
        pieces.clear()

    def walk(element: Element) -> None:
        nonlocal current
        if not isinstance(element.tag, str) or element.tag in ("script", "style", "head"):
            return
        if id(element) in position:
            flush()
            index = position[id(element)]
            caption = element.find("caption")
            if caption is not None and (text := _text(caption)):
                chunks[index].append(text)
            current = index + 1
            return
        block = element.tag in _BLOCKS
        if block:
            flush()
        pieces.append(element.text or "")
        for child in element:
            walk(child)
            pieces.append(child.tail or "")
        if block:
            flush()

    walk(body if body is not None else doc)
    flush()
    return chunks[: len(tables)]


def _section(lines: Sequence[str]) -> str:
    section = ""
    direction = ""
    for line in lines:
        if not section and (m := _SECTION.search(line)):
            section = m[1].upper()
        if not direction and (m := _DIRECTION.search(line)):
            direction = "NS" if m[1][0] in "nN" else "EW"
    return f"{section} {direction}".strip()


def _is_section_line(line: str) -> bool:
    return bool(_SECTION.search(line) or _DIRECTION.search(line))


@dataclass(frozen=True, slots=True)
class _Heading:
    title: str
    organiser: str
    date_line: str


def _heading(lines: Sequence[str], page_title: str) -> tuple[_Heading, Any]:
    """Title, organiser and the date (a ``DateMatch``) from the heading lines (module doc)."""
    candidates = [line for line in lines if not _is_section_line(line)]
    found = None
    date_line = ""
    for line in [*candidates, page_title]:
        if (found := find_date(line)) is not None:
            date_line = line
            break
    organiser = ""
    title = ""
    for line in candidates:
        text = strip_date(line, found) if found is not None and line == date_line else line
        if not text or _WEEKDAYS.match(text):
            continue
        if not organiser and _CLUB.search(text):
            organiser = text
        elif not title:
            title = text
    if not title and page_title:
        title = strip_date(page_title, found) if found and page_title == date_line \
            else page_title
    return _Heading(title, organiser, date_line), found


# --- rows -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    label: str
    rank_text: str
    strat_texts: tuple[str, ...]
    score: float | None
    players: tuple[PlayerAsWritten, ...]
    phantom: bool


def _players(cell: Element) -> tuple[tuple[PlayerAsWritten, ...], bool]:
    lines = _lines(cell)
    names = lines if len(lines) > 1 else split_names(lines[0], "pairs") if lines else []
    players = tuple(PlayerAsWritten(name=n) for n in names if not NOT_PLAYERS.match(n))
    return players, bool(names) and not players


def _read_rows(
    grid: Sequence[Sequence[Element]], columns: _Columns, table: str, log: IssueLog,
) -> list[_Row]:
    score_column = columns.pct if columns.pct is not None else columns.score
    rows: list[_Row] = []
    for cells in grid:
        texts = [_text(c) for c in cells]
        if not any(texts) or len(cells) < columns.width:
            continue
        if _columns(texts) is not None or texts[columns.label].lower() in _LABELS:
            continue  # a repeated header row
        number = len(rows) + 1
        label = texts[columns.label]
        score: float | None = None
        if score_column is not None:
            try:
                score = parse_decimal(texts[score_column])
            except ValueError:
                log.report(MalformedFile("invalid score; left empty", table=table, row=number,
                                         column=columns.headers[score_column],
                                         value=texts[score_column]))
        players, phantom = _players(cells[columns.names])
        if not players and not phantom:
            log.report(MalformedFile(f"pair {label} has no names", table=table, row=number,
                                     column=columns.headers[columns.names], value=""))
        rows.append(_Row(
            number, label, texts[columns.ranks[0]],
            tuple(texts[i] for i in columns.ranks[1:]), score, players, phantom,
        ))
    if not rows:
        raise MalformedFile("the ranking table has no rows", file=log.file, table=table)
    return rows


def _placed(
    rows: list[_Row], columns: _Columns, table: str, log: IssueLog,
) -> list[tuple[_Row, WrittenPlace | None]]:
    """Rows in ranking order with their written places (module doc, "ties" and "order")."""
    column = columns.headers[columns.ranks[0]]
    ranked = sorted((r for r in rows if r.rank_text.strip(" -")),
                    key=lambda r: rank_number(r.rank_text))
    try:
        read = read_ranks([r.rank_text for r in ranked])
    except ValueError:
        bad = next(r for r in ranked if _bad(r.rank_text))
        raise MalformedFile("invalid rank", file=log.file, table=table, row=bad.number,
                            column=column, value=bad.rank_text) from None
    out: list[tuple[_Row, WrittenPlace | None]] = []
    for row, (written, strats) in zip(ranked, read):
        lower = [str(s) for s in strats] + [t for t in row.strat_texts if t]
        if lower and written is not None:
            log.report(MalformedFile(
                f"pair {row.label}: place {written.first} taken from the first strat; "
                f"lower-strat rank(s) {', '.join(lower)} not used",
                table=table, row=row.number, column=column, value=row.rank_text,
            ), level="info")
        out.append((row, written))
    unranked = sorted((r for r in rows if not r.rank_text.strip(" -")),
                      key=lambda r: (r.score is None, -(r.score or 0.0)))
    for row in unranked:
        position = len(out) + 1
        tied = bool(out) and row.score is not None and out[-1][0].score == row.score
        log.report(MalformedFile(
            f"pair {row.label} has no rank; placed by its score"
            + (" (tied with the pair above)" if tied else f" at {position}"),
            table=table, row=row.number, column=column, value=row.rank_text,
        ), level="info")
        out.append((row, None if tied else WrittenPlace(position, position)))
    return out


def _bad(text: str) -> bool:
    try:
        read_ranks([text])
    except ValueError:
        return True
    return False


def _units(placed: list[tuple[_Row, WrittenPlace | None]], columns: _Columns, table: str,
           log: IssueLog) -> tuple[Unit, ...]:
    column = columns.headers[columns.ranks[0]]
    kept = []
    for row, written in placed:
        if row.phantom:
            log.report(MalformedFile(
                f"pair {row.label} is a phantom/sit-out, not players; kept with its place "
                "and no players", table=table, row=row.number, column="Names", has_value=False,
            ), level="info")
        kept.append((row, written))
    places, problems = shared_places([w for _, w in kept])
    for problem in problems:
        row = kept[problem.index][0]
        log.report(InconsistentResult(problem.message, table=table, row=row.number,
                                      column=column, value=row.rank_text))
    for problem in order_problems(places, [r.score for r, _ in kept]):
        row = kept[problem.index][0]
        log.report(InconsistentResult(f"pair {row.label}: {problem.message}", table=table,
                                      row=row.number, column=column, value=row.rank_text))
    return tuple(
        Unit(place=place, place_text=row.rank_text, label=row.label, score=row.score,
             players=row.players)
        for place, (row, _) in zip(places, kept)
    )


def _scoring(columns: _Columns) -> Scoring:
    if columns.pct is not None:
        return "MP"
    if columns.score is not None and "imp" in columns.headers[columns.score].lower():
        return "IMP"
    return "MP"


# --- parse ----------------------------------------------------------------------------------


def _document(data: bytes, log: IssueLog) -> Element:
    decoded = decode_bytes(data, html_declared_charset(data))
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    try:
        return lxml.html.document_fromstring(decoded.text)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise MalformedFile(f"not readable as HTML ({exc})", file=log.file) from exc


def _sections(tables: int, lines: Sequence[Sequence[str]], log: IssueLog) -> Iterator[str]:
    names = [_section(chunk) for chunk in lines]
    if tables > 1 and len(set(names)) < tables:
        log.report(MalformedFile(
            "several ranking tables without distinct section names; numbered 1, 2, ...",
            value=names,
        ), level="info")
        names = [f"{name} {i}".strip() for i, name in enumerate(names, start=1)]
    yield from names


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per ranking table of a recap page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    doc = _document(data, log)
    found = _ranking_tables(doc)
    if not found:
        raise MalformedFile(
            "no ranking table: no header with Pair, Names, a rank and Pct or Score",
            file=log.file,
        )
    chunks = _texts_between(doc, [t for t, _, _ in found])
    title_element = doc.find(".//title")
    page_title = _text(title_element) if title_element is not None else ""
    heading, date_found = _heading(chunks[0], page_title)
    if date_found is None:
        raise MalformedFile("no event date in the page heading or its <title>",
                            file=log.file, table="heading")
    if not heading.title:
        log.report(MalformedFile("no event title in the page heading", table="heading",
                                 has_value=False))
    events = []
    for (table, columns, grid), section, chunk in zip(
        found, _sections(len(found), chunks, log), chunks,
    ):
        name = f"section {section}" if section else "ranking"
        units = _units(_placed(_read_rows(grid, columns, name, log), columns, name, log),
                       columns, name, log)
        events.append(Event(
            game="bridge", title=heading.title, date=date_found.date, kind="pairs",
            scoring=_scoring(columns), units=units, boards=None, section=section,
            organiser=heading.organiser, format=NAME,
        ))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="Recap page (HTML) from BridgeComposer / ACBLscore: pairs ranking per section",
    detect=detect,
    parse=parse,
)
