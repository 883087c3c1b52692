"""Hostile-input fuzzing: the parsers, then the real ingest, against damaged result files.

    python scripts/fuzz.py --count 10000 --seed 0 [--batch 200] [--workdir DIR]
                           [--ingest-count N] [--timeout 10] [--memory-mb 4096]

The files come from ``scripts/_hostile.py`` (real fixtures damaged in one way each; the kinds
are listed there). Two stages:

1. **parsers**: every file through ``parsers.parse_bytes`` in a worker process with a time
   bound (``--timeout``, 10 s) and an address-space bound (``--memory-mb``); a worker that
   runs over its time is killed and replaced. A *crash* is any exception other than
   ``ParseError`` (or a worker that dies); a *hang* is a file still running at the bound,
   checked again alone so a busy machine does not make one.
2. **ingest**: a project of its own (``clubratings.toml`` with no sources and only a bridge
   pool), the files dropped into ``inbox/`` a batch at a time (``--batch``, 200; names as
   bytes) and ``clubratings ingest`` run on each batch. A *crash* is an exit code other than 0
   or 1 (1: some files were rejected) or a traceback in its output; a run that ends on a
   crash is run again without the file it stopped at. After each batch: files left in the
   inbox (stuck), rejected files without their ``.reason.txt``, and dropped files found
   neither in ``archive/`` nor in ``rejected/`` (lost) are crashes of the ingest too. Then the
   warehouse is read (read-only, the run over) for *implausible loads* among the events in
   force (places, units, members, names, dates, source files, raw copies) and *silent
   removals*: a correction in force, not held for confirmation, that replaced an event by one
   with under 90 % of its units or members, or of another kind or scoring.

Prints the summary (files, crashes, hangs over 10 s, implausible loads, silent removals), a
breakdown by kind of every count that is not zero and the first findings of each; writes every
finding to ``<workdir>/findings.jsonl``. Exits 1 if any of the four counts is not zero.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import traceback
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts._hostile import hostile_files

CLUBRATINGS = Path(sys.executable).parent / "clubratings"
MAX_NAME_CHARS = 100
FIRST_DATE, LAST_DATE = "1900-01-01", "2100-12-31"
KEEP_SHARE = 0.9
"""A correction keeping fewer units or members than this share of the event it replaces
removes data."""
EXIT_OK, EXIT_REJECTED = 0, 1
"""``clubratings ingest`` exit codes (cli/_common.py): all loaded; some files rejected."""


# --- findings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """One violation, with the file it is laid to."""

    category: str
    """``crash``, ``hang``, ``implausible`` or ``removal``."""
    check: str
    """What was violated, e.g. ``parser exception`` or ``place out of range``."""
    kind: str
    name: bytes
    message: str
    detail: str = ""
    """A traceback's last lines, or the rows that show the violation."""

    def line(self) -> str:
        text = f"[{self.kind}] {self.name!r}: {self.check}: {self.message}"
        if self.detail:
            text += "\n    " + "\n    ".join(self.detail.rstrip().splitlines()[-8:])
        return text

    def as_json(self) -> dict[str, str]:
        out = dataclasses.asdict(self)
        out["name"] = repr(self.name)
        return out


