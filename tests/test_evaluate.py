"""The evaluation replay and the placement baselines (quality/evaluate.py, quality/baselines.py).

Hand-made simulations where the truth is known: every event follows the strength order exactly,
a two-club experiment where club A always beats club B, the placement Elo computed by hand,
openskill against the library's own calls, and the separation count on a constructed history.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pytest
from openskill.models import PlackettLuce

from quality import baselines
from quality.baselines import UnitStats
from quality.evaluate import (
    DEFAULT_SCHEMES,
    EvaluationReport,
    SchemeScore,
    evaluate,
    format_table,
    run_scheme,
    separation_events,
)
from quality.model import Simulation

Unit = tuple[float, Sequence[str]]  # place, players


def results_frame(events: Sequence[tuple[str, dict[str, Unit]]]) -> pd.DataFrame:
    """A results frame of pairs events: (date, {unit: (place, players)}), ids E001, E002..."""
    rows = []
    for number, (date, units) in enumerate(events, start=1):
        for unit, (place, players) in units.items():
            for player in players:
                rows.append({
                    "event_id": f"E{number:03d}", "date": pd.Timestamp(date), "kind": "pairs",
                    "scoring": "MP", "boards": 24.0, "unit": unit, "place": float(place),
                    "player": player, "club": "",
                })
    return pd.DataFrame(rows)


def simulation(results: pd.DataFrame, strength: dict[str, float], *,
               clubs: dict[str, str] | None = None, inter_club: set[str] | None = None,
               settings: dict[str, object] | None = None) -> Simulation:
    """A Simulation around ``results`` with constant strengths and one club unless told."""
    players = sorted(strength)
    club_of = clubs or dict.fromkeys(players, "Club A")
    results = results.assign(club=results["player"].map(club_of))
    periods = results["date"].dt.to_period("Q").astype(str)
    strength_rows = [{"period": p, "player": player, "strength": strength[player]}
                     for p in sorted(periods.unique()) for player in players]
    events = results.groupby("event_id", sort=True).agg(date=("date", "first")).reset_index()
    events["period"] = events["date"].dt.to_period("Q").astype(str)
    inter = inter_club or set()
    events["inter_club"] = events["event_id"].isin(inter)
    events["club"] = np.where(events["inter_club"], "", "Club A")
    return Simulation(
        name="hand", seed=7, results=results,
        strength=pd.DataFrame(strength_rows),
        players=pd.DataFrame({"player": players, "club": [club_of[p] for p in players],
                              "joined": pd.Timestamp("2016-01-01"), "left": pd.NaT}),
        events=events[["event_id", "date", "period", "club", "inter_club"]],
        settings=settings or {},
    )


# --- a federation where every event follows the strength order --------------------------------

PAIRS = {f"u{k}": (f"a{k}", f"b{k}") for k in range(1, 7)}
"""Six fixed partnerships; both players of pair k have strength 700 - 50 k."""


def ordered_simulation() -> Simulation:
    """Four quarters, three events each, every event in the strength order (u1 first)."""
    dates = pd.date_range("2016-01-05", periods=12, freq="28D")
    events = [(str(d.date()), {u: (k, ps) for k, (u, ps) in enumerate(PAIRS.items(), start=1)})
              for d in dates]
    strength = {p: 700.0 - 50.0 * k for k, ps in enumerate(PAIRS.values(), start=1) for p in ps}
    return simulation(results_frame(events), strength)


@pytest.fixture(scope="module")
def ordered_report() -> EvaluationReport:
    return evaluate(ordered_simulation(), ("belo", "belo2", "elo"))


@pytest.mark.parametrize("scheme", ["belo", "belo2", "elo"])
def test_a_perfect_order_is_recovered_and_predicted(ordered_report: EvaluationReport,
                                                    scheme: str) -> None:
    row = next(r for r in ordered_report.rows if r.scheme == scheme)
    assert row.spearman == pytest.approx(1.0)
    assert row.kendall == pytest.approx(1.0)
    assert row.kn == 0.0
    assert row.ln == 0.0
    assert row.kn_pct == 0.0
    assert row.pair_accuracy == 1.0
    assert row.separation is None


def test_report_counts_what_it_was_computed_over(ordered_report: EvaluationReport) -> None:
    assert ordered_report.preset == "hand"
    assert ordered_report.seed == 7
    assert ordered_report.players == 12
    assert ordered_report.events == 12
    assert ordered_report.final_players == 12
    # Quarters 2-4 hold 9 events (the first quarter 3 of 12), 15 pairs of units each.
    dates = pd.date_range("2016-01-05", periods=12, freq="28D")
    later = int((dates.quarter > 1).sum())
    assert ordered_report.predicted_pairs == later * 15
    assert ordered_report.inter_club_events is None
    assert not ordered_report.separation_applies
    assert [r.scheme for r in ordered_report.rows] == ["belo", "belo2", "elo"]


def test_belo_gives_no_log_loss_elo_does(ordered_report: EvaluationReport) -> None:
    by = {r.scheme: r for r in ordered_report.rows}
    assert by["belo"].log_loss is None
    assert by["belo2"].log_loss is None
    elo_loss = by["elo"].log_loss
    assert elo_loss is not None
    # Every prediction is right, so every probability is above one half.
    assert 0.0 < elo_loss < math.log(2.0)


def test_a_reversed_list_is_fully_unfair() -> None:
    """Every event in the reverse of the strength order: the list is the reversed ranking."""
    sim = ordered_simulation()
    strength = sim.strength.assign(strength=1000.0 - sim.strength["strength"])
    reversed_sim = Simulation(sim.name, sim.seed, sim.results, strength, sim.players,
                              sim.events, sim.settings)
    row = evaluate(reversed_sim, ("elo",)).rows[0]
    assert row.spearman == pytest.approx(-1.0)
    assert row.pair_accuracy == 1.0  # the prediction is about places, not about strength
    # Six pairs of tied partners: places 1.5, 3.5, ..., 11.5 against 11.5, ..., 1.5.
    expected = sum((a - e) ** 2 for a, e in zip(range(1, 12, 2), range(11, 0, -2), strict=True))
    assert row.kn == pytest.approx(2 * expected)
    assert row.kn_pct == pytest.approx(100.0 * 2 * expected / (12 * (144 - 1) / 3))


def test_only_members_active_in_the_last_year_are_listed() -> None:
    """A pair that played only in the first quarter of two years is not on the final list."""
    dates = [*pd.date_range("2016-01-05", periods=3, freq="7D"),
             *pd.date_range("2017-10-03", periods=3, freq="7D")]
    events = []
    for i, d in enumerate(dates):
        units = {u: (k, ps) for k, (u, ps) in enumerate(PAIRS.items(), start=1)}
        if i >= 3:
            units.pop("u6")
        events.append((str(d.date()), units))
    strength = {p: 700.0 - 50.0 * k for k, ps in enumerate(PAIRS.values(), start=1) for p in ps}
    report = evaluate(simulation(results_frame(events), strength), ("elo",))
    assert report.final_players == 10


def test_the_same_simulation_gives_the_same_report() -> None:
    sim = ordered_simulation()
    first = evaluate(sim, DEFAULT_SCHEMES).to_frame().drop(columns="seconds")
    second = evaluate(sim, DEFAULT_SCHEMES).to_frame().drop(columns="seconds")
    pd.testing.assert_frame_equal(first, second)
    assert list(first["scheme"]) == list(DEFAULT_SCHEMES)


def test_unknown_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown evaluation scheme 'trueskill'"):
        run_scheme("trueskill", ordered_simulation().results)


# --- Elo --------------------------------------------------------------------------------------


def test_elo_event_by_hand() -> None:
    """Units A (1600 + 1400), B (1600 + 1600), C (1400 + 1400); A first, B second, C third.

    k / (n - 1) = 16. E_AB = 1/(1 + 10^0.25) = 0.359935, E_AC = 0.640065, E_BC =
    1/(1 + 10^-0.5) = 0.759747. dA = 16 (0.640065 + 0.359935) = 16, dB = 16 (-0.640065 +
    0.240253) = -6.396991, dC = 16 (-0.359935 - 0.240253) = -9.603009.
    """
    before = np.array([1600.0, 1400.0, 1600.0, 1600.0, 1400.0, 1400.0])
    units = np.array([0, 0, 1, 1, 2, 2])
    change = baselines.elo_event(before, units, np.array([1.0, 2.0, 3.0]))
    e_ab = 1.0 / (1.0 + 10.0 ** 0.25)
    e_bc = 1.0 / (1.0 + 10.0 ** -0.5)
    assert change[0] == pytest.approx(16.0)
    assert change[1] == pytest.approx(16.0)
    assert change[2] == pytest.approx(16.0 * (-(1.0 - e_ab) + (1.0 - e_bc)))
    assert change[2] == pytest.approx(-6.396991, abs=1e-6)
    assert change[4] == pytest.approx(-9.603009, abs=1e-6)
    assert change[5] == pytest.approx(change[4])
    assert change[[0, 2, 4]].sum() == pytest.approx(0.0, abs=1e-12)


def test_elo_event_with_a_tie_by_hand() -> None:
    """B and C share places 2-3 (2.5 each): S_BC = S_CB = 0.5."""
    before = np.array([1600.0, 1400.0, 1600.0, 1600.0, 1400.0, 1400.0])
    units = np.array([0, 0, 1, 1, 2, 2])
    change = baselines.elo_event(before, units, np.array([1.0, 2.5, 2.5]))
    e_ab = 1.0 / (1.0 + 10.0 ** 0.25)
    e_bc = 1.0 / (1.0 + 10.0 ** -0.5)
    assert change[0] == pytest.approx(16.0)
    assert change[2] == pytest.approx(16.0 * (-(1.0 - e_ab) + (0.5 - e_bc)))
    assert change[4] == pytest.approx(16.0 * (-e_ab + (0.5 - (1.0 - e_bc))))


def test_elo_rates_events_in_order_and_snapshots_quarters() -> None:
    """First event from 1500 for everyone: +16, 0, -16; the second starts from those."""
    events = [
        ("2016-01-05", {"A": (1, ["p1", "p2"]), "B": (2, ["p3", "p4"]), "C": (3, ["p5", "p6"])}),
        ("2016-04-05", {"A": (1, ["p1", "p3"]), "B": (2, ["p2", "p5"]), "C": (3, ["p4", "p7"])}),
    ]
    run = baselines.elo(results_frame(events))
    frame = run.ratings.set_index(["period", "player"])
    q1 = frame.loc["2016Q1"]
    assert list(q1.index) == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert q1["rating"].tolist() == pytest.approx([1516, 1516, 1500, 1500, 1484, 1484])
    assert q1["rating_before"].tolist() == pytest.approx([1500.0] * 6)
    assert q1["events"].tolist() == [1] * 6
    q2 = frame.loc["2016Q2"]
    assert list(q2.index) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    means = {"A": 1508.0, "B": 1500.0, "C": 1500.0}  # p4 1500 with the newcomer p7 at 1500
    expected_a = 16.0 * sum(1.0 - 1.0 / (1.0 + 10.0 ** ((means[o] - means["A"]) / 400.0))
                            for o in ("B", "C"))
    assert q2.loc["p1", "rating"] == pytest.approx(1516.0 + expected_a)
    assert q2.loc["p3", "rating"] == pytest.approx(1500.0 + expected_a)
    assert q2.loc["p6", "rating"] == pytest.approx(1484.0)
    assert q2.loc["p6", "events"] == 0
    assert q2.loc["p7", "rating_before"] == pytest.approx(1500.0)
    assert run.start == {"rating": 1500.0}


# --- Glicko-2 ---------------------------------------------------------------------------------


def test_glicko2_games_pair_players_crosswise() -> None:
    """A pair against a unit of three: three games, the pair's players cycling."""
    events = [("2016-02-01", {"A": (2, ["a1", "a2"]), "B": (1, ["b1", "b2", "b3"]),
                              "C": (2, ["c1", "c2"])})]
    games = baselines.glicko2_games(results_frame(events))
    rows = set(zip(games["player"], games["opponent"], games["result"], strict=True))
    assert rows == {
        ("a1", "b1", 0.0), ("a2", "b2", 0.0), ("a1", "b3", 0.0),
        ("a1", "c1", 0.5), ("a2", "c2", 0.5),
        ("b1", "c1", 1.0), ("b2", "c2", 1.0), ("b3", "c1", 1.0),
    }
    assert len(games) == 8
    assert set(games["period"]) == {"2016Q1"}
    assert set(games["handicap"]) == {0}
    # Adjacent in the ranking B (1), A (2), C (2, after A by id): B-A and A-C only.
    adjacent = baselines.glicko2_games(results_frame(events), comparisons="adjacent")
    rows = set(zip(adjacent["player"], adjacent["opponent"], adjacent["result"], strict=True))
    assert rows == {("a1", "b1", 0.0), ("a2", "b2", 0.0), ("a1", "b3", 0.0),
                    ("a1", "c1", 0.5), ("a2", "c2", 0.5)}


