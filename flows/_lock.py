"""One pipeline run at a time: an exclusive lock next to the warehouse.

DuckDB admits one writing process per file, and the pipeline opens and closes the warehouse
many times during a run (once per file it loads). Two runs at the same time would interleave
their loads and fail at random points, so every run first takes ``<warehouse>.lock``
(``data/clubratings.duckdb.lock``):

- the lock itself is ``fcntl.flock`` on that file: the kernel releases it when the holding
  process ends, however it ends, so a crashed run never blocks the next one;
- the file's body is a small JSON record of the holder (pid, host, command, start time), written
  after the lock is taken and cleared when it is released. It only feeds the message a second
  run prints: a record whose pid no longer runs is reported as such, but the flock decides.

``flock`` locks belong to the open file description, unlike the POSIX ``fcntl`` record locks
DuckDB uses on the warehouse itself (which a process loses when it closes *any* descriptor of
that file): the lock file is never the warehouse file.

    RunLocked(Exception)    another run holds the lock (and ``wait`` ran out)
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

__all__ = ["LockInfo", "RunLocked", "lock_path", "read_lock_info", "run_lock"]

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
"""How often a waiting run tries the lock again."""

READER_GRACE_SECONDS = 60.0
"""How long a run waits, beyond its own ``wait``, for a command that only reads."""

RECORD_GRACE_SECONDS = 1.0
"""How long a refused run waits for the holder's record to appear (it is written just after
the lock is taken) before calling the holder unknown."""


@dataclass(frozen=True, slots=True)
class LockInfo:
    """Who holds (or last held) the run lock: the lock file's JSON body."""

    pid: int
    host: str
    command: str
    started_at: str
    """ISO 8601 time with the UTC offset, to the second."""
    reader: bool = False
    """The holder only reads (``explain``, ``files list``): a writer waits for it a while
    (:data:`READER_GRACE_SECONDS`) instead of stopping."""

    def alive(self) -> bool | None:
        """Whether the recorded process still runs: None when it ran on another host."""
        if self.host != socket.gethostname():
            return None
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # it exists, under another user
            return True
        return True

    def describe(self, *, held: bool = True) -> str:
        """``since <time> (pid N, command '...')``; for a lock still ``held``, noting a pid
        that no longer runs (a process it started, which inherited the lock, holds it)."""
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        gone = ("; that pid no longer runs, a process it started holds the lock"
                if held and self.alive() is False else "")
        return f"since {self.started_at} (pid {self.pid}{where}, command {self.command!r}{gone})"


class RunLocked(Exception):
    """Another run holds the lock: the one-line message says since when, which pid and command."""

    def __init__(self, path: Path, holder: LockInfo | None) -> None:
        self.path = path
        self.holder = holder
        who = holder.describe() if holder else f"(holder unknown, lock file {str(path)!r})"
        super().__init__(f"another run is in progress {who}; "
                         "try again later or pass --wait SECONDS")


def lock_path(warehouse_path: Path | str) -> Path:
    """``data/clubratings.duckdb`` -> ``data/clubratings.duckdb.lock``."""
    path = Path(warehouse_path)
    return path.with_name(path.name + ".lock")


def _parse_info(text: str) -> LockInfo | None:
    try:
        data = json.loads(text)
        return LockInfo(pid=int(data["pid"]), host=str(data["host"]),
                        command=str(data["command"]), started_at=str(data["started_at"]),
                        reader=bool(data.get("reader", False)))
    except (ValueError, KeyError, TypeError):  # empty (released) or being written
        return None


def _read_fd(fd: int) -> LockInfo | None:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    return _parse_info(b"".join(chunks).decode("utf-8", errors="replace"))


def _holder(fd: int) -> LockInfo | None:
    """The holder's record; a run that has just taken the lock writes it a moment later."""
    deadline = time.monotonic() + RECORD_GRACE_SECONDS
    while (info := _read_fd(fd)) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return info


def read_lock_info(warehouse_path: Path | str) -> LockInfo | None:
    """The record in the lock file, if any (a run in progress, or one that crashed)."""
    try:
        text = lock_path(warehouse_path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    return _parse_info(text)


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _write_info(fd: int, info: LockInfo) -> None:
    data = json.dumps(asdict(info), sort_keys=True).encode("utf-8") + b"\n"
    os.pwrite(fd, data, 0)
    os.ftruncate(fd, len(data))  # a record left by a crashed run may have been longer
    os.fsync(fd)


_FDS: set[int] = set()
"""Descriptors of the lock files this process holds (a forked worker closes its copies)."""


def inherited_fds() -> list[int]:
    """The lock descriptors of the process this one was forked from."""
    return sorted(_FDS)


@contextlib.contextmanager
def run_lock(warehouse_path: Path | str, *, command: str,
             wait: float = 0.0, reader: bool = False) -> Iterator[LockInfo]:
    """Hold the run lock of the warehouse at ``warehouse_path`` for the ``with`` block.

    ``wait`` seconds: 0 tries once and raises :class:`RunLocked` if another run holds the
    lock; more polls every 0.2 s until the lock is free or the time is up. (A refusal waits up
    to a second for the holder's record when the holder has only just taken the lock.) Yields
    the record written into the lock file. ``reader``: this hold only reads; a run that meets it
    waits up to :data:`READER_GRACE_SECONDS` longer than its own ``wait`` (a reader is brief).

    A run takes the lock once: a second hold in the same process is refused like any other
    run (flock belongs to the open file, not the process). Whoever needs the lock inside a run
    joins the run instead: the run core (flows/core.py) joins a project this process has open,
    and each command of the command line opens one, once (cli/_common.py ``locked``).
    """
    path = lock_path(warehouse_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # O_RDWR without O_TRUNC: the holder's record must survive a second run opening the file
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + max(wait, 0.0)
        graced = False
        while not _try_flock(fd):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                holder = _holder(fd)
                if graced or holder is None or not holder.reader:
                    raise RunLocked(path, holder)
                graced = True
                deadline = time.monotonic() + READER_GRACE_SECONDS
                remaining = READER_GRACE_SECONDS
            time.sleep(min(POLL_SECONDS, remaining))
        left_over = _read_fd(fd)
        if left_over is not None:  # the flock was free, so its holder ended without releasing
            log.warning("run lock %s: the run %s ended without releasing it", path,
                        left_over.describe(held=False))
        info = LockInfo(
            pid=os.getpid(), host=socket.gethostname(), command=command,
            started_at=datetime.now().astimezone().isoformat(timespec="seconds"), reader=reader,
        )
        _write_info(fd, info)
        _FDS.add(fd)
        try:
            yield info
        finally:
            _FDS.discard(fd)
            os.ftruncate(fd, 0)  # cleared before the flock goes: nobody reads a stale record
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
