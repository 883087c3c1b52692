"""The order of a published list and the edition offered as the latest (docs/site.md, "The
list of an edition" and the index): ``list.csv`` holds the ranked players by rank, then the
provisional, then the inactive, each part by surname; the latest list is the newest edition
that ranks somebody, and an edition that ranks nobody says why.

One small project driven through the command line: a club's five nights of 2013Q4 and 2014Q1
(some players sit out nights, so 2014Q1 has ranked and provisional players), an old night of
2012Q2 (its players inactive in 2013), and, in 2015Q2, one night of a foreign club whose players
are all new: in that edition nobody is ranked (its players provisional, everybody else more than
a year past their last event).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from bs4 import BeautifulSoup

from warehouse import surname_key

from ._csvs import club_event, csv_file
from ._lifecycle import FILES, WAREHOUSE, club_file, drop, must, new_project

OLD_NIGHT = club_event("2012-05-10", "Spring night", organiser="BK Dawny", pairs=[
    ("Stefan Dawny", "Olga Dawna"), ("Jan Dawny", "Ewa Dawna"), ("Piotr Dawny", "Anna Dawna")])
"""A night more than a year before the club's: its players are inactive in 2013 and 2014."""

FOREIGN_NIGHT = club_event("2015-05-14", "Guest night", organiser="Bridge Club Wien", pairs=[
    ("Hans Gast", "Greta Gast"), ("Franz Besuch", "Lena Besuch"),
    ("Karl Fremd", "Heidi Fremd"), ("Otto Reise", "Maria Reise")])
"""One foreign club's night in a new quarter: four pairs of new players."""

STANDING_PART = {"ranked": 0, "provisional": 1, "inactive": 2}

def _top_ten_query() -> str:
    """docs/analysts.md's query of the ten best ranked of the latest bridge edition."""
    doc = (Path(__file__).parent.parent / "docs" / "analysts.md").read_text(encoding="utf-8")
    after = doc[doc.index("the ten best ranked"):]
    return after[after.index("```sql\n") + len("```sql\n"):after.index("```\n", 1)]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = new_project(tmp_path_factory.mktemp("order") / "project")
    files = {name: club_file(name) for name in FILES}
    files["old-night.csv"] = csv_file(OLD_NIGHT)
    files["foreign-night.csv"] = csv_file(FOREIGN_NIGHT)
    for name, data in files.items():
        code, out = drop(root, name, data)
        assert code == 0, out
    must(root, "recompute")
    must(root, "publish")
    yield root


def _csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_list_csv_ranked_rows_first_by_rank_then_the_rest_by_surname(project: Path) -> None:
    rows = _csv(project / "public" / "bridge" / "2014Q1" / "list.csv")
    standings = [r["standing"] for r in rows]
    assert {"ranked", "provisional", "inactive"} <= set(standings), standings
    # every ranked row before every provisional row before every inactive row
    parts = [STANDING_PART[s] for s in standings]
    assert parts == sorted(parts), standings
    ranked = [r for r in rows if r["standing"] == "ranked"]
    assert all(r["rank"] == "" for r in rows if r["standing"] != "ranked")
    ranks = [int(r["rank"]) for r in ranked]
    assert ranks[0] == 1, ranks
    assert ranks == sorted(ranks), ranks
    assert all(1 <= k <= i + 1 for i, k in enumerate(ranks)), ranks  # 1..n, ties share
    for part in ("provisional", "inactive"):
        names = [r["player"] for r in rows if r["standing"] == part]
        assert names == sorted(names, key=surname_key), (part, names)
    # the page's ranked table is the CSV's ranked part, in the same order
    page = _soup(project / "public" / "bridge" / "2014Q1" / "index.html")
    shown = [a.get_text() for a in page.select("#list tbody a[href^='../players/']")]
    assert shown == [r["player"] for r in ranked]


def test_latest_list_is_the_newest_edition_that_ranks_players(project: Path) -> None:
    public = project / "public"
    newest = _csv(public / "bridge" / "2015Q2" / "list.csv")
    assert newest, "the edition that ranks nobody is still published"
    assert {r["standing"] for r in newest} == {"provisional", "inactive"}
    manifest = json.loads((public / "bridge" / "editions.json").read_text(encoding="utf-8"))
    assert manifest["editions"][-1]["slug"] == "2015Q2"
    assert manifest["editions"][-1]["ranked"] == 0
    assert manifest["latest"] == "2014Q1"
    # the index offers 2014Q1 first, and says the newer edition ranks nobody
    index = _soup(public / "index.html")
    links = [a["href"] for a in index.select("section.pool a[href$='/index.html']")
             if not a["href"].endswith("clubs/index.html")]
    assert links[0] == "bridge/2014Q1/index.html", links
    listed = index.select("ul.editions li")
    assert listed[0].a["href"] == "bridge/2015Q2/index.html"
    assert "none ranked" in listed[0].get_text()
    # how.html's link to the latest list
    how = _soup(public / "bridge" / "how.html")
    assert [a["href"] for a in how.select("nav a")][1] == "2014Q1/index.html"
    # the empty edition's page says why, naming the rule, and links to the latest list
    page = _soup(public / "bridge" / "2015Q2" / "index.html")
    why = page.select_one("#no-ranked")
    assert why is not None
    text = " ".join(why.get_text().split())
    assert "Nobody is ranked in this edition" in text
    assert 'the activity rule (docs/site.md, "Who is on a list")' in text
    assert "in the last 365 days and at least 5 events so far" in text
    assert "the 8 players with an event in that window have fewer" in text
    assert why.a["href"] == "../2014Q1/index.html"
    # an edition that ranks players says nothing of the kind
    assert _soup(public / "bridge" / "2014Q1" / "index.html").select_one("#no-ranked") is None


def test_analysts_top_ten_returns_the_latest_ranked_edition(project: Path) -> None:
    con = duckdb.connect(str(project / WAREHOUSE), read_only=True)
    try:
        frame = con.execute(_top_ten_query()).df()
    finally:
        con.close()
    ranked = [r for r in _csv(project / "public" / "bridge" / "2014Q1" / "list.csv")
              if r["standing"] == "ranked"]
    assert ranked
    assert len(frame) == min(10, len(ranked)), "the top ten of the latest edition is not empty"
    assert set(frame["edition"]) == {"2014Q1"}
    # the list's best ten (the query breaks a shared rank by the name as written)
    assert [int(k) for k in frame["rank"]] == [int(r["rank"]) for r in ranked][:10]
    assert set(zip(frame["rank"].astype(int), frame["player"], strict=True)) <= {
        (int(r["rank"]), r["player"]) for r in ranked}


def test_players_show_names_the_newest_edition_and_the_newest_that_ranks_the_player(
        project: Path) -> None:
    """``clubratings players show``: where a player stands on the published lists."""
    ranked = {r["player"]: r for r in _csv(project / "public" / "bridge" / "2014Q1" / "list.csv")
              if r["standing"] == "ranked"}
    name = sorted(ranked)[0]
    player = ranked[name]
    out = must(project, "players", "show", name)
    lists = [line for line in out.splitlines() if line.startswith("  list ")]
    assert lists[0].startswith("  list bridge 2015Q2: inactive, rating "), out
    assert lists[1] == (f"  list bridge 2014Q1: ranked {player['rank']} of {len(ranked)}, "
                        f"rating {float(player['rating']):.1f}, {player['events_total']} rated "
                        "so far"), out
    (games,) = [line for line in out.splitlines() if line.startswith("  bridge: ")]
    assert games.endswith(" event(s) in force, 2013-10-03..2014-03-06"), out
