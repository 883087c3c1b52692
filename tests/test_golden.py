"""Golden fixture pairs: ``fixtures/<source>/<case>.<ext>`` beside ``<case>.expected.json``.

One test per pair. Only inputs with an expected file are golden cases. Regenerate the expected
files with ``python scripts/update_golden.py`` and review the diff.

An expected file can also record a refusal, for files a format recognises but cannot turn into
events: ``{"error": {"message": "...", "type": "UnsupportedVariant"}, "format": "<name>"}``. Then
detection must pick that format and parsing must raise that exception type with that message.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import parsers
from parsers import FORMATS, ParseError, detect_format, result_to_json

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SUFFIX = ".expected.json"
CASES = sorted(FIXTURES.glob(f"**/*{SUFFIX}"))


def _source(expected: Path) -> Path:
    case = expected.name.removesuffix(SUFFIX)
    candidates = [
        p for p in expected.parent.iterdir()
        if p.is_file() and p.name.startswith(case + ".") and not p.name.endswith(SUFFIX)
        and "." not in p.name[len(case) + 1:]
    ]
    assert len(candidates) == 1, f"{expected.name}: want one input {case}.<ext>, got {candidates}"
    return candidates[0]


def _differences(expected: Any, actual: Any, path: str = "") -> Iterator[str]:
    """Every field where ``actual`` differs from ``expected``, as ``events[0].units[3].score``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(expected.keys() | actual.keys()):
            where = f"{path}.{key}" if path else key
            if key not in actual:
                yield f"{where}: missing (expected {expected[key]!r})"
            elif key not in expected:
                yield f"{where}: unexpected field (got {actual[key]!r})"
            else:
                yield from _differences(expected[key], actual[key], where)
    elif isinstance(expected, list) and isinstance(actual, list):
        for index, (want, got) in enumerate(zip(expected, actual)):
            yield from _differences(want, got, f"{path}[{index}]")
        if len(expected) != len(actual):
            yield f"{path}: expected {len(expected)} items, got {len(actual)}"
    elif type(expected) is not type(actual) or expected != actual:
        yield f"{path}: expected {expected!r}, got {actual!r}"


def _assert_refused(fmt: str, data: bytes, name: str, error: dict[str, str]) -> None:
    """Parsing with ``fmt`` raises exactly the recorded exception type and message."""
    assert set(error) == {"message", "type"}, f"error form wants message and type: {error}"
    expected_type = getattr(parsers, error["type"], None)
    assert isinstance(expected_type, type) and issubclass(expected_type, ParseError), (
        f"{error['type']!r} is not a ParseError of the parsers package"
    )
    with pytest.raises(ParseError) as raised:
        FORMATS[fmt].parse(data, source=name)
    assert type(raised.value) is expected_type, (
        f"raised {type(raised.value).__name__}, expected {error['type']}: {raised.value}"
    )
    assert str(raised.value) == error["message"]


def test_there_are_golden_cases_for_every_format() -> None:
    covered = set()
    for expected in CASES:
        data = json.loads(expected.read_text(encoding="utf-8"))
        if "error" in data:
            covered.add(data["format"])
        else:
            covered |= {event["format"] for event in data["events"]}
    assert covered == set(FORMATS)


@pytest.mark.parametrize("expected_path", CASES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_golden(expected_path: Path) -> None:
    source = _source(expected_path)
    data = source.read_bytes()
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    if "error" in expected:
        recorded = {expected["format"]}
    else:
        recorded = {event["format"] for event in expected["events"]}
    assert len(recorded) == 1, f"expected file names several formats: {recorded}"
    (fmt,) = recorded

    claimed = [
        f.name for f in FORMATS.values()
        if f.detect(data, source.name) and (not f.fallback or f.name == fmt)
    ]
    assert claimed == [fmt], f"formats claiming {source.name}: {claimed}, recorded: {fmt}"
    assert detect_format(data, source.name).name == fmt

    if "error" in expected:
        _assert_refused(fmt, data, source.name, expected["error"])
        return
    result = FORMATS[fmt].parse(data, source=source.name)
    actual = json.loads(json.dumps(result_to_json(result), ensure_ascii=False))
    differences = list(_differences(expected, actual))
    assert not differences, "\n".join(differences)


@pytest.mark.parametrize("expected_path", CASES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_golden_file_is_as_the_script_writes_it(expected_path: Path) -> None:
    text = expected_path.read_text(encoding="utf-8")
    canonical = json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert text == canonical, "regenerate with scripts/update_golden.py"


def test_differences_name_the_field() -> None:
    expected = {"events": [{"units": [{"players": [{"federation_id": "06543"}]}]}]}
    actual = {"events": [{"units": [{"players": [{"federation_id": "6543"}]}]}]}
    assert list(_differences(expected, actual)) == [
        "events[0].units[0].players[0].federation_id: expected '06543', got '6543'"
    ]
    assert list(_differences({"place": 1.0}, {"place": 1})) == [
        "place: expected 1.0, got 1"
    ]


def test_a_refusal_must_match_type_and_message() -> None:
    data = (FIXTURES / "cobalt_session" / "cobalt_club_session_basic.csv").read_bytes()
    name = "cobalt_club_session_basic.csv"
    with pytest.raises(AssertionError, match="raised NoResults, expected MalformedFile"):
        _assert_refused("cobalt_session", data, name, {"message": "x", "type": "MalformedFile"})
    with pytest.raises(AssertionError):
        _assert_refused("cobalt_session", data, name,
                        {"message": "another message", "type": "UnsupportedVariant"})
