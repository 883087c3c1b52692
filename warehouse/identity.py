"""Player identity: which registered player a name as written stands for.

This is the minimal resolver: a federation id, or else an exact match on a normalised name key.
It sits behind the :class:`Resolver` protocol so that a fuller resolver (register, fuzzy
candidates, initials, review queue) can replace it without touching the loader.

Rules of :class:`ExactResolver`, in order:
1. a federation id known in the warehouse → that player;
2. otherwise exactly one player with the same name key, whose federation id is empty or equal →
   that player (two different federation ids are never merged);
3. otherwise a new player.
Every spelling that resolves to a player is kept as an alias.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias

from parsers import PlayerAsWritten

__all__ = ["ExactResolver", "KnownPlayer", "PlayerId", "Resolution", "Resolver", "name_key"]

PlayerId: TypeAlias = int

# Letters that Unicode decomposition does not reduce to an ASCII base letter.
_FOLD = str.maketrans({
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ø": "o", "Ø": "o", "ß": "ss", "æ": "ae", "Æ": "ae",
    "œ": "oe", "Œ": "oe", "ı": "i", "þ": "th", "ð": "d",
})


def name_key(name: str) -> str:
    """Case-, whitespace-, diacritics- and word-order-insensitive key of a name.

    ``"Novák  Ján"``, ``"ján novak"`` and ``"JAN NOVÁK"`` share the key ``"jan novak"``.
    Punctuation other than hyphens and apostrophes separates words.
    """
    text = unicodedata.normalize("NFKD", name.translate(_FOLD))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = "".join(ch if ch.isalnum() or ch in "-'" else " " for ch in text)
    return " ".join(sorted(text.split()))


@dataclass(frozen=True, slots=True)
class KnownPlayer:
    player_id: PlayerId
    name: str
    name_key: str
    federation_id: str | None


@dataclass(frozen=True, slots=True)
class Resolution:
    """The answer for one name: an existing player, or a new one to create (``is_new``)."""

    player_id: PlayerId
    is_new: bool
    reason: str
    learned_federation_id: str | None = None
    """Set when an existing player without a federation id is matched by a name carrying one."""


class Resolver(Protocol):
    """Decides who a name as written is. Sees the players created earlier in the same load."""

    def resolve(self, player: PlayerAsWritten) -> Resolution: ...


@dataclass
class ExactResolver:
    """Federation id, else exact name key, else a new player (see the module docstring)."""

    known: Iterable[KnownPlayer]
    next_id: PlayerId
    _by_id: dict[PlayerId, KnownPlayer] = field(init=False, default_factory=dict)
    _by_fid: dict[str, PlayerId] = field(init=False, default_factory=dict)
    _by_key: dict[str, set[PlayerId]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for p in self.known:
            self._index(p, p.name_key)

    def _index(self, p: KnownPlayer, key: str) -> None:
        self._by_id[p.player_id] = p
        if p.federation_id:
            self._by_fid[p.federation_id] = p.player_id
        self._by_key.setdefault(key, set()).add(p.player_id)

    def resolve(self, player: PlayerAsWritten) -> Resolution:
        fid = player.federation_id or None
        key = name_key(player.name)
        if fid and fid in self._by_fid:
            found = self._by_id[self._by_fid[fid]]
            self._index(found, key)  # the spelling becomes an alias
            return Resolution(found.player_id, False, "federation id")
        candidates = {
            pid for pid in self._by_key.get(key, set())
            if not (fid and self._by_id[pid].federation_id)  # never two federation ids in one
        }
        # Initials are never decided by the key alone; a shared key is not decided here either.
        if len(candidates) == 1 and not player.initials:
            (pid,) = candidates
            learned = None
            if fid:
                learned = fid
                self._index(KnownPlayer(pid, self._by_id[pid].name, key, fid), key)
            return Resolution(pid, False, "name key", learned)
        new = KnownPlayer(self.next_id, player.name, key, fid)
        self.next_id += 1
        self._index(new, key)
        return Resolution(new.player_id, True, "new player")
