"""Explanations of a rating run (docs/rules/bridge-belo.md §13).

:func:`explain_player` answers "why is my rating what it is": for one player and one period of a
stored run, every event with its place, ``n``, ``r``, each factor, the weight, ``r'`` and the
part of the period's change it caused (view ``rating_explanations``, migration 003).
:func:`partners` is the partners view ("Partneri"): events together and the mean effective
contribution ``r'`` with each partner (view ``rating_partners``). :func:`find_player` turns what a
user typed (an id or a name) into a player id.

Errors::

    WarehouseError                  (warehouse._errors)
    └── ExplainError                nothing to explain: unknown or ambiguous player, no run yet,
                                    a period without events for the player
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass

import pandas as pd

from games import GAMES
from ratings import SCHEMES

from ._db import Warehouse
from ._errors import WarehouseError
from ._runs import latest_run, stored_rows
from .identity import name_key

__all__ = ["ExplainError", "Explanation", "PhantomState", "WholeHistoryExplanation",
           "explain_player", "explain_whole_history", "find_player", "partners", "player_name",
           "startup_passes"]

_ROW_COLUMNS = (
    "event_id, event_date, title, section, organiser, unit_no, place, n, r, field_factor, "
    "partner_factor, weight, norm_factor, r_prime, counted, reason, share, phantom_r_prime, "
    "phantom_share"
)


class ExplainError(WarehouseError):
    """Nothing to explain: the player, the run or the period is not there; says what is."""


@dataclass(frozen=True, slots=True)
class PhantomState:
    """A newcomer's hidden phantom in one period (docs/rules/bridge-belo.md §10)."""

    rating_before: float
    rating: float
    events: int
    state: str


@dataclass(frozen=True, slots=True, eq=False)
class Explanation:
    """One player's period of one run: the ratings around it and one row per event.

    ``rows`` has the columns of view ``rating_explanations`` named in ``_ROW_COLUMNS``, in date
    order. ``rating_before + shares_sum`` is the combined rating of the period (docs/rules/bridge-belo.md §8);
    ``before_normalisation`` (the same unless the phantom retired, docs/rules/bridge-belo.md §10) times
    ``periodic_factor`` is ``rating`` (docs/rules/bridge-belo.md §9).
    """

    player_id: int
    name: str
    pool: str
    run_id: int
    scheme: str
    period_combine: str
    history: float
    period: str
    periods: tuple[str, ...]
    """Every period of the run in which the player has events."""
    rating_before: float
    rating: float
    periodic_factor: float
    """The periodic normalisation factor applied at the end of the period; 1.0 when none."""
    normalised: bool
    """Whether a periodic normalisation was applied at the end of the period."""
    rows: pd.DataFrame
    phantom: PhantomState | None

    @property
    def change(self) -> float:
        return self.rating - self.rating_before

    @property
    def shares_sum(self) -> float:
        """The period's change before the periodic normalisation."""
        return float(self.rows["share"].sum())

    @property
    def combined(self) -> float:
        """The player's own rating after combining the period's events (docs/rules/bridge-belo.md §8)."""
        return self.rating_before + self.shares_sum

    @property
    def phantom_combined(self) -> float | None:
        """The phantom's rating after combining its events of the period, when it has one."""
        if self.phantom is None or math.isnan(self.phantom.rating_before):
            return None
        return self.phantom.rating_before + float(self.rows["phantom_share"].fillna(0.0).sum())

    @property
    def retired(self) -> bool:
        """Whether the phantom retired at the end of the period (docs/rules/bridge-belo.md §10)."""
        return self.phantom is not None and self.phantom.state == "retired"

    @property
    def before_normalisation(self) -> float:
        """The rating before the periodic normalisation: ``combined``, or, when the phantom
        retired, the mean of ``combined`` and ``phantom_combined`` (docs/rules/bridge-belo.md §10)."""
        phantom = self.phantom_combined
        if self.retired and phantom is not None:
            return (self.combined + phantom) / 2.0
        return self.combined


def _canonical(wh: Warehouse, player_id: int) -> int | None:
    rows = wh.con.execute(
        "SELECT canonical_id FROM player_canonical WHERE player_id = ?", [player_id],
    ).fetchall()
    return int(rows[0][0]) if rows else None


def player_name(wh: Warehouse, player_id: int) -> str:
    """The player's display name (``player N`` for an id the warehouse does not know)."""
    rows = wh.con.execute("SELECT name FROM players WHERE player_id = ?", [player_id]).fetchall()
    return str(rows[0][0]) if rows else f"player {player_id}"


