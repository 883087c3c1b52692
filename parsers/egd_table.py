"""The EGD tournament table: the plain-text ``.h`` / ``.h9`` file of European go tournaments.

European go tournament software (MacMahon, Gotha, OpenGotha "export to EGF") writes it for the
European Go Database. The layout (EGF rating-list "tournament table format", as the EGD parser
reads it; docs/rules/inputs.md, "Other games"):

- everything after ``;`` is a comment; header comments carry tags: ``; CL[A]`` class,
  ``; EV[name]``, ``; PC[country, city]``, ``; DT[2023-05-20,2023-05-21]`` (first and last
  day; also the SGF shortcuts ``2023-05-20,21`` and ``2023-05-31,06-01`` and the range forms
  ``..``, `` - ``, ``/`` and ``20-21.05.2023``: the event is dated on the first day),
  ``; HA[h9]`` handicap rule, ``; KM[6.5]`` komi, ``; TM[..]`` time, ``; CM[..]`` comment;
- one line per player, its fields separated by spaces or tabs: place (left out on the second
  and later lines of a tie: the number is then the previous one plus one), surname and given
  name (parts of one name joined with ``_``, read as a space; a name of placeholders only,
  ``? ??`` in an online tournament, is no player: their games are left out with a warning),
  grade (``3d``, ``12k``, ``1p``; also upper case, or a bare number = kyu: kept as the grade the
  player declared, ``go_grades``; 1-30 kyu, 1-9 dan or pro, else a warning), country code, club,
  then program-specific columns (wins, MMS, SOS, SOSOS, ... - numbers, sometimes a ``0=``), then
  one result per round, and optionally ``|`` and the player's EGD pin;
- a round result is ``<opponent's place><+|-|=>[/<b|w>[<handicap>]]``: ``12+/w3`` won with white
  giving three stones, ``5-/b`` (= ``5-/b0``) lost with black, ``7=`` jigo. OpenGotha writes
  ``?`` for a result not known yet, ``!`` instead of ``/`` for a result by default (forfeit) and
  ``?`` for an unknown colour; ``12+w3`` without the slash is read too; a bare ``?`` is a round
  about which nothing is known yet. ``0+`` / ``0-`` / ``0=``
  are rounds without a game (bye or absence; the free point is not a game).

Round results are found from the right end of each line: every line has the same number of
rounds, so the count most lines agree on is taken and a leading extra match on a line (a
tie-break column that reads like ``0=``) is a column, not a round.

Every game is listed twice, once on each player's line; :func:`cross_table_events` emits it once
and checks that the halves agree (opponents point at each other, opposite results, the same
handicap). Halves that agree on the result but both give the same colour keep the game, with a
warning and the colours left unknown. ``go_html`` reads HTML cross tables with the same core.

Errors (``_errors``): a file without a date is a ``MalformedFile``; halves that disagree are an
``InconsistentResult`` naming row (the line number), column (``round 3``) and value, reported and
the game skipped (raised in strict mode). A table without one game to read is refused
(``MalformedFile``: no games to read).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

from ._dates import parse_date
from ._errors import InconsistentResult, MalformedFile
from ._gate import filler_reason
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Unit
from ._registry import Format
from ._text import decode_bytes, normalise_space
from .go_grades import declared

__all__ = [
    "FORMAT",
    "Colour",
    "CrossPlayer",
    "HalfGame",
    "Tournament",
    "cross_table_events",
    "detect",
    "parse",
    "parse_result_token",
]

NAME = "egd_table"

Colour = Literal["black", "white"]
_COLOURS: dict[str, Colour] = {"b": "black", "w": "white"}

_TOKEN = re.compile(
    r"^(?P<opponent>\d{1,4})(?P<result>[+\-=?])"
    r"(?:(?P<type>[/!])?(?P<colour>[bwBW?])(?P<handicap>\d{1,2})?)?(?P<note>!)?$"
)
"""One round's result (module docstring); ``!`` before the colour or at the end = by default."""

_TAG = re.compile(r"\b([A-Z]{2})\[([^\]]*)\]")
_HEADER_LINE = re.compile(r"^\s*;\s*(?:(?:EV|DT|CL|PC|HA|KM|TM|TC)\[|(?:name|date|vill)=)",
                          re.MULTILINE)
