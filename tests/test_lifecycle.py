"""A file's versions (clubratings ingest, files, review): whatever order files are dropped,
corrected under the same name, withdrawn, restored and released in, the events in force and the
published lists are those of a fresh project that loads only the files in force
(tests/_lifecycle.py). Five histories of a real club month reproduce the cases that went wrong."""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, note, settings
from hypothesis import strategies as st

from warehouse import open_warehouse

from . import _lifecycle as lc
from .conftest import FIXTURES

# --- random histories of the small club --------------------------------------------------------

Op = tuple[str, int, str]
"""(what, which, correction): what is done, ``which`` picks the file among those it can be done
to, ``correction`` is the kind of a correction (``lc.CORRECTIONS``)."""

OPS = st.tuples(
    st.sampled_from(("drop", "correct", "withdraw", "restore", "release")),
    st.integers(0, 7),
    st.sampled_from(lc.CORRECTIONS),
)


@dataclass
class History:
    """The tested project and what the test did to it."""

    root: Path
    changes: dict[str, Counter[str]] = field(default_factory=dict)
    """The dropped files by name: the corrections made to each so far."""
    versions: list[tuple[int, str]] = field(default_factory=list)
    """(file id, name) of every version loaded, in load order."""
    withdrawn: set[int] = field(default_factory=set)

    def step(self, op: Op) -> str:
        """Do ``op`` (or the nearest thing that can be done); what was done, for the notes."""
        what, which, kind = op
        fresh = [name for name in lc.FILES if name not in self.changes]
        loaded = [fid for fid, _ in self.versions if fid not in self.withdrawn]
        if what == "release" and not self.versions:
            what = "drop"
        if what == "restore" and not self.withdrawn:
            what = "withdraw"
        if what == "withdraw" and not loaded:
            what = "drop"
        if what == "correct" and not self.changes:
            what = "drop"
        if what == "drop" and not fresh:
            what = "correct"
        if what == "drop":
            name = fresh[which % len(fresh)]
            self.changes[name] = Counter()
            return self._load(name, "drop")
        if what == "correct":
            name = sorted(self.changes)[which % len(self.changes)]
            kind = lc.applicable(name, self.changes[name], kind)
            self.changes[name][kind] += 1
            return self._load(name, f"correct ({kind})")
        if what == "withdraw":
            file_id = loaded[which % len(loaded)]
            lc.must(self.root, "files", "withdraw", str(file_id))
            self.withdrawn.add(file_id)
            return f"withdraw {file_id}"
        if what == "restore":
            file_id = sorted(self.withdrawn)[which % len(self.withdrawn)]
            lc.must(self.root, "files", "restore", str(file_id))
            self.withdrawn.discard(file_id)
            return f"restore {file_id}"
        lc.answer_everything(self.root)
        self.check_answered()
        return "release"

    def _load(self, name: str, said: str) -> str:
        code, out = lc.drop(self.root, name, lc.club_file(name, self.changes[name]))
        assert code == 0, out
        file_id = lc.file_id(self.root, name)
        assert all(fid != file_id for fid, _ in self.versions), f"{name} was not loaded: {out}"
        self.versions.append((file_id, name))
        return f"{said} {name} -> file {file_id}"

    def in_force(self) -> list[int]:
        from warehouse.files import files_in_force

        with open_warehouse(self.root / lc.WAREHOUSE) as wh:
            return list(files_in_force(wh))

    def check_in_force(self) -> None:
        """No withdrawn file is in force, nor two versions of one file."""
        in_force = self.in_force()
        names = dict(self.versions)
        assert not self.withdrawn & set(in_force), (in_force, self.withdrawn)
        chains = [names[fid] for fid in in_force]
        assert len(chains) == len(set(chains)), f"two versions of one file in force: {in_force}"

    def check_answered(self) -> None:
        """With every question accepted, each file's latest version not withdrawn is in force."""
        latest: dict[str, int] = {}
        for file_id, name in self.versions:
            if file_id not in self.withdrawn:
                latest[name] = file_id
        assert self.in_force() == sorted(latest.values())


def _history(ops: list[Op], *, lists_every_step: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="lifecycle-") as folder:
        history = History(lc.new_project(Path(folder) / "club"))
        for step, op in enumerate(ops, 1):
            note(history.step(op))
            history.check_in_force()
            last = step == len(ops)
            fresh = lc.fresh_load(history.root, publish=lists_every_step or last)
            note(f"  in force: {fresh.files}")
            assert lc.active_signature(history.root / lc.WAREHOUSE) == fresh.signature
            if lists_every_step or last:
                assert lc.publish_lists(history.root) == fresh.lists


SHORT = settings(max_examples=4, deadline=None, derandomize=True, database=None,
                 phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large))


