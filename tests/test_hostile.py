"""Hostile input (docs/rules/inputs.md): bounded work per file, every file name stored safely,
any failure rejects only its file, corrections that remove data wait for a person."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from flows import load_config
from flows._inbox import stored_name
from flows._parsing import parse_files
from cli import main
from flows.core import Project
from parsers import LimitExceeded, Limits, ParseError, parse_bytes
from parsers._limits import using

from ._csvs import HEADER, club_event, csv_file
from .conftest import JFR_SAMPLE
from .test_core import CONFIG

PAIRS = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
         ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová"),
         ("Juraj Kollár", "Iveta Bartošová"), ("Pavol Šimko", "Lucia Hudecová")]


def _project(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "clubratings.toml").write_text(CONFIG + extra, encoding="utf-8")
    (tmp_path / "inbox").mkdir()
    return tmp_path


def _drop(root: Path, name: str | bytes, data: bytes, mtime: int | None = None) -> Path:
    path = Path(os.fsdecode(os.path.join(os.fsencode(root / "inbox"), os.fsencode(name))))
    path.write_bytes(data)
    if mtime is not None:
        os.utime(path, ns=(mtime * 10**9, mtime * 10**9))
    return path


def _ingest(root: Path) -> list:
    with Project.open(load_config(root / "clubratings.toml"), command="test") as project:
        return project.ingest()


def _left_in_inbox(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "inbox").iterdir() if p.is_file())


def _rejected(root: Path) -> dict[str, str]:
    folder = root / "inbox" / "rejected"
    return {p.name: (folder / (p.name + ".reason.txt")).read_text(encoding="utf-8")
            for p in folder.iterdir() if not p.name.endswith(".reason.txt")}


# --- limits -------------------------------------------------------------------------------------

def _xlsx(rows: int, merges: list[str] = ()) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Place", "Name", "Score"])
    for i in range(1, rows + 1):
        sheet.append([i, f"Player Number{chr(65 + i % 26)}", 100 - i % 50])
    for ref in merges:
        sheet.merge_cells(ref)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _refusal(data: bytes, name: str, limits: Limits) -> ParseError:
    with using(limits), pytest.raises(ParseError) as caught:
        parse_bytes(data, source=name)
    return caught.value


@pytest.mark.parametrize(("setting", "limits", "make", "name"), [
    ("file_mb", Limits(file_mb=0.001), lambda: csv_file(club_event()) * 10, "big.csv"),
    ("rows", Limits(rows=10), lambda: _xlsx(20), "long.xlsx"),
    ("rows", Limits(rows=10), lambda: ("Place,Name,Score\n" + "".join(
        f"{i},Player {chr(65 + i % 26)}bc,{100 - i}\n" for i in range(1, 30))).encode(),
     "long.csv"),
    ("columns", Limits(columns=5), lambda: ("<table><tr>" + "<td>x</td>" * 8 + "</tr>"
                                            "</table>").encode(), "wide.html"),
    ("merged", Limits(merged=3), lambda: _xlsx(5, ["D1:E1", "D2:E2", "D3:E3", "D4:E4"]),
     "merges.xlsx"),
    ("merged_cells", Limits(merged_cells=100), lambda: _xlsx(5, ["D1:Z40"]), "merged.xlsx"),
    ("table_depth", Limits(table_depth=5), lambda: b"<html><body>" + b"<table><tr><td>" * 8
     + b"x" + b"</td></tr></table>" * 8 + b"</body></html>", "nested.html"),
    ("cell_chars", Limits(cell_chars=1000), lambda: (HEADER + "\nClub,E,2013-10-03,pairs,MP,24,"
                                                     "1,1,60,\"" + "x" * 5000 + "\",\n").encode(),
     "cell.csv"),
])
def test_each_limit_refuses_the_file_and_names_the_setting(setting: str, limits: Limits,
                                                           make, name: str) -> None:
    error = _refusal(make(), name, limits)
    assert isinstance(error, LimitExceeded), error
    assert f"[limits] {setting} =" in error.problem
    assert error.file == name


def test_a_zip_container_is_bounded_by_its_directory_before_unpacking() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", b"\0" * (30 << 20))  # 30 MiB of zeros, a small file
    data = out.getvalue()
    assert len(data) < 100_000
    error = _refusal(data, "bomb.ods", Limits(unpacked_mb=10))
    assert "[limits] unpacked_mb = 10" in error.problem
    error = _refusal(data, "bomb.ods", Limits(entries=1))
    assert "[limits] entries = 1" in error.problem


def test_markup_nested_deeper_than_the_html_reader_follows_is_refused_not_cut_short() -> None:
    # 300 nested <b> in one cell: the HTML reader stops at 256 and would drop the rows after
    page = JFR_SAMPLE.read_bytes()
    at = page.index(b"<td", page.index(b"<table"))
    at = page.index(b">", at) + 1
    deep = page[:at] + b"<b>" * 300 + b"x" + b"</b>" * 300 + page[at:]
    error = _refusal(deep, "deep.html", Limits())
    assert isinstance(error, LimitExceeded)
    assert "nested more than 256 deep" in error.problem


def test_a_file_over_the_time_limit_is_stopped_and_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import flows._parsing as parsing
    import parsers._registry as registry

    real = registry.detect_format

    def stuck(data: bytes, filename: str = ""):  # a reader that never comes back in time
        if b"stuck" in data:
            time.sleep(60)
        return real(data, filename)

    parsing.shutdown()  # workers forked from now on carry the stuck reader
    monkeypatch.setattr(registry, "detect_format", stuck)
    try:
        started = time.monotonic()
        slow, fine = parse_files([_write_tmp(b"stuck stuck"), JFR_SAMPLE], Limits(seconds=1))
        assert time.monotonic() - started < 20
        assert isinstance(slow, LimitExceeded)
        assert "[limits] seconds = 1 allows" in slow.problem
        # the other file, and the pool after it, go on as ever
        assert not isinstance(fine, ParseError)
        assert not isinstance(next(parse_files([JFR_SAMPLE], Limits())), ParseError)
    finally:
        parsing.shutdown()


def _write_tmp(data: bytes) -> Path:
    import tempfile

    handle, name = tempfile.mkstemp(suffix=".txt")
    os.write(handle, data)
    os.close(handle)
    return Path(name)


def test_limits_are_settings_and_a_wrong_one_is_named(tmp_path: Path) -> None:
    root = _project(tmp_path, "\n[limits]\nrows = 500\nseconds = 5\n")
    cfg = load_config(root / "clubratings.toml")
    assert cfg.limits.rows == 500 and cfg.limits.seconds == 5.0
    (root / "clubratings.toml").write_text(CONFIG + "\n[limits]\nrowz = 5\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"\[limits\] rowz: unknown key \(did you mean "
                       r"'rows'\?\)"):
        load_config(root / "clubratings.toml")


def test_a_run_over_a_limit_rejects_that_file_with_the_limit_and_loads_the_rest(
        tmp_path: Path) -> None:
    root = _project(tmp_path, "\n[limits]\ntable_depth = 4\n")
    _drop(root, "good.csv", csv_file(club_event()), 1)
    _drop(root, "deep.html", b"<html><body>" + b"<table><tr><td>" * 20000 + b"x", 2)
    outcomes = {Path(o.path).name: o for o in _ingest(root)}
    assert outcomes["good.csv"].status == "loaded"
    assert outcomes["deep.html"].status == "rejected"
    assert "[limits] table_depth = 4" in _rejected(root)["deep.html"]


# --- file names -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    b"wyniki_\xb3\xf3d\xbc.csv",          # not UTF-8 (unzipped from a Windows archive)
    b"w" * 250 + b".csv",                  # 254 bytes: its reason file would not fit
    b"results." + b"x" * 40,               # a long extension
    b"archive", b"rejected",               # the inbox's own folders
    b".hidden.csv",                        # a dot file
    b"results.csv.reason.txt",             # looks like a reason
    b"line\nbreak.csv", b"back\\slash.csv",
])
def test_any_file_name_is_loaded_or_rejected_and_never_blocks_the_inbox(
        tmp_path: Path, name: bytes) -> None:
    root = _project(tmp_path)
    _drop(root, name, csv_file(club_event()), 1)
    _drop(root, "later.csv", csv_file(club_event("2013-10-10")), 2)
    outcomes = _ingest(root)
    assert [o.status for o in outcomes] == ["loaded", "loaded"]
    assert _left_in_inbox(root) == []
    archived = sorted(p.name for p in (root / "inbox" / "archive").iterdir())
    assert len(archived) == 2 and all(len(n.encode()) <= 200 for n in archived)
    assert "dropped as" in outcomes[0].message or stored_name(os.fsdecode(name)) == \
        os.fsdecode(name)
    # a second run has nothing to do
    assert _ingest(root) == []


@pytest.mark.parametrize("name", [b"wyniki_\xb3\xf3d\xbc.html", b"x" * 250 + b".html",
                                  b".DS_Store", b"archive"])
def test_an_unreadable_file_of_any_name_is_rejected_with_its_reason(tmp_path: Path,
                                                                    name: bytes) -> None:
    root = _project(tmp_path)
    _drop(root, name, b"not a result list at all", 1)
    (outcome,) = _ingest(root)
    assert outcome.status == "rejected"
    assert _left_in_inbox(root) == []
    ((stored, reason),) = _rejected(root).items()
    assert "unknown result format" in reason
    if stored_name(os.fsdecode(name)) != os.fsdecode(name):
        assert "dropped as:" in reason
    log = (root / "data" / "logs" / "inbox-names.jsonl")
    assert stored in log.read_text(encoding="utf-8") or stored == os.fsdecode(name)


def test_two_rejected_files_of_one_name_are_both_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _drop(root, "results.csv", b"first unreadable file", 1)
    assert [o.status for o in _ingest(root)] == ["rejected"]
    _drop(root, "results.csv", b"second unreadable file", 2)
    assert [o.status for o in _ingest(root)] == ["rejected"]
    kept = _rejected(root)
    assert sorted((root / "inbox" / "rejected" / n).read_bytes() for n in kept) == [
        b"first unreadable file", b"second unreadable file"]
    assert all("unknown result format" in reason for reason in kept.values())


def test_a_parser_exception_rejects_that_file_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import warehouse._load as load

    root = _project(tmp_path)
    _drop(root, "a.csv", csv_file(club_event("2013-10-01")), 1)
    _drop(root, "b.csv", csv_file(club_event("2013-10-02", title="Boom")), 2)
    _drop(root, "c.csv", csv_file(club_event("2013-10-03")), 3)
    real = load._check_keys

    def broken(events, name):  # a fault of the program on one file
        if any(ev.title == "Boom" for ev in events):
            raise OverflowError("Python int too large to convert to C long")
        return real(events, name)

    monkeypatch.setattr(load, "_check_keys", broken)
    outcomes = {Path(o.path).name: o for o in _ingest(root)}
    assert {n: o.status for n, o in outcomes.items()} == {
        "a.csv": "loaded", "b.csv": "rejected", "c.csv": "loaded"}
    reason = _rejected(root)["b.csv"]
    assert "internal error while reading b.csv" in reason and "please report" in reason
    assert "Traceback" not in reason
    log = (root / "data" / "logs" / "errors.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "OverflowError" in log


# --- corrections ----------------------------------------------------------------------------

def _held_project(tmp_path: Path) -> Path:
    root = _project(tmp_path)
    _drop(root, "club.csv", csv_file(club_event(pairs=PAIRS)), 1)
    assert [o.status for o in _ingest(root)] == ["loaded"]
    return root


def _active_units(root: Path) -> list[int]:
    from warehouse import open_warehouse

    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        return [int(r[0]) for r in wh.con.execute(
            "SELECT n_units FROM active_events ORDER BY event_id").fetchall()]


def test_a_correction_that_only_fixes_names_or_places_replaces_at_once(tmp_path: Path) -> None:
    root = _held_project(tmp_path)
    fixed = [("Ján Novák", "Peter Kováč"), *PAIRS[1:]]
    _drop(root, "club-fixed.csv", csv_file(club_event(pairs=fixed, places=[
        "2", "1", "3", "4", "5", "6"])), 2)
    (outcome,) = _ingest(root)
    assert outcome.status == "correction"
    assert _active_units(root) == [6]


def test_a_truncated_redrop_is_held_and_the_good_event_stays(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str],
                                                             ) -> None:
    root = _held_project(tmp_path)
    _drop(root, "club-again.csv", csv_file(club_event(pairs=PAIRS[:3])), 2)
    (outcome,) = _ingest(root)
    assert outcome.status == "loaded" and "HELD for review" in outcome.message
    assert _active_units(root) == [6]  # the good version stays in force
    config = str(root / "clubratings.toml")
    assert main(["review", "--list", "--config", config]) == 0
    listed = capsys.readouterr().out
    assert "in force: 6 units, 12 players; new version: 3 units, 6 players" in listed
    assert "only in the version in force: Milan Baláž" in listed
    key = next(w for w in listed.split() if w.startswith("correction:"))
    assert main(["review", "--resolve", key, "--keep", "--config", config]) == 0
    assert _active_units(root) == [6]
    assert main(["review", "--list", "--config", config]) == 0
    assert "nothing waits for review" in capsys.readouterr().out


def test_an_accepted_correction_replaces_the_version_in_force(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str],
                                                              ) -> None:
    root = _held_project(tmp_path)
    changed = csv_file(club_event(pairs=PAIRS)).replace(b",pairs,MP,", b",pairs,IMP,")
    _drop(root, "club-imps.csv", changed, 2)
    (outcome,) = _ingest(root)
    assert "changes the scoring from MP to IMP" in outcome.message
    config = str(root / "clubratings.toml")
    main(["review", "--list", "--config", config])
    key = next(w for w in capsys.readouterr().out.split() if w.startswith("correction:"))
    assert main(["review", "--resolve", key, "--accept", "--config", config]) == 0
    from warehouse import open_warehouse

    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        assert wh.con.execute("SELECT scoring FROM active_events").fetchall() == [("IMP",)]


# --- readers beside a run -------------------------------------------------------------------

def test_explain_during_an_ingest_waits_for_it_and_neither_fails(project: Path) -> None:
    import subprocess
    import sys
    import time

    from flows._lock import read_lock_info

    exe = str(Path(sys.executable).parent / "clubratings")
    config = str(project / "clubratings.toml")
    assert main(["run", "--config", config]) == 0
    (project / "inbox").mkdir(exist_ok=True)
    for day in range(1, 29):
        for k in range(3):
            _drop(project, f"club-{day}-{k}.csv", csv_file(club_event(
                f"2014-02-{day:02d}", title=f"Club pairs {k}", pairs=PAIRS)))
    ingest = subprocess.Popen([exe, "ingest", "--config", config], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the ingest holds the lock
        info = read_lock_info(project / "data" / "clubratings.duckdb")
        if (info is not None and info.pid == ingest.pid) or ingest.poll() is not None:
            break
        time.sleep(0.05)
    explain = subprocess.run([exe, "explain", "1", "--config", config], capture_output=True,
                             text=True, timeout=300)
    out, err = ingest.communicate(timeout=300)
    assert ingest.returncode == 0, err
    assert explain.returncode == 0, explain.stderr
    assert "Conflicting lock" not in explain.stderr + err
    assert "84/84" in out or "loaded" in out


# --- after a kill -----------------------------------------------------------------------------

def test_a_killed_runs_helper_processes_are_ended_by_its_watcher(tmp_path: Path) -> None:
    """What Prefect's temporary server is to a killed `run --prefect`: a child left behind."""
    import signal
    import subprocess
    import sys
    import time

    script = ("import subprocess, sys, time\n"
              "from flows._reaper import watch\n"
              "watch()\n"
              "child = subprocess.Popen(['sleep', '300'])\n"
              "print(child.pid, flush=True)\n"
              "time.sleep(300)\n")
    run = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                           cwd=Path(__file__).resolve().parents[1])
    assert run.stdout is not None
    child = int(run.stdout.readline())
    time.sleep(1.5)  # the watcher has seen the child
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a zombie of a reaped parent counts as gone
        stat = Path(f"/proc/{child}/stat")
        if stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
            break
        time.sleep(0.2)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the killed run's child process outlived it")


