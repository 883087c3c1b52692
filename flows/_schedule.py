"""When the pipeline runs: the three schedules, as crontab lines or as Prefect deployments.

    nightly     scrape + inbox + recompute + publish   clubratings run
    inbox       every N minutes: inbox + recompute +    clubratings run --no-scrape
                publish when something was loaded
    quarterly   recompute + publish an edition          clubratings recompute && ... publish

Without a server, cron calls the command line (``clubratings schedule --print-cron``); with a
Prefect server, ``prefect.yaml`` deploys the flows below, which take the configuration file's
path (a deployment's parameters must be JSON, so the flows cannot take a ``Config``).
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from ._config import Config

__all__ = [
    "CRON_FIELD",
    "DEFAULT_EVERY_MINUTES",
    "Schedule",
    "clubratings_executable",
    "cron_lines",
    "logs_dir",
    "schedules",
]

DEFAULT_EVERY_MINUTES = 15
# Odd minutes, so that the nightly and quarterly runs do not start in the same minute as an
# every-N-minutes inbox run for the usual N (5, 10, 15, 20, 30): DuckDB has one writer.
NIGHTLY_CRON = "7 2 * * *"
QUARTERLY_CRON = "23 4 1 1,4,7,10 *"

# One crontab time field: *, */N, N, N-M, N-M/S and comma lists of those.
CRON_FIELD = re.compile(r"^(\*(/\d+)?|\d+(-\d+)?(/\d+)?)(,(\d+(-\d+)?(/\d+)?))*$")


@dataclass(frozen=True, slots=True)
class Schedule:
    """One scheduled job: its name (also the log file's), cron expression and commands."""

    name: str
    cron: str
    commands: tuple[tuple[str, ...], ...]
    """``clubratings`` sub-commands run in order, each only if the one before succeeded."""
    description: str


def schedules(every_minutes: int = DEFAULT_EVERY_MINUTES) -> tuple[Schedule, ...]:
    """The three jobs; the inbox one every ``every_minutes`` minutes (1-59)."""
    if not 1 <= every_minutes <= 59:
        raise ValueError(f"every_minutes must be from 1 to 59, got {every_minutes!r}")
    every = "*" if every_minutes == 1 else f"*/{every_minutes}"
    return (
        Schedule("nightly", NIGHTLY_CRON, (("run",),),
                 "nightly: scrape, load sources and inbox, recompute, publish"),
        Schedule("inbox", f"{every} * * * *", (("run", "--no-scrape"),),
                 f"every {every_minutes} minute(s): load what was dropped into the inbox; "
                 "when something was loaded, recompute, report and publish"),
        Schedule("quarterly", QUARTERLY_CRON, (("recompute",), ("publish",)),
                 "quarterly: recompute every pool and publish the edition"),
    )


def logs_dir(cfg: Config) -> Path:
    """``data/logs`` next to the warehouse: cron output and ``runs.jsonl``."""
    return cfg.warehouse.parent / "logs"


def clubratings_executable(cfg: Config) -> Path:
    """The project's ``.venv/bin/clubratings``, else the one next to the running Python."""
    candidates = [cfg.root / ".venv" / "bin" / "clubratings",
                  Path(sys.executable).parent / "clubratings"]
    for candidate in candidates:
        if candidate.is_file():
            return candidate.absolute()
    raise FileNotFoundError(
        "no clubratings command found in " + " or ".join(str(c) for c in candidates)
        + "; run `bash dev.sh run` once to set up .venv")


def cron_lines(cfg: Config, config_file: Path, *,
               every_minutes: int = DEFAULT_EVERY_MINUTES,
               executable: Path | None = None) -> list[str]:
    """Crontab lines (comments first) that run the three jobs from the project folder.

    Every path is absolute (cron starts in the home folder with a bare PATH); each job appends
    its output to ``data/logs/<job>.log``. A job that starts while another holds the warehouse
    fails on DuckDB's lock and the next one catches up.
    """
    exe = shlex.quote(str(executable or clubratings_executable(cfg)))
    config = shlex.quote(str(config_file.resolve()))
    root = shlex.quote(str(cfg.root.resolve()))
    logs = logs_dir(cfg).resolve()
    lines = [
        "# clubratings: paste into `crontab -e` (times are the machine's local time)",
        f"# project {cfg.root.resolve()}",
    ]
    for job in schedules(every_minutes):
        steps = " && ".join(f"{exe} {' '.join(cmd)} --config {config}" for cmd in job.commands)
        log = shlex.quote(str(logs / f"{job.name}.log"))
        lines.append(f"# {job.description}")
        lines.append(f"{job.cron} cd {root} && mkdir -p {shlex.quote(str(logs))} && "
                     f"{{ {steps} ; }} >> {log} 2>&1")
    return lines
