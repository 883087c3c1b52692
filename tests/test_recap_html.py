"""Recap pages (BridgeComposer / ACBLscore HTML): sections, strat columns, ties, headings."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers import (
    FORMATS,
    InconsistentResult,
    MalformedFile,
    NoResults,
    ParseError,
    ParseResult,
    detect_format,
)
from parsers import bridgecomposer_recap as recap

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RECAP = FIXTURES / "recap_html"
SECTIONS = (RECAP / "two-sections-strat-columns.html").read_bytes()
TIES = (RECAP / "ties-slash-and-dash.html").read_bytes()


def _page(body: str, heading: str = "<h1>Oak Park Bridge Club</h1><h2>Friday Pairs</h2>"
          "<h3>March 1, 2024</h3>") -> bytes:
    return f"<html><head><title>Recap</title></head><body>{heading}{body}</body></html>".encode()


def _table(*rows: str, header: str = "<tr><th>Pair</th><th>Pct</th><th>Score</th>"
           "<th>Rank</th><th>Names</th></tr>", caption: str = "") -> str:
    caption = f"<caption>{caption}</caption>" if caption else ""
    return f"<table>{caption}{header}{''.join(rows)}</table>"


def _row(*cells: str) -> str:
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _parse(data: bytes, *, strict: bool = False) -> ParseResult:
    return recap.parse(data, source="/inbox/recap.html", strict=strict)


# --- two sections with strat columns --------------------------------------------------------


@pytest.fixture(scope="module")
def sections() -> ParseResult:
    return recap.parse(SECTIONS, source="two-sections-strat-columns.html", strict=True)


def test_two_sections_are_two_events(sections: ParseResult) -> None:
    assert sections.format == "bridgecomposer_recap"
    a, b = sections.events
    assert (a.section, b.section) == ("A", "B")
    for event in (a, b):
        assert event.title == "Wednesday Evening Open Pairs"
        assert event.organiser == "Lakeside Bridge Center"
        assert event.date == dt.date(2024, 10, 16)
        assert (event.kind, event.scoring, event.boards) == ("pairs", "MP", None)
    assert (a.n_units, b.n_units) == (6, 4)


def test_rows_in_pair_order_are_ranked_by_strat_a(sections: ParseResult) -> None:
    a, b = sections.events
    assert [u.label for u in a.units] == ["2", "4", "1", "5", "3", "6"]
    assert [u.place for u in a.units] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert [u.score for u in a.units[:2]] == [61.25, 55.42]
    assert [u.label for u in b.units] == ["2", "1", "3", "4"]


def test_lower_strat_ranks_are_info_notes(sections: ParseResult) -> None:
    notes = [i for i in sections.issues if "lower-strat" in i.message]
    assert len(notes) == 6
    assert all(i.level == "info" for i in sections.issues)
    first = notes[0]
    assert first.message.startswith("pair 2: place 1 taken from the first strat; "
                                    "lower-strat rank(s) 1, 1 not used")
    assert first.where == ("file two-sections-strat-columns.html, table section A, row 2, "
                           "column Rank A")


def test_hyphenated_and_multi_word_names_stay_whole(sections: ParseResult) -> None:
    a = sections.events[0]
    by_label = {u.label: [p.name for p in u.players] for u in a.units}
    assert by_label["5"] == ["Mary Beth Holloway-Reyes", "Tom Carver"]
    assert by_label["4"] == ["Stephen Oduya", "Lorraine St. Clair"]
    assert by_label["3"] == ["Carol Ann Becker", "Ray Becker"]


def test_registry_picks_the_recap_format() -> None:
    assert detect_format(SECTIONS, "recap.html").name == "bridgecomposer_recap"
    assert FORMATS["bridgecomposer_recap"].parse.__wrapped__ is recap.parse  # served through the gate


# --- ties -----------------------------------------------------------------------------------


def test_slash_and_dash_ties() -> None:
    result = _parse(TIES, strict=True)
    (event,) = result.events
    assert event.title == "Tuesday Morning 299er Pairs"
    assert event.organiser == "Riverside Duplicate Club"
    assert event.date == dt.date(2024, 6, 4)
    assert event.section == ""
    assert [u.place_text for u in event.units] == ["1", "2/1", "3/4", "3/4", "5-6", "5-6", "7", ""]
    assert [u.place for u in event.units] == [1.0, 2.0, 3.5, 3.5, 5.5, 5.5, 7.0, 8.0]
    assert sum(u.place or 0 for u in event.units) == sum(range(1, 9))


def test_br_separated_names_and_windows_1252() -> None:
    (event,) = _parse(TIES).events
    assert [p.name for p in event.units[0].players] == ["Rita Gómez", "Alan Pierce"]
    assert [p.name for p in event.units[3].players] == ["Priya Raman", "Lois Feld"]


def test_strat_rank_in_one_cell_and_unranked_pair_are_noted() -> None:
    issues = _parse(TIES).issues
    assert [i.level for i in issues] == ["info", "info"]
    assert "lower-strat rank(s) 1" in issues[0].message
    assert issues[0].where == "file recap.html, table ranking, row 2, column Rank"
    assert "has no rank; placed by its score at 8" in issues[1].message


# --- headings and layouts -------------------------------------------------------------------


def test_section_and_direction_from_the_heading_above_the_table() -> None:
    body = ("<h4>Section A North-South</h4>"
            + _table(_row("1", "60.00", "30.0", "1", "Ann Lee - Bo Kim"),
                     _row("2", "40.00", "20.0", "2", "Cy Day - Di Eng"))
            + "<h4>Section A East-West</h4>"
            + _table(_row("1", "55.00", "27.5", "1", "Ed Fox - Flo Gray"),
                     _row("2", "45.00", "22.5", "2", "Gus Hay - Ida Ivy")))
    ns, ew = _parse(_page(body), strict=True).events
    assert (ns.section, ew.section) == ("A NS", "A EW")
    assert ns.organiser == "Oak Park Bridge Club" and ns.title == "Friday Pairs"


def test_section_ranks_are_used_when_overall_ranks_are_there_too() -> None:
    header = ("<tr><th rowspan='2'>Pair</th><th colspan='2'>Overall</th>"
              "<th colspan='2'>Section</th><th rowspan='2'>Pct</th><th rowspan='2'>Names</th></tr>"
              "<tr><th>A</th><th>B</th><th>A</th><th>B</th></tr>")
    body = _table(_row("3", "1", "", "1", "", "62.0", "Ann Lee - Bo Kim"),
                  _row("4", "5", "2", "2", "1", "48.0", "Cy Day - Di Eng"), header=header,
                  caption="Section B")
    (event,) = _parse(_page(body)).events
    assert event.section == "B"
    assert [u.place for u in event.units] == [1.0, 2.0]
    assert [u.place_text for u in event.units] == ["1", "2"]


def test_untitled_tables_are_numbered_sections() -> None:
    table = _table(_row("1", "55.0", "11", "1", "Ann Lee - Bo Kim"),
                   _row("2", "45.0", "9", "2", "Cy Day - Di Eng"))
    result = _parse(_page(table + table))
    assert [e.section for e in result.events] == ["1", "2"]


def test_phantom_pair_keeps_its_place_without_players() -> None:
    body = _table(_row("1", "55.0", "11", "1", "Ann Lee - Bo Kim"),
                  _row("9", "45.0", "9", "2", "Phantom"))
    result = _parse(_page(body))
    assert result.events[0].units[1].players == ()
    assert result.issues[-1].level == "info"


def test_places_contradicting_scores_are_warnings_and_strict_raises() -> None:
    body = _table(_row("1", "45.0", "9", "1", "Ann Lee - Bo Kim"),
                  _row("2", "55.0", "11", "2", "Cy Day - Di Eng"))
    assert _parse(_page(body)).issues[0].level == "warning"
    with pytest.raises(InconsistentResult) as info:
        _parse(_page(body), strict=True)
    assert (info.value.table, info.value.row, info.value.column) == ("ranking", 2, "Rank")


# --- errors ---------------------------------------------------------------------------------


def test_no_date_is_malformed() -> None:
    body = _table(_row("1", "55.0", "11", "1", "Ann Lee - Bo Kim"))
    with pytest.raises(MalformedFile) as info:
        _parse(_page(body, heading="<h1>Oak Park Bridge Club</h1>"))
    assert (info.value.file, info.value.table) == ("recap.html", "heading")


def test_invalid_rank_names_row_and_column() -> None:
    body = _table(_row("1", "55.0", "11", "1", "Ann Lee - Bo Kim"),
                  _row("2", "45.0", "9", "2nd", "Cy Day - Di Eng"))
    with pytest.raises(MalformedFile) as info:
        _parse(_page(body))
    assert (info.value.row, info.value.column, info.value.value) == (2, "Rank", "2nd")


def test_page_without_a_ranking_table() -> None:
    with pytest.raises(MalformedFile):
        _parse(_page("<table><tr><td>Board 1</td></tr></table>"))


# --- detection and robustness ---------------------------------------------------------------


def test_detect() -> None:
    assert recap.detect(SECTIONS) and recap.detect(TIES)
    assert not recap.detect((FIXTURES / "jfr_pary" / "W-wb130808.html").read_bytes())
    assert not recap.detect(b"<table><tr><th>Rank</th><th>Name</th><th>Score ( % )</th></tr>")
    assert not recap.detect((FIXTURES / "pbn" / "bridgecomposer_club_game.pbn").read_bytes())


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([SECTIONS, TIES]), st.integers(min_value=0), st.integers(0, 255),
       st.booleans())
def test_truncations_and_byte_flips_only_raise_parse_errors(
    data: bytes, position: int, byte: int, truncate: bool,
) -> None:
    position %= len(data)
    mutated = data[:position] if truncate else data[:position] + bytes([byte]) + data[position + 1:]
    try:
        result = recap.parse(mutated, source="mutated.html")
    except ParseError:
        return
    assert isinstance(result, ParseResult)


# --- BridgeComposer pages: the recap text in <pre> -----------------------------------------


def test_recap_text_in_pre_is_one_event_per_direction() -> None:
    data = (RECAP / "bridgecomposer-pre-two-directions-travellers.html").read_bytes()
    assert detect_format(data, "page.html").name == "bridgecomposer_recap"
    ns, ew = recap.parse(data, source="page.html", strict=True).events
    assert (ns.section, ew.section) == ("A NS", "A EW")
    assert (ns.title, ns.organiser, ns.date) == ("Tuesday Evening Pairs", "Lakeside Bridge Club",
                                                 dt.date(2015, 3, 3))
    assert [u.label for u in ns.units] == ["1", "3", "2", "4"]  # by the section percentage
    assert ns.units[2].place_text == ""  # ranked 2 in strat B only: no strat-A rank written
    assert [(u.place, u.place_text) for u in ew.units[1:3]] == [(2.5, "2/3"), (2.5, "2/3")]
    names = {p.name for e in (ns, ew) for u in e.units for p in u.players}
    assert "Mary Beth Holloway-Reyes" in names and len(names) == 16
    assert not any("-" in n and n.split("-")[0].isdigit() for n in names)  # no traveller text


def test_bridgecomposer_page_without_recap_is_refused() -> None:
    data = (RECAP / "bridgecomposer-hand-records-travellers-only.html").read_bytes()
    assert detect_format(data, "page.html").name == "bridgecomposer_recap"
    with pytest.raises(NoResults, match="without a recap"):
        recap.parse(data, source="page.html")


def test_teams_recap_text_without_players_is_refused() -> None:
    body = ("<pre>\n  Swiss Teams\n  May 2, 2016\n  Team   VPs  Rank   Names\n"
            "   1   72.5   1    Lee\n   2   60.0   2    Park\n</pre>")
    with pytest.raises(ParseError, match="teams recap"):
        _parse(_page(body))


def test_teams_recap_text_with_its_players_is_a_teams_event() -> None:
    """A team section among pairs sections (BridgeComposer prints a board-a-match section D
    after the pairs): each team's players joined by `` - ``."""
    body = ("<pre>\n  Swiss Teams\n  May 2, 2016\n  Team   VPs  Rank   Names\n"
            "   1   72.5   1    Ann Lee - Bo Park - Cy Dunn - Di Fox\n"
            "   2   60.0   2    Ed Gray - Flo Hunt - Gus Irwin - Hal Judd\n</pre>")
    event = _parse(_page(body)).events[0]
    assert event.kind == "teams" and event.scoring == "VP"
    assert [len(u.players) for u in event.units] == [4, 4]
    assert event.units[0].players[0].name == "Ann Lee"


