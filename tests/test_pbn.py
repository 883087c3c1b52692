"""PBN: BridgeComposer's recap in a comment, the TotalScoreTable, names and ranks as written."""

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
    ParseError,
    ParseResult,
    UnsupportedVariant,
    detect_format,
)
from parsers import pbn
from parsers._places import WrittenPlace

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PBN = FIXTURES / "pbn"
SAMPLE = (PBN / "bridgecomposer_club_game.pbn").read_bytes()
TOTALS = (PBN / "totalscoretable-imp-ties-sections.pbn").read_bytes()

HEADER = '% PBN 2.1\n[Event "Club Pairs"]\n[Site "Test Club"]\n[Date "2024.05.07"]\n[Board "1"]\n'


def _parse(text: str, *, strict: bool = False) -> ParseResult:
    return pbn.parse(text.encode("utf-8"), source="/inbox/test.pbn", strict=strict)


def _table(spec: str, *rows: str, header: str = HEADER) -> str:
    return header + f'[TotalScoreTable "{spec}"]\n' + "\n".join(rows) + "\n"


# --- the real sample: recap in a comment ----------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> ParseResult:
    return pbn.parse(SAMPLE, source=str(PBN / "bridgecomposer_club_game.pbn"), strict=True)


def test_sample_events_from_the_recap(sample: ParseResult) -> None:
    assert sample.format == "pbn"
    a, b = sample.events
    assert (a.section, b.section) == ("A NS", "B NS")
    for event in (a, b):
        assert event.title == "Placeholder Monday Pairs"
        assert event.date == dt.date(2026, 3, 9)
        assert event.organiser == "Placeholder Bridge Center"
        assert (event.kind, event.scoring, event.boards) == ("pairs", "MP", 2)
    assert sample.issues == ()


def test_sample_units(sample: ParseResult) -> None:
    a, b = sample.events
    assert [(u.place, u.label, u.score) for u in a.units] == [(1.0, "1", 83.33), (2.0, "2", 50.0)]
    assert [p.name for p in a.units[0].players] == ["Ann Alfa", "Bob Bravo"]
    assert [p.name for p in a.units[1].players] == ["Cyd Echo", "Dan Foxtrot"]
    assert [p.name for p in b.units[1].players] == ["Gil Mike", "Hal November"]
    assert b.units[1].score == 16.67


def test_registry_picks_pbn() -> None:
    assert detect_format(SAMPLE, "club_game.pbn").name == "pbn"
    assert FORMATS["pbn"].parse.__wrapped__ is pbn.parse  # served through the gate


# --- the hand-made TotalScoreTable ----------------------------------------------------------


def test_total_score_table_sections_ties_and_imps() -> None:
    result = pbn.parse(TOTALS, source="totalscoretable-imp-ties-sections.pbn", strict=True)
    a, b = result.events
    assert (a.section, b.section) == ("A", "B")
    assert a.scoring == b.scoring == "IMP"
    assert a.title == "Turniej klubowy na maksy IMP"
    assert a.organiser == "Klub Brydżowy Łącznik, Kraków"
    assert a.date == dt.date(2024, 2, 6)
    assert a.boards == 3
    assert [u.place for u in a.units] == [1.0, 2.0, 3.5, 3.5, 5.0]
    assert [u.place_text for u in a.units[2:4]] == ["3=", "3="]
    assert [u.place for u in b.units] == [1.0, 2.5, 2.5, 4.0, 5.0]
    assert a.units[0].score == 24.5 and a.units[4].score == -38.5


def test_total_score_table_names() -> None:
    a, b = pbn.parse(TOTALS).events
    assert [p.name for p in a.units[0].players] == ["Anna Nowak-Kowalska", "Jan Kowal"]
    assert [p.name for p in a.units[1].players] == ["Kowalczyk", "Zieliński"]
    assert [p.name for p in a.units[3].players] == ["Łukasz Dąbrowski", "Zofia Dąbrowska"]
    assert [p.name for p in a.units[4].players] == ["Szymańska", "Woźniak"]
    assert b.units[4].players == ()  # PHANTOM, ranked: kept without players


