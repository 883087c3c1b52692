"""BELO / BELO2 against docs/rules/bridge-belo.md: worked numbers, rules, and properties."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings
from ratings import InputError, RatingRun

NAN = float("nan")

# Options under which the spec's hand arithmetic holds: field factor k, undamped partner
# correction, no normalisation (docs/rules/bridge-belo.md §4 worked numbers).
PLAIN = {
    "field": "k",
    "partner": "linear",
    "event_normalisation": "off",
    "periodic_normalisation": "never",
}


def rate(scheme: str, results: pd.DataFrame, *, options: Mapping[str, str] | None = None,
         initial: pd.DataFrame | None = None) -> RatingRun:
    """The rules of docs/rules/bridge-belo.md §1-§9 with ``flat`` newcomers (everyone new starts at 500), the rule
    these tests' hand arithmetic assumes; the newcomer rules of §10 have tests of their own."""
    return ratings.rate(scheme, results, options={"newcomer": "flat", **(options or {})},
                        initial=initial)


# --- building results frames ----------------------------------------------------------------------


def event(
    event_id: str,
    units: Sequence[Sequence[str]],
    *,
    places: Sequence[float] | None = None,
    date: str = "2013-08-05",
    boards: float = NAN,
    kind: str = "pairs",
    scoring: str = "MP",
) -> list[dict[str, object]]:
    """Rows of one event; unit i (0-based) is named str(i+1) and placed i+1 unless ``places``."""
    if places is None:
        places = [float(i + 1) for i in range(len(units))]
    return [
        {
            "event_id": event_id, "date": date, "kind": kind, "scoring": scoring,
            "boards": boards, "unit": str(i + 1), "place": float(place), "player": player,
        }
        for i, (members, place) in enumerate(zip(units, places, strict=True))
        for player in members
    ]


def frame(*events: Iterable[dict[str, object]]) -> pd.DataFrame:
    return pd.DataFrame([row for rows in events for row in rows])


def initial(ratings_by_player: Mapping[str, float]) -> pd.DataFrame:
    return pd.DataFrame({
        "player": list(ratings_by_player), "rating": [float(r) for r in ratings_by_player.values()],
    })


def pairs(count: int, *, prefix: str = "p", skip: int | None = None) -> list[list[str]]:
    return [[f"{prefix}{i}a", f"{prefix}{i}b"] for i in range(1, count + 1) if i != skip]


def ten_pairs_with_ab(place_of_ab: int) -> list[list[str]]:
    """Ten pairs; the pair A/B in unit ``place_of_ab``, the others named p<i>a / p<i>b."""
    units = pairs(10, skip=place_of_ab)
    units.insert(place_of_ab - 1, ["A", "B"])
    return units


def rating_of(run: RatingRun, player: str, period: str | None = None) -> float:
    rows = run.ratings[run.ratings["player"] == player]
    if period is not None:
        rows = rows[rows["period"] == period]
    return float(rows["rating"].iloc[-1])


def contribution(run: RatingRun, player: str, event_id: str = "e1") -> pd.Series:
    c = run.contributions
    rows = c[(c["player"] == player) & (c["event_id"] == event_id)]
    assert len(rows) == 1
    return rows.iloc[0]


# --- output shape ---------------------------------------------------------------------------------


def test_output_columns_and_types() -> None:
    run = rate("belo2", frame(event("e1", pairs(4))))
    assert tuple(run.ratings.columns) == ratings.RATINGS_COLUMNS
    assert tuple(run.contributions.columns) == ratings.CONTRIBUTIONS_COLUMNS
    assert tuple(run.normalisations.columns) == ratings.NORMALISATIONS_COLUMNS
    assert run.ratings["events"].dtype == np.int64
    assert run.contributions["n"].dtype == np.int64
    assert run.contributions["counted"].dtype == bool
    assert list(run.final.columns) == ["player", "rating"]
    assert len(run.final) == 8


def test_inputs_are_not_mutated() -> None:
    results = frame(event("e1", pairs(5)))
    start = initial({"p1a": 600.0})
    results_copy, start_copy = results.copy(), start.copy()
    rate("belo2", results, initial=start)
    pd.testing.assert_frame_equal(results, results_copy)
    pd.testing.assert_frame_equal(start, start_copy)


def test_empty_results_give_empty_run() -> None:
    empty = frame(event("e1", pairs(3))).iloc[0:0]
    run = rate("belo2", empty)
    assert run.ratings.empty and run.contributions.empty and run.normalisations.empty
    assert tuple(run.ratings.columns) == ratings.RATINGS_COLUMNS
    assert run.final.empty


# --- §1 contribution ------------------------------------------------------------------------------


