"""McMahon tournaments with a dynamic level instead of Buchholz (docs/rules/go-mcmahon-levels.md).

Pure: no I/O. A tournament is a frozen :class:`TournamentState`; every step returns a new one.

- :func:`start_level` -- the level ``U0`` from the RFG rating (docs/rules/go-mcmahon-levels.md "Start");
- :func:`level_update` / :func:`jigo_update` -- the level after a game (docs/rules/go-mcmahon-levels.md "Level update");
- :func:`start_tournament`, :func:`apply_round` -- players, start points from the organiser's
  bars, then one round of results at a time (levels of every round are kept in the state);
- :func:`replay` -- a finished tournament rebuilt from its games;
- :func:`events_to_games` -- entrants and games from a go result file's events (duck-typed:
  this package imports no parsers); :func:`result_scores` -- a result cell (``1-0``, ``=``,
  ``+-`` ...) as the two players' scores;
- :func:`pair_round` -- the next round's pairs (docs/rules/go-mcmahon-levels.md "Pairing a round");
- :func:`standings` -- final places with every criterion shown (docs/rules/go-mcmahon-levels.md "Final places");
- :func:`level_history` -- the level of every player after every round;
- :func:`state_to_json` / :func:`state_from_json` -- the state as plain JSON data.

Decisions where the source (docs/rules/go-mcmahon-levels.md) leaves a gap:

- **Jigo.** The update is ``10 * (result - 1/2) + round(0.1 * Dc)``: a win is ``+5``, a loss
  ``-5``, a jigo ``0``, plus the level term. In a jigo the lower player gains
  ``round_half_up(0.1 * |Dc|)`` capped at 5 and the higher player loses the same; equal levels
  change nothing. So a jigo never gives more than a win nor costs more than a loss.
- **Handicap.** ``handicap_levels`` is the handicap the *winner* received, in levels (negative
  when the winner gave it); it is subtracted inside ``Dc`` (docs/rules/go-mcmahon-levels.md "Handicap tournaments").
  :func:`handicap_levels` converts stones with the RFG true handicap (``F - 0.5`` for ``F >= 1``,
  docs/rules/go-rfg.md "Win probability") at 100 rating points a stone and
  ``dU/dR = 100 / (3000 - R)`` at the pair's mean level: about 3 levels a stone at 21 kyu,
  5 at 11 kyu, 10 at 1 kyu.
- **Byes and forfeits.** A bye (``0+``) and a forfeit win give 1 McMahon point, an absence and a
  forfeit loss 0; nobody's level moves without a game (docs/rules/go-mcmahon-levels.md "Level update"). For the opponents'
  mean level a bye *and a forfeit win* count the player's own final level; an absence and a
  forfeit loss add nothing (docs/rules/go-mcmahon-levels.md "Final places"). A forfeited game is not a meeting: the two may
  be paired again.
- **Who gets the bye.** The lowest-placed present player (McMahon points, level, start number)
  without a bye yet; a second bye is preferred to a repeated game.
- **Rounds remaining** for the top-group rule count the round being paired.
- **Last tie-break.** Equal start ratings are separated by the start number.
- **Colours and handicaps** are not assigned by :func:`pair_round`: a pair lists the
  higher-placed player first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, TypeAlias

import pandas as pd

from ._errors import RatingError
from ._go import grade_rating

__all__ = [
    "CRITERIA",
    "STANDINGS_COLUMNS",
    "Entrant",
    "Game",
    "MissingRanks",
    "Pairing",
    "Player",
    "Round",
    "RoundResults",
    "TournamentError",
    "TournamentState",
    "apply_round",
    "events_to_games",
    "handicap_levels",
    "jigo_update",
    "level_history",
    "level_update",
    "pair_round",
    "parse_bars",
    "rating_from_grade",
    "replay",
    "result_scores",
    "standings",
    "start_level",
    "start_score",
    "start_tournament",
    "state_from_json",
    "state_to_json",
]

PlayerId: TypeAlias = str
Bars: TypeAlias = tuple[tuple[float, int], ...]
"""McMahon bars: (lowest rating of the group, start points), highest rating first."""

IDEAL = 3000.0
"""The ideal player's RFG rating (docs/rules/go-rfg.md "Scale")."""

TERM_CAP = 5
"""Largest magnitude of the rounded level term, except for an upset winner (docs/rules/go-mcmahon-levels.md "Level update")."""

STATE_FORMAT = "clubratings-mcmahon"
STATE_VERSION = 1

