"""RFG: the Russian Go Federation rating (docs/rules/go-rfg.md) and its "from scratch" bootstrap.

Implemented, by spec section:

- "Win probability": ``p = 0.5 + DR / D`` clipped to [0, 1], handicap ``H = F - 0.5``
  (50 points a stone), distance ``geometric`` (default) or ``rms`` (option ``distance``).
- "One rating period": ``B_j, DR_j, D_j, P_j, Db, K, DN, R', S'``; every player of a period
  is updated from the period's input ratings.
- "Time decay of the deviation": ``S = sqrt(St^2 + (0.01 d T)^2)`` before a period, then
  ``S = min(S, S*)``; ``T`` counts whole calendar months between the first game dates of the
  player's previous period and this one, not counting either month. Without dates: no decay.
- "Anomalous results": ``SN_an``, ``DN_an``, ``K_an`` with the N < 4 / 4 / 5 rules and the
  reduction above 2000; the growth correction of the input rating with the maximum-likelihood
  ``R_an`` and ``q = K_an^2``; the deviation raise after the period (Decision); the reduced
  influence of anomalous opponents (the start-up text, docs/rules/go-rfg.md
  "Anomalous results").
- "First entry": input rating ``R_an`` from the games against rated players (after the
  others' anomaly corrections), ``S = d / 4``. A newcomer who meets only newcomers keeps their
  provisional rating: the grade they declared (games columns ``rank`` / ``opponent_rank``,
  option ``provisional=rank``) or option ``entry_rating`` (default 1400, 7 kyu).
- "Anchors": option ``anchors=on`` (default off).
- "Bootstrap": scheme ``rfg-bootstrap``, all ``B = 1``, ``K_dyn = 4 (3000 - R) / 100``, the
  anomaly criterion from the period itself with the Bernoulli lower bound.

Decisions on what the sources leave open (each documented where it is applied):

1. Colour and handicap: the player with colour ``w`` in a game with ``handicap = F >= 1``
   gives ``h = 100 (F - 0.5)`` points (``DR = R - h - R_j``), the ``b`` player receives them
   (``DR = R + h - R_j``). A jigo counts ``r = 0.5``.
2. ``anomaly`` in the ratings frame is the signed ``K_an`` (positive: growth, negative: fall).
3. The maximum-likelihood ``R_an`` of a growth correction uses all the player's games of the
   period with the opponents' uncorrected input ratings; a growth correction never lowers the
   input rating (``R_in = max(R0, R0 (1 - q) + R_an q)``), and the deviation is cut to the new
   ``S*``.
4. The influence of anomalous opponents compares anomaly magnitudes; a jigo is neither a win
   nor a loss and keeps ``B``.
5. The deviation raise only raises: ``S' + K_an max(0, S*' - S')``, with ``S*'`` from ``R'``.
6. A player in ``initial`` without a deviation starts at ``S = S*``; a player without a
   previous period date (the first period, or no dates) is not decayed.
7. Ratings are kept below 3000 - 1 (``_go.MIN_DISTANCE``) so the formulas stay defined.
8. Bootstrap: ``DN_an = max(sqrt(sum_j P_j (1 - P_j)), S_init)`` with
   ``S_init^2 = max(0, mean over the period's players of (DN^2 - sum_j P_j (1 - P_j)))``
   (docs/rules/go-rfg.md "Bootstrap": the total variance is the Bernoulli variance plus the
   initial-rating error);
   the N-rules and the reduction above 2000 apply as in the full scheme; the growth
   correction and anomalous-opponent factors too; there is no deviation (NaN).
9. Anchors: players rated before the period (not entering in it) with at least
   ``anchor_games`` games in the period whose input deviation is in the lowest decile of the
   rated players'; the mean of ``R' - R_before`` over them is subtracted
   from every rated player. ``normalisations.factor`` holds that shift in rating points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._frames import RatingRun, empty_normalisations, text_column
from ._go import (
    IDEAL,
    MIN_DISTANCE,
    Distance,
    check_games,
    check_go_initial,
    declared_cells,
    distance,
    encode_games,
    group_sum,
    handicap_points,
)
from ._go import p as probability
from ._options import check_options
from ._params import Provisional, RfgBootstrapParams, RfgParams

__all__ = [
    "RFG_CONTRIBUTIONS_COLUMNS",
    "RFG_RATINGS_COLUMNS",
    "RfgBootstrapParams",
    "RfgParams",
    "bootstrap_k",
    "ml_distance",
    "rate_rfg",
    "rate_rfg_bootstrap",
]

Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]

RFG_RATINGS_COLUMNS = (
    "period", "period_start", "period_end", "player", "rating_before", "rating", "events",
    "deviation_before", "deviation", "anomaly", "entry", "rating_in",
)
"""The ratings frame of the RFG schemes: the common columns plus ``deviation_before`` (the
period's input ``S``, after decay), ``deviation`` (``S'``), ``anomaly`` (signed ``K_an``),
``entry`` (first period in the system) and ``rating_in`` (the input rating after the growth
correction or the entry estimate)."""

RFG_CONTRIBUTIONS_COLUMNS = (
    "period", "player", "opponent", "result", "handicap", "colour", "expected", "weight",
    "B", "anomaly_factor", "dr", "distance", "change",
)
"""One row per game per player: ``expected`` = ``P_j``, ``weight`` = the ``B_j`` used
(``B`` times ``anomaly_factor``), ``dr`` = handicap-adjusted ``DR_j``, ``distance`` = ``D_j``,
``change`` = ``K B_j (r_j - P_j)`` (the game's share of ``R' - rating_in``)."""

_DATE = "datetime64[us]"
_TOP = IDEAL - MIN_DISTANCE


# --- options: RfgParams and RfgBootstrapParams (ratings/_params.py) ------------------------------


@dataclass(frozen=True, slots=True)
class _Rules:
    """What differs between the two schemes, in one place."""

    bootstrap: bool
    distance: Distance
    anomaly: bool
    decay: bool = False
    deviation_raise: bool = False
    provisional: Provisional = "rank"
    entry_rating: float = 1400.0
    dynamic_factor: float = 4.0
    anchors: bool = False
    anchor_games: int = 10
    interpolate: bool = False
    """Bootstrap: the positive anomaly's correction interpolated with the normal one."""