def test_contribution_worked_numbers_of_section_1() -> None:
    run = rate("belo2", frame(event("e1", pairs(10))))
    r_by_unit = run.contributions.groupby("unit")["r"].first()
    assert r_by_unit["1"] == pytest.approx(950.0)
    assert r_by_unit["10"] == pytest.approx(50.0)
    assert r_by_unit["6"] == pytest.approx(450.0)
    assert set(run.contributions["n"]) == {10}


@pytest.mark.parametrize(
    "places",
    [
        [1.0],
        [1.0, 2.0],
        [1.5, 1.5],
        [1.0, 2.0, 3.0],
        [2.0, 2.0, 2.0],
        [1.0, 2.5, 2.5, 4.0],
        [1.0, 2.0, 3.0, 4.0, 5.5, 5.5, 7.0, 8.0, 9.0, 10.0],
        [float(i) for i in range(1, 26)],
    ],
)
def test_mean_contribution_is_500(places: list[float]) -> None:
    run = rate("belo2", frame(event("e1", pairs(len(places)), places=places)))
    r_by_unit = run.contributions.groupby("unit")["r"].first()
    assert len(r_by_unit) == len(places)
    assert r_by_unit.mean() == pytest.approx(500.0, abs=1e-9)


# --- §4 partner correction: the worked numbers ----------------------------------------------------


@pytest.mark.parametrize("others_as", ["initial", "newcomers"])
def test_acceptance_700_and_300_placed_6th_of_10(others_as: str) -> None:
    results = frame(event("e1", ten_pairs_with_ab(6)))
    start = {"A": 700.0, "B": 300.0}
    if others_as == "initial":
        start |= {p: 500.0 for unit in pairs(10, skip=6) for p in unit}
    run = rate("belo", results, options=PLAIN, initial=initial(start))

    a, b = contribution(run, "A"), contribution(run, "B")
    assert a["r"] == pytest.approx(450.0)
    assert a["field_factor"] == pytest.approx(1.0)
    assert a["partner_factor"] == pytest.approx(1.4)
    assert b["partner_factor"] == pytest.approx(0.6)
    assert a["r_prime"] == pytest.approx(630.0)
    assert b["r_prime"] == pytest.approx(270.0)
    assert rating_of(run, "A") == pytest.approx(698.6, abs=0.01)
    assert rating_of(run, "B") == pytest.approx(299.4, abs=0.01)


@pytest.mark.parametrize(
    ("partner", "place_of_ab", "expected_a", "expected_b"),
    [
        ("damped", 1, 1140.0, 760.0),
        ("damped", 10, 60.0, 40.0),
        ("linear", 1, 1330.0, 570.0),
        ("linear", 10, 70.0, 30.0),
        ("none", 6, 450.0, 450.0),
    ],
)
def test_partner_worked_numbers(
    partner: str, place_of_ab: int, expected_a: float, expected_b: float,
) -> None:
    results = frame(event("e1", ten_pairs_with_ab(place_of_ab)))
    options = PLAIN | {"partner": partner}
    run = rate("belo", results, options=options, initial=initial({"A": 700, "B": 300}))
    assert contribution(run, "A")["r_prime"] == pytest.approx(expected_a)
    assert contribution(run, "B")["r_prime"] == pytest.approx(expected_b)


def test_damped_shared_5th_6th_gives_600_and_400() -> None:
    places = [1.0, 2.0, 3.0, 4.0, 5.5, 5.5, 7.0, 8.0, 9.0, 10.0]
    results = frame(event("e1", ten_pairs_with_ab(6), places=places))
    options = PLAIN | {"partner": "damped"}
    run = rate("belo", results, options=options, initial=initial({"A": 700, "B": 300}))
    a, b = contribution(run, "A"), contribution(run, "B")
    assert a["r"] == pytest.approx(500.0)
    assert a["partner_factor"] == pytest.approx(1.2)
    assert a["r_prime"] == pytest.approx(600.0)
    assert b["r_prime"] == pytest.approx(400.0)


def test_both_500_placed_6th_go_to_499() -> None:
    run = rate("belo", frame(event("e1", pairs(10))), options=PLAIN)
    assert rating_of(run, "p6a") == pytest.approx(499.0)
    assert rating_of(run, "p6b") == pytest.approx(499.0)


def test_partner_rating_unit_mean_uses_whole_unit() -> None:
    # unit_mean: Rp = (700 + 300)/2 = 500, linear l = 1 + (700-500)/(700+500) = 7/6.
    results = frame(event("e1", ten_pairs_with_ab(6)))
    options = PLAIN | {"partner_rating": "unit_mean"}
    run = rate("belo", results, options=options, initial=initial({"A": 700, "B": 300}))
    assert contribution(run, "A")["partner_factor"] == pytest.approx(7 / 6)
    assert contribution(run, "B")["partner_factor"] == pytest.approx(1 - 200 / 800)


