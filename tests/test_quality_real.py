"""Rating quality on real results (quality/real.py, docs/quality.md "On real results"): small
warehouses built by ``clubratings run`` from CSV-template files, a worked example of the
metric and of the naive baseline, and no prediction that uses its own quarter or later."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from quality import real
from quality.baselines import SchemeRun
from warehouse import open_warehouse

from ._csvs import HEADER

ROOT = Path(__file__).resolve().parents[1]

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""

NAMES = {
    "A": "Adam Novak", "B": "Boris Kral", "C": "Cyril Horak", "D": "Dana Vesela",
    "E": "Emil Cerny", "F": "Filip Dvorak", "G": "Gustav Marek", "H": "Hana Pokorna",
    "I": "Ivan Ruzicka", "J": "Jana Benesova", "K": "Karel Fiala", "L": "Lucie Sedlakova",
}

Night = tuple[str, list[tuple[str, str, float]]]
"""A night: its date and its pairs in finishing order (two players by letter, the percentage)."""

# The worked example: three nights in three quarters; the first is not predicted (no list
# before it), the second from the list of 2014Q1, the third from 2014Q2 (I is new there).
WORKED: list[Night] = [
    ("2014-01-14", [("A", "B", 60.0), ("C", "D", 55.0), ("E", "F", 45.0), ("G", "H", 40.0)]),
    ("2014-04-15", [("A", "C", 58.0), ("B", "D", 52.0), ("E", "G", 48.0), ("F", "H", 42.0)]),
    ("2014-07-15", [("A", "H", 56.0), ("C", "D", 50.0), ("B", "I", 44.0)]),
]

# The published lists of the fake scheme: the end of 2014Q1 and of 2014Q2.
LISTS = {
    "2014Q1": {"A": 600, "B": 500, "C": 550, "D": 450, "E": 400, "F": 500, "G": 300, "H": 700},
    "2014Q2": {"A": 560, "B": 520, "C": 480, "D": 400, "H": 500},
}
NEWCOMER = 500.0


def _csv(night: Night) -> bytes:
    date, pairs = night
    rows = [HEADER]
    for place, (first, second, score) in enumerate(pairs, 1):
        for letter in (first, second):
            rows.append(f"Test Club,Club pairs,{date},pairs,MP,24,{place},{place},"
                        f"{score:.2f},{NAMES[letter]},")
    return ("\n".join(rows) + "\n").encode("utf-8")


def _warehouse(root: Path, nights: list[Night]) -> Path:
    """A project in ``root`` whose inbox holds one CSV-template file a night, after
    ``clubratings run``: the path of its warehouse."""
    (root / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (root / "inbox").mkdir()
    for night in nights:
        (root / "inbox" / f"club-{night[0]}.csv").write_bytes(_csv(night))
    assert main(["run", "--config", str(root / "clubratings.toml")]) == 0
    return root / "data" / "clubratings.duckdb"


@pytest.fixture(scope="module")
def worked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _warehouse(tmp_path_factory.mktemp("worked"), WORKED)


def _results(path: Path) -> pd.DataFrame:
    with open_warehouse(path, read_only=True) as wh:
        results, refused, name = real.real_results(wh)
    assert refused == 0 and name == "Test Club"
    return results


def _ids(path: Path) -> dict[str, str]:
    """Letter -> the warehouse's player id (as the results frame writes it)."""
    with open_warehouse(path, read_only=True) as wh:
        rows = wh.con.execute("SELECT player_id, name FROM players").fetchall()
    by_name = {name: str(pid) for pid, name in rows}
    return {letter: by_name[name] for letter, name in NAMES.items() if name in by_name}


def _fake_scheme(ids: dict[str, str]) -> SchemeRun:
    rows = [{"period": period, "player": ids[letter], "rating": float(value)}
            for period, ratings in LISTS.items() for letter, value in ratings.items()]
    return SchemeRun(pd.DataFrame(rows), {"rating": NEWCOMER})


