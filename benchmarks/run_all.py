"""Run every benchmark, each in its own process, and print their results as one table.

Each script of :data:`BENCHMARKS` is started as a subprocess with ``--json FILE`` (so peak
memory and imports are the script's own), the rows it writes are collected and printed as one
table: benchmark, case, size, seconds, peak MiB, target, note. Below the table, each process's
wall time and peak RSS (``os.wait4``'s ``ru_maxrss`` of that child alone).

    python benchmarks/run_all.py [--quick] [--only NAME ...] [--markdown FILE] [--json FILE]
                                 [--verbose]

``--quick`` passes each script its reduced sizes (:attr:`Benchmark.quick`); ``--only`` runs
the named benchmarks only (repeatable). Nothing is asserted: targets are printed next to the
numbers.

The row format (:data:`ROW_FIELDS`) and the helpers :func:`result_row` / :func:`write_json`
are what the scripts use to write their ``--json`` file.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "BENCHMARKS",
    "ROW_FIELDS",
    "Benchmark",
    "BenchmarkError",
    "Process",
    "collect",
    "format_markdown",
    "format_table",
    "growth_line",
    "main",
    "result_row",
    "run_benchmark",
    "tracemalloc_peak",
    "write_json",
]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

ROW_FIELDS = ("benchmark", "case", "size", "seconds", "peak_mib", "target", "note")
"""Keys of every result row, in table order."""

_HEADERS = ("benchmark", "case", "size", "seconds", "peak MiB", "target", "note")


class BenchmarkError(RuntimeError):
    """A benchmark script failed or wrote no valid rows; the message quotes its stderr."""


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One benchmark script: its name, file (in ``benchmarks/``) and reduced-size arguments."""

    name: str
    script: str
    quick: tuple[str, ...] = ()


BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("parse_throughput", "parse_throughput.py", ("--pages", "200")),
    Benchmark("belo_history", "belo_history.py",
              ("--events", "12000", "--players", "2000", "--clubs", "40", "--repeat", "1")),
    Benchmark("whr_history", "whr_history.py",
              ("--events", "12000", "--players", "2000", "--clubs", "40", "--repeat", "1")),
    Benchmark("openskill_history", "openskill_history.py", ("--events", "5000")),
    Benchmark("preferans_games", "preferans_games.py", ("--games", "100000")),
    Benchmark("rfg_games", "rfg_games.py",
              ("--games", "100000", "--tournament-games", "10000,30000")),
    Benchmark("pipeline_national", "pipeline_national.py", ("--preset", "federation")),
    Benchmark("cli_latency", "cli_latency.py", ("--repeat", "2", "--no-dev-run")),
    Benchmark("rate_csv", "rate_csv.py", ("--events", "12000", "--players", "2000",
                                          "--repeat", "1")),
)
"""Every benchmark, in the order :func:`main` runs them."""


@dataclass(frozen=True, slots=True)
class Process:
    """What one benchmark process produced: its rows, wall time, peak RSS and printed text."""

    benchmark: Benchmark
    rows: list[dict[str, Any]]
    seconds: float
    peak_rss_mib: float
    output: str


# --- the row format, used by the scripts ----------------------------------------------------


def result_row(benchmark: str, case: str, size: str, seconds: float,
               peak_mib: float | None = None, target: str = "", note: str = "",
               ) -> dict[str, Any]:
    """One result row (:data:`ROW_FIELDS`); ``peak_mib`` is None when not measured."""
    return {
        "benchmark": benchmark,
        "case": case,
        "size": size,
        "seconds": float(seconds),
        "peak_mib": None if peak_mib is None else float(peak_mib),
        "target": target,
        "note": note,
    }


