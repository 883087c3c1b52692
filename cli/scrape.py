"""``clubratings scrape``: fetch the configured club pages, then load what was fetched.

    scrape [--config FILE] [--dry-run] [--all] [--fetch-only] [--wait SECONDS]

The fetching is :func:`flows.scrape`, the scraper (scraping/) over the project's sources file
and inbox (pages land in the inbox under stable names; a discovery source's index pages are read
for the links to fetch); loading is the inbox's own ingest, file by file, as ``clubratings
ingest`` does it. The report has a line per URL, then per discovery source a line of counts.
See docs/scraping.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ._common import Exit, add_wait_option, config_parent, fail, load_config, locked

__all__ = ["add_scrape_commands", "cmd_scrape"]


def cmd_scrape(args: argparse.Namespace) -> int:
    """Fetch due sources into the inbox and load the fetched pages; exit 1 when a URL ended
    in an error or a fetched page was rejected."""
    from flows import ScrapeConfigError, load_sources, scrape

    cfg = load_config(args.config)
    try:
        settings = load_sources(cfg, config_file=args.config)
    except ScrapeConfigError as exc:
        fail(str(exc))
    if settings.path is None:
        fail("no sources file (sources.toml beside clubratings.toml, or [paths] scrape); "
             "see docs/scraping.md")
    report = scrape(cfg, settings, dry_run=args.dry_run, ignore_schedule=args.all)
    for line in report.lines():
        print(line)
    status = Exit.FAILED if report.errors else Exit.OK
    if args.dry_run or args.fetch_only or not report.written:
        return status
    return _load(args, cfg, report.written, status)


def _load(args: argparse.Namespace, cfg: Any, written: list[Path], status: Exit) -> int:
    """Load the fetched pages through the run core (flows/core.py: the run lock, one
    warehouse connection, one loader); another run in progress leaves them in the inbox for
    its ingest or the next one (exit 3, as the other commands)."""
    from flows import RunLog

    with locked(args, cfg, note=f"; the fetched pages wait in {cfg.inbox}") as project:
        files = [(path, True) for path in written if path.exists()]  # not taken meanwhile
        outcomes, review = project.load(files, log=RunLog(cfg, "scrape"), on_line=print,
                                        on_file=lambda k, n, outcome: print(outcome.message))
    if any(outcome.status == "rejected" for outcome in outcomes):
        status = Exit.FAILED
    if review:
        print(review)
    return status


def add_scrape_commands(sub: Any) -> None:
    """Add ``scrape`` to the ``clubratings`` subcommands."""
    p = sub.add_parser(
        "scrape", parents=[config_parent()],
        help="fetch the club pages listed in sources.toml into the inbox and load them",
        description="Fetch every due source of sources.toml (allow-listed hosts only, "
        "robots.txt honoured, conditional requests) into the inbox, then load the fetched "
        "pages as dropped files. A source with index and follow fetches the pages its index "
        "pages link, each once. See docs/scraping.md.",
    )
    p.add_argument("--dry-run", action="store_true",
                   help="list the URLs that would be fetched and write nothing; only the "
                   "index pages of sources with index = ... are read (for their links)")
    p.add_argument("--all", action="store_true",
                   help="ignore the sources' schedules: fetch every enabled source now")
    p.add_argument("--fetch-only", action="store_true",
                   help="leave the fetched pages in the inbox for the next ingest or run")
    add_wait_option(p, help_text="if another run holds the warehouse, wait up to SECONDS "
                    "before loading (default 0: leave the pages in the inbox, exit code 3)")
    p.set_defaults(func=cmd_scrape)
