"""Who is on a published list and where (docs/site.md, "Who is on a list"), checked on the
embedded default's lists against the warehouse, not against the code that made them:

- only people are listed: a guest the club wrote as initials nobody on its roster has, and a
  register entry that never played, are on no list;
- a ranked player has an event in the active window up to the edition (bridge: its quarter
  and the three before it) and at least ``min_events`` events so far;
- the counts are named for what they count, and the warehouse keeps the lists as published
  (``edition_entries``).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st



@pytest.fixture(scope="module")
def bundled(default_run: Path) -> Iterator[object]:
    """The embedded default after one nightly run: its config."""
    from flows import load_config

    yield load_config(default_run / "clubratings.toml")


def _lists(public: Path) -> dict[tuple[str, str], list[dict[str, str]]]:
    out = {}
    for path in sorted(public.glob("*/*/list.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            out[(path.parent.parent.name, path.parent.name)] = list(csv.DictReader(handle))
    assert len(out) > 6
    return out


def _query(cfg: object, sql: str, params: list[object] | None = None) -> pd.DataFrame:
    import duckdb

    con = duckdb.connect(str(cfg.warehouse), read_only=True)  # type: ignore[attr-defined]
    try:
        return con.execute(sql, params or []).df()
    finally:
        con.close()


def test_only_people_who_played_are_listed(bundled: object) -> None:
    lists = _lists(bundled.public)  # type: ignore[attr-defined]
    players = _query(bundled, "SELECT player_id, name, origin FROM players")
    initials = set(players.loc[players["origin"] == "initials", "player_id"].astype(int))
    assert initials, "the bundled Modra club writes a guest as TVa"
    played = set(_query(
        bundled, "SELECT DISTINCT canonical_id FROM members_resolved m "
        "JOIN active_events e USING (event_id)")["canonical_id"].astype(int))
    never = set(players["player_id"].astype(int)) - played
    for (pool, edition), rows in lists.items():
        ids = {int(r["player_id"]) for r in rows}
        assert not ids & initials, (pool, edition)
        assert not ids & never, (pool, edition)
        assert all(int(r["events_total"]) > 0 for r in rows), (pool, edition)
        assert "TVa" not in {r["player"] for r in rows}
    # the pages too: no page of the initials-only guest
    for pid in initials:
        assert not list(bundled.public.glob(f"*/players/{pid}.html"))  # type: ignore[attr-defined]


def _quarter_start(label: str) -> date:
    year, quarter = int(label[:4]), int(label[5])
    return date(year, 3 * quarter - 2, 1)


def _months_after(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def test_ranked_players_played_in_the_four_quarters_up_to_the_edition(bundled: object) -> None:
    lists = _lists(bundled.public)  # type: ignore[attr-defined]
    days = _query(
        bundled, "SELECT m.canonical_id AS player_id, e.event_date FROM members_resolved m "
        "JOIN active_events e USING (event_id) WHERE e.game = 'bridge'")
    by_player: dict[int, list[date]] = {}
    for pid, day in zip(days["player_id"].astype(int), days["event_date"], strict=True):
        by_player.setdefault(pid, []).append(pd.Timestamp(day).date())
    checked = inactive = 0
    for (pool, edition), rows in lists.items():
        if pool != "bridge":
            continue
        start = _quarter_start(edition)
        window, end = _months_after(start, -9), _months_after(start, 3)  # four quarters
        for r in rows:
            mine = by_player.get(int(r["player_id"]), [])
            recent = [d for d in mine if window <= d < end]
            if r["standing"] == "ranked":
                assert recent, (edition, r)
                assert int(r["events_total"]) >= 5 and r["rank"], (edition, r)
                checked += 1
            elif r["standing"] == "inactive":
                assert not recent, (edition, r)
                inactive += 1
            assert (int(r["events_year"]) > 0) == (r["standing"] != "inactive"), (edition, r)
    assert checked > 200 and inactive > 5


def test_last_year_window_ends_with_the_fourth_quarter_back() -> None:
    """An event in 2013Q4 counts for 2014Q3's list, not for 2014Q4's (365 days from the end
    of 2013Q4 to the end of 2014Q4: that quarter is out of the window)."""
    from publishing._standing import SiteSettings, _editions

    quarters = [("2013Q4", "2013-10-01", "2013-12-31"), ("2014Q1", "2014-01-01", "2014-03-31"),
                ("2014Q2", "2014-04-01", "2014-06-30"), ("2014Q3", "2014-07-01", "2014-09-30"),
                ("2014Q4", "2014-10-01", "2014-12-31")]
    rows = []
    for period, start, end in quarters:
        for pid, name in ((1, "Anna Early"), (2, "Ben Steady")):
            played = 5 if (pid == 1 and period == "2013Q4") or pid == 2 else 0
            rows.append({"period": period, "period_start": pd.Timestamp(start),
                         "period_end": pd.Timestamp(end), "player_id": pid, "name": name,
                         "federation_id": "", "club": "", "rating_before": 500.0,
                         "rating": 500.0 + pid, "events": played, "played": played,
                         "deviation": None, "deals": None, "vists": None})
    editions = _editions(pd.DataFrame(rows), set(), SiteSettings(), None)
    standing = {(e.period, r.player): (r.standing, r.events_year, r.last_played)
                for e in editions for r in e.rows}
    assert standing[("2014Q3", "Anna Early")] == ("ranked", 5, "2013Q4")
    assert standing[("2014Q4", "Anna Early")] == ("inactive", 0, "2013Q4")
    assert standing[("2014Q4", "Ben Steady")] == ("ranked", 20, "2014Q4")


@settings(max_examples=40, deadline=None)
@given(spans=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 120)), min_size=1,
                      max_size=9),
       played=st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=9,
                       max_size=9),
       active_days=st.sampled_from([0, 1, 30, 91, 365, 730, 10**12]))
def test_the_active_window_counts_each_players_events_as_walking_every_player_would(
        spans: list[tuple[int, int]], played: list[list[int]], active_days: int) -> None:
    """Each edition's events in the active window (``events_year``, which decides who is
    inactive) as the plain walk over every player and edition counts them: ``_editions``
    only looks at the players whose oldest event has left the window. Periods may overlap
    and end out of order (go tournaments); any ``active_days``, however large."""
    from collections import deque
    from datetime import timedelta

    from publishing._standing import SiteSettings, _editions

    day = date(2013, 1, 1)
    periods = [(f"P{i}", day + timedelta(days=start), day + timedelta(days=start + length))
               for i, (start, length) in enumerate(spans)]
    rows = [{"period": period, "period_start": pd.Timestamp(start),
             "period_end": pd.Timestamp(end), "player_id": pid, "name": f"Player {pid}",
             "federation_id": "", "club": "", "rating_before": 500.0, "rating": 500.0 + pid,
             "events": played[i][pid], "played": played[i][pid], "deviation": None,
             "deals": None, "vists": None}
            for i, (period, start, end) in enumerate(periods) for pid in range(4)]
    got = {(e.period, r.player_id): r.events_year
           for e in _editions(pd.DataFrame(rows), set(), SiteSettings(active_days=active_days),
                              None) for r in e.rows}
    # the plain walk, in the editions' order (by start, then name)
    expected: dict[tuple[str, int], int] = {}
    plays: dict[int, deque[tuple[date, int]]] = {}
    for i, (period, _, end) in sorted(enumerate(periods), key=lambda x: (x[1][1], x[1][0])):
        for pid in range(4):
            if played[i][pid] > 0:
                plays.setdefault(pid, deque()).append((end, played[i][pid]))
        if not any(played[i]):
            continue
        for pid, mine in plays.items():
            while mine and (end - mine[0][0]).days >= active_days:
                mine.popleft()
            expected.update({(period, pid): sum(n for _, n in mine)})
    assert {k: v for k, v in got.items()} == {
        k: expected.get(k, 0) for k in got}


def test_the_warehouse_keeps_the_lists_as_published(bundled: object) -> None:
    entries = _query(bundled, "SELECT * FROM edition_entries")
    lists = _lists(bundled.public)  # type: ignore[attr-defined]
    for (pool, slug), rows in lists.items():
        mine = entries[(entries["pool"] == pool)
                       & (entries["edition"].str.replace(r"[^\w.-]+", "-", regex=True)
                          .str.strip("-") == slug)]
        assert len(mine) == len(rows), (pool, slug)
        by_id = {int(r["player_id"]): r for r in rows}
        for rec in mine.itertuples(index=False):
            row = by_id[int(rec.player_id)]
            assert rec.standing == row["standing"]
            assert ("" if pd.isna(rec.rank) else str(int(rec.rank))) == row["rank"]
            assert rec.events_period == int(row["events_period"])
            assert rec.events_year == int(row["events_year"])
            assert f"{rec.rating:.1f}" == row["rating"]


def test_a_player_without_a_club_is_listed_with_the_club_that_organised_their_nights(
        bundled: object) -> None:
    lists = _lists(bundled.public)  # type: ignore[attr-defined]
    latest = lists[("bridge", "2015Q1")]
    assert all(r["club"] for r in latest), [r["player"] for r in latest if not r["club"]]


def test_a_newcomer_with_a_phantom_is_listed_at_the_average_of_the_two(bundled: object) -> None:
    """docs/site.md: while the phantom partner is with a newcomer, the list shows the rating
    the newcomer gets when it retires (docs/rules/bridge-belo.md §10): their own and the
    phantom's, averaged."""
    held = _query(
        bundled, "SELECT p.period, p.player_id, r.rating AS own, p.rating AS phantom "
        "FROM rating_phantoms p JOIN ratings r USING (run_id, period, player_id) "
        "WHERE p.run_id = (SELECT run_id FROM runs_in_force WHERE pool = 'bridge') "
        "AND p.state = 'active'")
    assert len(held) >= 4
    lists = _lists(bundled.public)  # type: ignore[attr-defined]
    for rec in held.itertuples(index=False):
        row = next(r for r in lists[("bridge", rec.period)]
                   if int(r["player_id"]) == rec.player_id)
        assert row["rating"] == f"{(rec.own + rec.phantom) / 2:.1f}", row
        assert rec.own < 450 < float(row["rating"])
