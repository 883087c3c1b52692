"""Baseline rating schemes for go: Elo, Glicko-2 and the EGF GoR of 2021.

All three read the games frame of the go schemes (one row per game from the first player's side:
``period, player, opponent, result, handicap, colour[, date, komi]``) and return a
:class:`RatingRun` like every scheme: the ``ratings`` frame carries ``deviation_before`` and
``deviation`` (Glicko-2's RD; NaN for Elo and EGF), ``contributions`` one row per game per player
with the ``expected`` result.

Within a period every game is rated from the ratings the period starts with, so the order of
the games (and from whose side a game is written) does not matter; only the sequence of periods
is a Python loop. Per-player sums add their terms in a canonical order, so even the last bit of
a rating does not depend on the order of the input rows or on the players' labels.

Sources:

- Elo: the logistic expectation ``1 / (1 + 10^((Rb - Ra) / 400))`` and ``R' = R + k (S - E)``.
- Glicko-2: M. E. Glickman, "Example of the Glicko-2 system" (steps 1-8 cited in the code),
  http://math.bu.edu/people/mg/glicko/glicko2.doc/example.html
- EGF GoR 2021: "EGF Official ratings system",
  https://www.europeangodatabase.eu/EGD/EGF_rating_system.php (formulas as restated in
  https://packagist.org/packages/horaceho/ers); handicap shift ``100 (h - 0.5)`` for the
  receiver of ``h >= 1`` stones (https://britgo.org/ratings/submission: "50 points for a no
  komi game, then 100 points per handicap stone"); rating floor -900 = 30 kyu
  (https://docs.rs/skillratings/latest/skillratings/egf/).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import InputError, RatingError
from ._frames import RATINGS_COLUMNS, RatingRun, empty_normalisations
from ._go import check_games, declared_ratings, group_sum
from ._options import check_options
from ._params import EGF_MIN_RATING, EgfParams, EloParams, Glicko2Params

__all__ = [
    "BASELINE_CONTRIBUTIONS_COLUMNS",
    "BASELINE_RATINGS_COLUMNS",
    "EGF_MAX_RATING",
    "EGF_MIN_RATING",
    "EgfParams",
    "EloParams",
    "Glicko2Params",
    "rate_egf",
    "rate_elo",
    "rate_glicko2",
]

Floats: TypeAlias = npt.NDArray[np.float64]
Codes: TypeAlias = npt.NDArray[np.intp]

BASELINE_RATINGS_COLUMNS = (*RATINGS_COLUMNS, "deviation_before", "deviation")
"""Columns of every baseline ``ratings`` frame; Glicko-2 adds ``volatility``."""

BASELINE_CONTRIBUTIONS_COLUMNS = (
    "period", "player", "opponent", "result", "handicap", "colour", "expected", "weight",
)
"""Columns of every baseline ``contributions`` frame; Elo and EGF add ``change``."""

GLICKO2_SCALE = 173.7178
"""Glicko-2 step 2: ``mu = (r - 1500) / 173.7178``, ``phi = RD / 173.7178``."""

GLICKO2_CENTRE = 1500.0
"""Glicko-2 step 2: the Glicko rating that maps to ``mu = 0``."""

EGF_MAX_RATING = 3300.0
"""EGF GoR: ``con`` and ``beta`` are defined for ratings below 3300 only."""

_DATE = "datetime64[us]"


# --- params -----------------------------------------------------------------------------------


# --- input frames -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Start:
    """Initial state per player (sorted by player); NaN where the frame gave no value."""

    rating: pd.Series
    deviation: pd.Series
    volatility: pd.Series


def _check_initial(initial: pd.DataFrame | None) -> _Start:
    """Initial frame ``player, rating[, deviation[, volatility]]`` (go contract, "Initial
    frame"; ``volatility`` for Glicko-2). Ratings must be finite (go ratings may be 0 or
    negative); a deviation or volatility, when given, positive."""
    if initial is None:
        empty = pd.Series([], index=pd.Index([], dtype=str, name="player"), dtype=float)
        return _Start(empty, empty.copy(), empty.copy())
    for column in ("player", "rating"):
        if column not in initial.columns:
            raise InputError(f"missing column {column!r}; expected player, rating[, deviation]",
                             frame="initial")
    if initial["player"].isna().any():
        raise InputError("column 'player' has an empty value", frame="initial")
    players = initial["player"].astype(str).str.strip()
    twice = players.duplicated()
    if twice.any():
        raise InputError(f"player {players[twice].iloc[0]!r} is listed more than once",
                         frame="initial")
    index = pd.Index(players.to_numpy(), name="player")
    values: dict[str, pd.Series] = {}
    for column in ("rating", "deviation", "volatility"):
        if column not in initial.columns:
            values[column] = pd.Series(np.nan, index=index, dtype=float)
            continue
        number = pd.to_numeric(initial[column], errors="coerce").astype(float).to_numpy()
        if column == "rating":
            bad = ~np.isfinite(number)
        else:
            bad = ~np.isnan(number) & ~(np.isfinite(number) & (number > 0))
        if bad.any():
            at = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"player {players.iloc[at]!r} has {column} {initial[column].iloc[at]!r}; "
                f"expected a finite{' positive' if column != 'rating' else ''} number",
                frame="initial",
            )
        values[column] = pd.Series(number, index=index, dtype=float)
    return _Start(*(values[c].sort_index() for c in ("rating", "deviation", "volatility")))


def _period_order(games: pd.DataFrame) -> list[str]:
    """Go contract, "Games frame": periods in order of their first date (then label) when
    dates exist, else in sorted label order. A period without any date comes last."""
    first = games.groupby("period", sort=True)["date"].min()
    if first.isna().all():
        return [str(p) for p in first.index]
    order = pd.DataFrame({"label": first.index.astype(str), "first": first.to_numpy()})
    order = order.sort_values(["first", "label"], kind="mergesort", na_position="last")
    return order["label"].tolist()


def _sides(games: pd.DataFrame) -> pd.DataFrame:
    """Every game twice, once from each player's side, in a canonical order (period, then
    player, opponent, colour, handicap, result), so nothing depends on the input's row order
    or on which side a game was written from."""
    first = games[["period", "player", "opponent", "result", "handicap", "colour", "date"]]
    second = pd.DataFrame({
        "period": games["period"], "player": games["opponent"], "opponent": games["player"],
        "result": 1.0 - games["result"], "handicap": games["handicap"],
        "colour": np.where(games["colour"] == "b", "w", "b"), "date": games["date"],
    })
    both = pd.concat([first, second], ignore_index=True)
    return both.sort_values(
        ["period", "player", "opponent", "colour", "handicap", "result", "date"],
        kind="mergesort", ignore_index=True, na_position="last",
    )


# --- array helpers ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Games:
    """One period's game sides as arrays: positions of player and opponent in the state."""

    own: Codes
    opp: Codes
    result: Floats
    handicap: Floats
    black: npt.NDArray[np.bool_]
    size: int

    def played(self) -> npt.NDArray[np.int64]:
        return np.bincount(self.own, minlength=self.size).astype(np.int64)


