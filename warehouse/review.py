"""What a person decides about identity: review answers, merges and splits, the decisions file.

Every decision is a row of ``identity_decisions`` and leaves rules the resolver obeys from then
on, so the same question never comes back:

- ``pick`` (item, player): the waiting name is that player. The pending player is merged into
  it; the situation (and, for a full name, its name key as a confirmed alias) maps to it.
- ``new`` (item): the waiting name is a person of its own; the pending player becomes one.
- ``different`` (item, player): the waiting name is NOT that candidate (a non-match rule). When
  no candidate is left, the name is a new person.
- ``merge`` (player into player): one person written two ways. Results move by the merge (the
  view ``player_canonical``), both spellings stay; two federation ids are never merged.
- ``split`` (player): undoes the merge that merged that player away (and reopens the review item
  when the merge was a ``pick``).
- ``rename`` (player, new name): the player's name is shown as written now (a corrected file
  fixed its spelling: the ``spelling:`` question of the review); the old spelling stays an
  alias, so files that still write it find the same player.

The decisions file (CSV, one decision a row, in the order made) can be kept under version
control. Applied to a rebuilt warehouse, each decision takes effect right after the result file
that was the newest when it was made (``after_file``) is loaded again, so the rebuild retraces
the original history and gives the same player ids and results.

Answers are idempotent: an answer to an item already answered the same way (given twice, or a
decisions file replayed over answers it agrees with, whatever its time stamp) changes nothing.
An answer that contradicts the one on record is never applied over it: the command line refuses
it (:class:`AnswerConflict`), a decisions file holds it and says so in one line
(:attr:`ApplyReport.held`) while the rest of the file applies.

    WarehouseError
    └── ReviewError      the answer does not fit the warehouse (unknown item or player, two
        │                federation ids, a decisions file from other data)
        └── AnswerConflict   the item is answered otherwise already (the answer on record stays)
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from games import GAMES
from parsers.names import name_key

from ._atomic import atomic_write
from ._db import Warehouse
from ._errors import WarehouseError

__all__ = [
    "AnswerConflict", "ApplyReport", "Decision", "ReviewError", "answer",
    "apply_decisions_file", "apply_waiting", "PlayerCard", "export_decisions", "merge_players",
    "open_items", "player_card", "read_decisions", "rename_player", "repeated",
    "split_player", "waiting_after_files",
]

Action = Literal["pick", "new", "different", "merge", "split", "rename"]
ACTIONS: tuple[Action, ...] = ("pick", "new", "different", "merge", "split", "rename")


class ReviewError(WarehouseError):
    """An answer, merge, split or decisions-file row that does not fit this warehouse."""


class AnswerConflict(ReviewError):
    """An answer to a review item that is already answered otherwise; the message names the
    item, the answer on record (and its decision) and the answer given."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision as the decisions file keeps it (players by id, name and federation id)."""

    action: Action
    made_at: dt.datetime
    after_file: str | None = None
    item_key: str | None = None
    player_id: int | None = None
    player_name: str | None = None
    federation_id: str | None = None
    other_id: int | None = None
    other_name: str | None = None
    other_federation_id: str | None = None
    note: str = ""
    seq: int = 0
    decision_id: str = ""

    def with_id(self) -> Decision:
        body = json.dumps([self.action, self.made_at.isoformat(), self.after_file, self.item_key,
                           self.player_id, self.player_name, self.other_id, self.other_name,
                           self.note], ensure_ascii=False)
        return replace(self, decision_id=hashlib.sha256(body.encode()).hexdigest()[:16])


@dataclass(frozen=True, slots=True)
class ApplyReport:
    applied: int
    waiting: int
    already: int
    """Decisions the warehouse holds already, or answers it has on record the same way."""
    held: tuple[str, ...] = ()
    """One line per answer not applied because it contradicts the answer on record
    (``warning: FILE: held, not applied: ...``: the item, the answer on record, the file's)."""

    def summary(self) -> str:
        text = f"decisions: {self.applied} applied, {self.already} already in the warehouse"
        if self.waiting:
            text += f", {self.waiting} waiting for the result file they follow"
        if self.held:
            text += (f", {len(self.held)} held: contradicting an answer on record "
                     "(not applied)")
        return text


# --- reading the queue ------------------------------------------------------------------------

