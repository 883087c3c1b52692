"""The identity fixture club (``fixtures/identity/``, scripts/make_identity_fixtures.py): what the
parsers and the register reader make of each file, and that the script writes these bytes."""

from __future__ import annotations

import datetime as dt
import importlib.util
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest

from parsers import FORMATS, ParseResult, detect_format, parse_bytes
from warehouse._register_file import RegisterMember, read_register

ROOT = Path(__file__).resolve().parent.parent
IDENTITY = ROOT / "fixtures" / "identity"
MODRA, SENEC = "BK Modra", "BK Senec"
TITLE = "BK Modra – klubový turnaj párov"

# place, pair number, score, players as (name, federation id, club, initials)
Player = tuple[str, str | None, str | None, bool]
Unit = tuple[float, str, float, list[Player]]


def _full(*names: tuple[str, str | None, str | None]) -> list[Player]:
    return [(name, fid, club, False) for name, fid, club in names]


def _initials(*names: str) -> list[Player]:
    return [(name, None, MODRA, True) for name in names]


RESULTS: dict[str, tuple[str, str, str, list[Unit]]] = {
    "modra-2013-09-05.csv": ("csv_template", "2013-09-05", "Klubový turnaj párov", [
        (1.0, "3", 58.33, _full(("Novák Ján", "1001", MODRA), ("Kováč Peter", "1003", MODRA))),
        (2.0, "1", 52.08, _full(("NOVOTNÝ Jozef", None, MODRA), ("Horváthová Mária", None, MODRA))),
        (3.0, "4", 47.92, _full(("Bieliková Lucia", None, MODRA), ("Šťastný Martin", None, MODRA))),
        (4.0, "2", 41.67, _full(("Nováková-Kráľová Eva", None, MODRA),
                                ("Krajčírová Zuzana", None, MODRA))),
    ]),
    "modra-2013-09-12.csv": ("csv_template", "2013-09-12", "Klubový turnaj párov", [
        (1.0, "2", 56.25, _full(("Ing. Lucia Bieliková", None, None),
                                ("Martin Stastny", None, None))),
        (2.0, "4", 53.13, _full(("Jozef Novotny", None, None), ("Maria Horvathova", None, None))),
        (3.0, "1", 48.96, _full(("Ján Novák", None, None), ("Peter Kovac", None, None))),
        (4.0, "3", 41.67, _full(("Eva Novakova-Kralova", None, None),
                                ("Zuzana Krajcirova", None, None))),
    ]),
    "modra-2013-09-19-initials.xlsx": ("spreadsheet", "2013-09-19", TITLE, [
        (1.0, "3", 58.33, _initials("JNo", "PKo")),
        (2.0, "1", 52.08, _initials("JNo", "MHo")),
        (3.0, "4", 47.92, _initials("LBi", "MŠť")),
        (4.0, "2", 41.67, _initials("ENo", "ZKr")),
    ]),
    "modra-2013-09-26-initials.xlsx": ("spreadsheet", "2013-09-26", TITLE, [
        (1.0, "2", 56.25, _initials("JNo", "ZKr")),
        (2.0, "4", 53.13, _initials("PKo", "MHo")),
        (3.0, "1", 48.96, _initials("LBi", "MŠť")),
        (4.0, "3", 41.67, _initials("ENo", "TVa")),
    ]),
    "modra-2013-10-03-initials.xlsx": ("spreadsheet", "2013-10-03", TITLE, [
        (1.0, "1", 60.42, _initials("LBi", "MŠť")),
        (2.0, "4", 52.08, _initials("PKo", "MHo")),
        (3.0, "3", 45.83, _initials("JNo", "ZKr")),
        (4.0, "2", 41.67, _initials("ENo", "TVa")),
    ]),
}


def _parse(name: str) -> ParseResult:
    return parse_bytes((IDENTITY / name).read_bytes(), source=name)


# --- result lists ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_detected_as_exactly_one_format(name: str) -> None:
    data = (IDENTITY / name).read_bytes()
    fmt = RESULTS[name][0]
    assert [f.name for f in FORMATS.values() if f.detect(data, name)] == [fmt]
    assert detect_format(data, name).name == fmt


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_event_fields(name: str) -> None:
    fmt, date, title, _ = RESULTS[name]
    result = _parse(name)
    assert result.format == fmt
    assert result.issues == ()
    (event,) = result.events
    assert event.format == fmt
    assert event.date == dt.date.fromisoformat(date)
    assert event.organiser == MODRA
    assert event.title == title
    assert (event.game, event.kind, event.scoring, event.boards, event.section) == (
        "bridge", "pairs", "MP", 24, "",
    )


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_units_and_players_as_written(name: str) -> None:
    (event,) = _parse(name).events
    expected = RESULTS[name][3]
    assert len(event.units) == len(expected)
    for unit, (place, label, score, players) in zip(event.units, expected):
        assert (unit.place, unit.place_text, unit.label, unit.score) == (
            place, str(int(place)), label, score,
        )
        assert [(p.name, p.federation_id, p.club, p.initials) for p in unit.players] == players


