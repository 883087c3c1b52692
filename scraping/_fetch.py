"""Fetching club result pages into the inbox (docs/scraping.md).

    sources.toml ──► URLs (one per source, or one per date of a pattern) ──► allow-list
        ──► robots.txt (once per host per run) ──► conditional GET (ETag / Last-Modified)
        ──► inbox/<host>__<path>.<ext> ──► the same ingest as a dropped file

A fetched page is written into the inbox under a stable name derived from its URL, so the
inbox's rules apply unchanged (docs/rules/inputs.md): the same bytes load nothing twice, a changed
page is a correction of its event, an unreadable page moves to ``inbox/rejected/`` with its
reason. Nothing here parses: a parse error is the ingest's business and is never retried.

A source may instead name index pages and link patterns (``index`` + ``follow``): the pages
are read for their links, and the links that match are fetched as above, each only once, the
most recent few re-checked conditionally, failures remembered and retried rarely; the state is
``scrape-cache/discovered/<key>.json`` (docs/scraping.md "Discovery")::

    index (+ "next" pages) ──► links on allowed hosts ──► follow / through patterns
        ──► new, due for a re-check, or a failure due for a retry ──► the same fetch as above

Politeness, in order of precedence: only hosts on the allow-list are ever contacted (a refused
source causes no request at all, not even for robots.txt); robots.txt is honoured; requests to
one host are spaced by ``rate_limit_seconds``; a page that did not change costs a 304.

This package reads no configuration: the sources file is checked against the configuration's
schema (flows/_schema.py) and turned into :class:`ScrapeSettings` by the composition layer
(flows/_sources.py), which calls :func:`scrape` with them and the project's inbox.

Fetch failures are not exceptions: each URL ends in a :class:`FetchResult` whose ``status``
says what happened (``fetched``, ``unchanged``, ``not_modified``, ``robots``, ``refused``,
``not_due``, ``planned`` for a dry run, ``read`` for an index page read for its links,
``error`` with the reason).
"""

from __future__ import annotations

import dataclasses
import email.utils
import functools
import hashlib
import html
import itertools
import json
import re
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any, Literal, Self
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from warehouse import atomic_write

__all__ = [
    "DEFAULT_BACKOFF",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_LINKS",
    "DEFAULT_MAX_NEW",
    "DEFAULT_MAX_PAGES",
    "DEFAULT_MAX_RUN_BYTES",
    "DEFAULT_MAX_SECONDS",
    "DEFAULT_RATE_LIMIT",
    "DEFAULT_RECHECK",
    "DEFAULT_RETRIES",
    "DEFAULT_RETRY_FAILED_DAYS",
    "DEFAULT_TIMEOUT",
    "MAX_RETRY_FAILED_DAYS",
    "PLACEHOLDERS",
    "SOURCES_NAME",
    "Discovery",
    "FetchResult",
    "Fetcher",
    "Link",
    "ScrapeReport",
    "ScrapeSettings",
    "Source",
    "SourceSummary",
    "expand_pattern",
    "inbox_name",
    "is_due",
    "link_glob",
    "links",
    "scrape",
]

SOURCES_NAME = "sources.toml"
"""The sources file's name, beside ``clubratings.toml`` unless ``[paths] scrape`` says
otherwise (flows/_schema.py)."""

# The defaults of sources.toml's keys; the configuration's schema (flows/_schema.py) declares
# each key with these, and the settings below start from them.
DEFAULT_RATE_LIMIT = 2.0
DEFAULT_RETRIES = 3
DEFAULT_TIMEOUT = 30.0
DEFAULT_BACKOFF = 1.0
DEFAULT_MAX_BYTES = 20_000_000

# Discovery (docs/scraping.md "Discovery"): the defaults and the largest values allowed.
DEFAULT_MAX_DEPTH = 2
DEFAULT_MAX_PAGES = 50
DEFAULT_MAX_LINKS = 5000
DEFAULT_MAX_NEW = 2000
"""Enough for a club's whole archive (about 600 nights, twice with a second pattern) in one run."""
DEFAULT_RECHECK = 8
DEFAULT_RETRY_FAILED_DAYS = 30
MAX_RETRY_FAILED_DAYS = 365
"""A failed link is tried again at least once a year, and retry_failed_days is at most this."""
DEFAULT_MAX_SECONDS = 7200.0
DEFAULT_MAX_RUN_BYTES = 1_000_000_000

PLACEHOLDERS = frozenset({"yyyy", "yy", "mm", "dd", "m", "d"})
"""The dates' parts a URL pattern may name (:func:`expand_pattern`)."""

MAX_RETRY_AFTER = 300.0
"""A server asking to wait longer than this (Retry-After) is given up on for this run."""
MAX_REDIRECTS = 5
TRANSIENT_STATUS = frozenset({429, 502, 503, 504})
"""Statuses worth another attempt; every other 4xx/5xx is final (a timeout is transient too)."""


@functools.cache
def _known_suffixes() -> frozenset[str]:
    """Extensions the parsers know a file by (each format's ``suffixes`` in the registry,
    parsers/_registry.py); a URL path ending in one keeps it."""
    from parsers import FORMATS

    return frozenset(s for f in FORMATS.values() for s in f.suffixes)


def _format_suffix(fmt: str | None) -> str:
    """The format hint's extension (its first suffix in the registry) when neither the URL nor
    the Content-Type gives one; ``.html`` without a hint or for a format without suffixes."""
    from parsers import FORMATS

    known = FORMATS.get(fmt or "")
    return known.suffixes[0] if known is not None and known.suffixes else ".html"


