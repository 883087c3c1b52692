"""The pipeline's steps as plain functions: what the Prefect flows wrap and the CLI can call.

    ingest      sources + inbox ──► parsers ──► warehouse (one transaction per file)
    recompute   warehouse frames ──► ratings scheme ──► rating run stored with its configuration
    publish     latest rating run per pool ──► the editions site under public/<pool>/
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

import ratings
from games import game
from parsers import ParseError, ParseResult
from parsers._limits import Limits
from publishing import SiteSettings, publish_site, read_optout
from warehouse import (
    Warehouse,
    find_run,
    frame_sha256,
    games_frame,
    latest_run,
    preferans_frame,
    recent_run_options,
    results_frame,
    resumable_run,
    run_period_state,
    set_current_run,
    store_run,
    utc_now,
)
from warehouse.register import load_register
from warehouse.reporting import review_counts, run_ratings, run_summary
from warehouse.review import apply_decisions_file
from warehouse.snapshot import Snapshot, snapshot_dir, write_snapshot

from ._config import Config, PoolConfig
from ._inbox import inbox_files
from ._parsing import parse_files

__all__ = [
    "PoolRun",
    "code_version",
    "prepare_identity_in",
    "rating_code_version",
    "review_summary_in",
    "source_hash",
    "parse_path",
    "pending_files",
    "pool_results",
    "publish",
    "rate_pool",
    "snapshot",
]

QUALITY_FILE = "docs/quality.json"
"""The latest evaluation of the schemes (``clubratings evaluate --json``, docs/quality.md),
relative to the project folder; the editions site shows it as ``quality.html``."""


def code_version() -> str:
    """The installed package version (the scraper's user agent names it)."""
    try:
        return metadata.version("clubratings")
    except metadata.PackageNotFoundError:  # running from a plain source tree
        return "0+unknown"


@functools.lru_cache(maxsize=1)
def rating_code_version() -> str:
    """The package version plus a hash of the rating code (every module of ``ratings``, and
    ``warehouse/_runs.py``, which decides what of a run is stored): recorded with every rating
    run, and part of what decides whether a stored run can be reused. A changed engine
    recomputes; an unchanged one reuses."""
    stored = hashlib.sha256(Path(store_run.__code__.co_filename).read_bytes()).hexdigest()[:6]
    return f"{code_version()}+{source_hash(Path(ratings.__file__).parent)}{stored}"


def source_hash(package: Path) -> str:
    """SHA-256 (first 12 hex digits) over a package's Python files, names and contents, in name
    order."""
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def pending_files(cfg: Config) -> list[tuple[Path, bool]]:
    """Files to look at, as (path, from_inbox): read-only sources first, then the inbox."""
    from ._runlog import logs_dir

    names = logs_dir(cfg) / "inbox-names.jsonl"
    return [(p, False) for p in cfg.source_files()] + [
        (p, True) for p in inbox_files(cfg.inbox, names_log=names)]


def parse_path(path: Path, limits: Limits) -> ParseResult | ParseError:
    """The half of a load that can fan out (docs/scale-out.md): parse one file in a worker
    process under ``limits`` (size, rows, depth, memory and time), exactly as ``clubratings
    run`` parses every file (flows/_parsing.py). Its refusal is returned, so the writer
    rejects the file with that reason without reading it again."""
    return next(iter(parse_files([path], limits, workers=1)))


def prepare_identity_in(wh: Warehouse, cfg: Config) -> list[str]:
    """Load the configured member registers (new ones only) and apply the decisions file
    (the run core's first step, flows/core.py ``Project.prepare_identity``).

    Runs before any result file, so a rebuilt warehouse meets the register and the decisions
    in the same order as the original one. Returns one summary line per step, then one line
    starting ``warning:`` per answer of the decisions file held because it contradicts the
    answer on record (the run goes on).
    """
    lines: list[str] = []
    if cfg.clubs is not None:
        from warehouse.clubs import ClubRegisterError, load_club_register

        if not cfg.clubs.is_file():
            raise ClubRegisterError(f"{cfg.clubs}: no such file ([identity] clubs)")
        lines.append(load_club_register(wh, cfg.clubs.read_bytes(), path=str(cfg.clubs)))
    for path in cfg.register_files():
        lines.append(load_register(wh, path.read_bytes(), path=str(path)).summary())
    if cfg.decisions is not None and cfg.decisions.exists():
        report = apply_decisions_file(wh, cfg.decisions)
        lines.append(f"{cfg.decisions.name}: {report.summary()}")
        lines.extend(report.held)
    return lines


def review_summary_in(wh: Warehouse) -> str | None:
    """One line on what waits for a person, or None when nothing does (the run core's
    ``Project.review_summary``)."""
    from warehouse.corrections import held_corrections, held_versions, spelling_questions

    items, events = review_counts(wh)
    corrections = len(held_corrections(wh)) + len(held_versions(wh))
    spellings = len(spelling_questions(wh))
    parts = []
    if items:
        parts.append(f"{items} name(s) wait for a person; {events} event(s) not rated until "
                     "then")
    if corrections:
        parts.append(f"{corrections} correction(s) or new version(s) that would remove data "
                     "wait; the versions in force are rated meanwhile")
    if spellings:
        parts.append(f"{spellings} spelling(s) fixed by a new version wait for a yes or no")
    if not parts:
        return None
    return "review: " + "; ".join(parts) + " (clubratings review --list)"


@dataclass(frozen=True, slots=True)
class PoolRun:
    pool: str
    run_id: int | None
    reused: bool
    periods: tuple[str, ...]
    players: int
    warnings: tuple[str, ...] = ()
    """What the scheme asks a person to look at (docs/rules/bridge-belo.md §10, subsidies)."""
    learning: str = ""
    """How the scheme's constants were learned, kept or left as set (docs/rules/bridge-whr.md
    §13); empty for a scheme that learns none."""

    def summary(self) -> str:
        if self.run_id is None:
            return f"{self.pool}: no events to rate"
        what = "unchanged inputs, kept run" if self.reused else "new run"
        span = f"{self.periods[0]}..{self.periods[-1]}" if self.periods else "no periods"
        text = f"{self.pool}: {what} {self.run_id}, {span}, {self.players} players"
        if self.learning:
            text += f"; {self.learning}"
        return "".join([text, *(f"\n  WARNING {self.pool}: {w}" for w in self.warnings)])


def pool_results(wh: Warehouse, pool: PoolConfig) -> pd.DataFrame:
    """The pool's results frame: its game, its scoring methods and kinds (docs/rules/bridge-belo.md
    §12, separate lists), events abroad marked with their assumed field rating (§5). A go pool
    gets the games frame instead (one row per game, periods as the pool says)."""
    frame = game(pool.game).frame
    if frame == "go-games":
        return games_frame(wh, pool.periods)
    if frame == "preferans-games":
        return preferans_frame(wh)
    results = results_frame(wh, pool.game)
    if pool.scoring:
        results = results[results["scoring"].isin(pool.scoring)]
    if pool.kinds:
        results = results[results["kind"].isin(pool.kinds)]
    organiser = results["organiser"]
    results = results.assign(
        abroad=organiser.isin(list(pool.abroad)),
        field_rating=organiser.map(lambda o: pool.abroad.get(o)).astype(float),
    )
    return results.drop(columns=["organiser"]).reset_index(drop=True)


def rate_pool(wh: Warehouse, pool: PoolConfig) -> PoolRun:
    """Rate the pool's whole history; an identical earlier run (same inputs, configuration and
    code version) is kept rather than stored again."""
    params = ratings.parse_options(pool.scheme, pool.options)
    results = pool_results(wh, pool)
    learned: dict[str, str] = {}
    learning = ""
    if not results.empty and ratings.SCHEMES[pool.scheme].learn is not None:
        params, learned, learning = _learned_constants(wh, pool, params, results)
    # The full resolved configuration, recorded with the run: every scheme option plus the
    # pool's choice of events (docs/rules/bridge-belo.md §12) and its events abroad (§5).
    options = ratings.params_to_options(params) | {
        "pool.game": pool.game,
        "pool.periods": pool.periods if game(pool.game).periods else "",
        "pool.scoring": ",".join(pool.scoring),
        "pool.kinds": ",".join(pool.kinds),
        "pool.abroad": ",".join(f"{k}={'' if v is None else v}"
                                for k, v in sorted(pool.abroad.items())),
    } | learned
    if results.empty:
        if latest_run(wh, pool.name) is not None:
            set_current_run(wh, pool.name, None)  # its lists come down (all withdrawn)
        return PoolRun(pool.name, None, False, (), 0)
    sha = frame_sha256(results)
    version = rating_code_version()
    existing = find_run(
        wh, pool=pool.name, scheme=pool.scheme, options=options, inputs_sha256=sha,
        code_version=version,
    )
    if existing is not None:
        set_current_run(wh, pool.name, existing)  # the lists come from this run again
        periods, players = run_summary(wh, existing)
        return PoolRun(pool.name, existing, True, periods, players, learning=learning)
    scheme = ratings.SCHEMES[pool.scheme]
    warm = _previous_fit(wh, pool, options) if scheme.refine is not None else None
    digests = (scheme.period_digests(results, params)
               if scheme.period_digests is not None else None)
    kept = _kept_periods(wh, pool, options, version, digests)
    if kept is not None:
        # docs/rules/bridge-belo.md §8: the results changed from ``period`` on only; the stored
        # periods before it stay, and the pool the period before left is rated on from there
        # (the same frames, bit for bit, as rating the whole history again)
        previous, period, before = kept
        state = ratings.PeriodState(period, *run_period_state(wh, previous, before))
        assert scheme.resume is not None
        run = scheme.resume(results, params, state)
    elif scheme.refine is not None and warm is not None:
        # docs/rules/bridge-whr.md §9: a whole-history fit starts from the pool's last one, so a
        # nightly run only refines it (same result, fewer steps)
        run = scheme.refine(results, params, warm)
    else:
        run = scheme.rate(results, params)
    run_id = store_run(
        wh, pool=pool.name, scheme=pool.scheme, options=options,
        period_unit=options.get("period", ""), inputs_sha256=sha, code_version=version,
        ratings=run.ratings, contributions=run.contributions,
        normalisations=run.normalisations, phantoms=run.phantoms, startup=run.startup,
        digests=digests, kept=None if kept is None else (kept[0], kept[1]),
    )
    if kept is None:
        periods = tuple(sorted(run.ratings["period"].unique()))
        players = int(run.ratings["player"].nunique())
    else:
        periods, players = run_summary(wh, run_id)
    return PoolRun(pool.name, run_id, False, periods, players, tuple(run.warnings), learning)


def _kept_periods(wh: Warehouse, pool: PoolConfig, options: dict[str, str], version: str,
                  digests: dict[str, str] | None) -> tuple[int, str, str] | None:
    """Where a scheme that rates forward takes up the pool's current run: (that run, the first
    period to rate again, the period before it), when the run was made with these options and
    this code and its periods' digests agree with ``digests`` up to some period after its
    first; None when the whole history is to be rated (another configuration, a changed first
    period, a scheme that restates every period)."""
    if not digests:
        return None
    found = resumable_run(wh, pool=pool.name, scheme=pool.scheme, options=options,
                          code_version=version)
    if found is None:
        return None
    previous, stored = found
    freq = ratings.PERIOD_FREQUENCIES[options["period"]]  # type: ignore[index]
    changed = [pd.Period(p, freq) for p in set(stored) ^ set(digests)]
    changed += [pd.Period(p, freq) for p in set(stored) & set(digests) if stored[p] != digests[p]]
    last = pd.Period(max(stored), freq)  # a run's periods end with its last with results
    start = min([*changed, last + 1])
    record = latest_run(wh, pool.name)
    # the first period rated (the cut-over's, docs/rules/bridge-belo.md §11) is rated again;
    # results that now end before ``start`` (the last quarter withdrawn) leave nothing to rate
    # on from it
    if record is None or record.first_period is None or \
            start <= pd.Period(record.first_period, freq) or \
            start > pd.Period(max(digests), freq):
        return None
    return previous, str(start), str(start - 1)


LEARNED_PREFIX = "learned."
"""Run options that record how a scheme's constants were learned (docs/rules/bridge-whr.md
§13): ``learned.through``, ``learned.inputs`` (the hash of the results learned from),
``learned.names``, ``learned.origins``, ``learned.pairs``, ``learned.loss``,
``learned.start_loss``."""


def _learned_constants(wh: Warehouse, pool: PoolConfig, params: object,
                       results: pd.DataFrame) -> tuple[object, dict[str, str], str]:
    """docs/rules/bridge-whr.md §13: the pool's constants learned from its results up to the
    last closed period (the one before today's, or the latest with results), the record that
    goes with the run, and a line for the log. A run whose closed periods' results are those
    an earlier run learned from takes that run's constants (learning happens once a period
    closes, or when a late file changes a closed period); otherwise the search starts from the
    constants learned last."""
    scheme = ratings.SCHEMES[pool.scheme]
    assert scheme.learn is not None
    if getattr(params, "learn", "off") != "on":
        return params, {}, ""
    freq = ratings.PERIOD_FREQUENCIES[getattr(params, "period")]
    period = pd.DatetimeIndex(pd.to_datetime(results["date"])).to_period(freq)
    today = pd.Period(utc_now().date(), freq=freq)
    through = min(period.max(), today - 1)
    closed = results[np.asarray(period <= through)]
    fixed = tuple(n for n in scheme.learnable if n in pool.options)
    inputs = frame_sha256(closed) if not closed.empty else ""
    previous: dict[str, str] | None = None
    for options in _learning_records(wh, pool.name, pool.scheme):
        if options.get(LEARNED_PREFIX + "fixed") != ",".join(fixed):
            continue
        if previous is None:
            previous = options
        if (options.get(LEARNED_PREFIX + "through") == str(through)
                and options.get(LEARNED_PREFIX + "inputs") == inputs):
            kept = _with_learned(pool, options) or params
            return kept, {k: v for k, v in options.items() if k.startswith(LEARNED_PREFIX)}, (
                f"constants learned through {through} kept")
    # the search starts from the constants learned last; none learned: from the values as set
    start = _with_learned(pool, previous) if previous is not None else None
    learning = scheme.learn(closed, params, fixed, start) if not closed.empty else None
    if learning is None or not learning.learned:
        reason = learning.reason if learning is not None else "no closed period"
        record = {"through": str(through), "inputs": inputs, "fixed": ",".join(fixed),
                  "names": "", "reason": reason}
        return params, {LEARNED_PREFIX + k: v for k, v in record.items()}, (
            f"constants as set ({reason})")
    record = {
        "through": str(through), "inputs": inputs, "fixed": ",".join(fixed),
        "names": ",".join(learning.learned), "origins": ",".join(learning.origins),
        "pairs": str(learning.pairs), "loss": f"{learning.loss:.5f}",
        "start_loss": f"{learning.start_loss:.5f}", "reason": "",
    }
    return learning.params, {LEARNED_PREFIX + k: v for k, v in record.items()}, \
        learning.summary()


def _with_learned(pool: PoolConfig, options: dict[str, str]) -> object | None:
    """The pool's params with the constants a run's ``options`` record as learned; ``None``
    when that run learned none."""
    names = [n for n in options.get(LEARNED_PREFIX + "names", "").split(",") if n]
    if not names:
        return None
    return ratings.parse_options(pool.scheme, pool.options | {n: options[n] for n in names})


def _learning_records(wh: Warehouse, pool: str, scheme: str) -> list[dict[str, str]]:
    """The options of the pool's latest runs with this scheme that learned constants, newest
    first (a bounded look back)."""
    return [o for o in recent_run_options(wh, pool, scheme)
            if (LEARNED_PREFIX + "through") in o]


def _previous_fit(wh: Warehouse, pool: PoolConfig,
                  options: dict[str, str]) -> pd.DataFrame | None:
    """The ratings (``period, player, rating``) of the pool's current run when it was made by
    the same scheme with the same options: where a whole-history fit starts from."""
    previous = latest_run(wh, pool.name)
    if previous is None or previous.scheme != pool.scheme:
        return None
    # constants learned again are no reason to start from scratch (the fit only ends elsewhere)
    learnable = set(ratings.SCHEMES[pool.scheme].learnable)

    def settled(values: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in values.items()
                if k not in learnable and not k.startswith(LEARNED_PREFIX)}

    if settled(previous.options) != settled(options):
        return None
    return run_ratings(wh, previous.run_id)


def publish(wh: Warehouse, cfg: Config, pool: PoolConfig) -> list[Path]:
    """The pool's editions on the site (docs/site.md); players
    named in ``optout.txt`` next to the configuration are left out of every public file."""
    grade = ratings.grade if game(pool.game).graded else None
    optout = read_optout(cfg.root / "optout.txt")
    site = SiteSettings(optout=optout, quality=cfg.root / QUALITY_FILE,
                        provisional_events=pool.min_events, active_days=pool.active_days,
                        max_deviation=pool.max_deviation)
    return publish_site(wh, pool.name, cfg.public, settings=site, grade=grade,
                        federation=cfg.federation, names=pool.name_order)


def snapshot(wh: Warehouse, cfg: Config) -> Snapshot:
    """The last step of a run, after publishing: the analysts' read-only copy of the warehouse
    and its Parquet exports under ``data/snapshot/`` (warehouse/snapshot.py)."""
    return write_snapshot(wh, snapshot_dir(cfg.warehouse))
