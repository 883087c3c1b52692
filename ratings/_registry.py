"""The registry of rating schemes: name -> params type, defaults and ``rate()``.

Adding a scheme is one module with a pure ``rate(results, params, initial=None) -> RatingRun``,
its frozen params dataclass in ``_params.py`` (options declared with ``_options.option``), plus
one entry in :func:`_schemes`.

The registry loads no pandas: a scheme's functions are imported from its module at their first
call (:class:`_Later`), so the configuration's check reads every scheme's name, options and
input frame (flows/_schema.py) without loading a scheme.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from ._errors import OptionError, UnknownScheme
from ._options import apply_options, option_specs, options_to_text
from ._params import (
    LEARNABLE,
    SHATUN_DEFAULTS,
    BeloParams,
    EgfParams,
    EloParams,
    Glicko2Params,
    GradeEvidenceParams,
    MakarovParams,
    NonDivergingParams,
    RfgBootstrapParams,
    RfgParams,
    WhrParams,
)

if TYPE_CHECKING:
    import pandas as pd
    from _typeshed import DataclassInstance

    from ._frames import PeriodState, RatingRun
    from ._whr_learn import WhrLearning

__all__ = ["SCHEMES", "RateFunction", "Scheme", "params_to_options", "parse_options", "rate"]

P = TypeVar("P", bound="DataclassInstance")
P_contra = TypeVar("P_contra", contravariant=True)


class RateFunction(Protocol[P_contra]):
    """``rate(results, params, initial=None) -> RatingRun``: pure, never mutates its inputs."""

    def __call__(
        self, results: pd.DataFrame, params: P_contra, initial: pd.DataFrame | None = None,
    ) -> RatingRun: ...


@dataclass(frozen=True, slots=True)
class Scheme(Generic[P]):
    """One rating scheme: its options (``params_type`` with ``defaults``) and its ``rate``."""

    name: str
    description: str
    params_type: type[P]
    defaults: P
    rate: RateFunction[P]
    reads: Literal["results", "go-games", "preferans-games"] = "results"
    """Which input frame ``rate`` takes: the bridge results frame (package docstring), the go
    games frame (``ratings._go``), or the preferans games frame (``ratings._preferans``); the
    games whose ``frame`` it is (``games.GAMES``, above this package) are the games it
    rates."""
    refine: Callable[[pd.DataFrame, P, pd.DataFrame], RatingRun] | None = None
    """``refine(results, params, warm)``: the same as ``rate`` but starting from ``warm``, the
    ratings frame of an earlier run with the same options -- for a scheme that fits the whole
    history at once (docs/rules/bridge-whr.md §9); ``None`` for the others."""
    learn: Callable[[pd.DataFrame, P, tuple[str, ...], P | None], WhrLearning] | None = None
    """``learn(results, params, fixed, start)``: ``params`` with the constants of
    ``learnable`` not in ``fixed`` learned from ``results`` (docs/rules/bridge-whr.md §13),
    the search starting from ``start``; ``None`` for a scheme that learns nothing."""
    learnable: tuple[str, ...] = ()
    """The options ``learn`` may set."""
    resume: Callable[[pd.DataFrame, P, PeriodState], RatingRun] | None = None
    """``resume(results, params, state)``: the periods from ``state.period`` on of ``rate``,
    rated from the pool a stored run left at the end of the period before -- for a scheme that
    rates forward, period by period (docs/rules/bridge-belo.md §8), so that a run whose results
    changed only from some period on keeps the stored periods before it. ``None``: every run
    rates the whole history (a whole-history fit restates every period, and the go and
    preferans schemes are not taken up so yet)."""
    period_digests: Callable[[pd.DataFrame, P], dict[str, str]] | None = None
    """``period_digests(results, params)``: per period with results, a digest of its rows as
    ``rate`` reads them; where the digests of two histories first differ is where ``resume``
    starts. Given exactly when ``resume`` is."""
    moves_by_k: bool = False
    """Every game moves a player by ``K B (r - P)``, one ``K`` per player and period
    (docs/rules/go-rfg.md "One rating period"): an explanation shows that ``K``, recovered
    from the games' changes."""
    entry_from_games: bool = False
    """A newcomer's rating is the estimate their games against rated players give
    (docs/rules/go-rfg.md "First entry"), not a start value of the scheme's options."""

    grades_as_evidence: bool = False
    """Every grade a player declares moves their rating (docs/rules/go-grades.md), not only
    the first: ``rating_before`` of a period already holds the grades declared in it, and
    the ratings frame carries ``grade`` and ``grade_pull``."""

    @property
    def whole_history(self) -> bool:
        """It fits the whole history at once (it has a ``refine``): its explanations are the
        place the fit expected and the points each event moved the estimate, and its pages
        say how its constants were set (docs/rules/bridge-whr.md §10, §13)."""
        return self.refine is not None

    def options(self) -> dict[str, str]:
        """The scheme's default configuration as text, one entry per option."""
        return options_to_text(self.defaults)


