"""Identity commands of ``clubratings``: ``review``, ``players``, ``register``, ``decisions``.

Every answer is a decision stored in the warehouse and, when ``[identity] decisions`` is
configured, written to the decisions file at once, so it can be kept under version control.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from ._common import Exit, config_parent, fail, load_config, locked, wait_parent

__all__ = ["add_review_commands"]


def _reads_only(args: argparse.Namespace) -> bool:
    """Listing and showing only read: they wait for a run in progress, and a run waits for
    them; every answer changes who is who, so it waits for (or refuses during) a run like any
    other writer."""
    return bool((args.command == "review" and not getattr(args, "resolve", None)
                 and (getattr(args, "list", False) or getattr(args, "json", False)))
                or (args.command == "players" and getattr(args, "action", "") == "show"))


@contextlib.contextmanager
def _warehouse(args: argparse.Namespace, cfg: Any) -> Iterator[Any]:
    """The run core's warehouse, under the run lock, for the ``with`` block."""
    with locked(args, cfg, reader=_reads_only(args)) as project:
        yield project.wh


def _export(cfg: Any, wh: Any) -> None:
    from warehouse.review import export_decisions

    if cfg.decisions is not None:
        n = export_decisions(wh, cfg.decisions)
        print(f"decisions file {cfg.decisions} now holds {n} decision(s)")


# --- review -----------------------------------------------------------------------------------

def _describe(item: dict[str, Any], out: TextIO) -> None:
    club = f" ({item['club']})" if item.get("club") else ""
    print(f"{item['item_key']}", file=out)
    print(f"  {item['kind']} {item['name_as_written']!r}{club}: first on {str(item['first_date'])[:10]} "
          f"in {item['first_event']!r}, {item['occurrences']} occurrence(s); held by pending "
          f"player {item['player_id']}", file=out)
    evidence = json.loads(item["evidence"])
    if evidence.get("partners"):
        print(f"  partner(s) in the unit: {', '.join(evidence['partners'])}", file=out)
    by_id = {c["player_id"]: c for c in evidence.get("candidates", [])
             if isinstance(c, dict) and "player_id" in c}
    for n, c in enumerate(json.loads(item["candidates"]), 1):
        bits = []
        if c.get("federation_id"):
            bits.append(f"federation id {c['federation_id']}")
        if c.get("score") is not None:
            bits.append(f"score {c['score']}")
        if c.get("in_club"):
            bits.append("in the club")
        ev = by_id.get(c["player_id"], {})
        if "events_with_partner" in ev:
            bits.append(f"{ev['events_with_partner']} event(s) with the partner")
        if ev.get("played_that_week"):
            bits.append("played in the club that week")
        print(f"  [{n}] player {c['player_id']} {c['name']}"
              + (f" — {', '.join(bits)}" if bits else ""), file=out)


