"""Explanations of a rating run (docs/rules/bridge-belo.md §13): shares, partners, ``clubratings explain``.

The club below plays two quarters. In 2013Q4 everybody starts at 500 (``newcomer=flat``), so the
factors are 1 and the contributions can be worked out by hand; 2014Q1 has real factors.

    E1 2013-10-03 Autumn pairs, 24 boards  (1,2) 1st  (3,4) 2nd  (5,6) 3rd  (7,8) 4th
    E2 2013-10-10 Autumn pairs, 30 boards  (3,4) 1st  (1,2) 2nd  (5,6) 3rd  (7,8) 4th
    E3 2013-11-07 Club cup,     20 boards  (1,3) 1st  (5,6) 2nd  (7,8) 3rd  (2,4) 4th
    E4 2013-11-14 Two tables,   24 boards  (1,2) 1st  (9,10) 2nd  -- 2 units: counts for nobody
    E5 2014-01-09 Winter pairs, 24 boards  (3,4) 1st  (1,2) 2nd  (7,8) 3rd  (5,6) 4th
    E6 2014-02-06 Winter pairs, 26 boards  (1,2) 1st  (5,6) 2nd  (3,4) 3rd  (7,8) 4th

Players 1 and 9 are both "Ján Novák" (federation ids 1001 and 2002).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import ratings
from cli.explain import format_explanation as _format
from cli import main
from parsers import parse_bytes
from warehouse import (
    Warehouse,
    WarehouseError,
    load_result,
    open_warehouse,
    results_frame,
    store_run,
)
from warehouse.explain import ExplainError, explain_player, find_player, partners

from ._csvs import HEADER

NAMES = {
    1: ("Ján Novák", "1001"), 2: ("Peter Kováč", ""), 3: ("Eva Horváthová", ""),
    4: ("Mária Tóthová", ""), 5: ("Jozef Varga", ""), 6: ("Anna Nagyová", ""),
    7: ("Milan Baláž", ""), 8: ("Zuzana Molnárová", ""), 9: ("Ján Novák", "2002"),
    10: ("Eva Malá", ""),
}

EVENTS = [
    ("2013-10-03", "Autumn pairs", 24, [(1, 2), (3, 4), (5, 6), (7, 8)]),
    ("2013-10-10", "Autumn pairs", 30, [(3, 4), (1, 2), (5, 6), (7, 8)]),
    ("2013-11-07", "Club cup", 20, [(1, 3), (5, 6), (7, 8), (2, 4)]),
    ("2013-11-14", "Two tables", 24, [(1, 2), (9, 10)]),
    ("2014-01-09", "Winter pairs", 24, [(3, 4), (1, 2), (7, 8), (5, 6)]),
    ("2014-02-06", "Winter pairs", 26, [(1, 2), (5, 6), (3, 4), (7, 8)]),
]


def _csv(events: list[tuple[str, str, int, list[tuple[int, int]]]]) -> bytes:
    """CSV-template rows: units finish in the order listed."""
    rows = [HEADER]
    for date, title, boards, units in events:
        for place, unit in enumerate(units, 1):
            for player in unit:
                name, fid = NAMES[player]
                rows.append(f"Test Club,{title},{date},pairs,MP,{boards},{place},{place},"
                            f"{60 - 3 * place:.2f},{name},{fid}")
    return ("\n".join(rows) + "\n").encode("utf-8")


def _load(wh: Warehouse, events: list[tuple[str, str, int, list[tuple[int, int]]]]) -> None:
    data = _csv(events)
    load_result(wh, data, parse_bytes(data, source="club.csv"), path="club.csv")


def _rate(wh: Warehouse, **options: str) -> int:
    """Rate the warehouse as ``flows._steps.rate_pool`` does and store the run."""
    options = {"newcomer": "flat", **options}
    params = ratings.parse_options("belo2", options)
    resolved = ratings.params_to_options(params)
    run = ratings.rate("belo2", results_frame(wh), options=options)
    return store_run(
        wh, pool="bridge", scheme="belo2", options=resolved,
        period_unit=resolved["period"], inputs_sha256="test", code_version="test",
        ratings=run.ratings, contributions=run.contributions,
        normalisations=run.normalisations, phantoms=run.phantoms, startup=run.startup,
    )


@pytest.fixture
def club(wh: Warehouse) -> Warehouse:
    _load(wh, EVENTS)
    return wh


def _by_hand_share(combine: str, weights: list[float], v: float, r_prime: float,
                   before: float, history: float = 50.0) -> float:
    """docs/rules/bridge-belo.md §8: an event's part of the period's change."""
    if combine == "additive":
        return v * (r_prime - before) / history
    total = sum(weights)
    return (1.0 - (1.0 - 1.0 / history) ** total) / total * v * (r_prime - before)


# --- the view and the library -------------------------------------------------------------------

def test_player_ids_follow_the_file(club: Warehouse) -> None:
    names = dict(club.con.execute("SELECT player_id, name FROM players").fetchall())
    assert names == {i: name for i, (name, _) in NAMES.items()}


@pytest.mark.parametrize("combine", ["exponential", "additive"])
def test_shares_sum_to_the_change_of_every_player_and_period(club: Warehouse,
                                                             combine: str) -> None:
    run_id = _rate(club, period_combine=combine, periodic_normalisation="never")
    sums = club.query(
        "SELECT x.player_id, x.period, sum(x.share) AS shares, any_value(x.rating_before) AS b, "
        "any_value(x.rating) AS a, any_value(x.periodic_factor) AS f "
        "FROM rating_explanations x WHERE x.run_id = ? GROUP BY ALL ORDER BY ALL", [run_id])
    assert len(sums) == 10 + 8  # all ten in 2013Q4, players 1-8 in 2014Q1
    for row in sums.itertuples():
        assert row.f == 1.0
        assert abs(row.b + row.shares - row.a) < 1e-9, (row.player_id, row.period)
    # The library's own numbers agree with the view.
    for player in (1, 9):
        for period in ("2013Q4", "2014Q1") if player == 1 else ("2013Q4",):
            ex = explain_player(club, player, period=period)
            assert ex.run_id == run_id and ex.period_combine == combine
            assert abs(ex.combined - ex.rating) < 1e-9
            assert ex.normalised is False and ex.periodic_factor == 1.0


@pytest.mark.parametrize("combine", ["exponential", "additive"])
def test_first_period_shares_by_hand(club: Warehouse, combine: str) -> None:
    # 2013Q4: everybody at 500, field and partner factors 1, per-event factor 1, so r' = r.
    _rate(club, period_combine=combine, periodic_normalisation="never")
    ex = explain_player(club, 1, period="2013Q4")
    rows = ex.rows
    assert list(rows["title"]) == ["Autumn pairs", "Autumn pairs", "Club cup", "Two tables"]
    assert [str(d)[:10] for d in rows["event_date"]] == [
        "2013-10-03", "2013-10-10", "2013-11-07", "2013-11-14"]
    assert list(rows["place"]) == [1.0, 2.0, 1.0, 1.0]
    assert list(rows["n"]) == [4, 4, 4, 2]
    assert list(rows["r"]) == [875.0, 625.0, 875.0, 750.0]
    assert list(rows["weight"]) == pytest.approx([0.98, 1.1, 0.9, 0.98])
    assert list(rows["field_factor"]) == pytest.approx([1.0] * 4)
    assert list(rows["partner_factor"]) == pytest.approx([1.0] * 4)
    assert list(rows["counted"]) == [True, True, True, False]
    assert list(rows["norm_factor"][:3]) == pytest.approx([1.0] * 3)
    assert list(rows["r_prime"][:3]) == pytest.approx([875.0, 625.0, 875.0])
    weights = [0.98, 1.1, 0.9]
    for i, (v, rp) in enumerate(zip(weights, [875.0, 625.0, 875.0])):
        assert rows["share"][i] == pytest.approx(_by_hand_share(combine, weights, v, rp, 500.0),
                                                 abs=1e-12)
    # The event with two units counts for nobody: share 0 and the reason (docs/rules/bridge-belo.md §5).
    assert rows["share"][3] == 0.0
    assert rows["reason"][3] == "fewer than 3 rated units"
    assert math.isnan(rows["r_prime"][3]) and math.isnan(rows["norm_factor"][3])
    assert rows["phantom_r_prime"].isna().all() and rows["phantom_share"].isna().all()
    assert ex.rating_before == 500.0
    assert ex.rating == pytest.approx(500.0 + sum(
        _by_hand_share(combine, weights, v, rp, 500.0)
        for v, rp in zip(weights, [875.0, 625.0, 875.0])), abs=1e-9)


def test_periodic_normalisation_factor_per_period(club: Warehouse) -> None:
    # Without per-event normalisation the mean drifts once the ratings differ (2014Q1), so the
    # factor is not 1 there; in 2013Q4 all counted players have the same W and it stays 1.
    run_id = _rate(club, periodic_normalisation="period", event_normalisation="off")
    factors = dict(club.con.execute(
        "SELECT period, factor FROM rating_normalisations WHERE run_id = ?", [run_id]).fetchall())
    assert set(factors) == {"2013Q4", "2014Q1"}
    assert abs(factors["2014Q1"] - 1.0) > 1e-4
    sums = club.query(
        "SELECT player_id, period, sum(share) AS shares, any_value(rating_before) AS b, "
        "any_value(rating) AS a, any_value(periodic_factor) AS f "
        "FROM rating_explanations WHERE run_id = ? GROUP BY ALL", [run_id])
    for row in sums.itertuples():
        assert row.f == factors[row.period]
        assert abs((row.b + row.shares) * row.f - row.a) < 1e-9, (row.player_id, row.period)
    ex = explain_player(club, 1)
    assert ex.period == "2014Q1" and ex.normalised
    assert ex.periodic_factor == factors["2014Q1"]
    assert abs(ex.combined * ex.periodic_factor - ex.rating) < 1e-9


def test_defaults_latest_run_and_latest_period_with_events(club: Warehouse) -> None:
    _rate(club, period_combine="additive")
    second = _rate(club)
    ex = explain_player(club, 1)
    assert (ex.run_id, ex.period, ex.periods) == (second, "2014Q1", ("2013Q4", "2014Q1"))
    assert list(ex.rows["title"]) == ["Winter pairs", "Winter pairs"]
    # Player 9 played only in 2013Q4: that is the latest period with events.
    assert explain_player(club, 9).period == "2013Q4"
    assert explain_player(club, 1, run_id=1).period_combine == "additive"


def test_errors_say_what_is_there(club: Warehouse) -> None:
    with pytest.raises(ExplainError, match="run clubratings recompute first"):
        explain_player(club, 1)
    _rate(club)
    with pytest.raises(ExplainError, match=r"no events in period '2015Q1' .* periods with "
                                           r"events: 2013Q4, 2014Q1$"):
        explain_player(club, 1, period="2015Q1")
    with pytest.raises(ExplainError, match="^no player 99$"):
        explain_player(club, 99)
    with pytest.raises(ExplainError, match="no rating run 7"):
        explain_player(club, 1, run_id=7)
    assert issubclass(ExplainError, WarehouseError)


def test_find_player_by_id_and_name(club: Warehouse) -> None:
    assert find_player(club, "2") == 2
    assert find_player(club, "Peter Kováč") == 2
    assert find_player(club, "kovac peter") == 2  # the name key: order, case, diacritics
    with pytest.raises(ExplainError, match=r"'Jan Novak' names 2 players: 1 \(Ján Novák\), "
                                           r"9 \(Ján Novák\); give the player id"):
        find_player(club, "Jan Novak")
    with pytest.raises(ExplainError, match=r"no player named 'Peter Kovacs'; did you mean "
                                           r"'Peter Kováč'\?"):
        find_player(club, "Peter Kovacs")
    with pytest.raises(ExplainError, match="^no player 99$"):
        find_player(club, "99")


def test_partners_counts_and_means_by_hand(wh: Warehouse) -> None:
    # E1-E3 count (everybody at 500, so r' = r); E4 counts for nobody.
    _load(wh, EVENTS[:4])
    run_id = _rate(wh, periodic_normalisation="never")
    jan = partners(wh, 1)
    assert list(jan["partner_id"]) == [2, 3]
    assert list(jan["name"]) == ["Peter Kováč", "Eva Horváthová"]
    assert list(jan["events"]) == [2, 1]  # E1 and E2 with Peter (E4 did not count), E3 with Eva
    assert list(jan["mean_r_prime"]) == pytest.approx([(875.0 + 625.0) / 2, 875.0])
    peter = partners(wh, 2, run_id)
    assert list(peter["partner_id"]) == [1, 4]
    assert list(peter["events"]) == [2, 1]
    assert list(peter["mean_r_prime"]) == pytest.approx([750.0, 125.0])  # 4th of 4 in E3
    assert partners(wh, 9).empty  # only the event that did not count


def test_phantom_part_is_shown_next_to_the_newcomer(club: Warehouse) -> None:
    # The engine's phantom rows (docs/rules/bridge-belo.md §10) carry the newcomer's id and phantom = true; they are
    # not the newcomer's own rows, so they change neither W nor the newcomer's shares.
    run_id = _rate(club, periodic_normalisation="never")
    before = explain_player(club, 1, period="2013Q4").rows["share"].tolist()
    club.con.execute(
        "INSERT INTO stored_rating_contributions (run_id, period, event_id, player_id, unit_no, place, "
        "n, r, field_factor, partner_factor, weight, norm_factor, r_prime, counted, reason, "
        "phantom) VALUES "
        "(?, '2013Q4', 1, 1, 1, 1, 4, 875, 1, 1.2, 0.98, 1, 1050, true, '', true), "
        "(?, '2013Q4', 2, 1, 2, 2, 4, 625, 1, 1.2, 1.1, 1, 750, true, '', true)",
        [run_id, run_id])
    club.con.execute("INSERT INTO stored_rating_phantoms VALUES (?, '2013Q4', 1, 700, 702, 2, 'active')",
                     [run_id])
    ex = explain_player(club, 1, period="2013Q4")
    assert ex.rows["share"].tolist() == before
    assert ex.rows["phantom_r_prime"].tolist()[:2] == [1050.0, 750.0]
    assert ex.rows["phantom_r_prime"][2:].isna().all()
    weights = [0.98, 1.1]
    assert ex.rows["phantom_share"].tolist()[:2] == pytest.approx([
        _by_hand_share("exponential", weights, 0.98, 1050.0, 700.0),
        _by_hand_share("exponential", weights, 1.1, 750.0, 700.0)], abs=1e-12)
    assert ex.phantom is not None
    assert (ex.phantom.rating_before, ex.phantom.rating, ex.phantom.events,
            ex.phantom.state) == (700.0, 702.0, 2, "active")
    assert partners(club, 1)["partner_id"].tolist() == [2, 3]  # the phantom is no partner


def test_engine_phantoms_add_up_with_the_retirement(club: Warehouse) -> None:
    # newcomer=phantom (docs/rules/bridge-belo.md §10): everybody starts at 300 with a phantom at 700; after four
    # counted events (E1-E3, E5) the phantom retires and the two ratings are averaged.
    run_id = _rate(club, newcomer="phantom", phantom_events="4",
                   periodic_normalisation="never")
    pairs = club.con.execute(
        "SELECT DISTINCT player_id, period FROM rating_explanations WHERE run_id = ? "
        "ORDER BY ALL", [run_id]).fetchall()
    assert len(pairs) == 18
    for player, period in pairs:
        ex = explain_player(club, player, period=period)
        assert abs(ex.before_normalisation * ex.periodic_factor - ex.rating) < 1e-9, (player,
                                                                                     period)
    q4 = explain_player(club, 1, period="2013Q4")
    q1 = explain_player(club, 1, period="2014Q1")
    assert q4.phantom is not None and q1.phantom is not None
    assert (q4.phantom.state, q1.phantom.state) == ("active", "retired")
    assert q4.rating_before == 300.0 and q4.phantom.rating_before == 700.0
    assert not q4.retired and q4.before_normalisation == q4.combined
    assert q4.phantom_combined == pytest.approx(q1.phantom.rating_before, abs=1e-9)
    assert q4.rows["phantom_r_prime"][:3].notna().all()
    assert q1.retired
    assert q1.rating == pytest.approx((q1.combined + q1.phantom_combined) / 2.0, abs=1e-9)
    lines = _format(q1)
    assert (f"phantom retired: the rating becomes the mean of {q1.combined:.1f} and "
            f"{q1.phantom_combined:.1f} = {q1.rating:.1f}") in lines
    assert not any("from outside" in x for x in lines)


# --- the command line ---------------------------------------------------------------------------

@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose warehouse holds the club and one run (periodic normalisation yearly)."""
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nwarehouse = "data/wh.duckdb"\n', encoding="utf-8")
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        _load(wh, EVENTS)
        _rate(wh)
    return tmp_path