@dataclass(frozen=True, slots=True)
class _Later:
    """The function ``name`` of the scheme module ``module`` (``"_belo"``), imported at its
    first call."""

    module: str
    name: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        function = getattr(importlib.import_module(f"{__package__}.{self.module}"), self.name)
        return function(*args, **kwargs)


def _refine_whr(results: pd.DataFrame, params: WhrParams, warm: pd.DataFrame) -> RatingRun:
    from ._whr import rate_whr

    return rate_whr(results, params, warm=warm)


def _learn_whr(results: pd.DataFrame, params: WhrParams, fixed: tuple[str, ...],
               start: WhrParams | None) -> WhrLearning:
    from ._whr_learn import learn_whr

    return learn_whr(results, params, fixed=fixed, start=start)


def _schemes() -> dict[str, Scheme[Any]]:
    belo2 = BeloParams()
    belo = dataclasses.replace(belo2, field="k")
    schemes: tuple[Scheme[Any], ...] = (
        Scheme(
            name="belo",
            description="BELO, placement-based bridge rating with field factor k = Rt/500 "
            "(docs/rules/bridge-belo.md)",
            params_type=BeloParams,
            defaults=belo,
            rate=_Later("_belo", "rate_belo"),
            resume=_Later("_belo", "resume_belo"),
            period_digests=_Later("_belo", "belo_period_digests"),
        ),
        Scheme(
            name="belo2",
            description="BELO2, placement-based bridge rating with field factor "
            "c = Rt^2 / (500 Ru) (docs/rules/bridge-belo.md)",
            params_type=BeloParams,
            defaults=belo2,
            rate=_Later("_belo", "rate_belo"),
            resume=_Later("_belo", "resume_belo"),
            period_digests=_Later("_belo", "belo_period_digests"),
        ),
        Scheme(
            name="whr",
            description="WHR, whole-history placement rating: a strength per player per period "
            "linked by a random walk, each event's places as pairwise comparisons (or "
            "Plackett-Luce), all periods fitted together (docs/rules/bridge-whr.md)",
            params_type=WhrParams,
            defaults=WhrParams(),
            rate=_Later("_whr", "rate_whr"),
            refine=_refine_whr,
            learn=_learn_whr,
            learnable=LEARNABLE,
        ),
    )
    # Go baselines (ratings/_baselines.py): games frame in, like every go scheme.
    schemes += (
        Scheme(
            name="elo",
            description="Elo for go games: k = 20, scale 400, start 1500, optional handicap "
            "points per stone (ratings/_baselines.py)",
            params_type=EloParams,
            defaults=EloParams(),
            rate=_Later("_baselines", "rate_elo"),
            reads="go-games",
        ),
        Scheme(
            name="glicko2",
            description="Glicko-2 (Glickman), tau = 0.5, start 1500 / 350 / 0.06, one rating "
            "period per period (ratings/_baselines.py)",
            params_type=Glicko2Params,
            defaults=Glicko2Params(),
            rate=_Later("_baselines", "rate_glicko2"),
            reads="go-games",
        ),
        Scheme(
            name="egf",
            description="EGF GoR (2021 formula), one tournament per period, floor -900 "
            "(ratings/_baselines.py)",
            params_type=EgfParams,
            defaults=EgfParams(),
            rate=_Later("_baselines", "rate_egf"),
            reads="go-games",
        ),
    )
    # Go, the Russian Go Federation rating (ratings/_rfg.py): games frame in.
    schemes += (
        Scheme(
            name="rfg",
            description="RFG go rating: generalised Elo with deviations, handicap, time decay, "
            "anomaly correction and first entry (docs/rules/go-rfg.md)",
            params_type=RfgParams,
            defaults=RfgParams(),
            rate=_Later("_rfg", "rate_rfg"),
            reads="go-games",
            moves_by_k=True,
            entry_from_games=True,
        ),
        Scheme(
            name="rfg-bootstrap",
            description="RFG 'from scratch' recalculation: B = 1, K = 4 (3000 - R) / 100 "
            "(docs/rules/go-rfg.md, Bootstrap)",
            params_type=RfgBootstrapParams,
            defaults=RfgBootstrapParams(),
            rate=_Later("_rfg", "rate_rfg_bootstrap"),
            reads="go-games",
            moves_by_k=True,
        ),
    )
    # Go, every declared grade as evidence (ratings/_grade.py): games frame in.
    schemes += (
        Scheme(
            name="grade-evidence",
            description="Go rating with every declared grade a noisy reading of the "
            "player's strength, the games as in Glicko, its weights learned from the pool's "
            "own games (docs/rules/go-grades.md)",
            params_type=GradeEvidenceParams,
            defaults=GradeEvidenceParams(),
            rate=_Later("_grade", "rate_grade_evidence"),
            reads="go-games",
            grades_as_evidence=True,
        ),
    )
    # Preferans (ratings/_preferans.py): the preferans games frame in.
    schemes += (
        Scheme(
            name="makarov",
            description="Makarov's preferans club rating: dR = a v - b L (R - Rs), "
            "a = s L^2/(L^2 + 71^2), b = a/100, start 1000 (docs/rules/preferans.md)",
            params_type=MakarovParams,
            defaults=MakarovParams(),
            rate=_Later("_preferans", "rate_makarov"),
            reads="preferans-games",
        ),
        Scheme(
            name="shatun",
            description="Makarov's formula with Shatun's correction: deals n for length L, "
            "A = 25 (docs/rules/preferans.md)",
            params_type=MakarovParams,
            defaults=SHATUN_DEFAULTS,
            rate=_Later("_preferans", "rate_makarov"),
            reads="preferans-games",
        ),
        Scheme(
            name="nondiverging",
            description="Non-diverging handicap preferans rating: R + (1 - exp(-n/N)) "
            "(s v/n + Rs - R), N = 100, start 0 (docs/rules/preferans.md)",
            params_type=NonDivergingParams,
            defaults=NonDivergingParams(),
            rate=_Later("_preferans", "rate_nondiverging"),
            reads="preferans-games",
        ),
    )
    return {s.name: s for s in schemes}


