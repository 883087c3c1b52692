"""Cobalt club-session CSV: recognised (not left to a generic format) and refused with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import (
    FORMATS,
    MalformedFile,
    ParseError,
    UnsupportedVariant,
    detect_format,
    parse_bytes,
)
from parsers import cobalt_session, csv_template

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


SAMPLE_NAME = "cobalt_club_session_basic.csv"
SAMPLE = (FIXTURES / "cobalt_session" / SAMPLE_NAME).read_bytes()


def test_sample_is_refused_with_a_reason_naming_the_file() -> None:
    with pytest.raises(UnsupportedVariant) as raised:
        cobalt_session.parse(SAMPLE, source=f"/inbox/{SAMPLE_NAME}")
    error = raised.value
    assert error.file == SAMPLE_NAME
    assert error.problem.startswith("a seating list without results or date; ")
    assert "(28 players in 14 pairs)" in error.problem
    assert str(error).endswith(f"(file {SAMPLE_NAME})")


def test_refused_in_lenient_and_strict_mode_alike() -> None:
    for strict in (False, True):
        with pytest.raises(UnsupportedVariant):
            cobalt_session.parse(SAMPLE, source=SAMPLE_NAME, strict=strict)


def test_registry_picks_cobalt_session_and_parse_bytes_refuses() -> None:
    assert detect_format(SAMPLE, SAMPLE_NAME).name == "cobalt_session"
    with pytest.raises(UnsupportedVariant, match="seating list"):
        parse_bytes(SAMPLE, source=SAMPLE_NAME)


def test_csv_template_and_cobalt_do_not_claim_each_other() -> None:
    assert not csv_template.detect(SAMPLE, SAMPLE_NAME)
    for path in _fixture_files():
        if path.is_file() and path.parent.name != "cobalt_session" and path.suffix != ".json":
            assert not cobalt_session.detect(path.read_bytes(), path.name), path
    claimed = [f.name for f in FORMATS.values() if not f.fallback and f.detect(SAMPLE)]
    assert claimed == ["cobalt_session"]


@pytest.mark.parametrize("header", [
    "PairNumber,Name,ABF No,Initial Seating",
    "\ufeffpairnumber, name ,ABF  No,INITIAL SEATING,Phone,Email",
])
def test_detect_header_variants(header: str) -> None:
    data = f"{header}\n1,ANN,1,1-NS\n".encode("utf-8")
    assert cobalt_session.detect(data)
    with pytest.raises(UnsupportedVariant, match=r"\(1 player in 1 pair\)"):
        cobalt_session.parse(data, source="s.csv")


def test_detect_refuses_other_csvs() -> None:
    assert not cobalt_session.detect(b"PairNumber,Name,Score\n1,ANN,60\n")
    assert not cobalt_session.detect(b"Name,PairNumber,ABF No,Initial Seating\n")


def test_row_without_name_is_malformed() -> None:
    data = b"PairNumber,Name,ABF No,Initial Seating\n1,ANN,1,1-NS\n1,,2,1-NS\n"
    with pytest.raises(MalformedFile) as raised:
        cobalt_session.parse(data, source="s.csv")
    error = raised.value
    assert (error.file, error.row, error.column, error.value) == ("s.csv", 3, "Name", "")


def test_row_without_seating_is_malformed() -> None:
    data = b"PairNumber,Name,ABF No,Initial Seating\r\n\r\n1,ANN,1\r\n"
    with pytest.raises(MalformedFile) as raised:
        cobalt_session.parse(data, source="s.csv")
    assert (raised.value.row, raised.value.column) == (3, "Initial Seating")


def test_wrong_header_is_malformed_when_forced() -> None:
    with pytest.raises(MalformedFile, match="header needs") as raised:
        cobalt_session.parse(b"a,b,c\n", source="s.csv")
    assert raised.value.row == 1


@given(st.integers(0, len(SAMPLE)), st.integers(0, 100), st.binary(max_size=20))
def test_damaged_files_fail_only_with_parse_errors(start: int, cut: int, junk: bytes) -> None:
    with pytest.raises(ParseError) as raised:
        cobalt_session.parse(SAMPLE[:start] + junk + SAMPLE[start + cut:], source="d.csv")
    assert raised.value.file == "d.csv"
