"""Canonical events straight to the rating engine's results frame, without a warehouse.

Used by ``clubratings rate`` on a plain CSV: players are identified by their name as written.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from parsers import Event

__all__ = ["events_to_results"]

_COLUMNS = ["event_id", "date", "kind", "scoring", "boards", "unit", "place", "player",
            "parent", "match", "score", "club"]


def events_to_results(events: Iterable[Event]) -> pd.DataFrame:
    """One row per player per unit per event (units without a place are left out)."""
    rows = []
    for i, ev in enumerate(events, 1):
        for j, unit in enumerate(ev.units, 1):
            if unit.place is None:
                continue
            for p in unit.players:
                rows.append((
                    str(i), pd.Timestamp(ev.date), ev.kind, ev.scoring,
                    float("nan") if ev.boards is None else float(ev.boards),
                    str(j), float(unit.place), p.name.strip(),
                    # a league's matches and standings (docs/rules/bridge-belo.md §7)
                    ev.parent, bool(ev.parent) and ev.round is not None and len(ev.units) == 2,
                    float("nan") if unit.score is None else float(unit.score), p.club or "",
                ))
    return pd.DataFrame(rows, columns=_COLUMNS)
