"""WHR's constants learned from the pool's own history (docs/rules/bridge-whr.md §13).

The constants of the prior -- ``drift``, ``prior``, ``newcomer`` and ``first_year_drift`` --
are chosen by how well they predict results not yet seen: for each of the latest periods with
results (the *origins*: newest first, until they hold :data:`ORIGIN_PAIRS` pairs or there are
``origins`` of them), the whole history before it is fitted, and every two
units of each event of the origin with different places are predicted from that fit
(``1 / (1 + exp(-(s_a - s_b)))`` of the units' strengths, a newcomer at the newcomer prior).
The score is the mean log loss over all those pairs; the learned constants are the ones with
the lowest score.

How it is computed
------------------
Each origin's problem is built once: the results up to and including the origin, the events
of the origin weighted 0 (they shape nothing, but their units are in the problem, so that their
predicted strengths are read off the fit: an unknown without results follows its chain's last
fitted value, or its prior mean). Changing the constants changes only the prior's arrays; each
fit starts from the origin's last solution, so after the first a fit takes one to three Newton
steps. The search is a compass search on ``log drift``, ``log prior``, the newcomer prior (in
strength units) and ``log first_year_drift``, from the values as set, each step halved when
neither direction improves, until every step is below its resolution or after
``max_evaluations`` scores. It is deterministic: the same results give the same constants.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from ._frames import PERIOD_FREQUENCIES, check_initial, check_results
from ._params import CENTRE, LEARNABLE
from ._whr import (
    WhrParams,
    _newton,
    _prepare,
    _Prior,
    _prior,
    _Problem,
    _Setup,
)

__all__ = ["LEARNABLE", "WhrLearning", "learn_whr"]

ORIGINS = 4
"""Periods predicted at most (the latest ones)."""

MAX_EVALUATIONS = 30
"""Scores (one fit per origin each) at most."""

_FIT_TOLERANCE = 0.5
"""Rating points: a learning fit stops when a Newton step changes no strength by this."""

_REFITS = 4
"""Newton steps of a learning fit that starts from an earlier solution of the same origin."""

# Compass search: per constant, the first step and the resolution (log scale for the spreads,
# strength units of 1 / scale for the newcomer prior), and the bounds.
_STEP = {"drift": 0.7, "prior": 0.5, "newcomer": 0.6, "first_year_drift": 0.7}
_RESOLUTION = {"drift": 0.17, "prior": 0.12, "newcomer": 0.15, "first_year_drift": 0.17}
_BOUNDS = {"drift": (1.0, 40.0), "prior": (20.0, 400.0), "newcomer": (300.0, 700.0),
           "first_year_drift": (1.0, 80.0)}
"""Rating points: the learned values stay inside these plausible ranges (a strength moving
more than half a class a period, or a newcomer two classes from the mean, says the history
is too short to tell)."""

MIN_PERIODS = 4
"""Periods with results at least: with fewer, the constants stay as set (a score over one or
two periods follows chance more than the constants)."""

ORIGIN_PAIRS = 40_000
"""Pairs enough: origins are added (newest first) until they hold this many pairs, so a large
federation predicts its last period only and a club its last ``ORIGINS``."""

_GAIN = 5e-5
"""A step is taken when it lowers the mean log loss by more than this (a smaller gain is
within chance)."""


@dataclass(frozen=True, slots=True)
class WhrLearning:
    """What learning found: ``params`` with the learned constants applied, which were learned
    (``learned``), the last period learned from (``through``), the periods predicted
    (``origins``) and their unit pairs (``pairs``), the mean log loss at the constants as set
    (``start_loss``) and as learned (``loss``), how many scores and Newton steps it took, and
    ``reason`` when nothing could be learned."""

    params: WhrParams
    learned: tuple[str, ...]
    through: str
    origins: tuple[str, ...]
    pairs: int
    start_loss: float
    loss: float
    evaluations: int
    newton_steps: int
    seconds: float
    reason: str = ""

    def summary(self) -> str:
        """One line for the run's log."""
        if self.reason:
            return f"whr constants as set ({self.reason})"
        values = ", ".join(f"{name} {getattr(self.params, name):.4g}" for name in self.learned)
        return (f"whr constants learned through {self.through}: {values}; next-period log "
                f"loss {self.loss:.4f} (as set {self.start_loss:.4f}) over {self.pairs} pairs "
                f"of {', '.join(self.origins)}; {self.evaluations} scores, {self.seconds:.1f} s")


