"""Parser exceptions, split by meaning. Every message says where: file, table, row, column, value.

    ParseError                    base: anything a parser refuses
    ├── UnknownFormat             no registered format recognises the file
    │   ├── EmptyFile             nothing in it (no bytes, or only white space)
    │   └── UnknownBinary         binary data of no kind any reader or refusal knows
    ├── MalformedFile             the bytes do not have the structure the format promises
    │   └── DamagedFile           a spreadsheet's container (zip, OLE) cut short or corrupt
    ├── InconsistentResult        readable, but contradicts itself (places vs scores, ...)
    └── UnsupportedVariant        a real variant of the format this parser does not handle yet
        └── NoResults             a file recognised as one that holds no results (a PDF,
                                  hand records, a seating list): nothing to correct

The kinds decide the advice a refusal gives (flows/_inbox.py ``reason_text``,
docs/rules/inputs.md "What a refusal says"); the message itself never names the class.
"""

from __future__ import annotations

__all__ = [
    "DamagedFile",
    "EmptyFile",
    "InconsistentResult",
    "MalformedFile",
    "NoResults",
    "ParseError",
    "UnknownBinary",
    "UnknownFormat",
    "UnsupportedVariant",
]


class ParseError(Exception):
    """Base class. ``where`` fields are optional; the message names those that are known."""

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        table: str | None = None,
        row: int | str | None = None,
        column: str | None = None,
        value: object = None,
        has_value: bool | None = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.table = table
        self.row = row
        self.column = column
        self.value = value
        self.has_value = value is not None if has_value is None else has_value
        super().__init__(self.describe())

    def __reduce__(self) -> tuple[object, ...]:
        # with its parts intact across processes (the inbox reads files in worker processes)
        return (_rebuild, (type(self), self.problem, self.file, self.table, self.row,
                           self.column, self.value, self.has_value))

    def location(self) -> list[tuple[str, str]]:
        """The known parts of where it broke, as (``file``/``table``/``row``/``column``, text)."""
        parts = [("file", self.file), ("table", self.table), ("row", self.row),
                 ("column", self.column)]
        return [(label, str(value)) for label, value in parts if value not in (None, "")]

    @property
    def where(self) -> str:
        return ", ".join(f"{label} {value}" for label, value in self.location())

    def describe(self) -> str:
        text = self.problem
        if self.has_value:
            text += f": value {self.value!r}"
        if self.where:
            text += f" ({self.where})"
        return text

    def with_file(self, file: str) -> ParseError:
        """The same error, naming ``file`` if it did not name one yet."""
        if self.file:
            return self
        return self.as_kind(type(self), file=file)

    def as_kind(self, kind: type[ParseError], *, file: str | None = None) -> ParseError:
        """The same refusal as a ``kind`` (a subclass saying more of what it means), naming
        ``file`` if it did not name one yet."""
        clone = kind(
            self.problem, file=self.file or file, table=self.table, row=self.row,
            column=self.column, value=self.value, has_value=self.has_value,
        )
        clone.__cause__ = self.__cause__
        return clone


def _rebuild(cls: type[ParseError], problem: str, file: str | None, table: str | None,
             row: int | str | None, column: str | None, value: object,
             has_value: bool) -> ParseError:
    return cls(problem, file=file, table=table, row=row, column=column, value=value,
               has_value=has_value)


class UnknownFormat(ParseError):
    """No registered format recognises the file."""


class MalformedFile(ParseError):
    """The bytes do not have the structure the format promises."""


class InconsistentResult(ParseError):
    """The file reads, but contradicts itself."""


class UnsupportedVariant(ParseError):
    """A real variant of the format that this parser does not handle yet."""


class EmptyFile(UnknownFormat):
    """No bytes at all, or only white space: nothing to read."""


class UnknownBinary(UnknownFormat):
    """Binary data that no reader reads and no refusal recognises."""


class DamagedFile(MalformedFile):
    """A spreadsheet whose container (a zip for .xlsx/.ods, an OLE file for .xls) is cut short
    or corrupt: the program that wrote it can save it again."""


class NoResults(UnsupportedVariant):
    """A file recognised as one that holds no results (a printed page, hand records, a seating
    list): there is nothing in it to correct; the results are in another file. The reader that
    recognises such a file raises it."""
