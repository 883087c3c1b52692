"""A source folder of files loaded before costs a ``stat`` each, not a reading (flows/_hashes.py),
and a file changed in place is still read again, whatever its size and modification time say."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import flows._hashes as hashes
from flows import load_config
from flows.core import Project

from ._csvs import club_event, csv_file

CONFIG = """
[paths]
sources = ["archive/*.csv"]

[[pools]]
name = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""


def _event(month: int, places: list[str] | None = None) -> bytes:
    return csv_file(club_event(f"2014-0{month}-07", f"Club pairs {month}", places=places))


def _project(tmp_path: Path) -> Path:
    (tmp_path / "archive").mkdir()
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    for month in range(1, 4):
        (tmp_path / "archive" / f"club_2014-0{month}.csv").write_bytes(
            _event(month))
    return tmp_path


def _ingest(root: Path) -> dict[str, str]:
    cfg = load_config(root / "clubratings.toml")
    with Project.open(cfg, command="ingest") as project:
        return {Path(o.path).name: o.status for o in project.load()[0]}


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The source files read from now on (their bytes, by any code)."""
    read: list[str] = []
    real = Path.read_bytes

    def counting(self: Path) -> bytes:
        if self.suffix == ".csv" and self.parent.name == "archive":
            read.append(self.name)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    return read


def test_files_loaded_before_are_not_read_again(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hashes, "SETTLE_NS", 0)  # no waiting for the clock in a test
    root = _project(tmp_path)
    assert set(_ingest(root).values()) == {"loaded"}
    assert (root / "data" / "source-hashes.json").is_file()
    read = _reads(monkeypatch)
    assert set(_ingest(root).values()) == {"duplicate"}
    assert read == []
    # a new file beside them is the only one read (to hash it, to parse it, to load it)
    (root / "archive" / "club_2014-04.csv").write_bytes(_event(4))
    outcome = _ingest(root)
    assert outcome["club_2014-04.csv"] == "loaded"
    assert set(read) == {"club_2014-04.csv"}


def test_a_file_rewritten_in_place_with_its_old_size_and_time_is_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The status-change time moves with every write and no program can set it back: a
    correction written over the old file, same length, modification time restored, is seen."""
    monkeypatch.setattr(hashes, "SETTLE_NS", 0)
    root = _project(tmp_path)
    _ingest(root)
    path = root / "archive" / "club_2014-02.csv"
    old = path.read_bytes()
    st = path.stat()
    corrected = _event(2, places=["2", "1", "3", "4"])  # the same length, other places
    assert corrected != old and len(corrected) == len(old)
    time.sleep(0.05)  # past the file system's clock tick
    path.write_bytes(corrected)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    read = _reads(monkeypatch)
    outcome = _ingest(root)
    assert outcome["club_2014-02.csv"] != "duplicate"
    assert "club_2014-02.csv" in read


def test_a_file_read_in_the_tick_it_was_written_is_not_remembered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path)  # files written just now: within SETTLE_NS of their reading
    _ingest(root)
    read = _reads(monkeypatch)
    _ingest(root)
    assert sorted(read) == [f"club_2014-0{m}.csv" for m in range(1, 4)]


@pytest.mark.parametrize("record", [b"", b"{", b"[]", b'{"version": 1, "files": []}',
                                    b'{"version": 1, "files": {"x": 3}}',
                                    b'{"version": 99, "files": {}}', b"\xff\xfe"])
def test_a_damaged_record_means_every_file_is_read(tmp_path: Path, record: bytes,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hashes, "SETTLE_NS", 0)
    root = _project(tmp_path)
    _ingest(root)
    (root / "data" / "source-hashes.json").write_bytes(record)
    read = _reads(monkeypatch)
    assert set(_ingest(root).values()) == {"duplicate"}
    assert sorted(read) == [f"club_2014-0{m}.csv" for m in range(1, 4)]  # each read to hash it
    read.clear()
    assert set(_ingest(root).values()) == {"duplicate"}
    assert read == []  # written anew
