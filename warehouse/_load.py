"""Loading one parsed file into the warehouse: all of it in one transaction, or nothing.

A file's SHA-256 decides whether it is new: the same bytes again load nothing. An event whose
natural key (organiser, date, title, section) is already in force from other bytes is a
correction: the new event replaces the old one, and ``event_replacements`` records it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Literal

import pandas as pd

from parsers import Event, ParseResult

from ._db import Warehouse
from ._errors import LoadError
from .identity import ExactResolver, KnownPlayer, PlayerId, Resolver, name_key

__all__ = [
    "LoadReport", "ResolverFactory", "file_sha256", "is_loaded", "load_result", "raw_bytes",
]

ResolverFactory = Callable[[Iterable[KnownPlayer], PlayerId], Resolver]


@dataclass(frozen=True, slots=True)
class LoadReport:
    """What loading one file did."""

    name: str
    sha256: str
    status: Literal["loaded", "correction", "duplicate"]
    file_id: int | None
    events: int
    replaced_events: tuple[int, ...]
    players_created: int

    def summary(self) -> str:
        if self.status == "duplicate":
            return f"{self.name}: already loaded (same bytes as file {self.file_id}), nothing to do"
        text = f"{self.name}: loaded {self.events} event(s)"
        if self.replaced_events:
            text += f", replacing event(s) {', '.join(map(str, self.replaced_events))}"
        if self.players_created:
            text += f", {self.players_created} new player(s)"
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
    tmp = target.with_name(target.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, target)
    return rel, True


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
    resolver: ResolverFactory = ExactResolver,
    now: dt.datetime | None = None,
) -> LoadReport:
    """Load the parsed events of one file (its raw ``data`` kept) in one transaction."""
    name = PurePath(path).name
    sha = file_sha256(data)
    existing = is_loaded(wh, sha)
    if existing is not None:
        return LoadReport(name, sha, "duplicate", existing, 0, (), 0)
    _check_keys(result.events, name)
    now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)

    raw_rel, raw_new = _store_raw(wh, data, sha, PurePath(path).suffix)
    try:
        with wh.transaction():
            report = _insert(wh, data, result, path, name, sha, raw_rel, resolver, now)
    except BaseException:
        if raw_new:
            (wh.raw_dir.parent / raw_rel).unlink(missing_ok=True)
        raise
    return report


def _insert(
    wh: Warehouse,
    data: bytes,
    result: ParseResult,
    path: str,
    name: str,
    sha: str,
    raw_rel: str,
    resolver_factory: ResolverFactory,
    now: dt.datetime,
) -> LoadReport:
    file_id = _next_id(wh, "source_files", "file_id")
    first_event = _next_id(wh, "events", "event_id")
    known = [
        KnownPlayer(int(r[0]), r[1], r[2], r[3])
        for r in wh.con.execute(
            "SELECT player_id, name, name_key, federation_id FROM players "
            "UNION ALL SELECT a.player_id, p.name, a.name_key, p.federation_id "
            "FROM player_aliases a JOIN players p USING (player_id)"
        ).fetchall()
    ]
    resolver = resolver_factory(known, _next_id(wh, "players", "player_id"))
    alias_rows = {
        (int(r[0]), r[1])
        for r in wh.con.execute("SELECT player_id, spelling FROM player_aliases").fetchall()
    }

    events, units, members, new_players, aliases, replacements = [], [], [], [], [], []
    learned: dict[int, str] = {}
    for offset, ev in enumerate(result.events):
        event_id = first_event + offset
        old = wh.con.execute(
            "SELECT event_id FROM active_events "
            "WHERE organiser = ? AND event_date = ? AND title = ? AND section = ?",
            [ev.organiser, ev.date, ev.title, ev.section],
        ).fetchall()
        for (old_id,) in old:
            replacements.append({
                "event_id": int(old_id), "replaced_by": event_id, "file_id": file_id,
                "replaced_at": now,
            })
        events.append({
            "event_id": event_id, "file_id": file_id, "game": ev.game,
            "organiser": ev.organiser, "event_date": ev.date, "title": ev.title,
            "section": ev.section, "kind": ev.kind, "scoring": ev.scoring, "boards": ev.boards,
            "format": ev.format or result.format, "n_units": len(ev.units),
            "end_date": ev.end_date, "round": ev.round, "parent": ev.parent,
            "handicap": ev.handicap, "komi": ev.komi, "deals": ev.deals,
            "variant": ev.variant, "pulka": ev.pulka, "segment": ev.segment,
        })
        for unit_no, unit in enumerate(ev.units, 1):
            units.append({
                "event_id": event_id, "unit_no": unit_no, "label": unit.label,
                "place": unit.place, "place_text": unit.place_text, "score": unit.score,
                "colour": unit.colour,
            })
            for seat, p in enumerate(unit.players, 1):
                res = resolver.resolve(p)
                if res.is_new:
                    new_players.append({
                        "player_id": res.player_id, "name": p.name,
                        "name_key": name_key(p.name), "federation_id": p.federation_id or None,
                        "created_at": now, "created_by_file": file_id,
                    })
                if res.learned_federation_id:
                    learned[res.player_id] = res.learned_federation_id
                if (res.player_id, p.name) not in alias_rows:
                    alias_rows.add((res.player_id, p.name))
                    aliases.append({
                        "player_id": res.player_id, "spelling": p.name,
                        "name_key": name_key(p.name), "first_file_id": file_id,
                    })
                members.append({
                    "event_id": event_id, "unit_no": unit_no, "seat": seat,
                    "player_id": res.player_id, "name_as_written": p.name,
                    "federation_id": p.federation_id or None, "club": p.club or None,
                    "initials": p.initials,
                })

    status: Literal["loaded", "correction"] = "correction" if replacements else "loaded"
    wh.insert_frame("source_files", pd.DataFrame([{
        "file_id": file_id, "sha256": sha, "path": path, "name": name, "size": len(data),
        "format": result.format, "raw_path": raw_rel, "loaded_at": now, "status": status,
        "n_events": len(result.events),
        "issues": json.dumps(
            [{"level": i.level, "message": i.message, "where": i.where} for i in result.issues],
            ensure_ascii=False,
        ),
    }]))
    # Explicit dtypes: an all-empty optional column must not arrive as a float column.
    wh.insert_frame("events", _frame(events, {
        "variant": "object", "handicap": "Int64", "deals": "Int64", "pulka": "Int64",
        "segment": "Int64", "round": "Int64", "boards": "Int64", "komi": "float64",
    }))
    wh.insert_frame("units", _frame(units, {"colour": "object", "score": "float64",
                                            "place": "float64"}))
    wh.insert_frame("players", _frame(new_players, {"federation_id": "object"}))
    wh.insert_frame("player_aliases", _frame(aliases, {}))
    wh.insert_frame("unit_members", _frame(members, {"federation_id": "object", "club": "object"}))
    wh.insert_frame("event_replacements", _frame(replacements, {}))
    for pid, fid in learned.items():
        wh.con.execute(
            "UPDATE players SET federation_id = ? WHERE player_id = ? AND federation_id IS NULL",
            [fid, pid],
        )
    return LoadReport(
        name, sha, status, file_id, len(events),
        tuple(r["event_id"] for r in replacements), len(new_players),
    )


def _frame(rows: list[dict[str, object]], dtypes: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    for column, dtype in dtypes.items():
        if column in frame:
            frame[column] = frame[column].astype(dtype)  # type: ignore[call-overload]
    return frame


def raw_bytes(wh: Warehouse, file_id: int) -> bytes:
    """The kept bytes of a loaded file, for a rebuild."""
    rows = wh.con.execute(
        "SELECT raw_path FROM source_files WHERE file_id = ?", [file_id],
    ).fetchall()
    if not rows:
        raise LoadError(f"no loaded file with id {file_id}")
    return (wh.raw_dir.parent / Path(rows[0][0])).read_bytes()
