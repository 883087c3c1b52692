"""``clubratings``: the command line, a thin layer over the library and the flows.

Domain errors end as one line on stderr and exit code 2; no traceback.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # pandas is imported by the commands that use it (a fast --help)
    import pandas as pd

    from ._config import Config

__all__ = ["main"]

EXIT_USAGE = 2


class CliError(Exception):
    """A problem the user can fix; printed as one line."""


def _fail(message: str) -> NoReturn:
    raise CliError(message)


# ---------------------------------------------------------------- options shared by commands

def _config_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--config", type=Path, default=None, metavar="FILE",
        help="configuration file (default: ./clubratings.toml if present, else built-in defaults)",
    )
    return parent


def _load_config(path: Path | None):  # type: ignore[no-untyped-def]
    from ._config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        _fail(str(exc))


EXIT_LOCKED = 3


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"seconds must be 0 or more, got {text!r}")
    return value


def _wait_parent(default: float = 0.0) -> argparse.ArgumentParser:
    """``--wait``: the commands that use the warehouse take the run lock (flows/_lock.py).
    Those that change it stop at once by default; those that only read it wait ``default``."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--wait", type=_seconds, default=default, metavar="SECONDS",
        help="if another run is in progress, wait up to SECONDS for it to end "
        + (f"(default {default:g})" if default else
           "(default 0: stop at once with exit code 3)"),
    )
    return parent


READ_WAIT = 600.0
"""How long a command that only reads the warehouse waits for a run in progress by default."""


def _locked(func):  # type: ignore[no-untyped-def]
    """Run a command holding the warehouse's run lock: one pipeline run at a time.

    Another run in progress ends the command with one line and exit code 3 (after ``--wait``).
    """
    import contextlib
    import functools

    @functools.wraps(func)
    def command(args: argparse.Namespace) -> int:
        from ._lock import RunLocked, run_lock

        cfg = _load_config(args.config)
        with contextlib.ExitStack() as stack:
            try:
                reader = getattr(args, "action", "") in ("list", "show") \
                    or args.command == "explain"
                stack.enter_context(run_lock(
                    cfg.warehouse, wait=args.wait or (READ_WAIT if reader else 0.0),
                    command=f"clubratings {args.command}", reader=reader))
            except RunLocked as exc:
                print(f"clubratings: {exc}", file=sys.stderr)
                return EXIT_LOCKED
            code: int = func(args)
            return code

    return command


# ---------------------------------------------------------------- parse

