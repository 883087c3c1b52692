"""The federation simulator (quality/federation.py, docs/rules/simulation.md "Using it to test rating
schemes"): determinism, the seed's two-club experiment, the result model, membership, and the
CSV-template files it writes."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import datetime as dt
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from rapidfuzz import fuzz, process

import ratings
from parsers import parse_bytes
from parsers.names import name_key
from quality.federation import (
    CSV_COLUMNS,
    FEDERATION_ORGANISER,
    PRESETS,
    FederationSettings,
    club_names,
    player_names,
    _pair_adjustment,
    simulate,
    write_files,
)
from quality.model import Simulation

SMALL = dataclasses.replace(PRESETS["federation"], clubs=3, players_per_club=(14, 20), years=1)
"""The federation preset cut down so a test runs in a fraction of a second."""


@pytest.fixture(scope="module")
def federation() -> Simulation:
    return simulate("federation")


@pytest.fixture(scope="module")
def two_clubs() -> Simulation:
    return simulate("two-clubs")


def _unit_places(results: pd.DataFrame) -> pd.DataFrame:
    """One row per unit: event, unit, place, players, mean of a per-row column if asked."""
    return results.groupby(["event_id", "unit"], sort=False).agg(
        place=("place", "first"), places=("place", "nunique"), players=("player", "size"),
    ).reset_index()


# --- determinism ----------------------------------------------------------------------------


def test_same_seed_gives_identical_frames() -> None:
    a, b = simulate(SMALL, seed=5), simulate(SMALL, seed=5)
    for name in ("results", "strength", "players", "events"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))
    assert a.seed == b.seed == 5
    assert a.settings == b.settings


def test_different_seed_gives_different_frames() -> None:
    a, b = simulate(SMALL, seed=5), simulate(SMALL, seed=6)
    assert not a.results.equals(b.results)
    assert not a.strength.equals(b.strength)


def test_seed_defaults_to_the_settings_seed() -> None:
    a = simulate(dataclasses.replace(SMALL, seed=9))
    b = simulate(SMALL, seed=9)
    assert a.seed == 9
    pd.testing.assert_frame_equal(a.results, b.results)


# --- the seed's two-club experiment ---------------------------------------------------------


def test_two_clubs_true_ratings(two_clubs: Simulation) -> None:
    final = two_clubs.final_strength()
    players = two_clubs.players.set_index("player")
    a = final[players.loc[final.index, "club"] == "Club A"].sort_values(ascending=False)
    b = final[players.loc[final.index, "club"] == "Club B"].sort_values(ascending=False)
    assert a.tolist() == [750.0, 740.0, 730.0, 720.0, 710.0, 700.0, 690.0, 680.0, 670.0, 660.0]
    assert b.tolist() == [600.0 - 10.0 * i for i in range(21)]
    # No drift: every player has the same strength in every period.
    spread = two_clubs.strength.groupby("player")["strength"].agg(["min", "max", "size"])
    assert (spread["min"] == spread["max"]).all()
    assert (spread["size"] == two_clubs.strength["period"].nunique()).all()
    # No newcomers, no leavers.
    assert len(two_clubs.players) == 31
    assert two_clubs.players["left"].isna().all()
    assert (two_clubs.players["joined"] == pd.Timestamp("2016-01-01")).all()


def test_two_clubs_event_counts(two_clubs: Simulation) -> None:
    events = two_clubs.events
    intra = events[~events["inter_club"]]
    inter = events[events["inter_club"]]
    assert intra["club"].value_counts().to_dict() == {"Club A": 20, "Club B": 20}
    assert len(inter) == 40
    assert (inter["club"] == "").all()
    # The twenty club tournaments come first, then the inter-club events.
    assert intra["date"].max() < inter["date"].min()
    assert two_clubs.settings["intra_club_events"] == 20
    assert two_clubs.settings["inter_club_events"] == 40
    assert two_clubs.settings["initial_rating"] == 500.0
    assert two_clubs.settings["preset"] == "two-clubs"
    # Pairs only, everybody plays every event of their club and every inter-club event.
    results = two_clubs.results
    assert set(results["kind"]) == {"pairs"}
    per_event = results.groupby("event_id")["player"].nunique()
    size = events.set_index("event_id")["club"].map({"Club A": 10, "Club B": 21, "": 31})
    pd.testing.assert_series_equal(per_event, size.loc[per_event.index], check_names=False)
    # Club events are played by the club's own members only.
    club_rows = results.merge(events, on="event_id", suffixes=("", "_event"))
    club_rows = club_rows[~club_rows["inter_club"]]
    assert (club_rows["club"] == club_rows["club_event"]).all()


# --- the results frame ----------------------------------------------------------------------


def test_results_are_accepted_by_belo2(federation: Simulation) -> None:
    run = ratings.rate("belo2", federation.results, options={})
    assert set(run.final["player"]) == set(federation.results["player"])
    assert np.isfinite(run.final["rating"]).all()
    assert list(federation.results.columns) == [*ratings.RESULTS_COLUMNS, "club"]
    assert pd.api.types.is_datetime64_any_dtype(federation.results["date"])
    for column in ("event_id", "unit", "player", "club"):
        assert federation.results[column].map(type).eq(str).all(), column


def test_places_are_a_valid_ranking_per_event(federation: Simulation) -> None:
    units = _unit_places(federation.results)
    assert (units["places"] == 1).all()  # a unit's players share one place
    for event_id, group in units.groupby("event_id"):
        n = len(group)
        places = np.sort(group["place"].to_numpy())
        assert places[0] >= 1 and places[-1] <= n, event_id
        assert places.sum() == pytest.approx(n * (n + 1) / 2), event_id
        # Tied units share the mean of the places they occupy.
        counts = group["place"].value_counts()
        first = counts.index.to_numpy() - (counts.to_numpy() - 1) / 2
        assert np.allclose(first, np.round(first)), event_id
        covered = sorted(
            p for f, k in zip(first, counts.to_numpy()) for p in range(int(f), int(f) + k)
        )
        assert covered == list(range(1, n + 1)), event_id
    assert (units.groupby("event_id").size() >= 3).all()
    # A player sits once per event.
    assert not federation.results.duplicated(["event_id", "player"]).any()


def test_ties_happen_and_average(federation: Simulation) -> None:
    units = _unit_places(federation.results)
    tied = units[units["place"] % 1 != 0]
    assert 0 < tied["event_id"].nunique() < units["event_id"].nunique() / 2


def test_without_noise_places_follow_strength() -> None:
    sim = simulate(dataclasses.replace(SMALL, noise=0.0, tie_step=0.0), seed=2)
    strength = sim.strength.copy()
    strength["period"] = strength["period"].astype(str)
    rows = sim.results.merge(sim.events[["event_id", "period"]], on="event_id")
    # Strength of every player in the quarter of the event: quarters they ended as members.
    rows = rows.merge(strength, on=["period", "player"], how="left")
    full = rows.groupby(["event_id", "unit"])["strength"].agg(["mean", "count", "size"])
    full = full[full["count"] == full["size"]].reset_index()
    places = _unit_places(sim.results).set_index(["event_id", "unit"])["place"]
    full["place"] = places.loc[list(zip(full["event_id"], full["unit"]))].to_numpy()
    checked = 0
    for _, group in full.groupby("event_id"):
        if len(group) < len(places.loc[group["event_id"].iloc[0]]):
            continue  # a player who left during the quarter: strength not in the frame
        order = group.sort_values("mean", ascending=False)["place"].to_numpy()
        assert (np.diff(order) > 0).all()
        checked += 1
    assert checked > 50


def test_more_boards_less_luck() -> None:
    def spearman(boards: int) -> float:
        s = dataclasses.replace(SMALL, boards=(boards, boards), congress_boards=(boards, boards),
                                drift_sd=0.0, newcomer_rate=0.0, leaver_rate=0.0)
        sim = simulate(s, seed=4)
        strength = sim.strength.drop_duplicates("player").set_index("player")["strength"]
        rows = sim.results.assign(strength=sim.results["player"].map(strength))
        units = rows.groupby(["event_id", "unit"]).agg(s=("strength", "mean"), p=("place", "first"))
        # Place a unit would have by strength alone, against the place it got.
        by_strength = units.groupby("event_id")["s"].rank(ascending=False)
        return float(by_strength.corr(units["p"]))

    few, many = spearman(12), spearman(96)
    assert 0 < few < many  # more boards: places closer to the order of strength


def test_events_frame_matches_results(federation: Simulation) -> None:
    events = federation.events
    assert list(events.columns) == ["event_id", "date", "period", "club", "inter_club"]
    assert events["event_id"].is_unique
    assert set(events["event_id"]) == set(federation.results["event_id"])
    # Event ids are chronological, so events of one day are ordered by id.
    assert events.sort_values("event_id")["date"].is_monotonic_increasing
    dates = federation.results.groupby("event_id")["date"].first()
    pd.testing.assert_series_equal(
        events.set_index("event_id")["date"], dates.loc[events["event_id"]], check_names=False,
    )
    assert (events["period"] == events["date"].dt.to_period("Q").astype(str)).all()
    assert (events["inter_club"] == (events["club"] == "")).all()
    assert set(events.loc[~events["inter_club"], "club"]) == set(club_names(8))
    # Monthly congresses over four years, weekly club events.
    assert 45 <= events["inter_club"].sum() <= 55
    assert set(federation.results["kind"]) == {"pairs", "teams"}


def test_units_are_pairs_with_substitutes_or_teams_of_pairs(federation: Simulation) -> None:
    units = _unit_places(federation.results)
    kind = federation.results.groupby("event_id")["kind"].first()
    sizes = units.assign(kind=units["event_id"].map(kind))
    assert set(sizes.loc[sizes["kind"] == "pairs", "players"]) == {2, 3}
    assert set(sizes.loc[sizes["kind"] == "teams", "players"]) <= {4, 5, 6, 7}
    # At most one substitute per event.
    triples = sizes[(sizes["kind"] == "pairs") & (sizes["players"] == 3)]
    assert triples["event_id"].is_unique


# --- partnerships ---------------------------------------------------------------------------


def _pair_counts(sim: Simulation) -> pd.Series:
    rows = sim.results[sim.results["kind"] == "pairs"]
    pairs = rows.groupby(["event_id", "unit"])["player"].agg(lambda p: tuple(sorted(p)))
    return pairs[pairs.map(len) == 2].value_counts()


def test_partners_are_regular_unless_they_change() -> None:
    steady = _pair_counts(simulate(dataclasses.replace(SMALL, partner_change=0.02), seed=3))
    fickle = _pair_counts(simulate(dataclasses.replace(SMALL, partner_change=1.0), seed=3))
    # Most pair appearances are with a regular partner when partnerships rarely change.
    assert steady[steady >= 5].sum() > 0.7 * steady.sum()
    assert fickle[fickle >= 5].sum() < 0.2 * fickle.sum()
    assert len(fickle) > 3 * len(steady)


# --- strength and membership ----------------------------------------------------------------


def test_no_drift_means_constant_strength() -> None:
    sim = simulate(dataclasses.replace(SMALL, drift_sd=0.0, newcomer_growth=0.0), seed=7)
    spread = sim.strength.groupby("player")["strength"].agg(lambda s: s.max() - s.min())
    assert (spread == 0.0).all()
    assert sim.strength["period"].nunique() == 4


def test_drift_is_a_random_walk_of_the_given_sd() -> None:
    s = dataclasses.replace(PRESETS["federation"], drift_sd=20.0, newcomer_growth=0.0)
    sim = simulate(s, seed=7)
    ordered = sim.strength.sort_values(["player", "period"])
    steps = ordered.groupby("player")["strength"].diff().dropna()
    assert steps.std() == pytest.approx(20.0, rel=0.1)
    assert abs(steps.mean()) < 2.0


def test_newcomers_and_leavers() -> None:
    s = dataclasses.replace(SMALL, newcomer_rate=0.1, leaver_rate=0.1, newcomer_gap=150.0,
                            newcomer_growth=0.0, drift_sd=0.0)
    sim = simulate(s, seed=8)
    players = sim.players
    start = pd.Timestamp("2016-01-01")
    new = players[players["joined"] > start]
    founders = players[players["joined"] == start]
    assert len(new) > 5 and len(founders) > 30
    assert players["left"].notna().sum() > 5
    # Newcomers are weaker on average.
    strength = sim.strength.drop_duplicates("player").set_index("player")["strength"]
    gap = strength.loc[founders["player"]].mean() - strength.loc[new["player"]].mean()
    assert gap > 75.0
    # Nobody plays before joining or after leaving; newcomers do play.
    rows = sim.results.merge(players, on="player", suffixes=("", "_member"))
    assert (rows["date"] >= rows["joined"]).all()
    assert (rows["left"].isna() | (rows["date"] < rows["left"])).all()
    assert set(new["player"]) & set(sim.results["player"])
    # The strength frame lists members at the end of each quarter.
    last = sim.strength[sim.strength["period"] == "2016Q4"]["player"]
    assert set(last) == set(players.loc[players["left"].isna(), "player"])


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="partner_change"):
        FederationSettings(partner_change=1.5)
    with pytest.raises(ValueError, match="boards"):
        FederationSettings(boards=(30, 20))
    with pytest.raises(ValueError, match="go together"):
        FederationSettings(intra_club_events=5)
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        simulate("nope")


def test_presets_are_named_in_kebab_case() -> None:
    assert set(PRESETS) == {
        "two-clubs", "federation", "national", "national-archive",
        "learning-curves", "sudden-jumps", "partnerships", "twelve-clubs",
    }
    national = PRESETS["national"]
    assert national.clubs == 40 and national.years == 5


# --- names and files ------------------------------------------------------------------------


def test_player_names_are_far_apart_and_stable() -> None:
    names = player_names(400)
    keys = [name_key(n) for n in names]
    assert len(set(keys)) == 400
    assert player_names(50) == names[:50]
    for i, key in enumerate(keys):
        others = keys[:i] + keys[i + 1:]
        hit = process.extractOne(key, others, scorer=fuzz.token_sort_ratio, score_cutoff=80)
        assert hit is None, (names[i], hit)


def _read_back(paths: list[Path], names: dict[str, str]) -> pd.DataFrame:
    """The results frame rebuilt from parsing the written files."""
    rows = []
    for path in paths:
        parsed = parse_bytes(path.read_bytes(), source=path.name)
        assert parsed.format == "csv_template"
        assert parsed.issues == ()
        for event in parsed.events:
            for unit in event.units:
                for player in unit.players:
                    rows.append({
                        "event_id": event.title.split()[0],
                        "date": pd.Timestamp(event.date),
                        "kind": event.kind,
                        "scoring": event.scoring,
                        "boards": float(event.boards) if event.boards else np.nan,
                        "unit": unit.label,
                        "place": unit.place,
                        "player": names[player.name],
                        "club": player.club,
                        "file": path.name,
                        "organiser": event.organiser,
                    })
    return pd.DataFrame(rows)


def test_write_files_round_trips_through_the_parser(tmp_path: Path) -> None:
    sim = simulate(SMALL, seed=3)
    paths = write_files(sim, tmp_path)
    assert paths == sorted(tmp_path.iterdir())
    header = paths[0].read_text(encoding="utf-8").splitlines()[0]
    assert header == ",".join(CSV_COLUMNS)
    names = dict(zip(player_names(len(sim.players)), sim.players["player"]))
    back = _read_back(paths, names)
    key = ["event_id", "unit", "player"]
    expected = sim.results.sort_values(key, ignore_index=True)
    got = back.sort_values(key, ignore_index=True)
    for column in sim.results.columns:
        pd.testing.assert_series_equal(
            got[column], expected[column], check_dtype=False, obj=column,
        )
    # One file per club per month; congresses in the federation's file.
    host = got["event_id"].map(sim.events.set_index("event_id")["club"])
    organiser = host.where(host != "", FEDERATION_ORGANISER)
    assert (got["organiser"] == organiser).all()
    month = got["date"].dt.strftime("%Y-%m")
    slug = organiser.str.lower().str.replace(" ", "-")
    assert (got["file"] == slug + "_" + month + ".csv").all()
    assert len(paths) == 4 * 12  # three clubs and the congresses, twelve months


def test_written_ties_read_back_as_ties(tmp_path: Path) -> None:
    sim = simulate(SMALL, seed=3)
    assert (sim.results["place"] % 1 != 0).any()
    text = "".join(p.read_text(encoding="utf-8") for p in write_files(sim, tmp_path))
    assert any("-" in line.split(",")[6] for line in text.splitlines()[1:] if "," in line)


def test_written_files_load_into_the_warehouse(tmp_path: Path) -> None:
    from warehouse import Loader, Parsed, open_warehouse, results_frame

    sim = simulate(SMALL, seed=3)
    paths = write_files(sim, tmp_path / "files")
    with open_warehouse(tmp_path / "wh.duckdb") as wh:
        reports = Loader(wh).load_many(
            Parsed(p.read_bytes(), parse_bytes(p.read_bytes(), source=p.name), p.name)
            for p in paths
        )
        assert not [r for r in reports if isinstance(r, Exception)]
        frame = results_frame(wh)
        waiting = wh.con.execute("SELECT count(*) FROM review_items").fetchone()
    assert waiting == (0,)
    # Identity resolution keeps every simulated player apart and merges no two.
    assert frame["player"].nunique() == sim.results["player"].nunique()
    assert len(frame) == len(sim.results)
    assert frame["event_id"].nunique() == len(sim.events)
    counts = frame.groupby("player").size().sort_values(ignore_index=True)
    expected = sim.results.groupby("player").size().sort_values(ignore_index=True)
    pd.testing.assert_series_equal(counts, expected, check_names=False)


def test_start_date_and_years() -> None:
    sim = simulate(dataclasses.replace(SMALL, start=dt.date(2018, 4, 1), years=2), seed=1)
    assert sim.events["date"].min() >= pd.Timestamp("2018-04-01")
    assert sim.events["date"].max() < pd.Timestamp("2020-04-01")
    assert sim.strength["period"].min() == "2018Q2"
    assert sim.strength["period"].max() == "2020Q1"


# --- the other worlds: learning curves, sudden jumps, partnerships, twelve clubs ------------

NEW_PRESETS = ("learning-curves", "sudden-jumps", "partnerships", "twelve-clubs")


@pytest.fixture(scope="module")
def worlds() -> dict[str, Simulation]:
    return {name: simulate(name) for name in NEW_PRESETS}


def _wide(sim: Simulation) -> pd.DataFrame:
    """Strength per player (rows) and quarter (columns, in order)."""
    return sim.strength.pivot(index="player", columns="period", values="strength").sort_index(
        axis=1)


def _newcomers(sim: Simulation) -> pd.Index:
    players = sim.players.set_index("player")
    return players.index[players["joined"] > players["joined"].min()]


def test_old_presets_are_unchanged(federation: Simulation, two_clubs: Simulation) -> None:
    # Digests of seed 1 taken before the learning curves, jumps and partnership play existed:
    # their settings off, the simulations make the same draws in the same order.
    def digest(frame: pd.DataFrame) -> str:
        return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()

    assert digest(federation.results) == (
        "ef3c037deca8198bdc5cd5107c633b894ae341bb7432019a5d9b1d95da7c83c4")
    assert digest(federation.strength.round(6)) == (
        "f09ab3763d4fe12e792dfcdde02d9fe96d63970ddab12020d00fa73f6fab7bc9")
    assert digest(two_clubs.results) == (
        "6f3cd05319f10e6d59eef580745e586a0a68b8c1b1b9c4d72391ced5974b8dc2")
    assert len(federation.results) == 40029 and len(federation.players) == 473
    assert federation.final_strength()["P0001"] == pytest.approx(508.811056)


@pytest.mark.parametrize("name", NEW_PRESETS)
def test_new_presets_are_deterministic_per_seed(name: str, worlds: dict[str, Simulation]) -> None:
    again = simulate(name, seed=1)
    for frame in ("results", "strength", "players", "events"):
        pd.testing.assert_frame_equal(getattr(again, frame), getattr(worlds[name], frame))
    assert worlds[name].settings["preset"] == name
    small = dataclasses.replace(PRESETS[name], clubs=3, players_per_club=(14, 20), years=1)
    assert not simulate(small, seed=2).results.equals(simulate(small, seed=3).results)


def test_new_presets_are_the_size_of_a_federation(worlds: dict[str, Simulation]) -> None:
    for name, sim in worlds.items():
        members = sim.strength.groupby("period").size()
        low, high = (550, 700) if name == "twelve-clubs" else (250, 400)
        assert low <= members.min() and members.max() <= high, name
        assert 25_000 < len(sim.results) < 60_000, name
    assert sim.strength["period"].nunique() == 12  # twelve-clubs: three years
    assert sim.events["club"].nunique() == 13  # twelve clubs and the congresses


def test_learning_curves_newcomers_improve_fast_then_level_off(
    worlds: dict[str, Simulation],
) -> None:
    sim = worlds["learning-curves"]
    wide, new = _wide(sim), _newcomers(sim)
    # Each newcomer's quarters as a member, from the quarter they joined.
    rows = [wide.loc[p].dropna().to_numpy() for p in new]
    two_years = np.array([r[:9] for r in rows if len(r) >= 9])
    assert len(two_years) > 50
    gain = two_years - two_years[:, :1]
    assert gain[:, 8].mean() > 150  # about 200 * 0.93 over the first two years
    assert gain[:, 3].mean() > 0.6 * gain[:, 8].mean()  # two thirds in the first three quarters
    late = gain[:, 8] - gain[:, 4]
    assert late.mean() < 0.3 * gain[:, 8].mean()  # little in the second year
    # Founders have no curve: their mean change over the years is drift only.
    founders = wide.drop(index=new).dropna()
    assert abs((founders.iloc[:, -1] - founders.iloc[:, 0]).mean()) < 15
    # Many players of the final list are still on their curve or just finished it.
    assert sim.final_strength().index.isin(new).mean() > 0.3


def test_sudden_jumps_raise_some_players_by_a_class_in_one_quarter(
    worlds: dict[str, Simulation], federation: Simulation,
) -> None:
    steps = _wide(worlds["sudden-jumps"]).diff(axis=1)
    jumpers = (steps >= 100).any(axis=1)
    # 8% a year over four years: about a quarter of the long-standing members jump.
    assert 0.08 < jumpers.mean() < 0.4
    assert steps.max().max() < 150 + 60  # a class, plus drift and a newcomer's growth
    # Without jumps no quarter comes close.
    assert _wide(federation).diff(axis=1).max().max() < 60


def test_pair_adjustment() -> None:
    s = PRESETS["partnerships"]
    own, mate = np.array([600.0, 400.0, 500.0, 500.0]), np.array([400.0, 600.0, 500.0, 500.0])
    # Stronger partner weighs 0.65: both seats get 0.15 * 200 = 30 (a pair mean of 530 is
    # 0.65 * 600 + 0.35 * 400); synergy 70 grows linearly over 40 events together.
    assert _pair_adjustment(s, own, mate, np.zeros(4)).tolist() == pytest.approx(
        [30.0, 30.0, 0.0, 0.0])
    assert _pair_adjustment(s, own, mate, np.array([20, 20, 40, 400])).tolist() == pytest.approx(
        [65.0, 65.0, 70.0, 70.0])
    plain = FederationSettings()
    assert not plain.partnership_play and s.partnership_play
    assert (_pair_adjustment(plain, own, mate, np.full(4, 100)) == 0.0).all()


def _constant(**changes: object) -> FederationSettings:
    return dataclasses.replace(SMALL, drift_sd=0.0, newcomer_rate=0.0, leaver_rate=0.0,
                               newcomer_growth=0.0, teams_share=0.0, **changes)


def test_regular_partnerships_play_above_their_mean() -> None:
    # An overwhelming synergy from the second event together on: every pair that has played
    # together before finishes ahead of every pair that has not.
    sim = simulate(_constant(synergy=10_000.0, synergy_events=1, partner_change=0.3), seed=3)
    units = sim.results.groupby(["event_id", "unit"], sort=True).agg(
        players=("player", lambda p: tuple(sorted(p))), place=("place", "first"),
    ).reset_index()
    # Which two of a pair of three are the partners is not in the results: such a unit may
    # have been any two of its three, so "new" is checked against every two of them.
    sat: set[tuple[str, ...]] = set()  # two players who were a unit of two
    maybe: set[tuple[str, ...]] = set()  # ... or two of a unit of three
    checked = 0
    for _, event in units.groupby("event_id", sort=True):
        two = event[event["players"].map(len) == 2]
        old = two["players"].map(lambda p: p in sat)
        new = ~two["players"].map(lambda p: p in maybe)
        if old.any() and new.any():
            assert two.loc[old, "place"].max() < two.loc[new, "place"].min()
            checked += 1
        for players in event["players"]:
            sat.update([players] if len(players) == 2 else [])
            maybe.update(itertools.combinations(players, 2))
    assert checked > 20


def test_the_stronger_partner_can_weigh_more() -> None:
    # strong_weight 1, no luck: a pair plays at its stronger player's strength.
    sim = simulate(_constant(strong_weight=1.0, noise=0.0, tie_step=0.0), seed=3)
    strength = sim.strength.drop_duplicates("player").set_index("player")["strength"]
    rows = sim.results.assign(strength=sim.results["player"].map(strength))
    units = rows.groupby(["event_id", "unit"]).agg(
        best=("strength", "max"), mean=("strength", "mean"), size=("player", "size"),
        place=("place", "first"),
    ).reset_index()
    checked = 0
    for _, event in units.groupby("event_id"):
        pairs = event[event["size"] == 2].sort_values("best", ascending=False)
        assert (np.diff(pairs["place"].to_numpy()) > 0).all()
        checked += 1
    assert checked > 50
    # The order by the mean would differ somewhere.
    by_mean = units.groupby("event_id")["mean"].rank(ascending=False)
    assert (by_mean != units["place"]).any()


def test_partnerships_truth_is_the_individual_strength(worlds: dict[str, Simulation]) -> None:
    # Partnership play changes performances only: the latent strengths are drawn exactly as in
    # the federation with the same seed (same players, same strengths).
    sim = worlds["partnerships"]
    plain = simulate(dataclasses.replace(PRESETS["partnerships"], synergy=0.0, strong_weight=0.5))
    pd.testing.assert_frame_equal(sim.strength, plain.strength)
    pd.testing.assert_frame_equal(sim.players, plain.players)
    assert not sim.results["place"].equals(plain.results["place"])


def test_twelve_clubs_newcomers_join_weaker_and_improve(worlds: dict[str, Simulation]) -> None:
    sim = worlds["twelve-clubs"]
    wide, new = _wide(sim), _newcomers(sim)
    first = sim.strength.drop_duplicates("player").set_index("player")["strength"]
    assert first.drop(index=new).mean() - first.loc[new].mean() > 80
    rows = np.array([r[:9] for r in (wide.loc[p].dropna().to_numpy() for p in new)
                     if len(r) >= 9])
    assert (rows[:, 8] - rows[:, 0]).mean() > 80  # 15 a quarter for eight quarters
    settings = sim.settings
    assert settings["synergy"] == 0 and settings["learning_gain"] == 0
    assert settings["jump_rate"] == 0 and settings["strong_weight"] == 0.5


def test_new_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="jump_rate"):
        FederationSettings(jump_rate=2.0)
    with pytest.raises(ValueError, match="jump_size"):
        FederationSettings(jump_size=(150.0, 100.0))
    with pytest.raises(ValueError, match="learning_gain"):
        FederationSettings(learning_gain=-1.0)
    with pytest.raises(ValueError, match="learning_tau"):
        FederationSettings(learning_tau=0.0)
    with pytest.raises(ValueError, match="strong_weight"):
        FederationSettings(strong_weight=1.5)
    with pytest.raises(ValueError, match="synergy_events"):
        FederationSettings(synergy_events=0)
    with pytest.raises(ValueError, match="synergy"):
        FederationSettings(synergy=-5.0)
