"""``clubratings``: the parser of every command and the entry point.

One module per command group registers its commands here; errors end as one line on stderr with
an exit code of :class:`cli._common.Exit` (no traceback).
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import sys
from collections.abc import Sequence

from ._common import CliError, Exit
from .config import add_config_commands
from .explain import add_explain_commands
from .files import add_files_commands
from .mcmahon import add_mcmahon_commands
from .parse_rate import add_parse_rate_commands
from .quality import add_quality_commands
from .review import add_review_commands
from .run import add_run_commands
from .schedule import add_schedule_commands
from .scrape import add_scrape_commands

__all__ = ["build_parser", "main"]

COLLECT_AFTER = 50_000
"""New objects between two runs of Python's cycle collector in a command (Python's default is
700). A command's start imports pandas, DuckDB and its readers, hundreds of thousands of objects,
and with the default the collector went over them again and again; few of a command's objects
form cycles. A process that set a higher threshold keeps it."""


def _collect_less() -> None:
    first, second, third = gc.get_threshold()
    if 0 < first < COLLECT_AFTER:
        gc.set_threshold(COLLECT_AFTER, second, third)


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, built once per process (about 30 ms; parsing leaves it as
    it was, so one serves every call of :func:`main`)."""
    parser = argparse.ArgumentParser(
        prog="clubratings",
        description="Rating lists for mind-sport clubs: result files in, rating lists out.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_run_commands(sub)          # run, ingest, recompute, publish
    add_parse_rate_commands(sub)   # parse, rate
    add_review_commands(sub)       # review, players, register, decisions
    add_explain_commands(sub)
    add_mcmahon_commands(sub)
    add_schedule_commands(sub)
    add_scrape_commands(sub)
    add_quality_commands(sub)      # simulate, evaluate
    add_files_commands(sub)
    add_config_commands(sub)       # config check, config docs
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    _collect_less()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.func(args))
    except CliError as exc:
        one_line = " ".join(str(exc).splitlines())  # an error is one line, whatever it quotes
        print(f"clubratings: {one_line}", file=sys.stderr)
        return int(exc.code)
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return int(Exit.OK)
    except Exception as exc:  # domain errors of the library: one line, no traceback
        from flows import ConfigError, RunLocked
        from parsers import ParseError
        from warehouse import WarehouseError

        if isinstance(exc, ConfigError):  # a configuration read outside cli._common
            print(f"clubratings: {exc}", file=sys.stderr)
            return int(Exit.USAGE)
        if isinstance(exc, RunLocked):  # a run lock taken outside cli._common.locked
            print(f"clubratings: {exc}", file=sys.stderr)
            return int(Exit.LOCKED)
        if isinstance(exc, (ParseError, WarehouseError)):
            print(f"clubratings: {exc}", file=sys.stderr)
            return int(Exit.USAGE)
        raise
    return code