def cmd_review(args: argparse.Namespace) -> int:
    from warehouse.corrections import answer_correction, waiting_answers
    from warehouse.files import change_line, in_force
    from warehouse.review import answer, open_items, repeated


    cfg = load_config(args.config)
    with _warehouse(args, cfg) as wh:
        if args.resolve and args.resolve.startswith(("correction:", "version:", "spelling:")):
            if args.accept + args.keep + args.separate != 1:
                fail(f"--resolve {args.resolve} needs exactly one of --accept (the new version "
                     "replaces the one in force), --keep (the version in force stays) or "
                     "--separate (another event of the same night: both stay)")
            decision = "accepted" if args.accept else "separate" if args.separate else "kept"
            before = in_force(wh)
            answer_correction(wh, args.resolve, decision=decision, note=args.note or "")
            if args.resolve.startswith("spelling:") and decision == "accepted":
                _export(cfg, wh)  # a rename is an identity decision, kept in the file
            said = {"accepted": "accepted", "kept": "kept the version in force",
                    "separate": "both kept as events of their own"}[decision]
            print(f"{said}: {args.resolve}: {change_line(before, in_force(wh))}; clubratings "
                  "recompute && clubratings publish to update the lists")
            return Exit.OK
        if args.resolve:
            choices = [args.as_player is not None, args.new, args.different is not None]
            if sum(choices) != 1:
                fail("--resolve KEY needs exactly one of --as PLAYER, --new, --different PLAYER")
            on_record = repeated(wh, args.resolve, as_player=args.as_player, new=args.new,
                                 different=args.different)  # another answer on record raises
            if on_record is not None:
                print(f"{args.resolve} is already answered so (decision "
                      f"{on_record.decision_id}): nothing to do")
                return Exit.OK
            d = answer(wh, args.resolve, as_player=args.as_player, new=args.new,
                       different=args.different, note=args.note or "")
            print(f"{d.action}: {args.resolve} (decision {d.decision_id})")
            _export(cfg, wh)
            return Exit.OK
        items = open_items(wh).to_dict("records")
        corrections = waiting_answers(wh)
        if args.json:
            for item in items:
                item["first_date"] = str(item["first_date"])
                item["candidates"] = json.loads(item["candidates"])
                item["evidence"] = json.loads(item["evidence"])
            items.extend(c.as_json() for c in corrections)
            print(json.dumps(items, ensure_ascii=False, indent=2, default=str))
            return Exit.OK
        if not items and not corrections:
            print("nothing waits for review")
            return Exit.OK
        if args.list or not sys.stdin.isatty():
            for item in items:
                _describe(item, sys.stdout)
            for c in corrections:
                print("\n".join(c.describe()))
            if items:
                print(f"{len(items)} item(s) wait; answer with: clubratings review --resolve "
                      "KEY --as PLAYER | --new | --different PLAYER")
            if corrections:
                print(f"{len(corrections)} correction(s), new version(s) or spelling(s) wait; "
                      "answer with: clubratings review --resolve KEY --accept | --keep"
                      " (| --separate for a correction:N)")
            return Exit.OK
        code = _interactive(cfg, wh, items, input, sys.stdout)
        return code or _interactive_corrections(wh, corrections, input, sys.stdout)


def _interactive_corrections(wh: Any, corrections: list[Any], ask: Callable[[str], str],
                             out: TextIO) -> int:
    from warehouse.corrections import answer_correction

    for c in corrections:
        print("\n".join(c.describe()), file=out)
        both = c.key.startswith("correction:")  # only a held event can be a second one
        if c.key.startswith("spelling:"):
            prompt = "  a = yes, rename the player, k = no, keep the name listed"
        else:
            prompt = "  a = accept the new version, k = keep the version in force"
        prompt += (", b = both (another event of the same night)" if both else "") + \
            ", s = skip, q = quit: "
        while True:
            reply = ask(prompt).strip().lower()
            if reply == "q":
                return Exit.OK
            if reply in ("s", ""):
                break
            if reply in ("a", "k") or (both and reply == "b"):
                answer_correction(wh, c.key, decision={"a": "accepted", "k": "kept",
                                                       "b": "separate"}[reply])
                break
            print(f"  please answer with a, k,{' b,' if both else ''} s or q", file=out)
    return Exit.OK


