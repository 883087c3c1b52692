"""Chronological replay of every rating scheme over a simulated federation, scored against the truth.

docs/rules/simulation.md, "Using it to test rating schemes": every scheme is run on the simulated
results and scored by KN / LN and rank correlation of its final list against the latent order;
the seed's two-club experiment asks how many inter-club events it takes until the clubs
separate. The schemes are those of ``ratings.SCHEMES`` that read the results frame (with the
lab's settings keyed by scheme name: :data:`VARIANTS`, :data:`WHOLE_HISTORY`) and the lab's own
baselines. :func:`evaluate` computes, per scheme (:data:`DEFAULT_SCHEMES`):

a) **Final list.** The scheme's latest rating of every player *active in the last year* (a
   result in one of the last four quarters with an event) who is still a member at the end
   (in ``sim.final_strength()``) against that latent strength: Spearman's rho, Kendall's tau-b,
   KN and LN of the list order (:func:`quality.metrics.list_unfairness`) and KN as a percentage
   of ``kn_max(n)``. Players who left, or who have not played for a year, are not on a published
   list and are left out.
b) **Next-quarter prediction.** Every event of every quarter after the first is predicted from
   the ratings at the end of the previous quarter (a player without a rating yet counts at the
   scheme's start value). Over all pairs of units of an event with different places (tied places
   are left out): ``pair_accuracy`` is the share of pairs where the unit with the higher mean
   published rating finished ahead, a tie in the prediction counting half; ``log_loss`` is the
   mean of ``-ln P(better-placed unit ahead)`` for the schemes that state a probability
   (:mod:`quality.baselines`), ``None`` for BELO. For those schemes ``calibration`` bins the
   same probabilities against what happened (:func:`quality.metrics.reliability`, folded to
   the favourite, 10 bins): a reliability diagram and its expected calibration error.
c) **Separation** (only when ``sim.settings`` has ``intra_club_events`` and
   ``inter_club_events``, the ``two-clubs`` preset of :mod:`quality.federation`, and the
   federation has exactly two clubs): the number of inter-club events after which the lowest
   rating of the stronger club's players stays above the highest rating of the other club's
   players for the rest of the simulation; ``None`` ("never") when it does not hold after the
   last one. The ratings "after ``k`` inter-club events" are the scheme's ratings of the results
   up to and including the ``k``-th inter-club event (events in date, then id order), i.e. the
   list as it would be published then.

With ``settings["initial_rating"]`` set (the two-clubs preset: everybody starts at 500), the
registered schemes get every member at that rating as their initial frame; the baselines start
everybody at their own start value, which is the same thing on their own scale.

``seconds`` is the wall time of rating the whole simulation once with the scheme (the
separation replays are not counted).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pandas as pd

import ratings
from ratings import MEAN_RATING, NEWCOMER_RATING  # docs/rules/bridge-belo.md §10 start values

from . import baselines, metrics
from .baselines import SchemeRun, UnitStats
from .federation import simulate
from .model import Simulation

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "DEFAULT_SCHEMES",
    "REGISTERED",
    "VARIANTS",
    "WHOLE_HISTORY",
    "EvaluationReport",
    "SchemeScore",
    "evaluate",
    "evaluate_preset",
    "format_summary",
    "format_table",
    "report_from_dict",
    "report_to_dict",
    "run_scheme",
    "score_to_dict",
    "separation_events",
    "whr_replay",
]

Floats = npt.NDArray[np.float64]
Codes = npt.NDArray[np.intp]

# --- which schemes -----------------------------------------------------------------------------
# Every scheme of ratings.SCHEMES that reads the results frame (a simulated federation is one) is
# evaluated; the settings below are the lab's own, keyed by scheme name, and a scheme missing from
# them gets the defaults, so a new scheme in the registry needs no edit here.

VARIANTS: dict[str, dict[str, dict[str, str]]] = {
    "belo2": {"belo2": {"newcomer": "phantom"}, "belo2-subsidy": {"newcomer": "subsidy"},
              "belo2-flat": {"newcomer": "flat"}},
    "whr": {"whr": {}, "whr-fixed": {"learn": "off"}},
}
"""Registered scheme -> the evaluation names it is compared under, each with its options;
docs/rules/bridge-belo.md §10 newcomers: ``phantom`` (the default), ``subsidy`` and ``flat``
(no subsidy, start at 500); WHR with its constants learned (the default, docs/rules/bridge-whr.md
§13) and ``whr-fixed``, the constants as set. Default: once, under the scheme's own name, its
default options."""

_BASELINES: dict[str, Callable[[pd.DataFrame], SchemeRun]] = {
    "elo": baselines.elo,
    "glicko2": baselines.glicko2,
    "openskill": baselines.openskill,
}
"""The lab's own baselines (quality/baselines.py), not registered schemes."""

