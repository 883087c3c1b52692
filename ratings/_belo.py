"""BELO and BELO2: the placement-based bridge rating of spec/bridge-belo.md.

Implemented: §1 contribution, §2 update, §3 field factor (``k`` or ``belo2``) and skip rule,
§4 partner correction, §5 minimum of rated units, §6 event weight, §8 rating periods,
§9 per-event and periodic normalisation, and the ``flat`` newcomer rule of §10.

Each period is computed with array operations over all its rows at once; only the sequence of
periods is a Python loop (a period's ratings depend on the previous period's). Group sums add
their terms in a canonical order, so the result does not depend on the order of the input rows,
not even in the last bit (§8: "the order of entry ... cannot change anything").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import OptionError
from ._frames import (
    PERIOD_FREQUENCIES,
    PeriodUnit,
    RatingRun,
    check_initial,
    check_results,
    empty_contributions,
    empty_normalisations,
    empty_ratings,
    period_range,
)
from ._options import Choice, Number, check_options, option

__all__ = ["BeloParams", "rate_belo"]

FieldFactor: TypeAlias = Literal["k", "belo2"]
Partner: TypeAlias = Literal["none", "linear", "damped"]
PartnerRating: TypeAlias = Literal["others_mean", "unit_mean"]
BoardWeight: TypeAlias = Literal["linear", "proportional", "none"]
PeriodCombine: TypeAlias = Literal["exponential", "additive"]
OnOff: TypeAlias = Literal["on", "off"]
PeriodicNormalisation: TypeAlias = Literal["year", "period", "never"]
Newcomer: TypeAlias = Literal["flat", "subsidy", "phantom"]

Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]

MEAN_RATING = 500.0
"""The rating scale's mean (spec §Vocabulary); a ``flat`` newcomer starts here (§10)."""

MIN_WEIGHT = 0.2
"""Floor of the event weight (spec §6)."""


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
    skip_rule: OnOff = option("on", Choice(("on", "off")))
    """Skip an event that could only lower the player's rating even if won, spec §3."""
    newcomer: Newcomer = option(
        "flat", Choice(("flat", "subsidy", "phantom"), not_implemented=("subsidy", "phantom"))
    )
    """Start rule for players without a rating, spec §10."""
    phantom_events: int = option(15, Number(integer=True, minimum=1))
    """Events a ``phantom`` newcomer keeps the phantom for, spec §10."""

    def __post_init__(self) -> None:
        check_options(self)


# --- newcomer rules (spec §10) --------------------------------------------------------------


class _NewcomerRule(Protocol):
    """Admit the players of a period's rows who have no rating yet.

    Returns the pool (ratings by player, sorted by player) with the newcomers added, and the
    period's rows, which a rule may extend (a phantom member of a newcomer's unit, say).
    """

    def __call__(
        self, pool: pd.Series, rows: pd.DataFrame, params: BeloParams,
    ) -> tuple[pd.Series, pd.DataFrame]: ...


def _admit_flat(
    pool: pd.Series, rows: pd.DataFrame, params: BeloParams,
) -> tuple[pd.Series, pd.DataFrame]:
    # spec/bridge-belo.md §10, flat: a new player starts at 500 in the period of their first event
    # (whether or not that event ends up counting: under ``flat`` every player is rated).
    players = pd.Index(rows["player"].unique())
    new = players.difference(pool.index)
    if new.empty:
        return pool, rows
    added = pd.Series(MEAN_RATING, index=pd.Index(new, name="player"), dtype=float)
    return pd.concat([pool, added]).sort_index(), rows


_NEWCOMER_RULES: Mapping[str, _NewcomerRule] = MappingProxyType({"flat": _admit_flat})


def _newcomer_rule(params: BeloParams) -> _NewcomerRule:
    try:
        return _NEWCOMER_RULES[params.newcomer]
    except KeyError:
        raise OptionError(
            f"newcomer={params.newcomer} is not implemented yet; implemented values: "
            f"{', '.join(_NEWCOMER_RULES)}"
        ) from None


# --- array helpers ---------------------------------------------------------------------------


