"""Parsed events straight to the rating engine's results frame, without a warehouse.

The results frame is the one the ratings package documents (its package docstring, "Input
frames"): one row per player per unit per event. Used by ``clubratings rate`` and by tests that
rate parsed files directly; players are identified by their name as written.

Not imported by :mod:`parsers` itself (this module needs pandas; ``import parsers`` does not).
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ._model import Event

__all__ = ["RESULTS_COLUMNS", "events_to_results"]

RESULTS_COLUMNS = ("event_id", "date", "kind", "scoring", "boards", "unit", "place", "player",
                   "parent", "match", "score", "club", "abroad", "field_rating", "unrated")
"""The results frame's columns as this package writes them: the engine's required columns,
then its optional ones. :func:`events_to_results` writes the first twelve (events carry no
``abroad``, ``field_rating`` or ``unrated``); the CSV template's frame reader
(:mod:`parsers.csv_template_frame`) writes all of them."""

_EVENT_COLUMNS = list(RESULTS_COLUMNS[:12])


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
    return pd.DataFrame(rows, columns=_EVENT_COLUMNS)
