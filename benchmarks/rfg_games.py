"""RFG over a generated go history: wall time and peak memory, with EGF and Glicko-2 beside it.

Generates ``--games`` games (default 1,000,000) of a national go federation over ``--years``
years (default 20) with :func:`generate_games`: players with a latent strength on the RFG scale
(docs/rules/go-rfg.md "Scale") who enter and leave, tournaments of 4-7 rounds (mostly 5) of 8 to
about 100 players drawn from the players active that month, each round pairing players of
nearby strength, results drawn from the strength difference, and a minority of handicap
tournaments (the stronger player gives one stone per declared grade of difference). Every game
is one row from a random side, with the declared grades (``rank``, ``opponent_rank``) the
first entry of docs/rules/go-rfg.md reads.

The period of every scheme is the calendar month (``--period month``, the default; the spec
allows "a time interval") or the tournament (``--period tournament``, as the RFG rates
tournaments). Then it times, on the same frame,

- ``ratings.rate("rfg", games, options={})`` (the full RFG, default options);
- ``ratings.rate("egf", ...)`` and ``ratings.rate("glicko2", ...)`` (the baselines).

    python benchmarks/rfg_games.py [--games 1000000] [--players N] [--years 20] [--seed 1]
                                   [--period month|tournament] [--schemes rfg,egf,glicko2]
                                   [--tournament-games 100000,300000] [--repeat 1]
                                   [--peak rss|tracemalloc|none] [--json FILE]

The main case rates ``--games`` games with one period per calendar month (240 periods). One
period per tournament is impractical at that size: every scheme carries every rated player
into every period's ratings rows, so time and memory grow with periods x players, i.e. about
with the square of the games (300,000 games: 4,600 tournaments, 23 million rating rows, over
1 minute and 4 GB). So RFG per tournament is timed at ``--tournament-games`` sizes and the
printed scaling exponent extrapolates it to 1,000,000 games.

Wall time is the best of ``--repeat`` runs. Peak memory (``--peak``): by default the growth of
the resident set during the timed run itself, run in a forked child (``VmHWM`` minus the
``VmRSS`` before it); ``tracemalloc`` measures as ``benchmarks/belo_history.py`` (one more,
separate run under tracemalloc), but slows these per-period pandas loops about five times. The
target (5 minutes a scheme) is printed, not asserted. Linux only (``fork``, ``/proc``).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np
import numpy.typing as npt
import pandas as pd

import ratings
from benchmarks.run_all import result_row, tracemalloc_peak, write_json

__all__ = ["generate_games", "main"]

Ints: TypeAlias = npt.NDArray[np.int64]
Floats: TypeAlias = npt.NDArray[np.float64]

TARGET_SECONDS = 300.0
"""A full recompute of one scheme should take at most 5 minutes."""

SCHEMES = ("rfg", "egf", "glicko2")
PEAK_TEXT = {
    "rss": "resident-set growth of the timed run (in a forked child)",
    "tracemalloc": "tracemalloc peak of one separate run",
    "none": "not measured",
}
START = np.datetime64("2005-01-01", "D")
"""First day of every generated history."""

ROUNDS = np.array([4, 5, 6, 7])
ROUND_SHARE = np.array([0.2, 0.55, 0.15, 0.1])
HANDICAP_SHARE = 0.15
"""Share of the tournaments played with handicap."""
RESULT_SCALE = 120.0
"""Logistic scale of a game's result in rating points: 100 points (one grade) ahead wins ~70 %."""
JIGO_SHARE = 0.003


def _grade_labels() -> npt.NDArray[np.object_]:
    # docs/rules/go-rfg.md "Scale": step 0 (rating 0) = 21 kyu, step 20 = 1 kyu, 21 = 1 dan .. 29 = 9 dan.
    return np.array([f"{s - 20}d" if s >= 21 else f"{21 - s}k" for s in range(30)], dtype=object)


def _players(rng: np.random.Generator, players: int, months: int) -> tuple[Floats, Ints, Ints]:
    """Latent strength (RFG points, mean 6 kyu) and the active months ``[first, last)``."""
    strength = np.clip(rng.normal(1500.0, 450.0, players), 0.0, 2800.0)
    # A third is there from the start, the others enter at a uniform month; each plays for
    # about six years (at least one), some to the end.
    first = np.where(rng.random(players) < 1 / 3, 0, rng.integers(0, months, players))
    span = 12 + (rng.exponential(60.0, players)).astype(np.int64)
    last = np.minimum(first + span, months)
    return strength, first.astype(np.int64), last.astype(np.int64)


