"""HTML go cross tables: key facts of the fixtures, the cell grammar, detection, errors."""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest

from parsers import (
    FORMATS, InconsistentResult, MalformedFile, NoResults, ParseError, ParseResult,
)
from parsers.go_html import absent_reason, clean_name, detect, parse, read_cell

ROOT = Path(__file__).resolve().parent.parent / "fixtures"
FIXTURES = ROOT / "go_html"
OPENGOTHA = FIXTURES / "real-opengotha-standings-tied-places-footer-date.html"
RUSSIAN = FIXTURES / "russian-cp1251-tours-inconsistent-pair.html"
REAL = ROOT / "real" / "go_html"
REFUSED = ROOT / "real" / "refused"


def _parse(path: Path, strict: bool = False) -> ParseResult:
    return parse(path.read_bytes(), source=str(path), strict=strict)


@pytest.mark.parametrize(("cell", "expected"), [
    ("  12+/w0", (12, "+", "white", 0, False)),
    ("17+/w2", (17, "+", "white", 2, False)),
    ("12+", (12, "+", None, None, False)),
    ("4+ч", (4, "+", "black", 0, False)),
    ("1-б", (1, "-", "white", 0, False)),
    ("5 =", (5, "=", None, None, False)),
    ("0+", (0, "-", None, None, False)),
    ("\u2014", (0, "-", None, None, False)),
    ("", (0, "-", None, None, False)),
])
def test_cells(cell: str, expected: tuple[object, ...]) -> None:
    assert read_cell(cell) == expected


@pytest.mark.parametrize("cell", ["2+-", "won", "12", "5-6"])
def test_cells_that_are_not_results(cell: str) -> None:
    assert read_cell(cell) is None


def test_opengotha_standings() -> None:
    result = _parse(OPENGOTHA)
    assert len(result.events) == 8  # 17 players, one bye
    first = result.events[0]
    assert first.title == ("North Europe Senior Open Go Championship round 1: "
                           "Guo Juan \u2013 Lounela Olli")
    assert first.date == dt.date(2017, 9, 15)  # the export stamp: no other date on the page
    assert first.end_date is None
    # opponents are the Num column: Lounela Olli is Num 7 (the Pl cell of a tie is blank)
    assert [(u.label, u.colour, u.place) for u in first.units] == [
        ("1", "black", 1.0), ("7", "white", 2.0)]
    assert first.units[0].players[0].club == "Hilv"
    handicap = next(e for e in result.events if e.handicap == 2)
    assert [(u.players[0].name, u.colour, u.place, u.place_text) for u in handicap.units] == [
        ("Segerman Jil", "white", 1.0, "17+/w2"), ("Benzian Yvonne", "black", 2.0, "15-/b2")]
    assert handicap.komi is None
    assert handicap.section == "Benzian Yvonne \u2013 Segerman Jil"
    warning = [i for i in result.issues if i.level == "warning"]
    assert [i.message for i in warning] == [
        ("no tournament date on the page; dated by OpenGotha's export time stamp: "
        "value 'OpenGotha 3.45 15-09-2017 18:27'")]
    bye = [i for i in result.issues if "has no game" in i.message]
    assert [i.where for i in bye] == [f"file {OPENGOTHA.name}, table 1, row 17, column R 1"]


def test_a_date_from_the_export_stamp_is_refused_in_strict_mode() -> None:
    with pytest.raises(MalformedFile, match="export time stamp"):
        _parse(OPENGOTHA, strict=True)


def test_russian_table() -> None:
    result = _parse(RUSSIAN)
    assert len(result.events) == 6
    assert {e.date for e in result.events} == {dt.date(2023, 3, 12)}
    assert result.events[0].parent == "Кубок клуба «Сэнтэ» по го"
    first = result.events[0]
    assert [(u.players[0].name, u.colour, u.place) for u in first.units] == [
        ("Иванов Сергей", "black", 1.0), ("Кузнецов Олег", "white", 2.0)]
    assert (first.handicap, first.komi) == (0, 6.5)  # "коми 6,5" in the text
    plain = result.events[1]
    assert [u.colour for u in plain.units] == [None, None]
    assert (plain.handicap, plain.komi) == (None, None)
    # the № column numbers the players; Место has a tie (2-3) and is not used
    assert [u.label for u in plain.units] == ["2", "5"]
    assert not [e for e in result.events if e.round == 2 and e.units[0].label in ("4", "5")]