def test_direction_column_with_two_winners_splits() -> None:
    text = _table(
        "Rank\\2R;PairId\\2R;Table\\2R;Direction\\5R;TotalScoreMP\\5R;TotalPercentage\\5R;"
        "Names\\40L",
        ' 1  1  1 NS 130.0 60.19 "Anna Nowak - Jan Kowal"',
        ' 2  2  2 NS 100.0 46.30 "Ewa Mazur - Piotr Wróbel"',
        ' 1  3  1 EW 120.0 55.56 "Jan Zając - Maria Król"',
        ' 2  4  2 EW  90.0 41.67 "Ola Bąk - Adam Lis"',
    )
    ns, ew = _parse(text, strict=True).events
    assert (ns.section, ew.section) == ("NS", "EW")
    assert ns.scoring == "MP"
    assert [u.score for u in ns.units] == [60.19, 46.3]
    assert [u.label for u in ew.units] == ["3", "4"]


def test_team_and_individual_ids_set_the_kind() -> None:
    teams = _table("Rank;TeamId;TotalScoreVP;Names", '1 7 55.5 "Nowak, Kowal, Mazur, Lis"')
    (event,) = _parse(teams).events
    assert (event.kind, event.scoring) == ("teams", "VP")
    assert [p.name for p in event.units[0].players] == ["Nowak", "Kowal", "Mazur", "Lis"]
    single = _table("Rank;PlayerId;TotalPercentage;Names", '1 3 58.0 "Anna Nowak-Kowalska"')
    (event,) = _parse(single).events
    assert event.kind == "individual"
    assert [p.name for p in event.units[0].players] == ["Anna Nowak-Kowalska"]


def test_rows_out_of_rank_order_are_sorted() -> None:
    text = _table("Rank;PairId;TotalPercentage;Names",
                  '2 1 45.0 "A-B"', '1 2 55.0 "C-D"')
    (event,) = _parse(text, strict=True).events
    assert [u.label for u in event.units] == ["2", "1"]


# --- names and ranks ------------------------------------------------------------------------


@pytest.mark.parametrize(("written", "kind", "names"), [
    ("Alfa-Bravo", "pairs", ["Alfa", "Bravo"]),
    ("Anna Nowak-Kowalska - Jan Kowal", "pairs", ["Anna Nowak-Kowalska", "Jan Kowal"]),
    ("Jan Nowak-Kowalski", "pairs", ["Jan Nowak-Kowalski"]),
    ("Novák/Kováč", "pairs", ["Novák", "Kováč"]),
    ("Novák J. – Kováč P.", "pairs", ["Novák J.", "Kováč P."]),
    ("Ann Lee & Bo Kim", "pairs", ["Ann Lee", "Bo Kim"]),
    ("Nowak-Kowalska", "individual", ["Nowak-Kowalska"]),
    ("Nowak, Kowal, Mazur", "teams", ["Nowak", "Kowal", "Mazur"]),
    ("Smith, J - Jones, K", "pairs", ["Smith, J", "Jones, K"]),
    ("A-B-C", "pairs", ["A-B-C"]),
    ("", "pairs", []),
])
def test_split_names(written: str, kind: str, names: list[str]) -> None:
    assert pbn.split_names(written, kind) == names  # type: ignore[arg-type]


def test_read_ranks_ties_and_strats() -> None:
    ranks = pbn.read_ranks(["1", "2/1", "3/4", "3/4", "5-6", "5-6", "7=", "", "=9"])
    assert ranks == [
        (WrittenPlace(1, 1), ()), (WrittenPlace(2, 2), (1,)), (WrittenPlace(3, 4), ()),
        (WrittenPlace(3, 4), ()), (WrittenPlace(5, 6), ()), (WrittenPlace(5, 6), ()),
        (WrittenPlace(7, 7), ()), (None, ()), (WrittenPlace(9, 9), ()),
    ]
    # a lone "3/4" is not a tie (nobody shares it): place 3, strat-B rank 4
    assert pbn.read_ranks(["3/4"]) == [(WrittenPlace(3, 3), (4,))]
    with pytest.raises(ValueError):
        pbn.read_ranks(["x"])