@dataclass(slots=True)
class Tally:
    """Everything found so far."""

    files: int = 0
    findings: list[Finding] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)
    """Things worth knowing that are no violation (files the inbox could not take, ...)."""
    timeout: float = 10.0
    """Seconds one file may take to parse (``--timeout``): a file over it is a hang."""
    slowest: list[tuple[float, str, str]] = field(default_factory=list)
    """The files that took longest to parse: (seconds, kind, name), the longest first."""

    def timed(self, seconds: float, kind: str, name: str) -> None:
        self.slowest.append((seconds, kind, name))
        self.slowest.sort(reverse=True)
        del self.slowest[5:]

    def add(self, finding: Finding) -> None:
        self.findings.append(finding)

    def of(self, category: str) -> list[Finding]:
        return [f for f in self.findings if f.category == category]

    @property
    def failed(self) -> bool:
        return bool(self.findings)

    def summary(self, *, examples: int = 3) -> str:
        lines = [
            f"files: {self.files}",
            f"crashes: {len(self.of('crash'))}",
            f"hangs over {self.timeout:g} s: {len(self.of('hang'))}",
            f"implausible loads: {len(self.of('implausible'))}",
            f"silent removals: {len(self.of('removal'))}",
        ]
        for category, title in (("crash", "crashes"), ("hang", "hangs"),
                                ("implausible", "implausible loads"),
                                ("removal", "silent removals")):
            found = self.of(category)
            if not found:
                continue
            lines.append(f"\n{title} by kind:")
            by_kind = Counter(f.kind for f in found)
            for kind, n in by_kind.most_common():
                checks = Counter(f.check for f in found if f.kind == kind)
                lines.append(f"  {kind}: {n} ({', '.join(f'{c} {k}' for c, k in sorted(checks.items()))})")
            lines.append(f"first {title} of each check:")
            for check in sorted({f.check for f in found}):
                for f in [f for f in found if f.check == check][:examples]:
                    lines.append("  " + f.line().replace("\n", "\n  "))
        if self.slowest:
            lines.append("\nslowest parses: " + "; ".join(
                f"{sec:.1f} s {kind} {name}" for sec, kind, name in self.slowest))
        if self.notes:
            lines.append("\nnotes: " + ", ".join(f"{k}: {n}" for k, n in sorted(self.notes.items())))
        return "\n".join(lines)


# --- stage 1: the parsers in worker processes -----------------------------------------------


def _limit_memory(memory_mb: int) -> None:
    if memory_mb > 0:
        size = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (size, size))


def _parse_worker(conn: multiprocessing.connection.Connection, memory_mb: int) -> None:
    """Parse each (name, bytes) received; answer ("ok", format, events), ("refused", message)
    or ("crash", exception type, message, traceback)."""
    _limit_memory(memory_mb)
    from parsers import ParseError, parse_bytes

    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        name, data = job
        try:
            result = parse_bytes(data, source=os.fsdecode(name))
            answer: tuple[Any, ...] = ("ok", result.format, len(result.events))
        except ParseError as exc:
            answer = ("refused", str(exc)[:300])
        except BaseException as exc:  # noqa: BLE001 - exactly what is looked for
            answer = ("crash", type(exc).__name__, str(exc)[:300], traceback.format_exc()[-4000:])
        conn.send(answer)


class _Worker:
    def __init__(self, memory_mb: int) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_parse_worker, args=(child, memory_mb), daemon=True)
        self.process.start()
        child.close()
        self.job: tuple[int, float] | None = None
        """(index of the file, time it was sent) while busy."""

    def kill(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.kill()


class ParsePool:
    """Worker processes that parse files, each killed and replaced when it runs over time."""

    def __init__(self, workers: int, timeout: float, memory_mb: int) -> None:
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.workers = [_Worker(memory_mb) for _ in range(max(1, workers))]

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, jobs: Sequence[tuple[bytes, bytes]]) -> Iterator[tuple[int, tuple[Any, ...],
                                                                          float]]:
        """(index, answer, seconds) for each (name, data) of ``jobs``, in the order done; a
        file over time answers ("hang",), a worker that died ("died", exit code)."""
        todo = iter(range(len(jobs)))
        left = len(jobs)
        while left:
            for k, worker in enumerate(self.workers):
                if worker.job is None:
                    index = next(todo, None)
                    if index is None:
                        continue
                    try:
                        worker.conn.send(jobs[index])
                    except OSError:  # died between files
                        worker.kill()
                        worker = self.workers[k] = _Worker(self.memory_mb)
                        worker.conn.send(jobs[index])
                    worker.job = (index, time.monotonic())
            busy = [w for w in self.workers if w.job is not None]
            now = time.monotonic()
            wait = max(0.0, min(w.job[1] + self.timeout - now for w in busy if w.job))
            ready = multiprocessing.connection.wait([w.conn for w in busy], timeout=wait)
            now = time.monotonic()
            for k, worker in enumerate(self.workers):
                if worker.job is None:
                    continue
                index, started = worker.job
                answer: tuple[Any, ...] | None = None
                if worker.conn in ready:
                    try:
                        answer = worker.conn.recv()
                    except (EOFError, OSError):
                        worker.process.join(timeout=5)
                        answer = ("died", worker.process.exitcode)
                        worker.kill()
                        self.workers[k] = _Worker(self.memory_mb)
                elif now - started >= self.timeout:
                    answer = ("hang",)
                    worker.kill()
                    self.workers[k] = _Worker(self.memory_mb)
                if answer is not None:
                    self.workers[k].job = None
                    left -= 1
                    yield index, answer, now - started


