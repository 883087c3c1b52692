"""The federation's configuration: where files come from, where outputs go, which lists to rate.

Read from ``clubratings.toml`` (TOML); paths in it are relative to the file's folder. Without a
file, the built-in defaults below apply with the current folder as the root.

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
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import GAMES, UnknownGame, game
from parsers._limits import Limits
from warehouse.identity import IdentitySettings

__all__ = ["CONFIG_NAME", "Config", "ConfigError", "PoolConfig", "check_schemes", "load_config"]

CONFIG_NAME = "clubratings.toml"


class ConfigError(Exception):
    """The configuration file is missing a value or has one of the wrong kind."""


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
        return self.names or ("surname-first" if self.game == "go" else "as-written")


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
        found: set[Path] = set()
        for pattern in patterns:
            found.update(p for p in self.root.glob(pattern) if p.is_file())
        return sorted(found)


def _expect(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = table[key]
    if not isinstance(value, kind):
        raise ConfigError(
            f"{where}: {key} must be a {kind.__name__}, got {value!r}"
        )
    return value


def _periods(pool: Mapping[str, Any], where: str) -> str:
    value = _expect(pool, "periods", str, where) if "periods" in pool else "tournament"
    if value not in ("tournament", "month", "quarter", "year"):
        raise ConfigError(f"{where}: periods must be tournament, month, quarter or year, "
                          f"got {value!r}")
    return value


NAME_ORDERS = ("surname-first", "as-written")
"""The values of a pool's ``names``."""


def _names(pool: Mapping[str, Any], where: str) -> str:
    value = _expect(pool, "names", str, where) if "names" in pool else ""
    if value and value not in NAME_ORDERS:
        raise ConfigError(f"{where}: names must be surname-first or as-written, got {value!r}")
    return value


def _task_runner(run: Mapping[str, Any], where: str) -> str:
    value = _expect(run, "task_runner", str, where) if "task_runner" in run else "default"
    if value not in ("default", "dask"):
        raise ConfigError(f"{where}: task_runner must be default or dask, got {value!r}")
    return value


def _prefect(run: Mapping[str, Any], where: str) -> str:
    value = _expect(run, "prefect", str, where) if "prefect" in run else "auto"
    if value not in ("auto", "always", "never"):
        raise ConfigError(f"{where}: prefect must be auto, always or never, got {value!r}")
    return value


