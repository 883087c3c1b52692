"""The league file (docs/league-template.md): docs/rules/bridge-belo.md §7 facts, containers, errors."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import Counter
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers import (
    FORMATS,
    InconsistentResult,
    MalformedFile,
    ParseError,
    ParseResult,
    detect_format,
)
from parsers import league

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


DRR_PATH = FIXTURES / "league" / "double-round-robin-4-teams.csv"
DRR = DRR_PATH.read_bytes()
XLSX = (FIXTURES / "league" / "draw-and-lineups.xlsx").read_bytes()
CP1250 = (FIXTURES / "league" / "cp1250-semicolon-imps-only.csv").read_bytes()

HEADER = "#LEAGUE\nleague,Liga\nvp_scale,20\n"
TEAMS = "#TEAMS\nteam,player\n" + "".join(
    f"{team},{team} {i}\n" for team in ("A", "B", "C") for i in range(1, 5)
)
MATCH_HEADER = "#MATCHES\nround,date,home,away,imp_home,imp_away,vp_home,vp_away\n"
# Line numbers: #LEAGUE 1-3, #TEAMS 4-5, 12 roster lines 6-17, #MATCHES 18-19, matches from 20.
FIRST_MATCH_LINE = 20


def _league(*matches: str, header: str = HEADER, teams: str = TEAMS,
            match_header: str = MATCH_HEADER) -> bytes:
    return (header + teams + match_header + "".join(m + "\n" for m in matches)).encode("utf-8")


def _parse(data: bytes, *, strict: bool = False) -> ParseResult:
    return league.parse(data, source="/inbox/liga.csv", strict=strict)


def _matches(result: ParseResult) -> list[league.Event]:
    return [e for e in result.events if e.round is not None]


# --- docs/rules/bridge-belo.md §7: 4 teams, double round robin ------------------------------------


@pytest.fixture(scope="module")
def drr() -> ParseResult:
    return league.parse(DRR, source=str(DRR_PATH), strict=True)


def test_double_round_robin_gives_12_matches_and_one_standings_event(drr: ParseResult) -> None:
    assert drr.format == "league"
    assert len(drr.events) == 13
    assert len(_matches(drr)) == 12
    standings = drr.events[-1]
    assert standings.round is None
    assert standings.title == "2. liga 2013/2014 final standings"
    assert drr.issues == ()


def test_each_team_plays_six_matches_of_two_units(drr: ParseResult) -> None:
    appearances = Counter(u.label for e in _matches(drr) for u in e.units)
    assert appearances == {
        "BK Senec": 6, "BK Danubius Bratislava": 6, "BC Trnava": 6, "BK Žilina": 6,
    }
    for event in _matches(drr):
        assert event.n_units == 2
        assert sorted(u.place for u in event.units if u.place is not None) in (
            [1.0, 2.0], [1.5, 1.5],
        )


def test_match_event_fields(drr: ParseResult) -> None:
    first = drr.events[0]
    assert first.format == "league"
    assert first.game == "bridge"
    assert first.kind == "teams"
    assert first.scoring == "VP"
    assert first.title == "2. liga 2013/2014 round 1: BK Senec \u2013 BK Danubius Bratislava"
    assert first.parent == "2. liga 2013/2014"
    assert first.round == 1
    assert first.date == dt.date(2013, 10, 5)
    assert first.section == "skupina Západ"
    assert first.organiser == "Slovenská bridžová únia"
    assert first.boards == 16
    winner, loser = first.units
    assert (winner.label, winner.place, winner.place_text, winner.score) == (
        "BK Senec", 1.0, "1", 14.0)
    assert (loser.label, loser.place, loser.place_text, loser.score) == (
        "BK Danubius Bratislava", 2.0, "2", 6.0)
    # The match unit carries the team's whole roster (no lineup given).
    assert [p.name for p in winner.players] == [
        "Ján Novák", "Peter Kováč", "Mária Horváthová", "Ľubomír Šťastný"]
    assert winner.players[0].federation_id == "SK1021"
    assert winner.players[0].club == "BK Senec"
    assert loser.players[-1].federation_id is None  # Andrea Mináriková: no id written


def test_away_winner_is_listed_first(drr: ParseResult) -> None:
    event = drr.events[4]
    assert event.title.endswith("round 3: BK Senec \u2013 BK Žilina")
    assert [(u.label, u.place, u.score) for u in event.units] == [
        ("BK Žilina", 1.0, 13.0), ("BK Senec", 2.0, 7.0)]


def test_a_draw_gives_one_and_a_half_each(drr: ParseResult) -> None:
    draw = drr.events[1]
    assert draw.title.endswith("round 1: BC Trnava \u2013 BK Žilina")
    assert [(u.label, u.place, u.place_text, u.score) for u in draw.units] == [
        ("BC Trnava", 1.5, "1-2", 10.0), ("BK Žilina", 1.5, "1-2", 10.0)]


def test_standings_order_totals_and_tie_averaging(drr: ParseResult) -> None:
    standings = drr.events[-1]
    assert standings.kind == "teams"
    assert standings.scoring == "VP"
    assert standings.parent == "2. liga 2013/2014"
    assert standings.date == dt.date(2013, 12, 7)  # the last match date
    assert [(u.label, u.place, u.place_text, u.score) for u in standings.units] == [
        ("BK Senec", 1.0, "1", 71.0),
        ("BK Danubius Bratislava", 2.0, "2", 67.0),
        ("BC Trnava", 3.5, "3-4", 51.0),
        ("BK Žilina", 3.5, "3-4", 51.0),
    ]
    assert sum(u.score or 0 for u in standings.units) == 12 * 20
    assert len(standings.units[3].players) == 6


def test_event_keys_are_unique(drr: ParseResult) -> None:
    assert len({e.key for e in drr.events}) == 13


def test_registry_picks_league() -> None:
    assert detect_format(DRR, "liga.csv") is FORMATS["league"]
    assert detect_format(XLSX, "liga.xlsx") is FORMATS["league"]
    assert detect_format(CP1250, "liga.csv") is FORMATS["league"]


# --- the xlsx variant -----------------------------------------------------------------------


def _csv_blocks(data: bytes) -> dict[str, list[list[str]]]:
    blocks: dict[str, list[list[str]]] = {}
    current = ""
    for cells in csv.reader(io.StringIO(data.decode("utf-8"))):
        if not any(cells):
            continue
        if cells[0].startswith("#"):
            current = cells[0][1:].lower()
            blocks[current] = []
        else:
            blocks[current].append(cells)
    return blocks


def _as_xlsx(data: bytes) -> bytes:
    """The CSV league file as a workbook with the sheets league, teams, matches."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    wb.remove(first)
    for name, rows in _csv_blocks(data).items():
        sheet = wb.create_sheet(name)
        for row in rows:
            sheet.append([int(c) if c.isdigit() and name == "matches" else c for c in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_xlsx_with_the_same_content_gives_the_same_events(drr: ParseResult) -> None:
    from_xlsx = league.parse(_as_xlsx(DRR), source="liga.xlsx", strict=True)
    assert from_xlsx.events == drr.events
    assert from_xlsx.issues == ()


def test_xlsx_fixture_lineups_dates_and_decimal_vps() -> None:
    result = league.parse(XLSX, source="draw-and-lineups.xlsx", strict=True)
    assert len(result.events) == 7
    first = result.events[0]
    assert first.date == dt.date(2014, 3, 15)  # a date cell
    assert [(u.label, u.score) for u in first.units] == [("BK Brno", 14.52), ("BK Olomouc", 5.48)]
    # lineup_home "Jan Dvořák; Petra Nováková; ..." instead of the roster of five:
    assert [p.name for p in first.units[0].players] == [
        "Jan Dvořák", "Petra Nováková", "Jiří Černý", "Zdeněk Procházka"]
    assert first.units[0].players[0].federation_id == "20311"  # a number cell, as text
    assert len(first.units[1].players) == 4  # no lineup: the roster
    draw = result.events[1]
    assert [(u.place, u.score, len(u.players)) for u in draw.units] == [
        (1.5, 10.0, 6), (1.5, 10.0, 4)]
    # Lineups keep their own order and take ids and clubs from the roster.
    last_but_one = result.events[4]
    assert [p.name for p in last_but_one.units[1].players][0] == "Hana Kučerová"
    standings = result.events[-1]
    assert [(u.label, u.place, u.score) for u in standings.units] == [
        ("BK Brno", 1.0, 40.18), ("BC Zlín", 2.0, 32.8),
        ("Lokomotiva Ostrava", 3.0, 30.18), ("BK Olomouc", 4.0, 16.84)]
    assert len(standings.units[2].players) == 8


def test_xlsx_formula_without_a_saved_value_is_refused() -> None:
    wb = openpyxl.load_workbook(io.BytesIO(XLSX))
    wb["matches"]["H2"] = "=20-G2"
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(MalformedFile) as info:
        league.parse(out.getvalue(), source="f.xlsx")
    assert (info.value.table, info.value.row, info.value.column, info.value.value) == (
        "matches", 2, "H", "=20-G2")


def test_xlsx_without_the_league_sheet() -> None:
    wb = openpyxl.load_workbook(io.BytesIO(XLSX))
    del wb["league"]
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(MalformedFile, match="no league block") as info:
        league.parse(out.getvalue(), source="f.xlsx")
    assert info.value.table == "league"


# --- windows-1250, semicolons, league date, IMPs only, byes ---------------------------------


def test_cp1250_semicolons_league_date_and_imps_only() -> None:
    result = league.parse(CP1250, source="cp1250-semicolon-imps-only.csv", strict=True)
    matches = _matches(result)
    assert len(matches) == 3  # the three "voľno" rows are byes
    assert {e.date for e in result.events} == {dt.date(2014, 4, 12)}  # "12. apríla 2014"
    assert all(e.scoring == "IMP" for e in matches)
    assert [(u.label, u.place, u.score) for u in matches[0].units] == [
        ("BK Pezinok", 1.0, 47.0), ("Klub Modrá", 2.0, 22.0)]
    # Empty team cells continue the team above.
    assert [p.name for p in matches[0].units[0].players] == [
        "Ľudovít Ďuriš", "Ružena Šebová", "Tibor Čarnogurský", "Ján Žiak"]
    standings = result.events[-1]
    assert standings.scoring == "unknown"
    assert [(u.label, u.place, u.score) for u in standings.units] == [
        ("BK Pezinok", 1.0, 3.0), ("Klub Modrá", 2.0, 2.0), ("BC Nitra", 3.0, 1.0)]
    messages = [i.message for i in result.issues]
    assert messages[0] == "file is not UTF-8; read as cp1250"
    assert sum(m.startswith("bye skipped") for m in messages) == 3


def test_match_points_standings_average_ties() -> None:
    data = _league(
        "1,2014-01-01,A,B,40,20,,", "2,2014-01-02,B,C,40,20,,", "3,2014-01-03,C,A,40,20,,",
        match_header="#MATCHES\nround,date,home,away,imp_home,imp_away\n",
    )
    standings = _parse(data).events[-1]
    assert [(u.place, u.place_text, u.score) for u in standings.units] == [
        (2.0, "1-3", 2.0)] * 3


# --- errors name table, row, column and value -----------------------------------------------


def test_team_without_a_roster_names_the_row() -> None:
    data = _league("1,2014-01-01,A,B,40,20,15,5", "1,2014-01-01,C,Dukla,30,30,10,10")
    with pytest.raises(MalformedFile, match="team without a roster") as info:
        _parse(data)
    error = info.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "liga.csv", "matches", FIRST_MATCH_LINE + 1, "away", "Dukla")


def test_vps_not_adding_up_to_the_declared_scale() -> None:
    data = _league("1,2014-01-01,A,B,40,20,15,6")
    with pytest.raises(InconsistentResult, match="add up to 21") as info:
        _parse(data)
    assert (info.value.table, info.value.row, info.value.column) == (
        "matches", FIRST_MATCH_LINE, "vp_away")
    # Within 0.01 is fine; without a declared scale nothing is checked.
    assert _parse(_league("1,2014-01-01,A,B,40,20,14.995,5.0")).events[0].units[0].score == 14.995
    no_scale = _league("1,2014-01-01,A,B,40,20,15,6", "2,2014-01-02,C,A,40,20,12,9",
                       header="#LEAGUE\nleague,Liga\n")
    assert _parse(no_scale, strict=True).events[0].scoring == "VP"


def test_a_team_meeting_itself() -> None:
    with pytest.raises(InconsistentResult, match="meets itself") as info:
        _parse(_league("1,2014-01-01,A,a,40,20,15,5"))
    assert (info.value.row, info.value.column, info.value.value) == (FIRST_MATCH_LINE, "away", "a")


@pytest.mark.parametrize("second", ["1,2014-01-01,A,B,30,20,12,8", "1,2014-01-01,B,A,30,20,12,8"])
def test_duplicate_match_in_a_round(second: str) -> None:
    expected = r"same match twice in round 1 \(first in row 20\)"
    with pytest.raises(InconsistentResult, match=expected):
        _parse(_league("1,2014-01-01,A,B,40,20,15,5", second))
    # The same teams in another round are a return match, not a duplicate.
    ok = _parse(_league("1,2014-01-01,A,B,40,20,15,5", "2,2014-01-02,B,A,30,20,12,8"))
    assert len(_matches(ok)) == 2


def test_no_date_anywhere_is_malformed() -> None:
    with pytest.raises(MalformedFile, match="match without a date") as info:
        _parse(_league("1,,A,B,40,20,15,5"))
    assert (info.value.row, info.value.column) == (FIRST_MATCH_LINE, "date")
    dated = _parse(_league("1,,A,B,40,20,15,5", header=HEADER + "date,3.2.2014\n"))
    assert dated.events[0].date == dt.date(2014, 2, 3)


@pytest.mark.parametrize(("row", "message", "column", "value"), [
    ("0,2014-01-01,A,B,40,20,15,5", "invalid round", "round", "0"),
    ("x,2014-01-01,A,B,40,20,15,5", "invalid round", "round", "x"),
    ("1,31.2.2014,A,B,40,20,15,5", "invalid date", "date", "31.2.2014"),
    ("1,2014-01-01,A,B,40,20,15,abc", "invalid vp away", "vp_away", "abc"),
    ("1,2014-01-01,A,B,40,,15,5", "IMPs given for one team only", "imp_away", ""),
    ("1,2014-01-01,A,B,,,,", "match without a result", "vp_home", ""),
    ("1,2014-01-01,,B,40,20,15,5", "empty home", "home", ""),
])
def test_bad_match_cells(row: str, message: str, column: str, value: str) -> None:
    with pytest.raises(MalformedFile, match=message) as info:
        _parse(_league(row))
    assert (info.value.table, info.value.row, info.value.column, info.value.value) == (
        "matches", FIRST_MATCH_LINE, column, value)


def test_vps_on_some_matches_only() -> None:
    with pytest.raises(MalformedFile, match="without VPs while other matches have them") as info:
        _parse(_league("1,2014-01-01,A,B,40,20,15,5", "1,2014-01-01,C,A,40,20,,"))
    assert (info.value.row, info.value.column) == (FIRST_MATCH_LINE + 1, "vp_home")


@pytest.mark.parametrize(("data", "message"), [
    (b"#LEAGUE\nleague,X\n#TEAMS\nteam,player\nA,a\n", "no matches block"),
    (b"#LEAGUE\nleague,X\n#MATCHES\nround,home,away,vp_home,vp_away\n", "no teams block"),
    (b"#TEAMS\nteam,player\nA,a\n#MATCHES\nround,home,away,vp_home,vp_away\n1,A,A,1,1\n",
     "no league block"),
    (b"#LEAGUE\norganiser,X\n#TEAMS\nteam,player\nA,a\n#MATCHES\nround,home\n",
     "no league name"),
    (b"#LEAGUE\nleague,X\n#RESULTS\n", "unknown block marker"),
    (b"#LEAGUE\nleague,X\n#LEAGUE\n", "block appears twice"),
    (b"#LEAGUE\nleague,X\nvp_scale,zero\n", "invalid vp_scale"),
])
def test_structure_errors(data: bytes, message: str) -> None:
    with pytest.raises(MalformedFile, match=message):
        _parse(data)


def test_matches_header_needs_a_result_pair() -> None:
    with pytest.raises(MalformedFile, match="needs imp_home, imp_away or vp_home, vp_away"):
        _parse(_league(match_header="#MATCHES\nround,date,home,away\n"))
    with pytest.raises(MalformedFile, match="vp_home without its partner") as info:
        _parse(_league(match_header="#MATCHES\nround,date,home,away,vp_home\n"))
    assert info.value.row == FIRST_MATCH_LINE - 1


# --- warnings: lenient issues, raised in strict mode ----------------------------------------


def test_lineup_names_match_the_roster_and_strangers_are_kept_with_a_warning() -> None:
    data = _league(
        '1,2014-01-01,A,B,40,20,15,5,"a 1; A 2;A 3;Substitute Sub",',
        "2,2014-01-02,C,A,40,20,15,5,,",
        match_header="#MATCHES\nround,date,home,away,imp_home,imp_away,vp_home,vp_away,"
                     "lineup_home,lineup_away\n",
    )
    result = _parse(data)
    winner = result.events[0].units[0]
    assert [p.name for p in winner.players] == ["A 1", "A 2", "A 3", "Substitute Sub"]
    assert len(result.events[0].units[1].players) == 4  # empty lineup: the roster
    assert [(i.level, i.where) for i in result.issues] == [
        ("warning", f"file liga.csv, table matches, row {FIRST_MATCH_LINE}, column lineup_home")]
    assert "not on the roster of 'A'" in result.issues[0].message
    with pytest.raises(MalformedFile, match="not on the roster"):
        _parse(data, strict=True)


def test_imp_and_vp_winners_disagree() -> None:
    data = _league("1,2014-01-01,A,B,20,40,15,5")
    assert "name different winners" in _parse(data).issues[0].message
    with pytest.raises(InconsistentResult):
        _parse(data, strict=True)
    # A small IMP win scored 10:10 (discrete 20-VP scale) is not a contradiction.
    small = _parse(_league("1,2014-01-01,A,B,41,40,10,10", "2,2014-01-02,C,A,40,20,15,5"),
                   strict=True)
    assert [u.place for u in small.events[0].units] == [1.5, 1.5]


def test_roster_size_and_idle_team_warnings() -> None:
    teams = TEAMS + "D,D 1\n"
    result = _parse(_league("1,2014-01-01,A,B,40,20,15,5", teams=teams))
    messages = [i.message for i in result.issues]
    assert "team 'D' has 1 player(s), expected 4-8" in messages
    assert any("plays no match" in m for m in messages)
    assert [u.label for u in result.events[-1].units] == ["A", "B"]


def test_unknown_column_and_key_are_warnings() -> None:
    data = _league("1,2014-01-01,A,B,40,20,15,5", header=HEADER + "referee,Novák\n")
    assert "unknown league key ignored" in _parse(data).issues[0].message
    with pytest.raises(MalformedFile):
        _parse(data, strict=True)


# --- detection ------------------------------------------------------------------------------


def test_detect_claims_only_league_files() -> None:
    assert league.detect(DRR) and league.detect(XLSX) and league.detect(CP1250)
    others = [p for p in _fixture_files() if p.is_file() and p.parent.name != "league"
              and not p.name.endswith(".json")]
    assert others
    for path in others:
        assert not league.detect(path.read_bytes(), path.name), path
    for name, fmt in FORMATS.items():
        if name != "league" and not fmt.fallback:  # fallbacks are asked only when none answers
            for data in (DRR, XLSX, CP1250):
                assert not fmt.detect(data, "liga.csv"), name
    assert not league.detect(b"PK\x03\x04not a zip")
    assert not league.detect(b"")


# --- robustness -----------------------------------------------------------------------------


@given(st.integers(0, len(DRR)), st.integers(0, 200), st.binary(max_size=20))
def test_damaged_csv_fails_only_with_parse_errors(start: int, cut: int, junk: bytes) -> None:
    data = DRR[:start] + junk + DRR[start + cut:]
    try:
        result = league.parse(data, source="damaged.csv")
    except ParseError as error:
        assert error.file == "damaged.csv"
    else:
        assert result.events[-1].title.endswith("final standings")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(XLSX) - 1), st.integers(0, 255), st.integers(0, 2000))
def test_damaged_xlsx_fails_only_with_parse_errors(at: int, byte: int, cut: int) -> None:
    flipped = XLSX[:at] + bytes([byte]) + XLSX[at + 1:]
    for data in (flipped, XLSX[: len(XLSX) - cut]):
        try:
            league.parse(data, source="damaged.xlsx")
        except ParseError as error:
            assert error.file == "damaged.xlsx"
