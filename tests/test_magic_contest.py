"""Magic Contest result pages (parsers/magic_contest.py): detection, layouts, ties, refusals."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from parsers import FORMATS, MalformedFile, ParseError, UnsupportedVariant, detect_format, \
    parse_bytes
from parsers.magic_contest import detect

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "real" / "magic_contest"

_HEAD = """<HTML>
<HEAD>
	<TITLE>{date} &nbsp;{name}</TITLE>
	<META  name=Generator                  content="Magic Contest">
	<META  name=Version                    content="4.8">
	<META  name=Author                     content="www.brenning.se">
	<META  name=Arranger                   content="Circolo Bridge Lecco">
	<META  name=ContestDate                content="{date}">
	<META  name=ContestName                content="{name}">
	<META  name=ScoringType                content="{scoring}">
	<META  name=BoardCount                 content="24">
</HEAD>
<BODY>
	<FONT face='Verdana, Arial, Helvetica' size=4>
		<B>{date} &nbsp;{name}</B>
	</FONT>
<PRE>
"""

_TRAVELLERS = """<a name='scoretables'>
-------------------------------------------------------------------------------------------------------------

Board:  1                                    Board:  2
 Pair  Contr    Ld    Result     Score        Pair  Contr    Ld    Result     Score
 6  2  5H  N -1 SK       -50   12,0 -12,0     3  1  5C  W  = D2      -600    1,0  -1,0
 5 --                    Bye    0,1           5 --                    Bye    0,1
</PRE>
</BODY>
</HTML>
"""

_BUTLER = """4 tables, 8 pairs. Number of boards: 28. Butler IMPs (datum score).
Average+/=/- awards 1,5 / 0,0 / -1,5 IMP(s) per board.

Rank  Pair  Score  Name                                      M-ID

   1     4     80  Titus Ceia - Razvan Constantinescu      +81  +70
   2     7     25  Andrei Rugina - Ciresica Alexandrescu  +135 +126
   3     6     14  Temistocle Andarache - Ionica Loghin     +9  +10
   4     3      0  Adrian Filiimon - Andrei Piroi           +5   +4
   4     2      0  Bogdan Nutescu - Stefan Iancu            +3  +22

   6     8     -3  Romeo Olteanu - Adrian Zavloschi         +2   +1
   7     1    -34  Dorin Iorgu - Cristian  Chertic         +14  +73
   8     5    -82  Gabi Barbir - Liviu Simiuc              +74  +17
"""


def _page(ranking: str, *, date: str = "2016-04-11", name: str = "Torneo del lunedi",
          scoring: str = "IMP;Butler-2;Mean", travellers: bool = True,
          encoding: str = "cp1252") -> bytes:
    text = _HEAD.format(date=date, name=name, scoring=scoring) + ranking
    text += _TRAVELLERS if travellers else "</PRE>\n</BODY>\n</HTML>\n"
    return text.replace("\n", "\r\n").encode(encoding)


def _parse(data: bytes, **kwargs: object):  # noqa: ANN202 - the gated ParseResult
    return parse_bytes(data, source="page.htm", **kwargs)  # type: ignore[arg-type]


# --- detection --------------------------------------------------------------------------------


def test_detects_the_generator_mark_and_no_other_format_claims_the_page() -> None:
    data = _page(_BUTLER)
    assert detect(data)
    assert detect_format(data, "page.htm").name == "magic_contest"
    assert not FORMATS["bridgecomposer_recap"].detect(data, "page.htm")


def test_detects_the_credit_with_the_ranking_header_without_meta_tags() -> None:
    data = ("<html><body><pre>\n" + _BUTLER + "</pre>\n<p>Magic Contest 4.8</p></body></html>"
            ).encode()
    assert detect(data)


def test_a_bare_pre_ranking_without_the_programs_marks_is_not_claimed() -> None:
    data = ("<html><body><pre>\n" + _BUTLER + "</pre></body></html>").encode()
    assert not detect(data)
    assert not detect(b"Rank  Pair  Score  Name\n   1     4     80  A B - C D\n")


# --- layouts ----------------------------------------------------------------------------------


def test_butler_pairs_read_with_a_repeated_rank_tie() -> None:
    result = _parse(_page(_BUTLER))
    (event,) = result.events
    assert event.format == "magic_contest"
    assert (event.kind, event.scoring, event.boards) == ("pairs", "IMP", 28)
    assert event.date == dt.date(2016, 4, 11)
    assert event.title == "Torneo del lunedi"
    assert event.organiser == "Circolo Bridge Lecco"
    assert [u.place for u in event.units] == [1, 2, 3, 4.5, 4.5, 6, 7, 8]
    assert [u.label for u in event.units] == ["4", "7", "6", "3", "2", "8", "1", "5"]
    assert event.units[0].score == 80 and event.units[-1].score == -82
    assert [p.name for p in event.units[6].players] == ["Dorin Iorgu", "Cristian Chertic"]
    # +N are the club's local numbers, not federation ids
    assert all(p.federation_id is None for u in event.units for p in u.players)


def test_mp_percent_column_is_the_score_and_an_empty_rank_ties_with_the_row_above() -> None:
    ranking = """5 tables, 4 pairs, 1 phantom pair. Number of boards: 27. Average: 81,0. Bye (*) awards recorded percentage.

