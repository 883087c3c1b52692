"""Write the identity fixture club (``fixtures/identity/``): a federation register and the result
lists of one club, for the player-identity rules (federation ids, name spellings, initials).

    python scripts/make_identity_fixtures.py

Everything here is synthetic, written after the shape of real club result lists: the fictional
Slovak club "BK Modra" and its neighbour "BK Senec".

- ``register-2013.csv`` / ``register-2014.xlsx``: the federation's member register at two dates
  (a member changes club, one becomes inactive, one joins);
- ``modra-2013-09-05.csv`` / ``modra-2013-09-12.csv``: club results in the CSV template
  (docs/csv-template.md) with the names written as clubs write them: ``Surname Firstname``,
  capitals, no diacritics, a title, a hyphenated surname, a few federation ids;
- ``modra-2013-09-19-initials.xlsx`` ... ``modra-2013-10-03-initials.xlsx``: the club writes
  initials (docs/rules/inputs.md, "One club writes initials instead of names"); two members share
  ``JNo`` (Ján Novák, Jozef Novotný), sometimes told apart by the partner, sometimes not.

Writing is deterministic (fixed workbook properties and zip member times): a re-run gives the
same bytes. These files have no ``.expected.json`` beside them; ``tests/test_identity_fixtures.py``
pins what the parsers make of them.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts._zips import rezip  # noqa: E402

IDENTITY = ROOT / "fixtures" / "identity"
_WORKBOOK_TIME = dt.datetime(2013, 1, 1, 0, 0, 0)

MODRA = "BK Modra"
SENEC = "BK Senec"

# federation id, first name, surname, club, birth year, status (as of 1.9.2013)
REGISTER_2013: list[tuple[str, str, str, str, int, str]] = [
    ("1001", "Ján", "Novák", MODRA, 1961, "aktívny"),
    ("1002", "Jozef", "Novotný", MODRA, 1958, "aktívny"),
    ("1003", "Peter", "Kováč", MODRA, 1970, "aktívny"),
    ("1004", "Mária", "Horváthová", MODRA, 1965, "aktívny"),
    ("1005", "Zuzana", "Krajčírová", MODRA, 1980, "aktívny"),
    ("1006", "Lucia", "Bieliková", MODRA, 1975, "aktívny"),
    ("1007", "Martin", "Šťastný", MODRA, 1969, "aktívny"),
    ("1008", "Eva", "Nováková-Kráľová", MODRA, 1972, "aktívny"),
    ("1009", "Tomáš", "Varga", SENEC, 1966, "aktívny"),
    ("1010", "Katarína", "Szabóová", SENEC, 1971, "aktívny"),
    ("1011", "Ladislav", "Kiss", SENEC, 1963, "aktívny"),
    ("1012", "Andrea", "Benková", SENEC, 1984, ""),
]


def _register_2014() -> list[tuple[str, str, str, str, int, str]]:
    """A year on: Ladislav Kiss moved to BK Modra, Martin Šťastný is inactive, Juraj Nemec new."""
    rows = []
    for fid, first, surname, club, born, status in REGISTER_2013:
        if fid == "1011":
            club = MODRA
        if fid == "1007":
            status = "neaktívny"
        rows.append((fid, first, surname, club, born, status))
    rows.append(("1013", "Juraj", "Nemec", MODRA, 1990, "aktívny"))
    return rows


# --- zip / workbook helpers -----------------------------------------------------------------


def _normalise_zip(data: bytes) -> bytes:
    """The same archive with fixed member timestamps (reproducible bytes)."""
    def stamped(name: str, content: bytes) -> bytes:
        if name != "docProps/core.xml":  # in case a writer stamps the time anyway
            return content
        return re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?",
                      b"2013-01-01T00:00:00Z", content)

    return rezip(data, stamped)


def _workbook(title: str) -> tuple[Any, Any]:
    """A new workbook with fixed properties and its first sheet, renamed ``title``."""
    import openpyxl

    book = openpyxl.Workbook()
    book.properties.created = _WORKBOOK_TIME
    book.properties.modified = _WORKBOOK_TIME
    book.properties.creator = MODRA
    sheet = book.active
    sheet.title = title
    return book, sheet


def _save(book: Any) -> bytes:
    out = io.BytesIO()
    book.save(out)
    return _normalise_zip(out.getvalue())


# --- the register ---------------------------------------------------------------------------


def register_2013_csv() -> bytes:
    """UTF-8 with BOM, semicolons, CRLF, Slovak headers, a title line above the header."""
    lines = [
        "Slovenský bridžový zväz – register členov k 1.9.2013",
        "Reg. číslo;Meno;Priezvisko;Klub;Rok narodenia;Stav",
    ]
    lines += [";".join([fid, first, surname, club, str(born), status])
              for fid, first, surname, club, born, status in REGISTER_2013]
    return ("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8")


def register_2014_xlsx() -> bytes:
    """English headers in row 1, ids and years as number cells, an empty status as no cell."""
    book, sheet = _workbook("Members")
    sheet.append(["Member no", "First name", "Surname", "Club", "Year of birth", "Status"])
    for fid, first, surname, club, born, status in _register_2014():
        sheet.append([int(fid), first, surname, club, born, status or None])
    return _save(book)


# --- full-name results (CSV template) -------------------------------------------------------

_TEMPLATE_HEADER = ("organiser", "event", "date", "kind", "scoring", "boards", "unit", "place",
                    "score", "player", "federation_id", "club")
# unit, place, score, then (name as written, federation id, club) per player
Pair = tuple[str, str, str, Sequence[tuple[str, str, str]]]


def _template(date: str, pairs: Sequence[Pair]) -> bytes:
    """The CSV template (docs/csv-template.md): UTF-8 without BOM, commas, LF."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_TEMPLATE_HEADER)
    for unit, place, score, players in pairs:
        for name, fid, club in players:
            writer.writerow([MODRA, "Klubový turnaj párov", date, "pairs", "MP", "24", unit, place,
                             score, name, fid, club])
    return out.getvalue().encode("utf-8")


