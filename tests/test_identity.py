"""Minimal identity: federation id, else exact normalised name key, else a new player."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import PlayerAsWritten
from warehouse import ExactResolver, KnownPlayer, name_key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ján Novák", "jan novak"),
        ("Ján Novák", "NOVÁK  Ján"),
        ("Mariusz Łasiewicki", "Mariusz Lasiewicki"),
        ("Zoltán Kőrösi", "Zoltan Korosi"),
        ("Jiří Dvořák", "dvorak jiri"),
        ("Anna Nowak-Kowalska", "Nowak-Kowalska Anna"),
    ],
)
def test_same_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Ján Novák", "Jana Nováková"), ("Anna Nowak-Kowalska", "Anna Nowak Kowalska")],
)
def test_different_key(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


def _resolver(*known: KnownPlayer) -> ExactResolver:
    return ExactResolver(known, next_id=max([k.player_id for k in known], default=0) + 1)


def test_federation_id_wins_over_spelling() -> None:
    r = _resolver(KnownPlayer(1, "Irena Chodorowska", name_key("Irena Chodorowska"), "06542"))
    res = r.resolve(PlayerAsWritten("CHODOROWSKA I.", federation_id="06542"))
    assert (res.player_id, res.is_new, res.reason) == (1, False, "federation id")


def test_name_key_match_learns_the_federation_id() -> None:
    r = _resolver(KnownPlayer(1, "Jan Novák", name_key("Jan Novák"), None))
    res = r.resolve(PlayerAsWritten("Novak Jan", federation_id="123"))
    assert (res.player_id, res.is_new, res.learned_federation_id) == (1, False, "123")
    assert r.resolve(PlayerAsWritten("J. Novák", federation_id="123")).player_id == 1


def test_two_federation_ids_are_two_players() -> None:
    r = _resolver(KnownPlayer(1, "Jan Novák", name_key("Jan Novák"), "111"))
    res = r.resolve(PlayerAsWritten("Jan Novák", federation_id="222"))
    assert res.is_new and res.player_id == 2


def test_shared_key_is_not_decided_by_the_key() -> None:
    key = name_key("Jan Novák")
    r = _resolver(KnownPlayer(1, "Jan Novák", key, "111"), KnownPlayer(2, "Jan Novák", key, "222"))
    assert r.resolve(PlayerAsWritten("Jan Novák")).is_new


def test_initials_are_never_matched_by_key() -> None:
    r = _resolver(KnownPlayer(1, "JNo", name_key("JNo"), None))
    assert r.resolve(PlayerAsWritten("JNo", initials=True)).is_new


@given(st.lists(st.tuples(st.sampled_from(["Jan Novák", "Jan Novak", "Eva Malá"]),
                          st.one_of(st.none(), st.sampled_from(["1", "2", "3"]))), max_size=30))
def test_never_one_player_with_two_federation_ids(seq: list[tuple[str, str | None]]) -> None:
    r = _resolver()
    ids: dict[int, set[str]] = {}
    for name, fid in seq:
        res = r.resolve(PlayerAsWritten(name, federation_id=fid))
        if fid:
            ids.setdefault(res.player_id, set()).add(fid)
    assert all(len(v) == 1 for v in ids.values())
