"""McMahon tournaments with dynamic levels (docs/rules/go-mcmahon-levels.md): library and CLI."""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from tournaments import (
    Entrant,
    Game,
    MissingRanks,
    Player,
    Round,
    RoundResults,
    TournamentError,
    TournamentState,
    apply_round,
    events_to_games,
    handicap_levels,
    jigo_update,
    level_history,
    level_update,
    pair_round,
    parse_bars,
    rating_from_grade,
    replay,
    result_scores,
    standings,
    start_level,
    start_score,
    start_tournament,
    state_from_json,
    state_to_json,
)

# ---------------------------------------------------------------- start


@pytest.mark.parametrize(("rating", "level"), [
    (-900, 33), (100, 62), (1100, 105), (2100, 179), (2150, 185), (2350, 212), (2400, 220),
    (2550, 249), (2600, 260), (2700, 289), (2800, 330),
])
def test_start_level_matches_the_source_table(rating: float, level: int) -> None:
    assert start_level(rating) == level


def test_start_level_needs_a_rating_below_3000() -> None:
    with pytest.raises(TournamentError, match="3000"):
        start_level(3000)


@pytest.mark.parametrize(("grade", "rating"), [
    ("21k", 0), ("3k", 1800), ("1k", 2000), ("1d", 2100), ("4 dan", 2400), ("30 kyu", -900),
])
def test_rating_from_grade(grade: str, rating: float) -> None:
    assert rating_from_grade(grade) == rating


def test_bars_give_start_points_and_one_less_below_the_lowest() -> None:
    bars = parse_bars("1800:-1, 2100:0")
    assert bars == ((2100.0, 0), (1800.0, -1))
    assert [start_score(r, bars) for r in (2400, 2100, 2099, 1800, 1799)] == [0, 0, -1, -1, -2]
    assert start_score(1000, ()) == 0
    with pytest.raises(TournamentError, match="RATING:POINTS"):
        parse_bars("2100-0")
    with pytest.raises(TournamentError, match="fall"):
        parse_bars("2100:0,1800:1")


def test_start_tournament_numbers_by_rating_and_checks_the_top_group() -> None:
    entrants = [Entrant("b", "Boris", 2000), Entrant("a", "Anna", 2400),
                Entrant("c", "Clara", 2200), Entrant("d", "Dmitri", 2150)]
    state = start_tournament(entrants, rounds=3, essential_places=1, bars=parse_bars("2150:0"))
    assert [(p.id, p.start_number, p.start_score, p.start_level) for p in state.players] == [
        ("a", 1, 0, 220), ("c", 2, 0, 191), ("d", 3, 0, 185), ("b", 4, -1, 169)]
    with pytest.raises(TournamentError, match="fewer than twice the 2 essential places"):
        start_tournament(entrants, rounds=3, essential_places=2, bars=parse_bars("2200:0"))
    with pytest.raises(TournamentError, match="twice"):
        start_tournament([*entrants, Entrant("a", "Again", 100)], rounds=3, essential_places=1)


# ---------------------------------------------------------------- level updates


def test_source_check_six_dan_against_four_dan() -> None:
    # docs/rules/go-mcmahon-levels.md "Level update": a 6 dan (260) beating a 4 dan (220) gains 1; losing costs 9
    assert level_update(260, 220) == (261, 219)
    assert level_update(220, 260) == (229, 251)


def test_nobody_falls_more_than_ten_and_an_upset_is_uncapped() -> None:
    assert level_update(100, 300) == (125, 290)  # winner +5+20, loser -5-5
    assert level_update(300, 100) == (300, 100)  # +5-5 and -5+5


def test_a_win_over_someone_46_below_gains_nothing() -> None:
    assert level_update(200, 154) == (200, 154)
    assert level_update(200, 155) == (201, 154)


def test_rounding_is_half_up_for_the_winner_and_mirrored_for_the_loser() -> None:
    assert level_update(200, 185) == (204, 181)  # 0.1 * -15 = -1.5 -> -1; loser -5 + 1
    assert level_update(185, 200) == (192, 193)  # 0.1 * 15 = 1.5 -> 2; loser -2
    assert level_update(200, 200) == (205, 195)


def test_jigo_moves_the_lower_player_up_by_the_capped_term() -> None:
    assert jigo_update(200, 200) == (200, 200)
    assert jigo_update(200, 240) == (204, 236)
    assert jigo_update(240, 200) == (236, 204)
    assert jigo_update(100, 300) == (105, 295)