def _list_policy(pool: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``list = { min_events = 5, active_days = 365, max_deviation = 120 }`` of a pool."""
    table = pool.get("list", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: list must be a table, got {table!r}")
    unknown = sorted(set(table) - {"min_events", "active_days", "max_deviation"})
    if unknown:
        raise ConfigError(f"{where}: list: unknown setting(s) {', '.join(unknown)}; known: "
                          "min_events, active_days, max_deviation")
    out: dict[str, Any] = {}
    for key in ("min_events", "active_days"):
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{where}: list.{key} must be a whole number from 0, "
                                  f"got {value!r}")
            out[key] = value
    if "max_deviation" in table:
        value = table["max_deviation"]
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ConfigError(f"{where}: list.max_deviation must be a positive number, "
                              f"got {value!r}")
        out["max_deviation"] = float(value)
    return out


def check_schemes(pools: list[PoolConfig] | tuple[PoolConfig, ...], where: str) -> None:
    """Refuse a pool whose scheme is unknown or does not rate its game (a go pool rated by a
    bridge scheme), in one line naming the pool. Imports the rating schemes."""
    from ratings import SCHEMES

    for pool in pools:
        at = f"{where} [[pools]] {pool.name!r}"
        scheme = SCHEMES.get(pool.scheme)
        if scheme is None:
            raise ConfigError(f"{at}: scheme {pool.scheme!r} is not known; the schemes are "
                              f"{', '.join(sorted(SCHEMES))}")
        kind = game(pool.game)
        if scheme.reads != kind.frame:
            rates = [g.name for g in GAMES.values() if g.frame == scheme.reads]
            fits = sorted(n for n, s in SCHEMES.items() if s.reads == kind.frame)
            raise ConfigError(f"{at}: scheme {pool.scheme!r} rates {' and '.join(rates)}, not "
                              f"{pool.game}; {pool.game} is rated by {', '.join(fits)}")


def load_config(path: Path | str | None = None, *, schemes: bool = True) -> Config:
    """Read ``path``, or ``./clubratings.toml`` if it exists, or use the defaults.
    ``schemes``: check each pool's scheme against its game too (:func:`check_schemes`; it
    loads the rating schemes, which a command that rates nothing may skip)."""
    if path is None:
        candidate = Path.cwd() / CONFIG_NAME
        if not candidate.exists():
            root = Path.cwd()
            return Config(root, root / "data/clubratings.duckdb", root / "inbox", root / "public")
        path = candidate
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"configuration file {str(path)!r} does not exist") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    root = path.resolve().parent
    paths = data.get("paths", {})
    where = f"{path} [paths]"
    warehouse = _expect(paths, "warehouse", str, where) if "warehouse" in paths else "data/clubratings.duckdb"
    inbox = _expect(paths, "inbox", str, where) if "inbox" in paths else "inbox"
    public = _expect(paths, "public", str, where) if "public" in paths else "public"
    sources = _expect(paths, "sources", list, where) if "sources" in paths else []
    pools = []
    for i, pool in enumerate(data.get("pools", [{"name": "bridge"}]), 1):
        where = f"{path} [[pools]] #{i}"
        if "name" not in pool:
            raise ConfigError(f"{where}: a pool needs a name")
        options = pool.get("options", {})
        if not isinstance(options, dict):
            raise ConfigError(f"{where}: options must be a table, got {options!r}")
        abroad = pool.get("abroad", {})
        if not isinstance(abroad, dict) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) or v == ""
                for v in abroad.values()):
            raise ConfigError(f"{where}: abroad must be a table of organiser = assumed field "
                              f"rating (a number, or \"\" for none), got {abroad!r}")
        name = _expect(pool, "name", str, where)
        where = f"{path} [[pools]] {name!r}"
        try:
            kind = game(_expect(pool, "game", str, where) if "game" in pool else "bridge")
        except UnknownGame as exc:
            raise ConfigError(f"{where}: {exc}") from None
        pools.append(PoolConfig(
            name=name,
            game=kind.name,
            scheme=(_expect(pool, "scheme", str, where) if "scheme" in pool
                    else kind.default_scheme),
            options={str(k): str(v) for k, v in options.items()},
            scoring=tuple(str(x) for x in _expect(pool, "scoring", list, where))
            if "scoring" in pool else (),
            kinds=tuple(str(x) for x in _expect(pool, "kinds", list, where))
            if "kinds" in pool else (),
            abroad={str(k): (None if v == "" else float(v)) for k, v in abroad.items()},
            periods=_periods(pool, where),
            names=_names(pool, where),
            **_list_policy(pool, where),
        ))
    if schemes:
        check_schemes(pools, str(path))
    identity = data.get("identity", {})
    where = f"{path} [identity]"
    registers = _expect(identity, "register", list, where) if "register" in identity else []
    decisions = _expect(identity, "decisions", str, where) if "decisions" in identity else None
    thresholds: dict[str, float] = {}
    for key in ("fuzzy_accept", "fuzzy_review", "fuzzy_margin"):
        if key in identity:
            value = identity[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{where}: {key} must be a number from 0 to 100, got {value!r}")
            thresholds[key] = float(value)
    try:
        settings = IdentitySettings(**thresholds)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return Config(
        root=root,
        warehouse=root / warehouse,
        inbox=root / inbox,
        public=root / public,
        sources=tuple(str(s) for s in sources),
        pools=tuple(pools),
        registers=tuple(str(r) for r in registers),
        decisions=root / decisions if decisions else None,
        identity=settings,
        task_runner=_task_runner(data.get("run", {}), f"{path} [run]"),
        prefect=_prefect(data.get("run", {}), f"{path} [run]"),
        limits=_limits(data.get("limits", {}), f"{path} [limits]"),
        correction_hold=_correction_hold(data.get("ingest", {}), f"{path} [ingest]"),
        federation=_federation(data.get("federation", {}), f"{path} [federation]"),
    )


def _settings(table: object, where: str, known: set[str]) -> dict[str, object]:
    """A table of settings whose names are all ``known``."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: must be a table, got {table!r}")
    unknown = set(table) - known
    if unknown:
        raise ConfigError(f"{where}: unknown setting(s) {', '.join(sorted(unknown))}")
    return table


def _federation(table: object, where: str) -> str:
    name = _settings(table, where, {"name"}).get("name", "Rating lists")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: name must be a non-empty text, got {name!r}")
    return name.strip()


def _limits(table: object, where: str) -> Limits:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: must be a table of limits, got {table!r}")
    try:
        return Limits.from_mapping(table, where=where)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _correction_hold(table: object, where: str) -> float:
    value = _settings(table, where, {"correction_hold"}).get("correction_hold", 0.1)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
        raise ConfigError(f"{where}: correction_hold must be a share from 0 to below 1 "
                          f"(0.1 = 10%), got {value!r}")
    return float(value)
