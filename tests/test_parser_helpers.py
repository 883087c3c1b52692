"""The shared parser helpers: places and ties (with properties), dates, text decoding."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers._dates import find_date, parse_date, strip_date
from parsers._places import (
    WrittenPlace,
    order_problems,
    parse_place,
    shared_places,
)
from parsers._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal

# --- places ---------------------------------------------------------------------------------

Pattern = tuple[list[int], list[WrittenPlace | None]]
"""Group sizes of a ranking and the places written for its units."""

STYLES = ("plain-repeated", "plain-then-blank", "range-repeated", "range-then-blank")


@st.composite
def tie_patterns(draw: st.DrawFn) -> Pattern:
    """Group sizes of a ranking and the places a result list might write for them."""
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=15))
    written: list[WrittenPlace | None] = []
    first = 1
    for size in sizes:
        style = draw(st.sampled_from(STYLES))
        last = first + size - 1
        place = WrittenPlace(first, last if style.startswith("range") else first)
        rest = place if style.endswith("repeated") else None
        written.extend([place] + [rest] * (size - 1))
        first += size
    return sizes, written


@given(tie_patterns())
def test_tied_places_sum_to_the_places_occupied(pattern: Pattern) -> None:
    sizes, written = pattern
    places, problems = shared_places(written)
    n = len(written)
    assert problems == []
    assert sum(places) == n * (n + 1) / 2
    assert places == sorted(places)
    start = 0
    for size in sizes:
        group = places[start:start + size]
        assert group == [start + 1 + (size - 1) / 2] * size
        start += size


@given(tie_patterns())
def test_scores_that_follow_the_places_raise_no_problem(pattern: Pattern) -> None:
    _, written = pattern
    places, _ = shared_places(written)
    scores = [100.0 - place for place in places]
    assert order_problems(places, scores) == []


@given(st.lists(st.one_of(st.none(), st.builds(
    lambda a, b: WrittenPlace(a, a + b), st.integers(1, 30), st.integers(0, 3),
)), max_size=20))
def test_any_written_places_give_a_place_per_unit(written: list[WrittenPlace | None]) -> None:
    places, problems = shared_places(written)
    assert len(places) == len(written)
    assert all(place >= 1 for place in places)
    assert all(0 <= p.index < len(written) for p in problems)


@pytest.mark.parametrize(("text", "expected"), [
    ("5", WrittenPlace(5, 5)), ("5.", WrittenPlace(5, 5)), ("5-6", WrittenPlace(5, 6)),
    ("5.-6.", WrittenPlace(5, 6)), (" 5 – 6 ", WrittenPlace(5, 6)), ("", None), ("\xa0", None),
])
def test_parse_place(text: str, expected: WrittenPlace | None) -> None:
    assert parse_place(text) == expected


@pytest.mark.parametrize("text", ["x", "0", "6-5", "5-", "-5", "1,5", "5/6"])
def test_parse_place_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_place(text)


def test_blank_first_place_and_gaps_are_problems() -> None:
    places, problems = shared_places([None, WrittenPlace(3, 3)])
    assert places == [1.0, 3.0]
    assert [p.index for p in problems] == [0, 1]


def test_order_problems() -> None:
    problems = order_problems([1.0, 2.5, 2.5, 4.0], [60.0, 55.0, 54.0, 58.0])
    assert [p.index for p in problems] == [2, 3]
    assert order_problems([1.0, 2.0], [None, 70.0]) == []


# --- dates ----------------------------------------------------------------------------------

PL = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia",
      "września", "października", "listopada", "grudnia"]
SK = ["januára", "februára", "marca", "apríla", "mája", "júna", "júla", "augusta", "septembra",
      "októbra", "novembra", "decembra"]
CZ = ["ledna", "února", "března", "dubna", "května", "června", "července", "srpna", "září",
      "října", "listopadu", "prosince"]
EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
      "October", "November", "December"]

FORMS = [
    lambda d: d.isoformat(),
    lambda d: f"{d.day}.{d.month}.{d.year}",
    lambda d: f"{d.day:02}.{d.month:02}.{d.year} r.",
    lambda d: f"{d.day} {PL[d.month - 1]} {d.year}",
    lambda d: f"{d.day}. {SK[d.month - 1]} {d.year}",
    lambda d: f"{d.day}. {CZ[d.month - 1]} {d.year}",
    lambda d: f"{d.day} {EN[d.month - 1]} {d.year}",
    lambda d: f"{EN[d.month - 1]} {d.day}, {d.year}",
    lambda d: f"{d.day} {PL[d.month - 1].upper()} {d.year}",
]


@given(st.dates(dt.date(1950, 1, 1), dt.date(2099, 12, 31)), st.sampled_from(FORMS))
def test_every_written_form_reads_back(date: dt.date, form: Callable[[dt.date], str]) -> None:
    written = form(date)
    assert parse_date(written) == date
    found = find_date(f"Turniej Par - Kraków, {written}")
    assert found is not None and found.date == date


@pytest.mark.parametrize("text", ["31.2.2013", "2013", "8/8/2013", "8.8.13", "3 smarca 2013",
                                  "Runda 2013-1", ""])
def test_parse_date_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_date(text)


def test_strip_date_keeps_the_rest_of_the_line() -> None:
    line = "Warszawa - Polinezyjska, 8 sierpnia 2013"
    found = find_date(line)
    assert found is not None
    assert strip_date(line, found) == "Warszawa - Polinezyjska"


def test_find_date_never_invents_one() -> None:
    assert find_date("Punktacja długofalowa 2013") is None


# --- text -----------------------------------------------------------------------------------


def test_normalise_space() -> None:
    assert normalise_space("\xa0 INWIT  Pabianice\u200b\n") == "INWIT Pabianice"


@given(st.text(alphabet=st.sampled_from(list("ab é\xa0\t\n\r\u200b\xad\u2003\x0b\x85")) |
               st.characters(), max_size=30))
def test_normalise_space_fast_path_agrees_with_the_full_rule(text: str) -> None:
    """Text with nothing to collapse is only trimmed; the result is always the full rule's:
    invisible characters dropped, every run of whitespace one space, no space at the ends."""
    invisible = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\xad"))
    assert normalise_space(text) == " ".join(text.translate(invisible).split())


@pytest.mark.parametrize(("text", "value"), [
    ("  61.83", 61.83), ("56,43 %", 56.43), ("-12.5", -12.5), ("+3", 3.0), ("\u22124", -4.0),
    ("", None), ("\xa0", None),
])
def test_parse_decimal(text: str, value: float | None) -> None:
    assert parse_decimal(text) == value


@pytest.mark.parametrize("text", ["x", "1,234.5", "1.2.3", "nan", "inf", "1_000", "5%%"])
def test_parse_decimal_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_decimal(text)


def test_html_declared_charset() -> None:
    assert html_declared_charset(
        b'<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">'
    ) == "ISO-8859-2"
    assert html_declared_charset(b'<meta charset="utf-8">') == "utf-8"
    assert html_declared_charset(b"<html><body>charset=utf-8</body></html>") is None


SLOVAK = "Ľubomír Šťastný, Mária Ďurišová, Žilina"
POLISH = "Paweł Świątek, Źrebna Łąka"


@pytest.mark.parametrize(("data", "declared", "text", "method"), [
    (POLISH.encode("utf-8"), None, POLISH, "utf-8"),
    (b"\xef\xbb\xbf" + POLISH.encode("utf-8"), None, POLISH, "bom"),
    (POLISH.encode("cp1250"), "windows-1250", POLISH, "declared"),
    (POLISH.encode("iso-8859-2"), "iso-8859-2", POLISH, "declared"),
    (POLISH.encode("cp1250"), None, POLISH, "detected"),
    (POLISH.encode("iso-8859-2"), None, POLISH, "detected"),
    (SLOVAK.encode("cp1250"), None, SLOVAK, "detected"),
    (SLOVAK.encode("iso-8859-2"), None, SLOVAK, "detected"),
    (SLOVAK.encode("cp1250"), "iso-8859-2", SLOVAK, "detected"),  # mislabelled
    (SLOVAK.encode("utf-8"), "iso-8859-2", SLOVAK, "utf-8"),  # mislabelled
    (POLISH.encode("iso-8859-2"), "windows-1250", POLISH, "detected"),  # mislabelled
    (SLOVAK.encode("cp1250"), "no-such-charset", SLOVAK, "detected"),
])
def test_decode_bytes(data: bytes, declared: str | None, text: str, method: str) -> None:
    decoded = decode_bytes(data, declared)
    assert (decoded.text, decoded.method) == (text, method)
    assert bool(decoded.note) == (method in ("detected", "utf-8") and declared is not None
                                  or method == "detected")


@pytest.mark.parametrize(("text", "first", "last"), [
    ("5=", 5, 5), ("=5", 5, 5), (" 12 = ", 12, 12), ("5.-6.", 5, 6), ("5–6", 5, 6),
])
def test_parse_place_forms(text: str, first: int, last: int) -> None:
    place = parse_place(text)
    assert place is not None and (place.first, place.last) == (first, last)


@pytest.mark.parametrize("text", ["=", "5==6", "x", "0", "6-5"])
def test_parse_place_refuses_more(text: str) -> None:
    with pytest.raises(ValueError):
        parse_place(text)


def test_checked_places_reports_ties_and_contradicting_scores() -> None:
    from dataclasses import dataclass

    from parsers._issues import IssueLog
    from parsers._places import checked_places

    @dataclass(frozen=True)
    class Row:
        number: int
        place_text: str
        written: WrittenPlace | None
        score: float | None
        label: str

    rows = [Row(1, "1", parse_place("1"), 55.0, "4"), Row(2, "", None, 55.0, "7"),
            Row(3, "3", parse_place("3"), 60.0, "2")]
    log = IssueLog(file="x.html", strict=False)
    places = checked_places(rows, log, table="results", place_column="m-ce",
                            score_column="wynik", name=lambda r: f"pair {r.label}")
    assert places == [1.5, 1.5, 3.0]
    (issue,) = log.issues
    assert issue.message.startswith("pair 2: ")
    assert "row 3" in issue.where and "column wynik" in issue.where


@pytest.mark.parametrize("text,expected", [
    ("Rezultate 20 septembrie 2004", "2004-09-20"), ("3. März 2013", "2013-03-03"),
    ("12 juillet 2019", "2019-07-12"), ("5 maggio 2011", "2011-05-05"),
    ("Párosverseny 2013. október 3.", "2013-10-03"), ("2013.10.03.", "2013-10-03"),
    ("14 febrero 2015", "2015-02-14"),
])
def test_dates_in_more_languages_and_year_first(text: str, expected: str) -> None:
    found = find_date(text)
    assert found is not None and found.date.isoformat() == expected
