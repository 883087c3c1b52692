"""The run core: one front door for every way of running the pipeline.

:meth:`Project.open` takes the run lock (flows/_lock.py), opens the warehouse once and keeps one
loader, with its identity index, for the whole run; the operations below work on that. The
command line, the Prefect flows (and so the deployments and cron) and the benchmarks call these
and add nothing of their own, so every door is serialised the same way and pays the same costs.

    with Project.open(cfg, command="clubratings run") as project:
        project.prepare_identity()
        outcomes = project.ingest()          # one transaction per file, all or nothing
        runs = project.recompute()
        project.report(outcomes, runs)
        written = project.publish()
        project.snapshot()

:meth:`Project.run` does all of that in that order and returns a :class:`RunResult`.

A project already open in this process (a command that runs a flow) is joined, not opened twice.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsers import ParseError, ParseResult
from parsers._limits import LimitExceeded, check_size, using
from warehouse import Loader, Warehouse, atomic_write, file_sha256, open_warehouse, sweep
from warehouse._load import remove_orphan_raw
from warehouse.reporting import loaded_hashes, people_state
from warehouse.snapshot import Snapshot

from . import _steps
from ._config import Config
from ._inbox import FileOutcome, ingest_batch, noting
from ._lock import run_lock

if TYPE_CHECKING:
    from ._import_report import ImportReport
    from ._runlog import RunLog

__all__ = ["Project", "RunResult", "StepRunner"]

StepRunner = Callable[[str, Callable[[], Any]], Any]
"""Runs one step of :meth:`Project.run` by name (the Prefect flow makes each a task)."""

BATCH = 50
"""Files loaded in one transaction (a failed batch is loaded again file by file): every file is
still all or nothing, and a killed run leaves the warehouse as the last committed batch did."""

_OPEN: dict[str, Project] = {}
"""Projects open in this process, by warehouse file: a flow run by a command joins its project."""


@dataclass(frozen=True, slots=True)
class RunResult:
    """What one nightly job did (:meth:`Project.run`, the Prefect flow ``pipeline``)."""

    files: tuple[FileOutcome, ...]
    """Every file looked at, in the order loaded: sources, then the inbox."""
    runs: tuple[_steps.PoolRun, ...]
    """Each pool's rating run, new or kept."""
    published: tuple[Path, ...]
    """The files written under ``public/`` (none when nothing they are made of changed)."""
    scraped: tuple[str, ...]
    """The scraper's lines, one per URL (none when nothing was fetched)."""
    report: ImportReport
    """The import report of the run (written under ``public/reports/`` unless quiet)."""
    review: str | None
    """What waits for a person (``clubratings review``), or None."""
    warnings: tuple[str, ...] = ()
    """Lines of the identity step to show a person: an answer of the decisions file held
    because it contradicts the answer on record (the run went on without it)."""

    @property
    def rejected(self) -> tuple[FileOutcome, ...]:
        """The files the run refused."""
        return tuple(o for o in self.files if o.status == "rejected")


