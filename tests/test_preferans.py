"""Preferans club ratings: Makarov, Shatun, the non-diverging formula (docs/rules/preferans.md).

Sections named in the tests are those of docs/rules/preferans.md.
"""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings
from ratings import InputError, OptionError
from ratings._preferans import (
    MAKAROV_CONTRIBUTIONS_COLUMNS,
    NONDIVERGING_CONTRIBUTIONS_COLUMNS,
    PREFERANS_RATINGS_COLUMNS,
    SHATUN_DEFAULTS,
    MakarovParams,
    NonDivergingParams,
    canonical_variant,
    check_games,
    rate_makarov,
    rate_nondiverging,
    reliability,
)

MAKAROV = MakarovParams()
SHATUN = SHATUN_DEFAULTS
NONDIVERGING = NonDivergingParams()


def game_rows(game: str, players: dict[str, float], *, date: str = "2021-03-01",
              variant: str = "sochi", deals: int = 30, length: float = 60.0,
              segment: int = 1) -> list[dict[str, Any]]:
    """Rows of one game (segment): ``players`` maps player -> vists."""
    return [
        {"game": game, "segment": segment, "date": date, "variant": variant, "deals": deals,
         "length": length, "player": player, "vists": vists}
        for player, vists in players.items()
    ]


