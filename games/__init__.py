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

__all__ = ["GAMES", "Frame", "Game", "NameOrder", "UnknownGame", "game"]

Frame = Literal["results", "go-games", "preferans-games"]
"""The input frame a rating scheme reads (``ratings.Scheme.reads``): the placement results of
events, the go games one by one, or the preferans games (tables) one by one."""


NameOrder = Literal["surname-first", "as-written"]
"""The order a list writes names in (docs/site.md, "Name order"): surname first (``Horváthová
Mária``), or as the player's record has it."""


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
    """Its lists show a grade beside the rating (go: kyu and dan), and a player declares a grade
    when they enter: a player's explanation says what their period started from (newcomer or
    not, the grade declared, the deviation)."""
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
    two_player_games: bool = False
    """An event is one game between two sides of one player each, with the colour each
    played and the handicap (go): the plausibility gate refuses any other shape
    (docs/rules/gate.md), and a McMahon tournament's standings are made of these events."""
    single_player_units: bool = False
    """Every unit of its events is one player (a go side, a preferans seat): the gate does not
    hold its units to an event kind's shape (pairs of two, teams of two or more)."""
    surname_first: bool = False
    """Its files write a player's surname first (go: OpenGotha, the EGD tables), and so do its
    lists unless the pool says otherwise (:attr:`name_order`): a list takes a player's name
    as the newest of these files wrote it."""
    crosstable: bool = False
    """Its events are the rounds of tournaments: a pool with one period per tournament shows
    a crosstable per edition, with the rounds that are no game (a bye, a result by default;
    docs/site.md "The go crosstable")."""

    @property
    def placements(self) -> bool:
        """Its results are placements of units in events (the boards played, the quality
        lab's evaluation and the partners on a player's page are theirs)."""
        return self.frame == "results"

    @property
    def name_order(self) -> NameOrder:
        """The order its lists write names in when the pool's ``names`` is not set
        (docs/site.md, "Name order"): surname first where its files write it so."""
        return "surname-first" if self.surname_first else "as-written"


GAMES: dict[str, Game] = {
    g.name: g for g in (
        Game("bridge", "results", "belo2", periods=False, graded=False, per_game=False,
             sessions_seat_once=True, period_word="period", counts="events",
             club_nights=True),
        Game("go", "go-games", "rfg", periods=True, graded=True, per_game=True,
             sessions_seat_once=False, period_word="tournament", counts="games",
             two_player_games=True, single_player_units=True, surname_first=True,
             crosstable=True),
        Game("preferans", "preferans-games", "makarov", periods=False, graded=False,
             per_game=False, sessions_seat_once=False, period_word="period", counts="games",
             club_nights=True, single_player_units=True),
    )
}


def game(name: str) -> Game:
    """The game called ``name``; :class:`UnknownGame` (naming the known ones) otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"game {name!r} is not known; the games are "
                          f"{', '.join(GAMES)}") from None
