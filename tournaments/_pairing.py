"""The next round's pairs (docs/rules/go-mcmahon-levels.md "Pairing a round").

:func:`pair_round` pairs a tournament by its levels (the default), or, when its state carries
:class:`PairingSettings`, with the weighted pairing as OpenGotha pairs
(docs/rules/go-mcmahon-pairing.md, in ``_weighted``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ._errors import TournamentError
from ._state import Pairing, PlayerId, TournamentState
from ._weighted import pair_weighted

__all__ = ["pair_round"]

_SEARCH_BUDGET = 200_000
"""Backtracking steps one pairing search may take before it gives up on that bye choice."""


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
        return pair_weighted(state, state.settings, away)
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
