"""WHR (docs/rules/bridge-whr.md) on the 10-year national bridge history, next to BELO2.

Generates the history of ``belo_history.py`` (``benchmarks/_history.py``: by default 8,000
players in 150 clubs, 120,000 events over 10 years, about 2.5 million player-results) and
measures on this machine, through the scheme registry the pipeline uses
(``flows/_steps.py::rate_pool``: ``scheme.rate`` for a first run, ``scheme.refine`` from the
pool's previous run for the next ones):

- ``belo2``: a full recompute, ``ratings.SCHEMES["belo2"].rate(frame, params)``;
- ``whr`` from scratch: ``ratings.SCHEMES["whr"].rate(frame, params)``;
- ``whr`` nightly refinement: the history without its last week is fitted first (not timed),
  then the whole history is fitted again starting from that run's ratings,
  ``ratings.SCHEMES["whr"].refine(frame, params, warm)`` -- what a nightly run does when a
  week of results has come in.

    python benchmarks/whr_history.py [--players 8000] [--events 120000] [--years 10]
                                     [--clubs 150] [--seed 1] [--repeat 2] [--json FILE]

Wall time is the best of ``--repeat`` runs; peak memory is tracemalloc's peak of one more run,
measured separately, and the process's peak RSS is printed at the end. Targets are printed
next to the numbers; nothing is asserted. ``--json FILE`` also writes the rows
(``benchmarks/run_all.py``).
"""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd

import ratings
from benchmarks.belo_history import best_of, history, history_arguments
from benchmarks.run_all import result_row, tracemalloc_peak, write_json

__all__ = ["main"]

TARGET_SCRATCH = 30.0
TARGET_REFINE = 5.0
TARGET_BYTES = 2 << 30


def main() -> None:
    args = history_arguments(__doc__, repeat=2)
    rows: list[dict[str, Any]] = []
    frame = history(args)
    size = f"{len(frame) / 1e6:.2f}M player-results"

    belo2 = ratings.SCHEMES["belo2"]
    whr = ratings.SCHEMES["whr"]
    assert whr.refine is not None
    refine = whr.refine
    params = whr.defaults

    dates = pd.to_datetime(frame["date"])
    cut = dates.max() - pd.Timedelta(days=6)
    earlier = frame[(dates < cut).to_numpy()]
    week = len(frame) - len(earlier)
    warm = whr.rate(earlier, params).ratings[["period", "player", "rating"]]

    print(f"\nbest of {args.repeat}; peak = tracemalloc peak of one separate run")
    measured = [
        ("belo2, full recompute (default options)", "—",
         lambda: belo2.rate(frame, belo2.defaults), None),
        ("whr from scratch (default options)", f"≤ {TARGET_SCRATCH:.0f} s, ≤ 2 GB",
         lambda: whr.rate(frame, params), TARGET_SCRATCH),
        (f"whr refined after one more week ({week:,} player-results)",
         f"≤ {TARGET_REFINE:.0f} s, ≤ 2 GB",
         lambda: refine(frame, params, warm), TARGET_REFINE),
    ]
    # the Newton steps of each whr case (ratings.fit_whr is what rate and refine run)
    steps = {1: ratings.fit_whr(frame, params), 2: ratings.fit_whr(frame, params, warm=warm)}
    belo2_seconds = 0.0
    for index, (label, target, run, limit) in enumerate(measured):
        seconds, _ = best_of(args.repeat, run)
        peak = tracemalloc_peak(run)
        note = ""
        if index in steps:
            fit = steps[index]
            note = (f"{fit.iterations} Newton steps, "
                    f"{'converged' if fit.converged else 'NOT converged'}, "
                    f"{seconds / belo2_seconds:.1f}x belo2")
        else:
            belo2_seconds = seconds
        verdict = "" if limit is None else ("  ok" if seconds <= limit and
                                            peak <= TARGET_BYTES else "  OVER TARGET")
        print(f"{label:<58} {seconds:7.2f} s  peak {peak / 2**20:7.0f} MiB  {note}{verdict}")
        rows.append(result_row("whr_history", label, size, seconds, peak / 2**20,
                               "" if target == "—" else target, note))
    same = steps[2].run.final.set_index("player")["rating"]
    scratch = steps[1].run.final.set_index("player")["rating"]
    print(f"refine vs scratch: largest difference {float((same - scratch).abs().max()):.2e} "
          "rating points")
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"process peak RSS (ru_maxrss, whole script) {maxrss / 2**10:.0f} MiB; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
