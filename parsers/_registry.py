"""The registry of result formats: name -> ``detect()`` and ``parse()``.

Adding a format is one module with a ``FORMAT`` object plus one line in ``_FORMAT_MODULES``
(the module and the file suffixes of its files).
"""

from __future__ import annotations

import csv
import dataclasses
import importlib
from dataclasses import dataclass
from pathlib import PurePath
from typing import Protocol

from ._errors import (
    DamagedFile,
    EmptyFile,
    MalformedFile,
    NoResults,
    ParseError,
    UnknownBinary,
    UnknownFormat,
    UnsupportedVariant,
)
from ._gate import gated
from ._limits import LimitExceeded, check_bytes, check_markup, current, over, page_read
from ._model import ParseResult

__all__ = ["Format", "FORMATS", "closest_format", "detect_format", "parse_bytes"]


class _Detect(Protocol):
    def __call__(self, data: bytes, filename: str = "") -> bool: ...


class _Parse(Protocol):
    def __call__(self, data: bytes, *, source: str = "", strict: bool = False) -> ParseResult: ...


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    description: str
    detect: _Detect
    parse: _Parse
    fallback: bool = False
    """A generic format (any table, any spreadsheet): asked only when no specific format
    recognises the file, so it never competes with one."""
    signed: bool = False
    """``detect`` recognises the stamp the writing program puts in every file (a generator
    comment): a file it claims is that program's, and the other formats are not asked (a page
    of 200 kB is not searched by every reader for tables it cannot hold)."""
    suffixes: tuple[str, ...] = ()
    """The file suffixes the format's files carry, lower case with the dot; the first is the
    one a fetched file of this format is saved with when neither its URL nor its Content-Type
    names one. Given by the format's line in ``_FORMAT_MODULES``; empty for files known by
    their bytes only."""


_PAGE = (".html", ".htm")
_SHEETS = (".xlsx", ".xls", ".ods", ".csv", ".tsv")

_FORMAT_MODULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # module, the suffixes of its files (the first: a fetched file's when nothing else says)
    ("parsers.jfr_pary", _PAGE),
    ("parsers.kops", _PAGE),
    ("parsers.jfr_teamy", _PAGE),
    ("parsers.csv_template", (".csv",)),
    ("parsers.bridgewebs", (".csv",)),
    ("parsers.acblmerge", _PAGE),
    ("parsers.acbl_live", _PAGE),
    ("parsers.bbo", (*_PAGE, ".csv")),
    ("parsers.cobalt_session", (".csv",)),
    ("parsers.not_results", ()),  # PDF, .BWS, pictures...: known by their bytes, never fetched
    ("parsers.league", (".csv", ".xlsx")),
    ("parsers.usebio", (".xml",)),
    ("parsers.bridgenet_xml", (".xml",)),
    ("parsers.pbn", (".pbn",)),
    ("parsers.magic_contest", _PAGE),
    ("parsers.bridgecomposer_recap", _PAGE),
    ("parsers.egd_table", (".h", ".h9", ".tou")),
    ("parsers.opengotha", (".xml",)),
    ("parsers.go_html", _PAGE),
    ("parsers.preferans_log", (".csv", ".xlsx", ".ods", *_PAGE)),
    ("parsers.acblscore_text", (".txt",)),
    ("parsers.spreadsheet", _SHEETS),
    ("parsers.html_tables", _PAGE),
    ("parsers.text_ranking", (".txt",)),
)


_FIELD_LIMIT = "field larger than field limit"
"""What Python's csv module says of a field beyond ``csv.field_size_limit``."""


def _load() -> dict[str, Format]:
    formats: dict[str, Format] = {}
    for module_name, suffixes in _FORMAT_MODULES:
        fmt: Format = importlib.import_module(module_name).FORMAT
        # every result goes through the plausibility gate (parsers/_gate.py): a format
        # registered here cannot hand the warehouse anything the gate has not passed
        formats[fmt.name] = dataclasses.replace(
            fmt, parse=gated(fmt.parse, generic=fmt.fallback), suffixes=suffixes)
    return formats


FORMATS: dict[str, Format] = _load()
"""Every registered format by name, in detection order; their ``parse`` is gated."""


def closest_format(data: bytes, filename: str = "") -> tuple[Format, str, ParseError] | None:
    """The format a file no format recognises resembles most (``_near``), what it has of that
    format, and that format's refusal when asked to read it anyway; None if it resembles none."""
    from ._near import resemblances

    for near in resemblances(data):
        fmt = FORMATS.get(near.format)
        if fmt is None:
            continue
        why: ParseError
        try:
            fmt.parse(data, source=filename)
        except LimitExceeded:
            raise
        except ParseError as exc:
            why = exc
        except Exception:  # noqa: BLE001 - a parser that cannot even start on it: not close
            continue
        else:
            why = UnknownFormat("it reads as that format but lacks the marks detection looks for; "
                                f"parse it with --format {fmt.name} if that is what it is")
        return fmt, near.what, why
    return None


def _claims(fmt: Format, data: bytes, filename: str) -> bool:
    """``fmt.detect``, where a detector that breaks on odd bytes does not claim the file."""
    try:
        return bool(fmt.detect(data, filename))
    except (MemoryError, KeyboardInterrupt, LimitExceeded):
        raise
    except Exception:  # noqa: BLE001 - a detector must not end a run
        return False


_LISTED = "clubratings parse --list-formats lists the formats read"

