"""What came closest: for a file no format recognises, the format it most resembles and why it
was not read.

Each format may have weak marks here: a few things its files always carry (a root tag, a
generator's name, header words). The format with the most marks found is asked to read the file
anyway, and its refusal is the reason given ("looks like the CSV template (6 of its 8 header
columns), but: missing required column(s) ..."). With no marks found anywhere, nothing came
close. Marks are looked for in the first :data:`HEAD` bytes only.

Before that, what the file is where the bytes tell it cheaply (``_registry.unknown``): empty, a
spreadsheet whose zip or OLE container is cut short or corrupt, binary data of no known kind; and
after it, for text, what it looks like (a web page without a table, one whose tables have no
results header, a CSV file whose header names no place or name column).
"""

from __future__ import annotations

import csv
import io
import os
import re
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["HEAD", "Resemblance", "damaged_container", "is_binary", "is_empty", "resemblances",
           "text_looks", "workbook_kind"]

HEAD = 65536
"""Bytes of a file searched for marks."""


@dataclass(frozen=True, slots=True)
class Resemblance:
    format: str
    score: float
    """0-1: the share of the format's marks found."""
    what: str
    """What was found, for the message ("its <USEBIO> root")."""


def _marks(*patterns: tuple[str, bytes]) -> Callable[[bytes], tuple[float, str]]:
    compiled = [(label, re.compile(p, re.IGNORECASE | re.MULTILINE)) for label, p in patterns]

    def score(head: bytes) -> tuple[float, str]:
        found = [label for label, rx in compiled if rx.search(head)]
        return len(found) / len(compiled), ", ".join(found)
    return score


_TEMPLATE_COLUMNS = ("organiser", "event", "date", "kind", "scoring", "boards", "unit", "place",
                     "score", "player")


def _template(head: bytes) -> tuple[float, str]:
    """The CSV template: how many of its header columns the first non-blank line has."""
    text = head.decode("utf-8-sig", errors="replace")
    first = next((line for line in text.splitlines() if line.strip()), "")
    cells = {c.strip().strip('"').casefold() for c in re.split(r"[,;\t|]", first)}
    found = [c for c in _TEMPLATE_COLUMNS if c in cells]
    if len(found) < 3:
        return 0.0, ""
    return len(found) / len(_TEMPLATE_COLUMNS), f"{len(found)} of its header columns"


_SIGNATURES: dict[str, Callable[[bytes], tuple[float, str]]] = {
    "csv_template": _template,
    "usebio": _marks(("a <USEBIO> root", rb"<USEBIO\b"), ("<EVENT>", rb"<EVENT\b"),
                     ("<PARTICIPANTS>", rb"<PARTICIPANTS\b"), ("<PAIR>", rb"<PAIR\b")),
    "opengotha": _marks(("a <Tournament> root", rb"<Tournament\b"), ("<Players>", rb"<Player\b"),
                        ("<Games>", rb"<Games?\b")),
    "pbn": _marks(("PBN tags", rb'^\[(?:Event|Board|Deal|Site|Date) "'),
                  ("a score table", rb"\[(?:Total)?Score(?:Table)?\b")),
    "egd_table": _marks(("; EV[ header", rb"^;\s*EV\["), ("; DT[ header", rb"^;\s*DT\["),
                        ("; CL[ header", rb"^;\s*CL\[")),
    "bbo": _marks(("BBO's address", rb"bridgebase\.com"), ("BBO's table class",
                  rb"class=.?(?:sectiontable|bbo_)")),
    "jfr_pary": _marks(("JFR's generator tag", rb"JFR|Pary\s*\d"), ("JFR's columns",
                       rb"m-ce")),
    "kops": _marks(("KoPS's generator tag", rb"KoPS"), ("KoPS's columns", rb"miejsce")),
    "jfr_teamy": _marks(("JFR Teamy's generator tag", rb"Teamy"), ("its team column",
                        "drużyna".encode())),
    "bridgewebs": _marks(("Bridgewebs tag lines", rb"^#(?:VERSION|DATE|TITLE|EVENT)\b"),
                         ("a #SCORES block", rb"^#(?:SCORES|RANKING)\b")),
    "league": _marks(("league blocks", rb"^#(?:LEAGUE|TEAMS|MATCHES)\b"),),
    "magic_contest": _marks(("Magic Contest's generator tag", rb"Magic\s+Contest|brenning\.se"),
                            ("its ranking header", rb"^\s*Rank\s+(?:Pair|Player|Team)\s+Score\b")),
    "bridgecomposer_recap": _marks(("BridgeComposer or ACBLscore", rb"BridgeComposer|ACBLscore"),
                                   ("a recap header", rb"Pair\s+Names|Pct\s+Score")),
    "acblscore_text": _marks(("ACBLscore's EVENT> header", rb"^EVENT>"), ("DATE>", rb"DATE>"),
                             ("CLUB>", rb"CLUB>|SANCTION>")),
    "acbl_live": _marks(("an ACBL club game's data object", rb"var\s+data\s*=\s*\{"),
                        ("its pair summaries", rb'"pair_summaries"')),
    "cobalt_session": _marks(("Cobalt's header", rb"PairNumber\s*,\s*Name"),),
    "preferans_log": _marks(("vists", "vists|висты|вист".encode()),),
}


