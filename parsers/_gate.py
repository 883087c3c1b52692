"""The plausibility gate: what any parser produced must look like a result list to be loaded.

Every registered format's ``parse()`` passes through :func:`check` (the registry wraps it), so a
new format cannot bypass it. The gate is the last line behind the parsers' own checks; it looks
only at the records, never at the bytes, and knows no format except by the ``handles`` flag of
online platforms whose players are user names.

What it does, in order (docs/rules/gate.md says the same for a reader):

1. **Seat fillers are never players.** A player written as a phantom, sit-out, bye, rest,
   director, robot (``~~M1``, ``GIB``, ``Robot``), vacant or unknown seat is taken out of its
   unit; an ``info`` issue says so. A unit left with no player keeps its place (the field was
   that size), but at least two units of every event must hold players.
2. **Player names must look like names.** A file is refused (:class:`ImplausibleResult`) when a
   name is a seat or direction label (``N-S``, ``EW``), a column heading (``Name``, ``Pair``),
   a pair or table number glued to names (``1-Alfa-Bravo``, ``12 Novák``), a bare number, a
   card holding or contract (``AKQ84``, ``3NT=``, ``♠``), a call (``Pass``, ``Dbl``), has no two
   letters, control or replacement characters, or more than :data:`MAX_NAME` characters. Digits
   inside brackets (``Novák (1234)``) are a note, not part of the name. On platforms whose
   players are user names (BBO), letters and digits mixed are a user name; a number of five or
   more digits is too, a shorter one is not.
3. **Units must fit the event.** At least two ranked units; every place finite, from 1 to the
   number of units; every score finite; in a pairs event most units hold two players, in an
   individual event most hold one, in a teams event most hold two or more, a go game two sides
   of one player each. One player appears once per event (the same federation id or the same
   full name twice is refused).
4. **Places need a witness.** When no unit has a score and no place was written (every
   ``place_text`` empty), the order is only the order of the rows: refused.
5. **Dates and sizes in range.** The date between 1900 and 2100, boards from 1 to
   :data:`MAX_BOARDS`, titles and sections at most :data:`MAX_TEXT` characters.

A file with no event at all is refused too: it is not a result list.

Every refusal names the file, the event (title and section) as the table, the unit (its place
and label) as the row, the player slot as the column, and the value.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable

from games import game

from ._errors import ParseError
from ._issues import source_name
from ._limits import current
from ._model import Event, ParseIssue, ParseResult, PlayerAsWritten, Unit

__all__ = [
    "ImplausibleResult",
    "MAX_BOARDS",
    "MAX_NAME",
    "MAX_TEXT",
    "check",
    "filler_reason",
    "gated",
    "junk_reason",
]

MAX_NAME = 100
"""Longest plausible player name, in characters."""
MAX_TEXT = 300
"""Longest plausible event title, section or organiser, in characters."""
MAX_BOARDS = 2000
"""Most boards one event can have (a week-long congress plays fewer)."""


class ImplausibleResult(ParseError):
    """What the parser produced does not look like a result list (the plausibility gate)."""


# --- seat fillers -----------------------------------------------------------------------------

_FILLERS = (
    "phantom", "fantom", "fantome", "phantome", "phantom pair", "phantompair", "sit out",
    "sitout", "sit-out", "sitting out", "bye", "rest", "pauza", "pausa", "pause", "wolny",
    "wolna", "volno", "volny", "odpocinok", "odpocinek", "piheno", "director",
    "tournament director", "td", "sedzia", "rozhodca", "rozhodci", "robot", "robots", "gib",
    "vacant", "vakant", "empty", "none", "unknown", "nieznany", "neznamy", "ismeretlen",
    "nn", "n n", "ghost", "dummy", "absent", "missing", "blank", "tbd", "tba", "x",
    "player bye", "bye player", "bye bye", "轮空", "輪空", "轮 空", "輪 空",
)
_FILLER_SET = frozenset(_FILLERS)
_FILLER_PREFIX = re.compile(r"^(?:~~|phantom\b|fantom\b|robot\b|sit[- ]?out\b|bye\b|gib\b|"
                            r"ghost(?:\s*#?\d{1,3}|\s+\w{1,3})?\s*$)", re.IGNORECASE)


_NOT_WORD = re.compile(r"[^\w]+")
_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=1 << 16)
def _fold(text: str) -> str:
    """Lower case, accents off, punctuation to spaces, spaces collapsed."""
    if text.isascii():  # nothing to decompose (most names): the same result, sooner
        plain = text
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        plain = "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ł", "l")
    plain = _NOT_WORD.sub(" ", plain.casefold())
    return " ".join(plain.split())


@functools.lru_cache(maxsize=1 << 16)
def filler_reason(name: str) -> str | None:
    """Why ``name`` is a seat filler (phantom, sit-out, bye, director, robot ...), or None."""
    text = name.strip()
    if not text:
        return "an empty seat"
    if _FILLER_PREFIX.match(text):
        return "a seat filler"
    folded = _fold(text)
    if folded in _FILLER_SET or not folded and set(text) <= set("-–—?*._/ "):
        return "a seat filler"
    return None


# --- junk names -------------------------------------------------------------------------------

_LABELS = frozenset(_fold(w) for w in """
n s e w ns ew n-s e-w n/s e/w nsew north south east west nord sud est ouest nord-sud
est-ouest nordsud north-south east-west pn wsch zach płn płd pd ew-ns sn we
name names player players pair pairs team teams total sum score scores place rank pos position
pct percent percentage board boards contract contracts lead result results table tables
section round rounds hand hands dealer vul vulnerable vulnerability both all nil
pass passes all pass double dbl redouble rdbl xx nt notrump no trump spades hearts diamonds clubs
imps imp vps vp mps mp matchpoints tricks declarer by club clubs masterpoints points pts
meno mená hráč hráči hrac hraci priezvisko jméno jmeno příjmení prijmeni dvojica dvojice
pár páry druzstvo družstvo tim tím body poradie umiestnenie pořadí poradi miesto místo
zawodnik zawodnicy nazwisko imię imie para pary drużyna druzyna miejsce wynik punkty pozycja
szczegóły szczegoly klub okręg okreg wk pkl
név nev játékos jatekos helyezés helyezes pont csapat pár
spieler paar mannschaft platz rang ergebnis punkte
nom joueur joueurs paire equipe équipe classement
details detail info history historia
average avg mean top par max min průměr prumer priemer średnia srednia átlag atlag
s-j v-z k-ny
""".split())
_CORE_LABELS = frozenset(_fold(w) for w in """
n s e w ns ew n-s e-w n/s e/w nsew north south east west name names player players pair pairs
team teams total score place rank pos board boards contract result table section round
""".split())
"""The labels refused even as user names of an online platform."""
_LABEL_LEAD = re.compile(
    r"^(?:section|sector|table|round|board|pair|team|session|group|flight|strat|sekcja|sektor|"
    r"stół|stol|stůl|runda|kolo|kolejka|rozdanie|skupina|grupa|sekcia|sekce|csoport|asztal|"
    r"gruppe|tisch|runde)\s+\S{1,3}$", re.IGNORECASE)
_TWO_NAMES = re.compile(r"\s[-–—&+/]\s|[&+/]|\s(?:and|und|és|et|(?-i:i|a))\s(?=\S)",
                        re.IGNORECASE)
"""A cell naming two people: a dash or ``&`` between names, or a joining word (``a``/``i``, Slovak,
Czech and Polish "and", only in lower case: ``Ken A Smith`` is one person's middle initial)."""
_ADDRESS = re.compile(r"https?:|www\.|@\w+\.|\.(?:html?|php|aspx?)\b", re.IGNORECASE)
_CARD_SYMBOLS = re.compile("[\u2660-\u2667]|&(?:spades|hearts|diams|clubs);", re.IGNORECASE)
_CONTRACT = re.compile(
    r"^(?:[1-7]\s*(?:nt|sa|ba|bez|[shdcnpkt])\s*(?:xx|x|\*{1,2})?\s*(?:[nsew]\s*)?"
    r"(?:=|[+-]\s*\d{1,2}|\d{1,2})?)$", re.IGNORECASE)
_HOLDING = re.compile(r"^(?:[AKQJT98765432x]|10|-){3,13}$")
_CALLS = frozenset({"pass", "dbl", "rdbl", "double", "redouble", "all pass", "x", "xx", "p",
                    "pas", "passe", "pasz", "kontra", "rekontra"})
_GLUED_NUMBER = re.compile(r"^\s*\d+\s*[-.:)/,]?\s*\D")
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_NAMESAKE = re.compile(r"(?<=[^\W\d_]{2})\s+(?:\d|#\d{1,3})$")
"""``RUTH MCCONNELL 2``, ``Chung Chen-en #3``: a club or a tournament numbers members of one
name; the number is part of the name."""
_JOINED_PAIR = re.compile(r"^\s*[^\W\d_][^\W\d_'.]+\s*-\s*[^\W\d_][^\W\d_'.]+\s*$")
"""``Olteanu-Zavloschi``, one token of two surnames with no given name: a pair, not a person."""
_NUMBERED_PAIR = re.compile(r"^\d+\s*-\s*[^\W\d_]+-")
"""``1-Alfa-Bravo``: a traveller's pair number and two surnames, not a user name."""
_HANDLE = re.compile(r"^[\w.#'-]+(?: [\w.#'-]+)*$")
"""A user name: letters, digits, dots, underscores, ``#``, ``'``, ``-``, single spaces (BBO
shows `hulk 4`, Funbridge `NSK-62` and `AZETA56#`)."""


def _letters(text: str) -> int:
    return sum(map(str.isalpha, text))


def junk_reason(player: PlayerAsWritten, *, handles: bool = False,
                surnames: bool = False) -> str | None:
    """Why this name is not a person's name (a label, a fragment, a number ...), or None.

    ``handles``: the format's players are user names of an online platform (BBO), where letters
    and digits mixed, and long numbers, are names. Answers are cached per spelling: a club's
    players come back every week.
    """
    return _junk_reason(player.name, player.initials, handles, surnames)


@functools.lru_cache(maxsize=1 << 16)
def _junk_reason(name: str, initials: bool, handles: bool, surnames: bool = False) -> str | None:
    # (a printable name has none of those categories: the check per character only for others)
    if (not name.isprintable() and any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")
                                       and c not in "\t" for c in name)) or "\ufffd" in name:
        return "has control or replacement characters"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    text = name.strip()
    folded = _fold(text)
    if "<" in text or ">" in text:
        return "holds markup (< or >), not a name"
    if _CARD_SYMBOLS.search(text):
        return "holds card symbols (a hand or contract, not a name)"
    if folded in _CALLS or folded.replace(" ", "") in {"allpass"}:
        return "is a call, not a name"
    if _CONTRACT.match(text.replace(" ", "")):
        return "is a contract or a score, not a name"
    # a user may call themselves "clubs"; in an event of surnames alone, "Top" is a surname
    labels = _CORE_LABELS if handles or surnames else _LABELS
    if folded in labels or folded.replace(" ", "") in labels or _LABEL_LEAD.match(text):
        return "is a label or column heading, not a name"
    if _ADDRESS.search(text):
        return "is an address or a link, not a name"
    compact = _SPACES.sub("", text)
    if compact.isdigit():
        if handles and len(compact) >= 5:
            return None
        return "is a bare number, not a name"
    if not initials and not handles and _HOLDING.match(compact) and (
            any(c.isdigit() for c in compact) or "x" in compact):
        return "is a card holding, not a name"
    if handles and _HANDLE.match(text) and not _NUMBERED_PAIR.match(text):
        return None  # a user name: any mix of letters, digits, _ and . that is not a number
    bare = _BRACKETS.sub(" ", text)
    if not handles and _TWO_NAMES.search(bare):
        return "holds two names (a pair or team not split into its players)"
    if _GLUED_NUMBER.match(text):
        return "starts with a number (a pair or table number glued to the name)"
    person = _NAMESAKE.sub("", bare)
    if person != bare and len(person.split()) >= 2 and _fold(person) not in _LABELS:
        bare = person  # a full name with its namesake number
    if any(map(str.isdigit, bare)):
        return "has digits, which a person's name does not"
    if _letters(bare) < 2 and not (initials and _letters(bare) >= 1):
        return "has fewer than two letters"
    return None


