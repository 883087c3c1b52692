"""Loading one parsed file into the warehouse: all of it in one transaction, or nothing.

A file's SHA-256 decides whether it is new: the same bytes again load nothing. A file of the
same name as a loaded one, with an organiser in common and results that overlap, is a new
version of it (``file_versions``): it supersedes every event of the version before it. An
event whose natural key (organiser, date, title, section) is already in force from a file of
another name is a correction of it: the latest loaded is in force, and ``event_replacements``
records it for the audit trail. What is in force is derived from these rows by the view
``active_events`` (migration 016); docs/rules/inputs.md says the same for a reader.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Literal

from games import GAMES
from parsers import Event, ParseResult
from parsers._gate import check as gate_check
from parsers.go_grades import GoPlayerAsWritten

from ._atomic import atomic_write
from ._db import Warehouse
from ._errors import LoadError
from .files import Withdrawal, withdrawals_in_force
from ._identity_db import resolver_for
from ._twins import (
    NEAR_OVERLAP, Print, differences, identical, near_match, organiser_key, print_of,
    same_results, stored_print, taken_over, with_members,
)
from .identity import IdentityResolver, IdentitySettings, name_key

__all__ = [
    "LoadReport", "Loader", "Parsed", "ResolverFactory", "file_sha256", "is_loaded",
    "load_result", "raw_bytes", "remove_orphan_raw",
]

ResolverFactory = Callable[[Warehouse, IdentitySettings], IdentityResolver]


@dataclass(frozen=True, slots=True)
class LoadReport:
    """What loading one file did."""

    name: str
    sha256: str
    status: Literal["loaded", "correction", "duplicate", "same"]
    file_id: int | None
    events: int
    replaced_events: tuple[int, ...]
    players_created: int
    waiting: tuple[tuple[str, str], ...] = ()
    """(name as written, review item key) of each new name waiting for a person; the events
    holding them are loaded but not rated until it is answered."""
    held: str = ""
    """Why the file is held for a person's confirmation (an event dated in the future, or far
    outside the span of its game's events); "" when it is not held."""
    held_corrections: tuple[tuple[int, int, str], ...] = ()
    """(event in force, its held new version, why) of each correction that would remove data:
    the old version stays in force until a person answers (clubratings review)."""
    same_as: tuple[tuple[int, int, str], ...] = ()
    """(stored event, the event in force it renders again, that event's file name) of each
    event whose results are already in force from another file: stored, not counted again."""
    version_of: tuple[int, str] | None = None
    """(file id, name) of the version this file supersedes (the latest file of its name)."""
    left: int = 0
    """How many events of the version in force left force with this new version."""
    version_held: str = ""
    """Why this new version waits for a person (the version before it stays in force)."""

    def same_files(self) -> tuple[str, ...]:
        """The files whose events this one renders again, each once."""
        return tuple(dict.fromkeys(name for _, _, name in self.same_as))

    def summary(self) -> str:
        if self.status == "duplicate":
            return f"{self.name}: already loaded (same bytes as file {self.file_id}), nothing to do"
        if self.status == "same":
            return (f"{self.name}: same results as {', '.join(self.same_files())} "
                    f"({self.events} event(s)), not counted again")
        text = f"{self.name}: loaded {self.events - len(self.same_as)} event(s)"
        if self.version_of is not None and self.version_held:
            text = (f"{self.name}: new version of file {self.version_of[0]} HELD for review: "
                    f"{self.version_held}; the version in force stays until answered "
                    f"(clubratings review --resolve version:{self.file_id} --accept or --keep)")
        elif self.version_of is not None:
            text = (f"{self.name}: new version of file {self.version_of[0]} "
                    f"({self.version_of[1]}): its {self.left} event(s) leave force, "
                    f"{self.events - len(self.same_as)} event(s) loaded")
        if self.same_as:
            text += (f" and {len(self.same_as)} with the same results as "
                     f"{', '.join(self.same_files())} (not counted again)")
        if self.replaced_events:
            text += f", replacing event(s) {', '.join(map(str, self.replaced_events))}"
        if self.players_created:
            text += f", {self.players_created} new player(s)"
        if self.waiting:
            names = ", ".join(sorted({n for n, _ in self.waiting}))
            text += (f"; {len(self.waiting)} name(s) wait for review ({names}): their events "
                     "are not rated until answered (clubratings review --list)")
        if self.held_corrections:
            text += (f"; {len(self.held_corrections)} correction(s) HELD for review, the "
                     "version in force stays until answered (clubratings review --list): "
                     + "; ".join(f"event {old}: {why}" for old, _, why in self.held_corrections))
        if self.held:
            text += (f"; HELD for confirmation: {self.held}; its events are not rated until a "
                     f"person confirms the date (clubratings files release {self.file_id}) or "
                     f"takes the file back (clubratings files withdraw {self.file_id})")
        return text


def file_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_loaded(wh: Warehouse, sha256: str) -> int | None:
    """The file id of these bytes if they were loaded before."""
    rows = wh.con.execute("SELECT file_id FROM source_files WHERE sha256 = ?", [sha256]).fetchall()
    return int(rows[0][0]) if rows else None


def _next_id(wh: Warehouse, table: str, column: str) -> int:
    return int(wh.con.execute(f"SELECT coalesce(max({column}), 0) + 1 FROM {table}").fetchall()[0][0])


