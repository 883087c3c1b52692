"""The federation simulator: players with a latent strength, clubs, partnerships and events.

docs/rules/simulation.md, "Using it to test rating schemes": a simulated federation with players of
known (latent) strength, clubs that rarely meet, partnerships that change, newcomers and
leavers, weekly club events and occasional inter-club congresses, over years. :func:`simulate`
turns a :class:`FederationSettings` (or the name of one of :data:`PRESETS`) into a
:class:`quality.model.Simulation`: the results frame the schemes rate plus the truth behind it.
:func:`write_files` writes the results as CSV-template files (docs/csv-template.md), one per
club per month, so the whole pipeline can be run on a simulated federation.

The model
---------
**Strength.** Every club ``c`` has a mean strength ``m_c`` (drawn from
``N(500, club_sd)`` on the BELO scale, 500 = average); a founding member's strength is drawn
from ``N(m_c, player_sd)``. Strength is constant within a calendar quarter and follows a random
walk between quarters (``N(0, drift_sd)`` per quarter). A newcomer starts at
``N(m_c - newcomer_gap, player_sd)`` (newcomers are weaker on average) and improves by
``newcomer_growth`` per quarter for their first ``growth_quarters`` quarters.

*Learning curves* (``learning_gain`` > 0, the ``learning-curves`` preset): every newcomer also
draws a gain ``g`` from ``N(learning_gain, learning_gain_sd)`` (negative draws count as 0) and,
``k`` whole quarters after the quarter they joined, is ``g * (1 - exp(-k / learning_tau))``
above where the rest of the model puts them: fast improvement at first that levels off (with
``learning_tau`` 3, two thirds of the gain in the first three quarters, 93% after two years).
Founding members have no learning curve.

*Sudden jumps* (``jump_rate`` > 0, the ``sudden-jumps`` preset): every quarter after the first,
each player improves by a class with probability ``1 - (1 - jump_rate) ** (1 / 4)`` (so
``jump_rate`` a year): their strength rises by a uniform draw from ``jump_size`` between one
quarter and the next, on top of the drift, and stays there. A player may jump again later.

**Membership.** Every quarter each member leaves with probability ``leaver_rate`` (on a uniform
day of the quarter, never in the quarter they joined) and each club gains
``Poisson(newcomer_rate * members)`` newcomers (on a uniform day of the quarter).

**Events.** Every club holds ``club_events_per_week`` events a week, attended by each member
with probability ``club_attendance``; every ``congress_every_weeks`` weeks there is an
inter-club congress attended by each active player of the federation with probability
``congress_attendance``. A regular partnership whose two players may both come decides once:
both come or neither. An event is a teams event with probability ``teams_share`` (a team is
two pairs; needs at least three teams), else a pairs event. Events with fewer than three units
are not held. The ``two-clubs`` preset replaces this calendar by the seed's experiment: every
club plays ``intra_club_events`` weekly events of its own, then everybody plays
``inter_club_events`` weekly inter-club events.

**Partnerships.** Every player has a regular partner most of the time. At each event a regular
partnership whose two players both attend breaks with probability ``partner_change``; the
attending players without their partner are paired at random, and a pair of two players who
both had no regular partner (a broken partnership, a newcomer, a partner who left) and belong
to the same club becomes a regular partnership. A player whose partner is only absent plays
with a stand-in and keeps the partner. An odd player out joins a random pair as its substitute
(a pair of three, docs/rules/inputs.md). A team is two pairs (three when the number of pairs is odd).

**Results.** A unit's performance in an event is the mean latent strength of its players plus
normal noise of standard deviation ``noise``, or ``noise * sqrt(24 / boards)`` with
``board_effect`` (more boards, less luck). Performances are rounded to ``tie_step`` (0: not
rounded) so that ties happen now and then; the places are the ranks of the performances within
the event, 1 = best, tied units sharing the mean of their places (the results contract of
:mod:`ratings`).

*Partnership play* (``synergy`` > 0 or ``strong_weight`` other than 0.5, the ``partnerships``
preset): a pair does not play at the mean of its two players. Each of the two seated partners
counts at their strength plus the pair's adjustment
``(strong_weight - 0.5) * |a - b| + synergy * min(1, n / synergy_events)``, where ``a`` and
``b`` are the two strengths in the event's quarter and ``n`` is the number of earlier events
in which these two players sat together as a pair (in pairs or teams events, regular partners
or not). So a pair plays at ``strong_weight * max(a, b) + (1 - strong_weight) * min(a, b)``
plus a bonus that grows linearly with the events they have played together, up to
``synergy`` after ``synergy_events`` of them; a substitute (the third player of a pair) counts
at their strength alone, and a team at the mean over its seats as before. The latent strength
(``Simulation.strength``, the truth the schemes are scored against) stays the individual
player's strength: the partnership effect is in the performance only.

Everything is drawn from one ``numpy.random.Generator`` seeded with the seed, so a seed gives the
same simulation on every run.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd
from rapidfuzz import fuzz, process

from parsers.names import name_key

from .metrics import places_in_groups
from .model import Simulation

__all__ = [
    "CSV_COLUMNS",
    "FEDERATION_ORGANISER",
    "PRESETS",
    "FederationSettings",
    "club_names",
    "player_names",
    "simulate",
    "write_files",
]

Ints: TypeAlias = npt.NDArray[np.int64]
Floats: TypeAlias = npt.NDArray[np.float64]
Bools: TypeAlias = npt.NDArray[np.bool_]

CSV_COLUMNS = (
    "event", "date", "kind", "scoring", "boards", "unit", "place", "player", "club", "organiser",
)
"""Columns of the files :func:`write_files` writes (docs/csv-template.md)."""
FEDERATION_ORGANISER = "Sim Federation"
"""Organiser written for inter-club congresses (their ``club`` in ``events`` is ``""``)."""

_MIN_UNITS = 3  # docs/rules/bridge-belo.md §5: an event needs at least three rated units
_REFERENCE_BOARDS = 24.0  # board effect: sd = noise * sqrt(24 / boards)
_DAYS = np.timedelta64(1, "D")


@dataclass(frozen=True)
class FederationSettings:
    """Everything a simulated federation is made of; see the module docstring for the model."""

    clubs: int = 8
    players_per_club: tuple[int, int] = (25, 50)
    """Founding members per club, drawn uniformly from this inclusive range."""
    years: int = 4
    start: dt.date = dt.date(2016, 1, 1)
    club_sd: float = 40.0
    """Spread of the clubs' mean strengths around 500 (BELO scale)."""
    player_sd: float = 80.0
    """Spread of the players' strengths around their club's mean."""
    fixed_strengths: tuple[tuple[float, ...], ...] | None = None
    """Explicit founding strengths, one tuple per club (overrides clubs, players_per_club and
    the two spreads)."""
    drift_sd: float = 8.0
    """Standard deviation of the quarterly random walk of every player's strength."""
    partner_change: float = 0.1
    """Probability per event that a regular partnership playing together breaks up."""
    newcomer_rate: float = 0.03
    """Expected newcomers per member per quarter."""
    leaver_rate: float = 0.03
    """Probability per quarter that a member leaves."""
    newcomer_gap: float = 80.0
    """How much weaker than their club's mean newcomers start, on average."""
    newcomer_growth: float = 10.0
    """Strength a newcomer gains per quarter during their first ``growth_quarters``."""
    growth_quarters: int = 8
    learning_gain: float = 0.0
    """Mean total gain of a newcomer's learning curve (0: no learning curves, no draws)."""
    learning_gain_sd: float = 0.0
    """Spread of the newcomers' learning-curve gains (negative draws count as 0)."""
    learning_tau: float = 3.0
    """Quarters the learning curve takes to reach 63% (1 - 1/e) of a newcomer's gain."""
    jump_rate: float = 0.0
    """Probability per year that a player improves by a class within one quarter (0: none)."""
    jump_size: tuple[float, float] = (100.0, 150.0)
    """Strength a jump adds, drawn uniformly from this range."""
    club_events_per_week: int = 1
    club_attendance: float = 0.5
    """Share of a club's members attending one of its events."""
    congress_every_weeks: int = 4
    """Weeks between inter-club congresses (0: none)."""
    congress_attendance: float = 0.3
    """Share of the federation's active players attending a congress."""
    teams_share: float = 0.15
    """Share of events played as teams (a team is two pairs)."""
    boards: tuple[int, int] = (20, 28)
    """Boards of a club event, drawn uniformly from this inclusive range."""
    congress_boards: tuple[int, int] = (40, 54)
    noise: float = 100.0
    """Standard deviation of a unit's performance around its mean strength (luck per event)."""
    board_effect: bool = True
    """Scale the noise by sqrt(24 / boards): more boards, less luck."""
    tie_step: float = 1.0
    """Performances are rounded to this step before ranking (0: no rounding, no ties)."""
    synergy: float = 0.0
    """Bonus of a pair that has played ``synergy_events`` events together (0: none)."""
    synergy_events: int = 40
    """Events together after which a pair plays with the full ``synergy`` (a linear ramp)."""
    strong_weight: float = 0.5
    """Weight of the stronger partner in a pair's strength (0.5: the mean of the two)."""
    intra_club_events: int | None = None
    """With ``inter_club_events``: the seed's experiment schedule instead of the calendar."""
    inter_club_events: int | None = None
    initial_rating: float | None = None
    """The rating every player starts from in the schemes (None: the scheme's own rule)."""
    seed: int = 1

    def __post_init__(self) -> None:
        for name in ("partner_change", "leaver_rate", "club_attendance",
                     "congress_attendance", "teams_share", "jump_rate", "strong_weight"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
        for name in ("club_sd", "player_sd", "drift_sd", "newcomer_rate", "noise", "tie_step",
                     "learning_gain", "learning_gain_sd", "synergy"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)!r}")
        if self.learning_tau <= 0:
            raise ValueError(f"learning_tau must be positive, got {self.learning_tau!r}")
        if self.synergy_events < 1:
            raise ValueError(f"synergy_events must be at least 1, got {self.synergy_events!r}")
        low_jump, high_jump = self.jump_size
        if not 0 <= low_jump <= high_jump:
            raise ValueError(
                f"jump_size must be a range 0 <= low <= high, got {self.jump_size!r}")
        for name in ("players_per_club", "boards", "congress_boards"):
            low, high = getattr(self, name)
            if not 1 <= low <= high:
                raise ValueError(f"{name} must be a range 1 <= low <= high, got {(low, high)!r}")
        if self.clubs < 1 or self.years < 1 or self.club_events_per_week < 0:
            raise ValueError("clubs and years must be positive, club_events_per_week >= 0")
        if (self.intra_club_events is None) != (self.inter_club_events is None):
            raise ValueError("intra_club_events and inter_club_events go together")

    @property
    def experiment(self) -> bool:
        """The seed's two-phase schedule (club events, then inter-club events)."""
        return self.intra_club_events is not None

    @property
    def club_count(self) -> int:
        """Number of clubs (the number of ``fixed_strengths`` tuples when given)."""
        return len(self.fixed_strengths) if self.fixed_strengths is not None else self.clubs

    @property
    def partnership_play(self) -> bool:
        """A pair plays other than at the mean of its two players (module docstring)."""
        return self.synergy > 0 or self.strong_weight != 0.5


