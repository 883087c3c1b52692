"""Bridgewebs results CSV: the facts of both hand-made fixtures, each quirk and error path."""

from __future__ import annotations

import datetime as dt
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
    UnsupportedVariant,
    detect_format,
)
from parsers import bridgewebs

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


TIES = (FIXTURES / "bridgewebs" / "mp-pairs-ties.csv").read_bytes()
TWO = (FIXTURES / "bridgewebs" / "two-winners-ns-ew.csv").read_bytes()

HEADER = "#VERSION,Test 1.0\n#DATE,14/10/2013\n#TITLE,Club Pairs\n#BOARDS,24\n#WINNERS,1\n"


def _parse(text: str, *, strict: bool = False) -> ParseResult:
    return bridgewebs.parse(text.encode("utf-8"), source="/inbox/x.csv", strict=strict)


def _file(*rows: str, header: str = HEADER,
          columns: str = "POSITION,PAIR,NAME1,NAME2,MPS,PERCENT") -> str:
    return header + "#SCORES\n" + columns + "\n" + "".join(f"{row}\n" for row in rows)


# --- the fixtures ---------------------------------------------------------------------------


def test_one_winner_event() -> None:
    result = bridgewebs.parse(TIES, source="mp-pairs-ties.csv", strict=True)
    assert result.format == "bridgewebs"
    (event,) = result.events
    assert event.title == "Monday Evening Pairs"
    assert event.date == dt.date(2013, 10, 14)  # 14/10/2013: day first
    assert (event.kind, event.scoring, event.boards) == ("pairs", "MP", 24)
    assert (event.section, event.organiser, event.format) == ("", "", "bridgewebs")
    assert event.n_units == 10
    winner = event.units[0]
    assert (winner.place, winner.label, winner.score) == (1.0, "7", 64.06)
    assert [p.name for p in winner.players] == ["Margaret O'Brien", "Dennis Hale"]
    assert all(p.federation_id is None and p.club is None for p in winner.players)
    assert result.issues == ()


def test_uk_tie_marks_give_averaged_places() -> None:
    units = bridgewebs.parse(TIES, source="t.csv").events[0].units
    assert [(u.label, u.place, u.place_text) for u in units[2:4]] == [
        ("1", 3.5, "3="), ("9", 3.5, "3="),
    ]
    assert [(u.label, u.place) for u in units[6:9]] == [("2", 8.0), ("5", 8.0), ("8", 8.0)]
    assert sum(u.place or 0 for u in units) == sum(range(1, 11))


def test_quoted_names_with_commas_and_diacritics() -> None:
    units = bridgewebs.parse(TIES, source="t.csv").events[0].units
    assert [p.name for p in units[3].players] == ["Smith, Janet", "Jones, Keith"]
    assert units[1].players[0].name == "Chloë Baxter"


def test_travellers_are_ignored() -> None:
    before, _, _ = TIES.partition(b"#BOARDFORMAT")
    assert bridgewebs.parse(before, source="t.csv") == bridgewebs.parse(TIES, source="t.csv")


def test_two_winners_make_ns_and_ew_events() -> None:
    result = bridgewebs.parse(TWO, source="two.csv", strict=True)
    ns, ew = result.events
    assert (ns.section, ew.section) == ("NS", "EW")
    assert ns.title == ew.title == "Thursday Pairs, Heat 3"
    assert ns.date == ew.date == dt.date(2013, 11, 7)
    assert ns.boards == 21 and ns.scoring == "MP"
    assert ns.key != ew.key
    assert (ns.n_units, ew.n_units) == (7, 7)
    assert (ns.units[0].label, ns.units[0].score) == ("4", 60.42)
    assert (ew.units[0].label, [p.name for p in ew.units[0].players]) == (
        "12", ["Yvonne Clark", "Zoe Dale"],
    )
    assert [(u.label, u.place, u.place_text) for u in ew.units[1:3]] == [
        ("9", 2.5, "=2"), ("14", 2.5, "=2"),
    ]
    assert ew.units[5].players[1].name == "José Nuñez"


