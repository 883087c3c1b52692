"""The grade a go player declared: read by every go reader, kept in the warehouse, and where each
go scheme starts a newcomer (docs/rules/go-rfg.md "Scale" and "First entry")."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from cli import main
from parsers import egd_table, go_html, opengotha
from parsers.go_grades import GoPlayerAsWritten, read_grade
from ratings._baselines import (
    EgfParams,
    EloParams,
    Glicko2Params,
    rate_egf,
    rate_elo,
    rate_glicko2,
)
from ratings._rfg import RfgBootstrapParams, RfgParams, rate_rfg, rate_rfg_bootstrap
from ratings._go import grade, grade_floor, grade_rating
from warehouse import open_warehouse

from .conftest import FIXTURES

OPENGOTHA = FIXTURES / "opengotha"
SYNTHETIC = OPENGOTHA / "handicap-jigo-forfeit-unplayed-bye.xml"
JUVISY = OPENGOTHA / "more" / "real-opengotha-juvisy-handicaps-declared-grades.xml"
EGD = FIXTURES / "egd_table" / "real-opengotha-export-unplayed-rounds.h9"
HTML = FIXTURES / "go_html" / "real-opengotha-standings-tied-places-footer-date.html"
RUSSIAN = FIXTURES / "go_html" / "russian-cp1251-tours-inconsistent-pair.html"

GRADES = [f"{n}k" for n in range(30, 0, -1)] + [f"{n}d" for n in range(1, 10)]


# --- reading a grade ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("30K", "30k"), ("9k", "9k"), ("2D", "2d"), ("2d", "2d"), ("1P", "1p"), ("7 kyu", "7k"),
    ("7 dan", "7d"), (" 12 Kyu ", "12k"), ("3 pro", "3p"), ("2д", "2d"), ("10к", "10k"),
    ("1 дан", "1d"),
])
def test_every_way_of_writing_a_grade_reads_the_same(text: str, expected: str) -> None:
    assert read_grade(text) == expected
    assert grade_rating(text) == grade_rating(expected)


@pytest.mark.parametrize("text", ["", "strong", "0k", "31k", "10d", "0d", "10p", "k3", "3x",
                                  "2200"])
def test_what_is_not_a_grade(text: str) -> None:
    assert read_grade(text) is None
    with pytest.raises(ValueError):
        grade_rating(text)


def test_the_grade_scale() -> None:
    # docs/rules/go-rfg.md "Scale": 0 = 21k, 100 points a grade, 2000 = 1k, 2100 = 1d
    assert [grade_rating(g) for g in ("30k", "21k", "18k", "7k", "1k", "1d", "2d", "7d")] == [
        -900.0, 0.0, 300.0, 1400.0, 2000.0, 2100.0, 2200.0, 2700.0]
    # the EGF's professional grades, 30 points apart from 2700
    assert [grade_rating(g) for g in ("1p", "2p", "9p")] == [2700.0, 2730.0, 2940.0]


@pytest.mark.parametrize("name", GRADES)
def test_grade_and_grade_rating_are_inverse(name: str) -> None:
    assert grade(grade_rating(name)) == name
    assert grade_floor(grade_rating(name)) == name


@pytest.mark.parametrize(("rating", "expected"), [
    (2200.0, "2d"), (2150.0, "2d"), (2149.99, "1d"), (2100.0, "1d"), (2050.0, "1d"),
    (2049.99, "1k"), (2000.0, "1k"), (1950.0, "1k"), (1949.99, "2k"), (1450.0, "6k"),
    (1449.99, "7k"), (1350.0, "7k"), (1349.99, "8k"), (50.0, "20k"), (49.99, "21k"),
    (-850.0, "29k"), (-850.01, "30k"), (-900.0, "30k"), (-5000.0, "30k"), (2650.0, "7d"),
    (2749.99, "7d"),
])
def test_grade_boundaries(rating: float, expected: str) -> None:
    """A grade covers its rating +-50, the upper half-way point belonging to the stronger
    grade (2050 is 1d; docs/rules/go-rfg.md "Scale"); nothing is shown below 30k."""
    assert grade(rating) == expected


# --- the readers -------------------------------------------------------------------------------


def _players(result: object) -> dict[str, GoPlayerAsWritten]:
    out: dict[str, GoPlayerAsWritten] = {}
    for event in result.events:  # type: ignore[attr-defined]
        for unit in event.units:
            for player in unit.players:
                assert isinstance(player, GoPlayerAsWritten)
                out[player.name] = player
    return out


def test_opengotha_keeps_grade_and_stated_rating() -> None:
    players = _players(opengotha.parse(SYNTHETIC.read_bytes()))
    novak = players["Novák Ján"]
    assert (novak.grade, novak.grade_as_written, novak.rating, novak.rating_origin) == (
        "2d", "2D", 2200.0, "EGF")
    rebelo = _players(opengotha.parse(JUVISY.read_bytes()))["Rebelo Manuela"]
    assert (rebelo.grade, rebelo.rating, rebelo.rating_origin) == ("18k", 276.0, "FFG : -1774")


def test_egd_table_and_go_html_keep_the_grade() -> None:
    assert _players(egd_table.parse(EGD.read_bytes()))["Chauvin Robin"].grade == "2d"
    grades = {p.grade for p in _players(go_html.parse(HTML.read_bytes())).values()}
    assert grades and None not in grades
    russian = _players(go_html.parse(RUSSIAN.read_bytes()))
    assert russian["Иванов Сергей"].grade == "2d" and russian["Козлов Иван"].grade == "10k"


def test_an_unreadable_grade_is_a_warning_not_a_refusal() -> None:
    data = SYNTHETIC.read_bytes().replace(b'grade="2D"', b'grade="strong"', 1)
    result = opengotha.parse(data, source="t.xml")
    (issue,) = [i for i in result.issues if "grade" in i.message]
    assert issue.level == "warning" and "'strong'" in issue.message
    novak = _players(result)["Novák Ján"]
    assert novak.grade is None and novak.grade_as_written == "strong"

    text = EGD.read_bytes().replace(b"Chauvin Robin                   2D",
                                    b"Chauvin Robin                  35k", 1)
    result = egd_table.parse(text, source="t.h9")
    assert any(i.level == "warning" and "'35k'" in i.message for i in result.issues)
    assert _players(result)["Chauvin Robin"].grade is None

    html = RUSSIAN.read_bytes().replace("<td>2д</td>".encode("cp1251"), b"<td>?</td>", 1)
    result = go_html.parse(html, source="t.html")
    assert any(i.level == "warning" and "grade '?'" in i.message for i in result.issues)
    assert _players(result)["Иванов Сергей"].grade is None


# --- the schemes -------------------------------------------------------------------------------


def _games(rank: str, opponent_rank: str, handicap: int = 0) -> pd.DataFrame:
    return pd.DataFrame({"period": ["t"], "player": ["a"], "opponent": ["b"], "result": [1.0],
                         "handicap": [handicap], "colour": ["b"], "rank": [rank],
                         "opponent_rank": [opponent_rank]})


def _before(run: object, player: str) -> float:
    ratings = run.ratings  # type: ignore[attr-defined]
    return float(ratings.loc[ratings["player"] == player, "rating_before"].iloc[0])


@pytest.mark.parametrize(("rate", "params", "default"), [
    (rate_rfg, RfgParams(), 1400.0),
    (rate_rfg_bootstrap, RfgBootstrapParams(), 1400.0),
    (rate_egf, EgfParams(), 0.0),
    (rate_elo, EloParams(), 1500.0),
    (rate_glicko2, Glicko2Params(), 1500.0),
])
def test_every_go_scheme_starts_a_newcomer_at_the_declared_grade(
        rate: object, params: object, default: float) -> None:
    run = rate(_games("2D", "30k"), params)  # type: ignore[operator]
    assert _before(run, "a") == 2200.0 and _before(run, "b") == -900.0
    run = rate(_games("", "7 kyu"), params)  # type: ignore[operator]
    assert _before(run, "a") == default and _before(run, "b") == 1400.0


def test_fixed_provisional_ignores_the_grade() -> None:
    run = rate_rfg(_games("2d", "5k"), RfgParams(provisional="fixed"))
    assert _before(run, "a") == _before(run, "b") == 1400.0


# --- through the warehouse: the Before column ---------------------------------------------------


def _project(tmp_path: Path, files: list[Path], scheme: str = "rfg") -> Path:
    (tmp_path / "files").mkdir()
    for path in files:
        shutil.copy(path, tmp_path / "files" / path.name)
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nsources = ["files/*"]\n'
        f'[[pools]]\nname = "go"\ngame = "go"\nscheme = "{scheme}"\nperiods = "tournament"\n',
        encoding="utf-8")
    config = ["--config", str(tmp_path / "clubratings.toml")]
    for command in ("ingest", "recompute", "publish"):
        assert main([command, *config]) == 0
    return tmp_path


def _first_period(root: Path) -> pd.DataFrame:
    """The first period of the current go run: each player's rating before, entry flag and the
    grades declared in it."""
    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        return wh.query(
            "WITH run AS (SELECT run_id FROM runs_in_force WHERE pool = 'go'), "
            "first AS (SELECT min(period_start) AS day FROM ratings JOIN run USING (run_id)) "
            "SELECT r.player_id, r.rating_before, r.entry, "
            "       list(DISTINCT d.grade) FILTER (WHERE d.grade IS NOT NULL) AS grades "
            "FROM ratings r JOIN run USING (run_id) JOIN first ON r.period_start = first.day "
            "LEFT JOIN go_entries d ON d.player_id = r.player_id "
            "GROUP BY ALL ORDER BY r.player_id")


_ROW = re.compile(r'<tr id="p\d+">.*?href="\.\./players/(\d+)\.html">([^<]*)</a></td>'
                  r'<td class="num">([^<]*)</td>')


def _before_column(root: Path) -> dict[str, list[tuple[int, str, float]]]:
    """Per go edition, the crosstable's rows: player id, name and the Before column."""
    return {page.parent.name: [(int(i), name, float(before)) for i, name, before
                               in _ROW.findall(page.read_text(encoding="utf-8"))]
            for page in sorted((root / "public" / "go").glob("*/crosstable.html"))}


