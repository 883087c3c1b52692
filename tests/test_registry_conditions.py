"""No code outside a registry tests a game or a scheme by its name (docs/architecture.md, "One
registry per concept"): every condition asks the game (``games.game(name)``) or the scheme
(``ratings.SCHEMES[name]``) for what it means instead.

The scan reads every package of the project but ``games`` and the scheme registry
(ratings/_registry.py, ratings/_params.py) with ``ast`` and finds a game's or a scheme's name
(taken from the registries) compared in a condition -- ``==``, ``!=``, ``in``, ``not in``,
``match``/``case``, ``.startswith`` / ``.endswith``, pyarrow's ``equal`` / ``not_equal`` /
``is_in`` -- or written into a SQL filter (``game = 'go'``, ``scheme IN ('whr', ...)``). A
dictionary keyed by names (a default, a fixture, a text) is data, not a condition."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from games import GAMES
from ratings import SCHEMES

ROOT = Path(__file__).resolve().parents[1]
REGISTRIES = {"games", "ratings/_registry.py", "ratings/_params.py"}
"""Where games and schemes are declared: the only places a name may decide something."""
NAMES = frozenset(GAMES) | frozenset(SCHEMES)
_QUOTED = "|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True))
SQL_NAME = re.compile(
    rf"\b(?:game|scheme)\s*(?:=|<>|!=|\bIN\b|\bNOT\s+IN\b)\s*\(?[^)]*?'(?:{_QUOTED})'",
    re.IGNORECASE)
"""A SQL filter naming a game or a scheme: ``e.game = 'go'``, ``game IN ('go', 'preferans')``."""
_CALLS = {"startswith", "endswith", "equal", "not_equal", "is_in", "index_in"}
"""Calls that compare with their argument: ``str.startswith``, pyarrow's ``pc.equal``."""


def _packages() -> list[Path]:
    return sorted(p.parent for p in ROOT.glob("*/__init__.py")
                  if p.parent.name not in ("tests", "games"))


def _sources() -> Iterator[Path]:
    for package in _packages():
        for path in sorted(package.rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "__pycache__" not in path.parts and relative not in REGISTRIES:
                yield path


def _named(node: ast.AST | None) -> str | None:
    """The game or scheme name ``node`` writes: a string literal, or one inside a literal
    tuple, list or set (``x in ("go", "preferans")``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES:
        return node.value
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return next((n for n in map(_named, node.elts) if n), None)
    return None


def _findings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for each condition on a name in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if name := _named(side):
                    yield node.lineno, f"compares with {name!r}"
        elif isinstance(node, ast.Call):
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else \
                function.id if isinstance(function, ast.Name) else ""
            if called in _CALLS:
                arguments = [*node.args, *(k.value for k in node.keywords)]
                if name := next((n for n in map(_named, arguments) if n), None):
                    yield node.lineno, f"{called}({name!r})"
        elif isinstance(node, ast.match_case):
            for pattern in ast.walk(node.pattern):
                if isinstance(pattern, ast.MatchValue) and (name := _named(pattern.value)):
                    yield pattern.lineno, f"case {name!r}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and (found := SQL_NAME.search(node.value)):
            line = node.lineno + node.value[:found.start()].count("\n")
            yield line, f"SQL {found.group(0)!r}"


def _conditions() -> list[str]:
    return [f"{path.relative_to(ROOT).as_posix()}:{line} {what}"
            for path in _sources()
            for line, what in _findings(ast.parse(path.read_text(encoding="utf-8")))]


def test_no_condition_outside_the_registries_names_a_game_or_a_scheme() -> None:
    assert _conditions() == []


def test_the_scan_reads_every_package_but_the_registries() -> None:
    scanned = {p.name for p in _packages()}
    assert {"cli", "flows", "parsers", "publishing", "quality", "ratings", "tournaments",
            "warehouse"} <= scanned
    assert not {"games", "tests"} & scanned
    files = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert "ratings/_whr.py" in files and "ratings/_registry.py" not in files


def _found(source: str) -> list[tuple[int, str]]:
    return sorted(_findings(ast.parse(source)))


def test_the_scan_finds_each_way_of_naming_a_game_or_a_scheme() -> None:
    source = '''
if event.game == "go": pass
if "preferans" != game: pass
if games.get(pool) in ("go", "preferans"): pass
if scheme.startswith("rfg"): pass
other = pc.not_equal(pc.utf8_lower(game), "bridge")
match run.scheme:
    case "whr": pass
query = """
    SELECT * FROM events e
    WHERE e.game = 'go' AND e.parent <> ''
"""
wh.query(f"SELECT 1 FROM rating_runs WHERE scheme IN ('belo', 'whr') AND run_id = {run}")
'''
    assert _found(source) == [
        (2, "compares with 'go'"),
        (3, "compares with 'preferans'"),
        (4, "compares with 'go'"),
        (5, "startswith('rfg')"),
        (6, "not_equal('bridge')"),
        (8, "case 'whr'"),
        (11, "SQL \"game = 'go'\""),
        (13, "SQL \"scheme IN ('belo'\""),
    ]


def test_data_keyed_by_names_is_no_condition() -> None:
    source = '''
DEFAULTS = {"bridge": "belo2", "go": "rfg"}
pool = PoolConfig(name="go", game="go", scheme="rfg")
label = {"go": "games"}.get(kind, "events")
words = ("go", "igo", "baduk")
if word in words: pass
if order == "surname-first": pass
'''
    assert _found(source) == []
