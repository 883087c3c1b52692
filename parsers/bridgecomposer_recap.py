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

**Recap text in** ``<pre>`` (BridgeComposer pages): the ACBLscore recap as text, then hand
diagrams (``bchd`` tables) and travellers (``bcst`` tables). The heading lines above the first
ranking give club, title and date as above (``Scores after``/``Average`` lines skipped); a line
``Section  A  North-South`` (or ``East-West``, or ``Section A`` alone) opens a section, a line
``Pair  Pct  Score  Section  Rank  MPs`` (optionally followed by the strat letters ``A  B  C``)
its ranking, and each row reads pair number, percentage, score, ranks, awards (``1.20(A)``) and
the names at the end (``First Last - First Last`` or ``Surname - Surname``). One event per
section and direction. The rank columns list only the award winners of each strat, so a pair's
place is its order by the section percentage (else the score), equal scores sharing the mean of
their places; the strat-A rank (the one under ``A``) is kept as ``place_text``. A ``Player``
header is an individual recap (one name per row). Travellers and hand diagrams are never read:
their pair texts (``1-Alfa-Bravo vs 4-Nora-Oscar``) are not players.

Refused: a BridgeComposer page without a recap (hand records or travellers only:
:class:`MalformedFile`) and a teams recap (``Team`` / ``VPs`` header, Swiss or board-a-match:
:class:`UnsupportedVariant`).

Checks: places against scores and places that do not follow on are warnings
(:class:`InconsistentResult` when strict). Rows in messages count from the table's first
data row (row 1) in the page's order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ._dates import find_date, strip_date
from ._errors import InconsistentResult, MalformedFile, NoResults, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._limits import html_document
from ._model import Event, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, shared_places
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal
from . import acblmerge
from .pbn import NOT_PLAYERS, rank_number, read_ranks, split_names

__all__ = ["FORMAT", "detect", "parse"]

NAME = "bridgecomposer_recap"

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""

# --- detection ------------------------------------------------------------------------------

_CELL = r">\s*(?:<[^>]*>\s*)*{}\s*(?:<[^>]*>\s*)*<"
_PAIR_HEADER = re.compile(_CELL.format(r"Pair(?:\s*(?:No\.?|#))?").encode(), re.IGNORECASE)
_NAMES_HEADER = re.compile(_CELL.format(r"(?:Names?|Players)").encode(), re.IGNORECASE)
_SCORE_HEADER = re.compile(
    _CELL.format(r"(?:Pct\.?|Score|Percentage(?:\s+Score)?|Matchpoint\s+Score)").encode(),
    re.IGNORECASE)
_RANK_HEADER = re.compile(
    _CELL.format(r"(?:(?:Section|Overall)\s+)?(?:Rank|Place|Pos\.?)|Overall").encode(),
    re.IGNORECASE)


def detect(data: bytes, filename: str = "") -> bool:
    """An HTML page with a table header naming Pair, Names, a rank and Pct or Score; or a
    page with an ACBLscore recap text in ``<pre>``; or any BridgeComposer page (those without a
    recap are refused by :func:`parse`, never left to a generic table reader)."""
    head = data[:262144]
    if re.search(rb"<(?:html|body|table|pre)\b", head, re.IGNORECASE) is None:
        return False
    if acblmerge.detect(data, filename):
        return False  # ACBLmerge's page: parsers/acblmerge.py reads its recap
    if re.search(rb"content\s*=\s*[\"']?\s*(?:Magic\s+Contest|(?:https?://)?www\.brenning\.se)", head, re.I):
        return False  # Magic Contest's own page: parsers/magic_contest.py reads it
    if _bc_marked(head) or _has_recap_text(head):
        return True
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
_PCTS = frozenset({"pct", "pct.", "%", "percent", "percentage", "pct %", "percentage score"})
_SCORES = frozenset({"score", "matchpoints", "total", "imps", "score imps", "matchpoint score",
                     "matchpoints score"})
_RANK_GROUP = re.compile(r"^(?:(section|overall) )?(rank|place|pos\.?|position)(?: [a-z])?$|"
                         r"^(section|overall)(?: [a-z])?$")
