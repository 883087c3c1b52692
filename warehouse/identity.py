"""Player identity: which person a name as written stands for.

One person, one player; two people are never merged silently, and a question a person answered
is never asked again. :class:`IdentityResolver` decides for every member of an event, in memory;
the loader writes what it decided (``warehouse._load``) and ``warehouse.review`` applies the
answers of a person.

Full names, in this order (the first rule that decides wins):

1. **federation id** known in the warehouse → that player. An unknown id may attach to exactly
   one player without an id found by the rules below (the id is learned); two different
   federation ids are never one player.
2. **confirmed alias**: a name key a person confirmed for a player (``identity_rules``).
3. **exact name key within the club** (the club written next to the name, else the organiser).
4. **exact name key anywhere**.
5. **abbreviated first name** (``NOVAK J.``): players whose name cut to its initial gives the key,
   within the club first.
6. **fuzzy** (rapidfuzz, ``token_sort_ratio`` of the keys), among the players whose name may be
   the same person's word by word (:func:`parsers.names.may_be_one_person`: Karen and Kevin
   Epley never are, whatever the score): accepted automatically only when the best score
   reaches ``fuzzy_accept`` and no other candidate is within ``fuzzy_margin`` of it;
   candidates from ``fuzzy_review`` up otherwise go to the review queue.
7. otherwise a **new player**.

At 3–5 several equally good players send the name to the review queue too.

**Initials** (docs/rules/inputs.md: ``JNo`` = first letter of the first name + first two letters of the
surname, not unique): the candidates are the club's roster (register club, clubs written next
to the player's name, organisers of events the player played) whose name gives the code, minus
players already placed elsewhere in the same event. An earlier decision for the same situation
decides first. Then: one candidate → accepted ("only candidate"); several → the candidates who
have partnered this unit's partner before, if exactly one ("usual partner"); then those who
played in the club's events that week, if exactly one ("played that week"); otherwise the
situation goes to the review queue. No candidate → a provisional player flagged initials-only,
reused for the same club and code. The evidence of every decision is kept with the member.

A name sent to review is held by a **pending player**, created once per situation (the item
key): the event is loaded, and left out of rating runs until a person answers.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from rapidfuzz import fuzz, process

from parsers import Event, PlayerAsWritten
from parsers.names import (
    TYPO_MIN_LETTERS, NameForm, display_name, fold, initials_code, is_initials,
    may_be_one_person, name_key, parse_name,
)

__all__ = [
    "IdentityResolver",
    "IdentitySettings",
    "KnownPlayer",
    "NewPlayer",
    "PlayerId",
    "Resolution",
    "ReviewEntry",
    "club_key",
    "name_key",
    "surname_key",
]

PlayerId: TypeAlias = int
State: TypeAlias = Literal["confirmed", "provisional", "pending"]

# Words that say "club" rather than which club: "BK Modra", "Bridžový klub Modra" -> "modra".
_CLUB_WORDS = frozenset({
    "bk", "bc", "kb", "ks", "tj", "sk", "klub", "club", "bridge", "bridz", "bridzovy", "bridzovi",
    "brydzowy", "brydza", "bridzs", "bridzsklub", "se", "egyesulet", "verein", "o.z.", "oz",
})


@functools.lru_cache(maxsize=1 << 14)
def club_key(club: str | None) -> str:
    """A club's name without case, accents, punctuation and generic words (``BK Modra`` → ``modra``)."""
    if not club:
        return ""
    words = re.sub(r"[^\w]+", " ", fold(club)).split()
    kept = [w for w in words if w not in _CLUB_WORDS]
    return " ".join(kept or words)


@dataclass(frozen=True, slots=True)
class IdentitySettings:
    """Thresholds of the fuzzy step (scores 0–100); ``[identity]`` in ``clubratings.toml``."""

    fuzzy_accept: float = 92.0
    fuzzy_review: float = 80.0
    fuzzy_margin: float = 5.0
    register_games: tuple[str, ...] = ()
    """The games the member registers cover (docs/identity.md, "One person per game"): a
    member is matched by name only in results of these games; empty: every game."""

    def __post_init__(self) -> None:
        if not 0 <= self.fuzzy_review <= self.fuzzy_accept <= 100:
            raise ValueError(
                f"identity thresholds need 0 <= fuzzy_review <= fuzzy_accept <= 100, got "
                f"fuzzy_review={self.fuzzy_review!r}, fuzzy_accept={self.fuzzy_accept!r}"
            )


