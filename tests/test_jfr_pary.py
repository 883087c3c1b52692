"""JFR Pary full-results pages: the acceptance facts of the real sample and each quirk."""

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
    detect_format,
)
from parsers import jfr_pary
from parsers._jfr import date_from_file_name, infer_scoring

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SAMPLE_PATH = FIXTURES / "jfr_pary" / "W-wb130808.html"
SAMPLE = SAMPLE_PATH.read_bytes()
SAMPLE_TEXT = SAMPLE.decode("utf-8")


def _parse(text: str, *, strict: bool = False, name: str = "W-test.html") -> ParseResult:
    return jfr_pary.parse(text.encode("utf-8"), source=f"/inbox/{name}", strict=strict)


def _without_dates(text: str) -> str:
    """The sample with the date removed from the heading and the <title>."""
    text = text.replace("Warszawa - Polinezyjska, 8 sierpnia 2013", "Warszawa - Polinezyjska")
    return text.replace("Turniej par barometr - 8 sierpnia 2013", "Turniej par barometr")


def _set_place(text: str, place: int, written: str) -> str:
    """The sample with the place cell of the pair ranked ``place`` rewritten."""
    cell = f'<tr><td class="n">&nbsp;</td><td class="c">{place}</td>'
    assert text.count(cell) == 1
    return text.replace(cell, f'<tr><td class="n">&nbsp;</td><td class="c">{written}</td>')


def _set_heading(text: str, line: str) -> str:
    return _without_dates(text).replace("Warszawa - Polinezyjska", line, 1)


# --- acceptance facts of the real sample ----------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> ParseResult:
    return jfr_pary.parse(SAMPLE, source=str(SAMPLE_PATH))


def test_sample_event(sample: ParseResult) -> None:
    assert sample.format == "jfr_pary"
    assert len(sample.events) == 1
    event = sample.events[0]
    assert event.game == "bridge"
    assert event.kind == "pairs"
    assert event.scoring == "MP"
    assert event.date == dt.date(2013, 8, 8)
    assert event.title == "Turniej Par - Barometr"
    assert event.organiser == "Warszawa - Polinezyjska"
    assert event.section == ""
    assert event.boards is None
    assert event.format == "jfr_pary"
    assert event.n_units == 23
    assert sample.issues == ()


def test_sample_winner(sample: ParseResult) -> None:
    winner = sample.events[0].units[0]
    assert winner.label == "13"
    assert winner.place == 1.0
    assert winner.place_text == "1"
    assert winner.score == 61.83
    assert [(p.name, p.federation_id) for p in winner.players] == [
        ("Irena Chodorowska", "06542"),
        ("Jan Chodorowski", "06543"),
    ]
    # One club line for two members belongs to both.
    assert [p.club for p in winner.players] == ["Spójnia II Warszawa", "Spójnia II Warszawa"]


def test_sample_places_scores_and_ids(sample: ParseResult) -> None:
    units = sample.events[0].units
    assert [u.place for u in units] == [float(i) for i in range(1, 24)]
    assert [u.label for u in units][:4] == ["13", "8", "23", "22"]
    assert units[-1].label == "1" and units[-1].score == 36.67
    assert all(len(u.players) == 2 for u in units)
    assert all(p.federation_id and re.fullmatch(r"\d{5}", p.federation_id)
               for u in units for p in u.players)
    scores = [u.score for u in units]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]


def test_sample_clubs_one_line_per_member(sample: ParseResult) -> None:
    units = {u.label: u for u in sample.events[0].units}
    # Two lines: one per member.
    assert [p.club for p in units["8"].players] == ["SPS CONSTRUCTION I Kielce",
                                                    "Singleton Warszawa"]
    # "MBIKE Rowery Warszawa<br>&nbsp;": the second member has no club.
    assert [p.club for p in units["16"].players] == ["MBIKE Rowery Warszawa", None]
    # "&nbsp;" alone: nobody has a club.
    assert [p.club for p in units["17"].players] == [None, None]
    # Whitespace is normalised ("INWIT  Pabianice").
    assert units["15"].players[0].club == "INWIT Pabianice"


