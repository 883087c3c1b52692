"""BBO tournament result pages: the real sample's facts, robots, ties, dates, error paths."""

from __future__ import annotations

import datetime as dt
import re
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
from parsers import bbo

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


SAMPLE_NAME = "tview_1538-1385205517.html"
SAMPLE = (FIXTURES / "bbo" / SAMPLE_NAME).read_bytes()
SAMPLE_TEXT = SAMPLE.decode("utf-8")
ROBOTS = (FIXTURES / "bbo" / "robot-partner-ties.html").read_bytes()


def _parse(text: str, *, name: str = "page.html", strict: bool = False) -> ParseResult:
    return bbo.parse(text.encode("utf-8"), source=f"/inbox/{name}", strict=strict)


def _without_ids(text: str) -> str:
    """The sample without its tournament id (debug line and hand links)."""
    text = text.replace("Tourney: 1538-1385205517", "Tourney: ")
    return text.replace("tourney=1538-1385205517-", "tourney=")


def _section_row(text: str, handles: str) -> tuple[int, int]:
    """Start and end of the section-table row of ``handles``."""
    match = re.search(rf"<tr class='(?:odd|even)'><td>{re.escape(handles)}</td>.*?</tr>", text)
    assert match is not None
    return match.start(), match.end()


def _set_section_cell(text: str, handles: str, old: str, new: str) -> str:
    start, end = _section_row(text, handles)
    row = text[start:end]
    assert row.count(old) == 1
    return text[:start] + row.replace(old, new) + text[end:]


# --- acceptance facts of the real sample ----------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> ParseResult:
    return bbo.parse(SAMPLE, source=f"fixtures/bbo/{SAMPLE_NAME}")


def test_sample_event(sample: ParseResult) -> None:
    assert sample.format == "bbo"
    (event,) = sample.events
    assert event.title == "#1538 Pairs Untitled"
    assert event.organiser == "annamar"
    assert event.date == dt.date(2013, 11, 23)  # 1385205517 = 2013-11-23 11:18:37 UTC
    assert (event.kind, event.scoring, event.boards, event.section) == ("pairs", "MP", None, "")
    assert event.n_units == 12  # the section table, not the top-ten honour list


def test_sample_winner_and_last(sample: ParseResult) -> None:
    first, last = sample.events[0].units[0], sample.events[0].units[-1]
    assert (first.place, first.place_text, first.label, first.score) == (
        1.0, "1", "batu15+22erko", 75.85,
    )
    assert [(p.name, p.federation_id, p.club) for p in first.players] == [
        ("batu15", None, None), ("22erko", None, None),
    ]
    assert (last.place, last.label, last.score) == (12.0, "aloha4ever+atulbb", 48.82)


def test_sample_handles_with_spaces(sample: ParseResult) -> None:
    assert [p.name for p in sample.events[0].units[1].players] == ["mustafa bo", "sarslan1"]


def test_sample_date_issue(sample: ParseResult) -> None:
    (issue,) = sample.issues
    assert issue.level == "info"
    assert issue.message == (
        "date taken from the tournament id on the page: the tournament started "
        "2013-11-23 11:18 UTC"
    )
    assert issue.where == f"file {SAMPLE_NAME}"


def test_sample_strict_raises_nothing() -> None:
    assert bbo.parse(SAMPLE, source=SAMPLE_NAME, strict=True).events[0].n_units == 12


def test_registry_picks_bbo() -> None:
    assert detect_format(SAMPLE, SAMPLE_NAME).name == "bbo"
    assert detect_format(ROBOTS, "robot-partner-ties.html").name == "bbo"
    assert FORMATS["bbo"].detect(SAMPLE)  # the file name is not needed


# --- robots and ties ------------------------------------------------------------------------


def test_robot_partner_is_not_a_player() -> None:
    result = bbo.parse(ROBOTS, source="robot-partner-ties.html", strict=True)
    units = result.events[0].units
    assert (units[1].label, units[1].place, units[1].score) == ("carla_b+~~robot", 2.0, 61.45)
    assert [p.name for p in units[1].players] == ["carla_b"]
    assert (units[6].label, units[6].place, units[6].players) == ("~~robot+Robot", 6.5, ())
    robot_notes = [i for i in result.issues if "robot" in i.message]
    assert [(i.level, i.where) for i in robot_notes] == [
        ("info", "file robot-partner-ties.html, table Section 1, row 2"),
        ("info", "file robot-partner-ties.html, table Section 1, row 7"),
    ]


@pytest.mark.parametrize("handle", ["Robot", "robot1", "ROBOT", "~~robot", "~~M12345"])
def test_robot_handles(handle: str) -> None:
    text = SAMPLE_TEXT.replace("j22", handle)
    unit = _parse(text).events[0].units[2]
    assert [p.name for p in unit.players] == ["impfairy"]


def test_robotics_fan_is_a_player() -> None:
    text = SAMPLE_TEXT.replace("j22", "robotfan")
    assert [p.name for p in _parse(text).events[0].units[2].players] == ["impfairy", "robotfan"]