# --- errors ---------------------------------------------------------------------------------


def test_pbn_without_a_ranking_is_unsupported() -> None:
    deal = "N:KT9.QJ87.KJ75.Q3 8432.T654.982.J6 J.A93.AQ43.AK972 AQ765.K2.T6.T854"
    text = HEADER + f'[Deal "{deal}"]\n'
    with pytest.raises(UnsupportedVariant) as info:
        _parse(text)
    assert info.value.file == "test.pbn"


def test_no_date_is_malformed() -> None:
    header = '% PBN 2.1\n[Event "Club Pairs"]\n[Date "2024.??.??"]\n[Board "1"]\n'
    with pytest.raises(MalformedFile) as info:
        _parse(_table("Rank;PairId;TotalPercentage;Names", '1 1 55 "A-B"', header=header))
    assert info.value.column == "Date"


def test_invalid_rank_names_line_and_column() -> None:
    text = _table("Rank;PairId;TotalPercentage;Names", '1 1 55 "A-B"', 'x 2 45 "C-D"')
    with pytest.raises(MalformedFile) as info:
        _parse(text)
    assert (info.value.row, info.value.column, info.value.value) == ("line 8", "Rank", "x")
    assert info.value.table == "TotalScoreTable at line 6"


def test_row_with_missing_values_is_skipped_with_a_warning() -> None:
    text = _table("Rank;PairId;TotalPercentage;Names", '1 1 55 "A-B"', '2 2 "C-D"')
    result = _parse(text)
    assert result.events[0].n_units == 1
    (issue,) = result.issues
    assert issue.level == "warning" and "line 8" in issue.where
    with pytest.raises(MalformedFile):
        _parse(text, strict=True)


def test_tied_ranks_with_different_scores_is_inconsistent_when_strict() -> None:
    text = _table("Rank;PairId;TotalPercentage;Names", '1= 1 55 "A-B"', '1= 2 45 "C-D"')
    assert _parse(text).issues[0].level == "warning"
    with pytest.raises(InconsistentResult):
        _parse(text, strict=True)


# --- detection and robustness ---------------------------------------------------------------


def test_detect() -> None:
    assert pbn.detect(SAMPLE) and pbn.detect(TOTALS)
    assert pbn.detect(b'[Event "x"]\n[Board "1"]\n[Deal "N:..."]\n')
    assert not pbn.detect(b"<html><body>[Event \"x\"]</body></html>")
    assert not pbn.detect(b"organiser,event,date\n")
    assert not pbn.detect((FIXTURES / "usebio" / "cobalt_mp_pairs_howell.xml").read_bytes())


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([SAMPLE[:1800], TOTALS]), st.integers(min_value=0),
       st.integers(0, 255), st.booleans())
def test_truncations_and_byte_flips_only_raise_parse_errors(
    data: bytes, position: int, byte: int, truncate: bool,
) -> None:
    position %= len(data)
    mutated = data[:position] if truncate else data[:position] + bytes([byte]) + data[position + 1:]
    try:
        result = pbn.parse(mutated, source="mutated.pbn")
    except ParseError:
        return
    assert isinstance(result, ParseResult)


# --- column layouts as the programs write them ---------------------------------------------


