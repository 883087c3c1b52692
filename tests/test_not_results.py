"""No page or sheet that is not a result list loads: 1,200 generated ones (hand records,
travellers, score cards, seating and movement cards, registration and member lists, calendars,
price lists, league tables of other sports, tables of numbers; ``plain_corpus`` of
tests/_nonresults.py) and the real ones of fixtures/real/refused/, through detection and through
each generic reader."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from parsers import ParseError, parse_bytes

from ._nonresults import plain_corpus as corpus

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "refused"


@functools.cache
def _generated() -> list[tuple[str, bytes]]:
    """The generated corpus, made on first use (not while the tests are collected)."""
    return list(corpus(1200))


def _loads(data: bytes, name: str, fmt: str | None = None) -> bool:
    try:
        parse_bytes(data, source=name, fmt=fmt)
    except ParseError:
        return False
    return True


def test_the_corpus_is_large_and_varied() -> None:
    assert len(_generated()) >= 1000
    kinds = {name.split("-")[0] for name, _ in _generated()}
    suffixes = {name.rsplit(".", 1)[1] for name, _ in _generated()}
    assert len(kinds) >= 10 and suffixes == {"html", "csv", "xlsx"}


def test_no_generated_non_result_loads() -> None:
    loaded = [name for name, data in _generated() if _loads(data, name)]
    assert loaded == []


@pytest.mark.parametrize("fmt", ["html_tables", "spreadsheet"])
def test_no_generic_reader_loads_a_generated_non_result(fmt: str) -> None:
    suffixes = ("html",) if fmt == "html_tables" else ("csv", "xlsx")
    chosen = [(n, d) for n, d in _generated() if n.rsplit(".", 1)[1] in suffixes]
    assert len(chosen) > 100
    assert [name for name, data in chosen if _loads(data, name, fmt)] == []


@pytest.mark.parametrize("path", sorted(p for p in REAL.glob("*") if p.name != "SOURCES.txt"),
                         ids=lambda p: p.name)
def test_no_generic_reader_loads_a_real_non_result(path: Path) -> None:
    data = path.read_bytes()
    for fmt in (None, "html_tables", "spreadsheet"):
        assert not _loads(data, path.name, fmt), fmt
