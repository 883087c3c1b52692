"""WHR: the whole-history placement rating of docs/rules/bridge-whr.md.

Every player has a strength in each period in which they have a result, the periods of one
player linked by a Gaussian random walk (§2); each event's order of places enters through a
Plackett-Luce or a pairwise likelihood (§3, §4); all strengths of the whole history are fitted
together as the maximum of the posterior (§6).

How the fit is computed
-----------------------
The unknowns are numbered by player, then period, so each player's strengths are a consecutive
*chain* and the prior's precision matrix is tridiagonal. The event units that enter the
likelihood sit in *padded blocks*: the events whose unit count rounds up to the same power of
two form one block of shape ``(events, width)``, each event's units in order of place, padding
behind them. Every sum over an event's risk sets (§3) is then a cumulative sum along the rows
of a block -- no Python loop per event, and no sum that runs across events. A sparse matrix
``J`` maps the strengths to the units' strengths (the mean or the sum of their rated players').

Newton's method: each step solves ``H d = -g`` (``H`` the exact Hessian of the negative log
posterior, applied as Hessian-vector products) by conjugate gradients, preconditioned by the
prior's tridiagonal matrix plus the likelihood's exact diagonal (one banded Cholesky factor per
step), followed by a backtracking line search on the log posterior. Only the Newton steps, the
conjugate-gradient steps and the blocks are Python loops.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import linalg, sparse, special

from ._belo import _event_ranks, _event_weight, _player_slots, _row_order
from ._errors import InputError
from ._frames import (
    CONTRIBUTIONS_COLUMNS,
    PERIOD_FREQUENCIES,
    RATINGS_COLUMNS,
    RatingRun,
    check_initial,
    check_results,
    empty_contributions,
    empty_normalisations,
    empty_ratings,
    period_range,
    text_column,
)
from ._options import check_options
from ._params import CENTRE, SCALE, WhrParams

__all__ = [
    "WHR_CONTRIBUTIONS_COLUMNS",
    "WHR_RATINGS_COLUMNS",
    "WhrFit",
    "WhrParams",
    "fit_whr",
    "rate_whr",
    "whr_probability",
]


Floats: TypeAlias = npt.NDArray[np.float64]
Ints: TypeAlias = npt.NDArray[np.int64]
Codes: TypeAlias = npt.NDArray[np.intp]
Bools: TypeAlias = npt.NDArray[np.bool_]

WHR_RATINGS_COLUMNS = (*RATINGS_COLUMNS, "deviation")
"""The ratings frame: the common columns plus the posterior deviation
(docs/rules/bridge-whr.md §8)."""

WHR_CONTRIBUTIONS_COLUMNS = (*CONTRIBUTIONS_COLUMNS, "expected", "gradient", "moved")
"""The contributions frame: the common columns plus the explanation of
docs/rules/bridge-whr.md §10."""

_MAX_CG = 100
"""Conjugate-gradient steps per Newton step at most."""
_FORCING = 0.1
"""Conjugate gradients stop at a residual of ``min(_FORCING, sqrt(|g|))`` times the gradient's."""
_MAX_HALVINGS = 40
"""Line search: halvings of a Newton step at most."""
_ARMIJO = 1e-4
"""Line search: the share of the predicted decrease a step must achieve."""
_TABLE_ENTRIES = 1 << 22
"""Expected places: entries of one table of probabilities at most (bounds the memory)."""

_REASONS = ("", "unrated player", "fewer than 2 rated units")
"""Why a contribution row did not count, by code (0: it counted)."""


def whr_probability(rating_a: npt.ArrayLike, rating_b: npt.ArrayLike,
                    scale: float = SCALE) -> Floats:
    """Probability that unit A finishes ahead of unit B, from their mean ratings
    (docs/rules/bridge-whr.md §7): ``1 / (1 + exp(-(R_A - R_B) / scale))``, element-wise."""
    diff = np.asarray(rating_a, dtype=np.float64) - np.asarray(rating_b, dtype=np.float64)
    return np.asarray(special.expit(diff / float(scale)), dtype=np.float64)


# --- the likelihood's units in padded blocks ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Layout:
    """The likelihood's units in padded blocks (module docstring).

    A block is ``(offset, events, width)``: slots ``offset .. offset + events * width`` hold its
    events row by row, each row's units in order of place (ties in unit order), padding behind.
    Per slot: ``valid`` (1 on a unit, 0 on padding), the event ``weight`` (0 on padding), the
    first and last slot of the unit's group of tied places (the slot itself on padding).
    Per event (in slot order): its first slot ``base`` and its number of units ``size``.
    """

    blocks: tuple[tuple[int, int, int], ...]
    valid: Floats
    weight: Floats
    tie_first: Codes
    tie_last: Codes
    base: Codes
    size: Codes

    @property
    def slots(self) -> int:
        return len(self.valid)

    def cumsum(self, values: Floats, *, reverse: bool = False) -> Floats:
        """Inclusive cumulative sums along each event's row (from its end with ``reverse``)."""
        out = np.empty_like(values)
        for offset, events, width in self.blocks:
            stop = offset + events * width
            block = values[offset:stop].reshape(events, width)
            target = out[offset:stop].reshape(events, width)
            if reverse:
                np.cumsum(block[:, ::-1], axis=1, out=target[:, ::-1])
            else:
                np.cumsum(block, axis=1, out=target)
        return out

    def row_max(self, values: Floats) -> Floats:
        """Each slot gets the largest value of its event's row (padding included)."""
        out = np.empty_like(values)
        for offset, events, width in self.blocks:
            stop = offset + events * width
            block = values[offset:stop].reshape(events, width)
            out[offset:stop].reshape(events, width)[:] = block.max(axis=1, keepdims=True)
        return out


