"""A real club's site through the nightly job (benchmarks/club_archive.py does the whole
archive): a few nights of the Mercercrest club served on 127.0.0.1 from fixtures/sites/mercer,
found from the index alone by ``clubratings run``, read, rated and published; the same nights'
other renderings dropped later are recognised as the same results and counted once."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import main
from warehouse import open_warehouse

from benchmarks.club_archive import CONFIG, junk_names

from .test_scrape_discovery import SITE, Site

@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    s = Site(tmp_path / "site")
    yield s
    s.close()


def _project(tmp_path: Path, site: Site) -> Path:
    root = tmp_path / "club"
    root.mkdir()
    (root / "clubratings.toml").write_text(CONFIG, encoding="utf-8")
    (root / "sources.toml").write_text(
        f'allow = ["{site.netloc}"]\nrate_limit_seconds = 0\n[[source]]\nclub = "Mercercrest"\n'
        f'index = "{site.url("/index.html")}"\nfollow = "20*/**/*E.htm"\nschedule = "always"\n',
        encoding="utf-8")
    return root


def _run(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["run", "--config", str(root / "clubratings.toml")])
    out, err = capsys.readouterr()
    assert code in (0, 1), out + err  # 1: a file was rejected (the hand-made team page)
    return out + err


def _lists(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((root / "public").rglob("list.csv"))}


def _census(root: Path) -> tuple[int, int, int, list[str]]:
    with open_warehouse(root / "data" / "clubratings.duckdb", read_only=True) as wh:
        one = wh.con.execute
        nights = one("SELECT count(DISTINCT event_date) FROM active_events").fetchall()[0][0]
        events = one("SELECT count(*) FROM active_events").fetchall()[0][0]
        sections = one("SELECT count(*) FROM (SELECT DISTINCT event_date, section "
                       "FROM active_events)").fetchall()[0][0]
        names = [r[0] for r in one("SELECT DISTINCT name_as_written FROM unit_members")
                 .fetchall()]
    return nights, events, sections, names


def test_the_nights_found_from_the_index_are_rated_and_their_text_reports_count_once(
        tmp_path: Path, site: Site, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, site)
    _run(root, capsys)
    nights, events, sections, names = _census(root)
    assert nights >= 2  # 8 Jan 2019 (two winners: N-S and E-W) and 30 Dec 2025
    assert events == sections
    assert names and not junk_names(names)
    lists = _lists(root)
    assert any("bridge-whr" in path for path in lists)
    # the text reports of the same nights, dropped by the club's webmaster
    inbox = root / "inbox"
    inbox.mkdir(exist_ok=True)
    shutil.copyfile(SITE / "2019" / "190108E.TXT", inbox / "190108E.TXT")
    out = _run(root, capsys)
    assert "190108E.TXT: same results as" in out
    assert _census(root)[:3] == (nights, events, sections)
    assert _lists(root) == lists
    report = (root / "public" / "reports" / "latest.html").read_text(encoding="utf-8")
    assert "190108E.TXT" in report and "same results as" in report
