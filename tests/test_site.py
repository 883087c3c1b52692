"""The editions site (publishing/_site.py, docs/site.md): the content of the generated pages.

One project per module: the bundled club season (bridge, no cut-over, so two quarterly
editions), a club night written in the CSV template with a player named like a script tag and
a player on the opt-out list, and the bundled OpenGotha tournaments (go). Built with the plain
library steps (no Prefect).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st

from flows import load_config
from flows._steps import publish, rate_pool
from flows.core import Project
from publishing import SiteSettings, publish_site, read_optout
from publishing._site import rating_chart
from warehouse import open_warehouse

from .conftest import FIXTURES

SCRIPT_NAME = "<script>alert(1)</script>"
"""A name with markup. The plausibility gate refuses such a name in a result file, so the
project renames a loaded player to it (as a register or a merge could name them): whatever name
the warehouse holds, every page must show it as text."""
LOADED_AS = "Skripta Testova"
HIDDEN_NAME = "Hidden Optout"
TEST_CLUB = "BK Test & Co"
REGULARS = "KS Sparta"
PLAYER_LINKS = "#{} a[href^='../players/']"
"""A table's links to player pages (its clubs link to club pages)."""

CLUB_NIGHT = f"""\
organiser,event,date,kind,scoring,boards,unit,place,score,player,club
BK Test,Club night,2013-11-14,pairs,MP,24,1,1,62.5,{LOADED_AS},{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,1,1,62.5,Zuzana Testova,{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,2,2,55.0,{HIDDEN_NAME},{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,2,2,55.0,Marek Testovy,{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,3,3,48.0,Ewa Testowa,{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,3,3,48.0,Olga Testowa,{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,4,4,34.5,Ivan Testov,{TEST_CLUB}
BK Test,Club night,2013-11-14,pairs,MP,24,4,4,34.5,Petr Testov,{TEST_CLUB}
"""

OLD_NIGHT = """\
organiser,event,date,kind,scoring,boards,unit,place,score,player,club
BK Test,Spring night,2012-05-10,pairs,MP,24,1,1,60.1,Stefan Dawny,BK Test
BK Test,Spring night,2012-05-10,pairs,MP,24,1,1,60.1,Olga Dawna,BK Test
BK Test,Spring night,2012-05-10,pairs,MP,24,2,2,52.0,Jan Dawny,BK Test
BK Test,Spring night,2012-05-10,pairs,MP,24,2,2,52.0,Ewa Dawna,BK Test
BK Test,Spring night,2012-05-10,pairs,MP,24,3,3,38.0,Piotr Dawny,BK Test
BK Test,Spring night,2012-05-10,pairs,MP,24,3,3,38.0,Anna Dawna,BK Test
"""
"""A club night more than a year before the rest: its players are inactive in 2013, and the
quarters between (nobody played) get no edition."""

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"
sources = ["fixtures/club_season/*.csv", "fixtures/site/*.csv", "fixtures/opengotha/*.xml"]

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""

GO_POOL = """
[[pools]]
name = "go"
game = "go"
scheme = "rfg"
"""


def build_site_project(root: Path, *, go: bool = True) -> Path:
    """A project whose publish step writes the site; returns its ``public`` folder."""
    (root / "fixtures" / "site").mkdir(parents=True)
    shutil.copytree(FIXTURES / "club_season", root / "fixtures" / "club_season")
    (root / "fixtures" / "site" / "club-night.csv").write_text(CLUB_NIGHT, encoding="utf-8")
    (root / "fixtures" / "site" / "old-night.csv").write_text(OLD_NIGHT, encoding="utf-8")
    if go:
        shutil.copytree(FIXTURES / "opengotha", root / "fixtures" / "opengotha")
    (root / "clubratings.toml").write_text(CONFIG + (GO_POOL if go else ""), encoding="utf-8")
    (root / "optout.txt").write_text(f"# asked not to be listed\n\n{HIDDEN_NAME}\n",
                                     encoding="utf-8")
    cfg = load_config(root / "clubratings.toml")
    with Project.open(cfg, command="test") as project:
        outcomes = project.ingest()
    assert [o.status for o in outcomes] == ["loaded"] * len(outcomes), outcomes
    with open_warehouse(cfg.warehouse) as wh:
        wh.con.execute("UPDATE players SET name = ? WHERE name = ?", [SCRIPT_NAME, LOADED_AS])
        # five regulars get their club from a member register (the season's files name none)
        wh.con.execute(
            "UPDATE players SET club = ? WHERE player_id IN (SELECT player_id FROM unit_members "
            "GROUP BY player_id HAVING count(*) >= 8 ORDER BY player_id LIMIT 5)", [REGULARS])
        for pool in cfg.pools:
            rate_pool(wh, pool)
            publish(wh, cfg, pool)
    return cfg.public


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield build_site_project(tmp_path_factory.mktemp("site"))


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def _warehouse(public: Path) -> Path:
    return public.parent / "data" / "clubratings.duckdb"


def _player_id(public: Path, name: str) -> int:
    with open_warehouse(_warehouse(public)) as wh:
        return int(wh.con.execute(
            "SELECT player_id FROM players WHERE name = ?", [name]).fetchall()[0][0])


# ---------------------------------------------------------------- index and editions


def test_index_lists_every_pool_with_editions_newest_first(public: Path) -> None:
    soup = _soup(public / "index.html")
    assert [h.text for h in soup.select("section.pool h2")] == ["bridge", "go"]
    bridge, go = soup.select("section.pool ul.editions")
    links = [a["href"] for a in bridge.select("li > a:first-child")]
    # no edition for the quarters between 2012Q2 and 2013Q3: nobody played in them
    assert links == ["bridge/2013Q4/index.html", "bridge/2013Q3/index.html",
                     "bridge/2012Q2/index.html"]
    assert [a["href"] for a in go.select("li > a:first-child")] == [
        "go/2024-03-16-Bratislava-Spring-Open-2024/index.html",
        "go/2017-02-11-Test-Participation-et-Licence-FFG/index.html",
    ]
    for href in links + [a["href"] for a in soup.select("a")]:
        assert (public / href).is_file(), href
    manifest = json.loads((public / "bridge" / "editions.json").read_text(encoding="utf-8"))
    assert [(e["period"], e["start"], e["end"]) for e in manifest["editions"]] == [
        ("2012Q2", "2012-04-01", "2012-06-30"), ("2013Q3", "2013-07-01", "2013-09-30"),
        ("2013Q4", "2013-10-01", "2013-12-31")]
    assert not (public / "bridge" / "2012Q3").exists()
    assert (public / "site.js").read_bytes() == (
        Path(__file__).parents[1] / "publishing" / "templates" / "site" / "site.js").read_bytes()


