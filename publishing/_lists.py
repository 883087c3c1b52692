"""Rating lists per period as CSV and HTML: ``public/<pool>/<period>.csv`` and ``.html``.

The same warehouse content gives the same bytes: no timestamps, a total order on every row.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
import pandas as pd

from warehouse import Warehouse, latest_run, run_tables

__all__ = [
    "DEVIATION_COLUMNS", "LIST_COLUMNS", "PREFERANS_COLUMNS", "ListRow", "list_rows",
    "publish_pool",
]

LIST_COLUMNS = ("rank", "player", "club", "rating", "change", "events", "player_id")
DEVIATION_COLUMNS = ("deviation", "interval", "grade")
PREFERANS_COLUMNS = ("deals", "vists_per_deal")
"""Added after ``events`` (the games) for preferans lists (spec/preferans.md)."""
"""Added after ``rating`` for schemes with a deviation (go, spec/go-rfg.md "Outputs users
want"): the deviation S, the 95% interval R ± 2S, and the kyu/dan grade."""

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("publishing", "templates"),
    autoescape=jinja2.select_autoescape(["html"]),
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)


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
    deviation: str = ""
    interval: str = ""
    grade: str = ""
    deals: str = ""
    vists_per_deal: str = ""


def _with_deviation(frame: pd.DataFrame) -> bool:
    return "deviation" in frame and bool(frame["deviation"].notna().any())


def _with_deals(frame: pd.DataFrame) -> bool:
    return "deals" in frame and bool(frame["deals"].notna().any())


def list_rows(
    period_frame: pd.DataFrame, previous: pd.DataFrame | None,
    grade: Callable[[float], str] | None = None,
    totals: pd.DataFrame | None = None,
) -> list[ListRow]:
    """Rank one period's ratings. Equal shown ratings share a rank (1, 2, 2, 4). With a
    deviation, also the 95% interval and, given ``grade``, the grade of the rating."""
    frame = period_frame.copy()
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
    for position, rec in enumerate(frame.itertuples(index=False), 1):
        if rec.shown != last_shown:
            rank, last_shown = position, rec.shown
        old = before.get(rec.player_id)
        change = "" if old is None else f"{rec.rating - old:+.1f}"
        if change in ("+0.0", "-0.0"):
            change = "0.0"
        extra: dict[str, str] = {}
        deviation = getattr(rec, "deviation", None)
        if deviation is not None and not pd.isna(deviation):
            extra = {
                "deviation": f"{deviation:.1f}",
                "interval": f"{rec.rating - 2 * deviation:.0f}..{rec.rating + 2 * deviation:.0f}",
                "grade": grade(float(rec.rating)) if grade else "",
            }
        deals = getattr(rec, "deals", None)
        if deals is not None and not pd.isna(deals):
            # totals over the player's whole history up to this period
            extra["deals"] = str(int(totals_deals.get(rec.player_id, 0)))
            per = totals_vists.get(rec.player_id, 0.0) / max(totals_deals.get(rec.player_id, 0), 1)
            extra["vists_per_deal"] = f"{per:+.3f}"
        rows.append(ListRow(
            rank, str(rec.name), str(rec.club), _number(rec.rating), change, int(rec.events),
            int(rec.player_id), **extra,
        ))
    return rows


def _csv_bytes(rows: Sequence[ListRow], deviation: bool, deals: bool = False) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    extra = DEVIATION_COLUMNS if deviation else ()
    after = PREFERANS_COLUMNS if deals else ()
    writer.writerow(LIST_COLUMNS[:4] + extra + LIST_COLUMNS[4:6] + after + LIST_COLUMNS[6:])
    for r in rows:
        more = [r.deviation, r.interval, r.grade] if deviation else []
        later = [r.deals, r.vists_per_deal] if deals else []
        writer.writerow([r.rank, _cell(r.player), _cell(r.club), r.rating, *more, r.change,
                         r.events, *later, r.player_id])
    return buf.getvalue().encode("utf-8")


def _cell(text: str) -> str:
    """A text cell as a spreadsheet program will not run it: a leading ``=``, ``+``, ``-``,
    ``@`` (or tab, carriage return) would make it a formula, so it gets a leading ``'``."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _slug(period: str) -> str:
    """A period label as a file name: ``2013Q4`` stays, ``2024-05-18 Spring Open`` becomes
    ``2024-05-18-Spring-Open``."""
    return re.sub(r"[^\w.-]+", "-", period, flags=re.ASCII).strip("-") or "period"


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


def publish_pool(
    wh: Warehouse, pool: str, public: Path, *, grade: Callable[[float], str] | None = None,
    hidden: frozenset[str] = frozenset(),
) -> list[Path]:
    """Write every period of the pool's latest rating run; returns the files written or kept.

    ``grade`` names a rating's grade (go: kyu/dan) in lists with a deviation. Players whose id
    or exact name is in ``hidden`` (the opt-out list) are left out; ranks close up.
    """
    run = latest_run(wh, pool)
    if run is None:
        return []
    table = run_tables(wh, run.run_id)
    if hidden:
        table = table[~(table["player_id"].astype(str).isin(hidden) | table["name"].isin(hidden))]
    out = public / pool
    out.mkdir(parents=True, exist_ok=True)
    starts = table.groupby("period")["period_start"].min()
    periods = sorted(table["period"].unique(), key=lambda p: (starts[p], p))
    options = sorted(run.options.items())
    written: list[Path] = []
    index = []
    previous: pd.DataFrame | None = None
    for i, period in enumerate(periods):
        frame = table[table["period"] == period]
        deals = _with_deals(frame)
        totals = None
        if deals:
            so_far = table[table["period"].isin(periods[: i + 1])]
            totals = so_far.groupby("player_id")[["deals", "vists"]].sum()
        rows = list_rows(frame, previous, grade, totals)
        previous = frame
        deviation = _with_deviation(frame)
        html = _ENV.get_template("list.html").render(
            pool=pool, period=period, rows=rows, scheme=run.scheme, options=options,
            deviation=deviation, deals=deals,
            period_start=frame["period_start"].iloc[0].date().isoformat(),
            period_end=frame["period_end"].iloc[0].date().isoformat(),
            active=sum(1 for r in rows if r.events > 0),
            previous=_slug(periods[i - 1]) if i > 0 else None,
            next=_slug(periods[i + 1]) if i + 1 < len(periods) else None,
            previous_label=periods[i - 1] if i > 0 else None,
            next_label=periods[i + 1] if i + 1 < len(periods) else None,
            slug=_slug(period),
        )
        for path, data in (
            (out / f"{_slug(period)}.csv", _csv_bytes(rows, deviation, deals)),
            (out / f"{_slug(period)}.html", html.encode("utf-8")),
        ):
            _write_if_changed(path, data)
            written.append(path)
        index.append({"period": period, "slug": _slug(period), "players": len(rows)})
    index_path = out / "index.html"
    _write_if_changed(
        index_path,
        _ENV.get_template("index.html").render(pool=pool, periods=index[::-1]).encode("utf-8"),
    )
    written.append(index_path)
    return written