LAST_YEAR_QUARTERS = 4
"""Final list: players with a result in this many last quarters count as active."""

_MIN_PROBABILITY = 1e-15
"""Log loss: probabilities are clipped to [1e-15, 1 - 1e-15] so a sure miss stays finite."""

CALIBRATION_BINS = 10
"""Bins of the reliability diagram over the favourite's probability, 1/2 to 1."""


# --- schemes ----------------------------------------------------------------------------------


def whr_replay(results: pd.DataFrame, initial: pd.DataFrame | None = None,
               options: dict[str, str] | None = None) -> SchemeRun:
    """WHR (docs/rules/bridge-whr.md) as it would have been published: fitted again at the end
    of every quarter on the results up to it, each fit warm-started from the one before (§9).

    A whole-history fit also revises past quarters; the list of a quarter is the one its own
    fit gave, so the next quarter's prediction uses nothing that happened after it. ``rating``
    of a quarter is that fit's rating of the quarter, ``deviation`` beside it. With ``learn =
    on`` (the default) the constants are learned again at the end of every quarter from the
    results up to it (§13), each time starting from the last ones, as a pool does; a player not
    listed yet is predicted at the newcomer prior learned then.
    """
    params = ratings.parse_options("whr", options or {})
    fixed = tuple(name for name in (options or {}) if name in ratings.WHR_LEARNABLE)
    dates = pd.to_datetime(results["date"])
    quarters = pd.period_range(dates.min(), dates.max(), freq="Q")
    warm: pd.DataFrame | None = None
    learned: ratings.WhrLearning | None = None
    lists: list[pd.DataFrame] = []
    newcomer: dict[str, float] = {}
    for quarter in quarters:
        upto = results[(dates <= quarter.end_time).to_numpy()]
        if upto.empty:
            continue
        used = params
        if params.learn == "on":
            learned = ratings.learn_whr(
                upto, params, initial, fixed=fixed,
                start=learned.params if learned is not None and learned.learned else None)
            used = learned.params
            newcomer[str(quarter)] = float(used.newcomer)
        run = ratings.rate_whr(upto, used, initial, warm=warm)
        warm = run.ratings
        lists.append(run.ratings[run.ratings["period"] == str(quarter)])
    frame = pd.concat(lists, ignore_index=True) if lists else run.ratings
    scale = float(params.scale)

    def probability(a: UnitStats, b: UnitStats) -> Floats:
        return ratings.whr_probability(a.mean["rating"], b.mean["rating"], scale)

    # a player not yet rated: 500, or the newcomer prior learned at the quarter's end
    return SchemeRun(frame, {"rating": MEAN_RATING}, probability, newcomer=newcomer)


WHOLE_HISTORY: dict[str, Callable[[pd.DataFrame, pd.DataFrame | None, dict[str, str] | None],
                                   SchemeRun]] = {"whr": whr_replay}
"""Registered schemes that revise the past -> their replay as published (fitted again at the
end of every quarter); listed after the baselines. Default: rated forward once, each period's
list as it was published."""


def _registered() -> dict[str, tuple[str, dict[str, str]]]:
    """Evaluation name -> (registered scheme, options), in the registry's order."""
    return {label: (name, dict(options))
            for name, scheme in ratings.SCHEMES.items() if scheme.reads == "results"
            for label, options in VARIANTS.get(name, {name: {}}).items()}