# --- formulas -------------------------------------------------------------------------------------


def ml_distance(p: npt.ArrayLike, d_avg: npt.ArrayLike, h_avg: npt.ArrayLike = 0.0) -> Floats:
    """The maximum-likelihood distance to 3000 (docs/rules/go-rfg.md "Anomalous results"):

        d_an = d_avg (sqrt((2p - 1)^2 / 16 + 1 - h_avg / d_avg) - (2p - 1) / 4)^2

    ``p`` the observed score fraction, ``d_avg`` the opponents' mean distance, ``h_avg`` the
    mean handicap points the player gave (negative: received). The root of
    ``p = 0.5 + (d_avg - d_an - h_avg) / sqrt(d_avg d_an)``; at least ``MIN_DISTANCE``.
    """
    x = 2.0 * np.asarray(p, dtype=np.float64) - 1.0
    d = np.asarray(d_avg, dtype=np.float64)
    h = np.asarray(h_avg, dtype=np.float64)
    inner = np.maximum(x * x / 16.0 + 1.0 - h / d, 0.0)
    root = np.maximum(np.sqrt(inner) - x / 4.0, 0.0)
    return np.asarray(np.maximum(d * root * root, MIN_DISTANCE), dtype=np.float64)


def bootstrap_k(rating: npt.ArrayLike, factor: float = 4.0) -> Floats:
    """``K_dyn = factor (3000 - R) / 100`` (docs/rules/go-rfg.md "Bootstrap"; 28 at 2300)."""
    return np.asarray(factor * _dist(np.asarray(rating, dtype=np.float64)) / 100.0,
                      dtype=np.float64)


def _dist(rating: Floats) -> Floats:
    return np.asarray(np.maximum(IDEAL - rating, MIN_DISTANCE), dtype=np.float64)


