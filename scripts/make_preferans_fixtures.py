"""Write the fixtures of the preferans club log format (``fixtures/preferans_log/``).

    python scripts/make_preferans_fixtures.py

Every input is synthetic, written after the shape of real club logs (one row per player per game,
the game's fields repeated or written once): the windows-1251 file must not pass through an
editor that re-encodes it and the spreadsheets cannot be written by hand, so all are written
here; the expected files then come from ``scripts/update_golden.py``. Players are fictitious.
Writing is deterministic (fixed timestamps in the zip members), so a re-run gives the same bytes.
``fixtures/preferans_log/invalid/`` holds logs that break a validation rule; they have no expected
file (not golden cases) and are read by ``tests/test_preferans_log.py``.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["FIXTURES", "main"]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts._zips import rezip  # noqa: E402

HERE = ROOT / "fixtures" / "preferans_log"
_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?")


def _normalise_zip(data: bytes) -> bytes:
    """The same archive with fixed member timestamps and fixed created/modified stamps."""
    def stamped(name: str, content: bytes) -> bytes:
        if name not in ("docProps/core.xml", "meta.xml"):
            return content
        return _STAMP.sub(b"2013-01-01T00:00:00Z", content)

    return rezip(data, stamped)


def _lines(rows: Sequence[Sequence[object]], delimiter: str, end: str = "\n") -> str:
    return "".join(delimiter.join(str(c) for c in row) + end for row in rows)


# --- CSV ------------------------------------------------------------------------------------


def english_csv() -> bytes:
    """UTF-8, commas, English headers, a club column on every row; the four variant spellings
    Sochi/Rostov/Leningrad/Piter; vists with a sign and decimals; a tie for second place; a
    four-player table (sitting-out dealer); a game at pulka length 0 where all tie."""
    rows: list[Sequence[object]] = [
        ("Game", "Date", "Variant", "Deals", "Pulka length", "Player", "Vists", "Club"),
    ]
    club = "Nevsky Circle London"
    games = [
        ("101", "2013-03-05", "Sochi", 38, 60,
         [("Alex Morgan", "+41.5"), ("Boris Kaplan", "-12.5"), ("Chris Dale", "-29")]),
        ("102", "2013-03-05", "Rostov", 24, 40,
         [("Alex Morgan", "10"), ("Dmitri Orlov", "-5"), ("Eve Stone", "-5")]),
        ("103", "2013-03-12", "Leningrad", 52, 80,
         [("Boris Kaplan", "20"), ("Chris Dale", "-20"), ("Dmitri Orlov", "7.25"),
          ("Eve Stone", "-7.25")]),
        ("104", "2013-03-12", "Piter", 30, 0,
         [("Alex Morgan", "0"), ("Eve Stone", "0"), ("Chris Dale", "0")]),
    ]
    for game, date, variant, deals, length, players in games:
        for name, vists in players:
            rows.append((game, date, variant, deals, length, name, vists, club))
    return _lines(rows, ",").encode("utf-8")


def russian_cp1251_semicolon() -> bytes:
    """windows-1251 without BOM, semicolons, CRLF, Russian headers (``Партия``, ``Конвенция``,
    ``Сдачи``, ``Пуля``); a ``Клуб: ...`` line above the header (trailing ``;`` as a spreadsheet
    saves it); game fields written on a game's first row only (empty game id on the others, or
    the id repeated with the rest empty); ``сочинка``/``Ленинградка``/``ростовка``; decimal
    commas; dates ``12.03.2013``, ``12.03.2013 г.`` and ``19 марта 2013``; ``ё`` in names."""
    rows: list[Sequence[object]] = [
        ("Клуб: «Мизер», Санкт-Петербург", "", "", "", "", "", ""),
        ("Партия", "Дата", "Конвенция", "Сдачи", "Пуля", "Игрок", "Висты"),
        ("1", "12.03.2013", "сочинка", "41", "60", "Иванов Пётр", "+52,5"),
        ("", "", "", "", "", "Сидоров Алексей", "-20"),
        ("", "", "", "", "", "Ёлкина Мария", "-32,5"),
        ("2", "12.03.2013 г.", "Ленинградка", "36", "50", "Иванов Пётр", "-14"),
        ("2", "", "", "", "", "Ёлкина Мария", "30"),
        ("2", "", "", "", "", "Кузнецов Олег", "-16"),
        ("3", "19 марта 2013", "ростовка", "28", "30", "Сидоров Алексей", "8,4"),
        ("", "", "", "", "", "Кузнецов Олег", "-4,2"),
        ("", "", "", "", "", "Иванов Пётр", "-4,2"),
    ]
    return _lines(rows, ";", "\r\n").encode("cp1251")


def tab_unknown_club() -> bytes:
    """Tab-separated, English headers in another order (``Player``, ``Vists``, ``Game no``,
    ``Segment``, ``Date``, ``Rules``, ``Hands``, ``Pool``), dates ``5.3.2013``, variants
    ``sochinka``/``Leningradka``; no club column, no club line, no title: ``unknown club``."""
    rows: list[Sequence[object]] = [
        ("Player", "Vists", "Game no", "Segment", "Date", "Rules", "Hands", "Pool"),
        ("Greta Lind", "18", "A1", "1", "5.3.2013", "sochinka", "33", "50"),
        ("Hugo Brandt", "-3", "A1", "1", "5.3.2013", "sochinka", "33", "50"),
        ("Ilse Roth", "-15", "A1", "1", "5.3.2013", "sochinka", "33", "50"),
        ("Hugo Brandt", "6", "A2", "", "5.3.2013", "Leningradka", "20", "30"),
        ("Greta Lind", "-6", "A2", "", "5.3.2013", "Leningradka", "20", "30"),
        ("Jan Wolf", "0", "A2", "", "5.3.2013", "Leningradka", "20", "30"),
    ]
    return _lines(rows, "\t").encode("utf-8")


def vists_do_not_sum_to_zero() -> bytes:
    """Invalid: game 202's vists sum to 3 (a typo in one player's row)."""
    rows: list[Sequence[object]] = [
        ("Game", "Date", "Variant", "Deals", "Pulka", "Player", "Vists"),
        ("201", "2013-04-02", "Sochi", "30", "40", "Alex Morgan", "12"),
        ("201", "2013-04-02", "Sochi", "30", "40", "Boris Kaplan", "-2"),
        ("201", "2013-04-02", "Sochi", "30", "40", "Chris Dale", "-10"),
        ("202", "2013-04-02", "Sochi", "25", "40", "Alex Morgan", "15"),
        ("202", "2013-04-02", "Sochi", "25", "40", "Boris Kaplan", "-2"),
        ("202", "2013-04-02", "Sochi", "25", "40", "Chris Dale", "-10"),
    ]
    return _lines(rows, ",").encode("utf-8")


def player_twice_in_a_game() -> bytes:
    """Invalid: a player written twice in game 301 (semicolons, Russian headers)."""
    rows: list[Sequence[object]] = [
        ("Игра", "Дата", "Вариант", "Раздачи", "Длина пули", "Игрок", "Висты"),
        ("301", "2013-04-09", "Сочи", "30", "40", "Иванов Пётр", "10"),
        ("301", "2013-04-09", "Сочи", "30", "40", "Сидоров Алексей", "-5"),
        ("301", "2013-04-09", "Сочи", "30", "40", "иванов  пётр", "-5"),
    ]
    return _lines(rows, ";").encode("utf-8")


# --- spreadsheets ---------------------------------------------------------------------------


def substitution_segments_xlsx() -> bytes:
    """A game split by a substitution: game 12, segment 1 (Anna, Ivan, Oleg), then Oleg leaves
    and Nina takes his seat (segment 2, its own deals and length). Title and ``Club:`` rows
    above the header (row 4), columns in another order, real date cells, numbers as numbers,
    the game id and game fields merged over a segment's rows; game 13 without a segment number
    (segment 1); a second sheet of notes without a log is ignored."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Март 2013"
    sheet["A1"] = "Seven Spades preferans club — game log, March 2013"
    sheet.merge_cells("A1:H1")
    sheet["A2"] = "Club: Seven Spades"
    header = ("Player", "Vists", "Segment", "Game", "Date", "Variant", "Deals", "Pulka")
    for c, text in enumerate(header, start=1):
        sheet.cell(4, c, text)
    day = dt.datetime(2013, 3, 14)
    segments = [
        (12, 1, day, "Сочи", 21, 30, [("Anna Belova", 15), ("Ivan Petrov", -5),
                                       ("Oleg Smirnov", -10)]),
        (12, 2, day, "Сочи", 17, 30, [("Anna Belova", 3), ("Ivan Petrov", 9.5),
                                       ("Nina Volkova", -12.5)]),
        (13, None, day, "Rostov", 40, 60, [("Nina Volkova", 22), ("Oleg Smirnov", -11),
                                           ("Ivan Petrov", -11)]),
    ]
    r = 5
    for game, segment, date, variant, deals, length, players in segments:
        first = r
        for name, vists in players:
            sheet.cell(r, 1, name)
            sheet.cell(r, 2, vists)
            r += 1
        values = (segment, game, date, variant, deals, length)
        for c, value in enumerate(values, start=3):
            cell = sheet.cell(first, c, value)
            if isinstance(value, dt.datetime):
                cell.number_format = "DD.MM.YYYY"
            if value is not None:
                sheet.merge_cells(start_row=first, start_column=c, end_row=r - 1, end_column=c)
    notes = book.create_sheet("Notes")
    notes["A1"] = "Substitutions are rated as separate segments (club rules, §4)."
    out = io.BytesIO()
    book.save(out)
    return _normalise_zip(out.getvalue())


