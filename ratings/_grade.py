"""Go rating with every declared grade as evidence (docs/rules/go-grades.md).

Each player's strength is a mean ``m`` and a variance ``v`` on the RFG scale (100 points a
grade, 2100 = 1 dan). Tournament by tournament (a period of the go games frame):

1. **Between tournaments** the variance grows by ``w^2`` per year since the player's last
   tournament ("Between tournaments").
2. **A declared grade is a reading** of the strength with noise ``tau``: the mean moves toward
   the grade's rating by ``k = v / (v + tau^2)`` of the gap and the variance shrinks to
   ``k tau^2`` ("A grade is a reading"). A newcomer starts at the grade with variance
   ``tau^2``; without a grade at ``entry_rating`` with ``entry_sd^2``.
3. **The tournament's games** move the mean as in Glicko, from the ratings the tournament
   starts with: ``P = 1 / (1 + exp(-g x))``, ``x = (m + h - m_o - h_o) / s``, ``s = beta D``
   with ``D`` the RFG distance to the ideal player, ``g = 1 / sqrt(1 + 3 v_o / (pi^2 s^2))``
   the opponent's uncertainty; ``v' = 1 / (1 / v + sum (g / s)^2 P (1 - P))``,
   ``m' = m + v' sum (g / s) (S - P)`` ("A game").

So a grade pulls hard on a player the games know little of (a newcomer, or one long away) and
little on one with many recent games; a new grade moves a player at once.

``tau``, ``w`` and ``beta`` are learned from the games rated (``learn = on``,
:func:`learn_grade_evidence`): the values that predict each tournament's games best from the
ratings it starts with ("Learning the weights").
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._baselines import (
    _check_initial,
    _contributions_frame,
    _empty_contributions,
    _empty_ratings,
    _graded_periods,
    _ratings_frame,
    _sides,
    _SideTable,
    _State,
)
from ._frames import RatingRun, empty_normalisations
from ._go import GameCodes, check_games, declared_cells, encode_games, group_sum
from ._go import handicap_points
from ._params import IDEAL, MIN_DISTANCE, GradeEvidenceParams

__all__ = ["GRADE_COLUMNS", "GradeEvidenceParams", "learn_grade_evidence",
           "rate_grade_evidence"]

Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]

GRADE_COLUMNS = ("grade", "grade_pull")
"""Columns the scheme adds to its ``ratings`` frame: the rating of the grade the player
declared in the period (NaN when none) and how far it moved the mean before the games
(docs/rules/go-grades.md "A grade is a reading"; 0 for a newcomer, who starts at it)."""

DAY = 86_400_000_000
"""Microseconds in a day (dates are ``datetime64[us]``)."""

YEAR = 365.25

LEARN_BOUNDS = {"grade_sd": (20.0, 1000.0), "drift": (0.0, 600.0), "slope": (0.05, 2.0)}
"""Where :func:`learn_grade_evidence` searches each constant."""

MIN_GAMES = 200
"""Fewer games than this teach nothing reliable: the constants given are kept."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    codes: GameCodes
    sides: _SideTable
    day: Floats
    """Per period code, its first date in days (NaN without a date)."""
    last_day: Floats
    """Per period code, its last date in days."""
    initial_rating: Floats
    initial_sd: Floats
    """Per player code: the initial frame's values (NaN where it gives none)."""


def _prepare(games: pd.DataFrame, initial: pd.DataFrame | None) -> _Prepared:
    checked = check_games(games)
    cells = declared_cells(checked, _graded_periods(checked))
    start = _check_initial(initial)
    codes = encode_games(checked, start.rating.index.to_numpy(object))
    sides = _sides(checked, codes, cells, None)
    first = codes.first_dates()
    last = codes.last_dates()

    def days(dates: npt.NDArray[np.datetime64]) -> Floats:
        out = dates.view(np.int64).astype(np.float64) / DAY
        out[np.isnat(dates)] = np.nan
        return out

    size = len(codes.names)
    rating, sd = np.full(size, np.nan), np.full(size, np.nan)
    at = np.searchsorted(codes.names, start.rating.index.to_numpy(object))
    rating[at] = start.rating.to_numpy(np.float64)
    sd[at] = start.deviation.to_numpy(np.float64)
    return _Prepared(codes, sides, days(first), days(last), rating, sd)


