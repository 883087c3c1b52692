"""The editions site in a real headless Chromium: filter, sort, player page, escaping.

Needs the Python package ``playwright`` (its browsers are NOT downloaded: the test drives
Debian's ``/usr/bin/chromium``) and the Debian package ``chromium``. Skipped when either is
missing; run it with

    .venv/bin/pytest tests/test_site_browser.py

``CLUBRATINGS_CHROMIUM`` names another Chromium binary; with ``CLUBRATINGS_REQUIRE_BROWSER=1``
(CI) a missing playwright or Chromium fails instead of skipping.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CHROMIUM, REQUIRE_BROWSER
from .test_site import SCRIPT_NAME, build_site_project

if REQUIRE_BROWSER:  # Chromium itself may still be installing: the fixture chromium_binary waits
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.usefixtures("chromium_binary")  # waits for it, or skips


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``folder`` served from 127.0.0.1 while the block runs; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site of a fixture project served from 127.0.0.1; yields its base URL."""
    public = build_site_project(tmp_path_factory.mktemp("browser"), go=False)
    with serving(public) as base:
        yield base


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: object, site: str) -> Iterator[object]:
    """A page that fails the test on any dialog, script error or request leaving the site."""
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    problems: list[str] = []

    def on_dialog(dialog: object) -> None:
        problems.append(f"dialog: {dialog.message!r}")  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" else None)
    page.on("request", lambda req: None if req.url.startswith(site)
            else problems.append(f"request off the site: {req.url}"))
    yield page
    context.close()
    assert problems == []


def _column(page: object, index: int) -> list[str]:
    return page.locator(  # type: ignore[attr-defined, no-any-return]
        f"#list tbody tr td:nth-child({index})").all_text_contents()


def _latest_edition(page: object, site: str) -> None:
    page.goto(site + "index.html")  # type: ignore[attr-defined]
    page.locator("section.pool ul.editions li > a").first.click()  # type: ignore[attr-defined]
    page.wait_for_url("**/bridge/2013Q4/index.html")  # type: ignore[attr-defined]


def test_filter_by_club_then_sort_by_rating(page: object, site: str) -> None:
    _latest_edition(page, site)
    rows = page.locator("#list tbody tr")  # type: ignore[attr-defined]
    total = rows.count()
    assert total > 10
    assert page.locator("#row-count").text_content() == f"{total} of {total} players"  # type: ignore[attr-defined]

    clubs = _column(page, 3)
    club = max((c for c in set(clubs) if c), key=lambda c: (clubs.count(c), c))
    page.select_option("#filter-club", label=club)  # type: ignore[attr-defined]
    assert _column(page, 3) == [club] * clubs.count(club)
    assert page.locator("#row-count").text_content() == (  # type: ignore[attr-defined]
        f"{clubs.count(club)} of {total} players")

    sort_rating = page.locator("th[data-key=rating] button")  # type: ignore[attr-defined]
    page.select_option("#filter-club", value="")  # type: ignore[attr-defined]
    sort_rating.click()
    ratings = [float(x) for x in _column(page, 4)]
    assert ratings == sorted(ratings, reverse=True)
    assert page.locator("th[data-key=rating]").get_attribute("aria-sort") == "descending"  # type: ignore[attr-defined]
    sort_rating.click()  # again: lowest first
    assert [float(x) for x in _column(page, 4)] == sorted(ratings)
    page.locator("th[data-key=club] button").click()  # type: ignore[attr-defined]
    assert page.locator("th[data-key=club]").get_attribute("aria-sort") == "ascending"  # type: ignore[attr-defined]
    sort_rating.click()  # from another column, a number column starts from the largest
    assert [float(x) for x in _column(page, 4)] == sorted(ratings, reverse=True)

    names = page.locator("#list tbody tr td:nth-child(2) a").all_text_contents()  # type: ignore[attr-defined]
    surname = names[0].split()[-1]
    page.fill("#filter-name", surname.upper())  # type: ignore[attr-defined]
    shown = page.locator("#list tbody tr td:nth-child(2) a").all_text_contents()  # type: ignore[attr-defined]
    assert names[0] in shown and all(surname.lower() in n.lower() for n in shown)
    page.fill("#filter-name", "")  # type: ignore[attr-defined]
    page.select_option("#filter-status", "new")  # type: ignore[attr-defined]
    assert rows.count() < total
    assert page.locator("#list tbody tr .flag").count() == rows.count()  # type: ignore[attr-defined]


