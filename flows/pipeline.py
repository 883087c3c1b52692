"""Prefect flows: ``ingest_inbox``, ``recompute_ratings``, ``publish_lists`` and ``pipeline``.

Tasks are thin wrappers over ``flows._steps``; only reading a file (I/O) is retried. Without
``PREFECT_API_URL`` the flows run in Prefect's ephemeral mode (a temporary local server); with
it, the same code reports to that server.
"""

from __future__ import annotations

from pathlib import Path

from ._env import configure_prefect

configure_prefect(Path.cwd())  # before prefect is imported; settings already made win

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from parsers import ParseResult
from warehouse import open_warehouse

from . import _report, _scrape, _steps
from ._config import Config, PoolConfig
from ._inbox import FileOutcome

__all__ = ["ingest_inbox", "pipeline", "publish_lists", "recompute_ratings"]


@task(cache_policy=NO_CACHE, retries=2, retry_delay_seconds=1)
def list_files(cfg: Config) -> list[tuple[Path, bool]]:
    return _steps.pending_files(cfg)


@task(cache_policy=NO_CACHE, task_run_name="ingest {path.name}")
def ingest_one(cfg: Config, path: Path, from_inbox: bool) -> FileOutcome:
    return _steps.ingest_path(cfg, path, from_inbox)


@task(cache_policy=NO_CACHE, task_run_name="rate {pool.name}")
def rate_one(cfg: Config, pool: PoolConfig) -> _steps.PoolRun:
    with open_warehouse(cfg.warehouse) as wh:
        return _steps.rate_pool(wh, pool)


@task(cache_policy=NO_CACHE, task_run_name="publish {pool.name}")
def publish_one(cfg: Config, pool: PoolConfig) -> list[Path]:
    with open_warehouse(cfg.warehouse) as wh:
        return _steps.publish(wh, cfg, pool)


@task(cache_policy=NO_CACHE)
def prepare_identity(cfg: Config) -> list[str]:
    return _steps.prepare_identity(cfg)


@task(cache_policy=NO_CACHE)
def scrape_sources(cfg: Config) -> list[str]:
    """Fetch the due pages of sources.toml into the inbox (each request retries inside)."""
    return _scrape.scrape(cfg).lines()


@task(cache_policy=NO_CACHE)
def snapshot(cfg: Config) -> str:
    with open_warehouse(cfg.warehouse) as wh:
        return _steps.snapshot(wh, cfg).summary()


@flow(name="ingest_inbox")
def ingest_inbox(cfg: Config) -> list[FileOutcome]:
    """Load the registers and decisions, then the configured source files and everything
    waiting in the inbox, file by file."""
    if cfg.task_runner == "dask":  # [run] task_runner: parse in parallel, one writer
        return ingest_parallel.with_options(task_runner=_dask_runner())(cfg)
    log = get_run_logger()
    for line in prepare_identity(cfg):
        log.info(line)
    outcomes = []
    for path, from_inbox in list_files(cfg):
        outcome = ingest_one(cfg, path, from_inbox)
        (log.warning if outcome.status == "rejected" else log.info)(outcome.message)
        outcomes.append(outcome)
    return outcomes


@task(cache_policy=NO_CACHE, task_run_name="parse {path.name}")
def parse_one(path: Path) -> ParseResult | None:
    return _steps.parse_path(path)


@task(cache_policy=NO_CACHE)
def load_all(cfg: Config, files: list[tuple[Path, bool]],
             parsed: list[ParseResult | None]) -> list[FileOutcome]:
    """The one writer: load the parsed files serially, in order, in this process."""
    return [_steps.load_parsed(cfg, path, from_inbox, result)
            for (path, from_inbox), result in zip(files, parsed, strict=True)]


def _dask_runner():  # type: ignore[no-untyped-def]
    """A local Dask cluster of worker processes (docs/scale-out.md); imported only when used."""
    import os

    from prefect_dask import DaskTaskRunner

    workers = max(1, min(4, os.cpu_count() or 1))
    return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1,
                                          "dashboard_address": None})


@flow(name="ingest_inbox_parallel")
def ingest_parallel(cfg: Config) -> list[FileOutcome]:
    """``ingest_inbox`` with parsing fanned out over the task runner and loading funnelled
    into one writer task (DuckDB has one writer)."""
    log = get_run_logger()
    for line in prepare_identity(cfg):
        log.info(line)
    files = list_files(cfg)
    futures = parse_one.map([path for path, _ in files])
    outcomes = load_all(cfg, files, [future.result() for future in futures])
    for outcome in outcomes:
        (log.warning if outcome.status == "rejected" else log.info)(outcome.message)
    return outcomes


@flow(name="recompute_ratings")
def recompute_ratings(cfg: Config) -> list[_steps.PoolRun]:
    """Rate every configured pool from the warehouse's events in force."""
    log = get_run_logger()
    runs = []
    for pool in cfg.pools:
        run = rate_one(cfg, pool)
        log.info(run.summary())
        runs.append(run)
    return runs


@flow(name="publish_lists")
def publish_lists(cfg: Config) -> list[Path]:
    """Write the rating lists of every pool's latest run."""
    written: list[Path] = []
    for pool in cfg.pools:
        written.extend(publish_one(cfg, pool))
    get_run_logger().info("published %d files under %s", len(written), cfg.public)
    return written


@flow(name="pipeline")
def pipeline(cfg: Config) -> dict[str, object]:
    """Ingest, recompute, publish: the nightly job."""
    if _scrape.has_sources(cfg):  # scrape first, only when sources.toml lists sources
        for line in scrape_sources(cfg):
            (get_run_logger().warning if ": error: " in line else get_run_logger().info)(line)
    steps = _report.RunLog(cfg, "pipeline")  # one JSON line per step: data/logs/runs.jsonl
    outcomes = _report.timed(steps, "ingest", ingest_inbox, cfg)
    review = _steps.review_summary(cfg)
    if review:
        get_run_logger().warning(review)
    runs = _report.timed(steps, "recompute", recompute_ratings, cfg)
    written = _report.timed(steps, "publish", publish_lists, cfg)
    _report.flow_report(cfg, outcomes, runs)  # public/reports/ and a Markdown artifact
    get_run_logger().info(snapshot(cfg))  # analysts read the copy, never the live file
    return {"files": outcomes, "runs": runs, "published": written, "review": review}