CRITERIA = ("mcmahon", "head_to_head", "opponents_level", "level", "rating", "start_number")
"""Final-place criteria in priority order (docs/rules/go-mcmahon-levels.md "Final places"); ``start_number`` is the last
resort when start ratings are equal."""

STANDINGS_COLUMNS = (
    "place", "id", "name", "start_number", "rating", "start_score", "mcmahon", "games",
    "head_to_head", "opponents_level", "level", "separated_by",
)

_SEARCH_BUDGET = 200_000
"""Backtracking steps one pairing search may take before it gives up on that bye choice."""


class TournamentError(RatingError):
    """The tournament input contradicts itself: an unknown player, a player twice in a round,
    a round out of order, an impossible result, bars that leave the top group too small."""


# ---------------------------------------------------------------- levels


def start_level(rating: float) -> int:
    """``U0 = round(399 - 100 ln((3000 - R) / 100))`` (docs/rules/go-mcmahon-levels.md "Start"); needs ``R < 3000``."""
    if not rating < IDEAL:
        raise TournamentError(f"rating {rating!r} is not below {IDEAL:g}; no start level")
    return _round_half_up(399.0 - 100.0 * math.log((IDEAL - rating) / 100.0))


def _round_half_up(x: float) -> int:
    """Round with .5 towards +infinity (docs/rules/go-mcmahon-levels.md "Level update", rounding)."""
    return math.floor(x + 0.5)


def _term(dc: float) -> int:
    """``round_half_up(0.1 * Dc)``, exact for whole ``Dc``."""
    if float(dc).is_integer():
        return (int(dc) + 5) // 10
    return _round_half_up(dc / 10.0)


def level_update(u_winner: int, u_loser: int, *, handicap_levels: float = 0.0) -> tuple[int, int]:
    """The two levels after a decided game (docs/rules/go-mcmahon-levels.md "Level update after round n").

    ``Dc`` of the winner is ``u_loser - u_winner - handicap_levels`` (the handicap the winner
    received, in levels; see :func:`handicap_levels`). The winner gains ``5 + t`` with
    ``t = round_half_up(0.1 * Dc)``, the loser changes by ``-5 - t``. The term is capped at
    magnitude 5 for the higher player and for a lower player who lost; a lower player who won
    is not capped. So a loss costs at most 10, and a win over someone 46 or more below gains 0.
    """
    dc = u_loser - u_winner - handicap_levels
    t = _term(dc)
    if dc <= 0:  # the winner is the higher player: both capped
        winner_term, loser_term = max(t, -TERM_CAP), min(-t, TERM_CAP)
    else:  # an upset: the winner uncapped, the (higher) loser capped
        winner_term, loser_term = t, max(-t, -TERM_CAP)
    return u_winner + 5 + winner_term, u_loser - 5 + loser_term


def jigo_update(u_a: int, u_b: int, *, handicap_levels: float = 0.0) -> tuple[int, int]:
    """The two levels after a jigo (a decision of this module; see the module docstring).

    ``handicap_levels`` is the handicap ``a`` received, in levels. The lower player gains
    ``min(5, round_half_up(0.1 * |Dc|))`` and the higher player loses the same.
    """
    dc = u_b - u_a - handicap_levels
    gain = min(_term(abs(dc)), TERM_CAP)
    if dc > 0:  # a was the lower player
        return u_a + gain, u_b - gain
    return u_a - gain, u_b + gain


def handicap_levels(stones: int, mean_level: float) -> float:
    """Levels worth ``stones`` of handicap at the pair's mean level (docs/rules/go-mcmahon-levels.md "Handicap tournaments").

    True handicap ``H = stones - 0.5`` for ``stones >= 1`` (docs/rules/go-rfg.md), 100 rating points a
    stone, ``dU/dR = 100 / (3000 - R)`` with ``3000 - R = 100 exp((399 - U) / 100)``, the
    inverse of :func:`start_level`.
    """
    if stones < 0:
        raise TournamentError(f"handicap {stones!r} is negative")
    if stones == 0:
        return 0.0
    per_stone = 100.0 * math.exp((mean_level - 399.0) / 100.0)
    return (stones - 0.5) * per_stone


def rating_from_grade(grade: str) -> float:
    """RFG rating of a grade: 21k = 0, +100 a grade, 1k = 2000, 1d = 2100 (docs/rules/go-rfg.md
    "Scale"); ``kyu``/``dan`` may be written out (``12 kyu``)."""
    text = grade.strip().lower()
    for word, letter in (("kyu", "k"), ("dan", "d")):
        if text.endswith(word):
            text = text.removesuffix(word) + letter
    try:
        return grade_rating(text)
    except ValueError:
        raise TournamentError(
            f"not a go grade: {grade!r} (expected e.g. '3k', '1d', '12 kyu')") from None


