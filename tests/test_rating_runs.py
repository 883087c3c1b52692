"""Rating runs are keyed by the code that computed them: a changed engine recomputes, an
unchanged one reuses the stored run."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

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


_PAIRS = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
          ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová"),
          ("Ivan Kráľ", "Oľga Kráľová"), ("Pavol Hudák", "Lucia Hudáková")]
_ORDERS = [[0, 1, 2, 3, 4], [3, 0, 4, 1, 5], [2, 5, 0, 3, 1], [1, 4, 3, 5, 0], [5, 2, 1, 0, 3]]


def _quarter(path: Path, quarter: int, corrected: int = 0) -> Path:
    """A club's file of one quarter of 2013-2014 (1..8): a night a month, the pairs in an
    order of their own; ``corrected``: the same file with that month's places changed."""
    events = []
    for month in range(3 * quarter - 2, 3 * quarter + 1):
        shift = 2 if month == corrected else 0
        pairs = [_PAIRS[i] for i in _ORDERS[(month + shift) % len(_ORDERS)]]
        day = f"{2013 + (month - 1) // 12}-{(month - 1) % 12 + 1:02d}-0{1 + month % 7}"
        events.append(club_event(day, pairs=pairs))
    path = path / f"club-q{quarter}.csv"
    path.write_bytes(csv_file(*events))
    return path


_PERIOD_TABLES = ("ratings", "rating_contributions", "rating_normalisations",
                  "rating_phantoms", "rating_period_digests", "rating_startup")


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _stored(wh: Warehouse, run_id: int) -> dict[str, Any]:
    return {t: wh.query(f"SELECT * EXCLUDE (run_id) FROM {t} WHERE run_id = ? ORDER BY ALL",
                        [run_id]) for t in _PERIOD_TABLES}


def _holders(wh: Warehouse, run_id: int) -> dict[str, int]:
    """Each period of a run, and the run whose stored rows hold it."""
    return {str(p): int(r) for p, r in wh.con.execute(
        "SELECT period, stored_run FROM run_periods WHERE run_id = ?", [run_id]).fetchall()}


def _stored_periods(wh: Warehouse, run_id: int) -> list[str]:
    """The periods of which a run stored rows itself, in any of its tables."""
    return sorted({str(r[0]) for t in ("ratings", "rating_contributions", "rating_phantoms",
                                       "rating_normalisations")
                   for r in wh.con.execute(f"SELECT DISTINCT period FROM stored_{t} "
                                           "WHERE run_id = ?", [run_id]).fetchall()})


def test_a_run_and_the_site_start_from_the_first_changed_quarter_as_full_ones_would(
        wh: Warehouse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BELO rates forward (docs/rules/bridge-belo.md §8): a run whose results changed from one
    quarter on keeps the stored quarters before it and rates on from the pool the quarter
    before left; its stored rows are bit for bit those of rating the whole history again,
    after new quarters and after a correction of an old one. The site draws again only the
    editions whose inputs changed, and comes out as a publication from scratch."""
    import dataclasses

    import pandas as pd

    import ratings
    import publishing._site as site_module
    from flows import ingest_file
    from publishing import publish_site
    from warehouse._load import Loader

    scheme = ratings.SCHEMES["belo2"]
    started: list[str] = []

    def resume(results: pd.DataFrame, params: object, state: ratings.PeriodState) -> object:
        started.append(state.period)
        assert scheme.resume is not None
        return scheme.resume(results, params, state)

    monkeypatch.setitem(ratings.SCHEMES, "belo2", dataclasses.replace(scheme, resume=resume))
    pool = PoolConfig("bridge", scheme="belo2")

    def full() -> int | None:
        """The whole history rated again (no run to take up, another code version)."""
        with monkeypatch.context() as m:
            m.setattr(steps, "resumable_run", lambda *a, **k: None)
            m.setattr(steps, "rating_code_version", lambda: f"full {len(started)}")
            run_id = steps.rate_pool(wh, pool).run_id
        steps.rate_pool(wh, pool)  # the incremental run's pool current again
        return run_id

    loader = Loader(wh)

    def load(*paths: Path, status: str = "loaded") -> None:
        for path in paths:
            assert ingest_file(wh, path, loader=loader).status == status, path

    load(*(_quarter(tmp_path, q) for q in range(1, 5)))
    first = steps.rate_pool(wh, pool)
    assert started == [] and first.periods[0] == "2013Q1" and first.periods[-1] == "2013Q4"
    load(*(_quarter(tmp_path, q) for q in range(5, 7)))
    more = steps.rate_pool(wh, pool)
    assert started == ["2014Q1"]
    assert more.periods == tuple(f"{y}Q{q}" for y in (2013, 2014) for q in range(1, 5))[:6]
    # the quarters kept are the first run's rows, not copies of them (migration 027)
    assert _holders(wh, more.run_id) == {**{f"2013Q{q}": first.run_id for q in range(1, 5)},
                                         "2014Q1": more.run_id, "2014Q2": more.run_id}
    assert _stored_periods(wh, more.run_id) == ["2014Q1", "2014Q2"]
    again = full()
    assert again is not None and more.run_id is not None
    whole = _stored(wh, again)
    for table, rows in _stored(wh, more.run_id).items():
        pd.testing.assert_frame_equal(rows, whole[table], check_exact=True, obj=table)
    site = tmp_path / "public"
    publish_site(wh, "bridge", site)
    # a corrected night of 2013Q3 (other places): rated again from 2013Q3, not before
    load(_quarter(tmp_path, 3, corrected=8), status="correction")
    corrected = steps.rate_pool(wh, pool)
    assert started[-1] == "2013Q3" and corrected.run_id is not None
    # what it kept is still the first run's rows (not the second's pointer to them)
    assert _holders(wh, corrected.run_id) == {
        "2013Q1": first.run_id, "2013Q2": first.run_id,
        **{p: corrected.run_id for p in ("2013Q3", "2013Q4", "2014Q1", "2014Q2")}}
    kept, redone = _stored(wh, more.run_id), _stored(wh, corrected.run_id)
    ratings_before, ratings_after = kept["ratings"], redone["ratings"]

    def early(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[frame["period"] < "2013Q3"].reset_index(drop=True)

    pd.testing.assert_frame_equal(early(ratings_after), early(ratings_before), check_exact=True)
    assert not ratings_after.equals(ratings_before)
    again = full()
    assert again is not None
    whole = _stored(wh, again)
    for table, rows in redone.items():
        pd.testing.assert_frame_equal(rows, whole[table], check_exact=True, obj=table)
    # the site: the editions before 2013Q3 are not drawn again, and every file is what a
    # publication into an empty folder writes
    drawn: list[int] = []
    real = site_module._csv_bytes
    monkeypatch.setattr(site_module, "_csv_bytes", lambda *a: drawn.append(1) or real(*a))
    publish_site(wh, "bridge", site)
    assert len(drawn) == 4  # 2013Q3 .. 2014Q2
    fresh = tmp_path / "fresh"
    publish_site(wh, "bridge", fresh)
    assert len(drawn) == 4 + 6
    assert _files(site) == _files(fresh)
