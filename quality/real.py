"""Rating quality on real results: every night of a warehouse predicted from the lists published
before it (docs/quality.md, "On real results").

The simulations of :mod:`quality.evaluate` know the truth; a real archive does not, but it knows
what happened next. :func:`evaluate_results` (and :func:`evaluate_warehouse` on a warehouse)
replays every scheme and scores how well the list published before each event orders its units:

- **Results.** The bridge results frame the pipeline rates (``warehouse.results_frame``: events
  in force, players resolved, events waiting for review left out). Events the rating engine
  refuses (a place outside ``1..n``, a player twice; ``ratings``' own input check, event by
  event) are left out of everything and counted (:attr:`RealReport.refused_events`).
- **Published lists.** Every scheme is replayed as it would have been published, with the
  lab's replay (:func:`quality.evaluate.run_scheme`): BELO and BELO2 rate forward quarter by
  quarter (no start-up cut-over), so their quarter ``Q`` of a run over the whole archive is the
  list published at the end of ``Q``; Elo, Glicko-2 and openskill rate event by event; WHR,
  whose whole-history fit restates past quarters, is fitted again at the end of every quarter
  on the results up to it (:func:`quality.evaluate.whr_replay`). The rating runs stored in the
  warehouse are not read: a belo2 pool with a cut-over computes its first quarters with
  start-up passes over later results, and a WHR run restates every quarter.
- **Comparisons.** Every two units of an event in the archive's second quarter or later, tied
  places left out, the better-placed unit first. A unit's rating is the mean of its players'
  ratings in the list of the quarter *before* the event's quarter. Two choices for players
  without a published rating (no result in an earlier quarter), both reported:

  * ``all``: every comparison, such a player at the scheme's newcomer rating (BELO 300 with
    phantoms or subsidy, 500 flat; WHR 500; Elo 1500; ...);
  * ``rated``: only comparisons whose players all have a result in an earlier quarter (the
    same comparisons for every scheme and the baseline).
- **Pairs right**: the share of comparisons whose better-rated unit finished better, equal
  ratings counting half.
- **Log loss**: the mean of ``-ln P(better-placed unit ahead)``. Elo, Glicko-2, openskill and
  WHR state ``P`` (:mod:`quality.baselines`, ``ratings.whr_probability``). BELO and the baseline
  do not: for them ``P = 1 / (1 + exp(-b (R_A - R_B)))`` with one slope ``b`` per scheme fitted
  by maximum likelihood on the comparisons of earlier quarters only (refitted before every
  quarter; ``P = 1/2`` in the first predicted quarter), so no probability uses its own quarter.
- **Calibration**: the same probabilities binned against what happened, a reliability diagram
  folded to the favourite (:func:`quality.metrics.reliability`, the lab's 10 bins) with its
  expected calibration error; for BELO and the baseline it is the fitted logistic's
  (``fitted``).
- **The naive baseline** (``average %``): a club secretary's average percentage so far. A
  unit's strength is the mean over its players of each player's mean percentage in all
  *earlier nights* (dates before the event's; the nights of the same quarter included), a
  newcomer 50%. The percentage is the unit's score when the event is scored in percent: MP
  events whose scores all lie in 0..100 and average 45..55 (a matchpoint percentage averages
  50 over the field; totals do not); for any other event (IMP, VP, matchpoint totals) the share
  of the field the unit beat, ``100 (n - place) / (n - 1)``. ``average % (quarter)`` is the
  same average of the nights up to the end of the quarter before, the information a quarterly
  list has.
- **Difference to the baseline**: pairs right of the scheme minus pairs right of ``average %``
  on the same comparisons, in percentage points, with a 95% interval from a bootstrap over
  nights (a night: the events of one date; nights drawn with replacement, :data:`RESAMPLES`
  times, from a fixed seed; the 2.5th and 97.5th percentiles of the ratio of the summed
  differences to the summed comparisons).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pandas as pd

import ratings
from ratings import InputError
from ratings._frames import check_results  # the engine's own input check, event by event

from . import metrics
from .evaluate import CALIBRATION_BINS, DEFAULT_SCHEMES, _MIN_PROBABILITY, _aligned, _number
from .evaluate import _replay, _Replay
from .evaluate import _unit_stats, run_scheme, score_to_dict

if TYPE_CHECKING:
    from warehouse import Warehouse

__all__ = [
    "BASELINE",
    "BASELINE_QUARTER",
    "CHOICES",
    "NIGHTLY",
    "REAL_SCHEMES",
    "RESAMPLES",
    "RealReport",
    "RealScore",
    "baseline_strength",
    "evaluate_results",
    "evaluate_warehouse",
    "format_real",
    "percentages",
    "predictions",
    "real_from_dict",
    "real_results",
    "real_to_dict",
]

Floats = npt.NDArray[np.float64]
Codes = npt.NDArray[np.intp]

BASELINE = "average %"
"""The naive baseline: each player's mean percentage in all earlier nights, newcomers 50%."""

