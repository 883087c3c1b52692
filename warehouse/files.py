"""Loaded files: list them, show one, withdraw one (take it back), undo a withdrawal.

A withdrawal takes a loaded file's events out of every later rating run and list, and lets the
events its corrections had replaced come back; nothing is deleted, and ``file_withdrawals`` is
the audit trail (who and when is the row, why is its ``reason``). Undoing it restores the file
exactly: the next recompute finds the same inputs as before the withdrawal and reuses that run,
so the lists come back byte for byte. The same bytes dropped again while withdrawn are refused
(:func:`withdrawal_of`), with the way to undo the withdrawal.

A file is named by its id, its SHA-256 (or a prefix of at least 6 characters) or its file name
(when only one loaded file has that name).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ._actions import record_action
from ._db import Warehouse
from ._errors import WarehouseError

__all__ = [
    "FileInfo", "FileNotFound", "InForce", "LoadedFile", "Withdrawal", "change_line",
    "event_keys_of_files", "file_details", "files_in_force", "find_file", "in_force",
    "list_files", "release_file", "restore_file", "withdraw_file", "withdrawal_of",
    "withdrawals_in_force",
]


class FileNotFound(WarehouseError):
    """No loaded file (or more than one) answers to the name given."""


@dataclass(frozen=True, slots=True)
class LoadedFile:
    file_id: int
    name: str
    sha256: str
    format: str
    loaded_at: dt.datetime
    status: str
    """``loaded``, ``correction``, ``same`` (the same results as a file loaded before),
    ``held`` (waiting for a person to confirm its dates), ``held version`` (a new version
    waiting for a person), ``kept out`` (a new version a person refused), ``superseded`` (a
    newer version is in force) or ``withdrawn``."""
    events: int
    events_in_force: int


@dataclass(frozen=True, slots=True)
class Withdrawal:
    withdrawal_id: int
    file_id: int
    withdrawn_at: dt.datetime
    reason: str
    undone_at: dt.datetime | None


@dataclass(frozen=True, slots=True)
class FileInfo:
    file: LoadedFile
    path: str
    events: tuple[tuple[int, str, str, str, str, bool], ...]
    """(event id, date, organiser, title, section, in force) of each event the file brought."""
    replaced: tuple[tuple[int, int], ...]
    """(event id replaced, by event id) for the corrections the file brought."""
    withdrawals: tuple[Withdrawal, ...]


_FILES = """
SELECT f.file_id, f.name, f.sha256, f.format, f.loaded_at,
       CASE WHEN f.file_id IN (SELECT file_id FROM withdrawn_files) THEN 'withdrawn'
            WHEN f.file_id IN (SELECT file_id FROM file_versions
                               WHERE hold <> '' AND decision IS NULL) THEN 'held version'
            WHEN f.file_id IN (SELECT file_id FROM file_versions
                               WHERE hold <> '' AND decision = 'kept') THEN 'kept out'
            WHEN f.file_id NOT IN (SELECT file_id FROM current_files) THEN 'superseded'
            WHEN f.file_id IN (SELECT file_id FROM file_holds WHERE released_at IS NULL)
            THEN 'held' ELSE f.status END AS status,
       f.n_events,
       (SELECT count(*) FROM active_events a WHERE a.file_id = f.file_id) AS in_force
