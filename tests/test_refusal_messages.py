"""What a refusal says (docs/rules/inputs.md): each kind of unreadable file in its own words, once,
without class names, with the advice that fits; and the inbox is there after the first run."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from flows import load_config
from flows._inbox import inbox_files, ingest_file
from cli import main
from flows.core import Project
from parsers import FORMATS, ParseError, parse_bytes
from warehouse import Warehouse

from ._csvs import club_event, csv_file
from .test_core import CONFIG

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


XLSX = FIXTURES / "spreadsheet" / "initials-columns.xlsx"
ODS = FIXTURES / "spreadsheet" / "ods" / "initials-columns.ods"
HAND_RECORDS = FIXTURES / "nonresults" / "club-folder" / "pbn-acblmerge-hand-records-only.pbn"

CORRECT = "Correct it"
CLASS_NAMES = re.compile(
    r"\b(?:ParseError|UnknownFormat|MalformedFile|InconsistentResult|UnsupportedVariant|"
    r"EmptyFile|UnknownBinary|DamagedFile|NoResults|LimitExceeded|InternalError|LoadError|"
    r"WarehouseError|BadZipFile|KeyError|ValueError|TypeError)\b|error: ")


def _half(path: Path) -> bytes:
    data = path.read_bytes()
    return data[:len(data) // 2]


def _random(n: int = 4096) -> bytes:
    return random.Random(7).randbytes(n)


# name, bytes, the first line's why (after "<file>: not loaded: "), words of the advice
KINDS: list[tuple[str, bytes, str, str]] = [
    ("empty.csv", b"", "the file is empty",
     "Export the results again from the scoring program"),
    ("blank.csv", b" \r\n\t\r\n", "the file is empty (6 bytes of white space)",
     "Export the results again from the scoring program"),
    ("cut.xlsx", _half(XLSX),
     "a damaged spreadsheet (an Excel workbook (.xlsx), cut short: the end of the file, where "
     "its table of contents is, is missing)",
     "Open it in the program that wrote it and save it again"),
    ("cut.ods", _half(ODS),
     "a damaged spreadsheet (an OpenDocument spreadsheet (.ods), cut short: the end of the "
     "file, where its table of contents is, is missing)",
     "Open it in the program that wrote it and save it again"),
    ("broken.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + _random(700),
     "a damaged spreadsheet (an Excel 97-2003 workbook (.xls), its OLE structure cannot be "
     "read (cut short or corrupt))",
     "Open it in the program that wrote it and save it again"),
    ("noise.bin", _random(), "not a result file: binary data of no known kind",
     "Drop the scoring program's results export instead (clubratings parse --list-formats"),
    ("printout.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
     "a PDF document: printed pages, not a result file",
     "Nothing to do: this kind of file holds no results; drop the scoring program's results "
     "export instead."),
    ("hands.pbn", HAND_RECORDS.read_bytes(),
     "a PBN file of hand records only (27 deals, no scores): not a result",
     "Nothing to do: this kind of file holds no results"),
    ("seating.csv", b"PairNumber,Name,ABF No,Initial Seating\n1,Ann Smith,123,1NS\n"
                    b"1,Bob Jones,124,1NS\n",
     "a seating list without results or date",
     "Nothing to do: this kind of file holds no results"),
    ("news.html", b"<html><body><h1>Club news</h1><p>No game on Monday.</p></body></html>",
     "unknown result format: a web page without any table",
     "If it does hold results, export them from the scoring program"),
    ("timetable.html", b"<html><body><table><tr><th>Day</th><th>Game</th></tr>"
                       b"<tr><td>Monday</td><td>Pairs</td></tr></table></body></html>",
     "unknown result format: a web page with 1 table but no ranking (no table has a results "
     "header: a place column and names)",
     "If it does hold results, export them from the scoring program"),
    ("members.csv", b"Member,Phone,Email\nAnn,123,a@x\nBob,456,b@x\n",
     "unknown result format: a CSV file whose header ('Member', 'Phone', 'Email') names no "
     "place or name column",
     "If it does hold results, export them from the scoring program"),
    ("minutes.txt", b"Minutes of the committee meeting\nPresent: five members\n",
     "unknown result format: no format's marks found (nothing came close",
     "If it does hold results, export them from the scoring program"),
]


def _reject_one(wh: Warehouse, tmp_path: Path, name: str, data: bytes) -> tuple[str, str]:
    """The reason file and the outcome's message of ``data`` dropped as ``name``."""
    inbox = tmp_path / "inbox"
    inbox.mkdir(exist_ok=True)
    (inbox / name).write_bytes(data)
    (path,) = inbox_files(inbox)
    outcome = ingest_file(wh, path, archive=inbox / "archive", rejected=inbox / "rejected")
    assert outcome.status == "rejected"
    assert (inbox / "rejected" / name).read_bytes() == data
    return (inbox / "rejected" / f"{name}.reason.txt").read_text(encoding="utf-8"), \
        outcome.message


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.;:])\s+|\n", text) if len(s.strip()) > 20]


