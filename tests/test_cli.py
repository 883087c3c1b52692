"""The command line: parse, rate, and one-line errors with exit code 2."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from cli import main

from .conftest import JFR_SAMPLE


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_jfr_sample(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "parse", str(JFR_SAMPLE))
    assert code == 0
    doc = json.loads(out)
    (event,) = doc["events"]
    assert event["date"] == "2013-08-08"
    assert event["kind"] == "pairs"
    assert event["scoring"] == "MP"
    assert len(event["units"]) == 23
    winner = event["units"][0]
    assert winner["place"] == 1
    assert winner["label"] == "13"
    assert [(p["name"], p["federation_id"]) for p in winner["players"]] == [
        ("Irena Chodorowska", "06542"), ("Jan Chodorowski", "06543"),
    ]


def test_parse_unknown_format_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("nothing to see\n")
    code, out, err = _run(capsys, "parse", str(path))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "unknown result format" in err
    assert "Traceback" not in err


SECTION4 = "docs/rules/bridge-belo.md §4: ten pairs, a 700/300 pair placed 6th, eighteen players at 500"


@pytest.fixture
def section4(tmp_path: Path) -> tuple[Path, Path]:
    """The worked example of docs/rules/bridge-belo.md §4 as a results CSV and initial ratings."""
    results = ["event,date,kind,scoring,boards,unit,place,player"]
    initial = ["player,rating"]
    place = 1
    for unit in range(1, 11):
        if unit == 6:
            members = ["Strong", "Weak"]
        else:
            members = [f"P{unit}a", f"P{unit}b"]
        for m in members:
            results.append(f"Club pairs,2013-10-03,pairs,MP,,{unit},{place},{m}")
        place += 1
    for unit in range(1, 11):
        if unit != 6:
            initial += [f"P{unit}a,500", f"P{unit}b,500"]
    initial += ["Strong,700", "Weak,300"]
    (tmp_path / "r.csv").write_text("\n".join(results) + "\n", encoding="utf-8")
    (tmp_path / "i.csv").write_text("\n".join(initial) + "\n", encoding="utf-8")
    return tmp_path / "r.csv", tmp_path / "i.csv"


def test_rate_reproduces_section_4(
    capsys: pytest.CaptureFixture[str], section4: tuple[Path, Path],
) -> None:
    results, initial = section4
    code, out, err = _run(
        capsys, "rate", str(results), "--scheme", "belo", "--initial", str(initial),
        "--set", "field=k", "partner=linear", "event_normalisation=off",
        "periodic_normalisation=never",
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) [:3] == ["player", "rating", "events"]
    by_player = {r["player"]: r for r in rows}
    assert float(by_player["Strong"]["rating"]) == pytest.approx(698.6, abs=0.01), SECTION4
    assert float(by_player["Weak"]["rating"]) == pytest.approx(299.4, abs=0.01), SECTION4
    assert by_player["Strong"]["events"] == "1"
    ratings = [float(r["rating"]) for r in rows]
    assert ratings == sorted(ratings, reverse=True)


def test_rate_writes_out_file(
    capsys: pytest.CaptureFixture[str], section4: tuple[Path, Path], tmp_path: Path,
) -> None:
    results, initial = section4
    out_file = tmp_path / "out.csv"
    code, out, _ = _run(capsys, "rate", str(results), "--scheme", "belo2", "--initial",
                        str(initial), "--set", "period=month", "--set", "partner=damped",
                        "--out", str(out_file))
    assert code == 0 and out == ""
    assert out_file.read_text(encoding="utf-8").startswith("player,rating,events\n")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--set", "feild=k"], "valid options"),
        (["--set", "partner=maybe"], "valid values"),
        (["--set", "partner"], "key=value"),
    ],
)
def test_rate_bad_option_exit_2(
    capsys: pytest.CaptureFixture[str], section4: tuple[Path, Path], args: list[str],
    needle: str,
) -> None:
    results, _ = section4
    code, out, err = _run(capsys, "rate", str(results), "--scheme", "belo", *args)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err


def test_rate_unknown_scheme_exit_2(
    capsys: pytest.CaptureFixture[str], section4: tuple[Path, Path],
) -> None:
    results, _ = section4
    code, _, err = _run(capsys, "rate", str(results), "--scheme", "nope")
    assert code == 2 and "belo" in err


# --- rate: go and preferans games CSVs ---------------------------------------------------------

def test_rate_go_games_reproduces_glickmans_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    games = tmp_path / "games.csv"
    games.write_text("period,player,opponent,result,handicap,colour\n"
                     "T1,Glickman,A,1,0,b\nT1,Glickman,B,0,0,w\nT1,Glickman,C,0,0,b\n",
                     encoding="utf-8")
    start = tmp_path / "initial.csv"
    start.write_text("player,rating,deviation\nGlickman,1500,200\nA,1400,30\nB,1550,100\n"
                     "C,1700,300\n", encoding="utf-8")
    assert main(["rate", str(games), "--scheme", "glicko2", "--initial", str(start)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "player,rating,deviation,grade,games"
    row = next(line.split(",") for line in lines if line.startswith("Glickman,"))
    assert abs(float(row[1]) - 1464.05) < 0.02 and abs(float(row[2]) - 151.52) < 0.01
    assert row[3:] == ["6k", "3"]
    assert main(["rate", str(games), "--scheme", "rfg"]) == 0
    assert capsys.readouterr().out.startswith("player,rating,deviation,grade,games\n")


def test_rate_preferans_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.csv"
    games.write_text(
        "game,date,variant,deals,length,player,vists\n"
        "1,2024-01-05,Сочи,20,40,Anna,12\n1,2024-01-05,Сочи,20,40,Boris,-4\n"
        "1,2024-01-05,Сочи,20,40,Clara,-8\n", encoding="utf-8")
    assert main(["rate", str(games), "--scheme", "nondiverging"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "player,rating,games,deals,vists_per_deal"
    # R = 0 + (1 - e^(-20/100)) (1.0 * 12/20 + 0 - 0) for Anna (docs/rules/preferans.md)
    anna = next(line.split(",") for line in lines if line.startswith("Anna,"))
    assert abs(float(anna[1]) - (1 - math.exp(-0.2)) * 0.6) < 1e-4
    assert anna[2:] == ["1", "20", "0.6000"]
    games.write_text(games.read_text(encoding="utf-8").replace("Clara,-8", "Clara,-5"),
                     encoding="utf-8")
    assert main(["rate", str(games), "--scheme", "makarov"]) == 2
    err = capsys.readouterr().err
    assert "game '1' segment 1: vists sum to 3" in err


def test_an_unread_file_names_the_format_it_looks_most_like(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    path = tmp_path / "club.csv"
    path.write_text("organiser,event,date,kind,scoring,boards,unit,rank,player\n"
                    "BK Senec,Pairs,2013-10-03,pairs,MP,24,1,1,Ján Novák\n"
                    "BK Senec,Pairs,2013-10-03,pairs,MP,24,1,1,Peter Kováč\n", encoding="utf-8")
    code, out, err = _run(capsys, "parse", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "looks most like csv_template" in err and "'place'" in err and "club.csv" in err


def test_a_file_like_no_format_says_nothing_came_close(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    path = tmp_path / "minutes.txt"
    path.write_text("Minutes of the committee meeting\nPresent: five members\n", encoding="utf-8")
    code, _, err = _run(capsys, "parse", str(path))
    assert code == 2 and "nothing came close" in err and err.count("\n") == 1
