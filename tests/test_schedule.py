"""Schedules: crontab lines, the Prefect deployments on a local server, and the Dask path."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from flows import load_config
from cli import main
from warehouse import open_warehouse

ROOT = Path(__file__).resolve().parents[1]
CRON_FIELD = re.compile(r"^(\*(/\d+)?|\d+(-\d+)?(/\d+)?)(,(\d+(-\d+)?(/\d+)?))*$")
SMALL = """
[paths]
sources = ["fixtures/identity/modra-*"]

[identity]
register = ["fixtures/identity/register-*"]
decisions = "identity/decisions.csv"

[[pools]]
name = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""


def _cron(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["schedule", "--print-cron", *args]) == 0
    return capsys.readouterr().out.splitlines()


def test_print_cron_lines_parse_and_name_existing_paths(
    project: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    config = project / "clubratings.toml"
    lines = _cron(capsys, "--config", str(config), "--every-minutes", "10")
    jobs = [line for line in lines if not line.startswith("#")]
    assert len(jobs) == 3
    commands = []
    for job in jobs:
        fields = job.split(" ", 5)
        assert all(CRON_FIELD.match(f) for f in fields[:5]), fields[:5]
        assert "%" not in job  # cron would read it as a newline
        words = shlex.split(fields[5])
        assert words[:2] == ["cd", str(project)]
        exe = Path(words[words.index("{") + 1])
        assert exe.is_absolute() and exe.name == "clubratings" and os.access(exe, os.X_OK)
        assert words[words.index("--config") + 1] == str(config)
        assert Path(words[words.index("--config") + 1]).is_file()
        log = Path(words[words.index(">>") + 1])
        assert log.parent == project / "data" / "logs" and words[-1] == "2>&1"
        commands.append((fields[:5], [w for w in words if w in
                                      ("run", "--no-scrape", "ingest", "recompute", "publish")],
                         log.name))
    assert commands == [
        (["7", "2", "*", "*", "*"], ["run"], "nightly.log"),
        (["*/10", "*", "*", "*", "*"], ["run", "--no-scrape"], "inbox.log"),
        (["23", "4", "1", "1,4,7,10", "*"], ["recompute", "publish"], "quarterly.log"),
    ]


def test_cron_line_runs_under_sh(project: Path, capsys: pytest.CaptureFixture[str],
                                 tmp_path: Path) -> None:
    """The inbox line, as cron would run it (sh, from another folder), loads, rates and
    publishes what was dropped, and logs; run again with nothing new, it writes nothing."""
    (project / "clubratings.toml").write_text(SMALL, encoding="utf-8")
    lines = _cron(capsys, "--config", str(project / "clubratings.toml"))
    inbox = next(line for line in lines if "--no-scrape" in line and not line.startswith("#"))
    command = inbox.split(" ", 5)[5]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, env=env, check=True, timeout=120)
    log = (project / "data" / "logs" / "inbox.log").read_text(encoding="utf-8")
    assert "modra-2013-09-05.csv: loaded 1 event(s)" in log
    assert re.search(r"^run ok: 5 files \(5 loaded\), .*published.* in \d+\.\d s$", log,
                     re.MULTILINE), log
    editions = sorted((project / "public" / "bridge").glob("*/list.csv"))
    assert editions  # the dropped files reached the lists at once, not at night
    runs = (project / "data" / "logs" / "runs.jsonl").read_text(encoding="utf-8")
    assert '"command": "run"' in runs and '"loaded": 5' in runs
    assert '"step": "recompute"' in runs and '"step": "publish"' in runs
    before = {p: p.read_bytes() for p in (project / "public").rglob("*") if p.is_file()}
    subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, env=env, check=True, timeout=120)
    after = {p: p.read_bytes() for p in (project / "public").rglob("*") if p.is_file()}
    assert after == before  # nothing new: the lists stay byte-identical


def test_print_cron_refuses_a_bad_interval(project: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["schedule", "--print-cron", "--config", str(project / "clubratings.toml"),
                 "--every-minutes", "90"])
    assert code == 2
    assert "every_minutes must be from 1 to 59, got 90" in capsys.readouterr().err


def _copy_project(dest: Path) -> Path:
    skip = shutil.ignore_patterns(".venv", ".git", "data", "public", ".prefect", "inbox",
                                  "__pycache__", ".pytest_cache", "*.duckdb*")
    shutil.copytree(ROOT, dest, ignore=skip)
    (dest / "clubratings.toml").write_text(SMALL, encoding="utf-8")
    return dest


@pytest.mark.flow
def test_deploy_server_script_runs_the_nightly_deployment(tmp_path: Path) -> None:
    """scripts/deploy_server.sh against a copy of the project: a real local server, the work
    pool, `prefect deploy --all`, one run of the nightly deployment by a one-run worker."""
    project = _copy_project(tmp_path / "project")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["CLUBRATINGS_PYTHON"] = str(ROOT / ".venv" / "bin" / "python")
    done = subprocess.run(["bash", str(project / "scripts" / "deploy_server.sh"), str(project)],
                          check=False, env=env, capture_output=True, text=True, timeout=240)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    assert re.search(r"^flow run [0-9a-f-]{36}: COMPLETED$", out, re.MULTILINE), out[-3000:]
    assert "deployment nightly/nightly: run completed" in out
    assert "server: stopped" in out
    for name, entry in (("nightly", "7 2 * * *"), ("inbox", "*/15 * * * *"),
                        ("quarterly", "23 4 1 1,4,7,10 *")):
        assert f"deployment {name}: flows/deployments.py:{name} schedule {entry}" in out
    # the run worked on the copy: its warehouse, lists and report
    assert (project / ".prefect" / "prefect.db").is_file()
    assert list((project / "public" / "bridge").glob("*/index.html"))  # an edition
    assert (project / "public" / "reports" / "latest.html").is_file()
    with open_warehouse(project / "data" / "clubratings.duckdb", read_only=True) as wh:
        assert wh.con.execute("SELECT count(*) FROM source_files").fetchall() == [(5,)]