Rank  Pair  Score       %  Tie  Name                                    M-ID

   1    10  103,5 *  63,9       Adrian Zavloschi - Romeo Olteanu       +1  +2
   2     4   90,0 *  55,6       Temistocle Andarache - Ionica Loghin   +9 +10
         9   90,0 *  55,6       Tiberiu Panaite - Remus Preda         +68 +75
   4     5   51,8 *  31,9  2    Adrian Filiimon - Stefan Iancu         +5 +22
"""
    (event,) = _parse(_page(ranking, scoring="MatchPoints;MP1")).events
    assert event.scoring == "MP" and event.boards == 27
    assert [u.score for u in event.units] == [63.9, 55.6, 55.6, 31.9]
    assert [u.place for u in event.units] == [1, 2.5, 2.5, 4]
    assert [u.place_text for u in event.units] == ["1", "2", "", "4"]


def test_cross_imps_count_column_marks_member_numbers_and_clubs() -> None:
    ranking = """4 tables, 4 pairs. Number of boards: 28. IMPs across the field.
Total score levelled - some pairs (\xab) have played fewer boards than others.

Rank  Pair  Score    Name                                     Count      M-ID    Club

   1     4   56,0    Virgil Cluci - Valentin Grosu               28    703  +33  Iasi
   2     8   43,0    Adrian Zavloschi - Bogdan Nutescu           28    913  509  Iasi - Bacau
   3     6   20,0    Chertic Ion Cristian - Gabi Barbir          28        +74
   4     2  -35,3 \xab  Toader Prisecaru - Nicolae Blidarus         27 \xab  +25 +15
"""
    (event,) = _parse(_page(ranking, scoring="IMP;Cross")).events
    assert event.scoring == "IMP"
    first, second, third, fourth = event.units
    assert [(p.name, p.federation_id, p.club) for p in first.players] == [
        ("Virgil Cluci", "703", "Iasi"), ("Valentin Grosu", None, "Iasi")]
    assert [(p.federation_id, p.club) for p in second.players] == [("913", "Iasi"),
                                                                    ("509", "Bacau")]
    assert [p.name for p in third.players] == ["Chertic Ion Cristian", "Gabi Barbir"]
    assert [p.name for p in fourth.players] == ["Toader Prisecaru", "Nicolae Blidarus"]
    assert fourth.score == -35.3


def test_mitchell_gives_one_event_per_direction() -> None:
    ranking = """4 tables, 8 pairs. Number of boards: 24. Average: 36,0.

North-South

Rank  Pair  Score       %  Name                                M-ID

   1     1   40,0    55,6  Anna Rossi - Marco Bianchi        +1  +2
   2     2   36,0    50,0  Luca Verdi - Paolo Neri           +3  +4
   3     3   33,0    45,8  Sara Gallo - Piero Conti          +5  +6
   4     4   31,0    43,1  Gino Ricci - Elena Costa          +7  +8

East-West

Rank  Pair  Score       %  Name                                M-ID

   1    11   44,0    61,1  Franco Greco - Laura Bruno        +9 +10
   2    12   36,0    50,0  Mario Lodi - Carla Fabbri        +11 +12
   3    13   32,0    44,4  Dario Fo - Lina Sala             +13 +14
   4    14   32,0    44,4  Ugo Tessa - Rita Pini            +15 +16
"""
    events = _parse(_page(ranking, scoring="MatchPoints;MP1")).events
    assert [e.section for e in events] == ["North-South", "East-West"]
    assert [len(e.units) for e in events] == [4, 4]
    assert events[1].units[0].players[0].name == "Franco Greco"
    assert all(e.scoring == "MP" for e in events)


def test_individual_ranking_keeps_one_player_per_row() -> None:
    ranking = """2 tables, 8 players. Number of boards: 21. Average: 30,0.

Rank  Player  Score       %  Name                          M-ID

   1       3   38,0    63,3  Anna Rossi                    +1
   2       5   33,0    55,0  Marco Bianchi                 +2
   3       1   31,0    51,7  Luca Verdi                    +3
   4       2   30,0    50,0  Paolo Neri                    +4
   5       8   29,0    48,3  Sara Gallo                    +5
   6       4   27,0    45,0  Piero Conti                   +6
   7       6   25,0    41,7  Gino Ricci                    +7
   8       7   23,0    38,3  Elena Costa                   +8