@dataclass(frozen=True, slots=True)
class _State:
    """Ratings (and Glicko-2's deviation and volatility) per player, sorted by player."""

    players: pd.Index
    rating: Floats
    deviation: Floats
    volatility: Floats


@dataclass(frozen=True, slots=True)
class _Update:
    """A period's result: the new state and per-row columns of the contributions."""

    state: _State
    columns: dict[str, Floats]


_Rule: TypeAlias = Callable[[_State, _Games], _Update]
_Newcomer: TypeAlias = tuple[float, float, float]


def _admit(state: _State, players: pd.Index, start: _Start, newcomer: _Newcomer,
           declared: pd.Series | None = None) -> _State:
    """Add the period's players without a rating: from the initial frame, else from the grade
    they declared in the period (``declared``, on the grade scale; docs/rules/go-rfg.md "First
    entry"), else the scheme's start values (NaN in the frame falls back too)."""
    new = players.difference(state.players)
    if new.empty:
        return state
    rating = start.rating.reindex(new)
    if declared is not None and not declared.empty:
        rating = rating.fillna(declared.reindex(new))
    rating = rating.fillna(newcomer[0]).to_numpy(np.float64)
    deviation = start.deviation.reindex(new).fillna(newcomer[1]).to_numpy(np.float64)
    volatility = start.volatility.reindex(new).fillna(newcomer[2]).to_numpy(np.float64)
    merged = state.players.append(new)
    order = np.argsort(merged.to_numpy(dtype=str), kind="mergesort")
    return _State(
        players=merged[order],
        rating=np.concatenate([state.rating, rating])[order],
        deviation=np.concatenate([state.deviation, deviation])[order],
        volatility=np.concatenate([state.volatility, volatility])[order],
    )


