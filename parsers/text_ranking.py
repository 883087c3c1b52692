"""Plain-text rankings: the standings a club or a tournament types, pastes or prints as text.

Many clubs publish a night as a text file and many tournaments as a typed info sheet
(docs/rules/inputs.md, "Files from the field"): a few heading lines (the event, the place, the
dates), then one line per unit::

    12th Cap Gemini World Top Tournament 1998
    15-18 January 1998

    1 Mahmood - Forrester 857
    2 Buratti - Lanzarotti 836
    11 Lauria - Versace 732
       Lévy - Mari 732

The columns are separated by tabs or by runs of spaces (fixed-width prints), or, on a typed line,
by single spaces between the rank, the names and the score; a print that spreads each unit over
three lines (the rank, the names, the score) is read as one line a unit. A line reads as a unit when it
starts with its rank (``1``, ``1.``, ``1)``), optionally the pair's number (``2.``), then the
names and the numbers: the score is the first number with decimals (a percentage), else the
first number after the names. A line without a rank right under a ranked one, with names and a
score, shares the place above (a tie). A **ranking** is a run of at least three such lines whose
ranks start at 1 and follow on (ties repeat or skip as places do) and whose scores never rise;
anything else (a numbered list of names, a schedule, a table of matches) is not one, and a file
without a ranking is not this format's.

Names: one cell is split as a pair is (``Mahmood - Forrester``, ``Rosu & Iancu``: a hyphenated
surname stays whole); several cells are one player each (``Matoianu<TAB>Rosu``). Units of two or
three players are pairs, of one player with a full name individuals, of four or more teams; a
ranking whose units are single words (countries, team names) names no players and is refused.

The event: its date from the heading lines (a day range ``15-18 January 1998``, ``November 6 -
9, 1997`` is dated by its first day; any date ``_dates.find_date`` reads), else from the file
name (``rezultate2006-01-16.txt``); none is a :class:`MalformedFile`. The title is the first
heading line, else the file name. Scoring: MP when the scores are percentages, else unknown.
Several rankings in one file are events of their own, numbered as sections. A web page that
names the scoring program that wrote it (``_grid.PROGRAMS``) is left to that program's own
export, as for the other generic formats; a text print is read whoever printed it (a club's
PairsScorer print is the only copy it publishes).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

from ._dates import MONTHS, find_date
from ._dates import _fold as fold_word
from ._errors import MalformedFile, NoResults
from ._grid import not_a_ranking, program_mark
from ._issues import IssueLog, source_name
from ._model import Event, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import units_by_score
from ._registry import Format
from ._limits import html_document
from ._text import decode_bytes, html_declared_charset, normalise_space
from .names import split_pair

__all__ = ["FORMAT", "detect", "parse"]

NAME = "text_ranking"

_MIN_UNITS = 3
_MAX_LINES = 20000
_MARKUP = re.compile(r"<\s*(?:html|table|body|div|pre|\?xml)\b|\A(?:\ufeff)?[\r\n]*[\[{;%(]|^\s*\w+\|",
                     re.IGNORECASE | re.MULTILINE)
"""Markup, a file that opens with PBN tags or comments, EGD comments or SGF, BBO's LIN
(``pn|...``): other formats'."""
_CELLS = re.compile(r"\t+|\s{2,}")
_NUMBER = re.compile(r"^[+-]?\d{1,6}(?:[.,]\d+)?%?$|^\d{1,3}\.$")
_RULE = re.compile(r"^\s*[-=_*]{3,}\s*$")
_NUMBERS_ONLY = re.compile(r"^[+-]?\d+(?:[.,]\d+)?%?(?:\s+[+-]?\d+(?:[.,]\d+)?%?)+$")
_RANK = re.compile(r"^(\d{1,3})[.)]?$")
_TYPED = re.compile(r"^\s*(\d{1,3})[.)]?\s+(?:(\d{1,3})\.\s+)?(\D+?)\s+([+-]?\d+(?:[.,]\d+)?%?)\s*$")
_TYPED_TIE = re.compile(r"^\s+(\D+?)\s+([+-]?\d+(?:[.,]\d+)?%?)\s*$")
_LETTERS = re.compile(r"[^\W\d_]")
_STRAT = re.compile(r"^[A-F]$")
_MONTH_WORD = r"([^\W\d_]{3,}\.?)"
_DAY_RANGE = re.compile(rf"(?<!\d)(\d{{1,2}})\.?\s*[-\u2013]\s*\d{{1,2}}\.?\s+{_MONTH_WORD},?\s+(\d{{4}})")
_DOTTED_RANGE = re.compile(r"(?<![\d.])(\d{1,2})\.?\s*[-\u2013]\s*\d{1,2}\.(\d{1,2})\.(\d{4})")
_MONTH_RANGE = re.compile(rf"{_MONTH_WORD}\s+(\d{{1,2}})\s*[-\u2013]\s*\d{{1,2}},?\s+(\d{{4}})")


