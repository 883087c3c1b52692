"""Bytes to text for result files: declared or detected character sets, whitespace clean-up.

Central European result pages come in UTF-8, windows-1250 or ISO-8859-2, and are often
mislabelled or unlabelled (docs/rules/inputs.md, "Realistic difficulties to expect"). The rules, in order:

1. a byte-order mark wins;
2. a declared charset (HTML ``<meta charset>``, a caller's hint) is honoured when the bytes decode
   *cleanly* with it: no decoding error and no C1 control characters (U+0080-U+009F), which is
   what windows-1250 text looks like when read as ISO-8859-2, and no characters that the other
   Central European charset reads as letters (``¶`` where ISO-8859-2 has ``ś``: an ISO-8859-2
   page labelled windows-1250);
   - exception: a page that declares a single-byte charset but whose bytes are valid UTF-8 with
     non-ASCII characters is mislabelled UTF-8 (valid multi-byte UTF-8 does not happen by
     accident);
3. bytes that are valid UTF-8 are UTF-8;
4. otherwise the charset is detected: charset-normalizer restricted to the Central European
   candidates, then a letter-plausibility check between windows-1250 and ISO-8859-2, because the
   two differ on few bytes and short Slovak texts fool the statistical detector (``Ľ`` in
   ISO-8859-2 is ``Ą`` in windows-1250, ``š`` is ``ą``, ``Š`` is ``©``); a file with ``Å``/``å``
   whose every other byte is a Western letter in windows-1252 is windows-1252 (Nordic clubs'
   ``Åbo``, ``Håkan`` would read ``Ĺbo``, ``Hĺkan`` in windows-1250).
"""

from __future__ import annotations

import codecs
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

import charset_normalizer

__all__ = [
    "Decoded",
    "decode_bytes",
    "html_declared_charset",
    "normalise_space",
    "parse_decimal",
]

Method = Literal["bom", "declared", "utf-8", "detected"]

_CANDIDATES = ("cp1250", "iso8859_2")
"""Single-byte charsets of Central European result files (docs/rules/inputs.md)."""

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_META_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE,
)

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\xad"))
"""Zero-width characters and soft hyphens: dropped before whitespace is collapsed."""


@dataclass(frozen=True, slots=True)
class Decoded:
    """Text decoded from bytes, with how the charset was chosen."""

    text: str
    encoding: str
    """Python codec name actually used (``utf-8``, ``cp1250``, ``iso8859-2``, ...)."""
    method: Method
    declared: str | None = None
    """The charset the file declared, as written, if any."""
    note: str = ""
    """Plain-language remark when the choice was not straightforward (for a parse issue)."""


def normalise_space(text: str) -> str:
    """Collapse every run of whitespace (``&nbsp;`` included) to one space and strip the ends."""
    if text.isprintable() and "  " not in text:  # the common case: nothing to collapse
        return text.strip(" ")  # (the only printable whitespace is the space itself)
    return " ".join(text.translate(_INVISIBLE).split())


def html_declared_charset(data: bytes) -> str | None:
    """The charset named by the first ``<meta ... charset=...>`` of an HTML page, if any."""
    match = _META_CHARSET.search(data[:16384])
    return match.group(1).decode("ascii") if match else None


def _codec(name: str | None) -> str | None:
    """Python's canonical codec name for a declared charset, None if unknown."""
    if not name:
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


_C1 = re.compile("[\x80-\x9f]")


def _has_c1(text: str) -> bool:
    return _C1.search(text) is not None


def _clean(data: bytes, encoding: str) -> str | None:
    """``data`` decoded with ``encoding`` if that gives no error and no C1 controls, else None."""
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None
    return None if _has_c1(text) else text


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


_NON_ASCII = re.compile("[^\x00-\x7f]")


def _oddness(text: str) -> int:
    """How implausible a decoding is: C1 controls weigh 3, other non-ASCII non-letters 1."""
    score = 0
    for ch in _NON_ASCII.findall(text):  # ASCII weighs nothing: only the rest is looked at
        category = unicodedata.category(ch)
        if category == "Cc":
            score += 3
        elif not category.startswith("L"):
            score += 1
    return score


