"""``clubratings config``: the configuration, checked and shown.

    config check [--config FILE]    every key of clubratings.toml and sources.toml with its
                                    value in force: defaults filled in, paths resolved; or the
                                    first refusal in one line (exit 2)
    config docs                     docs/configuration.md, made from the schema

Both read the schema (flows/_schema.py) and nothing else: no warehouse, no result file, neither
pandas nor Prefect.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import Exit, config_parent, fail

__all__ = ["add_config_commands", "cmd_config_check", "cmd_config_docs"]


def cmd_config_check(args: argparse.Namespace) -> int:
    from flows import ConfigError, check_configuration

    try:
        checked = check_configuration(args.config)
    except ConfigError as exc:
        fail(str(exc))
    for line in checked.lines():
        print(line)
    return Exit.OK


def cmd_config_docs(args: argparse.Namespace) -> int:
    from flows import config_reference

    print(config_reference(), end="")
    return Exit.OK


def add_config_commands(sub: Any) -> None:
    """Register ``config check`` and ``config docs`` on the CLI's sub-parsers."""
    p = sub.add_parser(
        "config", help="check the configuration and show it resolved",
        description="The configuration (clubratings.toml and the sources file it names), "
        "checked against its schema; docs/configuration.md lists every key.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check", parents=[config_parent()],
        help="print every key with its value in force (defaults filled in, paths resolved), "
        "or the first problem in one line (exit 2)",
        description="Reads clubratings.toml (or --config FILE) and the sources file it names, "
        "checks every key, and prints the configuration in force as TOML: defaults filled in, "
        "paths resolved, every scheme option of each pool. Reads no result file and opens no "
        "warehouse.",
    )
    check.set_defaults(func=cmd_config_check)
    docs = actions.add_parser(
        "docs", help="print the configuration reference (docs/configuration.md) made from "
        "the schema",
        description="Every key of clubratings.toml and sources.toml with its type, allowed "
        "values, default and description, as Markdown: `clubratings config docs > "
        "docs/configuration.md`.",
    )
    docs.set_defaults(func=cmd_config_docs)
