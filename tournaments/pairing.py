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
- weighted pairing as OpenGotha pairs (docs/rules/go-mcmahon-pairing.md): a tournament whose
  state carries :class:`PairingSettings` is paired by :func:`pair_round` with a round-wide
  maximum-weight matching (:func:`max_weight_matching`, Edmonds' blossom method) over
  OpenGotha's criteria; :func:`read_opengotha` reads an OpenGotha tournament file (players,
  settings, rounds as played);
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
- **Colours and handicaps** are not assigned by the level pairing: a pair lists the
  higher-placed player first. The weighted pairing assigns both (white first,
  ``Pairing.handicaps``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, TypeAlias

import pandas as pd

from ratings import RatingError, grade_rating

__all__ = [
    "CRITERIA",
    "OpenGothaTournament",
    "PairingSettings",
    "max_weight_matching",
    "opengotha_key",
    "parse_rank",
    "rank_from_rating",
    "read_opengotha",
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
    "weight_terms",
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
    rank: int | None = None
    """Go rank for weighted pairing: 30k = -30, 1k = -1, 1d = 0, 9d = 8 (OpenGotha's scale);
    ``None``: from the rating (docs/rules/go-mcmahon-pairing.md "Players")."""
    club: str = ""
    country: str = ""
    mms_correction: int = 0
    family: str = ""
    """Family name and ``given`` name, when the entry list keeps them apart (OpenGotha files):
    the weighted pairing orders ties by ``family given``."""
    given: str = ""


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the tournament with everything fixed at the start (docs/rules/go-mcmahon-levels.md "Start")."""

    id: PlayerId
    name: str
    rating: float
    start_number: int
    start_score: int
    start_level: int
    rank: int | None = None
    club: str = ""
    country: str = ""
    mms_correction: int = 0
    family: str = ""
    given: str = ""

    def full_name(self, sep: str = " ") -> str:
        """``family + sep + given`` (the name alone when no family name is kept)."""
        return f"{self.family}{sep}{self.given}" if self.family else self.name


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
    handicaps: tuple[int, ...] = ()
    """Weighted pairing only: the stones the second player of each pair receives (the first
    player takes white); empty for the level pairing, which assigns no colours."""


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament: its settings, players, played rounds and the pairing waiting for results."""

    rounds: int
    essential_places: int
    bars: Bars
    players: tuple[Player, ...]
    played: tuple[Round, ...] = ()
    pending: Pairing | None = None
    settings: PairingSettings | None = None
    """Weighted (OpenGotha) pairing settings; ``None``: the level pairing of
    docs/rules/go-mcmahon-levels.md."""

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
    check_top_group: bool = True, settings: PairingSettings | None = None,
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
               start_score=start_score(e.rating, bars), start_level=start_level(e.rating),
               rank=e.rank, club=e.club, country=e.country, mms_correction=e.mms_correction,
               family=e.family, given=e.given)
        for n, e in enumerate(ordered, start=1)
    )
    if settings is not None:
        players = tuple(replace(p, start_score=settings.start_score(p)) for p in players)
        check_top_group = False
    if check_top_group:
        top = max(p.start_score for p in players)
        size = sum(p.start_score == top for p in players)
        if size < 2 * essential_places:
            raise TournamentError(
                f"the top McMahon group has {size} players, fewer than twice the "
                f"{essential_places} essential places; lower the top bar")
    return TournamentState(rounds=rounds, essential_places=essential_places, bars=tuple(bars),
                           players=players, settings=settings)


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
    if state.settings is not None:
        return _pair_weighted(state, state.settings, away)
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
    data = {"round": p.round, "pairs": [list(pq) for pq in p.pairs], "bye": p.bye,
            "absent": list(p.absent), "repeats": [list(pq) for pq in p.repeats],
            "notes": list(p.notes)}
    if p.handicaps:
        data["handicaps"] = list(p.handicaps)
    return data


_PLAYER_EXTRAS = ("rank", "club", "country", "mms_correction", "family", "given")


def _player_json(p: Player) -> dict[str, Any]:
    data: dict[str, Any] = {"id": p.id, "name": p.name, "rating": p.rating,
                            "start_number": p.start_number, "start_score": p.start_score,
                            "start_level": p.start_level}
    for key in _PLAYER_EXTRAS:  # written only when set: older state files stay as they were
        value = getattr(p, key)
        if value not in (None, "", 0) or (key == "rank" and value == 0):
            data[key] = value
    return data


def _player_from_json(p: Mapping[str, Any]) -> Player:
    rank = p.get("rank")
    return Player(id=str(p["id"]), name=str(p["name"]), rating=float(p["rating"]),
                  start_number=int(p["start_number"]), start_score=int(p["start_score"]),
                  start_level=int(p["start_level"]),
                  rank=None if rank is None else int(rank), club=str(p.get("club", "")),
                  country=str(p.get("country", "")),
                  mms_correction=int(p.get("mms_correction", 0)),
                  family=str(p.get("family", "")), given=str(p.get("given", "")))


def state_to_json(state: TournamentState) -> dict[str, Any]:
    """The state as JSON data (the state file of ``clubratings mcmahon``)."""
    return {
        "format": STATE_FORMAT, "version": STATE_VERSION,
        "rounds": state.rounds, "essential_places": state.essential_places,
        "bars": [[rating, points] for rating, points in state.bars],
        "players": [_player_json(p) for p in state.players],
        "played": [{"round": r.number, "games": [_game_json(g) for g in r.games],
                    "byes": list(r.byes), "absent": list(r.absent),
                    "levels": dict(r.levels)} for r in state.played],
        "pending": _pairing_json(state.pending) if state.pending else None,
        **({"pairing": state.settings.to_names()} if state.settings is not None else {}),
    }