def test_repeated_ranks_are_ties() -> None:
    units = bbo.parse(ROBOTS, source="r.html").events[0].units
    assert [(u.place, u.place_text) for u in units] == [
        (1.0, "1"), (2.0, "2"), (3.5, "3"), (3.5, "3"), (5.0, "5"), (6.5, "6"), (6.5, "6"),
        (8.0, "8"),
    ]
    assert sum(u.place or 0 for u in units) == sum(range(1, 9))


def test_tie_marks_and_empty_ranks() -> None:
    text = _set_section_cell(SAMPLE_TEXT, "GR06+mike60", ">59.67<", ">59.36<")
    text = _set_section_cell(text, "GR06+mike60", "'rank' >5<", "'rank' >5=<")
    text = _set_section_cell(text, "faci+ekamyu", "'rank' >6<", "'rank' ><")
    units = _parse(text, strict=True).events[0].units
    assert [(u.place, u.place_text) for u in units[4:6]] == [(5.5, "5="), (5.5, "")]


def test_places_contradicting_scores_warn() -> None:
    text = _set_section_cell(SAMPLE_TEXT, "faci+ekamyu", ">59.36<", ">60.00<")
    issues = [i for i in _parse(text).issues if i.level == "warning"]
    assert [i.where for i in issues] == [
        "file page.html, table Section 1, row 6, column Score ( % )",
    ]
    with pytest.raises(InconsistentResult):
        _parse(text, strict=True)


# --- kinds and scoring ----------------------------------------------------------------------


def test_individual_tournament() -> None:
    text = re.sub(r"<td>([^<+]+)\+[^<]+</td>", r"<td>\1</td>", SAMPLE_TEXT)
    event = _parse(text, strict=True).events[0]
    assert event.kind == "individual"
    assert [p.name for p in event.units[0].players] == ["batu15"]


def test_imp_scoring() -> None:
    text = SAMPLE_TEXT.replace("Score ( % )", "Score (IMPs)")
    assert _parse(text, strict=True).events[0].scoring == "IMP"


def test_unknown_scoring_is_noted() -> None:
    text = SAMPLE_TEXT.replace("Score ( % )", "Score (BAM)")
    result = _parse(text, strict=True)
    assert result.events[0].scoring == "unknown"
    assert any(i.level == "info" and "neither percent" in i.message for i in result.issues)


# --- dates ----------------------------------------------------------------------------------


def test_date_from_the_file_name_when_the_page_has_no_id() -> None:
    text = _without_ids(SAMPLE_TEXT)
    for name in (SAMPLE_NAME, "tview.php@t=1538-1385205517.html"):
        result = _parse(text, name=name)
        assert result.events[0].date == dt.date(2013, 11, 23)
        assert result.issues[0].message.startswith(
            "date taken from the tournament id in the file name"
        )


def test_a_written_date_wins() -> None:
    row = ('<tr><td class="bbo_tll" align="left">Start time</td>'
           '<td class="bbo_tlv">2013-11-24 20:00</td></tr>')
    text = SAMPLE_TEXT.replace("<table class=\"bbo_t_l\">", "<table class=\"bbo_t_l\">" + row)
    result = _parse(text, strict=True)
    assert result.events[0].date == dt.date(2013, 11, 24)
    assert result.issues == ()


def test_no_date_anywhere_is_malformed() -> None:
    with pytest.raises(MalformedFile, match="no event date") as raised:
        _parse(_without_ids(SAMPLE_TEXT), name="results.html")
    assert raised.value.file == "results.html"


def test_implausible_time_is_not_a_date() -> None:
    text = _without_ids(SAMPLE_TEXT)
    with pytest.raises(MalformedFile):
        _parse(text, name="tview_1538-0000000001.html")
    assert bbo.tournament_start("tview_1-4200000000.html", in_file_name=True) is None
    assert bbo.tournament_start("Tourney: 1538-1385205517") == dt.datetime(
        2013, 11, 23, 11, 18, 37, tzinfo=dt.timezone.utc,
    )


# --- errors ---------------------------------------------------------------------------------


def test_invalid_rank_names_where() -> None:
    text = _set_section_cell(SAMPLE_TEXT, "faci+ekamyu", "'rank' >6<", "'rank' >x<")
    with pytest.raises(MalformedFile) as raised:
        _parse(text)
    error = raised.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "page.html", "Section 1", 6, "Rank", "x",
    )


def test_invalid_score_is_left_empty_leniently() -> None:
    text = _set_section_cell(SAMPLE_TEXT, "faci+ekamyu", ">59.36<", ">n/a<")
    result = _parse(text)
    assert result.events[0].units[5].score is None
    assert any(i.where == "file page.html, table Section 1, row 6, column Score ( % )"
               for i in result.issues)
    with pytest.raises(MalformedFile):
        _parse(text, strict=True)


