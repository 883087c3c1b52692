"""The rating quality lab: simulated tournaments and federations, and how well a list measures
strength (docs/rules/simulation.md).

- :mod:`quality.movements` -- the tournament-fairness simulator (pair model, barometer, Howell,
  Mitchell) and its unfairness table;
- :mod:`quality.federation` -- the federation simulator and its presets, producing a
  :class:`quality.model.Simulation`;
- :mod:`quality.metrics` -- KN, LN, KN-, rank correlations and prediction scores;
- :mod:`quality.evaluate` -- chronological replay of every scheme over a simulation;
- :mod:`quality.real` -- the same replay over a warehouse's real results, every night predicted
  from the lists published before it, against a club's average percentage so far.
- :mod:`quality.real_go` -- a warehouse's go games, every game predicted from the lists published
  before its tournament, against the stronger declared grade.

The lab reads the :mod:`ratings` package (schemes are what it measures) and writes nothing to the
warehouse (:mod:`quality.real` opens one read-only); simulated federations can also be written
as result files the parsers read, for end-to-end runs.
"""

__all__: list[str] = []
