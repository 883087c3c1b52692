"""The options of every rating scheme: one frozen params dataclass per scheme, each option a
field made with ``_options.option`` (its valid values and default declared once, there).

Pure: neither pandas nor numpy. The registry (``_registry.py``) lists the schemes with these
params, and the configuration's check (flows/_schema.py) reads a pool's options through them
when ``clubratings.toml`` is read, before anything is loaded or rated; each scheme's module
imports its params from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from ._errors import OptionError
from ._options import Choice, Date, Number, check_options, option

__all__ = [
    "CENTRE",
    "EGF_MIN_RATING",
    "IDEAL",
    "LEARNABLE",
    "MIN_DISTANCE",
    "SCALE",
    "SHATUN_DEFAULTS",
    "BeloParams",
    "EgfParams",
    "EloParams",
    "Glicko2Params",
    "GradeEvidenceParams",
    "MakarovParams",
    "NonDivergingParams",
    "RfgBootstrapParams",
    "RfgParams",
    "WhrParams",
]

PeriodUnit: TypeAlias = Literal["quarter", "month", "year"]
OnOff: TypeAlias = Literal["on", "off"]


# --- BELO and BELO2 (ratings/_belo.py, docs/rules/bridge-belo.md) ----------------------------

FieldFactor: TypeAlias = Literal["k", "belo2"]
Partner: TypeAlias = Literal["none", "linear", "damped"]
PartnerRating: TypeAlias = Literal["others_mean", "unit_mean"]
BoardWeight: TypeAlias = Literal["linear", "proportional", "none"]
PeriodCombine: TypeAlias = Literal["exponential", "additive"]
PeriodicNormalisation: TypeAlias = Literal["year", "period", "never"]
StartupMethod: TypeAlias = Literal["accelerated", "plain"]
Newcomer: TypeAlias = Literal["flat", "subsidy", "phantom"]
PartnerWeight: TypeAlias = Literal["none", "ratio"]
Abroad: TypeAlias = Literal["exclude", "assumed"]
MatchResult: TypeAlias = Literal["place", "vp_share"]


@dataclass(frozen=True, slots=True)
class BeloParams:
    """Options of the BELO schemes; every field is settable as ``--set name=value``.

    The two registered profiles differ only in ``field``: ``belo`` uses ``k``, ``belo2`` (the
    default profile, docs/rules/bridge-belo.md §3 "Decision") uses ``belo2``.
    """

    field: FieldFactor = option("belo2", Choice(("k", "belo2")))
    """Field factor, docs/rules/bridge-belo.md §3: ``k = Rt/500`` or ``c = Rt^2 / (500 Ru)``."""
    partner: Partner = option("damped", Choice(("none", "linear", "damped")))
    """Partner correction, docs/rules/bridge-belo.md §4: none, formula 6 (linear) or formula 7 (damped)."""
    partner_rating: PartnerRating = option("others_mean", Choice(("others_mean", "unit_mean")))
    """``Rp`` of docs/rules/bridge-belo.md §4: mean of the other members, or mean of the whole unit (2012 post)."""
    partner_weight: PartnerWeight = option("none", Choice(("none", "ratio")))
    """Spec §4 "Vplyv partnera": ``ratio`` multiplies the event weight by ``min(1, Rp / R)``."""
    board_weight: BoardWeight = option("linear", Choice(("linear", "proportional", "none")))
    """Event weight from the number of boards, docs/rules/bridge-belo.md §6 formulas 9 / 10."""
    period: PeriodUnit = option("quarter", Choice(("quarter", "month", "year")))
    """Rating period, docs/rules/bridge-belo.md §8."""
    period_combine: PeriodCombine = option("exponential", Choice(("exponential", "additive")))
    """How a period's contributions are combined, docs/rules/bridge-belo.md §8 "Decision"."""
    event_normalisation: OnOff = option("on", Choice(("on", "off")))
    """Per-event normalisation, docs/rules/bridge-belo.md §9."""
    periodic_normalisation: PeriodicNormalisation = option(
        "year", Choice(("year", "period", "never"))
    )
    """Periodic normalisation to mean 500, docs/rules/bridge-belo.md §9: after each calendar year, each period, never."""
    history: float = option(50.0, Number(integer=False, minimum=1.0))
    """History length ``H``, docs/rules/bridge-belo.md §2. At least 1: below that ``1 - 1/H`` is negative and the
    exponential combination of §8 has no meaning."""
    min_rated_units: int = option(3, Number(integer=True, minimum=1))
    """An event counts only with at least this many units with a rated player, docs/rules/bridge-belo.md §5."""
    abroad: Abroad = option("exclude", Choice(("exclude", "assumed")))
    """Events abroad (results column ``abroad``), docs/rules/bridge-belo.md §5: left out, or rated against the
    assumed field rating of the event (column ``field_rating``, e.g. 550 or 600)."""
    match_result: MatchResult = option("place", Choice(("place", "vp_share")))
    """A league match's contribution, docs/rules/bridge-belo.md §7: by place (750 / 250 / 500) or
    ``1000 VP_own / (VP_own + VP_opp)`` from the units' ``score``."""
    skip_rule: OnOff = option("on", Choice(("on", "off")))
    """Skip an event that could only lower the player's rating even if won, docs/rules/bridge-belo.md §3."""
    newcomer: Newcomer = option("phantom", Choice(("flat", "subsidy", "phantom")))
    """Start rule for players without a rating, docs/rules/bridge-belo.md §10 (default ``phantom``)."""
    subsidy_warn: float = option(0.5, Number(integer=False, minimum=0.0,
                                              minimum_exclusive=True))
    """``subsidy``: warn when one period's subsidy raises a club's players' ratings by more
    than this share (0.5: by half), docs/rules/bridge-belo.md §10."""
    phantom_events: int = option(15, Number(integer=True, minimum=1))
    """Rated events a ``phantom`` newcomer keeps the phantom for, docs/rules/bridge-belo.md §10."""
    cutover: str = option("", Date())
    """Spec §11: results before this date are the history the start ratings are computed
    from (passes to convergence); from it on ratings are computed forward. Empty: no start-up."""
    max_passes: int = option(10, Number(integer=True, minimum=1))
    """Start-up passes at most, docs/rules/bridge-belo.md §11."""
    startup_tolerance: float = option(0.5, Number(integer=False, minimum=0.0,
                                                  minimum_exclusive=True))
    """Start-up stops when no rating changes more than this between passes, docs/rules/bridge-belo.md §11."""
    startup_method: StartupMethod = option("accelerated", Choice(("accelerated", "plain")))
    """How a start-up pass's result becomes the next pass's start values, docs/rules/bridge-belo.md
    §11: ``plain`` takes it as it is (the source's procedure, slow for players with few events);
    ``accelerated`` steps each player towards the value their history points to and extrapolates
    over the last passes (same fixed point, far fewer passes)."""

    def __post_init__(self) -> None:
        check_options(self)


