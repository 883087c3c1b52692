"""Who is on an edition and where: the rows of each edition of a pool's rating run, with
status, standing and rank (docs/site.md, "Who is on a list"). The site (``_site.py``) draws
these rows; the warehouse keeps them (``list_entries``) for analysts.
"""

from __future__ import annotations

import bisect
import functools
import heapq
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pandas as pd

from warehouse import surname_key

from ._columns import COLUMNS
from ._lists import ListRow, _slug, list_rows

__all__ = [
    "STANDINGS", "STATUSES", "EditionRow", "SiteSettings", "edition_rows", "list_order",
    "newest_ranked", "read_optout",
]

STANDINGS = ("ranked", "provisional", "inactive")
"""The three parts of an edition (docs/site.md, "Who is on a list")."""
STATUSES = ("new", "played", "absent")
"""In the edition's period: ``new``, the player's first edition; ``played``, an event in the
period; ``absent``, rated, but no event in the period. Where the player is listed is the
standing (:data:`STANDINGS`)."""

@dataclass(frozen=True, slots=True)
class SiteSettings:
    """What the site shows: the opt-out list, when a player counts as provisional, how many
    movers each way."""

    optout: frozenset[str] = frozenset()
    """Player ids (as text) or exact player names hidden from every public output."""
    provisional_events: int = 5
    """``M``: a player with fewer events (go: games) than this in the run so far is
    provisional, listed apart and not ranked."""
    active_days: int = 365
    """A player who has not played in this many days up to the end of an edition's period is
    inactive: listed apart and not ranked."""
    max_deviation: float | None = None
    """Go: a player whose rating deviation is above this is provisional however many games
    they played (none: the number of games alone decides)."""
    movers: int = 10
    quality: Path | None = None
    """The latest evaluation of the schemes against simulated truth (``clubratings evaluate
    --json``, docs/quality.md). When the file exists, the site gets ``quality.html`` and every
    bridge edition links to it."""


@dataclass(frozen=True, slots=True)
class EditionRow:
    """One player of one edition, as the site shows it."""

    rank: int | None
    """Rank among the ranked players of the edition (ties share a rank); None for the
    provisional and inactive players, who are listed apart."""
    player_id: int
    player: str
    club: str
    rating: str
    rating_value: float
    change: str
    """Signed change since the player's previous edition, ``""`` when the player is new."""
    change_value: float | None
    events_period: int
    """Events (go: games) played in the edition's period."""
    events_total: int
    """Events played in the run's editions up to and including this one."""
    status: str
    """:data:`STATUSES`: new, played or absent in the edition's period."""
    provisional: bool
    standing: str = "ranked"
    """Where the edition lists the player (:data:`STANDINGS`): ``inactive`` (no event in the
    last ``active_days`` days), else ``provisional`` (fewer than ``M`` events so far, or go: a
    deviation above the bound), else ``ranked``."""
    events_year: int = 0
    """Events played in the ``active_days`` days up to the end of the edition's period (the
    periods that end within them: with quarters and 365 days, this quarter and the three
    before it)."""
    last_played: str = ""
    """The period of the player's last event up to this edition."""
    sort_name: str = ""
    """The name as it sorts: surname first, accents folded (:func:`surname_key`)."""
    federation_id: str = ""
    """The player's id in the federation's member register, "" when unknown."""
    extra: Mapping[str, str] = field(default_factory=dict)
    """The list's columns that are not fields here, by name (publishing/_columns.py): the
    scheme's own (go: deviation, interval, grade; preferans: deals, vists_per_deal; bridge:
    boards)."""

    @property
    def events(self) -> int:
        """The events of the edition's period (:attr:`events_period`)."""
        return self.events_period

    @property
    def history_events(self) -> int:
        """The events so far (:attr:`events_total`)."""
        return self.events_total


