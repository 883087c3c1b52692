"""The warehouse's answers for the published site (publishing/_site.py): a rating run's
explanation rows, partners, games and boards, and the players' clubs, as named queries.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

import pandas as pd

from games import GAMES
from ratings import SCHEMES

from ._db import Warehouse
from ._errors import translated
from .clubs import club_names

__all__ = [
    "ALL_PLAYERS", "LIST_ENTRY_COLUMNS", "boards_by_period", "clubs_by_date",
    "crosstable_games", "crosstable_marks", "crosstable_rounds", "declared_strength",
    "organiser_events", "organisers_by_date", "registered_clubs", "run_created",
    "event_rows_html", "explained_players", "partner_rows_html", "run_games",
    "store_list_entries", "written_names",
]


_HELD = "(SELECT file_id FROM file_holds WHERE released_at IS NULL)"
"""Files held for confirmation (a future date, a mistyped year): their events are not rated,
so they name nobody's club and are no club's events until released."""


def _html(expr: str) -> str:
    """SQL of ``expr`` escaped for HTML as the site's templates escape text (markupsafe:
    ``& < > " '``)."""
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"),
                         ("'", "&#39;")):
        expr = f"replace({expr}, '{char.replace(chr(39), chr(39) * 2)}', '{entity}')"
    return expr


def _number(expr: str, digits: int) -> str:
    """SQL of a number written with ``digits`` decimals, ``""`` when missing (NULL or NaN), a
    negative zero without its sign: what the site writes for a number (publishing/_site.py
    ``_num``; DuckDB's ``printf`` rounds the binary value as Python's format does)."""
    return (f"CASE WHEN {expr} IS NULL OR isnan({expr}::DOUBLE) THEN '' "
            f"ELSE regexp_replace(printf('%.{digits}f', {expr}::DOUBLE), '^-(0\\.?0*)$', '\\1') "
            "END")


def _count(expr: str) -> str:
    """SQL of a whole number (a fraction cut off, as ``int()`` does), ``""`` when missing."""
    return (f"CASE WHEN {expr} IS NULL OR isnan({expr}::DOUBLE) THEN '' "
            f"ELSE printf('%.0f', trunc({expr}::DOUBLE) + 0.0) END")  # + 0.0: no '-0'


def _place(expr: str) -> str:
    """SQL of a place: a whole place as a whole number, a shared one as Python's ``{:g}``."""
    return (f"CASE WHEN {expr} IS NULL OR isnan({expr}::DOUBLE) THEN '' "
            f"WHEN {expr}::DOUBLE = trunc({expr}::DOUBLE) "
            f"THEN printf('%.0f', {expr}::DOUBLE + 0.0) "
            f"ELSE printf('%g', {expr}::DOUBLE) END")


_EVENT_ROW = (
    "concat('<tr><td class=\"date\">', coalesce(strftime(event_date, '%Y-%m-%d'), ''), "
    "'</td><td>', " + _html("title || CASE WHEN section <> '' THEN ' (' || section || ')' "
                            "ELSE '' END") + ", "
    "'</td><td>', " + _html("organiser") + ", "
    "'</td><td class=\"num\">', " + _place("place") + ", "
    "'</td><td class=\"num\">', " + _count("n") + ", "
    "'</td><td class=\"num\">', " + _number("r_prime", 1) + ", "
    "'</td><td class=\"num\">', CASE WHEN counted THEN " + _number("share", 2) + " ELSE '' END, "
    "'</td><td>', CASE WHEN counted THEN 'yes' WHEN reason <> '' THEN "
    + _html("'no: ' || reason") + " ELSE 'no' END, '</td></tr>\n')"
)
"""One row of a player page's events table (publishing/templates/site/player.html): date,
event (with its section), organiser, place, n, the two explaining numbers, counted."""


ALL_PLAYERS = (-2**31, 2**31 - 1)
"""Every player id (the range of the ``player_id`` columns)."""