def _spaced(high: float, low: float, step: float) -> tuple[float, ...]:
    count = round((high - low) / step) + 1
    return tuple(float(high - i * step) for i in range(count))


PRESETS: dict[str, FederationSettings] = {
    # docs/rules/simulation.md, last paragraph; seed 004 ("Čo vlastne tento rating meria?"): club A
    # with players of true rating 750, 740, ..., 660 (ten players; the seed's list ends
    # "670 a 680", read as 660), club B with 600, 590, ..., 400 (21 players), everyone starting
    # at 500, twenty tournaments in each club, then inter-club events (40 here). Pairs only,
    # everybody plays every event; less luck than the federation (noise 60) so that the
    # question is about how ratings flow between clubs rather than about single results.
    "two-clubs": FederationSettings(
        fixed_strengths=(_spaced(750, 660, 10), _spaced(600, 400, 10)),
        drift_sd=0.0, newcomer_rate=0.0, leaver_rate=0.0, newcomer_growth=0.0,
        club_attendance=1.0, congress_attendance=1.0, teams_share=0.0,
        boards=(24, 24), congress_boards=(24, 24), noise=60.0,
        intra_club_events=20, inter_club_events=40, initial_rating=500.0,
    ),
    # A small federation: 8 clubs, about 300 players, 4 years.
    "federation": FederationSettings(),
    # A larger federation for benchmarks: 40 clubs, about 2000 players, 5 years.
    "national": FederationSettings(
        clubs=40, players_per_club=(20, 80), years=5, congress_attendance=0.15,
    ),
    # A federation's whole archive, for the backfill benchmark: 140 clubs over 15 years (about
    # 25,000 club files and 3 million player-results, ten times the national preset); a
    # twentieth of the players at each congress keeps congresses the national size.
    "national-archive": FederationSettings(
        clubs=140, players_per_club=(20, 80), years=15, start=dt.date(2010, 1, 1),
        congress_attendance=0.05,
    ),
    # Worlds that differ from the federation in one way each, so that no scheme wins by
    # matching one simulator. Learning curves: many newcomers (4% of the members a quarter,
    # about 15% a year, as many leaving), starting 180 below their club's mean and gaining
    # about 200 (sd 50) on a curve with tau 3 quarters: two thirds in the first three
    # quarters, 93% after two years; no linear growth. 8 clubs, 4 years.
    "learning-curves": FederationSettings(
        newcomer_rate=0.04, leaver_rate=0.04, newcomer_gap=180.0, newcomer_growth=0.0,
        learning_gain=200.0, learning_gain_sd=50.0, learning_tau=3.0,
    ),
    # Sudden jumps: 8% of the players a year improve by a class (100-150) from one quarter to
    # the next; otherwise the federation. 8 clubs, 4 years.
    "sudden-jumps": FederationSettings(jump_rate=0.08, jump_size=(100.0, 150.0)),
    # Partnership play: a pair plays at 0.65 * the stronger + 0.35 * the weaker partner plus
    # up to 70 for the events the two have played together (full after 40, about a year and a
    # half of a regular partnership); partnerships change less often than in the federation.
    # 8 clubs, 4 years.
    "partnerships": FederationSettings(
        partner_change=0.05, synergy=70.0, synergy_events=40, strong_weight=0.65,
    ),
    # An independent-style federation with the ordinary model and its own sizes: 12 clubs of
    # 40-60 founders (about 600 members at a time), 3 years, more spread between and within
    # clubs, newcomers 120 weaker improving by 15 a quarter for two years, fewer congresses
    # (every six weeks, a fifth of the players), fewer teams events, a little more luck.
    "twelve-clubs": FederationSettings(
        clubs=12, players_per_club=(40, 60), years=3, club_sd=50.0, player_sd=90.0,
        drift_sd=10.0, partner_change=0.15, newcomer_rate=0.04, leaver_rate=0.04,
        newcomer_gap=120.0, newcomer_growth=15.0, club_attendance=0.45,
        congress_every_weeks=6, congress_attendance=0.2, teams_share=0.1, noise=110.0,
    ),
}
"""The named settings :func:`simulate` accepts (kebab-case names)."""


