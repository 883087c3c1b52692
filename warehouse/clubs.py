"""Clubs as the lists name them: one name per club, placeholders never a club.

Result files write a player's club in many ways: the organiser calls itself "Klub Singleton
Warszawa", its scorer writes "Singleton Warszawa" next to a name, another file leaves ``xxxx``,
``-`` or ``?`` where it knows none. Every club name the lists use (the member register's, the
one written next to a player's name, the organiser of a club night) goes through
:func:`club_names`:

- a placeholder (:func:`is_placeholder`: empty, only punctuation, ``x`` repeated, ``?``,
  ``n/a``, ``none``, ...) is no club: the player is listed as if the file wrote none;
- names with the same :func:`club_key` (the words without case, accents, punctuation or a
  leading ``Klub`` / ``Club``) are one club, named as a member register names it, else as the
  organiser of its events calls itself, else as the files write it most often (then the first
  in alphabetical order).

docs/site.md, "Clubs", says the same for a reader.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from ._db import Warehouse
from ._errors import translated

__all__ = ["PLACEHOLDERS", "club_key", "club_names", "is_placeholder"]

PLACEHOLDERS = frozenset({
    "?", "??", "???", "-", "--", "---", "n/a", "na", "n.a.", "none", "nic", "brak", "bez",
    "unknown", "neznámy", "nezname", "neznamy", "x", "xx", "xxx", "xxxx", "xxxxx", "0", "000",
    ".", "..", "...", "*", "**", "***",
})
"""Club cells that say "no club": what scorers type where they know none (compared folded)."""

_FOLD = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss",
                       "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ı": "i"})
_PREFIXES = ("klub", "club")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_placeholder(name: str | None) -> bool:
    """Whether a club cell names no club: empty, only punctuation, a known placeholder
    (``xxxx``, ``-``, ``?``, ``n/a``, ...) or the same letter ``x`` repeated."""
    text = (name or "").strip()
    folded = _fold(text).casefold()
    if not re.search(r"\w", folded):
        return True
    return folded in PLACEHOLDERS or re.fullmatch(r"x+", folded) is not None


def club_key(name: str) -> str:
    """What two spellings of one club share: the words, without case, accents, punctuation or
    a leading ``Klub`` / ``Club`` (``Klub Singleton Warszawa`` and ``Singleton Warszawa`` are
    ``singleton warszawa``); the site matches a club with the organiser of its events on the
    same key (publishing/_site.py)."""
    words = re.findall(r"\w+", _fold(name).casefold())
    if len(words) > 1 and words[0] in _PREFIXES:
        words = words[1:]
    return " ".join(words)


def _choose(registered: Iterable[str], organisers: Iterable[str],
            written: Counter[str]) -> str:
    for names in (sorted(set(registered)), sorted(set(organisers))):
        if names:
            return names[0]
    return sorted(written.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


@translated
def club_names(wh: Warehouse) -> dict[str, str]:
    """Every club name the warehouse holds (registers, result files, organisers) mapped to the
    name its club is listed under; a placeholder maps to ``""`` (no club)."""
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
    for group in by_key.values():
        chosen = _choose(group[0], group[1], group[2])
        for name in (*group[0], *group[1], *group[2]):
            out[name] = chosen
    return out
