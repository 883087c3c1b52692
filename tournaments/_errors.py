"""Tournament exceptions. Every message quotes the bad value.

    TournamentError      the tournament input contradicts itself: an unknown player, a player
    │                    twice in a round, a round out of order, an impossible result, bars
    │                    that leave the top group too small, a setting with no meaning
    └── MissingRanks     players of a go result file with no rating (``names`` lists them)

Reading an OpenGotha file can also raise the parsers' ``ParseError`` (a file that is no
OpenGotha tournament, a malformed element): those come from parsers/opengotha.py unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["MissingRanks", "TournamentError"]


class TournamentError(Exception):
    """The tournament input contradicts itself: an unknown player, a player twice in a round,
    a round out of order, an impossible result, bars that leave the top group too small."""


class MissingRanks(TournamentError):
    """Players of a go file with no rating: neither given nor a rank in the file. ``names``
    lists them, sorted."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        super().__init__(f"no rank for player {self.names[0]!r} "
                         f"({len(self.names)} without one)")

