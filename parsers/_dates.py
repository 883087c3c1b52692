"""Dates as result files write them: numeric forms and month names in four languages.

docs/rules/inputs.md ("Realistic difficulties to expect"): dates come as ``12.3.2012``,
``12. marca 2012``, ``2012-03-12``, or only in a title. Accepted here:

- ISO ``2012-03-12``;
- day first with dots ``12.3.2012``, ``12. 3. 2012``, ``12.03.2012r.``;
- day, month name, year: ``8 sierpnia 2013`` (Polish), ``12. marca 2012`` (Slovak),
  ``3. října 2011`` (Czech), ``8 August 2013`` / ``8th Aug 2013`` (English), in the genitive
  or nominative, with or without diacritics, and Roman month numerals ``8 VIII 2013``;
- English month first: ``August 8, 2013``.

Two-digit years and the ambiguous ``3/12/2012`` are refused: a wrong date is worse than none.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["MONTHS", "DateMatch", "find_date", "parse_date", "strip_date"]


def _fold(word: str) -> str:
    """Lower case without diacritics (``Października`` -> ``pazdziernika``; ``ł`` -> ``l``)."""
    decomposed = unicodedata.normalize("NFKD", word.lower().replace("ł", "l"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_MONTH_WORDS: dict[int, tuple[str, ...]] = {
    # Polish genitive, Polish nominative, Slovak genitive/nominative, Czech genitive/nominative,
    # English full and abbreviated, Roman numeral.
    1: ("stycznia", "styczeń", "januára", "január", "ledna", "leden", "january", "jan", "i"),
    2: ("lutego", "luty", "februára", "február", "února", "únor", "february", "feb", "ii"),
    3: ("marca", "marzec", "marec", "března", "březen", "march", "mar", "iii"),
    4: ("kwietnia", "kwiecień", "apríla", "apríl", "dubna", "duben", "april", "apr", "iv"),
    5: ("maja", "maj", "mája", "máj", "května", "květen", "may", "v"),
    6: ("czerwca", "czerwiec", "júna", "jún", "června", "červen", "june", "jun", "vi"),
    7: ("lipca", "lipiec", "júla", "júl", "července", "červenec", "july", "jul", "vii"),
    8: ("sierpnia", "sierpień", "augusta", "august", "srpna", "srpen", "aug", "viii"),
    9: (
        "września", "wrzesień", "septembra", "september", "září", "sep", "sept", "ix",
    ),
    10: ("października", "październik", "októbra", "október", "října", "říjen", "october",
         "oct", "x"),
    11: ("listopada", "listopad", "novembra", "november", "listopadu", "nov", "xi"),
    12: ("grudnia", "grudzień", "decembra", "december", "prosince", "prosinec", "dec", "xii"),
}

_MORE_MONTH_WORDS: dict[int, tuple[str, ...]] = {
    # Hungarian, German, Romanian, French, Italian, Spanish
    1: ("január", "januar", "ianuarie", "janvier", "gennaio", "enero"),
    2: ("február", "februar", "februarie", "février", "febbraio", "febrero"),
    3: ("március", "märz", "martie", "mars", "marzo"),
    4: ("április", "aprilie", "avril", "aprile", "abril"),
    5: ("május", "mai", "maggio", "mayo"),
    6: ("június", "juni", "iunie", "juin", "giugno", "junio"),
    7: ("július", "juli", "iulie", "juillet", "luglio", "julio"),
    8: ("augusztus", "août", "agosto"),
    9: ("szeptember", "septembrie", "septembre", "settembre", "septiembre"),
    10: ("október", "oktober", "octombrie", "octobre", "ottobre", "octubre"),
    11: ("noiembrie", "novembre", "noviembre"),
    12: ("dezember", "decembrie", "décembre", "dicembre", "diciembre"),
}

MONTHS: dict[str, int] = {
    _fold(word): month
    for table in (_MONTH_WORDS, _MORE_MONTH_WORDS) for month, words in table.items()
    for word in words
}
"""Month name (folded: lower case, no diacritics) -> month number."""

_WORD = r"[^\W\d_]+"
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_DOTTED = re.compile(r"(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?!\d)")
_DAY_NAME_YEAR = re.compile(
    rf"(?<![\d.])(\d{{1,2}})(?:st|nd|rd|th)?\.?\s*({_WORD})(?:\.\s*|,?\s+)(\d{{4}})(?!\d)"
)
_NAME_DAY_YEAR = re.compile(rf"\b({_WORD})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})(?!\d)")
_YEAR_FIRST_DOTTED = re.compile(r"(?<![\d.])(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})\.?(?![\d])")
"""Hungarian ``2013.10.03.``."""
_YEAR_NAME_DAY = re.compile(rf"(?<![\d.])(\d{{4}})\.?\s+({_WORD})\.?\s+(\d{{1,2}})\.?(?!\d)")
"""Hungarian ``2013. október 3.``."""
_YEAR_SUFFIX = re.compile(r"(?<=\d)\s*r\.?$")
"""Polish ``8.08.2013 r.`` (``roku``)."""
_AFTER_DATE = re.compile(r"^(?:\s*r\.(?!\w)|\s*r\b)?[\s,;\-\u2013\u2014/)]*")
_BEFORE_DATE = re.compile(r"[\s,;\-\u2013\u2014/(]*$")


@dataclass(frozen=True, slots=True)
class DateMatch:
    """A date found in free text and where it was written (``text[start:end]``)."""

    date: dt.date
    start: int
    end: int


def _make(year: str, month: int | str, day: str) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _candidates(text: str) -> list[DateMatch]:
    """Every valid date in ``text``, leftmost first, the longest of those starting together."""
    found: list[DateMatch] = []
    for m in _ISO.finditer(text):
        if (date := _make(m[1], m[2], m[3])) is not None:
            found.append(DateMatch(date, m.start(), m.end()))
    for m in _DOTTED.finditer(text):
        if (date := _make(m[3], m[2], m[1])) is not None:
            found.append(DateMatch(date, m.start(), m.end()))
    for m in _DAY_NAME_YEAR.finditer(text):
        month = MONTHS.get(_fold(m[2]))
        if month is not None and (date := _make(m[3], month, m[1])) is not None:
            found.append(DateMatch(date, m.start(), m.end()))
    for m in _NAME_DAY_YEAR.finditer(text):
        month = MONTHS.get(_fold(m[1]))
        if month is not None and (date := _make(m[3], month, m[2])) is not None:
            found.append(DateMatch(date, m.start(), m.end()))
    for m in _YEAR_FIRST_DOTTED.finditer(text):
        if (date := _make(m[1], m[2], m[3])) is not None:
            found.append(DateMatch(date, m.start(), m.end()))
    for m in _YEAR_NAME_DAY.finditer(text):
        month = MONTHS.get(_fold(m[2]))
        if month is not None and (date := _make(m[1], month, m[3])) is not None:
            found.append(DateMatch(date, m.start(), m.end()))
    return sorted(found, key=lambda d: (d.start, -d.end))


def find_date(text: str) -> DateMatch | None:
    """The first valid date written anywhere in ``text``, or None (never today's date)."""
    found = _candidates(text)
    return found[0] if found else None


@functools.lru_cache(maxsize=4096)  # a file repeats its date on every row
def parse_date(text: str) -> dt.date:
    """``text`` that is exactly one date (surrounding spaces and a Polish ``r.`` allowed).

    Raises ``ValueError`` for anything else, including impossible dates like ``31.2.2013``.
    """
    stripped = _YEAR_SUFFIX.sub("", text.strip()).rstrip(".")
    for found in _candidates(stripped):
        if found.start == 0 and found.end == len(stripped):
            return found.date
    raise ValueError(f"not a date: {text!r}")


def strip_date(text: str, found: DateMatch) -> str:
    """``text`` without the date ``found`` and the separators (``,`` ``-`` ``–``) around it."""
    before = _BEFORE_DATE.sub("", text[: found.start])
    after = _AFTER_DATE.sub("", text[found.end :])
    return " ".join(part for part in (before, after) if part)