def test_edition_table_csv_and_parquet_agree_field_by_field(public: Path) -> None:
    folder = public / "bridge" / "2013Q4"
    rows = _csv(folder / "list.csv")
    assert list(rows[0]) == ["rank", "player_id", "federation_id", "player", "club", "rating",
                             "boards", "change", "events_period", "events_year", "events_total",
                             "last_played", "status", "standing"]
    table = pq.read_table(folder / "list.parquet")
    assert [str(t) for t in table.schema.types] == [
        "int32", "int64", "string", "string", "string", "double", "double", "double", "int32",
        "int32", "int32", "string", "string", "string"]
    assert any(r["federation_id"] for r in rows)  # the JFR players' PZBS ids
    frame = table.to_pandas()
    assert len(frame) == len(rows) > 40
    for rec, row in zip(frame.itertuples(index=False), rows, strict=True):
        assert (pd.isna(rec.rank) and row["rank"] == "") or rec.rank == int(row["rank"])
        assert rec.player_id == int(row["player_id"])
        assert ("" if pd.isna(rec.federation_id) else rec.federation_id) == row["federation_id"]
        assert rec.player == row["player"]
        assert rec.club == row["club"]
        assert rec.rating == float(row["rating"])
        assert (pd.isna(rec.change) and row["change"] == "") or rec.change == float(row["change"])
        assert rec.events_period == int(row["events_period"])
        assert rec.boards == int(row["boards"]) and (rec.boards > 0) == (rec.events_period > 0)
        assert rec.events_year == int(row["events_year"])
        assert rec.events_total == int(row["events_total"])
        assert (rec.last_played or "") == row["last_played"]
        assert rec.status == row["status"]
        assert rec.standing == row["standing"]
    # ranked by rank (so by rating), then the provisional, then the inactive (docs/site.md)
    parts = [("ranked", "provisional", "inactive").index(r["standing"]) for r in rows]
    assert parts == sorted(parts)
    ratings = [float(r["rating"]) for r in rows if r["standing"] == "ranked"]
    assert ratings == sorted(ratings, reverse=True)
    # the HTML table carries the ranked rows in the same order, and the same data as JSON
    ranked = [r for r in rows if r["standing"] == "ranked"]
    soup = _soup(folder / "index.html")
    body = soup.select("#list tbody tr")
    assert len(body) == len(ranked) > 10
    for tr, row in zip(body, ranked, strict=True):
        cells = [td.get_text(" ", strip=True) for td in tr.select("td")]
        name = row["player"] + (" new" if row["status"] == "new" else "")
        assert cells == [row["rank"], name, row["club"], row["rating"], row["change"],
                         row["events_period"], row["events_year"], row["boards"],
                         row["last_played"], row["federation_id"]]
        assert tr.select_one("a")["href"] == f"../players/{row['player_id']}.html"
    data = json.loads(soup.select_one("script#list-data").string)["rows"]
    assert [(d["id"], d["player"], d["ratingText"], d["changeText"], d["status"])
            for d in data] == [(int(r["player_id"]), r["player"], r["rating"], r["change"],
                                r["status"]) for r in ranked]


def test_who_is_ranked_provisional_or_inactive(public: Path) -> None:
    """Ranked: at least M = 5 events so far and one in the last 365 days; ranks count only
    them (1, 2, 2, 4 on equal shown ratings); the others are listed apart by surname."""
    q3 = _csv(public / "bridge" / "2013Q3" / "list.csv")
    q4 = _csv(public / "bridge" / "2013Q4" / "list.csv")
    in_q3 = {r["player_id"] for r in q3}
    for row in q4:
        expected = ("new" if row["player_id"] not in in_q3
                    else "played" if int(row["events_period"]) > 0 else "absent")
        assert row["status"] == expected, row
        old = row["last_played"] == "2012Q2"
        standing = ("inactive" if old else "provisional" if int(row["events_total"]) < 5
                    else "ranked")
        assert (int(row["events_year"]) == 0) == old, row
        assert row["standing"] == standing, row
        assert (row["rank"] != "") == (standing == "ranked"), row
        before = next((r for r in q3 if r["player_id"] == row["player_id"]), None)
        earlier = 0 if before is None else int(before["events_total"])
        assert int(row["events_total"]) == earlier + int(row["events_period"])
    ranked = [r for r in q4 if r["standing"] == "ranked"]
    assert all(int(r["events_total"]) >= 5 for r in ranked)  # nobody with fewer than M
    ranks, position, last = [], 0, None
    for r in ranked:
        position += 1
        ranks.append(position if r["rating"] != last else ranks[-1])
        last = r["rating"]
    assert [int(r["rank"]) for r in ranked] == ranks and ranks[0] == 1
    inactive = [r for r in q4 if r["standing"] == "inactive"]
    assert {r["player"] for r in inactive} == {
        "Stefan Dawny", "Olga Dawna", "Jan Dawny", "Ewa Dawna", "Piotr Dawny", "Anna Dawna"}
    new_q4 = [r for r in q4 if r["status"] == "new"]
    assert {r["player"] for r in new_q4} >= {SCRIPT_NAME, "Zuzana Testova", "Marek Testovy"}
    soup = _soup(public / "bridge" / "2013Q4" / "index.html")
    assert [a.text for a in soup.select(PLAYER_LINKS.format("new-players"))] == [
        r["player"] for r in new_q4]
    by_surname = ["Anna Dawna", "Ewa Dawna", "Olga Dawna", "Jan Dawny", "Piotr Dawny",
                  "Stefan Dawny"]
    assert [a.text for a in soup.select(PLAYER_LINKS.format("inactive-players"))] == by_surname
    provisional = [r["player"] for r in q4 if r["standing"] == "provisional"]
    shown = [a.text for a in soup.select(PLAYER_LINKS.format("provisional-players"))]
    assert sorted(shown) == sorted(provisional) and len(provisional) < len(q4)
    assert "Zuzana Testova" in shown and SCRIPT_NAME in shown
    # the 2012 players' first edition: everybody new, nobody with five events yet
    first = _csv(public / "bridge" / "2012Q2" / "list.csv")
    assert {r["standing"] for r in first} == {"provisional"}
    assert not (public / "bridge" / "how.html").read_text(encoding="utf-8").count("spec/")


