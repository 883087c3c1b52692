"""The run core (flows/core.py): one lock for every door, one loader for a whole run."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from flows import load_config
from flows._lock import RunLocked
from cli import main
from flows.core import Project

from ._csvs import club_event, csv_file
from .test_concurrency import _HOLD_LOCK, LOCKED_MESSAGE

ROOT = Path(__file__).resolve().parents[1]

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""


def _club(tmp_path: Path, files: int = 6) -> Path:
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "inbox").mkdir()
    for i in range(files):
        day = f"2013-10-{i + 1:02d}"
        (tmp_path / "inbox" / f"club-{day}.csv").write_bytes(csv_file(club_event(day)))
    return tmp_path


@contextmanager
def _held_elsewhere(warehouse: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the run lock, as a run in progress would."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(ROOT / "flows" / "_lock.py"), str(warehouse)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        yield holder
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


@pytest.mark.parametrize("argv", [
    ["register"], ["review", "--resolve", "name:x", "--new"],
    ["players", "merge", "1", "--into", "2"],
    ["files", "withdraw", "1"],
    ["ingest"], ["recompute"], ["publish"],
])
def test_every_writer_refuses_while_another_run_holds_the_lock(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    root = _club(tmp_path, files=1)
    warehouse = root / "data" / "clubratings.duckdb"
    with _held_elsewhere(warehouse) as holder:
        code = main([argv[0], "--config", str(root / "clubratings.toml"), *argv[1:]])
        out, err = capsys.readouterr()
    assert code == 3, (out, err)
    message = LOCKED_MESSAGE.match(err.strip())
    assert message is not None, err
    assert int(message["pid"]) == holder.pid


@pytest.mark.parametrize("argv", [["review", "--list"], ["players", "show", "1"],
                                  ["explain", "1"], ["files", "list"]])
def test_a_reader_waits_for_the_run_in_progress(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                argv: list[str]) -> None:
    import threading
    import time

    root = _club(tmp_path, files=1)
    config = str(root / "clubratings.toml")
    assert main(["run", "--config", config]) == 0
    with _held_elsewhere(root / "data" / "clubratings.duckdb") as holder:
        threading.Timer(1.0, lambda: holder.send_signal(signal.SIGKILL)).start()
        started = time.monotonic()
        code = main([argv[0], "--config", config, *argv[1:]])  # no --wait: readers wait
    out, err = capsys.readouterr()
    assert "another run is in progress" not in err
    assert time.monotonic() - started >= 0.9
    assert code == 0, err


def test_register_waits_for_the_run_with_wait(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path, files=1)
    warehouse = root / "data" / "clubratings.duckdb"
    with _held_elsewhere(warehouse) as holder:
        import threading

        threading.Timer(1.0, lambda: holder.send_signal(signal.SIGKILL)).start()
        code = main(["register", "--config", str(root / "clubratings.toml"), "--wait", "30"])
    assert code == 0, capsys.readouterr().err


def test_a_run_builds_one_loader_for_all_its_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import flows.core as core

    built = []
    real = core.Loader

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            built.append(1)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(core, "Loader", Counting)
    cfg = load_config(_club(tmp_path) / "clubratings.toml")
    with Project.open(cfg, command="test") as project:
        outcomes = project.ingest()
    assert [o.status for o in outcomes] == ["loaded"] * 6
    assert len(built) == 1


def test_a_run_returns_what_it_did_as_a_frozen_result_that_pickles(tmp_path: Path) -> None:
    """``Project.run`` (and so the ``pipeline`` flow, whose result Prefect may serialise)
    returns a :class:`RunResult`: the files, the rating runs, the files published, the scrape
    lines, the import report and the review summary, read as fields."""
    import dataclasses
    import pickle

    from flows import RunResult

    cfg = load_config(_club(tmp_path, files=2) / "clubratings.toml")
    with Project.open(cfg, command="test") as project:
        result = project.run()
    assert isinstance(result, RunResult)
    assert [o.status for o in result.files] == ["loaded", "loaded"]
    assert result.rejected == ()
    assert [(r.pool, r.reused) for r in result.runs] == [("bridge", False)]
    assert result.published and all(p.is_file() for p in result.published)
    assert result.scraped == ()  # no sources file: nothing fetched
    assert result.report.report_id.endswith("-2-files") and not result.report.quiet
    assert result.review is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.review = "changed"  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(result))
    assert again == result


def test_a_project_open_in_this_process_is_joined(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path, files=1) / "clubratings.toml")
    with Project.open(cfg, command="outer") as outer, \
            Project.open(cfg, command="inner") as inner:
        assert inner is outer and Project.current(cfg) is outer
    with pytest.raises(RuntimeError):
        Project.current(cfg)


@pytest.mark.flow
def test_a_deployment_flow_is_refused_while_another_run_holds_the_lock(
        tmp_path: Path, prefect_harness: None) -> None:
    from flows.deployments import inbox

    root = _club(tmp_path, files=2)
    config = str(root / "clubratings.toml")
    with _held_elsewhere(root / "data" / "clubratings.duckdb"), pytest.raises(RunLocked):
        inbox(config, wait=0.5)  # scheduled jobs wait (an hour by default), then give up
    assert len(list((root / "inbox").glob("*.csv"))) == 2  # nothing was touched
    assert inbox(config).startswith("2 file(s): loaded; 1 pool(s) rated")  # then it runs


def test_publish_is_skipped_when_nothing_it_is_made_of_changed(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path, files=3) / "clubratings.toml")
    with Project.open(cfg, command="test") as project:
        project.ingest()
        project.recompute()
        first = project.publish()
        assert first and (cfg.public / ".published").is_file()
        assert project.publish() == []  # the same runs, names, files and code
        project.wh.con.execute("UPDATE players SET name = 'Ján Novák st.' WHERE player_id = 1")
        assert project.publish()  # a changed name is published
        project.recompute()
        assert project.publish() == []


def test_a_run_with_nothing_new_goes_through_the_core_without_prefect(tmp_path: Path) -> None:
    root = _club(tmp_path, files=2)
    config = str(root / "clubratings.toml")
    assert main(["ingest", "--config", config]) == 0  # the files are loaded now
    probe = ("import sys; from cli import main; code = main(['run', '--config', "
             f"{config!r}]); print('prefect imported:', 'prefect' in sys.modules); "
             "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "prefect imported: False" in done.stdout
    assert "files: no files" in done.stdout and "bridge: new run" in done.stdout


def test_run_goes_through_prefect_only_where_a_server_records_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``clubratings run`` runs as the Prefect flow when asked or when a server is configured
    (environment, or the active profile of PREFECT_HOME); otherwise in the run core."""
    from flows._config import load_config
    from cli.run import through_prefect

    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / ".prefect"))
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    cfg = load_config(tmp_path / "clubratings.toml")
    assert not through_prefect(cfg)
    assert through_prefect(cfg, asked=True)
    (tmp_path / ".prefect").mkdir()
    (tmp_path / ".prefect" / "profiles.toml").write_text(
        'active = "local"\n[profiles.local]\nPREFECT_API_URL = "http://127.0.0.1:4200/api"\n',
        encoding="utf-8")
    assert through_prefect(cfg)
    (tmp_path / "clubratings.toml").write_text(CONFIG + '\n[run]\nprefect = "never"\n',
                                               encoding="utf-8")
    assert not through_prefect(load_config(tmp_path / "clubratings.toml"))
    (tmp_path / ".prefect" / "profiles.toml").unlink()
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")
    assert through_prefect(cfg)
