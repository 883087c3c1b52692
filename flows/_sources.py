"""The scraper in a project: ``sources.toml`` read into the settings the scraper (scraping/)
takes, and its pages fetched into the project's inbox.

    clubratings.toml ([paths] scrape) ──► sources.toml, checked against the schema
        (flows/_schema.py) ──► scraping.ScrapeSettings ──► scraping.scrape(settings, inbox)

The sources file is checked as a whole when it is read; a refusal is a
:class:`~flows._schema.ScrapeConfigError` of one line naming the file, the source and the value.
The scraper's state (validators, bodies, schedules, what discovery found) is kept in
``scrape-cache/`` next to the warehouse (:func:`cache_dir`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import scraping
from scraping import Discovery, ScrapeSettings, Source

from ._config import CONFIG_NAME, Config
from ._schema import SOURCES_NAME, WEEKDAYS, SourceTable, read_config_file, read_sources_file

if TYPE_CHECKING:
    import httpx

    from scraping import ScrapeReport

__all__ = [
    "cache_dir",
    "default_user_agent",
    "has_sources",
    "load_sources",
    "scrape",
    "sources_path",
]


def _code_version() -> str:
    from ._steps import code_version as version

    return version()


def default_user_agent(contact: str | None) -> str:
    """``clubratings/<version> (+<contact>)``: names the project and whom to ask."""
    agent = f"clubratings/{_code_version()}"
    return f"{agent} (+{contact})" if contact else agent


def sources_path(cfg: Config, config_file: Path | None = None) -> Path:
    """``[paths] scrape`` of the configuration file, else ``sources.toml`` beside it.

    ``config_file`` defaults to the file the configuration was read from (its ``scrape``), or
    ``clubratings.toml`` in the configuration's folder.
    """
    if config_file is None and cfg.scrape is not None:
        return cfg.scrape
    config_file = config_file or cfg.root / CONFIG_NAME
    if config_file.is_file():
        return cfg.root / read_config_file(config_file, schemes=False).paths.scrape
    return cfg.root / SOURCES_NAME


def cache_dir(cfg: Config) -> Path:
    """``scrape-cache/`` next to the warehouse: validators and bodies of fetched pages."""
    return cfg.warehouse.parent / "scrape-cache"


def _source(table: SourceTable) -> Source:
    discovery = None
    if table.index is not None:
        discovery = Discovery(
            index=tuple(table.index), follow=tuple(table.follow or ()),
            through=tuple(table.through or ()), hosts=tuple(table.hosts or ()),
            max_depth=table.max_depth, max_pages=table.max_pages, max_links=table.max_links,
            max_new=table.max_new, recheck=table.recheck,
            retry_failed_days=table.retry_failed_days, max_seconds=table.max_seconds,
            max_run_bytes=table.max_run_bytes)
    weekdays = {WEEKDAYS.index(name.lower()[:3]) for name in table.weekdays}
    return Source(club=table.club, url=table.url, url_pattern=table.url_pattern,
                  last_days=table.last_days, start=table.start, end=table.end,
                  weekdays=tuple(sorted(weekdays)), format=table.format,
                  schedule=table.schedule, enabled=table.enabled, discovery=discovery)


def load_sources(cfg: Config, path: Path | None = None, *,
                 config_file: Path | None = None) -> ScrapeSettings:
    """Read the sources file (``path``, or :func:`sources_path`), checked against the
    configuration's schema (flows/_schema.py); none means no sources."""
    path = path or sources_path(cfg, config_file)
    cache = cache_dir(cfg)
    if not path.is_file():
        return ScrapeSettings(path=None, cache_dir=cache,
                              user_agent=default_user_agent(None))
    data = read_sources_file(path)
    return ScrapeSettings(
        path=path, cache_dir=cache, sources=tuple(_source(t) for t in data.source),
        allow=tuple(data.allow), user_agent=data.user_agent or default_user_agent(data.contact),
        rate_limit_seconds=data.rate_limit_seconds, timeout=data.timeout,
        retries=data.retries, backoff_seconds=data.backoff_seconds, max_bytes=data.max_bytes,
    )


def has_sources(cfg: Config, config_file: Path | None = None) -> bool:
    """Whether the sources file lists any enabled source (the pipeline scrapes only then)."""
    return bool(load_sources(cfg, config_file=config_file).active)


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
    """Fetch every due source of the project's sources file (or of ``settings``) into its
    inbox (:func:`scraping.scrape`, which says what ``dry_run`` and ``ignore_schedule`` do);
    the ingest loads them from there."""
    settings = settings or load_sources(cfg, config_file=config_file)
    return scraping.scrape(settings, cfg.inbox, transport=transport, clock=clock, sleep=sleep,
                           now=now, dry_run=dry_run, ignore_schedule=ignore_schedule)
