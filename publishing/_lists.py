"""The rows of a rating list: one period's ratings ranked, with the change since the previous
list and the scheme's own columns (go: deviation, interval, grade; preferans: deals, vists per
deal). The editions site (``_site.py``) builds its lists from these; which columns a published
list has, and how each is written, is ``_columns.py``.

The same warehouse content gives the same rows: a total order on every row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from warehouse import atomic_write


__all__ = ["ListRow", "list_rows"]


@dataclass(frozen=True, slots=True)
class ListRow:
    rank: int
    player: str
    club: str
    rating: str
    change: str
    """Signed change since the previous period's list, ``""`` for a player new to the list."""
    events: int
    player_id: int
    federation_id: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)
    """The scheme's own columns by name (publishing/_columns.py): go's ``deviation``,
    ``interval`` and ``grade`` (docs/rules/go-rfg.md "Outputs users want"), preferans'
    ``deals`` and ``vists_per_deal`` (docs/rules/preferans.md)."""


def _with_deviation(frame: pd.DataFrame) -> bool:
    return "deviation" in frame and bool(frame["deviation"].notna().any())


def _with_deals(frame: pd.DataFrame) -> bool:
    return "deals" in frame and bool(frame["deals"].notna().any())


_READ = ("player_id", "name", "club", "rating", "events", "federation_id", "deviation", "deals")
"""The columns of a period's frame that :func:`list_rows` reads."""


def list_rows(
    period_frame: pd.DataFrame, previous: pd.DataFrame | None,
    grade: Callable[[float], str] | None = None,
    totals: pd.DataFrame | None = None,
) -> list[ListRow]:
    """Rank one period's ratings. Equal shown ratings share a rank (1, 2, 2, 4). With a
    deviation, also the 95% interval and, given ``grade``, the grade of the rating."""
    # only the columns read below
    frame = period_frame[[c for c in _READ if c in period_frame]].copy()
    frame["shown"] = frame["rating"].round(1)
    frame = frame.sort_values(
        ["shown", "name", "player_id"], ascending=[False, True, True], kind="mergesort",
    )
    before = {} if previous is None else dict(zip(previous["player_id"], previous["rating"], strict=True))
    totals_deals: dict[int, float] = {}
    totals_vists: dict[int, float] = {}
    if totals is not None:
        totals_deals = totals["deals"].to_dict()
        totals_vists = totals["vists"].to_dict()
    rows, rank, last_shown = [], 0, None
    column = {c: frame[c].tolist() for c in frame.columns}  # plain values, column by column
    absent = [None] * len(frame)
    for position, (pid, name, club, rating, events, shown, deviation, deals, federation_id) \
            in enumerate(zip(column["player_id"], column["name"], column["club"],
                             column["rating"], column["events"], column["shown"],
                             column.get("deviation", absent), column.get("deals", absent),
                             column.get("federation_id", absent), strict=True), 1):
        if shown != last_shown:
            rank, last_shown = position, shown
        old = before.get(pid)
        change = "" if old is None else f"{rating - old:+.1f}"
        if change in ("+0.0", "-0.0"):
            change = "0.0"
        extra: dict[str, str] = {}
        if deviation is not None and not pd.isna(deviation):
            extra = {
                "deviation": f"{deviation:.1f}",
                "interval": f"{rating - 2 * deviation:.0f}..{rating + 2 * deviation:.0f}",
                "grade": grade(float(rating)) if grade else "",
            }
        if deals is not None and not pd.isna(deals):
            # totals over the player's whole history up to this period
            extra["deals"] = str(int(totals_deals.get(pid, 0)))
            per = totals_vists.get(pid, 0.0) / max(totals_deals.get(pid, 0), 1)
            extra["vists_per_deal"] = f"{per:+.3f}"
        rows.append(ListRow(
            rank, str(name), str(club), _number(rating), change, int(events), int(pid),
            federation_id=str(federation_id or ""), extra=extra,
        ))
    return rows


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def safe_cell(value: object) -> object:
    """A cell as a spreadsheet program will not run it: text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return would be taken as a formula, so it gets a leading
    ``'`` (a plain number such as ``-12.5`` stays a number). Other values pass unchanged."""
    if isinstance(value, str) and value[:1] in _FORMULA_START \
            and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _slug(period: str) -> str:
    """A period label as a file name: ``2013Q4`` stays, ``2024-05-18 Spring Open`` becomes
    ``2024-05-18-Spring-Open``."""
    return re.sub(r"[^\w.-]+", "-", period, flags=re.ASCII).strip("-") or "period"


def _write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless ``path`` holds it already (a file of another size is not read)."""
    try:
        same = path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:  # not there yet (or unreadable: written over)
        same = False
    if same:
        return False
    atomic_write(path, data)
    return True
