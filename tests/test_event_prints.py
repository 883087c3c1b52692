"""What the loader compares a new file with is read from event_prints, one row per event
(migration 022): the same prints as from every unit and member, written the same way by the
loader and by the migration that fills the table for an older warehouse."""

from __future__ import annotations

import json
from pathlib import Path

from parsers import ParseError, parse_bytes
from warehouse import open_warehouse
from warehouse._load import Loader

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
# several layouts: pairs and teams, places shared, scores with decimals, go games, names with
# accents and apostrophes, units without players
SAMPLES = [
    *sorted((FIXTURES / "club_season").glob("*.csv"))[:3],
    *sorted((FIXTURES / "jfr_pary").glob("*.html"))[:2],
    *sorted((FIXTURES / "jfr_teamy").glob("*.html"))[:1],
    *sorted((FIXTURES / "opengotha").glob("*.xml"))[:2],
    *sorted((FIXTURES / "egd_table").glob("*.h*"))[:2],
    *sorted((FIXTURES / "usebio").glob("*.xml"))[:2],
    *sorted((FIXTURES / "pbn").glob("*.pbn"))[:2],
]


def _loaded(tmp_path: Path) -> Path:
    path = tmp_path / "wh.duckdb"
    with open_warehouse(path) as wh:
        loader = Loader(wh)
        for sample in SAMPLES:
            data = sample.read_bytes()
            try:
                result = parse_bytes(data, source=sample.name)
            except ParseError:
                continue
            loader.load(data, result, path=sample.name)
    return path


def test_prints_from_event_prints_equal_prints_from_units_and_members(tmp_path: Path) -> None:
    path = _loaded(tmp_path)
    with open_warehouse(path) as wh:
        ids = [int(r[0]) for r in wh.con.execute(
            "SELECT event_id FROM events ORDER BY event_id").fetchall()]
        assert len(ids) >= 10
        games = {str(r[0]) for r in wh.con.execute("SELECT DISTINCT game FROM events").fetchall()}
        assert {"bridge", "go"} <= games
        fresh = Loader(wh)  # a new run: nothing of the warehouse in memory
        bare = fresh._prints_of(ids)
        for i in ids:
            full = fresh._with_members(i)  # from unit_members, with who each name counts for
            assert bare[i].units == full.units, i
            assert bare[i].scores == full.scores, i
            assert (bare[i].game, bare[i].kind, bare[i].scoring, bare[i].date, bare[i].round,
                    bare[i].segment, bare[i].organiser, bare[i].section, bare[i].n_units,
                    bare[i].boards) == (full.game, full.kind, full.scoring, full.date,
                                        full.round, full.segment, full.organiser,
                                        full.section, full.n_units, full.boards), i
            assert len(full.members) == len(full.units)
            assert all(m[1] is not None for unit in full.members for m in unit)


def test_the_migration_writes_what_the_loader_writes(tmp_path: Path) -> None:
    path = _loaded(tmp_path)
    sql = (ROOT / "warehouse" / "migrations" / "022_event_prints.sql").read_text(encoding="utf-8")
    select = sql[sql.index("SELECT m.event_id"):sql.index(";", sql.index("SELECT m.event_id"))]
    with open_warehouse(path) as wh:
        written = {int(r[0]): json.loads(str(r[1])) for r in wh.con.execute(
            "SELECT event_id, units FROM event_prints").fetchall()}
        migrated = {int(r[0]): json.loads(str(r[1]))
                    for r in wh.con.execute(select).fetchall()}
        with_members = {int(r[0]) for r in wh.con.execute(
            "SELECT DISTINCT event_id FROM unit_members").fetchall()}
    assert set(written) == set(migrated) == with_members
    assert written == migrated