# --- the gate ---------------------------------------------------------------------------------

_HANDLE_FORMATS = frozenset({"bbo"})
"""Formats whose players are user names of an online platform; elsewhere a reader marks a user
name with ``PlayerAsWritten.handle``."""


def _event_name(event: Event, index: int) -> str:
    text = f"event {index} {event.title!r}" if event.title else f"event {index}"
    if event.section:
        text += f" section {event.section!r}"
    return text


def _unit_name(unit: Unit, index: int) -> str:
    text = f"unit {index}"
    if unit.label:
        text += f" ({unit.label!r})"
    if unit.place_text:
        text += f", place {unit.place_text!r}"
    return text


def _slot_name(units: list[Unit], index: int, player: int) -> str:
    """``unit 3 ('7'), place '2', player 1``: player ``player`` of unit ``index`` (from 1)."""
    return f"{_unit_name(units[index - 1], index)}, player {player}"


def _finite(x: float | None) -> bool:
    return x is None or (isinstance(x, (int, float)) and math.isfinite(x))


def _refuse(problem: str, *, file: str, table: str | None = None, row: str | None = None,
            column: str | None = None, value: object = None) -> ImplausibleResult:
    return ImplausibleResult(problem, file=file or None, table=table, row=row, column=column,
                             value=value)


