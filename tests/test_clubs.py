"""Clubs as the lists name them (warehouse/clubs.py; issue 39, cases 1 and 3): the spellings of
one club are one club with one page ("Klub Singleton Warszawa" organises the nights, its scorer
writes "Singleton Warszawa" next to some names), and a placeholder a file writes where it knows
no club (``xxxx``, ``-``, ``?``) is never a club: no page, never in a list's club column."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from warehouse.clubs import club_key, is_placeholder

from ._csvs import HEADER
from ._lifecycle import CONFIG, must, new_project

ORGANISER = "Klub Singleton Warszawa"
PAIRS = [(("Ryszard Dudek", "Singleton Warszawa"), ("Tomasz Paluch", "xxxx")),
         (("Anna Kowal", "-"), ("Ewa Lis", "?")),
         (("Jan Zając", ""), ("Piotr Wróbel", "Singleton  Warszawa")),
         (("Marek Nowy", "BK Senec"), ("Zofia Stara", "XXX")),
         (("Olga Kodowa", "Wars"), ("Pavol Senecký", "Sene"))]
"""Five pairs, each player with the club the file writes beside the name: a name, another
spelling, a placeholder, nothing, or a club's code (``Wars``, ``Sene``)."""

CLUBS = """\
name,code,game,federation,aliases
Klub Singleton Warszawa,Wars,bridge,PZBS,KSW;Singleton
Bridžový klub Senec,Sene,bridge,SBZ,BK Senec
"""
"""The club register: Senec's name there is not how the files write it."""
SENEC = "Bridžový klub Senec"


def _night(day: str, shift: int) -> list[str]:
    pairs = PAIRS[shift:] + PAIRS[:shift]
    return [f"{ORGANISER},Turniej par,{day},pairs,MP,24,{unit},{unit},{60 - 3 * unit:.2f},"
            f"{name},,{club}"
            for unit, pair in enumerate(pairs, 1) for name, club in pair]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = new_project(tmp_path_factory.mktemp("clubs") / "project",
                       CONFIG + '\n[identity]\nclubs = "clubs.csv"\n')
    (root / "clubs.csv").write_text(CLUBS, encoding="utf-8")
    rows = [HEADER + ",club"]
    for k, day in enumerate(("2013-10-03", "2013-10-10", "2013-10-17")):
        rows += _night(day, k)
    (root / "inbox" / "singleton-2013-10.csv").write_text("\n".join(rows) + "\n",
                                                          encoding="utf-8")
    must(root, "ingest")
    must(root, "recompute")
    must(root, "publish")
    yield root


@pytest.mark.parametrize("text", ["xxxx", "XXX", "x", "-", "--", "?", "", "  ", "n/a", "...",
                                  "*"])
def test_a_placeholder_is_no_club(text: str) -> None:
    assert is_placeholder(text)


@pytest.mark.parametrize("text", ["BK Modra", "Brat", "38Gr", "Wars", "69Ly", "Xadrez Porto"])
def test_a_club_name_or_code_is_a_club(text: str) -> None:
    assert not is_placeholder(text)


def test_spellings_of_one_club_share_a_key() -> None:
    assert club_key("Klub Singleton Warszawa") == club_key("Singleton  Warszawa") == \
        club_key("singleton-warszawa") == "singleton warszawa"
    assert club_key("Club Brydżowy Łódź") == "brydzowy lodz"
    assert club_key("BK Modra") != club_key("Modra")  # only a leading Klub / Club goes


def test_one_page_per_club_and_none_for_a_placeholder(project: Path) -> None:
    clubs = project / "public" / "bridge" / "clubs"
    pages = sorted(p.name for p in clubs.glob("*.html"))
    assert pages == ["bridzovy-klub-senec.html", "index.html", "klub-singleton-warszawa.html"], \
        pages
    index = BeautifulSoup((clubs / "index.html").read_text(encoding="utf-8"), "html.parser")
    names = [a.get_text(strip=True) for a in index.select("tbody a")]
    assert names == [SENEC, ORGANISER]


def test_a_list_names_each_player_s_club_once_and_never_a_placeholder(project: Path) -> None:
    (edition,) = (project / "public" / "bridge").glob("2013Q4/list.csv")
    rows = list(csv.DictReader(io.StringIO(edition.read_text(encoding="utf-8"))))
    club = {r["player"]: r["club"] for r in rows}
    assert len(club) == 10
    # the club register's name for a name it knows as an alias, or for a code
    assert club["Marek Nowy"] == club["Pavol Senecký"] == SENEC
    # the club's code, another spelling, a placeholder, nothing written (the organiser's club)
    for name in ("Olga Kodowa", "Ryszard Dudek", "Piotr Wróbel", "Tomasz Paluch", "Anna Kowal",
                 "Ewa Lis", "Jan Zając", "Zofia Stara"):
        assert club[name] == ORGANISER, (name, club[name])


def test_a_club_register_line_that_claims_another_club_s_code_is_refused(tmp_path: Path) -> None:
    from warehouse import open_warehouse
    from warehouse.clubs import ClubRegisterError, load_club_register

    with open_warehouse(tmp_path / "w.duckdb") as wh:
        assert load_club_register(wh, CLUBS.encode(), path="clubs.csv") == \
            "clubs.csv: 2 club(s) in the club register"
        with pytest.raises(ClubRegisterError, match=r"clubs\.csv, line 3: 'Wars' is also club "
                           r"'Klub Singleton Warszawa' \(line 2\)"):
            load_club_register(wh, (CLUBS + "Warszawa Go,Wars,go,,\n").replace(
                "Bridžový klub Senec,Sene,bridge,SBZ,BK Senec\n", "").encode(), path="clubs.csv")
        assert wh.con.execute("SELECT count(*) FROM club_register").fetchall() == [(2,)]
        assert load_club_register(wh, CLUBS.encode(), path="clubs.csv") == \
            "clubs.csv: 2 club(s) in the club register, unchanged"