def open_items(wh: Warehouse) -> pd.DataFrame:
    """The open review items with their candidates, evidence and where they occur."""
    return wh.query(
        """
        SELECT r.item_key, r.kind, r.name_as_written, r.club, r.player_id, r.candidates,
               r.evidence, e.event_date AS first_date, e.title AS first_event,
               (SELECT count(*) FROM unit_members m WHERE m.review_key = r.item_key) AS occurrences
        FROM review_items r LEFT JOIN events e ON e.event_id = r.first_event_id
        WHERE r.status = 'open' AND r.kind <> 'spelling'
        ORDER BY r.created_at, r.item_key
        """
    )


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A player as ``clubratings players PLAYER`` shows them."""

    player_id: int
    name: str
    federation_id: str | None
    state: str
    origin: str
    club: str | None
    canonical_id: int
    """The player its results count for (itself unless merged away)."""
    spellings: tuple[str, ...]
    """Every spelling of the player its results count for."""
    merged_in: tuple[tuple[int, str], ...]
    """(player id, why) of each player merged into this one."""
    register: tuple[tuple[str, ...], ...] = ()
    """What the member registers say, newest register first: (register file name, row,
    federation id, first name, surname, club, birth year, status), "" where a field is empty."""
    clubs: tuple[tuple[str, str], ...] = ()
    """(club, where it comes from: register, written next to the name, organiser of an event
    played) of the player its results count for."""
    games: tuple[tuple[str, int, str, str], ...] = ()
    """(game, events in force, first date, last date) of the player its results count for."""
    last_events: tuple[tuple[str, str, str, str, str], ...] = ()
    """The newest events in force (date, game, organiser, title with section, the place among
    the units, or a game's result: won, drawn, lost), newest first, at most
    :data:`LAST_EVENTS`."""
    lists: tuple[tuple[str, str, str, str, str], ...] = ()
    """Per pool, the newest edition of its run in force that lists the player and, when that
    one does not rank them, the newest that does: (pool, edition, standing, with the rank
    among how many for the ranked, rating, events rated so far), newest first."""


LAST_EVENTS = 5
"""How many of a player's newest events ``clubratings players show`` prints."""


def _text(value: object) -> str:
    return "" if value is None or str(value) in ("nan", "NaT", "None") else str(value)


def player_card(wh: Warehouse, player_id: int) -> PlayerCard | None:
    """One player with their spellings and merges, what the member registers say of them,
    their clubs, games, newest events and places on the published lists; None if there is no
    such player."""
    rows = wh.con.execute(
        "SELECT p.player_id, p.name, p.federation_id, p.state, p.origin, p.club, "
        "c.canonical_id FROM players p JOIN player_canonical c USING (player_id) "
        "WHERE p.player_id = ?", [player_id]).fetchall()
    if not rows:
        return None
    pid, name, fid, state, origin, club, canonical = rows[0]
    spellings = tuple(str(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT spelling FROM player_spellings WHERE player_id = ? ORDER BY spelling",
        [canonical]).fetchall())
    merged = tuple((int(r[0]), str(r[1])) for r in wh.con.execute(
        "SELECT player_id, reason FROM player_merges WHERE into_player_id = ? "
        "AND split_at IS NULL ORDER BY merge_id", [pid]).fetchall())
    register = tuple(tuple(_text(v) for v in r) for r in wh.con.execute(
        "SELECT coalesce(g.name, g.path), e.row_no, e.federation_id, e.first_name, e.surname, "
        "e.club, e.birth_year, e.status FROM register_entries e JOIN registers g "
        "USING (register_id) WHERE e.player_id = ? ORDER BY g.register_id DESC, e.row_no",
        [pid]).fetchall())
    clubs = tuple((str(r[0]), str(r[1])) for r in wh.con.execute(
        "SELECT club, string_agg(source, ', ' ORDER BY CASE source WHEN 'register' THEN 0 "
        "WHEN 'written' THEN 1 ELSE 2 END) FROM player_club_links WHERE player_id = ? "
        "GROUP BY 1 ORDER BY min(CASE source WHEN 'register' THEN 0 WHEN 'written' THEN 1 "
        "ELSE 2 END), 1", [canonical]).fetchall())
    games = tuple((str(r[0]), int(r[1]), _text(r[2])[:10], _text(r[3])[:10])
                  for r in wh.con.execute(
        "SELECT e.game, count(DISTINCT e.event_id), min(e.event_date), max(e.event_date) "
        "FROM members_resolved m JOIN active_events e USING (event_id) "
        "WHERE m.canonical_id = ? GROUP BY 1 ORDER BY 1", [canonical]).fetchall())
    def place(game_name: str, text: object, value: object, units: object) -> str:
        if game_name in GAMES and GAMES[game_name].two_player_games:  # a go game
            return {1.0: "won", 1.5: "drawn", 2.0: "lost"}.get(
                float(value) if _text(value) else 0.0, "no result")
        return f"place {_text(text) or _text(value) or '-'} of {units}"

    last = tuple(
        (_text(r[0])[:10], str(r[1]), str(r[2]), str(r[3]) + (f" ({r[4]})" if r[4] else ""),
         place(str(r[1]), r[5], r[6], r[7]))
        for r in wh.con.execute(
            "SELECT e.event_date, e.game, e.organiser, e.title, e.section, "
            "any_value(u.place_text), any_value(u.place), any_value(e.n_units) "
            "FROM members_resolved m JOIN active_events e USING (event_id) "
            "JOIN units u ON u.event_id = m.event_id AND u.unit_no = m.unit_no "
            "WHERE m.canonical_id = ? GROUP BY e.event_id, e.event_date, e.game, e.organiser, "
            "e.title, e.section ORDER BY e.event_date DESC, e.event_id DESC LIMIT ?",
            [canonical, LAST_EVENTS]).fetchall())
    lists = tuple(
        (str(r[0]), str(r[1]),
         (f"ranked {r[2]} of {r[3]}" if _text(r[2]) else str(r[4])),
         f"{float(r[5]):.1f}" if _text(r[5]) else "-", _text(r[6]) or "-")
        for r in wh.con.execute(
            "SELECT l.pool, l.edition, l.rank, (SELECT count(*) FROM edition_entries o "
            "WHERE o.pool = l.pool AND o.edition = l.edition AND o.rank IS NOT NULL), "
            "l.standing, l.rating, l.events_total FROM edition_entries l "
            "WHERE l.player_id = ? QUALIFY row_number() OVER (PARTITION BY l.pool "
            "ORDER BY l.period_end DESC, l.edition DESC) = 1 OR (l.rank IS NOT NULL AND "
            "row_number() OVER (PARTITION BY l.pool, l.rank IS NOT NULL "
            "ORDER BY l.period_end DESC, l.edition DESC) = 1) "
            "ORDER BY l.pool, l.period_end DESC", [canonical]).fetchall())
    return PlayerCard(int(pid), str(name), fid, str(state), str(origin), club, int(canonical),
                      spellings, merged, register, clubs, games, last, lists)


def _item(wh: Warehouse, item_key: str) -> dict[str, Any]:
    rows = wh.con.execute(
        "SELECT item_key, kind, name_as_written, club, player_id, candidates, status, "
        "decision_id FROM review_items WHERE item_key = ?", [item_key],
    ).fetchall()
    if not rows:
        keys = [r[0] for r in wh.con.execute(
            "SELECT item_key FROM review_items WHERE status = 'open' ORDER BY item_key").fetchall()]
        raise ReviewError(f"no review item {item_key!r}; open items: {', '.join(keys) or 'none'}")
    k, kind, name, club, pid, cands, status, decision_id = rows[0]
    return {"item_key": k, "kind": kind, "name": name, "club": club, "player_id": int(pid),
            "candidates": json.loads(cands), "status": status, "decision_id": decision_id}


def _player(wh: Warehouse, pid: int) -> dict[str, Any]:
    rows = wh.con.execute(
        "SELECT p.player_id, p.name, p.federation_id, p.state, c.canonical_id FROM players p "
        "JOIN player_canonical c USING (player_id) WHERE p.player_id = ?", [pid],
    ).fetchall()
    if not rows:
        raise ReviewError(f"no player {pid!r} in the warehouse")
    p, name, fid, state, canon = rows[0]
    return {"player_id": int(p), "name": name, "federation_id": fid, "state": state,
            "canonical_id": int(canon)}


def _newest_file(wh: Warehouse) -> str | None:
    rows = wh.con.execute("SELECT sha256 FROM source_files ORDER BY file_id DESC LIMIT 1").fetchall()
    return rows[0][0] if rows else None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)