def test_player_column_sorts_by_surname(page: object, site: str) -> None:
    from warehouse import surname_key

    _latest_edition(page, site)
    page.locator("th[data-key=sortName] button").click()  # type: ignore[attr-defined]
    names = page.locator("#list tbody tr td:nth-child(2) a").all_text_contents()  # type: ignore[attr-defined]
    assert len(names) > 10
    assert names == sorted(names, key=surname_key)
    assert names != sorted(names)  # not by first name


def test_ranked_provisional_and_inactive_sections(page: object, site: str) -> None:
    _latest_edition(page, site)
    for heading in ("Ranked", "Provisional players", "Inactive players"):
        assert page.get_by_role("heading", name=heading, exact=True).is_visible()  # type: ignore[attr-defined]
    ranks = [int(x) for x in _column(page, 1)]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    inactive = page.locator("#inactive-players tbody a[href^='../players/']").all_text_contents()  # type: ignore[attr-defined]
    assert inactive[0] == "Anna Dawna" and len(inactive) == 6
    provisional = page.locator("#provisional-players tbody a[href^='../players/']").all_text_contents()  # type: ignore[attr-defined]
    ranked = page.locator("#list tbody a[href^='../players/']").all_text_contents()  # type: ignore[attr-defined]
    assert "Zuzana Testova" in provisional and not set(provisional) & set(ranked)
    page.get_by_role("link", name="How this list is computed").click()  # type: ignore[attr-defined]
    page.wait_for_url("**/bridge/how.html")  # type: ignore[attr-defined]
    assert "at least 5 events" in page.locator("body").text_content()  # type: ignore[attr-defined]