@dataclass(frozen=True, slots=True)
class _Line:
    row: int
    rank: int | None
    names: tuple[str, ...]
    numbers: tuple[str, ...]
    """The line's numbers as written, in order (pair number, scores, points)."""
    label: str = ""
    """The pair's number, on a list that writes numbers instead of ranks."""


@dataclass(frozen=True, slots=True)
class _Block:
    lines: tuple[_Line, ...]
    column: int
    """Which of each line's numbers is the score (module docstring)."""
    teams_header: bool = False
    """The line above the ranking names a team column (``Mannschaft``, ``Team``)."""

    def score(self, line: _Line) -> float | None:
        if len(line.numbers) <= self.column:
            return None
        return _number(line.numbers[self.column])

    @property
    def percent(self) -> bool:
        texts = [ln.numbers[self.column] for ln in self.lines if len(ln.numbers) > self.column]
        return any(t.endswith("%") or re.search(r"[.,]\d", t) for t in texts) \
            and all(0 <= _number(t) <= 100 for t in texts)


def _number(text: str) -> float:
    return float(text.rstrip("%").replace(",", "."))


_NUMBER_WORD = re.compile(r"[+-]?\d+(?:[.,]\d+)?%?(?:[+-]\d+(?:[.,]\d+)?%?)*")
"""A word that is a number (``62.2``, ``-3``, ``55%``), or numbers glued by their signs
(``+3-1``); one way to match each, so a long run of digits costs no backtracking."""
_WORD = re.compile(r"\S+")
_LETTER = re.compile(r"[^\W\d_?]")


def _apart(cell: str) -> list[str]:
    """A cell as columns: numbers one space apart (``94.6 59.1 0``), and names a single
    space before their numbers (``Temistocle Andarache 62.2 38.9``) in a tight print.

    The numbers are the words at the end of the cell that are numbers, read word by word
    from the end (linear in the cell's length); the text before them must have a letter and
    no digit."""
    if _NUMBERS_ONLY.match(cell):
        return cell.split()
    words = list(_WORD.finditer(cell))
    first = len(words)
    while first > 0 and _NUMBER_WORD.fullmatch(words[first - 1][0]):
        first -= 1
    if 0 < first < len(words):
        text = cell[:words[first].start()].strip()
        if _LETTER.search(text) and not any(ch.isdigit() for ch in text):
            return [text, *(w[0] for w in words[first:])]
    return [cell]