def _detect(data: bytes) -> str:
    """Codec for bytes that are not UTF-8: see rule 4 of the module docstring.

    The candidate with the fewest implausible characters wins; on a tie, charset-normalizer's
    choice.
    """
    best = charset_normalizer.from_bytes(data, cp_isolation=[*_CANDIDATES, "utf_8"]).best()
    guess = _codec(best.encoding) if best is not None else None
    ranked = sorted(
        (_oddness(data.decode(name, errors="replace")), name != guess, name) for name in _CANDIDATES
    )
    chosen = _codec(ranked[0][2]) or "cp1250"
    return "cp1252" if _western(data) else chosen


_WESTERN_LETTERS = frozenset("åäöøæéèêëáàâãíìîïóòôõúùûüýÿñçßÅÄÖØÆÉÈÊËÁÀÂÃÍÌÎÏÓÒÔÕÚÙÛÜÝÑÇ")


def _western(data: bytes) -> bool:
    """A Nordic or Western European file: bytes 0xC5/0xE5 (``Å``/``å`` in windows-1252, the
    all but unused ``Ĺ``/``ĺ`` in windows-1250) and every other byte a Western letter in
    windows-1252 (``Åbo``, ``Håkan``, ``Sandström``: rule 4 of the module docstring)."""
    if b"\xc5" not in data and b"\xe5" not in data:
        return False
    text = _clean(data, "cp1252")
    return text is not None and all(ch < "\x80" or ch in _WESTERN_LETTERS or ch in "\xa0°§½¼¾–—‘’“”•…€"
                                    for ch in text)


def _better_single_byte(data: bytes, declared: str, text: str) -> tuple[str, str] | None:
    """(codec, text) of the other Central European charset when the declared one leaves
    implausible characters that it does not (``¶`` for ``ś``: ISO-8859-2 read as cp1250)."""
    candidates = [c for c in (_codec(name) for name in _CANDIDATES) if c is not None]
    if declared not in candidates:
        return None
    odd = _oddness(text)
    if odd == 0:
        return None
    for other in candidates:
        if other != declared:
            alt = _clean(data, other)
            if alt is not None and _oddness(alt) < odd:
                return other, alt
    return None


def decode_bytes(data: bytes, declared: str | None = None) -> Decoded:
    """Decode ``data`` following the rules of the module docstring; never raises.

    ``declared`` is the charset the file itself names (e.g. from :func:`html_declared_charset`).
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return Decoded(data.decode(codec, errors="replace"), codec, "bom", declared)
    declared_codec = _codec(declared)
    as_utf8 = _utf8(data)
    if declared_codec is not None:
        if declared_codec == "utf-8" and as_utf8 is not None:
            return Decoded(as_utf8, "utf-8", "declared", declared)
        if declared_codec != "utf-8" and as_utf8 is not None and not as_utf8.isascii():
            note = f"page declares charset {declared!r} but its bytes are UTF-8; read as UTF-8"
            return Decoded(as_utf8, "utf-8", "utf-8", declared, note)
        text = _clean(data, declared_codec)
        if text is not None:
            better = _better_single_byte(data, declared_codec, text)
            if better is not None:
                note = (f"page declares charset {declared!r} but its letters read right as "
                        f"{better[0]}; read as {better[0]}")
                return Decoded(better[1], better[0], "detected", declared, note)
            return Decoded(text, declared_codec, "declared", declared)
    if as_utf8 is not None:
        note = (
            f"declared charset {declared!r} is unknown or does not fit; read as UTF-8"
            if declared else ""
        )
        return Decoded(as_utf8, "utf-8", "utf-8", declared, note)
    codec = _detect(data)
    text = data.decode(codec, errors="replace")
    if declared:
        note = f"declared charset {declared!r} does not decode cleanly; detected {codec}"
    else:
        note = f"no charset declared; detected {codec}"
    return Decoded(text, codec, "detected", declared, note)


_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")


def parse_decimal(text: str) -> float | None:
    """``"61.83"``, ``" 56,43 %"``, ``"-12.5"`` -> float; blank -> None; junk -> ``ValueError``.

    Decimal point or decimal comma (docs/rules/inputs.md: ``56,43 %``); a trailing ``%`` is dropped.
    """
    stripped = normalise_space(text).removesuffix("%").strip().replace("\u2212", "-")
    if not stripped:
        return None
    if stripped.count(",") == 1 and "." not in stripped:
        stripped = stripped.replace(",", ".")
    value = float(stripped)  # ValueError for "x", "1,234.5", "1.2.3"
    if not math.isfinite(value) or not _DECIMAL.fullmatch(stripped):
        raise ValueError(f"not a number: {text!r}")
    return value
