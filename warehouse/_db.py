"""Opening the DuckDB warehouse, numbered migrations, transactions."""

from __future__ import annotations

import functools
import itertools
import os
import re
import tempfile
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import duckdb
import pandas as pd

from ._atomic import temp_path
from ._errors import TransientWarehouseError, WarehouseError

__all__ = ["DEFAULT_PATH", "Warehouse", "open_warehouse"]

DEFAULT_PATH = Path("data/clubratings.duckdb")

_MIGRATION_NAME = re.compile(r"^(\d{3})_(\w+)\.sql$")


REFRESH_FORCE = ("DELETE FROM events_in_force; "
                 "INSERT INTO events_in_force SELECT event_id FROM events_in_force_rules")
"""Derive the events in force again (table ``events_in_force``, view ``events_in_force_rules``)."""


@dataclass
class Warehouse:
    """An open warehouse: the DuckDB connection plus the folder that keeps raw files."""

    con: duckdb.DuckDBPyConnection
    path: Path
    _release: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Gives the warehouse file back to the process's DuckDB instance (:func:`_attach`)."""

    @property
    def raw_dir(self) -> Path:
        """Content-addressed store of every loaded file (``raw/ab/abcdef...``)."""
        base = self.path.parent if str(self.path) != ":memory:" else Path(".")
        return base / "raw"

    def close(self) -> None:
        self.con.close()
        if self._release is not None:
            self._release()

    def __enter__(self) -> Warehouse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, *, force: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """All or nothing: commit when the block ends, roll back if it raises. ``force``: the
        block may change which events are in force (a load, a withdrawal or restore, an answer
        to a held version or correction), so the table of them is derived again from the rules
        before the commit, with the change (migration 026)."""
        self.con.begin()
        try:
            yield self.con
            if force:
                self.con.execute(REFRESH_FORCE)
        except BaseException:
            self.con.rollback()
            raise
        self.con.commit()

    def insert_frame(self, table: str, frame: pd.DataFrame) -> None:
        """Append a DataFrame whose columns name columns of ``table`` (Arrow scan, no executemany)."""
        if not frame.empty:
            self._insert(table, list(frame.columns), frame)

    def insert_columns(self, table: str, columns: Mapping[str, Sequence[object]]) -> None:
        """Append rows given column by column (each list one column of ``table``, in row order)
        as an Arrow table: its types come from the values, an empty optional column arrives as
        NULLs and a float NaN as NULL, as a DataFrame's would, in a fifth of the time of
        building one (the loader writes a file's rows so)."""
        import pyarrow as pa

        if not columns or not len(next(iter(columns.values()))):
            return
        self._insert(table, list(columns), pa.table(
            {name: pa.array(values, from_pandas=True) for name, values in columns.items()}))

    def _insert(self, table: str, columns: list[str], data: object) -> None:
        """``INSERT INTO table`` the named columns of ``data`` (a DataFrame or an Arrow table),
        which the statement finds by its local name (DuckDB's replacement scan of the calling
        frame: half the time of registering it as a view and dropping that again)."""
        _clubratings_rows = data  # noqa: F841 - read by the statement below
        cols = ", ".join(columns)
        self.con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _clubratings_rows")

    def query(self, sql: str, params: list[object] | None = None) -> pd.DataFrame:
        """The rows of a query as a frame: the primitive of the warehouse's named queries,
        which translate its errors (``_errors.translated``)."""
        return self.con.execute(sql, params or []).df()

    def row_counts(self) -> dict[str, int]:
        """Rows per base table: what a test compares before and after a failed load."""
        return {
            t: int(self.con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0])
            for t in self.base_tables()
        }

    def base_tables(self) -> list[str]:
        """The names of the warehouse's own base tables (not those of a database attached
        beside it), in name order."""
        return [str(r[0]) for r in self.con.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_catalog = current_database() AND table_schema = 'main' "
            "AND table_type = 'BASE TABLE' ORDER BY 1").fetchall()]


@functools.cache
def _migrations() -> tuple[tuple[int, str, str], ...]:
    """The migrations shipped with this code (version, name, SQL), read once per process: every
    opening of a warehouse compares them with those it has applied."""
    found = []
    for entry in resources.files("warehouse.migrations").iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m:
            found.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    return tuple(sorted(found))


def _migrate(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Apply the migrations not yet recorded, each in its own transaction. Returns those applied."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)"
    )
    done = {r[0] for r in con.execute("SELECT version FROM schema_migrations").fetchall()}
    applied = []
    for version, name, sql in _migrations():
        if version in done:
            continue
        con.begin()
        try:
            con.execute(sql)
            con.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, current_timestamp::TIMESTAMP)",
                [version, name],
            )
        except BaseException:
            con.rollback()
            raise
        con.commit()
        applied.append(version)
    return applied


def open_warehouse(path: Path | str = DEFAULT_PATH, *, read_only: bool = False) -> Warehouse:
    """Open (creating if needed) the warehouse at ``path`` and bring its schema up to date."""
    path = Path(path)
    if str(path) != ":memory:" and not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            _create(path)
    try:
        if str(path) == ":memory:":
            con, release = duckdb.connect(":memory:"), None
        else:
            con, release = _attach(path, read_only)
    except duckdb.IOException as exc:
        # DuckDB allows one writing process; another holding the file is a lock, not corruption.
        raise TransientWarehouseError(f"cannot open warehouse {str(path)!r}: {exc}") from exc
    except duckdb.Error as exc:
        raise WarehouseError(f"cannot open warehouse {str(path)!r}: {exc}") from exc
    wh = Warehouse(con=con, path=path)
    if release is not None:
        # closed, or dropped unclosed: either gives the file back once
        wh._release = weakref.finalize(wh, release)
    if not read_only:
        try:
            _migrate(con)
        except BaseException:
            wh.close()
            raise
    return wh