class Project:
    """An open project: configuration, the run lock, one warehouse connection, one loader."""

    def __init__(self, cfg: Config, wh: Warehouse) -> None:
        self.cfg = cfg
        self.wh = wh
        self._loader: Loader | None = None
        self._hashes: dict[Path, str] = {}
        """The source files' hashes :meth:`new_files` found, for the loading after it."""

    @classmethod
    @contextlib.contextmanager
    def open(cls, cfg: Config, *, command: str, wait: float = 0.0,
             reader: bool = False) -> Iterator[Project]:
        """Take the lock (``wait`` seconds at most; :class:`flows._lock.RunLocked` if another run
        holds it), open the warehouse, and close both when the block ends."""
        key = str(Path(cfg.warehouse).resolve())
        if key in _OPEN:
            yield _OPEN[key]
            return
        with contextlib.ExitStack() as stack, \
                run_lock(cfg.warehouse, command=command, wait=wait, reader=reader), \
                open_warehouse(cfg.warehouse) as wh:
            # what a writer killed in an earlier run left half-done (no writer of ours is at
            # work now: this process holds the lock)
            data = cfg.warehouse.parent
            flat = [data, data / "logs", cfg.inbox, cfg.archive, cfg.rejected]
            if cfg.decisions is not None:
                flat.append(cfg.decisions.parent)
            sweep(flat, below=[cfg.public, data / "raw", data / "snapshot"])
            remove_orphan_raw(wh)
            from ._runlog import Unreported

            Unreported(cfg).start()
            stack.enter_context(using(cfg.limits))  # the gate's date window, in this process
            project = cls(cfg, wh)
            _OPEN[key] = project
            try:
                yield project
            finally:
                del _OPEN[key]

    @classmethod
    def current(cls, cfg: Config) -> Project:
        """The project this process has open for ``cfg``'s warehouse (a flow's tasks find the
        flow's project so, and take no connection as a parameter)."""
        key = str(Path(cfg.warehouse).resolve())
        if key not in _OPEN:
            raise RuntimeError(f"no run is open on {cfg.warehouse} in this process")
        return _OPEN[key]

    # --- identity ----------------------------------------------------------------------------

    @property
    def loader(self) -> Loader:
        """The run's loader: built on first use, kept current from file to file."""
        if self._loader is None:
            self._loader = Loader(self.wh, identity=self.cfg.identity,
                                  correction_hold=self.cfg.correction_hold)
        return self._loader

    def prepare_identity(self) -> list[str]:
        """Load the configured member registers (new ones only) and apply the decisions file,
        before any result file; one summary line per step."""
        lines = _steps.prepare_identity_in(self.wh, self.cfg)
        if self._loader is not None:
            self._loader.refresh()
        return lines

    def review_summary(self) -> str | None:
        return _steps.review_summary_in(self.wh)

    # --- ingest ------------------------------------------------------------------------------

    def pending(self) -> list[tuple[Path, bool]]:
        """Files to look at, as (path, from the inbox): read-only sources, then the inbox.

        The inbox folder is made here if it is missing, so that after the first run or ingest a
        webmaster sees where to drop files (its archive/ and rejected/ come when first needed)."""
        self.cfg.inbox.mkdir(parents=True, exist_ok=True)
        return _steps.pending_files(self.cfg)

    def ingest(
        self, files: Sequence[tuple[Path, bool]] | None = None, *,
        parsed: Sequence[ParseResult | ParseError | None] | None = None,
        on_file: Callable[[int, int, FileOutcome], None] | None = None,
    ) -> list[FileOutcome]:
        """Load ``files`` (default: :meth:`pending`) in order, each all or nothing (batches of
        :data:`BATCH` share a transaction; :func:`flows._inbox.ingest_batch`). The files not
        loaded before are read in worker processes under ``[limits]``, where a file that takes
        too long is stopped (flows/_parsing.py), ahead of this process, the one writer, loading
        them. ``parsed``: the same files already parsed elsewhere. ``on_file(k, n, outcome)``
        is told of each file as it is done."""
        from ._parsing import parse_files

        files = list(self.pending() if files is None else files)
        if parsed is not None:
            results: Iterator[ParseResult | ParseError | None] = iter(parsed)
            return self._load(files, results, on_file)
        new = self.new_files(files)
        ahead = parse_files([files[i][0] for i in new], self.cfg.limits)
        chosen = set(new)
        try:
            results = (next(ahead) if i in chosen else None for i in range(len(files)))
            return self._load(files, results, on_file)
        finally:
            ahead.close()

    def new_files(self, files: Sequence[tuple[Path, bool]]) -> list[int]:
        """Indexes of the files whose bytes were not loaded before: the only ones parsed. A
        source folder of thousands of loaded files costs a ``stat`` of each: their hashes are
        remembered by the files' status (flows/_hashes.py), and kept for the loading that
        follows (:meth:`ingest`), which then reads none of them again."""
        from ._hashes import SourceHashes

        known = loaded_hashes(self.wh)
        remembered = SourceHashes(self.cfg.warehouse.parent)
        self._hashes = {}
        new = []
        for i, (path, from_inbox) in enumerate(files):
            try:
                # a file far too large is not read here: the worker refuses it by its size
                st = path.stat()
                check_size(st.st_size)
                if from_inbox:
                    sha = file_sha256(path.read_bytes())
                else:
                    sha = remembered.sha256(path, st)
                    self._hashes[path] = sha
                if sha in known:
                    continue
            except (OSError, LimitExceeded):  # unreadable or too large: the worker says so
                pass
            new.append(i)
        remembered.save()
        return new

    def _load(self, files: list[tuple[Path, bool]],
              results: Iterator[ParseResult | ParseError | None],
              on_file: Callable[[int, int, FileOutcome], None] | None) -> list[FileOutcome]:
        outcomes: list[FileOutcome] = []
        from ._runlog import Unreported, logs_dir

        errors = logs_dir(self.cfg) / "errors.log"
        journal = Unreported(self.cfg)
        # the hashes new_files found hold for these files, now: the next load hashes anew
        hashes, self._hashes = self._hashes, {}
        for start in range(0, len(files), BATCH):
            batch = [(path, self.cfg.archive if from_inbox else None,
                      self.cfg.rejected if from_inbox else None, next(results))
                     for path, from_inbox in files[start:start + BATCH]]
            started = time.perf_counter()
            with noting(journal.file):  # each file noted before it is moved
                done = ingest_batch(self.wh, batch, loader=self.loader, errors_log=errors,
                                    hashes=hashes)
            share = (time.perf_counter() - started) / max(len(done), 1)
            for outcome in done:
                outcome = dataclasses.replace(outcome, seconds=share)
                outcomes.append(outcome)
                if on_file is not None:
                    on_file(len(outcomes), len(files), outcome)
        return outcomes

    # --- ratings, lists, reports -------------------------------------------------------------

    def recompute(self) -> list[_steps.PoolRun]:
        """Rate every configured pool (a stored run with the same inputs, options and rating
        code is reused)."""
        import ratings

        from ._runlog import Unreported

        runs = []
        for pool in self.cfg.pools:
            try:
                runs.append(_steps.rate_pool(self.wh, pool))
            except ratings.RatingError as exc:
                raise ratings.RatingError(f"pool {pool.name}: {exc}") from exc
            Unreported(self.cfg).runs(runs[-1:])
        return runs

    def publish(self) -> list[Path]:
        """Write every pool's lists and site pages from its current run.

        Skipped when nothing they are made of changed since the last publication (the pools'
        current runs, the players' names and clubs, the opt-out and quality files, the
        configuration and the publishing code): the stamp ``public/.published`` says what the
        site was last made from. Every file would come out byte-identical anyway."""
        stamp = self.cfg.public / ".published"
        key = self._publish_key()
        if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == key:
            return []
        written: list[Path] = []
        for pool in self.cfg.pools:
            written.extend(_steps.publish(self.wh, self.cfg, pool))
        atomic_write(stamp, key + "\n")
        return written

    def _publish_key(self) -> str:
        import hashlib

        from warehouse import latest_run

        digest = hashlib.sha256()
        for pool in self.cfg.pools:
            run = latest_run(self.wh, pool.name)
            digest.update(f"{pool!r}|{run.run_id if run else None}\n".encode())
        digest.update(people_state(self.wh).encode())
        digest.update(f"federation {self.cfg.federation!r}\n".encode())
        for extra in (self.cfg.root / "optout.txt", self.cfg.root / _steps.QUALITY_FILE):
            digest.update(extra.read_bytes() if extra.is_file() else b"-")
        report = self.cfg.public / "reports" / "latest.html"  # the index links it once it exists
        digest.update(b"report" if report.is_file() else b"-")
        publishing = Path(__file__).resolve().parents[1] / "publishing"
        for path in sorted(publishing.rglob("*")):  # the code, templates and styles
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(publishing)).encode() + path.read_bytes())
        return digest.hexdigest()

    def report(self, outcomes: Sequence[FileOutcome],
               runs: Sequence[_steps.PoolRun]) -> tuple[ImportReport, Path | None]:
        """The import report of this run, with what earlier runs killed before their report
        did (:class:`flows._runlog.Unreported`), written under ``public/reports/`` (unless
        quiet)."""
        from ._import_report import build_report, write_report
        from ._runlog import Unreported

        journal = Unreported(self.cfg)
        files, kept = journal.merged(outcomes, runs, self.wh)
        report = build_report(self.wh, files, kept, journal.since())
        written = write_report(report, self.cfg.public)
        journal.clear()
        return report, written

    def snapshot(self) -> Snapshot:
        """The analysts' read-only copy and Parquet exports (``data/snapshot/``)."""
        return _steps.snapshot(self.wh, self.cfg)

    def scrape(self) -> list[str]:
        """Fetch the due pages of ``sources.toml`` into the inbox (each request retries inside);
        one line per URL. Nothing to do without a sources file."""
        from . import _sources

        return _sources.scrape(self.cfg).lines() if _sources.has_sources(self.cfg) else []

    # --- the loading half of every job --------------------------------------------------------

    def load(
        self, files: Sequence[tuple[Path, bool]] | None = None, *, log: RunLog | None = None,
        step: StepRunner | None = None,
        on_line: Callable[[str], None] | None = None,
        on_file: Callable[[int, int, FileOutcome], None] | None = None,
        parsed: Sequence[ParseResult | ParseError | None] | None = None,
    ) -> tuple[list[FileOutcome], str | None]:
        """What every way in runs to load files, in this order: the registers and the
        decisions (:meth:`prepare_identity`, its lines to ``on_line``), then ``files``
        (default: :meth:`pending`; ``parsed``: parsed elsewhere, the Dask path), each step a
        line of the run log ``log`` (default: a new one for "ingest"). Returns the outcomes and
        what waits for a person (:meth:`review_summary`). ``run``, ``ingest``, ``scrape`` and
        the Prefect flows all load through here."""
        from ._runlog import RunLog, timed

        log = log or RunLog(self.cfg, "ingest")

        def run_step(name: str, func: Callable[[], Any]) -> Any:
            return func() if step is None else step(name, func)

        for line in timed(log, "identity", run_step, "identity", self.prepare_identity):
            if on_line is not None:
                on_line(line)
        outcomes = timed(log, "ingest", run_step, "ingest",
                         lambda: self.ingest(files, parsed=parsed, on_file=on_file))
        return outcomes, self.review_summary()

    # --- the whole job -----------------------------------------------------------------------

    def run(
        self, *, step: StepRunner | None = None,
        on_file: Callable[[int, int, FileOutcome], None] | None = None,
        command: str = "pipeline", scrape: bool = True,
    ) -> RunResult:
        """The nightly job, in this order: scrape (when sources are configured and ``scrape``;
        the inbox job, ``clubratings run --no-scrape``, fetches nothing), registers and
        decisions, ingest, recompute, the import report, publish, the snapshot. Each step is
        one line of the run log (``data/logs/runs.jsonl``). ``step(name, func)`` runs each
        step (the Prefect flow passes one that makes it a task); ``on_file`` is told of each
        file as it is loaded. Returns the files' outcomes, the pool runs, the files published,
        the scrape lines, the import report, the review summary and the warnings of the
        identity step (:class:`RunResult`)."""
        from . import _sources
        from ._runlog import RunLog, timed

        def run_step(name: str, func: Callable[[], Any]) -> Any:
            return func() if step is None else step(name, func)

        log = RunLog(self.cfg, command)
        scraped = (timed(log, "scrape", run_step, "scrape", self.scrape)
                   if scrape and _sources.has_sources(self.cfg) else [])
        identity: list[str] = []
        outcomes, _ = self.load(log=log, step=step, on_file=on_file, on_line=identity.append)
        runs = timed(log, "recompute", run_step, "recompute", self.recompute)
        report = timed(log, "report", run_step, "report",  # the site links it
                       lambda: self.report(outcomes, runs))
        written = timed(log, "publish", run_step, "publish", self.publish)
        timed(log, "snapshot", run_step, "snapshot", self.snapshot)
        return RunResult(files=tuple(outcomes), runs=tuple(runs), published=tuple(written),
                         scraped=tuple(scraped), report=report[0], review=self.review_summary(),
                         warnings=tuple(w for w in identity if w.startswith("warning:")))