_PLAYER_LINE = re.compile(r"^\s*\d+\s+\S.*\s\d{1,4}[+\-=]", re.MULTILINE)
_GRADE = re.compile(r"^\d{1,2}[kdpKDP]?$")
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")
_HAS_LETTER = re.compile(r"[^\W\d_]")
_EGD_RESULTS = re.compile(r"^\s*\d+\s+\S.*\s\d{1,4}[+\-=]/[bwBW]\d", re.MULTILINE)
_COMMENT_DATE = re.compile(r"^;\s*(\d{1,2})[./](\d{1,2})[./](\d{4})\s*$|^;\s*(\d{4})-(\d{2})-(\d{2})\s*$")
_GLUED_GRADE = re.compile(r"^([^\W\d_](?:[^\W\d]|['-])+)(\d{1,2}[kdpKDP])$")
_FILLER_NUMBER = re.compile(r"\s*#?\d{1,3}$")
_SCORE_CELL = re.compile(r"^[+-]?\d+(?:[.,]\d+)?[A-Za-z]?$")
"""A score column after the rounds: points, SOS, a place, a tie-break shared (``16S``)."""


# --- the cross-table core (shared with go_html) ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Tournament:
    """What a go table says about its tournament."""

    name: str
    organiser: str
    start: dt.date
    end: dt.date
    komi: float | None = None
    round_dates: dict[int, dt.date] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CrossPlayer:
    """One line of a cross table: the number opponents refer to, and the player as written."""

    number: int
    player: PlayerAsWritten
    row: int | str


@dataclass(frozen=True, slots=True)
class HalfGame:
    """One player's view of one round, as one cell of the table writes it."""

    number: int
    """The player's number (what opponents write)."""
    round: int
    opponent: int
    """0 = no game this round (bye, absence)."""
    result: str
    """``+`` won, ``-`` lost, ``=`` jigo, ``?`` not known yet."""
    colour: Colour | None
    handicap: int | None
    forfeit: bool
    text: str
    row: int | str
    column: str
    table: str | None = None


def parse_result_token(text: str) -> tuple[int, str, Colour | None, int | None, bool] | None:
    """``"12+/w3"`` -> (12, "+", "white", 3, False); None if ``text`` is not a round result.

    A colour without a number means an even game (``23+/w`` = ``23+/w0``); no colour at all
    leaves colour and handicap unknown. The last item is True for a result by default (``!``).
    """
    if text == "-":  # a round without a game, written as a dash by some programs
        return 0, "-", None, None, False
    if text in ("?", "0?"):  # nothing known about the round (no pairing written yet)
        return 0, "?", None, None, False
    match = _TOKEN.match(text)
    if match is None:
        return None
    colour = _COLOURS.get((match["colour"] or "?").lower())
    handicap: int | None = None
    if match["handicap"] is not None:
        handicap = int(match["handicap"])
    elif colour is not None:
        handicap = 0
    forfeit = match["type"] == "!" or match["note"] is not None
    return int(match["opponent"]), match["result"], colour, handicap, forfeit


def _note(problem: str, half: HalfGame) -> MalformedFile:
    """An info note about the cell of ``half``."""
    return MalformedFile(problem, table=half.table, row=half.row, column=half.column,
                         value=half.text)


def _inconsistent(problem: str, half: HalfGame) -> InconsistentResult:
    return InconsistentResult(
        problem, table=half.table, row=half.row, column=half.column, value=half.text,
    )


def _opposite(a: str, b: str) -> bool:
    return {a, b} == {"+", "-"} or a == b == "="


def _merge(first: HalfGame, second: HalfGame) -> tuple[Colour | None, Colour | None, int | None]:
    """Colours of ``first`` and ``second`` and the handicap, from whichever half gives them."""
    other: dict[str | None, Colour | None] = {"black": "white", "white": "black", None: None}
    colour_a = first.colour or other[second.colour]
    colour_b = second.colour or other[first.colour]
    handicap = first.handicap if first.handicap is not None else second.handicap
    return colour_a, colour_b, handicap


