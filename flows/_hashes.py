"""The hashes of the files in read-only source folders, remembered by each file's status, so
that a run over a folder of thousands of files loaded before reads only the new and the changed.

A federation keeps its archive in a source folder (``[paths] sources``) that every run looks
through: 25,000 files after 15 years. Whether a file was loaded before is decided by the
SHA-256 of its bytes (``loaded_hashes``); reading and hashing every file again each night
costs about half a millisecond a file even from the page cache, and far more from a disk.
This keeps, per path, the hash last read together with what ``stat`` said of the file then:
device, inode, size, modification and status-change times in nanoseconds. A file whose status
is the same is taken to hold the same bytes, as ``git status`` does; any write changes the
status-change time (which no program can set back), a file replaced by another changes the
inode. A file whose status changed less than :data:`SETTLE_NS` before it was read is not
remembered (a write in the same clock tick as the reading would leave its status unchanged),
so it is read again next time.

The record is ``data/source-hashes.json`` beside the warehouse: written whole (temporary file
and rename) at the end of a run's look through the folders, with only the paths seen in it. It
holds no data: lost, damaged or from another machine, every file is read again and it is
written anew. Inbox files are never looked up here (they are moved once loaded).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

from warehouse import atomic_write, file_sha256

__all__ = ["SETTLE_NS", "SourceHashes"]

SETTLE_NS = 2_000_000_000
"""A file changed less than this before it was read is read again next run (2 s: coarser than
any file system's clock tick)."""

_NAME = "source-hashes.json"
_VERSION = 1


def _status(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


class SourceHashes:
    """The hashes of one project's source files by their status (see the module)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / _NAME
        self._old: dict[str, list[object]] = {}
        self._new: dict[str, list[object]] = {}
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") == _VERSION and isinstance(data.get("files"), dict):
                self._old = data["files"]

    def sha256(self, path: Path, st: os.stat_result) -> str:
        """The SHA-256 of the bytes at ``path``, whose ``stat`` is ``st``: as remembered when
        the status is unchanged, else read now. OSError when it cannot be read."""
        key = str(path)
        status = _status(st)
        entry = self._old.get(key)
        if isinstance(entry, list) and len(entry) == 6 and entry[:5] == status \
                and isinstance(entry[5], str):
            self._new[key] = entry
            return entry[5]
        sha = file_sha256(path.read_bytes())
        if time.time_ns() - st.st_ctime_ns >= SETTLE_NS:
            self._new[key] = [*status, sha]
        return sha

    def save(self) -> None:
        """Write what this run saw (paths not seen are forgotten); nothing when unchanged."""
        if self._new == self._old:
            return
        with contextlib.suppress(OSError):
            atomic_write(self.path, json.dumps({"version": _VERSION, "files": self._new},
                                               separators=(",", ":")))
