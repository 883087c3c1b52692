"""Scraping configured club pages (scraping/, the sources file read by flows/_sources.py;
docs/scraping.md); no internet: local HTTP servers on 127.0.0.1 and httpx.MockTransport."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

import scraping
from flows import ScrapeConfigError, _sources
from flows._config import Config
from flows._steps import code_version
from flows.core import Project
from cli import main
from warehouse import open_warehouse

from .conftest import FIXTURES, JFR_SAMPLE, ROOT

CSV_SAMPLE = FIXTURES / "csv_template" / "ties-and-decimal-comma.csv"
CONTACT = "https://federation.example/ratings"
NOW = datetime(2013, 8, 20, 21, 30)

# ---------------------------------------------------------------- a local server


@dataclass
class Route:
    body: bytes = b""
    content_type: str = "text/html"
    etag: str | None = None
    last_modified: str | None = None
    statuses: list[int] = field(default_factory=list)
    """Statuses answered first, one per request (then 200 with the body)."""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Logged:
    path: str
    headers: dict[str, str]
    status: int


class Server:
    """ThreadingHTTPServer on 127.0.0.1 with a random port, serving ``routes``, logging every
    request with its headers and the status it got."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.log: list[Logged] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                route = server.routes.get(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, body, extra = 404, b"not found", {"Content-Type": "text/plain"}
                if route is not None:
                    extra = {"Content-Type": route.content_type, **route.headers}
                    if route.etag:
                        extra["ETag"] = route.etag
                    if route.last_modified:
                        extra["Last-Modified"] = route.last_modified
                    if route.statuses:
                        status, body = route.statuses.pop(0), b"try later"
                    elif route.etag and headers.get("if-none-match") == route.etag or (
                            route.last_modified
                            and headers.get("if-modified-since") == route.last_modified):
                        status, body = 304, b""
                    else:
                        status, body = 200, route.body
                server.log.append(Logged(self.path, headers, status))
                self.send_response(status)
                for key, value in extra.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()

    @property
    def netloc(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"http://{self.netloc}{path}"

    def paths(self) -> list[str]:
        return [entry.path for entry in self.log]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def _ingest(cfg, paths):  # type: ignore[no-untyped-def]
    """Load inbox files through the run core, as a run does."""
    with Project.open(cfg, command="test") as project:
        return project.ingest([(Path(p), True) for p in paths])


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


@pytest.fixture
def other_server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


# ---------------------------------------------------------------- helpers


class FakeTime:
    """A clock that only moves when slept on; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def make_cfg(tmp_path: Path) -> Config:
    return Config(root=tmp_path, warehouse=tmp_path / "data" / "wh.duckdb",
                  inbox=tmp_path / "inbox", public=tmp_path / "public")


def write_sources(tmp_path: Path, allow: list[str], sources: str, **top: object) -> None:
    lines = [f"allow = {json.dumps(allow)}", f'contact = "{CONTACT}"']
    lines += [f"{k} = {json.dumps(v)}" for k, v in top.items()]
    (tmp_path / "sources.toml").write_text("\n".join(lines) + "\n" + sources, encoding="utf-8")


def source(club: str, url: str, extra: str = "") -> str:
    return f'[[source]]\nclub = "{club}"\nurl = "{url}"\nschedule = "always"\n{extra}\n'


def run(cfg: Config, fake: FakeTime, **kw: object) -> scraping.ScrapeReport:
    return _sources.scrape(cfg, clock=fake.clock, sleep=fake.sleep, now=lambda: NOW, **kw)


def counts(cfg: Config) -> tuple[int, int, int]:
    with open_warehouse(cfg.warehouse) as wh:
        row = wh.con.execute(
            "SELECT (SELECT count(*) FROM source_files), (SELECT count(*) FROM events), "
            "(SELECT count(*) FROM active_events)").fetchall()[0]
    return int(row[0]), int(row[1]), int(row[2])


def user_agent() -> str:
    return f"clubratings/{code_version()} (+{CONTACT})"


# ---------------------------------------------------------------- end to end on a local server


def test_first_run_loads_second_run_gets_304s_and_loads_nothing(
        server: Server, tmp_path: Path) -> None:
    server.routes["/robots.txt"] = Route(b"User-agent: *\nDisallow: /admin/\n", "text/plain")
    server.routes["/wyniki/W-wb130808.html"] = Route(JFR_SAMPLE.read_bytes(), etag='"jfr-1"')
    server.routes["/club/results?night=15"] = Route(
        CSV_SAMPLE.read_bytes(), "text/csv; charset=utf-8",
        last_modified="Thu, 15 Aug 2013 22:00:00 GMT")
    write_sources(tmp_path, [server.netloc],
                  source("WZBS", server.url("/wyniki/W-wb130808.html"))
                  + source("Pod Dębem", server.url("/club/results?night=15")))
    cfg = make_cfg(tmp_path)
    fake = FakeTime()

    report = run(cfg, fake)
    assert [r.status for r in report.results] == ["fetched", "fetched"]
    assert [r.http_status for r in report.results] == [200, 200]
    html = cfg.inbox / f"127.0.0.1-{server.port}__wyniki_W-wb130808.html"
    csv = cfg.inbox / f"127.0.0.1-{server.port}__club_results_night-15.csv"
    assert report.written == [html, csv]
    assert html.read_bytes() == JFR_SAMPLE.read_bytes()
    assert csv.read_bytes() == CSV_SAMPLE.read_bytes()
    assert sorted(p.name for p in cfg.inbox.iterdir()) == sorted([html.name, csv.name])
    outcomes = _ingest(cfg, report.written)
    assert [o.status for o in outcomes] == ["loaded", "loaded"]
    assert [o.events for o in outcomes] == [1, 2]
    assert counts(cfg) == (2, 3, 3)
    with open_warehouse(cfg.warehouse) as wh:
        titles = wh.con.execute(
            "SELECT title, CAST(event_date AS VARCHAR) FROM events ORDER BY event_id").fetchall()
    assert titles == [("Turniej Par - Barometr", "2013-08-08"),
                      ("Turniej czwartkowy", "2013-08-15"), ("Turniej czwartkowy", "2013-08-15")]
    assert not html.exists() and (cfg.archive / html.name).exists()
    assert server.paths() == ["/robots.txt", "/wyniki/W-wb130808.html",
                              "/club/results?night=15"]
    first = len(server.log)

    report = run(cfg, fake)
    assert [r.status for r in report.results] == ["not_modified", "not_modified"]
    assert [r.http_status for r in report.results] == [304, 304]
    assert report.written == []
    assert sorted(p.name for p in cfg.inbox.iterdir() if p.is_file()) == []
    again = server.log[first:]
    assert [e.path for e in again] == ["/robots.txt", "/wyniki/W-wb130808.html",
                                       "/club/results?night=15"]
    assert again[1].headers["if-none-match"] == '"jfr-1"'
    assert again[1].status == 304
    assert again[2].headers["if-modified-since"] == "Thu, 15 Aug 2013 22:00:00 GMT"
    assert again[2].status == 304
    assert counts(cfg) == (2, 3, 3)
    assert all(e.headers["user-agent"] == user_agent() for e in server.log)
    meta = [json.loads(p.read_text()) for p in sorted(_sources.cache_dir(cfg).glob("*.json"))
            if p.name != "schedule.json"]
    assert sorted(m["url"] for m in meta) == sorted(
        [server.url("/wyniki/W-wb130808.html"), server.url("/club/results?night=15")])
    assert {m["url"]: m["etag"] for m in meta}[server.url("/wyniki/W-wb130808.html")] \
        == '"jfr-1"'


def test_a_changed_page_arrives_under_the_same_name_as_a_correction(
        server: Server, tmp_path: Path) -> None:
    original = CSV_SAMPLE.read_bytes()
    server.routes["/r.csv"] = Route(original, "text/csv", etag='"v1"')
    write_sources(tmp_path, [server.netloc], source("Pod Dębem", server.url("/r.csv")),
                  rate_limit_seconds=0)
    cfg = make_cfg(tmp_path)
    fake = FakeTime()
    first = run(cfg, fake)
    assert [o.status for o in _ingest(cfg, first.written)] == ["loaded"]
    server.routes["/r.csv"] = Route(original.replace(b"61,20", b"60,90"), "text/csv",
                                    etag='"v2"')
    second = run(cfg, fake)
    assert [r.status for r in second.results] == ["fetched"]
    assert second.written == first.written
    (outcome,) = _ingest(cfg, second.written[:1])
    assert outcome.status == "correction"
    # only the section whose score changed is replaced; the other changed nothing, so it is
    # the same results (docs/rules/inputs.md, one night as many files)
    assert outcome.replaced_events == (1,)
    assert counts(cfg) == (2, 4, 2)
    archived = sorted(p.name for p in cfg.archive.iterdir())
    assert len(archived) == 2 and second.written[0].name in archived
    assert server.log[-1].headers["if-none-match"] == '"v1"'


def test_same_bytes_without_validators_write_nothing(server: Server, tmp_path: Path) -> None:
    server.routes["/plain.html"] = Route(JFR_SAMPLE.read_bytes())
    write_sources(tmp_path, [server.netloc], source("WZBS", server.url("/plain.html")),
                  rate_limit_seconds=0)
    cfg = make_cfg(tmp_path)
    fake = FakeTime()
    assert [r.status for r in run(cfg, fake).results] == ["fetched"]
    (cfg.inbox / f"127.0.0.1-{server.port}__plain.html").unlink()
    report = run(cfg, fake)
    assert [(r.status, r.http_status) for r in report.results] == [("unchanged", 200)]
    assert report.written == [] and list(cfg.inbox.iterdir()) == []


def test_an_unreadable_page_is_rejected_like_a_dropped_file(
        server: Server, tmp_path: Path) -> None:
    server.routes["/notes.txt"] = Route(b"no results tonight\n", "text/plain")
    write_sources(tmp_path, [server.netloc], source("WZBS", server.url("/notes.txt")))
    cfg = make_cfg(tmp_path)
    report = run(cfg, FakeTime())
    (outcome,) = _ingest(cfg, report.written[:1])
    assert outcome.status == "rejected"
    name = f"127.0.0.1-{server.port}__notes.txt"
    assert (cfg.rejected / name).read_bytes() == b"no results tonight\n"
    assert "unknown result format" in (cfg.rejected / f"{name}.reason.txt").read_text()


def test_a_host_off_the_allow_list_is_never_contacted(
        server: Server, other_server: Server, tmp_path: Path) -> None:
    server.routes["/ok.html"] = Route(JFR_SAMPLE.read_bytes())
    other_server.routes["/ok.html"] = Route(JFR_SAMPLE.read_bytes())
    write_sources(tmp_path, [server.netloc],
                  source("Elsewhere", other_server.url("/ok.html"))
                  + source("WZBS", server.url("/ok.html")))
    cfg = make_cfg(tmp_path)
    report = run(cfg, FakeTime())
    refused, fetched = report.results
    assert refused.status == "refused"
    assert refused.url == other_server.url("/ok.html")
    assert f"'127.0.0.1:{other_server.port}' is not on the allow-list" in refused.message
    assert refused.attempts == 0 and refused.path is None
    assert fetched.status == "fetched"
    assert other_server.log == []
    assert server.paths() == ["/robots.txt", "/ok.html"]


def test_robots_txt_is_fetched_once_and_honoured(server: Server, tmp_path: Path) -> None:
    server.routes["/robots.txt"] = Route(
        b"User-agent: clubratings\nDisallow: /private/\n\nUser-agent: *\nDisallow:\n",
        "text/plain")
    server.routes["/private/a.html"] = Route(JFR_SAMPLE.read_bytes())
    server.routes["/public/a.html"] = Route(JFR_SAMPLE.read_bytes())
    write_sources(tmp_path, [server.netloc],
                  source("A", server.url("/private/a.html"))
                  + source("B", server.url("/public/a.html")))
    cfg = make_cfg(tmp_path)
    report = run(cfg, FakeTime())
    assert [r.status for r in report.results] == ["robots", "fetched"]
    assert report.results[0].message == "disallowed by the host's robots.txt; not fetched"
    assert server.paths() == ["/robots.txt", "/public/a.html"]


def test_503_then_200_is_retried_with_back_off(server: Server, tmp_path: Path) -> None:
    server.routes["/flaky.html"] = Route(JFR_SAMPLE.read_bytes(), statuses=[503, 503])
    server.routes["/busy.html"] = Route(JFR_SAMPLE.read_bytes(), statuses=[429],
                                        headers={"Retry-After": "7"})
    write_sources(tmp_path, [server.netloc],
                  source("A", server.url("/flaky.html")) + source("B", server.url("/busy.html")),
                  rate_limit_seconds=0)
    cfg = make_cfg(tmp_path)
    fake = FakeTime()
    report = run(cfg, fake)
    assert [(r.status, r.attempts) for r in report.results] == [("fetched", 3), ("fetched", 2)]
    assert fake.sleeps == [1.0, 2.0, 7.0]  # 1 s, then doubled; Retry-After: 7 honoured
    assert [(e.path, e.status) for e in server.log] == [
        ("/robots.txt", 404), ("/flaky.html", 503), ("/flaky.html", 503), ("/flaky.html", 200),
        ("/busy.html", 429), ("/busy.html", 200)]


def test_404_is_not_retried_and_retries_run_out(server: Server, tmp_path: Path) -> None:
    server.routes["/down.html"] = Route(statuses=[503] * 5)
    write_sources(tmp_path, [server.netloc],
                  source("A", server.url("/missing.html")) + source("B", server.url("/down.html")),
                  rate_limit_seconds=0, retries=2)
    cfg = make_cfg(tmp_path)
    fake = FakeTime()
    report = run(cfg, fake)
    missing, down = report.results
    assert (missing.status, missing.http_status, missing.attempts) == ("error", 404, 1)
    assert missing.message == "HTTP 404 Not Found"
    assert (down.status, down.http_status, down.attempts) == ("error", 503, 3)
    assert fake.sleeps == [1.0, 2.0]
    assert server.paths().count("/missing.html") == 1
    assert server.paths().count("/down.html") == 3
    assert report.written == []
    # no source completed: both stay due for the next run
    assert json.loads((_sources.cache_dir(cfg) / "schedule.json").read_text()) == {}


# ---------------------------------------------------------------- mock transport


def mock(handler: Callable[[httpx.Request], httpx.Response]) -> httpx.MockTransport:
    return httpx.MockTransport(handler)


def settings_for(tmp_path: Path, allow: list[str], urls: list[str],
                 **kw: object) -> scraping.ScrapeSettings:
    return scraping.ScrapeSettings(
        path=tmp_path / "sources.toml", cache_dir=tmp_path / "cache",
        sources=tuple(scraping.Source(club=f"c{i}", url=u, schedule="always")
                      for i, u in enumerate(urls)),
        allow=tuple(allow), user_agent="clubratings/test", **kw)  # type: ignore[arg-type]


def test_rate_limit_spaces_requests_to_one_host(tmp_path: Path) -> None:
    fake = FakeTime()
    seen: list[tuple[float, str, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((fake.now, request.url.host, request.url.path))
        if request.url.path == "/robots.txt":
            return httpx.Response(404)
        return httpx.Response(200, content=request.url.path.encode(), headers={
            "Content-Type": "text/html"})

    urls = ["https://a.example/1.html", "https://a.example/2.html", "https://b.example/1.html",
            "https://a.example/3.html"]
    settings = settings_for(tmp_path, ["a.example", "b.example"], urls)
    report = _sources.scrape(make_cfg(tmp_path), settings, transport=mock(handler),
                            clock=fake.clock, sleep=fake.sleep, now=lambda: NOW)
    assert [r.status for r in report.results] == ["fetched"] * 4
    assert seen == [
        (1000.0, "a.example", "/robots.txt"), (1002.0, "a.example", "/1.html"),
        (1004.0, "a.example", "/2.html"),
        (1004.0, "b.example", "/robots.txt"), (1006.0, "b.example", "/1.html"),
        (1006.0, "a.example", "/3.html"),  # 2 s after a.example's last request had passed
    ]
    assert fake.sleeps == [2.0, 2.0, 2.0]


def test_timeouts_are_retried_parse_errors_are_not_a_fetch_matter(tmp_path: Path) -> None:
    fake = FakeTime()
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        if request.url.path == "/robots.txt":
            return httpx.Response(200, text="User-agent: *\nAllow: /\n")
        if calls.count(request.url.path) == 1:
            raise httpx.ReadTimeout("slow", request=request)
        if calls.count(request.url.path) == 2 and request.url.path == "/c.html":
            raise httpx.ConnectTimeout("slow", request=request)
        return httpx.Response(200, content=b"<html>not results</html>")

    settings = settings_for(tmp_path, ["h.example"], ["https://h.example/c.html"],
                            rate_limit_seconds=0.0)
    cfg = make_cfg(tmp_path)
    report = _sources.scrape(cfg, settings, transport=mock(handler), clock=fake.clock,
                            sleep=fake.sleep, now=lambda: NOW)
    assert [(r.status, r.attempts) for r in report.results] == [("fetched", 3)]
    assert fake.sleeps == [1.0, 2.0]
    assert calls == ["/robots.txt", "/c.html", "/c.html", "/c.html"]


def test_a_redirect_to_a_host_off_the_allow_list_is_not_followed(tmp_path: Path) -> None:
    hosts: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        hosts.append(f"{request.url.host}{request.url.path}")
        if request.url.path == "/robots.txt":
            return httpx.Response(404)
        if request.url.host == "club.example":
            if request.url.path == "/moved.html":
                return httpx.Response(301, headers={"Location": "/new.html"})
            return httpx.Response(302, headers={"Location": "https://tracker.example/x"})
        return httpx.Response(200, content=b"never")

    settings = settings_for(tmp_path, ["club.example"],
                            ["https://club.example/moved.html", "https://club.example/away.html"],
                            rate_limit_seconds=0.0)
    report = _sources.scrape(make_cfg(tmp_path), settings, transport=mock(handler),
                            sleep=lambda s: None, now=lambda: NOW)
    moved, away = report.results
    # /new.html answers 302 to the tracker too: neither redirect leaves the allow-list
    assert moved.status == "error" and "tracker.example/x" in moved.message
    assert away.status == "error"
    assert "not on the allow-list; not followed" in away.message
    assert not any(h.startswith("tracker.example") for h in hosts)
    assert hosts == ["club.example/robots.txt", "club.example/moved.html",
                     "club.example/new.html", "club.example/away.html"]


def test_robots_txt_answering_5xx_keeps_the_scraper_away(tmp_path: Path) -> None:
    paths: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return httpx.Response(500)

    settings = settings_for(tmp_path, ["h.example"], ["https://h.example/a.html"],
                            rate_limit_seconds=0.0)
    report = _sources.scrape(make_cfg(tmp_path), settings, transport=mock(handler),
                            sleep=lambda s: None, now=lambda: NOW)
    assert [r.status for r in report.results] == ["robots"]
    assert report.results[0].message == ("the host's robots.txt answered HTTP 500, so the host "
                                         "is avoided this run; not fetched")
    assert paths == ["/robots.txt"]


# ---------------------------------------------------------------- names, patterns, schedules


@pytest.mark.parametrize(("url", "content_type", "fmt", "name"), [
    ("https://wzbs.example/wyniki/W-wb130808.html", "", None,
     "wzbs.example__wyniki_W-wb130808.html"),
    ("https://Club.Example:8443/a b/Wyniki.HTM", "text/html", None,
     "club.example-8443__a-b_Wyniki.htm"),
    ("https://club.example/results.php?id=5&s=A", "text/csv; charset=utf-8", None,
     "club.example__results.php_id-5_s-A.csv"),
    ("https://club.example/", "", None, "club.example__index.html"),
    ("https://club.example/export", "application/octet-stream", "usebio",
     "club.example__export.xml"),
    ("https://club.example/t/2017.h9", "text/plain", None, "club.example__t_2017.h9"),
])
def test_inbox_name_is_stable_and_keeps_a_known_extension(
        url: str, content_type: str, fmt: str | None, name: str) -> None:
    assert scraping.inbox_name(url, content_type, fmt) == name


def test_a_long_url_gets_a_short_name_with_a_hash() -> None:
    a = scraping.inbox_name("https://club.example/" + "x" * 300 + "/a.html")
    b = scraping.inbox_name("https://club.example/" + "x" * 300 + "/b.html")
    assert len(a) <= 160 and a.endswith(".html") and a != b


def test_url_pattern_dates_and_weekdays(tmp_path: Path) -> None:
    (tmp_path / "sources.toml").write_text(
        'allow = ["club.example"]\n'
        '[[source]]\nclub = "BK Senec"\n'
        'url_pattern = "https://club.example/r/{yyyy}{mm}{dd}-{d}.{m}.{yy}.csv"\n'
        'last_days = 7\nweekdays = ["tue", "Thursday"]\n'
        '[[source]]\nclub = "PD"\nurl_pattern = "https://club.example/{yyyy}/{mm}{dd}.html"\n'
        'from = 2013-08-30\nto = 2013-09-02\nschedule = "0 6 * * 1"\nformat = "jfr_pary"\n',
        encoding="utf-8")
    settings = _sources.load_sources(make_cfg(tmp_path))
    senec, pd_ = settings.sources
    assert senec.urls(date(2013, 8, 20)) == [  # 14th (Wed) .. 20th (Tue)
        "https://club.example/r/20130815-15.8.13.csv",
        "https://club.example/r/20130820-20.8.13.csv"]
    assert pd_.urls(date(2020, 1, 1)) == [
        "https://club.example/2013/0830.html", "https://club.example/2013/0831.html",
        "https://club.example/2013/0901.html", "https://club.example/2013/0902.html"]
    assert (pd_.schedule, pd_.format, senec.schedule) == ("0 6 * * 1", "jfr_pary", "nightly")
    assert settings.rate_limit_seconds == 2.0 and settings.retries == 3
    assert settings.user_agent == f"clubratings/{code_version()}"


@pytest.mark.parametrize(("body", "message"), [
    ('[[source]]\nclub = "A"\n', "give either url or url_pattern"),
    ('[[source]]\nclub = "A"\nurl = "ftp://x/a"\n', "url = 'ftp://x/a': not an http(s) URL"),
    ('[[source]]\nclub = "A"\nurl_pattern = "https://x/{date}"\nlast_days = 3\n',
     "url_pattern knows {yyyy}"),
    ('[[source]]\nclub = "A"\nurl_pattern = "https://x/{dd}"\n', "needs last_days = N"),
    ('[[source]]\nclub = "A"\nurl = "https://x/a"\nschedule = "weekly"\n',
     "schedule = 'weekly': expected nightly, hourly, always or a cron expression"),
    ('[[source]]\nclub = "A"\nurl = "https://x/a"\nformat = "pdf"\n',
     "format = 'pdf': not a known format"),
    ('retries = "3"\n', "retries = '3': expected a whole number from 0 up"),
    ('allow = "x"\n', "allow = 'x': expected a list of texts"),
])
def test_config_errors_name_the_file_and_value(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "sources.toml").write_text(body, encoding="utf-8")
    with pytest.raises(ScrapeConfigError) as err:
        _sources.load_sources(make_cfg(tmp_path))
    assert message in str(err.value)
    assert str(tmp_path / "sources.toml") in str(err.value)


def test_paths_scrape_in_clubratings_toml_names_the_sources_file(tmp_path: Path) -> None:
    (tmp_path / "clubratings.toml").write_text('[paths]\nscrape = "conf/pages.toml"\n')
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "pages.toml").write_text(
        'allow = ["x.example"]\n[[source]]\nclub = "A"\nurl = "https://x.example/a"\n'
        'enabled = false\n[[source]]\nclub = "B"\nurl = "https://x.example/b"\n')
    cfg = make_cfg(tmp_path)
    assert _sources.sources_path(cfg) == tmp_path / "conf" / "pages.toml"
    settings = _sources.load_sources(cfg)
    assert [s.club for s in settings.active] == ["B"]
    assert _sources.has_sources(cfg)


def test_the_bundled_sources_file_lists_nothing_and_its_examples_parse(tmp_path: Path) -> None:
    bundled = ROOT / "sources.toml"
    root_cfg = Config(root=ROOT, warehouse=tmp_path / "wh.duckdb", inbox=tmp_path / "inbox",
                      public=tmp_path / "public")
    assert not _sources.has_sources(root_cfg)
    text = bundled.read_text(encoding="utf-8")
    uncommented = "\n".join(
        line[2:] if line.startswith(("# [[source]]", "# club", "# url", "# format",
                                     "# schedule", "# last_days", "# weekdays", "# contact",
                                     "# index", "# follow", "# max_new", "# recheck"))
        else line for line in text.splitlines())
    (tmp_path / "sources.toml").write_text(uncommented, encoding="utf-8")
    settings = _sources.load_sources(make_cfg(tmp_path))
    assert [s.club for s in settings.sources] == ["WZBS Warszawa", "BK Senec", "Mercercrest"]
    assert settings.sources[1].weekdays == (1, 3)
    discovery = settings.sources[2].discovery
    assert discovery is not None
    assert discovery.follow == ("20*/**/*E.htm", "20*/**/*E.[Tt][Xx][Tt]")
    assert (discovery.max_new, discovery.recheck) == (2000, 8)
    assert settings.user_agent.endswith(" (+https://federation.example/ratings)")


@pytest.mark.parametrize(("schedule", "last", "now", "due"), [
    ("nightly", None, datetime(2024, 5, 1, 2, 7), True),
    ("nightly", datetime(2024, 5, 1, 0, 5), datetime(2024, 5, 1, 23, 0), False),
    ("nightly", datetime(2024, 4, 30, 23, 59), datetime(2024, 5, 1, 0, 1), True),
    ("hourly", datetime(2024, 5, 1, 10, 1), datetime(2024, 5, 1, 10, 59), False),
    ("hourly", datetime(2024, 5, 1, 10, 59), datetime(2024, 5, 1, 11, 0), True),
    ("always", datetime(2024, 5, 1, 10, 59), datetime(2024, 5, 1, 10, 59), True),
    ("0 6 * * 1", datetime(2024, 5, 6, 6, 0), datetime(2024, 5, 12, 23, 0), False),
    ("0 6 * * 1", datetime(2024, 5, 6, 6, 0), datetime(2024, 5, 13, 6, 0), True),
])
def test_is_due(schedule: str, last: datetime | None, now: datetime, due: bool) -> None:
    assert scraping.is_due(schedule, last, now) is due


def test_a_nightly_source_is_fetched_once_a_day(server: Server, tmp_path: Path) -> None:
    server.routes["/a.html"] = Route(JFR_SAMPLE.read_bytes(), etag='"1"')
    write_sources(tmp_path, [server.netloc],
                  f'[[source]]\nclub = "A"\nurl = "{server.url("/a.html")}"\n')
    cfg = make_cfg(tmp_path)
    fake = FakeTime()
    assert [r.status for r in run(cfg, fake).results] == ["fetched"]
    later = run(cfg, fake)
    assert [r.status for r in later.results] == ["not_due"]
    assert "last fetched 2013-08-20T21:30:00" in later.results[0].message
    assert [r.status for r in run(cfg, fake, ignore_schedule=True).results] == ["not_modified"]


# ---------------------------------------------------------------- command line


def write_config(tmp_path: Path) -> Path:
    config = tmp_path / "clubratings.toml"
    config.write_text('[paths]\nwarehouse = "data/wh.duckdb"\nsources = []\n', encoding="utf-8")
    return config


def test_cli_dry_run_contacts_nothing(server: Server, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path)
    write_sources(tmp_path, [server.netloc],
                  source("A", server.url("/a.html")) + source("B", "https://elsewhere.example/b"))
    assert main(["scrape", "--config", str(config), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"A: {server.url('/a.html')}: planned: would be fetched"
    assert out[1].startswith("B: https://elsewhere.example/b: refused: host "
                             "'elsewhere.example' is not on the allow-list")
    assert out[2] == "scrape: 1 planned, 1 refused"
    assert server.log == []
    assert not (tmp_path / "inbox").exists() and not (tmp_path / "data").exists()


def test_cli_fetches_and_loads(server: Server, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path)
    server.routes["/a.html"] = Route(JFR_SAMPLE.read_bytes(), etag='"1"')
    write_sources(tmp_path, [server.netloc], source("A", server.url("/a.html")),
                  rate_limit_seconds=0)
    assert main(["scrape", "--config", str(config)]) == 0
    out = capsys.readouterr().out.splitlines()
    name = f"127.0.0.1-{server.port}__a.html"
    assert out[0].startswith(f"A: {server.url('/a.html')}: fetched: ")
    assert out[1] == "scrape: 1 fetched"
    assert out[2].startswith(f"{name}: ")
    assert (tmp_path / "inbox" / "archive" / name).exists()
    assert counts(make_cfg(tmp_path))[1] == 1
    assert main(["scrape", "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"A: {server.url('/a.html')}: not_modified: not modified since the last fetch (HTTP 304)",
        "scrape: 1 not_modified"]


def test_cli_leaves_the_pages_in_the_inbox_while_another_run_holds_the_lock(
        server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from .test_core import _held_elsewhere

    config = write_config(tmp_path)
    server.routes["/a.html"] = Route(JFR_SAMPLE.read_bytes())
    write_sources(tmp_path, [server.netloc], source("A", server.url("/a.html")),
                  rate_limit_seconds=0)
    with _held_elsewhere(tmp_path / "data" / "wh.duckdb"):  # another process's run
        assert main(["scrape", "--config", str(config)]) == 3
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "scrape: 1 fetched"
    assert "another run is in progress" in captured.err
    assert captured.err.rstrip().endswith(f"the fetched pages wait in {tmp_path / 'inbox'}")
    assert [p.name for p in (tmp_path / "inbox").iterdir()] == [
        f"127.0.0.1-{server.port}__a.html"]


def test_cli_bad_sources_file_is_one_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path)
    (tmp_path / "sources.toml").write_text('[[source]]\nclub = "A"\n', encoding="utf-8")
    assert main(["scrape", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("clubratings: ") and "give either url or url_pattern" in err
    assert err.count("\n") == 1


# ---------------------------------------------------------------- the pipeline flow


def test_pipeline_scrapes_first_only_when_sources_are_listed(
        server: Server, tmp_path: Path) -> None:
    """The nightly job's steps (the run core's :meth:`Project.run`, which the pipeline flow
    runs as tasks and ``clubratings run`` calls directly), recorded by name as they start; the
    scrape runs for real against the local server and the ingest sees what it fetched."""
    from flows.core import Project

    cfg = make_cfg(tmp_path)
    calls: list[str] = []

    def record(name: str, func: Callable[[], object]) -> object:
        if name == "ingest":
            calls.append("ingest " + ",".join(sorted(p.name for p in cfg.inbox.glob("*.html"))))
        elif name == "scrape":
            calls.append(name)
        return func()

    server.routes["/a.html"] = Route(JFR_SAMPLE.read_bytes(), etag='"1"')
    write_sources(tmp_path, [server.netloc], source("A", server.url("/a.html"), "enabled = false"))
    with Project.open(cfg, command="test") as project:
        project.run(step=record)
    assert calls == ["ingest "]
    assert server.log == []  # nothing listed: nothing requested

    calls.clear()
    write_sources(tmp_path, [server.netloc], source("A", server.url("/a.html")),
                  rate_limit_seconds=0)
    with Project.open(cfg, command="test") as project:
        summary = project.run(step=record)
    assert calls == ["scrape", f"ingest 127.0.0.1-{server.port}__a.html"]
    assert [o.status for o in summary.files] == ["loaded"]
    assert server.paths() == ["/robots.txt", "/a.html"]
