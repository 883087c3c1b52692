"""A federation loads its archive: 15 years of club files through ``clubratings run``, a
quarter at a time.

Simulates the ``national-archive`` preset (``clubratings simulate federation``: 140 clubs over
15 years, about 25,000 club files and 3 million player-results), then adds the files to a
project's source folder one calendar quarter at a time (by the month in each file's name) and
runs ``clubratings run`` after each quarter, as its own process, exactly as cron runs it: the
nightly job (ingest, recompute, publish, report, snapshot) on a growing warehouse.

Printed per batch: files, seconds of the whole run and per file, the ingest step's seconds and
milliseconds per file, the recompute, report, publish and snapshot steps' seconds (from
``data/logs/runs.jsonl``), the peak resident memory of the run (its
process and its parsing workers); at the end the total, the largest peak, the growth (the last
batch's seconds per file over the first's; targets: 15 minutes, 4 GiB, ×1.2) and a checksum of
the events in force (their keys, places and names as written) that any other way of loading the
same files must reproduce.

``--dask`` loads the same batches with the parsing fanned out on Dask (``[run] task_runner =
"dask"``, a local cluster of worker processes, docs/scale-out.md): Prefect runs the flow, so a
local Prefect server is started for the whole backfill (as a federation running Dask has one)
and stopped at the end. ``--compare`` runs both, back to back, and prints the speed-up and
whether the checksums agree.

    python benchmarks/backfill.py [--preset national-archive] [--seed 1] [--years N] [--tail N]
                                  [--dask | --compare] [--files DIR] [--keep DIR] [--json FILE]

``--years N`` keeps the first N years (a shorter try); ``--tail N`` loads everything up to the
last N quarters in one run, then those N a quarter at a time: what a late quarter costs, and
the memory it takes, on the whole history, in a fraction of the time (the total and the growth
are then not the quarterly backfill's); ``--files DIR`` reuses (or keeps) the
simulated files there; ``--keep DIR`` builds the projects there and leaves them (to profile
or query afterwards). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.pipeline_national import CONFIG, clubratings  # noqa: E402
from benchmarks.run_all import measured, result_row, write_json  # noqa: E402

DASK = """
[run]
task_runner = "dask"
"""
MONTH = re.compile(r"_(\d{4})-(\d{2})\.csv$")
CHECKSUM = """
SELECT md5(string_agg(line, '\n' ORDER BY line)), count(DISTINCT event_id), count(*)
FROM (SELECT e.event_id,
             concat_ws('|', e.organiser, e.event_date, e.title, e.section, u.place_text,
                       m.name_as_written) AS line
      FROM active_events e JOIN units u USING (event_id)
      JOIN unit_members m USING (event_id, unit_no))
"""
"""The events in force, by what the files said: organiser, day, title, section, each member's
place and name as written (ids left out: they depend on the order of loading)."""


@dataclass
class Batch:
    label: str
    files: int
    seconds: float
    ingest: float
    peak_mib: float
    steps: dict[str, float] = field(default_factory=dict)
    """The run's other steps (recompute, publish, snapshot), seconds each."""


@dataclass
class Backfill:
    how: str
    batches: list[Batch] = field(default_factory=list)
    checksum: str = ""
    events: int = 0
    results: int = 0

    @property
    def seconds(self) -> float:
        return sum(b.seconds for b in self.batches)


def quarters(files: list[Path], years: int | None) -> list[tuple[str, list[Path]]]:
    """The files by calendar quarter of their month, oldest first (the first ``years``)."""
    by: dict[str, list[Path]] = defaultdict(list)
    for f in files:
        m = MONTH.search(f.name)
        if m:
            by[f"{m[1]}Q{(int(m[2]) - 1) // 3 + 1}"].append(f)
    labels = sorted(by)
    if years:
        labels = labels[:4 * years]
    return [(label, sorted(by[label])) for label in labels]


