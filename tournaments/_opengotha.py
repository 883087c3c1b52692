"""An OpenGotha tournament file as a tournament to run: entrants, pairing settings and the
rounds as played (docs/rules/go-mcmahon-pairing.md "Settings").

The file is read by the one OpenGotha reader, parsers/opengotha.py (``read_setup``: defusedxml,
``[limits]``, the gate's test of names); this module only turns its setup into entrants,
:class:`PairingSettings` and rounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from parsers.opengotha import TournamentSetup, player_key, read_setup

from ._errors import TournamentError
from ._levels import IDEAL
from ._settings import OPENGOTHA_NAMES, PairingSettings, parse_rank
from ._state import Entrant, Game, PlayerId, RoundResults

__all__ = ["OpenGothaTournament", "opengotha_key", "read_opengotha", "tournament_of"]

_PARAMETER_SETS = ("GeneralParameterSet", "PairingParameterSet", "HandicapParameterSet")
"""The parameter sets the settings are read from, in this order (a later one wins)."""


@dataclass(frozen=True, slots=True)
class OpenGothaTournament:
    """What an OpenGotha tournament file holds for us: entrants, settings and the rounds as
    played. ``pairs[n]``: (white, black) of every game of round ``n``; ``results[n]``: the
    round with its results, for rounds whose results are all known."""

    name: str
    rounds: int
    entrants: tuple[Entrant, ...]
    settings: PairingSettings
    pairs: Mapping[int, tuple[tuple[PlayerId, PlayerId], ...]]
    byes: Mapping[int, tuple[PlayerId, ...]]
    results: Mapping[int, RoundResults]


def opengotha_key(family: str, given: str) -> PlayerId:
    """OpenGotha's key of a player: family and given names without spaces, upper case."""
    return player_key(family, given)


def read_opengotha(data: bytes, *, source: str = "") -> OpenGothaTournament:
    """An OpenGotha tournament file (XML) as entrants, pairing settings and played rounds.

    Players are keyed as OpenGotha keys them (:func:`opengotha_key`); their rank is the
    file's ``rank`` (else ``grade``, else 20k), their rating its ``rating`` (else the middle of
    the rank). A file that is no OpenGotha tournament, or one whose elements do not read, is
    the parsers' ``ParseError`` (naming ``source``); :class:`TournamentError` for a file without
    the general or the pairing parameters, or settings that have no meaning.
    """
    return tournament_of(read_setup(data, source=source))


def tournament_of(setup: TournamentSetup) -> OpenGothaTournament:
    """The tournament of an OpenGotha file's setup (:func:`parsers.opengotha.read_setup`)."""
    if not {"GeneralParameterSet", "PairingParameterSet"} <= set(setup.parameters):
        raise TournamentError("OpenGotha file without GeneralParameterSet/PairingParameterSet")
    names: dict[str, str] = {}
    for element in _PARAMETER_SETS:
        for key, value in setup.parameters.get(element, {}).items():
            if key in OPENGOTHA_NAMES:
                names[key] = value
    if setup.placement is not None:
        names["placement"] = ",".join(setup.placement)
    names["system"] = "mcmahon" if "MMS" in names.get("placement", "").split(",") else "swiss"
    settings = PairingSettings.from_names(names)
    entrants = []
    for p in setup.players:
        rank = parse_rank(p.rank or "20k")
        # a rating is kept below the ideal player's, which has no start level
        rating = min(p.rating if p.rating is not None else _rating_of_rank(rank), IDEAL - 1.0)
        entrants.append(Entrant(
            id=p.key, name=f"{p.first_name} {p.surname}".strip(), rating=rating, rank=rank,
            club=p.club, country=p.country, mms_correction=p.mms_correction,
            family=p.surname, given=p.first_name))
    pairs: dict[int, list[tuple[PlayerId, PlayerId]]] = {}
    games: dict[int, list[Game]] = {}
    unknown: set[int] = set()
    for g in setup.games:
        pairs.setdefault(g.round, []).append((g.white, g.black))
        if g.scores is None:
            unknown.add(g.round)
            continue
        games.setdefault(g.round, []).append(Game(
            a=g.white, b=g.black, score_a=g.scores[0], score_b=g.scores[1],
            handicap=g.handicap, played=not g.by_default and g.scores != (0.0, 0.0)))
    byes: dict[int, list[PlayerId]] = {}
    for number, key in setup.byes:
        byes.setdefault(number, []).append(key)
    rounds = setup.rounds or max(pairs, default=1)
    results = {n: RoundResults(games=tuple(games.get(n, ())), byes=tuple(byes.get(n, ())))
               for n in sorted(set(pairs) | set(byes)) if n not in unknown}
    return OpenGothaTournament(
        name=setup.short_name or setup.name, rounds=rounds, entrants=tuple(entrants),
        settings=settings,
        pairs=MappingProxyType({n: tuple(v) for n, v in sorted(pairs.items())}),
        byes=MappingProxyType({n: tuple(v) for n, v in sorted(byes.items())}),
        results=MappingProxyType(results))


def _rating_of_rank(rank: int) -> float:
    """The RFG rating at the middle of a rank (1d = 2100): for a file without ratings."""
    return 2100.0 + 100.0 * rank
