"""Crash safety, briefly: scripts/killtest.py with four trials.

Each command (``ingest``, ``recompute``, ``publish``, ``run``) is killed with SIGKILL once, in
the second half of its time (the first half is mostly starting Python), then run again; the
project must then hold exactly what an uninterrupted run leaves: no event lost or doubled, no
published file missing, empty or different, no temporary file, no lock held, every rejected file
with its reason, no process left behind. The full test is
``python scripts/killtest.py --runs 100``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

TRIALS = 4
SEED = 20240501


def _killtest() -> ModuleType:
    path = ROOT / "scripts" / "killtest.py"
    spec = importlib.util.spec_from_file_location("killtest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_temporary_names_of_every_writer_are_recognised() -> None:
    kt = _killtest()
    for name in (".clubratings-tmp-123-list.csv", "list.csv.part", ".manifest.json.tmp-99",
                 ".clubratings.duckdb.tmp-99.wal", "tmpab12cd", "index.html~"):
        assert kt.is_temporary(name), name
    for name in ("list.csv", "clubratings.duckdb", "clubratings.duckdb.wal", "report~1a2b.html",
                 "half-upload.html.reason.txt", "2013Q4"):
        assert not kt.is_temporary(name), name


def test_the_plan_kills_every_command() -> None:
    kt = _killtest()
    plans = kt.plan_trials(TRIALS, SEED, states=("empty",), low=0.5)
    assert {p.command for p in plans} == set(kt.COMMANDS)
    assert plans == kt.plan_trials(TRIALS, SEED, states=("empty",), low=0.5)
    assert all(0.5 <= p.fraction <= 1.0 and p.state in kt.VALID_STATES[p.command]
               for p in plans)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL, flock and /proc")
def test_killed_commands_leave_a_consistent_resumable_project(tmp_path: Path) -> None:
    kt = _killtest()
    harness = kt.Harness(tmp_path, check_determinism=False, log=False, quiet=2.0, jobs=1)
    harness.prepare()
    # from the empty project where the command allows it: its reference is made anyway
    plans = kt.plan_trials(TRIALS, SEED, states=("empty",), low=0.5)
    results = kt.run_trials(harness, plans, jobs=1, log=False)
    counts = kt.counts(results)
    assert not any(counts.values()), kt.summary(results)
