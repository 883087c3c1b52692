"""The columns of a published rating list, defined once: :data:`COLUMNS`.

Each :class:`Column` says its name (in ``list.csv`` and ``list.parquet``), its heading and place
in the edition page's table, its Parquet type and how it is rendered; the CSV, Parquet and JSON
writers and the page's table (``templates/site/edition.html``, and through its data
``site.js``) all read them from here. docs/site.md, "Adding a list column", says what a new
column touches.

A column is read from the :class:`~publishing._site.EditionRow` attribute of its name, or, when
the row has no such attribute, from the row's ``extra`` (the scheme's own columns: go's
deviation, interval and grade; preferans' deals and vists per deal; bridge's boards). A column
marked ``optional`` is in an edition's files and table only when some row of the edition has
it in ``extra``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

import pyarrow as pa
from markupsafe import Markup, escape

from games import GAMES

from ._lists import safe_cell

if TYPE_CHECKING:
    from ._standing import EditionRow

__all__ = ["COLUMNS", "Column", "file_columns", "json_row", "script_slots", "table_columns"]

Render = Literal["text", "player", "signed"]
"""How a cell of the page's table is drawn: its text; the player's link (and the ``new``
flag); a signed number marked ``up`` or ``down``."""

_ARROW_TYPES = {"int32": pa.int32(), "int64": pa.int64(), "float": pa.float64(),
                "text": pa.string()}


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a published list."""

    name: str
    """Its name in list.csv and list.parquet; the EditionRow attribute or ``extra`` key."""
    type: Literal["int32", "int64", "float", "text"]
    """Its type in list.parquet (a float column's text is the number the list shows)."""
    header: str = ""
    """Its heading in the page's table; ``""``: not in the table (files only)."""
    place: int = 0
    """Its position in the page's table, smaller first (the files keep the order of
    :data:`COLUMNS`)."""
    css: str = ""
    """The class of its heading and cells in the page's table."""
    key: str | None = None
    """Its key in the page's data for ``site.js`` (the ``data-key`` of its heading, the field
    of ``list-data``); None: not in the data."""
    render: Render = "text"
    optional: bool = False
    """A scheme's column: in an edition only when some row has it."""
    safe: bool = False
    """Text people wrote (names, clubs, ids): written to CSV through :func:`safe_cell`."""
    nullable: bool = False
    """Parquet: an empty value is null."""
    game_headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """The heading for a pool's game where it differs (go: ``Games``)."""
    script: Callable[[EditionRow], Mapping[str, object]] | None = None
    """Its fields in the page's data; None: ``{key: value}``."""

    def value(self, row: EditionRow) -> object:
        """The row's value of the column (``""`` for a scheme's column the row lacks)."""
        found = getattr(row, self.name, _MISSING)
        return row.extra.get(self.name, "") if found is _MISSING else found

    def csv(self, row: EditionRow) -> object:
        value = self.value(row)
        if value is None:
            return ""
        return safe_cell(value) if self.safe else value

    def arrow(self, rows: Sequence[EditionRow]) -> pa.Array:
        values = [self.value(r) for r in rows]
        if self.type == "float":
            values = [None if v in ("", None) else float(v) for v in values]  # type: ignore[arg-type]
        elif self.nullable:
            values = [v or None for v in values]
        return pa.array(values, _ARROW_TYPES[self.type])

    def heading(self, game: str) -> str:
        return self.game_headers.get(game, self.header)

    def th(self, game: str) -> Markup:
        """The column's heading: a button that sorts by it (``site.js``)."""
        button = Markup('<button type="button">{}</button>').format(self.heading(game))
        if self.css.startswith("num"):
            return Markup('<th class="{}" data-key="{}">{}</th>').format(
                self.css, self.key, button)
        css = Markup(' class="{}"').format(self.css) if self.css else ""
        return Markup('<th data-key="{}"{}>{}</th>').format(self.key, css, button)

    def td(self, row: EditionRow) -> Markup:
        """The row's cell, everything escaped. (Built by concatenation with one ``escape``
        per value: a list has a cell per player and column, and ``Markup.format`` costs ten
        times as much.)"""
        if self.render == "player":
            new = _NEW_FLAG if row.status == "new" else ""
            return Markup(f'<td><a href="../players/{escape(str(row.player_id))}.html">'
                          f"{escape(str(row.player))}</a>{new}</td>")
        text = "" if (value := self.value(row)) is None else str(value)
        css = self.css
        if self.render == "signed":
            css += " up" if text.startswith("+") else " down" if text.startswith("-") else " "
        if not css:
            return Markup(f"<td>{escape(text)}</td>")
        return Markup(f'<td class="{escape(css)}">{escape(text)}</td>')

    def data(self, row: EditionRow) -> Mapping[str, object]:
        if self.script is not None:
            return self.script(row)
        return {self.key: self.value(row)} if self.key else {}