def find_player(wh: Warehouse, text: str) -> int:
    """The canonical player meant by ``text``: a player id, or a name matched by its name key
    (``parsers.names.name_key``: case, accents and word order ignored) against players' names
    and every spelling seen, else a part of a name (``Zielinski`` for Tadeusz Zieliński) when
    only one player's name holds every word of it.

    Raises :class:`ExplainError` for an unknown player (naming close names when there are some)
    and for a name several players share (listing their ids).
    """
    text = text.strip()
    if text.isdigit():
        found = _canonical(wh, int(text))
        if found is None:
            raise ExplainError(f"no player {text}")
        return found
    key = name_key(text)
    ids = sorted({int(r[0]) for r in wh.con.execute(
        "SELECT c.canonical_id FROM players p JOIN player_canonical c USING (player_id) "
        "WHERE p.name_key = ? "
        "UNION SELECT player_id FROM player_spellings WHERE name_key = ?", [key, key],
    ).fetchall()})
    if not ids and key:  # a part of the name: every word of it in the player's name
        words = set(key.split())
        ids = sorted({int(pid) for pid, k in wh.con.execute(
            "SELECT c.canonical_id, p.name_key FROM players p JOIN player_canonical c "
            "USING (player_id) UNION SELECT player_id, name_key FROM player_spellings",
        ).fetchall() if k and words <= set(str(k).split())})
    if len(ids) == 1:
        return ids[0]
    if ids:
        listed = ", ".join(f"{i} ({player_name(wh, i)})" for i in ids[:10])
        more = f" and {len(ids) - 10} more" if len(ids) > 10 else ""
        raise ExplainError(f"{text!r} names {len(ids)} players: {listed}{more}; give the "
                           "player id or more of the name")
    names = [str(r[0]) for r in wh.con.execute("SELECT DISTINCT name FROM players").fetchall()]
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.75)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ExplainError(f"no player named {text!r}{hint}")


def _run(wh: Warehouse, pool: str, run_id: int | None) -> tuple[int, str, dict[str, str]]:
    if run_id is None:
        run = latest_run(wh, pool)
        if run is None:
            raise ExplainError(f"no rating run of pool {pool!r} yet; run clubratings recompute "
                               "first")
        return run.run_id, run.scheme, dict(run.options)
    rows = wh.con.execute(
        "SELECT scheme, options FROM rating_runs WHERE run_id = ?", [run_id]).fetchall()
    if not rows:
        raise ExplainError(f"no rating run {run_id}")
    return run_id, str(rows[0][0]), json.loads(rows[0][1])


def startup_passes(wh: Warehouse, pool: str) -> tuple[int, str, dict[str, str], pd.DataFrame]:
    """The start-up passes of the pool's current run (docs/rules/bridge-belo.md §11): run id,
    scheme, options and one row per pass (``pass, max_change, mean_before_normalisation``),
    empty when the run had no cut-over."""
    run_id, scheme, options = _run(wh, pool, None)
    frame = wh.query(
        "SELECT pass, max_change, mean_before_normalisation FROM rating_startup "
        "WHERE run_id = ? ORDER BY pass", [run_id])
    return run_id, scheme, options, frame


def _periods(wh: Warehouse, run_id: int, player_id: int) -> tuple[str, ...]:
    rows = wh.con.execute(
        "SELECT DISTINCT period FROM rating_contributions WHERE run_id = ? AND player_id = ? "
        "AND NOT coalesce(phantom, false) ORDER BY period", [run_id, player_id],
    ).fetchall()
    return tuple(str(r[0]) for r in rows)


def _phantom(wh: Warehouse, run_id: int, period: str, player_id: int) -> PhantomState | None:
    rows = wh.con.execute(
        "SELECT rating_before, rating, events, state FROM rating_phantoms "
        "WHERE run_id = ? AND period = ? AND player_id = ?", [run_id, period, player_id],
    ).fetchall()
    if not rows:
        return None
    before, rating, events, state = rows[0]
    return PhantomState(
        rating_before=math.nan if before is None else float(before),
        rating=math.nan if rating is None else float(rating),
        events=int(events or 0),
        state=str(state or ""),
    )


