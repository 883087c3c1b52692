"""The same results written twice: finding the event in force that a new event renders again.

A club publishes one night as a text report, a web page and a phone page; a scoring program
exports the same session as USEBIO beside the club's CSV. Each file is read on its own, so the
same event arrives several times, under titles and organisers that may differ with the
program. Two events are **the same results** when they are of one game and kind, on one date,
in the same round and segment, and every ranked unit of one stands at the same place with the
same players (names compared as identity compares them, ``parsers.names.name_key``) in the
other. Such an event is stored as a second rendering (``event_twins``), never counted again.

Two events of one date and organiser whose players mostly overlap but whose results differ are
a **near match**: the second waits for a person (a held correction) with the difference shown.

docs/rules/inputs.md ("One night, many files") says the same for a reader.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from parsers import Event
from parsers.names import name_key

__all__ = [
    "Print", "differences", "near_match", "organiser_key", "print_of", "same_results",
    "identical", "stored_print", "taken_over", "with_members",
]

NEAR_OVERLAP = 0.8
"""Share of the players of the smaller event that the other must hold too for a near match."""
NEAR_MIN_UNITS = 4
"""Events with fewer ranked units (a go game, a preferans table) are never near matches: the
same players meet again the same day."""


def organiser_key(text: str) -> str:
    """An organiser as compared here: letters and digits, case folded."""
    return re.sub(r"[\W_]+", "", text.casefold())


@dataclass(frozen=True, slots=True)
class Print:
    """What decides whether two events are the same results."""

    game: str
    kind: str
    scoring: str
    date: dt.date
    round: int | None
    segment: int | None
    organiser: str
    """``organiser_key`` of the organiser."""
    section: str
    n_units: int
    units: tuple[tuple[float | None, frozenset[str]], ...]
    """(place, the players' name keys) of every unit with players, sorted."""
    members: tuple[tuple[tuple[str, int | None, str | None], ...], ...] = ()
    """Per unit of ``units`` (same order): (name key, player id, review key) of each member, of
    an event already stored: the players a second rendering takes over."""
    scores: tuple[float | None, ...] = ()
    """Per unit of ``units`` (same order): its score, rounded to hundredths."""
    boards: int | None = None
    seats: tuple[tuple[int, tuple[str, ...]], ...] = field(default=(), compare=False,
                                                          repr=False)
    """Of a parsed event's print, per unit of ``units`` (same order): its index in the event's
    units and its players' name keys in seat order, so that the members are added without
    reading and sorting the units again (:func:`with_members`); not part of what is compared."""

    @property
    def players(self) -> frozenset[str]:
        return frozenset(k for _, keys in self.units for k in keys)


def _place(value: float | None) -> float | None:
    return None if value is None else round(float(value), 2)


_Member = tuple[str, int | None, str | None]
"""(name key, player id, review key) of one member."""


def _columns(units: list[tuple[float | None, frozenset[str], tuple[_Member, ...], float | None]],
             ) -> tuple[tuple[tuple[float | None, frozenset[str]], ...],
                        tuple[tuple[_Member, ...], ...], tuple[float | None, ...]]:
    """(place, keys, members, score) of each unit, sorted the one way both prints sort them,
    as the three columns of a :class:`Print`: units, members, scores."""
    units = sorted(units, key=lambda u: (u[0] is None, u[0] or 0.0, sorted(u[1])))
    return (tuple((p, k) for p, k, _, _ in units), tuple(m for _, _, m, _ in units),
            tuple(sc for _, _, _, sc in units))


def print_of(ev: Event, resolved: Sequence[Sequence[tuple[int, str | None]]] | None = None,
             ) -> Print:
    """The print of a parsed event; with ``resolved`` (per unit, (player id, review key) of
    each player, as the loader resolved them) it carries the members too."""
    units: list[tuple[tuple[bool, float, list[str]], tuple[int, tuple[str, ...]],
                      float | None, frozenset[str], float | None]] = []
    for index, u in enumerate(ev.units):
        if not u.players:
            continue
        seated = tuple([name_key(p.name) for p in u.players])
        keys = frozenset(seated)
        place = _place(u.place)
        # the order _columns sorts in: place (None last), then the players' keys
        units.append(((place is None, place or 0.0, sorted(keys)), (index, seated), place,
                      keys, _place(u.score)))
    units.sort(key=lambda u: u[0])
    found = Print(ev.game, ev.kind, ev.scoring, ev.date, ev.round, ev.segment,
                  organiser_key(ev.organiser), ev.section, len(ev.units),
                  tuple((place, keys) for _, _, place, keys, _ in units), (),
                  tuple(score for *_, score in units), ev.boards,
                  tuple(seats for _, seats, *_ in units))
    return found if resolved is None else with_members(found, resolved)


def with_members(found: Print,
                 resolved: Sequence[Sequence[tuple[int, str | None]]]) -> Print:
    """``found`` (``print_of(ev)``) carrying the members ``resolved`` (per unit of ``ev``,
    (player id, review key) of each player): ``print_of(ev, resolved)`` without reading and
    sorting the event's units again."""
    members = tuple(
        tuple([(key, pid, rk) for key, (pid, rk) in zip(keys, resolved[index], strict=True)])
        for index, keys in found.seats)
    return dataclasses.replace(found, members=members)


def stored_print(head: Sequence[object], rows: Sequence[Sequence[object]]) -> Print:
    """The print of a stored event: ``head`` = (game, kind, scoring, event_date, round,
    segment, organiser, section, n_units, boards); ``rows`` = (unit_no, place, score,
    name_as_written, player_id, review_key) of its members."""
    by_unit: dict[int, tuple[float | None, float | None, list[_Member]]] = {}
    for unit_no, place, score, name, player_id, review_key in rows:
        entry = by_unit.setdefault(int(unit_no),  # type: ignore[call-overload]
                                   (_place(place), _place(score), []))  # type: ignore[arg-type]
        entry[2].append((name_key(str(name)),
                         None if player_id is None else int(player_id),  # type: ignore[call-overload]
                         None if review_key is None else str(review_key)))
    places, members, scores = _columns(
        [(place, frozenset(k for k, _, _ in found), tuple(found), score)
         for place, score, found in by_unit.values()])
    game, kind, scoring, date, rnd, segment, organiser, section, n_units, boards = head
    day = date if isinstance(date, dt.date) else dt.date.fromisoformat(str(date)[:10])
    return Print(str(game), str(kind), str(scoring), day,
                 None if rnd is None else int(rnd),  # type: ignore[call-overload]
                 None if segment is None else int(segment),  # type: ignore[call-overload]
                 organiser_key(str(organiser)), str(section), int(n_units),  # type: ignore[call-overload]
                 places, members, scores,
                 None if boards is None else int(boards))  # type: ignore[call-overload]


def _comparable(a: Print, b: Print) -> bool:
    return ((a.game, a.kind, a.scoring, a.date, a.round, a.segment)
            == (b.game, b.kind, b.scoring, b.date, b.round, b.segment))


def same_results(new: Print, old: Print) -> bool:
    """Every ranked unit of one stands at the same place with the same players in the other
    (at least two units with players; the organiser and title may differ)."""
    return (_comparable(new, old) and new.n_units == old.n_units and len(new.units) >= 2
            and new.units == old.units)


def identical(new: Print, old: Print) -> bool:
    """The same results with the same scores and boards: a new version of an event that
    changes nothing (a re-saved file) rather than a correction."""
    return same_results(new, old) and new.scores == old.scores and new.boards == old.boards


def near_match(new: Print, old: Print) -> bool:
    """Same night, same organiser (or one not named) and section, most players shared, but
    not the same results: a rendering that disagrees."""
    if not _comparable(new, old) or same_results(new, old):
        return False
    if min(len(new.units), len(old.units)) < NEAR_MIN_UNITS:
        return False
    if new.organiser and old.organiser and new.organiser != old.organiser:
        return False
    if new.section.casefold() != old.section.casefold():
        return False
    a, b = new.players, old.players
    return bool(a and b) and len(a & b) >= NEAR_OVERLAP * min(len(a), len(b))


def differences(new: Print, old: Print, shown: int = 6) -> str:
    """What differs, in a line: units, and the players whose place differs."""
    parts: list[str] = []
    if new.n_units != old.n_units:
        parts.append(f"{new.n_units} units where the event in force has {old.n_units}")
    at_new = {k: p for p, keys in new.units for k in keys}
    at_old = {k: p for p, keys in old.units for k in keys}
    moved = sorted(k for k in at_new.keys() & at_old.keys() if at_new[k] != at_old[k])
    if moved:
        text = ", ".join(f"{k} {_fmt(at_old[k])}->{_fmt(at_new[k])}" for k in moved[:shown])
        more = f" and {len(moved) - shown} more" if len(moved) > shown else ""
        parts.append(f"places differ: {text}{more}")
    only_new, only_old = sorted(at_new.keys() - at_old.keys()), sorted(at_old.keys() - at_new.keys())
    if only_old:
        parts.append(f"only in force: {', '.join(only_old[:shown])}"
                     + (f" and {len(only_old) - shown} more" if len(only_old) > shown else ""))
    if only_new:
        parts.append(f"only new: {', '.join(only_new[:shown])}"
                     + (f" and {len(only_new) - shown} more" if len(only_new) > shown else ""))
    return "; ".join(parts) or "scores or labels differ"


def _fmt(place: float | None) -> str:
    if place is None:
        return "-"
    return str(int(place)) if float(place).is_integer() else f"{place:g}"


def taken_over(ev: Event, old: Print) -> list[list[tuple[int, str | None]]]:
    """(player id, review key) for every player of ``ev``, taken from the same player of the
    stored event ``old`` it renders again (``same_results(print_of(ev), old)`` holds)."""
    by_unit = {(place, keys): list(members) for (place, keys), members
               in zip(old.units, old.members, strict=True)}
    out: list[list[tuple[int, str | None]]] = []
    for u in ev.units:
        if not u.players:
            out.append([])
            continue
        keys = [name_key(p.name) for p in u.players]
        members = by_unit[(_place(u.place), frozenset(keys))]
        seats: list[tuple[int, str | None]] = []
        for key in keys:
            at = next(i for i, m in enumerate(members) if m[0] == key)
            _, player_id, review_key = members.pop(at)
            seats.append((int(player_id), review_key))  # type: ignore[arg-type]
        out.append(seats)
    return out
