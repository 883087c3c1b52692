"""USEBIO XML: the real Compscore sample, the hand-made quirk cases, safety and error paths."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers import (
    FORMATS,
    InconsistentResult,
    MalformedFile,
    ParseError,
    ParseResult,
    UnsupportedVariant,
    detect_format,
)
from parsers import usebio

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
USEBIO = FIXTURES / "usebio"
SAMPLE = (USEBIO / "cobalt_mp_pairs_howell.xml").read_bytes()
MITCHELL = (USEBIO / "two-winner-mitchell-session-section.xml").read_bytes()
TEAMS = (USEBIO / "teams-vps-tied-places.xml").read_bytes()
INDIVIDUAL = (USEBIO / "individual-players-as-units.xml").read_bytes()


def _doc(participants: str, *, event_type: str = "MP_PAIRS", extra: str = "",
         date: str = "<DATE>05/09/2023</DATE>") -> bytes:
    """A small flat USEBIO document around ``participants`` (PAIR elements)."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<USEBIO Version="1.2">
<CLUB><CLUB_NAME>Test Club</CLUB_NAME></CLUB>
<EVENT EVENT_TYPE="{event_type}">
<EVENT_DESCRIPTION>Tuesday Pairs</EVENT_DESCRIPTION>
{date}
{extra}
<PARTICIPANTS>
{participants}
</PARTICIPANTS>
</EVENT>
</USEBIO>
""".encode()


def _pair(number: str, place: str, score: str, *names: str, direction: str = "") -> str:
    players = "".join(f"<PLAYER><PLAYER_NAME>{n}</PLAYER_NAME></PLAYER>" for n in names)
    return (f"<PAIR><PAIR_NUMBER>{number}</PAIR_NUMBER><DIRECTION>{direction}</DIRECTION>"
            f"<TOTAL_SCORE>{score}</TOTAL_SCORE><PLACE>{place}</PLACE>{players}</PAIR>")


def _parse(data: bytes, *, strict: bool = False) -> ParseResult:
    return usebio.parse(data, source="/inbox/test.xml", strict=strict)


# --- the real sample ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> ParseResult:
    return usebio.parse(SAMPLE, source=str(USEBIO / "cobalt_mp_pairs_howell.xml"), strict=True)


def test_sample_event(sample: ParseResult) -> None:
    assert sample.format == "usebio"
    (event,) = sample.events
    assert event.title == "EL Wed 10.00am Open (27-Jul-22)"
    assert event.date == dt.date(2022, 7, 27)
    assert event.organiser == "NSBC@Lindfield"
    assert event.kind == "pairs"
    assert event.scoring == "MP"
    assert event.boards == 27
    assert event.section == ""
    assert event.n_units == 12
    assert sample.issues == ()


def test_sample_sorted_by_place_with_percentages(sample: ParseResult) -> None:
    units = sample.events[0].units
    assert [u.place for u in units] == [float(p) for p in range(1, 13)]
    assert [u.label for u in units[:3]] == ["6", "7", "2"]
    assert units[0].score == 60.22
    assert units[-1].score == 37.85


def test_sample_winners_with_national_ids(sample: ParseResult) -> None:
    winner = sample.events[0].units[0]
    assert [p.name for p in winner.players] == ["ROSE BRAUDE", "SUE MCCORMACK"]
    assert [p.federation_id for p in winner.players] == ["870153", "922821"]
    assert all(p.club is None for p in winner.players)


def test_registry_picks_usebio() -> None:
    assert detect_format(SAMPLE, "mp_pairs_howell.xml").name == "usebio"
    assert FORMATS["usebio"].parse.__wrapped__ is usebio.parse  # served through the gate


# --- the quirk fixtures ---------------------------------------------------------------------


def test_two_winner_mitchell_nested_is_two_events() -> None:
    result = _parse(MITCHELL, strict=True)
    ns, ew = result.events
    assert (ns.section, ew.section) == ("A NS", "A EW")
    assert ns.boards == ew.boards == 4
    assert ns.date == dt.date(2024, 3, 14)
    assert ns.organiser == "Ripon Road Bridge Club"
    assert [u.place for u in ns.units] == [1.0, 2.5, 2.5, 4.0]
    assert [u.place_text for u in ns.units] == ["1", "2=", "2=", "4"]
    assert ns.units[3].players[0].federation_id == "077154"
    assert ns.units[3].players[1].name == "HILARY DEAN-SMITH"


def test_two_winner_mitchell_sorts_and_drops_the_unranked_phantom() -> None:
    result = _parse(MITCHELL)
    ew = result.events[1]
    assert [u.label for u in ew.units] == ["1", "3", "2"]
    assert ew.units[2].players[1].federation_id is None
    assert all("PHANTOM" not in p.name for u in ew.units for p in u.players)
    (issue,) = result.issues
    assert issue.level == "info"
    assert "phantom" in issue.message
    assert issue.where == ("file test.xml, table EVENT 1 SESSION 1 SECTION A, row 8, "
                           "column PLAYER_NAME")


def test_teams_with_vps_and_an_equals_tie() -> None:
    (event,) = _parse(TEAMS, strict=True).events
    assert (event.kind, event.scoring, event.boards) == ("teams", "VP", None)
    assert [u.label for u in event.units] == ["1", "3", "2", "4", "5"]
    assert [u.place for u in event.units] == [1.0, 2.0, 3.5, 3.5, 5.0]
    assert len(event.units[0].players) == 5
    assert event.units[2].players[3].federation_id is None
    assert event.units[1].players[2].federation_id == "093355"


def test_individual_players_are_the_units() -> None:
    result = _parse(INDIVIDUAL, strict=True)
    (event,) = result.events
    assert (event.kind, event.scoring) == ("individual", "MP")
    assert event.date == dt.date(2024, 1, 2)
    assert [u.place for u in event.units] == [1.0, 2.0, 3.5, 3.5, 5.5, 5.5, 7.0, 8.0]
    assert [len(u.players) for u in event.units] == [1] * 8
    names = [u.players[0].name for u in event.units]
    assert "Bernard Lefèvre" in names and "Françoise Oakley" in names
    assert event.units[0].players[0].federation_id == "155930"


# --- layouts and rules ----------------------------------------------------------------------


def test_flat_two_winner_compscore_style() -> None:
    pairs = "".join([
        _pair("1NS", "2", "12.00", "A ONE", "B ONE", direction="NS"),
        _pair("1EW", "1", "9.00", "C ONE", "D ONE", direction="EW"),
        _pair("2NS", "1", "20.00", "E TWO", "F TWO", direction="NS"),
        _pair("2EW", "2", "-9.00", "G TWO", "H TWO", direction="EW"),
    ])
    data = _doc(pairs, event_type="BUTLER_PAIRS", extra="<WINNER_TYPE>2</WINNER_TYPE>")
    ns, ew = _parse(data, strict=True).events
    assert (ns.section, ew.section) == ("NS", "EW")
    assert ns.scoring == ew.scoring == "IMP"
    assert [u.label for u in ns.units] == ["2NS", "1NS"]
    assert [u.score for u in ew.units] == [9.0, -9.0]


def test_two_first_places_without_winner_type_split_with_a_note() -> None:
    pairs = "".join([
        _pair("1", "1", "60", "A", "B", direction="NS"),
        _pair("2", "1", "55", "C", "D", direction="EW"),
    ])
    result = _parse(_doc(pairs), strict=True)
    assert [e.section for e in result.events] == ["NS", "EW"]
    assert [i.level for i in result.issues] == ["info"]


def test_one_winner_with_directions_stays_one_ranking() -> None:
    pairs = "".join([
        _pair("1", "1", "60", "A", "B", direction="NS"),
        _pair("2", "2", "55", "C", "D", direction="EW"),
    ])
    (event,) = _parse(_doc(pairs, extra="<WINNER_TYPE>1</WINNER_TYPE>"), strict=True).events
    assert event.section == ""
    assert event.n_units == 2


def test_ranked_phantom_keeps_its_place_without_players() -> None:
    pairs = _pair("1", "1", "60", "A", "B") + _pair("9", "2", "40", "PHANTOM", "PHANTOM")
    result = _parse(_doc(pairs))
    units = result.events[0].units
    assert units[1].place == 2.0 and units[1].players == ()
    assert result.issues[0].level == "info"


@pytest.mark.parametrize(("event_type", "kind", "scoring"), [
    ("MP_PAIRS", "pairs", "MP"), ("BUTLER_PAIRS", "pairs", "IMP"), ("CROSS_IMP", "pairs", "IMP"),
    ("SWISS_PAIRS", "pairs", "VP"), ("TEAMS", "teams", "IMP"), ("SWISS_TEAMS", "teams", "VP"),
])
def test_event_type_mapping(event_type: str, kind: str, scoring: str) -> None:
    (event,) = _parse(_doc(_pair("1", "1", "5", "A", "B"), event_type=event_type)).events
    assert (event.kind, event.scoring) == (kind, scoring)


def test_scoring_method_overrides_the_event_type() -> None:
    data = _doc(_pair("1", "1", "5", "A", "B"), event_type="SWISS_PAIRS",
                extra="<SCORING_METHOD>IMPS</SCORING_METHOD>")
    assert _parse(data).events[0].scoring == "IMP"


def test_no_places_anywhere_are_derived_from_scores() -> None:
    pairs = "".join(
        f"<PAIR><PAIR_NUMBER>{n}</PAIR_NUMBER><PERCENTAGE>{s}</PERCENTAGE>"
        f"<PLAYER><PLAYER_NAME>P{n}</PLAYER_NAME></PLAYER></PAIR>"
        for n, s in [("1", "48.0"), ("2", "55.5"), ("3", "48.0")]
    )
    result = _parse(_doc(pairs))
    units = result.events[0].units
    assert [u.label for u in units] == ["2", "1", "3"]
    assert [u.place for u in units] == [1.0, 2.5, 2.5]
    assert result.issues[0].level == "warning"
    with pytest.raises(MalformedFile):
        _parse(_doc(pairs), strict=True)


def test_place_contradicting_score_is_a_warning_and_strict_raises() -> None:
    pairs = _pair("1", "1", "40", "A", "B") + _pair("2", "2", "60", "C", "D")
    result = _parse(_doc(pairs))
    assert result.issues[0].level == "warning"
    assert "scores 60" in result.issues[0].message
    with pytest.raises(InconsistentResult) as info:
        _parse(_doc(pairs), strict=True)
    assert info.value.column == "PLACE"
    assert info.value.row == 2


# --- errors ---------------------------------------------------------------------------------


def test_unknown_event_type_is_unsupported() -> None:
    with pytest.raises(UnsupportedVariant) as info:
        _parse(_doc(_pair("1", "1", "5", "A", "B"), event_type="NOTSUP"))
    assert (info.value.file, info.value.table, info.value.column, info.value.value) == (
        "test.xml", "EVENT 1", "EVENT_TYPE", "NOTSUP")


def test_missing_date_is_malformed() -> None:
    with pytest.raises(MalformedFile) as info:
        _parse(_doc(_pair("1", "1", "5", "A", "B"), date=""))
    assert info.value.column == "DATE"


def test_invalid_date_names_the_value() -> None:
    with pytest.raises(MalformedFile) as info:
        _parse(_doc(_pair("1", "1", "5", "A", "B"), date="<DATE>31/02/2023</DATE>"))
    assert info.value.value == "31/02/2023"


def test_invalid_place_names_row_and_column() -> None:
    pairs = _pair("1", "1", "5", "A", "B") + _pair("2", "second", "4", "C", "D")
    with pytest.raises(MalformedFile) as info:
        _parse(_doc(pairs))
    assert (info.value.table, info.value.row, info.value.column, info.value.value) == (
        "EVENT 1", 2, "PLACE", "second")


def test_not_xml_is_malformed() -> None:
    with pytest.raises(MalformedFile) as info:
        _parse(b"<USEBIO Version='1.2'><EVENT></USEBIO>")
    assert info.value.row is not None


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>&lol3;</EVENT_DESCRIPTION>
</EVENT></USEBIO>
"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>&secret;</EVENT_DESCRIPTION>
</EVENT></USEBIO>
"""


