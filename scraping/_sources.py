"""What to fetch and how politely: the sources, their URL patterns and link globs, the
allow-list and the schedules (docs/scraping.md).

The defaults here are those of ``sources.toml``'s keys: the configuration's schema
(flows/_schema.py) declares each key with them, checks the file, and the composition layer
(flows/_sources.py) turns it into :class:`ScrapeSettings`. Nothing here reads a file or
contacts a host.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

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
    "ScrapeSettings",
    "Source",
    "expand_pattern",
    "is_due",
    "link_glob",
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

    def where_allowed(self) -> str:
        """Where the allow-list is, for a refusal's message: ``allow = [...] in <file>``."""
        return f"allow = {list(self.allow)!r} in {self.path or SOURCES_NAME}"


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