def _store_raw(wh: Warehouse, data: bytes, sha: str, suffix: str) -> tuple[str, bool]:
    """Keep the bytes content-addressed; returns (path relative to the warehouse folder, new?)."""
    rel = f"raw/{sha[:2]}/{sha}{suffix.lower()}"
    target = wh.raw_dir.parent / rel
    if target.exists():
        return rel, False
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, data)
    return rel, True


def _one_seat_each(ev: Event, resolved: Sequence[Sequence[Any]], name: str) -> None:
    """Refuse an event in which two names are taken for one player (a person plays once)."""
    seats: dict[int, str] = {}
    for unit, members in zip(ev.units, resolved, strict=True):
        for p, res in zip(unit.players, members, strict=True):
            if res.review_key:  # a name waiting for a person: decided when answered
                continue
            if res.player_id in seats:
                raise LoadError(
                    f"{name}: {seats[res.player_id]!r} and {p.name!r} in event {ev.title!r} "
                    f"({ev.date}) are both taken for player {res.player_id}, and a player plays "
                    "once per event; if they are two people, clubratings players split "
                    f"{res.player_id} tells them apart")
            seats[res.player_id] = p.name


def _check_keys(events: tuple[Event, ...], name: str) -> None:
    seen: dict[tuple[str, str, str, str], int] = {}
    for i, ev in enumerate(events, 1):
        if ev.key in seen:
            raise LoadError(
                f"{name}: events {seen[ev.key]} and {i} have the same organiser, date, title and "
                f"section {ev.key!r}; give them different sections or titles"
            )
        seen[ev.key] = i


def load_result(
    wh: Warehouse,
    data: bytes,
    result: ParseResult,
    *,
    path: str,
    identity: IdentitySettings | None = None,
    now: dt.datetime | None = None,
) -> LoadReport:
    """Load the parsed events of one file (its raw ``data`` kept) in one transaction."""
    return Loader(wh, identity=identity).load(data, result, path=path, now=now)


@dataclass(frozen=True, slots=True)
class Parsed:
    """One file ready to load: its bytes, where it came from, and what the parser made of it."""

    data: bytes
    result: ParseResult
    path: str
    sha256: str = ""
    """The bytes' SHA-256 when the caller has it already (computed here otherwise)."""

    @property
    def digest(self) -> str:
        return self.sha256 or file_sha256(self.data)


_TABLES = (
    "source_files", "events", "units", "players", "player_aliases", "unit_members",
    "event_prints", "event_replacements", "review_items", "file_holds", "correction_holds", "event_twins",
    "file_versions", "go_declared", "go_round_marks",
)
CORRECTION_HOLD = 0.1
"""Default share of an event's units or players a correction may drop and still replace it
without review (``[ingest] correction_hold``)."""


@dataclass(frozen=True, slots=True)
class _Shape:
    game: str
    kind: str
    scoring: str
    units: int
    players: int