def check_parsers(files: Sequence[tuple[bytes, bytes, str]], tally: Tally, *,
                  timeout: float = 10.0, workers: int | None = None, memory_mb: int = 4096,
                  show: int = 5) -> None:
    """Stage 1 over ``files``: crashes and hangs into ``tally``; the first ``show`` crashes
    printed as they come."""
    jobs = [(name, data) for name, data, _ in files]
    hung: list[int] = []
    with ParsePool(workers or os.cpu_count() or 1, timeout, memory_mb) as pool:
        for index, answer, seconds in pool.run(jobs):
            name, _, kind = files[index]
            tally.timed(seconds, kind, name.decode("utf-8", "replace")
                        if isinstance(name, bytes) else str(name))
            if answer[0] == "hang":
                hung.append(index)
            elif answer[0] in ("crash", "died"):
                if answer[0] == "crash":
                    finding = Finding("crash", "parser exception", kind, name,
                                      f"{answer[1]}: {answer[2]}", answer[3])
                else:
                    finding = Finding("crash", "parser process died", kind, name,
                                      f"exit code {answer[1]}")
                tally.add(finding)
                if len(tally.of("crash")) <= show:
                    print("stage 1 crash: " + finding.line(), flush=True)
    if hung:  # again, on fresh workers with nothing else to do: a hang is the file's
        with ParsePool(workers or os.cpu_count() or 1, timeout, memory_mb) as pool:
            for index, answer, seconds in pool.run([jobs[i] for i in hung]):
                name, _, kind = files[hung[index]]
                if answer[0] == "hang":
                    tally.add(Finding("hang", "parser over time", kind, name,
                                      f"still parsing after {timeout:g} s (twice)"))
                else:
                    tally.notes["parser over time under load only"] += 1


# --- stage 2: the real ingest ---------------------------------------------------------------


def _config_text() -> str:
    """The project's configuration, with no sources and only its bridge pool."""
    main = tomllib.loads((ROOT / "clubratings.toml").read_text(encoding="utf-8"))
    identity = main.get("identity", {})
    bridge = next(p for p in main.get("pools", []) if p.get("name") == "bridge")
    options = ", ".join(f'{k} = "{v}"' for k, v in bridge.get("options", {}).items())
    lists = ", ".join(f"{k} = {v}" for k, v in bridge.get("list", {}).items())
    lines = [
        "# scripts/fuzz.py: the project's configuration without sources, registers or the",
        "# decisions file, and only the bridge pool.",
        "[paths]",
        'warehouse = "data/clubratings.duckdb"',
        'inbox = "inbox"',
        'public = "public"',
        "sources = []",
        "",
        "[identity]",
        *(f"{k} = {identity[k]}" for k in ("fuzzy_accept", "fuzzy_review", "fuzzy_margin")
          if k in identity),
        "",
        "[[pools]]",
        'name = "bridge"',
        f'game = "{bridge.get("game", "bridge")}"',
        f'scheme = "{bridge.get("scheme", "belo2")}"',
        f"options = {{ {options} }}",
        f"list = {{ {lists} }}",
        "",
    ]
    return "\n".join(lines)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class _Dropped:
    name: bytes
    sha: str
    kind: str


