"""Generic result spreadsheets: the key facts of each fixture, detection, errors, robustness."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers import FORMATS, MalformedFile, ParseError, ParseResult, detect_format
from parsers import spreadsheet

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HERE = FIXTURES / "spreadsheet"
CASES = sorted(p for p in HERE.rglob("*") if p.suffix in (".xlsx", ".xls", ".ods", ".csv"))


def _parse(path: Path, *, strict: bool = False) -> ParseResult:
    return spreadsheet.parse(path.read_bytes(), source=str(path), strict=strict)


def _xlsx(rows: list[list[object]], title: str = "Hárok1") -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_registered_as_fallback() -> None:
    assert FORMATS["spreadsheet"].fallback is True


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_fixtures_detected_only_as_spreadsheet(path: Path) -> None:
    data = path.read_bytes()
    assert [f.name for f in FORMATS.values() if f.detect(data, path.name)] == ["spreadsheet"]
    assert detect_format(data, path.name).name == "spreadsheet"


def _specific(path: Path) -> bool:
    """A format of its own claims the file: the generic one is never asked (fixtures/real/pending
    holds real result tables no reader reads yet, which a generic one may well claim)."""
    from parsers import FORMATS

    data = path.read_bytes()
    return any(f.detect(data, path.name) for f in FORMATS.values() if not f.fallback)


def test_claims_no_other_fixture() -> None:
    # fixtures/identity holds club lists in this format on purpose (the initials club)
    others = [p for p in FIXTURES.rglob("*")
              if p.relative_to(FIXTURES).parts[0] != "field" and p.is_file()
              and HERE not in p.parents and FIXTURES / "identity" not in p.parents
              and not p.name.endswith(".json") and p.suffix not in (".txt", ".md")]
    assert [p.name for p in others if spreadsheet.detect(p.read_bytes(), p.name)
            and not _specific(p) and p.parent.name != "pending" and _loads(p)] == []


def _loads(path: Path) -> bool:
    """The generic reader would load the file (a table it claims but refuses, a season's
    points with no date, takes nothing from another format)."""
    from parsers import ParseError

    try:
        spreadsheet.parse(path.read_bytes(), source=path.name)
    except ParseError:
        return False
    return True


# --- fixtures -------------------------------------------------------------------------------


def test_initials_columns_xlsx() -> None:
    result = _parse(HERE / "initials-columns.xlsx")
    (event,) = result.events
    assert (event.date, event.organiser, event.boards) == (dt.date(2012, 3, 12), "BK Senec", 24)
    assert (event.kind, event.scoring) == ("pairs", "MP")
    assert event.n_units == 8
    winner = event.units[0]
    assert (winner.label, winner.score) == ("5", 61.25)  # 0.6125 formatted as percent
    assert [(p.name, p.initials, p.club) for p in winner.players] == [
        ("JNo", True, "BK Senec"), ("PKo", True, "BK Senec"),
    ]
    assert [u.place for u in event.units[3:5]] == [4.5, 4.5]
    assert [p.name for p in event.units[5].players] == ["AHr", "TKr", "ĽMi"]
    assert result.issues[0].message == "results run across the columns (transposed layout)"


def test_initials_columns_ods() -> None:
    (event,) = _parse(HERE / "ods" / "initials-columns.ods").events
    assert event.date == dt.date(2012, 3, 19)  # only in the sheet name
    assert event.organiser == "BK Senec"
    assert [u.place for u in event.units] == [1.0, 2.0, 3.5, 3.5, 5.0, 6.0]
    assert [u.place_text for u in event.units][2:4] == ["3", "3"]
    assert event.units[0].score == 60.42
    assert all(p.initials and p.club == "BK Senec" for u in event.units for p in u.players)


def test_two_sheets_and_a_summary() -> None:
    result = _parse(HERE / "rows-two-sheets-summary.xlsx")
    (event,) = result.events
    assert event.title == "Majstrovstvá klubu v pároch 2013"
    assert event.date == dt.date(2013, 10, 5)
    assert [u.score for u in event.units][:2] == [59.87, 55.21]
    assert "summary sheet 'Celkové poradie'" in result.issues[0].message
    assert "'1. kolo', '2. kolo'" in result.issues[0].message


def test_legacy_xls() -> None:
    result = _parse(HERE / "legacy-rows.xls")
    (event,) = result.events
    assert (event.title, event.organiser, event.date) == (
        "Klubový turnaj párů – Bridžový klub Brno", "BK Brno", dt.date(2011, 10, 3))
    assert event.scoring == "MP"
    assert [u.score for u in event.units][:2] == [65.74, 56.02]
    assert [u.place for u in event.units][4:6] == [5.5, 5.5]
    assert event.units[2].players[0].name == "Nováková-Dvořáková Jana"
    assert [p.club for p in event.units[4].players] == ["BK Zlín", "BK Zlín"]
    assert [i.message for i in result.issues] == ["totals row skipped: value 'Celkem | 836'"]


def test_semicolon_cp1250_csv() -> None:
    result = _parse(HERE / "semicolon-cp1250.csv")
    (event,) = result.events
    assert event.title == "Turnaj párů BK Praha – Valentýnský"
    assert event.date == dt.date(2013, 2, 14)
    assert [u.place for u in event.units] == [1.0, 2.0, 3.5, 3.5, 5.0, 6.0]
    assert [p.name for p in event.units[1].players] == ["Černá Věra", "Růžička Pavel"]
    assert event.units[2].players[1].name == "Kříž Ľubor"
    assert result.issues[0].message == "file is not UTF-8; read as cp1250"


def test_formulas_read_as_cached_values() -> None:
    (event,) = _parse(HERE / "formulas-cached-values.xlsx").events
    assert event.scoring == "IMP"
    assert [u.place_text for u in event.units] == ["1", "2", "3", "4", "5", "6"]
    assert [u.score for u in event.units] == [40.0, 34.0, 16.0, -8.0, -34.0, -48.0]
    assert event.organiser == "BK Nitra"


def test_formula_without_cached_value_is_a_warning_naming_the_cell() -> None:
    data = _xlsx([["Turnaj 12.3.2012"], ["Por.", "Meno", "IMP"], [1, "A - B", "=5+5"],
                  [2, "C - D", 4], [3, "E - F", 2], [4, "G - H", -3]])
    result = spreadsheet.parse(data, source="f.xlsx")
    assert result.events[0].units[0].score is None
    issue = result.issues[0]
    assert issue.message.startswith("formula in cell C3 has no saved value")
    assert issue.where == "file f.xlsx, table Hárok1, row 3, column C"
    with pytest.raises(MalformedFile):
        spreadsheet.parse(data, source="f.xlsx", strict=True)


# --- text variants --------------------------------------------------------------------------


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_any_delimiter(delimiter: str) -> None:
    point = "." if delimiter == "," else ","  # a comma-separated file writes decimal points
    lines = ["Turnaj 12.3.2012", delimiter.join(["Por.", "Meno", "%"]),
             delimiter.join(["1", "Novák - Kováč", f"55{point}5"]),
             delimiter.join(["2", "Tóth - Varga", f"44{point}5"])]
    data = "\n".join(lines).encode("utf-8-sig")
    assert spreadsheet.detect(data, "x.csv")
    (event,) = spreadsheet.parse(data, source="x.csv").events
    assert [u.score for u in event.units] == [55.5, 44.5]


def test_iso_8859_2_csv() -> None:
    data = "Turnaj Ľubochňa 12.3.2012\nPor.;Meno;%\n1;Šťastný - Žiak;60\n2;Ďurica - Ňuňo;40\n" \
        .encode("iso8859_2")
    (event,) = spreadsheet.parse(data, source="x.csv").events
    assert event.title == "Turnaj Ľubochňa"
    assert [p.name for p in event.units[0].players] == ["Šťastný", "Žiak"]


def test_not_claimed_template_tagged_or_html() -> None:
    template = b"organiser,event,date,kind,scoring,boards,unit,place,score,player\n"
    assert not spreadsheet.detect(template + b"X,Y,2013-10-03,pairs,MP,24,7,1,61.2,Jan\n")
    assert not spreadsheet.detect(b"#VERSION,EBUScore\n#DATE,14/10/2013\nPos,Names,Score\n")
    assert not spreadsheet.detect(b"<html><table><tr><td>Por.</td><td>Meno</td><td>%</td>")
    assert not spreadsheet.detect(b"just some text\nwith lines\n")
    assert not spreadsheet.detect(b"PK\x03\x04 broken zip")
    assert not spreadsheet.detect(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 not a workbook")


# --- several sheets, errors -----------------------------------------------------------------


def test_sheets_without_summary_are_events_of_their_own() -> None:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, players in (("5.5.2013", ["A - B", "C - D"]), ("12.5.2013", ["E - F", "G - H"])):
        sheet = book.create_sheet(name)
        sheet.append(["Turnaj"])
        sheet.append(["Por.", "Meno", "%"])
        for place, names in enumerate(players, start=1):
            sheet.append([place, names, 60 - 10 * place])
    out = io.BytesIO()
    book.save(out)
    result = spreadsheet.parse(out.getvalue(), source="s.xlsx")
    assert [e.date for e in result.events] == [dt.date(2013, 5, 5), dt.date(2013, 5, 12)]
    assert result.issues[0].level == "info"


def test_no_results_table() -> None:
    data = _xlsx([["Meno", "Adresa"], ["Novák", "Senec"]])
    with pytest.raises(MalformedFile, match="no results table") as caught:
        spreadsheet.parse(data, source="/inbox/a.xlsx")
    assert caught.value.file == "a.xlsx"


def test_invalid_place_names_sheet_row_and_cell() -> None:
    data = _xlsx([["Turnaj 12.3.2012"], ["Por.", "Meno", "%"], [1, "A - B", 60],
                  ["?", "C - D", 40]], title="Výsledky")
    with pytest.raises(MalformedFile) as caught:
        spreadsheet.parse(data, source="a.xlsx")
    error = caught.value
    assert (error.file, error.table, error.row, error.column, error.value) == \
        ("a.xlsx", "Výsledky", 4, "Por.", "?")
    assert "cell A4" in str(error)


# --- robustness -----------------------------------------------------------------------------

_SAMPLES = [p.read_bytes() for p in CASES]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_SAMPLES), st.integers(min_value=0), st.integers(0, 255),
       st.booleans())
def test_damaged_files_only_raise_parse_errors(data: bytes, position: int, byte: int,
                                               truncate: bool) -> None:
    index = position % len(data)
    damaged = data[:index] if truncate else data[:index] + bytes([byte]) + data[index + 1:]
    try:
        spreadsheet.parse(damaged, source="damaged")
    except ParseError:
        pass
    spreadsheet.detect(damaged, "damaged")


# --- evidence and programs ------------------------------------------------------------------


def test_a_numbered_list_of_names_is_not_a_ranking() -> None:
    data = _xlsx([["Prihlásení 12.3.2012"], ["Č.", "Meno", "Klub"], [1, "Novák Ján", "BK Senec"],
                  [2, "Kováč Peter", "BK Senec"], [3, "Tóth Pál", "BK Nitra"]], title="Hárok1")
    with pytest.raises(MalformedFile) as caught:
        spreadsheet.parse(data, source="/inbox/prihlasky.xlsx")
    assert caught.value.file == "prihlasky.xlsx"
    assert "sheet 'Hárok1' has a names column but no place or score column" in str(caught.value)


def test_pair_numbers_where_names_belong_are_not_players() -> None:
    data = b"No.;Pair;Score\n1;7;61.2\n2;3;55.0\n3;12;44.9\n4;1;40.1\n"
    with pytest.raises(MalformedFile, match="but no names column"):
        spreadsheet.parse(data, source="results_2014-03-12.csv")


@pytest.mark.parametrize("first_lines", [
    "No.;User;Result\n", "Title,#4242 Pairs Tuesday Club\nRank,Name,Score\n",
    "RealBridge results 12.3.2012\nPlace;Names;%\n",
])
def test_a_programs_export_is_refused(first_lines: str) -> None:
    rows = "1;Novák - Kováč;60\n2;Tóth - Varga;40\n"
    data = (first_lines + (rows if ";" in first_lines else rows.replace(";", ","))).encode()
    assert not spreadsheet.detect(data, "export.csv")
    with pytest.raises(ParseError, match="written by"):
        spreadsheet.parse(data, source="export.csv")


def test_the_csv_template_is_refused_when_asked_by_name() -> None:
    data = (FIXTURES / "identity" / "modra-2013-09-05.csv").read_bytes()
    with pytest.raises(ParseError, match="the CSV template"):
        spreadsheet.parse(data, source="modra-2013-09-05.csv")


def test_a_workbook_saved_by_a_scoring_program_is_refused() -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["Turnaj 12.3.2012"], ["Por.", "Meno", "%"], [1, "Novák - Kováč", 60],
                [2, "Tóth - Varga", 40]):
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    assert spreadsheet.parse(out.getvalue(), source="t.xlsx").events
    book.properties.creator = "EBUScore Pairs"
    out = io.BytesIO()
    book.save(out)
    assert not spreadsheet.detect(out.getvalue(), "t.xlsx")
    with pytest.raises(ParseError, match="written by EBUScore"):
        spreadsheet.parse(out.getvalue(), source="t.xlsx")