REGISTERED: dict[str, tuple[str, dict[str, str]]] = _registered()
"""Evaluation name -> (scheme of ``ratings.SCHEMES``, options)."""

DEFAULT_SCHEMES: tuple[str, ...] = (
    *(label for label, (name, _) in REGISTERED.items() if name not in WHOLE_HISTORY),
    *_BASELINES,
    *(label for label, (name, _) in REGISTERED.items() if name in WHOLE_HISTORY),
)
"""The schemes :func:`evaluate` compares unless told otherwise: the registered ones that rate
forward (with their :data:`VARIANTS`), the lab's baselines, then the whole-history ones."""


def run_scheme(name: str, results: pd.DataFrame,
               initial: pd.DataFrame | None = None) -> SchemeRun:
    """Rate ``results`` with the evaluation scheme ``name`` (:data:`DEFAULT_SCHEMES`).

    ``initial`` (``player, rating``) goes to the registered schemes only, not to the lab's
    baselines (module docstring).
    """
    if name in _BASELINES:
        return _BASELINES[name](results)
    if name not in REGISTERED:
        raise ValueError(f"unknown evaluation scheme {name!r}; known: "
                         f"{', '.join(DEFAULT_SCHEMES)}")
    scheme, options = REGISTERED[name]
    if scheme in WHOLE_HISTORY:
        return WHOLE_HISTORY[scheme](results, initial, options or None)
    params = ratings.parse_options(scheme, options)
    # docs/rules/bridge-belo.md §10: a flat newcomer starts at 500, subsidy and phantom at 300;
    # a scheme without a newcomer rule counts an unrated player at the mean rating, 500.
    flat = getattr(params, "newcomer", "flat") == "flat"
    start = MEAN_RATING if flat else NEWCOMER_RATING
    run = ratings.rate(scheme, results, options=options, initial=initial)
    return SchemeRun(run.ratings, {"rating": float(start)})


# --- report -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SchemeScore:
    """One scheme's row of the report (module docstring a-c)."""

    scheme: str
    spearman: float
    kendall: float
    kn: float
    ln: float
    kn_pct: float
    pair_accuracy: float
    log_loss: float | None
    """``None``: the scheme states no probability (BELO)."""
    separation: int | None
    """Inter-club events until the clubs separate; ``None``: never, or not applicable (see
    :attr:`EvaluationReport.separation_applies`)."""
    seconds: float
    calibration: metrics.Reliability | None = None
    """The predicted probabilities binned against the outcomes (module docstring b); ``None``
    where :attr:`log_loss` is."""


@dataclass(frozen=True)
class EvaluationReport:
    """Scores of every scheme on one simulation, plus what they were computed over."""

    preset: str
    seed: int
    players: int
    """Players of the simulation (``sim.players``)."""
    events: int
    """Events with results."""
    final_players: int
    """Players on the final list compared with strength (active in the last year)."""
    predicted_pairs: int
    """Unit pairs predicted in quarters after the first (tied places left out)."""
    inter_club_events: int | None
    """Inter-club events of the separation experiment; ``None`` when it does not apply."""
    rows: tuple[SchemeScore, ...]

    @property
    def separation_applies(self) -> bool:
        """Whether the simulation is the two-club experiment (module docstring c)."""
        return self.inter_club_events is not None

    def to_frame(self) -> pd.DataFrame:
        """One row per scheme, the columns of :class:`SchemeScore`."""
        return pd.DataFrame([{f.name: getattr(row, f.name) for f in fields(SchemeScore)}
                             for row in self.rows])


# --- the replay -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Replay:
    """The simulation's results as codes: rows -> player, unit, quarter; the predicted pairs."""

    quarters: pd.PeriodIndex
    players: pd.Index
    row_player: Codes
    row_unit: Codes
    row_quarter: Codes
    unit_quarter: Codes
    unit_date: npt.NDArray[np.datetime64]
    """The date of each unit's event (quality/real.py groups the predictions by night)."""
    pair_a: Codes
    """Better-placed unit of each predicted pair (quarter >= the second)."""
    pair_b: Codes


