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

from warehouse import open_warehouse

from . import _steps
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


@flow(name="ingest_inbox")
def ingest_inbox(cfg: Config) -> list[FileOutcome]:
    """Load the registers and decisions, then the configured source files and everything
    waiting in the inbox, file by file."""
    log = get_run_logger()
    for line in prepare_identity(cfg):
        log.info(line)
    outcomes = []
    for path, from_inbox in list_files(cfg):
        outcome = ingest_one(cfg, path, from_inbox)
        (log.warning if outcome.status == "rejected" else log.info)(outcome.message)
        outcomes.append(outcome)
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
    outcomes = ingest_inbox(cfg)
    review = _steps.review_summary(cfg)
    if review:
        get_run_logger().warning(review)
    runs = recompute_ratings(cfg)
    written = publish_lists(cfg)
    return {"files": outcomes, "runs": runs, "published": written, "review": review}
