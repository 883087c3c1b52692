"""Scraping by discovery (scraping/, docs/scraping.md "Discovery"): a copy of a club's
site (fixtures/sites/mercer, see its SOURCES.txt) served over HTTP on 127.0.0.1; no internet.

Only the scrape is checked here (which URLs are requested, which files reach the inbox, their
bytes); reading the pages is the parsers' business."""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import scraping
from flows import ScrapeConfigError, _sources
from flows._config import Config
from cli import main

from .conftest import FIXTURES

SITE = FIXTURES / "sites" / "mercer"
NOW = datetime(2026, 1, 6, 23, 0)
NIGHTS = ["/2025/251230E.htm", "/2020/200121E.htm", "/2019/190108E.htm"]
"""The nights the index pages link that are on the site, in the order the pages list them."""


# ---------------------------------------------------------------- the site on 127.0.0.1


@dataclass
class Logged:
    path: str
    headers: dict[str, str]
    status: int


class Site:
    """A copy of fixtures/sites/mercer in ``folder``, served by http.server (Last-Modified
    from the files' times, If-Modified-Since answered with 304) on a random port."""

    def __init__(self, folder: Path) -> None:
        shutil.copytree(SITE, folder)
        self.folder = folder
        self.log: list[Logged] = []
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
                site.log.append(Logged(self.path, {k.lower(): v for k, v in
                                                   self.headers.items()}, int(code)))

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0),
                                         functools.partial(Handler, directory=str(folder)))
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()

    @property
    def netloc(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"http://{self.netloc}{path}"

    def paths(self, since: int = 0) -> list[str]:
        return [entry.path for entry in self.log[since:]]

    def write(self, path: str, text: str) -> None:
        """Change a page of the site; its time moves on a minute (a later Last-Modified)."""
        target = self.folder / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        later = max(target.stat().st_mtime if target.exists() else 0,
                    (self.folder / "index.html").stat().st_mtime) + 60
        target.write_text(text, encoding="utf-8")
        os.utime(target, (later, later))

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    s = Site(tmp_path / "site")
    yield s
    s.close()


def make_cfg(tmp_path: Path) -> Config:
    return Config(root=tmp_path, warehouse=tmp_path / "data" / "wh.duckdb",
                  inbox=tmp_path / "inbox", public=tmp_path / "public")


def write_sources(tmp_path: Path, site: Site, extra: str = "", *,
                  follow: str = '["20*/*E.htm", "20*/*E.[Tt][Xx][Tt]"]',
                  top: str = "rate_limit_seconds = 0\n") -> None:
    (tmp_path / "sources.toml").write_text(
        f'allow = ["{site.netloc}"]\ncontact = "https://federation.example/ratings"\n{top}'
        f'[[source]]\nclub = "Mercercrest"\nindex = "{site.url("/index.html")}"\n'
        f'follow = {follow}\nschedule = "always"\n{extra}\n', encoding="utf-8")


def run(cfg: Config, *, now: datetime = NOW, dry_run: bool = False) -> scraping.ScrapeReport:
    return _sources.scrape(cfg, sleep=lambda s: None, now=lambda: now, dry_run=dry_run)


def statuses(report: scraping.ScrapeReport, site: Site) -> dict[str, str]:
    prefix = site.url("")
    return {r.url.removeprefix(prefix): r.status for r in report.results}


def inbox(cfg: Config, site: Site) -> dict[str, bytes]:
    """The inbox's files by the site path they came from."""
    if not cfg.inbox.exists():
        return {}
    prefix = f"127.0.0.1-{site.port}__"
    return {p.name.removeprefix(prefix): p.read_bytes() for p in cfg.inbox.iterdir()
            if p.is_file()}


def served(path: str) -> bytes:
    return (SITE / path.lstrip("/")).read_bytes()


def empty_inbox(cfg: Config) -> None:
    for path in cfg.inbox.iterdir():
        path.unlink()


# ---------------------------------------------------------------- a whole scrape, twice


def test_first_scrape_writes_the_nights_second_fetches_nothing_new(
        site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site)
    cfg = make_cfg(tmp_path)

    report = run(cfg)
    assert statuses(report, site) == {
        "/index.html": "read", "/older.html": "read",
        "/2025/251230E.htm": "fetched", "/2020/200121E.htm": "fetched",
        "/2019/191231E.htm": "error", "/2019/190108E.htm": "fetched",
        "/2025/251230E.txt": "error", "/2020/200121E.TXT": "fetched",
        "/2019/190108E.txt": "error",
    }
    assert inbox(cfg, site) == {
        "2025_251230E.htm": served("/2025/251230E.htm"),
        "2020_200121E.htm": served("/2020/200121E.htm"),
        "2019_190108E.htm": served("/2019/190108E.htm"),
        "2020_200121E.txt": served("/2020/200121E.TXT"),
    }
    assert sorted(p.name for p in report.written) == sorted(
        f"127.0.0.1-{site.port}__{name}" for name in inbox(cfg, site))
    # the site's own pages only, each once; never the club's real host, the Common Game,
    # mailto:, javascript:, fragments, the night's .pbn/.pdf, nor the blog post (no pattern)
    assert site.paths() == ["/robots.txt", "/index.html", "/older.html",
                            "/2025/251230E.htm", "/2020/200121E.htm", "/2019/191231E.htm",
                            "/2019/190108E.htm", "/2025/251230E.txt", "/2020/200121E.TXT",
                            "/2019/190108E.txt"]
    assert all(e.headers["user-agent"].startswith("clubratings/") for e in site.log)
    assert not any("github.io" in r.url or "thecommongame" in r.url for r in report.results)
    errors = {r.url.removeprefix(site.url("")): r.message for r in report.errors}
    assert errors == {p: "HTTP 404 Not Found" for p in
                      ("/2019/191231E.htm", "/2025/251230E.txt", "/2019/190108E.txt")}
    (summary,) = report.sources
    assert (summary.pages_read, summary.links, summary.new, summary.unchanged,
            summary.failed) == (2, 7, 4, 0, 3)
    assert report.lines()[-2] == ("Mercercrest: 2 index page(s) read, 7 links found, 4 new, "
                                  "0 changed, 0 unchanged (304), 3 failed")
    empty_inbox(cfg)
    first = len(site.log)

    report = run(cfg)
    assert report.written == [] and inbox(cfg, site) == {}
    again = site.log[first:]
    # the index pages and the (at most 8) most recent nights, conditionally: all 304; the
    # three 404s are not asked again
    assert [e.path for e in again] == ["/robots.txt", "/index.html", "/older.html",
                                       "/2025/251230E.htm", "/2020/200121E.htm",
                                       "/2019/190108E.htm", "/2020/200121E.TXT"]
    assert all(e.status == 304 and "if-modified-since" in e.headers for e in again[1:])
    assert report.errors == []
    (summary,) = report.sources
    assert (summary.pages_read, summary.pages_not_modified, summary.new, summary.unchanged,
            summary.failed, summary.failed_before) == (2, 2, 0, 4, 0, 3)
    assert report.lines()[-1] == "scrape: 6 not_modified"


def test_a_night_added_to_the_index_is_the_only_page_fetched(
        site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, "recheck = 0")
    cfg = make_cfg(tmp_path)
    run(cfg)
    empty_inbox(cfg)
    night = "<html><body><p>Tuesday Evening Pairs, 6 Jan 2026</p></body></html>\n"
    site.write("/2026/260106E.htm", night)
    index = (site.folder / "index.html").read_text(encoding="utf-8")
    site.write("/index.html", index.replace(
        '<a href="2025/', '<a href="2026/260106E.htm">01/06/2026</a><br> \n<a href="2025/', 1))
    first = len(site.log)

    report = run(cfg)
    assert site.paths(first) == ["/robots.txt", "/index.html", "/older.html",
                                 "/2026/260106E.htm"]
    assert [e.status for e in site.log[first:]] == [404, 200, 304, 200]
    assert inbox(cfg, site) == {"2026_260106E.htm": night.encode()}
    (summary,) = report.sources
    assert (summary.links, summary.new, summary.known, summary.failed_before) == (5, 1, 4, 3)


def test_the_most_recent_nights_are_re_checked(site: Site, tmp_path: Path) -> None:
    """``recheck = 2``: the two results found first on the newest pages (the index lists the
    newest night first); the 2019 night is left alone."""
    write_sources(tmp_path, site, "recheck = 2", follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    run(cfg)
    first = len(site.log)
    run(cfg)
    assert site.paths(first) == ["/robots.txt", "/index.html", "/older.html",
                                 "/2025/251230E.htm", "/2020/200121E.htm"]


def test_a_changed_night_is_fetched_again(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    run(cfg)
    empty_inbox(cfg)
    site.write("/2020/200121E.htm", "<html><body>corrected</body></html>\n")
    report = run(cfg)
    assert inbox(cfg, site) == {"2020_200121E.htm": b"<html><body>corrected</body></html>\n"}
    assert (report.sources[0].new, report.sources[0].changed) == (0, 1)


# ---------------------------------------------------------------- bounds


def test_depth_bounds_what_is_followed(site: Site, tmp_path: Path) -> None:
    """``max_depth = 1``: the nights the index pages link, not the .TXT their pages link."""
    write_sources(tmp_path, site, "max_depth = 1")
    cfg = make_cfg(tmp_path)
    run(cfg)
    assert sorted(inbox(cfg, site)) == ["2019_190108E.htm", "2020_200121E.htm",
                                        "2025_251230E.htm"]
    assert not any(p.lower().endswith("e.txt") for p in site.paths())


def test_max_new_leaves_the_rest_for_the_next_run(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, "max_new = 2", follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    report = run(cfg)
    assert sorted(inbox(cfg, site)) == ["2020_200121E.htm", "2025_251230E.htm"]
    (summary,) = report.sources
    assert (summary.new, summary.left, summary.bound) == (2, 2, "max_new = 2")
    assert report.lines()[-2].endswith("; 2 left for the next run (max_new = 2)")
    empty_inbox(cfg)
    report = run(cfg)
    assert sorted(inbox(cfg, site)) == ["2019_190108E.htm"]
    assert statuses(report, site)["/2019/191231E.htm"] == "error"
    assert report.sources[0].left == 0


def test_max_pages_bounds_the_index_pages_read(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, "max_pages = 1", follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    report = run(cfg)
    assert "/older.html" not in site.paths()
    assert sorted(inbox(cfg, site)) == ["2020_200121E.htm", "2025_251230E.htm"]
    assert report.sources[0].bound == "max_pages = 1"


def test_max_links_reads_only_the_first_links_of_a_page(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, "max_links = 1\nmax_depth = 1", follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    report = run(cfg)
    assert sorted(inbox(cfg, site)) == ["2025_251230E.htm"]
    assert report.sources[0].truncated == 1
    assert "/older.html" not in site.paths()


def test_time_and_bytes_bound_a_run(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, "max_run_bytes = 100000", follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    report = run(cfg)
    assert sorted(inbox(cfg, site)) == ["2025_251230E.htm"]  # 206 kB: the bound is reached
    assert report.sources[0].bound == "max_run_bytes = 100000"

    clock = iter(range(0, 10_000, 10))  # ten seconds pass at each look at the clock
    (tmp_path / "b").mkdir()
    write_sources(tmp_path / "b", site, "max_seconds = 25", follow='"20*/*E.htm"')
    cfg_b = make_cfg(tmp_path / "b")
    report = _sources.scrape(cfg_b, clock=lambda: float(next(clock)), sleep=lambda s: None,
                            now=lambda: NOW)
    assert report.sources[0].bound == "max_seconds = 25"
    assert report.sources[0].left > 0 and len(inbox(cfg_b, site)) < 3


# ---------------------------------------------------------------- politeness and failures


def test_robots_txt_disallow_is_honoured_and_reported_once(
        site: Site, tmp_path: Path) -> None:
    site.write("/robots.txt", "User-agent: *\nDisallow: /2019/\n")
    write_sources(tmp_path, site, follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    report = run(cfg)
    assert not any(p.startswith("/2019/") for p in site.paths())
    assert statuses(report, site)["/2019/190108E.htm"] == "robots"
    assert sorted(inbox(cfg, site)) == ["2020_200121E.htm", "2025_251230E.htm"]
    assert report.sources[0].robots == 2
    report = run(cfg)
    assert not any(p.startswith("/2019/") for p in site.paths())
    assert "robots" not in statuses(report, site).values()
    assert report.sources[0].failed_before == 2


def test_a_404_is_reported_once_and_retried_rarely(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    broken = "/2019/191231E.htm"
    assert statuses(run(cfg), site)[broken] == "error"
    for days in (1, 29):
        first = len(site.log)
        report = run(cfg, now=NOW + timedelta(days=days))
        assert broken not in site.paths(first) and report.errors == []
    first = len(site.log)
    report = run(cfg, now=NOW + timedelta(days=30))  # retry_failed_days = 30
    assert broken in site.paths(first) and statuses(report, site)[broken] == "error"
    first = len(site.log)
    run(cfg, now=NOW + timedelta(days=30 + 59))  # then twice as long
    assert broken not in site.paths(first)
    site.write(broken, "<html><body>found after all</body></html>\n")
    first = len(site.log)
    report = run(cfg, now=NOW + timedelta(days=30 + 60))
    assert broken in site.paths(first) and statuses(report, site)[broken] == "fetched"


def test_a_night_that_disappears_is_reported_once(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    run(cfg)
    (site.folder / "2020" / "200121E.htm").unlink()
    gone = "/2020/200121E.htm"
    assert statuses(run(cfg), site)[gone] == "error"
    first = len(site.log)
    report = run(cfg)
    assert gone not in site.paths(first) and report.errors == []
    assert report.sources[0].failed_before == 2


def test_a_run_killed_before_its_state_was_written_still_finds_the_deeper_links(
        site: Site, tmp_path: Path) -> None:
    """The cache knows the nights (so they answer 304) but the state does not: their links
    are read from the cached copies, and the .TXT report is still found."""
    write_sources(tmp_path, site)
    cfg = make_cfg(tmp_path)
    run(cfg)
    shutil.rmtree(_sources.cache_dir(cfg) / "discovered")
    empty_inbox(cfg)
    first = len(site.log)
    report = run(cfg)
    assert statuses(report, site)["/2020/200121E.htm"] == "not_modified"
    assert "/2020/200121E.TXT" in site.paths(first)
    assert statuses(report, site)["/2020/200121E.TXT"] == "not_modified"
    assert inbox(cfg, site) == {}


def test_links_to_other_hosts_are_never_followed(site: Site, tmp_path: Path) -> None:
    """The blog post links the night on the club's real host: a through page is read, but
    that link leads off the index's host and is ignored."""
    write_sources(tmp_path, site, 'through = "blog/**/*.html"', follow='"**/*E.htm"')
    cfg = make_cfg(tmp_path)
    report = run(cfg)
    assert statuses(report, site)["/blog/results/2020/01/21/results.html"] == "read"
    assert not any("github.io" in r.url for r in report.results)
    assert report.sources[0].pages_read == 3


def test_through_pages_lead_to_nights_the_index_does_not_list(
        site: Site, tmp_path: Path) -> None:
    site.write("/blog/extra.html", '<a href="../2019/190108E.htm">results</a>\n')
    site.write("/start.html", '<a href="blog/extra.html">blog</a> <a href="older.html">x</a>\n')
    (tmp_path / "sources.toml").write_text(
        f'allow = ["{site.netloc}"]\nrate_limit_seconds = 0\n[[source]]\nclub = "M"\n'
        f'index = "{site.url("/start.html")}"\nfollow = "20*/*E.htm"\n'
        'through = "blog/*.html"\nschedule = "always"\n', encoding="utf-8")
    cfg = make_cfg(tmp_path)
    run(cfg)
    assert sorted(inbox(cfg, site)) == ["2019_190108E.htm"]
    assert "/older.html" not in site.paths()  # neither a result, a through page nor "next"


def test_a_second_index_in_another_folder_with_patterns_from_the_root(
        site: Site, tmp_path: Path) -> None:
    """As docs/scraping.md describes the club's blog: its index in /blog/, posts linking the
    nights from the site's root; every night fetched once, whichever index leads to it."""
    site.write("/blog/index.html", '<a href="/blog/results/2020/01/21/post.html">21 Jan</a>\n')
    site.write("/blog/results/2020/01/21/post.html",
               '<a href="/2020/200121E.htm">results</a> <a href="/2019/190108E.htm">older</a>\n')
    (tmp_path / "sources.toml").write_text(
        f'allow = ["{site.netloc}"]\nrate_limit_seconds = 0\n[[source]]\nclub = "M"\n'
        f'index = ["{site.url("/index.html")}", "{site.url("/blog/index.html")}"]\n'
        'follow = "/20*/**/*E.htm"\nthrough = "/blog/results/**"\nschedule = "always"\n',
        encoding="utf-8")
    cfg = make_cfg(tmp_path)
    run(cfg)
    assert sorted(inbox(cfg, site)) == ["2019_190108E.htm", "2020_200121E.htm",
                                        "2025_251230E.htm"]
    assert site.paths().count("/2020/200121E.htm") == 1
    assert "/blog/results/2020/01/21/post.html" in site.paths()


def test_dry_run_reads_the_index_pages_and_writes_nothing(
        site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_sources(tmp_path, site, follow='"20*/*E.htm"')
    (tmp_path / "clubratings.toml").write_text('[paths]\nwarehouse = "data/wh.duckdb"\n'
                                               'sources = []\n', encoding="utf-8")
    assert main(["scrape", "--config", str(tmp_path / "clubratings.toml"), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"Mercercrest: {site.url('/index.html')}: read: 691 bytes read for links",
        f"Mercercrest: {site.url('/older.html')}: read: 279 bytes read for links",
        *(f"Mercercrest: {site.url(p)}: planned: would be fetched"
          for p in ["/2025/251230E.htm", "/2020/200121E.htm", "/2019/191231E.htm",
                    "/2019/190108E.htm"]),
        "Mercercrest: 2 index page(s) read, 4 links found, 4 would be fetched",
        "scrape: 4 planned, 2 read",
    ]
    assert site.paths() == ["/robots.txt", "/index.html", "/older.html"]
    assert not (tmp_path / "inbox").exists() and not (tmp_path / "data").exists()


def test_the_state_names_the_links_found(site: Site, tmp_path: Path) -> None:
    write_sources(tmp_path, site, follow='"20*/*E.htm"')
    cfg = make_cfg(tmp_path)
    run(cfg)
    (path,) = (_sources.cache_dir(cfg) / "discovered").glob("*.json")
    state = json.loads(path.read_text(encoding="utf-8"))
    assert state["run"] == 1
    pages = {url.removeprefix(site.url("")): page for url, page in state["pages"].items()}
    assert sorted(pages) == sorted([*NIGHTS, "/2019/191231E.htm"])
    assert pages["/2019/191231E.htm"]["failures"] == 1
    assert pages["/2019/191231E.htm"]["reason"] == "HTTP 404 Not Found"
    assert [pages[p]["order"] for p in NIGHTS] == [1, 2, 4]
    assert pages["/2025/251230E.htm"]["fetched"] == "2026-01-06T23:00:00"


# ---------------------------------------------------------------- links, patterns, config


def test_links_resolve_and_drop_what_cannot_be_fetched() -> None:
    page = (b'<base href="https://club.example/results/">'
            b'<a href="2019/a.htm">1</a> <a href="/2019/a.htm#top">same</a>'
            b'<a href="https://club.example/results/2019/b.htm">2</a>'
            b'<a href="#x">x</a><a href="javascript:recap(\'A1\')">j</a>'
            b'<a href="mailto:club@example.org">m</a><!-- <a href="hidden.htm"> -->'
            b'<script>var u = "<a href=\'%year%/%file%.htm\'>";</script>'
            b'<a href="?page=2" rel="next">2</a><a href="p3.html">Older &raquo;</a>'
            b'<a href="p4.html">&rsaquo;</a><a href="p0.html">&laquo; Newer</a>'
            b'<link rel="next" href="p5.html"><link rel="stylesheet" href="s.css">')
    found, cut = scraping.links(page, "https://club.example/index.html")
    assert not cut
    assert [(link.url, link.next) for link in found] == [
        ("https://club.example/results/2019/a.htm", False),
        ("https://club.example/2019/a.htm", False),
        ("https://club.example/results/2019/b.htm", False),
        ("https://club.example/results/?page=2", True),
        ("https://club.example/results/p3.html", True),
        ("https://club.example/results/p4.html", True),
        ("https://club.example/results/p0.html", False),
        ("https://club.example/results/p5.html", True),
    ]
    found, cut = scraping.links(page, "https://club.example/index.html", limit=2)
    assert cut and len(found) == 2


@pytest.mark.parametrize(("pattern", "url", "matches"), [
    ("20*/*E.htm", "https://h/2019/190108E.htm", True),
    ("20*/*E.htm", "https://h/2019/190108E_iPhone.htm", False),
    ("20*/*E.htm", "https://h/2019/190108E.txt", False),
    ("20*/*E.[Tt][Xx][Tt]", "https://h/2019/190108E.txt", True),
    ("20*/*E.[Tt][Xx][Tt]", "https://h/2020/200121E.TXT", True),
    ("*E.htm", "https://h/2019/190108E.htm", False),  # * stays within a folder
    ("**/*E.htm", "https://h/2019/190108E.htm", True),
    ("**/*E.htm", "https://h/190108E.htm", True),
    ("/2019/*.htm", "https://h/2019/190108E.htm", True),
    ("results.php?id=*", "https://h/results.php?id=5", True),
])
def test_follow_patterns(pattern: str, url: str, matches: bool) -> None:
    disc = scraping.Discovery(index=("https://h/index.html",), follow=(pattern,))
    assert disc.follows(url, "https://h/", disc.follow) is matches


def test_patterns_are_relative_to_the_index_folder() -> None:
    disc = scraping.Discovery(index=("https://h/club/index.html",), follow=("20*/*.htm",))
    assert disc.follows("https://h/club/2019/a.htm", "https://h/club/", disc.follow)
    assert not disc.follows("https://h/2019/a.htm", "https://h/club/", disc.follow)


@pytest.mark.parametrize(("body", "message"), [
    ('index = "https://x.example/"\n', "index needs follow = "),
    ('index = "ftp://x.example/"\nfollow = "*"\n',
     "index = 'ftp://x.example/': not an http(s) URL"),
    ('index = "https://x.example/"\nurl = "https://x.example/a"\nfollow = "*"\n',
     "give one of url, url_pattern or index"),
    ('url = "https://x.example/a"\nfollow = "*"\n', "follow: goes with index"),
    ('index = "https://x.example/"\nfollow = 3\n',
     "follow = 3: expected a text or a list of texts"),
    ('index = "https://x.example/"\nfollow = "20*/[abc"\n', "follow = '20*/[abc': unclosed ["),
    ('index = "https://x.example/"\nfollow = "*"\nmax_depth = 9\n',
     "max_depth = 9: expected a whole number from 1 to 5"),
    ('index = "https://x.example/"\nfollow = "*"\nmax_new = "all"\n',
     "max_new = 'all': expected a whole number from 0 to 100000"),
    ('index = "https://x.example/"\nfollow = "*"\nhosts = ["elsewhere.example"]\n',
     "hosts = ['elsewhere.example']: 'elsewhere.example' must be a host name that is also on "
     "the allow-list"),
    ('index = "https://x.example/"\nfollow = "*"\nfolow = "*"\n',
     "folow: unknown key (did you mean 'follow'?)"),
])
def test_config_errors_name_the_source_and_key(tmp_path: Path, body: str,
                                               message: str) -> None:
    (tmp_path / "sources.toml").write_text(
        f'allow = ["x.example"]\n[[source]]\nclub = "Mercercrest"\n{body}', encoding="utf-8")
    with pytest.raises(ScrapeConfigError) as err:
        _sources.load_sources(make_cfg(tmp_path))
    assert message in str(err.value)
    assert f"{tmp_path / 'sources.toml'}: [[source]] #1 (Mercercrest)" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_name_instead_of_club_says_where_the_name_goes(tmp_path: Path) -> None:
    (tmp_path / "sources.toml").write_text(
        '[[source]]\nname = "mercercrest"\nindex = "https://h/"\nfollow = "*"\n',
        encoding="utf-8")
    with pytest.raises(ScrapeConfigError, match=r"name: unknown key \(the club's "
                       r"name goes in club = \.\.\.\)"):
        _sources.load_sources(make_cfg(tmp_path))


def test_discovery_settings_and_defaults(tmp_path: Path) -> None:
    (tmp_path / "sources.toml").write_text(
        'allow = ["mercerislandbridge.github.io", "cdn.example"]\n[[source]]\n'
        'club = "Mercercrest"\nindex = "https://mercerislandbridge.github.io/index.html"\n'
        'follow = ["20*/*E.htm", "20*/*E.[Tt][Xx][Tt]"]\n'
        '[[source]]\nclub = "B"\nindex = ["https://cdn.example/a/", "https://cdn.example/b/"]\n'
        'follow = "*.htm"\nthrough = "posts/*"\nhosts = ["mercerislandbridge.github.io"]\n'
        'max_depth = 3\nmax_pages = 5\nmax_links = 100\nmax_new = 10\nrecheck = 0\n'
        'retry_failed_days = 7\nmax_seconds = 60\nmax_run_bytes = 1000000\n', encoding="utf-8")
    a, b = _sources.load_sources(make_cfg(tmp_path)).sources
    assert a.discovery == scraping.Discovery(
        index=("https://mercerislandbridge.github.io/index.html",),
        follow=("20*/*E.htm", "20*/*E.[Tt][Xx][Tt]"), max_depth=2, max_pages=50,
        max_links=5000, max_new=2000, recheck=8, retry_failed_days=30, max_seconds=7200.0,
        max_run_bytes=1_000_000_000)
    assert a.key == "Mercercrest https://mercerislandbridge.github.io/index.html"
    assert b.discovery == scraping.Discovery(
        index=("https://cdn.example/a/", "https://cdn.example/b/"), follow=("*.htm",),
        through=("posts/*",), hosts=("mercerislandbridge.github.io",), max_depth=3,
        max_pages=5, max_links=100, max_new=10, recheck=0, retry_failed_days=7,
        max_seconds=60.0, max_run_bytes=1_000_000)


def test_the_documented_configuration_scrapes_the_club_s_nights(tmp_path: Path) -> None:
    """The example of docs/scraping.md "Discovery" loads, and its patterns take the nights and
    their text reports, nothing else the pages link."""
    from .conftest import ROOT

    doc = (ROOT / "docs" / "scraping.md").read_text(encoding="utf-8")
    block = next(b.split("\n", 1)[1] for b in doc.split("```toml")[1:]
                 if 'club = "Mercercrest"' in b.split("```")[0]).split("```")[0]
    (tmp_path / "sources.toml").write_text(block, encoding="utf-8")
    (source,) = _sources.load_sources(make_cfg(tmp_path)).sources
    disc = source.discovery
    assert disc is not None and disc.index == (
        "https://mercerislandbridge.github.io/index.html",)
    root = "https://mercerislandbridge.github.io/"
    taken = {path: disc.follows(root + path, root, disc.follow) for path in (
        "2019/190108E.htm", "2023/b4y/230214E.htm", "2019/190108E.txt", "2020/200121E.TXT",
        "2019/190108E_iPhone.htm", "2019/190108E.pbn", "2019/190108E.pdf",
        "blog/results/2020/01/21/results.html", "index.html")}
    assert [path for path, ok in taken.items() if ok] == [
        "2019/190108E.htm", "2023/b4y/230214E.htm", "2019/190108E.txt", "2020/200121E.TXT"]
