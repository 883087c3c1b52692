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

from .test_site import SCRIPT_NAME, TEST_CLUB, build_site_project

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
    assert total > 40
    assert page.locator("#row-count").text_content() == f"{total} of {total} players"  # type: ignore[attr-defined]

    page.select_option("#filter-club", label=TEST_CLUB)  # type: ignore[attr-defined]
    clubs = _column(page, 3)
    assert clubs == [TEST_CLUB] * 7  # the club night's players, less the one who opted out
    assert page.locator("#row-count").text_content() == f"7 of {total} players"  # type: ignore[attr-defined]

    sort_rating = page.locator("th[data-key=rating] button")  # type: ignore[attr-defined]
    sort_rating.click()
    ratings = [float(x) for x in _column(page, 4)]
    assert ratings[0] == max(ratings)
    assert ratings == sorted(ratings, reverse=True)
    assert page.locator("th[data-key=rating]").get_attribute("aria-sort") == "descending"  # type: ignore[attr-defined]
    sort_rating.click()  # again: lowest first
    assert [float(x) for x in _column(page, 4)] == sorted(ratings)
    assert float(_column(page, 4)[0]) < max(ratings)
    page.locator("th[data-key=club] button").click()  # type: ignore[attr-defined]
    assert page.locator("th[data-key=club]").get_attribute("aria-sort") == "ascending"  # type: ignore[attr-defined]
    sort_rating.click()  # from another column, a number column starts from the largest
    ratings = [float(x) for x in _column(page, 4)]
    assert ratings[0] == max(ratings)
    assert ratings == sorted(ratings, reverse=True)

    page.select_option("#filter-club", value="")  # type: ignore[attr-defined]
    page.fill("#filter-name", "TESTOV ")  # type: ignore[attr-defined]
    names = page.locator("#list tbody tr td:nth-child(2) a").all_text_contents()  # type: ignore[attr-defined]
    assert sorted(names) == ["Ivan Testov", "Marek Testovy", "Petr Testov", "Zuzana Testova"]
    page.fill("#filter-name", "")  # type: ignore[attr-defined]
    page.select_option("#filter-status", "new")  # type: ignore[attr-defined]
    assert set(_column(page, 7)) == {"new"}
    assert rows.count() < total


def test_script_named_player_renders_as_text(page: object, site: str) -> None:
    _latest_edition(page, site)
    page.select_option("#filter-club", label=TEST_CLUB)  # type: ignore[attr-defined]
    link = page.get_by_role("link", name=SCRIPT_NAME, exact=True).first  # type: ignore[attr-defined]
    assert link.is_visible()
    assert link.text_content() == SCRIPT_NAME
    # the table the script renders holds no element made from a name
    assert page.locator("#list tbody script").count() == 0  # type: ignore[attr-defined]

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