def test_a_phone_sized_window_needs_no_sideways_scrolling(browser: object, site: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    try:
        for path in ("index.html", "bridge/2013Q4/index.html", "bridge/how.html"):
            page.goto(site + path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
            assert page.locator("h1").is_visible()
    finally:
        context.close()


def test_script_named_player_renders_as_text(page: object, site: str) -> None:
    _latest_edition(page, site)
    link = page.get_by_role("link", name=SCRIPT_NAME, exact=True).first  # type: ignore[attr-defined]
    assert link.is_visible()  # among the provisional players
    assert link.text_content() == SCRIPT_NAME
    assert page.locator("#list tbody script, #provisional-players script").count() == 0  # type: ignore[attr-defined]

    link.click()
    page.wait_for_url("**/bridge/players/*.html")  # type: ignore[attr-defined]
    heading = page.locator("h1")  # type: ignore[attr-defined]
    assert heading.text_content() == SCRIPT_NAME
    assert heading.is_visible()
    assert page.locator("body script").count() == 0  # type: ignore[attr-defined]


def test_player_page_shows_the_chart(page: object, site: str) -> None:
    _latest_edition(page, site)
    page.locator("th[data-key=rating] button").click()  # type: ignore[attr-defined]
    first = page.locator("#list tbody tr").first  # type: ignore[attr-defined]
    name = first.locator("a[href^='../players/']").text_content()
    first.locator("a[href^='../players/']").click()
    page.wait_for_url("**/bridge/players/*.html")  # type: ignore[attr-defined]
    assert page.locator("h1").text_content() == name  # type: ignore[attr-defined]
    chart = page.locator("svg#chart")  # type: ignore[attr-defined]
    assert chart.is_visible()
    line = chart.locator("polyline, path")
    assert line.count() == 1
    assert len(line.get_attribute("points").split()) >= 2
    box = line.bounding_box()
    assert box is not None and box["width"] > 0
    assert page.locator("#history tbody tr").count() >= 1  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def bundled_site(default_run: Path) -> Iterator[str]:
    """The site of the embedded default (every bundled file: bridge, go, preferans, and the
    quality page of docs/quality.json), served from 127.0.0.1; yields its base URL."""
    with serving(default_run / "public") as base:
        yield base


def test_preferans_list_shows_games_deals_and_vists_per_deal(browser: object,
                                                             bundled_site: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "index.html")
        page.locator("a[href='preferans/2013-03/index.html']").first.click()
        page.wait_for_url("**/preferans/2013-03/index.html")
        headings = page.locator("#list thead th").all_text_contents()
        assert headings == ["Rank", "Player", "Club", "Rating", "Change", "Games in period",
                            "In last year", "Deals", "Vists per deal", "Last played",
                            "Federation id"]
        assert page.locator("#list tbody tr").count() == 9
        page.locator("th[data-key=vists_per_deal] button").click()
        vists = [float(x) for x in page.locator(
            "#list tbody tr td:nth-child(9)").all_text_contents()]
        assert vists == sorted(vists, reverse=True) and vists[0] > vists[-1]
        deals = [int(x) for x in page.locator("#list tbody tr td:nth-child(8)").all_text_contents()]
        assert all(d > 0 for d in deals)
    finally:
        page.close()


def test_go_edition_shows_deviation_interval_and_grade(browser: object,
                                                       bundled_site: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "go/2017-02-11-Test-Participation-et-Licence-FFG/index.html")
        headings = page.locator("#list thead th").all_text_contents()
        assert headings[3:7] == ["Rating", "Deviation", "95% interval", "Grade"]
        page.goto(bundled_site + "go/2024-03-16-Bratislava-Spring-Open-2024/index.html")
        # the 2017 tournament's players are not listed as inactive in the 2024 edition
        assert page.locator("#inactive-players tbody a[href^='../players/']").count() == 0
        assert page.locator("#inactive-count").text_content().startswith("22 players rated")
        page.goto(bundled_site + "go/2017-02-11-Test-Participation-et-Licence-FFG/index.html")
        first = page.locator("#list tbody tr").first.locator("td").all_text_contents()
        low, high = (float(x) for x in first[5].split(".."))
        assert low < float(first[3]) < high and first[6][-1] in "kd"
    finally:
        page.close()


def test_import_report_is_a_page_of_the_site_reached_from_the_index(
        browser: object, bundled_site: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "index.html")
        page.get_by_role("link", name="Import report of the latest run").click()
        page.wait_for_url("**/reports/latest.html")
        assert page.locator("h1").text_content().startswith("Import report")
        assert page.locator("link[rel=stylesheet]").get_attribute("href") == "../site.css"
        headings = page.locator("h2").all_text_contents()
        assert headings[:2] == ["Overview", "Per club"]
        assert "Warnings from reading the files" in headings
        assert "Names waiting for review" in headings
        per_club = page.locator("section.report-section").nth(1).locator("tbody tr")
        assert per_club.count() >= 3  # the bundled clubs, each with its counts
        page.get_by_role("link", name="All lists").click()
        page.wait_for_url("**/index.html")
    finally:
        page.close()


def test_go_tournament_crosstable(browser: object, bundled_site: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "go/2017-02-11-Test-Participation-et-Licence-FFG/index.html")
        page.get_by_role("link", name="Crosstable").click()
        page.wait_for_url("**/crosstable.html")
        rows = page.locator("#crosstable tbody tr")
        assert rows.count() == 22
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td")
            before = float(cells.nth(2).text_content())
            after, change = (cells.nth(-2).text_content(), cells.nth(-1).text_content())
            assert abs(float(after) - before - float(change)) < 0.11
            for link in rows.nth(i).locator("td.game a").all():
                target = link.get_attribute("href")
                assert page.locator(f"tr{target}").count() == 1  # an opponent of the table
        games = page.locator(
            "#crosstable td.game:not(.bye):not(.absent):not(.default)").all_text_contents()
        assert games and all(any(r in g for r in "+\u2212=") for g in games)
        scores = [float(x) for x in page.locator(
            "#crosstable tbody tr td:nth-last-child(4)").all_text_contents()]
        assert scores == sorted(scores, reverse=True)  # by score, then rating after
    finally:
        page.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_go_crosstable_by_round_with_a_bye_an_absence_and_a_handicap_game(
        browser: object, bundled_site: str, width: int) -> None:
    """The bundled tournament with byes (fixtures/opengotha/handicap-jigo-forfeit-unplayed-
    bye.xml): one column per round; a bye, an absence and a handicap game in their rounds;
    an opponent's number jumps to their row; at 390 px only the table's box scrolls."""
    context = browser.new_context(viewport={"width": width, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    try:
        page.goto(bundled_site + "go/2024-03-16-Bratislava-Spring-Open-2024/index.html")
        page.get_by_role("link", name="Crosstable").click()
        page.wait_for_url("**/crosstable.html")
        heads = page.locator("#crosstable thead th").all_text_contents()
        assert heads[3:8] == ["R1", "R2", "R3", "R4", "Points"]
        rows = page.locator("#crosstable tbody tr")
        by_name = {rows.nth(i).locator("td").nth(1).text_content(): rows.nth(i)
                   for i in range(rows.count())}
        novak, kovac = by_name["Novák Ján"], by_name["Kováč Peter"]
        assert novak.locator("td").nth(5).text_content() == "bye"  # round 3
        assert by_name["van der Berg Tomáš"].locator("td").nth(3).text_content() == "bye"
        assert by_name["Szabóová Eva"].locator("td").nth(4).text_content() == "-"  # absent
        handicap = kovac.locator("td").nth(3)  # round 1: black with 3 stones, won
        assert handicap.inner_text().splitlines()[0] == (
            novak.locator("td").first.text_content() + "+/b3")
        assert "3 stones handicap" in handicap.get_attribute("title")
        for cell in (handicap, novak.locator("td").nth(5)):
            assert cell.is_visible()
        handicap.locator("a").click()
        page.wait_for_url("**/crosstable.html#p*")
        assert page.evaluate("location.hash") == "#p" + novak.locator("td").first.text_content()
        width_now = page.evaluate("document.documentElement.scrollWidth")
        assert width_now <= page.evaluate("window.innerWidth")
        box = page.locator("div.scroll").bounding_box()
        assert box is not None and box["width"] <= width
    finally:
        context.close()


def test_change_is_against_the_players_previous_edition(browser: object,
                                                        bundled_site: str) -> None:
    """The bundled club's editions 2014Q2 and 2014Q3: every ranked player's Change in 2014Q3 is
    their rating there minus their rating in 2014Q2, "new" marks only players not in 2014Q2."""
    import csv
    import urllib.request

    def rows(slug: str) -> dict[str, dict[str, str]]:
        with urllib.request.urlopen(f"{bundled_site}bridge/{slug}/list.csv") as response:
            text = response.read().decode("utf-8")
        return {r["player_id"]: r for r in csv.DictReader(text.splitlines())}

    before, after = rows("2014Q2"), rows("2014Q3")
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "bridge/2014Q3/index.html")
        shown = page.locator("#list tbody tr")
        assert shown.count() > 20
        checked = 0
        for i in range(shown.count()):
            cells = shown.nth(i).locator("td")
            pid = cells.nth(1).locator("a").get_attribute("href").split("/")[-1][:-5]
            change = cells.nth(4).text_content()
            if pid in before:
                expected = float(after[pid]["rating"]) - float(before[pid]["rating"])
                assert abs(float(change) - expected) < 0.11, (pid, change, expected)
                assert cells.nth(1).locator(".flag").count() == 0
                checked += 1
            else:
                assert change == "" and cells.nth(1).locator(".flag").text_content() == "new"
        assert checked > 20
        movers = page.locator("#gains tbody tr td:last-child").all_text_contents()
        assert movers and all(m.startswith("+") for m in movers)
    finally:
        page.close()


def _get(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url) as response:
        return response.read().decode("utf-8")  # type: ignore[no-any-return]


def _every_page_kind(base: str) -> dict[str, str]:
    """One page of every kind of the bundled site, by kind: found through the pools'
    ``editions.json`` and lists, not guessed."""
    import csv
    import json

    pages = {"index": "index.html", "how": "bridge/how.html", "quality": "quality.html",
             "report": "reports/latest.html", "club index": "bridge/clubs/index.html"}
    for pool in ("bridge", "go", "preferans"):
        editions = json.loads(_get(f"{base}{pool}/editions.json"))["editions"]
        slug = editions[-1]["slug"]
        pages[f"{pool} edition"] = f"{pool}/{slug}/index.html"
        rows = list(csv.DictReader(_get(f"{base}{pool}/{slug}/list.csv").splitlines()))
        if pool in ("bridge", "go"):  # the player with the most events: the longest page
            top = max(rows, key=lambda r: (int(r.get("events_total") or 0), r["player_id"]))
            pages[f"{pool} player"] = f"{pool}/players/{top['player_id']}.html"
        if pool == "go":
            pages["crosstable"] = f"go/{editions[0]['slug']}/crosstable.html"
    club = max(_get(base + "bridge/clubs/index.html").split('<td><a href="')[1:],
               key=len).split('"')[0]  # the club with the longest row: most players
    pages["club"] = f"bridge/clubs/{club}"
    return pages


def test_every_page_kind_fits_a_phone_without_sideways_scrolling(
        browser: object, bundled_site: str) -> None:
    """At 390 px (a phone) no page scrolls sideways: wide tables scroll in their own box, the
    chart shrinks."""
    pages = _every_page_kind(bundled_site)
    assert len(pages) == 12
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    try:
        for kind, path in sorted(pages.items()):
            response = page.goto(bundled_site + path)
            assert response is not None and response.ok, (kind, path)
            width = page.evaluate("document.documentElement.scrollWidth")
            inner = page.evaluate("window.innerWidth")
            assert width <= inner, (kind, path, width, inner)
            assert page.locator("h1").is_visible(), (kind, path)
            if kind.endswith("player"):
                box = page.locator("svg#chart").bounding_box()
                assert box is not None and 0 < box["width"] <= inner, (kind, box)
    finally:
        context.close()


def test_club_page_from_the_edition_list(browser: object, bundled_site: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "bridge/2015Q1/index.html")
        link = page.locator("#list tbody td a[href^='../clubs/']").first  # drawn by site.js
        club = link.text_content()
        player = link.locator("xpath=../..").locator("td").nth(1).text_content()
        link.click()
        page.wait_for_url("**/bridge/clubs/*.html")
        assert page.locator("h1").text_content() == club
        players = page.locator("#club-players tbody a").all_text_contents()
        assert player.strip() in players
        dates = page.locator("#club-events tbody td.date").all_text_contents()
        assert dates == sorted(dates, reverse=True)
        page.get_by_role("link", name="All bridge clubs").click()
        page.wait_for_url("**/bridge/clubs/index.html")
        assert club in page.locator("#clubs tbody a").all_text_contents()
        page.goto(bundled_site + "bridge/clubs/klub-singleton-warszawa.html")
        assert page.locator("#club-events tbody tr").count() > 50  # the club's Thursday nights
        assert page.locator("#club-events tbody tr").first.locator("td").first.text_content() \
            == "2015-03-26"
    finally:
        page.close()


def test_quality_page_leads_with_the_verdict(browser: object, bundled_site: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(bundled_site + "index.html")
        page.get_by_role("link", name="How well do the lists measure strength?").click()
        page.wait_for_url("**/quality.html")
        verdict = page.locator("#verdict")
        assert verdict.is_visible()
        assert "follows the true strength best" in verdict.text_content()
        means = page.locator("#means")
        assert means.is_visible() and means.locator("tbody tr").count() >= 5
        assert verdict.bounding_box()["y"] < means.bounding_box()["y"]
        details = page.locator("section.quality details").first
        table = details.locator("table")
        assert not table.is_visible()  # folded until asked for
        details.locator("summary").click()
        assert table.is_visible()
    finally:
        page.close()
