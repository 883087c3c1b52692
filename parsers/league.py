"""The documented league file (docs/league-template.md): match tables of a league season.

docs/rules/bridge-belo.md §7: a league or long group competition is not one event. Every **match** is a
two-unit event (winner place 1, loser place 2, a draw 1.5 each) and the final standings are one
more event; the rating engine weighs them later. docs/rules/inputs.md: "long competitions (league, group
competitions) come as match tables", teams of four to eight players.

Two containers with the same content:

- **CSV** (UTF-8 with or without BOM, else detected windows-1250 / ISO-8859-2; comma or
  semicolon, whichever the ``#MATCHES`` column header uses more of) holding three blocks, each
  introduced by a marker line: ``#LEAGUE`` (``key,value`` lines), ``#TEAMS`` and ``#MATCHES``
  (a column header line, then one row per player / per match). The first non-blank line must be
  a marker; that is what :func:`detect` looks for.
- **xlsx** with the sheets ``league`` (key in column A, value in B), ``teams`` and ``matches``
  (header in the first non-empty row). Sheet names are matched without regard to case.

League keys: ``league`` (required), ``organiser``, ``season``, ``section`` (alias ``group``),
``date`` (the league date, used by matches without one), ``vp_scale``, ``boards``.
Teams columns: ``team, player`` (required), ``federation_id, club``; an empty ``team`` cell
continues the team above. Matches columns: ``round, home, away`` (required), ``date``,
``imp_home, imp_away``, ``vp_home, vp_away`` (at least one of the two pairs), ``boards``,
``lineup_home, lineup_away`` (names separated by ``;``; used instead of the full roster).

Output: one ``teams`` event per match (``scoring`` VP when the match has VPs, else IMP; ``parent``
the league; ``round``; title ``<league> round <r>: <home> – <away>``; units in ranking order,
winner first), then one standings event ``<league> final standings`` dated on the last match:
teams ranked by total VPs, equal totals sharing the mean of their places. A league without any
VPs is ranked by match points (win 2, draw 1, loss 0; scoring ``unknown``, with an info note).
When ``season`` is given and the league name does not already contain it, the name used for
titles and ``parent`` is ``<league> <season>``, so two seasons of one league stay apart.

Hard errors (``MalformedFile`` / ``InconsistentResult`` naming table, row, column and value):
a missing block or column, a match naming a team without a roster, a team meeting itself, the
same two teams twice in one round, a bad round/date/number, a match without a result, VPs on
some matches but not others, VPs that do not add up to a declared ``vp_scale`` (within 0.01).
Warnings (raised in strict mode): unknown keys or columns, rosters outside 4-8 players, lineup
names not on the roster, IMPs and VPs naming opposite winners, teams that never play.
Rows named ``Bye`` / ``voľno`` / ``volno`` / ``pauza`` / ``wolne`` as a team are byes: skipped
with an info note. Rows in messages are file lines (CSV) or sheet rows (xlsx), counted from 1.

HTML league tables (JFR Teamy, federation pages) are not supported yet.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
import warnings
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ._dates import parse_date
from ._errors import InconsistentResult, MalformedFile, ParseError
from ._grid import column_letter
from ._issues import IssueLog, source_name
from ._model import Event, ParseResult, PlayerAsWritten, Scoring, Unit
from ._places import WrittenPlace, shared_places
from ._registry import Format
from ._text import decode_bytes, normalise_space, parse_decimal

__all__ = [
    "FORMAT",
    "LEAGUE_KEYS",
    "MATCH_COLUMNS",
    "TEAM_COLUMNS",
    "detect",
    "parse",
]

NAME = "league"
BLOCKS = ("league", "teams", "matches")
LEAGUE_KEYS = ("league", "organiser", "season", "section", "date", "vp_scale", "boards")
TEAM_COLUMNS = ("team", "player", "federation_id", "club")
MATCH_COLUMNS = (
    "round", "date", "home", "away", "imp_home", "imp_away", "vp_home", "vp_away", "boards",
    "lineup_home", "lineup_away",
)
_KEY_ALIASES = {"group": "section", "name": "league", "title": "league", "organizer": "organiser"}
_BYES = frozenset({"bye", "voľno", "volno", "pauza", "wolne"})
_TEAM_SIZE = (4, 8)
"""docs/rules/inputs.md: teams have four to eight players."""
_VP_TOLERANCE = 0.01
_DASH = "\u2013"


# --- detection ------------------------------------------------------------------------------

_MARKERS = frozenset(f"#{block}" for block in BLOCKS)
_SHEET_NAME = re.compile(rb"<(?:\w+:)?sheet\b[^>]*?\bname=\"([^\"]*)\"")


def _marker(first_cell: str) -> str | None:
    """``#TEAMS`` -> ``teams``; any other ``#word`` -> that word; not a marker -> None."""
    cell = normalise_space(first_cell)
    return cell[1:].strip().lower() if cell.startswith("#") else None