def _explain(project: Path, capsys: pytest.CaptureFixture[str],
             *args: str) -> tuple[int, str, str]:
    code = main(["explain", "--config", str(project / "clubratings.toml"), *args])
    out, err = capsys.readouterr()
    return code, out, err


def _line(out: str, start: str) -> list[str]:
    (line,) = [x for x in out.splitlines() if x.startswith(start)]
    return line.split()


def test_cli_explains_by_id(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _explain(project, capsys, "1", "--period", "2013Q4")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == ("player 1 Ján Novák, pool bridge, rating run 1 (belo2, "
                        "period_combine=exponential, H=50), period 2013Q4")
    weights = [0.98, 1.1, 0.9]
    shares = [_by_hand_share("exponential", weights, v, rp, 500.0)
              for v, rp in zip(weights, [875.0, 625.0, 875.0])]
    combined = 500.0 + sum(shares)
    with open_warehouse(project / "data" / "wh.duckdb") as wh:
        ex = explain_player(wh, 1, period="2013Q4")
    assert ex.normalised  # 2013Q4 ends the year (docs/rules/bridge-belo.md §9 default)
    assert lines[1] == f"rating 500.0 -> {ex.rating:.1f} ({ex.rating - 500.0:+.1f})"
    assert lines[3].split() == ["date", "event", "place/n", "r", "field", "partner", "weight",
                                "norm", "r'", "share", "note"]
    assert _line(out, "2013-10-03") == ["2013-10-03", "Autumn", "pairs", "1/4", "875.0",
                                        "1.000", "1.000", "0.98", "1.0000", "875.0",
                                        f"{shares[0]:+.1f}"]
    assert _line(out, "2013-10-10")[3:] == ["2/4", "625.0", "1.000", "1.000", "1.10", "1.0000",
                                            "625.0", f"{shares[1]:+.1f}"]
    assert _line(out, "2013-11-14") == ["2013-11-14", "Two", "tables", "1/2", "750.0", "1.000",
                                        "1.000", "0.98", "-", "-", "+0.0", "not", "counted:",
                                        "fewer", "than", "3", "rated", "units"]
    assert (f"3 of 4 event(s) counted; the shares sum to {sum(shares):+.1f}: "
            f"500.0 {sum(shares):+.1f} = {combined:.1f}") in lines
    assert (f"periodic normalisation x{ex.periodic_factor:.6f}: {combined:.1f} -> "
            f"{ex.rating:.1f}") in lines
    assert not any(x.startswith("phantom") for x in lines)


def test_cli_explains_by_name_latest_period(project: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(project, capsys, "Peter Kováč")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("player 2 Peter Kováč, pool bridge, rating run 1")
    assert lines[0].endswith("period 2014Q1")
    assert [x.split()[0] for x in lines if x[:4] == "2014"] == ["2014-01-09", "2014-02-06"]
    # No periodic normalisation after Q1 under the yearly default: the shares are the change.
    assert not any(x.startswith("periodic normalisation") for x in lines)
    (footer,) = [x for x in lines if x.startswith("2 of 2 event(s) counted")]
    assert footer.endswith(", the change of the period")


def test_cli_periodic_factor_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nwarehouse = "data/wh.duckdb"\n', encoding="utf-8")
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        _load(wh, EVENTS)
        _rate(wh, periodic_normalisation="period", event_normalisation="off")
        ex = explain_player(wh, 1)
    assert ex.period == "2014Q1" and abs(ex.periodic_factor - 1.0) > 1e-4
    code, out, _ = _explain(tmp_path, capsys, "1")
    assert code == 0
    lines = out.splitlines()
    combined = ex.rating_before + float(ex.rows["share"].sum())
    assert abs(combined * ex.periodic_factor - ex.rating) < 1e-9
    assert lines[-2] == (f"2 of 2 event(s) counted; the shares sum to {ex.shares_sum:+.1f}: "
                         f"{ex.rating_before:.1f} {ex.shares_sum:+.1f} = {combined:.1f}")
    assert lines[-1] == (f"periodic normalisation x{ex.periodic_factor:.6f}: {combined:.1f} -> "
                         f"{ex.rating:.1f}")


def test_cli_shows_the_phantom(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_warehouse(project / "data" / "wh.duckdb") as wh:
        wh.con.execute(
            "INSERT INTO stored_rating_contributions (run_id, period, event_id, player_id, unit_no, "
            "place, n, r, field_factor, partner_factor, weight, norm_factor, r_prime, counted, "
            "reason, phantom) VALUES "
            "(1, '2013Q4', 1, 1, 1, 1, 4, 875, 1, 1.2, 0.98, 1, 1050, true, '', true)")
        wh.con.execute("INSERT INTO stored_rating_phantoms VALUES (1, '2013Q4', 1, 700, 705.5, 1, "
                       "'active')")
    code, out, _ = _explain(project, capsys, "1", "--period", "2013Q4")
    assert code == 0
    lines = out.splitlines()
    assert lines[3].split()[-5:] == ["phantom", "r'", "phantom", "share", "note"]
    phantom_share = _by_hand_share("exponential", [0.98], 0.98, 1050.0, 700.0)
    assert _line(out, "2013-10-03")[-2:] == ["1050.0", f"{phantom_share:+.1f}"]
    assert _line(out, "2013-10-10")[-2:] == ["-", "-"]
    assert (f"phantom (active, 1 event(s) left): starts the period at 700.0, its shares sum to "
            f"{phantom_share:+.1f}") in lines


def test_cli_json_parses(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(project, capsys, "1", "--period", "2013Q4", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["player_id"], data["name"], data["run_id"], data["period"]) == (
        1, "Ján Novák", 1, "2013Q4")
    assert data["periods"] == ["2013Q4", "2014Q1"]
    assert data["normalised"] is True and data["phantom"] is None
    events = data["events"]
    assert [e["event_date"] for e in events] == [
        "2013-10-03", "2013-10-10", "2013-11-07", "2013-11-14"]
    assert events[3]["counted"] is False and events[3]["r_prime"] is None
    assert events[3]["share"] == 0.0 and events[3]["reason"] == "fewer than 3 rated units"
    assert sum(e["share"] for e in events) == pytest.approx(data["shares_sum"], abs=1e-9)
    assert (data["rating_before"] + data["shares_sum"]) * data["periodic_factor"] == \
        pytest.approx(data["rating"], abs=1e-9)


def test_cli_partners(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(project, capsys, "1", "--partners")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "player 1 Ján Novák, rating run 1: partners"
    assert lines[1].split() == ["id", "partner", "events", "mean", "r'", "periods"]
    assert lines[2].split()[:4] == ["2", "Peter", "Kováč", "4"]  # E1, E2, E5, E6
    assert lines[2].split()[-1] == "2013Q4..2014Q1"
    assert lines[3].split() == ["3", "Eva", "Horváthová", "1", "875.0", "2013Q4..2013Q4"]
    code, out, _ = _explain(project, capsys, "1", "--partners", "--json")
    data = json.loads(out)
    assert [(p["partner_id"], p["events"]) for p in data["partners"]] == [(2, 4), (3, 1)]
    assert data["partners"][1]["mean_r_prime"] == pytest.approx(875.0)


def test_cli_errors_are_one_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _explain(project, capsys, "Jan Novak")
    assert code == 2 and out == ""
    assert err == ("clubratings: 'Jan Novak' names 2 players: 1 (Ján Novák), 9 (Ján Novák); "
                   "give the player id or more of the name\n")
    code, _, err = _explain(project, capsys, "Nobody Here")
    assert code == 2 and err == "clubratings: no player named 'Nobody Here'\n"
    code, _, err = _explain(project, capsys, "99")
    assert code == 2 and err == "clubratings: no player 99\n"
    code, _, err = _explain(project, capsys, "1", "--period", "2012Q1")
    assert code == 2 and err.endswith("periods with events: 2013Q4, 2014Q1\n")
    code, _, err = _explain(project, capsys, "1", "--pool", "go")
    assert code == 2 and "no rating run of pool 'go' yet; run clubratings recompute first" in err


def test_cli_startup_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/rules/bridge-belo.md §11: the pool's latest run keeps its start-up passes
    (tmp_path / "clubratings.toml").write_text(
        '[paths]\nwarehouse = "data/wh.duckdb"\n', encoding="utf-8")
    with open_warehouse(tmp_path / "data" / "wh.duckdb") as wh:
        _load(wh, EVENTS)
        run_id = _rate(wh, cutover="2014-01-01", max_passes="4")
        stored = wh.query("SELECT pass, max_change FROM rating_startup ORDER BY pass")
    code, out, err = _explain(tmp_path, capsys, "--startup")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"pool bridge, rating run {run_id} (belo2), cut-over 2014-01-01, "
                               "start-up accelerated")
    assert lines[2].split() == ["pass", "largest", "change", "mean", "before", "normalising"]
    table = [line.split() for line in lines[3:3 + len(stored)]]
    assert [int(row[0]) for row in table] == stored["pass"].tolist()
    assert [float(row[1]) for row in table] == pytest.approx(stored["max_change"], abs=1e-3)
    assert lines[-1].startswith(("converged", "stopped by max_passes"))
    code, out, _ = _explain(tmp_path, capsys, "--startup", "--json")
    data = json.loads(out)
    assert [p["pass"] for p in data["passes"]] == stored["pass"].tolist()
    assert data["options"]["startup_method"] == "accelerated"


def test_cli_startup_without_cutover_says_so(project: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(project, capsys, "--startup")
    assert code == 0 and "no start-up passes: the run has no cut-over" in out
    code, _, err = _explain(project, capsys)
    assert code == 2 and "name a PLAYER, or give --startup" in err


def test_views_work_without_phantoms_or_runs(wh: Warehouse) -> None:
    assert wh.query("SELECT * FROM rating_explanations").empty
    assert wh.query("SELECT * FROM rating_partners").empty
    assert wh.query("SELECT * FROM rating_phantoms").empty
    cols = wh.query("DESCRIBE rating_contributions")
    phantom = cols[cols["column_name"] == "phantom"]
    assert phantom["column_type"].tolist() == ["BOOLEAN"]