# --- calendar -------------------------------------------------------------------------------


def _day(date: dt.date) -> np.datetime64:
    return np.datetime64(date.isoformat(), "D")


def _quarter_of(days: npt.NDArray[np.datetime64]) -> Ints:
    """Absolute calendar quarter number (year * 4 + quarter - 1) of each day."""
    months = days.astype("datetime64[M]").astype(np.int64)  # months since 1970-01
    return (months // 3).astype(np.int64)


def _quarter_start(quarter: int) -> np.datetime64:
    return np.array(quarter * 3, dtype="datetime64[M]").astype("datetime64[D]")[()]


def _end_day(s: FederationSettings) -> np.datetime64:
    """The first day after the simulation."""
    start = _day(s.start)
    if s.experiment:
        weeks = int(s.intra_club_events or 0) + int(s.inter_club_events or 0)
        return start + np.timedelta64(7 * weeks, "D")
    try:
        end = s.start.replace(year=s.start.year + s.years)
    except ValueError:  # 29 February
        end = s.start.replace(year=s.start.year + s.years, day=28)
    return _day(end)


# --- members --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Members:
    club: Ints
    joined: npt.NDArray[np.datetime64]
    left: npt.NDArray[np.datetime64]  # first day no longer a member; NaT while active at the end
    strength: Floats  # players x quarters (relative to the first quarter)
    first_quarter: int  # absolute quarter number of column 0


def _founders(rng: np.random.Generator, s: FederationSettings) -> tuple[Ints, Floats, Floats]:
    """Club and strength of the founding members, and every club's mean strength."""
    if s.fixed_strengths is not None:
        sizes = np.array([len(c) for c in s.fixed_strengths], dtype=np.int64)
        strength = np.array([x for c in s.fixed_strengths for x in c], dtype=np.float64)
        means = np.array([np.mean(c) for c in s.fixed_strengths], dtype=np.float64)
        return np.repeat(np.arange(len(sizes)), sizes), strength, means
    low, high = s.players_per_club
    sizes = rng.integers(low, high + 1, s.clubs)
    means = rng.normal(500.0, s.club_sd, s.clubs)
    club = np.repeat(np.arange(s.clubs), sizes).astype(np.int64)
    return club, rng.normal(means[club], s.player_sd), means


def _curve_step(k: Ints, tau: float) -> Floats:
    """Share of the learning-curve gain earned from quarter ``k - 1`` to ``k`` after joining:
    ``exp(-(k - 1) / tau) - exp(-k / tau)``, 0 for ``k <= 0`` (not yet a member)."""
    k = np.asarray(k, dtype=np.float64)
    return np.where(k > 0, np.exp(-np.maximum(k - 1, 0) / tau) - np.exp(-np.maximum(k, 0) / tau),
                    0.0)


def _members(rng: np.random.Generator, s: FederationSettings) -> _Members:
    """Founders, then quarter by quarter: drift, newcomer growth, leavers and newcomers."""
    start, end = _day(s.start), _end_day(s)
    q0 = int(_quarter_of(np.array([start]))[0])
    quarters = int(_quarter_of(np.array([end - _DAYS]))[0]) - q0 + 1
    club, first, means = _founders(rng, s)
    clubs = len(means)
    joined = np.full(len(club), start)
    join_q = np.zeros(len(club), dtype=np.int64)
    newcomer = np.zeros(len(club), dtype=bool)
    gain = np.zeros(len(club))  # learning-curve gain (founders: none)
    left = np.full(len(club), np.datetime64("NaT", "D"))
    columns = [first]
    jump_chance = 1.0 - (1.0 - s.jump_rate) ** 0.25  # per quarter
    for q in range(quarters):
        lo = max(_quarter_start(q0 + q), start)
        hi = min(_quarter_start(q0 + q + 1), end)
        span = int((hi - lo) / _DAYS)
        if q > 0:
            previous = columns[-1]
            n = len(previous)
            growing = newcomer[:n] & ((q - join_q[:n]) <= s.growth_quarters)
            step = rng.normal(0.0, s.drift_sd, len(previous)) if s.drift_sd > 0 else 0.0
            column = previous + step + np.where(growing, s.newcomer_growth, 0.0)
            if s.learning_gain > 0:
                column = column + gain[:n] * _curve_step(q - join_q[:n], s.learning_tau)
            if s.jump_rate > 0:
                jumping = rng.random(n) < jump_chance
                low, high = s.jump_size
                column = column + np.where(jumping, rng.uniform(low, high, n), 0.0)
            columns.append(column)
        # Leavers: members since before this quarter, each with probability leaver_rate.
        active = np.isnat(left) & (join_q < q)
        leaving = active & (rng.random(len(club)) < s.leaver_rate)
        left[leaving] = lo + rng.integers(0, span, int(leaving.sum())) * _DAYS
        # Newcomers: Poisson(newcomer_rate * members) per club, weaker on average.
        members = np.bincount(club[np.isnat(left)], minlength=clubs)
        new = rng.poisson(s.newcomer_rate * members) if s.newcomer_rate > 0 else members * 0
        new_club = np.repeat(np.arange(clubs), new).astype(np.int64)
        count = len(new_club)
        club = np.r_[club, new_club]
        joined = np.r_[joined, lo + rng.integers(0, span, count) * _DAYS]
        join_q = np.r_[join_q, np.full(count, q)]
        newcomer = np.r_[newcomer, np.ones(count, dtype=bool)]
        left = np.r_[left, np.full(count, np.datetime64("NaT", "D"))]
        columns[-1] = np.r_[
            columns[-1], rng.normal(means[new_club] - s.newcomer_gap, s.player_sd),
        ]
        gain = np.r_[gain, (
            np.maximum(rng.normal(s.learning_gain, s.learning_gain_sd, count), 0.0)
            if s.learning_gain > 0 else np.zeros(count)
        )]
    strength = np.full((len(club), quarters), np.nan)
    for q, column in enumerate(columns):
        strength[: len(column), q] = column
    return _Members(club, joined, left, strength, q0)


# --- schedule -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Schedule:
    day: npt.NDArray[np.datetime64]
    club: Ints  # organising club, -1 for an inter-club event
    teams: Bools
    boards: Ints


def _schedule(rng: np.random.Generator, s: FederationSettings) -> _Schedule:
    """Every event's day and organiser, in chronological order (clubs before congresses)."""
    start, end = _day(s.start), _end_day(s)
    clubs = s.club_count
    if s.experiment:
        intra, inter = int(s.intra_club_events or 0), int(s.inter_club_events or 0)
        club_week = np.repeat(np.arange(intra), clubs)
        club_day = start + club_week * 7 * _DAYS + (np.tile(np.arange(clubs), intra) % 7) * _DAYS
        club_of = np.tile(np.arange(clubs), intra)
        inter_day = start + (intra + np.arange(inter)) * 7 * _DAYS
    else:
        weeks = int(np.ceil((end - start) / _DAYS / 7))
        per_week = s.club_events_per_week
        slot = np.tile(np.repeat(np.arange(clubs), per_week), weeks)
        nth = np.tile(np.tile(np.arange(per_week), clubs), weeks)
        week = np.repeat(np.arange(weeks), clubs * per_week)
        # Club c plays on day c (mod 7) of the week, its further weekly events two days apart.
        club_day = start + (week * 7 + (slot + 2 * nth) % 7) * _DAYS
        club_of = slot
        every = s.congress_every_weeks
        inter_weeks = np.arange(every - 1, weeks, every) if every > 0 else np.arange(0)
        inter_day = start + (inter_weeks * 7 + 5) * _DAYS
    day = np.r_[club_day, inter_day]
    club = np.r_[club_of, np.full(len(inter_day), -1)].astype(np.int64)
    keep = day < end
    day, club = day[keep], club[keep]
    order = np.lexsort((np.where(club < 0, clubs, club), day))
    day, club = day[order], club[order]
    teams = rng.random(len(day)) < s.teams_share
    low, high = np.where(club[:, None] < 0, s.congress_boards, s.boards).T
    boards = rng.integers(low, high + 1).astype(np.int64)
    return _Schedule(day, club, teams, boards)


# --- seating --------------------------------------------------------------------------------


@dataclass
class _Seats:
    """Seats of the held events, appended event by event."""

    event: list[Ints] = dataclasses.field(default_factory=list)
    unit: list[Ints] = dataclasses.field(default_factory=list)
    player: list[Ints] = dataclasses.field(default_factory=list)
    held: list[int] = dataclasses.field(default_factory=list)
    teams: list[bool] = dataclasses.field(default_factory=list)
    # With partnership play only: each seat's partner in its pair (-1 for a substitute) and the
    # number of earlier events the two sat together as a pair.
    mate: list[Ints] = dataclasses.field(default_factory=list)
    together: list[Ints] = dataclasses.field(default_factory=list)


def _pairs(
    rng: np.random.Generator, attend: Ints, partner: Ints, free: Callable[[Ints], Bools],
    club: Ints, change: float,
) -> tuple[Ints, Ints, int]:
    """The pairs of one event (module docstring, "Partnerships"); updates ``partner``.

    Returns the seated players, the pair (0, 1, ...) of each and the number of pairs; the two
    players of a pair are adjacent, a substitute comes last.
    """
    here = np.zeros(len(partner), dtype=bool)
    here[attend] = True
    mate = partner[attend]
    together = (mate >= 0) & here[np.maximum(mate, 0)]
    lead = attend[together & (attend < mate)]
    breaks = rng.random(len(lead)) < change
    partner[partner[lead[breaks]]] = -1
    partner[lead[breaks]] = -1
    kept = lead[~breaks]
    seated = np.zeros(len(partner), dtype=bool)
    seated[kept] = True
    seated[partner[kept]] = True
    pool = rng.permutation(attend[~seated[attend]])
    spare = pool[-1:] if len(pool) % 2 else pool[:0]
    pool = pool[: len(pool) - len(spare)]
    a, b = pool[0::2], pool[1::2]
    new = free(a) & free(b) & (club[a] == club[b])
    partner[a[new]] = b[new]
    partner[b[new]] = a[new]
    order = rng.permutation(len(kept) + len(a))
    first = np.concatenate((kept, a))[order]
    second = np.concatenate((partner[kept], b))[order]
    count = len(first)
    player = np.column_stack((first, second)).ravel()
    pair = np.repeat(np.arange(count, dtype=np.int64), 2)
    if len(spare):
        # docs/rules/inputs.md: a pair may have three players (a substitute).
        player = np.concatenate((player, spare))
        pair = np.concatenate((pair, rng.integers(count, size=1)))
    return player, pair, count


def _attendance(rng: np.random.Generator, active: Ints, partner: Ints, share: float) -> Ints:
    """Who comes: a regular partnership comes together (one draw for both), others alone."""
    here = np.zeros(len(partner), dtype=bool)
    here[active] = True
    mate = partner[active]
    paired = (mate >= 0) & here[np.maximum(mate, 0)]
    # One draw per partnership (at its lower player) and per player without a partner here.
    draws = active[~paired | (active < mate)]
    come = draws[rng.random(len(draws)) < share]
    coming = np.zeros(len(partner), dtype=bool)
    coming[come] = True
    with_mate = come[paired[np.searchsorted(active, come)]]
    coming[partner[with_mate]] = True
    return np.flatnonzero(coming)


def _teams(pair: Ints, count: int) -> Ints:
    """Team of each seat: pairs 0-1, 2-3, ...; with an odd number of pairs the last team has
    three."""
    return np.minimum(pair // 2, count // 2 - 1)


def _seat(rng: np.random.Generator, s: FederationSettings, m: _Members, cal: _Schedule) -> _Seats:
    """Attendance, partnerships and units of every event: one short loop step per event."""
    seats = _Seats()
    partner = np.full(len(m.club), -1, dtype=np.int64)
    by_club = [np.flatnonzero(m.club == c) for c in range(s.club_count)]
    everyone = np.arange(len(m.club))
    left = m.left
    played: dict[tuple[int, int], int] = {}  # events together per pair of players
    for e in range(len(cal.day)):
        day, club = cal.day[e], int(cal.club[e])
        pool = everyone if club < 0 else by_club[club]
        active = pool[(m.joined[pool] <= day) & ~(left[pool] <= day)]
        share = s.congress_attendance if club < 0 else s.club_attendance
        attend = _attendance(rng, active, partner, share)
        if len(attend) < 2 * _MIN_UNITS:
            continue

        def free(players: Ints, day: np.datetime64 = day) -> Bools:
            # No regular partner, or one who has left the federation.
            mate = partner[players]
            return (mate < 0) | (left[np.maximum(mate, 0)] <= day)

        player, unit, count = _pairs(rng, attend, partner, free, m.club, s.partner_change)
        if s.partnership_play:
            mate, together = _together(player, count, played)
        teams = bool(cal.teams[e]) and count >= 2 * _MIN_UNITS
        if teams:
            unit = _teams(unit, count)
        order = np.argsort(unit, kind="stable")
        seats.event.append(np.full(len(player), len(seats.held), dtype=np.int64))
        seats.unit.append(unit[order])
        seats.player.append(player[order])
        seats.held.append(e)
        seats.teams.append(teams)
        if s.partnership_play:
            seats.mate.append(mate[order])
            seats.together.append(together[order])
    return seats


def _together(player: Ints, count: int, played: dict[tuple[int, int], int]) -> tuple[Ints, Ints]:
    """Each seat's partner and the events the two played together before; counts this one.

    ``player`` is the seating of :func:`_pairs` (the two players of pair ``i`` at ``2i`` and
    ``2i + 1``, a substitute last, with partner -1 and 0 events).
    """
    mate = np.full(len(player), -1, dtype=np.int64)
    together = np.zeros(len(player), dtype=np.int64)
    for i in range(count):
        a, b = int(player[2 * i]), int(player[2 * i + 1])
        key = (min(a, b), max(a, b))
        n = played.get(key, 0)
        played[key] = n + 1
        mate[2 * i], mate[2 * i + 1] = b, a
        together[2 * i] = together[2 * i + 1] = n
    return mate, together


# --- places ---------------------------------------------------------------------------------


def _pair_adjustment(
    s: FederationSettings, own: Floats, mate: Floats, together: Ints | Floats,
) -> Floats:
    """What a seated partner adds to their strength in a pair's performance (module docstring,
    "Partnership play"): ``(strong_weight - 0.5) * |own - mate| + synergy * min(1, together /
    synergy_events)``. Both partners get the same, so the pair plays at
    ``strong_weight * max + (1 - strong_weight) * min`` plus the synergy of ``together`` earlier
    events as a pair."""
    own, mate = np.asarray(own, dtype=np.float64), np.asarray(mate, dtype=np.float64)
    ramp = np.minimum(1.0, np.asarray(together, dtype=np.float64) / s.synergy_events)
    return (s.strong_weight - 0.5) * np.abs(own - mate) + s.synergy * ramp


def _places(
    rng: np.random.Generator, s: FederationSettings, event: Ints, unit: Ints, strength: Floats,
    boards: Floats,
) -> Floats:
    """Place of each seat's unit (module docstring, "Results"): 1 = best, ties averaged."""
    key = event * (int(unit.max()) + 1) + unit
    units, seat_unit = np.unique(key, return_inverse=True)
    u_event = units // (int(unit.max()) + 1)
    mean = np.bincount(seat_unit, strength) / np.bincount(seat_unit)
    sd = s.noise * (np.sqrt(_REFERENCE_BOARDS / boards[u_event]) if s.board_effect else 1.0)
    perf = mean + rng.normal(0.0, 1.0, len(units)) * sd
    if s.tie_step > 0:
        perf = np.round(perf / s.tie_step)
    place = places_in_groups(u_event, perf)
    return place[seat_unit]


# --- frames ---------------------------------------------------------------------------------


def club_names(count: int) -> list[str]:
    """Club names: ``Club A``, ``Club B`` for up to two clubs, else ``Club 01``, ``Club 02``..."""
    if count <= 2:
        return [f"Club {chr(ord('A') + i)}" for i in range(count)]
    width = max(2, len(str(count)))
    return [f"Club {i + 1:0{width}d}" for i in range(count)]


def _labels(prefix: str, count: int) -> npt.NDArray[np.object_]:
    width = max(4, len(str(count)))
    return np.array([f"{prefix}{i + 1:0{width}d}" for i in range(count)], dtype=object)


def _periods(days: npt.NDArray[np.datetime64]) -> npt.NDArray[np.object_]:
    quarter = _quarter_of(days)
    return np.array([f"{q // 4 + 1970}Q{q % 4 + 1}" for q in quarter], dtype=object)


def _strength_frame(m: _Members, ids: npt.NDArray[np.object_], end: np.datetime64) -> pd.DataFrame:
    """Strength of every member at the end of every quarter they were a member then."""
    quarters = m.strength.shape[1]
    q_last = np.array([
        min(_quarter_start(m.first_quarter + q + 1), end) - _DAYS for q in range(quarters)
    ])
    member = (m.joined[:, None] <= q_last[None, :]) & ~(m.left[:, None] <= q_last[None, :])
    player, quarter = np.nonzero(member)
    labels = _periods(q_last)
    frame = pd.DataFrame({
        "period": labels[quarter], "player": ids[player],
        "strength": m.strength[player, quarter],
    })
    return frame.sort_values(["period", "player"], ignore_index=True)


def _to_datetime(days: npt.NDArray[np.datetime64]) -> pd.Series:
    return pd.Series(pd.to_datetime(days).astype("datetime64[ns]"))


def simulate(preset: str | FederationSettings, seed: int | None = None) -> Simulation:
    """Simulate a federation; the same settings and seed give the same frames.

    ``preset`` is a name of :data:`PRESETS` or a :class:`FederationSettings`; ``seed``
    (default: the settings' seed, 1) seeds the one ``numpy.random.Generator`` everything is
    drawn from. The result's ``settings`` holds every setting plus ``preset`` (the name,
    ``""`` for explicit settings) and the seed used.
    """
    name = preset if isinstance(preset, str) else ""
    if isinstance(preset, str):
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        settings = PRESETS[preset]
    else:
        settings = preset
    used_seed = settings.seed if seed is None else seed
    settings = dataclasses.replace(settings, seed=used_seed)
    rng = np.random.default_rng(used_seed)
    members = _members(rng, settings)
    cal = _schedule(rng, settings)
    seats = _seat(rng, settings, members, cal)
    return _assemble(rng, name, settings, members, cal, seats)


def _assemble(
    rng: np.random.Generator, name: str, s: FederationSettings, m: _Members, cal: _Schedule,
    seats: _Seats,
) -> Simulation:
    held = np.array(seats.held, dtype=np.int64)
    event = np.concatenate(seats.event) if seats.event else np.zeros(0, np.int64)
    unit = np.concatenate(seats.unit) if seats.unit else np.zeros(0, np.int64)
    player = np.concatenate(seats.player) if seats.player else np.zeros(0, np.int64)
    day = cal.day[held]
    quarter = _quarter_of(day) - m.first_quarter
    boards = cal.boards[held].astype(np.float64)
    strength = m.strength[player, quarter[event]]
    if s.partnership_play and len(event):
        mate = np.concatenate(seats.mate)
        together = np.concatenate(seats.together)
        mate_strength = np.where(
            mate >= 0, m.strength[np.maximum(mate, 0), quarter[event]], strength,
        )
        strength = strength + np.where(
            mate >= 0, _pair_adjustment(s, strength, mate_strength, together), 0.0,
        )
    place = _places(rng, s, event, unit, strength, boards) if len(event) else np.zeros(0)
    teams = np.array(seats.teams, dtype=bool)
    # The last entry is the "club" of an inter-club event (organiser -1 in the schedule).
    clubs = np.array(club_names(s.club_count) + [""], dtype=object)
    ids = _labels("P", len(m.club))
    event_ids = _labels("E", len(held))
    dates = _to_datetime(day)
    results = pd.DataFrame({
        "event_id": event_ids[event],
        "date": dates.to_numpy()[event],
        "kind": np.where(teams, "teams", "pairs").astype(object)[event],
        "scoring": np.where(teams, "IMP", "MP").astype(object)[event],
        "boards": boards[event],
        "unit": (unit + 1).astype(str).astype(object),
        "place": place,
        "player": ids[player],
        "club": clubs[m.club[player]],
    })
    events = pd.DataFrame({
        "event_id": event_ids,
        "date": dates,
        "period": _periods(day),
        "club": clubs[cal.club[held]],
        "inter_club": cal.club[held] < 0,
    })
    players = pd.DataFrame({
        "player": ids,
        "club": clubs[m.club],
        "joined": _to_datetime(m.joined),
        "left": _to_datetime(m.left),
    })
    settings: dict[str, object] = {"preset": name, **dataclasses.asdict(s)}
    return Simulation(
        name=name or "custom", seed=s.seed, results=results,
        strength=_strength_frame(m, ids, _end_day(s)), players=players, events=events,
        settings=settings,
    )


# --- names and files ------------------------------------------------------------------------

_GIVEN = (
    "Adam", "Beata", "Cyril", "Dana", "Emil", "Fedor", "Gita", "Hana", "Igor", "Jana", "Karol",
    "Lenka", "Marek", "Nora", "Oskar", "Petra", "Radim", "Silvia", "Tibor", "Ursula", "Viktor",
    "Zora", "Bohdan", "Dorota", "Erik", "Filip", "Greta", "Ivan", "Kamila", "Ludmila", "Milan",
    "Olga",
)
_ONSETS = (*"bdfgklmnprstvz", "ch", "sk", "tr", "br", "kr", "st", "pl", "dr")
_VOWELS = tuple("aeiouy")
_CODAS = ("", "", "n", "r", "k", "s", "l", "m")
_NAME_SEED = 20120310  # the date of the seed's simulation post; names never depend on a run
_NAME_DISTANCE = 70.0
"""Largest token_sort_ratio two generated names may have: well below the identity layer's
fuzzy review threshold (80), so no two simulated players look like a typo of each other."""


def _name_candidates() -> Iterator[str]:
    rng = np.random.default_rng(_NAME_SEED)
    while True:
        syllables = int(rng.integers(3, 5))
        surname = "".join(
            _ONSETS[int(rng.integers(len(_ONSETS)))] + _VOWELS[int(rng.integers(len(_VOWELS)))]
            + _CODAS[int(rng.integers(len(_CODAS)))]
            for _ in range(syllables)
        )
        yield f"{_GIVEN[int(rng.integers(len(_GIVEN)))]} {surname.capitalize()}"


def player_names(count: int) -> list[str]:
    """``count`` invented full names, the same on every call (a longer list extends a shorter).

    No two share a name key (parsers.names.name_key) and no two are closer than
    ``token_sort_ratio`` 70, so identity resolution keeps every simulated player apart.
    """
    names: list[str] = []
    keys: list[str] = []
    candidates = _name_candidates()
    while len(names) < count:
        name = next(candidates)
        key = name_key(name)
        if keys and process.extractOne(
            key, keys, scorer=fuzz.token_sort_ratio, score_cutoff=_NAME_DISTANCE,
        ) is not None:
            continue
        names.append(name)
        keys.append(key)
    return names


def _place_text(place: pd.Series, event: pd.Series, unit: pd.Series) -> pd.Series:
    """``7`` for a place of its own, ``5-6`` for units tied at 5.5 (docs/csv-template.md)."""
    tied = unit.groupby([event, place]).transform("nunique")
    first = place - (tied - 1) / 2.0
    last = place + (tied - 1) / 2.0
    text = first.round().astype(int).astype(str)
    return text.where(tied == 1, text + "-" + last.round().astype(int).astype(str))


def _slug(text: str) -> str:
    return "-".join(text.lower().split())


def write_files(sim: Simulation, directory: Path) -> list[Path]:
    """Write ``sim.results`` as CSV-template files, one per club per month; return their paths.

    A club's events go to ``<club>_<YYYY-MM>.csv`` (``club-01_2016-03.csv``), inter-club
    congresses to ``sim-federation_<YYYY-MM>.csv`` with organiser :data:`FEDERATION_ORGANISER`.
    The event title starts with the event id (``E0042 Club 01 pairs``); players are written by
    :func:`player_names` in the order of ``sim.players``, with their club. Every row of a unit
    repeats its place (ties as ranges, ``5-6``). Files are UTF-8 with a comma.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    names = dict(zip(sim.players["player"], player_names(len(sim.players))))
    r = sim.results.merge(sim.events[["event_id", "club"]].rename(columns={"club": "host"}),
                          on="event_id", how="left", validate="many_to_one")
    organiser = r["host"].where(r["host"] != "", FEDERATION_ORGANISER)
    rows = pd.DataFrame({
        "event": r["event_id"] + " " + organiser + " " + r["kind"],
        "date": r["date"].dt.strftime("%Y-%m-%d"),
        "kind": r["kind"],
        "scoring": r["scoring"],
        "boards": r["boards"].map(lambda b: "" if math.isnan(b) else str(int(b))),
        "unit": r["unit"],
        "place": _place_text(r["place"], r["event_id"], r["unit"]),
        "player": r["player"].map(names),
        "club": r["club"],
        "organiser": organiser,
        "_order": np.arange(len(r)),
    })
    month = r["date"].dt.strftime("%Y-%m")
    written: list[Path] = []
    for (org, mon), group in rows.groupby([organiser, month], sort=True):
        group = group.assign(_unit=group["unit"].astype(int)).sort_values(
            ["event", "_unit", "_order"], kind="stable",
        )
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        writer.writerows(group[list(CSV_COLUMNS)].itertuples(index=False, name=None))
        path = directory / f"{_slug(str(org))}_{mon}.csv"
        path.write_text(buffer.getvalue(), encoding="utf-8")
        written.append(path)
    return sorted(written)