def test_sample_diacritics(sample: ParseResult) -> None:
    names = {p.name for u in sample.events[0].units for p in u.players}
    assert {"Paweł Chindelewicz", "Małgorzata Jeleniewska", "Mariusz Łasiewicki",
            "Adam Żelazny", "Krzysztof Gołaś"} <= names


def test_sample_strict_has_nothing_to_complain_about() -> None:
    assert jfr_pary.parse(SAMPLE, strict=True).events[0].n_units == 23


def test_registry_picks_jfr_pary() -> None:
    assert detect_format(SAMPLE, "W-wb130808.html") is FORMATS["jfr_pary"]


# --- ties -----------------------------------------------------------------------------------


def test_ties_empty_place_cells_and_written_ranges() -> None:
    data = (FIXTURES / "jfr_pary" / "ties-empty-place.html").read_bytes()
    result = jfr_pary.parse(data, source="ties-empty-place.html", strict=True)
    units = result.events[0].units
    assert [u.place_text for u in units] == ["1", "2", "", "4", "5-6", "", "7", "8"]
    assert [u.place for u in units] == [1.0, 2.5, 2.5, 4.0, 5.5, 5.5, 7.0, 8.0]
    assert sum(u.place for u in units if u.place is not None) == sum(range(1, 9))
    assert [u.label for u in units[4:6]] == ["16", "9"]
    assert result.issues == ()


def test_tie_written_as_range_on_both_rows() -> None:
    text = _set_place(_set_place(SAMPLE_TEXT, 5, "5-6"), 6, "5-6")
    text = text.replace("  54.70<", "  54.86<", 1)
    units = _parse(text, strict=True).events[0].units
    assert [(u.place, u.place_text) for u in units[4:6]] == [(5.5, "5-6"), (5.5, "5-6")]
    assert units[6].place == 7.0


def test_tied_places_with_different_scores_is_a_warning() -> None:
    text = _set_place(SAMPLE_TEXT, 6, "&nbsp;")
    result = _parse(text)
    assert [u.place for u in result.events[0].units[4:7]] == [5.5, 5.5, 7.0]
    assert len(result.issues) == 1
    issue = result.issues[0]
    assert issue.level == "warning"
    assert "shares place 5.5" in issue.message
    assert issue.where == "file W-test.html, table results, row 6, column wynik %"
    with pytest.raises(InconsistentResult):
        _parse(text, strict=True)


def test_score_order_contradicting_places_is_a_warning() -> None:
    text = SAMPLE_TEXT.replace("  53.66<", "  99.99<", 1)  # 7th place outscores 6th
    result = _parse(text)
    assert [i.level for i in result.issues] == ["warning"]
    assert "pair 21: place 7 scores 99.99, more than 54.7 at place 6" in result.issues[0].message
    assert "row 7" in result.issues[0].where
    with pytest.raises(InconsistentResult) as caught:
        _parse(text, strict=True)
    assert caught.value.row == 7 and caught.value.file == "W-test.html"


# --- dates ----------------------------------------------------------------------------------

POLISH_MONTHS = [
    "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca",
    "lipca", "sierpnia", "września", "października", "listopada", "grudnia",
]


@pytest.mark.parametrize("month", range(1, 13))
def test_polish_month_names(month: int) -> None:
    text = _set_heading(SAMPLE_TEXT, f"Warszawa - Polinezyjska, 3 {POLISH_MONTHS[month - 1]} 2013")
    event = _parse(text).events[0]
    assert event.date == dt.date(2013, month, 3)
    assert event.organiser == "Warszawa - Polinezyjska"