_CONTENT_TYPES = {
    "text/html": ".html",
    "application/xhtml+xml": ".html",
    "text/csv": ".csv",
    "text/tab-separated-values": ".tsv",
    "text/plain": ".txt",
    "application/xml": ".xml",
    "text/xml": ".xml",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
    "application/vnd.ms-excel": ".xls",
    "application/vnd.oasis.opendocument.spreadsheet": ".ods",
}

Status = Literal[
    "fetched", "unchanged", "not_modified", "robots", "refused", "not_due", "planned", "read",
    "error",
]


# ---------------------------------------------------------------- sources


def expand_pattern(pattern: str, day: date) -> str:
    """A URL pattern's address on ``day``: ``{yyyy}`` ``{yy}`` ``{mm}`` ``{dd}`` ``{m}``
    ``{d}`` replaced by the date's parts."""
    return pattern.format(yyyy=f"{day.year:04d}", yy=f"{day.year % 100:02d}",
                          mm=f"{day.month:02d}", dd=f"{day.day:02d}",
                          m=str(day.month), d=str(day.day))


@functools.lru_cache(maxsize=256)
def link_glob(pattern: str) -> re.Pattern[str]:
    """A path glob as a regular expression: ``*`` and ``?`` within a folder, ``**`` across
    folders (``**/`` also none), ``[...]`` a set (``[!...]`` not in it)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                raise ValueError(f"unclosed [ in {pattern!r}")
            body = pattern[i + 1:end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


@dataclass(frozen=True, slots=True)
class Discovery:
    """Index pages and the patterns of the links to follow from them (docs/scraping.md
    "Discovery"). Patterns are globs on a link's path relative to its index page's folder
    (``*`` and ``?`` stay within one folder, ``**`` crosses folders, ``[Tt]`` a character of
    the set); a pattern starting with ``/`` is matched against the whole path."""

    index: tuple[str, ...]
    follow: tuple[str, ...]
    """Links whose pages are results: fetched into the inbox."""
    through: tuple[str, ...] = ()
    """Links to pages between the index and the results, read only for their links."""
    hosts: tuple[str, ...] = ()
    """Hosts besides the index's whose links are followed (each on the allow-list too)."""
    max_depth: int = DEFAULT_MAX_DEPTH
    """Links from the index are depth 1, links from those pages depth 2, ..."""
    max_pages: int = DEFAULT_MAX_PAGES
    """Index, "next" and through pages read per run."""
    max_links: int = DEFAULT_MAX_LINKS
    """Links read from one page; the rest of the page is ignored (and reported)."""
    max_new: int = DEFAULT_MAX_NEW
    """Results not fetched yet (new links, failures due for a retry) that one run requests;
    the rest wait for the next run."""
    recheck: int = DEFAULT_RECHECK
    """The most recently discovered results fetched again (conditionally) each run."""
    retry_failed_days: int = DEFAULT_RETRY_FAILED_DAYS
    """A link that failed for good (HTTP 404 ...) is tried again after this many days, then
    twice as long after each further failure, at most a year."""
    max_seconds: float = DEFAULT_MAX_SECONDS
    max_run_bytes: int = DEFAULT_MAX_RUN_BYTES

    def follows(self, url: str, root: str, patterns: tuple[str, ...]) -> bool:
        """Whether the link ``url`` matches one of ``patterns``, relative to ``root`` (the
        folder of the index page the link was reached from)."""
        parts, base = urlsplit(url), urlsplit(root)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        if parts.netloc.lower() == base.netloc.lower() and path.startswith(base.path):
            relative: str | None = path[len(base.path):]
        elif parts.netloc.lower() != base.netloc.lower():
            relative = path.lstrip("/")
        else:
            relative = None  # above the index's folder: only a pattern from "/" can match
        for pattern in patterns:
            if pattern.startswith("/"):
                if link_glob(pattern).match(path):
                    return True
            elif relative is not None and link_glob(pattern).match(relative):
                return True
        return False


@dataclass(frozen=True, slots=True)
class Source:
    """One configured club page, one page per date of a URL pattern, or the pages that index
    pages link (``discovery``)."""

    club: str
    url: str | None = None
    url_pattern: str | None = None
    """``https://host/results/{yyyy}{mm}{dd}.html``; also ``{yy}``, ``{m}``, ``{d}``."""
    last_days: int | None = None
    """Pattern dates: today and the days before it, this many in all."""
    start: date | None = None
    """Pattern dates: from this day (TOML key ``from``) ..."""
    end: date | None = None
    """... to this one (TOML key ``to``; default today)."""
    weekdays: tuple[int, ...] = ()
    """Pattern dates: only these weekdays (0 = Monday); empty: every day."""
    format: str | None = None
    """The expected format (a hint): chooses the file extension when the URL and the
    Content-Type give none. Detection on ingest still decides."""
    schedule: str = "nightly"
    enabled: bool = True
    discovery: Discovery | None = None

    @property
    def address(self) -> str:
        """The URL, the URL pattern or the (first) index page."""
        if self.discovery is not None:
            return self.discovery.index[0]
        return self.url or self.url_pattern or ""

    @property
    def key(self) -> str:
        """Names the source in reports and in the schedule state."""
        return f"{self.club} {self.address}"

    def urls(self, today: date) -> list[str]:
        """The URLs this source stands for on ``today``, oldest date first (a correction is
        written after what it corrects); a discovery source: its index pages."""
        if self.discovery is not None:
            return list(self.discovery.index)
        if self.url is not None:
            return [self.url]
        assert self.url_pattern is not None
        if self.start is not None:
            first, last = self.start, self.end or today
        else:
            last = today
            first = today - timedelta(days=(self.last_days or 1) - 1)
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        return [expand_pattern(self.url_pattern, d) for d in days
                if not self.weekdays or d.weekday() in self.weekdays]