def catch_up(batches: list[tuple[str, list[Path]]],
             tail: int) -> list[tuple[str, list[Path]]]:
    """Every quarter up to the last ``tail`` in one run into the empty warehouse (an archive
    taken in at once), then the last ``tail`` quarters one at a time: what a late quarter
    costs on a warehouse that holds the whole history, without the hours of loading it a
    quarter at a time. (A first quarter loaded alone before it would hold every file dated
    more than ten years after it for a person's look, as the date gate does, and so measure
    a warehouse that rated less than the history.)"""
    if tail < 1 or len(batches) <= tail + 1:
        return batches
    head = batches[:-tail]
    label = f"{head[0][0]}..{head[-1][0]}"
    return [(label, [f for _, files in head for f in files]), *batches[-tail:]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A local Prefect server for the Dask backfill (``prefect server start``)."""

    def __init__(self, home: Path) -> None:
        self.port = _free_port()
        self.env = dict(os.environ, PREFECT_HOME=str(home),
                        PREFECT_SERVER_ANALYTICS_ENABLED="false", DO_NOT_TRACK="1")
        self.env.pop("PREFECT_API_URL", None)
        prefect = Path(sys.executable).parent / "prefect"
        self.proc = subprocess.Popen(
            [str(prefect), "server", "start", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}/api"
        import httpx

        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1)
        self.stop()
        raise SystemExit("the Prefect server did not start in 120 s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _run(project: Path, env: dict[str, str]) -> tuple[float, float, str, int]:
    """(seconds, peak MiB, output, exit code) of one ``clubratings run``: the peak is that
    run's own, its parsing workers included (run_all.measured)."""
    seconds, code, out, peak = measured([*clubratings(), "run", "--no-scrape", "--config",
                                         str(project / "clubratings.toml")], project, env)
    return seconds, peak, out, code


STEPS = ("ingest", "recompute", "report", "publish", "snapshot")


def _step_seconds(project: Path) -> dict[str, float]:
    """The last run's seconds per step (``data/logs/runs.jsonl``)."""
    log = project / "data" / "logs" / "runs.jsonl"
    last: dict[str, float] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("step") in STEPS:
            last[str(record["step"])] = float(record.get("duration_s", 0.0))
    return last


def backfill(batches: list[tuple[str, list[Path]]], work: Path, *, dask: bool) -> Backfill:
    how = "dask" if dask else "in process"
    project = work / ("project-dask" if dask else "project")
    shutil.rmtree(project, ignore_errors=True)
    (project / "files").mkdir(parents=True)
    (project / "clubratings.toml").write_text(CONFIG + (DASK if dask else ""), encoding="utf-8")
    env = dict(os.environ, PREFECT_HOME=str(project / ".prefect"))
    env.pop("PREFECT_API_URL", None)
    server = Server(project / ".prefect") if dask else None
    if server is not None:
        env["PREFECT_API_URL"] = server.url
    done = Backfill(how)
    print(f"\n{how}: {'batch':<7} {'files':>6} {'run s':>7} {'s/file':>7} {'ingest s':>9} "
          f"{'ms/file':>8} {'rate s':>7} {'report s':>8} {'site s':>7} {'snap s':>7} "
          f"{'peak MiB':>9}")
    try:
        for label, files in batches:
            for f in files:
                shutil.copy(f, project / "files" / f.name)
            seconds, peak, out, code = _run(project, env)
            if code not in (0, 1):
                print(out[-3000:])
                raise SystemExit(f"clubratings run exited {code} at {label}")
            steps = _step_seconds(project)
            ingest = steps.get("ingest", 0.0)
            batch = Batch(label, len(files), seconds, ingest, peak, steps)
            done.batches.append(batch)
            print(f"{'':>{len(how) + 1}} {label:<7} {len(files):>6} {seconds:>7.1f} "
                  f"{seconds / len(files):>7.3f} {ingest:>9.1f} "
                  f"{1000 * ingest / len(files):>8.2f} {steps.get('recompute', 0.0):>7.1f} "
                  f"{steps.get('report', 0.0):>8.1f} "
                  f"{steps.get('publish', 0.0):>7.1f} {steps.get('snapshot', 0.0):>7.1f} "
                  f"{peak:>9.0f}", flush=True)
    finally:
        if server is not None:
            server.stop()
    import duckdb

    con = duckdb.connect(str(project / "data" / "clubratings.duckdb"), read_only=True)
    try:
        checksum, events, results = con.execute(CHECKSUM).fetchall()[0]
    finally:
        con.close()
    done.checksum, done.events, done.results = str(checksum), int(events), int(results)
    return done


def summary(b: Backfill) -> list[str]:
    first, last = b.batches[0], b.batches[-1]
    per_first, per_last = first.seconds / first.files, last.seconds / last.files
    ing_first, ing_last = first.ingest / first.files, last.ingest / last.files
    files = sum(x.files for x in b.batches)
    return [
        f"{b.how}: {files:,} files in {len(b.batches)} batches, {b.seconds / 60:.1f} min "
        f"(target ≤ 15 min); peak memory {max(x.peak_mib for x in b.batches):,.0f} MiB "
        "(target ≤ 4096)",
        f"{b.how}: per file, first batch {per_first:.3f} s, last {per_last:.3f} s: growth "
        f"x{per_last / per_first:.2f} (target ≤ 1.2); ingest alone {1000 * ing_first:.2f} -> "
        f"{1000 * ing_last:.2f} ms/file, x{ing_last / ing_first:.2f}",
        f"{b.how}: {b.events:,} events in force, {b.results:,} player-results, checksum "
        f"{b.checksum}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="national-archive")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--years", type=int, help="only the first N years")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--dask", action="store_true", help="parse on Dask (with a Prefect server)")
    how.add_argument("--compare", action="store_true",
                     help="in process, then on Dask; print the speed-up and the checksums")
    ap.add_argument("--tail", type=int, default=0,
                    help="load the quarters up to the last N in one run, then the last N one "
                         "at a time (the total and the growth are then not the targets')")
    ap.add_argument("--files", type=Path, help="the simulated files: reused, or made and kept")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    ap.add_argument("--keep", type=Path,
                    help="build the projects in this folder and keep them (default: a "
                         "temporary folder, removed at the end)")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="backfill-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        files_dir = args.files or work / "files"
        if not files_dir.is_dir() or not any(files_dir.glob("*.csv")):
            started = time.perf_counter()
            subprocess.run([*clubratings(), "simulate", "federation", "--preset", args.preset,
                            "--seed", str(args.seed), "--out", str(files_dir)],
                           check=True, capture_output=True)
            print(f"simulated {args.preset} in {time.perf_counter() - started:.0f} s")
        (files_dir / "strength.csv").unlink(missing_ok=True)  # the truth, not a result
        batches = quarters(sorted(files_dir.glob("*.csv")), args.years)
        total = sum(len(f) for _, f in batches)
        print(f"{args.preset} preset: {total:,} files in {len(batches)} quarterly batches")
        if args.tail:
            batches = catch_up(batches, args.tail)
            print(f"the quarters {batches[0][0]} in one run ({len(batches[0][1]):,} files), "
                  f"then the last {args.tail} one at a time: the total time and the growth "
                  "are not a quarterly backfill's (compare the late quarters' seconds per "
                  "file with a quarterly backfill's first batch)")
        ways = [False, True] if args.compare else [args.dask]
        done = [backfill(batches, work, dask=d) for d in ways]
        print()
        for b in done:
            for line in summary(b):
                print(line)
            first, last = b.batches[0], b.batches[-1]
            rows.append(result_row(
                "backfill", f"clubratings run a quarter at a time ({b.how})",
                f"{total:,} files", b.seconds, max(x.peak_mib for x in b.batches),
                "≤ 15 min, ≤ 4 GiB, last batch ≤ 1.2x the first per file",
                f"per file {first.seconds / first.files:.3f} -> {last.seconds / last.files:.3f}"
                f" s; checksum {b.checksum[:12]}"))
        if len(done) == 2:
            same = done[0].checksum == done[1].checksum
            print(f"Dask / in process: {done[1].seconds:.0f} / {done[0].seconds:.0f} s, speed-up "
                  f"x{done[0].seconds / done[1].seconds:.2f}; checksums "
                  f"{'equal' if same else 'DIFFER'}")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
