"""The grade a go player declared, as every go reader hands it on.

A go result file names each player's grade next to the name (OpenGotha ``grade="2D"`` /
``rank="2D"``, the EGD table's grade column, the Grade / Rank / Str column of an HTML cross
table), and OpenGotha also the rating it was given (``rating="2200"``, ``ratingOrigin="EGF"``).
The go readers keep them on :class:`GoPlayerAsWritten`, a :class:`PlayerAsWritten` with three
fields more; the warehouse keeps them per game (table ``go_declared``) and the go schemes start a
newcomer from the grade (docs/rules/go-rfg.md "First entry").

:func:`read_grade` reads the ways a grade is written: ``30K``, ``9k``, ``2D``, ``2d``, ``1P``,
``7 kyu``, ``7 dan``, ``3 pro``, and the Russian ``2д`` / ``1к`` / ``3 дан`` (kyu 1-30, dan
1-9, pro 1-9) into one spelling, ``"9k"``,
``"2d"``, ``"1p"``. Anything else is not a grade: the reader reports it as a warning and keeps
the player without a grade (the scheme's default start then applies).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ._errors import MalformedFile
from ._issues import IssueLog
from ._model import PlayerAsWritten

__all__ = ["GoPlayerAsWritten", "declared", "read_grade", "read_rating"]

_GRADE = re.compile(r"^(\d{1,2})\s*(k|kyu|d|dan|p|pro|кю|к|дан|д)\.?$", re.IGNORECASE)
_KINDS = {"k": "k", "d": "d", "p": "p", "к": "k", "д": "d"}
_LIMITS = {"k": 30, "d": 9, "p": 9}


@dataclass(frozen=True, slots=True)
class GoPlayerAsWritten(PlayerAsWritten):
    """A go player as the file names them, with what the file says of their strength."""

    grade: str | None = None
    """The declared grade in one spelling (``"9k"``, ``"2d"``, ``"1p"``); None when the file
    gives none or one that does not read as a grade."""
    grade_as_written: str | None = None
    """The grade exactly as the file wrote it (also when it did not read)."""
    rating: float | None = None
    """The rating the file states for the player (OpenGotha ``rating=``), if any."""
    rating_origin: str | None = None
    """Where that rating comes from, as the file says (OpenGotha ``ratingOrigin``: ``EGF``,
    ``FFG : -1774``, ``INI``, ...)."""


def read_grade(text: str) -> str | None:
    """``"2d"`` for ``2D``, ``2 dan``, ``2d``; ``"30k"`` for ``30K``, ``30 kyu``; ``"1p"`` for
    ``1P``; None when ``text`` is not a grade (empty, ``0k``, ``31k``, ``10d``, ``strong``)."""
    match = _GRADE.match(text.strip())
    if match is None:
        return None
    n, kind = int(match.group(1)), _KINDS[match.group(2)[0].lower()]
    if not 1 <= n <= _LIMITS[kind]:
        return None
    return f"{n}{kind}"


def read_rating(text: str) -> float | None:
    """A stated rating: a finite number, else None."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def declared(base: PlayerAsWritten, grade_text: str, log: IssueLog, *, where: str = "",
             row: int | None = None, rating: str = "", rating_origin: str = "",
             ) -> GoPlayerAsWritten:
    """``base`` with the grade (and stated rating) the file gives for it. A grade that does not
    read is a warning naming where it stands; the player is kept without one."""
    text = grade_text.strip()
    grade = read_grade(text) if text else None
    if text and grade is None:
        log.report(MalformedFile(
            f"{base.name}: grade {text!r} is not a grade like 9k, 2d or 1p; the player starts "
            "at the scheme's default rating", table=where or None, row=row, column="grade",
            value=text))
    return GoPlayerAsWritten(
        name=base.name, federation_id=base.federation_id, club=base.club,
        initials=base.initials, handle=base.handle, grade=grade,
        grade_as_written=text or None, rating=read_rating(rating) if rating else None,
        rating_origin=rating_origin.strip() or None,
    )
