"""Parsing ahead in worker processes holds a bounded window of files, whatever the number of
files in the run (flows/_parsing.py): a federation loading its 15-year archive in one run held
every parsed file to the end."""

from __future__ import annotations

import weakref
from pathlib import Path

import pytest

import flows._parsing as parsing
from parsers._limits import Limits


class _Parsed:
    """A stand-in for a parsed file, so that the test can see when it is let go."""

    def __init__(self, number: int) -> None:
        self.number = number


def test_files_are_handed_out_a_window_ahead_and_let_go_once_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scheduled: list[str] = []
    made: list[weakref.ref[_Parsed]] = []

    class Future:
        def __init__(self, number: int) -> None:
            self.number = number

        def result(self) -> _Parsed:
            parsed = _Parsed(self.number)
            made.append(weakref.ref(parsed))
            return parsed

    class Pool:
        def schedule(self, func: object, args: tuple[str, Limits], timeout: float) -> Future:
            scheduled.append(args[0])
            return Future(len(scheduled) - 1)

        def stop(self) -> None: ...

        def join(self) -> None: ...

    monkeypatch.setattr(parsing, "_pool", lambda workers, memory_mb: Pool())
    paths = [tmp_path / f"club-{i:04d}.csv" for i in range(1_000)]
    taken = 0
    for number, parsed in enumerate(parsing.parse_files(paths, Limits(), workers=2)):
        assert isinstance(parsed, _Parsed) and parsed.number == number  # in order
        taken += 1
        assert len(scheduled) - taken <= parsing.AHEAD * 2  # a window, not every file
        del parsed  # no cycles: freed at once, no collection needed
        assert sum(ref() is not None for ref in made) <= 1  # the last one given, no more
    assert scheduled == [str(p) for p in paths]
