"""The editions site: a static site under ``public/`` built from each pool's latest rating run.

An **edition** is the published state of a pool for one period of its latest run (bridge: a
quarter, go: a tournament, preferans: a month). Layout::

    public/index.html                             every pool, its editions newest first
    public/site.css, public/site.js               the one style sheet and the one script
    public/<pool>/editions.json                   the pool's editions (what index.html is made of)
    public/<pool>/<edition>/index.html            the list: filter and sort in the browser,
                                                  movers, new players, provisional players
    public/<pool>/<edition>/list.csv|list.parquet the same list as data
    public/<pool>/players/<player_id>.html        rating history chart (inline SVG), events,
                                                  partners

The per-period lists of ``publishing._lists`` stay where they are; the site adds to them.

Rules kept here:

- Every name and club goes through Jinja2 autoescape; the list's data reaches the script as
  ``<script type="application/json">`` written with ``|tojson``, and the script writes it
  with ``textContent`` only.
- Players on the opt-out list (``optout.txt``: a player id or an exact name per line) appear
  in no output of the site: not in lists, CSV, Parquet, movers, partners or opponents, and
  have no page. They keep their rating in the warehouse; the public ranks are counted among
  the players shown.
- The same warehouse content gives the same bytes (no timestamps, a total order everywhere),
  and a file whose bytes are unchanged is not rewritten.
"""

from __future__ import annotations

import csv
import bisect
import dataclasses
import functools
import hashlib
import io
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Protocol
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import jinja2
from markupsafe import Markup, escape
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from games import Game, game
from ratings import SCHEMES
from warehouse import RunRecord, Warehouse, latest_run, run_tables
from warehouse.clubs import club_key, without_accents
from warehouse.identity import fold, name_key
from warehouse.editions import (
    boards_by_period, clubs_by_date, crosstable_games, declared_strength,
    event_rows_html, explained_players, organisers_by_date, partner_rows_html,
    registered_clubs, run_games, store_list_entries,
)

from warehouse.editions import (
    crosstable_marks, crosstable_rounds, organiser_events, run_created, written_names,
)

from ._columns import Column, file_columns, json_row, script_slots, table_columns
from ._lists import _write_if_changed
from ._standing import (
    STATUSES, EditionRow, SiteSettings, _Edition, _editions, _hidden_ids,
    edition_rows, list_entries, list_order, newest_ranked, read_optout,
)

__all__ = [
    "EditionRow",
    "SiteSettings",
    "edition_rows",
    "publish_site",
    "rating_chart",
    "read_optout",
    "write_site_index",
]

MANIFEST = "editions.json"
PLAYERS_DIR = "players"
CLUBS_DIR = "clubs"
DEFAULT_TITLE = "Rating lists"
"""The site index's heading when the configuration names no federation."""
_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("publishing", "templates/site"),
    autoescape=True,
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)
_ASSETS = ("site.css", "site.js")


def _played(label: object, links: dict[str, tuple[str, str]] | None = None) -> Markup:
    """A row's "Last played" (the ``played`` filter): a go tournament as the day it began,
    linked to its edition (``links``: period label -> (day, slug)); else the period label."""
    text = "" if label is None else str(label)
    if links and text in links:
        day, slug = links[text]
        return Markup(f'<a href="../{escape(slug)}/index.html" title="{escape(text)}">'
                      f"{escape(day)}</a>")
    return Markup(escape(text))


_ENV.filters["played"] = _played


def _played_links(run: RunRecord, editions: list[_Edition]) -> dict[str, tuple[str, str]]:
    """Go, one edition per tournament: each tournament's label -> (its first day, its
    edition's slug), what "Last played" shows and links to; empty for the other pools."""
    if not _crosstables(run):
        return {}
    return {ed.period: (ed.start, ed.slug) for ed in editions}


def _played_cell(column: Column, links: dict[str, tuple[str, str]],
                 ) -> Callable[[EditionRow], Markup]:
    """The ranked table's "Last played" cell, a go tournament's day linked to its edition."""
    css = Markup(' class="{}"').format(column.css) if column.css else Markup("")

    def td(row: EditionRow) -> Markup:
        if row.last_played not in links:
            return column.td(row)
        return Markup(f"<td{css}>{_played(row.last_played, links)}</td>")
    return td



@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: float
    y: float
    label: str
    rating: str


@dataclass(frozen=True, slots=True)
class Chart:
    """A rating history drawn on the server: the template turns it into inline SVG."""

    width: int
    height: int
    points: str
    """The ``points`` attribute of the polyline."""
    dots: tuple[ChartPoint, ...]
    y_ticks: tuple[tuple[float, str], ...]
    x_first: str
    x_last: str
    left: int
    right: int
    top: int
    bottom: int


def rating_chart(
    history: Sequence[tuple[str, date, float]], *, width: int = 640, height: int = 240,
) -> Chart:
    """Geometry of a rating history: (label, date, rating) in time order; x by date (evenly
    spaced when all dates are equal), y by rating, with three y ticks. One point is drawn as a
    short flat line."""
    left, right, top, bottom = 56, width - 16, 16, height - 28
    days = [d.toordinal() for _, d, _ in history]
    values = [v for _, _, v in history]
    low, high = min(values), max(values)
    if high - low < 1.0:
        low, high = low - 10.0, high + 10.0
    span = max(days) - min(days)

    def x_of(i: int) -> float:
        if len(history) == 1:
            return (left + right) / 2
        if span == 0:
            return left + (right - left) * i / (len(history) - 1)
        return left + (right - left) * (days[i] - min(days)) / span

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    dots = tuple(ChartPoint(round(x_of(i), 1), round(y_of(v), 1), label, f"{v:.1f}")
                 for i, (label, _, v) in enumerate(history))
    coords = [(d.x, d.y) for d in dots]
    if len(coords) == 1:
        coords = [(coords[0][0] - 8, coords[0][1]), (coords[0][0] + 8, coords[0][1])]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    ticks = tuple((round(y_of(v), 1), f"{v:.0f}") for v in (high, (low + high) / 2, low))
    return Chart(width, height, points, dots, ticks, history[0][0], history[-1][0],
                 left, right, top, bottom)


# ---------------------------------------------------------------- data of the player pages





def _num(value: object, digits: int) -> str:
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return ""
    text = f"{float(value):.{digits}f}"  # type: ignore[arg-type]
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _place(value: object) -> str:
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return ""
    v = float(value)  # type: ignore[arg-type]
    return str(int(v)) if v.is_integer() else f"{v:g}"


def _group(frame: pd.DataFrame) -> dict[int, pd.DataFrame]:
    return {int(k): g for k, g in frame.groupby("player_id", sort=False)}


# ---------------------------------------------------------------- clubs

def club_slug(name: str) -> str:
    """A club's name as a file name: ASCII letters, digits and ``-`` (``BK Kraków`` →
    ``bk-krakow``); a name with none of them (another script) gets ``club-`` and a short hash
    of the name."""
    slug = re.sub(r"[^a-z0-9]+", "-", without_accents(name).lower()).strip("-")[:60].strip("-")
    if not slug:
        return "club-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:10]
    return slug


def _club_slugs(names: set[str]) -> dict[str, str]:
    """Each club name's page (its slug), two names of the same slug told apart by ``-2``,
    ``-3`` in name order; ``index`` is the clubs' index."""
    slugs: dict[str, str] = {}
    used = {"index"}
    for name in sorted(n for n in names if n):
        base = slug = club_slug(name)
        n = 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        slugs[name] = slug
    return slugs


