"""openskill's Plackett-Luce against BELO2 on the generated national bridge history.

Generates the history of ``benchmarks/belo_history.py`` (``generate_history`` of
``benchmarks/_history.py`` with its default arguments: 8,000 players, 150 clubs, 120,000 events
over 10 years, about 2.5 million player-results), keeps the first ``--events`` events by date
(default: all), and in one run times

- openskill's ``PlackettLuce`` (``openskill.models.PlackettLuce``): every event in date order
  is one ``model.rate(teams, ranks=places)`` call, its units as teams, each player's rating
  carried from their previous event (pure Python, one call per event);
- BELO2 on the same frame: ``ratings.rate("belo2", frame, options={})`` (quarterly periods,
  vectorised).

Both are timed in full: grouping the frame into events counts for openskill, checking and
coding the frame counts for BELO. Prints both wall times and their ratio.

    python benchmarks/openskill_history.py [--events N] [--seed 1] [--peak] [--json FILE]
                                           [--players 8000] [--clubs 150] [--years 10]
                                           [--history-events 120000]

``--events`` cuts the same history short; ``--players``, ``--clubs``, ``--years`` and
``--history-events`` generate another (smaller) history instead, for tests.

``--peak`` adds tracemalloc's peak of one more, separate run of each (slow for openskill: every
Python object is traced). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np
import pandas as pd
from openskill.models import PlackettLuce, PlackettLuceRating

import ratings
from benchmarks._history import generate_history
from benchmarks.run_all import result_row, tracemalloc_peak, write_json

__all__ = ["Events", "first_events", "group_events", "main", "rate_openskill"]


@dataclass(frozen=True, slots=True)
class Events:
    """The frame grouped for a per-event rating loop: per event, its teams and their places.

    ``teams[k]`` lists the units of event ``k`` (in date order) as lists of player ids, and
    ``ranks[k]`` their places (1 = best, ties averaged, as the results frame gives them).
    """

    teams: list[list[list[str]]]
    ranks: list[list[float]]


def first_events(frame: pd.DataFrame, events: int | None) -> pd.DataFrame:
    """The rows of the first ``events`` events by date (then event id); all when None."""
    if events is None:
        return frame
    firsts = frame.groupby("event_id", sort=False)["date"].first()
    order = firsts.reset_index().sort_values(["date", "event_id"], kind="mergesort")
    keep = set(order["event_id"].iloc[:events])
    return frame[frame["event_id"].isin(keep)].reset_index(drop=True)


def group_events(frame: pd.DataFrame) -> Events:
    """Group the results frame by event (date order) and unit (place order)."""
    sort = frame.sort_values(["date", "event_id", "place", "unit"], kind="mergesort")
    event = sort["event_id"].to_numpy()
    unit = sort["unit"].to_numpy()
    player = sort["player"].astype(str).tolist()
    place = sort["place"].to_numpy(np.float64)
    new_event = np.r_[True, event[1:] != event[:-1]]
    new_unit = new_event | np.r_[True, unit[1:] != unit[:-1]]
    unit_starts = np.flatnonzero(new_unit).tolist() + [len(sort)]
    event_of_unit = np.cumsum(new_event)[new_unit] - 1
    teams: list[list[list[str]]] = [[] for _ in range(int(new_event.sum()))]
    ranks: list[list[float]] = [[] for _ in range(len(teams))]
    for u, e in enumerate(event_of_unit.tolist()):
        lo, hi = unit_starts[u], unit_starts[u + 1]
        teams[e].append(player[lo:hi])
        ranks[e].append(float(place[lo]))
    return Events(teams, ranks)


def rate_openskill(frame: pd.DataFrame, model: PlackettLuce | None = None,
                   ) -> dict[str, PlackettLuceRating]:
    """Every event of ``frame`` in date order through ``model.rate``; final rating per player.

    A player's first event starts them at the model's default rating (mu 25, sigma 25/3).
    """
    model = model if model is not None else PlackettLuce()
    grouped = group_events(frame)
    current: dict[str, PlackettLuceRating] = {}
    for teams, ranks in zip(grouped.teams, grouped.ranks, strict=True):
        before = [[current.get(p) or model.rating(name=p) for p in team] for team in teams]
        after = model.rate(before, ranks=ranks)
        for team, rated in zip(teams, after, strict=True):
            for p, r in zip(team, rated, strict=True):
                current[p] = r
    return current


def _timed(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> None:
    """Command line: generate the history, rate it both ways, print the times and ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=None,
                    help="rate only the first N events by date (default: all 120,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=8000)
    ap.add_argument("--clubs", type=int, default=150)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--history-events", type=int, default=120_000,
                    help="events of the generated history (default 120,000, as belo_history)")
    ap.add_argument("--peak", action="store_true",
                    help="also measure tracemalloc's peak in one separate run of each")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args(argv)

    start = time.perf_counter()
    # The same history as benchmarks/belo_history.py (its default arguments).
    frame = first_events(generate_history(
        years=args.years, players=args.players, clubs=args.clubs, events=args.history_events,
        seed=args.seed), args.events)
    events = frame["event_id"].nunique()
    size = f"{events:,} events, {len(frame):,} player-results"
    print(f"generated in {time.perf_counter() - start:.2f} s "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs): {size}, "
          f"{frame['player'].nunique():,} players, {frame['date'].min().date()} to "
          f"{frame['date'].max().date()}")

    def run_belo() -> Any:
        return ratings.rate("belo2", frame, options={})

    def run_openskill() -> Any:
        return rate_openskill(frame)

    belo_s, belo = _timed(run_belo)
    open_s, final = _timed(run_openskill)
    belo_peak = tracemalloc_peak(run_belo) / 2**20 if args.peak else None
    open_peak = tracemalloc_peak(run_openskill) / 2**20 if args.peak else None
    ratio = open_s / belo_s
    rated = len(belo.final)
    print(f"belo2 (ratings.rate, default options)   {belo_s:8.2f} s  {rated:,} players rated")
    print(f"openskill PlackettLuce, event by event   {open_s:8.2f} s  {len(final):,} players "
          f"rated, {events / open_s:,.0f} events/s")
    print(f"openskill / belo2 = {ratio:.1f}x")
    if args.peak:
        print(f"tracemalloc peak: belo2 {belo_peak:.0f} MiB, openskill {open_peak:.0f} MiB")
    write_json(args.json, [
        result_row("openskill_history", "belo2, ratings.rate", size, belo_s, belo_peak,
                   note=f"{rated:,} players rated"),
        result_row("openskill_history", "openskill PlackettLuce, per event", size, open_s,
                   open_peak, note=f"{ratio:.1f}x belo2, {events / open_s:,.0f} events/s"),
    ])


if __name__ == "__main__":
    main()
