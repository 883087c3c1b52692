"""What came closest: for a file no format recognises, the format it most resembles and why it
was not read.

Each format may have weak marks here: a few things its files always carry (a root tag, a
generator's name, header words). The format with the most marks found is asked to read the file
anyway, and its refusal is the reason given ("looks like the CSV template (6 of its 8 header
columns), but: missing required column(s) ..."). With no marks found anywhere, nothing came
close. Marks are looked for in the first :data:`HEAD` bytes only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["HEAD", "Resemblance", "resemblances"]

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