def _initial_state(start: _Start, newcomer: _Newcomer) -> _State:
    """Players of the initial frame are rated (and carried) from the first period on."""
    empty = _State(pd.Index([], dtype=object, name="player"), np.zeros(0), np.zeros(0),
                   np.zeros(0))
    return _admit(empty, pd.Index(start.rating.index, dtype=object), start, newcomer)


def _run(games: pd.DataFrame, initial: pd.DataFrame | None, newcomer: _Newcomer, rule: _Rule,
         *, deviation: bool, extras: tuple[str, ...] = (),
         contribution_extras: tuple[str, ...] = (),
         bounds: tuple[float, float] | None = None) -> RatingRun:
    """The period loop shared by the baselines; ``rule`` rates one period from its input
    state. ``deviation``: report the state's deviation (Glicko-2) or NaN. ``extras`` and
    ``contribution_extras`` name the scheme's additional columns (for empty frames).
    A newcomer who declared a grade starts at its rating (``_go.grade_rating``), kept within
    ``bounds`` when given (EGF: ``[-900, 3300)``)."""
    checked = check_games(games)
    graded = (checked["rank"] != "") | (checked["opponent_rank"] != "")
    declared = {str(p): _within(declared_ratings(chunk), bounds)
                for p, chunk in checked[graded].groupby("period", sort=False)}
    start = _check_initial(initial)
    sides = _sides(checked)
    state = _initial_state(start, newcomer)
    by_period = {str(p): chunk for p, chunk in sides.groupby("period", sort=False)}
    rating_frames: list[pd.DataFrame] = []
    contribution_frames: list[pd.DataFrame] = []
    for label in _period_order(checked):
        rows = by_period[label]
        state = _admit(state, pd.Index(rows["player"].unique(), dtype=object), start, newcomer,
                       declared.get(label))
        period = _Games(
            own=state.players.get_indexer(rows["player"]).astype(np.intp),
            opp=state.players.get_indexer(rows["opponent"]).astype(np.intp),
            result=rows["result"].to_numpy(np.float64),
            handicap=rows["handicap"].to_numpy(np.float64),
            black=(rows["colour"] == "b").to_numpy(bool),
            size=len(state.players),
        )
        update = rule(state, period)
        rating_frames.append(_ratings_rows(label, rows, state, update.state, period, deviation,
                                           extras))
        contribution_frames.append(_contribution_rows(rows, update.columns))
        state = update.state
    ratings = (pd.concat(rating_frames, ignore_index=True) if rating_frames
               else _empty_ratings(extras))
    contributions = (pd.concat(contribution_frames, ignore_index=True) if contribution_frames
                     else _empty_contributions(contribution_extras))
    return RatingRun(ratings=ratings, contributions=contributions,
                     normalisations=empty_normalisations())


def _within(ratings: pd.Series, bounds: tuple[float, float] | None) -> pd.Series:
    if bounds is None or ratings.empty:
        return ratings
    return ratings.clip(bounds[0], np.nextafter(bounds[1], -np.inf))


def _ratings_rows(label: str, rows: pd.DataFrame, before: _State, after: _State,
                  period: _Games, deviation: bool, extras: tuple[str, ...]) -> pd.DataFrame:
    nan = np.full(len(after.players), np.nan)
    frame = pd.DataFrame({
        "period": label,
        "period_start": rows["date"].min(),
        "period_end": rows["date"].max(),
        "player": after.players.to_numpy(dtype=str),
        "rating_before": before.rating,
        "rating": after.rating,
        "events": period.played(),
        "deviation_before": before.deviation if deviation else nan,
        "deviation": after.deviation if deviation else nan,
    })
    if "volatility" in extras:
        frame["volatility"] = after.volatility
    return frame.astype({"period_start": _DATE, "period_end": _DATE, "player": str})


