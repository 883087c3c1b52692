"""PBN (Portable Bridge Notation 2.1) files: the ranking they carry, not the deals.

A PBN file is a list of games (boards), each a block of tags ``[Name "value"]`` ended by an
empty line; a tag whose value is a column spec (``[TotalScoreTable "Rank\\2R;PairId\\2R;...;
Names\\40L"]``) is a *table* and its rows follow on the next lines. Comments are ``%`` lines and
``{ ... }`` blocks. A tag value ``#`` means "as in the game above"; PBN 2.0 exports write
``##Value`` for a value that holds for the games below too (read as ``Value``); ``?`` is unknown.
The ranking of the event comes from one of two places, in this order:

1. **TotalScoreTable** (PBN 2.1 §5.8), as scoring programs write it (BridgeComposer,
   the PBN 2.0 exports of OKbridge and of simultaneous tournaments, other club programs).
   Column names are compared without case, their width (``\\5R``) and their sort mark (``+``
   highest first, ``-`` lowest first) dropped. One row per unit; values are whitespace-separated,
   quoted when they contain spaces; ``-`` (irrelevant) and ``?`` (unknown) are empty, the ``^``
   of an artificial score is dropped. Rows that do not fit the columns are skipped with a
   warning, except two repairs: a rank left blank (spaces instead of ``-``) on a fixed-width
   row, and a names field written unquoted in several words when names are the only text
   column. Columns read:

   - the place: ``Rank`` (also ``Place``, ``Position``); without one, the units are ranked by
     their scores (equal scores share a place) and no place is recorded as written;
   - the score: a column marked ``+`` if it is one of these, else the first present of
     ``TotalPercentage``, ``MeanPercentage``, ``Percentage`` (MP); ``TotalScoreVP``,
     ``TotalVP``, ``VP`` (VP); ``TotalScoreBAM``, ``TotalBAM``, ``BAM`` (BAM); ``TotalScoreMP``,
     ``TotalMP``, ``MP``, ``MeanMP`` (MP); ``TotalScoreIMP``, ``TotalIMP``, ``IMP``,
     ``MeanIMP``, ``Butler`` (IMP); ``TotalScore``, ``MeanScore``, ``Score``, ``Total`` (the
     scoring then from the ``Scoring`` tag: ``MP``/``MatchPoints``, ``IMP``/``Butler``/
     ``Cross-IMPs``, ``BAM``, ``VP``; else unknown). Neither a rank nor a score: refused;
   - the unit: ``PairId`` / ``TeamId`` / ``PlayerId`` (the label, and the kind: pairs / teams /
     individual), else ``Pair``, ``Team``, ``Id``, ...; else the ``Competition`` tag; else
     pairs, or teams when most units name three players or more. A team's label is its
     ``TeamName`` when there is one;
   - the players: ``Names`` (also ``Name``, ``PairName``, ``Players``, ``Members``): one field
     for the unit, the names separated by ``;`` (the standard) or as :func:`split_names` reads
     them; or one column per player (``Name1``, ``Name2``; ``FirstName1`` with ``LastName1``).
     A table with team names but no players, or with no names at all, is refused: it names no
     one. Member (federation) numbers: ``MemberID1``, ``MemberID2``, ... per player, or one
     ``MemberIDs`` field split like the names; clubs: ``Club1``, ... per player, or one ``Club``
     (``Center`` in simultaneous events) for the whole unit;
   - ``Section`` (one event per section; without the column, the ``Section`` tag of the game
     that holds the table; several tables without either are sections ``1``, ``2``, ...) and
     ``Direction`` (``NS``, ``N-S``, ``E-W``, ...: two rankings when both directions have a 1st
     place, or, without ranks, when both directions are there).

   A table repeated word for word in several games is read once; a table ranking exactly the
   same names as a later one is an earlier standing (after a round) and only the last is read.
   Event, Date, Site and Scoring are those of the game holding the table.
2. **the standings recap** BridgeComposer copies into a ``{ ... }`` comment when there is no
   TotalScoreTable (fixtures/pbn/bridgecomposer_club_game.pbn): ACBLscore's text recap, one
   block per section and direction::

       Placeholder Pairs Monday Aft Session March 9, 2026
       Scores after  1 round   Average:    3.0      Section  A  North-South
       Pair    Pct   Score      Section Rank      MPs
         1   83.33    5.00  A   1                0.30(A)  Ann Alfa - Bob Bravo

   Each block is one MP event (score = ``Pct``), section ``"A NS"`` (``"A EW"``; just ``"A"``
   when the block names no direction). The tokens between ``Score`` and the ``MPs`` column are
   the rank columns: letters are strat/section letters, the first number is the place (the
   rank in the first strat, i.e. overall), further numbers are lower-strat ranks, kept as an
   info note; the masterpoint award (``0.30(A)``) is skipped; the rest of the line is the names.

Ranks as written: ``5``, ``5=`` / ``=5`` (a tie marked with ``=``: equal places share, 5.5 for
two), the same number on several rows (the standard's "best rank in case of ties"), ``5-6`` (a
range), a blank or ``-`` (tied with the row above), and ACBL's ``p/q``: a tie for p-q when
exactly the q-p+1 consecutive rows write the same ``p/q`` (``3/4`` on two rows), otherwise the
ranks of one unit in strats A/B (``2/1``: 2nd overall, 1st in strat B; place 2, the rest
noted). See :func:`read_ranks`.

**Names** (:func:`split_names`, i.e. :func:`parsers.names.split_pair`): a pair's names field is
split at `` - ``, `` – ``, ``&``, ``/``, ``+`` or ``;`` (``Anna Nowak-Kowalska - Jan Kowal`` -> two
players, the hyphenated surname kept whole); a field that nothing else splits and whose one
unspaced hyphen has the same shape on both sides is two players joined (BridgeComposer's
``Alfa-Bravo`` -> ``Alfa``, ``Bravo``; ``Novák J.-Kováč P.``). A team's field is also split at
commas; a pair's only between complete names (``Smith, J`` is one name); an individual's is
never split. PHANTOM / ROBOT / BYE / SIT OUT and robots (``GIB``, ``Bristol GIB 1``) are not
players: a ranked unit of them keeps its place with no players, an unranked one is left out,
one beside real players is dropped from the unit (info notes).

Event fields: ``title`` from the ``Event`` tag, else BridgeComposer's ``%HRTitleEvent``
directive, else the recap's first line without its date; ``date`` from ``Date``
(``2026.03.09``, also ``2026-03-09 17:04`` as BBO writes it; ``??`` parts are unknown), else
``%HRTitleDate``, else a date written in the title, else the recap's first line; no date is a
:class:`MalformedFile`. ``organiser`` from ``Site``, else ``%HRTitleSite``. ``boards``: the
number of distinct ``Board`` tags. Charset: the ``%Content-type: ...; charset=`` line is
honoured when it decodes cleanly (``_text``).

A PBN with neither a TotalScoreTable nor a recap is an :class:`UnsupportedVariant`, refused in
one line that says what the file holds instead: hand records only ("a PBN file of hand records
only (36 deals, no scores): not a result": Dealer4, Big Deal, BridgeComposer hand records,
double-dummy outputs, the deals a club's scoring folder keeps beside its results), played
deals (one game per table, as BBO or pbntools write them) or travellers (a ``ScoreTable`` per
board, even one with a ``Rank`` column). No
player is ever made from a board's rows (``N-S``, pair numbers, ``West "Para-2"``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ._dates import find_date, strip_date
from ._errors import InconsistentResult, MalformedFile, NoResults, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, Kind, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, order_problems, parse_place, shared_places
from ._registry import Format
from ._text import decode_bytes, normalise_space, parse_decimal
from .names import split_pair

__all__ = [
    "FORMAT", "NOT_PLAYERS", "detect", "parse", "rank_number", "read_ranks", "split_names",
]

NAME = "pbn"

NOT_PLAYERS = re.compile(r"^(?:phantom|robot|bye|sit\s*-?\s*out|ghost)\b", re.IGNORECASE)
"""Names that stand for no one: a phantom pair, a robot, a bye, a sit-out."""

# --- detection ------------------------------------------------------------------------------

_TAG_LINE = re.compile(rb'^\[[A-Za-z][A-Za-z0-9_]*\s+"', re.MULTILINE)
_GAME_TAG = re.compile(rb'^\[(?:Board|Deal|TotalScoreTable)\s+"', re.MULTILINE)


def detect(data: bytes, filename: str = "") -> bool:
    """``% PBN`` on the first line, or PBN tag lines with a ``Board``/``Deal``/total table."""
    head = data[:65536].lstrip(b"\xef\xbb\xbf")
    if head.startswith(b"% PBN") or head.startswith(b"%PBN"):
        return True
    return (
        head.lstrip().startswith((b"[", b"%", b"{"))
        and _TAG_LINE.search(head) is not None and _GAME_TAG.search(head) is not None
    )


# --- names and ranks (shared with the recap HTML pages) -------------------------------------

def split_names(text: str, kind: Kind) -> list[str]:
    """The player names of one unit's names field; see the module docstring, "Names", and
    :func:`parsers.names.split_pair`."""
    return split_pair(text, kind)


_SLASHED = re.compile(r"^\d+(?:\s*/\s*\d+)+$")


def read_ranks(texts: Sequence[str]) -> list[tuple[WrittenPlace | None, tuple[int, ...]]]:
    """Each rank cell (in ranking order) as a written place plus further strat ranks.

    ``""`` and ``-`` are blank (None: tied with the row above, see ``_places``); ``5=`` is 5;
    ``p/q`` repeated on exactly q-p+1 consecutive rows is the tie p-q, any other ``p/q/...``
    is place p with the strat ranks q, ... returned beside it. Anything else goes through
    :func:`parse_place` (``5``, ``5-6``); ``ValueError`` for junk.
    """
    cleaned = [normalise_space(t) for t in texts]
    out: list[tuple[WrittenPlace | None, tuple[int, ...]]] = []
    for index, text in enumerate(cleaned):
        if text in ("", "-"):
            out.append((None, ()))
            continue
        if _SLASHED.match(text):
            numbers = [int(n) for n in text.split("/")]
            if len(numbers) == 2 and 1 <= numbers[0] < numbers[1] and \
                    _run_length(cleaned, index) == numbers[1] - numbers[0] + 1:
                out.append((WrittenPlace(numbers[0], numbers[1]), ()))
            else:
                out.append((parse_place(str(numbers[0])), tuple(numbers[1:])))
            continue
        out.append((parse_place(text), ()))
    return out


def _run_length(texts: Sequence[str], index: int) -> int:
    """How many consecutive rows around ``index`` write exactly ``texts[index]``."""
    start = index
    while start > 0 and texts[start - 1] == texts[index]:
        start -= 1
    end = index
    while end + 1 < len(texts) and texts[end + 1] == texts[index]:
        end += 1
    return end - start + 1


# --- reading the file -----------------------------------------------------------------------

_CHARSET = re.compile(rb"^%\s*Content-type:.*?charset\s*=\s*([A-Za-z0-9_.:-]+)",
                      re.IGNORECASE | re.MULTILINE)
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')
_DIRECTIVE = re.compile(r'^%\s*(HRTitleEvent|HRTitleDate|HRTitleSite)\s+"?([^"]*)"?\s*$')


@dataclass(slots=True)
class _Tag:
    name: str
    value: str
    line: int
    game: int = 0
    """Which game (block of tags ended by an empty line) the tag belongs to, from 0."""
    rows: list[tuple[int, str]] = field(default_factory=list)


@dataclass(slots=True)
class _Document:
    tags: list[_Tag] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)
    directives: dict[str, str] = field(default_factory=dict)
    """BridgeComposer's hand-record titles (``%HRTitleEvent "..."``, ``%HRTitleDate``, ...)."""