def _replay(results: pd.DataFrame) -> _Replay:
    table = baselines.prepare_results(results)
    quarters = pd.period_range(table["period"].min(), table["period"].max(), freq="Q")
    players = pd.Index(np.unique(table["player"].to_numpy(dtype=str)), name="player")
    unit_keys = table[["event_id", "unit"]].drop_duplicates().reset_index(drop=True)
    unit_keys["code"] = np.arange(len(unit_keys))
    row_unit = table.merge(unit_keys, on=["event_id", "unit"], how="left")["code"].to_numpy()
    row_quarter = quarters.get_indexer(pd.PeriodIndex(table["period"], freq="Q"))
    units = pd.DataFrame({"code": np.arange(len(unit_keys)),
                          "event_id": unit_keys["event_id"].to_numpy()})
    first_row = np.unique(row_unit, return_index=True)[1]
    units["place"] = table["place"].to_numpy()[first_row]
    units["quarter"] = row_quarter[first_row]
    later = units[units["quarter"] >= 1]
    pairs = later.merge(later[["event_id", "code", "place"]], on="event_id",
                        suffixes=("_a", "_b"))
    # Tied places are left out; each pair once, A the better-placed unit.
    pairs = pairs[pairs["place_a"] < pairs["place_b"]]
    return _Replay(
        quarters=quarters, players=players,
        row_player=players.get_indexer(table["player"]).astype(np.intp),
        row_unit=row_unit.astype(np.intp), row_quarter=row_quarter.astype(np.intp),
        unit_quarter=units["quarter"].to_numpy(np.intp),
        unit_date=table["date"].to_numpy()[first_row],
        pair_a=pairs["code_a"].to_numpy(np.intp), pair_b=pairs["code_b"].to_numpy(np.intp),
    )


def _wide(frame: pd.DataFrame, column: str, replay: _Replay) -> Floats:
    """``column`` of every player (rows) at the end of every quarter (columns), carried forward
    from the player's latest row; NaN before the player's first rating."""
    if frame.empty:
        return np.full((len(replay.players), len(replay.quarters)), np.nan)
    periods = pd.PeriodIndex(frame["period"].astype(str), freq="Q")
    table = pd.DataFrame({"player": frame["player"].astype(str).to_numpy(),
                          "period": periods, "value": frame[column].to_numpy(np.float64)})
    wide = table.pivot_table(index="player", columns="period", values="value", aggfunc="last")
    wide = wide.reindex(index=replay.players, columns=replay.quarters)
    return np.asarray(wide.ffill(axis=1).to_numpy(np.float64), dtype=np.float64)


def _unit_stats(run: SchemeRun, replay: _Replay) -> UnitStats:
    """Every unit's stats from its players' values at the end of the quarter before its event."""
    n = int(replay.row_unit.max()) + 1 if len(replay.row_unit) else 0
    size = np.bincount(replay.row_unit, minlength=n).astype(np.float64)
    before = np.maximum(replay.row_quarter - 1, 0)
    mean: dict[str, Floats] = {}
    square: dict[str, Floats] = {}
    for column in run.columns:
        wide = _wide(run.ratings, column, replay)
        value = wide[replay.row_player, before]
        start: Floats | float = run.start[column]
        if column == "rating" and run.newcomer:
            start = np.array([run.newcomer.get(str(q), run.start[column])
                              for q in replay.quarters])[before]
        value = np.where(np.isnan(value) | (replay.row_quarter == 0), start, value)
        mean[column] = np.bincount(replay.row_unit, weights=value, minlength=n) / size
        square[column] = np.bincount(replay.row_unit, weights=value * value, minlength=n) / size
    return UnitStats(size, mean, square)


@dataclass(frozen=True)
class _Prediction:
    pair_accuracy: float
    log_loss: float | None
    calibration: metrics.Reliability | None = None