def modra_2013_09_05_csv() -> bytes:
    """``Surname Firstname``, one surname in capitals, federation ids on the winners' rows."""
    return _template("2013-09-05", [
        ("3", "1", "58.33", [("Novák Ján", "1001", MODRA), ("Kováč Peter", "1003", MODRA)]),
        ("1", "2", "52.08", [("NOVOTNÝ Jozef", "", MODRA), ("Horváthová Mária", "", MODRA)]),
        ("4", "3", "47.92", [("Bieliková Lucia", "", MODRA), ("Šťastný Martin", "", MODRA)]),
        ("2", "4", "41.67", [("Nováková-Kráľová Eva", "", MODRA),
                             ("Krajčírová Zuzana", "", MODRA)]),
    ])


def modra_2013_09_12_csv() -> bytes:
    """``Firstname Surname``, some without diacritics, a title (``Ing.``), no ids, no clubs."""
    return _template("2013-09-12", [
        ("2", "1", "56.25", [("Ing. Lucia Bieliková", "", ""), ("Martin Stastny", "", "")]),
        ("4", "2", "53.13", [("Jozef Novotny", "", ""), ("Maria Horvathova", "", "")]),
        ("1", "3", "48.96", [("Ján Novák", "", ""), ("Peter Kovac", "", "")]),
        ("3", "4", "41.67", [("Eva Novakova-Kralova", "", ""), ("Zuzana Krajcirova", "", "")]),
    ])


# --- initials (spreadsheet) -----------------------------------------------------------------


def _initials(sheet_title: str, date_line: str,
              rows: Sequence[tuple[int, int, str, float]]) -> bytes:
    """The club's own layout: title, date line (``BK Modra, 19.9.2013``: the organiser), boards,
    header, one pair per row: place, pair number, initials, percent-formatted score."""
    book, sheet = _workbook(sheet_title)
    sheet.append([f"{MODRA} – klubový turnaj párov"])
    sheet.append([date_line])
    sheet.append(["24 rozdaní"])
    sheet.append([])
    sheet.append(["Poradie", "Pár", "Hráči", "%"])
    for place, pair, names, score in rows:
        sheet.append([place, pair, names, score])
        sheet.cell(sheet.max_row, 4).number_format = "0.00%"
    return _save(book)


def modra_2013_09_19_initials_xlsx() -> bytes:
    """Two JNo: the first partners Peter Kováč (Ján Novák's partner), the second Mária
    Horváthová (Jozef Novotný's partner)."""
    return _initials("19.9.2013", f"{MODRA}, 19.9.2013", [
        (1, 3, "JNo - PKo", 0.5833),
        (2, 1, "JNo - MHo", 0.5208),
        (3, 4, "LBi - MŠť", 0.4792),
        (4, 2, "ENo - ZKr", 0.4167),
    ])


def modra_2013_09_26_initials_xlsx() -> bytes:
    """JNo with Zuzana Krajčírová, a partnership neither JNo has played: ambiguous. Tomáš Varga
    (BK Senec) plays as a guest."""
    return _initials("26.9.2013", f"{MODRA}, 26.9.2013", [
        (1, 2, "JNo - ZKr", 0.5625),
        (2, 4, "PKo - MHo", 0.5313),
        (3, 1, "LBi - MŠť", 0.4896),
        (4, 3, "ENo - TVa", 0.4167),
    ])


def modra_2013_10_03_initials_xlsx() -> bytes:
    """The same situation a week later, JNo - ZKr in another place."""
    return _initials("3.10.2013", f"{MODRA}, 3.10.2013", [
        (1, 1, "LBi - MŠť", 0.6042),
        (2, 4, "PKo - MHo", 0.5208),
        (3, 3, "JNo - ZKr", 0.4583),
        (4, 2, "ENo - TVa", 0.4167),
    ])


FIXTURES: dict[str, Callable[[], bytes]] = {
    "register-2013.csv": register_2013_csv,
    "register-2014.xlsx": register_2014_xlsx,
    "modra-2013-09-05.csv": modra_2013_09_05_csv,
    "modra-2013-09-12.csv": modra_2013_09_12_csv,
    "modra-2013-09-19-initials.xlsx": modra_2013_09_19_initials_xlsx,
    "modra-2013-09-26-initials.xlsx": modra_2013_09_26_initials_xlsx,
    "modra-2013-10-03-initials.xlsx": modra_2013_10_03_initials_xlsx,
}


def main() -> int:
    IDENTITY.mkdir(parents=True, exist_ok=True)
    for name, make in FIXTURES.items():
        path = IDENTITY / name
        data = make()
        old = path.read_bytes() if path.exists() else None
        if old != data:
            path.write_bytes(data)
        print(f"{'unchanged' if old == data else 'written'}: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
