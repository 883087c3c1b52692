"""The federation's configuration: where files come from, where outputs go, which lists to rate.

Read from ``clubratings.toml`` (TOML) and checked as a whole against the configuration's schema
(flows/_schema.py; every key, its type, range and default, listed in docs/configuration.md)
before anything else happens; paths in it are relative to the file's folder, or absolute.
Without a file, the defaults apply with the current folder as the root. The sources file the
file names (``[paths] scrape``, default ``sources.toml`` beside it) is checked at the same time.

    [federation]
    name = "Example Bridge Federation"   # named on the site's index (default "Rating lists")

    [paths]
    warehouse = "data/clubratings.duckdb"
    inbox = "inbox"              # dropped files; loaded ones move to inbox/archive/
    public = "public"            # published lists
    sources = ["fixtures/club/*.csv"]   # read-only files scanned on every run (never moved)

    [identity]
    register = ["registers/*.csv"]       # member registers, loaded in name order before results
    decisions = "identity/decisions.csv" # review answers, merges, splits (kept in version control)
    fuzzy_accept = 92                    # a fuzzy name match is taken without asking from here up
    fuzzy_review = 80                    # ... and offered for review from here up
    fuzzy_margin = 5                     # ... when no other candidate is this close to the best

    [[pools]]                    # one rating list each
    name = "bridge"
    game = "bridge"
    scheme = "belo2"
    options = { period = "quarter", cutover = "2016-01-01" }
    scoring = ["MP"]             # separate lists (docs/rules/bridge-belo.md §12): only these scoring methods ...
    kinds = ["pairs"]            # ... and these kinds; leave out for all
    abroad = { "PZBS" = 550 }    # organisers abroad and their assumed field rating (§5)

The result is :class:`Config` with a :class:`PoolConfig` per pool, the dataclasses the rest of
the code reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from games import game
from parsers._limits import Limits
from warehouse.identity import IdentitySettings

from ._schema import CONFIG_NAME, ClubratingsFile, ConfigError, check_configuration, split_glob

__all__ = ["CONFIG_NAME", "Config", "ConfigError", "PoolConfig", "config_of", "load_config"]


@dataclass(frozen=True, slots=True)
class PoolConfig:
    """One rating list: which game's events, rated by which scheme with which options."""

    name: str
    game: str = "bridge"
    scheme: str = "belo2"
    options: Mapping[str, str] = field(default_factory=dict)
    scoring: tuple[str, ...] = ()
    """Only events with these scoring methods (docs/rules/bridge-belo.md §12); empty: all."""
    kinds: tuple[str, ...] = ()
    """Only events of these kinds (§12); empty: all."""
    abroad: Mapping[str, float | None] = field(default_factory=dict)
    """Organisers whose events are played abroad (§5), with the assumed field rating of their
    events (used with the option ``abroad=assumed``), or none."""
    min_events: int = 5
    """``list.min_events``: events (go: games) a player needs to be ranked; fewer: provisional
    (docs/site.md, "Who is on a list")."""
    active_days: int = 365
    """``list.active_days``: a player without an event in this many days up to the end of an
    edition's period is inactive, listed apart."""
    max_deviation: float | None = None
    """``list.max_deviation`` (go): a deviation above this keeps a player provisional."""
    periods: str = "tournament"
    """Go pools: what one rating period is (docs/rules/go-rfg.md "One rating period"): a
    ``tournament``, or the ``month`` / ``quarter`` / ``year`` of the game."""
    names: str = ""
    """``names``: the order names are written in on the pool's lists, pages and files:
    ``surname-first`` (``Horváthová Mária``, as a go federation's register writes them) or
    ``as-written`` (as the player's record has it); ``""``: the game's default, surname-first
    for go, as-written for the other games (docs/site.md, "Name order")."""

    @property
    def name_order(self) -> str:
        """``names``, or the game's default when not set."""
        return self.names or game(self.game).name_order