def _group_sum(codes: Codes, values: Floats, size: int) -> Floats:
    """Sum of ``values`` per group code ``0..size-1``.

    The terms of each group are added in sorted order, so the sums depend only on which values
    belong to which group, never on the order of the rows.
    """
    order = np.lexsort((values, codes))
    return np.bincount(codes[order], weights=values[order], minlength=size).astype(np.float64)


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
    rows = results.sort_values(
        ["date", "event_id", "unit", "player"], kind="mergesort", ignore_index=True,
    )
    n = rows.groupby("event_id", sort=False)["unit"].transform("nunique").to_numpy(np.int64)
    place = rows["place"].to_numpy(np.float64)
    rows["n"] = n
    # spec/bridge-belo.md §1, formula 3: r = 1000 (n + 0.5 - u) / n; its mean over units is 500.
    rows["r"] = 1000.0 * (n + 0.5 - place) / n
    rows["weight"] = _event_weight(rows["boards"].to_numpy(np.float64), params.board_weight)
    rows["period"] = rows["date"].dt.to_period(PERIOD_FREQUENCIES[params.period])
    return rows


# --- one period --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _PeriodOutcome:
    before: pd.Series
    after: pd.Series
    events: npt.NDArray[np.int64]
    contributions: pd.DataFrame


def _rate_period(pool: pd.Series, rows: pd.DataFrame, params: BeloParams) -> _PeriodOutcome:
    """Rate one period's events against the ratings frozen at its start (spec §8)."""
    pool, rows = _newcomer_rule(params)(pool, rows, params)
    frozen = pool.to_numpy(np.float64)
    size = len(frozen)

    pos: Codes = pool.index.get_indexer(rows["player"]).astype(np.intp)
    rated = pos >= 0
    R = np.where(rated, frozen[np.where(rated, pos, 0)], np.nan)
    R0 = np.where(rated, R, 0.0)

    ev: Codes = pd.factorize(rows["event_id"])[0].astype(np.intp)
    un: Codes = rows.groupby(["event_id", "unit"], sort=False).ngroup().to_numpy(np.intp)
    n_events, n_units = int(ev.max()) + 1, int(un.max()) + 1
    unit_event = np.zeros(n_units, dtype=np.intp)
    unit_event[un] = ev

    n = rows["n"].to_numpy(np.float64)
    r = rows["r"].to_numpy(np.float64)
    v = rows["weight"].to_numpy(np.float64)
    individual = (rows["kind"] == "individual").to_numpy(bool)

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
        Ru = np.where(cnt_u > 0, sum_u / np.maximum(cnt_u, 1), np.nan)
        if params.field == "k":
            # spec §3, formula 5 (BELO): k = Rt / 500.
            field = Rt / MEAN_RATING
        else:
            # spec §3, BELO2: c = Rt^2 / (500 Ru), Ru the mean rating of the unit's own players.
            field = Rt * Rt / (MEAN_RATING * Ru)

        # spec §4: Rp = mean rating of the OTHER members (others_mean), or the unit mean.
        if params.partner_rating == "others_mean":
            mates = cnt_u - 1
            Rp = np.where(mates > 0, (sum_u - R0) / np.maximum(mates, 1), np.nan)
        else:
            Rp = Ru
        if params.partner == "none":
            partner = np.ones_like(R)
        else:
            # spec §4: linear l = 1 + (R - Rp)/(R + Rp) (formula 6), damped
            # l = 1 + 0.5 (R - Rp)/(R + Rp) (formula 7).
            scale = 1.0 if params.partner == "linear" else 0.5
            partner = 1.0 + scale * (R - Rp) / (R + Rp)
        # Individual events, and units without another rated member: factor 1 (spec §4).
        partner = np.where(individual | np.isnan(Rp), 1.0, partner)
        partner = np.where(rated, partner, np.nan)

        raw = r * field * partner

    # Which rows count, and why not.
    enough_units = rated_units >= params.min_rated_units
    has_field = ~np.isnan(Rt)
    if params.skip_rule == "on":
        # spec §3, skip rule: if factor * 1000 (n - 0.5)/n * partner_factor < R, even winning
        # would lower the rating, so the event does not count for that player.
        best = field * 1000.0 * (n - 0.5) / n * partner
        skipped = has_field & (best < R)
    else:
        skipped = np.zeros_like(rated)
    counted = rated & enough_units & has_field & ~skipped
    # The first reason that applies is the one reported.
    reason = np.select(
        [~rated, ~enough_units, ~has_field, skipped],
        [
            "unrated player",
            f"fewer than {params.min_rated_units} rated units",  # spec §5
            "no rated players in other units",  # spec §3: no field to rate against
            "skip rule",  # spec §3
        ],
        default="",
    )

    vc = np.where(counted, v, 0.0)
    if params.event_normalisation == "on":
        # spec §9, per-event normalisation: one factor f per event with
        # sum_i v_i (f r'_i - R_i) = 0 over the rated participants counted in the event,
        # i.e. f = sum(v R) / sum(v r').
        num = _group_sum(ev, vc * R0, n_events)
        den = _group_sum(ev, np.where(counted, vc * raw, 0.0), n_events)
        with np.errstate(invalid="ignore", divide="ignore"):
            f_event = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        norm = f_event[ev]
    else:
        norm = np.ones_like(r)
    norm = np.where(counted, norm, np.nan)
    r_prime = np.where(counted, norm * raw, np.nan)

    # spec §8: combine the period's contributions per player.
    who = pos[counted]
    W = _group_sum(who, v[counted], size)
    S = _group_sum(who, v[counted] * r_prime[counted], size)
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

    contributions = pd.DataFrame({
        "period": rows["period"].astype(str),
        "event_id": rows["event_id"],
        "date": rows["date"],
        "player": rows["player"],
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
        "reason": pd.Series(reason, index=rows.index, dtype=str),
    })
    return _PeriodOutcome(
        before=pool,
        after=pd.Series(after, index=pool.index, dtype=float),
        events=events,
        contributions=contributions,
    )


