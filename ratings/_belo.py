"""BELO and BELO2: the placement-based bridge rating of spec/bridge-belo.md.

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

from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._frames import (
    PERIOD_FREQUENCIES,
    PeriodUnit,
    RatingRun,
    check_initial,
    check_results,
    empty_contributions,
    empty_normalisations,
    empty_phantoms,
    empty_ratings,
    empty_startup,
    period_range,
)
from ._options import Choice, Date, Number, check_options, option

__all__ = ["BeloParams", "rate_belo"]

FieldFactor: TypeAlias = Literal["k", "belo2"]
Partner: TypeAlias = Literal["none", "linear", "damped"]
PartnerRating: TypeAlias = Literal["others_mean", "unit_mean"]
BoardWeight: TypeAlias = Literal["linear", "proportional", "none"]
PeriodCombine: TypeAlias = Literal["exponential", "additive"]
OnOff: TypeAlias = Literal["on", "off"]
PeriodicNormalisation: TypeAlias = Literal["year", "period", "never"]
Newcomer: TypeAlias = Literal["flat", "subsidy", "phantom"]
PartnerWeight: TypeAlias = Literal["none", "ratio"]
Abroad: TypeAlias = Literal["exclude", "assumed"]
MatchResult: TypeAlias = Literal["place", "vp_share"]

Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]

MEAN_RATING = 500.0
"""The rating scale's mean (spec §Vocabulary); a ``flat`` newcomer starts here (§10)."""

MIN_WEIGHT = 0.2
"""Floor of the event weight (spec §6)."""

NEWCOMER_RATING = 300.0
"""Start of a ``subsidy`` or ``phantom`` newcomer (spec §10)."""

PHANTOM_RATING = 700.0
"""Start of a newcomer's phantom: 300 + 700 = 2 * 500 (spec §10)."""

SUBSIDY = 200.0
"""Points the club of a ``subsidy`` newcomer gives up together (spec §10)."""

PHANTOM_PREFIX = "~phantom:"
"""Pool ids of phantoms: the prefix and the newcomer's id. Never published."""


@dataclass(frozen=True, slots=True)
class BeloParams:
    """Options of the BELO schemes; every field is settable as ``--set name=value``.

    The two registered profiles differ only in ``field``: ``belo`` uses ``k``, ``belo2`` (the
    default profile, spec §3 "Decision") uses ``belo2``.
    """

    field: FieldFactor = option("belo2", Choice(("k", "belo2")))
    """Field factor, spec §3: ``k = Rt/500`` or ``c = Rt^2 / (500 Ru)``."""
    partner: Partner = option("damped", Choice(("none", "linear", "damped")))
    """Partner correction, spec §4: none, formula 6 (linear) or formula 7 (damped)."""
    partner_rating: PartnerRating = option("others_mean", Choice(("others_mean", "unit_mean")))
    """``Rp`` of spec §4: mean of the other members, or mean of the whole unit (2012 post)."""
    partner_weight: PartnerWeight = option("none", Choice(("none", "ratio")))
    """Spec §4 "Vplyv partnera": ``ratio`` multiplies the event weight by ``min(1, Rp / R)``."""
    board_weight: BoardWeight = option("linear", Choice(("linear", "proportional", "none")))
    """Event weight from the number of boards, spec §6 formulas 9 / 10."""
    period: PeriodUnit = option("quarter", Choice(("quarter", "month", "year")))
    """Rating period, spec §8."""
    period_combine: PeriodCombine = option("exponential", Choice(("exponential", "additive")))
    """How a period's contributions are combined, spec §8 "Decision"."""
    event_normalisation: OnOff = option("on", Choice(("on", "off")))
    """Per-event normalisation, spec §9."""
    periodic_normalisation: PeriodicNormalisation = option(
        "year", Choice(("year", "period", "never"))
    )
    """Periodic normalisation to mean 500, spec §9: after each calendar year, each period, never."""
    history: float = option(50.0, Number(integer=False, minimum=1.0))
    """History length ``H``, spec §2. At least 1: below that ``1 - 1/H`` is negative and the
    exponential combination of §8 has no meaning."""
    min_rated_units: int = option(3, Number(integer=True, minimum=1))
    """An event counts only with at least this many units with a rated player, spec §5."""
    abroad: Abroad = option("exclude", Choice(("exclude", "assumed")))
    """Events abroad (results column ``abroad``), spec §5: left out, or rated against the
    assumed field rating of the event (column ``field_rating``, e.g. 550 or 600)."""
    match_result: MatchResult = option("place", Choice(("place", "vp_share")))
    """A league match's contribution, spec §7: by place (750 / 250 / 500) or
    ``1000 VP_own / (VP_own + VP_opp)`` from the units' ``score``."""
    skip_rule: OnOff = option("on", Choice(("on", "off")))
    """Skip an event that could only lower the player's rating even if won, spec §3."""
    newcomer: Newcomer = option("phantom", Choice(("flat", "subsidy", "phantom")))
    """Start rule for players without a rating, spec §10 (default ``phantom``)."""
    phantom_events: int = option(15, Number(integer=True, minimum=1))
    """Rated events a ``phantom`` newcomer keeps the phantom for, spec §10."""
    cutover: str = option("", Date())
    """Spec §11: results before this date are the history the start ratings are computed
    from (passes to convergence); from it on ratings are computed forward. Empty: no start-up."""
    max_passes: int = option(10, Number(integer=True, minimum=1))
    """Start-up passes at most, spec §11."""
    startup_tolerance: float = option(0.5, Number(integer=False, minimum=0.0,
                                                  minimum_exclusive=True))
    """Start-up stops when no rating changes more than this between passes, spec §11."""

    def __post_init__(self) -> None:
        check_options(self)