def _influence(rating: Floats, deviation: Floats) -> Floats:
    # docs/rules/go-rfg.md "One rating period": 1/B^2 = 1 + 3 (S / (pi S*))^2, S* = (3000 - R) / 4.
    ratio = deviation / (np.pi * _dist(rating) / 4.0)
    return np.asarray(1.0 / np.sqrt(1.0 + 3.0 * ratio * ratio), dtype=np.float64)


# --- one period -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Sides:
    """A period's games seen from both sides: side k is ``me[k]`` against ``opp[k]``."""

    me: Codes
    opp: Codes
    r: Floats
    h: Floats
    size: int

    def count(self) -> Floats:
        return np.bincount(self.me, minlength=self.size).astype(np.float64)

    def total(self, values: Floats) -> Floats:
        return group_sum(self.me, values, self.size)


def _sides(games: _Chunk, a: Codes, b: Codes, size: int) -> _Sides:
    """``a`` and ``b``: each game's player and opponent by their place among the period's
    ``size`` players."""
    r = games.result
    # Decision 1: white gives h = 100 (F - 0.5) points when F >= 1, black receives them.
    h = handicap_points(games.handicap.astype(np.float64))
    h = np.where(games.white, h, -h)
    return _Sides(np.concatenate([a, b]), np.concatenate([b, a]),
                  np.concatenate([r, 1.0 - r]), np.concatenate([h, -h]), size)


@dataclass(frozen=True, slots=True)
class _Expected:
    dr: Floats
    d: Floats
    P: Floats


def _expected(R: Floats, sides: _Sides, B: Floats, kind: Distance) -> _Expected:
    # docs/rules/go-rfg.md "One rating period": DR_j = (R - 100 H) - R_j, D_j, P_j = p(B_j DR_j, D_j).
    dr = R[sides.me] - sides.h - R[sides.opp]
    d = distance(R[sides.me], R[sides.opp], kind)
    return _Expected(dr, d, probability(B * dr, d))


def _anomaly(R: Floats, S: Floats, sides: _Sides, rated: npt.NDArray[np.bool_],
             rules: _Rules) -> Floats:
    """Signed ``K_an`` per player (docs/rules/go-rfg.md "Anomalous results"); 0 for newcomers."""
    B = np.ones(len(sides.me)) if rules.bootstrap else _influence(R[sides.opp], S[sides.opp])
    e = _expected(R, sides, B, rules.distance)
    dn = sides.total(B * (sides.r - e.P))
    n = sides.count()
    if rules.bootstrap:
        # docs/rules/go-rfg.md "Bootstrap", Decision 8: the Bernoulli deviation is the lower bound, the spread
        # of DN over the period's players beyond it estimates the initial-rating error.
        var = sides.total(e.P * (1.0 - e.P))
        active = n > 0
        excess = float(np.mean(dn[active] ** 2 - var[active])) if active.any() else 0.0
        dn_an = np.maximum(np.sqrt(var), np.sqrt(max(excess, 0.0)))
    else:
        # SN_an = sqrt(N/4 + (S/d)^2 sum_j (1 + (S_j/S)^2) (d/d_j)), DN_an = 1.5 SN_an.
        d = _dist(R)
        terms = (1.0 + (S[sides.opp] / S[sides.me]) ** 2) * d[sides.me] / d[sides.opp]
        sn = np.sqrt(n / 4.0 + (S / d) ** 2 * sides.total(terms))
        dn_an = 1.5 * sn
    with np.errstate(divide="ignore", invalid="ignore"):
        k = np.where(dn_an > 0, np.abs(dn) / np.where(dn_an > 0, dn_an, 1.0) - 1.0, 0.0)
    k = np.clip(k, 0.0, 1.0)
    # N < 4: none; N = 4: a third; N = 5: two thirds.
    k = k * np.select([n < 4, n == 4, n == 5], [0.0, 1.0 / 3.0, 2.0 / 3.0], default=1.0)
    # Above 2000 the anomaly fades linearly to nothing at 3000.
    k = k * np.where(R > 2000.0, np.minimum(1.0, _dist(R) / 1000.0), 1.0)
    k = np.where(rated, k, 0.0)
    return np.asarray(np.sign(dn) * k + 0.0, dtype=np.float64)  # + 0.0: no -0.0


