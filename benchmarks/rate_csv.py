"""``clubratings rate`` on the 10-year benchmark history, against a bare script doing the same.

Writes the history of ``belo_history.py`` (``_history.generate_history``: 2.58M player-results)
as a results CSV in the template, then times, each as a fresh process, best of ``--repeat``:

- ``clubratings rate HISTORY.csv --scheme belo2 --set newcomer=flat --out FILE``: the command a
  person runs, reading the CSV column by column (parsers/csv_template_frame.py);
- a bare script: pyarrow reads the same CSV, numpy computes the same rules
  (``_history.bare_kernel``), and the ratings are written as CSV.

Prints both times side by side and their ratio (target: the command at most 1.5 times the bare
script). Nothing is asserted; ``--json FILE`` writes the rows for ``benchmarks/run_all.py``.

    python benchmarks/rate_csv.py [--events 120000] [--players 8000] [--repeat 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import result_row, write_json  # noqa: E402

BARE = """
import sys
import pyarrow.csv as pacsv
import pyarrow.compute as pc
sys.path.insert(0, sys.argv[3])
from benchmarks._history import bare_kernel
t = pacsv.read_csv(sys.argv[1]).to_pandas()
frame = t.rename(columns={"event": "event_id"})
out = bare_kernel(frame)
out.to_csv(sys.argv[2], index=False)
"""


def write_history(path: Path, events: int, players: int) -> int:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from benchmarks._history import generate_history

    f = generate_history(events=events, players=players)
    out = pd.DataFrame({
        "event": f["event_id"], "date": f["date"].dt.strftime("%Y-%m-%d"), "kind": f["kind"],
        "scoring": f["scoring"],
        "boards": f["boards"].map(lambda b: "" if pd.isna(b) else str(int(b))),
        "unit": f["unit"], "place": f["place"].map(lambda p: f"{p:.1f}"), "player": f["player"],
    })
    pacsv.write_csv(pa.Table.from_pandas(out, preserve_index=False), path)
    return len(out)


def best(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=120_000)
    ap.add_argument("--players", type=int, default=8000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args()
    exe = Path(sys.executable).parent / "clubratings"
    command = [str(exe)] if exe.is_file() else [sys.executable, "-m", "cli"]
    with tempfile.TemporaryDirectory() as tmp:
        history = Path(tmp) / "history.csv"
        rows = write_history(history, args.events, args.players)
        size = f"{rows:,} rows, {history.stat().st_size / 1e6:.0f} MB"
        print(f"history: {size}")
        ours = best([*command, "rate", str(history), "--scheme", "belo2", "--set",
                     "newcomer=flat", "--out", str(Path(tmp) / "ours.csv")], args.repeat)
        bare = best([sys.executable, "-c", BARE, str(history), str(Path(tmp) / "bare.csv"),
                     str(ROOT)], args.repeat)
    print(f"clubratings rate (end to end)      {ours:7.2f} s")
    print(f"bare pyarrow + numpy script        {bare:7.2f} s")
    print(f"ratio                              {ours / bare:7.2f}   (target ≤ 1.5)")
    write_json(args.json, [
        result_row("rate_csv", "clubratings rate, end to end", size, ours, target="≤ 1.5x bare",
                   note=f"{ours / bare:.2f}x the bare script"),
        result_row("rate_csv", "bare pyarrow + numpy script", size, bare),
    ])


if __name__ == "__main__":
    main()
