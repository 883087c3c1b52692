"""What every command of ``clubratings`` shares, below all of them: the exit codes, the one-line
error, the configuration, the ``--config`` and ``--wait`` options and the run lock.

The command modules (``cli/run.py``, ``cli/files.py``, ...) import from here and from the
library packages, never from each other or from ``cli/app.py``. Nothing here imports pandas,
Prefect or the warehouse at module level: ``clubratings --help`` stays fast.

    CliError(Exception)     a problem the user can fix: one line on stderr, Exit.USAGE
    └── Locked              another run holds the warehouse's run lock: Exit.LOCKED
"""

from __future__ import annotations

import argparse
import contextlib
import enum
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from flows import Config

__all__ = [
    "READ_WAIT", "CliError", "Exit", "Locked", "add_wait_option", "config_parent", "fail",
    "load_config", "locked", "seconds", "wait_parent",
]


class Exit(enum.IntEnum):
    """The exit codes of every ``clubratings`` command."""

    OK = 0
    """Done."""
    FAILED = 1
    """Done, but not everything went through: a file was rejected (``run``, ``ingest``,
    ``scrape``) or a URL ended in an error (``scrape``)."""
    USAGE = 2
    """Nothing done: a problem the user can fix (arguments, configuration, a file, a domain
    error), said in one line. argparse's own usage errors exit 2 as well."""
    LOCKED = 3
    """Nothing done: another run holds the warehouse's run lock (after ``--wait``)."""


class CliError(Exception):
    """A problem the user can fix; printed as one line, the command exits with :attr:`code`."""

    code = Exit.USAGE


class Locked(CliError):
    """Another run holds the warehouse's run lock (flows/_lock.py ``RunLocked``)."""

    code = Exit.LOCKED


def fail(message: str) -> NoReturn:
    raise CliError(message)


# ---------------------------------------------------------------- configuration

def config_parent() -> argparse.ArgumentParser:
    """``--config FILE``, for the commands that read the project's configuration."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--config", type=Path, default=None, metavar="FILE",
        help="configuration file (default: ./clubratings.toml if present, else built-in defaults)",
    )
    return parent


def load_config(path: Path | None) -> Config:
    """The configuration (``flows.load_config``); a bad file ends the command in one line."""
    from flows import ConfigError
    from flows import load_config as load

    try:
        return load(path)
    except ConfigError as exc:
        fail(str(exc))


# ---------------------------------------------------------------- the run lock

READ_WAIT = 600.0
"""How long a command that only reads the warehouse waits for a run in progress by default."""


def seconds(text: str) -> float:
    """``--wait``'s type: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"seconds must be 0 or more, got {text!r}")
    return value


def add_wait_option(parser: argparse.ArgumentParser, *, default: float = 0.0,
                    help_text: str | None = None) -> None:
    """``--wait SECONDS``: how long a command waits for the run lock another run holds
    (``help_text`` for a command whose wait means something of its own)."""
    parser.add_argument(
        "--wait", type=seconds, default=default, metavar="SECONDS",
        help=help_text or "if another run is in progress, wait up to SECONDS for it to end "
        + (f"(default {default:g})" if default else
           "(default 0: stop at once with exit code 3)"),
    )


def wait_parent(default: float = 0.0) -> argparse.ArgumentParser:
    """``--wait``: the commands that use the warehouse take the run lock (flows/_lock.py).
    Those that change it stop at once by default; those that only read it wait ``default``."""
    parent = argparse.ArgumentParser(add_help=False)
    add_wait_option(parent, default=default)
    return parent


@contextlib.contextmanager
def locked(args: argparse.Namespace, cfg: Config, *, reader: bool = False,
           project: bool = True, note: str = "") -> Iterator[Any]:
    """Hold the warehouse's run lock for one command: taken once, here, for the whole command.

    With ``project`` (the default) the run core is opened (:meth:`flows.core.Project.open`:
    the lock, one warehouse connection, one loader) and yielded; a Prefect flow the command
    runs joins it. Without, only the lock is taken (flows/_lock.py ``run_lock``) and its
    record yielded, for the commands that open the warehouse themselves.

    ``reader``: the command only reads; it waits :data:`READ_WAIT` seconds for a run in
    progress unless ``--wait`` says otherwise, and a run meeting it waits for it a while.
    Another run holding the lock (after the wait) raises :class:`Locked`: one line, exit code
    3, ``note`` appended to the message.
    """
    from flows import RunLocked, run_lock

    command = f"clubratings {args.command}"
    wait = getattr(args, "wait", 0.0) or (READ_WAIT if reader else 0.0)
    with contextlib.ExitStack() as stack:
        try:
            if project:
                from flows.core import Project

                held: Any = stack.enter_context(
                    Project.open(cfg, command=command, wait=wait, reader=reader))
            else:
                held = stack.enter_context(
                    run_lock(cfg.warehouse, command=command, wait=wait, reader=reader))
        except RunLocked as exc:
            raise Locked(f"{exc}{note}") from None
        yield held
