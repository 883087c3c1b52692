"""ACBLscore text reports: detection, places from the section scores, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import FORMATS, MalformedFile, UnsupportedVariant, detect_format
from parsers.acblscore_text import detect, parse

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
CASES = REAL / "acblscore_text"


def _read(name: str) -> bytes:
    return (CASES / name).read_bytes()


def test_real_reports_are_detected_as_acblscore() -> None:
    for path in sorted(p for p in CASES.glob("*.txt") if p.name != "SOURCES.txt"):
        assert detect_format(path.read_bytes(), path.name).name == "acblscore_text", path.name


def test_two_winners_give_one_event_per_direction_with_shared_places() -> None:
    result = parse(_read("acblscore-mitchell-two-winners-ties.txt"))
    ns, ew = result.events
    assert (ns.section, ew.section) == ("A N-S", "A E-W")
    assert ns.title == "Thursday Afternoon Pairs, Thursday Aft"
    assert ns.organiser == "CAPITAL CITY BRIDGE CLUB"
    assert ns.date.isoformat() == "2008-10-30"
    assert ns.boards == 25
    assert [u.place for u in ns.units] == [1.0, 2.5, 2.5, 4.0, 5.0]
    assert [u.label for u in ns.units] == ["5", "3", "4", "1", "2"]
    keith = ns.units[2].players
    assert [(p.name, p.federation_id) for p in keith] == [
        ("Keith Dowdall", "M182871"), ("Elaine Verville", None)]


def test_a_pair_not_eligible_for_awards_still_wins_on_score() -> None:
    (event,) = parse(_read("acblscore-one-winner-not-eligible-short-header.txt")).events
    assert event.section == "A"
    first = event.units[0]
    assert (first.label, first.score, first.place, first.place_text) == ("5", 70.57, 1.0, "")


def test_a_report_printed_twice_is_read_once() -> None:
    result = parse(_read("acblscore-report-printed-twice.txt"))
    assert [e.section for e in result.events] == ["A N-S", "A E-W"]
    assert any("printed twice" in issue.message for issue in result.issues)


def test_win_loss_report_is_refused() -> None:
    data = (REAL / "refused" / "acblscore-win-loss-swiss-pairs.txt").read_bytes()
    assert detect(data)
    with pytest.raises(UnsupportedVariant, match="WIN-LOSS"):
        FORMATS["acblscore_text"].parse(data, source="x.txt")


def test_a_blank_template_without_a_date_is_refused() -> None:
    data = _read("acblscore-section-c-three-strats.txt").replace(
        b"DATE>December 15, 2008", b"DATE>Month 0, year     ")
    with pytest.raises(MalformedFile, match="no event date"):
        parse(data)


def test_other_text_is_not_claimed() -> None:
    assert not detect(b"EVENT>something without the other header lines\n")
    assert not detect(b"No  Name  Name\n1 Ann Smith  Bob Jones 55.0\n")


# --- the Mercercrest club's reports, 2013-2026: every layout --------------------------------


def test_names_without_acbl_numbers_are_read_whole() -> None:
    ns, ew = parse(_read("mercer-2013-section-ranks-names-without-numbers.txt")).events
    assert (ns.section, ew.section) == ("A N-S", "A E-W")
    by_label = {u.label: u for u in ns.units}
    assert [(p.name, p.federation_id) for p in by_label["8"].players] == [
        ("Mike Christensen", None), ("Mike Ring", None)]
    assert [p.name for p in by_label["2"].players] == ["Dave Drischell", "Dt Levy"]
    assert (ns.units[0].label, ns.units[0].score, ns.units[0].place) == ("3", 57.85, 1.0)


def test_overall_and_section_rank_groups_with_not_eligible_marks() -> None:
    ns, ew = parse(_read("mercer-not-eligible-ne-marks.txt")).events
    assert len(ns.units) == 13 and len(ew.units) == 13
    pcts = [u.score for u in ns.units]
    assert pcts == sorted(pcts, reverse=True)
    assert ns.units[0].players[0].name and all(len(u.players) == 2 for u in ns.units + ew.units)
    assert [(u.label, u.score) for u in ns.units[:2]] == [("8", 59.91), ("7", 59.15)]


def test_one_winner_with_a_missing_pair_number_and_travellers() -> None:
    (event,) = parse(_read("mercer-one-winner-tied-ranks-travellers.txt")).events
    assert event.section == "A" and len(event.units) == 13
    assert "13" not in {u.label for u in event.units}
    tied = [u for u in event.units if u.score == 50.83]
    assert [u.place for u in tied] == [5.5, 5.5]  # ranked "5/6" in the report


def test_two_sections_are_two_events() -> None:
    events = parse(_read("mercer-two-sections-one-winner.txt")).events
    assert [e.section for e in events] == ["B", "A"]


def test_qualifiers_and_an_adjust_column_leave_the_percentage_in_its_cell() -> None:
    ns, _ = parse(_read("mercer-qualifiers-adjust-red-black-awards.txt")).events
    top = ns.units[0]
    assert (top.label, top.score, [p.name for p in top.players]) == (
        "1", 60.74, ["Bryan Delfs", "Sue Anderson"])


def test_a_rescored_game_printed_again_reads_the_later_scoring() -> None:
    result = parse(_read("mercer-rescored-printed-again.txt"))
    assert [e.section for e in result.events] == ["A N-S", "A E-W"]
    assert [u.label for u in result.events[0].units[:4]] == ["8", "3", "1", "5"]
    assert sum("scored later" in i.message for i in result.issues) == 2


def test_swiss_teams_in_victory_points_are_a_teams_event() -> None:
    (event,) = parse(_read("mercer-swiss-teams-vp.txt")).events
    assert (event.kind, event.scoring, event.section, event.boards) == ("teams", "VP", "", 24)
    assert event.title == "Tuesday Evening Pairs"
    first = event.units[0]
    assert (first.label, first.score, first.place) == ("4", 69.0, 1.0)
    assert [p.name for p in first.players] == [
        "Kevin Cline", "Chris Pesce", "Bogdan Vulcan", "Corneliu Galer"]
    towns = {"Seattle WA", "Mercer Island WA", "US"}
    assert not towns & {p.name for u in event.units for p in u.players}


def test_swiss_teams_with_acbl_numbers_all_digits_too() -> None:
    (event,) = parse(_read("mercer-swiss-teams-vp-acbl-numbers.txt")).events
    assert len(event.units) == 12 and all(len(u.players) == 4 for u in event.units)
    team = next(u for u in event.units if u.label == "2")
    assert [(p.name, p.federation_id) for p in team.players] == [
        ("Rex Tu", "J352334"), ("Jim Chen", "1452800"),
        ("Moises Saul", "Q341575"), ("Irving Sonkin", "6725104")]


_MARKS = {"A", "B", "C", "D", "NE", "Q", "QQ", "Totals", "TOTALS", "Section", "Overall"}


def test_no_mark_label_or_number_ever_becomes_a_name() -> None:
    from parsers._gate import junk_reason

    folders = [REAL / "acblscore_text", REAL / "acblmerge", REAL / "recap_html",
               REAL.parent / "same_night"]
    paths = [p for folder in folders for p in sorted(folder.glob("*.*"))
             if p.name != "SOURCES.txt" and not p.name.endswith(".json")]
    seen = 0
    for path in paths:
        data = path.read_bytes()
        fmt = detect_format(data, path.name)
        try:
            events = fmt.parse(data, source=path.name).events
        except (MalformedFile, UnsupportedVariant):
            continue  # a refusal (the cut-down phone page, the blank template)
        for event in events:
            labels = {u.label for u in event.units}
            for unit in event.units:
                for player in unit.players:
                    seen += 1
                    name = player.name
                    assert junk_reason(player) is None, (path.name, name)
                    assert name not in _MARKS and name not in labels, (path.name, name)
                    assert not any(ch.isdigit() for ch in name), (path.name, name)
                    assert not name.startswith(("Section", "Totals")), (path.name, name)
                    assert name == name.strip() and "  " not in name, (path.name, name)
    assert seen > 600


def test_a_section_printed_again_without_a_later_stamp_is_inconsistent() -> None:
    from parsers import InconsistentResult

    data = _read("mercer-rescored-printed-again.txt").replace(
        b"08/03/2021 18:49", b"07/27/2021 22:16")
    with pytest.raises(InconsistentResult, match="appear twice with different results"):
        parse(data)


def test_a_mark_in_a_name_cell_is_reported_and_never_a_player() -> None:
    data = _read("mercer-2013-section-ranks-names-without-numbers.txt").replace(
        b"Dt Levy", b"NE     ", 1)
    result = parse(data)
    pair = next(u for u in result.events[0].units if u.label == "2")
    assert [p.name for p in pair.players] == ["Dave Drischell"]
    assert any("holds no name" in i.message and "'NE'" in i.message for i in result.issues)
    with pytest.raises(MalformedFile, match="holds no name"):
        parse(data, strict=True)


def test_a_blank_report_template_is_refused_in_one_line_saying_so() -> None:
    # Capital City kept this template for 1,327 nights: no date, one row NO RESULTS AVAILABLE
    data = _read("acblscore-blank-template-no-results.txt")
    assert detect(data)
    with pytest.raises(UnsupportedVariant) as refused:
        parse(data)
    message = str(refused.value)
    assert "blank ACBLscore report template" in message and "NO RESULTS AVAILABLE" in message
    assert "\n" not in message
    with pytest.raises(UnsupportedVariant, match="NO RESULTS AVAILABLE"):
        parse(data.replace(b"DATE>Month 0, year      ", b"DATE>October 6, 2008    "))


def test_a_next_session_column_and_an_unranked_top_pair() -> None:
    # "| Next Session | Sect Table Dir|" right of the awards, left empty; the best N-S pair
    # (no strat, "." in both rank cells) still comes first by its percentage
    ns, ew = parse(_read("acblscore-next-session-column-unranked-top.txt"), strict=True).events
    assert (ns.section, ew.section, ns.boards) == ("A N-S", "A E-W", 28)
    assert (ns.title, ns.date.isoformat()) == ("0-300, Monday Eve", "2008-10-06")
    assert [(u.label, u.place, u.score) for u in ns.units[:3]] == [
        ("7", 1.0, 61.83), ("4", 2.0, 60.3), ("6", 3.0, 57.47)]
    assert [(p.name, p.federation_id) for p in ns.units[0].players] == [
        ("Esther Wiebe", None), ("Rita Beny", "N644933")]
    assert [(p.name, p.federation_id) for p in ew.units[0].players] == [
        ("Chaim Weinerman", "3304043"), ("H Asher Weinerman", "3304078")]
    assert all(len(u.players) == 2 for e in (ns, ew) for u in e.units)


def test_a_game_without_a_masterpoint_rating_is_detected_and_read() -> None:
    # the club's unrated second game: no MP LIMITS> (AVE>|TOP>|CLUB> with CLUB> empty),
    # "Event Name" as ACBLscore leaves it, O'all and Section ranks without strats or awards
    data = _read("mercer-unrated-game-no-mp-limits.txt")
    assert b"MP LIMITS>" not in data
    assert detect(data)
    assert detect_format(data, "250408E.TXT").name == "acblscore_text"
    result = FORMATS["acblscore_text"].parse(data, source="250408E.TXT", strict=True)
    (event,) = result.events
    assert (event.title, event.section, event.date.isoformat()) == (
        "Event Name, Tuesday Eve", "B", "2025-04-08")
    assert (event.organiser, event.kind, event.scoring, event.boards) == ("", "pairs", "MP", 15)
    assert [(u.place, u.label, u.score) for u in event.units] == [
        (1.0, "2", 78.6), (2.0, "1", 44.0), (3.0, "3", 42.87), (4.0, "4", 37.33)]
    assert [p.name for p in event.units[0].players] == ["David Pultoray", "Clare Henry"]
    assert [p.name for p in event.units[3].players] == ["Ted Landreth", "Bernie Tevelde"]
    assert all(p.federation_id is None for u in event.units for p in u.players)
    assert result.issues == ()


def test_the_fourth_header_line_needs_mp_limits_or_top() -> None:
    data = _read("mercer-unrated-game-no-mp-limits.txt")
    assert not detect(data.replace(b"|TOP>", b"|XXX>"))
    swiss = _read("mercer-swiss-teams-vp.txt")  # MP LIMITS> but no AVE>|TOP>
    assert b"TOP>" not in swiss and detect(swiss)


def test_a_ranking_printed_without_names_is_refused_saying_so() -> None:
    data = _read("mercer-ranking-printed-without-names.txt")
    assert detect(data)
    with pytest.raises(MalformedFile) as refused:
        FORMATS["acblscore_text"].parse(data, source="250225E.TXT")
    message = str(refused.value)
    assert "names no player" in message and "printed without the players' names" in message
    assert "4 pairs" in message and "section B" in message and "\n" not in message
