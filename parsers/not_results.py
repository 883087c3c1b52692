"""Files a club's scoring folder holds beside its results, recognised and refused by name.

A club that scores with ACBLscore, BridgeComposer or a Bridgemate keeps, for each session, the
result reports that the readers of this package read (the text report, the web page) and files
that hold no ranking at all. Those are recognised here by their bytes, never by their names
alone, and each is refused in one line that names what the file is, so that a folder can be
dropped into the inbox as it is::

    PDF document            %PDF- in the first 1 KB           a printed page; its text is
                                                              not read (the program's export
                                                              of the same session is)
    Bridgemate database     a Microsoft Access (Jet/ACE)      the raw table-by-table board
    (.BWS)                  file with Bridgemate's tables      results of a session, before
                            (ReceivedData, RoundData)          the scoring program ranks them
    Access database         any other Jet/ACE file            -
    GIB analysis (.gib)     one line per board: the deal      double-dummy tricks, no play
                            (N E S W, suits by dots) and
                            ``:`` 20 trick counts
    Duplimate hand records  156-byte records: 78 digits       the deals for the dealing
    (.DUP)                  (card numbers 01-52 of N, E, S),   machine, no scores
                            the sorted hands, ``Y``/``N``
                            flags and the board numbers
    PNG, JPEG, GIF image    its signature                     a picture (a scanned score
                                                              sheet, a logo)
    Word document           .docx: a zip with                 not read: results come from
                            word/document.xml, no workbook;   the scoring program's files
                            .doc: an OLE2 file with a
                            WordDocument stream, no Workbook

The ``.DUP`` files of an ACBL club's folder are such hand records (Duplimate's format, 156 bytes
a deal), not ACBLscore game files, whatever their name suggests. PBN files of hand records only
are the PBN reader's (parsers/pbn.py), which refuses them the
same way. Every refusal is an :class:`UnsupportedVariant` of one line, naming the file; it says
where the session's results are instead (the club's text report or web page of the same night,
or the scoring program's export).

Detection is exact enough not to make any result file ambiguous: a PDF must start with its
signature, an Access file carries its engine's signature at byte 4, a GIB file must be
analysis lines throughout, a DUP file must be whole 156-byte records of card numbers. Nothing
here reads text or markup, so a result page or sheet is never claimed.
"""

from __future__ import annotations

import io
import re
import zipfile

from ._errors import NoResults, UnsupportedVariant
from ._issues import source_name
from ._model import ParseResult
from ._registry import Format

__all__ = ["FORMAT", "detect", "parse", "what_it_is"]

NAME = "not_results"

_RESULTS_ELSEWHERE = ("the session's results are in the scoring program's report (its text "
                      "report or web page) or export (USEBIO, a PBN with a ranking)")

# --- PDF --------------------------------------------------------------------------------------

_PDF = re.compile(rb"\A[\x00-\x20\xef\xbb\xbf]{0,1024}%PDF-(\d\.\d)?")
_PDF_MAKER = re.compile(rb"/(?:Creator|Producer)\s*\(((?:\\[()\\]|[\x20-\x27\x2a-\x5b\x5d-\x7e])"
                        rb"{2,80})\)")
"""The program a PDF names as its maker: a short plain-ASCII string (``\\(`` escapes a bracket)."""


def _pdf(data: bytes) -> str | None:
    if not _PDF.match(data[:1100]):
        return None
    found = _PDF_MAKER.search(data[:65536]) or _PDF_MAKER.search(data[-65536:])
    maker = re.sub(r"\\(.)", r"\1", found[1].decode("ascii")) if found else ""
    made = f" (made by {' '.join(maker.split())})" if maker else ""
    return f"a PDF document{made}: printed pages, not a result file; {_RESULTS_ELSEWHERE}"


# --- Microsoft Access: Bridgemate's .BWS ------------------------------------------------------

_ACCESS = (b"Standard Jet DB", b"Standard ACE DB")
_BRIDGEMATE_TABLES = (b"ReceivedData", b"RoundData", b"PlayerNumbers")


def _access(data: bytes) -> str | None:
    if data[4:19] not in _ACCESS:
        return None
    if sum(table in data for table in _BRIDGEMATE_TABLES) >= 2:
        return ("a Bridgemate scoring database (.BWS, Microsoft Access): each table's board "
                f"results before scoring, not a ranking; {_RESULTS_ELSEWHERE}")
    return f"a Microsoft Access database, not a result file; {_RESULTS_ELSEWHERE}"


