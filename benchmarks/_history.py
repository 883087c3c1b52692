"""A generated national bridge history and a bare numpy BELO2 kernel to time the engine against.

:func:`generate_history` builds a results frame (the contract of the :mod:`ratings` package
docstring) for a federation of clubs over several years, deterministically from a seed and
without a Python loop per row or per event. :func:`bare_kernel` recomputes BELO2 over such a frame
with the plain default rules of docs/rules/bridge-belo.md (§1-§9, ``flat`` newcomers of §10) as lean
numpy: everything that does not depend on ratings is prepared once, then one loop over the
periods uses only ``np.bincount`` and fancy indexing.

The kernel is a yardstick, not a second implementation to maintain: it has no options, no
unrated players, no explanations. Its agreement with ``ratings.rate("belo2", ...)`` is pinned by
``tests/test_belo_history_generator.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from quality.metrics import places_in_groups

__all__ = [
    "KIND_LABELS",
    "KernelInput",
    "bare_kernel",
    "generate_history",
    "prepare_kernel",
    "run_kernel",
]

Ints: TypeAlias = npt.NDArray[np.int64]
Floats: TypeAlias = npt.NDArray[np.float64]
Bools: TypeAlias = npt.NDArray[np.bool_]

START = np.datetime64("2016-01-01", "D")
"""First day of every generated history."""

# Event kinds of the generator: share of all events, and what each one looks like.
CLUB, CONGRESS, TEAMS, INDIVIDUAL = 0, 1, 2, 3
KIND_LABELS = ("club pairs", "congress pairs", "teams", "individual")
"""Labels of the generated event kinds, in code order (``club pairs`` is code 0)."""
_KIND_SHARE = np.array([0.805, 0.015, 0.15, 0.03])
_KIND_TEXT = np.array(["pairs", "pairs", "teams", "individual"], dtype=object)

VISITOR_SHARE = 0.08
"""Share of the seats of a club event taken by players of other clubs."""
LEAVER_SHARE = 0.35
"""Share of players who stop playing before the end of the history."""
TIE_STEP = 0.03
"""Unit performances are rounded to this step before ranking, so ties happen now and then."""


# --- generator ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Players:
    strength: Floats  # latent strength, standard normal
    club: Ints  # home club
    first_month: Ints  # first month the player may play (inclusive)
    last_month: Ints  # month after the last one the player may play (exclusive)


def _club_weights(rng: np.random.Generator, clubs: int) -> Floats:
    # Club sizes are skewed: a few big clubs, many small ones (log-normal weights).
    w = rng.lognormal(0.0, 0.9, clubs)
    return w / w.sum()


def _players(rng: np.random.Generator, players: int, weights: Floats, months: int) -> _Players:
    club = rng.choice(len(weights), size=players, p=weights).astype(np.int64)
    # Half the players are there from the start; the others enter at a uniform month.
    late = rng.random(players) < 0.5
    first = np.where(late, rng.integers(0, months, players), 0)
    # Some leave: after at least six months, at a uniform month before the end.
    leaves = rng.random(players) < LEAVER_SHARE
    span = np.maximum(months - first - 6, 1)
    last = np.where(leaves, first + 6 + (rng.random(players) * span).astype(np.int64), months)
    last = np.minimum(last, months)
    return _Players(rng.standard_normal(players), club, first.astype(np.int64), last)


@dataclass(frozen=True, slots=True)
class _Rosters:
    """Per month, the active players in a random order, once grouped by club and once overall."""

    by_club: Ints  # players, sorted by (month, club, random)
    club_start: Ints  # index [month * clubs + club] -> first position in by_club
    club_size: Ints
    overall: Ints  # players, sorted by (month, random)
    month_start: Ints
    month_size: Ints


def _rosters(rng: np.random.Generator, people: _Players, clubs: int, months: int) -> _Rosters:
    spans = people.last_month - people.first_month
    player = np.repeat(np.arange(len(spans)), spans)
    offset = np.arange(len(player)) - np.repeat(np.cumsum(spans) - spans, spans)
    month = people.first_month[player] + offset
    club = people.club[player]
    order = np.lexsort((rng.random(len(player)), club, month))
    key = month * clubs + club
    club_size = np.bincount(key, minlength=months * clubs)
    month_size = np.bincount(month, minlength=months)
    overall = np.lexsort((rng.random(len(player)), month))
    return _Rosters(
        by_club=player[order],
        club_start=np.cumsum(club_size) - club_size,
        club_size=club_size,
        overall=player[overall],
        month_start=np.cumsum(month_size) - month_size,
        month_size=month_size,
    )


def _sizes(rng: np.random.Generator, kind: Ints) -> Ints:
    """Number of units per event: skewed towards the small end of each kind's range."""
    count = len(kind)
    tail = rng.exponential(1.0, count)
    club = 8 + np.minimum((tail * 1.6).astype(np.int64), 12)  # 8-20 pairs
    congress = 30 + np.minimum((tail * 12.0).astype(np.int64), 50)  # 30-80 pairs
    teams = 6 + np.minimum((tail * 1.6).astype(np.int64), 10)  # 6-16 teams
    individual = rng.integers(10, 25, count)  # 10-24 players
    return np.choose(kind, [club, congress, teams, individual]).astype(np.int64)


