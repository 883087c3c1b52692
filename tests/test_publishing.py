"""Rating lists: ranking, change since the previous period, escaping, deterministic bytes."""

from __future__ import annotations

import pandas as pd

from publishing import list_rows


def _period(rows: list[tuple[int, str, float, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"player_id": pid, "name": name, "club": "K", "rating": rating, "events": ev}
         for pid, name, rating, ev in rows]
    )


def test_rank_order_ties_and_change() -> None:
    previous = _period([(1, "Anna", 510.0, 2), (2, "Bela", 520.0, 1)])
    current = _period([
        (1, "Anna", 530.04, 1), (2, "Bela", 515.0, 0), (3, "Cyril", 530.0, 3), (4, "Dora", 480.0, 1),
    ])
    rows = list_rows(current, previous)
    assert [(r.rank, r.player, r.rating, r.change, r.events) for r in rows] == [
        (1, "Anna", "530.0", "+20.0", 1),
        (1, "Cyril", "530.0", "", 3),      # same shown rating, same rank; new to the list
        (3, "Bela", "515.0", "-5.0", 0),
        (4, "Dora", "480.0", "", 1),
    ]


def test_html_escapes_player_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from publishing._lists import _ENV

    html = _ENV.get_template("list.html").render(
        pool="bridge", period="2013Q3", rows=list_rows(
            _period([(1, "<script>alert(1)</script>", 500.0, 1)]), None),
        scheme="belo2", options=[("period", "quarter")], period_start="2013-07-01",
        period_end="2013-09-30", active=1, previous=None, next=None, slug="2013Q3",
        previous_label=None, next_label=None,
    )
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_opted_out_players_are_left_out_of_the_lists(tmp_path: Path) -> None:
    from parsers import parse_bytes
    from publishing import publish_pool
    from warehouse import load_result, open_warehouse, results_frame, store_run

    import ratings

    from ._csvs import club_event, csv_file

    data = csv_file(club_event("2013-10-03"))
    with open_warehouse(tmp_path / "wh.duckdb") as wh:
        load_result(wh, data, parse_bytes(data, source="a.csv"), path="a.csv")
        run = ratings.rate("belo2", results_frame(wh), options={"newcomer": "flat"})
        store_run(wh, pool="bridge", scheme="belo2", options={}, period_unit="quarter",
                  inputs_sha256="x", code_version="t", ratings=run.ratings,
                  contributions=run.contributions, normalisations=run.normalisations)
        files = publish_pool(wh, "bridge", tmp_path / "public", hidden=frozenset({"Ján Novák"}))
    text = next(f for f in files if f.suffix == ".csv").read_text(encoding="utf-8")
    assert "Ján Novák" not in text and "Peter Kováč" in text
    assert text.splitlines()[1].startswith("1,")
