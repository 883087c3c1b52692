"""Rating list rows: ranking, ties, change since the previous period (the editions site,
tests/test_site.py, covers pages, escaping and the opt-out list)."""

from __future__ import annotations

import pandas as pd

from publishing import list_rows


def _period(rows: list[tuple[int, str, float, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"player_id": pid, "name": name, "club": "K", "rating": rating, "events": ev}
         for pid, name, rating, ev in rows]
    )


def test_rank_order_ties_and_change() -> None:
    previous = _period([(1, "Anna", 510.0, 2), (2, "Bela", 520.0, 1)])
    current = _period([
        (1, "Anna", 530.04, 1), (2, "Bela", 515.0, 0), (3, "Cyril", 530.0, 3), (4, "Dora", 480.0, 1),
    ])
    rows = list_rows(current, previous)
    assert [(r.rank, r.player, r.rating, r.change, r.events) for r in rows] == [
        (1, "Anna", "530.0", "+20.0", 1),
        (1, "Cyril", "530.0", "", 3),      # same shown rating, same rank; new to the list
        (3, "Bela", "515.0", "-5.0", 0),
        (4, "Dora", "480.0", "", 1),
    ]