def _read_line(row: int, raw: str) -> _Line | None:
    """A unit's line (module docstring), or None."""
    cells = [c.strip() for c in _CELLS.split(raw.strip()) if c.strip()]
    cells = [part for c in cells for part in _apart(c)]
    if cells:  # a rank (``1``) or a pair number (``2.``) one space before the names
        head = re.match(r"^(\d{1,3}[.)]?)\s+(?:(\d{1,3}\.)\s+)?(\D.*)$", cells[0])
        if head and _LETTERS.search(head[3]) and len(cells) >= 2:
            cells = [head[1], *([head[2]] if head[2] else []), head[3], *cells[1:]]
        elif len(cells) >= 2 and re.match(r"^\d{1,3}\.\s+\D", cells[1]):
            number, _, rest = cells[1].partition(" ")
            cells = [cells[0], number, rest.strip(), *cells[2:]]
    typed = _TYPED.match(raw) if len(cells) < 3 else None
    tie = _TYPED_TIE.match(raw) if len(cells) < 3 and typed is None else None
    if typed is not None:
        cells = [typed[1], *([typed[2]] if typed[2] else []), typed[3], typed[4]]
    elif tie is not None:
        cells = [tie[1], tie[2]]
    if not cells:
        return None
    rank_match = _RANK.match(cells[0])
    leading_space = raw[:1].isspace() or raw[:1] == ""
    if rank_match is None and not (leading_space and _LETTERS.search(cells[0])):
        return None
    rest = cells[1:] if rank_match is not None else cells
    names: list[str] = []
    numbers_before: list[str] = []
    numbers_after: list[str] = []
    for cell in rest:
        if _STRAT.match(cell) and (numbers_before or names) and cell is not rest[-1]:
            continue  # a strat or section letter between the numbers (``1474.00  A  10``)
        if _NUMBER.match(cell):
            (numbers_after if names else numbers_before).append(cell)
        elif (_LETTERS.search(cell) and not any(ch.isdigit() for ch in cell)) \
                or cell.strip("?") == "":  # ``?``: a player the scorer did not know
            if numbers_after:
                return None  # names after the scores: not a ranking line
            names.append(normalise_space(cell))
        else:
            return None
    if not names:
        return None
    numbers = [n for n in numbers_before + numbers_after if not n.endswith(".")]
    if rank_match is None and not numbers:
        return None
    players: list[str] = []
    for cell in names:
        players.extend(split_pair(cell, "pairs") if len(names) == 1 else [cell])
    return _Line(row, int(rank_match[1]) if rank_match else None, tuple(players),
                 tuple(numbers))


_ALONE_RANK = re.compile(r"^\s*\d{1,3}[.)]?\s*$")
_ALONE_SCORE = re.compile(r"^\s*[+-]?\d+(?:[.,]\d+)?%?\s*$")


def _joined_records(lines: Sequence[str]) -> list[str]:
    """A print that writes each unit over three lines (the rank, the names, the score): one
    line each, as ``rank<TAB>names<TAB>score`` on the rank's line and blanks for the other two,
    so rows keep their numbers."""
    out = list(lines)
    index = 0
    while index + 2 < len(out):
        rank, names, score = out[index], out[index + 1], out[index + 2]
        if (_ALONE_RANK.match(rank) and names.strip() and _LETTERS.search(names)
                and not any(ch.isdigit() for ch in names) and _ALONE_SCORE.match(score)):
            out[index] = f"{rank.strip()}\t{names.strip()}\t{score.strip()}"
            out[index + 1] = out[index + 2] = ""
            index += 3
        else:
            index += 1
    return out