def resemblances(data: bytes) -> list[Resemblance]:
    """Formats this file resembles, most alike first (only those with some mark found)."""
    head = data[:HEAD]
    found = []
    for name, signature in _SIGNATURES.items():
        score, what = signature(head)
        if score > 0:
            found.append(Resemblance(name, score, what))
    return sorted(found, key=lambda r: -r.score)


# --- what a file no format reads looks like -------------------------------------------------
# Told from the bytes cheaply (a look at the container, the first lines, a count of tables), so
# that a refusal says what the file is instead of only that no format recognised it.

_ZIP = (b"PK\x03\x04", b"PK\x05\x06")
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]")
_MARKUP = re.compile(rb"<\s*(?:!doctype\s+html|html|head|body|div|p|table|title)\b", re.IGNORECASE)
_TABLE = re.compile(rb"<\s*table\b", re.IGNORECASE)
_DELIMITERS = (",", ";", "\t")


def is_empty(data: bytes) -> bool:
    """No bytes, or only white space (a byte-order mark or NULs padding nothing count as none)."""
    return not data.strip(b" \t\r\n\f\v\x00").removeprefix(b"\xef\xbb\xbf").strip()


def _suffix(filename: str) -> str:
    return os.path.splitext(filename)[1].lower()


def _zip_kind(head: bytes, suffix: str) -> str | None:
    """What a zip container holds, from the names of its first entries (or the file's suffix)."""
    if b"mimetype" in head[:200] and b"opendocument.spreadsheet" in head[:400]:
        return "an OpenDocument spreadsheet (.ods)"
    if b"mimetype" in head[:200] and b"opendocument.text" in head[:400]:
        return "an OpenDocument text (.odt)"
    if b"xl/" in head:
        return "an Excel workbook (.xlsx)"
    if b"word/" in head:
        return "a Word document (.docx)"
    return {".xlsx": "an Excel workbook (.xlsx)", ".xlsm": "an Excel workbook (.xlsm)",
            ".ods": "an OpenDocument spreadsheet (.ods)", ".docx": "a Word document (.docx)",
            ".odt": "an OpenDocument text (.odt)"}.get(suffix)