# --- GIB double-dummy analysis (.gib) ---------------------------------------------------------

_HAND = r"[AKQJT2-9]{0,13}(?:\.[AKQJT2-9]{0,13}){3}"
_GIB_LINE = re.compile(rf"^{_HAND}(?: {_HAND}){{3}}:[0-9A-Da-d]{{20}}\s*$")


def _gib(data: bytes) -> str | None:
    head = data[:65536]
    if not head[:1].isalnum() and not head.startswith(b"."):
        return None
    try:
        text = head.decode("ascii")
    except UnicodeDecodeError:
        return None
    lines = [line for line in text.splitlines() if line.strip()]
    if len(data) > len(head):
        lines = lines[:-1]  # the last line may be cut at the bound
    if not lines or not all(_GIB_LINE.match(line) for line in lines):
        return None
    boards = len([line for line in data.decode("ascii", "replace").splitlines() if line.strip()])
    return (f"GIB double-dummy analysis (.gib, {boards} deal{'' if boards == 1 else 's'} with "
            f"the tricks each hand makes in each strain): hand records, not a result; "
            f"{_RESULTS_ELSEWHERE}")


# --- Duplimate hand records (.DUP) ------------------------------------------------------------

_DUP_RECORD = 156
_DUP_CARDS = re.compile(rb"\A(?:0[1-9]|[1-4]\d|5[0-2]){39}")


def _dup(data: bytes) -> str | None:
    if not data or len(data) % _DUP_RECORD:
        return None
    records = [data[i:i + _DUP_RECORD] for i in range(0, len(data), _DUP_RECORD)]
    for record in records:
        if not _DUP_CARDS.match(record) or record[146:147] not in (b"Y", b"N") \
                or record[147:148] not in (b"Y", b"N"):
            return None
    boards = len(records)
    return (f"Duplimate hand records (.DUP, {boards} deal{'' if boards == 1 else 's'} for the "
            "dealing machine, no scores): not a result; the club's text report or web page of "
            "the same night holds its results")


# --- pictures and word-processor documents ----------------------------------------------------

_IMAGES = ((b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
           (b"GIF87a", "a GIF image"), (b"GIF89a", "a GIF image"))
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_WORD_STREAM = "WordDocument".encode("utf-16-le")


def _picture(data: bytes) -> str | None:
    for magic, what in _IMAGES:
        if data.startswith(magic):
            return f"{what} (a picture, not a result file); {_RESULTS_ELSEWHERE}"
    return None


def _word(data: bytes) -> str | None:
    """A Word document: .docx (a zip with word/document.xml and no workbook) or .doc (an OLE2
    file with a WordDocument stream and no Workbook: the spreadsheet reader's .xls)."""
    word = False
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
        except Exception:  # noqa: BLE001 - a damaged archive is not recognised here
            return None
        word = "word/document.xml" in names and "xl/workbook.xml" not in names
    elif data.startswith(_OLE2):
        word = _WORD_STREAM in data and "Workbook".encode("utf-16-le") not in data \
            and "Book".encode("utf-16-le") not in data
    if not word:
        return None
    return ("a Word document: not read (results are read from the scoring program's own files, "
            f"not from documents typed or pasted); {_RESULTS_ELSEWHERE}")


# --- the format -------------------------------------------------------------------------------

_KINDS = (_pdf, _access, _dup, _gib, _picture, _word)


def what_it_is(data: bytes) -> str | None:
    """The one-line description of a non-result file this module recognises, else None."""
    for kind in _KINDS:
        described = kind(data)
        if described:
            return described
    return None


def detect(data: bytes, filename: str = "") -> bool:
    """A PDF, an Access database, a Duplimate .DUP, a GIB .gib file, a picture or a Word
    document, by its bytes."""
    return what_it_is(data) is not None


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """Always raises: the file holds no result (see the module docstring)."""
    file = source_name(source)
    described = what_it_is(data)
    if described is None:
        raise UnsupportedVariant(
            "not a file this reader recognises (a PDF, a Bridgemate or other Access database, "
            "GIB analysis, Duplimate hand records, a picture or a Word document)", file=file)
    raise NoResults(described, file=file)


FORMAT = Format(
    name=NAME,
    description="files that are not results (PDF, Bridgemate .BWS, GIB .gib analysis, "
                "Duplimate .DUP hand records, pictures, Word documents): recognised and "
                "refused by name",
    detect=detect,
    parse=parse,
)