def _player_period(
    wh: Warehouse, player_id: int, pool: str, period: str | None, run_id: int | None,
) -> tuple[int, str, int, str, dict[str, str], tuple[str, ...], str]:
    """What an explanation is of: the canonical player and their name, the run (default: the
    pool's latest) with its scheme and options, the player's periods with events and the period
    asked for (default: the latest of them); :class:`ExplainError` says what is missing."""
    canonical = _canonical(wh, player_id)
    if canonical is None:
        raise ExplainError(f"no player {player_id}")
    run, scheme, options = _run(wh, pool, run_id)
    name = player_name(wh, canonical)
    periods = _periods(wh, run, canonical)
    if not periods:
        raise ExplainError(f"player {canonical} ({name}) has no events in rating run {run}")
    if period is None:
        period = periods[-1]
    elif period not in periods:
        raise ExplainError(
            f"player {canonical} ({name}) has no events in period {period!r} of rating run "
            f"{run}; periods with events: {', '.join(periods)}"
        )
    return canonical, name, run, scheme, options, periods, period


def explain_player(
    wh: Warehouse,
    player_id: int,
    *,
    pool: str = "bridge",
    period: str | None = None,
    run_id: int | None = None,
) -> Explanation:
    """Explain ``player_id``'s rating in ``period`` of run ``run_id``.

    Defaults: the latest run of ``pool`` and the player's latest period with events. A merged
    player is explained as the player their results count for.
    """
    canonical, name, run, scheme, options, periods, period = _player_period(
        wh, player_id, pool, period, run_id)
    rows = wh.query(
        f"SELECT {_ROW_COLUMNS} FROM rating_explanations WHERE run_id = ? AND player_id = ? "
        "AND period = ? ORDER BY event_date, event_id, unit_no", [run, canonical, period],
    )
    rating = wh.con.execute(
        "SELECT rating_before, rating FROM ratings WHERE run_id = ? AND period = ? "
        "AND player_id = ?", [run, period, canonical],
    ).fetchall()
    before, after = (float(rating[0][0]), float(rating[0][1])) if rating else (math.nan, math.nan)
    factor = wh.con.execute(
        "SELECT factor FROM rating_normalisations WHERE run_id = ? AND period = ?", [run, period],
    ).fetchall()
    return Explanation(
        player_id=canonical,
        name=name,
        pool=pool,
        run_id=run,
        scheme=scheme,
        period_combine=options.get("period_combine", "exponential"),
        history=float(options.get("history", 50)),
        period=period,
        periods=periods,
        rating_before=before,
        rating=after,
        periodic_factor=float(factor[0][0]) if factor else 1.0,
        normalised=bool(factor),
        rows=rows,
        phantom=_phantom(wh, run, period, canonical),
    )


@dataclass(frozen=True, slots=True, eq=False)
class WholeHistoryExplanation:
    """One player's period of a whole-history run (docs/rules/bridge-whr.md §10).

    ``rows``: one per event of the period, ``event_id, event_date, title, section, organiser,
    unit_no, place, n, expected, weight, gradient, moved, counted, reason`` in date order:
    ``expected`` is the place the fitted strengths expected, ``gradient`` the event's pull on
    the player's strength of the period and ``moved`` the rating points the estimate would
    lose if the event were left out (positive: the event raised it).
    """

    player_id: int
    name: str
    pool: str
    run_id: int
    scheme: str
    period: str
    periods: tuple[str, ...]
    rating_before: float
    rating: float
    deviation: float
    rows: pd.DataFrame

    @property
    def change(self) -> float:
        return self.rating - self.rating_before


def explain_whole_history(
    wh: Warehouse, player_id: int, *, pool: str = "bridge", period: str | None = None,
    run_id: int | None = None,
) -> WholeHistoryExplanation:
    """Explain ``player_id``'s rating in ``period`` of a whole-history run (scheme ``whr``):
    which events of the period moved the estimate, and how much. Defaults as
    :func:`explain_player`."""
    canonical, name, run, scheme, _, periods, period = _player_period(
        wh, player_id, pool, period, run_id)
    rows = wh.query(
        "SELECT c.event_id, e.event_date, e.title, e.section, e.organiser, c.unit_no, c.place, "
        "c.n, c.expected, c.weight, c.gradient, c.moved, c.counted, c.reason "
        "FROM rating_contributions c LEFT JOIN events e ON e.event_id = c.event_id "
        "WHERE c.run_id = ? AND c.player_id = ? AND c.period = ? "
        "ORDER BY e.event_date, c.event_id, c.unit_no", [run, canonical, period],
    )
    rating = wh.con.execute(
        "SELECT rating_before, rating, deviation FROM ratings WHERE run_id = ? AND period = ? "
        "AND player_id = ?", [run, period, canonical],
    ).fetchall()
    before, after, deviation = (
        (math.nan, math.nan, math.nan) if not rating else
        tuple(math.nan if v is None else float(v) for v in rating[0]))
    return WholeHistoryExplanation(
        player_id=canonical, name=name, pool=pool, run_id=run, scheme=scheme, period=period,
        periods=periods, rating_before=before, rating=after, deviation=deviation, rows=rows,
    )


