"""A read-only snapshot of the warehouse for analysts, written after every run.

DuckDB admits one process per file while a writer has it open: during a run no other process
can even read ``data/clubratings.duckdb``. After publishing, the run therefore leaves a copy
that analysts read instead, and Parquet files of the main tables and of the published lists
and player histories (views edition_entries, player_history):

    data/snapshot/clubratings.duckdb        the whole warehouse (tables, views, migrations)
    data/snapshot/parquet/<name>.parquet    see EXPORTS
    data/snapshot/manifest.json             when, from which warehouse state (row counts and
                                            a digest of every row)

Every file is written under a temporary name in the same folder and renamed over the old one
(``os.replace``, atomic on POSIX): a reader sees the old file or the new one, never half of
one, and a reader that has the old file open keeps reading the old one. The manifest is
written last. A run that changed nothing (the manifest's digest of every row equals the
warehouse's) writes nothing: the snapshot on disk is already the warehouse as it is.

How the database is brought up to date: the snapshot database on disk is copied (its bytes,
under the temporary name), attached, and each table whose rows differ from the warehouse's
gets the warehouse's rows past the largest id it holds appended (a run adds events, files and
rating runs with larger ids), or, where that does not make the two tables equal, all its rows
replaced; tables that did not change are not touched. Each table ends with the warehouse's
rows (checked by a count and two sums of every row's hash), so the file says what a fresh copy
says, and a run that added a quarter to a large warehouse writes that quarter's rows, not the
whole history again. With no snapshot yet, after a migration (the schemas differ), or for a
warehouse file under ``UPDATE_FROM_BYTES`` (32 MiB, which copies faster than it compares), the
database is copied whole: ``CHECKPOINT``, then the file's bytes copied by another process
(``cp``). The copy must not be made in the writing process: DuckDB locks the warehouse with
POSIX ``fcntl`` record locks, which a process loses as soon as it closes *any* descriptor of
that file, so a ``close()`` here would let another process open the live warehouse mid-run
(tests/test_concurrency.py shows the lock holding after a snapshot); another process's
descriptors are its own. Where that cannot be done (no ``cp``, a write-ahead log left after
the checkpoint), ``ATTACH`` a new file and ``COPY FROM DATABASE`` on the writer's own
connection, which never opens the warehouse file a second time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ._atomic import temp_path
from ._db import Warehouse, sql_string

__all__ = ["EXPORTS", "Snapshot", "snapshot_dir", "state_digest", "write_snapshot"]

_LATEST_RUNS = "runs_in_force"
"""The run of every pool the published lists come from (view ``runs_in_force``: the run its
last recompute made or reused; none for a pool with nothing in force)."""

EXPORTS: dict[str, str] = {
    # every player row, with the player its results count for (merges in force, view
    # player_canonical: a merged-away player keeps its row)
    "players": "SELECT p.*, c.canonical_id FROM players p JOIN player_canonical c "
               "USING (player_id) ORDER BY player_id",
    # the events in force: corrections applied (view active_events)
    "events": "SELECT * FROM active_events ORDER BY event_id",
    # units and members of the events in force only, so that they match events.parquet
    "units": "SELECT u.* FROM units u SEMI JOIN active_events e USING (event_id) "
             "ORDER BY u.event_id, u.unit_no",
    "unit_members": "SELECT m.* FROM unit_members m SEMI JOIN active_events e USING (event_id) "
                    "ORDER BY m.event_id, m.unit_no, m.seat",
    "ratings": f"SELECT l.pool, l.scheme, r.* FROM ratings r JOIN {_LATEST_RUNS} l "
               "USING (run_id) ORDER BY r.run_id, r.period, r.player_id",
    "rating_contributions": f"SELECT l.pool, l.scheme, c.* FROM rating_contributions c "
                            f"JOIN {_LATEST_RUNS} l USING (run_id) "
                            "ORDER BY c.run_id, c.period, c.event_id, c.player_id",
    # the published lists row by row (view edition_entries: every edition of each pool's run
    # in force, with rank and standing), as the publisher wrote them
    "edition_entries": "SELECT * FROM edition_entries "
                       "ORDER BY pool, period_end, edition, rank NULLS LAST, player_id",
    # each player's periods with events in the runs in force (view player_history; the
    # periods that only carry a rating over are in ratings.parquet)
    "player_history": "SELECT * FROM player_history "
                      "ORDER BY pool, player_id, period_start, period",
}
"""Parquet file name (without ``.parquet``) -> the query that fills it."""


UPDATE_FROM_BYTES = 32 << 20
"""A warehouse file smaller than this is copied whole into the snapshot: comparing the two
databases table by table costs more than copying a small one."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What :func:`write_snapshot` wrote."""

    database: Path
    parquet: dict[str, Path]
    manifest: Path
    taken_at: str
    row_counts: dict[str, int]
    """Rows per base table of the warehouse at the time of the snapshot."""
    exported: dict[str, int]
    """Rows per Parquet file."""
    runs: dict[str, int]
    """The latest run of each pool (the one exported)."""
    unchanged: bool = False
    """The warehouse is as it was when the snapshot on disk was taken: nothing was written."""

    def summary(self) -> str:
        """One line for the command line and the flow log."""
        if self.unchanged:
            return (f"snapshot: {self.database} unchanged (the warehouse is as it was at "
                    f"{self.taken_at})")
        return (f"snapshot: {self.database} and {len(self.parquet)} Parquet files under "
                f"{self.database.parent / 'parquet'} ({self.taken_at})")