@translated
def explained_players(wh: Warehouse, run_id: int, *, rows: int) -> list[tuple[int, int]]:
    """Player ids cut into ranges ``(first, last)``, both ends included, that together hold
    every id, each with about ``rows`` of the run's explanation rows (a player's rows are
    never split): a player page's long tables are read a range at a time
    (:func:`event_rows_html`, :func:`partner_rows_html`), so that the memory they take
    follows the range, not the history."""
    ranges: list[tuple[int, int]] = []
    first, taken = ALL_PLAYERS[0], 0
    for pid, n in wh.con.execute(
            "SELECT player_id, count(*) FROM rating_contributions WHERE run_id = ? "
            "GROUP BY player_id ORDER BY player_id", [run_id]).fetchall():
        taken += int(n)
        if taken >= rows:
            ranges.append((first, int(pid)))
            first, taken = int(pid) + 1, 0
    return [*ranges, (first, ALL_PLAYERS[1])]


@translated
def event_rows_html(wh: Warehouse, run_id: int, scheme: str,
                    players: tuple[int, int] = ALL_PLAYERS) -> dict[int, str]:
    """Per player, the rows of their page's events table as HTML, newest first: each event of
    the run with place, n and the scheme's two explaining numbers, ``r'`` and the share of the
    period's change (docs/rules/bridge-belo.md §13), or, for the whole-history rating, the
    place the fit expected and the points the event moved the estimate
    (docs/rules/bridge-whr.md §10). Text is escaped. Formatted here, in one pass over the
    rows, because a national history has millions of them. ``players``: only the players
    with ids in this range (both ends included; :func:`explained_players`)."""
    if scheme in SCHEMES and SCHEMES[scheme].whole_history:
        rows = """
            SELECT c.player_id, e.event_date, c.event_id, c.unit_no,
                   coalesce(e.title, '') AS title, coalesce(e.section, '') AS section,
                   coalesce(e.organiser, '') AS organiser, c.place, c.n,
                   c.expected AS r_prime, c.moved AS share,
                   coalesce(c.counted, false) AS counted, coalesce(c.reason, '') AS reason
            FROM rating_contributions c LEFT JOIN events e ON e.event_id = c.event_id
            WHERE c.run_id = $run AND NOT coalesce(c.phantom, false)
                  AND c.player_id BETWEEN $first AND $last"""
    else:
        rows = """
            SELECT player_id, event_date, event_id, unit_no, coalesce(title, '') AS title,
                   coalesce(section, '') AS section, coalesce(organiser, '') AS organiser,
                   place, n, r_prime, share, coalesce(counted, false) AS counted,
                   coalesce(reason, '') AS reason
            FROM rating_explanations
            WHERE run_id = $run AND player_id BETWEEN $first AND $last"""
    return {int(pid): str(html) for pid, html in wh.con.execute(
        f"SELECT player_id, string_agg({_EVENT_ROW}, '' ORDER BY event_date DESC NULLS FIRST, "
        "event_id DESC NULLS FIRST, unit_no DESC NULLS FIRST) "
        f"FROM ({rows}) GROUP BY player_id",
        {"run": run_id, "first": players[0], "last": players[1]}).fetchall()}


