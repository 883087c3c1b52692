"""The quality page's reliability plots in a real headless Chromium at a phone's width: the page
does not scroll sideways, every plot shrinks into the window and keeps its series and legend.

Needs the Python package ``playwright`` and the Debian package ``chromium``; skipped when either
is missing, failing instead with ``CLUBRATINGS_REQUIRE_BROWSER=1`` (as
tests/test_site_browser.py, whose Chromium setup it uses).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from publishing._site import write_site_index

from .test_site import calibrated_quality
from .test_site_browser import ARGS, CHROMIUM, serving, sync_api

PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.usefixtures("chromium_binary")  # waits for it, or skips


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The quality page of a small report with calibration (and a real archive's), served from
    127.0.0.1; yields the base URL."""
    root = tmp_path_factory.mktemp("quality")
    source = calibrated_quality(root)
    public = root / "public"
    public.mkdir()
    write_site_index(public, source)
    with serving(public) as base:
        yield base


def test_the_reliability_plots_fit_a_phone(site: str) -> None:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = chromium.new_context(viewport=PHONE)
            page = context.new_page()
            problems: list[str] = []
            page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
            page.on("request", lambda req: None if req.url.startswith(site)
                    else problems.append(f"request off the site: {req.url}"))
            response = page.goto(site + "quality.html")
            assert response is not None and response.ok
            width = page.evaluate("document.documentElement.scrollWidth")
            inner = page.evaluate("window.innerWidth")
            assert width <= inner == PHONE["width"]
            plots = page.locator("svg.reliability")
            assert plots.count() == 2  # the preset's and the real archive's
            for index in range(plots.count()):
                plot = plots.nth(index)
                plot.scroll_into_view_if_needed()
                box = plot.bounding_box()
                assert box is not None and box["x"] >= 0 and 0 < box["width"] <= inner, box
                assert box["height"] > 0.6 * box["width"]  # scaled, not squashed
                legend = page.locator("div.calibration table.legend").nth(index)
                assert legend.is_visible()
                legend_box = legend.bounding_box()
                assert legend_box is not None
                assert legend_box["x"] + legend_box["width"] <= inner
            assert page.locator("#calibration-tiny g.series").count() == 3
            assert problems == []
            context.close()
        finally:
            chromium.close()
