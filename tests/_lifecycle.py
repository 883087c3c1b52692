"""A small club whose result files are dropped, corrected, withdrawn and restored through the CLI,
and the reference every such history is compared with: a fresh project that loads only the files
in force, in load order, into a warehouse that starts from the same player register.

Whatever happened to a file's versions, the events in force and the published lists must be
those of that fresh load (:func:`fresh_lists`, :func:`active_signature`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cli import main
from warehouse import Warehouse, open_warehouse

from ._csvs import HEADER

CONFIG = """\
[paths]
warehouse = "data/clubratings.duckdb"

[[pools]]
name = "bridge"
game = "bridge"
scheme = "belo2"
options = { period = "quarter" }
"""

WAREHOUSE = Path("data") / "clubratings.duckdb"
"""The warehouse of a project, relative to its folder (``CONFIG``)."""

ORGANISER = "Klub Brydżowy Tatry"
TITLE = "Turniej par"

TYPO = "Krzystof Nowakowsky"
FIXED = "Krzysztof Nowakowski"
"""The first versions of the files carry the typo; the ``rename`` correction fixes it."""

NEWCOMER = "Bartłomiej Szczepański"
"""Who takes ``REPLACED``'s seat in the ``replace`` correction (a different person)."""
REPLACED = "Zuzana Molnárová"

PAIRS: tuple[tuple[str, str], ...] = (
    ("Ján Novák", "Peter Kováč"),
    (TYPO, "Agnieszka Wiśniewska"),
    ("Eva Horváthová", "Mária Tóthová"),
    ("Jozef Varga", "Anna Nagyová"),
    ("Piotr Zieliński", "Małgorzata Kowalczyk"),
    ("Milan Baláž", REPLACED),
    ("Tomasz Wójtowicz", "Katarzyna Mazur"),
    ("Marek Hudák", "Jana Krajčírová"),
)
"""The club's sixteen players in their usual partnerships."""

FILES: dict[str, tuple[str, ...]] = {
    "club-2013-10.csv": ("2013-10-03",),
    "club-2013-11.csv": ("2013-11-07", "2013-11-21"),
    "club-2014-01.csv": ("2014-01-16",),
    "club-2014-03.csv": ("2014-03-06",),
}
"""The club's files by name, each with the nights it holds (five nights, one file with two)."""

CORRECTIONS = ("score", "drop_pair", "move_date", "retitle", "rename", "replace")
"""What a new version of a file changes (cumulatively, on top of the version before it):
a score of the first night, one pair's rows of the first night removed (the pair placed last), the
first night's date moved by a day, its title, the typo of ``TYPO`` fixed, ``REPLACED`` replaced
by ``NEWCOMER``."""


SITTING_OUT: tuple[tuple[int, ...], ...] = ((), (7,), (0, 4), (3,), (2, 6))
"""By night (in date order), the pairs (indices into ``PAIRS``) who do not play: eight, seven or
six pairs a night; the pairs of ``TYPO`` and ``REPLACED`` play every night."""


def _night(number: int, day: str, title: str, changes: Counter[str]) -> list[str]:
    """The rows of the club's night ``number`` (0-based, in date order): its pairs in an order
    that varies by night, the first placed best."""
    pairs = [p for k, p in enumerate(PAIRS) if k not in SITTING_OUT[number]]
    pairs = pairs[3 * number % len(pairs):] + pairs[:3 * number % len(pairs)]
    pairs = pairs[:len(pairs) - changes["drop_pair"]]
    rows = []
    for place, pair in enumerate(pairs, 1):
        score = 62.5 - 3.25 * place + (0.5 * changes["score"] if place == 2 else 0.0)
        for name in pair:
            if changes["rename"] and name == TYPO:
                name = FIXED
            if changes["replace"] and name == REPLACED:
                name = NEWCOMER
            rows.append(f"{ORGANISER},{title},{day},pairs,MP,24,{place},{place},"
                        f"{score:.2f},{name},")
    return rows


def club_file(name: str, changes: Counter[str] | None = None) -> bytes:
    """The bytes of the club file ``name`` after ``changes`` (how many times each correction was
    made). Score, removed pairs, date and title change on the file's first night only."""
    changes = changes or Counter()
    everywhere = Counter({c: n for c, n in changes.items() if c in ("rename", "replace")})
    nights = [day for days in FILES.values() for day in days]
    rows = [HEADER]
    for k, day in enumerate(FILES[name]):
        number, title = nights.index(day), TITLE
        if k == 0:
            day = (dt.date.fromisoformat(day) + dt.timedelta(days=changes["move_date"])).isoformat()
            if changes["retitle"]:
                title = f"{TITLE} (poprawiony {changes['retitle']})"
        rows += _night(number, day, title, changes if k == 0 else everywhere)
    return ("\n".join(rows) + "\n").encode("utf-8")


