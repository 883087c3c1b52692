"""Fetching configured club result pages into the inbox (docs/scraping.md).

    sources.toml ──► URLs (one per source, or one per date of a pattern) ──► allow-list
        ──► robots.txt (once per host per run) ──► conditional GET (ETag / Last-Modified)
        ──► inbox/<host>__<path>.<ext> ──► the same ingest as a dropped file

A fetched page is written into the inbox under a stable name derived from its URL, so the
inbox's rules apply unchanged (docs/rules/inputs.md): the same bytes load nothing twice, a changed
page is a correction of its event, an unreadable page moves to ``inbox/rejected/`` with its
reason. Nothing here parses: a parse error is the ingest's business and is never retried.

Politeness, in order of precedence: only hosts on the allow-list are ever contacted (a refused
source causes no request at all, not even for robots.txt); robots.txt is honoured; requests to
one host are spaced by ``rate_limit_seconds``; a page that did not change costs a 304.

Exceptions::

    ConfigError (flows._config)
    └── ScrapeConfigError      the sources file is missing a value or has one of the wrong kind

Fetch failures are not exceptions: each URL ends in a :class:`FetchResult` whose ``status``
says what happened (``fetched``, ``unchanged``, ``not_modified``, ``robots``, ``refused``,
``not_due``, ``planned`` for a dry run, ``error`` with the reason).
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import re
import string
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any, Literal, Self
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from warehouse import atomic_write

from ._config import CONFIG_NAME, Config, ConfigError

__all__ = [
    "SOURCES_NAME",
    "FetchResult",
    "Fetcher",
    "ScrapeConfigError",
    "ScrapeReport",
    "ScrapeSettings",
    "Source",
    "cache_dir",
    "default_user_agent",
    "has_sources",
    "inbox_name",
    "is_due",
    "load_sources",
    "scrape",
    "sources_path",
]

SOURCES_NAME = "sources.toml"
DEFAULT_RATE_LIMIT = 2.0
DEFAULT_RETRIES = 3
DEFAULT_TIMEOUT = 30.0
DEFAULT_BACKOFF = 1.0
DEFAULT_MAX_BYTES = 20_000_000
MAX_RETRY_AFTER = 300.0
"""A server asking to wait longer than this (Retry-After) is given up on for this run."""
MAX_URLS_PER_SOURCE = 400
MAX_REDIRECTS = 5
TRANSIENT_STATUS = frozenset({429, 502, 503, 504})
"""Statuses worth another attempt; every other 4xx/5xx is final (a timeout is transient too)."""
PLACEHOLDERS = frozenset({"yyyy", "yy", "mm", "dd", "m", "d"})
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

# Extensions the parsers know a file by; a URL path ending in one keeps it.
_KNOWN_SUFFIXES = frozenset({
    ".html", ".htm", ".csv", ".tsv", ".txt", ".xlsx", ".xls", ".ods", ".xml", ".pbn",
    ".h", ".h9",
})
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
_FORMAT_SUFFIXES = {
    "csv_template": ".csv", "bridgewebs": ".csv", "league": ".csv", "preferans_log": ".csv",
    "usebio": ".xml", "opengotha": ".xml", "pbn": ".pbn", "egd_table": ".h",
    "spreadsheet": ".xlsx",
}
"""The format hint's extension when neither the URL nor the Content-Type gives one; the
other formats are HTML pages."""

Status = Literal[
    "fetched", "unchanged", "not_modified", "robots", "refused", "not_due", "planned", "error",
]


class ScrapeConfigError(ConfigError):
    """The sources file is missing a value or has one of the wrong kind."""


# ---------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class Source:
    """One configured club page, or one page per date of a URL pattern."""

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

    @property
    def key(self) -> str:
        """Names the source in reports and in the schedule state."""
        return f"{self.club} {self.url or self.url_pattern}"

    def urls(self, today: date) -> list[str]:
        """The URLs this source stands for on ``today``, oldest date first (a correction is
        written after what it corrects)."""
        if self.url is not None:
            return [self.url]
        assert self.url_pattern is not None
        if self.start is not None:
            first, last = self.start, self.end or today
        else:
            last = today
            first = today - timedelta(days=(self.last_days or 1) - 1)
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        return [_expand(self.url_pattern, d) for d in days
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


def _expand(pattern: str, day: date) -> str:
    return pattern.format(yyyy=f"{day.year:04d}", yy=f"{day.year % 100:02d}",
                          mm=f"{day.month:02d}", dd=f"{day.day:02d}",
                          m=str(day.month), d=str(day.day))


def _code_version() -> str:
    from ._steps import code_version as version

    return version()


def default_user_agent(contact: str | None) -> str:
    """``clubratings/<version> (+<contact>)``: names the project and whom to ask."""
    agent = f"clubratings/{_code_version()}"
    return f"{agent} (+{contact})" if contact else agent


def sources_path(cfg: Config, config_file: Path | None = None) -> Path:
    """``[paths] scrape`` of the configuration file, else ``sources.toml`` beside it.

    ``config_file`` defaults to ``clubratings.toml`` in the configuration's folder.
    """
    config_file = config_file or cfg.root / CONFIG_NAME
    if config_file.is_file():
        try:
            data = tomllib.loads(config_file.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ScrapeConfigError(f"{config_file}: not valid TOML: {exc}") from exc
        value = data.get("paths", {}).get("scrape")
        if value is not None:
            if not isinstance(value, str):
                raise ScrapeConfigError(f"{config_file} [paths]: scrape must be a str, "
                                        f"got {value!r}")
            return cfg.root / value
    return cfg.root / SOURCES_NAME


def cache_dir(cfg: Config) -> Path:
    """``scrape-cache/`` next to the warehouse: validators and bodies of fetched pages."""
    return cfg.warehouse.parent / "scrape-cache"


def _get(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         default: Any) -> Any:
    if key not in table:
        return default
    value = table[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ScrapeConfigError(f"{where}: {key} must be a {name}, got {value!r}")
    return value


def _check_url(url: str, where: str, key: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ScrapeConfigError(f"{where}: {key} must be an http(s) URL, got {url!r}")


def _check_schedule(value: str, where: str) -> None:
    if value in ("nightly", "hourly", "always"):
        return
    try:
        from cronsim import CronSim, CronSimError
    except ImportError:  # pragma: no cover - cronsim comes with Prefect
        raise ScrapeConfigError(f"{where}: cron schedules need the cronsim package") from None
    try:
        CronSim(value, datetime(2000, 1, 1))
    except CronSimError as exc:
        raise ScrapeConfigError(f"{where}: schedule must be nightly, hourly, always or a cron "
                                f"expression, got {value!r} ({exc})") from None


def _source(table: Mapping[str, Any], where: str) -> Source:
    from parsers import FORMATS

    club = _get(table, "club", str, where, None)
    if not club:
        raise ScrapeConfigError(f"{where}: a source needs a club")
    url = _get(table, "url", str, where, None)
    pattern = _get(table, "url_pattern", str, where, None)
    if (url is None) == (pattern is None):
        raise ScrapeConfigError(f"{where}: give either url or url_pattern")
    last_days = _get(table, "last_days", int, where, None)
    start = _get(table, "from", date, where, None)
    end = _get(table, "to", date, where, None)
    names = _get(table, "weekdays", list, where, [])
    if url is not None:
        _check_url(url, where, "url")
        if last_days is not None or start is not None or end is not None or names:
            raise ScrapeConfigError(f"{where}: last_days, from, to and weekdays go with "
                                    "url_pattern, not url")
    else:
        assert pattern is not None
        fields = {f for _, f, _, _ in string.Formatter().parse(pattern) if f is not None}
        if fields - PLACEHOLDERS:
            raise ScrapeConfigError(
                f"{where}: url_pattern knows {{yyyy}} {{yy}} {{mm}} {{dd}} {{m}} {{d}}, "
                f"got {', '.join(sorted(fields - PLACEHOLDERS))!r}")
        _check_url(_expand(pattern, date(2000, 1, 1)), where, "url_pattern")
        if (last_days is None) == (start is None):
            raise ScrapeConfigError(f"{where}: url_pattern needs last_days = N or "
                                    "from = YYYY-MM-DD (to = YYYY-MM-DD optional)")
        if last_days is not None and not 1 <= last_days <= MAX_URLS_PER_SOURCE:
            raise ScrapeConfigError(f"{where}: last_days must be 1 to {MAX_URLS_PER_SOURCE}, "
                                    f"got {last_days!r}")
        if start is not None and end is not None and (
                end < start or (end - start).days >= MAX_URLS_PER_SOURCE):
            raise ScrapeConfigError(f"{where}: from..to must be in order and at most "
                                    f"{MAX_URLS_PER_SOURCE} days, got {start}..{end}")
    weekdays = []
    for name in names:
        if not isinstance(name, str) or name.lower()[:3] not in WEEKDAYS:
            raise ScrapeConfigError(f"{where}: weekdays are mon..sun, got {name!r}")
        weekdays.append(WEEKDAYS.index(name.lower()[:3]))
    fmt = _get(table, "format", str, where, None)
    if fmt is not None and fmt not in FORMATS:
        raise ScrapeConfigError(f"{where}: unknown format {fmt!r}; known formats: "
                                f"{', '.join(FORMATS)}")
    schedule = _get(table, "schedule", str, where, "nightly")
    _check_schedule(schedule, where)
    return Source(club=club, url=url, url_pattern=pattern, last_days=last_days, start=start,
                  end=end, weekdays=tuple(sorted(set(weekdays))), format=fmt,
                  schedule=schedule, enabled=_get(table, "enabled", bool, where, True))


def load_sources(cfg: Config, path: Path | None = None, *,
                 config_file: Path | None = None) -> ScrapeSettings:
    """Read the sources file (``path``, or :func:`sources_path`); none means no sources."""
    path = path or sources_path(cfg, config_file)
    cache = cache_dir(cfg)
    if not path.is_file():
        return ScrapeSettings(path=None, cache_dir=cache,
                              user_agent=default_user_agent(None))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScrapeConfigError(f"{path}: not valid TOML: {exc}") from exc
    where = str(path)
    allow = _get(data, "allow", list, where, [])
    if not all(isinstance(a, str) and a for a in allow):
        raise ScrapeConfigError(f"{where}: allow must be a list of host names, got {allow!r}")
    contact = _get(data, "contact", str, where, None)
    numbers: dict[str, float] = {}
    for key, default in (("rate_limit_seconds", DEFAULT_RATE_LIMIT),
                         ("timeout", DEFAULT_TIMEOUT), ("backoff_seconds", DEFAULT_BACKOFF)):
        numbers[key] = float(_get(data, key, (int, float), where, default))
        if numbers[key] < 0 or key == "timeout" and numbers[key] == 0:
            raise ScrapeConfigError(f"{where}: {key} must be positive, got {numbers[key]!r}")
    retries = _get(data, "retries", int, where, DEFAULT_RETRIES)
    max_bytes = _get(data, "max_bytes", int, where, DEFAULT_MAX_BYTES)
    if retries < 0 or max_bytes <= 0:
        raise ScrapeConfigError(f"{where}: retries must be 0 or more and max_bytes positive")
    tables = _get(data, "source", list, where, [])
    sources = tuple(_source(t, f"{where} [[source]] #{i}") for i, t in enumerate(tables, 1))
    return ScrapeSettings(
        path=path, cache_dir=cache, sources=sources,
        allow=tuple(a.lower() for a in allow),
        user_agent=_get(data, "user_agent", str, where, None) or default_user_agent(contact),
        rate_limit_seconds=numbers["rate_limit_seconds"], timeout=numbers["timeout"],
        retries=retries, backoff_seconds=numbers["backoff_seconds"], max_bytes=max_bytes,
    )


def has_sources(cfg: Config, config_file: Path | None = None) -> bool:
    """Whether the sources file lists any enabled source (the pipeline scrapes only then)."""
    return bool(load_sources(cfg, config_file=config_file).active)


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
    suffix = path.suffix.lower() if path.suffix.lower() in _KNOWN_SUFFIXES else ""
    stem = "_".join(_slug(p) for p in parts.path.split("/") if _slug(p)) or "index"
    if suffix:
        stem = stem[: -len(suffix)]
    if parts.query:
        stem += "_" + _slug(parts.query.replace("=", "-").replace("&", "_"))
    if not suffix:
        mime = content_type.split(";")[0].strip().lower()
        suffix = _CONTENT_TYPES.get(mime) or _FORMAT_SUFFIXES.get(fmt or "", ".html")
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
        return _Cached(meta.get("etag"), meta.get("last_modified"), meta.get("sha256"))

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
class ScrapeReport:
    """The fetch report of one run, one result per URL (a refused or not-due source: one)."""

    results: tuple[FetchResult, ...] = ()

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
        return [r.line() for r in self.results] + [f"scrape: {total}"]


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
            else:
                if response.status == 200:
                    parser.parse(response.body.decode("utf-8", "replace").splitlines())
                elif 400 <= response.status < 500:
                    parser.allow_all = True
                else:
                    parser.disallow_all = True
                    why = (f"the host's robots.txt answered HTTP {response.status}, so the "
                           "host is avoided this run")
            self._robots_why[origin] = why
            parser.modified()
            self._robots[origin] = parser
        return self._robots[origin].can_fetch(self.settings.user_agent, url)

    # -- one page

    def fetch(self, source: Source, url: str, inbox: Path, cache: _Cache) -> FetchResult:
        """Fetch one URL into the inbox, unless refused, disallowed or unchanged."""
        def result(status: Status, message: str, **kw: Any) -> FetchResult:
            return FetchResult(source.club, url, status, message, **kw)

        if not self.settings.allows(url):
            return result("refused", f"host {urlsplit(url).netloc!r} is not on the allow-list "
                          f"({_where(self.settings)}); not contacted")
        if not self.robots_allow(url):
            parts = urlsplit(url)
            why = self._robots_why[f"{parts.scheme}://{parts.netloc.lower()}"]
            return result("robots", f"{why}; not fetched")
        cached = cache.get(url)
        headers: dict[str, str] = {}
        if cached is not None and cached.etag:
            headers["If-None-Match"] = cached.etag
        if cached is not None and cached.last_modified:
            headers["If-Modified-Since"] = cached.last_modified
        try:
            response = self._follow(url, headers, robots=True)
        except _Failed as exc:
            return result("error", str(exc), http_status=exc.status, attempts=exc.attempts)
        kw: dict[str, Any] = {"http_status": response.status, "attempts": response.attempts}
        if response.status == 304 and headers:
            return result("not_modified", "not modified since the last fetch (HTTP 304)", **kw)
        if response.status != 200:
            reason = httpx.codes.get_reason_phrase(response.status)
            return result("error", f"HTTP {response.status} {reason}".rstrip(), **kw)
        sha = hashlib.sha256(response.body).hexdigest()
        if cached is not None and cached.sha256 == sha:
            cache.put(url, response.body, response.headers, None, self.now())
            return result("unchanged", "same bytes as the last fetch; nothing written", **kw)
        name = inbox_name(url, response.headers.get("content-type", ""), source.format)
        target = inbox / name
        _write_atomic(target, response.body)  # the inbox first: a crash refetches, never loses
        cache.put(url, response.body, response.headers, name, self.now())
        return result("fetched", f"{len(response.body)} bytes -> {target}", path=str(target),
                      **kw)


def _where(settings: ScrapeSettings) -> str:
    return f"allow = {list(settings.allow)!r} in {settings.path or SOURCES_NAME}"


def scrape(
    cfg: Config,
    settings: ScrapeSettings | None = None,
    *,
    config_file: Path | None = None,
    transport: httpx.BaseTransport | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], datetime] = datetime.now,
    dry_run: bool = False,
    ignore_schedule: bool = False,
) -> ScrapeReport:
    """Fetch every due source's pages into ``cfg.inbox``; the ingest loads them from there.

    ``dry_run`` contacts nothing and writes nothing: it reports each URL as ``planned``,
    ``refused`` or ``not_due``. A source's last complete fetch (no URL ended in ``error``) is
    kept in ``scrape-cache/schedule.json`` for its schedule.
    """
    settings = settings or load_sources(cfg, config_file=config_file)
    started = now()
    state_path = settings.cache_dir / "schedule.json"
    state = _read_state(state_path)
    results: list[FetchResult] = []
    cache = _Cache(settings.cache_dir)
    with Fetcher(settings, transport=transport, clock=clock, sleep=sleep,
                 now=now) as fetcher:
        for source in settings.active:
            last = state.get(source.key)
            last_at = datetime.fromisoformat(last) if last else None
            if not ignore_schedule and not is_due(source.schedule, last_at, started):
                results.append(FetchResult(source.club, source.url or source.url_pattern or "",
                                           "not_due", f"schedule {source.schedule!r}, last "
                                           f"fetched {last}"))
                continue
            mine = []
            for url in source.urls(started.date()):
                if dry_run:
                    ok = settings.allows(url)
                    mine.append(FetchResult(
                        source.club, url, "planned" if ok else "refused",
                        "would be fetched" if ok else f"host {urlsplit(url).netloc!r} is not "
                        f"on the allow-list ({_where(settings)}); not contacted"))
                else:
                    mine.append(fetcher.fetch(source, url, cfg.inbox, cache))
            results.extend(mine)
            if not dry_run and not any(r.status == "error" for r in mine):
                state[source.key] = started.isoformat(timespec="seconds")
    if not dry_run and settings.active:
        _write_atomic(state_path, (json.dumps(state, indent=2, sort_keys=True) + "\n")
                      .encode("utf-8"))
    return ScrapeReport(tuple(results))
