"""Players' names as result files write them: keys, abbreviations, initials, and pair cells.

One module for the parsers (splitting a unit's names cell into names) and for identity
resolution (an order-, case- and diacritics-insensitive key, the keys of an abbreviated first
name, the ``JNo`` initials codes). Everything here is a pure function of its text.

**Forms of one name** (docs/rules/inputs.md, "Realistic difficulties to expect"): ``Novák Ján``,
``Ján Novák``, ``NOVÁK Ján``, ``Novak Jan``, ``NOVAK J.``, ``J. Novák``, ``Novák, Ján``, with
titles (``Ing. Ján Novák, PhD.``, ``dr. Kovács János``, ``inż. Jerzy Zięba``), generation
markers (``ifj. Kovács János``), hyphenated surnames (``Nowak-Kowalska Anna``) and bracketed
notes (``Novák Ján (SVK)``, ``(G)`` for a guest). :func:`parse_name` reads them as follows:

1. dashes inside a word (U+2010, U+2011, an unspaced en/em dash) become ``-``, typographic
   apostrophes become ``'``; the text is folded (:func:`fold`);
2. bracketed notes ``(...)`` and ``[...]`` are removed;
3. dotted titles of several parts (``Ing. arch.``, ``Ph.D.``, ``dipl.-ing.``) are removed;
4. every character that is not a letter, a digit, ``-`` or ``'`` separates words (``J.`` ->
   ``j``, ``Novák,Ján`` -> two words); ``-`` and ``'`` at the ends of a word are dropped;
5. titles (:data:`TITLES`, with or without the dot, anywhere, also after a comma) are removed,
   unless nothing else would remain;
6. generation markers (:data:`GENERATION_MARKERS`: Hungarian ``ifj.``/``id.``, Slovak and Czech
   ``ml.``/``st.``, ``Jr.``/``Sr.``) are taken out of the words into ``suffix`` when some other
   word remains; the suffix is part of the key, so ``Kovács János`` and ``ifj. Kovács János``
   are two people.

**Initials** (docs/rules/inputs.md, "One club writes initials instead of names"): ``JNo`` is the first
letter of the first name plus the first two letters of the surname; :func:`is_initials` tells a
code, :func:`initials_code` folds one for comparison with :meth:`NameForm.initials_codes`.

**Pair cells**: see :func:`split_pair`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ._text import normalise_space

__all__ = [
    "GENERATION_MARKERS",
    "GIVEN_NAME_FORMS",
    "TITLES",
    "TYPO_MIN_LETTERS",
    "NameForm",
    "display_name",
    "fold",
    "initials_code",
    "is_initials",
    "may_be_one_person",
    "name_key",
    "parse_name",
    "same_word",
    "split_names_with_initials",
    "split_pair",
]

# --- folding --------------------------------------------------------------------------------

_SPECIAL_LETTERS = str.maketrans({
    "ł": "l", "đ": "d", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th", "ð": "d",
})
"""Letters that Unicode does not decompose into a base letter and a mark (after casefold)."""


def _strip_marks(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


@functools.lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Text without case and diacritics: ``"Łukasz Żółć"`` -> ``"lukasz zolc"``.

    NFKD with the combining marks removed, casefold, then the letters that do not decompose
    (``ł``->``l``, ``đ``->``d``, ``ø``->``o``, ``ß``->``ss``, ``æ``->``ae``, ``œ``->``oe``,
    ``ı``->``i``, ``þ``->``th``, ``ð``->``d``; upper-case forms through casefold). Whitespace and
    punctuation are kept as they are. Idempotent: ``fold(fold(t)) == fold(t)``.
    """
    return _strip_marks(_strip_marks(text).casefold().translate(_SPECIAL_LETTERS))


# --- initials -------------------------------------------------------------------------------


