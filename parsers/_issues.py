"""Lenient by default, strict on demand: the issue log every parser reports to.

A parser that can work around a problem reports it here as a :class:`ParseError` with a level.
In lenient mode the log keeps a :class:`ParseIssue` (message and where, as the error would have
said them); in strict mode a ``warning`` or ``error`` is raised at once. ``info`` notes (how a
charset was chosen, for example) are never raised: they describe a choice, not a problem.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal

from ._errors import ParseError
from ._model import ParseIssue

__all__ = ["IssueLog", "Level", "source_name"]

Level = Literal["info", "warning", "error"]


def source_name(source: str) -> str:
    """The file name that messages quote: the basename of ``source`` ("" if none)."""
    return PurePath(source).name if source else ""


class IssueLog:
    """Issues met while parsing one file."""

    def __init__(self, *, file: str, strict: bool) -> None:
        self.file = file
        self.strict = strict
        self._issues: list[ParseIssue] = []

    def report(self, error: ParseError, level: Level = "warning") -> None:
        """Keep ``error`` as an issue, or raise it in strict mode unless it is only ``info``."""
        if self.file:
            error = error.with_file(self.file)
        if self.strict and level != "info":
            raise error
        message = error.problem
        if error.has_value:
            message += f": value {error.value!r}"
        self._issues.append(ParseIssue(level, message, error.where))

    @property
    def issues(self) -> tuple[ParseIssue, ...]:
        return tuple(self._issues)
