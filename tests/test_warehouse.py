"""Loading into the warehouse: all or nothing, duplicates, corrections, migrations."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import ParseResult, PlayerAsWritten, parse_bytes
from warehouse import (
    IdentityResolver,
    IdentitySettings,
    Loader,
    LoadError,
    LoadReport,
    Parsed,
    Warehouse,
    load_result,
    open_warehouse,
    raw_bytes,
    results_frame,
)

from warehouse._identity_db import resolver_for

from ._csvs import club_event, csv_file
from ._lifecycle import events_in_force


def _load(wh: Warehouse, data: bytes, name: str = "club.csv"):  # type: ignore[no-untyped-def]
    return load_result(wh, data, parse_bytes(data, source=name), path=name)


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    path = tmp_path / "wh.duckdb"
    with open_warehouse(path) as wh:
        first = wh.con.execute("SELECT version, name FROM schema_migrations").fetchall()
    with open_warehouse(path) as wh:
        again = wh.con.execute("SELECT version, name FROM schema_migrations").fetchall()
    files = sorted((Path(__file__).parents[1] / "warehouse" / "migrations").glob("*.sql"))
    expected = [(int(f.stem[:3]), f.stem[4:]) for f in files]
    assert first == again == expected
    assert expected[:2] == [(1, "core"), (2, "identity")]


def _schema(con: object) -> dict[str, list[tuple[object, ...]]]:
    """Everything of a warehouse's schema an analyst or the code can see."""
    queries = {
        "tables": "SELECT table_name, comment, sql FROM duckdb_tables() "
                  "WHERE database_name = current_database() ORDER BY 1",
        "views": "SELECT view_name, comment, sql FROM duckdb_views() "
                 "WHERE NOT internal AND database_name = current_database() ORDER BY 1",
        "columns": "SELECT table_name, column_name, column_index, data_type, column_default, "
                   "is_nullable, comment FROM duckdb_columns() "
                   "WHERE database_name = current_database() ORDER BY 1, 3",
        "constraints": "SELECT table_name, constraint_type, constraint_text, expression "
                       "FROM duckdb_constraints() WHERE database_name = current_database() "
                       "ORDER BY ALL",
        "migrations": "SELECT version, name FROM schema_migrations ORDER BY 1",
    }
    return {k: con.execute(q).fetchall() for k, q in queries.items()}  # type: ignore[attr-defined]


def test_a_new_warehouse_is_the_migrations_replayed(tmp_path: Path) -> None:
    """A new warehouse is copied from one migrated in memory: the same schema, comments
    included, as replaying every migration on an empty file; no temporary file is left."""
    import duckdb

    from warehouse._db import _migrate

    with open_warehouse(tmp_path / "copied" / "wh.duckdb") as wh:
        copied = _schema(wh.con)
    con = duckdb.connect(str(tmp_path / "replayed.duckdb"))
    try:
        _migrate(con)
        replayed = _schema(con)
    finally:
        con.close()
    assert copied["columns"] and any(row[-1] for row in copied["columns"])  # comments kept
    assert copied == replayed
    assert sorted(p.name for p in (tmp_path / "copied").iterdir()) == ["wh.duckdb"]


def test_warehouses_open_at_once_in_one_process_keep_apart_and_give_their_files_back(
        tmp_path: Path) -> None:
    """The warehouses a process opens share one DuckDB instance (each file attached once):
    two files open at once each see their own rows and tables; the same file opened twice is
    one database; its lock is given back when the last of them closes, or when one is dropped
    without closing; one file is not opened read-only and for writing at once."""
    import subprocess
    import sys

    from warehouse import TransientWarehouseError, WarehouseError

    a_path, b_path = tmp_path / "a" / "wh.duckdb", tmp_path / "b" / "wh.duckdb"
    probe = ("import duckdb, sys; duckdb.connect(sys.argv[1], read_only=True).close()")

    def free(path: Path) -> bool:  # another process can open it
        return subprocess.run([sys.executable, "-c", probe, str(path)], check=False,
                              capture_output=True).returncode == 0

    with open_warehouse(a_path) as a, open_warehouse(b_path) as b:
        _load(a, csv_file(club_event("2013-10-03")), "a.csv")
        assert b.row_counts()["events"] == 0 and a.row_counts()["events"] == 1
        assert set(a.row_counts()) == set(b.row_counts())  # each its own tables, once
        with open_warehouse(a_path) as again:
            assert again.row_counts() == a.row_counts()
            with pytest.raises(WarehouseError, match="different configuration"):
                open_warehouse(a_path, read_only=True)
        assert a.con.execute("SELECT count(*) FROM events").fetchall() == [(1,)]
        assert not free(a_path)
    assert free(a_path) and free(b_path)
    assert not a_path.with_name("wh.duckdb.wal").exists()  # checkpointed when given back
    dropped = open_warehouse(b_path)
    assert not free(b_path)
    del dropped
    assert free(b_path)
    with open_warehouse(a_path, read_only=True) as ro:
        assert ro.row_counts()["events"] == 1
    held = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; "
                             "c = duckdb.connect(sys.argv[1]); print(1, flush=True); "
                             "time.sleep(30)", str(a_path)], stdout=subprocess.PIPE)
    try:
        assert held.stdout is not None and held.stdout.readline()
        with pytest.raises(TransientWarehouseError):
            open_warehouse(a_path)
    finally:
        held.kill()
        held.wait()
    with open_warehouse(a_path) as a:  # and the failed attempt left nothing behind
        assert a.row_counts()["events"] == 1


