"""Kill test: a pipeline command killed with SIGKILL at a random moment must leave the project
consistent, and running the command again must finish the job as if nothing had happened.

    python scripts/killtest.py --runs 100 --seed 0 [--workdir DIR] [--jobs 2]
    python scripts/killtest.py --runs 10 --command run --state empty --after '^67/67' --within 4

A small project is set up once: ``clubratings.toml`` of the repository with the fixtures it
names copied beside it (so its relative paths hold), and an inbox of a few dozen result files
(other fixtures, three of them renamed copies of the sources) and five unreadable ones. Its
three states, empty, after ``ingest`` and after ``recompute``, are kept as templates. The
uninterrupted references are made once: ``ingest``, ``recompute``, ``publish`` one after the
other, and ``run`` from each state; each command is timed uninterrupted from each state it is
started from (T). With ``--jobs 2`` (the default) the references are made twice at the same time,
which times the commands under the load the trials run them in, and checks that two
uninterrupted runs agree.

Each trial copies a template, starts ``clubratings COMMAND --config ...`` in a process group of
its own, kills the whole group with SIGKILL after a delay drawn uniformly from [0, T] (or, with
``--after``, a moment after the command printed a given line), runs the same command again to
completion, then the steps that follow it (``recompute`` and ``publish`` after ``ingest``,
``publish`` after ``recompute``; in one process through ``cli.main``, the executable's own
entry point), and compares the project with the uninterrupted reference. Counted, per trial:

- lost events: an event in force in the reference is not in force after the resumed run (an
  event is known by its file's bytes, title, section, date, kind, scoring, and its units with
  their places, scores and members as written), fewer loaded files, or an inbox file that is
  neither where the reference put it (``archive/``, ``rejected/``) nor still in the inbox;
- duplicated events: an event in force more than once or that the reference has not, one
  file's bytes loaded twice, more events from some bytes than in the reference;
- truncated outputs: a file under ``public/`` missing, empty, extra or other than in the
  reference, byte for byte (the import reports: see :func:`_public_sha`), a temporary file left
  anywhere in the project (:func:`is_temporary`), a snapshot file missing or empty or a snapshot
  manifest whose row counts differ, a line of ``data/logs/runs.jsonl`` that is not JSON;
- stuck locks: the run lock still held after the kill, or the command run again stopped by it
  (exit 3);
- rejected without reason: a file in ``inbox/rejected/`` without its ``.reason.txt``;
- orphaned processes: a process of the killed command alive after the kill: in its process
  group, carrying the trial's marker in its environment (:data:`MARKER`; whatever it was started
  as, a Prefect server or uvicorn too), or naming the trial's project folder. Other people's
  Prefect and uvicorn processes on the machine are not counted;
- files left in the inbox after the resumed run, and commands that could not be run again to the
  end (exit other than 0, or 1 for rejected files): counted too, printed only when not zero.

The summary gives the counts (trials with such a finding) and, for each count that is not zero,
the trials and what was found; the exit code is then 1. With ``--workdir`` the folder of every
trial with findings is kept under ``DIR/failed/trial-N/``: the project as the resumed run left
it, ``killed.out`` (what the killed command printed) and ``resumed.out``.

The library may be edited while the test runs: the references are made once it has been quiet
for a while, and a trial with findings that ran on other code than its references is run again
on new references.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"

COMMANDS = ("ingest", "recompute", "publish", "run")
STATES = ("empty", "ingested", "recomputed")
STEPS = ("ingest", "recompute", "publish")
"""The separate steps in order; ``run`` does all three (and the import report) in one."""

VALID_STATES: dict[str, tuple[str, ...]] = {
    "ingest": STATES,                      # from an ingested state: a re-ingest that loads nothing
    "recompute": ("ingested", "recomputed"),
    "publish": ("recomputed",),
    "run": STATES,
}
"""The states a command is started from: its earlier steps done (or more)."""

CATEGORIES = ("lost events", "duplicated events", "truncated outputs", "stuck locks",
              "rejected without reason", "orphaned processes")
EXTRA_CATEGORIES = ("files left in inbox", "failed resumptions")
"""Counted like the others, printed only when not zero."""

CODE_DIRS = ("parsers", "flows", "warehouse", "publishing", "ratings")
"""The library whose changes make the references stale."""

MARKER = "CLUBRATINGS_KILLTEST_TRIAL"
"""Environment variable carrying the trial's token: inherited by every process the command
starts, so an orphan is recognised by it whatever its command line."""

# ------------------------------------------------------------------------------ the project

INBOX: tuple[tuple[str, str], ...] = (
    # (fixture, name in the inbox); dropped in this order (their mtimes follow it)
    ("jfr_pary/imp-scoring.html", "jfr-imp-scoring.html"),
    ("jfr_pary/mitchell-ns-ew-one-table.html", "jfr-mitchell.html"),
    ("jfr_pary/two-sectors.html", "jfr-two-sectors.html"),
    ("jfr_pary/ties-empty-place.html", "jfr-ties.html"),
    ("real/jfr_pary/jfr-pary-4-1-mp-barometr-cezar-ids.html", "jfr-barometr.html"),
    ("real/kops/kops-imp-wynik-column-negative-scores.html", "kops-imp.html"),
    ("real/kops/kops-mp-percent-iso-8859-2.html", "kops-mp.html"),
    ("kops/tie-range-no-charset.html", "kops-ties.html"),
    ("real/bbo/bbo-tview-club-handles-with-digits.html", "bbo-club.html"),
    ("real/bbo/bbo-tview-imp-pairs-negative-scores.html", "bbo-imp.html"),
    ("real/bbo/bbo-tview-one-section-handles-with-spaces.html", "bbo-one-section.html"),
    ("real/magic_contest/magic-contest-3-3-butler-member-numbers-club-column.htm", "mc-1.htm"),
    ("real/magic_contest/magic-contest-3-3-mp-percent-tie-blank-rank.htm", "mc-2.htm"),
    ("real/magic_contest/magic-contest-3-3-scoring-from-meta-tie-integer.htm", "mc-3.htm"),
    ("real/magic_contest/magic-contest-4-6-butler-count-levelled-mark.htm", "mc-4.htm"),
    ("real/magic_contest/magic-contest-4-6-mp-percent-tiebreak-column.html", "mc-5.html"),
    ("real/magic_contest/magic-contest-4-8-butler-tiebreak-named-session.htm", "mc-6.htm"),
    ("real/magic_contest/magic-contest-4-8-cross-imps-phantom-typo-date.htm", "mc-7.htm"),
    ("real/magic_contest/magic-contest-4-8-butler-pair-without-names.htm", "mc-8.htm"),
    ("real/magic_contest/magic-contest-4-8-cross-imps-pair-without-ids.htm", "mc-9.htm"),
    ("real/magic_contest/magic-contest-4-8-mp-tiebreak-free-title.htm", "mc-10.htm"),
    ("real/magic_contest/magic-contest-4-8-butler-pairs-pre-text.htm", "mc-11.htm"),
    ("bridgewebs/mp-pairs-ties.csv", "bridgewebs-ties.csv"),
    ("bridgewebs/two-winners-ns-ew.csv", "bridgewebs-two-winners.csv"),
    ("csv_template/ties-and-decimal-comma.csv", "template-ties.csv"),
    ("csv_template/utf8-bom-individual.csv", "template-individual.csv"),
    ("csv_template/windows-1250-no-bom.csv", "template-1250.csv"),
    ("real/egd_table/opengotha-3-50-handicaps-country-in-place.h9", "go-handicaps.h9"),
    # the same bytes as a source under another name: recognised, archived, nothing loaded
    ("club_season/singleton-2013-07.csv", "singleton-july-again.csv"),
    ("club_season_later/singleton-2014-05.csv", "copy-of-2014-05.csv"),
    ("identity/modra-2013-09-05.csv", "modra-resent.csv"),
    # no results: rejected with a reason
    ("real/refused/bbo-home-page-news.html", "bbo-news.html"),
    ("real/refused/kops-board-protocol.html", "kops-protocol.html"),
    ("real/magic_contest/magic-contest-4-6-before-play-all-zero-refused.html", "mc-before.html"),
)
"""Inbox files taken from the bundled fixtures (each parses with ``clubratings parse``, or is
refused by it, as the comment above it says)."""

GARBAGE_NAME = "scanned-results.pdf"
"""A file of random bytes (rejected: no format)."""
HALF_NAME = "half-upload.html"
"""The first 400 bytes of a results page, as an upload cut short would leave (rejected)."""

START_MTIME = 1_700_000_000
"""Inbox files get consecutive mtimes from here: the inbox is loaded oldest first."""


def _config_patterns(config: dict[str, object]) -> list[str]:
    """Every project-relative file pattern ``clubratings.toml`` names (sources, registers,
    the decisions file)."""
    paths = config.get("paths", {})
    identity = config.get("identity", {})
    assert isinstance(paths, dict) and isinstance(identity, dict)
    patterns = list(paths.get("sources", []))
    register = identity.get("register", [])
    patterns += [register] if isinstance(register, str) else list(register)
    if identity.get("decisions"):
        patterns.append(str(identity["decisions"]))
    return patterns


def build_project(dest: Path, seed: int = 0) -> None:
    """A fresh project folder at ``dest``: ``clubratings.toml`` of the repository with the files
    it names copied beside it, and an inbox (:data:`INBOX`, plus two unreadable files)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    text = (ROOT / "clubratings.toml").read_text(encoding="utf-8")
    (dest / "clubratings.toml").write_text(text, encoding="utf-8")
    for pattern in _config_patterns(tomllib.loads(text)):
        for src in sorted(ROOT.glob(pattern)):
            if src.is_file():
                target = dest / src.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, target)
    inbox = dest / "inbox"
    inbox.mkdir()
    rng = random.Random(seed)
    files: list[tuple[str, bytes]] = [
        (name, (ROOT / "fixtures" / fixture).read_bytes()) for fixture, name in INBOX]
    files.insert(10, (GARBAGE_NAME, b"%PDF-1.4\n" + rng.randbytes(3000)))
    files.insert(20, (HALF_NAME, (ROOT / "fixtures/jfr_pary/two-sectors.html").read_bytes()[:400]))
    for i, (name, data) in enumerate(files):
        path = inbox / name
        path.write_bytes(data)
        os.utime(path, (START_MTIME + i, START_MTIME + i))


