"""Prefect flows: ``ingest_inbox``, ``recompute_ratings``, ``publish_lists`` and ``pipeline``.

Each flow opens the run core (flows/core.py: the run lock, one warehouse connection, one loader
for the run) and its tasks are thin wrappers over the core's operations: the deployments, cron,
the command line and the benchmarks all run the same code under the same lock. Loading is one
task for all the files, whose per-file outcomes are a table artifact, not one task run per file.
Only fetching (the scraper) retries. Without ``PREFECT_API_URL`` the flows run in Prefect's
ephemeral mode (a temporary local server); with it, the same code reports to that server.
"""

from __future__ import annotations

from pathlib import Path

from ._env import configure_prefect

configure_prefect(Path.cwd())  # before prefect is imported; settings already made win

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.artifacts import create_table_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402

from parsers import ParseResult  # noqa: E402

from . import _report, _scrape, _steps  # noqa: E402
from ._config import Config  # noqa: E402
from ._inbox import FileOutcome  # noqa: E402
from .core import Project  # noqa: E402

__all__ = ["ingest_inbox", "pipeline", "publish_lists", "recompute_ratings"]


def _log_outcome(outcome: FileOutcome) -> None:
    (get_run_logger().warning if outcome.status == "rejected" else get_run_logger().info)(
        outcome.message)


@task(cache_policy=NO_CACHE)
def prepare_identity(cfg: Config) -> list[str]:
    return Project.current(cfg).prepare_identity()


@task(cache_policy=NO_CACHE)
def load_files(cfg: Config, files: list[tuple[Path, bool]],
               parsed: list[ParseResult | None] | None = None) -> list[FileOutcome]:
    """The one writer: every file in order, one transaction each; the outcomes as a table."""
    outcomes = Project.current(cfg).ingest(files, parsed=parsed,
                              on_file=lambda k, n, outcome: _log_outcome(outcome))
    if outcomes:
        create_table_artifact(
            key="ingest-outcomes", description="one row per file looked at",
            table=[{"file": Path(o.path).name, "status": o.status, "events": o.events,
                    "new players": o.players_created, "message": o.message}
                   for o in outcomes])
    return outcomes


@task(cache_policy=NO_CACHE, task_run_name="parse {path.name}")
def parse_one(path: Path) -> ParseResult | None:
    return _steps.parse_path(path)


@task(cache_policy=NO_CACHE)
def recompute(cfg: Config) -> list[_steps.PoolRun]:
    return Project.current(cfg).recompute()


@task(cache_policy=NO_CACHE)
def publish(cfg: Config) -> list[Path]:
    return Project.current(cfg).publish()


@task(cache_policy=NO_CACHE)
def scrape_sources(cfg: Config) -> list[str]:
    """Fetch the due pages of sources.toml into the inbox (each request retries inside)."""
    return _scrape.scrape(cfg).lines()


@task(cache_policy=NO_CACHE)
def snapshot(cfg: Config) -> str:
    return Project.current(cfg).snapshot().summary()


def _dask_runner():  # type: ignore[no-untyped-def]
    """A local Dask cluster of worker processes (docs/scale-out.md); imported only when used."""
    import os

    from prefect_dask import DaskTaskRunner

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
        for line in prepare_identity(cfg):
            get_run_logger().info(line)
        return load_files(cfg, project.pending())


@flow(name="ingest_inbox_parallel")
def ingest_parallel(cfg: Config) -> list[FileOutcome]:
    """``ingest_inbox`` with parsing fanned out over the task runner and loading funnelled
    into one writer task (DuckDB has one writer)."""
    with Project.open(cfg, command="flow ingest_inbox") as project:
        for line in prepare_identity(cfg):
            get_run_logger().info(line)
        files = project.pending()
        futures = parse_one.map([path for path, _ in files])
        return load_files(cfg, files, [future.result() for future in futures])


@flow(name="recompute_ratings")
def recompute_ratings(cfg: Config) -> list[_steps.PoolRun]:
    """Rate every configured pool from the warehouse's events in force."""
    with Project.open(cfg, command="flow recompute_ratings") as project:
        runs = recompute(cfg)
    for run in runs:
        get_run_logger().info(run.summary())
    return runs


@flow(name="publish_lists")
def publish_lists(cfg: Config) -> list[Path]:
    """Write the rating lists of every pool's current run."""
    with Project.open(cfg, command="flow publish_lists") as project:
        written = publish(cfg)
    get_run_logger().info("published %d files under %s", len(written), cfg.public)
    return written


@flow(name="pipeline")
def pipeline(cfg: Config) -> dict[str, object]:
    """Scrape, ingest, recompute, publish, report, snapshot: the nightly job, under one lock."""
    with Project.open(cfg, command="flow pipeline") as project:
        if _scrape.has_sources(cfg):  # scrape first, only when sources.toml lists sources
            for line in scrape_sources(cfg):
                (get_run_logger().warning if ": error: " in line else get_run_logger().info)(
                    line)
        steps = _report.RunLog(cfg, "pipeline")  # one JSON line per step: data/logs/runs.jsonl
        outcomes = _report.timed(steps, "ingest", ingest_inbox, cfg)
        review = project.review_summary()
        if review:
            get_run_logger().warning(review)
        runs = _report.timed(steps, "recompute", recompute_ratings, cfg)
        written = _report.timed(steps, "publish", publish_lists, cfg)
        _report.flow_report(project, outcomes, runs)  # public/reports/ and a Markdown artifact
        get_run_logger().info(snapshot(cfg))  # analysts read the copy, never the live file
    return {"files": outcomes, "runs": runs, "published": written, "review": review}