def _is_table(name: str) -> bool:
    """``ScoreTable``, ``TotalScoreTable``, ``OptimumResultTable``, ...: rows follow the tag."""
    return name.endswith("Table")


def _read(text: str) -> _Document:
    """Tags (with the rows of table tags and their game) and brace comments, in file order."""
    doc = _Document()
    table: _Tag | None = None
    comment: list[str] | None = None
    comment_line = 0
    game = 0
    in_game = False
    for number, line in enumerate(text.splitlines(), start=1):
        if comment is not None:
            end = line.find("}")
            if end < 0:
                comment.append(line)
                continue
            comment.append(line[:end])
            doc.comments.append((comment_line, "\n".join(comment)))
            comment = None
            continue
        stripped = line.strip()
        if stripped.startswith("%"):
            directive = _DIRECTIVE.match(stripped)
            if directive:
                doc.directives.setdefault(directive[1], directive[2].strip())
            continue
        if stripped.startswith(";"):
            continue
        if stripped.startswith("{"):
            body = line[line.index("{") + 1:]
            end = body.find("}")
            if end >= 0:
                doc.comments.append((number, body[:end]))
            else:
                comment, comment_line = [body], number
            continue
        match = _TAG.match(stripped)
        if match:
            tag = _Tag(match[1], match[2].replace('\\"', '"'), number, game)
            if _is_table(tag.name) and tag.value.strip() == "#":
                # "#": the columns as in the game above (PBN 2.1, "Copying tag values")
                tag.value = next((t.value for t in reversed(doc.tags) if t.name == tag.name),
                                 tag.value)
            doc.tags.append(tag)
            in_game = True
            table = tag if _is_table(tag.name) else None
            continue
        if not stripped:
            table = None
            if in_game:
                game += 1
                in_game = False
        elif table is not None:
            table.rows.append((number, line))
    return doc


