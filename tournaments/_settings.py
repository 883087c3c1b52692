"""The settings of the weighted pairing, as OpenGotha names and defaults them
(docs/rules/go-mcmahon-pairing.md), and the go rank scale it uses (30k = -30, 1k = -1, 1d = 0).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ._errors import TournamentError
from ._levels import round_half_up

if TYPE_CHECKING:
    from ._state import Entrant, Player

__all__ = [
    "MIN_RANK",
    "OPENGOTHA_NAMES",
    "PairingSettings",
    "parse_rank",
    "rank_from_rating",
    "rank_of",
]

MIN_RANK = -30
"""30 kyu on the rank scale of weighted pairing (1k = -1, 1d = 0)."""

_SEED_SYSTEMS = ("SPLITANDSLIP", "SPLITANDFOLD", "SPLITANDRANDOM")
_DUDD_MODES = ("TOP", "MID", "BOT")
_CRITERIA = ("NULL", "MMS", "NBW", "SOSM", "SOSW", "SOSOSM", "SOSOSW", "SOSMM1", "SOSWM1",
             "SOSMM2", "SOSWM2", "RATING", "RANK")


def parse_rank(text: str) -> int:
    """``"3d"`` -> 2, ``"1D"`` -> 0, ``"1k"`` -> -1, ``"30K"`` -> -30 (weighted-pairing rank)."""
    token = text.strip().lower()
    for word, letter in (("kyu", "k"), ("dan", "d")):
        if token.endswith(word):
            token = token.removesuffix(word).strip() + letter
    number, letter = token[:-1], token[-1:]
    if number.isdigit() and letter in ("k", "d"):
        n = int(number)
        if letter == "k" and 1 <= n <= 30:
            return -n
        if letter == "d" and 1 <= n <= 9:
            return n - 1
    raise TournamentError(f"not a go rank: {text!r} (expected e.g. '3k', '1d')")


def rank_from_rating(rating: float) -> int:
    """The rank of an RFG rating (1d = 2100, 100 a grade), kept between 30k and 9d."""
    return max(MIN_RANK, min(8, round_half_up((rating - 2100.0) / 100.0)))


def _rank_text(rank: int) -> str:
    return f"{rank + 1}d" if rank >= 0 else f"{-rank}k"


@dataclass(frozen=True, slots=True)
class PairingSettings:
    """The settings of the weighted pairing (docs/rules/go-mcmahon-pairing.md), OpenGotha's
    defaults for a McMahon tournament. Weights are OpenGotha's units; ranks use
    :func:`parse_rank`'s scale."""

    system: str = "mcmahon"
    mm_bar: int = 0
    mm_floor: int = -20
    mms_value_absent: float = 0.5
    round_down: bool = True
    placement: tuple[str, ...] = ("MMS", "SOSM", "SOSOSM")
    avoid_duplicate: float = 5e14
    random: float = 0.0
    deterministic: bool = True
    balance_wb: float = 1e6
    score_difference: float = 1e11
    dudd_weight: float = 1e8
    compensate_dudd: bool = True
    dudd_upper: str = "MID"
    dudd_lower: str = "MID"
    seeding: float = 5e6
    seed_system1: str = "SPLITANDSLIP"
    seed_system2: str = "SPLITANDSLIP"
    last_round_seed_system1: int = 2
    additional_criterion1: str = "RATING"
    additional_criterion2: str = "NULL"
    avoid_same_geo: float = 1e11
    club_factor: int = 3
    country_factor: int = 1
    bar_threshold_active: bool = True
    nbw_threshold_active: bool = False
    rank_threshold: int = 0
    nx1: float = 0.5
    hd_based_on_mms: bool = True
    hd_ceiling: int = 9
    hd_correction: int = 1
    hd_rank_threshold: int = 0

    def start_score(self, p: Player | Entrant) -> int:
        """Start McMahon score: the rank kept between floor and bar, plus 30, plus the
        player's correction (0 in a Swiss tournament)."""
        if self.system == "swiss":
            return 0
        return min(max(rank_of(p), self.mm_floor), self.mm_bar) - MIN_RANK + p.mms_correction

    def to_names(self) -> dict[str, Any]:
        """The settings as ``{name: value}`` (ranks as text), the state file's ``pairing``."""
        out: dict[str, Any] = {}
        for name in _SETTING_FIELDS:
            value = getattr(self, name)
            if name in _RANK_FIELDS:
                value = _rank_text(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_names(cls, values: Mapping[str, Any], base: PairingSettings | None = None,
                   ) -> PairingSettings:
        """``base`` (default: OpenGotha's defaults) with ``values`` set by name: this class's
        field names or OpenGotha's parameter names (``paiMaSeedSystem1``, ``genMMBar`` ...)."""
        changes: dict[str, Any] = {}
        for raw_name, raw in values.items():
            name = OPENGOTHA_NAMES.get(raw_name, raw_name)
            if name not in _SETTING_FIELDS:
                raise TournamentError(f"unknown pairing setting {raw_name!r}")
            try:
                changes[name] = _setting_value(name, raw, halve=raw_name == "genMMS2ValueAbsent")
            except (TypeError, ValueError):
                raise TournamentError(
                    f"pairing setting {raw_name!r}: bad value {raw!r}") from None
        settings = replace(base or cls(), **changes)
        settings.check()
        return settings

    def check(self) -> None:
        """:class:`TournamentError` when a setting has no meaning."""
        if self.system not in ("mcmahon", "swiss"):
            raise TournamentError(f"pairing system {self.system!r} is not mcmahon or swiss")
        for name in ("seed_system1", "seed_system2"):
            if getattr(self, name) not in _SEED_SYSTEMS:
                raise TournamentError(f"{name} {getattr(self, name)!r} is not one of "
                                      f"{', '.join(_SEED_SYSTEMS)}")
        for name in ("dudd_upper", "dudd_lower"):
            if getattr(self, name) not in _DUDD_MODES:
                raise TournamentError(f"{name} {getattr(self, name)!r} is not TOP, MID or BOT")
        for crit in (*self.placement, self.additional_criterion1, self.additional_criterion2):
            if crit not in _CRITERIA:
                raise TournamentError(f"placement criterion {crit!r} is not one of "
                                      f"{', '.join(_CRITERIA)}")


_SETTING_FIELDS = tuple(PairingSettings.__dataclass_fields__)
_RANK_FIELDS = {"mm_bar", "mm_floor", "rank_threshold", "hd_rank_threshold"}
OPENGOTHA_NAMES = {
    "genMMBar": "mm_bar", "genMMFloor": "mm_floor", "genMMS2ValueAbsent": "mms_value_absent",
    "genRoundDownNBWMMS": "round_down", "paiBaAvoidDuplGame": "avoid_duplicate",
    "paiBaRandom": "random", "paiBaDeterministic": "deterministic",
    "paiBaBalanceWB": "balance_wb", "paiMaMinimizeScoreDifference": "score_difference",
    "paiMaDUDDWeight": "dudd_weight", "paiMaCompensateDUDD": "compensate_dudd",
    "paiMaDUDDUpperMode": "dudd_upper", "paiMaDUDDLowerMode": "dudd_lower",
    "paiMaMaximizeSeeding": "seeding", "paiMaSeedSystem1": "seed_system1",
    "paiMaSeedSystem2": "seed_system2",
    "paiMaLastRoundForSeedSystem1": "last_round_seed_system1",
    "paiMaAdditionalPlacementCritSystem1": "additional_criterion1",
    "paiMaAdditionalPlacementCritSystem2": "additional_criterion2",
    "paiSeAvoidSameGeo": "avoid_same_geo", "paiSePreferMMSDiffRatherThanSameClub": "club_factor",
    "paiSePreferMMSDiffRatherThanSameCountry": "country_factor",
    "paiSeBarThresholdActive": "bar_threshold_active",
    "paiSeNbWinsThresholdActive": "nbw_threshold_active", "paiSeRankThreshold": "rank_threshold",
    "paiStandardNX1Factor": "nx1", "hdBasedOnMMS": "hd_based_on_mms",
    "hdCeiling": "hd_ceiling", "hdCorrection": "hd_correction",
    "hdNoHdRankThreshold": "hd_rank_threshold",
}
"""OpenGotha's parameter names (its tournament file's attributes) and ours."""


def _setting_value(name: str, raw: Any, *, halve: bool = False) -> Any:
    kind = PairingSettings.__dataclass_fields__[name].type
    text = raw.strip() if isinstance(raw, str) else raw
    if name in _RANK_FIELDS:
        return parse_rank(text) if isinstance(text, str) else int(text)
    if name == "placement":
        items = text.split(",") if isinstance(text, str) else list(text)
        return tuple(c for c in (str(i).strip().upper() for i in items) if c not in ("", "NULL"))
    if kind == "bool":
        if isinstance(text, bool):
            return text
        if str(text).lower() in ("true", "1", "yes"):
            return True
        if str(text).lower() in ("false", "0", "no"):
            return False
        raise ValueError(text)
    if kind == "int":
        return int(text)
    if kind == "float":
        number = float(text)
        if not math.isfinite(number):
            raise ValueError(text)
        return number / 2.0 if halve else number
    value = str(text).upper() if name != "system" else str(text).lower()
    if name.startswith("additional_criterion") and value in ("NONE", ""):
        return "NULL"
    return value


def rank_of(p: Player | Entrant) -> int:
    return p.rank if p.rank is not None else rank_from_rating(p.rating)
