"""KoPS2www results pages: the acceptance facts of the real sample and each quirk."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import (
    FORMATS,
    InconsistentResult,
    MalformedFile,
    ParseError,
    ParseResult,
    detect_format,
)
from parsers import kops

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SAMPLE_PATH = FIXTURES / "kops" / "PCH1003_wyn.html"
SAMPLE = SAMPLE_PATH.read_bytes()
SAMPLE_TEXT = SAMPLE.decode("iso-8859-2")
TIE = (FIXTURES / "kops" / "tie-range-no-charset.html").read_bytes()


def _parse(text: str, *, strict: bool = False, name: str = "wyn.html") -> ParseResult:
    return kops.parse(text.encode("iso-8859-2"), source=f"/inbox/{name}", strict=strict)


def _row_place(text: str, place: int, written: str) -> str:
    cell = f"><td align=center>{place}</td><td align=center><a href="
    assert text.count(cell) == 1
    return text.replace(cell, f"><td align=center>{written}</td><td align=center><a href=")


@pytest.fixture(scope="module")
def sample() -> ParseResult:
    return kops.parse(SAMPLE, source=str(SAMPLE_PATH))


# --- acceptance facts of the real sample ----------------------------------------------------


def test_sample_event(sample: ParseResult) -> None:
    assert sample.format == "kops"
    assert len(sample.events) == 1
    event = sample.events[0]
    assert (event.game, event.kind, event.scoring) == ("bridge", "pairs", "MP")
    assert event.title == "Turniej 1 JESIENNY"
    assert event.date == dt.date(2011, 10, 3)
    assert event.organiser == "Chorzów"
    assert (event.section, event.boards, event.format) == ("", None, "kops")
    assert event.n_units == 44
    assert sample.issues == ()


def test_sample_winner_and_last(sample: ParseResult) -> None:
    units = sample.events[0].units
    winner = units[0]
    assert (winner.place, winner.place_text, winner.label, winner.score) == (1.0, "1", "30", 61.62)
    assert [(p.name, p.federation_id, p.club) for p in winner.players] == [
        ("Andrzej Sładki", "03499", None),
        ("Stanisław Adamczyk", "03029", None),
    ]
    last = units[-1]
    assert (last.place, last.label, last.score) == (44.0, "18", 35.32)
    assert [p.name for p in last.players] == ["Angelika Lechowska", "Edward Ciesielski"]


def test_sample_places_ids_and_names(sample: ParseResult) -> None:
    units = sample.events[0].units
    assert [u.place for u in units] == [float(i) for i in range(1, 45)]
    assert all(len(u.players) == 2 for u in units)
    # Ids as the page writes them: five digits with leading zeros (the link's r=3499 has none).
    assert all(p.federation_id and re.fullmatch(r"\d{5}", p.federation_id)
               for u in units for p in u.players)
    names = {p.name for u in units for p in u.players}
    assert {"Zdzisław Małek", "Krzysztof Śliwoń", "Andrzej Żuk", "Mirosław Białożyt",
            "Jerzy Radomsk.i"} <= names
    # Equal scores at different places (9th and 10th) are the file's own tie-break: no issue.
    assert units[8].score == units[9].score == 55.21
    assert (units[8].place, units[9].place) == (9.0, 10.0)


def test_registry_picks_kops() -> None:
    assert detect_format(SAMPLE, "wyn.html") is FORMATS["kops"]
    assert detect_format(TIE, "tie.html") is FORMATS["kops"]


# --- quirks ---------------------------------------------------------------------------------


def test_tie_range_without_charset(sample: ParseResult) -> None:
    result = kops.parse(TIE, source="tie-range-no-charset.html", strict=True)
    units = result.events[0].units
    assert len(units) == 12
    assert [(u.place, u.place_text) for u in units[7:11]] == [
        (8.0, "8"), (9.5, "9-10"), (9.5, "9-10"), (11.0, "11"),
    ]
    # Undeclared ISO-8859-2 reads to the same names as the declared sample.
    assert [u.players for u in units[:11]] == [u.players for u in sample.events[0].units[:11]]
    assert [(p.name, p.federation_id) for p in units[11].players] == [
        ("Janusz Pisarek", "03430"), ("Jerzy Radomsk.i", None),
    ]
    assert [i.level for i in result.issues] == ["info"]
    assert result.issues[0].message.startswith("no charset declared")


def test_empty_place_cell_ties_with_the_row_above() -> None:
    text = _row_place(SAMPLE_TEXT, 10, "&nbsp;")
    units = _parse(text, strict=True).events[0].units
    assert [(u.place, u.place_text) for u in units[8:11]] == [(9.5, "9"), (9.5, ""), (11.0, "11")]


def test_tie_with_different_scores_is_a_warning() -> None:
    text = _row_place(SAMPLE_TEXT, 2, "&nbsp;")
    result = _parse(text)
    assert [u.place for u in result.events[0].units[:3]] == [1.5, 1.5, 3.0]
    assert [i.level for i in result.issues] == ["warning"]
    assert result.issues[0].where == "file wyn.html, table results, row 2, column %"
    with pytest.raises(InconsistentResult) as caught:
        _parse(text, strict=True)
    assert caught.value.row == 2


def test_phantom_player_is_dropped_but_the_pair_keeps_its_place() -> None:
    text = SAMPLE_TEXT.replace("Irena Poziemba<br>Stanisław Gęga", "Irena Poziemba<br>ROBOT", 1)
    result = _parse(text)
    unit = result.events[0].units[39]
    assert (unit.place, unit.label) == (40.0, "1")
    assert [(p.name, p.federation_id) for p in unit.players] == [("Irena Poziemba", "03443")]
    assert [i.level for i in result.issues] == ["info"]


def test_id_lines_not_matching_players_is_a_warning() -> None:
    link = ("<br><a href=http://www.msc.com.pl/cezar/index.php?s=&mycl=0&p=21&r=3029 "
            "target=_CEZ>03029</a>")
    text = SAMPLE_TEXT.replace(link, "", 1)
    result = _parse(text)
    assert [(p.name, p.federation_id) for p in result.events[0].units[0].players] == [
        ("Andrzej Sładki", "03499"), ("Stanisław Adamczyk", None),
    ]
    assert result.issues[0].where == "file wyn.html, table results, row 1, column PZBS"
    with pytest.raises(MalformedFile):
        _parse(text, strict=True)


# --- errors ---------------------------------------------------------------------------------


def test_invalid_place_names_where() -> None:
    with pytest.raises(MalformedFile) as caught:
        _parse(_row_place(SAMPLE_TEXT, 3, "III"))
    error = caught.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "wyn.html", "results", 3, "miejsce", "III",
    )


def test_no_date_is_malformed() -> None:
    text = SAMPLE_TEXT.replace("<br>Chorzów, 3.10.2011 r.", "<br>Chorzów")
    with pytest.raises(MalformedFile, match="no event date"):
        _parse(text)


def test_invalid_score_is_left_empty_leniently() -> None:
    text = SAMPLE_TEXT.replace("<td align=center>60.91</td>", "<td align=center>?</td>", 1)
    result = _parse(text)
    assert result.events[0].units[1].score is None
    assert result.issues[0].where == "file wyn.html, table results, row 2, column %"
    with pytest.raises(MalformedFile):
        _parse(text, strict=True)


# --- detection ------------------------------------------------------------------------------


def test_detect() -> None:
    assert kops.detect(SAMPLE, "wyn.html")
    assert kops.detect(TIE)
    # Without the KoPS generator it is somebody else's page.
    assert not kops.detect(SAMPLE.replace(b"KoPS2www, JFR 2005", b"JFR 2005"))
    for path in [*(FIXTURES / "jfr_pary").glob("*.html"), *(FIXTURES / "jfr_teamy").glob("*.html")]:
        assert not kops.detect(path.read_bytes(), path.name), path.name


# --- robustness -----------------------------------------------------------------------------


@given(st.integers(0, len(TIE)), st.integers(0, 300), st.binary(max_size=20))
def test_damaged_pages_fail_only_with_parse_errors(start: int, cut: int, junk: bytes) -> None:
    data = TIE[:start] + junk + TIE[start + cut:]
    try:
        result = kops.parse(data, source="damaged.html")
    except ParseError as error:
        assert error.file == "damaged.html"
    else:
        assert result.events[0].n_units >= 1