def test_handicap_levels_follow_the_level_step() -> None:
    # docs/rules/go-mcmahon-levels.md "Handicap tournaments": ~3 levels a stone at 21k, 5 at 11k, 10 at 1k
    for rating, step in ((0, 100 / 30), (1000, 5.0), (2000, 10.0)):
        u = 399 - 100 * math.log((3000 - rating) / 100)
        assert handicap_levels(3, u) - handicap_levels(2, u) == pytest.approx(step)
        assert handicap_levels(1, u) == pytest.approx(step / 2)  # no komi = half a stone
    assert handicap_levels(0, 150) == 0.0


def test_handicap_enters_dc() -> None:
    # the winner received 40 levels of handicap: Dc = 260 - 220 - 40 = 0, an even result
    assert level_update(220, 260, handicap_levels=40) == (225, 255)


@given(st.integers(0, 400), st.integers(0, 400), st.floats(-60, 60))
def test_levels_never_drop_more_than_ten(uw: int, ul: int, h: float) -> None:
    new_w, new_l = level_update(uw, ul, handicap_levels=h)
    assert new_w >= uw
    assert ul - 10 <= new_l <= ul
    ja, jb = jigo_update(uw, ul, handicap_levels=h)
    assert uw - 5 <= ja <= uw + 5 and ul - 5 <= jb <= ul + 5
    assert ja - uw == ul - jb


# ---------------------------------------------------------------- rounds


def _field(n: int, *, rounds: int = 3) -> TournamentState:
    entrants = [Entrant(f"p{i}", f"P{i}", 2400 - 50 * i) for i in range(1, n + 1)]
    return start_tournament(entrants, rounds=rounds, essential_places=1)


def test_apply_round_updates_points_and_levels_from_the_levels_before() -> None:
    state = _field(5)  # levels p1..p5: 212 204 198 191 185
    games = (Game("p1", "p2", 0.0, 1.0), Game("p3", "p4", 0.5, 0.5),
             Game("p5", "p1", 1.0, 0.0, played=False))
    with pytest.raises(TournamentError, match="appears twice"):
        apply_round(state, RoundResults(games=games))
    state = apply_round(state, RoundResults(games=games[:2], byes=("p5",)))
    rnd = state.played[0]
    assert rnd.number == 1 and rnd.absent == () and rnd.byes == ("p5",)
    assert dict(rnd.levels) == {"p1": 206, "p2": 210, "p3": 197, "p4": 192, "p5": 185}
    assert state.points() == {"p1": 0.0, "p2": 1.0, "p3": 0.5, "p4": 0.5, "p5": 1.0}
    state = apply_round(state, RoundResults(games=(Game("p5", "p1", 1.0, 0.0, played=False),)))
    assert state.played[1].absent == ("p2", "p3", "p4")
    assert dict(state.played[1].levels) == dict(rnd.levels)  # no game, no level change
    assert state.points()["p5"] == 2.0
    assert state.met() == {frozenset(("p1", "p2")), frozenset(("p3", "p4"))}
    history = level_history(state)
    assert list(history.columns) == ["id", "name", "U0", "U1", "U2"]
    assert history.set_index("id").loc["p1"].tolist() == ["P1", 212, 206, 206]


def test_apply_round_rejects_bad_input() -> None:
    state = _field(4, rounds=1)
    with pytest.raises(TournamentError, match="unknown player 'x'"):
        apply_round(state, RoundResults(games=(Game("p1", "x", 1.0, 0.0),)))
    with pytest.raises(TournamentError, match="impossible result"):
        apply_round(state, RoundResults(games=(Game("p1", "p2", 1.0, 1.0),)))
    state = apply_round(state, RoundResults(games=()))
    with pytest.raises(TournamentError, match="all 1 rounds"):
        apply_round(state, RoundResults(games=()))


def test_handicap_game_uses_the_receivers_levels() -> None:
    state = start_tournament([Entrant("s", "Strong", 2100), Entrant("w", "Weak", 1100)],
                             rounds=1, essential_places=1)  # 179 and 105
    after = apply_round(state, RoundResults(games=(Game("s", "w", 0.0, 1.0, handicap=9),)))
    h = handicap_levels(9, (179 + 105) / 2)
    assert dict(after.played[0].levels) == dict(
        zip(("w", "s"), level_update(105, 179, handicap_levels=h)))


# ---------------------------------------------------------------- pairing