# --- making decisions ---------------------------------------------------------------------------

def answer(
    wh: Warehouse, item_key: str, *, as_player: int | None = None, new: bool = False,
    different: int | None = None, note: str = "", now: dt.datetime | None = None,
) -> Decision:
    """Answer a review item: ``as_player`` (pick), ``new`` or ``different`` (exactly one)."""
    decision = _draft(wh, item_key, as_player, new, different, note, now)
    return _repeated(wh, decision) or _record_and_apply(wh, decision)


def repeated(wh: Warehouse, item_key: str, *, as_player: int | None = None, new: bool = False,
             different: int | None = None) -> Decision | None:
    """The decision on record that :func:`answer` with these arguments would only repeat (it
    changes nothing then), or None when the answer is new. :class:`AnswerConflict` when the
    item is answered otherwise."""
    return _repeated(wh, _draft(wh, item_key, as_player, new, different, "", None))


def _draft(wh: Warehouse, item_key: str, as_player: int | None, new: bool,
           different: int | None, note: str, now: dt.datetime | None) -> Decision:
    if sum([as_player is not None, new, different is not None]) != 1:
        raise ReviewError("answer with exactly one of: a player (--as), --new, --different")
    _item(wh, item_key)  # an unknown key names the open ones
    action: Action = "pick" if as_player is not None else "new" if new else "different"
    target = as_player if as_player is not None else different
    player = _player(wh, target) if target is not None else None
    return Decision(
        action, now or _now(), _newest_file(wh), item_key,
        player["player_id"] if player else None, player["name"] if player else None,
        player["federation_id"] if player else None, note=note,
    )


