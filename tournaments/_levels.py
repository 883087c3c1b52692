"""Levels, bars and start points (docs/rules/go-mcmahon-levels.md "Start", "Level update").

- :func:`start_level` -- the level ``U0`` from the RFG rating;
- :func:`level_update` / :func:`jigo_update` -- the level after a game;
- :func:`handicap_levels` -- stones as levels at the pair's mean level;
- :func:`parse_bars` / :func:`start_score` -- the organiser's McMahon bars and start points;
- :func:`rating_from_grade` -- the RFG rating of a grade (``3k``, ``1d``).

The jigo and handicap rules are decisions of this package (see its docstring).
"""

from __future__ import annotations

import math
from typing import TypeAlias

from ratings import grade_rating

from ._errors import TournamentError

__all__ = [
    "IDEAL",
    "TERM_CAP",
    "Bars",
    "handicap_levels",
    "jigo_update",
    "level_update",
    "parse_bars",
    "rating_from_grade",
    "round_half_up",
    "start_level",
    "start_score",
]

Bars: TypeAlias = tuple[tuple[float, int], ...]
"""McMahon bars: (lowest rating of the group, start points), highest rating first."""

IDEAL = 3000.0
"""The ideal player's RFG rating (docs/rules/go-rfg.md "Scale")."""

TERM_CAP = 5
"""Largest magnitude of the rounded level term, except for an upset winner (docs/rules/go-mcmahon-levels.md "Level update")."""


# ---------------------------------------------------------------- levels


def start_level(rating: float) -> int:
    """``U0 = round(399 - 100 ln((3000 - R) / 100))`` (docs/rules/go-mcmahon-levels.md "Start"); needs ``R < 3000``."""
    if not rating < IDEAL:
        raise TournamentError(f"rating {rating!r} is not below {IDEAL:g}; no start level")
    return round_half_up(399.0 - 100.0 * math.log((IDEAL - rating) / 100.0))


def round_half_up(x: float) -> int:
    """Round with .5 towards +infinity (docs/rules/go-mcmahon-levels.md "Level update", rounding)."""
    return math.floor(x + 0.5)


def _term(dc: float) -> int:
    """``round_half_up(0.1 * Dc)``, exact for whole ``Dc``."""
    if float(dc).is_integer():
        return (int(dc) + 5) // 10
    return round_half_up(dc / 10.0)


def level_update(u_winner: int, u_loser: int, *, handicap_levels: float = 0.0) -> tuple[int, int]:
    """The two levels after a decided game (docs/rules/go-mcmahon-levels.md "Level update after round n").

    ``Dc`` of the winner is ``u_loser - u_winner - handicap_levels`` (the handicap the winner
    received, in levels; see :func:`handicap_levels`). The winner gains ``5 + t`` with
    ``t = round_half_up(0.1 * Dc)``, the loser changes by ``-5 - t``. The term is capped at
    magnitude 5 for the higher player and for a lower player who lost; a lower player who won
    is not capped. So a loss costs at most 10, and a win over someone 46 or more below gains 0.
    """
    dc = u_loser - u_winner - handicap_levels
    t = _term(dc)
    if dc <= 0:  # the winner is the higher player: both capped
        winner_term, loser_term = max(t, -TERM_CAP), min(-t, TERM_CAP)
    else:  # an upset: the winner uncapped, the (higher) loser capped
        winner_term, loser_term = t, max(-t, -TERM_CAP)
    return u_winner + 5 + winner_term, u_loser - 5 + loser_term


def jigo_update(u_a: int, u_b: int, *, handicap_levels: float = 0.0) -> tuple[int, int]:
    """The two levels after a jigo (a decision of this package; see its docstring).

    ``handicap_levels`` is the handicap ``a`` received, in levels. The lower player gains
    ``min(5, round_half_up(0.1 * |Dc|))`` and the higher player loses the same.
    """
    dc = u_b - u_a - handicap_levels
    gain = min(_term(abs(dc)), TERM_CAP)
    if dc > 0:  # a was the lower player
        return u_a + gain, u_b - gain
    return u_a - gain, u_b + gain


def handicap_levels(stones: int, mean_level: float) -> float:
    """Levels worth ``stones`` of handicap at the pair's mean level (docs/rules/go-mcmahon-levels.md "Handicap tournaments").

    True handicap ``H = stones - 0.5`` for ``stones >= 1`` (docs/rules/go-rfg.md), 100 rating points a
    stone, ``dU/dR = 100 / (3000 - R)`` with ``3000 - R = 100 exp((399 - U) / 100)``, the
    inverse of :func:`start_level`.
    """
    if stones < 0:
        raise TournamentError(f"handicap {stones!r} is negative")
    if stones == 0:
        return 0.0
    per_stone = 100.0 * math.exp((mean_level - 399.0) / 100.0)
    return (stones - 0.5) * per_stone


def rating_from_grade(grade: str) -> float:
    """RFG rating of a grade: 21k = 0, +100 a grade, 1k = 2000, 1d = 2100 (docs/rules/go-rfg.md
    "Scale"); ``kyu``/``dan`` may be written out (``12 kyu``)."""
    text = grade.strip().lower()
    for word, letter in (("kyu", "k"), ("dan", "d")):
        if text.endswith(word):
            text = text.removesuffix(word) + letter
    try:
        return grade_rating(text)
    except ValueError:
        raise TournamentError(
            f"not a go grade: {grade!r} (expected e.g. '3k', '1d', '12 kyu')") from None


# ---------------------------------------------------------------- bars and start


def parse_bars(text: str) -> Bars:
    """``"2100:0,1800:-1"`` -> ((2100.0, 0), (1800.0, -1)), highest rating first."""
    bars: list[tuple[float, int]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        rating, sep, points = part.partition(":")
        try:
            bars.append((float(rating), int(points)))
        except ValueError:
            raise TournamentError(
                f"bar {part!r} is not RATING:POINTS (e.g. '2100:0,1800:-1')") from None
        if not sep:
            raise TournamentError(f"bar {part!r} is not RATING:POINTS (e.g. '2100:0,1800:-1')")
    bars.sort(key=lambda b: -b[0])
    starts = [p for _, p in bars]
    if starts != sorted(starts, reverse=True) or len(set(starts)) != len(starts):
        raise TournamentError(f"bars {text!r}: start points must fall as the rating falls")
    return tuple(bars)


def start_score(rating: float, bars: Bars) -> int:
    """Start McMahon points: those of the highest bar at or below ``rating``; below the lowest
    bar one point less than that bar; 0 for everyone without bars (docs/rules/go-mcmahon-levels.md "Start")."""
    if not bars:
        return 0
    for lowest, points in bars:
        if rating >= lowest:
            return points
    return bars[-1][1] - 1
