"""How fair a ranking is: unfairness measures and rank correlations (docs/rules/simulation.md).

A ranking is compared with the expected order (true strength): pair or player ``i`` is expected
at place ``e_i`` and finished at place ``a_i`` (1 = best, ties averaged).

- ``KN``  = sum (a_i - e_i)^2, quadratic unfairness;
- ``LN``  = sum |a_i - e_i|, linear unfairness;
- ``KN-`` = sum of (a_i - e_i)^2 over those placed worse than expected (a_i > e_i);
- ``kn_max(n)`` = KN of the fully reversed ranking, so ``KN / kn_max`` is a percentage;
- ``pairwise_fairer`` = how often one setup is fairer than another, more robust than the mean
  (docs/rules/simulation.md, "Unfairness of a final ranking").

For rating lists, :func:`list_unfairness` and :func:`rank_correlation` compare a list with the
latent strength of the players both know; :func:`reliability` bins a scheme's win probabilities
against what happened (a reliability diagram and its expected calibration error).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

__all__ = [
    "Reliability",
    "ReliabilityBin",
    "Unfairness",
    "kn_max",
    "list_unfairness",
    "pairwise_fairer",
    "places",
    "places_in_groups",
    "pooled_reliability",
    "rank_correlation",
    "reliability",
    "unfairness",
    "unfairness_arrays",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Unfairness:
    """Unfairness of one ranking: quadratic (``kn``), linear (``ln``) and negative quadratic."""

    kn: float
    ln: float
    kn_minus: float


def unfairness_arrays(
    actual: npt.ArrayLike, expected: npt.ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """KN, LN and KN- along the last axis, for many rankings at once.

    ``actual`` and ``expected`` are places (1 = best) of the same shape, or ``expected`` of the
    last axis' length broadcast over the rest. Returns three arrays of the leading shape.
    """
    a = np.asarray(actual, dtype=float)
    e = np.asarray(expected, dtype=float)
    if a.ndim == 0 or e.ndim == 0 or a.shape[-1] != e.shape[-1]:
        raise ValueError(f"actual and expected places differ in length: {a.shape!r} vs {e.shape!r}")
    diff = a - e
    square = diff * diff
    # docs/rules/simulation.md: KN- counts only those placed worse than expected (a_i > e_i)
    return (
        square.sum(axis=-1),
        np.abs(diff).sum(axis=-1),
        np.where(diff > 0, square, 0.0).sum(axis=-1),
    )


def unfairness(actual: npt.ArrayLike, expected: npt.ArrayLike) -> Unfairness:
    """KN, LN and KN- of one ranking: ``actual`` and ``expected`` places, index by index."""
    a = np.asarray(actual, dtype=float)
    e = np.asarray(expected, dtype=float)
    if a.ndim != 1 or a.shape != e.shape:
        raise ValueError(
            f"actual and expected must be 1-D places of one length: {a.shape!r} vs {e.shape!r}"
        )
    kn, ln, kn_minus = unfairness_arrays(a, e)
    return Unfairness(kn=float(kn), ln=float(ln), kn_minus=float(kn_minus))


def kn_max(n: int) -> float:
    """KN of the fully reversed ranking of ``n``: sum (n + 1 - 2i)^2 = n (n^2 - 1) / 3."""
    if n < 0:
        raise ValueError(f"a ranking cannot have {n!r} entries")
    return n * (n * n - 1) / 3.0


def places(scores: npt.ArrayLike, *, higher_is_better: bool = True) -> FloatArray:
    """1-based places of ``scores`` along the last axis, tied scores sharing the average place.

    >>> places([10, 30, 30, 5]).tolist()
    [3.0, 1.5, 1.5, 4.0]
    """
    values = np.asarray(scores, dtype=float)
    if values.ndim == 0:
        raise ValueError("places need a sequence of scores, not a single value")
    keyed = -values if higher_is_better else values
    return np.asarray(stats.rankdata(keyed, method="average", axis=-1), dtype=float)


def places_in_groups(group: npt.ArrayLike, scores: npt.ArrayLike) -> FloatArray:
    """1-based places of ``scores`` within each group (higher is better), tied scores sharing
    the average of the places they occupy; one call for all groups, no loop per group.

    >>> places_in_groups([0, 0, 0, 1, 1], [5, 9, 5, 1, 2]).tolist()
    [2.5, 1.0, 2.5, 2.0, 1.0]
    """
    g = np.asarray(group)
    values = np.asarray(scores, dtype=float)
    order = np.lexsort((-values, g))
    grp, val = g[order], values[order]
    first = np.r_[True, grp[1:] != grp[:-1]]
    starts = np.flatnonzero(first)
    position = np.arange(len(grp)) - np.repeat(starts, np.diff(np.r_[starts, len(grp)])) + 1.0
    # a run of equal scores within a group shares the mean of its positions
    run = np.cumsum(first | np.r_[True, val[1:] != val[:-1]]) - 1
    mean_place = np.bincount(run, position) / np.bincount(run)
    out = np.empty(len(grp))
    out[order] = mean_place[run]
    return out


def pairwise_fairer(kn_a: npt.ArrayLike, kn_b: npt.ArrayLike) -> float:
    """Share of tournaments where A's KN is below B's, ties counted half.

    ``kn_a`` and ``kn_b`` are paired: element ``t`` of both comes from tournament ``t``
    (docs/rules/simulation.md: "how often is setup A fairer than setup B").
    """
    a = np.asarray(kn_a, dtype=float)
    b = np.asarray(kn_b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired KN arrays must be 1-D of one length: {a.shape!r} vs {b.shape!r}")
    if a.size == 0:
        return float("nan")
    return float(((a < b).sum() + 0.5 * (a == b).sum()) / a.size)


def _common(ratings: pd.Series, strength: pd.Series) -> tuple[FloatArray, FloatArray]:
    """Ratings and strengths of the players in both series (neither missing), aligned."""
    frame = pd.concat(
        [ratings.rename("rating"), strength.rename("strength")], axis=1, join="inner"
    ).dropna()
    return (
        frame["rating"].to_numpy(dtype=float),
        frame["strength"].to_numpy(dtype=float),
    )


def list_unfairness(ratings: pd.Series, strength: pd.Series) -> Unfairness:
    """Unfairness of a rating list against latent strength, over the players both hold.

    Both series are indexed by player, higher is better; places are taken among the common
    players only (ties averaged), so the list's place is ``a_i`` and the strength order ``e_i``.
    """
    rating, truth = _common(ratings, strength)
    if rating.size == 0:
        return Unfairness(kn=0.0, ln=0.0, kn_minus=0.0)
    return unfairness(places(rating), places(truth))


def rank_correlation(ratings: pd.Series, strength: pd.Series) -> tuple[float, float]:
    """(Spearman's rho, Kendall's tau-b) of ratings and strength over the common players.

    NaN when fewer than two players are common or either side is constant (no order to compare).
    """
    rating, truth = _common(ratings, strength)
    if rating.size < 2 or np.ptp(rating) == 0 or np.ptp(truth) == 0:
        return float("nan"), float("nan")
    rho = stats.spearmanr(rating, truth).statistic
    tau = stats.kendalltau(rating, truth).statistic
    return float(rho), float(tau)


# --- calibration ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability diagram: the favourites predicted in ``[low, high)`` (the last
    bin includes 1), how many there are, their mean predicted probability and how often the
    favourite finished ahead."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float


@dataclass(frozen=True)
class Reliability:
    """A reliability diagram: its non-empty bins, lowest first, over ``count`` predictions, and
    the expected calibration error ``ece`` (the count-weighted mean of
    ``|observed - predicted|`` over the bins; NaN without predictions)."""

    bins: tuple[ReliabilityBin, ...]
    count: int
    ece: float

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values: ``count``, ``ece`` (``None`` for NaN) and ``bins``, each with
        ``low, high, count, predicted, observed``."""
        return {"count": self.count, "ece": None if math.isnan(self.ece) else self.ece,
                "bins": [{"low": b.low, "high": b.high, "count": b.count,
                          "predicted": b.predicted, "observed": b.observed} for b in self.bins]}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Reliability:
        """Inverse of :meth:`to_dict`."""
        bins = tuple(ReliabilityBin(float(b["low"]), float(b["high"]), int(b["count"]),
                                    float(b["predicted"]), float(b["observed"]))
                     for b in data["bins"])  # type: ignore[attr-defined]
        ece = data.get("ece")
        return cls(bins, int(data["count"]),  # type: ignore[call-overload]
                   math.nan if ece is None else float(ece))  # type: ignore[arg-type]


