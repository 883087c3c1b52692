"""JFR Teamy leaderboard pages: the ranking of a team event from the Polish teams scoring program.

Layout (fixtures/jfr_teamy/, written after the JFR Pary markup the two programs share: generator
meta ``JFR 2005``, ``kolorki.css``, a one-table page whose first rows are the heading, cells of
class ``c``/``l``/``r`` after an empty spacer column, the footer ``Teamy.x.y ©Jan Romański'2005,
strona wygenerowana <date>``). The column header reads

    m-ce | nr | drużyna | skład | [IMP | c/o | kara ...] | VP (or PKT)

and one row per team follows. ``nr`` and ``skład`` (the members) are optional; columns that are
not listed here (an IMP balance, carry-over, penalties) are ignored.

Quirks handled:

- **score**: the *last* column headed ``VP``, ``PKT``, ``punkty``, ``razem`` or ``suma``: the
  total after carry-over and penalties. Decimal point or comma. Scoring is always ``VP``;
- **ties** (docs/rules/inputs.md: shared places): an empty place cell below a placed row, a range
  ``3-4`` or a repeated place give the averaged place (3.5); ``place_text`` keeps the cell;
- **members** (docs/rules/inputs.md: teams have four to eight players): one per ``<br>`` line or
  separated by commas/semicolons, in the ``skład`` column; without that column, the lines of the
  team cell after the team's name. Each link is one player; a link to the PZBS Cezar register
  (``...cezar/?...&r=06542``) gives the member id, kept as written. Unlinked names (foreign
  guests) are players without an id. A team listing fewer than 4 or more than 8 members is a
  warning; a page listing no members at all gives units without players (a note);
- **phantom** entries (``PHANTOM``, ``ROBOT``, ``pauza``, ``Bye``) are not players;
- **charset**: declared, else detected (``_text``).

Event fields: ``kind`` ``teams``, ``scoring`` ``VP``; ``Unit.label`` is the team's name as
written (the number is only a draw position); title, date and organiser are read from the heading
as on JFR Pary pages (first line; first date, else ``<title>``, else the footer's generation date
with a warning; the date line without its date). Boards are not on the page (None).

Checks: a team placed below another must not score more, tied teams must score the same, places
must follow on; each failure is a warning (``InconsistentResult`` in strict mode).

Detection is tight both ways: a ``drużyna`` (or ``zespół``/``team``) column, a ``VP``/``PKT``
column and ``m-ce``, on a page made by JFR (generator meta or ``Teamy`` footer) and not by
KoPS2www. JFR Pary refuses any page with a team column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ._errors import MalformedFile, NoResults
from ._issues import IssueLog, source_name
from ._jfr import (
    PLACE_HEADER,
    TEAM_HEADER,
    Element,
    cell_text,
    data_rows,
    decode_page,
    event_date_and_title,
    federation_id,
    heading_lines,
    is_placeholder,
    jfr_generator,
    kops_generator,
    page_kind,
    read_heading,
    read_place,
    read_score,
    row_cells,
    teamy_footer,
)
from ._limits import html_document
from ._model import Event, ParseResult, PlayerAsWritten
from ._places import WrittenPlace, ranked_units
from ._registry import Format
from ._text import normalise_space

__all__ = ["FORMAT", "detect", "parse"]

NAME = "jfr_teamy"
_TABLE = "results"
_MEMBERS = (4, 8)
"""docs/rules/inputs.md: teams have four to eight players."""

# --- detection ------------------------------------------------------------------------------

_VP_HEADER = re.compile(rb">\s*(?:VP|PKT\.?|punkty|suma VP|razem)\s*<", re.IGNORECASE)


def detect(data: bytes, filename: str = "") -> bool:
    """A JFR page (generator meta or ``Teamy`` footer) with ``m-ce``, team and VP columns; or
    any page with the ``Teamy`` footer (a round, a match, a board, the frameset), which
    ``parse`` refuses with the reason instead of leaving it to a generic reader."""
    if kops_generator(data):
        return False
    footer = teamy_footer(data)
    made_by_jfr = jfr_generator(data) or footer
    leaderboard = bool(
        made_by_jfr and PLACE_HEADER.search(data)
        and TEAM_HEADER.search(data) and _VP_HEADER.search(data)
    )
    return leaderboard or footer


# --- the column header ----------------------------------------------------------------------

_PLACE_NAMES = frozenset({"m-ce", "miejsce", "msc."})
_LABEL_NAMES = frozenset({"nr", "numer"})
_TEAM_NAMES = frozenset({"drużyna", "druzyna", "zespół", "zespol", "team"})
_MEMBER_NAMES = frozenset({"skład", "sklad", "zawodnicy", "gracze", "członkowie"})
_SCORE_NAMES = frozenset({"vp", "pkt", "pkt.", "punkty", "razem", "suma", "suma vp"})


@dataclass(frozen=True, slots=True)
class _Columns:
    place: int
    team: int
    score: int
    members: int | None
    headers: tuple[str, ...]

    @property
    def width(self) -> int:
        return max(self.place, self.team, self.score, self.members or 0) + 1


def _columns(headers: Sequence[str]) -> _Columns | None:
    """Column positions from a header row's texts, None if it is not the leaderboard header."""
    lowered = [h.lower() for h in headers]
    place = next((i for i, h in enumerate(lowered) if h in _PLACE_NAMES), None)
    team = next((i for i, h in enumerate(lowered) if h in _TEAM_NAMES), None)
    scores = [i for i, h in enumerate(lowered) if h in _SCORE_NAMES]
    members = next((i for i, h in enumerate(lowered) if h in _MEMBER_NAMES), None)
    if place is None or team is None or not scores:
        return None
    return _Columns(place, team, scores[-1], members, tuple(headers))


