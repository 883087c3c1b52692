"""The plausibility gate (parsers/_gate.py): junk shapes are refused, real results pass."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers import FORMATS, Event, ParseResult, PlayerAsWritten, Unit, parse_bytes
from parsers._gate import ImplausibleResult, check, filler_reason, junk_reason

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _pair(*names: str) -> tuple[PlayerAsWritten, ...]:
    return tuple(PlayerAsWritten(n) for n in names)


def _event(units: list[Unit], *, kind: str = "pairs", fmt: str = "html_tables",
           **fields: object) -> Event:
    base = dict(game="bridge", title="Club pairs", date=dt.date(2013, 10, 3), kind=kind,
                scoring="MP", units=tuple(units), boards=24, format=fmt)
    base.update(fields)
    return Event(**base)  # type: ignore[arg-type]


def _good_units(n: int = 4) -> list[Unit]:
    names = [("Ján Novák", "Peter Kováč"), ("Eva Malá", "Zuzana Krajčírová"),
             ("Irena Chodorowska", "Marek Wójcik"), ("John Gibberd", "Anne O'Brien"),
             ("Jean-Luc Petit", "Hans van der Berg"), ("Piotr Zieliński", "Ágnes Kovács")]
    return [Unit(float(i + 1), str(i + 1), str(10 + i), 60.0 - i, _pair(*names[i]))
            for i in range(n)]


def _result(*events: Event) -> ParseResult:
    return ParseResult("html_tables", tuple(events))


def _with_name(name: str, *, unit: int = 1, slot: int = 0, **ev: object) -> ParseResult:
    units = _good_units()
    players = list(units[unit].players)
    players[slot] = PlayerAsWritten(name)
    units[unit] = dataclasses.replace(units[unit], players=tuple(players))
    return _result(_event(units, **ev))


def test_a_plausible_result_passes_unchanged() -> None:
    result = _result(_event(_good_units()))
    assert check(result, file="x.html") is result


JUNK_NAMES = [
    "N-S", "EW", "E-W", "N/S", "North", "ns", "NS 1", "1-Alfa-Bravo", "2-Echo-Foxtrot",
    "12 Novák", "3. Kováč", "7", "112", "0", "AKQ84", "KJ10", "Q9x", "♠AKQ ♥J42", "&spades;AK",
    "3NT=", "4S+1", "6♥X", "2NTxx-2", "Pass", "Dbl", "All pass", "Name", "Pair", "Names",
    "Score", "Contract", "szczegóły", "Miejsce", "Wynik", "Meno", "Hráč", "Név", "Spieler",
    "Player 1", "Section A", "Table 12", "Novák - Kováč", "Novák/Kováč", "Smith & Jones",
    "Jan i Ewa", "Jana a Peter", "www.bridge.pl", "<b>Novák</b>", "<script>alert(1)</script>", "Average", "Top", "S-J", "Novák\x00", "Nov\ufffdk", "A" * 101, "Ján2 Novák", "%", "+", "1234567",
]


@pytest.mark.parametrize("name", JUNK_NAMES)
def test_junk_names_are_refused(name: str) -> None:
    with pytest.raises(ImplausibleResult) as raised:
        check(_with_name(name), file="junk.html")
    message = str(raised.value)
    assert "junk.html" in message and "event 1 'Club pairs'" in message
    assert "unit 2" in message and "player 1" in message


FILLERS = ["PHANTOM", "Phantom pair", "Sit out", "sit-out", "Bye", "BYE", "Director", "TD",
           "~~M1234", "~~robot", "Robot", "GIB", "Vacant", "N.N.", "?", "-", "Pauza", "Wolny",
           "unknown", "Fantom"]


@pytest.mark.parametrize("name", FILLERS)
def test_seat_fillers_are_taken_out_never_players(name: str) -> None:
    result = check(_with_name(name), file="x.html")
    players = [p.name for u in result.events[0].units for p in u.players]
    assert name not in players and len(players) == 7
    assert any("not a player" in i.message and i.level == "info" for i in result.issues)


def test_a_reader_marks_user_names_of_any_platform() -> None:
    units = _good_units()
    units[0] = dataclasses.replace(units[0], players=(PlayerAsWritten("okb_user7", handle=True),
                                                      PlayerAsWritten("kibic 2", handle=True)))
    check(_result(_event(units, fmt="pbn")), file="x.pbn")
    units[0] = dataclasses.replace(units[0], players=(PlayerAsWritten("okb_user7"),
                                                      PlayerAsWritten("kibic 2")))
    _refused(_result(_event(units, fmt="pbn")), "digits")


def test_a_human_with_a_robot_partner_is_still_a_pair() -> None:
    units = [dataclasses.replace(u, players=(u.players[0], PlayerAsWritten("~~M1")))
             for u in _good_units()]
    result = check(_result(_event(units, fmt="bbo")), file="x.html")
    assert [len(u.players) for u in result.events[0].units] == [1, 1, 1, 1]


def test_a_unit_of_fillers_keeps_its_place_but_two_units_must_hold_players() -> None:
    units = _good_units(3)
    units[2] = dataclasses.replace(units[2], players=_pair("Phantom", "Phantom"))
    result = check(_result(_event(units)), file="x.html")
    assert [len(u.players) for u in result.events[0].units] == [2, 2, 0]
    units[1] = dataclasses.replace(units[1], players=_pair("Bye", "Bye"))
    with pytest.raises(ImplausibleResult, match="fewer than two ranked units"):
        check(_result(_event(units)), file="x.html")


@pytest.mark.parametrize("name", ["alice77", "22erko", "3333om9", "834529648", "theo1961",
                                  "hulk 4", "KAJTEK 1", "Babs 1998", "49J49", "110_1",
                                  "Jana Nováková"])
def test_user_names_of_an_online_platform_pass(name: str) -> None:
    check(_with_name(name, fmt="bbo"), file="x.html")


@pytest.mark.parametrize("name", ["1", "32", "N-S", "1-Alfa-Bravo", "3NT=", "Pass", "♠AKJ2"])
def test_user_name_platforms_still_refuse_junk(name: str) -> None:
    with pytest.raises(ImplausibleResult):
        check(_with_name(name, fmt="bbo"), file="x.html")


@pytest.mark.parametrize("name", [
    "Jana Nováková", "NOVAK J.", "Novák J.", "GIBBERD", "O'Brien", "Anne-Marie Dupont-Lefèvre",
    "van der Berg Hans", "Jan Novák ml.", "Ing. Peter Kováč, PhD.", "Novák (1234)",
    "Wójcik Marek [SK]", "RUTH MCCONNELL 2", "Иван Петров", "Ζήσης", "Łukasz Żółć", "Kim Yu-na", "Ng", "Xu Li",
    "Ken A Smith", "Mary I Jones",
])
def test_real_names_pass(name: str) -> None:
    check(_with_name(name), file="x.html")


def test_a_club_name_is_not_a_player() -> None:
    _refused(_with_name("BK Senec", organiser="BK Senec"), "name of a club")


def test_placeholder_federation_ids_are_not_duplicates() -> None:
    units = _good_units()
    units[0] = dataclasses.replace(units[0], players=(PlayerAsWritten("A B", "0"),
                                                      PlayerAsWritten("C D", "0")))
    check(_result(_event(units)))


def test_initials_pass() -> None:
    units = _good_units()
    units[0] = dataclasses.replace(units[0], players=(PlayerAsWritten("JNo", initials=True),
                                                      PlayerAsWritten("PK", initials=True)))
    check(_result(_event(units)), file="x.html")


def _refused(result: ParseResult, match: str) -> None:
    with pytest.raises(ImplausibleResult, match=match):
        check(result, file="x.html")


def test_an_event_with_fewer_than_two_units_is_refused() -> None:
    _refused(_result(_event(_good_units(1))), "fewer than two ranked units")


def test_a_file_without_events_is_refused() -> None:
    _refused(_result(), "no event with results")


@pytest.mark.parametrize("place", [0.0, -1.0, 5.0, 1e6, math.nan, math.inf])
def test_places_outside_the_field_are_refused(place: float) -> None:
    units = _good_units()
    units[3] = dataclasses.replace(units[3], place=place)
    with pytest.raises(ImplausibleResult) as raised:
        check(_result(_event(units)), file="x.html")
    assert "place" in str(raised.value)


@pytest.mark.parametrize("score", [math.nan, math.inf, -math.inf])
def test_non_finite_scores_are_refused(score: float) -> None:
    units = _good_units()
    units[0] = dataclasses.replace(units[0], score=score)
    _refused(_result(_event(units)), "score is not a finite number")


def test_places_from_row_order_alone_are_refused() -> None:
    units = [dataclasses.replace(u, score=None, place_text="") for u in _good_units()]
    _refused(_result(_event(units)), "order of the rows")
    # a written place, or a score, is a witness
    check(_result(_event([dataclasses.replace(u, score=None) for u in _good_units()])))
    check(_result(_event([dataclasses.replace(u, place_text="") for u in _good_units()])))


def test_places_from_row_order_must_follow_the_scores() -> None:
    units = [dataclasses.replace(u, place_text="") for u in _good_units()]
    units[1], units[2] = (dataclasses.replace(units[1], score=40.0),
                          dataclasses.replace(units[2], score=55.0))
    _refused(_result(_event(units)), "do not follow the scores")
    written = [dataclasses.replace(u, place_text=str(int(u.place or 0))) for u in units]
    check(_result(_event(written)))  # a written place stands on its own


def test_a_pairs_event_of_single_players_is_refused() -> None:
    units = [dataclasses.replace(u, players=u.players[:1]) for u in _good_units()]
    _refused(_result(_event(units)), "pairs event whose units are mostly not two players")
    check(_result(_event(units, kind="individual")))


def test_a_teams_event_of_one_name_per_team_is_refused() -> None:
    units = [dataclasses.replace(u, players=u.players[:1]) for u in _good_units()]
    _refused(_result(_event(units, kind="teams")), "teams event")


def test_the_same_player_twice_in_one_event_is_refused() -> None:
    units = _good_units()
    units[2] = dataclasses.replace(units[2], players=_pair("Ján Novák", "Marek Wójcik"))
    _refused(_result(_event(units)), "same player twice")
    units = _good_units()
    units[0] = dataclasses.replace(units[0], players=(PlayerAsWritten("A B", "77"),
                                                      PlayerAsWritten("C D", "77")))
    _refused(_result(_event(units)), "same federation id twice")


@pytest.mark.parametrize("fields,match", [
    ({"date": dt.date(1850, 1, 1)}, "outside 1900-2100"),
    ({"date": dt.date(2200, 1, 1)}, "outside 1900-2100"),
    ({"boards": 99999999999999999999}, "number of boards"),
    ({"boards": 0}, "number of boards"),
    ({"title": "x" * 400}, "longer than"),
    ({"title": "Pairs\x07"}, "control"),
])
def test_dates_sizes_and_texts_out_of_range_are_refused(fields: dict[str, object],
                                                        match: str) -> None:
    _refused(_result(_event(_good_units(), **fields)), match)


def test_a_go_game_must_be_two_single_players() -> None:
    units = [Unit(1.0, "1", "", 1.0, _pair("Lee Sedol")), Unit(2.0, "2", "", 0.0,
                                                               _pair("Cho Chikun", "Ke Jie"))]
    _refused(_result(_event(units, kind="game", fmt="egd_table", game="go")), "go game")


def test_every_format_served_by_the_registry_is_gated() -> None:
    """No registered format can hand out a result the gate has not checked."""
    for fmt in FORMATS.values():
        assert getattr(fmt.parse, "__wrapped__", None) is not None, fmt.name


def test_the_gate_refusal_reaches_parse_bytes_with_file_and_place() -> None:
    page = ("<html><body><h1>Club pairs 3.10.2013</h1><table><tr><th>Place</th><th>Names</th>"
            "<th>%</th></tr><tr><td>1</td><td>N-S</td><td>60</td></tr><tr><td>2</td>"
            "<td>E-W</td><td>40</td></tr></table></body></html>").encode()
    with pytest.raises(Exception) as raised:
        parse_bytes(page, source="inbox/bc.html")
    assert "bc.html" in str(raised.value)


def _golden_results() -> list[Path]:
    return [p for p in sorted(FIXTURES.glob("**/*.expected.json"))
            if "error" not in json.loads(p.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("expected", _golden_results(),
                         ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_golden_result_has_no_junk_looking_player(expected: Path) -> None:
    data = json.loads(expected.read_text(encoding="utf-8"))
    for event in data["events"]:
        for unit in event["units"]:
            for p in unit["players"]:
                player = PlayerAsWritten(p["name"], initials=p.get("initials", False),
                                         handle=p.get("handle", False))
                assert filler_reason(p["name"]) is None, p["name"]
                assert junk_reason(player, handles=player.handle) is None, p["name"]


_given = st.sampled_from(["Ján", "Peter", "Eva", "Zuzana", "Irena", "Marek", "John", "Anne",
                          "Łukasz", "Ágnes", "Hans", "Jean-Luc", "Иван", "Kim"])
_family = st.sampled_from(["Novák", "Kováč", "Malá", "Krajčírová", "Chodorowska", "Wójcik",
                           "Gibberd", "O'Brien", "Dupont-Lefèvre", "van der Berg", "Zieliński",
                           "Kovács", "Петров", "Sedol"])


@given(st.lists(st.tuples(_given, _family, st.booleans(), st.booleans()), min_size=4,
                max_size=12, unique_by=lambda t: (t[0], t[1])))
def test_any_field_of_real_names_passes(people: list[tuple[str, str, bool, bool]]) -> None:
    """Real names in any order, case and form (surname first, ALL CAPS) never trip the gate."""
    names = []
    for given_name, family, surname_first, caps in people:
        text = f"{family} {given_name}" if surname_first else f"{given_name} {family}"
        names.append(text.upper() if caps else text)
    units = [Unit(float(i + 1), str(i + 1), "", 50.0 - i, (PlayerAsWritten(n),))
             for i, n in enumerate(names)]
    check(_result(_event(units, kind="individual")), file="x.csv")


def test_a_generic_reader_needs_more_than_a_numbered_list() -> None:
    units = [dataclasses.replace(u, score=None, place_text=f"{int(u.place or 0)}.")
             for u in _good_units()]
    result = _result(_event(units))
    check(result, file="x.html")  # a specific format's ranking stands on its written places
    with pytest.raises(ImplausibleResult, match="numbered 1, 2, 3"):
        check(result, file="x.html", generic=True)
    tied = [dataclasses.replace(u, place=1.5) if i < 2 else u for i, u in enumerate(units)]
    check(_result(_event(tied)), file="x.html", generic=True)  # a tie is a ranking's mark


def test_an_individual_event_of_hyphen_joined_surnames_is_a_pairs_event_misread() -> None:
    units = [Unit(float(i + 1), str(i + 1), "", 60.0 - i, (PlayerAsWritten(n),))
             for i, n in enumerate(["Olteanu-Zavloschi", "Matoianu-Chipail", "Sechelea-Banar",
                                    "Rosu-Bordei"])]
    _refused(_result(_event(units, kind="individual")), "two surnames joined by a hyphen")
    people = [Unit(float(i + 1), str(i + 1), "", 60.0 - i, (PlayerAsWritten(n),))
              for i, n in enumerate(["Anne-Marie Dupont", "Jan Novák-Kováč", "Eva Malá",
                                     "Ján Novák"])]
    check(_result(_event(people, kind="individual")))