def _club_pages(
    wh: Warehouse, pool: str, run: RunRecord, editions: list[_Edition], out: Path,
    slugs: dict[str, str], written: list[Path], quality: bool = False,
) -> set[Path]:
    """``<pool>/clubs/<slug>.html`` for every club of the latest edition (its players there,
    ranked first, and the events it organised, newest first) and ``<pool>/clubs/index.html``.
    Returns the pages written or kept."""
    pages: set[Path] = set()
    if not editions or not slugs:
        return pages
    latest = editions[-1]
    members: dict[str, list[EditionRow]] = {}
    for r in latest.rows:
        if r.club in slugs:
            members.setdefault(r.club, []).append(r)
    per_game = _game(run).counts == "games"  # an event is one game: a line per day
    events: dict[str, list[dict[str, object]]] = {}
    frame = organiser_events(wh, _game(run).name, per_game=per_game)
    keys = {club_key(name) for name in slugs}
    organisers = {str(o): club_key(str(o)) for o in frame["organiser"].unique()}
    for organiser, day, title, section, units, games in frame.itertuples(index=False):
        key = organisers[str(organiser)]
        if key in keys:
            events.setdefault(key, []).append({
                "date": pd.Timestamp(day).strftime("%Y-%m-%d"),
                "title": str(title) + (f" ({section})" if section else ""),
                "units": "" if pd.isna(units) else int(units), "games": int(games)})
    template = _ENV.get_template("club.html")
    clubs = []
    for name, slug in sorted(slugs.items(),
                             key=lambda kv: (without_accents(kv[0]).casefold(), kv[0])):
        players = list_order(members.get(name, []))
        organised = events.get(club_key(name), [])
        html = template.render(
            pool=pool, club=name, edition=latest, players=players, events=organised,
            per_game=per_game, unit=_game(run).counts, quality=quality, root="../../",
            played=_played_links(run, editions))
        path = out / CLUBS_DIR / f"{slug}.html"
        _write(path, html.encode("utf-8"), written)
        pages.add(path)
        clubs.append({"name": name, "slug": slug, "players": len(players),
                      "ranked": sum(1 for r in players if r.standing == "ranked"),
                      "events": len(organised)})
    html = _ENV.get_template("clubs.html").render(
        pool=pool, edition=latest, clubs=clubs, quality=quality, root="../../")
    path = out / CLUBS_DIR / "index.html"
    _write(path, html.encode("utf-8"), written)
    pages.add(path)
    return pages


def _club_cell(column: Column, slugs: dict[str, str]) -> Callable[[EditionRow], Markup]:
    """The ranked table's club cell, a link to the club's page when it has one."""
    css = Markup(' class="{}"').format(column.css) if column.css else Markup("")

    def td(row: EditionRow) -> Markup:
        slug = slugs.get(row.club)
        if slug is None:
            return column.td(row)
        return Markup(f'<td{css}><a href="../{CLUBS_DIR}/{slug}.html">'
                      f"{escape(row.club)}</a></td>")
    return td


# ---------------------------------------------------------------- writing


def _csv_bytes(rows: Sequence[EditionRow], columns: Sequence[Column]) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([c.name for c in columns])
    for r in rows:
        writer.writerow([c.csv(r) for c in columns])
    return buf.getvalue().encode("utf-8")


def _parquet_bytes(rows: Sequence[EditionRow], columns: Sequence[Column]) -> bytes:
    """Numbers as numbers (a scheme's interval and grade as text), empty values as nulls."""
    table = pa.table({c.name: c.arrow(rows) for c in columns})
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


def _json_rows(rows: Sequence[EditionRow],
               played: dict[str, tuple[str, str]] | None = None) -> list[dict[str, object]]:
    """The ranked players, as the list's script filters and sorts them; a go tournament's
    "Last played" as its day with its edition's slug (``lastPlayedSlug``)."""
    out = []
    for r in rows:
        if r.standing != "ranked":
            continue
        row = json_row(r)
        if played and r.last_played in played:
            row["lastPlayed"], row["lastPlayedSlug"] = played[r.last_played]
        out.append(row)
    return out


def _movers(rows: Sequence[EditionRow], count: int) -> tuple[list[EditionRow], list[EditionRow]]:
    changed = [r for r in rows if r.change_value is not None]
    gains = sorted((r for r in changed if r.change_value and r.change_value > 0),
                   key=lambda r: (-(r.change_value or 0.0), r.player, r.player_id))
    losses = sorted((r for r in changed if r.change_value and r.change_value < 0),
                    key=lambda r: (r.change_value or 0.0, r.player, r.player_id))
    return gains[:count], losses[:count]


