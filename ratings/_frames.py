"""The frames going in and out of every scheme: column lists, input checks, periods, ``RatingRun``.

Inputs are checked and normalised once here, so a scheme can rely on clean columns:
``event_id``, ``unit`` and ``player`` as text, ``date`` as a midnight ``datetime64``, ``boards``
and ``place`` as floats, every event-level column constant within an event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._errors import InputError
from ._params import PeriodUnit

__all__ = [
    "CONTRIBUTIONS_COLUMNS",
    "INITIAL_COLUMNS",
    "NORMALISATIONS_COLUMNS",
    "OPTIONAL_RESULTS_COLUMNS",
    "PERIOD_FREQUENCIES",
    "PHANTOMS_COLUMNS",
    "RATINGS_COLUMNS",
    "RESULTS_COLUMNS",
    "STARTUP_COLUMNS",
    "PeriodState",
    "PeriodUnit",
    "RatingRun",
    "check_initial",
    "check_results",
    "empty_contributions",
    "empty_normalisations",
    "empty_phantoms",
    "empty_ratings",
    "empty_startup",
    "period_range",
    "text_column",
]

PERIOD_FREQUENCIES: dict[PeriodUnit, str] = {"quarter": "Q", "month": "M", "year": "Y"}
"""pandas period frequency per period unit; labels come out as ``2013Q3``, ``2013-08``, ``2013``."""

RESULTS_COLUMNS = (
    "event_id", "date", "kind", "scoring", "boards", "unit", "place", "player",
)
OPTIONAL_RESULTS_COLUMNS: dict[str, object] = {
    "parent": "",            # the league / long competition the event belongs to (docs/rules/bridge-belo.md §7)
    "match": False,          # the event is one match of that league (two units)
    "score": float("nan"),   # the unit's score (VPs of a league match, docs/rules/bridge-belo.md §7 vp_share)
    "club": "",              # the player's club (newcomer subsidy, docs/rules/bridge-belo.md §10)
    "abroad": False,         # the event was played abroad (docs/rules/bridge-belo.md §5)
    "field_rating": float("nan"),  # the assumed field rating of an event abroad (docs/rules/bridge-belo.md §5)
    "unrated": False,        # a player without a rating, e.g. a foreign guest (docs/rules/bridge-belo.md §5)
}
"""Columns a results frame may carry, with the value a missing column stands for."""
INITIAL_COLUMNS = ("player", "rating")
RATINGS_COLUMNS = (
    "period", "period_start", "period_end", "player", "rating_before", "rating", "events",
)
CONTRIBUTIONS_COLUMNS = (
    "period", "event_id", "date", "player", "unit", "place", "n", "r", "field_factor",
    "partner_factor", "weight", "norm_factor", "r_prime", "counted", "reason", "phantom",
)
PHANTOMS_COLUMNS = ("period", "player", "rating_before", "rating", "events_left", "state")
STARTUP_COLUMNS = ("pass", "max_change", "mean_before_normalisation")
NORMALISATIONS_COLUMNS = ("period", "factor")

_DATE = "datetime64[us]"


@dataclass(frozen=True, eq=False)
class PeriodState:
    """Where a scheme that rates forward takes up a stored run: the pool as the period before
    ``period`` left it, read back from that run's frames (docs/rules/bridge-belo.md §8: a
    period is rated from the ratings the period before left and its own results).

    - ``period``: the first period to rate again (its label, ``2013Q3``).
    - ``ratings``: the stored run's ``ratings`` rows of the period before: ``player, rating``.
    - ``phantoms``: its ``phantoms`` rows of that period: ``player, rating, events_left``
      (retired phantoms may be left in; they carry nothing).
    """

    period: str
    ratings: pd.DataFrame
    phantoms: pd.DataFrame


@dataclass(frozen=True, eq=False)
class RatingRun:
    """What a scheme returns: ratings per player per period plus the rows that explain them.

    - ``ratings``: one row per player per period for every player rated by the end of that
      period (players without events carried forward with ``events == 0``), sorted by period
      then player. Columns :data:`RATINGS_COLUMNS`.
    - ``contributions``: one row per player per event, how the event entered the rating
      (docs/rules/bridge-belo.md §13). Columns :data:`CONTRIBUTIONS_COLUMNS`.
    - ``normalisations``: one row per periodic normalisation applied (docs/rules/bridge-belo.md §9).
      Columns :data:`NORMALISATIONS_COLUMNS`.
    - ``phantoms``: the hidden phantom players of ``newcomer=phantom`` (docs/rules/bridge-belo.md §10), one row per
      phantom per period while it exists: ``player`` is the newcomer it belongs to, ``state``
      ``active`` | ``dormant`` | ``retired``. Never published. Columns :data:`PHANTOMS_COLUMNS`.
    - ``startup``: one row per start-up pass (docs/rules/bridge-belo.md §11), empty without a cut-over.
    - ``warnings``: lines for the run summary (docs/rules/bridge-belo.md §10, subsidies).
    """

    ratings: pd.DataFrame
    contributions: pd.DataFrame
    normalisations: pd.DataFrame
    phantoms: pd.DataFrame = field(default_factory=lambda: empty_phantoms())
    startup: pd.DataFrame = field(default_factory=lambda: empty_startup())
    warnings: tuple[str, ...] = ()
    """What a person should know of the run (a subsidy that inflated a club, say); not part
    of what is stored or compared."""

    @property
    def final(self) -> pd.DataFrame:
        """The latest rating of every rated player: columns ``player, rating``."""
        if self.ratings.empty:
            return pd.DataFrame({
                "player": pd.Series([], dtype=str), "rating": pd.Series([], dtype=float),
            })
        last = self.ratings["period"].iloc[-1]
        rows = self.ratings.loc[self.ratings["period"] == last, ["player", "rating"]]
        return rows.reset_index(drop=True)


def empty_ratings() -> pd.DataFrame:
    return pd.DataFrame({
        "period": pd.Series([], dtype=str),
        "period_start": pd.Series([], dtype=_DATE),
        "period_end": pd.Series([], dtype=_DATE),
        "player": pd.Series([], dtype=str),
        "rating_before": pd.Series([], dtype=float),
        "rating": pd.Series([], dtype=float),
        "events": pd.Series([], dtype="int64"),
    })


def empty_contributions() -> pd.DataFrame:
    frame = pd.DataFrame({c: pd.Series([], dtype=float) for c in CONTRIBUTIONS_COLUMNS})
    return frame.astype({
        "period": str, "event_id": str, "date": _DATE, "player": str, "unit": str,
        "n": "int64", "counted": bool, "reason": str, "phantom": bool,
    })


def empty_phantoms() -> pd.DataFrame:
    return pd.DataFrame({
        "period": pd.Series([], dtype=str), "player": pd.Series([], dtype=str),
        "rating_before": pd.Series([], dtype=float), "rating": pd.Series([], dtype=float),
        "events_left": pd.Series([], dtype="int64"), "state": pd.Series([], dtype=str),
    })


def empty_startup() -> pd.DataFrame:
    return pd.DataFrame({
        "pass": pd.Series([], dtype="int64"), "max_change": pd.Series([], dtype=float),
        "mean_before_normalisation": pd.Series([], dtype=float),
    })


def empty_normalisations() -> pd.DataFrame:
    return pd.DataFrame({
        "period": pd.Series([], dtype=str), "factor": pd.Series([], dtype=float),
    })


def period_range(
    first: pd.Timestamp, last: pd.Timestamp, unit: PeriodUnit,
) -> pd.PeriodIndex:
    """Consecutive periods from the one containing ``first`` to the one containing ``last``."""
    freq = PERIOD_FREQUENCIES[unit]
    return pd.period_range(pd.Period(first, freq), pd.Period(last, freq), freq=freq)


def text_column(values: Sequence[str] | npt.NDArray[np.object_],
                index: npt.NDArray[np.integer]) -> pd.api.extensions.ExtensionArray:
    """``values[index]`` as a text column, taken as one array (not a Python object per row):
    how the schemes turn codes back into ids and labels when they build their frames."""
    return pd.array(np.asarray(values, dtype=object), dtype="str").take(index)


def _missing_columns(frame: pd.DataFrame, wanted: tuple[str, ...], name: str) -> None:
    missing = [c for c in wanted if c not in frame.columns]
    if missing:
        raise InputError(
            f"missing columns {missing!r}; expected {', '.join(wanted)}", frame=name,
        )


def _text_column(frame: pd.DataFrame, column: str, name: str) -> pd.Series:
    values = frame[column]
    null = values.isna()
    if null.any():
        row = values.index[np.flatnonzero(null.to_numpy())[0]]
        raise InputError(f"column {column!r} is empty at row {row!r}", frame=name)
    return values.astype(str)


def _float_column(frame: pd.DataFrame, column: str, name: str) -> pd.Series:
    try:
        return pd.to_numeric(frame[column], errors="raise").astype(float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"column {column!r} is not numeric: {exc}", frame=name) from exc


def _first_rows(event_code: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The position of each row's event's first row."""
    first = np.zeros(int(event_code.max()) + 1, dtype=np.intp)
    first[event_code[::-1]] = np.arange(len(event_code) - 1, -1, -1)
    return first[event_code]