@pytest.mark.parametrize("written", ["08.08.2013", "8.8.2013", "2013-08-08", "8 Sierpnia 2013r."])
def test_numeric_and_iso_dates(written: str) -> None:
    event = _parse(_set_heading(SAMPLE_TEXT, f"Warszawa, {written}")).events[0]
    assert event.date == dt.date(2013, 8, 8)
    assert event.organiser == "Warszawa"


def test_date_from_the_page_title_when_the_heading_has_none() -> None:
    text = SAMPLE_TEXT.replace(", 8 sierpnia 2013</i>", "</i>")
    result = _parse(text, strict=True)
    assert result.events[0].date == dt.date(2013, 8, 8)
    assert result.events[0].organiser == ""  # the heading line carries no date


def test_the_file_name_dates_a_page_without_a_date_never_the_generation_date() -> None:
    result = _parse(_without_dates(SAMPLE_TEXT), name="W-wb130815.html", strict=True)
    assert result.events[0].date == dt.date(2013, 8, 15)
    assert [(i.level, i.message) for i in result.issues] == [
        ("info", "no event date in the heading or title; dated by the file name: "
                 "value 'W-wb130815.html'")]
    with pytest.raises(MalformedFile, match="generation date is not the event's"):
        _parse(_without_dates(SAMPLE_TEXT), name="W-results.html")


@pytest.mark.parametrize(("name", "expected"), [
    ("W-wb130808.html", dt.date(2013, 8, 8)),
    ("wb20151017.html", dt.date(2015, 10, 17)),
    ("W-zm151017.html", dt.date(2015, 10, 17)),
    ("W-wb131308.html", None),
    ("W-test.html", None),
    ("PCH1003.html", None),
])
def test_dates_in_file_names(name: str, expected: dt.date | None) -> None:
    found = date_from_file_name(f"/inbox/{name}")
    assert (found.date if found else None) == expected


def test_no_date_anywhere_is_malformed() -> None:
    text = _without_dates(SAMPLE_TEXT).replace(", strona wygenerowana 2013-08-08 o 21:37:14", "")
    with pytest.raises(MalformedFile) as caught:
        _parse(text, name="W-nodate.html")
    assert caught.value.file == "W-nodate.html"
    assert "no event date" in str(caught.value)
    assert "W-nodate.html" in str(caught.value)


def test_impossible_date_is_not_a_date() -> None:
    text = _without_dates(SAMPLE_TEXT).replace(", strona wygenerowana 2013-08-08 o 21:37:14", "")
    text = text.replace("Warszawa - Polinezyjska", "Warszawa, 31.02.2013", 1)
    with pytest.raises(MalformedFile):
        _parse(text)


# --- scoring --------------------------------------------------------------------------------


@pytest.mark.parametrize("header", ["+/-", "IMP", "wynik IMP"])
def test_imp_result_column(header: str) -> None:
    text = SAMPLE_TEXT.replace('<td class="c">wynik %</td>', f'<td class="c">{header}</td>')
    text = text.replace("  61.83<", "  +23.5<").replace("  36.67<", "  -31,5<")
    event = _parse(text).events[0]
    assert event.scoring == "IMP"
    assert event.units[0].score == 23.5
    assert event.units[-1].score == -31.5


def test_a_result_column_without_the_scoring_is_read_from_the_scores() -> None:
    text = SAMPLE_TEXT.replace('<td class="c">wynik %</td>', '<td class="c">wynik</td>')
    result = _parse(text, strict=True)  # an info note, not a problem
    assert result.events[0].scoring == "MP"
    assert [i.level for i in result.issues] == ["info"]
    assert "percentages around 50" in result.issues[0].message


