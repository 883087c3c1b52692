"""What the field corpus taught the readers, one worked case each (small inputs written here in
the shape of the real files in fixtures/field/, whose SOURCES.txt names the originals)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from parsers import FORMATS, MalformedFile, ParseError, UnsupportedVariant, detect_format, parse_bytes

FIELD = Path(__file__).resolve().parent.parent / "fixtures" / "field"


# --- EGD tables -----------------------------------------------------------------------------

_WORLD = """; EV[11th Korea Prime Minister Cup]
; DT[{dates}]
; PC[KR, Buan]
 1 Yang Rundong               7d CN  xxxx  2+      3+      6    25   134   |18025403
 2 Lai Yu-Cheng               7d TW  xxxx  1-      4+      5    23   129   |13650813
 3 Kim Heesoo                 7d KR  xxxx  4+      1-      5    22   138   |17674745
 4 Ge Yongfei                 7d CA  xxxx  3-      2-      16S  2S   123   |14350743
"""


def test_egd_results_without_colours_followed_by_score_columns() -> None:
    """The world championships' tables: results without a colour, then points, SOS, SOSOS (and a
    shared tie-break ``16S``) after the rounds; club ``xxxx``."""
    result = parse_bytes(_WORLD.format(dates="2016-09-05,2016-09-07").encode(), source="k.txt")
    assert result.format == "egd_table"
    assert len(result.events) == 4
    names = {p.name for e in result.events for u in e.units for p in u.players}
    assert names == {"Yang Rundong", "Lai Yu-Cheng", "Kim Heesoo", "Ge Yongfei"}
    assert {e.date for e in result.events} == {dt.date(2016, 9, 5)}
    assert not [i for i in result.issues if i.level == "warning"]


@pytest.mark.parametrize("dates", ["2003-11-09,2023-11-11", "2008-05-28,2007-05-31"])
def test_egd_impossible_second_date_read_from_the_first(dates: str) -> None:
    result = parse_bytes(_WORLD.format(dates=dates).encode(), source="k.txt")
    first = dt.date.fromisoformat(dates.split(",")[0])
    assert {e.date for e in result.events} == {first}
    assert all(e.end_date in (None, first) for e in result.events)
    warning = next(i for i in result.issues if "DT[...]" in i.message)
    assert warning.level == "warning" and "read from the first day" in warning.message


# --- PBN ------------------------------------------------------------------------------------

_HEAD = '% PBN 2.1\n[Event "Liiga"]\n[Site "Club"]\n[Date "2024.05.07"]\n[Board "1"]\n'


def _pbn(columns: str, rows: list[str], extra: str = "") -> bytes:
    return (_HEAD + extra + f'[TotalScoreTable "{columns}"]\n' + "\n".join(rows) + "\n").encode()


def test_pbn_ranking_across_sections_is_one_event_with_its_printed_places() -> None:
    rows = [f'{rank} {section} {pair} "A{rank} Alfa;B{rank} Bravo" {60 - rank}.0'.replace(
        f"A{rank}", "Anna" + "abcdefgh"[rank - 1]).replace(f"B{rank}", "Bert" + "abcdefgh"[rank - 1])
        for rank, section, pair in ((1, "M", 3), (2, "N", 3), (3, "M", 1), (4, "O", 2),
                                    (5, "N", 1), (6, "O", 1))]
    result = FORMATS["pbn"].parse(_pbn("Rank;Section;PairId;Names;TotalIMP", rows))
    assert len(result.events) == 1
    units = result.events[0].units
    assert [u.place for u in units] == [1, 2, 3, 4, 5, 6]
    assert [u.label for u in units][:2] == ["M 3", "N 3"]  # pair numbers repeat per section


def test_pbn_sections_ranked_apart_stay_events_of_their_own() -> None:
    rows = ['1 A 1 "Anna Alfa;Bert Bravo" 60.0', '2 A 2 "Cyril Charlie;Dora Delta" 50.0',
            '1 B 1 "Emil Echo;Fay Foxtrot" 61.0', '2 B 2 "Gus Golf;Hana Hotel" 40.0']
    result = FORMATS["pbn"].parse(_pbn("Rank;Section;PairId;Names;TotalPercentage", rows))
    assert sorted(e.section for e in result.events) == ["A", "B"]


def test_pbn_team_roster_details_give_the_players_and_their_numbers() -> None:
    rows = ['1 2 "Fredrikstad 1" 56.44 "Flemming Johnsen - Sverre Johnsen" '
            '"28336,Johnsen,Flemming|6494,Johnsen,Sverre|6152,Stokkeland,Åsmund"',
            '2 7 "Sarpsborg 1" 51.72 "Olav Didriksen - Tom Gjøs" '
            '"9336,Didriksen,Olav Erik|24424,Gjøs,Tom|16621,Gundersen,Ove"']
    result = FORMATS["pbn"].parse(_pbn("Rank;TeamId;TeamName;TotalScoreVP;Roster;RosterDetails",
                                       rows, extra='[EventDate "2023.09.12"]\n'))
    event = result.events[0]
    assert event.kind == "teams" and event.scoring == "VP"
    first = event.units[0]
    assert [p.name for p in first.players] == ["Flemming Johnsen", "Sverre Johnsen",
                                               "Åsmund Stokkeland"]
    assert [p.federation_id for p in first.players] == ["28336", "6494", "6152"]
    assert event.date == dt.date(2023, 9, 12)  # EventDate: the season's first day


def test_pbn_team_names_alone_are_still_refused() -> None:
    rows = ['1 2 "Fredrikstad 1" 56.44', '2 7 "Sarpsborg 1" 51.72']
    with pytest.raises(UnsupportedVariant, match="names only"):
        FORMATS["pbn"].parse(_pbn("Rank;TeamId;TeamName;TotalScoreVP", rows))


def test_pbn_table_written_as_hash_copies_the_columns_above() -> None:
    """PBN's own example: a later game writes ``[TotalScoreTable "#"]`` and the top rows again."""
    rows = ['1 581 "Sergey OSTRIKOV;Oleg ODINTSEV" 72.49', '2 226 "Lia FREJDLINA;Anatoly ZHOKHOV" 70.38',
            '3 290 "Alexander KOLTSOV;Serge SHKREBELA" 70.20']
    text = _pbn("Rank;PairId;Names;+Percentage", rows).decode()
    text += '\n[Board "2"]\n[TotalScoreTable "#"]\n' + "\n".join(rows[:2]) + "\n"
    result = FORMATS["pbn"].parse(text.encode())
    assert len(result.events) == 1 and len(result.events[0].units) == 3


