"""``clubratings simulate`` and ``clubratings evaluate``: the rating quality lab on the command line.

- ``simulate movements``: the tournament-fairness table of docs/rules/simulation.md (docs/movements.md);
- ``simulate federation``: a simulated federation as result files the parsers read (and its
  latent strengths), for end-to-end runs through the pipeline;
- ``evaluate``: every scheme replayed over a simulated federation, scored against the truth,
  or over a warehouse's real results, each night predicted from the lists published before it
  (docs/quality.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ._common import Exit, fail

__all__ = ["add_quality_commands"]


def _names(text: str | None) -> list[str] | None:
    if not text:
        return None
    return [part.strip() for part in text.split(",") if part.strip()]


def cmd_simulate_movements(args: argparse.Namespace) -> int:
    from quality.movements import SETUPS, format_movements, simulate_movements


    setups = _names(args.setups)
    unknown = sorted(set(setups or []) - set(SETUPS))
    if unknown:
        fail(f"unknown setup(s) {', '.join(unknown)}; known: {', '.join(SETUPS)}")
    if args.tournaments < 1:
        fail("--tournaments must be at least 1")
    report = simulate_movements(tournaments=args.tournaments, seed=args.seed, field=args.field,
                                setups=setups, ties=args.ties)
    print(format_movements(report))
    return Exit.OK


def cmd_simulate_federation(args: argparse.Namespace) -> int:
    from quality.federation import PRESETS, simulate, write_files


    if args.preset not in PRESETS:
        fail(f"unknown preset {args.preset!r}; known: {', '.join(PRESETS)}")
    sim = simulate(args.preset, seed=args.seed)
    out = Path(args.out)
    paths = write_files(sim, out)
    truth = out / "strength.csv"
    sim.strength.to_csv(truth, index=False)
    players = sim.results["player"].nunique()
    events = sim.results["event_id"].nunique()
    print(f"preset {args.preset}, seed {args.seed}: {players} players, {events} events, "
          f"{len(sim.results)} player-results")
    print(f"wrote {len(paths)} result files under {out} (drop them into an inbox, or list the "
          f"folder under [sources]) and the latent strengths in {truth}")
    return Exit.OK


def _seeds(text: str) -> list[int]:
    """``--seed 1`` or ``--seed 1,2,3``."""

    try:
        seeds = [int(part) for part in _names(text) or []]
    except ValueError:
        fail(f"--seed takes a number or numbers separated by commas, not {text!r}")
    if not seeds:
        fail("--seed takes a number or numbers separated by commas")
    return seeds


def cmd_evaluate(args: argparse.Namespace) -> int:
    from quality.evaluate import DEFAULT_SCHEMES


    if not args.preset and not args.warehouse:
        fail("evaluate needs --preset NAME (a simulated federation) or --warehouse FILE "
             "(real results)")
    from quality.real import NIGHTLY
    from quality.real_go import GO_SCHEMES

    schemes = _names(args.schemes) or list(DEFAULT_SCHEMES)
    known = [*DEFAULT_SCHEMES, NIGHTLY, *GO_SCHEMES] if args.warehouse and not args.preset \
        else list(DEFAULT_SCHEMES)
    bad = sorted(set(schemes) - set(known))
    if bad:
        fail(f"unknown scheme(s) {', '.join(bad)}; known: {', '.join(known)}")
    parts: list[str] = []
    data: dict[str, object] = {}
    command: list[str] = []
    if args.preset:
        text, reports, command = _simulated(args, schemes)
        parts.append(text)
        data["reports"] = reports
    if args.warehouse:
        text, real, words = _real(args, schemes)
        parts.append(text)
        data.update(real)
        command += words
    if args.schemes:
        command.append(f"--schemes {','.join(schemes)}")
    text = "\n\n".join(parts)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n", encoding="utf-8")
    if args.json:
        data = {"command": " ".join(["clubratings evaluate", *command]), **data}
        Path(args.json).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return Exit.OK


def _simulated(args: argparse.Namespace,
               schemes: list[str]) -> tuple[str, list[dict[str, object]], list[str]]:
    """The simulated presets: the text, the reports as JSON values, the command's words."""
    from quality.evaluate import evaluate_preset, format_summary, format_table, report_to_dict
    from quality.federation import PRESETS


    presets = _names(args.preset) or []
    unknown = sorted(set(presets) - set(PRESETS))
    if unknown or not presets:
        fail(f"unknown preset(s) {', '.join(unknown) or '(none)'}; known: "
             f"{', '.join(PRESETS)}")
    seeds = _seeds(args.seed)
    reports = [evaluate_preset(preset, seed, schemes) for preset in presets for seed in seeds]
    parts = [format_table(report) for report in reports]
    if len(seeds) > 1:
        parts += [format_summary([r for r in reports if r.preset == preset])
                  for preset in presets]
    words = [f"--preset {','.join(presets)}", f"--seed {','.join(map(str, seeds))}"]
    return "\n\n".join(parts), [report_to_dict(r) for r in reports], words


