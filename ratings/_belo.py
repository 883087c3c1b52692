"""BELO and BELO2: the placement-based bridge rating of docs/rules/bridge-belo.md.

Implemented: §1 contribution, §2 update, §3 field factor (``k`` or ``belo2``) and skip rule,
§4 partner correction (``partner``, ``partner_rating``, ``partner_weight``), §5 unrated members,
``min_rated_units`` and events abroad, §6 event weight, §7 leagues (matches and standings with
weight M/(M+1), the league win rule, ``match_result``), §8 rating periods (``exponential`` or
``additive``), §9 per-event and periodic normalisation, §10 newcomers (``flat``, ``subsidy``,
``phantom`` with dormant phantoms and the merge after ``phantom_events``), §11 start-up from
history before a cut-over date. §12 separate lists are the caller's filter of the results.

Each period is computed with array operations over all its rows at once; only the sequence of
periods is a Python loop (a period's ratings depend on the previous period's). Group sums add
their terms in a canonical order, so the result does not depend on the order of the input rows,
not even in the last bit (§8: "the order of entry ... cannot change anything").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields, replace
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._frames import (
    CONTRIBUTIONS_COLUMNS,
    PERIOD_FREQUENCIES,
    PeriodState,
    RatingRun,
    check_initial,
    check_results,
    empty_contributions,
    empty_normalisations,
    empty_phantoms,
    empty_ratings,
    empty_startup,
    period_range,
    text_column,
)
from ._go import group_sum
from ._options import check_options
from ._params import BeloParams, BoardWeight, PeriodicNormalisation

__all__ = ["BeloParams", "belo_period_digests", "rate_belo", "resume_belo"]


Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]

MEAN_RATING = 500.0
"""The rating scale's mean (docs/rules/bridge-belo.md §Vocabulary); a ``flat`` newcomer starts here (§10)."""

MIN_WEIGHT = 0.2
"""Floor of the event weight (docs/rules/bridge-belo.md §6)."""

NEWCOMER_RATING = 300.0
"""Start of a ``subsidy`` or ``phantom`` newcomer (docs/rules/bridge-belo.md §10)."""

PHANTOM_RATING = 700.0
"""Start of a newcomer's phantom: 300 + 700 = 2 * 500 (docs/rules/bridge-belo.md §10)."""

SUBSIDY = 200.0
"""Points the club of a ``subsidy`` newcomer gives up together (docs/rules/bridge-belo.md §10)."""

PHANTOM_PREFIX = "~phantom:"
"""Pool ids of phantoms: the prefix and the newcomer's id. Never published."""


# --- the rows: every result as arrays of integer codes, in rating order ------------------------

Ints: TypeAlias = npt.NDArray[np.int64]
Bools: TypeAlias = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class _Rows:
    """The rows of a run as parallel arrays, sorted by date, event, unit and player.

    Text stays in the checked frame: ``src`` is each row's position there, and only the
    finished contributions read the text back. ``player`` is a pool slot (see :class:`_Pool`),
    ``club`` a club code (-1: none), ``period`` the pandas period ordinal of the row's date.
    A phantom's row (docs/rules/bridge-belo.md §10) copies its newcomer's row with the phantom's slot.
    """

    src: Ints
    player: Ints
    event: Ints
    unit: Ints
    day: Ints
    period: Ints
    n: Floats
    place: Floats
    r: Floats
    weight: Floats
    individual: Bools
    match: Bools
    abroad: Bools
    field_rating: Floats
    unrated: Bools
    club: Ints
    phantom: Bools

    def __len__(self) -> int:
        return len(self.src)

    def take(self, index: Ints | slice) -> _Rows:
        return _Rows(*(getattr(self, f.name)[index] for f in fields(self)))

    def joined(self, other: _Rows) -> _Rows:
        return _Rows(*(np.concatenate([getattr(self, f.name), getattr(other, f.name)])
                       for f in fields(self)))


def _event_ranks(event_code: Ints, day: Ints) -> Ints:
    """Each event's rank by date, then by id (codes are in the ids' text order)."""
    size = int(event_code.max()) + 1
    event_day = np.zeros(size, dtype=np.int64)
    event_day[event_code] = day
    rank = np.empty(size, dtype=np.int64)
    rank[np.lexsort((np.arange(size), event_day))] = np.arange(size)
    return rank


def _row_order(event: Ints, unit_code: Ints, player_code: Ints) -> Ints | None:
    """Positions that sort the rows by event rank, unit, player; None if already sorted."""
    events, units, players = (int(a.max()) + 1 for a in (event, unit_code, player_code))
    if float(events) * units * players < 2.0**62:
        key = (event * units + unit_code) * players + player_code
        if bool(np.all(key[1:] > key[:-1])):
            return None
        return np.argsort(key)  # keys are distinct (one row per player per event)
    return np.lexsort((player_code, unit_code, event))


