"""Scheme registry and options: parsing user text, messages that list what is valid, round trip."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings
from ratings import (
    SCHEMES,
    BeloParams,
    OptionError,
    RatingError,
    Scheme,
    UnknownScheme,
    params_to_options,
    parse_options,
)

OPTION_NAMES = [
    "abroad", "board_weight", "cutover", "event_normalisation", "field", "history",
    "match_result", "max_passes", "min_rated_units", "newcomer", "partner", "partner_rating",
    "partner_weight", "period", "period_combine", "periodic_normalisation", "phantom_events",
    "skip_rule", "startup_method", "startup_tolerance", "subsidy_warn",
]

CHOICES = {
    "field": ["k", "belo2"],
    "partner": ["none", "linear", "damped"],
    "partner_rating": ["others_mean", "unit_mean"],
    "board_weight": ["linear", "proportional", "none"],
    "period": ["quarter", "month", "year"],
    "period_combine": ["exponential", "additive"],
    "event_normalisation": ["on", "off"],
    "periodic_normalisation": ["year", "period", "never"],
    "skip_rule": ["on", "off"],
    "partner_weight": ["none", "ratio"],
    "abroad": ["exclude", "assumed"],
    "match_result": ["place", "vp_share"],
    "newcomer": ["flat", "subsidy", "phantom"],
    "startup_method": ["accelerated", "plain"],
}


def _one_event() -> pd.DataFrame:
    return pd.DataFrame([
        {"event_id": "e1", "date": "2013-08-05", "kind": "pairs", "scoring": "MP",
         "boards": 24.0, "unit": str(u), "place": float(u), "player": f"p{u}{s}"}
        for u in range(1, 5) for s in "ab"
    ])


# --- registry --------------------------------------------------------------------------------


def test_registry_lists_belo_and_belo2() -> None:
    assert {"belo", "belo2"} <= set(SCHEMES)
    for name, scheme in SCHEMES.items():
        assert isinstance(scheme, Scheme)
        assert scheme.name == name
        assert scheme.description
    for name in ("belo", "belo2"):
        assert SCHEMES[name].params_type is BeloParams
        assert isinstance(SCHEMES[name].defaults, BeloParams)


def test_profiles_differ_only_in_field() -> None:
    belo, belo2 = SCHEMES["belo"].defaults, SCHEMES["belo2"].defaults
    assert belo.field == "k"
    assert belo2.field == "belo2"
    assert dataclasses.replace(belo, field="belo2") == belo2
    assert BeloParams() == belo2


def test_documented_defaults() -> None:
    assert params_to_options(BeloParams()) == {
        "abroad": "exclude",
        "board_weight": "linear",
        "cutover": "",
        "event_normalisation": "on",
        "field": "belo2",
        "history": "50",
        "match_result": "place",
        "max_passes": "10",
        "min_rated_units": "3",
        "newcomer": "phantom",
        "partner": "damped",
        "partner_rating": "others_mean",
        "partner_weight": "none",
        "period": "quarter",
        "period_combine": "exponential",
        "periodic_normalisation": "year",
        "phantom_events": "15",
        "skip_rule": "on",
        "startup_method": "accelerated",
        "startup_tolerance": "0.5",
        "subsidy_warn": "0.5",
    }


def test_scheme_and_params_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SCHEMES["belo"].defaults.partner = "none"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        SCHEMES["belo"].name = "other"  # type: ignore[misc]


def test_scheme_rate_is_the_scheme() -> None:
    results = _one_event()
    run_belo = SCHEMES["belo"].rate(results, SCHEMES["belo"].defaults)
    run_named = ratings.rate("belo", results)
    pd.testing.assert_frame_equal(run_belo.ratings, run_named.ratings)
    k_run = ratings.rate("belo2", results, options={"field": "k"})
    pd.testing.assert_frame_equal(k_run.ratings, run_belo.ratings)


def test_exports_are_deliberate() -> None:
    for name in ratings.__all__:
        assert hasattr(ratings, name), name
    assert {"SCHEMES", "Scheme", "BeloParams", "RatingRun", "parse_options",
            "params_to_options", "rate", "RatingError", "OptionError"} <= set(ratings.__all__)


# --- parsing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"), [(name, value) for name, values in CHOICES.items() for value in values],
)
def test_every_valid_choice_parses(name: str, value: str) -> None:
    params = parse_options("belo2", {name: value})
    assert getattr(params, name) == value
    others = {n: getattr(params, n) for n in OPTION_NAMES if n != name}
    assert others == {n: getattr(BeloParams(), n) for n in OPTION_NAMES if n != name}


def test_numbers_parse_to_numbers() -> None:
    params = parse_options(
        "belo", {"history": "40", "min_rated_units": "2", "phantom_events": "12"},
    )
    assert params.history == 40.0 and isinstance(params.history, float)
    assert params.min_rated_units == 2 and isinstance(params.min_rated_units, int)
    assert params.phantom_events == 12
    assert parse_options("belo", {"history": "37.5"}).history == 37.5


def test_options_apply_over_scheme_defaults() -> None:
    assert parse_options("belo", {"partner": "none"}).field == "k"
    assert parse_options("belo2", {"partner": "none"}).field == "belo2"
    assert parse_options("belo", {"field": "belo2"}) == parse_options("belo2", {})


def test_unknown_option_lists_valid_options() -> None:
    with pytest.raises(OptionError) as info:
        parse_options("belo2", {"feild": "k"})
    assert str(info.value) == (
        "unknown option 'feild'; valid options: " + ", ".join(OPTION_NAMES)
    )


def test_invalid_value_lists_valid_values() -> None:
    with pytest.raises(OptionError) as info:
        parse_options("belo2", {"partner": "x"})
    assert str(info.value) == (
        "invalid value 'x' for option 'partner'; valid values: none, linear, damped"
    )


@pytest.mark.parametrize(
    ("name", "value", "valid"),
    [
        ("history", "abc", "a number >= 1"),
        ("history", "0", "a number >= 1"),
        ("history", "-5", "a number >= 1"),
        ("history", "nan", "a number >= 1"),
        ("history", "inf", "a number >= 1"),
        ("min_rated_units", "0", "an integer >= 1"),
        ("min_rated_units", "2.5", "an integer >= 1"),
        ("phantom_events", "zero", "an integer >= 1"),
        ("period", "week", "quarter, month, year"),
        ("newcomer", "late", "flat, subsidy, phantom"),
    ],
)
def test_invalid_values(name: str, value: str, valid: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_options("belo2", {name: value})
    assert str(info.value) == f"invalid value {value!r} for option {name!r}; valid values: {valid}"


def test_values_must_be_text() -> None:
    with pytest.raises(OptionError, match=r"invalid value 40 for option 'history'"):
        parse_options("belo2", {"history": 40})  # type: ignore[dict-item]


def test_unknown_scheme() -> None:
    with pytest.raises(UnknownScheme) as info:
        parse_options("trueskill-9", {})
    assert str(info.value) == (
        f"unknown rating scheme 'trueskill-9'; valid schemes: {', '.join(sorted(SCHEMES))}")
    with pytest.raises(UnknownScheme):
        ratings.rate("trueskill-9", _one_event())


def test_error_classes() -> None:
    assert issubclass(OptionError, RatingError)
    assert issubclass(UnknownScheme, OptionError)
    assert issubclass(ratings.InputError, RatingError)


# --- dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["2016-13-01", "2016-1-1", "yesterday", "2016-02-30"])
def test_cutover_must_be_a_date(value: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_options("belo2", {"cutover": value})
    assert str(info.value) == (f"invalid value {value!r} for option 'cutover'; valid values: "
                               "a date YYYY-MM-DD, or empty for none")
    assert parse_options("belo2", {"cutover": "2016-01-01"}).cutover == "2016-01-01"


def test_phantom_events_is_accepted_with_flat() -> None:
    params = parse_options("belo2", {"newcomer": "flat", "phantom_events": "20"})
    assert params.phantom_events == 20
    assert params_to_options(params)["phantom_events"] == "20"


def test_params_built_in_code_are_checked() -> None:
    with pytest.raises(OptionError, match=r"invalid value 'x' for option 'partner'"):
        BeloParams(partner="x")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"option 'min_rated_units'"):
        BeloParams(min_rated_units=0)
    with pytest.raises(OptionError, match=r"option 'min_rated_units'"):
        BeloParams(min_rated_units=2.5)  # type: ignore[arg-type]


# --- round trip --------------------------------------------------------------------------------


def test_params_to_options_names_every_option() -> None:
    options = params_to_options(BeloParams())
    assert list(options) == OPTION_NAMES
    assert all(isinstance(v, str) for v in options.values())


@pytest.mark.parametrize("scheme", ["belo", "belo2"])
def test_round_trip_of_defaults(scheme: str) -> None:
    defaults = SCHEMES[scheme].defaults
    assert parse_options(scheme, params_to_options(defaults)) == defaults


@settings(max_examples=100, deadline=None)
@given(
    choices=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in CHOICES.items()}),
    history=st.floats(1.0, 1000.0),
    min_rated_units=st.integers(1, 50),
    phantom_events=st.integers(1, 40),
    scheme=st.sampled_from(["belo", "belo2"]),
)
def test_round_trip(
    choices: dict[str, str], history: float, min_rated_units: int, phantom_events: int,
    scheme: str,
) -> None:
    params = BeloParams(
        history=history, min_rated_units=min_rated_units, phantom_events=phantom_events,
        **choices,  # type: ignore[arg-type]
    )
    text = params_to_options(params)
    assert parse_options(scheme, text) == params
    assert params_to_options(parse_options(scheme, text)) == text


def test_params_to_options_rejects_other_objects() -> None:
    with pytest.raises(OptionError):
        params_to_options(ratings.RatingRun(pd.DataFrame(), pd.DataFrame(), pd.DataFrame()))
