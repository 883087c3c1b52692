"""OpenGotha tournament files: key facts of the fixtures, results that are not games, errors,
and the setup a tournament is run from (``read_setup``)."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from parsers import (
    InconsistentResult,
    LimitExceeded,
    Limits,
    MalformedFile,
    ParseError,
    ParseResult,
)
from parsers._gate import ImplausibleResult
from parsers._limits import using
from parsers.opengotha import detect, parse, player_key, read_setup

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "opengotha"
PAIRGOTH = FIXTURES.parent / "opengotha_pairgoth"
REAL = FIXTURES / "real-opengotha-4-rounds-missing-table.xml"
SYNTHETIC = FIXTURES / "handicap-jigo-forfeit-unplayed-bye.xml"


def _parse(path: Path, strict: bool = False) -> ParseResult:
    return parse(path.read_bytes(), source=str(path), strict=strict)


def test_player_key_is_opengothas() -> None:
    assert player_key("de Butler", "Tristan") == "DEBUTLERTRISTAN"
    assert player_key("Mathis", "Léa") == "MATHISLÉA"


def test_real_file_games() -> None:
    result = _parse(REAL)
    assert len(result.events) == 31
    assert [sum(e.round == r for e in result.events) for r in (1, 2, 3, 4)] == [9, 9, 7, 6]
    first = result.events[0]
    assert (first.round, first.section) == (1, "board 1")
    assert first.title == ("Test Participation et Licence FFG round 1: "
                           "Mezouar Abdallah \u2013 Godivier Vincent")
    assert (first.organiser, first.parent) == ("Lyon", "Test Participation et Licence FFG")
    assert (first.date, first.end_date) == (dt.date(2017, 2, 11), dt.date(2017, 2, 12))
    assert (first.handicap, first.komi) == (0, 7.5)
    winner, loser = first.units
    assert (winner.players[0].name, winner.colour, winner.place) == ("Mezouar Abdallah",
                                                                     "black", 1.0)
    assert winner.players[0].federation_id == "17813059"  # egfPin
    assert (loser.players[0].name, loser.colour, loser.place) == ("Godivier Vincent",
                                                                  "white", 2.0)
    assert winner.place_text == "RESULT_BLACKWINS"
    # table 9 is missing in rounds 1 and 2: the sections follow tableNumber
    assert [e.section for e in result.events if e.round == 1][-2:] == ["board 8", "board 10"]
    butler = {p.name: p for e in result.events for u in e.units for p in u.players}
    assert butler["de Butler Tristan"].federation_id is None  # no pin, no licence
    assert butler["Rousseau Jérémy"].federation_id == "1400118"  # the FFG licence
    assert [i.message for i in result.issues] == [
        ("the file gives no date per round; games dated on the first day 2017-02-11 "
        "(end_date 2017-02-12)")
    ]


def test_handicap_game_colours_and_komi() -> None:
    result = _parse(SYNTHETIC)
    assert len(result.events) == 4
    game = result.events[0]
    assert (game.round, game.section, game.handicap, game.komi) == (1, "board 1", 3, None)
    black, white = game.units
    assert (black.players[0].name, black.colour, black.place, black.score) == (
        "Kováč Peter", "black", 1.0, 1.0)
    assert (white.players[0].name, white.colour, white.place, white.score) == (
        "Novák Ján", "white", 2.0, 0.0)
    assert black.players[0].club == "Koši"


def test_jigo_and_unknown_colours() -> None:
    result = _parse(SYNTHETIC)
    jigo = result.events[1]
    assert [(u.colour, u.place, u.score) for u in jigo.units] == [
        ("black", 1.5, 0.5), ("white", 1.5, 0.5)]
    assert jigo.komi == 6.5
    unknown = result.events[3]
    assert unknown.round == 3
    assert [u.colour for u in unknown.units] == [None, None]
    assert [u.players[0].name for u in unknown.units] == ["van der Berg Tomáš", "Szabóová Eva"]


def test_results_that_are_not_games_are_issues() -> None:
    issues = {i.where.split(", ", 1)[1]: i for i in _parse(SYNTHETIC).issues if "Game" in i.where
              or "ByePlayer" in i.where}
    assert issues["table Game 4, column result"].message.startswith(
        "round 2: Horváthová Mária \u2013 Kováč Peter: result by default (forfeit)")
    assert "both players given the loss" in issues["table Game 6, column result"].message
    assert "result not known yet" in issues["table Game 7, column result"].message
    unknown_player = issues["table Game 8, column blackPlayer"]
    assert unknown_player.level == "warning"
    assert unknown_player.message == ("round 4: black player is not in <Players>; game skipped: "
                                      "value 'NAGYLÁSZLÓ'")
    assert issues["table ByePlayer 1, column player"].message.startswith(
        "round 1: van der Berg Tomáš has a bye")
    assert all(i.level == "info" for w, i in issues.items() if "blackPlayer" not in w)


def test_strict_raises_on_an_unknown_player() -> None:
    with pytest.raises(InconsistentResult) as raised:
        _parse(SYNTHETIC, strict=True)
    error = raised.value
    assert (error.file, error.table, error.column, error.value) == (
        SYNTHETIC.name, "Game 8", "blackPlayer", "NAGYLÁSZLÓ")


def test_no_begin_date_is_refused() -> None:
    data = SYNTHETIC.read_bytes().replace(b'beginDate="2024-03-16" ', b"")
    with pytest.raises(MalformedFile, match="no tournament date"):
        parse(data, source="x.xml")


def test_entity_expansion_is_refused() -> None:
    bomb = (b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><Tournament><Players>&b;</Players>'
            b"</Tournament>")
    assert detect(bomb)
    with pytest.raises(MalformedFile, match="not readable as XML"):
        parse(bomb, source="bomb.xml")


def test_detect() -> None:
    assert detect(REAL.read_bytes())
    assert not detect(b'<?xml version="1.0"?><USEBIO><EVENT/></USEBIO>')
    assert not detect(b"<html><body><table><tr><td>Tournament</td></tr></table></body></html>")


@pytest.mark.parametrize("path", [REAL, SYNTHETIC], ids=lambda p: p.name)
def test_damaged_files_raise_only_parse_errors(path: Path) -> None:
    rng = random.Random(11)
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


# ---------------------------------------------------------------- the tournament's setup


def test_setup_of_a_real_file() -> None:
    setup = read_setup(REAL.read_bytes(), source=str(REAL))
    assert (setup.name, setup.short_name, setup.rounds) == (
        "Test Participation et Licence FFG", "TestPartEtLic", 20)
    assert len(setup.players) == 33 and len(setup.games) == 31
    langer = setup.players[0]
    assert (langer.key, langer.surname, langer.first_name) == ("LANGERMATEO", "Langer", "Mateo")
    assert (langer.rank, langer.rating, langer.club, langer.country) == ("7K", 1782.0, "69GC",
                                                                        "FR")
    assert (langer.mms_correction, langer.federation_id) == (0, "17801564")
    game = setup.games[0]
    assert (game.round, game.table, game.white, game.black) == (
        1, 1, "GODIVIERVINCENT", "MEZOUARABDALLAH")
    assert (game.result, game.scores, game.by_default, game.handicap) == (
        "RESULT_BLACKWINS", (0.0, 1.0), False, 0)
    general = setup.parameters["GeneralParameterSet"]
    assert (general["genMMBar"], general["genMMFloor"]) == ("2K", "3K")
    assert setup.placement is not None and setup.placement[:2] == ("MMS", "SOSM")
    assert setup.byes == ()


def test_setup_keeps_unplayed_games_and_reads_both_bye_layouts() -> None:
    unknown = (b'<Tournament><Players><Player name="A" firstName="Ann" rank="1D"/>'
               b'<Player name="B" firstName="Bob" rank="2K" smmsCorrection="-1"/>'
               b'<Player name="C" firstName="Cid" rank="3K"/></Players><Games>'
               b'<Game roundNumber="1" whitePlayer="AANN" blackPlayer="BBOB"/>'
               b'<Game roundNumber="2" whitePlayer="AANN" blackPlayer="CCID" '
               b'result="RESULT_EQUAL_BYDEF"/>'
               b'<Game roundNumber="3" whitePlayer="BBOB" blackPlayer="C CID" '
               b'result="RESULT_WHITEWINS_BYDEF" handicap="2"/></Games>'
               b'<ByePlayers><ByePlayer roundNumber="1" player="CCID"/></ByePlayers>'
               b'<ByePlayer><ByePlayer roundNumber="2" player="BBOB"/></ByePlayer></Tournament>')
    setup = read_setup(unknown)  # no name, no date: a tournament is set up before either
    assert (setup.name, setup.rounds, setup.parameters, setup.placement) == ("", None, {}, None)
    assert [(g.round, g.scores, g.by_default, g.handicap) for g in setup.games] == [
        (1, None, False, 0), (2, None, True, 0), (3, (1.0, 0.0), True, 2)]
    assert setup.games[2].black == "CCID"  # named with a space, matched as OpenGotha keys
    assert setup.byes == ((1, "CCID"), (2, "BBOB"))
    assert setup.players[1].mms_correction == -1
    nested = read_setup((PAIRGOTH / "bosp2024.xml").read_bytes())
    assert nested.byes == ((1, "GUNEYMETE"), (2, "RUZGAREGE_TUNA"))


def test_the_rounds_that_are_no_game_are_part_of_the_parse_result() -> None:
    marks = {(m.round, m.player): (m.mark, m.opponent) for m in _parse(SYNTHETIC).round_marks}
    assert marks == {
        (1, "VANDERBERGTOMÁŠ"): ("bye", None),
        (2, "HORVÁTHOVÁMÁRIA"): ("loss by default", "KOVÁČPETER"),
        (2, "KOVÁČPETER"): ("win by default", "HORVÁTHOVÁMÁRIA"),
        (3, "HORVÁTHOVÁMÁRIA"): ("loss by default", "KOVÁČPETER"),  # both given the loss
        (3, "KOVÁČPETER"): ("loss by default", "HORVÁTHOVÁMÁRIA"),
        (3, "NOVÁKJÁN"): ("bye", None),
        (4, "HORVÁTHOVÁMÁRIA"): ("not played", "NOVÁKJÁN"),
        (4, "NOVÁKJÁN"): ("not played", "HORVÁTHOVÁMÁRIA"),
    }
    # a player's mark names them by the label of their units in the file's games
    labels = {u.label for e in _parse(SYNTHETIC).events for u in e.units}
    assert {key for _, key in marks} <= labels
    # OpenGotha 3.52 nests the byes: <ByePlayer><ByePlayer player="GuneyMete" .../></ByePlayer>
    nested = _parse(PAIRGOTH / "bosp2024.xml").round_marks
    assert [(m.round, m.player, m.mark, m.opponent) for m in nested] == [
        (1, "GUNEYMETE", "bye", None), (2, "RUZGAREGE_TUNA", "bye", None)]
    assert [(i.where, i.level) for i in _parse(PAIRGOTH / "bosp2024.xml").issues
            if "has a bye" in i.message] == [
        ("file bosp2024.xml, table ByePlayer 1, column player", "info"),
        ("file bosp2024.xml, table ByePlayer 2, column player", "info")]


def test_the_warehouse_keeps_the_round_marks_the_parser_gives(tmp_path: Path) -> None:
    """The loader takes the rounds that are no game from the parse result (it reads no XML of
    its own), the nested byes of OpenGotha 3.52 too."""
    from parsers import parse_bytes
    from warehouse import open_warehouse
    from warehouse._load import Loader

    with open_warehouse(tmp_path / "wh.duckdb") as wh:
        loader = Loader(wh)
        for path in (SYNTHETIC, PAIRGOTH / "bosp2024.xml"):
            data = path.read_bytes()
            loader.load(data, parse_bytes(data, source=path.name), path=path.name)
        rows = wh.con.execute(
            "SELECT f.path, r.round, r.player_key, r.mark, r.opponent_key "
            "FROM go_round_marks r JOIN source_files f USING (file_id) "
            "ORDER BY 1, 2, 3").fetchall()
    assert [r[1:] for r in rows if r[0] == "bosp2024.xml"] == [
        (1, "GUNEYMETE", "bye", None), (2, "RUZGAREGE_TUNA", "bye", None)]
    assert [r[1:] for r in rows if r[0] == SYNTHETIC.name] == [
        (m.round, m.player, m.mark, m.opponent) for m in _parse(SYNTHETIC).round_marks]
    source = (Path(__file__).resolve().parents[1] / "warehouse" / "_load.py").read_text(
        encoding="utf-8")
    assert "ElementTree" not in source and "defusedxml" not in source


def test_setup_refuses_what_a_tournament_cannot_be_run_from() -> None:
    with pytest.raises(InconsistentResult) as raised:
        read_setup(SYNTHETIC.read_bytes(), source=str(SYNTHETIC))
    assert (raised.value.file, raised.value.table, raised.value.column, raised.value.value) == (
        SYNTHETIC.name, "Game 8", "blackPlayer", "NAGYLÁSZLÓ")
    label = b'<Tournament><Players><Player name="N-S" firstName=""/></Players></Tournament>'
    with pytest.raises(ImplausibleResult) as junk:
        read_setup(label, source="cup.xml")
    assert (junk.value.file, junk.value.table, junk.value.column) == ("cup.xml", "Player 1",
                                                                     "name")
    rating = (b'<Tournament><Players><Player name="Ann" firstName="Lee" rating="x"/>'
              b'</Players></Tournament>')
    with pytest.raises(MalformedFile, match="invalid rating"):
        read_setup(rating)
    with using(Limits(rows=5)), pytest.raises(LimitExceeded, match=r"\[limits\] rows = 5"):
        read_setup(REAL.read_bytes(), source="big.xml")


@pytest.mark.parametrize("path", [REAL, SYNTHETIC], ids=lambda p: p.name)
def test_damaged_setups_raise_only_parse_errors(path: Path) -> None:
    rng = random.Random(13)
    data = path.read_bytes()
    for _ in range(60):
        damaged = bytearray(data[: rng.randrange(1, len(data) + 1)])
        for _ in range(rng.randint(0, 8)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        try:
            read_setup(bytes(damaged), source=path.name)
        except ParseError:
            pass