@pytest.mark.parametrize("document", [BILLION_LAUGHS, EXTERNAL_ENTITY],
                         ids=["billion-laughs", "external-entity"])
def test_entities_are_refused_not_expanded(document: bytes) -> None:
    assert usebio.detect(document)
    with pytest.raises(ParseError) as info:
        _parse(document)
    assert isinstance(info.value, MalformedFile)
    assert "entity" in str(info.value).lower()


def test_doctype_with_a_system_dtd_is_not_fetched_but_allowed() -> None:
    assert b"<!DOCTYPE USEBIO SYSTEM" in SAMPLE
    assert _parse(SAMPLE).events


# --- detection and robustness ---------------------------------------------------------------


def test_detect() -> None:
    for data in (SAMPLE, MITCHELL, TEAMS, INDIVIDUAL):
        assert usebio.detect(data)
    assert not usebio.detect(b"<html><body><table></table></body></html>")
    assert not usebio.detect(b"% PBN 2.1\n[Event \"x\"]\n")
    assert not usebio.detect(b"organiser,event,date\n")
    assert not usebio.detect((FIXTURES / "jfr_pary" / "W-wb130808.html").read_bytes())


_FIXTURE_BYTES = [SAMPLE[:6000] + b"</PARTICIPANTS></EVENT></USEBIO>", MITCHELL, TEAMS,
                  INDIVIDUAL]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_FIXTURE_BYTES), st.integers(min_value=0), st.integers(0, 255),
       st.booleans())
