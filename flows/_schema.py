"""The configuration's one schema: every key of ``clubratings.toml`` and ``sources.toml``, each
declared once here with its type, range, default and a one-line description.

A file is checked as a whole when it is read (flows/_config.py ``load_config``, flows/_sources.py
``load_sources``), before any result file is read or anything is written: an unknown key is
refused with the nearest known key suggested, a value of the wrong type or outside its range
with what is allowed, and a pool's scheme options through the scheme's own declaration of them
(ratings/_params.py, the one ``clubratings rate --set`` reads too). A refusal is one line
naming the file, the section, the key and the value::

    clubratings.toml: [paths] inbx: unknown key (did you mean 'inbox'?)
    clubratings.toml: [[pools]] bridge options.cutover = '2013-13-01': expected a date YYYY-MM-DD, or empty for none

Paths are relative to the folder of the file that names them, or absolute; so are the glob
patterns of ``[paths] sources`` and ``[identity] register``. As a ``[limits]`` default is
``parsers.Limits``', a ``sources.toml`` default is the scraper's (``scraping.DEFAULT_*``), and so
are what a URL pattern may name and what a link glob means (``scraping.expand_pattern``,
``scraping.link_glob``): declared here, defined where they are used.

docs/configuration.md is generated from these declarations (:func:`reference`, ``clubratings
config docs``); ``clubratings config check`` prints a configuration resolved
(:func:`resolved_lines`).

Exceptions::

    ConfigError(Exception)     a configuration file is missing or unreadable, or has a key or a
    │                          value it does not take
    └── ScrapeConfigError      ... the sources file (sources.toml)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import itertools
import json
import re
import string
import tomllib
import types
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from games import GAMES
from parsers import FORMATS, KINDS, SCORINGS, Limits
from ratings import SCHEMES, OptionError
from ratings._options import Choice, Date, Number, OptionSpec, option_specs
from scraping import (
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
    expand_pattern,
    link_glob,
)
from warehouse.identity import IdentitySettings

__all__ = [
    "CONFIG_NAME",
    "SOURCES_NAME",
    "Checked",
    "ClubratingsFile",
    "ConfigError",
    "ScrapeConfigError",
    "SourcesFile",
    "attribute_docs",
    "check_configuration",
    "read_config_file",
    "read_sources_file",
    "reference",
    "resolved_lines",
    "split_glob",
]

CONFIG_NAME = "clubratings.toml"


class ConfigError(Exception):
    """A configuration file is missing or unreadable, or has a key or a value it does not take;
    the message is one line naming the file, the section, the key and the value."""


class ScrapeConfigError(ConfigError):
    """The sources file is missing a value or has one of the wrong kind."""


class _Refused(ValueError):
    """A value the schema's own checks refuse: ``key`` below the place it was raised for (the
    field of a field check, the table of a table check), the value, and what is wrong."""

    def __init__(self, key: tuple[str | int, ...], problem: str, value: Any = None, *,
                 shown: bool | None = None) -> None:
        super().__init__(problem)
        self.key = key
        self.problem = problem
        self.value = value
        self.shown = value is not None if shown is None else shown


# ---------------------------------------------------------------- building blocks

class _Table(BaseModel):
    """A TOML table: every key declared, no other taken; each value of its declared type as
    written (no text read as a number, no number as a flag)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    hints: ClassVar[dict[str, str]] = {}
    """What an unknown key most likely meant, where the nearest spelling would not say it."""


_Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
_PathText = Annotated[str, StringConstraints(min_length=1)]

_PATH = "a path (relative to the configuration's folder, or absolute)"
_GLOBS = ("a list of paths or glob patterns (relative to the configuration's folder, or "
          "absolute; `*`, `?`, `[...]`, `**` for any folders)")


def _path(default: Any, description: str) -> Any:
    return Field(default=default, description=description,
                 json_schema_extra={"path": "file", "allowed": _PATH})


def _globs(description: str) -> Any:
    return Field(default_factory=list, description=description,
                 json_schema_extra={"path": "globs", "allowed": _GLOBS})


