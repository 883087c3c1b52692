"""Withdrawing a loaded file (clubratings files): out of every later list with an audit row, the
same bytes refused while withdrawn, and an undo that brings the lists back byte for byte."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from cli import main
from warehouse import open_warehouse

from ._csvs import club_event, csv_file

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""


def _club(tmp_path: Path) -> Path:
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for i, day in enumerate(("2013-10-03", "2013-10-10", "2013-10-17", "2013-11-07")):
        pairs = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
                 ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová")]
        pairs = pairs[i % 4:] + pairs[:i % 4]
        (inbox / f"club-{day}.csv").write_bytes(csv_file(club_event(day, pairs=pairs)))
    return tmp_path


def _cli(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([args[0], "--config", str(root / "clubratings.toml"), *args[1:]])
    out, err = capsys.readouterr()
    return code, out, err


def _lists(root: Path) -> dict[str, str]:
    public = root / "public"
    return {str(p.relative_to(public)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(public.rglob("*")) if p.is_file() and "reports" not in p.parts}


def _publish(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert _cli(root, capsys, "recompute")[0] == 0
    assert _cli(root, capsys, "publish")[0] == 0
    return _lists(root)


def test_withdraw_and_restore_round_trip(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    assert _cli(root, capsys, "ingest")[0] == 0
    before = _publish(root, capsys)

    code, out, _ = _cli(root, capsys, "files", "list")
    assert code == 0 and "club-2013-10-10.csv" in out and "loaded" in out
    code, out, err = _cli(root, capsys, "files", "withdraw", "club-2013-10-10.csv",
                          "--reason", "wrong evening")
    assert code == 0, err
    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        assert wh.con.execute("SELECT reason, undone_at FROM file_withdrawals").fetchall() == [
            ("wrong evening", None)]
        assert wh.con.execute("SELECT count(*) FROM active_events").fetchall() == [(3,)]
    withdrawn = _publish(root, capsys)
    assert withdrawn != before
    code, out, _ = _cli(root, capsys, "files", "show", "club-2013-10-10.csv")
    assert "withdrawn" in out and "(not in force)" in out and "wrong evening" in out

    # the same bytes dropped again are refused, saying how to undo the withdrawal
    archived = root / "inbox" / "archive" / "club-2013-10-10.csv"
    shutil.copy(archived, root / "inbox" / "again.csv")
    code, out, _ = _cli(root, capsys, "ingest")
    assert code == 1 and "withdrawn" in out and "clubratings files restore 2" in out
    reason = (root / "inbox" / "rejected" / "again.csv.reason.txt").read_text(encoding="utf-8")
    assert "clubratings files restore 2" in reason

    code, out, err = _cli(root, capsys, "files", "restore", "2")
    assert code == 0, err
    assert _publish(root, capsys) == before  # byte-identical lists again
    code, _, err = _cli(root, capsys, "files", "restore", "2")
    assert code == 2 and "not withdrawn" in err and err.count("\n") == 1


def test_unknown_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    assert _cli(root, capsys, "ingest")[0] == 0
    code, _, err = _cli(root, capsys, "files", "withdraw", "nothing.csv")
    assert code == 2 and "no loaded file is 'nothing.csv'" in err and err.count("\n") == 1


def test_a_withdrawn_correction_brings_the_replaced_event_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    assert _cli(root, capsys, "ingest")[0] == 0
    fixed = csv_file(club_event("2013-10-03", places=["2", "1", "3", "4"]))
    (root / "inbox" / "fixed.csv").write_bytes(fixed)
    code, out, _ = _cli(root, capsys, "ingest")
    assert code == 0 and "replacing event" in out
    db = root / "data" / "clubratings.duckdb"
    with open_warehouse(db) as wh:
        assert wh.con.execute("SELECT count(*) FROM active_events").fetchall() == [(4,)]
        (correction,) = wh.con.execute(
            "SELECT file_id FROM source_files WHERE name = 'fixed.csv'").fetchall()[0]
    assert _cli(root, capsys, "files", "withdraw", str(correction))[0] == 0
    with open_warehouse(db) as wh:
        titles = wh.con.execute("SELECT file_id, event_date::VARCHAR FROM active_events "
                                "ORDER BY event_date").fetchall()
    assert titles[0] == (1, "2013-10-03")  # the original event is in force again


def test_a_far_dated_file_is_held_for_confirmation_and_makes_no_empty_edition(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A club night typed as 2026 next to a 2013 history: loaded, held with its message, not
    rated, no edition for the twelve empty years; released, it is rated, still with no empty
    edition between; a future date is held even in an empty warehouse."""
    root = _club(tmp_path)
    assert _cli(root, capsys, "ingest")[0] == 0
    before = _publish(root, capsys)
    late = root / "inbox" / "club-2026-03-05.csv"
    late.write_bytes(csv_file(club_event("2026-03-05")))
    code, out, _ = _cli(root, capsys, "run")  # ingest, recompute, report, publish
    assert code == 0
    assert ("HELD for confirmation: event 'Club pairs' is dated 2026-03-05, more than 10 years "
            "after the latest bridge event so far (2013-11-07)") in out
    assert "clubratings files release 5" in out
    bridge = {k: v for k, v in _lists(root).items() if k.startswith("bridge/")}
    assert bridge == {k: v for k, v in before.items() if k.startswith("bridge/")}  # not rated
    report = (root / "public" / "reports" / "latest.html").read_text(encoding="utf-8")
    assert "held for confirmation: event" in report
    assert "held" in _cli(root, capsys, "files", "list")[1]

    code, out, _ = _cli(root, capsys, "files", "release", "5")
    assert code == 0 and "released" in out
    after = _publish(root, capsys)
    editions = sorted({key.split("/")[1] for key in after if key.count("/") >= 2
                       and key.startswith("bridge/")
                       and key.split("/")[1] not in ("players", "clubs")})
    assert editions == ["2013Q4", "2026Q1"]  # nothing for the quarters nobody played in

    future = tmp_path / "fresh"
    future.mkdir()
    (future / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (future / "inbox").mkdir()
    (future / "inbox" / "club-2031-01-09.csv").write_bytes(csv_file(club_event("2031-01-09")))
    code, out, _ = _cli(future, capsys, "ingest")
    assert code == 0 and "is dated 2031-01-09, in the future" in out