def test_glicko2_probability_is_glickmans_expectation() -> None:
    a = UnitStats(np.array([2.0]), {"rating": np.array([1700.0]), "deviation": np.array([0.0])},
                  {"rating": np.array([0.0]), "deviation": np.array([50.0 ** 2])})
    b = UnitStats(np.array([2.0]), {"rating": np.array([1500.0]), "deviation": np.array([0.0])},
                  {"rating": np.array([0.0]), "deviation": np.array([80.0 ** 2])})
    phi = math.sqrt(50.0 ** 2 + 80.0 ** 2) / 173.7178
    g = 1.0 / math.sqrt(1.0 + 3.0 * phi ** 2 / math.pi ** 2)
    expected = 1.0 / (1.0 + math.exp(-g * 200.0 / 173.7178))
    assert baselines.glicko2_probability(a, b)[0] == pytest.approx(expected)


def test_glicko2_rates_every_player_each_quarter() -> None:
    run = baselines.glicko2(ordered_simulation().results)
    assert set(run.ratings["period"]) == {"2016Q1", "2016Q2", "2016Q3", "2016Q4"}
    last = run.ratings[run.ratings["period"] == "2016Q4"].set_index("player")
    assert len(last) == 12
    assert last.loc["a1", "rating"] > last.loc["a6", "rating"]
    assert (last["deviation"] < 350.0).all()
    assert run.start == {"rating": 1500.0, "deviation": 350.0}