def cmd_parse(args: argparse.Namespace) -> int:
    from parsers import FORMATS, ParseError, parse_bytes, result_to_json

    if args.list_formats:
        for fmt in FORMATS.values():
            print(f"{fmt.name}\t{fmt.description}")
        return 0
    if args.file is None:
        _fail("parse needs a FILE (or --list-formats)")
    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        _fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        result = parse_bytes(data, source=str(args.file), fmt=args.format, strict=args.strict)
    except ParseError as exc:
        _fail(str(exc))
    json.dump(result_to_json(result), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


# ---------------------------------------------------------------- rate

def _read_initial(path: Path) -> pd.DataFrame:
    import pandas as pd

    try:
        frame = pd.read_csv(path, dtype={"player": str}, keep_default_na=False)
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        _fail(f"cannot read initial ratings {path}: {exc}")
    missing = {"player", "rating"} - set(frame.columns)
    if missing:
        _fail(f"{path}: initial ratings need columns player,rating; missing {', '.join(sorted(missing))}")
    values = pd.to_numeric(frame["rating"], errors="coerce")
    bad = values.isna() | ~values.map(lambda v: math.isfinite(v) if v == v else False)
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        _fail(f"{path}: row {i + 2}, column rating: not a number: {frame['rating'].iloc[i]!r}")
    out = pd.DataFrame({"player": frame["player"].str.strip(), "rating": values.astype(float)})
    for column in ("deviation", "volatility"):  # go schemes: RFG / Glicko-2 deviations
        if column in frame.columns:
            out[column] = pd.to_numeric(frame[column].replace("", float("nan")), errors="coerce")
    return out


def _options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            _fail(f"--set takes key=value, got {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _write_csv(args: argparse.Namespace, header: Sequence[str],
               rows: Sequence[Sequence[object]]) -> None:
    from publishing import safe_cell  # names from a user's file: never a formula

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([safe_cell(v) for v in row] for row in rows)
    if args.out:
        Path(args.out).write_text(buf.getvalue(), encoding="utf-8")
    else:
        sys.stdout.write(buf.getvalue())


def _rate_games(args: argparse.Namespace, scheme, params, initial):  # type: ignore[no-untyped-def]
    """``rate`` for the go and preferans schemes: GAMES.csv is their games frame as it is."""
    import pandas as pd

    import ratings

    try:
        games = pd.read_csv(args.results, dtype={"player": str, "opponent": str, "game": str,
                                                 "period": str, "colour": str})
    except OSError as exc:
        _fail(f"cannot read {args.results}: {exc.strerror}")
    except (ValueError, pd.errors.ParserError) as exc:
        _fail(f"{Path(args.results).name}: not a readable CSV: {exc}")
    try:
        run = scheme.rate(games, params, initial=initial)
    except ratings.RatingError as exc:
        _fail(f"{Path(args.results).name}: {exc}")
    last = run.ratings["period"].iloc[-1] if not run.ratings.empty else None
    final = run.ratings[run.ratings["period"] == last]
    played = run.ratings.groupby("player")["events"].sum()
    final = final.assign(games=final["player"].map(played).astype(int))
    final = final.sort_values(["rating", "player"], ascending=[False, True], kind="mergesort")
    if scheme.reads == "go-games":
        header = ["player", "rating", "deviation", "grade", "games"]
        rows = [[r.player, f"{r.rating:.4f}",
                 "" if pd.isna(r.deviation) else f"{r.deviation:.4f}",
                 ratings.grade(float(r.rating)), r.games]
                for r in final.itertuples(index=False)]
    else:
        totals = run.ratings.groupby("player")[["deals", "vists"]].sum()
        header = ["player", "rating", "games", "deals", "vists_per_deal"]
        rows = [[r.player, f"{r.rating:.4f}", r.games, int(totals.loc[r.player, "deals"]),
                 f"{totals.loc[r.player, 'vists'] / max(totals.loc[r.player, 'deals'], 1):.4f}"]
                for r in final.itertuples(index=False)]
    _write_csv(args, header, rows)
    return 0


def cmd_rate(args: argparse.Namespace) -> int:
    import ratings
    from parsers import ParseError

    from ._results_csv import read_results_csv

    try:
        params = ratings.parse_options(args.scheme, _options(args.set))
    except ratings.RatingError as exc:
        _fail(str(exc))
    scheme = ratings.SCHEMES[args.scheme]
    initial = _read_initial(args.initial) if args.initial else None
    if scheme.reads != "results":
        return _rate_games(args, scheme, params, initial)
    try:
        data = Path(args.results).read_bytes()
    except OSError as exc:
        _fail(f"cannot read {args.results}: {exc.strerror}")
    try:
        # read column by column (flows/_results_csv.py); rating a CSV loads nothing into the
        # warehouse, so players may be plain ids (P1a) in a calculation
        results = read_results_csv(data, source=str(args.results))
    except ParseError as exc:
        _fail(str(exc.with_file(Path(args.results).name)))
    try:
        run = scheme.rate(results, params, initial=initial)
    except ratings.RatingError as exc:
        _fail(str(exc))
    for warning in run.warnings:
        print(f"clubratings: warning: {warning}", file=sys.stderr)
    final = run.final
    counted = run.contributions[run.contributions["counted"]]
    events = counted.groupby("player")["event_id"].nunique()
    out = final.assign(events=final["player"].map(events).fillna(0).astype(int))
    out = out.sort_values(["rating", "player"], ascending=[False, True], kind="mergesort")
    from publishing import safe_cell  # names from a user's file: never a formula

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["player", "rating", "events"])
    for rec in out.itertuples(index=False):
        writer.writerow([safe_cell(rec.player), f"{rec.rating:.4f}", rec.events])
    if args.out:
        Path(args.out).write_text(buf.getvalue(), encoding="utf-8")
    else:
        sys.stdout.write(buf.getvalue())
    return 0


# ---------------------------------------------------------------- pipeline

def _print_summary(summary: dict[str, object], *, files_printed: bool) -> None:
    files = summary["files"]
    runs = summary["runs"]
    published = summary["published"]
    assert isinstance(files, list) and isinstance(runs, list) and isinstance(published, list)
    counts: dict[str, int] = {}
    for outcome in files:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
        if not files_printed:
            print(outcome.message)
    for run in runs:
        print(run.summary())
    parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no files"
    print(f"files: {parts}; published {len(published)} files")
    if summary.get("review"):
        print(summary["review"])


def through_prefect(cfg: Config, *, asked: bool = False) -> bool:
    """Whether ``clubratings run`` runs as the Prefect ``pipeline`` flow: when asked
    (``--prefect``, or ``[run] prefect = "always"``), or, with the default ``"auto"``, when a
    Prefect server is configured (``PREFECT_API_URL`` in the environment or in the active
    profile of ``PREFECT_HOME``), so the run is recorded where someone can see it. Otherwise the
    run core does the same steps in this process: a temporary Prefect server would cost 10-25 s
    a run and keep a record nobody reads (README, "Prefect")."""
    if asked or cfg.prefect == "always":
        return True
    if cfg.prefect == "never":
        return False
    if os.environ.get("PREFECT_API_URL"):
        return True
    return bool(_profile_api_url(Path(os.environ.get("PREFECT_HOME") or
                                      cfg.root / ".prefect")))