def is_initials(token: str) -> bool:
    """Whether ``token`` is a ``JNo`` code (docs/rules/inputs.md, "initials instead of names").

    An upper-case letter (the first name), an upper-case letter and one or two lower-case
    letters (the surname), in any alphabet with diacritics: ``JNo``, ``MŠť``, ``ĽKo``, ``ŁZi``,
    ``AHor``; not ``JNO``, ``Jno``, ``J.No`` or ``Novák``.
    """
    return (
        3 <= len(token) <= 4 and token.isalpha()
        and token[0].isupper() and token[1].isupper() and token[2:].islower()
    )


def initials_code(text: str) -> str:
    """A written ``JNo`` code folded for comparison: ``"JNo"`` -> ``"jno"``, ``"MŠť"`` ->
    ``"mst"``.

    Only the letters are kept (``" J.No "`` -> ``"jno"``); the pattern is not checked, ask
    :func:`is_initials` first. Compare with :meth:`NameForm.initials_codes` of a full name.
    """
    return fold("".join(ch for ch in text if ch.isalpha()))


# --- one name -------------------------------------------------------------------------------

TITLES = frozenset({
    "ing", "ingarch", "arch", "mgr", "bc", "mudr", "mvdr", "judr", "phdr", "rndr", "paeddr",
    "pharmdr", "thdr", "doc", "prof", "dr", "phd", "csc", "drsc", "mba", "msc", "inz", "lek",
    "dipl-ing", "diplng",
})
"""Academic and professional titles, folded and without dots (``Ing.``, ``PhD.``, ``inż.``).
``arch`` counts only as the second part of ``Ing. arch.`` (removed in step 3 of the module
docstring); alone it is a word like any other."""

GENERATION_MARKERS: Mapping[str, str] = MappingProxyType({
    "ifj": "ifj", "ifjabb": "ifj", "id": "id", "idosebb": "id",
    "ml": "ml", "mladsi": "ml", "st": "st", "starsi": "st",
    "jr": "jr", "junior": "jr", "sr": "sr", "senior": "sr",
})
"""Generation markers, folded, to the suffix they give: Hungarian ``ifj.``/``id.`` (ifjabb,
idősebb), Slovak and Czech ``ml.``/``st.`` (mladší, starší), ``Jr.``/``Sr.``."""

_MARKER_ORDER = ("ifj", "id", "jr", "sr", "ml", "st")
"""Which marker is the suffix when a name writes two (never in practice): the first here."""

_INNER_DASH = re.compile(r"(?<=\w)[\u2010\u2011\u2013\u2014](?=\w)")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_DOTTED_TITLES = re.compile(
    r"(?<![\w-])(?:ing\.\s*arch\.?|ph\.\s*d\.?|dipl\.\s*-?\s*ing\.?)(?![\w-])"
)
"""Titles written in several dotted parts, matched on folded text (module docstring, step 3)."""


def _words(text: str) -> list[str]:
    """Steps 1-4 of the module docstring: the folded words of ``text``, titles still in."""
    text = _INNER_DASH.sub("-", text.translate(_APOSTROPHES))
    text = _BRACKETS.sub(" ", fold(text))
    text = _DOTTED_TITLES.sub(" ", text)
    text = "".join(ch if ch.isalnum() or ch in "-'" else " " for ch in text)
    words = (re.sub(r"-{2,}", "-", w).strip("-'") for w in text.split())
    return [w for w in words if w]


def _title(word: str) -> bool:
    return word in TITLES and word != "arch"


def _join_key(tokens: Iterable[str], suffix: str) -> str:
    """Sorted tokens, then the generation marker: the key of :class:`NameForm`."""
    return " ".join([*sorted(tokens), *([suffix] if suffix else [])])