def _code_files() -> Iterator[Path]:
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def wait_for_quiet(quiet: float, limit: float = 900.0) -> None:
    """Wait until no library file has changed for ``quiet`` seconds (``limit`` at most): the
    references are not made in the middle of someone's edit."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        newest = max((p.stat().st_mtime for p in _code_files()), default=0.0)
        calm = time.time() - newest
        if calm >= quiet:
            return
        time.sleep(min(quiet - calm, max(deadline - time.monotonic(), 0.0)) + 0.1)


def code_fingerprint() -> str:
    """Names, sizes and mtimes of the library's files: changes when someone edits them."""
    digest = hashlib.sha256()
    for path in _code_files():
        st = path.stat()
        digest.update(f"{path.relative_to(ROOT)}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


# ------------------------------------------------------------------------------ commands

def _env(token: str | None = None) -> dict[str, str]:
    """The environment of the commands: no Prefect server of the caller (``run`` goes through
    the run core in the process, as without one), the trial's marker; the clock pinned
    (``SOURCE_DATE_EPOCH``)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PREFECT_API_URL", "PREFECT_HOME", "PREFECT_PROFILE")}
    env["PYTHONUNBUFFERED"] = "1"
    # one clock for every trial and the reference (rating runs' day, the reports' date), so a
    # resumed run's outputs compare byte for byte with the reference's
    env.setdefault("SOURCE_DATE_EPOCH", "1798761600")
    if token is not None:
        env[MARKER] = token
    return env


def _cli() -> str:
    exe = VENV_BIN / "clubratings"
    if not exe.is_file():
        exe = Path(sys.executable).parent / "clubratings"
    return str(exe)


def _python() -> str:
    exe = VENV_BIN / "python"
    return str(exe) if exe.is_file() else sys.executable


@dataclasses.dataclass(frozen=True, slots=True)
class Done:
    """A command run to its end."""

    argv: tuple[str, ...]
    code: int
    stdout: str
    stderr: str
    seconds: float

    def accepted(self, command: str) -> bool:
        """Exit 0; or exit 1 of ``ingest``/``run`` that rejected files (a documented outcome,
        not a crash)."""
        if self.code == 0:
            return True
        return (self.code == 1 and command in ("ingest", "run") and "Traceback" not in self.stderr
                and "rejected" in self.stdout)

    def tail(self, lines: int = 3) -> str:
        text = (self.stderr.strip() or self.stdout.strip()).splitlines()
        return " | ".join(text[-lines:])


def run_command(project: Path, command: str, *, timeout: float = 600.0,
                token: str | None = None) -> Done:
    """``clubratings COMMAND --config PROJECT/clubratings.toml`` to its end."""
    argv = (_cli(), command, "--config", str(project / "clubratings.toml"))
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=project, env=_env(token), capture_output=True, text=True,
                          timeout=timeout, check=False)
    return Done(argv, proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - started)


_STEPS_SCRIPT = """
import sys
from cli import main
config, steps = sys.argv[1], sys.argv[2:]
for step in steps:
    code = main([step, "--config", config])
    print(f"@@ {step} exit {code}", flush=True)
    print(f"@@ {step} exit {code}", file=sys.stderr, flush=True)
    if code not in (0, 1):
        sys.exit(code)
"""


def run_steps(project: Path, steps: Sequence[str], *, timeout: float = 900.0) -> list[Done]:
    """``clubratings STEP --config ...`` for each of ``steps`` in order, in one process (the
    command line's own entry point, ``cli.main``, called once per step: the same code as
    the ``clubratings`` executable, without paying its start-up for every step). Stops after a
    step that fails (exit code other than 0 or 1); returns the steps that ran."""
    if not steps:
        return []
    argv = (_python(), "-c", _STEPS_SCRIPT, str(project / "clubratings.toml"), *steps)
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=project, env=_env(), capture_output=True, text=True,
                          timeout=timeout, check=False)
    seconds = time.perf_counter() - started
    out, err = _split(proc.stdout), _split(proc.stderr)
    done = []
    for step in steps:
        if step not in out.codes:  # this step ended the process (or never began)
            done.append(Done(argv, proc.returncode if proc.returncode else -1,
                             out.rest, err.rest, seconds))
            break
        done.append(Done(argv, out.codes[step], out.parts[step], err.parts.get(step, ""),
                         seconds))
    return done


@dataclasses.dataclass(slots=True)
class _Parts:
    codes: dict[str, int]
    parts: dict[str, str]
    rest: str


def _split(text: str) -> _Parts:
    """Output of :data:`_STEPS_SCRIPT` cut at its ``@@ STEP exit N`` lines."""
    parts = _Parts({}, {}, "")
    chunk: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("@@ "):
            _, step, _, code = line.split()
            parts.codes[step] = int(code)
            parts.parts[step] = "".join(chunk)
            chunk = []
        else:
            chunk.append(line)
    parts.rest = "".join(chunk)
    return parts


def steps_after(command: str) -> tuple[str, ...]:
    """What follows ``command`` to reach a published project."""
    return () if command == "run" else STEPS[STEPS.index(command) + 1:]


# ------------------------------------------------------------------------------ observing

TEMP_SUFFIXES = (".part", "~", ".partial", ".tmp")
TEMP_INFIXES = (".tmp-", ".tmp.", "-tmp-", ".part.", ".partial.")
TEMP_PREFIXES = ("tmp", ".tmp", ".clubratings-tmp-")


def is_temporary(name: str) -> bool:
    """A name one of the project's writers (or Python's ``tempfile``) gives a file before it is
    renamed into place: ``.clubratings-tmp-PID-x`` (warehouse/_atomic.py: lists, pages,
    reports, raw copies, snapshot, decisions file), formerly ``x.part`` and ``.x.tmp-PID``
    (snapshot, and its ``.wal``), ``tmpXXXX`` (tempfile), ``x~`` and ``x.partial`` (editors,
    downloads), and DuckDB's spill folder ``<database>.tmp``."""
    return (name.endswith(TEMP_SUFFIXES) or any(s in name for s in TEMP_INFIXES)
            or name.startswith(TEMP_PREFIXES))


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


