"""The whole pipeline on a national-size history, through the path users run.

Simulates the ``national`` preset (``clubratings simulate federation --preset national``: about
2,460 club files, 10,000 events, 283,000 player-results over ten years), writes a project whose
source folder holds those files, then times ``clubratings run`` on it as a separate process,
exactly as cron runs it: the nightly job of the run core (flows/core.py, ``Project.run``: lock,
one warehouse connection, one loader, parsing fanned out over the cores), in the command's own
process because no Prefect server is configured (with one, the same steps run as the Prefect
flow ``pipeline``; ``--prefect`` times that way, Prefect's temporary local server included).
Printed:

- wall time of ``clubratings run`` end to end (target: 60 s on this 2-core machine);
- the time per file of the first and the last tenth of the files, from the run log
  (``data/logs/runs.jsonl``; target: the last tenth at most 1.2 times the first);
- the peak resident memory of the run's processes (target: 1 GB);
- the steps of the run log (ingest, recompute, publish) and a second ``clubratings run`` with
  nothing new;
- with ``--whr``, a second pool rated with WHR: what learning its constants cost (the pool's
  line of the run's output), and that the run with nothing new keeps them.

    python benchmarks/pipeline_national.py [--preset national] [--seed 1] [--keep DIR]
                                           [--json FILE] [--whr]

Nothing is asserted; ``--json FILE`` writes the rows for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import growth_line, measured, result_row, write_json  # noqa: E402

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"
inbox = "inbox"
public = "public"
sources = ["files/*.csv"]

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""

WHR_POOL = """
[[pools]]
name = "whr"
game = "bridge"
scheme = "whr"
"""
"""``--whr``: a second pool rated with WHR, whose constants are learned from the history
(docs/rules/bridge-whr.md §13): the run's output says what learning cost."""


def clubratings() -> list[str]:
    """The installed command, else the module (a source tree without the entry point)."""
    exe = Path(sys.executable).parent / "clubratings"
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "cli"]


def timed_run(root: Path, *extra: str) -> tuple[float, int, str, float]:
    """(seconds, exit code, output, peak MiB) of ``clubratings run`` in ``root``."""
    env = dict(os.environ, PREFECT_HOME=str(root / ".prefect"))
    return measured([*clubratings(), "run", "--config", str(root / "clubratings.toml"),
                     *extra], root, env)


def tenths_line(files: int, first_ms: float, last_ms: float) -> str:
    """The growth of one run's load: the first tenth of its files against the last tenth, as
    the run log times them (``first_tenth_ms``, ``last_tenth_ms``), in the words every loading
    benchmark prints (:func:`benchmarks.run_all.growth_line`)."""
    tenth = max(1, files // 10)
    return growth_line("per file, first tenth then last tenth of one run",
                       (tenth, tenth * first_ms / 1000), (tenth, tenth * last_ms / 1000))


def steps(root: Path) -> dict[str, dict[str, object]]:
    """The last run's steps from the run log, by step name."""
    log = root / "data" / "logs" / "runs.jsonl"
    out: dict[str, dict[str, object]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out[str(record.get("step"))] = record
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="national")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="build the project here and keep it")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    ap.add_argument("--prefect", action="store_true",
                    help="time `clubratings run --prefect` (the Prefect flow, with the "
                    "temporary local server) instead")
    ap.add_argument("--whr", action="store_true",
                    help="add a WHR pool (constants learned from the history) beside BELO2")
    args = ap.parse_args()
    extra = ("--prefect",) if args.prefect else ()
    rows: list[dict[str, object]] = []

    tmp = None if args.keep else tempfile.TemporaryDirectory()
    root = args.keep or Path(tmp.name)  # type: ignore[union-attr]
    try:
        if root.exists():
            shutil.rmtree(root / "data", ignore_errors=True)
            shutil.rmtree(root / "public", ignore_errors=True)
        root.mkdir(parents=True, exist_ok=True)
        (root / "clubratings.toml").write_text(CONFIG + (WHR_POOL if args.whr else ""),
                                               encoding="utf-8")
        if not (root / "files").is_dir():
            subprocess.run([*clubratings(), "simulate", "federation", "--preset", args.preset,
                            "--seed", str(args.seed), "--out", str(root / "files")],
                           check=True, capture_output=True)
        (root / "files" / "strength.csv").unlink(missing_ok=True)  # the truth, not a result
        files = len(list((root / "files").glob("*.csv")))
        print(f"{args.preset} preset: {files} files in {root / 'files'}")

        seconds, code, output, peak_mib = timed_run(root, *extra)
        if code not in (0, 1):
            print(output[-3000:])
            raise SystemExit(f"clubratings run failed with exit code {code}")
        log = steps(root)
        ingest = log.get("ingest", {}).get("counts", {})
        assert isinstance(ingest, dict)
        first, last = ingest.get("first_tenth_ms"), ingest.get("last_tenth_ms")
        print(f"clubratings run, end to end      {seconds:7.1f} s   (target ≤ 60 s)")
        for name in ("identity", "ingest", "recompute", "report", "publish", "snapshot"):
            if name in log:
                print(f"  step {name:<27} {float(log[name]['duration_s']):7.1f} s")  # type: ignore[arg-type]
        if first and last:
            print(tenths_line(files, float(first), float(last)))
        print(f"peak memory of one process       {peak_mib:7.0f} MiB (target ≤ 1024 MiB)")
        for line in output.splitlines():
            if "constants" in line:  # a learning pool's line (docs/rules/bridge-whr.md §13)
                print(line.strip())
        how = " --prefect" if args.prefect else ""
        rows.append(result_row("pipeline_national", f"clubratings run{how}, end to end",
                               f"{files:,} files", seconds, peak_mib, "≤ 60 s, ≤ 1 GB",
                               f"per file {first} -> {last} ms (first -> last tenth)"))

        again, code, output, _ = timed_run(root, *extra)
        print(f"clubratings run, nothing new     {again:7.1f} s")
        for line in output.splitlines():
            if "constants" in line:
                print(line.strip())
        rows.append(result_row("pipeline_national", f"clubratings run{how}, nothing new",
                               f"{files:,} files", again))
    finally:
        if tmp is not None:
            tmp.cleanup()
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
