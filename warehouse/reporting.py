"""The warehouse's answers for the import report and the run's summaries
(flows/_import_report.py, flows/_runlog.py, flows/_steps.py, flows/core.py): named queries, so
the composition layer asks questions instead of writing SQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ._db import Warehouse
from ._errors import translated

__all__ = [
    "LoadedFile", "loaded_file_since", "loaded_hashes", "not_counted", "organisers_by_file",
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
    return wh.query("SELECT period, player_id::VARCHAR AS player, rating FROM ratings "
                    "WHERE run_id = ?", [run_id])


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
