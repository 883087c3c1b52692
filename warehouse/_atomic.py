"""Files written whole or not at all, and the leftovers of a killed writer swept away.

Every file the project writes for others to read (lists, pages, reports, the raw copies, the
snapshot, the decisions file, reasons for rejected files) is written to a temporary file in the
same folder and renamed over the target (``os.replace``, atomic on POSIX): a reader, or a run
killed at any moment, sees the old file or the new one, never half of one. A killed writer can
leave its temporary file behind; they all carry :data:`TEMP_PREFIX`, and :func:`sweep` removes
them at the start of the next run (under the run lock, so no writer of ours is at work).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["TEMP_PREFIX", "atomic_write", "sweep", "temp_path", "utc_now"]

TEMP_PREFIX = ".clubratings-tmp-"
"""How every temporary file of the project begins."""


def temp_path(path: Path) -> Path:
    """The temporary name ``path`` is written under before it is renamed into place."""
    return path.with_name(f"{TEMP_PREFIX}{os.getpid()}-{path.name}"[:250])


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(path)
    try:
        tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def sweep(folders: Iterable[Path], *, below: Iterable[Path] = ()) -> int:
    """Remove the temporary files a killed writer left in ``folders`` and anywhere under the
    folders ``below``; returns how many. Call only while holding the run lock."""
    removed = 0
    found: list[str] = []
    for folder in folders:
        with contextlib.suppress(OSError):
            found += [e.path for e in os.scandir(folder) if e.name.startswith(TEMP_PREFIX)]
    for folder in below:
        for dirpath, _dirs, names in os.walk(folder):
            found += [os.path.join(dirpath, n) for n in names if n.startswith(TEMP_PREFIX)]
    for path in found:
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed += 1
    return removed


def utc_now() -> dt.datetime:
    """Now, in UTC without a zone, to the second: the time every record of a run carries (a
    rating run's creation, the import report's date). ``SOURCE_DATE_EPOCH`` (seconds since
    1970, the reproducible-builds convention) pins it, so a recorded run gives the same bytes
    on any day."""
    pinned = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if pinned.isdigit():
        return dt.datetime.fromtimestamp(int(pinned), dt.UTC).replace(tzinfo=None)
    return dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
