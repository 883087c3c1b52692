"""parsers.names: name keys, abbreviated names, initials codes and names cells.

Golden rows in fixtures/names (name_forms.csv, pair_strings.csv; see SOURCES.txt there), one test
per row, plus Hypothesis properties.
"""

from __future__ import annotations

import csv
import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import _grid, pbn
from parsers.names import (
    GENERATION_MARKERS,
    TITLES,
    NameForm,
    fold,
    initials_code,
    is_initials,
    may_be_one_person,
    name_key,
    parse_name,
    split_names_with_initials,
    split_pair,
)

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "names"


def _rows(name: str) -> list[dict[str, str]]:
    with (HERE / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _set(text: str) -> frozenset[str]:
    return frozenset(x for x in text.split("|") if x)


NAME_FORMS = _rows("name_forms.csv")
PAIR_STRINGS = _rows("pair_strings.csv")


def test_the_fixtures_cover_enough_forms() -> None:
    assert len(NAME_FORMS) >= 45
    assert len(PAIR_STRINGS) >= 25
    assert len({r["written"] for r in NAME_FORMS}) == len(NAME_FORMS)


# --- golden name forms -----------------------------------------------------------------------


@pytest.mark.parametrize("row", NAME_FORMS, ids=[r["written"] or "<empty>" for r in NAME_FORMS])
def test_name_form(row: dict[str, str]) -> None:
    form = parse_name(row["written"])
    assert form.written == row["written"]
    assert form.key == row["key"]
    assert name_key(row["written"]) == row["key"]
    assert form.short_keys() == _set(row["short_keys"])
    assert form.initials_codes() == _set(row["initials_codes"])
    assert form.abbreviated is {"true": True, "false": False}[row["abbreviated"]]
    for column in ("short_keys", "initials_codes"):  # the fixture writes its sets sorted
        assert row[column].split("|") == sorted(row[column].split("|"))


@pytest.mark.parametrize(("written", "tokens", "suffix"), [
    ("Ing. Ján Novák, PhD.", ("jan", "novak"), ""),
    ("Novák, Ján", ("novak", "jan"), ""),
    ("NOVAK J.", ("novak", "j"), ""),
    ("Mgr. Eva Nováková-Kráľová", ("eva", "novakova-kralova"), ""),
    ("Nowak\u2013Kowalska Anna", ("nowak-kowalska", "anna"), ""),
    ("ifj. Kovács János", ("kovacs", "janos"), "ifj"),
    ("Kovács János, id.", ("kovacs", "janos"), "id"),
    ("Novák Ján ml.", ("novak", "jan"), "ml"),
    ("Novák Ján st", ("novak", "jan"), "st"),
    ("John Smith Jr.", ("john", "smith"), "jr"),
    ("Seán O'Brien (G)", ("sean", "o'brien"), ""),
    ("dipl.-ing. Hans Müller", ("hans", "muller"), ""),
    ("Ing. arch. Peter Kováč", ("peter", "kovac"), ""),
    ("Dr", ("dr",), ""),  # a title alone is kept: nothing else would remain
    ("St", ("st",), ""),  # a marker alone is a word
    ("", (), ""),
])
def test_tokens_and_suffix(written: str, tokens: tuple[str, ...], suffix: str) -> None:
    form = parse_name(written)
    assert form.tokens == tokens
    assert form.suffix == suffix


def test_generation_marker_makes_another_person() -> None:
    assert name_key("Kovács János") == "janos kovacs"
    assert name_key("ifj. Kovács János") == "janos kovacs ifj"
    assert name_key("id. Kovács János") != name_key("ifj. Kovács János")


def test_abbreviated_written_name_matches_the_short_keys_of_the_full_name() -> None:
    full = parse_name("Ján Novák")
    assert parse_name("NOVAK J.").key in full.short_keys()
    assert parse_name("J. Novák").key in parse_name("Novák Ján").short_keys()
    assert parse_name("NOVAK J.").key not in parse_name("Peter Novák").short_keys()


def test_short_keys_of_three_tokens() -> None:
    assert parse_name("Anna Maria Nowak").short_keys() == {
        "a maria nowak", "anna m nowak", "a m nowak", "anna maria n", "anna m n",
    }


def test_name_form_is_frozen() -> None:
    form = parse_name("Ján Novák")
    assert isinstance(form, NameForm)
    with pytest.raises(AttributeError):
        form.key = "x"  # type: ignore[misc]


# --- initials ------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["JNo", "MŠť", "ĽKo", "ŁZi", "ŐKo", "DŽi", "AHor"])
def test_is_initials(token: str) -> None:
    assert is_initials(token)


@pytest.mark.parametrize("token", ["JNO", "Jno", "jno", "J.No", "Novák", "JN", "JNovák", "J1o", ""])
def test_is_not_initials(token: str) -> None:
    assert not is_initials(token)


@pytest.mark.parametrize(("code", "folded"), [
    ("JNo", "jno"), ("MŠť", "mst"), ("ŁZi", "lzi"), (" ĽKo ", "lko"), ("AHor", "ahor"),
])
def test_initials_code(code: str, folded: str) -> None:
    assert initials_code(code) == folded


def test_initials_code_meets_the_codes_of_the_full_name() -> None:
    assert initials_code("JNo") in parse_name("Ján Novák").initials_codes()
    assert initials_code("JNo") in parse_name("Novák Ján").initials_codes()
    assert initials_code("MŠť") in parse_name("Martin Šťastný").initials_codes()
    assert initials_code("ENo") in parse_name("Eva Nováková-Kráľová").initials_codes()
    assert initials_code("PKo") not in parse_name("Ján Novák").initials_codes()


# --- fold ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "folded"), [
    ("Łukasz Żółć", "lukasz zolc"), ("ŐRSI Űrge", "orsi urge"), ("Ďurčová Ľudmila",
                                                                 "durcova ludmila"),
    ("Straße", "strasse"), ("Søren Ødegård", "soren odegard"), ("Æsir Œuvre", "aesir oeuvre"),
    ("ıi", "ii"), ("Þór Guðmundsson", "thor gudmundsson"), ("Đorđe", "dorde"),
    ("O'Brien, J.", "o'brien, j."),
])
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded


# --- golden names cells ----------------------------------------------------------------------


@pytest.mark.parametrize("row", PAIR_STRINGS,
                         ids=[f"{r['text']!r}/{r['kind'] or 'none'}" for r in PAIR_STRINGS])
def test_pair_string(row: dict[str, str]) -> None:
    kind = row["kind"] or None
    expected = [n for n in row["names"].split(" | ") if n]
    assert split_pair(row["text"], kind) == expected


@pytest.mark.parametrize(("text", "names", "initials"), [
    ("JNo-PKo", ["JNo", "PKo"], True),
    ("ĽVa-ŠTó", ["ĽVa", "ŠTó"], True),
    ("Novák Ján - Kováč Peter", ["Novák Ján", "Kováč Peter"], False),
    ("JNO-PKO", ["JNO-PKO"], False),
    ("", [], False),
])
def test_split_names_with_initials(text: str, names: list[str], initials: bool) -> None:
    assert split_names_with_initials(text) == (names, initials)
    assert _grid.split_names(text) == (names, initials)


def test_individual_initials_code() -> None:
    assert split_names_with_initials("JNo", "individual") == (["JNo"], True)
    assert split_names_with_initials("Novák J.", "individual") == (["Novák J."], False)


def test_pbn_splitter_delegates() -> None:
    assert pbn.split_names("Alfa-Bravo", "pairs") == ["Alfa", "Bravo"]
    assert pbn.split_names("Nowak, Kowal, Mazur", "teams") == ["Nowak", "Kowal", "Mazur"]
    assert pbn.split_names("Nowak-Kowalska", "individual") == ["Nowak-Kowalska"]


# --- properties ------------------------------------------------------------------------------