FROM source_files f
"""


def _loaded(row: tuple[object, ...]) -> LoadedFile:
    file_id, name, sha, fmt, loaded_at, status, n, in_force = row
    return LoadedFile(int(file_id), str(name), str(sha), str(fmt), loaded_at,  # type: ignore[arg-type]
                      str(status), int(n), int(in_force))  # type: ignore[call-overload]


def list_files(wh: Warehouse) -> list[LoadedFile]:
    """Every loaded file, in load order."""
    return [_loaded(r) for r in wh.con.execute(_FILES + " ORDER BY f.file_id").fetchall()]


def find_file(wh: Warehouse, ref: str) -> int:
    """The id of the file ``ref`` names (id, SHA-256 or its prefix, or file name)."""
    text = ref.strip()
    if text.isdigit():
        rows = wh.con.execute("SELECT file_id FROM source_files WHERE file_id = ?",
                              [int(text)]).fetchall()
        if rows:
            return int(rows[0][0])
    if len(text) >= 6 and all(c in "0123456789abcdef" for c in text.lower()):
        rows = wh.con.execute("SELECT file_id FROM source_files WHERE starts_with(sha256, ?)",
                              [text.lower()]).fetchall()
        if len(rows) == 1:
            return int(rows[0][0])
    rows = wh.con.execute("SELECT file_id FROM source_files WHERE name = ? ORDER BY file_id",
                          [text.rsplit("/", 1)[-1]]).fetchall()
    if len(rows) == 1:
        return int(rows[0][0])
    if len(rows) > 1:
        ids = ", ".join(str(r[0]) for r in rows)
        raise FileNotFound(f"{len(rows)} loaded files are named {text!r} (ids {ids}); "
                           f"name one by its id (clubratings files history {text} shows "
                           "which is which)")
    raise FileNotFound(f"no loaded file is {text!r} (give its id, SHA-256 or file name; "
                       "clubratings files list shows them)")


def _withdrawals(wh: Warehouse, file_id: int) -> tuple[Withdrawal, ...]:
    rows = wh.con.execute(
        "SELECT withdrawal_id, file_id, withdrawn_at, reason, undone_at FROM file_withdrawals "
        "WHERE file_id = ? ORDER BY withdrawal_id", [file_id]).fetchall()
    return tuple(Withdrawal(int(r[0]), int(r[1]), r[2], str(r[3]), r[4]) for r in rows)


def file_details(wh: Warehouse, file_id: int) -> FileInfo:
    """One file: what it brought, what it replaced, its withdrawals."""
    row = wh.con.execute(_FILES + " WHERE f.file_id = ?", [file_id]).fetchall()
    if not row:
        raise FileNotFound(f"no loaded file has id {file_id}")
    path = wh.con.execute("SELECT path FROM source_files WHERE file_id = ?",
                          [file_id]).fetchall()[0][0]
    events = wh.con.execute(
        "SELECT e.event_id, e.event_date::VARCHAR, e.organiser, e.title, e.section, "
        "e.event_id IN (SELECT event_id FROM active_events) "
        "FROM events e WHERE e.file_id = ? ORDER BY e.event_id", [file_id]).fetchall()
    replaced = wh.con.execute(
        "SELECT event_id, replaced_by FROM event_replacements WHERE file_id = ? ORDER BY 1",
        [file_id]).fetchall()
    return FileInfo(
        _loaded(row[0]), str(path),
        tuple((int(e[0]), str(e[1]), str(e[2]), str(e[3]), str(e[4]), bool(e[5]))
              for e in events),
        tuple((int(a), int(b)) for a, b in replaced), _withdrawals(wh, file_id))


def event_keys_of_files(wh: Warehouse,
                        file_ids: list[int]) -> dict[int, list[tuple[str, str, str, str]]]:
    """Per file, its events as (day, organiser, title, section), in load order: what
    :func:`file_details` gives one file at a time, for many files in one query (a report
    listing thousands of held files)."""
    found: dict[int, list[tuple[str, str, str, str]]] = {f: [] for f in file_ids}
    if not file_ids:
        return found
    for file_id, day, organiser, title, section in wh.con.execute(
            "SELECT file_id, event_date::VARCHAR, organiser, title, section FROM events "
            "WHERE file_id IN (SELECT unnest(?::INTEGER[])) ORDER BY file_id, event_id",
            [file_ids]).fetchall():
        found[int(file_id)].append((str(day), str(organiser), str(title), str(section)))
    return found


def _in_force(wh: Warehouse, file_id: int) -> Withdrawal | None:
    return next((w for w in reversed(_withdrawals(wh, file_id)) if w.undone_at is None), None)


def withdraw_file(wh: Warehouse, file_id: int, *, reason: str = "",
                  now: dt.datetime | None = None) -> Withdrawal:
    """Take a loaded file back: its events leave every later run; the audit row is returned."""
    file_details(wh, file_id)  # FileNotFound
    if (current := _in_force(wh, file_id)) is not None:
        raise WarehouseError(f"file {file_id} is already withdrawn (since "
                             f"{current.withdrawn_at:%Y-%m-%d %H:%M})")
    stamp = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    with wh.transaction(force=True) as con:
        new_id = int(con.execute(
            "SELECT coalesce(max(withdrawal_id), 0) + 1 FROM file_withdrawals").fetchall()[0][0])
        con.execute("INSERT INTO file_withdrawals VALUES (?, ?, ?, ?, NULL)",
                    [new_id, file_id, stamp, reason or "withdrawn"])
        record_action(con, file_id, "withdrawn", stamp, reason or "withdrawn")
    return Withdrawal(new_id, file_id, stamp, reason or "withdrawn", None)


def restore_file(wh: Warehouse, file_id: int, *, now: dt.datetime | None = None) -> Withdrawal:
    """Undo the withdrawal in force. What comes back into force is what the chain of versions
    and the other files then say (:func:`files_in_force`): a restored older version stays
    superseded by a newer one in force, a restored newer version supersedes again."""
    file_details(wh, file_id)
    current = _in_force(wh, file_id)
    if current is None:
        raise WarehouseError(f"file {file_id} is not withdrawn")
    stamp = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    with wh.transaction(force=True) as con:
        con.execute("UPDATE file_withdrawals SET undone_at = ? WHERE withdrawal_id = ?",
                    [stamp, current.withdrawal_id])
        record_action(con, file_id, "restored", stamp)
    return Withdrawal(current.withdrawal_id, file_id, current.withdrawn_at, current.reason, stamp)


def withdrawals_in_force(wh: Warehouse) -> dict[int, Withdrawal]:
    """The withdrawal in force of every withdrawn file, by file id: read once for a run, so
    that a known file costs no query however many files the warehouse holds."""
    found: dict[int, Withdrawal] = {}
    for r in wh.con.execute(
            "SELECT withdrawal_id, file_id, withdrawn_at, reason, undone_at FROM file_withdrawals "
            "WHERE undone_at IS NULL ORDER BY withdrawal_id").fetchall():
        found[int(r[1])] = Withdrawal(int(r[0]), int(r[1]), r[2], str(r[3]), r[4])
    return found


def withdrawal_of(wh: Warehouse, sha256: str) -> tuple[int, Withdrawal] | None:
    """(file id, withdrawal) when these bytes were loaded and are withdrawn now."""
    rows = wh.con.execute("SELECT file_id FROM source_files WHERE sha256 = ?",
                          [sha256]).fetchall()
    if not rows:
        return None
    current = _in_force(wh, int(rows[0][0]))
    return None if current is None else (int(rows[0][0]), current)


def release_file(wh: Warehouse, file_id: int, *, now: dt.datetime | None = None) -> str:
    """Confirm a held file (its dates are right): its events are rated from the next recompute
    on. Returns why it was held; the hold row stays as the audit trail."""
    file_details(wh, file_id)  # FileNotFound
    rows = wh.con.execute("SELECT reason FROM file_holds WHERE file_id = ? AND released_at "
                          "IS NULL", [file_id]).fetchall()
    if not rows:
        raise WarehouseError(f"file {file_id} is not held")
    stamp = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    with wh.transaction() as con:
        con.execute("UPDATE file_holds SET released_at = ? WHERE file_id = ?", [stamp, file_id])
        record_action(con, file_id, "released", stamp, str(rows[0][0]))
    return str(rows[0][0])


def files_in_force(wh: Warehouse) -> list[int]:
    """The files in force, in load order: of each chain of versions its latest file that is
    neither withdrawn nor a held or refused version. A fresh load of these files, in this
    order, gives the events in force (docs/rules/inputs.md, "Versions of a file")."""
    return [int(r[0]) for r in wh.con.execute(
        "SELECT file_id FROM current_files ORDER BY file_id").fetchall()]


@dataclass(frozen=True, slots=True)
class InForce:
    """One event in force: what a change of force lists."""

    event_id: int
    file_id: int
    date: str
    title: str


def in_force(wh: Warehouse) -> dict[int, InForce]:
    """The events in force now, by id."""
    return {int(r[0]): InForce(int(r[0]), int(r[1]), str(r[2]), str(r[3]))
            for r in wh.con.execute(
                "SELECT event_id, file_id, event_date::VARCHAR, title FROM active_events"
            ).fetchall()}


def _events_line(events: list[InForce]) -> str:
    by_file: dict[int, list[InForce]] = {}
    for ev in sorted(events, key=lambda e: (e.file_id, e.date, e.event_id)):
        by_file.setdefault(ev.file_id, []).append(ev)
    parts = []
    for file_id, evs in by_file.items():
        days = sorted({e.date for e in evs})
        span = days[0] if len(days) == 1 else f"{days[0]}..{days[-1]}"
        parts.append(f"{len(evs)} event(s) of file {file_id} ({span})")
    return ", ".join(parts)


def change_line(before: dict[int, InForce], after: dict[int, InForce]) -> str:
    """What a change did to the events in force, in one line."""
    left = [e for i, e in before.items() if i not in after]
    came = [e for i, e in after.items() if i not in before]
    parts = []
    if came:
        parts.append(f"into force: {_events_line(came)}")
    if left:
        parts.append(f"out of force: {_events_line(left)}")
    return "; ".join(parts) or "no event changes force"
