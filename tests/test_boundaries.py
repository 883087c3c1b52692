"""Layer boundaries (ARCHITECTURE.md) and deliberate public names."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"parsers", "ratings", "warehouse", "flows", "publishing", "quality", "games", "cli",
        "tournaments", "scraping"}
ALLOWED = {
    "games": set(),
    "parsers": {"games"},
    "ratings": set(),
    "warehouse": {"parsers", "games", "ratings"},
    "publishing": {"warehouse", "games", "ratings"},
    "quality": {"parsers", "ratings", "warehouse"},
    "scraping": {"parsers", "warehouse"},
    "flows": {"parsers", "ratings", "warehouse", "publishing", "games", "scraping"},
    "tournaments": {"parsers", "ratings"},
    "cli": {"flows", "parsers", "ratings", "warehouse", "publishing", "quality", "games",
            "tournaments"},
}
"""docs/architecture.md: each package may import the packages below it, and nothing imports
the command line. The two registries of declarations, ``games`` and the schemes
(``ratings.SCHEMES``), import nothing of ours and load no pandas: every layer asks them instead
of testing a name, so ``parsers`` asks the game (the gate) and ``warehouse`` and ``publishing``
ask the scheme registry, and only it (:data:`REGISTRY_ONLY`). ``tournaments`` sits beside the
core: it reads OpenGotha files through ``parsers`` and the grade scale from ``ratings``, and
only the command line imports it. ``scraping`` sits beside the core as well: only ``flows``
imports it (and hands it the settings read from sources.toml); it takes the formats' file
suffixes from ``parsers`` and the atomic writer from ``warehouse``."""


REGISTRY_ONLY = {"warehouse": {"SCHEMES"}, "publishing": {"SCHEMES"}}
"""What a package that may not rate takes from ``ratings``: the scheme registry's names."""


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


@pytest.mark.parametrize("package", sorted(REGISTRY_ONLY))
def test_a_package_that_does_not_rate_takes_only_the_scheme_registry(package: str) -> None:
    bad = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                bad += [f"{path.relative_to(ROOT)}:{node.lineno} imports {a.name}"
                        for a in node.names if a.name.split(".")[0] == "ratings"]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] == "ratings":
                names = {a.name for a in node.names}
                if node.module != "ratings" or names - REGISTRY_ONLY[package]:
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports "
                               f"{sorted(names)} from {node.module}")
    assert bad == []


@pytest.mark.parametrize("package", sorted(OURS))
def test_exported_members_exist(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.__all__ names missing {name}"


def test_parsers_import_no_io_libraries() -> None:
    for path in (ROOT / "parsers").rglob("*.py"):
        assert not _imports(path) - {"parsers", "games"}
        text = path.read_text(encoding="utf-8")
        assert "import duckdb" not in text and "import prefect" not in text, path


def _flows_imports(path: Path) -> list[tuple[int, str]]:
    """Every import of ``flows`` in a file, as (line, what): ``flows._x``, ``flows.core``, or
    ``flows:name`` for a name taken from the package (type-checking imports included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names
                      if a.name.split(".")[0] == "flows"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "flows":
            if node.module == "flows":
                found += [(node.lineno, f"flows:{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def test_the_command_line_uses_only_the_public_names_of_flows() -> None:
    """cli/ imports what ``flows/__init__.py`` exports (``__all__``) and the public modules
    (``flows.core``, ``flows.pipeline``), never a private module (``flows._x``)."""
    import flows

    bad = []
    for path in sorted((ROOT / "cli").rglob("*.py")):
        for line, what in _flows_imports(path):
            name = what.removeprefix("flows:")
            private = any(part.startswith("_") for part in what.replace(":", ".").split(".")[1:])
            if private or (what.startswith("flows:") and name not in flows.__all__):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {what}")
    assert bad == []


def test_the_check_of_flows_imports_sees_private_modules(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text("import flows._lock\nfrom flows._report import RunLog\n"
                      "from flows import _steps, load_config\n", encoding="utf-8")
    assert _flows_imports(source) == [(1, "flows._lock"), (2, "flows._report"),
                                      (3, "flows:_steps"), (3, "flows:load_config")]