@dataclass
class _Run:
    """What a pass records for the frames (``record``) and its log-likelihood."""

    log_likelihood: float = 0.0
    games: int = 0
    rows: list[tuple[_State, _State, npt.NDArray[np.int64]]] = dataclasses.field(
        default_factory=list)
    grades: list[tuple[Floats, Floats]] = dataclasses.field(default_factory=list)
    taken: list[Codes] = dataclasses.field(default_factory=list)
    columns: list[dict[str, Floats]] = dataclasses.field(default_factory=list)


def _pass(prep: _Prepared, params: GradeEvidenceParams, *, record: bool) -> _Run:
    """One pass over the tournaments in order (module docstring, steps 1-3)."""
    codes, sides = prep.codes, prep.sides
    size = len(codes.names)
    tau2 = params.grade_sd ** 2
    w2 = params.drift ** 2
    present = ~np.isnan(prep.initial_rating)
    mean = prep.initial_rating.copy()
    var = np.where(present, np.where(np.isnan(prep.initial_sd), params.entry_sd,
                                     prep.initial_sd) ** 2, np.nan)
    last = np.full(size, np.nan)
    run = _Run()
    for label in codes.order:
        lo, hi = sides.bounds[label], sides.bounds[label + 1]
        runs = slice(sides.run_bounds[label], sides.run_bounds[label + 1])
        who = sides.run_player[runs]
        grade = sides.declared[runs]
        graded = ~np.isnan(grade)
        new = ~present[who]
        # step 2 for a newcomer: the grade is the first reading (docs/rules/go-grades.md)
        newcomers = who[new]
        mean[newcomers] = np.where(graded[new], grade[new], params.entry_rating)
        var[newcomers] = np.where(graded[new], tau2, params.entry_sd ** 2)
        present[newcomers] = True
        # step 1: the deviation grows with the time away
        back = who[~new]
        away = (prep.day[label] - last[back]) / YEAR
        var[back] += w2 * np.where(np.isfinite(away), np.maximum(away, 0.0), 0.0)
        # step 2: a grade pulls by k = v / (v + tau^2)
        read = ~new & graded
        reader = who[read]
        k = var[reader] / (var[reader] + tau2)
        pull = np.zeros(len(who))
        pull[read] = k * (grade[read] - mean[reader])
        mean[reader] += pull[read]
        var[reader] = k * tau2
        last[who] = prep.last_day[label]
        # step 3: the games, every one from the ratings the tournament starts with
        own, opp = sides.player[lo:hi], sides.opponent[lo:hi]
        black = ~sides.white[lo:hi]
        h = handicap_points(sides.handicap[lo:hi])
        m_own = mean[own] + np.where(black, h, 0.0)
        m_opp = mean[opp] + np.where(black, 0.0, h)
        d = np.sqrt(np.maximum(IDEAL - mean[own], MIN_DISTANCE)
                    * np.maximum(IDEAL - mean[opp], MIN_DISTANCE))
        s = params.slope * d
        g = 1.0 / np.sqrt(1.0 + 3.0 * var[opp] / (math.pi ** 2 * s * s))
        x = g * (m_own - m_opp) / s
        expected = 1.0 / (1.0 + np.exp(-x))
        result = sides.result[lo:hi]
        # each game once, from black's side
        q = np.clip(expected[black], 1e-12, 1 - 1e-12)
        r = result[black]
        run.log_likelihood += float(np.sum(r * np.log(q) + (1.0 - r) * np.log(1.0 - q)))
        run.games += int(black.sum())
        slope = g / s
        score = group_sum(own, slope * (result - expected), size)
        information = group_sum(own, slope * slope * expected * (1.0 - expected), size)
        if record:
            columns = {"expected": expected, "deviation_opponent": np.sqrt(var[opp])}
            everyone = np.flatnonzero(present)
            before = _State(everyone, mean[everyone].copy(), np.sqrt(var[everyone]),
                            np.full(len(everyone), np.nan))
        var[who] = 1.0 / (1.0 / var[who] + information[who])
        mean[who] += var[who] * score[who]
        if record:
            # each game's share of the change: v' (g / s) (S - P), summing to the change
            columns["change"] = var[own] * slope * (result - expected)
            after = _State(everyone, mean[everyone].copy(), np.sqrt(var[everyone]),
                           np.full(len(everyone), np.nan))
            played = np.bincount(np.searchsorted(everyone, own), minlength=len(everyone))
            run.rows.append((before, after, played.astype(np.int64)))
            at = np.searchsorted(everyone, who)
            grades, pulls = np.full(len(everyone), np.nan), np.zeros(len(everyone))
            grades[at], pulls[at] = grade, pull
            run.grades.append((grades, pulls))
            run.taken.append(np.arange(lo, hi))
            run.columns.append(columns)
    return run