def _write(path: Path, data: bytes, written: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_if_changed(path, data)
    written.append(path)


def _edition_pages(
    pool: str, run: RunRecord, editions: list[_Edition], out: Path, settings: SiteSettings,
    written: list[Path], slugs: dict[str, str] | None = None,
) -> None:
    options = sorted(run.options.items())
    slugs = slugs or {}
    played = _played_links(run, editions)
    offered = newest_ranked(editions)
    stamps = out / EDITION_DIGESTS
    try:
        stored = json.loads(stamps.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = {}
    digests: dict[str, str] = {}
    for i, ed in enumerate(editions):
        folder = out / ed.slug
        files = [folder / name for name in ("index.html", "list.csv", "list.parquet")]
        digests[ed.slug] = _edition_digest(
            pool, run, ed, editions[i - 1] if i > 0 else None,
            editions[i + 1] if i + 1 < len(editions) else None,
            # the newest edition that ranks players is named only where nobody is ranked
            None if offered is ed or any(r.standing == "ranked" for r in ed.rows)
            else offered, played, slugs, settings)
        if stored.get(ed.slug) == digests[ed.slug] and all(f.is_file() for f in files):
            written.extend(files)  # made of the same inputs: the same bytes as on disk
            continue
        present = {k for r in ed.rows for k in r.extra}
        table = table_columns(present)
        draw = [_club_cell(c, slugs) if c.name == "club" and slugs
                else _played_cell(c, played) if c.name == "last_played" and played
                else c.td for c in table]
        before, after = script_slots(table)
        rows = list_order(ed.rows)  # the CSV's order; the table is its ranked part
        ranked = [r for r in rows if r.standing == "ranked"]
        linked = {r.club: slugs[r.club] for r in ed.rows if r.club in slugs}
        gains, losses = _movers(ranked, settings.movers)
        by_name = sorted(ed.rows, key=lambda r: (r.sort_name, r.player_id))
        html = _ENV.get_template("edition.html").render(
            pool=pool, edition=ed, rows=ranked,
            data={"rows": _json_rows(rows, played), "before": before, "after": after,
                  "clubs": {c: linked[c] for c in sorted({r.club for r in ranked}
                                                        & linked.keys())}},
            table=table,
            # each ranked row's cells, drawn here in one pass (a call per cell from the
            # template costs as much again as the rest of the page)
            cells=[Markup("".join(td(r) for td in draw)) for r in ranked],
            club_pages=linked, played=played,
            pool_game=str(run.options.get("pool.game", "bridge")),
            crosstable=_crosstables(run),
            scheme=run.scheme, options=options, gains=gains, losses=losses,
            new=[r for r in rows if r.status == "new"],
            provisional=[r for r in by_name if r.standing == "provisional"],
            # a go pool with one edition per tournament lists the players of this tournament
            # and those active around it; the long inactive ones only as a number
            inactive=[] if _crosstables(run) else
            [r for r in by_name if r.standing == "inactive"],
            inactive_hidden=sum(1 for r in by_name if r.standing == "inactive")
            if _crosstables(run) else 0,
            provisional_events=settings.provisional_events,
            active_days=settings.active_days, max_deviation=settings.max_deviation,
            clubs=sorted({r.club for r in ranked if r.club}),
            active=sum(1 for r in ed.rows if r.events > 0),
            previous=editions[i - 1] if i > 0 else None,
            next=editions[i + 1] if i + 1 < len(editions) else None,
            statuses=STATUSES, root="../../",
            # an edition that ranks nobody says why and offers the newest one that does
            ranked_edition=offered if offered is not None and offered is not ed else None,
            quality=_has_quality(settings) and _game(run).placements,
        )
        _write(folder / "index.html", html.encode("utf-8"), written)
        _write(folder / "list.csv", _csv_bytes(rows, file_columns(present)), written)
        _write(folder / "list.parquet", _parquet_bytes(rows, file_columns(present)), written)
    _write_if_changed(stamps, (json.dumps(digests, indent=0, sort_keys=True) + "\n").encode())


EDITION_DIGESTS = ".editions"
"""Per pool: a digest of what each edition's three files were made from (JSON, slug ->
digest). An edition whose digest is unchanged is not drawn again: its files on disk are
what drawing it would write (a backfill adds a quarter and leaves the earlier editions
as they were)."""


@functools.lru_cache(maxsize=1)
def _publishing_code() -> str:
    """A digest of the publishing code, templates and styles: part of every edition's."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _edition_digest(pool: str, run: RunRecord, ed: _Edition, previous: _Edition | None,
                    following: _Edition | None, offered: _Edition | None,
                    played: dict[str, tuple[str, str]], slugs: dict[str, str],
                    settings: SiteSettings) -> str:
    """Everything an edition's page, CSV and Parquet file are drawn from (:func:`_edition_pages`):
    its rows, the editions it links to, the clubs with pages, the run's scheme and options,
    the settings and the publishing code."""
    def near(other: _Edition | None) -> object:
        return None if other is None else (other.period, other.slug, other.start, other.end,
                                           bool(other.rows))

    digest = hashlib.sha256(_publishing_code().encode())
    for part in (pool, run.scheme, sorted(run.options.items()), ed, near(previous),
                 near(following), near(offered),
                 sorted((k, v) for k, v in played.items()),
                 sorted((c, slugs[c]) for c in {r.club for r in ed.rows} if c in slugs),
                 (settings.movers, settings.provisional_events, settings.active_days,
                  settings.max_deviation, _has_quality(settings))):
        digest.update(repr(part).encode("utf-8") + b"\0")
    return digest.hexdigest()


PAGE_ROWS = 200_000
"""About how many explanation rows of a run the player pages read at a time."""
_HISTORY_ROW = ('<tr><td><a href="../{}/index.html">{}</a></td><td class="num">{}</td>'
                '<td class="num">{}</td><td class="num">{}</td><td class="num">{}</td>'
                '<td>{}{}</td></tr>\n')
"""One row of a player page's editions table (player.html), newest first: written here, as
the page's other long tables are, rather than cell by cell in the template (a national
history has a row per player and edition)."""


def _player_pages(
    wh: Warehouse, pool: str, run: RunRecord, editions: list[_Edition], out: Path,
    hidden: set[int], written: list[Path], slugs: dict[str, str] | None = None,
) -> set[Path]:
    slugs = slugs or {}
    per_player: dict[int, list[tuple[_Edition, EditionRow]]] = {}
    for ed in editions:
        for r in ed.rows:
            per_player.setdefault(r.player_id, []).append((ed, r))
    games = _group(run_games(wh, run.run_id)) if _game(run).per_game else {}
    declared = declared_strength(wh) if _game(run).graded else {}
    pages: set[Path] = set()
    template = _ENV.get_template("player.html")
    played = _played_links(run, editions)
    shown = {r.player_id: r.player for ed in editions for r in ed.rows}
    newest = {ed.period: -i for i, ed in enumerate(editions)}  # games: newest period first
    # the events and partners tables a range of players at a time (their rows follow the
    # whole history: millions in a national archive)
    ids = sorted(per_player)
    for span in explained_players(wh, run.run_id, rows=PAGE_ROWS):
        some = ids[bisect.bisect_left(ids, span[0]):bisect.bisect_right(ids, span[1])]
        if not some:
            continue
        events = event_rows_html(wh, run.run_id, run.scheme, span)
        partners = partner_rows_html(wh, run.run_id, hidden, ids, span)
        for pid in some:
            history = per_player[pid]
            latest = history[-1][1]
            chart = rating_chart([(ed.period, date.fromisoformat(ed.start), r.rating_value)
                                  for ed, r in history])
            html = template.render(
                pool=pool, player=latest, history=Markup("".join(
                    _HISTORY_ROW.format(escape(ed.slug), escape(ed.period),
                                        "" if r.rank is None else r.rank, escape(r.rating),
                                        escape(r.change), r.events_period, escape(r.standing),
                                        ", new" if r.status == "new" else "")
                    for ed, r in reversed(history))), chart=chart,
                latest_edition=history[-1][0],
                events=Markup(events.get(pid, "")),
                games=_game_rows(games.get(pid), hidden, newest, shown),
                whole_history=_whole_history(run), club_slug=slugs.get(latest.club),
                partners=Markup(partners.get(pid, "")),
                root="../../", played=played, declared=declared.get(pid),
            )
            path = out / PLAYERS_DIR / f"{pid}.html"
            _write(path, html.encode("utf-8"), written)
            pages.add(path)
    return pages


def _game_rows(frame: pd.DataFrame | None, hidden: set[int],
               newest: dict[str, int] | None = None,
               names: dict[int, str] | None = None) -> list[dict[str, object]]:
    """A go player's games, newest first: by ``newest`` (period: a smaller number is newer;
    a period without an edition last), within a period in the frame's order; an opponent
    named as the pool's lists name them (``names``, docs/site.md "Name order")."""
    names = names or {}
    if frame is None:
        return []
    results = {1.0: "win", 0.0: "loss", 0.5: "jigo"}
    if newest is not None:
        order = [newest.get(str(p), 1) for p in frame["period"]]
        frame = frame.iloc[sorted(range(len(frame)), key=order.__getitem__)]
    return [{
        "period": str(g.period),
        "opponent": None if int(g.opponent_id) in hidden
        else names.get(int(g.opponent_id), str(g.opponent)),
        "opponent_id": int(g.opponent_id),
        "result": results.get(float(g.result), _num(g.result, 1)),
        "colour": "black" if g.colour == "b" else "white",
        "handicap": int(g.handicap), "expected": _num(g.expected, 2),
    } for g in frame.itertuples(index=False)]


def _game(run: RunRecord) -> Game:
    """The game of a run's pool (a run stored before pools named their game: bridge)."""
    return game(str(run.options.get("pool.game") or "bridge"))


