"""The layers keep to their parts (docs/architecture.md): SQL is written in warehouse/ only;
everything else asks the warehouse's named queries and writers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = ("cli", "flows", "parsers", "ratings", "publishing", "quality", "games", "identity",
           "tournaments", "scraping")
SQL = re.compile(r"^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|"
                 r"CREATE\s+(OR\s+REPLACE\s+)?(TABLE|VIEW)\s|WITH\s+\w+\s+AS\s|COPY\s|"
                 r"ATTACH\s|DROP\s+(TABLE|VIEW)\s|ALTER\s+TABLE\s)")
"""The start of a SQL statement, written in capitals as the project writes SQL."""


def _sources() -> list[Path]:
    return sorted(p for package in OUTSIDE if (ROOT / package).is_dir()
                  for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def test_no_sql_outside_the_warehouse() -> None:
    """No string that starts like a SQL statement, and no use of the warehouse's connection
    (``.con``) or its raw ``query``, outside warehouse/."""
    found: list[str] = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and SQL.match(node.value):
                found.append(f"{_where(path, node)} SQL text {node.value[:40]!r}")
            elif isinstance(node, ast.JoinedStr) and node.values \
                    and isinstance(node.values[0], ast.Constant) \
                    and SQL.match(str(node.values[0].value)):
                found.append(f"{_where(path, node)} SQL text "
                             f"{str(node.values[0].value)[:40]!r}")
            elif isinstance(node, ast.Attribute) and node.attr in ("con", "query") \
                    and isinstance(node.value, ast.Name) and node.value.id in ("wh", "self"):
                found.append(f"{_where(path, node)} {node.value.id}.{node.attr}")
    assert not found, "\n".join(found)


def test_a_named_query_fails_as_a_warehouse_error_naming_it(tmp_path: Path) -> None:
    """A DuckDB error inside a named query reaches the caller as a WarehouseError that names
    the question, never as a DuckDB exception."""
    import duckdb
    import pytest

    from warehouse import Warehouse, WarehouseError
    from warehouse.reporting import unrated_events

    broken = Warehouse(duckdb.connect(str(tmp_path / "not-a-warehouse.duckdb")),
                       tmp_path / "not-a-warehouse.duckdb")
    with broken, pytest.raises(WarehouseError, match=r"^warehouse: unrated_events: "):
        unrated_events(broken)