def test_a_run_killed_between_writing_and_renaming_leaves_no_temporary_file(
        tmp_path: Path) -> None:
    from warehouse import TEMP_PREFIX

    root = _project(tmp_path)
    _drop(root, "good.csv", csv_file(club_event()), 1)
    _ingest(root)
    # what a writer killed half-way leaves: temporary files beside its targets
    leftovers = [root / "public" / "bridge" / f"{TEMP_PREFIX}1-list.csv",
                 root / "data" / f"{TEMP_PREFIX}1-clubratings.duckdb",
                 root / "inbox" / f"{TEMP_PREFIX}1-x.html",
                 root / "data" / "raw" / "ab" / "abcdef.csv"]  # a raw copy with no file row
    for path in leftovers:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
    assert main(["run", "--config", str(root / "clubratings.toml")]) == 0
    assert [p for p in leftovers if p.exists()] == []
    report = root / "public" / "reports" / "latest.html"
    assert not report.exists() or report.stat().st_size > 0


# --- CSV lists --------------------------------------------------------------------------------

def test_every_published_csv_cell_is_safe_to_open_in_a_spreadsheet(tmp_path: Path) -> None:
    import csv

    root = _project(tmp_path)
    # what the plausibility gate lets through (it refuses links, and pairs left unsplit)
    hostile = [("=Novák Ján", "Peter Kováč"), ("@Kováč Peter", "Eva Horváthová"),
               ("Jozef Varga", "-Zuzana Molnárová"), ("Milan Baláž", "Anna Nagyová")]
    _drop(root, "club.csv", csv_file(club_event(pairs=hostile)), 1)
    assert main(["run", "--config", str(root / "clubratings.toml")]) == 0
    lists = list((root / "public").rglob("*.csv"))
    assert lists
    seen = set()
    for path in lists:
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                for column in ("player", "club", "federation_id"):
                    value = row.get(column) or ""
                    assert value[:1] not in ("=", "+", "-", "@", "\t", "\r"), (path, value)
                seen.add(row["player"])
    assert {"'=Novák Ján", "'@Kováč Peter", "'-Zuzana Molnárová"} <= seen
    # the Parquet keeps the names as written
    import pyarrow.parquet as pq

    names = set()
    for path in (root / "public").rglob("list.parquet"):
        names |= set(pq.read_table(path).column("player").to_pylist())
    assert "=Novák Ján" in names


