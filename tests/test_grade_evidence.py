"""Scheme ``grade-evidence`` (docs/rules/go-grades.md): the worked example, a new grade moving a
player at once, the games outweighing a grade in proportion to their number, the weights
learned from the pool's own games; and the go judge of real tournaments (quality/real_go.py,
docs/quality.md "Go on real tournaments") on a history small enough to check by hand."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings
from cli import main
from quality import real_go

ROOT = Path(__file__).resolve().parents[1]
FIXED = {"grade_sd": "150", "drift": "120", "slope": "0.25", "learn": "off"}


def _game(period: str, date: str, black: str, white: str, result: float, rank: str,
          opponent_rank: str, handicap: int = 0) -> dict[str, object]:
    return {"period": period, "date": date, "player": black, "opponent": white,
            "result": result, "handicap": handicap, "colour": "b", "rank": rank,
            "opponent_rank": opponent_rank}


def _row(run: ratings.RatingRun, period: str, player: str) -> pd.Series:
    r = run.ratings
    (at,) = np.flatnonzero((r["period"] == period) & (r["player"] == player))
    return r.iloc[at]


def test_the_worked_example_of_the_rules() -> None:
    """docs/rules/go-grades.md "Worked example", number by number."""
    games = pd.DataFrame([
        _game("t1", "2024-01-06", "A", "B", 1.0, "10k", "10k"),
        _game("t2", "2025-01-04", "A", "D", 0.0, "5k", "5k"),
    ])
    run = ratings.rate("grade-evidence", games, options=FIXED)
    a1, b1 = _row(run, "t1", "A"), _row(run, "t1", "B")
    assert a1["rating_before"] == 1100.0 and a1["deviation_before"] == 150.0
    assert a1["rating"] == pytest.approx(1122.78, abs=0.01)
    assert a1["deviation"] == pytest.approx(148.22, abs=0.01)
    assert b1["rating"] == pytest.approx(1077.22, abs=0.01)
    assert a1["grade_pull"] == 0.0  # a newcomer starts at the grade
    a2, d2 = _row(run, "t2", "A"), _row(run, "t2", "D")
    assert a2["grade"] == 1600.0
    assert a2["grade_pull"] == pytest.approx(294.67, abs=0.01)
    assert a2["rating_before"] == pytest.approx(1417.45, abs=0.01)
    assert a2["deviation_before"] == pytest.approx(117.87, abs=0.01)
    assert a2["rating"] == pytest.approx(1403.82, abs=0.01)
    assert a2["deviation"] == pytest.approx(116.56, abs=0.01)
    assert d2["rating_before"] == 1600.0
    c = run.contributions
    expected = c.loc[(c["period"] == "t2") & (c["player"] == "A"), "expected"].item()
    assert expected == pytest.approx(0.38252, abs=1e-5)
    # B declared nothing in t2: carried, untouched
    b2 = _row(run, "t2", "B")
    assert b2["rating"] == b1["rating"] and b2["events"] == 0


def test_games_outweigh_a_grade_in_proportion_to_their_number() -> None:
    """Two 10k players who both write 5k a year later: the one with 30 games since his first
    grade is moved less than the one with a single game; both move at once."""
    rows = [_game("t1", "2024-01-06", "few", "x0", 0.5, "10k", "10k")]
    rows += [_game("t1", "2024-01-06", "many", f"y{k}", 0.5, "10k", "10k") for k in range(30)]
    rows += [_game("t2", "2025-01-04", "few", "z1", 0.5, "5k", "5k"),
             _game("t2", "2025-01-04", "many", "z2", 0.5, "5k", "5k")]
    run = ratings.rate("grade-evidence", pd.DataFrame(rows), options=FIXED)
    few, many = _row(run, "t2", "few"), _row(run, "t2", "many")
    assert 250 < many["grade_pull"] < few["grade_pull"] < 500
    assert few["rating_before"] - 1100 == pytest.approx(few["grade_pull"])


def _history(noise: float, seed: int) -> pd.DataFrame:
    """Twelve tournaments of 24 players whose strength climbs, each game won by the stronger
    by the logistic of the scheme; every grade the strength plus ``noise``."""
    rng = np.random.default_rng(seed)
    strength = rng.uniform(800, 1800, 24)
    rows = []
    for t in range(12):
        strength = strength + rng.normal(40, 40, 24)
        grade = np.clip(np.round((strength + rng.normal(0, noise, 24)) / 100) * 100, 0, 2800)
        order = rng.permutation(24)
        for k in range(0, 24, 2):
            for shift in range(3):
                a, b = order[k], order[(k + 1 + 2 * shift) % 24]
                p = 1 / (1 + math.exp(-(strength[a] - strength[b]) / 300))
                rows.append(_game(f"t{t:02d}", f"{2010 + t}-05-01", f"p{a}", f"p{b}",
                                  float(rng.random() < p), ratings.grade(grade[a]),
                                  ratings.grade(grade[b])))
    return pd.DataFrame(rows)


def test_the_grade_weight_is_learned_from_the_pools_own_games() -> None:
    """Grades close to the strength teach a smaller ``grade_sd`` than grades far from it."""
    exact = ratings.learn_grade_evidence(_history(30.0, 1))
    loose = ratings.learn_grade_evidence(_history(400.0, 1))
    assert exact.grade_sd < loose.grade_sd
    assert exact.learn == "on"
    # too few games teach nothing
    few = _history(30.0, 1).head(50)
    assert ratings.learn_grade_evidence(few) == ratings.GradeEvidenceParams()


def _judged() -> pd.DataFrame:
    """Three tournaments: A returns in t2 declaring a new grade, B with the same; C and E are
    newcomers of t2; t3 a handicap game."""
    return pd.DataFrame([
        _game("2024-01-06 One", "2024-01-06", "A", "B", 1.0, "5k", "3k"),
        _game("2024-01-06 One", "2024-01-06", "C", "D", 0.0, "2k", "4k"),
        _game("2024-06-01 Two", "2024-06-01", "A", "B", 0.0, "4k", "3k"),
        _game("2024-06-01 Two", "2024-06-01", "C", "D", 1.0, "2k", "4k"),
        _game("2024-06-01 Two", "2024-06-01", "A", "E", 1.0, "4k", "6k"),
        _game("2024-09-01 Three", "2024-09-01", "D", "B", 0.0, "4k", "1k", handicap=2),
    ])


def test_the_go_judge_splits_games_and_scores_the_grade() -> None:
    report = real_go.evaluate_go(_judged(), ("elo",), source="test")
    rows = {(r.scheme, r.kind, r.subset): r for r in report.rows}
    assert report.tournaments == 3 and report.games == 6 and report.handicap_games == 1
    grade_all = rows[("grade", "even", "all")]
    # grade favourites: B, C, A (4k v 3k: B), C, A -> right: B lost(0), C lost(0),
    # B won(1), C won(1), A won(1)
    assert grade_all.games == 5 and grade_all.accuracy == pytest.approx(3 / 5)
    assert rows[("grade", "even", "rated")].games == 2  # t2: A-B and C-D; A-E not (E new)
    assert rows[("grade", "even", "changed")].games == 1  # A wrote 4k after 5k
    assert rows[("grade", "even", "unchanged")].games == 1
    handicap = rows[("grade", "handicap", "all")]
    # 1k gives 4k two stones: 2200 - 1800 ... black D gets 150 points: B still favourite, won
    assert handicap.games == 1 and handicap.accuracy == 1.0
    elo = rows[("elo", "even", "rated")]
    assert elo.games == 2 and not math.isnan(elo.difference)
    assert elo.calibration is not None and elo.calibration.count == 2


def test_the_grade_evidence_row_knows_the_new_grade_its_list_alone_does_not() -> None:
    """In t2 A writes 4k after 5k: the scheme starts A's tournament from the list and the new
    grade; its list-only row from the list alone."""
    g = real_go._prepare(_judged())
    run = ratings.rate("grade-evidence", _judged(), options=FIXED)
    scheme = ratings.SCHEMES["grade-evidence"]
    b, _ = real_go._before(run.ratings, g, scheme)
    lb, _ = real_go._before(run.ratings, g, scheme, list_only=True)
    at = 2  # t2, A v B
    assert b[at] == _row(run, "2024-06-01 Two", "A")["rating_before"]
    assert lb[at] == _row(run, "2024-01-06 One", "A")["rating"]
    pull = _row(run, "2024-06-01 Two", "A")["grade_pull"]
    assert pull > 20 and b[at] == pytest.approx(lb[at] + pull)


def test_a_warehouse_judged_and_a_grade_explained(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Two real EGD tables of one series: ``clubratings evaluate --warehouse`` judges their go
    games; ``explain`` shows the pull of the 3k Antoni Bugaj wrote after 5k."""
    files = tmp_path / "files"
    files.mkdir()
    for name in ("mpj2019.txt", "mpj2020.txt"):
        (files / name).write_bytes((ROOT / "fixtures/field/egd_table" / name).read_bytes())
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nsources = ["files/*.txt"]\n'
        '[[pools]]\nname = "go"\ngame = "go"\nscheme = "grade-evidence"\n'
        'periods = "tournament"\n', encoding="utf-8")
    config = str(tmp_path / "clubratings.toml")
    assert main(["ingest", "--config", config]) == 0
    assert main(["recompute", "--config", config]) == 0
    capsys.readouterr()
    assert main(["explain", "Bugaj Antoni", "--config", config]) == 0
    text = capsys.readouterr().out
    assert "declared 3k = 1800.0; the grade pulled the list's" in text
    assert main(["explain", "Bugaj Antoni", "--config", config, "--json"]) == 0
    explained = json.loads(capsys.readouterr().out)
    assert explained["grades"] == ["3k"] and explained["entry"] is False
    # the pull: k (G - listed), k between 0 and 1
    assert 0 < explained["grade_pull"] < 1800 - explained["listed"]
    assert explained["rating_before"] == pytest.approx(explained["listed"]
                                                       + explained["grade_pull"])
    changes = sum(game["change"] for game in explained["games"])
    assert changes == pytest.approx(explained["rating"] - explained["rating_before"])
    capsys.readouterr()
    out = tmp_path / "go.json"
    assert main(["evaluate", "--warehouse", str(tmp_path / "data" / "clubratings.duckdb"),
                 "--schemes", "elo", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Real go games" in text and "even games, rated" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "real" not in data  # no bridge results in this warehouse
    go = data["go"]
    assert go["tournaments"] == 2
    assert {row["scheme"] for row in go["rows"]} == {"grade", "elo"}
    assert "--warehouse" in data["command"]


def test_quality_md_shows_the_go_table() -> None:
    """docs/quality.md "Go on real tournaments" is docs/quality-go.json as the command prints
    it (the archive is not in the repository, so the numbers are not recomputed here)."""
    data = json.loads((ROOT / "docs" / "quality-go.json").read_text(encoding="utf-8"))
    assert data["command"].startswith("clubratings evaluate --warehouse ")
    report = real_go.go_report_from_dict(data["go"])
    assert json.loads(json.dumps(real_go.go_report_to_dict(report))) == data["go"]
    documented = set((ROOT / "docs" / "quality.md").read_text(encoding="utf-8").splitlines())
    for line in real_go.format_go(report).splitlines():
        assert line in documented, line
    assert f"$ {data['command']} --json docs/quality-go.json" in documented


def test_the_quality_page_shows_the_go_tables(tmp_path: Path) -> None:
    from bs4 import BeautifulSoup

    from publishing._site import GO_QUALITY_FILE, write_site_index

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "quality.json").write_bytes((ROOT / "docs" / "quality.json").read_bytes())
    public = tmp_path / "public"
    public.mkdir()
    write_site_index(public, docs / "quality.json")
    assert "Go on real tournaments" not in (public / "quality.html").read_text(encoding="utf-8")
    (docs / GO_QUALITY_FILE).write_bytes((ROOT / "docs" / "quality-go.json").read_bytes())
    write_site_index(public, docs / "quality.json")
    soup = BeautifulSoup((public / "quality.html").read_text(encoding="utf-8"), "html.parser")
    section = soup.select_one("section.go-real")
    assert section is not None and section.h2 is not None
    assert section.h2.text == "Go on real tournaments"
    titles = [h.text for h in section.select("h3")]
    assert titles[0] == "Even games between players both rated before"
    assert titles[1].startswith("Even games where a declared grade changed")
    first = [[td.text for td in tr.select("td")] for tr in section.select("table")[0].select(
        "tbody tr")]
    data = json.loads((ROOT / "docs" / "quality-go.json").read_text(encoding="utf-8"))["go"]
    rated = [r for r in data["rows"] if r["kind"] == "even" and r["subset"] == "rated"]
    assert [row[0] for row in first] == [r["scheme"] for r in rated]
    assert "rfg" in [row[0] for row in first] and "grade-evidence" in [row[0] for row in first]
    evidence = next(row for row in first if row[0] == "grade-evidence")
    mine = next(r for r in rated if r["scheme"] == "grade-evidence")
    assert evidence[1:] == [f"{mine['games']:,}", f"{100 * mine['accuracy']:.1f}",
                            f"{mine['log_loss']:.4f}", f"{mine['difference']:+.1f}",
                            f"{mine['low']:+.1f} .. {mine['high']:+.1f}"]


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_ratings_do_not_depend_on_row_order_or_side(rng: random.Random) -> None:
    """The same games in another order, some written from the other player's side (colours
    swapped, results flipped): the same ratings to the last bit (module docstring of
    ratings/_baselines.py: canonical sides, sums in sorted order)."""
    games = _judged()
    rows = games.to_dict("records")
    for row in rows:
        if rng.random() < 0.5:
            row["player"], row["opponent"] = row["opponent"], row["player"]
            row["rank"], row["opponent_rank"] = row["opponent_rank"], row["rank"]
            row["result"] = 1.0 - row["result"]
            row["colour"] = "w"
    rng.shuffle(rows)
    first = ratings.rate("grade-evidence", games, options=FIXED).ratings
    second = ratings.rate("grade-evidence", pd.DataFrame(rows), options=FIXED).ratings
    pd.testing.assert_frame_equal(first.reset_index(drop=True), second.reset_index(drop=True),
                                  check_exact=True)
