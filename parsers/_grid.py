"""Generic result tables: a grid of cell texts (from a spreadsheet or an HTML page) -> events.

The formats ``spreadsheet`` and ``html_tables`` turn their input into :class:`Grid` objects (cells
with where they came from) and leave the rest to :func:`read_grid`. What a hand-made result table
looks like:

- **a header row** naming the columns in Slovak, Czech, Polish, English, Hungarian or Romanian:
  place (``Por.``, ``Poradie``, ``Umístění``, ``m-ce``, ``Place``, ``Rank``, ``Loc``), unit
  (``Pár``, ``Nr``, ``Družstvo``, ``Team``), names (``Meno``, ``Hráči``, ``Nazwisko``,
  ``Names``, ``Nume``, ``Hráč 1`` / ``Hráč 2`` in separate columns), club (``Klub``,
  ``Club``), score (``%``, ``Body``, ``Pkt``, ``IMP``, ``VP``, ``Score``, ``Puncte``,
  ``Procente``). The score column's header gives the scoring: ``%``/MP -> MP,
  IMP -> IMP, VP -> VP, anything else ``unknown``. Unknown columns are ignored;
- **rows or columns**: one unit per row below the header, or *transposed* (places and names run
  across the sheet): a header column, one unit per column to its right;
- **sections**: a title row (``Skupina A``, ``Sekcia B``, ``Section A``) followed by its own header
  starts a new event section; a repeated header row without a title continues the section;
- **totals rows** (``Spolu``, ``Celkem``, ``Razem``, ``Total``) and blank spacer rows/columns are
  skipped; **merged cells** arrive filled in (every covered cell carries the value, flagged
  ``merged``), so a place merged over a tie's rows reads on each row and a unit written on several
  rows (one player per row, place and number merged or left blank) becomes one unit;
- **numbers** with a decimal point or comma, with or without ``%`` (``56,43 %``);
- **names** (``parsers.names.split_pair``): ``Priezvisko Meno - Priezvisko Meno``,
  ``Novák/Kováč``, ``Novák J. – Kováč P.`` are split on ``-``/``–`` with spaces around, ``/``,
  ``;``, ``+``, ``&`` and line breaks, so a hyphenated surname (``Nowak-Kowalska``) stays whole;
  on ``,`` between complete names (``Kiss Gábor, Szőke Zoltán``), never inside one
  (``Novák, Ján``, ``Novák Ján, Ing.``);
- **initials** (a club that writes initials instead of names): first letter of the first name
  plus the first two letters of the surname (``JNo``). A names cell made only of such
  tokens (``JNo-PKo``, ``JNo PKo``) gives players with ``initials=True`` and the club the file
  names (the club column, else the organiser); decoding them is not the parser's job;
- **event fields** from the lines above the first header (and lines the source adds, e.g. an
  HTML ``<title>``), then the sheet name, then the file name: the date (``12.3.2012``,
  ``12. marca 2012``, ``2012-03-12``; none anywhere -> :class:`MalformedFile`), the title, the
  organiser (``Organizátor: BK Senec`` or the rest of the date line, ``BK Senec, 12.3.2012``) and
  the number of boards (``24 rozdaní``);
- **kind** from the number of names per unit (1 individual, 2-3 pairs, 4+ teams) unless the
  header or the title says (``Družstvo``/``Team`` column, ``družstiev``/``teams`` in the title).

Phantom units (``Phantom``, ``Robot``, ``Bye``, ``Fantóm``) stay in the ranking without players,
with an info issue. Places: ties averaged (``5-6``, a repeated ``5``, a blank place under a placed
row); a place or two contradicting the scores are warnings (``_places``).

**Positive evidence** (:func:`lacking_evidence`): a table is read only when it is a ranking -

- a **names column**: a names header, or a team or pair column (``Družstvo``, ``Pár``) whose cells
  list players (``Novák - Kováč``); most of its cells hold names (letters, not ``12`` or ``3-7``).
  A numbering column (``Nr``, ``No.``, ``#``) is not one, nor a team column of team names alone;
- at least two rows, and an **order**: places starting at 1 and following on, confirmed by the
  scores (one contradiction in ten rows, at least one, is a typo and a warning; more refuse the
  table), or showing a tie when there is no score; with no place column, scores that never rise
  from one row to the next. Places that only number the rows (1, 2, 3 ... no tie, no score) are a
  list of names, not a ranking;
- **not a table of something else** (:func:`not_a_ranking`): one board's play (contract, lead,
  declarer, tricks, dealer, vulnerability columns: a traveller, score card or hand record), three
  seat columns (a hand record or seating card), goals or chess tie-breaks, games won and lost (a
  league table of another game), go and preferans tables.

A table without that evidence is skipped, and when no table of a grid is read, :func:`read_grid`
says for each table what it lacks (``table 2 has a names column but no place or score column``).
Rows of a page's other tables never join a table's rows.

**Scoring programs** (:data:`PROGRAMS`, :func:`program_mark`): one list of the marks of the
programs that write result pages and sheets (a generator tag, the program's name or site, a BBO
tournament id or user-name column), shared by both generic formats: a page or sheet they wrote is
never read as a generic table.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Literal

from ._dates import DateMatch, find_date, strip_date
from ._errors import InconsistentResult, MalformedFile, ParseError
from ._issues import IssueLog, Level
from ._model import Event, Kind, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, parse_place, shared_places
from ._text import normalise_space, parse_decimal
from .names import split_names_with_initials

__all__ = [
    "Cell",
    "Grid",
    "GridEvents",
    "column_letter",
    "fold",
    "grid_from_texts",
    "has_results_header",
    "read_grid",
    "split_names",
]

Role = Literal["place", "unit", "names", "club", "score"]


# --- cells and grids ------------------------------------------------------------------------


def column_letter(index: int) -> str:
    """0 -> ``A``, 25 -> ``Z``, 26 -> ``AA``: a spreadsheet column's name."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell's text (line breaks kept as ``\\n``) and where it is in its source."""

    text: str
    table: str
    """Sheet name, or ``table 2`` / ``page`` for HTML."""
    row: int
    """1-based row in its sheet or table."""
    col: int
    """0-based column."""
    merged: bool = False
    """Filled in from a merged cell's anchor (the anchor itself is not ``merged``)."""


@dataclass(frozen=True, slots=True)
class Grid:
    """The cells of one sheet (or one HTML page), row by row."""

    name: str
    rows: tuple[tuple[Cell, ...], ...]
    letters: bool = False
    """Spreadsheet: cells are named like ``C7`` in messages."""
    heading: tuple[str, ...] = ()
    """Extra heading lines (an HTML ``<title>``), read after the grid's own lines."""