def test_partner_factor_is_1_in_individual_events() -> None:
    units = [["A"], ["B"], ["C"], ["D"]]
    results = frame(event("e1", units, kind="individual"))
    start = initial({"A": 800, "B": 200, "C": 500, "D": 500})
    for partner_rating in ("others_mean", "unit_mean"):
        options = PLAIN | {"partner_rating": partner_rating}
        run = rate("belo", results, options=options, initial=start)
        assert list(run.contributions["partner_factor"]) == [1.0, 1.0, 1.0, 1.0]


def test_team_partner_rating_is_mean_of_teammates() -> None:
    team = ["T1", "T2", "T3", "T4"]
    units = [team, ["x1", "x2", "x3", "x4"], ["y1", "y2", "y3", "y4"]]
    start = initial({"T1": 800, "T2": 400, "T3": 500, "T4": 600})
    results = frame(event("e1", units, kind="teams"))
    run = rate("belo", results, options=PLAIN, initial=start)
    # T1: Rp = (400 + 500 + 600)/3 = 500, l = 1 + 300/1300.
    assert contribution(run, "T1")["partner_factor"] == pytest.approx(1 + 300 / 1300)


# --- §3 field strength ----------------------------------------------------------------------------


def test_field_k_uses_other_units_only() -> None:
    # A/B (700/300), p1 (900/900), eight pairs at 500. Rt leaves the unit's own players out:
    # A/B see (1800 + 16*500)/18, p1 sees (1000 + 16*500)/18 = 500, p2 sees (2800 + 14*500)/18.
    units = ten_pairs_with_ab(6)
    start = initial({"A": 700, "B": 300, "p1a": 900, "p1b": 900})
    run = rate("belo", frame(event("e1", units)), options=PLAIN, initial=start)
    assert contribution(run, "A")["field_factor"] == pytest.approx((1800 + 16 * 500) / 18 / 500)
    assert contribution(run, "p1a")["field_factor"] == pytest.approx(1.0)
    assert contribution(run, "p2a")["field_factor"] == pytest.approx((2800 + 14 * 500) / 18 / 500)


def test_belo2_factor_formula() -> None:
    # A/B (600/400, Ru = 500) against 9 pairs at 550: c = Rt^2 / (500 Ru) = 550^2 / 250000.
    start = {"A": 600.0, "B": 400.0} | {p: 550.0 for u in pairs(10, skip=6) for p in u}
    run = rate(
        "belo2", frame(event("e1", ten_pairs_with_ab(6))), options={"partner": "none"},
        initial=initial(start),
    )
    assert contribution(run, "A")["field_factor"] == pytest.approx(550**2 / (500 * 500))
    assert contribution(run, "B")["field_factor"] == pytest.approx(1.21)
    # The 550 pairs see Rt = (16*550 + 1000)/18 and Ru = 550.
    rt = (16 * 550 + 1000) / 18
    assert contribution(run, "p1a")["field_factor"] == pytest.approx(rt**2 / (500 * 550))


def _five_individuals(target: float, others: float, place: float) -> RatingRun:
    """Player T and four others in an individual event; T at ``place``, the rest fill in."""
    rest = [p for p in (1.0, 2.0, 3.0, 4.0, 5.0) if p != place]
    if place == 2.5:
        rest = [1.0, 2.5, 4.0, 5.0]
    units = [["T"], ["o1"], ["o2"], ["o3"], ["o4"]]
    start = initial({"T": target, "o1": others, "o2": others, "o3": others, "o4": others})
    results = frame(event("e1", units, places=[place, *rest], kind="individual"))
    return rate(
        "belo2", results, options=PLAIN | {"field": "belo2"}, initial=start,
    )


def test_belo2_meets_requirements_2_and_3_not_1() -> None:
    # docs/rules/bridge-belo.md §3: the formula meets the source's requirements 2 and 3, not 1.
    # Requirement 1 (not met): Rt = 500, R = 600, result r = 600 would keep 600; c gives 500.
    req1 = contribution(_five_individuals(600, 500, 2.5), "T")
    assert req1["r"] == pytest.approx(600.0)
    assert req1["field_factor"] == pytest.approx(500**2 / (500 * 600))
    assert req1["r_prime"] == pytest.approx(500.0)
    # Requirement 2 (met): Rt = 600, R = 600, result 500 -> r' = 600, no change.
    run2 = _five_individuals(600, 600, 3.0)
    assert contribution(run2, "T")["r_prime"] == pytest.approx(600.0)
    assert rating_of(run2, "T") == pytest.approx(600.0)
    # Requirement 3 (met): Rt = 500, R = 400, result 500 -> more than 500.
    assert contribution(_five_individuals(400, 500, 3.0), "T")["r_prime"] == pytest.approx(625.0)