@pytest.mark.parametrize(("header", "scores", "words", "expected"), [
    ("wynik %", [61.8, 50.0, 38.2], "", "MP"),
    ("IMP", [12.0, 0.0, -12.0], "", "IMP"),
    ("Butler", [1.2, 0.3, 0.1], "", "IMP"),
    ("WYNIK", [43.33, 41.67, 25.0, -18.67, -67.67, -23.66], "", "IMP"),
    ("wynik", [20.5, 10.0, -30.5], "", "IMP"),
    ("wynik", [12.0, 8.0, 5.0], "Turniej par na IMPy", "IMP"),
    ("wynik", [130.0, 120.0, 95.0], "", "unknown"),
    ("wynik", [130.0, 120.0, 95.0], "Turniej na maksy", "MP"),
])
def test_scoring_from_header_scores_and_words(
    header: str, scores: list[float], words: str, expected: str,
) -> None:
    assert infer_scoring(header, scores, words)[0] == expected


# --- charsets -------------------------------------------------------------------------------


def test_iso_8859_2_without_charset_reads_like_the_utf8_page(sample: ParseResult) -> None:
    data = (FIXTURES / "jfr_pary" / "iso-8859-2-no-charset.html").read_bytes()
    result = jfr_pary.parse(data, source="iso-8859-2-no-charset.html", strict=True)
    assert result.events == sample.events
    assert [(i.level, i.message) for i in result.issues] == [
        ("info", "no charset declared; detected iso8859-2")
    ]


def test_windows_1250_labelled_iso_8859_2_is_detected(sample: ParseResult) -> None:
    text = SAMPLE_TEXT.replace("charset=utf-8", "charset=iso-8859-2")
    result = jfr_pary.parse(text.encode("cp1250"), source="W-x.html")
    assert result.events == sample.events
    assert "does not decode cleanly; detected cp1250" in result.issues[0].message


def test_utf8_labelled_windows_1250_is_read_as_utf8(sample: ParseResult) -> None:
    text = SAMPLE_TEXT.replace("charset=utf-8", "charset=windows-1250")
    result = jfr_pary.parse(text.encode("utf-8"), source="W-x.html")
    assert result.events == sample.events
    assert [i.level for i in result.issues] == ["info"]


def test_declared_windows_1250_is_honoured(sample: ParseResult) -> None:
    text = SAMPLE_TEXT.replace("charset=utf-8", "charset=windows-1250")
    result = jfr_pary.parse(text.encode("cp1250"), source="W-x.html")
    assert result.events == sample.events
    assert result.issues == ()


# --- malformed pages ------------------------------------------------------------------------


def test_invalid_place_names_where() -> None:
    text = _set_place(SAMPLE_TEXT, 3, "trzeci")
    with pytest.raises(MalformedFile) as caught:
        _parse(text)
    error = caught.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "W-test.html", "results", 3, "m-ce", "trzeci",
    )
    assert str(error) == (
        "invalid place: value 'trzeci' (file W-test.html, table results, row 3, column m-ce)"
    )


def test_invalid_score_is_left_empty_leniently() -> None:
    text = SAMPLE_TEXT.replace("  58.48<", "  n/a<", 1)
    result = _parse(text)
    assert result.events[0].units[1].score is None
    assert result.issues[0].message == "invalid result; left empty: value 'n/a'"
    assert result.issues[0].where == "file W-test.html, table results, row 2, column wynik %"
    with pytest.raises(MalformedFile):
        _parse(text, strict=True)


def test_page_without_results_table() -> None:
    text = SAMPLE_TEXT.replace(">m-ce<", ">miejsce?<")
    with pytest.raises(MalformedFile, match="no results table"):
        _parse(text)


def test_invalid_place_in_a_section_names_the_section() -> None:
    text = (FIXTURES / "jfr_pary" / "two-sectors.html").read_text(encoding="utf-8")
    marker = '<b>Sektor B</b>'
    head, tail = text.split(marker)
    tail = tail.replace('<td class="n">&nbsp;</td><td class="c">3</td>',
                        '<td class="n">&nbsp;</td><td class="c">x3</td>', 1)
    with pytest.raises(MalformedFile) as caught:
        _parse(head + marker + tail)
    error = caught.value
    assert (error.table, error.row, error.column, error.value) == ("Sektor B", 3, "m-ce", "x3")