@dataclass(frozen=True, slots=True)
class NameForm:
    """One name as written, read into folded words (see the module docstring for the steps)."""

    written: str
    """The text as given."""
    tokens: tuple[str, ...]
    """Folded words in written order; titles, notes and the generation marker removed; ``J.``
    -> ``j``; a hyphenated surname is one word (``novakova-kralova``)."""
    key: str
    """Order-insensitive key: the sorted tokens joined by spaces, then the suffix if any
    (``"janos kovacs ifj"``); equal to :func:`name_key` of ``written``."""
    abbreviated: bool
    """Some token is a single letter (an abbreviated first name: ``NOVAK J.``, ``J. Novák``)."""
    suffix: str = ""
    """Generation marker (``ifj``, ``id``, ``ml``, ``st``, ``jr``, ``sr``), ``""`` if none."""

    def _key_of(self, tokens: Iterable[str]) -> str:
        return _join_key(tokens, self.suffix)

    def _surname_positions(self) -> list[int]:
        """Where the surname may be: the first or the last token, not a single letter."""
        last = len(self.tokens) - 1
        return [i for i in sorted({0, last}) if len(self.tokens[i]) > 1]

    def short_keys(self) -> frozenset[str]:
        """Keys of this name with given names cut to their first letter, for both name orders.

        ``Novák Ján`` and ``Ján Novák`` -> ``{"j novak", "jan n"}``; ``NOVAK J.`` ->
        ``{"j novak"}`` (a single letter is never the surname). The surname is taken to be the
        first token, then the last; for each, every other token is cut alone, and all of them
        together (``Anna Maria Nowak`` -> ``a maria nowak``, ``anna m nowak``, ``a m nowak``,
        ``anna maria n``, ``anna m n``). Single-token names -> empty set. Used to match an
        abbreviated written name: ``parse_name("NOVAK J.").key`` is in
        ``parse_name("Ján Novák").short_keys()``.
        """
        tokens = self.tokens
        if len(tokens) < 2:
            return frozenset()
        keys: set[str] = set()
        for surname in self._surname_positions():
            others = [i for i in range(len(tokens)) if i != surname]
            for cut in [{i} for i in others] + [set(others)]:
                keys.add(self._key_of(t[0] if i in cut else t for i, t in enumerate(tokens)))
        return frozenset(keys)

    def initials_codes(self) -> frozenset[str]:
        """The ``JNo`` codes (folded) this person could be written as, for both name orders.

        First letter of a given name + first two letters of the surname (docs/rules/inputs.md):
        ``Ján Novák`` -> ``{"jno", "nja"}``; a hyphenated surname counts as one
        (``Eva Nováková-Kráľová`` -> ``{"eno", "nev"}``). The surname is the first or the last
        token (not a single letter, so ``NOVAK J.`` -> ``{"jno"}``), the given name any other
        token. Four-letter codes (``AHor``) are not generated. Single-token names -> empty set.
        """
        tokens = self.tokens
        if len(tokens) < 2:
            return frozenset()
        codes: set[str] = set()
        for surname in self._surname_positions():
            letters = "".join(ch for ch in tokens[surname] if ch.isalpha())[:2]
            if len(letters) < 2:
                continue
            for i, given in enumerate(tokens):
                if i != surname and given[0].isalpha():
                    codes.add(given[0] + letters)
        return frozenset(codes)


@functools.lru_cache(maxsize=1 << 16)
def parse_name(text: str) -> NameForm:
    """Read one name as written; see the module docstring for the steps.

    ``parse_name("Ing. Ján Novák, PhD.")`` -> tokens ``("jan", "novak")``, key ``"jan novak"``;
    ``parse_name("ifj. Kovács János")`` -> tokens ``("kovacs", "janos")``, suffix ``"ifj"``,
    key ``"janos kovacs ifj"``; ``parse_name("")`` -> no tokens, key ``""``.
    """
    words = _words(text)
    plain = [w for w in words if not _title(w)] or words  # spec: titles removed
    markers = [GENERATION_MARKERS[w] for w in plain if w in GENERATION_MARKERS]
    rest = [w for w in plain if w not in GENERATION_MARKERS]
    if not markers or not rest:
        rest, suffix = plain, ""
    else:
        suffix = min(markers, key=_MARKER_ORDER.index)
    return NameForm(text, tuple(rest), _join_key(rest, suffix), any(len(w) == 1 for w in rest),
                    suffix)


