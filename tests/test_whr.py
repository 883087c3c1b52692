"""WHR against docs/rules/bridge-whr.md: worked numbers, the posterior written out directly,
derivatives, warm start, deviations, and properties."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

import ratings
from ratings import _whr
from ratings._frames import check_initial, check_results
from ratings._options import options_to_text

NAN = float("nan")


# --- building results frames ----------------------------------------------------------------------


def event(event_id: str, units: Sequence[Sequence[str]], places: Sequence[float] | None = None,
          *, date: str = "2024-01-10", boards: float = NAN,
          unrated: Sequence[str] = ()) -> list[dict[str, object]]:
    """Rows of one event; unit i (0-based) is named str(i+1) and placed i+1 unless ``places``."""
    if places is None:
        places = [float(i + 1) for i in range(len(units))]
    return [
        {"event_id": event_id, "date": date, "kind": "pairs", "scoring": "MP", "boards": boards,
         "unit": str(i + 1), "place": float(place), "player": player,
         "unrated": player in unrated}
        for i, (members, place) in enumerate(zip(units, places, strict=True))
        for player in members
    ]


def frame(*events: list[dict[str, object]]) -> pd.DataFrame:
    return pd.DataFrame([row for rows in events for row in rows])


def final(run: ratings.RatingRun) -> dict[str, float]:
    return {str(p): float(r) for p, r in zip(run.final["player"], run.final["rating"],
                                             strict=True)}


def rows_of(run: ratings.RatingRun, player: str) -> pd.DataFrame:
    return run.ratings[run.ratings["player"] == player].reset_index(drop=True)


FOUR = frame(event("e1", [["A"], ["B"], ["C"], ["D"]]))
"""docs/rules/bridge-whr.md §8: four players, one individual event, boards unknown."""


# --- the scheme in the registry -------------------------------------------------------------------


def test_registry_lists_whr_with_its_documented_options() -> None:
    scheme = ratings.SCHEMES["whr"]
    assert scheme.params_type is ratings.WhrParams
    assert scheme.reads == "results"
    assert "docs/rules/bridge-whr.md" in scheme.description
    assert scheme.options() == {
        "board_weight": "linear", "drift": "7.5", "first_year_drift": "0", "learn": "on",
        "likelihood": "plackett-luce", "max_iterations": "50", "newcomer": "500",
        "period": "quarter", "prior": "75", "scale": "75",
        "tolerance": "0.01", "unit": "mean",
    }
    params = ratings.parse_options("whr", {"likelihood": "plackett-luce", "drift": "7.5",
                                           "period": "month", "max_iterations": "3"})
    assert params.likelihood == "plackett-luce"
    assert params.drift == 7.5
    assert params.period == "month"
    assert params.max_iterations == 3
    assert ratings.parse_options("whr", options_to_text(params)) == params


@pytest.mark.parametrize(("name", "value"), [
    ("likelihood", "thurstone"), ("unit", "max"), ("scale", "0"), ("prior", "-1"),
    ("drift", "x"), ("max_iterations", "1.5"), ("partner", "damped"),
])
def test_invalid_options_are_refused(name: str, value: str) -> None:
    with pytest.raises(ratings.OptionError, match=name):
        ratings.parse_options("whr", {name: value})


def test_rate_by_name_on_the_two_clubs_preset() -> None:
    from quality.federation import simulate

    sim = simulate("two-clubs", 1)
    run = ratings.rate("whr", sim.results)
    assert tuple(run.ratings.columns) == ratings.WHR_RATINGS_COLUMNS
    assert tuple(run.contributions.columns) == ratings.WHR_CONTRIBUTIONS_COLUMNS
    assert len(run.contributions) == len(sim.results)
    assert bool(run.contributions["counted"].all())
    latest = run.final.set_index("player")["rating"]
    assert set(latest.index) == set(sim.players["player"].astype(str))
    strength = sim.final_strength()
    strength.index = strength.index.astype(str)
    rho = latest.corr(strength.reindex(latest.index), method="spearman")
    assert rho > 0.9
    # the stronger club (750-660) ends above the other (600-400) on average
    club = sim.players.set_index(sim.players["player"].astype(str))["club"]
    means = latest.groupby(club.reindex(latest.index)).mean()
    strong = club[strength.reindex(club.index).idxmax()]
    assert means[strong] == means.max()
    assert run.warnings == ()


# --- worked numbers (docs/rules/bridge-whr.md §7, §8, §10) ----------------------------------------

WORKED = {"likelihood": "pairwise", "prior": "150", "drift": "15"}
"""The options of the worked examples of docs/rules/bridge-whr.md §8 and §10."""


def test_worked_numbers_four_players_section_8() -> None:
    run = ratings.rate("whr", FOUR, options=WORKED)
    assert final(run) == pytest.approx({"A": 570.36, "B": 522.89, "C": 477.11, "D": 429.64},
                                       abs=0.005)
    deviation = dict(zip(run.ratings["player"], run.ratings["deviation"], strict=True))
    assert deviation == pytest.approx({"A": 115.48, "B": 110.65, "C": 110.65, "D": 115.48},
                                      abs=0.005)
    tied = ratings.rate("whr", frame(event("e1", [["A"], ["B"], ["C"], ["D"]], [1, 2.5, 2.5, 4])),
                        options=WORKED)
    assert final(tied) == pytest.approx({"A": 569.91, "B": 500.0, "C": 500.0, "D": 430.09},
                                        abs=0.005)
    luce = ratings.rate("whr", FOUR, options={**WORKED, "likelihood": "plackett-luce"})
    assert final(luce) == pytest.approx({"A": 609.51, "B": 535.27, "C": 468.07, "D": 387.15},
                                        abs=0.005)


def test_worked_numbers_explanations_section_10() -> None:
    c = ratings.rate("whr", FOUR, options=WORKED).contributions.set_index("player")
    assert list(c["r"]) == [875.0, 625.0, 375.0, 125.0]
    assert list(c["weight"]) == [1.0] * 4
    assert c.loc["A", "expected"] == pytest.approx(1.704, abs=5e-4)
    assert c.loc["B", "expected"] == pytest.approx(2.229, abs=5e-4)
    # the expected places of an event add up to 1 + 2 + 3 + 4
    assert c["expected"].sum() == pytest.approx(10.0)
    # one event only: leaving it out takes A back to 500, and "moved" says so exactly
    assert c.loc["A", "moved"] == pytest.approx(70.36, abs=0.005)
    assert c.loc["B", "moved"] == pytest.approx(22.89, abs=0.005)
    assert c.loc["A", "gradient"] > c.loc["B", "gradient"] > 0 > c.loc["D", "gradient"]
    assert c[["field_factor", "partner_factor", "norm_factor", "r_prime"]].isna().all().all()
    assert bool(c["counted"].all()) and set(c["reason"]) == {""}


def test_worked_numbers_random_walk_rows_section_8() -> None:
    results = frame(
        event("e1", [["A"], ["B"], ["C"], ["D"]], date="2024-01-10"),
        event("e2", [["A"], ["B"], ["C"], ["D"]], [4, 3, 2, 1], date="2024-10-10"),
        event("e3", [["B"], ["C"], ["D"]], date="2025-01-10"),
    )
    a = rows_of(ratings.rate("whr", results, options=WORKED), "A")
    assert list(a["period"]) == ["2024Q1", "2024Q2", "2024Q3", "2024Q4", "2025Q1"]
    assert list(a["events"]) == [1, 0, 0, 1, 0]
    assert list(a["rating"]) == pytest.approx([501.59, 500.12, 498.66, 497.20, 497.20], abs=0.005)
    assert list(a["deviation"]) == pytest.approx([87.77, 88.21, 88.63, 89.03, 90.29], abs=0.005)
    assert list(a["rating_before"][1:]) == list(a["rating"][:-1])
    assert a["rating_before"][0] == 500.0
    # between two periods with results: the straight line; after the last: constant, and the
    # deviation grows like a random walk
    assert a["rating"][1] - a["rating"][0] == pytest.approx(a["rating"][3] - a["rating"][2])
    assert a["deviation"][4] == pytest.approx(math.hypot(a["deviation"][3], 15.0))


def test_win_probability_section_7() -> None:
    p = ratings.whr_probability([600.0, 575.0, 500.0, 400.0], [500.0, 500.0, 500.0, 500.0])
    assert list(p) == pytest.approx([0.7914, 0.7311, 0.5, 0.2086], abs=5e-5)
    assert ratings.whr_probability(600.0, 500.0, 100.0) == pytest.approx(1 / (1 + math.exp(-1)))


# --- the posterior written out directly -----------------------------------------------------------


def _luce(s: np.ndarray, place: np.ndarray) -> float:
    """docs/rules/bridge-whr.md §3: sum over units of s_i - log(sum of exp(s_j) over the units
    not placed strictly ahead of i)."""
    return float(sum(s[i] - np.log(np.exp(s[place >= place[i]]).sum()) for i in range(len(s))))


def _games(s: np.ndarray, place: np.ndarray) -> float:
    """docs/rules/bridge-whr.md §4: pairs weighted 1/(n - 1), a tie half a win each."""
    n, total = len(s), 0.0
    for i in range(n):
        for j in range(i + 1, n):
            y = 1.0 if place[i] < place[j] else 0.0 if place[i] > place[j] else 0.5
            p = 1.0 / (1.0 + np.exp(-(s[i] - s[j])))
            total += (y * np.log(p) + (1 - y) * np.log(1 - p)) / (n - 1)
    return total


DIRECT = {"plackett-luce": _luce, "pairwise": _games}

# One period (a year): a few events of pairs and individuals among six players, with a tie.
ONE_PERIOD: list[tuple[list[str], ...]] = [
    (["P1", "P2"], ["P3", "P4"], ["P5", "P6"]),
    (["P1", "P3"], ["P2", "P5"], ["P4", "P6"]),
    (["P6"], ["P5"], ["P4"], ["P3"], ["P2"], ["P1"]),
    (["P2", "P6"], ["P1", "P4"], ["P3", "P5"]),
]
PLACES: list[list[float]] = [[1, 2, 3], [2, 1, 3], [1, 2, 3.5, 3.5, 5, 6], [1.5, 1.5, 3]]
BOARDS = [24.0, 30.0, 20.0, NAN]


def _one_period(with_tie: bool) -> pd.DataFrame:
    events = []
    for k, (units, places, boards) in enumerate(zip(ONE_PERIOD, PLACES, BOARDS, strict=True)):
        if not with_tie:
            places = [float(i + 1) for i in range(len(units))]
        events.append(event(f"e{k}", units, places, date=f"2024-0{k + 1}-15", boards=boards))
    return frame(*events)


@pytest.mark.parametrize("likelihood", ["plackett-luce", "pairwise"])
@pytest.mark.parametrize("with_tie", [False, True])
def test_one_period_fit_is_the_map_written_out_directly(likelihood: str, with_tie: bool) -> None:
    results = _one_period(with_tie)
    scale, prior = 75.0, 150.0
    run = ratings.rate("whr", results, options={
        "likelihood": likelihood, "period": "year", "tolerance": "1e-7", "prior": str(prior)})
    fitted = final(run)
    players = sorted(fitted)
    index = {p: i for i, p in enumerate(players)}
    sigma = prior / scale

    def negative_log_posterior(theta: np.ndarray) -> float:
        total = 0.5 * float(np.dot(theta, theta)) / sigma ** 2
        for units, places, boards in zip(ONE_PERIOD, PLACES, BOARDS, strict=True):
            place = np.array(places if with_tie else range(1, len(units) + 1), dtype=float)
            s = np.array([np.mean([theta[index[p]] for p in unit]) for unit in units])
            # docs/rules/bridge-belo.md §6: v = 1 + (b - 25) / 50, 1 for unknown boards
            v = 1.0 if math.isnan(boards) else 1.0 + (boards - 25.0) / 50.0
            total -= v * DIRECT[likelihood](s, place)
        return total

    best = optimize.minimize(negative_log_posterior, np.zeros(len(players)), method="BFGS",
                             options={"gtol": 1e-10})
    theta = np.array([(fitted[p] - 500.0) / scale for p in players])
    np.testing.assert_allclose(theta, best.x, atol=1e-6)


@pytest.mark.parametrize("likelihood", ["plackett-luce", "pairwise"])
def test_gradient_and_hessian_match_finite_differences(likelihood: str) -> None:
    rng = np.random.default_rng(7)
    events = []
    for k in range(8):
        players = rng.choice(10, size=6, replace=False)
        size = 1 + k % 2
        units = [[f"p{q}" for q in players[i:i + size]] for i in range(0, 6, size)]
        places = [float(i + 1) for i in rng.permutation(len(units))]
        if k == 0:  # a tie for the first two places
            places = [1.5 if p <= 2 else p for p in places]
        events.append(event(f"e{k}", units, places, boards=float(rng.integers(18, 40)),
                            date=f"2024-{1 + 2 * (k % 5):02d}-0{1 + k % 7}"))
    results = frame(*events)
    params = ratings.parse_options("whr", {"likelihood": likelihood})
    _, problem = _whr._prepare(check_results(results), params, check_initial(None))
    theta = rng.normal(0.0, 0.7, problem.unknowns)
    point = _whr._evaluate(problem, theta)
    h = 1e-6
    unit = np.eye(problem.unknowns)
    numeric = np.array([(_whr._evaluate(problem, theta + h * e).value
                         - _whr._evaluate(problem, theta - h * e).value) / (2 * h) for e in unit])
    np.testing.assert_allclose(point.gradient, numeric, atol=1e-6)
    v = rng.normal(size=problem.unknowns)
    second = (_whr._evaluate(problem, theta + h * v).gradient
              - _whr._evaluate(problem, theta - h * v).gradient) / (2 * h)
    np.testing.assert_allclose(_whr._hessian_times(problem, point, v), second, atol=1e-6)
    # expected places (docs/rules/bridge-whr.md §10): from the pairs and from the blocks
    np.testing.assert_allclose(point.terms.expected_places(),
                               _whr._expected_places(problem.layout, point.s), atol=1e-12)
    hessian = np.array([_whr._hessian_times(problem, point, e) for e in unit])
    np.testing.assert_allclose(np.diag(hessian), point.curvature(problem), atol=1e-12)
    # the deviation's tridiagonal inverse (docs/rules/bridge-whr.md §8) against a dense one
    band = np.diag(point.curvature(problem)) + np.diag(problem.prior_off, 1) \
        + np.diag(problem.prior_off, -1)
    variance, covariance = _whr._inverse_diagonal(point.curvature(problem), problem.prior_off,
                                                  problem.chains)
    dense = np.linalg.inv(band)
    np.testing.assert_allclose(variance, np.diag(dense), rtol=1e-10)
    np.testing.assert_allclose(covariance, np.diag(dense, 1), atol=1e-12)


def test_a_unit_without_rated_players_is_left_out_section_1() -> None:
    """The guests' unit leaves the likelihood: the same as the event without it."""
    with_guests = frame(event("e1", [["A"], ["G1", "G2"], ["B"], ["C"]], unrated=("G1", "G2")))
    without = frame(event("e1", [["A"], ["B"], ["C"]]))
    for likelihood in ("pairwise", "plackett-luce"):
        options = {"likelihood": likelihood}
        assert final(ratings.rate("whr", with_guests, options=options)) == pytest.approx(
            final(ratings.rate("whr", without, options=options)))
    c = ratings.rate("whr", with_guests).contributions.set_index("player")
    assert list(c.loc[["G1", "G2"], "reason"]) == ["unrated player"] * 2
    assert not c.loc["G1", "counted"] and math.isnan(c.loc["G1", "moved"])
    lone = ratings.rate("whr", frame(event("e1", [["A"], ["G"]], unrated=("G",))))
    assert lone.contributions.set_index("player").loc["A", "reason"] == "fewer than 2 rated units"
    assert final(lone) == {"A": 500.0}


