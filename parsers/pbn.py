"""PBN (Portable Bridge Notation 2.1) files: the ranking they carry, not the deals.

A PBN file is a list of games (boards), each a block of tags ``[Name "value"]``; a tag whose
value is a column spec (``[TotalScoreTable "Rank\\2R;PairId\\2R;...;Names\\40L"]``) is a *table*
and its rows follow on the next lines. Comments are ``%`` lines and ``{ ... }`` blocks.
The ranking of the event comes from one of two places, in this order:

1. **TotalScoreTable** (PBN 2.1 §4): one row per unit. Columns read: ``Rank`` (the place),
   ``PairId`` / ``TeamId`` / ``PlayerId`` (the unit label, and the kind: pairs / teams /
   individual; else the ``Competition`` tag, else pairs), ``Section`` (one event per section),
   ``Direction`` (NS/EW: two rankings when both directions have a 1st place), ``Names`` /
   ``Name``, and the first score column present of ``TotalPercentage``, ``TotalScoreMP``,
   ``TotalMP`` (scoring MP), ``TotalScoreIMP``, ``TotalIMP`` (IMP), ``TotalScoreVP``,
   ``TotalVP`` (VP), ``TotalScoreBAM``, ``TotalBAM`` (BAM). Values are whitespace-separated,
   quoted when they contain spaces; ``-`` is an empty value. Several TotalScoreTables without
   a Section column are sections ``1``, ``2``, ... in file order.
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
two), ``5-6`` (a range), and ACBL's ``p/q``: a tie for p-q when exactly the q-p+1 consecutive
rows write the same ``p/q`` (``3/4`` on two rows), otherwise the ranks of one unit in strats
A/B (``2/1``: 2nd overall, 1st in strat B; place 2, the rest noted). See :func:`read_ranks`.

**Names** (:func:`split_names`, i.e. :func:`parsers.names.split_pair`): a pair's names field is
split at `` - ``, `` – ``, ``&``, ``/``, ``+`` or ``;`` (``Anna Nowak-Kowalska - Jan Kowal`` -> two
players, the hyphenated surname kept whole); a field that nothing else splits and whose one
unspaced hyphen has the same shape on both sides is two players joined (BridgeComposer's
``Alfa-Bravo`` -> ``Alfa``, ``Bravo``; ``Novák J.-Kováč P.``). A team's field is also split at
commas; a pair's only between complete names (``Smith, J`` is one name); an individual's is
never split. PHANTOM / ROBOT / BYE / SIT OUT are not players: a
ranked phantom unit keeps its place with no players, an unranked one is left out (info note).

Event fields: ``title`` from the ``Event`` tag (else the recap's first line without its date),
``date`` from ``Date`` (``2026.03.09``; ``??`` parts are unknown), else from the recap's first
line; no date is a :class:`MalformedFile`. ``organiser`` from ``Site``. ``#`` in a tag means
"as in the previous game". ``boards``: the number of distinct ``Board`` tags. Charset: the
``%Content-type: ...; charset=`` line is honoured when it decodes cleanly (``_text``).
A PBN with neither a TotalScoreTable nor a recap (hand records, travellers only) is an
:class:`UnsupportedVariant`: the file has no ranking to read.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ._dates import find_date, strip_date
from ._errors import InconsistentResult, MalformedFile, UnsupportedVariant
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


@dataclass(slots=True)
class _Tag:
    name: str
    value: str
    line: int
    rows: list[tuple[int, str]] = field(default_factory=list)


@dataclass(slots=True)
class _Document:
    tags: list[_Tag] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)


def _is_table(name: str) -> bool:
    """``ScoreTable``, ``TotalScoreTable``, ``OptimumResultTable``, ...: rows follow the tag."""
    return name.endswith("Table")


def _read(text: str) -> _Document:
    """Tags (with the rows of table tags) and brace comments, in file order."""
    doc = _Document()
    table: _Tag | None = None
    comment: list[str] | None = None
    comment_line = 0
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
        if stripped.startswith("%") or stripped.startswith(";"):
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
            tag = _Tag(match[1], match[2].replace('\\"', '"'), number)
            doc.tags.append(tag)
            table = tag if _is_table(tag.name) else None
            continue
        if not stripped:
            table = None
        elif table is not None:
            table.rows.append((number, line))
    return doc


def _tag_value(doc: _Document, name: str) -> str:
    """The first value of tag ``name`` that is not ``#`` ("as before") or empty."""
    for tag in doc.tags:
        if tag.name == name and tag.value.strip() not in ("", "#"):
            return normalise_space(tag.value)
    return ""


