"""One night, many files (docs/rules/inputs.md): the same results written again by another file
are counted once, on the published lists too; a rendering that disagrees waits for a person."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from cli import main
from warehouse import open_warehouse

from ._csvs import club_event, csv_file

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""

PAIRS = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
         ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová"),
         ("Karol Szabó", "Lenka Vargová")]


def _club(tmp_path: Path) -> Path:
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for i, day in enumerate(("2013-10-03", "2013-10-10", "2013-10-17")):
        pairs = PAIRS[i:] + PAIRS[:i]
        (inbox / f"club-{day}.csv").write_bytes(csv_file(club_event(day, pairs=pairs)))
    return tmp_path


def _cli(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main([args[0], "--config", str(root / "clubratings.toml"), *args[1:]])
    out, err = capsys.readouterr()
    return code, out + err


def _lists(root: Path) -> dict[str, str]:
    public = root / "public"
    return {str(p.relative_to(public)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(public.rglob("*")) if p.is_file() and "reports" not in p.parts}


def _run(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, out = _cli(root, capsys, "run")
    assert code == 0, out
    return out


def _in_force(root: Path) -> list[tuple[str, str]]:
    with open_warehouse(root / "data" / "clubratings.duckdb", read_only=True) as wh:
        return [(str(r[0]), str(r[1])) for r in wh.con.execute(
            "SELECT event_date, title FROM active_events ORDER BY 1, 2").fetchall()]


def test_the_same_night_from_another_program_is_counted_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    _run(root, capsys)
    before, events = _lists(root), _in_force(root)
    # the second night again, as another program writes it: another title, the organiser in
    # capitals, the players' names in another order and case
    pairs = [(b.upper(), a) for a, b in PAIRS[1:] + PAIRS[:1]]
    again = club_event("2013-10-10", "Thursday pairs 10.10.2013", organiser="TEST CLUB",
                       pairs=pairs)
    (root / "inbox" / "export-from-another-program.csv").write_bytes(csv_file(again))
    out = _run(root, capsys)
    assert "same results as club-2013-10-10.csv" in out
    assert _in_force(root) == events
    assert _lists(root) == before  # every published list as it was
    report = (root / "public" / "reports" / "latest.html").read_text(encoding="utf-8")
    assert "export-from-another-program.csv" in report
    assert "same results as club-2013-10-10.csv" in report
    with open_warehouse(root / "data" / "clubratings.duckdb", read_only=True) as wh:
        # no player was created for the second rendering: its seats are the first one's
        assert wh.con.execute("SELECT count(*) FROM players").fetchall()[0][0] == 10
        assert wh.con.execute("SELECT count(*) FROM event_twins").fetchall()[0][0] == 1
        status = wh.con.execute("SELECT status FROM source_files "
                                "WHERE name = 'export-from-another-program.csv'").fetchall()
        assert status == [("same",)]


def test_withdrawing_the_first_rendering_brings_the_second_in_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    _run(root, capsys)
    before = _lists(root)
    pairs = PAIRS[1:] + PAIRS[:1]
    for name, title in (("web.csv", "Web page"), ("phone.csv", "Phone page")):
        (root / "inbox" / name).write_bytes(csv_file(club_event("2013-10-10", title,
                                                                pairs=pairs)))
        _run(root, capsys)
    assert _lists(root) == before
    with open_warehouse(root / "data" / "clubratings.duckdb", read_only=True) as wh:
        first = wh.con.execute("SELECT file_id FROM source_files "
                               "WHERE name = 'club-2013-10-10.csv'").fetchall()[0][0]
    assert _cli(root, capsys, "files", "withdraw", str(first), "--reason", "test")[0] == 0
    _run(root, capsys)
    nights = [d for d, _ in _in_force(root)]
    assert nights.count("2013-10-10") == 1  # the web page's rendering, not both
    assert ("2013-10-10", "Web page") in _in_force(root)
    lists = {k: v for k, v in _lists(root).items() if k.endswith("list.csv")}
    assert lists == {k: v for k, v in before.items() if k.endswith("list.csv")}
    assert _cli(root, capsys, "files", "restore", str(first))[0] == 0
    _run(root, capsys)
    assert ("2013-10-10", "Club pairs") in _in_force(root)
    assert [d for d, _ in _in_force(root)].count("2013-10-10") == 1


def test_a_rendering_that_disagrees_is_held_with_the_difference(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    _run(root, capsys)
    before, events = _lists(root), _in_force(root)
    pairs = PAIRS[1:] + PAIRS[:1]
    pairs[0], pairs[1] = pairs[1], pairs[0]  # the first two pairs swapped
    (root / "inbox" / "web.csv").write_bytes(csv_file(club_event("2013-10-10", "Web page",
                                                                 pairs=pairs)))
    out = _run(root, capsys)
    assert "HELD" in out and "the same night as event" in out
    assert _in_force(root) == events and _lists(root) == before
    code, listing = _cli(root, capsys, "review", "--list")
    assert "places differ" in listing
    assert "eva horvathova 1->2" in listing.lower() or "horvathova" in listing.lower()
    key = next(w for w in listing.split() if w.startswith("correction:"))
    assert _cli(root, capsys, "review", "--resolve", key, "--accept")[0] == 0
    _run(root, capsys)
    assert ("2013-10-10", "Web page") in _in_force(root)
    assert [d for d, _ in _in_force(root)].count("2013-10-10") == 1
    assert _lists(root) != before


def test_a_second_session_of_the_same_night_can_stand_beside_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    _run(root, capsys)
    pairs = PAIRS[1:] + PAIRS[:1]
    (root / "inbox" / "evening.csv").write_bytes(csv_file(club_event(
        "2013-10-10", "Evening session", pairs=pairs[::-1])))
    _run(root, capsys)
    code, listing = _cli(root, capsys, "review", "--list")
    key = next(w for w in listing.split() if w.startswith("correction:"))
    assert _cli(root, capsys, "review", "--resolve", key, "--separate")[0] == 0
    _run(root, capsys)
    nights = [t for d, t in _in_force(root) if d == "2013-10-10"]
    assert sorted(nights) == ["Club pairs", "Evening session"]


def test_different_nights_and_other_clubs_are_never_twins(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _club(tmp_path)
    _run(root, capsys)
    other = [("Ida Kráľová", "Oto Malý"), ("Pavol Hrubý", "Jana Biela"),
             ("Rudolf Čierny", "Vera Zelená"), ("Teodor Sivý", "Lucia Modrá")]
    (root / "inbox" / "other-club.csv").write_bytes(csv_file(club_event(
        "2013-10-10", "Club pairs", organiser="Other Club", pairs=other)))
    (root / "inbox" / "next-week.csv").write_bytes(csv_file(club_event(
        "2013-10-24", "Club pairs", pairs=PAIRS)))
    out = _run(root, capsys)
    assert "same results" not in out and "HELD" not in out
    assert len(_in_force(root)) == 5


def _usebio(rows: list[list[str]], title: str) -> bytes:
    """One night of the CSV template as a club's USEBIO 1.2 export, with its own title."""
    day = rows[0][2]
    pairs: dict[str, list[list[str]]] = {}
    for row in rows:
        pairs.setdefault(row[6], []).append(row)
    body = []
    for number, members in pairs.items():
        players = "".join(f"<PLAYER><PLAYER_NAME>{m[9]}</PLAYER_NAME></PLAYER>" for m in members)
        body.append(f"<PAIR><PAIR_NUMBER>{number}</PAIR_NUMBER><PERCENTAGE>{members[0][8]}"
                    f"</PERCENTAGE><PLACE>{members[0][7]}</PLACE>{players}</PAIR>")
    y, m, d = day.split("-")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2"><CLUB><CLUB_NAME>'
            f'{rows[0][0]}</CLUB_NAME></CLUB><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>'
            f'{title}</EVENT_DESCRIPTION><PROGRAM_NAME>Another scorer</PROGRAM_NAME>'
            f'<DATE>{d}/{m}/{y}</DATE><BOARD_COUNT>{rows[0][5]}</BOARD_COUNT>'
            f'<PARTICIPANTS EVENT_TYPE="MP_PAIRS">{"".join(body)}</PARTICIPANTS></EVENT>'
            '</USEBIO>\n').encode("utf-8")


def test_a_real_club_night_as_usebio_beside_its_csv_is_counted_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The club's CSV of 4 December 2014 and its scoring program's USEBIO export of the same
    night, titled as that program titles it: one night, rated once, the report says so."""
    (tmp_path / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    month = Path(__file__).parents[1] / "fixtures" / "club_season_later" / "singleton-2014-12.csv"
    (inbox / month.name).write_bytes(month.read_bytes())
    _run(tmp_path, capsys)
    before, events = _lists(tmp_path), _in_force(tmp_path)
    assert len(events) == 4
    rows = [line.split(",") for line in month.read_text(encoding="utf-8").splitlines()[1:]]
    night = [r for r in rows if r[2] == "2014-12-04"]
    (inbox / "czwartek-4-12-2014.xml").write_bytes(
        _usebio(night, "Czwartek 4.12.2014 - turniej par"))
    out = _run(tmp_path, capsys)
    assert "czwartek-4-12-2014.xml: same results as singleton-2014-12.csv" in out
    assert _in_force(tmp_path) == events  # four nights, the 4th of December once
    assert _lists(tmp_path) == before
    report = (tmp_path / "public" / "reports" / "latest.html").read_text(encoding="utf-8")
    assert "same results as singleton-2014-12.csv" in report
