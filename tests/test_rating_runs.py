"""Rating runs are keyed by the code that computed them: a changed engine recomputes, an
unchanged one reuses the stored run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import flows._steps as steps
from flows._config import PoolConfig
from warehouse import Warehouse

from ._csvs import club_event, csv_file

ROOT = Path(__file__).resolve().parents[1]


def _load(wh: Warehouse, tmp_path: Path) -> None:
    from flows import ingest_file

    for day in ("2013-10-03", "2013-10-10", "2013-10-17"):
        path = tmp_path / f"club-{day}.csv"
        path.write_bytes(csv_file(club_event(day)))
        assert ingest_file(wh, path).status == "loaded"


def test_an_unchanged_engine_reuses_and_a_changed_one_recomputes(
        wh: Warehouse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _load(wh, tmp_path)
    pool = PoolConfig("bridge")
    first = steps.rate_pool(wh, pool)
    again = steps.rate_pool(wh, pool)
    assert not first.reused and again.reused and again.run_id == first.run_id
    monkeypatch.setattr(steps, "rating_code_version", lambda: "0.1.0+changed")
    changed = steps.rate_pool(wh, pool)
    assert not changed.reused and changed.run_id != first.run_id
    assert wh.con.execute("SELECT code_version FROM rating_runs WHERE run_id = ?",
                          [changed.run_id]).fetchall() == [("0.1.0+changed",)]


def test_the_rating_code_version_follows_the_rating_source(tmp_path: Path) -> None:
    copy = tmp_path / "ratings"
    shutil.copytree(ROOT / "ratings", copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = steps.source_hash(copy)
    assert before == steps.source_hash(ROOT / "ratings")
    belo = copy / "_belo.py"
    belo.write_text(belo.read_text(encoding="utf-8") + "\n# a changed engine\n",
                    encoding="utf-8")
    assert steps.source_hash(copy) != before
    assert ("+" + before) in steps.rating_code_version()  # then what a run stores


def test_a_unit_written_without_names_leaves_the_places_closed_up(tmp_path: Path) -> None:
    """A real night (Mercercrest, 8 Oct 2019) lists pair 9 at 10.5 without names: the field
    rated is the fourteen named pairs, places 1..14, and the night is rated."""
    import datetime as dt

    from parsers import Event, ParseResult, PlayerAsWritten, Unit
    from ratings._frames import check_results
    from warehouse import open_warehouse, results_frame
    from warehouse._load import Loader

    def unit(place: float, label: str, *names: str) -> Unit:
        return Unit(place, "", label, 80.0 - place, tuple(PlayerAsWritten(n) for n in names))

    surnames = ["Abel", "Berg", "Cole", "Dunn", "Egan", "Fry", "Gale", "Hart", "Ives", "Jones",
                "Kemp", "Lowe", "Moss", "Nash", "Owen"]
    named = [unit(float(i), str(i), f"Anna {surnames[i - 1]}", f"Bela {surnames[i - 1]}")
             for i in (*range(1, 10), *range(12, 16))]
    units = [*named[:9], unit(10.5, "9"), unit(10.5, "12", "Cyril Tie", "Dora Tie"),
             *named[9:]]
    event = Event("bridge", "Tuesday", dt.date(2019, 10, 8), "pairs", "MP", tuple(units),
                  section="A", organiser="Mercercrest")
    with open_warehouse(tmp_path / "wh.duckdb") as wh:
        Loader(wh).load(b"night", ParseResult("test", (event,)), path="night.txt")
        frame = check_results(results_frame(wh))
    places = sorted(set(frame["place"]))
    assert places == [float(p) for p in range(1, 15)]
    assert set(frame["n"]) == {14}
    tie = frame.loc[frame["unit"] == "11", "place"]  # the named pair tied with the nameless
    assert set(tie) == {10.0}
