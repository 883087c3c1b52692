"""What a run did, for the people who send files: the import report, run logs and progress.

- ``build_report``: per run and per club (organiser), the files loaded, replaced, rejected (with
  the reason), players created, names waiting for review, events not rated and why, and the
  results the latest rating runs did not count, grouped by reason. Rendered as Markdown (the
  Prefect artifact, ``public/reports/<id>.md``) and HTML (``<id>.html``, ``latest.html``).
  Named after the rating run, not the clock: the same inputs give the same bytes.
- ``RunLog``: one JSON line per step in ``data/logs/runs.jsonl`` (time, command, step, counts,
  duration) and the one-line summary printed at the end of a run.
- ``track``: a progress bar when output goes to a terminal, plain iteration otherwise.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from warehouse import Warehouse, atomic_write, file_sha256
from warehouse.reporting import (
    loaded_file_since, not_counted, organisers_by_file, organisers_of_path, organisers_of_sha,
    unrated_events, versions_loaded, waiting_by_club,
)
from warehouse.review import open_items

from ._config import Config
from ._inbox import FileOutcome, warning_line

__all__ = [
    "ImportReport",
    "RunLog",
    "Section",
    "Unreported",
    "build_report",
    "file_counts",
    "progress",
    "logs_dir",
    "summary_line",
    "timed",
    "track",
    "write_report",
]

T = TypeVar("T")
R = TypeVar("R")
NOT_READ = "(file not read)"


class _PoolRun(Protocol):
    pool: str
    run_id: int | None
    reused: bool


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
                 runs: Sequence[_PoolRun] | None = None,
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


# ------------------------------------------------------------------ the import report

@dataclass(frozen=True, slots=True)
class Section:
    """A heading, a few lines of text and an optional table (header, rows)."""

    title: str
    lines: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class ImportReport:
    report_id: str
    """``run-<newest rating run id>-<content hash>``: stable for the same inputs."""
    title: str
    sections: tuple[Section, ...]
    quiet: bool
    """Nothing loaded, replaced or rejected and no new rating run: no report file is written."""
    clubs: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per organiser: files, loaded, correction, duplicate, same, rejected, events_replaced,
    players_created, waiting, unrated."""

    def markdown(self, *, generated_at: str | None = None) -> str:
        return _markdown(self.title, self.sections, generated_at)

    def html(self, *, generated_at: str | None = None) -> str:
        return _html(self.title, self.sections, generated_at)


def _file_organisers(wh: Warehouse, outcome: FileOutcome,
                     by_sha: dict[str, list[str]] | None = None) -> list[str]:
    """The organisers of a file's events: by its bytes (where it is now), else by its path."""
    if outcome.status == "rejected":
        return []
    if outcome.sha256 and by_sha is not None and outcome.sha256 in by_sha:
        return by_sha[outcome.sha256]
    for candidate in (outcome.moved_to, outcome.path):
        if candidate and Path(candidate).is_file():
            found = organisers_of_sha(wh, file_sha256(Path(candidate).read_bytes()))
            if found:
                return found
    return organisers_of_path(wh, outcome.path)


def _day(value: object) -> str:
    """A date as ``YYYY-MM-DD`` (DuckDB dates arrive as timestamps in a frame)."""
    if value is None or str(value) in ("NaT", "nan"):
        return "-"
    return str(value)[:10]


def _reason(outcome: FileOutcome) -> str:
    _, sep, reason = outcome.message.partition(": rejected: ")
    return reason if sep else outcome.message


def _runs_line(runs: Sequence[_PoolRun]) -> str:
    parts = [f"{r.pool} run {r.run_id} ({'kept: inputs unchanged' if r.reused else 'new'})"
             if r.run_id is not None else f"{r.pool}: no events to rate" for r in runs]
    return "Rating runs: " + ("; ".join(parts) if parts else "none") + "."