# ---------------------------------------------------------------- bars and start


def parse_bars(text: str) -> Bars:
    """``"2100:0,1800:-1"`` -> ((2100.0, 0), (1800.0, -1)), highest rating first."""
    bars: list[tuple[float, int]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        rating, sep, points = part.partition(":")
        try:
            bars.append((float(rating), int(points)))
        except ValueError:
            raise TournamentError(
                f"bar {part!r} is not RATING:POINTS (e.g. '2100:0,1800:-1')") from None
        if not sep:
            raise TournamentError(f"bar {part!r} is not RATING:POINTS (e.g. '2100:0,1800:-1')")
    bars.sort(key=lambda b: -b[0])
    points = [p for _, p in bars]
    if points != sorted(points, reverse=True) or len(set(points)) != len(points):
        raise TournamentError(f"bars {text!r}: start points must fall as the rating falls")
    return tuple(bars)


def start_score(rating: float, bars: Bars) -> int:
    """Start McMahon points: those of the highest bar at or below ``rating``; below the lowest
    bar one point less than that bar; 0 for everyone without bars (docs/rules/go-mcmahon-levels.md "Start")."""
    if not bars:
        return 0
    for lowest, points in bars:
        if rating >= lowest:
            return points
    return bars[-1][1] - 1


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the organiser enters them."""

    id: PlayerId
    name: str
    rating: float


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the tournament with everything fixed at the start (docs/rules/go-mcmahon-levels.md "Start")."""

    id: PlayerId
    name: str
    rating: float
    start_number: int
    start_score: int
    start_level: int


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a round. ``score_a``/``score_b``: 1, 0.5, 0; ``played=False`` for a forfeit
    (scores 1-0, 0-1 or 0-0). With ``handicap > 0`` player ``b`` received the stones."""

    a: PlayerId
    b: PlayerId
    score_a: float
    score_b: float
    handicap: int = 0
    played: bool = True


@dataclass(frozen=True, slots=True)
class RoundResults:
    """What happened in one round. Players in none of the three are absent."""

    games: tuple[Game, ...]
    byes: tuple[PlayerId, ...] = ()
    absent: tuple[PlayerId, ...] = ()


@dataclass(frozen=True, slots=True)
class Round:
    """A played round with the levels after it (the level history)."""

    number: int
    games: tuple[Game, ...]
    byes: tuple[PlayerId, ...]
    absent: tuple[PlayerId, ...]
    levels: Mapping[PlayerId, int]


@dataclass(frozen=True, slots=True)
class Pairing:
    """The pairs of a round. ``repeats``: pairs who met before (only when no pairing without
    repeats was found); ``notes``: plain-language remarks for the organiser."""

    round: int
    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None
    absent: tuple[PlayerId, ...] = ()
    repeats: tuple[tuple[PlayerId, PlayerId], ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament: its settings, players, played rounds and the pairing waiting for results."""

    rounds: int
    essential_places: int
    bars: Bars
    players: tuple[Player, ...]
    played: tuple[Round, ...] = ()
    pending: Pairing | None = None

    def player(self, pid: PlayerId) -> Player:
        """The player with id ``pid``."""
        for p in self.players:
            if p.id == pid:
                return p
        raise TournamentError(f"unknown player {pid!r}")

    def levels(self) -> dict[PlayerId, int]:
        """Current level of every player (after the last played round)."""
        if self.played:
            return dict(self.played[-1].levels)
        return {p.id: p.start_level for p in self.players}

    def points(self) -> dict[PlayerId, float]:
        """Current McMahon points: start points plus points scored (byes count 1)."""
        points = {p.id: float(p.start_score) for p in self.players}
        for rnd in self.played:
            for g in rnd.games:
                points[g.a] += g.score_a
                points[g.b] += g.score_b
            for pid in rnd.byes:
                points[pid] += 1.0
        return points

    def met(self) -> set[frozenset[PlayerId]]:
        """Pairs who played a game against each other (forfeits are not meetings)."""
        return {frozenset((g.a, g.b)) for rnd in self.played for g in rnd.games if g.played}

    def had_bye(self) -> set[PlayerId]:
        """Players who were given a bye."""
        return {pid for rnd in self.played for pid in rnd.byes}


def start_tournament(
    entrants: Iterable[Entrant], *, rounds: int, essential_places: int, bars: Bars = (),
    check_top_group: bool = True,
) -> TournamentState:
    """Players with start numbers by rating, start points from ``bars`` and start levels.

    Start numbers follow the rating, highest first (ties by name, then id). With
    ``check_top_group`` the top McMahon group must hold at least twice ``essential_places``
    players (docs/rules/go-mcmahon-levels.md "Start").
    """
    items = list(entrants)
    if rounds < 1:
        raise TournamentError(f"rounds must be at least 1, got {rounds!r}")
    if essential_places < 1:
        raise TournamentError(f"essential places must be at least 1, got {essential_places!r}")
    if not items:
        raise TournamentError("a tournament needs players")
    ids = [e.id for e in items]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise TournamentError(f"player id {dupes[0]!r} appears twice")
    ordered = sorted(items, key=lambda e: (-e.rating, e.name, e.id))
    players = tuple(
        Player(id=e.id, name=e.name, rating=float(e.rating), start_number=n,
               start_score=start_score(e.rating, bars), start_level=start_level(e.rating))
        for n, e in enumerate(ordered, start=1)
    )
    if check_top_group:
        top = max(p.start_score for p in players)
        size = sum(p.start_score == top for p in players)
        if size < 2 * essential_places:
            raise TournamentError(
                f"the top McMahon group has {size} players, fewer than twice the "
                f"{essential_places} essential places; lower the top bar")
    return TournamentState(rounds=rounds, essential_places=essential_places, bars=tuple(bars),
                           players=players)


# ---------------------------------------------------------------- one round


def _check_game(g: Game) -> None:
    scores = (g.score_a, g.score_b)
    allowed = {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)} if g.played else {
        (1.0, 0.0), (0.0, 1.0), (0.0, 0.0)}
    if scores not in allowed:
        kind = "game" if g.played else "forfeit"
        raise TournamentError(f"{kind} {g.a!r} - {g.b!r}: impossible result {scores!r}")
    if g.handicap < 0:
        raise TournamentError(f"game {g.a!r} - {g.b!r}: negative handicap {g.handicap!r}")
    if g.a == g.b:
        raise TournamentError(f"player {g.a!r} is paired with themselves")