BASELINE_QUARTER = "average % (quarter)"
"""The same average over the nights up to the end of the quarter before the event."""

CHOICES: tuple[str, ...] = ("all", "rated")
"""Players without a published rating: at the newcomer rating (``all``) or the comparison left
out (``rated``); module docstring."""

RESAMPLES = 2000
"""Bootstrap samples of nights for the interval of the difference to the baseline."""

NEWCOMER_PERCENT = 50.0
"""The baseline's strength of a player without an earlier night."""

PERCENT_MEAN = (45.0, 55.0)
"""An MP event whose scores average in this range (all within 0..100) is scored in percent."""

NIGHTLY = "whr-nightly"
"""WHR as the nightly job publishes it: fitted again before every night on every earlier
result, its constants learned when each quarter closed (docs/rules/bridge-whr.md §13); a
player's rating is their latest, a player without one at the learned newcomer prior. It knows
the nights of the same quarter, as ``average %`` does."""

REAL_SCHEMES: tuple[str, ...] = (*DEFAULT_SCHEMES, NIGHTLY)
"""The schemes :func:`evaluate_results` compares unless told otherwise."""


# --- results ----------------------------------------------------------------------------------


def real_results(wh: Warehouse) -> tuple[pd.DataFrame, int, str]:
    """The warehouse's bridge results frame (what the pipeline rates) without the events the
    rating engine refuses, the number of those refused events, and a name for the archive (its
    organiser with the most events, and how many others there are)."""
    from warehouse import results_frame

    results = results_frame(wh, "bridge")
    organisers = results.drop_duplicates("event_id")["organiser"].fillna("")
    counts = organisers[organisers != ""].value_counts()
    name = str(counts.index[0]) if len(counts) else ""
    if len(counts) > 1:
        name += f" (and {len(counts) - 1} other organiser{'s' if len(counts) > 2 else ''})"
    kept, refused = _rateable(results.drop(columns=["organiser"], errors="ignore"))
    return kept, refused, name


