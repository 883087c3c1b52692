"""What a run did, as it goes: the run log, progress, and the journal of what no import report
has shown yet.

- ``RunLog``: one JSON line per step in ``data/logs/runs.jsonl`` (time, command, step, counts,
  duration); ``timed`` runs one step of a job as such a line; ``summary_line`` is the one-line
  summary printed at the end of a run.
- ``track`` and ``progress``: a progress bar when output goes to a terminal, plain iteration
  (or nothing) otherwise.
- ``Unreported``: ``data/logs/unreported.jsonl``, each file's outcome and each rating run as
  it is done, until an import report (flows/_import_report.py) shows them: a run killed before
  its report loses nothing from the reports. ``Since`` is where the report before left off.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from warehouse import Warehouse, atomic_write
from warehouse.history import actions_since
from warehouse.reporting import hashes_loaded_since, loaded_file_since

from ._config import Config
from ._inbox import FileOutcome, warning_line

__all__ = [
    "PoolRunLike",
    "RunLog",
    "Since",
    "Unreported",
    "file_counts",
    "logs_dir",
    "progress",
    "summary_line",
    "tenths",
    "timed",
    "track",
]

T = TypeVar("T")
R = TypeVar("R")


class PoolRunLike(Protocol):
    """What the run log, the journal and the import report read of a pool's rating run
    (flows/_steps.py ``PoolRun``), read-only as a frozen dataclass's fields are."""

    @property
    def pool(self) -> str: ...

    @property
    def run_id(self) -> int | None: ...

    @property
    def reused(self) -> bool: ...


# ------------------------------------------------------------------ progress and run logs

def track(items: Sequence[T], description: str, *, stream: object = None) -> Iterator[T]:
    """Iterate ``items``; on a terminal, with a rich progress bar (tests see plain output)."""
    out = stream if stream is not None else sys.stdout
    if not getattr(out, "isatty", lambda: False)() or len(items) < 2:
        yield from items
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), transient=True) as progress:
        task = progress.add_task(description, total=len(items))
        for item in items:
            yield item
            progress.advance(task)


@contextmanager
def progress(total: int, description: str, *,
             stream: object = None) -> Iterator[Callable[[], None]]:
    """A step counter: yields ``advance()``; on a terminal, a rich progress bar (transient, so
    the printed lines stay), elsewhere nothing but the calls."""
    out = stream if stream is not None else sys.stdout
    if not getattr(out, "isatty", lambda: False)() or total < 2:
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda: bar.advance(task)


def logs_dir(cfg: Config) -> Path:
    """``data/logs`` next to the warehouse: cron output and ``runs.jsonl``."""
    return cfg.warehouse.parent / "logs"


class RunLog:
    """One JSON line per step to ``data/logs/runs.jsonl``; all lines of a run share ``run``."""

    def __init__(self, cfg: Config, command: str) -> None:
        self.path = logs_dir(cfg) / "runs.jsonl"
        self.command = command
        self.run = uuid.uuid4().hex[:12]
        self.started = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    @contextmanager
    def step(self, name: str) -> Iterator[dict[str, object]]:
        """Time the block; the caller fills the yielded dict with the step's counts. A step that
        raises is logged with ``"error"`` before the exception goes on."""
        counts: dict[str, object] = {}
        start = time.perf_counter()
        try:
            yield counts
        except BaseException as exc:
            self.write(name, counts, time.perf_counter() - start, error=f"{type(exc).__name__}: "
                       f"{exc}")
            raise
        self.write(name, counts, time.perf_counter() - start)

    def write(self, step: str, counts: dict[str, object], seconds: float, *,
              error: str | None = None) -> None:
        line: dict[str, object] = {
            "time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "run": self.run, "command": self.command, "step": step,
            "counts": counts, "duration_s": round(seconds, 3),
        }
        if error is not None:
            line["error"] = error
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")


def tenths(outcomes: Sequence[FileOutcome]) -> dict[str, float]:
    """Mean time per file of the first and the last tenth of the files, in milliseconds: a
    cost per file that grows with the warehouse shows as a last tenth slower than the first."""
    if len(outcomes) < 10:
        return {}
    n = len(outcomes) // 10
    return {"first_tenth_ms": round(1000 * sum(o.seconds for o in outcomes[:n]) / n, 2),
            "last_tenth_ms": round(1000 * sum(o.seconds for o in outcomes[-n:]) / n, 2)}


