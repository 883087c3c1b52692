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
