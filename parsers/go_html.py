"""HTML cross tables of go tournaments (OpenGotha standings, Russian, Czech/Slovak, Polish pages).

A go cross table has one row per player and one column per round (docs/rules/inputs.md, "Other
games"): a header with the player's number or place, the name, grade, club and round columns
``1``, ``2``, ... (``R 1``, ``1 тур``, ``1. kolo``, ``Runda 1``); each round cell names the
opponent, the result and optionally colour and handicap. Two cell grammars are read:

- the EGD grammar of OpenGotha, MacMahon and the EGD (``12+/w3``, ``5-/b``, ``7=``, ``12+w3``;
  ``?`` result not known, ``!`` by default), see ``egd_table``;
- the Russian short form ``12+`` / ``12-`` / ``12=``, optionally with the colour in Cyrillic
  (``12+ч`` black, ``12-б`` white).

``0+`` / ``0-`` / ``0=``, ``-``, ``—`` and an empty cell are rounds without a game (bye,
absence). A cell that reads as neither is an issue naming table, row, column and value, and is
left out.

Opponents are referred to by the ``Num`` / ``№`` / ``Nr`` column when there is one (OpenGotha's
standings leave the ``Pl`` place blank for tied players), else by the place column when its
numbers are unique, else by the row's position in the table.

Each game is listed twice; ``egd_table.cross_table_events`` emits it once and checks the halves
(an ``InconsistentResult`` names the row and round column of the first half).

Grades: the ``Grade`` / ``Rank`` / ``Str`` / ``Level`` / ``Разряд`` column, when some of its
cells read as grades (``2d``, ``12k``, ``2д``; ``go_grades``), is the grade each player
declared; a cell that does not read is a warning and the player is kept without a grade.

Names: the grade (``Grade``, ``Rank``, ``Str``, ``Level``) and club columns are never the name;
``_`` joins the parts of one name as in the EGD files (``le_Calve`` is ``le Calve``); a bracket
left open at the end is a nickname the program cut off at its name width
(``Perez-Lopez Antonina (Tonya`` is ``Perez-Lopez Antonina``). A row whose name is only
placeholders (``? ??``) or a seat filler (``Ghost 1``, ``Bye``) is no player: their games are
left out with a warning.

**Game lists** (club pages that print each round's games instead of a cross table): a leaf table
whose header names a ``White`` and a ``Black`` column (``Blanc``/``Noir``, ``Weiß``/``Schwarz``,
``Белые``/``Чёрные``, ``Biały``/``Czarny``, ``Bílý``/``Černý``) and a result column (``Wins``,
``Winner``, ``Result``, ``Won``, ...) whose cells say who won: ``White``/``Black``, ``W``/``B``,
``W+``/``B+R``/``B+3.5`` (the go notation), ``jigo``/``draw``/``=`` for a draw. A ``Handicap``
column gives the stones. Each row is one game; the players are known by their names, a grade
written after the name (``Liang, Jie 8D``) is the grade they declared. The round is the
``Round N`` heading above the table (``Runde``, ``Ronde``, ``Тур``, ``Runda``, ``Kolo``), a
``Round`` column, else the table's order. A row whose result cell says nothing known is left out
with a note.

OpenGotha's other pages (games list of a round, players list, teams list, team standings) carry
its footer and are recognised so they are refused by name rather than left unknown. A cross table
on which no game has a result yet (every round cell empty, a bye or ``?``) is refused too.

The tournament: the name is the page's ``<h1>`` (else ``<title>``); the date is the first date
written outside the tables (title, headings, paragraphs: ``12.3.2023``, ``2023-03-12``,
``12 марта 2023`` is not read - write the date with digits). A page with no date there but
with OpenGotha's footer (``OpenGotha 3.45<br>15-09-2017 18:27``) is dated by that export stamp
with a warning, unless the title names one year and the stamp is later (``EGC2013main``
exported in 2017): then the page was exported after the tournament and is refused, its day
being unknown (a title with several years, ``Memorial 1940-2010``, is no such evidence).
A page with no date at all is a ``MalformedFile``. Rounds have no dates of their
own here: every game is dated on the tournament's day, said in an info issue.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from ._dates import find_date
from ._errors import MalformedFile, NoResults
from ._gate import filler_reason
from ._issues import IssueLog, source_name
from ._limits import LimitExceeded, html_document, page_document
from ._model import ParseResult, PlayerAsWritten
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space
from .go_grades import declared, read_grade
from .egd_table import (
    Colour,
    CrossPlayer,
    HalfGame,
    Tournament,
    cross_table_events,
    parse_result_token,
)

__all__ = ["FORMAT", "absent_reason", "clean_name", "detect", "parse", "read_cell"]

NAME = "go_html"

Element = Any
"""An ``lxml.html`` element (lxml ships no type information)."""

_NUMBER_HEADERS = frozenset({"num", "no", "nr", "n", "№", "#", "c", "st c", "start"})
_PLACE_HEADERS = frozenset({
    "pl", "place", "pos", "место", "м", "miejsce", "m", "poradie", "por", "porad", "umiestnenie",
    "umist", "umisteni", "misto",
})
_NAME_WORDS = ("name", "имя", "фамилия", "игрок", "участник", "jmeno", "meno", "hrac", "nazwisko",
               "imie", "gracz", "zawodnik", "player", "priezvisko", "prijmeni")
_CLUB_HEADERS = frozenset({"club", "cl", "клуб", "город", "klub", "oddil", "mesto", "miasto",
                           "city", "town"})
_PIN_HEADERS = frozenset({"egd", "pin", "egf", "egd pin", "egf pin"})
_GRADE_HEADERS = frozenset({"grade", "rank", "rk", "str", "level", "разряд", "ранг", "sila",
                            "stopien", "kyu/dan"})
_ROUND = re.compile(
    r"^(?:r|round|тур|kolo|runda|k)?\s*(\d{1,2})\s*(?:r|тур|kolo|runda|k|kolo)?$"
)
_BYES = frozenset({"", "0+", "0-", "0=", "-", "\u2013", "\u2014", "x", "bye", "0"})
_CYRILLIC_COLOURS = str.maketrans({"ч": "b", "Ч": "b", "б": "w", "Б": "w"})
_KOMI = re.compile(r"(?:komi|коми)\s*[:=]?\s*(\d{1,2}(?:[.,]5)?)", re.IGNORECASE)
_OPENGOTHA_STAMP = re.compile(r"OpenGotha[\s\d.]*?(\d{2})-(\d{2})-(\d{4})\s+\d{1,2}:\d{2}")
_SKIPPED = frozenset({"script", "style", "head", "title", "noscript", "table"})
_OPENGOTHA_FOOTER = re.compile(
    rb"OpenGotha\s*\d+(?:\.\d+)*\s*<br\s*/?>\s*\d{2}-\d{2}-\d{4}", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_UNCLOSED = re.compile(r"\s*[(\[][^)\]]*$")
_NUMBERED = re.compile(r"\s*\d{1,3}$")


def _fold(text: str) -> str:
    """Lower case, no diacritics (``й`` -> ``и``, ``№`` -> ``no``), no dots or colons."""
    decomposed = unicodedata.normalize("NFKD", normalise_space(text))
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    return normalise_space(re.sub(r"[.:]", " ", kept))


def read_cell(text: str) -> tuple[int, str, Colour | None, int | None, bool] | None:
    """A round cell -> (opponent, result, colour, handicap, by default); opponent 0 = no game.

    None when the cell is neither a result nor a bye. ``12+ч`` reads as ``12+b``.
    """
    compact = "".join(normalise_space(text).split())
    if compact.lower() in _BYES:
        return 0, "-", None, None, False
    return parse_result_token(compact.translate(_CYRILLIC_COLOURS))


# --- tables ---------------------------------------------------------------------------------


def _cell_text(cell: Element) -> str:
    return normalise_space(cell.text_content())


def _span(cell: Element) -> int:
    try:
        return max(1, min(int(cell.get("colspan") or 1), 50))
    except ValueError:
        return 1


def _rows(table: Element, limit: int | None = None) -> list[list[str]]:
    """The rows of a table as texts; cells written straight into ``<table>`` form a row.
    ``limit``: only the first rows (a header is looked for before the whole table is read)."""
    rows: list[list[str]] = []
    loose: list[str] = []

    def visit(parent: Element) -> None:
        for child in parent:
            if limit is not None and len(rows) >= limit:
                return
            if not isinstance(child.tag, str):
                continue
            if child.tag in ("thead", "tbody", "tfoot"):
                visit(child)
            elif child.tag == "tr":
                if loose:
                    rows.append(loose.copy())
                    loose.clear()
                row: list[str] = []
                for cell in child:
                    if isinstance(cell.tag, str) and cell.tag in ("td", "th"):
                        row.extend([_cell_text(cell)] * _span(cell))
                rows.append(row)
            elif child.tag in ("td", "th"):
                loose.extend([_cell_text(child)] * _span(child))

    visit(table)
    if loose:
        rows.insert(0, loose)
    return rows


@dataclass(frozen=True, slots=True)
class _Header:
    """Where the columns of a go cross table are."""

    at: int
    """Index of the header row."""
    names: Sequence[str]
    name: int
    rounds: dict[int, int]
    """Round number -> column index."""
    number: int | None
    place: int | None
    club: int | None
    pin: int | None
    grade: int | None = None
    """The column of the declared grade, when the header has one (taken only if some of its
    cells read as grades: a ``Rank`` column may hold places)."""


def _header(row: Sequence[str], at: int) -> _Header | None:
    folded = [_fold(text) for text in row]
    name = next((i for i, f in enumerate(folded) if any(w in f for w in _NAME_WORDS)), None)
    rounds: dict[int, int] = {}
    for i, f in enumerate(folded):
        match = _ROUND.match(f)
        if match and i != name and f not in _NUMBER_HEADERS:
            rounds.setdefault(int(match[1]), i)
    if name is None or not rounds:
        return None

    def find(headers: frozenset[str]) -> int | None:
        return next((i for i, f in enumerate(folded) if f in headers), None)

    return _Header(at=at, names=row, name=name, rounds=rounds, number=find(_NUMBER_HEADERS),
                   place=find(_PLACE_HEADERS), club=find(_CLUB_HEADERS), pin=find(_PIN_HEADERS),
                   grade=find(_GRADE_HEADERS))


@dataclass(frozen=True, slots=True)
class _GoTable:
    label: str
    header: _Header
    rows: list[list[str]]


def _go_tables(doc: Element) -> Iterator[_GoTable]:
    """Leaf tables whose header is a go cross table's and whose round cells read as results."""
    count = 0
    for table in doc.iter("table"):
        if table.find(".//table") is not None:
            continue
        count += 1
        if not any(_header(row, at) for at, row in enumerate(_rows(table, limit=5))):
            continue  # no cross-table header in its first rows: the rest is not read
        rows = _rows(table)
        header = next((h for at, row in enumerate(rows[:5])
                       if (h := _header(row, at)) is not None), None)
        if header is None:
            continue
        cells = [row[c] for row in rows[header.at + 1:] for c in header.rounds.values()
                 if c < len(row) and row[c]]
        parsed = [read_cell(text) for text in cells]
        games = sum(1 for p in parsed if p is not None and p[0] > 0)
        if games >= 2 and 2 * sum(1 for p in parsed if p is not None) >= len(parsed):
            yield _GoTable(str(count), header, rows)