def test_sort_marks_percentage_and_mp_columns_and_semicolon_names() -> None:
    text = _table(
        "Rank\\3R;PairId\\5R;Names\\45;Center\\3L;NrBoards\\3R;MP\\7R;+Percentage\\6R",
        '  1   581 "Sergey Ostrikov      ;Oleg Odintsev        " OMS  20  1449.8  72.49',
        '  2    42 "Robert Covill        ;Eva Turner           " BRI  24  1625.4  67.73',
        '  -   433 "Dick Orr             ;Barbara Ryan         " SYD  26  1356.6  67.73',
    )
    (event,) = _parse(text, strict=True).events
    assert (event.kind, event.scoring) == ("pairs", "MP")
    assert [u.score for u in event.units] == [72.49, 67.73, 67.73]
    assert [u.place for u in event.units] == [1.0, 2.5, 2.5]
    assert [p.name for p in event.units[0].players] == ["Sergey Ostrikov", "Oleg Odintsev"]
    assert {p.club for u in event.units for p in u.players} == {"OMS", "BRI", "SYD"}


def test_generic_score_column_takes_the_scoring_tag() -> None:
    header = HEADER.replace('[Board "1"]', '[Scoring "##IMP"]\n[Board "1"]')
    text = _table("Rank\\3R;Names\\17L;+MeanScore\\5R;NrBoards\\2R",
                  '  1 Nowak/Kowal   3.01 23', '  2 Mazur/Lis     2.86 24', header=header)
    (event,) = _parse(text, strict=True).events
    assert event.scoring == "IMP"
    assert [u.label for u in event.units] == ["", ""]
    assert [p.name for p in event.units[1].players] == ["Mazur", "Lis"]


@pytest.mark.parametrize(("tag", "scoring"), [
    ("MP", "MP"), ("MatchPoints", "MP"), ("IMP;Butler", "IMP"), ("Butler", "IMP"),
    ("Cross-IMPs", "IMP"), ("BAM", "BAM"), ("VP", "VP"), ("Rubber", "unknown"),
])
def test_scoring_tag(tag: str, scoring: str) -> None:
    header = HEADER.replace('[Board "1"]', f'[Scoring "{tag}"]\n[Board "1"]')
    text = _table("Rank;PairId;TotalScore;Names", '1 1 55 "A - B"', '2 2 45 "C - D"',
                  header=header)
    assert _parse(text).events[0].scoring == scoring


def test_separate_name_id_and_club_columns() -> None:
    text = _table(
        "Rank;PairId;Name1;Name2;MemberID1;MemberID2;Club1;Club2;TotalPercentage",
        '1 3 "Anna Nowak" "Jan Kowal" 1234 5678 "KB Łącznik" "AZS" 61.2',
        '2 1 "Ewa Mazur" "Piotr Wróbel" 2345 - "AZS" "AZS" 38.8',
    )
    (event,) = _parse(text, strict=True).events
    first, second = event.units
    assert [(p.name, p.federation_id, p.club) for p in first.players] == [
        ("Anna Nowak", "1234", "KB Łącznik"), ("Jan Kowal", "5678", "AZS")]
    assert [p.federation_id for p in second.players] == ["2345", None]


def test_first_and_last_name_columns() -> None:
    text = _table("Rank;PairId;FirstName1;LastName1;FirstName2;LastName2;TotalIMP",
                  '1 1 Anna Nowak Jan Kowal 12', '2 2 Ewa Mazur Piotr Wróbel -12')
    (event,) = _parse(text, strict=True).events
    assert [p.name for p in event.units[0].players] == ["Anna Nowak", "Jan Kowal"]
    assert event.scoring == "IMP"


def test_one_member_id_column_for_the_pair() -> None:
    text = _table("Rank;PairId;Names;MemberIDs;TotalPercentage",
                  '1 1 "Anna Nowak - Jan Kowal" "1234;5678" 55', '2 2 "C Dee - E Eff" - 45')
    (event,) = _parse(text, strict=True).events
    assert [p.federation_id for p in event.units[0].players] == ["1234", "5678"]
    assert [p.federation_id for p in event.units[1].players] == [None, None]