"""A rank column's stacked header: ``Rank``, ``Rank A``, ``Section Rank B``, ``Overall C``."""
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
    # words a <br> split inside one header cell come joined (``PairNo.``, ``PercentageScore``)
    lowered = [normalise_space(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", h)).lower() for h in headers]

    def find(options: frozenset[str]) -> int | None:
        return next((i for i, h in enumerate(lowered) if h in options), None)

    label, names = find(_LABELS), find(_NAMES)
    pct, score = find(_PCTS), find(_SCORES)
    groups: dict[str, list[int]] = {}
    for i, h in enumerate(lowered):
        match = _RANK_GROUP.match(h)
        if match:
            groups.setdefault(match[1] or match[3] or match[2], []).append(i)
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
    written_ranks = [rank_number(r.rank_text) for r in rows if r.rank_text.strip(" -")]
    if written_ranks and min(written_ranks) > 1 and all(r.score is not None for r in rows):
        # no pair of this table is ranked first: the ranks count a wider field (a section's
        # two directions ranked together for the awards), so the table's own order is its
        # scores', the written rank kept as written
        log.report(MalformedFile(
            f"no pair is ranked 1st (the best rank written is {min(written_ranks)}): the "
            "ranks count a wider field; the pairs are placed by their scores",
            table=table, column=column), level="info")
        by_score = sorted(rows, key=lambda r: -(r.score or 0.0))
        return [(row, None if i and by_score[i - 1].score == row.score
                 else WrittenPlace(i + 1, i + 1)) for i, row in enumerate(by_score)]
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


# --- ACBLscore recap text in <pre> (BridgeComposer pages) -----------------------------------

_BC_MARK = re.compile(rb"bridgecomposer|class\s*=\s*[\"']?bc(?:hd|st|board|body)\b")


def _bc_marked(data: bytes) -> bool:
    """BridgeComposer's name or its ``bc...`` classes (searched in lower case: a
    case-insensitive pattern is several times slower on a 200 KB page)."""
    return _BC_MARK.search(data.lower()) is not None
_PRE = re.compile(rb"<pre\b", re.IGNORECASE)
_PRE_HEADER = re.compile(r"^\s*(Pair|Player|Team)\b.*\b(Pct|Score|VPs?|MPs)\b", re.IGNORECASE)
_PRE_SECTION = re.compile(
    r"\bSection\s+([A-Z0-9]{1,3}(?:\s{1,2}[A-Z0-9]{1,2}){0,3})\s+(North[- ]South|East[- ]West|N-S|E-W)\b"
    r"|\bSection\s+([A-Z0-9]{1,3})\b", re.IGNORECASE)
"""``Section  A  North-South``, ``Section  E F  East-West`` (sections ranked together), or
``Section A`` alone."""
_PRE_DIRECTION = re.compile(r"^\s*(North[- ]South|East[- ]West)\s*$", re.IGNORECASE)
_NAMES_TAIL = re.compile(r"(?:^|\s)([A-Za-z\u00c0-\u024f'][^0-9()\[\]]*?)\s*$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_MARKS_BEFORE_NAMES = re.compile(r"^(?:[A-Z]\s+)?(?:NE\s+)+")
"""The strat letter and the ``NE`` (not eligible) marks a recap row writes in its rank columns
when the pair has no rank; they stand before the names, which are letters too."""
_RANK = re.compile(r"^(?:\d+(?:[/-]\d+)*=?|=\d+)$")
_STRAT = re.compile(r"^[A-Z]$")
_AWARD = re.compile(r"^\d+(?:\.\d+)?(?:\([A-Z]+\)|[A-Z][A-Za-z]*(?:/[A-Z][A-Za-z]*)*)$")
"""A masterpoint award: ``1.20(A)``, ``0.24(SA)``, ``5.25R/B`` (red and black), ``0.36Blk``."""
_QUALIFIER = re.compile(r"^Q{1,3}$")
_NOT_TITLE = re.compile(r"scores? after|average|\btop\b|^\s*[A-C](\s+[A-C])*\s*$|^\s*strat",
                        re.IGNORECASE)
"""Lines of a recap's heading that are not its title: the round and average line, the strat
letters, the strat limits (``Strat A: 0-9999``); a title may name its strats (``MONDAY STRAT
299'ER PAIRS Monday Eve Session June 27, 2011``)."""


def _has_recap_text(data: bytes) -> bool:
    if not _PRE.search(data):
        return False
    text = data.decode("latin-1")
    return any(_PRE_HEADER.match(line) for line in text.splitlines())


@dataclass(frozen=True, slots=True)
class _TextRow:
    number: int
    label: str
    rank_text: str
    pct: float | None
    score: float | None
    names: str


def _text_row(line: str, number: int, has_pct: bool,
              strat_a: tuple[int, int] | None = None) -> _TextRow | None:
    """``  3   58.33  84.00   2   1.50(A)   Ann Lee - Bo Park`` -> a row, None if not a row."""
    match = _NAMES_TAIL.search(line)
    if match is None or not re.match(r"^\s*(?:[A-Z]\s+)?\d{1,3}\s", line):
        return None
    names = normalise_space(match[1])
    marks = _MARKS_BEFORE_NAMES.match(names)
    if marks:  # a pair not eligible for awards: ``A  NE  NE  Karl Mauzey - Robert Wilde``
        names = names[marks.end():]
    spans = [(m[0], m.start(), m.end()) for m in re.finditer(r"\S+", line[: match.start(1)])]
    if len(spans) >= 3 and _STRAT.match(spans[0][0]) and spans[1][0].isdigit():
        # a ranking across sections writes each pair's section before its number (``F  1``)
        spans = [(spans[0][0] + spans[1][0], spans[0][1], spans[1][2]), *spans[2:]]
    elif len(spans) < 2 or not spans[0][0].isdigit():
        return None
    label, rest = spans[0][0], spans[1:]
    numbers: list[float] = []
    ranks: list[str] = []
    for token, start, end in rest:
        if _AWARD.match(token):
            break
        if "." in token and _NUMBER.match(token):
            numbers.append(float(token))
        elif _RANK.match(token) and len(numbers) >= (2 if has_pct else 1):
            if strat_a is None or (start <= strat_a[1] and end >= strat_a[0]):
                ranks.append(token)
        elif _NUMBER.match(token):
            numbers.append(float(token))
        elif token in ("-", "--") or _QUALIFIER.match(token):
            continue  # a qualifier mark (``Q``) of a qualifying game's columns
        elif _STRAT.match(token) and len(numbers) >= (2 if has_pct else 1):
            continue  # the pair's strat (``A   1`` under ``Section Rank``), not a rank
        else:
            return None
    if not numbers:
        return None
    pct = numbers[0] if has_pct and len(numbers) >= 2 else None
    score = numbers[1] if pct is not None else numbers[0]
    return _TextRow(number, label, ranks[0] if ranks else "", pct, score, names)


@dataclass
class _Block:
    section: str
    header: str
    rows: list[_TextRow]
    strat_a: tuple[int, int] | None = None
    """Columns of the first strat rank (under the ``A`` of the ``A B C`` line), if written."""
    rank_column: int = -1
    """Where the header line writes ``Section Rank`` (else ``Rank``); -1 when it does not."""


_STRAT_LINE = re.compile(r"^\s*[A-E](?:\s+[A-E]){0,11}\s*$")
"""The strat letters under the rank headers: ``A  B  C``, or a club's own strats ``C  D  E``,
repeated per group (qualifiers, section rank, overall rank)."""


def _text_blocks(lines: Sequence[str]) -> tuple[list[str], list[_Block]]:
    """The heading lines above the first ranking and the ranking blocks of a recap text."""
    heading: list[str] = []
    blocks: list[_Block] = []
    section = ""
    direction = ""
    current: _Block | None = None
    for line in lines:
        if match := _PRE_SECTION.search(line):
            section = " ".join((match[1] or match[3]).upper().split())
            direction = ""
            if match[2]:
                direction = "NS" if match[2][0] in "nN" else "EW"
            current = None
            continue
        if match := _PRE_DIRECTION.match(line):
            direction = "NS" if match[1][0] in "nN" else "EW"
            current = None
            continue
        if _PRE_HEADER.match(line):
            current = _Block(f"{section} {direction}".strip(), normalise_space(line), [])
            rank_at = re.search(r"Section\s+Rank|Rank", line)
            current.rank_column = rank_at.start() if rank_at else -1
            blocks.append(current)
            continue
        if current is None:
            if not blocks and line.strip():
                heading.append(normalise_space(line))
            continue
        if not line.strip():
            if current.rows:
                current = None
            continue
        if not current.rows and _STRAT_LINE.match(line):
            # the first strat letter under the rank columns (a Qualifiers group may come first)
            letters = [m.start() for m in re.finditer(r"[A-Z]", line)]
            column = next((c for c in letters if c >= current.rank_column - 2), letters[0])
            current.strat_a = (column - 3, column + 3)
            continue
        has_pct = "pct" in current.header.lower() or "%" in current.header
        row = _text_row(line, len(current.rows) + 1, has_pct, current.strat_a)
        if row is not None:
            current.rows.append(row)
    return heading, [b for b in blocks if b.rows]


def _is_teams(block: _Block) -> bool:
    """A team block of a recap: ``Team  Score ...`` or ``Team  VPs ...``."""
    header = block.header.lower()
    return header.startswith("team") or re.search(r"\bvps?\b", header) is not None


def _text_units(block: _Block, table: str, individual: bool,
                log: IssueLog, teams: bool = False) -> tuple[Unit, ...]:
    """Units in order of their section score (the percentage, else the score); equal scores
    share places. The rank written (strat A) is kept as ``place_text``."""
    key = [(r.pct if r.pct is not None else r.score) for r in block.rows]
    order = sorted(range(len(block.rows)), key=lambda i: (key[i] is None, -(key[i] or 0.0)))
    units = []
    position = 0
    for n, index in enumerate(order):
        row = block.rows[index]
        if n == 0 or key[index] != key[order[n - 1]]:
            position = n + 1
        tied = [j for j in order if key[j] == key[index]]
        place = position + (len(tied) - 1) / 2
        names = [row.names] if individual else split_names(row.names,
                                                            "teams" if teams else "pairs")
        players = tuple(PlayerAsWritten(name=nm) for nm in names if not NOT_PLAYERS.match(nm))
        if not players:
            log.report(MalformedFile(f"pair {row.label} has no players (phantom or sit-out)",
                                     table=table, row=row.number, value=row.names),
                       level="info")
        score = row.pct if row.pct is not None else row.score
        units.append(Unit(place=place, place_text=row.rank_text, label=row.label,
                          score=score, players=players))
    return tuple(units)


def _parse_recap_text(doc: Element, page_title: str, log: IssueLog) -> list[Event]:
    """Events from the ACBLscore recap text in the page's ``<pre>`` blocks (module doc)."""
    events: list[Event] = []
    heading: list[str] = []
    blocks: list[_Block] = []
    for pre in doc.iter("pre"):
        lines = pre.text_content().splitlines()
        if not any(_PRE_HEADER.match(line) for line in lines):
            continue
        top, found = _text_blocks(lines)
        if not heading:
            heading = top
        blocks.extend(found)
    if not blocks:
        return []
    for block in blocks:
        if _is_teams(block) and any(len(split_names(r.names, "teams")) < 3 for r in block.rows):
            raise UnsupportedVariant("a teams recap (Swiss or board-a-match) whose teams do not "
                                     "list their players: team results without players are "
                                     "not read", file=log.file, table=f"section {block.section}",
                                     value=block.header)
    lines = [line for line in heading if not _NOT_TITLE.search(line)]
    head, date_found = _heading(lines, page_title)
    if date_found is None:
        raise MalformedFile("no event date in the recap heading or the page <title>",
                            file=log.file, table="heading")
    distinct: list[_Block] = []
    for block in blocks:  # a ranking printed twice (BridgeComposer repeats combined sections)
        if any(b.section == block.section and b.rows == block.rows for b in distinct):
            log.report(MalformedFile(f"the ranking of section {block.section} is printed "
                                     "twice; read once", table="recap"), level="info")
            continue
        distinct.append(block)
    blocks = distinct
    sections = [b.section for b in blocks]
    if len(set(sections)) < len(sections):
        log.report(MalformedFile("several recap rankings without distinct sections; numbered",
                                 value=sections), level="info")
        sections = [f"{s} {i}".strip() for i, s in enumerate(sections, start=1)]
    for block, section in zip(blocks, sections):
        table = f"section {section}" if section else "recap"
        individual = block.header.lower().startswith("player")
        teams = _is_teams(block)
        units = _text_units(block, table, individual, log, teams=teams)
        has_pct = any(r.pct is not None for r in block.rows)
        header = block.header.lower()
        scoring: Scoring = "MP" if has_pct else (
            "IMP" if "imp" in header else "VP" if re.search(r"\bvps?\b", header)
            else "BAM" if teams else "MP")
        events.append(Event(
            game="bridge", title=head.title, date=date_found.date,
            kind="individual" if individual else "teams" if teams else "pairs",
            scoring=scoring, units=units, boards=None, section=section,
            organiser=head.organiser, format=NAME,
        ))
    return events


# --- parse ----------------------------------------------------------------------------------


def _document(data: bytes, log: IssueLog) -> Element:
    decoded = decode_bytes(data, html_declared_charset(data))
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    return html_document(decoded.text, log.file)


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
    title_element = doc.find(".//title")
    page_title = _text(title_element) if title_element is not None else ""
    if not found:
        events = _parse_recap_text(doc, page_title, log)
        if events:
            return ParseResult(format=NAME, events=tuple(events), issues=log.issues)
        if _bc_marked(data[:262144]):
            raise NoResults(
                "a BridgeComposer page without a recap (hand records or travellers only): "
                "no standings to read", file=log.file,
            )
        raise MalformedFile(
            "no ranking table: no header with Pair, Names, a rank and Pct or Score, and no "
            "recap text", file=log.file,
        )
    chunks = _texts_between(doc, [t for t, _, _ in found])
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
