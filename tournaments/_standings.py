"""Final places with every criterion shown (docs/rules/go-mcmahon-levels.md "Final places"),
and the level history."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ._state import PlayerId, TournamentState

__all__ = ["CRITERIA", "STANDINGS_COLUMNS", "level_history", "standings"]

CRITERIA = ("mcmahon", "head_to_head", "opponents_level", "level", "rating", "start_number")
"""Final-place criteria in priority order (docs/rules/go-mcmahon-levels.md "Final places"); ``start_number`` is the last
resort when start ratings are equal."""

STANDINGS_COLUMNS = (
    "place", "id", "name", "start_number", "rating", "start_score", "mcmahon", "games",
    "head_to_head", "opponents_level", "level", "separated_by",
)


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