def snapshot_dir(warehouse_path: Path | str) -> Path:
    """``data/clubratings.duckdb`` -> ``data/snapshot``."""
    return Path(warehouse_path).parent / "snapshot"


def _ident(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _remove(*paths: Path) -> None:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _publish(tmp: Path, final: Path) -> None:
    """Read-only for everyone, then renamed over the old file in one step."""
    tmp.chmod(0o444)
    os.replace(tmp, final)


def _schema(wh: Warehouse, catalog: str) -> str:
    """Every table's and view's columns, types, comments and definitions in ``catalog``: equal
    for the warehouse and its snapshot when no migration came between them."""
    rows = wh.con.execute(
        "SELECT 'c', table_name, column_name, data_type, coalesce(comment, '') "
        "FROM duckdb_columns() WHERE database_name = ? AND schema_name = 'main' "
        "UNION ALL SELECT 't', table_name, '', '', coalesce(comment, '') FROM duckdb_tables() "
        "WHERE database_name = ? AND schema_name = 'main' "
        "UNION ALL SELECT 'v', view_name, '', sql, coalesce(comment, '') FROM duckdb_views() "
        "WHERE database_name = ? AND schema_name = 'main' AND NOT internal ORDER BY ALL",
        [catalog, catalog, catalog]).fetchall()
    return hashlib.sha256(repr(rows).encode("utf-8")).hexdigest()


_ROWS = "count(*), coalesce(bit_xor(hash(x)), 0), coalesce(sum(hash(x)), 0)"
"""A table's rows counted, and two sums of every row's hash (all columns): equal for two
tables with the same rows (the second counts a row twice where the first cancels it)."""


def _table_rows(wh: Warehouse, catalog: str) -> dict[str, tuple[int, int, int]]:
    """Per base table of ``catalog``: :data:`_ROWS`."""
    tables = [str(r[0]) for r in wh.con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = ? "
        "AND schema_name = 'main' ORDER BY 1", [catalog]).fetchall()]
    parts = " UNION ALL ".join(
        f"SELECT {sql_string(t)} AS t, {_ROWS} FROM {_ident(catalog)}.main.{_ident(t)} x"
        for t in tables)
    return {str(t): (int(n), int(h), int(m)) for t, n, h, m in wh.con.execute(parts).fetchall()}


def _append_keys(wh: Warehouse) -> dict[str, str]:
    """Per base table: the integer id its rows are appended by (its first column, ``run_id``,
    ``event_id``, ``file_id`` ...), where it has one."""
    return {str(table): str(column) for table, column, kind in wh.con.execute(
        "SELECT table_name, first(column_name ORDER BY column_index), "
        "first(data_type ORDER BY column_index) FROM duckdb_columns() "
        "WHERE database_name = current_database() AND schema_name = 'main' GROUP BY ALL"
    ).fetchall() if str(column).endswith("_id") and kind in ("INTEGER", "BIGINT")}