# --- the registers --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["register-2013.csv", "register-2014.xlsx"])
def test_registers_are_not_result_files(name: str) -> None:
    data = (IDENTITY / name).read_bytes()
    assert [f.name for f in FORMATS.values() if f.detect(data, name)] == []


def test_register_2013() -> None:
    register = read_register((IDENTITY / "register-2013.csv").read_bytes(), "register-2013.csv")
    assert (register.sheet, register.warnings) == (None, ())
    assert [m.federation_id for m in register.members] == [str(n) for n in range(1001, 1013)]
    by_id = {m.federation_id: m for m in register.members}
    assert by_id["1008"] == RegisterMember(
        federation_id="1008", first_name="Eva", surname="Nováková-Kráľová", club=MODRA,
        birth_year=1972, status="aktívny", row=10,
    )
    assert by_id["1011"] == RegisterMember(
        federation_id="1011", first_name="Ladislav", surname="Kiss", club=SENEC,
        birth_year=1963, status="aktívny", row=13,
    )
    assert [m.federation_id for m in register.members if m.status != "aktívny"] == ["1012"]
    assert by_id["1012"].status is None


def test_register_2014() -> None:
    register = read_register((IDENTITY / "register-2014.xlsx").read_bytes(), "register-2014.xlsx")
    assert (register.sheet, register.warnings) == ("Members", ())
    assert [m.federation_id for m in register.members] == [str(n) for n in range(1001, 1014)]
    by_id = {m.federation_id: m for m in register.members}
    assert by_id["1008"] == RegisterMember(
        federation_id="1008", first_name="Eva", surname="Nováková-Kráľová", club=MODRA,
        birth_year=1972, status="aktívny", row=9,
    )
    assert by_id["1011"] == RegisterMember(
        federation_id="1011", first_name="Ladislav", surname="Kiss", club=MODRA,
        birth_year=1963, status="aktívny", row=12,
    )
    assert by_id["1007"].status == "neaktívny"
    assert by_id["1013"] == RegisterMember(
        federation_id="1013", first_name="Juraj", surname="Nemec", club=MODRA,
        birth_year=1990, status="aktívny", row=14,
    )


def test_only_kiss_nemec_and_stastny_change_between_the_registers() -> None:
    old = read_register((IDENTITY / "register-2013.csv").read_bytes(), "a.csv").members
    new = read_register((IDENTITY / "register-2014.xlsx").read_bytes(), "b.xlsx").members

    def fields(m: RegisterMember) -> tuple[object, ...]:
        return (m.federation_id, m.first_name, m.surname, m.club, m.birth_year, m.status)

    changed = {fields(m) for m in new} - {fields(m) for m in old}
    assert changed == {
        ("1007", "Martin", "Šťastný", MODRA, 1969, "neaktívny"),
        ("1011", "Ladislav", "Kiss", MODRA, 1963, "aktívny"),
        ("1013", "Juraj", "Nemec", MODRA, 1990, "aktívny"),
    }
    assert {m.federation_id for m in old} < {m.federation_id for m in new}


# --- the story holds together ---------------------------------------------------------------


def _code(first: str, surname: str) -> str:
    """Initials as the club writes them: first letter of the first name, two of the surname."""
    return unicodedata.normalize("NFC", first[0] + surname[:2])


def test_initials_match_the_2013_register_and_only_jno_is_shared() -> None:
    register = read_register((IDENTITY / "register-2013.csv").read_bytes(), "r.csv").members
    owners: dict[str, list[str]] = {}
    for m in register:
        owners.setdefault(_code(m.first_name, m.surname), []).append(m.federation_id)
    written = {p.name for name in RESULTS if name.endswith("-initials.xlsx")
               for u in _parse(name).events[0].units for p in u.players}
    assert written == {"JNo", "PKo", "MHo", "LBi", "MŠť", "ENo", "ZKr", "TVa"}
    assert {code: owners[code] for code in written} == {
        "JNo": ["1001", "1002"], "PKo": ["1003"], "MHo": ["1004"], "LBi": ["1006"],
        "MŠť": ["1007"], "ENo": ["1008"], "ZKr": ["1005"], "TVa": ["1009"],
    }
    assert "LKi" not in written  # Ladislav Kiss joins BK Modra only in 2014


# --- the generator --------------------------------------------------------------------------


def _script() -> ModuleType:
    path = ROOT / "scripts" / "make_identity_fixtures.py"
    spec = importlib.util.spec_from_file_location("make_identity_fixtures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_writes_exactly_these_bytes() -> None:
    script = _script()
    assert set(script.FIXTURES) == {p.name for p in IDENTITY.iterdir()} - {"SOURCES.txt"}
    for name, make in script.FIXTURES.items():
        first, second = make(), make()
        assert first == second, f"{name} is not deterministic"
        assert first == (IDENTITY / name).read_bytes(), f"{name}: regenerate with the script"


def test_no_golden_pairs_and_sources_name_the_script() -> None:
    assert not list(IDENTITY.glob("*.expected.json"))
    sources = (IDENTITY / "SOURCES.txt").read_text(encoding="utf-8")
    assert "scripts/make_identity_fixtures.py" in sources
    assert "synthetic" in sources
    for path in IDENTITY.iterdir():
        if path.name != "SOURCES.txt":
            assert path.name in sources, path.name
