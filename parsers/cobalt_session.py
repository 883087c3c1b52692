"""Cobalt club-session import CSV (ABF, Australia): a seating list, recognised and refused.

Cobalt (the Australian Bridge Federation's club system) imports a club session's players from a
CSV with the header ``PairNumber,Name,ABF No,Initial Seating`` (more columns may follow, e.g.
``Phone``), one player per row (fixtures/cobalt_session/cobalt_club_session_basic.csv)::

    PairNumber,Name,ABF No,Initial Seating,Phone,
    1,SHIRLEY RUTTER,936235,1-NS,,
    1,PHANTOM,,1-EW,,

It says who sits where before play (``1-NS``: pair 1, North-South; a ``PHANTOM`` pair fills an
empty seat), and nothing else: no places, no scores, no date. It cannot yield a ranked event, so
:func:`parse` raises :class:`UnsupportedVariant` naming the file, instead of letting the file be
claimed by nothing or read as a result list by a generic spreadsheet format. The session's results
come from the scoring program's own export (USEBIO, for example).

``parse`` first checks that the file really is such a list (``MalformedFile`` otherwise, naming
the row and the column), so the refusal can say how many players and pairs it seats.
"""

from __future__ import annotations

import csv
import io

from ._errors import MalformedFile, NoResults, UnsupportedVariant
from ._issues import source_name
from ._model import ParseResult
from ._registry import Format
from ._text import decode_bytes, normalise_space

__all__ = ["COLUMNS", "FORMAT", "detect", "parse"]

NAME = "cobalt_session"

COLUMNS = ("pairnumber", "name", "abf no", "initial seating")
"""The first four header cells, compared in lower case with spaces collapsed."""


def _header(line: str) -> tuple[str, ...]:
    cells = next(csv.reader([line]), [])
    return tuple(normalise_space(c).lower() for c in cells)


def detect(data: bytes, filename: str = "") -> bool:
    """The first non-blank line starts with the columns ``PairNumber,Name,ABF No,Initial
    Seating``."""
    text = data[:4096].decode("latin-1").removeprefix("\xef\xbb\xbf")
    first = next((line for line in text.splitlines() if line.strip()), "")
    return _header(first)[: len(COLUMNS)] == COLUMNS


def _seats(text: str, file: str) -> tuple[int, set[str]]:
    """(players, pairs) of the list: rows with a name, and distinct ``Initial Seating`` values.

    ``MalformedFile`` for a row without a name or a seating.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    players = 0
    pairs: set[str] = set()
    line = 1
    try:
        header = next(reader, [])
        if tuple(normalise_space(c).lower() for c in header)[: len(COLUMNS)] != COLUMNS:
            raise MalformedFile("not a Cobalt club-session list: the header needs "
                                "PairNumber, Name, ABF No, Initial Seating", file=file, row=1,
                                value=",".join(header))
        line = reader.line_num + 1
        for cells in reader:
            cells = [normalise_space(c) for c in cells]
            if any(cells):
                name = cells[1] if len(cells) > 1 else ""
                seating = cells[3] if len(cells) > 3 else ""
                if not name:
                    raise MalformedFile("row without a name", file=file, row=line,
                                        column="Name", value=name)
                if not seating:
                    raise MalformedFile("row without a seating", file=file, row=line,
                                        column="Initial Seating", value=seating)
                players += 1
                pairs.add(seating.upper())
            line = reader.line_num + 1
    except csv.Error as exc:
        raise MalformedFile(f"not readable as CSV ({exc})", file=file, row=line) from exc
    return players, pairs


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Always raises: a seating list has no result (see the module docstring)."""
    file = source_name(source)
    players, pairs = _seats(decode_bytes(data).text, file)
    raise NoResults(
        "a seating list without results or date; a Cobalt club-session import file "
        f"({_count(players, 'player')} in {_count(len(pairs), 'pair')}) says who sits where, "
        "not how they scored: "
        "load the session's results instead (e.g. the scoring program's USEBIO export)",
        file=file,
    )


FORMAT = Format(
    name=NAME,
    description="Cobalt club-session seating CSV (PairNumber, Name, ABF No, Initial Seating); "
                "recognised and refused: it has no results",
    detect=detect,
    parse=parse,
)