def file_counts(outcomes: Iterable[FileOutcome]) -> dict[str, int]:
    """Files per status (loaded, correction, duplicate, same, rejected), in name order."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    return dict(sorted(counts.items()))


def summary_line(command: str, seconds: float, *, files: Sequence[FileOutcome] | None = None,
                 runs: Sequence[PoolRunLike] | None = None,
                 published: Sequence[object] | None = None) -> str:
    """``run ok: 16 files (16 duplicate), 3 pools rated, 11 files published in 7.2 s``; a run
    that rejected a file says ``with problems`` instead of ``ok``."""
    parts: list[str] = []
    ok = True
    if files is not None:
        counts = file_counts(files)
        ok = "rejected" not in counts
        detail = ", ".join(f"{n} {status}" for status, n in counts.items())
        parts.append(f"{len(files)} files" + (f" ({detail})" if detail else ""))
    if runs is not None:
        parts.append(f"{sum(1 for r in runs if r.run_id is not None)} pools rated")
    if published is not None:
        parts.append(f"{len(published)} files published")
    return (f"{command} {'ok' if ok else 'with problems'}: {', '.join(parts) or 'nothing to do'}"
            f" in {seconds:.1f} s")


# ------------------------------------------------------------------ inside the pipeline flow

def timed(log: RunLog, step: str, func: Callable[..., R], *args: object) -> R:
    """Call ``func(*args)`` as one logged step; counts come from what it returns (files by
    status, pools rated, files written)."""
    with log.step(step) as counts:
        result = func(*args)
        counts.update(_counts_of(result))
    return result


def _counts_of(result: object) -> dict[str, object]:
    if not isinstance(result, list) or not result:
        return {"items": 0} if isinstance(result, list) else {}
    first = result[0]
    if isinstance(first, FileOutcome):
        return {"files": len(result), **file_counts(result), **tenths(result)}
    if hasattr(first, "run_id") and hasattr(first, "reused"):
        return {"pools": len(result),
                "new": sum(1 for r in result if r.run_id is not None and not r.reused),
                "kept": sum(1 for r in result if r.reused)}
    return {"items": len(result)}


# ------------------------------------------------------------------ not yet reported

@dataclass(frozen=True, slots=True)
class Since:
    """Where the report before left off (:meth:`Unreported.since`): when it was written (UTC),
    how many rows of the trail of what people did to files (``file_actions``) the reports had
    shown by then, and the inbox's ``rejected/`` folder, whose waiting files every report
    lists. The trail is read by count, not by clock: its rows are stamped by more than one
    clock, and a release made in the same second as the report before is still new."""

    stamp: str = ""
    actions: int | None = None
    """None: not known (a journal from before counts were kept): by ``stamp``."""
    rejected: Path | None = None

    def __str__(self) -> str:
        return self.stamp


class Unreported:
    """What runs did that no import report has shown yet: ``data/logs/unreported.jsonl``.

    Each file's outcome is written as the file is done, each rating run as it is made; the
    report takes them all and the journal is emptied once the report is written. A run killed
    before its report leaves its files and rating runs here, and the next report shows them:
    the files it loaded (which the next run finds already loaded) are not lost from the
    reports, nor the rating runs it made (which the next run keeps)."""

    def __init__(self, cfg: Config) -> None:
        self.path = logs_dir(cfg) / "unreported.jsonl"
        self.rejected = cfg.rejected
        self._actions: int | None = None  # the trail's rows when merged() saw the warehouse

    def _append(self, record: dict[str, object]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")

    def file(self, outcome: FileOutcome) -> None:
        """Note a file's outcome (a duplicate only counts in its own run's report)."""
        if outcome.status != "duplicate":
            self._append({"file": _plain(outcome)})

    def runs(self, runs: Sequence[PoolRunLike]) -> None:
        for run in runs:
            if run.run_id is not None and not run.reused:
                self._append({"run": {"pool": run.pool, "run_id": run.run_id}})

    def _records(self) -> list[dict[str, object]]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        records = []
        for line in lines:
            try:
                records.append(json.loads(line))
            except ValueError:  # the last line of a writer killed mid-line
                continue
        return records

    def merged(self, outcomes: Sequence[FileOutcome], runs: Sequence[PoolRunLike],
               wh: Warehouse | None = None) -> tuple[list[FileOutcome], list[PoolRunLike]]:
        """This run's ``outcomes`` and ``runs`` with what earlier, unreported runs did: a file
        an earlier run loaded counts as loaded (not as this run's duplicate of it), a rating
        run an earlier run made counts as new. A file this run finds already loaded, loaded
        since the last report by a run killed before it could note the file (``wh``: the
        warehouse says when), counts as loaded too."""
        files: list[FileOutcome] = []
        seen: dict[str, int] = {}
        made: set[int] = set()
        since = ""
        if wh is not None:  # what the report about to be built shows of the trail
            self._actions = len(actions_since(wh, None))
        for record in self._records():
            if "since" in record:
                since = str(record["since"])
                continue
            if "run" in record:
                made.add(int(record["run"]["run_id"]))  # type: ignore[index]
                continue
            outcome = FileOutcome(**{**record["file"],  # type: ignore[dict-item]
                                     "replaced_events": tuple(record["file"]["replaced_events"]),  # type: ignore[index]
                                     "waiting": tuple(tuple(w) for w in record["file"]["waiting"]),  # type: ignore[index]
                                     "warnings": tuple(record["file"]["warnings"])})  # type: ignore[index]
            key = outcome.sha256 or outcome.path
            if key in seen:
                if files[seen[key]].status == "duplicate" and outcome.status != "duplicate":
                    files[seen[key]] = outcome
                continue
            seen[key] = len(files)
            files.append(outcome)
        recent: set[str] | None = None  # files loaded since the last report, looked up once
        for outcome in outcomes:  # normally in the journal already; a caller's own list too
            key = outcome.sha256 or outcome.path
            if key not in seen:
                if outcome.status == "duplicate" and wh is not None and since:
                    if recent is None:
                        recent = hashes_loaded_since(wh, since)
                    if outcome.sha256 in recent:
                        outcome = _loaded_since(wh, outcome, since) or outcome
                seen[key] = len(files)
                files.append(outcome)
        kept = [dataclasses.replace(r, reused=False) if r.reused and r.run_id in made else r
                for r in runs]
        return files, kept

    def since(self) -> Since:
        """Where the report before left off: when it was written ("" if no report was), how
        many rows of the trail of actions it had shown, and the rejected folder to list."""
        head = next((r for r in self._records() if "since" in r), {})
        actions = head.get("actions")
        return Since(str(head.get("since", "")),
                     actions if isinstance(actions, int) else None,
                     self.rejected)

    def start(self) -> None:
        """Begin the journal if there is none: what is loaded from now on is unreported."""
        if not self.path.exists():
            self.clear()

    def clear(self) -> None:
        """Empty the journal (after the report that shows it is written), noting when and, once
        :meth:`merged` saw the warehouse, how many rows of the trail of actions it showed."""
        stamp = dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat(sep=" ")
        head: dict[str, object] = {"since": stamp}
        if self._actions is not None:
            head["actions"] = self._actions
        atomic_write(self.path, json.dumps(head, sort_keys=True) + "\n")


def _loaded_since(wh: Warehouse, outcome: FileOutcome, since: str) -> FileOutcome | None:
    """The outcome of the file a duplicate is a copy of, if that file was loaded after
    ``since`` (by a run killed before its report); None otherwise."""
    loaded = loaded_file_since(wh, outcome.sha256, since)
    if loaded is None:
        return None
    warnings = tuple(warning_line(str(i["message"]), str(i.get("where") or ""))
                     for i in loaded.issues if i.get("level") != "info")
    return dataclasses.replace(
        outcome, status=loaded.status, events=loaded.events,  # type: ignore[arg-type]
        replaced_events=loaded.replaced_events, players_created=loaded.players_created,
        waiting=loaded.waiting, warnings=warnings,
        message=f"{outcome.message} (loaded by a run that ended before its report)")


def _plain(outcome: FileOutcome) -> dict[str, object]:
    data = dataclasses.asdict(outcome)
    data["seconds"] = 0.0  # a report's numbers never depend on timing
    return data