_MATCH_PAGE = re.compile(r"\b(?:mecz\w*|runda|rundy|segment\w*|sesja|zestawienie|"
                         r"rozstawienie|wyniki\s+mecz\w*)\b", re.IGNORECASE)


def _find_header(doc: Element, file: str, text: str = "") -> tuple[Element, _Columns]:
    for row in doc.iter("tr"):
        columns = _columns([cell_text(c) for c in row_cells(row)])
        if columns is not None:
            return row, columns
    reason = page_kind(doc, text)
    if reason is None and _MATCH_PAGE.search(normalise_space(doc.text_content())):
        reason = "a round's or a match's page (match scores), not the leaderboard"
    if reason is not None:
        raise NoResults(f"not a results page: {reason}", file=file)
    raise MalformedFile(
        "no leaderboard: no row with the columns 'm-ce', 'drużyna' and 'VP'", file=file,
    )


# --- members --------------------------------------------------------------------------------

_Token = tuple[Literal["text", "link", "br"], str, str]
"""(kind, text, href) of a cell's content in document order."""

_SEPARATORS = re.compile(r"[,;]")


def _tokens(cell: Element) -> list[_Token]:
    """The cell's texts, links (atomic) and line breaks, nested formatting flattened."""
    tokens: list[_Token] = []

    def walk(element: Element) -> None:
        if element.text:
            tokens.append(("text", element.text, ""))
        for child in element:
            if isinstance(child.tag, str):
                if child.tag == "br":
                    tokens.append(("br", "", ""))
                elif child.tag == "a":
                    tokens.append(("link", normalise_space(child.text_content()),
                                   child.get("href") or ""))
                else:
                    walk(child)
            if child.tail:
                tokens.append(("text", child.tail, ""))

    walk(cell)
    return tokens


def _split_team_cell(tokens: Sequence[_Token]) -> tuple[str, list[_Token]]:
    """The team's name (everything before the first ``<br>``) and the tokens after it."""
    index = next((i for i, t in enumerate(tokens) if t[0] == "br"), len(tokens))
    name = normalise_space("".join(t[1] for t in tokens[:index]))
    return name, list(tokens[index + 1:])


