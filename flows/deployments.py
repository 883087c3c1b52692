"""The deployable flows: the three scheduled jobs as Prefect flows (``prefect.yaml``'s
entrypoints). The same jobs as crontab lines are ``flows/_schedule.py`` (``clubratings schedule
--print-cron``), which imports no Prefect.

Each job first opens the run core (flows/core.py) and so takes the run lock, waiting up to
``wait`` seconds while another run (another deployment, cron, a command) holds it: two jobs
that start together run one after the other, never side by side. The flows they call join the
job's open project.
"""

from __future__ import annotations

from pathlib import Path

from ._env import configure_prefect

configure_prefect(Path.cwd())  # before prefect is imported; settings already made win

from prefect import flow  # noqa: E402

from ._config import load_config  # noqa: E402
from .core import Project, RunResult  # noqa: E402
from .pipeline import pipeline, publish_lists, recompute_ratings  # noqa: E402

__all__ = ["inbox", "nightly", "quarterly"]

WAIT = 3600.0
"""Seconds a scheduled job waits for another run to finish before it gives up (RunLocked)."""


@flow(name="nightly")
def nightly(config: str = "clubratings.toml", wait: float = WAIT) -> str:
    """The nightly job: the whole pipeline (scrape, ingest, recompute, publish)."""
    cfg = load_config(Path(config))
    with Project.open(cfg, command="deployment nightly", wait=wait):
        result = pipeline(cfg)
    return _summary(result)


def _summary(result: RunResult) -> str:
    """One line of what a ``pipeline`` run did: files by status, pools rated, files written."""
    statuses = ", ".join(sorted({o.status for o in result.files})) or "nothing new"
    return (f"{len(result.files)} file(s): {statuses}; {len(result.runs)} pool(s) rated, "
            f"{len(result.published)} file(s) published")


@flow(name="inbox")
def inbox(config: str = "clubratings.toml", wait: float = WAIT) -> str:
    """Every few minutes: load what was dropped into the inbox and, when that changed
    anything, recompute, report and publish: the ``pipeline`` flow without scraping (as
    ``clubratings run --no-scrape``). With nothing new it keeps every rating run and writes
    nothing."""
    cfg = load_config(Path(config))
    with Project.open(cfg, command="deployment inbox", wait=wait):
        result = pipeline(cfg, scrape=False)
    return _summary(result)


@flow(name="quarterly")
def quarterly(config: str = "clubratings.toml", wait: float = WAIT) -> str:
    """Each quarter: recompute every pool, publish the edition, write the snapshot."""
    cfg = load_config(Path(config))
    with Project.open(cfg, command="deployment quarterly", wait=wait) as project:
        runs = recompute_ratings(cfg)
        written = publish_lists(cfg)
        project.snapshot()  # the analysts' copy of what the edition was made from
    return f"{len(runs)} pool(s) rated, {len(written)} file(s) published"