def _repeated(wh: Warehouse, d: Decision) -> Decision | None:
    """The decision on record that ``d`` repeats: the one that answered its item, or (an item
    still open) the "different" that ruled the same player out; None when ``d`` is new."""
    if not _answered_so(wh, d):
        return None
    assert d.item_key is not None
    decision_id = _item(wh, d.item_key)["decision_id"] or _ruled_out_by(wh, d)
    found = next(_decisions(wh, "decision_id = ?", [decision_id]), None)
    if found is None:  # answered by no recorded decision (cannot happen for a name)
        raise ReviewError(f"review item {d.item_key!r} is already answered")
    return found


def _ruled_out_by(wh: Warehouse, d: Decision) -> str | None:
    """The decision that ruled player ``d.player_id`` out for item ``d.item_key``, if any."""
    rows = wh.con.execute(
        "SELECT decision_id FROM identity_rules WHERE rule_kind = 'non_match' AND rule_key = ? "
        "AND player_id = ?", [d.item_key, d.player_id]).fetchall()
    return str(rows[0][0]) if rows else None


def _on_record(wh: Warehouse, item: dict[str, Any]) -> tuple[bool, dict[str, Any], str | None]:
    """An answered item as it stands: whether it was answered a person of its own (``new``, or
    ``different`` down to no candidate), the player its name counts for now, the decision."""
    decision_id = item["decision_id"]
    rows = wh.con.execute("SELECT action FROM identity_decisions WHERE decision_id = ?",
                          [decision_id]).fetchall()
    now = _player(wh, _player(wh, item["player_id"])["canonical_id"])
    return bool(rows) and rows[0][0] in ("new", "different"), now, decision_id


def _answered_so(wh: Warehouse, d: Decision) -> bool:
    """Whether the review item ``d`` answers is answered already, the same way (True: nothing
    to do). False while it is open (or ``d`` answers no item); :class:`AnswerConflict` when it
    is answered otherwise. ``d``'s players are ids of this warehouse."""
    if d.action not in ("pick", "new", "different") or d.item_key is None:
        return False
    item = _item(wh, d.item_key)
    if item["status"] == "open":  # only "not that candidate" again can repeat an answer
        return d.action == "different" and _ruled_out_by(wh, d) is not None and not any(
            int(c["player_id"]) == d.player_id for c in item["candidates"])
    own, now, decision_id = _on_record(wh, item)
    given = _player(wh, d.player_id) if d.player_id is not None else None
    if d.action == "pick":
        assert given is not None
        same = given["canonical_id"] == now["player_id"]
        theirs = f"player {given['player_id']} {given['name']!r}"
    elif d.action == "new":
        same = own
        theirs = "a person of their own"
    else:  # different: any answer but that player
        assert given is not None
        same = given["canonical_id"] != now["player_id"]
        theirs = f"not player {given['player_id']} {given['name']!r}"
    if same:
        return True
    ours = (f"a person of their own, player {now['player_id']} {now['name']!r}" if own
            else f"player {now['player_id']} {now['name']!r}")
    fix = (f"clubratings players merge {now['player_id']} --into PLAYER" if own else
           f"clubratings players split {item['player_id']} reopens the item")
    raise AnswerConflict(
        f"review item {d.item_key!r} is already answered: {ours} (decision {decision_id}); "
        f"the answer given ({theirs}) contradicts it; to change it, {fix}")


