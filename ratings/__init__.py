"""Rating schemes: results frames in, ratings per player per period plus explanations out.

Pure and vectorised: no I/O, imports nothing else of the project, never mutates its inputs.
Every scheme is listed in :data:`SCHEMES` (name -> :class:`Scheme`) and configured by a frozen
params object built from text options with :func:`parse_options`.

Input frames
------------
**results**: one row per player per unit per event.

    ==========  ====================================================================
    event_id    text, unique per event
    date        date of the event: datetime64, ``datetime.date`` or ISO text; one date
                per event (times and time zones are dropped)
    kind        ``individual`` | ``pairs`` | ``teams`` (other games' kinds pass through;
                BELO treats ``individual`` specially)
    scoring     text (``MP``, ``IMP``, ...); not used by BELO, filter on it for
                separate lists (docs/rules/bridge-belo.md §12)
    boards      number of boards of the event, NaN when unknown
    unit        text, the competing unit's id, unique within the event
    place       the unit's place, 1 = best, ties already averaged; 1 <= place <= n
    player      text, the player's id
    ==========  ====================================================================

``n`` of an event is its number of distinct units. Ids may arrive as numbers; they are read as
text. Date, kind, scoring and boards must be the same on every row of an event, and a unit's
players must share one place; otherwise :class:`InputError`.

**initial** (optional): ``player``, ``rating`` (positive) -- ratings at the start of the first
period. Players not in it are newcomers, started by the scheme's newcomer rule.

Output
------
A :class:`RatingRun` with three frames:

- ``ratings``: ``period, period_start, period_end, player, rating_before, rating, events`` --
  one row per player per period for every player rated by the end of that period, sorted by
  period then player. Periods are consecutive from the first period with an event to the last;
  labels ``2013Q3`` (quarter), ``2013-08`` (month), ``2013`` (year).
- ``contributions``: ``period, event_id, date, player, unit, place, n, r, field_factor,
  partner_factor, weight, norm_factor, r_prime, counted, reason`` -- one row per player per
  event (docs/rules/bridge-belo.md §13); ``reason`` says why a row did not count, ``''`` when it did.
- ``normalisations``: ``period, factor`` -- one row per periodic normalisation applied.

``RatingRun.final`` is the latest rating per player (``player, rating``).

Errors
------
:class:`RatingError` is the base; :class:`OptionError` (with :class:`UnknownScheme`) for
configuration, :class:`InputError` for the frames. See ``_errors`` for the tree.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._belo import MEAN_RATING, NEWCOMER_RATING, BeloParams, rate_belo
    from ._errors import InputError, OptionError, RatingError, UnknownScheme
    from ._frames import (
        CONTRIBUTIONS_COLUMNS,
        INITIAL_COLUMNS,
        NORMALISATIONS_COLUMNS,
        PERIOD_FREQUENCIES,
        RATINGS_COLUMNS,
        RESULTS_COLUMNS,
        PeriodState,
        RatingRun,
    )
    from ._go import GAMES_COLUMNS, check_games, grade, grade_rating
    from ._grade import GRADE_COLUMNS, GradeEvidenceParams, learn_grade_evidence
    from ._grade import rate_grade_evidence
    from ._registry import SCHEMES, RateFunction, Scheme, params_to_options, parse_options, rate
    from ._rfg import RfgBootstrapParams, RfgParams, rate_rfg, rate_rfg_bootstrap
    from ._whr import (
        WHR_CONTRIBUTIONS_COLUMNS,
        WHR_RATINGS_COLUMNS,
        WhrFit,
        WhrParams,
        fit_whr,
        rate_whr,
        whr_probability,
    )
    from ._whr_learn import LEARNABLE as WHR_LEARNABLE
    from ._whr_learn import WhrLearning, learn_whr

_WHERE = {
    "MEAN_RATING": "_belo", "NEWCOMER_RATING": "_belo", "rate_belo": "_belo",
    "InputError": "_errors", "OptionError": "_errors", "RatingError": "_errors",
    "UnknownScheme": "_errors",
    "CONTRIBUTIONS_COLUMNS": "_frames", "INITIAL_COLUMNS": "_frames",
    "NORMALISATIONS_COLUMNS": "_frames", "PERIOD_FREQUENCIES": "_frames",
    "RATINGS_COLUMNS": "_frames", "RESULTS_COLUMNS": "_frames", "RatingRun": "_frames",
    "PeriodState": "_frames",
    "GAMES_COLUMNS": "_go", "check_games": "_go", "grade": "_go", "grade_rating": "_go",
    "GRADE_COLUMNS": "_grade", "GradeEvidenceParams": "_params",
    "learn_grade_evidence": "_grade", "rate_grade_evidence": "_grade",
    "BeloParams": "_params", "RfgBootstrapParams": "_params", "RfgParams": "_params",
    "WhrParams": "_params", "WHR_LEARNABLE": "_params",
    "SCHEMES": "_registry", "RateFunction": "_registry", "Scheme": "_registry",
    "params_to_options": "_registry", "parse_options": "_registry", "rate": "_registry",
    "rate_rfg": "_rfg", "rate_rfg_bootstrap": "_rfg",
    "WHR_CONTRIBUTIONS_COLUMNS": "_whr", "WHR_RATINGS_COLUMNS": "_whr", "WhrFit": "_whr",
    "fit_whr": "_whr", "rate_whr": "_whr", "whr_probability": "_whr",
    "WhrLearning": "_whr_learn", "learn_whr": "_whr_learn",
}
"""Where each public name lives; a name is imported at its first use, so that reading the
schemes and their options (the registry, ``_params.py``) loads no pandas."""
_RENAMED = {"WHR_LEARNABLE": "LEARNABLE"}

__all__ = [
    "CONTRIBUTIONS_COLUMNS",
    "GAMES_COLUMNS",
    "GRADE_COLUMNS",
    "INITIAL_COLUMNS",
    "MEAN_RATING",
    "NEWCOMER_RATING",
    "NORMALISATIONS_COLUMNS",
    "PERIOD_FREQUENCIES",
    "RATINGS_COLUMNS",
    "RESULTS_COLUMNS",
    "SCHEMES",
    "BeloParams",
    "GradeEvidenceParams",
    "InputError",
    "OptionError",
    "PeriodState",
    "RateFunction",
    "RatingError",
    "RatingRun",
    "RfgBootstrapParams",
    "RfgParams",
    "Scheme",
    "UnknownScheme",
    "WHR_CONTRIBUTIONS_COLUMNS",
    "WHR_RATINGS_COLUMNS",
    "WhrFit",
    "WHR_LEARNABLE",
    "WhrLearning",
    "WhrParams",
    "check_games",
    "fit_whr",
    "learn_whr",
    "grade",
    "grade_rating",
    "learn_grade_evidence",
    "params_to_options",
    "parse_options",
    "rate",
    "rate_belo",
    "rate_grade_evidence",
    "rate_rfg",
    "rate_rfg_bootstrap",
    "rate_whr",
    "whr_probability",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'ratings' has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{_WHERE[name]}")
    value = getattr(module, _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