@dataclass(slots=True)
class _Origin:
    """One predicted period: its problem, the unknowns' arrays the prior is built from, the
    pairs to predict (slots ``a`` ahead of ``b``) and the latest solution."""

    label: str
    setup: _Setup
    problem: _Problem
    given: np.ndarray
    a: np.ndarray
    b: np.ndarray
    theta: np.ndarray
    fits: int = 0


def _origin(checked: pd.DataFrame, row_period: np.ndarray, index: int, label: str,
            params: WhrParams, start: pd.Series) -> _Origin | None:
    rows = checked[row_period <= index].reset_index(drop=True)
    for column in ("event_code", "unit_code", "player_code"):
        # codes stay in their order, without the gaps of the rows left out
        rows[column] = np.unique(rows[column].to_numpy(), return_inverse=True)[1]
    setup, problem = _prepare(rows, params, start)
    test = np.asarray(setup.row_period == len(setup.periods) - 1) & (setup.row_slot >= 0)
    # rows are in output order; the setup's row arrays follow setup.src
    place = rows["place"].to_numpy(np.float64)[setup.src]
    event = rows["event_code"].to_numpy(np.int64)[setup.src]
    units = pd.DataFrame({"event": event[test], "slot": setup.row_slot[test],
                          "place": place[test]}).drop_duplicates("slot")
    pairs = units.merge(units, on="event", suffixes=("_a", "_b"))
    pairs = pairs[pairs["place_a"] < pairs["place_b"]]
    if pairs.empty:
        return None
    weight = problem.layout.weight.copy()
    weight[units["slot"].to_numpy()] = 0.0
    layout = dataclasses.replace(problem.layout, weight=weight)
    problem = dataclasses.replace(problem, layout=layout)
    return _Origin(label, setup, problem, setup.start[setup.unknown_player],
                   pairs["slot_a"].to_numpy(np.intp), pairs["slot_b"].to_numpy(np.intp),
                   setup.prior_mean.copy())


def _with_prior(problem: _Problem, prior: _Prior) -> _Problem:
    return dataclasses.replace(problem, prior_diagonal=prior.diagonal, prior_off=prior.off,
                               prior_linear=prior.linear, chains=prior.chains)


def _loss(origins: Sequence[_Origin], params: WhrParams) -> tuple[float, int]:
    """Total log loss over every origin's pairs under ``params``, and the Newton steps taken;
    each origin's solution is kept as the next fit's start."""
    total, steps = 0.0, 0
    for origin in origins:
        # The first fit of an origin runs to the tolerance; later ones start from the last
        # solution, which a change of the constants moves only a little: _REFITS steps.
        fit_params = dataclasses.replace(
            params, tolerance=max(params.tolerance, _FIT_TOLERANCE),
            max_iterations=params.max_iterations if origin.fits == 0 else _REFITS)
        origin.fits += 1
        prior = _prior(origin.setup.unknown_player, origin.setup.unknown_period, origin.given,
                       params)
        problem = _with_prior(origin.problem, prior)
        # A newcomer's start moves with the newcomer prior: chains without a result so far start
        # from their prior mean, the others from the latest solution.
        fitted = _newton(problem, origin.theta, fit_params)
        steps += fitted.iterations
        origin.theta = fitted.point.theta
        s = fitted.point.s
        total -= float(np.sum(special.log_expit(s[origin.a] - s[origin.b])))
    return total, steps


def _encode(name: str, value: float, scale: float) -> float:
    return (value - CENTRE) / scale if name == "newcomer" else math.log(value)


def _decode(name: str, x: float, scale: float) -> float:
    low, high = _BOUNDS[name]
    value = CENTRE + scale * x if name == "newcomer" else math.exp(x)
    return float(min(max(value, low), high))


