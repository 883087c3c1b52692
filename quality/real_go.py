"""Go rating quality on real games: every game predicted from the list published before its
tournament (docs/quality.md, "Go on real tournaments").

- **Games.** The go games in force, one period per tournament (``warehouse.go_judge_frame``:
  the go schemes' games frame with the rating each file states for a player, if any).
  Tournaments are taken in the order they began.
- **Lists.** Every go scheme rates the whole archive once; a game of tournament ``T`` is
  predicted from each player's ``rating_before`` in ``T``: the list published after the
  player's last tournament (with the scheme's own time decay). A player without an earlier
  tournament stands at the rating of the grade declared in ``T`` (the scheme's start value
  when none), as every go scheme starts a newcomer. A scheme that reads every declared grade
  (``Scheme.grades_as_evidence``) starts ``T`` from its list *and* the grades declared for
  ``T``, known at entry, as the grade baseline knows them; its row ``... (list only)`` is the
  list alone, without ``T``'s grades.
- **Constants learned.** A scheme that learns its constants from the games it rates
  (``grade-evidence`` with ``learn = on``) learns them again at every year's start from the
  games of the tournaments begun before it only, and predicts that year's tournaments with them.
- **Baselines.** ``grade``: the stronger declared grade (in ``T``'s file) wins, equal grades
  half; ``stated rating``: the higher rating the files state (the EGD GoR, where a file gives
  one), on the games where both are stated.
- **Predictions.** Black is predicted to win when ``R_b + h - R_w > 0``, ``h`` the handicap's
  rating points (``100 (F - 0.5)`` for ``F >= 1`` stones, docs/rules/go-rfg.md "Win
  probability"); equal counts half. Even and handicap games apart. Jigo (a half point) is left
  out and counted.
- **Log loss** of ``P = 1 / (1 + exp(-b (R_b + h - R_w)))``, one slope ``b`` per scheme fitted
  by maximum likelihood on the games of earlier tournaments only (``P = 1/2`` in the first);
  **calibration** the same probabilities binned (:func:`quality.metrics.reliability`).
- **Subsets**: ``all``; ``rated``, both players played an earlier tournament;
  ``unchanged`` and ``changed``: rated, and neither / at least one declared grade differs from
  the grade the player declared in their last tournament.
- **Difference** to ``grade`` in points of games right on the same games, and of log loss, with
  95% intervals from a bootstrap over tournaments (:data:`RESAMPLES` draws from a fixed seed).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from . import metrics
from .evaluate import CALIBRATION_BINS, _aligned, _number, score_to_dict
from .real import _slope

__all__ = [
    "GO_BASELINES",
    "GO_SCHEMES",
    "GoReport",
    "GoScore",
    "SUBSETS",
    "evaluate_go",
    "evaluate_go_warehouse",
    "format_go",
    "go_report_from_dict",
    "go_report_to_dict",
]

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

GRADE = "grade"
STATED = "stated rating"
GO_BASELINES = (GRADE, STATED)
LIST_ONLY = " (list only)"

GO_SCHEMES: tuple[str, ...] = ("grade-evidence", "rfg", "egf", "glicko2", "rfg-bootstrap",
                               "elo")
"""The go schemes :func:`evaluate_go` compares unless told otherwise."""

SUBSETS: dict[str, str] = {
    "all": "every game (a player without an earlier tournament at the grade declared)",
    "rated": "both players played an earlier tournament",
    "unchanged": "rated, neither declared grade changed since the player's last tournament",
    "changed": "rated, a declared grade changed since the player's last tournament",
}
KINDS = ("even", "handicap")
RESAMPLES = 2000


@dataclass(frozen=True)
class GoScore:
    """One scheme (or baseline) on one subset of one kind of game."""

    scheme: str
    subset: str
    kind: str
    games: int
    accuracy: float
    log_loss: float
    difference: float
    """Games right minus the grade baseline's, in percentage points (NaN for the baseline)."""
    low: float
    high: float
    loss_difference: float
    """Log loss minus the grade baseline's (negative: better)."""
    loss_low: float
    loss_high: float
    calibration: metrics.Reliability | None = None


@dataclass(frozen=True)
class GoReport:
    source: str
    first_date: str
    last_date: str
    tournaments: int
    games: int
    handicap_games: int
    jigo: int
    players: int
    stated: int
    """Games where the files state a rating for both players."""
    constants: tuple[tuple[str, str], ...]
    """The learned constants used for each year (year, constants) of a learning scheme."""
    rows: tuple[GoScore, ...]
    seconds: tuple[tuple[str, float], ...]
    refused: tuple[tuple[str, str], ...] = ()
    """Schemes that refused the archive, with their message (not scored)."""


