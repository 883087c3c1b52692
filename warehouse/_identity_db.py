"""What the identity resolver needs to know, read from the warehouse."""

from __future__ import annotations

from collections import Counter

from parsers.names import initials_code

from ._db import Warehouse
from .identity import IdentityResolver, IdentitySettings, KnownPlayer, PlayerId, club_key

__all__ = ["next_player_id", "resolver_for"]


def next_player_id(wh: Warehouse) -> PlayerId:
    return int(wh.con.execute("SELECT coalesce(max(player_id), 0) + 1 FROM players").fetchall()[0][0])


def resolver_for(wh: Warehouse, settings: IdentitySettings | None = None) -> IdentityResolver:
    """A resolver that knows every player, spelling, club link, rule and open review item."""
    con = wh.con
    players = [
        KnownPlayer(int(pid), name, fid, state, origin, club,
                    initials_code(name) if origin == "initials" else None)
        for pid, name, fid, state, origin, club in con.execute(
            "SELECT player_id, name, federation_id, coalesce(state, 'confirmed'), "
            "coalesce(origin, 'results'), club FROM players ORDER BY player_id"
        ).fetchall()
    ]
    merges = {
        int(a): int(b) for a, b in con.execute(
            "SELECT player_id, into_player_id FROM player_merges WHERE split_at IS NULL"
        ).fetchall()
    }
    spellings = [(int(a), s) for a, s in con.execute(
        "SELECT player_id, spelling FROM (SELECT player_id, spelling, first_file_id AS o "
        "FROM player_aliases UNION ALL SELECT player_id, first_name || ' ' || surname, -1 "
        "FROM register_entries) ORDER BY o, player_id, spelling"
    ).fetchall()]
    links = [(int(a), c) for a, c in con.execute(
        "SELECT player_id, club FROM player_club_links ORDER BY player_id, club"
    ).fetchall()]
    rules: dict[str, dict[str, PlayerId]] = {"alias": {}, "situation": {}}
    non_matches: list[tuple[str, PlayerId]] = []
    for kind, key, pid in con.execute(
        "SELECT rule_kind, rule_key, player_id FROM identity_rules ORDER BY rule_kind, rule_key"
    ).fetchall():
        if kind == "non_match":
            non_matches.append((key, int(pid)))
        else:
            rules[kind][key] = int(pid)
    items = {k: int(p) for k, p in con.execute(
        "SELECT item_key, player_id FROM review_items").fetchall()}

    def history() -> tuple[Counter[tuple[PlayerId, PlayerId]],
                           dict[tuple[str, int, int], set[PlayerId]]]:
        partners: Counter[tuple[PlayerId, PlayerId]] = Counter()
        for a, b, n in con.execute(
            """
            SELECT a.canonical_id, b.canonical_id, count(*)
            FROM members_resolved a
            JOIN members_resolved b ON a.event_id = b.event_id AND a.unit_no = b.unit_no
                                   AND a.seat <> b.seat
            JOIN active_events e ON e.event_id = a.event_id
            WHERE a.canonical_state <> 'pending' AND b.canonical_state <> 'pending'
            GROUP BY ALL
            """
        ).fetchall():
            partners[(int(a), int(b))] = int(n)
        activity: dict[tuple[str, int, int], set[PlayerId]] = {}
        for organiser, year, week, ids in con.execute(
            """
            SELECT e.organiser, isoyear(e.event_date), week(e.event_date),
                   list(DISTINCT m.canonical_id)
            FROM members_resolved m JOIN active_events e USING (event_id)
            WHERE m.canonical_state <> 'pending'
            GROUP BY ALL
            """
        ).fetchall():
            ck = club_key(organiser)
            if ck:
                activity.setdefault((ck, int(year), int(week)), set()).update(int(i) for i in ids)
        return partners, activity

    # each player's game: the game of the file that brought them (a merge joins two players'
    # games; the resolver learns a game a player is found in during the load)
    games = [(int(a), str(g)) for a, g in con.execute(
        "SELECT DISTINCT p.player_id, e.game FROM players p "
        "JOIN events e ON e.file_id = p.created_by_file ORDER BY 1, 2").fetchall()]
    members = [int(r[0]) for r in con.execute(
        "SELECT DISTINCT player_id FROM register_entries WHERE player_id IS NOT NULL "
        "ORDER BY 1").fetchall()]
    return IdentityResolver(
        players, next_player_id(wh), settings or IdentitySettings(), merges=merges,
        spellings=spellings, club_links=links, alias_rules=rules["alias"],
        situation_rules=rules["situation"], non_matches=non_matches, open_items=items,
        history=history, games=games, members=members,
    )
