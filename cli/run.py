"""``clubratings run``, ``ingest``, ``recompute`` and ``publish``: the pipeline's commands over the
run core (flows/core.py), each holding the run lock once for the whole command.

``run`` goes through the Prefect flow ``pipeline`` when a Prefect server is configured (or
``--prefect``); the flow joins the project this command opened.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._common import Exit, config_parent, fail, load_config, locked, wait_parent

if TYPE_CHECKING:
    from flows import Config
    from flows.core import Project, RunResult

__all__ = ["add_run_commands", "cmd_ingest", "cmd_publish", "cmd_recompute", "cmd_run",
           "through_prefect"]


# ---------------------------------------------------------------- pipeline

def _print_summary(result: RunResult, *, files_printed: bool) -> None:
    counts: dict[str, int] = {}
    for outcome in result.files:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
        if not files_printed:
            print(outcome.message)
    for run in result.runs:
        print(run.summary())
    for line in result.report.not_rated:
        print(line)
    parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no files"
    print(f"files: {parts}; published {len(result.published)} files")
    for warning in result.warnings:
        print(warning)
    if result.review:
        print(result.review)


def through_prefect(cfg: Config, *, asked: bool = False) -> bool:
    """Whether ``clubratings run`` runs as the Prefect ``pipeline`` flow: when asked
    (``--prefect``, or ``[run] prefect = "always"``), or, with the default ``"auto"``, when a
    Prefect server is configured (``PREFECT_API_URL`` in the environment or in the active
    profile of ``PREFECT_HOME``), so the run is recorded where someone can see it. Otherwise the
    run core does the same steps in this process: a temporary Prefect server would cost 10-25 s
    a run and keep a record nobody reads (README, "Prefect")."""
    if asked or cfg.prefect == "always":
        return True
    if cfg.prefect == "never":
        return False
    if os.environ.get("PREFECT_API_URL"):
        return True
    return bool(_profile_api_url(Path(os.environ.get("PREFECT_HOME") or
                                      cfg.root / ".prefect")))


def _profile_api_url(home: Path) -> str | None:
    """``PREFECT_API_URL`` of the active profile in ``home/profiles.toml``, if set."""
    import tomllib

    try:
        data = tomllib.loads((home / "profiles.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    active = data.get("active", "ephemeral")
    profile = data.get("profiles", {}).get(active, {})
    url = profile.get("PREFECT_API_URL") if isinstance(profile, dict) else None
    return str(url) if url else None


def cmd_run(args: argparse.Namespace) -> int:
    from flows import configure_prefect, summary_line

    cfg = load_config(args.config)
    with locked(args, cfg) as project:
        if getattr(args, "verbose", False):
            os.environ["PREFECT_LOGGING_LEVEL"] = "INFO"
        configure_prefect(cfg.root)
        started = time.perf_counter()
        if through_prefect(cfg, asked=args.prefect):
            from flows import watch_children
            from flows.pipeline import pipeline

            watch_children()  # Prefect's temporary server must not outlive a run killed outright
            result = pipeline(cfg, scrape=not args.no_scrape)  # joins the project open here
            for line in result.scraped:
                print(line)
            _print_summary(result, files_printed=False)
        else:
            result = _run_here(project, scrape=not args.no_scrape)
            _print_summary(result, files_printed=True)
        print(summary_line("run", time.perf_counter() - started, files=result.files,
                           runs=result.runs, published=result.published))
    return Exit.FAILED if result.rejected else Exit.OK


def _run_here(project: Project, *, scrape: bool = True) -> RunResult:
    """The nightly job through the run core in this process (no Prefect): each fetched URL
    and each file printed as it is done. ``scrape=False`` (``--no-scrape``, the inbox job)
    fetches nothing: it loads the sources and the inbox, and recomputes, reports and publishes
    only what that changed (a run with nothing new writes nothing)."""
    from flows import FileOutcome

    def step(name: str, func: Callable[[], Any]) -> Any:
        result = func()
        if name == "scrape":
            for line in result:
                print(line)
        return result

    def line(k: int, n: int, outcome: FileOutcome) -> None:
        print(f"{k:>{len(str(n))}}/{n} {outcome.message}")

    return project.run(step=step, on_file=line, command="run", scrape=scrape)


def cmd_ingest(args: argparse.Namespace) -> int:
    from flows import FileOutcome, RunLog, progress, summary_line

    with locked(args, load_config(args.config)) as project:
        log = RunLog(project.cfg, "ingest")  # data/logs/runs.jsonl
        files = project.pending()
        width = len(str(len(files)))
        with progress(len(files), "loading files") as advance:
            def line(k: int, n: int, outcome: FileOutcome) -> None:
                advance()
                print(f"{k:>{width}}/{n} {outcome.message}")

            outcomes, review = project.load(files, log=log, on_line=print, on_file=line)
        if review:
            print(review)
        print(summary_line("ingest", log.elapsed(), files=outcomes))
    return Exit.FAILED if any(o.status == "rejected" for o in outcomes) else Exit.OK


def cmd_recompute(args: argparse.Namespace) -> int:
    import ratings
    from flows import RunLog, not_rated_lines, summary_line
    from warehouse.reporting import events_not_rated

    with locked(args, load_config(args.config)) as project:
        log = RunLog(project.cfg, "recompute")  # data/logs/runs.jsonl
        with log.step("recompute") as counts:
            try:
                runs = project.recompute()
            except ratings.RatingError as exc:
                fail(str(exc))
            for run in runs:
                print(run.summary())
            for line in not_rated_lines(events_not_rated(
                    project.wh, [r.run_id for r in runs if r.run_id is not None])):
                print(line)
            counts.update(pools=len(runs), new=sum(1 for r in runs if r.run_id and not r.reused),
                          kept=sum(1 for r in runs if r.reused))
        print(summary_line("recompute", log.elapsed(), runs=runs))
    return Exit.OK


def cmd_publish(args: argparse.Namespace) -> int:
    from flows import RunLog, summary_line

    with locked(args, load_config(args.config)) as project:
        cfg = project.cfg
        log = RunLog(cfg, "publish")  # data/logs/runs.jsonl
        with log.step("publish") as counts:
            written = project.publish()
            for pool in cfg.pools:
                n = sum(1 for p in written if cfg.public / pool.name in p.parents)
                print(f"{pool.name}: {n} files under {cfg.public / pool.name}")
            counts["files"] = len(written)
            print(project.snapshot().summary())
        print(summary_line("publish", log.elapsed(), published=written))
    return Exit.OK


# ---------------------------------------------------------------- parser

def add_run_commands(sub: Any) -> None:
    """Register ``run``, ``ingest``, ``recompute`` and ``publish`` on the CLI's sub-parsers."""
    config = config_parent()
    wait = wait_parent()
    p = sub.add_parser(
        "run", parents=[config, wait],
        help="scrape, ingest sources and inbox, recompute ratings, publish lists, report",
        description="Run the whole nightly job: scrape (when sources.toml lists sources), "
        "ingest, recompute, publish, the import report and the snapshot. With a Prefect "
        "server configured (PREFECT_API_URL) or --prefect it runs as the Prefect flow "
        "'pipeline', recorded by that server; otherwise the same steps run here without "
        "Prefect ([run] prefect in clubratings.toml: auto, always or never).",
    )
    p.add_argument("--prefect", action="store_true",
                   help="run as the Prefect flow even without a configured server (Prefect "
                   "then starts a temporary local one, 10-25 s)")
    p.add_argument("--no-scrape", action="store_true",
                   help="fetch nothing: load the sources and the inbox, then recompute, report "
                   "and publish (the inbox job; with nothing new it writes nothing)")
    p.add_argument("--verbose", action="store_true",
                   help="with Prefect: show its own log lines (INFO); by default only warnings")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("ingest", parents=[config, wait],
                       help="load configured sources and inbox files (no Prefect)")
    p.set_defaults(func=cmd_ingest)
    p = sub.add_parser("recompute", parents=[config, wait],
                       help="rate every pool from the warehouse (no Prefect)")
    p.set_defaults(func=cmd_recompute)
    p = sub.add_parser("publish", parents=[config, wait],
                       help="write CSV/HTML lists of every pool's latest run (no Prefect)")
    p.set_defaults(func=cmd_publish)
