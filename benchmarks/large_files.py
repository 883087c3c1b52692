"""Bounded reading: a genuine result page of about 9 MB, and a zip bomb, through the reader a
dropped file goes through (``parsers.parse_bytes``: detection by every format, the reader, the
plausibility gate, under the default ``[limits]``).

The page is a hand-made HTML results table of 16,000 pairs (every pair two names that occur
once, a club and a score; rows carrying the styling and links a club's site writes), about
9 MB. The bomb is the hostile corpus's (``scripts/_hostile.py``): an xlsx whose one entry
unpacks to more than 1 GiB.

    python benchmarks/large_files.py [--pairs 16000] [--json FILE]

Printed: the size, the seconds and what came of each (targets: the page read in at most 5 s,
the bomb refused in at most 2 s). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import result_row, write_json  # noqa: E402


def results_page(pairs: int) -> bytes:
    """A hand-made results page of ``pairs`` pairs, each name written once."""
    from quality.federation import player_names

    base = player_names(300)
    first = sorted({b.split()[0] for b in base})
    last = sorted({b.split()[-1] for b in base})

    def name(k: int) -> str:
        a, b = divmod(k, len(first))
        return f"{first[b]} {last[a % len(last)]}-{last[(a // len(last)) % len(last)]}"

    rows = []
    for i in range(pairs):
        score = 70 - 40 * i / pairs
        links = " &amp; ".join(
            f'<a href="player.php?id={1000 + 2 * i + k}&amp;season=2019">{name(2 * i + k)}</a>'
            for k in (0, 1))
        rows.append(
            f'<tr class="{"odd" if i % 2 else "even"}" '
            "onmouseover=\"this.style.background='#ffffcc'\" "
            "onmouseout=\"this.style.background=''\">"
            f'<td class="place" style="text-align:right;padding:2px 6px">{i + 1}</td>'
            f'<td class="pair" style="text-align:right;padding:2px 6px">{i + 1}</td>'
            f'<td class="names" style="padding:2px 6px">{links}</td>'
            f'<td class="club" style="padding:2px 6px">Bridge Club {i % 150 + 1}</td>'
            f'<td class="score" style="text-align:right;padding:2px 6px">{score:.2f}</td>'
            "</tr>\n")
    page = ("<html><head><title>National Pairs Championship 14 September 2019 - results"
            "</title></head><body><h1>National Pairs Championship</h1><p>14 September 2019</p>"
            '<table class="results"><tr><th>Place</th><th>Pair</th><th>Names</th><th>Club</th>'
            "<th>Score %</th></tr>\n" + "".join(rows) + "</table></body></html>")
    return page.encode("utf-8")


def timed(data: bytes, name: str) -> tuple[float, str]:
    from parsers import ParseError, parse_bytes

    started = time.perf_counter()
    try:
        result = parse_bytes(data, source=name)
        what = f"read: {result.format}, {sum(len(e.units) for e in result.events):,} units"
    except ParseError as exc:
        what = f"refused: {str(exc)[:120]}"
    return time.perf_counter() - started, what


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=16_000)
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []
    page = results_page(args.pairs)
    seconds, what = timed(page, "championship.html")
    print(f"results page, {len(page) / 1e6:.1f} MB: {seconds:.1f} s (target ≤ 5 s); {what}")
    rows.append(result_row("large_files", "a genuine results page", f"{len(page) / 1e6:.1f} MB",
                           seconds, None, "≤ 5 s", what))
    from scripts._hostile import k_zip_bomb

    name, bomb = k_zip_bomb(Random(0))
    seconds, what = timed(bomb, name)
    print(f"zip bomb, {len(bomb) / 1e6:.1f} MB packed: {seconds:.2f} s (target ≤ 2 s); {what}")
    rows.append(result_row("large_files", "a zip bomb", f"{len(bomb) / 1e6:.1f} MB", seconds,
                           None, "≤ 2 s", what))
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