# --- go -------------------------------------------------------------------------------------

_OPENGOTHA = """<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201">
<Players>
<Player name="Daiki0" firstName="Daiki0" rank="3D" egfPin=""/>
<Player name="Halcio" firstName="Halcio" rank="5K" egfPin=""/>
<Player name="Ghost" firstName="1" rank="30K" egfPin=""/>
<Player name="Kowalski" firstName="Jan" rank="2K" egfPin=""/>
</Players>
<Games>
<Game roundNumber="1" tableNumber="1" blackPlayer="HALCIOHALCIO" whitePlayer="DAIKI0DAIKI0" result="RESULT_WHITEWINS" handicap="0" knownColor="true"/>
<Game roundNumber="1" tableNumber="2" blackPlayer="GHOST1" whitePlayer="KOWALSKIJAN" result="RESULT_WHITEWINS" handicap="0" knownColor="true"/>
<Game roundNumber="2" tableNumber="1" blackPlayer="KOWALSKIJAN" whitePlayer="DAIKI0DAIKI0" result="RESULT_BLACKWINS" handicap="0" knownColor="true"/>
</Games>
<TournamentParameterSet><GeneralParameterSet name="Jako-Tako 7" beginDate="2020-11-01" endDate="2020-11-01" komi="6.5"/></TournamentParameterSet>
</Tournament>
"""


def test_opengotha_server_user_names_load_and_ghost_boards_are_no_games() -> None:
    result = parse_bytes(_OPENGOTHA.encode(), source="online.xml")
    assert len(result.events) == 2  # the game against "Ghost 1" is no game
    daiki = next(p for e in result.events for u in e.units for p in u.players
                 if p.name.startswith("Daiki0"))
    assert daiki.handle
    assert any("seat filler" in i.message for i in result.issues)