def _has_cross_table_header(doc: Element) -> bool:
    """A leaf table with a go cross table's header (name and round columns), games or not."""
    for table in doc.iter("table"):
        if table.find(".//table") is None and any(
                _header(row, at) is not None for at, row in enumerate(_rows(table)[:5])):
            return True
    return False


_WHITE_WORDS = tuple(w.encode() for w in (
    "white", "blanc", "weiss", "weiß", "wit", "белые", "bial", "biał", "bily", "bilý", "bíly",
    "bílý", "biel", "bianco", "blanco"))
"""Words for White (their bytes, in ASCII lower case): only a page with one somewhere is
asked for game lists."""


def _white_word(data: bytes) -> bool:
    """A word for White somewhere in the page (plain substring tests on the lowered bytes:
    a page of many megabytes is searched in milliseconds)."""
    low = data.lower()
    return any(word in low for word in _WHITE_WORDS)
_WHITE_HEADERS = frozenset({"white", "w", "blanc", "weiss", "weiß", "wit", "белые", "белый",
                            "bialy", "biale", "bily", "biely", "bianco", "blanco"})
_BLACK_HEADERS = frozenset({"black", "b", "noir", "schwarz", "zwart", "черные", "черный",
                            "czarny", "czarne", "cerny", "cierny", "nero", "negro"})