@dataclass
class _Attached:
    alias: str
    read_only: bool
    users: int = 0


_HOST: duckdb.DuckDBPyConnection | None = None
_HOST_PID = 0
_ATTACHED: dict[str, _Attached] = {}
_HOST_LOCK = threading.Lock()
_ALIASES = itertools.count(1)


def _host() -> duckdb.DuckDBPyConnection:
    """The process's own in-memory DuckDB instance, which attaches the warehouse files opened.
    Each new instance builds DuckDB's catalogue of built-in functions (about 35 ms) and throws
    it away when closed (about 20 ms); attaching a file to one that is kept costs about 9 ms.
    A forked child makes its own (the parent's instance did not come with its threads)."""
    global _HOST, _HOST_PID
    if _HOST is None or _HOST_PID != os.getpid():
        _HOST, _HOST_PID = duckdb.connect(":memory:"), os.getpid()
        _ATTACHED.clear()
    return _HOST


def _attach(path: Path, read_only: bool) -> tuple[duckdb.DuckDBPyConnection, Callable[[], None]]:
    """A connection of its own whose default database is the file at ``path``, attached to
    :func:`_host` once however many warehouses of this process have it open (as DuckDB shares
    one instance among connections to one file), and detached when the last of them closes:
    the lock on the file is held as long as a connection to it is open, as before. DuckDB's
    rules are kept: one writing process (an attached file is locked like an opened one), and
    one mode per file in a process."""
    key = os.path.realpath(path)
    with _HOST_LOCK:
        host = _host()
        seen = _ATTACHED.get(key)
        if seen is None:
            alias = f"warehouse_{next(_ALIASES)}"
            host.execute(f"ATTACH {sql_string(str(path))} AS {alias}"
                         + (" (READ_ONLY)" if read_only else ""))
            seen = _ATTACHED[key] = _Attached(alias, read_only)
        elif seen.read_only != read_only:
            raise duckdb.ConnectionException(
                "Can't open a connection to same database file with a different configuration "
                "than existing connections")
        try:
            con = host.cursor()
            con.execute(f"USE {seen.alias}")
        except BaseException:
            if not seen.users:
                _detach(host, key, seen)
            raise
        seen.users += 1
    return con, functools.partial(_give_back, key, seen, con, os.getpid())


def _give_back(key: str, seen: _Attached, con: duckdb.DuckDBPyConnection, pid: int) -> None:
    if os.getpid() != pid:
        return  # a forked child leaves its parent's connection alone
    con.close()
    with _HOST_LOCK:
        seen.users -= 1
        if seen.users == 0 and _ATTACHED.get(key) is seen and _HOST_PID == pid:
            assert _HOST is not None
            _detach(_HOST, key, seen)


def _detach(host: duckdb.DuckDBPyConnection, key: str, seen: _Attached) -> None:
    """``DETACH``, which checkpoints a written file into one and releases its lock."""
    host.execute(f"DETACH {seen.alias}")
    del _ATTACHED[key]


def sql_string(text: str) -> str:
    """``text`` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


_TEMPLATE: bytes | None = None
_TEMPLATE_LOCK = threading.Lock()


def _template() -> bytes:
    """The bytes of an empty warehouse with every migration applied, made once per process:
    migrated in memory, then ``COPY FROM DATABASE`` into a file (tables, views, constraints
    and the comments analysts read; replaying the migrations into every new file took about
    0.4 s, most of it the comments)."""
    global _TEMPLATE
    with _TEMPLATE_LOCK:
        if _TEMPLATE is None:
            with tempfile.TemporaryDirectory(prefix="clubratings-schema-") as folder:
                file = Path(folder) / "template.duckdb"
                schema = duckdb.connect(":memory:")
                try:
                    _migrate(schema)
                    schema.execute(f"ATTACH {sql_string(str(file))} AS new_warehouse")
                    schema.execute("COPY FROM DATABASE memory TO new_warehouse")
                    schema.execute("DETACH new_warehouse")
                finally:
                    schema.close()
                if file.with_name(file.name + ".wal").exists():
                    raise OSError("the schema template was left with a write-ahead log")
                _TEMPLATE = file.read_bytes()
        return _TEMPLATE


def _create(path: Path) -> None:
    """A new warehouse at ``path`` with every migration applied: the bytes of :func:`_template`
    (a file copy costs about a millisecond, against 0.05 s for copying the schema database by
    database). Written under a temporary name and renamed into place: a process killed
    meanwhile leaves no half-made warehouse, only a temporary file the next run sweeps away.
    Where that fails, the file is left absent and the migrations make it as before."""
    tmp = temp_path(path)
    try:
        tmp.write_bytes(_template())
        os.replace(tmp, path)
    except (duckdb.Error, OSError):
        pass  # the migrations below make it (an unwritable folder is reported by connect)
    finally:
        tmp.unlink(missing_ok=True)