_GAME_LIST = """<html><head><title>Fall 2009 Tournament</title></head><body>
<h1>Fall 2009 Tournament</h1><p>When: Saturday, November 14, 2009.</p>
<table><tr><td>Name</td><td>Rank</td><td>Wins</td></tr>
<tr><td>Liang, Jie</td><td>8D</td><td>2</td></tr><tr><td>Lu, Ke</td><td>5D</td><td>1</td></tr>
<tr><td>Morris, Trevor</td><td>7D</td><td>1</td></tr><tr><td>Osman, Eric</td><td>2D</td><td>0</td></tr></table>
<h3>Round 1</h3>
<table><tr><td>White</td><td>Black</td><td>Handicap</td><td>Komi</td><td>Wins</td></tr>
<tr><td>Liang, Jie 8D</td><td>Osman, Eric 2D</td><td>4</td><td>0</td><td>White</td></tr>
<tr><td>Morris, Trevor 7D</td><td>Lu, Ke 5D</td><td>2</td><td>0</td><td>Black</td></tr></table>
<h3>Round 2</h3>
<table><tr><td>White</td><td>Black</td><td>Handicap</td><td>Komi</td><td>Winner</td></tr>
<tr><td>Liang, Jie 8D</td><td>Lu, Ke 5D</td><td>3</td><td>0</td><td>White</td></tr>
<tr><td>Morris, Trevor 7D</td><td>Osman, Eric 2D</td><td>5</td><td>0</td><td>White</td></tr></table>
</body></html>"""


def test_go_game_lists_round_by_round() -> None:
    result = parse_bytes(_GAME_LIST.encode(), source="wmgc.html")
    assert result.format == "go_html"
    assert len(result.events) == 4
    assert {e.round for e in result.events} == {1, 2}
    assert {e.date for e in result.events} == {dt.date(2009, 11, 14)}
    first = next(e for e in result.events if e.round == 1 and e.handicap == 2)
    winner = next(u for u in first.units if u.place == 1)
    assert winner.colour == "black" and winner.players[0].name == "Lu, Ke"
    assert winner.players[0].grade == "5d"  # type: ignore[attr-defined]


def test_go_game_list_without_any_result_is_refused() -> None:
    page = _GAME_LIST.replace(">White</td></tr>", "></td></tr>").replace(
        ">Black</td></tr>", "></td></tr>")
    with pytest.raises(ParseError):
        parse_bytes(page.encode(), source="wmgc.html")


# --- recap pages and online platforms -------------------------------------------------------

def test_funbridge_nicknames_are_user_names() -> None:
    text = "RANK;NICKNAME;RESULT;MASTERPOINTS;LICENCE\n1;D0CT0RKEV;13.0;29;;\n" \
           "2;INNA MALYSHEV;11.0;13;;\n3;RODZIA1981;-1.0;5;;\n"
    result = parse_bytes(text.encode(), source="Funbridge-CBS-tournament-2024-09-01.csv")
    event = result.events[0]
    assert event.date == dt.date(2024, 9, 1) and event.kind == "individual"
    assert [u.players[0].name for u in event.units] == ["D0CT0RKEV", "INNA MALYSHEV",
                                                       "RODZIA1981"]
    assert all(u.players[0].handle for u in event.units)


def _acbl_live(winner_type: int, kind: str = "PAIRS") -> bytes:
    def pair(number: str, direction: str, pct: str, a: str, b: str) -> dict[str, object]:
        return {"pair_number": number, "direction": direction, "percentage": pct,
                "players": [{"name": a, "id_number": "1" + number}, {"name": b}]}
    data = {"name": "Monday Pairs", "club_name": "Livermore Bridge Club", "type": kind,
            "board_scoring_method": "MATCH_POINTS", "winner_type": winner_type,
            "start_date": "04/20/2026", "club_tournament_id": 1,
            "sessions": [{"number": 1, "game_date": "2026-04-20 00:00:00", "sections": [
                {"name": "A", "pair_pair_summaries": [], "pair_summaries": [
                    pair("1", "NS", "55.0", "Vondera, Wayne", "Gast, Lynn"),
                    pair("2", "NS", "61.9", "LaFrancesca, Rosemarie", "McCoy, Jane"),
                    pair("3", "EW", "58.0", "Yeh, George", "Baerncopf Jr, David"),
                    pair("4", "EW", "58.0", "Meola, Barbara", "Meola, Louis")]}]}]}
    return (f"<html><body><div id=app></div><script>var data = {json.dumps(data)};\n"
            "</script></body></html>").encode()