def _pbn_date(text: str) -> dt.date | None:
    """``2026.03.09`` -> a date; ``2026.??.??`` and junk -> None."""
    match = re.fullmatch(r"(\d{4})\.(\d{2})\.(\d{2})", text.strip())
    if not match:
        return None
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def _boards(doc: _Document) -> int | None:
    boards = {normalise_space(t.value) for t in doc.tags
              if t.name == "Board" and t.value.strip() not in ("", "#")}
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


@dataclass(frozen=True, slots=True)
class _Ranking:
    section: str
    table: str
    kind: Kind
    scoring: Scoring
    rank_column: str
    rows: tuple[_Row, ...]
    fallback_title: str = ""
    fallback_date: dt.date | None = None


def _players(row: _Row, kind: Kind) -> tuple[tuple[PlayerAsWritten, ...], bool]:
    """The row's players and whether it is a phantom (every name a phantom word)."""
    names = split_names(row.names, kind)
    players = tuple(PlayerAsWritten(name=n) for n in names if not NOT_PLAYERS.match(n))
    return players, bool(names) and not players


def _units(ranking: _Ranking, log: IssueLog) -> tuple[Unit, ...]:
    """Places (ties shared), players, and the checks of places against scores.

    Rows are put in rank order first (recaps list pairs by number) when every row has a rank;
    with blank ranks the file's order is kept, a blank meaning a tie with the row above.
    """
    rows = list(ranking.rows)
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
        if phantom:
            ranked = written is not None or bool(row.rank_text)
            log.report(MalformedFile(
                f"unit {row.label} is a phantom/sit-out, not players; "
                + ("kept with its place and no players" if ranked else "not ranked, left out"),
                column="Names", value=row.names, **where,
            ), level="info")
            if not ranked:
                continue
        elif not players:
            log.report(MalformedFile(f"unit {row.label} has no names", column="Names",
                                     value=row.names, **where))
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
        Unit(place=place, place_text=row.rank_text, label=row.label, score=row.score,
             players=players)
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


def _split_directions(rows: list[_Row]) -> list[tuple[str, list[_Row]]]:
    """("", rows), or ("NS", ...), ("EW", ...) when both directions have a 1st place."""
    firsts = {r.direction for r in rows if re.match(r"^=?1(?:\D|$)", r.rank_text)}
    if not {"NS", "EW"} <= firsts:
        return [("", rows)]
    return [(d, [r for r in rows if r.direction == d]) for d in ("NS", "EW")
            if any(r.direction == d for r in rows)]


# --- TotalScoreTable ------------------------------------------------------------------------

_SCORE_COLUMNS: tuple[tuple[str, Scoring], ...] = (
    ("TotalPercentage", "MP"), ("TotalScoreMP", "MP"), ("TotalMP", "MP"),
    ("TotalScoreIMP", "IMP"), ("TotalIMP", "IMP"),
    ("TotalScoreVP", "VP"), ("TotalVP", "VP"),
    ("TotalScoreBAM", "BAM"), ("TotalBAM", "BAM"),
)
_ID_COLUMNS: tuple[tuple[str, Kind], ...] = (
    ("PairId", "pairs"), ("TeamId", "teams"), ("PlayerId", "individual"),
)
_COMPETITION: dict[str, Kind] = {"individuals": "individual", "pairs": "pairs", "teams": "teams"}


def _columns(spec: str) -> list[str]:
    """``Rank\\2R;PairId\\2R;Names\\40L`` -> ``["Rank", "PairId", "Names"]``."""
    return [part.split("\\")[0].strip() for part in spec.split(";")]


