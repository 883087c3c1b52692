"""Prefect flows: ``ingest_inbox``, ``recompute_ratings``, ``publish_lists`` and ``pipeline``.

Each flow opens the run core (flows/core.py: the run lock, one warehouse connection, one loader
for the run) and its tasks are thin wrappers over the core's operations: the deployments, cron,
the command line and the benchmarks all run the same code under the same lock. Loading is one
task for all the files, whose per-file outcomes are a table artifact, not one task run per file.
Only fetching (the scraper) retries. Without ``PREFECT_API_URL`` the flows run in Prefect's
ephemeral mode (a temporary local server); with it, the same code reports to that server.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ._env import configure_prefect

configure_prefect(Path.cwd())  # before prefect is imported; settings already made win

from prefect import flow, get_run_logger, task, unmapped  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402

from parsers import ParseError, ParseResult  # noqa: E402
from parsers._limits import Limits  # noqa: E402

from . import _steps  # noqa: E402
from ._config import Config  # noqa: E402
from ._inbox import FileOutcome  # noqa: E402
from .core import Project, RunResult  # noqa: E402

__all__ = ["ingest_inbox", "pipeline", "publish_lists", "recompute_ratings"]


def _log_outcome(outcome: FileOutcome) -> None:
    (get_run_logger().warning if outcome.status == "rejected" else get_run_logger().info)(
        outcome.message)


def _load(project: Project, files: list[tuple[Path, bool]] | None = None,
          parsed: list[ParseResult | ParseError | None] | None = None) -> list[FileOutcome]:
    """The loading half of the job (``Project.load``: registers and decisions, then the files
    in order, one transaction each, in the run log), each step a task of the calling flow;
    the outcomes as a table."""
    outcomes, review = project.load(
        files, step=_as_task, on_line=lambda line: get_run_logger().info(line),
        on_file=lambda k, n, outcome: _log_outcome(outcome), parsed=parsed)
    _outcomes_artifact(outcomes)
    if review:
        get_run_logger().warning(review)
    return outcomes


def _outcomes_artifact(outcomes: Sequence[FileOutcome]) -> None:
    """Every file's outcome as one table artifact of the flow run (not a task run per file)."""
    if outcomes:
        create_table_artifact(
            key="ingest-outcomes", description="one row per file looked at",
            table=[{"file": Path(o.path).name, "status": o.status, "events": o.events,
                    "new players": o.players_created, "message": o.message}
                   for o in outcomes])


@task(cache_policy=NO_CACHE, task_run_name="parse {path.name}")
def parse_one(path: Path, limits: Limits) -> ParseResult | ParseError:
    """One file parsed on a Dask worker under the run's ``[limits]``, as ``run`` parses it."""
    return _steps.parse_path(path, limits)


@task(cache_policy=NO_CACHE)
def recompute(cfg: Config) -> list[_steps.PoolRun]:
    return Project.current(cfg).recompute()


@task(cache_policy=NO_CACHE)
def publish(cfg: Config) -> list[Path]:
    return Project.current(cfg).publish()


def _dask_runner():  # type: ignore[no-untyped-def]
    """A local Dask cluster of worker processes (docs/scale-out.md); imported only when used."""
    import os

    from prefect_dask import DaskTaskRunner

    import dask

    # a worker parses each file in a child process with the run's time and memory limits
    # (flows/_parsing.py), which a daemonic worker process may not start
    dask.config.set({"distributed.worker.daemon": False})
    workers = max(1, min(4, os.cpu_count() or 1))
    return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1,
                                          "dashboard_address": None})


@flow(name="ingest_inbox")
def ingest_inbox(cfg: Config) -> list[FileOutcome]:
    """Load the registers and decisions, then the configured source files and everything
    waiting in the inbox."""
    if cfg.task_runner == "dask":  # [run] task_runner: parse in parallel, one writer
        return ingest_parallel.with_options(task_runner=_dask_runner())(cfg)
    with Project.open(cfg, command="flow ingest_inbox") as project:
        return _load(project)


@flow(name="ingest_inbox_parallel")
def ingest_parallel(cfg: Config) -> list[FileOutcome]:
    """``ingest_inbox`` with parsing fanned out over the task runner and loading funnelled
    into one writer task (DuckDB has one writer)."""
    with Project.open(cfg, command="flow ingest_inbox") as project:
        files = project.pending()
        new = project.new_files(files)  # files loaded before are not parsed again
        futures = parse_one.map([files[i][0] for i in new], unmapped(cfg.limits))
        parsed: list[ParseResult | ParseError | None] = [None] * len(files)
        for i, future in zip(new, futures, strict=True):
            parsed[i] = future.result()
        return _load(project, files, parsed)


@flow(name="recompute_ratings")
def recompute_ratings(cfg: Config) -> list[_steps.PoolRun]:
    """Rate every configured pool from the warehouse's events in force."""
    with Project.open(cfg, command="flow recompute_ratings"):
        runs = recompute(cfg)
    for run in runs:
        get_run_logger().info(run.summary())
    return runs


@flow(name="publish_lists")
def publish_lists(cfg: Config) -> list[Path]:
    """Write the rating lists of every pool's current run."""
    with Project.open(cfg, command="flow publish_lists"):
        written = publish(cfg)
    get_run_logger().info("published %d files under %s", len(written), cfg.public)
    return written


def _as_task(name: str, func: Callable[[], Any]) -> Any:
    """One step of the run core's job as a Prefect task of the calling flow."""
    return task(func, name=name, task_run_name=name, cache_policy=NO_CACHE)()


@flow(name="pipeline")
def pipeline(cfg: Config, scrape: bool = True) -> RunResult:
    """Scrape, ingest, recompute, publish, report, snapshot: the nightly job, under one lock.

    The steps and their order are the run core's (:meth:`flows.core.Project.run`, the same
    code ``clubratings run`` calls without a Prefect server); here each step is a task, every
    file's outcome is logged, and the outcomes and the import report become artifacts.
    ``scrape=False`` (the inbox job, ``clubratings run --no-scrape``) fetches nothing."""
    def step(name: str, func: Callable[[], Any]) -> Any:
        if name == "ingest" and cfg.task_runner == "dask":  # parse on the Dask workers
            return ingest_parallel.with_options(task_runner=_dask_runner())(cfg)
        return _as_task(name, func)

    with Project.open(cfg, command="flow pipeline") as project:
        result = project.run(step=step, on_file=lambda k, n, outcome: _log_outcome(outcome),
                             scrape=scrape)
    for line in result.scraped:
        (get_run_logger().warning if ": error: " in line else get_run_logger().info)(line)
    _outcomes_artifact(result.files)
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    create_markdown_artifact(
        key="import-report", markdown=result.report.markdown(generated_at=now),
        description=f"{result.report.report_id}: files, clubs, names waiting, events not rated")
    for run in result.runs:
        get_run_logger().info(run.summary())
    if result.review:
        get_run_logger().warning(result.review)
    return result
