"""Files a club's scoring folder holds that are not results (parsers/not_results.py and the PBN
reader's hand records): real ones from a club's folder (fixtures/nonresults/club-folder/,
SOURCES.txt says where each comes from) are refused in one line that names what the file is,
and detection claims no result file."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from cli import main
from parsers import FORMATS, UnsupportedVariant, detect_format
from parsers import not_results

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FOLDER = FIXTURES / "nonresults" / "club-folder"
SUFFIX = ".expected.json"
FILES = sorted(p for p in FOLDER.iterdir()
               if p.is_file() and p.name != "SOURCES.txt" and not p.name.endswith(SUFFIX))

NAMED = {
    ".pdf": ("not_results", "a PDF document"),
    ".bws": ("not_results", "a Bridgemate scoring database (.BWS, Microsoft Access)"),
    ".gib": ("not_results", "GIB double-dummy analysis (.gib, 27 deals"),
    ".dup": ("not_results", "Duplimate hand records (.DUP, 27 deals for the dealing machine"),
    ".pbn": ("pbn", "a PBN file of hand records only (27 deals, no scores): not a result"),
    ".png": ("not_results", "a PNG image (a picture, not a result file)"),
}


def test_every_file_has_its_provenance_line() -> None:
    lines = [line for line in (FOLDER / "SOURCES.txt").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert {line.split("|")[0].strip() for line in lines} == {p.name for p in FILES}
    assert all(len(line.split("|")) == 5 and "/" in line.split("|")[2] for line in lines)
    assert {p.suffix.lower() for p in FILES} == set(NAMED)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_refused_in_one_line_that_names_the_thing(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fmt, named = NAMED[path.suffix.lower()]
    assert detect_format(path.read_bytes(), path.name).name == fmt
    code = main(["parse", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"clubratings: {named}"), err
    assert path.name in err
    assert "Error" not in err and "Variant" not in err  # no class names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_refusal_is_an_unsupported_variant_naming_the_file(path: Path) -> None:
    fmt, _ = NAMED[path.suffix.lower()]
    with pytest.raises(UnsupportedVariant) as caught:
        FORMATS[fmt].parse(path.read_bytes(), source=str(path))
    assert caught.value.file == path.name


def _result_fixtures() -> list[Path]:
    """Every golden input whose expected file holds events."""
    out = []
    for expected in sorted(FIXTURES.glob(f"**/*{SUFFIX}")):
        if "events" not in json.loads(expected.read_text(encoding="utf-8")):
            continue
        case = expected.name.removesuffix(SUFFIX)
        out += [p for p in expected.parent.glob(f"{case}.*") if not p.name.endswith(SUFFIX)]
    return out


def test_no_result_fixture_is_claimed() -> None:
    results = _result_fixtures()
    assert len(results) > 100
    assert [p.name for p in results if not_results.detect(p.read_bytes(), p.name)] == []


@pytest.mark.parametrize("data", [
    b"<html><body><p>Scores as %PDF-1.4 attachment</p></body></html>",
    b"Results\n%PDF-1.4 was attached\n",
    b"\x00\x01\x00\x00Standard Jet XX" + b"\x00" * 100,
    b"1" * 156,  # digits, but no Y/N flags where the DUP record has them
    b"12" * 39 + b"x" * 68 + b"YN  1 1 36" + b"\n",  # 157 bytes: not whole records
    b"A84.A975.K6.AK83 9.K642.A84.J9765 KJT3.QJT.QJ973.Q Q7652.83.T52.T42:21223222222221114333\n"
    b"1. Smith - Jones 62.5%\n",  # one analysis line among others
    b"Pos,Pair,Names,Score\n1,3,Ann Smith - Bob Jones,61.2\n",
])
def test_look_alikes_are_not_claimed(data: bytes) -> None:
    assert not not_results.detect(data, "x.bin")


def test_a_one_board_gib_file_and_a_one_record_dup_file_are_named() -> None:
    gib = (b"A84.A975.K6.AK83 9.K642.A84.J9765 KJT3.QJT.QJ973.Q Q7652.83.T52.T42:"
           b"21223222222221114333\r\n")
    assert (not_results.what_it_is(gib) or "").startswith(
        "GIB double-dummy analysis (.gib, 1 deal ")
    record = (FOLDER / "duplimate-hand-records-27-deals.DUP").read_bytes()[:156]
    assert (not_results.what_it_is(record) or "").startswith(
        "Duplimate hand records (.DUP, 1 deal ")


def test_an_access_database_that_is_not_a_bridgemate_one_is_named_as_such() -> None:
    data = b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 200 + b"Customers Orders"
    assert (not_results.what_it_is(data) or "").startswith("a Microsoft Access database")


def _zip(*names: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "<x/>")
    return buffer.getvalue()


OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504


def test_word_documents_are_named_and_workbooks_are_left_to_the_spreadsheet_reader() -> None:
    docx = _zip("[Content_Types].xml", "word/document.xml")
    doc = OLE2 + "WordDocument".encode("utf-16-le") + b"\x00" * 64
    for data in (docx, doc):
        assert (not_results.what_it_is(data) or "").startswith("a Word document: not read")
    xlsx = _zip("[Content_Types].xml", "xl/workbook.xml")
    xls = OLE2 + "Workbook".encode("utf-16-le") + b"\x00" * 64
    assert not not_results.detect(xlsx, "r.xlsx") and not not_results.detect(xls, "r.xls")


@pytest.mark.parametrize("magic,what", [
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG image"), (b"GIF89a\x01\x00", "a GIF image"),
])
def test_pictures_are_named(magic: bytes, what: str) -> None:
    assert (not_results.what_it_is(magic + b"\x00" * 100) or "").startswith(what)