def test_bridgecomposer_recap_with_a_strat_letter_before_the_section_rank() -> None:
    # real pages of two BridgeComposer versions: "Pair Pct Score Section Rank MPs" with the
    # pair's strat written before its rank ("A   1"), the section on the "Scores after" line
    for folder, name in (
        ("real/recap_html", "bridgecomposer-5-65-pre-section-rank-strat-letter.htm"),
        ("same_night", "bridgecomposer-5-118-pre-section-rank-strat-letter.htm"),
    ):
        data = (FIXTURES / folder / name).read_bytes()
        assert detect_format(data, name).name == "bridgecomposer_recap", name
        ns, ew = recap.parse(data, source=name, strict=True).events
        assert (ns.section, ew.section) == ("A NS", "A EW")
        assert ns.date == dt.date(2026, 3, 9)
        assert [(u.label, u.place, u.place_text, u.score) for u in ew.units] == [
            ("3", 1.0, "1", 75.0), ("2", 2.0, "2", 50.0), ("1", 3.0, "3", 25.0)]
        assert [p.name for p in ns.units[0].players] == ["Ann Alfa", "Bob Bravo"]


def test_two_bridgecomposer_versions_of_one_night_give_equal_events() -> None:
    # ishermandom/bridge keeps one night written by BridgeComposer 5.65 and by 5.118.1 (board
    # ids, a heading in each hand diagram, a fuller par line): the same results either way
    pages = [(FIXTURES / "real/recap_html/bridgecomposer-5-65-pre-section-rank-strat-letter.htm"),
             (FIXTURES / "same_night/bridgecomposer-5-118-pre-section-rank-strat-letter.htm")]
    older, newer = (recap.parse(p.read_bytes(), source=p.name, strict=True) for p in pages)
    assert len(older.events) == 2
    assert older.events == newer.events