_CONTROL_OR_REPLACEMENT = re.compile("[\x00-\x1f\x7f-\x9f\ufffd]")
"""A control character (Unicode category Cc: C0, DEL and C1) or the replacement character."""


def _check_event(event: Event, index: int, file: str, notes: list[ParseIssue]) -> Event:
    where = _event_name(event, index)
    handles = event.format in _HANDLE_FORMATS or any(
        p.handle for u in event.units for p in u.players)
    names = [p.name for u in event.units for p in u.players]
    # pairs named by surnames alone (a typed tournament sheet): a label-like word beside a
    # partner's surname is a surname too (``Kroes - Top``)
    surnames = len(names) >= 6 and sum(len(n.split()) == 1 for n in names) * 3 >= 2 * len(names) \
        and all(len(u.players) >= 2 for u in event.units)
    for label, text in (("title", event.title), ("section", event.section),
                        ("organiser", event.organiser)):
        if len(text) > MAX_TEXT:
            raise _refuse(f"the event's {label} is longer than {MAX_TEXT} characters",
                          file=file, table=where, column=label, value=text[:60] + "…")
        if _CONTROL_OR_REPLACEMENT.search(text):
            raise _refuse(f"the event's {label} has control or replacement characters",
                          file=file, table=where, column=label, value=text)
    bounds = current()
    if not bounds.first_year <= event.date.year <= bounds.last_year:
        raise _refuse(f"the event's date is outside {bounds.first_year}-{bounds.last_year} "
                      "([limits] first_year, last_year)", file=file, table=where,
                      column="date", value=event.date.isoformat())
    end = event.end_date
    if end is not None and not 0 <= (end - event.date).days <= 366:
        raise _refuse("the event ends before it starts or more than a year after",
                      file=file, table=where, column="end date", value=end.isoformat())
    if event.boards is not None and not 1 <= event.boards <= MAX_BOARDS:
        raise _refuse(f"the number of boards is outside 1-{MAX_BOARDS}", file=file, table=where,
                      column="boards", value=event.boards)

    clubs = {_fold(c) for c in (event.organiser, *(p.club or "" for u in event.units
                                                   for p in u.players)) if c}
    units: list[Unit] = []
    for u_index, unit in enumerate(event.units, 1):
        # the unit's name is written only when a line needs it (a refusal, a filler's note)
        if not _finite(unit.place):
            raise _refuse("a place is not a finite number", file=file, table=where,
                          row=_unit_name(unit, u_index), column="place", value=unit.place)
        if not _finite(unit.score):
            raise _refuse("a score is not a finite number", file=file, table=where,
                          row=_unit_name(unit, u_index), column="score", value=unit.score)
        kept: list[PlayerAsWritten] = []
        for p_index, player in enumerate(unit.players, 1):
            filler = filler_reason(player.name)
            if filler is not None:
                notes.append(ParseIssue(
                    "info", f"{player.name!r} is {filler}, not a player: left out",
                    f"{where}, {_unit_name(unit, u_index)}, player {p_index}"))
                continue
            junk = junk_reason(player, handles=handles or player.handle, surnames=surnames)
            if junk is None and _fold(player.name) in clubs:
                junk = "is the name of a club, not of a player"
            if junk is not None:
                raise _refuse(f"a player's name {junk}; this does not look like a result list",
                              file=file, table=where, row=_unit_name(unit, u_index),
                              column=f"player {p_index}", value=player.name)
            kept.append(player)
        units.append(unit if len(kept) == len(unit.players)
                     else dataclasses.replace(unit, players=tuple(kept)))

    n = len(units)
    staffed = [u for u in units if u.players]
    ranked = [u for u in staffed if u.place is not None]
    if len(ranked) < 2:
        raise _refuse(f"fewer than two ranked units with players ({len(ranked)} of {n} units); "
                      "a result list ranks at least two", file=file, table=where)
    for u_index, unit in enumerate(units, 1):
        if unit.place is not None and not 1 <= unit.place <= n:
            raise _refuse(f"a place is outside 1-{n} (the event has {n} units)", file=file,
                          table=where, row=_unit_name(unit, u_index), column="place",
                          value=unit.place)
    if not any(u.score is not None for u in units) and not any(u.place_text for u in units):
        raise _refuse("no unit has a score and no place is written: the order would be only "
                      "the order of the rows", file=file, table=where)
    if not any(u.place_text for u in units) and not _scores_agree(units):
        raise _refuse("no place is written and the places given do not follow the scores",
                      file=file, table=where, column="place")

    # seats, fillers included: a human with a robot partner is still a pair
    sizes = [len(original.players) for original, u in zip(event.units, units, strict=True)
             if u.players]
    shape_problem = _shape_problem(event, sizes, handles=handles)
    if shape_problem:
        raise _refuse(shape_problem, file=file, table=where, column="players",
                      value=dict(sorted(Counter(sizes).items())))

    # where a unit (its number) or a player (unit and player numbers) was seen first, named
    # only when a refusal quotes it
    seen_units: dict[tuple[str, ...], int] = {}
    for u_index, unit in enumerate(units, 1):
        # a unit written twice (initials too): rows duplicated, never two teams of the same
        # people (two different people written with the same initials cannot be told apart)
        members = tuple(sorted(_fold(p.name) for p in unit.players))
        if members and members in seen_units:
            first = seen_units[members]
            raise _refuse(f"the same players twice in one event (also "
                          f"{_unit_name(units[first - 1], first)}): rows written twice?",
                          file=file, table=where, row=_unit_name(unit, u_index),
                          column="players", value=", ".join(p.name for p in unit.players))
        seen_units.setdefault(members, u_index)
    seen_ids: dict[str, tuple[int, int]] = {}
    seen_names: dict[str, tuple[int, int]] = {}
    for u_index, unit in enumerate(units, 1):
        for p_index, player in enumerate(unit.players, 1):
            slot = (u_index, p_index)
            fid = (player.federation_id or "").strip()
            if fid and fid.strip("0-_. ") and fid.casefold() not in {"none", "null", "n/a"}:
                if fid in seen_ids:
                    raise _refuse(f"the same federation id twice in one event (also "
                                  f"{_slot_name(units, *seen_ids[fid])})", file=file,
                                  table=where, row=_slot_name(units, *slot),
                                  column="federation id", value=fid)
                seen_ids[fid] = slot
            if player.initials:
                continue
            key = _fold(player.name)
            if key in seen_names and not fid and " " not in key:
                # a surname alone names a family, not a person: ``Hackett - Hackett``
                seen_names[key] = slot
                continue
            if key in seen_names and not fid:
                raise _refuse(f"the same player twice in one event (also "
                              f"{_slot_name(units, *seen_names[key])})", file=file,
                              table=where, row=_slot_name(units, *slot), column="player",
                              value=player.name)
            seen_names.setdefault(key, slot)

    if all(a is b for a, b in zip(units, event.units, strict=True)):
        return event
    return dataclasses.replace(event, units=tuple(units))


