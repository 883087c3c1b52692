"""The generic formats load only result tables: a corpus of pages and sheets that are NOT result
lists - real ones (fixtures/nonresults/real/, SOURCES.txt says where each comes from) and
generated ones (tests/_nonresults.py) - is refused by ``html_tables`` and ``spreadsheet`` and by
plain detection, while the generic formats' own result fixtures still load.

A format may claim such a file (``detect``); parsing must refuse it (a ``ParseError``), never
return events.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from parsers import FORMATS, ParseError, parse_bytes

from ._nonresults import KINDS, PROGRAM_FOOTERS, corpus

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REAL = FIXTURES / "nonresults" / "real"
GENERIC = ("html_tables", "spreadsheet")
SHEETS = (".csv", ".xlsx", ".xls", ".ods", ".tsv")

REAL_FILES = sorted(p for p in REAL.iterdir() if p.is_file() and p.name != "SOURCES.txt")


@functools.cache
def _generated() -> list[tuple[str, bytes]]:
    """The generated corpus, made on first use (not while the tests are collected)."""
    return list(corpus(1020))


def _corpus() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in REAL_FILES] + _generated()


def _own(name: str) -> str:
    """The generic format a file would fall to: sheets to ``spreadsheet``, pages to
    ``html_tables``."""
    return "spreadsheet" if name.lower().endswith(SHEETS) else "html_tables"


def _loaded(data: bytes, name: str, fmt: str | None) -> str | None:
    """What loading ``data`` gave (``'3 events by spreadsheet'``), None if it was refused."""
    try:
        result = parse_bytes(data, source=name, fmt=fmt)
    except ParseError:
        return None
    return f"{len(result.events)} events by {result.format}"


@functools.cache
def _outcomes() -> tuple[tuple[str, str, bool, str], ...]:
    """Every corpus file through the generic format it would fall to, the other generic format
    and detection: (file, format or 'detected', loaded, what was loaded or the refusal)."""
    out = []
    for name, data in _corpus():
        own = _own(name)
        other = "html_tables" if own == "spreadsheet" else "spreadsheet"
        for fmt in (own, other, None):
            try:
                result = parse_bytes(data, source=name, fmt=fmt)
            except ParseError as exc:
                assert exc.file == name, f"{name}: the refusal names no file: {exc}"
                out.append((name, fmt or "detected", False, str(exc)))
            else:
                out.append((name, fmt or "detected", True,
                            f"{len(result.events)} events by {result.format}"))
    return tuple(out)


def test_the_corpus_is_large_and_varied() -> None:
    assert len(_corpus()) >= 1000
    assert len(REAL_FILES) >= 30
    kinds = Counter(name.rsplit("-", 2)[0] for name, _ in _generated())
    assert set(kinds) == {k.__name__.replace("_", "-") for k in KINDS}
    suffixes = Counter(name.rsplit(".", 1)[1] for name, _ in _generated())
    assert set(suffixes) == {"html", "csv", "xlsx", "ods"}
    languages = Counter(name.rsplit("-", 2)[1] for name, _ in _generated())
    assert set(languages) == {"en", "sk", "cz", "pl", "hu", "de"}


def test_the_generator_is_deterministic() -> None:
    assert list(corpus(40)) == _generated()[:40]


def test_real_sources_are_listed() -> None:
    lines = [line for line in (REAL / "SOURCES.txt").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    listed = {line.split("|")[0].strip() for line in lines}
    assert listed == {p.name for p in REAL_FILES}
    assert all(len(line.split("|")) == 5 for line in lines)


def test_no_non_result_loads() -> None:
    """Each file through the generic format it would fall to, the other one, and detection."""
    outcomes = _outcomes()
    assert len(outcomes) == 3 * len(_corpus())
    assert [f"{name} ({fmt}): {what}" for name, fmt, loaded, what in outcomes if loaded] == []


WHAT_IS_MISSING = (
    "but no names column", "has a names column but no place or score column",
    "the places only number the rows", "the scores do not order the rows",
    "the places do not follow the scores", "mostly holds no names", "not a ranking",
    "written by", "no column of the players' names",
)


def test_refusals_say_what_the_table_lacks() -> None:
    """A generic format's refusal says, table by table, what is missing; every reason occurs."""
    found = Counter(what for name, fmt, _, text in _outcomes() if fmt == _own(name)
                    for what in WHAT_IS_MISSING if what in text)
    assert all(found[what] > 0 for what in WHAT_IS_MISSING), found


def test_a_refusal_names_the_table() -> None:
    page = ("<html><body><p>Turnaj 12.3.2012</p><table><tr><td>x</td><td>y</td></tr>"
            "<tr><td>1</td><td>2</td></tr></table><table><tr><th>Pár</th><th>Mená</th></tr>"
            "<tr><td>1</td><td>Novák - Kováč</td></tr><tr><td>2</td><td>Tóth - Varga</td></tr>"
            "</table></body></html>").encode()
    with pytest.raises(ParseError) as caught:
        parse_bytes(page, source="/inbox/seating.html", fmt="html_tables")
    assert "table 2 has a names column but no place or score column" in str(caught.value)
    assert caught.value.file == "seating.html"


@pytest.mark.parametrize("mark", PROGRAM_FOOTERS)
def test_a_scoring_programs_page_never_falls_to_a_generic_format(mark: str) -> None:
    table = ("<p>Klubový turnaj 12.3.2012</p><table><tr><th>Por.</th><th>Meno</th><th>%</th>"
             "</tr><tr><td>1</td><td>Novák Ján - Kováč Peter</td><td>60</td></tr>"
             "<tr><td>2</td><td>Tóth Pál - Varga Imre</td><td>40</td></tr></table>")
    hand_made = f"<html><head></head><body>{table}</body></html>".encode()
    assert _loaded(hand_made, "t.html", "html_tables") == "1 events by html_tables"
    head, body = (mark, "") if mark.startswith("<meta") else ("", mark)
    page = f"<html><head>{head}</head><body>{table}{body}</body></html>".encode()
    assert not FORMATS["html_tables"].detect(page, "t.html")
    with pytest.raises(ParseError, match="written by"):
        parse_bytes(page, source="t.html", fmt="html_tables")


@pytest.mark.parametrize("text", [
    "No.;User;Result\n1;anna_k;61.2\n2;boris7;55.1\n3;carla;44.9\n",
    "Title,#4242 Pairs Tuesday\nDate,12.3.2012\nRank,Name,Score\n1,Novák - Kováč,60\n"
    "2,Tóth - Varga,40\n",
    "RealBridge results 12.3.2012\nPlace;Names;%\n1;Novák - Kováč;60\n2;Tóth - Varga;40\n",
])
def test_a_programs_export_never_falls_to_the_spreadsheet_format(text: str) -> None:
    data = text.encode()
    assert not FORMATS["spreadsheet"].detect(data, "export.csv")
    with pytest.raises(ParseError, match="written by"):
        parse_bytes(data, source="export.csv", fmt="spreadsheet")


GOLDEN = sorted(p for d in ("html_tables", "spreadsheet") for p in (FIXTURES / d).rglob("*")
                if p.is_file() and not p.name.endswith(".json") and p.suffix != ".txt")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_the_generic_formats_own_result_fixtures_still_load(path: Path) -> None:
    data = path.read_bytes()
    fmt = _own(path.name)
    assert _loaded(data, path.name, fmt) is not None
    result = parse_bytes(data, source=path.name)
    assert result.format == fmt and result.events
    assert all(u.players for e in result.events for u in e.units[:2])