def _interactive(cfg: Any, wh: Any, items: list[dict[str, Any]],
                 ask: Callable[[str], str], out: TextIO) -> int:
    from warehouse.review import ReviewError, answer

    for item in items:
        _describe(item, out)
        candidates = json.loads(item["candidates"])
        while True:
            reply = ask("  number = that player, n = a new player, d NUMBER = not that one, "
                        "s = skip, q = quit: ").strip().lower()
            try:
                if reply == "q":
                    _export(cfg, wh)
                    return Exit.OK
                if reply in ("s", ""):
                    break
                if reply == "n":
                    answer(wh, item["item_key"], new=True)
                    break
                if reply.startswith("d") and reply[1:].strip().isdigit():
                    c = candidates[int(reply[1:].strip()) - 1]
                    answer(wh, item["item_key"], different=int(c["player_id"]))
                    break
                if reply.isdigit() and 1 <= int(reply) <= len(candidates):
                    answer(wh, item["item_key"], as_player=int(candidates[int(reply) - 1]
                                                               ["player_id"]))
                    break
            except (ReviewError, IndexError) as exc:
                print(f"  {exc}", file=out)
                continue
            print("  please answer with a candidate number, n, d NUMBER, s or q", file=out)
    _export(cfg, wh)
    return Exit.OK


# --- players, register, decisions --------------------------------------------------------------

def cmd_players(args: argparse.Namespace) -> int:
    from warehouse.explain import ExplainError, find_player
    from warehouse.review import merge_players, split_player


    cfg = load_config(args.config)
    with _warehouse(args, cfg) as wh:
        def resolve(text: str) -> int:  # an id as given, or a name (accents, order ignored)
            return int(text) if text.strip().isdigit() else find_player(wh, text)

        try:
            if args.action == "split" and not args.player.strip().isdigit():
                fail("players split needs the id of the player merged away "
                     "(clubratings players show NAME lists it)")
            player = resolve(args.player)
            into = resolve(args.into) if args.into is not None else None
        except ExplainError as exc:
            fail(str(exc))
        if args.action == "merge":
            if into is None:
                fail("players merge needs --into PLAYER")
            d = merge_players(wh, player, into, note=args.note or "")
            print(f"player {player} merged into {into} (decision {d.decision_id}); "
                  "the next recompute counts their results together")
            _export(cfg, wh)
        elif args.action == "split":
            d = split_player(wh, player, note=args.note or "")
            print(f"player {player} split off again (decision {d.decision_id})")
            _export(cfg, wh)
        else:
            _show(wh, player)
    return Exit.OK


def _show(wh: Any, player: int) -> None:
    from warehouse.review import player_card

    p = player_card(wh, player)
    if p is None:
        fail(f"no player {player}")
    print(f"player {p.player_id}: {p.name} ({p.state}, from {p.origin})"
          + (f", federation id {p.federation_id}" if p.federation_id else "")
          + (f", club {p.club}" if p.club else ""))
    if p.canonical_id != p.player_id:
        print(f"  merged into player {p.canonical_id}")
    print(f"  written as: {', '.join(p.spellings) or '-'}")
    for merged, reason in p.merged_in:
        print(f"  player {merged} merged in ({reason})")
    for register, row, fid, first, surname, club, born, status in p.register:
        print(f"  register {register}, row {row}: {surname} {first}".rstrip()
              + "".join(f", {label} {value}" for label, value in (
                  ("federation id", fid), ("club", club), ("born", born), ("status", status))
                  if value))
    if not p.register:
        print("  register: in no member register")
    print("  clubs: " + ("; ".join(f"{club} ({source})" for club, source in p.clubs) or "-"))
    for game, events, first, last in p.games:
        print(f"  {game}: {events} event(s) in force, {first}..{last}")
    for pool, edition, standing, rating, events in p.lists:
        print(f"  list {pool} {edition}: {standing}, rating {rating}, {events} rated so far")
    if not p.lists:
        print("  lists: on no published list (clubratings recompute, then publish)")
    if p.last_events:
        print("  last events:")
    for day, game, organiser, title, place in p.last_events:
        print(f"    {day} {game} {organiser}: {title}, {place}")