def _scores_agree(units: list[Unit]) -> bool:
    """Places follow the scores: ordered by place, the scores never rise, or never fall."""
    scored = sorted((u.place, u.score) for u in units
                    if u.place is not None and u.score is not None)
    steps = [b[1] - a[1] for a, b in zip(scored, scored[1:]) if b[0] > a[0]]
    return all(d <= 0 for d in steps) or all(d >= 0 for d in steps)


def _shape_problem(event: Event, sizes: list[int], *, handles: bool = False) -> str | None:
    """Why the units' sizes do not fit the event's kind, or None."""
    n = len(sizes)
    played = game(event.game)
    if played.two_player_games:
        if n != 2 or any(s != 1 for s in sizes):
            return f"a {played.name} game must have two sides of one player each"
        if (event.handicap or 0) >= 1 and any(u.colour is None for u in event.units):
            return ("a handicap game must say who took black (the stones are given to black); "
                    "an even game may leave the colours out")
        return None
    if played.single_player_units:
        return None
    if event.kind == "pairs" and handles:
        # online: a human's partner may be a robot, which the reader leaves out
        if sum(s in (1, 2) for s in sizes) * 4 < n * 3:
            return "a pairs event whose units are mostly not one or two players"
        return None
    if event.kind == "pairs" and (sum(s == 2 for s in sizes) * 2 < n
                                  or sum(s in (2, 3) for s in sizes) * 4 < n * 3):
        # a pair with a substitute is three players; a pair with one name missing is one
        return "a pairs event whose units are mostly not two players"
    if event.kind == "individual" and sum(s == 1 for s in sizes) * 4 < n * 3:
        return "an individual event whose units are mostly not one player"
    if event.kind == "individual":
        joined = sum(1 for u in event.units for p in u.players if _JOINED_PAIR.match(p.name))
        if joined * 2 >= max(n, 1):
            return ("an individual event whose players are mostly two surnames joined by a "
                    "hyphen (Novák-Kováč): a pairs event read as individuals")
    if event.kind == "teams" and sum(s >= 2 for s in sizes) * 2 < n:
        return "a teams event whose teams mostly have fewer than two players"
    return None


