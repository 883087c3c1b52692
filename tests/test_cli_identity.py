"""``clubratings review | players | register | decisions`` on the fixture club, scripted."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from cli import main

from .conftest import FIXTURES, ROOT


def _club(root: Path) -> Path:
    shutil.copytree(FIXTURES / "identity", root / "fixtures" / "identity")
    (root / "clubratings.toml").write_text(
        '[paths]\nsources = ["fixtures/identity/modra-*"]\n'
        '[identity]\nregister = ["fixtures/identity/register-*"]\n'
        'decisions = "identity/decisions.csv"\n',
        encoding="utf-8",
    )
    return root


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A project with the fixture club's files and no decisions yet."""
    return _club(tmp_path)


def _run(club: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([args[0], "--config", str(club / "clubratings.toml"), *args[1:]])
    out, err = capsys.readouterr()
    return code, out, err


def test_review_scripted_end_to_end(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(club, capsys, "ingest")
    assert code == 0
    assert "register-2013.csv: register of 12 member(s)" in out
    assert "review: 1 name(s) wait for a person; 2 event(s) not rated" in out

    code, out, _ = _run(club, capsys, "review", "--list")
    assert code == 0
    assert "initials:modra:jno:with:5" in out
    assert "[1] player 1 Ján Novák — federation id 1001, in the club" in out
    assert "[2] player 2 Jozef Novotný" in out

    code, out, _ = _run(club, capsys, "review", "--json")
    (item,) = json.loads(out)
    assert item["name_as_written"] == "JNo" and item["occurrences"] == 2
    assert [c["player_id"] for c in item["candidates"]] == [1, 2]

    code, out, _ = _run(club, capsys, "review", "--resolve", item["item_key"], "--as", "1")
    assert code == 0 and out.startswith("pick: initials:modra:jno:with:5")
    rows = (club / "identity" / "decisions.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and rows[1].startswith("pick,") and ",Ján Novák,1001," in rows[1]

    code, out, _ = _run(club, capsys, "review", "--list")
    assert out.strip() == "nothing waits for review"
    code, out, _ = _run(club, capsys, "players", "show", "1")
    assert "player 1: Ján Novák (confirmed, from register), federation id 1001" in out
    assert "written as:" in out and "JNo" in out and "Novák Ján" in out
    assert ("  register register-2014.xlsx, row 2: Novák Ján, federation id 1001, club BK Modra, "
            "born 1961, status aktívny") in out.splitlines()
    assert "  clubs: BK Modra (register, written, organiser)" in out.splitlines()
    assert "  bridge: 5 event(s) in force, 2013-09-05..2013-10-03" in out.splitlines()
    assert "  lists: on no published list (clubratings recompute, then publish)" in out
    assert "    2013-10-03 bridge BK Modra: BK Modra – klubový turnaj párov, place 3 of 4" in out


def test_review_errors_are_one_line(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(club, capsys, "ingest")
    code, _, err = _run(club, capsys, "review", "--resolve", "nope", "--new")
    assert code == 2 and err.startswith("clubratings: no review item 'nope'")
    assert "initials:modra:jno:with:5" in err  # the open items are named
    code, _, err = _run(club, capsys, "review", "--resolve", "initials:modra:jno:with:5")
    assert code == 2 and "exactly one of" in err
    code, _, err = _run(club, capsys, "players", "merge", "1", "--into", "2")
    assert code == 2 and "never merged" in err
    code, _, err = _run(club, capsys, "players", "merge", "1")
    assert code == 2 and "--into" in err


def test_merge_and_split_from_the_command_line(club: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _run(club, capsys, "ingest")
    code, out, _ = _run(club, capsys, "players", "merge", "14", "--into", "13")
    assert code == 0 and "merged into 13" in out
    code, out, _ = _run(club, capsys, "players", "show", "14")
    assert "merged into player 13" in out
    code, out, _ = _run(club, capsys, "players", "split", "14")
    assert code == 0 and "split off again" in out
    rows = (club / "identity" / "decisions.csv").read_text(encoding="utf-8").splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["merge", "split"]


def test_decisions_export_and_apply(club: Path, capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    _run(club, capsys, "ingest")
    _run(club, capsys, "review", "--resolve", "initials:modra:jno:with:5", "--new")
    out_file = tmp_path / "copy.csv"
    code, out, _ = _run(club, capsys, "decisions", "export", str(out_file))
    assert code == 0 and out.startswith("1 decision(s) written")
    code, out, _ = _run(club, capsys, "decisions", "apply", str(out_file))
    assert code == 0 and "0 applied, 1 already in the warehouse" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("action,made_at\nfrobnicate,2026-01-01 00:00:00\n", encoding="utf-8")
    code, _, err = _run(club, capsys, "decisions", "apply", str(bad))
    assert code == 2 and "bad.csv, row 2, column 'action'" in err and "'frobnicate'" in err


def test_interactive_review_takes_answers(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cli.review import _interactive
    from flows._config import load_config
    from warehouse import open_warehouse
    from warehouse.review import open_items

    _run(club, capsys, "ingest")
    cfg = load_config(club / "clubratings.toml")
    replies = iter(["what?", "2"])
    out = io.StringIO()
    with open_warehouse(cfg.warehouse) as wh:
        items = open_items(wh).to_dict("records")
        assert _interactive(cfg, wh, items, lambda _prompt: next(replies), out) == 0
        assert open_items(wh).empty
        jno = wh.con.execute(
            "SELECT DISTINCT canonical_id FROM members_resolved WHERE name_as_written = 'JNo' "
            "AND review_key IS NOT NULL").fetchall()
    assert jno == [(2,)]
    assert "please answer" in out.getvalue()


def test_rebuild_from_scratch_with_the_decisions_file(club: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Re-ingesting every file into a new warehouse, the decisions file applied, gives the same
    player ids and the same results frame."""
    from flows._config import load_config
    from warehouse import open_warehouse, results_frame

    def snapshot() -> tuple[object, object]:
        cfg = load_config(club / "clubratings.toml")
        with open_warehouse(cfg.warehouse) as wh:
            players = wh.con.execute("SELECT player_id, name, federation_id, state FROM players "
                                     "ORDER BY player_id").fetchall()
            return players, results_frame(wh).to_dict("list")

    _run(club, capsys, "ingest")
    _run(club, capsys, "review", "--resolve", "initials:modra:jno:with:5", "--as", "2")
    _run(club, capsys, "players", "merge", "14", "--into", "13")
    before = snapshot()
    shutil.rmtree(club / "data")
    code, out, _ = _run(club, capsys, "ingest")
    assert code == 0 and "identity decision(s) that followed this file applied" in out
    assert "review:" not in out.splitlines()[-1]
    assert snapshot() == before


# --- decisions are idempotent ------------------------------------------------------------------

JNO = "initials:modra:jno:with:5"


def _jno_players(project: Path) -> list[tuple[object, ...]]:
    """Whom the fixture club's ``JNo`` of the waiting lists counts for."""
    from flows._config import load_config
    from warehouse import open_warehouse

    with open_warehouse(load_config(project / "clubratings.toml").warehouse) as wh:
        return wh.con.execute(
            "SELECT DISTINCT canonical_id FROM members_resolved WHERE name_as_written = 'JNo' "
            "AND review_key IS NOT NULL").fetchall()


def test_the_readme_identity_example_twice_then_run(
        default_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """README, "Player identity": the example answers the item the bundled decisions file
    answers too (the same answer, another time stamp) and puts that file back. Done twice, the
    next run replays the file over the answer on record: nothing to do, exit 0."""
    from .test_docs_examples import BIN, _run_shell, blocks_of

    (block,) = [b for b in blocks_of(ROOT / "README.md")
                if f"review --resolve {JNO} --as 1" in b.text]
    project = tmp_path / "project"
    shutil.copytree(default_run, project, symlinks=True)
    if not (project / ".venv").exists():
        (project / ".venv").mkdir()
        (project / ".venv" / "bin").symlink_to(BIN)
    bundled = (ROOT / "identity" / "decisions.csv").read_bytes()
    _run_shell(block, project)
    _run_shell(block, project)
    assert (project / "identity" / "decisions.csv").read_bytes() == bundled

    code, out, err = _run(project, capsys, "run")
    assert code == 0, err
    assert "warning:" not in out and err == ""
    assert _jno_players(project) == [(1,)]
    code, out, _ = _run(project, capsys, "decisions", "apply")
    assert code == 0
    assert out.strip() == "decisions: 0 applied, 1 already in the warehouse"


def test_an_answer_given_twice_is_a_no_op(club: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    _run(club, capsys, "ingest")
    code, out, _ = _run(club, capsys, "review", "--resolve", JNO, "--as", "1")
    assert code == 0 and out.startswith(f"pick: {JNO} (decision ")
    decision = out.split("(decision ")[1].split(")")[0]
    kept = (club / "identity" / "decisions.csv").read_bytes()

    code, out, err = _run(club, capsys, "review", "--resolve", JNO, "--as", "1")
    assert code == 0, err
    assert out.strip() == f"{JNO} is already answered so (decision {decision}): nothing to do"
    assert (club / "identity" / "decisions.csv").read_bytes() == kept
    assert _jno_players(club) == [(1,)]
    code, out, _ = _run(club, capsys, "decisions", "export")
    assert out.startswith("1 decision(s) written")

    # another answer is refused, naming the answer on record and the way to change it
    code, _, err = _run(club, capsys, "review", "--resolve", JNO, "--as", "2")
    assert code == 2
    assert err.count("\n") == 1
    assert f"review item {JNO!r} is already answered: player 1 'Ján Novák' " \
        f"(decision {decision}); the answer given (player 2 'Jozef Novotný') contradicts it" in err
    assert "clubratings players split " in err
    assert _jno_players(club) == [(1,)]


def test_a_contradicting_decision_of_the_file_is_held(
        club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A decisions file from elsewhere says JNo is Jozef Novotný and merges two players; here
    JNo is answered Ján Novák: the answer on record stays, one warning line names both, the
    merge applies and the run ends well."""
    other = _club(tmp_path / "other")
    _run(other, capsys, "ingest")
    assert _run(other, capsys, "review", "--resolve", JNO, "--as", "2")[0] == 0
    assert _run(other, capsys, "players", "merge", "14", "--into", "13")[0] == 0

    _run(club, capsys, "ingest")
    code, out, _ = _run(club, capsys, "review", "--resolve", JNO, "--as", "1")
    decision = out.split("(decision ")[1].split(")")[0]
    shutil.copy(other / "identity" / "decisions.csv", club / "identity" / "decisions.csv")

    code, out, err = _run(club, capsys, "run")
    assert code == 0, err
    (warning,) = [line for line in out.splitlines() if line.startswith("warning:")]
    assert warning.startswith(f"warning: decisions.csv: held, not applied: review item {JNO!r} "
                              f"is already answered: player 1 'Ján Novák' (decision {decision}); "
                              "the answer given (player 2 'Jozef Novotný') contradicts it")
    assert _jno_players(club) == [(1,)]
    code, out, _ = _run(club, capsys, "players", "show", "14")
    assert "merged into player 13" in out

    # the next run and an apply say the same, and change nothing
    code, out, _ = _run(club, capsys, "run")
    assert code == 0 and [line for line in out.splitlines() if line.startswith("warning:")] \
        == [warning]
    code, out, _ = _run(club, capsys, "decisions", "apply")
    assert code == 0 and out.splitlines() == [
        "decisions: 0 applied, 1 already in the warehouse, 1 held: contradicting an answer on "
        "record (not applied)", warning]
    assert _jno_players(club) == [(1,)]
