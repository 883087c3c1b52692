"""Composition: configuration, inbox handling, the pipeline's steps, Prefect flows and the CLI.

``flows.pipeline`` holds the Prefect flows; importing it configures Prefect's ephemeral mode
first. Everything else here imports no Prefect, so the library steps and most CLI commands run
without it. The names below are loaded on first use, so that ``clubratings --help`` and the
light commands (``config check``, ``schedule``) import neither pandas nor the warehouse.

The command line imports only these names and the public modules ``flows.core`` (the run
core) and ``flows.pipeline`` (the Prefect flows), never a private module of this package
(tests/test_boundaries.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import _reaper, _schema
    from ._config import (
        CONFIG_NAME as CONFIG_NAME,
        Config as Config,
        ConfigError as ConfigError,
        PoolConfig as PoolConfig,
        load_config as load_config,
    )
    from ._env import configure_prefect as configure_prefect
    from ._import_report import (
        ImportReport as ImportReport,
        build_report as build_report,
        not_rated_lines as not_rated_lines,
        write_report as write_report,
    )
    from ._inbox import (
        FileOutcome as FileOutcome,
        inbox_files as inbox_files,
        ingest_file as ingest_file,
        reason_text as reason_text,
    )
    from ._lock import RunLocked as RunLocked, run_lock as run_lock
    from ._runlog import RunLog as RunLog, progress as progress, summary_line as summary_line
    from ._schedule import cron_lines as cron_lines
    from ._schema import (
        ScrapeConfigError as ScrapeConfigError,
        check_configuration as check_configuration,
    )
    from ._sources import load_sources as load_sources, scrape as scrape
    from ._steps import (
        PoolRun as PoolRun,
        code_version as code_version,
        pending_files as pending_files,
        publish as publish,
        rate_pool as rate_pool,
    )
    from .core import Project as Project, RunResult as RunResult

    # the two names that differ from their module's (see _WHERE)
    watch_children = _reaper.watch
    config_reference = _schema.reference

_WHERE: dict[str, tuple[str, str]] = {
    "CONFIG_NAME": ("_config", "CONFIG_NAME"),
    "Config": ("_config", "Config"),
    "ConfigError": ("_config", "ConfigError"),
    "PoolConfig": ("_config", "PoolConfig"),
    "load_config": ("_config", "load_config"),
    "configure_prefect": ("_env", "configure_prefect"),
    "FileOutcome": ("_inbox", "FileOutcome"),
    "inbox_files": ("_inbox", "inbox_files"),
    "ingest_file": ("_inbox", "ingest_file"),
    "reason_text": ("_inbox", "reason_text"),
    "RunLocked": ("_lock", "RunLocked"),
    "run_lock": ("_lock", "run_lock"),
    "watch_children": ("_reaper", "watch"),
    "ImportReport": ("_import_report", "ImportReport"),
    "build_report": ("_import_report", "build_report"),
    "not_rated_lines": ("_import_report", "not_rated_lines"),
    "write_report": ("_import_report", "write_report"),
    "RunLog": ("_runlog", "RunLog"),
    "progress": ("_runlog", "progress"),
    "summary_line": ("_runlog", "summary_line"),
    "cron_lines": ("_schedule", "cron_lines"),
    "ScrapeConfigError": ("_schema", "ScrapeConfigError"),
    "check_configuration": ("_schema", "check_configuration"),
    "config_reference": ("_schema", "reference"),
    "load_sources": ("_sources", "load_sources"),
    "scrape": ("_sources", "scrape"),
    "PoolRun": ("_steps", "PoolRun"),
    "code_version": ("_steps", "code_version"),
    "pending_files": ("_steps", "pending_files"),
    "publish": ("_steps", "publish"),
    "rate_pool": ("_steps", "rate_pool"),
    "Project": ("core", "Project"),
    "RunResult": ("core", "RunResult"),
}
"""Each public name: the module that defines it and its name there (``watch`` of
flows/_reaper.py is ``watch_children`` here, ``reference`` of flows/_schema.py is
``config_reference``: names that say what they are outside their module)."""

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'flows' has no attribute {name!r}")
    module, attribute = _WHERE[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