def _disagreement(first: HalfGame, second: HalfGame) -> str | None:
    """Why the two halves of one game contradict each other, or None."""
    if "?" in (first.result, second.result):
        return None  # a result not known yet contradicts nothing
    if not _opposite(first.result, second.result):
        return (f"round {first.round}: players {first.number} and {second.number} both "
                f"report {first.result!r}/{second.result!r}; expected opposite results")
    if (first.handicap is not None and second.handicap is not None
            and first.handicap != second.handicap):
        return (f"round {first.round}: players {first.number} and {second.number} disagree on the "
                f"handicap ({first.handicap} vs {second.handicap})")
    if first.forfeit != second.forfeit:
        return (f"round {first.round}: players {first.number} and {second.number} disagree on "
                "whether the game was played")
    return None


def _same_colour(first: HalfGame, second: HalfGame) -> bool:
    """Both halves give the same colour: they agree on the game but not on who had black."""
    return first.colour is not None and first.colour == second.colour


def _unit(half: HalfGame, player: PlayerAsWritten, colour: Colour | None) -> Unit:
    place, score = {"+": (1.0, 1.0), "-": (2.0, 0.0), "=": (1.5, 0.5)}[half.result]
    return Unit(place=place, place_text=half.text, label=str(half.number), score=score,
                players=(player,), colour=colour)


def _event(
    first: HalfGame, second: HalfGame, players: dict[int, CrossPlayer], info: Tournament,
    fmt: str, board: int | None,
) -> Event:
    colour_a, colour_b, handicap = _merge(first, second)
    if _same_colour(first, second):
        colour_a = colour_b = None
    unit_a = _unit(first, players[first.number].player, colour_a)
    unit_b = _unit(second, players[second.number].player, colour_b)
    black, white = (unit_b, unit_a) if colour_a == "white" else (unit_a, unit_b)
    pairing = f"{black.players[0].name} \u2013 {white.players[0].name}"
    date = info.round_dates.get(first.round, info.start)
    end = info.end if first.round not in info.round_dates and info.end != info.start else None
    # spec go-rfg.md: a handicap game has its own komi (usually 0.5); the file's komi is the
    # komi of even games, so a handicap game's komi stays unknown.
    komi = info.komi if handicap == 0 else None
    return Event(
        game="go", title=f"{info.name} round {first.round}: {pairing}", date=date,
        kind="individual", scoring="unknown",
        units=tuple(sorted((black, white), key=lambda u: u.place or 0.0)),
        section=f"board {board}" if board is not None else pairing,
        organiser=info.organiser, format=fmt, end_date=end, round=first.round,
        parent=info.name, handicap=handicap, komi=komi,
    )


def _report_byes(halves: Sequence[HalfGame], log: IssueLog) -> None:
    """Rounds without a game: one note per empty round, one per bye in a played round."""
    by_round: dict[int, list[HalfGame]] = {}
    for half in halves:
        by_round.setdefault(half.round, []).append(half)
    empty = sorted(r for r, hs in by_round.items() if all(h.opponent == 0 for h in hs))
    if empty:
        log.report(MalformedFile(
            f"round(s) {_ranges(empty)}: no games (not played); no events",
            table=halves[0].table,
        ), level="info")
    for half in halves:
        if half.opponent == 0 and half.round not in empty:
            log.report(_note(
                f"round {half.round}: player {half.number} has no game (bye or absence); "
                "not an event", half), level="info")


