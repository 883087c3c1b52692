"""The editions site in a real headless Chromium: filter, sort, player page, escaping.

Needs the Python package ``playwright`` (its browsers are NOT downloaded: the test drives
Debian's ``/usr/bin/chromium``) and the Debian package ``chromium``. Skipped when either is
missing; run it with

    .venv/bin/pytest tests/test_site_browser.py

``CLUBRATINGS_CHROMIUM`` names another Chromium binary; with ``CLUBRATINGS_REQUIRE_BROWSER=1``
(CI) a missing playwright or Chromium fails instead of skipping.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_site import SCRIPT_NAME, build_site_project

CHROMIUM = Path(os.environ.get("CLUBRATINGS_CHROMIUM", "/usr/bin/chromium"))
REQUIRED = os.environ.get("CLUBRATINGS_REQUIRE_BROWSER", "") not in ("", "0")
"""In CI: fail instead of skipping when playwright or Chromium is missing."""

if REQUIRED:
    from playwright import sync_api
    assert CHROMIUM.exists(), f"no Chromium at {CHROMIUM}"
else:
    sync_api = pytest.importorskip("playwright.sync_api")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site of a fixture project served from 127.0.0.1; yields its base URL."""
    public = build_site_project(tmp_path_factory.mktemp("browser"), go=False)
    handler = functools.partial(_QuietHandler, directory=str(public))
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
    inactive = page.locator("#inactive-players tbody a").all_text_contents()  # type: ignore[attr-defined]
    assert inactive[0] == "Anna Dawna" and len(inactive) == 6
    provisional = page.locator("#provisional-players tbody a").all_text_contents()  # type: ignore[attr-defined]
    ranked = page.locator("#list tbody a").all_text_contents()  # type: ignore[attr-defined]
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
    name = first.locator("a").text_content()
    first.locator("a").click()
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
