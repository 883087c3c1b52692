"""``clubratings explain`` and ``players show`` for every scheme: a go player game by game, a
preferans player segment by segment, found by a part of the name, accents ignored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flows import load_config
from cli import main
from flows.core import Project


@pytest.fixture
def rated(project: Path) -> Path:
    """The bundled sources loaded and rated (bridge, go, preferans)."""
    with Project.open(load_config(project / "clubratings.toml"), command="test") as p:
        p.prepare_identity()
        p.ingest()
        p.recompute()
    return project


def _cli(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([args[0], "--config", str(root / "clubratings.toml"), *args[1:]])
    out, err = capsys.readouterr()
    return code, out, err


def test_go_player_explained_game_by_game(rated: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(rated, capsys, "explain", "van der berg")  # the go list, found alone
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("player ") and ", pool go, rating run " in lines[0]
    assert lines[3].split() == ["opponent", "colour", "handicap", "expected", "result",
                                "change"]
    games = [x for x in lines[4:] if x and not x.startswith("sum")]
    assert games and all(x.split()[-2] in ("win", "loss", "jigo") for x in games)
    before, after = (float(v) for v in lines[1].split()[1:4:2])
    (footer,) = [x for x in lines if x.startswith("sum of the games' changes")]
    assert footer.split()[5].rstrip(";") == f"{after - before:+.1f}"


def test_preferans_player_explained_segment_by_segment(
        rated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(rated, capsys, "explain", "Morgan Alex", "--json")
    assert code == 0
    import json

    data = json.loads(out)
    assert data["pool"] == "preferans" and data["games"]
    total = sum(g["change"] for g in data["games"])
    assert abs(total - (data["rating"] - data["rating_before"])) < 1e-6
    assert {"table_rating", "vists", "deals"} <= set(data["games"][0])


def test_players_show_and_explain_take_a_name_without_accents(
        rated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(rated, capsys, "players", "show", "zielinski")
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith("Tadeusz Zieliński (confirmed, from results)")
    # what a rating officer needs: register, clubs, games, list positions, the last events
    assert "  register: in no member register" in lines
    assert "  clubs: Klub Singleton Warszawa (organiser)" in lines
    (games,) = [x for x in lines if x.startswith("  bridge: ")]
    found = re.fullmatch(r"  bridge: \d+ event\(s\) in force, 2013-07-04\.\.(\S+)", games)
    assert found, games
    assert "  lists: on no published list (clubratings recompute, then publish)" in lines
    last = lines[lines.index("  last events:") + 1:]
    assert len(last) == 5 and last[0].startswith(
        f"    {found[1]} bridge Klub Singleton Warszawa: "), last
    assert all(", place " in x for x in last)
    code, out, _ = _cli(rated, capsys, "explain", "Zielinski")
    assert code == 0 and "Tadeusz Zieliński, pool bridge" in out.splitlines()[0]
    code, _, err = _cli(rated, capsys, "players", "show", "Nobody Atall")
    assert code == 2 and err.startswith("clubratings: no player named")