def _constant_per_event(results: pd.DataFrame, column: str, event_code: npt.NDArray[np.intp],
                        first: npt.NDArray[np.intp]) -> None:
    """Raise unless ``column`` has one value per event (each row equal to its event's first)."""
    values = results[column]
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "biufcmM":
        plain = values.to_numpy()
        same = plain == plain[first]
        if plain.dtype.kind in "fc":
            same |= np.isnan(plain) & np.isnan(plain[first])
    else:
        array = values.array
        same = np.asarray(array == array.take(first), dtype=bool)
    if not same.all():
        at = int(np.flatnonzero(~same)[0])
        event = results["event_id"].iat[at]
        seen = results.loc[results["event_id"] == event, column].unique()
        listed = sorted(map(str, seen))
        raise InputError(
            f"event {event!r} has more than one {column}: {', '.join(listed)}", frame="results",
        )


def _dense_codes(key: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Codes ``0..`` of the distinct values of a non-negative integer key (in key order when
    the key space is small enough to mark directly, else in order of first appearance)."""
    space = int(key.max()) + 1
    if space <= 8 * len(key):
        used = np.zeros(space, dtype=bool)
        used[key] = True
        return (np.cumsum(used) - 1)[key].astype(np.intp)
    return pd.factorize(key)[0].astype(np.intp)


def check_results(results: pd.DataFrame) -> pd.DataFrame:
    """The results frame checked and normalised (a new frame; the input is not touched).

    Raises :class:`InputError` for a missing column, an empty id, a date that does not parse,
    an event whose date/kind/scoring/boards vary between rows, a unit with two places, a place
    outside ``1..n``, a player listed twice in one event, or negative boards.

    Besides the documented columns the frame carries integer codes of the text ids, in the ids'
    sorted order (``event_code``, ``unit_code``, ``player_code``), and ``n``: the schemes work
    on those (spec-independent bookkeeping: sorting and grouping integers, not text).
    """
    _missing_columns(results, RESULTS_COLUMNS, "results")
    out = pd.DataFrame({
        "event_id": _text_column(results, "event_id", "results"),
        "unit": _text_column(results, "unit", "results"),
        "player": _text_column(results, "player", "results"),
        "kind": results["kind"].astype(str),
        "scoring": results["scoring"].astype(str),
    })
    try:
        dates = pd.to_datetime(results["date"])
    except (TypeError, ValueError) as exc:
        raise InputError(f"column 'date' does not parse as dates: {exc}", frame="results") from exc
    if dates.isna().any():
        row = results.index[np.flatnonzero(dates.isna().to_numpy())[0]]
        raise InputError(f"column 'date' is empty at row {row!r}", frame="results")
    if dates.dt.tz is not None:
        dates = dates.dt.tz_localize(None)
    out["date"] = dates.dt.normalize().astype(_DATE)
    out["boards"] = _float_column(results, "boards", "results")
    out["place"] = _float_column(results, "place", "results")
    for column, default in OPTIONAL_RESULTS_COLUMNS.items():
        if column not in results.columns and isinstance(default, str):
            # a text column of one value, built as one array (not a Python object per row)
            out[column] = pd.array([default], dtype="str").take(np.zeros(len(out), np.intp))
        elif column not in results.columns:
            out[column] = default
        elif isinstance(default, bool):
            out[column] = results[column].fillna(False).astype(bool).to_numpy()
        elif isinstance(default, float):
            out[column] = _float_column(results, column, "results").to_numpy()
        else:
            out[column] = results[column].fillna("").astype(str).array
    out = out.reset_index(drop=True)
    if out.empty:
        for column in ("event_code", "unit_code", "player_code", "n"):
            out[column] = pd.Series([], dtype="int64")
        return out

    event_code = pd.factorize(out["event_id"], sort=True)[0]
    unit_code = pd.factorize(out["unit"], sort=True)[0]
    player_code = pd.factorize(out["player"], sort=True)[0]
    out["event_code"] = event_code
    out["unit_code"] = unit_code
    out["player_code"] = player_code
    first = _first_rows(event_code)

    bad_boards = out["boards"] < 0
    if bad_boards.any():
        row = out.loc[bad_boards].iloc[0]
        raise InputError(
            f"event {row['event_id']!r} has a negative number of boards {float(row['boards'])!r}",
            frame="results",
        )
    for column in ("date", "kind", "scoring", "boards", "parent", "match", "abroad",
                   "field_rating"):
        _constant_per_event(out, column, event_code, first)

    if out["place"].isna().any():
        row = out.loc[out["place"].isna()].iloc[0]
        raise InputError(
            f"event {row['event_id']!r}, unit {row['unit']!r}: no place", frame="results",
        )
    n_units = int(unit_code.max()) + 1
    unit_key = event_code.astype(np.int64) * n_units + unit_code
    unit_group = _dense_codes(unit_key)
    place = out["place"].to_numpy(np.float64)
    first_place = np.full(int(unit_group.max()) + 1, np.nan)
    first_place[unit_group[::-1]] = place[::-1]
    differs = place != first_place[unit_group]
    if differs.any():
        i = int(np.flatnonzero(differs)[0])
        event, unit = out["event_id"].iat[i], out["unit"].iat[i]
        seen = sorted(float(p) for p in np.unique(place[unit_group == unit_group[i]]))
        raise InputError(
            f"event {event!r}, unit {unit!r}: players have different places {seen!r}",
            frame="results",
        )
    n_players = int(player_code.max()) + 1
    pair = event_code.astype(np.int64) * n_players + player_code
    sorted_pairs = np.sort(pair)
    repeated = sorted_pairs[1:][sorted_pairs[1:] == sorted_pairs[:-1]]
    if repeated.size:
        row = out.loc[pair == repeated[0]].iloc[0]
        raise InputError(
            f"event {row['event_id']!r}: player {row['player']!r} is listed more than once",
            frame="results",
        )
    # n: distinct units per event
    unit_event = np.zeros(int(unit_group.max()) + 1, dtype=np.intp)
    unit_event[unit_group] = event_code
    n = np.bincount(unit_event, minlength=int(event_code.max()) + 1)[event_code].astype(np.int64)
    out["n"] = n
    outside = (place < 1) | (place > n)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise InputError(
            f"event {out['event_id'].iat[i]!r}, unit {out['unit'].iat[i]!r}: place "
            f"{float(place[i])!r} outside 1..{int(n[i])}",
            frame="results",
        )
    return out


def check_initial(initial: pd.DataFrame | None) -> pd.Series:
    """Initial ratings as a float Series indexed by player (text), sorted by player.

    Raises :class:`InputError` for a missing column, a player listed twice, or a rating that is
    missing, not finite or not positive.
    """
    if initial is None:
        return pd.Series([], index=pd.Index([], dtype=str, name="player"), dtype=float)
    _missing_columns(initial, INITIAL_COLUMNS, "initial")
    players = _text_column(initial, "player", "initial")
    values = _float_column(initial, "rating", "initial")
    twice = players.duplicated()
    if twice.any():
        raise InputError(
            f"player {players[twice].iloc[0]!r} is listed more than once", frame="initial",
        )
    bad = ~(np.isfinite(values) & (values > 0))
    if bad.any():
        raise InputError(
            f"player {players[bad].iloc[0]!r} has rating {float(values[bad].iloc[0])!r}; "
            "ratings must be positive numbers",
            frame="initial",
        )
    series = pd.Series(values.to_numpy(), index=pd.Index(players.to_numpy(), name="player"))
    return series.sort_index()