"""
    (event,) = _parse(_page(ranking, scoring="MatchPoints;MP1")).events
    assert event.kind == "individual"
    assert [len(u.players) for u in event.units] == [1] * 8
    assert event.units[0].players[0].name == "Anna Rossi"


def test_a_note_below_the_ranking_ends_it() -> None:
    (event,) = _parse(_page(_BUTLER + "\nScores adjusted by the director.\n")).events
    assert len(event.units) == 8


def test_windows_1252_names_are_read_as_written() -> None:
    ranking = _BUTLER.replace("Titus Ceia", "Nicol\xf2 Ferr\xe0")
    (event,) = _parse(_page(ranking)).events
    assert event.units[0].players[0].name == "Nicol\xf2 Ferr\xe0"


def test_the_programs_contest_date_is_taken_and_another_date_in_the_name_noted() -> None:
    result = _parse(_page(_BUTLER, date="2016-04-11", name="2016-04-10"))
    assert result.events[0].date == dt.date(2016, 4, 11)
    assert result.events[0].title == "2016-04-10"
    assert any(i.level == "info" and "2016-04-10" in i.message for i in result.issues)


# --- refusals ---------------------------------------------------------------------------------


def test_a_page_with_score_tables_only_is_refused_in_one_line() -> None:
    data = _page("4 tables, 8 pairs. Number of boards: 28.\n\n")
    with pytest.raises(MalformedFile, match="no ranking") as raised:
        _parse(data)
    assert "\n" not in str(raised.value)


def test_a_ranking_cut_short_is_refused() -> None:
    cut = _BUTLER.split("   6     8")[0]
    with pytest.raises(MalformedFile, match="5 of the 8 pairs"):
        _parse(_page(cut))


def test_a_row_running_into_the_score_tables_is_refused() -> None:
    cut = _BUTLER.split("   6     8")[0] + \
        "   6     8     -3  Romeo Olteanu - Adrian Zav  Contr    Ld    Result     Score\n"
    with pytest.raises(MalformedFile, match="runs into the id columns"):
        _parse(_page(cut, travellers=False))


def test_a_ranking_before_play_is_refused() -> None:
    zero = """3 tables, 4 pairs. IMPs across the field.

Rank  Pair  Score  Name                                    M-ID

   1     1      0  Nicolae Blidarus - Teodor Prisecaru   +15 +32
         2      0  Temistocle Andarache - Ionica Loghin   +9 +10
         3      0  Luigi Matoianu - Gheorghe Chipail      +6  +7
         4      0  Ionut Waszkiewicz - Iulian Simiuc     +29 +28
"""
    with pytest.raises(MalformedFile, match="every score"):
        _parse(_page(zero))


def test_a_teams_ranking_is_refused() -> None:
    ranking = """4 tables, 4 teams. Number of boards: 24. IMPs converted to VPs.

Rank  Team  Score  Name                                  M-ID

   1     2     58  Squadra Rossi
   2     1     52  Squadra Bianchi
"""
    with pytest.raises(UnsupportedVariant, match="teams"):
        _parse(_page(ranking))


# --- every fixture --------------------------------------------------------------------------

_TRAVELLER_WORDS = re.compile(r"\b(?:Contr|Ld|Result|Score|Board|Bye|Pair)\b|\d")


def _fixture_pages() -> list[Path]:
    return sorted(p for p in FIXTURES.iterdir() if p.suffix in (".htm", ".html"))


@pytest.mark.parametrize("path", _fixture_pages(), ids=lambda p: p.name)
def test_no_traveller_row_becomes_a_player(path: Path) -> None:
    data = path.read_bytes()
    assert detect_format(data, path.name).name == "magic_contest"
    try:
        result = parse_bytes(data, source=path.name)
    except ParseError as exc:
        assert "\n" not in str(exc)
        return
    text = data.decode("cp1252")
    ranking = text[: text.index("scoretables'>", text.index("<PRE>"))]
    ranked_rows = [line for line in ranking.splitlines() if re.match(r"^\s*\d*\s+\d+\s+-?\d", line)]
    for event in result.events:
        assert len(event.units) == len(ranked_rows)
        for unit in event.units:
            for player in unit.players:
                assert not _TRAVELLER_WORDS.search(player.name), player
                assert player.name in " ".join(ranking.split())


def test_fixture_goldens_record_the_expected_refusals() -> None:
    refused = {p.name for p in FIXTURES.glob("*.expected.json")
               if "error" in json.loads(p.read_text(encoding="utf-8"))}
    assert refused == {"magic-contest-4-6-before-play-all-zero-refused.expected.json",
                       "magic-contest-4-6-ranking-cut-short-refused.expected.json"}