def _rateable(results: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """``results`` less the events ``ratings``' input check refuses, checked one by one only
    when the whole frame fails (one bad file must not hide a whole archive)."""
    try:
        check_results(results)
        return results.reset_index(drop=True), 0
    except InputError:
        pass
    refused = [event for event, rows in results.groupby("event_id", sort=False)
               if not _passes(rows)]
    kept = results[~results["event_id"].isin(refused)]
    return kept.reset_index(drop=True), len(refused)


def _passes(rows: pd.DataFrame) -> bool:
    try:
        check_results(rows)
    except InputError:
        return False
    return True


# --- the baseline -----------------------------------------------------------------------------


def percentages(results: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Every row's percentage (module docstring, the naive baseline) and whether its event is
    scored in percent."""
    score = pd.to_numeric(results.get("score", pd.Series(np.nan, index=results.index)),
                          errors="coerce")
    event = results["event_id"].astype(str)
    unit = results["unit"].astype(str)
    units = pd.DataFrame({"event": event, "unit": unit, "score": score,
                          "place": results["place"].astype(float),
                          "mp": results["scoring"].astype(str) == "MP"})
    first = units.drop_duplicates(["event", "unit"])
    per_event = first.groupby("event").agg(
        n=("unit", "size"), mean=("score", "mean"), low=("score", "min"), high=("score", "max"),
        missing=("score", lambda s: bool(s.isna().any())), mp=("mp", "first"))
    percent = (per_event["mp"] & ~per_event["missing"] & (per_event["low"] >= 0)
               & (per_event["high"] <= 100) & per_event["mean"].between(*PERCENT_MEAN))
    in_percent = event.map(percent).fillna(False).astype(bool)
    n = event.map(per_event["n"]).astype(float)
    beaten = 100.0 * (n - units["place"]) / (n - 1).where(n > 1)
    value = score.where(in_percent, beaten).fillna(NEWCOMER_PERCENT)
    return value.astype(float), in_percent


def baseline_strength(results: pd.DataFrame, *, by: str = "night") -> pd.Series:
    """Every row's strength under the naive baseline: its player's mean percentage over the
    nights before the row's date (``by="night"``) or over the quarters before the row's quarter
    (``by="quarter"``); :data:`NEWCOMER_PERCENT` without any. Index of ``results``."""
    value, _ = percentages(results)
    dates = pd.to_datetime(results["date"]).dt.normalize()
    key = dates if by == "night" else dates.dt.to_period("Q").dt.start_time
    frame = pd.DataFrame({"player": results["player"].astype(str).to_numpy(),
                          "key": key.to_numpy(), "value": value.to_numpy()})
    per = frame.groupby(["player", "key"], sort=True)["value"].agg(["sum", "count"])
    # sums over the player's earlier keys only: a running total less the key's own
    grouped = per.groupby(level="player")
    before_sum = grouped["sum"].cumsum() - per["sum"]
    before_count = grouped["count"].cumsum() - per["count"]
    mean = (before_sum / before_count.where(before_count > 0)).fillna(NEWCOMER_PERCENT)
    index = pd.MultiIndex.from_arrays([frame["player"], frame["key"]])
    return pd.Series(mean.reindex(index).to_numpy(), index=results.index)


# --- report -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RealScore:
    """One scheme's row on real results for one choice of comparisons."""

    scheme: str
    comparisons: int
    pair_accuracy: float
    log_loss: float
    fitted: bool
    """Whether the log loss comes from the logistic fitted on earlier quarters (module
    docstring); ``False``: the scheme's own probability."""
    difference: float
    """Pairs right minus the baseline's, in percentage points (NaN for the baseline itself)."""
    low: float
    high: float
    """The 95% bootstrap interval of :attr:`difference` over nights."""
    seconds: float
    calibration: metrics.Reliability | None = None
    """The probabilities of the log loss binned against the outcomes (module docstring,
    "Calibration"; the fitted logistic's when :attr:`fitted`); ``None`` without comparisons."""


@dataclass(frozen=True)
class RealReport:
    """Every scheme scored on a real archive."""

    source: str
    first_date: str
    last_date: str
    nights: int
    events: int
    refused_events: int
    """Events left out: the rating engine refuses them (module docstring)."""
    percent_events: int
    """Events whose unit scores are percentages (the baseline's percentage)."""
    players: int
    predicted_nights: int
    """Nights with at least one comparison (events after the first quarter)."""
    all_rows: tuple[RealScore, ...]
    rated_rows: tuple[RealScore, ...]

    def rows(self, choice: str) -> tuple[RealScore, ...]:
        return self.all_rows if choice == "all" else self.rated_rows


# --- scoring ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pairs:
    """The comparisons of the archive: unit codes, quarter, night and whether all are rated."""

    replay: _Replay
    a: Codes
    b: Codes
    quarter: Codes
    night: Codes
    rated: npt.NDArray[np.bool_]


def _pairs(replay: _Replay) -> _Pairs:
    first_quarter = np.full(len(replay.players), np.iinfo(np.intp).max, dtype=np.intp)
    np.minimum.at(first_quarter, replay.row_player, replay.row_quarter)
    row_rated = first_quarter[replay.row_player] < replay.row_quarter
    n_units = len(replay.unit_quarter)
    unit_rated = np.bincount(replay.row_unit, weights=~row_rated, minlength=n_units) == 0
    _, night = np.unique(replay.unit_date, return_inverse=True)
    a, b = replay.pair_a, replay.pair_b
    return _Pairs(replay, a, b, replay.unit_quarter[a], night[a].astype(np.intp),
                  unit_rated[a] & unit_rated[b])


def _slope(diff: Floats) -> float:
    """The slope ``b`` maximising ``sum ln sigmoid(b d)`` over the differences ``d`` (the
    better-placed unit's rating minus the other's), by Newton's method from 0; bounded where the
    data would send it to infinity (every difference of one sign)."""
    if not len(diff) or not np.any(diff):
        return 0.0
    bound = 50.0 / float(np.mean(np.abs(diff)))
    slope = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(slope * diff, -700, 700)))
        gradient = float(np.sum(diff * (1.0 - p)))
        curvature = float(np.sum(diff * diff * p * (1.0 - p)))
        if curvature <= 0:
            break
        step = gradient / curvature
        slope = float(np.clip(slope + step, -bound, bound))
        if abs(step) <= 1e-12 * max(1.0, abs(slope)) or abs(slope) == bound:
            break
    return slope


