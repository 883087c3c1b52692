"""Scheme options: declared once on the params dataclass, parsed from and written back to text.

A params class declares each option as a dataclass field made with :func:`option`, which attaches
an :class:`OptionSpec` (the valid values and how to read them). From that one declaration follow
parsing user text (``--set key=value``), validating a params object built in code, and writing
the full resolved configuration back as text for recording a run.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from ._errors import OptionError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "Choice",
    "Date",
    "Number",
    "OptionSpec",
    "apply_options",
    "check_options",
    "option",
    "option_specs",
    "options_to_text",
]

P = TypeVar("P", bound="DataclassInstance")


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a fixed list of words. Values in ``not_implemented`` are valid names of variants
    that are planned but cannot run yet: choosing one is an error that says so."""

    values: tuple[str, ...]
    not_implemented: tuple[str, ...] = ()

    def describe(self) -> str:
        return ", ".join(self.values)

    def read(self, name: str, text: str) -> str:
        if text not in self.values:
            raise OptionError(
                f"invalid value {text!r} for option {name!r}; valid values: {self.describe()}"
            )
        self.check(name, text)
        return text

    def check(self, name: str, value: object) -> None:
        if not isinstance(value, str) or value not in self.values:
            raise OptionError(
                f"invalid value {value!r} for option {name!r}; valid values: {self.describe()}"
            )
        if value in self.not_implemented:
            ready = ", ".join(v for v in self.values if v not in self.not_implemented)
            raise OptionError(
                f"{name}={value} is not implemented yet; implemented values: {ready}"
            )

    def write(self, value: object) -> str:
        return str(value)


@dataclass(frozen=True, slots=True)
class Number:
    """A finite number, an integer when ``integer``; at least ``minimum`` (or above it when
    ``minimum_exclusive``)."""

    integer: bool
    minimum: float
    minimum_exclusive: bool = False

    def describe(self) -> str:
        what = "an integer" if self.integer else "a number"
        bound = int(self.minimum) if self.minimum == int(self.minimum) else self.minimum
        if self.minimum_exclusive:
            return f"{what} > {bound}"
        return f"{what} >= {bound}"

    def read(self, name: str, text: str) -> int | float:
        value: int | float
        try:
            value = int(text.strip()) if self.integer else float(text.strip())
        except ValueError:
            raise OptionError(
                f"invalid value {text!r} for option {name!r}; valid values: {self.describe()}"
            ) from None
        self._check_range(name, value, text)
        return value

    def check(self, name: str, value: object) -> None:
        kinds: tuple[type, ...] = (int,) if self.integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise OptionError(
                f"invalid value {value!r} for option {name!r}; valid values: {self.describe()}"
            )
        self._check_range(name, value, value)

    def _check_range(self, name: str, value: float, shown: object) -> None:
        too_small = value <= self.minimum if self.minimum_exclusive else value < self.minimum
        if not math.isfinite(value) or too_small:
            raise OptionError(
                f"invalid value {shown!r} for option {name!r}; valid values: {self.describe()}"
            )

    def write(self, value: object) -> str:
        if self.integer:
            return str(value)
        if not isinstance(value, (int, float)):
            raise OptionError(f"invalid value {value!r}; valid values: {self.describe()}")
        number = float(value)
        return str(int(number)) if number.is_integer() else repr(number)


@dataclass(frozen=True, slots=True)
class Date:
    """A calendar date written ``YYYY-MM-DD``, or ``""`` for none."""

    def describe(self) -> str:
        return "a date YYYY-MM-DD, or empty for none"

    def read(self, name: str, text: str) -> str:
        self.check(name, text.strip())
        return text.strip()

    def check(self, name: str, value: object) -> None:
        if value == "":
            return
        try:
            ok = isinstance(value, str) and len(value) == 10 and \
                dt.date.fromisoformat(value).isoformat() == value
        except ValueError:
            ok = False
        if not ok:
            raise OptionError(
                f"invalid value {value!r} for option {name!r}; valid values: {self.describe()}"
            )

    def write(self, value: object) -> str:
        return str(value)


OptionSpec: TypeAlias = Choice | Number | Date

_SPEC_KEY = "ratings.option"


def option(default: Any, spec: OptionSpec) -> Any:
    """A dataclass field that is a user-settable option with the given default."""
    spec.check("<default>", default)
    return dataclasses.field(default=default, metadata={_SPEC_KEY: spec})


def option_specs(params_type: type[DataclassInstance]) -> dict[str, OptionSpec]:
    """Every option of a params class, by name, in declaration order."""
    return {
        f.name: f.metadata[_SPEC_KEY]
        for f in dataclasses.fields(params_type)
        if _SPEC_KEY in f.metadata
    }


def check_options(params: DataclassInstance) -> None:
    """Raise :class:`OptionError` if any option of ``params`` has an invalid value."""
    for name, spec in option_specs(type(params)).items():
        spec.check(name, getattr(params, name))


def apply_options(defaults: P, pairs: Mapping[str, str]) -> P:
    """``defaults`` with the options in ``pairs`` (name -> text) applied over them."""
    specs = option_specs(type(defaults))
    changes: dict[str, object] = {}
    for name, text in pairs.items():
        if name not in specs:
            raise OptionError(
                f"unknown option {name!r}; valid options: {', '.join(sorted(specs))}"
            )
        if not isinstance(text, str):
            raise OptionError(
                f"invalid value {text!r} for option {name!r}: options are given as text; "
                f"valid values: {specs[name].describe()}"
            )
        changes[name] = specs[name].read(name, text)
    return dataclasses.replace(defaults, **changes)


def options_to_text(params: DataclassInstance) -> dict[str, str]:
    """The full resolved configuration as text, one entry per option, sorted by name."""
    specs = option_specs(type(params))
    return {name: specs[name].write(getattr(params, name)) for name in sorted(specs)}