def _whole_history(run: RunRecord) -> bool:
    """The run's scheme fits the whole history at once (``ratings.Scheme.whole_history``)."""
    return run.scheme in SCHEMES and SCHEMES[run.scheme].whole_history


def _crosstables(run: RunRecord) -> bool:
    """A pool of a game of tournament rounds (go) with one period per tournament has a
    crosstable per edition."""
    return (_game(run).crosstable
            and run.options.get("pool.periods", "tournament") in ("tournament", ""))


_RESULTS = {1.0: "+", 0.0: "\u2212", 0.5: "="}
_MARKS = {"win by default": ("+!", "won by default (forfeit)"),
          "loss by default": ("\u2212!", "lost by default (forfeit)"),
          "not played": ("?", "paired, not played")}
"""How a crosstable writes a round that is no game (``go_round_marks``): after the opponent's
number, and what its title says."""


def _round_cell(g: dict[str, object], number: dict[int, int], hidden: set[int],
                contribution: dict[str, object] | None) -> dict[str, object]:
    """One played game of a crosstable row: ``12+/b2`` (beat #12 with black, 2 stones)."""
    opponent = int(g["opponent_id"])  # type: ignore[call-overload]
    stones = int(g["handicap"])  # type: ignore[call-overload]
    colour = str(g["colour"]) if g["colours"] else ""
    mark = colour + (str(stones) if stones and colour else "")
    result = _RESULTS.get(float(g["result"]), _num(g["result"], 1))  # type: ignore[arg-type]
    shown = None if opponent in hidden else number.get(opponent)
    side = {"b": "black", "w": "white"}.get(colour, "colour not recorded")
    words = {"+": "won", "\u2212": "lost", "=": "jigo"}.get(result, result)
    expected = change = ""
    if contribution is not None:
        expected = _num(contribution["expected"], 2)
        value = contribution["change"]
        change = "" if value is None or pd.isna(value) else f"{float(value):+.1f}"  # type: ignore[arg-type]
    title = (f"round {g['round']}: {words} against "
             + (f"#{shown}" if shown else "a player not listed") + f", {side}"
             + (f", {stones} stone{'s' if stones != 1 else ''} handicap" if stones else "")
             + (f"; expected {expected}" if expected else "")
             + (f", change {change}" if change else ""))
    return {"kind": "game", "opponent": shown, "result": result,
            "mark": f"/{mark}" if mark else "", "expected": expected, "change": change,
            "title": title}


def _crosstable_pages(
    wh: Warehouse, pool: str, run: RunRecord, table: pd.DataFrame, editions: list[_Edition],
    out: Path, hidden: set[int], written: list[Path],
) -> None:
    """Go, one period per tournament: ``<edition>/crosstable.html``, every player of the
    tournament with the rating before and after and one column per round: the opponent's
    place in the crosstable, the result, the colour and handicap (``12+/b2``), a bye, a
    result by default or an absence (docs/site.md "The go crosstable")."""
    contributions = crosstable_games(wh, run.run_id)
    rounds_all = crosstable_rounds(wh)
    marks_all = crosstable_marks(wh)
    names = dict(zip(table["player_id"].astype(int), table["name"].astype(str), strict=False))
    for ed in editions:
        rated = contributions[contributions["period"] == ed.period]
        mine = rounds_all[rounds_all["period"] == ed.period]
        ratings = table[table["period"] == ed.period].set_index("player_id")
        # every game from each side, with the round it was played in
        sides = []
        for g in mine.to_dict("records"):
            black, white, res = int(g["black"]), int(g["white"]), float(g["black_result"])
            base = {"round": int(g["round"]) if pd.notna(g["round"]) else 0,
                    "handicap": g["handicap"], "colours": bool(g["colours"])}
            sides.append({**base, "player_id": black, "opponent_id": white, "colour": "b",
                          "result": res})
            sides.append({**base, "player_id": white, "opponent_id": black, "colour": "w",
                          "result": 1.0 - res})
        per: dict[int, list[dict[str, object]]] = {}
        for g in sides:
            pid = int(g["player_id"])  # type: ignore[call-overload]
            if pid not in hidden and pid in ratings.index:
                per.setdefault(pid, []).append(g)
        if not per:
            continue
        # the scheme's expected result and the game's part of the change, by pairing
        parts: dict[tuple[int, int, float], list[dict[str, object]]] = {}
        for c in rated.to_dict("records"):
            parts.setdefault((int(c["player_id"]), int(c["opponent_id"]),
                              float(c["result"])), []).append(c)
        marks: dict[int, dict[int, dict[str, object]]] = {}
        for m in marks_all[marks_all["period"] == ed.period].to_dict("records"):
            marks.setdefault(int(m["player_id"]), {})[int(m["round"])] = m
        points = {pid: sum(float(g["result"]) for g in gs)  # type: ignore[arg-type]
                  for pid, gs in per.items()}
        order = sorted(per, key=lambda pid: (-points[pid], -float(ratings.loc[pid, "rating"]),
                                            names.get(pid, ""), pid))
        number = {pid: i for i, pid in enumerate(order, 1)}
        last = max([int(g["round"]) for g in sides]  # type: ignore[call-overload]
                   + [int(r) for m in marks.values() for r in m] + [1])
        players = []
        for pid in order:
            before, after = (float(ratings.loc[pid, "rating_before"]),
                             float(ratings.loc[pid, "rating"]))
            by_round: dict[int, list[dict[str, object]]] = {}
            for g in per[pid]:
                by_round.setdefault(int(g["round"]), []).append(g)  # type: ignore[call-overload]
            cells = []
            for r in range(1, last + 1):
                played = by_round.get(r, [])
                mark = marks.get(pid, {}).get(r)
                if played:
                    for g in played:
                        left = parts.get((pid, int(g["opponent_id"]),  # type: ignore[call-overload]
                                          float(g["result"])), [])  # type: ignore[arg-type]
                        cells.append(_round_cell(g, number, hidden, left.pop(0) if left else None))
                elif mark is not None and mark["mark"] == "bye":
                    cells.append({"kind": "bye", "title": f"round {r}: bye"})
                elif mark is not None and str(mark["mark"]) in _MARKS:
                    sign, words = _MARKS[str(mark["mark"])]
                    other = mark["opponent_id"]
                    shown = (None if other is None or pd.isna(other) or int(other) in hidden
                             else number.get(int(other)))
                    cells.append({"kind": "default", "opponent": shown, "result": sign,
                                  "title": f"round {r}: {words}"
                                  + (f" against #{shown}" if shown else "")})
                else:
                    cells.append({"kind": "absent", "title": f"round {r}: did not play"})
            change = f"{after - before:+.1f}"
            players.append({
                "number": number[pid], "player_id": pid, "name": names.get(pid, str(pid)),
                "before": _num(before, 1), "after": _num(after, 1),
                "change": "0.0" if change in ("+0.0", "-0.0") else change,
                "score": _place(points[pid]),
                "wins": sum(1 for g in per[pid] if float(g["result"]) == 1.0),  # type: ignore[arg-type]
                "rounds": cells,
            })
        html = _ENV.get_template("crosstable.html").render(
            pool=pool, edition=ed, players=players, games=len(mine), rounds=last,
            root="../../")  # type: ignore[arg-type]
        _write(out / ed.slug / "crosstable.html", html.encode("utf-8"), written)