def _members(rng: np.random.Generator, unit_kind: Ints) -> Ints:
    """Players per unit: pairs of 2 (now and then 3), teams of 4-6, individuals of 1."""
    count = len(unit_kind)
    pair = np.where(rng.random(count) < 0.02, 3, 2)
    team = rng.choice([4, 5, 6], size=count, p=[0.6, 0.25, 0.15])
    return np.choose(unit_kind, [pair, pair, team, np.ones(count, np.int64)]).astype(np.int64)


def _boards(rng: np.random.Generator, kind: Ints) -> Floats:
    count = len(kind)
    boards = np.choose(kind, [
        rng.integers(18, 31, count),  # club pairs: 18-30
        rng.integers(40, 61, count),  # congress: two sessions
        rng.integers(24, 65, count),  # teams
        rng.integers(20, 29, count),  # individual
    ]).astype(np.float64)
    # A few events do not say how many boards were played (docs/rules/bridge-belo.md §6: weight 1).
    return np.where(rng.random(count) < 0.02, np.nan, boards)


def _scoring(rng: np.random.Generator, kind: Ints) -> npt.NDArray[np.object_]:
    draw = rng.random(len(kind))
    congress = np.where(draw < 0.7, "MP", "IMP")
    teams = np.where(draw < 0.5, "IMP", "VP")
    return np.choose(kind, [np.full(len(kind), "MP"), congress, teams,
                            np.full(len(kind), "MP")]).astype(object)


def _seats(
    rng: np.random.Generator, kind: Ints, club: Ints, month: Ints, units: Ints,
    rosters: _Rosters, clubs: int,
) -> tuple[Ints, Ints, Ints]:
    """Event, unit (within its event) and player of every seat, before duplicates are dropped."""
    unit_event = np.repeat(np.arange(len(kind)), units)
    unit_index = np.arange(len(unit_event)) - np.repeat(np.cumsum(units) - units, units)
    size = _members(rng, kind[unit_event])
    event = np.repeat(unit_event, size)
    unit = np.repeat(unit_index, size)
    per_event = np.bincount(event, minlength=len(kind))
    seat = np.arange(len(event)) - np.repeat(np.cumsum(per_event) - per_event, per_event)

    # A club event seats a consecutive run of the month's shuffled club roster from a random
    # offset (distinct players while the run fits the roster), plus some visitors; congress and
    # team events seat a run of the month's shuffled national roster.
    mc = (month * clubs + club)[event]
    c_size = rosters.club_size[mc]
    from_club = (
        np.isin(kind[event], (CLUB, INDIVIDUAL)) & (seat < c_size)
        & (rng.random(len(event)) >= VISITOR_SHARE)
    )
    c_off = rng.integers(0, 1 << 40, len(kind))[event]
    c_pos = rosters.club_start[mc] + (c_off + seat) % np.maximum(c_size, 1)
    m = month[event]
    g_off = rng.integers(0, 1 << 40, len(kind))[event]
    g_pos = rosters.month_start[m] + (g_off + seat) % np.maximum(rosters.month_size[m], 1)
    player = np.where(
        from_club, rosters.by_club[np.where(from_club, c_pos, 0)], rosters.overall[g_pos],
    )
    return event, unit, player