def _layout(unit_event: Ints, unit_place: Floats, event_weight: Floats) -> tuple[_Layout, Codes]:
    """The blocks of the likelihood units and each unit's slot.

    ``unit_event`` is each unit's event (non-decreasing), ``unit_place`` its place; every event
    has at least two units. ``event_weight`` is by event.
    """
    count = len(unit_event)
    if count == 0:
        none = np.zeros(0, dtype=np.intp)
        return _Layout((), np.zeros(0), np.zeros(0), none, none, none, none), none
    first_of_event = np.r_[True, unit_event[1:] != unit_event[:-1]]
    sizes = np.diff(np.r_[np.flatnonzero(first_of_event), count])
    width = np.maximum(2, 1 << np.ceil(np.log2(sizes)).astype(np.int64))
    event_seq = np.cumsum(first_of_event) - 1
    unit_width = width[event_seq]
    # Units by block width, then event, then place (ties keep unit order: a stable sort).
    order = np.lexsort((unit_place, event_seq, unit_width))
    seq = event_seq[order]
    place = unit_place[order]
    starts_sorted = np.r_[True, seq[1:] != seq[:-1]]
    event_of = np.cumsum(starts_sorted) - 1  # events renumbered in slot order
    first_pos = np.flatnonzero(starts_sorted)
    column = np.arange(count) - first_pos[event_of]
    ev_width = width[seq[first_pos]]
    ev_size = sizes[seq[first_pos]]
    blocks: list[tuple[int, int, int]] = []
    row = np.empty(len(first_pos), dtype=np.int64)
    offset = 0
    for w in np.unique(ev_width).tolist():
        members = np.flatnonzero(ev_width == w)
        row[members] = offset + np.arange(len(members)) * w
        blocks.append((offset, len(members), int(w)))
        offset += len(members) * int(w)
    slot_sorted = row[event_of] + column
    slot = np.empty(count, dtype=np.intp)
    slot[order] = slot_sorted

    valid = np.zeros(offset)
    valid[slot_sorted] = 1.0
    weight = np.zeros(offset)
    weight[slot_sorted] = event_weight[unit_event[order]]
    # Groups of tied places within an event: their first and last slot.
    new_group = starts_sorted | np.r_[True, place[1:] != place[:-1]]
    group = np.cumsum(new_group) - 1
    group_first = slot_sorted[np.flatnonzero(new_group)]
    group_last = slot_sorted[np.r_[np.flatnonzero(new_group)[1:] - 1, count - 1]]
    tie_first = np.arange(offset, dtype=np.intp)
    tie_last = np.arange(offset, dtype=np.intp)
    tie_first[slot_sorted] = group_first[group]
    tie_last[slot_sorted] = group_last[group]
    return _Layout(tuple(blocks), valid, weight, tie_first, tie_last,
                   row.astype(np.intp), ev_size.astype(np.intp)), slot


@dataclass(frozen=True, slots=True)
class _Pairs:
    """The pairs of the pairwise likelihood (docs/rules/bridge-whr.md §4): slots ``a`` (ahead or
    tied) and ``b``, ``a``'s score ``y`` (1 ahead, 0.5 tied) and the pair's weight."""

    a: Codes
    b: Codes
    y: Floats
    weight: Floats