# --- openskill --------------------------------------------------------------------------------


def test_openskill_rates_every_player_like_the_library() -> None:
    events = [
        ("2016-01-05", {"A": (1, ["p1", "p2"]), "B": (2, ["p3", "p4"]), "C": (3, ["p5", "p6"])}),
        ("2016-04-05", {"A": (2, ["p1", "p3"]), "B": (1, ["p2", "p5"]), "C": (3, ["p4", "p7"])}),
    ]
    run = baselines.openskill(results_frame(events))
    model = PlackettLuce()
    r = {p: model.rating() for p in ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]}
    [[r["p1"], r["p2"]], [r["p3"], r["p4"]], [r["p5"], r["p6"]]] = model.rate(
        [[r["p1"], r["p2"]], [r["p3"], r["p4"]], [r["p5"], r["p6"]]], ranks=[1.0, 2.0, 3.0])
    q1 = run.ratings[run.ratings["period"] == "2016Q1"].set_index("player")
    assert list(q1.index) == ["p1", "p2", "p3", "p4", "p5", "p6"]
    for p in q1.index:
        assert q1.loc[p, "mu"] == pytest.approx(r[p].mu)
        assert q1.loc[p, "sigma"] == pytest.approx(r[p].sigma)
        assert q1.loc[p, "rating"] == pytest.approx(r[p].mu - 3.0 * r[p].sigma)
    [[r["p1"], r["p3"]], [r["p2"], r["p5"]], [r["p4"], r["p7"]]] = model.rate(
        [[r["p1"], r["p3"]], [r["p2"], r["p5"]], [r["p4"], r["p7"]]], ranks=[2.0, 1.0, 3.0])
    q2 = run.ratings[run.ratings["period"] == "2016Q2"].set_index("player")
    assert list(q2.index) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    for p in q2.index:
        assert q2.loc[p, "mu"] == pytest.approx(r[p].mu)
        assert q2.loc[p, "sigma"] == pytest.approx(r[p].sigma)
    assert q2.loc["p6", "events"] == 0
    assert q2.loc["p7", "events"] == 1
    assert run.start["mu"] == pytest.approx(25.0)
    assert run.start["rating"] == pytest.approx(0.0)