def _remove_stale(out: Path, editions: list[_Edition], pages: set[Path]) -> None:
    """Delete what an earlier publication wrote and this one did not: player pages (a player
    merged away, or opted out), club pages (a club no longer on the latest edition) and
    editions no longer in the latest run."""
    for folder in (PLAYERS_DIR, CLUBS_DIR):
        for page in sorted((out / folder).glob("*.html")):
            if page not in pages:
                page.unlink()
    if (out / CLUBS_DIR).is_dir() and not any((out / CLUBS_DIR).iterdir()):
        (out / CLUBS_DIR).rmdir()
    for old in sorted([*out.glob("*.csv"), *out.glob("*.html")]):  # the per-period lists and
        if old.name != "how.html":  # the pool index of earlier versions: one page set now
            old.unlink()
    manifest = out / MANIFEST
    if not manifest.exists():
        return
    old = {e["slug"] for e in json.loads(manifest.read_text(encoding="utf-8"))["editions"]}
    for slug in sorted(old - {e.slug for e in editions}):
        folder = out / slug
        for name in ("index.html", "list.csv", "list.parquet"):
            (folder / name).unlink(missing_ok=True)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


_PERIOD_WORDS = {"quarter": "quarter", "month": "month", "year": "year"}


def _how_page(pool: str, run: RunRecord, editions: list[_Edition],
              settings: SiteSettings) -> bytes:
    """``<pool>/how.html``: how the list is computed and who is on it, in a reader's words."""
    game = str(run.options.get("pool.game", "bridge"))
    period = _PERIOD_WORDS.get(str(run.options.get("period", "")), _game(run).period_word)
    return _ENV.get_template("how.html").render(
        pool=pool, game=game, scheme=run.scheme, period=period,
        scale=run.options.get("scale", "75"),  # whr: P = 1 / (1 + e^-1) at one scale ahead
        latest=newest_ranked(editions), min_events=settings.provisional_events,
        unit=_game(run).counts,
        active_days=settings.active_days, max_deviation=settings.max_deviation, root="../",
        constants=_constants(run),
    ).encode("utf-8")


_LEARNED = "learned."
"""Run options recording how the constants were learned (docs/rules/bridge-whr.md §13)."""


def _constants(run: RunRecord) -> dict[str, object] | None:
    """What how.html says of a whole-history pool's constants: their values, and whether and
    from what they were learned (docs/rules/bridge-whr.md §13); ``None`` for other schemes."""
    if not _whole_history(run):
        return None
    options = run.options
    names = [n for n in str(options.get(_LEARNED + "names", "")).split(",") if n]
    origins = [o for o in str(options.get(_LEARNED + "origins", "")).split(",") if o]
    fixed = [n for n in str(options.get(_LEARNED + "fixed", "")).split(",") if n]
    return {
        "drift": options.get("drift", ""), "prior": options.get("prior", ""),
        "newcomer": options.get("newcomer", ""),
        "first_year_drift": options.get("first_year_drift", "0"),
        "learn": options.get("learn", "off") == "on", "learned": names, "fixed": fixed,
        "through": options.get(_LEARNED + "through", ""),
        "origins": f"{origins[0]} to {origins[-1]}" if origins else "",
        "pairs": options.get(_LEARNED + "pairs", ""),
        "loss": options.get(_LEARNED + "loss", ""),
        "start_loss": options.get(_LEARNED + "start_loss", ""),
        "reason": options.get(_LEARNED + "reason", ""),
    }


def _manifest(pool: str, run: RunRecord, editions: list[_Edition], *, updated: str = "",
              clubs: bool = False, federation: str | None = None) -> bytes:
    """``editions.json``: the pool's editions (each with its players and how many of them are
    ranked), the one offered as the latest (``latest``: the newest that ranks somebody,
    :func:`newest_ranked`), the day its run was made (``updated``), whether it has club pages,
    and the federation's name when the publisher was given one."""
    offered = newest_ranked(editions)
    data = {
        "pool": pool, "game": run.options.get("pool.game", ""), "scheme": run.scheme,
        "updated": updated, "clubs": clubs, **({"federation": federation} if federation else {}),
        "latest": offered.slug if offered is not None else "",
        "editions": [{"period": e.period, "slug": e.slug, "start": e.start, "end": e.end,
                      "players": len(e.rows),
                      "ranked": sum(1 for r in e.rows if r.standing == "ranked")}
                     for e in editions],
    }
    return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def _has_quality(settings: SiteSettings) -> bool:
    return settings.quality is not None and settings.quality.is_file()


def _quality_page(source: Path) -> bytes:
    """``quality.html``: the evaluation tables of ``source`` (``clubratings evaluate --json``)."""
    data = json.loads(source.read_text(encoding="utf-8"))
    reports = []
    for report in data.get("reports", []):
        rows = [{
            "scheme": row["scheme"],
            "spearman": _num(row.get("spearman"), 3), "kendall": _num(row.get("kendall"), 3),
            "kn": _num(row.get("kn"), 0), "ln": _num(row.get("ln"), 0),
            "kn_pct": _num(row.get("kn_pct"), 1),
            "pair_accuracy": _num(row.get("pair_accuracy"), 3),
            "log_loss": _num(row.get("log_loss"), 3) or "\u2014",
            "separation": "never" if row.get("separation") is None else str(row["separation"]),
        } for row in report.get("rows", [])]
        reports.append({**{k: v for k, v in report.items() if k != "rows"}, "rows": rows})
    means = _quality_means(data.get("reports", []))
    real = _real_quality(source, data)
    go = _go_quality(source, data)
    html = _ENV.get_template("quality.html").render(
        command=data.get("command", ""), reports=reports, real=real, go=go, means=means,
        calibration=_simulated_calibration(data.get("reports", [])),
        verdict=_quality_verdict(data.get("reports", []), means, real),
        seeds=sorted({r.get("seed") for r in data.get("reports", [])}, key=str),
        presets=list(dict.fromkeys(r.get("preset", "") for r in data.get("reports", []))),
        root="")
    return html.encode("utf-8")


_MEASURES = (("spearman", 3), ("kendall", 3), ("kn_pct", 1), ("pair_accuracy", 3),
             ("log_loss", 3))
"""The measures the quality page averages (KN and LN themselves grow with the number of
players, so only KN as a share of the worst is averaged over presets)."""


def _mean(values: list[object]) -> float | None:
    """The mean of the values, ``None`` unless every one is a number."""
    known = [float(v) for v in values if isinstance(v, int | float)]  # type: ignore[arg-type]
    return None if not known or len(known) < len(values) else sum(known) / len(known)


def _quality_means(reports: list[dict[str, object]]) -> list[dict[str, object]]:
    """Each scheme's mean of every measure over all reports (presets and seeds), best mean
    Spearman first: ``scheme``, the measure's mean (``None``: some report has none) and its
    text."""
    values: dict[str, dict[str, list[object]]] = {}
    for report in reports:
        for row in report.get("rows", []):  # type: ignore[attr-defined]
            mine = values.setdefault(str(row["scheme"]), {m: [] for m, _ in _MEASURES})
            for measure, _ in _MEASURES:
                mine[measure].append(row.get(measure))
    means = []
    for scheme, measures in values.items():
        row: dict[str, object] = {"scheme": scheme, "runs": len(measures["spearman"])}
        for measure, digits in _MEASURES:
            value = _mean(measures[measure])
            row[measure] = value
            row[f"{measure}_text"] = _num(value, digits) or "\u2014"
        means.append(row)
    return sorted(means, key=lambda r: (-float(r["spearman"] or -2.0),  # type: ignore[arg-type]
                                        str(r["scheme"])))