def _members(tokens: Sequence[_Token]) -> Iterator[tuple[str, str | None]]:
    """(name, PZBS id) per member: each link is one, unlinked text is split at ``,`` ``;``."""
    for kind, text, href in tokens:
        if kind == "link":
            if text:
                yield text, federation_id(href)
        elif kind == "text":
            for part in _SEPARATORS.split(text):
                if name := normalise_space(part):
                    yield name, None


# --- the rows -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    place_text: str
    written: WrittenPlace | None
    label: str
    score: float | None
    players: tuple[PlayerAsWritten, ...]
    listed: int
    """Members as listed, phantom entries included."""


def _read_row(number: int, cells: Sequence[Element], columns: _Columns, log: IssueLog) -> _Row:
    def where(column: int) -> dict[str, Any]:
        return {"file": log.file, "table": _TABLE, "row": number,
                "column": columns.headers[column]}

    place_text, written = read_place(cells[columns.place], where(columns.place))
    team, rest = _split_team_cell(_tokens(cells[columns.team]))
    if not team:
        raise MalformedFile("team without a name", value=team, **where(columns.team))
    if columns.members is not None:
        rest = _tokens(cells[columns.members])
    listed = list(_members(rest))
    players = tuple(
        PlayerAsWritten(name=name, federation_id=fid)
        for name, fid in listed if not is_placeholder(name)
    )
    member_column = columns.members if columns.members is not None else columns.team
    if len(players) < len(listed):
        log.report(MalformedFile(
            f"team {team}: a phantom/robot entry is not a player",
            value=", ".join(name for name, _ in listed), **where(member_column),
        ), level="info")
    score = read_score(cells[columns.score], where(columns.score), log, unit=f"team {team}",
                       what="VP total")
    return _Row(number, place_text, written, team, score, players, len(listed))


def _read_rows(header_row: Element, columns: _Columns, log: IssueLog) -> list[_Row]:
    """Every team's row below the header; blank rows and repeated headers are skipped."""
    cells = data_rows(header_row.itersiblings(), skip=lambda _, texts: _columns(texts) is not None,
                      width=columns.width, log=log, table=_TABLE)
    rows = [_read_row(number, row, columns, log) for number, row in enumerate(cells, 1)]
    if not rows:
        raise MalformedFile("the leaderboard has no teams", file=log.file, table=_TABLE)
    return rows


def _check_members(rows: Sequence[_Row], columns: _Columns, log: IssueLog) -> None:
    """Warn about teams listing fewer than 4 or more than 8 members (none listed: one note)."""
    column = columns.headers[columns.members if columns.members is not None else columns.team]
    if not any(r.listed for r in rows):
        log.report(MalformedFile(
            "the leaderboard lists no team members; units have no players",
            table=_TABLE, column=column, has_value=False,
        ), level="info")
        return
    low, high = _MEMBERS
    for row in rows:
        if not low <= row.listed <= high:
            log.report(MalformedFile(
                f"team {row.label} lists {row.listed} members, not {low}-{high}",
                table=_TABLE, row=row.number, column=column, value=row.listed,
            ))


# --- parse ----------------------------------------------------------------------------------


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One teams event from a JFR Teamy leaderboard page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = decode_page(data, log)
    doc = html_document(text, log.file)
    header_row, columns = _find_header(doc, log.file, text)
    heading = read_heading(heading_lines(header_row))
    title, date_found = event_date_and_title(doc, text, heading, log, source=source)
    if not title:
        log.report(MalformedFile("no event title on the page", table="heading", has_value=False))
    rows = _read_rows(header_row, columns, log)
    _check_members(rows, columns, log)
    event = Event(
        game="bridge", title=title, date=date_found.date, kind="teams", scoring="VP",
        units=ranked_units(rows, log, table=_TABLE, place_column=columns.headers[columns.place],
                           score_column=columns.headers[columns.score], unit="team"),
        boards=None, section="",
        organiser=heading.organiser, format=NAME,
    )
    return ParseResult(format=NAME, events=(event,), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="JFR Teamy leaderboard page, Polish team-event scoring program (VP totals)",
    detect=detect,
    parse=parse,
)