def _version_rows(wh: Warehouse, outcomes: Sequence[FileOutcome],
                  since: str) -> list[tuple[str, ...]]:
    """The new versions this run loaded, and what people did to files since ``since``."""
    from warehouse.history import actions_since

    rows: list[tuple[str, ...]] = []
    shas = [o.sha256 for o in outcomes if o.sha256 and o.status not in ("duplicate",
                                                                        "rejected")]
    for name, file_id, previous, hold in versions_loaded(wh, shas):
        what = (f"new version of file {previous}, HELD: {hold} (clubratings review "
                f"--resolve version:{file_id})" if hold else
                f"new version of file {previous}, which it supersedes")
        rows.append(("this run", f"{name} (file {file_id})", what))
    for action in actions_since(wh, since or None):
        rows.append((f"{action.at:%Y-%m-%d %H:%M}", f"{action.name} (file {action.file_id})",
                     action.action + (f" by {action.by}" if action.by else "")
                     + (f": {action.note}" if action.note else "")))
    return rows


def build_report(wh: Warehouse, outcomes: Sequence[FileOutcome],
                 runs: Sequence[_PoolRun], since: str = "") -> ImportReport:
    """The report of one run: the files it looked at, the rating runs it made or kept; the
    versions it loaded and what people did to files ``since`` the report before."""
    clubs: dict[str, dict[str, int]] = {}
    files_by_club: dict[str, list[tuple[str, ...]]] = {}

    def club(name: str) -> dict[str, int]:
        return clubs.setdefault(name, dict.fromkeys(
            ("files", "loaded", "correction", "duplicate", "same", "rejected",
             "events_replaced", "players_created", "waiting", "unrated"), 0))

    rejected_rows: list[tuple[str, ...]] = []
    warning_rows: list[tuple[str, ...]] = []
    same_rows: list[tuple[str, ...]] = []
    by_sha = organisers_by_file(wh) if outcomes else {}
    for outcome in outcomes:
        name = Path(outcome.path).name
        organisers = _file_organisers(wh, outcome, by_sha) or [NOT_READ]
        owner = organisers[0]  # a file's counts go to its first organiser
        counts = club(owner)
        counts["files"] += 1
        counts[outcome.status] += 1
        counts["events_replaced"] += len(outcome.replaced_events)
        counts["players_created"] += outcome.players_created
        waiting = ", ".join(sorted({n for n, _ in outcome.waiting}))
        if outcome.status != "duplicate":  # duplicates only as a count (per club, overview)
            files_by_club.setdefault(owner, []).append((
                name, outcome.status, str(outcome.events), str(len(outcome.replaced_events)),
                str(outcome.players_created), waiting or "-"))
        if outcome.status == "rejected":
            rejected_rows.append((name, _reason(outcome)))
        if outcome.same_as:
            same_rows.append((name, "same results as " + ", ".join(outcome.same_as)))
        warning_rows.extend((name, text) for text in outcome.warnings)

    items = open_items(wh)
    waiting_rows = sorted((  # by first date and key: the same warehouse, the same report
        (str(r.item_key), str(r.name_as_written), str(r.club or "-"), str(r.first_event or "-"),
         _day(r.first_date), str(int(r.occurrences)))
        for r in items.itertuples(index=False)), key=lambda row: (row[4], row[0]))
    unrated = unrated_events(wh)
    unrated_rows = []
    for r in unrated.itertuples(index=False):
        club(str(r.organiser))["unrated"] += 1
        unrated_rows.append((str(r.organiser), _day(r.event_date), str(r.title),
                             str(r.section) or "-",
                             str(r.review_keys).replace("held: ", "held for confirmation: ")
                             if str(r.review_keys).startswith("held: ") else
                             f"waiting for review: {r.waiting_names} ({r.review_keys})"))
    for r in waiting_by_club(wh).itertuples(index=False):
        club(str(r.organiser))["waiting"] = int(r.n)

    run_ids = [r.run_id for r in runs if r.run_id is not None]
    pools = {r.run_id: r.pool for r in runs if r.run_id is not None}
    not_counted_rows: list[tuple[str, ...]] = []
    if run_ids:
        frame = not_counted(wh, run_ids)
        not_counted_rows = [
            (pools[int(r.run_id)], str(int(r.run_id)), str(r.organiser), str(r.reason) or "-",
             str(int(r.n_rows)), str(int(r.n_events)))
            for r in frame.itertuples(index=False)]

    counts = file_counts(outcomes)
    totals = ", ".join(f"{n} {s}" for s, n in counts.items())
    overview = Section("Overview", (
        _runs_line(runs),
        f"Files: {len(outcomes)}" + (f" ({totals})" if totals else "") + "; players created: "
        f"{sum(o.players_created for o in outcomes)}; names waiting for review: "
        f"{len(waiting_rows)}; events not rated: {len(unrated_rows)}.",
    ))
    per_club = Section(
        "Per club",
        header=("club", "files", "loaded", "corrections", "duplicates", "same results",
                "rejected", "events replaced", "players created", "names waiting",
                "events not rated"),
        rows=tuple((name, *(str(c[k]) for k in (
            "files", "loaded", "correction", "duplicate", "same", "rejected", "events_replaced",
            "players_created", "waiting", "unrated")))
            for name, c in sorted(clubs.items())))
    sections = [overview, per_club]
    for name in sorted(files_by_club):
        sections.append(Section(
            f"Files: {name}",
            header=("file", "status", "events", "events replaced", "players created",
                    "names waiting"),
            rows=tuple(files_by_club[name])))
    sections.append(_table_or_none(
        "Rejected files", ("file", "reason"), rejected_rows,
        "Nothing from a rejected file was loaded; its reason is also in "
        "inbox/rejected/<file>.reason.txt.", "No file was rejected."))
    sections.append(_table_or_none(
        "Same results written twice", ("file", "what it writes again"), same_rows,
        "The same night from another file (a web page beside its text report, another "
        "program's export): kept as a second rendering, not counted again "
        "(docs/rules/inputs.md).", "No file repeated results already loaded."))
    version_rows = _version_rows(wh, outcomes, since)
    sections.append(_table_or_none(
        "Versions, withdrawals and answers", ("when", "file", "what"), version_rows,
        "A new version of a file supersedes the version before it; `clubratings files history "
        "NAME` shows every version (docs/rules/inputs.md, \"Versions of a file\").",
        "No new version of a file, and nothing withdrawn, restored, released or answered."))
    sections.append(_table_or_none(
        "Warnings from reading the files", ("file", "warning"), warning_rows,
        "The file was loaded; the parser worked around these. Check that it read what the "
        "club meant.", "No file loaded with a warning."))
    sections.append(_table_or_none(
        "Names waiting for review",
        ("review key", "name as written", "club", "first event", "date", "occurrences"),
        waiting_rows, "Answer them with `clubratings review`.", "No name waits for review."))
    sections.append(_table_or_none(
        "Events not rated", ("organiser", "date", "event", "section", "why"), unrated_rows,
        "Loaded, but left out of every rating until the names are answered.",
        "Every event in force is rated."))
    sections.append(_table_or_none(
        "Results not counted by the rating runs",
        ("pool", "run", "club", "reason", "rows", "events"), not_counted_rows,
        "Rows of the rating runs' contributions with counted = false, by reason.",
        "Every result of the rating runs counted."))

    title = "Import report"
    body = _markdown(title, tuple(sections), None)
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:8]
    report_id = (f"run-{max(run_ids):04d}-{digest}" if run_ids else f"files-{digest}")
    quiet = (all(o.status == "duplicate" for o in outcomes) and not version_rows
             and all(r.reused or r.run_id is None for r in runs))
    return ImportReport(report_id, f"{title} {report_id}", tuple(sections), quiet, clubs)


