"""Baselines for placement results: Elo, Glicko-2 and Plackett-Luce (openskill) over bridge events.

Bridge events rank units of 1-8 players (docs/rules/simulation.md, "Using it to test rating schemes").
Every baseline turns the same results frame (:mod:`ratings` package docstring, "results") into a
:class:`SchemeRun`, the shape the evaluation treats all schemes alike with:

- ``ratings``: ``period, period_start, period_end, player, rating_before, rating, events`` plus
  the scheme's own columns (``deviation`` for Glicko-2, ``mu`` and ``sigma`` for openskill), one
  row per player per quarter for every player rated by the end of that quarter, quarters
  consecutive from the first with an event to the last, like a :class:`ratings.RatingRun`;
- ``start``: the value of each of those columns for a player without a rating yet;
- ``probability``: ``P(unit A finishes above unit B)`` from both units' :class:`UnitStats`, or
  ``None`` for a scheme that states no probability (BELO).

The baselines:

- :func:`elo` -- every event is decomposed into pairwise unit comparisons (better place wins,
  equal places draw). A unit's rating is the mean of its players' ratings, the expected score the
  logistic ``1 / (1 + 10^((Rb - Ra) / 400))``, and the change ``k / (n - 1) * sum(S - E)`` over the
  ``n - 1`` other units, so one event weighs like one game; every player of a unit gets the
  unit's change. Events are rated one after the other in date order.
- :func:`glicko2` -- the go baseline ``ratings.rate("glicko2", games)`` (Glickman's steps), one
  rating period per quarter. Its games frame has single players as sides, so each pairwise unit
  comparison becomes games between the two units' players *paired crosswise*: player ``j`` of
  unit A (players sorted by id) meets player ``j`` of unit B, the shorter unit's players cycling,
  ``max(|A|, |B|)`` games per comparison. Every player plays at least one game of every
  comparison of their unit and partners are not rated against each other. The games are
  rated with ``tau = 0.1`` (:data:`GLICKO2_OPTIONS` says why). (``glicko2_games(...,
  comparisons="adjacent")`` keeps only units adjacent in the ranking: stable with any tau but a
  worse list, Spearman 0.69 against 0.76 on the ``federation`` preset.)
- :func:`openskill` -- ``openskill.models.PlackettLuce`` with its defaults; every event is one
  ``model.rate(teams, ranks=places)`` in date order. ``rating`` is the ordinal ``mu - 3 sigma``
  (the list openskill publishes), ``mu`` and ``sigma`` are kept beside it.

Probabilities (all from ratings known before the event):

- Elo: the logistic expectation of the two units' mean ratings;
- Glicko-2: ``1 / (1 + exp(-g(sqrt(phi_A^2 + phi_B^2)) (mu_A - mu_B)))`` on the Glicko-2 scale
  (Glickman's expectation with the deviations of both sides), a unit's ``mu`` the mean of its
  players' and its ``phi^2`` the mean of their ``phi^2``;
- openskill: ``PlackettLuce.predict_win`` of the two teams (for two teams
  ``Phi((sum mu_A - sum mu_B) / sqrt(2 beta^2 + sum sigma_A^2 + sum sigma_B^2))``), computed for
  all pairs at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from openskill.models import PlackettLuce
from scipy import stats

import ratings

__all__ = [
    "ELO_INITIAL",
    "ELO_K",
    "ELO_SCALE",
    "GLICKO2_OPTIONS",
    "PairProbability",
    "SchemeRun",
    "UnitStats",
    "elo",
    "elo_event",
    "elo_probability",
    "glicko2",
    "glicko2_games",
    "glicko2_probability",
    "openskill",
    "openskill_probability",
    "prepare_results",
]

Floats = npt.NDArray[np.float64]
Codes = npt.NDArray[np.intp]

ELO_K = 32.0
"""K of the placement Elo: the most one event can move a unit (``k / (n - 1)`` per comparison)."""

ELO_SCALE = 400.0
"""Rating difference at which the stronger unit is expected to score 10:1 (Elo's logistic)."""

ELO_INITIAL = 1500.0
"""Start rating of a player in the placement Elo."""

GLICKO2_SCALE = 173.7178
"""Glicko-2 step 2: ``mu = (r - 1500) / 173.7178``."""

GLICKO2_START = {"rating": 1500.0, "deviation": 350.0}
"""Glicko-2 step 1: an unrated player starts at 1500 with RD 350 (the scheme's defaults)."""

GLICKO2_OPTIONS = {"tau": "0.1"}
"""Options of the Glicko-2 baseline over the scheme's defaults. tau = 0.1, below Glickman's
usual range (step 1: "reasonable choices are between 0.3 and 1.2"; smaller values keep the
volatility from changing by large amounts): the comparisons of one event are strongly
correlated games (one performance decides them all, and partners share every result), far
more alike than Glicko-2 assumes of a period's games, so the volatility grows every quarter
until the ratings overflow -- with the default 0.5 on the ``federation`` preset (about 18 000
games a quarter), with 0.3 on ``national``. With 0.1 it stays near 0.06-0.08 on both."""

_DATE = "datetime64[us]"
_PERIOD_COLUMNS = ("period", "period_start", "period_end", "player", "rating_before", "rating",
                   "events")


@dataclass(frozen=True)
class UnitStats:
    """Per-unit aggregates of the players' rating columns known before an event.

    ``size`` is the number of players; ``mean[c]`` and ``mean_square[c]`` the mean of column
    ``c`` and of its square over the unit's players (unrated players at the scheme's start).
    """

    size: Floats
    mean: dict[str, Floats]
    mean_square: dict[str, Floats]

    def take(self, index: Codes) -> UnitStats:
        """The stats of the units at ``index``."""
        return UnitStats(self.size[index], {c: v[index] for c, v in self.mean.items()},
                         {c: v[index] for c, v in self.mean_square.items()})


PairProbability = Callable[[UnitStats, UnitStats], Floats]
"""``P(unit a finishes above unit b)`` for aligned arrays of units ``a`` and ``b``."""


@dataclass(frozen=True)
class SchemeRun:
    """One scheme's ratings per quarter, the start values and (optionally) its probability."""

    ratings: pd.DataFrame
    start: dict[str, float]
    probability: PairProbability | None = None
    columns: tuple[str, ...] = field(default=("rating",))
    """Columns of ``ratings`` the probability reads (``rating`` always first)."""
    newcomer: dict[str, float] = field(default_factory=dict)
    """Quarter label -> the rating the list of that quarter gives a player it does not list
    yet, where it differs from ``start["rating"]`` (a scheme that learns its newcomers'
    prior, docs/rules/bridge-whr.md §13)."""


# --- the results, sorted and coded -----------------------------------------------------------


def prepare_results(results: pd.DataFrame) -> pd.DataFrame:
    """``event_id, date, period, unit, place, player`` sorted by date, event, unit, player.

    ``period`` is the quarter (``pandas.Period``); ids are text, ``place`` a float. Events of one
    day are ordered by ``event_id`` (quality/model.py).
    """
    dates = pd.to_datetime(results["date"]).dt.normalize().astype(_DATE)
    table = pd.DataFrame({
        "event_id": results["event_id"].astype(str).to_numpy(),
        "date": dates.to_numpy(),
        "unit": results["unit"].astype(str).to_numpy(),
        "place": pd.to_numeric(results["place"]).astype(float).to_numpy(),
        "player": results["player"].astype(str).to_numpy(),
    })
    table["period"] = table["date"].dt.to_period("Q")
    table = table.sort_values(["date", "event_id", "unit", "player"], kind="mergesort")
    return table.reset_index(drop=True)


def _quarters(table: pd.DataFrame) -> pd.PeriodIndex:
    """Consecutive quarters from the first with an event to the last."""
    if table.empty:
        return pd.PeriodIndex([], freq="Q")
    return pd.period_range(table["period"].min(), table["period"].max(), freq="Q")


@dataclass(frozen=True)
class _Event:
    """One event's rows as arrays: player codes, unit index ``0..n-1`` per row, unit places."""

    period: pd.Period
    players: Codes
    units: Codes
    places: Floats


def _events(table: pd.DataFrame, codes: Codes) -> Iterator[_Event]:
    """The events of the sorted table in order."""
    keys = table["event_id"].to_numpy()
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)]
    units = table["unit"].to_numpy()
    places = table["place"].to_numpy(np.float64)
    periods = table["period"].to_numpy()
    for begin, end in zip(starts, ends, strict=True):
        _, first, inverse = np.unique(units[begin:end], return_index=True,
                                      return_inverse=True)
        yield _Event(periods[begin], codes[begin:end], inverse.astype(np.intp),
                     places[begin:end][first])


