"""A run's helper processes do not outlive it, however it ends.

``clubratings run --prefect`` without a configured server makes Prefect start a temporary
server in a child process; a run killed outright (``kill -9``, the out-of-memory killer) has no
chance to stop it, and the server would stay for good. :func:`watch` starts a small watcher in
a session of its own: while the run lives it notes the run's child processes (and theirs);
when the run is gone it ends those still running (SIGTERM, then SIGKILL) and ends itself.

    python -m flows._reaper PID
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["watch"]

POLL_SECONDS = 0.5
GRACE_SECONDS = 3.0


def watch() -> subprocess.Popen[bytes] | None:
    """Start the watcher of this process (Linux: it reads ``/proc``); None elsewhere."""
    if not Path("/proc/self/stat").exists():
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "flows._reaper", str(os.getpid())],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, close_fds=True,
        cwd=str(Path(__file__).resolve().parents[1]))


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return int(fields[1]), int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """Every process below ``root``: pid -> start time."""
    parents: dict[int, list[tuple[int, int]]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                parents.setdefault(st[0], []).append((int(entry.name), st[1]))
    found: dict[int, int] = {}
    todo = [root]
    while todo:
        for pid, start in parents.get(todo.pop(), []):
            if pid not in found:
                found[pid] = start
                todo.append(pid)
    return found


def _alive(pid: int, start: int) -> bool:
    st = _stat(pid)
    return st is not None and st[1] == start


def main(argv: list[str]) -> int:
    parent = int(argv[1])
    me = os.getpid()
    first = _stat(parent)
    if first is None:
        return 0
    tracked: dict[int, int] = {}
    while _alive(parent, first[1]):
        tracked.update((p, s) for p, s in _descendants(parent).items() if p != me)
        time.sleep(POLL_SECONDS)
    left = {p: s for p, s in tracked.items() if _alive(p, s)}
    for sig, pause in ((signal.SIGTERM, GRACE_SECONDS), (signal.SIGKILL, 0.0)):
        for pid, start in left.items():
            if _alive(pid, start):
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        deadline = time.monotonic() + pause
        while time.monotonic() < deadline and any(_alive(p, s) for p, s in left.items()):
            time.sleep(0.1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
