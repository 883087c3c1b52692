"""One run of the scraper: every due source's pages into the inbox, and the report of it.

    sources ──► due by their schedules (scrape-cache/schedule.json) ──► each URL fetched
        (scraping/_fetch.py), or a discovery source's links found and fetched
        (scraping/_discovery.py) ──► ScrapeReport: a line per URL, a summary per discovery source
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ._discovery import SourceSummary, discover
from ._fetch import Cache, FetchResult, Fetcher, write_atomic
from ._sources import ScrapeSettings, is_due

if TYPE_CHECKING:
    import httpx

__all__ = ["ScrapeReport", "scrape"]


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


def _read_state(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


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
    cache = Cache(settings.cache_dir)
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
            mine: list[FetchResult] = []
            if source.discovery is not None:
                mine, summary = discover(source, fetcher, cache, inbox, started=started,
                                         dry_run=dry_run)
                summaries.append(summary)
            for url in [] if source.discovery is not None else source.urls(started.date()):
                if dry_run:
                    ok = settings.allows(url)
                    mine.append(FetchResult(
                        source.club, url, "planned" if ok else "refused",
                        "would be fetched" if ok else f"host {urlsplit(url).netloc!r} is not "
                        f"on the allow-list ({settings.where_allowed()}); not contacted"))
                else:
                    mine.append(fetcher.fetch(source, url, inbox, cache))
            results.extend(mine)
            if not dry_run and not any(r.status == "error" for r in mine):
                state[source.key] = started.isoformat(timespec="seconds")
    if not dry_run and settings.active:
        write_atomic(state_path, (json.dumps(state, indent=2, sort_keys=True) + "\n")
                     .encode("utf-8"))
    return ScrapeReport(tuple(results), tuple(summaries))