def _ranges(numbers: Sequence[int]) -> str:
    """``[5, 6, 7, 9]`` -> ``"5-7, 9"``."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def cross_table_events(
    players: Sequence[CrossPlayer], halves: Iterable[HalfGame], info: Tournament, *,
    fmt: str, log: IssueLog,
) -> tuple[Event, ...]:
    """One event per game of a cross table whose halves agree (module docstring).

    Byes and absences, results not known yet and results by default are notes, not events;
    a half whose opponent does not point back, or two halves that contradict each other, are
    ``InconsistentResult`` issues and the game is skipped.
    """
    by_number = {p.number: p for p in players}
    all_halves = list(halves)
    if all_halves:
        _report_byes(all_halves, log)
    index = {(h.round, h.number): h for h in all_halves}
    events: list[Event] = []
    done: set[tuple[int, int]] = set()
    for half in all_halves:
        if half.opponent == 0 or (half.round, half.number) in done:
            continue
        if half.opponent not in by_number or half.opponent == half.number:
            log.report(_inconsistent(
                f"round {half.round}: opponent {half.opponent} is not a player of the table",
                half))
            continue
        other = index.get((half.round, half.opponent))
        done.update({(half.round, half.number), (half.round, half.opponent)})
        if other is None or other.opponent != half.number:
            written = "nothing" if other is None else repr(other.text)
            log.report(_inconsistent(
                f"round {half.round}: player {half.opponent} does not list this game "
                f"(writes {written})", half))
            continue
        problem = _disagreement(half, other)
        if problem is not None:
            log.report(_inconsistent(problem + "; game skipped", half))
            continue
        if "?" in (half.result, other.result):
            log.report(_note(
                f"round {half.round}: players {half.number} and {other.number}: result not "
                "known yet; not an event", half), level="info")
            continue
        if _same_colour(half, other):
            log.report(_inconsistent(
                f"round {half.round}: players {half.number} and {other.number} both write "
                f"{half.colour}; the game is kept with the colours left unknown", half))
        if half.forfeit:
            log.report(_note(
                f"round {half.round}: players {half.number} and {other.number}: result by "
                "default (forfeit); not an event", half), level="info")
            continue
        events.append(_event(half, other, by_number, info, fmt, None))
    if events and any(u.colour is None for e in events for u in e.units):
        log.report(MalformedFile(
            "colours and handicaps are not given for some games; left unknown",
        ), level="info")
    if events and any(e.round not in info.round_dates for e in events):
        log.report(MalformedFile(
            f"the file gives no date per round; games dated on the first day "
            f"{info.start.isoformat()}" + (
                f" (end_date {info.end.isoformat()})" if info.end != info.start else ""),
        ), level="info")
    return tuple(sorted(events, key=lambda e: e.round or 0))  # stable: table order per round


# --- the EGD text file ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Line:
    """A player line split into its parts."""

    row: int
    player: CrossPlayer
    tokens: tuple[str, ...]
    """Trailing tokens that read as round results."""


def _decode(data: bytes) -> str:
    return decode_bytes(data).text


def detect(data: bytes, filename: str = "") -> bool:
    """A text file with ``; EV[..]``-style header tags and a line ending in round results."""
    head = data[:65536]
    if head.lstrip()[:1] in (b"<", b"(", b"{"):
        return False
    text = head.decode("utf-8", errors="replace")
    if not _PLAYER_LINE.search(text):
        return False
    # the header tags, or (a table whose heading is plain comments: ``; EGC 2009``) player
    # lines with results in the EGD grammar, colour and handicap written (``14+/b0``)
    return bool(_HEADER_LINE.search(text)) or len(_EGD_RESULTS.findall(text)) >= 3


_FFG_TAG = re.compile(r"^;\s*(name|date|vill|komi)=(.*)$", re.IGNORECASE)
_FFG_KEYS = {"name": "EV", "date": "DT", "vill": "PC", "komi": "KM"}
_FFG_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


def _day_first(day: str, month: str, year: str) -> str:
    """``17/11/2012`` read day first, as ``DT[...]`` writes it: ``2012-11-17``."""
    return f"{year}-{int(month):02d}-{int(day):02d}"


def _comment_heading(lines: Sequence[str], tags: dict[str, str]) -> None:
    """A table without ``EV``/``DT`` tags whose first comment lines name the tournament and its
    day (``; EGC 2009``, ``; 26/07/2009``): read as ``EV`` and ``DT``. A day written with
    slashes is day first when its first number is over 12 and refused as ambiguous otherwise
    (``3/12/2012``), as every date of the project (``_dates``)."""
    comments = []
    for line in lines:
        if not line.strip():
            continue
        if not line.lstrip().startswith(";"):
            break
        comments.append(line.strip())
    for comment in comments:
        date = _COMMENT_DATE.match(comment)
        if date and "DT" not in tags:
            if date[4]:
                tags["DT"] = f"{date[4]}-{date[5]}-{date[6]}"
            elif int(date[1]) > 12:
                tags["DT"] = _day_first(date[1], date[2], date[3])
            continue
        text = normalise_space(comment.lstrip(";"))
        if "EV" not in tags and _HAS_LETTER.search(text) and not re.search(
                r"\b(?:name|pl|place|rank)\b", text, re.IGNORECASE):
            tags["EV"] = text


def _tags(lines: Sequence[str]) -> dict[str, str]:
    """The header tags (``EV``, ``DT``, ...) of the comment lines; the first of each wins.

    The French federation's ``.tou`` files (OpenGotha and the FFG's own programs write them)
    carry the same table under ``;name=``, ``;date=`` (day first: ``17/11/2012``), ``;vill=``
    and ``;komi=`` lines: read as ``EV``, ``DT``, ``PC`` and ``KM``."""
    tags: dict[str, str] = {}
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(";"):
            for key, value in _TAG.findall(stripped):
                tags.setdefault(key, normalise_space(value))
            ffg = _FFG_TAG.match(stripped)
            if ffg:
                value = normalise_space(ffg[2])
                day = _FFG_DATE.match(value) if ffg[1].lower() == "date" else None
                if day:
                    value = _day_first(day[1], day[2], day[3])
                if value:
                    tags.setdefault(_FFG_KEYS[ffg[1].lower()], value)
    if "EV" not in tags or "DT" not in tags:
        _comment_heading(lines, tags)
    return tags


_RANGE_SPLIT = re.compile(r"\s*(?:,|;|\.\.|/|\u2013|\u2014|\s-\s|\bto\b|\bbis\b|\bdo\b)\s*")
_ISO_DAY = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_MONTH_DAY = re.compile(r"^(\d{1,2})-(\d{1,2})$")
_DAY = re.compile(r"^(\d{1,2})$")
_DOTTED_RANGE = re.compile(r"^(\d{1,2})\.?\s*[-\u2013]\s*(\d{1,2}\.\s?\d{1,2}\.\s?\d{4})$")


def _date_list(text: str) -> list[dt.date]:
    """The days a ``DT[...]`` names, first one first.

    The SGF/EGD forms: ``2017-02-11,2017-02-12``; a part that leaves out the year or the year and
    month takes them from the part before (``2017-02-11,12``, ``2016-12-30,31,2017-01-01``,
    ``2017-02-28,03-01``); the range forms ``2017-02-11..2017-02-12``, ``2017-02-11 - 12``,
    ``2017-02-11/2017-02-12``, ``2017-02-11 to 2017-02-12``; a day range before a dotted date
    (``11-12.02.2017``) and single dates in the other forms ``_dates.parse_date`` reads."""
    text = normalise_space(text)
    dotted = _DOTTED_RANGE.match(text)
    if dotted:
        last = parse_date(dotted[2])
        return [last.replace(day=int(dotted[1])), last]
    days: list[dt.date] = []
    for part in (p for p in _RANGE_SPLIT.split(text) if p and p.strip()):
        part = part.strip()
        previous = days[-1] if days else None
        if (m := _ISO_DAY.match(part)) is not None:
            days.append(dt.date(int(m[1]), int(m[2]), int(m[3])))
        elif previous is not None and (m := _MONTH_DAY.match(part)) is not None:
            days.append(dt.date(previous.year, int(m[1]), int(m[2])))
        elif previous is not None and (m := _DAY.match(part)) is not None:
            days.append(dt.date(previous.year, previous.month, int(m[1])))
        else:
            days.append(parse_date(part))
    return days


_LONGEST_SPAN = dt.timedelta(days=366)
"""A tournament's days span at most this (online leagues run for months, none for years)."""