def _normalises_after(period: pd.Period, rule: PeriodicNormalisation) -> bool:
    # spec §9, periodic: "year" after the last period of each calendar year (Q4 / December /
    # the year itself), "period" after every period, "never" not at all.
    if rule == "period":
        return True
    if rule == "year":
        return bool((period + 1).year != period.year)
    return False


# --- the scheme ------------------------------------------------------------------------------


def rate_belo(
    results: pd.DataFrame, params: BeloParams, initial: pd.DataFrame | None = None,
) -> RatingRun:
    """Rate ``results`` with BELO / BELO2 under ``params``, starting from ``initial``.

    ``results`` and ``initial`` are described in the :mod:`ratings` package docstring; neither
    is modified. Players in ``initial`` are rated (and carried) from the first period on.
    """
    check_options(params)
    _newcomer_rule(params)  # fails on a rule not implemented yet, before any work is done
    checked = check_results(results)
    pool = check_initial(initial)
    if checked.empty:
        return RatingRun(empty_ratings(), empty_contributions(), empty_normalisations())

    rows = _prepare(checked, params)
    periods = period_range(rows["date"].min(), rows["date"].max(), params.period)
    by_period = {p: chunk for p, chunk in rows.groupby("period", sort=True)}

    rating_frames: list[pd.DataFrame] = []
    contribution_frames: list[pd.DataFrame] = []
    normalisations: list[tuple[str, float]] = []
    for period in periods:
        label = str(period)
        chunk = by_period.get(period)
        if chunk is None:
            before, after = pool, pool
            events = np.zeros(len(pool), dtype=np.int64)
        else:
            outcome = _rate_period(pool, chunk.reset_index(drop=True), params)
            before, after, events = outcome.before, outcome.after, outcome.events
            contribution_frames.append(outcome.contributions)
        if _normalises_after(period, params.periodic_normalisation) and len(after):
            # spec §9, periodic normalisation: multiply every rated player's rating so that
            # their mean is exactly 500; the factor is recorded.
            factor = MEAN_RATING / float(np.mean(after.to_numpy(np.float64)))
            after = after * factor
            normalisations.append((label, factor))
        pool = after
        rating_frames.append(pd.DataFrame({
            "period": label,
            "period_start": period.start_time.normalize(),
            "period_end": period.end_time.normalize(),
            "player": pool.index.to_numpy(),
            "rating_before": before.to_numpy(np.float64),
            "rating": pool.to_numpy(np.float64),
            "events": events,
        }))

    ratings = pd.concat(rating_frames, ignore_index=True).astype({
        "period": str, "player": str, "period_start": "datetime64[us]",
        "period_end": "datetime64[us]", "events": np.int64,
    })
    contributions = pd.concat(contribution_frames, ignore_index=True)
    normalised = pd.DataFrame(normalisations, columns=["period", "factor"]).astype(
        {"period": str, "factor": float}
    )
    return RatingRun(ratings=ratings, contributions=contributions, normalisations=normalised)
