"""One URL fetched politely: the allow-list, robots.txt, the rate limit per host, retries on
transient failures only, conditional requests, and the page written into the inbox under a
stable name (docs/scraping.md).

    URL ──► allow-list ──► robots.txt (once per host per run) ──► conditional GET
        (ETag / Last-Modified) ──► inbox/<host>__<path>.<ext>

Fetch failures are not exceptions: each URL ends in a :class:`FetchResult` whose ``status``
says what happened (``fetched``, ``unchanged``, ``not_modified``, ``robots``, ``refused``,
``not_due``, ``planned`` for a dry run, ``read`` for an index page read for its links,
``error`` with the reason).
"""

from __future__ import annotations

import email.utils
import functools
import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, Literal, Self
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from warehouse import atomic_write

from ._sources import ScrapeSettings, Source

__all__ = ["Cache", "FetchResult", "Fetcher", "Response", "Status", "inbox_name", "write_atomic"]

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


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder (the inbox scan never takes those)."""
    atomic_write(path, data)


@dataclass(frozen=True, slots=True)
class _Cached:
    etag: str | None
    last_modified: str | None
    sha256: str | None
    content_type: str | None = None


class Cache:
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
        write_atomic(self.folder / f"{key}.body", body)
        meta = {
            "url": url, "etag": headers.get("etag"),
            "last_modified": headers.get("last-modified"),
            "content_type": headers.get("content-type"),
            "sha256": hashlib.sha256(body).hexdigest(), "file": file,
            "fetched_at": fetched_at.isoformat(timespec="seconds"),
        }
        write_atomic(self.folder / f"{key}.json",
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


class _Failed(Exception):
    """A request that ended without a usable response (after the retries it deserved)."""

    def __init__(self, message: str, attempts: int, status: int | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.status = status


@dataclass(slots=True)
class Response:
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

    def _request(self, url: str, headers: Mapping[str, str]) -> Response:
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
                    return Response(url, status, got, body, attempt)
                asked = self._retry_after(got)
                if asked is not None:
                    if asked > MAX_RETRY_AFTER:
                        raise _Failed(f"HTTP {status}; the server asks to retry after "
                                      f"{asked:.0f} s, more than {MAX_RETRY_AFTER:.0f} s",
                                      attempt, status)
                    delay = asked
            self.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    def _follow(self, url: str, headers: Mapping[str, str], *, robots: bool) -> Response:
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

    def fetch(self, source: Source, url: str, inbox: Path, cache: Cache) -> FetchResult:
        """Fetch one URL into the inbox, unless refused, disallowed or unchanged."""
        return self.get(source, url, cache, inbox)[0]

    def read(self, source: Source, url: str, cache: Cache, *,
             keep: bool = True) -> tuple[FetchResult, Response | None]:
        """Fetch an index page for its links, never into the inbox: the response of a ``200``,
        or of a ``304`` with the body of the last fetch. ``keep = False`` (a dry run) writes
        nothing into the cache."""
        return self.get(source, url, cache, None, keep=keep)

    def get(self, source: Source, url: str, cache: Cache, inbox: Path | None, *,
            keep: bool = True, old_body: bool = False,
            ) -> tuple[FetchResult, Response | None]:
        """One URL, conditionally: into the inbox (``inbox``), or read (no inbox). The
        response comes back with the result when there is a body to read links from: a
        ``200``'s, or on a ``304`` the last fetch's kept in the cache (reading, or
        ``old_body``)."""
        def result(status: Status, message: str, **kw: Any) -> FetchResult:
            return FetchResult(source.club, url, status, message, **kw)

        if not self.settings.allows(url):
            return result("refused", f"host {urlsplit(url).netloc!r} is not on the allow-list "
                          f"({self.settings.where_allowed()}); not contacted"), None
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
        write_atomic(target, response.body)  # the inbox first: a crash refetches, never loses
        cache.put(url, response.body, response.headers, name, self.now())
        return result("fetched", f"{len(response.body)} bytes -> {target}", path=str(target),
                      **kw), response