@dataclass(frozen=True, slots=True)
class ScrapeSettings:
    """The sources file: what to fetch and how politely."""

    path: Path | None
    cache_dir: Path
    sources: tuple[Source, ...] = ()
    allow: tuple[str, ...] = ()
    """Hosts that may be contacted: ``host`` (any port) or ``host:port``."""
    user_agent: str = ""
    rate_limit_seconds: float = DEFAULT_RATE_LIMIT
    timeout: float = DEFAULT_TIMEOUT
    retries: int = DEFAULT_RETRIES
    backoff_seconds: float = DEFAULT_BACKOFF
    max_bytes: int = DEFAULT_MAX_BYTES

    @property
    def active(self) -> tuple[Source, ...]:
        return tuple(s for s in self.sources if s.enabled)

    def allows(self, url: str) -> bool:
        """Whether the URL's host (or host:port) is on the allow-list."""
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        netloc = f"{host}:{parts.port}" if parts.port is not None else host
        return any(entry in (host, netloc) for entry in self.allow)


# ---------------------------------------------------------------- schedules


def is_due(schedule: str, last: datetime | None, now: datetime) -> bool:
    """Whether a source with this schedule is fetched in a run at ``now``: ``nightly`` once
    per calendar day, ``hourly`` once per clock hour, ``always`` every run, a cron expression
    when it fired since the last complete fetch. Never fetched: due."""
    if last is None or schedule == "always":
        return True
    if schedule == "nightly":
        return last.date() < now.date()
    if schedule == "hourly":
        return last.replace(minute=0, second=0, microsecond=0) < now.replace(
            minute=0, second=0, microsecond=0)
    from cronsim import CronSim

    return next(CronSim(schedule, last)) <= now