def name_key(text: str) -> str:
    """The order-, case- and diacritics-insensitive key of a name: ``parse_name(text).key``.

    ``"Novák  Ján"``, ``"ján novak"``, ``"JAN NOVÁK"`` and ``"Ing. Ján Novák, PhD."`` share
    ``"jan novak"``; ``"Anna Nowak-Kowalska"`` (``"anna nowak-kowalska"``) differs from
    ``"Anna Nowak Kowalska"``.
    """
    return parse_name(text).key


# --- a unit's names cell --------------------------------------------------------------------

_SEPARATORS = re.compile(r"\s+[-\u2013\u2014]\s+|\s*[/;+&\n]\s*")
"""Always between names (docs/rules/inputs.md: ``Novák - Kováč``, ``Novák/Kováč``,
``Novák J. – Kováč P.``): a dash with spaces around, ``/``, ``;``, ``+``, ``&``, a line break."""
_INITIALS_TOKEN = re.compile(r"[^\s\-\u2013\u2014/,;+&]+")
"""A token of a cell of ``JNo`` codes: what lies between spaces, dashes, ``/``, ``,``, ``;``,
``+`` and ``&``."""
_JOINING_DASH = re.compile(r"[-\u2013\u2014]")
_ONE_WORD = re.compile(r"[^\s\-\u2013\u2014]+")
_SURNAME_INITIAL = re.compile(
    r"[^\W\d_][\w'\u2019]*(?:-[^\W\d_][\w'\u2019]*)?\s(?:[^\W\d_]\.?){1,2}"
)
"""``Novák J.``, ``Nowak-Kowalska A.``, ``Kováč P.J.``: a surname and an abbreviated name."""


_LINE_BREAK = re.compile(r"\r\n|[\n\r\u2028\u2029]")
"""Line breaks inside a cell: ``\\n``, ``\\r\\n``, ``\\r``, the Unicode line and paragraph
separators (other control characters, e.g. a vertical tab, are whitespace)."""


def _lines(text: str) -> str:
    """Whitespace normalised within each line, empty lines dropped, lines joined by ``\\n``."""
    if "\n" not in text and "\r" not in text and "\u2028" not in text and "\u2029" not in text:
        return normalise_space(text)  # one line (most cells)
    return "\n".join(line for line in map(normalise_space, _LINE_BREAK.split(text)) if line)


def _initials_tokens(text: str) -> list[str]:
    """The tokens of a cell made only of ``JNo`` codes (``JNo-PKo``, ``JNo PKo``), else []."""
    tokens: list[str] = []
    for match in _INITIALS_TOKEN.finditer(text):  # (a cell of names stops at its first word)
        if not is_initials(token := match[0]):
            return []
        tokens.append(token)
    return tokens


def _only_titles(piece: str) -> bool:
    words = _words(piece)
    return bool(words) and all(_title(w) or w in GENERATION_MARKERS for w in words)


def _comma_groups(part: str) -> list[str]:
    """``part`` cut at commas, empty pieces dropped, a piece made only of titles or markers kept
    with the one before (``Novák Ján, Ing.``, ``Kovács János, ifj.``), as written."""
    if "," not in part:  # one piece (most parts)
        return [stripped] if (stripped := part.strip()) else []
    groups: list[str] = []
    for piece in part.split(","):
        if not piece.strip():
            continue
        if groups and _only_titles(piece):
            groups[-1] = f"{groups[-1]},{piece}"
        else:
            groups.append(piece)
    return [g.strip() for g in groups]


def _split_commas(part: str, *, as_list: bool) -> list[str]:
    """The comma rule of :func:`split_pair`; stray commas at the ends are dropped."""
    groups = _comma_groups(part)
    if len(groups) < 2:
        return groups
    sizes = [len(g.split()) for g in groups]
    if as_list or all(n >= 2 for n in sizes) or (len(groups) >= 3 and all(n == 1 for n in sizes)):
        return groups
    return [part.strip(", ")]