def _update_database(wh: Warehouse, final: Path) -> bool:
    """Bring the snapshot database ``final`` up to the warehouse through a copy of it: the
    tables that changed get the warehouse's rows appended (rows past the largest id the
    snapshot holds, when that makes the two tables equal) or replaced; the others stay as
    they are. Same tables, same rows as :func:`_copy_database` writes, in a fraction of the
    time when a run added rows to a large warehouse. False (nothing written) when there is
    no snapshot to start from or a migration changed the schema since."""
    if not final.is_file():
        return False
    tmp = temp_path(final)
    wal = tmp.with_name(tmp.name + ".wal")
    _remove(tmp, wal)
    shutil.copyfile(final, tmp)
    tmp.chmod(0o644)
    source = str(wh.con.execute("SELECT current_database()").fetchall()[0][0])
    alias = _snapshot_alias(source)
    try:
        wh.con.execute(f"ATTACH {sql_string(str(tmp))} AS {alias}")
        try:
            if _schema(wh, alias) != _schema(wh, source):
                _remove(tmp, wal)
                return False
            have, want = _table_rows(wh, alias), _table_rows(wh, source)
            keys = _append_keys(wh)
            for table, state in want.items():
                if have.get(table) == state:
                    continue
                target = f"{alias}.main.{_ident(table)}"
                origin = f"{_ident(source)}.main.{_ident(table)}"
                key = keys.get(table)
                if key is not None:
                    wh.con.execute(
                        f"INSERT INTO {target} SELECT * FROM {origin} WHERE {_ident(key)} > "
                        f"(SELECT coalesce(max({_ident(key)}), -2147483648) FROM {target})")
                    if _table_rows_of(wh, alias, table) == state:
                        continue
                wh.con.execute(f"DELETE FROM {target}")
                wh.con.execute(f"INSERT INTO {target} SELECT * FROM {origin}")
            wh.con.execute(f"CHECKPOINT {alias}")
        finally:
            wh.con.execute(f"DETACH {alias}")
        if wal.exists():
            raise RuntimeError(f"snapshot {str(tmp)!r} left a write-ahead log after DETACH")
        _publish(tmp, final)
    except BaseException:
        _remove(tmp, wal)
        raise
    return True


def _table_rows_of(wh: Warehouse, catalog: str, table: str) -> tuple[int, int, int]:
    n, h, m = wh.con.execute(
        f"SELECT {_ROWS} FROM {_ident(catalog)}.main.{_ident(table)} x").fetchall()[0]
    return int(n), int(h), int(m)


def _copy_database(wh: Warehouse, final: Path) -> None:
    tmp = temp_path(final)
    wal = tmp.with_name(tmp.name + ".wal")
    _remove(tmp, wal)  # left over by a run that died half-way
    try:
        if not _copy_file(wh, tmp):
            _copy_by_attach(wh, tmp, wal)
        _publish(tmp, final)
    except BaseException:
        _remove(tmp, wal)  # the old snapshot stays as it was
        raise


def _copy_file(wh: Warehouse, tmp: Path) -> bool:
    """The warehouse's bytes, checkpointed, copied to ``tmp`` by another process (``cp``): the
    copy's descriptors are that process's, so this one keeps its lock (a copy made here would
    drop it, see the module docstring). False (nothing written) where the warehouse keeps a
    write-ahead log after the checkpoint, or ``cp`` is missing or fails."""
    cp = shutil.which("cp")
    live = wh.path
    if cp is None:
        return False
    wh.con.execute("CHECKPOINT")
    if live.with_name(live.name + ".wal").exists():
        return False
    done = subprocess.run([cp, "--", str(live), str(tmp)], capture_output=True, check=False)
    if done.returncode != 0 or not tmp.is_file():
        _remove(tmp)
        return False
    tmp.chmod(0o644)
    return True


def _snapshot_alias(source: str) -> str:
    """The snapshot's name while it is attached beside the warehouse ``source``: one per
    warehouse, as the warehouses open in one process share one DuckDB instance."""
    return "clubratings_snapshot_" + re.sub(r"\W", "_", source, flags=re.ASCII)


def _copy_by_attach(wh: Warehouse, tmp: Path, wal: Path) -> None:
    """``COPY FROM DATABASE`` into a new file ``tmp``, on the warehouse's own connection."""
    source = wh.con.execute("SELECT current_database()").fetchall()[0][0]
    alias = _snapshot_alias(source)
    wh.con.execute(f"ATTACH {sql_string(str(tmp))} AS {alias}")
    try:
        wh.con.execute(f"COPY FROM DATABASE {_ident(source)} TO {alias}")
        wh.con.execute(f"CHECKPOINT {alias}")
    finally:
        wh.con.execute(f"DETACH {alias}")
    if wal.exists():  # everything must be in the one file that is renamed
        raise RuntimeError(f"snapshot {str(tmp)!r} left a write-ahead log after DETACH")