def _clean_value(value: str) -> str:
    """A tag value as meant: ``##X`` (PBN export's "X, and in the games below") is ``X``;
    ``?`` (unknown) and ``-`` are empty."""
    text = normalise_space(value)
    if text.startswith("##"):
        text = text[2:].strip()
    return "" if text in ("?", "-") else text


def _tag_value(doc: _Document, name: str, game: int | None = None) -> str:
    """The value of tag ``name``: in ``game`` (or the nearest game above it that has one, ``#``
    meaning "as in the game above"), else the first value in the file; ``""`` if none."""
    if game is not None:
        for tag in reversed(doc.tags):
            if tag.name == name and tag.game <= game:
                value = _clean_value(tag.value)
                if value and value != "#":
                    return value
    for tag in doc.tags:
        if tag.name == name:
            value = _clean_value(tag.value)
            if value and value != "#":
                return value
    return ""


_PBN_DATE = re.compile(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?")


def _pbn_date(text: str) -> dt.date | None:
    """``2026.03.09`` (also ``2026-03-09 17:04`` as BBO writes it) -> a date; ``2026.??.??``,
    ``0`` and junk -> None."""
    match = _PBN_DATE.fullmatch(_clean_value(text))
    if not match:
        return None
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def _boards(doc: _Document) -> int | None:
    boards = {_clean_value(t.value) for t in doc.tags if t.name == "Board"}
    boards -= {"", "#"}
    return len(boards) or None


# --- one ranking, from either source --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """One unit as read from a table or recap row, before places are resolved."""

    line: int
    rank_text: str
    label: str
    direction: str
    names: str
    score: float | None
    more_ranks: tuple[str, ...] = ()
    """Rank columns after the first (lower strats), as written; reported, not used."""
    name_list: tuple[str, ...] = ()
    """The names when the table gives each player a column of their own (``Name1``, ...)."""
    ids: tuple[str, ...] = ()
    """Federation (member) numbers of the players, in the order of the names."""
    clubs: tuple[str, ...] = ()
    """The players' clubs in the order of the names, or one club for the whole unit."""


@dataclass(frozen=True, slots=True)
class _Ranking:
    section: str
    table: str
    kind: Kind
    scoring: Scoring
    rank_column: str
    """The column the places come from; ``""``: none, places follow the scores."""
    rows: tuple[_Row, ...]
    fallback_title: str = ""
    fallback_date: dt.date | None = None
    game: int | None = None
    """The game whose tags (Event, Date, Site) describe this ranking, if it came from a table."""
    names_column: str = "Names"


_ROBOT = re.compile(r"\b(?:GIB|robots?)\b", re.IGNORECASE)


def _not_a_player(name: str) -> bool:
    """A phantom, bye, sit-out, or a robot (``GIB``, ``Bristol GIB 1``, ``Robot``)."""
    return bool(NOT_PLAYERS.match(name) or _ROBOT.search(name))


def _players(row: _Row, kind: Kind) -> tuple[tuple[PlayerAsWritten, ...], bool]:
    """The row's players and whether it is a phantom (every name a phantom word)."""
    names = list(row.name_list) if row.name_list else split_names(row.names, kind)
    ids = row.ids if len(row.ids) == len(names) else ()
    clubs = row.clubs if len(row.clubs) == len(names) else (
        row.clubs * len(names) if len(row.clubs) == 1 else ())
    players = tuple(
        PlayerAsWritten(name=name, federation_id=(ids[i] or None) if ids else None,
                        club=(clubs[i] or None) if clubs else None)
        for i, name in enumerate(names) if not _not_a_player(name)
    )
    return players, bool(names) and not players


def _places_from_scores(rows: list[_Row]) -> list[WrittenPlace | None]:
    """Rows in score order (best first) ranked by their scores, equal scores sharing a place."""
    out: list[WrittenPlace | None] = []
    for index, row in enumerate(rows):
        if index and row.score == rows[index - 1].score:
            out.append(None)
        else:
            out.append(WrittenPlace(index + 1, index + 1))
    return out


def _units(ranking: _Ranking, log: IssueLog) -> tuple[Unit, ...]:
    """Places (ties shared), players, and the checks of places against scores.

    Rows are put in rank order first (recaps list pairs by number) when every row has a rank;
    with blank ranks the file's order is kept, a blank meaning a tie with the row above. A table
    without a rank column is ranked by its scores.
    """
    rows = list(ranking.rows)
    if not ranking.rank_column:
        rows.sort(key=lambda r: -(r.score if r.score is not None else float("-inf")))
        ranks: list[tuple[WrittenPlace | None, tuple[int, ...]]] = [
            (w, ()) for w in _places_from_scores(rows)]
    else:
        if all(_LEADING.search(r.rank_text) for r in rows):
            rows.sort(key=lambda r: rank_number(r.rank_text))
        try:
            ranks = read_ranks([r.rank_text for r in rows])
        except ValueError:
            bad = next(r for r in rows if _bad_rank(r.rank_text))
            raise MalformedFile("invalid rank", file=log.file, table=ranking.table,
                                row=f"line {bad.line}", column=ranking.rank_column,
                                value=bad.rank_text) from None
    kept: list[tuple[_Row, WrittenPlace | None, tuple[PlayerAsWritten, ...]]] = []
    for row, (written, strats) in zip(rows, ranks):
        where = {"table": ranking.table, "row": f"line {row.line}"}
        lower = [str(n) for n in strats] + list(row.more_ranks)
        if lower and written is not None:
            log.report(MalformedFile(
                f"unit {row.label}: place {written.first} taken from the first strat; "
                f"lower-strat rank(s) {', '.join(lower)} not used",
                column=ranking.rank_column, value=row.rank_text, **where,
            ), level="info")
        players, phantom = _players(row, ranking.kind)
        shown = " ; ".join(row.name_list) if row.name_list else row.names
        if phantom:
            ranked = written is not None or bool(row.rank_text) or not ranking.rank_column
            log.report(MalformedFile(
                f"unit {row.label} is a phantom/sit-out, not players; "
                + ("kept with its place and no players" if ranked else "not ranked, left out"),
                column=ranking.names_column, value=shown, **where,
            ), level="info")
            if not ranked:
                continue
        elif not players:
            log.report(MalformedFile(f"unit {row.label} has no names",
                                     column=ranking.names_column, value=shown, **where))
        elif any(_not_a_player(n) for n in (row.name_list or split_names(row.names,
                                                                         ranking.kind))):
            log.report(MalformedFile(
                f"unit {row.label}: a phantom or robot beside its players is not a player; "
                "left out", column=ranking.names_column, value=shown, **where), level="info")
        kept.append((row, written, players))
    if not kept:
        raise MalformedFile("the ranking has no units", file=log.file, table=ranking.table)
    places, problems = shared_places([w for _, w, _ in kept])
    for problem in problems:
        row = kept[problem.index][0]
        log.report(InconsistentResult(problem.message, table=ranking.table,
                                      row=f"line {row.line}", column=ranking.rank_column,
                                      value=row.rank_text))
    for problem in order_problems(places, [r.score for r, _, _ in kept]):
        row = kept[problem.index][0]
        log.report(InconsistentResult(f"unit {row.label}: {problem.message}",
                                      table=ranking.table, row=f"line {row.line}",
                                      column=ranking.rank_column, value=row.rank_text))
    return tuple(
        Unit(place=place, place_text=row.rank_text if ranking.rank_column else "",
             label=row.label, score=row.score, players=players)
        for place, (row, _, players) in zip(places, kept)
    )


_LEADING = re.compile(r"\d+")


def rank_number(text: str) -> int:
    """The first number of a rank as written (``3/4`` -> 3, ``=5`` -> 5); 0 if none."""
    match = _LEADING.search(text)
    return int(match[0]) if match else 0


def _bad_rank(text: str) -> bool:
    try:
        read_ranks([text])
    except ValueError:
        return True
    return False


def _split_directions(rows: list[_Row], ranked: bool = True) -> list[tuple[str, list[_Row]]]:
    """("", rows), or ("NS", ...), ("EW", ...) when both directions have a 1st place (or, in a
    table without ranks, when both directions are there)."""
    if ranked:
        firsts = {r.direction for r in rows if re.match(r"^=?1(?:\D|$)", r.rank_text)}
    else:
        firsts = {r.direction for r in rows}
    if not {"NS", "EW"} <= firsts:
        return [("", rows)]
    return [(d, [r for r in rows if r.direction == d]) for d in ("NS", "EW")
            if any(r.direction == d for r in rows)]


# --- TotalScoreTable ------------------------------------------------------------------------

_SCORE_COLUMNS: tuple[tuple[str, Scoring | None], ...] = (
    ("TotalPercentage", "MP"), ("MeanPercentage", "MP"), ("Percentage", "MP"),
    ("TotalScoreVP", "VP"), ("TotalVP", "VP"), ("VP", "VP"), ("MeanVP", "VP"),
    ("TotalScoreBAM", "BAM"), ("TotalBAM", "BAM"), ("BAM", "BAM"),
    ("TotalScoreMP", "MP"), ("TotalMP", "MP"), ("MP", "MP"), ("MeanMP", "MP"),
    ("TotalScoreIMP", "IMP"), ("TotalIMP", "IMP"), ("IMP", "IMP"), ("MeanIMP", "IMP"),
    ("TotalScoreButler", "IMP"), ("Butler", "IMP"),
    ("TotalScore", None), ("MeanScore", None), ("Score", None), ("Total", None),
)
"""Score columns in order of preference; None: the scoring comes from the ``Scoring`` tag."""
_ID_COLUMNS: tuple[tuple[str, Kind | None], ...] = (
    ("PairId", "pairs"), ("TeamId", "teams"), ("PlayerId", "individual"),
    ("Pair", "pairs"), ("PairNo", "pairs"), ("PairNr", "pairs"), ("Team", "teams"),
    ("TeamNo", "teams"), ("TeamNr", "teams"), ("Id", None), ("No", None), ("Nr", None),
)
_RANK_COLUMNS = ("Rank", "Place", "Position", "Pos")
_RANK_FOLDED = frozenset(c.casefold() for c in _RANK_COLUMNS)
_NAME_COLUMNS = ("Names", "Name", "PairName", "PairNames", "Players", "PlayerNames",
                 "Members", "TeamMembers")
_TEAM_NAME_COLUMNS = ("TeamName", "Team_Name")
_ONE_NAME = re.compile(r"^(?:Names?|Player|PlayerName|Member|MemberName)_?(\d)$", re.IGNORECASE)
_FIRST_NAME = re.compile(r"^(?:First|Given|Fore)Name_?(\d)$", re.IGNORECASE)
_LAST_NAME = re.compile(r"^(?:Last|Sur|Family)Name_?(\d)$", re.IGNORECASE)
_ONE_ID = re.compile(
    r"^(?:MemberI[Dd]|MemberNo|MemberNr|FederationI[Dd]|Licen[cs]e|LicenseNo|PlayerI[Dd]|"
    r"I[Dd]|NBBNr|NBB|ACBL|EBU|ABF|WBFCode|PID)_?(\d)$", re.IGNORECASE)
_ALL_IDS = ("MemberIDs", "MemberID", "MemberIds", "MemberId", "FederationIds", "Licences",
            "Licenses")
_ONE_CLUB = re.compile(r"^Club_?(\d)$", re.IGNORECASE)
_UNIT_CLUB = ("Club", "ClubName", "Center", "Centre")
_COMPETITION: dict[str, Kind] = {
    "individuals": "individual", "individual": "individual", "pairs": "pairs", "pair": "pairs",
    "teams": "teams", "team": "teams",
}
_DIRECTIONS = {
    "ns": "NS", "n-s": "NS", "n/s": "NS", "n": "NS", "north-south": "NS", "northsouth": "NS",
    "ew": "EW", "e-w": "EW", "e/w": "EW", "e": "EW", "east-west": "EW", "eastwest": "EW",
    "w": "EW", "s": "NS", "nz": "NS", "ow": "EW", "wz": "EW",
}


def _column_name(part: str) -> str:
    """``+TotalScoreMP\\5R`` -> ``TotalScoreMP`` (the width and the sort mark dropped)."""
    return part.split("\\")[0].strip().lstrip("+-").strip()


def _columns(spec: str) -> list[str]:
    """``Rank\\2R;PairId\\2R;Names\\40L`` -> ``["Rank", "PairId", "Names"]``."""
    return [_column_name(part) for part in spec.split(";")]


def _descending(spec: str) -> set[str]:
    """The columns marked ``+`` (sorted highest first): the table is ranked by that column."""
    return {_column_name(p).casefold() for p in spec.split(";") if p.strip().startswith("+")}


def _widths(spec: str) -> list[int | None]:
    out: list[int | None] = []
    for part in spec.split(";"):
        match = re.search(r"\\(\d+)", part)
        out.append(int(match[1]) if match else None)
    return out


def _tokens(line: str) -> list[tuple[str, bool, str]]:
    """The elements of a table row: (value, quoted, as written); ``-`` (irrelevant) and ``?``
    (unknown) are empty values, an artificial score's ``^`` is dropped."""
    values = []
    for match in _TOKEN.finditer(line):
        quoted = match[1] is not None
        value = match[1].replace('\\"', '"') if quoted else match[2]
        raw = value
        if not quoted:
            if value in ("-", "?"):
                value = ""
            elif value.startswith("^"):
                value = value[1:]
        values.append((value, quoted, raw))
    return values


def _row_values(line: str, columns: list[str], widths: list[int | None],
                names_at: int | None) -> list[str] | None:
    """The row's values, one per column, or None if the row cannot be made to fit.

    Beyond the spec: a rank left blank instead of ``-`` on a fixed-width row is read as empty,
    and an unquoted names field written as several words is joined back when the names column
    is the only one that can take text.
    """
    tokens = _tokens(line)
    n = len(columns)
    if len(tokens) == n:
        return [v for v, _, _ in tokens]
    candidates = [tokens]
    if widths and widths[0] and columns[0].casefold() in _RANK_FOLDED \
            and line[:widths[0]].strip() == "" and line[widths[0]:widths[0] + 1] == " ":
        candidates.insert(0, [("", False, "")] + tokens)
    for values in candidates:
        if len(values) == n:
            return [v for v, _, _ in values]
        if len(values) > n and names_at is not None and not values[names_at][1]:
            extra = len(values) - n
            joined = " ".join(raw for _, _, raw in values[names_at:names_at + extra + 1])
            return ([v for v, _, _ in values[:names_at]] + [joined]
                    + [v for v, _, _ in values[names_at + extra + 1:]])
    return None


def _find(index: dict[str, int], names: Sequence[str]) -> str:
    """The first of ``names`` that is a column (case-insensitively), as the table spells it."""
    for name in names:
        if name.casefold() in index:
            return name
    return ""


def _numbered(columns: list[str], pattern: re.Pattern[str]) -> list[int]:
    """Positions of the columns matching ``pattern`` (``Name1``, ``Name2``, ...), by number."""
    found = [(int(m[1]), i) for i, c in enumerate(columns) if (m := pattern.match(c))]
    return [i for _, i in sorted(found)]


def _scoring_tag(text: str) -> Scoring | None:
    """The ``Scoring`` tag (``MP``, ``MatchPoints``, ``IMP;Butler``, ``Cross-IMPs``, ``BAM``,
    ``VP``) as a scoring, or None."""
    first = re.split(r"[;,\s]", text.strip(), maxsplit=1)[0].casefold()
    if first.startswith(("mp", "matchpoint", "match-point", "pct", "percent", "topscore")):
        return "MP"
    if "imp" in first or first.startswith(("butler", "cross")):
        return "IMP"
    if first.startswith(("bam", "board-a-match", "boardamatch", "patton")):
        return "BAM"
    if first.startswith("vp"):
        return "VP"
    return None


def _guess_kind(rows: list[_Row]) -> Kind:
    """Pairs, unless most units name three or more players (teams) or every unit one."""
    counts = [len(r.name_list) if r.name_list else len(split_names(r.names, "pairs"))
              for r in rows]
    counts = [c for c in counts if c]
    if counts and sum(c >= 3 for c in counts) * 2 > len(counts):
        return "teams"
    return "pairs"


def _field(tag: _Tag) -> frozenset[str]:
    """Who a TotalScoreTable ranks: its names fields (or name columns), folded; empty if the
    table has no names column."""
    columns = [c.casefold() for c in _columns(tag.value)]
    wanted = [i for i, c in enumerate(columns) if c in {n.casefold() for n in _NAME_COLUMNS}
              or _ONE_NAME.match(c) or _LAST_NAME.match(c)]
    if not wanted:
        return frozenset()
    out = set()
    for _, text in tag.rows:
        values = [v for v, _, _ in _tokens(text)]
        if len(values) == len(columns):
            out.add(" ; ".join(normalise_space(values[i]).casefold() for i in wanted))
    return frozenset(out)


def _total_score_tables(doc: _Document, log: IssueLog) -> list[_Tag]:
    """The TotalScoreTables, each once: some programs repeat the same table in every game, and
    some write the standing after each round; a table ranking exactly the same field as a later
    one is an earlier standing of that field, and only the last is read."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    tables: list[_Tag] = []
    for tag in doc.tags:
        if tag.name != "TotalScoreTable":
            continue
        key = (normalise_space(tag.value), tuple(normalise_space(t) for _, t in tag.rows))
        if key in seen:
            continue
        copied = next((t for t in tables if normalise_space(t.value) == key[0] and key[1]
                       and set(key[1]) <= {normalise_space(r) for _, r in t.rows}), None)
        if copied is not None:  # the top of a table above copied again (PBN's own example)
            log.report(MalformedFile(
                f"the table at line {tag.line} repeats rows of the table at line {copied.line}; "
                "read once", table=f"TotalScoreTable at line {tag.line}"), level="info")
            continue
        seen.add(key)
        field_ = _field(tag)
        earlier = [t for t in tables if len(field_) > 1 and _field(t) == field_]
        for old in earlier:
            log.report(MalformedFile(
                f"an earlier standing of the field ranked again at line {tag.line}; "
                "the last one is read", table=f"TotalScoreTable at line {old.line}"),
                level="info")
            tables.remove(old)
        tables.append(tag)
    return tables


def _total_score_rankings(doc: _Document, log: IssueLog) -> list[_Ranking]:
    tables = _total_score_tables(doc, log)
    rankings: list[_Ranking] = []
    for number, tag in enumerate(tables, start=1):
        table = f"TotalScoreTable at line {tag.line}"
        columns = _columns(tag.value)
        widths = _widths(tag.value)
        index: dict[str, int] = {}
        for i, name in enumerate(columns):
            index.setdefault(name.casefold(), i)
        competition = _COMPETITION.get(_tag_value(doc, "Competition", tag.game).casefold())
        rank_column = _find(index, _RANK_COLUMNS)
        marked = _descending(tag.value)
        candidates = [(c, s) for c, s in _SCORE_COLUMNS if c.casefold() in index]
        score_column, scoring = next(
            ((c, s) for c, s in candidates if c.casefold() in marked),
            candidates[0] if candidates else ("", "unknown"))
        if scoring is None:
            scoring = _scoring_tag(_tag_value(doc, "Scoring", tag.game)) or "unknown"
        if not score_column:
            log.report(UnsupportedVariant(
                "TotalScoreTable has no total score column; scoring unknown", table=table,
                value=tag.value,
            ), level="info")
        if not rank_column and not score_column:
            raise MalformedFile("TotalScoreTable has neither a Rank nor a score column: "
                                "its order would be only the order of the rows",
                                file=log.file, table=table, value=tag.value)
        id_column, kind = next(((c, k) for c, k in _ID_COLUMNS if c.casefold() in index),
                               ("", None))
        kind = kind or competition
        names_column = _find(index, _NAME_COLUMNS)
        team_column = _find(index, _TEAM_NAME_COLUMNS)
        if team_column and not kind:
            kind = "teams"
        one_names = _numbered(columns, _ONE_NAME)
        firsts, lasts = _numbered(columns, _FIRST_NAME), _numbered(columns, _LAST_NAME)
        one_ids = _numbered(columns, _ONE_ID)
        one_clubs = _numbered(columns, _ONE_CLUB)
        all_ids = _find(index, _ALL_IDS)
        unit_club = _find(index, _UNIT_CLUB)
        roster_details = _find(index, ("RosterDetails",))
        if not names_column and not one_names and not lasts and not roster_details:
            names_column = _find(index, ("Roster", "TeamRoster"))
        names_at = index[names_column.casefold()] if names_column else None
        if not (names_column or one_names or lasts or roster_details):
            if team_column:
                raise UnsupportedVariant(
                    "TotalScoreTable ranks teams by their names only, without the players",
                    file=log.file, table=table, value=tag.value)
            raise UnsupportedVariant(
                "TotalScoreTable has no names column: the ranking names no players",
                file=log.file, table=table, value=tag.value)
        grouped: dict[str, list[_Row]] = {}
        for line, text in tag.rows:
            values = _row_values(text, columns, widths, names_at)
            if values is None:
                log.report(MalformedFile(
                    f"row has {len(_tokens(text))} values for {len(columns)} columns; skipped",
                    table=table, row=f"line {line}", value=text.strip(),
                ))
                continue

            def get(column: str, values: list[str] = values) -> str:
                return normalise_space(values[index[column.casefold()]]) if column else ""

            score_text = get(score_column)
            try:
                score = parse_decimal(score_text)
            except ValueError:
                log.report(MalformedFile("invalid score; left empty", table=table,
                                         row=f"line {line}", column=score_column,
                                         value=score_text))
                score = None
            name_list: tuple[str, ...] = ()
            if one_names:
                name_list = tuple(n for n in (normalise_space(values[i]) for i in one_names) if n)
            elif lasts:
                given: list[int | None] = list(firsts) if len(firsts) == len(lasts) \
                    else [None] * len(lasts)
                name_list = tuple(
                    n for n in (normalise_space(
                        f"{values[f] if f is not None else ''} {values[last]}")
                        for f, last in zip(given, lasts)) if n)
            ids: tuple[str, ...] = ()
            if roster_details and not (names_column or one_names or lasts):
                name_list, ids = _roster_details(get(roster_details))
            if one_ids:
                ids = tuple(normalise_space(values[i]) for i in one_ids)
                ids = ids[:len(name_list)] if name_list else ids
            elif all_ids:
                ids = tuple(normalise_space(x) for x in re.split(r"[;,/&+]|\s-\s", get(all_ids)))
            clubs: tuple[str, ...] = ()
            if one_clubs:
                clubs = tuple(normalise_space(values[i]) for i in one_clubs)
            elif unit_club:
                clubs = (get(unit_club),)
            section = get(_find(index, ("Section",)))
            if not section:
                section = _tag_value(doc, "Section", tag.game) if _has_tag(doc, "Section") \
                    else (str(number) if len(tables) > 1 else "")
            direction = _DIRECTIONS.get(get(_find(index, ("Direction", "Dir", "Line")))
                                        .casefold().replace(" ", ""), "")
            label = get(team_column) if kind == "teams" and team_column else ""
            label = label or get(id_column) or get(_find(index, ("Table",)))
            grouped.setdefault(section, []).append(_Row(
                line, get(rank_column), label, direction, get(names_column), score,
                name_list=name_list, ids=ids, clubs=clubs,
            ))
        if len(tables) > 1 and len(grouped) == 1 and "" in grouped:
            grouped = {str(number): grouped[""]}
        if len(grouped) > 1 and rank_column and _ranks_across_sections(grouped):
            # one printed ranking of the whole field: the places run across the sections
            # (1-80 over sections M, N, O), so it is one event with its printed places; the
            # section stays in each unit's label, where pair numbers repeat across sections
            log.report(MalformedFile(
                f"the ranking runs across sections {', '.join(sorted(grouped))}: read as one "
                "event with its printed places", table=table, column="Section"), level="info")
            grouped = {"": [replace(r, label=f"{section} {r.label}".strip())
                            for section, rows in grouped.items() for r in rows]}
            grouped[""].sort(key=lambda r: r.line)
        for section, rows in grouped.items():
            event_kind = kind or _guess_kind(rows)
            # a Rank column left empty on every row ranks nothing: the scores do
            ranked = bool(rank_column) and any(r.rank_text for r in rows)
            if rank_column and not ranked and score_column:
                log.report(MalformedFile("the Rank column is empty on every row; ranked by "
                                         "the scores", table=table, column=rank_column),
                           level="info")
            for direction, part in _split_directions(rows, ranked=ranked or not score_column):
                name = f"{section} {direction}".strip()
                rankings.append(_Ranking(
                    name, f"{table}{' section ' + name if name else ''}", event_kind, scoring,
                    rank_column if ranked or not score_column else "", tuple(part),
                    game=tag.game,
                    names_column=names_column or "names"))
    return _distinct_sections(rankings, log)


def _roster_details(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Ruter's and Magic Contest's ``RosterDetails`` (``28336,Johnsen,Flemming|6494,...``): a
    team's players as ``Given Surname`` with their member numbers."""
    names: list[str] = []
    ids: list[str] = []
    for part in text.split("|"):
        fields = [normalise_space(f) for f in part.split(",")]
        if len(fields) < 3 or not (fields[1] or fields[2]):
            continue
        names.append(normalise_space(f"{','.join(fields[2:])} {fields[1]}"))
        ids.append(fields[0])
    return tuple(names), tuple(ids)


def _ranks_across_sections(grouped: dict[str, list[_Row]]) -> bool:
    """True when a table's Section column does not restart the places: some section has no
    first place of its own, or some place is beyond its section's size (``Rank 57`` in a
    section of 20 pairs), while the places over the whole table fit the whole field."""
    total = sum(len(rows) for rows in grouped.values())
    restart = True
    for rows in grouped.values():
        numbers = [rank_number(r.rank_text) for r in rows if rank_number(r.rank_text)]
        if not numbers:
            return False
        if min(numbers) != 1 or max(numbers) > len(rows):
            restart = False
        if max(numbers) > total:
            return False
    return not restart


def _has_tag(doc: _Document, name: str) -> bool:
    return any(t.name == name and _clean_value(t.value) not in ("", "#") for t in doc.tags)


def _distinct_sections(rankings: list[_Ranking], log: IssueLog) -> list[_Ranking]:
    """Two rankings with one section name (two tables both of section ``A``) are numbered."""
    seen: dict[str, int] = {}
    out = []
    for ranking in rankings:
        seen[ranking.section] = seen.get(ranking.section, 0) + 1
        if seen[ranking.section] > 1:
            log.report(MalformedFile("two rankings for one section; numbered",
                                     table=ranking.table, value=ranking.section))
            ranking = replace(ranking, section=f"{ranking.section} {seen[ranking.section]}"
                              .strip())
        out.append(ranking)
    return out


# --- the recap in a comment -----------------------------------------------------------------

_RECAP_HEADER = re.compile(r"^\s*Pair\s+Pct\s+Score\b")
_RECAP_SECTION = re.compile(r"\bSection\s+(\S+)")
_RECAP_DIRECTION = re.compile(r"\b(North[- ]South|East[- ]West)\b", re.IGNORECASE)
_RECAP_ROW = re.compile(r"^\s*(\S+)\s+(-?\d+(?:[.,]\d+)?)\s+(-?\d+(?:[.,]\d+)?)(?=\s|$)")
_RANKISH = re.compile(r"^(?:[A-Z]|\d+(?:\s*[/=-]\s*\d*)*|=\d+)$")
_MASTERPOINTS = re.compile(r"^\d+(?:\.\d+)?(?:\([A-Za-z]+\))?$")


def _recap_row(line_number: int, line: str, mps_at: int) -> _Row | None:
    """One recap line -> a row (see the module docstring); None if it is not a ranking line."""
    match = _RECAP_ROW.match(line)
    if match is None:
        return None
    label, pct = match[1], match[2]
    ranks: list[str] = []
    rest_at = match.end()
    for token in re.finditer(r"\S+", line[match.end():]):
        start = match.end() + token.start()
        if start >= mps_at - 2 or not _RANKISH.match(token[0]):
            rest_at = start
            break
        ranks.append(token[0])
        rest_at = match.end() + token.end()
    rest = line[rest_at:].strip()
    first, _, after = rest.partition(" ")
    if _MASTERPOINTS.match(first) and after.strip():
        rest = after.strip()
    numeric = [r for r in ranks if not re.fullmatch(r"[A-Z]", r)]
    rank_text = numeric[0] if numeric else ""
    return _Row(line_number, rank_text, label, "", rest, parse_decimal(pct),
                tuple(numeric[1:]))


def _recap_rankings(doc: _Document, log: IssueLog) -> list[_Ranking]:
    rankings: list[_Ranking] = []
    for start, comment in doc.comments:
        lines = comment.split("\n")
        for i, line in enumerate(lines):
            if not _RECAP_HEADER.match(line):
                continue
            above = [x for x in lines[max(0, i - 2):i] if x.strip()]
            heading = " ".join(above)
            section_match = _RECAP_SECTION.search(heading)
            direction_match = _RECAP_DIRECTION.search(heading)
            section = section_match[1] if section_match else ""
            if direction_match:
                section = f"{section} {'NS' if direction_match[1][0] in 'nN' else 'EW'}".strip()
            title_line = normalise_space(above[0]) if above else ""
            found = find_date(title_line)
            mps_at = line.find("MPs") if "MPs" in line else len(line) + 2
            rows: list[_Row] = []
            for j in range(i + 1, len(lines)):
                if not lines[j].strip():
                    break
                row = _recap_row(start + j, lines[j], mps_at)
                if row is None:
                    log.report(MalformedFile("recap line not understood; skipped",
                                             table=f"recap section {section}",
                                             row=f"line {start + j}",
                                             value=lines[j].strip()))
                    continue
                rows.append(row)
            if rows:
                rankings.append(_Ranking(
                    section, f"recap section {section}".strip(), "pairs", "MP", "Rank",
                    tuple(rows), strip_date(title_line, found) if found else title_line,
                    found.date if found else None,
                ))
    # A recap with one block per (section, direction) is already split; repeated
    # section names (two blocks both "A NS") would collide, so number them.
    seen: dict[str, int] = {}
    out = []
    for ranking in rankings:
        seen[ranking.section] = seen.get(ranking.section, 0) + 1
        if seen[ranking.section] > 1:
            log.report(MalformedFile("two recap blocks for one section; numbered",
                                     table=ranking.table, value=ranking.section))
            ranking = replace(ranking, section=f"{ranking.section} {seen[ranking.section]}")
        out.append(ranking)
    return out


# --- parse ----------------------------------------------------------------------------------


def _decode(data: bytes, log: IssueLog) -> str:
    match = _CHARSET.search(data[:4096])
    declared = match[1].decode("ascii") if match else None
    decoded = decode_bytes(data, declared)
    if decoded.note:
        log.report(MalformedFile(decoded.note), level="info")
    return decoded.text


def _no_ranking(doc: _Document, file: str) -> UnsupportedVariant:
    """Why a PBN without a ranking is refused, in one line: what the file holds instead."""
    boards = _boards(doc) or 0
    travellers = sum(1 for t in doc.tags if t.name == "ScoreTable" and t.rows)
    played = sum(1 for t in doc.tags if t.name == "Contract"
                 and _clean_value(t.value) not in ("", "#"))
    if travellers:
        what = (f"travellers only ({_count(travellers, 'ScoreTable')} of single boards, "
                "no ranking): board results are not a result list")
    elif played:
        what = (f"played deals only ({_count(played, 'contract')} with their results, "
                "no ranking): not a result list")
    else:
        what = f"hand records only ({_count(boards, 'deal')}, no scores): not a result"
    return NoResults(
        f"a PBN file of {what} (it has no TotalScoreTable and no standings recap)", file=file)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _date_of(doc: _Document, game: int | None, title: str,
             log: IssueLog) -> dt.date | None:
    """The event's date: the Date tag, else BridgeComposer's hand-record title date, else a
    date written in the title."""
    text = _tag_value(doc, "Date", game)
    date = _pbn_date(text) if text else None
    if text and date is None:
        log.report(MalformedFile("Date tag is not a full yyyy.mm.dd date", table="tags",
                                 column="Date", value=text), level="info")
    if date is None and doc.directives.get("HRTitleDate"):
        date = _pbn_date(doc.directives["HRTitleDate"])
    if date is None and title:
        found = find_date(title)
        date = found.date if found else None
    # PBN's EventDate is the first day of an event played over several days (a league's
    # season, a congress); Date is the day of the game that holds the table
    started = _pbn_date(_tag_value(doc, "EventDate", game))
    if date is not None and started is not None and started < date \
            and (date - started).days <= 366:
        log.report(MalformedFile(f"the event ran from {started.isoformat()} (EventDate) to "
                                 f"{date.isoformat()} (Date); dated by its first day",
                                 table="tags", column="EventDate"), level="info")
        date = started
    return date


_ONLINE = re.compile(rb"OKbridge|bridgebase\.com|\bBBO\b|Funbridge|\[Mode\s+\"(?:##)?(?:OKB|BBO)\b",
                     re.IGNORECASE)
"""Marks of a file played on an online platform, whose players are user names (``needa4th``)."""


def _as_handles(unit: Unit) -> Unit:
    return replace(unit, players=tuple(replace(p, handle=True) for p in unit.players))


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """The ranking(s) of a PBN file; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    doc = _read(_decode(data, log))
    if not doc.tags and not doc.comments:
        raise MalformedFile("no PBN tags in the file", file=log.file)
    rankings = _total_score_rankings(doc, log)
    if not rankings:
        rankings = _recap_rankings(doc, log)
    if not rankings:
        raise _no_ranking(doc, log.file)
    boards = _boards(doc)
    events = []
    for ranking in rankings:
        title = _tag_value(doc, "Event", ranking.game) or doc.directives.get(
            "HRTitleEvent", "") or ranking.fallback_title
        event_date = _date_of(doc, ranking.game, title, log) or ranking.fallback_date
        if event_date is None:
            raise MalformedFile("no event date (no Date tag, none in the titles or the recap "
                                "heading)", file=log.file, table="tags", column="Date")
        if not title:
            log.report(MalformedFile("no event title (no Event tag)", table="tags",
                                     column="Event", has_value=False))
        organiser = _tag_value(doc, "Site", ranking.game) or doc.directives.get(
            "HRTitleSite", "")
        events.append(Event(
            game="bridge", title=title, date=event_date, kind=ranking.kind,
            scoring=ranking.scoring, units=_units(ranking, log), boards=boards,
            section=ranking.section, organiser=organiser, format=NAME,
        ))
    if _ONLINE.search(data[:65536]):  # an online tournament: players are user names
        events = [replace(e, units=tuple(_as_handles(u) for u in e.units)) for e in events]
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="PBN 2.1: TotalScoreTable or BridgeComposer's standings recap in a comment",
    detect=detect,
    parse=parse,
)