def test_surname_key_reads_both_name_orders() -> None:
    from warehouse import surname_key

    assert surname_key("Ján Novák") == "novak jan"
    assert surname_key("NOVÁK Ján") == "novak jan"
    assert surname_key("Anna Maria Nowak-Kowalska") == "nowak-kowalska anna maria"
    assert surname_key("") == ""


def test_movers_are_the_largest_gains_and_losses(public: Path) -> None:
    q4 = _csv(public / "bridge" / "2013Q4" / "list.csv")
    changed = [r for r in q4 if r["change"] not in ("", "0.0") and r["standing"] == "ranked"]
    gains = sorted((r for r in changed if float(r["change"]) > 0),
                   key=lambda r: (-float(r["change"]), r["player"]))[:10]
    losses = sorted((r for r in changed if float(r["change"]) < 0),
                    key=lambda r: (float(r["change"]), r["player"]))[:10]
    assert gains and losses
    soup = _soup(public / "bridge" / "2013Q4" / "index.html")
    for table, expected in (("#gains", gains), ("#losses", losses)):
        shown = [[td.get_text(strip=True) for td in tr.select("td")]
                 for tr in soup.select(f"{table} tbody tr")]
        assert shown == [[r["player"], r["club"], r["change"]] for r in expected]
    first = _soup(public / "bridge" / "2013Q3" / "index.html")  # nobody moved yet
    assert [td.text for td in first.select("#gains td")] == ["none"]


def test_go_edition_has_deviation_and_grade_columns(public: Path) -> None:
    folder = public / "go" / "2024-03-16-Bratislava-Spring-Open-2024"
    header = (folder / "list.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == ("rank,player_id,federation_id,player,club,rating,deviation,interval,"
                      "grade,change,events_period,events_year,events_total,last_played,status,"
                      "standing")
    table = pq.read_table(folder / "list.parquet")
    assert str(table.schema.field("deviation").type) == "double"
    assert str(table.schema.field("grade").type) == "string"
    first = _csv(folder / "list.csv")[0]
    assert table.column("deviation")[0].as_py() == float(first["deviation"])


# ---------------------------------------------------------------- escaping and opt-out