REPORT_ID = re.compile(r"\b(run-\d{4}|files)-[0-9a-f]{8}\b")
"""An import report's id (flows/_import_report.py): the run and a hash of the report's text."""


def _public_name(name: str) -> str:
    """A published file's name, a report's id without its hash (``reports/run-0003-*.html``)."""
    return REPORT_ID.sub(r"\1-*", name) if name.startswith("reports/") else name


def _public_sha(name: str, path: Path) -> str:
    """SHA-256 of a published file; of an import report, over its lines in sorted order and
    with report ids without their hash. The order of the rows of ``Names waiting for review``
    follows their creation times (warehouse/review.py ``open_items``, ``ORDER BY created_at``),
    which ties differently from one run to the next, and the id hashes the text: two
    uninterrupted runs write the same rows in another order under another id."""
    data = path.read_bytes()
    if name.startswith("reports/"):
        text = REPORT_ID.sub(r"\1-*", data.decode("utf-8", errors="replace"))
        data = "\n".join(sorted(text.splitlines())).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def _files_under(folder: Path) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*")) if p.is_file()}


@dataclasses.dataclass(slots=True)
class Observation:
    """What a finished project holds, as far as the kill test compares it."""

    events: collections.Counter[str]
    """Content key of each event in force -> how many times it is in force."""
    labels: dict[str, str]
    """Content key -> a readable name (file, date, title, section)."""
    file_events: dict[str, int]
    """SHA-256 of loaded bytes -> events loaded from them (in force or not)."""
    source_files: int
    twice_loaded: list[str]
    """SHA-256 of bytes with more than one row in source_files."""
    archive: list[str]
    rejected: list[str]
    inbox: list[str]
    public: dict[str, tuple[str, int]]
    """File under public/ -> (SHA-256, size)."""
    snapshot: dict[str, object]
    """Snapshot files present and the manifest's row counts."""
    temporary: list[str]
    missing_reasons: list[str]
    log_problems: list[str]
    error: str | None = None
    """Why the warehouse could not be read."""