def _shape(text: str) -> str:
    if _ONE_WORD.fullmatch(text):
        return "word"
    if _SURNAME_INITIAL.fullmatch(text):
        return "surname initial"
    return ""


def _split_joined_pair(text: str) -> list[str]:
    """``Alfa-Bravo`` / ``Novák J.-Kováč P.``: the one unspaced dash with the same shape on both
    sides (one word each, or a surname and an initial each), else ``[text]``."""
    found: list[list[str]] = []
    for dash in _JOINING_DASH.finditer(text):
        left, right = text[:dash.start()], text[dash.end():]
        if left == left.strip() and right == right.strip() and _shape(left) \
                and _shape(left) == _shape(right):
            found.append([left, right])
    return found[0] if len(found) == 1 else [text]


def split_pair(text: str, kind: str | None = None) -> list[str]:
    """The names in one unit's names cell, whitespace normalised, empty parts dropped.

    ``kind`` is the event's unit kind when known (``"individual"``, ``"pairs"``, ``"teams"``);
    ``None`` (or any other kind) when not.

    - ``individual``: the whole cell is one name.
    - A cell made only of ``JNo`` codes (``JNo-PKo``, ``JNo PKo``, ``JNo/PKo``) gives the codes.
    - Otherwise the cell is cut at a dash with spaces around (`` - ``, `` – ``, `` — ``), ``/``,
      ``&``, ``+``, ``;`` and line breaks (docs/rules/inputs.md, "joined as ...").
    - **Commas.** A piece made only of titles or generation markers stays with the name before
      it (``Novák Ján, Ing.``). For ``teams`` whose cell uses neither ``;`` nor line breaks,
      every comma separates names (``Nowak, Kowal, Mazur``). Otherwise a comma separates names
      only when every piece is a complete name of two or more words (``Kiss Gábor, Szőke
      Zoltán``) or there are three or more one-word pieces (``Novák, Kováč, Tóth``); two
      one-word pieces are one name written surname first (``Novák, Ján``), as is ``Smith, J``.
    - **Unspaced dash.** A hyphen belongs to a hyphenated surname (``Nowak-Kowalska Anna``)
      except for ``pairs`` when nothing above cut the cell and exactly one dash has the same
      shape on both sides: one word each (``Alfa-Bravo``) or a surname and an initial each
      (``Novák J.-Kováč P.``). ``Anna Nowak-Kowalska`` and ``A-B-C`` stay whole.

    ``""`` -> ``[]``.
    """
    cell = _lines(text)
    if not cell:
        return []
    if kind == "individual":
        return [normalise_space(cell)]
    initials = _initials_tokens(cell)
    if initials:
        return initials
    parts = [p for p in (normalise_space(x) for x in _SEPARATORS.split(cell)) if p]
    as_list = kind == "teams" and not re.search(r"[;\n]", cell)
    names = [n for p in parts for n in _split_commas(p, as_list=as_list)]
    if kind == "pairs" and len(names) == 1:
        return _split_joined_pair(names[0])
    return names


def split_names_with_initials(text: str, kind: str | None = None) -> tuple[list[str], bool]:
    """:func:`split_pair` plus whether the names are ``JNo`` codes: ``(names, are_initials)``.

    ``JNo-PKo`` -> ``(["JNo", "PKo"], True)``; ``Novák Ján - Kováč Peter`` ->
    ``(["Novák Ján", "Kováč Peter"], False)``. An ``individual`` cell is initials when it is
    one code.
    """
    names = split_pair(text, kind)
    return names, bool(names) and all(is_initials(n) for n in names)


_ROMAN = re.compile(r"^[IVX]{2,5}\.?$")
_CAPS_PIECE = re.compile(r"[^\W\d_]{2,}")