def test_names_are_escaped_in_every_page(public: Path) -> None:
    pid = _player_id(public, SCRIPT_NAME)
    partner = _player_id(public, "Zuzana Testova")  # the name in her partners table
    for path in (public / "bridge" / "2013Q4" / "index.html",
                 public / "bridge" / "players" / f"{pid}.html",
                 public / "bridge" / "players" / f"{partner}.html"):
        html = path.read_text(encoding="utf-8")
        assert SCRIPT_NAME not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "BK Test &amp; Co" in html and "BK Test & Co" not in html
    data = (public / "bridge" / "2013Q4" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in data  # in the list of provisional players, as text
    player = _soup(public / "bridge" / "players" / f"{pid}.html")
    assert player.select_one("h1").text == SCRIPT_NAME
    assert [s.get("src") for s in player.select("script")] == []  # no script on player pages


def test_opted_out_player_appears_in_no_site_output(public: Path) -> None:
    hidden = _player_id(public, HIDDEN_NAME)
    site_files = [p for p in public.rglob("*") if p.is_file()
                  and (p.parent.name in ("players", "2013Q3", "2013Q4") or p.parent == public
                       or p.name == "editions.json")]
    assert len(site_files) > 50
    for path in site_files:
        data = path.read_bytes()
        assert HIDDEN_NAME.encode() not in data, path
    assert not (public / "bridge" / "players" / f"{hidden}.html").exists()
    q4 = _csv(public / "bridge" / "2013Q4" / "list.csv")
    assert str(hidden) not in {r["player_id"] for r in q4}
    ranked = [r for r in q4 if r["standing"] == "ranked"]
    for row in ranked:  # ranks counted among the players shown: no gap where one was hidden
        higher = sum(float(r["rating"]) > float(row["rating"]) for r in ranked)
        assert int(row["rank"]) == 1 + higher
    # the partner of the hidden player lists no partner; the warehouse still rates both
    partner = _player_id(public, "Marek Testovy")
    page = _soup(public / "bridge" / "players" / f"{partner}.html")
    assert page.select("#partners") == []
    with open_warehouse(_warehouse(public)) as wh:
        assert wh.con.execute("SELECT count(*) FROM ratings WHERE player_id = ? AND period = "
                              "'2013Q4'", [hidden]).fetchall()[0][0] == 1


def test_read_optout_ids_names_comments(tmp_path: Path) -> None:
    path = tmp_path / "optout.txt"
    assert read_optout(path) == frozenset()
    path.write_text("\ufeff# header\n 42 \n\nAnna Nowak\n  # indented comment\n",
                    encoding="utf-8")
    assert read_optout(path) == frozenset({"42", "Anna Nowak"})


# ---------------------------------------------------------------- player pages


def test_player_page_history_chart_events_and_partners(public: Path) -> None:
    pid = _player_id(public, "Zuzana Testova")
    partner = _player_id(public, SCRIPT_NAME)
    soup = _soup(public / "bridge" / "players" / f"{pid}.html")
    q4 = {r["player_id"]: r for r in _csv(public / "bridge" / "2013Q4" / "list.csv")}
    history = [[td.get_text(strip=True) for td in tr.select("td")]
               for tr in soup.select("#history tbody tr")]
    row = q4[str(pid)]
    assert history == [["2013Q4", row["rank"], row["rating"], "", row["events_period"],
                        "provisional, new"]]
    polyline = soup.select_one("svg#chart polyline")
    assert polyline is not None and len(polyline["points"].split()) == 2  # one point: a dash
    assert [c.select_one("title").text for c in soup.select("svg#chart circle")] == [
        f"2013Q4: {row['rating']}"]
    events = [[td.get_text(strip=True) for td in tr.select("td")]
              for tr in soup.select("#events tbody tr")]
    with open_warehouse(_warehouse(public)) as wh:
        run_id, place, n, r_prime, share = wh.con.execute(
            "SELECT run_id, place, n, r_prime, share FROM rating_explanations "
            "WHERE player_id = ? AND run_id = (SELECT max(run_id) FROM rating_runs "
            "WHERE pool = 'bridge')", [pid]).fetchall()[0]
    assert events == [["2013-11-14", "Club night", "BK Test", str(int(place)), str(n),
                       f"{r_prime:.1f}", f"{share:.2f}", "yes"]]
    assert [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in soup.select("#partners tbody tr")] == [[SCRIPT_NAME, "1", f"{r_prime:.1f}"]]
    assert soup.select_one("#partners a")["href"] == f"{partner}.html"
    assert run_id > 0


def test_player_pages_read_a_range_of_players_at_a_time_and_come_out_the_same(
        public: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The player pages read their events and partners tables a range of players at a time
    (publishing/_site.py ``PAGE_ROWS``, so that a national history's millions of rows are
    not held at once): ranges of a few rows each write the pages one range writes."""
    import dataclasses

    import publishing._site as site
    from warehouse import latest_run
    from warehouse.editions import explained_players

    cfg = load_config(public.parent / "clubratings.toml")
    monkeypatch.setattr(site, "PAGE_ROWS", 7)
    with open_warehouse(cfg.warehouse) as wh:
        run = latest_run(wh, "bridge")
        assert run is not None
        spans = explained_players(wh, run.run_id, rows=7)
        assert len(spans) > 5
        assert all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:], strict=False))
        publish(wh, dataclasses.replace(cfg, public=tmp_path / "public"), cfg.pools[0])
    pages = sorted((public / "bridge" / "players").glob("*.html"))
    again = sorted((tmp_path / "public" / "bridge" / "players").glob("*.html"))
    assert [p.name for p in again] == [p.name for p in pages]
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in pages]
    assert any(b"<table id=\"partners\">" in p.read_bytes() for p in again)


def test_player_page_with_two_editions_draws_a_line(public: Path) -> None:
    q3 = _csv(public / "bridge" / "2013Q3" / "list.csv")
    q4 = {r["player_id"]: r for r in _csv(public / "bridge" / "2013Q4" / "list.csv")}
    top = q3[0]
    soup = _soup(public / "bridge" / "players" / f"{top['player_id']}.html")
    points = soup.select_one("svg#chart polyline")["points"].split()
    assert len(points) == 2
    (x1, y1), (x2, y2) = ((float(v) for v in p.split(",")) for p in points)
    assert x1 < x2
    later = float(q4[top["player_id"]]["rating"])
    assert (y2 < y1) == (later > float(top["rating"]))  # up on the page is a higher rating
    assert [tr.select_one("td").text for tr in soup.select("#history tbody tr")] == [
        "2013Q4", "2013Q3"]


def test_go_player_page_lists_games(public: Path) -> None:
    rows = _csv(public / "go" / "2024-03-16-Bratislava-Spring-Open-2024" / "list.csv")
    with open_warehouse(_warehouse(public)) as wh:
        pid, games = wh.con.execute(
            "SELECT player_id, count(*) FROM game_contributions WHERE run_id = (SELECT "
            "max(run_id) FROM rating_runs WHERE pool = 'go') GROUP BY 1 ORDER BY 2 DESC, 1 "
            "LIMIT 1").fetchall()[0]
    assert str(pid) in {r["player_id"] for r in rows}
    soup = _soup(public / "go" / "players" / f"{pid}.html")
    results = [tr.select("td")[4].text for tr in soup.select("#games tbody tr")]
    assert len(results) == games and set(results) <= {"win", "loss", "jigo"}


def test_rating_chart_geometry() -> None:
    chart = rating_chart([("A", date(2020, 1, 1), 500.0), ("B", date(2020, 1, 11), 600.0),
                          ("C", date(2020, 1, 21), 550.0)])
    xs = [d.x for d in chart.dots]
    ys = [d.y for d in chart.dots]
    assert xs == [chart.left, (chart.left + chart.right) / 2, chart.right]
    assert ys == [chart.bottom, chart.top, (chart.top + chart.bottom) / 2]
    assert chart.points == " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
    assert [label for _, label in chart.y_ticks] == ["600", "550", "500"]
    flat = rating_chart([("A", date(2020, 1, 1), 500.0), ("B", date(2020, 1, 1), 500.0)])
    assert [d.x for d in flat.dots] == [flat.left, flat.right]  # same date: evenly spaced
    assert len({d.y for d in flat.dots}) == 1


# ---------------------------------------------------------------- bytes


def test_second_publish_rewrites_nothing_and_opt_out_removes_pages(
        tmp_path: Path) -> None:
    public = build_site_project(tmp_path, go=False)
    cfg = load_config(tmp_path / "clubratings.toml")
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in public.rglob("*")
              if p.is_file()}
    with open_warehouse(cfg.warehouse) as wh:
        publish(wh, cfg, cfg.pools[0])
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in public.rglob("*")
             if p.is_file()}
    assert after == before
    # opting out a player later removes their page and their rows; an edition an earlier
    # publication wrote and the latest run no longer has is removed
    victim = _player_id(public, "Zuzana Testova")
    assert (public / "bridge" / "players" / f"{victim}.html").exists()
    manifest = public / "bridge" / "editions.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["editions"].insert(0, {"period": "2013Q2", "slug": "2013Q2"})
    manifest.write_text(json.dumps(data), encoding="utf-8")
    (public / "bridge" / "2013Q2").mkdir()
    (public / "bridge" / "2013Q2" / "list.csv").write_text("old\n", encoding="utf-8")
    (public / "bridge" / "clubs" / "a-club-gone.html").write_text("old\n", encoding="utf-8")
    with open_warehouse(cfg.warehouse) as wh:
        publish_site(wh, "bridge", public,
                     settings=SiteSettings(optout=frozenset({str(victim), HIDDEN_NAME})))
    assert not (public / "bridge" / "players" / f"{victim}.html").exists()
    assert str(victim) not in {r["player_id"] for r in _csv(public / "bridge" / "2013Q4" /
                                                             "list.csv")}
    assert not (public / "bridge" / "2013Q2").exists()
    assert not (public / "bridge" / "clubs" / "a-club-gone.html").exists()  # like a player's
    assert (public / "bridge" / "clubs" / "index.html").is_file()
    assert sorted(os.listdir(public / "bridge" / "2013Q4")) == [
        "index.html", "list.csv", "list.parquet"]


def test_csv_cells_that_a_spreadsheet_would_run_are_written_as_text() -> None:
    from publishing import safe_cell

    assert [safe_cell(t) for t in ("=HYPERLINK(\"x\")", "@SUM(1+1)", "+48 600", "-1+2", "\tx",
                               "\r=1", "-12.5", "Anna")] == [
        "'=HYPERLINK(\"x\")", "'@SUM(1+1)", "'+48 600", "'-1+2", "'\tx", "'\r=1", "-12.5",
        "Anna"]


def test_list_policy_is_read_from_the_pool_and_checked(tmp_path: Path) -> None:
    from flows._config import ConfigError

    path = tmp_path / "clubratings.toml"
    path.write_text(CONFIG + 'list = { min_events = 3, active_days = 730 }\n' + GO_POOL +
                    'list = { max_deviation = 150 }\n', encoding="utf-8")
    bridge, go = load_config(path).pools
    assert (bridge.min_events, bridge.active_days, bridge.max_deviation) == (3, 730, None)
    assert (go.min_events, go.active_days, go.max_deviation) == (5, 365, 150.0)
    path.write_text(CONFIG + 'list = { min_event = 3 }\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"list\.min_event: unknown key \(did you mean "
                       r"'min_events'\?\)"):
        load_config(path)


def test_a_players_club_is_the_one_written_last_up_to_the_edition() -> None:
    from datetime import date

    from publishing._standing import _club_at

    clubs = {7: ([date(2013, 9, 5), date(2014, 2, 6)], ["BK Modra", "BK Pezinok"])}
    assert _club_at(clubs, 7, date(2013, 12, 31), "BK Pezinok") == "BK Modra"
    assert _club_at(clubs, 7, date(2014, 3, 31), "BK Pezinok") == "BK Pezinok"
    assert _club_at(clubs, 7, date(2013, 6, 30), "BK Pezinok") == "BK Pezinok"  # none yet
    assert _club_at(clubs, 8, date(2014, 3, 31), "") == ""


# ---------------------------------------------------------------- club pages


def _rows(soup: BeautifulSoup, table: str) -> list[list[str]]:
    return [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in soup.select(f"#{table} tbody tr")]


def test_club_pages_list_the_clubs_players_and_events_newest_first(public: Path) -> None:
    from publishing._site import club_slug
    from publishing._standing import STATUSES

    clubs = public / "bridge" / "clubs"
    index = _soup(clubs / "index.html")
    links = {a.text: a["href"] for a in index.select("#clubs a")}
    latest = _csv(public / "bridge" / "2013Q4" / "list.csv")
    assert set(links) == {r["club"] for r in latest if r["club"]}
    assert links[TEST_CLUB] == "bk-test-co.html" and links["BK Test"] == "bk-test.html"
    for href in links.values():
        assert (clubs / href).is_file()

    # a club's players: those of the latest edition with the club, ranked first
    soup = _soup(clubs / "bk-test-co.html")
    assert soup.select_one("h1").text == TEST_CLUB
    members = [r for r in latest if r["club"] == TEST_CLUB]
    assert sorted(a.text for a in soup.select("#club-players a")) == sorted(
        r["player"] for r in members)
    assert SCRIPT_NAME in [a.text for a in soup.select("#club-players a")]
    assert HIDDEN_NAME not in soup.text  # opted out: on no club page either
    standings = [row[3] for row in _rows(soup, "club-players")]
    order = {"ranked": 0, "provisional": 1, "inactive": 2}
    assert standings == sorted(standings, key=order.__getitem__)
    assert soup.select_one("#club-events-none") is not None  # its nights name "BK Test"

    # the events a club organised (the organiser "BK Test"), newest first, with their units
    soup = _soup(clubs / "bk-test.html")
    assert _rows(soup, "club-events") == [["2013-11-14", "Club night", "4"],
                                          ["2012-05-10", "Spring night", "3"]]
    assert {a.text for a in soup.select("#club-players a")} == {
        "Stefan Dawny", "Olga Dawna", "Jan Dawny", "Ewa Dawna", "Piotr Dawny", "Anna Dawna"}
    assert {row[3] for row in _rows(soup, "club-players")} == {"inactive"}

    # the edition links its clubs (the ranked table too, without the script) and the index
    edition = _soup(public / "bridge" / "2013Q4" / "index.html")
    assert edition.select_one("nav a[href='../clubs/index.html']") is not None
    assert edition.select_one(
        "#provisional-players a[href='../clubs/bk-test-co.html']").text == TEST_CLUB
    ranked = [r for r in latest if r["standing"] == "ranked" and r["club"]]
    assert ranked  # the register's club of the regulars
    cells = edition.select("#list tbody td a[href^='../clubs/']")
    assert sorted(a.text for a in cells) == sorted(r["club"] for r in ranked)
    data = json.loads(edition.select_one("#list-data").string)
    assert data["clubs"] == {r["club"]: links[r["club"]][:-5] for r in ranked}
    # ... and a player's page its club
    player = _soup(public / "bridge" / "players" /
                   f"{_player_id(public, 'Zuzana Testova')}.html")
    assert player.select_one("p.meta a")["href"] == "../clubs/bk-test-co.html"
    assert _soup(public / "index.html").select_one("a[href='bridge/clubs/index.html']")
    # the status filter offers the statuses the rows have
    statuses = [o["value"] for o in edition.select("#filter-status option")]
    assert statuses == ["", *STATUSES]
    assert {r["status"] for r in latest} <= set(STATUSES)

    assert club_slug("Łódź Bridge-Club ") == "lodz-bridge-club"
    assert club_slug("../../etc") == "etc"
    assert club_slug("«Мизер»").startswith("club-")


def test_go_club_pages_count_games_per_tournament(public: Path) -> None:
    clubs = public / "go" / "clubs"
    index = _soup(clubs / "index.html")
    assert index.select("#clubs a")
    for a in index.select("#clubs a"):
        page = _soup(clubs / a["href"])
        assert page.select_one("h1").text == a.text
        assert page.select("#club-players tbody a")


def test_player_pages_list_events_and_games_newest_first(public: Path) -> None:
    with open_warehouse(_warehouse(public)) as wh:
        pid, events = wh.con.execute(
            "SELECT player_id, count(*) FROM rating_explanations WHERE run_id = (SELECT "
            "max(run_id) FROM rating_runs WHERE pool = 'bridge') GROUP BY 1 "
            "ORDER BY 2 DESC, 1 LIMIT 1").fetchall()[0]
    soup = _soup(public / "bridge" / "players" / f"{pid}.html")
    dates = [row[0] for row in _rows(soup, "events")]
    assert len(dates) == events > 5
    assert dates == sorted(dates, reverse=True) and dates[0] > dates[-1]

    manifest = json.loads((public / "go" / "editions.json").read_text(encoding="utf-8"))
    newest = {e["period"]: -i for i, e in enumerate(manifest["editions"])}
    seen = 0
    for page in sorted((public / "go" / "players").glob("*.html")):
        periods = [row[0] for row in _rows(_soup(page), "games")]
        assert [newest[p] for p in periods] == sorted(newest[p] for p in periods), page
        seen += bool(periods)
    assert seen > 10


# ---------------------------------------------------------------- index and quality page


def test_index_names_the_federation_and_the_day_of_the_last_update(
        public: Path, tmp_path: Path) -> None:
    from publishing._site import write_site_index

    assert _soup(public / "index.html").select_one("h1").text == "Rating lists"  # no name
    site = tmp_path / "public"
    shutil.copytree(public, site)
    with open_warehouse(_warehouse(public)) as wh:
        publish_site(wh, "bridge", site, federation="Example Federation & Co")
        created = max(str(d) for (d,) in wh.con.execute(
            "SELECT CAST(created_at AS DATE) FROM rating_runs WHERE run_id IN "
            "(SELECT run_id FROM runs_in_force)").fetchall())
    soup = _soup(site / "index.html")
    assert soup.select_one("h1").text == "Example Federation & Co"
    assert soup.select_one("title").text == "Example Federation & Co"
    assert soup.select_one("#updated time")["datetime"] == created
    manifest = json.loads((site / "bridge" / "editions.json").read_text(encoding="utf-8"))
    assert manifest["updated"] <= created and manifest["federation"] == "Example Federation & Co"
    # a later index without a name keeps the publication's; the reports' list is linked
    (site / "reports").mkdir(exist_ok=True)
    (site / "reports" / "index.html").write_text("<p>reports</p>", encoding="utf-8")
    write_site_index(site)
    soup = _soup(site / "index.html")
    assert soup.select_one("h1").text == "Example Federation & Co"
    assert soup.select_one("a[href='reports/index.html']") is not None


def test_quality_page_leads_with_a_verdict_and_the_means(tmp_path: Path) -> None:
    from publishing._site import write_site_index

    source = Path(__file__).parents[1] / "docs" / "quality.json"
    shutil.copy(source, tmp_path / "quality.json")
    public = tmp_path / "public"
    public.mkdir()
    write_site_index(public, tmp_path / "quality.json")
    soup = _soup(public / "quality.html")
    data = json.loads(source.read_text(encoding="utf-8"))
    spearman: dict[str, list[float]] = {}
    for report in data["reports"]:
        for row in report["rows"]:
            spearman.setdefault(row["scheme"], []).append(row["spearman"])
    means = {k: sum(v) / len(v) for k, v in spearman.items()}
    order = sorted(means, key=lambda k: (-means[k], k))
    verdict = soup.select_one("#verdict").get_text(" ", strip=True)
    assert verdict.startswith(f"Over {len(data['reports'])} simulated federations")
    assert f"{order[0]} follows the true strength best" in verdict
    # the lead is over the next other scheme: a variant of the same scheme (whr-fixed beside
    # whr) is not counted
    other = next(k for k in order[1:] if k.split("-")[0] != order[0].split("-")[0])
    assert f"{means[order[0]]:.3f}" in verdict and f"{means[order[0]] - means[other]:.3f}" \
        in verdict and f"{other}, the next best other scheme" in verdict
    rows = _rows(soup, "means")
    assert [r[0] for r in rows] == order
    assert [r[1] for r in rows] == [f"{means[k]:.3f}" for k in order]
    # the verdict and the means come first, every simulation's table after, folded
    body = str(soup)
    assert body.index('id="verdict"') < body.index('id="means"') < body.index("<details")
    assert len(soup.select("section.quality details")) == len(data["reports"])
    assert len(soup.select("details table")) == len(data["reports"])


def calibrated_quality(folder: Path) -> Path:
    """A small ``quality.json`` whose rows carry calibration (two seeds of one preset: BELO
    without probabilities, Elo, Glicko-2 and WHR with them) and a ``quality-real.json`` beside
    it (BELO's probabilities from the fitted logistic); returns the ``quality.json``."""
    import numpy as np

    from quality.metrics import reliability

    rng = np.random.default_rng(3)

    def calibration(sure: float) -> dict[str, object]:
        p = rng.uniform(0.5, 1.0, 400)  # the better-placed unit first: every outcome is 1
        ahead = rng.uniform(0.0, 1.0, p.size) < 0.5 + (p - 0.5) * sure
        return reliability(np.where(ahead, p, 1.0 - p), np.ones(p.size)).to_dict()

    def row(scheme: str, sure: float | None) -> dict[str, object]:
        plain: dict[str, object] = {
            "scheme": scheme, "spearman": 0.9, "kendall": 0.8, "kn": 10.0, "ln": 5.0,
            "kn_pct": 2.0, "pair_accuracy": 0.7, "log_loss": None if sure is None else 0.6,
            "separation": None, "seconds": 0.1}
        if sure is not None:
            plain["calibration"] = calibration(sure)
        return plain

    reports = [{"preset": "tiny", "seed": seed, "players": 12, "events": 20,
                "final_players": 12, "predicted_pairs": 400, "inter_club_events": None,
                "rows": [row("belo", None), row("elo", 1.0), row("glicko2", 0.6),
                         row("whr", 0.9)]} for seed in (1, 2)]
    source = folder / "quality.json"
    source.write_text(json.dumps({"command": "clubratings evaluate --preset tiny --seed 1,2",
                                  "reports": reports}), encoding="utf-8")

    def real_row(scheme: str, fitted: bool) -> dict[str, object]:
        return {"scheme": scheme, "comparisons": 400, "pair_accuracy": 0.65, "log_loss": 0.62,
                "fitted": fitted, "difference": None, "low": None, "high": None,
                "seconds": 0.1, "calibration": calibration(0.8)}

    real = {"source": "Test Club", "first_date": "2014-01-07", "last_date": "2015-12-29",
            "nights": 90, "events": 90, "refused_events": 0, "percent_events": 90,
            "players": 40, "predicted_nights": 80,
            "all_rows": [real_row("belo", True), real_row("elo", False)],
            "rated_rows": [real_row("belo", True), real_row("elo", False)]}
    (folder / "quality-real.json").write_text(
        json.dumps({"command": "clubratings evaluate --warehouse x.duckdb", "real": real}),
        encoding="utf-8")
    return source


def test_quality_page_plots_the_calibration_of_every_scheme_with_probabilities(
        tmp_path: Path) -> None:
    from publishing._site import write_site_index

    source = calibrated_quality(tmp_path)
    public = tmp_path / "public"
    public.mkdir()
    write_site_index(public, source)
    soup = _soup(public / "quality.html")
    figure = soup.select_one("div.calibration#calibration-tiny")
    assert figure is not None
    svg = figure.select_one("svg.reliability")
    assert svg is not None and svg["viewbox"].startswith("0 0 ")  # html.parser lowers it
    assert svg.select_one("line.diagonal") is not None
    series = svg.select("g.series")
    assert [g["data-scheme"] for g in series] == ["elo", "glicko2", "whr"]  # not belo
    assert len({g.select_one("polyline")["stroke"] for g in series}) == 3  # a style each
    data = json.loads(source.read_text(encoding="utf-8"))
    for g in series:
        parts = [r["calibration"] for report in data["reports"] for r in report["rows"]
                 if r["scheme"] == g["data-scheme"]]
        bins = {(b["low"], b["high"]) for part in parts for b in part["bins"]}
        assert len(g.select("path.mark")) == len(bins)  # the seeds' bins pooled
        assert len(g.select_one("polyline")["points"].split()) == len(bins)
    legend = [[td.get_text(" ", strip=True) for td in tr.select("td")]
              for tr in figure.select("table.legend tbody tr")]
    assert [r[0] for r in legend] == ["elo", "glicko2", "whr"]
    assert all(r[1] == "800" for r in legend)  # two seeds of 400 pairs
    # the pooled calibration error, weighted by the bins' counts
    pooled: dict[tuple[float, float], list[float]] = {}
    for report in data["reports"]:
        elo = next(r for r in report["rows"] if r["scheme"] == "elo")
        for b in elo["calibration"]["bins"]:
            sums = pooled.setdefault((b["low"], b["high"]), [0.0, 0.0, 0.0])
            sums[0] += b["count"]
            sums[1] += b["count"] * b["predicted"]
            sums[2] += b["count"] * b["observed"]
    ece = sum(abs(o - s) for n, s, o in pooled.values()) / 800
    assert legend[0][2] == f"{ece:.3f}"
    assert "pooled over seeds 1, 2" in soup.get_text(" ", strip=True)
    # the real archive's plot, the fitted logistic's probabilities marked
    real = soup.select_one("section.real-calibration div.calibration#calibration-real")
    assert real is not None
    assert [g["data-scheme"] for g in real.select("svg.reliability g.series")] == \
        ["belo*", "elo"]


def test_quality_page_without_calibration_has_no_plot(tmp_path: Path) -> None:
    from publishing._site import write_site_index

    source = calibrated_quality(tmp_path)
    data = json.loads(source.read_text(encoding="utf-8"))
    for report in data["reports"]:
        for row in report["rows"]:
            row.pop("calibration", None)
    source.write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "quality-real.json").unlink()
    public = tmp_path / "public"
    public.mkdir()
    write_site_index(public, source)
    soup = _soup(public / "quality.html")
    assert soup.select("svg.reliability") == []
    assert soup.select_one("#calibration-heading") is None
    assert soup.select_one("#means") is not None  # the rest of the page as before


def test_federation_name_is_read_from_the_configuration(tmp_path: Path) -> None:
    from flows import ConfigError

    path = tmp_path / "clubratings.toml"
    path.write_text(CONFIG, encoding="utf-8")
    assert load_config(path).federation == "Rating lists"  # none named
    path.write_text('[federation]\nname = " Example Federation "\n' + CONFIG, encoding="utf-8")
    assert load_config(path).federation == "Example Federation"
    for wrong in ('name = ""', "name = 3", 'title = "X"'):
        path.write_text(f"[federation]\n{wrong}\n" + CONFIG, encoding="utf-8")
        with pytest.raises(ConfigError, match=r"\[federation\]"):
            load_config(path)
    repo = load_config(Path(__file__).parents[1] / "clubratings.toml", schemes=False)
    assert repo.federation == "Bundled example federation"


# ---------------------------------------------------------------- the go crosstable

BRATISLAVA = "2024-03-16-Bratislava-Spring-Open-2024"
"""The bundled OpenGotha tournament with a handicap game, a jigo, a game without colours,
results by default, a pairing not played and two byes (fixtures/opengotha/
handicap-jigo-forfeit-unplayed-bye.xml)."""


def _crosstable(public: Path) -> tuple[list[str], dict[str, list[str]], BeautifulSoup]:
    soup = _soup(public / "go" / BRATISLAVA / "crosstable.html")
    heads = [th.text for th in soup.select("#crosstable thead th")]
    rows = {tr.select("td")[1].text: [td.text for td in tr.select("td")]
            for tr in soup.select("#crosstable tbody tr")}
    return heads, rows, soup


def test_go_crosstable_has_one_column_per_round(public: Path) -> None:
    heads, rows, soup = _crosstable(public)
    assert heads == ["#", "Player", "Before", "R1", "R2", "R3", "R4", "Points", "Wins",
                     "After", "Change"]
    number = {name: cells[0] for name, cells in rows.items()}
    # round 1: Kováč (black, 3 stones) beat Novák; Szabóová (black) and Horváthová jigo
    kovac, novak = rows["Kováč Peter"], rows["Novák Ján"]
    assert kovac[3].startswith(f"{number['Novák Ján']}+/b3")
    assert novak[3].startswith(f"{number['Kováč Peter']}\u2212/w3")
    assert rows["Szabóová Eva"][3].startswith(f"{number['Horváthová Mária']}=/b")
    # round 3: a game whose file did not record the colours has no colour letter
    assert rows["Szabóová Eva"][5].startswith(f"{number['van der Berg Tomáš']}\u2212")
    assert "/" not in rows["Szabóová Eva"][5]
    # byes in their round: van der Berg in round 1, Novák in round 3; his round-2 game is
    # still in the round-2 column (no shift left)
    assert rows["van der Berg Tomáš"][3] == "bye" and novak[5] == "bye"
    assert rows["van der Berg Tomáš"][4].startswith(f"{number['Novák Ján']}+/w")
    # an absence: Szabóová has no pairing in round 2
    assert rows["Szabóová Eva"][4] == "-"
    # a result by default and a pairing not played
    assert rows["Horváthová Mária"][4] == f"{number['Kováč Peter']}\u2212!"
    assert kovac[4] == f"{number['Horváthová Mária']}+!"
    assert rows["Horváthová Mária"][6] == f"{number['Novák Ján']}?"
    # points and wins count the games played only
    assert (kovac[7], kovac[8]) == ("1", "1")
    assert (rows["Horváthová Mária"][7], rows["Horváthová Mária"][8]) == ("0.5", "0")
    # every opponent's number links to their row; a game's title says it in words
    for a in soup.select("#crosstable td.game a"):
        assert soup.select_one(f"tr{a['href']}") is not None
    cell = soup.select("#crosstable tbody tr")[int(number["Kováč Peter"]) - 1].select("td")[3]
    assert "black, 3 stones handicap" in cell["title"] and "expected" in cell["title"]
    assert soup.select_one("div.scroll > table#crosstable") is not None


def test_go_names_are_written_surname_first(public: Path) -> None:
    _, rows, _ = _crosstable(public)
    assert set(rows) == {"van der Berg Tomáš", "Kováč Peter", "Horváthová Mária",
                         "Szabóová Eva", "Novák Ján"}
    listed = {r["player"] for r in _csv(public / "go" / BRATISLAVA / "list.csv")}
    assert set(rows) <= listed
    soup = _soup(public / "go" / "players" / f"{_player_id(public, 'Horváthová Mária')}.html")
    assert soup.select_one("h1").text.startswith("Horváthová Mária")
    # "by surname": the surname is the first word now
    from parsers.names import fold

    edition = _soup(public / "go" / BRATISLAVA / "index.html")
    names = [r.select("td")[0].text for r in edition.select("#provisional-players tbody tr")]
    assert len(names) >= 5 and names == sorted(names, key=fold)


def test_a_record_written_first_name_first_is_listed_surname_first(tmp_path: Path) -> None:
    from publishing._site import surname_first

    assert surname_first("Mária Horváthová") == "Horváthová Mária"
    assert surname_first("Ján NOVÁK") == "NOVÁK Ján"
    assert surname_first("Novák") == "Novák"
    public = build_site_project(tmp_path)
    with open_warehouse(_warehouse(public)) as wh:
        # a record named first name first (as a bridge file wrote it): the go pages write the
        # name as the go file did, the configured "as-written" keeps the record
        wh.con.execute("UPDATE players SET name = 'Mária Horváthová' "
                       "WHERE name = 'Horváthová Mária'")
        cfg = load_config(public.parent / "clubratings.toml")
        go = next(p for p in cfg.pools if p.name == "go")
        assert go.name_order == "surname-first"
        publish_site(wh, "go", public, settings=SiteSettings())
        _, rows, _ = _crosstable(public)
        assert "Horváthová Mária" in rows
        eva = wh.con.execute("SELECT player_id FROM players WHERE name = 'Szabóová Eva'"
                             ).fetchall()[0][0]
        games = _soup(public / "go" / "players" / f"{eva}.html").select("#games td")
        assert "Horváthová Mária" in {td.text for td in games}  # an opponent, the same way
        publish_site(wh, "go", public, settings=SiteSettings(), names="as-written")
        _, rows, _ = _crosstable(public)
        assert "Mária Horváthová" in rows and "Kováč Peter" in rows
        before = {r["player"] for r in _csv(public / "bridge" / "2012Q2" / "list.csv")}
        publish_site(wh, "bridge", public, settings=SiteSettings(), names="surname-first")
    after = {r["player"] for r in _csv(public / "bridge" / "2012Q2" / "list.csv")}
    assert "Olga Dawna" in before and "Dawna Olga" in after  # bridge only when configured


def test_pool_names_option_is_read_and_checked(tmp_path: Path) -> None:
    from flows._config import ConfigError

    path = tmp_path / "clubratings.toml"
    path.write_text(CONFIG + GO_POOL, encoding="utf-8")
    bridge, go = load_config(path).pools
    assert (bridge.name_order, go.name_order) == ("as-written", "surname-first")
    path.write_text(CONFIG + 'names = "surname-first"\n' + GO_POOL + 'names = "as-written"\n',
                    encoding="utf-8")
    bridge, go = load_config(path).pools
    assert (bridge.name_order, go.name_order) == ("surname-first", "as-written")
    path.write_text(CONFIG + 'names = "first-surname"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="names = 'first-surname': expected one of \"\", "
                       "surname-first, as-written"):
        load_config(path)


def test_go_last_played_is_the_tournaments_day_linked_to_its_edition(public: Path) -> None:
    soup = _soup(public / "go" / BRATISLAVA / "index.html")
    links = soup.select("td.wide a[href^='../2']")  # five games: all provisional here
    assert len(links) == 5 and {a.text for a in links} == {"2024-03-16"}
    assert {a["href"] for a in links} == {f"../{BRATISLAVA}/index.html"}
    assert {a["title"] for a in links} == {"2024-03-16 Bratislava Spring Open 2024"}
    player = _soup(public / "go" / "players" / f"{_player_id(public, 'Novák Ján')}.html")
    assert player.select_one("p.meta a[href^='../2']").text == "2024-03-16"
    # bridge keeps the period label
    bridge = _soup(sorted((public / "bridge").glob("2*/index.html"))[-1])
    assert all(not td.select("a") for td in bridge.select("#list tbody td:nth-last-child(2)"))


# ---------------------------------------------------------------- the warehouse's formatting

@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.one_of(st.none(), st.floats(-1e15, 1e15),
                                 st.integers(-10**6, 10**6).map(float),
                                 st.sampled_from([-0.0, 0.05, 0.15, 2.675, -0.04, 1e-9, 3.5,
                                                  math.nan, math.inf, -math.inf])),
                       min_size=1, max_size=40),
       texts=st.lists(st.text(alphabet=st.sampled_from(list("ab <>&\"'éš;#")), max_size=12),
                      min_size=1, max_size=10))
