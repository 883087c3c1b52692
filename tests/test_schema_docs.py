"""docs/schema.md is what the migrations say now (python -m warehouse._schema), and every
table, view and column of the warehouse has a description (COMMENT ON in a migration)."""

from __future__ import annotations

from warehouse import _schema
from warehouse._db import open_warehouse


def test_every_table_view_and_column_is_described() -> None:
    with open_warehouse(":memory:") as wh:
        found = _schema.relations(wh)
    names = {r.name for r in found}
    assert {"events", "ratings", "active_events", "edition_entries", "player_history",
            "schema_migrations"} <= names
    missing = _schema.missing_descriptions(found)
    assert not missing, (
        "no description; add COMMENT ON TABLE|VIEW|COLUMN ... IS '...' to the migration "
        "(a CREATE OR REPLACE VIEW drops the view's comments): " + ", ".join(missing))


def test_schema_page_is_up_to_date() -> None:
    text, _ = _schema.schema_markdown()
    assert _schema.DOC_PATH.read_text(encoding="utf-8") == text, (
        "docs/schema.md differs from what the migrations make: run "
        ".venv/bin/python -m warehouse._schema")


def test_the_page_has_a_line_for_every_column() -> None:
    text = _schema.DOC_PATH.read_text(encoding="utf-8")
    with open_warehouse(":memory:") as wh:
        for rel in _schema.relations(wh):
            assert f"### {rel.name}\n" in text
            section = text.split(f"### {rel.name}\n", 1)[1].split("\n### ", 1)[0]
            for col in rel.columns:
                assert f"| `{col.name}` |" in section, f"{rel.name}.{col.name}"