def test_openskill_probability_is_predict_win() -> None:
    model = PlackettLuce()
    a = [model.rating(mu=28.0, sigma=3.0), model.rating(mu=22.0, sigma=5.0)]
    b = [model.rating(mu=26.0, sigma=7.0), model.rating(mu=25.0, sigma=2.0)]

    def stats(team: list[object]) -> UnitStats:
        mu = np.array([[p.mu for p in team]])  # type: ignore[attr-defined]
        sigma = np.array([[p.sigma for p in team]])  # type: ignore[attr-defined]
        return UnitStats(np.array([2.0]), {"mu": mu.mean(axis=1), "sigma": sigma.mean(axis=1)},
                         {"mu": (mu ** 2).mean(axis=1), "sigma": (sigma ** 2).mean(axis=1)})

    probability = baselines.openskill_probability(stats(a), stats(b), beta=model.beta)
    assert probability[0] == pytest.approx(model.predict_win([a, b])[0])


# --- separation -------------------------------------------------------------------------------


def test_separation_count_on_a_constructed_history() -> None:
    strong, weak = pd.Index(["a1", "a2"]), pd.Index(["b1", "b2"])

    def state(a: tuple[float, float], b: tuple[float, float]) -> pd.Series:
        return pd.Series([*a, *b], index=["a1", "a2", "b1", "b2"])

    history = [
        state((520, 480), (510, 490)),  # 0: overlap
        state((540, 500), (505, 480)),  # 1: 500 < 505
        state((560, 510), (505, 470)),  # 2: apart
        state((560, 503), (505, 470)),  # 3: overlap again
        state((580, 520), (500, 460)),  # 4: apart
        state((590, 530), (495, 450)),  # 5: apart
    ]
    assert separation_events(history.__getitem__, 5, strong, weak) == 4
    assert separation_events(history.__getitem__, 2, strong, weak) == 2
    assert separation_events(history.__getitem__, 3, strong, weak) is None
    equal = [*history[:5], state((580, 500), (500, 460))]  # a tie is not apart
    assert separation_events(equal.__getitem__, 5, strong, weak) is None
    apart = [state((600, 590), (400, 390))] * 3
    assert separation_events(apart.__getitem__, 2, strong, weak) == 0


