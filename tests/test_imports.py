"""The import graph of the project's own packages: no cycles, and the command line on top.

Every ``import`` and ``from ... import`` of every module counts, at module level and inside
functions alike (an import moved into a function to dodge a cycle is still a cycle); only the
imports under ``if TYPE_CHECKING:`` are left out, as they never run. ``from package import name``
is an edge to the module ``package.name`` when there is one, else to the package. The import of
a package's ``__init__`` that Python makes before any of its modules is not an edge of its own:
a package importing its modules is how a package is made.
"""

from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _packages() -> list[str]:
    """The top-level packages pyproject.toml installs (``parsers*``, ``cli*``, ...)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted({p.rstrip("*").split(".")[0] for p in patterns})


def _modules() -> dict[str, Path]:
    """Every module of those packages by dotted name (a package is its ``__init__.py``)."""
    found = {}
    for package in _packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _known(name: str) -> str | None:
    """``name`` or its longest prefix that is one of our modules."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, path: Path) -> None:
        self.module = module
        self.package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):  # never runs: only its else branch counts
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(_known(alias.name))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[:len(base) - (node.level - 1)]
            base_name = ".".join(base + ([node.module] if node.module else []))
        else:
            base_name = node.module or ""
        for alias in node.names:
            sub = f"{base_name}.{alias.name}"
            self._add(sub if sub in MODULES else _known(base_name))

    def _add(self, target: str | None) -> None:
        if target is not None and target != self.module:
            self.found.add(target)


@functools.cache
def _graph() -> dict[str, set[str]]:
    graph = {}
    for module, path in MODULES.items():
        visitor = _Imports(module, path)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        graph[module] = visitor.found
    return graph




def _components(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan): the modules that
    import each other, directly or round about."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return components


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each component, as the modules in import order, the first repeated
    at the end."""
    return [_path_round(graph, component) for component in _components(graph)]


def _path_round(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest way from the component's first module back to itself (breadth first)."""
    start = min(component)
    previous: dict[str, str] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & component):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [start, *reversed(path[:-1]), start] if node != start else [start, start]
            if target not in previous:
                previous[target] = node
                queue.append(target)
    raise AssertionError(f"no way round {sorted(component)}")  # a component always has one


def test_the_graph_sees_the_imports() -> None:
    """The walk finds imports at module level, inside functions and relative ones."""
    assert {"cli._common", "cli.run", "cli.files"} <= _graph()["cli.app"]
    assert "flows.core" in _graph()["cli._common"]  # inside a function
    assert "flows._lock" in _graph()["flows.core"]  # from ._lock import run_lock


def test_finds_a_cycle_and_names_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]


def test_no_import_cycles() -> None:
    cycles = [f"{' -> '.join(_path_round(_graph(), c))} "
              f"(modules in the cycle: {', '.join(sorted(c))})" for c in _components(_graph())]
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def test_nothing_outside_cli_imports_it() -> None:
    outside = sorted(f"{module} imports {target}" for module, targets in _graph().items()
                     if module.split(".")[0] != "cli"
                     for target in targets if target.split(".")[0] == "cli")
    assert outside == []


def test_command_modules_import_only_the_common_helpers() -> None:
    """cli/_common.py is below every command module; a command module imports no other one,
    and only cli/app.py (with ``python -m cli``) sees them all."""
    top = {"cli", "cli.__main__", "cli.app"}
    assert {m for m in _graph()["cli._common"] if m.split(".")[0] == "cli"} == set()
    for module in sorted(set(MODULES) - top - {"cli._common"}):
        if module.split(".")[0] != "cli":
            continue
        assert {m for m in _graph()[module] if m.split(".")[0] == "cli"} <= {"cli._common"}, module