def _detect_csv(data: bytes) -> bool:
    head = data[:8192]
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = head.decode("latin-1")  # the markers are ASCII
    line = next((line for line in text.splitlines() if line.strip()), "")
    first_cell = re.split(r"[,;]", line, maxsplit=1)[0]
    return normalise_space(first_cell).lower() in _MARKERS


def _detect_xlsx(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            workbook = archive.read("xl/workbook.xml")
    except Exception:  # detect() never raises: anything unreadable is simply not ours
        return False
    names = {m.decode("utf-8", "replace").strip().lower() for m in _SHEET_NAME.findall(workbook)}
    return {"teams", "matches"} <= names


def detect(data: bytes, filename: str = "") -> bool:
    """A CSV whose first line is ``#LEAGUE``/``#TEAMS``/``#MATCHES``, or an xlsx with the sheets
    ``teams`` and ``matches``."""
    if data.startswith(b"PK\x03\x04"):
        return _detect_xlsx(data)
    return _detect_csv(data)


# --- reading the container into blocks of text records --------------------------------------


@dataclass(frozen=True, slots=True)
class _Record:
    """One non-blank row of a block: where it is (file line or sheet row) and its cells."""

    row: int
    cells: tuple[str, ...]


_Blocks = dict[str, list[_Record]]


def _csv_delimiter(text: str) -> str:
    """The delimiter the ``#MATCHES`` column header uses more of (``;`` or ``,``)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if _marker(re.split(r"[,;]", line, maxsplit=1)[0]) == "matches":
            header = next((ln for ln in lines[index + 1:] if ln.strip()), line)
            return ";" if header.count(";") > header.count(",") else ","
    first = next((line for line in lines if line.strip()), "")
    return ";" if first.count(";") > first.count(",") else ","


def _csv_records(text: str, file: str) -> Iterator[_Record]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_csv_delimiter(text))
    line = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                yield _Record(line, tuple(normalise_space(c) for c in cells))
            line = reader.line_num + 1
    except csv.Error as exc:  # e.g. an unclosed quote swallowing the rest of the file
        raise MalformedFile(f"not readable as CSV ({exc})", file=file, row=line) from exc


def _csv_blocks(data: bytes, log: IssueLog) -> _Blocks:
    decoded = decode_bytes(data)
    if decoded.method == "detected":
        log.report(MalformedFile(f"file is not UTF-8; read as {decoded.encoding}"), level="info")
    blocks: _Blocks = {}
    current: str | None = None
    for record in _csv_records(decoded.text, log.file):
        name = _marker(record.cells[0])
        if name is not None:
            if name not in BLOCKS:
                raise MalformedFile(
                    "unknown block marker (expected #LEAGUE, #TEAMS or #MATCHES)",
                    file=log.file, row=record.row, value=record.cells[0],
                )
            if name in blocks:
                raise MalformedFile(
                    "block appears twice", file=log.file, table=name, row=record.row,
                    value=record.cells[0],
                )
            blocks[name] = []
            current = name
        elif current is None:
            raise MalformedFile(
                "line before the first block marker (#LEAGUE, #TEAMS, #MATCHES)",
                file=log.file, row=record.row, value=record.cells[0],
            )
        else:
            blocks[current].append(record)
    return blocks


def _cell_text(value: object) -> str:
    """A spreadsheet cell as the text a CSV would hold (dates ISO, whole floats without .0)."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return str(int(value)) if value.is_integer() else repr(value)
    return normalise_space(str(value))


def _open_workbook(data: bytes, *, data_only: bool, file: str) -> Any:
    import openpyxl  # only xlsx files need it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about styles and extensions
            return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=data_only)
    except Exception as exc:  # a damaged zip or XML can fail in many ways inside openpyxl
        raise MalformedFile(f"not a readable .xlsx workbook ({exc})", file=file) from exc


