"""WHR's constants learned from a history (docs/rules/bridge-whr.md §13): out of sample,
deterministic, inside their ranges, only what is not set; and what a newcomer prior and a
first-year drift do to the fit (§2)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ratings
from quality.federation import FederationSettings, simulate
from ratings import _whr_learn

SMALL = FederationSettings(clubs=3, players_per_club=(14, 18), years=2, newcomer_gap=150.0,
                           newcomer_rate=0.08, congress_every_weeks=6, seed=5)
"""A small federation whose newcomers start well below their clubs (150 points)."""


@pytest.fixture(scope="module")
def results() -> pd.DataFrame:
    return simulate(SMALL).results


@pytest.fixture(scope="module")
def learned(results: pd.DataFrame) -> ratings.WhrLearning:
    return ratings.learn_whr(results, ratings.WhrParams())


def test_learning_lowers_the_out_of_sample_loss_and_records_what_it_did(
        learned: ratings.WhrLearning) -> None:
    assert learned.learned == ratings.WHR_LEARNABLE
    assert learned.reason == ""
    assert learned.through == "2017Q4"
    assert learned.origins == ("2017Q1", "2017Q2", "2017Q3", "2017Q4")
    assert learned.pairs > 1000
    assert learned.loss <= learned.start_loss < math.log(2.0)
    for name in ratings.WHR_LEARNABLE:
        low, high = _whr_learn._BOUNDS[name]
        assert low <= getattr(learned.params, name) <= high
    # everything else of the params is kept
    assert dataclasses.replace(learned.params, **{
        n: getattr(ratings.WhrParams(), n) for n in ratings.WHR_LEARNABLE}) == ratings.WhrParams()
    assert "learned through 2017Q4" in learned.summary()


def test_weaker_newcomers_are_learned_as_weaker(learned: ratings.WhrLearning) -> None:
    # SMALL's newcomers start 150 points (about two thirds of a class) below their clubs
    assert learned.params.newcomer < 480


def test_learning_is_deterministic(results: pd.DataFrame,
                                   learned: ratings.WhrLearning) -> None:
    again = ratings.learn_whr(results.sample(frac=1.0, random_state=3), ratings.WhrParams())
    assert again.params == learned.params
    assert again.loss == pytest.approx(learned.loss, abs=1e-9)


def test_a_constant_set_is_not_learned(results: pd.DataFrame) -> None:
    params = ratings.WhrParams(drift=11.0)
    out = ratings.learn_whr(results, params, fixed=("drift",), max_evaluations=6)
    assert "drift" not in out.learned and out.params.drift == 11.0
    nothing = ratings.learn_whr(results, params, fixed=ratings.WHR_LEARNABLE)
    assert nothing.params == params and nothing.reason == "every constant is set"


def test_too_short_a_history_keeps_the_values_as_set(results: pd.DataFrame) -> None:
    out = ratings.learn_whr(results, ratings.WhrParams(), through="2016Q3")
    assert out.params == ratings.WhrParams() and out.learned == ()
    assert out.reason == "fewer than 4 periods of results"


def test_the_score_is_the_loss_of_a_fit_of_the_past_only(results: pd.DataFrame) -> None:
    """§13 step 2: the score of an origin is the log loss of its pairs predicted from a fit
    of the results before it, written out here with rate_whr."""
    params = ratings.WhrParams(newcomer=450.0)
    dates = pd.to_datetime(results["date"])
    quarters = dates.dt.to_period("Q")
    checked = ratings._frames.check_results(results)
    period = pd.DatetimeIndex(checked["date"]).to_period("Q")
    row_period = np.asarray(period.asi8 - period.min().ordinal)
    index = int(row_period.max())
    origin = _whr_learn._origin(checked, row_period, index, "2017Q4", params,
                                ratings._frames.check_initial(None))
    assert origin is not None
    loss, _ = _whr_learn._loss([origin], params)

    past = results[(quarters < pd.Period("2017Q4", "Q")).to_numpy()]
    fitted = ratings.rate_whr(past, params).ratings
    latest = fitted.groupby("player")["rating"].last()
    test = results[(quarters == pd.Period("2017Q4", "Q")).to_numpy()]
    rating = test["player"].astype(str).map(latest.rename(index=str)).fillna(450.0)
    units = test.assign(rating=rating.to_numpy()).groupby(["event_id", "unit"]).agg(
        rating=("rating", "mean"), place=("place", "first")).reset_index()
    pairs = units.merge(units, on="event_id", suffixes=("_a", "_b"))
    pairs = pairs[pairs["place_a"] < pairs["place_b"]]
    p = ratings.whr_probability(pairs["rating_a"], pairs["rating_b"])
    assert len(pairs) == len(origin.a)
    assert loss / len(pairs) == pytest.approx(float(-np.log(p).mean()), abs=2e-3)


def test_newcomer_prior_and_first_year_drift_enter_the_fit() -> None:
    """§2: a newcomer's first strength is drawn towards `newcomer`, a player of the first
    period towards 500; a newcomer's steps in their first year have their own spread, a
    first-period member's do not."""
    def event(name: str, date: str, players: list[str]) -> pd.DataFrame:
        return pd.DataFrame({
            "event_id": name, "date": pd.Timestamp(date), "unit": ["1", "2", "3", "4"],
            "player": players, "place": [1.0, 2.0, 3.0, 4.0], "boards": 24, "kind": "pairs",
            "scoring": "MP"})

    frame = pd.concat([
        event("e1", "2020-01-10", ["A", "B", "C", "D"]),
        event("e2", "2020-04-10", ["B", "C", "D", "N"]),   # N new, last
        event("e3", "2020-07-10", ["N", "A", "B", "C"]),   # N wins a quarter later
    ], ignore_index=True)

    def rating(params: ratings.WhrParams, player: str, period: str) -> float:
        rows = ratings.rate_whr(frame, params).ratings
        return float(rows[(rows["player"] == player) & (rows["period"] == period)]["rating"]
                     .iloc[0])

    flat, low = ratings.WhrParams(), ratings.WhrParams(newcomer=350.0)
    assert rating(low, "N", "2020Q2") < rating(flat, "N", "2020Q2") - 40
    # the prior of a first period: 500 for the history's first period or an initial rating,
    # `newcomer` later (strength units: (rating - 500) / scale)
    prior = ratings._whr._prior(np.array([0, 1, 1, 2]), np.array([0, 1, 2, 1]),
                                np.array([np.nan, np.nan, np.nan, 575.0]), low)
    assert prior.mean.tolist() == pytest.approx([0.0, -2.0, -2.0, 1.0])
    fast = ratings.WhrParams(first_year_drift=60.0)
    # N's step from 2020Q2 to 2020Q3 is in N's first year: a wider spread, a longer step
    assert rating(fast, "N", "2020Q3") - rating(fast, "N", "2020Q2") > \
        rating(flat, "N", "2020Q3") - rating(flat, "N", "2020Q2") + 20
    # A played in the history's first quarter: no first year, the same steps
    assert rating(fast, "A", "2020Q3") - rating(fast, "A", "2020Q1") == pytest.approx(
        rating(flat, "A", "2020Q3") - rating(flat, "A", "2020Q1"), abs=3)


