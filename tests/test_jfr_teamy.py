"""JFR Teamy leaderboard pages: the key facts of each fixture, errors and detection."""

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
from parsers import jfr_teamy

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FINAL_PATH = FIXTURES / "jfr_teamy" / "final-members-linked.html"
FINAL = FINAL_PATH.read_bytes()
FINAL_TEXT = FINAL.decode("utf-8")
TIE_PATH = FIXTURES / "jfr_teamy" / "tie-guest-iso-8859-2.html"
TIE = TIE_PATH.read_bytes()


def _parse(text: str, *, strict: bool = False) -> ParseResult:
    return jfr_teamy.parse(text.encode("utf-8"), source="/inbox/leaderb.html", strict=strict)


def _drop_member(text: str, name: str) -> str:
    """The page without ``name``'s line in the members cell."""
    end = text.index(f">{name}</a>") + len(f">{name}</a>")
    start = text.rindex("<a href=", 0, end)
    if text[start - 4:start] == "<br>":
        start -= 4
    return text[:start] + text[end:]


@pytest.fixture(scope="module")
def final() -> ParseResult:
    return jfr_teamy.parse(FINAL, source=str(FINAL_PATH))


def test_final_event(final: ParseResult) -> None:
    assert final.format == "jfr_teamy"
    (event,) = final.events
    assert (event.game, event.kind, event.scoring) == ("bridge", "teams", "VP")
    assert event.title == "Drużynowe Mistrzostwa Mazowsza - II liga"
    assert event.date == dt.date(2013, 10, 20)
    assert event.organiser == "Warszawa - Polinezyjska"
    assert (event.section, event.boards, event.format) == ("", None, "jfr_teamy")
    assert event.n_units == 8
    assert final.issues == ()


def test_final_ranking_and_members(final: ParseResult) -> None:
    units = final.events[0].units
    assert [u.place for u in units] == [float(i) for i in range(1, 9)]
    assert units[0].label == "SPÓJNIA II Warszawa"
    assert units[0].score == 98.47
    assert [u.score for u in units][-1] == 46.34
    assert sum(u.score for u in units if u.score is not None) == pytest.approx(560.0)
    assert [len(u.players) for u in units] == [6, 4, 5, 4, 4, 5, 4, 4]
    assert [(p.name, p.federation_id, p.club) for p in units[0].players[:2]] == [
        ("Irena Chodorowska", "06542", None), ("Jan Chodorowski", "06543", None),
    ]
    assert all(p.federation_id for u in units for p in u.players)
    assert units[6].players[1].name == "Adam Żelazny"


def test_tie_guest_and_pkt_column() -> None:
    result = jfr_teamy.parse(TIE, source=TIE_PATH.name, strict=True)
    (event,) = result.events
    assert event.date == dt.date(2013, 12, 8)
    assert event.title == "Turniej Teamów o Puchar Prezesa"
    assert event.organiser == "Kielce"
    units = event.units
    assert [(u.place, u.place_text) for u in units] == [
        (1.0, "1"), (2.0, "2"), (3.5, "3"), (3.5, ""), (5.0, "5"), (6.0, "6"),
    ]
    # The score is the PKT total, not the IMP balance beside it.
    assert [u.score for u in units] == [71.2, 60.35, 52.0, 52.0, 39.61, 24.84]
    assert [len(u.players) for u in units] == [4, 5, 6, 4, 7, 4]
    guest = units[4].players[5]
    assert (guest.name, guest.federation_id) == ("Jan de Vries", None)
    assert units[0].players[0].name == "Andrzej Sładki"  # ISO-8859-2 decoded
    assert units[0].label == "Hetman Chorzów"
    assert result.issues == ()


def test_registry_picks_jfr_teamy() -> None:
    assert detect_format(FINAL, FINAL_PATH.name) is FORMATS["jfr_teamy"]
    assert detect_format(TIE, TIE_PATH.name) is FORMATS["jfr_teamy"]


# --- variants -------------------------------------------------------------------------------


def test_members_under_the_team_name_without_a_members_column() -> None:
    text = FINAL_TEXT.replace('<td class="c">skład</td>', "")
    text = text.replace('</a></td><td class="l"><a href="http://www.msc',
                        '</a><br><a href="http://www.msc')
    units = _parse(text, strict=True).events[0].units
    assert units[0].label == "SPÓJNIA II Warszawa"
    assert [len(u.players) for u in units] == [6, 4, 5, 4, 4, 5, 4, 4]