def _sheet_records(values: Any, formulas: Any, sheet: str, file: str) -> list[_Record]:
    records: list[_Record] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = zip(values.iter_rows(values_only=True), formulas.iter_rows(values_only=True))
            for number, (row, formula_row) in enumerate(rows, start=1):
                cells: list[str] = []
                for index, value in enumerate(row):
                    formula = formula_row[index] if index < len(formula_row) else None
                    if value is None and isinstance(formula, str) and formula.startswith("="):
                        raise MalformedFile(
                            "formula without a saved value (open the file in a spreadsheet "
                            "program and save it again)", file=file, table=sheet, row=number,
                            column=column_letter(index), value=formula,
                        )
                    cells.append(_cell_text(value))
                if any(cells):
                    records.append(_Record(number, tuple(cells)))
    except MalformedFile:
        raise
    except Exception as exc:
        raise MalformedFile(f"sheet not readable ({exc})", file=file, table=sheet) from exc
    return records


def _xlsx_blocks(data: bytes, log: IssueLog) -> _Blocks:
    values = _open_workbook(data, data_only=True, file=log.file)
    try:
        formulas = _open_workbook(data, data_only=False, file=log.file)
    except MalformedFile:
        values.close()
        raise
    try:
        blocks: _Blocks = {}
        for sheet_name in values.sheetnames:
            name = sheet_name.strip().lower()
            if name not in BLOCKS:
                log.report(MalformedFile("unknown sheet ignored", table=sheet_name,
                                         value=sheet_name), level="info")
                continue
            if name in blocks:
                raise MalformedFile("sheet appears twice", file=log.file, table=sheet_name,
                                    value=sheet_name)
            blocks[name] = _sheet_records(
                values[sheet_name], formulas[sheet_name], name, log.file,
            )
        return blocks
    finally:
        values.close()
        formulas.close()


# --- tables with a column header ------------------------------------------------------------


class _Table:
    """A block whose first record is a column header: cells by name, errors that say where."""

    def __init__(self, name: str, records: list[_Record], known: Sequence[str],
                 required: Sequence[str], log: IssueLog) -> None:
        if not records:
            raise MalformedFile(f"the {name} table is empty", file=log.file, table=name)
        self.name = name
        self.file = log.file
        self.header = records[0]
        self.rows = records[1:]
        self.columns: dict[str, int] = {}
        for index, raw in enumerate(self.header.cells):
            column = raw.lower()
            if not column:
                continue
            if column in self.columns:
                raise self.error("column appears twice", self.header, column, raw)
            if column not in known:
                log.report(MalformedFile("unknown column ignored", table=name,
                                         row=self.header.row, column=column, value=raw))
            self.columns[column] = index
        missing = [c for c in required if c not in self.columns]
        if missing:
            raise MalformedFile(
                f"missing required column(s); the {name} header needs " + ", ".join(required),
                file=log.file, table=name, row=self.header.row, value=", ".join(missing),
            )
        for record in self.rows:
            extra = [c for c in record.cells[len(self.header.cells):] if c]
            if extra:
                log.report(MalformedFile("cells beyond the last named column ignored",
                                         table=name, row=record.row, value=extra[0]))

    def get(self, record: _Record, column: str) -> str:
        index = self.columns.get(column)
        if index is None or index >= len(record.cells):
            return ""
        return record.cells[index]

    def error(self, problem: str, record: _Record, column: str | None, value: object = None,
              cls: type[ParseError] = MalformedFile) -> ParseError:
        return cls(problem, file=self.file, table=self.name, row=record.row, column=column,
                   value=value, has_value=True)

    def required(self, record: _Record, column: str) -> str:
        value = self.get(record, column)
        if not value:
            raise self.error(f"empty {column.replace('_', ' ')}", record, column, value)
        return value

    def number(self, record: _Record, column: str) -> float | None:
        text = self.get(record, column)
        try:
            return parse_decimal(text)
        except ValueError:
            raise self.error(f"invalid {column.replace('_', ' ')} (expected a number)",
                             record, column, text) from None