def _contribution_rows(rows: pd.DataFrame, columns: dict[str, Floats]) -> pd.DataFrame:
    frame = pd.DataFrame({
        "period": rows["period"].to_numpy(dtype=str),
        "player": rows["player"].to_numpy(dtype=str),
        "opponent": rows["opponent"].to_numpy(dtype=str),
        "result": rows["result"].to_numpy(np.float64),
        "handicap": rows["handicap"].to_numpy(np.int64),
        "colour": rows["colour"].to_numpy(dtype=str),
        "weight": 1.0,
    })
    for name, values in columns.items():
        frame[name] = values
    ordered = [*BASELINE_CONTRIBUTIONS_COLUMNS,
               *(c for c in columns if c not in BASELINE_CONTRIBUTIONS_COLUMNS)]
    return frame[ordered]


def _empty_ratings(extras: tuple[str, ...]) -> pd.DataFrame:
    columns: dict[str, pd.Series] = {
        "period": pd.Series([], dtype=str), "period_start": pd.Series([], dtype=_DATE),
        "period_end": pd.Series([], dtype=_DATE), "player": pd.Series([], dtype=str),
        "rating_before": pd.Series([], dtype=float), "rating": pd.Series([], dtype=float),
        "events": pd.Series([], dtype="int64"),
        "deviation_before": pd.Series([], dtype=float), "deviation": pd.Series([], dtype=float),
    }
    for name in extras:
        columns[name] = pd.Series([], dtype=float)
    return pd.DataFrame(columns)


def _empty_contributions(extras: tuple[str, ...]) -> pd.DataFrame:
    frame = pd.DataFrame({
        "period": pd.Series([], dtype=str), "player": pd.Series([], dtype=str),
        "opponent": pd.Series([], dtype=str), "result": pd.Series([], dtype=float),
        "handicap": pd.Series([], dtype="int64"), "colour": pd.Series([], dtype=str),
        "expected": pd.Series([], dtype=float), "weight": pd.Series([], dtype=float),
    })
    for name in extras:
        frame[name] = pd.Series([], dtype=float)
    return frame


def _shifted(own: Floats, opp: Floats, games: _Games, shift: Floats) -> tuple[Floats, Floats]:
    """Both sides' ratings for the expectation, ``shift`` added to black's (the receiver of
    the handicap; go contract, "colour")."""
    return own + np.where(games.black, shift, 0.0), opp + np.where(games.black, 0.0, shift)


# --- Elo --------------------------------------------------------------------------------------


def _elo_period(params: EloParams) -> _Rule:
    def rule(state: _State, games: _Games) -> _Update:
        own, opp = _shifted(state.rating[games.own], state.rating[games.opp], games,
                            params.handicap_points * games.handicap)
        # Elo: E = 1 / (1 + 10^((Rb - Ra) / scale)) from the period's input ratings.
        expected = 1.0 / (1.0 + 10.0 ** ((opp - own) / params.scale))
        change = params.k * (games.result - expected)
        rating = state.rating + group_sum(games.own, change, games.size)
        new = _State(state.players, rating, state.deviation, state.volatility)
        return _Update(new, {"expected": expected, "change": change})
    return rule


def rate_elo(games: pd.DataFrame, params: EloParams, initial: pd.DataFrame | None = None,
             ) -> RatingRun:
    """Rate ``games`` with Elo: per period ``R' = R + k sum(S - E)`` over the player's games,
    every ``E`` from the period's input ratings. Contributions carry ``change = k (S - E)``.
    Neither input is modified."""
    check_options(params)
    return _run(games, initial, (params.initial, math.nan, math.nan), _elo_period(params),
                deviation=False, contribution_extras=("change",))


# --- Glicko-2 ---------------------------------------------------------------------------------


