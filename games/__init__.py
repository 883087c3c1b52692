"""The games clubratings rates, and what each one means to every layer.

A pool of the configuration names a game; a rating scheme declares the input it reads; the
warehouse, the rating runs, the explanations and the site each ask the game here rather than
testing its name. Adding a game is one entry in :data:`GAMES` (and a frame builder for a new
kind of input). This module imports nothing heavy: the configuration is checked with it before
pandas or the schemes are loaded.

    >>> game("go").frame, game("bridge").frame
    ('go-games', 'results')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["GAMES", "Frame", "Game", "UnknownGame", "game"]

Frame = Literal["results", "go-games", "preferans-games"]
"""The input frame a rating scheme reads (``ratings.Scheme.reads``): the placement results of
events, the go games one by one, or the preferans games (tables) one by one."""


class UnknownGame(ValueError):
    """A game name that is not in :data:`GAMES`."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game, as every layer sees it."""

    name: str
    frame: Frame
    """What its schemes read: a scheme whose ``reads`` differs cannot rate this game's pool."""
    default_scheme: str
    """The scheme a pool of this game gets when the configuration names none."""
    periods: bool
    """Its pools choose their rating period (``periods = tournament | month | quarter |
    year``, docs/rules/go-rfg.md "One rating period"); else the scheme's ``period`` option."""
    graded: bool
    """Its lists show a grade beside the rating (go: kyu and dan)."""
    per_game: bool
    """A rating moves game by game (its explanations list games and opponents), not event by
    event."""
    sessions_seat_once: bool
    """The sections of one session (same organiser, date and title) seat a player once: the
    identity of a name in one section excludes the players of the others (bridge)."""
    period_word: str
    """What the site calls a period of its lists when periods are tournaments."""
    counts: str
    """What a list counts for a player ("events", "games"): its column and its pages say so."""
    club_nights: bool = False
    """Its events are the organiser's own club nights: a player whose files and register
    name no club is listed with the club that organised their last event (docs/site.md)."""

    @property
    def placements(self) -> bool:
        """Its results are placements of units in events (the boards played, the quality
        lab's evaluation and the partners on a player's page are theirs)."""
        return self.frame == "results"


GAMES: dict[str, Game] = {
    g.name: g for g in (
        Game("bridge", "results", "belo2", periods=False, graded=False, per_game=False,
             sessions_seat_once=True, period_word="period", counts="events",
             club_nights=True),
        Game("go", "go-games", "rfg", periods=True, graded=True, per_game=True,
             sessions_seat_once=False, period_word="tournament", counts="games"),
        Game("preferans", "preferans-games", "makarov", periods=False, graded=False,
             per_game=False, sessions_seat_once=False, period_word="period", counts="games",
             club_nights=True),
    )
}


def game(name: str) -> Game:
    """The game called ``name``; :class:`UnknownGame` (naming the known ones) otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"game {name!r} is not known; the games are "
                          f"{', '.join(GAMES)}") from None