def _real(args: argparse.Namespace,
          schemes: list[str]) -> tuple[str, dict[str, object], list[str]]:
    """A warehouse's real results: the text, the reports as JSON values (``real``: bridge,
    ``go``: go games), the command's words. Bridge results and go games each where the
    warehouse has them (``--game`` for one)."""
    from quality.real import NIGHTLY, evaluate_warehouse, format_real, real_to_dict
    from quality.real_go import GO_SCHEMES, evaluate_go_warehouse, format_go, go_report_to_dict
    from warehouse import WarehouseError


    path = Path(args.warehouse)
    if not path.is_file():
        fail(f"no warehouse at {str(path)!r}: give the DuckDB file of a project "
             f"(its [paths] warehouse, e.g. data/clubratings.duckdb)")
    bridge = [name for name in schemes if name not in GO_SCHEMES]
    if not args.schemes:
        bridge.append(NIGHTLY)  # the real judge adds WHR as the nightly job publishes it
    go = [name for name in schemes if name in GO_SCHEMES] if args.schemes else list(GO_SCHEMES)
    # per game: its schemes, its judge, the report as text and as JSON, the JSON's key
    judges: dict[str, tuple[list[str], Any, Any, Any, str]] = {
        "bridge": (bridge, evaluate_warehouse, format_real, real_to_dict, "real"),
        "go": (go, evaluate_go_warehouse, format_go, go_report_to_dict, "go"),
    }
    parts: list[str] = []
    data: dict[str, object] = {}
    problems: list[str] = []
    try:
        for game, (names, evaluate, as_text, as_dict, key) in judges.items():
            if not names or (args.game and args.game != game):
                continue
            begin = time.perf_counter()
            try:
                report = evaluate(path, names)
            except ValueError as exc:
                problems.append(f"{game}: {exc}")
                continue
            seconds = time.perf_counter() - begin
            parts.append(as_text(report) + f"\n\n{seconds:.0f} seconds")
            data[key] = as_dict(report)
    except WarehouseError as exc:
        fail(f"{exc} (a run still writing it? try again when it ends)")
    if not parts:
        fail(f"{path}: {'; '.join(problems) or 'nothing to score'}; load result files with "
             "clubratings run first")
    shown = path.name if path.is_absolute() else path.as_posix()
    words = [f"--warehouse {shown}"] + ([f"--game {args.game}"] if args.game else [])
    return "\n\n".join(parts), data, words


def add_quality_commands(sub: Any) -> None:
    """Register ``simulate`` and ``evaluate`` on the CLI's sub-parsers."""
    p = sub.add_parser(
        "simulate", help="simulated tournaments and federations (the quality lab)",
        description="Simulate club tournaments (which movement ranks pairs most fairly) or a "
        "whole federation with latent player strengths (docs/rules/simulation.md).",
    )
    kinds = p.add_subparsers(dest="what", required=True, metavar="{movements,federation}")
    m = kinds.add_parser(
        "movements", help="unfairness of barometer, Howell and Mitchell movements",
        description="Simulate pairs tournaments of 12 pairs of known strength under each "
        "movement and print mean KN, SKN, min/max KN, LN, SLN, KN- and KN%% per setup, plus how "
        "often each setup is fairer than each other (docs/movements.md). Reproducible from "
        "the seed.",
    )
    m.add_argument("--tournaments", type=int, default=1000, help="tournaments per setup")
    m.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    m.add_argument("--field", choices=("standard", "strong", "early"), default="standard",
                   help="pair model: error rates 30..85 (standard), 10..65 (strong), or the "
                   "seed's first model U[0, V] (early)")
    m.add_argument("--ties", choices=("random", "average", "number"), default="random",
                   help="how equal final scores are ranked (default random: a strict order)")
    m.add_argument("--setups", metavar="A,B,...",
                   help="only these setups (B1-B7, H, H3, M1-M5); default all")
    m.set_defaults(func=cmd_simulate_movements)
    f = kinds.add_parser(
        "federation", help="write a simulated federation as result files",
        description="Simulate a federation (clubs, players with latent strength, weekly club "
        "events, congresses) and write its results as CSV-template files, one per club and "
        "month, plus strength.csv with the latent strengths.",
    )
    f.add_argument("--preset", required=True, help="two-clubs, federation or national")
    f.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    f.add_argument("--out", required=True, metavar="DIR", help="folder to write the files to")
    f.set_defaults(func=cmd_simulate_federation)

    e = sub.add_parser(
        "evaluate", help="how well each scheme's list measures strength (simulated or real)",
        description="Replay every scheme chronologically over a simulated federation and print "
        "rank correlation and KN/LN of the final list against latent strength, next-quarter "
        "prediction quality, and (two-clubs) the events until the clubs separate; or over the "
        "real results of a warehouse, every night predicted from the lists published the "
        "quarter before, against a club's average percentage so far (docs/quality.md).",
    )
    e.add_argument("--preset", metavar="NAME[,NAME]",
                   help="two-clubs, federation or national (comma-separated for several)")
    e.add_argument("--warehouse", metavar="FILE",
                   help="a project's DuckDB warehouse (read only): score every scheme on its "
                   "real bridge results and go games")
    e.add_argument("--game", choices=("bridge", "go"),
                   help="with --warehouse: only this game's results (default: bridge results "
                   "and go games, each where the warehouse has them; go games are predicted "
                   "tournament by tournament against the stronger declared grade)")
    e.add_argument("--seed", default="1", metavar="S[,S]",
                   help="random seed, or seeds separated by commas: a table per preset and "
                   "seed, then the mean over the seeds per preset (default 1)")
    e.add_argument("--schemes", metavar="A,B,...", help="only these schemes; default all")
    e.add_argument("--markdown", metavar="FILE", help="also write the tables to FILE")
    e.add_argument("--json", metavar="FILE",
                   help="also write the reports as JSON (docs/quality.json feeds the editions "
                   "site's quality page)")
    e.set_defaults(func=cmd_evaluate)
