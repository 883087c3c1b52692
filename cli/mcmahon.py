"""``clubratings mcmahon``: run a McMahon tournament with dynamic levels (docs/rules/go-mcmahon-levels.md).

    mcmahon start PLAYERS.csv --rounds N --essential K [--bars "2100:0,1800:-1"] --out STATE.json
    mcmahon start --from TOURNAMENT.xml [--rounds N] [--set NAME=VALUE ...] --out STATE.json
                                                    players and OpenGotha's pairing settings from
                                                    an OpenGotha file (docs/rules/go-mcmahon-pairing.md)
    mcmahon start PLAYERS.csv ... --pairing opengotha [--set NAME=VALUE ...]
    mcmahon pair STATE.json [--absent ID ...]       next round's pairs, kept in the state
    mcmahon result STATE.json RESULTS.csv           record a round (the state file is replaced
                                                    atomically)
    mcmahon standings STATE.json [--csv] [--levels]
    mcmahon standings --games FILE [--bars ...] [--players PLAYERS.csv]
                                                    a played tournament from a go result file

The library work is in :mod:`tournaments` (the tournament, and a go file's events as its
entrants and games); a result file is read by the format the parsers' registry detects, an
OpenGotha file by the parsers' one OpenGotha reader, and the state file is written by the
project's one atomic writer. This module reads and writes files only.
See docs/mcmahon.md for the file formats.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._common import Exit, fail

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_mcmahon_commands", "read_results"]


def _lib() -> Any:
    import tournaments

    return tournaments


# ---------------------------------------------------------------- files


def _read_csv(path: Path, what: str) -> list[dict[str, str]]:
    """Rows of a CSV with lower-case, stripped header names and stripped cells."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        fail(f"cannot read {what} {path}: {exc.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: {what} must be UTF-8 text")
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None:
        fail(f"{path}: {what} file is empty")
    rows = []
    for row in reader:  # cells beyond the header (key None) are ignored
        rows.append({k.strip().lower(): (v or "").strip() for k, v in row.items()
                     if k is not None})
    return rows


def _load_state(path: Path) -> Any:
    lib = _lib()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        fail(f"cannot read state {path}: {exc.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        fail(f"{path}: not a JSON state file ({exc})")
    try:
        return lib.state_from_json(data)
    except lib.TournamentError as exc:
        fail(f"{path}: {exc}")


def _write_state(path: Path, state: Any) -> None:
    """Write the state whole or not at all (``warehouse.atomic_write``): a crash or a failed
    command leaves the file as it was."""
    from warehouse import atomic_write

    text = json.dumps(_lib().state_to_json(state), indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write(path, text)
    except OSError as exc:
        fail(f"cannot write state {path}: {exc.strerror}")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")


# ---------------------------------------------------------------- start


def _rating(value: str, where: str) -> float:
    """A rating cell: a number or a grade such as ``3k`` / ``1d``."""
    lib = _lib()
    try:
        number = float(value)
    except ValueError:
        try:
            return float(lib.rating_from_grade(value))
        except lib.TournamentError:
            fail(f"{where}, column rating: not a rating or grade: {value!r}")
    if not math.isfinite(number) or number >= 3000:
        fail(f"{where}, column rating: rating must be below 3000: {value!r}")
    return number


def _settings(args: argparse.Namespace, base: Any) -> Any:
    """``base`` with the ``--set NAME=VALUE`` options applied."""
    lib = _lib()
    values: dict[str, str] = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"--set {item!r}: expected NAME=VALUE (e.g. paiMaSeedSystem1=SPLITANDFOLD)")
        values[name.strip()] = value.strip()
    try:
        return lib.PairingSettings.from_names(values, base)
    except lib.TournamentError as exc:
        fail(f"--set: {exc}")


def _start_from_opengotha(args: argparse.Namespace) -> int:
    lib = _lib()
    if args.players is not None:
        fail("start takes PLAYERS.csv or --from TOURNAMENT.xml, not both")
    if args.bars:
        fail("--bars does not apply with --from: the file's bar and floor (genMMBar, "
             "genMMFloor) give the start scores; change them with --set")
    import parsers
    from parsers.opengotha import FORMAT as OPENGOTHA

    data = _read_bytes(args.source)
    try:  # the registry says what the file is; only an OpenGotha file has a tournament's setup
        fmt = parsers.detect_format(data, str(args.source))
    except parsers.ParseError as exc:
        fail(f"{args.source}: not an OpenGotha tournament file ({exc.problem})")
    if fmt.name != OPENGOTHA.name:
        fail(f"{args.source}: not an OpenGotha tournament file; it reads as {fmt.name} "
             f"({fmt.description})")
    try:
        og = lib.read_opengotha(data)
    except (lib.TournamentError, parsers.ParseError) as exc:
        fail(f"{args.source}: {exc}")
    settings = _settings(args, og.settings)
    try:
        state = lib.start_tournament(og.entrants, rounds=args.rounds or og.rounds,
                                     essential_places=args.essential or 1, settings=settings)
    except lib.TournamentError as exc:
        fail(f"{args.source}: {exc}")
    _write_state(args.out, state)
    print(f"{len(state.players)} players, {state.rounds} rounds, {settings.system} pairing "
          f"with the file's settings; state written to {args.out}")
    return Exit.OK


def cmd_start(args: argparse.Namespace) -> int:
    lib = _lib()
    if args.out.exists():
        fail(f"{args.out} exists; remove it or choose another --out")
    if args.source is not None:
        return _start_from_opengotha(args)
    if args.players is None:
        fail("start needs PLAYERS.csv or --from TOURNAMENT.xml")
    if args.rounds is None or args.essential is None:
        fail("start PLAYERS.csv needs --rounds and --essential")
    if args.set and args.pairing != "opengotha":
        fail("--set applies to the weighted pairing: add --pairing opengotha")
    rows = _read_csv(args.players, "players")
    if not rows or not {"name", "rating"} <= set(rows[0]):
        fail(f"{args.players}: players need columns name,rating[,id]")
    entrants = []
    for i, row in enumerate(rows, start=2):
        where = f"{args.players}: row {i}"
        if not row["name"]:
            fail(f"{where}, column name: empty name")
        pid = row.get("id") or row["name"]
        rank = None
        if row.get("rank"):
            try:
                rank = lib.parse_rank(row["rank"])
            except lib.TournamentError as exc:
                fail(f"{where}, column rank: {exc}")
        entrants.append(lib.Entrant(id=pid, name=row["name"], rating=_rating(row["rating"], where),
                                    rank=rank, club=row.get("club", ""),
                                    country=row.get("country", "")))
    settings = _settings(args, None) if args.pairing == "opengotha" else None
    try:
        bars = lib.parse_bars(args.bars)
        state = lib.start_tournament(entrants, rounds=args.rounds,
                                     essential_places=args.essential, bars=bars,
                                     settings=settings)
    except lib.TournamentError as exc:
        fail(f"{args.players}: {exc}")
    _write_state(args.out, state)
    print(f"{len(state.players)} players, {state.rounds} rounds; state written to {args.out}")
    return Exit.OK


# ---------------------------------------------------------------- pair


def _resolver(state: Any, path: Path) -> Any:
    """Maps an id, or a name that belongs to one player only, to the player's id."""
    ids = {p.id for p in state.players}
    by_name: dict[str, list[str]] = {}
    for p in state.players:
        by_name.setdefault(p.name, []).append(p.id)

    def resolve(value: str, where: str) -> str:
        if value in ids:
            return value
        found = by_name.get(value, [])
        if len(found) == 1:
            return found[0]
        why = "names several players; use the id" if found else "is no player of the tournament"
        fail(f"{path}: {where}: {value!r} {why}")

    return resolve


def _describe(state: Any, pid: str, levels: dict[str, int], points: dict[str, float]) -> str:
    return f"{state.player(pid).name} (U {levels[pid]}, {points[pid]:g} pts)"


def cmd_pair(args: argparse.Namespace) -> int:
    lib = _lib()
    state = _load_state(args.state)
    resolve = _resolver(state, args.state)
    absent = [resolve(a, "--absent") for a in args.absent]
    try:
        pairing = lib.pair_round(state, absent=absent)
    except lib.TournamentError as exc:
        fail(f"{args.state}: {exc}")
    levels, points = state.levels(), state.points()
    print(f"round {pairing.round}")
    for table, (a, b) in enumerate(pairing.pairs, start=1):
        if pairing.handicaps:  # weighted pairing: white first, then black and the handicap
            stones = pairing.handicaps[table - 1]
            print(f"{table:>3}  white {state.player(a).name} - black {state.player(b).name}"
                  + (f"  handicap {stones}" if stones else ""))
            continue
        print(f"{table:>3}  {_describe(state, a, levels, points)} - "
              f"{_describe(state, b, levels, points)}")
    if pairing.bye is not None:
        print(f"bye  {_describe(state, pairing.bye, levels, points)}")
    for pid in pairing.absent:
        print(f"absent  {state.player(pid).name}")
    for a, b in pairing.repeats:
        print(f"repeat  {state.player(a).name} - {state.player(b).name}")
    for note in pairing.notes:
        print(f"note  {note}")
    _write_state(args.state, replace(state, pending=pairing))
    return Exit.OK


# ---------------------------------------------------------------- result


def read_results(path: Path, state: Any) -> dict[int, Any]:
    """The rounds of a results CSV as :class:`RoundResults` by round number."""
    lib = _lib()
    rows = _read_csv(path, "results")
    header = set(rows[0]) if rows else set()
    if {"white", "black"} <= header:
        first, second, colours = "white", "black", True
    elif {"player_a", "player_b"} <= header:
        first, second, colours = "player_a", "player_b", False
    else:
        fail(f"{path}: results need columns round, white,black (or player_a,player_b), result")
    if not {"round", "result"} <= header:
        fail(f"{path}: results need columns round, {first},{second}, result")
    resolve = _resolver(state, path)
    games: dict[int, list[Any]] = {}
    byes: dict[int, list[str]] = {}
    absent: dict[int, list[str]] = {}
    for i, row in enumerate(rows, start=2):
        where = f"row {i}"
        try:
            number = int(row["round"])
        except ValueError:
            fail(f"{path}: {where}, column round: not a round number: {row['round']!r}")
        games.setdefault(number, [])
        a = resolve(row[first], f"{where}, column {first}")
        outcome = row["result"].lower()
        if outcome in {"bye", "absent"}:
            if row[second]:
                fail(f"{path}: {where}, column {second}: a {outcome} has no opponent, "
                     f"got {row[second]!r}")
            (byes if outcome == "bye" else absent).setdefault(number, []).append(a)
            continue
        b = resolve(row[second], f"{where}, column {second}")
        try:
            score_a, score_b, played = lib.result_scores(row["result"], colours=colours)
        except ValueError:
            fail(f"{path}: {where}, column result: unknown result {row['result']!r} "
                 "(1-0, 0-1, =, +-, -+, --, bye, absent)")
        handicap_text = row.get("handicap", "") or "0"
        if not handicap_text.isdigit():
            fail(f"{path}: {where}, column handicap: not a number of stones: "
                 f"{handicap_text!r}")
        games[number].append(lib.Game(a=a, b=b, score_a=score_a, score_b=score_b,
                                      handicap=int(handicap_text), played=played))
    return {n: lib.RoundResults(games=tuple(games[n]), byes=tuple(byes.get(n, ())),
                                absent=tuple(absent.get(n, ()))) for n in sorted(games)}


def _with_pending_bye(state: Any, number: int, results: Any) -> Any:
    """The bye of the pending pairing of this round, unless the file says otherwise."""
    pending = state.pending
    if pending is None or pending.round != number or pending.bye is None:
        return results
    mentioned = {pid for g in results.games for pid in (g.a, g.b)}
    mentioned |= set(results.byes) | set(results.absent)
    if pending.bye in mentioned:
        return results
    return replace(results, byes=(*results.byes, pending.bye))


def cmd_result(args: argparse.Namespace) -> int:
    lib = _lib()
    state = _load_state(args.state)
    rounds = read_results(args.results, state)
    if not rounds:
        fail(f"{args.results}: no results")
    for number, results in rounds.items():
        expected = len(state.played) + 1
        if number != expected:
            played = "is already recorded" if number < expected else "comes too early"
            fail(f"{args.results}: round {number} {played}; the next round is {expected}")
        try:
            state = lib.apply_round(state, _with_pending_bye(state, number, results))
        except lib.TournamentError as exc:
            fail(f"{args.results}: {exc}")
    _write_state(args.state, state)
    done = ", ".join(str(n) for n in rounds)
    print(f"recorded round {done}; {len(state.played)} of {state.rounds} rounds played")
    return Exit.OK


# ---------------------------------------------------------------- standings


def _go_events(path: Path) -> list[Any]:
    """The go games of ``path``, read by the format the parsers' registry detects (within
    ``[limits]`` and through the plausibility gate, as every result file is read)."""
    import parsers
    from games import game

    data = _read_bytes(path)
    try:
        result = parsers.parse_bytes(data, source=str(path))
    except parsers.UnknownFormat as exc:
        fail(f"{path.name}: no known format reads this file ({exc.problem})")
    except parsers.ParseError as exc:
        fail(f"{path.name}: no go tournament read ({exc.with_file(path.name)})")
    events = [e for e in result.events if game(e.game).two_player_games]
    if not events:
        fail(f"{path.name}: no go tournament read ({result.format} finds no go games)")
    return events


def _known_ratings(path: Path | None) -> dict[str, float]:
    """Ratings by id and by name from a players CSV (``name,rating[,id]``)."""
    if path is None:
        return {}
    rows = _read_csv(path, "players")
    if not rows or not {"name", "rating"} <= set(rows[0]):
        fail(f"{path}: players need columns name,rating[,id]")
    known: dict[str, float] = {}
    for i, row in enumerate(rows, start=2):
        rating = _rating(row["rating"], f"{path}: row {i}")
        known[row["name"]] = rating
        if row.get("id"):
            known[row["id"]] = rating
    return known


def _state_from_games(path: Path, bars_text: str, players: Path | None) -> Any:
    lib = _lib()
    known = _known_ratings(players)
    try:
        entrants, games = lib.events_to_games(_go_events(path), known)
    except lib.MissingRanks as exc:
        fail(f"{path.name}: {exc}; give ratings or grades with --players PLAYERS.csv "
             "(name,rating[,id])")
    except lib.TournamentError as exc:
        fail(f"{path.name}: {exc}")
    try:
        return lib.replay(entrants, games, bars=lib.parse_bars(bars_text))
    except lib.TournamentError as exc:
        fail(f"{path.name}: {exc}")


def _text_table(frame: pd.DataFrame) -> list[str]:
    """The standings as aligned text."""
    def cell(value: Any, column: str) -> str:
        if isinstance(value, float) and math.isnan(value):
            return "-"
        if column == "opponents_level":
            return f"{value:.1f}"
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)

    header = [str(c) for c in frame.columns]
    rows = [[cell(v, c) for v, c in zip(rec, frame.columns)]
            for rec in frame.itertuples(index=False)]
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    left = {i for i, c in enumerate(header) if c in {"id", "name", "separated_by"}}
    return ["  ".join(c.ljust(w) if i in left else c.rjust(w)
                      for i, (c, w) in enumerate(zip(row, widths))).rstrip()
            for row in [header, *rows]]


def cmd_standings(args: argparse.Namespace) -> int:
    lib = _lib()
    if (args.state is None) == (args.games is None):
        fail("standings needs STATE.json or --games FILE (one of them)")
    if args.games is not None:
        state = _state_from_games(args.games, args.bars, args.players)
    else:
        if args.bars or args.players:
            fail("--bars and --players only apply with --games; a state file keeps its own")
        state = _load_state(args.state)
    frame = lib.level_history(state) if args.levels else lib.standings(state)
    if args.csv:
        sys.stdout.write(frame.to_csv(index=False, lineterminator="\n"))
    else:
        print("\n".join(_text_table(frame)))
    return Exit.OK


# ---------------------------------------------------------------- parser


def add_mcmahon_commands(sub: Any) -> None:
    """Add ``mcmahon start|pair|result|standings`` to the ``clubratings`` subcommands (no
    configuration: every command works on its own files)."""
    top = sub.add_parser(
        "mcmahon", help="run a McMahon go tournament with dynamic levels",
        description="A McMahon tournament with a dynamic level per player instead of "
        "Buchholz (docs/rules/go-mcmahon-levels.md): start, pair, record results, standings.",
    )
    cmds = top.add_subparsers(dest="mcmahon_command", required=True, metavar="STEP")

    p = cmds.add_parser("start", help="create the state file from a players CSV or an "
                        "OpenGotha tournament file",
                        description="PLAYERS.csv has columns name,rating[,id][,rank,club,"
                        "country]; rating is an RFG rating or a grade (3k, 1d). --from reads "
                        "players and pairing settings from an OpenGotha file instead.")
    p.add_argument("players", type=Path, nargs="?", metavar="PLAYERS.csv")
    p.add_argument("--from", dest="source", type=Path, metavar="TOURNAMENT.xml",
                   help="an OpenGotha tournament file: its players and pairing settings "
                   "(weighted pairing, docs/rules/go-mcmahon-pairing.md)")
    p.add_argument("--pairing", choices=("levels", "opengotha"), default="levels",
                   help="levels: the level pairing (default); opengotha: the weighted pairing "
                   "with OpenGotha's default settings (implied by --from)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a weighted-pairing setting by OpenGotha's name (paiMaSeedSystem1="
                   "SPLITANDFOLD) or ours (seed_system1=SPLITANDFOLD); repeatable")
    p.add_argument("--rounds", type=int, help="number of rounds (with --from: the file's)")
    p.add_argument("--essential", type=int,
                   help="essential places (prizes, qualifiers); the top group needs twice as many")
    p.add_argument("--bars", default="", metavar="R:P,...",
                   help='McMahon bars, e.g. "2100:0,1800:-1": rating from R starts with P points')
    p.add_argument("--out", type=Path, required=True, metavar="STATE.json")
    p.set_defaults(func=cmd_start)

    p = cmds.add_parser("pair", help="print the next round's pairs and keep them in the state")
    p.add_argument("state", type=Path, metavar="STATE.json")
    p.add_argument("--absent", nargs="+", action="extend", default=[], metavar="PLAYER",
                   help="players (id or name) who miss this round")
    p.set_defaults(func=cmd_pair)

    p = cmds.add_parser("result", help="record round results (columns round, white, black, "
                        "result; or player_a, player_b)")
    p.add_argument("state", type=Path, metavar="STATE.json")
    p.add_argument("results", type=Path, metavar="RESULTS.csv")
    p.set_defaults(func=cmd_result)

    p = cmds.add_parser("standings", help="places with every criterion shown",
                        description="Standings of a state file, or of a played tournament "
                        "read from a go result file with --games.")
    p.add_argument("state", type=Path, nargs="?", metavar="STATE.json")
    p.add_argument("--games", type=Path, metavar="FILE", help="a go tournament result file")
    p.add_argument("--bars", default="", metavar="R:P,...",
                   help="McMahon bars for --games (default: everyone starts at 0)")
    p.add_argument("--players", type=Path, metavar="PLAYERS.csv",
                   help="ratings or grades for --games (name,rating[,id]); they win over "
                   "the file's ranks")
    p.add_argument("--csv", action="store_true", help="CSV instead of aligned text")
    p.add_argument("--levels", action="store_true",
                   help="the level history (U0, U1, ...) instead of the standings")
    p.set_defaults(func=cmd_standings)