def _snapshot_frame(rows: list[pd.DataFrame], extras: tuple[str, ...]) -> pd.DataFrame:
    """The per-quarter rows concatenated, or an empty frame with the right columns."""
    if rows:
        return pd.concat(rows, ignore_index=True)
    columns: dict[str, pd.Series] = {
        "period": pd.Series([], dtype=str), "period_start": pd.Series([], dtype=_DATE),
        "period_end": pd.Series([], dtype=_DATE), "player": pd.Series([], dtype=str),
        "rating_before": pd.Series([], dtype=float), "rating": pd.Series([], dtype=float),
        "events": pd.Series([], dtype="int64"),
    }
    for name in extras:
        columns[name] = pd.Series([], dtype=float)
    return pd.DataFrame(columns)


def _snapshot(quarter: pd.Period, names: npt.NDArray[np.str_], before: Floats,
              state: dict[str, Floats], played: npt.NDArray[np.int64]) -> pd.DataFrame:
    """One quarter's rows: every player rated by its end (``state["rating"]`` not NaN)."""
    rated = ~np.isnan(state["rating"])
    frame = pd.DataFrame({
        "period": str(quarter),
        "period_start": pd.Timestamp(quarter.start_time).normalize(),
        "period_end": pd.Timestamp(quarter.end_time).normalize(),
        "player": names[rated],
        "rating_before": before[rated],
        "rating": state["rating"][rated],
        "events": played[rated],
    })
    frame["period_start"] = frame["period_start"].astype(_DATE)
    frame["period_end"] = frame["period_end"].astype(_DATE)
    for name, values in state.items():
        if name != "rating":
            frame[name] = values[rated]
    return frame