# --- partial reads ----------------------------------------------------------------------------

def _two_sections(second_header: tuple[str, str, str]) -> bytes:
    def table(section: str, header: tuple[str, str, str]) -> str:
        rows = "".join(f"<tr><td>{i}</td><td>{first} {last}</td><td>{60 - i}</td></tr>"
                       for i, (first, last) in enumerate(
                           [("Ján", "Novák"), ("Peter", "Kováč"), ("Eva", "Horváthová"),
                            ("Mária", "Tóthová"), ("Jozef", "Varga"), ("Anna", "Nagyová")], 1))
        cells = "".join(f"<th>{h}</th>" for h in header)
        return f"<h2>Section {section}</h2><table><tr>{cells}</tr>{rows}</table>"
    return (f"<html><body><h1>Club individual 2024-03-05</h1>"
            f"{table('A', ('Place', 'Name', 'Score'))}{table('B', second_header)}"
            "</body></html>").encode()


def test_a_section_whose_header_was_damaged_refuses_the_page_not_half_of_it() -> None:
    whole = parse_bytes(_two_sections(("Place", "Name", "Score")), source="two.html")
    assert [len(e.units) for e in whole.events] == [6, 6]
    for damaged in (("Place", "Nxme", "Score"), ("Place", "Name", "Scxre")):
        with pytest.raises(ParseError, match="rows shaped like the result rows read are in no "
                                             "table read"):
            parse_bytes(_two_sections(damaged), source="two.html")


