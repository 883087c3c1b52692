"""``clubratings files``: the loaded files; withdraw one (take it back) or undo that; release
one held for its dates.

``withdraw`` and ``restore`` change what the next run rates, so they take the run lock like
``ingest``; ``list`` and ``show`` only read, and take it as readers (they wait for a run). The
rules are warehouse/files.py's.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import Exit, config_parent, fail, load_config, locked, wait_parent

__all__ = ["add_files_commands"]


def cmd_files(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    # list and show take the lock too, as readers: a run in progress is waited for, and never
    # meets a second process holding the warehouse
    with locked(args, cfg, reader=args.action in ("list", "show"), project=False):
        return _files(args, cfg)


def _files(args: argparse.Namespace, cfg: Any) -> int:
    from warehouse import open_warehouse
    from warehouse.files import (
        change_line, file_details, find_file, in_force, list_files, release_file, restore_file,
        withdraw_file,
    )
    from warehouse.history import file_history

    if args.action in ("show", "withdraw", "restore", "release", "history") and not args.file:
        fail(f"files {args.action} needs a FILE (its id, SHA-256 or file name)")
    with open_warehouse(cfg.warehouse) as wh:
        if args.action == "list":
            print(f"{'id':>5}  {'status':<10} {'events':>6} {'in force':>8}  {'loaded':<16}  "
                  f"{'format':<14} name")
            for f in list_files(wh):
                print(f"{f.file_id:>5}  {f.status:<10} {f.events:>6} {f.events_in_force:>8}  "
                      f"{f.loaded_at:%Y-%m-%d %H:%M}  {f.format:<14} {f.name}")
            return Exit.OK
        if args.action == "history":
            for line in file_history(wh, args.file):
                print(line)
            return Exit.OK
        file_id = find_file(wh, args.file)
        before = in_force(wh)
        if args.action == "withdraw":
            w = withdraw_file(wh, file_id, reason=args.reason or "")
            print(f"file {file_id} withdrawn ({w.reason}): {change_line(before, in_force(wh))}; "
                  f"clubratings recompute && clubratings publish to update the lists; "
                  f"clubratings files restore {file_id} undoes it")
            return Exit.OK
        if args.action == "release":
            why = release_file(wh, file_id)
            print(f"file {file_id} released (it was held: {why}): its events are rated from "
                  "the next run; clubratings recompute && clubratings publish to update the "
                  "lists now")
            return Exit.OK
        if args.action == "restore":
            restore_file(wh, file_id)
            print(f"file {file_id} restored: {change_line(before, in_force(wh))}; "
                  "clubratings recompute && clubratings publish to update the lists")
            return Exit.OK
        info = file_details(wh, file_id)
        f = info.file
        print(f"file {f.file_id}: {f.name} ({f.format}, {f.status})")
        print(f"  from {info.path}, loaded {f.loaded_at:%Y-%m-%d %H:%M}, sha256 {f.sha256}")
        for event_id, day, organiser, title, section, in_force in info.events:
            where = f" / {section}" if section else ""
            state = "" if in_force else "  (not in force)"
            print(f"  event {event_id}: {day} {organiser} {title}{where}{state}")
        for old, new in info.replaced:
            print(f"  replaced event {old} by event {new}")
        for w in info.withdrawals:
            undone = f", undone {w.undone_at:%Y-%m-%d %H:%M}" if w.undone_at else ""
            print(f"  withdrawn {w.withdrawn_at:%Y-%m-%d %H:%M} ({w.reason}){undone}")
    return Exit.OK


def add_files_commands(sub: Any) -> None:
    """Register ``files`` on the CLI's sub-parsers."""
    p = sub.add_parser(
        "files", parents=[config_parent(), wait_parent()],
        help="list loaded files; withdraw one or undo that",
        description="list: every loaded file with its status; show FILE: its events, the "
        "corrections it brought and its withdrawals; history NAME: every version of a file of "
        "that name, what each brought into force and who withdrew, restored, released or "
        "answered what and when; withdraw FILE: take a loaded file back (its "
        "events leave every later list, with an audit row; the same bytes dropped again are "
        "refused); restore FILE: undo the withdrawal; release FILE: confirm a file held for its "
        "dates (an event in the future, or years away from the rest), so its events are rated. "
        "FILE is an id, a SHA-256 (or 6+ leading characters) or a file name.",
    )
    p.add_argument("action", choices=("list", "show", "history", "withdraw", "restore",
                                      "release"))
    p.add_argument("file", nargs="?", metavar="FILE")
    p.add_argument("--reason", help="withdraw: why, kept in the audit row")
    p.set_defaults(func=cmd_files)