def _check_globs(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        if not pattern:
            raise _Refused((), "an empty pattern matches nothing", pattern)
        for part in Path(pattern).parts:
            if "**" in part and part != "**":
                raise _Refused((), "`**` must be a whole folder of the pattern "
                               "(`a/**/b.csv`, not `a**`)", pattern)
    return patterns


# ---------------------------------------------------------------- clubratings.toml

class FederationTable(_Table):
    """Who publishes the lists."""

    name: _Name = Field(default="Rating lists", description="Who publishes the lists, named on the "
                        "site's index (public/index.html)")


class PathsTable(_Table):
    """Where files come from and where outputs go."""

    warehouse: _PathText = _path("data/clubratings.duckdb", "The DuckDB warehouse; the raw "
                                 "files loaded are kept beside it in raw/")
    inbox: _PathText = _path("inbox", "Dropped result files; loaded ones move to "
                             "inbox/archive/, refused ones to inbox/rejected/")
    public: _PathText = _path("public", "The published rating lists and the site")
    sources: list[str] = _globs("Read-only result files scanned on every run, never moved")
    scrape: _PathText = _path(SOURCES_NAME, "The sources file: the club pages `clubratings "
                              "scrape` and the nightly run fetch (docs/scraping.md)")

    _globs_valid = field_validator("sources")(_check_globs)


_IDENTITY = IdentitySettings()


class IdentityTable(_Table):
    """Who is who: member registers, review decisions, the fuzzy name match (docs/identity.md)."""

    registers: list[str] = Field(
        default_factory=list, alias="register", description="Federation member registers, "
        "loaded in name order before any result file",
        json_schema_extra={"path": "globs", "allowed": _GLOBS})
    decisions: _PathText | None = Field(
        default=None, description="The decisions file: review answers, merges and splits, replayed "
        "on a rebuild (kept under version control)",
        json_schema_extra={"path": "file", "allowed": _PATH})
    clubs: _PathText | None = Field(
        default=None, description="The club register: a CSV file with the columns name, code, "
        "game, federation, aliases (separated by ;); club names and codes written in result "
        "files are listed under its names (docs/site.md, \"Clubs\")",
        json_schema_extra={"path": "file", "allowed": _PATH})
    register_games: list[str] = Field(
        default_factory=list, description="The games the registers cover: a member is matched "
        "by name only in these games' results (docs/identity.md, \"One person per game\"); "
        "none: every game", json_schema_extra={"choices": list(GAMES), "many": True})
    fuzzy_accept: float = Field(default=_IDENTITY.fuzzy_accept, ge=0, le=100, description="A fuzzy "
                                "name match is taken without asking from this score up")
    fuzzy_review: float = Field(default=_IDENTITY.fuzzy_review, ge=0, le=100, description="... and "
                                "offered for review from this score up; below it the name is "
                                "a new player (at most fuzzy_accept)")
    fuzzy_margin: float = Field(
        default=_IDENTITY.fuzzy_margin, ge=0, le=100, description="... taken only when no other "
        "candidate scores within this of the best")

    _globs_valid = field_validator("registers")(_check_globs)

    @field_validator("register_games")
    @classmethod
    def _known_games(cls, value: list[str]) -> list[str]:
        for item in value:
            if item not in GAMES:
                raise _Refused((), f"{item!r} is not a known game; the games are "
                               f"{', '.join(GAMES)}", value)
        return value

    @model_validator(mode="after")
    def _review_below_accept(self) -> IdentityTable:
        if self.fuzzy_review > self.fuzzy_accept:
            raise _Refused(("fuzzy_review",), f"must be at most fuzzy_accept = "
                           f"{self.fuzzy_accept:g}", self.fuzzy_review)
        return self


class RunTable(_Table):
    """How ``clubratings run`` runs."""

    task_runner: Literal["default", "dask"] = Field(
        default="default", description="`dask` parses the files in parallel on a Dask cluster (one "
        "writer still loads them)")
    prefect: Literal["auto", "always", "never"] = Field(
        default="auto", description="Whether `clubratings run` runs as the Prefect flow: `auto` "
        "when a Prefect server is configured")


_LIMITS = Limits()


class LimitsTable(_Table):
    """How much work one file may cost (docs/rules/inputs.md); a file beyond a bound is refused
    with the bound named, and the run goes on. The keys are the fields of parsers/_limits.py
    ``Limits``."""

    file_mb: float = Field(
        default=_LIMITS.file_mb, gt=0, description="Size of the file as dropped, in MiB")
    unpacked_mb: float = Field(
        default=_LIMITS.unpacked_mb, gt=0, description="All entries of a zip container (xlsx, "
        "ods, a zipped league) unpacked together, in MiB")
    entries: int = Field(default=_LIMITS.entries, gt=0, description="Entries in a zip container")
    rows: int = Field(
        default=_LIMITS.rows, gt=0, description="Rows of one table or sheet (a repeated row "
        "counts as often as it repeats)")
    columns: int = Field(default=_LIMITS.columns, gt=0, description="Columns of one table or sheet")
    cell_chars: int = Field(
        default=_LIMITS.cell_chars, gt=0, description="Characters in one cell or CSV field")
    merged: int = Field(default=_LIMITS.merged, gt=0, description="Merged ranges of one sheet")
    merged_cells: int = Field(
        default=_LIMITS.merged_cells, gt=0, description="Cells covered by the merged ranges of "
        "one sheet together")
    table_depth: int = Field(default=_LIMITS.table_depth, gt=0, description="Tables nested inside "
                             "tables on a page")
    seconds: float = Field(default=_LIMITS.seconds, gt=0, description="Time to read one inbox file "
                           "(detection, parsing and the plausibility gate)")
    memory_mb: int = Field(
        default=_LIMITS.memory_mb, gt=0, description="Address space of the worker process that "
        "reads inbox files, in MiB")
    first_year: int = Field(
        default=_LIMITS.first_year, gt=0, description="Events dated before this year are refused")
    last_year: int = Field(
        default=_LIMITS.last_year, gt=0, description="Events dated after this year are refused")

    def limits(self) -> Limits:
        return Limits(**self.model_dump())


class IngestTable(_Table):
    """How a new version of a loaded file is taken."""

    correction_hold: float = Field(
        default=0.1, ge=0, lt=1, description="A correction that drops more than this share of an "
        "event's units or players, or changes its kind or scoring, waits for `clubratings "
        "review` instead of replacing the event")


class ListTable(_Table):
    """Who is ranked on a pool's lists (docs/site.md, "Who is on a list")."""

    min_events: int = Field(
        default=5, ge=0, description="Events (go, preferans: games) a player needs to be ranked; "
        "fewer: provisional, listed apart")
    active_days: int = Field(
        default=365, ge=0, description="A player without an event in this many days up to the end "
        "of an edition's period is inactive, listed apart")
    max_deviation: float | None = Field(
        default=None, gt=0, description="Go: a rating deviation above this keeps a player "
        "provisional; none: no bound")


_OPTION_VALUE = "text (a number or a date may be written bare)"
_OPTION_TEXT = f"a table of scheme option = value: {_OPTION_VALUE}"


class PoolTable(_Table):
    """One rating list: which game's events, rated by which scheme with which options."""

    name: _Name = Field(description="The list's name: its folder in public/ and its name in "
                        "every command's --pool")
    game: str = Field(default="bridge", description="Which game's events the pool rates",
                      json_schema_extra={"choices": list(GAMES)})
    scheme: str | None = Field(
        default=None, description="The rating scheme; none: the game's default (bridge belo2, go "
        "rfg, preferans makarov)", json_schema_extra={"choices": list(SCHEMES)})
    options: dict[str, str] = Field(default_factory=dict, description="The scheme's options, "
                                    "as `clubratings rate --set` takes them (see Scheme "
                                    "options below)", json_schema_extra={"allowed": _OPTION_TEXT})
    scoring: list[str] = Field(default_factory=list, description="Only events scored by these "
                               "methods (separate lists, docs/rules/bridge-belo.md §12); none: "
                               "all", json_schema_extra={"choices": list(SCORINGS), "many": True})
    kinds: list[str] = Field(default_factory=list, description="Only events of these kinds "
                             "(§12); none: all", json_schema_extra={"choices": list(KINDS),
                                                                     "many": True})
    abroad: dict[str, float | None] = Field(
        default_factory=dict, description="Organisers whose events are played abroad, with the "
        "assumed field rating of their events (docs/rules/bridge-belo.md §5; with the option "
        "abroad = \"assumed\")", json_schema_extra={
            "allowed": "a table of organiser = assumed field rating (a number, or \"\" for none)"})
    list_: ListTable = Field(default_factory=lambda: ListTable(), alias="list",
                             description="Who is ranked: `{ min_events, active_days, "
                             "max_deviation }` (below)")
    periods: Literal["tournament", "month", "quarter", "year"] = Field(
        default="tournament", description="Go: what one rating period is (docs/rules/go-rfg.md, "
        "\"One rating period\")")
    names: Literal["", "surname-first", "as-written"] = Field(
        default="", description="The order names are written in on the pool's lists, pages and "
        "files; \"\": the game's default (go surname-first, the others as-written)")

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in GAMES:
            raise _Refused((), f"not a known game; the games are {', '.join(GAMES)}", value)
        return value

    @field_validator("options", mode="before")
    @classmethod
    def _options_as_text(cls, value: Any) -> Any:
        """A scheme option is text, as on the command line; a bare number or date is taken as
        it is written."""
        if not isinstance(value, dict):
            return value
        text = {}
        for key, item in value.items():
            if isinstance(item, bool) or not isinstance(item, str | int | float | dt.date):
                raise _Refused((str(key),), f"expected {_OPTION_VALUE}", item)
            text[str(key)] = item.isoformat() if isinstance(item, dt.date) else str(item)
        return text

    @field_validator("abroad", mode="before")
    @classmethod
    def _abroad_none(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: None if v == "" else v for k, v in value.items()}
        return value

    @field_validator("scoring", "kinds")
    @classmethod
    def _known_values(cls, value: list[str], info: ValidationInfo) -> list[str]:
        known = SCORINGS if info.field_name == "scoring" else KINDS
        for item in value:
            if item not in known:
                raise _Refused((), f"{item!r} is not one of {', '.join(known)}", value)
        return value

    @model_validator(mode="after")
    def _scheme_and_options(self, info: ValidationInfo) -> PoolTable:
        """The scheme rates the pool's game, and each option is one of the scheme's, with a
        value its declaration takes (ratings/_params.py)."""
        if (info.context or {}).get("schemes") is False:
            return self
        kind = GAMES[self.game]
        name = self.resolved_scheme
        scheme = SCHEMES.get(name)
        if scheme is None:
            raise _Refused(("scheme",), f"not a known scheme{_suggest(name, SCHEMES)}; the "
                           f"schemes are {', '.join(sorted(SCHEMES))}", name)
        if scheme.reads != kind.frame:
            rates = [g.name for g in GAMES.values() if g.frame == scheme.reads]
            fits = sorted(n for n, s in SCHEMES.items() if s.reads == kind.frame)
            raise _Refused(("scheme",), f"rates {' and '.join(rates)}, not {self.game}; "
                           f"{self.game} is rated by {', '.join(fits)}", name)
        specs = option_specs(scheme.params_type)
        for key, text in self.options.items():
            spec = specs.get(key)
            if spec is None:
                raise _Refused(("options", key), f"unknown option of {name}"
                               + (_suggest(key, specs) or
                                  f"; its options are {', '.join(sorted(specs))}"),
                               shown=False)
            try:
                spec.read(key, text)
            except OptionError as exc:  # a valid name of a variant not ready yet says so
                planned = isinstance(spec, Choice) and text in spec.not_implemented
                problem = str(exc) if planned else f"expected {_option_allowed(spec)}"
                raise _Refused(("options", key), problem, text) from None
        values = {k: specs[k].read(k, v) for k, v in self.options.items()}
        for key, value in values.items():  # a rule of the params beyond each option's values
            try:
                dataclasses.replace(scheme.defaults, **{key: value})
            except OptionError as exc:
                raise _Refused(("options", key), str(exc), self.options[key]) from None
        try:
            dataclasses.replace(scheme.defaults, **values)
        except OptionError as exc:  # a rule between options (ratings/_params.py)
            raise _Refused(("options",), str(exc), dict(self.options)) from None
        return self

    @property
    def resolved_scheme(self) -> str:
        """``scheme``, or the game's default scheme when none is named."""
        return self.scheme or GAMES[self.game].default_scheme


def _default_pools() -> list[PoolTable]:
    return [PoolTable(name="bridge")]


class ClubratingsFile(_Table):
    """``clubratings.toml``: where files come from, where outputs go, which lists to rate."""

    federation: FederationTable = Field(default_factory=lambda: FederationTable(),
                                        description="Who publishes the lists")
    paths: PathsTable = Field(default_factory=lambda: PathsTable(), description="Files in and out")
    identity: IdentityTable = Field(default_factory=lambda: IdentityTable(),
                                    description="Who is who")
    pools: list[PoolTable] = Field(default_factory=_default_pools,
                                   description="The rating lists; none written: one bridge "
                                   "list named bridge")
    run: RunTable = Field(default_factory=lambda: RunTable(), description="How a run runs")
    limits: LimitsTable = Field(default_factory=lambda: LimitsTable(),
                                description="How much work one file may cost")
    ingest: IngestTable = Field(default_factory=lambda: IngestTable(),
                                description="How corrections are taken")

    @model_validator(mode="after")
    def _pool_names_differ(self) -> ClubratingsFile:
        seen: set[str] = set()
        for i, pool in enumerate(self.pools):
            if pool.name in seen:
                raise _Refused(("pools", i, "name"), "another pool has this name; "
                               "each pool publishes into public/<name>/", pool.name)
            seen.add(pool.name)
        return self


# ---------------------------------------------------------------- sources.toml

MAX_URLS_PER_SOURCE = 400
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

_DISCOVERY_KEYS = frozenset({"follow", "through", "hosts", "max_depth", "max_pages", "max_links",
                             "max_new", "recheck", "retry_failed_days", "max_seconds",
                             "max_run_bytes"})


def _http(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.hostname)


_TEXTS = "a text or a list of texts"


def _texts(value: Any) -> Any:
    """A key that takes one text or a list of them: a list of texts, each stripped."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(
            isinstance(v, str) and v.strip() for v in items):
        raise _Refused((), f"expected {_TEXTS}", value)
    return [v.strip() for v in items]


def _texts_field(description: str) -> Any:
    return Field(default=None, description=description, json_schema_extra={"allowed": _TEXTS})


class SourceTable(_Table):
    """One club page, one page per date of a URL pattern, or the pages that index pages link
    (docs/scraping.md)."""

    hints: ClassVar[dict[str, str]] = {"name": "the club's name goes in club = ..."}

    club: _Name = Field(description="Who publishes the pages; names the source in the report")
    url: str | None = Field(default=None, description="One page (http or https)")
    url_pattern: str | None = Field(default=None, description="One page per date: `{yyyy}` `{yy}` "
                                    "`{mm}` `{dd}` (zero-padded) `{m}` `{d}` (not)")
    last_days: int | None = Field(
        default=None, ge=1, le=MAX_URLS_PER_SOURCE, description="url_pattern: today and the days "
        "before it, this many in all")
    start: dt.date | None = Field(
        default=None, alias="from", description="url_pattern: the dates from this day ...")
    end: dt.date | None = Field(
        default=None, alias="to",
        description="... to this one (default today; "
                                f"at most {MAX_URLS_PER_SOURCE} days)")
    weekdays: list[str] = Field(default_factory=list, description="url_pattern: only these "
                                "days; none: every day",
                                json_schema_extra={"choices": list(WEEKDAYS), "many": True})
    format: str | None = Field(default=None, description="The expected format: chooses the file's "
                               "extension when neither the URL nor the Content-Type gives one; "
                               "detection on ingest still decides",
                               json_schema_extra={"choices": list(FORMATS)})
    schedule: str = Field(
        default="nightly", description="When the source is due: once per calendar day, once per "
        "clock hour, every run, or when a cron expression fired since the last complete fetch",
        json_schema_extra={
                              "allowed": "nightly, hourly, always or a cron expression "
                              "(\"0 6 * * *\")"})
    enabled: bool = Field(default=True, description="false keeps the entry without fetching it")
    index: list[str] | None = _texts_field("Discovery: the index page, or a list of them (each "
                                           "on allow); its links are followed")
    follow: list[str] | None = _texts_field("Discovery: a glob, or a list of globs: the links "
                                            "whose pages are results, fetched into the inbox")
    through: list[str] | None = _texts_field("Discovery: globs of pages on the way, read for "
                                             "their links, never put into the inbox")
    hosts: list[str] | None = _texts_field("Discovery: other hosts whose links are followed "
                                           "(each on allow too)")
    max_depth: int = Field(
        default=DEFAULT_MAX_DEPTH, ge=1, le=5, description="Discovery: how far from the index "
        "(its links are depth 1)")
    max_pages: int = Field(
        default=DEFAULT_MAX_PAGES, ge=1, le=1000, description="Discovery: index, \"next\" and "
        "through pages read in one run")
    max_links: int = Field(
        default=DEFAULT_MAX_LINKS, ge=1, le=100_000, description="Discovery: links read from one "
        "page; the rest of the page is ignored")
    max_new: int = Field(
        default=DEFAULT_MAX_NEW, ge=0, le=100_000, description="Discovery: results not fetched "
        "yet that one run requests; the rest wait for the next run")
    recheck: int = Field(
        default=DEFAULT_RECHECK, ge=0, le=10_000, description="Discovery: the most recently found "
        "results asked again, conditionally, each run")
    retry_failed_days: int = Field(
        default=DEFAULT_RETRY_FAILED_DAYS, ge=1, le=MAX_RETRY_FAILED_DAYS, description="Discovery: "
        "a link that failed for good is tried again after this many days, then twice as long each "
        "time")
    max_seconds: float = Field(
        default=DEFAULT_MAX_SECONDS, gt=0, description="Discovery: a run of this source starts no "
        "request after this long")
    max_run_bytes: int = Field(
        default=DEFAULT_MAX_RUN_BYTES, gt=0, description="Discovery: ... or after this many bytes")

    _lists = field_validator("index", "follow", "through", "hosts", mode="before")(_texts)

    @field_validator("url", "index")
    @classmethod
    def _http_urls(cls, value: Any) -> Any:
        for url in [value] if isinstance(value, str) else value or ():
            if not _http(url):
                raise _Refused((), "not an http(s) URL", url)
        return value

    @field_validator("url_pattern")
    @classmethod
    def _pattern(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(value) if f is not None}
        except ValueError as exc:
            raise _Refused((), f"not a pattern ({exc})", value) from None
        if fields - PLACEHOLDERS:
            raise _Refused((), "url_pattern knows {yyyy} {yy} {mm} {dd} {m} {d}, not "
                           + ", ".join(f"{{{f}}}" for f in sorted(fields - PLACEHOLDERS)), value)
        if not _http(expand_pattern(value, dt.date(2000, 1, 1))):
            raise _Refused((), "not an http(s) URL", value)
        return value

    @field_validator("follow", "through")
    @classmethod
    def _link_globs(cls, value: list[str] | None) -> list[str] | None:
        for pattern in value or ():
            try:
                link_glob(pattern)
            except ValueError as exc:
                raise _Refused((), str(exc), pattern) from None
        return value

    @field_validator("hosts")
    @classmethod
    def _lower(cls, value: list[str] | None) -> list[str] | None:
        return [h.lower() for h in value] if value is not None else None

    @field_validator("weekdays")
    @classmethod
    def _weekdays(cls, value: list[str]) -> list[str]:
        for name in value:
            if name.lower()[:3] not in WEEKDAYS:
                raise _Refused((), f"{name!r} is not a weekday (mon ... sun)", value)
        return value

    @field_validator("format")
    @classmethod
    def _format(cls, value: str | None) -> str | None:
        if value is not None and value not in FORMATS:
            raise _Refused((), f"not a known format{_suggest(value, FORMATS)}; the formats are "
                           f"{', '.join(FORMATS)}", value)
        return value

    @field_validator("schedule")
    @classmethod
    def _schedule(cls, value: str) -> str:
        if value in ("nightly", "hourly", "always"):
            return value
        from cronsim import CronSim, CronSimError

        try:
            CronSim(value, dt.datetime(2000, 1, 1))
        except CronSimError as exc:
            raise _Refused((), f"expected nightly, hourly, always or a cron expression ({exc})",
                           value) from None
        return value

    @model_validator(mode="after")
    def _one_kind_of_source(self) -> SourceTable:
        """A page, a pattern of pages or index pages, each with the keys that go with it."""
        given = self.model_fields_set
        if self.index is not None:
            if self.url is not None or self.url_pattern is not None:
                raise _Refused((), "give one of url, url_pattern or index")
            if not self.follow:
                raise _Refused((), "index needs follow = \"<glob>\" (the links to fetch, e.g. "
                               "\"20*/*E.htm\")")
        else:
            extra = sorted(given & _DISCOVERY_KEYS)
            if extra:
                raise _Refused((extra[0],), "goes with index, not url or url_pattern")
            if (self.url is None) == (self.url_pattern is None):
                raise _Refused((), "give either url or url_pattern (or index and follow)")
        dated = self.last_days is not None or self.start is not None or self.end is not None \
            or bool(self.weekdays)
        if self.url_pattern is None:
            if dated:
                raise _Refused((), "last_days, from, to and weekdays go with url_pattern, not "
                               + ("url" if self.url is not None else "index"))
        else:
            if (self.last_days is None) == (self.start is None):
                raise _Refused((), "url_pattern needs last_days = N or from = YYYY-MM-DD "
                               "(to = YYYY-MM-DD optional)")
            if self.start is not None and self.end is not None and (
                    self.end < self.start
                    or (self.end - self.start).days >= MAX_URLS_PER_SOURCE):
                raise _Refused(("to",), f"from..to must be in order and at most "
                               f"{MAX_URLS_PER_SOURCE} days, got {self.start}..{self.end}",
                               self.end)
        return self


class SourcesFile(_Table):
    """``sources.toml``: the club pages ``clubratings scrape`` and the nightly run fetch, and
    how politely (docs/scraping.md)."""

    allow: list[_PathText] = Field(
        default_factory=list, description="The only hosts ever contacted: `host` (any port) or "
        "`host:port` (that port only)")
    contact: str | None = Field(
        default=None, description="Who to ask about the requests; goes into the user agent: "
        "clubratings/<version> (+contact)")
    user_agent: str | None = Field(
        default=None, description="Replaces the whole user agent (keep a contact in it)")
    rate_limit_seconds: float = Field(default=DEFAULT_RATE_LIMIT, ge=0, description="Pause between "
                                      "requests to one host")
    timeout: float = Field(default=DEFAULT_TIMEOUT, gt=0, description="Seconds per request")
    retries: int = Field(
        default=DEFAULT_RETRIES, ge=0, description="Extra attempts on timeouts and HTTP "
        "429/502/503/504")
    backoff_seconds: float = Field(default=DEFAULT_BACKOFF, ge=0, description="The first back-off "
                                   "before a retry; doubled on each further attempt")
    max_bytes: int = Field(
        default=DEFAULT_MAX_BYTES, gt=0, description="A larger response is an error")
    source: list[SourceTable] = Field(default_factory=list, description="The sources, one "
                                      "[[source]] table each (below)")

    @field_validator("allow")
    @classmethod
    def _lower(cls, value: list[str]) -> list[str]:
        return [a.lower() for a in value]

    @model_validator(mode="after")
    def _hosts_allowed(self) -> SourcesFile:
        for i, source in enumerate(self.source):
            for host in source.hosts or ():
                parts = urlsplit(f"http://{host}/")
                netloc = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname
                if "/" in host or not (set(self.allow) & {parts.hostname, netloc}):
                    raise _Refused(("source", i, "hosts"), f"{host!r} must be a host name "
                                   f"that is also on the allow-list (allow = {self.allow!r})",
                                   source.hosts)
        return self


# ---------------------------------------------------------------- reading a file

def _suggest(key: str, known: Mapping[str, object] | typing.Iterable[str]) -> str:
    near = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _read_toml(path: Path, error: type[ConfigError]) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"configuration file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: not readable ({exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None


def read_config_file(path: Path | None, *, schemes: bool = True) -> ClubratingsFile:
    """``clubratings.toml`` at ``path`` checked against the schema (``None``: no file, every
    default). ``schemes``: check each pool's scheme and options too. A refusal is a
    :class:`ConfigError` of one line."""
    data = {} if path is None else _read_toml(path, ConfigError)
    return _validate(ClubratingsFile, data, str(path or CONFIG_NAME), ConfigError,
                     context={"schemes": schemes})


def read_sources_file(path: Path) -> SourcesFile:
    """The sources file at ``path`` checked against the schema; :class:`ScrapeConfigError`."""
    return _validate(SourcesFile, _read_toml(path, ScrapeConfigError), str(path),
                     ScrapeConfigError)


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    """A configuration read and checked: ``clubratings.toml`` (``file``; ``None``: none, the
    defaults) and the sources file it names (``sources``; ``None`` when there is none)."""

    file: Path | None
    root: Path
    """The folder paths are relative to: the file's, or the current folder without a file."""
    config: ClubratingsFile
    sources_file: Path
    sources: SourcesFile | None

    def lines(self) -> Iterator[str]:
        """The configuration as ``clubratings config check`` prints it (:func:`resolved_lines`)."""
        return resolved_lines(self.config, self.root, self.file, self.sources, self.sources_file)


def check_configuration(path: Path | str | None = None, *, schemes: bool = True) -> Checked:
    """Read and check ``path``, or ``./clubratings.toml`` if it exists, or take the defaults;
    then the sources file it names (``[paths] scrape``), if there is one. The first refusal is
    a :class:`ConfigError` (:class:`ScrapeConfigError` for the sources file) of one line."""
    if path is None:
        candidate = Path.cwd() / CONFIG_NAME
        path = candidate if candidate.exists() else None
    file = Path(path) if path is not None else None
    config = read_config_file(file, schemes=schemes)
    root = file.resolve().parent if file is not None else Path.cwd()
    sources_file = root / config.paths.scrape
    sources = read_sources_file(sources_file) if sources_file.is_file() else None
    return Checked(file, root, config, sources_file, sources)


_Model = typing.TypeVar("_Model", bound=BaseModel)


def _validate(model: type[_Model], data: dict[str, Any], file: str, error: type[ConfigError],
              context: dict[str, Any] | None = None) -> _Model:
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise error(_one_line(model, data, file, exc)) from None


def _one_line(model: type[BaseModel], data: Mapping[str, Any], file: str,
              exc: ValidationError) -> str:
    """The first refusal of ``exc`` as one line: file, section, key, value, what is allowed."""
    errors = exc.errors(include_url=False)
    # an unknown key first: it often explains why another one is missing
    error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = tuple(str(part) if not isinstance(part, int) else part for part in error["loc"])
    value, shown = error.get("input"), True
    refused = (error.get("ctx") or {}).get("error")
    if isinstance(refused, _Refused):
        loc = loc + refused.key
        value, shown, problem = refused.value, refused.shown, refused.problem
    elif error["type"] == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        known = [f.alias or n for n, f in parent.model_fields.items()] if parent else []
        key = str(loc[-1])
        hint = parent.hints.get(key) if parent and issubclass(parent, _Table) else None
        if len(loc) == 1 and parent is model and _is_table(value):
            sections = {k: _header(model, k) for k in known
                        if _inner_model(getattr(_field_by_alias(model, k), "annotation", None))}
            near = difflib.get_close_matches(key, list(sections), n=1, cutoff=0.6)
            brackets = "[[{}]]" if isinstance(value, list) else "[{}]"
            return (f"{file}: {brackets.format(key)}: unknown section"
                    + (f" (did you mean {sections[near[0]]}?)" if near else "")
                    + f"; the sections are {', '.join(sections.values())}")
        problem = (f"unknown key ({hint})" if hint else
                   f"unknown key{_suggest(key, known)}" if _suggest(key, known) else
                   f"unknown key; the keys here are {', '.join(known)}")
        shown = False
    elif error["type"] == "missing":
        problem, shown = "missing (required)", False
    else:
        field = _field_at(model, loc)
        problem = f"expected {_allowed(field)}" if field else str(error["msg"])
    section, key = _where(model, data, loc)
    said = f" = {_shown(value)}" if shown else ""
    return f"{file}: {' '.join(p for p in (section, key + said) if p)}: {problem}"


def _is_table(value: Any) -> bool:
    """A TOML table, or an array of them."""
    return isinstance(value, dict) or (isinstance(value, list) and bool(value)
                                       and all(isinstance(v, dict) for v in value))


def _header(model: type[BaseModel], key: str) -> str:
    """``[paths]``, or ``[[pools]]`` for an array of tables."""
    field = _field_by_alias(model, key)
    many = field is not None and typing.get_origin(field.annotation) is list
    return f"[[{key}]]" if many else f"[{key}]"


def _where(model: type[BaseModel], data: Mapping[str, Any], loc: tuple[Any, ...]
           ) -> tuple[str, str]:
    """The section (``[paths]``, ``[[pools]] bridge``, ``[[source]] #1 (club)``) and the key
    (``options.cutover``) of a place in the file."""
    if not loc:
        return "", ""
    head, rest = str(loc[0]), loc[1:]
    field = _field_by_alias(model, head)
    if field is None or _inner_model(field.annotation) is None:
        return "", _dotted(loc)
    if not rest:  # the table itself
        return "", head
    if typing.get_origin(field.annotation) is not list:
        return f"[{head}]", _dotted(rest)
    if not rest or not isinstance(rest[0], int):
        return "", _dotted(loc)
    items = data.get(head)
    item = items[rest[0]] if isinstance(items, list) and rest[0] < len(items) else None
    item = item if isinstance(item, dict) else {}
    label = f"#{rest[0] + 1}"
    name = item.get("name")
    if _inner_model(field.annotation) is PoolTable and isinstance(name, str) and name.strip():
        name = name.strip()
        label = name if re.fullmatch(r"[\w.-]+", name) else repr(name)
    elif isinstance(item.get("club"), str) and item["club"].strip():
        label += f" ({item['club'].strip()})"
    return f"[[{head}]] {label}", _dotted(rest[1:])


def _dotted(parts: tuple[Any, ...]) -> str:
    words = [p for p in parts if not isinstance(p, int)]
    return ".".join(w if re.fullmatch(r"[\w-]+", str(w)) else json.dumps(str(w))
                    for w in words)


def _shown(value: Any) -> str:
    """A value as the file wrote it: text quoted, ``true``, ``2013-10-01``, ``92``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return f"{value:g}"
    return repr(value)


def _field_by_alias(model: type[BaseModel], key: str) -> FieldInfo | None:
    for name, field in model.model_fields.items():
        if (field.alias or name) == key:
            return field
    return None


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    """The table type a field holds (itself, or in a list or an optional)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    current: type[BaseModel] | None = model
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        field = _field_by_alias(current, str(part))
        if field is None:
            if str(part).isdigit():
                continue
            return None
        current = _inner_model(field.annotation)
    return current


def _field_at(model: type[BaseModel], loc: tuple[Any, ...]) -> FieldInfo | None:
    current: type[BaseModel] | None = model
    found: FieldInfo | None = None
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        field = _field_by_alias(current, str(part))
        if field is None:
            continue  # a list index, a table's key, a branch of a union
        found, current = field, _inner_model(field.annotation)
    return found


# ---------------------------------------------------------------- what a key allows

def _extra(field: FieldInfo) -> dict[str, Any]:
    extra = field.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def _bounds(metadata: list[Any]) -> str:
    low = high = None
    low_open = high_open = False
    for item in metadata:  # Field(ge=..., gt=..., le=..., lt=...)
        if getattr(item, "ge", None) is not None:
            low = item.ge
        elif getattr(item, "gt", None) is not None:
            low, low_open = item.gt, True
        elif getattr(item, "le", None) is not None:
            high = item.le
        elif getattr(item, "lt", None) is not None:
            high, high_open = item.lt, True
    if low is not None and high is not None:
        return f" from {low:g}{' (not included)' if low_open else ''} to " \
               f"{'below ' if high_open else ''}{high:g}"
    if low is not None:
        return f" above {low:g}" if low_open else f" from {low:g} up"
    if high is not None:
        return f" below {high:g}" if high_open else f" up to {high:g}"
    return ""


def _kind(annotation: Any) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return "one of " + ", ".join(json.dumps(a) if a == "" else str(a) for a in args)
    if origin in (types.UnionType, typing.Union):
        kinds = [_kind(a) for a in args if a is not type(None)]
        return " or ".join(kinds)
    if origin is Annotated:
        return _kind(args[0])
    if origin is list:
        return f"a list of {_kind(args[0]).removeprefix('a ').removeprefix('an ')}s"
    if origin is dict:
        return "a table"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a table"
    return {str: "a text", int: "a whole number", float: "a number", bool: "true or false",
            dt.date: "a date YYYY-MM-DD"}.get(annotation, str(annotation))


def _allowed(field: FieldInfo) -> str:
    """What a key takes, in words: its type, its range or its choices."""
    extra = _extra(field)
    if "allowed" in extra:
        return str(extra["allowed"])
    if "choices" in extra:
        choices = ", ".join(extra["choices"])
        return f"a list of: {choices}" if extra.get("many") else f"one of {choices}"
    text = _kind(field.annotation) + _bounds(field.metadata)
    if text == "a text" and any(getattr(m, "min_length", 0) for m in field.metadata):
        text = "a non-empty text"
    if field.annotation is not None and type(None) in typing.get_args(field.annotation):
        text += " (or left out)"
    return text


def _option_allowed(spec: OptionSpec) -> str:
    """What a scheme option takes (ratings/_options.py), in the words of :func:`_allowed`."""
    if isinstance(spec, Choice):
        return "one of " + spec.describe()
    if isinstance(spec, Number | Date):
        return spec.describe()
    return str(spec)


# ---------------------------------------------------------------- paths and globs

_MAGIC = re.compile(r"[*?[]")


def split_glob(root: Path, pattern: str) -> tuple[Path, str]:
    """``pattern`` (relative to ``root``, or absolute) as the folder it starts from and the
    pattern below it, for :meth:`Path.glob` (which takes relative patterns only):
    ``/data/club/*.csv`` -> ``/data/club``, ``*.csv``. Without a wildcard the pattern below is
    empty and the folder is the file itself."""
    parts = (root / pattern).parts
    for i, part in enumerate(parts):
        if _MAGIC.search(part):
            return Path(*parts[:i]), "/".join(parts[i:])
    return Path(*parts), ""


# ---------------------------------------------------------------- the resolved configuration

def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = [f"{_key(k)} = {_toml(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    if isinstance(value, BaseModel):
        return _toml({(f.alias or n): getattr(value, n)
                      for n, f in type(value).model_fields.items()})
    return json.dumps(str(value))


def _key(name: Any) -> str:
    return str(name) if re.fullmatch(r"[\w-]+", str(name)) else json.dumps(str(name))


def _resolve(field: FieldInfo, value: Any, root: Path) -> Any:
    kind = _extra(field).get("path")
    if value is None or kind is None:
        return value
    if kind == "globs":
        return [str(root / v) for v in value]
    return str(root / value)


def _table_lines(table: BaseModel, root: Path, prefix: str,
                 skip: tuple[str, ...] = ()) -> Iterator[str]:
    """The keys of one table, then its tables (``[prefix.key]``)."""
    inner: list[tuple[str, BaseModel]] = []
    for name, field in type(table).model_fields.items():
        key = field.alias or name
        value = getattr(table, name)
        if name in skip:
            continue
        if isinstance(value, BaseModel):
            inner.append((key, value))
            continue
        value = _resolve(field, value, root)
        if isinstance(table, PoolTable) and name == "scheme":
            value = table.resolved_scheme
        if value is None:
            yield f"# {key}: not set"
        elif isinstance(value, list) and len(_toml(value)) > 80:
            yield f"{key} = ["
            yield from (f"    {_toml(v)}," for v in value)
            yield "]"
        else:
            yield f"{key} = {_toml(value)}"
    for key, value in inner:
        yield f"[{prefix}.{key}]"
        yield from _table_lines(value, root, f"{prefix}.{key}")


def resolved_lines(config: ClubratingsFile, root: Path, file: Path | None,
                   sources: SourcesFile | None, sources_file: Path) -> Iterator[str]:
    """The configuration as ``clubratings config check`` prints it: every key of both files
    with its value, defaults filled in, paths resolved (TOML, the sources file's keys after a
    comment line naming it)."""
    yield f"# {file.resolve() if file else 'no ' + CONFIG_NAME + ': the defaults'} " \
          f"(paths relative to {root})"
    for name, field in ClubratingsFile.model_fields.items():
        value = getattr(config, name)
        if name == "pools":
            for pool in value:
                yield ""
                yield "[[pools]]"
                yield from _table_lines(pool, root, "pools", skip=("options",))
                scheme = SCHEMES.get(pool.resolved_scheme)
                if scheme is None:
                    continue
                yield f"[pools.options]  # every option of {scheme.name}; # set: written " \
                      "in the file"
                specs = option_specs(scheme.params_type)
                for option in sorted(specs):
                    if option in pool.options:
                        shown = specs[option].read(option, pool.options[option])
                        yield f"{option} = {_toml(specs[option].write(shown))}  # set"
                    else:
                        default = specs[option].write(getattr(scheme.defaults, option))
                        yield f"{option} = {_toml(default)}"
            continue
        yield ""
        yield f"[{field.alias or name}]"
        yield from _table_lines(value, root, field.alias or name)
    yield ""
    if sources is None:
        yield f"# {sources_file}: none (no sources: nothing is fetched)"
        return
    yield f"# {sources_file}"
    yield from _table_lines(sources, sources_file.parent, "", skip=("source",))
    for source in sources.source:
        yield ""
        yield "[[source]]"
        yield from _table_lines(source, sources_file.parent, "source")


# ---------------------------------------------------------------- the reference page

def attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a class's fields (``x: int = 1`` then ``\"\"\"...\"\"\"``),
    by field name, each joined into one line."""
    import ast
    import inspect
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) \
                and isinstance(after.value.value, str):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _default(field: FieldInfo) -> str:
    if field.default_factory is not None:
        value = field.get_default(call_default_factory=True)
        if isinstance(value, BaseModel):
            return "(below)"
        return f"`{_toml(value)}`"
    if field.default is None or field.is_required():
        return "required" if field.is_required() else "none"
    return f"`{_toml(field.default)}`"


def _table_rows(model: type[BaseModel]) -> Iterator[str]:
    yield "| key | type and allowed values | default | description |"
    yield "|---|---|---|---|"
    for name, field in model.model_fields.items():
        yield (f"| `{field.alias or name}` | {_cell(_allowed(field))} | {_default(field)} | "
               f"{_cell(field.description or '')} |")


def _doc(model: type[BaseModel]) -> str:
    return " ".join((model.__doc__ or "").split())


_GENERATED = ("<!-- Generated from flows/_schema.py by `clubratings config docs > "
              "docs/configuration.md`; tests/test_config_schema.py checks it is current. -->")
_INTRO = ("Every key `clubratings.toml` and `sources.toml` take, with its type, its allowed "
          "values, its default and what it does. Both files are checked as a whole when they "
          "are read, before any result file is read or anything is written: an unknown key is "
          "refused with the nearest known key suggested, and a wrong value with what the key "
          "allows, in one line naming the file, the section, the key and the value (exit code "
          "2). `clubratings config check` prints the configuration in force, defaults filled "
          "in and paths resolved.")
_PATHS_NOTE = ("Paths are relative to the folder of the file that names them, or absolute; so "
               "are the glob patterns of `[paths] sources` and `[identity] register`.")


def reference() -> str:
    """docs/configuration.md: every key of both files, from the declarations above."""
    out = ["# Configuration reference", "", _GENERATED, "", _INTRO, "", _PATHS_NOTE, "",
        f"## {CONFIG_NAME}",
        "",
        _doc(ClubratingsFile).replace("``", "`"),
        "",
    ]
    for name, field in ClubratingsFile.model_fields.items():
        inner = _inner_model(field.annotation)
        assert inner is not None
        title = f"[[{name}]]" if name == "pools" else f"[{name}]"
        out += [f"### {title}", "", _doc(inner).replace("``", "`"), ""]
        out += list(_table_rows(inner))
        out.append("")
        if name == "pools":
            out += ["#### `list` of a pool", "", _doc(ListTable), ""]
            out += list(_table_rows(ListTable))
            out.append("")
            out += list(_scheme_options())
    out += [f"## {SOURCES_NAME}", "", _doc(SourcesFile).replace("``", "`"), "",
            "### Top level", ""]
    out += list(_table_rows(SourcesFile))
    out += ["", "### [[source]]", "", _doc(SourceTable), ""]
    out += list(_table_rows(SourceTable))
    out.append("")
    return "\n".join(out)


def _scheme_options() -> Iterator[str]:
    yield "#### Scheme options (`options` of a pool)"
    yield ""
    yield ("A pool's `options` are its scheme's options, as `clubratings rate --scheme NAME "
           "--set key=value` takes them; their values are text (`\"30\"`), or a number or a "
           "date written bare. Each scheme declares its options once (ratings/_params.py); a "
           "pool's options are checked against that declaration when the file is read.")
    yield ""
    first: dict[type, str] = {}  # params type -> the first scheme listed with it
    for name, scheme in SCHEMES.items():
        specs = option_specs(scheme.params_type)
        yield f"##### `{name}`"
        yield ""
        yield _cell(scheme.description) + "."
        yield ""
        if scheme.params_type in first:
            same = SCHEMES[first[scheme.params_type]]
            differ = [f"`{o} = {json.dumps(spec.write(getattr(scheme.defaults, o)))}`"
                      for o, spec in specs.items()
                      if getattr(scheme.defaults, o) != getattr(same.defaults, o)]
            yield (f"The options of `{same.name}`, with the defaults "
                   f"{', '.join(differ) or 'the same'}.")
            yield ""
            continue
        first[scheme.params_type] = name
        docs = attribute_docs(scheme.params_type)
        yield "| option | allowed values | default | description |"
        yield "|---|---|---|---|"
        for option, spec in specs.items():
            default = spec.write(getattr(scheme.defaults, option))
            text = docs.get(option, "").replace("``", "`")
            yield (f"| `{option}` | {_cell(_option_allowed(spec))} | `{json.dumps(default)}` | "
                   f"{_cell(text)} |")
        yield ""
