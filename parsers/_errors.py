"""Parser exceptions, split by meaning. Every message says where: file, table, row, column, value.

    ParseError                    base: anything a parser refuses
    ├── UnknownFormat             no registered format recognises the file
    ├── MalformedFile             the bytes do not have the structure the format promises
    ├── InconsistentResult        readable, but contradicts itself (places vs scores, ...)
    └── UnsupportedVariant        a real variant of the format this parser does not handle yet
"""

from __future__ import annotations

__all__ = [
    "InconsistentResult",
    "MalformedFile",
    "ParseError",
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
        clone = type(self)(
            self.problem, file=file, table=self.table, row=self.row, column=self.column,
            value=self.value, has_value=self.has_value,
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