_LOWER = "aáäbcčdďeéěfghiíjklĺľłmnńňoóôöőpqrŕřsśštťuúůüűvwxyýzźżąćęó"
_PLAIN = str.maketrans("áäčďéěíĺľłńňóôöőŕřśšťúůüűýźżąćę",
                       "aacdeeilllnnoooorrsstuuuuyzzace")
_RESERVED = TITLES | GENERATION_MARKERS.keys()

_words = st.text(alphabet=_LOWER, min_size=2, max_size=9).filter(
    lambda w: fold(w) not in _RESERVED)
_names = st.lists(_words, min_size=1, max_size=4).map(
    lambda ws: " ".join(w[0].upper() + w[1:] for w in ws))


def _letters(text: str) -> str:
    return "".join(ch for ch in text if ch.isalpha())


@given(st.lists(_words, min_size=1, max_size=4), st.randoms(use_true_random=False),
       st.lists(st.sampled_from(["upper", "lower", "title"]), min_size=4, max_size=4))
def test_name_key_ignores_order_case_and_diacritics(
    words: list[str], rnd: random.Random, cases: list[str],
) -> None:
    original = " ".join(w.capitalize() for w in words)
    shuffled = list(words)
    rnd.shuffle(shuffled)
    variant = " ".join(getattr(w.translate(_PLAIN), case)()
                       for w, case in zip(shuffled, cases))
    expected = " ".join(sorted(w.translate(_PLAIN) for w in words))
    assert name_key(original) == name_key(variant) == expected


@given(st.text())
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@given(st.text())
def test_fold_leaves_no_marks_and_no_upper_case(text: str) -> None:
    folded = fold(text)
    assert not any(unicodedata.combining(ch) for ch in folded)
    assert folded == folded.casefold()


@given(_names, _names)
def test_split_pair_never_loses_letters(first: str, second: str) -> None:
    text = f"{first} - {second}"
    for kind in ("pairs", "teams", None):
        parts = split_pair(text, kind)
        assert _letters("".join(parts)) == _letters(text)
        assert parts == [first, second]


@pytest.mark.parametrize("written,shown", [
    ("GIBBERD", "Gibberd"), ("GIBBERD John", "Gibberd John"), ("NOVAK J.", "Novak J."),
    ("O'BRIEN", "O'Brien"), ("NOWAK-KOWALSKA Anna", "Nowak-Kowalska Anna"),
    ("ŻÓŁĆ Łukasz", "Żółć Łukasz"), ("Henry III", "Henry III"), ("Louis XIV", "Louis XIV"),
    ("JNo", "JNo"), ("McDONALD", "McDONALD"), ("Novák [SK]", "Novák [SK]"),
    ("Ján Novák", "Ján Novák"),
])
def test_display_name_puts_capitals_in_proper_case(written: str, shown: str) -> None:
    from parsers.names import display_name, name_key
    assert display_name(written) == shown
    assert name_key(display_name(written)) == name_key(written)


@pytest.mark.parametrize(("a", "b", "one"), [
    ("Karen Epley", "Kevin Epley", False),      # relatives: other given names
    ("EPLEY Karen", "Kevin Epley", False),
    ("William Chen", "William Herman", False),  # other surnames
    ("Jan Novák", "Jana Nováková", False),
    ("Martin Smith", "Martina Smith", False),   # the feminine form is another name
    ("Kate Smith", "Katherine Smith", True),    # GIVEN_NAME_FORMS
    ("Bill Evans", "William Evans", True),
    ("Novák Ján", "Jan Novak", True),
    ("J. Smith", "John Smith", True),           # an initial
    ("SMITH J.", "John Smith", True),
    ("Ted Landeeth", "Ted Landreth", True),     # a typo in a long word
    ("Kovács János", "ifj. Kovács János", True),
    ("id. Kovács János", "ifj. Kovács János", False),
])
def test_may_be_one_person_word_by_word(a: str, b: str, one: bool) -> None:
    assert may_be_one_person(a, b) is one
    assert may_be_one_person(b, a) is one