def _read_state(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


# ---------------------------------------------------------------- file names and the cache


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")


def inbox_name(url: str, content_type: str = "", fmt: str | None = None) -> str:
    """The stable inbox file name of a URL: ``<host>__<path>`` with ``/`` as ``_``, the query
    appended, and an extension the parsers know: the URL's own, else the Content-Type's, else
    the format hint's, else ``.html``. The same URL always gives the same name, so a changed
    page arrives as a correction of what that name loaded before."""
    parts = urlsplit(url)
    host = _slug((parts.hostname or "host").lower())
    if parts.port is not None:
        host += f"-{parts.port}"
    path = PurePosixPath(parts.path or "/")
    suffix = path.suffix.lower() if path.suffix.lower() in _known_suffixes() else ""
    stem = "_".join(_slug(p) for p in parts.path.split("/") if _slug(p)) or "index"
    if suffix:
        stem = stem[: -len(suffix)]
    if parts.query:
        stem += "_" + _slug(parts.query.replace("=", "-").replace("&", "_"))
    if not suffix:
        mime = content_type.split(";")[0].strip().lower()
        suffix = _CONTENT_TYPES.get(mime) or _format_suffix(fmt)
    name = f"{host}__{stem}"
    if len(name) > 150:  # keep names short; the hash keeps long URLs apart
        name = f"{name[:130]}-{hashlib.sha256(url.encode()).hexdigest()[:12]}"
    return name + suffix


def _write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder (the inbox scan never takes those)."""
    atomic_write(path, data)


@dataclass(frozen=True, slots=True)
class _Cached:
    etag: str | None
    last_modified: str | None
    sha256: str | None
    content_type: str | None = None


class _Cache:
    """One ``<key>.json`` (URL, validators, hash, when) and ``<key>.body`` per URL; the key is
    a hash of the URL."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _key(self, url: str) -> str:
        return hashlib.sha256(url.encode("utf-8")).hexdigest()[:24]

    def get(self, url: str) -> _Cached | None:
        try:
            meta = json.loads((self.folder / f"{self._key(url)}.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("url") != url:
            return None
        return _Cached(meta.get("etag"), meta.get("last_modified"), meta.get("sha256"),
                       meta.get("content_type"))

    def body(self, url: str) -> bytes | None:
        """The body of the last fetch, if kept."""
        try:
            return (self.folder / f"{self._key(url)}.body").read_bytes()
        except OSError:
            return None

    def put(self, url: str, body: bytes, headers: httpx.Headers, file: str | None,
            fetched_at: datetime) -> None:
        key = self._key(url)
        _write_atomic(self.folder / f"{key}.body", body)
        meta = {
            "url": url, "etag": headers.get("etag"),
            "last_modified": headers.get("last-modified"),
            "content_type": headers.get("content-type"),
            "sha256": hashlib.sha256(body).hexdigest(), "file": file,
            "fetched_at": fetched_at.isoformat(timespec="seconds"),
        }
        _write_atomic(self.folder / f"{key}.json",
                      (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode("utf-8"))


# ---------------------------------------------------------------- fetching


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What happened to one URL."""

    club: str
    url: str
    status: Status
    message: str
    http_status: int | None = None
    attempts: int = 0
    path: str | None = None
    """The inbox file written (``fetched`` only)."""

    def line(self) -> str:
        return f"{self.club}: {self.url}: {self.status}: {self.message}"


@dataclass(frozen=True, slots=True)
class SourceSummary:
    """What discovery did for one source in one run (docs/scraping.md "Discovery")."""

    club: str
    pages_read: int = 0
    """Index, "next" and through pages requested (a 304 included)."""
    pages_not_modified: int = 0
    links: int = 0
    """Distinct links to results found on the pages read."""
    new: int = 0
    """Results fetched for the first time."""
    changed: int = 0
    """Results fetched again with other bytes (a correction)."""
    unchanged: int = 0
    """Results re-checked: 304, or the same bytes."""
    failed: int = 0
    robots: int = 0
    known: int = 0
    """Results fetched before and not due for a re-check: not requested."""
    failed_before: int = 0
    """Links that failed for good before and are not due for a retry: not requested."""
    left: int = 0
    """Pages left for the next run by a bound."""
    bound: str | None = None
    planned: int = 0
    truncated: int = 0
    """Pages that had more links than max_links."""

    def line(self) -> str:
        read = f"{self.pages_read} index page(s) read"
        if self.pages_not_modified:
            read += f" ({self.pages_not_modified} not modified)"
        parts = [read, f"{self.links} links found"]
        if self.planned:
            parts.append(f"{self.planned} would be fetched")
        else:
            parts += [f"{self.new} new", f"{self.changed} changed",
                      f"{self.unchanged} unchanged (304)", f"{self.failed} failed"]
        more = [f"{n} {what}" for n, what in (
            (self.robots, "disallowed by robots.txt"), (self.known, "known, not due"),
            (self.failed_before, "failed before, retried later"),
            (self.truncated, "page(s) with more than max_links links"),
        ) if n]
        if self.left:
            more.append(f"{self.left} left for the next run ({self.bound})")
        return f"{self.club}: {', '.join(parts)}" + (f"; {', '.join(more)}" if more else "")


@dataclass(frozen=True, slots=True)
class ScrapeReport:
    """The fetch report of one run, one result per URL (a refused or not-due source: one),
    and one summary per discovery source."""

    results: tuple[FetchResult, ...] = ()
    sources: tuple[SourceSummary, ...] = ()

    @property
    def written(self) -> list[Path]:
        return [Path(r.path) for r in self.results if r.path is not None]

    @property
    def errors(self) -> list[FetchResult]:
        return [r for r in self.results if r.status == "error"]

    def lines(self) -> list[str]:
        counts: dict[str, int] = {}
        for r in self.results:
            counts[r.status] = counts.get(r.status, 0) + 1
        total = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no sources"
        return ([r.line() for r in self.results] + [s.line() for s in self.sources]
                + [f"scrape: {total}"])


class _Failed(Exception):
    """A request that ended without a usable response (after the retries it deserved)."""

    def __init__(self, message: str, attempts: int, status: int | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.status = status


@dataclass(slots=True)
class _Response:
    url: str
    status: int
    headers: httpx.Headers
    body: bytes
    attempts: int


@dataclass
class Fetcher:
    """One run's HTTP side: a client, the robots.txt of each host, the rate limit per host.

    ``clock``/``sleep``/``now`` are injectable so tests need not wait.
    """

    settings: ScrapeSettings
    transport: httpx.BaseTransport | None = None
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    now: Callable[[], datetime] = datetime.now
    _robots: dict[str, RobotFileParser] = field(default_factory=dict)
    _robots_why: dict[str, str] = field(default_factory=dict)
    _robots_unread: set[str] = field(default_factory=set)
    """Origins whose robots.txt could not be read this run (avoided now, not for good)."""
    _last: dict[str, float] = field(default_factory=dict)
    _client: httpx.Client | None = None

    def __enter__(self) -> Self:
        self._client = httpx.Client(
            transport=self.transport, timeout=self.settings.timeout, follow_redirects=False,
            headers={"User-Agent": self.settings.user_agent},
        )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()

    # -- one request, politely

    def _wait_turn(self, host: str) -> None:
        """Rate limit: ``rate_limit_seconds`` from the end of the last request to this host."""
        if host in self._last:
            wait = self.settings.rate_limit_seconds - (self.clock() - self._last[host])
            if wait > 0:
                self.sleep(wait)

    def _send(self, url: str, headers: Mapping[str, str]) -> tuple[int, httpx.Headers, bytes]:
        assert self._client is not None
        host = urlsplit(url).netloc.lower()
        self._wait_turn(host)
        try:
            with self._client.stream("GET", url, headers=dict(headers)) as response:
                body = bytearray()
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > self.settings.max_bytes:
                        raise _Failed(f"larger than max_bytes = {self.settings.max_bytes}", 1)
                return response.status_code, response.headers, bytes(body)
        finally:
            self._last[host] = self.clock()

    def _retry_after(self, headers: httpx.Headers) -> float | None:
        value = headers.get("retry-after")
        if value is None:
            return None
        if value.strip().isdigit():
            return float(value.strip())
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        now = datetime.now(when.tzinfo) if when.tzinfo else self.now()
        return max(0.0, (when - now).total_seconds())

    def _request(self, url: str, headers: Mapping[str, str]) -> _Response:
        """GET with retries and exponential back-off on transient failures only: timeouts and
        429/502/503/504 (Retry-After honoured). Other statuses come back as they are."""
        retries = self.settings.retries
        for attempt in range(1, retries + 2):
            delay = self.settings.backoff_seconds * 2 ** (attempt - 1)
            try:
                status, got, body = self._send(url, headers)
            except _Failed as exc:
                raise _Failed(str(exc), attempt) from exc
            except httpx.TimeoutException as exc:
                if attempt > retries:
                    raise _Failed(f"timed out ({type(exc).__name__}) after {attempt} "
                                  "attempt(s)", attempt) from exc
            except httpx.HTTPError as exc:  # refused connection, bad TLS, broken protocol
                raise _Failed(f"{type(exc).__name__}: {exc}", attempt) from exc
            else:
                if status not in TRANSIENT_STATUS or attempt > retries:
                    return _Response(url, status, got, body, attempt)
                asked = self._retry_after(got)
                if asked is not None:
                    if asked > MAX_RETRY_AFTER:
                        raise _Failed(f"HTTP {status}; the server asks to retry after "
                                      f"{asked:.0f} s, more than {MAX_RETRY_AFTER:.0f} s",
                                      attempt, status)
                    delay = asked
            self.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    def _follow(self, url: str, headers: Mapping[str, str], *, robots: bool) -> _Response:
        """GET, following redirects only to allowed hosts (and, for pages, robots-allowed
        URLs): a redirect never contacts a host off the allow-list."""
        attempts = 0
        for _ in range(MAX_REDIRECTS + 1):
            response = self._request(url, headers)
            attempts += response.attempts
            response.attempts = attempts
            location = response.headers.get("location")
            if response.status not in (301, 302, 303, 307, 308) or not location:
                return response
            target = urljoin(url, location)
            if not self.settings.allows(target):
                raise _Failed(f"redirected to {target}, whose host is not on the allow-list; "
                              "not followed", attempts, response.status)
            if robots and not self.robots_allow(target):
                raise _Failed(f"redirected to {target}, which robots.txt disallows; "
                              "not followed", attempts, response.status)
            url = target
        raise _Failed(f"more than {MAX_REDIRECTS} redirects", attempts)

    # -- robots.txt

    def robots_allow(self, url: str) -> bool:
        """robots.txt of the URL's host, fetched once per run (RFC 9309): 200 is parsed; any
        other 4xx means no rules; a 5xx or no answer means stay away (§2.3.1.3-4)."""
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc.lower()}"
        if origin not in self._robots:
            parser = RobotFileParser(f"{origin}/robots.txt")
            why = "disallowed by the host's robots.txt"
            try:
                response = self._follow(f"{origin}/robots.txt", {}, robots=False)
            except _Failed as exc:
                parser.disallow_all = True
                why = f"the host's robots.txt could not be read ({exc}), so the host is avoided"
                self._robots_unread.add(origin)
            else:
                if response.status == 200:
                    parser.parse(response.body.decode("utf-8", "replace").splitlines())
                elif 400 <= response.status < 500:
                    parser.allow_all = True
                else:
                    parser.disallow_all = True
                    why = (f"the host's robots.txt answered HTTP {response.status}, so the "
                           "host is avoided this run")
                    self._robots_unread.add(origin)
            self._robots_why[origin] = why
            parser.modified()
            self._robots[origin] = parser
        return self._robots[origin].can_fetch(self.settings.user_agent, url)

    # -- one page

    def robots_unread(self, url: str) -> bool:
        """Whether the URL's host is avoided only because its robots.txt could not be read
        this run (a next run may read it)."""
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.lower()}" in self._robots_unread

    def fetch(self, source: Source, url: str, inbox: Path, cache: _Cache) -> FetchResult:
        """Fetch one URL into the inbox, unless refused, disallowed or unchanged."""
        return self._get(source, url, cache, inbox)[0]

    def read(self, source: Source, url: str, cache: _Cache, *,
             keep: bool = True) -> tuple[FetchResult, _Response | None]:
        """Fetch an index page for its links, never into the inbox: the response of a ``200``,
        or of a ``304`` with the body of the last fetch. ``keep = False`` (a dry run) writes
        nothing into the cache."""
        return self._get(source, url, cache, None, keep=keep)

    def _get(self, source: Source, url: str, cache: _Cache, inbox: Path | None, *,
             keep: bool = True, old_body: bool = False,
             ) -> tuple[FetchResult, _Response | None]:
        """One URL, conditionally: into the inbox (``inbox``), or read (no inbox). The
        response comes back with the result when there is a body to read links from: a
        ``200``'s, or on a ``304`` the last fetch's kept in the cache (reading, or
        ``old_body``)."""
        def result(status: Status, message: str, **kw: Any) -> FetchResult:
            return FetchResult(source.club, url, status, message, **kw)

        if not self.settings.allows(url):
            return result("refused", f"host {urlsplit(url).netloc!r} is not on the allow-list "
                          f"({_where(self.settings)}); not contacted"), None
        if not self.robots_allow(url):
            parts = urlsplit(url)
            why = self._robots_why[f"{parts.scheme}://{parts.netloc.lower()}"]
            return result("robots", f"{why}; not fetched"), None
        cached = cache.get(url)
        kept = cache.body(url) if cached is not None and (inbox is None or old_body) else None
        headers: dict[str, str] = {}
        if cached is not None and (inbox is not None or kept is not None):
            if cached.etag:
                headers["If-None-Match"] = cached.etag
            if cached.last_modified:
                headers["If-Modified-Since"] = cached.last_modified
        try:
            response = self._follow(url, headers, robots=True)
        except _Failed as exc:
            return result("error", str(exc), http_status=exc.status,
                          attempts=exc.attempts), None
        kw: dict[str, Any] = {"http_status": response.status, "attempts": response.attempts}
        if response.status == 304 and headers:
            if kept is not None:
                assert cached is not None
                response.body = kept
                if "content-type" not in response.headers and cached.content_type:
                    response.headers["content-type"] = cached.content_type
                return result("not_modified", "not modified since the last "
                              f"{'fetch' if inbox else 'read'} (HTTP 304)", **kw), response
            return result("not_modified", "not modified since the last fetch (HTTP 304)",
                          **kw), None
        if response.status != 200:
            reason = httpx.codes.get_reason_phrase(response.status)
            return result("error", f"HTTP {response.status} {reason}".rstrip(), **kw), None
        if inbox is None:
            if keep:
                cache.put(url, response.body, response.headers, None, self.now())
            return result("read", f"{len(response.body)} bytes read for links", **kw), response
        sha = hashlib.sha256(response.body).hexdigest()
        if cached is not None and cached.sha256 == sha:
            cache.put(url, response.body, response.headers, None, self.now())
            return result("unchanged", "same bytes as the last fetch; nothing written",
                          **kw), response
        name = inbox_name(url, response.headers.get("content-type", ""), source.format)
        target = inbox / name
        _write_atomic(target, response.body)  # the inbox first: a crash refetches, never loses
        cache.put(url, response.body, response.headers, name, self.now())
        return result("fetched", f"{len(response.body)} bytes -> {target}", path=str(target),
                      **kw), response


# ---------------------------------------------------------------- discovery


@dataclass(frozen=True, slots=True)
class Link:
    """A link of a page: its absolute URL (no fragment), and whether it leads to the next
    page of a list (``rel="next"``, or a text such as Next, Older, », ›)."""

    url: str
    next: bool = False


_NOISE = re.compile(r"<!--.*?-->|<script\b.*?</script\s*>|<style\b.*?</style\s*>",
                    re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<(a|area|link|base)\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r"""([^\s=/>"']+)\s*=\s*("[^"]*"|'[^']*'|[^\s>"']+)""")
_END_A = re.compile(r"</a\s*>", re.IGNORECASE)
_NEXT_WORDS = frozenset({
    "next", "next page", "next results", "older", "older posts", "older entries",
    "older results", "older news", "more results", "earlier", "earlier results",
})
_NEXT_ARROWS = frozenset("›»→>")


def _is_next(rel: str, text: str) -> bool:
    if "next" in rel.lower().split():
        return True
    text = " ".join(text.lower().split())
    words = " ".join(re.sub(r"[^\w\s]", " ", text).split())
    if words:
        return words in _NEXT_WORDS
    return bool(text) and all(c in _NEXT_ARROWS or c.isspace() for c in text)


_SKIP_HREF = re.compile(r"\s*(?:#|javascript:|mailto:|tel:|data:)", re.IGNORECASE)
_ABSOLUTE = re.compile(r"\s*(?:https?:)?//([^/?#\s]*)", re.IGNORECASE)


def links(body: bytes, base: str, limit: int = DEFAULT_MAX_LINKS, *,
          next_links: bool = True, hosts: Collection[str] | None = None,
          ) -> tuple[list[Link], bool]:
    """The links of an HTML page in page order, each once: ``href`` of ``<a>``, ``<area>``
    and ``<link rel="next">``, resolved against ``base`` (or the page's ``<base href>``),
    without their fragment; only http(s) links (no ``javascript:``, ``mailto:``, nor a link
    to a place on the same page). At most ``limit``; the flag says the page had more.
    ``next_links = False`` does not look for "next page" links (a result page's); ``hosts``
    (``host`` or ``host:port``, lower case) keeps only links to those hosts, before they count
    towards ``limit``."""
    text = _NOISE.sub(" ", body.decode("utf-8", "replace"))
    found: dict[str, Link] = {}
    page = urldefrag(base).url
    for m in _TAG.finditer(text):
        raw = m.group(2)
        if "href" not in raw.lower():
            continue
        attrs = dict(_ATTR.findall(raw))
        attrs = {k.lower(): v for k, v in attrs.items()}
        href = attrs.get("href", "").strip("\"'")
        if not href or _SKIP_HREF.match(href):
            continue
        tag = m.group(1).lower()
        absolute = _ABSOLUTE.match(href)
        if hosts is not None and absolute and tag != "base":
            netloc = absolute.group(1).lower().rpartition("@")[2]
            if netloc not in hosts and netloc.partition(":")[0] not in hosts:
                continue  # another host's: not even resolved
        href = html.unescape(href).strip()
        if tag == "base":
            base = urljoin(base, href)
            continue
        rel = html.unescape(attrs.get("rel", "").strip("\"'"))
        if tag == "link" and "next" not in rel.lower().split():
            continue
        url = urldefrag(urljoin(base, href)).url
        if urlsplit(url).scheme not in ("http", "https") or url == page:
            continue
        label = ""
        if tag == "a" and next_links:
            end = _END_A.search(text, m.end(), m.end() + 500)
            chunk = text[m.end():end.start() if end else m.end()]
            label = html.unescape(re.sub(r"<[^>]*>", " ", chunk)).strip()
        nxt = next_links and _is_next(rel, label)
        if url in found:
            if nxt and not found[url].next:
                found[url] = Link(url, True)
            continue
        if len(found) >= limit:
            return list(found.values()), True
        found[url] = Link(url, nxt)
    return list(found.values()), False


def _folder(url: str) -> str:
    """The folder of a page: ``https://h/a/index.html`` -> ``https://h/a/``."""
    parts = urlsplit(url)
    path = parts.path or "/"
    return f"{parts.scheme}://{parts.netloc}{path[:path.rfind('/') + 1]}"


def _is_html(response: _Response) -> bool:
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind:
        return "html" in kind
    suffix = PurePosixPath(urlsplit(response.url).path).suffix.lower()
    return suffix in ("", ".htm", ".html", ".php", ".asp", ".aspx", ".shtml")


def _final(result: FetchResult, fetcher: Fetcher) -> bool:
    """Whether a failed URL failed for good (remembered, retried rarely) rather than for now
    (tried again next run): a 4xx other than 408/429, a page beyond max_bytes, a redirect off
    the allow-list, robots.txt saying no."""
    if result.status == "robots":
        return not fetcher.robots_unread(result.url)
    status = result.http_status
    if status is not None and 400 <= status < 500 and status not in (408, 429):
        return True
    return result.message.startswith(("larger than max_bytes", "redirected to "))


@dataclass(slots=True)
class _Page:
    """What the state keeps of a discovered link (``kind``: result or through)."""

    kind: str
    depth: int
    root: str
    seen: int
    """The run that found it ..."""
    order: int
    """... and its place among that run's finds: sorts the most recent first."""
    fetched: str | None = None
    failures: int = 0
    failed_at: str | None = None
    reason: str | None = None


class _Discovered:
    """``scrape-cache/discovered/<key>.json``: the links a discovery source has found, when
    each was last fetched and which failed (the validators are in the cache, by URL)."""

    def __init__(self, folder: Path, key: str) -> None:
        self.path = folder / "discovered" / (
            hashlib.sha256(key.encode("utf-8")).hexdigest()[:24] + ".json")
        self.key = key
        self.run = 0
        self.pages: dict[str, _Page] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("source") == key:
                self.run = int(data.get("run", 0))
                self.pages = {url: _Page(**page) for url, page in data["pages"].items()}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            self.run, self.pages = 0, {}

    def recent(self, kind: str, count: int) -> set[str]:
        """The ``count`` most recently found links of this kind fetched before."""
        fetched = [(p.seen, -p.order, url) for url, p in self.pages.items()
                   if p.kind == kind and p.fetched is not None]
        return {url for _, _, url in sorted(fetched, reverse=True)[:count]}

    def save(self) -> None:
        pages = {url: dataclasses.asdict(p) for url, p in self.pages.items()}
        _write_atomic(self.path, (json.dumps({"source": self.key, "run": self.run,
                                              "pages": pages}, indent=1, sort_keys=True)
                                  + "\n").encode("utf-8"))


def _due(url: str, page: _Page, disc: Discovery, recent: set[str], now: datetime) -> bool:
    """Whether a link found before is requested this run (docs/scraping.md "What a run does"):
    a failure when its retry is due; one never fetched; one fetched among the most recent."""
    if page.failures:
        return _retry_due(page, disc, now)
    return page.fetched is None or url in recent


def _retry_due(page: _Page, disc: Discovery, now: datetime) -> bool:
    """A failed link: due again ``retry_failed_days`` after its failure, twice as long after
    each further one, at most a year."""
    if page.failed_at is None:
        return True
    days = min(disc.retry_failed_days * 2 ** max(page.failures - 1, 0), MAX_RETRY_FAILED_DAYS)
    return datetime.fromisoformat(page.failed_at) + timedelta(days=days) <= now


def _discover(source: Source, fetcher: Fetcher, cache: _Cache, inbox: Path, *,
              started: datetime, dry_run: bool) -> tuple[list[FetchResult], SourceSummary]:
    """One discovery source: read the index pages (and their "next" pages) conditionally,
    follow the links that match, fetch the results that are new, due for a re-check or
    a failure due for a retry, and keep what was found in the state. Level by level
    (depth 0 = the index pages), every loop bounded."""
    disc = source.discovery
    assert disc is not None
    state = _Discovered(fetcher.settings.cache_dir, source.key)
    run = state.run + 1
    recent = state.recent("result", disc.recheck) | state.recent("through", disc.recheck)
    now = started.isoformat(timespec="seconds")
    tally: dict[str, Any] = {"club": source.club}

    def bump(name: str, n: int = 1) -> None:
        tally[name] = tally.get(name, 0) + n

    results: list[FetchResult] = []
    found: set[str] = set()
    finds = itertools.count(1)
    hosts = {urlsplit(u).netloc.lower() for u in disc.index} | set(disc.hosts)
    levels: dict[int, list[tuple[str, str, str]]] = {
        0: [(url, "index", _folder(url)) for url in disc.index]}
    carried = sorted(state.pages.items(), key=lambda item: (-item[1].seen, item[1].order))
    for url, page in carried:  # found before, not fetched yet or due again; most recent first
        if page.depth <= disc.max_depth and _due(url, page, disc, recent, started):
            levels.setdefault(page.depth, []).append((url, page.kind, page.root))
    visited: set[str] = set()
    touched: set[str] = set()
    t0, spent, pages_read, new_count, since_save = fetcher.clock(), 0, 0, 0, 0

    def over() -> str | None:
        if fetcher.clock() - t0 >= disc.max_seconds:
            return f"max_seconds = {disc.max_seconds:g}"
        if spent >= disc.max_run_bytes:
            return f"max_run_bytes = {disc.max_run_bytes}"
        return None

    def allowed_host(url: str) -> bool:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        return parts.netloc.lower() in hosts or host in hosts

    def learn(response: _Response, depth: int, kind: str, root: str,
              queue: list[tuple[str, str, str]]) -> None:
        """Queue the links of a page read or fetched at ``depth``: "next" pages of an index
        on its own level (``queue``), results and through pages on the level below."""
        if depth >= disc.max_depth or not _is_html(response):
            return
        page_links, cut = links(response.body, response.url, disc.max_links,
                                next_links=kind in ("index", "next"), hosts=hosts)
        if cut:
            bump("truncated")
        for link in page_links:
            if not allowed_host(link.url):
                continue
            if link.next and kind in ("index", "next"):
                queue.append((link.url, "next", root))
                continue
            if disc.follows(link.url, root, disc.follow):
                what = "result"
                found.add(link.url)
            elif (disc.through and depth + 1 < disc.max_depth
                  and disc.follows(link.url, root, disc.through)):
                what = "through"
            else:
                continue
            known = state.pages.get(link.url)
            if known is None:
                state.pages[link.url] = _Page(what, depth + 1, root, run, next(finds))
            elif depth + 1 < known.depth:
                known.depth = depth + 1
            levels.setdefault(depth + 1, []).append((link.url, what, root))

    for depth in range(disc.max_depth + 1):
        queue = levels.get(depth, [])
        i = 0
        while i < len(queue):
            url, kind, root = queue[i]
            i += 1
            if url in visited:
                continue
            visited.add(url)
            page = state.pages.get(url) if kind in ("result", "through") else None
            if page is not None and not _due(url, page, disc, recent, started):
                continue  # known, not due: counted from the state below
            is_new = page is not None and page.fetched is None  # a failure's retry too
            bound = over()
            if bound is None and kind != "result" and pages_read >= disc.max_pages:
                bound = f"max_pages = {disc.max_pages}"
            if bound is None and kind == "result" and is_new and new_count >= disc.max_new:
                bound = f"max_new = {disc.max_new}"
            if bound is not None:
                bump("left")
                tally.setdefault("bound", bound)
                continue
            if kind == "result" and dry_run:
                new_count += is_new
                bump("planned")
                results.append(FetchResult(source.club, url, "planned", "would be fetched"))
                continue
            if kind == "result":  # links not read yet: a 304 reads them from the cache
                result, response = fetcher._get(
                    source, url, cache, inbox,
                    old_body=page is not None and page.fetched is None and depth < disc.max_depth)
                new_count += is_new
            else:
                result, response = fetcher.read(source, url, cache, keep=not dry_run)
                pages_read += 1
                bump("pages_read")
                if result.status == "not_modified":
                    bump("pages_not_modified")
            results.append(result)
            touched.add(url)
            if response is not None and result.status != "not_modified":
                spent += len(response.body)
            if page is not None:
                since_save += 1
                if result.status in ("fetched", "unchanged", "not_modified", "read"):
                    if kind == "result":
                        if result.status == "fetched":
                            bump("changed" if page.fetched is not None else "new")
                        else:
                            bump("unchanged")
                    page.fetched, page.failures, page.failed_at, page.reason = now, 0, None, None
                elif _final(result, fetcher):
                    page.failures += 1
                    page.failed_at, page.reason = now, result.message
                    bump("robots" if result.status == "robots" else "failed")
                else:
                    bump("robots" if result.status == "robots" else "failed")
            elif result.status in ("error", "robots"):
                bump("robots" if result.status == "robots" else "failed")
            if response is not None:
                learn(response, depth, kind, root, queue)
            if not dry_run and since_save >= 100:  # a killed run keeps most of what it did
                state.run = run
                state.save()
                since_save = 0
    tally["links"] = len(found)
    for url, page in state.pages.items():
        if url in touched:
            continue
        if page.failures:
            bump("failed_before")
        elif page.kind == "result" and page.fetched is not None:
            bump("known")
    if not dry_run:
        state.run = run
        state.save()
    return results, SourceSummary(**tally)


def _where(settings: ScrapeSettings) -> str:
    return f"allow = {list(settings.allow)!r} in {settings.path or SOURCES_NAME}"


def scrape(
    settings: ScrapeSettings,
    inbox: Path,
    *,
    transport: httpx.BaseTransport | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], datetime] = datetime.now,
    dry_run: bool = False,
    ignore_schedule: bool = False,
) -> ScrapeReport:
    """Fetch every due source's pages into ``inbox``; the ingest loads them from there.

    ``dry_run`` contacts nothing and writes nothing: it reports each URL as ``planned``,
    ``refused`` or ``not_due``. A source's last complete fetch (no URL ended in ``error``) is
    kept in ``scrape-cache/schedule.json`` for its schedule.
    """
    started = now()
    state_path = settings.cache_dir / "schedule.json"
    state = _read_state(state_path)
    results: list[FetchResult] = []
    summaries: list[SourceSummary] = []
    cache = _Cache(settings.cache_dir)
    with Fetcher(settings, transport=transport, clock=clock, sleep=sleep,
                 now=now) as fetcher:
        for source in settings.active:
            last = state.get(source.key)
            last_at = datetime.fromisoformat(last) if last else None
            if not ignore_schedule and not is_due(source.schedule, last_at, started):
                results.append(FetchResult(source.club, source.address,
                                           "not_due", f"schedule {source.schedule!r}, last "
                                           f"fetched {last}"))
                continue
            mine = []
            if source.discovery is not None:
                mine, summary = _discover(source, fetcher, cache, inbox, started=started,
                                          dry_run=dry_run)
                summaries.append(summary)
            for url in [] if source.discovery is not None else source.urls(started.date()):
                if dry_run:
                    ok = settings.allows(url)
                    mine.append(FetchResult(
                        source.club, url, "planned" if ok else "refused",
                        "would be fetched" if ok else f"host {urlsplit(url).netloc!r} is not "
                        f"on the allow-list ({_where(settings)}); not contacted"))
                else:
                    mine.append(fetcher.fetch(source, url, inbox, cache))
            results.extend(mine)
            if not dry_run and not any(r.status == "error" for r in mine):
                state[source.key] = started.isoformat(timespec="seconds")
    if not dry_run and settings.active:
        _write_atomic(state_path, (json.dumps(state, indent=2, sort_keys=True) + "\n")
                      .encode("utf-8"))
    return ScrapeReport(tuple(results), tuple(summaries))
