"""The tournament as a frozen state, one round at a time, and its JSON state file.

A tournament is a frozen :class:`TournamentState`; every step returns a new one.

- :func:`start_tournament` -- players with start numbers, start points from the organiser's
  bars (or the weighted pairing's settings) and start levels (docs/rules/go-mcmahon-levels.md
  "Start");
- :func:`apply_round` -- one round of results: McMahon points and levels (the levels of every
  round are kept in the state);
- :func:`replay` -- a finished tournament rebuilt from its games;
- :func:`state_to_json` / :func:`state_from_json` -- the state as plain JSON data, the state
  file of ``clubratings mcmahon`` (docs/mcmahon.md "The state file").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, TypeAlias

from ._errors import TournamentError
from ._levels import Bars, handicap_levels, jigo_update, level_update, start_level, start_score
from ._settings import PairingSettings

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "Entrant",
    "Game",
    "Pairing",
    "Player",
    "PlayerId",
    "Round",
    "RoundResults",
    "TournamentState",
    "apply_round",
    "replay",
    "start_tournament",
    "state_from_json",
    "state_to_json",
]

PlayerId: TypeAlias = str

STATE_FORMAT = "clubratings-mcmahon"
STATE_VERSION = 1


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
