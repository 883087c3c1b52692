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
latent strength of the players both know.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

__all__ = [
    "Unfairness",
    "kn_max",
    "list_unfairness",
    "pairwise_fairer",
    "places",
    "places_in_groups",
    "rank_correlation",
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