@pytest.mark.parametrize(("name", "data", "why", "advice"), KINDS, ids=[k[0] for k in KINDS])
def test_each_kind_says_why_once_with_its_advice(wh: Warehouse, tmp_path: Path, name: str,
                                                 data: bytes, why: str, advice: str) -> None:
    reason, message = _reject_one(wh, tmp_path, name, data)
    lines = reason.splitlines()
    first = lines[0]
    assert first.startswith(f"{name}: not loaded: {why}"), first
    assert advice in reason
    assert CLASS_NAMES.search(reason) is None, reason
    assert CLASS_NAMES.search(message) is None, message
    sentences = _sentences(reason)
    assert len(sentences) == len(set(sentences)), reason  # nothing said twice
    assert reason.count("not loaded") == 1 and "Nothing from this file was loaded" not in reason
    assert reason.count("--list-formats") <= 1
    if "Nothing to do" in advice or "Open it" in advice or "Export the results" in advice:
        assert CORRECT not in reason  # nothing in the file to correct
    # the command line and the import report say the same why and advice on one line
    assert message.startswith(f"{name}: rejected: {why}")
    assert advice in message and "\n" not in message


def test_a_file_refused_for_its_content_says_where_and_to_correct_it(
        wh: Warehouse, tmp_path: Path) -> None:
    bad = csv_file(club_event("2013-10-03")).replace(b"2013-10-03", b"2013-13-45", 3)
    reason, message = _reject_one(wh, tmp_path, "broken.csv", bad)
    lines = reason.splitlines()
    assert lines[0].startswith("broken.csv: not loaded: ")
    assert "(" not in lines[0].partition(": not loaded: ")[2].rpartition("date")[2]
    assert "row: 2" in lines and "column: date" in lines and "value: '2013-13-45'" in lines
    assert lines[-1] == ("Correct it (or export it again from the scoring program) and drop it "
                         "into the inbox again.")
    assert CLASS_NAMES.search(reason) is None
    assert reason.count("2013-13-45") == 1
    assert "value '2013-13-45' (row 2, column date)" in message