# --- the league header ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Header:
    league: str
    organiser: str = ""
    season: str = ""
    section: str = ""
    date: dt.date | None = None
    vp_scale: float | None = None
    boards: int | None = None

    @property
    def name(self) -> str:
        """The league as titles and ``parent`` name it: the season appended unless already in."""
        if self.season and self.season.lower() not in self.league.lower():
            return f"{self.league} {self.season}"
        return self.league


def _boards(text: str, make_error: Callable[[str], ParseError]) -> int | None:
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise make_error("invalid boards (expected a whole number of boards)")
    return int(text)


def _read_header(records: list[_Record], log: IssueLog) -> _Header:
    values: dict[str, tuple[str, _Record]] = {}
    for record in records:
        raw_key = record.cells[0]
        key = raw_key.lower().rstrip(":").strip()
        key = _KEY_ALIASES.get(key, key)
        value = record.cells[1] if len(record.cells) > 1 else ""
        if key not in LEAGUE_KEYS:
            log.report(MalformedFile("unknown league key ignored", table="league",
                                     row=record.row, column=raw_key, value=value))
            continue
        if key in values:
            raise MalformedFile("league key appears twice", file=log.file, table="league",
                                row=record.row, column=key, value=value)
        values[key] = (value, record)

    def text(key: str) -> str:
        return values[key][0] if key in values else ""

    def error(key: str, problem: str) -> MalformedFile:
        value, record = values[key]
        return MalformedFile(problem, file=log.file, table="league", row=record.row,
                             column=key, value=value)

    league = text("league")
    if not league:
        raise MalformedFile("no league name: the league block needs a 'league' line",
                            file=log.file, table="league",
                            row=values["league"][1].row if "league" in values else None)
    date: dt.date | None = None
    if text("date"):
        try:
            date = parse_date(text("date"))
        except ValueError:
            raise error("date", "invalid date") from None
    vp_scale: float | None = None
    if text("vp_scale"):
        try:
            vp_scale = parse_decimal(text("vp_scale"))
        except ValueError:
            vp_scale = None
        if vp_scale is None or vp_scale <= 0:
            raise error("vp_scale", "invalid vp_scale (expected a positive number)")
    boards = _boards(text("boards"), lambda p: error("boards", p))
    return _Header(
        league=league,
        organiser=text("organiser"), season=text("season"), section=text("section"),
        date=date, vp_scale=vp_scale, boards=boards,
    )


# --- rosters --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Team:
    name: str
    row: int
    players: tuple[PlayerAsWritten, ...]


def _key(name: str) -> str:
    return normalise_space(name).casefold()


def _read_teams(records: list[_Record], log: IssueLog) -> dict[str, _Team]:
    """Team key -> roster, in file order. An empty ``team`` cell continues the team above."""
    table = _Table("teams", records, TEAM_COLUMNS, ("team", "player"), log)
    names: dict[str, tuple[str, int]] = {}
    players: dict[str, list[PlayerAsWritten]] = {}
    current: str | None = None
    for record in table.rows:
        team = table.get(record, "team")
        if team:
            current = _key(team)
            if current not in names:
                names[current] = (team, record.row)
                players[current] = []
        elif current is None:
            raise table.error("empty team (the first roster row must name its team)",
                              record, "team", team)
        player = PlayerAsWritten(
            name=table.required(record, "player"),
            federation_id=table.get(record, "federation_id") or None,
            club=table.get(record, "club") or None,
        )
        if any(_key(p.name) == _key(player.name) for p in players[current]):
            log.report(MalformedFile(f"player listed twice for team {names[current][0]!r}; "
                                     "kept once", table="teams", row=record.row,
                                     column="player", value=player.name))
            continue
        players[current].append(player)
    if not names:
        raise MalformedFile("the teams table has no rows", file=log.file, table="teams")
    teams = {k: _Team(name, row, tuple(players[k])) for k, (name, row) in names.items()}
    _check_rosters(teams, log)
    return teams


