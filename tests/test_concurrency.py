"""One pipeline run at a time (flows/_lock.py); analysts read the snapshot (warehouse/snapshot.py).

The end-to-end cases start real ``clubratings`` processes; the lock's own rules are checked in
this process (``flock`` locks belong to an open file, so two ``run_lock`` calls of one process
exclude each other just as two processes do).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from flows._lock import LockInfo, RunLocked, lock_path, read_lock_info, run_lock
from warehouse.snapshot import EXPORTS, snapshot_dir, state_digest, write_snapshot
from cli import main
from warehouse import TransientWarehouseError, open_warehouse

from .conftest import FIXTURES, ROOT

LOCKED_MESSAGE = re.compile(
    r"^clubratings: another run is in progress since "
    r"(?P<since>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d) "
    r"\(pid (?P<pid>\d+), command '(?P<command>[^']*)'\); "
    r"try again later or pass --wait SECONDS$"
)

# Imports first, then wait for the start signal: the processes reach the run lock together
# instead of whenever their (seconds-long) imports happen to finish.
_LAUNCH = """
import os, sys, time
from pathlib import Path
from cli import main
go, delay = Path(sys.argv[1]), float(sys.argv[2])
Path(f"{go}.ready-{os.getpid()}").touch()
while not go.exists():
    time.sleep(0.005)
time.sleep(delay)
sys.exit(main(sys.argv[3:]))
"""

# A writer holding the live warehouse open, as a run does while it loads or rates.
_HOLD = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("SELECT count(*) FROM events").fetchall()
print("holding", flush=True)
time.sleep(120)
"""

# flows/_lock.py imports nothing of the project: loaded alone, without the seconds of imports.
_HOLD_LOCK = """
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("lock", sys.argv[1])
lock = importlib.util.module_from_spec(spec)
sys.modules["lock"] = lock
spec.loader.exec_module(lock)
with lock.run_lock(sys.argv[2], command="clubratings run"):
    print("locked", flush=True)
    time.sleep(120)
"""