def _replay(results: pd.DataFrame, start: dict[str, float],
            update: Callable[[dict[str, Floats], _Event], None]) -> pd.DataFrame:
    """Rate the events one after the other with ``update`` (which changes ``state`` in place)
    and take a snapshot of every player rated at the end of every quarter.

    ``state`` holds one array per column of ``start`` (``rating`` first), NaN for a player not
    rated yet; a player is set to ``start`` just before their first event.
    """
    table = prepare_results(results)
    names, codes = _player_codes(table)
    state = {c: np.full(len(names), np.nan) for c in start}
    extras = tuple(c for c in start if c != "rating")
    rows: list[pd.DataFrame] = []
    events = _events(table, codes)
    pending = next(events, None)
    for quarter in _quarters(table):
        before = state["rating"].copy()
        played = np.zeros(len(names), dtype=np.int64)
        while pending is not None and pending.period == quarter:
            new = pending.players[np.isnan(state["rating"][pending.players])]
            for column, value in start.items():
                state[column][new] = value
            before[new] = start["rating"]
            update(state, pending)
            played[pending.players] += 1
            pending = next(events, None)
        rows.append(_snapshot(quarter, names, before, state, played))
    return _snapshot_frame(rows, extras)


def _player_codes(table: pd.DataFrame) -> tuple[npt.NDArray[np.str_], Codes]:
    names, codes = np.unique(table["player"].to_numpy(dtype=str), return_inverse=True)
    return names, codes.astype(np.intp)


# --- Elo --------------------------------------------------------------------------------------


def elo_event(ratings_before: Floats, units: Codes, places: Floats, *, k: float = ELO_K,
              scale: float = ELO_SCALE) -> Floats:
    """The change of every row's player in one event: the unit's change, same for its players.

    ``ratings_before`` and ``units`` are per row (player), ``places`` per unit (``units`` index
    it). Unit rating = mean of its players'; ``E_uv = 1 / (1 + 10^((R_v - R_u) / scale))``;
    ``S_uv`` = 1 for a better place, 0.5 equal, 0 worse; change ``k / (n - 1) sum_v (S - E)``.
    """
    n = len(places)
    if n < 2:
        return np.zeros(len(units))
    size = np.bincount(units, minlength=n).astype(np.float64)
    mean = np.bincount(units, weights=ratings_before, minlength=n) / size
    # Elo: expected score of u against v from the mean ratings (row u, column v).
    expected = 1.0 / (1.0 + 10.0 ** ((mean[None, :] - mean[:, None]) / scale))
    score = (places[:, None] < places[None, :]) + 0.5 * (places[:, None] == places[None, :])
    # The diagonal is S = E = 0.5 and adds nothing.
    change = k / (n - 1) * (score - expected).sum(axis=1)
    return np.asarray(change[units], dtype=np.float64)


