"""How long the command line takes to answer, as a person meets it.

Times, each as a fresh process (best of ``--repeat``):

- ``clubratings --help`` (target: 0.3 s; it imports neither pandas nor Prefect);
- ``clubratings parse`` of a bundled result page, ``clubratings schedule --print-cron``;
- ``bash dev.sh run`` with nothing new (target: 12 s): the project's own main job run once to be
  current, then again, which loads nothing, reuses the rating runs and skips publishing. It
  writes ``data/`` and ``public/`` of this checkout, as ``bash dev.sh run`` always does.

    python benchmarks/cli_latency.py [--repeat 5] [--no-dev-run] [--json FILE]

Nothing is asserted; ``--json FILE`` writes the rows for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import result_row, write_json  # noqa: E402


def _command() -> list[str]:
    exe = Path(sys.executable).parent / "clubratings"
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "cli"]


def best(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-dev-run", action="store_true", help="skip the dev.sh run timing")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args()
    rows = []
    cases = [
        ("clubratings --help", [*_command(), "--help"], "≤ 0.3 s"),
        ("clubratings parse (a JFR page)",
         [*_command(), "parse", str(ROOT / "fixtures/jfr_pary/W-wb130808.html")], ""),
        ("clubratings schedule --print-cron",
         [*_command(), "schedule", "--print-cron", "--config", str(ROOT / "clubratings.toml")],
         ""),
    ]
    for label, argv, target in cases:
        seconds = best(argv, args.repeat)
        print(f"{label:<40} {seconds:6.2f} s  {target}")
        rows.append(result_row("cli_latency", label, "", seconds, target=target))
    if not args.no_dev_run:
        subprocess.run(["bash", str(ROOT / "dev.sh"), "run"], cwd=ROOT, capture_output=True,
                       check=False)  # be current first
        seconds = best(["bash", str(ROOT / "dev.sh"), "run"], 1)
        print(f"{'bash dev.sh run, nothing new':<40} {seconds:6.2f} s  ≤ 12 s")
        rows.append(result_row("cli_latency", "bash dev.sh run, nothing new", "", seconds,
                               target="≤ 12 s"))
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