# --- the pool: ratings plus what the newcomer rules remember ----------------------------------


@dataclass
class _Pool:
    """Ratings by pool id (players, and phantoms ``~phantom:<newcomer>``), sorted by id, plus
    the events each phantom still has (spec §10) and each player's latest club."""

    ratings: pd.Series
    events_left: pd.Series
    clubs: pd.Series

    @classmethod
    def start(cls, initial: pd.Series) -> _Pool:
        return cls(initial.astype(float), pd.Series([], dtype="int64"),
                   pd.Series([], dtype=object))


def _phantom_id(player: pd.Index | pd.Series) -> pd.Index:
    return pd.Index(PHANTOM_PREFIX + pd.Index(player).astype(str))


def _with(ratings: pd.Series, added: pd.Series) -> pd.Series:
    return pd.concat([ratings, added]).sort_index()


def _admit(pool: _Pool, rows: pd.DataFrame, params: BeloParams) -> tuple[_Pool, pd.DataFrame]:
    """Spec §10: start the period's newcomers (players without a rating) by the chosen rule,
    and add the phantom members of the units of newcomers whose phantom is still active."""
    clubs = rows.loc[rows["club"] != "", ["player", "club"]].drop_duplicates("player", keep="last")
    if not clubs.empty:
        pool.clubs = pd.concat([pool.clubs, clubs.set_index("player")["club"]])
        pool.clubs = pool.clubs[~pool.clubs.index.duplicated(keep="last")]
    # spec §5: players marked unrated (foreign guests, say) never enter the pool.
    new = pd.Index(rows.loc[~rows["unrated"], "player"].unique()).difference(pool.ratings.index)
    if params.newcomer == "flat" or new.empty:
        # flat: a new player starts at 500 in the period of their first event.
        if not new.empty:
            pool.ratings = _with(pool.ratings, pd.Series(MEAN_RATING, index=new, dtype=float))
    elif params.newcomer == "subsidy":
        pool.ratings = _subsidise(pool, new)
    else:
        # phantom: the newcomer starts at 300 with a phantom rated 700 (300 + 700 = 2 * 500).
        pool.ratings = _with(pool.ratings, pd.concat([
            pd.Series(NEWCOMER_RATING, index=new, dtype=float),
            pd.Series(PHANTOM_RATING, index=_phantom_id(new), dtype=float),
        ]))
        pool.events_left = pd.concat([
            pool.events_left, pd.Series(params.phantom_events, index=new, dtype="int64"),
        ])
    if params.newcomer == "phantom" and not pool.events_left.empty:
        rows = _add_phantom_rows(rows, pool.events_left)
    return pool, rows