def test_team_name_is_the_label_and_members_are_players() -> None:
    text = _table("Rank;TeamId;TeamName;+TotalScoreVP;Names",
                  '1 4 "Orły" 58.2 "Anna Nowak;Jan Kowal;Ewa Mazur;Piotr Wróbel"',
                  '2 2 "Sokoły" 41.8 "Adam Lis, Ola Bąk, Maria Król, Jan Zając"')
    (event,) = _parse(text, strict=True).events
    assert (event.kind, event.scoring) == ("teams", "VP")
    assert [u.label for u in event.units] == ["Orły", "Sokoły"]
    assert [len(u.players) for u in event.units] == [4, 4]


def test_teams_named_without_players_are_refused() -> None:
    text = _table("Rank;TeamId;TeamName;TotalScoreVP", '1 4 "Orły" 58.2', '2 2 "Sokoły" 41.8')
    with pytest.raises(UnsupportedVariant, match="team names only|teams by their names"):
        _parse(text)


def test_without_a_rank_column_the_scores_rank() -> None:
    text = _table("PairId;Names;TotalScoreIMP", '1 "A - B" -3', '2 "C - D" 12.5',
                  '3 "E - F" 12.5', '4 "G - H" -9.5')
    (event,) = _parse(text, strict=True).events
    assert [(u.label, u.place, u.place_text) for u in event.units] == [
        ("2", 1.5, ""), ("3", 1.5, ""), ("1", 3.0, ""), ("4", 4.0, "")]


def test_neither_rank_nor_score_is_malformed() -> None:
    with pytest.raises(MalformedFile, match="neither a Rank nor a score"):
        _parse(_table("PairId;Names", '1 "A - B"', '2 "C - D"'))


def test_a_table_repeated_in_every_game_is_read_once() -> None:
    table = ('[TotalScoreTable "Rank;PairId;TotalPercentage;Names"]\n'
             '1 1 55 "A - B"\n2 2 45 "C - D"\n')
    text = HEADER + table + '\n[Event "#"]\n[Board "2"]\n' + table
    (event,) = _parse(text, strict=True).events
    assert event.n_units == 2 and event.boards == 2


def test_each_game_gives_its_own_event_and_section() -> None:
    text = (
        '[Event "Pairs A"]\n[Site "Club"]\n[Date "2024.05.07"]\n[Section "A"]\n[Board "1"]\n'
        '[TotalScoreTable "Rank;PairId;TotalPercentage;Names"]\n1 1 55 "A - B"\n2 2 45 "C - D"\n'
        '\n[Event "Pairs B"]\n[Site "#"]\n[Date "#"]\n[Section "B"]\n[Board "1"]\n'
        '[TotalScoreTable "Rank;PairId;TotalPercentage;Names"]\n1 9 60 "E - F"\n2 8 40 "G - H"\n'
    )
    a, b = _parse(text, strict=True).events
    assert [(e.title, e.section, e.organiser, e.date) for e in (a, b)] == [
        ("Pairs A", "A", "Club", dt.date(2024, 5, 7)),
        ("Pairs B", "B", "Club", dt.date(2024, 5, 7)),
    ]


@pytest.mark.parametrize(("written", "date"), [
    ("2024.05.07", dt.date(2024, 5, 7)), ("##2024.05.07", dt.date(2024, 5, 7)),
    ("2024-05-07 17:04", dt.date(2024, 5, 7)), ("2024.5.7", dt.date(2024, 5, 7)),
])
def test_date_forms(written: str, date: dt.date) -> None:
    header = HEADER.replace("2024.05.07", written)
    text = _table("Rank;PairId;TotalPercentage;Names", '1 1 55 "A - B"', '2 2 45 "C - D"',
                  header=header)
    assert _parse(text).events[0].date == date


def test_titles_from_bridgecomposer_directives_and_a_date_in_the_title() -> None:
    header = ('%HRTitleEvent "Tuesday Pairs"\n%HRTitleDate 2025.11.04\n%HRTitleSite "Quay BC"\n'
              '[Event ""]\n[Site ""]\n[Date ""]\n[Board "1"]\n')
    (event,) = _parse(_table("Rank;PairId;TotalPercentage;Names", '1 1 55 "A - B"',
                             '2 2 45 "C - D"', header=header)).events
    assert (event.title, event.date, event.organiser) == (
        "Tuesday Pairs", dt.date(2025, 11, 4), "Quay BC")
    header = '[Event "Turniej par - 8 sierpnia 2013"]\n[Board "1"]\n'
    (event,) = _parse(_table("Rank;PairId;TotalPercentage;Names", '1 1 55 "A - B"',
                             '2 2 45 "C - D"', header=header)).events
    assert event.date == dt.date(2013, 8, 8)