def _check_rosters(teams: dict[str, _Team], log: IssueLog) -> None:
    low, high = _TEAM_SIZE
    seen: dict[str, str] = {}
    for team in teams.values():
        if not low <= len(team.players) <= high:
            log.report(MalformedFile(
                f"team {team.name!r} has {len(team.players)} player(s), expected {low}-{high}",
                table="teams", row=team.row, column="player", has_value=False,
            ))
        for player in team.players:
            other = seen.setdefault(_key(player.name), team.name)
            if other != team.name:
                log.report(MalformedFile(
                    f"player on the rosters of {other!r} and {team.name!r}",
                    table="teams", row=team.row, column="player", value=player.name,
                ))


# --- matches --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Side:
    team: _Team
    imp: float | None
    vp: float | None
    players: tuple[PlayerAsWritten, ...]


@dataclass(frozen=True, slots=True)
class _Match:
    row: int
    round: int
    date: dt.date
    boards: int | None
    home: _Side
    away: _Side

    @property
    def has_vp(self) -> bool:
        return self.home.vp is not None

    def scores(self) -> tuple[float, float]:
        """The deciding scores (VPs if given, else IMPs) of home and away."""
        home = self.home.vp if self.has_vp else self.home.imp
        away = self.away.vp if self.has_vp else self.away.imp
        assert home is not None and away is not None  # _pair() checked it
        return home, away


def _round(table: _Table, record: _Record) -> int:
    text = table.required(record, "round")
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise table.error("invalid round (expected a whole number from 1)", record, "round", text)
    return int(text)


def _match_date(table: _Table, record: _Record, header: _Header) -> dt.date:
    text = table.get(record, "date")
    if not text:
        if header.date is None:
            raise table.error("match without a date (no date column value and no league date)",
                              record, "date", text)
        return header.date
    try:
        return parse_date(text)
    except ValueError:
        raise table.error("invalid date", record, "date", text) from None


def _team(table: _Table, record: _Record, column: str, teams: dict[str, _Team]) -> _Team:
    name = table.required(record, column)
    team = teams.get(_key(name))
    if team is None:
        raise table.error("team without a roster in the teams table", record, column, name)
    return team


def _pair(table: _Table, record: _Record, what: str) -> tuple[float | None, float | None]:
    home, away = table.number(record, f"{what}_home"), table.number(record, f"{what}_away")
    if (home is None) != (away is None):
        column = f"{what}_home" if home is None else f"{what}_away"
        raise table.error(f"{what.upper()}s given for one team only", record, column, "")
    return home, away


def _lineup(table: _Table, record: _Record, column: str, team: _Team,
            log: IssueLog) -> tuple[PlayerAsWritten, ...]:
    """The players named in ``lineup_<side>`` (roster entries where they match), else the roster."""
    text = table.get(record, column)
    if not text:
        return team.players
    roster = {_key(p.name): p for p in team.players}
    players: list[PlayerAsWritten] = []
    for name in (normalise_space(n) for n in text.split(";")):
        if not name:
            continue
        player = roster.get(_key(name))
        if player is None:
            log.report(MalformedFile(f"lineup name not on the roster of {team.name!r}; kept "
                                     "as written", table=table.name, row=record.row,
                                     column=column, value=name))
            player = PlayerAsWritten(name=name)
        if player in players:
            log.report(MalformedFile("player named twice in a lineup; kept once",
                                     table=table.name, row=record.row, column=column,
                                     value=name))
            continue
        players.append(player)
    if len(players) < _TEAM_SIZE[0]:
        log.report(MalformedFile(f"lineup of {team.name!r} has {len(players)} player(s), "
                                 f"expected at least {_TEAM_SIZE[0]}", table=table.name,
                                 row=record.row, column=column, value=text))
    return tuple(players)


