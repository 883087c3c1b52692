"""A file's history: its versions, what each brought into force, and what people did to them.

``clubratings files history NAME`` prints it; the import report shows the versions a run
loaded and the actions taken since the report before (docs/rules/inputs.md, "Versions of a
file").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ._db import Warehouse
from ._errors import translated
from .files import FileNotFound, find_file

__all__ = ["Action", "actions_since", "file_history"]


@dataclass(frozen=True, slots=True)
class Action:
    """One row of the trail: a person did something to a loaded file."""

    at: dt.datetime
    file_id: int
    name: str
    action: str
    by: str
    note: str

    def line(self) -> str:
        who = f" by {self.by}" if self.by else ""
        note = f": {self.note}" if self.note else ""
        return f"{self.at:%Y-%m-%d %H:%M}  file {self.file_id} {self.action}{who}{note}"


_ACTIONS = ("SELECT a.acted_at, a.file_id, f.name, a.action, a.by_user, a.note FROM file_actions a "
            "JOIN source_files f USING (file_id)")


def _actions(rows: list[tuple[object, ...]]) -> list[Action]:
    return [Action(r[0], int(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]))  # type: ignore[arg-type, call-overload]
            for r in rows]


@translated
def actions_since(wh: Warehouse, since: dt.datetime | str | None) -> list[Action]:
    """What people did to files since ``since`` (everything when None), oldest first."""
    if since in (None, ""):
        return _actions(wh.con.execute(_ACTIONS + " ORDER BY a.action_id").fetchall())
    return _actions(wh.con.execute(_ACTIONS + " WHERE a.acted_at >= CAST(? AS TIMESTAMP) "
                                   "ORDER BY a.action_id", [str(since)]).fetchall())


def _state(row: tuple[object, ...]) -> str:
    file_id, withdrawn, hold, decision, current, superseded_by, held = row[:7]
    if withdrawn:
        return "withdrawn"
    if hold and decision is None:
        return f"held: {hold}"
    if hold and decision == "kept":
        return "kept out (the version before it stays)"
    if current:
        return "IN FORCE" + (" (held for its dates)" if held else "")
    if superseded_by is not None:
        return f"superseded by file {superseded_by}"
    return "not in force"


@translated
def file_history(wh: Warehouse, ref: str) -> list[str]:
    """The versions of every chain of files named like ``ref`` (a file name, or any file's id
    or SHA-256), oldest first, and what people did to them."""
    try:
        file_id = find_file(wh, ref)
        name = str(wh.con.execute("SELECT name FROM source_files WHERE file_id = ?",
                                  [file_id]).fetchall()[0][0])
    except FileNotFound:
        name = ref.strip().rsplit("/", 1)[-1]
    rows = wh.con.execute(
        "SELECT f.file_id, f.file_id IN (SELECT file_id FROM withdrawn_files), "
        "       coalesce(v.hold, ''), v.decision, "
        "       f.file_id IN (SELECT file_id FROM current_files), "
        "       (SELECT c.file_id FROM current_files c WHERE c.chain = coalesce(v.chain, "
        "        f.file_id) AND c.file_id > f.file_id), "
        "       f.file_id IN (SELECT file_id FROM file_holds WHERE released_at IS NULL), "
        "       coalesce(v.chain, f.file_id), v.previous, f.loaded_at, f.path, f.sha256, "
        "       f.n_events, "
        "       (SELECT count(*) FROM active_events a WHERE a.file_id = f.file_id), "
        "       (SELECT min(event_date)::VARCHAR || '..' || max(event_date)::VARCHAR "
        "        FROM events e WHERE e.file_id = f.file_id) "
        "FROM source_files f LEFT JOIN file_versions v USING (file_id) "
        "WHERE lower(f.name) = lower(?) ORDER BY coalesce(v.chain, f.file_id), f.file_id",
        [name]).fetchall()
    if not rows:
        raise FileNotFound(f"no loaded file is named {name!r} (clubratings files list shows "
                           "them)")
    chains = sorted({int(r[7]) for r in rows})
    lines = [f"{name}: {len(rows)} file(s) in {len(chains)} chain(s) of versions"]
    for chain in chains:
        if len(chains) > 1:
            lines.append(f"chain of file {chain}:")
        for number, r in enumerate((r for r in rows if int(r[7]) == chain), 1):
            span = str(r[14] or "")
            first, _, last = span.partition("..")
            days = first if first == last else span
            previous = f", supersedes file {r[8]}" if r[8] is not None else ""
            lines.append(f"  v{number}  file {r[0]}  loaded {r[9]:%Y-%m-%d %H:%M}  "
                         f"{r[10]}  sha256 {str(r[11])[:12]}{previous}")
            lines.append(f"       {r[12]} event(s) {days}; {r[13]} in force; {_state(r)}")
    ids = [int(r[0]) for r in rows]
    marks = ", ".join("?" for _ in ids)
    trail = _actions(wh.con.execute(_ACTIONS + f" WHERE a.file_id IN ({marks}) "
                                    "ORDER BY a.action_id", ids).fetchall())
    if trail:
        lines.append("what people did:")
        lines.extend("  " + a.line() for a in trail)
    return lines