SCHEMES: dict[str, Scheme[Any]] = _schemes()
"""Every registered rating scheme by name. Built once at import; never modified."""


def _scheme(name: str) -> Scheme[Any]:
    try:
        return SCHEMES[name]
    except KeyError:
        raise UnknownScheme(
            f"unknown rating scheme {name!r}; valid schemes: {', '.join(sorted(SCHEMES))}"
        ) from None


def parse_options(scheme_name: str, pairs: Mapping[str, str]) -> Any:
    """The scheme's params: its defaults with the user's options (name -> text) applied.

    Raises :class:`UnknownScheme` for an unknown scheme and :class:`OptionError` for an unknown
    option, an invalid value or a variant not implemented yet; the message lists what is valid.
    """
    scheme = _scheme(scheme_name)
    return apply_options(scheme.defaults, pairs)


def params_to_options(params: DataclassInstance) -> dict[str, str]:
    """The full resolved configuration of ``params`` as text, sorted by option name.

    ``parse_options(name, params_to_options(p)) == p`` for any params ``p`` of scheme ``name``.
    """
    if not dataclasses.is_dataclass(params) or not option_specs(type(params)):
        raise OptionError(f"{type(params).__name__} is not a params type of a rating scheme")
    return options_to_text(params)


def rate(
    scheme_name: str,
    results: pd.DataFrame,
    *,
    options: Mapping[str, str] | None = None,
    initial: pd.DataFrame | None = None,
) -> RatingRun:
    """Rate ``results`` with the named scheme and the given options over its defaults."""
    scheme = _scheme(scheme_name)
    params = apply_options(scheme.defaults, options or {})
    return scheme.rate(results, params, initial)