@dataclass(frozen=True, slots=True)
class KnownPlayer:
    """A player as the warehouse knows it when a load starts."""

    player_id: PlayerId
    name: str
    federation_id: str | None = None
    state: State = "confirmed"
    origin: str = "results"
    club: str | None = None
    initials_code: str | None = None
    """For an initials-only provisional player: the code it stands for (``jno``)."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """Who one member is, how that was decided, and the evidence."""

    player_id: PlayerId
    is_new: bool
    how: str
    evidence: Mapping[str, Any] | None = None
    review_key: str | None = None
    learned_federation_id: str | None = None


@dataclass(frozen=True, slots=True)
class NewPlayer:
    player_id: PlayerId
    name: str
    federation_id: str | None
    state: State
    origin: str
    club: str | None


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    """A new item of the review queue."""

    item_key: str
    kind: Literal["initials", "name"]
    name_as_written: str
    club: str | None
    player_id: PlayerId
    candidates: tuple[Mapping[str, Any], ...]
    evidence: Mapping[str, Any]
    event_ref: object


@dataclass(frozen=True, slots=True)
class _Decision:
    player_id: PlayerId | None
    how: str
    evidence: dict[str, Any]
    candidates: tuple[PlayerId, ...] = ()


@dataclass
class _Player:
    player_id: PlayerId
    name: str
    form: NameForm
    federation_id: str | None
    state: State
    origin: str
    initials_code: str | None = None


def _typo_only(key: str, other: str) -> bool:
    """Whether every word of ``key`` that ``other`` does not have is a long word, paired with a
    long word of ``other`` (the keys' words in sorted order, as ``token_sort_ratio`` pairs them)."""
    a, b = sorted(key.split()), sorted(other.split())
    if len(a) != len(b):
        return False
    return all(x == y or min(len(x), len(y)) >= TYPO_MIN_LETTERS for x, y in zip(a, b))


@dataclass
class IdentityResolver:
    """Decides who every member of an event is (see the module docstring).

    Built from what the warehouse knows (:meth:`warehouse._identity_db.resolver_for`) or, in
    tests, from plain lists. It learns as it goes: players it creates, spellings, partnerships
    and who played where, so later events of the same load see them.
    """

    players: Iterable[KnownPlayer]
    next_id: PlayerId
    settings: IdentitySettings = field(default_factory=IdentitySettings)
    merges: Mapping[PlayerId, PlayerId] = field(default_factory=dict)
    spellings: Iterable[tuple[PlayerId, str]] = ()
    club_links: Iterable[tuple[PlayerId, str]] = ()
    games: Iterable[tuple[PlayerId, str]] = ()
    """(player, game) of the game of the file that brought each player; a player with none
    (and not a member of a register that covers only some games) is matched in any game."""
    members: Iterable[PlayerId] = ()
    """The players a member register lists: matched by name in the games it covers
    (``settings.register_games``) and in those they have results in."""
    alias_rules: Mapping[str, PlayerId] = field(default_factory=dict)
    situation_rules: Mapping[str, PlayerId] = field(default_factory=dict)
    non_matches: Iterable[tuple[str, PlayerId]] = ()
    open_items: Mapping[str, PlayerId] = field(default_factory=dict)
    history: Any = None
    """Callable returning (partnerships, activity) for initials context, read on first need:
    partnerships as ``{(a, b): events}`` (both orders), activity as
    ``{(club key, iso year, iso week): {player ids}}``."""

    def __post_init__(self) -> None:
        self._players: dict[PlayerId, _Player] = {}
        self._merge: dict[PlayerId, PlayerId] = dict(self.merges)
        self._by_fid: dict[str, PlayerId] = {}
        self._by_key: dict[str, set[PlayerId]] = {}
        self._by_short: dict[str, set[PlayerId]] = {}
        self._by_code: dict[str, set[PlayerId]] = {}
        self._indexed: set[tuple[PlayerId, str]] = set()  # spellings already in the indexes
        self._initials_only: dict[tuple[str, str], PlayerId] = {}
        self._clubs: dict[PlayerId, set[str]] = {}
        self._alias = dict(self.alias_rules)
        self._situation = dict(self.situation_rules)
        self._non_match = set(self.non_matches)
        self._items = dict(self.open_items)
        self._fuzzy_keys: list[str] = []
        self._fuzzy_ids: list[PlayerId] = []
        self._partners: Counter[tuple[PlayerId, PlayerId]] = Counter()
        self._activity: dict[tuple[str, int, int], set[PlayerId]] = {}
        self._history_read = False
        # Until the history is read, what this load learns waits here; once its events are
        # committed (:meth:`committed`) the warehouse itself holds them.
        self._staged_partners: Counter[tuple[PlayerId, PlayerId]] = Counter()
        self._staged_activity: dict[tuple[str, int, int], set[PlayerId]] = {}
        self.new_players: list[NewPlayer] = []
        self.review_entries: list[ReviewEntry] = []
        self._game = ""  # the game of the event being resolved
        self._games: dict[PlayerId, set[str]] = {}  # absent: any game
        if self.settings.register_games:
            for pid in self.members:
                self._games.setdefault(self._canon(pid), set()).update(
                    self.settings.register_games)
        for pid, played in self.games:
            self._games.setdefault(self._canon(pid), set()).add(played)
        for p in self.players:
            self._add_player(p.player_id, p.name, p.federation_id, p.state, p.origin,
                             p.initials_code)
            if p.club and club_key(p.club):
                self._clubs.setdefault(self._canon(p.player_id), set()).add(club_key(p.club))
        for pid, spelling in self.spellings:
            self._index_spelling(pid, spelling)
        for pid, club in self.club_links:
            if club_key(club):
                self._clubs.setdefault(self._canon(pid), set()).add(club_key(club))
        for p in self._players.values():  # initials-only players stand for (club, code)
            if p.state == "provisional" and p.initials_code and self._canon(p.player_id) == \
                    p.player_id:
                for ck in sorted(self._clubs.get(p.player_id, ())):
                    self._initials_only.setdefault((ck, p.initials_code), p.player_id)

    # --- indexes ---------------------------------------------------------------------------

    def _canon(self, pid: PlayerId) -> PlayerId:
        seen = 0
        while pid in self._merge and seen < 100:
            pid, seen = self._merge[pid], seen + 1
        return pid

    def _add_player(self, pid: PlayerId, name: str, fid: str | None, state: State, origin: str,
                    code: str | None = None) -> _Player:
        p = _Player(pid, name, parse_name(name), fid or None, state, origin, code)
        self._players[pid] = p
        if p.federation_id:
            self._by_fid.setdefault(p.federation_id, pid)
        if state == "provisional" and code:
            for ck in self._clubs.get(pid, ()):
                self._initials_only.setdefault((ck, code), pid)
        if state != "pending" and not code:
            self._index_spelling(pid, name)
        return p

    def _index_spelling(self, pid: PlayerId, spelling: str) -> None:
        if (pid, spelling) in self._indexed:
            return
        tokens = spelling.split()
        if not tokens or all(is_initials(t) for t in tokens):
            return  # initials are decoded by context, never matched as a name
        p = self._players.get(pid)
        if p is None or p.state == "pending" or p.initials_code:
            return
        form = parse_name(spelling)
        if not form.key:
            return
        self._indexed.add((pid, spelling))
        if pid not in self._by_key.setdefault(form.key, set()):
            self._by_key[form.key].add(pid)
            self._fuzzy_keys.append(form.key)
            self._fuzzy_ids.append(pid)
        if not form.abbreviated:
            for short in form.short_keys():
                self._by_short.setdefault(short, set()).add(pid)
            for code in form.initials_codes():
                self._by_code.setdefault(code, set()).add(pid)

    def _live(self, pids: Iterable[PlayerId], *, fid: str | None = None,
              rule_keys: Sequence[str] = (), exclude: Iterable[PlayerId] = (),
              any_game: bool = False) -> list[PlayerId]:
        """Canonical, decided players among ``pids``: no other federation id, no non-match, and
        (unless ``any_game``: a person's decision) of the game of the event being resolved
        (docs/identity.md, "One person per game")."""
        excluded = set(exclude)
        out: set[PlayerId] = set()
        for pid in pids:
            c = self._canon(pid)
            p = self._players.get(c)
            if p is None or p.state == "pending" or c in excluded:
                continue
            if not any_game and self._game and c in self._games \
                    and self._game not in self._games[c]:
                continue  # another game's player: one person in two games only by decision
            if fid and p.federation_id and p.federation_id != fid:
                continue  # never two federation ids in one player
            if any((k, c) in self._non_match for k in rule_keys):
                continue
            out.add(c)
        return sorted(out)

    def _in_club(self, pid: PlayerId, ck: str) -> bool:
        return bool(ck) and ck in self._clubs.get(pid, set())

    def _history(self) -> tuple[Counter[tuple[PlayerId, PlayerId]],
                                dict[tuple[str, int, int], set[PlayerId]]]:
        """The warehouse's history (read on first need) plus what this load learnt since its
        last commit; from then on the load's events are counted here directly."""
        if not self._history_read:
            self._history_read = True
            partners, activity = self.history() if self.history else ({}, {})
            for (a, b), n in partners.items():
                self._partners[(self._canon(a), self._canon(b))] += n
            for k, v in activity.items():
                self._activity.setdefault(k, set()).update(self._canon(p) for p in v)
            self._partners.update(self._staged_partners)
            for k, v in self._staged_activity.items():
                self._activity.setdefault(k, set()).update(v)
        return self._partners, self._activity

    def committed(self) -> None:
        """The events resolved so far are in the warehouse now: a later first read of the
        history finds them there, so they are not counted again from memory."""
        self._staged_partners.clear()
        self._staged_activity.clear()

    # --- the public step -------------------------------------------------------------------

    def resolve_event(self, event: Event, event_ref: object = None,
                      seated: Iterable[PlayerId] = ()) -> list[list[Resolution]]:
        """A :class:`Resolution` per member of every unit, in file order.

        ``seated``: players already seated in another section of the same session (they play
        once a session, so no name here can be them).

        Full names first, those found by federation id, alias or name key before any fuzzy
        match, so a player present under their own name is never taken by a similar name of
        someone else at the table (Marty and Mary McCune); then initials, those whose partners
        are already known first, so a decoded partner can serve as evidence for the other.
        """
        used: set[PlayerId] = {self._canon(pid) for pid in seated}
        self._game = event.game
        out: list[list[Resolution | None]] = [[None] * len(u.players) for u in event.units]
        waiting: list[tuple[int, int]] = []
        similar: list[tuple[int, int]] = []
        for ui, unit in enumerate(event.units):
            for si, p in enumerate(unit.players):
                if p.initials:
                    waiting.append((ui, si))
                    continue
                found = self._resolve_name(p, event, used, event_ref, exact=True)
                if found is None:
                    similar.append((ui, si))
                    continue
                out[ui][si] = found
                used.add(self._canon(found.player_id))
        for ui, si in similar:
            res = self._resolve_name(event.units[ui].players[si], event, used, event_ref)
            assert res is not None
            out[ui][si] = res
            used.add(self._canon(res.player_id))
        progress = True
        while waiting and progress:
            progress = False
            for ui, si in list(waiting):
                others = [out[ui][j] for j in range(len(event.units[ui].players)) if j != si]
                partners_open = any(o is None for o in others)
                decision = self._decode(event.units[ui].players[si], event, others, used)
                if decision.player_id is not None or not partners_open or not decision.candidates:
                    res = self._finish_initials(event.units[ui].players[si], event, others,
                                                decision, event_ref)
                    out[ui][si] = res
                    used.add(self._canon(res.player_id))
                    waiting.remove((ui, si))
                    progress = True
        for ui, si in waiting:  # partners waiting on each other: decide with what is known
            others = [out[ui][j] for j in range(len(event.units[ui].players)) if j != si]
            decision = self._decode(event.units[ui].players[si], event, others, used)
            res = self._finish_initials(event.units[ui].players[si], event, others, decision,
                                        event_ref)
            out[ui][si] = res
            used.add(self._canon(res.player_id))
        final = [[r for r in unit if r is not None] for unit in out]
        self._learn_event(event, final)
        return final

    # --- full names --------------------------------------------------------------------------

    def _resolve_name(self, p: PlayerAsWritten, event: Event, used: set[PlayerId],
                      event_ref: object, *, exact: bool = False) -> Resolution | None:
        """The player of a full name; ``exact``: only by federation id, alias or name key,
        None where a fuzzy match or a new player would decide."""
        form = parse_name(p.name)
        key = form.key
        fid = (p.federation_id or "").strip() or None
        club = p.club or event.organiser
        ck = club_key(club)
        if fid and fid in self._by_fid:
            pid = self._canon(self._by_fid[fid])
            if pid not in used:
                self._index_spelling(pid, p.name)
                return Resolution(pid, False, "federation id")
            # the id's player already plays in this event under another name: the id is
            # wrong here (a player plays once per event), so the name decides
            fid = None
        aliased = self._alias.get(key)
        if aliased is not None and self._live([aliased], fid=fid, any_game=True):
            return self._found(self._canon(aliased), "confirmed alias", fid, p.name)
        item_key = f"name:{key}@{ck}" + (f"#{fid}" if fid else "")
        rule_keys = (key, item_key)
        steps: list[tuple[str, set[PlayerId]]] = [("name key", self._by_key.get(key, set()))]
        if form.abbreviated:
            steps.append(("abbreviated first name", self._by_short.get(key, set())))
        for how, pool in steps:
            found = self._live(pool, fid=fid, rule_keys=rule_keys, exclude=used)
            if not found:
                continue
            in_club = [c for c in found if self._in_club(c, ck)]
            if len(in_club) == 1:
                return self._found(in_club[0], f"{how} in club", fid, p.name)
            if len(found) == 1 and not in_club:
                return self._found(found[0], how, fid, p.name)
            many = in_club or found
            evidence = {"rule": how, "club": club, "reason": "several players fit equally"}
            return self._review("name", p, club, item_key, fid, event_ref,
                                [self._candidate(c, None, ck) for c in many], evidence)
        if item_key in self._items or item_key in self._situation:
            # the same spelling waits for a person already (or was answered): the same item,
            # whoever sits at the table now, so one name is never two players
            return self._review("name", p, club, item_key, fid, event_ref, [],
                                {"rule": "the same name waits for review"})
        if exact:
            return None
        scored = self._fuzzy(key, fid, rule_keys, used)
        if scored:
            best_pid, best = scored[0]
            runner_up = scored[1][1] if len(scored) > 1 else -1.0
            if best >= self.settings.fuzzy_accept and best - runner_up >= self.settings.fuzzy_margin:
                res = self._found(best_pid, f"fuzzy {best:.1f}", fid, p.name)
                return Resolution(res.player_id, False, res.how,
                                  {"score": round(best, 1), "matched": self._players[best_pid].name,
                                   "runner_up": round(runner_up, 1) if runner_up >= 0 else None},
                                  None, res.learned_federation_id)
            evidence = {"rule": "fuzzy", "club": club, "accept_at": self.settings.fuzzy_accept,
                        "margin": self.settings.fuzzy_margin}
            return self._review("name", p, club, item_key, fid, event_ref,
                                [self._candidate(c, s, ck) for c, s in scored], evidence)
        pid = self._create(p.name, fid, "confirmed", "results", club)
        return Resolution(pid, True, "new player")

    def _found(self, pid: PlayerId, how: str, fid: str | None, spelling: str) -> Resolution:
        learned = None
        p = self._players[pid]
        if fid and not p.federation_id:
            p.federation_id = fid
            self._by_fid[fid] = pid
            learned = fid
        self._index_spelling(pid, spelling)
        return Resolution(pid, False, how, None, None, learned)

    def _fuzzy(self, key: str, fid: str | None, rule_keys: Sequence[str],
               used: set[PlayerId]) -> list[tuple[PlayerId, float]]:
        if not key or not self._fuzzy_keys:
            return []
        hits = process.extract(key, self._fuzzy_keys, scorer=fuzz.token_sort_ratio,
                               score_cutoff=self.settings.fuzzy_review, limit=None)
        best: dict[PlayerId, float] = {}
        for matched, score, index in hits:
            if not may_be_one_person(key, matched):
                continue  # another word, not a typo: another person (Karen, Kevin Epley)
            for c in self._live([self._fuzzy_ids[index]], fid=fid, rule_keys=rule_keys,
                                exclude=used):
                if not _typo_only(key, matched):
                    # a short word spelt otherwise is another name (Gu and Guo, Lei and
                    # Leyi): a person decides, however alike the whole names are
                    score = min(float(score), self.settings.fuzzy_accept - 0.1)
                best[c] = max(best.get(c, 0.0), float(score))
        return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:8]

    # --- initials ----------------------------------------------------------------------------

    def _initials_key(self, p: PlayerAsWritten, event: Event,
                      others: Sequence[Resolution | None]) -> tuple[str, str, str]:
        ck = club_key(p.club or event.organiser)
        code = initials_code(p.name)
        partners = sorted(str(self._canon(o.player_id)) for o in others if o is not None)
        return ck, code, f"initials:{ck}:{code}:with:{','.join(partners) or '-'}"

    def _decode(self, p: PlayerAsWritten, event: Event, others: Sequence[Resolution | None],
                used: set[PlayerId]) -> _Decision:
        ck, code, item_key = self._initials_key(p, event, others)
        if item_key in self._situation:
            pid = self._canon(self._situation[item_key])
            return _Decision(pid, "initials: earlier decision", {"situation": item_key})
        pool = [c for c in self._by_code.get(code, set()) if self._in_club(self._canon(c), ck)]
        only = self._initials_only.get((ck, code))
        candidates = self._live(pool + ([only] if only is not None else []),
                                rule_keys=(item_key,), exclude=used)
        base: dict[str, Any] = {"club": p.club or event.organiser, "code": code,
                                "roster": [self._players[c].name for c in candidates]}
        elsewhere = self._live(pool + ([only] if only is not None else []),
                               rule_keys=(item_key,))
        placed = sorted(self._players[c].name for c in elsewhere if c in used)
        if placed:
            base["placed_elsewhere_in_event"] = placed
        if not candidates:
            return _Decision(None, "initials only: no roster member", base)
        if len(candidates) == 1:
            return _Decision(candidates[0], "initials: only candidate", base, tuple(candidates))
        partners_played, activity = self._history()
        partner_ids = [self._canon(o.player_id) for o in others if o is not None]
        together = {c: sum(partners_played.get((c, q), 0) for q in partner_ids)
                    for c in candidates}
        week = event.date.isocalendar()
        played_week = activity.get((ck, week[0], week[1]), set())
        evidence = dict(base)
        evidence["partners"] = [self._players[q].name for q in partner_ids if q in self._players]
        evidence["candidates"] = [
            {"player_id": c, "name": self._players[c].name, "events_with_partner": together[c],
             "played_that_week": c in played_week}
            for c in candidates
        ]
        narrowed = candidates
        with_partner = [c for c in narrowed if together[c] > 0]
        if len(with_partner) == 1:
            return _Decision(with_partner[0], "initials: usual partner", evidence, tuple(narrowed))
        if with_partner:
            narrowed = with_partner
        that_week = [c for c in narrowed if c in played_week]
        if len(that_week) == 1:
            return _Decision(that_week[0], "initials: played in the club that week", evidence,
                             tuple(narrowed))
        if that_week:
            narrowed = that_week
        return _Decision(None, "initials: ambiguous", evidence, tuple(narrowed))

    def _finish_initials(self, p: PlayerAsWritten, event: Event,
                         others: Sequence[Resolution | None], decision: _Decision,
                         event_ref: object) -> Resolution:
        ck, code, item_key = self._initials_key(p, event, others)
        if decision.player_id is not None:
            return Resolution(decision.player_id, False, decision.how, decision.evidence)
        if not decision.candidates:
            pid = self._create(p.name, None, "provisional", "initials", p.club or event.organiser,
                               code)
            self._initials_only[(ck, code)] = pid
            return Resolution(pid, True, decision.how, decision.evidence)
        candidates = [self._candidate(c, None, ck) for c in decision.candidates]
        return self._review("initials", p, p.club or event.organiser, item_key, None, event_ref,
                            candidates, decision.evidence)

    # --- review queue and new players --------------------------------------------------------

    def _candidate(self, pid: PlayerId, score: float | None, ck: str) -> dict[str, Any]:
        p = self._players[pid]
        return {"player_id": pid, "name": p.name, "federation_id": p.federation_id,
                "score": None if score is None else round(score, 1),
                "in_club": self._in_club(pid, ck)}

    def _review(self, kind: Literal["initials", "name"], p: PlayerAsWritten, club: str | None,
                item_key: str, fid: str | None, event_ref: object,
                candidates: list[dict[str, Any]], evidence: dict[str, Any]) -> Resolution:
        if item_key in self._situation:  # a person decided this situation before
            pid = self._canon(self._situation[item_key])
            return Resolution(pid, False, f"{kind}: earlier decision", {"situation": item_key})
        if item_key in self._items:
            pid = self._items[item_key]
            if self._canon(pid) != pid or self._players[pid].state != "pending":
                return Resolution(self._canon(pid), False, f"{kind}: earlier decision",
                                  {"situation": item_key})
            return Resolution(pid, False, "waiting for review", evidence, item_key)
        pid = self._create(p.name, fid, "pending", "review", club)
        self._items[item_key] = pid
        self.review_entries.append(ReviewEntry(item_key, kind, p.name, club, pid,
                                               tuple(candidates), evidence, event_ref))
        return Resolution(pid, True, "waiting for review", evidence, item_key)

    def _create(self, name: str, fid: str | None, state: State, origin: str,
                club: str | None, code: str | None = None) -> PlayerId:
        pid = self.next_id
        self.next_id += 1
        if club and club_key(club):
            self._clubs.setdefault(pid, set()).add(club_key(club))
        if code is None:
            name = display_name(name)  # GIBBERD -> Gibberd; the file's spelling is an alias
        if self._game:
            self._games[pid] = {self._game}
        self._add_player(pid, name, fid, state, origin, code)
        self.new_players.append(NewPlayer(pid, name, fid, state, origin, club))
        return pid

    def _learn_event(self, event: Event, resolved: list[list[Resolution]]) -> None:
        """What later events may use: clubs, partnerships, who played in the club that week."""
        ck = club_key(event.organiser)
        week = event.date.isocalendar()
        if self._history_read:
            partners, activity = self._partners, self._activity
        else:
            partners, activity = self._staged_partners, self._staged_activity
        for unit, res in zip(event.units, resolved, strict=True):
            ids = [self._canon(r.player_id) for r in res]
            for pid in ids:  # a player of this game from now on (any game: stays so)
                if pid in self._games:
                    self._games[pid].add(event.game)
            for p, pid in zip(unit.players, ids, strict=True):
                for c in (ck, club_key(p.club)):
                    if c and self._players[pid].state != "pending":
                        self._clubs.setdefault(pid, set()).add(c)
            for a in ids:
                for b in ids:
                    if a != b:
                        partners[(a, b)] += 1
            if ck:
                activity.setdefault((ck, week[0], week[1]), set()).update(ids)


def surname_key(name: str) -> str:
    """How a name sorts in a list: surname first, accents and case folded. The surname is a
    word written in capitals (``NOVÁK Ján``), else the last word (``Ján Novák``)."""
    words = name.split()
    if not words:
        return ""
    capitals = [i for i, w in enumerate(words)
                if len(w) > 1 and w.isupper() and not all(x.isupper() for x in words)]
    at = capitals[0] if capitals else len(words) - 1
    ordered = [words[at], *words[:at], *words[at + 1:]]
    return fold(" ".join(ordered))