def _constants(params: GradeEvidenceParams, values: npt.ArrayLike) -> GradeEvidenceParams:
    grade_sd, drift, slope = (float(v) for v in np.asarray(values, dtype=np.float64))
    return dataclasses.replace(params, grade_sd=grade_sd, drift=drift, slope=slope)


def _learn(prep: _Prepared, params: GradeEvidenceParams) -> GradeEvidenceParams:
    """docs/rules/go-grades.md "Learning the weights": the constants maximising the
    log-likelihood of every tournament's games from the ratings it starts with."""
    from scipy.optimize import minimize

    names = ("grade_sd", "drift", "slope")
    bounds = [LEARN_BOUNDS[name] for name in names]
    start = [min(max(getattr(params, n), lo), hi) for n, (lo, hi) in zip(names, bounds,
                                                                          strict=True)]

    def loss(values: Floats) -> float:
        run = _pass(prep, _constants(params, values), record=False)
        return -run.log_likelihood / max(run.games, 1)

    found = minimize(loss, np.asarray(start), method="Nelder-Mead", bounds=bounds,
                     options={"xatol": 1.0, "fatol": 1e-5, "maxfev": 120,
                              "initial_simplex": _simplex(start, bounds)})
    return _constants(params, np.round(found.x, 3))


def _simplex(start: list[float], bounds: list[tuple[float, float]]) -> Floats:
    """A first simplex a quarter of each constant's range wide."""
    points = [np.asarray(start, dtype=np.float64)]
    for at, (lo, hi) in enumerate(bounds):
        point = points[0].copy()
        step = (hi - lo) / 4
        point[at] = point[at] + step if point[at] + step <= hi else point[at] - step
        points.append(point)
    return np.asarray(points)


def learn_grade_evidence(games: pd.DataFrame, params: GradeEvidenceParams | None = None,
                         initial: pd.DataFrame | None = None) -> GradeEvidenceParams:
    """``params`` (the defaults when ``None``) with ``grade_sd``, ``drift`` and ``slope``
    learned from ``games`` (docs/rules/go-grades.md "Learning the weights"); unchanged when
    the games are fewer than :data:`MIN_GAMES`."""
    params = params or GradeEvidenceParams()
    prep = _prepare(games, initial)
    if len(prep.sides.player) // 2 < MIN_GAMES:
        return params
    return _learn(prep, params)


def rate_grade_evidence(games: pd.DataFrame, params: GradeEvidenceParams,
                        initial: pd.DataFrame | None = None) -> RatingRun:
    """Rate the games frame tournament by tournament, every declared grade a reading of the
    strength (module docstring). The ``ratings`` frame carries ``deviation_before`` and
    ``deviation`` (the square roots of ``v``) and :data:`GRADE_COLUMNS`; ``rating_before`` is
    the rating after the grade's pull, the one the tournament's games are rated from.
    ``contributions``: one row per game per player with the ``expected`` result and the game's
    ``change``, ``v' (g / s) (S - P)`` (docs/rules/go-grades.md "A game"; a period's changes
    add up to the games' move)."""
    prep = _prepare(games, initial)
    if not len(prep.codes.labels):
        ratings = _empty_ratings(GRADE_COLUMNS)
        return RatingRun(ratings=ratings, contributions=_empty_contributions(
            ("deviation_opponent", "change")), normalisations=empty_normalisations())
    if params.learn == "on" and len(prep.sides.player) // 2 >= MIN_GAMES:
        params = _learn(prep, params)
    run = _pass(prep, params, record=True)
    ratings = _ratings_frame(prep.codes, run.rows, True, ())
    ratings["grade"] = np.concatenate([grade for grade, _ in run.grades])
    ratings["grade_pull"] = np.concatenate([pull for _, pull in run.grades])
    contributions = _contributions_frame(prep.codes, prep.sides, np.concatenate(run.taken),
                                         run.columns)
    warnings = (f"grade-evidence constants: grade_sd {params.grade_sd:g}, drift "
                f"{params.drift:g}, slope {params.slope:g}",)
    return RatingRun(ratings=ratings, contributions=contributions,
                     normalisations=empty_normalisations(), warnings=warnings)