def _declared(root: Path) -> dict[int, float]:
    """Each player's declared grade on our scale (the highest, if several)."""
    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        rows = wh.con.execute("SELECT DISTINCT player_id, grade FROM go_entries "
                              "WHERE grade IS NOT NULL").fetchall()
    out: dict[int, float] = {}
    for player, text in rows:
        out[player] = max(out.get(player, -math.inf), grade_rating(text))
    return out


@pytest.mark.parametrize("path", [EGD, HTML, RUSSIAN], ids=lambda p: p.name)
def test_egd_table_and_go_html_newcomers_start_at_their_grade(tmp_path: Path,
                                                              path: Path) -> None:
    root = _project(tmp_path, [path])
    first = _first_period(root)
    assert len(first) > 3 and first["entry"].all()
    for row in first.itertuples():
        assert len(row.grades) >= 1
        assert row.rating_before == max(grade_rating(g) for g in row.grades), row
    declared = _declared(root)
    (rows,) = _before_column(root).values()
    assert len(rows) == len(first)
    for player, name, before in rows:
        assert before == declared[player], (name, before)


def test_opengotha_before_column_is_the_declared_grade(project: Path) -> None:
    """The bundled default run: on the crosstable of each bundled OpenGotha tournament every
    newcomer's Before is the grade they declared on our scale (2D -> 2200.0), and the file's
    stated rating is kept."""
    root = project
    config = ["--config", str(root / "clubratings.toml")]
    for command in ("ingest", "recompute", "publish"):
        assert main([command, *config]) == 0
    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        stated = wh.con.execute(
            "SELECT DISTINCT d.stated_rating, d.rating_origin FROM go_entries d "
            "JOIN players p USING (player_id) WHERE p.name = 'Novák Ján'").fetchall()
    assert stated == [(2200.0, "EGF")]
    declared = _declared(root)
    editions = _before_column(root)
    assert len(editions) == 2 and sum(len(rows) for rows in editions.values()) >= 25
    for edition, rows in editions.items():
        for player, name, before in rows:
            assert before == declared[player], (edition, name, before)
    chauvin = [before for _, name, before in editions[
        "2017-02-11-Test-Participation-et-Licence-FFG"] if name == "Chauvin Robin"]
    assert chauvin == [2200.0]
    # the player page shows what the file said beside our rating
    with open_warehouse(root / "data" / "clubratings.duckdb") as wh:
        (novak,) = wh.con.execute(
            "SELECT player_id FROM players WHERE name = 'Novák Ján'").fetchall()[0]
    page = (root / "public" / "go" / "players" / f"{novak}.html").read_text(encoding="utf-8")
    line = re.search(r'<p class="meta" id="declared">(.*?)</p>', page)
    assert line is not None
    assert re.fullmatch(r"Their newest file: declared grade 2d, rating stated 2200 \(EGF\); "
                        r"ours \d+\.\d \(\d+[kd]\)\.", line.group(1)), line.group(1)


