"""The CSV template (docs/csv-template.md) read column by column into the rating engine's
results frame (``clubratings rate``), without a warehouse and without turning rows into events
first. The event reader of the same template is :mod:`parsers.csv_template`; the template's
columns, kinds and scorings are defined there once and used by both.

Columns: the template's required ``event, date, kind, scoring, boards, unit, place, player`` and
optional ``organiser, section, score, federation_id, club, game``, plus the engine's own optional
columns ``parent, match, abroad, field_rating, unrated`` (the results frame's, ratings package
docstring). Players are identified by their name as written.

Read with pyarrow, every column as text, then checked and converted a column at a time: a value
that occurs many times is parsed once (dates, kinds, places, scores are dictionary-encoded
first). The rules are the template reader's: dates as ``parsers._dates.parse_date`` reads them,
places ``5``, ``5-6``, ``5.-6.`` or an averaged ``2.5``; a plain whole place repeated by ``k``
units of one event is their tie (``5, 5`` -> 5.5 each); scores with a decimal point or comma and
an optional ``%``. Delimiter ``,`` or ``;`` (whichever the header has more of); UTF-8 with or
without BOM, otherwise the detected single-byte encoding.

Errors are :class:`parsers.MalformedFile` naming the file, the row (the line number in the file,
the header being 1), the column and the value: the same one line the template reader gives.

Not imported by :mod:`parsers` itself (this module needs numpy, pandas and pyarrow;
``import parsers`` does not).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from pathlib import PurePath

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from games import GAMES

from ._dates import parse_date
from ._errors import MalformedFile
from ._places import parse_place
from ._text import decode_bytes, normalise_space, parse_decimal
from .csv_template import _KINDS, _SCORINGS, OPTIONAL_COLUMNS, REQUIRED_COLUMNS, _delimiter
from .frames import RESULTS_COLUMNS

__all__ = ["COLUMNS", "ENGINE_COLUMNS", "read_results_csv"]

ENGINE_COLUMNS = ("parent", "match", "abroad", "field_rating", "unrated")
"""The rating engine's optional columns this reader takes besides the template's own."""
_READ = frozenset(REQUIRED_COLUMNS) | frozenset(OPTIONAL_COLUMNS) | frozenset(ENGINE_COLUMNS)
COLUMNS = RESULTS_COLUMNS
"""The columns of the frame :func:`read_results_csv` returns."""

_TRUE = {"1", "true", "yes", "y", "x", "ano", "tak", "igen", "ja"}
_FALSE = {"", "0", "false", "no", "n", "nie", "nem", "nein"}


class _File:
    """The decoded text and where each record starts, found only when an error needs it."""

    def __init__(self, data: bytes, name: str) -> None:
        self.name = name
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        self.data = data
        self.utf8 = data  # until pyarrow finds it is not UTF-8 (then: ``redecode``)
        head = data[:65536].decode("utf-8", errors="replace")
        first = ""
        self.skip = 1  # the header and the blank lines above it
        for line in io.StringIO(head):  # the first non-blank line
            if line.strip():
                first = line.rstrip("\r\n")
                break
            self.skip += 1
        self.delimiter = _delimiter(first)
        self.header = next(csv.reader([first], delimiter=self.delimiter), [])
        self._text: str | None = None

    def redecode(self) -> None:
        """The bytes are not UTF-8: decode them as detected (windows-1250, ISO-8859-2 ...)."""
        self._text = decode_bytes(self.data).text
        self.utf8 = self._text.encode("utf-8")
        first = next((line for line in self._text.splitlines() if line.strip()), "")
        self.header = next(csv.reader([first], delimiter=self.delimiter), [])

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.data.decode("utf-8", errors="replace")
        return self._text

    def line_of(self, record: int) -> int:
        """The file line where data record ``record`` (0-based, blank lines skipped) starts."""
        reader = csv.reader(io.StringIO(self.text, newline=""), delimiter=self.delimiter)
        seen = -1  # the header is record -1
        line = 1
        for cells in reader:
            if any(cell.strip() for cell in cells):
                if seen == record:
                    return line
                seen += 1
            line = reader.line_num + 1
        return line

    def error(self, problem: str, *, record: int | None = None, column: str | None = None,
              value: object = None, has_value: bool | None = None) -> MalformedFile:
        return MalformedFile(problem, file=self.name,
                             row=None if record is None else self.line_of(record),
                             column=column, value=value, has_value=has_value)


def _table(f: _File) -> pa.Table:
    names = [normalise_space(n).lower() for n in f.header]
    seen: set[str] = set()
    for raw, name in zip(f.header, names, strict=True):
        if name and name in seen:
            raise f.error("column appears twice", column=name, value=raw)
        seen.add(name)
    missing = [c for c in REQUIRED_COLUMNS if c not in seen]
    if missing:
        raise MalformedFile("missing required column(s); the header needs "
                            + ", ".join(REQUIRED_COLUMNS),
                            file=f.name, row=1, value=", ".join(missing))
    unique = [n or f"_unnamed{i}" for i, n in enumerate(names)]
    try:
        return _read(f, unique)
    except pa.ArrowInvalid as exc:
        if "UTF8" not in str(exc) and "utf8" not in str(exc).lower():
            raise MalformedFile(f"not a well-formed CSV: {' '.join(str(exc).split())}",
                                file=f.name) from exc
    f.redecode()
    try:
        return _read(f, unique)
    except pa.ArrowInvalid as exc:
        raise MalformedFile(f"not a well-formed CSV: {' '.join(str(exc).split())}",
                            file=f.name) from exc


def _read(f: _File, unique: list[str]) -> pa.Table:
    return pacsv.read_csv(
        io.BytesIO(f.utf8),
        read_options=pacsv.ReadOptions(column_names=unique, skip_rows=f.skip),
        parse_options=pacsv.ParseOptions(delimiter=f.delimiter, newlines_in_values=True),
        convert_options=pacsv.ConvertOptions(
            column_types={n: pa.string() for n in unique}, strings_can_be_null=False,
            quoted_strings_can_be_null=False, include_columns=[n for n in unique if n in _READ]),
    )


class _Columns:
    """The table's columns as trimmed text, each trimmed once; a missing column is blank."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table
        self._cache: dict[str, pa.Array] = {}

    def raw(self, column: str) -> pa.Array:
        """Untrimmed (for columns decoded per distinct value, which trim each value once)."""
        if column in self.table.column_names:
            return self.table[column].combine_chunks()
        return pa.repeat("", self.table.num_rows).cast(pa.string())

    def __call__(self, column: str) -> pa.Array:
        if column not in self._cache:
            if column in self.table.column_names:
                self._cache[column] = pc.utf8_trim_whitespace(
                    self.table[column].combine_chunks())
            else:
                self._cache[column] = pa.repeat("", self.table.num_rows).cast(pa.string())
        return self._cache[column]


