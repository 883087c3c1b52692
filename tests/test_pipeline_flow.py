"""End to end through real Prefect flows: bundled fixtures → warehouse → ratings → lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows import load_config
from warehouse import open_warehouse

pytestmark = pytest.mark.flow


def _snapshot(public: Path) -> dict[str, bytes]:
    return {str(p.relative_to(public)): p.read_bytes() for p in sorted(public.rglob("*"))
            if p.is_file()}


def test_pipeline_twice_loads_once_and_publishes_identical_bytes(
    prefect_harness: None, project: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    from cli import main
    from flows.pipeline import pipeline

    cfg = load_config(project / "clubratings.toml")
    first = pipeline(cfg)
    statuses = [o.status for o in first.files]
    assert statuses == ["loaded"] * 16
    # the bundled decisions file answers the one initials question of the fixture club
    assert first.review is None
    public = project / "public" / "bridge"
    # the bundled configuration starts the list from the history before its cut-over
    # (docs/rules/bridge-belo.md §11): Q3 only computes start ratings, Q4 is the first edition
    assert not (public / "2013Q3").exists()
    assert (public / "2013Q4" / "list.csv").exists() and (public / "2013Q4" / "index.html").exists()
    assert not list(public.glob("*.csv"))  # one page set: no per-period lists beside it
    go = sorted(p.parent.name for p in (project / "public" / "go").glob("*/list.csv"))
    assert go == ["2017-02-11-Test-Participation-et-Licence-FFG",
                  "2024-03-16-Bratislava-Spring-Open-2024"]
    header = (project / "public" / "go" / go[0] / "list.csv").read_text(
        encoding="utf-8").splitlines()[0]
    assert header == ("rank,player_id,federation_id,player,club,rating,deviation,interval,"
                      "grade,change,events_period,events_year,events_total,last_played,status,"
                      "standing")
    preferans = (project / "public" / "preferans" / "2013-03" / "list.csv").read_text(
        encoding="utf-8")
    assert preferans.splitlines()[0] == (
        "rank,player_id,federation_id,player,club,rating,deals,vists_per_deal,change,"
        "events_period,events_year,events_total,last_played,status,standing")
    header, *rows = (public / "2013Q4" / "list.csv").read_text(encoding="utf-8").splitlines()
    assert header.startswith("rank,player_id,federation_id,player,club,rating,boards,change,"
                             "events")
    assert len(rows) >= 40
    before = _snapshot(project / "public")
    with open_warehouse(cfg.warehouse) as wh:
        counts = wh.row_counts()

    code = main(["run", "--config", str(project / "clubratings.toml")])
    out = capsys.readouterr().out
    assert code == 0
    assert "16 duplicate" in out
    assert _snapshot(project / "public") == before
    with open_warehouse(cfg.warehouse) as wh:
        assert wh.row_counts() == counts  # nothing loaded, the same rating run kept
