"""Go ratings on a real archive of EGD tournament tables, judged against the declared grade
(docs/quality.md "Go on real tournaments").

The input is a copy of the public repository Honte/go-tournaments-archive (102 EGD tables of
the World Amateur Go Championship 1979-2025, the Korea Prime Minister Cup 2003-2025 and the
Polish youth, student and women's championships 2002-2026, under ``events/*/data/*.txt``): a
checkout, or a bare git directory (the tables are read from ``--commit``, default ``HEAD``), or
any folder of EGD tables (``--glob``). The tables are copied into a fresh project whose only
pool is go, one period per tournament, loaded with ``clubratings ingest``, and judged with
``clubratings evaluate --warehouse FILE --game go``: every game predicted from the lists
published before its tournament, against "the stronger declared grade wins".

    python benchmarks/go_archive.py /path/to/go-tournaments-archive [--commit SHA]
        [--keep DIR] [--markdown FILE] [--json FILE] [--schemes A,B]

The measurement of docs/quality.md was made with commit
52c15aab903766696cbff2d6825ba6937457f225 of the archive. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIG = """\
[federation]
name = "{name}"

[paths]
warehouse = "data/clubratings.duckdb"
inbox = "inbox"
public = "public"
sources = ["files/*"]

[[pools]]
name = "go"
game = "go"
periods = "tournament"
"""


def tables(archive: Path, commit: str, pattern: str, into: Path) -> list[Path]:
    """Copy the archive's tables into ``into``: from git at ``commit`` when ``archive`` is a
    git directory (bare or a checkout's ``.git``), else the files matching ``pattern``."""
    into.mkdir(parents=True, exist_ok=True)
    git_dir = archive / ".git" if (archive / ".git").is_dir() else archive
    if (git_dir / "HEAD").is_file() and (git_dir / "objects").is_dir():
        names = subprocess.run(
            ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", commit],
            check=True, capture_output=True, text=True).stdout.split()
        chosen = [n for n in names if Path(n).match(pattern)]
        for name in chosen:
            data = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{name}"],
                                  check=True, capture_output=True).stdout
            (into / Path(name).name).write_bytes(data)
    else:
        for path in sorted(archive.glob(pattern)):
            shutil.copyfile(path, into / path.name)
    return sorted(into.iterdir())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", type=Path, help="the archive: a checkout, a bare git "
                        "directory, or a folder of EGD tables")
    parser.add_argument("--commit", default="HEAD", help="the archive's commit (git only)")
    parser.add_argument("--glob", default="events/*/data/*.txt",
                        help="which files are tables (default: the archive's layout)")
    parser.add_argument("--keep", type=Path, help="build the project here and keep it")
    parser.add_argument("--schemes", help="only these go schemes (default: every one)")
    parser.add_argument("--markdown", help="also write the tables to FILE")
    parser.add_argument("--json", help="also write the report as JSON to FILE")
    args = parser.parse_args(argv)
    from cli import main as clubratings

    folder = args.keep or Path(tempfile.mkdtemp(prefix="go-archive-"))
    try:
        files = tables(args.archive, args.commit, args.glob, folder / "files")
        (folder / "clubratings.toml").write_text(
            CONFIG.format(name=f"{args.archive.name} (benchmark)"), encoding="utf-8")
        print(f"{len(files)} tables from {args.archive} ({args.commit}) in {folder}")
        begin = time.perf_counter()
        code = clubratings(["ingest", "--config", str(folder / "clubratings.toml")])
        print(f"ingest exit {code} in {time.perf_counter() - begin:.1f} s")
        command = ["evaluate", "--warehouse", str(folder / "data" / "clubratings.duckdb"),
                   "--game", "go"]
        if args.schemes:
            command += ["--schemes", args.schemes]
        if args.markdown:
            command += ["--markdown", args.markdown]
        if args.json:
            command += ["--json", args.json]
        return clubratings(command)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