@SHORT
@given(st.lists(OPS, min_size=1, max_size=4))
@example([("drop", 0, "score"), ("correct", 0, "rename"), ("release", 0, "score")])
@example([("drop", 1, "score"), ("correct", 0, "drop_pair"), ("withdraw", 1, "score"),
          ("release", 0, "score")])
@example([("drop", 1, "score"), ("correct", 0, "move_date"), ("correct", 0, "retitle"),
          ("withdraw", 1, "score")])
def test_files_in_force_are_a_fresh_load(ops: list[Op]) -> None:
    """Every step's events in force, and the last step's lists, are a fresh load's."""
    _history(ops, lists_every_step=False)


@pytest.mark.skipif(not os.environ.get("CLUBRATINGS_SLOW_TESTS"),
                    reason="a few minutes; set CLUBRATINGS_SLOW_TESTS=1 to run it")
@settings(SHORT, max_examples=15)
@given(st.lists(OPS, min_size=1, max_size=6))
def test_files_in_force_are_a_fresh_load_every_step(ops: list[Op]) -> None:
    """Longer histories; every step's lists too are a fresh load's."""
    _history(ops, lists_every_step=True)


# --- a real club month: fixtures/club_season_later/singleton-2015-03.csv -----------------------

MONTH = FIXTURES / "club_season_later" / "singleton-2015-03.csv"
NAME = MONTH.name
NIGHTS = ["2015-03-05", "2015-03-12", "2015-03-19", "2015-03-26"]


def _month(tmp_path: Path, text: str | None = None) -> Path:
    """A project with the month loaded as the original (``text`` instead of the file's own)."""
    root = lc.new_project(tmp_path / "club")
    data = MONTH.read_bytes() if text is None else text.encode("utf-8")
    code, out = lc.drop(root, NAME, data)
    assert code == 0, out
    return root


def _rescored(text: str, day: str, old: str, new: str) -> str:
    """``text`` with the score ``old`` of a pair on ``day`` changed to ``new`` (both rows)."""
    lines = text.splitlines(keepends=True)
    hits = [k for k, line in enumerate(lines) if f",{day}," in line and f",{old}," in line]
    assert len(hits) == 2, hits
    for k in hits:
        lines[k] = lines[k].replace(f",{old},", f",{new},")
    return "".join(lines)


def _nights(root: Path) -> list[str]:
    with open_warehouse(root / lc.WAREHOUSE) as wh:
        return [str(r[0]) for r in wh.con.execute(
            "SELECT event_date::VARCHAR FROM active_events ORDER BY event_date").fetchall()]


def _score(root: Path, day: str, player: str) -> list[tuple[float, int]]:
    """(score, file id) of ``player``'s unit on ``day`` in each event in force."""
    with open_warehouse(root / lc.WAREHOUSE) as wh:
        return [(float(r[0]), int(r[1])) for r in wh.con.execute(
            "SELECT u.score, e.file_id FROM active_events e JOIN units u USING (event_id) "
            "JOIN unit_members m USING (event_id, unit_no) "
            "WHERE e.event_date = ?::DATE AND m.name_as_written = ?", [day, player]).fetchall()]


def _player_ids(root: Path, name: str) -> set[int]:
    """The players seated as ``name`` in the events in force."""
    with open_warehouse(root / lc.WAREHOUSE) as wh:
        return {int(r[0]) for r in wh.con.execute(
            "SELECT DISTINCT m.player_id FROM active_events e JOIN unit_members m "
            "USING (event_id) WHERE m.name_as_written = ?", [name]).fetchall()}


def _as_fresh(root: Path) -> dict[str, bytes]:
    """The lists after recompute and publish, checked against a fresh load's."""
    fresh = lc.fresh_load(root)
    assert lc.active_signature(root / lc.WAREHOUSE) == fresh.signature
    published = lc.publish_lists(root)
    assert published == fresh.lists
    return published


def test_a_corrected_date_replaces_the_night(tmp_path: Path) -> None:
    """The same file with a night moved by a day: four nights in force, not five."""
    root = _month(tmp_path)
    text = MONTH.read_text(encoding="utf-8").replace(",2015-03-05,", ",2015-03-06,")
    code, out = lc.drop(root, NAME, text.encode("utf-8"))
    assert code == 0, out
    assert _nights(root) == ["2015-03-06", "2015-03-12", "2015-03-19", "2015-03-26"]
    with open_warehouse(root / lc.WAREHOUSE) as wh:
        dudek = wh.con.execute(
            "SELECT e.event_date::VARCHAR, count(*) FROM active_events e "
            "JOIN unit_members m USING (event_id) WHERE m.name_as_written = 'Ryszard Dudek' "
            "GROUP BY 1 ORDER BY 1").fetchall()
    assert dudek == [("2015-03-06", 1), ("2015-03-12", 1), ("2015-03-19", 1),
                     ("2015-03-26", 1)]
    _as_fresh(root)


