"""Corrections held for review: a new version of an event that would remove data.

A file that brings an event already in force (same organiser, date, title and section) is a
correction. One that fixes names, places or scores replaces the old version at once. One that
drops more than ``[ingest] correction_hold`` of its units or players, or changes its game, kind
or scoring, is loaded but held (table ``correction_holds``): a truncated or half-deleted re-drop
of a good file must not make the good event vanish from every list without anyone being asked.
The old version stays in force until a person answers (``clubratings review``):

- accept: the new version replaces the old one, as a correction would have at once;
- keep: the old version stays for good; the new one is never rated;
- separate: not a new version but another event of the same night (a hold for the same night
  written with other results, warehouse/_twins.py): both stay in force.

docs/rules/inputs.md says the same for a reader.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Literal

from ._actions import record_action
from ._db import Warehouse
from ._errors import WarehouseError

__all__ = [
    "HeldCorrection", "HeldVersion", "SpellingQuestion", "answer_correction",
    "held_corrections", "held_versions", "spelling_questions", "waiting_answers",
]


@dataclass(frozen=True, slots=True)
class HeldCorrection:
    """A held new version beside the version in force."""

    key: str
    """``correction:<new event id>``: what ``clubratings review --resolve`` takes."""
    new_event: int
    old_event: int
    file_id: int
    file_name: str
    reason: str
    held_at: dt.datetime
    title: str
    event_date: dt.date
    old_units: int
    new_units: int
    old_players: int
    new_players: int
    only_old: tuple[str, ...]
    """Names in the version in force that the new version lacks."""
    only_new: tuple[str, ...]
    """Names in the new version that the version in force lacks."""

    def describe(self) -> list[str]:
        """Old against new, a few lines for a person to decide on."""
        lines = [
            f"{self.key}",
            f"  correction of event {self.old_event} {self.title!r} ({self.event_date}) brought "
            f"by file {self.file_id} {self.file_name!r}, held: {self.reason}",
            f"  in force: {self.old_units} units, {self.old_players} players; "
            f"new version: {self.new_units} units, {self.new_players} players",
        ]
        return lines + _difference_lines(self.only_old, self.only_new)

    def as_json(self) -> dict[str, object]:
        return {"item_key": self.key, "kind": "correction",
                "old_event": self.old_event, "new_event": self.new_event,
                "file_id": self.file_id, "file_name": self.file_name,
                "reason": self.reason, "title": self.title, "event_date": str(self.event_date),
                "old_units": self.old_units, "new_units": self.new_units,
                "old_players": self.old_players, "new_players": self.new_players,
                "only_old": list(self.only_old), "only_new": list(self.only_new)}


@dataclass(frozen=True, slots=True)
class HeldVersion:
    """A new version of a file, held beside the version in force (it would remove data)."""

    key: str
    """``version:<file id>``: what ``clubratings review --resolve`` takes."""
    file_id: int
    file_name: str
    in_force: int
    """The version in force it would supersede."""
    reason: str
    held_at: dt.datetime
    old_events: tuple[str, ...]
    """(date title) of each event of the version in force."""
    new_events: tuple[str, ...]
    only_old: tuple[str, ...]
    only_new: tuple[str, ...]

    def describe(self) -> list[str]:
        lines = [
            f"{self.key}",
            f"  new version of {self.file_name!r} (file {self.file_id}, the version in force "
            f"is file {self.in_force}), held: {self.reason}",
            f"  in force: {len(self.old_events)} event(s) ({_names(self.old_events, 4)}); "
            f"new version: {len(self.new_events)} event(s) ({_names(self.new_events, 4)})",
        ]
        return lines + _difference_lines(self.only_old, self.only_new)

    def as_json(self) -> dict[str, object]:
        return {"item_key": self.key, "kind": "version", "file_id": self.file_id,
                "file_name": self.file_name, "in_force": self.in_force, "reason": self.reason,
                "old_events": list(self.old_events), "new_events": list(self.new_events),
                "only_old": list(self.only_old), "only_new": list(self.only_new)}


def _file_events(wh: Warehouse, file_id: int) -> tuple[tuple[str, ...], list[str]]:
    events = tuple(f"{r[0]} {r[1]}" for r in wh.con.execute(
        "SELECT event_date::VARCHAR, title FROM events WHERE file_id = ? ORDER BY event_id",
        [file_id]).fetchall())
    names = [str(r[0]) for r in wh.con.execute(
        "SELECT m.name_as_written FROM unit_members m JOIN events e USING (event_id) "
        "WHERE e.file_id = ? ORDER BY m.event_id, m.unit_no, m.seat", [file_id]).fetchall()]
    return events, names


def held_versions(wh: Warehouse) -> list[HeldVersion]:
    """New versions waiting for an answer (not withdrawn), oldest first."""
    rows = wh.con.execute(
        "SELECT v.file_id, f.name, c.file_id, v.hold, f.loaded_at FROM file_versions v "
        "JOIN source_files f USING (file_id) "
        "LEFT JOIN current_files c ON c.chain = v.chain "
        "WHERE v.hold <> '' AND v.decision IS NULL "
        "  AND v.file_id NOT IN (SELECT file_id FROM withdrawn_files) "
        "ORDER BY v.file_id").fetchall()
    out: list[HeldVersion] = []
    for file_id, name, current, reason, held_at in rows:
        new_events, now = _file_events(wh, int(file_id))
        old_events, was = _file_events(wh, int(current)) if current is not None else ((), [])
        out.append(HeldVersion(
            f"version:{file_id}", int(file_id), str(name),
            int(current) if current is not None else 0, str(reason), held_at,
            old_events, new_events,
            tuple(dict.fromkeys(_only(was, now))), tuple(dict.fromkeys(_only(now, was)))))
    return out


@dataclass(frozen=True, slots=True)
class SpellingQuestion:
    """A new version wrote a player's name another way at the same seat: spelling fixed?"""

    key: str
    """``spelling:<player id>:<name key>``: what ``clubratings review --resolve`` takes."""
    player_id: int
    shown: str
    """The name the lists show now."""
    was: str
    """The spelling the version before wrote."""
    new: str
    file_name: str

    def describe(self) -> list[str]:
        return [
            f"{self.key}",
            f"  same person, spelling fixed? {self.file_name!r} now writes {self.new!r} where "
            f"the version before wrote {self.was!r} (player {self.player_id}, listed as "
            f"{self.shown!r}; rated as that player meanwhile)",
            f"  --accept: list the player as {self.new!r} everywhere ({self.was!r} stays a "
            "spelling of the player); --keep: keep the name listed now",
        ]

    def as_json(self) -> dict[str, object]:
        return {"item_key": self.key, "kind": "spelling", "player_id": self.player_id,
                "shown": self.shown, "was": self.was, "new": self.new,
                "file_name": self.file_name}


