"""A go list from the go fixtures through the library steps (ingest, recompute, publish)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from flows.cli import main

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
                                     "deviation", "interval", "grade", "change", "events",
                                     "history_events", "last_played", "status", "standing"}
    for row in rows:
        rating, deviation = float(row["rating"]), float(row["deviation"])
        low, high = (int(x) for x in row["interval"].split(".."))
        assert low == round(rating - 2 * deviation) and high == round(rating + 2 * deviation)
        assert row["grade"][-1] in "kd" and deviation > 0
    assert sum(int(r["events"]) for r in rows) == 2 * 31  # the 31 games of the 2017 tournament