def merge_players(wh: Warehouse, player_id: int, into: int, *, note: str = "",
                  now: dt.datetime | None = None) -> Decision:
    """Merge ``player_id`` into ``into`` (one person written two ways)."""
    a, b = _player(wh, player_id), _player(wh, into)
    decision = Decision("merge", now or _now(), _newest_file(wh), None, b["player_id"], b["name"],
                        b["federation_id"], a["player_id"], a["name"], a["federation_id"], note)
    return _record_and_apply(wh, decision)


def split_player(wh: Warehouse, player_id: int, *, note: str = "",
                 now: dt.datetime | None = None) -> Decision:
    """Undo the merge that merged ``player_id`` away."""
    a = _player(wh, player_id)
    decision = Decision("split", now or _now(), _newest_file(wh), None, None, None, None,
                        a["player_id"], a["name"], a["federation_id"], note)
    return _record_and_apply(wh, decision)


def rename_player(wh: Warehouse, player_id: int, name: str, *, item_key: str | None = None,
                  note: str = "", now: dt.datetime | None = None) -> Decision:
    """Show player ``player_id`` (the person it is merged into, if any) as ``name`` from now
    on; ``item_key``: the spelling question this answers (closed)."""
    a = _player(wh, player_id)
    if not name.strip():
        raise ReviewError("a player's name cannot be empty")
    decision = Decision("rename", now or _now(), _newest_file(wh), item_key, a["player_id"],
                        a["name"], a["federation_id"], None, name.strip(), None, note)
    return _record_and_apply(wh, decision)


def _record_and_apply(wh: Warehouse, decision: Decision) -> Decision:
    seq = int(wh.con.execute(
        "SELECT coalesce(max(seq), 0) + 1 FROM identity_decisions").fetchall()[0][0])
    decision = replace(decision, seq=seq).with_id()
    with wh.transaction():
        _apply(wh, decision)
        _insert(wh, decision, applied=True)
    return decision


def _insert(wh: Warehouse, d: Decision, *, applied: bool) -> None:
    wh.con.execute(
        "INSERT INTO identity_decisions (decision_id, seq, made_at, after_file, action, item_key, "
        "player_id, player_name, federation_id, other_id, other_name, other_federation_id, note, "
        "applied_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [d.decision_id, d.seq, d.made_at, d.after_file, d.action, d.item_key, d.player_id,
         d.player_name, d.federation_id, d.other_id, d.other_name, d.other_federation_id, d.note,
         _now() if applied else None],
    )


def _rule(wh: Warehouse, kind: str, key: str, pid: int, decision_id: str) -> None:
    wh.con.execute(
        "INSERT INTO identity_rules VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [kind, key, pid, decision_id],
    )


def _check_federation_ids(a: dict[str, Any], b: dict[str, Any]) -> None:
    fa, fb = _federation_ids(a), _federation_ids(b)
    if fa and fb and fa != fb:
        raise ReviewError(
            f"player {a['player_id']} {a['name']!r} (federation id {', '.join(sorted(fa))}) and "
            f"player {b['player_id']} {b['name']!r} (federation id {', '.join(sorted(fb))}) "
            "are different members; two federation ids are never merged"
        )


def _federation_ids(p: dict[str, Any]) -> set[str]:
    """Federation ids of a player and of everything merged into it."""
    return set(p.get("all_federation_ids") or ([p["federation_id"]] if p["federation_id"] else []))


def _with_group_ids(wh: Warehouse, p: dict[str, Any]) -> dict[str, Any]:
    rows = wh.con.execute(
        "SELECT DISTINCT pl.federation_id FROM player_canonical c JOIN players pl USING (player_id) "
        "WHERE c.canonical_id = ? AND pl.federation_id IS NOT NULL", [p["canonical_id"]],
    ).fetchall()
    return {**p, "all_federation_ids": [r[0] for r in rows]}