def _fitted_probability(diff: Floats, quarter: Codes) -> Floats:
    """``P(A ahead)`` from a logistic on the rating difference, its slope fitted before every
    quarter on the comparisons of the earlier quarters only."""
    p = np.full(len(diff), 0.5)
    for q in np.unique(quarter):
        earlier = quarter < q
        slope = _slope(diff[earlier])
        now = quarter == q
        p[now] = 1.0 / (1.0 + np.exp(-np.clip(slope * diff[now], -700, 700)))
    return p


@dataclass(frozen=True)
class _Predicted:
    right: Floats
    """1 right, 0 wrong, 1/2 equal ratings, per comparison."""
    probability: Floats
    fitted: bool
    seconds: float


def _predicted_scheme(name: str, results: pd.DataFrame, pairs: _Pairs) -> _Predicted:
    begin = time.perf_counter()
    run = run_scheme(name, results)
    seconds = time.perf_counter() - begin
    stats = _unit_stats(run, pairs.replay)
    ahead = stats.mean["rating"][pairs.a]
    behind = stats.mean["rating"][pairs.b]
    right = (ahead > behind) + 0.5 * (ahead == behind)
    if run.probability is not None:
        p = run.probability(stats.take(pairs.a), stats.take(pairs.b))
        return _Predicted(right.astype(float), np.asarray(p, float), False, seconds)
    return _Predicted(right.astype(float), _fitted_probability(ahead - behind, pairs.quarter),
                      True, seconds)