def spelling_questions(wh: Warehouse) -> list[SpellingQuestion]:
    """The open "same person, spelling fixed?" questions, oldest first."""
    rows = wh.con.execute(
        "SELECT r.item_key, r.player_id, p.name, r.evidence, r.name_as_written "
        "FROM review_items r JOIN players p USING (player_id) "
        "WHERE r.kind = 'spelling' AND r.status = 'open' "
        "ORDER BY r.created_at, r.item_key").fetchall()
    out = []
    for key, pid, shown, evidence, new in rows:
        facts = json.loads(str(evidence or "{}"))
        out.append(SpellingQuestion(str(key), int(pid), str(shown), str(facts.get("was", "")),
                                    str(new), str(facts.get("file", ""))))
    return out


def waiting_answers(wh: Warehouse) -> list[HeldCorrection | HeldVersion | SpellingQuestion]:
    """Every held new version, held correction and spelling question waiting for a person."""
    return [*held_versions(wh), *held_corrections(wh), *spelling_questions(wh)]


def _answer_spelling(wh: Warehouse, key: str, *, decision: Decision,
                     note: str) -> SpellingQuestion:
    from .review import rename_player

    held = {q.key: q for q in spelling_questions(wh)}
    if key not in held:
        raise WarehouseError(f"no spelling question {key!r} waits for an answer "
                             "(clubratings review --list shows those that do)")
    if decision == "separate":
        raise WarehouseError(f"{key}: answer --accept (the spelling is fixed) or --keep")
    item = held[key]
    if decision == "accepted":
        rename_player(wh, item.player_id, item.new, item_key=key,
                      note=note or f"spelling fixed in {item.file_name}")
    else:
        with wh.transaction():
            wh.con.execute("UPDATE review_items SET status = 'resolved' WHERE item_key = ?",
                           [key])
    return item


def _difference_lines(only_old: tuple[str, ...], only_new: tuple[str, ...]) -> list[str]:
    """The names only one side has, a line for each side that has some."""
    lines = []
    if only_old:
        lines.append(f"  only in the version in force: {_names(only_old)}")
    if only_new:
        lines.append(f"  only in the new version: {_names(only_new)}")
    return lines


def _only(names: list[str], other: list[str]) -> tuple[str, ...]:
    """The names of ``names`` that ``other`` lacks, in order."""
    lacking = set(other)
    return tuple(n for n in names if n not in lacking)


