"""Preferans club ratings (docs/rules/preferans.md): Makarov, Shatun and the non-diverging formula.

A game (a pulka, or one *segment* of a game split by a substitution, docs/rules/preferans.md "Substitutions") is
one rating event for its 3 (or 4, with a sitting-out dealer) seated players. Each formula is
linear in the settled vists ``v_i`` and in the handicap ``Rs - R_i``, ``Rs`` being the mean
rating of the game's players before the game::

    dR_i = alpha * v_i + beta * (Rs - R_i)

- ``makarov`` (docs/rules/preferans.md "Makarov"): ``a = s L^2 / (L^2 + A^2)``, ``b = a / B``, ``alpha = a``,
  ``beta = b L``; ``A = 71``, ``B = 100``, ``R0 = 1000``, ``L`` the pulka length.
- ``shatun`` (docs/rules/preferans.md "Shatun's correction"): the same with the number of deals ``n`` in place of
  ``L`` (option ``duration = deals``) and ``A = 25``.
- ``nondiverging`` (docs/rules/preferans.md "Non-diverging handicap formula"): ``f = 1 - exp(-n / N)``,
  ``alpha = f s / n``, ``beta = f``, i.e. ``R+ = R + f (s v / n + Rs - R)``; ``N = 100``,
  ``R0 = 0``.

``s`` is the variant's coefficient (options ``s_sochi = 1``, ``s_rostov = 0.67``,
``s_leningrad = 0.5``, docs/rules/preferans.md "Game inputs").

Order of application (option ``order``)
---------------------------------------
- ``sequential`` (default): how the club rated. Games are applied one at a time in ``date``,
  ``game``, ``segment`` order (the contract's order); every game uses the ratings left by the
  previous one, so a player's second game of an evening already sees the first one's result.
  Periods (option ``period``, calendar ``month`` by default) only cut the published lists.
- ``period``: like the bridge rating, ratings are frozen per period: every game of a period is
  rated against the ratings at the period's start (``rating_before`` and ``Rs`` from those),
  and a player's changes over the period are summed. The result no longer depends on the order
  of the games within a period, but every game of the period closes the same starting gap
  ``Rs - R`` again: a player's handicap weights ``beta`` add up over the period, so even the
  non-diverging formula overshoots once they pass 1 (three 100-deal games: ``3 f = 1.9``), and
  the ratings oscillate and grow without bound once they pass 2 -- a dozen 35-deal games a
  month does that. ``period`` suits clubs whose players play a few games a period; busy clubs
  need ``sequential``.

Both orders conserve the club's total rating (up to float rounding): a game's changes sum to
``alpha * sum(v) = 0`` plus ``beta * (k Rs - sum R) = 0``.

Speed: players are integer codes and every per-game number is computed with numpy beforehand,
so the sequential update is a plain Python loop over lists doing a few reads and writes a game;
a million games take about 3 s end to end (``benchmarks/preferans_games.py``).

Decisions
---------
1. Vists within the tolerance (docs/rules/preferans.md "Input validation": the sum within 0.5) are centred before
   rating: each player's vists minus the game's mean, so the total is conserved exactly. The
   contributions and the ratings frame show the centred vists (the ``v`` the formula used).
2. ``game`` ids sort naturally: ids written only with digits first, by their numeric value,
   then the others as text; ties by text. Players of a game are listed by name.
3. Players in ``initial`` (``player, rating``, any finite rating) start there; everyone else at
   ``R0``. A player appears in the ratings frame from the first period in which they played
   (players of ``initial``: from the first period), carried with zero events afterwards.
   Periods are consecutive from the first game's to the last game's period.
4. The game's number of players is not limited to 3 or 4: the formulas are per seated player
   and stay conservative for any number.

Frames
------
Input: :data:`PREFERANS_GAMES_COLUMNS` (+ optional ``segment``), see :func:`check_games`.

Output (a :class:`RatingRun`):

- ``ratings``: :data:`PREFERANS_RATINGS_COLUMNS` -- the common ``RATINGS_COLUMNS`` (``events``
  = games played in the period) plus ``deals`` (sum of ``n``) and ``vists`` (sum of ``v``).
- ``contributions``: one row per player per game in application order,
  :data:`PREFERANS_CONTRIBUTIONS_COLUMNS` plus ``a, b`` (Makarov, Shatun) or ``f``
  (non-diverging).
- ``normalisations``: always empty (no scheme here normalises).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import InputError
from ._frames import (
    PERIOD_FREQUENCIES,
    RATINGS_COLUMNS,
    PeriodUnit,
    RatingRun,
    empty_normalisations,
    period_range,
)
from ._options import check_options
from ._params import SHATUN_DEFAULTS, MakarovParams, NonDivergingParams

__all__ = [
    "MAKAROV_CONTRIBUTIONS_COLUMNS",
    "NONDIVERGING_CONTRIBUTIONS_COLUMNS",
    "PREFERANS_CONTRIBUTIONS_COLUMNS",
    "PREFERANS_GAMES_COLUMNS",
    "PREFERANS_RATINGS_COLUMNS",
    "SHATUN_DEFAULTS",
    "VARIANTS",
    "MakarovParams",
    "NonDivergingParams",
    "canonical_variant",
    "check_games",
    "rate_makarov",
    "rate_nondiverging",
    "reliability",
]

Floats: TypeAlias = npt.NDArray[np.float64]
Ints: TypeAlias = npt.NDArray[np.int64]
Variant: TypeAlias = Literal["sochi", "rostov", "leningrad"]

PREFERANS_GAMES_COLUMNS = ("game", "date", "variant", "deals", "length", "player", "vists")
"""Required columns of the preferans games frame; ``segment`` is optional (default 1)."""

PREFERANS_RATINGS_COLUMNS = (*RATINGS_COLUMNS, "deals", "vists")
PREFERANS_CONTRIBUTIONS_COLUMNS = (
    "period", "game", "segment", "date", "player", "variant", "s", "deals", "length", "vists",
    "rs", "rating_before", "change",
)
MAKAROV_CONTRIBUTIONS_COLUMNS = (*PREFERANS_CONTRIBUTIONS_COLUMNS, "a", "b")
NONDIVERGING_CONTRIBUTIONS_COLUMNS = (*PREFERANS_CONTRIBUTIONS_COLUMNS, "f")

VARIANTS: tuple[Variant, ...] = ("sochi", "rostov", "leningrad")
"""Canonical variant names (the contract's lower-case spellings)."""

VIST_TOLERANCE = 0.5
"""docs/rules/preferans.md "Input validation": vists of a game must sum to zero within 0.5 (rounded inputs)."""

_SLACK = 1e-9  # float noise allowed on top of the tolerance (0.1 + 0.2 + 0.2 is not 0.5)

_SPELLINGS: dict[str, Variant] = {
    spelling: variant
    for variant, spellings in {
        "sochi": ("sochi", "sochinka", "sochinsky", "sochinskiy", "сочи", "сочинка",
                  "сочинский", "сочинская"),
        "rostov": ("rostov", "rostovka", "rostovsky", "rostovskiy", "ростов", "ростовка",
                   "ростовский", "ростовская"),
        "leningrad": ("leningrad", "leningradka", "leningradsky", "leningradskiy", "piter",
                      "piterka", "spb", "st petersburg", "petersburg", "ленинград",
                      "ленинградка", "ленинградский", "ленинградская", "питер", "питерка",
                      "питерский", "спб", "петербург", "петербургский"),
    }.items()
    for spelling in spellings
}
_NOISE_WORDS = ("преферанс", "preferans", "preference", "pref")

_DATE = "datetime64[us]"


# --- options: MakarovParams and NonDivergingParams (ratings/_params.py) ------------------------


def reliability(m: npt.ArrayLike, A: float) -> Floats:
    """Makarov's reliability ``m^2 / (m^2 + A^2)`` (docs/rules/preferans.md "Makarov"): 0.2 at ``A/2``, 0.5 at
    ``A``, 0.8 at ``2A``; 0 at ``m = 0``."""
    m2 = np.square(np.asarray(m, dtype=np.float64))
    return np.asarray(m2 / (m2 + A * A), dtype=np.float64)


# --- the games frame -----------------------------------------------------------------------------


def canonical_variant(text: object) -> Variant | None:
    """``sochi`` | ``rostov`` | ``leningrad`` for a common spelling of a variant (English or
    Russian, any case, e.g. ``Сочинка``, ``Ростов``, ``Питер``), ``None`` if unknown."""
    if not isinstance(text, str):
        return None
    words = text.casefold().replace("ё", "е").replace("-", " ").replace(".", " ").split()
    words = [w for w in words if w not in _NOISE_WORDS]
    return _SPELLINGS.get(" ".join(words))


def _fail(problem: str) -> InputError:
    return InputError(problem, frame="games")


def _num(value: float) -> str:
    """A number as the messages quote it: ``3.5``, ``3``, ``-0.75``."""
    return f"{float(value):.10g}"


def _quote(value: object) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def _take(values: pd.Index, codes: Ints) -> pd.api.extensions.ExtensionArray:
    """``values[codes]`` as a text column, built without a Python object per row."""
    return values.array.take(codes)


@dataclass(frozen=True)
class _Text:
    """A text column as integer codes into its distinct values (stripped, text)."""

    codes: Ints
    values: pd.Index

    def at(self, row: int) -> str:
        return str(self.values[self.codes[row]])


def _text(games: pd.DataFrame, column: str) -> _Text:
    codes, uniques = pd.factorize(games[column])  # a missing cell gets code -1
    stripped = pd.Index(uniques).astype(str).str.strip()
    again, values = pd.factorize(stripped)  # " Ann" and "Ann" are one player
    rows = np.where(codes >= 0, again[np.maximum(codes, 0)], -1).astype(np.int64)
    blank = np.append(np.asarray(values == "", dtype=bool), True)  # code -1: missing
    empty = blank[rows]
    if empty.any():
        raise _fail(f"row {_quote(games.index[int(np.flatnonzero(empty)[0])])}: column "
                    f"{column!r} is empty")
    return _Text(codes=rows, values=pd.Index(values, dtype=str))


@dataclass(frozen=True)
class _Where:
    """Names the game and segment of an input row in messages."""

    game: _Text
    segment: Ints

    def row(self, at: int) -> str:
        return f"game {self.game.at(at)!r} segment {int(self.segment[at])}"


def _segments(games: pd.DataFrame, game: _Text) -> Ints:
    if "segment" not in games.columns:
        return np.ones(len(games), dtype=np.int64)
    given = games["segment"]
    numbers = pd.to_numeric(given, errors="coerce").to_numpy(np.float64)
    numbers = np.where(given.isna().to_numpy(bool), 1.0, numbers)  # a blank cell is segment 1
    bad = ~np.isfinite(numbers) | (numbers < 1) | (numbers != np.floor(numbers))
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise _fail(f"game {game.at(at)!r}: segment {_quote(given.iloc[at])} must be a whole "
                    "number >= 1")
    return numbers.astype(np.int64)


def _dates(games: pd.DataFrame, where: _Where) -> npt.NDArray[np.datetime64]:
    given = games["date"]
    if pd.api.types.is_datetime64_any_dtype(given.dtype):
        dates = pd.to_datetime(given)
    else:
        # ISO dates (2021-03-01), or the Russian day.month.year (01.03.2021)
        dates = pd.to_datetime(given, errors="coerce", format="ISO8601")
        retry = dates.isna() & given.notna()
        if retry.any():
            dotted = pd.to_datetime(given[retry].astype(str).str.strip(), errors="coerce",
                                    format="%d.%m.%Y")
            dates = dates.where(~retry, dotted)
    bad = dates.isna().to_numpy(bool)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        what = "no date" if pd.isna(given.iloc[at]) else \
            f"date {_quote(given.iloc[at])} is not a date"
        raise _fail(f"{where.row(at)}: {what}")
    if dates.dt.tz is not None:
        dates = dates.dt.tz_localize(None)
    return dates.dt.normalize().to_numpy().astype(_DATE)


def _variants(games: pd.DataFrame, where: _Where) -> Ints:
    """Index into :data:`VARIANTS` of each row's variant."""
    codes, uniques = pd.factorize(games["variant"])
    missing = codes < 0
    if missing.any():
        raise _fail(f"{where.row(int(np.flatnonzero(missing)[0]))}: no variant")
    canonical = [canonical_variant(u) for u in uniques]
    index = np.array([-1 if c is None else VARIANTS.index(c) for c in canonical],
                     dtype=np.int64)
    unknown = index[codes] < 0
    if unknown.any():
        at = int(np.flatnonzero(unknown)[0])
        raise _fail(f"{where.row(at)}: unknown variant {_quote(games['variant'].iloc[at])}; "
                    f"known variants: {', '.join(VARIANTS)}")
    return index[codes]


def _numbers(games: pd.DataFrame, column: str, where: _Where) -> Floats:
    given = games[column]
    numbers = pd.to_numeric(given, errors="coerce").to_numpy(np.float64)
    bad = ~np.isfinite(numbers)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        value = given.iloc[at]
        what = f"no {column}" if pd.isna(value) else \
            f"{column} {_quote(value)} is not a number"
        raise _fail(f"{where.row(at)}: {what}")
    return numbers


def _natural_rank(ids: pd.Index) -> Ints:
    """Rank of each id in natural order (Decision 2): digit-only ids by value, then text."""
    digits = np.asarray(ids.str.fullmatch("[0-9]+"), dtype=bool)
    value = np.zeros(len(ids), dtype=np.float64)
    try:
        value[digits] = np.asarray(ids[digits].astype(np.float64), dtype=np.float64)
    except (ValueError, OverflowError):  # a digit string too long for a float
        value[digits] = pd.to_numeric(pd.Series(ids[digits]), errors="coerce").fillna(np.inf)
    order = np.lexsort((_text_rank(ids), value, ~digits))
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank


def _text_rank(ids: pd.Index) -> Ints:
    """Rank of each text in code point order."""
    rank = np.empty(len(ids), dtype=np.int64)
    rank[np.asarray(ids.argsort(), dtype=np.int64)] = np.arange(len(ids))
    return rank


def _order(*keys: Ints) -> Ints:
    """Row order sorting by ``keys`` (non-negative integers, most significant first), stable.

    One combined int64 key when the ranges allow (a stable sort of nearly sorted data, as a
    club's export is, takes linear time), else ``np.lexsort``.
    """
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    room = 1
    for key in keys:
        width = int(key.max()) + 1 if len(key) else 1
        room *= width
        if room >= 2**62:
            return np.lexsort(keys[::-1])
        combined = combined * width + key
    return np.argsort(combined, kind="stable")


@dataclass(frozen=True)
class _Checked:
    """The checked games in application order: one array per column (``game``, ``player``
    and ``variant`` as codes), segments from ``starts[k]`` to ``starts[k + 1]``."""

    columns: dict[str, npt.NDArray[Any]]
    games: pd.Index  # text of the game codes
    players: pd.Index  # text of the player codes
    starts: Ints


def _segment_bounds(game_rank: Ints, segment: Ints) -> tuple[Ints, Ints]:
    """First row of each segment of rows sorted by (game, segment), and each row's segment."""
    new = np.ones(len(game_rank), dtype=bool)
    new[1:] = (game_rank[1:] != game_rank[:-1]) | (segment[1:] != segment[:-1])
    firsts = np.flatnonzero(new).astype(np.int64)
    return firsts, (np.cumsum(new) - 1).astype(np.int64)


def _check_rows(c: dict[str, npt.NDArray[Any]], where: _Where) -> None:
    """Per-row rules: deals a whole number >= 1, length >= 0 (docs/rules/preferans.md "Input validation")."""
    deals, length = c["deals"], c["length"]
    bad = (deals < 1) | (deals != np.floor(deals))
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise _fail(f"{where.row(at)}: deals {_num(deals[at])}, must be a whole number >= 1")
    bad = length < 0
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise _fail(f"{where.row(at)}: length {_num(length[at])}, must be >= 0")


def _show(column: str, value: Any) -> str:
    if column == "date":
        return str(np.datetime64(value, "D"))
    if column == "variant":
        return VARIANTS[int(value)]
    return _num(float(value))


def _check_segments(c: dict[str, npt.NDArray[Any]], firsts: Ints, seg_of_row: Ints,
                    where: _Where, players: pd.Index) -> None:
    """Per-segment rules (docs/rules/preferans.md "Input validation", contract "Games frame"): one date, variant,
    deals and length per segment; distinct players; vists summing to 0 within 0.5."""
    first_row = firsts[seg_of_row]
    ends = np.append(firsts[1:], len(seg_of_row))
    for column in ("date", "variant", "deals", "length"):
        values = c[column]
        bad = values != values[first_row]
        if bad.any():
            at = int(np.flatnonzero(bad)[0])
            seg = int(seg_of_row[at])
            shown = sorted({_show(column, v) for v in values[firsts[seg]:ends[seg]]})
            raise _fail(f"{where.row(at)}: rows disagree on {column}: {', '.join(shown)}")
    same = np.zeros(len(seg_of_row), dtype=bool)
    same[1:] = (seg_of_row[1:] == seg_of_row[:-1]) & (c["player"][1:] == c["player"][:-1])
    if same.any():
        at = int(np.flatnonzero(same)[0])
        raise _fail(f"{where.row(at)}: player {str(players[c['player'][at]])!r} is listed "
                    "twice")
    totals = np.add.reduceat(c["vists"], firsts)
    bad_segments = np.abs(totals) > VIST_TOLERANCE + _SLACK
    if bad_segments.any():
        seg = int(np.flatnonzero(bad_segments)[0])
        raise _fail(f"{where.row(int(firsts[seg]))}: vists sum to {_num(totals[seg])}, "
                    f"must be 0 (within {_num(VIST_TOLERANCE)})")


def _check(games: pd.DataFrame) -> _Checked:
    missing = [c for c in PREFERANS_GAMES_COLUMNS if c not in games.columns]
    if missing:
        raise _fail(f"missing columns {missing!r}; expected "
                    f"{', '.join(PREFERANS_GAMES_COLUMNS)}[, segment]")
    game = _text(games, "game")
    player = _text(games, "player")
    where = _Where(game, _segments(games, game))
    columns: dict[str, npt.NDArray[Any]] = {
        "game": game.codes,
        "segment": where.segment,
        "date": _dates(games, where),
        "variant": _variants(games, where),
        "deals": _numbers(games, "deals", where),
        "length": _numbers(games, "length", where),
        "player": player.codes,
        "vists": _numbers(games, "vists", where),
    }
    game_rank = _natural_rank(game.values)[game.codes]
    by_game = _order(game_rank, where.segment, _text_rank(player.values)[player.codes])
    c = {name: values[by_game] for name, values in columns.items()}
    sorted_where = _Where(_Text(c["game"], game.values), c["segment"])
    firsts, seg_of_row = _segment_bounds(game_rank[by_game], c["segment"])
    _check_rows(c, sorted_where)
    if len(firsts):
        _check_segments(c, firsts, seg_of_row, sorted_where, player.values)

    # Contract "Games frame": games are applied in date, then game, then segment order.
    # The segments are in (game, segment) order already: a stable sort by date is enough.
    sizes = np.diff(np.append(firsts, len(by_game)))
    seg_order = np.argsort(c["date"][firsts], kind="stable")
    sizes_out = sizes[seg_order]
    starts = np.concatenate(([0], np.cumsum(sizes_out))).astype(np.int64)
    rows = np.repeat(firsts[seg_order] - starts[:-1], sizes_out) + np.arange(len(by_game))
    return _Checked(columns={name: values[rows] for name, values in c.items()},
                    games=game.values, players=player.values, starts=starts)


def check_games(games: pd.DataFrame) -> pd.DataFrame:
    """The preferans games frame checked, canonicalised and sorted (a new frame).

    Columns out: ``game`` (text), ``segment`` (int64, 1 when the column is absent or blank),
    ``date`` (datetime64), ``variant`` (``sochi`` | ``rostov`` | ``leningrad``, from any
    spelling :func:`canonical_variant` knows), ``deals`` (int64), ``length`` (float),
    ``player`` (text), ``vists`` (float, as given). Rows are in application order: ``date``,
    ``game`` (natural order), ``segment``, then player; the index is 0..n-1.

    Raises :class:`InputError` (frame ``games``) naming the game and segment, the rule and the
    value: a missing column or empty id; a date, variant, deals, length or vists that is
    missing or does not parse; an unknown variant; deals not a whole number >= 1; length < 0;
    rows of one segment disagreeing on date, variant, deals or length; a player listed twice in
    a segment; vists of a segment not summing to 0 within 0.5 (docs/rules/preferans.md "Input validation").
    Cells that do not read are reported at their first row in input order; the rules after
    that (deals, length, agreement, players, vists) at the first game in (game, segment)
    order. Dates are read as ISO (``2021-03-01``) or day.month.year (``01.03.2021``).
    """
    checked = _check(games)
    c = checked.columns
    return pd.DataFrame({
        "game": _take(checked.games, c["game"]),
        "segment": c["segment"].astype(np.int64),
        "date": c["date"].astype(_DATE),
        "variant": _take(pd.Index(VARIANTS, dtype=str), c["variant"]),
        "deals": c["deals"].astype(np.int64),
        "length": c["length"].astype(np.float64),
        "player": _take(checked.players, c["player"]),
        "vists": c["vists"].astype(np.float64),
    })


# --- initial ratings -----------------------------------------------------------------------------


def _check_initial(initial: pd.DataFrame | None) -> pd.Series:
    """``player -> rating`` (float, any finite value) from an ``initial`` frame."""
    if initial is None:
        return pd.Series([], index=pd.Index([], dtype=object), dtype=np.float64)
    missing = [c for c in ("player", "rating") if c not in initial.columns]
    if missing:
        raise InputError(f"missing columns {missing!r}; expected player, rating",
                         frame="initial")
    players = initial["player"].astype(str).str.strip()
    empty = (initial["player"].isna() | (players == "")).to_numpy(bool)
    if empty.any():
        raise InputError(f"row {int(np.flatnonzero(empty)[0])}: column 'player' is empty",
                         frame="initial")
    twice = players.duplicated().to_numpy(bool)
    if twice.any():
        raise InputError(f"player {players.iloc[int(np.flatnonzero(twice)[0])]!r} is listed "
                         "more than once", frame="initial")
    values = pd.to_numeric(initial["rating"], errors="coerce").to_numpy(np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise InputError(f"player {players.iloc[at]!r} has rating "
                         f"{_quote(initial['rating'].iloc[at])}; ratings must be numbers",
                         frame="initial")
    return pd.Series(values, index=pd.Index(players.to_numpy(dtype=object)))


# --- coefficients --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Coefficients:
    """Per segment: ``dR_i = alpha v_i + beta (Rs - R_i)``, plus the columns that explain it."""

    alpha: Floats
    beta: Floats
    explain: dict[str, Floats]


def _makarov(params: MakarovParams, s: Floats, deals: Floats, length: Floats) -> _Coefficients:
    # docs/rules/preferans.md "Makarov": dR = a v - b L (R - Rs), a = s L^2/(L^2 + A^2), b = a/B;
    # docs/rules/preferans.md "Shatun's correction": the same with n for L (duration = deals).
    m = length if params.duration == "length" else deals
    a = s * reliability(m, params.A)
    b = a / params.B
    return _Coefficients(alpha=a, beta=b * m, explain={"a": a, "b": b})


def _nondiverging(params: NonDivergingParams, s: Floats, deals: Floats, length: Floats,
                  ) -> _Coefficients:
    # docs/rules/preferans.md "Non-diverging handicap formula": R+ = R + (1 - exp(-n/N)) (s v/n + Rs - R).
    f = -np.expm1(-deals / params.N)
    return _Coefficients(alpha=f * s / deals, beta=f, explain={"f": f})


# --- the update loops ----------------------------------------------------------------------------


def _sequential(start: Floats, code: Ints, vists: Floats, starts: Ints, alpha: Floats,
                beta: Floats, period_ends: Ints) -> tuple[Floats, Floats]:
    """Games one at a time (``order = sequential``): each row's rating before its game, and the
    ratings at the end of every period (one row per period).

    A plain loop over Python lists: the players are integer codes, and every per-game number
    is computed beforehand, so one game costs a few list reads and writes.
    """
    R = start.tolist()
    cs = code.tolist()
    vs = vists.tolist()
    st = starts.tolist()
    al = alpha.tolist()
    be = beta.tolist()
    before = [0.0] * len(cs)
    snapshots: list[list[float]] = []
    first = 0
    for end in period_ends.tolist():
        for g in range(first, end):
            lo = st[g]
            hi = st[g + 1]
            a = al[g]
            b = be[g]
            if hi - lo == 3:
                p0 = cs[lo]
                p1 = cs[lo + 1]
                p2 = cs[lo + 2]
                r0 = R[p0]
                r1 = R[p1]
                r2 = R[p2]
                rs = (r0 + r1 + r2) / 3.0
                R[p0] = r0 + (a * vs[lo] + b * (rs - r0))
                R[p1] = r1 + (a * vs[lo + 1] + b * (rs - r1))
                R[p2] = r2 + (a * vs[lo + 2] + b * (rs - r2))
                before[lo] = r0
                before[lo + 1] = r1
                before[lo + 2] = r2
            else:
                rb = [R[p] for p in cs[lo:hi]]
                rs = sum(rb) / (hi - lo)
                for j in range(lo, hi):
                    r = rb[j - lo]
                    R[cs[j]] = r + (a * vs[j] + b * (rs - r))
                    before[j] = r
        first = end
        snapshots.append(list(R))
    return np.asarray(before, dtype=np.float64), np.asarray(snapshots, dtype=np.float64)


def _by_period(start: Floats, code: Ints, vists: Floats, starts: Ints, alpha: Floats,
               beta: Floats, period_ends: Ints) -> tuple[Floats, Floats]:
    """Ratings frozen per period (``order = period``): every game of a period against the
    period's start ratings, a player's changes summed (as the bridge rating's periods)."""
    R = start.copy()
    before = np.empty(len(code), dtype=np.float64)
    snapshots = np.empty((len(period_ends), len(start)), dtype=np.float64)
    g = 0
    for p, end in enumerate(period_ends.tolist()):
        lo, hi = int(starts[g]), int(starts[end])
        if hi > lo:
            rows = slice(lo, hi)
            before[rows] = R[code[rows]]
            firsts = starts[g:end] - lo
            sizes = np.diff(starts[g:end + 1])
            rs = np.repeat(np.add.reduceat(before[rows], firsts) / sizes, sizes)
            a = np.repeat(alpha[g:end], sizes)
            b = np.repeat(beta[g:end], sizes)
            change = a * vists[rows] + b * (rs - before[rows])
            R = R + np.bincount(code[rows], weights=change, minlength=len(R))
        snapshots[p] = R
        g = end
    return before, snapshots


# --- the scheme ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Encoded:
    """Checked games as arrays: players as integer codes into ``players`` (sorted names, the
    players of ``initial`` included), per-segment numbers."""

    checked: _Checked
    players: pd.Index
    code: Ints  # per row
    starts: Ints
    sizes: Ints  # per segment
    vists: Floats  # per row, centred (Decision 1)
    s: Floats  # per segment
    deals: Floats  # per segment
    length: Floats  # per segment
    start_ratings: Floats  # per player
    first_seen: Ints  # per player: first period index (0 for players of ``initial``)
    periods: pd.PeriodIndex
    seg_period: Ints  # per segment: period index


def _encode(checked: _Checked, initial: pd.Series, R0: float, s_by_variant: dict[str, float],
            unit: PeriodUnit) -> _Encoded:
    c = checked.columns
    starts = checked.starts
    firsts = starts[:-1]
    sizes = np.diff(starts)
    players = pd.Index(sorted(set(checked.players) | set(initial.index)), dtype=str)
    code = players.get_indexer(checked.players).astype(np.int64)[c["player"]]
    mean = np.add.reduceat(c["vists"], firsts) / sizes
    vists = c["vists"] - np.repeat(mean, sizes)  # Decision 1: centred, the total is conserved
    s = np.array([s_by_variant[v] for v in VARIANTS], dtype=np.float64)[c["variant"][firsts]]
    dates = c["date"][firsts]
    periods = period_range(pd.Timestamp(dates[0]), pd.Timestamp(dates[-1]), unit)
    ordinals = pd.PeriodIndex(pd.DatetimeIndex(dates), freq=PERIOD_FREQUENCIES[unit]).asi8
    seg_period = (ordinals - periods[0].ordinal).astype(np.int64)
    start_ratings = np.full(len(players), R0, dtype=np.float64)
    known = players.get_indexer(pd.Index(initial.index, dtype=str))
    start_ratings[known] = initial.to_numpy(np.float64)
    first_seen = np.full(len(players), len(periods), dtype=np.int64)
    np.minimum.at(first_seen, code, np.repeat(seg_period, sizes))
    first_seen[known] = 0
    return _Encoded(
        checked=checked, players=players, code=code, starts=starts, sizes=sizes, vists=vists,
        s=s, deals=c["deals"][firsts].astype(np.float64), length=c["length"][firsts],
        start_ratings=start_ratings, first_seen=first_seen, periods=periods,
        seg_period=seg_period,
    )


def _labels(periods: pd.PeriodIndex) -> pd.Index:
    return pd.Index([str(p) for p in periods], dtype=str)


def _ratings_frame(enc: _Encoded, snapshots: Floats) -> pd.DataFrame:
    """One row per period per player rated by its end (Decision 3), period then player."""
    n_periods, n_players = len(enc.periods), len(enc.players)
    key = np.repeat(enc.seg_period, enc.sizes) * n_players + enc.code
    size = n_periods * n_players
    events = np.bincount(key, minlength=size)
    deals = np.bincount(key, weights=np.repeat(enc.deals, enc.sizes), minlength=size)
    vists = np.bincount(key, weights=enc.vists, minlength=size)
    before_all = np.vstack([enc.start_ratings[None, :], snapshots[:-1]])
    shown = enc.first_seen[None, :] <= np.arange(n_periods)[:, None]
    p_idx, player_idx = np.nonzero(shown)
    flat = p_idx * n_players + player_idx
    starts = enc.periods.start_time.normalize().to_numpy().astype(_DATE)
    ends = enc.periods.end_time.normalize().to_numpy().astype(_DATE)
    return pd.DataFrame({
        "period": _take(_labels(enc.periods), p_idx),
        "period_start": starts[p_idx],
        "period_end": ends[p_idx],
        "player": _take(enc.players, player_idx),
        "rating_before": before_all[p_idx, player_idx],
        "rating": snapshots[p_idx, player_idx],
        "events": events[flat].astype(np.int64),
        "deals": np.rint(deals[flat]).astype(np.int64),
        "vists": vists[flat],
    })


def _contributions_frame(enc: _Encoded, before: Floats, co: _Coefficients) -> pd.DataFrame:
    """One row per player per game, in application order (module docstring, Frames)."""
    sizes = enc.sizes
    c = enc.checked.columns
    rs = np.repeat(np.add.reduceat(before, enc.starts[:-1]) / sizes, sizes)
    change = (np.repeat(co.alpha, sizes) * enc.vists
              + np.repeat(co.beta, sizes) * (rs - before))
    out = pd.DataFrame({
        "period": _take(_labels(enc.periods), np.repeat(enc.seg_period, sizes)),
        "game": _take(enc.checked.games, c["game"]),
        "segment": c["segment"],
        "date": c["date"],
        "player": _take(enc.players, enc.code),
        "variant": _take(pd.Index(VARIANTS, dtype=str), c["variant"]),
        "s": np.repeat(enc.s, sizes),
        "deals": c["deals"].astype(np.int64),
        "length": c["length"],
        "vists": enc.vists,
        "rs": rs,
        "rating_before": before,
        "change": change,
    })
    for name, values in co.explain.items():
        out[name] = np.repeat(values, sizes)
    return out


def _empty_run(columns: tuple[str, ...]) -> RatingRun:
    ratings = pd.DataFrame({c: pd.Series([], dtype=np.float64)
                            for c in PREFERANS_RATINGS_COLUMNS}).astype({
        "period": str, "period_start": _DATE, "period_end": _DATE, "player": str,
        "events": np.int64, "deals": np.int64,
    })
    contributions = pd.DataFrame({c: pd.Series([], dtype=np.float64) for c in columns}).astype({
        "period": str, "game": str, "segment": np.int64, "date": _DATE,
        "player": str, "variant": str, "deals": np.int64,
    })
    return RatingRun(ratings, contributions, empty_normalisations())


_Params: TypeAlias = MakarovParams | NonDivergingParams


def _rate(games: pd.DataFrame, params: _Params, initial: pd.DataFrame | None,
          coefficients: Callable[[Floats, Floats, Floats], _Coefficients],
          columns: tuple[str, ...]) -> RatingRun:
    check_options(params)
    checked = _check(games)
    start = _check_initial(initial)
    if len(checked.starts) == 1:
        return _empty_run(columns)
    s_by_variant = {"sochi": params.s_sochi, "rostov": params.s_rostov,
                    "leningrad": params.s_leningrad}
    enc = _encode(checked, start, params.R0, s_by_variant, params.period)
    co = coefficients(enc.s, enc.deals, enc.length)
    period_ends = np.searchsorted(enc.seg_period, np.arange(len(enc.periods)), side="right")
    update = _sequential if params.order == "sequential" else _by_period
    before, snapshots = update(enc.start_ratings, enc.code, enc.vists, enc.starts, co.alpha,
                               co.beta, period_ends.astype(np.int64))
    return RatingRun(
        ratings=_ratings_frame(enc, snapshots),
        contributions=_contributions_frame(enc, before, co),
        normalisations=empty_normalisations(),
    )


def rate_makarov(games: pd.DataFrame, params: MakarovParams,
                 initial: pd.DataFrame | None = None) -> RatingRun:
    """Rate a preferans games frame with Makarov's formula (``duration = length``) or Shatun's
    correction (``duration = deals``, :data:`SHATUN_DEFAULTS`). ``initial``: ``player, rating``.
    Neither frame is modified. Frames out: see the module docstring."""
    def coefficients(s: Floats, deals: Floats, length: Floats) -> _Coefficients:
        return _makarov(params, s, deals, length)
    return _rate(games, params, initial, coefficients, MAKAROV_CONTRIBUTIONS_COLUMNS)


def rate_nondiverging(games: pd.DataFrame, params: NonDivergingParams,
                      initial: pd.DataFrame | None = None) -> RatingRun:
    """Rate a preferans games frame with the non-diverging handicap formula. ``initial``:
    ``player, rating``. Neither frame is modified. Frames out: see the module docstring."""
    def coefficients(s: Floats, deals: Floats, length: Floats) -> _Coefficients:
        return _nondiverging(params, s, deals, length)
    return _rate(games, params, initial, coefficients, NONDIVERGING_CONTRIBUTIONS_COLUMNS)