# --- a pool of the pipeline (docs/rules/bridge-whr.md §13 steps 5-7) -----------------------------


def _project(root: Path, options: str = "") -> Path:
    from quality.federation import write_files

    files = root / "files"
    if not files.is_dir():
        write_files(simulate(SMALL), files)
        (files / "strength.csv").unlink(missing_ok=True)
    (root / "clubratings.toml").write_text(
        '[paths]\nwarehouse = "data/wh.duckdb"\ninbox = "inbox"\npublic = "public"\n'
        'sources = ["files/*.csv"]\n\n[[pools]]\nname = "whr"\ngame = "bridge"\n'
        f'scheme = "whr"\n{options}', encoding="utf-8")
    return root / "clubratings.toml"


def _run(config: Path, capsys: pytest.CaptureFixture[str]) -> str:
    from cli import main

    assert main(["run", "--config", str(config), "--no-scrape"]) in (0, 1)
    return capsys.readouterr().out


def _options(config: Path) -> dict[str, str]:
    from warehouse import latest_run, open_warehouse

    wh = open_warehouse(config.parent / "data" / "wh.duckdb", read_only=True)
    try:
        run = latest_run(wh, "whr")
        assert run is not None
        return dict(run.options)
    finally:
        wh.close()


def test_a_pool_learns_once_keeps_records_and_shows_its_constants(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _project(tmp_path)
    out = _run(config, capsys)
    assert "whr constants learned through 2017Q4" in out
    options = _options(config)
    learned = ratings.learn_whr(simulate(SMALL).results, ratings.WhrParams())
    # the run's constants are the learned ones, recorded with how they were learned
    for name in ratings.WHR_LEARNABLE:
        assert float(options[name]) == pytest.approx(getattr(learned.params, name), rel=0.15)
    assert options["learned.through"] == "2017Q4"
    assert options["learned.origins"] == "2017Q1,2017Q2,2017Q3,2017Q4"
    assert float(options["learned.loss"]) <= float(options["learned.start_loss"])
    how = (tmp_path / "public" / "whr" / "how.html").read_text("utf-8")
    assert "These were learned from this pool's own results up to 2017Q4" in how
    assert f"({options['drift']} points" in how

    # nothing new: the constants are kept, not learned again
    again = _run(config, capsys)
    assert "constants learned through 2017Q4 kept" in again
    assert _options(config)["drift"] == options["drift"]

    # a late file for a closed quarter: learned again, from the last values
    (tmp_path / "files" / "late.csv").write_text(
        "event,date,kind,scoring,boards,unit,place,player,club,organiser\n"
        + "".join(f"Late night,2017-05-02,pairs,MP,24,{u},{u},{p},,Late club\n"
                  for u, p in ((1, "Late One"), (1, "Late Two"), (2, "Late Three"),
                               (2, "Late Four"), (3, "Late Five"), (3, "Late Six"))),
        encoding="utf-8")
    late = _run(config, capsys)
    assert "whr constants learned through 2017Q4:" in late
    assert _options(config)["learned.inputs"] != options["learned.inputs"]


def test_a_constant_set_in_the_configuration_is_not_learned(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _project(tmp_path, 'options = { drift = "9", newcomer = "480" }\n')
    _run(config, capsys)
    options = _options(config)
    assert options["drift"] == "9" and options["newcomer"] == "480"
    assert options["learned.fixed"] == "drift,newcomer"
    assert options["learned.names"] == "prior,first_year_drift"
    how = (tmp_path / "public" / "whr" / "how.html").read_text("utf-8")
    assert "Set by the federation, not learned: drift, newcomer." in how

    off = _project(tmp_path, 'options = { learn = "off" }\n')
    _run(off, capsys)
    options = _options(off)
    assert not any(k.startswith("learned.") for k in options)
    assert options["drift"] == "7.5" and options["prior"] == "75"
    assert "They are the values the federation set." in \
        (tmp_path / "public" / "whr" / "how.html").read_text("utf-8")


def test_a_start_equal_to_the_values_as_set_searches_as_from_them(
        results: pd.DataFrame, learned: ratings.WhrLearning) -> None:
    # a pool whose last run learned nothing (too short a history) starts from the values as
    # set with the full first steps, as if nothing had been learned before (§13 step 4)
    again = ratings.learn_whr(results, ratings.WhrParams(), start=ratings.WhrParams())
    assert again.params == learned.params