HOLD_FUTURE_DAYS = 1
"""An event dated more than this many days after today holds its file for confirmation."""
HOLD_OUTSIDE_YEARS = 10
"""... and so does an event more than this many years before the earliest or after the latest
event of its game already in the warehouse (before the run: a backfill in any order is not
held)."""
class Loader:
    """Loads files into one warehouse, keeping what it needs to know between files in memory
    (loaded hashes, events in force, players and their spellings, next ids).

    Every file is all or nothing. :meth:`load_many` writes a batch of files in one transaction
    for speed; if that fails it rolls back and loads the batch file by file, so one bad file
    never takes the others with it. After any failure the memory is read again from the
    warehouse, which the rollback left as it was.
    """

    def __init__(
        self, wh: Warehouse, *, identity: IdentitySettings | None = None,
        resolver: ResolverFactory = resolver_for, today: dt.date | None = None,
        correction_hold: float = CORRECTION_HOLD,
    ) -> None:
        self.wh = wh
        self._correction_hold = correction_hold
        self._shapes: dict[int, _Shape] = {}
        self._identity = identity or IdentitySettings()
        self._resolver_factory = resolver
        self._today = today
        active = self._refresh()
        # each game's span of dates before this run (held files left out): what "far outside"
        # is measured against, kept as it was while the run loads (from the events in force
        # just read: the view costs more to plan than to read)
        held = {int(r[0]) for r in wh.con.execute(
            "SELECT file_id FROM file_holds WHERE released_at IS NULL").fetchall()}
        self._span: dict[str, tuple[dt.date, dt.date]] = {}
        for _organiser, day, _title, _section, _event_id, game, file_id in active:
            if int(file_id) in held:
                continue
            low, high = self._span.get(str(game), (day, day))
            self._span[str(game)] = (min(low, day), max(high, day))

    def _hold_reason(self, events: Sequence[Event]) -> str:
        """Why a file with these events should wait for a person's confirmation ("" if not)."""
        today = self._today or dt.date.today()
        for ev in events:
            if ev.date > today + dt.timedelta(days=HOLD_FUTURE_DAYS):
                return f"event {ev.title!r} is dated {ev.date}, in the future"
            span = self._span.get(ev.game)
            if span is None:
                continue
            low, high = span
            margin = dt.timedelta(days=round(365.25 * HOLD_OUTSIDE_YEARS))
            if ev.date > high + margin:
                return (f"event {ev.title!r} is dated {ev.date}, more than "
                        f"{HOLD_OUTSIDE_YEARS} years after the latest {ev.game} event so far "
                        f"({high})")
            if ev.date < low - margin:
                return (f"event {ev.title!r} is dated {ev.date}, more than "
                        f"{HOLD_OUTSIDE_YEARS} years before the earliest {ev.game} event so "
                        f"far ({low})")
        return ""

    def _shape_of(self, event_id: int) -> _Shape:
        """Game, kind, scoring, units and players of an event (staged in this run, or in the
        warehouse)."""
        shape = self._shapes.get(event_id)
        if shape is None:
            row = self.wh.con.execute(
                "SELECT e.game, e.kind, e.scoring, e.n_units, "
                "       (SELECT count(*) FROM unit_members m WHERE m.event_id = e.event_id) "
                "FROM events e WHERE e.event_id = ?", [event_id]).fetchall()[0]
            shape = _Shape(str(row[0]), str(row[1]), str(row[2]), int(row[3]), int(row[4]))
        return shape

    def _removes_data(self, old: int, new: _Shape) -> str:
        """Why replacing event ``old`` by an event of shape ``new`` removes data ("" if it
        does not): a changed game, kind or scoring, or fewer units or players beyond the share
        ``correction_hold``."""
        was = self._shape_of(old)
        for label, a, b in (("game", was.game, new.game), ("kind", was.kind, new.kind),
                            ("scoring", was.scoring, new.scoring)):
            if a != b:
                return f"it changes the {label} from {a} to {b}"
        for label, a, b in (("units", was.units, new.units),
                            ("players", was.players, new.players)):
            if a - b > a * self._correction_hold:
                return (f"it has {b} {label} where the version in force has {a} (drops "
                        f"{(a - b) / a:.0%}, more than [ingest] correction_hold = "
                        f"{self._correction_hold:.0%})")
        return ""

    def file_id_of(self, sha256: str) -> int | None:
        """The file id of these bytes if they were loaded before (from memory)."""
        return self._loaded.get(sha256)

    def withdrawal(self, file_id: int) -> Withdrawal | None:
        """The withdrawal in force of a loaded file, None if it is in force (from memory)."""
        return self._withdrawn.get(file_id)

    def refresh(self) -> None:
        """Read what the loader keeps in memory again (after the warehouse changed beside it:
        an identity decision, a register)."""
        self._refresh()

    def _refresh(self) -> list[tuple[Any, ...]]:
        """Read what the loader keeps in memory; returns the rows of the events in force it
        read (organiser, date, title, section, event id, game, file id)."""
        con = self.wh.con
        self._shapes = {}
        self._loaded = {
            r[0]: int(r[1]) for r in con.execute("SELECT sha256, file_id FROM source_files").fetchall()
        }
        # the events in force, read once (the view costs more to plan than to read)
        active = con.execute(
            "SELECT organiser, event_date, title, section, event_id, game, file_id "
            "FROM active_events").fetchall()
        self._active = {(r[0], r[1].isoformat(), r[2], r[3]): int(r[4]) for r in active}
        self._withdrawn = withdrawals_in_force(self.wh)
        self._aliases = {
            (int(r[0]), r[1])
            for r in con.execute("SELECT player_id, spelling FROM player_aliases").fetchall()
        }
        self._next_file = _next_id(self.wh, "source_files", "file_id")
        self._next_event = _next_id(self.wh, "events", "event_id")
        self._resolver = self._resolver_factory(self.wh, self._identity)
        # events in force by game and day, and the prints of those compared so far: where a
        # new event looks for the same results (warehouse/_twins.py)
        self._by_day: dict[tuple[str, dt.date], list[int]] = {}
        for _organiser, day, _title, _section, event_id, game, _file in active:
            self._by_day.setdefault((str(game), day), []).append(int(event_id))
        self._prints: dict[int, Print] = {}
        self._bare: set[int] = set()  # prints read without their members
        self._event_files: dict[int, str] = {}
        self._keys: dict[int, tuple[str, str, str, str]] = {}
        self._asked: set[str] = set()
        self._force = set(self._active.values())
        # chains of versions: by file name (case folded), the files of each, the current one
        self._chains: dict[str, list[int]] = {}
        self._chain_files: dict[int, list[int]] = {}
        for file_id, name, chain in con.execute(
                "SELECT f.file_id, f.name, coalesce(v.chain, f.file_id) FROM source_files f "
                "LEFT JOIN file_versions v USING (file_id) ORDER BY f.file_id").fetchall():
            files = self._chain_files.setdefault(int(chain), [])
            if not files:
                self._chains.setdefault(str(name).casefold(), []).append(int(chain))
            files.append(int(file_id))
        self._current = {int(c): int(f) for c, f in con.execute(
            "SELECT chain, file_id FROM current_files").fetchall()}
        return active

    def _ask_spellings(self, ev: Event, resolved: Sequence[Sequence[Any]], old_id: int,
                       event_id: int, file_id: int, file_name: str,
                       rows: dict[str, dict[str, list[object]]], now: dt.datetime) -> None:
        """A new version that writes one name of a unit otherwise unchanged another way, and
        takes it for the same player as before: ask "same person, spelling fixed?" (a
        ``spelling`` review item; the event is rated meanwhile). An accepted answer shows the
        player under the new spelling everywhere (warehouse.review.rename_player)."""
        old = self._with_members(old_id)
        before = {(place, keys): members for (place, keys), members
                  in zip(old.units, old.members, strict=True)}
        by_place: dict[float | None, list[tuple[frozenset[str], tuple[Any, ...]]]] = {}
        for (place, keys), members in before.items():
            by_place.setdefault(place, []).append((keys, members))
        for unit, members in zip(ev.units, resolved, strict=True):
            if not unit.players:
                continue
            keys = frozenset(name_key(p.name) for p in unit.players)
            place = None if unit.place is None else round(float(unit.place), 2)
            for old_keys, old_members in by_place.get(place, ()):
                gone, came = old_keys - keys, keys - old_keys
                if len(gone) != 1 or len(came) != 1 or len(old_keys) != len(keys):
                    continue
                (gone_key,), (came_key,) = gone, came
                was = next((m for m in old_members if m[0] == gone_key), None)
                now_at = next(((p, r) for p, r in zip(unit.players, members, strict=True)
                               if name_key(p.name) == came_key), None)
                if was is None or now_at is None or was[1] is None:
                    continue
                player, res = now_at
                if res.review_key or res.player_id != was[1]:
                    continue  # another person, or a name already waiting for a person
                self._spelling_item(int(was[1]), gone_key, player.name, event_id, file_id,
                                    file_name, rows, now)

    def _spelling_item(self, player_id: int, old_key: str, new_name: str, event_id: int,
                       file_id: int, file_name: str, rows: dict[str, dict[str, list[object]]],
                       now: dt.datetime) -> None:
        digest = hashlib.sha256(name_key(new_name).encode()).hexdigest()[:6]
        key = f"spelling:{player_id}-{digest}"  # one question per player and new spelling
        if key in self._asked:
            return
        self._asked.add(key)
        if self.wh.con.execute("SELECT 1 FROM review_items WHERE item_key = ?",
                               [key]).fetchall():
            return
        found = self.wh.con.execute(
            "SELECT name FROM players WHERE player_id = ?", [player_id]).fetchall()
        shown = str(found[0][0]) if found else ""
        if name_key(shown) == name_key(new_name):
            return  # already shown that way
        spellings = [str(r[0]) for r in self.wh.con.execute(
            "SELECT spelling FROM player_aliases WHERE player_id = ? ORDER BY spelling",
            [player_id]).fetchall()]
        was = next((s for s in spellings if name_key(s) == old_key), shown)
        _add(rows["review_items"], item_key=key, kind="spelling", name_as_written=new_name,
             club=None, player_id=player_id,
             candidates=_json([{"player_id": player_id, "name": shown}]),
             evidence=_json({"was": was, "file": file_name, "file_id": file_id,
                             "event_id": event_id}),
             first_event_id=event_id, created_at=now, status="open", decision_id=None)

    def _file_name(self, file_id: int) -> str:
        rows = self.wh.con.execute("SELECT name FROM source_files WHERE file_id = ?",
                                   [file_id]).fetchall()
        return str(rows[0][0]) if rows else "?"

    def is_version(self, name: str) -> bool:
        """Whether a file of this name was loaded before (so it may be a new version)."""
        return name.casefold() in self._chains

    def _events_of(self, file_id: int) -> list[int]:
        return [int(r[0]) for r in self.wh.con.execute(
            "SELECT event_id FROM events WHERE file_id = ? ORDER BY event_id",
            [file_id]).fetchall()]

    def _prints_of(self, ids: Sequence[int]) -> dict[int, Print]:
        """The prints of stored events (in force or not), read once, without their members
        (:meth:`_with_members` adds them where a second rendering takes its players over).

        Read from ``event_prints``, one row per event found by its key, so that what a file
        costs does not grow with the warehouse (unit_members holds every result)."""
        missing = sorted({i for i in ids if i not in self._prints})
        if missing:
            marks = ", ".join("?" for _ in missing)
            found = self.wh.con.execute(
                "SELECT e.event_id, e.game, e.kind, e.scoring, e.event_date, e.round, "
                "e.segment, e.organiser, e.section, e.n_units, e.boards, f.name, e.title, "
                "p.units FROM events e JOIN source_files f USING (file_id) "
                "LEFT JOIN (SELECT event_id, units FROM event_prints "
                f"           WHERE event_id IN ({marks})) p USING (event_id) "
                f"WHERE e.event_id IN ({marks})", [*missing, *missing]).fetchall()
            for r in found:
                i = int(r[0])
                members = [(m["u"], m["p"], m["s"], m["n"], None, None)
                           for m in json.loads(str(r[13]))] if r[13] is not None else []
                self._prints[i] = stored_print(r[1:11], members)
                self._bare.add(i)
                self._event_files[i] = str(r[11])
                self._keys[i] = (str(r[7]), str(r[4])[:10], str(r[12]), str(r[8]))
        return {i: self._prints[i] for i in ids}

    def _with_members(self, event_id: int) -> Print:
        """The print of a stored event with its members: who each name was counted for (a
        second rendering takes them over; a fixed spelling is asked about)."""
        found = self._prints_of([event_id])[event_id]
        if event_id in self._bare:
            rows = self.wh.con.execute(
                "SELECT m.unit_no, u.place, u.score, m.name_as_written, m.player_id, "
                "m.review_key FROM unit_members m JOIN units u USING (event_id, unit_no) "
                "WHERE m.event_id = ? AND u.event_id = ? ORDER BY m.unit_no, m.seat",
                [event_id, event_id]).fetchall()
            head = (found.game, found.kind, found.scoring, found.date, found.round,
                    found.segment, found.organiser, found.section, found.n_units, found.boards)
            found = dataclasses.replace(stored_print(head, rows), organiser=found.organiser)
            self._prints[event_id] = found
            self._bare.discard(event_id)
        return found

    def _version_chain(self, name: str, events: Sequence[Event]) -> tuple[int, int] | None:
        """(chain, its latest file) when a file of this name and these events is a new
        version: a file of the same name, with an organiser in common and results that overlap
        (an event key in common, or an event of mostly the same players on the same date or at
        the same places). The most recent chain of the name is asked first."""
        for chain in reversed(self._chains.get(name.casefold(), [])):
            latest = self._chain_files[chain][-1]
            old = self._prints_of(self._events_of(latest))
            if _overlaps(events, old, {i: self._keys[i] for i in old}):
                return chain, latest
        return None

    def _version_hold(self, events: Sequence[Event], current: int) -> str:
        """Why a new version should wait for a person before it supersedes the version in force
        ``current`` ("" if it need not): it drops an event, or one of its events drops data
        (:meth:`_removes_data`, a pair left with one player)."""
        old = self._prints_of(self._events_of(current))
        if len(events) < len(old):
            return (f"it has {len(events)} event(s) where the version in force has {len(old)}"
                    f" (file {current})")
        for ev, old_id in _pair_events(events, old, {i: self._keys[i] for i in old}):
            if old_id is None:
                continue
            shape = _Shape(ev.game, ev.kind, ev.scoring, len(ev.units),
                           sum(len(u.players) for u in ev.units))
            why = self._removes_data(old_id, shape) or lost_partner(ev, old[old_id])
            if why:
                return f"event {ev.title!r} ({ev.date}): {why}"
        return ""

    def _leave(self, file_id: int) -> list[int]:
        """Take the events of a superseded version out of force (in memory, as the view will
        derive it): an event of another file with the same key that it had replaced comes
        back. Returns those that left."""
        leaving = [i for i in self._events_of(file_id) if i in self._force]
        for event_id in leaving:
            self._force.discard(event_id)
        keys = [k for k, i in self._active.items() if i in set(leaving)]
        for key in keys:
            del self._active[key]
            back = self.wh.con.execute(
                "SELECT max(e.event_id) FROM events e "
                "WHERE e.organiser = ? AND e.event_date = ? AND e.title = ? AND e.section = ? "
                "  AND e.file_id <> ? AND e.file_id IN (SELECT file_id FROM current_files) "
                "  AND e.event_id NOT IN (SELECT event_id FROM event_twins) "
                "  AND e.event_id NOT IN (SELECT event_id FROM correction_holds "
                "      WHERE coalesce(decision, '') NOT IN ('accepted', 'separate'))",
                [key[0], key[1], key[2], key[3], file_id]).fetchall()
            if back and back[0][0] is not None:
                came = int(back[0][0])
                self._active[key] = came
                self._force.add(came)
                was = self._prints_of([came])[came]
                day = self._by_day.setdefault((was.game, was.date), [])
                if came not in day:
                    day.append(came)
        return leaving

    def _candidates(self, ev: Event) -> list[tuple[int, Print]]:
        """The events in force on ``ev``'s day and game, with their prints."""
        ids = [i for i in self._by_day.get((ev.game, ev.date), ()) if i in self._force]
        prints = self._prints_of(ids)
        return [(i, prints[i]) for i in ids]

    def load(
        self, data: bytes, result: ParseResult, *, path: str, now: dt.datetime | None = None,
    ) -> LoadReport:
        """Load one file in its own transaction."""
        return self._load_batch([Parsed(data, result, path)], now)[0]

    def load_many(
        self, files: Iterable[Parsed], *, now: dt.datetime | None = None,
    ) -> list[LoadReport | Exception]:
        """Load several files: a report for each, or the error that kept it out."""
        files = list(files)
        if not files:
            return []
        from .review import apply_waiting, waiting_after_files

        waiting = waiting_after_files(self.wh)
        names = [PurePath(f.path).name.casefold() for f in files]
        versions = len(set(names)) < len(names) or any(map(self.is_version, names))
        if versions or any(f.digest in waiting for f in files):
            # identity decisions take effect right after the file they followed, and a new
            # version is read against the warehouse as the version before it left it: one at
            # a time
            outcomes: list[LoadReport | Exception] = []
            for f in files:
                try:
                    report = self._load_batch([f], now)[0]
                except Exception as exc:  # noqa: BLE001 - reported per file
                    outcomes.append(exc)
                    continue
                if report.sha256 in waiting and apply_waiting(self.wh, report.sha256):
                    self._refresh()
                outcomes.append(report)
            return outcomes
        try:
            return list(self._load_batch(files, now))
        except Exception:  # fall back to one transaction per file
            outcomes = []
            for f in files:
                try:
                    outcomes.append(self._load_batch([f], now)[0])
                except Exception as exc:  # noqa: BLE001 - reported per file
                    outcomes.append(exc)
            return outcomes

    def _load_batch(self, files: list[Parsed], now: dt.datetime | None) -> list[LoadReport]:
        now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
        rows: dict[str, dict[str, list[object]]] = {t: {} for t in _TABLES}
        reports: list[LoadReport] = []
        learned: dict[int, str] = {}
        new_raw: list[Path] = []
        try:
            for f in files:
                reports.append(self._stage(f, rows, learned, new_raw, now))
            plain = _only_adds_events(rows)
            # a new version, a correction or a second rendering may change which events are
            # in force: derived again from the rules; a batch of none of them only adds its
            # events to those in force
            with self.wh.transaction(force=not plain):
                for table in _TABLES:
                    if rows[table]:
                        self.wh.insert_columns(table, rows[table])
                if plain and rows["events"]:
                    self.wh.insert_columns("events_in_force",
                                           {"event_id": rows["events"]["event_id"]})
                for pid, fid in learned.items():
                    self.wh.con.execute(
                        "UPDATE players SET federation_id = ? "
                        "WHERE player_id = ? AND federation_id IS NULL",
                        [fid, pid],
                    )
            self._resolver.committed()
            if any(r.version_of is not None for r in reports):
                self._refresh()  # what came back into force, as the view derives it
        except BaseException:
            for raw in new_raw:
                raw.unlink(missing_ok=True)
            self._refresh()
            raise
        return reports

    def _stage(
        self,
        f: Parsed,
        rows: dict[str, dict[str, list[object]]],
        learned: dict[int, str],
        new_raw: list[Path],
        now: dt.datetime,
    ) -> LoadReport:
        """Resolve one file's players and add its rows to the batch (memory only)."""
        name = PurePath(f.path).name
        sha = f.digest
        if sha in self._loaded:
            return LoadReport(name, sha, "duplicate", self._loaded[sha], 0, (), 0)
        # the plausibility gate once more, on exactly what is written (a result may come from
        # anywhere: a worker process, another machine, a caller of this class)
        result = gate_check(f.result, file=name)
        _check_keys(result.events, name)
        raw_rel, raw_new = _store_raw(self.wh, f.data, sha, PurePath(f.path).suffix)
        if raw_new:
            new_raw.append(self.wh.raw_dir.parent / raw_rel)
        file_id = self._next_file
        self._next_file += 1
        replaced: list[int] = []
        held_corrections: list[tuple[int, int, str]] = []
        waiting: list[tuple[str, str]] = []
        created = 0
        same_as: list[tuple[int, int, str]] = []
        sessions: dict[tuple[str, dt.date, str], set[int]] = {}
        """Players seated per session of this file: the sections of one bridge session (same
        organiser, date and title) seat a player once."""
        # a new version of a file of this name supersedes the version in force, unless it
        # removes data (then it waits for a person and the version in force stays)
        version = self._version_chain(name, result.events)
        chain, previous = version if version is not None else (file_id, None)
        current = self._current.get(chain) if version is not None else None
        version_held = self._version_hold(result.events, current) if current else ""
        leaving = self._leave(current) if current and not version_held else []
        left = len(leaving)
        # which event of the version before each event re-writes: the audit trail of the
        # correction (event_replacements), as a correction from another file writes it
        rewrites: dict[int, int] = {}
        if leaving:
            old_prints = self._prints_of(leaving)
            for index, (ev, old_id) in enumerate(_pair_events(
                    result.events, old_prints, {i: self._keys[i] for i in old_prints})):
                if old_id is not None and not (
                        ev.key == self._keys[old_id]
                        and identical(print_of(ev), old_prints[old_id])):
                    rewrites[index] = old_id  # unchanged events are no correction
        _add(rows["file_versions"], file_id=file_id, chain=chain, previous=previous,
             hold=version_held, decision=None, decided_at=None, note="")
        if version is None:
            self._chains.setdefault(name.casefold(), []).append(file_id)
        self._chain_files.setdefault(chain, []).append(file_id)
        if not version_held:
            self._current[chain] = file_id
        for index, ev in enumerate(result.events):
            event_id = self._next_event
            self._next_event += 1
            shape = _Shape(ev.game, ev.kind, ev.scoring, len(ev.units),
                           sum(len(u.players) for u in ev.units))
            self._shapes[event_id] = shape
            mine = print_of(ev)
            candidates = [] if version_held else self._candidates(ev)
            old = None if version_held else self._active.get(ev.key)
            # a new version of the event in force (same key) that changes anything is a
            # correction; the same results under another key, or unchanged, a second rendering
            twin = next((i for i, p in candidates if (identical if i == old else same_results)(
                mine, p)), None)
            near = next((i for i, p in candidates if near_match(mine, p)), None)
            why = ""
            if old is not None:
                why = self._removes_data(old, shape) or lost_partner(
                    ev, self._prints_of([old])[old])
            if index in rewrites:
                replaced.append(rewrites[index])
                _add(rows["event_replacements"], event_id=rewrites[index],
                     replaced_by=event_id, file_id=file_id, replaced_at=now)
            if version_held:
                pass  # stored; in force only once a person accepts the new version
            elif twin is not None:
                # the same results from another file: stored as a second rendering of the
                # event in force, its players taken over from it, never counted again
                same_as.append((event_id, twin, self._event_files[twin]))
                _add(rows["event_twins"], event_id=event_id, same_as=twin, file_id=file_id,
                     found_at=now)
            elif old is None and near is not None:
                # the same night and organiser, mostly the same players, other results: a
                # rendering that disagrees waits for a person
                why = (f"the same night as event {near} from {self._event_files[near]} with "
                       f"other results: {differences(mine, self._prints[near])}")
                held_corrections.append((near, event_id, why))
                _add(rows["correction_holds"], event_id=event_id, replaces=near,
                     file_id=file_id, reason=why, held_at=now, decision=None,
                     decided_at=None, note="")
            elif old is not None and why:
                # the new version waits for a person; the version in force stays
                held_corrections.append((old, event_id, why))
                _add(rows["correction_holds"], event_id=event_id, replaces=old,
                     file_id=file_id, reason=why, held_at=now, decision=None,
                     decided_at=None, note="")
            else:
                if old is not None:
                    replaced.append(old)
                    _add(rows["event_replacements"], event_id=old, replaced_by=event_id,
                         file_id=file_id, replaced_at=now)
                    self._force.discard(old)
                self._active[ev.key] = event_id
                self._force.add(event_id)
                self._by_day.setdefault((ev.game, ev.date), []).append(event_id)
            _add(rows["events"],
                 event_id=event_id, file_id=file_id, game=ev.game, organiser=ev.organiser,
                 event_date=ev.date, title=ev.title, section=ev.section, kind=ev.kind,
                 scoring=ev.scoring, boards=ev.boards, format=ev.format or result.format,
                 n_units=len(ev.units), end_date=ev.end_date, round=ev.round, parent=ev.parent,
                 handicap=ev.handicap, komi=ev.komi, deals=ev.deals, variant=ev.variant,
                 pulka=ev.pulka, segment=ev.segment)
            if twin is not None:
                resolved = [[_Taken(pid, rk) for pid, rk in unit]
                            for unit in taken_over(ev, self._with_members(twin))]
            else:
                session = (sessions.setdefault((ev.organiser, ev.date, ev.title), set())
                           if ev.game in GAMES and GAMES[ev.game].sessions_seat_once
                           and not ev.parent and ev.round is None
                           else set())
                resolved = self._resolver.resolve_event(ev, event_ref=event_id,
                                                        seated=session)
                _one_seat_each(ev, resolved, name)
                session.update(r.player_id for unit in resolved for r in unit)
                self._prints[event_id] = with_members(
                    mine, [[(r.player_id, r.review_key) for r in unit] for unit in resolved])
                self._event_files[event_id] = name
                self._keys[event_id] = ev.key
                rewritten = rewrites.get(index, old if old is not None and not why else None)
                if rewritten is not None:
                    self._ask_spellings(ev, resolved, rewritten, event_id, file_id, name,
                                        rows, now)
            printed: list[dict[str, object]] = []  # event_prints.units (migration 022)
            for unit_no, (unit, members) in enumerate(zip(ev.units, resolved, strict=True), 1):
                if not unit.players:
                    # no names written (or only seat fillers): the unit counts in the field
                    # (events.n_units) but is no unit of anyone
                    continue
                place = None if unit.place is None else float(unit.place)
                score = None if unit.score is None else float(unit.score)
                printed.extend({"u": unit_no, "p": place, "s": score, "n": p.name}
                               for p in unit.players)
                _add(rows["units"], event_id=event_id, unit_no=unit_no, label=unit.label,
                     place=unit.place, place_text=unit.place_text, score=unit.score,
                     colour=unit.colour)
                for seat, (p, res) in enumerate(zip(unit.players, members, strict=True), 1):
                    if res.learned_federation_id:
                        learned[res.player_id] = res.learned_federation_id
                    if (res.player_id, p.name) not in self._aliases:
                        self._aliases.add((res.player_id, p.name))
                        _add(rows["player_aliases"], player_id=res.player_id, spelling=p.name,
                             name_key=name_key(p.name), first_file_id=file_id)
                    if res.review_key and twin is None:
                        waiting.append((p.name, res.review_key))
                    _add(rows["unit_members"], event_id=event_id, unit_no=unit_no, seat=seat,
                         player_id=res.player_id, name_as_written=p.name,
                         federation_id=p.federation_id or None, club=p.club or None,
                         initials=p.initials, how=res.how,
                         evidence=_json(res.evidence) if res.evidence else None,
                         review_key=res.review_key)
                    if isinstance(p, GoPlayerAsWritten) and (
                            p.grade_as_written or p.rating is not None):
                        # go: what the file says of the player's strength (migration 020)
                        _add(rows["go_declared"], event_id=event_id, unit_no=unit_no,
                             seat=seat, grade=p.grade, grade_as_written=p.grade_as_written,
                             stated_rating=p.rating, rating_origin=p.rating_origin)
            if printed:
                _add(rows["event_prints"], event_id=event_id,
                     units=json.dumps(printed, ensure_ascii=False, separators=(",", ":")))
        for m in result.round_marks:
            # go: the rounds that are no game (a bye, a forfeit), for the crosstable
            _add(rows["go_round_marks"], file_id=file_id, round=m.round, player_key=m.player,
                 mark=m.mark, opponent_key=m.opponent)
        for new in self._resolver.new_players:
            created += 1
            _add(rows["players"], player_id=new.player_id, name=new.name,
                 name_key=name_key(new.name), federation_id=new.federation_id,
                 created_at=now, created_by_file=file_id, state=new.state, origin=new.origin)
        self._resolver.new_players.clear()
        for item in self._resolver.review_entries:
            _add(rows["review_items"], item_key=item.item_key, kind=item.kind,
                 name_as_written=item.name_as_written, club=item.club,
                 player_id=item.player_id, candidates=_json(item.candidates),
                 evidence=_json(item.evidence), first_event_id=item.event_ref,
                 created_at=now, status="open", decision_id=None)
        self._resolver.review_entries.clear()
        status: Literal["loaded", "correction", "same"] = (
            "correction" if replaced or version is not None else
            "same" if result.events and len(same_as) == len(result.events) else "loaded")
        held = self._hold_reason(result.events)
        if held:
            _add(rows["file_holds"], file_id=file_id, reason=held, held_at=now,
                 released_at=None)
        _add(rows["source_files"],
             file_id=file_id, sha256=sha, path=f.path, name=name, size=len(f.data),
             format=result.format, raw_path=raw_rel, loaded_at=now, status=status,
             n_events=len(result.events),
             issues=json.dumps(
                 [{"level": i.level, "message": i.message, "where": i.where}
                  for i in result.issues],
                 ensure_ascii=False,
             ))
        self._loaded[sha] = file_id
        return LoadReport(name, sha, status, file_id, len(result.events), tuple(replaced),
                          created, tuple(waiting), held, tuple(held_corrections),
                          tuple(same_as),
                          None if previous is None else (previous, self._file_name(previous)),
                          left, version_held)


