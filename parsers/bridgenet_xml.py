"""BridgeNET-XML game files: an ACBLscore game converted to XML (``acbl2xml.pl``), with the
club, the date, the hand records, every board's results and, per section and direction, the
ranking (docs/rules/inputs.md, "Files from the field")::

    <GameDatabase xmlns="http://www.NorthernColoradoBridge.com/BridgeNETSchema" ...>
      <Game>
        <ClubGame ClubNo="239376">Choice City Duplicate</ClubGame>
        <Event><EventName>Membership Game</EventName></Event>
        <Date>2005-11-15</Date>
        <Section SectionLabel="A" Direction="N-S">
          <Rankings>
            <Contestants ID="13" Strat="B">
              <Percentage>65.54</Percentage><MatchpointTotal>204.50</MatchpointTotal>
              <SectionRank Strat="A">1</SectionRank>
              <Player direction="N"><Name>Judy Davis</Name></Player> ...

One event per ``<Section>`` (its label and direction), pairs placed by their percentage (else
their matchpoint total), equal scores sharing the mean of their places: the rank elements are
ACBLscore's masterpoint ranks, which list only the award winners of each strat (as the ACBLscore
text report, docs/rules/inputs.md, "ACBL clubs"). Read with defusedxml: no entities, no
external DTD.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET  # types only; parsing is defusedxml's

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ._errors import MalformedFile
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Unit
from ._places import units_by_score
from ._registry import Format
from ._text import normalise_space

__all__ = ["FORMAT", "detect", "parse"]

NAME = "bridgenet_xml"

_DETECT = re.compile(rb"<GameDatabase\b[^>]*BridgeNETSchema", re.IGNORECASE)
_DIRECTIONS = {"N-S": "NS", "NS": "NS", "E-W": "EW", "EW": "EW"}


def detect(data: bytes, filename: str = "") -> bool:
    """An XML document whose root is BridgeNET's ``<GameDatabase>``."""
    return bool(_DETECT.search(data[:8192]))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element: ET.Element, name: str) -> ET.Element | None:
    return next((c for c in element if _local(c.tag) == name), None)


def _text(element: ET.Element | None) -> str:
    return normalise_space(element.text or "") if element is not None else ""


def _number(element: ET.Element | None) -> float | None:
    try:
        return float(_text(element))
    except ValueError:
        return None


def _units(section: ET.Element, where: str, log: IssueLog) -> tuple[Unit, ...]:
    rankings = _child(section, "Rankings")
    rows = []
    for contestant in (rankings if rankings is not None else ()):
        if _local(contestant.tag) != "Contestants":
            continue
        score = _number(_child(contestant, "Percentage"))
        if score is None:
            score = _number(_child(contestant, "MatchpointTotal"))
        players = tuple(
            PlayerAsWritten(name=name) for p in contestant if _local(p.tag) == "Player"
            if (name := _text(_child(p, "Name"))))
        label = normalise_space(contestant.get("ID") or "")
        if score is None:
            raise MalformedFile("a pair without a percentage or a matchpoint total",
                                file=log.file, table=where, row=f"pair {label}",
                                column="Percentage", value="")
        rows.append((score, label, players))
    return units_by_score(rows)


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per section and direction; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    try:
        root = SafeET.fromstring(data)
    except (ET.ParseError, DefusedXmlException) as exc:
        raise MalformedFile(f"not well-formed XML ({exc})", file=log.file) from None
    if _local(root.tag) != "GameDatabase":
        raise MalformedFile("not a BridgeNET game file: the root element is not <GameDatabase>",
                            file=log.file, value=root.tag)
    events: list[Event] = []
    for g_index, game in enumerate((g for g in root if _local(g.tag) == "Game"), start=1):
        date_text = _text(_child(game, "Date"))
        try:
            date = dt.date.fromisoformat(date_text)
        except ValueError:
            raise MalformedFile("the game's date is not a date", file=log.file,
                                table=f"Game {g_index}", column="Date", value=date_text) from None
        event_element = _child(game, "Event")
        title = _text(_child(event_element, "EventName")) if event_element is not None else ""
        organiser = _text(_child(game, "ClubGame"))
        session = _text(_child(game, "Session"))
        for section in (s for s in game if _local(s.tag) == "Section"):
            label = normalise_space(section.get("SectionLabel") or "")
            direction = _DIRECTIONS.get(normalise_space(section.get("Direction") or "").upper(),
                                        "")
            name = f"{label} {direction}".strip()
            units = _units(section, f"Game {g_index} section {name}", log)
            if not units:
                continue
            events.append(Event(
                game="bridge", title=title or session or organiser, date=date, kind="pairs",
                scoring="MP", units=units, section=name, organiser=organiser, format=NAME,
                boards=None))
    if not events:
        raise MalformedFile("no section with a ranking in the game file", file=log.file)
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="BridgeNET-XML game file (an ACBLscore game converted to XML): one event per "
                "section and direction",
    detect=detect,
    parse=parse,
)
