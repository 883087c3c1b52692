"""Baseline go schemes (ratings/_baselines.py): Elo, Glicko-2, EGF GoR 2021.

Three layers: the published worked numbers (Glickman's Glicko-2 example, the EGD calculator's
GoR examples), the scheme rules (periods, carrying, floors, options, registry), and properties
with Hypothesis (order and perspective of the games, labels of the players, win >= loss).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings
from ratings._baselines import (
    BASELINE_CONTRIBUTIONS_COLUMNS,
    BASELINE_RATINGS_COLUMNS,
    EgfParams,
    EloParams,
    Glicko2Params,
    rate_egf,
    rate_elo,
    rate_glicko2,
)


def games_frame(rows: list[tuple[Any, ...]], *, dates: list[str] | None = None) -> pd.DataFrame:
    """Rows ``(period, player, opponent, result, handicap, colour)``."""
    frame = pd.DataFrame(rows, columns=["period", "player", "opponent", "result", "handicap",
                                        "colour"])
    if dates is not None:
        frame["date"] = dates
    return frame


def row_of(run: ratings.RatingRun, period: str, player: str) -> pd.Series:
    frame = run.ratings
    hit = frame[(frame["period"] == period) & (frame["player"] == player)]
    assert len(hit) == 1, (period, player)
    return hit.iloc[0]


def contribution(run: ratings.RatingRun, player: str, opponent: str) -> pd.Series:
    frame = run.contributions
    hit = frame[(frame["player"] == player) & (frame["opponent"] == opponent)]
    assert len(hit) == 1, (player, opponent)
    return hit.iloc[0]


# --- Glicko-2: Glickman, "Example of the Glicko-2 system" -----------------------------------


def glickman_example() -> ratings.RatingRun:
    games = games_frame([
        ("p", "a", "b", 1.0, 0, "b"),
        ("p", "c", "a", 1.0, 0, "w"),   # written from the opponent's side: a lost to c
        ("p", "a", "d", 0.0, 0, "w"),
    ])
    initial = pd.DataFrame({"player": list("abcd"), "rating": [1500, 1400, 1550, 1700],
                            "deviation": [200, 30, 100, 300]})
    return rate_glicko2(games, Glicko2Params(), initial)


def test_glickman_example_rating_rd_volatility() -> None:
    a = row_of(glickman_example(), "p", "a")
    assert a["rating"] == pytest.approx(1464.05, abs=0.02)
    assert a["deviation"] == pytest.approx(151.52, abs=0.01)
    assert a["volatility"] == pytest.approx(0.05999, abs=0.00001)
    assert a["rating_before"] == 1500.0
    assert a["deviation_before"] == 200.0
    assert a["events"] == 3


def test_glickman_example_expected_scores() -> None:
    # The example's step 3 table: E = 0.639, 0.432, 0.303.
    run = glickman_example()
    assert contribution(run, "a", "b")["expected"] == pytest.approx(0.639, abs=5e-4)
    assert contribution(run, "a", "c")["expected"] == pytest.approx(0.432, abs=5e-4)
    assert contribution(run, "a", "d")["expected"] == pytest.approx(0.303, abs=5e-4)
    lost = contribution(run, "a", "c")
    assert lost["result"] == 0.0
    assert lost["colour"] == "b"
    assert lost["weight"] == 1.0
    assert contribution(run, "c", "a")["result"] == 1.0


def test_glicko2_player_without_games_only_gains_rd() -> None:
    # Step 6: phi' = sqrt(phi^2 + sigma^2) for a player who did not compete.
    games = games_frame([("1", "a", "b", 1.0, 0, "b"), ("2", "a", "c", 0.0, 0, "w")])
    initial = pd.DataFrame({"player": ["b"], "rating": [1600.0], "deviation": [50.0],
                            "volatility": [0.05]})
    run = rate_glicko2(games, Glicko2Params(), initial)
    before, after = row_of(run, "1", "b"), row_of(run, "2", "b")
    scale = 173.7178
    expected_rd = scale * math.sqrt((before["deviation"] / scale) ** 2 + before["volatility"] ** 2)
    assert after["events"] == 0
    assert after["rating"] == before["rating"]
    assert after["rating_before"] == before["rating"]
    assert after["volatility"] == before["volatility"]
    assert after["deviation_before"] == before["deviation"]
    assert after["deviation"] == pytest.approx(expected_rd, rel=1e-12)


def test_glicko2_newcomer_starts_at_1500_350_006() -> None:
    run = rate_glicko2(games_frame([("1", "x", "y", 0.5, 0, "b")]), Glicko2Params())
    x = row_of(run, "1", "x")
    assert x["rating_before"] == 1500.0
    assert x["deviation_before"] == 350.0
    assert x["rating"] == pytest.approx(1500.0, abs=1e-9)  # a draw between equals
    assert x["deviation"] < 350.0


# --- EGF GoR 2021: the EGD calculator's examples ---------------------------------------------


def egf_one_game(winner: float, loser: float, handicap: int = 0,
                 winner_colour: str = "b") -> ratings.RatingRun:
    games = games_frame([("t", "w", "l", 1.0, handicap, winner_colour)])
    initial = pd.DataFrame({"player": ["w", "l"], "rating": [winner, loser]})
    return rate_egf(games, EgfParams(), initial)


def test_egf_even_2100_against_2100() -> None:
    run = egf_one_game(2100.0, 2100.0)
    assert row_of(run, "t", "w")["rating"] == pytest.approx(2109.306, abs=1e-3)
    assert row_of(run, "t", "l")["rating"] == pytest.approx(2091.725, abs=1e-3)
    assert contribution(run, "w", "l")["expected"] == pytest.approx(0.5, abs=1e-12)
    assert contribution(run, "w", "l")["con"] == pytest.approx(6.0 ** 1.6, rel=1e-12)


def test_egf_upset_in_an_even_game() -> None:
    # 1406.791 loses to 1072.993: -25.373 for the loser, +38.864 for the winner.
    run = egf_one_game(1072.993, 1406.791)
    assert contribution(run, "l", "w")["change"] == pytest.approx(-25.373, abs=1e-3)
    assert contribution(run, "w", "l")["change"] == pytest.approx(38.864, abs=1e-3)
    loser = row_of(run, "t", "l")
    assert loser["rating"] - loser["rating_before"] == pytest.approx(-25.373, abs=1e-3)


def test_egf_three_stone_game() -> None:
    # 600 (white) beats 39.888 (black, 3 stones): +24.739 / -22.052.
    run = egf_one_game(600.0, 39.888, handicap=3, winner_colour="w")
    assert contribution(run, "w", "l")["change"] == pytest.approx(24.739, abs=1e-3)
    assert contribution(run, "l", "w")["change"] == pytest.approx(-22.052, abs=1e-3)
    assert row_of(run, "t", "w")["rating"] == pytest.approx(624.739, abs=1e-3)
    assert row_of(run, "t", "l")["rating"] == pytest.approx(39.888 - 22.052, abs=1e-3)
    assert contribution(run, "l", "w")["handicap"] == 3
    assert contribution(run, "l", "w")["colour"] == "b"


def test_egf_one_stone_is_worth_50_points() -> None:
    # h = 1: black counts 100 (1 - 0.5) = 50 points stronger, i.e. like an even game at +50.
    shifted = egf_one_game(1000.0, 950.0, handicap=1, winner_colour="w")
    even = egf_one_game(1000.0, 1000.0)
    assert contribution(shifted, "w", "l")["expected"] == pytest.approx(
        contribution(even, "w", "l")["expected"], rel=1e-12)


def test_egf_rating_floor_is_minus_900() -> None:
    run = egf_one_game(-850.0, -890.0)
    assert row_of(run, "t", "l")["rating"] == -900.0
    assert contribution(run, "l", "w")["change"] < -10.0


def test_egf_games_of_a_tournament_use_the_input_ratings() -> None:
    games = games_frame([("t", "a", "b", 1.0, 0, "b"), ("t", "a", "c", 1.0, 0, "w")])
    initial = pd.DataFrame({"player": list("abc"), "rating": [1500.0, 1500.0, 1500.0]})
    run = rate_egf(games, EgfParams(), initial)
    one = egf_one_game(1500.0, 1500.0)
    single = row_of(one, "t", "w")["rating"] - 1500.0
    assert row_of(run, "t", "a")["rating"] == pytest.approx(1500.0 + 2 * single, rel=1e-12)
    assert row_of(run, "t", "a")["events"] == 2


def test_egf_newcomer_starts_at_initial_option() -> None:
    run = rate_egf(games_frame([("t", "x", "y", 1.0, 0, "b")]), EgfParams(initial=100.0))
    assert row_of(run, "t", "x")["rating_before"] == 100.0
    assert row_of(run, "t", "y")["rating_before"] == 100.0


def test_egf_rejects_initial_ratings_outside_the_scale() -> None:
    games = games_frame([("t", "x", "y", 1.0, 0, "b")])
    for bad in (-901.0, 3300.0):
        with pytest.raises(ratings.InputError, match="EGF ratings lie in"):
            rate_egf(games, EgfParams(), pd.DataFrame({"player": ["x"], "rating": [bad]}))


# --- Elo --------------------------------------------------------------------------------------


def test_elo_equal_players() -> None:
    run = rate_elo(games_frame([("1", "a", "b", 1.0, 0, "b")]), EloParams())
    assert row_of(run, "1", "a")["rating"] == 1510.0
    assert row_of(run, "1", "b")["rating"] == 1490.0
    assert contribution(run, "a", "b")["change"] == 10.0
    assert np.isnan(row_of(run, "1", "a")["deviation"])
    assert np.isnan(row_of(run, "1", "a")["deviation_before"])


def test_elo_period_uses_input_ratings() -> None:
    # b loses to a and beats c in the same period: both games use b's 1500.
    games = games_frame([("1", "a", "b", 1.0, 0, "b"), ("1", "b", "c", 1.0, 0, "w")])
    run = rate_elo(games, EloParams(k=32.0))
    assert row_of(run, "1", "b")["rating"] == 1500.0
    assert row_of(run, "1", "c")["rating"] == 1484.0
    assert row_of(run, "1", "b")["events"] == 2


def test_elo_handicap_points_raise_black_for_the_expectation() -> None:
    games = games_frame([("1", "w1", "b1", 1.0, 3, "w")])
    plain = rate_elo(games, EloParams())
    with_points = rate_elo(games, EloParams(handicap_points=100.0))
    assert contribution(plain, "b1", "w1")["expected"] == 0.5
    assert contribution(with_points, "b1", "w1")["expected"] == pytest.approx(
        1.0 / (1.0 + 10.0 ** (-300.0 / 400.0)), rel=1e-12)
    assert row_of(with_points, "1", "b1")["rating_before"] == 1500.0
    assert row_of(with_points, "1", "w1")["rating"] > row_of(plain, "1", "w1")["rating"]


# --- shared rules -----------------------------------------------------------------------------


def test_periods_in_order_of_first_date_and_players_carried() -> None:
    games = games_frame(
        [("A", "a", "b", 1.0, 0, "b"), ("B", "a", "c", 1.0, 0, "b"),
         ("A", "b", "c", 0.5, 0, "w")],
        dates=["2024-05-03", "2024-04-01", "2024-05-01"],
    )
    run = rate_elo(games, EloParams())
    assert list(run.ratings.columns) == list(BASELINE_RATINGS_COLUMNS)
    assert run.ratings["period"].tolist() == ["B", "B", "A", "A", "A"]
    assert run.ratings["player"].tolist() == ["a", "c", "a", "b", "c"]
    b_row = row_of(run, "B", "a")
    assert b_row["period_start"] == pd.Timestamp("2024-04-01")
    assert b_row["period_end"] == pd.Timestamp("2024-04-01")
    a_row = row_of(run, "A", "a")
    assert a_row["period_start"] == pd.Timestamp("2024-05-01")
    assert a_row["period_end"] == pd.Timestamp("2024-05-03")
    assert a_row["rating_before"] == b_row["rating"]


def test_without_dates_periods_sort_by_label_and_dates_are_nat() -> None:
    games = games_frame([("2024-06", "a", "b", 1.0, 0, "b"), ("2024-05", "c", "d", 1.0, 0, "b")])
    initial = pd.DataFrame({"player": ["e"], "rating": [1700.0]})
    run = rate_elo(games, EloParams(), initial)
    assert run.ratings["period"].unique().tolist() == ["2024-05", "2024-06"]
    carried = row_of(run, "2024-06", "c")
    assert carried["events"] == 0
    assert carried["rating"] == carried["rating_before"] == 1510.0
    assert row_of(run, "2024-05", "e")["rating"] == 1700.0
    assert row_of(run, "2024-05", "e")["events"] == 0
    assert pd.isna(carried["period_start"])
    assert pd.isna(carried["period_end"])


def test_contributions_columns_and_extras() -> None:
    games = games_frame([("1", "a", "b", 1.0, 0, "b")])
    elo = rate_elo(games, EloParams()).contributions
    egf = rate_egf(games, EgfParams()).contributions
    glicko = rate_glicko2(games, Glicko2Params()).contributions
    assert list(elo.columns) == [*BASELINE_CONTRIBUTIONS_COLUMNS, "change"]
    assert list(egf.columns) == [*BASELINE_CONTRIBUTIONS_COLUMNS, "change", "con", "bonus"]
    assert list(glicko.columns) == list(BASELINE_CONTRIBUTIONS_COLUMNS)
    assert len(elo) == 2
    assert elo["expected"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("rate, params", [
    (rate_elo, EloParams()), (rate_glicko2, Glicko2Params()), (rate_egf, EgfParams()),
])
def test_no_games_gives_empty_frames(rate: Callable[..., ratings.RatingRun],
                                     params: Any) -> None:
    run = rate(games_frame([]), params)
    assert run.ratings.empty
    assert run.contributions.empty
    assert run.normalisations.empty
    assert set(BASELINE_RATINGS_COLUMNS) <= set(run.ratings.columns)
    assert set(BASELINE_CONTRIBUTIONS_COLUMNS) <= set(run.contributions.columns)


@pytest.mark.parametrize("rate, params", [
    (rate_elo, EloParams()), (rate_glicko2, Glicko2Params()), (rate_egf, EgfParams()),
])
def test_inputs_are_not_mutated(rate: Callable[..., ratings.RatingRun], params: Any) -> None:
    games = games_frame([("1", "a", "b", 1.0, 2, "w"), ("2", "b", "c", 0.5, 0, "b")])
    initial = pd.DataFrame({"player": ["a"], "rating": [1200.0]})
    games_copy, initial_copy = games.copy(), initial.copy()
    rate(games, params, initial)
    pd.testing.assert_frame_equal(games, games_copy)
    pd.testing.assert_frame_equal(initial, initial_copy)


def test_bad_games_and_initial_frames_raise_input_error() -> None:
    with pytest.raises(ratings.InputError, match="result"):
        rate_elo(games_frame([("1", "a", "b", 2.0, 0, "b")]), EloParams())
    with pytest.raises(ratings.InputError, match="colour"):
        rate_elo(games_frame([("1", "a", "b", 1.0, 0, "x")]), EloParams())
    ok = games_frame([("1", "a", "b", 1.0, 0, "b")])
    with pytest.raises(ratings.InputError, match="listed more than once"):
        rate_elo(ok, EloParams(), pd.DataFrame({"player": ["a", "a"], "rating": [1.0, 2.0]}))
    with pytest.raises(ratings.InputError, match="deviation"):
        rate_glicko2(ok, Glicko2Params(),
                     pd.DataFrame({"player": ["a"], "rating": [1500.0], "deviation": [-1.0]}))


def test_registered_schemes_and_options() -> None:
    for name, params_type in (("elo", EloParams), ("glicko2", Glicko2Params),
                              ("egf", EgfParams)):
        scheme = ratings.SCHEMES[name]
        assert scheme.params_type is params_type
        assert scheme.defaults == params_type()
    assert ratings.SCHEMES["elo"].options() == {
        "handicap_points": "0", "initial": "1500", "k": "20", "scale": "400",
    }
    assert ratings.SCHEMES["glicko2"].options() == {
        "epsilon": "1e-06", "initial": "1500", "initial_deviation": "350",
        "initial_volatility": "0.06", "tau": "0.5",
    }
    assert ratings.parse_options("elo", {"k": "32"}).k == 32.0
    with pytest.raises(ratings.OptionError, match="tau"):
        ratings.parse_options("glicko2", {"tau": "0"})
    games = games_frame([("t", "a", "b", 1.0, 0, "b")])
    run = ratings.rate("egf", games, initial=pd.DataFrame({"player": ["a", "b"],
                                                           "rating": [2100.0, 2100.0]}))
    assert row_of(run, "t", "a")["rating"] == pytest.approx(2109.306, abs=1e-3)


# --- properties -------------------------------------------------------------------------------

PLAYERS = [f"p{i}" for i in range(6)]

SCHEMES: dict[str, tuple[Callable[..., ratings.RatingRun], Any, tuple[float, float]]] = {
    "elo": (rate_elo, EloParams(handicap_points=60.0), (1000.0, 2200.0)),
    "glicko2": (rate_glicko2, Glicko2Params(), (1000.0, 2200.0)),
    "egf": (rate_egf, EgfParams(), (-900.0, 2700.0)),
}


@st.composite
def cases(draw: st.DrawFn, scheme: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A games frame of 1-12 games in up to 3 periods, and initial ratings for some players."""
    low, high = SCHEMES[scheme][2]
    n = draw(st.integers(1, 12))
    rows = []
    for _ in range(n):
        player, opponent = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2,
                                         unique=True))
        rows.append((
            draw(st.sampled_from(["r1", "r2", "r3"])), player, opponent,
            draw(st.sampled_from([0.0, 0.5, 1.0])), draw(st.integers(0, 4)),
            draw(st.sampled_from(["b", "w"])),
        ))
    rated = draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=len(PLAYERS)))
    initial = pd.DataFrame({
        "player": rated,
        "rating": [draw(st.floats(low, high)) for _ in rated],
        "deviation": [draw(st.floats(30.0, 350.0)) for _ in rated],
    })
    return games_frame(rows), initial


