"""Warehouse exceptions. Callers learn whether a retry can help.

    WarehouseError              base
    ├── TransientWarehouseError the database could not be reached or was locked: retry later
    └── LoadError               the file's content cannot be loaded as it is: retrying won't help
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import duckdb

__all__ = ["LoadError", "TransientWarehouseError", "WarehouseError", "translated"]

P = ParamSpec("P")
R = TypeVar("R")


class WarehouseError(Exception):
    """Base class of warehouse errors."""


class TransientWarehouseError(WarehouseError):
    """Locked or unreachable database file; the same call may succeed later."""


class LoadError(WarehouseError):
    """A file whose events contradict themselves or the warehouse (e.g. one event twice)."""


def translated(func: Callable[P, R]) -> Callable[P, R]:
    """A named query or writer of the warehouse: a DuckDB error inside it reaches the caller as
    a :class:`WarehouseError` naming the question (a lock or I/O error as a
    :class:`TransientWarehouseError`), never as a DuckDB exception."""

    @functools.wraps(func)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except duckdb.IOException as exc:
            raise TransientWarehouseError(f"warehouse: {func.__name__}: {exc}") from exc
        except duckdb.Error as exc:
            raise WarehouseError(f"warehouse: {func.__name__}: {exc}") from exc

    return call