def test_unit_strength_is_the_mean_or_the_sum_section_1() -> None:
    results = frame(event("e1", [["A", "B"], ["C", "D"], ["E", "F"]]),
                    event("e2", [["A", "C"], ["E", "B"], ["D", "F"]]))
    mean = ratings.rate("whr", results, options={"tolerance": "1e-6"})
    summed = ratings.rate("whr", results, options={"unit": "sum", "tolerance": "1e-6"})
    assert final(mean) != pytest.approx(final(summed))
    assert final(mean)["A"] > 500.0 > final(mean)["F"]
    assert final(summed)["A"] > 500.0 > final(summed)["F"]


# --- the fit --------------------------------------------------------------------------------------


def test_warm_start_gives_the_scratch_answer_in_fewer_steps_section_9() -> None:
    from quality.federation import simulate

    results = simulate("federation", 1).results
    dates = pd.to_datetime(results["date"])
    earlier = results[dates <= dates.max() - pd.Timedelta(days=7)]
    params = ratings.parse_options("whr", {})
    previous = ratings.fit_whr(earlier, params)
    scratch = ratings.fit_whr(results, params)
    warm = ratings.fit_whr(results, params, warm=previous.run.ratings)
    assert scratch.converged and warm.converged
    assert warm.iterations < scratch.iterations
    a = scratch.run.ratings.set_index(["period", "player"])["rating"]
    b = warm.run.ratings.set_index(["period", "player"])["rating"]
    assert a.index.equals(b.index)
    assert float((a - b).abs().max()) < 0.05
    # starting from the answer itself: done at once
    again = ratings.fit_whr(results, params, warm=scratch.run.ratings)
    assert again.iterations <= 1


