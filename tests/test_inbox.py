"""The inbox promises (docs/rules/inputs.md): all or nothing, rejected with a reason, no double loads."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from flows import inbox_files, ingest_file
from warehouse import Warehouse, file_sha256

from ._csvs import HEADER, club_event, csv_file
from .conftest import JFR_SAMPLE, SEASON


def _drop(inbox: Path, name: str, data: bytes, mtime: int) -> Path:
    inbox.mkdir(parents=True, exist_ok=True)
    path = inbox / name
    path.write_bytes(data)
    os.utime(path, ns=(mtime, mtime))
    return path


def _ingest_all(wh: Warehouse, inbox: Path) -> dict[str, str]:
    return {
        p.name: ingest_file(wh, p, archive=inbox / "archive", rejected=inbox / "rejected").status
        for p in inbox_files(inbox)
    }


def test_corrupt_file_among_good_ones(wh: Warehouse, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    shutil.copy(JFR_SAMPLE, inbox.mkdir() or inbox)
    shutil.copy(SEASON[0], inbox)
    bad = csv_file(club_event("2013-10-03", title="Broken")).replace(b"2013-10-03", b"2013-13-45", 3)
    _drop(inbox, "broken.csv", bad, 3)
    statuses = _ingest_all(wh, inbox)
    assert statuses == {
        "broken.csv": "rejected", JFR_SAMPLE.name: "loaded", SEASON[0].name: "loaded",
    }
    # the good ones are archived, the bad one is aside with its reason
    assert sorted(p.name for p in (inbox / "archive").iterdir()) == sorted(
        [JFR_SAMPLE.name, SEASON[0].name])
    assert (inbox / "rejected" / "broken.csv").read_bytes() == bad
    reason = (inbox / "rejected" / "broken.csv.reason.txt").read_text(encoding="utf-8")
    assert reason.startswith("broken.csv: not loaded: ")
    assert "row: 2" in reason
    assert "column: date" in reason
    assert "'2013-13-45'" in reason
    assert inbox_files(inbox) == []
    # nothing of the bad file reached the warehouse
    assert wh.con.execute(
        "SELECT count(*) FROM source_files WHERE sha256 = ?", [file_sha256(bad)]
    ).fetchall() == [(0,)]
    assert wh.con.execute("SELECT count(*) FROM events WHERE title = 'Broken'").fetchall() == [(0,)]


def test_dropping_the_same_bytes_again_loads_nothing(wh: Warehouse, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    data = csv_file(club_event())
    _drop(inbox, "club.csv", data, 1)
    assert _ingest_all(wh, inbox) == {"club.csv": "loaded"}
    before = wh.row_counts()
    _drop(inbox, "club-again.csv", data, 2)
    assert _ingest_all(wh, inbox) == {"club-again.csv": "duplicate"}
    assert wh.row_counts() == before
    assert (inbox / "archive" / "club-again.csv").exists()


def test_a_corrected_file_replaces_its_event(wh: Warehouse, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    _drop(inbox, "club.csv", csv_file(club_event(places=["1", "2", "3", "4"])), 1)
    _ingest_all(wh, inbox)
    _drop(inbox, "club.csv", csv_file(club_event(places=["1", "2", "4", "3"])), 2)
    assert _ingest_all(wh, inbox) == {"club.csv": "correction"}
    assert wh.con.execute("SELECT count(*) FROM active_events").fetchall() == [(1,)]
    assert wh.con.execute("SELECT count(*) FROM event_replacements").fetchall() == [(1,)]
    # both versions are archived, neither overwrites the other
    assert len(list((inbox / "archive").iterdir())) == 2


def test_unknown_format_is_rejected_with_a_reason(wh: Warehouse, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    _drop(inbox, "notes.txt", b"just some notes, not results\n", 1)
    assert _ingest_all(wh, inbox) == {"notes.txt": "rejected"}
    reason = (inbox / "rejected" / "notes.txt.reason.txt").read_text(encoding="utf-8")
    assert "unknown result format" in reason
    assert wh.row_counts()["source_files"] == 0


def test_inbox_takes_oldest_first_and_every_name_under_a_safe_one(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    _drop(inbox, "b.csv", HEADER.encode(), 1)
    _drop(inbox, "a.csv", HEADER.encode(), 2)
    _drop(inbox, ".partial", b"", 0)
    _drop(inbox, "x.csv.reason.txt", b"", 0)
    (inbox / "rejected").mkdir()  # the inbox's own folders are not files
    log = tmp_path / "names.jsonl"
    names = [p.name for p in inbox_files(inbox, names_log=log)]
    # a dot file and a reason-like name are taken too, renamed so nothing can mistake them
    assert sorted(names[:2]) == ["_.partial", "x.csv.reason_.txt"]
    assert names[2:] == ["b.csv", "a.csv"]
    assert sorted(p.name for p in inbox.iterdir()) == [
        "_.partial", "a.csv", "b.csv", "rejected", "x.csv.reason_.txt"]
    assert ".partial" in log.read_text(encoding="utf-8")


def test_warnings_of_a_loaded_file_reach_its_line_and_outcome(wh: Warehouse, tmp_path: Path) -> None:
    """A parser's warnings are counted on the file's one line and kept for the import report."""
    source = Path(__file__).resolve().parent.parent / "fixtures" / "egd_table"
    inbox = tmp_path / "inbox"
    path = _drop(inbox, "table.h", (source / "inconsistent-halves-no-colours.h").read_bytes(), 1)
    outcome = ingest_file(wh, path, archive=inbox / "archive", rejected=inbox / "rejected")
    assert outcome.status == "loaded"
    assert outcome.warnings and all(isinstance(w, str) and w for w in outcome.warnings)
    assert f"{len(outcome.warnings)} warning(s) from reading it" in outcome.message
    assert "\n" not in outcome.message


def test_names_in_capitals_are_shown_in_proper_case_and_kept_as_written(
        wh: Warehouse, tmp_path: Path) -> None:
    data = csv_file(club_event(pairs=[("John GIBBERD", "MARY O'BRIEN"), ("Eva Malá", "Ján Novák"),
                                      ("Jozef Varga", "Anna Nagyová")]))
    path = _drop(tmp_path / "inbox", "caps.csv", data, 1)
    assert ingest_file(wh, path).status == "loaded"
    names = {r[0] for r in wh.con.execute("SELECT name FROM players").fetchall()}
    assert {"John Gibberd", "Mary O'Brien"} <= names
    spellings = {r[0] for r in wh.con.execute("SELECT spelling FROM player_aliases").fetchall()}
    assert {"John GIBBERD", "MARY O'BRIEN"} <= spellings