def _event_keys(db: Path) -> tuple[collections.Counter[str], dict[str, str], dict[str, int],
                                    int, list[str]]:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        events = con.execute(
            "SELECT e.event_id, f.sha256, f.name, e.game, e.event_date, e.title, e.section, "
            "e.kind, e.scoring FROM active_events e JOIN source_files f USING (file_id) "
            "ORDER BY e.event_id").fetchall()
        units = con.execute(
            "SELECT u.event_id, u.unit_no, u.label, u.place_text, u.score FROM units u "
            "SEMI JOIN active_events e USING (event_id) ORDER BY u.event_id, u.unit_no"
        ).fetchall()
        members = con.execute(
            "SELECT m.event_id, m.unit_no, m.seat, m.name_as_written FROM unit_members m "
            "SEMI JOIN active_events e USING (event_id) ORDER BY m.event_id, m.unit_no, m.seat"
        ).fetchall()
        per_file = dict(con.execute(
            "SELECT f.sha256, count(e.event_id) FROM source_files f "
            "LEFT JOIN events e USING (file_id) GROUP BY f.sha256").fetchall())
        n_files, twice = con.execute(
            "SELECT count(*), list(DISTINCT sha256) FILTER (WHERE n > 1) FROM "
            "(SELECT sha256, count(*) OVER (PARTITION BY sha256) AS n FROM source_files)"
        ).fetchall()[0]
    finally:
        con.close()
    names: dict[tuple[int, int], list[str]] = collections.defaultdict(list)
    for event_id, unit_no, _, name in members:
        names[(event_id, unit_no)].append(name)
    unit_rows: dict[int, list[list[object]]] = collections.defaultdict(list)
    for event_id, unit_no, label, place_text, score in units:
        unit_rows[event_id].append([label, place_text, score, names[(event_id, unit_no)]])
    counter: collections.Counter[str] = collections.Counter()
    labels: dict[str, str] = {}
    for event_id, sha, name, game, date, title, section, kind, scoring in events:
        body = json.dumps([sha, game, str(date), title, section, kind, scoring,
                           unit_rows[event_id]], ensure_ascii=False, default=str)
        key = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
        counter[key] += 1
        labels[key] = f"{name}: {date} {title!r}" + (f" section {section!r}" if section else "")
    return counter, labels, {str(k): int(v) for k, v in per_file.items()}, int(n_files), \
        sorted(twice or [])


def _snapshot_state(data: Path) -> dict[str, object]:
    folder = data / "snapshot"
    files = sorted(_files_under(folder))
    state: dict[str, object] = {"files": files}
    manifest = folder / "manifest.json"
    with contextlib.suppress(OSError, ValueError):
        body = json.loads(manifest.read_text(encoding="utf-8"))
        state["row_counts"] = body["source"]["row_counts"]
        state["exported"] = {k: v["rows"] for k, v in body["parquet"].items()}
        state["latest_runs"] = body["latest_runs"]
    state["empty"] = sorted(name for name, p in _files_under(folder).items()
                            if p.stat().st_size == 0)
    return state


def _log_problems(data: Path) -> list[str]:
    log = data / "logs" / "runs.jsonl"
    problems = []
    if log.is_file():
        for i, line in enumerate(log.read_text(encoding="utf-8", errors="replace")
                                 .splitlines(), 1):
            try:
                json.loads(line)
            except ValueError:
                problems.append(f"data/logs/runs.jsonl line {i} is not JSON: {line[:60]!r}")
    return problems


def observe(project: Path) -> Observation:
    """Read the warehouse (read-only), the inbox, public/ and the snapshot of ``project``."""
    data = project / "data"
    inbox = project / "inbox"
    error = None
    try:
        events, labels, per_file, n_files, twice = _event_keys(data / "clubratings.duckdb")
    except Exception as exc:  # noqa: BLE001 - a warehouse that cannot be read: all is lost
        events, labels, per_file, n_files, twice = collections.Counter(), {}, {}, 0, []
        error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    rejected = sorted(_files_under(inbox / "rejected"))
    missing_reasons = [
        name for name in rejected if not name.endswith(".reason.txt")
        and not ((inbox / "rejected" / f"{name}.reason.txt").is_file()
                 and (inbox / "rejected" / f"{name}.reason.txt").stat().st_size > 0)]
    temporary = sorted(str(p.relative_to(project)) for p in project.rglob("*")
                       if is_temporary(p.name))
    return Observation(
        events=events, labels=labels, file_events=per_file, source_files=n_files,
        twice_loaded=twice,
        archive=sorted(_files_under(inbox / "archive")),
        rejected=rejected,
        inbox=sorted(p.name for p in inbox.iterdir() if p.is_file()) if inbox.is_dir() else [],
        public={_public_name(name): (_public_sha(name, p), p.stat().st_size)
                for name, p in _files_under(project / "public").items()},
        snapshot=_snapshot_state(data),
        temporary=temporary,
        missing_reasons=missing_reasons,
        log_problems=_log_problems(data),
        error=error,
    )


# ------------------------------------------------------------------------------ comparing

@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    category: str
    text: str


def _some(items: Sequence[str], n: int = 4) -> str:
    shown = ", ".join(items[:n])
    return shown + (f" and {len(items) - n} more" if len(items) > n else "")