def _g(phi: Floats) -> Floats:
    # Glicko-2 step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2).
    return 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _volatility(delta: Floats, phi: Floats, v: Floats, sigma: Floats, tau: float,
                epsilon: float) -> Floats:
    """Glicko-2 step 5: the new volatility by the Illinois algorithm, for every player at once
    (each player's iteration stops on its own, so players do not influence each other)."""
    d2, p2 = delta * delta, phi * phi
    a = np.log(sigma * sigma)

    def f(x: Floats, i: Codes) -> Floats:
        # step 5.1: f(x) = e^x (D^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a)/tau^2
        ex = np.exp(x)
        return (ex * (d2[i] - p2[i] - v[i] - ex) / (2.0 * (p2[i] + v[i] + ex) ** 2)
                - (x - a[i]) / (tau * tau))

    everyone = np.arange(len(a), dtype=np.intp)
    # step 5.2: A = a; B = ln(D^2 - phi^2 - v) if D^2 > phi^2 + v, else the first a - k tau
    # (k = 1, 2, ...) with f(a - k tau) >= 0.
    A = a.copy()
    B = np.empty_like(a)
    big = d2 > p2 + v
    B[big] = np.log(d2[big] - p2[big] - v[big])
    k = np.ones_like(a)
    pending = np.flatnonzero(~big)
    diverged = ~(np.isfinite(d2) & np.isfinite(p2) & np.isfinite(v) & np.isfinite(a))
    if diverged.any():
        # Without this the search below never ends (f is NaN for every k).
        raise RatingError(
            f"glicko2: the ratings of {int(diverged.sum())} player(s) diverged (volatility "
            f"grew without bound); a smaller tau (now {tau}) keeps them finite",
        )
    while pending.size:
        x = a[pending] - k[pending] * tau
        done = f(x, pending) >= 0
        B[pending[done]] = x[done]
        k[pending[~done]] += 1.0
        pending = pending[~done]
    # step 5.3: fA = f(A), fB = f(B).
    fA, fB = f(A, everyone), f(B, everyone)
    # step 5.4: while |B - A| > epsilon: C = A + (A - B) fA / (fB - fA); if f(C) f(B) <= 0 then
    # A, fA = B, fB else fA = fA / 2; B, fB = C, f(C). (With "<= 0" an exact root f(C) = 0
    # ends the iteration instead of repeating C.)
    active = np.flatnonzero(np.abs(B - A) > epsilon)
    while active.size:
        a_, b_, fa, fb = A[active], B[active], fA[active], fB[active]
        c = a_ + (a_ - b_) * fa / (fb - fa)
        fc = f(c, active)
        swap = fc * fb <= 0
        A[active] = np.where(swap, b_, a_)
        fA[active] = np.where(swap, fb, fa / 2.0)
        B[active], fB[active] = c, fc
        active = active[np.abs(B[active] - A[active]) > epsilon]
    # step 5.5: sigma' = e^(A/2).
    return np.exp(A / 2.0)


def _glicko2_period(params: Glicko2Params) -> _Rule:
    def rule(state: _State, games: _Games) -> _Update:
        # step 2: to the Glicko-2 scale.
        mu = (state.rating - GLICKO2_CENTRE) / GLICKO2_SCALE
        phi = state.deviation / GLICKO2_SCALE
        sigma = state.volatility
        # step 3: v = [sum g(phi_j)^2 E (1 - E)]^-1, E = 1 / (1 + exp(-g(phi_j)(mu - mu_j))).
        g = _g(phi[games.opp])
        expected = 1.0 / (1.0 + np.exp(-g * (mu[games.own] - mu[games.opp])))
        info = group_sum(games.own, g * g * expected * (1.0 - expected), games.size)
        played = games.played() > 0
        v = np.where(played, 1.0 / np.where(played, info, 1.0), np.inf)
        # step 4: Delta = v sum g(phi_j) (s_j - E).
        score = group_sum(games.own, g * (games.result - expected), games.size)
        new_sigma = sigma.copy()
        idx = np.flatnonzero(played)
        if idx.size:
            new_sigma[idx] = _volatility(v[idx] * score[idx], phi[idx], v[idx], sigma[idx],
                                         params.tau, params.epsilon)
        # step 6: phi* = sqrt(phi^2 + sigma'^2); a player without games keeps mu and sigma
        # and gets phi' = phi* only.
        phi_star = np.sqrt(phi * phi + new_sigma * new_sigma)
        # step 7: phi' = 1 / sqrt(1/phi*^2 + 1/v), mu' = mu + phi'^2 sum g(phi_j)(s_j - E).
        new_phi = np.where(played, 1.0 / np.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v),
                           phi_star)
        new_mu = np.where(played, mu + new_phi * new_phi * score, mu)
        # step 8: back to the Glicko scale.
        new = _State(state.players, GLICKO2_SCALE * new_mu + GLICKO2_CENTRE,
                     GLICKO2_SCALE * new_phi, new_sigma)
        return _Update(new, {"expected": expected})
    return rule