def test_unquoted_names_and_a_blank_rank_at_fixed_width() -> None:
    text = _table("Rank\\2R;PairId\\2R;TotalPercentage\\6R;Names\\40L",
                  " 1  1  55.00 Anna Nowak - Jan Kowal", "    2  55.00 Ewa Mazur - Adam Lis",
                  " 3  3  40.00 Ola Bąk - Jan Zając")
    (event,) = _parse(text, strict=True).events
    assert [u.place for u in event.units] == [1.5, 1.5, 3.0]
    assert [p.name for p in event.units[1].players] == ["Ewa Mazur", "Adam Lis"]


def test_robots_are_not_players() -> None:
    text = _table("Rank;PairId;TotalPercentage;Names", '1 1 55 "Bristol GIB 1;Bristol GIB 2"',
                  '2 2 50 "Anna Nowak - GIB"', '3 3 45 "C Dee - E Eff"')
    event = _parse(text).events[0]
    assert [len(u.players) for u in event.units] == [0, 1, 2]


def test_direction_words_are_normalised() -> None:
    text = _table("Rank;PairId;Direction;TotalPercentage;Names",
                  '1 1 N-S 60 "A - B"', '2 2 N-S 40 "C - D"',
                  '1 3 E-W 58 "E - F"', '2 4 E-W 42 "G - H"')
    assert [e.section for e in _parse(text, strict=True).events] == ["NS", "EW"]


# --- files without a ranking say what they hold --------------------------------------------


def test_refusals_say_what_the_file_holds() -> None:
    deal = '[Deal "N:KT9.QJ87.KJ75.Q3 8432.T654.982.J6 J.A93.AQ43.AK972 AQ765.K2.T6.T854"]\n'
    with pytest.raises(UnsupportedVariant,
                       match=r"^a PBN file of hand records only \(1 deal, no scores\): not a result"):
        _parse(HEADER + deal)
    played = HEADER + deal + '[West "Para-2"]\n[Contract "4H"]\n[Result "9"]\n'
    with pytest.raises(UnsupportedVariant, match="played deals only"):
        _parse(played)
    travellers = HEADER + deal + ('[ScoreTable "Rank\\3R;PairId_NS;PairId_EW;Score_NS"]\n'
                                  '  1 1 2 420\n  2 3 4 -50\n')
    with pytest.raises(UnsupportedVariant, match="travellers only"):
        _parse(travellers)


def test_a_standing_after_each_round_is_read_from_the_last_table() -> None:
    first = ('[TotalScoreTable "Rank;PairId;TotalPercentage;Names"]\n'
             '1 1 60 "A - B"\n2 2 40 "C - D"\n')
    last = ('[TotalScoreTable "Rank;PairId;TotalPercentage;Names"]\n'
            '1 2 55 "C - D"\n2 1 45 "A - B"\n')
    text = HEADER + first + '\n[Event "#"]\n[Board "2"]\n' + last
    result = _parse(text)
    (event,) = result.events
    assert [u.label for u in event.units] == ["2", "1"]
    assert event.section == ""
    assert any("earlier standing" in i.message for i in result.issues)


def test_an_empty_rank_column_is_ranked_by_the_scores() -> None:
    text = _table("Rank;PairId;TotalPercentage;Names", '- 1 45 "A - B"', '- 2 55 "C - D"')
    (event,) = _parse(text, strict=True).events
    assert [(u.label, u.place, u.place_text) for u in event.units] == [("2", 1.0, ""),
                                                                       ("1", 2.0, "")]
