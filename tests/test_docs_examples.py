"""The documentation's examples, run: every fenced block of README.md, docs/*.md and
docs/rules/*.md marked runnable is executed against a scratch project on which
``clubratings run`` was done once (the bundled default configuration and fixtures).

A block is runnable when the line just before its opening fence is ``<!-- runnable -->``:

- ``sh`` / ``bash`` / ``console`` (or a block without a language whose first line starts with
  ``$ ``, read as ``console``): each command line (blank lines and ``#`` comments skipped,
  a trailing ``# comment`` allowed, ``\\`` continues a line, a leading ``$ `` stripped) runs with
  bash in a fresh copy of the scratch project, in order, with ``clubratings`` (and
  ``.venv/bin/clubratings``) resolving to this checkout's command (a plain ``clubratings ...``
  line, without pipes, redirections or shell words, is run in this process through the same
  ``cli.app.main``: the same command without two seconds of start-up); each must exit 0, or the
  code ``exit: N`` in its trailing comment names. In a ``console`` block the lines starting with ``$ `` are
  the commands and the other lines are the output they print: each of those lines must appear
  in that command's output (``...`` matches anything).
- ``sql``: each statement runs with duckdb against the project's ``data/clubratings.duckdb``
  opened read-only, and must return at least one row.
- ``toml``: parsed with tomllib; a whole configuration (``[paths]`` or ``[[pools]]``) is also
  loaded with the project's loader (flows/_config.py ``load_config``).

``<!-- runnable file=NAME -->`` before a block of any language makes it a file of the example:
its text is written to NAME in the scratch project of every later block of the same document
(e.g. a results CSV, then a block that rates it).

Each block is one test, named ``document:line`` (the line of its opening fence).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .conftest import DEFAULT_PROJECT_FILES

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "docs" / "rules").glob("*.md"))]

MARKER = re.compile(r"^\s*<!--\s*runnable(?P<options>(\s+[\w.-]+=\S+)*)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)")
SHELLS = {"sh", "bash", "console", "shell"}
COMMAND_TIMEOUT = 180


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    options: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks_of(doc: Path) -> list[Block]:
    """The runnable blocks of one Markdown file, in order."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence = opening["fence"]
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        marker = MARKER.match(lines[i - 1]) if i > 0 else None
        if marker:
            options = dict(o.split("=", 1) for o in marker["options"].split())
            indent = len(opening["indent"])
            body = "\n".join(line[indent:] if line[:indent].isspace() else line
                             for line in lines[i + 1:end])
            lang = opening["lang"].lower()
            if not lang and body.startswith("$ "):
                lang = "console"  # a plain block of a session: prompts and output
            found.append(Block(doc, i + 1, lang, body + "\n", options))
        i = end + 1
    return found


ALL = [block for doc in DOCS for block in blocks_of(doc)]
RUN = [block for block in ALL if "file" not in block.options]


def test_runnable_blocks_are_found() -> None:
    """Every marked block has a language the test runs (or is a file of the example)."""
    assert RUN, "no runnable blocks found"
    for block in ALL:
        if "file" not in block.options:
            assert block.lang in SHELLS | {"sql", "toml"}, \
                f"{block.id}: a runnable block must be sh, bash, console, sql or toml"


# ---------------------------------------------------------------- the scratch project

@pytest.fixture(scope="session")
def scratch(default_run: Path) -> Path:
    """The bundled default, run once (tests/conftest.py ``default_run``): warehouse, lists,
    report, snapshot; with ``.venv/bin`` for the blocks that write ``.venv/bin/clubratings``."""
    assert all((default_run / name).exists() for name in DEFAULT_PROJECT_FILES)
    venv = default_run / ".venv"
    if not venv.exists():
        venv.mkdir()
        (venv / "bin").symlink_to(BIN)
    return default_run