def test_separation_asks_only_from_the_end_until_the_clubs_overlap() -> None:
    asked: list[int] = []
    ratings = [pd.Series({"a": 1.0, "b": 2.0})] * 3 + [pd.Series({"a": 2.0, "b": 1.0})] * 5

    def after(k: int) -> pd.Series:
        asked.append(k)
        return ratings[k]

    assert separation_events(after, 7, pd.Index(["a"]), pd.Index(["b"])) == 3
    assert asked == [7, 6, 5, 4, 3, 2]


def two_club_simulation(inter_events: int = 30) -> Simulation:
    """Club A (a1-a6) and club B (b1-b6), three fixed pairs each; five events inside each club
    in strength order, then inter-club events where all A pairs finish above all B pairs."""
    a_pairs = {"A1": ["a1", "a2"], "A2": ["a3", "a4"], "A3": ["a5", "a6"]}
    b_pairs = {"B1": ["b1", "b2"], "B2": ["b3", "b4"], "B3": ["b5", "b6"]}
    events: list[tuple[str, dict[str, Unit]]] = []
    day = pd.Timestamp("2016-01-04")
    for _ in range(5):
        for pairs in (a_pairs, b_pairs):
            events.append((str(day.date()), {u: (k, ps) for k, (u, ps)
                                             in enumerate(pairs.items(), start=1)}))
        day += pd.Timedelta(days=7)
    first_inter = len(events) + 1
    for _ in range(inter_events):
        both = {**a_pairs, **b_pairs}
        events.append((str(day.date()), {u: (k, ps) for k, (u, ps)
                                         in enumerate(both.items(), start=1)}))
        day += pd.Timedelta(days=7)
    strength = {p: 700.0 - 10.0 * i
                for i, p in enumerate(p for ps in a_pairs.values() for p in ps)}
    strength |= {p: 500.0 - 10.0 * i
                 for i, p in enumerate(p for ps in b_pairs.values() for p in ps)}
    clubs = {p: ("Club A" if p.startswith("a") else "Club B") for p in strength}
    inter = {f"E{n:03d}" for n in range(first_inter, first_inter + inter_events)}
    settings = {"intra_club_events": 5, "inter_club_events": inter_events,
                "initial_rating": 500.0}
    return simulation(results_frame(events), strength, clubs=clubs, inter_club=inter,
                      settings=settings)


