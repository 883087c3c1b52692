"""ACBLmerge result pages: the ACBLscore report as a web page, full (``*.htm``) and phone
(``*_iPhone.htm``).

ACBLmerge (Matthew Kidd) merges an ACBLscore game file with its hand records into one HTML page:
a "Masterpoint Winners" table, the ACBLscore recap text in a ``<pre>``, then the hand diagrams,
double-dummy analysis and travellers of every board (a page is ~200 KB). The page opens with
``<!-- Created by ACBLmerge 1.3.5 (Matthew Kidd, San Diego, CA) -->`` and its recap reads::

    <pre>
    EVENT&gt;Tuesday Evening Pairs    |SESSION&gt;Tuesday Eve  |SECTION&gt; A N-S
    ...
     <a href="javascript:recap('A1N')">1</a> Cristal Nell           Gregory Herman    B ...

The recap text is HTML-escaped and each pair number is a link to that pair's recap; without the
markup it is the text report, and it is read by the text report's reader
(:func:`parsers.acblscore_text.read_report`, whose docstring lists the layouts and what becomes
of them). Two differences from the ``.TXT`` file of the same game:

- blocks after the first leave out the ``DATE>`` and ``DIR>`` lines; they take the header
  values of the page's first block;
- the phone page prints the strat ranks narrower (``|F| A | B | C |``, sometimes with a garbled
  header such as ``| r e |`` for ``| Score |``) and the matchpoint score with one decimal cut
  off (``187.9`` for ``187.96``); the percentage is the same, so the events (the percentage is
  the score) equal those of the full page and the ``.TXT``. Of the short layouts (``| Rank|Score
  | Pct |``, ``| O'all| Rank|``) the phone page cuts every row (names cut, no percentage): such
  a page is refused (``MalformedFile``), never read half.

Only the ``<pre>`` holding ``EVENT&gt;`` is read (found by a plain scan of the bytes, not an
HTML tree: a page reads in a few milliseconds); the winners table, hands and travellers are
not. A page without that recap (ACBLmerge's pages of other programs' results) is not claimed.
Boards of a pairs game are the boards whose results the page shows (``id="board_results27"``,
the same boards the text report prints travellers of; the recap has no board matrix); a teams
game has ``ROUNDS>`` times ``BDS/RD>`` as in the text report.
"""

from __future__ import annotations

import html
import re

from ._errors import MalformedFile
from ._issues import IssueLog, source_name
from ._model import ParseResult
from ._registry import Format
from ._text import decode_bytes, html_declared_charset
from .acblscore_text import read_report

__all__ = ["FORMAT", "detect", "parse"]

NAME = "acblmerge"

_MARK = b"<!-- Created by ACBLmerge"
_RECAP = b"EVENT&gt;"
_TAG = re.compile(r"<[^>]*>")


def detect(data: bytes, filename: str = "") -> bool:
    """A page ACBLmerge wrote (its ``<!-- Created by ACBLmerge`` comment near the top) that
    carries an ACBLscore recap (``EVENT&gt;`` in the page)."""
    return _MARK in data[:4096] and _RECAP in data


_BOARD_ANCHOR = re.compile(rb"""id\s*=\s*["']board_results(\d+)["']""")


def recap_text(data: bytes) -> str:
    """The recap text of the page: every ``<pre>`` that holds ``EVENT&gt;``, markup removed
    and entities decoded, in page order."""
    declared = html_declared_charset(data)
    pieces: list[str] = []
    position = 0
    lowered = data.lower()
    while (found := data.find(_RECAP, position)) >= 0:
        start = lowered.rfind(b"<pre", 0, found)
        end = lowered.find(b"</pre", found)
        if start < 0:
            break
        end = len(data) if end < 0 else end
        opened = data.find(b">", start, found)
        chunk = decode_bytes(data[opened + 1:end], declared).text
        pieces.append(html.unescape(_TAG.sub("", chunk)))
        position = end
    return "\n".join(pieces)


def parse(data: bytes, *, source: str = "", strict: bool = False) -> ParseResult:
    """The events of the page's ACBLscore recap; see the module docstring."""
    log = IssueLog(file=source_name(source), strict=strict)
    text = recap_text(data)
    if not text.strip():
        raise MalformedFile("an ACBLmerge page without an ACBLscore recap in <pre> "
                            "(no EVENT&gt; line): no standings to read", file=log.file)
    in_play = len(set(_BOARD_ANCHOR.findall(data))) or None
    events = read_report(text, log, fmt=NAME, in_play=in_play)
    return ParseResult(format=NAME, events=tuple(events), issues=log.issues)


FORMAT = Format(
    name=NAME,
    description="ACBLmerge result page (HTML, full or phone): the ACBLscore recap it embeds",
    detect=detect,
    parse=parse,
    signed=True,
)
