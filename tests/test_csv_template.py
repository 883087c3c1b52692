"""The CSV template (docs/csv-template.md): grouping, ties, every error path, encodings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import (
    FORMATS,
    InconsistentResult,
    MalformedFile,
    ParseError,
    ParseResult,
    detect_format,
)
from parsers import csv_template

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

HEADER = "event,date,kind,scoring,boards,unit,place,player,score"


def _csv(*rows: str, header: str = HEADER) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode("utf-8")


def _parse(data: bytes, *, strict: bool = False) -> ParseResult:
    return csv_template.parse(data, source="/inbox/x.csv", strict=strict)


def _pair(unit: str, place: str, score: str = "", *names: str, event: str = "Cup",
          date: str = "2013-08-08") -> list[str]:
    names = names or (f"{unit}a", f"{unit}b")
    return [f"{event},{date},pairs,MP,24,{unit},{place},{name},{score}" for name in names]


# --- grouping -------------------------------------------------------------------------------


def test_rows_group_into_events_and_units() -> None:
    rows = [
        "Cup,2013-08-08,pairs,MP,24,7,2,Ann,55.0",
        "Cup,2013-08-08,pairs,MP,24,3,1,Bob,60.0",
        "Open,2013-08-08,pairs,MP,20,1,1,Eve,58.0",
        "Cup,2013-08-08,pairs,MP,24,7,2,Cid,55.0",
        "Cup,2013-08-08,pairs,MP,24,3,1,Dan,60.0",
        "Open,2013-08-08,pairs,MP,20,1,1,Fay,58.0",
        "Cup,2013-08-15,pairs,MP,24,1,1,Gus,51.0",
        "Cup,2013-08-15,pairs,MP,24,1,1,Hal,51.0",
    ]
    result = _parse(_csv(*rows), strict=True)
    assert [(e.title, e.date.isoformat(), e.boards) for e in result.events] == [
        ("Cup", "2013-08-08", 24), ("Open", "2013-08-08", 20), ("Cup", "2013-08-15", 24),
    ]
    cup = result.events[0]
    assert [u.label for u in cup.units] == ["3", "7"]  # sorted by place
    assert [[p.name for p in u.players] for u in cup.units] == [["Bob", "Dan"], ["Ann", "Cid"]]
    assert all(e.format == "csv_template" and e.game == "bridge" for e in result.events)
    assert result.issues == ()


def test_sections_and_organisers_make_separate_events() -> None:
    header = "organiser,section,event,date,kind,scoring,boards,unit,place,player"
    rows = [
        "Club A,N,Cup,2013-08-08,pairs,MP,,1,1,Ann", "Club A,N,Cup,2013-08-08,pairs,MP,,1,1,Bob",
        "Club A,S,Cup,2013-08-08,pairs,MP,,1,1,Cid", "Club A,S,Cup,2013-08-08,pairs,MP,,1,1,Dan",
        "Club B,N,Cup,2013-08-08,pairs,MP,,1,1,Eve", "Club B,N,Cup,2013-08-08,pairs,MP,,1,1,Fay",
    ]
    events = _parse(_csv(*rows, header=header), strict=True).events
    assert [(e.organiser, e.section) for e in events] == [
        ("Club A", "N"), ("Club A", "S"), ("Club B", "N"),
    ]
    assert [e.key for e in events][0] == ("Club A", "2013-08-08", "Cup", "N")
    assert events[0].boards is None
    assert events[0].units[0].score is None


def test_units_with_equal_places_keep_file_order() -> None:
    rows = [*_pair("9", "2", "50"), *_pair("4", "2", "50"), *_pair("1", "1", "60")]
    units = _parse(_csv(*rows), strict=True).events[0].units
    assert [u.label for u in units] == ["1", "9", "4"]


def test_optional_columns_any_order_any_case() -> None:
    header = "Player;CLUB;Federation_ID;Game;Scoring;Kind;Unit;Place;Boards;Date;Event;Score"
    rows = [
        "Anna Nowak;Spójnia;06542;Bridge;imp;PAIRS;1;1;;8.8.2013;Cup;+12,5",
        "Jan Nowak;;06543;Bridge;imp;PAIRS;1;1;;8.8.2013;Cup;+12,5",
        "Ewa Lis;;;Bridge;imp;PAIRS;2;2;;8.8.2013;Cup;-12,5",
        "Olga Lis;;;Bridge;imp;PAIRS;2;2;;8.8.2013;Cup;-12,5",
    ]
    event = _parse(_csv(*rows, header=header), strict=True).events[0]
    assert (event.kind, event.scoring, event.date) == ("pairs", "IMP", dt.date(2013, 8, 8))
    first = event.units[0]
    assert first.score == 12.5 and event.units[1].score == -12.5
    assert [(p.name, p.federation_id, p.club) for p in first.players] == [
        ("Anna Nowak", "06542", "Spójnia"), ("Jan Nowak", "06543", None),
    ]


@pytest.mark.parametrize(("written", "canonical"), [
    ("mp", "MP"), ("Imp", "IMP"), ("vp", "VP"), ("bam", "BAM"), ("HYBRID", "hybrid"),
    ("Unknown", "unknown"),
])
def test_scoring_is_normalised(written: str, canonical: str) -> None:
    rows = [f"Cup,2013-08-08,teams,{written},,A,1,{name}," for name in ("Ann", "Bob")]
    assert _parse(_csv(*rows), strict=True).events[0].scoring == canonical


# --- ties -----------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["5-6", "5.-6.", "5 - 6", "5–6"])
def test_written_tie_range(written: str) -> None:
    rows = [*_pair("1", "1", "70"), *_pair("2", "2", "65"), *_pair("3", "3", "60"),
            *_pair("4", "4", "55"), *_pair("5", written, "50"), *_pair("6", written, "50"),
            *_pair("7", "7", "40")]
    units = _parse(_csv(*rows), strict=True).events[0].units
    assert [(u.label, u.place, u.place_text) for u in units[4:]] == [
        ("5", 5.5, written), ("6", 5.5, written), ("7", 7.0, "7"),
    ]


def test_tie_as_repeated_plain_number() -> None:
    rows = [*_pair("1", "1", "70"), *_pair("2", "2", "65"), *_pair("3", "3", "60"),
            *_pair("4", "4", "55"), *_pair("5", "5", "50"), *_pair("6", "5", "50"),
            *_pair("7", "7", "40")]
    units = _parse(_csv(*rows), strict=True).events[0].units
    assert [(u.label, u.place, u.place_text) for u in units[4:]] == [
        ("5", 5.5, "5"), ("6", 5.5, "5"), ("7", 7.0, "7"),
    ]
    assert sum(u.place or 0 for u in units) == sum(range(1, 8))


def test_three_way_repeated_tie() -> None:
    rows = [*_pair("1", "1"), *_pair("2", "1"), *_pair("3", "1"), *_pair("4", "4")]
    units = _parse(_csv(*rows), strict=True).events[0].units
    assert [u.place for u in units] == [2.0, 2.0, 2.0, 4.0]


# --- issues (lenient) and strict mode -------------------------------------------------------


def test_places_contradicting_scores_warn() -> None:
    rows = [*_pair("1", "1", "50.0"), *_pair("2", "2", "60.0")]
    result = _parse(_csv(*rows))
    assert [(i.level, i.where) for i in result.issues] == [
        ("warning", "file x.csv, row 4, column score"),
    ]
    assert "place 2 scores 60, more than 50 at place 1" in result.issues[0].message
    with pytest.raises(InconsistentResult):
        _parse(_csv(*rows), strict=True)


def test_gap_in_places_warns() -> None:
    rows = [*_pair("1", "1"), *_pair("2", "3")]
    result = _parse(_csv(*rows))
    assert [u.place for u in result.events[0].units] == [1.0, 3.0]
    assert result.issues[0].message == (
        "event 'Cup', unit '2': place 3 written where 2 was expected: value '3'"
    )
    assert result.issues[0].where == "file x.csv, row 4, column place"


def test_range_wider_than_the_tie_warns() -> None:
    rows = [*_pair("1", "1"), *_pair("2", "2-3"), *_pair("3", "4")]
    result = _parse(_csv(*rows))
    assert [u.place for u in result.events[0].units] == [1.0, 2.5, 4.0]
    assert "place 2-3 is shared by 1 unit(s), not 2" in result.issues[0].message


def test_unknown_column_warns() -> None:
    rows = ["Cup,2013-08-08,pairs,MP,24,1,1,Ann,,x", "Cup,2013-08-08,pairs,MP,24,1,1,Bob,,y"]
    data = _csv(*rows, header=HEADER + ",remarks")
    result = _parse(data)
    assert [(i.message, i.where) for i in result.issues] == [
        ("unknown column ignored: value 'remarks'", "file x.csv, row 1, column remarks"),
    ]
    with pytest.raises(MalformedFile):
        _parse(data, strict=True)


def test_unnamed_trailing_columns_are_ignored() -> None:
    rows = [GOOD + ",,", GOOD.replace("Ann", "Ada") + ",,"]
    result = _parse(_csv(*rows, header=HEADER + ",,"), strict=True)
    assert result.issues == ()
    assert len(result.events[0].units[0].players) == 2


@pytest.mark.parametrize(("kind", "players", "ok"), [
    ("individual", 1, True), ("individual", 2, False), ("pairs", 1, False),
    ("pairs", 3, True), ("pairs", 4, False), ("teams", 6, True), ("teams", 9, False),
])
def test_players_per_unit(kind: str, players: int, ok: bool) -> None:
    rows = [f"Cup,2013-08-08,{kind},MP,,1,1,P{i}," for i in range(players)]
    result = _parse(_csv(*rows))
    assert len(result.events[0].units[0].players) == players
    assert (result.issues == ()) is ok


def test_short_row_is_padded_with_a_warning() -> None:
    rows = ["Cup,2013-08-08,pairs,MP,24,1,1,Ann", "Cup,2013-08-08,pairs,MP,24,1,1,Bob"]
    result = _parse(_csv(*rows))
    assert [u.score for u in result.events[0].units] == [None]
    assert [i.where for i in result.issues] == ["file x.csv, row 2", "file x.csv, row 3"]


# --- errors: each path says file, row, column, value ----------------------------------------

GOOD = "Cup,2013-08-08,pairs,MP,24,1,1,Ann,55"


@pytest.mark.parametrize(("row", "problem", "column", "value"), [
    ("Cup,31.2.2013,pairs,MP,24,1,1,Bob,55", "invalid date", "date", "31.2.2013"),
    ("Cup,2013-13-01,pairs,MP,24,1,1,Bob,55", "invalid date", "date", "2013-13-01"),
    ("Cup,8/8/2013,pairs,MP,24,1,1,Bob,55", "invalid date", "date", "8/8/2013"),
    ("Cup,,pairs,MP,24,1,1,Bob,55", "empty date", "date", ""),
    ("Cup,2013-08-08,mixed,MP,24,1,1,Bob,55", "invalid kind", "kind", "mixed"),
    ("Cup,2013-08-08,pairs,matchpoints,24,1,1,Bob,55", "invalid scoring", "scoring",
     "matchpoints"),
    ("Cup,2013-08-08,pairs,MP,twelve,1,1,Bob,55", "invalid boards", "boards", "twelve"),
    ("Cup,2013-08-08,pairs,MP,0,1,1,Bob,55", "invalid boards", "boards", "0"),
    ("Cup,2013-08-08,pairs,MP,24,1,first,Bob,55", "invalid place", "place", "first"),
    ("Cup,2013-08-08,pairs,MP,24,1,6-5,Bob,55", "invalid place", "place", "6-5"),
    ("Cup,2013-08-08,pairs,MP,24,1,,Bob,55", "empty place", "place", ""),
    ("Cup,2013-08-08,pairs,MP,24,1,1,Bob,55%%", "invalid score", "score", "55%%"),
    ("Cup,2013-08-08,pairs,MP,24,1,1,Bob,\"55,1,2\"", "invalid score", "score", "55,1,2"),
    ("Cup,2013-08-08,pairs,MP,24,1,1,,55", "empty player", "player", ""),
    ("Cup,2013-08-08,pairs,MP,24,1,1,   ,55", "empty player", "player", ""),
    (",2013-08-08,pairs,MP,24,1,1,Bob,55", "empty event", "event", ""),
    ("Cup,2013-08-08,pairs,MP,24,,1,Bob,55", "empty unit", "unit", ""),
])
def test_row_errors(row: str, problem: str, column: str, value: str) -> None:
    with pytest.raises(MalformedFile) as caught:
        _parse(_csv(GOOD, GOOD.replace("Ann", "Ada"), "", row))
    error = caught.value
    assert error.problem.startswith(problem)
    assert (error.file, error.row, error.column, error.value) == ("x.csv", 5, column, value)
    assert str(error).endswith(f": value {value!r} (file x.csv, row 5, column {column})")


def test_invalid_date_message_exactly() -> None:
    rows = [GOOD] * 5 + ["Cup,31.2.2013,pairs,MP,24,1,1,Bob,55"]
    with pytest.raises(MalformedFile) as caught:
        _parse(_csv(*rows))
    assert str(caught.value) == "invalid date: value '31.2.2013' (file x.csv, row 7, column date)"


def test_invalid_game() -> None:
    with pytest.raises(MalformedFile) as caught:
        _parse(_csv("Cup,2013-08-08,pairs,MP,24,1,1,Ann,chess", header=HEADER[:-5] + "game"))
    assert (caught.value.row, caught.value.column, caught.value.value) == (2, "game", "chess")


def test_missing_required_columns() -> None:
    header = "event,date,kind,scoring,boards,unit,player"
    data = _csv("Cup,2013-08-08,pairs,MP,24,1,Ann", header=header)
    with pytest.raises(MalformedFile) as caught:
        _parse(data)
    assert (caught.value.row, caught.value.value) == (1, "place")
    assert "missing required column" in str(caught.value)


def test_column_twice() -> None:
    with pytest.raises(MalformedFile) as caught:
        _parse(_csv(GOOD + ",x", header=HEADER + ",Player"))
    assert (caught.value.row, caught.value.column, caught.value.value) == (1, "player", "Player")


def test_extra_cells() -> None:
    with pytest.raises(MalformedFile) as caught:
        _parse(_csv(GOOD, GOOD + ",oops"))
    assert (caught.value.row, caught.value.value) == (3, "oops")


def test_unclosed_quote_swallowing_the_file() -> None:
    data = _csv(GOOD, 'Cup,2013-08-08,pairs,MP,24,1,1,"Bob' + "x" * 200_000)
    with pytest.raises(MalformedFile, match="not readable as CSV") as caught:
        _parse(data)
    assert caught.value.row == 3


def test_header_only_and_empty_file() -> None:
    with pytest.raises(MalformedFile, match="no result rows"):
        _parse(_csv())
    with pytest.raises(MalformedFile, match="empty file"):
        _parse(b"\n\n")


@pytest.mark.parametrize(("second", "column", "value", "first_shown"), [
    ("Cup,2013-08-08,pairs,MP,24,1,2,Bob,55", "place", "2", "'1'"),
    ("Cup,2013-08-08,pairs,MP,24,1,1,Bob,56", "score", 56.0, "55.0"),
])
def test_unit_rows_must_agree(second: str, column: str, value: object, first_shown: str) -> None:
    with pytest.raises(InconsistentResult) as caught:
        _parse(_csv(GOOD, second))
    error = caught.value
    assert (error.file, error.row, error.column, error.value) == ("x.csv", 3, column, value)
    assert error.problem == f"unit '1': {column} differs from row 2 ({first_shown})"


@pytest.mark.parametrize(("second", "column", "value"), [
    ("Cup,2013-08-08,teams,MP,24,2,2,Bob,50", "kind", "teams"),
    ("Cup,2013-08-08,pairs,IMP,24,2,2,Bob,50", "scoring", "IMP"),
    ("Cup,2013-08-08,pairs,MP,26,2,2,Bob,50", "boards", 26),
])
def test_event_rows_must_agree(second: str, column: str, value: object) -> None:
    with pytest.raises(InconsistentResult) as caught:
        _parse(_csv(GOOD, second))
    error = caught.value
    assert (error.row, error.column, error.value) == (3, column, value)
    assert "differs from row 2" in error.problem and "event 'Cup'" in error.problem


def test_rows_count_file_lines_across_quoted_newlines_and_blank_lines() -> None:
    header = HEADER + ",club"
    rows = [GOOD + ',"Klub\nz dwóch linii"', "", GOOD.replace("Ann", "Ada") + ",",
            "Cup,2013-08-08,pairs,MP,24,2,x,Bob,50,"]
    with pytest.raises(MalformedFile) as caught:
        _parse(_csv(*rows, header=header))
    assert caught.value.row == 6


def test_errors_are_parse_errors_naming_the_file_through_the_registry() -> None:
    from parsers import parse_bytes

    with pytest.raises(ParseError) as caught:
        parse_bytes(_csv("Cup,31.2.2013,pairs,MP,24,1,1,Bob,55"), source="inbox/club.csv")
    assert caught.value.file == "club.csv"


# --- encodings and delimiters ---------------------------------------------------------------

POLISH = [f"Cup,2013-08-08,pairs,MP,24,1,1,{n}," for n in ("Paweł Świątek", "Łucja Woźniak")]
SLOVAK = [f"Cup,2013-08-08,pairs,MP,24,1,1,{n}," for n in ("Ľubomír Šťastný", "Žofia Ďurišová")]


def _names(result: ParseResult) -> list[str]:
    return [p.name for u in result.events[0].units for p in u.players]


@pytest.mark.parametrize("rows", [POLISH, SLOVAK], ids=["polish", "slovak"])
@pytest.mark.parametrize(("encode", "note"), [
    (lambda t: t.encode("utf-8"), None),
    (lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"), None),
    (lambda t: t.encode("cp1250"), "file is not UTF-8; read as cp1250"),
    (lambda t: t.encode("iso-8859-2"), "file is not UTF-8; read as iso8859-2"),
], ids=["utf8", "utf8-bom", "windows-1250", "iso-8859-2"])
def test_encodings(
    rows: list[str], encode: Callable[[str], bytes], note: str | None,
) -> None:
    text = "\r\n".join([HEADER, *rows]) + "\r\n"
    result = _parse(encode(text), strict=True)
    assert _names(result) == [r.split(",")[7] for r in rows]
    assert [i.message for i in result.issues] == ([note] if note else [])


def test_semicolons_with_decimal_commas_and_quotes() -> None:
    data = (
        "event;date;kind;scoring;boards;unit;place;player;score;club\n"
        'Cup;2013-08-08;pairs;MP;24;1;1;Ann;"61,20";"A; B"\n'
        "Cup;2013-08-08;pairs;MP;24;1;1;Bob;61,20;\n"
    ).encode("utf-8")
    unit = _parse(data, strict=True).events[0].units[0]
    assert unit.score == 61.2
    assert [p.club for p in unit.players] == ["A; B", None]


# --- detection ------------------------------------------------------------------------------


@pytest.mark.parametrize("header", [
    HEADER, HEADER.upper(), HEADER.replace(",", ";"), '"event","date","kind","scoring",'
    '"boards","unit","place","player"', "\ufeff" + HEADER, "  " + HEADER.replace(",", " , "),
])
def test_detect_header_variants(header: str) -> None:
    assert csv_template.detect(_csv(GOOD, header=header))


def test_detect_needs_every_required_column() -> None:
    assert not csv_template.detect(_csv(header="event,date,kind,scoring,boards,unit,player"))
    assert not csv_template.detect(b"PairNumber,Name,ABF No,Initial Seating\n1,Ann,123,N\n")
    assert not csv_template.detect(b"")


def test_detect_refuses_html() -> None:
    assert not csv_template.detect((FIXTURES / "jfr_pary" / "W-wb130808.html").read_bytes())


def test_registry_picks_the_template() -> None:
    assert detect_format(_csv(GOOD), "x.csv") is FORMATS["csv_template"]


def test_the_documented_example_loads_as_documented() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "csv-template.md").read_text("utf-8")
    example = doc.split("```csv\n", 1)[1].split("```", 1)[0]
    assert csv_template.detect(example.encode("utf-8"))
    result = _parse(example.encode("utf-8"), strict=True)
    units = result.events[0].units
    assert [(u.label, u.place) for u in units] == [
        ("3", 1.0), ("5", 2.0), ("1", 3.5), ("2", 3.5), ("7", 5.5), ("4", 5.5), ("6", 7.0),
    ]
    assert len(units[1].players) == 3


# --- robustness -----------------------------------------------------------------------------

TIES = (FIXTURES / "csv_template" / "ties-and-decimal-comma.csv").read_bytes()


@given(st.integers(0, len(TIES)), st.integers(0, 60), st.binary(max_size=12))
def test_damaged_files_fail_only_with_parse_errors(start: int, cut: int, junk: bytes) -> None:
    data = TIES[:start] + junk + TIES[start + cut:]
    try:
        result = csv_template.parse(data, source="damaged.csv")
    except ParseError as error:
        assert error.file == "damaged.csv"
    else:
        assert all(event.units for event in result.events)


def test_superscript_digit_in_boards_is_a_parse_error() -> None:
    data = (
        "event,date,kind,scoring,boards,unit,place,player\n"
        "Club pairs,2013-10-03,pairs,MP,2\u00b2,1,1,Ján Novák\n"
    ).encode("utf-8")
    with pytest.raises(ParseError) as info:
        csv_template.parse(data, source="x.csv")
    assert info.value.column == "boards"
    assert info.value.value == "2\u00b2"
