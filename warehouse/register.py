"""Loading a federation's member register: the preferred anchor of player identity.

Each member (federation id, first name, surname, club, birth year, status) becomes or updates
one player, in one transaction:

1. a player with that federation id → its register fields are updated (a newer register moves
   clubs and statuses; nobody is duplicated);
2. else exactly one decided player without a federation id whose name key is the member's →
   that player learns the id (results loaded before the register keep their player);
3. else a new player (origin ``register``).

Every member line is kept in ``register_entries`` (which register said what), and the same bytes
again load nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

import pandas as pd

from parsers.names import name_key

from ._db import Warehouse
from ._identity_db import next_player_id
from ._load import file_sha256
from ._register_file import RegisterError, RegisterFile, RegisterMember, read_register

__all__ = [
    "RegisterError", "RegisterFile", "RegisterMember", "RegisterReport", "load_register",
    "read_register",
]


@dataclass(frozen=True, slots=True)
class RegisterReport:
    name: str
    status: Literal["loaded", "duplicate"]
    members: int
    new: int
    updated: int
    attached: int
    """Players known from results before, who got their federation id from this register."""
    club_changes: tuple[tuple[str, str | None, str | None], ...] = ()

    def summary(self) -> str:
        if self.status == "duplicate":
            return f"{self.name}: register already loaded, nothing to do"
        text = (f"{self.name}: register of {self.members} member(s): {self.new} new, "
                f"{self.updated} updated")
        if self.attached:
            text += f", {self.attached} matched to players known from results"
        if self.club_changes:
            text += f", {len(self.club_changes)} club change(s)"
        return text


def load_register(wh: Warehouse, data: bytes, *, path: str,
                  now: dt.datetime | None = None) -> RegisterReport:
    """Read a register file and load it (all members or none)."""
    name = PurePath(path).name
    sha = file_sha256(data)
    if wh.con.execute("SELECT 1 FROM registers WHERE sha256 = ?", [sha]).fetchall():
        return RegisterReport(name, "duplicate", 0, 0, 0, 0)
    parsed = read_register(data, name)
    now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    con = wh.con
    players = con.execute(
        "SELECT p.player_id, p.name, p.federation_id, coalesce(p.state, 'confirmed'), p.club, "
        "p.status, p.birth_year, p.first_name, p.surname, c.canonical_id "
        "FROM players p JOIN player_canonical c USING (player_id) ORDER BY p.player_id"
    ).fetchall()
    by_fid = {r[2]: int(r[9]) for r in players if r[2]}
    current = {int(r[0]): r for r in players}
    without_fid: dict[str, set[int]] = {}
    for r in players:
        if r[2] is None and r[3] != "pending" and int(r[0]) == int(r[9]):
            without_fid.setdefault(name_key(r[1]), set()).add(int(r[0]))
    groups_with_fid = {int(r[9]) for r in players if r[2]}
    next_id = next_player_id(wh)
    register_id = int(con.execute(
        "SELECT coalesce(max(register_id), 0) + 1 FROM registers").fetchall()[0][0])
    new_rows: list[dict[str, object]] = []
    updates: list[dict[str, object]] = []
    entries: list[dict[str, object]] = []
    attached = 0
    changes: list[tuple[str, str | None, str | None]] = []
    for m in parsed.members:
        full = f"{m.first_name} {m.surname}"
        pid = by_fid.get(m.federation_id)
        if pid is None:
            same = sorted(p for p in without_fid.get(name_key(full), set())
                          if p not in groups_with_fid)
            if len(same) == 1:
                pid = same[0]
                attached += 1
                groups_with_fid.add(pid)
                without_fid[name_key(full)].discard(pid)
        if pid is None:
            pid = next_id
            next_id += 1
            new_rows.append({
                "player_id": pid, "name": full, "name_key": name_key(full),
                "federation_id": m.federation_id, "created_at": now, "created_by_file": 0,
                "state": "confirmed", "origin": "register", "first_name": m.first_name,
                "surname": m.surname, "club": m.club, "birth_year": m.birth_year,
                "status": m.status,
            })
        else:
            old = current.get(pid)
            if old is not None and old[4] != m.club and old[4] is not None:
                changes.append((full, old[4], m.club))
            if old is None or (old[4], old[5], old[6], old[7], old[8], old[2]) != (
                    m.club, m.status, m.birth_year, m.first_name, m.surname, m.federation_id):
                updates.append({
                    "player_id": pid, "federation_id": m.federation_id,
                    "first_name": m.first_name, "surname": m.surname, "club": m.club,
                    "birth_year": m.birth_year, "status": m.status,
                })
        by_fid[m.federation_id] = pid
        entries.append({
            "register_id": register_id, "federation_id": m.federation_id, "player_id": pid,
            "first_name": m.first_name, "surname": m.surname, "club": m.club,
            "birth_year": m.birth_year, "status": m.status, "row_no": m.row,
        })
    n_updated = len([u for u in updates if u["player_id"] in current])
    with wh.transaction():
        con.execute(
            "INSERT INTO registers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [register_id, sha, path, name, parsed.sheet, now, len(parsed.members),
             len(new_rows), n_updated],
        )
        if new_rows:
            wh.insert_frame("players", _typed(pd.DataFrame(new_rows)))
        if updates:
            frame = _typed(pd.DataFrame(updates))
            con.register("_register_updates", frame)
            try:
                con.execute(
                    "UPDATE players SET federation_id = u.federation_id, "
                    "first_name = u.first_name, surname = u.surname, club = u.club, "
                    "birth_year = u.birth_year, status = u.status "
                    "FROM _register_updates u WHERE players.player_id = u.player_id"
                )
            finally:
                con.unregister("_register_updates")
        wh.insert_frame("register_entries", _typed(pd.DataFrame(entries)))
    return RegisterReport(name, "loaded", len(parsed.members), len(new_rows), n_updated,
                          attached, tuple(changes))


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    for column in ("club", "status", "federation_id"):
        if column in frame:
            frame[column] = frame[column].astype("object")
    if "birth_year" in frame:
        frame["birth_year"] = frame["birth_year"].astype("Int64")
    return frame