def test_warm_frame_must_have_its_columns() -> None:
    with pytest.raises(ratings.InputError, match="warm"):
        ratings.fit_whr(FOUR, ratings.WhrParams(), warm=pd.DataFrame({"player": ["A"]}))


def test_a_fit_stopped_early_says_so() -> None:
    fit = ratings.fit_whr(_one_period(True), ratings.parse_options("whr", {
        "max_iterations": "1", "tolerance": "1e-9"}))
    assert not fit.converged and fit.iterations == 1
    assert len(fit.run.warnings) == 1 and "max_iterations = 1" in fit.run.warnings[0]


def test_deviation_shrinks_as_a_player_plays_more_events_section_8() -> None:
    deviations = []
    for count in range(1, 6):
        events = [event(f"e{k}", [["X"], [f"a{k}"], [f"b{k}"]], [1 + k % 3, 1 + (k + 1) % 3,
                                                                  1 + (k + 2) % 3],
                        date=f"2024-02-{k + 1:02d}") for k in range(count)]
        run = ratings.rate("whr", frame(*events))
        deviations.append(float(rows_of(run, "X")["deviation"].iloc[-1]))
    assert deviations == sorted(deviations, reverse=True)
    assert len(set(deviations)) == len(deviations)
    assert deviations[0] < 150.0


