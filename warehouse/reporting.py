"""The warehouse's answers for the import report and the run's summaries
(flows/_import_report.py, flows/_runlog.py, flows/_steps.py, flows/core.py): named queries, so
the composition layer asks questions instead of writing SQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ._db import Warehouse
from ._errors import translated
from ._runs import stored_rows

__all__ = [
    "LoadedFile", "events_not_rated", "hashes_loaded_since", "loaded_file_since",
    "loaded_hashes", "not_counted", "organisers_by_file",
    "organisers_of_path", "organisers_of_sha", "people_state", "review_counts", "run_ratings",
    "run_summary", "unrated_events", "versions_loaded", "waiting_by_club",
]


@translated
def organisers_by_file(wh: Warehouse) -> dict[str, list[str]]:
    """Every loaded file's organisers, by the file's SHA-256."""
    out: dict[str, list[str]] = {}
    for sha, organiser in wh.con.execute(
            "SELECT DISTINCT f.sha256, e.organiser FROM events e JOIN source_files f "
            "USING (file_id) ORDER BY 1, 2").fetchall():
        out.setdefault(str(sha), []).append(str(organiser))
    return out


@translated
def organisers_of_sha(wh: Warehouse, sha256: str) -> list[str]:
    """The organisers of the events of the file with these bytes."""
    return [str(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT e.organiser FROM events e JOIN source_files f USING (file_id) "
        "WHERE f.sha256 = ? ORDER BY 1", [sha256]).fetchall()]


@translated
def organisers_of_path(wh: Warehouse, path: str) -> list[str]:
    """The organisers of the events of the latest file loaded from ``path``."""
    return [str(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT e.organiser FROM events e WHERE e.file_id = (SELECT max(file_id) "
        "FROM source_files WHERE path = ?) ORDER BY 1", [path]).fetchall()]


@translated
def versions_loaded(wh: Warehouse, shas: Sequence[str]) -> list[tuple[str, int, int, str]]:
    """(name, file id, the version it supersedes, why it is held or "") of each of these files
    that is a new version of a file loaded before."""
    if not shas:
        return []
    marks = ", ".join("?" for _ in shas)
    return [(str(r[0]), int(r[1]), int(r[2]), str(r[3])) for r in wh.con.execute(
        "SELECT f.name, f.file_id, v.previous, v.hold FROM source_files f "
        f"JOIN file_versions v USING (file_id) WHERE f.sha256 IN ({marks}) "
        "AND v.previous IS NOT NULL ORDER BY f.file_id", list(shas)).fetchall()]


@translated
def unrated_events(wh: Warehouse) -> pd.DataFrame:
    """The events in force not rated yet, and why (view ``unrated_events``)."""
    return wh.query(
        "SELECT organiser, event_date, title, section, waiting_names, review_keys "
        "FROM unrated_events ORDER BY organiser, event_date, title, section")


def _run_scope(options: dict[str, str]) -> tuple[str, set[str], set[str], str]:
    """(game, kinds, scoring methods, first date) a rating run read, from its stored options
    (flows/_steps.py ``rate_pool`` records the pool's choice; an empty set takes every kind or
    method; the start is the scheme's ``cutover``, docs/rules/bridge-belo.md §11, or "")."""
    def chosen(key: str) -> set[str]:
        return {v for v in options.get(key, "").split(",") if v}

    return (options.get("pool.game", ""), chosen("pool.kinds"), chosen("pool.scoring"),
            options.get("cutover", ""))


@translated
def events_not_rated(wh: Warehouse, run_ids: Sequence[int]) -> pd.DataFrame:
    """Every event in force that no list of these rating runs rates, and why, one row each:
    ``event_id, file, organiser, event_date, title, section, game, kind, reason``, by
    organiser, date, title and section.

    The reasons, the first that applies: the file is held for its dates; a name waits for
    review (view ``unrated_events``); no run rates the event's game; the runs of its game do
    not take its kind or scoring method (a pool's ``kinds`` / ``scoring``, docs/rules/
    bridge-belo.md §12); it is dated before the pool's start (``cutover``: it counts towards the
    start ratings only, §11); the scheme counted none of its results (the reasons of the run's
    contributions: fewer rated units than the scheme needs, an event abroad, ...); it holds no
    game or result the scheme reads."""
    from games import GAMES

    events = wh.query(
        "SELECT e.event_id, f.name AS file, e.organiser, e.event_date, e.title, e.section, "
        "e.game, e.kind, e.scoring, coalesce(u.review_keys, '') AS review_keys, "
        "coalesce(u.waiting_names, '') AS waiting_names "
        "FROM active_events e JOIN source_files f USING (file_id) "
        "LEFT JOIN (SELECT event_id, any_value(review_keys) AS review_keys, "
        "           any_value(waiting_names) AS waiting_names FROM unrated_events "
        "           GROUP BY 1) u USING (event_id) "
        "ORDER BY e.organiser, e.event_date, e.title, e.section, e.event_id")
    columns = ["event_id", "file", "organiser", "event_date", "title", "section", "game",
               "kind", "reason"]
    if events.empty:
        return pd.DataFrame(columns=columns)
    runs: list[tuple[str, tuple[str, set[str], set[str], str]]] = []
    if run_ids:
        marks = ", ".join("?" for _ in run_ids)
        runs = [(str(pool), _run_scope(json.loads(options))) for pool, options in
                wh.con.execute(f"SELECT pool, options FROM rating_runs WHERE run_id IN ({marks})"
                               " ORDER BY pool", list(run_ids)).fetchall()]
    frames = {GAMES[g].frame for g, _, _, _ in (scope for _, scope in runs) if g in GAMES}
    counted: dict[int, str] = {}  # event -> "" (counted) or why none of its rows counted
    if "results" in frames:
        marks = ", ".join("?" for _ in run_ids)
        for event_id, any_counted, reasons in wh.con.execute(
                "SELECT event_id, bool_or(counted), string_agg(DISTINCT nullif(reason, ''), "
                "'; ' ORDER BY nullif(reason, '')) FROM rating_contributions "
                f"WHERE run_id IN ({marks}) GROUP BY 1", list(run_ids)).fetchall():
            counted[int(event_id)] = "" if any_counted else str(reasons or "")
    with_games: set[int] = set()
    if "go-games" in frames:
        with_games |= {int(r[0]) for r in wh.con.execute(
            "SELECT DISTINCT event_id FROM go_games").fetchall()}
    if "preferans-games" in frames:
        with_games |= {int(r[0]) for r in wh.con.execute(
            "SELECT DISTINCT event_id FROM preferans_games").fetchall()}

    def why(r: Any) -> str:
        keys = str(r.review_keys)
        if keys.startswith("held: "):
            return "held for confirmation: " + keys[len("held: "):]
        if keys:
            return f"waiting for review: {r.waiting_names} ({keys})"
        mine = [(pool, scope) for pool, scope in runs if scope[0] == r.game]
        if not mine:
            return f"of a game no pool rates: {r.game}"
        taken = [(pool, start) for pool, (_, kinds, scoring, start) in mine
                 if (not kinds or r.kind in kinds) and (not scoring or r.scoring in scoring)]
        if not taken:
            return "of a kind or scoring no pool rates: " + "; ".join(f"pool {pool} rates {' and '.join(sorted(kinds)) or 'every kind'}"
                             f" ({', '.join(sorted(scoring)) or 'any scoring'}), not "
                             f"{r.kind} ({r.scoring})"
                             for pool, (_, kinds, scoring, _) in mine)
        day = str(r.event_date)[:10]
        if all(start and day < start for _, start in taken):
            starts = sorted({start for _, start in taken})
            return (f"before the pool's start ({', '.join(starts)}): it counts towards the "
                    "start ratings only, no list shows it")
        frame = GAMES[r.game].frame if r.game in GAMES else "results"
        if frame == "results":
            reason = counted.get(int(r.event_id))
            if reason == "":
                return ""
            if reason:
                return f"with no result counted: {reason}"
            return "with no result the scheme reads: no unit has a place"
        return "" if int(r.event_id) in with_games else "with no game the scheme reads"

    events["reason"] = [why(r) for r in events.itertuples(index=False)]
    return events.loc[events["reason"] != "", columns].reset_index(drop=True)


@translated
def waiting_by_club(wh: Warehouse) -> pd.DataFrame:
    """Open review items per organiser whose events hold the name."""
    return wh.query(
        "SELECT e.organiser, count(DISTINCT r.item_key) AS n FROM review_items r "
        "JOIN unit_members m ON m.review_key = r.item_key JOIN events e USING (event_id) "
        "WHERE r.status = 'open' GROUP BY 1")


@translated
def not_counted(wh: Warehouse, run_ids: Sequence[int]) -> pd.DataFrame:
    """The contributions of these rating runs that did not count, by run, club and reason."""
    marks = ", ".join("?" for _ in run_ids)
    return wh.query(
        "SELECT c.run_id, coalesce(e.organiser, '-') AS organiser, c.reason, "
        "count(*) AS n_rows, count(DISTINCT c.event_id) AS n_events "
        "FROM rating_contributions c LEFT JOIN events e USING (event_id) "
        f"WHERE NOT c.counted AND c.run_id IN ({marks}) "
        "GROUP BY ALL ORDER BY c.run_id, organiser, c.reason", list(run_ids))


@dataclass(frozen=True, slots=True)
class LoadedFile:
    """What loading a file did, as the warehouse keeps it."""

    status: str
    events: int
    replaced_events: tuple[int, ...]
    players_created: int
    waiting: tuple[tuple[str, str], ...]
    issues: tuple[dict[str, object], ...]


@translated
def hashes_loaded_since(wh: Warehouse, since: str) -> set[str]:
    """The SHA-256 of every file loaded after ``since``: one query for a run's thousands of
    duplicates, of which only these can have been loaded by a run killed before its report."""
    return {str(r[0]) for r in wh.con.execute(
        "SELECT sha256 FROM source_files WHERE loaded_at >= CAST(? AS TIMESTAMP)",
        [since]).fetchall()}


@translated
def loaded_file_since(wh: Warehouse, sha256: str, since: str) -> LoadedFile | None:
    """What loading the file with these bytes did, if it was loaded after ``since``."""
    rows = wh.con.execute(
        "SELECT file_id, status, n_events, issues FROM source_files "
        "WHERE sha256 = ? AND loaded_at >= CAST(? AS TIMESTAMP)", [sha256, since]).fetchall()
    if not rows:
        return None
    file_id, status, events, issues = rows[0]
    replaced = tuple(int(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT event_id FROM event_replacements WHERE file_id = ? ORDER BY 1",
        [file_id]).fetchall())
    created = int(wh.con.execute("SELECT count(*) FROM players WHERE created_by_file = ?",
                                 [file_id]).fetchall()[0][0])
    waiting = tuple((str(r[0]), str(r[1])) for r in wh.con.execute(
        "SELECT DISTINCT m.name_as_written, m.review_key FROM unit_members m "
        "JOIN events e USING (event_id) WHERE e.file_id = ? AND m.review_key IS NOT NULL "
        "ORDER BY 1, 2", [file_id]).fetchall())
    return LoadedFile(str(status), int(events), replaced, created, waiting,
                      tuple(json.loads(issues or "[]")))


@translated
def review_counts(wh: Warehouse) -> tuple[int, int]:
    """(open name items, events in force not rated). The second is counted only where a name
    waits (the only case the run's summary prints it); 0 otherwise: the view of the events in
    force costs more to plan than the count to make."""
    items = int(wh.con.execute(
        "SELECT count(*) FROM review_items WHERE status = 'open' AND kind <> 'spelling'"
    ).fetchall()[0][0])
    if not items:
        return 0, 0
    return items, int(wh.con.execute("SELECT count(*) FROM unrated_events").fetchall()[0][0])


@translated
def run_summary(wh: Warehouse, run_id: int) -> tuple[tuple[str, ...], int]:
    """(periods, players) of a stored rating run."""
    periods = tuple(str(p[0]) for p in wh.con.execute(
        "SELECT DISTINCT period FROM ratings WHERE run_id = ? ORDER BY 1", [run_id]).fetchall())
    players = int(wh.con.execute(
        "SELECT count(DISTINCT player_id) FROM ratings WHERE run_id = ?",
        [run_id]).fetchall()[0][0])
    return periods, players


@translated
def run_ratings(wh: Warehouse, run_id: int) -> pd.DataFrame:
    """``period, player, rating`` of a stored run (player as text): where a whole-history fit
    starts from."""
    # in the order the run stored them (the view ratings has no order of its own; a fit
    # started from the same rows in another order ends a rounding error elsewhere)
    return wh.query("SELECT s.period, s.player_id::VARCHAR AS player, s.rating "
                    f"FROM {stored_rows('ratings')} WHERE r.run_id = ? "
                    "ORDER BY s.run_id, s.rowid", [run_id])


@translated
def loaded_hashes(wh: Warehouse) -> set[str]:
    """The SHA-256 of every loaded file."""
    return {str(r[0]) for r in wh.con.execute("SELECT sha256 FROM source_files").fetchall()}


@translated
def people_state(wh: Warehouse) -> str:
    """A digest of every player's id, name and club: what the published pages show of people
    besides the ratings (a rename or a new club changes the pages, not the ratings)."""
    return str(wh.con.execute(
        "SELECT md5(coalesce(string_agg(p.player_id || '|' || p.name || '|' || "
        "coalesce(c.club, ''), '\n' ORDER BY p.player_id), '')) "
        "FROM players p LEFT JOIN player_clubs c USING (player_id)").fetchall()[0][0])