def _read_match(table: _Table, record: _Record, header: _Header, teams: dict[str, _Team],
                log: IssueLog) -> _Match:
    number = _round(table, record)
    date = _match_date(table, record, header)
    home, away = _team(table, record, "home", teams), _team(table, record, "away", teams)
    if home is away:
        raise table.error("a team meets itself", record, "away", table.get(record, "away"),
                          InconsistentResult)
    imp_home, imp_away = _pair(table, record, "imp")
    vp_home, vp_away = _pair(table, record, "vp")
    if imp_home is None and vp_home is None:
        column = "vp_home" if "vp_home" in table.columns else "imp_home"
        raise table.error("match without a result (no IMPs and no VPs)", record, column, "")
    if vp_home is not None and vp_away is not None:
        _check_vp_scale(table, record, header, vp_home + vp_away)
    if None not in (imp_home, imp_away, vp_home, vp_away):
        _check_winner(table, record, (imp_home, imp_away), (vp_home, vp_away), log)
    boards = _boards(table.get(record, "boards"),
                     lambda p: table.error(p, record, "boards", table.get(record, "boards")))
    return _Match(
        row=record.row, round=number, date=date,
        boards=boards if boards is not None else header.boards,
        home=_Side(home, imp_home, vp_home, _lineup(table, record, "lineup_home", home, log)),
        away=_Side(away, imp_away, vp_away, _lineup(table, record, "lineup_away", away, log)),
    )


def _check_vp_scale(table: _Table, record: _Record, header: _Header, total: float) -> None:
    if header.vp_scale is not None and abs(total - header.vp_scale) > _VP_TOLERANCE:
        raise table.error(
            f"VPs add up to {total:g}, not to the league's vp_scale {header.vp_scale:g}",
            record, "vp_away", table.get(record, "vp_away"), InconsistentResult,
        )


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _check_winner(table: _Table, record: _Record, imps: tuple[Any, Any], vps: tuple[Any, Any],
                  log: IssueLog) -> None:
    # Opposite winners only: a small IMP win is a 10:10 draw on the discrete 20-VP scale.
    if _sign(imps[0] - imps[1]) * _sign(vps[0] - vps[1]) < 0:
        log.report(InconsistentResult(
            f"IMPs {imps[0]:g}:{imps[1]:g} and VPs {vps[0]:g}:{vps[1]:g} name different "
            "winners", table=table.name, row=record.row, column="vp_home", value=vps[0],
        ))


def _is_bye(table: _Table, record: _Record) -> bool:
    return bool({_key(table.get(record, "home")), _key(table.get(record, "away"))} & _BYES)


def _read_matches(records: list[_Record], header: _Header, teams: dict[str, _Team],
                  log: IssueLog) -> list[_Match]:
    table = _Table("matches", records, MATCH_COLUMNS, ("round", "home", "away"), log)
    for what in ("imp", "vp"):
        present = [c for c in (f"{what}_home", f"{what}_away") if c in table.columns]
        if len(present) == 1:
            raise MalformedFile(f"column {present[0]} without its partner", file=log.file,
                                table="matches", row=table.header.row, column=present[0],
                                value=present[0])
    if "vp_home" not in table.columns and "imp_home" not in table.columns:
        raise MalformedFile("the matches header needs imp_home, imp_away or vp_home, vp_away",
                            file=log.file, table="matches", row=table.header.row,
                            has_value=False)
    matches: list[_Match] = []
    seen: dict[tuple[int, frozenset[str]], int] = {}
    for record in table.rows:
        if _is_bye(table, record):
            log.report(MalformedFile("bye skipped", table="matches", row=record.row,
                                     value=f"{table.get(record, 'home')} – "
                                           f"{table.get(record, 'away')}"), level="info")
            continue
        match = _read_match(table, record, header, teams, log)
        pairing = (match.round, frozenset({_key(match.home.team.name),
                                           _key(match.away.team.name)}))
        if pairing in seen:
            raise table.error(f"the same match twice in round {match.round} (first in row "
                              f"{seen[pairing]})", record, "away", table.get(record, "away"),
                              InconsistentResult)
        seen[pairing] = record.row
        matches.append(match)
    if not matches:
        raise MalformedFile("the matches table has no matches", file=log.file, table="matches")
    with_vp = [m for m in matches if m.has_vp]
    if with_vp and len(with_vp) != len(matches):
        first = next(m for m in matches if not m.has_vp)
        raise MalformedFile("match without VPs while other matches have them", file=log.file,
                            table="matches", row=first.row, column="vp_home", value="")
    return matches


# --- events ---------------------------------------------------------------------------------


