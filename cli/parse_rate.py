"""``clubratings parse`` and ``clubratings rate``: one result file read, or one results CSV rated,
without the warehouse (no configuration, no run lock).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._common import Exit, fail

if TYPE_CHECKING:  # pandas is imported by the commands that use it (a fast --help)
    import pandas as pd

__all__ = ["add_parse_rate_commands", "cmd_parse", "cmd_rate"]


# ---------------------------------------------------------------- parse

def cmd_parse(args: argparse.Namespace) -> int:
    from parsers import FORMATS, ParseError, parse_bytes, result_to_json

    if args.list_formats:
        for fmt in FORMATS.values():
            print(f"{fmt.name}\t{fmt.description}")
        return Exit.OK
    if args.file is None:
        fail("parse needs a FILE (or --list-formats)")
    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        result = parse_bytes(data, source=str(args.file), fmt=args.format, strict=args.strict)
    except ParseError as exc:
        fail(str(exc))
    json.dump(result_to_json(result), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return Exit.OK


# ---------------------------------------------------------------- rate

def _read_initial(path: Path) -> pd.DataFrame:
    import pandas as pd

    try:
        frame = pd.read_csv(path, dtype={"player": str}, keep_default_na=False)
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        fail(f"cannot read initial ratings {path}: {exc}")
    missing = {"player", "rating"} - set(frame.columns)
    if missing:
        fail(f"{path}: initial ratings need columns player,rating; missing {', '.join(sorted(missing))}")
    values = pd.to_numeric(frame["rating"], errors="coerce")
    bad = values.isna() | ~values.map(lambda v: math.isfinite(v) if v == v else False)
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        fail(f"{path}: row {i + 2}, column rating: not a number: {frame['rating'].iloc[i]!r}")
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
            fail(f"--set takes key=value, got {pair!r}")
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


def _rate_games(args: argparse.Namespace, scheme: Any, params: Any, initial: Any) -> int:
    """``rate`` for the go and preferans schemes: GAMES.csv is their games frame as it is."""
    import pandas as pd

    import ratings

    try:
        games = pd.read_csv(args.results, dtype={"player": str, "opponent": str, "game": str,
                                                 "period": str, "colour": str})
    except OSError as exc:
        fail(f"cannot read {args.results}: {exc.strerror}")
    except (ValueError, pd.errors.ParserError) as exc:
        fail(f"{Path(args.results).name}: not a readable CSV: {exc}")
    try:
        run = scheme.rate(games, params, initial=initial)
    except ratings.RatingError as exc:
        fail(f"{Path(args.results).name}: {exc}")
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
    return Exit.OK


def cmd_rate(args: argparse.Namespace) -> int:
    import ratings
    from parsers import ParseError
    from parsers.csv_template_frame import read_results_csv

    try:
        params = ratings.parse_options(args.scheme, _options(args.set))
    except ratings.RatingError as exc:
        fail(str(exc))
    scheme = ratings.SCHEMES[args.scheme]
    initial = _read_initial(args.initial) if args.initial else None
    if scheme.reads != "results":
        return _rate_games(args, scheme, params, initial)
    try:
        data = Path(args.results).read_bytes()
    except OSError as exc:
        fail(f"cannot read {args.results}: {exc.strerror}")
    try:
        # read column by column (parsers/csv_template_frame.py); rating a CSV loads nothing
        # into the warehouse, so players may be plain ids (P1a) in a calculation
        results = read_results_csv(data, source=str(args.results))
    except ParseError as exc:
        fail(str(exc.with_file(Path(args.results).name)))
    try:
        run = scheme.rate(results, params, initial=initial)
    except ratings.RatingError as exc:
        fail(str(exc))
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
    return Exit.OK


# ---------------------------------------------------------------- parser

def add_parse_rate_commands(sub: Any) -> None:
    """Register ``parse`` and ``rate`` on the CLI's sub-parsers."""
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