def cmd_register(args: argparse.Namespace) -> int:
    from warehouse.register import load_register

    cfg = load_config(args.config)
    files = [Path(f) for f in args.files] or cfg.register_files()
    for path in files:  # before the warehouse is opened: a wrong name changes nothing
        if not path.is_file():
            fail(f"register file {str(path)!r} "
                 + ("is not a file" if path.exists() else "does not exist"))
    with _warehouse(args, cfg) as wh:
        if not files:
            print("no register files given or configured ([identity] register)")
        for path in files:
            try:
                data = path.read_bytes()
            except OSError as exc:
                fail(f"register file {str(path)!r} cannot be read ({exc.strerror})")
            print(load_register(wh, data, path=str(path)).summary())
    return Exit.OK


def cmd_decisions(args: argparse.Namespace) -> int:
    from warehouse.review import apply_decisions_file, export_decisions


    cfg = load_config(args.config)
    path = args.file or cfg.decisions
    if path is None:
        fail("give a decisions FILE or configure [identity] decisions")
    with _warehouse(args, cfg) as wh:
        if args.action == "export":
            print(f"{export_decisions(wh, path)} decision(s) written to {path}")
        else:
            if not path.exists():
                fail(f"decisions file {str(path)!r} does not exist")
            report = apply_decisions_file(wh, path)
            print(report.summary())
            for line in report.held:
                print(line)
    return Exit.OK


def add_review_commands(sub: Any) -> None:
    """Register ``review``, ``players``, ``register`` and ``decisions`` on the CLI's
    sub-parsers."""
    config, wait = config_parent(), wait_parent()
    p = sub.add_parser(
        "review", parents=[config, wait], help="list and answer names waiting for review",
        description="Names the warehouse could not decide wait here with their candidates and "
        "evidence. Without options: interactive on a terminal, a list otherwise.",
    )
    p.add_argument("--list", action="store_true", help="list the open items and exit")
    p.add_argument("--json", action="store_true", help="list the open items as JSON")
    p.add_argument("--resolve", metavar="KEY", help="answer the item KEY (see --list)")
    p.add_argument("--as", dest="as_player", type=int, metavar="PLAYER",
                   help="KEY is this player (a candidate or any other player id)")
    p.add_argument("--new", action="store_true", help="KEY is a person of its own")
    p.add_argument("--different", type=int, metavar="PLAYER",
                   help="KEY is not this candidate")
    p.add_argument("--accept", action="store_true",
                   help="correction:N: the held new version replaces the one in force")
    p.add_argument("--keep", action="store_true",
                   help="correction:N: the version in force stays; the new one is never rated")
    p.add_argument("--separate", action="store_true",
                   help="correction:N: another event of the same night (a second session), "
                   "not a new version: both stay in force")
    p.add_argument("--note", help="a note kept with the decision")
    p.set_defaults(func=cmd_review)

    p = sub.add_parser("players", parents=[config, wait], help="show, merge or split players")
    p.add_argument("action", choices=("show", "merge", "split"))
    p.add_argument("player", metavar="PLAYER",
                   help="a player id or name (accents and word order ignored; a surname "
                   "alone when only one player has it); split: the id merged away")
    p.add_argument("--into", metavar="PLAYER", help="merge: the player kept (id or name)")
    p.add_argument("--note", help="a note kept with the decision")
    p.set_defaults(func=_players_checked)

    p = sub.add_parser("register", parents=[config, wait],
                       help="load federation member registers (CSV/XLSX/ODS)")
    p.add_argument("files", nargs="*", type=Path, metavar="FILE",
                   help="register files (default: [identity] register in the configuration)")
    p.set_defaults(func=cmd_register)

    p = sub.add_parser("decisions", parents=[config, wait],
                       help="export or apply the identity decisions file")
    p.add_argument("action", choices=("export", "apply"))
    p.add_argument("file", nargs="?", type=Path, metavar="FILE",
                   help="default: [identity] decisions in the configuration")
    p.set_defaults(func=cmd_decisions)


def _players_checked(args: argparse.Namespace) -> int:

    if args.action == "merge" and args.into is None:
        fail("players merge PLAYER needs --into PLAYER (the player kept)")
    return cmd_players(args)
