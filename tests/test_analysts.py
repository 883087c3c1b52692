"""What analysts read (docs/analysts.md): the views player_history / player_history_all
(migration 019) and edition_entries (018), and the page's queries, on small warehouses built
here: only the run in force of a pool, only the periods with events unless the carried ones are
asked for, the ten best ranked of the latest edition, a two-winner night counted once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from parsers import parse_bytes
from warehouse import Warehouse, load_result, open_warehouse

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "analysts.md"
NAME = "Wiesław Maciejczuk"
"""The player of the page's history queries (a player of the bundled default)."""


def _runnable() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    return re.findall(r"<!-- runnable -->\n```sql\n(.*?)```", text, re.S)


def _query(*words: str) -> str:
    """The page's runnable query that contains every one of ``words``."""
    found = [q for q in _runnable() if all(w in q for w in words)]
    assert len(found) == 1, f"docs/analysts.md: one runnable query with {words}, {len(found)}"
    return found[0]


_PERIODS = [("2014Q4", date(2014, 10, 1), date(2014, 12, 31)),
            ("2015Q1", date(2015, 1, 1), date(2015, 3, 31)),
            ("2015Q2", date(2015, 4, 1), date(2015, 6, 30))]
_EDITIONS = [(1, "2015Q1", date(2015, 1, 1), date(2015, 3, 31)),
             (1, "2015Q2", date(2015, 4, 1), date(2015, 6, 30)),
             (2, "2015Q3", date(2015, 7, 1), date(2015, 9, 30))]


def _fill(wh: Warehouse) -> None:
    """Twelve players; run 1 of the pool is in force (current_runs), run 2 is newer but not.
    Player 1 plays in the first and last period and carries the rating over in between;
    player 2 plays in all three, but the middle period's event did not count.
    Editions 2015Q1 and 2015Q2 of run 1 and 2015Q3 of run 2, each with ten ranked players
    (rank 1 the best, player 12), a provisional one (2) and an inactive one (1)."""
    now = pd.Timestamp.now()
    names = [NAME] + [f"Player {pid}" for pid in range(2, 13)]
    wh.insert_frame("players", pd.DataFrame({
        "player_id": range(1, 13), "name": names, "name_key": [n.lower() for n in names],
        "created_at": now, "created_by_file": 0}))
    wh.insert_frame("rating_runs", pd.DataFrame({
        "run_id": [1, 2], "pool": "bridge", "scheme": "belo2", "options": "{}",
        "period_unit": "quarter", "first_period": "2014Q4", "last_period": "2015Q2",
        "inputs_sha256": ["inputs-1", "inputs-2"], "code_version": "test", "created_at": now}))
    wh.insert_frame("current_runs", pd.DataFrame({"pool": ["bridge"], "run_id": [1],
                                                   "chosen_at": [now]}))
    ratings = []
    for run_id in (1, 2):
        for pid in range(1, 13):
            rating = 500.0 + pid
            for i, (label, start, end) in enumerate(_PERIODS):
                events = (0 if pid in (1, 2) and i == 1 else 3) if run_id == 1 else 7
                ratings.append((run_id, label, start, end, pid, rating, rating + events, events))
                rating += events
    wh.insert_frame("stored_ratings", pd.DataFrame(ratings, columns=[
        "run_id", "period", "period_start", "period_end", "player_id", "rating_before",
        "rating", "events"]))
    wh.insert_frame("run_periods", pd.DataFrame(  # each run's periods are its own rows
        [(run_id, label, run_id) for run_id in (1, 2) for label, _, _ in _PERIODS],
        columns=["run_id", "period", "stored_run"]))
    # player 2 played in 2015Q1, but the skip rule left the event out: played, not counted
    wh.insert_frame("stored_rating_contributions", pd.DataFrame({
        "run_id": [1], "period": ["2015Q1"], "event_id": [1], "player_id": [2], "unit_no": [1],
        "place": [1.0], "n": [10], "counted": [False], "reason": ["skip rule"]}))
    entries = []
    for run_id, edition, start, end in _EDITIONS:
        for pid in range(1, 13):
            standing = {1: "inactive", 2: "provisional"}.get(pid, "ranked")
            rank = None if standing != "ranked" else 13 - pid
            entries.append((run_id, "bridge", edition, start, end, pid, rank, standing,
                            "played", 500.0 + pid, 1.0, 3, 9, 20, edition, "Club"))
    frame = pd.DataFrame(entries, columns=[
        "run_id", "pool", "edition", "period_start", "period_end", "player_id", "rank",
        "standing", "status", "rating", "change", "events_period", "events_year",
        "events_total", "last_played", "club"])
    frame["rank"] = frame["rank"].astype("Int32")
    wh.insert_frame("list_entries", frame)


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warehouse]:
    """One warehouse for the module's tests, which only read it."""
    with open_warehouse(tmp_path_factory.mktemp("analysts") / "wh.duckdb") as opened:
        _fill(opened)
        yield opened