def test_truncations_and_byte_flips_only_raise_parse_errors(
    data: bytes, position: int, byte: int, truncate: bool,
) -> None:
    position %= len(data)
    mutated = data[:position] if truncate else data[:position] + bytes([byte]) + data[position + 1:]
    try:
        result = usebio.parse(mutated, source="mutated.xml")
    except ParseError:
        return
    assert isinstance(result, ParseResult)


# --- variants as scoring programs write them ------------------------------------------------

_FIELD = "".join(_pair(str(n), str(n), str(s), f"Ann Smith{c}", f"Bob Jones{c}")
                 for n, s, c in ((1, 60, "a"), (2, 55, "b"), (3, 48, "c"), (4, 40, "d")))
_IMP_FIELD = "".join(_pair(str(n), str(n), str(s), f"Ann Smith{c}", f"Bob Jones{c}")
                     for n, s, c in ((1, 31, "a"), (2, 4, "b"), (3, -12, "c"), (4, -23, "d")))


@pytest.mark.parametrize("event_type,extra,participants,scoring", [
    ("PAIRS", "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>", _FIELD, "MP"),
    ("PAIRS", "<BOARD_SCORING_METHOD>BUTLER_IMPS</BOARD_SCORING_METHOD>", _IMP_FIELD, "IMP"),
    ("PAIRS", "<SCORING_METHOD>CROSS_IMPS</SCORING_METHOD>", _IMP_FIELD, "IMP"),
    ("PAIRS", "", _IMP_FIELD, "IMP"),  # no method: totals going negative are IMPs
    ("PAIRS", "", _FIELD.replace("<TOTAL_SCORE>", "<PERCENTAGE>55</PERCENTAGE><TOTAL_SCORE>"),
     "MP"),
    ("SWISS_PAIRS", "", _FIELD, "VP"),
    ("BAM_TEAMS", "", _FIELD.replace("PAIR", "TEAM"), "BAM"),
    ("TEAMS", "<SCORING_METHOD>BAM</SCORING_METHOD>", _FIELD.replace("PAIR", "TEAM"), "BAM"),
])
def test_the_scoring_of_an_event_type_that_does_not_name_it(
        event_type: str, extra: str, participants: str, scoring: str) -> None:
    (event,) = _parse(_doc(participants, event_type=event_type, extra=extra)).events
    assert event.scoring == scoring
    assert [u.place for u in event.units] == [1.0, 2.0, 3.0, 4.0]