def _dates(tags: dict[str, str], log: IssueLog) -> tuple[dt.date, dt.date]:
    """``DT[2023-05-20,2023-05-21]`` -> (first day, last day); no date is ``MalformedFile``.

    The first day is the one written first. A later day that cannot belong to the same
    tournament (before the first, or more than a year after it: ``2003-11-09,2023-11-11``, a
    typing slip of the year) is left out with a warning, and the tournament read from the first
    day (docs/rules/inputs.md, "Files from the field")."""
    text = tags.get("DT", "")
    if not text:
        raise MalformedFile("no tournament date: the file has no DT[...] header", file=log.file)
    try:
        days = _date_list(text)
    except ValueError:
        raise MalformedFile("invalid tournament date in DT[...]", file=log.file,
                            value=text) from None
    if not days:
        raise MalformedFile("invalid tournament date in DT[...]", file=log.file, value=text)
    first = days[0]
    kept = [d for d in days if first <= d <= first + _LONGEST_SPAN]
    if len(kept) < len(days):
        dropped = ", ".join(d.isoformat() for d in days if d not in kept)
        log.report(MalformedFile(
            f"DT[...] names a day that cannot be this tournament's ({dropped}: before the first "
            f"day or more than a year after it); read from the first day, {first.isoformat()}",
            column="DT", value=text, has_value=True))
    return first, max(kept)