def test_leaderboard_without_members() -> None:
    text = FINAL_TEXT.replace('<td class="c">skład</td>', "")
    text = re.sub(r'<td class="l"><a href="http://www\.msc.*?</td>', "", text)
    result = _parse(text, strict=True)
    assert all(u.players == () for u in result.events[0].units)
    assert [i.level for i in result.issues] == ["info"]
    assert "no team members" in result.issues[0].message


def test_team_with_three_members_is_a_warning() -> None:
    text = _drop_member(FINAL_TEXT, "Marek Lenart")
    result = _parse(text)
    assert [len(u.players) for u in result.events[0].units][3] == 3
    assert [(i.level, i.where) for i in result.issues] == [
        ("warning", "file leaderb.html, table results, row 4, column skład"),
    ]
    assert "K2 - Oldersi Raszyn lists 3 members, not 4-8" in result.issues[0].message
    with pytest.raises(MalformedFile):
        _parse(text, strict=True)


def test_pauza_is_not_a_player() -> None:
    text = FINAL_TEXT.replace(">Tomasz Paluchowski</a>", ">pauza</a>", 1)
    result = _parse(text)
    assert [p.name for p in result.events[0].units[-1].players] == [
        "Edward Krusiewicz", "Halina Borewicz", "Zygmunt Kuczyński",
    ]
    assert [i.level for i in result.issues] == ["info"]


def test_scores_contradicting_places_is_a_warning() -> None:
    text = FINAL_TEXT.replace("  66.03<", "  99.00<", 1)
    result = _parse(text)
    assert [i.level for i in result.issues] == ["warning"]
    assert "team KBS Legionowianin: place 5 scores 99" in result.issues[0].message
    with pytest.raises(InconsistentResult) as caught:
        _parse(text, strict=True)
    assert (caught.value.row, caught.value.column) == (5, "VP")


# --- errors ---------------------------------------------------------------------------------


def test_invalid_place_names_where() -> None:
    text = FINAL_TEXT.replace('<td class="c">3</td><td class="c">1</td>',
                              '<td class="c">trzecie</td><td class="c">1</td>', 1)
    with pytest.raises(MalformedFile) as caught:
        _parse(text)
    error = caught.value
    assert (error.file, error.table, error.row, error.column, error.value) == (
        "leaderb.html", "results", 3, "m-ce", "trzecie",
    )


def test_no_date_anywhere_is_malformed() -> None:
    text = FINAL_TEXT.replace(", 20 października 2013", "").replace(
        ", strona wygenerowana 2013-10-20 o 19:02:11", "").replace(" - 20 października 2013", "")
    with pytest.raises(MalformedFile, match="no event date"):
        _parse(text)


# --- detection ------------------------------------------------------------------------------


def test_detect() -> None:
    assert jfr_teamy.detect(FINAL) and jfr_teamy.detect(TIE)
    # Only the footer says JFR.
    assert jfr_teamy.detect(FINAL.replace(b'<meta name="GENERATOR" content="JFR 2005">', b""))
    # No VP column: not a leaderboard, but a Teamy page: claimed, then refused with the reason.
    no_vp = FINAL.replace(b">VP<", b">IMP<")
    assert jfr_teamy.detect(no_vp)
    with pytest.raises(ParseError):
        jfr_teamy.parse(no_vp, source="leaderb.html")
    assert not jfr_teamy.detect(FINAL.replace(b">VP<", b">IMP<").replace(b"Teamy.", b"Tmy."))
    for folder in ("jfr_pary", "kops"):
        for path in (FIXTURES / folder).glob("*.html"):
            assert not jfr_teamy.detect(path.read_bytes(), path.name), path.name


# --- robustness -----------------------------------------------------------------------------


@given(st.sampled_from([FINAL, TIE]), st.integers(0, 7000), st.integers(0, 300),
       st.binary(max_size=20))
def test_damaged_pages_fail_only_with_parse_errors(
    page: bytes, start: int, cut: int, junk: bytes,
) -> None:
    data = page[:start] + junk + page[start + cut:]
    try:
        result = jfr_teamy.parse(data, source="damaged.html")
    except ParseError as error:
        assert error.file == "damaged.html"
    else:
        assert result.events[0].n_units >= 1
