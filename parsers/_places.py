"""Places as result lists write them, shared places for ties, and places checked against scores.

docs/rules/inputs.md ("What a result file has to yield"): ties are shared places, e.g. ``5-6``. The
model (``_model.Place``) stores the mean of the places a tie occupies, so two units tied for
5th-6th both get 5.5 and the places of ``n`` units always sum to ``1 + 2 + ... + n``.

Result lists mark a tie in three ways, all handled by :func:`shared_places`:

- a range on every tied row: ``5-6``, ``5.-6.``, ``5–6``;
- the place on the first tied row and an *empty* place on the rows below (JFR Pary);
- the same plain number repeated (``5``, ``5``, then ``7``): competition ranking, also with the
  UK tie mark (``5=``, ``=5``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ._errors import InconsistentResult
from ._issues import IssueLog
from ._model import Place, PlayerAsWritten, Unit

__all__ = [
    "PlaceProblem",
    "RankedRow",
    "UnitRow",
    "WrittenPlace",
    "checked_places",
    "order_problems",
    "parse_place",
    "ranked_units",
    "shared_places",
    "units_by_score",
]

# A place, a range, or a place with the UK tie mark (``5=`` or ``=5``; the tie itself shows as
# the same number on several rows, which :func:`shared_places` averages).
_PLACE = re.compile(
    r"^=?\s*(\d+)\s*\.?\s*(?:[-\u2013\u2014]\s*(\d+)\s*\.?)?\s*=?$"
)


@dataclass(frozen=True, slots=True)
class WrittenPlace:
    """A place as written: ``first == last`` for a plain number, a range for a written tie."""

    first: int
    last: int

    @property
    def is_range(self) -> bool:
        return self.first != self.last


@dataclass(frozen=True, slots=True)
class PlaceProblem:
    """Something odd about the place of the unit at ``index`` (in ranking order)."""

    index: int
    message: str


def parse_place(text: str) -> WrittenPlace | None:
    """``"5"``, ``"5."``, ``"5-6"``, ``"5.-6."``, ``"5="``, ``"=5"`` -> a :class:`WrittenPlace`;
    blank -> None.

    Raises ``ValueError`` for anything else (``"x"``, ``"0"``, ``"6-5"``).
    """
    stripped = " ".join(text.split())
    if not stripped:
        return None
    match = _PLACE.match(stripped)
    if match is None:
        raise ValueError(f"not a place: {text!r}")
    first = int(match[1])
    last = int(match[2]) if match[2] else first
    if first < 1 or last < first:
        raise ValueError(f"not a place: {text!r}")
    return WrittenPlace(first, last)


def _groups(
    written: Sequence[WrittenPlace | None],
) -> tuple[list[tuple[WrittenPlace, list[int]]], list[PlaceProblem]]:
    """Tie groups in ranking order: a blank joins the group above, as does an equal place."""
    groups: list[tuple[WrittenPlace, list[int]]] = []
    problems: list[PlaceProblem] = []
    for index, place in enumerate(written):
        if not groups:
            if place is None:
                problems.append(PlaceProblem(index, "the first unit has no place; taken as 1"))
                place = WrittenPlace(1, 1)
            groups.append((place, [index]))
        elif place is None or (place.first == (above := groups[-1][0]).first
                               and place.last == above.last):  # (equal: fields compared)
            groups[-1][1].append(index)
        else:
            groups.append((place, [index]))
    return groups, problems


def shared_places(
    written: Sequence[WrittenPlace | None],
) -> tuple[list[Place], list[PlaceProblem]]:
    """The place of every unit, given the places written for them in ranking order.

    ``None`` (a blank place cell) ties a unit with the unit above it; an equal written place does
    too. A tie group written as a plain number ``p`` with ``k`` members gets ``p + (k - 1) / 2``;
    one written as a range gets the range's midpoint. The problems list reports ranges whose width
    differs from the number of units sharing them and places that do not follow on from the group
    above (``1, 3`` or ``5, 5, 6``); the places are still computed from what is written.
    """
    groups, problems = _groups(written)
    places: list[Place] = [0.0] * len(written)
    expected = 1
    for place, members in groups:
        size = len(members)
        if place.is_range:
            value = (place.first + place.last) / 2
            if place.last - place.first + 1 != size:
                problems.append(PlaceProblem(
                    members[0],
                    f"place {place.first}-{place.last} is shared by {size} unit(s), "
                    f"not {place.last - place.first + 1}",
                ))
        else:
            value = place.first + (size - 1) / 2
        if place.first != expected:
            problems.append(PlaceProblem(
                members[0], f"place {place.first} written where {expected} was expected",
            ))
        for index in members:
            places[index] = value
        expected = place.first + size
    return places, problems


def order_problems(
    places: Sequence[Place | None], scores: Sequence[float | None],
) -> list[PlaceProblem]:
    """Units (in ranking order, higher score better) whose score contradicts their place.

    A unit placed below the one above it must not score more; units sharing a place must score
    the same. Units without a place or a score are skipped.
    """
    problems: list[PlaceProblem] = []
    for index in range(1, len(places)):
        above_place, place = places[index - 1], places[index]
        above_score, score = scores[index - 1], scores[index]
        if above_place is None or place is None or above_score is None or score is None:
            continue
        if place == above_place and score != above_score:
            problems.append(PlaceProblem(
                index, f"shares place {place:g} but scores {score:g}, not {above_score:g}",
            ))
        elif place > above_place and score > above_score:
            problems.append(PlaceProblem(
                index,
                f"place {place:g} scores {score:g}, more than {above_score:g} at place "
                f"{above_place:g}",
            ))
    return problems


class RankedRow(Protocol):
    """A unit's row as a ranking lists it, before its place is resolved."""

    @property
    def number(self) -> int: ...
    @property
    def place_text(self) -> str: ...
    @property
    def written(self) -> WrittenPlace | None: ...
    @property
    def score(self) -> float | None: ...