@translated
def partner_rows_html(wh: Warehouse, run_id: int, hidden: Collection[int],
                      linked: Collection[int],
                      players: tuple[int, int] = ALL_PLAYERS) -> dict[int, str]:
    """Per player, the rows of their page's partners table as HTML (partner, events
    together, mean r'), most events together first, then by name: a partner in ``hidden`` is
    left out, one in ``linked`` (who has a page) links to their page. Text is escaped.
    ``players``: only the players with ids in this range (both ends included)."""
    name = _html("p.name")
    row = ("concat('<tr><td>', CASE WHEN r.partner_id IN (SELECT unnest($linked)) "
           f"THEN concat('<a href=\"', r.partner_id, '.html\">', {name}, '</a>') ELSE {name} END, "
           "'</td><td class=\"num\">', " + _count("r.events") + ", "
           "'</td><td class=\"num\">', " + _number("r.mean_r_prime", 1) + ", '</td></tr>\n')")
    return {int(pid): str(html) for pid, html in wh.con.execute(
        f"SELECT r.player_id, string_agg({row}, '' ORDER BY r.events DESC, p.name, "
        "r.partner_id) FROM rating_partners r JOIN players p ON p.player_id = r.partner_id "
        "WHERE r.run_id = $run AND r.partner_id NOT IN (SELECT unnest($hidden)) "
        "AND r.player_id BETWEEN $first AND $last GROUP BY r.player_id",
        {"run": run_id, "hidden": sorted(hidden), "linked": sorted(linked),
         "first": players[0], "last": players[1]}).fetchall()}


@translated
def run_games(wh: Warehouse, run_id: int) -> pd.DataFrame:
    """Go: each game of the run from each player's side (the scheme's explanation rows)."""
    return wh.query(
        """
        SELECT g.player_id, g.period, g.opponent_id, p.name AS opponent, g.result,
               g.handicap, g.colour, g.expected
        FROM game_contributions g JOIN players p ON p.player_id = g.opponent_id
        WHERE g.run_id = ?
        ORDER BY g.player_id, g.period, p.name, g.opponent_id, g.colour, g.result
        """,
        [run_id],
    )


@translated
def clubs_by_date(wh: Warehouse) -> dict[int, tuple[list[date], list[str]]]:
    """Every player's clubs as the result files wrote them, by event date (for the club of a
    player as of an edition: the last one written up to the end of its period), each under the
    name its club is listed by; a placeholder (``xxxx``, ``-``, ``?``) is ``""``, no club, as if
    the file wrote none (warehouse/clubs.py)."""
    names = club_names(wh)
    out: dict[int, tuple[list[date], list[str]]] = {}
    for pid, day, club in wh.con.execute(
            "SELECT m.canonical_id, e.event_date, m.club FROM members_resolved m "
            "JOIN active_events e USING (event_id) WHERE m.club IS NOT NULL AND m.club <> '' "
            f"AND e.file_id NOT IN {_HELD} "
            "ORDER BY 1, 2, e.event_id").fetchall():
        days, clubs = out.setdefault(int(pid), ([], []))
        days.append(day)
        clubs.append(names.get(str(club), str(club)))
    return out


@translated
def organisers_by_date(wh: Warehouse, game: str) -> dict[int, tuple[list[date], list[str]]]:
    """Every player's organisers of the game's events in force, by event date: the club of a
    player whose files and register name none, where events are club nights; each under the
    name its club is listed by (warehouse/clubs.py)."""
    names = club_names(wh)
    out: dict[int, tuple[list[date], list[str]]] = {}
    for pid, day, club in wh.con.execute(
            "SELECT m.canonical_id, e.event_date, e.organiser FROM members_resolved m "
            "JOIN active_events e USING (event_id) WHERE e.game = ? "
            "AND e.organiser IS NOT NULL AND e.organiser <> '' "
            f"AND e.file_id NOT IN {_HELD} "
            "ORDER BY 1, 2, e.event_id", [game]).fetchall():
        if not names.get(str(club), str(club)):
            continue
        days, clubs = out.setdefault(int(pid), ([], []))
        days.append(day)
        clubs.append(names.get(str(club), str(club)))
    return out


@translated
def boards_by_period(wh: Warehouse, run_id: int) -> dict[tuple[str, int], int]:
    """Boards each player played per period of a placement run (events with a known number of
    boards; phantoms left out)."""
    return {(str(period), int(pid)): int(boards) for period, pid, boards in wh.con.execute(
        "SELECT c.period, c.player_id, sum(e.boards) FROM rating_contributions c "
        "JOIN events e USING (event_id) WHERE c.run_id = ? AND NOT coalesce(c.phantom, false) "
        "AND e.boards IS NOT NULL GROUP BY 1, 2", [run_id]).fetchall() if boards is not None}


