"""The go games as the real-data judge reads them (quality/real_go.py, docs/quality.md "Go on
real tournaments"): the go schemes' games frame, one period per tournament, with the rating
each file states for a player (view ``go_entries``; the EGD GoR or OpenGotha's rating)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ._runs import games_frame

if TYPE_CHECKING:
    from ._db import Warehouse

__all__ = ["go_judge_frame"]


def go_judge_frame(wh: Warehouse) -> tuple[pd.DataFrame, str]:
    """:func:`warehouse.games_frame` with ``periods = "tournament"`` plus ``rating`` and
    ``opponent_rating``, the ratings the file states for black and white (NaN when it states
    none), in the same row order; and a name for the archive (its organiser with the most go
    games, and how many others there are)."""
    games = games_frame(wh, "tournament")
    stated = wh.query(
        "SELECT g.event_id, b.rating AS black_rating, w.rating AS white_rating "
        "FROM go_games g "
        "LEFT JOIN (SELECT event_id, player_id, max(stated_rating) AS rating FROM go_entries "
        "           GROUP BY ALL) b ON b.event_id = g.event_id AND b.player_id = g.black "
        "LEFT JOIN (SELECT event_id, player_id, max(stated_rating) AS rating FROM go_entries "
        "           GROUP BY ALL) w ON w.event_id = g.event_id AND w.player_id = g.white "
        "ORDER BY g.date, g.event_id"
    )
    out = games.copy()
    out["rating"] = stated["black_rating"].astype(float).to_numpy()
    out["opponent_rating"] = stated["white_rating"].astype(float).to_numpy()
    organisers = wh.query(
        "SELECT coalesce(e.organiser, '') AS organiser, count(*) AS games FROM go_games g "
        "JOIN events e USING (event_id) GROUP BY 1 ORDER BY 2 DESC, 1")
    named = organisers[organisers["organiser"] != ""]
    name = str(named["organiser"].iloc[0]) if len(named) else ""
    if len(named) > 1:
        name += f" (and {len(named) - 1} other organiser{'s' if len(named) > 2 else ''})"
    return out, name