def _quality_verdict(reports: list[dict[str, object]], means: list[dict[str, object]],
                     real: dict[str, object] | None) -> list[str]:
    """The quality page's verdict in a sentence or two, from the numbers: the scheme whose
    list follows the true order best (mean Spearman over every preset and seed), by how much
    over the next other scheme (its own variants aside), in how many presets it is ahead of
    every other scheme, and which scheme predicts most pairs."""
    ranked = [m for m in means if m["spearman"] is not None]
    if not ranked:
        return []
    best = ranked[0]
    # A variant of the same scheme (whr-fixed beside whr, belo2-flat beside belo2) is not
    # another scheme: the lead and the presets won count against the other schemes only.
    family = str(best["scheme"]).split("-")[0]
    others = [m for m in ranked[1:] if str(m["scheme"]).split("-")[0] != family]
    presets = list(dict.fromkeys(str(r.get("preset", "")) for r in reports))
    first_in = 0
    for preset in presets:
        scores: dict[str, list[object]] = {}
        for report in reports:
            if str(report.get("preset", "")) == preset:
                for row in report.get("rows", []):  # type: ignore[attr-defined]
                    scores.setdefault(str(row["scheme"]), []).append(row.get("spearman"))
        known = {k: v for k, s in scores.items() if (v := _mean(s)) is not None
                 and (k == best["scheme"] or k.split("-")[0] != family)}
        if known and max(known, key=lambda k: (known[k], k)) == best["scheme"]:
            first_in += 1
    runs = len(reports)
    sentence = (f"Over {runs} simulated federation{'' if runs == 1 else 's'} "
                f"({len(presets)} preset{'' if len(presets) == 1 else 's'}: "
                f"{', '.join(presets)}), {best['scheme']} follows the true strength best: its "
                f"final list has a mean Spearman correlation of {best['spearman_text']} with "
                "the true order")
    if others:
        second = others[0]
        lead = float(best["spearman"]) - float(second["spearman"])  # type: ignore[arg-type]
        sentence += (f", {lead:.3f} more than {second['scheme']}, the next best other scheme "
                     f"({second['spearman_text']})")
    if len(presets) > 1:
        sentence += (", and it is first in every preset" if first_in == len(presets) else
                     f", and it is first in {first_in} of the {len(presets)} presets")
    sentence += "."
    lines = [sentence]
    pairs = [m for m in means if m["pair_accuracy"] is not None]
    if pairs:
        top = max(pairs, key=lambda m: (float(m["pair_accuracy"]),  # type: ignore[arg-type]
                                        str(m["scheme"])))
        if top is best:
            lines.append("It also predicts the most pairs of the next quarter's results "
                         f"right: {top['pair_accuracy_text']} on average.")
        else:
            lines.append(f"{top['scheme']} predicts the most pairs of the next quarter's "
                         f"results right ({top['pair_accuracy_text']} on average; "
                         f"{best['scheme']} {best['pair_accuracy_text']}).")
    if real:
        rows = [t["rows"] for t in real.get("tables", [])][:1]  # type: ignore[attr-defined]
        scored = [r for r in (rows[0] if rows else []) if r["pair_accuracy"]]
        schemes = [r for r in scored if not str(r["scheme"]).startswith("average")]
        if schemes:
            top = max(schemes, key=lambda r: (r["pair_accuracy"], r["scheme"]))
            yardstick = max(scored, key=lambda r: (r["pair_accuracy"], r["scheme"]))
            lines.append(
                f"On the real club archive, {top['scheme']} orders the most pairs right of "
                f"the schemes ({top['pair_accuracy']})" + (
                    "." if yardstick is top else
                    f"; a club's average percentage so far still does better "
                    f"({yardstick['pair_accuracy']})."))
    return lines


REAL_QUALITY_FILE = "quality-real.json"
"""Beside the evaluation file: the schemes scored on a real archive (``clubratings evaluate
--warehouse FILE --json``, docs/quality.md "On real results")."""


GO_QUALITY_FILE = "quality-go.json"
"""Beside the evaluation file: the go schemes judged on real tournaments (``clubratings
evaluate --warehouse FILE --game go --json``, docs/quality.md "Go on real tournaments")."""

_GO_TABLES = (
    ("even", "rated", "Even games between players both rated before"),
    ("even", "changed", "Even games where a declared grade changed since the player's last "
                        "tournament"),
    ("even", "all", "Every even game (a player without an earlier tournament at the grade "
                    "declared)"),
    ("handicap", "rated", "Handicap games between players both rated before (predicted with "
                          "their handicap)"),
)
"""The go tables of the quality page: kind of game, subset, title."""


def _go_quality(source: Path, data: dict[str, object]) -> dict[str, object] | None:
    """The go part of the quality page: ``data["go"]``, else the ``go`` of
    :data:`GO_QUALITY_FILE` beside ``source``; ``None`` without either."""
    go = data.get("go")
    command = data.get("command", "")
    beside = source.with_name(GO_QUALITY_FILE)
    if not isinstance(go, dict) and beside.is_file():
        other = json.loads(beside.read_text(encoding="utf-8"))
        go, command = other.get("go"), other.get("command", "")
    if not isinstance(go, dict):
        return None
    rows = go.get("rows", [])
    tables = []
    for kind, subset, title in _GO_TABLES:
        chosen = [r for r in rows if r["kind"] == kind and r["subset"] == subset]
        if not chosen:
            continue
        tables.append({"title": title, "rows": [{
            "scheme": r["scheme"], "games": f"{r['games']:,}",
            "accuracy": _num(100 * r["accuracy"], 1),
            "log_loss": _num(r.get("log_loss"), 4) or "\u2014",
            "difference": "\u2014" if r.get("difference") is None
            else f"{r['difference']:+.1f}",
            "interval": "\u2014" if r.get("low") is None
            else f"{r['low']:+.1f} .. {r['high']:+.1f}",
        } for r in chosen]})
    return {**{k: v for k, v in go.items() if k not in ("rows", "seconds")},
            "command": command, "tables": tables}


def _real_quality(source: Path, data: dict[str, object]) -> dict[str, object] | None:
    """The real-results part of the quality page: ``data["real"]``, else the ``real`` of
    :data:`REAL_QUALITY_FILE` beside ``source``; ``None`` without either."""
    real = data.get("real")
    command = data.get("command", "")
    beside = source.with_name(REAL_QUALITY_FILE)
    if not isinstance(real, dict) and beside.is_file():
        other = json.loads(beside.read_text(encoding="utf-8"))
        real, command = other.get("real"), other.get("command", "")
    if not isinstance(real, dict):
        return None
    tables = []
    for choice, title in (("all", "Every comparison (a player without a published rating at "
                                  "the scheme's newcomer rating, 50% in the average)"),
                          ("rated", "Only comparisons whose players all played in an "
                                    "earlier quarter")):
        rows = [{
            "scheme": row["scheme"], "comparisons": f"{row['comparisons']:,}",
            "pair_accuracy": _num(row.get("pair_accuracy"), 3),
            "log_loss": (_num(row.get("log_loss"), 3) or "\u2014")
            + ("*" if row.get("fitted") else ""),
            "difference": "\u2014" if row.get("difference") is None
            else f"{row['difference']:+.1f}",
            "interval": "\u2014" if row.get("low") is None
            else f"{row['low']:+.1f} .. {row['high']:+.1f}",
        } for row in real.get(f"{choice}_rows", [])]
        tables.append({"title": title, "rows": rows})
    # the plot: every comparison; a fitted logistic's probabilities marked * as in the table
    plot = _calibration_plot(
        [(str(row["scheme"]) + ("*" if row.get("fitted") else ""), row.get("calibration"))
         for row in real.get("all_rows", [])],
        "calibration-real", "Reliability of the win probabilities on real results")
    return {**{k: v for k, v in real.items() if not k.endswith("_rows")},
            "command": command, "tables": tables, "calibration": plot}