_RESULT_HEADERS = frozenset({"wins", "winner", "won", "result", "res", "resultat", "ergebnis",
                             "sieger", "gewinner", "vainqueur", "gagnant", "uitslag", "winnaar",
                             "результат", "победитель", "wynik", "zwyciezca", "vysledek",
                             "vitez", "vitaz", "vincitore", "ganador"})
_HANDICAP_HEADERS = frozenset({"handicap", "hc", "hcp", "h", "stones", "фора", "handi"})
_ROUND_COLUMN = frozenset({"round", "rd", "r", "runde", "ronde", "тур", "runda", "kolo"})
_ROUND_HEADING = re.compile(
    r"^(?:round|runde|ronde|тур|runda|kolo|tour)\s*(\d{1,2})\b|^(\d{1,2})(?:st|nd|rd|th|\.)?\s*"
    r"(?:round|runde|ronde|тур|runda|kolo|tour)\b", re.IGNORECASE)
_WHITE_WON = re.compile(r"^(?:white|w|blanc|weiss|weiß|wit|белые|bialy|biale|bily|biely|bianco|"
                        r"blanco)$|^w\s*\+", re.IGNORECASE)
_BLACK_WON = re.compile(r"^(?:black|b|noir|schwarz|zwart|черные|czarny|czarne|cerny|cierny|nero|"
                        r"negro)$|^b\s*\+", re.IGNORECASE)