def read_optout(path: Path) -> frozenset[str]:
    """The opt-out file: one player id or exact player name per line; blank lines and lines
    starting with ``#`` are ignored. A missing file is an empty list."""
    if not path.exists():
        return frozenset()
    lines = (line.strip() for line in path.read_text(encoding="utf-8-sig").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


def _hidden_ids(table: pd.DataFrame, optout: frozenset[str]) -> set[int]:
    if not optout:
        return set()
    ids = table["player_id"].astype(int)
    mask = ids.astype(str).isin(optout) | table["name"].isin(optout)
    return {int(i) for i in ids[mask]}


def edition_rows(
    frame: pd.DataFrame, previous: pd.DataFrame | None, history: Mapping[int, int],
    seen_before: set[int], *, provisional_events: int = 5,
    grade: Callable[[float], str] | None = None, totals: pd.DataFrame | None = None,
    last_played: Mapping[int, str] | None = None,
    year: Mapping[int, int] | None = None, max_deviation: float | None = None,
    boards: Mapping[int, int] | None = None,
) -> list[EditionRow]:
    """One edition's rows in the order of the per-period lists (``list_rows``: rating, then
    name), each with its status (new / played / absent in the period), its standing and, for
    the ranked players only, the rank among them (docs/site.md, "Who is on a list").

    ``frame`` has the period's ``events`` played; ``history`` the events played so far,
    ``year`` those in the active window up to the end of the period and ``last_played`` the
    period of the last one, per player. A player who has played nothing so far is not listed.
    Standing: ``inactive`` without an event in the active window; otherwise ``provisional``
    with fewer than ``provisional_events`` events so far (or, given ``max_deviation``, a
    deviation above it); otherwise ``ranked``. ``boards`` (bridge): the boards each player
    played in the period, a list column (``extra``)."""
    before = {} if previous is None else dict(
        zip(previous["player_id"].astype(int), previous["rating"], strict=True))
    values = dict(zip(frame["player_id"].astype(int), frame["rating"], strict=True))
    deviations = (dict(zip(frame["player_id"].astype(int), frame["deviation"], strict=True))
                  if "deviation" in frame else {})
    played = last_played or {}
    in_year = year if year is not None else history
    rows = []
    position = rank = 0
    last_shown: str | None = None
    for r in list_rows(frame, previous, grade, totals):
        total = int(history.get(r.player_id, r.events))
        if total <= 0:
            continue  # never played (a register entry, a rating from the start-up alone)
        old = before.get(r.player_id)
        value = float(values[r.player_id])
        if r.player_id not in seen_before:
            status = "new"
        else:
            status = "played" if r.events > 0 else "absent"
        recent = int(in_year.get(r.player_id, 0))
        deviation = deviations.get(r.player_id)
        if recent <= 0:
            standing = "inactive"
        elif total < provisional_events or (
                max_deviation is not None and deviation is not None
                and not pd.isna(deviation) and float(deviation) > max_deviation):
            standing = "provisional"
        else:
            standing = "ranked"
        shown_rank = None
        if standing == "ranked":
            position += 1
            if r.rating != last_shown:
                rank, last_shown = position, r.rating
            shown_rank = rank
        rows.append(EditionRow(
            rank=shown_rank, player_id=r.player_id, player=r.player, club=r.club,
            rating=r.rating, rating_value=round(value, 4), change=r.change,
            change_value=None if old is None else round(value - float(old), 4),
            events_period=r.events, events_total=total, status=status,
            provisional=total < provisional_events,
            extra=_extra(r) if boards is None else
            {**_extra(r), "boards": str(boards.get(r.player_id, 0))},
            standing=standing, events_year=recent, last_played=played.get(r.player_id, ""),
            sort_name=_sort_name(r.player), federation_id=r.federation_id,
        ))
    return rows


def list_order(rows: Sequence[EditionRow]) -> list[EditionRow]:
    """An edition's rows in the order of its files and tables (docs/site.md, "The list of an
    edition"): the ranked players by rank, then the provisional, then the inactive; within
    each part (and within a shared rank) by surname, then player id. A total order."""
    part = {s: i for i, s in enumerate(STANDINGS)}
    return sorted(rows, key=lambda r: (part.get(r.standing, len(part)), r.rank or 0,
                                       r.sort_name, r.player_id))


_sort_name = functools.lru_cache(maxsize=1 << 16)(surname_key)
""":func:`surname_key`, once per name however many editions list it."""


def _extra(r: ListRow) -> dict[str, str]:
    if not r.extra:
        return {}
    return {c.name: r.extra[c.name] for c in COLUMNS if r.extra.get(c.name, "") != ""}


# ---------------------------------------------------------------- chart

@dataclass(frozen=True, slots=True)
class _Edition:
    period: str
    slug: str
    start: str
    end: str
    rows: list[EditionRow]


def _club_at(clubs: dict[int, tuple[list[date], list[str]]], pid: int, end: date,
             current: str) -> str:
    """The club a player's files named last up to ``end``; a register's club (``current``,
    the players table) wins, as it does for the current club."""
    if pid not in clubs:
        return current
    days, names = clubs[pid]
    i = bisect.bisect_right(days, end)
    return names[i - 1] if i else current


def _with_phantoms(table: pd.DataFrame, periods: list[str]) -> pd.DataFrame:
    """A newcomer whose phantom partner is still with them (docs/rules/bridge-belo.md §10:
    active, or dormant waiting for them) is listed at the average of their own rating and the
    phantom's: the rating they get when the phantom retires, so the list neither shows a
    newcomer at the start value of their own part (300) nor jumps when the phantom goes.
    The phantom's last state carries over the periods without a row for it."""
    order = {p: i for i, p in enumerate(periods)}
    rows = table.assign(_order=table["period"].map(order)).sort_values(
        ["player_id", "_order"], kind="mergesort")
    held = rows["phantom_state"].where(rows["phantom_state"].notna())
    state = held.groupby(rows["player_id"]).ffill()
    partner = rows["phantom_rating"].where(rows["phantom_state"].notna())
    partner = partner.groupby(rows["player_id"]).ffill()
    with_partner = state.isin(["active", "dormant"]) & partner.notna()
    rating = rows["rating"].where(~with_partner, (rows["rating"] + partner) / 2)
    return table.assign(rating=rating.reindex(table.index))


def _editions(
    table: pd.DataFrame, hidden: set[int], settings: SiteSettings,
    grade: Callable[[float], str] | None,
    clubs: dict[int, tuple[list[date], list[str]]] | None = None,
    registered: Mapping[int, str] | None = None,
    boards: Mapping[tuple[str, int], int] | None = None,
    organisers: dict[int, tuple[list[date], list[str]]] | None = None,
) -> list[_Edition]:
    """The pool's editions: one per period in which somebody played (a period without any
    event, between two that had some, gets none; the ratings carry over it). Change and
    "new" are counted against the player's previous edition.

    Events are the events played (``played`` of :func:`warehouse.run_tables`: an event a
    rule left uncounted was still played), so who is listed and ranked follows who played."""
    starts = table.groupby("period")["period_start"].min()
    periods = sorted(table["period"].unique(), key=lambda p: (starts[p], p))
    if "played" in table:
        table = table.assign(events=table["played"].astype(int))
    if "phantom_state" in table and table["phantom_state"].notna().any():
        table = _with_phantoms(table, periods)
    shown = table[~table["player_id"].astype(int).isin(hidden)]
    # each period's rows, split once (not the whole table filtered again per period)
    full_of = dict(tuple(table.groupby("period", sort=False)))
    shown_of = dict(tuple(shown.groupby("period", sort=False)))
    history: dict[int, int] = {}
    last_played: dict[int, str] = {}
    plays: dict[int, deque[tuple[date, int]]] = {}  # per player: (end of period, events)
    year: dict[int, int] = {}  # per player: the events of ``plays`` (the active window)
    # a heap: the day (as an ordinal: any active_days) each player's oldest play leaves it
    due: list[tuple[int, int]] = []
    window = settings.active_days
    seen: set[int] = set()
    previous: pd.DataFrame | None = None
    editions = []
    deals = "deals" in table and bool(table["deals"].notna().any())
    boards_in: dict[str, dict[int, int]] | None = None
    if boards:
        boards_in = {}
        for (at, pid), n in boards.items():
            boards_in.setdefault(str(at), {})[pid] = n
    for i, period in enumerate(periods):
        full = full_of[period]
        end = full["period_end"].iloc[0].date()
        frame = shown_of.get(period, shown.iloc[:0])
        for pid, events in zip(frame["player_id"].astype(int), frame["events"], strict=True):
            history[pid] = history.get(pid, 0) + int(events)
            if events > 0:
                last_played[pid] = str(period)
                mine = plays.get(pid)
                if mine is None:
                    mine = plays[pid] = deque()
                    heapq.heappush(due, (end.toordinal() + window, pid))
                mine.append((end, int(events)))
                year[pid] = year.get(pid, 0) + int(events)
        if not (full["events"] > 0).any():
            continue  # nobody played: no edition
        # the active window: periods ending less than active_days before this one's end;
        # only the players whose oldest play has left it are looked at
        today = end.toordinal()
        while due and due[0][0] <= today:
            _, pid = heapq.heappop(due)
            mine = plays[pid]
            while mine and mine[0][0].toordinal() + window <= today:
                year[pid] -= mine.popleft()[1]
            if mine:
                heapq.heappush(due, (mine[0][0].toordinal() + window, pid))
            else:
                del plays[pid], year[pid]
        totals = None
        if deals:  # preferans: deals and vists over the history so far (as _lists does)
            so_far = table[table["period"].isin(periods[: i + 1])]
            totals = so_far.groupby("player_id")[["deals", "vists"]].sum()
        if clubs or organisers:  # each player's club as of this edition: the register's,
            # else the one the files named last, else (club nights) the last organiser's
            frame = frame.assign(club=[
                (registered or {}).get(pid) or _club_at(clubs or {}, pid, end, str(club))
                or _club_at(organisers or {}, pid, end, "")
                for pid, club in zip(frame["player_id"].astype(int), frame["club"],
                                     strict=True)])
        rows = edition_rows(frame, previous, history, seen,
                            provisional_events=settings.provisional_events, grade=grade,
                            totals=totals, last_played=last_played, year=year,
                            max_deviation=settings.max_deviation,
                            # bridge: the boards played in the period
                            boards=None if boards_in is None
                            else boards_in.get(str(period), {}))
        seen.update(r.player_id for r in rows)
        editions.append(_Edition(
            str(period), _slug(str(period)), full["period_start"].iloc[0].date().isoformat(),
            end.isoformat(), rows))
        previous = frame
    return editions


def newest_ranked(editions: Sequence[_Edition]) -> _Edition | None:
    """The edition a reader is offered as the latest: the newest that ranks somebody, else
    the newest (none without editions). The newest period can rank nobody: one club's night
    after a year without results, say, whose players are new (provisional) while everybody
    else is past the active window (inactive)."""
    for ed in reversed(editions):
        if any(r.standing == "ranked" for r in ed.rows):
            return ed
    return editions[-1] if editions else None


def list_entries(run_id: int, pool: str, editions: list[_Edition]) -> pd.DataFrame:
    """The editions' rows as the warehouse keeps them (``list_entries``, migration 018)."""
    records = [
        (run_id, pool, ed.period, date.fromisoformat(ed.start), date.fromisoformat(ed.end),
         r.player_id, r.rank, r.standing, r.status, r.rating_value, r.change_value,
         r.events_period, r.events_year, r.events_total, r.last_played or None, r.club or None)
        for ed in editions for r in ed.rows
    ]
    frame = pd.DataFrame.from_records(records, columns=[
        "run_id", "pool", "edition", "period_start", "period_end", "player_id", "rank",
        "standing", "status", "rating", "change", "events_period", "events_year",
        "events_total", "last_played", "club"])
    return frame.astype({"rank": "Int32", "change": "Float64"})
