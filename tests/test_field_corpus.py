"""The field corpus (fixtures/field/): real files from sources the readers were not built from.

Every file is read as a user's file is (detection, reader, plausibility gate) and compared with
the truth a person wrote by reading it (fixtures/field/README.md). The test prints the share
read right per format and per repository (``pytest -s`` shows it; ``python
scripts/field_corpus.py --misses`` lists every file read wrong).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from scripts.field_corpus import FIELD, Case, cases, check_all, report, summary

CASES = cases()


@pytest.fixture(scope="module")
def outcomes() -> list:
    found = check_all(CASES, jobs=1)
    print("\n" + report(found, misses=True))
    return found


def test_every_file_has_its_provenance_and_its_truth() -> None:
    for folder in sorted(p for p in FIELD.iterdir() if p.is_dir()):
        files = {p.name for p in folder.iterdir() if p.is_file()} - {"SOURCES.txt", "TRUTH.json"}
        truths = json.loads((folder / "TRUTH.json").read_text(encoding="utf-8"))
        sources = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")]
                   for line in (folder / "SOURCES.txt").read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.lstrip().startswith("#")}
        assert files == set(truths), f"{folder.name}: files and TRUTH.json differ: " \
            f"{sorted(files ^ set(truths))}"
        assert files == set(sources), f"{folder.name}: files and SOURCES.txt differ: " \
            f"{sorted(files ^ set(sources))}"
        for name, columns in sources.items():
            assert len(columns) >= 5 and all(columns[:4]), f"{folder.name}/{name}: incomplete"
            assert columns[1].count("/") == 1, f"{name}: repository is owner/name"
            assert len(columns[3]) == 40, f"{name}: the commit is 40 hex digits"


def _truth_is_well_formed(case: Case) -> None:
    truth = case.truth
    assert len(truth.keys() & {"refuse", "events", "games"}) == 1, case.path.name
    if "events" in truth:
        assert truth["events"], case.path.name
        for event in truth["events"]:
            assert isinstance(event["units"], int) and event["units"] >= 2, case.path.name
            assert len(event["date"]) == 10, case.path.name
            assert isinstance(event["winners"], list), case.path.name
    if "games" in truth:
        assert truth["games"] >= 1 and truth["players"] >= 2, case.path.name


def test_truths_are_well_formed() -> None:
    for case in CASES:
        _truth_is_well_formed(case)


def test_the_corpus_is_a_field_not_one_club() -> None:
    """At least 400 result files from 20 repositories, none over a quarter of them, and 40
    files that are not result lists."""
    results = [c for c in CASES if not c.refuse]
    per_repo = Counter(c.repo for c in results)
    assert len(results) >= 400, f"{len(results)} result files"
    assert len(per_repo) >= 20, f"{len(per_repo)} repositories"
    repo, most = per_repo.most_common(1)[0]
    assert most <= len(results) / 4, f"{repo} gives {most} of {len(results)}"
    assert sum(c.refuse for c in CASES) >= 40


def test_result_files_read_right_and_every_other_file_refused(outcomes: list) -> None:
    s = summary(outcomes)
    share = s["results_right"] / max(1, s["results"])
    wrong = [f"{o.folder}/{o.file}: {o.why[:200]}" for o in outcomes if o.refuse and not o.right]
    assert not wrong, "not refused:\n" + "\n".join(wrong)
    assert share >= 0.97, f"{s['results_right']} of {s['results']} result files read right"


def test_the_field_corpus_script_prints_the_shares(capsys: pytest.CaptureFixture[str]) -> None:
    from scripts.field_corpus import main

    assert main(["--folder", "kops", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "result files read right:" in out and "kops" in out


def test_field_files_are_bounded_in_size() -> None:
    big = [p.name for p in FIELD.glob("*/*") if p.stat().st_size > 1 << 20]
    assert not big, f"files over 1 MiB in fixtures/field: {big}"


def test_the_readme_describes_the_truth() -> None:
    text = (FIELD / "README.md").read_text(encoding="utf-8")
    for word in ("SOURCES.txt", "TRUTH.json", "refuse", "games", "winners"):
        assert word in text
