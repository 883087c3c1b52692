"""McMahon go tournaments with a dynamic level instead of Buchholz
(docs/rules/go-mcmahon-levels.md): the tournament director behind ``clubratings mcmahon``.

A package of its own beside the core: pure (no I/O), it reads OpenGotha files through the one
OpenGotha reader of ``parsers`` and the RFG grade scale from ``ratings``; only the command line
imports it. A tournament is a frozen :class:`TournamentState`; every step returns a new one.

    _levels.py     start_level, level_update, jigo_update, handicap_levels, parse_bars,
                   start_score, rating_from_grade (docs/rules/go-mcmahon-levels.md "Start",
                   "Level update")
    _state.py      the records (Entrant, Player, Game, RoundResults, Round, Pairing,
                   TournamentState); start_tournament, apply_round, replay; the JSON state
                   file (state_to_json, state_from_json)
    _pairing.py    pair_round: the level pairing (docs/rules/go-mcmahon-levels.md "Pairing a
                   round"), or the weighted pairing when the state carries PairingSettings
    _weighted.py   the weighted pairing as OpenGotha pairs (docs/rules/go-mcmahon-pairing.md):
                   OpenGotha's criteria as weights (weight_terms), the round matched at once
    _matching.py   max_weight_matching (Edmonds' blossom method)
    _settings.py   PairingSettings by our names or OpenGotha's; parse_rank, rank_from_rating
    _standings.py  standings (final places with every criterion), level_history
    _results.py    result_scores (a result cell), events_to_games (a go file's events)
    _opengotha.py  read_opengotha: an OpenGotha file's players, settings and rounds, from
                   parsers.opengotha.read_setup
    _errors.py     TournamentError, MissingRanks

Decisions where the source (docs/rules/go-mcmahon-levels.md) leaves a gap:

- **Jigo.** The update is ``10 * (result - 1/2) + round(0.1 * Dc)``: a win is ``+5``, a loss
  ``-5``, a jigo ``0``, plus the level term. In a jigo the lower player gains
  ``round_half_up(0.1 * |Dc|)`` capped at 5 and the higher player loses the same; equal levels
  change nothing. So a jigo never gives more than a win nor costs more than a loss.
- **Handicap.** ``handicap_levels`` is the handicap the *winner* received, in levels (negative
  when the winner gave it); it is subtracted inside ``Dc`` (docs/rules/go-mcmahon-levels.md "Handicap tournaments").
  :func:`handicap_levels` converts stones with the RFG true handicap (``F - 0.5`` for ``F >= 1``,
  docs/rules/go-rfg.md "Win probability") at 100 rating points a stone and
  ``dU/dR = 100 / (3000 - R)`` at the pair's mean level: about 3 levels a stone at 21 kyu,
  5 at 11 kyu, 10 at 1 kyu.
- **Byes and forfeits.** A bye (``0+``) and a forfeit win give 1 McMahon point, an absence and a
  forfeit loss 0; nobody's level moves without a game (docs/rules/go-mcmahon-levels.md "Level update"). For the opponents'
  mean level a bye *and a forfeit win* count the player's own final level; an absence and a
  forfeit loss add nothing (docs/rules/go-mcmahon-levels.md "Final places"). A forfeited game is not a meeting: the two may
  be paired again.
- **Who gets the bye.** The lowest-placed present player (McMahon points, level, start number)
  without a bye yet; a second bye is preferred to a repeated game.
- **Rounds remaining** for the top-group rule count the round being paired.
- **Last tie-break.** Equal start ratings are separated by the start number.
- **Colours and handicaps** are not assigned by the level pairing: a pair lists the
  higher-placed player first. The weighted pairing assigns both (white first,
  ``Pairing.handicaps``).

Public names are loaded on first use, so that pairing from a state file does not import the
parsers (only :func:`read_opengotha` does).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._errors import MissingRanks, TournamentError
    from ._levels import (
        handicap_levels,
        jigo_update,
        level_update,
        parse_bars,
        rating_from_grade,
        start_level,
        start_score,
    )
    from ._matching import max_weight_matching
    from ._opengotha import OpenGothaTournament, opengotha_key, read_opengotha
    from ._pairing import pair_round
    from ._results import events_to_games, result_scores
    from ._settings import PairingSettings, parse_rank, rank_from_rating
    from ._standings import CRITERIA, STANDINGS_COLUMNS, level_history, standings
    from ._state import (
        Entrant,
        Game,
        Pairing,
        Player,
        Round,
        RoundResults,
        TournamentState,
        apply_round,
        replay,
        start_tournament,
        state_from_json,
        state_to_json,
    )
    from ._weighted import weight_terms

_WHERE = {
    "MissingRanks": "_errors", "TournamentError": "_errors",
    "max_weight_matching": "_matching",
    "weight_terms": "_weighted",
    "handicap_levels": "_levels", "jigo_update": "_levels", "level_update": "_levels",
    "parse_bars": "_levels", "rating_from_grade": "_levels", "start_level": "_levels",
    "start_score": "_levels",
    "OpenGothaTournament": "_opengotha", "opengotha_key": "_opengotha",
    "read_opengotha": "_opengotha",
    "pair_round": "_pairing",
    "events_to_games": "_results", "result_scores": "_results",
    "PairingSettings": "_settings", "parse_rank": "_settings", "rank_from_rating": "_settings",
    "CRITERIA": "_standings", "STANDINGS_COLUMNS": "_standings", "level_history": "_standings",
    "standings": "_standings",
    "Entrant": "_state", "Game": "_state", "Pairing": "_state", "Player": "_state",
    "Round": "_state", "RoundResults": "_state", "TournamentState": "_state",
    "apply_round": "_state", "replay": "_state", "start_tournament": "_state",
    "state_from_json": "_state", "state_to_json": "_state",
}
"""Where each public name lives."""

__all__ = [
    "CRITERIA",
    "STANDINGS_COLUMNS",
    "Entrant",
    "Game",
    "MissingRanks",
    "OpenGothaTournament",
    "Pairing",
    "PairingSettings",
    "Player",
    "Round",
    "RoundResults",
    "TournamentError",
    "TournamentState",
    "apply_round",
    "events_to_games",
    "handicap_levels",
    "jigo_update",
    "level_history",
    "level_update",
    "max_weight_matching",
    "opengotha_key",
    "pair_round",
    "parse_bars",
    "parse_rank",
    "rank_from_rating",
    "rating_from_grade",
    "read_opengotha",
    "replay",
    "result_scores",
    "standings",
    "start_level",
    "start_score",
    "start_tournament",
    "state_from_json",
    "state_to_json",
    "weight_terms",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'tournaments' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
