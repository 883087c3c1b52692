"""``clubratings schedule``: the scheduled jobs as crontab lines (no server needed).

With a Prefect server, the same three jobs are deployments in ``prefect.yaml``
(``bash scripts/deploy_server.sh``; docs/scheduling.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ._common import Exit, config_parent, fail, load_config

__all__ = ["add_schedule_commands"]


def cmd_schedule(args: argparse.Namespace) -> int:
    from flows import CONFIG_NAME, cron_lines

    cfg = load_config(args.config)
    config_file = args.config if args.config is not None else cfg.root / CONFIG_NAME
    if not Path(config_file).is_file():
        fail(f"cron needs a configuration file; {config_file} does not exist "
             "(pass --config FILE)")
    if not args.print_cron:
        fail("say what to print: clubratings schedule --print-cron [--every-minutes N]")
    try:
        lines = cron_lines(cfg, Path(config_file), every_minutes=args.every_minutes)
    except (ValueError, FileNotFoundError) as exc:
        fail(str(exc))
    print("\n".join(lines))
    return Exit.OK


def add_schedule_commands(sub: Any) -> None:
    """Register ``schedule`` on the CLI's sub-parsers."""
    p = sub.add_parser(
        "schedule", parents=[config_parent()],
        help="print crontab lines for the nightly, inbox and quarterly jobs",
        description="Print crontab lines that run the nightly pipeline (clubratings run), the "
        "inbox every N minutes (clubratings run --no-scrape: load what was dropped and, when that "
        "changed anything, rate, report and publish) and the quarterly edition (recompute && "
        "publish) from the project folder, with absolute paths, appending output to "
        "data/logs/<job>.log. With a Prefect server use prefect.yaml instead "
        "(scripts/deploy_server.sh).",
    )
    p.add_argument("--print-cron", action="store_true", help="print the crontab lines")
    p.add_argument("--every-minutes", type=int, default=15, metavar="N",
                   help="how often the inbox job runs (1-59 minutes; default 15)")
    p.set_defaults(func=cmd_schedule)