def test_russian_inconsistent_pair_and_bad_cell_name_their_cells() -> None:
    issues = [i for i in _parse(RUSSIAN).issues if i.level == "warning"]
    where = f"file {RUSSIAN.name}, table 1"
    assert [(i.message, i.where) for i in issues] == [
        ("round 2: cell is not a go result (like 12+/w3 or 12+); ignored: value '2+-'",
         f"{where}, row 7, column 2 тур"),
        ("round 2: player 6 does not list this game (writes nothing): value '6+'",
         f"{where}, row 3, column 2 тур"),
        (("round 2: players 4 and 5 both report '='/'+'; expected opposite results; game "
         "skipped: value '5='"), f"{where}, row 5, column 2 тур"),
    ]
    with pytest.raises(MalformedFile) as raised:
        _parse(RUSSIAN, strict=True)
    assert (raised.value.table, raised.value.row, raised.value.column, raised.value.value) == (
        "1", 7, "2 тур", "2+-")


def test_strict_inconsistent_pair() -> None:
    data = RUSSIAN.read_bytes().replace("<td>2+-</td>".encode("cp1251"),
                                        "<td>2-</td>".encode("cp1251"))
    with pytest.raises(InconsistentResult) as raised:
        parse(data, source="r.html", strict=True)
    assert (raised.value.row, raised.value.column, raised.value.value) == (5, "2 тур", "5=")


def test_no_date_is_refused() -> None:
    data = RUSSIAN.read_bytes().replace(b"12.03.2023", b"")
    with pytest.raises(MalformedFile, match="no tournament date"):
        parse(data, source="r.html")


def test_detect_needs_round_cells_with_results() -> None:
    assert detect(OPENGOTHA.read_bytes())
    page = ("<html><body><table><tr><th>Place</th><th>Name</th><th>1</th><th>2</th></tr>"
            "<tr><td>1</td><td>A B</td><td>{}</td><td>{}</td></tr>"
            "<tr><td>2</td><td>C D</td><td>{}</td><td>{}</td></tr></table></body></html>")
    assert detect(page.format("2+", "0+", "1-", "0-").encode())
    assert not detect(page.format("61,5", "58,2", "48,5", "42,0").encode())


def test_bridge_pages_are_not_claimed() -> None:
    pages = [p for p in ROOT.rglob("*.htm*") if p.parent.name != "go_html"
             and p.relative_to(ROOT).parts[0] != "field"
             and not p.name.startswith("opengotha-")]
    assert pages
    assert [p.name for p in pages if FORMATS["go_html"].detect(p.read_bytes(), p.name)] == []