# --- the Juvisy tournament ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def juvisy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _project(tmp_path_factory.mktemp("juvisy"), [JUVISY])


def test_juvisy_handicap_games_matching_the_grades_are_even_chances(juvisy: Path) -> None:
    """A handicap game whose stones make up the difference of the declared grades is expected
    near 0.5 (before, with everyone at 1400, a 9-stone 18 kyu was expected 0.97)."""
    with open_warehouse(juvisy / "data" / "clubratings.duckdb") as wh:
        games = wh.query(
            "SELECT g.handicap, g.expected, a.grade AS own, b.grade AS other "
            "FROM game_contributions g JOIN runs_in_force f USING (run_id) "
            "JOIN (SELECT DISTINCT player_id, grade FROM go_entries) a "
            "  ON a.player_id = g.player_id "
            "JOIN (SELECT DISTINCT player_id, grade FROM go_entries) b "
            "  ON b.player_id = g.opponent_id "
            "WHERE g.handicap > 0 AND g.colour = 'b'")
    steps = [(grade_rating(o) - grade_rating(m)) / 100 for m, o in zip(games["own"],
                                                                      games["other"])]
    matching = games[[h == s for h, s in zip(games["handicap"], steps)]]
    assert len(matching) >= 2
    assert ((matching["expected"] - 0.5).abs() < 0.1).all(), matching
    # even the 18 kyu's nine stones against a 5 kyu (13 grades) are no longer a sure win
    assert games["expected"].max() < 0.6