# Can another process open the warehouse now?
_PROBE = """
import duckdb, sys
try:
    duckdb.connect(sys.argv[1], read_only=True)
except duckdb.IOException as exc:
    print("refused", exc)
else:
    print("opened")
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _start(go: Path, delay: float, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _LAUNCH, str(go), str(delay), *argv], cwd=ROOT, env=_env(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _release(go: Path, count: int) -> None:
    deadline = time.monotonic() + 90
    while len(list(go.parent.glob(f"{go.name}.ready-*"))) < count:
        assert time.monotonic() < deadline, "the processes did not start"
        time.sleep(0.02)
    go.touch()


def _until_held_by(warehouse: Path, pids: set[int]) -> None:
    """Wait until one of ``pids`` holds the run lock (it then loads for seconds)."""
    deadline = time.monotonic() + 60
    while (info := read_lock_info(warehouse)) is None or info.pid not in pids:
        assert time.monotonic() < deadline, "no process took the lock"
        time.sleep(0.01)


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


# ---------------------------------------------------------------- processes


def test_second_run_stops_with_exit_3_or_waits_and_the_warehouse_is_loaded_once(
    project: Path, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (project / "inbox").mkdir()
    shutil.copy(FIXTURES / "csv_template" / "utf8-bom-individual.csv", project / "inbox")
    single = tmp_path_factory.mktemp("single") / "project"
    shutil.copytree(project, single)
    go = tmp_path_factory.mktemp("signal") / "go"
    config = ["--config", str(project / "clubratings.toml")]
    first = _start(go, 0.0, "ingest", *config)
    second = _start(go, 0.0, "ingest", *config)
    # while they import: what one run alone leaves, in a copy of the project
    assert main(["ingest", "--config", str(single / "clubratings.toml")]) == 0
    capsys.readouterr()
    _release(go, 2)
    _until_held_by(project / "data" / "clubratings.duckdb", {first.pid, second.pid})
    started = time.monotonic()
    assert main(["ingest", *config, "--wait", "120"]) == 0
    waited = time.monotonic() - started
    after_wait = capsys.readouterr().out.splitlines()
    results = {p.pid: (p.wait(timeout=120), *p.communicate()) for p in (first, second)}

    assert sorted(code for code, _, _ in results.values()) == [0, 3], results
    winner, loser = sorted((first, second), key=lambda p: results[p.pid][0])
    assert results[loser.pid][1] == "", results
    message = LOCKED_MESSAGE.match(results[loser.pid][2].strip())
    assert message is not None, results
    assert int(message["pid"]) == winner.pid
    assert message["command"] == "clubratings ingest"
    since = datetime.fromisoformat(message["since"])
    assert abs(since.timestamp() - time.time()) < 300

    # the winner loaded everything; the waiting run started after it and found it all loaded
    loaded = [line for line in results[winner.pid][1].splitlines() if ": loaded " in line]
    assert len(loaded) == 17, results[winner.pid][1]  # 16 sources and the inbox file
    assert sum("already loaded (file" in line for line in after_wait) == 16, after_wait
    assert not any(": loaded " in line for line in after_wait), after_wait
    assert waited > 0.1, (waited, results)

    paths = (project / "data" / "clubratings.duckdb", single / "data" / "clubratings.duckdb")
    counts = []
    for path in paths:
        with open_warehouse(path) as wh:
            counts.append(wh.row_counts())
    assert counts[0] == counts[1]
    assert counts[0]["source_files"] == 17
    assert _files(project / "data" / "raw") == _files(single / "data" / "raw")
    assert len(_files(project / "data" / "raw")) == 17
    assert _files(project / "inbox") == ["archive/utf8-bom-individual.csv"]
    # released: the lock file stays, empty, and nobody holds it
    assert lock_path(paths[0]).read_text(encoding="utf-8") == ""
    with run_lock(paths[0], command="test"):
        pass


def test_lock_is_released_when_its_process_is_killed(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    warehouse = tmp_path / "data" / "clubratings.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(ROOT / "flows" / "_lock.py"), str(warehouse)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(RunLocked) as locked, run_lock(warehouse, command="clubratings publish"):
            pass
        assert locked.value.holder is not None
        assert (locked.value.holder.pid, locked.value.holder.command) == (
            holder.pid, "clubratings run")
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=30)
    # the record of the killed run is still in the file, but the flock went with the process
    left = read_lock_info(warehouse)
    assert left is not None and left.pid == holder.pid and left.alive() is False
    with (caplog.at_level(logging.WARNING, logger="flows._lock"),
          run_lock(warehouse, command="clubratings publish") as info):
        assert read_lock_info(warehouse) == info
        assert info.pid == os.getpid() and info.command == "clubratings publish"
    assert f"pid {holder.pid}" in caplog.text and "ended without releasing" in caplog.text


# ---------------------------------------------------------------- the lock in this process


def test_a_run_waits_a_while_for_a_reader_instead_of_stopping(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import flows._lock as lock

    monkeypatch.setattr(lock, "READER_GRACE_SECONDS", 0.6)
    warehouse = tmp_path / "data" / "clubratings.duckdb"
    # a reader that does not end in time: the run waits the grace, then stops
    with run_lock(warehouse, command="clubratings explain", reader=True):
        started = time.monotonic()
        with pytest.raises(RunLocked), run_lock(warehouse, command="clubratings ingest"):
            pass
        assert 0.5 < time.monotonic() - started < 3
    # a writer gets no grace
    with run_lock(warehouse, command="clubratings run"):
        started = time.monotonic()
        with pytest.raises(RunLocked), run_lock(warehouse, command="clubratings ingest"):
            pass
        assert time.monotonic() - started < 0.5


def test_second_lock_fails_at_once_with_the_holder_in_the_message(tmp_path: Path) -> None:
    warehouse = tmp_path / "data" / "clubratings.duckdb"
    with run_lock(warehouse, command="clubratings run") as held:
        assert lock_path(warehouse) == tmp_path / "data" / "clubratings.duckdb.lock"
        assert json.loads(lock_path(warehouse).read_text(encoding="utf-8")) == {
            "pid": os.getpid(), "host": held.host, "command": "clubratings run",
            "started_at": held.started_at, "reader": False,
        }
        started = time.monotonic()
        with pytest.raises(RunLocked) as locked, run_lock(warehouse, command="clubratings ingest"):
            pass
        assert time.monotonic() - started < 0.5
    assert locked.value.holder == held
    assert str(locked.value) == (
        f"another run is in progress since {held.started_at} (pid {os.getpid()}, "
        "command 'clubratings run'); try again later or pass --wait SECONDS")
    assert lock_path(warehouse).read_text(encoding="utf-8") == ""
    assert read_lock_info(warehouse) is None


def test_wait_polls_until_the_lock_is_free_or_the_time_is_up(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh.duckdb"
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with run_lock(warehouse, command="clubratings run"):
            taken.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert taken.wait(10)
        started = time.monotonic()
        with pytest.raises(RunLocked), run_lock(warehouse, command="clubratings ingest", wait=0.6):
            pass
        assert 0.55 <= time.monotonic() - started < 3
        threading.Timer(0.5, release.set).start()
        started = time.monotonic()
        with run_lock(warehouse, command="clubratings ingest", wait=10) as info:
            waited = time.monotonic() - started
            assert info.command == "clubratings ingest"
        assert 0.4 <= waited < 5
    finally:
        release.set()
        thread.join()


def test_a_dead_pid_in_a_held_lock_is_reported_but_the_flock_decides(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh.duckdb"
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with run_lock(warehouse, command="clubratings run") as held:
        # as if a process that inherited the lock outlived the one that wrote the record
        fake = LockInfo(gone.pid, held.host, "clubratings run", held.started_at)
        lock_path(warehouse).write_text(json.dumps(
            {"pid": fake.pid, "host": fake.host, "command": fake.command,
             "started_at": fake.started_at}), encoding="utf-8")
        with pytest.raises(RunLocked) as locked, run_lock(warehouse, command="clubratings ingest"):
            pass
    assert locked.value.holder == fake
    assert f"(pid {gone.pid}, command 'clubratings run'; that pid no longer runs" in str(
        locked.value)


def test_a_refused_run_waits_a_moment_for_the_holders_record(tmp_path: Path) -> None:
    """The holder writes its record just after taking the lock: a run refused in between
    waits for the record (up to a second) rather than calling the holder unknown."""
    import fcntl

    warehouse = tmp_path / "wh.duckdb"
    path = lock_path(warehouse)
    record = {"pid": os.getpid(), "host": "elsewhere", "command": "clubratings run",
              "started_at": "2026-01-01T02:07:00+00:00"}
    with path.open("a+") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # taken, record not written yet
        with pytest.raises(RunLocked) as unknown, run_lock(warehouse, command="b"):
            pass
        assert unknown.value.holder is None
        assert str(unknown.value) == (
            f"another run is in progress (holder unknown, lock file {str(path)!r}); "
            "try again later or pass --wait SECONDS")
        threading.Timer(0.3, lambda: path.write_text(json.dumps(record), encoding="utf-8")).start()
        with pytest.raises(RunLocked) as known, run_lock(warehouse, command="b"):
            pass
    assert str(known.value) == (
        f"another run is in progress since 2026-01-01T02:07:00+00:00 (pid {os.getpid()} on "
        "elsewhere, command 'clubratings run'); try again later or pass --wait SECONDS")


def test_cli_commands_take_the_lock(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = ["--config", str(project / "clubratings.toml")]
    warehouse = project / "data" / "clubratings.duckdb"
    with run_lock(warehouse, command="clubratings run") as held:
        for command in ("run", "ingest", "recompute", "publish"):
            assert main([command, *config]) == 3
            out, err = capsys.readouterr()
            assert out == ""
            message = LOCKED_MESSAGE.match(err.strip())
            assert message is not None, err
            assert (message["since"], int(message["pid"]), message["command"]) == (
                held.started_at, os.getpid(), "clubratings run")
    assert not warehouse.exists()  # nothing was opened, let alone loaded
    with pytest.raises(SystemExit) as bad:
        main(["ingest", "--wait", "-1", *config])
    assert bad.value.code == 2
    assert "--wait: seconds must be 0 or more, got '-1'" in capsys.readouterr().err


# ---------------------------------------------------------------- the snapshot


def test_snapshot_keeps_the_writers_lock_on_the_live_warehouse(tmp_path: Path) -> None:
    """A file copy of the live warehouse inside the writing process would drop DuckDB's POSIX
    lock (closing any descriptor of the file does); the snapshot must not."""
    path = tmp_path / "data" / "wh.duckdb"
    with open_warehouse(path) as wh:
        snap = write_snapshot(wh)
        probe = subprocess.run(
            [sys.executable, "-c", _PROBE, str(path)],
            capture_output=True, text=True, check=True,
        )
    assert probe.stdout.startswith("refused"), probe.stdout
    assert snap.database == tmp_path / "data" / "snapshot" / "wh.duckdb"
    assert sorted(p.name for p in snap.database.parent.iterdir()) == [
        "manifest.json", "parquet", "wh.duckdb"]  # no temporary file left behind


def test_snapshot_and_parquet_open_while_a_run_holds_the_live_warehouse(
    project: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    config = ["--config", str(project / "clubratings.toml")]
    for command in ("ingest", "recompute", "publish"):
        assert main([command, *config]) == 0
    out = capsys.readouterr().out
    live = project / "data" / "clubratings.duckdb"
    folder = snapshot_dir(live)
    assert f"snapshot: {folder / 'clubratings.duckdb'} and {len(EXPORTS)} Parquet files" in out
    with open_warehouse(live) as wh:
        counts = wh.row_counts()
        expected = {name: wh.query(f"SELECT * FROM ({query})") for name, query in EXPORTS.items()}
        latest = dict(wh.con.execute(
            "SELECT pool, max(run_id) FROM rating_runs GROUP BY pool").fetchall())
        state = state_digest(wh)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"] == {"warehouse": str(live), "row_counts": counts,
                                  "state": state}
    assert manifest["latest_runs"] == latest == {"bridge": 1, "go": 2, "preferans": 3}
    assert manifest["database"] == "clubratings.duckdb"
    assert manifest["parquet"] == {name: {"file": f"parquet/{name}.parquet",
                                          "rows": len(frame)}
                                   for name, frame in expected.items()}
    assert datetime.fromisoformat(manifest["taken_at"]).tzinfo is not None
    assert (folder / "clubratings.duckdb").stat().st_mode & 0o777 == 0o444

    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(live)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        # the live warehouse cannot be opened now, not even to read: that is why the snapshot
        with pytest.raises(duckdb.IOException, match="lock"):
            duckdb.connect(str(live), read_only=True)
        with pytest.raises(TransientWarehouseError, match="cannot open warehouse"):
            open_warehouse(live, read_only=True)

        snap = duckdb.connect(str(folder / "clubratings.duckdb"), read_only=True)
        try:
            for table, n in counts.items():
                assert snap.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0] == n, table
            in_force = snap.execute("SELECT count(*) FROM active_events").fetchall()[0][0]
            explained = snap.execute(
                "SELECT count(*) FROM rating_explanations").fetchall()[0][0]
        finally:
            snap.close()
        assert in_force == len(expected["events"])
        assert explained > 0
        for name, frame in expected.items():
            file = folder / "parquet" / f"{name}.parquet"
            assert duckdb.sql(f"SELECT count(*) FROM '{file}'").fetchall()[0][0] == len(frame)
            pd.testing.assert_frame_equal(duckdb.sql(f"SELECT * FROM '{file}'").df(), frame,
                                          obj=name)
            assert list(pd.read_parquet(file).columns) == list(frame.columns)
        players = pd.read_parquet(folder / "parquet" / "players.parquet")
        assert players["player_id"].tolist() == expected["players"]["player_id"].tolist()
        assert "canonical_id" in players.columns
        ratings = pd.read_parquet(folder / "parquet" / "ratings.parquet")
        assert dict(ratings.groupby("pool")["run_id"].max()) == latest
        assert ratings["rating"].tolist() == pytest.approx(expected["ratings"]["rating"].tolist())
        events = pd.read_parquet(folder / "parquet" / "events.parquet")
        assert events["event_id"].tolist() == expected["events"]["event_id"].tolist()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=30)


def test_clubratings_run_refuses_while_another_run_holds_the_lock(
    project: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`clubratings run` takes the same lock before Prefect starts: a second `run` stops at once
    with the message and exit 3, and loads nothing."""
    warehouse = project / "data" / "clubratings.duckdb"
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(ROOT / "flows" / "_lock.py"), str(warehouse)],
        cwd=ROOT, env=_env(), stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        code = main(["run", "--config", str(project / "clubratings.toml")])
        err = capsys.readouterr().err
        assert code == 3
        assert "another run is in progress since" in err and "command 'clubratings run'" in err
        assert time.monotonic() - started < 10  # refused before any Prefect start-up
        assert not warehouse.exists()  # nothing was loaded
    finally:
        holder.kill()
        holder.wait()