def grid_from_texts(
    name: str, rows: Sequence[Sequence[str]], *, letters: bool = True,
    merged: frozenset[tuple[int, int]] = frozenset(),
) -> Grid:
    """A grid from plain texts; ``merged`` holds (row, col) 0-based indices of covered cells."""
    return Grid(name, tuple(
        tuple(Cell(text, name, r + 1, c, (r, c) in merged) for c, text in enumerate(row))
        for r, row in enumerate(rows)
    ), letters)


@functools.lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Lower case, no diacritics, single spaces, no trailing ``.``/``:`` (``Umístění:`` ->
    ``umisteni``)."""
    lowered = normalise_space(text).lower().replace("ł", "l")
    if lowered.isascii():  # nothing to decompose: the same result, sooner
        return lowered.rstrip(".: ").strip()
    decomposed = unicodedata.normalize("NFKD", lowered)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return plain.rstrip(".: ").strip()


def _text(cell: Cell) -> str:
    return normalise_space(cell.text)


# --- the header -----------------------------------------------------------------------------

_PLACE_WORDS = frozenset({
    "por", "poradie", "poradi", "miesto", "misto", "umisteni", "m-ce", "mce", "miejsce", "msc",
    "place", "rank", "pos", "position", "lp", "helyezes", "hely", "pozycja", "pl", "loc", "locul",
})
_UNIT_WORDS = frozenset({
    "par", "par c", "par cislo", "c. paru", "cislo paru", "c", "cislo", "nr", "nr pary", "numer",
    "pair", "pair no", "pair nr", "para", "no", "#", "team", "druzstvo", "druzyna", "csapat",
    "par nr", "start c", "startovni cislo",
})
_TEAM_WORDS = frozenset({"team", "druzstvo", "druzyna", "csapat"})
_NAMED_UNIT_WORDS = _TEAM_WORDS | {"par", "pair", "para"}
"""Unit headers whose cells may hold the players' names (``Pár``: ``Novák - Kováč``); the other
unit headers (``Nr``, ``No``, ``#``, ``Č. páru``) number the units."""
_NAMES = re.compile(
    r"^(meno|mena|meno a priezvisko|priezvisko a meno|priezvisko|jmeno|jmena|prijmeni"
    r"|prijmeni a jmeno|hrac|hraci|hracky|nazwisk[oa]?|imie i nazwisko|nazwisko i imie"
    r"|zawodni(k|cy)|names?|players?|player\(s\)|jatekos(ok)?|nev|nevek|clenovia|clenove"
    r"|sklad|zostava|sestava|nume|jucatori|pereche|perechea|nickname|nick|pseudo|pseudonyme|pseudonym|login|user ?name|handle)"
    r"( ?\d)?$"
)
_HANDLE_HEADERS = re.compile(r"^(nickname|nick|pseudo|pseudonyme|pseudonym|login|user ?name|handle)"
                             r"( ?\d)?$")
"""Names columns of online platforms' exports (Funbridge's ``NICKNAME``): user names, where
letters and digits mixed are a name (docs/rules/gate.md)."""
_CLUB_WORDS = frozenset({"klub", "club", "oddil", "oddiel", "egyesulet", "klub/mesto"})
_SCORE_WORDS = frozenset({
    "body", "bodov", "bod", "pkt", "punkty", "punkt", "score", "imp", "imps", "vp", "vps", "mp",
    "wynik", "vysledek", "vysledok", "eredmeny", "pont", "pontszam", "percent",
    "percenta", "procenta", "procent", "points", "result", "total score", "puncte", "procente",
    "punctaj",
})
_NOT_BRIDGE = frozenset({"mms", "sos", "sodos", "sosos", "vists", "pulka", "visty"})
"""Go (McMahon) and preferans headers: such tables are not bridge rankings."""

_BOARD_PLAY = frozenset({
    "contract", "kontrakt", "zavazok", "zavazek", "zavazky", "felvetel", "lead", "wist",
    "vynos", "kezdes", "kezdo", "kezdolap", "ausspiel", "declarer", "decl", "by", "rozgrywajacy",
    "rozgr", "tricks", "lewy", "zdvihy", "zdvihov", "utes", "utesek", "stiche",
    "dealer", "vul", "vuln", "vulnerability", "rozdavajuci", "rozdavajici", "rozdajacy",
    "zalozenie", "oszto", "manso", "teiler", "gefahr", "bid", "licit", "licitace", "dražba",
    "drazba", "lic", "par score", "optimum", "dd", "contr", "ctr", "lead card", "leadcard",
    "opening lead",
})
"""Columns of one board's play (traveller, score card, hand record): not a ranking."""
_SEATS = frozenset({
    "north", "south", "east", "west", "n", "s", "e", "w", "polnoc", "poludnie", "wschod",
    "zachod", "sever", "jih", "juh", "vychod", "zapad", "eszak", "del", "kelet", "nyugat",
    "nord", "sud", "ost", "sued",
})
"""Seat columns: three or more of them are a hand record or a seating card."""
_OTHER_GAMES = frozenset({
    "gf", "ga", "goals", "goals for", "goals against", "gd", "goal difference", "+/-", "gole",
    "bramki", "goly", "golok", "tore", "torverhaltnis", "elo", "rtg", "buchholz", "bhz",
    "sonneborn-berger", "sb", "fide", "dwz", "tb1", "tb2", "tb3",
})
"""Goals (football, hockey, handball) and chess tie-breaks: league tables of other games."""
_WIN_DRAW_LOSS = (
    {"w", "d", "l"}, {"w", "l"}, {"won", "lost"}, {"wins", "losses"}, {"v", "r", "p"},
    {"z", "r", "p"}, {"gy", "d", "v"}, {"s", "u", "n"}, {"vyhry", "prehry"}, {"vyhry", "prohry"},
    {"zwyciestwa", "porazki"}, {"wygrane", "przegrane"}, {"gyozelem", "vereseg"},
    {"siege", "niederlagen"}, {"gewonnen", "verloren"},
)
"""Won (drawn) lost columns (EN, SK/CZ, PL, HU, DE): a league table of matches of another game
(a bridge event ranks by its scores, not by games won)."""


def not_a_ranking(texts: Sequence[str]) -> str | None:
    """What a header row shows instead of a ranking (one board's play, seats, another game's
    league table, a go or preferans table), or None."""
    folded = [fold(t) for t in texts if t]
    words = set(folded)
    if found := next((w for w in folded if w in _NOT_BRIDGE), None):
        return f"a go or preferans table (a {found!r} column)"
    if found := next((w for w in folded if w in _BOARD_PLAY), None):
        return f"one board's play: a traveller, score card or hand record (a {found!r} column)"
    if len(words & _SEATS) >= 3:
        return "a hand record or seating card (columns for the seats)"
    if found := next((w for w in folded if w in _OTHER_GAMES), None):
        return f"a table of another game (a {found!r} column)"
    if any(triple <= words for triple in _WIN_DRAW_LOSS):
        return "a league table of games won and lost"
    return None


# --- scoring programs -----------------------------------------------------------------------

PROGRAMS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE | re.MULTILINE)) for name, pattern in (
        ("JFR", r"""<meta[^>]*generator[^>]*content\s*=\s*["']?\s*jfr|\bPary\.\d+\.\d+"""
                r"|\bJFR\s*(?:Pary|Teamy)\b"),
        ("KoPS", r"\bKoPS(?:\b|2www)|<meta[^>]*generator[^>]*content\s*=\s*[\"']?\s*kops"),
        ("BBO", r"bridgebase\.com|\bBBO\b|\btourney=\d+-\d+|(?:^|\t|>)\s*#\d{3,6}\s+(?:pairs|teams|"
                r"individual|imps?)\b|(?:^|\t)\s*(?:user|user ?name|handle|bbo (?:user|name))"
                r"\s*(?:\t|$)"),
        ("ACBLscore", r"ACBLscore|\bACBL\s*score"),
        ("Bridgewebs", r"bridgewebs"),
        ("EBUScore", r"EBU\s*Score"),
        ("ScoreBridge", r"\bScore\s*Bridge\b"),
        ("Bridgemate", r"\bBridge\s*mate\b|\bBMPro\b"),
        ("BridgeComposer", r"Bridge\s*Composer"),
        ("Pianola", r"Pianola"),
        ("Magic Contest", r"Magic\s*Contest"),
        ("Compscore", r"Comp\s*score"),
        ("PairsScorer", r"Pairs\s*Scorer"),
        ("RealBridge", r"<meta[^>]*generator[^>]*real\s*bridge|<title>[^<]*real\s*bridge"
                       r"|(?:^|\t)\s*real\s*bridge\b|realbridge\.online/\S*(?:result|score)"
                       r"|(?:results?|scores?|scored|exported|produced|printed)\s+(?:\w+\s+){0,2}"
                       r"(?:by|from|with|on|in)\s+real\s*bridge\b"),
        ("BriAn", r"(?-i:\bBriAn\b)"),
        ("ScorePad", r"Score\s*Pad\b"),
        ("JSS", r"(?-i:\bJSS\b)|Jeff'?s\s+Scoring"),
        ("NZ Scorer", r"\bNZ\s*(?:Bridge\s*)?Scorer\b"),
        ("Bridge Moniteur", r"Bridge\s*Moniteur|\bFFBClubNet\b|\bMagic\s*FFB\b"),
        ("Ruter", r"(?-i:\bRuter\b)\s*\d|\bruter\.exe\b"),
        ("Swiss Manager", r"Swiss[- ]?Manager|Swiss\s*Perfect|chess-results"),
        ("OpenGotha", r"OpenGotha|\bpairgoth\b"),
        ("a recap or masterpoint page", r"\brecap\b|>\s*(?:MPs|Strat)\s*<"),
    )
)
"""Scoring programs (and their marks: a generator tag, their name or site, a BBO tournament id
or user-name column). A page or sheet they wrote is read by that program's own format if there
is one, never as a generic table."""