def test_an_overflowing_number_of_boards_rejects_the_file_and_the_run_goes_on(
        tmp_path: Path) -> None:
    root = _project(tmp_path)
    _drop(root, "huge.csv", csv_file(club_event(boards="99999999999999999999")), 1)
    _drop(root, "good.csv", csv_file(club_event("2013-10-10")), 2)
    outcomes = {Path(o.path).name: o.status for o in _ingest(root)}
    assert outcomes == {"huge.csv": "rejected", "good.csv": "loaded"}
    assert "boards" in _rejected(root)["huge.csv"]


def test_a_file_that_needs_more_memory_than_allowed_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import flows._parsing as parsing
    import parsers._registry as registry

    real = registry.detect_format

    def greedy(data: bytes, filename: str = ""):  # a reader that unpacks without end
        if b"greedy" in data:
            hoard = [bytearray(1 << 20) for _ in range(4096)]  # 4 GiB
            del hoard
        return real(data, filename)

    monkeypatch.setattr(registry, "detect_format", greedy)  # workers fork with it
    big, fine = parsing.parse_files([_write_tmp(b"greedy greedy"), JFR_SAMPLE],
                                    Limits(memory_mb=200, seconds=60))
    assert isinstance(big, ParseError)
    assert "[limits] memory_mb = 200" in big.problem
    assert not isinstance(fine, ParseError)


def test_the_date_window_is_a_setting() -> None:
    data = csv_file(club_event("1999-05-04"))
    assert parse_bytes(data, source="old.csv").events
    with using(Limits(first_year=2000)), pytest.raises(ParseError,
                                                       match="outside 2000-2100"):
        parse_bytes(data, source="old.csv")


def test_a_huge_file_is_refused_by_its_size_without_being_read(tmp_path: Path) -> None:
    import time

    root = _project(tmp_path)
    huge = root / "inbox" / "results.csv"
    with huge.open("wb") as fh:  # 8 GiB, sparse: reading it would take minutes and the memory
        fh.truncate(8 << 30)
    _drop(root, "good.csv", csv_file(club_event()), 1)
    started = time.monotonic()
    outcomes = {Path(o.path).name: o.status for o in _ingest(root)}
    assert time.monotonic() - started < 30
    assert outcomes == {"results.csv": "rejected", "good.csv": "loaded"}
    assert "[limits] file_mb = 25" in _rejected(root)["results.csv"]