def applicable(name: str, changes: Counter[str], kind: str) -> str:
    """``kind`` if it changes the file's bytes once more, else a score change (which always
    does); at most two pairs are removed, so every night keeps four pairs or more."""
    if kind == "drop_pair" and changes[kind] >= 2:
        return "score"
    if club_file(name, changes + Counter([kind])) == club_file(name, changes):
        return "score"
    return kind


# --- driving the CLI ---------------------------------------------------------------------------

def cli(root: Path, *args: str) -> tuple[int, str, str]:
    """Run ``clubratings ARGS`` in-process on the project ``root``: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([args[0], "--config", str(root / "clubratings.toml"), *args[1:]])
    return code, out.getvalue(), err.getvalue()


def must(root: Path, *args: str) -> str:
    """``cli`` that must exit 0; its stdout."""
    code, out, err = cli(root, *args)
    assert code == 0, f"clubratings {' '.join(args)} exited {code}: {err or out}"
    return out


def new_project(root: Path, config: str = CONFIG) -> Path:
    """An empty project in ``root``: its configuration and an inbox."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "clubratings.toml").write_text(config, encoding="utf-8")
    (root / "inbox").mkdir(exist_ok=True)
    return root


def drop(root: Path, name: str, data: bytes) -> tuple[int, str]:
    """Write ``data`` into the inbox as ``name`` and ingest it: (exit code, stdout)."""
    (root / "inbox" / name).write_bytes(data)
    code, out, err = cli(root, "ingest")
    return code, out + err


def publish_lists(root: Path) -> dict[str, bytes]:
    """Recompute, publish, and every published list (``list.csv`` and the edition's page)
    by its path under public/."""
    must(root, "recompute")
    must(root, "publish")
    return lists(root)


def lists(root: Path) -> dict[str, bytes]:
    """Every published list under public/ (each edition's ``list.csv`` and ``index.html``),
    by its path relative to public/."""
    public = root / "public"
    return {p.relative_to(public).as_posix(): p.read_bytes()
            for p in sorted([*public.rglob("list.csv"), *public.glob("*/*/index.html")])}


QUESTIONS = ("version:", "correction:", "spelling:")
"""The kinds of review item a new version of a file opens."""


def open_questions(root: Path) -> list[str]:
    """The keys of the open ``version:``, ``correction:`` and ``spelling:`` items, as
    ``review --list`` names them: each item starts with a line of its own that is its key
    (``spelling:13:krzysztof nowakowski``); the lines that describe it are indented."""
    out = must(root, "review", "--list")
    keys = [line.strip() for line in out.splitlines()
            if line.startswith(QUESTIONS) and line == line.strip()]
    return list(dict.fromkeys(keys))


def held_files(root: Path) -> list[int]:
    """The ids of the files ``files list`` shows as held."""
    held = []
    for line in must(root, "files", "list").splitlines()[1:]:
        parts = line.split()
        if len(parts) > 1 and parts[0].isdigit() and parts[1] == "held":
            held.append(int(parts[0]))
    return held


def answer_everything(root: Path) -> None:
    """Accept every open version, correction and spelling question, then release every file
    still held."""
    for key in open_questions(root):
        must(root, "review", "--resolve", key, "--accept")
    for file_id in held_files(root):
        must(root, "files", "release", str(file_id))


def file_id(root: Path, name: str) -> int:
    """The id of the latest loaded file named ``name``."""
    with open_warehouse(root / WAREHOUSE) as wh:
        row = wh.con.execute("SELECT max(file_id) FROM source_files WHERE name = ?",
                             [name]).fetchone()
    assert row is not None and row[0] is not None, f"no file {name!r} loaded"
    return int(row[0])


# --- the reference: a fresh load of the files in force ---------------------------------------

LOAD_ORDER_MTIME = 1_700_000_000
"""The fresh inbox's files get consecutive times from here: the inbox is loaded oldest first."""

Signature = tuple[tuple[object, ...], ...]


def events_in_force(wh: Warehouse) -> list[int]:
    """The ids of the events in force the warehouse keeps (table ``events_in_force``), which
    must be what their rules derive (view ``events_in_force_rules``, migration 026)."""
    kept = [int(r[0]) for r in wh.con.execute(
        "SELECT event_id FROM events_in_force ORDER BY 1").fetchall()]
    derived = [int(r[0]) for r in wh.con.execute(
        "SELECT event_id FROM events_in_force_rules ORDER BY 1").fetchall()]
    assert kept == derived, ("the table of events in force is not what its rules derive "
                             f"(migration 026): kept {kept}, derived {derived}")
    return kept