_NEEDLES: dict[str, tuple[str, ...]] = {
    "JFR": ("jfr", "pary."), "KoPS": ("kops",), "ACBLscore": ("acbl",),
    "Bridgewebs": ("bridgewebs",), "EBUScore": ("ebu",), "ScoreBridge": ("score",),
    "Bridgemate": ("mate", "bmpro"), "BridgeComposer": ("composer",), "Pianola": ("pianola",),
    "Magic Contest": ("contest",), "Compscore": ("comp",), "PairsScorer": ("scorer",),
    "RealBridge": ("real",), "BriAn": ("brian",), "ScorePad": ("pad",), "JSS": ("jss", "jeff"),
    "NZ Scorer": ("scorer",), "Bridge Moniteur": ("moniteur", "ffb"), "Ruter": ("ruter",),
    "Swiss Manager": ("swiss", "chess-results"), "OpenGotha": ("opengotha", "pairgoth"),
    "a recap or masterpoint page": ("recap", "mps", "strat"),
}
"""For each program of :data:`PROGRAMS` (BBO has none), words one of which every match of its
expression contains (case folded): a text without any of them is not searched with it, so most
texts are searched by a few expressions, not by all 25."""


@functools.lru_cache(maxsize=4)
def program_mark(text: str) -> str | None:
    """The scoring program whose marks ``text`` (a page's source, a sheet's cells as tab-separated
    lines) carries, or None. Remembered for the last few texts: the readers asked in turn
    about one file each ask of its same text."""
    # case folded as the expressions match (ſ, K and İ/ı fold to their ASCII letters)
    folded = text.casefold().replace("\u0131", "i").replace("\u0307", "")
    for name, pattern in PROGRAMS:
        needles = _NEEDLES.get(name)
        if needles is not None and not any(n in folded for n in needles):
            continue
        if pattern.search(text):
            return name
    return None


@functools.lru_cache(maxsize=1 << 16)
def _role(header: str) -> Role | None:
    """What a header cell names, None for anything else (asked of every cell of every row:
    places, clubs and scores come back row after row)."""
    h = fold(header)
    if not h:
        return None
    if h in _PLACE_WORDS:
        return "place"
    if h in _UNIT_WORDS:
        return "unit"
    if _NAMES.match(h):
        return "names"
    if h in _CLUB_WORDS:
        return "club"
    if "%" in h or h in _SCORE_WORDS or h.split(" ")[0] in _SCORE_WORDS:
        return "score"
    return None


def scoring_of(header: str) -> Scoring:
    """The scoring a score column's header implies: ``%``/MP -> MP, IMP, VP, else unknown."""
    h = fold(header)
    words = set(re.findall(r"[a-z]+", h))
    if "%" in h or words & {"mp", "mps", "matchpoints", "tops", "percent", "procent"}:
        return "MP"
    if words & {"imp", "imps", "impy"}:
        return "IMP"
    if words & {"vp", "vps"}:
        return "VP"
    return "unknown"