def _sessions(body: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<USEBIO Version="1.2"><CLUB><CLUB_NAME>Test Club</CLUB_NAME></CLUB>
<EVENT EVENT_TYPE="PAIRS"><EVENT_DESCRIPTION>Monday Pairs</EVENT_DESCRIPTION>
<DATE>05/09/2023</DATE>{body}</EVENT></USEBIO>""".encode()


def test_participants_directly_under_a_session() -> None:
    data = _sessions(f"<SESSION><SESSION_NUMBER>1</SESSION_NUMBER><PARTICIPANTS>{_FIELD}"
                     "</PARTICIPANTS></SESSION>")
    (event,) = _parse(data).events
    assert event.section == "" and len(event.units) == 4


def test_sections_ranked_as_one_field_are_one_event() -> None:
    a = "".join(_pair(str(n), str(p), str(s), f"Ann Smith{n}a", f"Bob Jones{n}a")
                for n, p, s in ((1, 1, 62), (2, 4, 51), (3, 5, 45)))
    b = "".join(_pair(str(n), str(p), str(s), f"Cyd Brown{n}b", f"Dan Green{n}b")
                for n, p, s in ((1, 2, 58), (2, 3, 55), (3, 6, 40)))
    data = _sessions(f"<SESSION><SECTION SECTION_ID='A'><PARTICIPANTS>{a}</PARTICIPANTS>"
                     f"</SECTION><SECTION SECTION_ID='B'><PARTICIPANTS>{b}</PARTICIPANTS>"
                     "</SECTION></SESSION>")
    result = _parse(data)
    (event,) = result.events
    assert [u.place for u in event.units] == [1, 2, 3, 4, 5, 6]
    assert any("one ranking" in i.message for i in result.issues)


def test_sections_ranked_on_their_own_stay_apart() -> None:
    a = "".join(_pair(str(n), str(n), str(60 - n), f"Ann Smith{n}a", f"Bob Jones{n}a")
                for n in (1, 2, 3))
    b = "".join(_pair(str(n), str(n), str(60 - n), f"Cyd Brown{n}b", f"Dan Green{n}b")
                for n in (1, 2, 3))
    data = _sessions(f"<SESSION><SECTION SECTION_ID='A'><PARTICIPANTS>{a}</PARTICIPANTS>"
                     f"</SECTION><SECTION SECTION_ID='B'><PARTICIPANTS>{b}</PARTICIPANTS>"
                     "</SECTION></SESSION>")
    assert [e.section for e in _parse(data).events] == ["A", "B"]


def test_phantom_and_sit_out_pairs_are_no_players() -> None:
    field = _FIELD + _pair("5", "", "", "PHANTOM", "PHANTOM") + _pair("6", "", "", "Sit out")
    (event,) = _parse(_doc(field, event_type="PAIRS")).events
    names = [p.name for u in event.units for p in u.players]
    assert len(event.units) == 4 and not any("PHANTOM" in n or "Sit" in n for n in names)


# --- real variants: teams of pairs, sections under the event, fields across sections ---------

REAL = FIXTURES / "real" / "usebio"


def _real(name: str) -> ParseResult:
    folder = USEBIO if name.startswith("nz-scorer") else REAL  # anonymised: no golden
    return usebio.parse((folder / name).read_bytes(), source=name)


def test_teamsscorer_teams_hold_their_pairs_players() -> None:
    result = _real("teamsscorer-teams-pairs-inside-teams-vps.xml")
    (event,) = result.events
    assert event.kind == "teams" and event.scoring == "VP"
    assert len(event.units) == 10
    assert all(len(u.players) == 4 for u in event.units)
    assert event.units[0].label == "10" and event.units[0].score == 119.0
    assert event.units[0].players[0].name == "Barbara Slutworth"
    assert event.units[0].players[0].federation_id == "800037"
    assert [u.place_text for u in event.units if u.place_text == "7="] == ["7=", "7="]
    assert event.boards == 24  # BOARDS_PLAYED as written, not the 30 boards with travellers


def test_ebuscoreteams_point_a_board_is_bam() -> None:
    (event,) = _real("ebuscoreteams-point-a-board-pab.xml").events
    assert event.kind == "teams" and event.scoring == "BAM"
    assert [u.place for u in event.units] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert all(len(u.players) == 4 for u in event.units)


def test_a_member_in_two_pairs_of_a_team_is_one_player() -> None:
    team = ("<TEAM TEAM_ID='{n}'><PLACE>{n}</PLACE><TOTAL_SCORE>{s}</TOTAL_SCORE>"
            "<PAIR><PLAYER><PLAYER_NAME>Ann Smith{n}</PLAYER_NAME></PLAYER>"
            "<PLAYER><PLAYER_NAME>Bob Jones{n}</PLAYER_NAME></PLAYER></PAIR>"
            "<PAIR><PLAYER><PLAYER_NAME>Ann Smith{n}</PLAYER_NAME></PLAYER>"
            "<PLAYER><PLAYER_NAME>Cyd Brown{n}</PLAYER_NAME></PLAYER></PAIR></TEAM>")
    data = _doc(team.format(n=1, s=40) + team.format(n=2, s=20), event_type="TEAMS")
    (event,) = _parse(data).events
    assert [[p.name for p in u.players] for u in event.units] == [
        ["Ann Smith1", "Bob Jones1", "Cyd Brown1"], ["Ann Smith2", "Bob Jones2", "Cyd Brown2"]]
    assert [u.label for u in event.units] == ["1", "2"]


def test_match_scoring_method_wins_over_board_scoring_method() -> None:
    extra = ("<BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD>"
             "<MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>")
    (event,) = _parse(_doc(_FIELD.replace("PAIR", "TEAM"), event_type="TEAMS",
                           extra=extra)).events
    assert event.scoring == "VP"


def test_an_unknown_method_gives_way_to_a_known_one() -> None:
    extra = ("<SCORING_METHOD>SOMETHING_ELSE</SCORING_METHOD>"
             "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>")
    (event,) = _parse(_doc(_FIELD, event_type="PAIRS", extra=extra)).events
    assert event.scoring == "MP"


def test_nz_scorer_sections_directly_under_the_event() -> None:
    result = _real("nz-scorer-sections-under-event-anonymised.xml")
    (event,) = result.events  # places 1-66 run across the three sections: one field
    assert len(event.units) == 66 and event.section == ""
    assert event.units[0].label == "(A) 5 NS" and event.units[0].score == 65.32
    assert event.boards == 26 and event.scoring == "MP"
    assert any("3 sections" in i.message for i in result.issues)


def test_nz_scorer_flat_event_with_a_tie_written_as_one_place_twice() -> None:
    (event,) = _real("nz-scorer-three-quarter-howell-anonymised.xml").events
    assert len(event.units) == 11 and event.section == ""
    assert [u.place_text for u in event.units][6:10] == ["7", "8", "8", "10"]
    assert [u.place for u in event.units][6:10] == [7, 8.5, 8.5, 10]


def test_anonymised_nz_files_are_refused_by_the_gate_not_the_reader() -> None:
    name = "nz-scorer-sections-under-event-anonymised.xml"
    with pytest.raises(ParseError, match="has digits"):
        FORMATS["usebio"].parse((USEBIO / name).read_bytes(), source=name)


def test_two_winner_sections_whose_places_run_across_the_field() -> None:
    result = _real("pairsscorer-two-sections-two-winners-places-across-field.xml")
    assert [(e.section, len(e.units)) for e in result.events] == [("NS", 16), ("EW", 16)]
    for event in result.events:
        assert [u.place for u in event.units] == list(range(1, 17))


def test_a_handicap_event_is_not_checked_against_the_raw_scores() -> None:
    field = "".join(
        _pair(str(n), str(p), str(s), f"Ann Smith{n}", f"Bob Jones{n}").replace(
            "</PAIR>", f"<HANDICAP>{h}</HANDICAP></PAIR>")
        for n, p, s, h in ((1, 1, 50, 6), (2, 2, 55, -4), (3, 3, 45, 0)))
    result = _parse(_doc(field, event_type="PAIRS"), strict=False)
    (event,) = result.events
    assert [u.score for u in event.units] == [50, 55, 45]
    assert [i.level for i in result.issues if "HANDICAP" in i.where] == ["info"]
    assert not [i for i in result.issues if i.level == "warning"]


# --- what other programs may write ------------------------------------------------------------


def test_no_event_type_takes_the_kind_from_the_units() -> None:
    data = _doc(_FIELD, extra="<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>"
                ).replace(b' EVENT_TYPE="MP_PAIRS"', b"")
    result = _parse(data)
    (event,) = result.events
    assert (event.kind, event.scoring) == ("pairs", "MP")
    assert any("no EVENT_TYPE" in i.message for i in result.issues)


@pytest.mark.parametrize("method,scoring", [
    ("IMPS_ACROSS_THE_FIELD", "IMP"), ("IMPS TO VPS", "VP"), ("Neuberg percentage", "MP"),
    ("BOARD-A-MATCH", "BAM"),
])
def test_a_scoring_method_is_known_by_its_words(method: str, scoring: str) -> None:
    extra = f"<SCORING_METHOD>{method}</SCORING_METHOD>"
    (event,) = _parse(_doc(_IMP_FIELD, event_type="PAIRS", extra=extra)).events
    assert event.scoring == scoring


@pytest.mark.parametrize("written,date", [
    ("5/12/15", dt.date(2015, 12, 5)), ("05.12.2015", dt.date(2015, 12, 5)),
    ("2015-12-05", dt.date(2015, 12, 5)),
])
def test_dates_as_other_programs_write_them(written: str, date: dt.date) -> None:
    (event,) = _parse(_doc(_FIELD, date=f"<DATE>{written}</DATE>")).events
    assert event.date == date


def test_a_file_declared_utf8_but_written_in_windows_1252() -> None:
    field = _FIELD.replace("Ann Smitha", "Renée Café")
    data = _doc(field).decode("utf-8").encode("cp1252")
    result = _parse(data)
    assert result.events[0].units[0].players[0].name == "Renée Café"
    assert any("Windows-1252" in i.message for i in result.issues)