def test_player_history_has_the_periods_with_events_of_the_run_in_force(wh: Warehouse) -> None:
    rows = wh.query("SELECT * FROM player_history")
    assert set(rows["run_id"]) == {1} and set(rows["pool"]) == {"bridge"}
    assert len(rows) == 12 * 3 - 1  # player 1 carried 2015Q1 over
    assert (rows["events"] > 0).all() and not rows["carried"].any()
    skipped = rows[(rows["player_id"] == 2) & (rows["period"] == "2015Q1")]
    assert skipped[["events", "counted"]].values.tolist() == [[1, 0]]
    assert (rows["change"] == rows["rating"] - rows["rating_before"]).all()
    mine = wh.query(_query("FROM player_history\n", NAME))
    assert mine["period"].tolist() == ["2014Q4", "2015Q2"]


def test_player_history_all_adds_the_carried_periods_marked(wh: Warehouse) -> None:
    rows = wh.query("SELECT * FROM player_history_all")
    assert set(rows["run_id"]) == {1} and len(rows) == 12 * 3
    assert (rows["carried"] == (rows["events"] == 0)).all()
    assert (rows["events"] >= rows["counted"]).all()
    assert wh.query("SELECT count(*) AS n FROM player_history_all "
                    "WHERE events = 0 AND NOT carried")["n"][0] == 0
    played = wh.query("SELECT * EXCLUDE (carried) FROM player_history_all WHERE NOT carried "
                      "EXCEPT SELECT * EXCLUDE (carried) FROM player_history")
    assert played.empty
    mine = wh.query(_query("FROM player_history_all", NAME))
    assert mine["period"].tolist() == ["2014Q4", "2015Q1", "2015Q2"]
    assert mine["carried"].tolist() == [False, True, False]


def test_the_latest_edition_query_gives_its_ten_best_ranked(wh: Warehouse) -> None:
    top = wh.query(_query("FROM edition_entries", "LIMIT 10"))
    assert top["rank"].tolist() == list(range(1, 11))
    assert set(top["edition"]) == {"2015Q2"}  # the latest of the run in force, not of run 2
    assert top["player"].tolist() == [f"Player {pid}" for pid in range(12, 2, -1)]


def test_the_standings_query_counts_the_latest_edition_of_every_pool(wh: Warehouse) -> None:
    counts = wh.query(_query("FROM edition_entries", "standing, count(*)"))
    assert counts.to_dict("records") == [
        {"pool": "bridge", "edition": "2015Q2", "standing": s, "players": n}
        for s, n in (("inactive", 1), ("provisional", 1), ("ranked", 10))]


def test_edition_entries_are_the_lists_of_the_run_in_force(wh: Warehouse) -> None:
    rows = wh.query("SELECT * FROM edition_entries")
    assert set(rows["edition"]) == {"2015Q1", "2015Q2"} and set(rows["run_id"]) == {1}
    assert len(rows) == 2 * 12 and rows["player"].notna().all()
    assert ((rows["rank"].isna()) == (rows["standing"] != "ranked")).all()


def test_a_two_winner_night_counts_once_per_club(tmp_path: Path) -> None:
    """A Butler Mitchell ranks NS and EW apart: two events of one night, one night a club."""
    path = ROOT / "fixtures" / "real" / "usebio" / "compscore3-butler-mitchell-two-winners.xml"
    data = path.read_bytes()
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        load_result(wh, data, parse_bytes(data, source=path.name), path=path.name)
        stored = wh.query("SELECT organiser, event_date, title, section FROM active_events")
        nights = wh.query(_query("FROM active_events", "nights"))
    assert sorted(stored["section"]) == ["EW", "NS"]
    assert stored[["organiser", "event_date", "title"]].drop_duplicates().shape[0] == 1
    assert nights[["club", "nights", "tournaments", "rankings"]].to_dict("records") == [
        {"club": "Sunshine Coast Bridge Club", "nights": 1, "tournaments": 1, "rankings": 2}]