def compare(ref: Observation, got: Observation, *, unstable: frozenset[str] = frozenset()
            ) -> list[Finding]:
    """What ``got`` (after a killed and resumed run) lacks or has wrong against ``ref``.
    ``unstable``: published files that differ between two uninterrupted runs (compared by
    presence only)."""
    found: list[Finding] = []
    if got.error:
        found.append(Finding("lost events", f"warehouse unreadable: {got.error}"))
    lost = sorted((ref.events - got.events).elements())
    if lost:
        found.append(Finding("lost events", f"{len(lost)} event(s) of the reference not in "
                             f"force: {_some([ref.labels[k] for k in lost])}"))
    extra = sorted((got.events - ref.events).elements())
    twice = sorted(k for k, n in got.events.items() if n > 1 and n > ref.events.get(k, 0))
    if twice:
        found.append(Finding("duplicated events", f"{len(twice)} event(s) in force more than "
                             f"once: {_some([got.labels[k] for k in twice])}"))
    elif extra:
        found.append(Finding("duplicated events", f"{len(extra)} event(s) in force that the "
                             f"reference has not: {_some([got.labels[k] for k in extra])}"))
    if got.twice_loaded:
        found.append(Finding("duplicated events", "bytes loaded twice (source_files): "
                             + _some(got.twice_loaded)))
    more = sorted(sha for sha, n in got.file_events.items() if n > ref.file_events.get(sha, 0))
    if more:
        found.append(Finding("duplicated events", "more events loaded from these bytes than in "
                             "the reference: " + _some([s[:12] for s in more])))
    if not got.error and got.source_files != ref.source_files:
        category = "lost events" if got.source_files < ref.source_files else "duplicated events"
        found.append(Finding(category, f"{got.source_files} loaded files, the reference has "
                             f"{ref.source_files}"))
    # inbox bookkeeping
    if got.inbox:
        found.append(Finding("files left in inbox", _some(got.inbox)))
    for folder, want, have in (("archive", ref.archive, got.archive),
                               ("rejected", ref.rejected, got.rejected)):
        missing = sorted(set(want) - set(have) - set(got.inbox))
        if missing:
            found.append(Finding("lost events", f"not in inbox/{folder}/ as in the reference "
                                 f"(nor in the inbox): {_some(missing)}"))
        surplus = sorted(set(have) - set(want))
        if surplus:
            category = "truncated outputs" if any(is_temporary(s) for s in surplus) \
                else "duplicated events" if folder == "archive" else "lost events"
            found.append(Finding(category, f"in inbox/{folder}/, not in the reference: "
                                 f"{_some(surplus)}"))
    if got.missing_reasons:
        found.append(Finding("rejected without reason", _some(got.missing_reasons)))
    # published files
    missing = sorted(set(ref.public) - set(got.public))
    if missing:
        found.append(Finding("truncated outputs", f"{len(missing)} published file(s) missing: "
                             f"public/{_some(missing)}"))
    surplus = sorted(n for n in set(got.public) - set(ref.public) if not is_temporary(n))
    if surplus:
        found.append(Finding("truncated outputs", f"{len(surplus)} published file(s) the "
                             f"reference has not: public/{_some(surplus)}"))
    empty = sorted(n for n, (_, size) in got.public.items() if size == 0)
    if empty:
        found.append(Finding("truncated outputs", f"empty published file(s): public/"
                             f"{_some(empty)}"))
    differ = sorted(n for n in set(ref.public) & set(got.public)
                    if n not in unstable and got.public[n][1] > 0
                    and got.public[n][0] != ref.public[n][0])
    if differ:
        found.append(Finding("truncated outputs", f"{len(differ)} published file(s) differ "
                             "from the reference: " + _some(
                                 [f"public/{n} ({got.public[n][1]} bytes, reference "
                                  f"{ref.public[n][1]})" for n in differ])))
    if got.temporary:
        found.append(Finding("truncated outputs", "temporary file(s) left: "
                             + _some(got.temporary)))
    # the snapshot
    want_files, have_files = ref.snapshot.get("files", []), got.snapshot.get("files", [])
    assert isinstance(want_files, list) and isinstance(have_files, list)
    gone = sorted(set(want_files) - set(have_files))
    if gone:
        found.append(Finding("truncated outputs", "snapshot file(s) missing: data/snapshot/"
                             + _some(gone)))
    if got.snapshot.get("empty"):
        found.append(Finding("truncated outputs", f"empty snapshot file(s): "
                             f"{got.snapshot['empty']}"))
    for part in ("row_counts", "exported", "latest_runs"):
        if part in ref.snapshot and got.snapshot.get(part) != ref.snapshot[part]:
            want, have = ref.snapshot[part], got.snapshot.get(part)
            if isinstance(want, dict) and isinstance(have, dict):
                diff = {k: (have.get(k), want.get(k)) for k in sorted(set(want) | set(have))
                        if have.get(k) != want.get(k)}
                text = ", ".join(f"{k} {h} (reference {w})" for k, (h, w) in diff.items())
            else:
                text = f"{have} (reference {want})"
            found.append(Finding("truncated outputs", f"snapshot manifest {part}: {text}"))
    for problem in got.log_problems:
        found.append(Finding("truncated outputs", problem))
    return found


# ------------------------------------------------------------------------------ processes

