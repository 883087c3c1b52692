"""Hand-made HTML result tables: the key facts of each fixture, detection, errors, robustness."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers import FORMATS, MalformedFile, ParseError, ParseResult, detect_format
from parsers import html_tables

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HERE = FIXTURES / "html_tables"
CASES = sorted(HERE.glob("*.html"))


def _parse(name: str, *, strict: bool = False) -> ParseResult:
    return html_tables.parse((HERE / name).read_bytes(), source=f"/inbox/{name}", strict=strict)


def _page(body: str, head: str = '<meta charset="utf-8">') -> bytes:
    return f"<html><head>{head}</head><body>{body}</body></html>".encode("utf-8")


TABLE = ("<table><tr><th>Por.</th><th>Meno</th><th>%</th></tr>"
         "<tr><td>1</td><td>Novák - Kováč</td><td>60</td></tr>"
         "<tr><td>2</td><td>Tóth - Varga</td><td>40</td></tr></table>")


def test_registered_as_fallback() -> None:
    assert FORMATS["html_tables"].fallback is True


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_fixtures_detected_only_as_html_tables(path: Path) -> None:
    data = path.read_bytes()
    assert [f.name for f in FORMATS.values() if f.detect(data, path.name)] == ["html_tables"]
    assert detect_format(data, path.name).name == "html_tables"


def _specific(path: Path) -> bool:
    """A format of its own claims the file: the generic one is never asked (fixtures/real/pending
    holds real result tables no reader reads yet, which a generic one may well claim)."""
    from parsers import FORMATS

    data = path.read_bytes()
    return any(f.detect(data, path.name) for f in FORMATS.values() if not f.fallback)


def test_claims_no_other_fixture() -> None:
    others = [p for p in FIXTURES.rglob("*")
              if p.relative_to(FIXTURES).parts[0] != "field" and p.is_file()
              and HERE not in p.parents and not p.name.endswith(".json")
              and p.suffix not in (".txt", ".md")]
    assert [p.name for p in others if html_tables.detect(p.read_bytes(), p.name)
            and not _specific(p) and p.parent.name not in ("pending", "html_tables")] == []


@pytest.mark.parametrize("marker", [
    '<meta name="GENERATOR" content="JFR 2005">', "<p>KoPS 3.2</p>",
    '<a href="https://www.bridgebase.com/">BBO</a>', "<p>ACBLscore</p>",
    "<p>www.bridgewebs.com</p>", "<table><tr><th>Pair</th><th>MPs</th></tr></table>",
])
def test_scoring_program_pages_are_not_claimed(marker: str) -> None:
    assert html_tables.detect(_page("<p>Turnaj 12.3.2012</p>" + TABLE))
    assert not html_tables.detect(_page(marker + "<p>Turnaj 12.3.2012</p>" + TABLE))


# --- fixtures -------------------------------------------------------------------------------


def test_cp1250_no_charset() -> None:
    result = _parse("cp1250-no-charset.html")
    (event,) = result.events
    assert event.title == "Turnaj párov BK Žilina – Ľubochnianska jar"
    assert event.date == dt.date(2012, 3, 12)
    assert [p.name for p in event.units[0].players] == ["Šťastný Ľubomír", "Žiak Štefan"]
    assert [p.name for p in event.units[2].players] == ["Šoltés Tibor", "Ťapák Ľudovít"]
    assert [u.place for u in event.units] == [1.0, 2.0, 3.5, 3.5, 5.0, 6.0]
    assert result.issues[0].message == "no charset declared; detected cp1250"


def test_two_sections() -> None:
    result = _parse("two-sections-sk.html")
    a, b = result.events
    assert (a.section, b.section) == ("Skupina A", "Skupina B")
    assert a.key[:3] == b.key[:3] == ("BK Žilina", "2013-04-16", "Klubový turnaj párov")
    assert (a.boards, a.scoring, a.kind) == (26, "MP", "pairs")
    assert [len(u.players) for u in a.units] == [3, 2, 2, 2, 2, 2]
    assert [u.place for u in a.units] == [1.0, 2.0, 3.5, 3.5, 5.0, 6.0]
    assert [u.place_text for u in a.units][2:4] == ["3.-4.", "3.-4."]  # one rowspan cell
    assert [u.label for u in b.units] == ["11", "13", "12", "14"]
    assert [(i.message, i.where) for i in result.issues] == [
        ("totals row skipped: value 'Spolu | 936'",
         "file two-sections-sk.html, table table 1, row 9"),
    ]


def test_cz_teams_imp() -> None:
    (event,) = _parse("cz-teams-imp.html").events
    assert (event.kind, event.scoring) == ("teams", "IMP")
    assert (event.title, event.organiser) == ("Pohár družstev 2011 - finále",
                                              "Bridžový svaz Praha")
    assert event.date == dt.date(2011, 10, 3)
    assert [u.label for u in event.units] == ["Slavia A", "Vyšehrad", "Karlín", "Smíchov"]
    assert [len(u.players) for u in event.units] == [4, 4, 6, 4]
    assert [u.score for u in event.units] == [48.0, 17.0, -21.0, -44.0]
    assert event.units[3].players[1].name == "Řezníček Jan"


def test_individual_en() -> None:
    result = _parse("individual-en.html")
    (event,) = result.events
    assert (event.kind, event.scoring) == ("individual", "MP")
    assert (event.title, event.organiser) == ("Budapest Open Individual", "Budapest Bridge Club")
    assert event.date == dt.date(2013, 8, 8)
    assert [u.place for u in event.units][2:4] == [3.5, 3.5]
    assert event.units[0].players[0].name == "Szőke Zoltán"
    assert event.units[0].players[0].club == "BBC Budapest"
    assert event.units[-1].players == () and event.units[-1].place == 8.0
    assert result.issues[0].level == "info"


# --- errors ---------------------------------------------------------------------------------


def test_date_from_the_page_title() -> None:
    data = _page(TABLE, '<meta charset="utf-8"><title>Turnaj 5. mája 2013</title>')
    assert html_tables.parse(data, source="t.html").events[0].date == dt.date(2013, 5, 5)


def test_no_date_is_malformed() -> None:
    with pytest.raises(MalformedFile, match="no event date") as caught:
        html_tables.parse(_page("<h1>Turnaj</h1>" + TABLE), source="/x/turnaj.html")
    assert caught.value.file == "turnaj.html"


def test_no_results_table() -> None:
    with pytest.raises(MalformedFile, match="no results table"):
        html_tables.parse(_page("<table><tr><td>a</td><td>b</td></tr></table>"), source="x.html")


def test_invalid_place_names_table_row_column_and_value() -> None:
    body = "<p>12.3.2012</p>" + TABLE + TABLE.replace("<td>2</td>", "<td>x</td>")
    with pytest.raises(MalformedFile) as caught:
        html_tables.parse(_page(body), source="t.html")
    error = caught.value
    assert (error.file, error.table, error.row, error.column, error.value) == \
        ("t.html", "table 2", 3, "Por.", "x")


def test_places_contradicting_scores_raise_in_strict_mode() -> None:
    body = "<p>12.3.2012</p>" + TABLE.replace("<td>60</td>", "<td>30</td>")
    result = html_tables.parse(_page(body), source="t.html")
    assert [i.where for i in result.issues if i.level == "warning"] == [
        "file t.html, table table 1, row 3, column %",
    ]
    with pytest.raises(ParseError):
        html_tables.parse(_page(body), source="t.html", strict=True)


# --- robustness -----------------------------------------------------------------------------

_SAMPLES = [p.read_bytes() for p in CASES]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_SAMPLES), st.integers(min_value=0), st.integers(0, 255),
       st.booleans())
def test_damaged_pages_only_raise_parse_errors(data: bytes, position: int, byte: int,
                                               truncate: bool) -> None:
    index = position % len(data)
    damaged = data[:index] if truncate else data[:index] + bytes([byte]) + data[index + 1:]
    try:
        html_tables.parse(damaged, source="damaged")
    except ParseError:
        pass
    html_tables.detect(damaged, "damaged")


# --- evidence and programs ------------------------------------------------------------------


def test_a_page_without_a_ranking_says_what_each_table_lacks() -> None:
    seating = ("<table><tr><th>Stôl</th><th>Pár</th><th>Mená</th></tr>"
               "<tr><td>1</td><td>3</td><td>Novák - Kováč</td></tr>"
               "<tr><td>2</td><td>4</td><td>Tóth - Varga</td></tr></table>")
    traveller = ("<table><tr><th>NS</th><th>EW</th><th>Contract</th><th>Score</th></tr>"
                 "<tr><td>1</td><td>2</td><td>3NT</td><td>400</td></tr>"
                 "<tr><td>3</td><td>4</td><td>4S</td><td>420</td></tr></table>")
    with pytest.raises(MalformedFile) as caught:
        html_tables.parse(_page("<p>12.3.2012</p>" + seating + traveller), source="/x/s.html")
    assert caught.value.file == "s.html"
    assert caught.value.problem == (
        "no results table: table 1 has a names column but no place or score column; table 2 "
        "is one board's play: a traveller, score card or hand record (a 'contract' column), not "
        "a ranking")


def test_rows_of_another_table_never_join_the_results() -> None:
    calendar = ("<table><tr><td>19.3.2012</td><td>18:00</td><td>Klubový turnaj</td></tr>"
                "<tr><td>26.3.2012</td><td>18:00</td><td>Memoriál</td></tr></table>")
    (event,) = html_tables.parse(_page("<p>12.3.2012</p>" + TABLE + calendar),
                                 source="t.html").events
    assert [p.name for u in event.units for p in u.players] == ["Novák", "Kováč", "Tóth",
                                                                  "Varga"]


def test_a_programs_page_is_refused_even_when_its_table_reads() -> None:
    body = "<p>Turnaj 12.3.2012</p>" + TABLE
    assert html_tables.parse(_page(body), source="t.html").events
    for mark in ("<p>Results by Pianola</p>", "<p>EBUScore Pairs</p>",
                 "<p>Scored on RealBridge</p>", "<p>Compscore</p>", "<p>Bridgemate</p>"):
        with pytest.raises(ParseError, match="a page written by"):
            html_tables.parse(_page(body + mark), source="t.html")


def test_a_club_page_that_only_mentions_an_online_platform_still_reads() -> None:
    body = ("<p>Turnaj 12.3.2012</p>" + TABLE
            + "<p>Every Thursday we play online on RealBridge "
              "(<a href='https://realbridge.online'>realbridge.online</a>).</p>")
    assert html_tables.detect(_page(body), "t.html")
    assert html_tables.parse(_page(body), source="t.html").events


def test_a_ranking_split_over_two_tables_with_the_same_header_is_one_section() -> None:
    second = TABLE.replace("<td>1</td>", "<td>3</td>").replace("<td>2</td>", "<td>4</td>") \
        .replace("60", "30").replace("40", "20").replace("Novák - Kováč", "Malý - Velký") \
        .replace("Tóth - Varga", "Kiss - Nagy")
    (event,) = html_tables.parse(_page("<p>12.3.2012</p>" + TABLE + second),
                                 source="t.html").events
    assert [u.place for u in event.units] == [1.0, 2.0, 3.0, 4.0]