def test_juvisy_newcomer_moves_as_the_deviation_says_in_explain(
        juvisy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rebelo Manuela, 18 kyu: starts at 300 with S = S* = (3000 - 300) / 4 = 675, and moves by
    K = S* / ((S*/S)^2 + Db) times each game's B (r - P) (docs/rules/go-rfg.md "One rating
    period"), shown game by game by clubratings explain."""
    capsys.readouterr()
    config = ["--config", str(juvisy / "clubratings.toml")]
    assert main(["explain", *config, "Rebelo", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["rating_before"] == 300.0 and data["entry"] is True
    assert data["grades"] == ["18k"]
    star = (3000.0 - 300.0) / 4.0
    assert data["deviation_before"] == pytest.approx(star)
    games = data["games"]
    db = sum(g["weight"] ** 2 * g["expected"] * (1 - g["expected"]) for g in games)
    k = star / ((star / data["deviation_before"]) ** 2 + db)
    assert data["k"] == pytest.approx(k)
    dn = sum(g["weight"] * (g["result"] - g["expected"]) for g in games)
    assert data["rating"] - data["rating_before"] == pytest.approx(k * dn)
    assert data["deviation"] == pytest.approx(math.sqrt(k * star))
    for g in games:
        assert g["change"] == pytest.approx(k * g["weight"] * (g["result"] - g["expected"]))
    assert abs(data["rating"] - data["rating_before"]) < 400  # was -781.6 from 1400

    assert main(["explain", *config, "Rebelo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"rating 300.0 -> {data['rating']:.1f} ({data['rating'] - 300:+.1f})"
    assert lines[2].startswith("new: starts at the grade declared, 18k = 300.0; "
                               "deviation S 675.0 = S* = (3000 - R) / 4 -> ")
    assert f"K {k:.1f}" in lines[2]
    assert lines[3].split() == ["opponent", "colour", "handicap", "expected", "result",
                                "change"]
    assert len([x for x in lines[4:] if x and not x.startswith("sum")]) == len(games)