def _processes() -> list[tuple[int, int, str, str]]:
    """(pid, process group, state, command line) of every process."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,stat=,args="], capture_output=True,
                         text=True, check=False).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) >= 3 and parts[0].isdigit() and parts[1].isdigit():
            rows.append((int(parts[0]), int(parts[1]), parts[2],
                         parts[3] if len(parts) > 3 else ""))
    return rows


def _has_marker(pid: int, token: str) -> bool:
    try:
        env = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return f"{MARKER}={token}".encode() in env.split(b"\0")


def orphans(project: Path, token: str, pgid: int, *, grace: float = 2.0) -> list[str]:
    """Processes of the killed command still alive ``grace`` seconds after the kill: in its
    process group, carrying its marker (whatever they were started as: a Prefect server, a
    uvicorn, a worker), or naming its project folder. Zombies (ended, not yet reaped by their
    new parent) are not alive. Prefect and uvicorn processes of other people are left alone."""
    deadline = time.monotonic() + grace
    while True:
        found = [f"pid {pid}: {args[:120]}" for pid, group, state, args in _processes()
                 if pid != os.getpid() and not state.startswith("Z")
                 and (group == pgid or str(project) in args or _has_marker(pid, token))]
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def lock_is_held(project: Path) -> bool:
    """Whether some process holds the run lock (``data/clubratings.duckdb.lock``) now."""
    path = project / "data" / "clubratings.duckdb.lock"
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------ the harness

@dataclasses.dataclass(frozen=True, slots=True)
class Plan:
    """One trial: a command started from a state and killed after ``fraction`` of the time
    it takes uninterrupted; or, with ``trigger``, ``offset`` seconds after it prints a line
    that matches the regular expression ``trigger`` (to aim at a moment; not killed when no
    line matches)."""

    index: int
    command: str
    state: str
    fraction: float
    trigger: str = ""
    offset: float = 0.0


@dataclasses.dataclass(slots=True)
class TrialResult:
    plan: Plan
    delay: float
    killed: bool
    """False when the command had ended before the kill."""
    findings: list[Finding]
    seconds: float
    code_changed: bool = False
    last_line: str = ""
    """The killed command's last line of output (how far it had come)."""

    def describe(self) -> str:
        when = f"killed at {self.delay:.2f} s" if self.killed else \
            f"ended before the kill at {self.delay:.2f} s"
        if self.plan.trigger:
            when += f", {self.plan.offset:.2f} s after a line matching {self.plan.trigger!r}"
        return f"trial {self.plan.index} ({self.plan.command} from {self.plan.state}, {when})"

    def progress(self) -> str:
        """How far the killed command had come, by its last line of output."""
        return f"last line before the kill: {self.last_line[:100]!r}" if self.last_line else \
            "nothing printed before the kill"


def plan_trials(runs: int, seed: int, *, commands: Sequence[str] = COMMANDS,
                states: Sequence[str] = STATES, low: float = 0.0, trigger: str = "",
                within: float = 0.0) -> list[Plan]:
    """``runs`` trials from ``seed``: the first ones are one per command of ``commands`` (in
    random order), the others any of them; each from a state valid for it (among ``states``,
    where one is), killed at a fraction of the command's time drawn uniformly from [low, 1];
    or, with ``trigger``, after a line matching it plus an offset drawn from [0, within]."""
    rng = random.Random(seed)
    first = list(commands)
    rng.shuffle(first)
    plans = []
    for i in range(runs):
        command = first[i] if i < len(first) else rng.choice(list(commands))
        valid = [s for s in VALID_STATES[command] if s in states] or VALID_STATES[command]
        state = rng.choice(valid)
        fraction = low + (1.0 - low) * rng.random()
        plans.append(Plan(i + 1, command, state, fraction, trigger, within * fraction))
    return plans


