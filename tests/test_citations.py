"""No file of the repository cites a document that is not in it: every rule is explained in
docs/rules/, and every `docs/...md` path named anywhere exists, with the section cited."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = re.compile(r"\.(py|md|html|toml|yaml|yml|sh|js|css|sql|txt|json|cfg)$")
OUTSIDE = re.compile(r"(?<![\w/.-])(spec/[\w-]+\.md|\.\./shared\b|seeds/\d{3})")
DOC = re.compile(r"(?<![\w/.-])(docs/[\w/-]+\.md)(?:\s+(§\s?\d+|\"[^\"\n]+\"))?")


def _files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in listed.split() if TEXT.search(f) and (ROOT / f).is_file()]


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        return []


def _sections(doc: Path) -> tuple[set[str], list[str]]:
    """A rules file's numbered sections (``## 13. Explanations``) and its headings."""
    headings = [line.lstrip("#").strip() for line in _lines(doc) if line.startswith("#")]
    numbers = {m.group(1) for h in headings if (m := re.match(r"(\d+)\.", h))}
    return numbers, headings


def test_no_file_cites_a_document_outside_the_repository() -> None:
    found = [f"{path.relative_to(ROOT)}:{i}: {m.group(1)}"
             for path in _files() if path.name != "test_citations.py"
             for i, line in enumerate(_lines(path), 1) for m in OUTSIDE.finditer(line)]
    assert found == []


def test_every_cited_document_and_section_exists() -> None:
    problems = []
    for path in _files():
        for i, line in enumerate(_lines(path), 1):
            for m in DOC.finditer(line):
                doc = ROOT / m.group(1)
                if not doc.is_file():
                    problems.append(f"{path.relative_to(ROOT)}:{i}: {m.group(1)} does not exist")
                    continue
                section = m.group(2)
                if section is None or not m.group(1).startswith("docs/rules/"):
                    continue
                numbers, headings = _sections(doc)
                if section.startswith("§"):
                    if section.lstrip("§ ") not in numbers:
                        problems.append(f"{path.relative_to(ROOT)}:{i}: {doc.name} has no "
                                        f"section {section}")
                elif not any(section.strip('"').lower() in h.lower() for h in headings):
                    problems.append(f"{path.relative_to(ROOT)}:{i}: {doc.name} has no "
                                    f"section {section}")
    assert problems == []


def test_every_scheme_has_its_rules_with_worked_numbers() -> None:
    for name in ("bridge-belo", "go-rfg", "go-mcmahon-levels", "preferans", "inputs",
                 "simulation", "gate"):
        text = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
        assert len(text) > 2000, name
        assert name in (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    for name in ("bridge-belo", "go-rfg", "go-mcmahon-levels", "preferans"):
        text = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
        assert re.search(r"\d+\.\d", text), name  # numbers worked through