def test_pairs_right_on_a_worked_example(worked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _ids(worked)
    monkeypatch.setattr(real, "run_scheme", lambda name, results: _fake_scheme(ids))
    report = real.evaluate_results(_results(worked), ["fake"])
    fake = {row.scheme: row for row in report.all_rows}["fake"]
    # night 2 from 2014Q1: units AC 575, BD 475, EG 350, FH 600 finish in that order:
    #   AC>BD right, AC>EG right, AC>FH wrong, BD>EG right, BD>FH wrong, EG>FH wrong -> 3 of 6
    # night 3 from 2014Q2: AH 530, CD 440, BI (520 + newcomer 500) / 2 = 510:
    #   AH>CD right, AH>BI right, CD>BI wrong -> 2 of 3
    assert fake.comparisons == 9
    assert fake.pair_accuracy == pytest.approx(5 / 9)
    assert fake.fitted  # the fake scheme states no probability: the fitted logistic
    rated = {row.scheme: row for row in report.rated_rows}["fake"]
    # I has no earlier result: only AH>CD of night 3 stays beside night 2's six
    assert rated.comparisons == 7
    assert rated.pair_accuracy == pytest.approx(4 / 7)
    # the baseline gets 6 of 9 (next test): the difference in points
    assert fake.difference == pytest.approx(100 * (5 - 6) / 9)
    assert rated.difference == pytest.approx(100 * (4 - 5) / 7)
    assert fake.low <= fake.difference <= fake.high
    assert report.nights == 3 and report.predicted_nights == 2 and report.percent_events == 3


def test_the_naive_baseline_on_a_worked_example(worked: Path) -> None:
    results = _results(worked)
    ids = _ids(worked)
    strength = real.baseline_strength(results)
    at = pd.to_datetime(results["date"]).dt.strftime("%Y-%m-%d")

    def of(letter: str, date: str) -> float:
        rows = strength[(results["player"] == ids[letter]) & (at == date)]
        assert len(rows) == 1
        return float(rows.iloc[0])

    assert of("A", "2014-01-14") == 50.0  # a newcomer
    assert of("A", "2014-04-15") == 60.0
    assert of("A", "2014-07-15") == pytest.approx((60 + 58) / 2)
    assert of("H", "2014-07-15") == pytest.approx((40 + 42) / 2)
    assert of("I", "2014-07-15") == 50.0
    report = real.evaluate_results(results, [])
    naive = {row.scheme: row for row in report.all_rows}[real.BASELINE]
    # night 2: AC 57.5, BD 57.5, EG 42.5, FH 42.5: two ties (half each) and four right = 5
    # night 3: AH (59 + 41) / 2 = 50, CD (56.5 + 53.5) / 2 = 55, BI (56 + 50) / 2 = 53:
    #   AH>CD wrong, AH>BI wrong, CD>BI right = 1
    assert naive.comparisons == 9
    assert naive.pair_accuracy == pytest.approx(6 / 9)
    assert math.isnan(naive.difference)  # no difference to itself
    # the quarter's average knows the same nights here (one night a quarter)
    quarterly = {row.scheme: row for row in report.all_rows}[real.BASELINE_QUARTER]
    assert quarterly.pair_accuracy == pytest.approx(6 / 9)


def test_percentages_of_events_not_scored_in_percent() -> None:
    frame = pd.DataFrame({
        "event_id": ["1"] * 6 + ["2"] * 6,
        "unit": ["1", "1", "2", "2", "3", "3"] * 2,
        "place": [1.0, 1.0, 2.0, 2.0, 3.0, 3.0] * 2,
        "scoring": ["MP"] * 6 + ["IMP"] * 6,
        # matchpoint totals (not percentages) and IMPs: the share of the field beaten
        "score": [160.0, 160.0, 120.0, 120.0, 80.0, 80.0, 12.0, 12.0, 0.0, 0.0, -12.0, -12.0],
    })
    value, in_percent = real.percentages(frame)
    assert not in_percent.any()
    assert value.tolist() == [100.0, 100.0, 50.0, 50.0, 0.0, 0.0] * 2


def _random_nights(seed: int, count: int = 8) -> list[Night]:
    """``count`` nights six weeks apart (2014Q1 .. 2014Q4), five pairs a night from twelve
    players; the first two nights (2014Q1) are not predicted."""
    rng = np.random.default_rng(seed)
    letters = list(NAMES)
    nights: list[Night] = []
    dates = pd.date_range("2014-01-07", periods=count, freq="6W-TUE")
    for date in dates:
        players = rng.permutation(letters)[:10]
        scores = np.sort(rng.uniform(35, 65, 5).round(2))[::-1]
        scores = scores - scores.mean() + 50
        pairs = [(players[2 * i], players[2 * i + 1], float(scores[i])) for i in range(5)]
        nights.append((date.strftime("%Y-%m-%d"), pairs))
    return nights


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return _results(_warehouse(tmp_path_factory.mktemp("season"), _random_nights(7)))


def _by_comparison(frame: pd.DataFrame, keep: pd.Series, columns: list[str]) -> pd.DataFrame:
    keys = ["date", "event_id", "ahead", "behind"]
    return frame[keep].set_index(keys)[columns].sort_index()


@pytest.fixture(scope="module")
def season_predictions(season: pd.DataFrame) -> pd.DataFrame:
    """The season's predictions as it was played (the same for every changed night below)."""
    return real.predictions(season, real.REAL_SCHEMES)


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(night=st.integers(min_value=3, max_value=7), seed=st.integers(0, 2**16))
def test_a_later_night_never_changes_an_earlier_prediction(
        season: pd.DataFrame, season_predictions: pd.DataFrame, night: int, seed: int) -> None:
    dates = pd.to_datetime(season["date"]).dt.normalize()
    changed_date = sorted(dates.unique())[night]
    on_night = dates == changed_date
    # another order of that night: new places, new percentages
    rng = np.random.default_rng(seed)
    units = season.loc[on_night, "unit"].unique()
    new_place = dict(zip(units, rng.permutation(len(units)) + 1.0, strict=True))
    changed = season.copy()
    changed.loc[on_night, "place"] = changed.loc[on_night, "unit"].map(new_place)
    changed.loc[on_night, "score"] = 70.0 - 10.0 * changed.loc[on_night, "place"] + 10.0
    before = season_predictions
    after = real.predictions(changed, real.REAL_SCHEMES)
    columns = [c for c in before.columns if c.startswith(("right ", "p "))]

    def earlier(frame: pd.DataFrame) -> pd.Series:
        return pd.to_datetime(frame["date"]) < changed_date

    assert earlier(before).any()
    pd.testing.assert_frame_equal(_by_comparison(before, earlier(before), columns),
                                  _by_comparison(after, earlier(after), columns))
    # the lists are quarterly: the later nights of the changed night's quarter are predicted
    # from the same list as well (only the nightly average and the nightly WHR know the
    # changed night)
    quarter = pd.Timestamp(changed_date).to_period("Q")

    def later_same_quarter(frame: pd.DataFrame) -> pd.Series:
        date = pd.to_datetime(frame["date"])
        return (date > changed_date) & (date.dt.to_period("Q") == quarter)

    listed = [c for c in columns
              if not c.endswith((f" {real.BASELINE}", f" {real.NIGHTLY}"))]
    pd.testing.assert_frame_equal(_by_comparison(before, later_same_quarter(before), listed),
                                  _by_comparison(after, later_same_quarter(after), listed))


def test_evaluate_a_warehouse_on_the_command_line(worked: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "real.json"
    code = main(["evaluate", "--warehouse", str(worked), "--schemes", "belo2,whr",
                 "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["command"] == "clubratings evaluate --warehouse clubratings.duckdb " \
                              "--schemes belo2,whr"
    report = real.real_from_dict(data["real"])
    assert [row.scheme for row in report.all_rows] == \
        [real.BASELINE, real.BASELINE_QUARTER, "belo2", "whr"]
    assert real.format_real(report) in text
    assert {row.scheme: row.comparisons for row in report.all_rows}["whr"] == 9


def test_evaluate_needs_a_preset_or_a_warehouse(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate"]) != 0
    assert "--warehouse" in capsys.readouterr().err
    assert main(["evaluate", "--warehouse", str(tmp_path / "none.duckdb")]) != 0
    assert "no warehouse" in capsys.readouterr().err


def test_the_quality_page_shows_the_real_results(worked: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from bs4 import BeautifulSoup

    from publishing._site import REAL_QUALITY_FILE, write_site_index

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(ROOT / "docs" / "quality.json", docs / "quality.json")
    public = tmp_path / "public"
    public.mkdir()
    write_site_index(public, docs / "quality.json")
    assert "On real results" not in (public / "quality.html").read_text(encoding="utf-8")

    assert main(["evaluate", "--warehouse", str(worked), "--schemes", "whr",
                 "--json", str(docs / REAL_QUALITY_FILE)]) == 0
    capsys.readouterr()
    write_site_index(public, docs / "quality.json")
    soup = BeautifulSoup((public / "quality.html").read_text(encoding="utf-8"), "html.parser")
    section = soup.select_one("section.real")
    assert section is not None and section.h2 is not None
    assert section.h2.text == "On real results"
    tables = section.select("table")
    assert len(tables) == 2  # every comparison; rated players only
    rows = [[td.text for td in tr.select("td")] for tr in tables[0].select("tbody tr")]
    data = json.loads((docs / REAL_QUALITY_FILE).read_text(encoding="utf-8"))
    assert [r[0] for r in rows] == [row["scheme"] for row in data["real"]["all_rows"]]
    whr = data["real"]["all_rows"][-1]
    assert rows[-1][1:5] == ["9", f"{whr['pair_accuracy']:.3f}", f"{whr['log_loss']:.3f}",
                             f"{whr['difference']:+.1f}"]
    assert rows[0][4] == "\u2014"  # the baseline against itself
    assert data["command"] in section.text
    # the simulated tables are still there
    assert soup.select("section.quality")


def test_events_the_rating_engine_refuses_are_left_out_and_counted() -> None:
    rows = []
    for event, places in (("1", [1.0, 2.0, 3.0]), ("2", [1.0, 2.0, 4.0]), ("3", [2.0, 1.0])):
        for unit, place in enumerate(places, 1):
            for seat in (1, 2):
                rows.append({"event_id": event, "date": "2014-01-07", "kind": "pairs",
                             "scoring": "MP", "boards": 24.0, "unit": str(unit),
                             "place": place, "player": f"{event}-{unit}-{seat}"})
    kept, refused = real._rateable(pd.DataFrame(rows))
    # event 2 has a place 4 among three units: the engine's check refuses it
    assert refused == 1
    assert sorted(kept["event_id"].unique()) == ["1", "3"]


def test_quality_md_shows_the_real_table() -> None:
    # docs/quality.md "On real results" is docs/quality-real.json as the command prints it
    # (the archive is not in the repository, so the numbers are not recomputed here)
    data = json.loads((ROOT / "docs" / "quality-real.json").read_text(encoding="utf-8"))
    assert data["command"].startswith("clubratings evaluate --warehouse ")
    report = real.real_from_dict(data["real"])
    assert json.loads(json.dumps(real.real_to_dict(report))) == data["real"]
    documented = set((ROOT / "docs" / "quality.md").read_text(encoding="utf-8").splitlines())
    for line in real.format_real(report).splitlines():
        assert line in documented, line
    assert f"$ {data['command']} --json docs/quality-real.json" in documented
