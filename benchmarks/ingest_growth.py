"""Does ingest slow down as the warehouse grows? The national history loaded in two halves.

Simulates the ``national`` preset once (``clubratings simulate federation``), then, for each
code tree asked for, builds a project and runs the commands users run, each as its own
process as cron runs them:

1. ``clubratings ingest`` with the first half of the files in the source folder (every other
   file in name order, so both halves hold every club, month and congress alike);
2. ``clubratings ingest`` again after the second half is added: the same work per file, into a
   warehouse that already holds the first half;
3. ``clubratings run`` (nothing new to load: recompute, publish, report, snapshot).

Printed per tree: files, seconds and milliseconds per file of each half, the growth (second
half's time per file over the first's; target ≤ 1.15) and the whole ingest; with ``--against
COMMIT``, the same for that commit's code (a ``git worktree`` run with ``PYTHONPATH``) and the
ratio of the two whole ingests (target ≤ 1.1), the trees run back to back on this machine.

    python benchmarks/ingest_growth.py [--preset national] [--seed 1] [--against c5f7d33]
                                       [--repeat 1] [--json FILE]

Nothing is asserted; ``--json FILE`` writes the rows for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.pipeline_national import CONFIG  # noqa: E402
from benchmarks.run_all import growth_line, result_row, write_json  # noqa: E402



@dataclass
class Tree:
    """A tree of the project's code and how to start its command line."""

    label: str
    path: Path

    def command(self) -> list[str]:
        if (self.path / "cli" / "__main__.py").is_file():
            return [sys.executable, "-m", "cli"]
        # before the command line was a package of its own
        return [sys.executable, "-c", "import sys; from flows.cli import main; sys.exit(main())"]

    def env(self, project: Path) -> dict[str, str]:
        return dict(os.environ, PYTHONPATH=str(self.path), PREFECT_HOME=str(project / ".prefect"))


@dataclass
class Halves:
    first: tuple[int, float]
    second: tuple[int, float]
    run: float

    @property
    def growth(self) -> float:
        (n1, s1), (n2, s2) = self.first, self.second
        return (s2 / n2) / (s1 / n1)

    @property
    def ingest(self) -> float:
        return self.first[1] + self.second[1]


def _timed(tree: Tree, project: Path, *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([*tree.command(), *args, "--config", str(project / "clubratings.toml")],
                          cwd=project, env=tree.env(project), capture_output=True, text=True,
                          check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        print((done.stdout + done.stderr)[-3000:])
        raise SystemExit(f"{tree.label}: clubratings {args[0]} exited {done.returncode}")
    return seconds


def measure(tree: Tree, files: list[Path], work: Path) -> Halves:
    """Both halves and the run, in a fresh project under ``work``."""
    project = work / f"project-{tree.label}"
    shutil.rmtree(project, ignore_errors=True)
    (project / "files").mkdir(parents=True)
    (project / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    halves = (files[0::2], files[1::2])
    timings: list[tuple[int, float]] = []
    for half in halves:
        for f in half:
            shutil.copy(f, project / "files" / f.name)
        timings.append((len(half), _timed(tree, project, "ingest")))
    run = _timed(tree, project, "run")
    shutil.rmtree(project, ignore_errors=True)
    return Halves(timings[0], timings[1], run)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="national")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", metavar="COMMIT",
                    help="also measure this commit's code, back to back, and print the ratio")
    ap.add_argument("--repeat", type=int, default=1, help="measure each tree this many times")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="ingest-growth-") as tmp:
        work = Path(tmp)
        trees = [Tree("this tree", ROOT)]
        if args.against:
            old = work / "against"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                            args.against], check=True, capture_output=True)
            trees.append(Tree(args.against, old))
        try:
            files_dir = work / "files"
            subprocess.run([*trees[0].command(), "simulate", "federation", "--preset",
                            args.preset, "--seed", str(args.seed), "--out", str(files_dir)],
                           check=True, capture_output=True, env=trees[0].env(work))
            (files_dir / "strength.csv").unlink(missing_ok=True)  # the truth, not a result
            files = sorted(files_dir.glob("*.csv"))
            print(f"{args.preset} preset: {len(files):,} files, in two halves of every other "
                  "file")
            results: dict[str, list[Halves]] = {t.label: [] for t in trees}
            for _ in range(args.repeat):
                for tree in trees:  # back to back
                    h = measure(tree, files, work)
                    results[tree.label].append(h)
                    print(growth_line(f"{tree.label:>10} ingest", h.first, h.second, 1.15))
                    print(f"{tree.label:>10} whole ingest {h.ingest:.1f} s, then clubratings "
                          f"run {h.run:.1f} s")
                    rows.append(result_row(
                        "ingest_growth", f"{tree.label}: ingest in two halves",
                        f"{len(files):,} files", h.ingest, None, "second half ≤ 1.15x",
                        f"per file {1000 * h.first[1] / h.first[0]:.2f} -> "
                        f"{1000 * h.second[1] / h.second[0]:.2f} ms, x{h.growth:.2f}"))
            if args.against:
                best = {label: min(h.ingest for h in hs) for label, hs in results.items()}
                ratio = best["this tree"] / best[args.against]
                print(f"whole ingest, this tree / {args.against}: {best['this tree']:.1f} / "
                      f"{best[args.against]:.1f} s = x{ratio:.2f} (target ≤ 1.1; the best of "
                      f"{args.repeat} each)")
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(work / "against")], check=False, capture_output=True)
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