def _proper(word: str) -> str:
    """One ALL-CAPS word in proper case: ``GIBBERD`` -> ``Gibberd``, ``O'BRIEN`` -> ``O'Brien``,
    ``NOWAK-KOWALSKA`` -> ``Nowak-Kowalska``; a word with a lower-case letter, a Roman numeral
    (``III``) or a bracketed note (``[SK]``) is left as written."""
    if word.startswith(("(", "[")) or _ROMAN.match(word) or any(c.islower() for c in word):
        return word
    return _CAPS_PIECE.sub(lambda m: m.group(0)[0] + m.group(0)[1:].lower(), word)


def display_name(text: str) -> str:
    """How a name is shown: words written in capitals put in proper case (``GIBBERD John`` ->
    ``Gibberd John``, ``NOVAK J.`` -> ``Novak J.``); every other word as written. The spelling
    the file used is kept elsewhere (the warehouse's aliases): this is for display only."""
    return " ".join(_proper(word) for word in normalise_space(text).split(" "))


# --- two names: may they be one person? -------------------------------------------------------

GIVEN_NAME_FORMS: tuple[frozenset[str], ...] = tuple(frozenset(group.split()) for group in (
    # English (the ACBL clubs)
    "william will bill billy willy willie", "robert rob robbie bob bobby bert",
    "richard rich rick ricky dick", "michael mike mick mickey mikey",
    "katherine catherine kathryn katharine kate kathy cathy katie kay",
    "susan sue susie suzy", "bradley brad", "stanford stanley stan", "beatrice beatrix bea",
    "james jim jimmy jamie", "john jack johnny jon", "joseph joe joey", "thomas tom tommy",
    "charles charlie chuck", "edward ed eddie ted ned", "theodore ted teddy theo",
    "elizabeth liz beth betty betsy libby", "margaret peggy maggie meg marge margie",
    "patricia pat patty patsy trish", "patrick pat", "daniel dan danny", "david dave",
    "steven stephen steve", "christopher chris", "christine chris chrissy", "kenneth ken kenny",
    "ronald ron ronnie", "donald don donnie", "gerald gerry jerry", "lawrence laurence larry",
    "leonard len lenny", "nicholas nick nicky", "anthony tony", "andrew andy drew",
    "alexander alex", "alexandra alex", "benjamin ben", "frederick fred freddy",
    "gregory greg", "jeffrey geoffrey jeff geoff", "jennifer jen jenny", "judith judy",
    "kimberly kim", "barbara barb", "deborah debra deb debbie", "dorothy dot dottie",
    "douglas doug", "matthew matt", "samuel sam", "samantha sam", "timothy tim",
    "raymond ray", "philip phillip phil", "peter pete", "albert al bert", "alan allan allen al",
    "walter walt", "eugene gene", "harold hal harry", "henry hank harry", "francis frank",
    "frances fran", "cynthia cindy", "rebecca becky", "victoria vicky vickie",
    "virginia ginny", "abraham abe", "zachary zach",
    # Slovak, Czech, Polish, Hungarian (the federations' clubs)
    "jan janko", "jozef jozo", "stefan stevo", "katarina katka", "zuzana zuzka",
    "katarzyna kasia", "malgorzata gosia", "wojciech wojtek", "aleksander olek",
    "erzsebet erzsi", "katalin kati",
))
"""Given names that are one name (folded, so ``Ján`` is ``jan``): a short form and its full
name, or two spellings of one name. The one place this list is kept (docs/identity.md,
"Candidates for review"); a word may be in several groups (``ted``: Edward and Theodore), and two
words are one name when some group holds both."""

_FORMS_OF: Mapping[str, frozenset[int]] = MappingProxyType({
    word: frozenset(i for i, g in enumerate(GIVEN_NAME_FORMS) if word in g)
    for group in GIVEN_NAME_FORMS for word in group
})

TYPO_MIN_LETTERS = 5
"""A word spelt otherwise is a typo only when both spellings have at least this many letters:
a letter more or less in a short word makes another name (Gu, Guo; Lei, Leyi; Mary, Marty)."""

