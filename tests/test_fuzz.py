"""Hostile inbox files, bounded (``scripts/fuzz.py`` runs the same checks on 10,000 files).

Stage 1 parses 300 hostile files (every kind of ``scripts/_hostile.py``) in worker processes
with a 10 s bound each; stage 2 drops the first 100 into the inbox of a project of its own in two
batches of 50 and runs the real ``clubratings ingest`` on each. Nothing may crash or hang, load
implausible rows, lose a file or let a correction remove data without a hold.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARSED = 300
INGESTED = 100
BATCH = 50
SEED = 1


def _fuzz() -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("scripts.fuzz")


@pytest.fixture(scope="module")
def tally(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    fuzz = _fuzz()
    from scripts._hostile import hostile_files

    # the second drop of a name follows one batch later
    files = list(hostile_files(PARSED, SEED, gap=BATCH))
    found = fuzz.Tally(files=len(files))
    fuzz.check_parsers(files, found, timeout=10.0, show=0)
    harness = fuzz.IngestHarness(tmp_path_factory.mktemp("fuzz"), found)
    slow = [f.name for f in found.of("hang")]
    for start in range(0, INGESTED, BATCH):
        harness.drop(files[start:start + BATCH])
        harness.ingest(slow)
        harness.check_warehouse()
    if harness.held_back:  # a name already in the inbox waited for the next run
        harness.drop([])
        harness.ingest(slow)
        harness.check_warehouse()
    yield found


def test_every_kind_is_generated() -> None:
    from scripts._hostile import KINDS, hostile_files

    kinds = {kind for _, _, kind in hostile_files(3 * len(KINDS), SEED, gap=len(KINDS))}
    assert kinds == set(KINDS)


def test_generation_is_deterministic() -> None:
    from scripts._hostile import hostile_files

    def drawn(seed: int) -> list[tuple[bytes, object]]:
        # a workbook carries the time it was saved: its entries, not its bytes, are the draw
        return [(n, _entries(d) if d.startswith(b"PK") else d)
                for n, d, _ in hostile_files(30, seed, gap=10)]

    first = drawn(7)
    assert first == drawn(7)
    assert first != drawn(8)


def _entries(data: bytes) -> object:
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return sorted((i.filename, i.file_size) for i in archive.infolist()
                          if not i.filename.startswith("docProps/"))
    except zipfile.BadZipFile:
        return data


@pytest.mark.parametrize("category", ["crash", "hang", "implausible", "removal"])
def test_no_findings(tally: object, category: str) -> None:
    found = tally.of(category)  # type: ignore[attr-defined]
    assert not found, f"{len(found)} finding(s):\n" + "\n".join(f.line() for f in found[:15])