def _table_or_none(title: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]],
                   note: str, empty: str) -> Section:
    if not rows:
        return Section(title, (empty,))
    return Section(title, (note,), header, tuple(rows))


# ------------------------------------------------------------------ rendering

def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _markdown(title: str, sections: Sequence[Section], generated_at: str | None) -> str:
    out = [f"# {title}", ""]
    if generated_at:
        out += [f"Generated {generated_at}.", ""]
    for s in sections:
        out += [f"## {s.title}", ""]
        out += [line for text in s.lines for line in (text, "")]
        if s.header:
            out.append("| " + " | ".join(_md_cell(h) for h in s.header) + " |")
            out.append("|" + "|".join("---" for _ in s.header) + "|")
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in s.rows]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _html(title: str, sections: Sequence[Section], generated_at: str | None) -> str:
    """The report as a page of the site (publishing.report_page: its style, escaped)."""
    from publishing import report_page

    return report_page(title, sections, generated_at)


def write_report(report: ImportReport, public: Path) -> Path | None:
    """``public/reports/<id>.md|.html`` and ``latest.html``; a quiet run writes nothing (so a
    repeated run leaves every published byte as it was). Returns the Markdown file."""
    if report.quiet:
        return None
    folder = public / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / f"{report.report_id}.md"
    page = report.html()
    atomic_write(md, report.markdown())
    atomic_write(folder / f"{report.report_id}.html", page)
    atomic_write(folder / "latest.html", page)
    return md


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