def _merge(wh: Warehouse, away: int, into: int, d: Decision, reason: str) -> None:
    a = _with_group_ids(wh, _player(wh, away))
    b = _with_group_ids(wh, _player(wh, into))
    if a["canonical_id"] == b["canonical_id"]:
        raise ReviewError(f"players {away} and {into} are already one player "
                          f"({b['canonical_id']})")
    if a["canonical_id"] != a["player_id"]:
        raise ReviewError(f"player {away} is already merged into {a['canonical_id']}; "
                          f"merge {a['canonical_id']} instead")
    _check_federation_ids(a, b)
    merge_id = int(wh.con.execute(
        "SELECT coalesce(max(merge_id), 0) + 1 FROM player_merges").fetchall()[0][0])
    wh.con.execute(
        "INSERT INTO player_merges VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)",
        [merge_id, away, b["canonical_id"], d.made_at, d.decision_id, reason],
    )


def _apply(wh: Warehouse, d: Decision) -> None:
    """Carry out one decision (inside the caller's transaction)."""
    if d.action in ("pick", "new", "different"):
        assert d.item_key is not None
        item = _item(wh, d.item_key)
        if item["status"] != "open":
            raise ReviewError(f"review item {d.item_key!r} is already answered")
        pending = item["player_id"]
        written_key = name_key(item["name"])
        if d.action == "pick":
            assert d.player_id is not None
            target = _player(wh, d.player_id)
            if target["state"] == "pending":
                raise ReviewError(f"player {d.player_id} {target['name']!r} is itself waiting "
                                  "for review; pick a decided player")
            _merge(wh, pending, d.player_id, d, f"review {d.item_key}")
            _rule(wh, "situation", d.item_key, target["canonical_id"], d.decision_id)
            if item["kind"] == "name":
                _rule(wh, "alias", written_key, target["canonical_id"], d.decision_id)
            _close(wh, d.item_key, d.decision_id)
            return
        if d.action == "different":
            assert d.player_id is not None
            _rule(wh, "non_match", d.item_key, d.player_id, d.decision_id)
            if item["kind"] == "name":
                _rule(wh, "non_match", written_key, d.player_id, d.decision_id)
            left = [c for c in item["candidates"] if int(c["player_id"]) != d.player_id]
            wh.con.execute("UPDATE review_items SET candidates = ? WHERE item_key = ?",
                           [json.dumps(left, ensure_ascii=False, sort_keys=True), d.item_key])
            if left:
                return
        # new (or no candidate left): the pending player is a person of its own
        state, origin = ("provisional", "initials") if item["kind"] == "initials" else \
            ("confirmed", "review")
        wh.con.execute("UPDATE players SET state = ?, origin = ? WHERE player_id = ?",
                       [state, origin, pending])
        _rule(wh, "situation", d.item_key, pending, d.decision_id)
        for c in item["candidates"]:
            _rule(wh, "non_match", d.item_key, int(c["player_id"]), d.decision_id)
        _close(wh, d.item_key, d.decision_id)
        return
    if d.action == "rename":
        assert d.player_id is not None and d.other_name
        target = _player(wh, d.player_id)
        wh.con.execute("UPDATE players SET name = ?, name_key = ? WHERE player_id = ?",
                       [d.other_name, name_key(d.other_name), target["canonical_id"]])
        if d.item_key:
            _close(wh, d.item_key, d.decision_id)
        return
    if d.action == "merge":
        assert d.other_id is not None and d.player_id is not None
        _merge(wh, d.other_id, d.player_id, d, d.note or "merge")
        return
    if d.action == "split":
        assert d.other_id is not None
        rows = wh.con.execute(
            "SELECT merge_id, decision_id FROM player_merges WHERE player_id = ? AND split_at IS "
            "NULL", [d.other_id],
        ).fetchall()
        if not rows:
            raise ReviewError(f"player {d.other_id} {d.other_name!r} is not merged into anyone; "
                              "split the player that was merged away")
        merge_id, made_by = rows[0]
        wh.con.execute("UPDATE player_merges SET split_at = ?, split_decision = ? "
                       "WHERE merge_id = ?", [d.made_at, d.decision_id, merge_id])
        wh.con.execute("DELETE FROM identity_rules WHERE decision_id = ?", [made_by])
        wh.con.execute("UPDATE review_items SET status = 'open', decision_id = NULL "
                       "WHERE decision_id = ?", [made_by])
        return
    raise ReviewError(f"unknown decision {d.action!r}; expected one of {', '.join(ACTIONS)}")


