"""The trail of what people did to loaded files (table ``file_actions``): who and when."""

from __future__ import annotations

import datetime as dt
import getpass
import os

import duckdb

__all__ = ["actor", "record_action"]


def actor() -> str:
    """Who is acting: ``CLUBRATINGS_USER`` if set, else the account running the command."""
    name = os.environ.get("CLUBRATINGS_USER", "").strip()
    if name:
        return name[:80]
    try:
        return getpass.getuser()[:80]
    except (OSError, KeyError):  # no account name (a container without a passwd entry)
        return ""


def record_action(con: duckdb.DuckDBPyConnection, file_id: int, action: str, at: dt.datetime,
                  note: str = "") -> None:
    """Add one row to the trail (inside the caller's transaction)."""
    con.execute(
        "INSERT INTO file_actions SELECT coalesce(max(action_id), 0) + 1, ?, ?, ?, ?, ? "
        "FROM file_actions", [file_id, action, at, actor(), note])
