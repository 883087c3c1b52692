"""Warehouse exceptions. Callers learn whether a retry can help.

    WarehouseError              base
    ├── TransientWarehouseError the database could not be reached or was locked: retry later
    └── LoadError               the file's content cannot be loaded as it is: retrying won't help
"""

from __future__ import annotations

__all__ = ["LoadError", "TransientWarehouseError", "WarehouseError"]


class WarehouseError(Exception):
    """Base class of warehouse errors."""


class TransientWarehouseError(WarehouseError):
    """Locked or unreachable database file; the same call may succeed later."""


class LoadError(WarehouseError):
    """A file whose events contradict themselves or the warehouse (e.g. one event twice)."""