def _ml_rating(R: Floats, sides: _Sides, use: npt.NDArray[np.bool_]) -> Floats:
    """``R_an = 3000 - d_an`` per player from the sides in ``use`` (NaN without any)."""
    n = group_sum(sides.me, use.astype(np.float64), sides.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = group_sum(sides.me, np.where(use, sides.r, 0.0), sides.size) / n
        d_avg = group_sum(sides.me, np.where(use, _dist(R[sides.opp]), 0.0), sides.size) / n
        h_avg = group_sum(sides.me, np.where(use, sides.h, 0.0), sides.size) / n
    out = np.full(sides.size, np.nan)
    ok = n > 0
    out[ok] = IDEAL - ml_distance(score[ok], d_avg[ok], h_avg[ok])
    return out


def _opponent_factor(k_an: Floats, sides: _Sides) -> Floats:
    # docs/rules/go-rfg.md "Anomalous results": if K_an,j > K_an (magnitudes, Decision 4) and the player lost to a positive
    # anomaly or beat a negative one, B_j is multiplied by (1 - K_an,j) / (1 - K_an).
    mine, theirs = np.abs(k_an[sides.me]), k_an[sides.opp]
    hit = (np.abs(theirs) > mine) & (
        ((sides.r == 0.0) & (theirs > 0)) | ((sides.r == 1.0) & (theirs < 0))
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = (1.0 - np.abs(theirs)) / (1.0 - mine)
    return np.asarray(np.where(hit, factor, 1.0), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class _Outcome:
    rating_in: Floats
    deviation_in: Floats
    rating: Floats
    deviation: Floats
    anomaly: Floats
    events: npt.NDArray[np.int64]
    contributions: dict[str, Floats]


def _rate_period(R0: Floats, S0: Floats, rated: npt.NDArray[np.bool_], sides: _Sides,
                 rules: _Rules) -> _Outcome:
    """One rating period (docs/rules/go-rfg.md "One rating period") from the input ratings ``R0`` and
    deviations ``S0`` (decayed; newcomers at their provisional rating with ``S = S*``)."""
    k_an = (_anomaly(R0, S0, sides, rated, rules) if rules.anomaly
            else np.zeros(sides.size))
    R, S = R0.copy(), S0.copy()
    growth = k_an > 0
    interpolate = rules.bootstrap and rules.interpolate
    r_an = np.full(sides.size, np.nan)
    if growth.any() and interpolate:
        # the start-up text: the anomalous correction R_an - R is computed beside the normal
        # one, both from the input ratings; they are blended at the end (below)
        r_an = _ml_rating(R0, sides, np.ones(len(sides.me), dtype=bool))
    elif growth.any():
        # docs/rules/go-rfg.md "Anomalous results": R_in = R0 (1 - q) + R_an q, q = K_an^2 (Decision 3).
        r_an = _ml_rating(R0, sides, np.ones(len(sides.me), dtype=bool))
        q = k_an * k_an
        R = np.where(growth, np.maximum(R0, R0 * (1.0 - q) + r_an * q), R0)
    # docs/rules/go-rfg.md "First entry": R_an from the games against rated players after the corrections,
    # S = d / 4; a newcomer without such games keeps the provisional rating.
    r_entry = _ml_rating(R, sides, rated[sides.opp])
    enter = ~rated & np.isfinite(r_entry)
    R = np.minimum(np.where(enter, r_entry, R), _TOP)
    S = np.where(rated, np.minimum(S, _dist(R) / 4.0), _dist(R) / 4.0)

    B = np.ones(len(sides.me)) if rules.bootstrap else _influence(R[sides.opp], S[sides.opp])
    factor = _opponent_factor(k_an, sides)
    weight = B * factor
    e = _expected(R, sides, weight, rules.distance)
    dn = sides.total(weight * (sides.r - e.P))
    star = _dist(R) / 4.0
    if rules.bootstrap:
        K = bootstrap_k(R, rules.dynamic_factor)
        deviation = np.full(sides.size, np.nan)
    else:
        # K = S* / ((S*/S)^2 + Db), Db = sum_j B_j^2 P_j (1 - P_j); S' = sqrt(K S*).
        db = sides.total(weight * weight * e.P * (1.0 - e.P))
        K = star / ((star / S) ** 2 + db)
        deviation = np.sqrt(K * star)
    after = np.minimum(R + K * dn, _TOP)
    if interpolate and growth.any():
        # R' = R + (1 - q) K DN + q (R_an - R), q = K_an^2 (Decision 3): K_an = 1 ends at R_an
        q = np.where(growth, k_an * k_an, 0.0)
        blended = R + (1.0 - q) * K * dn + q * (np.where(growth, r_an, R) - R)
        after = np.minimum(np.where(growth, blended, after), _TOP)
    if not rules.bootstrap and rules.deviation_raise:
        # Decision 5: S' = S' + K_an (S*' - S'), only upwards.
        deviation = deviation + np.abs(k_an) * np.maximum(_dist(after) / 4.0 - deviation, 0.0)
    contributions = {
        "expected": e.P, "weight": weight, "B": B, "anomaly_factor": factor, "dr": e.dr,
        "distance": e.d, "change": K[sides.me] * weight * (sides.r - e.P),
    }
    deviation_in = np.full(sides.size, np.nan) if rules.bootstrap else np.where(rated, S0, S)
    return _Outcome(R, deviation_in, after, deviation, k_an,
                    sides.count().astype(np.int64), contributions)


# --- the sequence of periods ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Chunk:
    """One period's games, in the order of the games frame: players by code, and the rating
    each declared grade gives (NaN where none; ``None`` without ``provisional=rank``)."""

    player: Codes
    opponent: Codes
    result: Floats
    handicap: npt.NDArray[np.int64]
    white: npt.NDArray[np.bool_]
    """Whether the first player took white."""
    start: np.datetime64
    end: np.datetime64
    rank: Floats | None
    opponent_rank: Floats | None


def _provisional(games: _Chunk, a: Codes, b: Codes, size: int, rules: _Rules) -> Floats:
    """Each player's provisional rating: the highest grade declared in the period on the grade
    scale (``_go.grade_rating``: 2d = 2200, 7k = 1400), else ``entry_rating``
    (docs/rules/go-rfg.md "First entry"). ``a``, ``b``: as in :func:`_sides`."""
    out = np.full(size, rules.entry_rating)
    if rules.provisional != "rank" or games.rank is None or games.opponent_rank is None:
        return out
    values = np.concatenate([games.rank, games.opponent_rank])
    declared = ~np.isnan(values)
    if not declared.any():
        return out
    best = np.full(size, np.nan)
    np.fmax.at(best, np.concatenate([a, b])[declared], values[declared])
    some = ~np.isnan(best)
    out[some] = np.minimum(best[some], _TOP)
    return out


def _month(date: np.datetime64) -> float:
    """``year * 12 + month`` of ``date`` (NaN for NaT)."""
    if np.isnat(date):
        return float("nan")
    months = int(date.astype("datetime64[M]").astype(np.int64))  # since January 1970
    year, month = 1970 + months // 12, months % 12 + 1
    return year * 12.0 + month


@dataclass
class _Pool:
    """Every player of the run by slot (ids in text order): whether rated so far, rating,
    deviation ``St`` (NaN: unknown) and the month number of the first game of their latest
    period (NaN: unknown)."""

    present: npt.NDArray[np.bool_]
    rating: Floats
    deviation: Floats
    last: Floats


_RATING_FLOATS = ("rating_before", "rating", "deviation_before", "deviation", "anomaly",
                  "rating_in")
"""The float columns of the ratings frame, in the order of :attr:`_PeriodRows.floats`."""


@dataclass(frozen=True, slots=True)
class _PeriodRows:
    """One period's ratings rows (every rated player, by slot) and contribution rows (each game
    from both sides), kept as arrays until the run's frames are built."""

    label: int
    start: np.datetime64
    end: np.datetime64
    slots: Codes
    floats: Floats
    """Shape ``(len(_RATING_FLOATS), len(slots))``: the float columns, one row each."""
    events: npt.NDArray[np.int64]
    entry: npt.NDArray[np.bool_]
    me: Codes
    opp: Codes
    result: Floats
    handicap: npt.NDArray[np.int64]
    white: npt.NDArray[np.bool_]
    contributions: dict[str, Floats]


def _run(games: pd.DataFrame, initial: pd.DataFrame, rules: _Rules) -> RatingRun:
    """The sequence of periods. Players and periods are integer codes made once (players in
    text order), so each period works on arrays; the frames are built once at the end."""
    codes = encode_games(games, np.asarray(initial.index, dtype=object))
    names = codes.names
    labels = [str(codes.labels[p]) for p in codes.order]
    cells: tuple[Floats, Floats] | tuple[None, None] = (None, None)
    if rules.provisional == "rank":
        # a grade that does not read fails in the first period (in rating order) holding one
        cells = declared_cells(games, lambda: (games[games["period"] == label]
                                               for label in labels))
    pool = _Pool(np.zeros(len(names), dtype=bool), np.full(len(names), np.nan),
                 np.full(len(names), np.nan), np.full(len(names), np.nan))
    at = np.searchsorted(names, np.asarray(initial.index, dtype=object))
    pool.present[at] = True
    pool.rating[at] = initial["rating"].to_numpy(np.float64)
    if not rules.bootstrap:
        pool.deviation[at] = initial["deviation"].to_numpy(np.float64)
    # each period's games in their order in the frame: rows[bounds[p]:bounds[p + 1]]
    rows = np.argsort(codes.period, kind="stable")
    bounds = np.searchsorted(codes.period[rows], np.arange(len(codes.labels) + 1))
    result = games["result"].to_numpy(np.float64)
    handicap = games["handicap"].to_numpy(np.int64)
    white = (games["colour"] == "w").to_numpy(bool)
    first, last = codes.first_dates(), codes.last_dates()
    periods: list[_PeriodRows] = []
    shifts: list[tuple[str, float]] = []
    for index, (label, code) in enumerate(zip(labels, codes.order, strict=True)):
        these = rows[bounds[code]:bounds[code + 1]]
        chunk = _Chunk(
            player=codes.player[these], opponent=codes.opponent[these], result=result[these],
            handicap=handicap[these], white=white[these], start=first[code], end=last[code],
            rank=None if cells[0] is None else cells[0][these],
            opponent_rank=None if cells[1] is None else cells[1][these],
        )
        period, shift = _one_period(pool, len(names), index, chunk, rules)
        periods.append(period)
        if shift is not None:
            shifts.append((label, shift))
    normalisations = (pd.DataFrame(shifts, columns=["period", "factor"]).astype(
        {"period": str, "factor": float}) if shifts else empty_normalisations())
    return RatingRun(
        ratings=_ratings_frame(periods, labels, names),
        contributions=_contributions_frame(periods, labels, names),
        normalisations=normalisations,
    )


def _one_period(pool: _Pool, size: int, index: int, chunk: _Chunk,
                rules: _Rules) -> tuple[_PeriodRows, float | None]:
    """Rate one period against the pool of ``size`` players (updated in place); its rows and
    the anchor shift."""
    slots = np.unique(np.concatenate([chunk.player, chunk.opponent]))
    a, b = np.searchsorted(slots, chunk.player), np.searchsorted(slots, chunk.opponent)
    sides = _sides(chunk, a, b, len(slots))
    rated = pool.present[slots]
    R0 = np.where(rated, pool.rating[slots], _provisional(chunk, a, b, len(slots), rules))
    star = _dist(R0) / 4.0
    S0 = pool.deviation[slots]
    S0 = np.where(np.isfinite(S0), S0, star)
    month = _month(chunk.start)
    if rules.decay and not np.isnat(chunk.start):
        # docs/rules/go-rfg.md "Time decay": S = St sqrt(1 + (k T)^2), k = 0.01 d / St, i.e.
        # S = sqrt(St^2 + (0.01 d T)^2); T whole months between the previous period's month
        # and this one's, neither counted (Decision 6: no decay without a previous date).
        gap = month - pool.last[slots]
        T = np.where(np.isfinite(gap), np.maximum(gap - 1.0, 0.0), 0.0)
        S0 = np.sqrt(S0 * S0 + (0.01 * _dist(R0) * T) ** 2)
    S0 = np.minimum(S0, star)  # S = min(S, S*)
    out = _rate_period(R0, S0, rated, sides, rules)

    old_rating, old_deviation = pool.rating.copy(), pool.deviation.copy()
    pool.present[slots] = True
    pool.rating[slots] = out.rating
    pool.deviation[slots] = out.deviation
    pool.last[slots] = month
    before = np.where(rated, R0, out.rating_in)
    shift: float | None = None
    if rules.anchors:
        # anchors are the most stable players: rated before this period (a player entering now
        # has no stable rating yet), with enough games and a deviation in the lowest decile
        stable = rated & (out.events >= rules.anchor_games)
        anchors = stable & (
            out.deviation_in <= np.quantile(out.deviation_in[rated], 0.1) if rated.any()
            else np.zeros_like(stable))
        if anchors.any():
            # docs/rules/go-rfg.md "Anchors", Decision 9: subtract the anchors' mean change from everyone.
            shift = float(np.mean(out.rating[anchors] - before[anchors]))
            pool.rating[pool.present] -= shift

    # Every rated player, carried when they did not play (slots in text order).
    everyone = np.flatnonzero(pool.present)
    here = np.zeros(size, dtype=bool)
    here[slots] = True
    here = here[everyone]
    pos = np.zeros(size, dtype=np.intp)
    pos[slots] = np.arange(len(slots))
    at = pos[everyone]
    rating_before = np.where(here, before[at], old_rating[everyone])
    return _PeriodRows(
        label=index, start=chunk.start, end=chunk.end,
        slots=everyone,
        floats=np.stack([
            rating_before, pool.rating[everyone],
            np.where(here, out.deviation_in[at], old_deviation[everyone]),
            pool.deviation[everyone], np.where(here, out.anomaly[at], 0.0),
            np.where(here, out.rating_in[at], rating_before),
        ]).astype(np.float64),
        events=np.where(here, out.events[at], 0).astype(np.int64),
        entry=here & ~rated[at],
        me=slots[sides.me], opp=slots[sides.opp], result=sides.r,
        handicap=np.tile(chunk.handicap, 2),
        white=np.concatenate([chunk.white, ~chunk.white]),
        contributions=dict(out.contributions),
    ), shift


def _ratings_frame(periods: list[_PeriodRows], labels: list[str],
                   names: npt.NDArray[np.object_]) -> pd.DataFrame:
    sizes = [len(p.slots) for p in periods]
    # The float columns are rows of one array, taken into the frame without another copy
    # (copy=False), and the frame is made once with its columns in order.
    block = np.concatenate([p.floats for p in periods], axis=1)
    columns: dict[str, Any] = dict(zip(_RATING_FLOATS, block, strict=True))
    columns |= {
        "period": text_column(labels, np.repeat([p.label for p in periods], sizes)),
        "period_start": np.repeat(np.array([p.start for p in periods], _DATE), sizes),
        "period_end": np.repeat(np.array([p.end for p in periods], _DATE), sizes),
        "player": text_column(names, np.concatenate([p.slots for p in periods])),
        "events": np.concatenate([p.events for p in periods]),
        "entry": np.concatenate([p.entry for p in periods]),
    }
    return pd.DataFrame({name: columns[name] for name in RFG_RATINGS_COLUMNS}, copy=False)


def _contributions_frame(periods: list[_PeriodRows], labels: list[str],
                         names: npt.NDArray[np.object_]) -> pd.DataFrame:
    # Each game's two rows together: the first player's, then the opponent's.
    orders, offset = [], 0
    for p in periods:
        n = len(p.result) // 2
        orders.append(offset + np.ravel(np.column_stack([np.arange(n), np.arange(n) + n])))
        offset += 2 * n
    order = np.concatenate(orders)

    def cat(values: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
        return np.concatenate(values)[order]

    sizes = [len(p.result) for p in periods]
    keys = list(periods[0].contributions)
    return pd.DataFrame({
        "period": text_column(labels, np.repeat([p.label for p in periods], sizes)[order]),
        "player": text_column(names, cat([p.me for p in periods])),
        "opponent": text_column(names, cat([p.opp for p in periods])),
        "result": cat([p.result for p in periods]),
        "handicap": cat([p.handicap for p in periods]),
        "colour": text_column(["b", "w"], cat([p.white for p in periods]).astype(np.intp)),
        **{key: cat([p.contributions[key] for p in periods]) for key in keys},
    })


# --- the schemes ----------------------------------------------------------------------------------


def _empty_run() -> RatingRun:
    ratings = pd.DataFrame({c: pd.Series([], dtype=float) for c in RFG_RATINGS_COLUMNS})
    ratings = ratings.astype({"period": str, "player": str, "period_start": _DATE,
                              "period_end": _DATE, "events": "int64", "entry": bool})
    contributions = pd.DataFrame({c: pd.Series([], dtype=float)
                                  for c in RFG_CONTRIBUTIONS_COLUMNS})
    contributions = contributions.astype({"period": str, "player": str, "opponent": str,
                                          "handicap": "int64", "colour": str})
    return RatingRun(ratings, contributions, empty_normalisations())


def rate_rfg(games: pd.DataFrame, params: RfgParams,
             initial: pd.DataFrame | None = None) -> RatingRun:
    """Rate a games frame with the RFG system (docs/rules/go-rfg.md) under ``params``.

    ``games``: the go games frame (``period, player, opponent, result, handicap, colour``
    [, ``date``, ``komi``, ``rank``, ``opponent_rank``]); ``initial``: ``player, rating
    [, deviation]``. Neither is modified. Returns ratings (:data:`RFG_RATINGS_COLUMNS`, one
    row per rated player per period, players without games carried), contributions
    (:data:`RFG_CONTRIBUTIONS_COLUMNS`) and the anchor shifts as normalisations.
    """
    check_options(params)
    rules = _Rules(
        bootstrap=False, distance=params.distance, anomaly=params.anomaly == "on",
        decay=params.decay == "on", deviation_raise=params.deviation_raise == "on",
        provisional=params.provisional, entry_rating=params.entry_rating,
        anchors=params.anchors == "on", anchor_games=params.anchor_games,
    )
    return _rate(games, initial, rules)


def rate_rfg_bootstrap(games: pd.DataFrame, params: RfgBootstrapParams,
                       initial: pd.DataFrame | None = None) -> RatingRun:
    """Rate a games frame with the "from scratch" simplified recalculation (docs/rules/go-rfg.md
    "Bootstrap"): ``B = 1``, ``K_dyn = 4 (3000 - R) / 100``; deviations are NaN.
    Inputs and outputs as :func:`rate_rfg`."""
    check_options(params)
    rules = _Rules(
        bootstrap=True, distance=params.distance, anomaly=params.anomaly == "on",
        provisional=params.provisional, entry_rating=params.entry_rating,
        dynamic_factor=params.dynamic_factor, interpolate=params.final == "interpolate",
    )
    return _rate(games, initial, rules)


def _rate(games: pd.DataFrame, initial: pd.DataFrame | None, rules: _Rules) -> RatingRun:
    checked = check_games(games)
    start = check_go_initial(initial)
    if checked.empty:
        return _empty_run()
    return _run(checked, start, rules)