def test_a_snapshot_of_an_unchanged_warehouse_is_not_written_again(tmp_path: Path) -> None:
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        first = write_snapshot(wh)
        stamp = first.database.stat().st_mtime_ns
        again = write_snapshot(wh)
        assert again.unchanged and again.taken_at == first.taken_at
        assert first.database.stat().st_mtime_ns == stamp
        wh.con.execute("INSERT INTO file_withdrawals VALUES (1, 1, now()::TIMESTAMP, 'x', NULL)")
        changed = write_snapshot(wh)
        assert not changed.unchanged
        wh.con.execute("UPDATE file_withdrawals SET reason = 'y'")  # an update, same counts
        assert not write_snapshot(wh).unchanged
        (first.database.parent / "parquet" / "events.parquet").unlink()  # a file lost
        assert not write_snapshot(wh).unchanged


def test_a_snapshot_brought_up_to_date_holds_what_a_fresh_copy_holds(tmp_path: Path) -> None:
    """A snapshot after a change starts from the one on disk: rows appended past the largest
    id (new withdrawals), rows replaced where an append cannot match (an update and a
    delete); every table then has the warehouse's rows, as a whole copy has
    (warehouse/snapshot.py)."""
    import warehouse.snapshot as snapshot

    def tables(con: duckdb.DuckDBPyConnection, catalog: str) -> dict[str, list[object]]:
        names = [r[0] for r in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = ? ORDER BY 1",
            [catalog]).fetchall()]
        return {t: con.execute(f'SELECT * FROM {catalog}.main."{t}" ORDER BY ALL').fetchall()
                for t in names}

    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        kept = tmp_path / "kept.duckdb"
        assert not snapshot._update_database(wh, kept)  # none yet: copied whole
        snapshot._copy_database(wh, kept)
        for change in ("INSERT INTO file_withdrawals VALUES (1, 1, TIMESTAMP '2024-01-01', "
                       "'x', NULL), (2, 1, TIMESTAMP '2024-01-02', 'x', NULL)",
                       "UPDATE file_withdrawals SET reason = 'y' WHERE withdrawal_id = 1; "
                       "DELETE FROM file_withdrawals WHERE withdrawal_id = 2"):
            wh.con.execute(change)
            assert snapshot._update_database(wh, kept)
            live = tables(wh.con, wh.con.execute("SELECT current_database()").fetchone()[0])
            con = duckdb.connect(str(kept), read_only=True)
            try:
                assert tables(con, "kept") == live, change
            finally:
                con.close()
