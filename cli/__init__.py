"""The ``clubratings`` command line: a thin layer over the library and the run core.

    cli/_common.py      below everything: exit codes, one-line errors, configuration, the
                        --config and --wait options, the run lock (taken once per command)
    cli/run.py          run, ingest, recompute, publish
    cli/parse_rate.py   parse, rate (no warehouse)
    cli/review.py       review, players, register, decisions (identity)
    cli/files.py        files
    cli/explain.py      explain
    cli/mcmahon.py      mcmahon
    cli/quality.py      simulate, evaluate
    cli/schedule.py     schedule
    cli/scrape.py       scrape
    cli/config.py       config check, config docs (the schema only: no warehouse)
    cli/app.py          build_parser() and main(): every group above registered

Command modules import from ``cli._common`` and the library packages only, never from each
other or from ``cli.app``; nothing outside ``cli`` imports ``cli`` (tests/test_imports.py).
``main`` and ``build_parser`` are loaded on first use, so importing one command module does not
build every parser.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import build_parser, main

__all__ = ["build_parser", "main"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'cli' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.app"), name)
    globals()[name] = value
    return value