_NEW_FLAG = ' <span class="flag" title="first edition with this player">new</span>'
_MISSING = object()


def _num(name: str, header: str, place: int, css: str = "num") -> Column:
    """A scheme's number column: a number in Parquet, its text in the table."""
    return Column(name, "float", header, place, css, name, optional=True, nullable=True)


def _text(name: str, header: str, place: int, css: str = "num") -> Column:
    return Column(name, "text", header, place, css, name, optional=True, nullable=True)


COLUMNS: tuple[Column, ...] = (
    Column("rank", "int32", "Rank", 10, "num", "rank"),
    Column("player_id", "int64", key="id"),
    Column("federation_id", "text", "Federation id", 100, "wide", "federationId", safe=True,
           nullable=True),
    Column("player", "text", "Player", 20, "", "sortName", "player", safe=True,
           script=lambda r: {"player": r.player, "sortName": r.sort_name}),
    Column("club", "text", "Club", 30, "wide", "club", safe=True),
    Column("rating", "float", "Rating", 40, "num", "rating",
           script=lambda r: {"rating": r.rating_value, "ratingText": r.rating}),
    # go (docs/rules/go-rfg.md "Outputs users want"): the deviation S, the 95% interval
    # R +- 2S and the kyu/dan grade, after the rating
    _num("deviation", "Deviation", 50, "num wide"),
    _text("interval", "95% interval", 51, "num wide"),
    _text("grade", "Grade", 52),
    # bridge: boards played in the period; preferans (docs/rules/preferans.md): deals and vists
    # per deal so far; after the events in the table
    _num("boards", "Boards", 80),
    _num("deals", "Deals", 81),
    _num("vists_per_deal", "Vists per deal", 82),
    Column("change", "float", "Change", 60, "num", "change", "signed",
           script=lambda r: {"change": r.change_value, "changeText": r.change}),
    # what each count counts is in its name (docs/site.md, "Who is on a list"): events (go,
    # preferans: games) played in the edition's period, in the active window up to its end
    # (a year by default) and in the run so far
    Column("events_period", "int32", "Events in period", 70, "num", "events",
           game_headers=MappingProxyType({g.name: f"{g.counts.capitalize()} in period"
                                          for g in GAMES.values() if g.counts != "events"})),
    Column("events_year", "int32", "In last year", 75, "num wide", "eventsYear"),
    Column("events_total", "int32", key="history"),
    Column("last_played", "text", "Last played", 90, "wide", "lastPlayed", nullable=True),
    Column("status", "text", key="status"),
    Column("standing", "text"),
)
"""Every column of a published list, in the order of list.csv and list.parquet."""

_BY_NAME = {c.name: c for c in COLUMNS}

_SCRIPT_DRAWS = frozenset({"rank", "player", "club", "rating", "change", "events_period",
                           "events_year", "last_played", "federation_id"})
"""The columns ``site.js`` draws by name; it draws every other column of the table from the
data's ``before`` (the columns before ``change``) and ``after`` (those after ``events``)
lists, with the class ``num wide`` (``num`` for ``grade``) and ``num``."""


def file_columns(present: set[str] | frozenset[str]) -> list[Column]:
    """The columns of an edition's files: every column, the optional ones only when
    ``present`` (the ``extra`` keys of the edition's rows) has them."""
    return [c for c in COLUMNS if not c.optional or c.name in present]


def table_columns(present: set[str] | frozenset[str]) -> list[Column]:
    """The columns of an edition page's table, in their places."""
    return sorted((c for c in file_columns(present) if c.header), key=lambda c: c.place)


def script_slots(table: Sequence[Column]) -> tuple[list[str], list[str]]:
    """The keys ``site.js`` draws from the data (:data:`_SCRIPT_DRAWS`): before the change,
    after the events."""
    change, events = _BY_NAME["change"].place, _BY_NAME["events_period"].place
    own = [c for c in table if c.name not in _SCRIPT_DRAWS and c.key]
    return ([str(c.key) for c in own if c.place < change],
            [str(c.key) for c in own if c.place > events])


def json_row(row: EditionRow) -> dict[str, object]:
    """One row of the page's data for ``site.js``: every column's fields (a scheme's
    column when the row has it)."""
    out: dict[str, object] = {}
    for c in COLUMNS:
        if not c.optional or c.name in row.extra:
            out.update(c.data(row))
    return out
