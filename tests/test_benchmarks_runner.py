"""The benchmark runner (``benchmarks/run_all.py``) and the rows the scripts write with ``--json``.

The scripts run at tiny sizes in subprocesses through the runner's own collection code; the
rows are checked field by field. No timing is asserted: only that times are positive numbers.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ratings
from benchmarks.rfg_games import generate_games
from benchmarks.run_all import (
    BENCHMARKS,
    ROW_FIELDS,
    Benchmark,
    BenchmarkError,
    Process,
    collect,
    format_markdown,
    format_table,
    result_row,
)
from ratings._go import grade_rating

TINY: dict[str, tuple[str, ...]] = {
    "rfg_games": ("--games", "1500", "--years", "3", "--tournament-games", "300,600",
                  "--peak", "none"),
    "openskill_history": ("--events", "200", "--history-events", "400", "--players", "300",
                          "--clubs", "6", "--years", "2"),
    "preferans_games": ("--games", "2000", "--players", "50", "--years", "1"),
}


@pytest.fixture(scope="module")
def processes() -> dict[str, Process]:
    chosen = [b for b in BENCHMARKS if b.name in TINY]
    done = collect(chosen, extra=TINY)
    return {p.benchmark.name: p for p in done}


def _check_common(rows: list[dict[str, Any]], benchmark: str) -> None:
    for row in rows:
        assert tuple(row) == ROW_FIELDS
        assert row["benchmark"] == benchmark
        assert isinstance(row["seconds"], float)
        assert row["seconds"] > 0.0


def test_rfg_rows(processes: dict[str, Process]) -> None:
    rows = processes["rfg_games"].rows
    _check_common(rows, "rfg_games")
    assert [r["case"] for r in rows] == [
        "rfg, per month", "egf, per month", "glicko2, per month",
        "rfg, per tournament", "rfg, per tournament",
    ]
    for row in rows[:3]:
        assert re.fullmatch(r"1,500 games, \d+ periods, \d+ players", row["size"]), row
    assert rows[3]["size"].startswith("300 games, ")
    assert rows[4]["size"].startswith("600 games, ")
    for row in rows:
        assert row["peak_mib"] is None  # --peak none
        assert row["target"] == "≤ 5 min"
        assert re.match(r"[\d,]+ games/s", row["note"]), row
    # The tournament cases carry the fitted scaling exponent; the largest its extrapolation.
    assert re.fullmatch(r"[\d,]+ games/s; time ~ games\^-?\d+\.\d\d", rows[3]["note"])
    scaling = rows[3]["note"].split("; ")[1]
    assert re.fullmatch(rf"[\d,]+ games/s; {re.escape(scaling)}; 1M games ≈ \d+ min",
                        rows[4]["note"])
    assert processes["rfg_games"].peak_rss_mib > 0
    # The script's own printout is kept: it prints the same scaling line.
    assert f"rfg, per tournament: {scaling}; extrapolated: 1M games" in \
        processes["rfg_games"].output


def test_openskill_rows(processes: dict[str, Process]) -> None:
    rows = processes["openskill_history"].rows
    _check_common(rows, "openskill_history")
    assert [r["case"] for r in rows] == [
        "belo2, ratings.rate", "openskill PlackettLuce, per event",
    ]
    size = rows[0]["size"]
    assert re.fullmatch(r"200 events, [\d,]+ player-results", size)
    assert rows[1]["size"] == size
    assert [r["peak_mib"] for r in rows] == [None, None]
    assert [r["target"] for r in rows] == ["", ""]
    assert re.fullmatch(r"[\d,]+ players rated", rows[0]["note"])
    ratio = rows[1]["seconds"] / rows[0]["seconds"]
    assert rows[1]["note"].startswith(f"{ratio:.1f}x belo2, ")


def test_preferans_rows(processes: dict[str, Process]) -> None:
    rows = processes["preferans_games"].rows
    _check_common(rows, "preferans_games")
    assert [r["case"] for r in rows] == [
        "check_games", "makarov, order=sequential", "shatun, order=sequential",
        "nondiverging, order=sequential",
    ]
    for row in rows:
        assert row["size"] == "2,000 games"
        assert row["peak_mib"] is None
        assert row["target"] == "≤ 10 s"
        assert row["note"] == f"{2000 / row['seconds']:,.0f} games/s"


def test_a_failing_script_is_reported() -> None:
    with pytest.raises(BenchmarkError, match="missing exited with 2"):
        collect([Benchmark("missing", "no_such_benchmark.py")])


ROWS = [
    result_row("b", "case one", "10 games", 1.234, 56.7, "≤ 5 s", "fast"),
    result_row("bench", "two", "2.58M player-results", 12.0, None, "", "a|b"),
]


def test_result_row_fields() -> None:
    assert ROWS[0] == {"benchmark": "b", "case": "case one", "size": "10 games",
                       "seconds": 1.234, "peak_mib": 56.7, "target": "≤ 5 s", "note": "fast"}
    assert ROWS[1]["peak_mib"] is None


def test_format_table_aligns_columns() -> None:
    lines = format_table(ROWS).splitlines()
    assert lines[0].split() == ["benchmark", "case", "size", "seconds", "peak", "MiB",
                                "target", "note"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    # Numbers are right-aligned: the seconds end in the same column on every line.
    ends = {line.index("1.23") + 4 for line in lines[2:3]} | {lines[3].index("12.00") + 5}
    assert len(ends) == 1
    assert "57" in lines[2].split() and lines[3].split()[4] == "12.00"


def test_format_markdown_escapes_bars() -> None:
    lines = format_markdown(ROWS).splitlines()
    assert lines[0] == "| benchmark | case | size | seconds | peak MiB | target | note |"
    assert lines[1] == "|---|---|---|---:|---:|---|---|"
    assert lines[2] == "| b | case one | 10 games | 1.23 | 57 | ≤ 5 s | fast |"
    assert lines[3] == "| bench | two | 2.58M player-results | 12.00 |  |  | a\\|b |"


def test_generated_go_games() -> None:
    games = generate_games(3000, years=4, seed=3)
    assert len(games) == 3000
    pd.testing.assert_frame_equal(generate_games(3000, years=4, seed=3), games)
    checked = ratings.check_games(games)  # the contract of the go schemes
    assert (checked["player"] != checked["opponent"]).all()
    assert set(checked["result"]) <= {0.0, 0.5, 1.0}
    handicap = games[games["handicap"] > 0]
    assert 0 < len(handicap) < len(games) / 2  # a minority
    # The player giving stones (white) declared the stronger grade: one stone a grade, at most 9.
    white = np.where(handicap["colour"] == "w", handicap["rank"], handicap["opponent_rank"])
    black = np.where(handicap["colour"] == "w", handicap["opponent_rank"], handicap["rank"])
    gap = np.array([grade_rating(w) - grade_rating(b) for w, b in zip(white, black, strict=True)])
    assert (handicap["handicap"].to_numpy() == np.minimum(gap / 100, 9)).all()
    # Dates follow the period order: tournaments are numbered by date.
    first = games.groupby("period")["date"].min().sort_index()
    assert first.is_monotonic_increasing
