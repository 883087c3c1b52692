"""Regenerate ``fixtures/club_season/*.csv`` (July-December 2013) and
``fixtures/club_season_later/*.csv`` (January 2014 - March 2015): a club's weekly pairs events
in the CSV template (two players retire after 2013, two new pairs join in July 2014).

The players are the real players of the JFR sample (``fixtures/jfr_pary/W-wb130808.html``: names,
PZBS ids and clubs) plus a few club regulars, so the bundled history has recurring players across
formats and quarters. Strengths, partnerships and scores are simulated from a fixed seed: the
files are realistic, not real. Run from the repository root:

    python scripts/make_season_fixtures.py
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JFR = ROOT / "fixtures/jfr_pary/W-wb130808.html"
OUT = ROOT / "fixtures/club_season"
LATER = ROOT / "fixtures/club_season_later"
"""The months from January 2014 on: a folder of their own, so that what reads the 2013 season
(tests, worked examples) keeps reading exactly that."""
ORGANISER = "Klub Singleton Warszawa"
SEED = 20130808

END = dt.date(2015, 3, 31)
"""The season runs July 2013 - March 2015: the bundled list has six quarterly editions after
its cut-over (2013Q4-2015Q1)."""
RETIRED = frozenset({"Halina Wójcik", "Stanisław Kamiński"})
"""Stop coming after 2013: inactive in the editions more than a year later (2015Q1)."""
NEWCOMERS = [("Agnieszka Nowicka", None), ("Marek Zając", None), ("Krzysztof Mazur", None),
             ("Joanna Krawczyk", None)]
"""Two new pairs from July 2014: provisional in the editions after it."""
NEWCOMERS_FROM = dt.date(2014, 7, 1)

EXTRA = [  # club regulars who do not appear in the JFR sample (no federation id given)
    ("Barbara Wiśniewska", None), ("Tadeusz Zieliński", None), ("Halina Wójcik", None),
    ("Stanisław Kamiński", None), ("Elżbieta Lewandowska", None), ("Ryszard Dudek", None),
]


def jfr_players() -> list[tuple[str, str | None]]:
    text = JFR.read_text(encoding="utf-8")
    found = re.findall(r"cezar/\?[^\"]*?r=(\d+)\"[^>]*>([^<]+)</a>", text)
    return [(html.unescape(name).strip(), fid) for fid, name in found]


def thursdays(start: dt.date, end: dt.date) -> list[dt.date]:
    day = start + dt.timedelta(days=(3 - start.weekday()) % 7)
    out = []
    while day <= end:
        out.append(day)
        day += dt.timedelta(days=7)
    return out


def main() -> None:
    rng = random.Random(SEED)
    players = jfr_players() + EXTRA
    strength = {name: rng.gauss(0, 1) for name, _ in players}
    ids = dict(players)
    names = [name for name, _ in players]
    rng.shuffle(names)
    # Regular partnerships, re-formed now and then.
    partnerships = [tuple(names[i:i + 2]) for i in range(0, len(names) - 1, 2)]
    OUT.mkdir(parents=True, exist_ok=True)
    for folder in (OUT, LATER):
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.csv"):
            old.unlink()
    by_month: dict[str, list[list[str]]] = {}
    late = random.Random(SEED + 1)  # newcomers' strengths: the 2013 draws stay as they were
    for name, _ in NEWCOMERS:
        strength[name] = late.gauss(0, 1)
    ids.update(NEWCOMERS)
    for date in thursdays(dt.date(2013, 7, 1), END):
        if date == dt.date(2013, 8, 8):
            continue  # that Thursday's event is the real JFR file
        if date >= NEWCOMERS_FROM and not any(p[0] == NEWCOMERS[0][0] for p in partnerships):
            partnerships += [(NEWCOMERS[0][0], NEWCOMERS[1][0]),
                             (NEWCOMERS[2][0], NEWCOMERS[3][0])]
        if rng.random() < 0.15:
            a, b = rng.sample(range(len(partnerships)), 2)
            (p1, p2), (q1, q2) = partnerships[a], partnerships[b]
            partnerships[a], partnerships[b] = (p1, q2), (q1, p2)
        present = [p for p in partnerships if rng.random() < 0.6]
        if date > dt.date(2013, 12, 31):
            present = [p for p in present if not RETIRED & set(p)]
        boards = rng.choice([24, 26, 27, 28])
        scores = {
            pair: 50 + 6 * (strength[pair[0]] + strength[pair[1]]) / 2 + rng.gauss(0, 5)
            for pair in present
        }
        ranked = sorted(present, key=lambda p: -scores[p])
        rows = by_month.setdefault(date.strftime("%Y-%m"), [])
        place_of = {}
        for i, pair in enumerate(ranked, 1):
            score = round(scores[pair], 2)
            tied = [j for j, q in enumerate(ranked, 1) if round(scores[q], 2) == score]
            place_of[pair] = f"{tied[0]}-{tied[-1]}" if len(tied) > 1 else str(i)
        numbers = list(range(1, len(ranked) + 1))
        rng.shuffle(numbers)  # pair numbers are seats, not ranks
        for number, pair in zip(numbers, ranked):
            for name in pair:
                fid = ids.get(name)
                written = name
                if fid and rng.random() < 0.1:
                    fid = None  # the webmaster left the id out this time
                rows.append([
                    ORGANISER, "Turniej par - czwartek", date.isoformat(), "pairs", "MP",
                    str(boards), str(number),
                    place_of[pair], f"{scores[pair]:.2f}", written, fid or "",
                ])
    header = ["organiser", "event", "date", "kind", "scoring", "boards", "unit", "place",
              "score", "player", "federation_id"]
    for month, rows in sorted(by_month.items()):
        folder = OUT if month < "2014" else LATER
        with open(folder / f"singleton-{month}.csv", "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)


if __name__ == "__main__":
    main()