_DRAWN = frozenset({"jigo", "draw", "=", "½-½", "1/2", "0.5-0.5", "remis", "ничья"})
_TRAILING_GRADE = re.compile(r"^(.*?\S)\s*[(\[]?\s*(\d{1,2}\s*(?:[kdp]|kyu|dan))\s*[)\]]?$",
                             re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _GameList:
    """A table of games (one row each) and where its columns are."""

    label: str
    round: int
    rows: list[list[str]]
    at: int
    white: int
    black: int
    result: int
    handicap: int | None
    round_column: int | None


def _game_list_header(row: Sequence[str]) -> tuple[int, int, int, int | None, int | None] | None:
    folded = [_fold(text) for text in row]

    def find(headers: frozenset[str]) -> int | None:
        return next((i for i, f in enumerate(folded) if f in headers), None)

    white, black, result = find(_WHITE_HEADERS), find(_BLACK_HEADERS), find(_RESULT_HEADERS)
    if white is None or black is None or result is None or len({white, black, result}) < 3:
        return None
    return white, black, result, find(_HANDICAP_HEADERS), find(_ROUND_COLUMN)


def _winner(text: str) -> str | None:
    """``"white"``, ``"black"``, ``"draw"`` or None (nothing known) for a result cell."""
    compact = normalise_space(text)
    if _fold(compact) in _DRAWN or compact.lower() in _DRAWN:
        return "draw"
    if _WHITE_WON.match(compact) or _WHITE_WON.match(_fold(compact)):
        return "white"
    if _BLACK_WON.match(compact) or _BLACK_WON.match(_fold(compact)):
        return "black"
    return None


def _game_lists(doc: Element) -> list[_GameList]:
    """The game-list tables of a page in document order, each with its round (module doc)."""
    found: list[_GameList] = []
    used: set[int] = set()
    state = {"round": None, "count": 0}

    def heading(text: str | None) -> None:
        match = _ROUND_HEADING.match(normalise_space(text or ""))
        if match:
            state["round"] = int(match[1] or match[2])

    def table(element: Element) -> None:
        state["count"] += 1
        if not any(_game_list_header(row) for row in _rows(element, limit=3)):
            return
        rows = _rows(element)
        header = next(((at, h) for at, row in enumerate(rows[:3])
                       if (h := _game_list_header(row)) is not None), None)
        if header is None:
            return
        at, (white, black, result, handicap, round_column) = header
        if not any(_winner(_cell(row, result)) is not None for row in rows[at + 1:]):
            return
        written = state["round"]
        round_ = written if written is not None and written not in used \
            else max(used, default=0) + 1
        used.add(round_)
        found.append(_GameList(str(state["count"]), round_, rows, at, white, black, result,
                               handicap, round_column))

    def walk(element: Element) -> None:  # headings outside tables, leaf tables in order
        for child in element:
            if not isinstance(child.tag, str):
                heading(child.tail)
                continue
            if child.tag == "table":
                if child.find(".//table") is None:
                    table(child)
                else:
                    walk(child)
            else:
                heading(child.text)
                walk(child)
            heading(child.tail)

    walk(doc)
    return found if sum(len(t.rows) - t.at - 1 for t in found) >= 2 else []


def _split_grade(text: str) -> tuple[str, str]:
    """``"Liang, Jie 8D"`` -> (``"Liang, Jie"``, ``"8D"``); a name without one keeps it all."""
    match = _TRAILING_GRADE.match(normalise_space(text))
    if match and read_grade(match[2].replace(" ", "")):
        return match[1].rstrip(" ,"), match[2].replace(" ", "")
    return normalise_space(text), ""


def _read_game_lists(tables: Sequence[_GameList], log: IssueLog
                     ) -> tuple[list[CrossPlayer], list[HalfGame]]:
    """Players numbered by their names' first appearance, and both halves of every game."""
    numbers: dict[str, int] = {}
    players: list[CrossPlayer] = []
    halves: list[HalfGame] = []
    absent: set[int] = set()

    def number(text: str, table: _GameList, row_no: int, column: int) -> int:
        name, grade = _split_grade(clean_name(text))
        key = _fold(name)
        if key not in numbers:
            numbers[key] = len(numbers) + 1
            player = PlayerAsWritten(name=name)
            why = absent_reason(name)
            if why is not None:
                absent.add(numbers[key])
                log.report(MalformedFile(f"{name!r} {why}, not a player; their games are left "
                                         "out", table=table.label, row=row_no,
                                         column=table.rows[table.at][column], value=text))
            elif grade:
                player = declared(player, grade, log, where=table.label, row=row_no)
            players.append(CrossPlayer(numbers[key], player, row_no))
        return numbers[key]

    for table in tables:
        header = table.rows[table.at]
        for index, row in enumerate(table.rows[table.at + 1:], start=table.at + 2):
            white_text, black_text = _cell(row, table.white), _cell(row, table.black)
            if not white_text or not black_text or _fold(white_text) == _fold(header[table.white]):
                continue
            result_text = _cell(row, table.result)
            winner = _winner(result_text)
            if winner is None:
                log.report(MalformedFile("result not known (neither White nor Black won); game "
                                         "left out", table=table.label, row=index,
                                         column=header[table.result], value=result_text),
                           level="info" if not result_text else "warning")
                continue
            round_ = table.round
            if table.round_column is not None:
                written = _cell(row, table.round_column).rstrip(".")
                round_ = int(written) if written.isdigit() else round_
            stones_text = _cell(row, table.handicap)
            stones = int(stones_text) if stones_text.isdigit() and int(stones_text) <= 9 else 0
            w = number(white_text, table, index, table.white)
            b = number(black_text, table, index, table.black)
            results = {"white": ("+", "-"), "black": ("-", "+"), "draw": ("=", "=")}[winner]
            for me, them, colour, result in ((w, b, "white", results[0]),
                                             (b, w, "black", results[1])):
                halves.append(HalfGame(
                    number=me, round=round_, opponent=them, result=result, colour=colour,
                    handicap=stones, forfeit=False, text=result_text, row=index,
                    column=header[table.result], table=table.label))
    halves = [h for h in halves if h.number not in absent and h.opponent not in absent]
    return [p for p in players if p.number not in absent], halves


# --- page -----------------------------------------------------------------------------------


def _document(text: str) -> Element | None:
    try:
        return html_document(text)
    except LimitExceeded:
        raise
    except MalformedFile:
        return None


def _page_lines(doc: Element) -> list[str]:
    """Text lines outside tables, in document order, the ``<title>`` last."""
    parts: list[str] = []

    def walk(node: Element) -> None:
        parts.append(node.text or "")
        for child in node:
            if isinstance(child.tag, str) and child.tag not in _SKIPPED:
                parts.append("\n")
                walk(child)
                parts.append("\n")
            elif isinstance(child.tag, str) and child.tag == "table":
                parts.append("\n")
            parts.append(child.tail or "")

    body = doc.find(".//body")
    walk(body if body is not None else doc)
    lines = [normalise_space(line) for line in "".join(parts).split("\n")]
    title = doc.find(".//title")
    if title is not None:
        lines.append(normalise_space(title.text_content()))
    return [line for line in lines if line]


def _name(doc: Element, lines: Sequence[str], source: str) -> str:
    for path in (".//h1", ".//h2", ".//title"):
        element = doc.find(path)
        if element is not None and normalise_space(element.text_content()):
            return normalise_space(element.text_content())
    return lines[0] if lines else PurePath(source).stem


def _date(lines: Sequence[str], raw: str, name: str, log: IssueLog) -> dt.date:
    for line in lines:
        if _OPENGOTHA_STAMP.search(line):
            continue
        found = find_date(line)
        if found is not None:
            return found.date
    stamp = _OPENGOTHA_STAMP.search(" ".join(lines)) or _OPENGOTHA_STAMP.search(raw)
    if stamp is not None:
        date: dt.date | None
        try:
            date = dt.date(int(stamp[3]), int(stamp[2]), int(stamp[1]))
        except ValueError:
            date = None
        years = {int(y) for y in _YEAR.findall(name)}
        if date is not None and len(years) == 1 and date.year > min(years):
            raise MalformedFile(
                f"no tournament date on the page, and OpenGotha's export time stamp "
                f"({date.isoformat()}) is later than the year the title names "
                f"({min(years)}): the page was exported after the tournament, so its day is "
                "unknown", file=log.file, value=stamp[0])
        if date is not None:
            log.report(MalformedFile(
                "no tournament date on the page; dated by OpenGotha's export time stamp",
                value=stamp[0]))
            return date
    raise MalformedFile("no tournament date on the page (title, headings or text)",
                        file=log.file)


def _komi(lines: Sequence[str]) -> float | None:
    for line in lines:
        match = _KOMI.search(line)
        if match:
            return float(match[1].replace(",", "."))
    return None


# --- rows -> players and halves -------------------------------------------------------------


def _cell(row: Sequence[str], index: int | None) -> str:
    return row[index] if index is not None and index < len(row) else ""


def _numbers(table: _GoTable, data: Sequence[tuple[int, list[str]]], log: IssueLog) -> list[int]:
    """The number each data row is referred to by (module docstring)."""
    header = table.header
    if header.number is not None:
        column = header.number
    elif header.place is not None:
        column = header.place
    else:
        column = None
    if column is not None:
        texts = [_cell(row, column).rstrip(".") for _, row in data]
        if all(t.isdigit() for t in texts) and len(set(texts)) == len(texts):
            return [int(t) for t in texts]
        log.report(MalformedFile(
            f"column {header.names[column]!r} does not number the players uniquely; "
            "opponents read as row positions", table=table.label), level="info")
    return list(range(1, len(data) + 1))


def clean_name(text: str) -> str:
    """A name as the table writes it, made readable: ``_`` joins parts of one name (the EGD
    convention: ``le_Calve`` is ``le Calve``), and a bracket left open at the end is a nickname
    the program cut off at its name width (``Perez-Lopez Antonina (Tonya``): dropped."""
    name = normalise_space(text.replace("_", " "))
    if name.count("(") > name.count(")") or name.count("[") > name.count("]"):
        name = _UNCLOSED.sub("", name)
    return normalise_space(name)


def absent_reason(name: str) -> str | None:
    """Why a row's name is no player: placeholders only (``? ??``) or a seat filler, numbered
    or not (``Ghost 1``, ``Bye``); None for a name."""
    if not any(ch.isalpha() for ch in name):
        return "has no name (only placeholders)"
    filler = filler_reason(name) or filler_reason(_NUMBERED.sub("", name))
    return f"is {filler}" if filler else None


def _player(table: _GoTable, row: Sequence[str], row_no: int, grades: bool,
            log: IssueLog) -> PlayerAsWritten:
    header = table.header
    player = PlayerAsWritten(
        name=clean_name(_cell(row, header.name)), federation_id=_cell(row, header.pin) or None,
        club=_cell(row, header.club) or None,
    )
    if not grades or absent_reason(player.name) is not None:
        return player
    return declared(player, _cell(row, header.grade), log, where=table.label, row=row_no)


def _has_grades(table: _GoTable, data: Sequence[tuple[int, list[str]]]) -> bool:
    """Whether the table's grade column holds grades (some cell reads as one)."""
    column = table.header.grade
    return column is not None and any(read_grade(_cell(row, column)) for _, row in data)


def _data_rows(table: _GoTable) -> list[tuple[int, list[str]]]:
    """(1-based row in the table, cells) of the player rows: a name and a round cell."""
    header = table.header
    first_round = min(header.rounds.values())
    return [
        (index + 1, row) for index, row in enumerate(table.rows)
        if index > header.at and _cell(row, header.name) and len(row) > first_round
        and _fold(_cell(row, header.name)) != _fold(header.names[header.name])
    ]


def _read_table(table: _GoTable, log: IssueLog) -> tuple[list[CrossPlayer], list[HalfGame]]:
    data = _data_rows(table)
    numbers = _numbers(table, data, log)
    players: list[CrossPlayer] = []
    halves: list[HalfGame] = []
    absent: set[int] = set()
    grades = _has_grades(table, data)
    for number, (row_no, row) in zip(numbers, data):
        player = _player(table, row, row_no, grades, log)
        why = absent_reason(player.name)
        if why is not None:
            absent.add(number)
            log.report(MalformedFile(
                f"player {number} {why}, not a player; their games are left out",
                table=table.label, row=row_no, column=table.header.names[table.header.name],
                value=_cell(row, table.header.name)))
            continue
        players.append(CrossPlayer(number, player, row_no))
        for round_, column in sorted(table.header.rounds.items()):
            text = _cell(row, column)
            parsed = read_cell(text)
            name = table.header.names[column] or f"round {round_}"
            if parsed is None:
                log.report(MalformedFile(
                    f"round {round_}: cell is not a go result (like 12+/w3 or 12+); ignored",
                    table=table.label, row=row_no, column=name, value=text))
                continue
            opponent, result, colour, handicap, forfeit = parsed
            halves.append(HalfGame(
                number=number, round=round_, opponent=opponent, result=result, colour=colour,
                handicap=handicap, forfeit=forfeit, text=text, row=row_no, column=name,
                table=table.label,
            ))
    return players, [h for h in halves if h.number not in absent and h.opponent not in absent]


# --- format ---------------------------------------------------------------------------------


def _decoded(data: bytes) -> tuple[str, str]:
    decoded = decode_bytes(data, html_declared_charset(data))
    return decoded.text, decoded.note


def _opengotha_page(data: bytes) -> bool:
    """A page OpenGotha exported: its footer carries the program's version and export time."""
    return _OPENGOTHA_FOOTER.search(data[-4000:]) is not None


def _what_page(doc: Element | None) -> str:
    """What an OpenGotha page without a cross table is, from its headings."""
    headings = [normalise_space(h.text_content()) for h in doc.iter("h1", "h2")] \
        if doc is not None else []
    kind = headings[1] if len(headings) > 1 else ""
    return f" ({kind!r})" if kind else ""


def detect(data: bytes, filename: str = "") -> bool:
    """An HTML page with a go cross table (round columns whose cells read as go results), or
    any page OpenGotha exported (its other pages are refused by name, not left unknown)."""
    if not re.search(rb"<\s*table", data[:200000], re.IGNORECASE):
        return False
    if _opengotha_page(data):
        return True
    try:
        doc = page_document(data)[1]  # (shared with the generic table reader's detector)
    except LimitExceeded:
        raise
    except MalformedFile:
        return False
    return next(_go_tables(doc), None) is not None \
        or (_white_word(data) and bool(_game_lists(doc)))


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events (one per game) of a go cross table page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text, note = _decoded(data)
    if note:
        log.report(MalformedFile(note), level="info")
    doc = _document(text)
    tables = list(_go_tables(doc)) if doc is not None else []
    game_lists = _game_lists(doc) if doc is not None and not tables else []
    if doc is None or not (tables or game_lists):
        if doc is not None and _has_cross_table_header(doc):
            raise MalformedFile(
                "a go cross table with no game played yet (every round cell is empty, a bye "
                "or '?')", file=log.file)
        if _opengotha_page(data):
            raise NoResults(
                f"an OpenGotha page that is not a standings table{_what_page(doc)}: games, "
                "players and team lists have no cross table of results to read",
                file=log.file)
        raise MalformedFile("no go cross table (name and round columns with results like 12+)",
                            file=log.file)
    lines = _page_lines(doc)
    name = _name(doc, lines, source)
    start = _date(lines, text, name, log)
    info = Tournament(name=name, organiser=name, start=start, end=start, komi=_komi(lines))
    events = []
    unknown = 0
    for table in tables:
        players, halves = _read_table(table, log)
        unknown += sum(1 for h in halves if h.opponent and h.result == "?")
        events.extend(cross_table_events(players, halves, info, fmt=NAME, log=log))
    if game_lists:
        players, halves = _read_game_lists(game_lists, log)
        by_number = {p.number: p for p in players}
        # each row is a game of its own: read one by one, so that a page listing a player in
        # two games of a round (a typing slip the page makes) keeps both games as written
        for first in range(0, len(halves), 2):
            pair = halves[first:first + 2]
            if len(pair) == 2 and all(h.number in by_number for h in pair):
                events.extend(cross_table_events([by_number[h.number] for h in pair], pair,
                                                 info, fmt=NAME, log=log))
    if not events:
        why = (f"no game has a result yet ({unknown} round cells say '?': paired, not played)"
               if unknown else "no game between two named players to read")
        raise MalformedFile(why, file=log.file)
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="go: HTML cross tables (OpenGotha standings, Russian/Czech/Slovak/Polish pages) "
    "and round-by-round game lists (White, Black, winner), one event per game",
    detect=detect,
    parse=parse,
)