@translated
def crosstable_games(wh: Warehouse, run_id: int) -> pd.DataFrame:
    """Go: every game of a run from each side, for the tournament crosstables."""
    return wh.query(
        """
        SELECT period, player_id, opponent_id, result, colour, handicap, expected, change
        FROM game_contributions WHERE run_id = ?
        ORDER BY period, player_id, opponent_id, colour, result
        """, [run_id])


_TOURNAMENT_LABEL = """
    strftime(min(g.date) OVER (PARTITION BY g.tournament), '%Y-%m-%d') || ' ' || g.tournament
"""
"""A go tournament's period label, as ``warehouse._runs`` names it: its first day and name."""


@translated
def crosstable_rounds(wh: Warehouse) -> pd.DataFrame:
    """Go: every game in force of a tournament with its round, black's side: ``period`` (the
    tournament's label, as a run names it), ``round``, ``black``, ``white``, ``black_result``,
    ``handicap`` and ``colours`` (false when the file did not write who took black)."""
    return wh.query(
        f"""
        SELECT {_TOURNAMENT_LABEL} AS period, g.round, g.black, g.white, g.black_result,
               g.handicap,
               NOT EXISTS (SELECT 1 FROM units u WHERE u.event_id = g.event_id
                           AND u.colour IS NULL) AS colours
        FROM go_games g WHERE g.tournament <> ''
        ORDER BY period, g.round, g.event_id
        """)


@translated
def crosstable_marks(wh: Warehouse) -> pd.DataFrame:
    """Go: the rounds of a tournament that are no game for a player (``go_round_marks``: a
    bye, a result by default, a pairing not played), by canonical player: ``period``,
    ``round``, ``player_id``, ``mark``, ``opponent_id`` (NULL for a bye or an opponent of no
    game in force). A player is known by the key the file's games give them."""
    return wh.query(
        f"""
        WITH keys AS (
            SELECT DISTINCT e.file_id, e.parent, u.label, m.canonical_id
            FROM active_events e
            JOIN units u ON u.event_id = e.event_id
            JOIN members_resolved m ON m.event_id = u.event_id AND m.unit_no = u.unit_no
            WHERE e.game IN (SELECT unnest(?)) AND e.parent <> ''
        ), labels AS (
            SELECT DISTINCT g.tournament, {_TOURNAMENT_LABEL} AS period FROM go_games g
            WHERE g.tournament <> ''
        )
        SELECT l.period, r.round, p.canonical_id AS player_id, r.mark,
               o.canonical_id AS opponent_id
        FROM go_round_marks r
        JOIN keys p ON p.file_id = r.file_id AND p.label = r.player_key
        JOIN labels l ON l.tournament = p.parent
        LEFT JOIN keys o ON o.file_id = r.file_id AND o.label = r.opponent_key
        ORDER BY l.period, r.round, player_id
        """, [[g.name for g in GAMES.values() if g.crosstable]])


@translated
def written_names(wh: Warehouse, game: str) -> pd.DataFrame:
    """Each player's names as the files in force of ``game`` wrote them, newest first:
    ``player_id``, ``name_as_written``, ``format`` (the files of a game whose files write the
    surname first, ``games.Game.surname_first``: go's)."""
    return wh.query(
        """
        SELECT m.canonical_id AS player_id, m.name_as_written, max(e.format) AS format,
               max(e.event_date) AS last_date
        FROM active_events e JOIN members_resolved m ON m.event_id = e.event_id
        WHERE e.game = ?
        GROUP BY ALL ORDER BY player_id, last_date DESC, m.name_as_written
        """, [game])