def test_registry_picks_bridgewebs() -> None:
    assert detect_format(TIES, "mp-pairs-ties.csv").name == "bridgewebs"
    assert detect_format(TWO, "results.csv").name == "bridgewebs"
    assert FORMATS["bridgewebs"].detect(TWO)


# --- variants -------------------------------------------------------------------------------


@pytest.mark.parametrize(("written", "date"), [
    ("14/10/2013", dt.date(2013, 10, 14)), ("3/2/2014", dt.date(2014, 2, 3)),
    ("2013-10-14", dt.date(2013, 10, 14)),
])
def test_dates(written: str, date: dt.date) -> None:
    text = _file("1,1,A,B,10,60", "2,2,C,D,8,40").replace("14/10/2013", written)
    assert _parse(text, strict=True).events[0].date == date


def test_event_tag_is_read_as_the_title_and_ranking_as_scores() -> None:
    text = _file("1,1,A,B,10,60", header="#EVENT,Spring Cup\n#DATE,1/4/2013\n")
    event = _parse(text.replace("#SCORES", "#RANKING"), strict=True).events[0]
    assert (event.title, event.date, event.boards) == ("Spring Cup", dt.date(2013, 4, 1), None)


def test_imps_column() -> None:
    text = _file("1,3,A,B,+12.5", "2,1,C,D,-12.5", columns="POS,NO,NAME1,NAME2,IMPS")
    event = _parse(text, strict=True).events[0]
    assert event.scoring == "IMP"
    assert [u.score for u in event.units] == [12.5, -12.5]


def test_matchpoints_only() -> None:
    text = _file("1,3,A,B,130", "2,1,C,D,110", columns="POSITION,PAIR,NAME1,NAME2,MPS")
    event = _parse(text, strict=True).events[0]
    assert (event.scoring, event.units[0].score) == ("MP", 130.0)


def test_no_score_column_leaves_scoring_unknown() -> None:
    result = _parse(_file("1,3,A,B", columns="POSITION,PAIR,NAME1,NAME2"), strict=True)
    assert (result.events[0].scoring, result.events[0].units[0].score) == ("unknown", None)
    assert [i.level for i in result.issues] == ["info"]


def test_empty_seat_is_not_a_player() -> None:
    result = _parse(_file("1,1,A,B,10,60", "2,2,Phantom,Sit Out,8,40"))
    unit = result.events[0].units[1]
    assert (unit.place, unit.score, unit.players) == (2.0, 40.0, ())
    (issue,) = result.issues
    assert issue.level == "info"
    assert issue.message.startswith("pair 2: Phantom and Sit Out are empty seats")
    assert issue.where == "file x.csv, table ranking, row 9"


def test_substitute_column() -> None:
    text = _file("1,1,A,B,C,60", columns="POSITION,PAIR,NAME1,NAME2,NAME3,PERCENT")
    assert [p.name for p in _parse(text, strict=True).events[0].units[0].players] == [
        "A", "B", "C",
    ]


# --- issues and errors ----------------------------------------------------------------------


def test_places_contradicting_scores_warn_and_strict_raises() -> None:
    text = _file("1,1,A,B,8,40", "2,2,C,D,10,60")
    (issue,) = _parse(text).issues
    assert issue.level == "warning"
    assert issue.where == "file x.csv, table ranking, row 9, column PERCENT"
    with pytest.raises(InconsistentResult):
        _parse(text, strict=True)


def test_no_date_is_malformed() -> None:
    with pytest.raises(MalformedFile, match="no #DATE") as raised:
        _parse(_file("1,1,A,B,10,60", header="#VERSION,x\n#TITLE,Cup\n"))
    assert (raised.value.file, raised.value.table) == ("x.csv", "header")


