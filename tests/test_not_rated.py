"""Every loaded event is rated or says why not (issue 39, case 6): in what ``clubratings
recompute`` prints and in the import report's "Events not rated".

One small project whose bridge pool starts on 2013-10-01 (``cutover``) and rates pairs only
(``kinds``): a club's nights of 2013Q4 and 2014Q1 (rated), a real PBN export of one night
(BridgeComposer, two directions) dated 2012, before the pool's start, a teams PBN (a kind the
pool does not rate), and a night where a name waits for review ("Sue Gonzales", offered as
"Susan Gonzales").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from flows import load_config
from flows._import_report import build_report
from flows._steps import rate_pool
from warehouse import open_warehouse

from ._csvs import club_event, csv_file
from ._lifecycle import cli, must, new_project

ROOT = Path(__file__).resolve().parents[1]

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter", cutover = "2013-10-01" }
kinds = ["pairs"]
"""

PAIRS = [("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
         ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Susan Gonzales")]

START = "before the pool's start (2013-10-01): it counts towards the start ratings only, no " \
        "list shows it"


def _files() -> dict[str, bytes]:
    pbn = ROOT / "fixtures" / "pbn"
    waiting = [*PAIRS[:3], ("Milan Baláž", "Sue Gonzales")]
    return {
        "club-2013.csv": csv_file(*(club_event(day, pairs=PAIRS) for day in (
            "2013-10-03", "2013-11-07", "2013-12-05"))),
        "club-2014.csv": csv_file(club_event("2014-01-09", pairs=PAIRS),
                                  club_event("2014-02-06", pairs=waiting)),
        "riverside-2012.pbn": (pbn / "totalscoretable-mitchell-two-directions-member-ids.pbn")
        .read_bytes().replace(b"2025.11.04", b"2012.11.06"),
        "teams-2014.pbn": (pbn / "totalscoretable-teams-vp-team-names-and-members.pbn")
        .read_bytes().replace(b"2025-01-18", b"2014-01-18"),
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = new_project(tmp_path_factory.mktemp("not-rated") / "project", CONFIG)
    for name, data in _files().items():
        (root / "inbox" / name).write_bytes(data)
    code, out, err = cli(root, "ingest")
    assert code == 0, out + err
    yield root, must(root, "recompute")


def test_recompute_says_which_files_hold_events_no_list_rates_and_why(
        project: tuple[Path, str]) -> None:
    _, out = project
    lines = [line for line in out.splitlines() if line.startswith("not rated: ")]
    assert lines[:3] == [
        "not rated: 2 events before the pool's start (2013-10-01): riverside-2012.pbn",
        "not rated: 1 event of a kind or scoring no pool rates: teams-2014.pbn",
        "not rated: 1 event waiting for review: club-2014.csv",
    ], out
    assert "import report" in lines[3]


def test_every_event_in_force_is_rated_or_in_the_report_with_its_reason(
        project: tuple[Path, str]) -> None:
    root, _ = project
    cfg = load_config(root / "clubratings.toml")
    with open_warehouse(cfg.warehouse) as wh:
        runs = [rate_pool(wh, pool) for pool in cfg.pools]
        report = build_report(wh, [], runs)
        in_force = {int(r[0]): (str(r[1]), str(r[2])[:10]) for r in wh.con.execute(
            "SELECT e.event_id, f.name, e.event_date FROM active_events e "
            "JOIN source_files f USING (file_id)").fetchall()}
        rated = {int(r[0]) for r in wh.con.execute(
            "SELECT DISTINCT event_id FROM rating_contributions WHERE run_id = ? AND counted",
            [runs[0].run_id]).fetchall()}
    sections = {s.title: s for s in report.sections}
    table = sections["Events not rated"]
    assert table.header == ("organiser", "date", "event", "section", "file", "why")
    assert len(table.rows) == len(set(table.rows))  # one row per event
    why = {(row[4], row[1]): row[5] for row in table.rows}
    # every event in force: rated by the run, or listed with its reason, never both
    listed = {e for e, key in in_force.items() if key in why}
    assert rated | listed == set(in_force) and not rated & listed
    assert why[("riverside-2012.pbn", "2012-11-06")] == START
    assert sum(1 for row in table.rows if row[4] == "riverside-2012.pbn") == 2  # directions
    assert why[("teams-2014.pbn", "2014-01-18")] == (
        "of a kind or scoring no pool rates: pool bridge rates pairs (any scoring), "
        "not teams (VP)")
    assert why[("club-2014.csv", "2014-02-06")].startswith("waiting for review: Sue Gonzales (")
    assert ("club-2014.csv", "2014-01-09") not in why  # the file's other night is rated
    overview = sections["Overview"].lines[2]
    assert ("events not rated: 4 (2 before the pool's start (2013-10-01), 1 of a kind or "
            "scoring no pool rates, 1 waiting for review)") in overview, overview
    assert sum(c["unrated"] for c in report.clubs.values()) == 4
    assert report.not_rated[0].startswith("not rated: 2 events before the pool's start")
