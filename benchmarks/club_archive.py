"""A real club's whole archive through the nightly job: scraped, read, counted once, rated,
published.

The input is a checkout of the Mercercrest club's site (the public repository
mercerislandbridge/mercerislandbridge.github.io: about 600 Tuesday nights 2013-2026, each as an
ACBLmerge web page, a phone page and an ACBLscore text report). The site is served from a
temporary copy on 127.0.0.1 exactly as ``benchmarks/scrape_archive.py`` serves it (its
``index.html`` followed by the older index that listed 2013-2025), and a project whose
``sources.toml`` names the index and the link pattern of the nights (docs/scraping.md) is run
with ``clubratings run`` as cron runs it, in a separate process:

1. from an empty warehouse: scrape (every night's page, found from the index alone) → ingest →
   recompute (a BELO2 and a WHR pool, per quarter) → publish → report → snapshot;
2. again with nothing new (the index and the recent nights asked conditionally);
3. with the nights' other renderings dropped into the inbox (every ``.TXT`` and
   ``_iPhone.htm``): each must be recognised as the same results, not loaded again.

Printed: the wall time of each run, and what the warehouse holds after them: nights and
events in force (events must equal nights times sections), files by status, players, names
waiting for review, and any player name that is not a name (digits only, a strat or NE mark,
a section label, "Totals").

    python benchmarks/club_archive.py /path/to/mercerislandbridge.github.io [--keep DIR]
                                      [--json FILE]

Nothing is asserted; ``--json FILE`` writes the rows for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.pipeline_national import steps, tenths_line, timed_run  # noqa: E402
from benchmarks.run_all import result_row, write_json  # noqa: E402
from benchmarks.scrape_archive import archive_arguments, serve, site_copy  # noqa: E402

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"
inbox = "inbox"
public = "public"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }

[[pools]]
name = "bridge-whr"
game = "bridge"
scheme = "whr"
options = { period = "quarter" }
"""

SOURCES = """\
allow = ["127.0.0.1:{port}"]
rate_limit_seconds = 0   # the local copy only
[[source]]
club = "Mercercrest"
index = "http://127.0.0.1:{port}/index.html"
follow = "20*/**/*E.htm"
schedule = "always"
"""

JUNK = re.compile(r"^(?:\d+|[A-Z]|NE|N-S|E-W|Totals?|Section.*|[A-Z] (?:N-S|E-W))$", re.I)
"""A player name that is a pair number, a strat or section letter, a not-eligible mark or a
line of the report."""


def junk_names(names: list[str]) -> list[str]:
    """The names that are no person's: ``JUNK``, or without a letter."""
    return sorted(n for n in names if JUNK.match(n.strip()) or not re.search(r"[^\W\d_]", n))


def run(root: Path) -> tuple[float, str]:
    """``clubratings run`` in ``root`` as cron runs it (pipeline_national.timed_run): its time
    and its summary line; exit 1 (a file refused) is a normal night."""
    seconds, code, output, _ = timed_run(root)
    if code not in (0, 1):
        print(output[-6000:], file=sys.stderr)
        raise SystemExit(f"clubratings run failed with exit code {code}")
    last = [line for line in output.splitlines() if line.startswith("run ")]
    return seconds, last[-1] if last else output.strip().splitlines()[-1]


def census(warehouse: Path) -> dict[str, object]:
    """What the warehouse holds of the archive (read-only, after the runs)."""
    import duckdb

    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        one = lambda sql: con.execute(sql).fetchall()  # noqa: E731
        nights = one("SELECT count(DISTINCT event_date) FROM active_events")[0][0]
        events = one("SELECT count(*) FROM active_events")[0][0]
        sections = one("SELECT count(*) FROM (SELECT DISTINCT event_date, section "
                       "FROM active_events)")[0][0]
        statuses = dict(one("SELECT status, count(*) FROM source_files GROUP BY 1 ORDER BY 1"))
        players = one("SELECT count(DISTINCT player_id) FROM unit_members m "
                      "JOIN active_events USING (event_id)")[0][0]
        waiting = one("SELECT count(*) FROM review_items WHERE status = 'open'")[0][0]
        held = one("SELECT count(*) FROM correction_holds WHERE decision IS NULL")[0][0]
        names = [r[0] for r in one("SELECT DISTINCT name_as_written FROM unit_members")]
        quarters = one("SELECT min(event_date), max(event_date) FROM active_events")[0]
    finally:
        con.close()
    junk = junk_names(names)
    return {"nights": nights, "events": events, "night_sections": sections,
            "files": statuses, "players": players, "names_waiting": waiting,
            "held": held, "junk_names": junk, "span": [str(q) for q in quarters]}


def main() -> None:
    ap = archive_arguments(__doc__)
    ap.add_argument("--keep", type=Path, help="build the project here and keep it")
    args = ap.parse_args()
    checkout = args.checkout.resolve()
    rows = []
    with tempfile.TemporaryDirectory(prefix="club-archive-") as tmp:
        base = Path(tmp)
        nights = site_copy(checkout, base / "site", args.old_index)
        server, port = serve(base / "site", base / "http.log")
        root = args.keep.resolve() if args.keep else base / "project"
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        config = root / "clubratings.toml"
        config.write_text(CONFIG, encoding="utf-8")
        (root / "sources.toml").write_text(SOURCES.format(port=port), encoding="utf-8")
        try:
            print(f"{nights} nights listed by the index, served on 127.0.0.1:{port}")
            for case in ("empty warehouse to published site", "again, nothing new"):
                seconds, line = run(root)
                print(f"{case:<40} {seconds:7.1f} s   {line}")
                ingest = steps(root).get("ingest", {}).get("counts", {})
                if isinstance(ingest, dict) and ingest.get("first_tenth_ms"):
                    # the archive has one size: its growth is the run's own, tenth by tenth
                    print(tenths_line(int(ingest.get("files", nights) or nights),
                                      float(ingest["first_tenth_ms"]),
                                      float(ingest["last_tenth_ms"])))
                rows.append(result_row("club_archive", case, f"{nights} nights", seconds,
                                       note=line))
            inbox = root / "inbox"
            inbox.mkdir(exist_ok=True)
            dropped = 0
            for path in sorted(checkout.glob("20*/*")):
                if path.suffix.upper() == ".TXT" or path.name.endswith("_iPhone.htm"):
                    shutil.copyfile(path, inbox / path.name)
                    dropped += 1
            seconds, line = run(root)
            case = f"{dropped} other renderings dropped"
            print(f"{case:<40} {seconds:7.1f} s   {line}")
            rows.append(result_row("club_archive", case, f"{nights} nights", seconds, note=line))
        finally:
            server.terminate()
            server.wait()
        found = census(root / "data" / "clubratings.duckdb")
        print(json.dumps(found, indent=1, default=str))
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
