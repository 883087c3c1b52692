"""ACBLmerge pages (full and phone): the ACBLscore recap in <pre>, read like the text report."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from parsers import FORMATS, MalformedFile, detect_format
from parsers import acblmerge
from parsers._model import Event

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
PAGES = REAL / "acblmerge"
TEXT = REAL / "acblscore_text"
SAME_NIGHT = REAL.parent / "same_night"
"""Other renderings of nights in fixtures/real/ (kept apart: the warehouse counts a night once)."""
FULL = PAGES / "mercer-overall-and-section-ranks.htm"
PHONE = SAME_NIGHT / "mercer-overall-and-section-ranks-phone.htm"


def _events(path: Path) -> tuple[Event, ...]:
    return FORMATS[detect_format(path.read_bytes(), path.name).name].parse(
        path.read_bytes(), source=path.name).events


def _same(event: Event) -> tuple[object, ...]:
    """What two renderings of one night must agree on (the score of the phone page is cut to
    one decimal when it is not the percentage, and a page has no board matrix)."""
    return (event.date, event.section, event.organiser, event.title, event.kind, event.scoring,
            tuple((u.place, u.label, u.players) for u in event.units))


@pytest.mark.parametrize("page", sorted([*PAGES.glob("*.htm"), *SAME_NIGHT.glob("mercer-*.htm")]),
                         ids=lambda p: p.name)
def test_pages_are_claimed_by_acblmerge_alone(page: Path) -> None:
    data = page.read_bytes()
    claimed = [f.name for f in FORMATS.values() if not f.fallback and f.detect(data, page.name)]
    assert claimed == ["acblmerge"]


@pytest.mark.parametrize(("page", "report"), [
    (FULL, SAME_NIGHT / "mercer-overall-and-section-ranks.txt"),
    (PHONE, SAME_NIGHT / "mercer-overall-and-section-ranks.txt"),
    (SAME_NIGHT / "mercer-swiss-teams-vp-acbl-numbers.htm",
     TEXT / "mercer-swiss-teams-vp-acbl-numbers.txt"),
], ids=lambda p: p.name)
def test_the_page_and_the_text_report_of_a_night_give_the_same_events(
        page: Path, report: Path) -> None:
    from_page = _events(page)
    from_text = _events(report)
    assert len(from_page) == len(from_text)
    for ours, theirs in zip(from_page, from_text, strict=True):
        assert _same(ours) == _same(theirs), ours.section
        assert ours.format == "acblmerge" and theirs.format == "acblscore_text"


def test_phone_page_equals_the_full_page_scores_included() -> None:
    assert _events(PHONE) == _events(FULL)


def test_a_block_without_a_date_line_takes_the_first_blocks_header() -> None:
    text = acblmerge.recap_text(FULL.read_bytes())
    east_west = text[text.index("SECTION> A E-W"):]
    assert "DATE>" not in east_west.split("EVENT>")[0]  # the page leaves it out
    ns, ew = _events(FULL)
    assert (ew.section, ew.date, ew.organiser, ew.title) == (
        "A E-W", dt.date(2013, 4, 23), "Mercercrest", "Tuesday Evening Pairs, Tuesday Eve")
    assert (ns.units[0].label, ns.units[0].score) == ("7", 66.67)


def test_recap_text_has_no_markup_left() -> None:
    text = acblmerge.recap_text(PHONE.read_bytes())
    assert text.lstrip().startswith("EVENT>Tuesday Evening Pairs")
    assert "<a" not in text and "&gt;" not in text and "recap(" not in text
    assert " 1 Cristal Nell           Gregory Herman" in text


def test_cut_down_phone_rows_are_refused_not_read_half() -> None:
    data = (PAGES / "mercer-short-header-phone-rows-cut.htm").read_bytes()
    with pytest.raises(MalformedFile, match="row stops before the Pct column"):
        acblmerge.parse(data, source="x_iPhone.htm")


def test_detection_needs_the_mark_and_the_recap() -> None:
    page = FULL.read_bytes()
    assert acblmerge.detect(page)
    assert not acblmerge.detect(page.replace(b"EVENT&gt;", b"EVENT"))
    assert not acblmerge.detect(page.replace(b"Created by ACBLmerge", b"Created by hand"))
    assert not acblmerge.detect(b"EVENT&gt;Pairs |SECTION&gt; A\n")