def test_initial_ratings_are_the_prior_mean() -> None:
    initial = pd.DataFrame({"player": ["A", "Z"], "rating": [650.0, 580.0]})
    run = ratings.rate("whr", frame(event("e1", [["A"], ["B"]], date="2024-05-01"),
                                    event("e2", [["C"], ["B"]], date="2024-11-01")),
                       initial=initial)
    a, z, b = rows_of(run, "A"), rows_of(run, "Z"), rows_of(run, "B")
    assert list(a["period"]) == ["2024Q2", "2024Q3", "2024Q4"]
    assert a["rating_before"][0] == 650.0 and a["rating"][0] > 600.0  # pulled to 650, not 500
    assert list(z["rating"]) == [580.0] * 3 and list(z["events"]) == [0] * 3
    assert list(b["period"]) == ["2024Q2", "2024Q3", "2024Q4"]


# --- properties -----------------------------------------------------------------------------------


@st.composite
def histories(draw: st.DrawFn, *, partners: bool = True) -> pd.DataFrame:
    """A few events among eight players over a year, units of one or two players, places with
    ties averaged as the results contract asks."""
    events = []
    for k in range(draw(st.integers(1, 5))):
        size = draw(st.integers(1, 2)) if partners else 1
        count = draw(st.integers(2, 8 // size))
        people = draw(st.permutations([f"p{i}" for i in range(8)]))[: count * size]
        units = [people[i:i + size] for i in range(0, count * size, size)]
        raw = draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
        order = sorted(range(count), key=lambda i: raw[i])
        rank = {i: float(r + 1) for r, i in enumerate(order)}
        places = [float(np.mean([rank[j] for j in range(count) if raw[j] == raw[i]]))
                  for i in range(count)]
        month = draw(st.sampled_from([1, 4, 7, 10]))
        events.append(event(f"e{k}", units, places, date=f"2024-{month:02d}-{k + 1:02d}"))
    return frame(*events)


def _swap_up(results: pd.DataFrame, data: st.DataObject) -> tuple[pd.DataFrame, list[str]] | None:
    """``results`` with one unit of one event swapped with a unit placed strictly ahead of it,
    and the players of the unit that moved up; None if the event has no such pair."""
    ids = sorted(results["event_id"].unique())
    chosen = data.draw(st.sampled_from(ids))
    at = results["event_id"] == chosen
    place = results[at].groupby("unit")["place"].first()
    behind = [u for u in place.index if (place < place[u]).any()]
    if not behind:
        return None
    up = data.draw(st.sampled_from(behind))
    ahead = data.draw(st.sampled_from([u for u in place.index if place[u] < place[up]]))
    swapped = results.copy()
    swapped.loc[at & (results["unit"] == up), "place"] = place[ahead]
    swapped.loc[at & (results["unit"] == ahead), "place"] = place[up]
    return swapped, list(results.loc[at & (results["unit"] == up), "player"])


FINE = {"tolerance": "1e-6"}


@settings(max_examples=40, deadline=None)
@given(results=histories(), data=st.data())
def test_property_a_better_place_never_lowers_a_rating(results: pd.DataFrame,
                                                       data: st.DataObject) -> None:
    """docs/rules/bridge-whr.md "Properties": pairwise (the default), any unit."""
    case = _swap_up(results, data)
    if case is None:
        return
    swapped, movers = case
    before, after = final(ratings.rate("whr", results, options=FINE)), \
        final(ratings.rate("whr", swapped, options=FINE))
    for player in movers:
        assert after[player] >= before[player] - 1e-6


@settings(max_examples=40, deadline=None)
@given(results=histories(), data=st.data())
def test_property_plackett_luce_a_better_place_never_lowers_a_units_rating(
        results: pd.DataFrame, data: st.DataObject) -> None:
    """docs/rules/bridge-whr.md "Properties": with Plackett-Luce the unit's mean rating (one
    partner may lose a little while the other gains more), and a single player's rating."""
    case = _swap_up(results, data)
    if case is None:
        return
    swapped, movers = case
    options = {**FINE, "likelihood": "plackett-luce"}
    before, after = final(ratings.rate("whr", results, options=options)), \
        final(ratings.rate("whr", swapped, options=options))
    gain = [after[p] - before[p] for p in movers]
    assert float(np.mean(gain)) >= -1e-6
    if len(movers) == 1:
        assert gain[0] >= -1e-6


def _relabel(results: pd.DataFrame, rename: Callable[[str], str]) -> pd.DataFrame:
    out = results.copy()
    out["player"] = out["player"].map(rename)
    return out


@settings(max_examples=40, deadline=None)
@given(results=histories(), permutation=st.permutations(range(8)),
       likelihood=st.sampled_from(["pairwise", "plackett-luce"]))
def test_property_renaming_players_changes_nothing(results: pd.DataFrame,
                                                   permutation: list[int],
                                                   likelihood: str) -> None:
    # new ids sort in another order than the old ones, so players are numbered differently
    names = {f"p{i}": f"{chr(ord('z') - permutation[i])}{permutation[i]}" for i in range(8)}
    back = {v: k for k, v in names.items()}
    options = {"likelihood": likelihood}
    run = ratings.rate("whr", results, options=options)
    renamed = ratings.rate("whr", _relabel(results, names.__getitem__), options=options)
    a = run.ratings.set_index(["period", "player"])[["rating", "deviation", "events"]]
    b = renamed.ratings.assign(player=renamed.ratings["player"].map(back)) \
        .set_index(["period", "player"])[["rating", "deviation", "events"]]
    b = b.reindex(a.index)
    np.testing.assert_allclose(a.to_numpy(float), b.to_numpy(float), atol=1e-6)


@settings(max_examples=25, deadline=None)
@given(results=histories(), seed=st.integers(0, 1000))
def test_property_the_order_of_the_rows_changes_nothing(results: pd.DataFrame, seed: int) -> None:
    shuffled = results.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    a, b = ratings.rate("whr", results), ratings.rate("whr", shuffled)
    pd.testing.assert_frame_equal(a.ratings, b.ratings)
    pd.testing.assert_frame_equal(a.contributions, b.contributions)