def test_acbl_live_two_winners_placed_by_percentage() -> None:
    result = parse_bytes(_acbl_live(2), source="club-game.html")
    assert result.format == "acbl_live"
    by_section = {e.section: e for e in result.events}
    assert set(by_section) == {"A NS", "A EW"}
    ns = by_section["A NS"]
    assert ns.units[0].players[0].name == "LaFrancesca, Rosemarie" and ns.units[0].place == 1
    assert ns.units[0].players[0].federation_id == "12"
    assert [u.place for u in by_section["A EW"].units] == [1.5, 1.5]  # a tie shares
    assert ns.organiser == "Livermore Bridge Club" and ns.date == dt.date(2026, 4, 20)


def test_acbl_live_one_winner_is_one_event_and_teams_are_refused() -> None:
    assert len(parse_bytes(_acbl_live(1), source="g.html").events) == 1
    with pytest.raises(ParseError, match="TEAMS"):
        parse_bytes(_acbl_live(1, kind="TEAMS"), source="g.html")


def test_acbl_live_damaged_data_object_is_refused_in_one_line() -> None:
    page = _acbl_live(2).replace(b'"pair_summaries": [', b'"pair_summaries": [[', 1)
    with pytest.raises(ParseError) as raised:
        parse_bytes(page, source="g.html")
    assert "\n" not in str(raised.value) and "g.html" in str(raised.value)


def test_acbl_live_detection_needs_the_game_object() -> None:
    assert detect_format(_acbl_live(2), "g.html").name == "acbl_live"
    assert not FORMATS["acbl_live"].detect(b"<html><script>var data = {};</script></html>")


_RANK_GRID = """<html><head><title>Northern Colorado Bridge Results</title></head><body>
<p>Rankings - Tuesday Afternoon, November 15, 2005</p><p>Section A E-W</p>
<table><thead><tr><th rowspan="2"><span>Pair</span><br/><span>No.</span></th>
<th rowspan="2">Players</th><th colspan="3">Overall Rank</th><th colspan="3">Section Rank</th>
<th rowspan="2"><span>Matchpoint</span><br/><span>Score</span></th>
<th rowspan="2"><span>Percentage</span><br/><span>Score</span></th></tr>
<tr><th>A</th><th>B</th><th>C</th><th>A</th><th>B</th><th>C</th></tr></thead>
<tr><td>9</td><td>Larry Hulse &#8211; Linda Nelson</td><td></td><td></td><td></td><td>5</td><td>3</td><td></td><td>198.10</td><td>55.03</td></tr>
<tr><td>3</td><td>Carol Shafer &#8211; Margaret Webster</td><td></td><td></td><td></td><td>8</td><td>6</td><td>5</td><td>189.57</td><td>52.66</td></tr>
<tr><td>10</td><td>Diane Boyer &#8211; Jean Norgaard</td><td></td><td></td><td></td><td></td><td>7</td><td></td><td>180.80</td><td>50.22</td></tr>
</table></body></html>"""


def test_recap_rank_grid_whose_ranks_count_a_wider_field_is_placed_by_scores() -> None:
    """Section ranks that count both directions (the best East-West pair is 5th): the table's
    own order is its percentages'."""
    result = parse_bytes(_RANK_GRID.encode(), source="RK051115A.html")
    assert result.format == "bridgecomposer_recap"
    event = result.events[0]
    assert [u.players[0].name for u in event.units] == ["Larry Hulse", "Carol Shafer",
                                                       "Diane Boyer"]
    assert [u.place for u in event.units] == [1, 2, 3]
    assert event.units[0].place_text == "5"
    assert any("wider field" in i.message for i in result.issues)


def test_the_field_corpus_truths_name_real_files() -> None:
    """Every case above stands for files of the corpus (so a change here is seen there too)."""
    for folder in ("egd_table", "pbn", "pbn_teams", "opengotha", "go_html", "html_tables"):
        assert (FIELD / folder / "TRUTH.json").is_file(), folder


def test_malformed_is_still_what_a_damaged_egd_table_raises() -> None:
    with pytest.raises(MalformedFile):
        parse_bytes(b"; EV[x]\n; DT[2016-13-45]\n 1 A B 7d 2+\n 2 C D 6d 1-\n", source="x.h9",
                    fmt="egd_table")


# --- plain-text rankings ----------------------------------------------------------------------

_TYPED = """12th Cap Gemini World Top Tournament 1998
Hotel Des Indes - The Hague, Netherlands
15-18 January 1998

1 Mahmood - Forrester 857
2 Buratti - Lanzarotti 836
3 Hackett - Hackett 798
4 Berkowitz - Cohen 783
   Levy - Mari 783
6 Berkowitz - Letizia 596
"""