class IngestHarness:
    """A project of its own, fed batch by batch through ``clubratings ingest``."""

    def __init__(self, workdir: Path, tally: Tally, *, timeout_per_file: float = 3.0,
                 memory_mb: int = 12_288, max_reruns: int = 10) -> None:
        self.project = workdir / "project"
        self.quarantine = workdir / "quarantine"
        self.tally = tally
        self.timeout_per_file = timeout_per_file
        self.memory_mb = memory_mb
        self.max_reruns = max_reruns
        self.project.mkdir(parents=True, exist_ok=True)
        self.quarantine.mkdir(parents=True, exist_ok=True)
        self.config = self.project / "clubratings.toml"
        self.config.write_text(_config_text(), encoding="utf-8")
        self.inbox = self.project / "inbox"
        self.inbox.mkdir(exist_ok=True)
        self.warehouse = self.project / "data" / "clubratings.duckdb"
        self.expected: set[tuple[bytes, str]] = set()
        """(name, sha) of every file dropped that should be in archive/ or rejected/."""
        self.by_sha: dict[str, _Dropped] = {}
        self.by_name: dict[bytes, _Dropped] = {}
        self.seen: set[tuple[str, str]] = set()
        """(check, key) of every violation reported already (the warehouse keeps them)."""
        self.held_back: list[tuple[bytes, bytes, str]] = []
        self._hashes: dict[tuple[str, int, int], str] = {}
        self._clock = time.time_ns() - 10**15

    # -- dropping -----------------------------------------------------------------------------

    def drop(self, files: Iterable[tuple[bytes, bytes, str]]) -> int:
        """Write ``files`` (and any held back before) into the inbox, oldest first by mtime;
        a name already in the inbox waits for the next batch. Returns the number written."""
        queue, self.held_back = [*self.held_back, *files], []
        written = 0
        names: set[bytes] = set()
        for name, data, kind in queue:
            target = self.inbox / os.fsdecode(name)
            if name in names or os.path.lexists(target) and not target.is_dir():
                self.held_back.append((name, data, kind))
                continue
            try:
                target.write_bytes(data)
            except OSError as exc:  # e.g. a file named "archive" where the folder is
                self.tally.notes[f"not droppable ({type(exc).__name__})"] += 1
                continue
            self._clock += 1_000_000
            os.utime(target, ns=(self._clock, self._clock))
            names.add(name)
            dropped = _Dropped(name, _sha(data), kind)
            self.by_sha[dropped.sha] = dropped
            self.by_name[name] = dropped
            self.expected.add((name, dropped.sha))
            written += 1
        return written

    # -- running ------------------------------------------------------------------------------

    def _inbox_files(self) -> list[Path]:
        """What is left in the inbox besides archive/ and rejected/, in the inbox's order."""
        left = [p for p in self.inbox.iterdir() if p.name not in ("archive", "rejected")
                or not p.is_dir()]
        return sorted(left, key=lambda p: (p.lstat().st_mtime_ns, p.name))

    def _run(self, files: int) -> tuple[int | None, str]:
        """``clubratings ingest`` once: (exit code or None on timeout, its output)."""
        argv = [str(CLUBRATINGS) if CLUBRATINGS.is_file() else sys.executable]
        if not CLUBRATINGS.is_file():
            argv += ["-m", "cli"]
        argv += ["ingest", "--config", str(self.config)]
        memory = self.memory_mb
        # a session of its own: on timeout the whole group goes, the parsing workers too
        process = subprocess.Popen(
            argv, cwd=self.project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if memory:
            resource.prlimit(process.pid, resource.RLIMIT_AS, (memory << 20, memory << 20))
        try:
            out, _ = process.communicate(timeout=60 + self.timeout_per_file * files)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, _ = process.communicate()
            return None, out.decode("utf-8", "replace")
        return process.returncode, out.decode("utf-8", "replace")

    def _suspect(self, path: Path) -> _Dropped:
        name = os.fsencode(path.name)
        return self.by_name.get(name) or _Dropped(name, "", "?")

    def _set_aside(self, path: Path) -> None:
        dropped = self._suspect(path)
        self.expected.discard((dropped.name, dropped.sha))
        target = self.quarantine / f"{len(os.listdir(self.quarantine)):06d}"
        shutil.move(str(path), target)

    def ingest(self, slow: Iterable[bytes] = ()) -> None:
        """Run the ingest until it ends cleanly (or ``max_reruns``), setting aside the file a
        crashed run stopped at; then check the inbox. A run over its time is not run again:
        it is laid to the first of ``slow`` (files the parsers took too long on) still in the
        inbox, else to the first file left, and everything left is set aside."""
        slow = set(slow)
        for _attempt in range(self.max_reruns + 1):
            pending = self._inbox_files()
            code, out = self._run(len(pending))
            crashed = code not in (EXIT_OK, EXIT_REJECTED) or "Traceback" in out
            if not crashed:
                break
            left = self._inbox_files()
            suspect = left[0] if left else None
            dropped = self._suspect(suspect) if suspect else _Dropped(b"", "", "?")
            tail = "\n".join(out.rstrip().splitlines()[-12:])
            if code is None:
                named = [self._suspect(p) for p in left if os.fsencode(p.name) in slow]
                dropped = named[0] if named else dropped
                self.tally.add(Finding("hang", "ingest over time", dropped.kind, dropped.name,
                                       f"clubratings ingest ran over its time with {len(pending)}"
                                       f" file(s) pending, {len(left)} left in the inbox; laid "
                                       "to " + ("a file the parsers ran over time on"
                                                if named else "the first file left"), tail))
                for path in left:
                    self._set_aside(path)
                break
            else:
                self.tally.add(Finding("crash", "ingest crashed", dropped.kind, dropped.name,
                                       f"exit code {code}; the first file left in the inbox "
                                       "is laid to it", tail))
            if suspect is None or len(left) == len(pending) and _attempt == self.max_reruns:
                break
            self._set_aside(suspect)
        else:
            for path in self._inbox_files():
                self._set_aside(path)
        self._check_inbox()

    # -- after each run: the inbox ------------------------------------------------------------

    def _hash(self, path: Path) -> str:
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in self._hashes:
            self._hashes[key] = _sha(path.read_bytes())
        return self._hashes[key]

    def _check_inbox(self) -> None:
        for path in self._inbox_files():
            dropped = self._suspect(path)
            self.tally.add(Finding("crash", "stuck in the inbox", dropped.kind, dropped.name,
                                   "left in the inbox after the run: neither loaded nor "
                                   "rejected"))
            self._set_aside(path)
        rejected = self.inbox / "rejected"
        archive = self.inbox / "archive"
        kept: list[tuple[str, str]] = []
        for folder in (archive, rejected):
            if folder.is_dir():
                for path in folder.iterdir():
                    if folder is rejected and path.name.endswith(".reason.txt"):
                        continue
                    if path.is_file():
                        kept.append((path.name, self._hash(path)))
        if rejected.is_dir():
            for path in rejected.iterdir():
                if path.name.endswith(".reason.txt") or not path.is_file():
                    continue
                reason = rejected / f"{path.name}.reason.txt"
                key = ("missing reason", path.name)
                if not reason.is_file() and key not in self.seen:
                    self.seen.add(key)
                    dropped = self.by_name.get(os.fsencode(path.name)) or _Dropped(
                        os.fsencode(path.name), "", "?")
                    self.tally.add(Finding("crash", "rejected without a reason", dropped.kind,
                                           dropped.name, f"rejected/{path.name!r} has no "
                                           ".reason.txt"))
        present = {sha for _, sha in kept}
        for name, sha in sorted(self.expected):
            # kept under any name (the inbox may rename a file it cannot keep as named): the
            # bytes must be somewhere
            if sha in present:
                continue
            key = ("lost", f"{name!r}:{sha}")
            if key in self.seen:
                continue
            self.seen.add(key)
            dropped = self.by_sha.get(sha) or _Dropped(name, sha, "?")
            self.tally.add(Finding("crash", "file lost", dropped.kind, name,
                                   "dropped into the inbox, now neither in archive/ nor in "
                                   "rejected/ under any name (overwritten by another file?)"))

    # -- after each run: the warehouse --------------------------------------------------------

    def check_warehouse(self) -> None:
        """Implausible loads and silent removals, each reported once."""
        if not self.warehouse.exists():
            return
        import duckdb

        con = duckdb.connect(str(self.warehouse), read_only=True)
        try:
            files = {int(r[0]): (str(r[1]), str(r[2]), str(r[3]))
                     for r in con.execute("SELECT file_id, sha256, name, raw_path "
                                          "FROM source_files").fetchall()}
            tables = {r[0] for r in con.execute(
                "SELECT table_name FROM information_schema.tables").fetchall()}
            for check, key, file_id, message in _implausible(con):
                self._report("implausible", check, key, files.get(file_id), message)
            for check, key, file_id, message in _removals(con, tables):
                self._report("removal", check, key, files.get(file_id), message)
        finally:
            con.close()
        raw_paths = {raw for _, _, raw in files.values()}
        raw_root = self.warehouse.parent / "raw"
        if raw_root.is_dir():
            for path in raw_root.rglob("*"):
                if path.is_file():
                    rel = path.relative_to(self.warehouse.parent).as_posix()
                    if rel not in raw_paths:
                        sha = path.name.split(".")[0]
                        self._report("implausible", "raw copy without a source file", rel,
                                     (sha, "?", rel), f"{rel} is in data/raw/ but no "
                                     "source_files row names it")

    def _report(self, category: str, check: str, key: object,
                file: tuple[str, str, str] | None, message: str) -> None:
        if (check, str(key)) in self.seen:
            return
        self.seen.add((check, str(key)))
        sha, name, _ = file or ("", "?", "")
        dropped = self.by_sha.get(sha) or _Dropped(os.fsencode(name), sha, "?")
        self.tally.add(Finding(category, check, dropped.kind, dropped.name, message))


def _name_bad(text: str) -> str:
    """Why a player's name is implausible ("" if it is not)."""
    if len(text) > MAX_NAME_CHARS:
        return f"{len(text)} characters"
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            return f"control character U+{ord(ch):04X}"
        if ch == "\ufffd":
            return "U+FFFD (a character lost in decoding)"
    return ""


_BAD_NAME_SQL = (r"(length({col}) > {n} OR regexp_matches({col}, '[\x00-\x1f\x7f-\x9f]') "
                 r"OR contains({col}, chr(65533)))")


def _implausible(con: Any) -> Iterator[tuple[str, object, int, str]]:
    """(check, key, file id, message) of each implausible row among the events in force."""
    # the field (events.n_units) counts the units the file ranked, those without names too;
    # only units with players are stored as units
    for event_id, file_id, unit_no, place, units in con.execute(
            "SELECT e.event_id, e.file_id, u.unit_no, u.place, e.n_units "
            "FROM active_events e JOIN units u USING (event_id) "
            "WHERE u.place IS NOT NULL AND (NOT isfinite(u.place) OR u.place < 1 "
            "   OR u.place > e.n_units)"
    ).fetchall():
        yield ("place out of range", (event_id, unit_no), file_id,
               f"event {event_id} unit {unit_no}: place {place!r} (a field of {units} units)")
    for event_id, file_id, units, stored in con.execute(
            "SELECT e.event_id, e.file_id, e.n_units, count(*) FROM active_events e "
            "JOIN units u USING (event_id) GROUP BY ALL HAVING count(*) > e.n_units"
    ).fetchall():
        yield ("more units than the field", event_id, file_id,
               f"event {event_id}: {stored} units stored in a field of {units}")
    for event_id, file_id, units, with_players in con.execute(
            "SELECT e.event_id, e.file_id, e.n_units, count(DISTINCT m.unit_no) "
            "FROM active_events e LEFT JOIN unit_members m USING (event_id) "
            "GROUP BY ALL HAVING count(DISTINCT m.unit_no) < 2").fetchall():
        yield ("event with fewer than two units with players", event_id, file_id,
               f"event {event_id}: {with_players} unit(s) with players of {units}")
    for event_id, file_id, unit_no, label in con.execute(
            "SELECT u.event_id, e.file_id, u.unit_no, u.label FROM units u "
            "JOIN active_events e USING (event_id) WHERE NOT EXISTS (SELECT 1 FROM "
            "unit_members m WHERE m.event_id = u.event_id AND m.unit_no = u.unit_no)"
    ).fetchall():
        yield ("unit without members", (event_id, unit_no), file_id,
               f"event {event_id} unit {unit_no} ({label[:40]!r}) has no member")
    for event_id, file_id, player_id, n, names in con.execute(
            "SELECT m.event_id, e.file_id, m.player_id, count(*), "
            "       string_agg(DISTINCT left(m.name_as_written, 40), ' / ') "
            "FROM unit_members m JOIN active_events e USING (event_id) "
            "GROUP BY ALL HAVING count(*) > 1").fetchall():
        yield ("same player twice in an event", (event_id, player_id), file_id,
               f"event {event_id}: player {player_id} ({names!r}) {n} times")
    sql = _BAD_NAME_SQL.format(col="m.name_as_written", n=MAX_NAME_CHARS)
    for event_id, file_id, unit_no, seat, name in con.execute(
            "SELECT m.event_id, e.file_id, m.unit_no, m.seat, m.name_as_written "
            f"FROM unit_members m JOIN active_events e USING (event_id) WHERE {sql}").fetchall():
        why = _name_bad(name)
        if why:
            yield ("implausible name as written", (event_id, unit_no, seat), file_id,
                   f"event {event_id} unit {unit_no}: {name[:60]!r}: {why}")
    sql = _BAD_NAME_SQL.format(col="p.name", n=MAX_NAME_CHARS)
    for player_id, file_id, name in con.execute(
            "SELECT p.player_id, p.created_by_file, p.name FROM players p "
            "WHERE p.player_id IN (SELECT m.player_id FROM unit_members m "
            f"                     JOIN active_events e USING (event_id)) AND {sql}").fetchall():
        why = _name_bad(name)
        if why:
            yield ("implausible player name", player_id, file_id,
                   f"player {player_id}: {name[:60]!r}: {why}")
    for event_id, file_id, date, end in con.execute(
            "SELECT event_id, file_id, event_date, end_date FROM active_events "
            f"WHERE event_date NOT BETWEEN DATE '{FIRST_DATE}' AND DATE '{LAST_DATE}' "
            f"   OR end_date NOT BETWEEN DATE '{FIRST_DATE}' AND DATE '{LAST_DATE}'").fetchall():
        yield ("date outside 1900-2100", event_id, file_id,
               f"event {event_id} dated {date}" + (f" to {end}" if end else ""))
    for file_id, n_events, events in con.execute(
            "SELECT s.file_id, s.n_events, (SELECT count(*) FROM events e "
            "                               WHERE e.file_id = s.file_id) AS n "
            "FROM source_files s WHERE s.n_events = 0 OR NOT EXISTS "
            "(SELECT 1 FROM events e WHERE e.file_id = s.file_id)").fetchall():
        yield ("source file without events", file_id, file_id,
               f"file {file_id}: n_events {n_events}, {events} event row(s)")


def _removals(con: Any, tables: set[str]) -> Iterator[tuple[str, object, int, str]]:
    """(check, key, file id of the correction, message) of each silent removal."""
    held = ("EXISTS (SELECT 1 FROM file_holds h WHERE h.file_id = r.file_id "
            "AND h.released_at IS NULL)" if "file_holds" in tables else "false")
    withdrawn = ("r.file_id IN (SELECT file_id FROM file_withdrawals WHERE undone_at IS NULL)"
                 if "file_withdrawals" in tables else "false")
    rows = con.execute(
        "SELECT r.event_id, r.replaced_by, r.file_id, o.kind, n.kind, o.scoring, n.scoring, "
        "  (SELECT count(*) FROM units u WHERE u.event_id = o.event_id), "
        "  (SELECT count(*) FROM units u WHERE u.event_id = n.event_id), "
        "  (SELECT count(*) FROM unit_members m WHERE m.event_id = o.event_id), "
        "  (SELECT count(*) FROM unit_members m WHERE m.event_id = n.event_id), "
        f"  {held}, {withdrawn} "
        "FROM event_replacements r JOIN events o ON o.event_id = r.event_id "
        "JOIN events n ON n.event_id = r.replaced_by").fetchall()
    for (old, new, file_id, kind_old, kind_new, scoring_old, scoring_new, units_old, units_new,
         members_old, members_new, is_held, is_withdrawn) in rows:
        if is_held or is_withdrawn:
            continue
        why = []
        if units_new < KEEP_SHARE * units_old:
            why.append(f"units {units_old} -> {units_new}")
        if members_new < KEEP_SHARE * members_old:
            why.append(f"members {members_old} -> {members_new}")
        if kind_new != kind_old:
            why.append(f"kind {kind_old} -> {kind_new}")
        if scoring_new != scoring_old:
            why.append(f"scoring {scoring_old} -> {scoring_new}")
        if why:
            yield ("correction removed data", old, file_id,
                   f"event {old} replaced by event {new} without a hold: {'; '.join(why)}")


# --- the whole run --------------------------------------------------------------------------


def fuzz(count: int, seed: int = 0, *, batch: int = 200, workdir: Path,
         ingest_count: int | None = None, timeout: float = 10.0, memory_mb: int = 4096,
         gap: int | None = None, progress: bool = True) -> Tally:
    """Both stages over ``count`` hostile files (the ingest over the first ``ingest_count``);
    returns what was found."""
    tally = Tally(timeout=timeout)
    ingest_count = count if ingest_count is None else min(count, ingest_count)
    harness = IngestHarness(workdir, tally) if ingest_count else None
    kwargs = {} if gap is None else {"gap": gap}
    files = hostile_files(count, seed, **kwargs)
    done = 0
    started = time.monotonic()
    while done < count:
        chunk = [f for _, f in zip(range(batch), files, strict=False)]
        if not chunk:
            break
        clock = time.monotonic()
        check_parsers(chunk, tally, timeout=timeout, memory_mb=memory_mb)
        seconds = f"parse {time.monotonic() - clock:.0f} s"
        if harness is not None and done < ingest_count:
            clock = time.monotonic()
            harness.drop(chunk[: ingest_count - done])
            harness.ingest(f.name for f in tally.of("hang"))
            harness.check_warehouse()
            seconds += f", ingest {time.monotonic() - clock:.0f} s"
        done += len(chunk)
        tally.files = done
        _write_findings(tally, workdir / "findings.jsonl")
        if progress:
            counts = ", ".join(f"{c} {len(tally.of(c))}"
                               for c in ("crash", "hang", "implausible", "removal"))
            print(f"{done}/{count} files, {time.monotonic() - started:.0f} s ({seconds}): "
                  f"{counts}", flush=True)
    if harness is not None and harness.held_back:  # names that had to wait for a later batch
        harness.drop([])
        harness.ingest()
        harness.check_warehouse()
    return tally


def _write_findings(tally: Tally, path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for finding in tally.findings:
            out.write(json.dumps(finding.as_json(), ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="files to generate (2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=200, help="files per ingest run (200)")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the project and findings here (default: a temporary "
                        "folder, removed at the end)")
    parser.add_argument("--ingest-count", type=int, default=None,
                        help="ingest only the first N files (default: all)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds one file may take to parse (10)")
    parser.add_argument("--memory-mb", type=int, default=4096,
                        help="address space of a parsing worker, MiB (4096; 0: no bound)")
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="clubratings-fuzz-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        tally = fuzz(args.count, args.seed, batch=args.batch, workdir=workdir,
                     ingest_count=args.ingest_count, timeout=args.timeout,
                     memory_mb=args.memory_mb)
        _write_findings(tally, workdir / "findings.jsonl")
        print()
        print(tally.summary())
        if args.workdir:
            print(f"\nfindings: {workdir / 'findings.jsonl'}")
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