def _rosters(rng: np.random.Generator, first: Ints, last: Ints, months: int,
             ) -> tuple[Ints, Ints, Ints]:
    """Per month the active players in a random order: players, start and size per month."""
    spans = last - first
    player = np.repeat(np.arange(len(spans)), spans)
    month = first[player] + np.arange(len(player)) - np.repeat(np.cumsum(spans) - spans, spans)
    order = np.lexsort((rng.random(len(player)), month))
    size = np.bincount(month, minlength=months)
    return player[order], np.cumsum(size) - size, size


def _tournaments(rng: np.random.Generator, games: int, years: int, roster_size: Ints,
                 ) -> tuple[npt.NDArray[np.datetime64], Ints, Ints, Ints, npt.NDArray[np.bool_]]:
    """Dates (sorted), months, sizes, rounds and handicap flags of the fewest tournaments that
    hold ``games`` games; a tournament is never larger than its month's roster."""
    end = np.datetime64(f"{START.astype(object).year + years}-01-01", "D")
    days = int((end - START).astype(np.int64))
    count = max(games // 60, 4)
    while True:
        date = np.sort(START + rng.integers(0, days, count).astype("timedelta64[D]"))
        month = np.minimum((date.astype("datetime64[M]") - START.astype("datetime64[M]"))
                           .astype(np.int64), len(roster_size) - 1)
        size = 8 + np.minimum(rng.exponential(18.0, count), 92).astype(np.int64)
        size = np.minimum(size, roster_size[month])  # 0 or 1: no games that month
        rounds = rng.choice(ROUNDS, size=count, p=ROUND_SHARE)
        total = np.cumsum((size // 2) * rounds)
        if total[-1] >= games:
            break
        count *= 2
    # Keep the tournaments up to the one holding the last game, spread over the whole history.
    need = int(np.searchsorted(total, games)) + 1
    keep = np.sort(rng.choice(count, need, replace=False))
    while int(((size[keep] // 2) * rounds[keep]).sum()) < games:
        keep = np.sort(np.r_[keep, rng.choice(np.setdiff1d(np.arange(count), keep), 1)])
    handicap = rng.random(len(keep)) < HANDICAP_SHARE
    return date[keep], month[keep], size[keep], rounds[keep], handicap


def _fields(rng: np.random.Generator, month: Ints, size: Ints, roster: Ints, start: Ints,
            roster_size: Ints) -> tuple[Ints, Ints]:
    """Tournament and player of every seat: a run of the month's shuffled roster."""
    tour = np.repeat(np.arange(len(size)), size)
    seat = np.arange(len(tour)) - np.repeat(np.cumsum(size) - size, size)
    offset = rng.integers(0, 1 << 40, len(size))[tour]
    m = month[tour]
    position = start[m] + (offset + seat) % np.maximum(roster_size[m], 1)
    return tour, roster[position]


def _pairings(rng: np.random.Generator, tour: Ints, player: Ints, key: Floats,
              rounds: Ints) -> tuple[Ints, Ints, Ints]:
    """Each round pairs neighbours by strength plus noise within the tournament (odd: a bye)."""
    t_out, a_out, b_out = [], [], []
    for r in range(int(rounds.max())):
        # Whole tournaments play round r or not, so positions restart at 0 in each of them.
        playing = rounds[tour] > r
        t, pl = tour[playing], player[playing]
        noisy = key[playing] + rng.normal(0.0, 150.0, len(t))
        order = np.lexsort((noisy, t))
        t, pl = t[order], pl[order]
        counts = np.bincount(t)
        pos = np.arange(len(t)) - (np.cumsum(counts) - counts)[t]
        first = np.flatnonzero((pos % 2 == 0) & (pos + 1 < counts[t]))
        t_out.append(t[first])
        a_out.append(pl[first])
        b_out.append(pl[first + 1])
    # Round by round, then tournament by tournament: rows come in playing order.
    t, a, b = np.concatenate(t_out), np.concatenate(a_out), np.concatenate(b_out)
    order = np.argsort(t, kind="stable")
    return t[order], a[order], b[order]


def generate_games(games: int = 1_000_000, players: int | None = None, years: int = 20,
                   seed: int = 1, period: str = "tournament") -> pd.DataFrame:
    """A go games frame (``ratings.GAMES_COLUMNS`` plus date and declared grades) of exactly
    ``games`` rows, the same for the same arguments.

    ``players`` defaults to ``games // 40`` (at least 40): each player plays about 80 games over
    the history. ``period`` labels each game with its tournament (``T000001``, numbered by
    date) or its month (``2005-01``).
    """
    rng = np.random.default_rng(seed)
    players = max(players if players is not None else games // 40, 40)
    months = 12 * years
    strength, first, last = _players(rng, players, months)
    roster, start, roster_size = _rosters(rng, first, last, months)
    date, month, size, rounds, handicap_tour = _tournaments(rng, games, years, roster_size)
    tour, player = _fields(rng, month, size, roster, start, roster_size)
    # Declared grade: the latent strength seen with an error of about a grade.
    step = np.clip(np.floor((strength + rng.normal(0.0, 80.0, players)) / 100.0 + 0.5), 0, 29)
    step = step.astype(np.int64)
    t, a, b = _pairings(rng, tour, player, strength[player], rounds)
    t, a, b = t[:games], a[:games], b[:games]
    n = len(t)
    # The pairing lists the weaker first; each game is written from a random side.
    swap = rng.random(n) < 0.5
    a, b = np.where(swap, b, a), np.where(swap, a, b)

    # Handicap tournaments: the stronger by declared grade gives one stone a grade (at most 9)
    # and takes white; even games have a random colour.
    gap = step[a] - step[b]
    stones = np.where(handicap_tour[t], np.minimum(np.abs(gap), 9), 0)
    a_white = np.where(stones > 0, gap > 0, rng.random(n) < 0.5)
    # docs/rules/go-rfg.md "Win probability": a handicap of F stones is worth 100 (F - 0.5) points to
    # black; the result is drawn from the handicap-adjusted strength difference.
    h = np.where(stones >= 1, 100.0 * (stones - 0.5), 0.0)
    diff = strength[a] - strength[b] + np.where(a_white, -h, h)
    win = rng.random(n) < 1.0 / (1.0 + np.exp(-diff / RESULT_SCALE))
    result = np.where(rng.random(n) < JIGO_SHARE, 0.5, win.astype(np.float64))

    labels = _grade_labels()
    day = date[t]
    if period == "tournament":
        width = len(str(len(date)))
        names = np.array([f"T{i:0{width}d}" for i in range(len(date))], dtype=object)
        label = names[t]
    elif period == "month":
        label = np.datetime_as_string(day.astype("datetime64[M]"), unit="M").astype(object)
    else:
        raise ValueError(f"period must be 'tournament' or 'month', not {period!r}")
    ids = np.array([f"G{i:06d}" for i in range(players)], dtype=object)
    return pd.DataFrame({
        "period": label,
        "date": pd.to_datetime(day).astype("datetime64[us]"),
        "player": ids[a],
        "opponent": ids[b],
        "result": result,
        "handicap": stones.astype(np.int64),
        "colour": np.where(a_white, "w", "b").astype(object),
        "rank": labels[step[a]],
        "opponent_rank": labels[step[b]],
    })


# --- measuring --------------------------------------------------------------------------------


def _memory_mib(field: str) -> float:
    """``VmRSS`` / ``VmHWM`` of this process from ``/proc/self/status``, in MiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"{field} not in /proc/self/status")


def _in_fork(run: Callable[[], Any]) -> tuple[float, float]:
    """Wall time of ``run`` in a forked child, and its resident-set growth: the child's high
    water mark (``VmHWM``, which starts at the RSS inherited at the fork) minus its RSS before
    ``run``. The parent's memory is untouched, so every scheme starts from the same state."""
    sys.stdout.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, report, leave without running any exit handler
        os.close(read)
        try:
            before = _memory_mib("VmRSS")
            start = time.perf_counter()
            run()
            seconds = time.perf_counter() - start
            os.write(write, f"{seconds} {_memory_mib('VmHWM') - before}".encode())
            code = 0
        except BaseException as exc:  # noqa: BLE001 - reported to the parent below
            os.write(write, f"error {type(exc).__name__}: {exc}".encode())
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    if not message or message.startswith("error"):
        raise RuntimeError(f"the measured run failed: {message or 'no report'}")
    seconds, growth = (float(x) for x in message.split())
    return seconds, growth


def measure(run: Callable[[], Any], repeat: int, peak: str) -> tuple[float, float | None]:
    """Best wall time of ``repeat`` calls of ``run`` and the peak memory in MiB by ``peak``:

    ``rss``: each call in a forked child, peak = its resident-set growth (largest of the
    calls); ``tracemalloc``: as ``benchmarks/belo_history.py``, one more, separate call under
    tracemalloc; ``none``: no peak.
    """
    if peak == "rss":
        runs = [_in_fork(run) for _ in range(repeat)]
        return min(r[0] for r in runs), max(r[1] for r in runs)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best, tracemalloc_peak(run) / 2**20 if peak == "tracemalloc" else None


def _size(frame: pd.DataFrame) -> str:
    return (f"{len(frame):,} games, {frame['period'].nunique():,} periods, "
            f"{pd.concat([frame['player'], frame['opponent']]).nunique():,} players")


def _measure(frame: pd.DataFrame, case: str, schemes: list[str], args: argparse.Namespace,
             ) -> list[dict[str, Any]]:
    """Time (and trace) each scheme on ``frame``; print one line each; the result rows."""
    rows = []
    size = _size(frame)
    print(f"\n{case}: {size}")
    for scheme in schemes:
        def run(s: str = scheme) -> Any:
            return ratings.rate(s, frame, options={})

        seconds, peak = measure(run, args.repeat, args.peak)
        verdict = "within" if seconds <= TARGET_SECONDS else "ABOVE"
        shown = "" if peak is None else f"  peak {peak:7.0f} MiB"
        print(f"  {scheme:<8} {seconds:8.2f} s{shown}  {len(frame) / seconds:10,.0f} games/s"
              f"  ({verdict} the {TARGET_SECONDS / 60:g} min target)")
        rows.append(result_row(
            "rfg_games", f"{scheme}, per {case}", size, seconds, peak,
            target=f"≤ {TARGET_SECONDS / 60:g} min",
            note=f"{len(frame) / seconds:,.0f} games/s"))
    return rows


def _slope(points: list[tuple[int, float]]) -> float:
    """Log-log slope between the first and the last ``(games, value)`` point."""
    (g0, v0), (g1, v1) = points[0], points[-1]
    return float(np.log(v1 / v0) / np.log(g1 / g0))


def _scaling(rows: list[dict[str, Any]]) -> None:
    """Print how the time (and peak) of each case grows with the number of games: the
    log-log slope between the smallest and the largest size, extrapolated to 1,000,000 games.
    Every row of the case gets the exponents in its note, the largest the extrapolation."""
    cases: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        cases.setdefault(row["case"], []).append(row)
    for case, group in cases.items():
        if len(group) < 2:
            continue
        games = [int(r["size"].split(" games")[0].replace(",", "")) for r in group]
        last = group[-1]
        time_slope = _slope(list(zip(games, [r["seconds"] for r in group], strict=True)))
        minutes = last["seconds"] * (1e6 / games[-1]) ** time_slope / 60
        scaling = f"time ~ games^{time_slope:.2f}"
        at_million = f"1M games ≈ {minutes:.0f} min"
        if all(r["peak_mib"] for r in group):
            mem_slope = _slope(list(zip(games, [r["peak_mib"] for r in group], strict=True)))
            scaling += f", peak ~ games^{mem_slope:.2f}"
            at_million += f", {last['peak_mib'] * (1e6 / games[-1]) ** mem_slope / 1024:.0f} GiB"
        print(f"  {case}: {scaling}; extrapolated: {at_million}")
        for row in group:
            row["note"] += f"; {scaling}"
        last["note"] += f"; {at_million}"


def main(argv: list[str] | None = None) -> None:
    """Command line: generate the history, rate it with each scheme, print the timings."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000,
                    help="games of the main case (default 1,000,000)")
    ap.add_argument("--players", type=int, default=None,
                    help="players in the federation (default games // 40)")
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--period", choices=("month", "tournament"), default="month",
                    help="period of the main case (default month)")
    ap.add_argument("--tournament-games", default="100000,300000",
                    help="comma-separated sizes at which RFG is also timed with one period "
                    "per tournament ('' to skip)")
    ap.add_argument("--schemes", default=",".join(SCHEMES))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--peak", choices=("rss", "tracemalloc", "none"), default="rss",
                    help="how peak memory is measured (default rss: resident-set growth of "
                    "the timed run in a forked child)")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args(argv)
    schemes = [s for s in args.schemes.split(",") if s]

    start = time.perf_counter()
    frame = generate_games(args.games, args.players, args.years, args.seed, args.period)
    print(f"generated in {time.perf_counter() - start:.2f} s "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"handicap games {(frame['handicap'] > 0).mean():.1%}, jigo "
          f"{(frame['result'] == 0.5).mean():.1%}; wall time best of {args.repeat}, peak = "
          f"{PEAK_TEXT[args.peak]}")
    rows = _measure(frame, args.period, schemes, args)
    del frame

    scaling: list[dict[str, Any]] = []
    for games in (int(g) for g in args.tournament_games.split(",") if g.strip()):
        frame = generate_games(games, None, args.years, args.seed, "tournament")
        scaling += _measure(frame, "tournament", ["rfg"], args)
        del frame
    _scaling(scaling)
    rows += scaling

    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"process peak RSS (ru_maxrss, whole script) {maxrss / 2**10:.0f} MiB; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