def test_the_import_report_lists_each_rejection_in_its_own_words(tmp_path: Path) -> None:
    from flows import build_report

    root = tmp_path
    (root / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (root / "inbox").mkdir()
    for k, (name, data, _, _) in enumerate(KINDS):
        (root / "inbox" / name).write_bytes(data)
        os.utime(root / "inbox" / name, ns=(k * 10**9, k * 10**9))
    cfg = load_config(root / "clubratings.toml")
    with Project.open(cfg, command="test") as project:
        outcomes = project.ingest()
        report = build_report(project.wh, outcomes, [])
    (section,) = [s for s in report.sections if s.title == "Rejected files"]
    rows = dict(section.rows)
    assert sorted(rows) == sorted(k[0] for k in KINDS)
    for name, _, why, advice in KINDS:
        assert rows[name].startswith(why), (name, rows[name])
        assert advice in rows[name], (name, rows[name])
        assert CLASS_NAMES.search(rows[name]) is None, rows[name]


def test_the_command_line_names_no_class(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    for name, data, why, _ in KINDS:
        path = tmp_path / name
        path.write_bytes(data)
        code = main(["parse", str(path)])
        out, err = capsys.readouterr()
        assert code == 2 and out == ""
        assert err.startswith(f"clubratings: {why}"), err
        assert err.count("\n") == 1 and CLASS_NAMES.search(err) is None, err


def test_a_damaged_zip_a_reader_took_is_a_damaged_spreadsheet() -> None:
    """A workbook whose table of contents is whole but a part is corrupt: the spreadsheet reader
    takes it and breaks on the part; the refusal says damaged, not what the reader raised."""
    data = bytearray(XLSX.read_bytes())
    start = data.index(b"xl/worksheets/sheet1.xml") + len(b"xl/worksheets/sheet1.xml")
    data[start + 10:start + 60] = bytes(50)  # inside the first sheet's compressed bytes
    with pytest.raises(ParseError) as caught:
        parse_bytes(bytes(data), source="cut.xlsx")
    assert str(caught.value).startswith("a damaged spreadsheet (an Excel workbook (.xlsx)"), \
        str(caught.value)


def test_every_whole_fixture_workbook_is_not_called_damaged() -> None:
    from parsers._near import damaged_container

    books = [p for p in _fixture_files() if p.suffix.lower() in (".xlsx", ".ods", ".xls")]
    assert len(books) >= 4
    assert [p.name for p in books if damaged_container(p.read_bytes(), p.name)] == []


def test_no_results_refusals_are_the_readers_own_words() -> None:
    """The registry changes the advice of a no-results refusal, never its message."""
    data = HAND_RECORDS.read_bytes()
    with pytest.raises(ParseError) as direct:
        FORMATS["pbn"].parse(data, source="hands.pbn")
    with pytest.raises(ParseError) as detected:
        parse_bytes(data, source="hands.pbn")
    assert str(detected.value) == str(direct.value)


def test_a_fresh_project_has_its_inbox_after_run(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    assert not (tmp_path / "inbox").exists()
    code = main(["run", "--config", str(tmp_path / "clubratings.toml")])
    capsys.readouterr()
    assert code == 0
    assert (tmp_path / "inbox").is_dir()
    # archive/ and rejected/ only when a file needs them
    assert sorted(p.name for p in (tmp_path / "inbox").iterdir()) == []


REFUSED = FIXTURES / "real" / "refused"


@pytest.mark.parametrize(("name", "why"), [
    ("jfr-pary-board-traveller.html",
     "not a results page: a board's page (hand record and traveller), not a ranking"),
    ("kops-frameset-index.html", "not a results page: a frameset (index) page, not a ranking"),
    ("bbo-hands-list-of-one-player.html",
     "unknown result format; it looks most like bbo (BBO's address), but: a BBO hand list "
     "(one player's boards), not a ranking"),
    ("opengotha-players-list-registrations.html",
     "an OpenGotha page that is not a standings table"),
    ("pbn-bridgewebs-travellers-no-ranking.pbn", "a PBN file of travellers only"),
])
def test_a_real_page_of_no_results_has_nothing_to_correct(wh: Warehouse, tmp_path: Path,
                                                          name: str, why: str) -> None:
    reason, message = _reject_one(wh, tmp_path, name, (REFUSED / name).read_bytes())
    assert reason.splitlines()[0].startswith(f"{name}: not loaded: {why}"), reason
    assert reason.splitlines()[-1] == ("Nothing to do: this kind of file holds no results; drop "
                                       "the scoring program's results export instead.")
    assert CORRECT not in reason and CLASS_NAMES.search(reason) is None
    assert message.startswith(f"{name}: rejected: {why}")
