"""The member-register reader: header matching, values, every error with its fields, workbooks,
character sets and damaged files."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warehouse import _register_file
from warehouse._errors import LoadError
from warehouse._register_file import RegisterError, RegisterFile, RegisterMember, read_register

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
IDENTITY = FIXTURES / "identity"
REGISTER_CSV = (IDENTITY / "register-2013.csv").read_bytes()
REGISTER_XLSX = (IDENTITY / "register-2014.xlsx").read_bytes()

HEADER_SK = "Reg. číslo;Meno;Priezvisko;Klub;Rok narodenia;Stav"


def _csv(*lines: str, encoding: str = "utf-8") -> bytes:
    return ("\r\n".join(lines) + "\r\n").encode(encoding)


def _xlsx(*sheets: tuple[str, list[list[object]]]) -> bytes:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _raises(data: bytes, filename: str = "r.csv") -> RegisterError:
    with pytest.raises(RegisterError) as raised:
        read_register(data, filename)
    return raised.value


# --- the fixture files ----------------------------------------------------------------------


def test_csv_fixture_title_line_bom_and_semicolons() -> None:
    result = read_register(REGISTER_CSV, "register-2013.csv")
    assert result.sheet is None
    assert result.warnings == ()
    assert len(result.members) == 12
    first = result.members[0]
    assert first == RegisterMember(
        federation_id="1001", first_name="Ján", surname="Novák", club="BK Modra",
        birth_year=1961, status="aktívny", row=3,  # row 1 the title, row 2 the header
    )
    last = result.members[-1]
    assert (last.federation_id, last.surname, last.club, last.status, last.row) == (
        "1012", "Benková", "BK Senec", None, 14,
    )


def test_xlsx_fixture_number_ids_and_sheet_name() -> None:
    result = read_register(REGISTER_XLSX, "register-2014.xlsx")
    assert result.sheet == "Members"
    assert result.warnings == ()
    assert [m.federation_id for m in result.members] == [str(n) for n in range(1001, 1014)]
    kiss = result.members[10]
    assert kiss == RegisterMember(
        federation_id="1011", first_name="Ladislav", surname="Kiss", club="BK Modra",
        birth_year=1963, status="aktívny", row=12,
    )
    assert result.members[-1].row == 14


# --- character sets and delimiters ----------------------------------------------------------


def test_utf8_without_bom() -> None:
    text = REGISTER_CSV.decode("utf-8-sig")
    result = read_register(text.encode("utf-8"), "r.csv")
    assert result.members == read_register(REGISTER_CSV, "r.csv").members
    assert result.warnings == ()


def test_windows_1250_is_detected_and_noted() -> None:
    text = REGISTER_CSV.decode("utf-8-sig")
    result = read_register(text.encode("cp1250"), "r.csv")
    assert result.members == read_register(REGISTER_CSV, "r.csv").members
    assert result.warnings == ("not UTF-8; read as cp1250",)
    assert result.members[6].surname == "Šťastný"


def test_bad_byte_after_a_utf8_bom_names_the_row() -> None:
    data = _csv("\ufeff" + HEADER_SK, "1001;Ján;Novák;;;").replace("Novák".encode(), b"Nov\xe1k")
    error = _raises(data)
    assert (error.row, error.column, error.value) == (2, None, b"\xe1")
    assert error.problem == "starts with a UTF-8 byte-order mark but is not valid UTF-8"


def test_utf16_with_bom() -> None:
    text = REGISTER_CSV.decode("utf-8-sig").replace(";", "\t")
    result = read_register(text.encode("utf-16"), "r.txt")
    assert result.members == read_register(REGISTER_CSV, "r.csv").members


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_delimiter_is_sniffed(delimiter: str) -> None:
    data = _csv(
        "Slovenský bridžový zväz, register členov",  # a comma in the title line
        delimiter.join(["id", "first name", "surname", "club"]),
        delimiter.join(["7", "Ján", "Novák", "BK Modra, oddiel A" if delimiter != "," else ""]),
    )
    (member,) = read_register(data, "r.csv").members
    assert (member.federation_id, member.first_name, member.surname, member.row) == (
        "7", "Ján", "Novák", 3,
    )
    assert member.club == ("BK Modra, oddiel A" if delimiter != "," else None)


# --- header matching ------------------------------------------------------------------------


@pytest.mark.parametrize(("header", "row"), [
    # Hungarian
    ("Igazolványszám;Vezetéknév;Keresztnév;Egyesület;Születési év;Állapot",
     "01187;Kővári;Ödön;BBC Budapest;1961;aktív"),
    # Polish
    ("Nr PZBS;Nazwisko;Imię;Klub;Rok urodzenia;Status",
     "01187;Kővári;Ödön;BBC Budapest;1961;aktív"),
    # Czech
    ("Evidenční číslo;Příjmení;Jméno;Oddíl;Rok narození;Stav",
     "01187;Kővári;Ödön;BBC Budapest;1961;aktív"),
    # German: "Name" is the surname beside "Vorname"
    ("Mitgliedsnummer;Name;Vorname;Verein;Geburtsjahr;Status",
     "01187;Kővári;Ödön;BBC Budapest;1961;aktív"),
    # English, other spellings
    ("Federation ID;Family name;Given name;Club;Year of birth;State",
     "01187;Kővári;Ödön;BBC Budapest;1961;aktív"),
    # case, accents and punctuation do not matter
    ("REG CISLO;priezvisko;MENO;klub;rok narodenia:;STAV",
     "01187;Kővári;Ödön;BBC Budapest;1961;aktív"),
])
def test_headers_in_six_languages(header: str, row: str) -> None:
    result = read_register(_csv(header, row), "r.csv")
    assert result.warnings == ()
    assert result.members == (RegisterMember(
        federation_id="01187", first_name="Ödön", surname="Kővári", club="BBC Budapest",
        birth_year=1961, status="aktív", row=2,
    ),)


@pytest.mark.parametrize("header", [
    "PZBS,Imię,Nazwisko", "SBZ,krstné meno,priezvisko", "member no,forename,last name",
    "azonosító,utónév,vezetéknév", "číslo,jméno,příjmení", "numer,imie,nazwisko",
])
def test_more_id_and_name_headers(header: str) -> None:
    (member,) = read_register(_csv(header, "5,Anna,Nowak"), "r.csv").members
    assert (member.federation_id, member.first_name, member.surname) == ("5", "Anna", "Nowak")
    assert (member.club, member.birth_year, member.status) == (None, None, None)


def test_every_listed_header_name_reads_as_its_own_column() -> None:
    for field_, aliases in _register_file._ALIASES.items():
        for alias in aliases:
            assert _register_file._FIELD_OF[_register_file._key(alias)] == field_, alias


def test_german_name_alone_is_not_a_surname() -> None:
    error = _raises(_csv("id;Name;first name", "1;Novák;Ján"))
    assert error.problem.startswith("no header row")


def test_unknown_and_duplicate_columns_are_ignored_with_warnings() -> None:
    data = _csv("Lp.;Reg. číslo;Meno;Priezvisko;Klub;Oddiel;;Poznámka",
                "1;1001;Ján;Novák;BK Modra;Modra A;;kapitán")
    result = read_register(data, "r.csv")
    assert result.warnings == (
        "column 'Lp.' is not a register column; ignored",
        "column 'Oddiel' ignored: column 'Klub' already gives the club",
        "column 'Poznámka' is not a register column; ignored",
    )
    assert result.members[0].club == "BK Modra"


def test_rows_above_the_header_are_skipped_and_blank_rows_too() -> None:
    data = _csv("Register", "stav k 1.9.2013;;", "", HEADER_SK, "1001;Ján;Novák;;;",
                ";;;;;", "", "1002;Jozef;Novotný;;;")
    result = read_register(data, "r.csv")
    assert [(m.federation_id, m.row) for m in result.members] == [("1001", 5), ("1002", 8)]


# --- values ---------------------------------------------------------------------------------


def test_ids_keep_leading_zeros_and_lose_spaces() -> None:
    data = _csv(HEADER_SK, "  00123 ;  Ján ; Novák  ; BK Modra ;;  ")
    (member,) = read_register(data, "r.csv").members
    assert (member.federation_id, member.first_name, member.surname, member.club) == (
        "00123", "Ján", "Novák", "BK Modra",
    )
    assert member.status is None


@pytest.mark.parametrize(("written", "year"), [
    ("1961", 1961), ("1961-03-12", 1961), ("12.3.1961", 1961), ("12. 3. 1961", 1961),
    ("12/03/1961", 1961), ("1900", 1900), ("2100", 2100), ("", None),
])
def test_birth_year_as_year_or_full_date(written: str, year: int | None) -> None:
    (member,) = read_register(_csv(HEADER_SK, f"1;Ján;Novák;;{written};"), "r.csv").members
    assert member.birth_year == year


def test_short_rows_read_missing_cells_as_empty() -> None:
    (member,) = read_register(_csv(HEADER_SK, "1;Ján;Novák"), "r.csv").members
    assert (member.club, member.birth_year, member.status) == (None, None, None)


# --- errors ---------------------------------------------------------------------------------


def test_error_is_a_load_error_and_keeps_its_fields() -> None:
    error = RegisterError("birth year must be a year like 1961", file="register-2013.csv",
                          row=7, column="Rok narodenia", value="19x1")
    assert isinstance(error, LoadError)
    assert str(error) == ("register-2013.csv, row 7, column 'Rok narodenia': "
                          "birth year must be a year like 1961, got '19x1'")
    assert (error.problem, error.file, error.sheet, error.row, error.column, error.value) == (
        "birth year must be a year like 1961", "register-2013.csv", None, 7, "Rok narodenia",
        "19x1",
    )
    with_sheet = RegisterError("x", file="f.xlsx", sheet="Members", row=2)
    assert str(with_sheet) == "f.xlsx, sheet 'Members', row 2: x"


def test_no_header_names_the_expected_columns() -> None:
    error = _raises(_csv("Meno;Priezvisko", "Ján;Novák"), "register-2013.csv")
    assert (error.file, error.sheet, error.row, error.column, error.value) == (
        "register-2013.csv", None, None, None, None,
    )
    assert str(error) == (
        "register-2013.csv: no header row: expected columns naming the federation id (e.g. 'id',"
        " 'Reg. číslo', 'nr PZBS', 'Mitgliedsnummer'); first name (e.g. 'first name', 'Meno',"
        " 'Imię', 'Vorname'); surname (e.g. 'surname', 'Priezvisko', 'Nazwisko', 'Nachname')"
    )


def test_empty_file_has_no_header() -> None:
    assert _raises(b"").problem.startswith("no header row: expected columns")


def test_empty_id() -> None:
    error = _raises(_csv("Title", HEADER_SK, "1001;Ján;Novák;;;", " ;Jozef;Novotný;;;"))
    assert (error.file, error.sheet, error.row, error.column, error.value) == (
        "r.csv", None, 4, "Reg. číslo", None,
    )
    assert str(error) == "r.csv, row 4, column 'Reg. číslo': federation id is empty"


def test_duplicate_id_names_both_rows() -> None:
    error = _raises(_csv(HEADER_SK, "1001;Ján;Novák;;;", "1002;Jozef;Novotný;;;",
                         "1001 ;Peter;Kováč;;;"))
    assert (error.row, error.column, error.value) == (4, "Reg. číslo", "1001")
    assert str(error) == (
        "r.csv, row 4, column 'Reg. číslo': federation id appears twice, on rows 2 and 4, "
        "got '1001'"
    )


@pytest.mark.parametrize(("line", "column", "problem"), [
    ("1001;;Novák;;;", "Meno", "first name is missing"),
    ("1001;Ján; ;;;", "Priezvisko", "surname is missing"),
])
def test_missing_first_name_or_surname(line: str, column: str, problem: str) -> None:
    error = _raises(_csv(HEADER_SK, line))
    assert (error.row, error.column, error.value, error.problem) == (2, column, None, problem)


@pytest.mark.parametrize(("written", "problem"), [
    ("19x1", "birth year must be a year like 1961"),
    ("61", "birth year must be a year like 1961"),
    ("31.2.1961", "birth year must be a year like 1961"),
    ("1850", "birth year must be a year from 1900 to 2100"),
    ("2101-01-01", "birth year must be a year from 1900 to 2100"),
])
def test_invalid_birth_year(written: str, problem: str) -> None:
    error = _raises(_csv("Register", "", "", "", HEADER_SK, "1;A;B;;;",
                         f"1001;Ján;Novák;BK Modra;{written};"), "register-2013.csv")
    assert (error.file, error.row, error.column, error.value, error.problem) == (
        "register-2013.csv", 7, "Rok narodenia", written, problem,
    )
    assert str(error) == (
        f"register-2013.csv, row 7, column 'Rok narodenia': {problem}, got {written!r}"
    )


def test_xlsx_errors_name_the_sheet() -> None:
    data = _xlsx(("Members", [["Member no", "First name", "Surname", "Year of birth"],
                              [1001, "Ján", "Novák", 1850]]))
    error = _raises(data, "r.xlsx")
    assert (error.file, error.sheet, error.row, error.column, error.value) == (
        "r.xlsx", "Members", 2, "Year of birth", 1850,
    )
    assert str(error) == ("r.xlsx, sheet 'Members', row 2, column 'Year of birth': "
                          "birth year must be a year from 1900 to 2100, got 1850")


def test_workbook_without_header_names_the_sheets_searched() -> None:
    error = _raises(_xlsx(("A", [["x"]]), ("B", [["Meno", "Priezvisko"]])), "r.xlsx")
    assert error.sheet is None
    assert error.problem.startswith("no header row in sheets 'A', 'B': expected columns")
    single = _raises(_xlsx(("Only", [["x"]])), "r.xlsx")
    assert single.sheet == "Only"


def test_unreadable_files() -> None:
    truncated = _raises(REGISTER_XLSX[: len(REGISTER_XLSX) // 2], "r.xlsx")
    assert truncated.file == "r.xlsx"
    assert truncated.problem.startswith("not a readable workbook (BadZipFile")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("hello.txt", "hi")
    other_zip = _raises(out.getvalue(), "r.zip")
    assert other_zip.problem == "a zip archive, but not an xlsx or ods workbook"
    binary = _raises(bytes(range(256)) * 4, "r.bin")
    assert binary.file == "r.bin"
    broken_xls = _raises(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "r.xls")
    assert broken_xls.problem.startswith("not readable as xls (")


# --- workbooks ------------------------------------------------------------------------------


def test_xlsx_float_ids_title_line_blank_rows_and_dates() -> None:
    data = _xlsx(("Register", [
        ["Member register 2014"],
        [],
        ["Member no", "First name", "Surname", "Club", "Date of birth", "Status"],
        [1001.0, "Ján", "Novák", "BK Modra", dt.datetime(1961, 3, 12), "active"],
        [None, None, None, None, None, None],
        ["00042", "Jozef", "Novotný", None, 1958.0, None],
    ]))
    result = read_register(data, "r.xlsx")
    assert result.sheet == "Register"
    assert result.members == (
        RegisterMember("1001", "Ján", "Novák", "BK Modra", 1961, "active", 4),
        RegisterMember("00042", "Jozef", "Novotný", None, 1958, None, 6),
    )


def test_xlsx_first_sheet_with_a_header_is_read() -> None:
    data = _xlsx(("Info", [["Slovenský bridžový zväz"], ["stav k 1.9.2014"]]),
                 ("Členovia", [["ID", "Vorname", "Name"], [7, "Anna", "Nowak"]]),
                 ("Old", [["ID", "Vorname", "Name"], [8, "Eva", "Malá"]]))
    result = read_register(data, "r.xlsx")
    assert result.sheet == "Členovia"
    assert result.warnings == ("sheet 'Info' has no register header; skipped",)
    assert [(m.federation_id, m.first_name, m.surname) for m in result.members] == [
        ("7", "Anna", "Nowak"),
    ]


def test_ods() -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Členovia")

    def row(*cells: TableCell, repeated: int = 1) -> None:
        element = TableRow(numberrowsrepeated=str(repeated)) if repeated > 1 else TableRow()
        for cell in cells:
            element.addElement(cell)
        table.addElement(element)

    def text(value: str) -> TableCell:
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=value))
        return cell

    def number(value: float) -> TableCell:
        cell = TableCell(valuetype="float", value=str(value))
        cell.addElement(P(text=str(value)))
        return cell

    row(text("Register členov"))
    row(TableCell(), repeated=3)
    row(text("Reg. číslo"), text("Meno"), text("Priezvisko"), TableCell(numbercolumnsrepeated="2"),
        text("Rok narodenia"))
    date = TableCell(valuetype="date", datevalue="1961-03-12")
    date.addElement(P(text="12.3.1961"))
    row(number(1001), text("Ján"), text("Novák"), TableCell(numbercolumnsrepeated="2"), date)
    row(TableCell(numbercolumnsrepeated="1000"), repeated=1_048_000)
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.save(out)
    result = read_register(out.getvalue(), "r.ods")
    assert result.sheet == "Členovia"
    assert result.members == (RegisterMember("1001", "Ján", "Novák", None, 1961, None, 6),)


def _ods(name: str, rows: list[list[str]]) -> bytes:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name=name)
    for cells in rows:
        row = TableRow()
        for value in cells:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_ods_is_read_by_the_result_readers_reader() -> None:
    from parsers.spreadsheet import read_sheets

    data = _ods("Members", [["Reg. číslo", "Meno", "Priezvisko"], ["0042", "Ján", "Novák"]])
    grids, _, _ = read_sheets(data, source="r.ods")
    assert [[c.text for c in row] for row in grids[0].rows] == [
        ["Reg. číslo", "Meno", "Priezvisko"], ["0042", "Ján", "Novák"]]
    assert read_register(data, "r.ods").members == (
        RegisterMember("0042", "Ján", "Novák", None, None, None, 2),)


def test_an_ods_register_beyond_the_limits_is_refused_in_one_line() -> None:
    from parsers import Limits
    from parsers._limits import using

    rows = [["Reg. číslo", "Meno", "Priezvisko"]] + [
        [str(1000 + i), "Ján", f"Novák {i}"] for i in range(6)]
    data = _ods("Members", rows)
    assert len(read_register(data, "r.ods").members) == 6  # within the default limits
    with using(Limits(rows=5)):
        error = _raises(data, "r.ods")
    assert (error.file, error.sheet, error.value) == ("r.ods", "Members", 6)
    assert str(error) == (
        "r.ods, sheet 'Members': the sheet has more rows than [limits] rows = 5 allows (raise "
        "it in clubratings.toml if the file is genuine); not read, got 6")
    assert "\n" not in str(error)
    with using(Limits(columns=2)):
        wide = _raises(data, "r.ods")
    assert (wide.sheet, wide.row) == ("Members", 1)
    assert "[limits] columns = 2" in wide.problem


def test_a_register_file_beyond_the_size_limit_is_refused_in_one_line() -> None:
    from parsers import Limits
    from parsers._limits import using

    with using(Limits(file_mb=0.0001)):  # about 100 bytes
        error = _raises(REGISTER_CSV, "register-2013.csv")
    assert error.file == "register-2013.csv"
    assert error.problem.startswith("the file is larger than [limits] file_mb = 0.0001 allows")
    assert "\n" not in str(error)


def test_legacy_xls() -> None:
    path = FIXTURES / "registers" / "legacy-date-cell.xls"  # see its SOURCES.txt
    result = read_register(path.read_bytes(), path.name)
    assert result.sheet == "Register"
    assert result.members == (RegisterMember("1001", "Ján", "Novák", "BK Modra", 1961, None, 4),)


# --- damaged files --------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([("register-2013.csv", REGISTER_CSV), ("register-2014.xlsx",
                                                                REGISTER_XLSX)]),
       st.integers(0, 8000), st.integers(0, 400), st.binary(max_size=16),
       st.lists(st.tuples(st.integers(0, 8000), st.integers(0, 255)), max_size=8))
def test_damaged_files_fail_only_with_register_errors(
    fixture: tuple[str, bytes], start: int, cut: int, junk: bytes,
    flips: list[tuple[int, int]],
) -> None:
    name, data = fixture
    damaged = bytearray(data[:start] + junk + data[start + cut:])
    for at, value in flips:
        if damaged:
            damaged[at % len(damaged)] = value
    try:
        result = read_register(bytes(damaged), name)
    except RegisterError as error:
        assert error.file == name
    else:
        assert isinstance(result, RegisterFile)
        assert all(m.federation_id and m.first_name and m.surname for m in result.members)
        assert len({m.federation_id for m in result.members}) == len(result.members)