def flip(games: pd.DataFrame, which: list[bool]) -> pd.DataFrame:
    """The same games, the rows in ``which`` written from the other player's side."""
    out = games.copy()
    mask = np.array(which, dtype=bool)
    out.loc[mask, "player"] = games.loc[mask, "opponent"]
    out.loc[mask, "opponent"] = games.loc[mask, "player"]
    out.loc[mask, "result"] = 1.0 - games.loc[mask, "result"]
    out.loc[mask, "colour"] = games.loc[mask, "colour"].map({"b": "w", "w": "b"})
    return out


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_order_and_perspective_of_games_do_not_matter(scheme: str, data: st.DataObject) -> None:
    rate, params, _ = SCHEMES[scheme]
    games, initial = data.draw(cases(scheme))
    order = data.draw(st.permutations(range(len(games))))
    which = data.draw(st.lists(st.booleans(), min_size=len(games), max_size=len(games)))
    shuffled = flip(games, which).iloc[list(order)].reset_index(drop=True)
    first, second = rate(games, params, initial), rate(shuffled, params, initial)
    pd.testing.assert_frame_equal(first.ratings, second.ratings, check_exact=True)
    pd.testing.assert_frame_equal(first.contributions, second.contributions, check_exact=True)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_relabelling_players_changes_nothing(scheme: str, data: st.DataObject) -> None:
    rate, params, _ = SCHEMES[scheme]
    games, initial = data.draw(cases(scheme))
    names = data.draw(st.permutations([f"q{i}" for i in range(len(PLAYERS))]))
    forward = dict(zip(PLAYERS, names, strict=True))
    back = {v: k for k, v in forward.items()}
    renamed_games = games.assign(player=games["player"].map(forward),
                                 opponent=games["opponent"].map(forward))
    renamed_initial = initial.assign(player=initial["player"].map(forward))
    first = rate(games, params, initial).ratings
    second = rate(renamed_games, params, renamed_initial).ratings
    second = second.assign(player=second["player"].map(back))
    key = ["period", "player"]
    pd.testing.assert_frame_equal(
        first.sort_values(key, ignore_index=True), second.sort_values(key, ignore_index=True),
        check_exact=True,
    )


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_win_never_rates_lower_than_a_loss(scheme: str, data: st.DataObject) -> None:
    rate, params, _ = SCHEMES[scheme]
    games, initial = data.draw(cases(scheme))
    at = data.draw(st.integers(0, len(games) - 1))
    won, lost = games.copy(), games.copy()
    won.loc[at, "result"] = 1.0
    lost.loc[at, "result"] = 0.0
    period, player = games.loc[at, "period"], games.loc[at, "player"]
    after_win = row_of(rate(won, params, initial), period, player)["rating"]
    after_loss = row_of(rate(lost, params, initial), period, player)["rating"]
    assert after_win >= after_loss


def test_glicko2_volatility_search_stops_on_diverged_ratings() -> None:
    # Step 5.2 searches a - k tau until f >= 0; with a non-finite input f is NaN for every k,
    # so the search would never end. It must stop with a clear error instead.
    from ratings._baselines import _volatility
    from ratings._errors import RatingError

    finite = np.array([0.5, 1.0])
    with pytest.raises(RatingError, match="diverged"):
        _volatility(np.array([0.3, np.nan]), finite, finite, np.array([0.06, 0.06]), 0.5, 1e-6)
    sigma = _volatility(np.array([0.3, 0.1]), finite, finite, np.array([0.06, 0.06]), 0.5, 1e-6)
    assert np.all(np.isfinite(sigma)) and np.all(sigma > 0)
