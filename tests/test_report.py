"""The import report (flows/_import_report.py), run logs and summary line (flows/_runlog.py),
from library steps (no Prefect)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from cli import main
from flows import load_config
from flows._import_report import ImportReport, Section, build_report, write_report
from flows._runlog import RunLog, summary_line, track
from flows._steps import pending_files, rate_pool
from flows.core import Project
from warehouse import open_warehouse

from ._csvs import club_event, csv_file

ROOT = Path(__file__).resolve().parents[1]
NOW = dt.datetime(2026, 11, 27, 9, 30, 5, tzinfo=dt.UTC)

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


def _run(cfg, now=NOW):  # type: ignore[no-untyped-def]
    with Project.open(cfg, command="test") as project:
        project.prepare_identity()
        outcomes = project.ingest()
    with open_warehouse(cfg.warehouse) as wh:
        runs = [rate_pool(wh, pool) for pool in cfg.pools]
        return outcomes, runs, build_report(wh, outcomes, runs, now=now)


def test_report_names_rejected_file_waiting_names_and_unrated_events(tmp_path: Path) -> None:
    cfg = load_config(_club(tmp_path) / "clubratings.toml")
    outcomes, runs, report = _run(cfg)
    assert [o.status for o in outcomes].count("rejected") == 1
    md = report.markdown()
    # named after the import: when (the pinned clock) and how many files it looked at
    assert report.report_id == "2026-11-27-0930-6-files"
    assert report.title == "Import report 2026-11-27 09:30 UTC: 6 files"
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
    assert all(r[5] == "waiting for review: JNo (initials:modra:jno:with:5)" for r in unrated)

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


def test_report_files_are_deterministic_and_a_quiet_run_writes_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reports = []
    for name in ("a", "b"):
        cfg = load_config(_club(tmp_path / name) / "clubratings.toml")
        _, _, report = _run(cfg)
        path = write_report(report, cfg.public)
        assert path == cfg.public / "reports" / f"{report.report_id}.md"
        html = (cfg.public / "reports" / f"{report.report_id}.html").read_bytes()
        assert (cfg.public / "reports" / "latest.html").read_bytes() == html
        assert b"<td>broken.csv</td>" in html
        assert b"Generated 2026-11-27 09:30 UTC." in html
        assert b"Generated 2026-11-27 09:30 UTC." in path.read_bytes()
        reports.append((path.name, path.read_bytes(), html))
    assert reports[0] == reports[1]

    before = sorted(p.name for p in (cfg.public / "reports").iterdir())
    _, runs, again = _run(cfg)  # the same files again: all duplicates, the run kept
    assert all(r.reused for r in runs) and again.quiet
    assert write_report(again, cfg.public) is None
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(NOW.timestamp()) + 3600))  # pins the clock
    _, _, later = _run(cfg, None)  # an import an hour later: named after its own time
    assert later.generated_at == "2026-11-27 10:30 UTC"
    assert (again.report_id, later.report_id) == ("2026-11-27-0930-ratings-only",
                                                  "2026-11-27-1030-ratings-only")
    assert later.markdown() != again.markdown()
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


# --- what a run did to files people had sent, and the list of every report -------------------

CLUB = """
[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""
PAIRS = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
         ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová")]


def _small_club(root: Path) -> Path:
    """Four club nights of 2013 in the inbox."""
    (root / "clubratings.toml").write_text(CLUB, encoding="utf-8")
    (root / "inbox").mkdir(parents=True)
    for i, day in enumerate(("2013-10-03", "2013-10-10", "2013-10-17", "2013-11-07")):
        _drop(root, f"club-{day}.csv", club_event(day, pairs=PAIRS[i:] + PAIRS[:i]))
    return root / "clubratings.toml"


def _drop(root: Path, name: str, *events: str) -> None:
    (root / "inbox" / name).write_bytes(csv_file(*events))


def _project_run(cfg):  # type: ignore[no-untyped-def]
    """What ``clubratings run`` does up to its report (the report through the run core: what
    earlier runs left unreported, the rejected folder)."""
    with Project.open(cfg, command="test") as project:
        project.prepare_identity()
        outcomes = project.ingest()
        runs = project.recompute()
        report, written = project.report(outcomes, runs)
    return report, written


def _sections(report: ImportReport) -> dict[str, Section]:
    return {s.title: s for s in report.sections}


def _files(cfg, capsys, *args: str) -> str:  # type: ignore[no-untyped-def]
    assert main(["files", "--config", str(cfg.root / "clubratings.toml"), *args]) == 0
    return capsys.readouterr().out


@pytest.fixture
def clock_behind_utc() -> object:
    """The local clock five hours behind UTC (files withdraw, restore and release stamp their
    row of the trail with it)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "America/New_York"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_a_release_and_a_withdrawal_appear_in_the_next_runs_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock_behind_utc: object) -> None:
    cfg = load_config(_small_club(tmp_path))
    _project_run(cfg)
    _drop(tmp_path, "late.csv", club_event("2026-03-05"))  # a mistyped year: held
    first, _ = _project_run(cfg)
    (held,) = _sections(first)["Held for a person"].rows
    assert held[:2] == ("held for its dates", "late.csv (file 5)")
    assert "more than 10 years after" in held[2] and held[3] == "clubratings files release 5"
    assert first.headline["held"] == 1 and first.headline["loaded"] == 1
    assert first.headline["released"] == first.headline["withdrawn"] == 0

    _files(cfg, capsys, "release", "5")
    _files(cfg, capsys, "withdraw", "club-2013-10-10.csv", "--reason", "wrong evening")
    second, written = _project_run(cfg)  # nothing new loaded: the report says what people did
    assert written is not None
    rows = _sections(second)["Versions, withdrawals and answers"].rows
    assert [(r[1], r[2].split(" ", 1)[0]) for r in rows] == [
        ("late.csv (file 5)", "released"), ("club-2013-10-10.csv (file 2)", "withdrawn")]
    assert rows[1][2].endswith(": wrong evening")
    assert second.headline["released"] == second.headline["withdrawn"] == 1
    assert second.headline["held"] == 0 and second.headline["loaded"] == 0
    assert _sections(second)["Held for a person"].lines == (
        "Nothing is held for `clubratings files release` or `clubratings review`.",)
    md = written.read_text(encoding="utf-8")
    assert "1 released, 1 withdrawn" in md and "late.csv (file 5)" in md

    _files(cfg, capsys, "restore", "club-2013-10-10.csv")
    third, _ = _project_run(cfg)  # shown once: the restore only, not the actions before it
    (row,) = _sections(third)["Versions, withdrawals and answers"].rows
    assert row[1] == "club-2013-10-10.csv (file 2)" and row[2].startswith("restored")
    assert third.headline["restored"] == 1 and third.headline["withdrawn"] == 0

    listed = sorted(p.name for p in (cfg.public / "reports").iterdir())
    again, nothing = _project_run(cfg)  # nothing new at all: no report, no file changed
    assert again.quiet and nothing is None
    assert sorted(p.name for p in (cfg.public / "reports").iterdir()) == listed


def test_rejected_files_wait_in_every_later_report_and_the_list_shows_each_report(
        tmp_path: Path) -> None:
    cfg = load_config(_small_club(tmp_path))
    (tmp_path / "inbox" / "broken.csv").write_text("nothing,to,see\n1,2,3\n", encoding="utf-8")
    first, _ = _project_run(cfg)
    assert first.headline["rejected"] == first.headline["waiting in rejected"] == 1
    reason = (cfg.rejected / "broken.csv.reason.txt").read_text(encoding="utf-8")
    why = reason.splitlines()[0].split(": not loaded: ", 1)[1]
    assert _sections(first)["Waiting in inbox/rejected/"].rows == (
        ("broken.csv", "this run", why),)

    _drop(tmp_path, "club-2013-11-14.csv", club_event("2013-11-14", pairs=PAIRS))
    second, _ = _project_run(cfg)
    sections = _sections(second)
    assert second.headline["rejected"] == 0 and second.headline["waiting in rejected"] == 1
    assert sections["Rejected files"].lines == (
        "No file was rejected by this run; 1 file rejected by earlier runs still waits in "
        "inbox/rejected/ (below).",)
    ((name, when, said),) = sections["Waiting in inbox/rejected/"].rows
    assert (name, said) == ("broken.csv", why) and re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", when)
    assert sections["Waiting in inbox/rejected/"].lines[0].startswith(
        "1 file waits in inbox/rejected/")

    folder = cfg.public / "reports"
    index = (folder / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<tr><td><a href="([^"]+)">(\d{4}-\d\d-\d\d \d\d:\d\d UTC)</a></td>'
                       r'<td>([^<]+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td>'
                       r'<td class="num">(\d+)</td>', index)
    assert [(href, name) for href, _, name, *_ in links] == [
        (f"{second.report_id}.html", second.report_id), (f"{first.report_id}.html",
                                                            first.report_id)]  # newest first
    assert [date for _, date, *_ in links] == [second.generated_at, first.generated_at]
    assert [tuple(counts) for *_, l, r, w in links for counts in [(l, r, w)]] == [
        ("1", "0", "1"), ("4", "1", "1")]  # loaded, rejected, waiting in rejected/
    assert '<a href="../index.html">All lists</a>' in index
    assert (folder / "latest.html").read_bytes() == (
        folder / f"{second.report_id}.html").read_bytes()
    for report in (first, second):  # each kept, dated, linking back to the list and the site
        page = (folder / f"{report.report_id}.html").read_text(encoding="utf-8")
        assert f"Generated {report.generated_at}." in page
        assert '<a href="index.html">All import reports</a>' in page
        assert '<a href="../index.html">All lists</a>' in page


def _report(report_id: str, stamp: dt.datetime, **headline: int) -> ImportReport:
    return ImportReport(report_id, f"Import report {report_id}", (Section("Overview"),), False,
                        generated_at=f"{stamp:%Y-%m-%d %H:%M} UTC",
                        stamp=stamp.isoformat(sep=" "), headline=dict(headline))


def test_the_list_of_reports_is_newest_first_and_keeps_reports_written_before_it(
        tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "run-0001-aaaaaaaa.html").write_text("<h1>old</h1>", encoding="utf-8")
    (folder / "run-0001-aaaaaaaa.md").write_text("# Import report\n", encoding="utf-8")
    os.utime(folder / "run-0001-aaaaaaaa.html", (1_600_000_000, 1_600_000_000))
    write_report(_report("run-0003-cccccccc", NOW, loaded=2, rejected=1), tmp_path)
    write_report(_report("run-0002-bbbbbbbb", NOW - dt.timedelta(days=1), loaded=7), tmp_path)
    entries = json.loads((folder / "reports.json").read_text(encoding="utf-8"))["reports"]
    assert [(e["id"], e["generated_at"]) for e in entries] == [
        ("run-0003-cccccccc", "2026-11-27 09:30 UTC"),
        ("run-0002-bbbbbbbb", "2026-11-26 09:30 UTC"),
        ("run-0001-aaaaaaaa", "2020-09-13 12:26 UTC (file written)")]
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.index("run-0003-cccccccc") < index.index("run-0002-bbbbbbbb") < index.index(
        "run-0001-aaaaaaaa")
    assert "<td>run-0001-aaaaaaaa</td><td>-</td>" in index  # its counts are not known
    assert "3 reports." in index


def test_names_waiting_per_file_are_those_still_waiting_as_the_overview_counts(
        tmp_path: Path) -> None:
    """JNo waits when the club's initials files load; the decisions file answers it after the
    JFR page that follows them, in the same run: no file of the report says JNo waits."""
    root = _club(tmp_path)
    (root / "inbox" / "broken.csv").unlink()
    shutil.copy(ROOT / "identity" / "decisions.csv", root / "identity" / "decisions.csv")
    shutil.copytree(ROOT / "fixtures" / "jfr_pary", root / "fixtures" / "jfr_pary")
    (root / "clubratings.toml").write_text(CONFIG.replace(
        '"fixtures/identity/modra-*"]',
        '"fixtures/identity/modra-*", "fixtures/jfr_pary/W-wb130808.html"]'), encoding="utf-8")
    outcomes, _, report = _run(load_config(root / "clubratings.toml"))
    assert {n for o in outcomes for n, _ in o.waiting} == {"JNo"}  # waiting when loaded
    sections = {s.title: s for s in report.sections}
    assert "names waiting for review: 0;" in sections["Overview"].lines[2]
    assert sections["Names waiting for review"].lines == ("No name waits for review.",)
    files = sections["Files: BK Modra"]
    assert files.header[5] == "names waiting"
    assert [row[5] for row in files.rows] == ["-"] * 5
    assert {r[0]: r[9] for r in sections["Per club"].rows}["BK Modra"] == "0"
    assert report.report_id == "2026-11-27-0930-6-files"


def test_two_imports_of_one_name_in_one_minute_keep_two_reports(tmp_path: Path) -> None:
    first = dataclasses.replace(_report("2026-11-27-0930-club-csv", NOW, loaded=1),
                                title="Import report 2026-11-27 09:30 UTC: club.csv")
    second = dataclasses.replace(first, sections=(Section("Overview", ("another",)),))
    paths = [write_report(first, tmp_path), write_report(second, tmp_path),
             write_report(second, tmp_path)]  # the same report again: the same name
    assert [p.name for p in paths if p] == [
        "2026-11-27-0930-club-csv.md", "2026-11-27-0930-club-csv-2.md",
        "2026-11-27-0930-club-csv-2.md"]
    entries = json.loads((tmp_path / "reports" / "reports.json").read_text(
        encoding="utf-8"))["reports"]
    assert sorted(e["id"] for e in entries) == ["2026-11-27-0930-club-csv",
                                                "2026-11-27-0930-club-csv-2"]


def test_a_file_a_killed_run_loaded_counts_as_loaded_in_the_next_report(tmp_path: Path) -> None:
    """A run killed after its load committed but before it noted the file leaves the journal
    without it; the next run finds the file a duplicate, and its report shows it loaded all the
    same, while a file loaded before the last report stays a duplicate. The files loaded since
    are found in one query, whatever the number of duplicates."""
    from flows._runlog import Unreported

    (tmp_path / "clubratings.toml").write_text(CONFIG.replace(
        '"fixtures/identity/modra-*"', '"archive/*.csv"'), encoding="utf-8")
    (tmp_path / "archive").mkdir()
    old, new = tmp_path / "archive" / "old.csv", tmp_path / "archive" / "new.csv"
    old.write_bytes(csv_file(club_event("2014-01-07", "Old night")))
    cfg = load_config(tmp_path / "clubratings.toml")
    with Project.open(cfg, command="run") as project:
        project.run(scrape=False)  # old.csv loaded and reported
        journal = Unreported(cfg)
        time.sleep(1.05)  # files are stamped to the second
        new.write_bytes(csv_file(club_event("2014-02-07", "New night")))
        project.ingest()
        journal.clear()  # the note of new.csv lost, as a kill before it would
        outcomes = project.ingest()  # both duplicates now
        assert {Path(o.path).name: o.status for o in outcomes} == {
            "old.csv": "duplicate", "new.csv": "duplicate"}
        # a "since" before new.csv was loaded, after old.csv was: as the report before left it
        at = dict(project.wh.con.execute(
            "SELECT regexp_extract(path, '[a-z]+\\.csv$'), loaded_at FROM source_files"
        ).fetchall())
        assert at["old.csv"] < at["new.csv"]
        since = at["old.csv"] + (at["new.csv"] - at["old.csv"]) / 2
        journal.path.write_text(json.dumps({"since": str(since)}) + "\n", encoding="utf-8")
        files, _ = journal.merged(outcomes, [], project.wh)
    assert {Path(f.path).name: f.status for f in files} == {
        "old.csv": "duplicate", "new.csv": "loaded"}