def _profile_api_url(home: Path) -> str | None:
    """``PREFECT_API_URL`` of the active profile in ``home/profiles.toml``, if set."""
    import tomllib

    try:
        data = tomllib.loads((home / "profiles.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    active = data.get("active", "ephemeral")
    profile = data.get("profiles", {}).get(active, {})
    url = profile.get("PREFECT_API_URL") if isinstance(profile, dict) else None
    return str(url) if url else None


@_locked
def cmd_run(args: argparse.Namespace) -> int:
    from ._env import configure_prefect
    from ._report import summary_line

    cfg = _load_config(args.config)
    if getattr(args, "verbose", False):
        os.environ["PREFECT_LOGGING_LEVEL"] = "INFO"
    configure_prefect(cfg.root)
    started = time.perf_counter()
    if through_prefect(cfg, asked=args.prefect):
        from ._reaper import watch
        from .pipeline import pipeline

        watch()  # Prefect's temporary server must not outlive a run killed outright
        summary = pipeline(cfg)
        for line in summary["scraped"]:  # type: ignore[attr-defined]
            print(line)
        _print_summary(summary, files_printed=False)
    else:
        summary = _run_here(args)
        _print_summary(summary, files_printed=True)
    files, runs, published = summary["files"], summary["runs"], summary["published"]
    assert isinstance(files, list) and isinstance(runs, list) and isinstance(published, list)
    print(summary_line("run", time.perf_counter() - started, files=files, runs=runs,
                       published=published))
    rejected = [o for o in summary["files"] if o.status == "rejected"]  # type: ignore[attr-defined]
    return 1 if rejected else 0


def _run_here(args: argparse.Namespace) -> dict[str, object]:
    """The nightly job through the run core in this process (no Prefect): each fetched URL
    and each file printed as it is done."""
    from ._inbox import FileOutcome

    def step(name: str, func: Callable[[], Any]) -> Any:
        result = func()
        if name == "scrape":
            for line in result:
                print(line)
        return result

    def line(k: int, n: int, outcome: FileOutcome) -> None:
        print(f"{k:>{len(str(n))}}/{n} {outcome.message}")

    with _project(args) as project:
        return project.run(step=step, on_file=line, command="run")


def _project(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The run core for a command: the lock is taken (or joined) inside (flows/core.py)."""
    from .core import Project

    return Project.open(_load_config(args.config), command=f"clubratings {args.command}",
                        wait=getattr(args, "wait", 0.0))


@_locked
def cmd_ingest(args: argparse.Namespace) -> int:
    from ._inbox import FileOutcome
    from ._report import RunLog, file_counts, progress, summary_line, tenths

    with _project(args) as project:
        log = RunLog(project.cfg, "ingest")  # data/logs/runs.jsonl
        with log.step("identity") as counts:
            lines = project.prepare_identity()
            counts["lines"] = len(lines)
        for line in lines:
            print(line)
        files = project.pending()
        width = len(str(len(files)))
        with log.step("ingest") as counts, progress(len(files), "loading files") as advance:
            def line(k: int, n: int, outcome: FileOutcome) -> None:
                advance()
                print(f"{k:>{width}}/{n} {outcome.message}")

            outcomes = project.ingest(files, on_file=line)
            counts.update(file_counts(outcomes), **tenths(outcomes))
        review = project.review_summary()
    if review:
        print(review)
    print(summary_line("ingest", log.elapsed(), files=outcomes))
    return 1 if any(o.status == "rejected" for o in outcomes) else 0


@_locked
def cmd_recompute(args: argparse.Namespace) -> int:
    import ratings

    from ._report import RunLog, summary_line

    with _project(args) as project:
        log = RunLog(project.cfg, "recompute")  # data/logs/runs.jsonl
        with log.step("recompute") as counts:
            try:
                runs = project.recompute()
            except ratings.RatingError as exc:
                _fail(str(exc))
            for run in runs:
                print(run.summary())
            counts.update(pools=len(runs), new=sum(1 for r in runs if r.run_id and not r.reused),
                          kept=sum(1 for r in runs if r.reused))
    print(summary_line("recompute", log.elapsed(), runs=runs))
    return 0


@_locked
def cmd_publish(args: argparse.Namespace) -> int:
    from ._report import RunLog, summary_line

    with _project(args) as project:
        cfg = project.cfg
        log = RunLog(cfg, "publish")  # data/logs/runs.jsonl
        with log.step("publish") as counts:
            written = project.publish()
            for pool in cfg.pools:
                n = sum(1 for p in written if cfg.public / pool.name in p.parents)
                print(f"{pool.name}: {n} files under {cfg.public / pool.name}")
            counts["files"] = len(written)
            print(project.snapshot().summary())
    print(summary_line("publish", log.elapsed(), published=written))
    return 0


# ---------------------------------------------------------------- entry point

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clubratings",
        description="Rating lists for mind-sport clubs: result files in, rating lists out.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    config = _config_parent()
    wait = _wait_parent()

    p = sub.add_parser(
        "run", parents=[config, wait],
        help="scrape, ingest sources and inbox, recompute ratings, publish lists, report",
        description="Run the whole nightly job: scrape (when sources.toml lists sources), "
        "ingest, recompute, publish, the import report and the snapshot. With a Prefect "
        "server configured (PREFECT_API_URL) or --prefect it runs as the Prefect flow "
        "'pipeline', recorded by that server; otherwise the same steps run here without "
        "Prefect ([run] prefect in clubratings.toml: auto, always or never).",
    )
    p.add_argument("--prefect", action="store_true",
                   help="run as the Prefect flow even without a configured server (Prefect "
                   "then starts a temporary local one, 10-25 s)")
    p.add_argument("--verbose", action="store_true",
                   help="with Prefect: show its own log lines (INFO); by default only warnings")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("ingest", parents=[config, wait],
                       help="load configured sources and inbox files (no Prefect)")
    p.set_defaults(func=cmd_ingest)
    p = sub.add_parser("recompute", parents=[config, wait],
                       help="rate every pool from the warehouse (no Prefect)")
    p.set_defaults(func=cmd_recompute)
    p = sub.add_parser("publish", parents=[config, wait],
                       help="write CSV/HTML lists of every pool's latest run (no Prefect)")
    p.set_defaults(func=cmd_publish)

    p = sub.add_parser(
        "parse", help="parse one result file and print its events as JSON",
        description="Parse FILE with the format that recognises it and print "
        '{"events": [...], "issues": [...]} as JSON.',
    )
    p.add_argument("file", nargs="?", type=Path, metavar="FILE")
    p.add_argument("--format", default=None, help="skip detection and use this format")
    p.add_argument("--strict", action="store_true", help="fail on the first issue")
    p.add_argument("--list-formats", action="store_true", help="list the known formats")
    p.set_defaults(func=cmd_parse)

    p = sub.add_parser(
        "rate", help="rate a results CSV (the CSV template) without the warehouse",
        description="Rate RESULTS (a CSV in the documented template) and write "
        "player,rating,events sorted by rating.",
    )
    p.add_argument("results", type=Path, metavar="RESULTS.csv")
    p.add_argument("--scheme", required=True, help="rating scheme, e.g. belo or belo2")
    p.add_argument("--initial", type=Path, metavar="RATINGS.csv",
                   help="starting ratings, columns player,rating")
    p.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="scheme option; repeat or list several: --set field=k partner=linear")
    p.add_argument("--out", type=Path, metavar="FILE", help="write the CSV here, not to stdout")
    p.set_defaults(func=cmd_rate)

    from ._cli_explain import add_explain_commands
    from ._cli_identity import add_identity_commands
    from ._cli_mcmahon import add_mcmahon_commands

    add_identity_commands(sub, config, wait)
    add_explain_commands(sub, config, _wait_parent(READ_WAIT))
    add_mcmahon_commands(sub, config)
    from ._cli_schedule import add_schedule_commands

    add_schedule_commands(sub, config)
    from ._cli_scrape import add_scrape_commands

    add_scrape_commands(sub, config)
    from ._cli_quality import add_quality_commands

    add_quality_commands(sub)
    from ._cli_files import add_files_commands

    add_files_commands(sub, config, wait)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except CliError as exc:
        one_line = " ".join(str(exc).splitlines())  # an error is one line, whatever it quotes
        print(f"clubratings: {one_line}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # domain errors of the library: one line, no traceback
        from parsers import ParseError
        from warehouse import WarehouseError

        from ._lock import RunLocked

        if isinstance(exc, RunLocked):  # another run holds the warehouse: exit 3, as _locked
            print(f"clubratings: {exc}", file=sys.stderr)
            return EXIT_LOCKED
        if isinstance(exc, (ParseError, WarehouseError)):
            print(f"clubratings: {exc}", file=sys.stderr)
            return EXIT_USAGE
        raise
    return code


if __name__ == "__main__":
    sys.exit(main())
