"""A club's whole results archive scraped by discovery, served from a local checkout.

The input is a checkout of the Mercercrest club's site (the public repository
mercerislandbridge/mercerislandbridge.github.io). Its ``index.html`` lists only the current
year; the nights of 2013-2025 were listed in ``index.html`` at commit ``c49749c``. The script
builds a temporary copy of the site (every top-level entry a symbolic link into the checkout)
whose ``index.html`` is the current one followed by ``c49749c``'s, so it links every night,
serves it with ``python -m http.server`` on 127.0.0.1, and runs ``clubratings scrape
--fetch-only`` (the command line's own entry point, in this process) twice with a discovery
source for the nights and their .TXT renderings, ``rate_limit_seconds = 0`` for the loopback
host. It reports the time and the requests of the first run (discovery + every night) and of
the second (the index and the re-checks, conditionally).

    python benchmarks/scrape_archive.py /path/to/mercerislandbridge.github.io [--json FILE]

Nothing is asserted; ``--json FILE`` writes the rows as the other benchmarks do.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import result_row, write_json  # noqa: E402

OLD_INDEX = "c49749c"
FOLLOW = ["20*/**/*E.htm", "20*/**/*E.[Tt][Xx][Tt]"]


def site_copy(checkout: Path, folder: Path, old_index: str) -> int:
    """The site in ``folder``: links to the checkout's entries, and an ``index.html`` that
    lists the current nights and those of ``old_index``'s index. Returns the nights listed."""
    folder.mkdir()
    for entry in checkout.iterdir():
        if entry.name not in ("index.html", ".git"):
            (folder / entry.name).symlink_to(entry)
    current = (checkout / "index.html").read_bytes()
    old = subprocess.run(["git", "-C", str(checkout), "show", f"{old_index}:index.html"],
                         capture_output=True, check=False).stdout
    index = current + b"\n" + old
    (folder / "index.html").write_bytes(index)
    return len(set(re.findall(rb'href="(20\d\d/(?:[^/"]+/)?\d{6}E\.htm)"', index)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(folder: Path, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    for _ in range(200):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
            return server, port
        time.sleep(0.05)
    server.kill()
    raise SystemExit("the local http.server did not start")


def project(folder: Path, port: int) -> Path:
    folder.mkdir()
    config = folder / "clubratings.toml"
    config.write_text('[paths]\nwarehouse = "data/wh.duckdb"\nsources = []\n',
                      encoding="utf-8")
    (folder / "sources.toml").write_text(
        f'allow = ["127.0.0.1:{port}"]\nrate_limit_seconds = 0   # loopback only\n'
        f'[[source]]\nclub = "Mercercrest"\nindex = "http://127.0.0.1:{port}/index.html"\n'
        f'follow = {FOLLOW!r}\nschedule = "always"\n'.replace("'", '"'), encoding="utf-8")
    return config


def scrape(config: Path) -> tuple[float, int, list[str]]:
    """``clubratings scrape --fetch-only`` as the command line runs it."""
    from cli import main

    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out):
        code = main(["scrape", "--config", str(config), "--fetch-only"])
    return time.perf_counter() - started, code, out.getvalue().splitlines()


def requests(log: Path) -> int:
    return sum(1 for line in log.read_text("utf-8", "replace").splitlines()
               if '"GET ' in line)


def archive_arguments(doc: str) -> argparse.ArgumentParser:
    """The command line of the archive benchmarks: the checkout, the older index, --json."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("checkout", type=Path,
                    help="a checkout of mercerislandbridge/mercerislandbridge.github.io")
    ap.add_argument("--old-index", default=OLD_INDEX,
                    help=f"the commit whose index.html lists 2013-2025 (default {OLD_INDEX})")
    ap.add_argument("--json", type=Path, help="also write the results as JSON rows here")
    return ap


def main() -> None:
    args = archive_arguments(__doc__).parse_args()
    started = time.perf_counter()
    import flows._sources  # noqa: F401 - the imports are not the scrape's time
    import scraping._run  # noqa: F401
    import flows._steps  # noqa: F401
    import cli.app  # noqa: F401
    imports = time.perf_counter() - started
    rows = []
    with tempfile.TemporaryDirectory(prefix="scrape-archive-") as tmp:
        base = Path(tmp)
        nights = site_copy(args.checkout.resolve(), base / "site", args.old_index)
        log = base / "http.log"
        server, port = serve(base / "site", log)
        try:
            config = project(base / "project", port)
            inbox = base / "project" / "inbox"
            print(f"{nights} nights listed; imports {imports:.2f} s (not counted)")
            for case in ("first run: discovery + every night", "second run: nothing new"):
                before = requests(log)
                seconds, code, lines = scrape(config)
                asked = requests(log) - before
                summary = next((line for line in lines if line.startswith("Mercercrest: ")
                                and " index page(s) read" in line), "")
                files = sorted(inbox.glob("*")) if inbox.exists() else []
                size = sum(p.stat().st_size for p in files if p.is_file())
                note = (f"{asked} requests, {len(files)} files / {size / 1e6:.1f} MB in the "
                        f"inbox, exit {code}; {summary.removeprefix('Mercercrest: ')}")
                print(f"{case:<38} {seconds:7.2f} s  {note}")
                rows.append(result_row("scrape_archive", case, f"{nights} nights", seconds,
                                       note=note))
                for path in files:  # as the ingest would take them
                    path.unlink()
        finally:
            server.terminate()
            server.wait()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    write_json(args.json, rows)


if __name__ == "__main__":
    main()