_SCORING_RANK: dict[Scoring, int] = {"MP": 0, "VP": 1, "IMP": 2}


@dataclass(frozen=True, slots=True)
class Columns:
    """Positions of the recognised columns of a header row (and the header texts)."""

    headers: tuple[str, ...]
    place: int | None
    unit: int | None
    names: tuple[int, ...]
    club: int | None
    score: int | None

    @property
    def scoring(self) -> Scoring:
        return "unknown" if self.score is None else scoring_of(self.headers[self.score])

    @property
    def handles(self) -> bool:
        """The names are user names of an online platform (a ``Nickname`` header)."""
        return bool(self.names) and all(_HANDLE_HEADERS.match(fold(self.headers[i]))
                                        for i in self.names)

    @property
    def team_header(self) -> bool:
        return self.unit is not None and fold(self.headers[self.unit]) in _TEAM_WORDS


def header_columns(texts: Sequence[str]) -> Columns | None:
    """The columns of a results header row, or None if ``texts`` is not one.

    A header names the players (a names or a unit column) and a place or a score column. Of
    several score columns the one whose scoring ranks first (MP, VP, IMP, other) is taken, the
    rightmost of equals (totals are written on the right).
    """
    roles = [_role(t) for t in texts]
    if ("names" not in roles and "unit" not in roles) \
            or ("place" not in roles and "score" not in roles):
        return None  # (most rows: asked before what the row shows instead of a ranking)
    if not_a_ranking(texts) is not None:
        return None
    place = next((i for i, r in enumerate(roles) if r == "place"), None)
    unit = next((i for i, r in enumerate(roles) if r == "unit"), None)
    names = tuple(i for i, r in enumerate(roles) if r == "names")
    club = next((i for i, r in enumerate(roles) if r == "club"), None)
    scores = [i for i, r in enumerate(roles) if r == "score"]
    if (not names and unit is None) or (place is None and not scores):
        return None
    if place is None and unit is None and len(names) == 1 and len(scores) == 1 \
            and roles.count(None) > 2:
        return None  # two recognised words among many others: too weak to be a results header
    score = min(scores, key=lambda i: (_SCORING_RANK.get(scoring_of(texts[i]), 3), -i),
                default=None)
    return Columns(tuple(texts), place, unit, names, club, score)


def _row_texts(row: Sequence[Cell]) -> list[str]:
    return [normalise_space(c.text) for c in row]


def has_results_header(rows: Sequence[Sequence[str]]) -> bool:
    """Whether some row, or some column (transposed layout), is a results header."""
    if any(header_columns([normalise_space(t) for t in row]) for row in rows):
        return True
    width = max((len(r) for r in rows), default=0)
    for col in range(width):
        column = [normalise_space(r[col]) if col < len(r) else "" for r in rows]
        if _column_header(column) is not None:
            return True
    return False


def _column_header(column: Sequence[str]) -> tuple[int, int] | None:
    """(first, last) row index of a header written down a column (transposed layout)."""
    roles = [_role(t) for t in column]
    start: int | None = None
    for i in range(len(roles) + 1):
        if i < len(roles) and roles[i] is not None:
            start = i if start is None else start
            continue
        if start is not None:
            if header_columns(list(column[start:i])) is not None and i - start >= 2:
                return start, i - 1
            start = None
    return None


# --- transposed layout ----------------------------------------------------------------------


def _transposed(grid: Grid) -> Grid | None:
    """The grid turned into the row layout, if it is written across the columns.

    The header column's labelled run of rows (``Poradie``, ``Pár``, ``Hráči``, ``%``) becomes a
    header row and every column to its right one unit's row; each further run below (a second
    section) likewise. Rows above and between the runs stay as they are (title and section
    lines). Cells keep where they came from, so messages name the original cells.
    """
    width = max((len(r) for r in grid.rows), default=0)
    rows = grid.rows

    def cell(r: int, c: int) -> Cell | None:
        return rows[r][c] if c < len(rows[r]) else None

    for col in range(width):
        column = [_text(cell(r, col)) if cell(r, col) else "" for r in range(len(rows))]
        runs: list[tuple[int, int]] = []
        offset = 0
        while (found := _column_header(column[offset:])) is not None:
            runs.append((found[0] + offset, found[1] + offset))
            offset = found[1] + offset + 1
        if not runs:
            continue
        out: list[tuple[Cell, ...]] = []
        previous_end = -1
        for first, last in runs:
            out.extend(rows[previous_end + 1:first])
            for c in range(col, width):
                out.append(tuple(
                    cell(r, c) or Cell("", rows[r][0].table if rows[r] else grid.name, r + 1, c)
                    for r in range(first, last + 1)
                ))
            previous_end = last
        return Grid(grid.name, tuple(out), grid.letters, grid.heading)
    return None


# --- names ----------------------------------------------------------------------------------

_PHANTOM = re.compile(r"^(phantom|fantom|fantóm|robot|bye|widmo|duch|pauza)\b", re.IGNORECASE)


def split_names(text: str) -> tuple[list[str], bool]:
    """The names in a names cell and whether they are initials (``parsers.names``).

    ``Novák Ján - Kováč Peter`` -> two names; ``Nowak-Kowalska Anna / Zięba Piotr`` keeps the
    hyphenated surname; ``JNo-PKo`` and ``JNo PKo`` -> ``["JNo", "PKo"]``, initials.
    """
    return split_names_with_initials(text)


# --- heading: title, date, organiser, boards, section ---------------------------------------