# --- sections -------------------------------------------------------------------------------


def test_two_sectors_in_two_tables() -> None:
    data = (FIXTURES / "jfr_pary" / "two-sectors.html").read_bytes()
    result = jfr_pary.parse(data, source="two-sectors.html", strict=True)
    assert [e.section for e in result.events] == ["Sektor A", "Sektor B"]
    for event in result.events:
        assert event.title == "Turniej Par - Dwa Sektory"
        assert event.date == dt.date(2013, 8, 29)
        assert event.organiser == "Warszawa - Polinezyjska"
        assert event.scoring == "MP"
        assert [u.place for u in event.units] == [1.0, 2.0, 3.0, 4.0, 5.0]
    a, b = result.events
    assert [u.label for u in a.units] == ["13", "23", "16", "21", "20"]
    assert [u.label for u in b.units] == ["8", "22", "9", "12", "4"]
    assert b.units[0].players[0].name == "Jacek Ciechomski"
    assert a.key != b.key
    assert result.issues == ()


def test_ns_and_ew_rankings_in_one_table() -> None:
    data = (FIXTURES / "jfr_pary" / "mitchell-ns-ew-one-table.html").read_bytes()
    result = jfr_pary.parse(data, source="mitchell-ns-ew-one-table.html", strict=True)
    assert [(e.section, e.n_units) for e in result.events] == [
        ("Klasyfikacja NS", 6), ("Klasyfikacja EW", 6),
    ]
    ns, ew = result.events
    assert ns.units[-1].label == "14" and ew.units[0].label == "8"
    assert [u.place for u in ew.units] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    # The EW caption row is not a pair of the NS ranking.
    assert all(len(u.players) == 2 for e in result.events for u in e.units)


def test_uncaptioned_tables_are_sections_by_position() -> None:
    start = SAMPLE_TEXT.index("<table")
    end = SAMPLE_TEXT.index("</table>") + len("</table>")
    text = SAMPLE_TEXT[:end] + SAMPLE_TEXT[start:end] + SAMPLE_TEXT[end:]
    result = _parse(text, strict=True)  # only notes
    assert [(e.section, e.n_units) for e in result.events] == [("1", 23), ("2", 23)]
    assert [(i.level, i.where) for i in result.issues] == [
        ("info", "file W-test.html, table 1"), ("info", "file W-test.html, table 2"),
    ]
    assert "has no section caption" in result.issues[0].message


def test_side_page_of_one_sector_has_its_section() -> None:
    header = '<tr><td class="n">&nbsp;</td><td class="c">m-ce</td>'
    caption = '<tr><td class="n">&nbsp;</td><td class="u" colspan="9">Sektor B</td></tr>'
    event = _parse(SAMPLE_TEXT.replace(header, caption + header, 1), strict=True).events[0]
    assert event.section == "Sektor B"
    assert event.n_units == 23


def test_caption_before_a_table_that_opens_with_its_header() -> None:
    text = (FIXTURES / "jfr_pary" / "two-sectors.html").read_text(encoding="utf-8")
    row = '<tr><td class="n">&nbsp;</td><td class="u" colspan="9"><b>Sektor B</b></td></tr>'
    table = '<table border="0" cellspacing="0">'
    assert text.count(table + row) == 1
    text = text.replace(table + row, "<h3>Linia EW</h3>" + table)
    result = _parse(text, strict=True)
    assert [e.section for e in result.events] == ["Sektor A", "Linia EW"]