def test_page_without_section_table() -> None:
    with pytest.raises(UnsupportedVariant, match="no section table"):
        _parse(SAMPLE_TEXT.replace("sectiontable", "othertable"))


def test_several_sections_are_one_event_each() -> None:
    start = SAMPLE_TEXT.index("<div class='sectionbreak'>")
    end = SAMPLE_TEXT.index("</body>")
    section = SAMPLE_TEXT[start:end]
    text = SAMPLE_TEXT[:end] + section.replace("Section 1", "Section 2") + SAMPLE_TEXT[end:]
    events = _parse(text).events
    assert [e.section for e in events] == ["1", "2"]
    assert [e.n_units for e in events] == [12, 12]


def test_directions_and_strat_ranks() -> None:
    data = (FIXTURES / "bbo" / "tview-two-directions-strat-ranks.html").read_bytes()
    ns, ew = bbo.parse(data, source="tview-two-directions-strat-ranks.html", strict=True).events
    assert (ns.section, ew.section) == ("1 NS", "1 EW")
    assert (ns.n_units, ew.n_units) == (12, 12)
    third = ns.units[2]  # ranked 3 in strat A and 1 in strat B: the place is 3
    assert (third.label, third.place, third.place_text) == ("claudia vd+morgan22", 3.0, "3")


def test_script_loaded_page_is_refused() -> None:
    start = SAMPLE_TEXT.index("<div class='sectionbreak'>")
    end = SAMPLE_TEXT.index("</body>")
    shell = SAMPLE_TEXT[:start] + SAMPLE_TEXT[end:]
    assert bbo.detect(shell.encode())
    with pytest.raises(UnsupportedVariant, match="no section table"):
        _parse(shell)


# --- the results CSV ------------------------------------------------------------------------

CSV = (FIXTURES / "bbo" / "results-export-sections-robots.csv").read_bytes()


def test_csv_partners_share_rank_and_score() -> None:
    ns, ew = bbo.parse(CSV, source="export.csv", strict=True).events
    assert (ns.title, ns.organiser, ns.date) == ("#4242 Pairs Tuesday Club", "clubtd",
                                                 dt.date(2014, 1, 1))
    assert (ns.section, ew.section, ns.kind, ns.scoring) == ("1 NS", "1 EW", "pairs", "MP")
    assert [p.name for p in ns.units[1].players] == ["ann_k", "boris7"]
    assert [p.name for p in ns.units[0].players] == ["carla_b"]  # ~~M12345 is a robot
    tied = ew.units[1:3]
    assert [(u.place, [p.name for p in u.players]) for u in tied] == [
        (2.5, ["jack"]), (2.5, ["liz"]),
    ]


def test_csv_is_claimed_from_its_content_not_its_name() -> None:
    assert bbo.detect(CSV, "anything.txt")
    renamed = b"No.;User;Result\n1;ann_k;55.10\n2;boris7;55.10\n3;carla;44.9\n4;dan;44.9\n"
    assert detect_format(renamed, "results.xls").name == "bbo"
    assert not bbo.detect(b"Rank,Name,Score\n1,Ann Smith,55\n2,Bob Jones,50\n")


def test_csv_partners_that_cannot_be_told_apart_are_refused() -> None:
    data = (b"No.;User;Result\n1;ann;55.10\n2;bob;55.10\n3;cid;55.10\n4;dee;55.10\n"
            b"5;eve;40\n6;fay;40\n")
    with pytest.raises(UnsupportedVariant, match="4 players share score 55.10"):
        bbo.parse(data, source="tview_1538-1385205517.csv")


def test_csv_without_a_date_is_malformed() -> None:
    data = b"No.;User;Result\n1;ann;55.10\n2;bob;55.10\n3;cid;45\n4;dee;45\n"
    with pytest.raises(MalformedFile, match="no event date"):
        bbo.parse(data, source="results.csv")
    (event,) = bbo.parse(data, source="tview_1538-1385205517.csv").events
    assert [u.label for u in event.units] == ["ann+bob", "cid+dee"]


# --- detection and robustness ---------------------------------------------------------------


def test_detect_refuses_other_pages() -> None:
    assert not bbo.detect(b"<html><table class='sectiontable'></table></html>")
    assert not bbo.detect(b"<html><a href='http://www.bridgebase.com/'>BBO</a></html>")


def test_other_fixtures_are_not_claimed() -> None:
    for path in _fixture_files():
        if path.is_file() and path.parent.name != "bbo" and path.suffix != ".json":
            assert not bbo.detect(path.read_bytes(), path.name), path


@given(st.sampled_from([SAMPLE, ROBOTS]), st.integers(0, 6000), st.integers(0, 300),
       st.binary(max_size=20))
def test_damaged_pages_fail_only_with_parse_errors(
    data: bytes, start: int, cut: int, junk: bytes,
) -> None:
    damaged = data[:start] + junk + data[start + cut:]
    try:
        result = bbo.parse(damaged, source="damaged.html")
    except ParseError as error:
        assert error.file == "damaged.html"
    else:
        assert result.events[0].n_units >= 1