def elo(results: pd.DataFrame, *, k: float = ELO_K, scale: float = ELO_SCALE,
        initial: float = ELO_INITIAL) -> SchemeRun:
    """The placement Elo (module docstring), events in date order, quarterly snapshots."""

    def update(state: dict[str, Floats], event: _Event) -> None:
        rating = state["rating"]
        rating[event.players] += elo_event(rating[event.players], event.units, event.places,
                                           k=k, scale=scale)

    frame = _replay(results, {"rating": initial}, update)
    return SchemeRun(frame, {"rating": initial}, _elo_probability(scale))


def _elo_probability(scale: float) -> PairProbability:
    def probability(a: UnitStats, b: UnitStats) -> Floats:
        return elo_probability(a.mean["rating"], b.mean["rating"], scale=scale)
    return probability


def elo_probability(rating_a: Floats, rating_b: Floats, *, scale: float = ELO_SCALE) -> Floats:
    """Elo's expectation of unit A over unit B from their mean ratings."""
    return np.asarray(1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / scale)), dtype=np.float64)


# --- Glicko-2 ---------------------------------------------------------------------------------


def glicko2_games(results: pd.DataFrame,
                  comparisons: Literal["all", "adjacent"] = "all") -> pd.DataFrame:
    """The go games frame of the pairwise unit comparisons, players paired crosswise.

    Columns ``period`` (quarter label), ``player``, ``opponent``, ``result`` (1 / 0.5 / 0 for
    the first player's unit placed better / equal / worse), ``handicap`` 0, ``colour`` ``b``,
    ``date``. For every pair of units of an event, player ``j`` of the first unit (sorted by
    unit id) meets player ``j mod |B|`` of the second and vice versa, ``max(|A|, |B|)`` games.
    ``comparisons="adjacent"``: only units next to each other in the event's ranking (ties
    broken by unit id) are compared.
    """
    table = prepare_results(results)
    table["slot"] = table.groupby(["event_id", "unit"], sort=False).cumcount()
    units = (table.groupby(["event_id", "unit"], sort=True)
             .agg(place=("place", "first"), size=("player", "size"), date=("date", "first"),
                  period=("period", "first"))
             .reset_index())
    units["rank"] = (units.sort_values(["event_id", "place", "unit"], kind="mergesort")
                     .groupby("event_id").cumcount())
    pairs = units.merge(units[["event_id", "unit", "place", "size", "rank"]], on="event_id",
                        suffixes=("_a", "_b"))
    pairs = pairs[pairs["unit_a"] < pairs["unit_b"]]
    if comparisons == "adjacent":
        pairs = pairs[(pairs["rank_a"] - pairs["rank_b"]).abs() == 1]
    pairs = pairs.reset_index(drop=True)
    repeat = np.maximum(pairs["size_a"].to_numpy(), pairs["size_b"].to_numpy())
    games = int(repeat.sum())
    expanded = pairs.loc[pairs.index.repeat(repeat)].reset_index(drop=True)
    j = (np.arange(games) - np.repeat(np.cumsum(repeat) - repeat, repeat)).astype(np.int64)
    expanded["slot_a"] = j % expanded["size_a"].to_numpy()
    expanded["slot_b"] = j % expanded["size_b"].to_numpy()
    seats = table[["event_id", "unit", "slot", "player"]]
    expanded = expanded.merge(
        seats.rename(columns={"unit": "unit_a", "slot": "slot_a", "player": "player"}),
        on=["event_id", "unit_a", "slot_a"], how="left")
    expanded = expanded.merge(
        seats.rename(columns={"unit": "unit_b", "slot": "slot_b", "player": "opponent"}),
        on=["event_id", "unit_b", "slot_b"], how="left")
    place_a, place_b = expanded["place_a"].to_numpy(), expanded["place_b"].to_numpy()
    return pd.DataFrame({
        "period": expanded["period"].astype(str),
        "player": expanded["player"].astype(str),
        "opponent": expanded["opponent"].astype(str),
        "result": np.where(place_a < place_b, 1.0, np.where(place_a == place_b, 0.5, 0.0)),
        "handicap": np.zeros(len(expanded), dtype=np.int64),
        "colour": "b",
        "date": expanded["date"].astype(_DATE),
    })


