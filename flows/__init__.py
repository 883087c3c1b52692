"""Composition: configuration, inbox handling, the pipeline's steps, Prefect flows and the CLI.

``flows.pipeline`` holds the Prefect flows; importing it configures Prefect's ephemeral mode
first. Everything else here imports no Prefect, so the library steps and most CLI commands run
without it.
"""

from ._config import CONFIG_NAME, Config, ConfigError, PoolConfig, load_config
from ._frames import events_to_results
from ._inbox import FileOutcome, inbox_files, ingest_file, reason_text
from ._steps import PoolRun, code_version, ingest_path, pending_files, publish, rate_pool

__all__ = [
    "CONFIG_NAME",
    "Config",
    "ConfigError",
    "FileOutcome",
    "PoolConfig",
    "PoolRun",
    "code_version",
    "events_to_results",
    "inbox_files",
    "ingest_file",
    "ingest_path",
    "load_config",
    "pending_files",
    "publish",
    "rate_pool",
    "reason_text",
]