def _game_levels(g: Game, levels: Mapping[PlayerId, int]) -> tuple[int, int]:
    """Levels of ``a`` and ``b`` after game ``g`` from the levels before the round."""
    ua, ub = levels[g.a], levels[g.b]
    if not g.played:  # docs/rules/go-mcmahon-levels.md "Level update": no game, no change
        return ua, ub
    hb = handicap_levels(g.handicap, (ua + ub) / 2.0)  # levels b received
    if g.score_a == g.score_b:
        new_a, new_b = jigo_update(ua, ub, handicap_levels=-hb)
        return new_a, new_b
    if g.score_a > g.score_b:
        return level_update(ua, ub, handicap_levels=-hb)
    new_b, new_a = level_update(ub, ua, handicap_levels=hb)
    return new_a, new_b


def apply_round(state: TournamentState, results: RoundResults) -> TournamentState:
    """The state after the next round: McMahon points and levels updated (docs/rules/go-mcmahon-levels.md "Level update").

    Every level moves from the levels *before* the round. Players in no game, bye or absence
    are absent. The pending pairing is cleared.
    """
    number = len(state.played) + 1
    if number > state.rounds:
        raise TournamentError(f"all {state.rounds} rounds are already played")
    known = {p.id for p in state.players}
    seen: set[PlayerId] = set()
    listed = [pid for g in results.games for pid in (g.a, g.b)]
    for pid in [*listed, *results.byes, *results.absent]:
        if pid not in known:
            raise TournamentError(f"round {number}: unknown player {pid!r}")
        if pid in seen:
            raise TournamentError(f"round {number}: player {pid!r} appears twice")
        seen.add(pid)
    for g in results.games:
        _check_game(g)
    before = state.levels()
    after = dict(before)
    for g in results.games:
        after[g.a], after[g.b] = _game_levels(g, before)
    absent = tuple(results.absent) + tuple(p.id for p in state.players if p.id not in seen)
    rnd = Round(number=number, games=tuple(results.games), byes=tuple(results.byes),
                absent=absent, levels=MappingProxyType(after))
    return replace(state, played=(*state.played, rnd), pending=None)


