"""The scraper: club result pages fetched into the inbox, politely (docs/scraping.md).

    ScrapeSettings (sources, allow-list, politeness) + inbox ──► scrape() ──► ScrapeReport
        one result per URL (FetchResult), one summary per discovery source (SourceSummary)

A package beside the run core, not inside it: it reads no configuration and opens no warehouse.
The composition layer reads ``sources.toml`` through the configuration's schema
(flows/_schema.py), turns it into :class:`ScrapeSettings` and calls :func:`scrape` with the
project's inbox (flows/_sources.py); the schema takes the defaults of the sources file's keys
and the meaning of URL patterns and link globs from here. It imports ``parsers`` (the formats'
file suffixes) and ``warehouse`` (the one atomic writer) and nothing else of the project.

The names below are loaded on first use: the configuration's check reads the defaults and the
patterns without importing httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._fetch import (
        DEFAULT_BACKOFF,
        DEFAULT_MAX_BYTES,
        DEFAULT_MAX_DEPTH,
        DEFAULT_MAX_LINKS,
        DEFAULT_MAX_NEW,
        DEFAULT_MAX_PAGES,
        DEFAULT_MAX_RUN_BYTES,
        DEFAULT_MAX_SECONDS,
        DEFAULT_RATE_LIMIT,
        DEFAULT_RECHECK,
        DEFAULT_RETRIES,
        DEFAULT_RETRY_FAILED_DAYS,
        DEFAULT_TIMEOUT,
        MAX_RETRY_FAILED_DAYS,
        PLACEHOLDERS,
        SOURCES_NAME,
        Discovery,
        Fetcher,
        FetchResult,
        Link,
        ScrapeReport,
        ScrapeSettings,
        Source,
        SourceSummary,
        expand_pattern,
        inbox_name,
        is_due,
        link_glob,
        links,
        scrape,
    )

_WHERE: dict[str, str] = {
    name: "_fetch" for name in (
        "DEFAULT_BACKOFF", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_LINKS",
        "DEFAULT_MAX_NEW", "DEFAULT_MAX_PAGES", "DEFAULT_MAX_RUN_BYTES", "DEFAULT_MAX_SECONDS",
        "DEFAULT_RATE_LIMIT", "DEFAULT_RECHECK", "DEFAULT_RETRIES", "DEFAULT_RETRY_FAILED_DAYS",
        "DEFAULT_TIMEOUT", "MAX_RETRY_FAILED_DAYS", "PLACEHOLDERS", "SOURCES_NAME",
        "Discovery", "FetchResult", "Fetcher", "Link", "ScrapeReport", "ScrapeSettings",
        "Source", "SourceSummary", "expand_pattern", "inbox_name", "is_due", "link_glob",
        "links", "scrape",
    )
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