def partners(
    wh: Warehouse, player_id: int, run_id: int | None = None, *, pool: str = "bridge",
) -> pd.DataFrame:
    """The partners view of ``player_id`` in run ``run_id`` (default: the latest of ``pool``).

    Columns ``partner_id, name, events, mean_r_prime, first_period, last_period``: one row per
    partner, most events together first (docs/rules/bridge-belo.md §13, "Partneri").
    """
    canonical = _canonical(wh, player_id)
    if canonical is None:
        raise ExplainError(f"no player {player_id}")
    run, _, _ = _run(wh, pool, run_id)
    return wh.query(
        "SELECT v.partner_id, p.name, v.events, v.mean_r_prime, v.first_period, v.last_period "
        "FROM rating_partners v JOIN players p ON p.player_id = v.partner_id "
        "WHERE v.run_id = ? AND v.player_id = ? "
        "ORDER BY v.events DESC, v.mean_r_prime DESC, v.partner_id",
        [run, canonical],
    )


@dataclass(frozen=True)
class GameExplanation:
    """A go or preferans player's rating in one period: each game (go) or game segment
    (preferans) with what was expected, what happened and the change it brought."""

    player_id: int
    name: str
    pool: str
    run_id: int
    scheme: str
    game: str
    """``go`` or ``preferans``."""
    period: str
    periods: tuple[str, ...]
    rating_before: float
    rating: float
    rows: pd.DataFrame
    """go: ``opponent_id, opponent, colour, handicap, expected, weight, result, change``
    (``weight``: the opponent's influence the scheme used, RFG's ``B``, 1 elsewhere);
    preferans: ``date, game, segment, deals, table_rating, vists, change``."""
    entry: bool | None = None
    """go: the player's first period in the run (a newcomer): the scheme's entry flag, else
    whether no earlier period of the run rated them."""
    grades: tuple[str, ...] = ()
    """go: the grades the player declared in the period's games (docs/rules/go-rfg.md "First
    entry": a newcomer starts from the highest)."""
    deviation_before: float = math.nan
    """go, schemes with a deviation: the period's input deviation ``S`` (after decay)."""
    deviation: float = math.nan
    """... and the deviation after the period."""
    k: float = math.nan
    """go, RFG schemes: how far the rating may move, ``K`` (``change = K B (r - P)`` for each
    game): recovered from the games' changes."""
    listed: float = math.nan
    """go, a scheme that reads every declared grade (docs/rules/go-grades.md): the rating of
    the list before the period, before the grade's pull; NaN for a newcomer."""
    grade_pull: float = math.nan
    """... and how far the period's grade moved it before the games: ``rating_before -
    listed`` (docs/rules/go-grades.md "A grade is a reading")."""


def explain_games(wh: Warehouse, player_id: int, *, pool: str, period: str | None = None,
                  run_id: int | None = None) -> GameExplanation:
    """Explain a go or preferans player's rating in ``period`` (default: their latest period
    with games) of the pool's current run, game by game."""
    canonical = _canonical(wh, player_id)
    if canonical is None:
        raise ExplainError(f"no player {player_id}")
    run, scheme, options = _run(wh, pool, run_id)
    game = options.get("pool.game", "")
    per_game = game in GAMES and GAMES[game].per_game
    name = player_name(wh, canonical)
    table = "game_contributions" if per_game else "segment_contributions"
    # in the order stored (the views of a run's rows have no rowid: their stored rows do,
    # each period's in the run that rated it, migration 027)
    periods = tuple(str(r[0]) for r in wh.con.execute(
        f"SELECT s.period FROM {stored_rows(table)} "
        "WHERE r.run_id = ? AND s.player_id = ? GROUP BY s.period ORDER BY min(s.rowid)",
        [run, canonical]).fetchall())
    if not periods:
        raise ExplainError(f"player {canonical} ({name}) has no games in rating run {run}")
    if period is None:
        period = periods[-1]
    elif period not in periods:
        raise ExplainError(f"player {canonical} ({name}) has no games in period {period!r} of "
                           f"rating run {run}; periods with games: {', '.join(periods)}")
    if per_game:
        rows = wh.query(
            "SELECT s.opponent_id, p.name AS opponent, s.colour, s.handicap, s.expected, "
            f"s.weight, s.result, s.change FROM {stored_rows('game_contributions')} "
            "JOIN players p ON p.player_id = s.opponent_id WHERE r.run_id = ? "
            "AND s.player_id = ? AND s.period = ? ORDER BY s.rowid", [run, canonical, period])
    else:
        rows = wh.query(
            "SELECT date, game, segment, deals, table_rating, vists, change "
            "FROM segment_contributions WHERE run_id = ? AND player_id = ? AND period = ? "
            "ORDER BY date, game, segment", [run, canonical, period])
    rating = wh.con.execute(
        "SELECT rating_before, rating FROM ratings WHERE run_id = ? AND period = ? "
        "AND player_id = ?", [run, period, canonical]).fetchall()
    before, after = (float(rating[0][0]), float(rating[0][1])) if rating else (math.nan, math.nan)
    if not (game in GAMES and GAMES[game].graded):
        return GameExplanation(canonical, name, pool, run, scheme, game, period, periods,
                               before, after, rows)
    return GameExplanation(canonical, name, pool, run, scheme, game, period, periods, before,
                           after, rows, **_go_start(wh, run, period, canonical, scheme, rows))