def _blocks(lines: Sequence[str]) -> list[_Block]:
    """Runs of unit lines that form a ranking (module docstring)."""
    lines = _joined_records(lines)
    blocks: list[_Block] = []
    current: list[_Line] = []

    def close() -> None:
        above = [ln for ln in lines[:current[0].row - 1]
                 if ln.strip() and not _RULE.match(ln)][-1:] if current else []
        header = [c for c in _CELLS.split(above[0].strip())] if above else []
        if current and all(ln.rank is not None for ln in current) and _PAIR_HEADER.match(
                header[0] if header else "") and current[0].rank != 1:
            # a scorer's print in finishing order that writes each pair's number, not its
            # rank (``Pair  Names  MPs  %age``): the order is the ranking, the numbers labels
            current[:] = [_Line(ln.row, None, ln.names, ln.numbers, str(ln.rank))
                          for ln in current]
        column = _score_column(current)
        if column is not None and not_a_ranking(header) is None:
            # (a header above the lines that shows another game's table, won and lost games,
            # a traveller: not a ranking however the numbers run)
            teams = bool(above) and _TEAM_HEADER.search(above[0]) is not None
            blocks.append(_split_run_together(_Block(tuple(current), column, teams)))
        current.clear()

    for row, raw in enumerate(lines[:_MAX_LINES], start=1):
        if not raw.strip():
            continue  # blank lines group a ranking's rows (a new ranking starts at rank 1)
        line = _read_line(row, raw)
        if line is None:
            close()
            continue
        if line.rank is None and not current:
            continue  # a tie line needs a ranked line above it (a numbered list gets its
            # pair numbers back as ranks in close())
        if line.rank == 1 and current:
            close()
        current.append(line)
    close()
    return blocks


def _score_column(lines: Sequence[_Line]) -> int | None:
    """The score column of a run of unit lines that form a ranking, None if they do not: ranks
    from 1 following on, and a column of numbers (on all lines but one at most) that never
    rises; of several, one with decimals (percentages), else the first."""
    if len(lines) < _MIN_UNITS:
        return None
    if all(line.label for line in lines):
        pass  # numbered pairs in finishing order: the scores alone make the ranking
    elif lines[0].rank != 1:
        return None
    previous = 1
    for position, line in enumerate(lines, start=1):
        if line.rank is not None and not (line.rank == position or line.rank == previous):
            return None
        previous = line.rank if line.rank is not None else previous
    candidates = []
    for column in range(max(len(line.numbers) for line in lines)):
        texts = [line.numbers[column] for line in lines if len(line.numbers) > column]
        if len(texts) < len(lines) - 1:
            continue  # ranks alone, or a column most lines leave out
        values = [_number(t) for t in texts]
        if all(a >= b for a, b in zip(values, values[1:])) and len(set(values)) > 1:
            decimals = any(re.search(r"[.,]\d", t) or t.endswith("%") for t in texts)
            candidates.append((not decimals, column))
    return min(candidates)[1] if candidates else None


def _date(heading: Sequence[str], source: str) -> dt.date | None:
    for line in heading:
        dotted = _DOTTED_RANGE.search(line)
        if dotted:
            try:
                return dt.date(int(dotted[3]), int(dotted[2]), int(dotted[1]))
            except ValueError:
                pass
        for pattern, day_at, month_at in ((_DAY_RANGE, 1, 2), (_MONTH_RANGE, 2, 1)):
            match = pattern.search(line)
            month = MONTHS.get(_fold(match[month_at])) if match else None
            if match and month:
                try:
                    return dt.date(int(match[3]), month, int(match[day_at]))
                except ValueError:
                    pass
        found = find_date(line)
        if found is not None:
            return found.date
    stem = PurePath(source).stem if source else ""
    found = find_date(stem.replace("_", " ")) if stem else None
    if found is None and stem:
        compact = re.search(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)", stem)
        if compact:
            try:
                return dt.date(int(compact[1]), int(compact[2]), int(compact[3]))
            except ValueError:
                return None
    return found.date if found else None


def _fold(word: str) -> str:
    """A word as ``_dates.MONTHS`` keys them (lower case, no diacritics), a final dot off."""
    return fold_word(word.rstrip("."))


_CLUB_WORDS = frozenset({"bc", "bk", "ks", "azs", "club", "klub", "team", "tim", "sc", "ac",
                         "fc", "cf", "bridge", "brydz", "bridzs", "lag", "equipe", "squadra",
                         "mannschaft", "druzstvo", "druzyna", "csapat", "united", "city"})
_PAIR_HEADER = re.compile(r"^(?:pair|pair no\.?|pair names|no\.?|nr\.?)$", re.IGNORECASE)
_TEAM_HEADER = re.compile(r"\b(?:team|teams|mannschaft|dru[zž]stv[oa]|dru[zż]yn[ay]|[ée]quipe|"
                          r"squadra|csapat|lag|club|klub)\b", re.IGNORECASE)