def _subsidise(pool: _Pool, new: pd.Index) -> pd.Series:
    """Spec §10 subsidy: each newcomer starts at 300 and the existing players of their club are
    multiplied by one factor so that together they gain exactly 200 points. A newcomer whose club
    has no rated player (or who has no club) is subsidised by the whole pool instead."""
    ratings = pool.ratings
    club_of = pool.clubs.reindex(new).fillna("")
    existing = pool.clubs.reindex(ratings.index).fillna("")
    is_phantom = ratings.index.str.startswith(PHANTOM_PREFIX)
    factor = pd.Series(1.0, index=ratings.index)
    whole_pool = 0
    for club, count in club_of.value_counts().sort_index().items():
        members = (existing == club).to_numpy() & ~is_phantom if club else np.zeros(0, bool)
        total = float(ratings[members].sum()) if club and members.any() else 0.0
        if total > 0:
            factor[members] *= (total + SUBSIDY * count) / total
        else:
            whole_pool += int(count)
    if whole_pool:
        total = float(ratings[~is_phantom].sum())
        if total > 0:
            factor[~is_phantom] *= (total + SUBSIDY * whole_pool) / total
    scaled = ratings * factor
    return _with(scaled, pd.Series(NEWCOMER_RATING, index=new, dtype=float))