class Harness:
    """Templates of the project's states, the uninterrupted references and the timings, kept
    under ``workdir``; trials run in ``workdir/slot-N`` folders.

    With ``jobs`` above 1 the references are made twice at the same time (as the trials run,
    two at once), which times each command under the trials' load and checks that two
    uninterrupted runs agree; with ``check_determinism`` alone they are made twice one after
    the other."""

    def __init__(self, workdir: Path, *, check_determinism: bool = True,
                 log: bool = True, quiet: float = 15.0, keep_failed: bool = False,
                 jobs: int = 1) -> None:
        self.workdir = workdir.resolve()
        self.jobs = jobs
        self.keep_failed = keep_failed
        self.quiet = quiet
        self.check_determinism = check_determinism
        self.log = log
        self.templates = self.workdir / "templates"
        self.durations: dict[tuple[str, str], float] = {}
        """(command, state it starts from) -> its uninterrupted time."""
        self.seq_ref: Observation | None = None
        self.run_refs: dict[str, Observation] = {}
        self.unstable: frozenset[str] = frozenset()
        self.notes: list[str] = []
        self.fingerprint = ""
        self._lock = threading.Lock()

    def say(self, text: str) -> None:
        if self.log:
            print(text, flush=True)

    def _slot(self, name: str) -> Path:
        return self.workdir / name / "project"

    def _expect(self, done: Done, command: str, where: str) -> None:
        if not done.accepted(command):
            raise RuntimeError(f"{where}: clubratings {command} exited {done.code}: "
                               f"{done.tail(5)}")

    def prepare(self, attempts: int = 5) -> None:
        """Build the templates, the references and the timings, once the library has been
        quiet for a while; again when it changed meanwhile (a failure then is someone's edit
        in progress, not a finding)."""
        for attempt in range(1, attempts + 1):
            wait_for_quiet(self.quiet)
            fingerprint = code_fingerprint()
            try:
                self._prepare()
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                if code_fingerprint() == fingerprint or attempt == attempts:
                    raise
                self.say(f"references failed while the library changed ({exc}); again")
                continue
            if code_fingerprint() == fingerprint:
                self.fingerprint = fingerprint
                return
            self.say("the library changed while the references were made; again")
        raise RuntimeError("the library kept changing; no stable references")

    def _each(self, projects: Sequence[Path], command: str, state: str,
              where: str) -> list[Done]:
        """``command`` in each of ``projects`` (in ``state``): at the same time with ``jobs``
        above 1; its time is recorded."""
        if self.jobs > 1:
            with concurrent.futures.ThreadPoolExecutor(max_workers=len(projects)) as pool:
                done = list(pool.map(lambda p: run_command(p, command), projects))
        else:
            done = [run_command(p, command) for p in projects]
        for d in done:
            self._expect(d, command, where)
        self.durations[(command, state)] = (sum(d.seconds for d in done) / len(done)
                                            if self.jobs > 1 else done[0].seconds)
        return done

    def _prepare(self) -> None:
        if self.templates.exists():
            shutil.rmtree(self.templates)
        self.templates.mkdir(parents=True)
        self.run_refs, self.notes, self.durations = {}, [], {}
        twins = 2 if self.jobs > 1 or self.check_determinism else 1
        builds = [self._slot(f"build-{k}") for k in range(twins)]
        build_project(builds[0])
        shutil.copytree(builds[0], self.templates / "empty", symlinks=True)
        for build in builds[1:]:
            self._restore("empty", build)
        for step, before, after in zip(STEPS, STATES, ("ingested", "recomputed", None),
                                       strict=True):
            self._each(builds, step, before, "reference")
            if after is not None:
                shutil.copytree(builds[0], self.templates / after, symlinks=True)
        self.seq_ref = observe(builds[0])
        if self.seq_ref.error:
            raise RuntimeError(f"reference warehouse unreadable: {self.seq_ref.error}")
        runs = [self._slot(f"ref-run-empty-{k}") for k in range(twins)]
        for slot in runs:
            self._restore("empty", slot)
        self._each(runs, "run", "empty", "reference run")
        self.run_refs["empty"] = observe(runs[0])
        self.say(f"reference ({'two at once' if self.jobs > 1 else 'alone'}): "
                 + ", ".join(f"{c} {s:.1f} s" for (c, _), s in self.durations.items())
                 + f"; {sum(self.seq_ref.events.values())} events in force from "
                 f"{self.seq_ref.source_files} files, {len(self.seq_ref.archive)} archived, "
                 f"{len(self.seq_ref.rejected) // 2} rejected, {len(self.seq_ref.public)} "
                 f"published files ({len(self.run_refs['empty'].public)} after run)")
        if twins > 1:
            self._determinism([(self.seq_ref, observe(builds[1]), "ingest, recompute, publish"),
                               (self.run_refs["empty"], observe(runs[1]), "run")])
        for folder in {p.parent for p in builds + runs}:
            shutil.rmtree(folder)

    def _determinism(self, pairs: Sequence[tuple[Observation, Observation, str]]) -> None:
        """Two uninterrupted runs must agree; published files that do not are compared by
        presence only (none should be)."""
        unstable: set[str] = set()
        for first, second, what in pairs:
            differ = {n for n in set(first.public) & set(second.public)
                      if first.public[n][0] != second.public[n][0]}
            unstable |= differ
            for f in compare(first, second):
                self.notes.append(f"two uninterrupted runs of {what} differ ({f.category}): "
                                  f"{f.text}")
        self.unstable = frozenset(unstable)
        if unstable:
            self.notes.append("compared by presence only (they differ between uninterrupted "
                              f"runs): {_some(sorted(unstable), 10)}")
        self.say("determinism: " + ("two uninterrupted runs agree" if not self.notes else
                                    "; ".join(self.notes)))

    def reference_run(self, state: str) -> Observation:
        """``run`` to its end from ``state`` (made once per state, and timed)."""
        with self._lock:
            if state not in self.run_refs:
                self.run_refs[state] = self._uninterrupted("run", state)
            return self.run_refs[state]

    def duration(self, command: str, state: str) -> float:
        """How long ``command`` takes uninterrupted from ``state`` (timed once)."""
        if command == "run":
            self.reference_run(state)
        with self._lock:
            if (command, state) not in self.durations:
                self._uninterrupted(command, state)
            return self.durations[(command, state)]

    def _uninterrupted(self, command: str, state: str) -> Observation:
        slot = self._slot(f"time-{command}-{state}")
        self._restore(state, slot)
        done = run_command(slot, command)
        self._expect(done, command, f"{command} from {state}, uninterrupted")
        self.durations[(command, state)] = done.seconds
        seen = observe(slot)
        shutil.rmtree(slot.parent)
        return seen

    def _restore(self, state: str, dest: Path) -> None:
        if dest.exists():
            shutil.rmtree(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(self.templates / state, dest, symlinks=True)

    def trial(self, plan: Plan, slot_name: str) -> TrialResult:
        """One trial in its own folder: start, kill, look, resume, finish, compare."""
        started = time.perf_counter()
        fingerprint = self.fingerprint
        project = self._slot(slot_name)
        reference = self.reference_run(plan.state) if plan.command == "run" else self.seq_ref
        assert reference is not None
        self._restore(plan.state, project)
        findings: list[Finding] = []
        delay = plan.fraction * self.duration(plan.command, plan.state)
        token = f"{os.getpid()}-{plan.index}-{random.random():.12f}"
        argv = [_cli(), plan.command, "--config", str(project / "clubratings.toml")]
        output = project.parent / "killed.out"
        proc = subprocess.Popen(argv, cwd=project, env=_env(token), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        launched = time.perf_counter()
        seen = threading.Event()
        reader = threading.Thread(target=_copy_output, daemon=True,
                                  args=(proc, output, re.compile(plan.trigger)
                                        if plan.trigger else None, seen))
        reader.start()
        if plan.trigger:  # wait for the line (or the end), then the offset
            while not seen.wait(0.01) and proc.poll() is None:
                pass
            delay = (time.perf_counter() - launched) + plan.offset
        killed = True
        try:
            proc.wait(timeout=max(delay - (time.perf_counter() - launched), 0.0))
            killed = False  # it ended before its time was up
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        reader.join(timeout=5)
        time.sleep(0.3)  # let the kernel finish off the group (and reparent what escaped)
        printed = output.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        left = orphans(project, token, proc.pid)
        if left:
            findings.append(Finding("orphaned processes", _some(left)))
        if lock_is_held(project):
            findings.append(Finding("stuck locks", "the run lock is held after the kill"))
        for pid_text in left:  # end them, so that they do not spoil the next trials
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_text.split()[1].rstrip(":")), signal.SIGKILL)
        steps = (plan.command, *steps_after(plan.command))
        ran = run_steps(project, steps)
        for step, done in zip(steps, ran, strict=False):
            what = "run again" if step == plan.command else f"after {plan.command}"
            if done.code == 3:
                findings.append(Finding("stuck locks", f"clubratings {step} {what}: "
                                        f"{done.tail(1)}"))
            elif not done.accepted(step):
                findings.append(Finding("failed resumptions", f"clubratings {step} {what} "
                                        f"exited {done.code}: {done.tail()}"))
        (project.parent / "resumed.out").write_text(
            "".join(f"$ clubratings {step}\n{d.stdout}{d.stderr}"
                    for step, d in zip(steps, ran, strict=False)), encoding="utf-8")
        findings.extend(compare(reference, observe(project), unstable=self.unstable))
        result = TrialResult(plan, delay, killed, findings, time.perf_counter() - started,
                             code_changed=code_fingerprint() != fingerprint,
                             last_line=printed[-1] if printed else "")
        if findings and not result.code_changed and self.keep_failed:
            kept = self.workdir / "failed" / f"trial-{plan.index}"
            if kept.exists():
                shutil.rmtree(kept)
            shutil.copytree(project.parent, kept, symlinks=True)
        return result


