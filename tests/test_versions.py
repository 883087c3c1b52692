"""Versions of a file (docs/rules/inputs.md): the chain a re-drop under the same name makes,
`clubratings files history`, the one-line changes of force, a page of the same name that shows
another night, a held version answered, and the import report's list of it all."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cli.review import _interactive_corrections
from cli import main
from warehouse import open_warehouse
from warehouse.corrections import waiting_answers

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

PAIRS = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
         ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová"),
         ("Karol Szabó", "Lenka Vargová")]


def _project(tmp_path: Path) -> Path:
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "inbox").mkdir()
    return tmp_path


def _cli(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main([args[0], "--config", str(root / "clubratings.toml"), *args[1:]])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out


def _drop(root: Path, capsys: pytest.CaptureFixture[str], name: str, *events: str) -> str:
    (root / "inbox" / name).write_bytes(csv_file(*events))
    return _cli(root, capsys, "run")


def _in_force(root: Path) -> list[tuple[str, str, int]]:
    with open_warehouse(root / "data" / "clubratings.duckdb", read_only=True) as wh:
        return [(str(r[0]), str(r[1]), int(r[2])) for r in wh.con.execute(
            "SELECT event_date::VARCHAR, title, file_id FROM active_events ORDER BY 1, 2"
        ).fetchall()]


def test_history_and_the_one_line_changes_of_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    _drop(root, capsys, "club.csv", club_event("2013-10-03", pairs=PAIRS),
          club_event("2013-10-10", pairs=PAIRS[1:] + PAIRS[:1]))
    out = _drop(root, capsys, "club.csv", club_event("2013-10-04", pairs=PAIRS),
                club_event("2013-10-10", pairs=PAIRS[1:] + PAIRS[:1]))
    assert "club.csv: new version of file 1 (club.csv): its 2 event(s) leave force" in out
    assert _in_force(root) == [("2013-10-04", "Club pairs", 2), ("2013-10-10", "Club pairs", 2)]
    report = (root / "public" / "reports" / "latest.html").read_text(encoding="utf-8")
    assert "Versions, withdrawals and answers" in report
    assert "new version of file 1, which it supersedes" in report

    out = _cli(root, capsys, "files", "withdraw", "2", "--reason", "the 4th was wrong")
    assert ("into force: 2 event(s) of file 1 (2013-10-03..2013-10-10); out of force: 2 "
            "event(s) of file 2 (2013-10-04..2013-10-10)") in out
    assert _in_force(root) == [("2013-10-03", "Club pairs", 1), ("2013-10-10", "Club pairs", 1)]
    out = _cli(root, capsys, "files", "restore", "2")
    assert "into force: 2 event(s) of file 2" in out and "out of force: 2 event(s) of file 1" in out

    monkey = pytest.MonkeyPatch()
    monkey.setenv("CLUBRATINGS_USER", "rating officer")
    try:
        _cli(root, capsys, "files", "withdraw", "1", "--reason", "old version")
    finally:
        monkey.undo()
    assert _in_force(root)[0] == ("2013-10-04", "Club pairs", 2)  # a middle link: no change
    history = _cli(root, capsys, "files", "history", "club.csv")
    lines = history.splitlines()
    assert lines[0] == "club.csv: 2 file(s) in 1 chain(s) of versions"
    assert lines[1].startswith("  v1  file 1  loaded ")
    assert "withdrawn" in lines[2]
    assert lines[3].startswith("  v2  file 2  loaded ") and "supersedes file 1" in lines[3]
    assert "2 event(s) 2013-10-04..2013-10-10; 2 in force; IN FORCE" in lines[4]
    assert "file 2 withdrawn" in history and ": the 4th was wrong" in history
    assert "file 2 restored" in history
    assert "file 1 withdrawn by rating officer: old version" in history
    # several files of the name: withdraw by name says how to tell them apart
    code = main(["files", "--config", str(root / "clubratings.toml"), "withdraw", "club.csv"])
    assert code != 0
    assert "files history club.csv" in capsys.readouterr().err


def test_a_page_of_the_same_name_showing_another_night_is_no_version(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A "latest results" page: next week's night under the same name, other places."""
    root = _project(tmp_path)
    _drop(root, capsys, "latest.csv", club_event("2013-10-03", pairs=PAIRS))
    shuffled = [PAIRS[3], PAIRS[0], PAIRS[4], PAIRS[1], PAIRS[2]]
    out = _drop(root, capsys, "latest.csv", club_event("2013-10-10", pairs=shuffled))
    assert "new version" not in out
    assert [d for d, _, _ in _in_force(root)] == ["2013-10-03", "2013-10-10"]
    history = _cli(root, capsys, "files", "history", "latest.csv")
    assert "2 file(s) in 2 chain(s)" in history


def test_a_version_that_drops_a_night_is_held_until_answered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    nights = [club_event(d, pairs=PAIRS) for d in ("2013-10-03", "2013-10-10", "2013-10-17")]
    _drop(root, capsys, "club.csv", *nights)
    out = _drop(root, capsys, "club.csv", *nights[:2])
    assert "club.csv: new version of file 1 HELD for review: it has 2 event(s) where the " \
           "version in force has 3" in out
    assert [f for _, _, f in _in_force(root)] == [1, 1, 1]
    listed = _cli(root, capsys, "review", "--list")
    assert "version:2" in listed and "only in the version in force" not in listed
    out = _cli(root, capsys, "review", "--resolve", "version:2", "--keep")
    assert "kept the version in force: version:2: no event changes force" in out
    assert _cli(root, capsys, "files", "list").count("kept out") == 1
    # the club drops the whole file again, a score fixed: the next version supersedes
    fixed = club_event("2013-10-17", pairs=PAIRS, boards="26")
    out = _drop(root, capsys, "club.csv", *nights[:2], fixed)
    assert "new version of file 2" in out and "leave force" in out
    assert [f for _, _, f in _in_force(root)] == [3, 3, 3]


def test_a_spelling_question_answered_on_the_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    typo = [("Ján Novák", "Peter Kováčč"), *PAIRS[1:]]
    _drop(root, capsys, "club.csv", club_event("2013-10-03", pairs=typo))
    _drop(root, capsys, "club.csv", club_event("2013-10-03", pairs=PAIRS))
    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        questions = waiting_answers(wh)
        assert [q.key.split("-")[0] for q in questions] == [f"spelling:{2}"]
        out = io.StringIO()
        replies = iter(["b", "a"])  # b is no answer to a spelling question
        assert _interactive_corrections(wh, questions, lambda _: next(replies), out) == 0
        assert "please answer with a, k, s or q" in out.getvalue()
        assert wh.con.execute("SELECT name FROM players WHERE player_id = 2").fetchall() == [
            ("Peter Kováč",)]
        assert sorted(r[0] for r in wh.con.execute(
            "SELECT spelling FROM player_aliases WHERE player_id = 2").fetchall()) == [
            "Peter Kováč", "Peter Kováčč"]
        assert waiting_answers(wh) == []