def _ece(bins: tuple[ReliabilityBin, ...]) -> float:
    count = sum(b.count for b in bins)
    if not count:
        return math.nan
    return sum(b.count * abs(b.observed - b.predicted) for b in bins) / count


def reliability(p: npt.ArrayLike, outcome: npt.ArrayLike, bins: int = 10) -> Reliability:
    """How well the win probabilities ``p`` match the outcomes: a reliability diagram folded to
    the favourite.

    ``p[i]`` is the stated probability that the first-listed unit of pair ``i`` finishes ahead
    of the second; ``outcome[i]`` is 1 if it did, 0 if it finished behind, 1/2 for a tie. Every
    pair is folded to its favourite: the predicted probability is ``max(p, 1 - p)`` and the
    outcome is whether the unit given ``p >= 1/2`` finished ahead (``outcome`` when ``p > 1/2``,
    ``1 - outcome`` when ``p < 1/2``). A prediction of exactly 1/2 names no favourite and counts
    as half a finish ahead, so the diagram does not depend on which unit is listed first; this
    matters where pairs are listed by their result (the lab lists the better-placed unit first).

    The folded probabilities in ``[1/2, 1]`` fall into ``bins`` bins of equal width,
    ``[1/2 + k w, 1/2 + (k + 1) w)`` with ``w = 1 / (2 bins)``, the last one including 1; so
    ``p`` of 1/2 lands in the first bin and ``p`` of 0 or 1 in the last. Each non-empty bin
    gives its range, its count, the mean folded probability (``predicted``) and the mean folded
    outcome (``observed``, the share of its favourites that finished ahead). A well calibrated
    scheme has ``observed`` close to ``predicted`` in every bin; :attr:`Reliability.ece` sums
    the gaps weighted by count.

    Raises ``ValueError`` when the arrays differ in length, a probability is outside
    ``[0, 1]`` (or NaN), an outcome is not 0, 1/2 or 1, or ``bins < 1``.

    >>> r = reliability([0.9, 0.2, 0.5], [1, 1, 1], bins=5)
    >>> [(b.low, b.count, b.predicted, b.observed) for b in r.bins]
    [(0.5, 1, 0.5, 0.5), (0.8, 1, 0.8, 0.0), (0.9, 1, 0.9, 1.0)]
    """
    if bins < 1:
        raise ValueError(f"a reliability diagram needs at least one bin, not {bins!r}")
    prob = np.asarray(p, dtype=float).ravel()
    result = np.asarray(outcome, dtype=float).ravel()
    if prob.shape != result.shape:
        raise ValueError(f"probabilities and outcomes differ in length: {prob.size} vs "
                         f"{result.size}")
    if not np.all((prob >= 0.0) & (prob <= 1.0)):
        raise ValueError("probabilities must lie in [0, 1]")
    if not np.all(np.isin(result, (0.0, 0.5, 1.0))):
        raise ValueError("outcomes must be 0, 1/2 or 1")
    folded = np.maximum(prob, 1.0 - prob)
    favourite = np.where(prob > 0.5, result, np.where(prob < 0.5, 1.0 - result, 0.5))
    edges = np.round(0.5 + np.arange(bins + 1) / (2.0 * bins), 12)
    # by the edges as reported, so a probability on an edge opens the bin above it
    index = np.minimum(np.searchsorted(edges, folded, side="right") - 1, bins - 1)
    count = np.bincount(index, minlength=bins)
    predicted = np.bincount(index, weights=folded, minlength=bins)
    observed = np.bincount(index, weights=favourite, minlength=bins)
    found = tuple(
        ReliabilityBin(float(edges[k]), float(edges[k + 1]), int(count[k]),
                       float(predicted[k] / count[k]), float(observed[k] / count[k]))
        for k in np.flatnonzero(count))
    return Reliability(found, int(prob.size), _ece(found))


def pooled_reliability(parts: Sequence[Reliability]) -> Reliability:
    """One diagram of the predictions of all ``parts`` (say one per seed), made with the same
    bins: the counts of bins with the same range summed, their means weighted by count; the
    same as :func:`reliability` of all the predictions at once (up to rounding)."""
    merged: dict[tuple[float, float], list[float]] = {}
    for part in parts:
        for b in part.bins:
            total = merged.setdefault((b.low, b.high), [0.0, 0.0, 0.0])
            total[0] += b.count
            total[1] += b.count * b.predicted
            total[2] += b.count * b.observed
    found = tuple(ReliabilityBin(low, high, int(n), s / n, o / n)
                  for (low, high), (n, s, o) in sorted(merged.items()))
    return Reliability(found, sum(part.count for part in parts), _ece(found))