def _decoded(f: _File, text: _Columns, column: str, convert: Callable[[str], object],
             problem: str, type: pa.DataType, *, required: bool = False) -> pa.Array:
    """``convert`` applied once per distinct value; the first row it refuses is the error.
    A column the file does not have is ``convert("")`` on every row."""
    return _decoded_many(f, text, column, (convert,), problem, (type,), required=required)[0]


def _decoded_many(f: _File, text: _Columns, column: str,
                  converts: tuple[Callable[[str], object], ...], problem: str,
                  types: tuple[pa.DataType, ...], *, required: bool = False) -> list[pa.Array]:
    """:func:`_decoded` with several conversions of one column (the column encoded once)."""
    n = text.table.num_rows
    if column not in text.table.column_names:  # optional and absent: one value, repeated
        return [pa.repeat(pa.scalar(convert(""), type), n) for convert, type in
                zip(converts, types, strict=True)]
    encoded = pc.dictionary_encode(text.raw(column))
    converted: list[list[object]] = [[] for _ in converts]
    for i, value in enumerate(encoded.dictionary.to_pylist()):
        try:
            for out, convert in zip(converted, converts, strict=True):
                out.append(convert(value.strip()))
        except ValueError:
            record = int(np.flatnonzero(encoded.indices.to_numpy(zero_copy_only=False) == i)[0])
            if not value.strip() and required:
                raise f.error(f"missing {column}", record=record, column=column,
                              value=value) from None
            raise f.error(problem, record=record, column=column, value=value) from None
    return [pc.take(pa.array(values, type), encoded.indices)
            for values, type in zip(converted, types, strict=True)]


def _expected(column: str, choices: Mapping[str, str]) -> str:
    """The event reader's words for a value outside ``choices``."""
    return f"invalid {column} (expected one of {', '.join(choices.values())})"


def _choice(choices: Mapping[str, str]) -> Callable[[str], str]:
    def convert(text: str) -> str:
        try:
            return choices[text.lower()]
        except KeyError:
            raise ValueError(text) from None
    return convert


def _boards(text: str) -> float:
    if not text:
        return float("nan")
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(text)
    return float(text)


def _place(text: str) -> tuple[float, bool]:
    """(place, plain whole number that a repeat turns into a tie)."""
    try:
        written = parse_place(text)
    except ValueError:
        value = parse_decimal(text)  # an averaged tie such as 2.5
        if value is None or value < 1:
            raise
        return value, False
    if written is None:
        raise ValueError(text)
    if written.is_range:
        return (written.first + written.last) / 2, False
    return float(written.first), True