def _person(name: str) -> bool:
    """A person's full name: two to four words, no club or team word, no lone letter at the
    end (``Oxford BC A`` is a club's team)."""
    words = name.split()
    if not 2 <= len(words) <= 4 or (len(words[-1]) == 1 and words[-1].isupper()):
        return False
    return not any(_fold(w.strip(".")) in _CLUB_WORDS for w in words)


def _split_run_together(block: _Block) -> _Block:
    """A pairs ranking of two two-word names a unit (``Stefan Iancu / Sergiu Romascu``) where
    some units are one four-word name: two names a fixed-width print ran together."""
    two_by_two = sum(1 for ln in block.lines
                     if len(ln.names) == 2 and all(len(n.split()) == 2 for n in ln.names))
    if two_by_two * 2 < len(block.lines):
        return block
    lines = tuple(
        replace(ln, names=(" ".join(ln.names[0].split()[:2]), " ".join(ln.names[0].split()[2:])))
        if len(ln.names) == 1 and len(ln.names[0].split()) == 4 else ln
        for ln in block.lines)
    return replace(block, lines=lines)


def _kind(block: _Block) -> Kind | None:
    sizes = [len(line.names) for line in block.lines]
    if all(2 <= n <= 3 for n in sizes):
        return "pairs"
    if all(n == 1 for n in sizes):
        if block.teams_header or not all(_person(line.names[0]) for line in block.lines):
            return None  # a team's or a club's name (``Oxford BC A``), not a person's
        return "individual"
    if all(n >= 4 for n in sizes):
        return "teams"
    return "pairs" if sum(2 <= n <= 3 for n in sizes) * 10 >= 9 * len(sizes) else None


def _units(block_: _Block) -> tuple[Unit, ...]:
    block = block_.lines
    if all(line.label for line in block):
        return _units_by_score(block_)
    units: list[Unit] = []
    index = 0
    while index < len(block):
        end = index
        while end + 1 < len(block) and (block[end + 1].rank is None
                                        or block[end + 1].rank == block[index].rank):
            end += 1
        first = block[index].rank or index + 1
        place = first + (end - index) / 2
        text = str(first) if end == index else f"{first}-{first + end - index}"
        for line in block[index:end + 1]:
            units.append(Unit(place=place, place_text=text, label="", score=block_.score(line),
                              players=tuple(PlayerAsWritten(name=n) for n in line.names)))
        index = end + 1
    return tuple(units)


def _units_by_score(block: _Block) -> tuple[Unit, ...]:
    """A numbered list in finishing order: places from the scores, equal scores sharing."""
    return units_by_score([(block.score(line) or 0.0, line.label,
                            tuple(PlayerAsWritten(name=n) for n in line.names))
                           for line in block.lines], place_text=False)


_PAGE = re.compile(rb"<\s*(?:pre|table)\b", re.IGNORECASE)
_BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "table", "br", "ul",
                     "ol", "center", "blockquote", "body", "form"})


