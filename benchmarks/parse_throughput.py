"""Parse-and-load throughput on generated JFR Pary result pages.

Generates N pages (default 2,000) from the real JFR sample's markup with other players, pair
counts (8-30) and dates, then measures, on this machine:

- lxml's raw HTML parse rate of the same pages (the floor any HTML parser stands on);
- the `jfr_pary` parser alone, in one process;
- end to end, the path ``clubratings ingest`` runs: the pages written as files of a project's
  source folder, then the run core (``flows.core.Project``: the run lock, one warehouse
  connection, one loader) parses, gates and loads them, each file all or nothing, into a fresh
  DuckDB warehouse: every other page first, then the rest into the same warehouse, and the
  growth printed (the second half's time per page over the first's).

    python benchmarks/parse_throughput.py [--pages 2000] [--json FILE]

Prints pages/s for each; nothing is asserted (the target is >= 300 pages/s end to end).
``--json FILE`` also writes the measurements as rows (``benchmarks/run_all.py``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import lxml.html

from benchmarks.run_all import growth_line, result_row, write_json
from flows import load_config
from flows.core import Project
from parsers import FORMATS, ParseResult

SAMPLE = ROOT / "fixtures/jfr_pary/W-wb130808.html"
MONTHS = ("stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia",
          "września", "października", "listopada", "grudnia")
FIRST = ("Jan", "Anna", "Piotr", "Maria", "Krzysztof", "Ewa", "Andrzej", "Barbara", "Tomasz",
         "Joanna", "Paweł", "Małgorzata", "Michał", "Katarzyna", "Łukasz", "Zofia", "Jerzy")
LAST = ("Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski", "Zieliński",
        "Szymański", "Woźniak", "Dąbrowski", "Kozłowski", "Jankowski", "Mazur", "Kwiatkowski",
        "Krawczyk", "Piotrowski", "Grabowski", "Nowakowski", "Pawłowski", "Michalski")
CLUBS = ("Singleton Warszawa", "Czwórka Warszawa", "AZS PW WEKTOR", "Spójnia II Warszawa",
         "KBS Legionowianin 2", "INWIT Pabianice")


def make_pages(count: int, seed: int = 1) -> list[tuple[str, bytes]]:
    text = SAMPLE.read_text(encoding="utf-8")
    rows = re.findall(r'<tr><td class="n">&nbsp;</td><td class="c">\d+</td>.*?</tr>', text)
    head = text[: text.index(rows[0])]
    tail = text[text.index(rows[-1]) + len(rows[-1]):]
    template = rows[0]
    rng = random.Random(seed)
    players = [(f"{rng.choice(FIRST)} {rng.choice(LAST)}", f"{10000 + i:05d}")
               for i in range(3000)]
    start = dt.date(2008, 1, 1)
    pages = []
    for k in range(count):
        day = start + dt.timedelta(days=k)
        heading = f"Warszawa - Polinezyjska, {day.day} {MONTHS[day.month - 1]} {day.year}"
        page_head = head.replace("Warszawa - Polinezyjska, 8 sierpnia 2013", heading)
        n = rng.randint(8, 30)
        scores = sorted((round(rng.uniform(35, 68), 2) for _ in range(n)), reverse=True)
        body = []
        field = rng.sample(players, 2 * n)  # nobody twice on one page
        for place, score in enumerate(scores, 1):
            (a, ida), (b, idb) = field[2 * place - 2], field[2 * place - 1]
            row = template
            row = re.sub(r'(<td class="c">)1(</td>)', rf"\g<1>{place}\2", row, count=1)
            row = row.replace("Irena Chodorowska", a).replace("Jan Chodorowski", b)
            row = row.replace("r=06542", f"r={ida}").replace("r=06543", f"r={idb}")
            row = row.replace("Spójnia II Warszawa", rng.choice(CLUBS))
            row = row.replace("  61.83", f"  {score:.2f}")
            body.append(row)
        pages.append((f"W-gen{k:05d}.html", (page_head + "".join(body) + tail).encode()))
    return pages


def _parse(page: tuple[str, bytes]) -> tuple[str, bytes, ParseResult]:
    name, data = page
    return name, data, FORMATS["jfr_pary"].parse(data, source=name)


def rate(label: str, pages: int, seconds: float, rows: list[dict[str, object]] | None = None,
         target: str = "") -> None:
    print(f"{label:<44} {pages / seconds:9.0f} pages/s  ({pages} pages, {seconds:.2f} s)")
    if rows is not None:
        rows.append(result_row("parse_throughput", label, f"{pages:,} pages", seconds,
                               target=target, note=f"{pages / seconds:,.0f} pages/s"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=2000)
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []

    pages = make_pages(args.pages)
    size = sum(len(d) for _, d in pages)
    print(f"{len(pages)} generated pages, {size / 1e6:.1f} MB")

    t = time.perf_counter()
    for _, data in pages:
        lxml.html.document_fromstring(data)
    rate("lxml raw parse (1 process)", len(pages), time.perf_counter() - t, rows)

    t = time.perf_counter()
    for page in pages:
        _parse(page)
    rate("jfr_pary parse (1 process)", len(pages), time.perf_counter() - t, rows)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pages").mkdir()
        (root / "clubratings.toml").write_text(
            '[paths]\nwarehouse = "data/bench.duckdb"\nsources = ["pages/*.html"]\n',
            encoding="utf-8")
        # in two halves into one warehouse: the second half's time per file against the
        # first's shows a load that grows with the warehouse
        halves: list[tuple[int, float]] = []
        outcomes = []
        for half in (pages[0::2], pages[1::2]):
            for name, data in half:
                (root / "pages" / name).write_bytes(data)
            t = time.perf_counter()
            with Project.open(load_config(root / "clubratings.toml"),
                              command="benchmark") as project:
                outcomes += [o for o in project.ingest() if o.status != "duplicate"]
                events = project.wh.con.execute("SELECT count(*) FROM events").fetchall()[0][0]
                members = project.wh.con.execute(
                    "SELECT count(*) FROM unit_members").fetchall()[0][0]
            halves.append((len(half), time.perf_counter() - t))
        rate("end to end: the run core's ingest", len(pages), sum(s for _, s in halves), rows,
             "≥ 300 pages/s")
        print(growth_line("end to end, in two halves", halves[0], halves[1]))
        loaded = sum(1 for o in outcomes if o.status == "loaded")
        print(f"loaded {loaded} files: {events} events, {members} player-results")
        rows[-1]["note"] += (f", {members:,} player-results; second half x"
                             f"{(halves[1][1] / halves[1][0]) / (halves[0][1] / halves[0][0]):.2f}"
                             " per file")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