def test_typed_standings_with_a_day_range_and_a_tie_line() -> None:
    result = parse_bytes(_TYPED.encode(), source="CAPGEM98.TXT")
    assert result.format == "text_ranking"
    event = result.events[0]
    assert event.date == dt.date(1998, 1, 15) and event.kind == "pairs"
    assert event.title == "12th Cap Gemini World Top Tournament 1998"
    assert [u.place for u in event.units] == [1, 2, 3, 4.5, 4.5, 6]
    assert [p.name for p in event.units[2].players] == ["Hackett", "Hackett"]  # two brothers


def test_fixed_width_and_tab_separated_club_prints() -> None:
    fixed = ("   1 Moruz          Busuioc          131   60.648148\n"
             "   2 Cluci          Andarache        119   55.092592\n"
             "   3 Nutescu        Zavloschi        108   50\n"
             "   4 Hoza           Chitovanu        104   48.148148\n")
    event = parse_bytes(fixed.encode(), source="rezultate2005-10-10.txt").events[0]
    assert event.date == dt.date(2005, 10, 10) and event.scoring == "MP"
    assert [u.score for u in event.units] == [60.648148, 55.092592, 50.0, 48.148148]
    tabs = "1\tMatoianu\tRosu\t66.07\n2\tIancu\tBanar\t54.44\n3\tBoboc\tBordei\t45.91\n"
    event = parse_bytes(tabs.encode(), source="rezultate2006-01-16.txt").events[0]
    assert [p.name for p in event.units[0].players] == ["Matoianu", "Rosu"]


@pytest.mark.parametrize("text", [
    # a numbered list of members: no score column
    "Members 2024\n1 Jan Novak\n2 Petra Kral\n3 Ivan Horak\n",
    # scores that rise: not a ranking in the order written
    "Cup 12.3.2024\n1 Novak - Kral 40\n2 Horak - Dvorak 55\n3 Svoboda - Cerny 61\n",
    # a tennis ladder: games won and lost
    "26.12.2024\nPos\tPlayer\tWon\tLost\tPoints\n1\tJones Susan\t14\t3\t28\n"
    "2\tSmith John\t12\t7\t24\n3\tBrown David\t4\t9\t8\n",
    # teams by their names only
    "18.3.2024\nPlatz\tMannschaft\tVP\n1\tOxford BC A\t153.3\n2\tKS Spojnia B\t102.3\n"
    "3\tBerliner BC D\t80.3\n",
])
def test_text_that_is_not_a_ranking_of_players_is_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_bytes(text.encode(), source="notes.txt")


def test_text_ranking_without_any_date_is_refused_saying_so() -> None:
    with pytest.raises(MalformedFile, match="no event date"):
        parse_bytes(b"Club night\n1 Novak - Kral 61.2\n2 Horak - Dvorak 55.0\n"
                    b"3 Svoboda - Cerny 40.1\n", source="night.txt")


_TOU = """;name=LIM2012
;date=17/11/2012
;vill=Toulouse
;komi=7.5
;Num Nom Prenom               Niv Licence Club
   1 Fenech Antoine            5D 9188701 67SE    2+w0    3+b0
   2 Sbai Kevin                4D 0800017 67SE    1-b0    4+w0
   3 Noguchi Motoki            7D 0280000 67SE    4+w0    1-w0
   4 Ghost Xa                  3D         xxx     3-b0    2-b0
"""


def test_ffg_tou_file_with_a_ghost_filler() -> None:
    result = parse_bytes(_TOU.encode(), source="LIM2012.tou")
    assert result.format == "egd_table"
    assert len(result.events) == 2  # the two games against the Ghost are no games
    assert {e.date for e in result.events} == {dt.date(2012, 11, 17)}
    assert {e.parent for e in result.events} == {"LIM2012"}


