"""Layer boundaries (ARCHITECTURE.md) and deliberate public names."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"parsers", "ratings", "warehouse", "flows", "publishing", "quality", "games", "cli",
        "tournaments"}
ALLOWED = {
    "games": set(),
    "parsers": set(),
    "ratings": set(),
    "warehouse": {"parsers", "games"},
    "publishing": {"warehouse", "games"},
    "quality": {"parsers", "ratings", "warehouse"},
    "flows": {"parsers", "ratings", "warehouse", "publishing", "games"},
    "tournaments": {"parsers", "ratings"},
    "cli": {"flows", "parsers", "ratings", "warehouse", "publishing", "quality", "games",
            "tournaments"},
}
"""docs/architecture.md: each package may import the packages below it, and nothing imports
the command line. ``tournaments`` sits beside the core: it reads OpenGotha files through
``parsers`` and the grade scale from ``ratings``, and only the command line imports it."""


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & OURS


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_its_layer_may(package: str) -> None:
    for path in (ROOT / package).rglob("*.py"):
        bad = _imports(path) - ALLOWED[package] - {package}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("package", sorted(OURS))
def test_exported_members_exist(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.__all__ names missing {name}"


def test_parsers_import_no_io_libraries() -> None:
    for path in (ROOT / "parsers").rglob("*.py"):
        assert not _imports(path) - {"parsers"}
        text = path.read_text(encoding="utf-8")
        assert "import duckdb" not in text and "import prefect" not in text, path
