"""Regenerate the binary league fixtures (``fixtures/league/*.xlsx``; docs/league-template.md).

    python scripts/make_league_fixtures.py

``draw-and-lineups.xlsx``: a Czech single round robin of four teams on the sheets ``league``,
``teams`` and ``matches``: real date cells, federation ids as number cells, VPs with decimals
(continuous 20-VP scale), a 40:40 draw at 10:10, lineups naming who played (one of them written
with extra spaces around the ``;``), a roster of eight. The zip entries get a fixed timestamp so
the bytes are the same on every run. Afterwards refresh the golden file:

    python scripts/update_golden.py fixtures/league/draw-and-lineups.xlsx
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "fixtures" / "league"
STAMP = dt.datetime(2014, 6, 1, 12, 0, 0)

LEAGUE = [
    ("league", "1. liga družstev"),
    ("organiser", "Český bridžový svaz"),
    ("season", "2014"),
    ("section", "skupina Morava"),
    ("vp_scale", 20),
]

TEAMS: list[tuple[str, list[tuple[str, int | None, str | None]]]] = [
    ("BK Brno", [
        ("Jan Dvořák", 20311, "BK Brno"), ("Petra Nováková", 20345, "BK Brno"),
        ("Jiří Černý", 20402, "BK Brno"), ("Zdeněk Procházka", 20417, "BK Brno"),
        ("Hana Kučerová", None, "BK Brno"),
    ]),
    ("BK Olomouc", [
        ("Tomáš Veselý", 31022, "BK Olomouc"), ("Lenka Marková", 31030, "BK Olomouc"),
        ("Radek Šťastný", 31041, "BK Olomouc"), ("Věra Pokorná", 31058, "BK Olomouc"),
    ]),
    ("Lokomotiva Ostrava", [
        ("Miroslav Král", 40105, "Lokomotiva Ostrava"), ("Ivana Růžičková", 40111, None),
        ("Pavel Hájek", 40126, "Lokomotiva Ostrava"), ("Bohumil Říha", 40133, None),
        ("Alena Fialová", 40147, "Lokomotiva Ostrava"), ("Luděk Sedláček", None, None),
        ("Karel Zeman", 40162, "Lokomotiva Ostrava"), ("Jarmila Doležalová", 40178, None),
    ]),
    ("BC Zlín", [
        ("Vladimír Beneš", 50201, "BC Zlín"), ("Martina Horáková", 50215, "BC Zlín"),
        ("Ondřej Kříž", 50230, "BC Zlín"), ("Eliška Vaňková", 50244, "BC Zlín"),
        ("Stanislav Bartoš", 50259, "BC Zlín"),
    ]),
]

MATCH_HEADER = ("round", "date", "home", "away", "imp_home", "imp_away", "vp_home", "vp_away",
                "lineup_home", "lineup_away")
MATCHES: list[tuple[object, ...]] = [
    (1, dt.datetime(2014, 3, 15), "BK Brno", "BK Olomouc", 52, 31, 14.52, 5.48,
     "Jan Dvořák; Petra Nováková; Jiří Černý; Zdeněk Procházka", None),
    (1, dt.datetime(2014, 3, 15), "Lokomotiva Ostrava", "BC Zlín", 40, 40, 10, 10,
     "Miroslav Král;Ivana Růžičková;Pavel Hájek;Bohumil Říha;Karel Zeman;"
     "Jarmila Doležalová",
     "Vladimír Beneš;Martina Horáková;Ondřej Kříž;Eliška Vaňková"),
    (2, dt.datetime(2014, 4, 12), "BK Brno", "Lokomotiva Ostrava", 61, 18, 16.87, 3.13,
     None, None),
    (2, dt.datetime(2014, 4, 12), "BK Olomouc", "BC Zlín", 27, 35, 8.41, 11.59, None,
     "Ondřej Kříž;Eliška Vaňková;Stanislav Bartoš;Vladimír Beneš"),
    (3, dt.datetime(2014, 5, 17), "BC Zlín", "BK Brno", 39, 33, 11.21, 8.79,
     None, "Hana Kučerová;Jan Dvořák;Petra Nováková;Jiří Černý"),
    (3, dt.datetime(2014, 5, 17), "BK Olomouc", "Lokomotiva Ostrava", 15, 58, 2.95, 17.05,
     None, None),
]


def build_draw_and_lineups() -> bytes:
    wb = openpyxl.Workbook()
    league = wb.active
    assert league is not None
    league.title = "league"
    for key, value in LEAGUE:
        league.append([key, value])
    teams = wb.create_sheet("teams")
    teams.append(["team", "player", "federation_id", "club"])
    for team, players in TEAMS:
        for name, federation_id, club in players:
            teams.append([team, name, federation_id, club])
    matches = wb.create_sheet("matches")
    matches.append(list(MATCH_HEADER))
    for row in MATCHES:
        matches.append(list(row))
        matches.cell(matches.max_row, 2).number_format = "d.m.yyyy"
    wb.properties.created = STAMP
    wb.properties.modified = STAMP
    raw = io.BytesIO()
    wb.save(raw)
    return _fixed_zip(raw.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same archive with every entry dated ``STAMP`` (openpyxl stamps the current time)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=STAMP.timetuple()[:6])
            fixed.compress_type = zipfile.ZIP_DEFLATED
            text = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                text = _fixed_core(text)
            dst.writestr(fixed, text)
    return out.getvalue()


def _fixed_core(xml: bytes) -> bytes:
    """openpyxl writes the save time as ``dcterms:modified``; pin it to ``STAMP``."""
    stamp = STAMP.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    return re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(<)", rb"\g<1>" + stamp + rb"\2",
                  xml)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    target = OUT / "draw-and-lineups.xlsx"
    target.write_bytes(build_draw_and_lineups())
    print(f"written: {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