def _zip_damage(data: bytes) -> str | None:
    """Why a zip container cannot be read, None if every member reads."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            bad = archive.testzip()
    except zipfile.BadZipFile as exc:
        text = str(exc).lower()
        if "not a zip file" in text or "end of central directory" in text:
            return "cut short: the end of the file, where its table of contents is, is missing"
        return "its zip structure is corrupt"
    except (OSError, EOFError, ValueError, NotImplementedError, zlib.error, RuntimeError):
        return "its zip structure is corrupt"
    if bad is not None:
        return f"its part {bad!r} is corrupt"
    return None


def _xls_damage(data: bytes) -> str | None:
    """Why an OLE file that should be an Excel 97-2003 workbook cannot be read, None if it can."""
    import xlrd  # type: ignore[import-untyped]

    try:
        xlrd.open_workbook(file_contents=data, on_demand=True).release_resources()
    except Exception:  # noqa: BLE001 - xlrd raises many kinds on a broken compound file
        return "its OLE structure cannot be read (cut short or corrupt)"
    return None


def damaged_container(data: bytes, filename: str = "") -> str | None:
    """What a spreadsheet or document whose container is cut short or corrupt was meant to be,
    and what is wrong ("an Excel workbook (.xlsx), cut short: ..."); None for any other file."""
    suffix = _suffix(filename)
    if data.startswith(_ZIP):
        kind = _zip_kind(data[:HEAD], suffix)
        damage = _zip_damage(data) if kind is not None else None
        return f"{kind}, {damage}" if damage else None
    if data.startswith(_OLE2):
        if suffix in (".xls", ".xlt") or b"W\x00o\x00r\x00k\x00b\x00o\x00o\x00k" in data \
                or b"B\x00o\x00o\x00k\x00" in data:
            damage = _xls_damage(data)
            return f"an Excel 97-2003 workbook (.xls), {damage}" if damage else None
        return None
    if suffix in (".xls", ".xlsx", ".ods") and is_binary(data):
        return f"a {suffix} file that is not a spreadsheet: it has no {suffix} file's signature"
    return None


def is_binary(data: bytes) -> bool:
    """Bytes that are no text: NULs or many control characters in the first 4 KB (UTF-16 text,
    with its byte-order mark or without, its NULs all on even or all on odd bytes, is text)."""
    head = data[:4096]
    if head.startswith(_UTF16_BOMS):
        return False
    if b"\x00" in head:
        even, odd = head[0::2].count(0), head[1::2].count(0)
        return not (min(even, odd) == 0 and max(even, odd) >= len(head) // 4)
    return len(_CONTROL.findall(head)) > len(head) // 20


def workbook_kind(data: bytes, filename: str = "") -> str | None:
    """A whole spreadsheet's kind ("an Excel workbook (.xlsx)"), None if it is none."""
    if data.startswith(_ZIP):
        kind = _zip_kind(data[:HEAD], _suffix(filename))
        return kind if kind is not None and "Word" not in kind and "text" not in kind else None
    if data.startswith(_OLE2) and (b"W\x00o\x00r\x00k\x00b\x00o\x00o\x00k" in data
                                   or b"B\x00o\x00o\x00k\x00" in data):
        return "an Excel 97-2003 workbook (.xls)"
    return None


def _header(text: str) -> list[str] | None:
    """The cells of a delimited text's first line, None if it is not delimited text (one cell,
    or a second line that does not split alike)."""
    lines = [line for line in text.splitlines() if line.strip()][:5]
    if not lines:
        return None
    delimiter = max(_DELIMITERS, key=lambda d: lines[0].count(d))
    if lines[0].count(delimiter) == 0:
        return None
    if len(lines) > 1 and lines[1].count(delimiter) == 0:
        return None
    return [c.strip().strip('"').strip() for c in next(csv.reader([lines[0]],
                                                                 delimiter=delimiter))]


def text_looks(data: bytes) -> str | None:
    """What a text file no format reads looks like, where that is cheap to tell: a web page
    without a table, one whose tables have no results header, a delimited file whose header
    names no place or name column; None for other text."""
    head = data[:HEAD]
    if _MARKUP.search(head):
        tables = len(_TABLE.findall(data))
        if tables == 0:
            return "a web page without any table"
        return (f"a web page with {tables} table{'' if tables == 1 else 's'} but no ranking "
                "(no table has a results header: a place column and names)")
    text = head.decode("utf-8-sig", errors="replace")
    cells = _header(text)
    if cells is None:
        return None
    shown = ", ".join(repr(c[:30]) for c in cells[:8]) + (", ..." if len(cells) > 8 else "")
    return f"a CSV file whose header ({shown}) names no place or name column"
