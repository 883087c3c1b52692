"""Magic Contest result pages: the HTML a club's scoring program publishes, its ranking as text.

Magic Contest (Tomas Brenning's club scoring program, used in Sweden, Italy, Romania and
elsewhere) writes a contest's results as one HTML page. Its head carries the program's marks::

    <META  name=Generator    content="Magic Contest">
    <META  name=Version      content="4.8">
    <META  name=Author       content="www.brenning.se">
    <META  name=Arranger     content="...">          (the organiser set in the program)
    <META  name=ContestDate  content="2014-07-28">   (the contest's date field)
    <META  name=ContestName  content="...">          (the name typed for the contest)
    <META  name=ScoringType  content="IMP;Butler-2;Mean">   (or IMP;Cross, MatchPoints;MP1)

and its body a heading (``<B>2014-07-28 &nbsp;name</B>``: the date and the name again) and one
``<PRE>`` block: a summary line, the ranking, then the score tables (travellers)::

    4 tables, 7 pairs, 1 phantom pair. Number of boards: 28. IMPs across the field.
    Bye (*) awards recorded average.

    Rank  Pair  Score    Name                                      M-ID

       1     8   68,8 *  Adrian Zavloschi - Andrei Piroi          +1  +4
             2   39,7 *  Titus Ceia - Razvan Eva                 +81 +76

    Board:  1 ...   Pair  Contr    Ld    Result     Score

Layouts read: the ranking header ``Rank  Pair|Player  Score  [%]  [Tie]  Name  [Count]  M-ID
[Club]`` in any column widths (the program sizes them to the longest entry), scores with a
decimal comma or point, marks after the score (``*`` a bye awarded, ``«`` a levelled total), a
``Count`` column (boards played), the ``Tie`` column (tie-break notes, not read), and one ranking
or several (one per direction or section: each is an event, its section the direction or section
line written above its header). Rows are cut by the header: the numbers left of ``Name`` are read
by the column whose right edge they end at (the program right-aligns them), the name runs from
``Name`` to the id columns, and must end before them.

- **Places.** ``Rank`` as written; a tie shows as the same rank repeated or as an empty rank under
  the first row of the tie (``_places.shared_places``).
- **Score.** The ``%`` column when the ranking has one (matchpoint pairs), else ``Score``
  (the matchpoint total, Butler or cross IMPs, VPs).
- **Players.** ``Name`` is a pair ``A - B`` (split by ``names.split_pair``) or, under ``Player``,
  one person. ``M-ID`` holds one number per player: a plain number is the member number of the
  federation's register the program reads, and is taken as the federation id; ``+12`` is the
  club's own local number of a player without one, and is not. ``Club`` (when present) is the
  club of each player (``Iasi - Bacau``; one club written once is both players').
- **Scoring.** From the summary line: ``Butler IMPs`` and ``IMPs across the field`` are IMP,
  ``Average:`` (a matchpoint top) or a ``%`` column MP, ``VP`` VP; else from ``ScoringType``.
  ``boards`` from ``Number of boards: N``, else the ``BoardCount`` mark.
- **Date.** The program's contest date (``ContestDate``, the first date of the heading). The name
  typed for the contest often holds a date as well, with typos (``2014-28-07``) or another day
  (``2016-04-10`` on a contest dated ``2016-04-11``); the date field is the program's and is taken,
  and an ``info`` issue names the other date. A page with no contest date takes the first date of
  its heading; with none, it is refused.
- **Characters.** The program declares no charset and writes the Windows code page of the
  scorer's computer: a declared charset or UTF-8 is honoured; otherwise windows-1252, or
  windows-1250 when the page holds more Romanian or Central European letters than Western ones.
- **Title** the contest name as written (``ContestName``, else the heading after the date);
  **organiser** the ``Arranger`` mark (else the ``Licencee``).

Refused, one line each: a page of the program with no ranking (travellers only, an index page),
a ranking cut short (fewer rows than the summary line's pairs, or a row running into the id
columns), a ranking before play (every score 0), and team rankings (``Rank  Team``: their rows
name teams, not players).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ._dates import find_date
from ._errors import MalformedFile, UnsupportedVariant
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Scoring
from ._places import WrittenPlace, parse_place, ranked_units
from ._registry import Format
from ._text import decode_bytes, html_declared_charset, normalise_space, parse_decimal
from .names import split_pair

__all__ = ["FORMAT", "detect", "parse"]

NAME = "magic_contest"

_GENERATOR = re.compile(
    rb"<meta\s+name\s*=\s*[\"']?generator[\"']?\s+content\s*=\s*[\"']?\s*Magic\s+Contest",
    re.IGNORECASE)
_AUTHOR = re.compile(rb"<meta\s+name\s*=\s*[\"']?author[\"']?\s+content\s*=\s*[\"']?\s*"
                     rb"(?:https?://)?www\.brenning\.se", re.IGNORECASE)
_CREDIT = re.compile(rb"Magic\s+Contest", re.IGNORECASE)
_HEADER = re.compile(r"^\s*Rank\s+(Pair|Player|Team)\s+Score\b.*\bName\b")
_HEADER_BYTES = re.compile(rb"^\s*Rank\s+(?:Pair|Player|Team)\s+Score\b.*\bName\b",
                           re.MULTILINE)


def detect(data: bytes, filename: str = "") -> bool:
    """A page of Magic Contest: its ``Generator`` (or ``Author`` www.brenning.se) mark; or an
    HTML page that credits Magic Contest and has the program's ranking header
    (``Rank  Pair  Score  Name``)."""
    head = data[:262144]
    if re.search(rb"<(?:html|head|body|pre)\b", head, re.IGNORECASE) is None:
        return False
    if _GENERATOR.search(head) or _AUTHOR.search(head):
        return True
    # (the program's name in the lowered bytes first: a page of many megabytes that never
    # names it is passed over four times sooner than by the expression alone)
    return b"magic" in data.lower() and bool(_CREDIT.search(data)) \
        and bool(_HEADER_BYTES.search(data))


# --- the page --------------------------------------------------------------------------------

_META = re.compile(r"<meta\s+name\s*=\s*[\"']?([\w-]+)[\"']?\s+content\s*=\s*\"([^\"]*)\"",
                   re.IGNORECASE)
_PRE = re.compile(r"<pre\b[^>]*>(.*?)(?:</pre>|\Z)", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_HEADING = re.compile(r"<b>(.*?)</b>", re.IGNORECASE | re.DOTALL)
_TITLE = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_SUMMARY_COUNT = re.compile(r"\b(\d+)\s+(pairs|players|teams)\b", re.IGNORECASE)
_BOARDS = re.compile(r"Number of boards:\s*(\d+)", re.IGNORECASE)
_END = re.compile(r"^\s*(?:<|-{5,}|={5,}|Board\s*:)", re.IGNORECASE)
_ID = re.compile(r"\+?\d+")
_SECTION = re.compile(
    r"^\s*(North[- /]?South|East[- /]?West|N-?S|E-?W|NS|EW|Nord[- /]?Sud|Est[- /]?Ovest|"
    r"(?:Section|Sezione|Group|Girone|Grupa|Sectiunea|Sec[tţ]iunea)\s+\S{1,12})\s*:?\s*$",
    re.IGNORECASE)


def _text(fragment: str) -> str:
    return normalise_space(html.unescape(_TAG.sub(" ", fragment)).replace("\xa0", " "))


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    place_text: str
    written: WrittenPlace | None
    score: float | None
    label: str
    players: tuple[PlayerAsWritten, ...]


@dataclass(frozen=True, slots=True)
class _Ranking:
    header_line: int
    unit: str
    section: str
    rows: tuple[_Row, ...]
    has_pct: bool
    score_column: str


def _columns(header: str) -> dict[str, tuple[int, int]]:
    """Header word -> (start, end) in the header line."""
    return {m[0]: (m.start(), m.end()) for m in re.finditer(r"\S+", header)}


def _players(name: str, ids: list[tuple[str, int]], clubs: str, kind: str, mid: int,
             ) -> tuple[PlayerAsWritten, ...]:
    names = [name] if kind == "individual" and name else split_pair(name, kind)
    if not names:
        return ()
    # one id per player, right-aligned in fields under M-ID: the first ends near the header's
    # start, the second about four columns later
    slots: list[str | None] = [None] * len(names)
    if len(ids) == len(names):
        slots = [text for text, _ in ids]
    elif len(ids) == 1 and len(names) == 2:
        text, end = ids[0]
        slots[0 if end <= mid + 3 else 1] = text
    club_parts = [c for c in (normalise_space(p) for p in re.split(r"\s-\s", clubs)) if c]
    if len(club_parts) == 1:
        club_parts = club_parts * len(names)
    players = []
    for index, person in enumerate(names):
        member = slots[index] if index < len(slots) else None
        fid = member if member and not member.startswith("+") else None
        club = club_parts[index] if len(club_parts) == len(names) else None
        players.append(PlayerAsWritten(name=person, federation_id=fid, club=club))
    return tuple(players)


def _ranking(lines: list[str], start: int, first_line: int, log: IssueLog,
             section: str) -> _Ranking:
    header = lines[start]
    match = _HEADER.match(header)
    assert match is not None
    unit = match[1]
    table = f"{unit.lower()} ranking" + (f" {section}" if section else "")
    if unit == "Team":
        raise UnsupportedVariant("a teams ranking (its rows name teams, not players); not read",
                                 file=log.file, table=table, row=first_line + start + 1,
                                 value=normalise_space(header))
    kind = "individual" if unit == "Player" else "pairs"
    cols = _columns(header)
    name_col = cols["Name"][0]
    tail = [cols[w][0] for w in ("Count", "M-ID", "Club") if w in cols and cols[w][0] > name_col]
    name_end = min(tail) if tail else None
    club_col = cols["Club"][0] if "Club" in cols and cols["Club"][0] > name_col else None
    mid_col = cols["M-ID"][0] if "M-ID" in cols else name_end or 10_000
    count_end = cols["Count"][1] if "Count" in cols else None
    numeric = [(w, e) for w, (s, e) in cols.items() if s < name_col]
    has_pct = "%" in cols and cols["%"][0] < name_col
    score_column = "%" if has_pct else "Score"
    # what follows the name: [boards played [a mark]] then the ids, and marks (*, «) anywhere
    tail_pattern = re.compile((r"(?:\s+\d+(?:\s+[^\s\d+])?)?" if count_end is not None else "")
                              + r"(?:\s+(?:[+-]?\d+(?:[.,]\d+)?|[^\w\s]))*\s*$")
    rows: list[_Row] = []
    for index in range(start + 1, len(lines)):
        line = lines[index]
        number = first_line + index + 1
        if not line.strip():
            continue
        if _END.match(line) or _HEADER.match(line) or _SECTION.match(line):
            break
        if not re.search(r"\d", line[:name_col]):
            break  # a note below the ranking: no rank, pair number or score
        values: dict[str, str] = {}
        for token in re.finditer(r"\S+", line[:name_col]):
            if not re.fullmatch(r"-?\d+(?:[.,]\d+)?", token[0]):
                continue  # a mark: * (bye awarded), « (levelled total)
            column = min(numeric, key=lambda we: abs(we[1] - token.end()))[0]
            if abs(dict(numeric)[column] - token.end()) > 2 or column in values:
                raise MalformedFile("a number in the ranking stands under no column",
                                    file=log.file, table=table, row=number,
                                    value=normalise_space(line))
            values[column] = token[0]
        rest = line[name_col:club_col] if club_col is not None else line[name_col:]
        clubs = line[club_col:] if club_col is not None else ""
        cut = tail_pattern.search(rest)
        assert cut is not None
        name = normalise_space(rest[:cut.start()])
        if name_end is not None and name and name_col + len(rest[:cut.start()].rstrip()) > name_end:
            raise MalformedFile(
                "a ranking row runs into the id columns (the ranking is cut short or garbled)",
                file=log.file, table=table, row=number, column="Name", value=name)
        if "Pair" not in values and "Player" not in values:
            raise MalformedFile("a ranking row has no pair number", file=log.file, table=table,
                                row=number, value=normalise_space(line))
        label = values.get(unit, "")
        place_text = values.get("Rank", "")
        try:
            written = parse_place(place_text)
            score = parse_decimal(values.get(score_column, ""))
        except ValueError as exc:
            raise MalformedFile(f"{unit.lower()} {label}: unreadable rank or score", file=log.file,
                                table=table, row=number, value=normalise_space(line)) from exc
        if score is None:
            raise MalformedFile(f"{unit.lower()} {label}: no {score_column}", file=log.file,
                                table=table, row=number, column=score_column, has_value=False)
        ids: list[tuple[str, int]] = []
        for token in re.finditer(r"\S+", rest[cut.start():]):
            end = name_col + cut.start() + token.end()
            # the ids are right-aligned under M-ID; other numbers (boards played) are not ids
            if _ID.fullmatch(token[0]) and mid_col - 3 <= end <= mid_col + 8:
                ids.append((token[0], end))
        players = _players(name, ids, clubs, kind, mid_col)
        if not players:
            log.report(MalformedFile(f"{unit.lower()} {label} has no name; kept without players",
                                     table=table, row=number, has_value=False))
        rows.append(_Row(number, place_text, written, score, label, players))
    return _Ranking(start, kind, section, tuple(rows), has_pct, score_column)


def _section_above(lines: list[str], start: int, stop: int) -> str:
    for index in range(start - 1, stop - 1, -1):
        text = lines[index].strip()
        if not text:
            continue
        match = _SECTION.match(text)
        return normalise_space(match[1]) if match else ""
    return ""


def _scoring(summary: str, meta: dict[str, str], has_pct: bool) -> Scoring:
    low = summary.casefold()
    if "imp" in low and ("butler" in low or "across the field" in low or "cross" in low):
        return "IMP"
    if re.search(r"\bvps?\b|victory points", low):
        return "VP"
    if has_pct or "average:" in low:
        return "MP"
    kind = meta.get("scoringtype", "").casefold()
    if kind.startswith("matchpoint") or kind.startswith("mp"):
        return "MP"
    if kind.startswith("imp"):
        return "IMP"
    if kind.startswith("vp"):
        return "VP"
    return "unknown"


_WESTERN = frozenset(b"\xe0\xe8\xec\xf2\xf9\xc0\xc8\xcc\xd2\xd9\xe5\xc5\xf1\xd1")
"""Letters of Italian, Swedish and Spanish names (à è ì ò ù å ñ) that windows-1250 reads as
other letters (ŕ č ě ň ů ĺ ń)."""
_CENTRAL = frozenset(b"\xba\xfe\xaa\xde\xe3\xc3\x9a\x9e\x8a\x8e\xb9\xa5\xbe\xbc")
"""Romanian and Central European letters (ş ţ ă š ž ą ľ) that windows-1252 reads as signs."""


def _decode(data: bytes, log: IssueLog) -> str:
    """The page as text. The program writes the Windows code page of the scorer's PC and
    declares none: a declared charset or UTF-8 wins (``decode_bytes``); otherwise windows-1252
    (Italy, Sweden) unless the bytes hold more Romanian or Central European letters than
    Western ones, then windows-1250."""
    declared = html_declared_charset(data)
    high = [b for b in data if b > 0x7F]
    if declared or not high:
        decoded = decode_bytes(data, declared)
        if decoded.note:
            log.report(MalformedFile(decoded.note), level="info")
        return decoded.text
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    central = sum(b in _CENTRAL for b in high)
    western = sum(b in _WESTERN for b in high)
    codec = "cp1250" if central > western else "cp1252"
    log.report(MalformedFile(f"no charset declared; read as {codec} (the program writes the "
                             "Windows code page)"), level="info")
    return data.decode(codec, errors="replace")


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per ranking of a Magic Contest page; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    page = _decode(data, log)
    meta = {m[1].casefold(): normalise_space(html.unescape(m[2])) for m in _META.finditer(page)}

    blocks = [m for m in _PRE.finditer(page)]
    found: list[tuple[list[str], int, int]] = []  # (lines, first line number, header index)
    for block in blocks:
        first_line = page.count("\n", 0, block.start(1))
        lines = html.unescape(_TAG.sub("", block[1])).replace("\r", "").split("\n")
        for index, line in enumerate(lines):
            if _HEADER.match(line):
                found.append((lines, first_line, index))
    if not found:
        raise MalformedFile("a Magic Contest page with no ranking (no 'Rank Pair Score Name' "
                            "header): score tables or an index only", file=log.file)

    # the date: the program's contest date, else the first date of the heading
    heading = next((_text(m[1]) for m in _HEADING.finditer(page) if _text(m[1])), "")
    title_text = _text(m[1]) if (m := _TITLE.search(page)) else ""
    contest_date = find_date(meta.get("contestdate", ""))
    head_date = find_date(heading) or find_date(title_text)
    if contest_date is None and head_date is None:
        raise MalformedFile("no contest date (no ContestDate mark and no date in the heading)",
                            file=log.file, table="page heading", value=heading or title_text)
    date = (contest_date or head_date).date  # type: ignore[union-attr]
    title = meta.get("contestname", "")
    if not title and "contestname" not in meta:
        text = heading or title_text
        used = head_date if head_date is not None and head_date.start == 0 else None
        title = normalise_space(text[used.end:]) if used is not None else text
    named = find_date(title)
    if named is not None and named.date != date:
        log.report(MalformedFile(
            f"the contest name holds the date {named.date.isoformat()}, the program's contest date "
            f"is {date.isoformat()}; the contest date is taken", table="page heading",
            value=title), level="info")
    organiser = meta.get("arranger", "") or meta.get("licencee", "")

    rankings: list[tuple[_Ranking, str]] = []
    for lines, first_line, index in found:
        previous = max((i for ls, _, i in found if ls is lines and i < index), default=-1)
        section = _section_above(lines, index, previous + 1)
        summary = " ".join(l for l in lines[previous + 1:index] if l.strip())
        rankings.append((_ranking(lines, index, first_line, log, section), summary))

    whole_summary = rankings[0][1]
    announced = _SUMMARY_COUNT.search(whole_summary)
    total_rows = sum(len(r.rows) for r, _ in rankings)
    if announced is not None and total_rows < int(announced[1]):
        raise MalformedFile(
            f"the ranking lists {total_rows} of the {announced[1]} {announced[2]} the page "
            "announces: it is cut short", file=log.file, table="ranking", value=announced[0])
    if len(rankings) > 1 and len({r.section for r, _ in rankings}) < len(rankings):
        raise UnsupportedVariant(
            "several rankings on one page without a direction or section line above each; "
            "which is which cannot be told", file=log.file, table="ranking",
            value=len(rankings))
    boards_match = _BOARDS.search(whole_summary)
    boards = int(boards_match[1]) if boards_match else None
    if boards is None and meta.get("boardcount", "").isdigit() and int(meta["boardcount"]) > 0:
        boards = int(meta["boardcount"])

    events: list[Event] = []
    for ranking, summary in rankings:
        table = ("player" if ranking.unit == "individual" else "pair") + " ranking" + (
            f" {ranking.section}" if ranking.section else "")
        if not ranking.rows:
            raise MalformedFile("a ranking header with no rows below it", file=log.file,
                                table=table, row=ranking.header_line + 1, has_value=False)
        if all(r.score == 0 for r in ranking.rows):
            raise MalformedFile("every score in the ranking is 0: no results were entered "
                                "(a ranking before play)", file=log.file, table=table,
                                has_value=False)
        units = ranked_units(ranking.rows, log, table=table, place_column="Rank",
                             score_column=ranking.score_column,
                             unit="player" if ranking.unit == "individual" else "pair")
        events.append(Event(
            game="bridge", title=title, date=date, kind=ranking.unit,  # type: ignore[arg-type]
            scoring=_scoring(summary or whole_summary, meta, ranking.has_pct), units=units,
            boards=boards, section=ranking.section, organiser=organiser, format=NAME,
        ))
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="Magic Contest result page (HTML with the ranking as <pre> text; pairs, "
                "individual; MP, Butler or cross IMPs)",
    detect=detect,
    parse=parse,
)
