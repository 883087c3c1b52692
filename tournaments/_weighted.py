"""The weighted pairing as OpenGotha pairs (docs/rules/go-mcmahon-pairing.md): every pair of
the round weighed by OpenGotha's criteria, the round matched for the greatest total weight
(:func:`max_weight_matching`), colours and handicaps assigned."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._errors import TournamentError
from ._matching import max_weight_matching
from ._settings import MIN_RANK, PairingSettings, rank_of
from ._state import Pairing, Player, PlayerId, TournamentState

__all__ = ["CHUNK_MAX", "CHUNK_MIN", "pair_weighted", "weight_terms"]


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
    rank = {p.id: float(rank_of(p)) for p in state.players}
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
            rank = rank_of(self.players[pid])
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
                w = rank_of(players[pid]) + 40 * h.main[pid]
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


def pair_weighted(state: TournamentState, s: PairingSettings,
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
