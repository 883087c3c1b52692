"""Clubs as the lists name them: one name per club, placeholders never a club.

Result files write a player's club in many ways: the organiser calls itself "Klub Singleton
Warszawa", its scorer writes "Singleton Warszawa" next to a name, another file leaves ``xxxx``,
``-`` or ``?`` where it knows none. Every club name the lists use (the member register's, the
one written next to a player's name, the organiser of a club night) goes through
:func:`club_names`:

- a placeholder (:func:`is_placeholder`: empty, only punctuation, ``x`` repeated, ``?``,
  ``n/a``, ``none``, ...) is no club: the player is listed as if the file wrote none;
- a name, code or alias of the club register (:func:`load_club_register`, ``[identity] clubs``:
  name, code, game, federation, aliases) is that club, named as the register names it (the go
  code ``Brat`` is the register's "Bratislava Go Club");
- names with the same :func:`club_key` (the words without case, accents, punctuation or a
  leading ``Klub`` / ``Club``) are one club, named as a member register names it, else as the
  organiser of its events calls itself, else as the files write it most often (then the first
  in alphabetical order).

docs/site.md, "Clubs", says the same for a reader.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ._db import Warehouse
from ._errors import WarehouseError, translated

__all__ = ["ClubRegisterError", "PLACEHOLDERS", "club_key", "club_names", "is_placeholder",
           "load_club_register", "without_accents"]

PLACEHOLDERS = frozenset({
    "?", "??", "???", "-", "--", "---", "n/a", "na", "n.a.", "none", "nic", "brak", "bez",
    "unknown", "neznámy", "nezname", "neznamy", "x", "xx", "xxx", "xxxx", "xxxxx", "0", "000",
    ".", "..", "...", "*", "**", "***",
})
"""Club cells that say "no club": what scorers type where they know none (compared folded)."""

_FOLD = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss",
                       "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ı": "i"})
_PREFIXES = ("klub", "club")


def without_accents(text: str) -> str:
    """``text`` without accents (``Łódź`` → ``Lodz``); other scripts are kept. Club names are
    compared on it (:func:`club_key`) and the site's club pages are named and sorted by it."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_placeholder(name: str | None) -> bool:
    """Whether a club cell names no club: empty, only punctuation, a known placeholder
    (``xxxx``, ``-``, ``?``, ``n/a``, ...) or the same letter ``x`` repeated."""
    text = (name or "").strip()
    folded = without_accents(text).casefold()
    if not re.search(r"\w", folded):
        return True
    return folded in PLACEHOLDERS or re.fullmatch(r"x+", folded) is not None


def club_key(name: str) -> str:
    """What two spellings of one club share: the words, without case, accents, punctuation or
    a leading ``Klub`` / ``Club`` (``Klub Singleton Warszawa`` and ``Singleton Warszawa`` are
    ``singleton warszawa``); the site matches a club with the organiser of its events on the
    same key (publishing/_site.py)."""
    words = re.findall(r"\w+", without_accents(name).casefold())
    if len(words) > 1 and words[0] in _PREFIXES:
        words = words[1:]
    return " ".join(words)


def _choose(registered: Iterable[str], organisers: Iterable[str],
            written: Counter[str]) -> str:
    for names in (sorted(set(registered)), sorted(set(organisers))):
        if names:
            return names[0]
    return sorted(written.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


class ClubRegisterError(WarehouseError):
    """A club register that cannot be read: no ``name`` column, an empty name, a code or alias
    given to two clubs. The message names the file, line and value."""


REGISTER_COLUMNS = ("name", "code", "game", "federation", "aliases")
"""The columns of a club register (CSV, UTF-8, a header line): only ``name`` is required;
``aliases`` holds the other names files write, separated by ``;``."""


@translated
def load_club_register(wh: Warehouse, data: bytes, *, path: str) -> str:
    """Replace the club register with the clubs of this CSV file; one line saying how many."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ClubRegisterError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") \
            from exc
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().casefold() for h in reader.fieldnames or []]
    if "name" not in header:
        raise ClubRegisterError(f"{path}, line 1: no column 'name' (columns: "
                                f"{', '.join(REGISTER_COLUMNS)}); got {reader.fieldnames!r}")
    rows: list[tuple[str, str, str, str, str, int]] = []
    seen: dict[str, tuple[str, int]] = {}
    for line, raw in enumerate(reader, 2):
        row = {k.strip().casefold(): (v or "").strip() for k, v in raw.items() if k}
        name = row.get("name", "")
        if not name:
            raise ClubRegisterError(f"{path}, line {line}, column name: empty name")
        aliases = [a.strip() for a in row.get("aliases", "").split(";") if a.strip()]
        for written in (name, row.get("code", ""), *aliases):
            key = club_key(written) if written else ""
            if key and key in seen and seen[key][0] != name:
                raise ClubRegisterError(
                    f"{path}, line {line}: {written!r} is also club {seen[key][0]!r} "
                    f"(line {seen[key][1]}); a name, code or alias is one club's")
            if key:
                seen[key] = (name, line)
        rows.append((name, row.get("code", ""), row.get("game", ""), row.get("federation", ""),
                     ";".join(aliases), line))
    stored = [tuple(r) for r in wh.con.execute(
        "SELECT name, code, game, federation, aliases, row_no FROM club_register "
        "ORDER BY row_no").fetchall()]
    if stored == rows:  # the same register again: the warehouse is left as it is
        return f"{Path(path).name}: {len(rows)} club(s) in the club register, unchanged"
    with wh.transaction():
        wh.con.execute("DELETE FROM club_register")
        if rows:
            wh.con.executemany("INSERT INTO club_register VALUES (?, ?, ?, ?, ?, ?)", rows)
    return f"{Path(path).name}: {len(rows)} club(s) in the club register"


@translated
def club_names(wh: Warehouse) -> dict[str, str]:
    """Every club name the warehouse holds (the club register, member registers, result files,
    organisers) mapped to the name its club is listed under; a placeholder maps to ``""`` (no
    club)."""
    known: dict[str, str] = {}  # club key of a register name, code or alias -> its name
    for name, code, aliases in wh.con.execute(
            "SELECT name, code, aliases FROM club_register ORDER BY row_no").fetchall():
        for written in (str(name), str(code), *str(aliases).split(";")):
            if written.strip() and club_key(written):
                known.setdefault(club_key(written), str(name))
    registered = [str(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT club FROM players WHERE club IS NOT NULL AND club <> ''").fetchall()]
    organisers = [str(r[0]) for r in wh.con.execute(
        "SELECT DISTINCT organiser FROM active_events WHERE organiser IS NOT NULL "
        "AND organiser <> ''").fetchall()]
    written = Counter({str(r[0]): int(r[1]) for r in wh.con.execute(
        "SELECT club, count(*) FROM unit_members WHERE club IS NOT NULL AND club <> '' "
        "GROUP BY 1").fetchall()})
    by_key: dict[str, tuple[list[str], list[str], Counter[str]]] = {}
    out: dict[str, str] = {}
    for names, part in ((registered, 0), (organisers, 1), (written, 2)):
        for name in names:
            if is_placeholder(name):
                out[name] = ""
                continue
            group = by_key.setdefault(club_key(name), ([], [], Counter()))
            if part == 2:
                group[2][name] += written[name]
            else:
                group[part].append(name)
    for key, group in by_key.items():
        chosen = known.get(key) or _choose(group[0], group[1], group[2])
        for name in (*group[0], *group[1], *group[2]):
            out[name] = chosen
    return out
