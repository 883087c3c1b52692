"""Identity in the warehouse, on the fixture club BK Modra (fixtures/identity/SOURCES.txt):
register, initials decoded by context, the review queue, decisions replayed on a rebuild,
merges and splits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers import parse_bytes
from warehouse import Warehouse, load_result, open_warehouse, results_frame
from warehouse.register import RegisterError, load_register
from warehouse.review import (
    ReviewError,
    answer,
    apply_decisions_file,
    apply_waiting,
    export_decisions,
    merge_players,
    open_items,
    split_player,
)

from .conftest import FIXTURES

CLUB = FIXTURES / "identity"
HISTORY = ["modra-2013-09-05.csv", "modra-2013-09-12.csv", "modra-2013-09-19-initials.xlsx"]
AMBIGUOUS = "modra-2013-09-26-initials.xlsx"
AGAIN = "modra-2013-10-03-initials.xlsx"


def _load(wh: Warehouse, name: str):  # type: ignore[no-untyped-def]
    data = (CLUB / name).read_bytes()
    report = load_result(wh, data, parse_bytes(data, source=name), path=name)
    apply_waiting(wh, report.sha256)
    return report


def _register(wh: Warehouse, name: str = "register-2013.csv"):  # type: ignore[no-untyped-def]
    return load_register(wh, (CLUB / name).read_bytes(), path=name)


def _fid_player(wh: Warehouse, fid: str) -> int:
    return int(wh.con.execute("SELECT player_id FROM players WHERE federation_id = ?",
                              [fid]).fetchall()[0][0])


def _members(wh: Warehouse, file_name: str) -> list[tuple[str, int, str, str | None]]:
    return [
        (r[0], int(r[1]), r[2], r[3]) for r in wh.con.execute(
            "SELECT m.name_as_written, c.canonical_id, m.how, m.evidence FROM unit_members m "
            "JOIN player_canonical c USING (player_id) JOIN events e USING (event_id) "
            "JOIN source_files f USING (file_id) WHERE f.name = ? ORDER BY m.unit_no, m.seat",
            [file_name]).fetchall()
    ]


# --- register ------------------------------------------------------------------------------------

def test_register_loads_members_as_players(wh: Warehouse) -> None:
    report = _register(wh)
    assert (report.status, report.members, report.new, report.updated) == ("loaded", 12, 12, 0)
    row = wh.con.execute("SELECT name, first_name, surname, club, birth_year, status, origin "
                         "FROM players WHERE federation_id = '1008'").fetchall()[0]
    assert row == ("Eva Nováková-Kráľová", "Eva", "Nováková-Kráľová", "BK Modra", 1972,
                   "aktívny", "register")
    assert _register(wh).status == "duplicate"


def test_newer_register_updates_clubs_without_duplicating(wh: Warehouse) -> None:
    _register(wh)
    report = _register(wh, "register-2014.xlsx")
    assert (report.new, report.members) == (1, 13)
    assert report.club_changes == (("Ladislav Kiss", "BK Senec", "BK Modra"),)
    assert wh.con.execute("SELECT count(*), count(DISTINCT federation_id) FROM players"
                          ).fetchall()[0] == (13, 13)
    assert wh.con.execute("SELECT club, status FROM players WHERE federation_id = '1011'"
                          ).fetchall()[0] == ("BK Modra", "aktívny")
    assert wh.con.execute("SELECT status FROM players WHERE federation_id = '1007'"
                          ).fetchall()[0][0] == "neaktívny"


def test_register_after_results_attaches_ids_to_the_players_already_known(wh: Warehouse) -> None:
    _load(wh, "modra-2013-09-12.csv")  # no federation ids in this file
    before = wh.con.execute("SELECT count(*) FROM players").fetchall()[0][0]
    report = _register(wh)
    assert report.attached == 8 and report.new == 4
    assert wh.con.execute("SELECT count(*) FROM players").fetchall()[0][0] == before + 4
    assert wh.con.execute("SELECT name FROM players WHERE federation_id = '1002'"
                          ).fetchall()[0][0] == "Jozef Novotny"


def test_a_bad_register_names_the_row_and_loads_nothing(wh: Warehouse, tmp_path: Path) -> None:
    text = (CLUB / "register-2013.csv").read_text(encoding="utf-8-sig")
    bad = text.replace(";1965;", ";19x5;")
    before = wh.row_counts()
    with pytest.raises(RegisterError, match=r"row \d+.*'19x5'"):
        load_register(wh, bad.encode(), path="bad.csv")
    assert wh.row_counts() == before


# --- initials decoded by the club's roster and context ------------------------------------------------

def _club_history(wh: Warehouse) -> None:
    _register(wh)
    for name in HISTORY:
        _load(wh, name)


def test_full_names_written_many_ways_are_the_register_players(wh: Warehouse) -> None:
    _club_history(wh)
    assert wh.con.execute("SELECT count(*) FROM players").fetchall()[0][0] == 12
    by_name = {n: pid for n, pid, _, _ in _members(wh, "modra-2013-09-12.csv")}
    assert by_name["Peter Kovac"] == _fid_player(wh, "1003")
    assert by_name["Ing. Lucia Bieliková"] == _fid_player(wh, "1006")
    assert by_name["Eva Novakova-Kralova"] == _fid_player(wh, "1008")


def test_usual_partner_decides_between_two_members_with_the_same_initials(wh: Warehouse) -> None:
    _club_history(wh)
    members = _members(wh, "modra-2013-09-19-initials.xlsx")
    (first, _pko, second, _mho, *_rest) = members
    assert first[:3] == ("JNo", _fid_player(wh, "1001"), "initials: usual partner")
    evidence = json.loads(first[3])
    assert evidence["partners"] == ["Peter Kováč"]
    assert {c["name"]: c["events_with_partner"] for c in evidence["candidates"]} == {
        "Ján Novák": 2, "Jozef Novotný": 0}
    # the other JNo partners Mária Horváthová, and Ján Novák is placed already
    assert second[:2] == ("JNo", _fid_player(wh, "1002"))
    assert all(pid != 0 for _, pid, _, _ in members)
    assert open_items(wh).empty


def test_both_plausible_goes_to_review_and_the_event_waits(wh: Warehouse) -> None:
    _club_history(wh)
    report = _load(wh, AMBIGUOUS)
    assert report.waiting == (("JNo", f"initials:modra:jno:with:{_fid_player(wh, '1005')}"),)
    items = open_items(wh)
    assert items["name_as_written"].tolist() == ["JNo"]
    candidates = json.loads(items["candidates"][0])
    assert {c["player_id"] for c in candidates} == {_fid_player(wh, "1001"),
                                                    _fid_player(wh, "1002")}
    # the event is loaded (nothing lost) but not rated
    event_id = wh.con.execute("SELECT event_id FROM unrated_events").fetchall()[0][0]
    assert str(event_id) not in set(results_frame(wh)["event_id"])
    assert wh.con.execute("SELECT count(*) FROM unit_members WHERE event_id = ?",
                          [event_id]).fetchall()[0][0] == 8


def test_after_one_answer_the_same_situation_never_reaches_the_queue(wh: Warehouse) -> None:
    _club_history(wh)
    _load(wh, AMBIGUOUS)
    key = open_items(wh)["item_key"][0]
    jan = _fid_player(wh, "1001")
    answer(wh, key, as_player=jan)
    assert open_items(wh).empty
    assert wh.con.execute("SELECT count(*) FROM unrated_events").fetchall()[0][0] == 0
    report = _load(wh, AGAIN)
    assert report.waiting == () and open_items(wh).empty
    jno = [m for m in _members(wh, AGAIN) if m[0] == "JNo"]
    assert [m[1] for m in jno] == [jan]
    # the answered event is rated now, with Ján Novák in it
    frame = results_frame(wh)
    assert str(jan) in set(frame["player"])
    with pytest.raises(ReviewError, match="already answered"):
        answer(wh, key, new=True)


def test_answer_new_makes_the_waiting_name_a_person(wh: Warehouse) -> None:
    _club_history(wh)
    _load(wh, AMBIGUOUS)
    item = open_items(wh).iloc[0]
    answer(wh, item["item_key"], new=True)
    state = wh.con.execute("SELECT state, origin FROM players WHERE player_id = ?",
                           [int(item["player_id"])]).fetchall()[0]
    assert state == ("provisional", "initials")
    _load(wh, AGAIN)
    assert open_items(wh).empty
    assert [m[1] for m in _members(wh, AGAIN) if m[0] == "JNo"] == [int(item["player_id"])]


def test_answer_different_removes_one_candidate(wh: Warehouse) -> None:
    _club_history(wh)
    _load(wh, AMBIGUOUS)
    key = open_items(wh)["item_key"][0]
    answer(wh, key, different=_fid_player(wh, "1002"))
    left = json.loads(open_items(wh)["candidates"][0])
    assert [c["player_id"] for c in left] == [_fid_player(wh, "1001")]
    answer(wh, key, different=_fid_player(wh, "1001"))  # none left: a person of its own
    assert open_items(wh).empty


# --- rebuild with the decisions file ---------------------------------------------------------------

def _snapshot(wh: Warehouse) -> tuple[object, object, object]:
    players = wh.con.execute(
        "SELECT player_id, name, federation_id, state FROM players ORDER BY player_id").fetchall()
    members = wh.con.execute(
        "SELECT event_id, unit_no, seat, player_id, canonical_id FROM members_resolved "
        "ORDER BY ALL").fetchall()
    frame = results_frame(wh).to_dict("list")
    return players, members, frame


def test_rebuild_with_the_decisions_file_gives_the_same_ids_and_results(tmp_path: Path) -> None:
    decisions = tmp_path / "decisions.csv"
    with open_warehouse(tmp_path / "a" / "wh.duckdb") as wh:
        _club_history(wh)
        _load(wh, AMBIGUOUS)
        answer(wh, open_items(wh)["item_key"][0], as_player=_fid_player(wh, "1001"))
        _load(wh, AGAIN)
        _register(wh, "register-2014.xlsx")
        assert export_decisions(wh, decisions) == 1
        original = _snapshot(wh)
    with open_warehouse(tmp_path / "b" / "wh.duckdb") as wh:
        report = apply_decisions_file(wh, decisions)
        assert (report.applied, report.waiting) == (0, 1)  # waits for the file it followed
        _club_history(wh)
        _load(wh, AMBIGUOUS)  # the decision takes effect right after this file
        assert open_items(wh).empty
        _load(wh, AGAIN)
        _register(wh, "register-2014.xlsx")
        assert _snapshot(wh) == original
        assert apply_decisions_file(wh, decisions).already == 1


# --- merge and split -------------------------------------------------------------------------------

def test_merge_moves_results_and_split_undoes_it(wh: Warehouse) -> None:
    _load(wh, "modra-2013-09-12.csv")  # no register: everyone is a results player
    _load(wh, "modra-2013-09-05.csv")
    # "NOVOTNÝ Jozef" and "Jozef Novotny" share a key; pick two really different players
    a = wh.con.execute("SELECT player_id FROM players WHERE name = 'Martin Stastny'"
                       ).fetchall()[0][0]
    b = wh.con.execute("SELECT player_id FROM players WHERE name = 'Lucia Bieliková' OR "
                       "name = 'Ing. Lucia Bieliková'").fetchall()[0][0]
    rated_before = set(results_frame(wh)["player"])
    merge_players(wh, a, b)
    after = results_frame(wh)
    assert str(a) not in set(after["player"]) and str(b) in set(after["player"])
    spellings = set(wh.query("SELECT spelling FROM player_spellings WHERE player_id = ?",
                             [b])["spelling"])
    assert {"Martin Stastny", "Ing. Lucia Bieliková"} <= spellings
    split_player(wh, a)
    assert set(results_frame(wh)["player"]) == rated_before


def test_two_federation_ids_are_never_merged(wh: Warehouse) -> None:
    _register(wh)
    with pytest.raises(ReviewError, match="never merged"):
        merge_players(wh, _fid_player(wh, "1001"), _fid_player(wh, "1002"))
    with pytest.raises(ReviewError, match="not merged"):
        split_player(wh, _fid_player(wh, "1001"))


def test_a_guest_known_only_by_initials_stays_one_provisional_player(wh: Warehouse) -> None:
    _club_history(wh)
    _load(wh, AMBIGUOUS)
    _load(wh, AGAIN)  # a later load: the player is found again from the warehouse
    guests = [m for f in (AMBIGUOUS, AGAIN) for m in _members(wh, f) if m[0] == "TVa"]
    assert len(guests) == 2 and guests[0][1] == guests[1][1]
    assert guests[0][2] == "initials only: no roster member"
    assert wh.con.execute("SELECT state, origin FROM players WHERE player_id = ?",
                          [guests[0][1]]).fetchall()[0] == ("provisional", "initials")


def test_batch_loading_replays_decisions_after_their_file(tmp_path: Path) -> None:
    from warehouse import Loader, Parsed

    def parsed(name: str) -> Parsed:
        data = (CLUB / name).read_bytes()
        return Parsed(data, parse_bytes(data, source=name), name)

    decisions = tmp_path / "decisions.csv"
    with open_warehouse(tmp_path / "a" / "wh.duckdb") as wh:
        _club_history(wh)
        _load(wh, AMBIGUOUS)
        answer(wh, open_items(wh)["item_key"][0], as_player=_fid_player(wh, "1002"))
        _load(wh, AGAIN)
        export_decisions(wh, decisions)
        original = _snapshot(wh)
    with open_warehouse(tmp_path / "b" / "wh.duckdb") as wh:
        _register(wh)
        apply_decisions_file(wh, decisions)
        outcomes = Loader(wh).load_many([parsed(n) for n in [*HISTORY, AMBIGUOUS, AGAIN]])
        assert all(o.status == "loaded" for o in outcomes)  # type: ignore[union-attr]
        assert _snapshot(wh) == original


_NAMES = ["Ján Novák", "Jan Novak", "NOVAK J.", "Jozef Novák", "Eva Malá", "Eva Mala"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(st.tuples(st.sampled_from(_NAMES),
                            st.one_of(st.none(), st.sampled_from(["1001", "1002", "77"]))),
                  min_size=1, max_size=12),
    merges=st.lists(st.tuples(st.integers(1, 20), st.integers(1, 20)), max_size=6),
    register_first=st.booleans(),
)
def test_nothing_ever_merges_two_federation_ids(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[str, str | None]],
    merges: list[tuple[int, int]], register_first: bool,
) -> None:
    """Loads, a register and merges in any order: no player holds two federation ids. The files
    go through one loader, as a run loads its files."""
    from warehouse import Loader

    header = "organiser,event,date,kind,scoring,boards,unit,place,score,player,federation_id"
    with open_warehouse(tmp_path_factory.mktemp("wh") / "wh.duckdb") as wh:
        if register_first:
            _register(wh)
        loader = Loader(wh)
        for i, (name, fid) in enumerate(rows, 1):
            lines = [header,
                     f"BK Modra,Club,2013-10-{i:02d},pairs,MP,24,1,1,60,{name},{fid or ''}",
                     f"BK Modra,Club,2013-10-{i:02d},pairs,MP,24,1,1,60,Filler One,",
                     f"BK Modra,Club,2013-10-{i:02d},pairs,MP,24,2,2,40,Filler Two,",
                     f"BK Modra,Club,2013-10-{i:02d},pairs,MP,24,2,2,40,Filler Three,"]
            data = ("\n".join(lines) + "\n").encode()
            loader.load(data, parse_bytes(data, source="x.csv"), path=f"x{i}.csv")
        if not register_first:
            _register(wh)
        for a, b in merges:
            try:
                merge_players(wh, a, b)
            except ReviewError:
                pass
        groups = wh.con.execute(
            "SELECT c.canonical_id, count(DISTINCT p.federation_id) FROM player_canonical c "
            "JOIN players p USING (player_id) GROUP BY ALL").fetchall()
        assert all(n <= 1 for _, n in groups)


def test_partnerships_are_counted_once_across_files_of_one_loader(wh: Warehouse) -> None:
    """Events committed by an earlier file of the same loader are read back from the warehouse
    when the initials evidence is first needed; they must not be counted a second time from
    what the loader learnt in memory."""
    from warehouse import Loader, Parsed

    def parsed(name: str) -> Parsed:
        data = (CLUB / name).read_bytes()
        return Parsed(data, parse_bytes(data, source=name), name)

    _register(wh)
    loader = Loader(wh)
    for name in HISTORY:  # one transaction each: the 19 Sep initials come after two commits
        loader.load(parsed(name).data, parsed(name).result, path=name)
    first = _members(wh, "modra-2013-09-19-initials.xlsx")[0]
    evidence = json.loads(first[3])
    assert {c["name"]: c["events_with_partner"] for c in evidence["candidates"]} == {
        "Ján Novák": 2, "Jozef Novotný": 0}