# --- games ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Games:
    frame: pd.DataFrame
    tournament: npt.NDArray[np.intp]
    """Per game, the tournament's place in the order they began."""
    order: list[str]
    grade_b: Floats
    grade_w: Floats
    h: Floats
    y: Floats
    rated: Bools
    changed: Bools
    year: npt.NDArray[np.int64]
    """Per tournament, the year it began."""


def _prepare(games: pd.DataFrame) -> _Games:
    from ratings import InputError
    from ratings._go import declared_rating, handicap_points

    frame = games.reset_index(drop=True)
    dates = pd.to_datetime(frame["date"])
    first = dates.groupby(frame["period"]).min()
    labels = sorted(first.index, key=lambda label: (first[label], label))
    place = {label: at for at, label in enumerate(labels)}
    tournament = frame["period"].map(place).to_numpy(np.intp)

    def rating(texts: pd.Series, column: str) -> Floats:
        values = {}
        for text in texts.unique():
            try:
                values[text] = declared_rating(text, column) if text else math.nan
            except (InputError, ValueError):
                values[text] = math.nan
        return texts.map(values).to_numpy(np.float64)

    grade_b = rating(frame["rank"].astype(str), "rank")
    grade_w = rating(frame["opponent_rank"].astype(str), "opponent_rank")
    # each player's tournaments in order: rated (an earlier one) and grade changed
    sides = pd.DataFrame({
        "player": np.concatenate([frame["player"], frame["opponent"]]).astype(str),
        "t": np.concatenate([tournament, tournament]),
        "grade": np.concatenate([grade_b, grade_w]),
    })
    per = sides.groupby(["player", "t"], sort=True)["grade"].max().reset_index()
    per["first"] = per.groupby("player")["t"].transform("min")
    per["previous"] = per.groupby("player")["grade"].transform(
        lambda g: g.ffill().shift(1))
    per["changed"] = (per["grade"].notna() & per["previous"].notna()
                      & (per["grade"] != per["previous"]))
    key = pd.MultiIndex.from_frame(per[["player", "t"]])
    old = pd.Series((per["t"] > per["first"]).to_numpy(), index=key)
    moved = pd.Series(per["changed"].to_numpy(), index=key)

    def look(series: pd.Series, column: str) -> Bools:
        index = pd.MultiIndex.from_arrays([frame[column].astype(str), tournament])
        return series.reindex(index).to_numpy(bool)

    rated = look(old, "player") & look(old, "opponent")
    changed = rated & (look(moved, "player") | look(moved, "opponent"))
    h = handicap_points(frame["handicap"].to_numpy(np.float64))
    # black receives the handicap: h counts for the side written black
    h = np.where(frame["colour"].astype(str).str.lower().str.startswith("w"), -h, h)
    year = np.array([first[label].year for label in labels], dtype=np.int64)
    return _Games(frame, tournament, labels, grade_b, grade_w, h,
                  frame["result"].to_numpy(np.float64), rated, changed, year)


# --- ratings before each tournament -----------------------------------------------------------


def _before(run_ratings: pd.DataFrame, g: _Games, scheme: Any, *,
            list_only: bool = False) -> tuple[Floats, Floats]:
    """Black's and white's rating before each game's tournament (module docstring, Lists)."""
    r = run_ratings
    key = r["period"].astype(str) + "\x1f" + r["player"].astype(str)
    before = pd.Series(r["rating_before"].to_numpy(np.float64), index=key.to_numpy())
    # the list after the player's previous period: the rating of the row before in the player's
    # own sequence (rows are sorted by period in rating order)
    after = r.groupby(r["player"].astype(str), sort=False)["rating"].shift(1)
    previous = pd.Series(after.to_numpy(np.float64), index=key.to_numpy())
    entry = float(getattr(scheme.defaults, "entry_rating",
                          getattr(scheme.defaults, "initial", math.nan)))
    sides = []
    for column, grade in (("player", g.grade_b), ("opponent", g.grade_w)):
        k = (g.frame["period"].astype(str) + "\x1f" + g.frame[column].astype(str)).to_numpy()
        value = before.reindex(k).to_numpy(np.float64)
        last = previous.reindex(k).to_numpy(np.float64)
        newcomer = np.isnan(last)
        if list_only:
            value = np.where(newcomer, value, last)
        elif scheme.entry_from_games:
            # the start of a newcomer, never the entry the tournament's own games give
            value = np.where(newcomer, np.where(np.isnan(grade), entry, grade), value)
        sides.append(value)
    return sides[0], sides[1]