class Unreported:
    """What runs did that no import report has shown yet: ``data/logs/unreported.jsonl``.

    Each file's outcome is written as the file is done, each rating run as it is made; the
    report takes them all and the journal is emptied once the report is written. A run killed
    before its report leaves its files and rating runs here, and the next report shows them:
    the files it loaded (which the next run finds already loaded) are not lost from the
    reports, nor the rating runs it made (which the next run keeps)."""

    def __init__(self, cfg: Config) -> None:
        self.path = logs_dir(cfg) / "unreported.jsonl"

    def _append(self, record: dict[str, object]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")

    def file(self, outcome: FileOutcome) -> None:
        """Note a file's outcome (a duplicate only counts in its own run's report)."""
        if outcome.status != "duplicate":
            self._append({"file": _plain(outcome)})

    def runs(self, runs: Sequence[_PoolRun]) -> None:
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

    def merged(self, outcomes: Sequence[FileOutcome], runs: Sequence[_PoolRun],
               wh: Warehouse | None = None) -> tuple[list[FileOutcome], list[_PoolRun]]:
        """This run's ``outcomes`` and ``runs`` with what earlier, unreported runs did: a file
        an earlier run loaded counts as loaded (not as this run's duplicate of it), a rating
        run an earlier run made counts as new. A file this run finds already loaded, loaded
        since the last report by a run killed before it could note the file (``wh``: the
        warehouse says when), counts as loaded too."""
        files: list[FileOutcome] = []
        seen: dict[str, int] = {}
        made: set[int] = set()
        since = ""
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
        for outcome in outcomes:  # normally in the journal already; a caller's own list too
            key = outcome.sha256 or outcome.path
            if key not in seen:
                if outcome.status == "duplicate" and wh is not None and since:
                    outcome = _loaded_since(wh, outcome, since) or outcome
                seen[key] = len(files)
                files.append(outcome)
        kept = [dataclasses.replace(r, reused=False) if r.reused and r.run_id in made else r
                for r in runs]
        return files, kept

    def since(self) -> str:
        """When the report before was written ("" if no report was)."""
        return next((str(r["since"]) for r in self._records() if "since" in r), "")

    def start(self) -> None:
        """Begin the journal if there is none: what is loaded from now on is unreported."""
        if not self.path.exists():
            self.clear()

    def clear(self) -> None:
        """Empty the journal (after the report that shows it is written), noting when."""
        stamp = dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat(sep=" ")
        atomic_write(self.path, json.dumps({"since": stamp}) + "\n")


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