def active_signature(db_path: Path) -> Signature:
    """The events in force, sorted: (organiser, date, title, section, units), each unit as
    (place, score, its names as written, sorted). The table of events in force must be what
    its rules derive (every change of force derives it again)."""
    with open_warehouse(db_path) as wh:
        events_in_force(wh)
        events = wh.con.execute(
            "SELECT event_id, organiser, event_date::VARCHAR, title, section "
            "FROM active_events").fetchall()
        members = wh.con.execute(
            "SELECT u.event_id, u.unit_no, u.place, u.score, m.name_as_written "
            "FROM units u JOIN unit_members m USING (event_id, unit_no) "
            "WHERE u.event_id IN (SELECT event_id FROM active_events)").fetchall()
    units: dict[tuple[int, int], tuple[object, object, list[str]]] = {}
    for event_id, unit_no, place, score, name in members:
        units.setdefault((event_id, unit_no), (place, score, []))[2].append(name)
    by_event: dict[int, list[tuple[object, ...]]] = {}
    for (event_id, _), (place, score, names) in units.items():
        by_event.setdefault(event_id, []).append((place, score, tuple(sorted(names))))
    return tuple(sorted(
        ((organiser, day, title, section, tuple(sorted(by_event.get(event_id, []), key=repr)))
         for event_id, organiser, day, title, section in events), key=repr))


def files_in_force(db_path: Path) -> list[tuple[str, bytes]]:
    """(name, raw bytes) of the files whose events are in force, in load order."""
    from warehouse._load import raw_bytes
    from warehouse.files import files_in_force as in_force

    with open_warehouse(db_path) as wh:
        ids: list[int] = in_force(wh)
        names = dict(wh.con.execute("SELECT file_id, name FROM source_files").fetchall())
        return [(str(names[i]), raw_bytes(wh, i)) for i in ids]


REGISTER = ("players", "player_aliases")
"""The tables of the player register copied into the fresh warehouse."""


def copy_register(source: Path, target: Path) -> None:
    """Create the warehouse ``target`` and copy the player register of ``source`` into it, so
    every player keeps the id (and display name) the tested warehouse gave them."""
    with open_warehouse(target) as wh:  # the schema first
        quoted = str(source).replace("'", "''")
        wh.con.execute(f"ATTACH '{quoted}' AS tested (READ_ONLY)")
        try:
            for table in REGISTER:
                columns = ", ".join(r[0] for r in wh.con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_catalog = "
                    "'tested' AND table_name = ? ORDER BY ordinal_position", [table]).fetchall())
                wh.con.execute(f"INSERT INTO {table} ({columns}) "
                               f"SELECT {columns} FROM tested.main.{table}")
        finally:
            wh.con.execute("DETACH tested")


@dataclass
class FreshLoad:
    """What a fresh load of the files in force gives."""

    lists: dict[str, bytes]
    signature: Signature
    files: list[str] = field(default_factory=list)
    """The names of the files loaded, in order."""


def fresh_load(root: Path, config: str = CONFIG, *, publish: bool = True) -> FreshLoad:
    """A new project in a temporary folder with the same configuration: the tested project's
    player register first, then the files in force in one ingest, oldest first in load order
    (under their own names; the inbox is loaded in the order of the files' times), then
    recompute and publish (its lists are empty with ``publish=False``)."""
    tested = root / WAREHOUSE
    files = files_in_force(tested)
    names = [name for name, _ in files]
    assert len(names) == len(set(names)), f"two files of one name in force: {names}"
    with tempfile.TemporaryDirectory(prefix="fresh-") as folder:
        fresh = new_project(Path(folder) / "project", config)
        (fresh / WAREHOUSE).parent.mkdir(parents=True)
        copy_register(tested, fresh / WAREHOUSE)
        for k, (name, data) in enumerate(files):
            path = fresh / "inbox" / name
            path.write_bytes(data)
            os.utime(path, (LOAD_ORDER_MTIME + k, LOAD_ORDER_MTIME + k))
        if files:
            code, out, err = cli(fresh, "ingest")
            assert code == 0, f"fresh load of {names}: {out}{err}"
            with open_warehouse(fresh / WAREHOUSE) as wh:
                loaded = [str(r[0]) for r in wh.con.execute(
                    "SELECT name FROM source_files ORDER BY file_id").fetchall()]
            assert loaded == names, f"fresh load of {names}: {loaded}; {out}{err}"
        return FreshLoad(publish_lists(fresh) if publish else {},
                         active_signature(fresh / WAREHOUSE), names)


def fresh_lists(root: Path, config: str = CONFIG) -> dict[str, bytes]:
    """Every ``list.csv`` (by its path under public/) of a fresh load of ``root``'s files in
    force (:func:`fresh_load`)."""
    return fresh_load(root, config).lists