def test_the_warehouse_writes_numbers_places_and_text_as_the_site_does(
        values: list[float | None], texts: list[str]) -> None:
    """The player pages' long tables are formatted by the warehouse (warehouse/editions.py,
    ``event_rows_html``, ``partner_rows_html``): each number, place and text must come out as
    the site's own formatting writes it elsewhere (``_num``, ``_place``, Jinja's escaping).
    Numbers up to 1e15 in size: DuckDB writes the digits of larger ones only approximately,
    and no rating, place, share or count comes near them."""
    import duckdb
    from markupsafe import escape

    from publishing._site import _num, _place
    from warehouse.editions import _count, _html, _number, _place as place_sql

    con = duckdb.connect()
    got = con.execute(
        f"SELECT {_number('x', 1)}, {_number('x', 2)}, {place_sql('x')}, {_count('x')} "
        "FROM unnest($v::DOUBLE[]) WITH ORDINALITY AS t(x, i) ORDER BY i",
        {"v": values}).fetchall()
    assert got == [(_num(v, 1), _num(v, 2), _place(v),
                    "" if v is None or math.isnan(v) else str(int(v)) if math.isfinite(v)
                    else f"{v:.0f}") for v in values]
    written = con.execute(f"SELECT {_html('s')} FROM unnest($t::VARCHAR[]) "
                          "WITH ORDINALITY AS t(s, i) ORDER BY i", {"t": texts}).fetchall()
    assert [w for (w,) in written] == [str(escape(t)) for t in texts]