def tracemalloc_peak(run: Callable[[], Any]) -> int:
    """tracemalloc's peak of the memory allocated during one call of ``run``, in bytes (numpy
    and pandas buffers are traced)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def growth_line(label: str, first: tuple[int, float], second: tuple[int, float],
                target: float = 1.2) -> str:
    """One printed line of a load measured at two sizes: files and seconds of each, then the
    time per file of the second over the first's (the growth). Every loading benchmark prints
    one, so that a cost that grows with the warehouse shows at once."""
    (n1, s1), (n2, s2) = first, second
    ratio = (s2 / n2) / (s1 / n1)
    return (f"{label}: {n1:,} files {s1:.1f} s ({1000 * s1 / n1:.2f} ms/file), then {n2:,} "
            f"more {s2:.1f} s ({1000 * s2 / n2:.2f} ms/file): growth x{ratio:.2f} "
            f"(target ≤ {target})")


def write_json(path: str | Path | None, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` as a JSON list to ``path`` (UTF-8); nothing when ``path`` is None."""
    if path is None:
        return
    Path(path).write_text(json.dumps(list(rows), ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")


def _check_rows(data: object, source: str) -> list[dict[str, Any]]:
    """The rows of a ``--json`` file, checked: a list of objects with exactly the row fields."""
    if not isinstance(data, list) or not data:
        raise BenchmarkError(f"{source}: expected a non-empty JSON list of rows, got {data!r}")
    for row in data:
        if not isinstance(row, dict) or set(row) != set(ROW_FIELDS):
            raise BenchmarkError(f"{source}: row {row!r} does not have the fields "
                                 f"{', '.join(ROW_FIELDS)}")
        if not isinstance(row["seconds"], int | float):
            raise BenchmarkError(f"{source}: 'seconds' is not a number in {row!r}")
    return data


# --- running the scripts --------------------------------------------------------------------


def measured(command: Sequence[str], cwd: Path,
             env: dict[str, str] | None = None) -> tuple[float, int, str, float]:
    """(seconds, exit code, output, peak MiB) of one command: the peak is that process's own,
    its workers included (``os.wait4`` reaps the child and returns its resource usage,
    ``ru_maxrss`` in KiB on Linux), not the largest of every child so far
    (``RUSAGE_CHILDREN``, which a simulation run before it can set)."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
        started = time.perf_counter()
        proc = subprocess.Popen(list(command), cwd=cwd, env=env, stdout=log,
                                stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        log.seek(0)
        return seconds, proc.returncode, log.read(), usage.ru_maxrss / 1024


def run_benchmark(benchmark: Benchmark, args: Sequence[str] = (),
                  python: str = sys.executable) -> Process:
    """Run one script with ``args`` and ``--json`` in a subprocess; its rows and resources.

    Raises :class:`BenchmarkError` when the script exits non-zero or writes no valid rows.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        command = [python, str(HERE / benchmark.script), *args, "--json", str(out)]
        seconds, code, output, peak = measured(command, ROOT)
        output = output.strip()
        if code != 0:
            raise BenchmarkError(f"{benchmark.name} exited with {code}:\n"
                                 f"{output[-3000:]}")
        if not out.exists():
            raise BenchmarkError(f"{benchmark.name} wrote no --json file; output:\n"
                                 f"{output[-3000:]}")
        rows = _check_rows(json.loads(out.read_text(encoding="utf-8")), benchmark.name)
    return Process(benchmark, rows, seconds, peak, output)


def collect(benchmarks: Iterable[Benchmark], quick: bool = False,
            python: str = sys.executable, extra: dict[str, Sequence[str]] | None = None,
            verbose: bool = False) -> list[Process]:
    """Run ``benchmarks`` one after the other; ``extra`` adds arguments per benchmark name.
    Progress (and with ``verbose`` each script's output) goes to stderr."""
    done = []
    for benchmark in benchmarks:
        args = [*(benchmark.quick if quick else ()), *((extra or {}).get(benchmark.name, ()))]
        print(f"running {benchmark.name} {' '.join(args)}".rstrip(), file=sys.stderr,
              flush=True)
        done.append(run_benchmark(benchmark, args, python))
        if verbose:
            print(done[-1].output, file=sys.stderr, flush=True)
    return done


# --- the table --------------------------------------------------------------------------------


def _cells(row: dict[str, Any]) -> tuple[str, ...]:
    peak = row["peak_mib"]
    return (
        str(row["benchmark"]), str(row["case"]), str(row["size"]),
        f"{row['seconds']:.2f}", "" if peak is None else f"{peak:.0f}",
        str(row["target"]), str(row["note"]),
    )


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a plain text table, columns aligned (numbers to the right)."""
    cells = [_HEADERS, *(_cells(r) for r in rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(_HEADERS))]
    numeric = {3, 4}
    lines = []
    for k, line in enumerate(cells):
        parts = [c.rjust(w) if i in numeric else c.ljust(w)
                 for i, (c, w) in enumerate(zip(line, widths, strict=True))]
        lines.append("  ".join(parts).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a GitHub markdown table (``|`` in cells escaped)."""
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    out = [line(_HEADERS), "|" + "|".join("---:" if i in (3, 4) else "---"
                                          for i in range(len(_HEADERS))) + "|"]
    out += [line(_cells(r)) for r in rows]
    return "\n".join(out)


def _processes_summary(processes: Sequence[Process]) -> str:
    return "\n".join(
        f"{p.benchmark.name:<20} process wall {p.seconds:8.1f} s, "
        f"peak RSS {p.peak_rss_mib:7.0f} MiB" for p in processes)


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: run the benchmarks and print the table."""
    names = [b.name for b in BENCHMARKS]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="reduced sizes (minutes instead of a quarter of an hour)")
    ap.add_argument("--only", action="append", choices=names, metavar="NAME",
                    help=f"run only this benchmark (repeatable): {', '.join(names)}")
    ap.add_argument("--markdown", type=Path, help="also write the table as markdown here")
    ap.add_argument("--json", type=Path, help="also write all rows as JSON here")
    ap.add_argument("--verbose", action="store_true",
                    help="print each script's own output after it finishes")
    args = ap.parse_args(argv)

    chosen = [b for b in BENCHMARKS if not args.only or b.name in args.only]
    processes = collect(chosen, quick=args.quick, verbose=args.verbose)
    rows = [row for p in processes for row in p.rows]
    machine = (f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end, "
               f"Python {sys.version.split()[0]}")
    print(format_table(rows))
    print()
    print(_processes_summary(processes))
    print(machine)
    if args.markdown is not None:
        args.markdown.write_text(
            format_markdown(rows) + "\n\n```\n" + _processes_summary(processes)
            + f"\n{machine}\n```\n", encoding="utf-8")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