def rate_glicko2(games: pd.DataFrame, params: Glicko2Params,
                 initial: pd.DataFrame | None = None) -> RatingRun:
    """Rate ``games`` with Glicko-2 (Glickman, steps 1-8), one rating period per period of the
    games frame. ``initial`` may carry ``deviation`` (RD) and ``volatility``; the ratings frame
    reports RD as ``deviation`` and adds ``volatility``. Handicaps are not modelled.
    Neither input is modified."""
    check_options(params)
    newcomer = (params.initial, params.initial_deviation, params.initial_volatility)
    return _run(games, initial, newcomer, _glicko2_period(params), deviation=True,
                extras=("volatility",))


# --- EGF GoR 2021 -----------------------------------------------------------------------------


def _egf_beta(rating: Floats) -> Floats:
    # EGF 2021: beta(r) = -7 ln(3300 - r).
    return -7.0 * np.log(EGF_MAX_RATING - rating)


def _egf_period(state: _State, games: _Games) -> _Update:
    # EGF: the receiver (black) of h >= 1 stones counts 100 (h - 0.5) points stronger for Se
    # only; an even game shifts nothing.
    shift = np.where(games.handicap >= 1, 100.0 * (games.handicap - 0.5), 0.0)
    r = state.rating[games.own]
    own, opp = _shifted(r, state.rating[games.opp], games, shift)
    if (np.maximum(own, opp) >= EGF_MAX_RATING).any():
        raise InputError(f"EGF ratings must stay below {EGF_MAX_RATING:g}", frame="games")
    # EGF 2021: Se = 1 / (1 + exp(beta(r2) - beta(r1))), con = ((3300 - r) / 200)^1.6,
    # bonus = ln(1 + exp((2300 - r) / 80)) / 5, r' = r + con (S - Se) + bonus per game, every
    # game of the tournament from the ratings before it.
    expected = 1.0 / (1.0 + np.exp(_egf_beta(opp) - _egf_beta(own)))
    con = ((EGF_MAX_RATING - r) / 200.0) ** 1.6
    bonus = np.log1p(np.exp((2300.0 - r) / 80.0)) / 5.0
    change = con * (games.result - expected) + bonus
    played = games.played() > 0
    total = state.rating + group_sum(games.own, change, games.size)
    # EGF floor: no rating below -900 (30 kyu).
    rating = np.where(played, np.maximum(total, EGF_MIN_RATING), state.rating)
    new = _State(state.players, rating, state.deviation, state.volatility)
    return _Update(new, {"expected": expected, "change": change, "con": con, "bonus": bonus})


def rate_egf(games: pd.DataFrame, params: EgfParams, initial: pd.DataFrame | None = None,
             ) -> RatingRun:
    """Rate ``games`` with the EGF GoR of 2021, one tournament per period. Contributions carry
    the game's ``change = con (S - Se) + bonus`` with ``con`` and ``bonus``. Initial ratings
    must lie in ``[-900, 3300)``. Neither input is modified."""
    check_options(params)
    start = _check_initial(initial)
    outside = ~((start.rating >= EGF_MIN_RATING) & (start.rating < EGF_MAX_RATING))
    if outside.any():
        player = outside[outside].index[0]
        raise InputError(
            f"player {player!r} has rating {float(start.rating[player])!r}; EGF ratings lie in "
            f"[{EGF_MIN_RATING:g}, {EGF_MAX_RATING:g})",
            frame="initial",
        )
    return _run(games, initial, (params.initial, math.nan, math.nan), _egf_period,
                deviation=False, contribution_extras=("change", "con", "bonus"),
                bounds=(EGF_MIN_RATING, EGF_MAX_RATING))