def _predict(run: SchemeRun, replay: _Replay) -> _Prediction:
    """Module docstring b): pair accuracy and log loss over the predicted pairs."""
    if not len(replay.pair_a):
        return _Prediction(math.nan, None if run.probability is None else math.nan)
    stats = _unit_stats(run, replay)
    ahead = stats.mean["rating"][replay.pair_a]
    behind = stats.mean["rating"][replay.pair_b]
    right = (ahead > behind) + 0.5 * (ahead == behind)
    loss = None
    calibration = None
    if run.probability is not None:
        p = run.probability(stats.take(replay.pair_a), stats.take(replay.pair_b))
        p = np.clip(p, _MIN_PROBABILITY, 1.0 - _MIN_PROBABILITY)
        loss = float(-np.log(p).mean())
        # every pair's first unit finished ahead; the diagram folds to the favourite
        calibration = metrics.reliability(p, np.ones(len(p)), CALIBRATION_BINS)
    return _Prediction(float(right.mean()), loss, calibration)


def _active_last_year(replay: _Replay) -> pd.Index:
    recent = replay.row_quarter >= len(replay.quarters) - LAST_YEAR_QUARTERS
    return replay.players[np.unique(replay.row_player[recent])]


@dataclass(frozen=True)
class _ListScore:
    spearman: float
    kendall: float
    kn: float
    ln: float
    kn_pct: float


def _final_list(run: SchemeRun, replay: _Replay, strength: pd.Series) -> _ListScore:
    """Module docstring a): the latest ratings of the active members against strength."""
    latest = pd.Series(_wide(run.ratings, "rating", replay)[:, -1], index=replay.players)
    listed = latest.reindex(_active_last_year(replay).intersection(strength.index)).dropna()
    truth = strength.reindex(listed.index)
    spearman, kendall = metrics.rank_correlation(listed, truth)
    unfair = metrics.list_unfairness(listed, truth)
    worst = metrics.kn_max(len(listed))
    pct = 100.0 * unfair.kn / worst if worst > 0 else math.nan
    return _ListScore(spearman, kendall, unfair.kn, unfair.ln, pct)


# --- separation -------------------------------------------------------------------------------


def _clubs_by_strength(sim: Simulation) -> tuple[pd.Index, pd.Index] | None:
    """Players of the stronger and of the weaker club, or ``None`` unless there are two clubs."""
    clubs = sim.players.groupby("club")["player"].apply(lambda p: pd.Index(p.astype(str)))
    if len(clubs) != 2:
        return None
    strength = sim.strength.groupby("player")["strength"].last()
    means = {club: float(strength.reindex(players).mean()) for club, players in clubs.items()}
    strong, weak = sorted(means, key=lambda c: -means[c])
    return clubs[strong], clubs[weak]


def separation_events(after: Callable[[int], pd.Series], inter_club: int, strong: pd.Index,
                      weak: pd.Index) -> int | None:
    """The smallest ``k`` such that after ``k`` inter-club events and after every later one the
    lowest rating of ``strong`` is above the highest of ``weak``; ``None`` (never) if that
    fails after the last of the ``inter_club`` events.

    ``after(k)`` is the ratings (index player) after ``k`` inter-club events, ``k = 0`` before
    the first. It is asked from ``k = inter_club`` down only until the clubs overlap, so a late
    separation costs few replays. Players without a rating are left out; a club without a
    rated player is not separated.
    """
    answer: int | None = None
    for k in range(inter_club, -1, -1):
        if not _separated(after(k), strong, weak):
            break
        answer = k
    return answer


def _separated(rating: pd.Series, strong: pd.Index, weak: pd.Index) -> bool:
    top = rating.reindex(strong).dropna()
    bottom = rating.reindex(weak).dropna()
    return bool(len(top) and len(bottom) and top.min() > bottom.max())


def _latest(run: SchemeRun) -> pd.Series:
    """Every rated player's latest rating."""
    frame = run.ratings
    if frame.empty:
        return pd.Series([], dtype=float)
    return frame.groupby(frame["player"].astype(str))["rating"].last()


def _separation(name: str, sim: Simulation, initial: pd.DataFrame | None,
                clubs: tuple[pd.Index, pd.Index]) -> int | None:
    """Module docstring c): the scheme replayed on the results up to each inter-club event."""
    order = sim.events.sort_values(["date", "event_id"], kind="mergesort").reset_index(drop=True)
    position = pd.Series(np.arange(len(order)), index=order["event_id"].astype(str))
    inter = np.flatnonzero(order["inter_club"].to_numpy(bool))
    row_position = position.reindex(sim.results["event_id"].astype(str)).to_numpy()
    strong, weak = clubs

    def after(k: int) -> pd.Series:
        cut = inter[k - 1] if k > 0 else (inter[0] - 1 if len(inter) else len(order) - 1)
        part = sim.results[row_position <= cut]
        return _latest(run_scheme(name, part, initial)) if len(part) else pd.Series([], float)

    return separation_events(after, len(inter), strong, weak)