def test_repeated_header_without_caption_continues_the_ranking() -> None:
    header_start = SAMPLE_TEXT.index('<tr><td class="n">&nbsp;</td><td class="c">m-ce</td>')
    header = SAMPLE_TEXT[header_start:SAMPLE_TEXT.index("</tr>", header_start) + 5]
    text = _set_place(SAMPLE_TEXT, 12, "12").replace(
        '<tr><td class="n">&nbsp;</td><td class="c">12</td>',
        header + '<tr><td class="n">&nbsp;</td><td class="c">12</td>', 1)
    result = _parse(text, strict=True)
    assert [(e.section, e.n_units) for e in result.events] == [("", 23)]


# --- IMP scoring and phantoms ---------------------------------------------------------------


def test_imp_fixture() -> None:
    data = (FIXTURES / "jfr_pary" / "imp-scoring.html").read_bytes()
    result = jfr_pary.parse(data, source="imp-scoring.html", strict=True)
    event = result.events[0]
    assert (event.scoring, event.title, event.date) == (
        "IMP", "Turniej Par na IMP", dt.date(2013, 8, 15),
    )
    assert [u.score for u in event.units][:2] == [31.4, 18.9]
    assert event.units[-1].score == -29.3
    assert sum(u.score for u in event.units if u.score is not None) == pytest.approx(0.0)
    assert [(u.place, u.place_text) for u in event.units[4:7]] == [
        (5.5, "5"), (5.5, ""), (7.0, "7"),
    ]
    assert result.issues == ()


def test_phantom_partner_is_not_a_player() -> None:
    text = SAMPLE_TEXT.replace(">Waldemar Putz</a>", ">PHANTOM</a>", 1)
    result = _parse(text)
    last = result.events[0].units[-1]
    assert (last.place, last.label) == (23.0, "1")
    assert [p.name for p in last.players] == ["Mariusz Łasiewicki"]
    assert [i.level for i in result.issues] == ["info"]
    assert "phantom" in result.issues[0].message


# --- detection ------------------------------------------------------------------------------


def test_detect_the_sample_and_its_variants() -> None:
    assert jfr_pary.detect(SAMPLE, "W-wb130808.html")
    assert jfr_pary.detect((FIXTURES / "jfr_pary" / "iso-8859-2-no-charset.html").read_bytes())
    # Only the footer says JFR.
    no_meta = SAMPLE_TEXT.replace('<meta name="GENERATOR" content="JFR 2005">', "")
    assert jfr_pary.detect(no_meta.encode("utf-8"))


def test_detect_refuses_csv_and_plain_html() -> None:
    csv = (FIXTURES / "csv_template" / "ties-and-decimal-comma.csv").read_bytes()
    assert not jfr_pary.detect(csv, "ties-and-decimal-comma.csv")
    plain = b"<html><head><title>Wyniki</title></head><body><table><tr><td>m-ce</td>" \
            b"<td>nr</td><td>wynik %</td></tr></table></body></html>"
    assert not jfr_pary.detect(plain, "wyniki.html")
    assert not jfr_pary.detect(b"<html><body><p>Hello</p></body></html>", "index.html")


def test_detect_refuses_kops_and_jfr_teamy_pages() -> None:
    for path in [*(FIXTURES / "kops").glob("*.html"), *(FIXTURES / "jfr_teamy").glob("*.html")]:
        assert not jfr_pary.detect(path.read_bytes(), path.name), path.name
    # A KoPS page keeps being refused when its header uses JFR's "m-ce" / "nr".
    kops = (FIXTURES / "kops" / "PCH1003_wyn.html").read_bytes()
    kops = kops.replace(b">miejsce<", b">m-ce<").replace(b">numer<", b">nr<")
    assert not jfr_pary.detect(kops)
    # A Pary-like page with a team column is a JFR Teamy page.
    teams = SAMPLE_TEXT.replace('<td class="c">&nbsp;</td><td class="c">wk</td>',
                                '<td class="c">drużyna</td><td class="c">wk</td>', 1)
    assert not jfr_pary.detect(teams.encode("utf-8"))
    assert not jfr_pary.detect(teams.encode("iso-8859-2"))