def _add_phantom_rows(rows: pd.DataFrame, events_left: pd.Series) -> pd.DataFrame:
    """A phantom member in each of its newcomer's first ``events_left`` events of the period.

    The phantom rows follow the period's own rows (ordered by newcomer, date and event), so
    sums within an event still add the same terms in the same order whatever the input order.
    """
    left = events_left[events_left > 0]
    idx = np.flatnonzero(rows["player"].isin(left.index).to_numpy())
    if idx.size == 0:
        return rows
    pc = rows["player_code"].to_numpy()[idx]
    order = idx[np.lexsort((rows["event_code"].to_numpy()[idx],
                            rows["date"].to_numpy()[idx], pc))]
    pc = rows["player_code"].to_numpy()[order]
    first = np.r_[True, pc[1:] != pc[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    nth = np.arange(len(order)) - start
    allowed = left.reindex(rows["player"].take(order)).to_numpy()
    phantoms = rows.take(order[nth < allowed]).copy()
    phantoms["phantom_of"] = phantoms["player"]
    phantoms["player"] = PHANTOM_PREFIX + phantoms["player"]
    phantoms["club"] = ""
    phantoms["unrated"] = False
    return pd.concat([rows, phantoms], ignore_index=True)


def _settle_phantoms(pool: _Pool, contributions: pd.DataFrame | None,
                     label: str) -> pd.DataFrame:
    """After a period (spec §10): count the phantoms' rated events; a phantom whose newcomer has
    played ``phantom_events`` rated events with it retires, and the newcomer's rating becomes
    the mean of the two. The others stay (dormant when the newcomer did not play; also in a
    period without events, ``contributions`` None)."""
    if pool.events_left.empty:
        return empty_phantoms()
    used = pd.Series(0, index=pool.events_left.index, dtype="int64")
    if contributions is not None:
        counted = contributions.loc[contributions["phantom"] & contributions["counted"], "player"]
        used = counted.value_counts().reindex(pool.events_left.index, fill_value=0)
    played = used > 0
    left = (pool.events_left - used).clip(lower=0)
    ids = _phantom_id(left.index)
    before = pool.ratings.reindex(ids).to_numpy()
    retired = left <= 0
    state = np.where(retired, "retired", np.where(played, "active", "dormant"))
    if retired.any():
        newcomers = left.index[retired]
        ph = _phantom_id(newcomers)
        merged = (pool.ratings.reindex(newcomers).to_numpy() + pool.ratings.reindex(ph).to_numpy())
        pool.ratings.loc[newcomers] = merged / 2.0
        pool.ratings = pool.ratings.drop(ph)
    pool.events_left = left[~retired]
    return pd.DataFrame({
        "period": label, "player": left.index.astype(str), "rating_before": before,
        "rating": before, "events_left": left.to_numpy(np.int64), "state": state,
    })


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
    # spec/bridge-belo.md §6: linear (formula 9) v = 1 + (b - 25)/50, proportional (formula 10)
    # v = b/25, none v = 1; unknown b gives 1; v is floored at 0.2.
    if rule == "linear":
        v = 1.0 + (boards - 25.0) / 50.0
    elif rule == "proportional":
        v = boards / 25.0
    else:
        v = np.ones_like(boards)
    v = np.where(np.isnan(boards), 1.0, v)
    return np.maximum(v, MIN_WEIGHT)


def _prepare(results: pd.DataFrame, params: BeloParams) -> pd.DataFrame:
    """Rows in output order with what does not depend on ratings: period, n, r, weight."""
    # Sorted by date, event, unit, player (integer codes in the ids' text order).
    # One int64 key: the event's rank by (date, event), then unit, then player.
    event_code = results["event_code"].to_numpy(np.int64)
    size = int(event_code.max()) + 1
    event_day = np.zeros(size, dtype=np.int64)
    event_day[event_code] = results["date"].to_numpy().astype("datetime64[D]").astype(np.int64)
    event_rank = np.empty(size, dtype=np.int64)
    event_rank[np.lexsort((np.arange(size), event_day))] = np.arange(size)
    units = int(results["unit_code"].max()) + 1
    players = int(results["player_code"].max()) + 1
    key = (event_rank[event_code] * units + results["unit_code"].to_numpy(np.int64)) * players \
        + results["player_code"].to_numpy(np.int64)
    rows = results.take(np.argsort(key, kind="stable")).reset_index(drop=True)
    n = rows["n"].to_numpy(np.int64)
    place = rows["place"].to_numpy(np.float64)
    # spec/bridge-belo.md §1, formula 3: r = 1000 (n + 0.5 - u) / n; its mean over units is 500.
    r = 1000.0 * (n + 0.5 - place) / n
    match = rows["match"].to_numpy(bool)
    if params.match_result == "vp_share" and match.any():
        # spec §7, vp_share: r = 1000 VP_own / (VP_own + VP_opp) for the matches of a league.
        units = rows.drop_duplicates(["event_id", "unit"])
        total = units.groupby("event_id")["score"].sum(min_count=1)
        own = rows["score"].to_numpy(np.float64)
        tot = total.reindex(rows["event_id"]).to_numpy(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = 1000.0 * own / tot
        usable = match & np.isfinite(share) & (tot > 0)
        r = np.where(usable, share, r)
    rows["r"] = r
    weight = _event_weight(rows["boards"].to_numpy(np.float64), params.board_weight)
    league = (rows["parent"] != "").to_numpy(bool)
    if league.any():
        # spec §7: each match of a league and its final standings weigh M / (M + 1), M = the
        # matches played in that league (counted per player: teams field varying line-ups).
        in_league = rows[league]
        m = in_league[in_league["match"]].groupby(["parent", "player"]).size()
        key = pd.MultiIndex.from_frame(in_league[["parent", "player"]])
        per_row = m.reindex(key, fill_value=0).to_numpy(np.float64)
        factor = np.ones(len(rows))
        factor[league] = np.where(per_row > 0, per_row / (per_row + 1.0), 1.0)
        weight = weight * factor
    rows["weight"] = weight
    rows["period"] = rows["date"].dt.to_period(PERIOD_FREQUENCIES[params.period])
    rows["phantom_of"] = ""
    return rows


# --- one period --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _PeriodOutcome:
    before: pd.Series
    after: pd.Series
    events: npt.NDArray[np.int64]
    contributions: pd.DataFrame


def _rate_period(pool: pd.Series, rows: pd.DataFrame, params: BeloParams) -> _PeriodOutcome:
    """Rate one period's events against the ratings frozen at its start (spec §8).

    ``pool`` already holds every player of ``rows`` (the newcomer rule has run).
    """
    frozen = pool.to_numpy(np.float64)
    size = len(frozen)

    pos: Codes = pool.index.get_indexer(rows["player"]).astype(np.intp)
    pos = np.where(rows["unrated"].to_numpy(bool), -1, pos)
    rated = pos >= 0
    R = np.where(rated, frozen[np.where(rated, pos, 0)], np.nan)
    R0 = np.where(rated, R, 0.0)

    ev: Codes = pd.factorize(rows["event_code"].to_numpy())[0].astype(np.intp)
    unit_key = rows["event_code"].to_numpy(np.int64) * (int(rows["unit_code"].max()) + 1) \
        + rows["unit_code"].to_numpy(np.int64)
    un: Codes = pd.factorize(unit_key)[0].astype(np.intp)
    n_events, n_units = int(ev.max()) + 1, int(un.max()) + 1
    unit_event = np.zeros(n_units, dtype=np.intp)
    unit_event[un] = ev

    n = rows["n"].to_numpy(np.float64)
    r = rows["r"].to_numpy(np.float64)
    v = rows["weight"].to_numpy(np.float64)
    place = rows["place"].to_numpy(np.float64)
    individual = (rows["kind"] == "individual").to_numpy(bool)
    match = rows["match"].to_numpy(bool)
    abroad = rows["abroad"].to_numpy(bool)
    assumed = rows["field_rating"].to_numpy(np.float64)

    # Sums and counts of frozen ratings of rated players per unit and per event (spec §5: unrated
    # players are left out of Rt, Ru and Rp).
    sum_u = _group_sum(un, R0, n_units)[un]
    cnt_u = _group_count(un, rated, n_units)
    sum_e = _group_sum(ev, R0, n_events)[ev]
    cnt_e = _group_count(ev, rated, n_events)[ev]
    rated_units = _group_count(unit_event, cnt_u > 0, n_events)[ev]
    cnt_u = cnt_u[un]

    with np.errstate(invalid="ignore", divide="ignore"):
        # spec §3: Rt = mean rating of the rated players of all OTHER units.
        others = cnt_e - cnt_u
        Rt = np.where(others > 0, (sum_e - sum_u) / np.maximum(others, 1), np.nan)
        # spec §5: an event abroad is rated against its assumed field rating.
        use_assumed = abroad & np.isfinite(assumed) & (params.abroad == "assumed")
        Rt = np.where(use_assumed, assumed, Rt)
        Ru = np.where(cnt_u > 0, sum_u / np.maximum(cnt_u, 1), np.nan)
        if params.field == "k":
            # spec §3, formula 5 (BELO): k = Rt / 500.
            field = Rt / MEAN_RATING
        else:
            # spec §3, BELO2: c = Rt^2 / (500 Ru), Ru the mean rating of the unit's own players.
            field = Rt * Rt / (MEAN_RATING * Ru)

        # spec §4: Rp = mean rating of the OTHER members (others_mean), or the unit mean.
        mates = cnt_u - 1
        Rp_others = np.where(mates > 0, (sum_u - R0) / np.maximum(mates, 1), np.nan)
        Rp = Rp_others if params.partner_rating == "others_mean" else Ru
        if params.partner == "none":
            partner = np.ones_like(R)
        else:
            # spec §4: linear l = 1 + (R - Rp)/(R + Rp) (formula 6), damped
            # l = 1 + 0.5 (R - Rp)/(R + Rp) (formula 7).
            scale = 1.0 if params.partner == "linear" else 0.5
            partner = 1.0 + scale * (R - Rp) / (R + Rp)
        # Individual events, and units without another rated member: factor 1 (spec §4).
        alone = individual | np.isnan(Rp_others)
        partner = np.where(alone, 1.0, partner)
        partner = np.where(rated, partner, np.nan)
        if params.partner_weight == "ratio":
            # spec §4 "Vplyv partnera": the event weight times min(1, Rp / R).
            v = np.where(alone | ~rated, v, v * np.minimum(1.0, Rp_others / R))

        raw = r * field * partner

    # Which rows count, and why not.
    # spec §5 min_rated_units; a league match (spec §7) has two units and needs both rated.
    enough_units = np.where(match, rated_units >= 2, rated_units >= params.min_rated_units)
    enough_units = enough_units | use_assumed
    has_field = ~np.isnan(Rt)
    excluded_abroad = abroad & ~use_assumed
    if params.skip_rule == "on":
        # spec §3, skip rule: if factor * 1000 (n - 0.5)/n * partner_factor < R, even winning
        # would lower the rating, so the event does not count for that player. League matches
        # follow the league rule below instead.
        best = field * 1000.0 * (n - 0.5) / n * partner
        skipped = has_field & (best < R) & ~match
    else:
        skipped = np.zeros_like(rated)
    # spec §7, league rule: if a win would lower the winner's rating, the match counts for
    # neither side (a loss or a draw of the stronger side always counts). "The winner's rating"
    # is read as the winning unit's: the mean of (r' - R) over its rated players.
    winner = match & (place < 1.5) & rated
    gain_u = _group_sum(un, np.where(winner, raw - R0, 0.0), n_units)
    losing_win = np.zeros(n_units, dtype=bool)
    losing_win[un[winner]] = gain_u[un[winner]] < 0
    league_skip = _group_count(unit_event, losing_win, n_events)[ev] > 0
    counted = (rated & enough_units & has_field & ~skipped & ~league_skip & ~excluded_abroad)
    reasons = _reasons(params)[1:]

    vc = np.where(counted, v, 0.0)
    if params.event_normalisation == "on":
        # spec §9, per-event normalisation: one factor f per event with
        # sum_i v_i (f r'_i - R_i) = 0 over the rated participants counted in the event,
        # i.e. f = sum(v R) / sum(v r'). Not for an event abroad rated against an assumed field
        # (spec §5): its few rated players would only be compared with each other again.
        num = _group_sum(ev, vc * R0, n_events)
        den = _group_sum(ev, np.where(counted, vc * raw, 0.0), n_events)
        with np.errstate(invalid="ignore", divide="ignore"):
            f_event = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        norm = np.where(use_assumed, 1.0, f_event[ev])
    else:
        norm = np.ones_like(r)
    norm = np.where(counted, norm, np.nan)
    r_prime = np.where(counted, norm * raw, np.nan)

    # spec §8: combine the period's contributions per player.
    who = pos[counted]
    # A player's sums across events add their terms in one canonical order: by weight, then
    # contribution, so not even the names of the events can change the last bit.
    wv, wr = vc[counted], vc[counted] * r_prime[counted]
    order = np.lexsort((wr, wv, who))
    W = _group_sum(who[order], wv[order], size)
    S = _group_sum(who[order], wr[order], size)
    events = _group_count(who, np.ones(len(who), dtype=bool), size)
    H = float(params.history)
    played = W > 0
    if params.period_combine == "exponential":
        # spec §8, exponential: R_new = R_old + (1 - (1 - 1/H)^W) (rbar - R_old),
        # W = sum v, rbar = sum(v r') / W.
        rbar = np.where(played, S / np.where(played, W, 1.0), frozen)
        after = frozen + (1.0 - (1.0 - 1.0 / H) ** W) * (rbar - frozen)
    else:
        # spec §8, additive (formula 4 summed): R_new = R_old + sum(v (r' - R_old)) / H.
        after = frozen + (S - W * frozen) / H
    after = np.where(played, after, frozen)

    phantom = (rows["phantom_of"] != "").to_numpy(bool)
    player = rows["player"].where(~phantom, rows["phantom_of"]) if phantom.any() else rows["player"]
    reason_codes = np.select(
        [~rated, excluded_abroad, ~enough_units, ~has_field, skipped, league_skip],
        np.arange(1, len(reasons) + 1), default=0,
    )
    contributions = pd.DataFrame({
        "period": str(rows["period"].iat[0]),
        "event_id": rows["event_id"],
        "date": rows["date"],
        "player": player,
        "unit": rows["unit"],
        "place": rows["place"],
        "n": rows["n"].astype(np.int64),
        "r": r,
        "field_factor": np.where(rated, field, np.nan),
        "partner_factor": partner,
        "weight": v,
        "norm_factor": norm,
        "r_prime": r_prime,
        "counted": counted,
        "reason": reason_codes.astype(np.int8),
        "phantom": phantom,
    })
    return _PeriodOutcome(
        before=pool,
        after=pd.Series(after, index=pool.index, dtype=float),
        events=events,
        contributions=contributions,
    )


def _reasons(params: BeloParams) -> list[str]:
    """Why a row did not count, by code (0: it counted); the first that applies is given."""
    return ["", "unrated player", "event abroad",
            f"fewer than {params.min_rated_units} rated units",  # spec §5
            "no rated players in other units",  # spec §3: no field to rate against
            "skip rule",  # spec §3
            "league win rule"]  # spec §7


def _normalises_after(period: pd.Period, rule: PeriodicNormalisation) -> bool:
    # spec §9, periodic: "year" after the last period of each calendar year (Q4 / December /
    # the year itself), "period" after every period, "never" not at all.
    if rule == "period":
        return True
    if rule == "year":
        return bool((period + 1).year != period.year)
    return False


# --- the sequence of periods -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Run:
    ratings: list[pd.DataFrame]
    contributions: list[pd.DataFrame]
    normalisations: list[tuple[str, float]]
    phantoms: list[pd.DataFrame]
    pool: _Pool


def _run_periods(rows: pd.DataFrame, pool: _Pool, params: BeloParams,
                 periods: pd.PeriodIndex) -> _Run:
    """Rate ``periods`` one after the other (spec §8); only this loop is Python."""
    by_period = {p: chunk for p, chunk in rows.groupby("period", sort=True)}
    rating_frames: list[pd.DataFrame] = []
    contribution_frames: list[pd.DataFrame] = []
    phantom_frames: list[pd.DataFrame] = []
    normalisations: list[tuple[str, float]] = []
    for period in periods:
        label = str(period)
        chunk = by_period.get(period)
        before_all = pool.ratings
        if chunk is None:
            after = pool.ratings
            counts = pd.Series(0, index=pool.ratings.index, dtype="int64")
            contributions = None
        else:
            pool, chunk = _admit(pool, chunk.reset_index(drop=True), params)
            outcome = _rate_period(pool.ratings, chunk, params)
            before_all = outcome.before
            after = outcome.after
            counts = pd.Series(outcome.events, index=pool.ratings.index, dtype="int64")
            contributions = outcome.contributions
            contribution_frames.append(contributions)
        pool.ratings = after
        settled = _settle_phantoms(pool, contributions, label)
        if _normalises_after(period, params.periodic_normalisation) and len(pool.ratings):
            # spec §9, periodic normalisation: multiply every rated player's rating (dormant
            # phantoms included) so that their mean is exactly 500; the factor is recorded.
            factor = MEAN_RATING / float(np.mean(pool.ratings.to_numpy(np.float64)))
            pool.ratings = pool.ratings * factor
            normalisations.append((label, factor))
        if not settled.empty:
            ids = _phantom_id(settled["player"])
            settled["rating_before"] = before_all.reindex(ids).to_numpy()
            settled["rating"] = np.where(settled["state"] == "retired", np.nan,
                                         pool.ratings.reindex(ids).to_numpy())
            phantom_frames.append(settled)
        players = ~pool.ratings.index.str.startswith(PHANTOM_PREFIX)
        shown = pool.ratings[players]
        rating_frames.append(pd.DataFrame({
            "period": label,
            "period_start": period.start_time.normalize(),
            "period_end": period.end_time.normalize(),
            "player": shown.index.to_numpy(),
            "rating_before": _before(before_all, shown),
            "rating": shown.to_numpy(np.float64),
            "events": counts.reindex(shown.index, fill_value=0).to_numpy(np.int64),
        }))
    return _Run(rating_frames, contribution_frames, normalisations, phantom_frames, pool)


def _before(before: pd.Series, shown: pd.Series) -> npt.NDArray[np.float64]:
    """Each shown player's rating at the start of the period (after admission)."""
    return before.reindex(shown.index).to_numpy(np.float64)


# --- start-up from history (spec §11) ----------------------------------------------------------


def _startup(history: pd.DataFrame, start: pd.Series, params: BeloParams,
             ) -> tuple[pd.Series, pd.DataFrame]:
    """Spec §11: every player starts at 500 (or at ``start``), the whole history is rated, the
    results (normalised to mean 500) become the start values, and the history is rated again,
    until no rating changes by ``startup_tolerance`` or after ``max_passes``."""
    flat = replace(params, newcomer="flat")
    players = pd.Index(sorted(history["player"].unique()))
    values = start.reindex(players.union(start.index)).fillna(MEAN_RATING)
    periods = period_range(history["date"].min(), history["date"].max(), params.period)
    passes: list[tuple[int, float, float]] = []
    for number in range(1, params.max_passes + 1):
        run = _run_periods(history, _Pool.start(values), flat, periods)
        final = run.pool.ratings
        mean = float(final.mean())
        final = final * (MEAN_RATING / mean)
        change = float((final - values.reindex(final.index).fillna(MEAN_RATING)).abs().max())
        passes.append((number, change, mean))
        values = final
        if change < params.startup_tolerance:
            break
    table = pd.DataFrame(passes, columns=["pass", "max_change", "mean_before_normalisation"])
    return values, table.astype({"pass": "int64"})


# --- the scheme ------------------------------------------------------------------------------


def rate_belo(
    results: pd.DataFrame, params: BeloParams, initial: pd.DataFrame | None = None,
) -> RatingRun:
    """Rate ``results`` with BELO / BELO2 under ``params``, starting from ``initial``.

    ``results`` and ``initial`` are described in the :mod:`ratings` package docstring; neither
    is modified. Players in ``initial`` are rated (and carried) from the first period on. With a
    ``cutover`` date, the results before it only compute the start ratings (spec §11) and the
    ratings are reported from the cut-over period on.
    """
    check_options(params)
    checked = check_results(results)
    start = check_initial(initial)
    if checked.empty:
        return RatingRun(empty_ratings(), empty_contributions(), empty_normalisations())

    rows = _prepare(checked, params)
    startup = empty_startup()
    first = rows["date"].min()
    if params.cutover:
        cut = pd.Timestamp(params.cutover)
        history = rows[rows["date"] < cut]
        if not history.empty:
            start, startup = _startup(history.reset_index(drop=True), start, params)
        rows = rows[rows["date"] >= cut].reset_index(drop=True)
        first = cut
        if rows.empty:
            last = cut
        else:
            last = rows["date"].max()
    else:
        last = rows["date"].max()
    periods = period_range(first, last, params.period)
    run = _run_periods(rows, _Pool.start(start), params, periods)

    ratings = pd.concat(run.ratings, ignore_index=True).astype({
        "period": str, "player": str, "period_start": "datetime64[us]",
        "period_end": "datetime64[us]", "events": np.int64,
    })
    contributions = (pd.concat(run.contributions, ignore_index=True) if run.contributions
                     else empty_contributions())
    if run.contributions:  # reasons travel as small codes until here
        contributions["reason"] = pd.Categorical.from_codes(
            contributions["reason"].to_numpy(np.int8), _reasons(params)).astype(str)
    normalised = pd.DataFrame(run.normalisations, columns=["period", "factor"]).astype(
        {"period": str, "factor": float}
    )
    phantoms = (pd.concat(run.phantoms, ignore_index=True) if run.phantoms
                else empty_phantoms())
    return RatingRun(ratings=ratings, contributions=contributions, normalisations=normalised,
                     phantoms=phantoms, startup=startup)