def _komi(tags: dict[str, str], log: IssueLog) -> float | None:
    text = tags.get("KM", "")
    if not text:
        return None
    try:
        return float(text.replace(",", "."))
    except ValueError:
        log.report(MalformedFile("komi KM[...] is not a number; left unknown", value=text),
                   level="info")
        return None


def _organiser(tags: dict[str, str], name: str) -> str:
    """``PC[FI, Helsinki]`` -> ``FI, Helsinki``; ``PC[,Lyon]`` -> ``Lyon``; else the name."""
    parts = [normalise_space(p) for p in tags.get("PC", "").split(",")]
    return ", ".join(p for p in parts if p) or name


def _tournament(tags: dict[str, str], source: str, log: IssueLog) -> Tournament:
    name = tags.get("EV", "")
    if not name:
        name = PurePath(source).stem if source else ""
        if not name:
            raise MalformedFile("no tournament name: the file has no EV[...] header",
                                file=log.file)
        log.report(MalformedFile(f"no EV[...] header; tournament named {name!r} after the file"),
                   level="info")
    start, end = _dates(tags, log)
    return Tournament(name=name, organiser=_organiser(tags, name), start=start, end=end,
                      komi=_komi(tags, log))


def _results_span(tokens: Sequence[str]) -> tuple[int, int]:
    """Where the round results stand on a player line: ``(begin, end)``, empty when none.

    They close the line, or are followed only by score columns (bare numbers: points, SOS,
    SOSOS, a place, ``16S``), as the world championships' tables write them
    (``4+ 9+ 36+ 6 25 134``)."""
    end = len(tokens)
    while end > 0 and _SCORE_CELL.match(tokens[end - 1]) \
            and parse_result_token(tokens[end - 1]) is None:
        end -= 1
    begin = end
    while begin > 0 and parse_result_token(tokens[begin - 1]) is not None:
        begin -= 1
    if begin == end:  # no results before the numbers: the numbers were not score columns
        return len(tokens), len(tokens)
    return begin, end


def _trailing_results(tokens: Sequence[str]) -> int:
    begin, end = _results_span(tokens)
    return end - begin


def _split_line(row: int, text: str, log: IssueLog, previous: int | None = None) -> _Line | None:
    """A player line, or None (with an issue) when the line is not one.

    A line without its number right after a player line is the next player of a tie (OpenGotha
    writes the place once per tie): it takes the previous number plus one, the number the
    opponents' results refer to."""
    body, _, pin_part = text.partition("|")
    tokens = body.split()
    pin = pin_part.split()[0] if pin_part.split() else None
    if (tokens and not tokens[0].isdigit() and previous is not None
            and _trailing_results(tokens) > 0):
        tokens = [str(previous + 1), *tokens]
    if not tokens or not tokens[0].isdigit():
        log.report(MalformedFile("line is not a player line; ignored", row=row,
                                 value=normalise_space(text)))
        return None
    grade_at = next((i for i in range(2, len(tokens)) if _GRADE.match(tokens[i])), None)
    glued = next((i for i in range(1, len(tokens)) if _GLUED_GRADE.match(tokens[i])), None)
    if glued is not None and (grade_at is None or glued < grade_at):
        # a long name runs into the grade column: ``Heidrun19K``
        match = _GLUED_GRADE.match(tokens[glued])
        assert match is not None
        tokens = [*tokens[:glued], match[1], match[2], *tokens[glued + 1:]]
        grade_at = glued + 1
    if grade_at is None:
        log.report(MalformedFile("player line without a grade (like 3d or 12k); ignored",
                                 row=row, value=normalise_space(text)))
        return None
    begin, end = _results_span(tokens)
    begin = max(begin, grade_at + 1)
    rest = tokens[grade_at + 1: begin]
    club = None
    if rest and _COUNTRY.match(rest[0]):
        rest = rest[1:]
    if rest and not _NUMBER.match(rest[0]):
        club = rest[0]
    name = normalise_space(" ".join(tokens[1:grade_at]).replace("_", " "))
    # the grade column is the grade the player declared; a bare number is a kyu grade
    grade = tokens[grade_at] + ("k" if tokens[grade_at].isdigit() else "")
    player = declared(PlayerAsWritten(name=name, federation_id=pin, club=club), grade, log,
                      row=row)
    return _Line(row=row, player=CrossPlayer(int(tokens[0]), player, row),
                 tokens=tuple(tokens[begin:end]))