# --- WHR (ratings/_whr.py, docs/rules/bridge-whr.md) ---------------------------------------

Likelihood: TypeAlias = Literal["plackett-luce", "pairwise"]
UnitStrength: TypeAlias = Literal["mean", "sum"]

CENTRE = 500.0
"""Rating of strength 0, the prior mean of a player's first period (docs/rules/bridge-whr.md §7)."""

SCALE = 75.0
"""Default rating points per unit of strength (docs/rules/bridge-whr.md §7)."""

LEARNABLE = ("drift", "prior", "newcomer", "first_year_drift")
"""The constants a pool learns (docs/rules/bridge-whr.md §13), in the order they are searched."""


@dataclass(frozen=True, slots=True)
class WhrParams:
    """Options of WHR (docs/rules/bridge-whr.md §11); every field is settable as
    ``--set name=value``."""

    likelihood: Likelihood = option("plackett-luce", Choice(("plackett-luce", "pairwise")))
    """How an event's places enter, docs/rules/bridge-whr.md §3 (Plackett-Luce) or §4 (pairwise)."""
    unit: UnitStrength = option("mean", Choice(("mean", "sum")))
    """A unit's strength from its rated players' strengths, docs/rules/bridge-whr.md §1."""
    board_weight: BoardWeight = option("linear", Choice(("linear", "proportional", "none")))
    """Event weight from the number of boards: BELO's, docs/rules/bridge-belo.md §6
    (docs/rules/bridge-whr.md §5)."""
    period: PeriodUnit = option("quarter", Choice(("quarter", "month", "year")))
    """The period of one strength, docs/rules/bridge-whr.md §1 and §2."""
    scale: float = option(SCALE, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Rating points per unit of strength, docs/rules/bridge-whr.md §7."""
    prior: float = option(75.0, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Standard deviation of a player's first strength around 500, in rating points,
    docs/rules/bridge-whr.md §2."""
    drift: float = option(7.5, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Standard deviation of a strength's change per period, in rating points,
    docs/rules/bridge-whr.md §2."""
    newcomer: float = option(CENTRE, Number(integer=False, minimum=0.0))
    """Prior mean rating of a newcomer's first period (a player first seen after the first
    period of the history), docs/rules/bridge-whr.md §2."""
    first_year_drift: float = option(0.0, Number(integer=False, minimum=0.0))
    """Standard deviation of a strength's change per period during a player's first year
    (0: ``drift``), docs/rules/bridge-whr.md §2."""
    learn: Literal["on", "off"] = option("on", Choice(("on", "off")))
    """``on``: a pool learns ``drift``, ``prior``, ``newcomer`` and ``first_year_drift`` from
    its own history, except those its configuration sets (docs/rules/bridge-whr.md §13);
    ``off``: the values as set. A single ``rate`` uses the values as set either way."""
    tolerance: float = option(0.01, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """The fit stops when a Newton step changes no rating by this many points,
    docs/rules/bridge-whr.md §6."""
    max_iterations: int = option(50, Number(integer=True, minimum=1))
    """Newton steps at most, docs/rules/bridge-whr.md §6."""

    def __post_init__(self) -> None:
        check_options(self)


# --- RFG (ratings/_rfg.py, docs/rules/go-rfg.md) ---------------------------------------------

Distance: TypeAlias = Literal["geometric", "rms"]

IDEAL = 3000.0
"""Rating of the ideal player (docs/rules/go-rfg.md "Scale")."""

MIN_DISTANCE = 1.0
"""Smallest distance to 3000 the formulas work with: ratings are kept at most 2999, so that
``d``, ``S* = d/4`` and ``D`` stay positive (the spec's formulas divide by them)."""

Provisional: TypeAlias = Literal["rank", "fixed"]
BootstrapFinal: TypeAlias = Literal["interpolate", "recalculate"]


def _check_entry_rating(value: float) -> None:
    if value > IDEAL - MIN_DISTANCE:
        raise OptionError(f"invalid value {value!r} for option 'entry_rating'; valid values: "
                          f"a number below {IDEAL:g}")


@dataclass(frozen=True, slots=True)
class RfgParams:
    """Options of scheme ``rfg`` (docs/rules/go-rfg.md); every field is settable as ``--set``."""

    distance: Distance = option("geometric", Choice(("geometric", "rms")))
    """``D`` of the win probability: geometric mean distance (source text) or the later
    root-mean-square for dan players / 1000 below 2100 (docs/rules/go-rfg.md "Win probability")."""
    decay: OnOff = option("on", Choice(("on", "off")))
    """Time decay of the deviation between periods (docs/rules/go-rfg.md "Time decay"); needs dates."""
    anomaly: OnOff = option("on", Choice(("on", "off")))
    """Anomaly detection and its corrections (docs/rules/go-rfg.md "Anomalous results")."""
    deviation_raise: OnOff = option("on", Choice(("on", "off")))
    """Raise an anomalous player's deviation after the period (docs/rules/go-rfg.md "Anomalous results",
    Decision)."""
    provisional: Provisional = option("rank", Choice(("rank", "fixed")))
    """Provisional rating of a newcomer: the declared grade (games columns ``rank`` /
    ``opponent_rank``) when given, else ``entry_rating``; ``fixed``: always ``entry_rating``."""
    entry_rating: float = option(1400.0, Number(integer=False, minimum=-2000.0))
    """Provisional rating of a newcomer without a declared grade (1400 = 7 kyu)."""
    anchors: OnOff = option("off", Choice(("on", "off")))
    """Subtract the mean change of the anchors from everyone after each period (spec
    "Anchors")."""
    anchor_games: int = option(10, Number(integer=True, minimum=1))
    """Games in the period an anchor needs (docs/rules/go-rfg.md "Anchors", Decision)."""

    def __post_init__(self) -> None:
        check_options(self)
        _check_entry_rating(self.entry_rating)


@dataclass(frozen=True, slots=True)
class RfgBootstrapParams:
    """Options of scheme ``rfg-bootstrap`` (docs/rules/go-rfg.md "Bootstrap")."""

    distance: Distance = option("geometric", Choice(("geometric", "rms")))
    """``D`` of the win probability, as for ``rfg``."""
    dynamic_factor: float = option(4.0, Number(integer=False, minimum=0.0,
                                               minimum_exclusive=True))
    """``K_dyn = dynamic_factor (3000 - R) / 100``; 4 is the source's doubled 2."""
    anomaly: OnOff = option("on", Choice(("on", "off")))
    """Anomaly detection and its corrections, with the bootstrap criterion."""
    provisional: Provisional = option("rank", Choice(("rank", "fixed")))
    """Provisional rating of a newcomer, as for ``rfg``."""
    entry_rating: float = option(1400.0, Number(integer=False, minimum=-2000.0))
    """Provisional rating of a newcomer without a declared grade."""
    final: BootstrapFinal = option("interpolate", Choice(("interpolate", "recalculate")))
    """The last step for a positive anomaly (docs/rules/go-rfg.md "Bootstrap"):
    ``interpolate`` (the start-up text) ends at ``R + (1 - q) K DN + q (R_an - R)``, so a
    player with ``K_an = 1`` ends at ``R_an``; ``recalculate`` corrects the input rating toward
    ``R_an`` and computes the correction from there (the main procedure's reading)."""

    def __post_init__(self) -> None:
        check_options(self)
        _check_entry_rating(self.entry_rating)


# --- go baselines (ratings/_baselines.py) ----------------------------------------------------

EGF_MIN_RATING = -900.0
"""EGF GoR floor: 30 kyu (the EGD extended the floor from 20 to 30 kyu)."""


@dataclass(frozen=True, slots=True)
class EloParams:
    """Options of the Elo baseline; every field is settable as ``--set name=value``."""

    k: float = option(20.0, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """K factor. 20 is the chess-style middle value (FIDE uses 40 / 20 / 10 by experience and
    strength); with a period of several games the changes add up, each game weighs ``k``."""
    scale: float = option(400.0, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Rating difference at which the stronger side is expected to score 10:1."""
    initial: float = option(1500.0, Number(integer=False, minimum=0.0))
    """Start rating of a newcomer who declared no grade (1500 = 6 kyu on the grade scale); one
    who declared a grade starts at its rating on that scale (2d = 2200; docs/rules/go-rfg.md
    "First entry")."""
    handicap_points: float = option(0.0, Number(integer=False, minimum=0.0))
    """Rating points per handicap stone added to black's rating for the expectation only;
    0 ignores handicaps."""

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True, slots=True)
class Glicko2Params:
    """Options of the Glicko-2 baseline (Glickman, "Example of the Glicko-2 system")."""

    tau: float = option(0.5, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """System constant tau (step 1: reasonable between 0.3 and 1.2; the example uses 0.5)."""
    initial: float = option(1500.0, Number(integer=False, minimum=0.0))
    """Start rating of an unrated player who declared no grade (step 1: 1500, a 6 kyu on the
    grade scale); one who declared a grade starts at its rating on that scale (2d = 2200;
    docs/rules/go-rfg.md "First entry"), with the start RD."""
    initial_deviation: float = option(
        350.0, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Start RD of an unrated player (step 1: 350)."""
    initial_volatility: float = option(
        0.06, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Start volatility of an unrated player (step 1: 0.06)."""
    epsilon: float = option(1e-6, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """Convergence tolerance of the volatility iteration (step 5: 0.000001)."""

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True, slots=True)
class EgfParams:
    """Options of the EGF GoR (2021) baseline. A period is one tournament."""

    initial: float = option(0.0, Number(integer=False, minimum=EGF_MIN_RATING))
    """Start rating of a newcomer who declared no grade (0 = 21 kyu). The EGD starts a
    newcomer at the GoR of their declared grade (``2100 - 100 n`` for n kyu, ``2000 + 100 n``
    for n dan, ``2670 + 30 n`` for n pro; docs/rules/go-rfg.md "First entry"), and so does
    this scheme when the games frame carries ``rank`` / ``opponent_rank``."""

    def __post_init__(self) -> None:
        check_options(self)


# --- go, declared grades as evidence (ratings/_grade.py, docs/rules/go-grades.md) -----------


@dataclass(frozen=True, slots=True)
class GradeEvidenceParams:
    """Options of scheme ``grade-evidence`` (docs/rules/go-grades.md): every declared grade a
    noisy reading of the player's strength, the games read as in Glicko. Ratings on the RFG
    scale (100 points a grade)."""

    grade_sd: float = option(150.0, Number(integer=False, minimum=0.0,
                                           minimum_exclusive=True))
    """``tau``: how far a declared grade may stand from the strength, in rating points
    (docs/rules/go-grades.md "A grade is a reading")."""
    drift: float = option(120.0, Number(integer=False, minimum=0.0))
    """``w``: how far a strength may move in a year without games (its deviation grows by
    ``w^2`` per year; docs/rules/go-grades.md "Between tournaments")."""
    slope: float = option(0.25, Number(integer=False, minimum=0.0, minimum_exclusive=True))
    """``beta``: the logistic's scale is ``beta D`` points, ``D`` the RFG distance to the
    ideal player (docs/rules/go-grades.md "A game"; 0.25 matches the RFG's slope at even)."""
    entry_rating: float = option(1400.0, Number(integer=False, minimum=-2000.0))
    """Start of a newcomer who declared no grade (1400 = 7 kyu)."""
    entry_sd: float = option(400.0, Number(integer=False, minimum=0.0,
                                           minimum_exclusive=True))
    """Deviation of a newcomer who declared no grade."""
    learn: OnOff = option("on", Choice(("on", "off")))
    """``on``: ``grade_sd``, ``drift`` and ``slope`` are learned from the games rated (the
    pool's own history; docs/rules/go-grades.md "Learning the weights") before rating them;
    ``off``: the values given are used."""

    def __post_init__(self) -> None:
        check_options(self)
        _check_entry_rating(self.entry_rating)


# --- preferans (ratings/_preferans.py, docs/rules/preferans.md) ------------------------------

Order: TypeAlias = Literal["sequential", "period"]
Duration: TypeAlias = Literal["length", "deals"]

_POSITIVE = Number(integer=False, minimum=0.0, minimum_exclusive=True)
_NON_NEGATIVE = Number(integer=False, minimum=0.0)
_ORDER = Choice(("sequential", "period"))
_PERIOD = Choice(("month", "quarter", "year"))


@dataclass(frozen=True, slots=True)
class MakarovParams:
    """Options of the ``makarov`` and ``shatun`` schemes (docs/rules/preferans.md "Makarov", "Shatun's
    correction"); ``shatun`` is :data:`SHATUN_DEFAULTS` (``duration = deals``, ``A = 25``)."""

    duration: Duration = option("length", Choice(("length", "deals")))
    """What measures the game in ``a`` and the handicap: pulka length ``L`` or deals ``n``."""
    A: float = option(71.0, _POSITIVE)
    """Normalising constant of the reliability ``m^2 / (m^2 + A^2)``."""
    B: float = option(100.0, _POSITIVE)
    """``b = a / B``; holding ``R`` against an average field needs ``v/m = (R - R0) / B``."""
    R0: float = option(1000.0, _NON_NEGATIVE)
    """Start rating of every player not in ``initial``; the club's mean stays ``R0``."""
    order: Order = option("sequential", _ORDER)
    """``sequential``: game by game; ``period``: every game against the period's start."""
    period: PeriodUnit = option("month", _PERIOD)
    """Calendar unit of the published lists (and of the frozen ratings of ``order=period``)."""
    s_sochi: float = option(1.0, _POSITIVE)
    """The variant factor ``s`` of a Sochi game (docs/rules/preferans.md "Game inputs")."""
    s_rostov: float = option(0.67, _POSITIVE)
    """The variant factor ``s`` of a Rostov game."""
    s_leningrad: float = option(0.5, _POSITIVE)
    """The variant factor ``s`` of a Leningrad game."""


SHATUN_DEFAULTS = MakarovParams(duration="deals", A=25.0)
"""docs/rules/preferans.md "Shatun's correction": deals instead of length, ``A = 25``, ``B = 100``, ``R0 = 1000``."""


@dataclass(frozen=True, slots=True)
class NonDivergingParams:
    """Options of the ``nondiverging`` scheme (docs/rules/preferans.md "Non-diverging handicap formula")."""

    N: float = option(100.0, _POSITIVE)
    """Deals that make a result trustworthy: ``f = 1 - exp(-n / N)`` (spec Decision: 100)."""
    R0: float = option(0.0, _NON_NEGATIVE)
    """Start rating (the club's mean); 0 makes the rating a vist rate per deal."""
    order: Order = option("sequential", _ORDER)
    """``sequential``: game by game; ``period``: every game against the period's start."""
    period: PeriodUnit = option("month", _PERIOD)
    """Calendar unit of the published lists (and of the frozen ratings of ``order=period``)."""
    s_sochi: float = option(1.0, _POSITIVE)
    """The variant factor ``s`` of a Sochi game (docs/rules/preferans.md "Game inputs")."""
    s_rostov: float = option(0.67, _POSITIVE)
    """The variant factor ``s`` of a Rostov game."""
    s_leningrad: float = option(0.5, _POSITIVE)
    """The variant factor ``s`` of a Leningrad game."""