def test_load_writes_every_table_and_keeps_the_raw_file(wh: Warehouse) -> None:
    data = csv_file(club_event())
    report = _load(wh, data)
    assert report.status == "loaded"
    assert report.events == 1
    assert report.players_created == 8
    counts = wh.row_counts()
    assert counts["source_files"] == 1
    assert counts["events"] == 1
    assert counts["units"] == 4
    assert counts["unit_members"] == 8
    assert counts["players"] == 8
    assert counts["player_aliases"] == 8
    (event_file,) = wh.con.execute("SELECT file_id FROM events").fetchall()[0]
    assert event_file == report.file_id
    assert raw_bytes(wh, report.file_id) == data


def test_same_bytes_again_load_nothing(wh: Warehouse) -> None:
    data = csv_file(club_event())
    first = _load(wh, data)
    before = wh.row_counts()
    second = _load(wh, data, name="renamed.csv")
    assert second.status == "duplicate"
    assert second.file_id == first.file_id
    assert wh.row_counts() == before


def test_players_recur_across_files_by_name_key(wh: Warehouse) -> None:
    _load(wh, csv_file(club_event("2013-10-03")), "a.csv")
    # Same people, one written without diacritics and in the other name order.
    pairs = [("Novak Jan", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
             ("Jozef Varga", "Anna Nagyová")]
    report = _load(wh, csv_file(club_event("2013-10-10", pairs=pairs)), "b.csv")
    assert report.players_created == 0
    aliases = wh.con.execute(
        "SELECT spelling FROM player_aliases a JOIN players p USING (player_id) "
        "WHERE p.name = 'Ján Novák'"
    ).fetchall()
    assert sorted(aliases) == [("Ján Novák",), ("Novak Jan",)]


def test_correction_replaces_the_event_and_is_recorded(wh: Warehouse) -> None:
    original = _load(wh, csv_file(club_event(places=["1", "2", "3", "4"])), "a.csv")
    corrected = _load(wh, csv_file(club_event(places=["2", "1", "3", "4"])), "a-fixed.csv")
    assert corrected.status == "correction"
    assert len(corrected.replaced_events) == 1
    old_event = corrected.replaced_events[0]
    rows = wh.con.execute(
        "SELECT event_id, replaced_by, file_id FROM event_replacements").fetchall()
    new_event = wh.con.execute(
        "SELECT event_id FROM events WHERE file_id = ?", [corrected.file_id]).fetchall()[0][0]
    assert rows == [(old_event, new_event, corrected.file_id)]
    assert wh.con.execute("SELECT count(*) FROM active_events").fetchall()[0][0] == 1
    assert wh.con.execute("SELECT count(*) FROM events").fetchall()[0][0] == 2
    frame = results_frame(wh)
    assert set(frame["event_id"]) == {str(new_event)}
    winner = frame[frame["place"] == 1.0]
    names = set(wh.con.execute(
        "SELECT name FROM players WHERE player_id IN ("
        + ",".join(winner["player"]) + ")").fetchall())
    assert names == {("Eva Horváthová",), ("Mária Tóthová",)}
    assert original.file_id != corrected.file_id


def test_failed_load_leaves_the_warehouse_exactly_as_before(wh: Warehouse) -> None:
    _load(wh, csv_file(club_event("2013-10-03")), "a.csv")
    before = wh.row_counts()
    players_before = wh.con.execute("SELECT * FROM players ORDER BY 1").fetchall()
    raw_before = sorted(p.name for p in wh.raw_dir.rglob("*") if p.is_file())

    calls = 0

    def exploding(w: Warehouse, settings: IdentitySettings) -> IdentityResolver:
        resolver = resolver_for(w, settings)
        resolve_event = resolver.resolve_event

        def explode(event, event_ref=None, seated=()):  # type: ignore[no-untyped-def]
            nonlocal calls
            calls += 1
            if calls > 1:  # the first event's rows are staged by now
                raise RuntimeError("disk on fire")
            return resolve_event(event, event_ref, seated)

        resolver.resolve_event = explode  # type: ignore[method-assign]
        return resolver

    data = csv_file(club_event("2013-10-10", title="Other"), club_event("2013-10-17"))
    with pytest.raises(RuntimeError, match="disk on fire"):
        Loader(wh, resolver=exploding).load(data, parse_bytes(data, source="b.csv"),
                                            path="b.csv")
    assert wh.row_counts() == before
    assert wh.con.execute("SELECT * FROM players ORDER BY 1").fetchall() == players_before
    assert sorted(p.name for p in wh.raw_dir.rglob("*") if p.is_file()) == raw_before
    # and the warehouse still takes the file afterwards
    assert _load(wh, data, "b.csv").events == 2


def test_one_event_twice_in_a_file_is_refused(wh: Warehouse) -> None:
    data = csv_file(club_event())
    (event,) = parse_bytes(data, source="club.csv").events
    twice = ParseResult("csv_template", (event, event))
    with pytest.raises(LoadError, match="same organiser, date, title and section"):
        load_result(wh, data, twice, path="twice.csv")
    assert wh.row_counts()["events"] == 0
    assert wh.row_counts()["source_files"] == 0


def _table_rows(wh: Warehouse) -> dict[str, list[tuple[object, ...]]]:
    skip = {"loaded_at", "created_at", "replaced_at", "applied_at"}
    out = {}
    for table in wh.row_counts():
        cols = [
            r[0] for r in wh.con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_catalog = "
                "current_database() AND table_name = ? ORDER BY ordinal_position", [table]).fetchall() if r[0] not in skip
        ]
        out[table] = wh.con.execute(
            f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()
    return out


def test_batch_load_equals_file_by_file_and_isolates_a_bad_file(tmp_path: Path) -> None:
    files = [
        csv_file(club_event("2013-10-03")),
        csv_file(club_event("2013-10-10", places=["2", "1", "3", "4"])),
        csv_file(club_event("2013-10-03", places=["1", "2", "4", "3"])),  # corrects the first
        csv_file(club_event("2013-10-17")),
    ]
    parsed = [Parsed(d, parse_bytes(d, source=f"f{i}.csv"), f"f{i}.csv")
              for i, d in enumerate(files)]
    (event,) = parsed[1].result.events
    bad = Parsed(b"bad", ParseResult("csv_template", (event, event)), "bad.csv")

    with open_warehouse(tmp_path / "one" / "wh.duckdb") as one:
        for p in parsed:
            load_result(one, p.data, p.result, path=p.path)
        expected = _table_rows(one)
    with open_warehouse(tmp_path / "batch" / "wh.duckdb") as batch:
        outcomes = Loader(batch).load_many([*parsed[:2], bad, *parsed[2:]])
        assert [type(o).__name__ for o in outcomes] == [
            "LoadReport", "LoadReport", "LoadError", "LoadReport", "LoadReport",
        ]
        assert [o.status for o in outcomes if isinstance(o, LoadReport)] == [
            "loaded", "loaded", "correction", "loaded",
        ]
        assert _table_rows(batch) == expected


def test_the_events_in_force_kept_are_what_their_rules_derive_after_every_kind_of_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table events_in_force (migration 026) against its rules (view
    events_in_force_rules) after a batch that only adds events (added, not derived), a
    correction from a file of another name, a second rendering, a new version, a withdrawal, a
    restore, and a batch that fails inside its transaction (rolled back with it)."""
    from warehouse.files import restore_file, withdraw_file

    def parsed(name: str, *events: str) -> Parsed:
        data = csv_file(*events)
        return Parsed(data, parse_bytes(data, source=name), name)

    swapped = ["2", "1", "3", "4"]
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        loader = Loader(wh)
        loaded = loader.load_many([parsed("a.csv", club_event("2013-10-03")),
                                   parsed("b.csv", club_event("2013-10-10"))])
        assert [r.status for r in loaded if isinstance(r, LoadReport)] == ["loaded"] * 2
        assert events_in_force(wh) == [1, 2]
        loader.load_many([parsed("a-fixed.csv", club_event("2013-10-03", places=swapped))])
        assert events_in_force(wh) == [2, 3]  # the correction replaces event 1
        loader.load_many([parsed("b-again.csv", club_event("2013-10-10", title="Pairs"))])
        assert events_in_force(wh) == [2, 3]  # a second rendering of event 2, not counted again
        loader.load_many([parsed("b.csv", club_event("2013-10-10", places=swapped))])
        assert events_in_force(wh) == [3, 5]  # b.csv's new version supersedes event 2
        fixed = int(wh.con.execute(
            "SELECT file_id FROM source_files WHERE name = 'a-fixed.csv'").fetchall()[0][0])
        withdraw_file(wh, fixed)
        assert events_in_force(wh) == [1, 5]  # event 1 back while its correction is withdrawn
        restore_file(wh, fixed)
        assert events_in_force(wh) == [3, 5]

        real_insert = wh.insert_columns

        def failing(table: str, columns: dict[str, list[object]]) -> None:
            if table == "units":
                raise OSError("disk full")
            real_insert(table, columns)

        monkeypatch.setattr(wh, "insert_columns", failing)
        outcomes = loader.load_many([parsed("c.csv", club_event("2013-10-17")),
                                     parsed("d.csv", club_event("2013-10-24"))])
        assert [type(o) for o in outcomes] == [OSError, OSError], outcomes
        assert events_in_force(wh) == [3, 5]  # nothing of the failed batch, in the table or out


def test_runs_stored_whole_before_migration_027_read_as_they_did(tmp_path: Path) -> None:
    """Migration 027: a run that took up an earlier one used to copy its kept periods; after
    the migration every run still reads its own rows, period for period, through the views of
    the old names, and a run stored afterwards points at the kept rows instead."""
    import duckdb
    import pandas as pd

    from warehouse._db import _migrate, _migrations

    con = duckdb.connect(str(tmp_path / "old.duckdb"))
    try:
        con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                    "name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
        for version, name, sql in _migrations():
            if version < 27:
                con.execute(sql)
                con.execute("INSERT INTO schema_migrations VALUES (?, ?, now()::TIMESTAMP)",
                            [version, name])
        # run 2 took up run 1 at 2013Q2 and so holds a copy of its 2013Q1
        for run_id, period, rating in ((1, "2013Q1", 510.0), (1, "2013Q2", 520.0),
                                       (2, "2013Q1", 510.0), (2, "2013Q2", 525.0)):
            con.execute("INSERT INTO ratings VALUES (?, ?, '2013-01-01', '2013-03-31', 7, "
                        "500, ?, 1, NULL, NULL, NULL, NULL, NULL, NULL)",
                        [run_id, period, rating])
        con.execute("INSERT INTO rating_normalisations VALUES (2, '2013Q3', 0.99)")
        before = {r: con.execute("SELECT * FROM ratings WHERE run_id = ? ORDER BY ALL",
                                 [r]).fetchall() for r in (1, 2)}
        assert _migrate(con) == [v for v, _, _ in _migrations() if v >= 27]
        after = {r: con.execute("SELECT * FROM ratings WHERE run_id = ? ORDER BY ALL",
                                [r]).fetchall() for r in (1, 2)}
        assert after == before
        assert con.execute("SELECT * FROM rating_normalisations").fetchall() == [
            (2, "2013Q3", 0.99)]
        assert con.execute("SELECT run_id, period, stored_run FROM run_periods "
                           "ORDER BY ALL").fetchall() == [
            (1, "2013Q1", 1), (1, "2013Q2", 1), (2, "2013Q1", 2), (2, "2013Q2", 2),
            (2, "2013Q3", 2)]
    finally:
        con.close()
    # a run stored now over that warehouse keeps 2013Q1 of run 2 by pointing at its rows
    from warehouse._runs import store_run

    with open_warehouse(tmp_path / "old.duckdb") as wh:
        wh.insert_frame("rating_runs", pd.DataFrame({
            "run_id": [1, 2], "pool": "bridge", "scheme": "belo2", "options": "{}",
            "period_unit": "quarter", "first_period": "2013Q1", "last_period": "2013Q2",
            "inputs_sha256": ["a", "b"], "code_version": "y",
            "created_at": pd.Timestamp("2014-01-01")}))
        ratings = pd.DataFrame({"period": ["2013Q2"], "period_start": [pd.Timestamp("2013-04-01")],
                                "period_end": [pd.Timestamp("2013-06-30")], "player": ["7"],
                                "rating_before": [510.0], "rating": [530.0], "events": [2]})
        run_id = store_run(wh, pool="bridge", scheme="belo2", options={}, period_unit="quarter",
                           inputs_sha256="x", code_version="y", ratings=ratings,
                           contributions=pd.DataFrame(), normalisations=pd.DataFrame(),
                           kept=(2, "2013Q2"))
        assert run_id == 3
        assert wh.con.execute("SELECT period, rating FROM ratings WHERE run_id = ? "
                              "ORDER BY 1", [run_id]).fetchall() == [
            ("2013Q1", 510.0), ("2013Q2", 530.0)]
        assert wh.con.execute("SELECT count(*) FROM stored_ratings").fetchall() == [(5,)]
        assert wh.con.execute("SELECT period, stored_run FROM run_periods WHERE run_id = 3 "
                              "ORDER BY 1").fetchall() == [("2013Q1", 2), ("2013Q2", 3)]