@dataclass(frozen=True, slots=True)
class Config:
    root: Path
    warehouse: Path
    inbox: Path
    public: Path
    sources: tuple[str, ...] = ()
    pools: tuple[PoolConfig, ...] = (PoolConfig("bridge"),)
    registers: tuple[str, ...] = ()
    decisions: Path | None = None
    clubs: Path | None = None
    """The club register (``[identity] clubs``), loaded before any result file."""
    identity: IdentitySettings = field(default_factory=IdentitySettings)
    task_runner: str = "default"
    """``[run] task_runner``: ``default``, or ``dask`` to parse files in parallel (one writer)."""
    prefect: str = "auto"
    """``[run] prefect``: whether ``clubratings run`` runs as the Prefect flow: ``auto`` (when
    a Prefect server is configured), ``always`` or ``never``."""
    limits: Limits = field(default_factory=Limits)
    """``[limits]``: how much work one file may cost (parsers/_limits.py)."""
    correction_hold: float = 0.1
    """``[ingest] correction_hold``: a correction that drops more than this share of the units
    or players of the event it replaces, or changes its kind or scoring, waits for review."""
    federation: str = "Rating lists"
    """``[federation] name``: who publishes the lists, named on the site's index."""
    scrape: Path | None = None
    """``[paths] scrape``: the sources file (default ``sources.toml`` in the root); ``None``
    for a configuration made in code, whose sources file is found beside ``root``."""

    @property
    def archive(self) -> Path:
        return self.inbox / "archive"

    @property
    def rejected(self) -> Path:
        return self.inbox / "rejected"

    def source_files(self) -> list[Path]:
        """Files matched by the ``sources`` patterns, in a stable order."""
        return self._glob(self.sources)

    def register_files(self) -> list[Path]:
        """Member registers, in name order (older registers first when named by date)."""
        return self._glob(self.registers)

    def _glob(self, patterns: tuple[str, ...]) -> list[Path]:
        """The files ``patterns`` match, each relative to :attr:`root` or absolute."""
        found: set[Path] = set()
        for pattern in patterns:
            folder, below = split_glob(self.root, pattern)
            if below:
                found.update(p for p in folder.glob(below) if p.is_file())
            elif folder.is_file():
                found.add(folder)
        return sorted(found)


def load_config(path: Path | str | None = None, *, schemes: bool = True) -> Config:
    """Read ``path``, or ``./clubratings.toml`` if it exists, or use the defaults, and the
    sources file it names; every key is checked against the schema (flows/_schema.py) before
    anything else is read, and a refusal is a :class:`ConfigError` of one line naming the file,
    section, key and value. ``schemes``: check each pool's scheme against its game and its
    options against the scheme's declaration (loads no scheme)."""
    checked = check_configuration(path, schemes=schemes)
    return config_of(checked.config, checked.root)


def config_of(model: ClubratingsFile, root: Path) -> Config:
    """The :class:`Config` of a checked ``clubratings.toml`` whose folder is ``root``."""
    paths, identity = model.paths, model.identity
    return Config(
        root=root,
        warehouse=root / paths.warehouse,
        inbox=root / paths.inbox,
        public=root / paths.public,
        sources=tuple(paths.sources),
        pools=tuple(PoolConfig(
            name=pool.name,
            game=pool.game,
            scheme=pool.resolved_scheme,
            options=dict(pool.options),
            scoring=tuple(pool.scoring),
            kinds=tuple(pool.kinds),
            abroad=dict(pool.abroad),
            min_events=pool.list_.min_events,
            active_days=pool.list_.active_days,
            max_deviation=pool.list_.max_deviation,
            periods=pool.periods,
            names=pool.names,
        ) for pool in model.pools),
        registers=tuple(identity.registers),
        decisions=root / identity.decisions if identity.decisions else None,
        clubs=root / identity.clubs if identity.clubs else None,
        identity=IdentitySettings(fuzzy_accept=identity.fuzzy_accept,
                                  fuzzy_review=identity.fuzzy_review,
                                  fuzzy_margin=identity.fuzzy_margin,
                                  register_games=tuple(identity.register_games)),
        task_runner=model.run.task_runner,
        prefect=model.run.prefect,
        limits=model.limits.limits(),
        correction_hold=model.ingest.correction_hold,
        federation=model.federation.name,
        scrape=root / paths.scrape,
    )
