"""Composition: configuration, inbox handling, the pipeline's steps, Prefect flows and the CLI.

``flows.pipeline`` holds the Prefect flows; importing it configures Prefect's ephemeral mode
first. Everything else here imports no Prefect, so the library steps and most CLI commands run
without it. The names below are loaded on first use, so that ``clubratings --help`` and the
light commands import neither pandas nor the warehouse.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._config import CONFIG_NAME, Config, ConfigError, PoolConfig, load_config
    from ._inbox import FileOutcome, inbox_files, ingest_file, reason_text
    from ._steps import PoolRun, code_version, pending_files, publish, rate_pool

_WHERE = {
    "CONFIG_NAME": "_config", "Config": "_config", "ConfigError": "_config",
    "PoolConfig": "_config", "load_config": "_config",
    "FileOutcome": "_inbox", "inbox_files": "_inbox", "ingest_file": "_inbox",
    "reason_text": "_inbox",
    "PoolRun": "_steps", "code_version": "_steps",
    "pending_files": "_steps", "publish": "_steps", "rate_pool": "_steps",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'flows' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
