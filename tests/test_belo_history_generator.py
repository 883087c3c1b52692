"""The generated bridge history of ``benchmarks/_history.py`` and its bare BELO2 kernel.

Small histories only: determinism from the seed, the invariants of the results-frame contract,
the realism the benchmark relies on, and agreement of the kernel with the engine.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ratings
from benchmarks._history import bare_kernel, generate_history

TINY = {"years": 2, "players": 300, "clubs": 6, "events": 400}


@pytest.fixture(scope="module")
def tiny() -> pd.DataFrame:
    return generate_history(**TINY, seed=7)


def _events(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.groupby("event_id").agg(
        kind=("kind", "first"), scoring=("scoring", "first"), boards=("boards", "first"),
        n=("unit", "nunique"), rows=("player", "size"), players=("player", "nunique"),
        place_sum=("place", "sum"),
    )


def test_same_seed_same_history(tiny: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(generate_history(**TINY, seed=7), tiny)


def test_other_seed_other_history(tiny: pd.DataFrame) -> None:
    other = generate_history(**TINY, seed=8)
    assert not (len(other) == len(tiny) and other["player"].equals(tiny["player"]))


def test_columns_are_the_results_contract(tiny: pd.DataFrame) -> None:
    assert tuple(tiny.columns) == ratings.RESULTS_COLUMNS
    for column in ("event_id", "unit", "player", "kind", "scoring"):
        assert tiny[column].map(type).eq(str).all(), column
    assert tiny["date"].dtype == np.dtype("datetime64[us]")
    assert tiny["date"].min() >= pd.Timestamp("2016-01-01")
    assert tiny["date"].max() < pd.Timestamp("2018-01-01")


def test_event_level_columns_constant_and_players_once(tiny: pd.DataFrame) -> None:
    per_event = tiny.groupby("event_id")[["date", "kind", "scoring", "boards"]].nunique(
        dropna=False,
    )
    assert (per_event == 1).all().all()
    assert not tiny.duplicated(["event_id", "player"]).any()
    assert (tiny.groupby(["event_id", "unit"])["place"].nunique() == 1).all()


def test_places_are_averaged_ranks(tiny: pd.DataFrame) -> None:
    units = tiny.drop_duplicates(["event_id", "unit"])
    per_event = units.groupby("event_id").agg(n=("unit", "size"), total=("place", "sum"),
                                               low=("place", "min"), high=("place", "max"))
    # Averaged ties keep the sum of places 1 + ... + n.
    np.testing.assert_allclose(per_event["total"], per_event["n"] * (per_event["n"] + 1) / 2)
    assert (per_event["low"] >= 1).all()
    assert (per_event["high"] <= per_event["n"]).all()
    # Ties happen, but not often.
    tied = (units["place"] % 1 != 0).mean()
    assert 0.0 < tied < 0.2


def test_event_kinds_and_sizes(tiny: pd.DataFrame) -> None:
    events = _events(tiny)
    unit_sizes = tiny.groupby(["event_id", "unit"]).agg(kind=("kind", "first"),
                                                          size=("player", "size"))
    assert set(events["kind"]) == {"pairs", "teams", "individual"}
    pairs, teams, single = (events[events["kind"] == k] for k in ("pairs", "teams", "individual"))
    assert 0.7 < len(pairs) / len(events) < 0.9
    assert 0.08 < len(teams) / len(events) < 0.22
    assert set(pairs["scoring"]) == {"MP", "IMP"}
    assert set(teams["scoring"]) == {"IMP", "VP"}
    assert set(single["scoring"]) == {"MP"}
    assert pairs["n"].max() <= 80 and teams["n"].between(6, 16).all()
    assert (pairs["n"] > 20).any()  # a congress
    by_kind = unit_sizes.groupby("kind")["size"]
    assert by_kind.max().to_dict() == {"individual": 1, "pairs": 3, "teams": 6}
    assert by_kind.min()["teams"] == 4
    boards = events["boards"].dropna()
    assert boards.between(18, 64).all() and events["boards"].isna().any()


def test_players_enter_and_leave(tiny: pd.DataFrame) -> None:
    span = tiny.groupby("player")["date"].agg(["min", "max"])
    # Newcomers: some players appear only in the second year; some stop in the first.
    assert (span["min"] >= pd.Timestamp("2017-01-01")).any()
    assert (span["max"] < pd.Timestamp("2017-01-01")).any()


def test_bare_kernel_agrees_with_engine(tiny: pd.DataFrame) -> None:
    # The kernel implements the plain rules with flat newcomers (docs/rules/bridge-belo.md §10), whatever the
    # engine's default newcomer rule is.
    engine = ratings.rate("belo2", tiny, options={"newcomer": "flat"}).final
    kernel = bare_kernel(tiny)
    assert kernel["player"].tolist() == engine["player"].tolist()
    np.testing.assert_allclose(kernel["rating"], engine["rating"], rtol=0, atol=1e-6)
    # Not a trivial agreement: the ratings moved away from 500.
    assert kernel["rating"].std() > 20

