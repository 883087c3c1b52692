"""How much work one file may cost: bytes, unpacked size, rows, columns, nesting, cells, time.

A result list of a club evening is a few kilobytes; a national championship a few hundred. A
file far beyond that is not a result list but an accident or an attack (a zip bomb, a sheet
whose merged range covers a million rows, tables nested twenty thousand deep), and reading it
must not stall the nightly run for every other club. Each bound is a setting (``[limits]`` in
``clubratings.toml``; docs/rules/inputs.md lists them); a file over one is refused with
:class:`LimitExceeded`, whose message names the setting and the file's value.

The readers ask :func:`current` for the bounds in force; :func:`using` sets them for a block
(the inbox's worker processes set them per file). The time bound is not checked here: a reader
cannot interrupt itself, so the inbox runs each file in a worker process that is stopped when
its time is up (flows/_parsing.py).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ._errors import MalformedFile
from ._text import Decoded, decode_bytes, html_declared_charset

__all__ = [
    "LimitExceeded",
    "Limits",
    "check_archive",
    "check_bytes",
    "check_markup",
    "check_size",
    "current",
    "html_document",
    "over",
    "page_document",
    "page_read",
    "using",
]

_MiB = 1 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds on one file. Field names are the setting names of ``[limits]``."""

    file_mb: float = 25.0
    """Size of the file as dropped, in MiB."""
    unpacked_mb: float = 50.0
    """All entries of a zip container (xlsx, ods, a zipped league) unpacked together, in MiB."""
    entries: int = 2_000
    """Entries in a zip container."""
    rows: int = 20_000
    """Rows of one table or sheet (a repeated row counts as often as it repeats)."""
    columns: int = 300
    """Columns of one table or sheet."""
    cell_chars: int = 100_000
    """Characters in one cell or CSV field."""
    merged: int = 5_000
    """Merged ranges of one sheet."""
    merged_cells: int = 1_000_000
    """Cells covered by the merged ranges of one sheet together."""
    table_depth: int = 12
    """Tables nested inside tables on a page."""
    seconds: float = 30.0
    """Time to read one inbox file (detection, parsing and the plausibility gate)."""
    memory_mb: int = 3_072
    """Address space of the worker process that reads inbox files, in MiB."""
    first_year: int = 1900
    """Events dated before this year are refused (the plausibility gate)."""
    last_year: int = 2100
    """Events dated after this year are refused (the plausibility gate)."""

    @classmethod
    def from_mapping(cls, values: dict[str, object], *, where: str = "[limits]") -> Limits:
        """Limits from a settings table; an unknown key or a value that is not a positive
        number is a ``ValueError`` naming it."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        chosen: dict[str, object] = {}
        for key, value in values.items():
            if key not in fields:
                raise ValueError(f"{where}: unknown limit {key!r} (known: {', '.join(fields)})")
            kind = int if fields[key].type in ("int", int) else float
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"{where}: {key} must be a positive number, not {value!r}")
            chosen[key] = kind(value)
        return cls(**chosen)  # type: ignore[arg-type]


class LimitExceeded(MalformedFile):
    """The file is beyond one of the bounds of :class:`Limits`."""


def over(setting: str, value: object, what: str, *, table: str | None = None,
         row: int | str | None = None, column: str | None = None) -> LimitExceeded:
    """The refusal of a file beyond ``[limits] setting``: ``what`` it has more of (``"the sheet
    has more rows"``), the bound in force, and how to raise it for a genuine file."""
    bound = getattr(current(), setting)
    shown = f"{bound:g}" if isinstance(bound, float) else str(bound)
    return LimitExceeded(
        f"{what} than [limits] {setting} = {shown} allows (raise it in clubratings.toml if "
        "the file is genuine); not read",
        table=table, row=row, column=column, value=value,
    )


_CURRENT: contextvars.ContextVar[Limits] = contextvars.ContextVar("limits", default=Limits())


def current() -> Limits:
    """The bounds in force."""
    return _CURRENT.get()


@contextlib.contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Set the bounds for the block."""
    token = _CURRENT.set(limits)
    try:
        yield limits
    finally:
        _CURRENT.reset(token)


def check_size(size: int) -> None:
    """Refuse a file of ``size`` bytes beyond ``file_mb`` before it is read at all."""
    if size > current().file_mb * _MiB:
        raise over("file_mb", f"{size / _MiB:.1f} MiB", "the file is larger")


def check_bytes(data: bytes) -> None:
    """Refuse a file beyond ``file_mb``, or a zip container beyond ``entries`` or
    ``unpacked_mb`` (read from its directory, before anything is unpacked)."""
    limits = current()
    if len(data) > limits.file_mb * _MiB:
        raise over("file_mb", f"{len(data) / _MiB:.1f} MiB", "the file is larger")
    if data.startswith(b"PK\x03\x04"):
        check_archive(data)


def check_archive(data: bytes) -> None:
    """Bound a zip container by its directory: the number of entries and the size they unpack
    to. Python's zip reader never unpacks an entry beyond the size its directory declares, so
    the declared sizes bound the work."""
    limits = current()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return  # not a readable archive: the readers refuse it in their own words
    if len(infos) > limits.entries:
        raise over("entries", len(infos), "the zip container has more entries")
    unpacked = sum(max(info.file_size, 0) for info in infos)
    if unpacked > limits.unpacked_mb * _MiB:
        raise over("unpacked_mb", f"{unpacked / _MiB:.0f} MiB",
                   "the zip container unpacks to more")


_TABLE_TAG = re.compile(rb"<(/?)table\b", re.IGNORECASE)


def check_markup(data: bytes) -> None:
    """Refuse a page whose tables nest deeper than ``table_depth``, or whose elements open more
    than 256 deep in a row (counted on the bytes, before any reader builds a tree of them)."""
    if b"<" in data and _DEEP_RUN.search(data):
        raise LimitExceeded("elements nested more than 256 deep (the HTML reader would drop "
                            "everything after them); not read")
    limit = current().table_depth
    depth = deepest = 0
    for match in _TABLE_TAG.finditer(data):
        if match.group(1):
            depth = max(depth - 1, 0)
        else:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    raise over("table_depth", deepest, "tables nest deeper")


_START_TAG = (rb"<(?!(?:br|img|hr|input|meta|link|p|li|td|th|tr|option|dt|dd|col|area|wbr|"
              rb"source|param|embed|track|base)\b)[a-zA-Z][^<>]{0,80}(?<!/)>[^<]{0,3}")
_DEEP_RUN = re.compile(_START_TAG + rb"(?:" + _START_TAG + rb"){256}", re.IGNORECASE)
"""257 start tags one inside the other, with next to no text between them: nesting the HTML
reader would stop at (and take very long to get to). The first tag is written out before the
repeat: a search that starts with a plain ``<`` skips from one ``<`` to the next instead of
trying every byte (three times faster on a page of many megabytes)."""
_DEPTH_ERROR = "Excessive depth in document"


def html_document(text: str, file: str | None = None) -> Any:
    """``text`` parsed as an HTML document (lxml). Markup nested deeper than the HTML reader
    follows (256 elements) is refused: the reader would silently drop everything after it."""
    import lxml.etree
    import lxml.html

    parser = lxml.html.HTMLParser()
    try:
        document = lxml.html.document_fromstring(text, parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise MalformedFile(f"not readable as HTML ({exc})", file=file) from exc
    for entry in parser.error_log:
        if _DEPTH_ERROR in entry.message:
            raise LimitExceeded(
                "elements nested more than 256 deep (the HTML reader would drop everything "
                "after them); not read", file=file, row=entry.line)
    return document


_PAGE: list[tuple[bytes, Decoded, Any]] = []
"""The last page read as a document (its bytes, their text, the document): a detector and the
reader that takes the page ask for the same page's document, and parsing a page of many
megabytes takes a good part of a second. One page at a time: the next one replaces it, and a
reader that has what it needs from the document lets it go (:func:`page_read`)."""


def page_document(data: bytes, file: str | None = None) -> tuple[Decoded, Any]:
    """The bytes of a page decoded (the declared charset when it decodes cleanly, else
    detected) and parsed (:func:`html_document`), once for the same bytes; errors as
    :func:`html_document`'s, naming ``file``. The document is shared: read it, never change it.
    """
    for page, decoded, document in _PAGE[:]:  # (a copy: another thread may replace it)
        if page is data:
            return decoded, document
    _PAGE.clear()  # the page before is not kept while this one is read
    decoded = decode_bytes(data, html_declared_charset(data))
    document = html_document(decoded.text, file)
    _PAGE[:] = [(data, decoded, document)]
    return decoded, document


def page_read(data: bytes) -> None:
    """The document of ``data`` is no longer needed (a reader has taken what it reads from
    it): not kept for the next file."""
    if any(page is data for page, _, _ in _PAGE[:]):
        _PAGE.clear()