def _rounds(lines: Sequence[_Line]) -> int:
    """The number of rounds: the trailing-result count most lines agree on (smaller on a tie)."""
    counts = Counter(len(line.tokens) for line in lines)
    return max(counts.items(), key=lambda item: (item[1], -item[0]))[0]


def _halves(lines: Sequence[_Line], n_rounds: int, log: IssueLog) -> list[HalfGame]:
    halves: list[HalfGame] = []
    for line in lines:
        if len(line.tokens) < n_rounds:
            log.report(MalformedFile(
                f"line has {len(line.tokens)} round results, the table has {n_rounds}; "
                "its results are ignored", row=line.row, value=" ".join(line.tokens),
                has_value=True,
            ))
            continue
        for r, token in enumerate(line.tokens[len(line.tokens) - n_rounds:], start=1):
            parsed = parse_result_token(token)
            assert parsed is not None  # _trailing_results matched it
            opponent, result, colour, handicap, forfeit = parsed
            halves.append(HalfGame(
                number=line.player.number, round=r, opponent=opponent, result=result,
                colour=colour, handicap=handicap, forfeit=forfeit, text=token, row=line.row,
                column=f"round {r}",
            ))
    return halves


def _player_lines(text: str, log: IssueLog) -> list[_Line]:
    lines: list[_Line] = []
    seen: dict[int, int] = {}
    for row, raw in enumerate(text.splitlines(), start=1):
        content = raw.split(";", 1)[0]
        if not content.strip():
            continue
        line = _split_line(row, content, log, lines[-1].player.number if lines else None)
        if line is None:
            continue
        number = line.player.number
        if number in seen:
            raise MalformedFile(f"place {number} is written twice (first on line {seen[number]})",
                                file=log.file, row=row, column="place", value=str(number))
        seen[number] = row
        lines.append(line)
    if not lines:
        raise MalformedFile("no player lines", file=log.file)
    return lines


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Events (one per game) of an EGD tournament table; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = _decode(data)
    info = _tournament(_tags(text.splitlines()), source, log)
    lines = _player_lines(text, log)
    n_rounds = _rounds(lines)
    if n_rounds == 0:
        raise MalformedFile("no round results on the player lines", file=log.file)
    nameless = {line.player.number for line in lines
                if not _HAS_LETTER.search(line.player.player.name)
                or filler_reason(_FILLER_NUMBER.sub("", line.player.player.name))}
    for line in lines:
        if line.player.number in nameless:
            name = line.player.player.name
            why = ("is a seat filler (a 'Ghost' registered to pair an odd player)"
                   if _HAS_LETTER.search(name) else "has no name (only placeholders)")
            log.report(MalformedFile(
                f"player {line.player.number} {why}; their games are left out",
                row=line.row, column="name", value=name,
            ))
    halves = [h for h in _halves(lines, n_rounds, log)
              if h.number not in nameless and h.opponent not in nameless]
    events = cross_table_events(
        [line.player for line in lines if line.player.number not in nameless], halves, info,
        fmt=NAME, log=log,
    )
    if not events:
        why = ("every game is with a player without a name" if nameless
               else "no round has a played game with a known result")
        raise MalformedFile(f"no games to read: {why}", file=log.file)
    return ParseResult(format=NAME, events=events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="go: EGD tournament table (.h/.h9 from MacMahon, Gotha, OpenGotha), one event "
    "per game",
    detect=detect,
    parse=parse,
)
