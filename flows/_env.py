"""Prefect settings that must be in the environment before ``prefect`` is first imported."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["configure_prefect"]


def configure_prefect(project_root: Path) -> None:
    """Ephemeral-mode defaults; a user's own settings (e.g. ``PREFECT_API_URL``) win.

    - ``PREFECT_HOME`` inside the project (git-ignored), not in the user's home;
    - server analytics off (they race for the ephemeral database: "database is locked");
    - a generous start-up timeout for the temporary local server on a slow first start;
    - no usage data (``DO_NOT_TRACK``) and Prefect's own logs at WARNING (``clubratings run
      --verbose`` sets INFO before this runs).
    """
    os.environ.setdefault("PREFECT_HOME", str(project_root.resolve() / ".prefect"))
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "90")
    # usage data off, as the README says, and Prefect's own chatter only when it matters
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
