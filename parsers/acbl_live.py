"""ACBL Live club-game result pages: the results a club's ACBLscore upload publishes on the ACBL's
club results site, as the page's embedded data.

The page is a script-driven application: the visible HTML holds no ranking, only a JavaScript
object ``var data = {...};`` with the whole game (docs/rules/inputs.md, "Files from the field"):

- the event: ``name``, ``club_name``, ``type`` (``PAIRS``, ``INDIVIDUAL``, ``TEAMS``),
  ``board_scoring_method`` (``MATCH_POINTS``, ``IMPS``), ``winner_type`` (1: one winner, a
  Howell; 2: two winners, North-South and East-West ranked apart), ``start_date``;
- per session (``sessions``) its ``game_date``, per section (``sections``) its ``name`` and its
  ``pair_summaries``: ``pair_number``, ``direction`` (``NS``/``EW``), ``percentage`` (or
  ``score``), and ``players`` (``name`` as written, ``id_number`` the ACBL player number).

One event per section, and per direction when the game has two winners. The strat ranks the page
carries (``strat_place``) list only the award winners of each strat, and the ``Event`` ones count
both directions and every section together; so a pair's place is its order by percentage within
its event (equal percentages share the mean of their places), as the recap text prints it.
Teams games are refused (:class:`UnsupportedVariant`): their page ranks teams by match scores
this reader does not take apart.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from typing import Any

from ._errors import MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import units_by_score
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space

__all__ = ["FORMAT", "detect", "parse"]

NAME = "acbl_live"

_DATA = re.compile(rb"var\s+data\s*=\s*\{")
_MARKS = (rb'"pair_summaries"', rb'"board_scoring_method"', rb'"club_name"')
_SCORING: dict[str, Scoring] = {"MATCH_POINTS": "MP", "IMPS": "IMP", "IMP": "IMP",
                                "BAM": "BAM", "VP": "VP"}
_KINDS: dict[str, Kind] = {"PAIRS": "pairs", "INDIVIDUAL": "individual"}
_DIRECTIONS = {"NS": "NS", "N-S": "NS", "EW": "EW", "E-W": "EW"}


def detect(data: bytes, filename: str = "") -> bool:
    """A page with the ``var data = {...}`` object of an ACBL club game."""
    return _DATA.search(data) is not None and all(m in data for m in _MARKS)


def _data(text: str, file: str) -> dict[str, Any]:
    start = re.search(r"var\s+data\s*=\s*", text)
    if start is None:
        raise MalformedFile("no 'var data = {...}' object on the page", file=file)
    try:
        value, _ = json.JSONDecoder().raw_decode(text, start.end())
    except ValueError as exc:
        raise MalformedFile(f"the page's data object is not valid JSON ({exc.msg})",
                            file=file, table="var data") from None
    if not isinstance(value, dict):
        raise MalformedFile("the page's data object is not an object", file=file,
                            table="var data")
    return value


def _date(text: object, file: str, where: str) -> dt.date | None:
    """``2026-04-20 00:00:00`` or ``04/20/2026`` (month first, as the site writes it)."""
    value = normalise_space(str(text or ""))
    if not value:
        return None
    iso = re.match(r"^(\d{4})-(\d{2})-(\d{2})", value)
    us = re.match(r"^(\d{1,2})/(\d{1,2})/(\d{4})$", value)
    try:
        if iso:
            return dt.date(int(iso[1]), int(iso[2]), int(iso[3]))
        if us:
            return dt.date(int(us[3]), int(us[1]), int(us[2]))
    except ValueError:
        pass
    raise MalformedFile("not a date", file=file, table=where, column="date", value=value)


def _number(value: object) -> float | None:
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    return number if number == number else None


def _players(summary: dict[str, Any]) -> tuple[PlayerAsWritten, ...]:
    players = []
    for player in summary.get("players") or ():
        if not isinstance(player, dict):
            continue
        name = normalise_space(str(player.get("name") or ""))
        if not name:
            continue
        number = normalise_space(str(player.get("id_number") or "")) or None
        players.append(PlayerAsWritten(name=name, federation_id=number))
    return tuple(players)


def _units(summaries: Sequence[dict[str, Any]], log: IssueLog, where: str) -> tuple[Unit, ...]:
    """The event's pairs placed by their percentage (module docstring)."""
    rows = []
    for summary in summaries:
        label = normalise_space(str(summary.get("pair_number") or ""))
        score = _number(summary.get("percentage"))
        if score is None:
            score = _number(summary.get("score"))
        if score is None:
            raise MalformedFile("pair without a percentage or a score", file=log.file,
                                table=where, row=f"pair {label}", column="percentage",
                                value=str(summary.get("percentage")))
        rows.append((score, label, _players(summary)))
    return units_by_score(rows)


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per section (and direction, with two winners); see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    game = _data(decode_bytes(data, html_declared_charset(data)).text, log.file)
    kind_text = str(game.get("type") or "PAIRS").upper()
    if kind_text not in _KINDS:
        raise UnsupportedVariant(f"an ACBL club game of type {kind_text}: only pairs and "
                                 "individual games are read", file=log.file, table="var data",
                                 column="type", value=kind_text)
    scoring = _SCORING.get(str(game.get("board_scoring_method") or "").upper(), "unknown")
    title = normalise_space(str(game.get("name") or ""))
    organiser = normalise_space(str(game.get("club_name") or ""))
    two_winners = str(game.get("winner_type")) == "2"
    events: list[Event] = []
    sessions = game.get("sessions") or []
    for s_index, session in enumerate(sessions, start=1):
        if not isinstance(session, dict):
            continue
        where = f"session {session.get('number') or s_index}"
        date = _date(session.get("game_date"), log.file, where) \
            or _date(game.get("start_date"), log.file, "event")
        if date is None:
            raise MalformedFile("no game date", file=log.file, table=where,
                                column="game_date", value="")
        for section in session.get("sections") or []:
            if not isinstance(section, dict):
                continue
            name = normalise_space(str(section.get("name") or ""))
            summaries = [p for p in section.get("pair_summaries") or [] if isinstance(p, dict)]
            groups: dict[str, list[dict[str, Any]]] = {}
            for summary in summaries:
                direction = _DIRECTIONS.get(str(summary.get("direction") or "").upper(), "") \
                    if two_winners else ""
                groups.setdefault(direction, []).append(summary)
            for direction, group in sorted(groups.items()):
                label = f"{name} {direction}".strip()
                if len(sessions) > 1:
                    label = f"{where} {label}".strip()
                units = _units(group, log, f"{where} section {label}")
                events.append(Event(
                    game="bridge", title=title, date=date, kind=_KINDS[kind_text],
                    scoring=scoring, units=units, section=label, organiser=organiser,
                    format=NAME, boards=None,
                ))
    if not events:
        raise MalformedFile("the game has no section with pairs: nothing to rank",
                            file=log.file, table="var data")
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="ACBL Live club-game result page: the game's data embedded in the page "
                "(pairs and individual, one event per section and direction)",
    detect=detect,
    parse=parse,
)