def _text(data: bytes) -> str:
    """The text of a text file; of a web page (a club that pastes its scorer's print into a
    ``<pre>`` block, or types its ranking into a table without a header row), the page's text
    a line per block, a table's row a line of its cells apart by tabs, ``<pre>`` as printed."""
    page = _PAGE.search(data[:262144]) is not None
    decoded = decode_bytes(data, html_declared_charset(data) if page else None).text
    if not page:
        return decoded
    try:
        doc = html_document(decoded)
    except MalformedFile:
        return ""
    lines: list[str] = []
    buffer: list[str] = []

    def flush() -> None:
        line = normalise_space(" ".join(buffer))
        if line:
            lines.append(line)
        buffer.clear()

    def walk(element: object, depth: int = 0) -> None:
        tag = getattr(element, "tag", None)
        if not isinstance(tag, str) or tag in ("script", "style", "head") and tag != "title":
            return
        if tag == "tr" and element.find(".//table") is None \
                and element.find(".//pre") is None:  # type: ignore[attr-defined]
            flush()
            cells = [normalise_space(c.text_content()) for c in element  # type: ignore[attr-defined]
                     if isinstance(c.tag, str) and c.tag in ("td", "th")]
            lines.append("\t".join(cells))
            return
        if tag == "pre":
            flush()
            lines.extend(element.text_content().splitlines())  # type: ignore[attr-defined]
            return
        block = tag in _BLOCKS
        if block:
            flush()
        buffer.append(element.text or "")  # type: ignore[attr-defined]
        for child in element:  # type: ignore[attr-defined]
            walk(child, depth + 1)
            buffer.append(child.tail or "")
        if block:
            flush()

    title = doc.find(".//title")
    if title is not None:
        lines.append(normalise_space(title.text_content()))
    body = doc.find(".//body")
    walk(body if body is not None else doc)
    flush()
    return "\n".join(lines)


def _text_head(data: bytes) -> str:
    return decode_bytes(data[:65536]).text


def detect(data: bytes, filename: str = "") -> bool:
    """Text (no markup, no binary) holding a ranking of at least three lines."""
    head = data[:262144]
    if b"\x00" in head:
        return False
    page = _PAGE.search(head) is not None
    text = _text(head)
    if not page and _MARKUP.search(text[:4096]):
        return False
    if page:
        from .html_tables import detect as tables_detect

        if tables_detect(data, filename):
            return False  # a page with a results table: the table reader's
    if page and program_mark(_text_head(data)) is not None:
        return False  # a scoring program's page: read from the program's own export
    from .spreadsheet import detect as spreadsheet_detect

    if spreadsheet_detect(data, filename):
        return False  # a delimited file with a results header: the spreadsheet reader's
    return any(_kind(block) for block in _blocks(text.splitlines()))


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per ranking of the text; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = _text(data)
    lines = text.splitlines()
    blocks = _blocks(lines)
    if not blocks:
        raise NoResults("no ranking in the text (lines of a rank, names and a score, at least "
                        "three, ranks from 1 following on and scores never rising)",
                        file=log.file)
    kept = []
    for block in blocks:
        kind = _kind(block)
        if kind is None:
            log.report(MalformedFile(
                "a ranking whose units are single words (teams or countries by name), not "
                "players; left out", row=block.lines[0].row,
                value=" / ".join(block.lines[0].names)))
            continue
        kept.append((block, kind))
    if not kept:
        raise NoResults("the text's rankings name teams or countries, not players",
                        file=log.file, row=blocks[0].lines[0].row,
                        value=" / ".join(blocks[0].lines[0].names))
    first_row = kept[0][0].lines[0].row
    heading = [normalise_space(line) for line in lines[:first_row - 1] if line.strip()][:15]
    date = _date(heading, source)
    title = heading[0] if heading else (PurePath(source).stem if source else "ranking")
    events = []
    previous_end = 0
    for number, (block, kind) in enumerate(kept, start=1):
        # a page of several nights heads each ranking with its own day
        own = [normalise_space(line) for line in lines[previous_end:block.lines[0].row - 1]
               if line.strip()][-4:]
        previous_end = block.lines[-1].row
        day = _date(own, "") if number > 1 or not heading else None
        day = day or date
        if day is None:
            raise MalformedFile("no event date in the heading lines or the file name",
                                file=log.file, table="heading")
        scoring: Scoring = "MP" if block.percent else "unknown"
        events.append(Event(
            game="bridge", title=title, date=day, kind=kind, scoring=scoring,
            units=_units(block), section=str(number) if len(kept) > 1 else "", organiser="",
            format=NAME, boards=None))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="plain-text rankings (typed, pasted or printed): rank, names, score per line",
    detect=detect,
    parse=parse,
    fallback=True,
)
