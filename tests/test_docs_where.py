"""The docs that say where a change goes name files and names that exist.

docs/architecture.md "Where a change goes", docs/site.md "Adding a list column" and
docs/scraping.md "Where the code is" send a newcomer to files and to what is in them. Each file
path they name (``parsers/_near.py``, ``fixtures/<format>/``: the part before a placeholder)
must exist; a name written right after a file (``publishing/_lists.py`` ``list_rows``,
``ratings/_registry.py`` ``Scheme.reads``, ``warehouse/_runs.py`` (as ``games_frame``, ...))
must be defined in that file, and so must a name written ``list_rows`` in
``publishing/_lists.py``; a dotted name of one of the project's packages
(``ratings.SCHEMES``) must be importable.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SECTIONS = (
    ("docs/architecture.md", "## Where a change goes"),
    ("docs/site.md", "## Adding a list column"),
    ("docs/scraping.md", "## Where the code is"),
)

PATH = re.compile(r"(?<![\w/.<>-])((?:[A-Za-z_][\w.-]*|<\w+>)/(?:[\w.*<>-]+/?)*)")
"""A path of the repository as the docs write it: ``flows/_steps.py``, ``docs/rules/``,
``fixtures/<format>/<case>.<ext>`` (``<...>`` a placeholder)."""
ROOT_FILE = re.compile(r"`([A-Z]+\.md)`")
"""A file at the top of the repository: ``README.md``."""
_IDENTIFIER = r"(?![\w.]*\.(?:py|md|js|html|css|json|toml)`)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
NAMED = re.compile(r"`?((?:[\w.-]+/)+[\w.-]+\.\w+|[A-Z]+\.md)`?"
                   rf"((?:\s+\(?(?:as\s+)?`{_IDENTIFIER}(?:\(\))?`(?:,|\s+and)?)+)")
"""A file followed by the names in it: ``a.py` `f```, ``a.py` `f`, `g` and `h```,
``a.py` (as `f`, `g`)``."""
IN_FILE = re.compile(rf"`({_IDENTIFIER})(?:\(\))?`\s+in\s+`((?:[\w.-]+/)+[\w.-]+\.\w+)`")
"""A name and the file it is in: ``f` in `a.py``."""
NAME = re.compile(r"`([\w.]+?)(?:\(\))?`")
DOTTED = re.compile(r"`([a-z_]+(?:\.[A-Za-z_]\w*)+)`")
"""A dotted name: ``ratings.SCHEMES``, ``warehouse._errors.translated``."""


@dataclass(frozen=True)
class Reference:
    doc: str
    line: int
    what: str


def section(doc: str, heading: str) -> tuple[str, int]:
    """The text of a section (up to the next heading of its level) and its first line."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    start = text.index(heading + "\n")
    level = heading.split()[0]
    end = text.find(f"\n{level} ", start + len(heading))
    return text[start:end if end >= 0 else len(text)], text.count("\n", 0, start) + 1


def _packages() -> set[str]:
    return {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}


def problems(text: str, doc: str = "doc", first_line: int = 1) -> list[str]:
    """Every file, name in a file and dotted name of ``text`` that does not exist."""
    found: list[str] = []

    def where(offset: int) -> str:
        return f"{doc}:{first_line + text.count(chr(10), 0, offset)}"

    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".")
        first = path.split("/")[0]
        looks_like_file = bool(re.search(r"\.\w+$", path.split("/")[-1]))
        if not (path.endswith("/") or looks_like_file or (ROOT / first).exists()):
            continue  # "and/or": not a path
        known = path.split("<")[0]
        if not (ROOT / known).exists():
            found.append(f"{where(match.start())}: no file or folder {path}")
    for match in ROOT_FILE.finditer(text):
        if not (ROOT / match.group(1)).is_file():
            found.append(f"{where(match.start())}: no file {match.group(1)}")
    for match in NAMED.finditer(text):
        path = ROOT / match.group(1)
        for name in NAME.findall(match.group(2)):
            if path.is_file() and not defines(path, name):
                found.append(f"{where(match.start())}: {match.group(1)} defines no {name}")
    for match in IN_FILE.finditer(text):
        path = ROOT / match.group(2)
        if path.is_file() and not defines(path, match.group(1)):
            found.append(f"{where(match.start())}: {match.group(2)} defines no {match.group(1)}")
    packages = _packages()
    for match in DOTTED.finditer(text):
        dotted = match.group(1)
        if dotted.split(".")[0] in packages and not importable(dotted):
            found.append(f"{where(match.start())}: no {dotted}")
    return found


def defines(path: Path, name: str) -> bool:
    """Whether ``path`` defines ``name`` at its top level (a function, class or assignment;
    ``Class.member`` inside the class); a file that is not Python: names it."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) is not None
    body: list[ast.stmt] = ast.parse(text).body
    *outer, last = name.split(".")
    for part in outer:
        classes = [n for n in body if isinstance(n, ast.ClassDef) and n.name == part]
        if not classes:
            return False
        body = classes[0].body
    return last in _names(body)


def _names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def importable(dotted: str) -> bool:
    """Whether ``dotted`` is a module of ours, or a name in one (its longest module prefix)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(value, attribute):
                return False
            value = getattr(value, attribute)
        return True
    return False


@pytest.mark.parametrize(("doc", "heading"), SECTIONS, ids=[d for d, _ in SECTIONS])
def test_every_file_and_name_the_section_names_exists(doc: str, heading: str) -> None:
    text, first_line = section(doc, heading)
    assert PATH.search(text), f"{doc} {heading!r} names no file"
    assert problems(text, doc, first_line) == []


def test_the_check_finds_a_missing_file_a_missing_name_and_a_missing_module() -> None:
    text = """- **A change:** `parsers/_near.py` `_SIGNATURES` and `resemblances`, `README.md`,
  parsers/_nowhere.py, `fixtures/<format>/`, `nowhere/<format>/`, `publishing/_lists.py`
  `list_columns`, `ratings/_registry.py` `Scheme.reads` and `Scheme.writes`,
  `warehouse/_runs.py` (as `games_frame`, `no_frame`), and/or `ratings.SCHEMES`,
  `ratings.NO_SUCH`, `publishing/templates/site/site.js` `numeric`, `NOWHERE.md`,
  `list_rows` in `publishing/_lists.py`, `EditionRow` in `publishing/_site.py` (imported there).
"""
    assert problems(text) == [
        "doc:2: no file or folder parsers/_nowhere.py",
        "doc:2: no file or folder nowhere/<format>/",
        "doc:5: no file NOWHERE.md",
        "doc:2: publishing/_lists.py defines no list_columns",
        "doc:3: ratings/_registry.py defines no Scheme.writes",
        "doc:4: warehouse/_runs.py defines no no_frame",
        "doc:6: publishing/_site.py defines no EditionRow",
        "doc:5: no ratings.NO_SUCH",
    ]