def _places(rng: np.random.Generator, event: Ints, unit: Ints, strength: Floats) -> Floats:
    """Place of each seat's unit: by mean strength plus noise, ties averaged (contract)."""
    key = event * (int(unit.max()) + 1) + unit
    units, seat_unit = np.unique(key, return_inverse=True)
    u_event = units // (int(unit.max()) + 1)
    perf = np.bincount(seat_unit, strength) / np.bincount(seat_unit)
    perf = np.round((perf + rng.normal(0.0, 0.8, len(units))) / TIE_STEP)
    # Units with the same rounded performance are tied: they share the mean of their places.
    place = places_in_groups(u_event, perf)
    return place[seat_unit]


def _labels(prefix: str, count: int, width: int) -> npt.NDArray[np.object_]:
    return np.array([f"{prefix}{i:0{width}d}" for i in range(count)], dtype=object)


def generate_history(
    *, years: int = 10, players: int = 8000, clubs: int = 150, events: int = 120_000,
    seed: int = 1,
) -> pd.DataFrame:
    """A national bridge history as a results frame, the same for the same arguments.

    Players have a latent strength and a skewed home club; half are there from 2016-01-01, the
    others enter at a random month (never playing before it), and some leave. About 80 % of
    the events are club pairs tournaments (8-20 pairs, 18-30 boards, MP) seated mostly from the
    club's own players, 1.5 % congress pairs (30-80 pairs from all clubs), 15 % team events
    (6-16 teams of 4-6, IMP or VP), 3 % individual. Places follow the units' mean strength plus
    noise, with occasional ties (averaged places). No player appears twice in one event.

    Columns ``event_id, date, kind, scoring, boards, unit, place, player``; ids are text. Event
    ids are numbered by date; rows come event by event, unit by unit.
    """
    rng = np.random.default_rng(seed)
    months = 12 * years
    end = np.datetime64(f"{2016 + years}-01-01", "D")
    weights = _club_weights(rng, clubs)
    people = _players(rng, players, weights, months)
    rosters = _rosters(rng, people, clubs, months)

    kind = rng.choice(len(_KIND_SHARE), size=events, p=_KIND_SHARE).astype(np.int64)
    day = START + rng.integers(0, int((end - START).astype(np.int64)), events)
    month = (day.astype("datetime64[M]") - START.astype("datetime64[M]")).astype(np.int64)
    # Events are held by clubs in proportion to their size.
    club = rng.choice(clubs, size=events, p=weights).astype(np.int64)
    units = _sizes(rng, kind)
    # Chronological event numbers, so event ids sort like dates.
    chrono = np.argsort(day, kind="stable")
    kind, day, month, club, units = (a[chrono] for a in (kind, day, month, club, units))

    event, unit, player = _seats(rng, kind, club, month, units, rosters, clubs)
    # A player seated twice in one event (a visitor who is also on the club's run) keeps the
    # first seat only: spec contract, a player is listed once per event.
    _, first = np.unique(event * players + player, return_index=True)
    keep = np.sort(first)
    event, unit, player = event[keep], unit[keep], player[keep]
    place = _places(rng, event, unit, people.strength[player])

    boards = _boards(rng, kind)
    scoring = _scoring(rng, kind)
    width = len(str(max(events - 1, 1)))
    frame = pd.DataFrame({
        "event_id": _labels("E", events, width)[event],
        "date": pd.to_datetime(day[event]).astype("datetime64[us]"),
        "kind": _KIND_TEXT[kind[event]],
        "scoring": scoring[event],
        "boards": boards[event],
        "unit": _labels("", int(units.max()) + 2, 1)[unit + 1],
        "place": place,
        "player": _labels("P", players, len(str(players - 1)))[player],
    })
    return frame


