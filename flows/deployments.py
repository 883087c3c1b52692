"""The deployable flows: the three scheduled jobs as Prefect flows (``prefect.yaml``'s
entrypoints). The same jobs as crontab lines are ``flows/_schedule.py`` (``clubratings schedule
--print-cron``), which imports no Prefect.
"""

from __future__ import annotations

from pathlib import Path

from ._env import configure_prefect

configure_prefect(Path.cwd())  # before prefect is imported; settings already made win

from prefect import flow  # noqa: E402

from ._config import load_config  # noqa: E402
from .pipeline import ingest_inbox, pipeline, publish_lists, recompute_ratings  # noqa: E402

__all__ = ["inbox", "nightly", "quarterly"]



@flow(name="nightly")
def nightly(config: str = "clubratings.toml") -> str:
    """The nightly job: the whole pipeline (scrape, ingest, recompute, publish)."""
    result = pipeline(load_config(Path(config)))
    files, runs, published = result["files"], result["runs"], result["published"]
    assert isinstance(files, list) and isinstance(runs, list) and isinstance(published, list)
    return f"{len(files)} file(s), {len(runs)} pool(s) rated, {len(published)} file(s) published"


@flow(name="inbox")
def inbox(config: str = "clubratings.toml") -> str:
    """Every few minutes: load what was dropped into the inbox."""
    outcomes = ingest_inbox(load_config(Path(config)))
    statuses = sorted({o.status for o in outcomes})
    return f"{len(outcomes)} file(s): {', '.join(statuses) or 'nothing new'}"


@flow(name="quarterly")
def quarterly(config: str = "clubratings.toml") -> str:
    """Each quarter: recompute every pool and publish the edition."""
    cfg = load_config(Path(config))
    runs = recompute_ratings(cfg)
    written = publish_lists(cfg)
    return f"{len(runs)} pool(s) rated, {len(written)} file(s) published"