def glicko2(results: pd.DataFrame, options: dict[str, str] | None = None) -> SchemeRun:
    """Glicko-2 (``ratings.rate("glicko2")``, one period per quarter) on the crosswise games of
    :func:`glicko2_games`. ``options`` go to the scheme over :data:`GLICKO2_OPTIONS`."""
    options = {**GLICKO2_OPTIONS, **(options or {})}
    params = ratings.parse_options("glicko2", options)
    start = {"rating": float(params.initial), "deviation": float(params.initial_deviation)}
    games = glicko2_games(results)
    if games.empty:
        frame = _snapshot_frame([], ("deviation",))
    else:
        run = ratings.rate("glicko2", games, options=options)
        frame = run.ratings[[*_PERIOD_COLUMNS, "deviation"]].reset_index(drop=True)
    return SchemeRun(frame, start, glicko2_probability, ("rating", "deviation"))


def glicko2_probability(a: UnitStats, b: UnitStats) -> Floats:
    """Glickman's expectation of A over B with both deviations (module docstring)."""
    mu_a = (a.mean["rating"] - GLICKO2_START["rating"]) / GLICKO2_SCALE
    mu_b = (b.mean["rating"] - GLICKO2_START["rating"]) / GLICKO2_SCALE
    phi2 = (a.mean_square["deviation"] + b.mean_square["deviation"]) / GLICKO2_SCALE ** 2
    # Glicko-2 step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2).
    g = 1.0 / np.sqrt(1.0 + 3.0 * phi2 / (math.pi * math.pi))
    return np.asarray(1.0 / (1.0 + np.exp(-g * (mu_a - mu_b))), dtype=np.float64)


# --- openskill --------------------------------------------------------------------------------


def openskill(results: pd.DataFrame, model: PlackettLuce | None = None) -> SchemeRun:
    """Plackett-Luce (openskill) over the events in date order; ``rating`` = ``mu - 3 sigma``."""
    pl = model if model is not None else PlackettLuce()
    start = {"rating": float(pl.mu - 3.0 * pl.sigma), "mu": float(pl.mu),
             "sigma": float(pl.sigma)}

    def update(state: dict[str, Floats], event: _Event) -> None:
        mu, sigma = state["mu"], state["sigma"]
        order = np.argsort(event.units, kind="mergesort")
        players, units = event.players[order], event.units[order]
        teams = [[pl.rating(mu=float(mu[p]), sigma=float(sigma[p])) for p in players[units == u]]
                 for u in range(len(event.places))]
        rated = pl.rate(teams, ranks=[float(x) for x in event.places])
        mu[players] = [r.mu for team in rated for r in team]
        sigma[players] = [r.sigma for team in rated for r in team]
        state["rating"][players] = mu[players] - 3.0 * sigma[players]

    frame = _replay(results, start, update)
    return SchemeRun(frame, start, _openskill_probability(float(pl.beta)),
                     ("rating", "mu", "sigma"))


def _openskill_probability(beta: float) -> PairProbability:
    def probability(a: UnitStats, b: UnitStats) -> Floats:
        return openskill_probability(a, b, beta=beta)
    return probability


def openskill_probability(a: UnitStats, b: UnitStats, *, beta: float) -> Floats:
    """``PlackettLuce.predict_win([A, B])[0]`` for aligned arrays of teams A and B."""
    mu = a.size * a.mean["mu"] - b.size * b.mean["mu"]
    variance = 2.0 * beta * beta + a.size * a.mean_square["sigma"] + b.size * b.mean_square[
        "sigma"]
    return np.asarray(stats.norm.cdf(mu / np.sqrt(variance)), dtype=np.float64)
