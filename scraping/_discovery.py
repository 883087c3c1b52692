"""Discovery: index pages read for their links, the links that match followed, each result
fetched once, the most recent few re-checked, failures remembered and retried rarely
(docs/scraping.md "Discovery"). The state is ``scrape-cache/discovered/<key>.json``::

    index (+ "next" pages) ──► links on allowed hosts ──► follow / through patterns
        ──► new, due for a re-check, or a failure due for a retry ──► the same fetch as a
            source's own URL (scraping/_fetch.py)
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import itertools
import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from ._fetch import Cache, FetchResult, Fetcher, Response, write_atomic
from ._sources import DEFAULT_MAX_LINKS, MAX_RETRY_FAILED_DAYS, Discovery, Source

__all__ = ["Link", "SourceSummary", "discover", "links"]


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


def _is_html(response: Response) -> bool:
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
        write_atomic(self.path, (json.dumps({"source": self.key, "run": self.run,
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


def discover(source: Source, fetcher: Fetcher, cache: Cache, inbox: Path, *,
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

    def learn(response: Response, depth: int, kind: str, root: str,
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
                result, response = fetcher.get(
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
