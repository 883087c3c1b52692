"""Unfairness measures, rank correlations and calibration (quality/metrics.py,
docs/rules/simulation.md).

Hand-made rankings with hand-computed values, the seed's own examples, ties, and the KN_max
formula against the reversed ranking; reliability diagrams of synthetic predictions.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from quality.metrics import (
    Reliability,
    Unfairness,
    kn_max,
    list_unfairness,
    pairwise_fairer,
    places,
    places_in_groups,
    pooled_reliability,
    rank_correlation,
    reliability,
    unfairness,
    unfairness_arrays,
)


def places_of_listing(listing: list[int]) -> list[int]:
    """Places of pairs 1..n from a ranking written as the pair numbers, best first."""
    result = [0] * len(listing)
    for place, pair in enumerate(listing, start=1):
        result[pair - 1] = place
    return result


EXPECTED_12 = list(range(1, 13))


def test_reversed_four_hand_computed() -> None:
    got = unfairness([4, 3, 2, 1], [1, 2, 3, 4])
    # differences +3, +1, -1, -3
    assert got.kn == 20.0
    assert got.ln == 8.0
    assert got.kn_minus == 10.0  # only the two placed worse: 9 + 1


def test_perfect_ranking_is_zero() -> None:
    assert unfairness([1, 2, 3], [1, 2, 3]) == Unfairness(kn=0.0, ln=0.0, kn_minus=0.0)


def test_seed_examples_same_ln_different_kn() -> None:
    # seed 004, "Miera nespravodlivosti": both have LN 12, KN 12 and 72
    swapped = unfairness(places_of_listing([2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11]), EXPECTED_12)
    assert swapped.ln == 12.0
    assert swapped.kn == 12.0
    assert swapped.kn_minus == 6.0
    far = unfairness(places_of_listing([7, 2, 3, 4, 5, 6, 1, 8, 9, 10, 11, 12]), EXPECTED_12)
    assert far.ln == 12.0
    assert far.kn == 72.0
    assert far.kn_minus == 36.0  # pair 1 finished 7th


def test_seed_example_kn_minus_last_pair_wins() -> None:
    # seed 004: the ranking 12 1 2 ... 11 has KN- = 11 (pair 12 is better than expected)
    got = unfairness(places_of_listing([12, *range(1, 12)]), EXPECTED_12)
    assert got.kn_minus == 11.0
    assert got.kn == 11.0 + 121.0
    assert got.ln == 22.0


def test_tied_places_count_by_halves() -> None:
    got = unfairness([1.5, 1.5, 3.0], [1, 2, 3])
    assert got.kn == 0.5
    assert got.ln == 1.0
    assert got.kn_minus == 0.25


def test_unfairness_arrays_many_rankings_at_once() -> None:
    actual = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [2, 1, 3, 4]])
    kn, ln, kn_minus = unfairness_arrays(actual, [1, 2, 3, 4])
    assert kn.tolist() == [0.0, 20.0, 2.0]
    assert ln.tolist() == [0.0, 8.0, 2.0]
    assert kn_minus.tolist() == [0.0, 10.0, 1.0]


def test_unfairness_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="1-D places of one length"):
        unfairness([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="differ in length"):
        unfairness_arrays([[1, 2, 3]], [1, 2])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 11, 12, 13, 40])
def test_kn_max_is_the_reversed_ranking(n: int) -> None:
    expected = np.arange(1, n + 1)
    assert kn_max(n) == unfairness(expected[::-1], expected).kn


def test_kn_max_values() -> None:
    assert kn_max(4) == 20.0
    assert kn_max(12) == 572.0
    with pytest.raises(ValueError):
        kn_max(-1)


def test_places_ties_averaged() -> None:
    assert places([10, 30, 30, 5]).tolist() == [3.0, 1.5, 1.5, 4.0]
    assert places([10, 30, 30, 5], higher_is_better=False).tolist() == [2.0, 3.5, 3.5, 1.0]
    assert places([7, 7, 7]).tolist() == [2.0, 2.0, 2.0]


def test_places_along_last_axis() -> None:
    got = places(np.array([[1, 2, 3], [3, 3, 1]]))
    assert got.tolist() == [[3.0, 2.0, 1.0], [1.5, 1.5, 3.0]]


def test_pairwise_fairer_counts_ties_half() -> None:
    # A lower in tournaments 0 and 3, equal in 1, higher in 2
    assert pairwise_fairer([1, 2, 3, 4], [2, 2, 1, 5]) == 0.625
    assert pairwise_fairer([1, 2, 3, 4], [1, 2, 3, 4]) == 0.5
    assert math.isnan(pairwise_fairer([], []))
    with pytest.raises(ValueError):
        pairwise_fairer([1, 2], [1, 2, 3])


def test_list_unfairness_uses_common_players_only() -> None:
    ratings = pd.Series({"a": 700.0, "b": 650.0, "c": 720.0, "x": 999.0, "d": np.nan})
    strength = pd.Series({"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5, "y": 9.0})
    # common and known: a, b, c. List places a 2, b 3, c 1; strength places a 1, b 2, c 3
    got = list_unfairness(ratings, strength)
    assert got.kn == 1.0 + 1.0 + 4.0
    assert got.ln == 4.0
    assert got.kn_minus == 2.0  # a (2 vs 1) and b (3 vs 2)


def test_list_unfairness_ties_in_the_list() -> None:
    ratings = pd.Series({"a": 600.0, "b": 600.0, "c": 500.0})
    strength = pd.Series({"a": 10.0, "b": 5.0, "c": 1.0})
    got = list_unfairness(ratings, strength)
    assert got == Unfairness(kn=0.5, ln=1.0, kn_minus=0.25)


def test_list_unfairness_no_common_players() -> None:
    got = list_unfairness(pd.Series({"a": 1.0}), pd.Series({"b": 1.0}))
    assert got == Unfairness(kn=0.0, ln=0.0, kn_minus=0.0)


def test_rank_correlation_identical_and_reversed() -> None:
    truth = pd.Series({"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0})
    same = pd.Series({"a": 800.0, "b": 700.0, "c": 600.0, "d": 500.0})
    rho, tau = rank_correlation(same, truth)
    assert rho == pytest.approx(1.0)
    assert tau == pytest.approx(1.0)
    rho, tau = rank_correlation(-same, truth)
    assert rho == pytest.approx(-1.0)
    assert tau == pytest.approx(-1.0)


def test_rank_correlation_hand_computed() -> None:
    truth = pd.Series([1.0, 2.0, 3.0, 4.0], index=list("abcd"))
    ratings = pd.Series([1.0, 2.0, 4.0, 3.0], index=list("abcd"))
    rho, tau = rank_correlation(ratings, truth)
    assert rho == pytest.approx(1 - 6 * 2 / (4 * 15))  # 0.8
    assert tau == pytest.approx((5 - 1) / 6)  # 5 concordant pairs, 1 discordant


def test_rank_correlation_undefined_is_nan() -> None:
    truth = pd.Series({"a": 1.0, "b": 2.0})
    rho, tau = rank_correlation(pd.Series({"a": 5.0, "b": 5.0}), truth)
    assert math.isnan(rho)
    assert math.isnan(tau)
    rho, tau = rank_correlation(pd.Series({"a": 5.0}), truth)
    assert math.isnan(rho)
    assert math.isnan(tau)


def test_places_in_groups_hand_made() -> None:
    # group 7: scores 5, 9, 5 -> places 2.5, 1, 2.5; group 3: 1, 2 -> 2, 1; group 4 alone -> 1
    got = places_in_groups([7, 7, 3, 7, 3, 4], [5.0, 9.0, 1.0, 5.0, 2.0, 0.0])
    assert got.tolist() == [2.5, 1.0, 2.0, 2.5, 1.0, 1.0]


def test_places_in_groups_agrees_with_places_per_group() -> None:
    rng = np.random.default_rng(11)
    group = rng.integers(0, 20, 400)
    scores = rng.integers(0, 6, 400).astype(float)  # many ties
    got = places_in_groups(group, scores)
    for g in np.unique(group):
        at = group == g
        assert got[at].tolist() == places(scores[at]).tolist()


# --- calibration ------------------------------------------------------------------------------


def test_perfectly_calibrated_predictions_are_observed_as_predicted() -> None:
    rng = np.random.default_rng(5)
    p = rng.uniform(0.0, 1.0, 200_000)
    outcome = (rng.uniform(0.0, 1.0, p.size) < p).astype(float)  # the first unit ahead with p
    got = reliability(p, outcome)
    assert got.count == p.size and len(got.bins) == 10
    for b in got.bins:
        assert b.low <= b.predicted < b.high
        assert b.observed == pytest.approx(b.predicted, abs=0.015)
    assert got.ece < 0.01


def test_overconfident_predictions_are_observed_below_predicted() -> None:
    rng = np.random.default_rng(6)
    truth = rng.uniform(0.0, 1.0, 50_000)
    outcome = (rng.uniform(0.0, 1.0, truth.size) < truth).astype(float)
    stated = np.clip(0.5 + 1.5 * (truth - 0.5), 0.0, 1.0)  # further from 1/2 than the truth
    got = reliability(stated, outcome)
    assert all(b.observed < b.predicted for b in got.bins[1:])
    assert got.ece > 0.05


def test_a_constant_half_gives_one_bin_observed_half() -> None:
    # a prediction of 1/2 names no favourite: half a finish ahead, whoever is listed first
    got = reliability(np.full(40, 0.5), np.ones(40))
    assert len(got.bins) == 1
    (only,) = got.bins
    assert (only.low, only.high, only.count) == (0.5, 0.55, 40)
    assert only.predicted == 0.5 and only.observed == 0.5
    assert got.ece == 0.0


def test_edges_land_in_the_first_and_last_bin() -> None:
    got = reliability([0.0, 1.0, 0.5], [0.0, 1.0, 1.0], bins=4)
    first, last = got.bins
    assert (first.low, first.high, first.count) == (0.5, 0.625, 1)  # 1/2
    assert (last.low, last.high, last.count) == (0.875, 1.0, 2)  # 0 and 1, folded to 1
    assert last.predicted == 1.0 and last.observed == 1.0  # both favourites finished ahead


def test_folding_to_the_favourite_ignores_which_unit_is_listed_first() -> None:
    p = np.array([0.9, 0.7, 0.3, 0.62, 0.5])
    outcome = np.array([1.0, 0.0, 0.0, 1.0, 0.5])
    assert reliability(p, outcome) == reliability(1.0 - p, 1.0 - outcome)
    got = reliability(p, outcome, bins=5)
    # favourites: 0.9 ahead, 0.7 behind, 0.7 (the second unit of p = 0.3) ahead, 0.62 ahead
    assert [(b.low, b.count, b.observed) for b in got.bins] == \
        [(0.5, 1, 0.5), (0.6, 1, 1.0), (0.7, 2, 0.5), (0.9, 1, 1.0)]


def test_a_probability_on_an_edge_opens_the_bin_above_it() -> None:
    got = reliability([0.6, 0.4, 0.7], [1.0, 1.0, 1.0], bins=10)
    assert [(b.low, b.count) for b in got.bins] == [(0.6, 2), (0.7, 1)]


def test_expected_calibration_error_is_the_count_weighted_gap() -> None:
    got = reliability([0.8, 0.8, 0.8, 0.8, 0.55], [1.0, 1.0, 0.0, 0.0, 1.0], bins=5)
    # bin 0.8..0.9: predicted 0.8, observed 0.5 (4 pairs); bin 0.5..0.6: 0.55 vs 1 (1 pair)
    assert got.ece == pytest.approx((4 * 0.3 + 1 * 0.45) / 5)


def test_no_predictions_no_bins() -> None:
    got = reliability([], [])
    assert got.bins == () and got.count == 0 and math.isnan(got.ece)


@pytest.mark.parametrize(("p", "outcome", "bins"), [
    ([0.5, 0.6], [1.0], 10),
    ([1.2], [1.0], 10),
    ([math.nan], [1.0], 10),
    ([0.7], [2.0], 10),
    ([0.7], [1.0], 0),
])
def test_reliability_refuses_bad_input(p: list[float], outcome: list[float], bins: int) -> None:
    with pytest.raises(ValueError):
        reliability(p, outcome, bins)


def test_pooled_bins_are_the_bins_of_all_predictions() -> None:
    rng = np.random.default_rng(7)
    p = rng.uniform(0.0, 1.0, 3000)
    outcome = (rng.uniform(0.0, 1.0, p.size) < p).astype(float)
    parts = [reliability(p[:1000], outcome[:1000]), reliability(p[1000:], outcome[1000:])]
    pooled = pooled_reliability(parts)
    whole = reliability(p, outcome)
    assert pooled.count == whole.count
    assert [(b.low, b.high, b.count) for b in pooled.bins] == \
        [(b.low, b.high, b.count) for b in whole.bins]
    for a, b in zip(pooled.bins, whole.bins, strict=True):
        assert a.predicted == pytest.approx(b.predicted)
        assert a.observed == pytest.approx(b.observed)
    assert pooled.ece == pytest.approx(whole.ece)


def test_reliability_json_round_trip() -> None:
    got = reliability([0.9, 0.2, 0.5, 0.66], [1.0, 1.0, 1.0, 0.0])
    assert Reliability.from_dict(got.to_dict()) == got
    empty = reliability([], [])
    again = Reliability.from_dict(empty.to_dict())
    assert again.bins == () and math.isnan(again.ece)


@given(
    st.lists(st.tuples(st.floats(0.0, 1.0), st.sampled_from([0.0, 0.5, 1.0])), max_size=200),
    st.integers(1, 25),
)
def test_reliability_counts_every_prediction_once(pairs: list[tuple[float, float]],
                                                  bins: int) -> None:
    p = [a for a, _ in pairs]
    outcome = [b for _, b in pairs]
    got = reliability(p, outcome, bins)
    assert got.count == len(pairs)
    assert sum(b.count for b in got.bins) == len(pairs)
    assert len(got.bins) <= bins
    for b in got.bins:
        assert b.count > 0
        assert 0.0 <= b.observed <= 1.0
        assert 0.5 <= b.low < b.high <= 1.0
        assert b.low - 1e-12 <= b.predicted <= b.high + 1e-12
    assert [b.low for b in got.bins] == sorted(b.low for b in got.bins)
    assert len(pairs) == 0 or 0.0 <= got.ece <= 1.0
