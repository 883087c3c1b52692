"""Rating exceptions, split by meaning. Every message quotes the bad value and says where.

    RatingError              base: anything the rating package refuses
    ├── OptionError          a scheme option is unknown, has an invalid value, or is not
    │   │                    implemented yet; the message lists what is valid
    │   └── UnknownScheme    no scheme of that name is registered
    └── InputError           the results or initial-ratings frame is malformed or contradicts
                             itself (missing column, a unit with two places, ...)
"""

from __future__ import annotations

__all__ = ["InputError", "OptionError", "RatingError", "UnknownScheme"]


class RatingError(Exception):
    """Base class of every error raised by :mod:`ratings`."""


class OptionError(RatingError):
    """A scheme option is unknown, has an invalid value, or names a variant not implemented yet."""


class UnknownScheme(OptionError):
    """No rating scheme of that name is registered."""


class InputError(RatingError):
    """The results or initial-ratings frame is malformed or inconsistent.

    ``frame`` is ``'results'`` or ``'initial'``; the message names the event, unit, player or
    column concerned and quotes the offending value.
    """

    def __init__(self, problem: str, *, frame: str) -> None:
        self.problem = problem
        self.frame = frame
        super().__init__(f"{frame} frame: {problem}")