def russian_headers_ods() -> bytes:
    """OpenDocument sheet, Russian headers with a club column (``Игра``, ``Вариант``,
    ``Раздачи``, ``Пуля``, ``Клуб``), float-typed numbers, repeated empty rows and columns."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Апрель")

    def text_cell(text: str) -> TableCell:
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=text))
        return cell

    def number_cell(value: float) -> TableCell:
        cell = TableCell(valuetype="float", value=str(value))
        cell.addElement(P(text=str(value).replace(".", ",")))
        return cell

    rows: list[Sequence[object]] = [
        ("Игра", "Дата", "Вариант", "Раздачи", "Пуля", "Игрок", "Висты", "Клуб"),
        ("41", "2013-04-16", "Ростов", 27, 40, "Кузнецов Олег", 12.6, "Клуб «Мизер»"),
        ("41", "2013-04-16", "Ростов", 27, 40, "Ёлкина Мария", -6.3, "Клуб «Мизер»"),
        ("41", "2013-04-16", "Ростов", 27, 40, "Иванов Пётр", -6.3, "Клуб «Мизер»"),
    ]
    for values in rows:
        row = TableRow()
        for value in values:
            row.addElement(number_cell(float(value)) if isinstance(value, (int, float))
                           else text_cell(str(value)))
        row.addElement(TableCell(numbercolumnsrepeated="1000"))
        table.addElement(row)
    table.addElement(TableRow(numberrowsrepeated="1048000"))
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.save(out)
    return _normalise_zip(out.getvalue())


# --- HTML -----------------------------------------------------------------------------------


def club_log_table_html() -> bytes:
    """A club's log page in UTF-8: no line above the table, so the organiser is the page's
    ``<title>``; headers ``№ игры``, ``Длина пули``, ``Сегмент``; the game fields written once
    per segment with ``rowspan``; game 7 split by a substitution (segments 1 and 2); a text line
    between two tables, the second repeating the header; variant ``Питер``."""
    head = ("<tr><th>№ игры</th><th>Дата</th><th>Вариант</th><th>Раздачи</th>"
            "<th>Длина пули</th><th>Сегмент</th><th>Игрок</th><th>Висты</th></tr>")

    def segment(game: str, date: str, variant: str, deals: int, length: int, part: int,
                players: Sequence[tuple[str, str]]) -> str:
        n = len(players)
        fields = "".join(f'<td rowspan="{n}">{v}</td>'
                         for v in (game, date, variant, deals, length, part))
        out = []
        for i, (name, vists) in enumerate(players):
            out.append(f"<tr>{fields if i == 0 else ''}<td>{name}</td><td>{vists}</td></tr>")
        return "\n".join(out)

    first = "\n".join([
        head,
        segment("7", "02.04.2013", "Сочи", 18, 20, 1,
                [("Орлова Ирина", "6"), ("Павлов Антон", "-1"), ("Зайцев Глеб", "-5")]),
        segment("7", "02.04.2013", "Сочи", 25, 40, 2,
                [("Орлова Ирина", "-8"), ("Павлов Антон", "14"), ("Лебедев Юрий", "-6")]),
    ])
    second = "\n".join([
        head,
        segment("8", "09.04.2013", "Питер", 44, 60, 1,
                [("Зайцев Глеб", "-21,5"), ("Лебедев Юрий", "10,5"), ("Орлова Ирина", "11")]),
    ])
    page = (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
        "<title>Клуб «Пуля» — журнал игр</title></head>\n<body>\n"
        f"<table border=\"1\">\n{first}\n</table>\n"
        "<p>Вторая неделя</p>\n"
        f"<table border=\"1\">\n{second}\n</table>\n</body></html>\n"
    )
    return page.encode("utf-8")


FIXTURES: dict[Path, Callable[[], bytes]] = {
    HERE / "english-csv.csv": english_csv,
    HERE / "russian-cp1251-semicolon.csv": russian_cp1251_semicolon,
    HERE / "tab-separated-unknown-club.tsv": tab_unknown_club,
    HERE / "substitution-segments.xlsx": substitution_segments_xlsx,
    HERE / "russian-headers-club-column.ods": russian_headers_ods,
    HERE / "club-log-table.html": club_log_table_html,
    HERE / "invalid" / "vists-do-not-sum-to-zero.csv": vists_do_not_sum_to_zero,
    HERE / "invalid" / "player-twice-in-a-game.csv": player_twice_in_a_game,
}


def main() -> int:
    for path, make in FIXTURES.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        data = make()
        old = path.read_bytes() if path.exists() else None
        if old != data:
            path.write_bytes(data)
        print(f"{'unchanged' if old == data else 'written'}: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
