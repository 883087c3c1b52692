"""Preferans club logs (``parsers.preferans_log``): fixtures, spellings, every validation rule
with its where-fields, detection against the other formats, damaged files."""

from __future__ import annotations

import datetime as dt
import io
import random
import re
from pathlib import Path

import pytest

from parsers import (
    FORMATS,
    InconsistentResult,
    MalformedFile,
    ParseError,
    ParseResult,
    detect_format,
    preferans_log,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


HERE = FIXTURES / "preferans_log"
INVALID = HERE / "invalid"
CASES = sorted(p for p in HERE.rglob("*") if p.is_file() and p.suffix not in (".json", ".txt"))

HEADER = "Game,Date,Variant,Deals,Pulka,Player,Vists"


def _csv(*rows: str, header: str = HEADER) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode("utf-8")


def _game(game: str = "1", vists: tuple[str, str, str] = ("10", "-4", "-6"), *,
          date: str = "2013-03-05", variant: str = "Sochi", deals: str = "30",
          length: str = "40", names: tuple[str, str, str] = ("Ann", "Bob", "Cid")) -> list[str]:
    return [f"{game},{date},{variant},{deals},{length},{name},{v}"
            for name, v in zip(names, vists)]


def _parse(data: bytes, *, strict: bool = False) -> ParseResult:
    return preferans_log.parse(data, source="/inbox/log.csv", strict=strict)


def _where(exc: ParseError) -> tuple[object, ...]:
    return (exc.file, exc.table, exc.row, exc.column, exc.value)


def _table(result: ParseResult) -> list[tuple[object, ...]]:
    return [(e.title, e.section, e.date.isoformat(), e.variant, e.deals, e.pulka, e.organiser,
             [(u.players[0].name, u.score, u.place) for u in e.units]) for e in result.events]


# --- fixtures -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_fixtures_are_claimed_only_by_this_format(path: Path) -> None:
    data = path.read_bytes()
    assert [f.name for f in FORMATS.values() if f.detect(data, path.name)] == ["preferans_log"]
    assert detect_format(data, path.name).name == "preferans_log"


def test_claims_no_other_fixture() -> None:
    others = [p for p in _fixture_files() if p.is_file() and HERE not in p.parents
              and not p.name.endswith(".json") and p.suffix not in (".txt", ".md")]
    assert others
    assert [p.name for p in others if preferans_log.detect(p.read_bytes(), p.name)] == []


def test_english_csv() -> None:
    result = _parse((HERE / "english-csv.csv").read_bytes(), strict=True)
    club = "Nevsky Circle London"
    assert _table(result) == [
        ("game 101", "segment 1", "2013-03-05", "sochi", 38, 60, club,
         [("Alex Morgan", 41.5, 1.0), ("Boris Kaplan", -12.5, 2.0), ("Chris Dale", -29.0, 3.0)]),
        ("game 102", "segment 1", "2013-03-05", "rostov", 24, 40, club,
         [("Alex Morgan", 10.0, 1.0), ("Dmitri Orlov", -5.0, 2.5), ("Eve Stone", -5.0, 2.5)]),
        ("game 103", "segment 1", "2013-03-12", "leningrad", 52, 80, club,
         [("Boris Kaplan", 20.0, 1.0), ("Dmitri Orlov", 7.25, 2.0), ("Eve Stone", -7.25, 3.0),
          ("Chris Dale", -20.0, 4.0)]),
        ("game 104", "segment 1", "2013-03-12", "leningrad", 30, 0, club,
         [("Alex Morgan", 0.0, 2.0), ("Eve Stone", 0.0, 2.0), ("Chris Dale", 0.0, 2.0)]),
    ]
    event = result.events[0]
    assert (event.game, event.kind, event.scoring, event.segment, event.format) == (
        "preferans", "individual", "unknown", 1, "preferans_log")
    assert (event.units[0].place_text, event.units[0].label, event.boards) == ("", "", None)
    assert event.units[0].players[0].club is None
    assert result.issues == ()


def test_russian_cp1251_semicolon() -> None:
    result = _parse((HERE / "russian-cp1251-semicolon.csv").read_bytes(), strict=True)
    club = "«Мизер», Санкт-Петербург"
    assert _table(result) == [
        ("game 1", "segment 1", "2013-03-12", "sochi", 41, 60, club,
         [("Иванов Пётр", 52.5, 1.0), ("Сидоров Алексей", -20.0, 2.0),
          ("Ёлкина Мария", -32.5, 3.0)]),
        ("game 2", "segment 1", "2013-03-12", "leningrad", 36, 50, club,
         [("Ёлкина Мария", 30.0, 1.0), ("Иванов Пётр", -14.0, 2.0),
          ("Кузнецов Олег", -16.0, 3.0)]),
        ("game 3", "segment 1", "2013-03-19", "rostov", 28, 30, club,
         [("Сидоров Алексей", 8.4, 1.0), ("Кузнецов Олег", -4.2, 2.5),
          ("Иванов Пётр", -4.2, 2.5)]),
    ]
    assert [(i.level, i.message) for i in result.issues] == [
        ("info", "file is not UTF-8; read as windows-1251 (Cyrillic)"),
    ]


def test_substitution_segments_xlsx() -> None:
    result = _parse((HERE / "substitution-segments.xlsx").read_bytes(), strict=True)
    assert _table(result) == [
        ("game 12", "segment 1", "2013-03-14", "sochi", 21, 30, "Seven Spades",
         [("Anna Belova", 15.0, 1.0), ("Ivan Petrov", -5.0, 2.0), ("Oleg Smirnov", -10.0, 3.0)]),
        ("game 12", "segment 2", "2013-03-14", "sochi", 17, 30, "Seven Spades",
         [("Ivan Petrov", 9.5, 1.0), ("Anna Belova", 3.0, 2.0), ("Nina Volkova", -12.5, 3.0)]),
        ("game 13", "segment 1", "2013-03-14", "rostov", 40, 60, "Seven Spades",
         [("Nina Volkova", 22.0, 1.0), ("Oleg Smirnov", -11.0, 2.5), ("Ivan Petrov", -11.0, 2.5)]),
    ]
    assert [e.segment for e in result.events] == [1, 2, 1]
    assert len({e.key for e in result.events}) == 3  # segments are distinct events


def test_russian_headers_ods_with_club_column() -> None:
    result = _parse((HERE / "russian-headers-club-column.ods").read_bytes(), strict=True)
    assert _table(result) == [
        ("game 41", "segment 1", "2013-04-16", "rostov", 27, 40, "Клуб «Мизер»",
         [("Кузнецов Олег", 12.6, 1.0), ("Ёлкина Мария", -6.3, 2.5), ("Иванов Пётр", -6.3, 2.5)]),
    ]


def test_club_log_table_html() -> None:
    result = _parse((HERE / "club-log-table.html").read_bytes(), strict=True)
    title = "Клуб «Пуля» — журнал игр"
    assert _table(result) == [
        ("game 7", "segment 1", "2013-04-02", "sochi", 18, 20, title,
         [("Орлова Ирина", 6.0, 1.0), ("Павлов Антон", -1.0, 2.0), ("Зайцев Глеб", -5.0, 3.0)]),
        ("game 7", "segment 2", "2013-04-02", "sochi", 25, 40, title,
         [("Павлов Антон", 14.0, 1.0), ("Лебедев Юрий", -6.0, 2.0),
          ("Орлова Ирина", -8.0, 3.0)]),
        ("game 8", "segment 1", "2013-04-09", "leningrad", 44, 60, title,
         [("Орлова Ирина", 11.0, 1.0), ("Лебедев Юрий", 10.5, 2.0),
          ("Зайцев Глеб", -21.5, 3.0)]),
    ]


def test_tab_separated_without_club_is_unknown_club_with_a_warning() -> None:
    data = (HERE / "tab-separated-unknown-club.tsv").read_bytes()
    result = _parse(data)
    assert [(e.title, e.organiser, e.variant, e.deals, e.pulka) for e in result.events] == [
        ("game A1", "unknown club", "sochi", 33, 50), ("game A2", "unknown club", "leningrad",
                                                        20, 30),
    ]
    assert [(i.level, i.where) for i in result.issues] == [("warning", "file log.csv")]
    with pytest.raises(MalformedFile, match="unknown club"):
        _parse(data, strict=True)


# --- spellings ------------------------------------------------------------------------------


@pytest.mark.parametrize(("written", "canonical"), [
    ("Sochi", "sochi"), ("СОЧИ", "sochi"), ("сочинка", "sochi"), ("Rostov", "rostov"),
    ("Ростов", "rostov"), ("ростовка", "rostov"), ("Leningrad", "leningrad"),
    ("Ленинград", "leningrad"), ("ленинградка", "leningrad"), ("Питер", "leningrad"),
    ("piter", "leningrad"), (" Sochi ", "sochi"),
])
def test_variant_spellings(written: str, canonical: str) -> None:
    assert preferans_log.canonical_variant(written) == canonical
    (event,) = _parse(_csv(*_game(variant=written))).events
    assert event.variant == canonical


@pytest.mark.parametrize("header", [
    "игра,дата,вариант,раздачи,пуля,игрок,висты",
    "ПАРТИЯ;ДАТА;КОНВЕНЦИЯ;СДАЧИ;ДЛИНА ПУЛИ;ИГРОК;ВИСТЫ",
    "Player\tVists (settled)\tGame ID\tDate\tConvention\tDeals played\tPulka length",
    "№ игры,Дата,Вариант,Кол-во раздач,Пуля,ФИО,Висты,Сегмент,Клуб",
])
def test_headers_in_either_language_any_order(header: str) -> None:
    delimiter = "\t" if "\t" in header else ";" if ";" in header else ","
    names = [h.strip() for h in header.split(delimiter)]
    values = {"game": "9", "date": "2013-03-05", "variant": "Sochi", "deals": "30",
              "length": "40"}
    order = [_role(n) for n in names]
    rows = []
    for player, vists in (("Ann", "5"), ("Bob", "-5"), ("Cid", "0")):
        cells = {**values, "player": player, "vists": vists, "segment": "", "club": ""}
        rows.append(delimiter.join(cells[r] for r in order))
    data = _csv(*rows, header=header)
    assert preferans_log.detect(data)
    (event,) = _parse(data).events
    assert (event.title, event.deals, event.pulka, event.units[0].players[0].name) == (
        "game 9", 30, 40, "Ann")


def _role(header: str) -> str:
    found = preferans_log._ROLE_OF.get(preferans_log._key(header))
    assert found is not None, header
    return found


def test_dates_as_russian_logs_write_them() -> None:
    for written, expected in [("12.03.2013 г.", dt.date(2013, 3, 12)),
                              ("1 мая 2013", dt.date(2013, 5, 1)),
                              ("19 марта 2013 г", dt.date(2013, 3, 19))]:
        (event,) = _parse(_csv(*_game(date=written))).events
        assert event.date == expected


def test_game_fields_written_once_are_shared_by_the_segment() -> None:
    rows = ["5,2013-03-05,Rostov,30,40,Ann,10", ",,,,,Bob,-4", "5,,,,,Cid,-6"]
    (event,) = _parse(_csv(*rows)).events
    assert (event.title, event.variant, event.deals, event.pulka, event.n_units) == (
        "game 5", "rostov", 30, 40, 3)


def test_precedence_over_the_generic_spreadsheet_format() -> None:
    header = "Place,Game,Date,Variant,Deals,Length,Player,Vist"
    rows = ["1,1,2013-03-05,Sochi,30,40,Ann,10", "2,1,2013-03-05,Sochi,30,40,Bob,-4",
            "3,1,2013-03-05,Sochi,30,40,Cid,-6"]
    data = _csv(*rows, header=header)
    assert FORMATS["spreadsheet"].detect(data, "log.csv")  # a generic table, too
    assert detect_format(data, "log.csv").name == "preferans_log"


def test_detect_needs_game_player_and_vists() -> None:
    assert preferans_log.detect(_csv(*_game()))
    assert not preferans_log.detect(_csv(*_game(), header=HEADER.replace("Vists", "Score")))
    assert not preferans_log.detect(_csv(*_game(), header=HEADER.replace("Game", "Event")))
    assert not preferans_log.detect(b"")
    assert not preferans_log.detect(b"PK\x03\x04broken zip")


def test_detect_reads_whole_lines_of_a_long_utf8_file() -> None:
    rows = [r for g in range(1, 400) for r in _game(str(g), names=("Иванов Пётр", "Ёлкина Мария",
                                                                   "Сидоров Алексей"))]
    data = _csv(*rows, header="Игра,Дата,Вариант,Раздачи,Пуля,Игрок,Висты")
    assert len(data) > 65536
    assert preferans_log.detect(data)
    assert len(_parse(data).events) == 399


def test_central_european_text_is_not_taken_for_windows_1251() -> None:
    rows = _game(names=("Novák Ján", "Kováč Peter", "Šťastná Ľubica"))
    result = _parse(_csv(*rows).decode("utf-8").encode("cp1250"))
    assert [u.players[0].name for u in result.events[0].units] == [
        "Novák Ján", "Kováč Peter", "Šťastná Ľubica"]


# --- validation: every rule names game, rule, table, row, column and value -------------------


def test_vists_must_sum_to_zero() -> None:
    data = (INVALID / "vists-do-not-sum-to-zero.csv").read_bytes()
    with pytest.raises(InconsistentResult) as raised:
        preferans_log.parse(data, source="vists-do-not-sum-to-zero.csv")
    assert raised.value.problem == (
        "game '202', segment 1: vists sum to 3, not 0 (rule: a game's settled vists sum to zero "
        "within 0.5)")
    assert _where(raised.value) == ("vists-do-not-sum-to-zero.csv", None, 5, "Vists", 3.0)


def test_vists_within_half_a_vist_are_accepted() -> None:
    (event,) = _parse(_csv(*_game(vists=("10.2", "-4", "-5.8")))).events
    assert [u.score for u in event.units] == [10.2, -4.0, -5.8]
    assert _parse(_csv(*_game(vists=("10.5", "-4", "-6")))).events[0].units[0].score == 10.5
    with pytest.raises(InconsistentResult, match="sum to 0.6"):
        _parse(_csv(*_game(vists=("10.6", "-4", "-6"))))


def test_players_must_be_distinct() -> None:
    data = (INVALID / "player-twice-in-a-game.csv").read_bytes()
    with pytest.raises(InconsistentResult) as raised:
        preferans_log.parse(data, source="player-twice-in-a-game.csv")
    assert raised.value.problem == (
        "game '301', segment 1: player also in row 2 (rule: the players of a game are distinct)")
    assert _where(raised.value) == ("player-twice-in-a-game.csv", None, 4, "Игрок",
                                    "иванов пётр")


def test_deals_at_least_one() -> None:
    rows = [*_game("1"), *_game("2", deals="0")]
    with pytest.raises(InconsistentResult) as raised:
        _parse(_csv(*rows))
    assert raised.value.problem == "game '2': rule: a game has at least 1 deal"
    assert _where(raised.value) == ("log.csv", None, 5, "Deals", "0")


def test_unknown_variant() -> None:
    with pytest.raises(MalformedFile) as raised:
        _parse(_csv(*_game("7", variant="Classic")))
    assert raised.value.problem == (
        "game '7': unknown variant (rule: a known variant: Sochi, Rostov or Leningrad)")
    assert _where(raised.value) == ("log.csv", None, 2, "Variant", "Classic")


@pytest.mark.parametrize(("column", "kwargs", "row", "value"), [
    ("Date", {"date": "2013-03-06"}, 3, "2013-03-06"),
    ("Variant", {"variant": "Rostov"}, 3, "Rostov"),
    ("Deals", {"deals": "31"}, 3, "31"),
    ("Pulka", {"length": "60"}, 3, "60"),
])
def test_one_value_per_segment(column: str, kwargs: dict[str, str], row: int,
                               value: str) -> None:
    first = _game("4")
    other = _game("4", **kwargs)
    with pytest.raises(InconsistentResult) as raised:
        _parse(_csv(first[0], other[1], first[2]))
    role = {"Pulka": "length"}.get(column, column.lower())
    assert raised.value.problem.startswith(f"game '4', segment 1: {role} differs from row 2 ")
    assert raised.value.problem.endswith(f"(rule: one {role} per segment)")
    assert _where(raised.value) == ("log.csv", None, row, column, value)


def test_a_table_seats_three_or_four() -> None:
    rows = _game("3")[:2]
    with pytest.raises(InconsistentResult) as raised:
        _parse(_csv(rows[0], rows[1].replace("-4", "-10")))
    assert raised.value.problem == (
        "game '3', segment 1: 2 player(s) (rule: a game has 3 players, 4 with a sitting-out "
        "dealer)")
    assert _where(raised.value) == ("log.csv", None, 2, "Player", "Ann, Bob")


@pytest.mark.parametrize(("row", "problem", "column", "value"), [
    ("1,2013-03-05,Sochi,30,40,Ann,ten", "game '1': invalid vists (not a number)", "Vists", "ten"),
    ("1,2013-03-05,Sochi,30,40,Ann,", "game '1': empty vists", "Vists", ""),
    ("1,2013-03-05,Sochi,30,40,,10", "game '1': empty player", "Player", ""),
    ("1,2013-02-30,Sochi,30,40,Ann,10", "game '1': invalid date", "Date", "2013-02-30"),
    ("1,2013-03-05,Sochi,30.5,40,Ann,10", "game '1': invalid deals (not a whole number)",
     "Deals", "30.5"),
    ("1,2013-03-05,Sochi,30,-5,Ann,10",
     "game '1': invalid pulka length (a sum of points, 0 or more)", "Pulka", "-5"),
    (",2013-03-05,Sochi,30,40,Ann,10", "empty game id in the first row", "Game", ""),
])
def test_unreadable_cells(row: str, problem: str, column: str, value: str) -> None:
    with pytest.raises(MalformedFile) as raised:
        _parse(_csv(row, *_game()[1:]))
    assert raised.value.problem == problem
    assert _where(raised.value) == ("log.csv", None, 2, column, value)


def test_no_date_in_any_row_of_a_segment() -> None:
    rows = [r.replace("2013-03-05", "") for r in _game("6")]
    with pytest.raises(MalformedFile) as raised:
        _parse(_csv(*rows))
    assert raised.value.problem == "game '6', segment 1: no date written in any of its rows"
    assert _where(raised.value) == ("log.csv", None, 2, "Date", "")


def test_missing_columns() -> None:
    with pytest.raises(MalformedFile) as raised:
        _parse(_csv("1,2013-03-05,Ann,10", header="Game,Date,Player,Vists"))
    assert raised.value.problem.startswith("missing column(s) of a preferans log")
    assert _where(raised.value) == ("log.csv", None, 1, None, "variant, deals, length")


def test_a_bad_game_rejects_the_whole_file_even_when_lenient() -> None:
    rows = [*_game("1"), *_game("2", vists=("1", "1", "1")), *_game("3")]
    with pytest.raises(InconsistentResult, match="game '2'"):
        _parse(_csv(*rows), strict=False)


def test_errors_name_the_sheet_of_a_workbook() -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Апрель"
    sheet.append(["Клуб: Мизер"])
    sheet.append(HEADER.split(","))
    for row in _game("9", vists=("10", "-4", "-4")):
        sheet.append(row.split(","))
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(InconsistentResult) as raised:
        preferans_log.parse(out.getvalue(), source="log.xlsx")
    assert _where(raised.value) == ("log.xlsx", "Апрель", 3, "Vists", 2.0)


def test_errors_name_the_table_of_a_page() -> None:
    data = (HERE / "club-log-table.html").read_bytes().replace(
        "Питер".encode(), "Москва".encode())
    with pytest.raises(MalformedFile) as raised:
        preferans_log.parse(data, source="log.html")
    assert raised.value.problem.startswith("game '8': unknown variant")
    assert _where(raised.value) == ("log.html", "table 2", 2, "Вариант", "Москва")


def test_segment_numbering_gap_is_a_warning() -> None:
    header = HEADER + ",Segment"
    rows = [r + ",1" for r in _game("5")] + [r + ",3" for r in _game("5", deals="12")]
    data = b"Club: Seven Spades\n" + _csv(*rows, header=header)
    result = _parse(data)
    assert [e.segment for e in result.events] == [1, 3]
    assert [(i.level, i.message, i.where) for i in result.issues] == [
        ("warning", "game '5': segments numbered 1, 3, expected 1 to 2: value '1, 3'",
         "file log.csv, row 3, column Segment"),
    ]
    with pytest.raises(InconsistentResult):
        _parse(data, strict=True)


def test_segment_blank_continues_the_game_above() -> None:
    header = HEADER + ",Segment"
    rows = ([r + ",1" for r in _game("5")] + [_game("5", deals="12")[0] + ",2"]
            + [r + "," for r in _game("5", deals="12")[1:]] + [r + "," for r in _game("6")])
    result = _parse(b"Club: Seven Spades\n" + _csv(*rows, header=header), strict=True)
    assert [(e.title, e.segment, e.deals) for e in result.events] == [
        ("game 5", 1, 30), ("game 5", 2, 12), ("game 6", 1, 30)]


def test_totals_row_is_skipped_with_an_info_issue() -> None:
    result = _parse(b"Club: Seven Spades\n" + _csv(*_game(), ",,,,,Итого,0"), strict=True)
    assert len(result.events) == 1
    assert [(i.level, i.where) for i in result.issues] == [("info", "file log.csv, row 6")]


def test_no_rows_below_the_header() -> None:
    with pytest.raises(MalformedFile, match="no preferans log"):
        _parse(_csv())


# --- robustness -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_damaged_files_raise_only_parse_errors(path: Path) -> None:
    rng = random.Random(path.name)
    data = path.read_bytes()
    for _ in range(40):
        damaged = bytearray(data[: rng.randrange(1, len(data) + 1)])
        for _ in range(rng.randint(0, 8)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        preferans_log.detect(bytes(damaged), path.name)  # never raises
        try:
            result = preferans_log.parse(bytes(damaged), source=path.name)
        except ParseError as exc:
            assert exc.file == path.name
        else:
            assert all(e.game == "preferans" for e in result.events)


# --- the documentation ----------------------------------------------------------------------

DOC = Path(__file__).resolve().parent.parent / "docs" / "preferans-log.md"


def test_every_header_word_of_the_documentation_is_recognised() -> None:
    roles = {"game": "game", "date": "date", "variant": "variant", "deals": "deals",
             "pulka length": "length", "player": "player", "vists": "vists",
             "segment": "segment", "club": "club"}
    seen = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0] in roles:
            seen.add(cells[0])
            for word in re.findall(r"`([^`]+)`", cells[2]):
                assert _role(word) == roles[cells[0]], word
    assert seen == set(roles)


def test_the_documented_example_reads_as_described() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```csv\n(.*?)```", text, re.DOTALL)
    assert block is not None
    result = preferans_log.parse(block[1].encode("cp1251"), source="log.csv", strict=True)
    assert [(e.title, e.section, e.deals, e.organiser) for e in result.events] == [
        ("game 12", "segment 1", 21, "«Мизер», Санкт-Петербург"),
        ("game 12", "segment 2", 17, "«Мизер», Санкт-Петербург"),
    ]
    assert [(u.players[0].name, u.place) for u in result.events[1].units] == [
        ("Иван Петров", 1.0), ("Анна Белова", 2.0), ("Нина Волкова", 3.0)]
    for word in ("Sochi", "Сочи", "сочинка", "Rostov", "Ростов", "ростовка", "Leningrad",
                 "Ленинград", "ленинградка", "Питер", "СПб"):
        assert word in text
        assert preferans_log.canonical_variant(word) is not None
