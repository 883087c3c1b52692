"""The DuckDB warehouse: schema and migrations, loading parsed files, player identity, and the
frames the rating engine reads and writes.

Default file: ``data/clubratings.duckdb``; raw files are kept content-addressed in ``data/raw/``.
"""

from ._db import DEFAULT_PATH, Warehouse, open_warehouse
from ._errors import LoadError, TransientWarehouseError, WarehouseError
from ._load import Loader, LoadReport, Parsed, file_sha256, is_loaded, load_result, raw_bytes
from ._runs import (
    RunRecord,
    find_run,
    frame_sha256,
    games_frame,
    latest_run,
    preferans_frame,
    results_frame,
    run_tables,
    store_run,
)
from .identity import (
    IdentityResolver,
    IdentitySettings,
    KnownPlayer,
    PlayerId,
    Resolution,
    club_key,
    name_key,
)

__all__ = [
    "DEFAULT_PATH",
    "IdentityResolver",
    "IdentitySettings",
    "KnownPlayer",
    "LoadError",
    "LoadReport",
    "Loader",
    "Parsed",
    "PlayerId",
    "Resolution",
    "RunRecord",
    "TransientWarehouseError",
    "Warehouse",
    "WarehouseError",
    "club_key",
    "file_sha256",
    "find_run",
    "frame_sha256",
    "games_frame",
    "is_loaded",
    "latest_run",
    "load_result",
    "name_key",
    "open_warehouse",
    "raw_bytes",
    "preferans_frame",
    "results_frame",
    "run_tables",
    "store_run",
]