def _scheme_ratings(name: str, g: _Games) -> tuple[list[tuple[Floats, Floats, str]],
                                                  list[tuple[str, str]]]:
    """Per row name (the scheme, and its list-only row), black's and white's ratings; the
    constants learned per year."""
    import ratings

    scheme = ratings.SCHEMES[name]
    games = g.frame
    learns = getattr(scheme.defaults, "learn", "off") == "on"
    if not learns:
        run = scheme.rate(games, scheme.defaults)
        out = [(*_before(run.ratings, g, scheme), name)]
        if scheme.grades_as_evidence:
            out.append((*_before(run.ratings, g, scheme, list_only=True), name + LIST_ONLY))
        return out, []
    from ratings._grade import learn_grade_evidence

    fixed = dataclasses.replace(scheme.defaults, learn="off")
    b, w = np.full(len(games), np.nan), np.full(len(games), np.nan)
    lb, lw = b.copy(), w.copy()
    constants: list[tuple[str, str]] = []
    params = fixed
    for year in np.unique(g.year):
        periods = np.flatnonzero(g.year == year)
        earlier = g.tournament < periods[0]
        params = learn_grade_evidence(games[earlier], params) if earlier.any() else fixed
        constants.append((str(year), f"grade_sd {params.grade_sd:g}, drift {params.drift:g}, "
                                     f"slope {params.slope:g}"))
        upto = g.tournament <= periods[-1]
        run = scheme.rate(games[upto], params)
        now = np.isin(g.tournament, periods)
        sub = dataclasses.replace(g, frame=games[upto].reset_index(drop=True),
                                  grade_b=g.grade_b[upto], grade_w=g.grade_w[upto])
        x, y = _before(run.ratings, sub, scheme)
        lx, ly = _before(run.ratings, sub, scheme, list_only=True)
        inside = now[upto]
        b[now], w[now] = x[inside], y[inside]
        lb[now], lw[now] = lx[inside], ly[inside]
    return [(b, w, name), (lb, lw, name + LIST_ONLY)], constants


# --- scoring ----------------------------------------------------------------------------------


def _fitted(diff: Floats, tournament: npt.NDArray[np.intp], keep: Bools) -> Floats:
    """``P(black wins)`` from a logistic on ``diff``, its slope fitted before every tournament
    on the decided games of the earlier tournaments only."""
    p = np.full(len(diff), 0.5)
    signed = np.where(keep, diff, 0.0)
    for t in np.unique(tournament):
        earlier = keep & (tournament < t)
        slope = _slope(signed[earlier]) if earlier.any() else 0.0
        now = tournament == t
        p[now] = 1.0 / (1.0 + np.exp(-np.clip(slope * diff[now], -700, 700)))
    return p


def _interval(values: Floats, base: Floats, tournament: npt.NDArray[np.intp],
              seed: int, scale: float) -> tuple[float, float, float]:
    """``scale`` times the mean of ``values - base`` and its 95% bootstrap interval over
    tournaments."""
    if not len(values):
        return math.nan, math.nan, math.nan
    codes, inverse = np.unique(tournament, return_inverse=True)
    sums = np.bincount(inverse, weights=values - base, minlength=len(codes))
    counts = np.bincount(inverse, minlength=len(codes)).astype(float)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(codes), size=(RESAMPLES, len(codes)))
    ratio = sums[draws].sum(axis=1) / np.maximum(counts[draws].sum(axis=1), 1.0)
    low, high = np.percentile(ratio, [2.5, 97.5])
    return (scale * float(sums.sum() / counts.sum()), scale * float(low),
            scale * float(high))


