"""A go list from the go fixtures through the library steps (ingest, recompute, publish)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from cli import main

from .conftest import FIXTURES


@pytest.fixture
def go_project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "opengotha", tmp_path / "fixtures" / "opengotha")
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nsources = ["fixtures/opengotha/*.xml"]\n'
        '[[pools]]\nname = "go"\ngame = "go"\nscheme = "rfg"\nperiods = "tournament"\n',
        encoding="utf-8",
    )
    return tmp_path


def test_go_list_with_deviation_interval_and_grade(
    go_project: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    config = ["--config", str(go_project / "clubratings.toml")]
    for command in ("ingest", "recompute", "publish"):
        assert main([command, *config]) == 0
    out = capsys.readouterr().out
    assert "go: new run 1, 2017-02-11 Test Participation et Licence FFG.." in out
    lists = sorted((go_project / "public" / "go").glob("*/list.csv"))
    assert len(lists) == 2
    rows = list(csv.DictReader(lists[0].open(encoding="utf-8")))
    assert rows and set(rows[0]) == {"rank", "player_id", "federation_id", "player", "club",
                                     "rating",
                                     "deviation", "interval", "grade", "change",
                                     "events_period", "events_year", "events_total",
                                     "last_played", "status", "standing"}
    for row in rows:
        rating, deviation = float(row["rating"]), float(row["deviation"])
        low, high = (int(x) for x in row["interval"].split(".."))
        # rating and deviation are written to one decimal: the ends may differ by one
        assert abs(low - (rating - 2 * deviation)) <= 1
        assert abs(high - (rating + 2 * deviation)) <= 1
        assert row["grade"][-1] in "kd" and deviation > 0
    # the 31 games of the 2017 tournament
    assert sum(int(r["events_period"]) for r in rows) == 2 * 31


REAL_H9 = FIXTURES / "egd_table" / "real-opengotha-export-unplayed-rounds.h9"


def _egd_project(tmp_path: Path, name: str, data: bytes, scheme: str) -> Path:
    folder = tmp_path / name
    (folder / "files").mkdir(parents=True)
    (folder / "files" / "tournament.h9").write_bytes(data)
    (folder / "clubratings.toml").write_text(
        '[paths]\nsources = ["files/*.h9"]\n'
        f'[[pools]]\nname = "go"\ngame = "go"\nscheme = "{scheme}"\nperiods = "tournament"\n',
        encoding="utf-8")
    return folder


def _go_list(folder: Path) -> dict[str, tuple[str, str]]:
    (path,) = (folder / "public" / "go").glob("*/list.csv")
    return {r["player"]: (r["rating"], r["events_period"])
            for r in csv.DictReader(path.open(encoding="utf-8"))}


@pytest.mark.parametrize("scheme", ["rfg", "rfg-bootstrap", "egf", "glicko2", "elo"])
def test_even_games_without_colours_are_rated_by_every_go_scheme(tmp_path: Path,
                                                                 scheme: str) -> None:
    """The real EGD table, and the same table with every colour taken out (all its games are
    even): every go scheme rates both, and to the same list."""
    import re

    data = REAL_H9.read_bytes()
    bare = re.sub(rb"(\d[+-=])/[bw]0", rb"\1", data)
    assert bare != data and b"/b0" not in bare and b"/w0" not in bare
    lists = []
    for name, content in (("coloured", data), ("bare", bare)):
        folder = _egd_project(tmp_path, name, content, scheme)
        for command in ("ingest", "recompute", "publish"):
            assert main([command, "--config", str(folder / "clubratings.toml")]) == 0
        lists.append(_go_list(folder))
    coloured, bare_list = lists
    assert sum(int(events) for _, events in bare_list.values()) == 2 * 31  # every game rated
    assert bare_list == coloured


def test_a_handicap_game_without_colours_is_refused(tmp_path: Path) -> None:
    from parsers import ParseError, parse_bytes

    data = REAL_H9.read_bytes().replace(b" 3+/b0 ", b" 3+/?2 ", 1).replace(b" 1-/w0 ", b" 1-/?2 ", 1)
    with pytest.raises(ParseError, match="a handicap game must say who took black"):
        parse_bytes(data, source="tournament.h9")


def test_rate_reads_an_empty_colour_as_an_even_game_and_refuses_it_with_stones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.csv"
    games.write_text("period,player,opponent,result,handicap,colour\n"
                     "2024-01,alice,bob,1,0,\n2024-01,bob,carol,0.5,0,\n"
                     "2024-01,carol,alice,0,0,b\n", encoding="utf-8")
    for scheme in ("rfg", "egf", "glicko2", "elo"):
        assert main(["rate", str(games), "--scheme", scheme]) == 0, capsys.readouterr().err
        assert "alice" in capsys.readouterr().out
    games.write_text("period,player,opponent,result,handicap,colour\n"
                     "2024-01,alice,bob,1,2,\n", encoding="utf-8")
    assert main(["rate", str(games), "--scheme", "rfg"]) == 2
    assert "is empty in a handicap game" in capsys.readouterr().err


def test_two_tournaments_of_one_title_a_year_apart_are_two_periods(tmp_path: Path) -> None:
    """A tournament held every year under one name: each year's file is a period of its own,
    labelled by the day it began; never one period over the years."""
    from warehouse import open_warehouse

    data = REAL_H9.read_bytes()
    later = data.replace(b"DT[2017-02-11,2017-02-12]", b"DT[2018-02-10,2018-02-11]")
    assert later != data
    folder = _egd_project(tmp_path, "yearly", data, "rfg")
    (folder / "files" / "tournament-2018.h9").write_bytes(later)
    for command in ("ingest", "recompute"):
        assert main([command, "--config", str(folder / "clubratings.toml")]) == 0
    with open_warehouse(folder / "data" / "clubratings.duckdb", read_only=True) as wh:
        periods = [str(r[0]) for r in wh.con.execute(
            "SELECT period FROM ratings GROUP BY period ORDER BY min(period)").fetchall()]
        games = dict(wh.con.execute(
            "SELECT period, sum(events) FROM ratings GROUP BY period").fetchall())
    assert periods == ["2017-02-11 Test Participation et Licence FFG",
                       "2018-02-10 Test Participation et Licence FFG"]
    assert all(int(n) == 2 * 31 for n in games.values())  # each year's 31 games in its own


def test_two_files_of_one_title_begun_on_one_day_are_numbered() -> None:
    import pandas as pd

    from warehouse._runs import _tournament_labels

    games = pd.DataFrame({"event_id": [1, 2, 3, 4], "file_id": [7, 7, 9, 9],
                          "tournament": ["Cup", "Cup", "Cup", ""]})
    dates = pd.to_datetime(pd.Series(["2020-05-02", "2020-05-03", "2020-05-02", "2020-05-02"]))
    assert _tournament_labels(games, dates).tolist() == [
        "2020-05-02 Cup", "2020-05-02 Cup", "2020-05-02 Cup (2)", "2020-05-02 4"]