@pytest.mark.parametrize("path", [
    OPENGOTHA, RUSSIAN, REAL / "opengotha-3-40-one-day-handicaps-truncated-nicknames.html",
    REFUSED / "opengotha-players-list-registrations.html",
], ids=lambda p: p.name)
def test_damaged_files_raise_only_parse_errors(path: Path) -> None:
    rng = random.Random(13)
    data = path.read_bytes()
    for _ in range(40):
        damaged = bytearray(data[: rng.randrange(1, len(data) + 1)])
        for _ in range(rng.randint(0, 8)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        try:
            parse(bytes(damaged), source=path.name)
        except ParseError:
            pass


@pytest.mark.parametrize(("written", "name"), [
    ("le_Calve Tanguy", "le Calve Tanguy"),
    ("Krogt Harry_van_der", "Krogt Harry van der"),
    ("Perez-Lopez Antonina (Tonya", "Perez-Lopez Antonina"),
    ("Zhang Zhiyuan [Edward", "Zhang Zhiyuan"),
    ("Novak Jan (Honza)", "Novak Jan (Honza)"),
    ("  Kim   Youngsam ", "Kim Youngsam"),
])
def test_names_as_written_are_made_readable(written: str, name: str) -> None:
    assert clean_name(written) == name


@pytest.mark.parametrize(("name", "absent"), [
    ("? ??", True), ("Ghost 1", True), ("BYE BYE", True), ("Bye", True), ("Lui Eric", False),
    ("Ghostley Ann", False),
])
def test_placeholders_and_seat_fillers_are_not_players(name: str, absent: bool) -> None:
    assert (absent_reason(name) is not None) is absent


def test_a_filler_row_is_left_out_with_its_games() -> None:
    page = ("<html><body><h1>Club cup</h1><p>3.5.2024</p><table>"
            "<tr><th>Pl</th><th>Name</th><th>1</th><th>2</th></tr>"
            "<tr><td>1</td><td>Alfa Anna</td><td>2+</td><td>3+</td></tr>"
            "<tr><td>2</td><td>Bravo Bert</td><td>1-</td><td>0-</td></tr>"
            "<tr><td>3</td><td>Ghost 1</td><td>0-</td><td>1-</td></tr>"
            "</table></body></html>").encode()
    result = FORMATS["go_html"].parse(page, source="cup.html")
    assert [(e.round, [u.players[0].name for u in e.units]) for e in result.events] == [
        (1, ["Alfa Anna", "Bravo Bert"])]
    assert any("seat filler" in i.message and i.level == "warning" for i in result.issues)


def test_an_export_stamp_years_after_the_title_is_refused() -> None:
    data = OPENGOTHA.read_bytes().replace(b"Championship</h1>", b"Championship 2011</h1>")
    with pytest.raises(MalformedFile, match=r"later than the year the title names \(2011\)"):
        parse(data, source="o.html")
    # several years in the title (a memorial's dates) say nothing about the export
    data = OPENGOTHA.read_bytes().replace(b"Championship</h1>", b"Championship 1940-2010</h1>")
    assert {e.date for e in parse(data, source="o.html").events} == {dt.date(2017, 9, 15)}
    # the same stamp under a title with the stamp's year is the tournament's day, with a warning
    data = OPENGOTHA.read_bytes().replace(b"Championship</h1>", b"Championship 2017</h1>")
    assert {e.date for e in parse(data, source="o.html").events} == {dt.date(2017, 9, 15)}


def test_real_opengotha_standings() -> None:
    result = FORMATS["go_html"].parse(
        (REAL / "opengotha-3-40-one-day-handicaps-truncated-nicknames.html").read_bytes())
    assert len(result.events) == 84  # 168 game cells of 48 players, 4 rounds
    assert {e.date for e in result.events} == {dt.date(2017, 4, 29)}
    assert {e.parent for e in result.events} == {"NGC Cherry Blossom 17"}
    names = {u.players[0].name for e in result.events for u in e.units}
    assert len(names) == 48
    assert {"Perez-Lopez Antonina", "Zhang Zhiyuan"} <= names
    last = result.events[-1]
    assert (last.round, last.handicap) == (4, 2)
    assert [(u.players[0].name, u.colour, u.place) for u in last.units] == [
        ("Ensworth Laurie", "black", 1.0), ("Ting Dennis", "white", 2.0)]


@pytest.mark.parametrize(("path", "why", "kind"), [
    (REAL / "opengotha-3-39-round-results-not-entered-refused.html", "no game has a result yet",
     MalformedFile),
    (REAL / "opengotha-3-39-no-round-paired-yet-refused.html", "no game played yet",
     MalformedFile),
    (REFUSED / "opengotha-games-list-one-round-pairings.html", "'Games list. Round 4'",
     NoResults),
    (REFUSED / "opengotha-players-list-registrations.html", "'Players list'", NoResults),
], ids=lambda x: x.name if isinstance(x, Path) else "")
def test_opengotha_pages_without_results_are_refused_by_what_they_are(
        path: Path, why: str, kind: type[Exception]) -> None:
    data = path.read_bytes()
    assert detect(data, path.name)
    with pytest.raises(kind, match=re.escape(why)) as raised:
        parse(data, source=path.name)
    assert type(raised.value) is kind