def test_withdrawing_a_middle_version_keeps_the_latest(tmp_path: Path) -> None:
    """v1 -> v2 -> v3 (each under another name, each a score fixed); v2 withdrawn: v3 stays."""
    root = _month(tmp_path)
    v2 = _rescored(MONTH.read_text(encoding="utf-8"), "2015-03-05", "58.71", "57.71")
    v3 = _rescored(v2, "2015-03-12", "59.63", "58.63")
    for name, text in (("v2.csv", v2), ("v3.csv", v3)):
        code, out = lc.drop(root, name, text.encode("utf-8"))
        assert code == 0, out
    third = lc.file_id(root, "v3.csv")
    lc.must(root, "files", "withdraw", str(lc.file_id(root, "v2.csv")))
    assert _nights(root) == NIGHTS
    assert _score(root, "2015-03-05", "Ryszard Dudek") == [(57.71, third)]
    assert _score(root, "2015-03-12", "Marek Kamelski") == [(58.63, third)]
    _as_fresh(root)


def test_a_restored_correction_is_in_force_again(tmp_path: Path) -> None:
    """The latest correction withdrawn, then restored: its scores are back, four nights."""
    root = _month(tmp_path)
    v2 = _rescored(MONTH.read_text(encoding="utf-8"), "2015-03-05", "58.71", "57.71")
    code, out = lc.drop(root, NAME, v2.encode("utf-8"))
    assert code == 0, out
    second = lc.file_id(root, NAME)
    lc.must(root, "files", "withdraw", str(second))
    assert [s for s, _ in _score(root, "2015-03-05", "Ryszard Dudek")] == [58.71]
    code, out, err = lc.cli(root, "files", "restore", str(second))
    assert code == 0, err
    assert _nights(root) == NIGHTS
    assert _score(root, "2015-03-05", "Ryszard Dudek") == [(57.71, second)]
    _as_fresh(root)


def test_a_fixed_typo_renames_the_player_once_accepted(tmp_path: Path) -> None:
    """A version whose only change is a name spelt right: the same player, a ``spelling:``
    question; accepted, the lists show the new spelling only."""
    right, typo = "Tadeusz Zieliński", "Tadeusz Zielińki"
    text = MONTH.read_text(encoding="utf-8")
    assert text.count(f",{right},") == 3
    root = _month(tmp_path, text.replace(f",{right},", f",{typo},"))
    before = lc.publish_lists(root)
    assert any(typo.encode() in body for body in before.values())
    player = _player_ids(root, typo)
    assert len(player) == 1
    code, out = lc.drop(root, NAME, MONTH.read_bytes())
    assert code == 0, out
    assert _player_ids(root, right) == player  # the same player, still rated
    keys = [key for key in lc.open_questions(root) if key.startswith("spelling:")]
    assert len(keys) == 1, lc.must(root, "review", "--list")
    lc.must(root, "review", "--resolve", keys[0], "--accept")
    published = _as_fresh(root)
    assert any(right.encode() in body for body in published.values())
    assert not any(typo.encode() in body for body in published.values())


def test_half_a_pair_deleted_is_held(tmp_path: Path) -> None:
    """A re-drop that leaves a pair with one player is held; the version in force keeps both."""
    root = _month(tmp_path)
    original = lc.file_id(root, NAME)
    lines = MONTH.read_text(encoding="utf-8").splitlines(keepends=True)
    gone = [k for k, line in enumerate(lines) if ",2015-03-05," in line and "Ryszard Dudek" in line]
    assert len(gone) == 1
    del lines[gone[0]]
    code, out = lc.drop(root, NAME, "".join(lines).encode("utf-8"))
    assert code == 0, out
    assert lc.file_id(root, NAME) != original  # loaded, as a new version
    assert any(key.startswith(("version:", "correction:")) for key in lc.open_questions(root)), \
        lc.must(root, "review", "--list")
    with open_warehouse(root / lc.WAREHOUSE) as wh:
        pair = wh.con.execute(
            "SELECT e.file_id, m.name_as_written FROM active_events e "
            "JOIN unit_members m USING (event_id) WHERE e.event_date = DATE '2015-03-05' "
            "AND m.unit_no = (SELECT unit_no FROM unit_members WHERE event_id = e.event_id "
            "AND name_as_written = 'Wojciech Niewiadomski') ORDER BY m.seat").fetchall()
    assert pair == [(original, "Wojciech Niewiadomski"), (original, "Ryszard Dudek")]
    assert _nights(root) == NIGHTS
    _as_fresh(root)