def _predicted_nightly(results: pd.DataFrame, pairs: _Pairs) -> _Predicted:
    """:data:`NIGHTLY`'s predictions; ``results`` in the replay's row order."""
    begin = time.perf_counter()
    replay = pairs.replay
    params = ratings.parse_options("whr", {})
    dates = pd.to_datetime(results["date"]).dt.normalize()
    day = dates.to_numpy()
    quarter = pd.PeriodIndex(dates, freq="Q")
    players = results["player"].astype(str).to_numpy()
    units = len(replay.unit_quarter)
    size = np.maximum(np.bincount(replay.row_unit, minlength=units), 1).astype(float)
    pair_day = replay.unit_date[pairs.a].astype("datetime64[ns]")
    right = np.full(len(pairs.a), 0.5)
    p = np.full(len(pairs.a), 0.5)
    learned: ratings.WhrLearning | None = None
    through: pd.Period | None = None
    warm: pd.DataFrame | None = None
    for night in np.unique(pair_day):
        closed = pd.Period(pd.Timestamp(night), freq="Q") - 1
        if through != closed:  # a quarter closed: learn again (§13), from the last values
            through = closed
            upto = results[np.asarray(quarter <= closed)]
            if len(upto):
                learned = ratings.learn_whr(
                    upto, params,
                    start=learned.params if learned is not None and learned.learned else None)
        used = learned.params if learned is not None else params
        run = ratings.rate_whr(results[day < night], used, warm=warm)
        warm = run.ratings
        latest = run.ratings.groupby(run.ratings["player"].astype(str))["rating"].last()
        tonight = day == night
        value = pd.Series(players[tonight]).map(latest).fillna(float(used.newcomer))
        mean = np.bincount(replay.row_unit[tonight], weights=value.to_numpy(float),
                           minlength=units) / size
        chosen = pair_day == night
        ahead, behind = mean[pairs.a[chosen]], mean[pairs.b[chosen]]
        right[chosen] = (ahead > behind) + 0.5 * (ahead == behind)
        p[chosen] = ratings.whr_probability(ahead, behind, used.scale)
    return _Predicted(right, p, False, time.perf_counter() - begin)


def _predicted_baseline(results: pd.DataFrame, pairs: _Pairs, by: str) -> _Predicted:
    """The naive baseline's predictions; ``results`` in the replay's row order."""
    begin = time.perf_counter()
    strength = baseline_strength(results, by=by).to_numpy()
    n = len(pairs.replay.unit_quarter)
    size = np.bincount(pairs.replay.row_unit, minlength=n).astype(float)
    unit = np.bincount(pairs.replay.row_unit, weights=strength, minlength=n) / size
    ahead, behind = unit[pairs.a], unit[pairs.b]
    right = (ahead > behind) + 0.5 * (ahead == behind)
    p = _fitted_probability(ahead - behind, pairs.quarter)
    return _Predicted(right.astype(float), p, True, time.perf_counter() - begin)