def test_skip_rule() -> None:
    # A 900/900 pair in a field of 300s: k = 0.6, winning gives at most 0.6 * 950 = 570 < 900.
    units = ten_pairs_with_ab(1)
    start = {"A": 900.0, "B": 900.0} | {p: 300.0 for u in pairs(10, skip=1) for p in u}
    results = frame(event("e1", units))
    options = PLAIN | {"partner": "none"}
    run = rate("belo", results, options=options, initial=initial(start))
    a = contribution(run, "A")
    assert not a["counted"]
    assert a["reason"] == "skip rule"
    assert math.isnan(a["r_prime"])
    assert rating_of(run, "A") == 900.0
    assert run.ratings.set_index("player").loc["A", "events"] == 0
    weak = contribution(run, "p2a")
    assert weak["counted"] and weak["reason"] == ""

    run_off = rate(
        "belo", results, options=options | {"skip_rule": "off"}, initial=initial(start),
    )
    assert contribution(run_off, "A")["counted"]
    assert rating_of(run_off, "A") == pytest.approx(900 + (0.6 * 950 - 900) / 50)


def test_skip_rule_uses_partner_factor() -> None:
    # B (600) with A (1400) among 500s, k = 1: linear l_B = 1 - 800/2000 = 0.6, so even a win
    # gives B only 950 * 0.6 = 570 < 600 and the event is skipped; without the partner
    # correction a win gives 950 and the event counts.
    start = initial({"A": 1400, "B": 600})
    results = frame(event("e1", ten_pairs_with_ab(3)))
    linear = rate("belo", results, options=PLAIN, initial=start)
    b = contribution(linear, "B")
    assert b["partner_factor"] == pytest.approx(0.6)
    assert not b["counted"] and b["reason"] == "skip rule"
    plain = rate("belo", results, options=PLAIN | {"partner": "none"}, initial=start)
    assert contribution(plain, "B")["counted"]


# --- §5 minimum of rated units --------------------------------------------------------------------


def test_min_rated_units() -> None:
    results = frame(event("e1", pairs(2)))
    run = rate("belo2", results)
    c = run.contributions
    assert not c["counted"].any()
    assert set(c["reason"]) == {"fewer than 3 rated units"}
    assert (run.ratings["rating"] == 500.0).all()
    assert (run.ratings["events"] == 0).all()

    run2 = rate("belo2", results, options={"min_rated_units": "2"})
    assert run2.contributions["counted"].all()
    assert rating_of(run2, "p1a") > 500.0 > rating_of(run2, "p2a")


# --- §6 event weight ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "boards", "expected"),
    [
        ("linear", 25.0, 1.0),
        ("linear", 50.0, 1.5),
        ("linear", 10.0, 0.7),
        ("linear", 0.0, 0.5),
        ("linear", NAN, 1.0),
        ("proportional", 50.0, 2.0),
        ("proportional", 10.0, 0.4),
        ("proportional", 2.0, 0.2),
        ("proportional", 0.0, 0.2),
        ("proportional", NAN, 1.0),
        ("none", 40.0, 1.0),
        ("none", NAN, 1.0),
    ],
)
def test_board_weight(rule: str, boards: float, expected: float) -> None:
    run = rate(
        "belo2", frame(event("e1", pairs(4), boards=boards)), options={"board_weight": rule},
    )
    assert run.contributions["weight"].to_numpy() == pytest.approx([expected] * 8)


def test_weight_enters_the_update() -> None:
    # 50 boards, linear: v = 1.5; the winner of 10 pairs, all 500: 500 + (1 - 0.98^1.5) * 450.
    run = rate("belo", frame(event("e1", pairs(10), boards=50.0)), options=PLAIN)
    assert rating_of(run, "p1a") == pytest.approx(500 + (1 - 0.98**1.5) * 450)
    run_add = rate(
        "belo", frame(event("e1", pairs(10), boards=50.0)),
        options=PLAIN | {"period_combine": "additive"},
    )
    assert rating_of(run_add, "p1a") == pytest.approx(500 + 1.5 * 450 / 50)


# --- §8 periods and combination -------------------------------------------------------------------


def _x_wins_then_sixth(second_date: str) -> pd.DataFrame:
    """X/Y win e1 (2013-08-05) and place 6th in e2; every player starts at 500."""
    first = pairs(10, skip=1)
    first.insert(0, ["X", "Y"])
    second = pairs(10, prefix="q", skip=6)
    second.insert(5, ["X", "Y"])
    return frame(event("e1", first), event("e2", second, date=second_date))


def test_exponential_and_additive_combination() -> None:
    results = _x_wins_then_sixth("2013-09-10")
    base = PLAIN | {"partner": "none"}
    exp = rate("belo", results, options=base | {"period_combine": "exponential"})
    add = rate("belo", results, options=base | {"period_combine": "additive"})
    # W = 2, rbar = (950 + 450)/2 = 700.
    assert rating_of(exp, "X") == pytest.approx(500 + (1 - 0.98**2) * 200)
    assert rating_of(add, "X") == pytest.approx(500 + (450 - 50) / 50)
    x = exp.ratings[exp.ratings["player"] == "X"].iloc[0]
    assert x["events"] == 2 and x["rating_before"] == 500.0


