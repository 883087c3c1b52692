"""The import report, run logs and summary line, from library steps (no Prefect)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flows import load_config
from flows._report import RunLog, build_report, summary_line, track, write_report
from flows._steps import pending_files, rate_pool
from flows.core import Project
from warehouse import open_warehouse

ROOT = Path(__file__).resolve().parents[1]

CONFIG = """
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


def _club(tmp_path: Path) -> Path:
    """The fixture club that writes initials, no decisions yet, and a broken file in the inbox."""
    shutil.copytree(ROOT / "fixtures" / "identity", tmp_path / "fixtures" / "identity")
    (tmp_path / "identity").mkdir()
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "broken.csv").write_text("nothing,to,see\n1,2,3\n", encoding="utf-8")
    return tmp_path


def _run(cfg):  # type: ignore[no-untyped-def]
    with Project.open(cfg, command="test") as project:
        project.prepare_identity()
        outcomes = project.ingest()
    with open_warehouse(cfg.warehouse) as wh:
        runs = [rate_pool(wh, pool) for pool in cfg.pools]
        return outcomes, runs, build_report(wh, outcomes, runs)


def test_report_names_rejected_file_waiting_names_and_unrated_events(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path) / "clubratings.toml")
    outcomes, runs, report = _run(cfg)
    assert [o.status for o in outcomes].count("rejected") == 1
    md = report.markdown()
    assert report.report_id.startswith(f"run-{runs[0].run_id:04d}-")
    assert not report.quiet

    sections = {s.title: s for s in report.sections}
    (rejected,) = sections["Rejected files"].rows
    assert rejected[0] == "broken.csv"
    assert rejected[1] == next(o.message for o in outcomes if o.status == "rejected").split(
        ": rejected: ", 1)[1]
    assert "broken.csv" in md and rejected[1].replace("|", "\\|") in md

    assert sections["Warnings from reading the files"].lines == ("No file loaded with a warning.",)

    (waiting,) = sections["Names waiting for review"].rows
    assert waiting[0] == "initials:modra:jno:with:5"
    assert waiting[1] == "JNo"

    unrated = sections["Events not rated"].rows
    assert len(unrated) == 2
    assert {r[0] for r in unrated} == {"BK Modra"}
    assert all(r[4] == "waiting for review: JNo (initials:modra:jno:with:5)" for r in unrated)

    club = report.clubs["BK Modra"]
    assert club["files"] == 5 and club["loaded"] == 5 and club["rejected"] == 0
    assert club["waiting"] == 1 and club["unrated"] == 2
    assert club["players_created"] == sum(o.players_created for o in outcomes
                                          if o.status != "rejected")
    assert report.clubs["(file not read)"]["rejected"] == 1
    per_club = {r[0]: r for r in sections["Per club"].rows}
    assert per_club["BK Modra"][1:] == ("5", "5", "0", "0", "0", "0", "0",
                                        str(club["players_created"]), "1", "2")
    files = sections["Files: BK Modra"].rows
    assert [f[0] for f in files] == sorted(f[0] for f in files)  # sources in name order
    jno = [f for f in files if f[5] != "-"]
    assert {f[5] for f in jno} == {"JNo"}

    with open_warehouse(cfg.warehouse) as wh:
        not_counted = wh.con.execute(
            "SELECT reason, count(*) FROM rating_contributions WHERE NOT counted AND run_id = ? "
            "GROUP BY 1 ORDER BY 1", [runs[0].run_id]).fetchall()
    rows = sections["Results not counted by the rating runs"].rows
    assert [(r[3], int(r[4])) for r in rows] == [(reason or "-", n) for reason, n in not_counted]


def test_report_files_are_deterministic_and_a_quiet_run_writes_none(tmp_path: Path) -> None:
    reports = []
    for name in ("a", "b"):
        cfg = load_config(_club(tmp_path / name) / "clubratings.toml")
        _, _, report = _run(cfg)
        path = write_report(report, cfg.public)
        assert path == cfg.public / "reports" / f"{report.report_id}.md"
        html = (cfg.public / "reports" / f"{report.report_id}.html").read_bytes()
        assert (cfg.public / "reports" / "latest.html").read_bytes() == html
        assert b"<td>broken.csv</td>" in html
        reports.append((path.name, path.read_bytes(), html))
    assert reports[0] == reports[1]

    before = sorted(p.name for p in (cfg.public / "reports").iterdir())
    _, runs, again = _run(cfg)  # the same files again: all duplicates, the run kept
    assert all(r.reused for r in runs) and again.quiet
    assert write_report(again, cfg.public) is None
    # duplicates are counted per club, not listed file by file on every run
    per_club = next(s for s in again.sections if s.title == "Per club")
    assert sum(int(row[4]) for row in per_club.rows) == len(pending_files(cfg)) > 0
    assert not [s for s in again.sections if s.title.startswith("Files: ")]
    assert sorted(p.name for p in (cfg.public / "reports").iterdir()) == before


def test_run_log_writes_one_json_line_per_step(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path) / "clubratings.toml")
    log = RunLog(cfg, "ingest")
    with log.step("identity") as counts:
        counts["registers"] = 2
    with pytest.raises(ValueError), log.step("ingest") as counts:
        counts["files"] = 1
        raise ValueError("boom")
    lines = [json.loads(line) for line in
             (tmp_path / "data" / "logs" / "runs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [line["step"] for line in lines] == ["identity", "ingest"]
    assert lines[0]["command"] == "ingest" and lines[0]["counts"] == {"registers": 2}
    assert lines[0]["run"] == lines[1]["run"] == log.run
    assert isinstance(lines[0]["duration_s"], float) and "error" not in lines[0]
    assert lines[1]["error"] == "ValueError: boom" and lines[1]["counts"] == {"files": 1}
    assert lines[0]["time"].endswith("+00:00")


def test_summary_line_and_plain_progress(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path) / "clubratings.toml")
    outcomes, runs, _ = _run(cfg)
    line = summary_line("run", 7.24, files=outcomes, runs=runs, published=["a", "b"])
    assert line == ("run with problems: 6 files (5 loaded, 1 rejected), 1 pools rated, "
                    "2 files published in 7.2 s")
    ok = [o for o in outcomes if o.status != "rejected"]
    assert summary_line("ingest", 0.04, files=ok) == "ingest ok: 5 files (5 loaded) in 0.0 s"
    assert list(track([1, 2, 3], "files")) == [1, 2, 3]  # not a terminal: plain iteration


def test_report_lists_each_files_warnings(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path) / "clubratings.toml")
    source = ROOT / "fixtures" / "egd_table" / "inconsistent-halves-no-colours.h"
    shutil.copy(source, tmp_path / "inbox" / "table.h")
    outcomes, _, report = _run(cfg)
    (loaded,) = [o for o in outcomes if o.path.endswith("table.h")]
    rows = {s.title: s for s in report.sections}["Warnings from reading the files"].rows
    assert [r for r in rows if r[0] == "table.h"] == [("table.h", w) for w in loaded.warnings]
    assert loaded.warnings and "table.h" in report.html()
