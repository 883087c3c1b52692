"""Results as the tournament reads them: a result cell (``1-0``, ``=``, ``+-`` ...) as the two
players' scores, and a go result file's events as entrants and games by round."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._errors import MissingRanks, TournamentError
from ._levels import rating_from_grade
from ._state import Entrant, Game

__all__ = ["events_to_games", "result_scores"]

_FIRST = {"1-0", "1:0", "1–0"}
_SECOND = {"0-1", "0:1", "0–1"}
_JIGO = {"0.5-0.5", "0.5:0.5", "½-½", "½:½", "1/2-1/2", "=", "jigo", "draw"}
_FORFEITS = {"+-": (1.0, 0.0), "-+": (0.0, 1.0), "--": (0.0, 0.0)}
_PLACE_SCORES = {(1.0, 2.0): (1.0, 0.0), (2.0, 1.0): (0.0, 1.0), (1.5, 1.5): (0.5, 0.5)}
"""A go game's places (first unit, second unit) as the two players' scores."""


def result_scores(text: str, *, colours: bool) -> tuple[float, float, bool]:
    """``(score of the first column, score of the second, played)`` for a result cell;
    :class:`ValueError` for anything else.

    ``1-0``, ``0-1``, ``=``/``jigo``/``0.5-0.5``; forfeits ``+-``, ``-+``, ``--`` (both lose);
    with white/black columns also ``W+...`` / ``B+...`` (white is the first column).
    """
    token = text.strip().lower().replace(" ", "")
    if token in _FIRST:
        return 1.0, 0.0, True
    if token in _SECOND:
        return 0.0, 1.0, True
    if token in _JIGO:
        return 0.5, 0.5, True
    if token in _FORFEITS:
        first, second = _FORFEITS[token]
        return first, second, False
    if colours and token.startswith("w+"):
        return 1.0, 0.0, True
    if colours and token.startswith("b+"):
        return 0.0, 1.0, True
    raise ValueError(text)


def events_to_games(
    events: Iterable[Any], known: Mapping[str, float] | None = None,
) -> tuple[list[Entrant], dict[int, list[Game]]]:
    """Entrants and games by round from go events (go contract: one event per game).

    The events are the parsers' go events, read by their attributes only: ``title``, ``round``,
    ``handicap`` and ``units``; a unit's ``place``, ``colour``, ``label`` and ``players``; a
    player's ``name``, ``federation_id`` and, when present, ``grade`` or ``rank``.

    The player id is the federation id when the file gives one, else the name. The rating is
    ``known[id]`` or ``known[name]`` when given, else the rank of the player record (``grade``
    or ``rank``) or of the unit's label (``3k``, ``1d``) turned into a rating (21k = 0, +100 a
    grade, 1d = 2100). White is ``a``, black ``b`` (black receives the handicap); without
    colours the units keep the file's order.

    :class:`TournamentError` for a game without a round, not of two players or whose places
    are no go result; :class:`MissingRanks` when players are left without a rating.
    """
    known = known or {}
    ratings: dict[str, float] = {}
    names: dict[str, str] = {}
    games: dict[int, list[Game]] = {}
    for event in events:
        if event.round is None:
            raise TournamentError(f"game {event.title!r} has no round number")
        if len(event.units) != 2 or any(len(u.players) != 1 for u in event.units):
            raise TournamentError(f"game {event.title!r} is not two players")
        units = list(event.units)
        if units[0].colour == "black" or units[1].colour == "white":
            units.reverse()
        ids = []
        for unit in units:
            player = unit.players[0]
            pid = player.federation_id or player.name
            names.setdefault(pid, player.name)
            ids.append(pid)
            if pid not in ratings:
                rating = known.get(pid, known.get(player.name, _grade_of(unit, player)))
                if rating is not None:
                    ratings[pid] = rating
        places = tuple(u.place for u in units)
        if places not in _PLACE_SCORES:
            raise TournamentError(
                f"game {event.title!r}: places {list(places)!r} are no go result")
        score_a, score_b = _PLACE_SCORES[places]
        games.setdefault(int(event.round), []).append(Game(
            a=ids[0], b=ids[1], score_a=score_a, score_b=score_b,
            handicap=int(event.handicap or 0)))
    missing = sorted(names[pid] for pid in names if pid not in ratings)
    if missing:
        raise MissingRanks(missing)
    entrants = [Entrant(id=pid, name=names[pid], rating=ratings[pid]) for pid in names]
    return entrants, games


def _grade_of(unit: Any, player: Any) -> float | None:
    """The rating of the first of the player's ``grade``, ``rank`` and the unit's label that
    reads as a go grade; ``None`` when none does."""
    for text in (getattr(player, "grade", None), getattr(player, "rank", None), unit.label):
        if isinstance(text, str) and text.strip():
            try:
                return float(rating_from_grade(text))
            except TournamentError:
                continue
    return None