_SECTION = re.compile(
    r"^(skupina|sekcia|sekce|section|grupa|group|linia|line|rad|csoport|szekcio|turnaj [a-z])"
    r"\b|^(ns|ew|n-s|e-w)$",
    re.IGNORECASE,
)
_ORGANISER = re.compile(
    r"^(organiz[aá]tor|organizator|organi[sz]er|usporiadate[lľ]|po[rř]adatel|klub|club|"
    r"rendez[oő])\s*:\s*(.+)$",
    re.IGNORECASE,
)
_DATE_LABELS = frozenset({"datum", "data", "date", "dna", "dne", "den", "kedy", "datum konania"})
_BOARDS = re.compile(
    r"(\d{1,3})\s*(rozdan[ií]|rozdani[ae]?|rozda[nń]|boards?|rozd[aá]v(ek|ky|ka)|rozd\.|"
    r"leoszt[aá]s)|\b(boards|rozdania|rozdaní|rozdání|rozdávek)\s*:\s*(\d{1,3})",
    re.IGNORECASE,
)
_TEAMS_TITLE = re.compile(r"dru[zž]stv|dru[zż]yn|\bteams?\b|csapat", re.IGNORECASE)
_INDIVIDUAL_TITLE = re.compile(r"jednotliv|indywidual|individual|egy[eé]ni", re.IGNORECASE)
_DEFAULT_SHEET = re.compile(r"^(sheet|list|h[aá]rok|arkusz|munkalap|tabelle|table)\s*\d*$",
                            re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Heading:
    """Event fields read from the lines above the first header."""

    title: str
    date: dt.date | None
    organiser: str
    boards: int | None
    section: str


def _is_date_label(text: str) -> bool:
    return fold(text) in _DATE_LABELS or not re.sub(r"[\W_]+", "", text)


def read_heading(lines: Sequence[str]) -> Heading:
    """Title, date, organiser, boards and section from heading lines (see module docstring)."""
    title = organiser = section = ""
    date: dt.date | None = None
    boards: int | None = None
    for line in lines:
        found: DateMatch | None = find_date(line)
        rest = line
        if found is not None:
            rest = strip_date(line, found)
            if date is None:
                date = found.date
        if boards is None and (b := _BOARDS.search(line)) is not None:
            boards = int(b[1] or b[5])
        if (m := _ORGANISER.match(rest)) is not None:
            organiser = organiser or normalise_space(m[2])
        elif _SECTION.match(rest):
            section = section or rest
        elif _is_date_label(rest):
            continue
        elif not title:
            title = rest
        elif found is not None and not organiser:
            organiser = rest  # "BK Senec, 12.3.2012" below the title
    return Heading(title, date, organiser, boards, section)


# --- reading sections -----------------------------------------------------------------------


@dataclass(slots=True)
class _Row:
    """One unit as read: its cells, before places are resolved."""

    cells: tuple[Cell, ...]
    place_text: str
    written: WrittenPlace | None
    label: str
    score: float | None
    names: list[str]
    initials: bool
    clubs: list[str]


@dataclass(slots=True)
class _Section:
    columns: Columns
    header: tuple[Cell, ...]
    lines: list[str]
    rows: list[_Row] = field(default_factory=list)
    tables: set[str] = field(default_factory=set)
    """The tables (of a page) the section's header rows are in: rows of other tables are not
    the section's."""


@dataclass(frozen=True, slots=True)
class GridEvents:
    """What one grid yields: its events and the heading lines read."""

    events: tuple[Event, ...]
    players: frozenset[str]
    """Every name written in the events (to tell a summary sheet from session sheets)."""


class _Held:
    """Issues met while reading sections, kept by section until the section is taken: a table
    that is not a result table leaves no issue behind."""

    def __init__(self, log: IssueLog) -> None:
        self.file = log.file
        self.section = -1
        self.entries: list[tuple[int, ParseError, Level]] = []

    def report(self, error: ParseError, level: Level = "warning") -> None:
        self.entries.append((self.section, error, level))


_TOTALS = frozenset({"spolu", "celkem", "razem", "total", "totals", "suma", "sum", "osszesen",
                     "spolu:", "celkom"})


class _Reader:
    """Reads one grid (rows layout) into sections; issues are held (``_Held``) for ``log``."""

    def __init__(self, grid: Grid, log: IssueLog) -> None:
        self.grid = grid
        self.target = log
        self.log = _Held(log)

    def where(self, cell: Cell, column: str = "") -> dict[str, Any]:
        return {"table": cell.table, "row": cell.row, "column": column or None}

    def cell_name(self, cell: Cell) -> str:
        return f"cell {column_letter(cell.col)}{cell.row}" if self.grid.letters else ""

    def problem(self, text: str, cell: Cell) -> str:
        name = self.cell_name(cell)
        return f"{text} ({name})" if name else text

    def sections(self) -> tuple[list[str], list[_Section]]:
        """Heading lines and the sections of the grid."""
        heading: list[str] = []
        sections: list[_Section] = []
        pending: list[str] = []
        for row in self.grid.rows:
            texts = _row_texts(row)
            if not any(texts):
                continue
            distinct = list(dict.fromkeys(t for t in texts if t))
            columns = header_columns(texts) if len(distinct) > 1 else None
            if columns is not None:
                current = sections[-1] if sections else None
                if current is None or pending or columns.headers != current.columns.headers:
                    if current is None:
                        heading, pending = pending, []
                    sections.append(_Section(columns, row, pending))
                    self.log.section = len(sections) - 1
                sections[-1].tables.add(row[0].table)  # a repeated header continues it
                pending = []
                continue
            if not sections or len(distinct) == 1 and self._single(row) \
                    and not self._continuation(sections[-1], row):
                pending.extend(self._lines(row, distinct))
                continue
            section = sections[-1]
            if row[0].table not in section.tables:
                continue  # another table (of a page) without a results header: not a section
            if self._totals(texts):
                self.log.report(MalformedFile(
                    "totals row skipped", has_value=True, value=" | ".join(distinct),
                    **self.where(row[0]),
                ), level="info")
                continue
            self._data_row(section, row, texts, distinct)
        return heading, sections

    @staticmethod
    def _lines(row: Sequence[Cell], distinct: Sequence[str]) -> list[str]:
        """A heading row as lines: one text's own line breaks kept, several cells joined."""
        if len(distinct) > 1:
            return [" ".join(distinct)]
        cell = next(c for c in row if _text(c))
        return [line for part in cell.text.split("\n") if (line := normalise_space(part))]

    @staticmethod
    def _single(row: Sequence[Cell]) -> bool:
        """A row with one text: one cell, or one merged cell spanning several."""
        filled = [c for c in row if _text(c)]
        return len(filled) == 1 or all(c.merged for c in filled[1:])

    @staticmethod
    def _continuation(section: _Section, row: Sequence[Cell]) -> bool:
        """A row with only a name, in a names column, below a unit: one more player of it."""
        filled = [c for c in row if _text(c)]
        return bool(section.rows) and len(filled) == 1 and filled[0].col in section.columns.names \
            and not _SECTION.match(_text(filled[0]))

    @staticmethod
    def _totals(texts: Sequence[str]) -> bool:
        return any(fold(t) in _TOTALS for t in texts)

    def _cell(self, row: Sequence[Cell], index: int | None) -> Cell | None:
        return row[index] if index is not None and index < len(row) else None

    def _data_row(self, section: _Section, row: tuple[Cell, ...], texts: Sequence[str],
                  distinct: Sequence[str]) -> None:
        cols = section.columns
        names_at = cols.names or ((cols.unit,) if cols.unit is not None else ())
        names_cells = [c for i in names_at if (c := self._cell(row, i)) is not None]
        key = [i for i in (cols.place, cols.unit, cols.score)
               if i is not None and i not in names_at]
        names: list[str] = []
        initials = False
        for cell in names_cells:
            found, are_initials = split_names(cell.text)
            names.extend(found)
            initials = initials or are_initials
        keyless = all(i >= len(row) or not texts[i] or row[i].merged for i in key)
        if names and keyless and section.rows:
            self._continue(section.rows[-1], names, initials, row)
            return
        place_cell = self._cell(row, cols.place)
        if not names and (place_cell is None or not texts[cols.place or 0]):
            self.log.report(MalformedFile(
                "row not understood (no place and no names); skipped", has_value=True,
                value=" | ".join(distinct), **self.where(row[0]),
            ))
            return
        section.rows.append(self._read(section, row, texts, names, initials))

    def _continue(self, unit: _Row, names: list[str], initials: bool,
                  row: tuple[Cell, ...]) -> None:
        """A row that only adds players to the unit above (a team written one per row)."""
        unit.names.extend(names)
        unit.initials = unit.initials or initials
        unit.cells = unit.cells + row

    def _read(self, section: _Section, row: tuple[Cell, ...], texts: Sequence[str],
              names: list[str], initials: bool) -> _Row:
        """One unit's row; ``texts``: its cells' texts (``_row_texts``)."""
        cols = section.columns
        place_cell = self._cell(row, cols.place)
        place_text = texts[cols.place or 0] if place_cell is not None else ""
        written: WrittenPlace | None = None
        if place_cell is not None:
            try:
                written = parse_place(place_text)
            except ValueError:
                raise MalformedFile(
                    self.problem("invalid place (expected a number or a tie like 5-6)",
                                 place_cell),
                    file=self.log.file, value=place_text, has_value=True,
                    **self.where(place_cell, cols.headers[cols.place or 0]),
                ) from None
        unit_cell = self._cell(row, cols.unit) if cols.names else None
        label = texts[cols.unit or 0] if unit_cell is not None else ""
        score: float | None = None
        score_cell = self._cell(row, cols.score)
        if score_cell is not None and cols.score is not None:
            try:
                score = parse_decimal(score_cell.text)
            except ValueError:
                self.log.report(MalformedFile(
                    self.problem("invalid score; left empty", score_cell),
                    value=_text(score_cell), has_value=True,
                    **self.where(score_cell, cols.headers[cols.score]),
                ))
        club_cell = self._cell(row, cols.club)
        clubs = [normalise_space(x) for x in club_cell.text.split("\n")] if club_cell else []
        return _Row(row, place_text, written, label, score, names, initials,
                    [c for c in clubs if c])


# --- evidence of a ranking ------------------------------------------------------------------


def table_label(table: str, sheet: bool) -> str:
    """``sheet 'Hárok1'`` for a spreadsheet's sheet, the table's own name (``table 2``) else."""
    return f"sheet {table!r}" if sheet else table


def _name_like(name: str) -> bool:
    """At least two letters, more letters than digits (not ``12``, ``3-7``), and not a user
    name or an address (``carla_b``, ``novak@example.org``)."""
    letters = sum(map(str.isalpha, name))
    return letters >= 2 and sum(map(str.isdigit, name)) < letters \
        and "_" not in name and "@" not in name


def _columns_had(columns: Columns) -> str:
    parts = ["a names column"] if columns.names or _names_in_unit(columns) else []
    parts += ["a place column"] if columns.place is not None else []
    parts += ["a score column"] if columns.score is not None else []
    if not parts:
        return "no names, place or score column"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _names_in_unit(columns: Columns) -> bool:
    return not columns.names and columns.unit is not None \
        and fold(columns.headers[columns.unit]) in _NAMED_UNIT_WORDS


def _tolerated(n: int) -> int:
    """Places contradicting the scores that a ranking of ``n`` rows may have (a typo)."""
    return max(1, (n - 1) // 10)


def lacking_evidence(columns: Columns, rows: Sequence[_Row]) -> str | None:
    """What a table lacks to be a ranking, None if it is one.

    A ranking has a names column (a names header, or a team or pair column whose cells hold
    names) whose cells mostly hold names, at least two rows, and an order: places (starting at 1,
    following on) that the scores confirm, or that show a tie when there are no scores; or, with
    no place column, scores that never rise from one row to the next. The text completes
    ``table 2 ...``."""
    had = _columns_had(columns)
    if not columns.names and not _names_in_unit(columns):
        unit = f" (the {columns.headers[columns.unit]!r} column numbers the units)" \
            if columns.unit is not None else ""
        return f"has {had} but no names column{unit}"
    n = len(rows)
    if n < 2:
        return f"has {had} but {'a single row' if n else 'no row'} under its header; a " \
            "ranking lists at least two"
    header = columns.headers[columns.names[0] if columns.names else columns.unit or 0]
    named = [_name_like(" ".join(r.names)) for r in rows]
    if sum(named) * 4 < n * 3:
        example = next((" / ".join(r.names) for r, ok in zip(rows, named) if not ok and r.names),
                       "")
        return (f"has a names column ({header!r}) but it mostly holds no names"
                + (f" (such as {example!r})" if example else ""))
    if not columns.names and sum(len(r.names) >= 2 for r in rows) * 4 < n * 3:
        return (f"has a {header!r} column of team or pair names but no column of the players' "
                "names")
    scored = [r.score for r in rows if r.score is not None]
    scores_rank = columns.score is not None and len(scored) * 4 >= n * 3 and len(set(scored)) > 1
    written = [r.written for r in rows]
    if columns.place is not None and any(w is not None for w in written):
        ordered = list(rows)
        if all(w is not None for w in written):
            ordered.sort(key=lambda r: r.written.first if r.written else 0)
        places, problems = shared_places([r.written for r in ordered])
        first = next(w for w in (r.written for r in ordered) if w is not None)
        if first.first != 1:
            return f"has {had}, but the places start at {first.first}, not 1"
        if max(places) > n or len(problems) > _tolerated(n):
            return f"has {had}, but the places are not a ranking of its {n} rows"
        if scores_rank:
            against = order_problems(places, [r.score for r in ordered])
            if len(against) > _tolerated(n):
                return (f"has {had}, but the places do not follow the scores ({len(against)} of "
                        f"{n} rows contradict them)")
            return None
        if len(set(places)) < n:
            return None
        return (f"has {had}, but the places only number the rows (1, 2, 3 ... with no tie) and "
                "no score confirms them")
    if scores_rank:
        steps = [(i, rows[i - 1].score, rows[i].score) for i in range(1, n)]
        rising = next((i for i, above, score in steps
                       if above is not None and score is not None and score > above), None)
        if rising is None:
            return None
        return (f"has {had} but no place column, and the scores do not order the rows (row "
                f"{rows[rising].cells[0].row} scores more than the row above)")
    if columns.score is not None:
        return f"has {had}, but too few scores to rank its rows"
    return f"has {had} but no place or score column"


_MAX_TABLES_NAMED = 6


def _describe_tables(grid: Grid, used: set[str]) -> list[str]:
    """Why each table of ``grid`` with no results header (``used``: those with one) is not a
    result table: what it shows instead, or which columns it has and lacks."""
    tables: dict[str, list[list[str]]] = {}
    for row in grid.rows:
        texts = _row_texts(row)
        if row and row[0].table not in ("page",) and sum(1 for t in texts if t) >= 2:
            tables.setdefault(row[0].table, []).append(texts)
    out: list[str] = []
    for table, rows in tables.items():
        if table in used or len(rows) < 2:
            continue
        label = table_label(table, grid.letters)
        shown = next((r for r in map(not_a_ranking, rows[:40]) if r is not None), None)
        if shown is not None:
            out.append(f"{label} is {shown}, not a ranking")
            continue
        best: Columns | None = None
        best_count = 0
        for texts in rows[:40]:
            roles = [_role(t) for t in texts]
            cols = Columns(tuple(texts), roles.index("place") if "place" in roles else None,
                           roles.index("unit") if "unit" in roles else None,
                           tuple(i for i, r in enumerate(roles) if r == "names"), None,
                           roles.index("score") if "score" in roles else None)
            count = sum(x is not None for x in (cols.place, cols.score)) \
                + (bool(cols.names) or _names_in_unit(cols))
            if count > best_count:
                best, best_count = cols, count
        if best is None:
            out.append(f"{label} has no names, place or score column")
        elif not best.names and not _names_in_unit(best):
            out.append(f"{label} has {_columns_had(best)} but no names column")
        elif best.place is None and best.score is None:
            out.append(f"{label} has a names column but no place or score column")
        else:
            out.append(f"{label} has {_columns_had(best)} among too many other columns to be "
                       "a results header")
    if len(out) > _MAX_TABLES_NAMED:
        out = out[:_MAX_TABLES_NAMED] + [f"{len(out) - _MAX_TABLES_NAMED} more tables likewise"]
    return out


_NUMBER_CELL = re.compile(r"^[-+]?\d+(?:[.,]\d+)?%?\.?$")
LEFT_BEHIND_ROWS = 3
"""Rows shaped like the result rows read, outside every table read, that refuse a file."""


def _signature(cells: Sequence[Cell]) -> tuple[str, ...]:
    """A row's shape: per cell ``n`` (a number), ``t`` (text with letters) or ``-`` (empty or
    other), trailing empties dropped."""
    kinds = []
    for cell in cells:
        text = cell.text.strip()
        kinds.append("n" if _NUMBER_CELL.match(text) else
                     "t" if any(ch.isalpha() for ch in text) else "-")
    while kinds and kinds[-1] == "-":
        kinds.pop()
    return tuple(kinds)


def _left_behind(grid: Grid, sections: Sequence[_Section],
                 all_sections: Sequence[_Section]) -> str | None:
    """Why reading only ``sections`` of ``grid`` would load part of a result list: rows shaped
    like the result rows read (their most common shape) that no section read, as a section whose
    header was damaged leaves them; None when nothing like that is left. A result list is read
    whole or not at all."""
    read_rows = {(c.table, c.row) for s in sections for r in s.rows for c in r.cells[:1]}
    headers = {(c.table, c.row) for s in all_sections for c in s.header[:1]}
    shapes = Counter(_signature(r.cells) for s in sections for r in s.rows)
    common = {shape for shape, n in shapes.most_common(2)
              if "n" in shape and "t" in shape and n >= 2}
    if not common:
        return None
    lacking = [s for s in all_sections if not any(s is t for t in sections)]
    lacking_rows = {(c.table, c.row) for s in lacking for r in s.rows for c in r.cells[:1]}
    left: list[Cell] = []
    for row in grid.rows:
        if not row:
            continue
        at = (row[0].table, row[0].row)
        if at in read_rows or at in headers:
            continue
        if at in lacking_rows or _signature(row) in common:
            left.append(row[0])
    if len(left) < LEFT_BEHIND_ROWS:
        return None
    first = left[0]
    where = table_label(first.table, grid.letters)
    return (f"{len(left)} rows shaped like the result rows read are in no table read (the "
            f"first in {where}, row {first.row}): a section whose header could not be read; "
            "a result list is read whole or not at all")


# --- units and events -----------------------------------------------------------------------


def _players(row: _Row, organiser: str, handles: bool = False) -> tuple[PlayerAsWritten, ...]:
    """Players of a unit; clubs one per line when they match the names, else one for all."""
    n = len(row.names)
    if len(row.clubs) == n and n > 1:
        clubs: list[str | None] = list(row.clubs)
    else:
        clubs = [" ".join(row.clubs) or None] * n
    if row.initials:
        clubs = [c or organiser or None for c in clubs]
    return tuple(
        PlayerAsWritten(name=name, club=club, initials=row.initials, handle=handles)
        for name, club in zip(row.names, clubs)
    )


_JOINED = re.compile(r"^\s*([^\W\d_][^\W\d_'.]+)\s*-\s*([^\W\d_][^\W\d_'.]+)\s*$")
"""``Popescu-Goldemberg``: two surnames joined by a hyphen, no given name."""


def _joined_pairs_split(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """A table whose units are mostly one name of two surnames joined by a hyphen
    (``Popescu-Goldemberg``, a club's way of writing its pairs) ranks pairs: each such name is
    split into its two players. Where only a few units look so, they are hyphenated surnames
    and stay whole."""
    single = [u for u in units if len(u.players) == 1]
    joined = [u for u in single if _JOINED.match(u.players[0].name)]
    if not units or len(joined) * 2 < len(units) or len(single) * 4 < len(units) * 3:
        return units
    out = []
    for unit in units:
        match = _JOINED.match(unit.players[0].name) if len(unit.players) == 1 else None
        if match:
            first = unit.players[0]
            unit = dataclasses.replace(unit, players=(
                dataclasses.replace(first, name=match[1]),
                dataclasses.replace(first, name=match[2])))
        out.append(unit)
    return tuple(out)


def _kind(columns: Columns, title: str, counts: Sequence[int]) -> Kind:
    """Kind from the header or title, else from the usual number of names per unit."""
    if columns.team_header or _TEAMS_TITLE.search(title):
        return "teams"
    if _INDIVIDUAL_TITLE.search(title):
        return "individual"
    usual = Counter(c for c in counts if c).most_common(1)
    n = usual[0][0] if usual else 2
    return "individual" if n == 1 else "pairs" if n <= 3 else "teams"


class _Builder:
    """Turns the sections of one grid into events."""

    def __init__(self, reader: _Reader, fmt: str, source: str) -> None:
        self.reader = reader
        self.log = reader.target
        self.fmt = fmt
        self.source = source
        self.refusals: list[str] = []
        """Why each table that is not read is not a result table."""

    def _table_name(self, cell: Cell) -> str:
        return table_label(cell.table, self.reader.grid.letters)

    def units(self, section: _Section, organiser: str) -> tuple[Unit, ...]:
        rows = section.rows
        cols = section.columns
        if cols.place is None or all(r.written is None for r in rows):
            self.log.report(MalformedFile(
                "no place column; places taken from the order of the rows", has_value=False,
                **self.reader.where(section.header[0]),
            ), level="info")
            written: list[WrittenPlace | None] = [WrittenPlace(i, i) for i in
                                                  range(1, len(rows) + 1)]
        else:
            written = [r.written for r in rows]
            if all(w is not None for w in written) and \
                    [w.first for w in written if w] != sorted(w.first for w in written if w):
                rows = sorted(rows, key=lambda r: r.written.first if r.written else 0)
                written = [r.written for r in rows]
                self.log.report(MalformedFile(
                    "rows are not in the order of places; sorted by place", has_value=False,
                    **self.reader.where(section.header[0]),
                ), level="info")
        places, problems = shared_places(written)
        place_header = cols.headers[cols.place] if cols.place is not None else None
        for problem in problems:
            row = rows[problem.index]
            self.log.report(InconsistentResult(
                problem.message, value=row.place_text, has_value=True,
                **self.reader.where(row.cells[cols.place or 0], place_header or ""),
            ))
        for problem in order_problems(places, [r.score for r in rows]):
            row = rows[problem.index]
            self.log.report(InconsistentResult(
                problem.message, value=row.score, has_value=True,
                **self.reader.where(row.cells[cols.score or 0],
                                    cols.headers[cols.score] if cols.score is not None else ""),
            ))
        units: list[Unit] = []
        handles = cols.handles
        for place, row in zip(places, rows):
            players = _players(row, organiser, handles)
            if any(_PHANTOM.match(p.name) for p in players):
                self.log.report(MalformedFile(
                    "phantom unit kept in the ranking without players", has_value=True,
                    value=", ".join(row.names), **self.reader.where(row.cells[0]),
                ), level="info")
                players = ()
            units.append(Unit(place=place, place_text=row.place_text, label=row.label,
                              score=row.score, players=players))
        return tuple(units)

    def events(self) -> GridEvents | None:
        heading_lines, all_sections = self.reader.sections()
        sections: list[_Section] = []
        for section in all_sections:
            missing = lacking_evidence(section.columns, section.rows)
            if missing is None:
                sections.append(section)
            else:
                self.refusals.append(f"{self._table_name(section.header[0])} {missing}")
        if not sections:
            used = {t for s in all_sections for t in s.tables}
            self.refusals.extend(_describe_tables(self.reader.grid, used))
        taken = {-1} | {i for i, s in enumerate(all_sections) if any(s is t for t in sections)}
        for index, error, level in self.reader.log.entries:
            if index in taken:
                self.log.report(error, level)
        if not sections:
            return None
        left = _left_behind(self.reader.grid, sections, all_sections)
        if left is not None:
            raise MalformedFile(left, file=self.log.file, table=self.reader.grid.name)
        grid = self.reader.grid
        sheet = "" if _DEFAULT_SHEET.match(grid.name) else grid.name
        stem = PurePath(self.source).stem.replace("_", " ") if self.source else ""
        heading = read_heading([*heading_lines, *grid.heading])
        date = heading.date
        for fallback in (sheet, stem):
            if date is None and (found := find_date(fallback)) is not None:
                date = found.date
        if date is None:
            raise MalformedFile(
                "no event date (looked in the lines above the table, the sheet or page title "
                "and the file name)", file=self.log.file, table=grid.name,
            )
        title = heading.title or sheet or stem
        if not heading.title:
            self.log.report(MalformedFile(
                "no title above the table; the event is named after the "
                + ("sheet" if sheet else "file"), value=title, has_value=True, table=grid.name,
            ), level="info")
        events: list[Event] = []
        names: set[str] = set()
        for number, section in enumerate(sections, start=1):
            section_heading = read_heading(section.lines)
            name = section_heading.section or (
                section.lines[-1] if section.lines else heading.section
            )
            if not name and len(sections) > 1:
                name = str(number)
            units = _joined_pairs_split(self.units(section, heading.organiser))
            names.update(p.name for u in units for p in u.players)
            events.append(Event(
                game="bridge", title=title, date=date,
                kind=_kind(section.columns, f"{title} {name}",
                           [len(u.players) for u in units]),
                scoring=section.columns.scoring, units=units,
                boards=section_heading.boards or heading.boards, section=name,
                organiser=heading.organiser, format=self.fmt,
            ))
        return GridEvents(tuple(events), frozenset(names))


def read_grid(grid: Grid, *, fmt: str, log: IssueLog, source: str = "",
              refusals: list[str] | None = None) -> GridEvents | None:
    """The events of one grid, None if it holds no results table (rows or transposed).

    Only tables with evidence of a ranking are read (:func:`lacking_evidence`); why each other
    table is not a result table is appended to ``refusals`` (``table 2 has a names column but no
    place or score column``)."""
    builder = _Builder(_Reader(grid, log), fmt, source)
    found = builder.events()
    if found is not None:
        return found
    turned = _transposed(grid)
    if turned is None:
        if refusals is not None:
            refusals.extend(builder.refusals)
        return None
    log.report(MalformedFile(
        "results run across the columns (transposed layout)", table=grid.name,
        has_value=False,
    ), level="info")
    across = _Builder(_Reader(turned, log), fmt, source)
    found = across.events()
    if found is None and refusals is not None:
        refusals.extend(dict.fromkeys(builder.refusals + across.refusals))
    return found