def _env(project: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PREFECT_API_URL", "CLUBRATINGS_"))}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}"
    env["PREFECT_HOME"] = str(project / ".prefect")
    env.pop("VIRTUAL_ENV", None)
    return env


@pytest.fixture
def project(scratch: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A copy of the scratch project for one shell block, with the example files of the
    blocks before it in the same document (a SQL block reads the scratch project itself)."""
    block: Block = request.getfixturevalue("block")
    if block.lang == "sql":  # read-only: the scratch project itself
        yield scratch
        return
    dest = tmp_path / "project"
    if block.lang == "toml":  # only a folder to write the configuration into
        dest.mkdir()
        yield dest
        return
    shutil.copytree(scratch, dest, symlinks=True)
    for earlier in ALL:
        if earlier.doc == block.doc and earlier.line < block.line and "file" in earlier.options:
            target = dest / earlier.options["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(earlier.text, encoding="utf-8")
    yield dest


# ---------------------------------------------------------------- shell blocks

@dataclass
class Command:
    line: int  # in the document
    text: str
    exit: int = 0
    output: list[str] = field(default_factory=list)


_EXIT = re.compile(r"#.*\bexit:\s*(\d+)")


def commands_of(block: Block) -> list[Command]:
    """The commands of a shell block, continuation lines joined, comments and prompts taken
    off; in a console block the lines after a command are its expected output."""
    console = block.lang == "console" and any(
        line.startswith("$ ") for line in block.text.splitlines())
    commands: list[Command] = []
    pending: list[str] = []
    start = 0
    for k, raw in enumerate(block.text.splitlines()):
        line = raw.rstrip()
        if not pending:
            if console and not line.startswith("$ "):
                if line.strip() and commands:
                    commands[-1].output.append(line.strip())
                continue
            if line.startswith("$ "):
                line = line[2:]
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            start = block.line + 1 + k
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        pending.append(line)
        text = " ".join(part.strip() for part in pending)
        pending = []
        code = 0
        wanted = _EXIT.search(text)
        if wanted:
            code = int(wanted[1])
        commands.append(Command(start, text, code))
    assert not pending, f"{block.id}: the block ends in a continued line"
    return commands


def _matches(expected: str, output: str) -> bool:
    pattern = ".*".join(re.escape(" ".join(part.split())) for part in expected.split("..."))
    return any(re.search(pattern, " ".join(line.split())) for line in output.splitlines())


# what makes a line more than words for a command: pipes, lists, redirections, expansions
_SHELL = set("|&;<>()$`*?[]{}~!\\")
_CLI = ("clubratings", ".venv/bin/clubratings")


def in_process_args(text: str) -> list[str] | None:
    """The arguments of a plain ``clubratings ...`` line (a trailing comment allowed), or None
    where the line needs the shell."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return None
    if not words or words[0] not in _CLI or any(_SHELL & set(word) for word in words):
        return None
    return words[1:]


def _run_in_process(args: list[str], project: Path, env: dict[str, str]) -> tuple[int, str]:
    """``clubratings ARGS`` through ``cli.app.main`` in this process, in the project's folder
    with the command's environment; its exit code and what it printed."""
    from cli.app import main

    out = io.StringIO()
    saved_env, saved_cwd, saved_stdin = dict(os.environ), os.getcwd(), sys.stdin
    os.environ.clear()
    os.environ.update(env)
    os.chdir(project)
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return int(code or 0), out.getvalue()


def _run_shell(block: Block, project: Path) -> None:
    env = _env(project)
    for command in commands_of(block):
        where = f"{block.doc.relative_to(ROOT)}:{command.line}"
        args = in_process_args(command.text)
        if args is not None:
            code, out = _run_in_process(args, project, env)
        else:
            done = subprocess.run(["bash", "-c", command.text], cwd=project, env=env,
                                  text=True, capture_output=True, timeout=COMMAND_TIMEOUT,
                                  check=False)
            code, out = done.returncode, done.stdout + done.stderr
        assert code == command.exit, (
            f"{where}: `{command.text}` exited {code}, not {command.exit}:\n{out[-3000:]}")
        for expected in command.output:
            assert _matches(expected, out), \
                f"{where}: `{command.text}` did not print {expected!r}:\n{out[-3000:]}"


# ---------------------------------------------------------------- sql and toml blocks

def _run_sql(block: Block, project: Path) -> None:
    import duckdb

    statements = duckdb.extract_statements(block.text)
    assert statements, f"{block.id}: no SQL statement"
    con = duckdb.connect(str(project / "data" / "clubratings.duckdb"), read_only=True)
    try:
        for statement in statements:
            query = statement.query.strip()
            try:
                rows = con.execute(query).fetchall()
            except duckdb.Error as exc:
                pytest.fail(f"{block.id}: {exc}\n{query}")
            assert rows, f"{block.id}: no rows from\n{query}"
    finally:
        con.close()


def _run_toml(block: Block, project: Path) -> None:
    from flows._config import load_config

    try:
        data = tomllib.loads(block.text)
    except tomllib.TOMLDecodeError as exc:
        pytest.fail(f"{block.id}: not valid TOML: {exc}")
    if "paths" in data or "pools" in data:
        path = project / "docs-example.toml"
        path.write_text(block.text, encoding="utf-8")
        cfg = load_config(path)
        if "pools" in data:
            assert [p.name for p in cfg.pools] == [p["name"] for p in data["pools"]], block.id


# ---------------------------------------------------------------- the test

@pytest.mark.parametrize("block", RUN, ids=[b.id for b in RUN])
def test_doc_example_runs(block: Block, project: Path) -> None:
    if block.lang in SHELLS:
        _run_shell(block, project)
    elif block.lang == "sql":
        _run_sql(block, project)
    elif block.lang == "toml":
        _run_toml(block, project)
    else:
        pytest.fail(f"{block.id}: cannot run a {block.lang or 'plain'} block")


def test_readme_format_table_lists_every_format() -> None:
    """README's table of result formats has one row for every format `clubratings parse
    --list-formats` prints, and no other."""
    from parsers import FORMATS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Result formats"):]
    section = section[:section.index("\n## ", 1)]
    rows = re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)
    assert sorted(rows) == sorted(FORMATS), (sorted(set(FORMATS) - set(rows)),
                                             sorted(set(rows) - set(FORMATS)))