# ---------------------------------------------------------------- calibration on the quality page


CALIBRATION_STYLES: tuple[tuple[str, str, str], ...] = (
    ("#0072b2", "", "circle"), ("#d55e00", "", "square"), ("#009e73", "", "triangle"),
    ("#cc79a7", "", "diamond"), ("#000000", "6 3", "circle"), ("#e69f00", "6 3", "square"),
    ("#56b4e9", "6 3", "triangle"), ("#8c564b", "6 3", "diamond"),
)
"""The reliability plot's series styles, in turn: colour (colour-blind safe), dashes of the
line (SVG ``stroke-dasharray``, none when empty) and marker shape; more series reuse them.
Written as SVG attributes, so the page needs no style of its own beyond site.css' ``.chart``."""


def _marker_path(shape: str, x: float, y: float, r: float = 3.5) -> str:
    """SVG path data of a marker ``shape`` centred on ``(x, y)``."""
    if shape == "square":
        return (f"M{x - r:.1f},{y - r:.1f}h{2 * r:.1f}v{2 * r:.1f}h{-2 * r:.1f}z")
    if shape == "triangle":
        return (f"M{x:.1f},{y - r * 1.2:.1f}L{x + r * 1.1:.1f},{y + r * 0.8:.1f}"
                f"L{x - r * 1.1:.1f},{y + r * 0.8:.1f}z")
    if shape == "diamond":
        return (f"M{x:.1f},{y - r * 1.3:.1f}L{x + r:.1f},{y:.1f}L{x:.1f},{y + r * 1.3:.1f}"
                f"L{x - r:.1f},{y:.1f}z")
    return (f"M{x - r:.1f},{y:.1f}a{r:.1f},{r:.1f} 0 1,0 {2 * r:.1f},0"
            f"a{r:.1f},{r:.1f} 0 1,0 {-2 * r:.1f},0z")


def _pooled_calibration(parts: Sequence[object]) -> dict[str, object] | None:
    """One reliability diagram of several (``calibration`` of report rows, say one per seed):
    the counts of bins with the same range summed, their means weighted by count, the expected
    calibration error computed again; ``None`` without any bins."""
    merged: dict[tuple[float, float], list[float]] = {}
    total = 0
    for part in parts:
        if not isinstance(part, dict):
            continue
        total += int(part.get("count", 0))
        for b in part.get("bins", []):
            sums = merged.setdefault((float(b["low"]), float(b["high"])), [0.0, 0.0, 0.0])
            sums[0] += b["count"]
            sums[1] += b["count"] * b["predicted"]
            sums[2] += b["count"] * b["observed"]
    if not merged:
        return None
    bins = [{"low": low, "high": high, "count": int(n), "predicted": s / n, "observed": o / n}
            for (low, high), (n, s, o) in sorted(merged.items()) if n > 0]
    counted = sum(b["count"] for b in bins)
    ece = sum(b["count"] * abs(b["observed"] - b["predicted"]) for b in bins) / counted
    return {"count": total, "ece": ece, "bins": bins}


def _calibration_plot(series: Sequence[tuple[str, object]], ident: str,
                     label: str) -> dict[str, object] | None:
    """Geometry of a reliability plot (an inline SVG of the quality page): across the
    favourite's predicted probability (1/2 to 1), up how often the favourite finished ahead,
    the diagonal where the two agree, one line with markers per scheme (each in its style,
    :data:`CALIBRATION_STYLES`). ``series`` is (scheme, calibration as in the JSON); schemes
    without calibration are left out, and ``None`` when none has it (older reports)."""
    drawn = [(name, data) for name, data in series
             if isinstance(data, dict) and data.get("bins")]
    if not drawn:
        return None
    width, height = 400, 340
    left, right, top, bottom = 50, width - 14, 14, height - 48
    lowest = min(float(b["observed"]) for _, data in drawn for b in data["bins"])
    y_low = min(0.5, math.floor(lowest * 10.0) / 10.0)

    def x_of(p: float) -> float:
        return round(left + (right - left) * (p - 0.5) / 0.5, 1)

    def y_of(p: float) -> float:
        return round(bottom - (bottom - top) * (p - y_low) / (1.0 - y_low), 1)

    x_ticks = [(x_of(t / 10), f"{t / 10:.1f}") for t in range(5, 11)]
    y_ticks = [(y_of(t / 10), f"{t / 10:.1f}") for t in range(round(y_low * 10), 11)]
    lines = []
    for index, (name, data) in enumerate(drawn):
        colour, dash, shape = CALIBRATION_STYLES[index % len(CALIBRATION_STYLES)]
        points = [(x_of(float(b["predicted"])), y_of(float(b["observed"])), b)
                  for b in data["bins"]]
        lines.append({
            "scheme": name, "colour": colour, "dash": dash,
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in points),
            "marks": [{"d": _marker_path(shape, x, y),
                       "title": f"{name}: {b['count']:,} pairs predicted "
                                f"{b['low']:.2f}–{b['high']:.2f}, on average "
                                f"{b['predicted']:.3f}; the favourite ahead in "
                                f"{b['observed']:.3f}"} for x, y, b in points],
            "swatch": _marker_path(shape, 14.0, 7.0),
            "count": f"{int(data.get('count', 0)):,}",
            "ece": _num(data.get("ece"), 3) or "—",
        })
    return {"id": ident, "label": label, "width": width, "height": height, "left": left,
            "right": right, "top": top, "bottom": bottom, "x_ticks": x_ticks,
            "y_ticks": y_ticks, "diagonal": (x_of(0.5), y_of(0.5), x_of(1.0), y_of(1.0)),
            "series": lines}


def _simulated_calibration(reports: list[dict[str, object]]) -> list[dict[str, object]]:
    """A reliability plot per preset, every scheme's bins pooled over the preset's seeds; an
    empty list when the reports have no calibration (written before it)."""
    presets: dict[str, dict[str, list[object]]] = {}
    seeds: dict[str, list[object]] = {}
    for report in reports:
        preset = str(report.get("preset", ""))
        seeds.setdefault(preset, []).append(report.get("seed"))
        schemes = presets.setdefault(preset, {})
        for row in report.get("rows", []):  # type: ignore[attr-defined]
            schemes.setdefault(str(row["scheme"]), []).append(row.get("calibration"))
    plots = []
    for preset, schemes in presets.items():
        plot = _calibration_plot(
            [(scheme, _pooled_calibration(parts)) for scheme, parts in schemes.items()],
            f"calibration-{preset}", f"Reliability of the win probabilities, {preset}")
        if plot is not None:
            n = len(seeds[preset])
            plot["title"] = preset
            plot["seeds"] = (f"seed {seeds[preset][0]}" if n == 1 else
                             "pooled over seeds " + ", ".join(map(str, seeds[preset])))
            plots.append(plot)
    return plots


