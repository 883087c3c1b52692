"""Damaged files: every one either parses or fails with a typed ParseError, nothing else.

200 files are made from the fixtures by truncating them and flipping bytes (a fixed seed, so a
failure reproduces); each is written to a folder and read back as the inbox would.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from parsers import ParseError, ParseResult, parse_bytes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _fixture_files() -> list[Path]:
    """Every file under fixtures/ but the field corpus (fixtures/field: files of every format,
    measured by tests/test_field_corpus.py)."""
    return [p for p in FIXTURES.rglob("*") if p.relative_to(FIXTURES).parts[0] != "field"]


SOURCES = sorted(
    p for p in _fixture_files()
    if p.is_file() and not p.name.endswith((".json", ".txt")) and p.name != "SOURCES.txt"
)
COUNT = 200


def _damage(data: bytes, rng: random.Random) -> bytes:
    kind = rng.choice(["truncate", "flip", "both", "garbage"])
    out = bytearray(data)
    if kind in ("truncate", "both") and len(out) > 1:
        del out[rng.randrange(1, len(out)):]
    if kind in ("flip", "both"):
        for _ in range(rng.randint(1, 20)):
            if out:
                out[rng.randrange(len(out))] = rng.randrange(256)
    if kind == "garbage":
        at = rng.randrange(len(out) + 1)
        out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    return bytes(out)


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("damaged")
    rng = random.Random(20261121)
    files = []
    for i in range(COUNT):
        source = SOURCES[i % len(SOURCES)]
        path = folder / f"{i:03d}-{source.name}"
        path.write_bytes(_damage(source.read_bytes(), rng))
        files.append(path)
    return files


def test_every_damaged_file_parses_or_raises_a_parse_error(damaged: list[Path]) -> None:
    assert len(damaged) == COUNT and len(SOURCES) >= 2
    outcomes = {"parsed": 0, "refused": 0}
    for path in damaged:
        try:
            result = parse_bytes(path.read_bytes(), source=str(path))
        except ParseError as exc:
            assert path.name in str(exc), f"error does not name the file: {exc}"
            outcomes["refused"] += 1
        else:
            assert isinstance(result, ParseResult)
            outcomes["parsed"] += 1
    # Both kinds happen: the damage is neither always harmless nor always fatal.
    assert outcomes["parsed"] > 0 and outcomes["refused"] > 0, outcomes