def unknown(data: bytes, filename: str = "") -> None:
    """Refuse, by what it is, a file no format claims whose kind the bytes tell at once: an
    empty file, a spreadsheet whose container is damaged, binary data of no known kind. Returns
    for any other file (text, or a whole workbook no format reads)."""
    from ._near import damaged_container, is_binary, is_empty, workbook_kind

    name = PurePath(filename).name if filename else None
    if is_empty(data):
        raise EmptyFile("the file is empty" + (
            f" ({len(data)} bytes of white space)" if data else ""), file=name)
    damage = damaged_container(data, filename)
    if damage is not None:
        raise DamagedFile(f"a damaged {_container_noun(damage)} ({damage})", file=name)
    workbook = workbook_kind(data, filename)
    if workbook is not None:
        raise UnknownFormat(f"unknown result format: {workbook} whose sheets no format reads "
                            "(a hand-made sheet needs a results header: a place column and "
                            f"names; {_LISTED})", file=name)
    if is_binary(data):
        raise UnknownBinary("not a result file: binary data of no known kind", file=name)


def _container_noun(damage: str) -> str:
    return "document" if "Word" in damage or "text (" in damage else "spreadsheet"


def detect_format(data: bytes, filename: str = "") -> Format:
    """The one format that recognises ``data``; ``UnknownFormat`` if none or several do.

    A format signed by its program's stamp decides alone; then the specific formats are
    asked, and fallback (generic) formats only when none answers. Detectors that read a page
    as a document share it (``_limits.page_document``); it is not kept past detection.
    """
    try:
        return _detect_format(data, filename)
    finally:
        page_read(data)


def _detect_format(data: bytes, filename: str) -> Format:
    hits = [f for f in FORMATS.values() if f.signed and _claims(f, data, filename)]
    if len(hits) == 1:
        return hits[0]
    hits = hits or [f for f in FORMATS.values()
                    if not f.fallback and not f.signed and _claims(f, data, filename)]
    if not hits:
        hits = [f for f in FORMATS.values() if f.fallback and _claims(f, data, filename)]
    name = PurePath(filename).name if filename else None
    if not hits:
        unknown(data, filename)
        near = closest_format(data, filename)
        if near is None:
            from ._near import text_looks

            looks = text_looks(data)
            if looks is not None:
                raise UnknownFormat(f"unknown result format: {looks} ({_LISTED})", file=name)
            raise UnknownFormat(
                "unknown result format: no format's marks found (nothing came close; "
                f"{_LISTED})", file=name,
            )
        fmt, what, why = near
        kind = NoResults if isinstance(why, NoResults) else UnknownFormat
        raise kind(
            f"unknown result format; it looks most like {fmt.name} ({what}), "
            f"but: {why.problem}" + (f": value {why.value!r}" if why.has_value else ""),
            file=name,
        )
    if len(hits) > 1:
        raise UnknownFormat(
            f"ambiguous result format, claimed by {', '.join(f.name for f in hits)}", file=name,
        )
    return hits[0]


def parse_bytes(
    data: bytes, *, source: str = "", fmt: str | None = None, strict: bool = False,
) -> ParseResult:
    """Detect the format of ``data`` (unless ``fmt`` names it) and parse it.

    Every error raised is a :class:`ParseError` naming ``source``; a reader that breaks on
    the file in a way it did not foresee is a :class:`MalformedFile` naming that reader, so one
    odd file is refused on its own and never ends a run.
    """
    name = PurePath(source).name if source else ""
    chosen: Format | None = None
    csv.field_size_limit(current().cell_chars)
    try:
        check_bytes(data)
        check_markup(data)
        if fmt is not None:
            if fmt not in FORMATS:
                raise UnknownFormat(
                    f"unknown format {fmt!r}; known formats: {', '.join(FORMATS)}", file=name,
                )
            chosen = FORMATS[fmt]
        else:
            chosen = detect_format(data, source)
        return chosen.parse(data, source=source, strict=strict)
    except LimitExceeded as exc:
        raise exc.with_file(name) from exc
    except ParseError as exc:
        if _FIELD_LIMIT in exc.problem:  # a reader's csv module hit the cell bound
            raise over("cell_chars", None, "a CSV field is longer").with_file(name) from exc
        if fmt is None and chosen is not None and chosen.fallback:
            # a generic format took the file only because no specific one did; if the file
            # resembles a specific format, that format's refusal is the more useful answer
            near = closest_format(data, source)
            if near is not None:
                other, what, why = near
                kind = NoResults if isinstance(why, NoResults) else UnknownFormat
                raise kind(
                    f"not read: it looks most like {other.name} ({what}), but: {why.problem}"
                    + (f": value {why.value!r}" if why.has_value else "")
                    + f"; read as a generic table ({chosen.name}) it fails too: {exc.problem}",
                    file=name or None,
                ) from exc
        raise exc.with_file(name) from exc
    except KeyboardInterrupt:
        raise
    except MemoryError as exc:  # a worker's address space is bounded by [limits] memory_mb
        raise over("memory_mb", None, "reading this file needs more memory"
                   ).with_file(name) from exc
    except RecursionError as exc:
        raise LimitExceeded("the file nests its elements too deep to read; not read",
                            file=name or None) from exc
    except Exception as exc:  # noqa: BLE001 - see the docstring
        if _FIELD_LIMIT in str(exc):
            raise over("cell_chars", None, "a CSV field is longer").with_file(name) from exc
        from ._near import damaged_container

        damage = damaged_container(data, source)
        if damage is not None:  # a reader that took the container before finding it broken
            raise DamagedFile(f"a damaged {_container_noun(damage)} ({damage})",
                              file=name or None) from exc
        reader = chosen.name if chosen is not None else "format detection"
        text = " ".join(str(exc).split())[:200] or "no reason given"
        raise MalformedFile(
            f"the {reader} reader could not read this file ({text})", file=name or None,
        ) from exc