# --- evaluate ---------------------------------------------------------------------------------


def _initial(sim: Simulation) -> pd.DataFrame | None:
    """Every member at ``settings["initial_rating"]`` (quality/federation.py), if it is set."""
    value = sim.settings.get("initial_rating")
    if not isinstance(value, (int, float)):
        return None
    return pd.DataFrame({"player": sim.players["player"].astype(str).to_numpy(),
                         "rating": float(value)})


def _experiment(sim: Simulation) -> bool:
    """The two-club experiment: quality/federation.py ``intra_club_events`` and
    ``inter_club_events`` (both set together) with two clubs."""
    return (sim.settings.get("intra_club_events") is not None
            and sim.settings.get("inter_club_events") is not None)


def evaluate(sim: Simulation, schemes: Sequence[str] = DEFAULT_SCHEMES) -> EvaluationReport:
    """Replay every scheme over ``sim`` and score it (module docstring a-c)."""
    replay = _replay(sim.results)
    strength = sim.final_strength()
    strength.index = strength.index.astype(str)
    initial = _initial(sim)
    clubs = _clubs_by_strength(sim) if _experiment(sim) else None
    rows: list[SchemeScore] = []
    for name in schemes:
        begin = time.perf_counter()
        run = run_scheme(name, sim.results, initial)
        seconds = time.perf_counter() - begin
        listed = _final_list(run, replay, strength)
        predicted = _predict(run, replay)
        separation = _separation(name, sim, initial, clubs) if clubs is not None else None
        rows.append(SchemeScore(
            scheme=name, spearman=listed.spearman, kendall=listed.kendall, kn=listed.kn,
            ln=listed.ln, kn_pct=listed.kn_pct, pair_accuracy=predicted.pair_accuracy,
            log_loss=predicted.log_loss, separation=separation, seconds=seconds,
            calibration=predicted.calibration,
        ))
    final_players = len(_active_last_year(replay).intersection(strength.index))
    inter = int(sim.events["inter_club"].astype(bool).sum()) if clubs is not None else None
    return EvaluationReport(
        preset=sim.name, seed=sim.seed, players=len(sim.players),
        events=int(sim.results["event_id"].nunique()), final_players=final_players,
        predicted_pairs=len(replay.pair_a), inter_club_events=inter, rows=tuple(rows),
    )


def evaluate_preset(name: str, seed: int = 1,
                    schemes: Sequence[str] = DEFAULT_SCHEMES) -> EvaluationReport:
    """Simulate the preset ``name`` (quality/federation.py ``PRESETS``) and evaluate it."""
    return evaluate(simulate(name, seed), schemes)


# --- table ------------------------------------------------------------------------------------


def _number(value: float | None, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}"


def _aligned(header: list[str], body: list[list[str]]) -> list[str]:
    """``header``, a rule and ``body`` in columns: the first left-aligned, the others right."""
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    return [line(header), "  ".join("-" * w for w in widths), *map(line, body)]


def format_table(report: EvaluationReport) -> str:
    """The report as an aligned text table under a headline."""
    head = (f"Preset {report.preset}, seed {report.seed}: {report.players} players, "
            f"{report.events} events")
    if report.separation_applies:
        head += f" ({report.inter_club_events} inter-club)"
    detail = (f"Final list: {report.final_players} members active in the last year; "
              f"prediction: {report.predicted_pairs} unit pairs of quarters 2+ from the "
              f"previous quarter's ratings")
    lines = [head, detail]
    header = ["scheme", "Spearman", "Kendall", "KN", "LN", "KN %", "pairs right", "log loss"]
    if report.separation_applies:
        header.append("separation")
    header.append("seconds")
    body: list[list[str]] = []
    for row in report.rows:
        cells = [row.scheme, _number(row.spearman, 3), _number(row.kendall, 3),
                 _number(row.kn, 0), _number(row.ln, 0), _number(row.kn_pct, 1),
                 _number(row.pair_accuracy, 3), _number(row.log_loss, 3)]
        if report.separation_applies:
            cells.append("never" if row.separation is None else str(row.separation))
        cells.append(_number(row.seconds, 2))
        body.append(cells)
    lines += ["", *_aligned(header, body)]
    return "\n".join(lines)