def _go_start(wh: Warehouse, run: int, period: str, player: int, scheme: str,
              rows: pd.DataFrame) -> dict[str, object]:
    """What a go player's period started from: newcomer or not, the grades declared in the
    period's games (view ``go_entries``), the deviation before and after, and the RFG ``K``."""
    found = wh.con.execute(
        "SELECT entry, deviation_before, deviation, period_start, period_end FROM ratings "
        "WHERE run_id = ? AND period = ? AND player_id = ?", [run, period, player]).fetchall()
    if not found:
        return {}
    entry, s_before, s_after, start, end = found[0]
    if entry is None:
        # schemes that keep no entry flag: new when no earlier period of the run rated them
        (first,) = wh.con.execute("SELECT min(period_start) FROM ratings WHERE run_id = ? "
                                  "AND player_id = ?", [run, player]).fetchone() or (None,)
        entry = first == start
    # the period's games of the player: between its first and last day
    grades = [str(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT d.grade FROM go_entries d JOIN events e USING (event_id) "
        "WHERE d.player_id = ? AND d.grade IS NOT NULL AND e.event_date BETWEEN ? AND ? "
        "ORDER BY 1", [player, start, end]).fetchall()]
    k = math.nan
    if scheme in SCHEMES and SCHEMES[scheme].moves_by_k and len(rows):
        # docs/rules/go-rfg.md "One rating period": a game's change is K B (r - P)
        moved = rows["weight"].astype(float) * (rows["result"].astype(float)
                                                - rows["expected"].astype(float))
        usable = moved.abs() > 1e-9
        if usable.any():
            k = float((rows["change"].astype(float)[usable] / moved[usable]).median())
    listed = pull = math.nan
    if scheme in SCHEMES and SCHEMES[scheme].grades_as_evidence and not entry:
        # docs/rules/go-grades.md: between the list and the games only the grade moves the
        # rating (time away widens the deviation alone)
        found = wh.con.execute(
            "SELECT rating FROM ratings WHERE run_id = ? AND player_id = ? AND period_start < ? "
            "ORDER BY period_start DESC, period DESC LIMIT 1", [run, player, start]).fetchall()
        now = wh.con.execute("SELECT rating_before FROM ratings WHERE run_id = ? AND period = ? "
                             "AND player_id = ?", [run, period, player]).fetchall()
        if found and now:
            listed = float(found[0][0])
            pull = float(now[0][0]) - listed
    return {
        "listed": listed,
        "grade_pull": pull,
        "entry": None if entry is None else bool(entry),
        "grades": tuple(grades),
        "deviation_before": math.nan if s_before is None else float(s_before),
        "deviation": math.nan if s_after is None else float(s_after),
        "k": k,
    }


def pool_of(wh: Warehouse, player_id: int, pools: list[str]) -> str | None:
    """The first of ``pools`` whose current run rated ``player_id`` with some event or game."""
    canonical = _canonical(wh, player_id)
    for pool in pools:
        run = latest_run(wh, pool)
        if run is None:
            continue
        found = wh.con.execute("SELECT 1 FROM ratings WHERE run_id = ? AND player_id = ? "
                               "AND events > 0 LIMIT 1", [run.run_id, canonical]).fetchall()
        if found:
            return pool
    return None