def _overlap(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and len(a & b) >= NEAR_OVERLAP * min(len(a), len(b))


def _same_places(new: Print, old: Print) -> bool:
    """Most players shared by both events stand at the same place in both."""
    at_new = {k: p for p, keys in new.units for k in keys}
    at_old = {k: p for p, keys in old.units for k in keys}
    shared = at_new.keys() & at_old.keys()
    return bool(shared) and sum(at_new[k] == at_old[k] for k in shared) >= (
        NEAR_OVERLAP * len(shared))


def _akin(new: Print, old: Print) -> bool:
    """One event of a file and one of the version before it are the same event, re-written:
    one game and kind, mostly the same players, on the same date or at the same places."""
    return ((new.game, new.kind) == (old.game, old.kind)
            and _overlap(new.players, old.players)
            and (new.date == old.date or _same_places(new, old)))


def _overlaps(events: Sequence[Event], old: dict[int, Print],
              keys: dict[int, tuple[str, str, str, str]]) -> bool:
    """Whether a file of these events re-writes the events ``old`` of a file of its name: an
    organiser in common, and an event key in common or an event :func:`_akin` to one."""
    if not events or not old:
        return False
    if not ({organiser_key(ev.organiser) for ev in events}
            & {p.organiser for p in old.values()}):
        return False
    if {ev.key for ev in events} & set(keys.values()):
        return True
    return any(_akin(print_of(ev), p) for ev in events for p in old.values())


def _pair_events(events: Sequence[Event], old: dict[int, Print],
                 keys: dict[int, tuple[str, str, str, str]]) -> list[tuple[Event, int | None]]:
    """Each new event with the old event it re-writes (the same key, else the first akin one
    not taken), or None."""
    by_key = {k: i for i, k in keys.items()}
    taken: set[int] = set()
    pairs: list[tuple[Event, int | None]] = []
    rest: list[Event] = []
    for ev in events:
        if ev.key in by_key:
            taken.add(by_key[ev.key])
            pairs.append((ev, by_key[ev.key]))
        else:
            rest.append(ev)
    for ev in rest:
        mine = print_of(ev)
        match = next((i for i, p in old.items() if i not in taken and _akin(mine, p)), None)
        if match is not None:
            taken.add(match)
        pairs.append((ev, match))
    return pairs


def lost_partner(ev: Event, old: Print) -> str:
    """A unit of ``ev`` left with fewer players than the same players had in ``old`` (half a
    pair deleted): why the new version removes data, "" if none is."""
    size_old = {k: len(keys) for _, keys in old.units for k in keys}
    lost: list[str] = []
    for unit in ev.units:
        if not unit.players:
            continue
        for p in unit.players:
            if size_old.get(name_key(p.name), 0) > len(unit.players):
                lost.append(p.name)
    if not lost:
        return ""
    return (f"{', '.join(lost[:6])}{' and more' if len(lost) > 6 else ''} lost a partner "
            "the version in force has (a row deleted?)")


@dataclass(frozen=True, slots=True)
class _Taken:
    """A player of a second rendering, taken over from the event it renders again."""

    player_id: int
    review_key: str | None
    how: str = "same results"
    evidence: None = None
    learned_federation_id: None = None


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _only_adds_events(rows: dict[str, dict[str, list[object]]]) -> bool:
    """Whether a staged batch leaves every event in force in force and puts each of its own
    events in force, as the rules (view ``events_in_force_rules``) would derive: no file is a
    new version of another, no event replaces, corrects or renders again an event (no
    replacement, held correction or second rendering staged). Such a batch adds its events to
    ``events_in_force``; any other is derived again from the rules."""
    versions = rows["file_versions"]
    return (not rows["event_replacements"] and not rows["correction_holds"]
            and not rows["event_twins"]
            and all(previous is None for previous in versions.get("previous", ()))
            and not any(versions.get("hold", ())))


def _add(table: dict[str, list[object]], **values: object) -> None:
    if not table:  # a table's first row names its columns; every row gives them all
        for column in values:
            table[column] = []
    for column, value in values.items():
        table[column].append(value)


def remove_orphan_raw(wh: Warehouse) -> int:
    """Remove raw copies no loaded file names (a run killed between writing a batch's copies
    and committing its rows leaves them); returns how many. Call under the run lock."""
    if str(wh.path) == ":memory:":
        return 0
    root = wh.raw_dir.parent
    folder = wh.raw_dir
    if not folder.is_dir():
        return 0
    known = {str(r[0]) for r in wh.con.execute("SELECT raw_path FROM source_files").fetchall()}
    removed = 0
    for path in folder.rglob("*"):
        if path.is_file() and path.relative_to(root).as_posix() not in known:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def raw_bytes(wh: Warehouse, file_id: int) -> bytes:
    """The kept bytes of a loaded file, for a rebuild."""
    rows = wh.con.execute(
        "SELECT raw_path FROM source_files WHERE file_id = ?", [file_id],
    ).fetchall()
    if not rows:
        raise LoadError(f"no loaded file with id {file_id}")
    return (wh.raw_dir.parent / Path(rows[0][0])).read_bytes()
