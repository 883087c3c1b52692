"""Result-file parsers: bytes in, canonical events plus issues out. Pure: no I/O of their own.

See ``_model`` for the records and ``_registry`` for the formats.
"""

from ._errors import (
    InconsistentResult,
    MalformedFile,
    NoResults,
    ParseError,
    UnknownFormat,
    UnsupportedVariant,
)
from ._model import (
    GAMES,
    KINDS,
    SCORINGS,
    Event,
    EventKey,
    Game,
    Kind,
    ParseIssue,
    ParseResult,
    Place,
    PlayerAsWritten,
    RoundMark,
    RoundMarkKind,
    Scoring,
    Unit,
)
from ._limits import LimitExceeded, Limits
from ._registry import FORMATS, Format, detect_format, parse_bytes
from ._json import result_to_json

__all__ = [
    "FORMATS",
    "GAMES",
    "KINDS",
    "SCORINGS",
    "Event",
    "EventKey",
    "Format",
    "Game",
    "InconsistentResult",
    "Kind",
    "LimitExceeded",
    "Limits",
    "MalformedFile",
    "NoResults",
    "ParseError",
    "ParseIssue",
    "ParseResult",
    "Place",
    "PlayerAsWritten",
    "RoundMark",
    "RoundMarkKind",
    "Scoring",
    "UnknownFormat",
    "Unit",
    "UnsupportedVariant",
    "detect_format",
    "parse_bytes",
    "result_to_json",
]