def _score_rows(name: str, diff: Floats, usable: Bools, g: _Games,
                grade: tuple[Floats, Floats], seed: int) -> tuple[list[GoScore],
                                                                  tuple[Floats, Floats]]:
    decided = g.y != 0.5
    keep = usable & decided
    p = _fitted(diff, g.tournament, keep)
    right = np.where(diff > 0, g.y, np.where(diff < 0, 1.0 - g.y, 0.5))
    q = np.clip(p, 1e-12, 1 - 1e-12)
    loss = -(g.y * np.log(q) + (1.0 - g.y) * np.log(1.0 - q))
    rows = []
    even = g.h == 0
    for kind, of_kind in (("even", even), ("handicap", ~even)):
        for subset in SUBSETS:
            chosen = keep & of_kind & _subset(g, subset)
            n = int(chosen.sum())
            if not n:
                continue
            base_right, base_loss = grade
            t = g.tournament[chosen]
            if name == GRADE:
                diff_ = (math.nan, math.nan, math.nan)
                ldiff = (math.nan, math.nan, math.nan)
            else:
                diff_ = _interval(right[chosen], base_right[chosen], t, seed, 100.0)
                ldiff = _interval(loss[chosen], base_loss[chosen], t, seed, 1.0)
            rows.append(GoScore(
                scheme=name, subset=subset, kind=kind, games=n,
                accuracy=float(right[chosen].mean()), log_loss=float(loss[chosen].mean()),
                difference=diff_[0], low=diff_[1], high=diff_[2],
                loss_difference=ldiff[0], loss_low=ldiff[1], loss_high=ldiff[2],
                calibration=metrics.reliability(p[chosen], g.y[chosen],
                                                bins=CALIBRATION_BINS)))
    return rows, (right, loss)


def _subset(g: _Games, subset: str) -> Bools:
    if subset == "all":
        return np.ones(len(g.y), dtype=bool)
    if subset == "rated":
        return g.rated
    if subset == "changed":
        return g.changed
    return g.rated & ~g.changed


def evaluate_go(games: pd.DataFrame, schemes: Sequence[str] = GO_SCHEMES, *,
                source: str = "", seed: int = 1) -> GoReport:
    """Every scheme and baseline scored on a real go games frame (module docstring); ``games``
    is the go schemes' games frame with ``period`` one tournament, and optional ``rating`` /
    ``opponent_rating`` columns (the ratings the files state)."""
    from ratings import RatingError

    if games.empty:
        raise ValueError("no go games")
    g = _prepare(games)
    # the grade baseline first: every scheme is compared with it on the same games
    grade_diff = np.nan_to_num(g.grade_b) + g.h - np.nan_to_num(g.grade_w)
    graded = ~np.isnan(g.grade_b) & ~np.isnan(g.grade_w)
    # a game without both grades is predicted half by the grade (no favourite)
    grade_diff = np.where(graded, grade_diff, 0.0)
    everything = np.ones(len(g.y), dtype=bool)
    base_rows, base = _score_rows(GRADE, grade_diff, everything, g, (g.y, g.y), seed)
    rows = list(base_rows)
    stated_count = 0
    if {"rating", "opponent_rating"} <= set(games.columns):
        sb = pd.to_numeric(g.frame["rating"], errors="coerce").to_numpy(np.float64)
        sw = pd.to_numeric(g.frame["opponent_rating"], errors="coerce").to_numpy(np.float64)
        stated = ~np.isnan(sb) & ~np.isnan(sw)
        stated_count = int(stated.sum())
        if stated_count:
            found, _ = _score_rows(STATED, np.where(stated, sb + g.h - sw, 0.0), stated, g,
                                   base, seed)
            rows += found
    constants: list[tuple[str, str]] = []
    seconds: list[tuple[str, float]] = []
    refused: list[tuple[str, str]] = []
    for name in schemes:
        begin = time.perf_counter()
        try:
            predicted, learned = _scheme_ratings(name, g)
        except RatingError as exc:  # the scheme cannot rate this archive: said, not scored
            refused.append((name, str(exc)))
            continue
        constants += [(f"{name} {year}", text) for year, text in learned]
        for b, w, row in predicted:
            diff = b + g.h - w
            found, _ = _score_rows(row, np.nan_to_num(diff), everything, g, base, seed)
            rows += found
        seconds.append((name, time.perf_counter() - begin))
    dates = pd.to_datetime(g.frame["date"])
    players = pd.concat([g.frame["player"], g.frame["opponent"]]).astype(str).nunique()
    return GoReport(
        source=source, first_date=str(dates.min().date()), last_date=str(dates.max().date()),
        tournaments=len(g.order), games=len(g.y), handicap_games=int((g.h != 0).sum()),
        jigo=int((g.y == 0.5).sum()), players=int(players), stated=stated_count,
        constants=tuple(constants), rows=tuple(rows), seconds=tuple(seconds),
        refused=tuple(refused))