def test_exponential_equals_formula_4_when_contributions_are_equal() -> None:
    first = pairs(10, skip=1)
    first.insert(0, ["X", "Y"])
    second = pairs(10, prefix="q", skip=1)
    second.insert(0, ["X", "Y"])
    results = frame(event("e1", first), event("e2", second, date="2013-09-01"))
    run = rate("belo", results, options=PLAIN | {"partner": "none"})
    step = (49 * 500 + 950) / 50
    assert rating_of(run, "X") == pytest.approx((49 * step + 950) / 50)


def test_events_of_later_periods_see_updated_ratings() -> None:
    # e2 in the next quarter: X enters it at 509 (after winning e1), so X's rating moves from 509.
    results = _x_wins_then_sixth("2013-10-10")
    run = rate("belo", results, options=PLAIN | {"partner": "none"})
    assert rating_of(run, "X", "2013Q3") == pytest.approx(509.0)
    q4 = run.ratings[(run.ratings["player"] == "X") & (run.ratings["period"] == "2013Q4")].iloc[0]
    assert q4["rating_before"] == pytest.approx(509.0)
    k = contribution(run, "X", "e2")["field_factor"]
    assert q4["rating"] == pytest.approx(509 + (450 * k - 509) / 50)


def test_periods_are_consecutive_and_carry_ratings() -> None:
    results = frame(
        event("e1", pairs(4), date="2013-02-01"),
        event("e2", pairs(4, prefix="q"), date="2013-11-20"),
    )
    run = rate("belo2", results, options={"periodic_normalisation": "never"})
    periods = run.ratings.drop_duplicates("period")
    assert list(periods["period"]) == ["2013Q1", "2013Q2", "2013Q3", "2013Q4"]
    assert list(periods["period_start"].dt.date) == [
        dt.date(2013, 1, 1), dt.date(2013, 4, 1), dt.date(2013, 7, 1), dt.date(2013, 10, 1),
    ]
    assert list(periods["period_end"].dt.date) == [
        dt.date(2013, 3, 31), dt.date(2013, 6, 30), dt.date(2013, 9, 30), dt.date(2013, 12, 31),
    ]
    p1a = run.ratings[run.ratings["player"] == "p1a"].set_index("period")
    assert list(p1a["events"]) == [1, 0, 0, 0]
    assert p1a.loc["2013Q2", "rating_before"] == p1a.loc["2013Q1", "rating"]
    assert p1a.loc["2013Q3", "rating"] == p1a.loc["2013Q1", "rating"]
    # newcomers of e2 appear from their first period on, starting at 500
    q1a = run.ratings[run.ratings["player"] == "q1a"]
    assert list(q1a["period"]) == ["2013Q4"]
    assert q1a["rating_before"].iloc[0] == 500.0
    assert len(run.ratings[run.ratings["period"] == "2013Q4"]) == 16
    sorted_rows = run.ratings.sort_values(["period", "player"], kind="mergesort")
    pd.testing.assert_frame_equal(run.ratings, sorted_rows)


@pytest.mark.parametrize(
    ("unit", "dates", "labels"),
    [
        ("month", ["2013-08-05", "2013-10-01"], ["2013-08", "2013-09", "2013-10"]),
        ("year", ["2013-08-05", "2015-01-01"], ["2013", "2014", "2015"]),
        ("quarter", ["2013-08-05", "2014-01-01"], ["2013Q3", "2013Q4", "2014Q1"]),
    ],
)
def test_period_labels(unit: str, dates: list[str], labels: list[str]) -> None:
    results = frame(
        event("e1", pairs(3), date=dates[0]), event("e2", pairs(3), date=dates[1]),
    )
    run = rate("belo2", results, options={"period": unit})
    assert list(run.ratings["period"].unique()) == labels
    assert set(run.contributions["period"]) == {labels[0], labels[-1]}


def test_dates_may_be_python_dates_or_timestamps() -> None:
    as_text = frame(event("e1", pairs(4), date="2013-08-05"))
    as_date = as_text.assign(date=dt.date(2013, 8, 5))
    as_stamp = as_text.assign(date=pd.Timestamp("2013-08-05 19:30"))
    runs = [rate("belo2", r) for r in (as_text, as_date, as_stamp)]
    for run in runs[1:]:
        pd.testing.assert_frame_equal(run.ratings, runs[0].ratings)
        pd.testing.assert_frame_equal(run.contributions, runs[0].contributions)


# --- §9 normalisation -----------------------------------------------------------------------------