def _match_event(match: _Match, header: _Header) -> Event:
    """docs/rules/bridge-belo.md §7: winner place 1, loser place 2, a draw 1.5 each; winner first."""
    home_score, away_score = match.scores()
    sides = [(match.home, home_score), (match.away, away_score)]
    if home_score == away_score:
        places, texts = (1.5, 1.5), ("1-2", "1-2")
    else:
        sides.sort(key=lambda side: -side[1])
        places, texts = (1.0, 2.0), ("1", "2")
    units = tuple(
        Unit(place=place, place_text=text, label=side.team.name, score=score,
             players=side.players)
        for (side, score), place, text in zip(sides, places, texts)
    )
    return Event(
        game="bridge",
        title=f"{header.name} round {match.round}: {match.home.team.name} {_DASH} "
              f"{match.away.team.name}",
        date=match.date, kind="teams", scoring="VP" if match.has_vp else "IMP", units=units,
        boards=match.boards, section=header.section, organiser=header.organiser, format=NAME,
        round=match.round, parent=header.name,
    )


def _totals(matches: Sequence[_Match]) -> tuple[dict[str, float], Scoring]:
    """Team key -> total VPs (or match points 2/1/0 when the league has no VPs)."""
    totals: dict[str, float] = {}
    by_vp = matches[0].has_vp
    for match in matches:
        home, away = match.scores()
        if by_vp:
            gains = (home, away)
        else:
            gains = (1.0, 1.0) if home == away else ((2.0, 0.0) if home > away else (0.0, 2.0))
        for side, gain in zip((match.home, match.away), gains):
            key = _key(side.team.name)
            totals[key] = totals.get(key, 0.0) + gain
    return {k: round(v, 6) for k, v in totals.items()}, "VP" if by_vp else "unknown"


def _standings_event(matches: Sequence[_Match], teams: dict[str, _Team], header: _Header,
                     log: IssueLog) -> Event:
    """Teams by total VPs; equal totals share the mean of their places (``_places``)."""
    totals, scoring = _totals(matches)
    if scoring != "VP":
        log.report(MalformedFile("no VPs in the league: standings ranked by match points "
                                 "(win 2, draw 1, loss 0)", table="matches"), level="info")
    for key, team in teams.items():
        if key not in totals:
            log.report(MalformedFile(f"team {team.name!r} plays no match; left out of the "
                                     "standings", table="teams", row=team.row, column="team",
                                     value=team.name))
    ranked = sorted((k for k in teams if k in totals), key=lambda k: -totals[k])
    written: list[WrittenPlace] = []
    for index, key in enumerate(ranked):
        if index and totals[key] == totals[ranked[index - 1]]:
            written.append(written[-1])
        else:
            written.append(WrittenPlace(index + 1, index + 1))
    places, _ = shared_places(written)
    units: list[Unit] = []
    for key, place, mark in zip(ranked, places, written):
        size = sum(1 for w in written if w == mark)
        text = str(mark.first) if size == 1 else f"{mark.first}-{mark.first + size - 1}"
        team = teams[key]
        units.append(Unit(place=place, place_text=text, label=team.name, score=totals[key],
                          players=team.players))
    return Event(
        game="bridge", title=f"{header.name} final standings",
        date=max(m.date for m in matches), kind="teams", scoring=scoring, units=tuple(units),
        boards=None, section=header.section, organiser=header.organiser, format=NAME,
        parent=header.name,
    )


# --- parse ----------------------------------------------------------------------------------


def _block(blocks: _Blocks, name: str, file: str) -> list[_Record]:
    if name not in blocks:
        raise MalformedFile(f"no {name} block (CSV marker #{name.upper()} or sheet {name!r})",
                            file=file, table=name)
    return blocks[name]


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """One event per match plus the final standings; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    if data.startswith(b"PK\x03\x04"):
        blocks = _xlsx_blocks(data, log)
    else:
        blocks = _csv_blocks(data, log)
    header = _read_header(_block(blocks, "league", log.file), log)
    teams = _read_teams(_block(blocks, "teams", log.file), log)
    matches = _read_matches(_block(blocks, "matches", log.file), header, teams, log)
    events = tuple(_match_event(m, header) for m in matches)
    events += (_standings_event(matches, teams, header, log),)
    return ParseResult(format=NAME, events=events, issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="league file (CSV blocks or xlsx sheets): one event per match plus standings",
    detect=detect,
    parse=parse,
)