def _prepare(checked: pd.DataFrame, params: BeloParams, slot_of_code: Ints) -> _Rows:
    """Rows in output order with what does not depend on ratings: period, n, r, weight."""
    day = checked["date"].to_numpy().astype("datetime64[D]").astype(np.int64)
    event_code = checked["event_code"].to_numpy(np.int64)
    unit_code = checked["unit_code"].to_numpy(np.int64)
    player_code = checked["player_code"].to_numpy(np.int64)
    # Events are numbered by date, then id: sorted rows have non-decreasing event numbers.
    ranks = _event_ranks(event_code, day)
    event_rank = ranks[event_code]
    order = _row_order(event_rank, unit_code, player_code)

    def col(values: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
        return values if order is None else values[order]

    src = np.arange(len(checked), dtype=np.int64) if order is None else order.astype(np.int64)
    event, unit, day = col(event_rank), col(unit_code), col(day)
    player = slot_of_code[col(player_code)]
    n = col(checked["n"].to_numpy(np.float64))
    place = col(checked["place"].to_numpy(np.float64))
    match = col(checked["match"].to_numpy(bool))
    # docs/rules/bridge-belo.md §1, formula 3: r = 1000 (n + 0.5 - u) / n; its mean over units is 500.
    r = 1000.0 * (n + 0.5 - place) / n
    if params.match_result == "vp_share" and match.any():
        r = _vp_share(r, event, unit, match, col(checked["score"].to_numpy(np.float64)))
    # docs/rules/bridge-belo.md §6 per event (boards are one number per event), then spread to the rows
    boards = np.zeros(len(ranks))
    boards[event] = col(checked["boards"].to_numpy(np.float64))
    weight = _event_weight(boards, params.board_weight)[event]
    league = col((checked["parent"] != "").to_numpy(bool))
    if league.any():
        weight = weight * _league_factor(checked, src, league, player, match)
    # Periods are worked out per event (one date each), then spread to the rows.
    days = np.zeros(int(event.max()) + 1, dtype=np.int64)
    days[event] = day
    event_period = pd.DatetimeIndex(days.astype("datetime64[D]")).to_period(
        PERIOD_FREQUENCIES[params.period]).asi8
    if params.newcomer == "subsidy":
        clubs, names = pd.factorize(checked["club"], sort=True)
        blank = np.flatnonzero(np.asarray(names) == "")
        club = col(np.where(np.isin(clubs, blank), -1, clubs).astype(np.int64))
    else:
        club = np.full(len(src), -1, dtype=np.int64)
    return _Rows(
        src=src, player=player, event=event, unit=unit, day=day,
        period=event_period[event].astype(np.int64), n=n, place=place, r=r, weight=weight,
        individual=col((checked["kind"] == "individual").to_numpy(bool)), match=match,
        abroad=col(checked["abroad"].to_numpy(bool)),
        field_rating=col(checked["field_rating"].to_numpy(np.float64)),
        unrated=col(checked["unrated"].to_numpy(bool)), club=club,
        phantom=np.zeros(len(src), dtype=bool),
    )


def _vp_share(r: Floats, event: Ints, unit: Ints, match: Bools, score: Floats) -> Floats:
    # docs/rules/bridge-belo.md §7, vp_share: r = 1000 VP_own / (VP_own + VP_opp) for the matches of a league; the
    # total is over the event's units (each unit's score once).
    first = np.r_[True, (event[1:] != event[:-1]) | (unit[1:] != unit[:-1])]
    size = int(event.max()) + 1
    known = first & np.isfinite(score)
    total = np.bincount(event[known], weights=score[known], minlength=size)
    has = np.bincount(event[known], minlength=size) > 0
    tot = np.where(has, total, np.nan)[event]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = 1000.0 * score / tot
    usable = match & np.isfinite(share) & (tot > 0)
    return np.where(usable, share, r)


def _league_factor(checked: pd.DataFrame, src: Ints, league: Bools, player: Ints,
                   match: Bools) -> Floats:
    # docs/rules/bridge-belo.md §7: each match of a league and its final standings weigh M / (M + 1), M = the
    # matches played in that league (counted per player: teams field varying line-ups).
    at = np.flatnonzero(league)
    parent = pd.factorize(checked["parent"].take(src[at]))[0].astype(np.int64)
    key = pd.factorize(parent * (int(player.max()) + 1) + player[at])[0]
    m = np.bincount(key, weights=match[at].astype(np.float64))[key]
    factor = np.ones(len(src))
    factor[at] = np.where(m > 0, m / (m + 1.0), 1.0)
    return factor


# --- the pool: ratings plus what the newcomer rules remember ----------------------------------


@dataclass
class _Pool:
    """Ratings by slot: players ``0..P-1`` (every player id in text order), then each player's
    phantom at ``P + slot`` (docs/rules/bridge-belo.md §10); NaN where a slot is not in the pool. Per player: the
    rated events their phantom still has (0: none) and the latest club (subsidies)."""

    rating: Floats
    events_left: Ints
    club: Ints
    subsidies: list[tuple[int, int, int, float]] = field(default_factory=list)
    """``subsidy``: (club code, newcomers, existing members, factor) of each club subsidy."""

    @classmethod
    def start(cls, initial: Floats) -> _Pool:
        players = len(initial)
        return cls(np.concatenate([initial, np.full(players, np.nan)]),
                   np.zeros(players, dtype=np.int64), np.full(players, -1, dtype=np.int64))

    @property
    def players(self) -> int:
        return len(self.events_left)


def _last_clubs(pool: _Pool, rows: _Rows) -> None:
    """Each player's club as last written in the period (docs/rules/bridge-belo.md §10, subsidy)."""
    at = np.flatnonzero(rows.club >= 0)[::-1]
    if at.size:
        slots, first = np.unique(rows.player[at], return_index=True)
        pool.club[slots] = rows.club[at[first]]


def _admit(pool: _Pool, rows: _Rows, params: BeloParams) -> _Rows:
    """Spec §10: start the period's newcomers (players without a rating) by the chosen rule,
    and add the phantom members of the units of newcomers whose phantom is still active."""
    if params.newcomer == "subsidy":
        _last_clubs(pool, rows)
    # docs/rules/bridge-belo.md §5: players marked unrated (foreign guests, say) never enter the pool.
    seen = np.zeros(pool.players, dtype=bool)
    seen[rows.player[~rows.unrated]] = True
    new = np.flatnonzero(seen & np.isnan(pool.rating[: pool.players]))
    if new.size:
        rating = pool.rating.copy()
        if params.newcomer == "flat":
            # flat: a new player starts at 500 in the period of their first event.
            rating[new] = MEAN_RATING
        elif params.newcomer == "subsidy":
            rating = _subsidise(pool, rating, new)
        else:
            # phantom: the newcomer starts at 300 with a phantom rated 700 (300 + 700 = 2 * 500).
            rating[new] = NEWCOMER_RATING
            rating[pool.players + new] = PHANTOM_RATING
            pool.events_left[new] = params.phantom_events
        pool.rating = rating
    if params.newcomer == "phantom":
        return _add_phantom_rows(rows, pool)
    return rows


def _subsidise(pool: _Pool, rating: Floats, new: Ints) -> Floats:
    """Spec §10 subsidy: each newcomer starts at 300 and the existing players of their club are
    multiplied by one factor so that together they gain exactly 200 points. A newcomer whose club
    has no rated player (or who has no club) is subsidised by the whole pool instead."""
    players = pool.players
    existing = np.isfinite(rating[:players])
    factor = np.ones(players)
    whole_pool = 0
    clubs, counts = np.unique(pool.club[new], return_counts=True)
    for club, count in zip(clubs.tolist(), counts.tolist(), strict=True):
        members = existing & (pool.club == club) if club >= 0 else np.zeros(players, bool)
        total = float(rating[:players][members].sum())
        if total > 0:
            factor[members] *= (total + SUBSIDY * count) / total
            pool.subsidies.append((int(club), int(count), int(members.sum()),
                                   (total + SUBSIDY * count) / total))
        else:
            whole_pool += count
    if whole_pool:
        total = float(rating[:players][existing].sum())
        if total > 0:
            factor[existing] *= (total + SUBSIDY * whole_pool) / total
    scaled = rating.copy()
    scaled[:players] = rating[:players] * factor
    scaled[new] = NEWCOMER_RATING
    return scaled


def _add_phantom_rows(rows: _Rows, pool: _Pool) -> _Rows:
    """A phantom member in each of its newcomer's first ``events_left`` events of the period.

    The phantom rows follow the period's own rows (ordered by newcomer, date and event), so
    sums within an event still add the same terms in the same order whatever the input order.
    """
    idx = np.flatnonzero(pool.events_left[rows.player] > 0)
    if idx.size == 0:
        return rows
    order = idx[np.lexsort((rows.event[idx], rows.day[idx], rows.player[idx]))]
    slots = rows.player[order]
    first = np.r_[True, slots[1:] != slots[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    nth = np.arange(len(order)) - start
    added = rows.take(order[nth < pool.events_left[slots]])
    added = replace(added, player=added.player + pool.players,
                    club=np.full(len(added), -1, dtype=np.int64),
                    unrated=np.zeros(len(added), dtype=bool),
                    phantom=np.ones(len(added), dtype=bool))
    return rows.joined(added)


# --- array helpers ---------------------------------------------------------------------------


def _group_sum(codes: Codes, values: Floats, size: int) -> Floats:
    """Sum of ``values`` per group code ``0..size-1``, adding in row order.

    Rows come sorted by date, event, unit and player, so sums within a unit or an event add
    the same terms in the same order whatever order the input had; sums across events are
    put in a canonical order by the caller.
    """
    return np.bincount(codes, weights=values, minlength=size).astype(np.float64)


def _group_count(codes: Codes, flags: npt.NDArray[np.bool_], size: int) -> npt.NDArray[np.int64]:
    return np.bincount(codes, weights=flags.astype(np.float64), minlength=size).astype(np.int64)


def _event_weight(boards: Floats, rule: BoardWeight) -> Floats:
    # docs/rules/bridge-belo.md §6: linear (formula 9) v = 1 + (b - 25)/50, proportional (formula 10)
    # v = b/25, none v = 1; unknown b gives 1; v is floored at 0.2.
    if rule == "linear":
        v = 1.0 + (boards - 25.0) / 50.0
    elif rule == "proportional":
        v = boards / 25.0
    else:
        v = np.ones_like(boards)
    v = np.where(np.isnan(boards), 1.0, v)
    return np.maximum(v, MIN_WEIGHT)




# --- one period --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Contributions:
    """One period's contribution rows as arrays (docs/rules/bridge-belo.md §13); text is added once at the end."""

    period: int
    src: Ints
    r: Floats
    field: Floats
    partner: Floats
    weight: Floats
    norm: Floats
    r_prime: Floats
    counted: Bools
    reason: npt.NDArray[np.int8]
    phantom: Bools


@dataclass(frozen=True, slots=True)
class _PeriodOutcome:
    after: Floats
    events: Ints
    contributions: _Contributions


def _rate_period(frozen: Floats, rows: _Rows, params: BeloParams, index: int) -> _PeriodOutcome:
    """Rate one period's events against the ratings frozen at its start (docs/rules/bridge-belo.md §8).

    ``frozen`` (by pool slot) already holds every player of ``rows`` (the newcomer rule has run).
    """
    size = len(frozen)
    pos: Codes = np.where(rows.unrated, -1, rows.player).astype(np.intp)
    rated = pos >= 0
    R = np.where(rated, frozen[np.where(rated, pos, 0)], np.nan)
    R0 = np.where(rated, R, 0.0)

    ev = _groups(rows.event, rows.phantom)
    un = _groups(rows.event * (int(rows.unit.max()) + 1) + rows.unit, rows.phantom)
    n_events, n_units = int(ev.max()) + 1, int(un.max()) + 1
    unit_event = np.zeros(n_units, dtype=np.intp)
    unit_event[un] = ev

    n, r, v, place = rows.n, rows.r, rows.weight, rows.place
    individual, match, abroad, assumed = rows.individual, rows.match, rows.abroad, rows.field_rating

    # Sums and counts of frozen ratings of rated players per unit and per event (docs/rules/bridge-belo.md §5: unrated
    # players are left out of Rt, Ru and Rp).
    sum_u = _group_sum(un, R0, n_units)[un]
    cnt_u = _group_count(un, rated, n_units)
    sum_e = _group_sum(ev, R0, n_events)[ev]
    cnt_e = _group_count(ev, rated, n_events)[ev]
    rated_units = _group_count(unit_event, cnt_u > 0, n_events)[ev]
    cnt_u = cnt_u[un]

    with np.errstate(invalid="ignore", divide="ignore"):
        # docs/rules/bridge-belo.md §3: Rt = mean rating of the rated players of all OTHER units.
        others = cnt_e - cnt_u
        Rt = np.where(others > 0, (sum_e - sum_u) / np.maximum(others, 1), np.nan)
        # docs/rules/bridge-belo.md §5: an event abroad is rated against its assumed field rating.
        use_assumed = abroad & np.isfinite(assumed) & (params.abroad == "assumed")
        Rt = np.where(use_assumed, assumed, Rt)
        Ru = np.where(cnt_u > 0, sum_u / np.maximum(cnt_u, 1), np.nan)
        if params.field == "k":
            # docs/rules/bridge-belo.md §3, formula 5 (BELO): k = Rt / 500.
            field = Rt / MEAN_RATING
        else:
            # docs/rules/bridge-belo.md §3, BELO2: c = Rt^2 / (500 Ru), Ru the mean rating of the unit's own players.
            field = Rt * Rt / (MEAN_RATING * Ru)

        # docs/rules/bridge-belo.md §4: Rp = mean rating of the OTHER members (others_mean), or the unit mean.
        mates = cnt_u - 1
        Rp_others = np.where(mates > 0, (sum_u - R0) / np.maximum(mates, 1), np.nan)
        Rp = Rp_others if params.partner_rating == "others_mean" else Ru
        if params.partner == "none":
            partner = np.ones_like(R)
        else:
            # docs/rules/bridge-belo.md §4: linear l = 1 + (R - Rp)/(R + Rp) (formula 6), damped
            # l = 1 + 0.5 (R - Rp)/(R + Rp) (formula 7).
            scale = 1.0 if params.partner == "linear" else 0.5
            partner = 1.0 + scale * (R - Rp) / (R + Rp)
        # Individual events, and units without another rated member: factor 1 (docs/rules/bridge-belo.md §4).
        alone = individual | np.isnan(Rp_others)
        partner = np.where(alone, 1.0, partner)
        partner = np.where(rated, partner, np.nan)
        if params.partner_weight == "ratio":
            # docs/rules/bridge-belo.md §4 "Vplyv partnera": the event weight times min(1, Rp / R).
            v = np.where(alone | ~rated, v, v * np.minimum(1.0, Rp_others / R))

        raw = r * field * partner

    # Which rows count, and why not.
    # docs/rules/bridge-belo.md §5 min_rated_units; a league match (docs/rules/bridge-belo.md §7) has two units and needs both rated.
    enough_units = np.where(match, rated_units >= 2, rated_units >= params.min_rated_units)
    enough_units = enough_units | use_assumed
    has_field = ~np.isnan(Rt)
    excluded_abroad = abroad & ~use_assumed
    if params.skip_rule == "on":
        # docs/rules/bridge-belo.md §3, skip rule: if factor * 1000 (n - 0.5)/n * partner_factor < R, even winning
        # would lower the rating, so the event does not count for that player. League matches
        # follow the league rule below instead.
        best = field * 1000.0 * (n - 0.5) / n * partner
        skipped = has_field & (best < R) & ~match
    else:
        skipped = np.zeros_like(rated)
    # docs/rules/bridge-belo.md §7, league rule: if a win would lower the winner's rating, the match counts for
    # neither side (a loss or a draw of the stronger side always counts). "The winner's rating"
    # is read as the winning unit's: the mean of (r' - R) over its rated players.
    if match.any():
        winner = match & (place < 1.5) & rated
        gain_u = _group_sum(un, np.where(winner, raw - R0, 0.0), n_units)
        losing_win = np.zeros(n_units, dtype=bool)
        losing_win[un[winner]] = gain_u[un[winner]] < 0
        league_skip = _group_count(unit_event, losing_win, n_events)[ev] > 0
    else:
        league_skip = np.zeros_like(rated)
    counted = (rated & enough_units & has_field & ~skipped & ~league_skip & ~excluded_abroad)

    vc = np.where(counted, v, 0.0)
    if params.event_normalisation == "on":
        # docs/rules/bridge-belo.md §9, per-event normalisation: one factor f per event with
        # sum_i v_i (f r'_i - R_i) = 0 over the rated participants counted in the event,
        # i.e. f = sum(v R) / sum(v r'). Not for an event abroad rated against an assumed field
        # (docs/rules/bridge-belo.md §5): its few rated players would only be compared with each other again.
        num = _group_sum(ev, vc * R0, n_events)
        den = _group_sum(ev, np.where(counted, vc * raw, 0.0), n_events)
        with np.errstate(invalid="ignore", divide="ignore"):
            f_event = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        norm = np.where(use_assumed, 1.0, f_event[ev])
    else:
        norm = np.ones_like(r)
    norm = np.where(counted, norm, np.nan)
    r_prime = np.where(counted, norm * raw, np.nan)

    # docs/rules/bridge-belo.md §8: combine the period's contributions per player.
    who = pos[counted]
    # A player's sums across events add their terms in ascending order (group_sum), so neither
    # the order of the rows nor the names of the events can change the last bit.
    wv, wr = vc[counted], vc[counted] * r_prime[counted]
    W = group_sum(who, wv, size)
    S = group_sum(who, wr, size)
    events = np.bincount(who, minlength=size).astype(np.int64)
    H = float(params.history)
    played = W > 0
    if params.period_combine == "exponential":
        # docs/rules/bridge-belo.md §8, exponential: R_new = R_old + (1 - (1 - 1/H)^W) (rbar - R_old),
        # W = sum v, rbar = sum(v r') / W.
        rbar = np.where(played, S / np.where(played, W, 1.0), frozen)
        after = frozen + (1.0 - (1.0 - 1.0 / H) ** W) * (rbar - frozen)
    else:
        # docs/rules/bridge-belo.md §8, additive (formula 4 summed): R_new = R_old + sum(v (r' - R_old)) / H.
        after = frozen + (S - W * frozen) / H
    after = np.where(played, after, frozen)

    reason = np.select(
        [~rated, excluded_abroad, ~enough_units, ~has_field, skipped, league_skip],
        np.arange(1, 7), default=0,
    ).astype(np.int8)
    return _PeriodOutcome(after=after, events=events, contributions=_Contributions(
        period=index, src=rows.src, r=r, field=np.where(rated, field, np.nan), partner=partner,
        weight=v, norm=norm, r_prime=r_prime, counted=counted, reason=reason,
        phantom=rows.phantom,
    ))


def _groups(key: Ints, phantom: Bools) -> Codes:
    """Group numbers ``0..`` of ``key``: the players' own rows come sorted by key (phantom rows,
    appended after them, copy keys of those rows), so the groups are runs, found by search."""
    own = key[~phantom]
    starts = own[np.r_[True, own[1:] != own[:-1]]]
    return np.searchsorted(starts, key).astype(np.intp)


def _reasons(params: BeloParams) -> list[str]:
    """Why a row did not count, by code (0: it counted); the first that applies is given."""
    return ["", "unrated player", "event abroad",
            f"fewer than {params.min_rated_units} rated units",  # docs/rules/bridge-belo.md §5
            "no rated players in other units",  # docs/rules/bridge-belo.md §3: no field to rate against
            "skip rule",  # docs/rules/bridge-belo.md §3
            "league win rule"]  # docs/rules/bridge-belo.md §7


def _normalises_after(period: pd.Period, rule: PeriodicNormalisation) -> bool:
    # docs/rules/bridge-belo.md §9, periodic: "year" after the last period of each calendar year (Q4 / December /
    # the year itself), "period" after every period, "never" not at all.
    if rule == "period":
        return True
    if rule == "year":
        return bool((period + 1).year != period.year)
    return False


# --- the sequence of periods -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Shown:
    """One period's rows of the ratings frame (players only), by slot."""

    period: int
    slots: Ints
    before: Floats
    rating: Floats
    events: Ints


@dataclass(frozen=True, slots=True)
class _Settled:
    """One period's rows of the phantoms frame (docs/rules/bridge-belo.md §10), by newcomer slot."""

    period: int
    slots: Ints
    before: Floats
    rating: Floats
    events_left: Ints
    state: npt.NDArray[np.int8]


PHANTOM_STATES = ("active", "dormant", "retired")


@dataclass(frozen=True, slots=True)
class _Run:
    shown: list[_Shown]
    contributions: list[_Contributions]
    normalisations: list[tuple[int, float]]
    phantoms: list[_Settled]
    pool: _Pool
    subsidies: list[tuple[int, int, int, int, float]] = field(default_factory=list)
    """``subsidy``: (period index, club code, newcomers, members, factor) per club subsidy."""


def _settle_phantoms(pool: _Pool, before: Floats, events: Ints | None,
                     index: int) -> _Settled | None:
    """After a period (docs/rules/bridge-belo.md §10): count the phantoms' rated events; a phantom whose newcomer has
    played ``phantom_events`` rated events with it retires, and the newcomer's rating becomes
    the mean of the two. The others stay (dormant when the newcomer did not play; also in a
    period without events, ``events`` None). The returned ratings are filled in by the caller
    after the periodic normalisation."""
    slots = np.flatnonzero(pool.events_left > 0)
    if slots.size == 0:
        return None
    players = pool.players
    used = np.zeros(len(slots), dtype=np.int64) if events is None else events[players + slots]
    left = np.maximum(pool.events_left[slots] - used, 0)
    retired = left <= 0
    state = np.where(retired, 2, np.where(used > 0, 0, 1)).astype(np.int8)
    if retired.any():
        done = slots[retired]
        rating = pool.rating.copy()
        rating[done] = (rating[done] + rating[players + done]) / 2.0
        rating[players + done] = np.nan
        pool.rating = rating
    pool.events_left[slots] = left
    return _Settled(index, slots, before[players + slots], np.empty(0), left, state)


def _run_periods(rows: _Rows, pool: _Pool, params: BeloParams,
                 periods: pd.PeriodIndex) -> _Run:
    """Rate ``periods`` one after the other (docs/rules/bridge-belo.md §8); only this loop is Python."""
    ordinals = periods.asi8
    starts = np.searchsorted(rows.period, ordinals, side="left")
    ends = np.searchsorted(rows.period, ordinals, side="right")
    shown: list[_Shown] = []
    contributions: list[_Contributions] = []
    phantoms: list[_Settled] = []
    normalisations: list[tuple[int, float]] = []
    subsidies: list[tuple[int, int, int, int, float]] = []
    players = pool.players
    for index, period in enumerate(periods):
        if starts[index] == ends[index]:
            before = pool.rating
            events = None
        else:
            given = len(pool.subsidies)
            chunk = _admit(pool, rows.take(slice(starts[index], ends[index])), params)
            subsidies.extend((index, *entry) for entry in pool.subsidies[given:])
            before = pool.rating
            outcome = _rate_period(before, chunk, params, index)
            pool.rating = outcome.after
            events = outcome.events
            contributions.append(outcome.contributions)
        settled = _settle_phantoms(pool, before, events, index)
        if _normalises_after(period, params.periodic_normalisation):
            present = np.isfinite(pool.rating)
            if present.any():
                # docs/rules/bridge-belo.md §9, periodic normalisation: multiply every rated player's rating (dormant
                # phantoms included) so that their mean is exactly 500; the factor is recorded.
                factor = MEAN_RATING / float(np.mean(pool.rating[present]))
                pool.rating = pool.rating * factor
                normalisations.append((index, factor))
        if settled is not None:
            after = np.where(settled.state == 2, np.nan, pool.rating[players + settled.slots])
            phantoms.append(replace(settled, rating=after))
        slots = np.flatnonzero(np.isfinite(pool.rating[:players]))
        shown.append(_Shown(
            index, slots, before[slots], pool.rating[slots],
            np.zeros(len(slots), np.int64) if events is None else events[slots],
        ))
    return _Run(shown, contributions, normalisations, phantoms, pool, subsidies)


# --- start-up from history (docs/rules/bridge-belo.md §11) ----------------------------------------------------------


STARTUP_DAMPING = 0.5
"""``accelerated`` start-up: the share of the way to a player's own fixed point taken per pass.
A unit's contribution falls as its own mean rating rises (BELO2's ``c = Rt^2 / (500 Ru)``), so
the value a history points to swings to the other side of the fixed point by about as much as
the start value moved; half the way is Newton's step for that (docs/rules/bridge-belo.md §11)."""
STARTUP_REACH = 50.0
"""``accelerated``: a pass moves a player at most this many times their plain change."""
STARTUP_MEMORY = 5
"""``accelerated``: passes the extrapolation looks back over."""
STARTUP_SMOOTH = 0.9
"""``accelerated``: players who keep more than this share of their start value through the
history are only stepped, never extrapolated (their own step already solves them)."""
STARTUP_LIMIT = 10.0
"""``accelerated``: the extrapolated move is at most this many times the player's own step."""


def _startup(history: _Rows, start: Floats, params: BeloParams) -> tuple[Floats, pd.DataFrame]:
    """Spec §11: every player starts at 500 (or at ``start``), the whole history is rated, the
    results (normalised to mean 500) give the next start values, and the history is rated
    again, until no rating changes by ``startup_tolerance`` or after ``max_passes``.

    ``plain`` takes each pass's results as the next start values. ``accelerated`` looks for the
    same fixed point in fewer passes (docs/rules/bridge-belo.md §11 explains it with numbers):

    1. *Own step.* ``keep`` is the share of a player's start value that survives the history:
       ``(1 - 1/H)^W`` over the weights ``W`` the player's counted events had (``additive``:
       ``prod(1 - W_t/H)`` per period), times the periodic normalisation factors. A player
       who played two events keeps about 96% of the start value, so a plain pass moves them
       only 4% of the way. The pass's change ``d`` divided by ``1 - keep`` is how far the
       history points; the player moves ``STARTUP_DAMPING`` of it (at most ``STARTUP_REACH``
       times ``d``).
    2. *Extrapolation* (Anderson mixing over the last ``STARTUP_MEMORY`` passes): the
       remaining slow change is shared by many players (clubs that rarely meet drifting
       together); the least-squares combination of the last passes' steps that cancels it
       is added, for the players whose events counted the same as in the pass before
       (the skip rule of §3 makes a player's result jump when an event starts or stops
       counting) and who keep at most ``STARTUP_SMOOTH`` of their start value, capped at
       ``STARTUP_LIMIT`` times their own step.

    The pass table has one row per pass: its number, the largest change of a start value
    the pass caused (``max_change``, the stopping test) and the mean before normalising.
    """
    flat = replace(params, newcomer="flat")
    values = start.copy()
    seen = np.unique(history.player[~history.unrated])  # §5: unrated players get no start value
    values[seen] = np.where(np.isnan(values[seen]), MEAN_RATING, values[seen])
    periods = _periods(history.day.min(), history.day.max(), params)
    slot_of_src = np.full(int(history.src.max()) + 1, -1, dtype=np.int64)
    slot_of_src[history.src] = history.player
    accelerate = params.startup_method == "accelerated"
    passes: list[tuple[int, float, float]] = []
    points: list[Floats] = []
    steps: list[Floats] = []
    counted_before: Floats | None = None
    for number in range(1, params.max_passes + 1):
        run = _run_periods(history, _Pool.start(values), flat, periods)
        final = run.pool.rating[: len(values)]
        present = np.isfinite(final)
        mean = float(np.mean(final[present]))
        final = final * (MEAN_RATING / mean)
        was = np.where(np.isnan(values), MEAN_RATING, values)
        change = float(np.max(np.abs(final[present] - was[present])))
        passes.append((number, change, mean))
        if change < params.startup_tolerance or not accelerate or number == params.max_passes:
            values = final  # the last pass's results are the start values (§11)
            if change < params.startup_tolerance:
                break
            continue
        keep, counted = _kept_share(run, slot_of_src, len(values), params)
        keep = keep * (MEAN_RATING / mean)
        moved = np.where(present, final - was, 0.0)
        reach = np.where(keep < 1.0, 1.0 / np.maximum(1.0 - keep, 1e-12), 1.0)
        own = STARTUP_DAMPING * moved * np.minimum(reach, STARTUP_REACH)
        smooth = present & (keep <= STARTUP_SMOOTH)
        if counted_before is not None:
            smooth &= np.abs(counted - counted_before) <= 1e-9
        counted_before = counted
        points = [*points, was][-(STARTUP_MEMORY + 1):]
        steps = [*steps, own][-(STARTUP_MEMORY + 1):]
        step = own
        if len(steps) > 1 and smooth.any():
            d_steps = np.stack([b - a for a, b in zip(steps, steps[1:])], axis=1)
            d_points = np.stack([b - a for a, b in zip(points, points[1:])], axis=1)
            gamma = np.linalg.lstsq(d_steps[smooth], own[smooth], rcond=None)[0]
            mixed = own - (d_points + d_steps) @ gamma
            limit = STARTUP_LIMIT * np.abs(own)
            step = np.where(smooth, np.clip(mixed, -limit, limit), own)
        values = np.where(present, was + step, values)
        # §11: the start values of every pass average 500
        values = values * (MEAN_RATING / float(np.mean(values[present])))
    table = pd.DataFrame(passes, columns=["pass", "max_change", "mean_before_normalisation"])
    return values, table.astype({"pass": "int64"})


def _kept_share(run: _Run, slot_of_src: Ints, size: int,
                params: BeloParams) -> tuple[Floats, Floats]:
    """Per player: the share of the start value left after rating the history once (the
    combination rule of §8 over the weights of the player's counted events, times the periodic
    normalisation factors), and the total weight of the counted events."""
    log_keep = np.zeros(size)
    counted = np.zeros(size)
    H = float(params.history)
    for part in run.contributions:
        who = slot_of_src[part.src[part.counted]]
        W = np.bincount(who, weights=part.weight[part.counted], minlength=size)[:size]
        counted += W
        if params.period_combine == "exponential":
            log_keep += W * np.log1p(-1.0 / H)
        else:
            log_keep += np.log(np.maximum(1.0 - W / H, 1e-12))
    keep = np.exp(log_keep)
    for _, factor in run.normalisations:
        keep = keep * factor
    return keep, counted


def _periods(first_day: int, last_day: int, params: BeloParams) -> pd.PeriodIndex:
    return period_range(pd.Timestamp(np.datetime64(int(first_day), "D")),
                        pd.Timestamp(np.datetime64(int(last_day), "D")), params.period)


# --- frames out --------------------------------------------------------------------------------


def _ratings_frame(run: _Run, periods: pd.PeriodIndex, names: npt.NDArray[np.object_],
                   ) -> pd.DataFrame:
    index = np.concatenate([np.full(len(s.slots), s.period) for s in run.shown])
    slots = np.concatenate([s.slots for s in run.shown])
    labels = [str(p) for p in periods]
    return pd.DataFrame({
        "period": text_column(labels, index),
        "period_start": periods.start_time.normalize().to_numpy("datetime64[us]")[index],
        "period_end": periods.end_time.normalize().to_numpy("datetime64[us]")[index],
        "player": text_column(names, slots),
        "rating_before": np.concatenate([s.before for s in run.shown]),
        "rating": np.concatenate([s.rating for s in run.shown]),
        "events": np.concatenate([s.events for s in run.shown]).astype(np.int64),
    })


def _contributions_frame(run: _Run, periods: pd.PeriodIndex, checked: pd.DataFrame,
                         params: BeloParams) -> pd.DataFrame:
    if not run.contributions:
        return empty_contributions()
    parts = run.contributions

    def cat(name: str) -> npt.NDArray[np.generic]:
        return np.concatenate([getattr(part, name) for part in parts])

    src = cat("src")
    index = np.concatenate([np.full(len(part.src), part.period) for part in parts])
    # The float columns are written into one block, which becomes the frame without a copy.
    floats = ("r", "field", "partner", "weight", "norm", "r_prime")
    block = np.empty((len(floats), len(src)))
    for row, name in enumerate(floats):
        np.concatenate([getattr(part, name) for part in parts], out=block[row])
    frame = pd.DataFrame(block.T, columns=["r", "field_factor", "partner_factor", "weight",
                                           "norm_factor", "r_prime"], copy=False)
    frame["period"] = text_column([str(p) for p in periods], index)
    frame["event_id"] = checked["event_id"].array.take(src)
    frame["date"] = checked["date"].to_numpy()[src]
    # a phantom's row stands under its newcomer (docs/rules/bridge-belo.md §10, §13: the phantom's part)
    frame["player"] = checked["player"].array.take(src)
    frame["unit"] = checked["unit"].array.take(src)
    frame["place"] = checked["place"].to_numpy()[src]
    frame["n"] = checked["n"].to_numpy(np.int64)[src]
    frame["counted"] = cat("counted")
    # reasons travel as small codes until here
    frame["reason"] = text_column(_reasons(params), cat("reason").astype(np.intp))
    frame["phantom"] = cat("phantom")
    return frame[list(CONTRIBUTIONS_COLUMNS)]


def _phantoms_frame(run: _Run, periods: pd.PeriodIndex,
                    names: npt.NDArray[np.object_]) -> pd.DataFrame:
    if not run.phantoms:
        return empty_phantoms()
    parts = run.phantoms
    return pd.DataFrame({
        "period": text_column([str(p) for p in periods],
                         np.concatenate([np.full(len(p.slots), p.period) for p in parts])),
        "player": text_column(names, np.concatenate([p.slots for p in parts])),
        "rating_before": np.concatenate([p.before for p in parts]),
        "rating": np.concatenate([p.rating for p in parts]),
        "events_left": np.concatenate([p.events_left for p in parts]).astype(np.int64),
        "state": text_column(list(PHANTOM_STATES),
                        np.concatenate([p.state for p in parts]).astype(np.intp)),
    })


# --- the scheme ------------------------------------------------------------------------------


def _code_texts(checked: pd.DataFrame, name: str, code: str) -> npt.NDArray[np.object_]:
    """The text of id column ``name`` for each of its codes (column ``code``, 0 .. max), taken
    from the code's first row."""
    codes = checked[code].to_numpy(np.int64)
    first = np.full(int(codes.max()) + 1, len(codes), dtype=np.int64)
    np.minimum.at(first, codes, np.arange(len(codes)))
    return np.asarray(checked[name].array.take(first), dtype=object)


def _player_slots(checked: pd.DataFrame, start: pd.Series,
                  ) -> tuple[npt.NDArray[np.object_], Ints, Floats]:
    """Every player id (results and initial ratings) in text order, the slot of each results
    player code, and the initial ratings by slot (NaN: none)."""
    in_results = _code_texts(checked, "player", "player_code")
    if start.empty:
        names = in_results
        slot_of_code = np.arange(len(names), dtype=np.int64)
    else:
        names = np.asarray(sorted(set(in_results.tolist()) | set(map(str, start.index))),
                           dtype=object)
        slot_of_code = np.searchsorted(names, in_results).astype(np.int64)
    initial = np.full(len(names), np.nan)
    if not start.empty:
        initial[np.searchsorted(names, np.asarray(start.index, dtype=object))] = start.to_numpy()
    return names, slot_of_code, initial


def rate_belo(
    results: pd.DataFrame, params: BeloParams, initial: pd.DataFrame | None = None,
) -> RatingRun:
    """Rate ``results`` with BELO / BELO2 under ``params``, starting from ``initial``.

    ``results`` and ``initial`` are described in the :mod:`ratings` package docstring; neither
    is modified. Players in ``initial`` are rated (and carried) from the first period on. With a
    ``cutover`` date, the results before it only compute the start ratings (docs/rules/bridge-belo.md §11) and the
    ratings are reported from the cut-over period on.
    """
    return _rate(results, params, initial, None)


def resume_belo(results: pd.DataFrame, params: BeloParams, state: PeriodState,
                initial: pd.DataFrame | None = None) -> RatingRun:
    """The periods from ``state.period`` on of :func:`rate_belo` (same ``results``, ``params``
    and ``initial``), rated from the pool ``state`` says the period before left: the frames
    of those periods, bit for bit what the full run gives, when ``state`` is that run's own
    (docs/rules/bridge-belo.md §8: a period reads only the ratings before it and its own
    results). The start-up table (§11) is left empty: it belongs to the first periods.

    Raises ``ValueError`` when ``state.period`` is not a period after the first one rated."""
    return _rate(results, params, initial, state)


def belo_period_digests(results: pd.DataFrame, params: BeloParams) -> dict[str, str]:
    """Per rating period with results: a digest of its rows as they are rated (ids, dates,
    places, scores, clubs, and each row's ``r`` and weight, which a league's later matches
    can change, §7). Two histories whose digests agree up to a period rate those periods
    alike; where they first differ a stored run can be taken up (:func:`resume_belo`)."""
    check_options(params)
    checked = check_results(results)
    if checked.empty:
        return {}
    _, slot_of_code, _ = _player_slots(checked, pd.Series(dtype=float))
    rows = _prepare(checked, params, slot_of_code)
    # what a period's rating reads of each row (§1-§7, §10), ids as hashes of their texts
    ids = [_text_hash(checked, name, code, rows.src) for name, code in (
        ("event_id", "event_code"), ("unit", "unit_code"), ("player", "player_code"))]
    values = [*ids, rows.day, rows.n, rows.place, rows.r, rows.weight, rows.individual,
              rows.match, rows.abroad, rows.field_rating, rows.unrated]
    if params.newcomer == "subsidy":
        codes, clubs = pd.factorize(checked["club"])
        values.append(pd.util.hash_array(np.asarray(clubs, dtype=object))[codes][rows.src])
    block = np.zeros(len(rows), dtype=np.uint64)  # one 64-bit hash per row, of every value
    for value in values:
        block ^= value.view(np.uint64) if value.dtype.itemsize == 8 else value.astype(np.uint64)
        block *= _MIX
        block ^= block >> np.uint64(31)
    ordinals, starts = np.unique(rows.period, return_index=True)
    ends = np.r_[starts[1:], len(rows)]
    freq = PERIOD_FREQUENCIES[params.period]
    digests = {}
    for ordinal, start, end in zip(ordinals.tolist(), starts.tolist(), ends.tolist(),
                                   strict=True):
        label = str(pd.Period(ordinal=ordinal, freq=freq))
        digests[label] = hashlib.sha256(block[start:end].tobytes()).hexdigest()
    return digests


_MIX = np.uint64(0x9E3779B97F4A7C15)
"""The odd constant a row's hash is multiplied by after each value (splitmix64's)."""


def _text_hash(checked: pd.DataFrame, name: str, code: str,
               src: Ints) -> npt.NDArray[np.uint64]:
    """Per row (in rating order, ``src``) a hash of the text of id column ``name``, through
    its codes (column ``code``): each distinct text hashed once."""
    hashed: npt.NDArray[np.uint64] = pd.util.hash_array(_code_texts(checked, name, code))
    return hashed[checked[code].to_numpy(np.int64)[src]]


def _resumed_pool(state: PeriodState, names: npt.NDArray[np.object_], size: int) -> _Pool:
    """The pool as ``state`` says the period before ``state.period`` left it."""
    pool = _Pool.start(np.full(size, np.nan))
    rating = pool.rating
    players = np.asarray(state.ratings["player"].astype(str), dtype=object)
    at = np.searchsorted(names, players)
    if players.size and not bool(np.all(names[np.minimum(at, size - 1)] == players)):
        raise ValueError("the stored ratings name players the results do not have")
    rating[at] = state.ratings["rating"].to_numpy(np.float64)
    phantoms = state.phantoms[state.phantoms["events_left"].to_numpy() > 0]
    slots = np.searchsorted(names, np.asarray(phantoms["player"].astype(str), dtype=object))
    rating[size + slots] = phantoms["rating"].to_numpy(np.float64)
    pool.events_left[slots] = phantoms["events_left"].to_numpy(np.int64)
    pool.rating = rating
    return pool


def _rate(results: pd.DataFrame, params: BeloParams, initial: pd.DataFrame | None,
          state: PeriodState | None) -> RatingRun:
    check_options(params)
    checked = check_results(results)
    start = check_initial(initial)
    if checked.empty:
        return RatingRun(empty_ratings(), empty_contributions(), empty_normalisations())

    names, slot_of_code, values = _player_slots(checked, start)
    rows = _prepare(checked, params, slot_of_code)
    startup = empty_startup()
    first, last = int(rows.day[0]), int(rows.day[-1])
    if params.cutover:
        cut = int(np.datetime64(params.cutover, "D").astype(np.int64))
        split = int(np.searchsorted(rows.day, cut, side="left"))
        if split and state is None:
            values, startup = _startup(rows.take(slice(0, split)), values, params)
        rows = rows.take(slice(split, None))
        first = cut
        last = int(rows.day[-1]) if len(rows) else cut
    periods = _periods(first, last, params)
    if state is None:
        pool = _Pool.start(values)
    else:
        labels = [str(p) for p in periods]
        if state.period not in labels[1:]:
            raise ValueError(f"period {state.period!r} is not one after the first of "
                             f"{labels[0]}..{labels[-1]}")
        at = labels.index(state.period)
        pool = _resumed_pool(state, names, len(values))
        split = int(np.searchsorted(rows.period, periods[at].ordinal, side="left"))
        if params.newcomer == "subsidy":  # §10: each player's club as last written before
            _last_clubs(pool, rows.take(slice(0, split)))
        rows = rows.take(slice(split, None))
        periods = periods[at:]
    run = _run_periods(rows, pool, params, periods)

    normalised = pd.DataFrame({
        "period": [str(periods[i]) for i, _ in run.normalisations],
        "factor": [f for _, f in run.normalisations],
    }).astype({"period": str, "factor": float})
    return RatingRun(
        ratings=_ratings_frame(run, periods, names),
        contributions=_contributions_frame(run, periods, checked, params),
        normalisations=normalised,
        phantoms=_phantoms_frame(run, periods, names),
        startup=startup,
        warnings=_subsidy_warnings(run, periods, checked, params),
    )


def _subsidy_warnings(run: _Run, periods: pd.PeriodIndex, checked: pd.DataFrame,
                      params: BeloParams) -> tuple[str, ...]:
    """docs/rules/bridge-belo.md §10: a period whose subsidy raised a club's players by more
    than ``subsidy_warn`` (many newcomers joining few members inflate them without bound)."""
    if not run.subsidies:
        return ()
    _, clubs = pd.factorize(checked["club"], sort=True)
    out = []
    for index, club, newcomers, members, factor in run.subsidies:
        if factor - 1.0 > params.subsidy_warn:
            out.append(f"period {periods[index]}: {newcomers} newcomer(s) of club "
                       f"{clubs[club]!r} raised its {members} rated player(s) by "
                       f"{factor - 1.0:.0%} (ratings x{factor:.2f}); more than subsidy_warn = "
                       f"{params.subsidy_warn:g} (docs/rules/bridge-belo.md §10)")
    return tuple(out)