class ReportSection(Protocol):
    title: str
    lines: tuple[str, ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def report_page(title: str, sections: Sequence[ReportSection],
                generated_at: str | None = None) -> str:
    """The import report as a page of the site (``public/reports/``): the site's style, a
    link back to the index, every section's lines and table, everything escaped."""
    return _ENV.get_template("report.html").render(
        title=title, sections=sections, generated_at=generated_at, root="../")


def write_site_index(public: Path, quality: Path | None = None, *,
                     federation: str | None = None) -> list[Path]:
    """``public/index.html`` (every pool with a ``editions.json``, editions newest first), the
    shared assets and, when ``quality`` names an existing evaluation file, ``quality.html``;
    returns the files written or kept.

    The index is headed by ``federation``, else the name a pool's ``editions.json`` keeps
    (the last publication given one), else :data:`DEFAULT_TITLE`; it shows the day of the
    newest pool's run as the last update (from the warehouse, never the clock)."""
    pools = []
    named = []
    for manifest in sorted(public.glob(f"*/{MANIFEST}")):
        data = json.loads(manifest.read_text(encoding="utf-8"))
        latest = [e for e in data["editions"] if e["slug"] == data.get("latest")]
        pools.append({"name": manifest.parent.name, "game": data.get("game", ""),
                      "scheme": data.get("scheme", ""), "editions": data["editions"][::-1],
                      # offered first: the newest edition that ranks somebody
                      "latest": latest[0] if latest else
                      (data["editions"][-1] if data["editions"] else None),
                      "updated": str(data.get("updated", "")),
                      "clubs": bool(data.get("clubs"))})
        if data.get("federation"):
            named.append(str(data["federation"]))
    title = federation or (named[0] if named else DEFAULT_TITLE)
    written: list[Path] = []
    for name in _ASSETS:
        source = Path(__file__).parent / "templates" / "site" / name
        _write(public / name, source.read_bytes(), written)
    has_quality = quality is not None and quality.is_file()
    if quality is not None and has_quality:
        _write(public / "quality.html", _quality_page(quality), written)
    html = _ENV.get_template("index.html").render(
        pools=pools, root="", quality=has_quality, title=title,
        updated=max((p["updated"] for p in pools), default=""),
        report=(public / "reports" / "latest.html").is_file(),
        reports=(public / "reports" / "index.html").is_file())
    _write(public / "index.html", html.encode("utf-8"), written)
    return written


def surname_first(name: str) -> str:
    """A name as written with its surname moved first, by the rule the lists sort by
    (``warehouse.identity.surname_key``): the surname is a word written in capitals
    (``Ján NOVÁK``), else the last word (``Mária Horváthová`` -> ``Horváthová Mária``)."""
    words = name.split()
    if len(words) < 2:
        return name.strip()
    capitals = [i for i, w in enumerate(words)
                if len(w) > 1 and w.isupper() and not all(x.isupper() for x in words)]
    at = capitals[0] if capitals else len(words) - 1
    return " ".join([words[at], *words[:at], *words[at + 1:]])


def _names_in_order(wh: Warehouse, table: pd.DataFrame, of: Game,
                    order: str) -> pd.DataFrame:
    """``table`` with its ``name`` in the pool's name order (docs/site.md "Name order"):
    ``as-written`` keeps the player's record; ``surname-first`` writes each player of a game
    whose files write the surname first (``Game.surname_first``, go: OpenGotha, the EGD tables)
    as the newest of those files wrote them when it has the same words as the record, else the
    record's name with its surname moved first (:func:`surname_first`)."""
    if order != "surname-first" or table.empty:
        return table
    written: dict[int, list[str]] = {}
    if of.surname_first:
        for r in written_names(wh, of.name).itertuples(index=False):
            written.setdefault(int(r.player_id), []).append(str(r.name_as_written))
    names = {}
    for pid, name in zip(table["player_id"].astype(int), table["name"].astype(str),
                         strict=False):
        if pid in names:
            continue
        key = name_key(name)
        same = [w for w in written.get(pid, []) if name_key(w) == key]
        names[pid] = same[0] if same else surname_first(name)
    table = table.copy()
    table["name"] = table["player_id"].astype(int).map(names).astype(str)
    return table


def publish_site(
    wh: Warehouse, pool: str, public: Path, *, settings: SiteSettings | None = None,
    grade: Callable[[float], str] | None = None, federation: str | None = None,
    names: str | None = None,
) -> list[Path]:
    """Write the pool's editions, player and club pages from its latest run, then the site's
    index.

    Returns the files written or kept (unchanged bytes are not rewritten). ``grade`` names a
    rating's grade (go: kyu/dan) in lists with a deviation; ``federation`` heads the index
    (the configuration's ``[federation] name``); ``names`` is the pool's name order
    (``surname-first`` or ``as-written``; none: the game's ``name_order``).
    """
    settings = settings or SiteSettings()
    run = latest_run(wh, pool)
    if run is None:
        # nothing of the pool in force (every file withdrawn): what an earlier publication
        # wrote for it goes, so no list shows results that no longer count
        store_list_entries(wh, pool, list_entries(0, pool, []))
        out = public / pool
        if (out / MANIFEST).is_file():
            _remove_stale(out, [], set())
            for name in (MANIFEST, "how.html", EDITION_DIGESTS):
                (out / name).unlink(missing_ok=True)
        return write_site_index(public, settings.quality, federation=federation)
    table = run_tables(wh, run.run_id)
    hidden = _hidden_ids(table, settings.optout)
    order = names or _game(run).name_order
    table = _names_in_order(wh, table, _game(run), order)
    registered = registered_clubs(wh)
    placement = _game(run).placements
    editions = _editions(table, hidden, settings, grade, clubs_by_date(wh), registered,
                         boards_by_period(wh, run.run_id) if placement else None,
                         organisers_by_date(wh, _game(run).name)
                         if _game(run).club_nights else None)
    if order == "surname-first":
        # the names begin with the surname: they sort as written, accents and case folded
        editions = [dataclasses.replace(ed, rows=[
            dataclasses.replace(r, sort_name=fold(r.player)) for r in ed.rows])
            for ed in editions]
    store_list_entries(wh, pool, list_entries(run.run_id, pool, editions))
    out = public / pool
    written: list[Path] = []
    slugs = _club_slugs({r.club for r in editions[-1].rows}) if editions else {}
    _edition_pages(pool, run, editions, out, settings, written, slugs)
    pages = _player_pages(wh, pool, run, editions, out, hidden, written, slugs)
    pages |= _club_pages(wh, pool, run, editions, out, slugs, written,
                         quality=_has_quality(settings) and _game(run).placements)
    if _crosstables(run):
        _crosstable_pages(wh, pool, run, table, editions, out, hidden, written)
    _remove_stale(out, editions, pages)
    created = run_created(wh, run.run_id)
    _write(out / MANIFEST, _manifest(pool, run, editions, clubs=bool(slugs),
                                     updated=created.isoformat() if created else "",
                                     federation=federation), written)
    _write(out / "how.html", _how_page(pool, run, editions, settings), written)
    return written + write_site_index(public, settings.quality, federation=federation)