def frame(*games: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([row for rows in games for row in rows])


def initial(**values: float) -> pd.DataFrame:
    return pd.DataFrame({"player": list(values), "rating": list(values.values())})


def final(run: ratings.RatingRun) -> dict[str, float]:
    return dict(zip(run.final["player"], run.final["rating"], strict=True))


def changes(run: ratings.RatingRun) -> dict[str, float]:
    c = run.contributions
    return dict(zip(c["player"], c["change"], strict=True))


# --- golden games, arithmetic by hand (docs/rules/preferans.md "Makarov", "Shatun's correction",
# --- "Non-diverging handicap formula") ----------------------------------------------------------


def test_golden_makarov_sochi() -> None:
    # L = 71 = A: reliability 71^2/(71^2 + 71^2) = 0.5; s = 1 -> a = 0.5, b = a/100 = 0.005,
    # b L = 0.355. Rs = (1100 + 1000 + 900)/3 = 1000.
    # A: 0.5 * 20 - 0.355 * (1100 - 1000) = 10 - 35.5 = -25.5
    # B: 0.5 * -5 - 0.355 * 0 = -2.5
    # C: 0.5 * -15 - 0.355 * (900 - 1000) = -7.5 + 35.5 = 28
    games = frame(game_rows("1", {"A": 20, "B": -5, "C": -15}, length=71.0, deals=40))
    run = rate_makarov(games, MAKAROV, initial(A=1100, B=1000, C=900))
    assert changes(run) == pytest.approx({"A": -25.5, "B": -2.5, "C": 28.0}, abs=1e-12)
    assert final(run) == pytest.approx({"A": 1074.5, "B": 997.5, "C": 928.0}, abs=1e-12)
    row = run.contributions.iloc[0]
    assert row["a"] == pytest.approx(0.5)
    assert row["b"] == pytest.approx(0.005)
    assert row["rs"] == pytest.approx(1000.0)
    assert row["s"] == 1.0
    assert row["variant"] == "sochi"


def test_golden_makarov_rostov() -> None:
    # L = 142 = 2A: reliability 0.8; s = 0.67 -> a = 0.536, b = 0.00536, b L = 0.76112.
    # Rs = (1050 + 1000 + 950)/3 = 1000.
    # A: 0.536 * 10 - 0.76112 * 50 = 5.36 - 38.056 = -32.696
    # B: 0.536 * 0 = 0
    # C: 0.536 * -10 + 0.76112 * 50 = -5.36 + 38.056 = 32.696
    games = frame(game_rows("1", {"A": 10, "B": 0, "C": -10}, variant="Ростов", length=142.0))
    run = rate_makarov(games, MAKAROV, initial(A=1050, B=1000, C=950))
    assert changes(run) == pytest.approx({"A": -32.696, "B": 0.0, "C": 32.696}, abs=1e-9)
    assert run.contributions["a"].iloc[0] == pytest.approx(0.536)
    assert run.contributions["variant"].tolist() == ["rostov"] * 3


def test_golden_shatun_leningrad() -> None:
    # Shatun: n = 25 = A: reliability 0.5; s = 0.5 -> a = 0.25, b = 0.0025, b n = 0.0625
    # (the length, 300, is not used). Rs = (1200 + 1000 + 800)/3 = 1000.
    # A: 0.25 * 30 - 0.0625 * 200 = 7.5 - 12.5 = -5
    # B: 0.25 * -10 = -2.5
    # C: 0.25 * -20 + 0.0625 * 200 = -5 + 12.5 = 7.5
    games = frame(game_rows("1", {"A": 30, "B": -10, "C": -20}, variant="Питер", deals=25,
                            length=300.0))
    run = rate_makarov(games, SHATUN, initial(A=1200, B=1000, C=800))
    assert changes(run) == pytest.approx({"A": -5.0, "B": -2.5, "C": 7.5}, abs=1e-12)
    assert run.contributions["variant"].tolist() == ["leningrad"] * 3


def test_golden_makarov_leningrad_four_players() -> None:
    # Four seated players (a sitting-out dealer): Rs = (1040 + 1000 + 980 + 980)/4 = 1000.
    # L = 35.5 = A/2: reliability 0.2; s = 0.5 -> a = 0.1, b = 0.001, b L = 0.0355.
    # A: 0.1 * 12 - 0.0355 * 40 = 1.2 - 1.42 = -0.22
    # B: 0.1 * 4 - 0 = 0.4
    # C: 0.1 * -6 + 0.0355 * 20 = -0.6 + 0.71 = 0.11
    # D: 0.1 * -10 + 0.0355 * 20 = -1 + 0.71 = -0.29
    games = frame(game_rows("1", {"A": 12, "B": 4, "C": -6, "D": -10}, variant="leningrad",
                            length=35.5))
    run = rate_makarov(games, MAKAROV, initial(A=1040, B=1000, C=980, D=980))
    assert changes(run) == pytest.approx({"A": -0.22, "B": 0.4, "C": 0.11, "D": -0.29},
                                         abs=1e-12)


def test_golden_nondiverging_sochi() -> None:
    # n = N = 100: f = 1 - e^-1. Rs = (2 + 0 - 2)/3 = 0; s v/n = 3, -1, -2.
    # A: f (3 + 0 - 2) = f;  B: f (-1 + 0 - 0) = -f;  C: f (-2 + 0 + 2) = 0
    f = 1.0 - math.exp(-1.0)
    games = frame(game_rows("1", {"A": 300, "B": -100, "C": -200}, deals=100))
    run = rate_nondiverging(games, NONDIVERGING, initial(A=2, B=0, C=-2))
    assert changes(run) == pytest.approx({"A": f, "B": -f, "C": 0.0}, abs=1e-12)
    assert final(run) == pytest.approx({"A": 2 + f, "B": -f, "C": -2.0}, abs=1e-12)
    assert run.contributions["f"].iloc[0] == pytest.approx(f)


def test_golden_nondiverging_rostov_and_leningrad() -> None:
    # Rostov, n = 50, everyone at R0 = 0: f = 1 - e^-0.5; s v/n = 0.67 * (50, -20, -30)/50
    # = 0.67, -0.268, -0.402; the handicap is 0.
    f = 1.0 - math.exp(-0.5)
    games = frame(game_rows("1", {"A": 50, "B": -20, "C": -30}, variant="Ростовка", deals=50))
    run = rate_nondiverging(games, NONDIVERGING)
    assert changes(run) == pytest.approx({"A": 0.67 * f, "B": -0.268 * f, "C": -0.402 * f},
                                         abs=1e-12)
    # Leningrad, n = 200, start 1, 1, -2 (Rs = 0): f = 1 - e^-2; s v/n = 0.5 * (40, 0, -40)/200
    # = 0.1, 0, -0.1. A: f (0.1 + 0 - 1) = -0.9 f; B: f (0 - 1) = -f; C: f (-0.1 + 2) = 1.9 f
    g = 1.0 - math.exp(-2.0)
    games = frame(game_rows("1", {"A": 40, "B": 0, "C": -40}, variant="Ленинградка",
                            deals=200))
    run = rate_nondiverging(games, NONDIVERGING, initial(A=1, B=1, C=-2))
    assert changes(run) == pytest.approx({"A": -0.9 * g, "B": -g, "C": 1.9 * g}, abs=1e-12)


def test_golden_sequential_second_game_sees_the_first() -> None:
    # Game 1 as in test_golden_makarov_sochi: A 1100 -> 1074.5, B 1000 -> 997.5.
    # Game 2 (same day, later id) A, B, D (1000): Rs = (1074.5 + 997.5 + 1000)/3 = 1024,
    # L = 71 -> a = 0.5, b L = 0.355; vists 0, 6, -6.
    # A: 0 - 0.355 * (1074.5 - 1024) = -17.9275
    # B: 3 - 0.355 * (997.5 - 1024) = 3 + 9.4075 = 12.4075
    # D: -3 - 0.355 * (1000 - 1024) = -3 + 8.52 = 5.52
    games = frame(game_rows("1", {"A": 20, "B": -5, "C": -15}, length=71.0),
                  game_rows("2", {"A": 0, "B": 6, "D": -6}, length=71.0))
    run = rate_makarov(games, MAKAROV, initial(A=1100, B=1000, C=900))
    second = run.contributions[run.contributions["game"] == "2"]
    assert second["rating_before"].tolist() == pytest.approx([1074.5, 997.5, 1000.0])
    assert second["rs"].tolist() == pytest.approx([1024.0] * 3)
    assert second["change"].tolist() == pytest.approx([-17.9275, 12.4075, 5.52], abs=1e-9)
    assert final(run) == pytest.approx(
        {"A": 1056.5725, "B": 1009.9075, "C": 928.0, "D": 1005.52}, abs=1e-9)


# --- Makarov: reliability and zero-length games (docs/rules/preferans.md "Makarov") ---------------------------------


def test_makarov_reliability_values() -> None:
    assert reliability([35.5, 71.0, 142.0], 71.0).tolist() == pytest.approx([0.2, 0.5, 0.8])
    games = frame(*(game_rows(str(i), {"A": 3, "B": -1, "C": -2}, length=length)
                    for i, length in enumerate((35.5, 71.0, 142.0))))
    a = rate_makarov(games, MAKAROV).contributions.groupby("game", sort=True)["a"].first()
    assert a.tolist() == pytest.approx([0.2, 0.5, 0.8])


def test_makarov_zero_length_changes_nothing_shatun_does() -> None:
    # docs/rules/preferans.md "Makarov": games ending at zero pulka length change nothing; Shatun's correction
    # counts them by deals.
    games = frame(game_rows("1", {"A": 40, "B": -10, "C": -30}, length=0.0, deals=30))
    assert set(changes(rate_makarov(games, MAKAROV)).values()) == {0.0}
    assert changes(rate_makarov(games, SHATUN))["A"] > 0


# --- divergence and convergence (docs/rules/preferans.md "Shatun's correction", "Non-diverging ...") ---------------


def _long_game(deals: int, length: float, vists_a: float = 0.0) -> pd.DataFrame:
    # A (1000) at v = 0 against two players at 1300: Rs = 1200.
    return frame(game_rows("1", {"A": vists_a, "B": -vists_a / 2, "C": -vists_a / 2},
                           deals=deals, length=length))


FIELD = initial(A=1000, B=1300, C=1300)
RS = 1200.0


@pytest.mark.parametrize("params, long", [(MAKAROV, "length"), (SHATUN, "deals")])
def test_divergent_formulas_overshoot_the_field(params: MakarovParams, long: str) -> None:
    # docs/rules/preferans.md "Shatun's correction", problem 2: dR = b m (Rs - R) grows linearly with m, so a long
    # game at v = 0 takes the player past the field's mean, further the longer the game.
    after = []
    for m in (200, 400, 800):
        games = _long_game(deals=m if long == "deals" else 30,
                           length=m if long == "length" else 60.0)
        after.append(final(rate_makarov(games, params, FIELD))["A"])
    assert all(r > RS for r in after)
    assert after[0] < after[1] < after[2]
    assert after[2] > RS + 1000


def test_nondiverging_converges_without_overshoot() -> None:
    # docs/rules/preferans.md "Non-diverging": R+ -> Rs + s v/n as n grows, never past it.
    # v = 0: the target is Rs.
    after = [final(rate_nondiverging(_long_game(n, 0.0), NONDIVERGING, FIELD))["A"]
             for n in (10, 100, 1000, 5000)]
    assert all(1000 < r <= RS for r in after)  # never past the field's mean
    assert after == sorted(after)
    assert after[:3] == pytest.approx([RS - 200 * math.exp(-n / 100) for n in (10, 100, 1000)])
    assert after[-1] == pytest.approx(RS, abs=1e-9)
    # v/n = 0.5 (A wins 0.5 vists a deal): target Rs + 1 * 0.5.
    for n in (100, 1000, 4000):
        r = final(rate_nondiverging(_long_game(n, 0.0, vists_a=0.5 * n), NONDIVERGING,
                                    FIELD))["A"]
        target = RS + 0.5
        assert 1000 < r <= target
        assert target - r == pytest.approx((target - 1000) * math.exp(-n / 100), abs=1e-9)


def test_nondiverging_at_own_level_moves_by_vist_rate() -> None:
    # docs/rules/preferans.md "Non-diverging": with Rs = R the change is f * s * v / n.
    games = frame(game_rows("1", {"A": 60, "B": -30, "C": -30}, deals=30, variant="rostov"))
    f = 1 - math.exp(-0.3)
    assert changes(rate_nondiverging(games, NONDIVERGING))["A"] == pytest.approx(f * 0.67 * 2)


# --- substitutions: segments (docs/rules/preferans.md "Substitutions", "Non-diverging": additive) -----------------


def _split(segments: tuple[int, ...]) -> pd.DataFrame:
    # Constant vist rates 1.5, -0.5, -1 per deal, length 2 points a deal.
    return frame(*(
        game_rows("7", {"A": 1.5 * n, "B": -0.5 * n, "C": -1.0 * n}, deals=n,
                  length=2.0 * n, segment=k)
        for k, n in enumerate(segments, start=1)
    ))


def test_splitting_a_game_is_neutral_for_nondiverging_only() -> None:
    start = initial(A=3.0, B=-1.0, C=-2.0)
    whole = final(rate_nondiverging(_split((60,)), NONDIVERGING, start))
    split = final(rate_nondiverging(_split((24, 36)), NONDIVERGING, start))
    assert split == pytest.approx(whole, abs=1e-9)

    start = initial(A=1100.0, B=1000.0, C=900.0)
    whole = final(rate_makarov(_split((60,)), MAKAROV, start))
    split = final(rate_makarov(_split((24, 36)), MAKAROV, start))
    assert abs(split["A"] - whole["A"]) > 1.0


def test_segments_are_separate_events() -> None:
    run = rate_makarov(_split((24, 36)), MAKAROV)
    assert run.contributions["segment"].tolist() == [1, 1, 1, 2, 2, 2]
    assert run.contributions["deals"].tolist() == [24] * 3 + [36] * 3
    assert run.ratings["events"].tolist() == [2, 2, 2]
    assert run.ratings["deals"].tolist() == [60, 60, 60]
    assert run.ratings["vists"].tolist() == pytest.approx([90.0, -30.0, -60.0])


# --- conservation (docs/rules/preferans.md "Shatun's correction": both conserve; "Non-diverging": conserves) ----

POOL = ("ann", "bob", "cid", "dan", "eve", "fay")


@st.composite
def games_frames(draw: st.DrawFn) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for number in range(draw(st.integers(1, 12))):
        players = draw(st.lists(st.sampled_from(POOL), min_size=3, max_size=4, unique=True))
        vists = [draw(st.integers(-300, 300)) for _ in players[1:]]
        # docs/rules/preferans.md "Input validation": a sum off by at most 0.5 is accepted (rounded inputs)
        off = draw(st.sampled_from((0.0, 0.25, -0.5, 0.5)))
        vists = [-sum(vists) + off, *vists]
        rows += game_rows(
            str(number), dict(zip(players, vists, strict=True)),
            date=str(pd.Timestamp("2021-01-01") + pd.Timedelta(days=draw(st.integers(0, 150))))[
                :10],
            variant=draw(st.sampled_from(("sochi", "rostov", "leningrad"))),
            deals=draw(st.integers(1, 150)), length=float(draw(st.integers(0, 150))),
            segment=draw(st.integers(1, 2)),
        )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("order", ["sequential", "period"])
@pytest.mark.parametrize("scheme", ["makarov", "shatun", "nondiverging"])
@settings(max_examples=40, deadline=None)
@given(games=games_frames())
def test_total_rating_is_conserved(scheme: str, order: str, games: pd.DataFrame) -> None:
    run = ratings.rate(scheme, games, options={"order": order})
    r0 = float(ratings.SCHEMES[scheme].defaults.R0)
    players = run.final
    total = float(players["rating"].sum())
    scale = float(players["rating"].abs().sum()) + abs(r0) * len(players)
    assert total == pytest.approx(r0 * len(players), abs=1e-9 * scale + 1e-9)
    # every period's list conserves too
    for _, chunk in run.ratings.groupby("period"):
        assert float(chunk["rating"].sum()) == pytest.approx(
            r0 * len(chunk), abs=1e-9 * (float(chunk["rating"].abs().sum()) + 1))
    # each game's changes sum to zero
    sums = run.contributions.groupby(["game", "segment"])["change"].sum()
    assert sums.abs().max() <= 1e-9 * scale + 1e-9


# --- order of application (contract "Games frame") -----------------------------------------------


def _three_games() -> pd.DataFrame:
    return frame(
        game_rows("10", {"A": 30, "B": -10, "C": -20}, date="2021-03-02", length=80.0),
        game_rows("9", {"A": -12, "B": 20, "D": -8}, date="2021-03-02", length=50.0),
        game_rows("11", {"A": 5, "C": -5, "D": 0}, date="2021-03-01", length=90.0),
        game_rows("9", {"A": 4, "B": 2, "D": -6}, date="2021-03-02", length=20.0, segment=2),
    )


def test_games_applied_in_date_game_segment_order() -> None:
    games = _three_games()
    run = rate_makarov(games, MAKAROV)
    order = run.contributions[["game", "segment"]].drop_duplicates()
    assert list(map(tuple, order.to_numpy().tolist())) == [
        ("11", 1), ("9", 1), ("9", 2), ("10", 1)]
    # The same games rated one at a time, in that order, each from the previous final ratings.
    carried: pd.DataFrame | None = None
    for game, segment in [("11", 1), ("9", 1), ("9", 2), ("10", 1)]:
        one = games[(games["game"] == game) & (games["segment"] == segment)]
        step = rate_makarov(one, MAKAROV, carried)
        carried = step.final
    assert final(run) == pytest.approx(final(step), abs=1e-12)


def test_row_order_does_not_matter() -> None:
    games = _three_games()
    shuffled = games.sample(frac=1.0, random_state=3).reset_index(drop=True)
    for scheme in ("makarov", "shatun", "nondiverging"):
        for order in ("sequential", "period"):
            a = ratings.rate(scheme, games, options={"order": order})
            b = ratings.rate(scheme, shuffled, options={"order": order})
            pd.testing.assert_frame_equal(a.ratings, b.ratings)
            pd.testing.assert_frame_equal(a.contributions, b.contributions)


def test_order_period_rates_every_game_from_the_period_start() -> None:
    # Two March games of A against the same field: with order=period both start from 1000s
    # (a = 0.5 at L = 71, no handicap at equal ratings: change = 0.5 v); sequentially the second
    # sees the first's result.
    games = frame(game_rows("1", {"A": 20, "B": -10, "C": -10}, length=71.0),
                  game_rows("2", {"A": 20, "B": -10, "C": -10}, length=71.0))
    period = rate_makarov(games, MakarovParams(order="period"))
    assert period.contributions["rating_before"].tolist() == [1000.0] * 6
    assert period.contributions["change"].tolist() == pytest.approx([10, -5, -5] * 2)
    assert final(period) == pytest.approx({"A": 1020.0, "B": 990.0, "C": 990.0})
    sequential = rate_makarov(games, MAKAROV)
    # second game: Rs = 1000, A at 1010: 10 - 0.355 * 10 = 6.45
    assert sequential.contributions["change"].iloc[3] == pytest.approx(6.45)
    assert final(sequential)["A"] == pytest.approx(1016.45)


def test_order_period_overshoots_where_sequential_converges() -> None:
    # Module docstring, "Order of application": three 100-deal games at v = 0 of A (0) against
    # B and C (3 each, Rs = 2) in one month. Sequentially A approaches Rs from below; with
    # order=period each game closes the same gap: 3 f (Rs - R) = 3 * 0.632 * 2 = 3.79 > 2.
    games = frame(*(game_rows(str(g), {"A": 0, "B": 0, "C": 0}, deals=100) for g in (1, 2, 3)))
    start = initial(A=0.0, B=3.0, C=3.0)
    f = 1 - math.exp(-1)
    sequential = final(rate_nondiverging(games, NONDIVERGING, start))["A"]
    period = final(rate_nondiverging(games, NonDivergingParams(order="period"), start))["A"]
    assert sequential < 2.0
    assert period == pytest.approx(3 * f * 2.0)
    assert period > 2.0


# --- the ratings frame --------------------------------------------------------------------------


def test_ratings_frame_per_month_with_carried_players() -> None:
    games = frame(game_rows("1", {"A": 20, "B": -10, "C": -10}, date="2021-01-15",
                            length=71.0, deals=33),
                  game_rows("2", {"A": 4, "B": -2, "D": -2}, date="2021-03-03",
                            length=71.0, deals=20))
    run = rate_makarov(games, MAKAROV, initial(Z=1234.0))
    r = run.ratings
    assert tuple(r.columns) == PREFERANS_RATINGS_COLUMNS
    assert r["period"].tolist() == ["2021-01"] * 4 + ["2021-02"] * 4 + ["2021-03"] * 5
    assert r["player"].tolist() == ["A", "B", "C", "Z"] * 2 + ["A", "B", "C", "D", "Z"]
    jan, feb, mar = r.iloc[:4], r.iloc[4:8], r.iloc[8:]
    assert jan["events"].tolist() == [1, 1, 1, 0]
    assert jan["deals"].tolist() == [33, 33, 33, 0]
    assert jan["vists"].tolist() == [20.0, -10.0, -10.0, 0.0]
    assert jan["rating"].tolist() == pytest.approx([1010.0, 995.0, 995.0, 1234.0])
    assert feb["events"].tolist() == [0, 0, 0, 0]
    assert feb["rating_before"].tolist() == jan["rating"].tolist()
    assert feb["rating"].tolist() == jan["rating"].tolist()
    assert mar["events"].tolist() == [1, 1, 0, 1, 0]
    assert mar["rating_before"].tolist() == pytest.approx([1010.0, 995.0, 995.0, 1000.0, 1234.0])
    assert str(mar["period_start"].iloc[0].date()) == "2021-03-01"
    assert str(mar["period_end"].iloc[0].date()) == "2021-03-31"
    assert tuple(run.contributions.columns) == MAKAROV_CONTRIBUTIONS_COLUMNS
    assert tuple(rate_nondiverging(games, NONDIVERGING).contributions.columns) == \
        NONDIVERGING_CONTRIBUTIONS_COLUMNS
    assert run.normalisations.empty


def test_period_option_quarter() -> None:
    games = frame(game_rows("1", {"A": 2, "B": -1, "C": -1}, date="2021-01-15"),
                  game_rows("2", {"A": 2, "B": -1, "C": -1}, date="2021-05-15"))
    run = rate_nondiverging(games, NonDivergingParams(period="quarter"))
    assert run.ratings["period"].drop_duplicates().tolist() == ["2021Q1", "2021Q2"]


def test_inputs_are_not_modified() -> None:
    games = _three_games()
    copy = games.copy()
    rate_makarov(games, MAKAROV)
    check_games(games)
    pd.testing.assert_frame_equal(games, copy)


def test_empty_games() -> None:
    empty = pd.DataFrame(columns=["game", "date", "variant", "deals", "length", "player",
                                  "vists"])
    run = rate_nondiverging(empty, NONDIVERGING)
    assert run.ratings.empty
    assert tuple(run.contributions.columns) == NONDIVERGING_CONTRIBUTIONS_COLUMNS


# --- the games frame: spellings and validation (docs/rules/preferans.md "Input validation") ------------------------


@pytest.mark.parametrize("text, variant", [
    ("Sochi", "sochi"), ("СОЧИ", "sochi"), ("Сочинка", "sochi"), ("сочинский преферанс", "sochi"),
    ("rostov", "rostov"), ("Ростов", "rostov"), ("ростовка", "rostov"),
    ("Leningrad", "leningrad"), ("ленинград", "leningrad"), ("Питер", "leningrad"),
    ("Ленинградка", "leningrad"), ("piter", "leningrad"),
])
def test_variant_spellings(text: str, variant: str) -> None:
    assert canonical_variant(text) == variant


def test_check_games_canonicalises_and_sorts() -> None:
    games = frame(game_rows(" 10", {"B": 1, "A": -1, "C": 0}, variant=" Сочинка "),
                  game_rows("9", {"A": 0, "B": 0, "C": 0}, variant="ПИТЕР", deals=12))
    games = games.drop(columns="segment")
    out = check_games(games)
    assert out.columns.tolist() == ["game", "segment", "date", "variant", "deals", "length",
                                    "player", "vists"]
    assert out["game"].tolist() == ["9"] * 3 + ["10"] * 3
    assert out["player"].tolist() == ["A", "B", "C"] * 2
    assert out["variant"].tolist() == ["leningrad"] * 3 + ["sochi"] * 3
    assert out["segment"].tolist() == [1] * 6
    assert out["deals"].tolist() == [12] * 3 + [30] * 3
    assert out["vists"].tolist() == [0.0, 0.0, 0.0, -1.0, 1.0, 0.0]


def test_dates_iso_or_day_month_year() -> None:
    games = frame(game_rows("1", {"A": 1, "B": -1, "C": 0}, date="05.03.2021"),
                  game_rows("2", {"A": 1, "B": -1, "C": 0}, date="2021-03-04"))
    out = check_games(games)
    assert out["game"].tolist() == ["2"] * 3 + ["1"] * 3
    assert [str(d.date()) for d in out["date"]] == ["2021-03-04"] * 3 + ["2021-03-05"] * 3


def test_games_read_from_csv_with_numeric_ids() -> None:
    text = ("game,date,variant,deals,length,player,vists\n"
            "10,2021-03-01,Сочи,30,60,ann,12\n10,2021-03-01,Сочи,30,60,bob,-12\n"
            "10,2021-03-01,Сочи,30,60,cid,0\n9,2021-03-01,Сочи,20,40,ann,-3\n"
            "9,2021-03-01,Сочи,20,40,bob,1.5\n9,2021-03-01,Сочи,20,40,cid,1.5\n")
    games = pd.read_csv(io.StringIO(text))
    run = ratings.rate("makarov", games)
    assert run.contributions["game"].tolist() == ["9"] * 3 + ["10"] * 3
    assert run.contributions["vists"].tolist() == [-3.0, 1.5, 1.5, 12.0, -12.0, 0.0]


def _problem(games: pd.DataFrame) -> str:
    with pytest.raises(InputError) as caught:
        check_games(games)
    assert caught.value.frame == "games"
    assert str(caught.value) == f"games frame: {caught.value.problem}"
    return caught.value.problem


def _one(**changes: Any) -> pd.DataFrame:
    games = frame(game_rows("1042", {"A": 10, "B": -4, "C": -6}, segment=2))
    for column, (row, value) in changes.items():
        games[column] = games[column].astype(object)
        games.loc[row, column] = value
    return games


def test_vists_must_sum_to_zero() -> None:
    assert _problem(_one(vists=(0, 13.5))) == \
        "game '1042' segment 2: vists sum to 3.5, must be 0 (within 0.5)"
    assert _problem(_one(vists=(0, 9.25))) == \
        "game '1042' segment 2: vists sum to -0.75, must be 0 (within 0.5)"
    assert check_games(_one(vists=(0, 10.5)))["vists"].sum() == 0.5  # within the tolerance


def test_deals_length_variant_players_rules() -> None:
    deals = _one(deals=(0, 0))
    deals["deals"] = 0
    assert _problem(deals) == "game '1042' segment 2: deals 0, must be a whole number >= 1"
    deals["deals"] = 10.5
    assert _problem(deals) == "game '1042' segment 2: deals 10.5, must be a whole number >= 1"
    length = _one()
    length["length"] = -3.0
    assert _problem(length) == "game '1042' segment 2: length -3, must be >= 0"
    variant = _one()
    variant["variant"] = "poker"
    assert _problem(variant) == ("game '1042' segment 2: unknown variant 'poker'; known "
                                 "variants: sochi, rostov, leningrad")
    twice = _one(player=(2, "A"), vists=(0, 4))
    assert _problem(twice) == "game '1042' segment 2: player 'A' is listed twice"


def test_rows_of_a_segment_must_agree() -> None:
    assert _problem(_one(deals=(1, 31))) == \
        "game '1042' segment 2: rows disagree on deals: 30, 31"
    assert _problem(_one(date=(2, "2021-03-02"))) == \
        "game '1042' segment 2: rows disagree on date: 2021-03-01, 2021-03-02"
    assert _problem(_one(variant=(0, "rostov"))) == \
        "game '1042' segment 2: rows disagree on variant: rostov, sochi"
    assert _problem(_one(length=(0, 61.5))) == \
        "game '1042' segment 2: rows disagree on length: 60, 61.5"
    # spellings of one variant agree
    assert check_games(_one(variant=(0, "Сочи")))["variant"].tolist() == ["sochi"] * 3


def test_unreadable_cells() -> None:
    assert _problem(_one(vists=(1, "abc"))) == \
        "game '1042' segment 2: vists 'abc' is not a number"
    assert _problem(_one(deals=(1, None))) == "game '1042' segment 2: no deals"
    assert _problem(_one(date=(0, "soon"))) == "game '1042' segment 2: date 'soon' is not a date"
    assert _problem(_one(player=(1, " "))) == "row 1: column 'player' is empty"
    assert _problem(_one(segment=(0, 0))) == "game '1042': segment 0 must be a whole number >= 1"
    assert _problem(_one().drop(columns=["vists", "length"])) == (
        "missing columns ['length', 'vists']; expected game, date, variant, deals, length, "
        "player, vists[, segment]")


def test_the_first_bad_game_is_named() -> None:
    games = frame(game_rows("5", {"A": 1, "B": 1, "C": 1}),
                  game_rows("3", {"A": 2, "B": 0, "C": 0}))
    assert _problem(games) == "game '3' segment 1: vists sum to 2, must be 0 (within 0.5)"


def test_initial_ratings_checked() -> None:
    games = _one()
    with pytest.raises(InputError, match="player 'A' has rating 'x'"):
        rate_nondiverging(games, NONDIVERGING, initial(A=0.0).assign(rating=["x"]))
    # negative ratings are fine for the non-diverging scale (R0 = 0)
    run = rate_nondiverging(games, NONDIVERGING, initial(A=-3.0))
    assert run.contributions["rating_before"].tolist() == [-3.0, 0.0, 0.0]


# --- registry and options -----------------------------------------------------------------------


def test_registered_schemes_and_options() -> None:
    assert ratings.SCHEMES["makarov"].options() == {
        "A": "71", "B": "100", "R0": "1000", "duration": "length", "order": "sequential",
        "period": "month", "s_leningrad": "0.5", "s_rostov": "0.67", "s_sochi": "1"}
    assert ratings.SCHEMES["shatun"].options()["duration"] == "deals"
    assert ratings.SCHEMES["shatun"].options()["A"] == "25"
    assert ratings.SCHEMES["nondiverging"].options() == {
        "N": "100", "R0": "0", "order": "sequential", "period": "month",
        "s_leningrad": "0.5", "s_rostov": "0.67", "s_sochi": "1"}
    params = ratings.parse_options("nondiverging", {"N": "50", "order": "period"})
    assert params == NonDivergingParams(N=50.0, order="period")
    assert ratings.parse_options("shatun", ratings.params_to_options(SHATUN)) == SHATUN
    with pytest.raises(OptionError, match="invalid value 'weekly' for option 'period'"):
        ratings.parse_options("makarov", {"period": "weekly"})
    with pytest.raises(OptionError, match="invalid value '0' for option 'N'"):
        ratings.parse_options("nondiverging", {"N": "0"})


def test_option_s_changes_the_variant_coefficient() -> None:
    games = frame(game_rows("1", {"A": 60, "B": -30, "C": -30}, variant="rostov", deals=30))
    base = changes(ratings.rate("nondiverging", games))["A"]
    other = changes(ratings.rate("nondiverging", games, options={"s_rostov": "0.7"}))["A"]
    assert other / base == pytest.approx(0.7 / 0.67)


def test_sequential_loop_matches_a_direct_formula() -> None:
    # The list-based loop against a straightforward evaluation over random 3- and 4-player games.
    rng = np.random.default_rng(5)
    rows = []
    for g in range(300):
        k = 3 + int(rng.random() < 0.3)
        players = rng.choice(12, size=k, replace=False)
        v = rng.integers(-50, 50, size=k).astype(float)
        v[-1] -= v.sum()
        rows += game_rows(f"{g:04d}", {f"p{p:02d}": float(x) for p, x in zip(players, v)},
                          date="2021-02-01", deals=int(rng.integers(1, 80)),
                          length=float(rng.integers(0, 120)),
                          variant=str(rng.choice(["sochi", "rostov", "leningrad"])))
    games = pd.DataFrame(rows)
    s_of = {"sochi": 1.0, "rostov": 0.67, "leningrad": 0.5}
    R: dict[str, float] = {}
    for _, game in check_games(games).groupby("game", sort=True):
        before = {p: R.get(p, 0.0) for p in game["player"]}
        rs = sum(before.values()) / len(before)
        n = float(game["deals"].iloc[0])
        f = 1 - math.exp(-n / 100)
        s = s_of[game["variant"].iloc[0]]
        for p, v in zip(game["player"], game["vists"], strict=True):
            R[p] = before[p] + f * (s * v / n + rs - before[p])
    assert final(rate_nondiverging(games, NONDIVERGING)) == pytest.approx(R, abs=1e-9)