_LONG_WORD = 8
"""From this many letters in both spellings, two letters spelt otherwise are still a typo
(Wojcechowsky, Wojciechowski)."""

_VOWELS = frozenset("aeiou")


def _typo(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one word misspelt: a doubled letter written once (Ann, An),
    or, in words of at least :data:`TYPO_MIN_LETTERS` letters, one letter added, left out,
    changed or two swapped (two in words of at least eight letters). A name's feminine form
    is another name, not a typo: an ``a`` added at the end (Martin, Martina) or another last
    vowel (Christine, Christina)."""
    if re.sub(r"(.)\1+", r"\1", a) == re.sub(r"(.)\1+", r"\1", b):
        return True
    if min(len(a), len(b)) < TYPO_MIN_LETTERS:
        return False
    if a + "a" == b or b + "a" == a:
        return False
    if len(a) == len(b) and a[:-1] == b[:-1] and {a[-1], b[-1]} <= _VOWELS:
        return False
    return _edits(a, b) <= (2 if min(len(a), len(b)) >= _LONG_WORD else 1)


def _edits(a: str, b: str) -> int:
    """Letters added, left out, changed, or two neighbours swapped, to make ``a`` into ``b``
    (optimal string alignment distance)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                d = min(d, prev2[j - 2] + 1)
            cur.append(d)
        prev2, prev = prev, cur
    return prev[-1]


def same_word(a: str, b: str) -> bool:
    """Whether two folded words of names may be the same word of one person's name: equal, one
    the initial of the other (``j``, ``jan``), forms of one given name
    (:data:`GIVEN_NAME_FORMS`: Bill, William), a typo (:func:`_typo`), or one a part of the
    other's hyphenated surname (Nowak, Nowak-Kowalska)."""
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    if _FORMS_OF.get(a, frozenset()) & _FORMS_OF.get(b, frozenset()):
        return True
    if ("-" in a) != ("-" in b) and (b in a.split("-") or a in b.split("-")):
        return True
    return _typo(a, b)


def _joined(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """``words`` as written and with any two of them written as one (Zheng Zhong, Zhenzhong)."""
    out = [words]
    for i, a in enumerate(words):
        for j, b in enumerate(words):
            if i != j:
                rest = tuple(w for k, w in enumerate(words) if k not in (i, j))
                out.append((a + b, *rest))
    return out


def _paired(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether every word of ``short`` is :func:`same_word` as its own word of ``long``."""
    if not short:
        return True
    head, rest = short[0], short[1:]
    return any(same_word(head, w) and _paired(rest, long[:i] + long[i + 1:])
               for i, w in enumerate(long))


@functools.lru_cache(maxsize=1 << 16)
def may_be_one_person(a: str, b: str) -> bool:
    """Whether two names may be offered as one person (docs/identity.md, "Candidates for
    review"), word by word, whatever their overall likeness.

    Every word of the name with fewer words must be :func:`same_word` as its own word of the
    other name, in any order (``Novák Ján``, ``Ján Novák``); the other name's words left over
    are middle names or initials (Steven Mark Lewis, T Brian Zaugg), and two of its words may
    be written as one (Zheng Zhong Guo, Zhenzhong Guo). So Karen and Kevin Epley, William
    Chen and William Herman, or Jan and Jana Novák are never one person, while Kate and
    Katherine Smith, J. and John Smith, Ted Landeeth and Landreth may be. Two different
    generation markers (``Jr.``, ``Sr.``) are two people; a name of one word is not judged.
    """
    fa, fb = parse_name(a), parse_name(b)
    if fa.suffix and fb.suffix and fa.suffix != fb.suffix:
        return False
    if len(fa.tokens) < 2 or len(fb.tokens) < 2:
        return True
    short, long = sorted((fa.tokens, fb.tokens), key=len)
    return any(_paired(short, joined) for joined in _joined(long))
