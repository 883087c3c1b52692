"""The scheduled jobs as a Prefect server runs them: two deployments that start together are
serialised by the run lock (flows/deployments.py), whichever door the other run came through."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flows import load_config
from warehouse import open_warehouse

from .test_core import _held_elsewhere

pytestmark = pytest.mark.flow

ROOT = Path(__file__).resolve().parents[1]

# One scheduled job in its own process, as a Prefect worker starts it: the flow called with
# its deployment's parameters, against the server given by PREFECT_API_URL.
_JOB = """
import sys
sys.path.insert(0, sys.argv[1])
from flows import deployments
print("ready", flush=True)
print(getattr(deployments, sys.argv[2])(config=sys.argv[3], wait=float(sys.argv[4])), flush=True)
"""


def _start(job: str, project: Path, api_url: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PREFECT_API_URL=api_url, PREFECT_HOME=str(project / ".prefect"),
               PREFECT_LOGGING_LEVEL="WARNING")
    return subprocess.Popen(
        [sys.executable, "-c", _JOB, str(ROOT), job, str(project / "clubratings.toml"), "300"],
        cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_deployment_runs_started_at_once_run_one_after_the_other(
    prefect_harness: None, project: Path,
) -> None:
    """The nightly job and the inbox job start while a third run holds the lock: both wait,
    then run one at a time (DuckDB would refuse a second writer outright), so the bundled
    files are loaded exactly once, by one of them, which also rates and publishes them (the
    inbox job is the pipeline without scraping); the other finds them all loaded and
    publishes nothing."""
    from prefect.settings import PREFECT_API_URL

    api_url = str(PREFECT_API_URL.value())
    cfg = load_config(project / "clubratings.toml")
    cfg.warehouse.parent.mkdir(parents=True, exist_ok=True)
    with _held_elsewhere(cfg.warehouse):
        jobs = {name: _start(name, project, api_url) for name in ("nightly", "inbox")}
        for job in jobs.values():  # both imported and on their way to the lock
            assert job.stdout is not None and job.stdout.readline() == "ready\n"
        time.sleep(2)
        assert all(job.poll() is None for job in jobs.values())  # waiting, not refused
    results = {}
    for name, job in jobs.items():
        out, err = job.communicate(timeout=600)
        assert job.returncode == 0, err[-2000:]
        results[name] = out.strip().splitlines()[-1]
    with open_warehouse(cfg.warehouse) as wh:
        files = wh.con.execute("SELECT count(*), count(DISTINCT sha256) FROM source_files"
                               ).fetchall()[0]
    assert files == (16, 16)
    loaded_by = [name for name, line in results.items() if line.startswith("16 file(s): loaded")]
    assert len(loaded_by) == 1, results  # one job loaded the files ...
    other = "inbox" if loaded_by == ["nightly"] else "nightly"
    assert results[other].startswith("16 file(s): duplicate"), results  # ... the other found them
    assert not results[loaded_by[0]].endswith(" 0 file(s) published"), results
    assert results[other].endswith(" 0 file(s) published"), results  # and wrote nothing