@pytest.mark.parametrize("written", ["31/02/2013", "10/14/2013", "2013", "14.10.13"])
def test_invalid_date_names_where(written: str) -> None:
    with pytest.raises(MalformedFile) as raised:
        _parse(_file("1,1,A,B,10,60").replace("14/10/2013", written))
    error = raised.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "x.csv", "header", 2, "#DATE", written,
    )


def test_invalid_position_names_where() -> None:
    with pytest.raises(MalformedFile) as raised:
        _parse(_file("1,1,A,B,10,60", "x,2,C,D,8,40"))
    error = raised.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "x.csv", "ranking", 9, "POSITION", "x",
    )


def test_invalid_score_is_left_empty_leniently() -> None:
    result = _parse(_file("1,1,A,B,10,abc"))
    assert result.events[0].units[0].score is None
    assert result.issues[0].where == "file x.csv, table ranking, row 8, column PERCENT"
    with pytest.raises(MalformedFile):
        _parse(_file("1,1,A,B,10,abc"), strict=True)


def test_missing_column_header() -> None:
    with pytest.raises(MalformedFile, match="column header") as raised:
        _parse(_file("1,1,A,B,10,60", columns="1,9,X,Y,10,60"))
    assert (raised.value.table, raised.value.row) == ("ranking", 7)


def test_winners_must_match_the_blocks() -> None:
    with pytest.raises(MalformedFile, match=r"has 1 ranking block\(s\) \(#SCORES\) but "
                       r"#WINNERS says 2") as raised:
        _parse(_file("1,1,A,B,10,60").replace("#WINNERS,1", "#WINNERS,2"))
    assert (raised.value.table, raised.value.value) == ("header", 1)
    second = "#SCORES\nPOSITION,PAIR,NAME1,NAME2\n1,2,C,D\n"
    with pytest.raises(MalformedFile, match=r"has 2 .* but #WINNERS says 1"):
        _parse(_file("1,1,A,B,10,60") + second)
    without = _file("1,1,A,B,10,60").replace("#WINNERS,1\n", "")
    with pytest.raises(MalformedFile, match=r"no #WINNERS line \(one winner assumed\)"):
        _parse(without + second)


def test_teams_are_not_handled() -> None:
    with pytest.raises(UnsupportedVariant) as raised:
        _parse(_file("1,1,A,B,10,60", header=HEADER + "#TEAMS\n"))
    assert (raised.value.row, raised.value.column) == (6, "#TEAMS")


# --- detection and robustness ---------------------------------------------------------------


def test_detect_needs_a_header_tag_before_the_scores() -> None:
    assert bridgewebs.detect(b"\xef\xbb\xbf" + TIES)
    assert not bridgewebs.detect(b"#SCORES\nPOSITION,PAIR,NAME1,NAME2\n1,1,A,B\n")
    assert not bridgewebs.detect(b"#VERSION,x\n#DATE,1/1/2013\n")
    assert not bridgewebs.detect(b"event,date\n#VERSION,x\n#SCORES\n")
    assert not bridgewebs.detect(
        b"event,date,kind,scoring,boards,unit,place,player\nCup,2013-01-01,pairs,MP,,1,1,A\n"
    )


def test_other_fixtures_are_not_claimed() -> None:
    for path in _fixture_files():
        if path.is_file() and path.parent.name != "bridgewebs" and path.suffix != ".json":
            assert not bridgewebs.detect(path.read_bytes(), path.name), path


@given(st.sampled_from([TIES, TWO]), st.integers(0, 2000), st.integers(0, 60),
       st.binary(max_size=12))
def test_damaged_files_fail_only_with_parse_errors(
    data: bytes, start: int, cut: int, junk: bytes,
) -> None:
    damaged = data[:start] + junk + data[start + cut:]
    try:
        result = bridgewebs.parse(damaged, source="damaged.csv")
    except ParseError as error:
        assert error.file == "damaged.csv"
    else:
        assert all(event.n_units >= 1 for event in result.events)