def _pairs(layout: _Layout, place: Floats) -> _Pairs:
    """Every pair of units of one event, the better-placed (or the first of two tied) as ``a``:
    per block, the pairs of columns ``i < j`` of each row whose column ``j`` holds a unit."""
    total = int((layout.size * (layout.size - 1) // 2).sum())
    a, b = np.empty(total, dtype=np.intp), np.empty(total, dtype=np.intp)
    y, weight = np.empty(total), np.empty(total)
    done = 0
    for offset, events, width in layout.blocks:
        i, j = np.triu_indices(width, 1)
        stop = offset + events * width
        size = layout.valid[offset:stop].reshape(events, width).sum(axis=1)
        keep = (j[None, :] < size[:, None]).ravel()
        end = done + int(keep.sum())
        rows = offset + np.arange(events) * width
        a[done:end] = (rows[:, None] + i).ravel()[keep]
        b[done:end] = (rows[:, None] + j).ravel()[keep]
        places = place[offset:stop].reshape(events, width)
        y[done:end] = np.where(places[:, i] < places[:, j], 1.0, 0.5).ravel()[keep]
        # docs/rules/bridge-whr.md §4: each pair weighs 1/(n - 1), so an event weighs like one
        # game per unit, times the event weight of §5.
        per_pair = layout.weight[rows] / (size - 1.0)
        weight[done:end] = np.broadcast_to(per_pair[:, None], keep.reshape(events, -1).shape
                                           ).ravel()[keep]
        done = end
    return _Pairs(a, b, y, weight)


# --- likelihoods ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Terms:
    """One likelihood at the units' strengths ``s``: the weighted log-likelihood, its gradient
    and the diagonal of its negative Hessian by slot, and the product of the negative Hessian
    with a vector of slots."""

    loglik: float
    gradient: Floats
    curvature: Floats
    hessian_times: Callable[[Floats], Floats]
    expected_places: Callable[[], Floats]
    """docs/rules/bridge-whr.md §10: 1 + the sum over the event's other units of the
    probability that they finish ahead, by slot."""


def _plackett_luce(layout: _Layout, s: Floats) -> _Terms:
    # docs/rules/bridge-whr.md §3: log L = sum_i v (s_i - log D_i), D_i = sum of exp(s_j) over
    # the units not placed strictly ahead of unit i (tied units share one risk set). Sums are
    # taken after subtracting each event's largest s, so exp never overflows.
    shift = layout.row_max(s)
    x = np.exp(s - shift) * layout.valid
    denominator = np.where(layout.valid > 0, layout.cumsum(x, reverse=True)[layout.tie_first], 1.0)
    w = layout.weight
    loglik = float(np.dot(w, s - shift - np.log(denominator)))
    # Unit j is in the risk set of every unit i placed at or ahead of it:
    # d log L / d s_j = v - x_j sum_i v / D_i, and the diagonal of the negative Hessian is
    # x_j sum_i v / D_i - x_j^2 sum_i v / D_i^2 (sums over those i).
    inverse = w / denominator
    a = layout.cumsum(inverse)[layout.tie_last]
    b = layout.cumsum(inverse / denominator)[layout.tie_last]
    gradient = w - x * a
    curvature = np.maximum(x * a - x * x * b, 0.0)

    def hessian_times(v: Floats) -> Floats:
        # sum over stages i of v (diag(p_i) - p_i p_i^T), p_i = x / D_i on the risk set of i
        t = layout.cumsum(x * v, reverse=True)[layout.tie_first]
        c = layout.cumsum(inverse * t / denominator)[layout.tie_last]
        return np.asarray(x * (v * a - c), dtype=np.float64)

    return _Terms(loglik, gradient, curvature, hessian_times, partial(_expected_places, layout, s))


def _pairwise(pairs: _Pairs, slots: int, s: Floats) -> _Terms:
    # docs/rules/bridge-whr.md §4: log L = sum over pairs of w (y log P + (1 - y) log(1 - P)),
    # P = 1 / (1 + exp(-(s_a - s_b))).
    d = s[pairs.a] - s[pairs.b]
    p = special.expit(d)
    # log(1 - P) = log P - d, so both outcomes need only log P (accurate: P never underflows
    # for the strengths of a rating list).
    loglik = float(np.dot(pairs.weight, np.log(p) - (1.0 - pairs.y) * d))
    g = pairs.weight * (pairs.y - p)
    h = pairs.weight * p * (1.0 - p)
    gradient = np.asarray(np.bincount(pairs.a, g, minlength=slots)
                          - np.bincount(pairs.b, g, minlength=slots), dtype=np.float64)
    curvature = np.asarray(np.bincount(pairs.a, h, minlength=slots)
                           + np.bincount(pairs.b, h, minlength=slots), dtype=np.float64)

    def hessian_times(v: Floats) -> Floats:
        t = h * (v[pairs.a] - v[pairs.b])
        return np.asarray(np.bincount(pairs.a, t, minlength=slots)
                          - np.bincount(pairs.b, t, minlength=slots), dtype=np.float64)

    def expected_places() -> Floats:
        return np.asarray(1.0 + np.bincount(pairs.a, 1.0 - p, minlength=slots)
                          + np.bincount(pairs.b, p, minlength=slots), dtype=np.float64)

    return _Terms(loglik, gradient, curvature, hessian_times, expected_places)


# --- the posterior --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Chains:
    """The unknowns' chains (one per player, consecutive unknowns): first unknown and length,
    longest first, so the chains still running at position ``k`` are a prefix."""

    start: Codes
    length: Codes

    def positions(self) -> Iterator[tuple[Codes, Codes]]:
        """For ``k = 1, 2, ...``: the ``k``-th unknown (from 0) of every chain longer than
        ``k``, counted from the chain's start and from its end."""
        end = self.start + self.length - 1
        for k in range(1, int(self.length[0]) if len(self.length) else 0):
            running = int(np.searchsorted(-self.length, -k, side="left"))
            yield self.start[:running] + k, end[:running] - k


@dataclass(frozen=True, slots=True)
class _Problem:
    """The negative log posterior of docs/rules/bridge-whr.md §6 as arrays.

    ``J`` (slots x unknowns) maps strengths to the units' strengths, ``JT`` is its transpose
    and ``JT2`` the transpose of its squares. The prior is ``theta' P theta / 2 - c' theta``:
    ``P`` tridiagonal with ``prior_diagonal`` and ``prior_off`` (between unknown ``i`` and
    ``i + 1``, 0 between two players), ``c`` = ``prior_linear``.
    """

    layout: _Layout
    pairs: _Pairs | None
    J: sparse.csr_array
    JT: sparse.csr_array
    JT2: sparse.csr_array
    prior_diagonal: Floats
    prior_off: Floats
    prior_linear: Floats
    chains: _Chains

    @property
    def unknowns(self) -> int:
        return len(self.prior_diagonal)

    def prior_times(self, v: Floats) -> Floats:
        out = self.prior_diagonal * v
        out[:-1] += self.prior_off * v[1:]
        out[1:] += self.prior_off * v[:-1]
        return out

    def likelihood(self, s: Floats) -> _Terms:
        if self.pairs is None:
            return _plackett_luce(self.layout, s)
        return _pairwise(self.pairs, self.layout.slots, s)


@dataclass(frozen=True, slots=True)
class _Point:
    """The posterior at ``theta``: ``value`` (negative log posterior, up to a constant), its
    ``gradient``, the units' strengths ``s`` and the likelihood's terms there."""

    theta: Floats
    value: float
    gradient: Floats
    s: Floats
    terms: _Terms

    def curvature(self, problem: _Problem) -> Floats:
        """Diagonal of the negative log posterior's Hessian: the likelihood's exact diagonal
        plus the prior's."""
        return np.asarray(problem.JT2 @ self.terms.curvature, dtype=np.float64) \
            + problem.prior_diagonal


def _evaluate(problem: _Problem, theta: Floats) -> _Point:
    s = np.asarray(problem.J @ theta, dtype=np.float64)
    terms = problem.likelihood(s)
    prior = problem.prior_times(theta)
    value = -terms.loglik + 0.5 * float(np.dot(theta, prior)) \
        - float(np.dot(problem.prior_linear, theta))
    gradient = prior - problem.prior_linear - np.asarray(problem.JT @ terms.gradient)
    return _Point(theta, value, gradient, s, terms)


def _hessian_times(problem: _Problem, point: _Point, v: Floats) -> Floats:
    inner = point.terms.hessian_times(np.asarray(problem.J @ v, dtype=np.float64))
    return np.asarray(problem.JT @ inner, dtype=np.float64) + problem.prior_times(v)


def _factor(diagonal: Floats, off: Floats) -> Floats:
    """Banded Cholesky factor of the tridiagonal matrix (upper form for scipy)."""
    band = np.zeros((2, len(diagonal)))
    band[0, 1:] = off
    band[1] = diagonal
    return np.asarray(linalg.cholesky_banded(band, check_finite=False), dtype=np.float64)


def _solve(factor: Floats, r: Floats) -> Floats:
    return np.asarray(linalg.cho_solve_banded((factor, False), r, check_finite=False),
                      dtype=np.float64)


def _conjugate_gradients(hessian_times: Callable[[Floats], Floats], b: Floats,
                         precondition: Callable[[Floats], Floats], rtol: float) -> Floats:
    """Approximate solution of ``H x = b`` (``H`` positive definite): preconditioned conjugate
    gradients from 0 until the residual is ``rtol`` times ``|b|`` or after ``_MAX_CG`` steps."""
    x = np.zeros_like(b)
    r = b.copy()
    z = precondition(r)
    p = z.copy()
    rz = float(np.dot(r, z))
    target = rtol * float(np.linalg.norm(b))
    for _ in range(_MAX_CG):
        hp = hessian_times(p)
        curvature = float(np.dot(p, hp))
        if curvature <= 0.0:
            break
        alpha = rz / curvature
        x += alpha * p
        r -= alpha * hp
        if float(np.linalg.norm(r)) <= target:
            break
        z = precondition(r)
        rz_next = float(np.dot(r, z))
        p = z + (rz_next / rz) * p
        rz = rz_next
    return x


@dataclass(frozen=True, slots=True)
class _Fitted:
    point: _Point
    iterations: int
    converged: bool
    change: float
    """Largest rating change (points) of the last Newton step."""


def _newton(problem: _Problem, theta: Floats, params: WhrParams) -> _Fitted:
    """docs/rules/bridge-whr.md §6: Newton steps with conjugate gradients and a line search,
    until a step changes no rating by ``tolerance`` points or after ``max_iterations``."""
    point = _evaluate(problem, theta)
    change = math.inf
    for iteration in range(1, params.max_iterations + 1):
        norm = float(np.linalg.norm(point.gradient))
        if norm == 0.0:
            return _Fitted(point, iteration - 1, True, 0.0)
        factor = _factor(point.curvature(problem), problem.prior_off)
        step = _conjugate_gradients(
            partial(_hessian_times, problem, point), -point.gradient, partial(_solve, factor),
            min(_FORCING, math.sqrt(norm)))
        slope = float(np.dot(point.gradient, step))
        size = params.scale * float(np.max(np.abs(step)))
        if slope >= 0.0:  # no descent left: only rounding remains, or the step is useless
            return _Fitted(point, iteration - 1, size < params.tolerance, size)
        # Backtracking: halve the step until it decreases the negative log posterior by a
        # share of the predicted amount (with an allowance for rounding of the large sum).
        alpha = 1.0
        for _ in range(_MAX_HALVINGS):
            trial = _evaluate(problem, point.theta + alpha * step)
            allowance = 1e-13 * abs(point.value)
            if trial.value <= point.value + _ARMIJO * alpha * slope + allowance:
                break
            alpha *= 0.5
        else:
            return _Fitted(point, iteration - 1, size < params.tolerance, size)
        point = trial
        change = alpha * size
        if change < params.tolerance:
            return _Fitted(point, iteration, True, change)
    return _Fitted(point, params.max_iterations, False, change)


def _inverse_diagonal(diagonal: Floats, off: Floats, chains: _Chains) -> tuple[Floats, Floats]:
    """Diagonal of the inverse of the tridiagonal matrix, and its entries ``(i, i + 1)``.

    With the pivots ``f`` of elimination from each chain's start and ``e`` from its end,
    ``inv[i, i] = 1 / (f_i + e_i - a_i)`` and ``inv[i, i + 1] = -off_i inv[i + 1, i + 1] / f_i``;
    both recurrences run along all chains at once, one position at a time.
    """
    f = diagonal.copy()
    e = diagonal.copy()
    for forward, backward in chains.positions():
        f[forward] = diagonal[forward] - off[forward - 1] ** 2 / f[forward - 1]
        e[backward] = diagonal[backward] - off[backward] ** 2 / e[backward + 1]
    variance = 1.0 / (f + e - diagonal)
    covariance = -off * variance[1:] / f[:-1]
    return variance, covariance


# --- preparing a run -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Setup:
    """What a run's fit and frames need that does not depend on the strengths.

    Rows are in output order (date, event, unit, player); ``src`` is each row's position in
    the checked frame. ``row_slot`` is -1 for a row outside the likelihood, ``row_unknown`` -1
    for an unrated row. Unknowns are numbered by player slot, then period.
    """

    checked: pd.DataFrame
    names: npt.NDArray[np.object_]
    start: Floats
    """Initial rating by player slot, NaN: none."""
    periods: pd.PeriodIndex
    src: Ints
    row_period: Ints
    row_slot: Codes
    row_unknown: Codes
    row_coefficient: Floats
    row_weight: Floats
    row_reason: npt.NDArray[np.int8]
    unknown_player: Ints
    unknown_period: Ints
    prior_mean: Floats
    """Prior mean of each unknown's chain (strength units): where a fit starts."""
    link_variance: Floats
    """Variance of the step from each unknown to the next of its chain (strength units)."""

    @property
    def counted(self) -> Bools:
        return np.asarray(self.row_reason == 0)


def _prepare(checked: pd.DataFrame, params: WhrParams,
             start: pd.Series) -> tuple[_Setup, _Problem]:
    names, slot_of_code, initial = _player_slots(checked, start)
    day = checked["date"].to_numpy().astype("datetime64[D]").astype(np.int64)
    event_code = checked["event_code"].to_numpy(np.int64)
    unit_code = checked["unit_code"].to_numpy(np.int64)
    player_code = checked["player_code"].to_numpy(np.int64)
    ranks = _event_ranks(event_code, day)
    order = _row_order(ranks[event_code], unit_code, player_code)
    src = np.arange(len(checked), dtype=np.int64) if order is None else order.astype(np.int64)
    event = ranks[event_code][src]
    unit_raw = unit_code[src]
    player = slot_of_code[player_code[src]]
    place = checked["place"].to_numpy(np.float64)[src]
    rated = ~checked["unrated"].to_numpy(bool)[src]
    events = int(event.max()) + 1

    # Per event: its date, weight (docs/rules/bridge-whr.md §5) and period (§1).
    event_day = np.zeros(events, dtype=np.int64)
    event_day[event] = day[src]
    boards = np.zeros(events)
    boards[event] = checked["boards"].to_numpy(np.float64)[src]
    weight = _event_weight(boards, params.board_weight)
    freq = PERIOD_FREQUENCIES[params.period]
    periods = period_range(pd.Timestamp(np.datetime64(int(event_day.min()), "D")),
                           pd.Timestamp(np.datetime64(int(event_day.max()), "D")), params.period)
    ordinal = pd.DatetimeIndex(event_day.astype("datetime64[D]")).to_period(freq).asi8
    event_period = (ordinal - periods[0].ordinal).astype(np.int64)
    row_period = event_period[event]

    # Units: runs of rows (rows are sorted by event, unit, player).
    new_unit = np.r_[True, (event[1:] != event[:-1]) | (unit_raw[1:] != unit_raw[:-1])]
    unit = np.cumsum(new_unit) - 1
    members = np.bincount(unit, weights=rated.astype(np.float64))
    unit_first = np.flatnonzero(new_unit)
    unit_event = event[unit_first]
    # docs/rules/bridge-whr.md §1: a unit without a rated player leaves the likelihood; an event
    # with fewer than two units left is ignored.
    in_units = members > 0
    event_units = np.bincount(unit_event[in_units], minlength=events)
    in_units &= event_units[unit_event] >= 2
    row_in = in_units[unit] & rated
    layout, unit_slot = _layout(unit_event[in_units], place[unit_first][in_units], weight)
    slot_of_unit = np.full(len(unit_first), -1, dtype=np.intp)
    slot_of_unit[in_units] = unit_slot
    row_slot = np.where(row_in, slot_of_unit[unit], -1).astype(np.intp)
    reason = np.where(~rated, 1, np.where(row_in, 0, 2)).astype(np.int8)

    # Unknowns: one per rated player per period with a rated row (docs/rules/bridge-whr.md §2).
    span = len(periods)
    key = player * span + row_period
    used = np.zeros(len(names) * span, dtype=bool)
    used[key[rated]] = True
    unknown_key = np.flatnonzero(used)
    inverse = (np.cumsum(used) - 1)[key[rated]]
    row_unknown = np.full(len(src), -1, dtype=np.intp)
    row_unknown[rated] = inverse
    unknown_player = unknown_key // span
    unknown_period = unknown_key % span
    coefficient = np.zeros(len(src))
    coefficient[row_in] = 1.0 / members[unit[row_in]] if params.unit == "mean" else 1.0

    count = len(unknown_key)
    J = sparse.csr_array((coefficient[row_in], (row_slot[row_in], row_unknown[row_in])),
                         shape=(layout.slots, count))
    JT = J.T.tocsr()
    JT2 = sparse.csr_array((JT.data ** 2, JT.indices, JT.indptr), shape=JT.shape)

    prior = _prior(unknown_player, unknown_period, initial[unknown_player], params)
    problem = _Problem(
        layout=layout,
        pairs=_pairs(layout, _slot_places(layout, row_slot, place)) if params.likelihood
        == "pairwise" else None,
        J=J, JT=JT, JT2=JT2,
        prior_diagonal=prior.diagonal, prior_off=prior.off, prior_linear=prior.linear,
        chains=prior.chains,
    )
    return _Setup(
        checked=checked, names=names, start=initial, periods=periods, src=src,
        row_period=row_period, row_slot=row_slot, row_unknown=row_unknown,
        row_coefficient=coefficient, row_weight=weight[event], row_reason=reason,
        unknown_player=unknown_player, unknown_period=unknown_period, prior_mean=prior.mean,
        link_variance=prior.link,
    ), problem


PERIODS_PER_YEAR = {"quarter": 4, "month": 12, "year": 1}
"""A player's first year in periods (``first_year_drift``, docs/rules/bridge-whr.md §2)."""


@dataclass(frozen=True, slots=True)
class _Prior:
    """The prior of docs/rules/bridge-whr.md §2 as the arrays of :class:`_Problem`, plus each
    unknown's chain mean (where a fit starts) and the variance of each link."""

    diagonal: Floats
    off: Floats
    linear: Floats
    mean: Floats
    link: Floats
    chains: _Chains


def _prior(unknown_player: Ints, unknown_period: Ints, given: Floats,
           params: WhrParams) -> _Prior:
    """docs/rules/bridge-whr.md §2: ``theta_first ~ N(mu, (prior/scale)^2)``, ``mu`` from the
    initial rating, else 0 for a player of the history's first period and ``newcomer`` for a
    later one; steps ``~ N(0, variance)`` between a player's consecutive periods, the variance
    ``(drift/scale)^2`` per period elapsed, with ``first_year_drift`` in a newcomer's first
    year (a player first seen after the history's first period, without an initial rating).
    ``unknown_player`` and ``unknown_period`` are sorted by player, then period."""
    count = len(unknown_player)
    same = unknown_player[1:] == unknown_player[:-1]
    chain_start = np.r_[True, ~same][:count]
    starts = np.flatnonzero(chain_start)
    lengths = np.diff(np.r_[starts, count])
    chain = np.cumsum(chain_start) - 1
    first = unknown_period[starts][chain] if count else unknown_period
    late = (params.drift / params.scale) ** 2
    early = (params.first_year_drift or params.drift) ** 2 / params.scale ** 2
    known = np.isfinite(given)
    # the first year is a newcomer's: a player of the history's first period, or one with an
    # initial rating, has been playing before the history starts
    newcomer_chain = (first > 0) & ~known
    year_end = np.where(newcomer_chain, first + PERIODS_PER_YEAR[params.period], first)[:-1]
    a, b = unknown_period[:-1], unknown_period[1:]
    in_year = np.clip(np.minimum(b, year_end) - a, 0, None).astype(np.float64)
    link = np.where(same, early * in_year + late * ((b - a) - in_year), 0.0)
    step_precision = np.where(same, 1.0 / np.where(same, link, 1.0), 0.0)
    first_precision = (params.scale / params.prior) ** 2
    diagonal = np.where(chain_start, first_precision, 0.0)
    diagonal[:-1] += step_precision
    diagonal[1:] += step_precision
    newcomer = (params.newcomer - CENTRE) / params.scale
    chain_mean = np.where(known, (given - CENTRE) / params.scale,
                          np.where(first > 0, newcomer, 0.0))
    linear = np.where(chain_start, chain_mean * first_precision, 0.0)
    longest = np.argsort(-lengths, kind="stable")
    return _Prior(diagonal, -step_precision, linear, chain_mean, link,
                  _Chains(starts[longest].astype(np.intp), lengths[longest].astype(np.intp)))


def _slot_places(layout: _Layout, row_slot: Codes, place: Floats) -> Floats:
    out = np.full(layout.slots, np.inf)
    at = row_slot >= 0
    out[row_slot[at]] = place[at]
    return out


# --- warm start -----------------------------------------------------------------------------------


def _warm_theta(setup: _Setup, warm: pd.DataFrame | None, params: WhrParams) -> Floats:
    """Start values (docs/rules/bridge-whr.md §9): an unknown found in ``warm`` (player and
    period) starts from it, converted back to strength; another from the latest earlier
    unknown of its player that has a value, else the player's latest rating in ``warm``, else
    its prior mean."""
    theta = setup.prior_mean.copy()
    if warm is None or warm.empty or len(theta) == 0:
        return theta
    missing = [c for c in ("period", "player", "rating") if c not in warm.columns]
    if missing:
        raise InputError(f"missing columns {missing!r}; expected period, player, rating",
                         frame="warm")
    freq = PERIOD_FREQUENCIES[params.period]
    # Labels and ids repeat: each distinct one is read once.
    label_code, labels = pd.factorize(warm["period"].astype(str))
    try:
        ordinal = pd.PeriodIndex(np.asarray(labels, dtype=object), freq=freq).asi8[label_code]
    except (TypeError, ValueError) as exc:
        raise InputError(f"column 'period' does not parse as {params.period} periods: {exc}",
                         frame="warm") from exc
    value = (pd.to_numeric(warm["rating"], errors="coerce").to_numpy(np.float64)
             - CENTRE) / params.scale
    id_code, ids = pd.factorize(warm["player"].astype(str))
    player = pd.Index(setup.names).get_indexer(np.asarray(ids, dtype=object))[id_code]
    span = len(setup.periods)
    period = ordinal - setup.periods[0].ordinal
    usable = (player >= 0) & np.isfinite(value)
    unknown_key = setup.unknown_player * span + setup.unknown_period
    inside = usable & (period >= 0) & (period < span)
    key = player[inside] * span + period[inside]
    at = np.searchsorted(unknown_key, key)
    at = np.minimum(at, len(unknown_key) - 1)
    hit = unknown_key[at] == key
    found = np.zeros(len(theta), dtype=bool)
    theta[at[hit]] = value[inside][hit]
    found[at[hit]] = True
    # The latest earlier value of the same chain, else the player's latest warm rating.
    index = np.where(found, np.arange(len(theta)), -1)
    latest = np.maximum.accumulate(index)
    same_player = (latest >= 0) & (setup.unknown_player[np.maximum(latest, 0)]
                                   == setup.unknown_player)
    fill = ~found & same_player
    theta[fill] = theta[latest[fill]]
    rest = ~found & ~same_player
    if rest.any() and usable.any():
        # each warm player's rating in their latest period
        latest_order = np.lexsort((period[usable], player[usable]))
        by_player = player[usable][latest_order]
        last = np.r_[by_player[1:] != by_player[:-1], True]
        lookup = np.full(len(setup.names), np.nan)
        lookup[by_player[last]] = value[usable][latest_order][last]
        found_value = lookup[setup.unknown_player[rest]]
        theta[rest] = np.where(np.isfinite(found_value), found_value, theta[rest])
    return theta


# --- frames out -----------------------------------------------------------------------------------


def _ratings_frame(setup: _Setup, explained: _Explained, params: WhrParams) -> pd.DataFrame:
    """docs/rules/bridge-whr.md §8: every player from their first period to the last, values
    between two periods with results on the straight line between them, after the last one
    constant, with the deviation of the random walk."""
    theta, variance, covariance = explained.theta, explained.variance, explained.covariance
    span = len(setup.periods)
    players = len(setup.names)
    count = len(theta)
    first = np.full(players, span, dtype=np.int64)
    chain_start = np.r_[True, setup.unknown_player[1:] != setup.unknown_player[:-1]][:count]
    first[setup.unknown_player[chain_start]] = setup.unknown_period[chain_start]
    has_initial = np.isfinite(setup.start)
    first[has_initial] = 0
    rows = span - first
    player = np.repeat(np.arange(players), rows)
    offset = np.arange(len(player)) - np.repeat(np.cumsum(rows) - rows, rows)
    t = first[player] + offset
    # Per unknown, with one more entry standing for "none" (index ``count``).
    owner = np.r_[setup.unknown_player, -1]
    period = np.r_[setup.unknown_period, 0]
    theta_ = np.r_[theta, 0.0]
    variance_ = np.r_[variance, 0.0]
    covariance_ = np.r_[covariance, 0.0, 0.0]
    link_ = np.r_[setup.link_variance, 0.0, 0.0]
    unknown_key = setup.unknown_player * span + setup.unknown_period
    i = np.searchsorted(unknown_key, player * span + t, side="right") - 1
    i = np.where(i < 0, count, i)
    seen = owner[i] == player  # a period with results at or before t
    nxt = np.minimum(i + 1, count)
    ahead = seen & (owner[nxt] == player)  # and one after t
    k0 = period[i]
    gap = np.where(ahead, period[nxt] - k0, 1).astype(np.float64)
    lam = np.where(ahead, (t - k0) / gap, 0.0)
    step = (params.drift / params.scale) ** 2
    value = theta_[i] + lam * (theta_[nxt] - theta_[i])
    cov = np.where(ahead, covariance_[i], 0.0)
    var = np.where(
        ahead,
        (1 - lam) ** 2 * variance_[i] + lam ** 2 * variance_[nxt] + 2 * lam * (1 - lam) * cov
        + link_[i] * lam * (1 - lam),
        variance_[i] + step * (t - k0),
    )
    start_value = np.where(has_initial, (setup.start - CENTRE) / params.scale, 0.0)
    value = np.where(seen, value, start_value[player])
    var = np.where(seen, var, (params.prior / params.scale) ** 2)
    rating = CENTRE + params.scale * value
    counted = setup.counted
    played = np.bincount(setup.row_unknown[counted], minlength=count + 1)
    events = np.where(seen & (t == k0), played[i], 0).astype(np.int64)
    before = np.r_[np.nan, rating[:-1]]
    opening = offset == 0
    before[opening] = CENTRE + params.scale * start_value[player[opening]]
    order = np.lexsort((player, t))
    labels = [str(p) for p in setup.periods]
    t = t[order]
    return pd.DataFrame({
        "period": text_column(labels, t),
        "period_start": setup.periods.start_time.normalize().to_numpy("datetime64[us]")[t],
        "period_end": setup.periods.end_time.normalize().to_numpy("datetime64[us]")[t],
        "player": text_column(setup.names, player[order]),
        "rating_before": before[order],
        "rating": rating[order],
        "events": events[order],
        "deviation": params.scale * np.sqrt(var[order]),
    })


def _expected_places(layout: _Layout, s: Floats) -> Floats:
    """docs/rules/bridge-whr.md §10: 1 + the sum over the event's other units of the
    probability that they finish ahead, by slot, from the blocks (a few events at a time)."""
    out = np.ones(layout.slots)
    for offset, events, width in layout.blocks:
        step = max(1, _TABLE_ENTRIES // (width * width))
        for first in range(0, events, step):
            lo = offset + first * width
            hi = offset + min(events, first + step) * width
            strength = s[lo:hi].reshape(-1, width)
            valid = layout.valid[lo:hi].reshape(-1, width)
            # [e, i, j]: probability that unit j finishes ahead of unit i; j = i adds 1/2
            ahead = special.expit(strength[:, None, :] - strength[:, :, None])
            total = np.einsum("eij,ej->ei", ahead, valid) - 0.5
            out[lo:hi] += (total * valid).ravel()
    return out


@dataclass(frozen=True, slots=True)
class _Explained:
    """The fit's results the frames are made of: per unknown the strength, its variance and
    the covariance with the next unknown (§8); per row (§10) the gradient, the points moved
    and the unit's expected place (NaN for rows that did not count)."""

    theta: Floats
    variance: Floats
    covariance: Floats
    gradient: Floats
    moved: Floats
    expected: Floats


def _explain(setup: _Setup, problem: _Problem, point: _Point, params: WhrParams) -> _Explained:
    curvature = point.curvature(problem)
    variance, covariance = _inverse_diagonal(curvature, problem.prior_off, problem.chains)
    counted = setup.counted
    # Rows that did not count read the extra entry (NaN) at the end of each array.
    slot = np.where(counted, setup.row_slot, problem.layout.slots)
    unknown = np.where(counted, setup.row_unknown, len(variance))
    # docs/rules/bridge-whr.md §10: the row's share g of d log posterior / d theta, and the
    # points the event moves the estimate: g V / (1 - h V), V the variance of the player's
    # strength in that period (the player's chain free, everyone else fixed), h the event's own
    # part of the curvature -- one Newton step of leaving the event out.
    gradient = setup.row_coefficient * np.r_[point.terms.gradient, np.nan][slot]
    own = setup.row_coefficient ** 2 * np.r_[point.terms.curvature, np.nan][slot]
    v = np.r_[variance, np.nan][unknown]
    moved = params.scale * gradient * v / (1.0 - own * v)
    expected = np.r_[point.terms.expected_places(), np.nan][slot]
    return _Explained(point.theta, variance, covariance, gradient, moved, expected)


def _contributions_frame(setup: _Setup, explained: _Explained) -> pd.DataFrame:
    checked, src = setup.checked, setup.src
    n = checked["n"].to_numpy(np.int64)[src]
    place = checked["place"].to_numpy(np.float64)[src]
    counted = setup.counted
    # The float columns are written into one block, which becomes the frame without a copy.
    floats = {
        "place": place,
        # docs/rules/bridge-belo.md §1, formula 3, for reading only
        "r": 1000.0 * (n + 0.5 - place) / n,
        "field_factor": None, "partner_factor": None,
        "weight": setup.row_weight,
        "norm_factor": None, "r_prime": None,
        "expected": explained.expected, "gradient": explained.gradient,
        "moved": explained.moved,
    }
    block = np.full((len(floats), len(src)), np.nan)
    for row, values in enumerate(floats.values()):
        if values is not None:
            block[row] = values
    frame = pd.DataFrame(block.T, columns=list(floats), copy=False)
    frame["period"] = text_column([str(p) for p in setup.periods], setup.row_period)
    frame["event_id"] = checked["event_id"].array.take(src)
    frame["date"] = checked["date"].to_numpy()[src]
    frame["player"] = checked["player"].array.take(src)
    frame["unit"] = checked["unit"].array.take(src)
    frame["n"] = n
    frame["counted"] = counted
    frame["reason"] = text_column(list(_REASONS), setup.row_reason.astype(np.intp))
    frame["phantom"] = np.zeros(len(src), dtype=bool)
    return frame[list(WHR_CONTRIBUTIONS_COLUMNS)]


# --- the scheme -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WhrFit:
    """A WHR run with how its fit went: ``iterations`` Newton steps, ``converged`` (a step
    changed no rating by ``tolerance`` points), ``change`` the largest change (points) of the
    last step."""

    run: RatingRun
    iterations: int
    converged: bool
    change: float


def _empty_run() -> RatingRun:
    ratings = empty_ratings().assign(deviation=pd.Series([], dtype=float))
    contributions = empty_contributions().assign(
        expected=pd.Series([], dtype=float), gradient=pd.Series([], dtype=float),
        moved=pd.Series([], dtype=float))
    return RatingRun(ratings, contributions, empty_normalisations())


def fit_whr(results: pd.DataFrame, params: WhrParams, initial: pd.DataFrame | None = None,
            warm: pd.DataFrame | None = None) -> WhrFit:
    """Rate ``results`` with WHR (docs/rules/bridge-whr.md), and say how the fit went.

    ``results`` and ``initial`` are described in the :mod:`ratings` package docstring; a player
    in ``initial`` has their rating as the prior mean of their first period with results and is
    listed from the first period. ``warm`` is the ratings frame of an earlier WHR run with the
    same options (at least ``period, player, rating``): the fit starts from it (§9), which
    changes only how long the fit takes. Nothing is modified.
    """
    check_options(params)
    checked = check_results(results)
    start = check_initial(initial)
    if checked.empty:
        return WhrFit(_empty_run(), 0, True, 0.0)
    setup, problem = _prepare(checked, params, start)
    fitted = _newton(problem, _warm_theta(setup, warm, params), params)
    explained = _explain(setup, problem, fitted.point, params)
    # The fit's arrays (pairs, maps, the likelihood's terms) go before the frames are built.
    iterations, converged, change = fitted.iterations, fitted.converged, fitted.change
    del problem, fitted
    warnings: tuple[str, ...] = ()
    if not converged:
        warnings = ((f"whr: the fit did not converge: {iterations} Newton steps "
                     f"(max_iterations = {params.max_iterations}), the last changed a rating by "
                     f"{change:.3g} points (tolerance {params.tolerance:g}, "
                     "docs/rules/bridge-whr.md §6)"),)
    run = RatingRun(
        ratings=_ratings_frame(setup, explained, params),
        contributions=_contributions_frame(setup, explained),
        normalisations=empty_normalisations(),
        warnings=warnings,
    )
    return WhrFit(run, iterations, converged, change)


def rate_whr(results: pd.DataFrame, params: WhrParams, initial: pd.DataFrame | None = None,
             warm: pd.DataFrame | None = None) -> RatingRun:
    """Rate ``results`` with WHR under ``params`` (docs/rules/bridge-whr.md): the run of
    :func:`fit_whr`."""
    return fit_whr(results, params, initial, warm).run