def _in_replay_order(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` in :func:`quality.baselines.prepare_results`' row order (date, event, unit,
    player), the order of the replay's rows."""
    dates = pd.to_datetime(results["date"]).dt.normalize()
    keys = pd.DataFrame({"date": dates.to_numpy(),
                         "event_id": results["event_id"].astype(str).to_numpy(),
                         "unit": results["unit"].astype(str).to_numpy(),
                         "player": results["player"].astype(str).to_numpy()})
    order = keys.sort_values(["date", "event_id", "unit", "player"], kind="mergesort").index
    return results.iloc[order.to_numpy()].reset_index(drop=True)


def _interval(diff: Floats, night: Codes, seed: int) -> tuple[float, float, float]:
    """The difference in percentage points and its 95% bootstrap interval over nights."""
    if not len(diff):
        return math.nan, math.nan, math.nan
    _, codes = np.unique(night, return_inverse=True)
    nights = int(codes.max()) + 1
    total = np.bincount(codes, weights=diff, minlength=nights)
    count = np.bincount(codes, minlength=nights).astype(float)
    rng = np.random.default_rng(seed)
    draw = rng.integers(0, nights, size=(RESAMPLES, nights))
    samples = total[draw].sum(axis=1) / count[draw].sum(axis=1)
    low, high = np.percentile(samples, [2.5, 97.5])
    return 100.0 * float(total.sum() / count.sum()), 100.0 * float(low), 100.0 * float(high)


def _score(name: str, predicted: _Predicted, naive: _Predicted, keep: npt.NDArray[np.bool_],
           night: Codes, seed: int) -> RealScore:
    right = predicted.right[keep]
    p = np.clip(predicted.probability[keep], _MIN_PROBABILITY, 1.0 - _MIN_PROBABILITY)
    difference, low, high = (_interval(right - naive.right[keep], night[keep], seed)
                             if predicted is not naive else (math.nan, math.nan, math.nan))
    return RealScore(
        scheme=name, comparisons=int(keep.sum()),
        pair_accuracy=float(right.mean()) if len(right) else math.nan,
        log_loss=float(-np.log(p).mean()) if len(p) else math.nan, fitted=predicted.fitted,
        difference=difference, low=low, high=high, seconds=predicted.seconds,
        # every comparison's first unit finished ahead; the diagram folds to the favourite
        calibration=metrics.reliability(p, np.ones(len(p)), CALIBRATION_BINS) if len(p)
        else None,
    )


def _predict_all(results: pd.DataFrame,
                 schemes: Sequence[str]) -> tuple[_Pairs, dict[str, _Predicted]]:
    """The comparisons of ``results`` (in the replay's order) and every scheme's and both
    baselines' predictions of them."""
    replay = _replay(results)
    pairs = _pairs(replay)
    predicted = {BASELINE: _predicted_baseline(results, pairs, "night"),
                 BASELINE_QUARTER: _predicted_baseline(results, pairs, "quarter")}
    for name in schemes:
        predicted[name] = (_predicted_nightly(results, pairs) if name == NIGHTLY
                           else _predicted_scheme(name, results, pairs))
    return pairs, predicted


def predictions(results: pd.DataFrame, schemes: Sequence[str] = REAL_SCHEMES) -> pd.DataFrame:
    """One row per comparison: ``date, event_id, ahead, behind`` (the units, the better-placed
    first), ``rated`` (module docstring, choice ``rated``), and per scheme and baseline
    ``right <name>`` (1, 0 or 1/2) and ``p <name>`` (``P(ahead finishes ahead)``)."""
    results = _in_replay_order(results.reset_index(drop=True))
    pairs, predicted = _predict_all(results, schemes)
    units = results[["event_id", "unit"]].astype(str).drop_duplicates().reset_index(drop=True)
    frame = pd.DataFrame({
        "date": pairs.replay.unit_date[pairs.a],
        "event_id": units["event_id"].to_numpy()[pairs.a],
        "ahead": units["unit"].to_numpy()[pairs.a],
        "behind": units["unit"].to_numpy()[pairs.b],
        "rated": pairs.rated,
    })
    for name, p in predicted.items():
        frame[f"right {name}"] = p.right
        frame[f"p {name}"] = p.probability
    return frame


def evaluate_results(results: pd.DataFrame, schemes: Sequence[str] = REAL_SCHEMES, *,
                     source: str = "", refused_events: int = 0, seed: int = 1) -> RealReport:
    """Every scheme and the naive baseline scored on ``results`` (module docstring).

    Raises ``ValueError`` when there are no results."""
    if results.empty:
        raise ValueError("no bridge results to evaluate")
    results = _in_replay_order(results.reset_index(drop=True))
    pairs, predicted = _predict_all(results, schemes)
    naive = predicted[BASELINE]
    everything = np.ones(len(pairs.a), dtype=bool)
    rows = {choice: tuple(_score(name, p, naive, keep, pairs.night, seed)
                          for name, p in predicted.items())
            for choice, keep in (("all", everything), ("rated", pairs.rated))}
    dates = pd.to_datetime(results["date"]).dt.normalize()
    _, in_percent = percentages(results)
    event = results["event_id"].astype(str)
    return RealReport(
        source=source, first_date=str(dates.min().date()), last_date=str(dates.max().date()),
        nights=int(dates.nunique()), events=int(event.nunique()), refused_events=refused_events,
        percent_events=int(event[in_percent].nunique()),
        players=int(results["player"].nunique()),
        predicted_nights=int(len(np.unique(pairs.night))),
        all_rows=rows["all"], rated_rows=rows["rated"],
    )


def evaluate_warehouse(path: Path | str, schemes: Sequence[str] = REAL_SCHEMES, *,
                       seed: int = 1) -> RealReport:
    """:func:`evaluate_results` on the bridge results of the warehouse at ``path`` (opened
    read-only)."""
    from warehouse import open_warehouse

    with open_warehouse(path, read_only=True) as wh:
        results, refused, name = real_results(wh)
    return evaluate_results(results, schemes, source=name or Path(path).name,
                            refused_events=refused, seed=seed)


# --- table ------------------------------------------------------------------------------------


_TITLES = {
    "all": "every comparison (players without a published rating at the scheme's newcomer "
           "rating, 50% in the baseline)",
    "rated": "comparisons whose players all have a result in an earlier quarter",
}


def format_real(report: RealReport) -> str:
    """The report as text: a headline and one table per choice of comparisons."""
    lines = [
        f"Real results, {report.source}: {report.nights} nights, {report.events} events "
        f"({report.first_date} .. {report.last_date}), {report.players} players; "
        f"{report.refused_events} events refused by the rating engine left out; "
        f"{report.percent_events} events scored in percent",
        f"Prediction: {report.predicted_nights} nights after the first quarter, each from the "
        f"lists of the quarter before; difference to {BASELINE!r} in points of pairs right, "
        f"95% interval over nights; * log loss of a logistic fitted on earlier quarters",
    ]
    if any(row.scheme == NIGHTLY for row in report.all_rows):
        lines.append(f"{NIGHTLY}: WHR fitted again before every night (the lists as the "
                     "nightly job publishes them), constants learned when each quarter closed")
    header = ["scheme", "comparisons", "pairs right", "log loss", "difference", "95% interval"]
    for choice in CHOICES:
        body = []
        for row in report.rows(choice):
            loss = _number(row.log_loss, 3) + ("*" if row.fitted else " ")
            interval = "—" if math.isnan(row.low) else f"{row.low:+.1f} .. {row.high:+.1f}"
            difference = "—" if math.isnan(row.difference) else f"{row.difference:+.1f}"
            body.append([row.scheme, str(row.comparisons), _number(row.pair_accuracy, 3), loss,
                         difference, interval])
        lines += ["", f"Choice {choice}: {_TITLES[choice]}", "", *_aligned(header, body)]
    return "\n".join(lines)


# --- JSON -------------------------------------------------------------------------------------


def real_to_dict(report: RealReport) -> dict[str, object]:
    """The report as plain JSON values (NaN as ``None``)."""
    head = {f.name: getattr(report, f.name) for f in fields(RealReport)
            if f.name not in ("all_rows", "rated_rows")}
    return {**head, **{f"{choice}_rows": [score_to_dict(row) for row in report.rows(choice)]
                       for choice in CHOICES}}


def real_from_dict(data: dict[str, object]) -> RealReport:
    """Inverse of :func:`real_to_dict` (``None`` numbers come back as NaN)."""

    def row(item: dict[str, object]) -> RealScore:
        values = {k: (math.nan if v is None else v) for k, v in item.items()
                  if k != "calibration"}
        bins = item.get("calibration")
        calibration = (None if bins is None
                       else metrics.Reliability.from_dict(bins))  # type: ignore[arg-type]
        return RealScore(**values, calibration=calibration)  # type: ignore[arg-type]

    head = {f.name: data[f.name] for f in fields(RealReport)
            if f.name not in ("all_rows", "rated_rows")}
    lists: dict[str, list[dict[str, object]]] = {
        choice: list(data[f"{choice}_rows"]) for choice in CHOICES}  # type: ignore[call-overload]
    return RealReport(**head,  # type: ignore[arg-type]
                      all_rows=tuple(row(r) for r in lists["all"]),
                      rated_rows=tuple(row(r) for r in lists["rated"]))
