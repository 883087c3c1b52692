"""Regenerate the golden files ``fixtures/**/<case>.expected.json`` from ``<case>.<ext>``.

    python scripts/update_golden.py              # every existing golden pair
    python scripts/update_golden.py FILE...      # create or refresh the pairs of these inputs

Each input is parsed with the format that detection picks (leniently, so issues are recorded),
and written as ``parsers.result_to_json`` with sorted keys. When that format refuses the file
(a ``ParseError``, e.g. a seating list that has no results), the expected file records the
refusal instead: ``{"error": {"message": ..., "type": ...}, "format": ...}``. Review the diff
before committing: a changed expected file is a changed parser behaviour.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from parsers import ParseError, detect_format, result_to_json  # noqa: E402

FIXTURES = ROOT / "fixtures"
SUFFIX = ".expected.json"


def expected_for(source: Path) -> Path:
    """``fixtures/x/case.html`` -> ``fixtures/x/case.expected.json``."""
    return source.with_name(source.name.rsplit(".", 1)[0] + SUFFIX)


def source_path(expected: Path) -> Path:
    """The one input file beside ``expected`` with the same case name."""
    case = expected.name.removesuffix(SUFFIX)
    candidates = [
        p for p in expected.parent.iterdir()
        if p.is_file() and p.name.startswith(case + ".") and not p.name.endswith(SUFFIX)
        and "." not in p.name[len(case) + 1:]
    ]
    if len(candidates) != 1:
        raise SystemExit(f"{expected}: expected one input file named {case}.<ext>, "
                         f"found {[p.name for p in candidates]}")
    return candidates[0]


def render(source: Path) -> str:
    """The expected-file text for ``source``: what the golden test compares against.

    A file no format recognises raises ``UnknownFormat``; a file the detected format refuses
    gives the error form (see the module docstring).
    """
    data = source.read_bytes()
    fmt = detect_format(data, source.name)
    expected: dict[str, object]
    try:
        expected = result_to_json(fmt.parse(data, source=source.name))
    except ParseError as exc:
        expected = {"error": {"message": str(exc), "type": type(exc).__name__},
                    "format": fmt.name}
    return json.dumps(expected, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="*", type=Path,
                        help="input files to (re)generate; default: every existing golden pair")
    args = parser.parse_args(argv)
    sources = [p.resolve() for p in args.inputs] or [
        source_path(p) for p in sorted(FIXTURES.glob(f"**/*{SUFFIX}"))
    ]
    status = 0
    for source in sources:
        target = expected_for(source)
        try:
            text = render(source)
        except ParseError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 1
            continue
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old != text:
            target.write_text(text, encoding="utf-8")
        state = "unchanged" if old == text else ("created" if old is None else "updated")
        refused = json.loads(text).get("error")
        note = f" (expects {refused['type']}: {refused['message']})" if refused else ""
        print(f"{state}: {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}"
              f"{note}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