def test_two_club_experiment_counts_inter_club_events_until_separation() -> None:
    sim = two_club_simulation()
    report = evaluate(sim, ("belo2", "elo"))
    assert report.separation_applies
    assert report.inter_club_events == 30
    a_players = sim.players.loc[sim.players["club"] == "Club A", "player"]
    b_players = sim.players.loc[sim.players["club"] == "Club B", "player"]
    for row in report.rows:
        assert row.separation is not None
        k = row.separation
        assert 1 <= k <= 30
        # The count agrees with replays of the results up to the k-th inter-club event.
        initial = pd.DataFrame({"player": sim.players["player"], "rating": 500.0})
        for n, apart in ((k, True), (k - 1, False)):
            last = 10 + n  # ten club events come first
            part = sim.results[sim.results["event_id"] <= f"E{last:03d}"]
            final = run_scheme(row.scheme, part, initial).ratings.groupby("player")[
                "rating"].last()
            separated = bool(final[a_players].min() > final[b_players].max())
            assert separated is apart, (row.scheme, n)


def test_two_club_experiment_in_the_table() -> None:
    report = evaluate(two_club_simulation(), ("belo2",))
    table = format_table(report)
    assert "separation" in table.splitlines()[3]
    assert "(30 inter-club)" in table.splitlines()[0]


# --- the table --------------------------------------------------------------------------------


def test_format_table_aligns_every_row() -> None:
    rows = (
        SchemeScore("belo2", 0.9123, 0.8, 12.0, 6.0, 3.25, 0.75, None, None, 0.5),
        SchemeScore("openskill", 0.5, 0.4, 120.0, 30.0, 33.3, 0.6, 0.6931, None, 12.25),
    )
    report = EvaluationReport(preset="federation", seed=3, players=300, events=1500,
                              final_players=250, predicted_pairs=1000, inter_club_events=None,
                              rows=rows)
    lines = format_table(report).splitlines()
    assert lines[0] == "Preset federation, seed 3: 300 players, 1500 events"
    assert "250 members" in lines[1] and "1000 unit pairs" in lines[1]
    assert lines[2] == ""
    assert lines[3].split() == ["scheme", "Spearman", "Kendall", "KN", "LN", "KN", "%",
                                "pairs", "right", "log", "loss", "seconds"]
    assert lines[5].split() == ["belo2", "0.912", "0.800", "12", "6", "3.2", "0.750", "—",
                                "0.50"]
    assert lines[6].split() == ["openskill", "0.500", "0.400", "120", "30", "33.3", "0.600",
                                "0.693", "12.25"]
    assert len({len(line) for line in lines[3:]}) == 1


def test_format_table_says_never() -> None:
    rows = (SchemeScore("elo", 0.5, 0.4, 1.0, 1.0, 1.0, 0.5, 0.7, None, 0.1),
            SchemeScore("belo", 0.5, 0.4, 1.0, 1.0, 1.0, 0.5, None, 12, 0.1))
    report = EvaluationReport("two-clubs", 1, 31, 80, 31, 100, 40, rows)
    lines = format_table(report).splitlines()
    assert lines[0] == "Preset two-clubs, seed 1: 31 players, 80 events (40 inter-club)"
    assert lines[5].split()[-2:] == ["never", "0.10"]
    assert lines[6].split()[-2:] == ["12", "0.10"]
