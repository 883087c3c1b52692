"""The whole-history rating (docs/rules/bridge-whr.md) as a pool of the pipeline: rated by the
run core, stored with its deviation and explanation columns, refined from the pool's previous
fit on the next run, explained on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import ratings
from flows import _steps
from flows._config import PoolConfig
from cli import main
from warehouse import Warehouse, latest_run, open_warehouse
from warehouse.explain import explain_whole_history

from .test_explain import EVENTS, _load

POOL = PoolConfig(name="bridge-whr", scheme="whr")
LATER = [("2014-03-06", "Spring pairs", 24, [(5, 6), (7, 8), (1, 2), (3, 4)])]


def _stored(wh: Warehouse, run_id: int, table: str) -> pd.DataFrame:
    return wh.query(f"SELECT * FROM {table} WHERE run_id = ? ORDER BY ALL", [run_id])


def test_a_whr_pool_is_rated_stored_and_refined(wh: Warehouse,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _load(wh, EVENTS)
    first = _steps.rate_pool(wh, POOL)
    assert first.run_id is not None and not first.reused
    run = ratings.rate("whr", _steps.pool_results(wh, POOL))
    stored = _stored(wh, first.run_id, "ratings")
    # the deviation of docs/rules/bridge-whr.md §8 is stored beside every rating
    assert stored["deviation"].notna().all()
    assert sorted(stored["rating"].round(6)) == sorted(run.ratings["rating"].round(6))
    explained = _stored(wh, first.run_id, "rating_contributions")
    assert explained[["expected", "gradient", "moved"]].notna().all().all()

    # the next run, with one more event, starts from this run's ratings (§9) ...
    seen: list[pd.DataFrame | None] = []
    previous_fit = _steps._previous_fit

    def spy(*args: object) -> pd.DataFrame | None:
        warm = previous_fit(*args)  # type: ignore[arg-type]
        seen.append(warm)
        return warm

    monkeypatch.setattr(_steps, "_previous_fit", spy)
    _load(wh, LATER)
    second = _steps.rate_pool(wh, POOL)
    assert second.run_id not in (None, first.run_id)
    assert len(seen) == 1 and seen[0] is not None
    assert set(seen[0]["period"]) == set(stored["period"])
    # ... and ends where a fit from scratch ends
    refined = _stored(wh, second.run_id, "ratings").set_index(["period", "player_id"])["rating"]
    scratch = ratings.rate("whr", _steps.pool_results(wh, POOL)).ratings
    scratch = scratch.assign(player_id=scratch["player"].astype("int64")).set_index(
        ["period", "player_id"])["rating"]
    assert (refined - scratch.reindex(refined.index)).abs().max() < 0.05


def test_the_previous_fit_only_with_the_same_scheme_and_options(wh: Warehouse) -> None:
    _load(wh, EVENTS)
    _steps.rate_pool(wh, POOL)
    options = ratings.params_to_options(ratings.parse_options("whr", {}))
    run = latest_run(wh, POOL.name)
    assert run is not None
    assert _steps._previous_fit(wh, POOL, dict(run.options)) is not None
    # constants learned again (docs/rules/bridge-whr.md §13) still start from the last fit ...
    assert _steps._previous_fit(wh, POOL, {**run.options, "drift": "20"}) is not None
    # ... another likelihood does not
    assert _steps._previous_fit(wh, POOL, {**run.options, "likelihood": "pairwise"}) is None
    other = PoolConfig(name="bridge-whr", scheme="belo2")
    assert _steps._previous_fit(wh, other, dict(run.options)) is None
    assert options["likelihood"] == run.options["likelihood"]


def test_explain_a_whr_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nwarehouse = "data/wh.duckdb"\n\n[[pools]]\nname = "bridge-whr"\n'
        'game = "bridge"\nscheme = "whr"\n', encoding="utf-8")
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        _load(wh, EVENTS)
        _steps.rate_pool(wh, POOL)
        ex = explain_whole_history(wh, 1, pool=POOL.name, period="2013Q4")
    # docs/rules/bridge-whr.md §10: player 1 won three of the quarter's four events
    assert list(ex.rows["place"]) == [1.0, 2.0, 1.0, 1.0]
    assert ex.rows["moved"].notna().all() and ex.deviation > 0
    won = ex.rows[ex.rows["place"] == 1.0]
    assert (won["moved"] > 0).all() and (won["expected"] > 1.0).all()
    code = main(["explain", "--config", str(tmp_path / "clubratings.toml"), "1",
                 "--period", "2013Q4"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("player 1 Ján Novák, pool bridge-whr, rating run 1 (whr, ")
    assert lines[1].startswith(f"rating {ex.rating:.1f} ± {ex.deviation:.1f}")
    assert lines[3].split()[:6] == ["date", "event", "place/n", "expected", "weight", "pull"]
    code = main(["explain", "--config", str(tmp_path / "clubratings.toml"), "1",
                 "--period", "2013Q4", "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert [e["moved"] for e in data["events"]] == pytest.approx(list(ex.rows["moved"]))


def test_the_site_of_a_whr_pool_explains_it(wh: Warehouse, tmp_path: Path) -> None:
    from bs4 import BeautifulSoup

    from publishing import SiteSettings, publish_site

    _load(wh, EVENTS)
    _steps.rate_pool(wh, POOL)
    publish_site(wh, POOL.name, tmp_path, settings=SiteSettings(provisional_events=1))
    page = BeautifulSoup((tmp_path / POOL.name / "players" / "1.html").read_text("utf-8"),
                         "html.parser")
    heads = [th.get_text() for th in page.select("#events thead th")]
    assert heads == ["Date", "Event", "Organiser", "Place", "n", "Expected", "Moved", "Counted"]
    rows = [[td.get_text() for td in tr.select("td")] for tr in page.select("#events tbody tr")]
    ex = explain_whole_history(wh, 1, pool=POOL.name, period="2013Q4")
    quarter = [r for r in rows if "2013-10-01" <= r[0] <= "2013-12-31"][::-1]  # newest first
    assert [float(r[6]) for r in quarter] == pytest.approx(list(ex.rows["moved"]), abs=0.006)
    how = (tmp_path / POOL.name / "how.html").read_text("utf-8")
    assert "explain the whole history of results best" in how
    assert "75 points ahead is about 73 in 100" in how
    # docs/rules/bridge-whr.md §13: two quarters are too short a history to learn from
    assert "They are the values as set: fewer than 4 periods of results." in how
    assert "(7.5 points)" in how and "(75 points)" in how
    edition = sorted((tmp_path / POOL.name).glob("*/list.csv"))[-1]
    listed = pd.read_csv(edition)
    assert {"deviation", "interval"} <= set(listed.columns)