def _manual(levels: dict[str, int], rounds: int, games: Sequence[Game] = (),
            byes: Sequence[str] = ()) -> TournamentState:
    """A state with one played round whose final levels are set by hand."""
    players = tuple(Player(pid, pid.upper(), 2000.0 - i, i + 1, 0, level)
                    for i, (pid, level) in enumerate(levels.items()))
    played = (Round(1, tuple(games), tuple(byes),
                    tuple(p for p in levels if p not in {x for g in games for x in (g.a, g.b)}
                          and p not in byes), MappingProxyType(dict(levels))),)
    return TournamentState(rounds=rounds, essential_places=1, bars=(), players=players,
                           played=played)


def test_top_group_is_folded_when_big_enough() -> None:
    state = _field(8, rounds=3)  # 8 >= 2 * 3 rounds remaining
    assert pair_round(state).pairs == (("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8"))


def test_fold_skips_a_previous_opponent_for_the_next_in_the_list() -> None:
    levels = {f"p{i}": 300 - 10 * i for i in range(1, 9)}
    jigos = [Game(f"p{i}", f"p{i + 4}", 0.5, 0.5) for i in range(1, 5)]  # all on 0.5 points
    state = _manual(levels, rounds=3, games=jigos)
    assert pair_round(state).pairs == (("p1", "p6"), ("p2", "p7"), ("p3", "p8"), ("p4", "p5"))


def test_small_groups_play_the_nearest_by_level_and_backtrack() -> None:
    levels = {"p1": 250, "p2": 240, "p3": 230, "p4": 220, "p5": 210, "p6": 200}
    state = _manual(levels, rounds=5, games=[Game("p5", "p6", 0.5, 0.5),
                                             Game("p1", "p3", 0.5, 0.5),
                                             Game("p2", "p4", 0.5, 0.5)])
    # nearest: p1-p2, p3-p4, then p5-p6 met before -> undo p3-p4, p3 takes p5
    pairing = pair_round(state)
    assert pairing.pairs == (("p1", "p2"), ("p3", "p5"), ("p4", "p6"))
    assert pairing.repeats == () and pairing.bye is None


def test_a_player_left_alone_in_a_group_moves_down() -> None:
    state = _manual({"a": 200, "b": 250, "c": 180, "d": 100}, rounds=5,
                    games=[Game("a", "c", 1.0, 0.0), Game("b", "d", 0.0, 1.0)])
    # a (1 point) and d (1 point) form the top group; b and c (0) the next
    pairing = pair_round(state)
    assert pairing.pairs == (("a", "d"), ("b", "c"))


def test_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    state = _field(5, rounds=3)
    first = pair_round(state)
    assert first.bye == "p5"
    state = apply_round(state, RoundResults(
        games=tuple(Game(a, b, 1.0, 0.0) for a, b in first.pairs), byes=("p5",)))
    # 1 point: p1 (216), p3 (202), p5 (185, the bye); 0 points: p2 (200), p4 (187)
    assert state.levels() == {"p1": 216, "p2": 200, "p3": 202, "p4": 187, "p5": 185}
    second = pair_round(state)
    assert second.bye == "p4"
    assert second.pairs == (("p1", "p3"), ("p5", "p2"))


def test_absent_players_are_not_paired() -> None:
    pairing = pair_round(_field(5, rounds=3), absent=["p2"])
    assert pairing.absent == ("p2",) and pairing.bye is None
    assert sorted(x for pq in pairing.pairs for x in pq) == ["p1", "p3", "p4", "p5"]
    with pytest.raises(TournamentError, match="unknown player"):
        pair_round(_field(3), absent=["zz"])


def test_unavoidable_repeats_are_reported() -> None:
    state = _field(2, rounds=2)
    state = apply_round(state, RoundResults(games=(Game("p1", "p2", 1.0, 0.0),)))
    pairing = pair_round(state)
    assert pairing.pairs == (("p1", "p2"),)
    assert pairing.repeats == (("p1", "p2"),)
    assert any("repeated" in n for n in pairing.notes)


def test_a_forfeit_is_not_a_meeting() -> None:
    state = _field(2, rounds=2)
    state = apply_round(state, RoundResults(games=(Game("p1", "p2", 1.0, 0.0, played=False),)))
    assert pair_round(state).repeats == ()


def _has_fresh_pairing(players: Sequence[str], met: set[frozenset[str]]) -> bool:
    """Brute force: a pairing of ``players`` (one bye if odd) with no repeated meeting."""
    if len(players) % 2:
        return any(_has_fresh_pairing([p for p in players if p != bye], met) for bye in players)
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(frozenset((first, q)) not in met
               and _has_fresh_pairing([r for r in rest if r != q], met) for q in rest)