def _close(wh: Warehouse, item_key: str, decision_id: str) -> None:
    wh.con.execute("UPDATE review_items SET status = 'resolved', decision_id = ? "
                   "WHERE item_key = ?", [decision_id, item_key])


# --- the decisions file -------------------------------------------------------------------------

_COLUMNS = [f.name for f in fields(Decision)]


def _decisions(wh: Warehouse, where: str = "true", params: list[Any] | None = None,
               ) -> Iterator[Decision]:
    cols = ", ".join(_COLUMNS)
    for row in wh.con.execute(f"SELECT {cols} FROM identity_decisions WHERE {where} "
                              "ORDER BY seq", params or []).fetchall():
        values = dict(zip(_COLUMNS, row, strict=True))
        values["note"] = values["note"] or ""
        yield Decision(**values)


def export_decisions(wh: Warehouse, path: Path) -> int:
    """Write every decision, in the order made, to ``path`` (CSV; replaced atomically)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    n = 0
    for d in _decisions(wh):
        row = asdict(d)
        row["made_at"] = d.made_at.isoformat(sep=" ")
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
        n += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, out.getvalue())
    return n


def read_decisions(path: Path) -> list[Decision]:
    """The decisions of a decisions file; a bad row raises :class:`ReviewError` naming it."""
    text = path.read_text(encoding="utf-8-sig")
    reader = csv.DictReader(io.StringIO(text))
    missing = {"action", "made_at"} - set(reader.fieldnames or [])
    if missing:
        raise ReviewError(f"{path.name}: not a decisions file, missing column(s) "
                          f"{', '.join(sorted(missing))}")
    return [_decision_row(path.name, row_no, row) for row_no, row in enumerate(reader, 2)]


def _decision_row(file: str, row_no: int, row: dict[str, str | None]) -> Decision:
    """One row of a decisions file; errors name the file, row, column and value."""

    def where(column: str) -> str:
        return f"{file}, row {row_no}, column {column!r}"

    def opt(column: str) -> str | None:
        return (row.get(column) or "").strip() or None

    action = opt("action") or ""
    if action not in ACTIONS:
        raise ReviewError(f"{where('action')}: expected one of {', '.join(ACTIONS)}, "
                          f"got {action!r}")
    try:
        made_at = dt.datetime.fromisoformat(opt("made_at") or "")
    except ValueError:
        raise ReviewError(f"{where('made_at')}: expected a timestamp like "
                          f"2026-11-21 10:00:00, got {row.get('made_at')!r}") from None
    ints: dict[str, int | None] = {}
    for column in ("player_id", "other_id", "seq"):
        text_value = opt(column) or ""
        try:
            ints[column] = int(text_value) if text_value else None
        except ValueError:
            raise ReviewError(f"{where(column)}: expected a number, got "
                              f"{text_value!r}") from None
    d = Decision(
        action, made_at, opt("after_file"), opt("item_key"),  # type: ignore[arg-type]
        ints["player_id"], opt("player_name"), opt("federation_id"), ints["other_id"],
        opt("other_name"), opt("other_federation_id"), row.get("note") or "",
        ints["seq"] or 0,
    ).with_id()
    given = opt("decision_id")
    return replace(d, decision_id=given) if given and given != d.decision_id else d


def _matches(wh: Warehouse, pid: int | None, name: str | None, fid: str | None) -> int | None:
    """The id this warehouse has for a player the decisions file names (id, name, fed. id)."""
    if pid is None:
        return None
    rows = wh.con.execute("SELECT name, federation_id FROM players WHERE player_id = ?",
                          [pid]).fetchall()
    if rows and (name is None or name_key(rows[0][0]) == name_key(name)):
        return pid
    if fid:
        found = wh.con.execute("SELECT player_id FROM players WHERE federation_id = ? "
                               "ORDER BY player_id LIMIT 1", [fid]).fetchall()
        if found:
            return int(found[0][0])
    here = f"{rows[0][0]!r}" if rows else "no such player"
    raise ReviewError(f"the decision names player {pid} {name!r}, but here player {pid} is "
                      f"{here}: the warehouse was built from other files or in another order")


def apply_decisions_file(wh: Warehouse, path: Path) -> ApplyReport:
    """Apply a decisions file: each new decision now, or after the file it follows is loaded.

    Replaying it is idempotent: a decision the warehouse holds, or an answer it has on record
    the same way (a file put back over answers given since), counts as already there. An answer
    contradicting the one on record is held: not applied, not recorded, one line in
    :attr:`ApplyReport.held`; the rest of the file applies. A malformed file applies nothing
    (:func:`read_decisions` reads every row first)."""
    applied = waiting = already = 0
    held: list[str] = []
    known = {r[0] for r in wh.con.execute("SELECT decision_id FROM identity_decisions").fetchall()}
    loaded = {r[0] for r in wh.con.execute("SELECT sha256 FROM source_files").fetchall()}
    for d in read_decisions(path):
        if d.decision_id in known:
            already += 1
            continue
        seq = int(wh.con.execute(
            "SELECT coalesce(max(seq), 0) + 1 FROM identity_decisions").fetchall()[0][0])
        d = replace(d, seq=seq)
        if d.after_file and d.after_file not in loaded:
            with wh.transaction():
                _insert(wh, d, applied=False)
            waiting += 1
        else:
            try:
                if _apply_recorded(wh, d):
                    applied += 1
                else:
                    already += 1
                    continue  # the answer on record is this one: nothing to keep twice
            except AnswerConflict as exc:
                held.append(f"warning: {path.name}: held, not applied: {exc}")
                continue
        known.add(d.decision_id)
    # a decision whose file was loaded by a run that ended before it could apply it (killed
    # between the two): applied now, before any later file
    for sha in sorted(waiting_after_files(wh) & loaded):
        done, conflicts = _apply_waiting(wh, sha)
        applied += done
        held.extend(f"warning: {path.name}: held, not applied: {c}" for c in conflicts)
    return ApplyReport(applied, waiting, already, tuple(held))


def _apply_recorded(wh: Warehouse, d: Decision, *, update: bool = False) -> bool:
    """Apply one decision of the decisions file (``update``: one recorded while it waited);
    False when it is an answer the warehouse has on record already (nothing done; a waiting
    one is marked applied). :class:`AnswerConflict` when it contradicts the answer on record."""
    with wh.transaction():
        d = replace(d, player_id=_matches(wh, d.player_id, d.player_name, d.federation_id),
                    other_id=_matches(wh, d.other_id, d.other_name, d.other_federation_id))
        same = _answered_so(wh, d)
        if not same:
            _apply(wh, d)
        if update:
            wh.con.execute("UPDATE identity_decisions SET applied_at = ? WHERE decision_id = ?",
                           [_now(), d.decision_id])
        elif not same:
            _insert(wh, d, applied=True)
    return not same


def waiting_after_files(wh: Warehouse) -> set[str]:
    """Result files (sha256) that decisions wait for."""
    return {r[0] for r in wh.con.execute(
        "SELECT DISTINCT after_file FROM identity_decisions WHERE applied_at IS NULL "
        "AND after_file IS NOT NULL").fetchall()}


def apply_waiting(wh: Warehouse, after_file: str) -> int:
    """Apply the decisions that waited for the result file ``after_file``; returns how many
    changed something. An answer the warehouse has on record the same way is marked applied;
    one contradicting it stays waiting, not applied (:func:`apply_decisions_file` names it)."""
    return _apply_waiting(wh, after_file)[0]


def _apply_waiting(wh: Warehouse, after_file: str) -> tuple[int, list[str]]:
    """:func:`apply_waiting`, and one line per answer held for contradicting the record."""
    cols = ", ".join(_COLUMNS)
    rows = wh.con.execute(
        f"SELECT {cols} FROM identity_decisions WHERE applied_at IS NULL AND after_file = ? "
        "ORDER BY seq", [after_file],
    ).fetchall()
    applied, held = 0, list[str]()
    for row in rows:
        values = dict(zip(_COLUMNS, row, strict=True))
        values["note"] = values["note"] or ""
        try:
            applied += _apply_recorded(wh, Decision(**values), update=True)
        except AnswerConflict as exc:
            held.append(str(exc))
    return applied, held