def _copy_output(proc: subprocess.Popen[bytes], output: Path, trigger: re.Pattern[str] | None,
                 seen: threading.Event) -> None:
    """Copy the killed command's output to ``output``; set ``seen`` at the first line that
    matches ``trigger``."""
    assert proc.stdout is not None
    with output.open("wb") as out:
        for line in proc.stdout:
            out.write(line)
            out.flush()
            if trigger is not None and not seen.is_set() and \
                    trigger.search(line.decode("utf-8", errors="replace")):
                seen.set()


def run_trials(harness: Harness, plans: Sequence[Plan], *, jobs: int = 2,
               log: bool = True) -> list[TrialResult]:
    """Run ``plans``, ``jobs`` at a time (each in a slot folder of its own).

    The library may change while the trials run (someone's edits): a trial with findings that
    ran on other code than the references were made with is run again, after the references
    are made anew (its findings may be the change, not the kill). A trial without findings is
    kept: stale references could only have made it fail."""
    results: dict[int, TrialResult] = {}
    queue = collections.deque(plans)
    free = [f"slot-{k}" for k in range(jobs)]
    running: dict[concurrent.futures.Future[TrialResult], str] = {}
    stale = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        while queue or running:
            if stale and not running:
                harness.say("the library changed: making the references again")
                harness.prepare()
                stale = False
            while queue and free and not stale:
                slot = free.pop()
                running[pool.submit(harness.trial, queue.popleft(), slot)] = slot
            finished, _ = concurrent.futures.wait(
                running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                free.append(running.pop(future))
                result = future.result()
                if result.findings and (result.code_changed
                                        or harness.fingerprint != code_fingerprint()):
                    harness.say(f"{result.describe()}: findings while the library changed, "
                                "run again")
                    queue.append(result.plan)
                    stale = True
                    continue
                results[result.plan.index] = result
                if log:
                    status = "ok" if not result.findings else "; ".join(
                        f"{f.category}: {f.text}" for f in result.findings)
                    harness.say(f"{result.describe()} [{result.seconds:.1f} s]: {status}")
    return [results[p.index] for p in plans]


def counts(results: Iterable[TrialResult]) -> dict[str, int]:
    """Per category, the number of trials with at least one finding of it."""
    out = dict.fromkeys(CATEGORIES + EXTRA_CATEGORIES, 0)
    for result in results:
        for category in {f.category for f in result.findings}:
            out[category] += 1
    return out


def summary(results: Sequence[TrialResult]) -> str:
    """The summary: the counts, then for every category that is not zero which trials and
    what was found."""
    n = counts(results)
    lines = [f"runs: {len(results)}"]
    lines += [f"{c}: {n[c]}" for c in CATEGORIES]
    lines += [f"{c}: {n[c]}" for c in EXTRA_CATEGORIES if n[c]]
    for category in CATEGORIES + EXTRA_CATEGORIES:
        if not n[category]:
            continue
        lines += ["", f"{category}:"]
        for result in results:
            for f in result.findings:
                if f.category == category:
                    lines.append(f"  {result.describe()}: {f.text} ({result.progress()})")
    return "\n".join(lines)


@contextlib.contextmanager
def _workdir(path: Path | None) -> Iterator[Path]:
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="clubratings-killtest-") as tmp:
        yield Path(tmp)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--runs", type=int, default=100, help="number of trials (default 100)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the trials' choices")
    ap.add_argument("--workdir", type=Path, default=None,
                    help="folder for the templates and trials, kept afterwards; the folder "
                    "of every trial with findings is kept under DIR/failed/ (default: a "
                    "temporary folder, removed afterwards)")
    ap.add_argument("--jobs", type=int, default=2, help="trials at the same time (default 2)")
    ap.add_argument("--no-determinism-check", action="store_true",
                    help="skip running the steps twice uninterrupted before the trials")
    ap.add_argument("--command", action="append", choices=COMMANDS, default=None,
                    help="only this command (repeat for several; default: all four)")
    ap.add_argument("--state", action="append", choices=STATES, default=None,
                    help="start only from this state where the command allows it (repeat "
                    "for several; default: any valid one)")
    ap.add_argument("--after", metavar="REGEX", default="",
                    help="aim: kill after the command prints a line matching REGEX (plus "
                    "--within), not at a random time")
    ap.add_argument("--within", metavar="SECONDS", type=float, default=0.0,
                    help="with --after: kill up to this many seconds after the line "
                    "(uniformly drawn; default 0)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    with _workdir(args.workdir) as workdir:
        harness = Harness(workdir, check_determinism=not args.no_determinism_check,
                          keep_failed=args.workdir is not None, jobs=max(args.jobs, 1))
        harness.prepare()
        plans = plan_trials(args.runs, args.seed, commands=args.command or COMMANDS,
                            states=args.state or STATES, trigger=args.after,
                            within=args.within)
        results = run_trials(harness, plans, jobs=max(args.jobs, 1))
    print()
    for note in harness.notes:
        print(f"note: {note}")
    print(summary(results))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 1 if any(counts(results).values()) else 0


if __name__ == "__main__":
    sys.exit(main())