_BRIDGENET = """<?xml version="1.0" encoding="UTF-8"?>
<GameDatabase xmlns="http://www.NorthernColoradoBridge.com/BridgeNETSchema">
 <Game><ClubGame ClubNo="239376">Choice City Duplicate</ClubGame>
  <Event><EventName>Membership Game</EventName></Event><Date>2005-11-15</Date>
  <Section SectionLabel="A" Direction="N-S"><Rankings>
   <Contestants ID="2"><Percentage>57.21</Percentage>
    <Player direction="N"><Name>Stella O'Neill</Name></Player>
    <Player direction="S"><Name>Lawrence Mason</Name></Player></Contestants>
   <Contestants ID="13"><Percentage>65.54</Percentage><SectionRank Strat="A">1</SectionRank>
    <Player direction="N"><Name>Judy Davis</Name></Player>
    <Player direction="S"><Name>Rita Koch</Name></Player></Contestants>
   <Contestants ID="5"><Percentage>57.21</Percentage>
    <Player direction="N"><Name>Linda Agee</Name></Player>
    <Player direction="S"><Name>Doris Ekedahl</Name></Player></Contestants>
  </Rankings></Section></Game></GameDatabase>"""


def test_bridgenet_game_file_placed_by_percentage() -> None:
    result = parse_bytes(_BRIDGENET.encode(), source="051115A.xml")
    assert result.format == "bridgenet_xml"
    event = result.events[0]
    assert (event.section, event.date, event.organiser) == ("A NS", dt.date(2005, 11, 15),
                                                           "Choice City Duplicate")
    assert [u.place for u in event.units] == [1, 2.5, 2.5]
    assert event.units[0].players[0].name == "Judy Davis"


def test_bridgenet_damaged_file_is_refused_in_one_line() -> None:
    with pytest.raises(ParseError) as raised:
        parse_bytes(_BRIDGENET.encode()[:-40], source="051115A.xml")
    assert "\n" not in str(raised.value)
    with pytest.raises(ParseError, match="date"):
        parse_bytes(_BRIDGENET.replace("2005-11-15", "15/11/2005").encode(), source="x.xml")


def test_a_page_that_pastes_two_nights_in_pre_gives_each_its_day() -> None:
    page = ("<html><head><title>Bridge Club Iasi</title></head><body><table><tr><td>"
            "<h3>Rezultate luni, 14 ianuarie 2008</h3><pre>\t%\tPE\n"
            "1\tCeia\t\tEva\t\t65.72\n2\tBoboc\t\tPopescu\t\t59.75\n3\tReleu\tMoruz\t\t54.77\n"
            "</pre><h3>Rezultate luni, 21 ianuarie 2008</h3><pre>\t%\tPE\n"
            "1\tChipail\t\tNutescu\t\t64.09\n2\tRosu\t\tBordei\t\t56.00\n3\tEva\tCeia\t50.1\n"
            "</pre></td></tr></table></body></html>")
    result = parse_bytes(page.encode(), source="rezultate2008-01-14.html")
    assert result.format == "text_ranking"
    assert [e.date for e in result.events] == [dt.date(2008, 1, 14), dt.date(2008, 1, 21)]
    assert result.events[1].units[0].players[0].name == "Chipail"


def test_a_table_without_a_header_row_is_read_as_text() -> None:
    rows = "".join(f"<tr><td>{i}</td><td>{a}</td><td>{b}</td><td>{s}</td></tr>"
                   for i, a, b, s in ((1, "Agica", "Popescu R.", "61.66"),
                                      (2, "Boboc", "Bordei", "60.89"),
                                      (3, "Olteanu", "Goldemberg", "56.73")))
    page = (f"<html><body><p>Rezultate luni, 20 martie 2006</p><table>{rows}</table>"
            "</body></html>")
    event = parse_bytes(page.encode(), source="rezultate2006-03-20.html").events[0]
    assert event.date == dt.date(2006, 3, 20) and len(event.units) == 3
    assert [p.name for p in event.units[0].players] == ["Agica", "Popescu R."]


def test_a_pair_numbered_print_in_finishing_order_is_placed_by_its_scores() -> None:
    text = ("Pair Names                               MPs  %age LPs\n"
            "-------------------------------------------------------\n"
            "202  Stefan Iancu   Sergiu Romascu       94.6 59.1 0\n"
            "201  Adrian Filimon Danut Arama          92.5 57.8 0\n"
            "103  Ovidiu Rosu    Vasile Bordei        87.8 54.9 0\n"
            "104  Stefan         ?                    61   38.1 0\n")
    event = parse_bytes(text.encode(), source="rezultate2010-06-21.txt").events[0]
    assert [u.label for u in event.units] == ["202", "201", "103", "104"]
    assert [u.place for u in event.units] == [1, 2, 3, 4]
    assert [p.name for p in event.units[1].players] == ["Adrian Filimon", "Danut Arama"]
    assert [p.name for p in event.units[3].players] == ["Stefan"]  # '?' is no player


