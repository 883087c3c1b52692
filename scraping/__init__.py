"""The scraper: club result pages fetched into the inbox, politely (docs/scraping.md).

    ScrapeSettings (sources, allow-list, politeness) + inbox ──► scrape() ──► ScrapeReport
        one result per URL (FetchResult), one summary per discovery source (SourceSummary)

    sources ──► URLs (one per source, or one per date of a pattern) ──► allow-list
        ──► robots.txt (once per host per run) ──► conditional GET (ETag / Last-Modified)
        ──► inbox/<host>__<path>.<ext> ──► the same ingest as a dropped file

A fetched page is written into the inbox under a stable name derived from its URL, so the
inbox's rules apply unchanged (docs/rules/inputs.md): the same bytes load nothing twice, a changed
page is a correction of its event, an unreadable page moves to ``inbox/rejected/`` with its
reason. Nothing here parses: a parse error is the ingest's business and is never retried.

A source may instead name index pages and link patterns (``index`` + ``follow``): the pages
are read for their links, and the links that match are fetched as above, each only once, the
most recent few re-checked conditionally, failures remembered and retried rarely (docs/scraping.md
"Discovery").

Politeness, in order of precedence: only hosts on the allow-list are ever contacted (a refused
source causes no request at all, not even for robots.txt); robots.txt is honoured; requests to
one host are spaced by ``rate_limit_seconds``; a page that did not change costs a 304.

    _sources.py     what to fetch: Source, Discovery, ScrapeSettings, URL patterns, link globs,
                    schedules, and the defaults of sources.toml's keys
    _fetch.py       one URL: Fetcher (allow-list, robots.txt, rate limit, retries, conditional
                    GET), the cache of validators and bodies, the inbox file name
    _discovery.py   index pages read for their links, the state of what was found
    _run.py         scrape(): every due source in one run, and its ScrapeReport

A package beside the run core, not inside it: it reads no configuration and opens no warehouse.
The composition layer reads ``sources.toml`` through the configuration's schema
(flows/_schema.py), turns it into :class:`ScrapeSettings` and calls :func:`scrape` with the
project's inbox (flows/_sources.py); the schema takes the defaults of the sources file's keys
and the meaning of URL patterns and link globs from here. It imports ``parsers`` (the formats'
file suffixes) and ``warehouse`` (the one atomic writer) and nothing else of the project.

The names below are loaded on first use: the configuration's check reads the defaults and the
patterns (scraping/_sources.py) without importing httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._discovery import Link as Link, SourceSummary as SourceSummary, links as links
    from ._fetch import Fetcher as Fetcher, FetchResult as FetchResult, inbox_name as inbox_name
    from ._run import ScrapeReport as ScrapeReport, scrape as scrape
    from ._sources import (
        DEFAULT_BACKOFF as DEFAULT_BACKOFF,
        DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES,
        DEFAULT_MAX_DEPTH as DEFAULT_MAX_DEPTH,
        DEFAULT_MAX_LINKS as DEFAULT_MAX_LINKS,
        DEFAULT_MAX_NEW as DEFAULT_MAX_NEW,
        DEFAULT_MAX_PAGES as DEFAULT_MAX_PAGES,
        DEFAULT_MAX_RUN_BYTES as DEFAULT_MAX_RUN_BYTES,
        DEFAULT_MAX_SECONDS as DEFAULT_MAX_SECONDS,
        DEFAULT_RATE_LIMIT as DEFAULT_RATE_LIMIT,
        DEFAULT_RECHECK as DEFAULT_RECHECK,
        DEFAULT_RETRIES as DEFAULT_RETRIES,
        DEFAULT_RETRY_FAILED_DAYS as DEFAULT_RETRY_FAILED_DAYS,
        DEFAULT_TIMEOUT as DEFAULT_TIMEOUT,
        MAX_RETRY_FAILED_DAYS as MAX_RETRY_FAILED_DAYS,
        PLACEHOLDERS as PLACEHOLDERS,
        SOURCES_NAME as SOURCES_NAME,
        Discovery as Discovery,
        ScrapeSettings as ScrapeSettings,
        Source as Source,
        expand_pattern as expand_pattern,
        is_due as is_due,
        link_glob as link_glob,
    )

_WHERE: dict[str, str] = {
    **dict.fromkeys((
        "DEFAULT_BACKOFF", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_LINKS",
        "DEFAULT_MAX_NEW", "DEFAULT_MAX_PAGES", "DEFAULT_MAX_RUN_BYTES", "DEFAULT_MAX_SECONDS",
        "DEFAULT_RATE_LIMIT", "DEFAULT_RECHECK", "DEFAULT_RETRIES", "DEFAULT_RETRY_FAILED_DAYS",
        "DEFAULT_TIMEOUT", "MAX_RETRY_FAILED_DAYS", "PLACEHOLDERS", "SOURCES_NAME",
        "Discovery", "ScrapeSettings", "Source", "expand_pattern", "is_due", "link_glob",
    ), "_sources"),
    **dict.fromkeys(("FetchResult", "Fetcher", "inbox_name"), "_fetch"),
    **dict.fromkeys(("Link", "SourceSummary", "links"), "_discovery"),
    **dict.fromkeys(("ScrapeReport", "scrape"), "_run"),
}
"""Each public name and the private module that defines it."""

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'scraping' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
