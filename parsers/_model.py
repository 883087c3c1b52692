"""The canonical event model: what every parser yields and the warehouse loads.

One model carries every game (ARCHITECTURE.md, "Games"):

- **bridge**: an event ranks units of 1-8 players (individual, pairs, teams);
- **go**: an event is one game of two units with one player each; ``Unit.colour`` says who had
  black, ``Event.handicap`` / ``Event.komi`` carry the conditions, ``Event.round`` the round;
- **preferans**: an event is one table (or one segment of it) of 3-4 units with one player each;
  ``Unit.score`` holds the vists, ``Event.deals``, ``Event.variant`` and ``Event.pulka`` the rest.

Every record is a frozen dataclass; collections are tuples, so records hash and compare by value.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

__all__ = [
    "GAMES",
    "KINDS",
    "SCORINGS",
    "Event",
    "EventKey",
    "Game",
    "Kind",
    "ParseIssue",
    "ParseResult",
    "Place",
    "PlayerAsWritten",
    "RoundMark",
    "RoundMarkKind",
    "Scoring",
    "Unit",
]

Game: TypeAlias = Literal["bridge", "go", "preferans"]
Kind: TypeAlias = Literal["individual", "pairs", "teams", "game", "table"]
Scoring: TypeAlias = Literal["MP", "IMP", "VP", "BAM", "hybrid", "unknown", "result", "vists"]
Place: TypeAlias = float
"""A unit's place as a number, 1 = best; tied units share the mean of the places they occupy."""

GAMES: tuple[Game, ...] = ("bridge", "go", "preferans")
KINDS: tuple[Kind, ...] = ("individual", "pairs", "teams", "game", "table")
SCORINGS: tuple[Scoring, ...] = (
    "MP", "IMP", "VP", "BAM", "hybrid", "unknown", "result", "vists",
)


@dataclass(frozen=True, slots=True)
class PlayerAsWritten:
    """A player exactly as the result file names them; identity is resolved later."""

    name: str
    federation_id: str | None = None
    club: str | None = None
    initials: bool = False
    """True when the file writes initials (``JNo``) instead of a name."""
    handle: bool = False
    """True when the name is a user name of an online platform (BBO, OKbridge): letters and
    digits mixed are a name there (the plausibility gate, docs/rules/gate.md)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One ranked competitor of an event: a player, a pair, a team, a go side, a preferans seat."""

    place: Place | None
    place_text: str
    label: str
    score: float | None
    players: tuple[PlayerAsWritten, ...]
    colour: Literal["black", "white"] | None = None
    """Go only: the colour this side played."""


EventKey: TypeAlias = tuple[str, str, str, str]
"""(organiser, date, title, section): an event's natural key; a file that brings an already
loaded key with different content is a correction of that event."""


@dataclass(frozen=True, slots=True)
class Event:
    """One ranked competition (a tournament section, a league match, a go game, a preferans table)."""

    game: Game
    title: str
    date: dt.date
    kind: Kind
    scoring: Scoring
    units: tuple[Unit, ...]
    boards: int | None = None
    section: str = ""
    organiser: str = ""
    format: str = ""
    """Name of the parser that produced the event."""
    end_date: dt.date | None = None
    round: int | None = None
    """Round of a go tournament or match number of a league."""
    parent: str = ""
    """The competition the event belongs to (a league, a go tournament), if any."""
    handicap: int | None = None
    komi: float | None = None
    deals: int | None = None
    variant: str | None = None
    pulka: int | None = None
    segment: int | None = None

    @property
    def key(self) -> EventKey:
        return (self.organiser, self.date.isoformat(), self.title, self.section)

    @property
    def n_units(self) -> int:
        return len(self.units)


@dataclass(frozen=True, slots=True)
class ParseIssue:
    """Something a lenient parser worked around; strict mode raises instead."""

    level: Literal["info", "warning", "error"]
    message: str
    where: str = ""


RoundMarkKind: TypeAlias = Literal["bye", "win by default", "loss by default", "not played"]
"""What a round that is no game was for a player: a bye, a result given by default (a forfeit,
or the director's decision to give both players the win or the loss), or a pairing not played
(its result not known)."""


@dataclass(frozen=True, slots=True)
class RoundMark:
    """A round of a tournament that is no game for one player (go): no event, yet the
    tournament's crosstable writes it in that round (docs/site.md "The go crosstable")."""

    round: int
    player: str
    """The player's key in the file: the ``label`` of their units in the file's games."""
    mark: RoundMarkKind
    opponent: str | None = None
    """The key of the player they were paired with; None for a bye."""


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What ``parse()`` returns: the events of one file and the issues met on the way."""

    format: str
    events: tuple[Event, ...]
    issues: tuple[ParseIssue, ...] = field(default=())
    round_marks: tuple[RoundMark, ...] = field(default=())
    """The rounds of the file's tournament that are no game for a player, by round and
    player (a format with tournament rounds: OpenGotha); the warehouse keeps them for the
    crosstable (``go_round_marks``)."""
