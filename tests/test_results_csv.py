"""``clubratings rate`` reads a results CSV column by column (parsers/csv_template_frame.py): the same
values as the template reader, the engine's optional columns, averaged ties, one-line errors."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from cli import main
from parsers import MalformedFile
from parsers.csv_template import parse as read_template
from parsers.csv_template_frame import read_results_csv
from parsers.frames import events_to_results

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

HEADER = "organiser,event,date,kind,scoring,boards,unit,place,score,player"


@pytest.mark.parametrize("path", sorted((FIXTURES / "club_season").glob("*.csv"))
                         + sorted((FIXTURES / "csv_template").glob("*.csv")),
                         ids=lambda p: p.name)
def test_the_same_frame_as_the_template_reader(path: Path) -> None:
    data = path.read_bytes()
    try:
        events = read_template(data, source=path.name).events
    except MalformedFile:
        pytest.skip("a file the template reader refuses")
    if any(e.game != "bridge" for e in events):
        pytest.skip("not bridge")
    want = events_to_results(events)
    got = read_results_csv(data, path.name)
    # units are numbered by place there and named as written here: compare who partnered whom
    for frame in (want, got):
        frame["partners"] = frame.groupby(["event_id", "unit"])["player"].transform(
            lambda p: "|".join(sorted(p)))
    key = ["event_id", "player"]
    want = want.sort_values(key).reset_index(drop=True)
    got = got.sort_values(key).reset_index(drop=True)
    for column in ("event_id", "kind", "scoring", "partners", "player", "club"):
        assert list(got[column]) == list(want[column]), column
    for column in ("boards", "place", "score"):
        assert all((math.isnan(a) and math.isnan(b)) or a == b
                   for a, b in zip(got[column], want[column], strict=True)), column
    assert list(pd.to_datetime(got["date"])) == list(pd.to_datetime(want["date"]))


def _csv(*rows: str, header: str = HEADER) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode("utf-8")


def test_averaged_and_repeated_ties() -> None:
    data = _csv(
        "C,Pairs,2013-10-03,pairs,MP,24,1,1,60,A1", "C,Pairs,2013-10-03,pairs,MP,24,1,1,60,A2",
        "C,Pairs,2013-10-03,pairs,MP,24,2,2.5,55,B1", "C,Pairs,2013-10-03,pairs,MP,24,2,2.5,55,B2",
        "C,Pairs,2013-10-03,pairs,MP,24,3,2.5,55,C1", "C,Pairs,2013-10-03,pairs,MP,24,3,2.5,55,C2",
        "C,Pairs,2013-10-03,pairs,MP,24,4,4,50,D1", "C,Pairs,2013-10-03,pairs,MP,24,4,4,50,D2",
        "C,Pairs,2013-10-03,pairs,MP,24,5,4,50,E1", "C,Pairs,2013-10-03,pairs,MP,24,5,4,50,E2",
        "C,Pairs,2013-10-03,pairs,MP,24,6,6-7,45,F1", "C,Pairs,2013-10-03,pairs,MP,24,6,6-7,45,F2",
        "C,Pairs,2013-10-03,pairs,MP,24,7,6-7,45,G1", "C,Pairs,2013-10-03,pairs,MP,24,7,6-7,45,G2",
    )
    frame = read_results_csv(data, "ties.csv")
    place = dict(zip(frame["player"], frame["place"], strict=True))
    assert place == {"A1": 1, "A2": 1, "B1": 2.5, "B2": 2.5, "C1": 2.5, "C2": 2.5,
                     "D1": 4.5, "D2": 4.5, "E1": 4.5, "E2": 4.5, "F1": 6.5, "F2": 6.5,
                     "G1": 6.5, "G2": 6.5}


def test_a_place_beyond_the_units_is_refused_with_its_row() -> None:
    """The README's first example had a tie 2-3 written by one pair of two: refused where it
    is, not by the rating engine after the rows are gone."""
    data = _csv("C,Pairs,2013-10-03,pairs,MP,24,1,1,60,A1", "C,Pairs,2013-10-03,pairs,MP,24,1,1,60,A2",
                "C,Pairs,2013-10-03,pairs,MP,24,2,2-3,55,B1",
                "C,Pairs,2013-10-03,pairs,MP,24,2,2-3,55,B2")
    with pytest.raises(MalformedFile) as refused:
        read_results_csv(data, "tie.csv")
    assert str(refused.value) == ("a place is outside 1-2 (the event has 2 units): value '2-3' "
                                  "(file tie.csv, row 4, column place)")


def test_the_engines_optional_columns_are_read() -> None:
    header = HEADER + ",club,unrated,abroad,field_rating"
    data = _csv("GP,Open,2013-10-03,pairs,MP,24,1,1,60,A1,BK A,0,1,550",
                "GP,Open,2013-10-03,pairs,MP,24,1,1,60,Guest,,yes,1,550",
                "GP,Open,2013-10-03,pairs,MP,24,2,2,40,B1,BK B,,true,\"550,5\"",
                "GP,Open,2013-10-03,pairs,MP,24,2,2,40,B2,BK B,no,1,550", header=header)
    frame = read_results_csv(data, "abroad.csv").set_index("player")
    assert list(frame["unrated"]) == [False, True, False, False]
    assert frame["abroad"].all()
    assert list(frame["field_rating"]) == [550.0, 550.0, 550.5, 550.0]
    assert frame.loc["A1", "club"] == "BK A"


@pytest.mark.parametrize("row,column,value", [
    ("C,Pairs,2013-02-31,pairs,MP,24,2,2,40,B1", "date", "2013-02-31"),
    ("C,Pairs,2013-10-03,pair,MP,24,2,2,40,B1", "kind", "pair"),
    ("C,Pairs,2013-10-03,pairs,MP,24,2,x,40,B1", "place", "x"),
    ("C,Pairs,2013-10-03,pairs,MP,24,2,0,40,B1", "place", "0"),
    ("C,Pairs,2013-10-03,pairs,MP,2x,2,2,40,B1", "boards", "2x"),
    ("C,Pairs,2013-10-03,pairs,MP,24,2,2,4o,B1", "score", "4o"),
    ("C,Pairs,2013-10-03,pairs,MP,24,2,2,40,", "player", ""),
])
def test_a_bad_value_is_named_with_its_row_and_column(row: str, column: str, value: str) -> None:
    good = "C,Pairs,2013-10-03,pairs,MP,24,1,1,60,A1"
    data = _csv(good, "", good.replace("A1", "A2"), row)  # a blank line: row numbers are lines
    with pytest.raises(MalformedFile) as raised:
        read_results_csv(data, "bad.csv")
    assert raised.value.row == 5 and raised.value.column == column
    assert raised.value.value == value and raised.value.file == "bad.csv"


def test_rate_reads_optional_columns_and_averaged_places_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = HEADER + ",unrated"
    rows = [f"C,Pairs,2013-10-03,pairs,MP,24,{u},{p},{60 - u},{n}{s},{int(n == 'G')}"
            for u, (p, n) in enumerate([("1", "A"), ("2.5", "B"), ("2.5", "G"), ("4", "D")], 1)
            for s in "12"]
    path = tmp_path / "r.csv"
    path.write_bytes(_csv(*rows, header=header))
    assert main(["rate", str(path), "--scheme", "belo2"]) == 0
    out = capsys.readouterr().out
    players = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert "G1" not in players and "A1" in players  # an unrated player gets no rating