def test_a_print_of_three_lines_a_unit() -> None:
    text = ("2nd Politiken World Pairs 1997\nNovember 6 - 9, 1997\n\nFINAL STANDINGS\n"
            + "".join(f"        {r}\n           {n}\n                    {s}\n"
                      for r, n, s in ((1, "Helgemo - Martens", 935),
                                      (2, "Sverrisson - Jorgensen", 822),
                                      (3, "Raulund - Pedersen", 794))))
    event = parse_bytes(text.encode(), source="POLITK97.TXT").events[0]
    assert event.date == dt.date(1997, 11, 6)
    assert [p.name for p in event.units[0].players] == ["Helgemo", "Martens"]


def test_a_heading_like_surname_is_kept_among_surnames_alone() -> None:
    lines = "\n".join(f"{i} {a} - {b} {s}" for i, (a, b, s) in enumerate((
        ("Bakkeren", "Bakkeren", 85), ("Drijver", "De Wijs", 82), ("Kirchhoff", "Paulissen", 74),
        ("Kroes", "Top", 53), ("Jansma", "Verhees", 19)), start=1))
    event = parse_bytes(f"4th ING BANK Top Circuit 2001\n14-16 April 2001\n\n{lines}\n".encode(),
                        source="ing2001.txt").events[0]
    assert [p.name for p in event.units[3].players] == ["Kroes", "Top"]
    with pytest.raises(ParseError, match="label or column heading"):
        parse_bytes(b"Club 12.3.2024\n1 Jan Novak - Petr Kral 61.2\n2 Top - Ivan Horak 55.0\n"
                    b"3 Eva Dvorakova - Jana Cerna 40.1\n", source="x.txt")


def test_a_game_list_naming_a_player_twice_in_a_round_keeps_both_games() -> None:
    """Each row of a game list is a game: a page that lists a player in two games of one round
    (a slip of the page) gives both games as written, where a cross table's halves would
    contradict each other."""
    page = _GAME_LIST.replace(
        "<tr><td>Morris, Trevor 7D</td><td>Osman, Eric 2D</td><td>5</td><td>0</td><td>White</td>"
        "</tr></table>",
        "<tr><td>Morris, Trevor 7D</td><td>Osman, Eric 2D</td><td>5</td><td>0</td><td>White</td>"
        "</tr><tr><td>Lu, Ke 5D</td><td>Osman, Eric 2D</td><td>2</td><td>0</td><td>Black</td>"
        "</tr></table>")
    result = parse_bytes(page.encode(), source="wmgc.html")
    assert len(result.events) == 5
    assert sum(e.round == 2 for e in result.events) == 3


def test_a_text_line_splits_into_names_and_numbers_word_by_word() -> None:
    """The numbers at the end of a tight print's cell are read word by word from the end
    (linear in the cell, however long a run of digits a damaged page holds)."""
    from parsers.text_ranking import _apart

    assert _apart("Temistocle Andarache 62.2 38.9") == ["Temistocle Andarache", "62.2", "38.9"]
    assert _apart("94.6 59.1 0") == ["94.6", "59.1", "0"]
    assert _apart("Kowalski - Nowak +3-1 55%") == ["Kowalski - Nowak", "+3-1", "55%"]
    assert _apart("Room 12 Smith 40") == ["Room 12 Smith 40"]  # a digit in the text: one cell
    assert _apart("- 12 13") == ["- 12 13"]  # no letter before the numbers
    digits = "1" * 20_000
    assert _apart(f"Smith {digits}x") == [f"Smith {digits}x"]
    assert _apart(f"Smith {digits}") == ["Smith", digits]


def test_a_workbook_is_opened_once_for_detection_and_reading(monkeypatch: pytest.MonkeyPatch,
                                                             ) -> None:
    """Detection (the spreadsheet and preferans readers) and reading ask for the same
    workbook's sheets: it is opened once."""
    from parsers import parse_bytes, spreadsheet

    data = (Path(__file__).resolve().parents[1] / "fixtures" / "spreadsheet"
            / "initials-columns.xlsx").read_bytes()
    opened: list[int] = []
    real = spreadsheet._read_sheets_once

    def counting(*args: object, **kwargs: object) -> object:
        opened.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(spreadsheet, "_read_sheets_once", counting)
    spreadsheet._READ.clear()
    parse_bytes(data, source="results.xlsx")
    assert len(opened) == 1