def state_from_json(data: Mapping[str, Any]) -> TournamentState:
    """The inverse of :func:`state_to_json`; :class:`TournamentError` on anything else."""
    if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
        raise TournamentError(f"not a McMahon state (\"format\" is not {STATE_FORMAT!r})")
    if data.get("version") != STATE_VERSION:
        raise TournamentError(f"unsupported state version {data.get('version')!r}")
    try:
        players = tuple(_player_from_json(p) for p in data["players"])
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
            notes=tuple(map(str, pending_data["notes"])),
            handicaps=tuple(int(h) for h in pending_data.get("handicaps", ())))
        settings_data = data.get("pairing")
        settings = None if settings_data is None else PairingSettings.from_names(settings_data)
        bars = tuple((float(b[0]), int(b[1])) for b in data["bars"])
        return TournamentState(rounds=int(data["rounds"]),
                               essential_places=int(data["essential_places"]), bars=bars,
                               players=players, played=played, pending=pending,
                               settings=settings)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TournamentError(f"malformed McMahon state: {exc!r}") from None



# ---------------------------------------------------------------- maximum-weight matching


def max_weight_matching(
    edges: Sequence[tuple[int, int, int]], *, max_cardinality: bool = False,
) -> list[int]:
    """A maximum-weight matching of a general graph (Edmonds' blossom method, O(n^3)).

    ``edges``: ``(i, j, w)`` with vertices ``0 .. n-1`` and whole-number weights. Returns
    ``mate`` with ``mate[v]`` the vertex matched to ``v`` or ``-1``. With ``max_cardinality``
    the matching has the most edges possible and, among those, the greatest weight.
    Exact: weights stay Python integers (they are doubled inside so that every dual stays
    whole). The primal-dual method follows Galil, "Efficient algorithms for finding maximum
    matching in graphs" (1986), in the form that keeps, per S-blossom, its least-slack edges.
    """
    if not edges:
        return []
    edges = [(int(i), int(j), 2 * int(w)) for i, j, w in edges]
    for i, j, _ in edges:
        if i == j or i < 0 or j < 0:
            raise ValueError(f"bad edge ({i}, {j})")
    nedge = len(edges)
    nvertex = 1 + max(max(i, j) for i, j, _ in edges)
    maxweight = max(0, max(w for _, _, w in edges))
    endpoint = [edges[p // 2][p % 2] for p in range(2 * nedge)]
    neighbend: list[list[int]] = [[] for _ in range(nvertex)]
    for k, (i, j, _) in enumerate(edges):
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)
    mate = nvertex * [-1]
    label = (2 * nvertex) * [0]
    labelend = (2 * nvertex) * [-1]
    inblossom = list(range(nvertex))
    blossomparent = (2 * nvertex) * [-1]
    blossomchilds: list[Any] = (2 * nvertex) * [None]
    blossombase = list(range(nvertex)) + nvertex * [-1]
    blossomendps: list[Any] = (2 * nvertex) * [None]
    bestedge = (2 * nvertex) * [-1]
    blossombestedges: list[Any] = (2 * nvertex) * [None]
    unusedblossoms = list(range(nvertex, 2 * nvertex))
    dualvar = nvertex * [maxweight] + nvertex * [0]
    allowedge = nedge * [False]
    queue: list[int] = []

    def slack(k: int) -> int:
        i, j, wt = edges[k]
        return dualvar[i] + dualvar[j] - 2 * wt

    def leaves(b: int) -> Iterable[int]:
        if b < nvertex:
            yield b
        else:
            for t in blossomchilds[b]:
                if t < nvertex:
                    yield t
                else:
                    yield from leaves(t)

    def assign_label(w: int, t: int, p: int) -> None:
        b = inblossom[w]
        label[w] = label[b] = t
        labelend[w] = labelend[b] = p
        bestedge[w] = bestedge[b] = -1
        if t == 1:
            queue.extend(leaves(b))
        elif t == 2:
            base = blossombase[b]
            assign_label(endpoint[mate[base]], 1, mate[base] ^ 1)

    def scan_blossom(v: int, w: int) -> int:
        path = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w, _ = edges[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        blossomchilds[b] = path = []
        blossomendps[b] = endps = []
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        for v in leaves(b):
            if label[inblossom[v]] == 2:
                queue.append(v)
            inblossom[v] = b
        bestedgeto = (2 * nvertex) * [-1]
        for bv in path:
            if blossombestedges[bv] is None:
                nblists = [[p // 2 for p in neighbend[v]] for v in leaves(bv)]
            else:
                nblists = [blossombestedges[bv]]
            for nblist in nblists:
                for k2 in nblist:
                    i, j, _ = edges[k2]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if (bj != b and label[bj] == 1
                            and (bestedgeto[bj] == -1 or slack(k2) < slack(bestedgeto[bj]))):
                        bestedgeto[bj] = k2
            blossombestedges[bv] = None
            bestedge[bv] = -1
        blossombestedges[b] = [k2 for k2 in bestedgeto if k2 != -1]
        bestedge[b] = -1
        for k2 in blossombestedges[b]:
            if bestedge[b] == -1 or slack(k2) < slack(bestedge[b]):
                bestedge[b] = k2

    def expand_blossom(b: int, endstage: bool) -> None:
        for s in blossomchilds[b]:
            blossomparent[s] = -1
            if s < nvertex:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for v in leaves(s):
                    inblossom[v] = s
        if not endstage and label[b] == 2:
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            j = blossomchilds[b].index(entrychild)
            if j & 1:
                j -= len(blossomchilds[b])
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[blossomendps[b][j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[blossomendps[b][j - endptrick] // 2] = True
                j += jstep
                p = blossomendps[b][j - endptrick] ^ endptrick
                allowedge[p // 2] = True
                j += jstep
            bv = blossomchilds[b][j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            j += jstep
            while blossomchilds[b][j] != entrychild:
                bv = blossomchilds[b][j]
                if label[bv] == 1:
                    j += jstep
                    continue
                reached = -1
                for v in leaves(bv):
                    if label[v] != 0:
                        reached = v
                        break
                if reached != -1:
                    label[reached] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(reached, 2, labelend[reached])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= nvertex:
            augment_blossom(t, v)
        i = j = blossomchilds[b].index(t)
        if i & 1:
            j -= len(blossomchilds[b])
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = blossomchilds[b][j]
            p = blossomendps[b][j - endptrick] ^ endptrick
            if t >= nvertex:
                augment_blossom(t, endpoint[p])
            j += jstep
            t = blossomchilds[b][j]
            if t >= nvertex:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = blossomchilds[b][i:] + blossomchilds[b][:i]
        blossomendps[b] = blossomendps[b][i:] + blossomendps[b][:i]
        blossombase[b] = blossombase[blossomchilds[b][0]]

    def augment_matching(k: int) -> None:
        v, w, _ = edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    for _ in range(nvertex):
        label[:] = (2 * nvertex) * [0]
        bestedge[:] = (2 * nvertex) * [-1]
        blossombestedges[nvertex:] = nvertex * [None]
        allowedge[:] = nedge * [False]
        queue[:] = []
        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for p in neighbend[v]:
                    k = p // 2
                    w = endpoint[p]
                    if inblossom[v] == inblossom[w]:
                        continue
                    kslack = 0
                    if not allowedge[k]:
                        kslack = slack(k)
                        if kslack <= 0:
                            allowedge[k] = True
                    if allowedge[k]:
                        if label[inblossom[w]] == 0:
                            assign_label(w, 2, p ^ 1)
                        elif label[inblossom[w]] == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[inblossom[w]] == 1:
                        b = inblossom[v]
                        if bestedge[b] == -1 or kslack < slack(bestedge[b]):
                            bestedge[b] = k
                    elif label[w] == 0:
                        if bestedge[w] == -1 or kslack < slack(bestedge[w]):
                            bestedge[w] = k
            if augmented:
                break
            deltatype = -1
            delta = 0
            deltaedge = deltablossom = -1
            if not max_cardinality:
                deltatype = 1
                delta = min(dualvar[:nvertex])
            for v in range(nvertex):
                if label[inblossom[v]] == 0 and bestedge[v] != -1:
                    d = slack(bestedge[v])
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 2, bestedge[v]
            for b in range(2 * nvertex):
                if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                    d = slack(bestedge[b]) // 2
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 3, bestedge[b]
            for b in range(nvertex, 2 * nvertex):
                if (blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2
                        and (deltatype == -1 or dualvar[b] < delta)):
                    delta, deltatype, deltablossom = dualvar[b], 4, b
            if deltatype == -1:
                deltatype = 1
                delta = max(0, min(dualvar[:nvertex]))
            for v in range(nvertex):
                if label[inblossom[v]] == 1:
                    dualvar[v] -= delta
                elif label[inblossom[v]] == 2:
                    dualvar[v] += delta
            for b in range(nvertex, 2 * nvertex):
                if blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta
            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j, _ = edges[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                i, j, _ = edges[deltaedge]
                queue.append(i)
            else:
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for b in range(nvertex, 2 * nvertex):
            if (blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1
                    and dualvar[b] == 0):
                expand_blossom(b, True)
    return [endpoint[m] if m >= 0 else -1 for m in mate]


# ---------------------------------------------------------------- weighted pairing (OpenGotha)

MIN_RANK = -30
"""30 kyu on the rank scale of weighted pairing (1k = -1, 1d = 0)."""

_SEED_SYSTEMS = ("SPLITANDSLIP", "SPLITANDFOLD", "SPLITANDRANDOM")
_DUDD_MODES = ("TOP", "MID", "BOT")
_CRITERIA = ("NULL", "MMS", "NBW", "SOSM", "SOSW", "SOSOSM", "SOSOSW", "SOSMM1", "SOSWM1",
             "SOSMM2", "SOSWM2", "RATING", "RANK")


def parse_rank(text: str) -> int:
    """``"3d"`` -> 2, ``"1D"`` -> 0, ``"1k"`` -> -1, ``"30K"`` -> -30 (weighted-pairing rank)."""
    token = text.strip().lower()
    for word, letter in (("kyu", "k"), ("dan", "d")):
        if token.endswith(word):
            token = token.removesuffix(word).strip() + letter
    number, letter = token[:-1], token[-1:]
    if number.isdigit() and letter in ("k", "d"):
        n = int(number)
        if letter == "k" and 1 <= n <= 30:
            return -n
        if letter == "d" and 1 <= n <= 9:
            return n - 1
    raise TournamentError(f"not a go rank: {text!r} (expected e.g. '3k', '1d')")


def rank_from_rating(rating: float) -> int:
    """The rank of an RFG rating (1d = 2100, 100 a grade), kept between 30k and 9d."""
    return max(MIN_RANK, min(8, _round_half_up((rating - 2100.0) / 100.0)))


def _rank_text(rank: int) -> str:
    return f"{rank + 1}d" if rank >= 0 else f"{-rank}k"


@dataclass(frozen=True, slots=True)
class PairingSettings:
    """The settings of the weighted pairing (docs/rules/go-mcmahon-pairing.md), OpenGotha's
    defaults for a McMahon tournament. Weights are OpenGotha's units; ranks use
    :func:`parse_rank`'s scale."""

    system: str = "mcmahon"
    mm_bar: int = 0
    mm_floor: int = -20
    mms_value_absent: float = 0.5
    round_down: bool = True
    placement: tuple[str, ...] = ("MMS", "SOSM", "SOSOSM")
    avoid_duplicate: float = 5e14
    random: float = 0.0
    deterministic: bool = True
    balance_wb: float = 1e6
    score_difference: float = 1e11
    dudd_weight: float = 1e8
    compensate_dudd: bool = True
    dudd_upper: str = "MID"
    dudd_lower: str = "MID"
    seeding: float = 5e6
    seed_system1: str = "SPLITANDSLIP"
    seed_system2: str = "SPLITANDSLIP"
    last_round_seed_system1: int = 2
    additional_criterion1: str = "RATING"
    additional_criterion2: str = "NULL"
    avoid_same_geo: float = 1e11
    club_factor: int = 3
    country_factor: int = 1
    bar_threshold_active: bool = True
    nbw_threshold_active: bool = False
    rank_threshold: int = 0
    nx1: float = 0.5
    hd_based_on_mms: bool = True
    hd_ceiling: int = 9
    hd_correction: int = 1
    hd_rank_threshold: int = 0

    def start_score(self, p: Player | Entrant) -> int:
        """Start McMahon score: the rank kept between floor and bar, plus 30, plus the
        player's correction (0 in a Swiss tournament)."""
        if self.system == "swiss":
            return 0
        return min(max(_rank_of(p), self.mm_floor), self.mm_bar) - MIN_RANK + p.mms_correction

    def to_names(self) -> dict[str, Any]:
        """The settings as ``{name: value}`` (ranks as text), the state file's ``pairing``."""
        out: dict[str, Any] = {}
        for name in _SETTING_FIELDS:
            value = getattr(self, name)
            if name in _RANK_FIELDS:
                value = _rank_text(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_names(cls, values: Mapping[str, Any], base: PairingSettings | None = None,
                   ) -> PairingSettings:
        """``base`` (default: OpenGotha's defaults) with ``values`` set by name: this class's
        field names or OpenGotha's parameter names (``paiMaSeedSystem1``, ``genMMBar`` ...)."""
        changes: dict[str, Any] = {}
        for raw_name, raw in values.items():
            name = _OPENGOTHA_NAMES.get(raw_name, raw_name)
            if name not in _SETTING_FIELDS:
                raise TournamentError(f"unknown pairing setting {raw_name!r}")
            try:
                changes[name] = _setting_value(name, raw, halve=raw_name == "genMMS2ValueAbsent")
            except (TypeError, ValueError):
                raise TournamentError(
                    f"pairing setting {raw_name!r}: bad value {raw!r}") from None
        settings = replace(base or cls(), **changes)
        settings.check()
        return settings

    def check(self) -> None:
        """:class:`TournamentError` when a setting has no meaning."""
        if self.system not in ("mcmahon", "swiss"):
            raise TournamentError(f"pairing system {self.system!r} is not mcmahon or swiss")
        for name in ("seed_system1", "seed_system2"):
            if getattr(self, name) not in _SEED_SYSTEMS:
                raise TournamentError(f"{name} {getattr(self, name)!r} is not one of "
                                      f"{', '.join(_SEED_SYSTEMS)}")
        for name in ("dudd_upper", "dudd_lower"):
            if getattr(self, name) not in _DUDD_MODES:
                raise TournamentError(f"{name} {getattr(self, name)!r} is not TOP, MID or BOT")
        for crit in (*self.placement, self.additional_criterion1, self.additional_criterion2):
            if crit not in _CRITERIA:
                raise TournamentError(f"placement criterion {crit!r} is not one of "
                                      f"{', '.join(_CRITERIA)}")


_SETTING_FIELDS = tuple(PairingSettings.__dataclass_fields__)
_RANK_FIELDS = {"mm_bar", "mm_floor", "rank_threshold", "hd_rank_threshold"}
_OPENGOTHA_NAMES = {
    "genMMBar": "mm_bar", "genMMFloor": "mm_floor", "genMMS2ValueAbsent": "mms_value_absent",
    "genRoundDownNBWMMS": "round_down", "paiBaAvoidDuplGame": "avoid_duplicate",
    "paiBaRandom": "random", "paiBaDeterministic": "deterministic",
    "paiBaBalanceWB": "balance_wb", "paiMaMinimizeScoreDifference": "score_difference",
    "paiMaDUDDWeight": "dudd_weight", "paiMaCompensateDUDD": "compensate_dudd",
    "paiMaDUDDUpperMode": "dudd_upper", "paiMaDUDDLowerMode": "dudd_lower",
    "paiMaMaximizeSeeding": "seeding", "paiMaSeedSystem1": "seed_system1",
    "paiMaSeedSystem2": "seed_system2",
    "paiMaLastRoundForSeedSystem1": "last_round_seed_system1",
    "paiMaAdditionalPlacementCritSystem1": "additional_criterion1",
    "paiMaAdditionalPlacementCritSystem2": "additional_criterion2",
    "paiSeAvoidSameGeo": "avoid_same_geo", "paiSePreferMMSDiffRatherThanSameClub": "club_factor",
    "paiSePreferMMSDiffRatherThanSameCountry": "country_factor",
    "paiSeBarThresholdActive": "bar_threshold_active",
    "paiSeNbWinsThresholdActive": "nbw_threshold_active", "paiSeRankThreshold": "rank_threshold",
    "paiStandardNX1Factor": "nx1", "hdBasedOnMMS": "hd_based_on_mms",
    "hdCeiling": "hd_ceiling", "hdCorrection": "hd_correction",
    "hdNoHdRankThreshold": "hd_rank_threshold",
}
"""OpenGotha's parameter names (its tournament file's attributes) and ours."""


def _setting_value(name: str, raw: Any, *, halve: bool = False) -> Any:
    kind = PairingSettings.__dataclass_fields__[name].type
    text = raw.strip() if isinstance(raw, str) else raw
    if name in _RANK_FIELDS:
        return parse_rank(text) if isinstance(text, str) else int(text)
    if name == "placement":
        items = text.split(",") if isinstance(text, str) else list(text)
        return tuple(c for c in (str(i).strip().upper() for i in items) if c not in ("", "NULL"))
    if kind == "bool":
        if isinstance(text, bool):
            return text
        if str(text).lower() in ("true", "1", "yes"):
            return True
        if str(text).lower() in ("false", "0", "no"):
            return False
        raise ValueError(text)
    if kind == "int":
        return int(text)
    if kind == "float":
        number = float(text)
        if not math.isfinite(number):
            raise ValueError(text)
        return number / 2.0 if halve else number
    value = str(text).upper() if name != "system" else str(text).lower()
    if name.startswith("additional_criterion") and value in ("NONE", ""):
        return "NULL"
    return value


def _rank_of(p: Player | Entrant) -> int:
    return p.rank if p.rank is not None else rank_from_rating(p.rating)


@dataclass(frozen=True, slots=True)
class OpenGothaTournament:
    """What an OpenGotha tournament file holds for us: entrants, settings and the rounds as
    played. ``pairs[n]``: (white, black) of every game of round ``n``; ``results[n]``: the
    round with its results, for rounds whose results are all known."""

    name: str
    rounds: int
    entrants: tuple[Entrant, ...]
    settings: PairingSettings
    pairs: Mapping[int, tuple[tuple[PlayerId, PlayerId], ...]]
    byes: Mapping[int, tuple[PlayerId, ...]]
    results: Mapping[int, RoundResults]


def opengotha_key(family: str, given: str) -> PlayerId:
    """OpenGotha's key of a player: family and given names without spaces, upper case."""
    return f"{family.replace(' ', '')}{given.replace(' ', '')}".upper()


_OG_RESULTS = {"RESULT_WHITEWINS": (1.0, 0.0), "RESULT_BLACKWINS": (0.0, 1.0),
               "RESULT_EQUAL": (0.5, 0.5), "RESULT_BOTHLOOSE": (0.0, 0.0),
               "RESULT_BOTHLOSE": (0.0, 0.0)}


def read_opengotha(text: str) -> OpenGothaTournament:
    """An OpenGotha tournament file (XML) as entrants, pairing settings and played rounds.

    Players are keyed as OpenGotha keys them (:func:`opengotha_key`); their rank is the
    file's ``rank``, their rating its ``rating``. :class:`TournamentError` for a file that is
    no OpenGotha tournament or names an unknown player.
    """
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise TournamentError(f"not an XML file: {exc}") from None
    if root.tag != "Tournament":
        raise TournamentError("not an OpenGotha tournament (no <Tournament> element)")
    general = root.find("./TournamentParameterSet/GeneralParameterSet")
    pairing = root.find("./TournamentParameterSet/PairingParameterSet")
    handicap = root.find("./TournamentParameterSet/HandicapParameterSet")
    if general is None or pairing is None:
        raise TournamentError("OpenGotha file without GeneralParameterSet/PairingParameterSet")
    names: dict[str, Any] = {}
    for element in (general, pairing, handicap):
        if element is None:
            continue
        for key, value in element.attrib.items():
            if key in _OPENGOTHA_NAMES:
                names[key] = value
    criteria = root.find("./TournamentParameterSet/PlacementParameterSet/PlacementCriteria")
    if criteria is not None:
        crit = sorted(criteria.findall("PlacementCriterion"), key=lambda c: int(c.get("number", 0)))
        names["placement"] = ",".join(c.get("name", "NULL") for c in crit)
    placement = str(names.get("placement", ""))
    names["system"] = "mcmahon" if "MMS" in placement.split(",") else "swiss"
    settings = PairingSettings.from_names(names)
    entrants = []
    for el in root.iter("Player"):
        family, given = el.get("name", ""), el.get("firstName", "")
        key = opengotha_key(family, given)
        rank = parse_rank(el.get("rank") or el.get("grade") or "20k")
        # a rating is kept below the ideal player's, which has no start level
        rating = min(float(el.get("rating") or _rating_of_rank(rank)), IDEAL - 1.0)
        entrants.append(Entrant(
            id=key, name=f"{given} {family}".strip(), rating=rating, rank=rank,
            club=el.get("club", ""), country=el.get("country", ""),
            mms_correction=int(el.get("smmsCorrection", "0") or 0), family=family, given=given))
    known = {e.id for e in entrants}

    def player(key: str | None) -> PlayerId:
        found = (key or "").replace(" ", "").upper()
        if found not in known:
            raise TournamentError(f"OpenGotha file names an unknown player {key!r}")
        return found

    pairs: dict[int, list[tuple[PlayerId, PlayerId]]] = {}
    games: dict[int, list[Game]] = {}
    unknown: set[int] = set()
    for el in root.iter("Game"):
        rnd = int(el.get("roundNumber", "0"))
        white, black = player(el.get("whitePlayer")), player(el.get("blackPlayer"))
        pairs.setdefault(rnd, []).append((white, black))
        result = el.get("result", "RESULT_UNKNOWN")
        forfeit = result.endswith("_BYDEF")
        scores = _OG_RESULTS.get(result.removesuffix("_BYDEF"))
        if scores is None or (scores == (0.5, 0.5) and forfeit):
            unknown.add(rnd)
            continue
        games.setdefault(rnd, []).append(Game(
            a=white, b=black, score_a=scores[0], score_b=scores[1],
            handicap=int(el.get("handicap", "0") or 0),
            played=not forfeit and scores != (0.0, 0.0)))
    byes: dict[int, list[PlayerId]] = {}
    for el in root.iter("ByePlayer"):
        if el.get("player"):
            byes.setdefault(int(el.get("roundNumber", "0")), []).append(player(el.get("player")))
    rounds = int(general.get("numberOfRounds", "0") or 0) or max(pairs, default=1)
    results = {n: RoundResults(games=tuple(games.get(n, ())), byes=tuple(byes.get(n, ())))
               for n in sorted(set(pairs) | set(byes)) if n not in unknown}
    return OpenGothaTournament(
        name=general.get("shortName", "") or general.get("name", ""), rounds=rounds,
        entrants=tuple(entrants), settings=settings,
        pairs=MappingProxyType({n: tuple(v) for n, v in sorted(pairs.items())}),
        byes=MappingProxyType({n: tuple(v) for n, v in sorted(byes.items())}),
        results=MappingProxyType(results))


def _rating_of_rank(rank: int) -> float:
    """The RFG rating at the middle of a rank (1d = 2100): for a file without ratings."""
    return 2100.0 + 100.0 * rank


def _det_random(limit: float, p1: Player, p2: Player, symmetric: bool) -> float:
    """OpenGotha's deterministic "random" number in ``[0, limit]`` from the two names."""
    n1, n2 = p1.full_name(""), p2.full_name("")
    inverse = n1 > n2
    if inverse:
        n1, n2 = n2, n1
    total = float(sum(ord(c) * (i + 1) for i, c in enumerate(n1 + n2)))
    value = math.fmod(total * 1234567, limit + 1)
    if inverse and not symmetric:
        value = limit - value
    return value


def _java_round(x: float) -> int:
    return math.floor(x + 0.5)


@dataclass(slots=True)
class _History:
    """What the weights read about the rounds played before the one being paired."""

    main: dict[PlayerId, float]
    nbw: dict[PlayerId, float]
    base: dict[PlayerId, float]
    colour: dict[PlayerId, int]
    dudd: dict[PlayerId, tuple[int, int]]
    met: set[frozenset[PlayerId]]
    had_bye: set[PlayerId]
    values: dict[str, dict[PlayerId, float]]


def _main_scores(state: TournamentState, settings: PairingSettings, upto: int,
                 ) -> tuple[dict[PlayerId, float], dict[PlayerId, float]]:
    """Main score (McMahon score or wins) and wins of every player before round ``upto + 1``."""
    nbw = {p.id: 0.0 for p in state.players}
    missed = {p.id: 0 for p in state.players}
    for rnd in state.played[:upto]:
        present = set(rnd.byes)
        for g in rnd.games:
            nbw[g.a] += g.score_a
            nbw[g.b] += g.score_b
            present |= {g.a, g.b}
        for pid in rnd.byes:
            nbw[pid] += 1.0
        for pid in missed:
            missed[pid] += pid not in present
    if settings.system == "swiss":
        return dict(nbw), nbw
    main = {}
    for p in state.players:
        raw = settings.start_score(p) + nbw[p.id] + missed[p.id] * settings.mms_value_absent
        main[p.id] = (math.floor(raw + 1e-5) if settings.round_down
                      else _java_round(2 * raw) / 2.0)
    return main, nbw


def _history(state: TournamentState, settings: PairingSettings) -> _History:
    main, nbw = _main_scores(state, settings, len(state.played))
    base = {p.id: (0.0 if settings.system == "swiss" else float(settings.start_score(p)))
            for p in state.players}
    colour = {p.id: 0 for p in state.players}
    du = {p.id: 0 for p in state.players}
    dd = {p.id: 0 for p in state.players}
    met: set[frozenset[PlayerId]] = set()
    had_bye: set[PlayerId] = set()
    for k, rnd in enumerate(state.played):
        before, _ = _main_scores(state, settings, k)
        for g in rnd.games:
            met.add(frozenset((g.a, g.b)))
            if g.handicap == 0:
                colour[g.a] += 1
                colour[g.b] -= 1
            d = (before[g.a] > before[g.b]) - (before[g.a] < before[g.b])
            dd[g.a] += max(0, d)
            du[g.a] += max(0, -d)
            du[g.b] += max(0, d)
            dd[g.b] += max(0, -d)
        had_bye |= set(rnd.byes)
    # opponents' scores (SOS and its variants); a bye or a missed round counts the start score
    opp: dict[PlayerId, list[float]] = {p.id: [] for p in state.players}
    extra = {p.id: 0.0 for p in state.players}
    missed_rounds = {p.id: 0 for p in state.players}
    opponents: dict[PlayerId, list[PlayerId | None]] = {p.id: [] for p in state.players}
    for rnd in state.played:
        present = set(rnd.byes)
        for g in rnd.games:
            opp[g.a].append(main[g.b] + g.handicap)
            opp[g.b].append(main[g.a] - g.handicap)
            opponents[g.a].append(g.b)
            opponents[g.b].append(g.a)
            present |= {g.a, g.b}
        for pid in rnd.byes:
            extra[pid] += base[pid]
            opponents[pid].append(None)
        for pid in missed_rounds:
            if pid not in present:
                missed_rounds[pid] += 1
                extra[pid] += base[pid]
    sos = {pid: sum(opp[pid]) + extra[pid] for pid in opp}
    sosm1 = {pid: sum(sorted(opp[pid])[:-1]) + extra[pid] for pid in opp}
    sosm2 = {pid: sum(sorted(opp[pid])[:-2]) + extra[pid] for pid in opp}
    sosos = {pid: sum(sos[q] for q in opponents[pid] if q is not None)
             + missed_rounds[pid] * base[pid] * len(state.played) for pid in opp}
    rating = {p.id: p.rating for p in state.players}
    rank = {p.id: float(_rank_of(p)) for p in state.players}
    values = {"MMS": main, "NBW": nbw, "SOSM": sos, "SOSW": sos, "SOSOSM": sosos,
              "SOSOSW": sosos, "SOSMM1": sosm1, "SOSWM1": sosm1, "SOSMM2": sosm2,
              "SOSWM2": sosm2, "RATING": rating, "RANK": rank}
    return _History(main=main, nbw=nbw, base=base, colour=colour,
                    dudd={pid: (du[pid], dd[pid]) for pid in du}, met=met, had_bye=had_bye,
                    values=values)


@dataclass(slots=True)
class _Weights:
    """OpenGotha's weight of a pair (docs/rules/go-mcmahon-pairing.md "Weights")."""

    s: PairingSettings
    h: _History
    number: int
    rounds: int
    players: Mapping[PlayerId, Player]
    group: dict[PlayerId, int]
    place: dict[PlayerId, tuple[int, int]]
    groups_count: int

    def concavity(self, x: float, scale: float) -> float:
        return scale * (1.0 - x) * (1.0 + self.s.nx1 * x)

    def pseudo_rank(self, pid: PlayerId) -> int:
        if self.s.system == "mcmahon" and self.s.hd_based_on_mms:
            rank = _java_round(self.h.main[pid]) + MIN_RANK
        else:
            rank = _rank_of(self.players[pid])
        return min(rank, self.s.hd_rank_threshold)

    def handicap(self, white: PlayerId, black: PlayerId) -> int:
        hd = self.pseudo_rank(white) - self.pseudo_rank(black)
        hd = hd - self.s.hd_correction if hd >= self.s.hd_correction else 0
        return max(-self.s.hd_ceiling, min(hd, self.s.hd_ceiling))

    def dudd_part(self, mode: str, pid: PlayerId, weight: float) -> float:
        place, size = self.place[pid]
        if mode == "TOP":
            return weight / 2 * (size - 1 - place) / size
        if mode == "MID":
            return weight / 2 * (size - 1 - abs(2 * place - size + 1)) / size
        return weight / 2 * place / size

    def meets(self, pid: PlayerId) -> bool:
        threshold = self.rounds if self.s.nbw_threshold_active else 2 * self.rounds
        if 2 * self.h.nbw[pid] >= threshold:
            return True
        if self.s.system == "swiss":
            return False
        return ((self.s.bar_threshold_active and self.h.base[pid] >= self.s.mm_bar - MIN_RANK)
                or self.h.main[pid] >= self.s.rank_threshold - MIN_RANK)

    def __call__(self, p: PlayerId, q: PlayerId) -> int:
        return _java_round(1.0 + sum(self.parts(p, q).values()))

    def parts(self, p: PlayerId, q: PlayerId) -> dict[str, float]:
        """The weight's terms by OpenGotha's names (its weight dumps use the same ones)."""
        s, h = self.s, self.h
        p1, p2 = self.players[p], self.players[q]
        out = dict.fromkeys(("baseDuplicateGame", "baseRandom", "baseBWBalance",
                             "mainScoreDiff", "mainDUDD", "mainSeed", "secGeo"), 0.0)
        if frozenset((p, q)) not in h.met:
            out["baseDuplicateGame"] = s.avoid_duplicate
        if s.random and s.deterministic:
            out["baseRandom"] = _det_random(s.random, p1, p2, True)
        if max(self.handicap(p, q), self.handicap(q, p)) == 0:
            wb1, wb2 = h.colour[p], h.colour[q]
            if wb1 * wb2 < 0:
                out["baseBWBalance"] = s.balance_wb
            elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
                out["baseBWBalance"] = s.balance_wb / 2
        g1, g2 = self.group[p], self.group[q]
        if self.groups_count:
            out["mainScoreDiff"] = self.concavity(abs(g1 - g2) / self.groups_count,
                                                  s.score_difference)
        if g1 != g2:
            upper, lower = (q, p) if g1 < g2 else (p, q)
            scenario = 2
            u_du, u_dd = h.dudd[upper]
            l_du, l_dd = h.dudd[lower]
            scenario -= (u_dd > 0) + (l_du > 0)
            if scenario != 0 and u_du > 0 and u_du > u_dd:
                scenario += 1
            if scenario != 0 and l_dd > 0 and l_dd > l_du:
                scenario += 1
            w = s.dudd_weight / 5.0
            score = self.dudd_part(s.dudd_upper, upper, w) + self.dudd_part(s.dudd_lower, lower, w)
            if scenario == 1:
                score += w
            elif scenario == 2 or (scenario > 2 and not s.compensate_dudd):
                score += 2 * w
            elif scenario == 3:
                score += 3 * w
            elif scenario == 4:
                score += 4 * w
            out["mainDUDD"] = max(0.0, score)
        else:
            (c1, size), (c2, _) = self.place[p], self.place[q]
            system = s.seed_system1 if self.number <= s.last_round_seed_system1 else s.seed_system2
            top = s.seeding
            seed = 0.0
            if system == "SPLITANDSLIP":
                x = 2.0 * abs(c1 - c2) - size
                seed = top - top * x / size * x / size
            elif system == "SPLITANDFOLD":
                x = c1 + c2 - (size - 1)
                seed = top - top * x / (size - 1) * x / (size - 1) if size > 1 else top
            elif (2 * c1 < size) != (2 * c2 < size):
                seed = top - _det_random(top * 0.2, p1, p2, True)
            out["mainSeed"] = _java_round(seed)
        out["secGeo"] = self.geo(p, q)
        return out

    def geo(self, p: PlayerId, q: PlayerId) -> float:
        s = self.s
        p1, p2 = self.players[p], self.players[q]
        span = self.groups_count or 1
        country = (min(s.country_factor / span, 1.0)
                   if p1.country != p2.country and s.country_factor else 0.0)
        club = 0.0
        if p1.club[:4].upper() != p2.club[:4].upper() and s.club_factor:
            club = min(s.club_factor * 1.2 / span, 1.0)
        ratio = max(country, club) + min(country, club) / 2.0
        if ratio > 0.0 and self.groups_count:
            ratio += 0.5 / self.groups_count
        nominal = min(s.score_difference - self.concavity(ratio, s.avoid_same_geo),
                      s.avoid_same_geo)
        meets = self.meets(p) + self.meets(q)
        if meets == 2:
            return s.avoid_same_geo
        if meets == 1:
            return 0.5 * (nominal + s.avoid_same_geo)
        return nominal


def weight_terms(state: TournamentState, *, absent: Iterable[PlayerId] = (),
                 ) -> dict[tuple[PlayerId, PlayerId], dict[str, float]]:
    """The weight of every pair the next round could hold, by its terms (OpenGotha's names;
    docs/rules/go-mcmahon-pairing.md "Weights"), for a state with weighted pairing. The
    player given the bye is left out, as in the pairing."""
    if state.settings is None:
        raise TournamentError("this tournament uses the level pairing: it has no weights")
    weights, _, by_name, bye = _weighting(state, state.settings, tuple(absent))
    paired = [pid for pid in by_name if pid != bye]
    return {(p, q): weights.parts(p, q) for i, p in enumerate(paired) for q in paired[i + 1:]}


def _weighting(state: TournamentState, s: PairingSettings, away: tuple[PlayerId, ...],
               ) -> tuple[_Weights, list[PlayerId], list[PlayerId], PlayerId | None]:
    """The weights of the next round, the pairing order, the name order and the bye."""
    number = len(state.played) + 1
    h = _history(state, s)
    players = {p.id: p for p in state.players}
    present = [p.id for p in state.players if p.id not in away]

    def key(pid: PlayerId) -> tuple[Any, ...]:
        extra = s.additional_criterion1 if number <= s.last_round_seed_system1 \
            else s.additional_criterion2
        crits = [c for c in (*s.placement, extra) if c != "NULL"]
        return (*(-h.values[c][pid] for c in crits), players[pid].full_name(" "))

    order = sorted(present, key=key)
    by_name = sorted(present, key=lambda pid: players[pid].full_name(" "))
    bye: PlayerId | None = None
    if len(present) % 2:
        best = math.inf
        for pid in by_name:  # the last of the lowest, in name order
            if s.system == "mcmahon":
                w = 2 * h.main[pid]
            else:
                w = _rank_of(players[pid]) + 40 * h.main[pid]
            w += 1000 * (pid in h.had_bye)
            if w <= best:
                best, bye = w, pid
    group = {pid: int(h.main[pid] * 2) // 2 for pid in present}
    place: dict[PlayerId, tuple[int, int]] = {}
    members: dict[int, list[PlayerId]] = {}
    for pid in order:  # the bye player keeps its place, as OpenGotha does
        members.setdefault(group[pid], []).append(pid)
    for ids in members.values():
        for i, pid in enumerate(ids):
            place[pid] = (i, len(ids))
    if s.system == "mcmahon":
        groups_count = s.mm_bar - s.mm_floor + number + 3
    else:
        groups_count = number
    weights = _Weights(s=s, h=h, number=number, rounds=state.rounds, players=players,
                       group=group, place=place, groups_count=groups_count)
    return weights, order, by_name, bye


def _pair_weighted(state: TournamentState, s: PairingSettings,
                   away: tuple[PlayerId, ...]) -> Pairing:
    """OpenGotha's pairing: the present players matched for the greatest total weight
    (docs/rules/go-mcmahon-pairing.md)."""
    number = len(state.played) + 1
    weights, order, by_name, bye = _weighting(state, s, away)
    h = weights.h
    rank_of_place = {pid: i for i, pid in enumerate(order)}
    pairs: list[tuple[PlayerId, PlayerId]] = []
    handicaps: list[int] = []
    for chunk in _chunks([pid for pid in by_name if pid != bye], h.main):
        edges = [(i, j, weights(chunk[i], chunk[j]))
                 for i in range(len(chunk)) for j in range(i + 1, len(chunk))]
        mate = max_weight_matching(edges, max_cardinality=True) if edges else []
        for i, j in enumerate(mate):
            if j > i:
                white, black = _colours(weights, chunk[i], chunk[j])
                pairs.append((white, black))
                handicaps.append(weights.handicap(white, black))
    table = sorted(range(len(pairs)),
                   key=lambda t: min(rank_of_place[pairs[t][0]], rank_of_place[pairs[t][1]]))
    pairs = [pairs[t] for t in table]
    handicaps = [handicaps[t] for t in table]
    repeats = tuple(pq for pq in pairs if frozenset(pq) in h.met)
    notes = []
    if repeats:
        notes.append(f"no pairing without repeated games was found; {len(repeats)} pair(s) "
                     "meet again")
    if bye is not None and bye in h.had_bye:
        notes.append(f"{bye} gets a second bye")
    return Pairing(round=number, pairs=tuple(pairs), bye=bye, absent=away, repeats=repeats,
                   notes=tuple(notes), handicaps=tuple(handicaps))


CHUNK_MIN = 200
CHUNK_MAX = 3 * CHUNK_MIN
"""A field of more than ``CHUNK_MAX`` players is matched in parts of ``CHUNK_MIN`` to
``CHUNK_MAX`` players, best scores first, as OpenGotha does (docs/rules/go-mcmahon-pairing.md
"The matching")."""


def _chunks(players: list[PlayerId], main: Mapping[PlayerId, float]) -> list[list[PlayerId]]:
    """``players`` (name order) in the parts that are matched apart: one part up to
    ``CHUNK_MAX`` players; beyond, parts taken from the top score down, each closed at an
    even size of at least ``CHUNK_MIN`` after a whole score, or when it reaches ``CHUNK_MAX``
    or leaves no more than ``CHUNK_MIN`` players."""
    remaining = list(players)
    parts: list[list[PlayerId]] = []
    while len(remaining) > CHUNK_MAX:
        part: list[PlayerId] = []
        for score in sorted({int(main[p]) for p in remaining}, reverse=True):
            full = False
            for pid in [p for p in remaining if int(main[p]) >= score]:
                part.append(pid)
                remaining.remove(pid)
                if len(part) >= CHUNK_MAX or len(remaining) <= CHUNK_MIN:
                    full = True
                    break
            if full or (len(part) >= CHUNK_MIN and len(part) % 2 == 0):
                break
        if len(part) % 2:  # an odd part would leave a player out: the next part takes them
            remaining.insert(0, part.pop())
        parts.append(part)
    parts.append(remaining)
    return parts


def _colours(w: _Weights, p: PlayerId, q: PlayerId) -> tuple[PlayerId, PlayerId]:
    """(white, black): the stronger player gives the handicap; without one the player who
    had white less often takes it; else OpenGotha's name-drawn choice."""
    if w.handicap(p, q) > 0:
        return p, q
    if w.handicap(q, p) > 0:
        return q, p
    cp, cq = w.h.colour[p], w.h.colour[q]
    if cp != cq:
        return (p, q) if cp < cq else (q, p)
    if _det_random(1.0, w.players[p], w.players[q], False) == 0.0:
        return p, q
    return q, p
