"""Go helpers shared by the go rating schemes: the games frame, grades, handicap, win probability.

The RFG scale (docs/rules/go-rfg.md "Scale"): the ideal player is at 3000, a player's distance to
it is ``d = 3000 - R``; rating 0 is 21 kyu, each 100 points one grade, 2000 = 1 kyu,
2100 = 1 dan.

The games frame (one row per game, from the first player's side) is checked once here by
:func:`check_games`; :func:`check_go_initial` checks the initial ratings (``player, rating
[, deviation]``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import InputError
from ._params import IDEAL, MIN_DISTANCE, Distance

__all__ = [
    "GAMES_COLUMNS",
    "GRADE_FLOOR",
    "IDEAL",
    "MIN_DISTANCE",
    "TITLES",
    "Distance",
    "GameCodes",
    "check_games",
    "check_go_initial",
    "declared_cells",
    "declared_rating",
    "declared_ratings",
    "distance",
    "encode_games",
    "grade",
    "grade_floor",
    "grade_rating",
    "group_sum",
    "handicap_points",
    "p",
    "title",
    "true_handicap",
    "win_probability",
]

Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]
DAN_FLOOR = 2100.0
"""1 dan (docs/rules/go-rfg.md "Scale"); below it the ``rms`` distance is the constant 1000."""

KYU_DISTANCE = 1000.0
"""``D`` of the ``rms`` distance when a player is below 1 dan (docs/rules/go-rfg.md "Win probability")."""

TITLES: dict[str, float] = {"KMS": 2150.0, "MS": 2350.0, "GR": 2550.0}
"""Title levels used in the sources (docs/rules/go-rfg.md "Scale"): candidate master, master, grand
master of sport."""

GAMES_COLUMNS = ("period", "player", "opponent", "result", "handicap", "colour")
"""Required columns of the games frame; ``date`` and ``komi`` are optional."""

_DATE = "datetime64[us]"
_COLOURS = {"b": "b", "w": "w", "black": "b", "white": "w"}


# --- grades ------------------------------------------------------------------------------------


def _grade_name(step: int) -> str:
    # docs/rules/go-rfg.md "Scale": step 0 (rating 0) = 21 kyu, step 20 (2000) = 1 kyu,
    # step 21 (2100) = 1 dan.
    return f"{step - 20}d" if step >= 21 else f"{21 - step}k"


GRADE_FLOOR = -900.0
"""30 kyu, the weakest grade written (the EGD's floor); a lower rating is shown as 30k."""


def grade(rating: float) -> str:
    """The kyu/dan grade of ``rating``, rounded to the nearest multiple of 100.

    docs/rules/go-rfg.md "Scale": 0 = 21k, 1800 = 3k, 2000 = 1k, 2100 = 1d, 2200 = 2d, the inverse
    of :func:`grade_rating` (``grade(grade_rating(g)) == g`` for 30k..9d). A rating exactly
    between two grades rounds up (2050 -> "1d", 2150 -> "2d"; the source allows either reading:
    "a strong 1 kyu or a weak 1 dan"); :func:`grade_floor` gives the other reading. Below 30k
    (-950) the grade shown is 30k.
    """
    return _grade_name(max(math.floor(float(rating) / 100.0 + 0.5), -9))


def grade_floor(rating: float) -> str:
    """The highest grade whose rating ``rating`` has reached (2050 -> "1k", 2100 -> "1d")."""
    return _grade_name(max(math.floor(float(rating) / 100.0), -9))


_GRADE = re.compile(r"^\s*(\d{1,2})\s*(k|kyu|d|dan|p|pro|кю|к|дан|д)\.?\s*$", re.IGNORECASE)
_KINDS = {"k": "k", "d": "d", "p": "p", "к": "k", "д": "d"}
_LIMITS = {"k": 30, "d": 9, "p": 9}


def grade_rating(text: str) -> float:
    """The rating of a declared grade (the inverse of :func:`grade`; docs/rules/go-rfg.md
    "Scale" and "First entry"): ``n kyu -> 2100 - 100 n`` (30k = -900, 21k = 0, 7k = 1400),
    ``n dan -> 2000 + 100 n`` (1d = 2100, 2d = 2200), ``n pro -> 2670 + 30 n`` (1p = 2700,
    9p = 2940: the EGF's professional grades, 30 points apart). Written ``"30K"``, ``"9k"``,
    ``"2D"``, ``"1P"``, ``"7 kyu"``, ``"7 dan"``, ``"2д"`` alike; kyu 1-30, dan and pro 1-9.
    Raises ``ValueError`` otherwise."""
    match = _GRADE.match(text)
    if match is None:
        raise ValueError(f"not a grade: {text!r}")
    n, kind = int(match.group(1)), _KINDS[match.group(2)[0].lower()]
    if not 1 <= n <= _LIMITS[kind]:
        raise ValueError(f"not a grade: {text!r}")
    if kind == "k":
        return 2100.0 - 100.0 * n
    if kind == "d":
        return 2000.0 + 100.0 * n
    return 2670.0 + 30.0 * n


def declared_rating(text: str, column: str = "rank", row: object = None,
                    frame: str = "games") -> float:
    """The start rating a ``rank`` cell of the games frame declares: a grade
    (:func:`grade_rating`) or a number (a rating on the same scale). Raises
    :class:`InputError` naming row and column for anything else."""
    try:
        return grade_rating(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not np.isfinite(value):
        raise InputError(f"row {row!r}, column {column!r}: {text!r} is not a grade like '5k' "
                         "or '2d' nor a rating", frame=frame)
    return value


def declared_ratings(games: pd.DataFrame, frame: str = "games") -> pd.Series:
    """Per player, the highest rating the grades declared in ``games`` give (columns ``rank``
    and ``opponent_rank`` of a checked games frame; empty cells declare nothing). A player
    who declared nothing is not in the result."""
    declared = pd.concat([
        pd.DataFrame({"player": games["player"], "rank": games["rank"], "column": "rank"}),
        pd.DataFrame({"player": games["opponent"], "rank": games["opponent_rank"],
                      "column": "opponent_rank"}),
    ])
    declared = declared[declared["rank"] != ""]
    if declared.empty:
        return pd.Series([], index=pd.Index([], dtype=object, name="player"), dtype=float)
    values = np.array([declared_rating(text, column, row, frame) for text, column, row in zip(
        declared["rank"], declared["column"], declared.index, strict=True)], dtype=np.float64)
    best = pd.Series(values).groupby(declared["player"].to_numpy()).max()
    best.index.name = "player"
    return best.astype(float)


def declared_cells(games: pd.DataFrame, periods: Callable[[], Iterable[pd.DataFrame]],
                   ) -> tuple[Floats, Floats]:
    """The rating every ``rank`` and ``opponent_rank`` cell of a checked games frame declares
    (:func:`declared_rating`; NaN where the cell is empty), each distinct text read once.

    When a cell is neither a grade nor a rating, the error is the one :func:`declared_ratings`
    raises for the first of the scheme's ``periods`` (chunks of ``games``, in the order the
    scheme reads them) that holds such a cell."""
    cells = []
    for column in ("rank", "opponent_rank"):
        texts, inverse = np.unique(games[column].to_numpy(object), return_inverse=True)
        values = np.full(len(texts), np.nan)
        for at, text in enumerate(texts):
            if text == "":
                continue
            try:
                values[at] = declared_rating(text, column)
            except InputError:
                for chunk in periods():
                    declared_ratings(chunk)
                raise
        cells.append(values[inverse.reshape(-1)])
    return cells[0], cells[1]


def title(rating: float) -> str:
    """The highest title level (:data:`TITLES`) ``rating`` reaches, ``""`` below KMS."""
    reached = [name for name, level in TITLES.items() if rating >= level]
    return reached[-1] if reached else ""


# --- handicap and win probability --------------------------------------------------------------


def true_handicap(stones: npt.ArrayLike) -> Floats:
    """docs/rules/go-rfg.md "Win probability": ``H = F - 0.5`` for ``F >= 1`` (one stone, a move
    without komi, is worth 50 points), ``H = 0`` for an even game."""
    f = np.asarray(stones, dtype=np.float64)
    return np.where(f >= 1.0, f - 0.5, 0.0)


def handicap_points(stones: npt.ArrayLike) -> Floats:
    """``h = 100 H``, the rating points a handicap of ``stones`` is worth."""
    return 100.0 * true_handicap(stones)


def distance(r1: npt.ArrayLike, r2: npt.ArrayLike, kind: Distance = "geometric") -> Floats:
    """The game's distance ``D`` to the ideal player (docs/rules/go-rfg.md "Win probability").

    ``geometric`` (the source text): ``sqrt((3000 - R1)(3000 - R2))``. ``rms`` (later official
    versions): ``sqrt(((3000 - R1)^2 + (3000 - R2)^2) / 2)`` when both players are dan players
    (``R >= 2100``), else 1000 -- a game with a kyu player on either side uses 1000.
    """
    d1 = np.maximum(IDEAL - np.asarray(r1, dtype=np.float64), MIN_DISTANCE)
    d2 = np.maximum(IDEAL - np.asarray(r2, dtype=np.float64), MIN_DISTANCE)
    if kind == "geometric":
        return np.asarray(np.sqrt(d1 * d2), dtype=np.float64)
    dan = (IDEAL - d1 >= DAN_FLOOR) & (IDEAL - d2 >= DAN_FLOOR)
    return np.asarray(np.where(dan, np.sqrt((d1 * d1 + d2 * d2) / 2.0), KYU_DISTANCE),
                      dtype=np.float64)


def p(dr: npt.ArrayLike, d: npt.ArrayLike) -> Floats:
    """``p(DR, D) = 0.5 + DR / D`` clipped to ``[0, 1]`` (docs/rules/go-rfg.md "Win probability",
    and its Decision on clipping)."""
    value = 0.5 + np.asarray(dr, dtype=np.float64) / np.asarray(d, dtype=np.float64)
    return np.asarray(np.clip(value, 0.0, 1.0), dtype=np.float64)


def win_probability(
    r1: npt.ArrayLike, r2: npt.ArrayLike, given: npt.ArrayLike = 0,
    kind: Distance = "geometric",
) -> Floats:
    """Player 1's expected result against player 2, player 1 giving ``given`` handicap stones
    (negative: receiving): ``p((R1 - 100 H) - R2, D)``, ``H`` signed like ``given``."""
    g = np.asarray(given, dtype=np.float64)
    h = np.sign(g) * handicap_points(np.abs(g))
    dr = np.asarray(r1, dtype=np.float64) - h - np.asarray(r2, dtype=np.float64)
    return p(dr, distance(r1, r2, kind))


def group_sum(codes: npt.NDArray[np.intp], values: Floats, size: int) -> Floats:
    """Sum of ``values`` per group code ``0..size-1``, adding each group's terms in sorted
    order: the sums depend only on which values belong to which group, not on row order.
    (One sort by value is enough: ``bincount`` adds in the order given, so each group's terms
    arrive in ascending order, and equal terms are interchangeable.)"""
    order = np.argsort(values)
    return np.bincount(codes[order], weights=values[order], minlength=size).astype(np.float64)


# --- input frames ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameCodes:
    """A checked games frame as integer codes, made once per run so that the period loops of
    the schemes work on arrays only: players by their place in ``names`` (every id, sorted as
    text), periods by their place in ``labels`` (sorted as text)."""

    names: npt.NDArray[np.object_]
    labels: npt.NDArray[np.object_]
    period: Codes
    player: Codes
    opponent: Codes
    date: npt.NDArray[np.datetime64]
    """Per game, ``datetime64[us]`` (NaT where the frame has none)."""
    order: Codes
    """Period codes in rating order (go contract, "Games frame"): by the first date of the
    period, then label; a period without any date comes last; without dates by label."""

    def first_dates(self) -> npt.NDArray[np.datetime64]:
        """Per period code, its earliest date (NaT when it has none)."""
        return _period_extreme(self.period, self.date, len(self.labels), np.minimum)

    def last_dates(self) -> npt.NDArray[np.datetime64]:
        """Per period code, its latest date (NaT when it has none)."""
        return _period_extreme(self.period, self.date, len(self.labels), np.maximum)


def _period_extreme(period: Codes, date: npt.NDArray[np.datetime64], size: int,
                    pick: np.ufunc) -> npt.NDArray[np.datetime64]:
    """Per period code, ``pick`` (``np.minimum`` or ``np.maximum``) of its known dates."""
    known = ~np.isnat(date)
    bound = np.iinfo(np.int64)
    out = np.full(size, bound.max if pick is np.minimum else bound.min, dtype=np.int64)
    pick.at(out, period[known], date.view(np.int64)[known])
    dated = np.bincount(period[known], minlength=size) > 0
    dates: npt.NDArray[np.datetime64] = out.view(_DATE).copy()
    dates[~dated] = np.datetime64("NaT")
    return dates


def encode_games(games: pd.DataFrame, players: Iterable[str] = ()) -> GameCodes:
    """Codes of a checked games frame (:func:`check_games`); ``players`` (e.g. those of an
    initial frame) join the games' players in ``names``."""
    ids = np.concatenate([games["player"].to_numpy(object), games["opponent"].to_numpy(object),
                          np.asarray(list(players), dtype=object)])
    names, inverse = np.unique(ids, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.intp)
    n = len(games)
    labels, period = np.unique(games["period"].to_numpy(object), return_inverse=True)
    period = period.reshape(-1).astype(np.intp)
    date = games["date"].to_numpy(_DATE)
    first = _period_extreme(period, date, len(labels), np.minimum)
    # by first date, NaT last, then label (np.lexsort sorts by the last key first)
    order = np.lexsort((np.arange(len(labels)), first.view(np.int64), np.isnat(first)))
    return GameCodes(names=names, labels=labels, period=period, player=inverse[:n],
                     opponent=inverse[n:2 * n], date=date, order=order.astype(np.intp))


def _fail(problem: str, frame: str = "games") -> InputError:
    return InputError(problem, frame=frame)


def _first_bad(frame: pd.DataFrame, bad: npt.NDArray[np.bool_], column: str, frame_name: str,
               why: str) -> InputError:
    at = int(np.flatnonzero(bad)[0])
    value = frame[column].iloc[at]
    if isinstance(value, np.generic):
        value = value.item()  # quote 3000.0, not np.float64(3000.0)
    row = frame.index[at]
    if isinstance(row, np.generic):
        row = row.item()
    return _fail(f"row {row!r}, column {column!r}: {value!r} {why}", frame_name)


def _text(frame: pd.DataFrame, column: str, frame_name: str) -> pd.Series:
    values = frame[column]
    text = values.astype(str).str.strip()
    empty = values.isna().to_numpy(bool) | (text.to_numpy(object) == "")
    if empty.any():
        raise _first_bad(frame, empty, column, frame_name, "is empty")
    return text


def _numbers(frame: pd.DataFrame, column: str, frame_name: str) -> npt.NDArray[np.float64]:
    numeric = pd.to_numeric(frame[column], errors="coerce").to_numpy(np.float64)
    bad = ~np.isfinite(numeric)
    if bad.any():
        raise _first_bad(frame, bad, column, frame_name, "is not a number")
    return numeric


def check_games(games: pd.DataFrame) -> pd.DataFrame:
    """The games frame checked and normalised (a new frame; the input is not touched).

    Columns out: ``period, player, opponent`` (text), ``result`` (float 0 / 0.5 / 1),
    ``handicap`` (int64 >= 0), ``colour`` (``"b"`` | ``"w"``; ``black`` / ``white`` are read
    too), ``date`` (datetime64, NaT when absent or empty), ``komi`` (float, NaN when absent),
    and ``rank`` / ``opponent_rank`` (text, ``""`` when absent) -- the grades the players
    declared, used for the provisional rating of unrated players. The index is 0..n-1.

    Raises :class:`InputError` naming row, column and value for a missing column, an empty id,
    a result not in {0, 0.5, 1}, a negative or fractional handicap, a colour other than b/w
    (empty is read as b in an even game, where colour changes nothing, and refused in a
    handicap game),
    a player playing themself, or a date that does not parse.
    """
    missing = [c for c in GAMES_COLUMNS if c not in games.columns]
    if missing:
        raise _fail(f"missing columns {missing!r}; expected {', '.join(GAMES_COLUMNS)}")
    # The columns are collected and the frame is made once: adding them to a frame one by
    # one costs more than all the checks of a small games frame.
    out: dict[str, object] = {
        column: _text(games, column, "games").array
        for column in ("period", "player", "opponent")
    }
    result = _numbers(games, "result", "games")
    bad = ~np.isin(result, (0.0, 0.5, 1.0))
    if bad.any():
        raise _first_bad(games, bad, "result", "games", "is not 0, 0.5 or 1")
    handicap = _numbers(games, "handicap", "games")
    bad = (handicap < 0) | (handicap != np.round(handicap))
    if bad.any():
        raise _first_bad(games, bad, "handicap", "games",
                         "is not a whole number of stones >= 0")
    written = games["colour"].fillna("").astype(str).str.strip().str.lower().to_numpy(object)
    empty = (written == "") | (written == "nan") | (written == "none")
    bad = empty & (handicap >= 1)
    if bad.any():
        raise _first_bad(games, bad, "colour", "games",
                         "is empty in a handicap game: who took black must be known")
    # an even game's colour changes nothing in any go scheme: an empty one reads as black
    black = empty | np.isin(written, [k for k, v in _COLOURS.items() if v == "b"])
    white = ~empty & np.isin(written, [k for k, v in _COLOURS.items() if v == "w"])
    bad = ~(black | white)
    if bad.any():
        raise _first_bad(games, bad, "colour", "games", "is not 'b' or 'w' (or empty in an "
                         "even game)")
    same = (np.asarray(out["player"], dtype=object)
            == np.asarray(out["opponent"], dtype=object))
    if same.any():
        raise _first_bad(games, same, "opponent", "games", "is the player themself")
    out["result"] = result
    out["handicap"] = handicap.astype(np.int64)
    out["colour"] = pd.array(np.where(white, "w", "b").astype(object), dtype="str")
    if "date" in games.columns:
        try:
            dates = pd.to_datetime(games["date"])
        except (TypeError, ValueError) as exc:
            raise _fail(f"column 'date' does not parse as dates: {exc}") from exc
        if dates.dt.tz is not None:
            dates = dates.dt.tz_localize(None)
        out["date"] = dates.dt.normalize().astype(_DATE).to_numpy()
    else:
        out["date"] = np.full(len(games), np.datetime64("NaT"), dtype=_DATE)
    if "komi" in games.columns:
        out["komi"] = pd.to_numeric(games["komi"], errors="coerce").astype(float).to_numpy()
    else:
        out["komi"] = np.full(len(games), np.nan)
    for column in ("rank", "opponent_rank"):
        if column in games.columns:
            out[column] = games[column].fillna("").astype(str).str.strip().array
        else:
            out[column] = pd.array(np.full(len(games), "", dtype=object), dtype="str")
    return pd.DataFrame(out)


def check_go_initial(initial: pd.DataFrame | None) -> pd.DataFrame:
    """Initial ratings indexed by player (sorted): columns ``rating``, ``deviation`` (NaN when
    the frame has no ``deviation`` column or the cell is empty).

    Raises :class:`InputError` for a missing column, a player listed twice, a rating that is
    not a finite number below 3000, or a deviation that is not positive.
    """
    if initial is None:
        return pd.DataFrame({"rating": pd.Series([], dtype=float),
                             "deviation": pd.Series([], dtype=float)},
                            index=pd.Index([], dtype=str, name="player"))
    missing = [c for c in ("player", "rating") if c not in initial.columns]
    if missing:
        raise _fail(f"missing columns {missing!r}; expected player, rating[, deviation]",
                    "initial")
    players = _text(initial, "player", "initial")
    twice = players.duplicated().to_numpy(bool)
    if twice.any():
        raise _first_bad(initial, twice, "player", "initial", "is listed more than once")
    rating = _numbers(initial, "rating", "initial")
    bad = rating > IDEAL - MIN_DISTANCE
    if bad.any():
        raise _first_bad(initial, bad, "rating", "initial", "is not below 3000")
    if "deviation" in initial.columns:
        deviation = pd.to_numeric(initial["deviation"], errors="coerce").to_numpy(np.float64)
        given = initial["deviation"].notna().to_numpy(bool)
        bad = given & ~(np.isfinite(deviation) & (deviation > 0))
        if bad.any():
            raise _first_bad(initial, bad, "deviation", "initial", "is not a positive number")
    else:
        deviation = np.full(len(initial), np.nan)
    frame = pd.DataFrame({"rating": rating, "deviation": deviation},
                         index=pd.Index(players.to_numpy(), name="player"))
    return frame.sort_index()