def test_detect_refuses_a_jfr_page_without_the_results_table() -> None:
    # JFR's frame page "WYNIKI" has the generator meta and footer but no ranking.
    frame = SAMPLE_TEXT[: SAMPLE_TEXT.index("<body")] + (
        '<body class="all"><a href="W-wb130808.html">WYNIKI OSTATECZNE</a>'
        '<p class="f">&nbsp;Pary.4.1.0.23&nbsp;</p></body></html>'
    )
    assert jfr_pary.detect(frame.encode("utf-8"))  # claimed, then refused with the reason
    with pytest.raises(ParseError, match="no results table"):
        jfr_pary.parse(frame.encode("utf-8"), source="wb130808WYN.html")


# --- robustness -----------------------------------------------------------------------------

TIES = (FIXTURES / "jfr_pary" / "ties-empty-place.html").read_bytes()
SECTIONS = (FIXTURES / "jfr_pary" / "mitchell-ns-ew-one-table.html").read_bytes()


@given(st.integers(0, len(TIES)), st.integers(0, 200), st.binary(max_size=20))
def test_damaged_pages_fail_only_with_parse_errors(start: int, cut: int, junk: bytes) -> None:
    data = TIES[:start] + junk + TIES[start + cut:]
    try:
        result = jfr_pary.parse(data, source="damaged.html")
    except ParseError as error:
        assert error.file == "damaged.html"
    else:
        assert result.events[0].n_units >= 1


@given(st.integers(0, len(SECTIONS)), st.integers(0, 300), st.binary(max_size=20))
def test_damaged_section_pages_fail_only_with_parse_errors(
    start: int, cut: int, junk: bytes,
) -> None:
    data = SECTIONS[:start] + junk + SECTIONS[start + cut:]
    try:
        result = jfr_pary.parse(data, source="damaged.html")
    except ParseError as error:
        assert error.file == "damaged.html"
    else:
        assert all(event.n_units >= 1 for event in result.events)


@pytest.mark.parametrize(("encoding", "declared"), [
    ("utf-8", "iso-8859-2"),
    ("utf-8", "windows-1250"),
    ("cp1250", "utf-8"),
    ("cp1250", "iso-8859-2"),
    ("iso-8859-2", "utf-8"),
    ("iso-8859-2", "windows-1250"),
])
def test_a_page_that_lies_about_its_charset(
    sample: ParseResult, encoding: str, declared: str,
) -> None:
    """docs/rules/inputs.md: Central European pages come mislabelled; the names must still be right."""
    text = SAMPLE_TEXT.replace("charset=utf-8", f"charset={declared}")
    result = jfr_pary.parse(text.encode(encoding), source="W-lying.html")
    names = [p.name for e in result.events for u in e.units for p in u.players]
    expected = [p.name for e in sample.events for u in e.units for p in u.players]
    assert names == expected
    assert any("ą" in n for n in names)  # the letter on which cp1250 and ISO-8859-2 differ


def test_a_row_shorter_than_the_header_is_reported_and_skipped() -> None:
    rows = re.findall(r'<tr><td class="n">&nbsp;</td><td class="c">\d+</td>.*?</tr>', SAMPLE_TEXT)
    cut = [m.end() for m in re.finditer(r"</td>", rows[3])][2]
    result = _parse(SAMPLE_TEXT.replace(rows[3], rows[3][:cut] + "</tr>", 1))
    units = result.events[0].units
    assert len(units) == len(rows) - 1
    short = [i for i in result.issues if "fewer cells than the header" in i.message]
    assert len(short) == 1
    # the rows are numbered by the data rows before them: three, so this is row 4
    assert short[0].where == "file W-test.html, table results, row 4"
    with pytest.raises(MalformedFile):
        _parse(SAMPLE_TEXT.replace(rows[3], rows[3][:cut] + "</tr>", 1), strict=True)