def check(result: ParseResult, *, file: str = "", generic: bool = False) -> ParseResult:
    """``result`` if it looks like a result list (fillers taken out, with info issues);
    :class:`ImplausibleResult` naming file, event, unit, player and value if not.

    ``generic``: the result comes from a generic table reader (any HTML table, any sheet),
    which needs more evidence: a list numbered 1, 2, 3 ... with no score and no tie is a list
    (of registrations, of members), not a ranking."""
    if not result.events:
        raise _refuse("no event with results in this file; it does not look like a result list",
                      file=file)
    if generic:
        for i, ev in enumerate(result.events, 1):
            places = [u.place for u in ev.units]
            if all(u.score is None for u in ev.units) and \
                    places == [float(k) for k in range(1, len(places) + 1)]:
                raise _refuse("a list numbered 1, 2, 3 ... with no score and no tie: a list of "
                              "names, not a ranking", file=file, table=_event_name(ev, i),
                              column="place")
    notes: list[ParseIssue] = []
    events = tuple(_check_event(ev, i, file, notes) for i, ev in enumerate(result.events, 1))
    if not notes and all(a is b for a, b in zip(events, result.events, strict=True)):
        return result
    return dataclasses.replace(result, events=events, issues=result.issues + tuple(notes))


def gated(parse: Callable[..., ParseResult], *,
          generic: bool = False) -> Callable[..., ParseResult]:
    """``parse`` with every result passed through :func:`check` (what the registry serves)."""
    def parse_and_check(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
        return check(parse(data, source=source, strict=strict), file=source_name(source),
                     generic=generic)
    parse_and_check.__wrapped__ = parse  # type: ignore[attr-defined]
    parse_and_check.__doc__ = parse.__doc__
    return parse_and_check