_R = TypeVar("_R", bound=RankedRow)


def checked_places(
    rows: Sequence[_R],
    log: IssueLog,
    *,
    table: str,
    place_column: str,
    score_column: str,
    name: Callable[[_R], str],
) -> list[Place]:
    """The rows' places (:func:`shared_places`), reporting odd places and places that
    contradict the scores (:func:`order_problems`) as :class:`InconsistentResult` issues;
    ``name(row)`` says which unit a score problem is about (``"pair 7"``)."""
    places, problems = shared_places([r.written for r in rows])
    for problem in problems:
        row = rows[problem.index]
        log.report(InconsistentResult(
            problem.message, table=table, row=row.number, column=place_column,
            value=row.place_text,
        ))
    for problem in order_problems(places, [r.score for r in rows]):
        row = rows[problem.index]
        log.report(InconsistentResult(
            f"{name(row)}: {problem.message}", table=table, row=row.number,
            column=score_column, value=row.score,
        ))
    return places


class UnitRow(RankedRow, Protocol):
    """A ranked row that carries its unit: the label as written and the players."""

    @property
    def label(self) -> str: ...
    @property
    def players(self) -> tuple[PlayerAsWritten, ...]: ...


_U = TypeVar("_U", bound=UnitRow)


def ranked_units(rows: Sequence[_U], log: IssueLog, *, table: str, place_column: str,
                 score_column: str, unit: str) -> tuple[Unit, ...]:
    """The rows as units, with shared places for ties (:func:`checked_places`: odd places and
    places contradicting scores are noted, naming the unit as ``"<unit> <label>"``)."""
    places = checked_places(rows, log, table=table, place_column=place_column,
                            score_column=score_column, name=lambda row: f"{unit} {row.label}")
    return tuple(
        Unit(place=place, place_text=row.place_text, label=row.label, score=row.score,
             players=row.players)
        for place, row in zip(places, rows, strict=True)
    )


def units_by_score(rows: Sequence[tuple[float, str, tuple[PlayerAsWritten, ...]]], *,
                   place_text: bool = True) -> tuple[Unit, ...]:
    """Units placed by their scores, best first; equal scores share the mean of the places
    they occupy (``1-2`` written as their place when ``place_text``). ``rows``: (score, label,
    players). For the files whose written ranks are not the finishing order (ACBLscore's
    masterpoint ranks) or that write none (a print in finishing order)."""
    ordered = sorted(rows, key=lambda row: -row[0])
    units: list[Unit] = []
    index = 0
    while index < len(ordered):
        end = index
        while end + 1 < len(ordered) and ordered[end + 1][0] == ordered[index][0]:
            end += 1
        place = (index + end) / 2 + 1
        text = "" if not place_text else (
            str(index + 1) if end == index else f"{index + 1}-{end + 1}")
        units.extend(Unit(place=place, place_text=text, label=label, score=score,
                          players=players) for score, label, players in ordered[index:end + 1])
        index = end + 1
    return tuple(units)
