"""The import reports in a real headless Chromium, at a phone's width: the list of reports and a
report page fit the window (a wide table scrolls inside its box, not the page), and the list
shows each report's date and links it.

Needs the Python package ``playwright`` (its browsers are NOT downloaded: the test drives
Debian's ``/usr/bin/chromium``) and the Debian package ``chromium``. Skipped when either is
missing; ``CLUBRATINGS_CHROMIUM`` names another Chromium binary; with
``CLUBRATINGS_REQUIRE_BROWSER=1`` (CI) a missing playwright or Chromium fails instead of skipping
(as tests/test_site_browser.py).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from flows import load_config

from ._csvs import club_event
from .test_report import _drop, _project_run, _small_club
from .test_site_browser import ARGS, CHROMIUM, serving, sync_api

SITE_CSS = Path(__file__).resolve().parents[1] / "publishing" / "templates" / "site" / "site.css"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ORGANISERS = ("Klub Brydżowy Singleton Warszawa", "Nevsky Circle London", "«Мизер», "
              "Санкт-Петербург", "Warszawa - Polinezyjska", "Bridge Club Wien-Döbling")
"""Clubs of the second import, with names as long as the bundled default's."""

pytestmark = pytest.mark.usefixtures("chromium_binary")  # waits for it, or skips


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Two reports of a small club (the second after a file with a long name was rejected),
    with the site's style, served from 127.0.0.1; yields the base URL."""
    root = tmp_path_factory.mktemp("reports")
    cfg = load_config(_small_club(root))
    _project_run(cfg)
    (root / "inbox" / ("results-of-the-thursday-evening-pairs-tournament-at-the-club-"
                       "exported-again.csv")).write_text("nothing,to,see\n1,2,3\n",
                                                         encoding="utf-8")
    _drop(root, "club-2013-11-14.csv", club_event("2013-11-14"))
    for k, organiser in enumerate(ORGANISERS):  # the table per club as wide as the default's
        _drop(root, f"guest-night-{k}.csv", club_event(f"2013-11-{21 + k}", organiser=organiser))
    _project_run(cfg)
    shutil.copy(SITE_CSS, cfg.public / "site.css")
    with serving(cfg.public) as base:
        yield base


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Debian's Chromium, headless, for the module's pages."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def phone(site: str, chromium: object) -> Iterator[object]:
    """A page 390 px wide that fails the test on any script error or request off the site."""
    context = chromium.new_context(viewport=PHONE)  # type: ignore[attr-defined]
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" else None)
    page.on("request", lambda req: None if req.url.startswith(site)
            else problems.append(f"request off the site: {req.url}"))
    try:
        yield page
    finally:
        context.close()
    assert problems == []


def _fits(page: object) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    inner = page.evaluate("window.innerWidth")  # type: ignore[attr-defined]
    assert inner == PHONE["width"] and width <= inner, (page.url, width, inner)  # type: ignore[attr-defined]


def test_the_list_of_reports_fits_a_phone_and_shows_dates(phone: object, site: str) -> None:
    phone.goto(site + "reports/index.html")  # type: ignore[attr-defined]
    _fits(phone)
    assert phone.locator("h1").text_content() == "Import reports"  # type: ignore[attr-defined]
    assert phone.locator("link[rel=stylesheet]").get_attribute("href") == "../site.css"  # type: ignore[attr-defined]
    dates = phone.locator("tbody tr td:first-child a").all_text_contents()  # type: ignore[attr-defined]
    assert len(dates) == 2
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", d) for d in dates), dates
    assert dates == sorted(dates, reverse=True)
    assert phone.locator("tbody tr td:first-child a").first.is_visible()  # type: ignore[attr-defined]


def test_a_report_fits_a_phone_its_wide_tables_scroll_in_their_box(
        phone: object, site: str) -> None:
    phone.goto(site + "reports/index.html")  # type: ignore[attr-defined]
    phone.locator("tbody tr td:first-child a").first.click()  # type: ignore[attr-defined]
    phone.wait_for_url(re.compile(r".*/reports/\d{4}-\d\d-\d\d-\d{4}-7-files\.html$"))  # type: ignore[attr-defined]
    _fits(phone)
    meta = phone.locator("p.meta").first.text_content()  # type: ignore[attr-defined]
    assert re.fullmatch(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC\.", meta), meta
    per_club = phone.locator(".scroll").first  # type: ignore[attr-defined]
    overflow = per_club.evaluate("box => [box.scrollWidth, box.clientWidth, "
                                 "getComputedStyle(box).overflowX]")
    assert overflow[0] > overflow[1] and overflow[2] == "auto"  # the table per club scrolls
    assert phone.get_by_role("heading", name="Waiting in inbox/rejected/").is_visible()  # type: ignore[attr-defined]
    phone.get_by_role("link", name="All import reports").click()  # type: ignore[attr-defined]
    phone.wait_for_url("**/reports/index.html")  # type: ignore[attr-defined]
    phone.goto(site + "reports/latest.html")  # type: ignore[attr-defined]
    _fits(phone)


def test_a_report_at_1280_pixels_shows_every_table_whole(site: str, chromium: object) -> None:
    """At a desktop's width no table of the report is cut: none scrolls, the table per club
    shows its last column (events not rated)."""
    context = chromium.new_context(viewport=DESKTOP)  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        page.goto(site + "reports/latest.html")
        assert page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]") \
            == [DESKTOP["width"]] * 2
        boxes = page.evaluate(
            "Array.from(document.querySelectorAll('.scroll')).map(box => "
            "[box.closest('section').querySelector('h2').textContent, box.scrollWidth, "
            "box.clientWidth])")
        assert boxes and all(wide <= seen for _, wide, seen in boxes), boxes
        per_club = page.locator("section", has=page.get_by_role("heading", name="Per club"))
        assert per_club.locator("tbody tr").count() >= len(ORGANISERS) + 1
        last = per_club.locator("thead th").last
        assert last.text_content() == "events not rated"
        box = last.bounding_box()
        assert box is not None and box["x"] + box["width"] <= DESKTOP["width"]
        title = page.locator("h1").text_content() or ""
        assert re.fullmatch(r"Import report \d{4}-\d\d-\d\d \d\d:\d\d UTC: 7 files", title), title
    finally:
        context.close()
