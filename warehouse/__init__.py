"""The DuckDB warehouse: schema and migrations, loading parsed files, player identity, and the
frames the rating engine reads and writes.

Default file: ``data/clubratings.duckdb``; raw files are kept content-addressed in ``data/raw/``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._atomic import TEMP_PREFIX, atomic_write, sweep, utc_now
    from ._db import DEFAULT_PATH, Warehouse, open_warehouse
    from ._errors import LoadError, TransientWarehouseError, WarehouseError
    from ._go_judge import go_judge_frame
    from ._load import Loader, LoadReport, Parsed, file_sha256, is_loaded, load_result, raw_bytes
    from ._runs import (
        RunRecord,
        find_run,
        frame_sha256,
        games_frame,
        latest_run,
        preferans_frame,
        recent_run_options,
        results_frame,
        resumable_run,
        run_period_state,
        run_tables,
        set_current_run,
        store_run,
    )
    from .identity import (
        IdentityResolver,
        IdentitySettings,
        KnownPlayer,
        PlayerId,
        Resolution,
        club_key,
        surname_key,
        name_key,
    )

_WHERE = {
    "TEMP_PREFIX": "_atomic",
    "atomic_write": "_atomic",
    "sweep": "_atomic",
    "utc_now": "_atomic",
    "DEFAULT_PATH": "_db",
    "IdentityResolver": "identity",
    "IdentitySettings": "identity",
    "KnownPlayer": "identity",
    "LoadError": "_errors",
    "LoadReport": "_load",
    "Loader": "_load",
    "Parsed": "_load",
    "PlayerId": "identity",
    "Resolution": "identity",
    "RunRecord": "_runs",
    "TransientWarehouseError": "_errors",
    "Warehouse": "_db",
    "WarehouseError": "_errors",
    "club_key": "identity",
    "surname_key": "identity",
    "file_sha256": "_load",
    "find_run": "_runs",
    "frame_sha256": "_runs",
    "games_frame": "_runs",
    "go_judge_frame": "_go_judge",
    "is_loaded": "_load",
    "latest_run": "_runs",
    "load_result": "_load",
    "name_key": "identity",
    "open_warehouse": "_db",
    "preferans_frame": "_runs",
    "recent_run_options": "_runs",
    "raw_bytes": "_load",
    "results_frame": "_runs",
    "resumable_run": "_runs",
    "run_period_state": "_runs",
    "run_tables": "_runs",
    "set_current_run": "_runs",
    "store_run": "_runs",
}
"""Where each public name lives; loaded on first use, so that importing a light part of the
package (``warehouse.identity``) does not import DuckDB and pandas."""

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'warehouse' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