def evaluate_go_warehouse(path: Path | str, schemes: Sequence[str] = GO_SCHEMES, *,
                          seed: int = 1) -> GoReport:
    """:func:`evaluate_go` on the go games of the warehouse at ``path`` (opened read-only)."""
    from warehouse import go_judge_frame, open_warehouse

    with open_warehouse(path, read_only=True) as wh:
        games, name = go_judge_frame(wh)
    return evaluate_go(games, schemes, source=name or Path(path).name, seed=seed)


# --- table ------------------------------------------------------------------------------------


def format_go(report: GoReport) -> str:
    """The report as text: a headline and one table per kind of game and subset."""
    lines = [
        f"Real go games, {report.source}: {report.tournaments} tournaments "
        f"({report.first_date} .. {report.last_date}), {report.games} games "
        f"({report.handicap_games} with handicap, {report.jigo} jigo left out), "
        f"{report.players} players; {report.stated} games with a stated rating for both",
        "Prediction: every game from the lists before its tournament; difference to "
        f"{GRADE!r} (the stronger declared grade wins) in points of games right and in log "
        "loss, 95% intervals over tournaments; log loss of a logistic fitted on earlier "
        "tournaments",
    ]
    header = ["scheme", "games", "right", "log loss", "difference", "95% interval",
              "loss diff.", "95% interval", "ECE"]
    for kind in KINDS:
        for subset, title in SUBSETS.items():
            chosen = [r for r in report.rows if r.kind == kind and r.subset == subset]
            if not chosen:
                continue
            body = []
            for r in chosen:
                body.append([
                    r.scheme, str(r.games), _number(100 * r.accuracy, 1),
                    _number(r.log_loss, 4),
                    "—" if math.isnan(r.difference) else f"{r.difference:+.1f}",
                    "—" if math.isnan(r.low) else f"{r.low:+.1f} .. {r.high:+.1f}",
                    "—" if math.isnan(r.loss_difference) else f"{r.loss_difference:+.4f}",
                    "—" if math.isnan(r.loss_low)
                    else f"{r.loss_low:+.4f} .. {r.loss_high:+.4f}",
                    "—" if r.calibration is None else _number(r.calibration.ece, 3),
                ])
            lines += ["", f"{kind} games, {subset}: {title}", "", *_aligned(header, body)]
    lines += [f"{name}: not scored, it refuses this archive: {why}"
              for name, why in report.refused]
    if report.constants:
        # every fifth year and the last: the whole list is in the JSON
        shown = [(year, text) for at, (year, text) in enumerate(report.constants)
                 if year.endswith(("0", "5")) or at == len(report.constants) - 1]
        lines += ["", "Constants learned at each year's start from the earlier tournaments "
                      "(years ending in 0 or 5, and the last):"]
        lines += [f"  {year}: {text}" for year, text in shown]
    return "\n".join(lines)


def go_report_to_dict(report: GoReport) -> dict[str, object]:
    """The report as plain JSON values (NaN as ``None``)."""
    head = {f.name: getattr(report, f.name) for f in dataclasses.fields(GoReport)
            if f.name not in ("rows", "constants", "seconds", "refused")}
    return {**head, "constants": [list(c) for c in report.constants],
            "seconds": [list(s) for s in report.seconds],
            "refused": [list(r) for r in report.refused],
            "rows": [score_to_dict(row) for row in report.rows]}


def go_report_from_dict(data: dict[str, Any]) -> GoReport:
    """Inverse of :func:`go_report_to_dict` (``None`` numbers come back as NaN)."""
    def row(item: dict[str, Any]) -> GoScore:
        values = {k: (math.nan if v is None else v) for k, v in item.items()
                  if k != "calibration"}
        bins = item.get("calibration")
        return GoScore(**values, calibration=None if bins is None
                       else metrics.Reliability.from_dict(bins))

    head = {f.name: data[f.name] for f in dataclasses.fields(GoReport)
            if f.name not in ("rows", "constants", "seconds", "refused")}
    return GoReport(**head, rows=tuple(row(r) for r in data["rows"]),
                    constants=tuple((str(a), str(b)) for a, b in data["constants"]),
                    seconds=tuple((str(a), float(b)) for a, b in data["seconds"]),
                    refused=tuple((str(a), str(b)) for a, b in data.get("refused", [])))