@translated
def registered_clubs(wh: Warehouse) -> dict[int, str]:
    """The club a member register gives each player (players without one, or with a
    placeholder, left out), under the name its club is listed by (warehouse/clubs.py)."""
    names = club_names(wh)
    clubs = {int(pid): names.get(str(club), str(club)) for pid, club in wh.con.execute(
        "SELECT player_id, club FROM players WHERE club IS NOT NULL AND club <> ''").fetchall()}
    return {pid: club for pid, club in clubs.items() if club}


LIST_ENTRY_COLUMNS = (
    "run_id", "pool", "edition", "period_start", "period_end", "player_id", "rank", "standing",
    "status", "rating", "change", "events_period", "events_year", "events_total",
    "last_played", "club",
)
"""The columns of ``list_entries`` (migration 018), in the order :func:`store_list_entries`
takes them."""


@translated
def store_list_entries(wh: Warehouse, pool: str, entries: pd.DataFrame) -> None:
    """Keep the pool's published lists row by row (``list_entries``, read through the view
    ``edition_entries``): the pool's rows are replaced together, in one transaction."""
    entries = entries.loc[:, list(LIST_ENTRY_COLUMNS)].reset_index(drop=True)
    with wh.transaction() as con:
        con.execute("DELETE FROM list_entries WHERE pool = ?", [pool])
        wh.insert_frame("list_entries", entries)


@translated
def run_created(wh: Warehouse, run_id: int) -> date | None:
    """The day a rating run was made: the site's "last updated" (a run reused because nothing
    changed keeps its day, so the site's bytes stay the same)."""
    row = wh.con.execute(
        "SELECT CAST(created_at AS DATE) FROM rating_runs WHERE run_id = ?", [run_id]).fetchone()
    return None if row is None or row[0] is None else row[0]


@translated
def organiser_events(wh: Warehouse, game: str, *, per_game: bool = False) -> pd.DataFrame:
    """The game's events in force with their organiser, newest first (a club page lists the
    events its club organised): ``organiser, event_date, title, section, n_units, games``.
    ``per_game`` (go, preferans: an event is one game): one row per organiser, day and
    tournament (``parent``; ``""`` for a club's games without one), ``games`` counting them,
    ``n_units`` the players who played."""
    if per_game:
        return wh.query(
            """
            SELECT e.organiser, e.event_date, e.parent AS title, '' AS section,
                   count(DISTINCT m.canonical_id) AS n_units,
                   count(DISTINCT e.event_id) AS games
            FROM active_events e LEFT JOIN members_resolved m USING (event_id)
            WHERE e.game = ? AND e.organiser <> '' AND e.file_id NOT IN (SELECT file_id FROM file_holds WHERE released_at IS NULL)
            GROUP BY e.organiser, e.event_date, e.parent
            ORDER BY e.event_date DESC, e.parent, e.organiser
            """, [game])
    return wh.query(
        """
        SELECT organiser, event_date, coalesce(title, '') AS title,
               coalesce(section, '') AS section, n_units, 1 AS games
        FROM active_events
        WHERE game = ? AND organiser <> '' AND file_id NOT IN (SELECT file_id FROM file_holds WHERE released_at IS NULL)
        ORDER BY event_date DESC, event_id DESC
        """, [game])


@translated
def declared_strength(wh: Warehouse) -> dict[int, tuple[str, float | None, str]]:
    """Go: what each player's newest file said of their strength: the grade they declared,
    the rating the file stated and where that rating comes from (``EGF``), for the player page
    beside our rating (docs/rules/go-rfg.md "First entry")."""
    return {int(pid): (str(grade or ""), None if rating is None else float(rating), str(origin))
            for pid, grade, rating, origin in wh.con.execute(
                "SELECT g.player_id, g.grade, g.stated_rating, coalesce(g.rating_origin, '') "
                "FROM go_entries g JOIN active_events e USING (event_id) "
                "WHERE g.grade IS NOT NULL OR g.stated_rating IS NOT NULL "
                "QUALIFY row_number() OVER (PARTITION BY g.player_id "
                "ORDER BY e.event_date DESC, g.event_id DESC) = 1").fetchall()}