def format_summary(reports: Sequence[EvaluationReport]) -> str:
    """The mean of every measure over ``reports`` (one preset, several seeds), a row per scheme
    in the order of the first report; separation as the seeds' values (``never`` spelled out)."""
    first = reports[0]
    seeds = ",".join(str(r.seed) for r in reports)
    lines = [f"Preset {first.preset}, mean over seeds {seeds}"]
    header = ["scheme", "Spearman", "Kendall", "KN %", "pairs right", "log loss"]
    if first.separation_applies:
        header.append("separation")
    body: list[list[str]] = []
    for index, row in enumerate(first.rows):
        same = [r.rows[index] for r in reports]

        def mean(values: list[float | None]) -> float | None:
            known = [v for v in values if v is not None]
            return None if len(known) < len(values) else float(np.mean(known))

        cells = [row.scheme, _number(mean([s.spearman for s in same]), 3),
                 _number(mean([s.kendall for s in same]), 3),
                 _number(mean([s.kn_pct for s in same]), 1),
                 _number(mean([s.pair_accuracy for s in same]), 3),
                 _number(mean([s.log_loss for s in same]), 3)]
        if first.separation_applies:
            cells.append(" ".join("never" if s.separation is None else str(s.separation)
                                  for s in same))
        body.append(cells)
    lines += ["", *_aligned(header, body)]
    return "\n".join(lines)


# --- JSON (docs/quality.json, the editions site's quality page) -------------------------------


def score_to_dict(row: DataclassInstance) -> dict[str, object]:
    """One scheme's row (a :class:`SchemeScore`, or quality/real.py's ``RealScore``) as plain
    JSON values: NaN as ``None``; a row without calibration has no such key (as in reports
    written before it)."""
    plain: dict[str, object] = {}
    for f in fields(row):
        value = getattr(row, f.name)
        if f.name != "calibration":
            plain[f.name] = None if isinstance(value, float) and not math.isfinite(value) \
                else value
    calibration = getattr(row, "calibration", None)
    if calibration is not None:
        plain["calibration"] = calibration.to_dict()
    return plain


def report_to_dict(report: EvaluationReport) -> dict[str, object]:
    """The report as plain JSON values (NaN as ``None``)."""
    head = {f.name: getattr(report, f.name) for f in fields(EvaluationReport) if f.name != "rows"}
    return {**head, "rows": [score_to_dict(row) for row in report.rows]}


def report_from_dict(data: dict[str, object]) -> EvaluationReport:
    """Inverse of :func:`report_to_dict` (``None`` numbers come back as NaN)."""

    def number(value: object) -> float:
        return float("nan") if value is None else float(value)  # type: ignore[arg-type]

    rows = []
    for row in data["rows"]:  # type: ignore[attr-defined]
        rows.append(SchemeScore(
            scheme=str(row["scheme"]), spearman=number(row["spearman"]),
            kendall=number(row["kendall"]), kn=number(row["kn"]), ln=number(row["ln"]),
            kn_pct=number(row["kn_pct"]), pair_accuracy=number(row["pair_accuracy"]),
            log_loss=None if row["log_loss"] is None else float(row["log_loss"]),
            separation=None if row["separation"] is None else int(row["separation"]),
            seconds=number(row["seconds"]),
            calibration=None if row.get("calibration") is None
            else metrics.Reliability.from_dict(row["calibration"]),
        ))
    head = {f.name: data[f.name] for f in fields(EvaluationReport) if f.name != "rows"}
    return EvaluationReport(**head, rows=tuple(rows))  # type: ignore[arg-type]