def _export_parquet(wh: Warehouse, folder: Path) -> tuple[dict[str, Path], dict[str, int]]:
    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    counts: dict[str, int] = {}
    for name, query in EXPORTS.items():
        final = folder / f"{name}.parquet"
        tmp = temp_path(final)
        _remove(tmp)
        # COPY answers with the rows it wrote
        counts[name] = int(wh.con.execute(
            f"COPY ({query}) TO {sql_string(str(tmp))} (FORMAT parquet)").fetchall()[0][0])
        _publish(tmp, final)
        paths[name] = final
    return paths, counts


def _write_json(final: Path, data: object) -> None:
    tmp = temp_path(final)
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    _publish(tmp, final)


_STAMPS = {"current_runs": "pool, run_id"}
"""Tables with a column that changes on every run without changing what it says (when a pool's
current run was last confirmed): only these columns count for the state."""


def _state(wh: Warehouse) -> tuple[str, dict[str, int]]:
    """:func:`state_digest` and the rows of every base table, from one query."""
    tables = wh.base_tables()
    parts = " UNION ALL ".join(
        f"SELECT {sql_string(t)} AS t, count(*) AS n, "
        f"coalesce(bit_xor(hash({_STAMPS.get(t, 'x')})), 0) AS h FROM {_ident(t)} x"
        for t in tables)
    rows = wh.con.execute(f"SELECT * FROM ({parts}) ORDER BY t").fetchall()
    return (hashlib.sha256(repr(rows).encode("utf-8")).hexdigest(),
            {str(t): int(n) for t, n, _ in rows})


def state_digest(wh: Warehouse) -> str:
    """A digest of every row of every base table: equal digests, equal warehouses (one query,
    about 0.1 s for a national history)."""
    return _state(wh)[0]


def _unchanged(folder: Path, database: Path, state: str) -> Snapshot | None:
    """The snapshot on disk when it was taken of a warehouse in ``state`` and is whole."""
    manifest = folder / "manifest.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("source", {}).get("state") != state:
        return None
    parquet = {name: folder / str(entry["file"]) for name, entry in data["parquet"].items()}
    if set(parquet) != set(EXPORTS) or not database.is_file() or not all(
            p.is_file() for p in parquet.values()):
        return None
    return Snapshot(database=database, parquet=parquet, manifest=manifest,
                    taken_at=str(data["taken_at"]),
                    row_counts=dict(data["source"]["row_counts"]),
                    exported={n: int(e["rows"]) for n, e in data["parquet"].items()},
                    runs=dict(data["latest_runs"]), unchanged=True)


def write_snapshot(wh: Warehouse, folder: Path | None = None) -> Snapshot:
    """Write the snapshot database, the Parquet exports and the manifest of ``wh``; when the
    snapshot on disk was taken of the warehouse as it is now (``state_digest``), nothing.

    ``folder`` defaults to ``snapshot/`` beside the warehouse. Call it while holding the run
    lock (flows/_lock.py) and outside any transaction: it reads the warehouse as it is.
    """
    folder = folder if folder is not None else snapshot_dir(wh.path)
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / wh.path.name
    state, row_counts = _state(wh)
    kept = _unchanged(folder, database, state)
    if kept is not None:
        return kept
    taken_at = datetime.now().astimezone().isoformat(timespec="seconds")
    runs = {str(pool): int(run_id) for pool, run_id in wh.con.execute(
        "SELECT pool, run_id FROM runs_in_force ORDER BY pool").fetchall()}
    if wh.path.stat().st_size < UPDATE_FROM_BYTES or not _update_database(wh, database):
        _copy_database(wh, database)
    parquet, exported = _export_parquet(wh, folder / "parquet")
    manifest = folder / "manifest.json"
    _write_json(manifest, {
        "taken_at": taken_at,
        "source": {"warehouse": str(wh.path), "row_counts": row_counts, "state": state},
        "latest_runs": runs,
        "database": database.name,
        "parquet": {name: {"file": f"parquet/{p.name}", "rows": exported[name]}
                    for name, p in parquet.items()},
    })
    return Snapshot(database=database, parquet=parquet, manifest=manifest, taken_at=taken_at,
                    row_counts=row_counts, exported=exported, runs=runs)