def _names(names: tuple[str, ...], shown: int = 12) -> str:
    text = ", ".join(names[:shown])
    return text + (f" and {len(names) - shown} more" if len(names) > shown else "")


def _members(wh: Warehouse, event_id: int) -> list[str]:
    return [str(r[0]) for r in wh.con.execute(
        "SELECT name_as_written FROM unit_members WHERE event_id = ? ORDER BY unit_no, seat",
        [event_id]).fetchall()]


def held_corrections(wh: Warehouse) -> list[HeldCorrection]:
    """The corrections waiting for an answer whose old version is still in force (one
    replaced since by another correction waits no more), oldest first."""
    if not wh.con.execute("SELECT count(*) FROM correction_holds WHERE decision IS NULL"
                          ).fetchall()[0][0]:
        return []  # (the usual case: the view of the events in force is not planned)
    rows = wh.con.execute(
        "SELECT c.event_id, c.replaces, c.file_id, f.name, c.reason, c.held_at, o.title, "
        "       o.event_date, o.n_units, n.n_units "
        "FROM correction_holds c JOIN events n ON n.event_id = c.event_id "
        "JOIN active_events o ON o.event_id = c.replaces "
        "JOIN source_files f ON f.file_id = c.file_id "
        "WHERE c.decision IS NULL "
        "  AND c.file_id NOT IN (SELECT file_id FROM withdrawn_files) "
        "ORDER BY c.held_at, c.event_id").fetchall()
    out: list[HeldCorrection] = []
    for new, old, file_id, name, reason, held_at, title, date, old_units, new_units in rows:
        was, now = _members(wh, int(old)), _members(wh, int(new))
        out.append(HeldCorrection(
            f"correction:{new}", int(new), int(old), int(file_id), str(name), str(reason),
            held_at, str(title), date, int(old_units), int(new_units), len(was), len(now),
            _only(was, now), _only(now, was),
        ))
    return out


Decision = Literal["accepted", "kept", "separate"]


def answer_correction(wh: Warehouse, key: str, *, decision: Decision, note: str = "",
                      now: dt.datetime | None = None,
                      ) -> HeldCorrection | HeldVersion | SpellingQuestion:
    """Answer the held correction ``key`` (``correction:N`` or ``N``): ``accepted`` replaces
    the version in force by it; ``kept`` keeps the version in force for good; ``separate``
    says it is another event of the same night, in force beside the other."""
    if key.startswith("version:"):
        return _answer_version(wh, key, decision=decision, note=note, now=now)
    if key.startswith("spelling:"):
        return _answer_spelling(wh, key, decision=decision, note=note)
    wanted = key.removeprefix("correction:")
    held = {h.new_event: h for h in held_corrections(wh)}
    if not wanted.isdigit() or int(wanted) not in held:
        raise WarehouseError(f"no held correction {key!r} waits for an answer "
                             "(clubratings review --list shows those that do)")
    item = held[int(wanted)]
    stamp = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    with wh.transaction(force=True):
        if decision == "accepted":
            wh.con.execute(
                "INSERT INTO event_replacements (event_id, replaced_by, file_id, replaced_at) "
                "VALUES (?, ?, ?, ?)", [item.old_event, item.new_event, item.file_id, stamp])
            wh.con.execute("UPDATE source_files SET status = 'correction' WHERE file_id = ?",
                           [item.file_id])
        wh.con.execute(
            "UPDATE correction_holds SET decision = ?, decided_at = ?, note = ? "
            "WHERE event_id = ?", [decision, stamp, note, item.new_event])
        record_action(wh.con, item.file_id, decision, stamp,
                      note or f"correction of event {item.old_event} by event {item.new_event}")
    return item


def _answer_version(wh: Warehouse, key: str, *, decision: Decision, note: str,
                    now: dt.datetime | None) -> HeldVersion:
    """``accepted``: the held version supersedes the version in force (as it would have at
    once); ``kept``: the version in force stays, the held one is never in force."""
    held = {h.key: h for h in held_versions(wh)}
    if key not in held:
        raise WarehouseError(f"no held version {key!r} waits for an answer "
                             "(clubratings review --list shows those that do)")
    if decision == "separate":
        raise WarehouseError(f"{key} is a new version of a file, not another event: answer "
                             "--accept (it supersedes the version in force) or --keep")
    item = held[key]
    stamp = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    with wh.transaction(force=True):
        wh.con.execute("UPDATE file_versions SET decision = ?, decided_at = ?, note = ? "
                       "WHERE file_id = ?", [decision, stamp, note, item.file_id])
        record_action(wh.con, item.file_id, decision, stamp,
                      note or f"new version of file {item.in_force}")
    return item