def _warehouse_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    queries = {
        "source_files": "SELECT * EXCLUDE (path, loaded_at) FROM source_files ORDER BY file_id",
        "events": "SELECT * FROM events ORDER BY event_id",
        "units": "SELECT * FROM units ORDER BY ALL",
        "unit_members": "SELECT * FROM unit_members ORDER BY ALL",
        "players": "SELECT * EXCLUDE (created_at) FROM players ORDER BY player_id",
        "review_items": "SELECT * EXCLUDE (created_at) FROM review_items ORDER BY item_key",
    }
    with open_warehouse(path, read_only=True) as wh:
        return {name: wh.con.execute(sql).fetchall() for name, sql in queries.items()}


@pytest.mark.flow
def test_dask_task_runner_loads_the_same_warehouse(prefect_harness: None,
                                                   tmp_path: Path) -> None:
    from flows.pipeline import ingest_inbox

    results = {}
    for runner in ("default", "dask"):
        club = tmp_path / runner
        shutil.copytree(ROOT / "fixtures" / "identity", club / "fixtures" / "identity")
        (club / "identity").mkdir()
        (club / "inbox").mkdir()
        (club / "inbox" / "broken.csv").write_text("not,a,result\n", encoding="utf-8")
        # a page over the project's own [limits] (a table of 40 rows, rows = 30): the Dask
        # workers parse under the same limits as run, so it is refused the same way
        rows = "".join(f"<tr><td>{u}</td><td>Jan {chr(64 + u)}ski - Ewa {chr(64 + u)}ska</td>"
                       f"<td>{60 - u / 4:.2f}</td></tr>" for u in range(1, 41))
        (club / "inbox" / "too-long.html").write_text(
            f"<html><body><table><tr><th>Place</th><th>Pair</th><th>%</th></tr>{rows}"
            "</table></body></html>", encoding="utf-8")
        (club / "clubratings.toml").write_text(
            SMALL + f'\n[run]\ntask_runner = "{runner}"\n\n[limits]\nrows = 30\n',
            encoding="utf-8")
        cfg = load_config(club / "clubratings.toml")
        assert cfg.task_runner == runner
        outcomes = ingest_inbox(cfg)
        results[runner] = ([(Path(o.path).name, o.status, o.events, o.players_created,
                             o.waiting, o.message) for o in outcomes],
                           _warehouse_rows(cfg.warehouse))
        assert (club / "inbox" / "rejected" / "broken.csv.reason.txt").is_file()
        reason = club / "inbox" / "rejected" / "too-long.html.reason.txt"
        assert "[limits] rows = 30" in reason.read_text(encoding="utf-8")
    default, dask = results["default"], results["dask"]
    assert dask[0] == default[0]  # the same outcomes, the same refusals word for word
    assert [o[1] for o in default[0]] == ["loaded"] * 5 + ["rejected"] * 2
    for table, rows in default[1].items():
        assert dask[1][table] == rows, table
    assert len(default[1]["events"]) == 5 and len(default[1]["review_items"]) == 1


def test_a_refusal_crosses_back_from_the_worker_in_a_process_that_imported_dask(
        tmp_path: Path) -> None:
    """``distributed`` pickles exceptions with their whole chain (tblib); a refusal read in a
    worker process still arrives as itself, not as a worker that "ended abruptly"."""
    import distributed  # noqa: F401  (what the Dask task runner imports)

    from flows._parsing import parse_files
    from parsers import UnknownFormat
    from parsers._limits import Limits

    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"no results tonight\n")
    (outcome,) = parse_files([notes], Limits(), workers=1)
    assert isinstance(outcome, UnknownFormat), outcome


def test_run_no_scrape_fetches_nothing_and_publishes_what_it_loaded(
    project: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The inbox job (`run --no-scrape`) leaves the configured sources alone, even when one is
    due, and still loads, rates and publishes."""
    (project / "clubratings.toml").write_text(SMALL, encoding="utf-8")
    (project / "sources.toml").write_text(
        'allow = ["127.0.0.1"]\nretries = 0\n\n[[source]]\nclub = "Nowhere"\n'
        'url = "http://127.0.0.1:9/results.html"\nschedule = "always"\n', encoding="utf-8")
    code = main(["run", "--no-scrape", "--config", str(project / "clubratings.toml")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "127.0.0.1" not in out and "Nowhere" not in out
    assert re.search(r"^run ok: 5 files \(5 loaded\), 1 pools rated, \d+ files published", out,
                     re.MULTILINE), out
    assert not (project / "data" / "scrape").exists() or not any(
        (project / "data" / "scrape").rglob("*.html"))
