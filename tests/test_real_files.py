"""Real files from public repositories (fixtures/real/): provenance, coverage, and refusals.

Each folder of fixtures/real/ holds files exactly as a scoring program wrote them, with a
``SOURCES.txt`` line each: ``file | program that wrote it | repository | path in repository |
note``. Result files have their golden ``<case>.expected.json`` beside them (tests/test_golden.py
checks them field by field, through the plausibility gate). The folder ``refused/`` holds real
files that are not result lists (hand records, travellers, seating lists, registrations, score
cards, pages whose table a script loads): ``clubratings parse`` must refuse each with exit code 2
and one line. The folder ``pending/`` holds real result files that no reader reads right yet (its
SOURCES.txt says what each should read): until one does, each must be refused the same way,
never loaded half right.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
SUFFIX = ".expected.json"


def _sources() -> dict[Path, list[str]]:
    """Every file named in a SOURCES.txt, with its columns."""
    rows: dict[Path, list[str]] = {}
    for listing in sorted(REAL.glob("**/SOURCES.txt")):
        for line in listing.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            columns = [c.strip() for c in line.split("|")]
            rows[listing.parent / columns[0]] = columns
    return rows


def _inputs() -> list[Path]:
    return sorted(p for p in REAL.glob("**/*") if p.is_file() and p.name != "SOURCES.txt"
                  and not p.name.endswith(SUFFIX))


_NO_GOLDEN = ("refused", "pending")


def _refused() -> list[Path]:
    return [p for p in _inputs() if p.parent.name in _NO_GOLDEN]


def test_every_real_file_has_its_provenance_line() -> None:
    sources = _sources()
    missing = [str(p.relative_to(REAL)) for p in _inputs() if p not in sources]
    assert not missing, f"files without a SOURCES.txt line: {missing}"
    for path, columns in sources.items():
        assert path.is_file(), f"SOURCES.txt names a file that is not there: {path}"
        assert len(columns) >= 5 and all(columns[:4]), f"incomplete line for {path.name}"
        assert "/" in columns[2], f"{path.name}: repository should be owner/name"


def test_every_real_result_file_has_a_golden_or_is_a_refusal() -> None:
    for path in _inputs():
        if path.parent.name in _NO_GOLDEN:
            continue
        golden = path.with_name(path.name.rsplit(".", 1)[0] + SUFFIX)
        assert golden.is_file(), f"{path.relative_to(REAL)} has no {golden.name}"


def test_real_files_cover_forty_files_and_six_programs() -> None:
    sources = _sources()
    results = [p for p in _inputs() if p.parent.name not in _NO_GOLDEN]
    loaded = [p for p in results if "error" not in json.loads(
        p.with_name(p.name.rsplit(".", 1)[0] + SUFFIX).read_text(encoding="utf-8"))]
    programs = {sources[p][1].split("(")[0].strip().casefold() for p in results}
    assert len(results) >= 40, f"{len(results)} real result files"
    assert len(loaded) >= 30, f"{len(loaded)} of them read as results"
    assert len(programs) >= 6, f"programs: {sorted(programs)}"
    assert len([p for p in _refused() if p.parent.name == "refused"]) >= 5


@pytest.mark.parametrize("path", _refused(), ids=lambda p: p.name)
def test_a_real_file_that_is_not_a_result_list_is_refused_in_one_line(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["parse", str(path)])
    out, err = capsys.readouterr()
    assert code == 2, f"exit {code}; printed {out[:300]!r}"
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("clubratings: "), err
    assert path.name in err


def test_every_real_result_file_loads_and_no_loaded_name_looks_like_junk(wh: object) -> None:
    """The path users run: each real result file through ingest into one warehouse, by one
    loader as a run loads its files; each refusal recorded in its golden is a rejection there
    too; every player created passes the gate's name checks."""
    from flows import ingest_file
    from parsers import PlayerAsWritten
    from parsers._gate import filler_reason, junk_reason
    from warehouse import Loader

    loader = Loader(wh)  # type: ignore[arg-type]

    handles: set[str] = set()  # user names of online platforms, as the readers marked them
    for path in _inputs():
        if path.parent.name in _NO_GOLDEN:
            continue
        golden = json.loads(path.with_name(path.name.rsplit(".", 1)[0] + SUFFIX)
                            .read_text(encoding="utf-8"))
        handles |= {p["name"] for e in golden.get("events", ()) for u in e["units"]
                    for p in u["players"] if p.get("handle")}
        outcome = ingest_file(wh, path, loader=loader)  # type: ignore[arg-type]
        want = "rejected" if "error" in golden else "loaded"
        assert outcome.status == want, outcome.message
        if want == "loaded":
            assert outcome.events == len(golden["events"]), outcome.message
    rows = wh.con.execute(  # type: ignore[attr-defined]
        "SELECT DISTINCT p.name, m.name_as_written FROM players p "
        "JOIN unit_members m USING (player_id)").fetchall()
    assert rows
    for name, written in rows:
        assert filler_reason(name) is None, name
        assert junk_reason(PlayerAsWritten(name), handles=written in handles) is None, name
