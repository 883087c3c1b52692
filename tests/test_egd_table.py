"""The EGD tournament table (.h/.h9): key facts of the fixtures, the result grammar, errors."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from parsers import FORMATS, InconsistentResult, MalformedFile, ParseError, ParseResult
from parsers.egd_table import detect, parse, parse_result_token

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egd_table"
REAL = FIXTURES / "real-opengotha-export-unplayed-rounds.h9"
HANDICAP = FIXTURES / "handicap-jigo-forfeit-pins-no-slash.h"
INCONSISTENT = FIXTURES / "inconsistent-halves-no-colours.h"


def _parse(path: Path, strict: bool = False) -> ParseResult:
    return parse(path.read_bytes(), source=str(path), strict=strict)


@pytest.mark.parametrize(("token", "expected"), [
    ("12+/w3", (12, "+", "white", 3, False)),
    ("5-/b", (5, "-", "black", 0, False)),
    ("7=", (7, "=", None, None, False)),
    ("12+w3", (12, "+", "white", 3, False)),
    ("3+!w0", (3, "+", "white", 0, True)),
    ("3+/b0!", (3, "+", "black", 0, True)),
    ("12?/b0", (12, "?", "black", 0, False)),
    ("2+/?0", (2, "+", None, 0, False)),
    ("0-", (0, "-", None, None, False)),
    ("0=", (0, "=", None, None, False)),
    ("-", (0, "-", None, None, False)),
])
def test_result_tokens(token: str, expected: tuple[object, ...]) -> None:
    assert parse_result_token(token) == expected


@pytest.mark.parametrize("token", ["12", "abc", "12+/x3", "+", "12+/w3x", "1231"])
def test_not_result_tokens(token: str) -> None:
    assert parse_result_token(token) is None


def test_real_export_games_and_unplayed_rounds() -> None:
    result = _parse(REAL)
    assert result.format == "egd_table"
    # 62 game halves in rounds 1-4 of 22 players; rounds 5-20 are all "0-"
    assert len(result.events) == 31
    assert [sum(e.round == r for e in result.events) for r in (1, 2, 3, 4)] == [9, 9, 7, 6]
    first = result.events[0]
    assert first.title == ("Test Participation et Licence FFG round 1: "
                           "Chauvin Robin \u2013 Duchaufour Quentin")
    assert first.parent == "Test Participation et Licence FFG"
    assert first.organiser == "Lyon"  # PC[,Lyon]: no country
    assert first.date == dt.date(2017, 2, 11)
    assert first.end_date == dt.date(2017, 2, 12)
    assert (first.game, first.kind, first.scoring) == ("go", "individual", "unknown")
    assert (first.handicap, first.komi, first.round) == (0, 7.5, 1)
    black, white = first.units
    assert (black.colour, black.place, black.label, black.place_text) == ("black", 1.0, "1",
                                                                          "3+/b0")
    assert (white.colour, white.place, white.label) == ("white", 2.0, "3")
    assert black.players[0].club == "69Ly"
    names = {p.name for e in result.events for u in e.units for p in u.players}
    assert "de Butler Tristan" in names and "Rousseau Jérémy" in names
    infos = [i for i in result.issues if i.level == "info"]
    assert infos[0].message == "round(s) 5-20: no games (not played); no events"
    byes = [i for i in infos if "has no game" in i.message]
    assert len(byes) == 26
    assert byes[0].where.endswith("row 15, column round 1")
    assert not [i for i in result.issues if i.level != "info"]


def test_real_export_agrees_with_the_same_tournament_saved_by_opengotha() -> None:
    """The .h9 and the OpenGotha file of one tournament give the same games."""
    xml = Path(__file__).resolve().parent.parent / "fixtures" / "opengotha"
    saved = FORMATS["opengotha"].parse(
        (xml / "real-opengotha-4-rounds-missing-table.xml").read_bytes())

    def games(result: ParseResult) -> set[tuple[object, ...]]:
        return {
            (e.round, e.handicap,
             tuple((u.players[0].name.replace("_", " "), u.colour, u.place) for u in e.units))
            for e in result.events
        }

    assert games(_parse(REAL)) == games(saved)


def test_handicap_jigo_forfeit_and_pins() -> None:
    result = _parse(HANDICAP)
    assert len(result.events) == 6  # 9 pairings: 1 forfeit, the rest byes or absences
    handicap = next(e for e in result.events if e.round == 3 and e.handicap == 2)
    black, white = sorted(handicap.units, key=lambda u: u.colour or "")
    assert (black.players[0].name, black.colour, black.place) == ("Dvorak Karel", "black", 2.0)
    assert (white.players[0].name, white.colour, white.place) == ("Novak Jan", "white", 1.0)
    assert white.place_text == "3+w2" and black.place_text == "1-b2"
    assert handicap.komi is None  # KM is the komi of even games
    assert handicap.section == "Dvorak Karel \u2013 Novak Jan"
    jigo = next(e for e in result.events if e.round == 2)
    assert [u.place for u in jigo.units] == [1.5, 1.5]
    assert [u.score for u in jigo.units] == [0.5, 0.5]
    assert (jigo.handicap, jigo.komi) == (0, 6.5)
    players = {p.name: p for e in result.events for u in e.units for p in u.players}
    assert players["Novak Jan"].federation_id == "13500001"
    assert players["Cerny Tomas"].federation_id is None  # no "|pin" on its line
    assert players["Dvorak Karel"].club == "Bra"
    forfeit = [i for i in result.issues if "by default" in i.message]
    assert len(forfeit) == 1 and forfeit[0].where.endswith("row 14, column round 2")
    assert sum("has no game" in i.message for i in result.issues) == 4


def test_inconsistent_halves_are_refused_with_their_location() -> None:
    result = _parse(INCONSISTENT)
    assert len(result.events) == 5  # 6 pairings, the round-3 pair 1-4 refused
    assert not [e for e in result.events if e.round == 3 and e.units[0].label in ("1", "4")]
    (warning,) = [i for i in result.issues if i.level == "warning"]
    assert warning.message == ("round 3: players 1 and 4 both report '+'/'+'; expected "
                               "opposite results; game skipped: value '4+'")
    assert warning.where == "file inconsistent-halves-no-colours.h, row 8, column round 3"
    assert all(u.colour is None for e in result.events for u in e.units)
    assert all(e.handicap is None and e.komi is None for e in result.events)
    with pytest.raises(InconsistentResult) as raised:
        _parse(INCONSISTENT, strict=True)
    error = raised.value
    assert (error.file, error.row, error.column, error.value) == (
        "inconsistent-halves-no-colours.h", 8, "round 3", "4+")


def test_no_date_is_refused() -> None:
    data = INCONSISTENT.read_bytes().replace(b"; DT[2019-11-09]\n", b"")
    with pytest.raises(MalformedFile, match="no tournament date"):
        parse(data, source="x.h")


def test_detect_wants_header_tags_and_result_lines() -> None:
    assert detect(REAL.read_bytes())
    assert not detect(b"event,date,kind\nA,2013-01-01,pairs\n")
    assert not detect(b"; EV[x]\n; DT[2020-01-01]\n")
    assert not detect(b"(;FF[4]GM[1]EV[x]DT[2020-01-01];B[aa])")


@pytest.mark.parametrize("path", [REAL, HANDICAP, INCONSISTENT], ids=lambda p: p.name)
def test_damaged_files_raise_only_parse_errors(path: Path) -> None:
    rng = random.Random(7)
    data = path.read_bytes()
    for _ in range(60):
        damaged = bytearray(data[: rng.randrange(1, len(data) + 1)])
        for _ in range(rng.randint(0, 8)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        try:
            parse(bytes(damaged), source=path.name)
        except ParseError:
            pass


_TABLE = (
    "; CL[B]\n; EV[Club Cup]\n; PC[CZ, Brno]\n; DT[{dt}]\n; KM[6.5]\n"
    "; Pl Name Rk Co Club\n"
    "{lines}"
)


def _table(lines: str, dt_text: str = "2017-02-11,2017-02-12") -> bytes:
    return _TABLE.format(dt=dt_text, lines=lines).encode()


def test_tab_separated_lines_underscores_and_unknown_results() -> None:
    data = _table(
        "1\tvan_der_Berg\tJan\t3d\tNL\tAmst\t2\t2+/w0\t3+/b0\t?\n"
        "2\tNovak\tPetr\t1d\tCZ\tBrno\t1\t1-/b0\t0-\t3?/w0\n"
        "3\tKral\tIvo\t2k\tCZ\tBrno\t0\t0-\t1-/w0\t2?/b0\n"
    )
    assert detect(data)
    result = parse(data, source="tabs.h")
    names = {p.name for e in result.events for u in e.units for p in u.players}
    assert names == {"van der Berg Jan", "Novak Petr", "Kral Ivo"}
    assert [e.round for e in result.events] == [1, 2]
    assert result.events[0].units[0].players[0].club == "Amst"
    assert any("not known yet" in i.message for i in result.issues)


@pytest.mark.parametrize(("written", "start", "end"), [
    ("2017-02-11,2017-02-12", dt.date(2017, 2, 11), dt.date(2017, 2, 12)),
    ("2017-02-11,12", dt.date(2017, 2, 11), dt.date(2017, 2, 12)),
    ("2017-02-28,03-01", dt.date(2017, 2, 28), dt.date(2017, 3, 1)),
    ("2016-12-30,31,2017-01-01", dt.date(2016, 12, 30), dt.date(2017, 1, 1)),
    ("2017-02-11..2017-02-12", dt.date(2017, 2, 11), dt.date(2017, 2, 12)),
    ("2017-02-11 - 2017-02-12", dt.date(2017, 2, 11), dt.date(2017, 2, 12)),
    ("2017-02-11/2017-02-12", dt.date(2017, 2, 11), dt.date(2017, 2, 12)),
    ("11-12.02.2017", dt.date(2017, 2, 11), dt.date(2017, 2, 12)),
    ("2017-02-11", dt.date(2017, 2, 11), dt.date(2017, 2, 11)),
])
def test_date_ranges_start_on_the_first_day(written: str, start: dt.date, end: dt.date) -> None:
    data = _table("1 Novak Petr 1d CZ Brno 2+/w0\n2 Kral Ivo 2k CZ Brno 1-/b0\n", written)
    (event,) = parse(data, source="range.h").events
    assert event.date == start
    assert event.end_date == (end if end != start else None)


def test_halves_agreeing_on_the_result_but_not_on_colour_keep_the_game() -> None:
    data = _table("1 Novak Petr 1d CZ Brno 2+/w0\n2 Kral Ivo 2k CZ Brno 1-/w0\n")
    result = parse(data, source="colours.h")
    (event,) = result.events
    assert [(u.players[0].name, u.place, u.colour) for u in event.units] == [
        ("Novak Petr", 1.0, None), ("Kral Ivo", 2.0, None)]
    (warning,) = [i for i in result.issues if i.level == "warning"]
    assert "both write white" in warning.message
    with pytest.raises(InconsistentResult):
        parse(data, source="colours.h", strict=True)


def test_a_tie_written_without_its_number_and_nameless_players() -> None:
    data = _table(
        "1 Novak Petr 1d CZ Brno 3+/w0\n"
        "2 ? ?? 2k XX xxxx 4+/b0\n"
        "  Kral Ivo 2k CZ Brno 1-/b0\n"
        "4 Svoboda Jan 3k CZ Brno 2-/w0\n"
    )
    result = parse(data, source="tie.h")
    (event,) = result.events
    assert {u.players[0].name for u in event.units} == {"Novak Petr", "Kral Ivo"}
    assert any("player 2 has no name" in i.message for i in result.issues)
    only_nameless = _table("1 ? ? 1d XX xxxx 2+/w0\n2 Kral Ivo 2k CZ Brno 1-/b0\n")
    with pytest.raises(MalformedFile, match="no games to read"):
        parse(only_nameless, source="nameless.h")