def _flag(text: str) -> bool:
    folded = text.lower()
    if folded in _TRUE:
        return True
    if folded in _FALSE:
        return False
    raise ValueError(text)


def _number(text: str) -> float:
    value = parse_decimal(text)
    return float("nan") if value is None else value


def read_results_csv(data: bytes, source: str = "") -> pd.DataFrame:
    """The results frame (:data:`COLUMNS`) of a results CSV; see the module docstring."""
    f = _File(data, PurePath(source).name if source else "")
    table = _table(f)
    n = table.num_rows
    if n == 0:
        raise f.error("no result rows below the header")

    text = _Columns(table)
    for column in ("event", "unit", "player"):
        blank = pc.equal(pc.utf8_length(text(column)), 0)
        if pc.any(blank).as_py():
            record = int(np.flatnonzero(blank.to_numpy(zero_copy_only=False))[0])
            raise f.error(f"missing {column}", record=record, column=column, value="")
    game = text("game")
    # the games whose results are placements, the results frame ``rate`` reads
    placements = [g.name for g in GAMES.values() if g.placements]
    other = pc.and_(pc.not_equal(game, ""), pc.invert(
        pc.is_in(pc.utf8_lower(game), value_set=pa.array(placements, pa.string()))))
    if pc.any(other).as_py():
        record = int(np.flatnonzero(other.to_numpy(zero_copy_only=False))[0])
        raise f.error(f"rate reads {' and '.join(placements)} results; this row is another "
                      "game", record=record, column="game", value=game[record].as_py())

    def flag(column: str) -> pa.Array:
        return _decoded(f, text, column, _flag,
                        f"invalid {column} (expected 1/0, yes/no, true/false or blank)",
                        pa.bool_())

    place_problem = ("invalid place (expected a number, an averaged tie like 2.5 or a tie like "
                     "5-6)")
    place_array, plain_array = _decoded_many(
        f, text, "place", (lambda t: _place(t)[0], lambda t: _place(t)[1]), place_problem,
        (pa.float64(), pa.bool_()), required=True)
    place = place_array.to_numpy(zero_copy_only=False)
    plain = plain_array.to_numpy(zero_copy_only=False)

    # events by (organiser, event, date, section), numbered in order of first appearance
    dates = _decoded(f, text, "date", parse_date, "invalid date", pa.date32(), required=True)
    parts = [text(c) for c in ("organiser", "event") if c in table.column_names]
    parts.append(pc.cast(dates, pa.string()))
    if "section" in table.column_names:
        parts.append(text("section"))
    key = pc.binary_join_element_wise(*parts, "\x1f")
    codes = pc.dictionary_encode(key).indices.to_numpy(zero_copy_only=False)
    unit = text("unit")

    if plain.any():  # a plain whole place written by k units of one event is their tie
        rows = np.flatnonzero(plain)
        frame = pd.DataFrame({"event": codes[rows], "place": place[rows],
                              "unit": pc.take(unit, pa.array(rows)).to_numpy(
                                  zero_copy_only=False)})
        sharing = frame.groupby(["event", "place"])["unit"].transform("nunique").to_numpy()
        place = place.copy()
        place[rows] = place[rows] + (sharing - 1) / 2

    # a place within 1..n, n the event's units, named by its row (as the reader's gate does)
    units = pd.DataFrame({"event": codes, "unit": unit.to_numpy(zero_copy_only=False)})
    n_units = units.groupby("event")["unit"].transform("nunique").to_numpy()
    outside = np.flatnonzero((place < 1) | (place > n_units))
    if outside.size:
        record = int(outside[0])
        n = int(n_units[record])
        raise f.error(f"a place is outside 1-{n} (the event has {n} units)", record=record,
                      column="place", value=text("place")[record].as_py())

    out = pa.table({
        "event_id": pc.cast(pa.array(codes + 1), pa.string()),
        "date": dates.cast(pa.timestamp("ns")),
        "kind": _decoded(f, text, "kind", _choice(_KINDS), _expected("kind", _KINDS),
                         pa.string(), required=True),
        "scoring": _decoded(f, text, "scoring", _choice(_SCORINGS),
                            _expected("scoring", _SCORINGS), pa.string(), required=True),
        "boards": _decoded(f, text, "boards", _boards,
                           "invalid boards (expected a whole number of boards)", pa.float64()),
        "unit": unit,
        "place": pa.array(place),
        "player": text("player"),
        "parent": text("parent"),
        "match": flag("match"),
        "score": _decoded(f, text, "score", _number, "invalid score", pa.float64()),
        "club": text("club"),
        "abroad": flag("abroad"),
        "field_rating": _decoded(f, text, "field_rating", _number,
                                 "invalid field_rating", pa.float64()),
        "unrated": flag("unrated"),
    })
    return out.to_pandas()