def replay(
    entrants: Iterable[Entrant], games: Mapping[int, Sequence[Game]], *, bars: Bars = (),
) -> TournamentState:
    """A played tournament rebuilt from its games by round (rounds ``1 .. max``).

    Byes are not known from games alone: a player without a game in a round is absent. The
    top-group size is not checked (the tournament is over); ``essential_places`` is 1.
    """
    if not games:
        raise TournamentError("no games to rebuild a tournament from")
    last = max(games)
    if min(games) < 1:
        raise TournamentError(f"round {min(games)!r} is not a round number (1, 2, ...)")
    state = start_tournament(entrants, rounds=last, essential_places=1, bars=bars,
                             check_top_group=False)
    for number in range(1, last + 1):
        state = apply_round(state, RoundResults(games=tuple(games.get(number, ()))))
    return state


# ---------------------------------------------------------------- results from go events and cells

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


class MissingRanks(TournamentError):
    """Players of a go file with no rating: neither given nor a rank in the file. ``names``
    lists them, sorted."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        super().__init__(f"no rank for player {self.names[0]!r} "
                         f"({len(self.names)} without one)")


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


# ---------------------------------------------------------------- pairing


def _ranking(state: TournamentState, ids: Iterable[PlayerId]) -> list[PlayerId]:
    """McMahon points, then current level, then start number (docs/rules/go-mcmahon-levels.md "Pairing a round" 1)."""
    points, levels = state.points(), state.levels()
    number = {p.id: p.start_number for p in state.players}
    return sorted(ids, key=lambda pid: (-points[pid], -levels[pid], number[pid]))


def _preferences(
    order: list[PlayerId], points: Mapping[PlayerId, float], levels: Mapping[PlayerId, int],
    fold: bool,
) -> dict[PlayerId, list[PlayerId]]:
    """Each player's candidates, best first (docs/rules/go-mcmahon-levels.md "Pairing a round" 2-3).

    Nearest by level within the player's McMahon group, then the groups below (a player who
    finds nobody moves down), then the groups above. With ``fold`` the top half of the top
    group prefers the bottom half in order (i-th meets i-th, then the next ones); an odd
    middle player has no fold partner and so moves down.
    """
    index = {pid: i for i, pid in enumerate(order)}
    groups: list[list[PlayerId]] = []
    for pid in order:
        if groups and points[groups[-1][0]] == points[pid]:
            groups[-1].append(pid)
        else:
            groups.append([pid])
    group_of = {pid: g for g, members in enumerate(groups) for pid in members}
    prefs: dict[PlayerId, list[PlayerId]] = {}
    for pid in order:
        g = group_of[pid]
        seq: list[PlayerId] = []
        for h in [*range(g, len(groups)), *range(g - 1, -1, -1)]:
            seq += sorted((q for q in groups[h] if q != pid),
                          key=lambda q: (abs(levels[q] - levels[pid]), index[q]))
        prefs[pid] = seq
    top = groups[0] if groups else []
    if fold and len(top) >= 2:
        half = len(top) // 2
        bottom = top[len(top) - half:]
        for i, pid in enumerate(top[:half]):
            folded = bottom[i:] + bottom[:i]
            prefs[pid] = folded + [q for q in prefs[pid] if q not in folded]
    return prefs


@dataclass(slots=True)
class _Search:
    """Backtracking over the preference lists (docs/rules/go-mcmahon-levels.md "Pairing a round" 4)."""

    order: list[PlayerId]
    prefs: dict[PlayerId, list[PlayerId]]
    met: set[frozenset[PlayerId]]
    max_repeats: int
    budget: list[int]
    """Steps left, shared by every search of one :func:`pair_round`; negative = unlimited."""

    def run(self) -> list[tuple[PlayerId, PlayerId]] | None:
        unpaired = set(self.order)
        avail = {p: sum(1 for q in self.order if q != p and frozenset((p, q)) not in self.met)
                 for p in self.order}
        pairs: list[tuple[PlayerId, PlayerId]] = []
        return pairs if self._extend(unpaired, avail, pairs, 0) else None

    def _extend(self, unpaired: set[PlayerId], avail: dict[PlayerId, int],
                pairs: list[tuple[PlayerId, PlayerId]], repeats: int) -> bool:
        if not unpaired:
            return True
        p = next(pid for pid in self.order if pid in unpaired)
        fresh = [q for q in self.prefs[p] if q in unpaired and frozenset((p, q)) not in self.met]
        again = [q for q in self.prefs[p] if q in unpaired and frozenset((p, q)) in self.met]
        candidates = fresh + (again if repeats < self.max_repeats else [])
        for q in candidates:
            if self.budget[0] == 0:
                return False
            self.budget[0] -= 1
            repeat = frozenset((p, q)) in self.met
            unpaired -= {p, q}
            self._take(p, q, unpaired, avail, -1)
            used = repeats + repeat
            dead = used >= self.max_repeats and any(avail[r] == 0 for r in unpaired)
            pairs.append((p, q))
            if not dead and self._extend(unpaired, avail, pairs, used):
                return True
            pairs.pop()
            self._take(p, q, unpaired, avail, +1)
            unpaired |= {p, q}
        return False

    def _take(self, p: PlayerId, q: PlayerId, unpaired: set[PlayerId],
              avail: dict[PlayerId, int], delta: int) -> None:
        """Adjust the counts of fresh partners left when ``p`` and ``q`` leave or come back."""
        for r in unpaired:
            for x in (p, q):
                if frozenset((r, x)) not in self.met:
                    avail[r] += delta


def _bye_candidates(ordered: list[PlayerId], had_bye: set[PlayerId]) -> list[PlayerId]:
    """Lowest-placed first; those without a bye before those who had one."""
    low_first = ordered[::-1]
    return [p for p in low_first if p not in had_bye] + [p for p in low_first if p in had_bye]


def pair_round(
    state: TournamentState, *, essential_places: int | None = None,
    absent: Iterable[PlayerId] = (),
) -> Pairing:
    """The next round's pairs (docs/rules/go-mcmahon-levels.md "Pairing a round").

    Present players (all but ``absent``) are ordered by McMahon points, level and start number.
    The top McMahon group is folded when it holds at least twice as many players as rounds
    remain (this round included); other groups play the nearest by level from the top; when
    no pairing is left, the last pair is undone and its higher player takes their next
    candidate. Opponents never meet twice unless no pairing avoids it; then the fewest
    repeats are taken and listed in ``Pairing.repeats``. With an odd number of players the
    lowest-placed player without a bye gets it. ``essential_places`` (default: the state's)
    does not change the pairs (the source uses it only to size the top group at the start);
    in round 1 a note says when absences leave the top group smaller than twice it.
    """
    number = len(state.played) + 1
    if number > state.rounds:
        raise TournamentError(f"all {state.rounds} rounds are already played")
    away = tuple(dict.fromkeys(absent))
    known = {p.id for p in state.players}
    for pid in away:
        if pid not in known:
            raise TournamentError(f"unknown player {pid!r} marked absent")
    essential = state.essential_places if essential_places is None else essential_places
    ordered = _ranking(state, (p.id for p in state.players if p.id not in away))
    points, levels, met = state.points(), state.levels(), state.met()
    remaining = state.rounds - len(state.played)
    byes: list[PlayerId | None] = (
        list(_bye_candidates(ordered, state.had_bye())) if len(ordered) % 2 else [None])
    notes: list[str] = []
    budget = [_SEARCH_BUDGET]
    limit_hit = False
    most = len(ordered) // 2
    for max_repeats in range(most + 1):
        if budget[0] == 0 and max_repeats < most:
            continue  # the search limit is spent: take repeats where the order gives them
        if max_repeats == most:
            limit_hit = budget[0] == 0
            budget = [-1]
        for bye in byes:
            order = [p for p in ordered if p != bye]
            top = [p for p in order if order and points[p] == points[order[0]]]
            fold = len(top) >= 2 * remaining  # docs/rules/go-mcmahon-levels.md "Pairing a round" 2
            prefs = _preferences(order, points, levels, fold)
            pairs = _Search(order, prefs, met, max_repeats, budget).run()
            if pairs is None:
                continue
            repeats = tuple(pq for pq in pairs if frozenset(pq) in met)
            if limit_hit:
                notes.append("the search limit was reached; repeats may not be the fewest")
            if repeats:
                notes.append(f"no pairing without repeated games was found; {len(repeats)} "
                             "pair(s) meet again")
            if bye is not None and bye in state.had_bye():
                notes.append(f"{bye} gets a second bye (no pairing without repeated games "
                             "gives it to a player without one)")
            if number == 1 and len(top) < 2 * essential:  # docs/rules/go-mcmahon-levels.md "Start"
                notes.append(f"the top McMahon group has {len(top)} present player(s), fewer "
                             f"than twice the {essential} essential places")
            return Pairing(round=number, pairs=tuple(pairs), bye=bye, absent=away,
                           repeats=repeats, notes=tuple(notes))
    raise TournamentError("no pairing found")  # unreachable: repeats make any pairing valid


# ---------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class _Record:
    """What the final-place criteria read for one player."""

    mcmahon: float
    games: int
    opponents_level: float
    level: int
    rating: float
    start_number: int


def _records(state: TournamentState) -> dict[PlayerId, _Record]:
    points, final = state.points(), state.levels()
    counted: dict[PlayerId, list[int]] = {p.id: [] for p in state.players}
    games = dict.fromkeys(counted, 0)
    for rnd in state.played:
        for pid in rnd.byes:  # docs/rules/go-mcmahon-levels.md "Final places", byes: own final level
            counted[pid].append(final[pid])
        for g in rnd.games:
            for me, other, score in ((g.a, g.b, g.score_a), (g.b, g.a, g.score_b)):
                if g.played:
                    counted[me].append(final[other])
                    games[me] += 1
                elif score == 1.0:  # a forfeit win counts like a bye (module decision)
                    counted[me].append(final[me])
    return {
        p.id: _Record(
            mcmahon=points[p.id], games=games[p.id],
            opponents_level=(sum(counted[p.id]) / len(counted[p.id])
                             if counted[p.id] else math.nan),
            level=final[p.id], rating=p.rating, start_number=p.start_number)
        for p in state.players
    }


def _h2h(state: TournamentState, group: Sequence[PlayerId]) -> dict[PlayerId, float] | None:
    """Points each scored in played games among ``group``; None unless every two met."""
    members = set(group)
    scores = dict.fromkeys(group, 0.0)
    pairs_met: set[frozenset[PlayerId]] = set()
    for rnd in state.played:
        for g in rnd.games:
            if g.played and g.a in members and g.b in members:
                scores[g.a] += g.score_a
                scores[g.b] += g.score_b
                pairs_met.add(frozenset((g.a, g.b)))
    n = len(members)
    return scores if len(pairs_met) == n * (n - 1) // 2 else None


def _criterion(
    name: str, state: TournamentState, records: Mapping[PlayerId, _Record],
    group: Sequence[PlayerId],
) -> dict[PlayerId, float] | None:
    """Each candidate's value for criterion ``name``, higher better; None when not applicable."""
    if name == "head_to_head":
        return _h2h(state, group)
    values: dict[PlayerId, float] = {}
    for pid in group:
        r = records[pid]
        value = {"mcmahon": r.mcmahon, "opponents_level": r.opponents_level,
                 "level": float(r.level), "rating": r.rating,
                 "start_number": -float(r.start_number)}[name]
        values[pid] = -math.inf if math.isnan(value) else value
    return values


def _next_place(
    state: TournamentState, records: Mapping[PlayerId, _Record], remaining: list[PlayerId],
) -> tuple[PlayerId, dict[PlayerId, str]]:
    """Who takes the next place, and for each other player the criterion that dropped them.

    After a criterion separates some candidates, the rest are compared again from the first
    criterion (docs/rules/go-mcmahon-levels.md "Final places").
    """
    candidates = list(remaining)
    dropped: dict[PlayerId, str] = {}
    while len(candidates) > 1:
        for name in CRITERIA:
            values = _criterion(name, state, records, candidates)
            if values is None:
                continue
            best = max(values.values())
            keep = [pid for pid in candidates if values[pid] == best]
            if len(keep) < len(candidates):
                dropped.update({pid: name for pid in candidates if pid not in keep})
                candidates = keep
                break
    return candidates[0], dropped


def standings(state: TournamentState) -> pd.DataFrame:
    """Final places with every criterion (docs/rules/go-mcmahon-levels.md "Final places"), one row per player.

    Columns :data:`STANDINGS_COLUMNS`: ``head_to_head`` is the score in played games against
    the players with the same McMahon points (NaN without such a game);
    ``opponents_level`` the mean final level of the opponents (NaN without any);
    ``separated_by`` the criterion that put the player ahead of the next one ('' for the last).
    """
    records = _records(state)
    remaining = [p.id for p in state.players]
    order: list[PlayerId] = []
    separated: list[str] = []
    last_dropped: dict[PlayerId, str] = {}
    while remaining:
        first, dropped = _next_place(state, records, remaining)
        if order:
            separated.append(last_dropped.get(first, ""))
        order.append(first)
        remaining.remove(first)
        last_dropped = dropped
    separated.append("")
    rows = []
    for place, (pid, sep) in enumerate(zip(order, separated), start=1):
        p, r = state.player(pid), records[pid]
        same = [q for q in records if q != pid and records[q].mcmahon == r.mcmahon]
        h2h = _h2h_score(state, pid, same) if same else math.nan
        rows.append((place, pid, p.name, p.start_number, p.rating, p.start_score, r.mcmahon,
                     r.games, h2h, r.opponents_level, r.level, sep))
    return pd.DataFrame(rows, columns=list(STANDINGS_COLUMNS))


def _h2h_score(state: TournamentState, pid: PlayerId, others: Iterable[PlayerId]) -> float:
    """Points ``pid`` scored in played games against ``others``; NaN without such a game."""
    rivals = set(others)
    scores = [g.score_a if g.a == pid else g.score_b
              for rnd in state.played for g in rnd.games
              if g.played and ((g.a == pid and g.b in rivals) or (g.b == pid and g.a in rivals))]
    return sum(scores) if scores else math.nan


def level_history(state: TournamentState) -> pd.DataFrame:
    """``id, name, U0, U1, ...``: every player's level at the start and after each round."""
    data: dict[str, list[Any]] = {
        "id": [p.id for p in state.players], "name": [p.name for p in state.players],
        "U0": [p.start_level for p in state.players],
    }
    for rnd in state.played:
        data[f"U{rnd.number}"] = [rnd.levels[p.id] for p in state.players]
    return pd.DataFrame(data)


# ---------------------------------------------------------------- JSON


def _game_json(g: Game) -> dict[str, Any]:
    return {"a": g.a, "b": g.b, "score_a": g.score_a, "score_b": g.score_b,
            "handicap": g.handicap, "played": g.played}


def _pairing_json(p: Pairing) -> dict[str, Any]:
    return {"round": p.round, "pairs": [list(pq) for pq in p.pairs], "bye": p.bye,
            "absent": list(p.absent), "repeats": [list(pq) for pq in p.repeats],
            "notes": list(p.notes)}


def state_to_json(state: TournamentState) -> dict[str, Any]:
    """The state as JSON data (the state file of ``clubratings mcmahon``)."""
    return {
        "format": STATE_FORMAT, "version": STATE_VERSION,
        "rounds": state.rounds, "essential_places": state.essential_places,
        "bars": [[rating, points] for rating, points in state.bars],
        "players": [{"id": p.id, "name": p.name, "rating": p.rating,
                     "start_number": p.start_number, "start_score": p.start_score,
                     "start_level": p.start_level} for p in state.players],
        "played": [{"round": r.number, "games": [_game_json(g) for g in r.games],
                    "byes": list(r.byes), "absent": list(r.absent),
                    "levels": dict(r.levels)} for r in state.played],
        "pending": _pairing_json(state.pending) if state.pending else None,
    }


def state_from_json(data: Mapping[str, Any]) -> TournamentState:
    """The inverse of :func:`state_to_json`; :class:`TournamentError` on anything else."""
    if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
        raise TournamentError(f"not a McMahon state (\"format\" is not {STATE_FORMAT!r})")
    if data.get("version") != STATE_VERSION:
        raise TournamentError(f"unsupported state version {data.get('version')!r}")
    try:
        players = tuple(Player(id=str(p["id"]), name=str(p["name"]), rating=float(p["rating"]),
                               start_number=int(p["start_number"]),
                               start_score=int(p["start_score"]),
                               start_level=int(p["start_level"])) for p in data["players"])
        played = tuple(
            Round(number=int(r["round"]),
                  games=tuple(Game(a=str(g["a"]), b=str(g["b"]), score_a=float(g["score_a"]),
                                   score_b=float(g["score_b"]), handicap=int(g["handicap"]),
                                   played=bool(g["played"])) for g in r["games"]),
                  byes=tuple(map(str, r["byes"])), absent=tuple(map(str, r["absent"])),
                  levels=MappingProxyType({str(k): int(v) for k, v in r["levels"].items()}))
            for r in data["played"])
        pending_data = data.get("pending")
        pending = None if pending_data is None else Pairing(
            round=int(pending_data["round"]),
            pairs=tuple((str(a), str(b)) for a, b in pending_data["pairs"]),
            bye=None if pending_data["bye"] is None else str(pending_data["bye"]),
            absent=tuple(map(str, pending_data["absent"])),
            repeats=tuple((str(a), str(b)) for a, b in pending_data["repeats"]),
            notes=tuple(map(str, pending_data["notes"])))
        bars = tuple((float(b[0]), int(b[1])) for b in data["bars"])
        return TournamentState(rounds=int(data["rounds"]),
                               essential_places=int(data["essential_places"]), bars=bars,
                               players=players, played=played, pending=pending)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TournamentError(f"malformed McMahon state: {exc!r}") from None