def _tokens(line: str) -> list[str]:
    values = []
    for match in _TOKEN.finditer(line):
        value = match[1].replace('\\"', '"') if match[1] is not None else match[2]
        values.append("" if value == "-" else value)
    return values


def _total_score_rankings(doc: _Document, log: IssueLog) -> list[_Ranking]:
    tables = [t for t in doc.tags if t.name == "TotalScoreTable"]
    competition = _COMPETITION.get(_tag_value(doc, "Competition").lower())
    rankings: list[_Ranking] = []
    for number, tag in enumerate(tables, start=1):
        table = f"TotalScoreTable at line {tag.line}"
        columns = _columns(tag.value)
        index = {name: i for i, name in enumerate(columns)}
        if "Rank" not in index:
            raise MalformedFile("TotalScoreTable without a Rank column", file=log.file,
                                table=table, value=tag.value)
        no_id: tuple[str, Kind] = ("", competition or "pairs")
        no_score: tuple[str, Scoring] = ("", "unknown")
        id_column, kind = next(((c, k) for c, k in _ID_COLUMNS if c in index), no_id)
        score_column, scoring = next(((c, s) for c, s in _SCORE_COLUMNS if c in index),
                                     no_score)
        if not score_column:
            log.report(UnsupportedVariant(
                "TotalScoreTable has no total score column; scoring unknown", table=table,
                value=tag.value,
            ), level="info")
        names_column = "Names" if "Names" in index else "Name" if "Name" in index else ""
        grouped: dict[str, list[_Row]] = {}
        for line, text in tag.rows:
            values = _tokens(text)
            if len(values) != len(columns):
                log.report(MalformedFile(
                    f"row has {len(values)} values for {len(columns)} columns; skipped",
                    table=table, row=f"line {line}", value=text.strip(),
                ))
                continue

            def get(column: str) -> str:
                return normalise_space(values[index[column]]) if column in index else ""

            score_text = get(score_column)
            try:
                score = parse_decimal(score_text)
            except ValueError:
                log.report(MalformedFile("invalid score; left empty", table=table,
                                         row=f"line {line}", column=score_column,
                                         value=score_text))
                score = None
            section = get("Section") if "Section" in index else (
                str(number) if len(tables) > 1 else "")
            label = get(id_column) or get("Table")
            grouped.setdefault(section, []).append(_Row(
                line, get("Rank"), label, get("Direction").upper() if "Direction" in index
                else "", get(names_column), score,
            ))
        for section, rows in grouped.items():
            for direction, part in _split_directions(rows):
                name = f"{section} {direction}".strip()
                rankings.append(_Ranking(name, f"{table}{' section ' + name if name else ''}",
                                         kind, scoring, "Rank", tuple(part)))
    return rankings


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
        raise UnsupportedVariant(
            "no TotalScoreTable and no standings recap: the file has no ranking "
            "(hand records or travellers only)", file=log.file,
        )
    title = _tag_value(doc, "Event")
    date_text = _tag_value(doc, "Date")
    date = _pbn_date(date_text) if date_text else None
    if date_text and date is None:
        log.report(MalformedFile("Date tag is not a full yyyy.mm.dd date", table="tags",
                                 column="Date", value=date_text))
    organiser = _tag_value(doc, "Site")
    boards = _boards(doc)
    events = []
    for ranking in rankings:
        event_date = date or ranking.fallback_date
        if event_date is None:
            raise MalformedFile("no event date (no Date tag, none in the recap heading)",
                                file=log.file, table="tags", column="Date")
        event_title = title or ranking.fallback_title
        if not event_title:
            log.report(MalformedFile("no event title (no Event tag)", table="tags",
                                     column="Event", has_value=False))
        events.append(Event(
            game="bridge", title=event_title, date=event_date, kind=ranking.kind,
            scoring=ranking.scoring, units=_units(ranking, log), boards=boards,
            section=ranking.section, organiser=organiser, format=NAME,
        ))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="PBN 2.1: TotalScoreTable or BridgeComposer's standings recap in a comment",
    detect=detect,
    parse=parse,
)