@st.composite
def _tournaments(draw: st.DrawFn) -> tuple[TournamentState, list[str]]:
    n = draw(st.integers(2, 10))
    ratings = draw(st.lists(st.integers(-500, 2700), min_size=n, max_size=n))
    played = draw(st.integers(0, 5))
    state = start_tournament([Entrant(f"p{i}", f"P{i}", r) for i, r in enumerate(ratings)],
                             rounds=played + 1, essential_places=1, check_top_group=False,
                             bars=parse_bars(draw(st.sampled_from(["", "1500:0", "2000:0,0:-1"]))))
    ids = [p.id for p in state.players]
    for _ in range(played):
        order = draw(st.permutations(ids))
        cut = draw(st.integers(0, n // 2))
        games = tuple(Game(order[2 * k], order[2 * k + 1],
                           *draw(st.sampled_from([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])))
                      for k in range(cut))
        rest = order[2 * cut:]
        byes = tuple(rest[:1]) if draw(st.booleans()) else ()
        state = apply_round(state, RoundResults(games=games, byes=byes))
    absent = draw(st.lists(st.sampled_from(ids), unique=True, max_size=2))
    return state, absent


@settings(max_examples=150, deadline=None)
@given(_tournaments())
def test_pairing_properties(case: tuple[TournamentState, list[str]]) -> None:
    state, absent = case
    pairing = pair_round(state, absent=absent)
    present = [p.id for p in state.players if p.id not in absent]
    seated = [x for pq in pairing.pairs for x in pq] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seated) == sorted(present)  # everyone present exactly once
    assert (pairing.bye is not None) == (len(present) % 2 == 1)
    met = state.met()
    assert pairing.repeats == tuple(pq for pq in pairing.pairs if frozenset(pq) in met)
    if _has_fresh_pairing(present, met):
        assert pairing.repeats == ()


@settings(max_examples=100, deadline=None)
@given(_tournaments())
def test_standings_are_a_permutation(case: tuple[TournamentState, list[str]]) -> None:
    state, _ = case
    table = standings(state)
    assert table["place"].tolist() == list(range(1, len(state.players) + 1))
    assert sorted(table["id"]) == sorted(p.id for p in state.players)
    assert table["mcmahon"].is_monotonic_decreasing
    assert table["separated_by"].iloc[-1] == ""
    assert (table["separated_by"].iloc[:-1] != "").all()


# ---------------------------------------------------------------- standings


def test_criteria_restart_from_the_first_after_a_separation() -> None:
    # docs/rules/go-mcmahon-levels.md "Final places": A, B, C tie on points without all games among them; opponents'
    # level puts A first; then B and C are compared again from the start, and C beat B.
    levels = {"y": 400, "a": 200, "b": 150, "c": 100, "x": 300, "z": 0}
    players = tuple(Player(pid, pid.upper(), 2000.0, i + 1, 0, 200)
                    for i, pid in enumerate(levels))
    r1 = Round(1, (Game("c", "b", 1.0, 0.0), Game("a", "x", 1.0, 0.0),
                   Game("y", "z", 1.0, 0.0)), (), (), MappingProxyType(dict(levels)))
    r2 = Round(2, (Game("b", "x", 1.0, 0.0), Game("a", "y", 0.0, 1.0)), (), ("c", "z"),
               MappingProxyType(dict(levels)))
    state = TournamentState(rounds=2, essential_places=1, bars=(), players=players,
                            played=(r1, r2))
    table = standings(state).set_index("id")
    assert list(table.index) == ["y", "a", "c", "b", "z", "x"]
    assert table["separated_by"].tolist() == [
        "mcmahon", "opponents_level", "head_to_head", "mcmahon", "opponents_level", ""]
    assert table.loc["a", "opponents_level"] == 350.0  # (x 300 + y 400) / 2
    assert table.loc["b", "opponents_level"] == 200.0
    assert table.loc["c", "opponents_level"] == 150.0  # the absence adds nothing
    assert table.loc["c", "head_to_head"] == 1.0 and table.loc["b", "head_to_head"] == 0.0
    assert math.isnan(table.loc["a", "head_to_head"])
    assert table.loc["y", "mcmahon"] == 2.0 and table.loc["y", "games"] == 2


def test_bye_counts_own_level_and_forfeit_loss_adds_nothing() -> None:
    levels = {"a": 200, "b": 180, "c": 160}
    players = tuple(Player(pid, pid, 2000.0 - i, i + 1, 0, lv)
                    for i, (pid, lv) in enumerate(levels.items()))
    r1 = Round(1, (Game("a", "b", 1.0, 0.0),), ("c",), (), MappingProxyType(dict(levels)))
    r2 = Round(2, (Game("c", "a", 1.0, 0.0, played=False),), ("b",), (),
               MappingProxyType(dict(levels)))
    state = TournamentState(rounds=2, essential_places=1, bars=(), players=players,
                            played=(r1, r2))
    table = standings(state).set_index("id")
    assert table.loc["c", "opponents_level"] == 160.0  # bye and forfeit win: own level twice
    assert table.loc["a", "opponents_level"] == 180.0  # the forfeit loss adds nothing
    assert table.loc["b", "opponents_level"] == 190.0  # a (200) and the bye (180)
    assert table.loc["c", "games"] == 0


def test_level_then_rating_then_start_number() -> None:
    entrants = [Entrant("x", "X", 2100), Entrant("y", "Y", 2101), Entrant("z", "Z", 2300),
                Entrant("w", "W", 2100)]
    table = standings(start_tournament(entrants, rounds=1, essential_places=1))
    assert table["id"].tolist() == ["z", "y", "w", "x"]  # W before X: start number (name)
    assert table["separated_by"].tolist() == ["level", "rating", "start_number", ""]


# ---------------------------------------------------------------- JSON


def test_state_round_trips_through_json() -> None:
    state = _field(5, rounds=2)
    pairing = pair_round(state)
    state = apply_round(state, RoundResults(
        games=tuple(Game(a, b, 0.5, 0.5, handicap=1) for a, b in pairing.pairs),
        byes=(pairing.bye,) if pairing.bye else ()))
    from dataclasses import replace
    state = replace(state, pending=pair_round(state))
    again = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert state_to_json(again) == state_to_json(state)
    assert again.levels() == state.levels() and again.pending == state.pending
    with pytest.raises(TournamentError, match="not a McMahon state"):
        state_from_json({"format": "other"})
    with pytest.raises(TournamentError, match="malformed"):
        state_from_json({"format": "clubratings-mcmahon", "version": 1})


def test_replay_treats_rounds_without_a_game_as_absences() -> None:
    entrants = [Entrant("a", "A", 2100), Entrant("b", "B", 2000), Entrant("c", "C", 1900)]
    state = replay(entrants, {1: [Game("a", "b", 1.0, 0.0)], 3: [Game("c", "a", 0.0, 1.0)]})
    assert state.rounds == 3 and len(state.played) == 3
    assert state.played[1].absent == ("a", "b", "c")
    assert state.points() == {"a": 2.0, "b": 0.0, "c": 0.0}


# ---------------------------------------------------------------- command line


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def started(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    players = tmp_path / "players.csv"
    players.write_text("name,rating,id\nAnna,2400,1\nBoris,2350,2\nClara,2200,3\n"
                       "Dmitri,2150,4\nEva,1d,5\n", encoding="utf-8")
    state = tmp_path / "state.json"
    code, out, err = _run(capsys, "mcmahon", "start", str(players), "--rounds", "3",
                          "--essential", "2", "--bars", "2150:0,1800:-1", "--out", str(state))
    assert (code, err) == (0, "")
    assert out.startswith("5 players, 3 rounds")
    return state


def test_cli_start_writes_the_state(started: Path) -> None:
    data = json.loads(started.read_text(encoding="utf-8"))
    assert data["rounds"] == 3 and data["essential_places"] == 2
    assert data["bars"] == [[2150.0, 0], [1800.0, -1]]
    assert [(p["id"], p["name"], p["rating"], p["start_number"], p["start_score"],
             p["start_level"]) for p in data["players"]] == [
        ("1", "Anna", 2400.0, 1, 0, 220), ("2", "Boris", 2350.0, 2, 0, 212),
        ("3", "Clara", 2200.0, 3, 0, 191), ("4", "Dmitri", 2150.0, 4, 0, 185),
        ("5", "Eva", 2100.0, 5, -1, 179)]
    assert data["played"] == [] and data["pending"] is None


def test_cli_start_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       started: Path) -> None:
    players = tmp_path / "p.csv"
    players.write_text("name,rating\nAnna,2400\nBoris,strong\n", encoding="utf-8")
    out = tmp_path / "new.json"
    code, _, err = _run(capsys, "mcmahon", "start", str(players), "--rounds", "3",
                        "--essential", "1", "--out", str(out))
    assert code == 2 and err.count("\n") == 1
    assert "row 3, column rating: not a rating or grade: 'strong'" in err
    players.write_text("name,rating\nAnna,2400\nBoris,2300\n", encoding="utf-8")
    code, _, err = _run(capsys, "mcmahon", "start", str(players), "--rounds", "3",
                        "--essential", "2", "--out", str(out))
    assert code == 2 and "lower the top bar" in err and not out.exists()
    code, _, err = _run(capsys, "mcmahon", "start", str(players), "--rounds", "3",
                        "--essential", "1", "--out", str(started))
    assert code == 2 and "exists" in err


def test_cli_pair_result_standings(started: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "mcmahon", "pair", str(started))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "round 1"
    assert lines[1] == "  1  Anna (U 220, 0 pts) - Boris (U 212, 0 pts)"
    assert lines[2] == "  2  Clara (U 191, 0 pts) - Dmitri (U 185, 0 pts)"
    assert lines[3] == "bye  Eva (U 179, -1 pts)"
    pending = json.loads(started.read_text(encoding="utf-8"))["pending"]
    assert pending["round"] == 1 and pending["pairs"] == [["1", "2"], ["3", "4"]]
    assert pending["bye"] == "5"

    results = tmp_path / "r1.csv"
    results.write_text("round,white,black,result\n1,Anna,Boris,0-1\n1,3,Dmitri,B+R\n",
                       encoding="utf-8")
    code, out, err = _run(capsys, "mcmahon", "result", str(started), str(results))
    assert (code, err) == (0, "") and "1 of 3 rounds played" in out
    data = json.loads(started.read_text(encoding="utf-8"))
    (rnd,) = data["played"]
    assert rnd["byes"] == ["5"]  # the bye of the pending pairing
    assert rnd["levels"] == {"1": 214, "2": 218, "3": 185, "4": 191, "5": 179}
    assert data["pending"] is None

    before = started.read_bytes()
    code, _, err = _run(capsys, "mcmahon", "result", str(started), str(results))
    assert code == 2 and err == (f"clubratings: {results}: round 1 is already recorded; "
                                 "the next round is 2\n")
    assert started.read_bytes() == before

    code, out, _ = _run(capsys, "mcmahon", "standings", str(started), "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["name"] for r in rows] == ["Boris", "Dmitri", "Anna", "Clara", "Eva"]
    assert [r["mcmahon"] for r in rows] == ["1.0", "1.0", "0.0", "0.0", "0.0"]
    assert rows[0]["separated_by"] == "opponents_level"  # Anna 214 > Clara 185
    assert rows[0]["opponents_level"] == "214.0" and rows[1]["opponents_level"] == "185.0"
    assert rows[4]["opponents_level"] == "179.0"  # the bye: Eva's own level

    code, out, _ = _run(capsys, "mcmahon", "standings", str(started), "--levels")
    assert code == 0
    assert out.splitlines()[1].split() == ["1", "Anna", "220", "214"]
    code, out, _ = _run(capsys, "mcmahon", "standings", str(started))
    assert code == 0 and out.splitlines()[1].split()[:3] == ["1", "2", "Boris"]


def test_cli_result_errors_name_row_and_column(started: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "bad.csv"
    results.write_text("round,player_a,player_b,result\n1,Anna,Boris,1-0\n1,Clara,Zed,1-0\n",
                       encoding="utf-8")
    code, _, err = _run(capsys, "mcmahon", "result", str(started), str(results))
    assert code == 2
    assert err == (f"clubratings: {results}: row 3, column player_b: 'Zed' is no player of "
                   "the tournament\n")
    results.write_text("round,player_a,player_b,result\n1,Anna,Boris,win\n", encoding="utf-8")
    code, _, err = _run(capsys, "mcmahon", "result", str(started), str(results))
    assert code == 2 and "row 2, column result: unknown result 'win'" in err
    results.write_text("round,a,b,result\n", encoding="utf-8")
    code, _, err = _run(capsys, "mcmahon", "result", str(started), str(results))
    assert code == 2 and "results need columns" in err


def test_cli_result_forfeit_bye_and_absence(started: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r1.csv"
    results.write_text("round,player_a,player_b,result,handicap\n1,Anna,Boris,+-,0\n"
                       "1,Clara,,bye,\n1,Dmitri,,absent,\n", encoding="utf-8")
    assert _run(capsys, "mcmahon", "result", str(started), str(results))[0] == 0
    (rnd,) = json.loads(started.read_text(encoding="utf-8"))["played"]
    assert rnd["games"] == [{"a": "1", "b": "2", "score_a": 1.0, "score_b": 0.0,
                             "handicap": 0, "played": False}]
    assert rnd["byes"] == ["3"] and rnd["absent"] == ["4", "5"]
    assert rnd["levels"] == {"1": 220, "2": 212, "3": 191, "4": 185, "5": 179}


def test_cli_standings_needs_one_source(capsys: pytest.CaptureFixture[str],
                                        started: Path) -> None:
    code, _, err = _run(capsys, "mcmahon", "standings")
    assert code == 2 and "STATE.json or --games" in err
    code, _, err = _run(capsys, "mcmahon", "standings", str(started), "--bars", "2000:0")
    assert code == 2 and "only apply with --games" in err


def test_cli_games_without_ranks_asks_for_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    import parsers

    events = (_go_game(1, ("Ann", ""), ("Bob", "2k"), "Ann"),)

    def parse(data: bytes, *, source: str = "", strict: bool = False) -> parsers.ParseResult:
        return parsers.ParseResult(format="fake_go", events=events)  # type: ignore[arg-type]

    monkeypatch.setitem(parsers.FORMATS, "fake_go", parsers.Format(
        "fake_go", "test go tables", lambda data, filename="": data.startswith(b"GO"), parse))
    path = tmp_path / "cup.txt"
    path.write_bytes(b"GO table\n")
    code, _, err = _run(capsys, "mcmahon", "standings", "--games", str(path))
    assert code == 2
    assert err == ("clubratings: cup.txt: no rank for player 'Ann' (1 without one); give "
                   "ratings or grades with --players PLAYERS.csv (name,rating[,id])\n")


def _go_game(rnd: int, black: tuple[str, str], white: tuple[str, str], winner: str) -> object:
    from parsers import Event, PlayerAsWritten, Unit

    units = tuple(
        Unit(place=1.0 if name == winner else 2.0, place_text="", label=grade, score=None,
             players=(PlayerAsWritten(name),), colour=colour)
        for (name, grade), colour in ((black, "black"), (white, "white")))
    return Event(game="go", title=f"Cup round {rnd}: {black[0]} – {white[0]}",
                 date=dt.date(2024, 5, 1), kind="individual", scoring="unknown", units=units,
                 round=rnd, parent="Cup", handicap=0, section="board 1")


def test_cli_standings_from_a_go_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import parsers

    events = (
        _go_game(1, ("Ann", "1d"), ("Bob", "2k"), "Ann"),
        _go_game(1, ("Cid", "3k"), ("Dan", "5k"), "Dan"),
        _go_game(2, ("Ann", "1d"), ("Dan", "5k"), "Ann"),
        _go_game(2, ("Bob", "2k"), ("Cid", "3k"), "Cid"),
    )

    def parse(data: bytes, *, source: str = "", strict: bool = False) -> parsers.ParseResult:
        return parsers.ParseResult(format="fake_go", events=events)  # type: ignore[arg-type]

    fake = parsers.Format("fake_go", "test go tables",
                          lambda data, filename="": data.startswith(b"GO"), parse)
    monkeypatch.setitem(parsers.FORMATS, "fake_go", fake)
    path = tmp_path / "cup.txt"
    path.write_bytes(b"GO table\n")
    code, out, err = _run(capsys, "mcmahon", "standings", "--games", str(path), "--csv")
    assert (code, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["name"] for r in rows] == ["Ann", "Dan", "Cid", "Bob"]
    assert [r["rating"] for r in rows] == ["2100.0", "1600.0", "1800.0", "1900.0"]
    assert [r["mcmahon"] for r in rows] == ["2.0", "1.0", "1.0", "0.0"]
    # Dan and Cid met in round 1 and Dan won
    assert rows[1]["separated_by"] == "head_to_head"

    players = tmp_path / "players.csv"
    players.write_text("name,rating\nBob,2500\n", encoding="utf-8")  # wins over his 2k
    code, out, err = _run(capsys, "mcmahon", "standings", "--games", str(path), "--csv",
                          "--players", str(players), "--bars", "2400:0")
    assert (code, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["name"], r["rating"], r["start_score"], r["mcmahon"]) for r in rows] == [
        ("Ann", "2100.0", "-1", "1.0"), ("Cid", "1800.0", "-1", "0.0"),
        ("Bob", "2500.0", "0", "0.0"), ("Dan", "1600.0", "-1", "0.0")]
    # Bob (238) lost twice: -10 each time, the cap; Cid, Bob, Dan tie on points with not all
    # games played; Cid's opponents (Dan 142, Bob 218) average 180 against 173.5 for both
    # others, and Bob's own level (218) beats Dan's (142)
    assert [r["level"] for r in rows] == ["190", "157", "218", "142"]
    assert [r["opponents_level"] for r in rows] == ["180.0", "180.0", "173.5", "173.5"]
    assert [r["separated_by"] for r in rows] == ["mcmahon", "opponents_level", "level", ""]

    path.write_bytes(b"nothing anyone reads\n")
    code, _, err = _run(capsys, "mcmahon", "standings", "--games", str(path))
    assert code == 2 and err.count("\n") == 1 and "no known format reads this file" in err


def _duck_game(rnd: int | None, a: tuple[str, str, str], b: tuple[str, str, str],
                places: tuple[float, float], handicap: int | None = None) -> object:
    """A go game as the library reads it: attributes only, no parsers record."""
    from types import SimpleNamespace as NS

    def unit(player: tuple[str, str, str], place: float) -> object:
        name, fid, grade = player
        return NS(place=place, colour=None, label="",
                  players=(NS(name=name, federation_id=fid or None, grade=grade),))

    return NS(title=f"round {rnd}", round=rnd, handicap=handicap,
              units=(unit(a, places[0]), unit(b, places[1])))


def test_events_to_games_reads_duck_typed_events() -> None:
    events = [_duck_game(1, ("Ann", "101", "1d"), ("Bob", "", "bad"), (2.0, 1.0), handicap=2),
              _duck_game(2, ("Ann", "101", ""), ("Cid", "", "3k"), (1.5, 1.5))]
    entrants, games = events_to_games(events, {"Bob": 1900.0})
    assert entrants == [Entrant("101", "Ann", 2100.0), Entrant("Bob", "Bob", 1900.0),
                        Entrant("Cid", "Cid", 1800.0)]
    assert games == {1: [Game("101", "Bob", 0.0, 1.0, handicap=2)],
                     2: [Game("101", "Cid", 0.5, 0.5)]}


@pytest.mark.parametrize(("event", "message"), [
    (_duck_game(None, ("A", "", "1d"), ("B", "", "1d"), (1.0, 2.0)),
     "game 'round None' has no round number"),
    (_duck_game(1, ("A", "", "1d"), ("B", "", "1d"), (1.0, 1.0)),
     "game 'round 1': places [1.0, 1.0] are no go result"),
])
def test_events_to_games_refuses_what_is_no_go_game(event: object, message: str) -> None:
    with pytest.raises(TournamentError) as caught:
        events_to_games([event])
    assert str(caught.value) == message


def test_events_to_games_names_players_without_a_rank() -> None:
    events = [_duck_game(1, ("Zed", "", ""), ("Amy", "", "kyu?"), (1.0, 2.0))]
    with pytest.raises(MissingRanks) as caught:
        events_to_games(events)
    assert caught.value.names == ("Amy", "Zed")
    assert str(caught.value) == "no rank for player 'Amy' (2 without one)"


def test_result_scores() -> None:
    assert result_scores("1-0", colours=False) == (1.0, 0.0, True)
    assert result_scores(" ½-½ ", colours=False) == (0.5, 0.5, True)
    assert result_scores("-+", colours=False) == (0.0, 1.0, False)
    assert result_scores("B+R", colours=True) == (0.0, 1.0, True)
    with pytest.raises(ValueError):
        result_scores("B+R", colours=False)


def test_cli_games_without_a_round_fail_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dataclasses import replace

    import parsers

    game = _go_game(1, ("Ann", "1d"), ("Bob", "2k"), "Ann")
    events = (replace(game, round=None),)  # type: ignore[type-var]

    def parse(data: bytes, *, source: str = "", strict: bool = False) -> parsers.ParseResult:
        return parsers.ParseResult(format="fake_go", events=events)  # type: ignore[arg-type]

    monkeypatch.setitem(parsers.FORMATS, "fake_go", parsers.Format(
        "fake_go", "test go tables", lambda data, filename="": data.startswith(b"GO"), parse))
    path = tmp_path / "cup.txt"
    path.write_bytes(b"GO table\n")
    code, _, err = _run(capsys, "mcmahon", "standings", "--games", str(path))
    assert code == 2
    assert err == "clubratings: cup.txt: game 'Cup round 1: Ann – Bob' has no round number\n"


def test_the_brute_force_helper() -> None:
    assert _has_fresh_pairing(["a", "b", "c", "d"], {frozenset("ab"), frozenset("cd")})
    assert not _has_fresh_pairing(["a", "b"], {frozenset("ab")})
    met = {frozenset(pq) for pq in itertools.combinations("abc", 2)}
    assert not _has_fresh_pairing(["a", "b", "c", "d"], met | {frozenset("ad")})