# --- bare kernel ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KernelInput:
    """A results frame coded once for the whole history, rows sorted by (period, event, unit).

    Event and unit codes are consecutive in row order, so the rows, events and units of period
    ``k`` are the slices ``row_bounds[k]:row_bounds[k+1]`` etc.; within a period the codes are
    shifted to start at 0.
    """

    players: npt.NDArray[np.object_]  # player id per player code
    player: Ints  # player code per row
    event: Ints  # event code per row, local to its period
    unit: Ints  # unit code per row, local to its period
    r: Floats  # docs/rules/bridge-belo.md §1, formula 3
    v: Floats  # docs/rules/bridge-belo.md §6, event weight
    best: Floats  # 1000 (n - 0.5) / n, for the skip rule of docs/rules/bridge-belo.md §3
    cnt_u: Floats  # members of the row's unit
    cnt_e: Floats  # players of the row's event
    individual: Bools
    enough: Bools  # docs/rules/bridge-belo.md §5: at least 3 rated units (every player is rated under flat)
    row_bounds: Ints
    event_bounds: Ints
    unit_bounds: Ints
    admit_bounds: Ints  # players, ordered by first period, admitted in period k: admit[k:k+1]
    admit_order: Ints
    year_end: Bools  # period k is the last of its calendar year (docs/rules/bridge-belo.md §9, periodic)


def _quarter(dates: pd.Series) -> Ints:
    months = pd.to_datetime(dates).to_numpy().astype("datetime64[M]").astype(np.int64)
    return months // 3


def prepare_kernel(frame: pd.DataFrame) -> KernelInput:
    """Code ``frame`` for :func:`run_kernel`: everything that does not depend on ratings."""
    ev_code, _ = pd.factorize(frame["event_id"].astype(str))
    pl_code, players = pd.factorize(frame["player"].astype(str))
    un_raw, _ = pd.factorize(frame["unit"].astype(str))
    quarter = _quarter(frame["date"])
    q0 = int(quarter.min())
    quarter = quarter - q0

    order = np.lexsort((un_raw, ev_code, quarter))
    ev_s, un_s, q_s = ev_code[order], un_raw[order], quarter[order]
    new_event = np.r_[True, ev_s[1:] != ev_s[:-1]]
    new_unit = new_event | np.r_[True, un_s[1:] != un_s[:-1]]
    event = np.cumsum(new_event) - 1
    unit = np.cumsum(new_unit) - 1
    n_periods = int(q_s.max()) + 1

    cnt_u = np.bincount(unit).astype(np.float64)
    cnt_e = np.bincount(event).astype(np.float64)
    n_e = np.bincount(event[new_unit]).astype(np.float64)
    n = n_e[event]
    place = frame["place"].to_numpy(np.float64)[order]
    boards = frame["boards"].to_numpy(np.float64)[order]
    # docs/rules/bridge-belo.md §6, formula 9 (linear, the default): v = 1 + (b - 25)/50, 1 when unknown, floor 0.2.
    v = np.maximum(np.where(np.isnan(boards), 1.0, 1.0 + (boards - 25.0) / 50.0), 0.2)

    row_bounds = np.searchsorted(q_s, np.arange(n_periods + 1))
    # Events (units) before row i: the code of row i, or all of them past the last row.
    event_bounds = np.r_[event, event[-1] + 1][row_bounds]
    unit_bounds = np.r_[unit, unit[-1] + 1][row_bounds]

    # docs/rules/bridge-belo.md §10, flat: a player is admitted (rated 500) in the period of their first event.
    pl_s = pl_code[order]
    first_period = np.full(len(players), n_periods, dtype=np.int64)
    np.minimum.at(first_period, pl_s, q_s)
    admit_order = np.argsort(first_period, kind="stable")
    admit_bounds = np.searchsorted(first_period[admit_order], np.arange(n_periods + 1))

    return KernelInput(
        players=np.asarray(players, dtype=object),
        player=pl_s.astype(np.int64),
        event=event - event_bounds[q_s],
        unit=unit - unit_bounds[q_s],
        # docs/rules/bridge-belo.md §1, formula 3: r = 1000 (n + 0.5 - u) / n.
        r=1000.0 * (n + 0.5 - place) / n,
        v=v,
        best=1000.0 * (n - 0.5) / n,
        cnt_u=cnt_u[unit],
        cnt_e=cnt_e[event],
        individual=(frame["kind"].astype(str).to_numpy() == "individual")[order],
        enough=n >= 3,
        row_bounds=row_bounds.astype(np.int64),
        event_bounds=event_bounds.astype(np.int64),
        unit_bounds=unit_bounds.astype(np.int64),
        admit_bounds=admit_bounds.astype(np.int64),
        admit_order=admit_order.astype(np.int64),
        year_end=((np.arange(n_periods) + q0) % 4) == 3,
    )


