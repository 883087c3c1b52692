"""The identity resolver in memory: matching order, initials decoding, review situations."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import Event, PlayerAsWritten, Unit
from warehouse import IdentityResolver, IdentitySettings, KnownPlayer, club_key

MODRA = "BK Modra"


def _event(*units: tuple[str, ...], day: str = "2013-09-19", organiser: str = MODRA,
           initials: bool = False, fids: dict[str, str] | None = None,
           club: str | None = None) -> Event:
    fids = fids or {}
    return Event(
        "bridge", "Klubový turnaj", dt.date.fromisoformat(day), "pairs", "MP",
        tuple(
            Unit(float(i), str(i), str(i), None, tuple(
                PlayerAsWritten(n, federation_id=fids.get(n), club=club, initials=initials)
                for n in names))
            for i, names in enumerate(units, 1)
        ),
        organiser=organiser,
    )


def _resolver(*known: KnownPlayer, history=None, **kw) -> IdentityResolver:  # type: ignore[no-untyped-def]
    return IdentityResolver(known, max([k.player_id for k in known], default=0) + 1,
                            history=history, **kw)


def _one(r: IdentityResolver, name: str, **kw):  # type: ignore[no-untyped-def]
    return r.resolve_event(_event((name,), **kw))[0][0]


def test_club_key_drops_generic_words() -> None:
    assert club_key("BK Modra") == club_key("Bridžový klub Modra") == club_key("MODRA") == "modra"
    assert club_key("") == ""


# --- full names: the matching order --------------------------------------------------------------

def test_federation_id_wins_over_spelling() -> None:
    r = _resolver(KnownPlayer(1, "Irena Chodorowska", "06542"))
    res = _one(r, "CHODOROWSKA I.", fids={"CHODOROWSKA I.": "06542"})
    assert (res.player_id, res.is_new, res.how) == (1, False, "federation id")


def test_name_key_match_learns_the_federation_id() -> None:
    r = _resolver(KnownPlayer(1, "Jan Novák"))
    res = _one(r, "Novak Jan", fids={"Novak Jan": "123"})
    assert (res.player_id, res.is_new, res.learned_federation_id) == (1, False, "123")
    assert _one(r, "J. Novák", fids={"J. Novák": "123"}).player_id == 1


def test_two_federation_ids_are_two_players() -> None:
    r = _resolver(KnownPlayer(1, "Jan Novák", "111"))
    res = _one(r, "Jan Novák", fids={"Jan Novák": "222"})
    assert res.is_new and res.player_id == 2


def test_exact_key_within_the_club_wins() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club="BK Senec"),
                  KnownPlayer(2, "Ján Novák", club=MODRA))
    res = _one(r, "NOVÁK Ján")
    assert (res.player_id, res.how) == (2, "name key in club")


def test_exact_key_anywhere_when_the_club_has_none() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club="BK Senec"))
    res = _one(r, "Jan Novak")
    assert (res.player_id, res.how) == (1, "name key")


def test_two_equal_names_in_the_club_go_to_review() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club=MODRA), KnownPlayer(2, "Ján Novák", club=MODRA))
    res = _one(r, "Ján Novák")
    assert res.how == "waiting for review" and res.review_key == "name:jan novak@modra"
    assert [c["player_id"] for c in r.review_entries[0].candidates] == [1, 2]
    assert r.new_players[0].state == "pending"
    again = _one(r, "Novák Ján")  # the same situation is the same item and the same player
    assert (again.player_id, again.review_key) == (res.player_id, res.review_key)
    assert len(r.review_entries) == 1


def test_abbreviated_first_name() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club=MODRA), KnownPlayer(2, "Peter Kováč"))
    res = _one(r, "NOVAK J.")
    assert (res.player_id, res.how) == (1, "abbreviated first name in club")


def test_abbreviated_first_name_with_two_candidates_is_not_guessed() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club=MODRA), KnownPlayer(2, "Jozef Novák",
                                                                         club=MODRA))
    res = _one(r, "Novák J.")
    assert res.how == "waiting for review"
    assert {c["player_id"] for c in r.review_entries[0].candidates} == {1, 2}


def test_fuzzy_match_accepted_only_when_high_and_unambiguous() -> None:
    r = _resolver(KnownPlayer(1, "Krzysztof Wojciechowski"))
    res = _one(r, "Krzystof Wojciechowski")
    assert (res.player_id, res.how.startswith("fuzzy")) == (1, True)
    assert res.evidence is not None and res.evidence["score"] >= 92


def test_fuzzy_candidates_below_accept_go_to_review_and_the_threshold_is_a_setting() -> None:
    known = KnownPlayer(1, "Susan Gonzales")
    strict = _resolver(known)
    res = _one(strict, "Sue Gonzales")  # token_sort_ratio 84.6: offered, not taken
    assert res.how == "waiting for review"
    assert strict.review_entries[0].candidates[0]["player_id"] == 1
    assert strict.review_entries[0].candidates[0]["score"] == 84.6
    # a short word spelt otherwise is never taken without asking, however lax the threshold
    lax = _resolver(known, settings=IdentitySettings(fuzzy_accept=80, fuzzy_review=70))
    assert _one(lax, "Sue Gonzales").how == "waiting for review"
    long_words = KnownPlayer(1, "Krzysztof Wojciechowski")
    typo = "Krzystof Wojcechowsky"  # token_sort_ratio 90.9
    assert _one(_resolver(long_words), typo).how == "waiting for review"
    lax = _resolver(long_words, settings=IdentitySettings(fuzzy_accept=90, fuzzy_review=70))
    assert _one(lax, typo).player_id == 1
    never = _resolver(known, settings=IdentitySettings(fuzzy_accept=100, fuzzy_review=100))
    assert _one(never, "Sue Gonzales").how == "new player"


def test_a_similar_name_at_the_same_table_is_someone_else() -> None:
    """Marty and Mary McCune, a real couple of the Mercercrest club, play as partners: Marty is
    95.7 alike to Mary, but Mary sits at the table under her own name, so Marty is not her."""
    r = _resolver(KnownPlayer(1, "Mary McCune"))
    marty, mary = r.resolve_event(_event(("Marty McCune", "Mary McCune"),
                                         organiser="Mercercrest"))[0]
    assert mary.player_id == 1
    assert marty.player_id != 1


def test_a_name_waiting_for_review_stays_one_player_when_its_candidate_sits_beside_it() -> None:
    """Michael Christensen (Mercercrest) is 85.7 alike to Mike: his first night waits for
    review; a later night where both names play must not make him a second, new player."""
    r = _resolver(KnownPlayer(1, "Mike Christensen"))
    first = _one(r, "Michael Christensen", organiser="Mercercrest")
    assert first.review_key is not None
    mike, michael = r.resolve_event(_event(("Mike Christensen", "Michael Christensen"),
                                           organiser="Mercercrest", day="2013-09-26"))[0]
    assert mike.player_id == 1
    assert (michael.player_id, michael.review_key) == (first.player_id, first.review_key)


def test_a_player_seated_in_another_section_of_the_session_is_not_taken_again() -> None:
    r = _resolver(KnownPlayer(1, "Mary McCune"))
    (marty,), = r.resolve_event(_event(("Marty McCune",), organiser="Mercercrest"),
                                seated=[1])
    assert marty.player_id != 1


@pytest.mark.parametrize(("known", "written"), [
    ("Yanchun Guo", "Yanchun Gu"), ("Leyi Chen", "Lei Chen"), ("Mary McCune", "Marty McCune"),
])
def test_a_short_word_spelt_otherwise_is_another_name(known: str, written: str) -> None:
    """Real Mercercrest names 92-96 alike: a letter more or less in a short word makes another
    name (Mary and Marty McCune are a couple), so the name is never offered as that player."""
    r = _resolver(KnownPlayer(1, known))
    res = _one(r, written, organiser="Mercercrest")
    assert (res.how, res.review_key) == ("new player", None)
    assert res.player_id != 1 and not r.review_entries


@pytest.mark.parametrize(("known", "written"), [
    ("Kevin Epley", "Karen Epley"), ("Nathan Kasperkiewicz", "Shannon Kasperkiewicz"),
    ("Tom Carmichael", "Patsy Carmichael"), ("Harry Steiner", "Carlyn Steiner"),
    ("William Herman", "William Chen"), ("Christine Matus", "Christine Urata"),
    ("Ann Terry", "Terry Sand"), ("Peter Hou", "Peter Chow"),
])
def test_names_of_other_words_are_never_offered_as_one_person(known: str, written: str) -> None:
    """Real Mercercrest names 80-85 alike, relatives or other people: a given name or a surname
    that is another word (not an initial, a short form or a typo) is another person, whatever
    the overall score (docs/identity.md, "Candidates for review")."""
    r = _resolver(KnownPlayer(1, known))
    res = _one(r, written, organiser="Mercercrest")
    assert (res.how, res.review_key) == ("new player", None)
    assert not r.review_entries


@pytest.mark.parametrize(("known", "written", "score"), [
    ("Katherine Smith", "Kate Smith", 80.0), ("Brad Rind", "Bradley Rind", 85.7),
    ("Beatrix Kossmann", "Beatrice Kossmann", 90.9), ("Brian Zaugg", "T Brian Zaugg", 91.7),
    ("Steven Mark Lewis", "Steven Lewis", 82.8), ("Zhenzhong Guo", "Zheng Zhong Guo", 92.9),
    ("Ted Landreth", "Ted Landeeth", 91.7), ("An Tootill", "Ann Tootill", 95.2),
])
def test_short_forms_initials_middle_names_and_typos_are_offered(known: str, written: str,
                                                                 score: float) -> None:
    settings = IdentitySettings(fuzzy_accept=100, fuzzy_review=75)
    r = _resolver(KnownPlayer(1, known), settings=settings)
    res = _one(r, written, organiser="Mercercrest")
    assert res.how == "waiting for review"
    (candidate,) = r.review_entries[0].candidates
    assert (candidate["player_id"], candidate["score"]) == (1, score)


def test_a_typo_in_a_long_word_is_still_taken() -> None:
    r = _resolver(KnownPlayer(1, "Krishnan Ramarathnam"))
    res = _one(r, "Krishnan Ramaratnam", organiser="Mercercrest")
    assert (res.player_id, res.how) == (1, "fuzzy 97.4")


def test_two_close_fuzzy_candidates_are_not_guessed() -> None:
    r = _resolver(KnownPlayer(1, "Marek Kowalski"), KnownPlayer(2, "Marek Kowalsky"))
    res = _one(r, "Marek Kowalskiy")
    assert res.how == "waiting for review"
    assert len(r.review_entries[0].candidates) == 2


def test_confirmed_alias_and_non_match_rules() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák"), KnownPlayer(2, "Juraj Nowak"),
                  alias_rules={"jano novak": 2}, non_matches=[("jan novakk", 1)])
    res = _one(r, "Jano Novák")
    assert (res.player_id, res.how) == (2, "confirmed alias")
    res = _one(r, "Jan Novakk")
    assert res.player_id != 1 and res.how in ("new player", "waiting for review")


def test_a_name_is_not_given_to_a_player_already_in_the_event() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club=MODRA))
    ev = _event(("Ján Novák", "Peter Kováč"), ("NOVAK J.", "Eva Malá"))
    first, second = r.resolve_event(ev)
    assert first[0].player_id == 1
    assert second[0].player_id != 1


@given(st.lists(st.tuples(st.sampled_from(["Jan Novák", "Jan Novak", "Eva Malá", "Novák J."]),
                          st.one_of(st.none(), st.sampled_from(["1", "2", "3"]))), max_size=30))
def test_never_one_player_with_two_federation_ids(seq: list[tuple[str, str | None]]) -> None:
    r = _resolver()
    ids: dict[int, set[str]] = {}
    for name, fid in seq:
        res = _one(r, name, fids={name: fid} if fid else None)
        if fid:
            ids.setdefault(res.player_id, set()).add(fid)
    assert all(len(v) == 1 for v in ids.values())


# --- initials (docs/rules/inputs.md) ------------------------------------------------------------------

def _club(*extra: KnownPlayer) -> tuple[KnownPlayer, ...]:
    return (
        KnownPlayer(1, "Ján Novák", "1001", club=MODRA),
        KnownPlayer(2, "Jozef Novotný", "1002", club=MODRA),
        KnownPlayer(3, "Peter Kováč", "1003", club=MODRA),
        KnownPlayer(4, "Mária Horváthová", "1004", club=MODRA),
        KnownPlayer(5, "Zuzana Krajčírová", "1005", club=MODRA),
        *extra,
    )


def _history(partners: dict[tuple[int, int], int] | None = None,
             week: dict[tuple[str, int, int], set[int]] | None = None):  # type: ignore[no-untyped-def]
    both: Counter[tuple[int, int]] = Counter()
    for (a, b), n in (partners or {}).items():
        both[(a, b)] += n
        both[(b, a)] += n
    return lambda: (both, week or {})


def test_initials_with_one_roster_member_are_accepted() -> None:
    r = _resolver(*_club())
    res = r.resolve_event(_event(("PKo", "MHo"), initials=True))[0]
    assert [x.player_id for x in res] == [3, 4]
    assert res[0].how == "initials: only candidate"


def test_initials_decoded_by_the_usual_partner() -> None:
    r = _resolver(*_club(), history=_history({(1, 3): 4, (2, 4): 3}))
    first, second = r.resolve_event(_event(("JNo", "PKo"), ("JNo", "MHo"), initials=True))
    assert (first[0].player_id, first[0].how) == (1, "initials: usual partner")
    # Ján Novák is placed in this event already: the second JNo can only be Jozef Novotný
    assert (second[0].player_id, second[0].how) == (2, "initials: only candidate")
    assert second[0].evidence is not None
    assert second[0].evidence["placed_elsewhere_in_event"] == ["Ján Novák"]
    ev = first[0].evidence
    assert ev is not None and ev["partners"] == ["Peter Kováč"]
    assert {c["name"]: c["events_with_partner"] for c in ev["candidates"]} == {
        "Ján Novák": 4, "Jozef Novotný": 0}


def test_initials_decoded_by_who_played_in_the_club_that_week() -> None:
    week = dt.date(2013, 9, 19).isocalendar()
    r = _resolver(*_club(), history=_history(week={("modra", week[0], week[1]): {2, 3}}))
    res = r.resolve_event(_event(("JNo", "ZKr"), initials=True))[0][0]
    assert (res.player_id, res.how) == (2, "initials: played in the club that week")


def test_both_plausible_initials_go_to_review_and_are_never_guessed() -> None:
    r = _resolver(*_club(), history=_history({(1, 3): 4, (2, 4): 3}))
    res = r.resolve_event(_event(("JNo", "ZKr"), initials=True))[0][0]
    assert res.how == "waiting for review"
    assert res.review_key == "initials:modra:jno:with:5"
    entry = r.review_entries[0]
    assert {c["player_id"] for c in entry.candidates} == {1, 2}
    assert entry.kind == "initials" and entry.player_id == res.player_id


def test_an_earlier_decision_decides_the_same_situation() -> None:
    r = _resolver(*_club(), situation_rules={"initials:modra:jno:with:5": 2})
    res = r.resolve_event(_event(("JNo", "ZKr"), initials=True))[0][0]
    assert (res.player_id, res.how) == (2, "initials: earlier decision")
    assert not r.review_entries


def test_initials_without_roster_member_make_one_provisional_player_per_club_and_code() -> None:
    r = _resolver(*_club())
    a = r.resolve_event(_event(("XYz", "PKo"), initials=True))[0][0]
    assert (a.is_new, a.how) == (True, "initials only: no roster member")
    assert r.new_players[-1].state == "provisional"
    b = r.resolve_event(_event(("XYz", "MHo"), initials=True, day="2013-09-26"))[0][0]
    assert (b.player_id, b.is_new) == (a.player_id, False)


def test_initials_never_match_a_player_of_another_club() -> None:
    r = _resolver(KnownPlayer(1, "Ján Novák", club="BK Senec"))
    res = r.resolve_event(_event(("JNo", "PKo"), initials=True))[0][0]
    assert res.player_id != 1


def test_a_partner_decoded_first_serves_as_evidence() -> None:
    # PKo is the only candidate; once decoded, he tells the two JNo apart
    r = _resolver(*_club(), history=_history({(1, 3): 2}))
    res = r.resolve_event(_event(("JNo", "PKo"), initials=True))[0]
    assert [x.player_id for x in res] == [1, 3]


def test_what_a_load_learns_serves_later_events() -> None:
    r = _resolver(*_club(), history=_history())
    r.resolve_event(_event(("Ján Novák", "Zuzana Krajčírová"), day="2013-09-12"))
    res = r.resolve_event(_event(("JNo", "ZKr"), initials=True, day="2013-09-26"))[0][0]
    assert (res.player_id, res.how) == (1, "initials: usual partner")


def test_thresholds_are_checked() -> None:
    with pytest.raises(ValueError, match="fuzzy_review"):
        IdentitySettings(fuzzy_accept=70, fuzzy_review=80)


def test_an_initial_is_still_offered_against_a_full_name() -> None:
    """J. for John, as before: a person decides between the name and its candidate."""
    r = _resolver(KnownPlayer(1, "John Smithson"),
                  settings=IdentitySettings(fuzzy_review=75))
    res = _one(r, "J. Smithsen")  # token_sort_ratio 78.3
    assert res.how == "waiting for review"
    assert [c["player_id"] for c in r.review_entries[0].candidates] == [1]


# --- one person per game (docs/identity.md, "One person per game") ----------------------------

def _in(game: str, r: IdentityResolver, name: str):  # type: ignore[no-untyped-def]
    return r.resolve_event(dataclasses.replace(_event((name,)), game=game))[0][0]


def test_a_bridge_register_member_is_not_a_go_player_of_the_same_name() -> None:
    """Issue 39, case 2: the bridge register's member 1004 is not the go player of her name."""
    member = KnownPlayer(4, "Mária Horváthová", "1004", origin="register", club=MODRA)
    bridge_only = IdentitySettings(register_games=("bridge",))
    r = _resolver(member, settings=bridge_only, members=[4])
    go = _in("go", r, "Horváthová Mária")
    assert (go.is_new, go.how) == (True, "new player") and go.player_id != 4
    assert _in("go", r, "Horváthová Mária").player_id == go.player_id  # the go player, again
    assert _in("bridge", r, "Horváthová Mária").player_id == 4
    # a register that says nothing of its games covers every game, as before
    assert _in("go", _resolver(member, members=[4]), "Horváthová Mária").player_id == 4


def test_a_player_of_one_game_s_results_is_another_game_s_new_player() -> None:
    r = _resolver(KnownPlayer(1, "Krzysztof Wojciechowski"), games=[(1, "bridge")])
    assert _in("preferans", r, "Krzysztof Wojciechowski").is_new
    assert _in("preferans", r, "Krzystof Wojciechowski").how.startswith("fuzzy")  # its own
    assert _in("bridge", r, "Krzysztof Wojciechowski").player_id == 1


def test_a_decision_makes_one_person_of_two_games() -> None:
    """A confirmed alias (a person's answer) is taken in any game."""
    r = _resolver(KnownPlayer(1, "Jan Novák"), games=[(1, "bridge")],
                  alias_rules={"jan novak": 1})
    assert (_in("go", r, "Novák Jan").player_id, _in("go", r, "Jan Novák").how) == (
        1, "confirmed alias")