def _mixed_event(event_id: str = "e1", date: str = "2013-08-05") -> tuple[pd.DataFrame, dict]:
    units = [["a1", "a2"], ["b1", "b2"], ["c1", "c2", "c3"], ["d1", "d2"], ["e1x", "e2x"]]
    start = {
        "a1": 720.0, "a2": 410.0, "b1": 530.0, "b2": 610.0, "c1": 300.0, "c2": 450.0,
        "c3": 380.0, "d1": 505.0, "d2": 640.0, "e1x": 470.0, "e2x": 560.0,
    }
    return frame(event(event_id, units, places=[3, 1, 5, 2, 4], date=date, boards=30)), start


def test_per_event_normalisation_conserves_the_sum() -> None:
    results, start = _mixed_event()
    options = {"period_combine": "additive", "periodic_normalisation": "never"}
    run = rate("belo2", results, options=options, initial=initial(start))
    assert run.ratings["rating"].sum() == pytest.approx(sum(start.values()), rel=1e-12)
    c = run.contributions
    assert c["norm_factor"].nunique() == 1
    before = c["player"].map(start)
    assert (c["weight"] * (c["r_prime"] - before)).sum() == pytest.approx(0.0, abs=1e-9)

    off = rate(
        "belo2", results, options=options | {"event_normalisation": "off"},
        initial=initial(start),
    )
    assert off.ratings["rating"].sum() != pytest.approx(sum(start.values()), rel=1e-6)
    assert (off.contributions["norm_factor"] == 1.0).all()


def test_per_event_normalisation_leaves_out_skipped_players() -> None:
    units = ten_pairs_with_ab(1)
    start = {"A": 900.0, "B": 900.0} | {p: 300.0 for u in pairs(10, skip=1) for p in u}
    options = {"period_combine": "additive", "periodic_normalisation": "never"}
    run = rate("belo", frame(event("e1", units)), options=options, initial=initial(start))
    assert not contribution(run, "A")["counted"]
    assert run.ratings["rating"].sum() == pytest.approx(sum(start.values()), rel=1e-12)


@pytest.mark.parametrize(
    ("rule", "normalised"),
    [("year", ["2013Q4"]), ("period", ["2013Q3", "2013Q4", "2014Q1"]), ("never", [])],
)
def test_periodic_normalisation(rule: str, normalised: list[str]) -> None:
    e1, start = _mixed_event("e1", "2013-08-05")
    e2, _ = _mixed_event("e2", "2013-11-05")
    e3, _ = _mixed_event("e3", "2014-02-05")
    results = pd.concat([e1, e2, e3], ignore_index=True)
    options = {"event_normalisation": "off", "periodic_normalisation": rule}
    run = rate("belo2", results, options=options, initial=initial(start))
    assert list(run.normalisations["period"]) == normalised
    for period in normalised:
        mean = run.ratings.loc[run.ratings["period"] == period, "rating"].mean()
        assert mean == pytest.approx(500.0, abs=1e-9)
    if rule == "year":
        never = rate(
            "belo2", results, options=options | {"periodic_normalisation": "never"},
            initial=initial(start),
        )
        mean_q4 = never.ratings.loc[never.ratings["period"] == "2013Q4", "rating"].mean()
        assert run.normalisations["factor"].iloc[0] == pytest.approx(500.0 / mean_q4)
        assert run.normalisations["factor"].iloc[0] != pytest.approx(1.0, abs=1e-6)
        q1 = run.ratings[run.ratings["period"] == "2014Q1"]
        assert q1["rating_before"].mean() == pytest.approx(500.0, abs=1e-9)


def test_yearly_normalisation_after_an_empty_december() -> None:
    results = frame(
        event("e1", pairs(4), date="2013-11-05"), event("e2", pairs(4), date="2014-01-15"),
    )
    run = rate("belo2", results, options={"period": "month", "event_normalisation": "off"})
    assert list(run.normalisations["period"]) == ["2013-12"]
    december = run.ratings[run.ratings["period"] == "2013-12"]
    assert (december["events"] == 0).all()
    assert december["rating"].mean() == pytest.approx(500.0, abs=1e-9)


def test_normalisation_includes_players_without_events() -> None:
    results = frame(event("e1", pairs(4), date="2013-11-05"))
    start = initial({"idle": 800.0})
    run = rate(
        "belo2", results, options={"periodic_normalisation": "period"}, initial=start,
    )
    rows = run.ratings
    assert rows["rating"].mean() == pytest.approx(500.0, abs=1e-9)
    idle = rows[rows["player"] == "idle"].iloc[0]
    assert idle["events"] == 0
    assert idle["rating"] == pytest.approx(800.0 * run.normalisations["factor"].iloc[0])


# --- input errors ---------------------------------------------------------------------------------


def test_missing_column_is_an_input_error() -> None:
    results = frame(event("e1", pairs(3))).drop(columns=["boards"])
    with pytest.raises(InputError, match=r"missing columns \['boards'\]"):
        rate("belo2", results)


