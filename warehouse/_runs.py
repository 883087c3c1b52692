"""Frames for the rating engine, and rating runs stored back with their configuration.

The results frame has the columns ``ratings`` documents: ``event_id, date, kind, scoring, boards,
unit, place, player`` (one row per player per unit per event in force). Player ids travel as
strings there and come back as integers here.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._atomic import utc_now
from ._db import Warehouse

__all__ = [
    "RunRecord", "find_run", "frame_sha256", "games_frame", "latest_run", "preferans_frame",
    "results_frame", "resumable_run", "run_period_state", "run_tables", "set_current_run",
    "store_run", "stored_rows",
]

_BY_PERIOD = ("ratings", "rating_contributions", "rating_normalisations", "rating_phantoms",
              "game_contributions", "segment_contributions")
"""A run's tables with one period per row. Each is a view over ``stored_<table>``, which
holds only the periods a run rated itself; ``run_periods`` names, for every period of a run,
the run whose stored rows hold it (migration 027): a run that takes up an earlier one
(``store_run(kept=...)``) points at that run's rows of the periods it keeps instead of copying
them, so a warehouse rated every quarter stores each period once. Its digests a run records
whole."""

_OWN_PERIODS = ("INSERT INTO run_periods SELECT DISTINCT ? AS run_id, period, ? AS stored_run "
                "FROM (" + " UNION ALL ".join(
                    f"SELECT period FROM stored_{t} WHERE run_id = ?" for t in _BY_PERIOD) + ")")
"""The periods a run stored rows of, recorded as its own in ``run_periods``."""


def stored_rows(table: str) -> str:
    """A ``FROM`` clause of every run's rows of ``table`` (one of :data:`_BY_PERIOD`), as its
    view gives them but with the stored rows' ``rowid``, the order they were stored in (the
    view has none): ``r`` is ``run_periods`` (filter on ``r.run_id``), ``s`` the stored rows."""
    return (f"run_periods r JOIN stored_{table} s "
            "ON s.run_id = r.stored_run AND s.period = r.period")


def results_frame(wh: Warehouse, game: str = "bridge") -> pd.DataFrame:
    """One row per rated player per unit per event in force, in a stable order.

    Players are their canonical player (merges applied). Events with a member still waiting for
    review are left out until it is answered (the view ``unrated_events`` lists them). Besides
    the required columns: ``parent`` and ``match`` (a league's matches and standings, docs/rules/bridge-belo.md §7),
    the unit's ``score`` and the member's ``club``, and ``unrated``: a member known only by
    initials nobody on the club's roster has (a guest, docs/identity.md "Initials") is an
    unrated player, as a foreign guest is (docs/rules/bridge-belo.md §5): the unit keeps its
    place, the guest gets no rating and is on no list.

    A unit the file wrote without names (a pair whose names the scorer left blank) is stored
    in no table but ``events.n_units``; it has no rating to weigh in the field, so the places
    of the units with names close up over it: ``place`` is each unit's rank among them, equal
    places sharing the mean of the ranks they take (1..n with n the units rated).
    """
    return wh.query(
        """
        WITH u AS (
            SELECT event_id, unit_no, score,
                   rank() OVER (PARTITION BY event_id ORDER BY place)
                   + (count(*) OVER (PARTITION BY event_id, place) - 1) / 2.0 AS place
            FROM units WHERE place IS NOT NULL)
        SELECT e.event_id::VARCHAR AS event_id, e.event_date AS date, e.kind, e.scoring,
               e.boards::DOUBLE AS boards, u.unit_no::VARCHAR AS unit, u.place,
               m.canonical_id::VARCHAR AS player,
               e.parent, (e.parent <> '' AND e.round IS NOT NULL AND e.n_units = 2) AS match,
               u.score, coalesce(m.club, '') AS club, e.organiser,
               coalesce(p.origin = 'initials', false) AS unrated
        FROM active_events e
        JOIN u USING (event_id)
        JOIN members_resolved m USING (event_id, unit_no)
        LEFT JOIN players p ON p.player_id = m.canonical_id
        WHERE e.game = ?
          AND e.event_id NOT IN (SELECT event_id FROM unrated_events)
        ORDER BY e.event_date, e.event_id, u.unit_no, m.seat
        """,
        [game],
    )


def games_frame(wh: Warehouse, period: str = "month") -> pd.DataFrame:
    """Go games in force as the games frame of the go schemes: ``period, player, opponent,
    result, handicap, colour, date, komi, rank, opponent_rank`` (one row per game, black's
    side). ``rank`` / ``opponent_rank`` are the grades black and white declared for the game
    (view ``go_entries``; ``""`` when the file gave none): the go schemes start a newcomer from
    them (docs/rules/go-rfg.md "First entry").

    ``period`` labels the rating periods: ``tournament`` (the tournament a game belongs to:
    its title in the file it came from, never two files' games of one title, so a tournament
    held every year under one name is one period a year; docs/rules/go-rfg.md "One
    rating period"), ``month``, ``quarter`` or ``year`` of the game's date.
    """
    games = wh.query(  # the grades read once (go_entries names active_events)
        "WITH grades AS MATERIALIZED (SELECT event_id, player_id, max(grade) AS grade "
        "                             FROM go_entries GROUP BY ALL) "
        "SELECT g.event_id, ev.file_id, g.date, g.tournament, g.black, g.white, "
        "g.black_result, "
        "g.handicap, g.komi, coalesce(b.grade, '') AS black_grade, "
        "coalesce(w.grade, '') AS white_grade "
        "FROM go_games g JOIN events ev ON ev.event_id = g.event_id "
        "LEFT JOIN grades b ON b.event_id = g.event_id AND b.player_id = g.black "
        "LEFT JOIN grades w ON w.event_id = g.event_id AND w.player_id = g.white "
        "ORDER BY g.date, g.event_id"
    )
    dates = pd.to_datetime(games["date"])
    if period == "tournament":
        label = _tournament_labels(games, dates)
    else:
        freq = {"month": "M", "quarter": "Q", "year": "Y"}[period]
        label = dates.dt.to_period(freq).astype(str)
    return pd.DataFrame({
        "period": label.astype(str),
        "player": games["black"].astype(str),
        "opponent": games["white"].astype(str),
        "result": games["black_result"].astype(float),
        "handicap": games["handicap"].astype("int64"),
        "colour": "b",
        "date": dates,
        "komi": games["komi"].astype(float),
        "rank": games["black_grade"].astype(str),
        "opponent_rank": games["white_grade"].astype(str),
    })


def _tournament_labels(games: pd.DataFrame, dates: pd.Series) -> pd.Series:
    """One period per tournament: a title within one file (a game without a title is a
    tournament of its own). Labelled by the day it began and its title, "2024-05-18 Bratislava
    Spring Open", so labels sort in the order the tournaments began; two tournaments of one
    title begun on one day (two files) are told apart by a number, "... (2)", in file order."""
    name = games["tournament"].where(games["tournament"] != "", games["event_id"].astype(str))
    key = games["file_id"].astype(str) + "\x1f" + name
    first = dates.groupby(key).transform("min")
    label = first.dt.strftime("%Y-%m-%d") + " " + name
    keys = pd.DataFrame({"key": key, "label": label, "file": games["file_id"]}).drop_duplicates(
        "key").sort_values(["label", "file"], kind="mergesort")
    number = keys.groupby("label").cumcount()
    suffix = np.where(number > 0, " (" + (number + 1).astype(str) + ")", "")
    unique = dict(zip(keys["key"], keys["label"] + suffix, strict=True))
    return key.map(unique)


def preferans_frame(wh: Warehouse) -> pd.DataFrame:
    """Preferans game segments in force as the preferans schemes' games frame: ``game, date,
    variant, deals, length, player, vists, segment`` (one row per seated player)."""
    frame = wh.query(
        "SELECT game, date, variant, deals, length, player::VARCHAR AS player, vists, segment "
        "FROM preferans_games ORDER BY date, event_id, player"
    )
    return frame.astype({"deals": "int64", "segment": "int64", "vists": float})


def frame_sha256(*frames: pd.DataFrame | None) -> str:
    """A content hash of frames (values and column names), independent of the index."""
    digest = hashlib.sha256()
    for frame in frames:
        if frame is None:
            digest.update(b"<none>")
            continue
        digest.update(json.dumps(list(map(str, frame.columns))).encode())
        digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class RunRecord:
    run_id: int
    pool: str
    scheme: str
    options: dict[str, str]
    first_period: str | None
    last_period: str | None


def find_run(
    wh: Warehouse, *, pool: str, scheme: str, options: Mapping[str, str], inputs_sha256: str,
    code_version: str,
) -> int | None:
    """The run that already rated exactly these inputs with this configuration, if any."""
    rows = wh.con.execute(
        "SELECT run_id FROM rating_runs WHERE pool = ? AND scheme = ? AND options = ? "
        "AND inputs_sha256 = ? AND code_version = ? ORDER BY run_id DESC LIMIT 1",
        [pool, scheme, _options_json(options), inputs_sha256, code_version],
    ).fetchall()
    return int(rows[0][0]) if rows else None


def _options_json(options: Mapping[str, str]) -> str:
    return json.dumps(dict(sorted(options.items())), sort_keys=True)


def store_run(
    wh: Warehouse,
    *,
    pool: str,
    scheme: str,
    options: Mapping[str, str],
    period_unit: str,
    inputs_sha256: str,
    code_version: str,
    ratings: pd.DataFrame,
    contributions: pd.DataFrame,
    normalisations: pd.DataFrame,
    phantoms: pd.DataFrame | None = None,
    startup: pd.DataFrame | None = None,
    now: dt.datetime | None = None,
    digests: Mapping[str, str] | None = None,
    kept: tuple[int, str] | None = None,
) -> int:
    """Record a run and its per-period ratings in one transaction; returns the run id.

    ``digests``: per period with results, what it was rated from (a scheme's
    ``period_digests``; table ``rating_period_digests``), so that a later run can take this
    one up. ``kept = (run_id, period)``: the frames hold the periods from ``period`` on only,
    and the periods before it are that stored run's: ``run_periods`` points at its rows (not
    copied; its start-up passes are); ``digests`` then covers every period."""
    now = now or utc_now()
    periods = sorted(ratings["period"].unique()) if not ratings.empty else []
    if kept is not None:
        before = [str(r[0]) for r in wh.con.execute(
            "SELECT DISTINCT period FROM ratings WHERE run_id = ? AND period < ?",
            list(kept)).fetchall()]
        periods = sorted([*before, *periods])
    with wh.transaction() as con:
        run_id = int(con.execute(
            "SELECT coalesce(max(run_id), 0) + 1 FROM rating_runs").fetchall()[0][0])
        if kept is not None:
            # the periods kept are the earlier run's rows, wherever that run found them
            con.execute("INSERT INTO run_periods SELECT ?, period, stored_run FROM run_periods "
                        "WHERE run_id = ? AND period < ?", [run_id, *kept])
            con.execute("INSERT INTO rating_startup BY NAME SELECT * REPLACE (? AS run_id) "
                        "FROM rating_startup WHERE run_id = ?", [run_id, kept[0]])
        if digests:
            wh.insert_frame("rating_period_digests", pd.DataFrame({
                "run_id": run_id, "period": list(digests), "digest": list(digests.values())}))
        wh.insert_frame("rating_runs", pd.DataFrame([{
            "run_id": run_id, "pool": pool, "scheme": scheme,
            "options": _options_json(options), "period_unit": period_unit,
            "first_period": periods[0] if periods else None,
            "last_period": periods[-1] if periods else None,
            "inputs_sha256": inputs_sha256, "code_version": code_version, "created_at": now,
        }]).astype({"first_period": "object", "last_period": "object"}))
        r = ratings.assign(run_id=run_id, player_id=ratings["player"].astype("int64"))
        extra = [c for c in ("deviation_before", "deviation", "anomaly", "entry", "deals",
                             "vists") if c in r]
        wh.insert_frame("stored_ratings", r[[
            "run_id", "period", "period_start", "period_end", "player_id", "rating_before",
            "rating", "events", *extra,
        ]])
        if "opponent" in contributions and not contributions.empty:  # a game-based scheme
            g = contributions.assign(
                run_id=run_id, player_id=contributions["player"].astype("int64"),
                opponent_id=contributions["opponent"].astype("int64"),
            )
            for column, default in (("expected", float("nan")), ("weight", 1.0),
                                    ("change", float("nan"))):
                if column not in g:
                    g[column] = default
            wh.insert_frame("stored_game_contributions", g[[
                "run_id", "period", "player_id", "opponent_id", "result", "handicap", "colour",
                "expected", "weight", "change",
            ]])
        elif "rs" in contributions and not contributions.empty:  # preferans segments
            g = contributions.assign(run_id=run_id,
                                     player_id=contributions["player"].astype("int64"),
                                     table_rating=contributions["rs"])
            wh.insert_frame("stored_segment_contributions", g[[
                "run_id", "period", "player_id", "game", "segment", "date", "deals", "vists",
                "table_rating", "rating_before", "change",
            ]])
        elif "counted" in contributions and not contributions.empty:  # placement (bridge)
            c = contributions.assign(
                run_id=run_id,
                player_id=contributions["player"].astype("int64"),
                event_id=contributions["event_id"].astype("int64"),
                unit_no=contributions["unit"].astype("int64"),
            )
            if "phantom" not in c:
                c["phantom"] = False
            # the whole-history rating's explanation (docs/rules/bridge-whr.md §10, migration 014)
            explained = [col for col in ("expected", "gradient", "moved") if col in c]
            wh.insert_frame("stored_rating_contributions", c[[
                "run_id", "period", "event_id", "player_id", "unit_no", "place", "n", "r",
                "field_factor", "partner_factor", "weight", "norm_factor", "r_prime", "counted",
                "reason", "phantom", *explained,
            ]])
        if phantoms is not None and not phantoms.empty:
            wh.insert_frame("stored_rating_phantoms", pd.DataFrame({
                "run_id": run_id, "period": phantoms["period"],
                "player_id": phantoms["player"].astype("int64"),
                "rating_before": phantoms["rating_before"], "rating": phantoms["rating"],
                "events": phantoms["events_left"].astype("int64"), "state": phantoms["state"],
            }))
        if startup is not None and not startup.empty:
            wh.insert_frame("rating_startup", startup.assign(run_id=run_id)[[
                "run_id", "pass", "max_change", "mean_before_normalisation"]])
        if not normalisations.empty:
            wh.insert_frame(
                "stored_rating_normalisations",
                normalisations.assign(run_id=run_id)[["run_id", "period", "factor"]],
            )
        con.execute(_OWN_PERIODS, [run_id, run_id, *[run_id] * len(_BY_PERIOD)])
        set_current_run(wh, pool, run_id)
    return run_id


def resumable_run(wh: Warehouse, *, pool: str, scheme: str, options: Mapping[str, str],
                  code_version: str) -> tuple[int, dict[str, str]] | None:
    """The pool's current run and its digests per period (``store_run(digests=...)``) when it
    was made with this scheme, options and code version and recorded its digests: a run a
    scheme that rates forward can take up. None otherwise."""
    rows = wh.con.execute(
        "SELECT run_id FROM rating_runs WHERE run_id IN "
        "(SELECT run_id FROM runs_in_force WHERE pool = ?) AND scheme = ? AND options = ? "
        "AND code_version = ?", [pool, scheme, _options_json(options), code_version],
    ).fetchall()
    if not rows:
        return None
    run_id = int(rows[0][0])
    digests = {str(p): str(d) for p, d in wh.con.execute(
        "SELECT period, digest FROM rating_period_digests WHERE run_id = ?",
        [run_id]).fetchall()}
    return (run_id, digests) if digests else None


def run_period_state(wh: Warehouse, run_id: int,
                     period: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A stored run's pool at the end of ``period``: its ratings (``player, rating``, player
    as text) and its phantoms (``player, rating, events_left``), as a scheme that rates
    forward takes the run up from the period after (``ratings.PeriodState``)."""
    rated = wh.query("SELECT player_id::VARCHAR AS player, rating FROM ratings "
                     "WHERE run_id = ? AND period = ? ORDER BY player_id", [run_id, period])
    phantoms = wh.query(
        "SELECT player_id::VARCHAR AS player, rating, events::BIGINT AS events_left "
        "FROM rating_phantoms WHERE run_id = ? AND period = ? AND state <> 'retired' "
        "ORDER BY player_id", [run_id, period])
    return rated, phantoms


def set_current_run(wh: Warehouse, pool: str, run_id: int | None) -> None:
    """Record ``run_id`` as the run the pool's lists come from (made or reused just now);
    None: the pool has nothing in force (its lists are taken down, run 0 is written)."""
    wh.con.execute(
        "INSERT OR REPLACE INTO current_runs VALUES (?, ?, current_timestamp::TIMESTAMP)",
        [pool, 0 if run_id is None else run_id])


def recent_run_options(wh: Warehouse, pool: str, scheme: str,
                       limit: int = 50) -> list[dict[str, str]]:
    """The options of the pool's latest ``limit`` runs with ``scheme``, newest first: where a
    scheme that learns its constants finds what it learned before (docs/rules/bridge-whr.md
    §13)."""
    rows = wh.con.execute(
        "SELECT options FROM rating_runs WHERE pool = ? AND scheme = ? "
        "ORDER BY run_id DESC LIMIT ?", [pool, scheme, int(limit)]).fetchall()
    return [json.loads(r[0]) for r in rows]


def latest_run(wh: Warehouse, pool: str) -> RunRecord | None:
    """The pool's current run: the one its last recompute made or reused (else the newest);
    None when it has none, or its last recompute found nothing in force."""
    rows = wh.con.execute(
        "SELECT run_id, pool, scheme, options, first_period, last_period FROM rating_runs "
        "WHERE run_id IN (SELECT run_id FROM runs_in_force WHERE pool = ?)", [pool],
    ).fetchall()
    if not rows:
        return None
    run_id, pool_, scheme, options, first, last = rows[0]
    return RunRecord(int(run_id), pool_, scheme, json.loads(options), first, last)


def run_tables(wh: Warehouse, run_id: int) -> pd.DataFrame:
    """A run's ratings with each player's name and club: what rating lists are made from.

    ``events`` are the events the scheme counted; ``played`` the events (go: games) played,
    counted or not (a placement event a rule left out was still played: docs/site.md);
    ``phantom_state`` and ``phantom_rating`` the newcomer's phantom partner at the end of the
    period, where the period has a row for it (docs/rules/bridge-belo.md §10)."""
    return wh.query(
        """
        WITH placed AS (
            SELECT period, player_id, count(DISTINCT event_id) AS n
            FROM rating_contributions
            WHERE run_id = ? AND NOT coalesce(phantom, false) GROUP BY ALL),
        games AS (
            SELECT period, player_id, count(*) AS n FROM game_contributions
            WHERE run_id = ? GROUP BY ALL),
        phantoms AS (
            SELECT period, player_id, state, rating FROM rating_phantoms WHERE run_id = ?)
        SELECT r.period, r.period_start, r.period_end, r.player_id, p.name,
               coalesce(p.federation_id, '') AS federation_id,
               coalesce(c.club, '') AS club, r.rating_before, r.rating, r.events,
               greatest(r.events, coalesce(pl.n, 0), coalesce(g.n, 0))::INTEGER AS played,
               r.deviation, r.deals, r.vists,
               ph.state AS phantom_state, ph.rating AS phantom_rating
        FROM ratings r
        JOIN players p USING (player_id)
        LEFT JOIN player_clubs c USING (player_id)
        LEFT JOIN placed pl USING (period, player_id)
        LEFT JOIN games g USING (period, player_id)
        LEFT JOIN phantoms ph USING (period, player_id)
        WHERE r.run_id = ?
        ORDER BY r.period, r.player_id
        """,
        [run_id, run_id, run_id, run_id],
    )
