"""What a simulated federation is: results in the canonical frame plus the truth behind them.

A :class:`Simulation` is the contract between the federation simulator
(:mod:`quality.federation`) and the evaluation (:mod:`quality.evaluate`):

- ``results``: a results frame exactly as :mod:`ratings` takes it (columns
  ``event_id, date, kind, scoring, boards, unit, place, player`` plus ``club``), one row per
  player per unit per event, ``place`` 1 = best with ties averaged; ``event_id``, ``unit`` and
  ``player`` are text; ``date`` is ``datetime64``. Events of one day are ordered by ``event_id``.
- ``strength``: the latent strength of every player at the end of every quarter they were a
  member: columns ``period`` (``2016Q1`` labels, as the schemes use), ``player``, ``strength``.
  Higher is stronger; the scale is the BELO scale (500 = average) so the two-club preset can
  say "true rating 750".
- ``players``: one row per player: ``player``, ``club``, ``joined`` and ``left`` (dates; ``left``
  is NaT for players still active at the end).
- ``events``: one row per event: ``event_id``, ``date``, ``period``, ``club`` (the organising
  club, ``""`` for an inter-club congress), ``inter_club`` (bool).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

__all__ = ["Simulation"]


@dataclass(frozen=True, eq=False)
class Simulation:
    """A simulated federation: what the schemes see (``results``) and the truth (the rest)."""

    name: str
    seed: int
    results: pd.DataFrame
    strength: pd.DataFrame
    players: pd.DataFrame
    events: pd.DataFrame
    settings: dict[str, object] = field(default_factory=dict)

    def final_strength(self) -> pd.Series:
        """Latent strength at the end of the last period, per active player (index ``player``)."""
        last = self.strength["period"].max()
        rows = self.strength[self.strength["period"] == last]
        return rows.set_index("player")["strength"].sort_index()