def learn_whr(results: pd.DataFrame, params: WhrParams, initial: pd.DataFrame | None = None,
              *, through: str | None = None, fixed: Sequence[str] = (),
              start: WhrParams | None = None, origins: int = ORIGINS,
              max_evaluations: int = MAX_EVALUATIONS) -> WhrLearning:
    """Learn the constants of :data:`LEARNABLE` not in ``fixed`` from ``results`` up to and
    including the period ``through`` (default: the latest with results), as the module
    docstring says; everything else of ``params`` is kept. The search starts from the values
    of ``start`` (those learned when the last period closed), with steps a quarter of the
    first ones, else from the values as set. With fewer than two periods of results, or nothing to
    learn, ``params`` comes back unchanged with the ``reason``."""
    begin = time.perf_counter()
    names = tuple(n for n in LEARNABLE if n not in fixed)
    checked = check_results(results)
    given = check_initial(initial)

    def unchanged(reason: str, through_label: str = "") -> WhrLearning:
        return WhrLearning(params, (), through_label, (), 0, math.nan, math.nan, 0, 0,
                           time.perf_counter() - begin, reason)

    if not names:
        return unchanged("every constant is set")
    if checked.empty:
        return unchanged("no results")
    freq = PERIOD_FREQUENCIES[params.period]
    period = pd.DatetimeIndex(checked["date"]).to_period(freq)
    if through is not None:
        keep = np.asarray(period <= pd.Period(through, freq=freq))
        checked, period = checked[keep].reset_index(drop=True), period[keep]
        if checked.empty:
            return unchanged("no results", through)
    first = period.min()
    row_period = np.asarray(period.asi8 - first.ordinal, dtype=np.int64)
    seen = np.unique(row_period)
    last_label = str(first + int(seen[-1]))
    if len(seen) < MIN_PERIODS:
        return unchanged(f"fewer than {MIN_PERIODS} periods of results", last_label)
    # The latest periods, newest first, until ORIGIN_PAIRS pairs (or `origins` periods).
    built: list[_Origin] = []
    for p in [int(p) for p in seen[1:]][::-1]:
        if len(built) >= origins or sum(len(o.a) for o in built) >= ORIGIN_PAIRS:
            break
        origin = _origin(checked, row_period, p, str(first + p), params, given)
        if origin is not None:
            built.insert(0, origin)
    if not built:
        return unchanged("no two units of an event with different places", last_label)
    pairs = sum(len(o.a) for o in built)

    origin_values = start if start is not None and start != params else params
    x = {n: _encode(n, float(getattr(origin_values, n) or origin_values.drift), params.scale)
         for n in names}
    narrow = 0.25 if origin_values is not params else 1.0

    def at(point: dict[str, float]) -> WhrParams:
        return dataclasses.replace(params, **{n: _decode(n, v, params.scale)
                                              for n, v in point.items()})

    best, steps = _loss(built, at(x))
    start_loss = best
    evaluations = 1
    step = {n: _STEP[n] * narrow for n in names}
    while evaluations < max_evaluations and any(step[n] >= _RESOLUTION[n] for n in names):
        for n in names:
            if step[n] < _RESOLUTION[n] or evaluations >= max_evaluations:
                continue
            moved = False
            same = 0
            for sign in (1.0, -1.0):
                trial = dict(x)
                trial[n] = x[n] + sign * step[n]
                if _decode(n, trial[n], params.scale) == _decode(n, x[n], params.scale):
                    continue  # at a bound
                loss, used = _loss(built, at(trial))
                evaluations += 1
                steps += used
                if loss < best - _GAIN * pairs:
                    best, x, moved = loss, trial, True
                    break
                same += abs(loss - best) <= 1e-12 * abs(best)
                if evaluations >= max_evaluations:
                    break
            if same == 2:
                step[n] = 0.0  # it changes nothing here (no newcomers, say): not searched
            elif not moved:
                step[n] /= 2.0
    learned = at(x)
    # Values are rounded for the record: 3 significant digits say all the score can tell.
    rounded = dataclasses.replace(learned, **{
        n: float(f"{getattr(learned, n):.3g}") for n in names})
    return WhrLearning(rounded, names, last_label, tuple(o.label for o in built), pairs,
                       start_loss / pairs, best / pairs, evaluations, steps,
                       time.perf_counter() - begin)
