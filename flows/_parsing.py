"""Reading files where a time limit can stop them: worker processes with a deadline per file.

A reader cannot interrupt itself (a regular expression or an XML library deep in C does not
look at the clock), so the files a run takes in are read in worker processes: each file has
``[limits] seconds`` (docs/rules/inputs.md); when they are up, the worker is stopped, a fresh
one takes its place, and that one file is refused for taking too long while the run goes on.
A worker also has a bounded address space (``[limits] memory_mb``), so a file that unpacks to
gigabytes fails with a memory error in the worker instead of starving the machine. A worker
that dies outright (killed, crashed) refuses its file likewise.

A pool is started for the files of one ingest and stopped after them. Workers are forked from
this process: they start at once and need nothing re-imported; each closes its copy of the run
lock's descriptor, so a worker never keeps the lock for the next run.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from parsers import MalformedFile, ParseError, ParseResult
from parsers._limits import LimitExceeded, Limits, check_size, using

__all__ = ["parse_files", "shutdown"]

Outcome = ParseResult | ParseError
"""A file read (its result) or refused (why)."""



def _start_worker(memory_mb: int) -> None:
    """Each worker: no hold on the run lock, the parent decides on interrupts, and
    ``memory_mb`` more address space than it was forked with."""
    import resource
    import signal

    from ._lock import inherited_fds

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when a run stops
    for fd in inherited_fds():
        # closing this process's copy keeps the parent's lock; a worker outliving a killed
        # parent must not keep the next run out
        with contextlib.suppress(OSError):
            os.close(fd)
    try:
        limit = _address_space() + (memory_mb << 20)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):  # a platform without the limit: time still bounds the work
        pass


def _address_space() -> int:
    """This process's address space now, in bytes (what it was forked with)."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) << 10
    raise OSError("no VmSize in /proc/self/status")


def _read(path: str, limits: Limits) -> Outcome:
    """In a worker: read and parse one file under ``limits``; its refusal is returned, not
    raised, so it crosses back with all its parts."""
    from parsers import parse_bytes

    with using(limits):
        try:
            check_size(Path(path).stat().st_size)  # never read a file far too large
            data = Path(path).read_bytes()
            return parse_bytes(data, source=path)
        except ParseError as exc:
            return _bare(exc)
        except MemoryError:
            return _bare(MalformedFile("reading this file needs more memory than [limits] "
                                       f"memory_mb = {limits.memory_mb} allows; not read",
                                       file=_name(path)))
        except OSError as exc:
            return _bare(MalformedFile(f"the file could not be read ({exc.strerror or exc})",
                                       file=_name(path)))


def _bare(exc: ParseError) -> ParseError:
    """The refusal without the exceptions it was raised from and its traceback: what crosses
    back is its message and parts. (A process that imported ``distributed`` pickles exceptions
    with their whole chain, and a chain that loops back on itself never ends.)"""
    exc.__cause__ = exc.__context__ = None
    exc.__suppress_context__ = True
    exc.__traceback__ = None
    return exc


def _name(path: str) -> str:
    return os.path.basename(path)


def _pool(workers: int, memory_mb: int) -> object:
    """A pool of ``workers`` forked from this process: a worker needs nothing of the main
    module (a spawned or forkserver worker would import it again, which breaks under some
    launchers) and starts at once."""
    import pebble

    return pebble.ProcessPool(max_workers=workers, initializer=_start_worker,
                              initargs=(memory_mb,), context=multiprocessing.get_context("fork"))


def shutdown() -> None:
    """Nothing to stop: every pool ends with the files it was started for (kept for callers)."""


AHEAD = 16
"""Files handed to each worker ahead of the one being loaded."""


def parse_files(paths: Sequence[Path], limits: Limits, *,
                workers: int | None = None) -> Iterator[Outcome]:
    """Each file of ``paths`` read in a worker process, in order: its :class:`ParseResult`, or
    the :class:`ParseError` that refuses it (too slow, too large, unreadable, not a result
    list). At most :data:`AHEAD` files per worker are handed out ahead of the one taken, and
    a result is let go once taken: what waits in memory follows the workers, not the number
    of files (a federation's 25,000-file archive in one run held every parsed file to the
    end, 2 GB of them)."""
    if not paths:
        return
    count = workers or max(1, min(os.cpu_count() or 1, len(paths)))
    pool = _pool(max(count, 1), limits.memory_mb)
    try:
        waiting: collections.deque[tuple[Path, object]] = collections.deque()
        following = iter(paths)

        def hand_out() -> None:
            while len(waiting) < AHEAD * count:
                path = next(following, None)
                if path is None:
                    return
                waiting.append((path, pool.schedule(  # type: ignore[attr-defined]
                    _read, args=(str(path), limits), timeout=limits.seconds)))

        hand_out()
        while waiting:
            path, future = waiting.popleft()
            outcome = _outcome(path, future, limits)
            del future
            hand_out()  # the workers go on while this one is loaded
            yield outcome
    finally:
        # the workers end with the files they were started for: none outlives its run, nor
        # keeps a copy of a descriptor (a pipe, a lock) its parent opened meanwhile
        pool.stop()  # type: ignore[attr-defined]
        pool.join()  # type: ignore[attr-defined]


def _outcome(path: Path, future: object, limits: Limits) -> Outcome:
    import pebble

    try:
        return future.result()  # type: ignore[attr-defined,no-any-return]
    except FutureTimeout:
        return LimitExceeded(
            f"reading this file took longer than [limits] seconds = {limits.seconds:g} allows "
            "(raise it in clubratings.toml if the file is genuine); stopped, not read",
            file=path.name)
    except pebble.ProcessExpired as exc:
        return MalformedFile(
            f"the process reading this file ended abruptly (exit code {exc.exitcode}); the file "
            "is probably built to exhaust the reader; not read", file=path.name)