def run_kernel(k: KernelInput, history: float = 50.0) -> Floats:
    """Final rating per player code: one loop over the periods, bincount and indexing only."""
    rating = np.full(len(k.players), 500.0)
    admitted = np.zeros(len(k.players), dtype=bool)
    keep = 1.0 - 1.0 / history
    for q in range(len(k.year_end)):
        admitted[k.admit_order[k.admit_bounds[q]:k.admit_bounds[q + 1]]] = True
        lo, hi = k.row_bounds[q], k.row_bounds[q + 1]
        if hi > lo:
            rating = _period(k, rating, lo, hi, q, keep)
        if k.year_end[q]:
            # docs/rules/bridge-belo.md §9, periodic: every rated player scaled so that the mean is 500.
            rating[admitted] *= 500.0 / rating[admitted].mean()
    return rating


def _period(k: KernelInput, rating: Floats, lo: int, hi: int, q: int, keep: float) -> Floats:
    """One period against the frozen ``rating`` (docs/rules/bridge-belo.md §8); returns the ratings after it."""
    pl, ev, un = k.player[lo:hi], k.event[lo:hi], k.unit[lo:hi]
    n_ev = int(k.event_bounds[q + 1] - k.event_bounds[q])
    n_un = int(k.unit_bounds[q + 1] - k.unit_bounds[q])
    cnt_u, cnt_e = k.cnt_u[lo:hi], k.cnt_e[lo:hi]
    R = rating[pl]
    sum_u = np.bincount(un, R, n_un)[un]
    sum_e = np.bincount(ev, R, n_ev)[ev]
    others = cnt_e - cnt_u
    mates = cnt_u - 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        # docs/rules/bridge-belo.md §3: Rt over the other units' players; BELO2 c = Rt^2 / (500 Ru).
        Rt = (sum_e - sum_u) / others
        c = Rt * Rt / (500.0 * (sum_u / cnt_u))
        # docs/rules/bridge-belo.md §4, damped (formula 7) with Rp the mean of the other members; 1 without mates
        # and in individual events.
        Rp = (sum_u - R) / mates
        partner = np.where(
            k.individual[lo:hi] | (mates == 0), 1.0, 1.0 + 0.5 * (R - Rp) / (R + Rp),
        )
        raw = k.r[lo:hi] * c * partner
        # docs/rules/bridge-belo.md §5 (min rated units), §3 (a field to rate against, skip rule).
        counted = k.enough[lo:hi] & (others > 0) & ~(c * k.best[lo:hi] * partner < R)
    vc = np.where(counted, k.v[lo:hi], 0.0)
    raw = np.where(counted, raw, 0.0)
    # docs/rules/bridge-belo.md §9, per event: f = sum(v R) / sum(v r').
    den = np.bincount(ev, vc * raw, n_ev)
    f = np.bincount(ev, vc * R, n_ev) / np.where(den > 0, den, 1.0)
    size = len(rating)
    W = np.bincount(pl, vc, size)
    S = np.bincount(pl, vc * raw * f[ev], size)
    # docs/rules/bridge-belo.md §8, exponential: R + (1 - (1 - 1/H)^W) (rbar - R).
    played = W > 0
    rbar = S / np.where(played, W, 1.0)
    return np.where(played, rating + (1.0 - keep ** W) * (rbar - rating), rating)


def bare_kernel(frame: pd.DataFrame, history: float = 50.0) -> pd.DataFrame:
    """BELO2 final ratings (``player, rating`` sorted by player) with the plain default rules.

    The rules of the ``belo2`` profile with ``newcomer=flat`` (docs/rules/bridge-belo.md §10: every new player
    starts at 500): field factor c, damped partner factor with Rp the others' mean, linear board
    weight floored at 0.2, skip rule, at least 3 rated units, per-event normalisation,
    exponential combination over calendar quarters, yearly normalisation to mean 500. Compare
    with ``ratings.rate("belo2", frame, options={"newcomer": "flat"})``.
    """
    k = prepare_kernel(frame)
    rating = run_kernel(k, history)
    out = pd.DataFrame({"player": k.players.astype(str), "rating": rating})
    return out.sort_values("player", ignore_index=True)