def test_unit_with_two_places_is_an_input_error() -> None:
    results = frame(event("e1", pairs(3)))
    results.loc[0, "place"] = 2.0
    with pytest.raises(InputError, match=r"event 'e1', unit '1': players have different places"):
        rate("belo2", results)


def test_player_twice_in_an_event_is_an_input_error() -> None:
    results = frame(event("e1", [["a", "b"], ["c", "a"], ["d", "e"]]))
    with pytest.raises(InputError, match=r"player 'a' is listed more than once"):
        rate("belo2", results)


def test_place_outside_range_is_an_input_error() -> None:
    results = frame(event("e1", pairs(3), places=[1, 2, 4]))
    with pytest.raises(InputError, match=r"place 4.0 outside 1..3"):
        rate("belo2", results)


def test_bad_initial_rating_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"initial frame: player 'x' has rating"):
        rate("belo2", frame(event("e1", pairs(3))), initial=initial({"x": -5.0}))


def test_event_with_two_dates_is_an_input_error() -> None:
    results = frame(event("e1", pairs(3)))
    results.loc[0, "date"] = "2013-08-06"
    with pytest.raises(InputError, match=r"event 'e1' has more than one date"):
        rate("belo2", results)


# --- §8 order independence ------------------------------------------------------------------------


def _history(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Several events over three quarters from a pool of 30 players, some of them rated."""
    rng = np.random.default_rng(seed)
    players = [f"pl{i:02d}" for i in range(30)]
    events = []
    dates = ["2013-07-10", "2013-07-10", "2013-08-20", "2013-11-02", "2014-02-11", "2014-02-11"]
    for e, date in enumerate(dates):
        n_units = int(rng.integers(3, 9))
        chosen = rng.permutation(players)[: 2 * n_units]
        units = [list(chosen[2 * i: 2 * i + 2]) for i in range(n_units)]
        scores = rng.integers(0, 4, n_units)
        places = pd.Series(-scores).rank(method="average").tolist()
        boards = float(rng.choice([NAN, 18.0, 24.0, 27.0]))
        events.append(event(f"ev{e}", units, places=places, date=date, boards=boards))
    rated = rng.choice(players, 12, replace=False)
    start = initial({p: float(rng.uniform(250, 800)) for p in rated})
    return frame(*events), start


def _shuffled(results: pd.DataFrame, seed: int) -> tuple[pd.DataFrame, dict[str, str]]:
    rng = np.random.default_rng(seed)
    ids = sorted(results["event_id"].unique())
    renamed = dict(zip(ids, [f"z{i}" for i in rng.permutation(len(ids))], strict=True))
    shuffled = results.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    return shuffled.assign(event_id=shuffled["event_id"].map(renamed)), renamed


def _assert_same_run(a: RatingRun, b: RatingRun, renamed: Mapping[str, str]) -> None:
    pd.testing.assert_frame_equal(a.ratings, b.ratings, check_exact=True)
    pd.testing.assert_frame_equal(a.normalisations, b.normalisations, check_exact=True)
    back = {new: old for old, new in renamed.items()}
    keys = ["event_id", "unit", "player"]
    ca = a.contributions.sort_values(keys, ignore_index=True)
    cb = b.contributions.assign(event_id=b.contributions["event_id"].map(back))
    cb = cb.sort_values(keys, ignore_index=True)
    pd.testing.assert_frame_equal(ca, cb, check_exact=True)


@pytest.mark.parametrize("scheme", ["belo", "belo2"])
@pytest.mark.parametrize("combine", ["exponential", "additive"])
def test_order_of_rows_and_event_ids_does_not_matter(scheme: str, combine: str) -> None:
    results, start = _history(7)
    options = {"period_combine": combine, "periodic_normalisation": "period"}
    reference = rate(scheme, results, options=options, initial=start)
    assert reference.contributions["counted"].any()
    for seed in range(3):
        shuffled, renamed = _shuffled(results, seed)
        other = rate(scheme, shuffled, options=options, initial=start.sample(frac=1.0))
        _assert_same_run(reference, other, renamed)


# --- properties (Hypothesis) ----------------------------------------------------------------------


@st.composite
def tied_places(draw: st.DrawFn, min_units: int = 1, max_units: int = 30) -> list[float]:
    """Places of n units from random scores, ties sharing the mean of their places."""
    scores = draw(st.lists(st.integers(0, 5), min_size=min_units, max_size=max_units))
    return [float(p) for p in pd.Series(scores).rank(method="average", ascending=False)]


@settings(max_examples=60, deadline=None)
@given(places=tied_places(), size=st.integers(1, 4))
def test_property_mean_contribution_is_500(places: list[float], size: int) -> None:
    units = [[f"u{i}m{j}" for j in range(size)] for i in range(len(places))]
    run = rate("belo2", frame(event("e1", units, places=places)))
    r_by_unit = run.contributions.groupby("unit")["r"].first()
    assert r_by_unit.mean() == pytest.approx(500.0, abs=1e-9)
    assert r_by_unit.max() == pytest.approx(1000 * (len(places) + 0.5 - min(places)) / len(places))


OPTION_CHOICES = st.fixed_dictionaries({
    "field": st.sampled_from(["k", "belo2"]),
    "partner": st.sampled_from(["none", "linear", "damped"]),
    "partner_rating": st.sampled_from(["others_mean", "unit_mean"]),
    "period_combine": st.sampled_from(["exponential", "additive"]),
    "event_normalisation": st.sampled_from(["on", "off"]),
    "skip_rule": st.sampled_from(["on", "off"]),
    "board_weight": st.sampled_from(["linear", "proportional", "none"]),
})


@st.composite
def one_event(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One pairs event of 3-10 units, every player rated, places a permutation of 1..n."""
    n = draw(st.integers(3, 10))
    units = pairs(n)
    order = draw(st.permutations(list(range(1, n + 1))))
    boards = draw(st.sampled_from([NAN, 12.0, 24.0, 36.0]))
    values = draw(st.lists(st.floats(100, 900), min_size=2 * n, max_size=2 * n))
    players = [p for u in units for p in u]
    results = frame(event("e1", units, places=[float(p) for p in order], boards=boards))
    return results, initial(dict(zip(players, values, strict=True)))


@settings(max_examples=60, deadline=None)
@given(case=one_event(), options=OPTION_CHOICES, data=st.data())
def test_property_better_place_never_gives_lower_rating(
    case: tuple[pd.DataFrame, pd.DataFrame], options: dict[str, str], data: st.DataObject,
) -> None:
    results, start = case
    options = options | {"periodic_normalisation": "never"}
    n = results["unit"].nunique()
    target = data.draw(st.sampled_from([str(i) for i in range(1, n + 1)]))
    place_of = results.groupby("unit")["place"].first()
    better = [u for u in place_of.index if place_of[u] < place_of[target]]
    if not better:
        return
    rival = data.draw(st.sampled_from(sorted(better)))
    swapped = results.copy()
    swapped.loc[swapped["unit"] == target, "place"] = place_of[rival]
    swapped.loc[swapped["unit"] == rival, "place"] = place_of[target]

    worse_run = rate("belo2", results, options=options, initial=start)
    better_run = rate("belo2", swapped, options=options, initial=start)
    for player in results.loc[results["unit"] == target, "player"]:
        assert rating_of(better_run, player) >= rating_of(worse_run, player) - 1e-9


@settings(max_examples=40, deadline=None)
@given(case=one_event(), options=OPTION_CHOICES)
def test_property_event_normalisation_conserves_sum_additive(
    case: tuple[pd.DataFrame, pd.DataFrame], options: dict[str, str],
) -> None:
    results, start = case
    options = options | {
        "event_normalisation": "on",
        "period_combine": "additive",
        "periodic_normalisation": "never",
    }
    run = rate("belo2", results, options=options, initial=start)
    assert run.ratings["rating"].sum() == pytest.approx(start["rating"].sum(), rel=1e-12)


@st.composite
def histories(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A few pairs events over two quarters from a pool of 16 players, some rated."""
    pool = [f"h{i:02d}" for i in range(16)]
    events = []
    for e in range(draw(st.integers(1, 5))):
        n = draw(st.integers(2, 7))
        chosen = draw(st.permutations(pool))[: 2 * n]
        units = [chosen[2 * i: 2 * i + 2] for i in range(n)]
        places = draw(tied_places(min_units=n, max_units=n))
        date = draw(st.sampled_from(["2013-07-03", "2013-08-14", "2013-10-09"]))
        boards = draw(st.sampled_from([NAN, 20.0, 26.0]))
        events.append(event(f"x{e}", units, places=places, date=date, boards=boards))
    rated = draw(st.lists(st.sampled_from(pool), unique=True, max_size=10))
    values = draw(st.lists(st.floats(150, 850), min_size=len(rated), max_size=len(rated)))
    return frame(*events), initial(dict(zip(rated, values, strict=True)))


@settings(max_examples=40, deadline=None)
@given(case=histories(), options=OPTION_CHOICES, seed=st.integers(0, 2**16))
def test_property_order_independence(
    case: tuple[pd.DataFrame, pd.DataFrame], options: dict[str, str], seed: int,
) -> None:
    results, start = case
    options = options | {"min_rated_units": "2", "periodic_normalisation": "period"}
    reference = rate("belo2", results, options=options, initial=start)
    shuffled, renamed = _shuffled(results, seed)
    other = rate("belo2", shuffled, options=options, initial=start)
    _assert_same_run(reference, other, renamed)
