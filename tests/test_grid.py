"""The shared table logic of the generic formats: headers, layouts, sections, names, heading."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest

from parsers import InconsistentResult, MalformedFile
from parsers._grid import (
    GridEvents,
    column_letter,
    grid_from_texts,
    has_results_header,
    header_columns,
    read_grid,
    read_heading,
    scoring_of,
    split_names,
)
from parsers._issues import IssueLog


def _read(rows: Sequence[Sequence[str]], *, name: str = "Hárok1", source: str = "t.xlsx",
          strict: bool = False, merged: frozenset[tuple[int, int]] = frozenset(),
          ) -> tuple[GridEvents, IssueLog]:
    log = IssueLog(file=source, strict=strict)
    found = read_grid(grid_from_texts(name, rows, merged=merged), fmt="spreadsheet", log=log,
                      source=source)
    assert found is not None
    return found, log


HEAD = [["Klubový turnaj", "", "", ""], ["12.3.2012", "", "", ""]]


# --- headers --------------------------------------------------------------------------------


@pytest.mark.parametrize("place", ["POR", "Por.", "Poradie", "Miesto", "Umístění", "m-ce",
                                   "miejsce", "Place", "Rank", "Pos", "Poř."])
@pytest.mark.parametrize("names", ["Meno", "Mená", "Jméno", "Hráči", "Nazwisko", "Names",
                                   "Player(s)", "Hráč 1"])
def test_header_synonyms(place: str, names: str) -> None:
    columns = header_columns([place, "Pár č.", names, "Klub", "%"])
    assert columns is not None
    assert (columns.place, columns.unit, columns.names, columns.club, columns.score) == \
        (0, 1, (2,), 3, 4)


@pytest.mark.parametrize("unit", ["Pár", "Pár č.", "Nr", "Pair", "Team", "Družstvo", "Drużyna"])
def test_unit_synonyms(unit: str) -> None:
    columns = header_columns(["Por.", unit, "Mená", "Body"])
    assert columns is not None and columns.unit == 1


def test_not_a_header() -> None:
    assert header_columns(["Klubový turnaj", "12.3.2012"]) is None
    assert header_columns(["Meno", "Klub"]) is None  # no place and no score
    assert header_columns(["Place", "Name", "Club", "MMS", "SOS"]) is None  # a go table


@pytest.mark.parametrize(("header", "scoring"), [
    ("%", "MP"), ("Body %", "MP"), ("MP", "MP"), ("IMP", "IMP"), ("IMP spolu", "IMP"),
    ("VP", "VP"), ("Body", "unknown"), ("Pkt", "unknown"), ("Score", "unknown"),
])
def test_scoring_from_the_score_header(header: str, scoring: str) -> None:
    assert scoring_of(header) == scoring


def test_of_several_score_columns_percent_beats_points_and_vp_beats_imp() -> None:
    columns = header_columns(["Por.", "Meno", "Body", "%"])
    assert columns is not None and columns.score == 3
    columns = header_columns(["Por.", "Družstvo", "VP", "IMP"])
    assert columns is not None and columns.score == 2 and columns.scoring == "VP"


def test_column_letters() -> None:
    assert [column_letter(i) for i in (0, 2, 25, 26, 27, 701, 702)] == \
        ["A", "C", "Z", "AA", "AB", "ZZ", "AAA"]


# --- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "names"), [
    ("Novák Ján - Kováč Peter", ["Novák Ján", "Kováč Peter"]),
    ("Novák/Kováč", ["Novák", "Kováč"]),
    ("Novák J. – Kováč P.", ["Novák J.", "Kováč P."]),
    ("Nowak-Kowalska Anna - Zięba Piotr", ["Nowak-Kowalska Anna", "Zięba Piotr"]),
    ("Kiss Gábor, Szőke Zoltán; Győri Ödön", ["Kiss Gábor", "Szőke Zoltán", "Győri Ödön"]),
    ("Dvořák + Procházka", ["Dvořák", "Procházka"]),
    ("Šoltés Tibor\nŤapák Ľudovít", ["Šoltés Tibor", "Ťapák Ľudovít"]),
    ("Jan Nowak-Kowalski", ["Jan Nowak-Kowalski"]),
])
def test_split_names(text: str, names: list[str]) -> None:
    assert split_names(text) == (names, False)


@pytest.mark.parametrize(("text", "names"), [
    ("JNo-PKo", ["JNo", "PKo"]), ("JNo PKo", ["JNo", "PKo"]), ("ĽVa-ŠTó", ["ĽVa", "ŠTó"]),
    ("JNo", ["JNo"]), ("AHr-TKr-ĽMi", ["AHr", "TKr", "ĽMi"]), ("DŽi/RFi", ["DŽi", "RFi"]),
])
def test_initials(text: str, names: list[str]) -> None:
    assert split_names(text) == (names, True)


@pytest.mark.parametrize("text", ["Ján Novák", "JNO-PKO", "Jno-Pko", "NOVÁK J.", "J. Novák"])
def test_not_initials(text: str) -> None:
    assert split_names(text)[1] is False


# --- heading --------------------------------------------------------------------------------


def test_heading_fields() -> None:
    heading = read_heading([
        "Klubový turnaj párov", "Organizátor: BK Senec", "12. marca 2012, 24 rozdaní",
        "Skupina A",
    ])
    assert heading.title == "Klubový turnaj párov"
    assert heading.date == dt.date(2012, 3, 12)
    assert heading.organiser == "BK Senec"
    assert heading.boards == 24
    assert heading.section == "Skupina A"


def test_heading_organiser_from_the_date_line_and_date_labels() -> None:
    heading = read_heading(["Turnaj párů", "BK Praha, 2012-03-12"])
    assert (heading.title, heading.organiser, heading.date) == \
        ("Turnaj párů", "BK Praha", dt.date(2012, 3, 12))
    heading = read_heading(["Dátum: 12.3.2012", "Turnaj"])
    assert (heading.title, heading.organiser) == ("Turnaj", "")


# --- rows layout ----------------------------------------------------------------------------


def test_rows_layout_with_ties_decimal_commas_and_clubs() -> None:
    found, log = _read([
        *HEAD, [],
        ["Por.", "Pár", "Meno", "Klub", "%"],
        ["1", "3", "Novák Ján - Kováč Peter", "BK Senec", "56,43 %"],
        ["2-3", "1", "Horváth M. – Tóth Š.", "BK Nitra\nBK Senec", "50"],
        ["2-3", "2", "Varga/Baláž", "", "50,0"],
        ["", "4", "Kučera - Slovák", "", "43,57"],
    ])
    (event,) = found.events
    assert event.date == dt.date(2012, 3, 12)
    assert event.title == "Klubový turnaj"
    assert (event.kind, event.scoring) == ("pairs", "MP")
    assert [u.place for u in event.units] == [1.0, 2.5, 2.5, 2.5]
    assert [u.score for u in event.units] == [56.43, 50.0, 50.0, 43.57]
    assert [p.club for p in event.units[1].players] == ["BK Nitra", "BK Senec"]
    assert [p.club for p in event.units[0].players] == ["BK Senec", "BK Senec"]
    # the blank place joins the 2-3 tie (three units share a range of two): a warning
    assert [i.level for i in log.issues] == ["warning", "warning"]


def test_blank_place_ties_with_the_row_above() -> None:
    found, _ = _read([*HEAD, ["Por.", "Meno", "%"], ["1", "A - B", "60"], ["", "C - D", "60"],
                      ["3", "E - F", "40"]])
    assert [u.place for u in found.events[0].units] == [1.5, 1.5, 3.0]


def test_sections_repeated_header_and_totals() -> None:
    header = ["Por.", "Pár", "Mená", "%"]
    found, log = _read([
        *HEAD, ["Skupina A"], header, ["1", "1", "A - B", "55"], header,
        ["2", "2", "C - D", "45"], ["Spolu", "", "", "100"], [],
        ["Skupina B"], header, ["1", "11", "E - F", "60"], ["2", "12", "G - H", "40"],
    ])
    assert [e.section for e in found.events] == ["Skupina A", "Skupina B"]
    assert [len(e.units) for e in found.events] == [2, 2]
    assert {e.title for e in found.events} == {"Klubový turnaj"}
    assert [i.message for i in log.issues] == ["totals row skipped: value 'Spolu | 100'"]


def test_unnamed_sections_are_numbered() -> None:
    header = ["Por.", "Meno", "%"]
    found, _ = _read([*HEAD, header, ["1", "A - B", "55"], ["2", "E - F", "45"], ["", "", ""],
                      ["Poradie", "Mená", "Body %"], ["1", "C - D", "60"], ["2", "G - H", "40"]])
    assert [e.section for e in found.events] == ["1", "2"]


def test_team_written_over_several_rows_is_one_unit() -> None:
    found, _ = _read([
        *HEAD, ["Por.", "Družstvo", "Hráči", "VP"],
        ["1", "Slavia", "Dvořák", "40"], ["1", "Slavia", "Procházka", "40"],
        ["", "", "Černá", ""], ["", "", "Růžička", ""],
        ["2", "Karlín", "Pospíšil\nMarková\nBenešová\nVlček", "20"],
    ], merged=frozenset({(4, 0), (4, 1), (4, 3)}))  # rows 5: merged from above
    (event,) = found.events
    assert event.kind == "teams" and event.scoring == "VP"
    assert [u.label for u in event.units] == ["Slavia", "Karlín"]
    assert [len(u.players) for u in event.units] == [4, 4]


def test_kind_from_the_number_of_names() -> None:
    one, _ = _read([*HEAD, ["Rank", "Player", "Score"], ["1", "Kiss Gábor", "60"],
                    ["2", "Győri Ödön", "40"]])
    assert one.events[0].kind == "individual"
    four, _ = _read([*HEAD, ["Rank", "Players", "IMP"], ["1", "A, B, C, D", "10"],
                     ["2", "E, F, G, H, I", "-10"]])
    assert four.events[0].kind == "teams"


def test_names_in_separate_columns() -> None:
    found, _ = _read([*HEAD, ["Umístění", "Hráč 1", "Hráč 2", "%"],
                      ["1", "Dvořák Tomáš", "Procházka Jiří", "60"],
                      ["2", "Černý Pavel", "Malý Jan", "40"]])
    assert [p.name for p in found.events[0].units[0].players] == ["Dvořák Tomáš",
                                                                   "Procházka Jiří"]


def test_names_from_the_unit_column_when_there_is_no_names_column() -> None:
    found, _ = _read([*HEAD, ["Por.", "Pár", "%"], ["1", "Novák - Kováč", "60"],
                      ["2", "Tóth - Varga", "40"]])
    unit = found.events[0].units[0]
    assert unit.label == "" and [p.name for p in unit.players] == ["Novák", "Kováč"]


def test_no_place_column_places_from_row_order() -> None:
    found, log = _read([*HEAD, ["Meno", "%"], ["A - B", "60"], ["C - D", "40"]])
    assert [u.place for u in found.events[0].units] == [1.0, 2.0]
    assert [u.place_text for u in found.events[0].units] == ["", ""]
    assert log.issues[0].level == "info"


def test_phantom_keeps_its_place_without_players() -> None:
    found, log = _read([*HEAD, ["Por.", "Meno", "%"], ["1", "A - B", "60"],
                        ["2", "Phantom", "40"]])
    assert found.events[0].units[1].players == ()
    assert found.events[0].units[1].place == 2.0
    assert log.issues[-1].level == "info"


def test_initials_get_the_club_column_or_else_the_organiser() -> None:
    rows = [["Turnaj"], ["Organizátor: BK Senec"], ["12.3.2012"],
            ["Por.", "Meno", "Klub", "%"], ["1", "JNo-PKo", "", "60"],
            ["2", "MHo-ĽVa", "BK Nitra", "40"]]
    found, _ = _read(rows)
    players = [p for u in found.events[0].units for p in u.players]
    assert all(p.initials for p in players)
    assert [p.club for p in players] == ["BK Senec", "BK Senec", "BK Nitra", "BK Nitra"]


def test_places_contradicting_scores_are_warnings_and_strict_raises() -> None:
    rows = [*HEAD, ["Por.", "Meno", "%"], ["1", "A - B", "40"], ["2", "C - D", "60"]]
    _, log = _read(rows)
    assert [(i.level, i.where) for i in log.issues] == [
        ("warning", "file t.xlsx, table Hárok1, row 5, column %"),
    ]
    with pytest.raises(InconsistentResult):
        _read(rows, strict=True)


def test_rows_out_of_place_order_are_sorted() -> None:
    found, _ = _read([*HEAD, ["Por.", "Meno", "%"], ["2", "C - D", "40"], ["1", "A - B", "60"]])
    assert [u.score for u in found.events[0].units] == [60.0, 40.0]


# --- transposed layout ----------------------------------------------------------------------


def test_transposed_layout_with_two_sections() -> None:
    found, log = _read([
        ["Klubový turnaj 5.5.2013"],
        ["Skupina A"],
        ["Poradie", "1", "2"], ["Pár", "3", "1"], ["Hráči", "JNo-PKo", "MHo MSl"],
        ["%", "55", "45"],
        ["Skupina B"],
        ["Poradie", "1", "2", "3"], ["Pár", "11", "12", "13"],
        ["Hráči", "ZKu-JBa", "ĽVa-ŠTó", "EMa-IDu"], ["%", "60", "50", "40"],
    ])
    assert [e.section for e in found.events] == ["Skupina A", "Skupina B"]
    assert [[u.label for u in e.units] for e in found.events] == [["3", "1"], ["11", "12", "13"]]
    assert found.events[0].units[1].players[1].name == "MSl"
    assert log.issues[0].message == "results run across the columns (transposed layout)"


def test_has_results_header_rows_or_columns() -> None:
    assert has_results_header([["x"], ["Por.", "Meno", "%"]])
    assert has_results_header([["Poradie", "1"], ["Hráči", "JNo-PKo"], ["%", "50"]])
    assert not has_results_header([["Meno", "Adresa"], ["Novák", "Senec"]])


# --- dates and errors -----------------------------------------------------------------------


def test_date_from_the_sheet_name_then_the_file_name() -> None:
    rows = [["Turnaj"], ["Por.", "Meno", "%"], ["1", "A - B", "60"], ["2", "C - D", "40"]]
    found, _ = _read(rows, name="19.3.2012")
    assert found.events[0].date == dt.date(2012, 3, 19)
    found, _ = _read(rows, name="Hárok1", source="/inbox/turnaj_2012-03-26.csv")
    assert found.events[0].date == dt.date(2012, 3, 26)


def test_no_date_anywhere_is_malformed() -> None:
    with pytest.raises(MalformedFile, match="no event date") as caught:
        _read([["Turnaj"], ["Por.", "Meno", "%"], ["1", "A - B", "60"], ["2", "C - D", "40"]],
              source="turnaj.csv")
    assert (caught.value.file, caught.value.table) == ("turnaj.csv", "Hárok1")


def test_invalid_place_names_sheet_row_column_cell_and_value() -> None:
    with pytest.raises(MalformedFile) as caught:
        _read([*HEAD, ["Por.", "Meno", "%"], ["1", "A - B", "60"], ["x", "C - D", "40"]])
    error = caught.value
    assert (error.file, error.table, error.row, error.column, error.value) == \
        ("t.xlsx", "Hárok1", 5, "Por.", "x")
    assert "cell A5" in str(error)


def test_invalid_score_is_left_empty_with_a_warning() -> None:
    found, log = _read([*HEAD, ["Por.", "Meno", "%"], ["1", "A - B", "abc"], ["2", "C - D", "50"],
                        ["3", "E - F", "45"], ["4", "G - H", "40"]])
    assert found.events[0].units[0].score is None
    assert log.issues[0].message == "invalid score; left empty (cell C4): value 'abc'"
    assert log.issues[0].where == "file t.xlsx, table Hárok1, row 4, column %"


def test_no_table_is_none() -> None:
    log = IssueLog(file="", strict=False)
    assert read_grid(grid_from_texts("x", [["a", "b"], ["c", "d"]]), fmt="spreadsheet",
                     log=log) is None


# --- positive evidence ----------------------------------------------------------------------


def _refusals(rows: Sequence[Sequence[str]]) -> list[str]:
    refusals: list[str] = []
    found = read_grid(grid_from_texts("Hárok1", rows), fmt="spreadsheet",
                      log=IssueLog(file="t.xlsx", strict=False), source="t.xlsx",
                      refusals=refusals)
    assert found is None
    return refusals


@pytest.mark.parametrize(("rows", "why"), [
    ([["Nr", "Score"], ["1", "60"], ["2", "50"]],
     "has a score column but no names column (the 'Nr' column numbers the units)"),
    ([["Por.", "Meno", "%"], ["1", "12", "60"], ["2", "7", "50"], ["3", "9", "40"]],
     "has a names column ('Meno') but it mostly holds no names (such as '12')"),
    ([["Lp.", "Nazwisko", "Klub"], ["1", "Nowak Jan", "KS"], ["2", "Zięba Piotr", "KS"]],
     "has a names column and a place column, but the places only number the rows"),
    ([["Meno", "Body"], ["Novák Ján", "10"], ["Kováč Peter", "30"], ["Tóth Pál", "20"]],
     "the scores do not order the rows (row 4 scores more than the row above)"),
    ([["Place", "Name", "Score"], *[[str(i), f"Player {chr(64 + i)}x", str(60 + i)]
                                    for i in range(1, 7)]],
     "but the places do not follow the scores (5 of 6 rows contradict them)"),
    ([["Por.", "Meno", "%"], ["3", "Novák - Kováč", "60"], ["4", "Tóth - Varga", "50"]],
     "but the places start at 3, not 1"),
    ([["Por.", "Družstvo", "VP"], ["1", "Slávia", "40"], ["2", "Senec", "30"]],
     "has a 'Družstvo' column of team or pair names but no column of the players' names"),
    ([["Por.", "Meno", "%"], ["1", "Novák - Kováč", "60"]],
     "but a single row under its header; a ranking lists at least two"),
    ([["Stôl", "Pár", "Mená"], ["1", "3", "Novák - Kováč"], ["2", "4", "Tóth - Varga"]],
     "sheet 'Hárok1' has a names column but no place or score column"),
])
def test_a_table_without_evidence_of_a_ranking_is_not_read(rows: list[list[str]],
                                                           why: str) -> None:
    refusals = _refusals([["Turnaj 12.3.2012"], *rows])
    assert len(refusals) == 1 and why in refusals[0], refusals
    assert refusals[0].startswith("sheet 'Hárok1' ")


def test_one_contradiction_in_ten_rows_is_a_typo_not_a_refusal() -> None:
    scores = ["70", "65", "66", "60", "55", "50", "45", "40", "35", "30"]
    found, log = _read([*HEAD, ["Por.", "Meno", "%"],
                        *[[str(i + 1), f"Hráč {chr(65 + i)}x - Hráč {chr(75 + i)}y", s]
                          for i, s in enumerate(scores)]])
    assert found.events[0].n_units == 10
    assert [i.level for i in log.issues if i.level == "warning"] == ["warning"]


@pytest.mark.parametrize(("header", "what"), [
    (["NS", "EW", "Contract", "Lead", "Score"], "one board's play"),
    (["Rozdanie", "Sever", "Východ", "Juh", "Západ"], "a hand record or seating card"),
    (["Pos", "Team", "P", "W", "D", "L", "GF", "GA", "Pts"], "a table of another game"),
    (["Pos", "Player", "W", "L", "Pts"], "a league table of games won and lost"),
    (["Place", "Name", "Club", "MMS", "SOS"], "a go or preferans table"),
    (["Rank", "Name", "Elo", "Pts"], "a table of another game"),
])
def test_tables_of_something_else(header: list[str], what: str) -> None:
    from parsers._grid import not_a_ranking

    assert what in (not_a_ranking(header) or "")
    assert header_columns(header) is None


def test_results_headers_are_not_something_else() -> None:
    from parsers._grid import not_a_ranking

    for header in (["Por.", "Pár", "Meno", "Klub", "%"], ["Miejsce", "Para", "Zawodnicy", "Wynik"],
                   ["Helyezés", "Név", "Pont"], ["Pos", "No", "Names", "Score %"],
                   ["Pořadí", "Družstvo", "Hráči", "VP", "IMP"]):
        assert not_a_ranking(header) is None, header


@pytest.mark.parametrize(("text", "program"), [
    ('<meta name="GENERATOR" content="JFR 2005">', "JFR"), ("<p>KoPS2www</p>", "KoPS"),
    ("No.\tUser\tResult", "BBO"), ("Title\t#4242 Pairs Tuesday", "BBO"),
    ("Results by Pianola", "Pianola"), ("EBUScore Pairs", "EBUScore"),
    ("printed by PairsScorer7.2.83", "PairsScorer"), ("RealBridge", "RealBridge"),
    ("<p>Bridgemate Pro</p>", "Bridgemate"), ("Compscore2", "Compscore"),
    ("ScoreBridge", "ScoreBridge"), ("BriAn 3.0", "BriAn"), ("NZ Scorer", "NZ Scorer"),
])
def test_program_marks(text: str, program: str) -> None:
    from parsers._grid import program_mark

    assert program_mark(text) == program


@pytest.mark.parametrize("text", ["Klubový turnaj párov, BK Senec", "Brian Smith", "users",
                                  "Pos\tNames\tScore", "Jss Novák"])
def test_no_program_mark_on_hand_made_text(text: str) -> None:
    from parsers._grid import program_mark

    assert program_mark(text) is None


def test_program_mark_skips_only_expressions_that_cannot_match() -> None:
    """The words that let ``program_mark`` skip an expression never hide a match: every
    program is found as its own expression finds it, in any case and with the letters that
    fold to ASCII ones (Kelvin sign, long s, dotted and dotless i)."""
    from parsers._grid import _NEEDLES, PROGRAMS, program_mark

    assert set(_NEEDLES) == {name for name, _ in PROGRAMS} - {"BBO"}
    samples = [
        '<meta name="generator" content="JFR 2005">', "Pary.4.1", "jfr  teamy", "KoPS2www",
        "\u212aoPS", "ACBL Score", "www.BridgeWebs.com", "EBUScore", "Score Bridge", "BMPro",
        "Bridge\nComposer", "PİANOLA", "pıanola", "Magic  Contest", "CompScore", "Pairs Scorer",
        "results by RealBridge", "BriAn", "Score Pad", "JSS", "Jeff's Scoring", "NZ Bridge Scorer",
        "Magic FFB", "Ruter 5", "ruter.exe", "\u017fwiss manager", "chess-results", "pairgoth",
        "<td> MPs </td>", "a recap", "bridgebase.com", "nothing at all", "brian", "jss", "ruter",
    ]
    for text in samples:
        expected = next((name for name, pattern in PROGRAMS if pattern.search(text)), None)
        assert program_mark(text) == expected, text
