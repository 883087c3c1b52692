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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import InputError, RatingError
from ._frames import RATINGS_COLUMNS, RatingRun, empty_normalisations, text_column
from ._go import GameCodes, check_games, declared_cells, encode_games, group_sum
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


@dataclass(frozen=True, slots=True)
class _SideTable:
    """Every game twice, once from each player's side, in a canonical order (period, then
    player, opponent, colour, handicap, result, date), so nothing depends on the input's row
    order or on which side a game was written from. Codes as in :class:`GameCodes`; each
    period's sides are one slice, ``bounds[p]:bounds[p + 1]`` for period code ``p``.

    A run is the slice of one player in one period (``run_bounds`` finds a period's runs as
    ``bounds`` its sides): ``run_player`` and ``declared``, the highest rating the grades the
    player declared in the period give (NaN when none; docs/rules/go-rfg.md "First entry"),
    kept within the scheme's limits."""

    period: Codes
    player: Codes
    opponent: Codes
    result: Floats
    handicap: npt.NDArray[np.int64]
    white: npt.NDArray[np.bool_]
    bounds: Codes
    run_player: Codes
    declared: Floats
    run_bounds: Codes


def _sides(checked: pd.DataFrame, codes: GameCodes, cells: tuple[Floats, Floats],
           limits: tuple[float, float] | None) -> _SideTable:
    result = checked["result"].to_numpy(np.float64)
    handicap = checked["handicap"].to_numpy(np.int64)
    white = (checked["colour"] == "w").to_numpy(bool)
    date = codes.date.view(np.int64)
    period = np.concatenate([codes.period, codes.period])
    player = np.concatenate([codes.player, codes.opponent])
    opponent = np.concatenate([codes.opponent, codes.player])
    results = np.concatenate([result, 1.0 - result])
    handicaps = np.concatenate([handicap, handicap])
    whites = np.concatenate([white, ~white])
    dates = np.concatenate([date, date])
    nat = np.concatenate([np.isnat(codes.date), np.isnat(codes.date)])
    # np.lexsort: the last key sorts first; equal keys are whole equal sides.
    order = np.lexsort((dates, nat, results, handicaps, whites, opponent, player, period))
    period, player = period[order], player[order]
    declared = np.concatenate(cells)[order]
    size = len(codes.labels)
    starts = np.flatnonzero(np.concatenate([
        [True], (period[1:] != period[:-1]) | (player[1:] != player[:-1])])) if len(order) \
        else np.zeros(0, dtype=np.intp)
    best = np.fmax.reduceat(declared, starts) if len(starts) else np.zeros(0)
    if limits is not None:
        best = np.clip(best, limits[0], np.nextafter(limits[1], -np.inf))
    return _SideTable(
        period=period, player=player, opponent=opponent[order], result=results[order],
        handicap=handicaps[order], white=whites[order],
        bounds=np.searchsorted(period, np.arange(size + 1)).astype(np.intp),
        run_player=player[starts], declared=best,
        run_bounds=np.searchsorted(period[starts], np.arange(size + 1)).astype(np.intp),
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
    """Ratings (and Glicko-2's deviation and volatility) per player, sorted by player
    (``players``: their codes, ascending)."""

    players: Codes
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


@dataclass
class _Pool:
    """Every player of the run by code: whether rated so far, and their current state."""

    present: npt.NDArray[np.bool_]
    rating: Floats
    deviation: Floats
    volatility: Floats

    def admit(self, players: Codes, rating: Floats, deviation: Floats,
              volatility: Floats) -> None:
        self.present[players] = True
        self.rating[players] = rating
        self.deviation[players] = deviation
        self.volatility[players] = volatility


def _pool(codes: GameCodes, start: _Start, newcomer: _Newcomer) -> _Pool:
    """Players of the initial frame are rated (and carried) from the first period on; NaN
    in the frame falls back to the scheme's start values."""
    size = len(codes.names)
    pool = _Pool(np.zeros(size, dtype=bool), np.full(size, np.nan), np.full(size, np.nan),
                 np.full(size, np.nan))
    at = np.searchsorted(codes.names, start.rating.index.to_numpy(object))
    pool.admit(at, start.rating.fillna(newcomer[0]).to_numpy(np.float64),
               start.deviation.fillna(newcomer[1]).to_numpy(np.float64),
               start.volatility.fillna(newcomer[2]).to_numpy(np.float64))
    return pool


def _graded_periods(checked: pd.DataFrame) -> Callable[[], Iterable[pd.DataFrame]]:
    """The periods' graded rows, in order of their first graded row: a grade that does not
    read is reported in the first of them that holds one."""
    def chunks() -> Iterable[pd.DataFrame]:
        graded = (checked["rank"] != "") | (checked["opponent_rank"] != "")
        return (chunk for _, chunk in checked[graded].groupby("period", sort=False))
    return chunks


def _run(games: pd.DataFrame, initial: pd.DataFrame | None, newcomer: _Newcomer, rule: _Rule,
         *, deviation: bool, extras: tuple[str, ...] = (),
         contribution_extras: tuple[str, ...] = (),
         bounds: tuple[float, float] | None = None) -> RatingRun:
    """The period loop shared by the baselines; ``rule`` rates one period from its input
    state. ``deviation``: report the state's deviation (Glicko-2) or NaN. ``extras`` and
    ``contribution_extras`` name the scheme's additional columns (for empty frames).
    A newcomer who declared a grade starts at its rating (``_go.grade_rating``), kept within
    ``bounds`` when given (EGF: ``[-900, 3300)``): from the initial frame, else from the grade
    declared in the period, else the scheme's start values (docs/rules/go-rfg.md "First
    entry").

    Players and periods are integer codes made once (players in text order, as the state
    keeps them); each period works on arrays, and the frames are built once at the end."""
    checked = check_games(games)
    cells = declared_cells(checked, _graded_periods(checked))
    start = _check_initial(initial)
    codes = encode_games(checked, start.rating.index.to_numpy(object))
    if not len(codes.labels):
        return RatingRun(ratings=_empty_ratings(extras),
                         contributions=_empty_contributions(contribution_extras),
                         normalisations=empty_normalisations())
    sides = _sides(checked, codes, cells, bounds)
    pool = _pool(codes, start, newcomer)
    position = np.zeros(len(codes.names), dtype=np.intp)
    rows: list[tuple[_State, _State, npt.NDArray[np.int64]]] = []
    taken: list[Codes] = []
    columns: list[dict[str, Floats]] = []
    for label in codes.order:
        lo, hi = sides.bounds[label], sides.bounds[label + 1]
        runs = slice(sides.run_bounds[label], sides.run_bounds[label + 1])
        who = sides.run_player[runs]
        new = ~pool.present[who]
        if new.any():
            declared = sides.declared[runs][new]
            count = int(new.sum())
            pool.admit(who[new], np.where(np.isnan(declared), newcomer[0], declared),
                       np.full(count, newcomer[1]), np.full(count, newcomer[2]))
        everyone = np.flatnonzero(pool.present)
        position[everyone] = np.arange(len(everyone))
        state = _State(everyone, pool.rating[everyone], pool.deviation[everyone],
                       pool.volatility[everyone])
        period = _Games(
            own=position[sides.player[lo:hi]], opp=position[sides.opponent[lo:hi]],
            result=sides.result[lo:hi], handicap=sides.handicap[lo:hi].astype(np.float64),
            black=~sides.white[lo:hi], size=len(everyone),
        )
        update = rule(state, period)
        pool.rating[everyone] = update.state.rating
        pool.deviation[everyone] = update.state.deviation
        pool.volatility[everyone] = update.state.volatility
        rows.append((state, update.state, period.played()))
        taken.append(np.arange(lo, hi))
        columns.append(update.columns)
    return RatingRun(
        ratings=_ratings_frame(codes, rows, deviation, extras),
        contributions=_contributions_frame(codes, sides, np.concatenate(taken), columns),
        normalisations=empty_normalisations(),
    )


def _ratings_frame(codes: GameCodes, rows: list[tuple[_State, _State, npt.NDArray[np.int64]]],
                   deviation: bool, extras: tuple[str, ...]) -> pd.DataFrame:
    sizes = [len(before.players) for before, _, _ in rows]
    nan = np.full(sum(sizes), np.nan)

    def column(values: Callable[[_State, _State], Floats]) -> Floats:
        return np.concatenate([values(before, after) for before, after, _ in rows])

    frame = {
        "period": text_column(codes.labels, np.repeat(codes.order, sizes)),
        "period_start": np.repeat(codes.first_dates()[codes.order], sizes),
        "period_end": np.repeat(codes.last_dates()[codes.order], sizes),
        "player": text_column(codes.names, np.concatenate([b.players for b, _, _ in rows])),
        "rating_before": column(lambda before, _: before.rating),
        "rating": column(lambda _, after: after.rating),
        "events": np.concatenate([played for _, _, played in rows]),
        "deviation_before": column(lambda before, _: before.deviation) if deviation else nan,
        "deviation": column(lambda _, after: after.deviation) if deviation else nan.copy(),
    }
    if "volatility" in extras:
        frame["volatility"] = column(lambda _, after: after.volatility)
    return pd.DataFrame(frame)


def _contributions_frame(codes: GameCodes, sides: _SideTable, taken: Codes,
                         columns: list[dict[str, Floats]]) -> pd.DataFrame:
    scheme = {name: np.concatenate([period[name] for period in columns]) for name in columns[0]}
    base: dict[str, object] = {
        "period": text_column(codes.labels, sides.period[taken]),
        "player": text_column(codes.names, sides.player[taken]),
        "opponent": text_column(codes.names, sides.opponent[taken]),
        "result": sides.result[taken],
        "handicap": sides.handicap[taken],
        "colour": text_column(["b", "w"], sides.white[taken].astype(np.intp)),
        "weight": np.ones(len(taken)),
    }
    base |= scheme
    ordered = [*BASELINE_CONTRIBUTIONS_COLUMNS,
               *(c for c in scheme if c not in BASELINE_CONTRIBUTIONS_COLUMNS)]
    return pd.DataFrame({name: base[name] for name in ordered})


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
