"""The field corpus: real files from sources the readers were not built from, read as a user would.

    python scripts/field_corpus.py [--folder NAME] [--misses] [--json FILE] [--jobs N]

Every file named in a ``fixtures/field/<folder>/TRUTH.json`` is read by ``parsers.parse_bytes``
with no format given (detection, the readers and the plausibility gate, as ``clubratings
parse`` and the ingest read it) and compared with the truth a person wrote by reading it
(fixtures/field/README.md):

- a result file is *right* when it loads and has the truth's events: as many events, the same
  units per event, the same date, and the same winners (the players of the unit placed first);
  a go file when it has the truth's games, players and first day;
- a file that is not a result list is *right* when it is refused.

Prints the share right per folder (format) and per repository, the totals, and with
``--misses`` every file read wrong with what differed. The test (tests/test_field_corpus.py)
runs the same check on the files in the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FIELD = ROOT / "fixtures" / "field"

__all__ = ["Case", "Outcome", "cases", "check", "check_all", "summary"]


@dataclass(frozen=True, slots=True)
class Case:
    """One file of the corpus with its provenance and its truth."""

    path: Path
    folder: str
    repo: str
    repo_path: str
    commit: str
    note: str
    truth: dict[str, Any]

    @property
    def refuse(self) -> bool:
        return "refuse" in self.truth


@dataclass(frozen=True, slots=True)
class Outcome:
    file: str
    folder: str
    repo: str
    refuse: bool
    right: bool
    why: str
    seconds: float


def _sources(folder: Path) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    listing = folder / "SOURCES.txt"
    if not listing.is_file():
        return rows
    for line in listing.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        columns = [c.strip() for c in line.split("|")]
        rows[columns[0]] = columns
    return rows


def cases(root: Path = FIELD, folders: Iterable[str] | None = None) -> list[Case]:
    """Every file of the corpus that has a truth, with its SOURCES.txt line (or blanks)."""
    wanted = set(folders) if folders else None
    out: list[Case] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if wanted is not None and folder.name not in wanted:
            continue
        truth_file = folder / "TRUTH.json"
        if not truth_file.is_file():
            continue
        truths = json.loads(truth_file.read_text(encoding="utf-8"))
        sources = _sources(folder)
        for name, truth in sorted(truths.items()):
            columns = sources.get(name, [name, "", "", "", ""]) + ["", "", "", ""]
            out.append(Case(folder / name, folder.name, columns[1], columns[2], columns[3],
                            columns[4], truth))
    return out


# ---------------------------------------------------------------- comparing

def _tokens(names: Iterable[str]) -> set[str]:
    """The words of names, without case, accents, punctuation or one-letter initials."""
    words: set[str] = set()
    for name in names:
        folded = unicodedata.normalize("NFKD", name.casefold())
        folded = "".join(c for c in folded if not unicodedata.combining(c))
        folded = folded.replace("ł", "l").replace("ø", "o").replace("đ", "d").replace("ß", "ss")
        words.update(w for w in re.split(r"[^\w]+", folded) if len(w) > 1 and not w.isdigit())
    return words


def _same_winners(want: Sequence[str], units: Sequence[dict[str, Any]]) -> bool:
    """The truth's winners are the players (or the team's name) of a unit placed first."""
    places = [u["place"] for u in units if u.get("place") is not None]
    if not places:
        return False
    first = min(places)
    want_words = _tokens(want)
    if not want_words:
        return True
    for unit in units:
        if unit.get("place") != first:
            continue
        got = _tokens([p["name"] for p in unit["players"]])
        label = _tokens([unit.get("label") or ""])
        for words in (got, label, got | label):
            if words and (want_words <= words or words <= want_words
                          or len(want_words & words) >= max(1, len(want_words) * 2 // 3)):
                return True
    return False


def _compare_events(truth: dict[str, Any], events: list[dict[str, Any]]) -> str:
    want = truth["events"]
    if len(events) != len(want):
        got = ", ".join(f"{e['date']} {e['section'] or '-'}: {len(e['units'])}" for e in events)
        return f"{len(events)} events, want {len(want)} ({got})"
    free = list(events)
    for index, event in enumerate(want):
        match = next((e for e in free if len(e["units"]) == event["units"]
                      and (not event.get("date") or e["date"] == event["date"])
                      and _same_winners(event.get("winners", ()), e["units"])), None)
        if match is None:
            near = next((e for e in free if len(e["units"]) == event["units"]), None)
            if near is None:
                sizes = sorted(len(e["units"]) for e in free)
                return f"event {index + 1}: no event of {event['units']} units (got {sizes})"
            if event.get("date") and near["date"] != event["date"]:
                return f"event {index + 1}: date {near['date']}, want {event['date']}"
            winners = [[p["name"] for p in u["players"]] or [u["label"]]
                       for u in near["units"] if u["place"] == min(
                           x["place"] for x in near["units"] if x["place"] is not None)]
            return f"event {index + 1}: winners {winners}, want {event.get('winners')}"
        free.remove(match)
    return ""


def _compare_games(truth: dict[str, Any], events: list[dict[str, Any]]) -> str:
    players = {p["name"] for e in events for u in e["units"] for p in u["players"]}
    dates = sorted(e["date"] for e in events)
    problems = []
    if len(events) != truth["games"]:
        problems.append(f"{len(events)} games, want {truth['games']}")
    if "players" in truth and len(players) != truth["players"]:
        problems.append(f"{len(players)} players, want {truth['players']}")
    if truth.get("date") and dates and dates[0] != truth["date"]:
        problems.append(f"first day {dates[0]}, want {truth['date']}")
    return "; ".join(problems)


def check(case: Case) -> Outcome:
    """Read one file as a user would and compare it with its truth."""
    from parsers import ParseError, parse_bytes, result_to_json

    started = time.perf_counter()
    kwargs = dict(file=case.path.name, folder=case.folder, repo=case.repo, refuse=case.refuse)
    try:
        data = case.path.read_bytes()
    except OSError as exc:
        return Outcome(**kwargs, right=False, why=f"not here: {exc.strerror}", seconds=0.0)
    try:
        result = parse_bytes(data, source=str(case.path))
    except ParseError as exc:
        seconds = time.perf_counter() - started
        message = " ".join(str(exc).split())
        if case.refuse:
            return Outcome(**kwargs, right=True, why=message, seconds=seconds)
        return Outcome(**kwargs, right=False, why=f"refused: {message}", seconds=seconds)
    seconds = time.perf_counter() - started
    events = result_to_json(result)["events"]
    if case.refuse:
        sizes = [len(e["units"]) for e in events]
        return Outcome(**kwargs, right=False,
                       why=f"loaded {len(events)} events {sizes[:6]}; want refused "
                           f"({case.truth['refuse']})", seconds=seconds)
    if "games" in case.truth:
        why = _compare_games(case.truth, events)
    else:
        why = _compare_events(case.truth, events)
    return Outcome(**kwargs, right=not why, why=why, seconds=seconds)


def check_all(selected: Sequence[Case], jobs: int = 1) -> list[Outcome]:
    if jobs <= 1:
        return [check(c) for c in selected]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(check, selected, chunksize=4))


# ---------------------------------------------------------------- reporting

def _share(outcomes: Sequence[Outcome]) -> str:
    right = sum(o.right for o in outcomes)
    return f"{right}/{len(outcomes)} ({100 * right / len(outcomes):.1f}%)" if outcomes else "-"


def summary(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    results = [o for o in outcomes if not o.refuse]
    refusals = [o for o in outcomes if o.refuse]
    repos = {o.repo for o in results if o.repo}
    per_repo: dict[str, int] = defaultdict(int)
    for o in results:
        per_repo[o.repo] += 1
    return {
        "results": len(results),
        "results_right": sum(o.right for o in results),
        "nonresults": len(refusals),
        "nonresults_refused": sum(o.right for o in refusals),
        "repositories": len(repos),
        "largest_repository": max(per_repo.items(), key=lambda kv: kv[1], default=("", 0)),
    }


def _table(title: str, groups: dict[str, list[Outcome]]) -> list[str]:
    lines = [f"{title:<44} {'results right':>20} {'refused right':>16}"]
    for key in sorted(groups):
        group = groups[key]
        lines.append(f"{key[:44]:<44} {_share([o for o in group if not o.refuse]):>20} "
                     f"{_share([o for o in group if o.refuse]):>16}")
    return lines


def report(outcomes: Sequence[Outcome], misses: bool = False) -> str:
    by_folder: dict[str, list[Outcome]] = defaultdict(list)
    by_repo: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_folder[o.folder].append(o)
        by_repo[o.repo or "(no source line)"].append(o)
    s = summary(outcomes)
    lines = _table("format (folder)", by_folder) + [""] + _table("repository", by_repo) + [""]
    lines.append(
        f"result files read right: {s['results_right']}/{s['results']} "
        f"({100 * s['results_right'] / max(1, s['results']):.1f}%) from {s['repositories']} "
        f"repositories (largest: {s['largest_repository'][0]}, {s['largest_repository'][1]})")
    lines.append(f"non-result files refused: {s['nonresults_refused']}/{s['nonresults']}")
    slow = sorted(outcomes, key=lambda o: -o.seconds)[:3]
    lines.append("slowest: " + ", ".join(f"{o.file} {o.seconds:.2f} s" for o in slow))
    if misses:
        lines.append("")
        for o in outcomes:
            if not o.right:
                lines.append(f"MISS {o.folder}/{o.file} [{o.repo}]: {o.why[:300]}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--folder", action="append", help="only this folder (repeatable)")
    parser.add_argument("--misses", action="store_true", help="list every file read wrong")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    outcomes = check_all(cases(FIELD, args.folder), jobs=args.jobs)
    print(report(outcomes, misses=args.misses))
    print(f"{len(outcomes)} files in {time.perf_counter() - started:.1f} s")
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1,
                                        ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
