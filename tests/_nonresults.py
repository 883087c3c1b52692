"""Pages and sheets that are NOT result lists, built deterministically for the generic formats.

What a bridge club's website and its scorer's folder hold besides rankings, in six languages
(EN, SK, CZ, PL, HU, DE) and several layouts and sizes:

- hand records (compass layouts with card symbols, one row per board), travellers (N-S, E-W,
  contract, lead, score columns, with or without the pairs' names), personal score cards;
- seating and movement cards, seating lists with names, registration and member lists (with a
  numbering column ``Lp.`` / ``No.``, phone numbers, fees, ranking points in no order);
- news pages with small tables, calendars, timetables, price lists;
- league tables of other games (football with goals, tennis and quiz ladders with games won and
  lost, chess with rating and tie-breaks, a race with times, golf where lower scores win);
- tables of numbers only, pair numbers where names belong (``No.;Pair;Score``), teams without
  players, rankings before play (every score 0), places that do not start at 1;
- result pages and sheets written by scoring programs (a generator tag or the program's name in
  a footer, BBO and RealBridge style exports): a generic format never reads those either.

``corpus(count)`` yields ``(name, bytes)``; names say the kind and the container
(``traveller-sk-0042.html``, ``registrations-pl-0107.xlsx``). The same ``count`` and ``seed``
give the same bytes. ``plain_corpus(count)`` yields a second, simpler family (one header row,
utf-8, HTML/CSV/xlsx; Butler boards and movement cards with names among its kinds), named
``<kind>-<i>.<suffix>`` (``butler_board-0011.html``).
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
import random
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["KINDS", "PROGRAM_FOOTERS", "corpus", "plain_corpus"]

LANGS = ("en", "sk", "cz", "pl", "hu", "de")
SUITS = ("♠", "♥", "♦", "♣")
LETTER_SUITS = ("S", "H", "D", "C")
RANKS = "AKQJT98765432"

FIRST = {
    "en": ("John", "Mary", "Peter", "Susan", "David", "Alice"),
    "sk": ("Ján", "Ľubomír", "Zuzana", "Štefan", "Mária", "Ďurko"),
    "cz": ("Jiří", "Hana", "Tomáš", "Věra", "Pavel", "Růžena"),
    "pl": ("Piotr", "Ewa", "Tomasz", "Małgorzata", "Krzysztof", "Zofia"),
    "hu": ("János", "Katalin", "Gábor", "Erzsébet", "Zoltán", "Ödön"),
    "de": ("Hans", "Ute", "Jürgen", "Gisela", "Klaus", "Jörg"),
}
LAST = {
    "en": ("Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans"),
    "sk": ("Novák", "Kováč", "Horváthová", "Šťastný", "Žiak", "Ťapák"),
    "cz": ("Dvořák", "Svobodová", "Procházka", "Černá", "Růžička", "Kříž"),
    "pl": ("Nowak", "Wójcik", "Kowalska", "Zięba", "Nowak-Kowalska", "Łukasik"),
    "hu": ("Nagy", "Szabó", "Kiss", "Szőke", "Győri", "Tóth"),
    "de": ("Müller", "Schmidt", "Weiß", "Schäfer", "Groß", "Köhler"),
}
CLUBS = ("BK Senec", "BK Žilina", "BK Praha", "KS Spójnia", "AZS Wrocław", "Budapest BC",
         "Berliner BC", "Oxford BC", "Slávia Bratislava", "Debreceni BK")
TEAMS = ("Arsenal", "Slovan", "Sparta", "Legia", "Ferencváros", "Bayern", "Dukla", "Wisła",
         "Žilina", "Celtic", "Ajax", "Honvéd", "Quiz Masters", "Brainiacs")

W: dict[str, dict[str, str]] = {
    "en": dict(board="Board", dealer="Dealer", vul="Vul", north="North", south="South",
               east="East", west="West", contract="Contract", by="By", lead="Lead",
               tricks="Tricks", score="Score", names="Names", name="Name", club="Club",
               no="No.", pair="Pair", table="Table", round="Round", opp="Opponents",
               date="Date", time="Time", event="Event", venue="Venue", price="Price",
               item="Item", phone="Phone", fee="Fee", points="Points", pos="Pos", team="Team",
               played="P", won="W", drawn="D", lost="L", news="Club news", title="Hand records",
               player="Player", email="E-mail", paid="Paid", note="Note", day="Day",
               director="Director", results="Results", place="Place", boards="Boards",
               rating="Rating", wins="Won", losses="Lost", total="Total"),
    "sk": dict(board="Rozdanie", dealer="Rozdáva", vul="Zraniteľnosť", north="Sever",
               south="Juh", east="Východ", west="Západ", contract="Záväzok", by="Hráč",
               lead="Výnos", tricks="Zdvihy", score="Skóre", names="Mená", name="Meno",
               club="Klub", no="Č.", pair="Pár", table="Stôl", round="Kolo", opp="Súperi",
               date="Dátum", time="Čas", event="Turnaj", venue="Miesto konania", price="Cena",
               item="Položka", phone="Telefón", fee="Štartovné", points="Body", pos="Poradie",
               team="Družstvo", played="Z", won="V", drawn="R", lost="P", news="Novinky",
               title="Rozdania", player="Hráč", email="E-mail", paid="Zaplatené",
               note="Poznámka", day="Deň", director="Rozhodca", results="Výsledky",
               place="Miesto", boards="Rozdania", rating="Rating", wins="Výhry",
               losses="Prehry", total="Spolu"),
    "cz": dict(board="Rozdání", dealer="Rozdává", vul="Manša", north="Sever", south="Jih",
               east="Východ", west="Západ", contract="Závazek", by="Hráč", lead="Výnos",
               tricks="Zdvihy", score="Skóre", names="Jména", name="Jméno", club="Klub",
               no="Č.", pair="Pár", table="Stůl", round="Kolo", opp="Soupeři", date="Datum",
               time="Čas", event="Turnaj", venue="Místo", price="Cena", item="Položka",
               phone="Telefon", fee="Startovné", points="Body", pos="Pořadí", team="Družstvo",
               played="Z", won="V", drawn="R", lost="P", news="Zprávy", title="Rozdání",
               player="Hráč", email="E-mail", paid="Zaplaceno", note="Poznámka", day="Den",
               director="Rozhodčí", results="Výsledky", place="Místo", boards="Rozdání",
               rating="Rating", wins="Výhry", losses="Prohry", total="Celkem"),
    "pl": dict(board="Rozdanie", dealer="Rozdający", vul="Założenia", north="N", south="S",
               east="E", west="W", contract="Kontrakt", by="Rozgr.", lead="Wist",
               tricks="Lewy", score="Zapis", names="Zawodnicy", name="Nazwisko", club="Klub",
               no="Lp.", pair="Para", table="Stół", round="Runda", opp="Przeciwnicy",
               date="Data", time="Godzina", event="Turniej", venue="Miejsce", price="Cena",
               item="Pozycja", phone="Telefon", fee="Wpisowe", points="Pkt", pos="Miejsce",
               team="Drużyna", played="M", won="Z", drawn="R", lost="P", news="Aktualności",
               title="Rozkłady", player="Zawodnik", email="E-mail", paid="Wpłata",
               note="Uwagi", day="Dzień", director="Sędzia", results="Wyniki",
               place="Miejsce", boards="Rozdania", rating="WK", wins="Wygrane",
               losses="Przegrane", total="Razem"),
    "hu": dict(board="Leosztás", dealer="Osztó", vul="Mansó", north="Észak", south="Dél",
               east="Kelet", west="Nyugat", contract="Felvétel", by="Felvevő", lead="Kezdés",
               tricks="Ütés", score="Írás", names="Nevek", name="Név", club="Klub", no="Sz.",
               pair="Pár", table="Asztal", round="Forduló", opp="Ellenfél", date="Dátum",
               time="Idő", event="Verseny", venue="Helyszín", price="Ár", item="Tétel",
               phone="Telefon", fee="Nevezési díj", points="Pont", pos="Hely",
               team="Csapat", played="M", won="Gy", drawn="D", lost="V", news="Klubhírek",
               title="Leosztások", player="Játékos", email="E-mail", paid="Fizetve",
               note="Megjegyzés", day="Nap", director="Versenyvezető", results="Eredmények",
               place="Hely", boards="Leosztások", rating="Pontszám", wins="Győzelem",
               losses="Vereség", total="Összesen"),
    "de": dict(board="Board", dealer="Teiler", vul="Gefahr", north="Nord", south="Süd",
               east="Ost", west="West", contract="Kontrakt", by="Alleinspieler",
               lead="Ausspiel", tricks="Stiche", score="Score", names="Namen", name="Name",
               club="Verein", no="Nr.", pair="Paar", table="Tisch", round="Runde",
               opp="Gegner", date="Datum", time="Zeit", event="Turnier", venue="Ort",
               price="Preis", item="Posten", phone="Telefon", fee="Startgeld",
               points="Punkte", pos="Platz", team="Mannschaft", played="Sp", won="S",
               drawn="U", lost="N", news="Vereinsnachrichten", title="Verteilungen",
               player="Spieler", email="E-Mail", paid="Bezahlt", note="Bemerkung", day="Tag",
               director="Turnierleiter", results="Ergebnisse", place="Platz",
               boards="Boards", rating="Wertung", wins="Siege", losses="Niederlagen",
               total="Gesamt"),
}

PROGRAM_FOOTERS = (
    '<meta name="generator" content="ScoreBridge 6.3">', "<p>Results by Pianola</p>",
    "<p>Produced by EBUScore Pairs 7.2</p>", "<p>Scored with Bridgemate Pro</p>",
    "<p>Compscore 2 - results</p>", "<p>PairsScorer v4.1</p>",
    "<p>Results exported from RealBridge</p>", "<p>BriAn 3.0</p>", "<p>ScorePad results</p>",
    "<p>Generated by JSS</p>", "<p>NZ Scorer 2.4</p>", '<meta name="generator" content="JFR 2005">',
    "<p>KoPS2www</p>", "<p>ACBLscore</p>", "<p>Magic Contest 2013</p>",
    "<p><a href='https://www.bridgewebs.com'>Bridgewebs</a></p>",
    '<meta name="Generator" content="BridgeComposer 5.9">',
    "<p>BBO tournament <a href='https://www.bridgebase.com/myhands/'>hands</a></p>",
)
"""Marks of scoring programs: a page carrying one is never read by a generic format."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table: header rows (often one), body rows, and an optional caption line above it."""

    head: list[list[str]]
    rows: list[list[str]]
    caption: str = ""


Maker = Callable[[random.Random, str], list[Table]]


# --- cell helpers -----------------------------------------------------------------------------


def _person(rng: random.Random, lang: str, surname_first: bool = True) -> str:
    first, last = rng.choice(FIRST[lang]), rng.choice(LAST[lang])
    return f"{last} {first}" if surname_first else f"{first} {last}"


def _pair(rng: random.Random, lang: str) -> str:
    sep = rng.choice((" - ", " – ", "/", " & "))
    return _person(rng, lang) + sep + _person(rng, lang)


def _holding(rng: random.Random, symbols: bool) -> str:
    suits = SUITS if symbols else LETTER_SUITS
    cards = list(RANKS)
    rng.shuffle(cards)
    hand = sorted(cards[:13], key=RANKS.index)
    cut = sorted(rng.sample(range(1, 13), 3))
    parts = [hand[:cut[0]], hand[cut[0]:cut[1]], hand[cut[1]:cut[2]], hand[cut[2]:]]
    return " ".join(s + ("".join(p) or "-") for s, p in zip(suits, parts))


def _contract(rng: random.Random) -> str:
    strain = rng.choice(("NT", "BA", "S", "H", "D", "C", "♠", "♥", "♦", "♣"))
    return f"{rng.randint(1, 7)}{strain}{rng.choice(('', '', 'X', 'XX'))}"


def _date(rng: random.Random) -> str:
    return f"{rng.randint(1, 28)}.{rng.randint(1, 12)}.{rng.randint(2005, 2025)}"


def _falling(rng: random.Random, n: int, top: int) -> list[int]:
    return sorted((rng.randint(0, top) for _ in range(n)), reverse=True)


def _unordered(rng: random.Random, n: int, low: int, high: int) -> list[int]:
    """``n`` numbers that rise at least once from one to the next (never a ranking order)."""
    values = [rng.randint(low, high) for _ in range(n)]
    if all(a >= b for a, b in zip(values, values[1:])):
        values[-1], values[0] = values[0], values[-1]
        if values[0] == values[-1]:
            values[-1] += 1
    return values


# --- kinds ------------------------------------------------------------------------------------


def hand_record(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    symbols = rng.random() < 0.7
    if rng.random() < 0.5:  # one row per board
        head = [[w["board"], w["dealer"], w["vul"], w["north"], w["east"], w["south"],
                 w["west"]]]
        rows = [[str(b), rng.choice("NESW"), rng.choice(("-", "NS", "EW", "All")),
                 *(_holding(rng, symbols) for _ in range(4))]
                for b in range(1, rng.randint(3, 28))]
        return [Table(head, rows, w["title"])]
    tables = []
    for b in range(1, rng.randint(2, 6)):  # compass layout: a 3x3 grid per board
        n, e, s, west = (_holding(rng, symbols).replace(" ", "\n") for _ in range(4))
        head = [[f"{w['board']} {b}", "", ""]]
        rows = [[f"{w['dealer']}: {rng.choice('NESW')}", n, ""], [west, "", e], ["", s, ""]]
        tables.append(Table(head, rows))
    return tables


def traveller(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    named = rng.random() < 0.4
    head = ["NS", "EW"] + ([f"{w['names']} NS", f"{w['names']} EW"] if named else []) + [
        w["contract"], w["by"], w["lead"], w["tricks"], f"{w['score']} NS",
        f"{w['score']} EW", "MP NS", "MP EW"]
    rows = []
    n = rng.randint(4, 14)
    for mp in _falling(rng, n, 2 * n - 2):
        score = rng.choice((620, 420, 170, 140, 110, -50, -100, -200))
        row = [str(rng.randint(1, 14)), str(rng.randint(1, 14))]
        if named:
            row += [_pair(rng, lang), _pair(rng, lang)]
        row += [_contract(rng), rng.choice("NESW"), rng.choice(RANKS) + rng.choice(SUITS),
                str(rng.randint(6, 13)), str(score) if score > 0 else "",
                str(-score) if score < 0 else "", str(mp), str(2 * n - 2 - mp)]
        rows.append(row)
    return [Table([head], rows, f"{w['board']} {rng.randint(1, 30)}")]


def score_card(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    head = [w["round"], w["board"], w["opp"], w["contract"], w["by"], w["score"], "MP", "%"]
    rows = []
    for b in range(1, rng.randint(6, 27)):
        mp = rng.randint(0, 12)
        rows.append([str((b + 1) // 2), str(b), _pair(rng, lang), _contract(rng),
                     rng.choice("NESW"), str(rng.choice((-100, 110, 420, -50, 620))), str(mp),
                     f"{100 * mp / 12:.1f}"])
    return [Table([head], rows, f"{_pair(rng, lang)} - {w['score']}")]


def movement(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    rounds = rng.randint(3, 9)
    head = [w["table"]] + [f"{w['round']} {r}" for r in range(1, rounds + 1)]
    rows = [[str(t)] + [f"{t}-{(t + r) % 10 + 1}" for r in range(1, rounds + 1)]
            for t in range(1, rng.randint(3, 10))]
    return [Table([head], rows, "Mitchell")]


def seating(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    if rng.random() < 0.5:
        head = [w["table"], "NS", "EW", w["boards"]]
        rows = [[str(t), _pair(rng, lang), _pair(rng, lang), f"{2 * t - 1}-{2 * t}"]
                for t in range(1, rng.randint(3, 10))]
    else:  # a names column but nothing that ranks
        head = [w["pair"], w["names"], w["table"], "NS/EW"]
        rows = [[str(p), _pair(rng, lang), str((p + 1) // 2), rng.choice(("NS", "EW"))]
                for p in range(1, rng.randint(4, 16))]
    return [Table([head], rows)]


def registrations(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    n = rng.randint(4, 30)
    shape = rng.random()
    if shape < 0.4:  # numbered 1., 2., 3. ...: a numbering column, not places
        head = [w["no"], w["name"], w["club"], w["phone"]]
        rows = [[f"{i}.", _person(rng, lang), rng.choice(CLUBS),
                 f"+421 9{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)}"]
                for i in range(1, n + 1)]
    elif shape < 0.7:  # ranking points in no order
        head = [w["name"], w["club"], w["points"]]
        rows = [[_person(rng, lang), rng.choice(CLUBS), str(p)]
                for p in _unordered(rng, n, 0, 400)]
    else:  # pairs entered, fee paid
        head = [w["place"] if rng.random() < 0.3 else w["no"], w["names"], w["fee"], w["paid"]]
        rows = [[str(i), _pair(rng, lang), f"{rng.choice((5, 8, 10))} €",
                 rng.choice(("✓", "x", "ano", "yes", ""))] for i in range(1, n + 1)]
    return [Table([head], rows, f"{w['event']} {_date(rng)}")]


def members(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    head = [w["name"], w["club"], w["email"], w["note"]]
    rows = []
    for _ in range(rng.randint(5, 40)):
        person = _person(rng, lang, surname_first=False)
        rows.append([person, rng.choice(CLUBS),
                     person.split()[-1].lower().replace("ł", "l") + "@example.org",
                     rng.choice(("", "", "TD", "junior", "senior"))])
    return [Table([head], rows)]


def calendar(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    head = [w["date"], w["day"], w["time"], w["event"], w["venue"], w["director"]]
    rows = [[_date(rng), rng.choice(("Mon", "Tue", "Po", "Ut", "Pn", "H", "Mo")),
             f"{rng.randint(17, 20)}:{rng.choice(('00', '30'))}",
             rng.choice(("Club pairs", "Teams league", "Simultan", "Memoriál", "Grand Prix")),
             rng.choice(CLUBS), _person(rng, lang)] for _ in range(rng.randint(3, 15))]
    return [Table([head], rows)]


def timetable(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    head = [w["round"], w["time"], w["boards"]]
    rows = [[str(r), f"{9 + r}:{rng.choice(('00', '15', '30'))}", f"{3 * r - 2}-{3 * r}"]
            for r in range(1, rng.randint(4, 10))]
    return [Table([head], rows)]


def prices(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    items = ("Entry fee", "Members", "Juniors", "Coffee", "Bidding boxes", "Annual fee",
             "Lesson", "Book")
    rows = [[i, f"{rng.randint(2, 60)},{rng.choice(('00', '50'))} €"]
            for i in rng.sample(items, rng.randint(2, 8))]
    return [Table([[w["item"], w["price"]]], rows)]


def news(rng: random.Random, lang: str) -> list[Table]:
    """A news page: paragraphs with a winner named, a small table of coming events."""
    w = W[lang]
    head = [w["date"], w["event"], w["results"]]
    rows = [[_date(rng), rng.choice(("Pairs", "Teams", "Memoriál")),
             f"1. {_pair(rng, lang)}"] for _ in range(rng.randint(2, 6))]
    return [Table([head], rows, f"{w['news']}: {_pair(rng, lang)} won again")]


def football(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    if rng.random() < 0.3:  # ice hockey: wins, losses, a score like 203:15
        teams = rng.sample(TEAMS, rng.randint(6, 12))
        head = [w["pos"], w["team"], w["wins"], w["losses"], w["score"], w["points"]]
        rows = [[f"{i}.", team, str(20 - i), str(i + 2), f"{rng.randint(90, 210)}:"
                 f"{rng.randint(90, 210)}", str(3 * (20 - i))] for i, team in enumerate(teams, 1)]
        return [Table([head], rows)]
    goals = rng.random() < 0.6
    head = [w["pos"], w["team"], w["played"], w["won"], w["drawn"], w["lost"]] + (
        ["GF", "GA"] if goals else []) + [w["points"]]
    teams = rng.sample(TEAMS, rng.randint(6, 12))
    stats = []
    for team in teams:
        won, drawn = rng.randint(0, 12), rng.randint(0, 6)
        stats.append((3 * won + drawn, team, won, drawn, 22 - won - drawn))
    stats.sort(reverse=True)
    rows = [[str(i), team, "22", str(won), str(drawn), str(lost)]
            + ([str(rng.randint(10, 60)), str(rng.randint(10, 60))] if goals else [])
            + [str(pts)] for i, (pts, team, won, drawn, lost) in enumerate(stats, 1)]
    return [Table([head], rows)]


def ladder(rng: random.Random, lang: str) -> list[Table]:
    """Tennis or squash ladder: players, games won and lost, points."""
    w = W[lang]
    n = rng.randint(5, 16)
    head = [w["pos"], w["player"], w["wins"], w["losses"], w["points"]]
    rows = []
    for i, pts in enumerate(_falling(rng, n, 30), 1):
        won = pts // 2
        rows.append([str(i), _person(rng, lang), str(won), str(rng.randint(0, 10)), str(pts)])
    return [Table([head], rows)]


def chess(rng: random.Random, lang: str) -> list[Table]:
    w = W[lang]
    n = rng.randint(6, 20)
    head = [w["pos"], w["name"], rng.choice(("Elo", "Rtg", "FIDE")), w["points"],
            rng.choice(("Buchholz", "TB1", "SB"))]
    rows = [[str(i), _person(rng, lang), str(rng.randint(1200, 2400)), f"{p / 2:g}",
             str(rng.randint(10, 40))] for i, p in enumerate(_falling(rng, n, 14), 1)]
    return [Table([head], rows)]


def race(rng: random.Random, lang: str) -> list[Table]:
    """A run: places 1..n, names, times (no score, no tie)."""
    w = W[lang]
    n = rng.randint(5, 25)
    head = [w["place"], w["name"], w["club"], w["time"]]
    rows = [[str(i), _person(rng, lang), rng.choice(CLUBS),
             f"0:{30 + i}:{rng.randint(10, 59)}"] for i in range(1, n + 1)]
    return [Table([head], rows)]


def golf(rng: random.Random, lang: str) -> list[Table]:
    """Golf: lower is better, so the places run against the scores."""
    w = W[lang]
    n = rng.randint(6, 20)
    scores = sorted(rng.randint(66, 90) for _ in range(n))
    if scores[0] == scores[-1]:
        scores[-1] += 3
    head = [w["place"], w["name"], w["score"]]
    rows = [[str(i), _person(rng, lang), str(s)] for i, s in enumerate(scores, 1)]
    return [Table([head], rows)]


def numbers(rng: random.Random, lang: str) -> list[Table]:
    cols = rng.randint(3, 9)
    shape = rng.random()
    if shape < 0.4:
        head = [str(c) for c in range(1, cols + 1)]
    elif shape < 0.7:  # pair numbers where names belong
        head = [W[lang]["no"], rng.choice((W[lang]["pair"], W[lang]["names"], "Names")),
                W[lang]["score"]]
        n = rng.randint(4, 32)
        return [Table([head], [[str(i), str(rng.randint(1, 40)), f"{s / 10:.1f}"]
                               for i, s in enumerate(_falling(rng, n, 700), 1)])]
    else:  # a rank and numbers only
        head = [W[lang]["place"], W[lang]["pair"], "%"]
        n = rng.randint(4, 20)
        return [Table([head], [[str(i), str(rng.randint(1, 40)), f"{s / 10:.2f}"]
                               for i, s in enumerate(_falling(rng, n, 700), 1)])]
    return [Table([head], [[str(rng.randint(0, 99)) for _ in range(cols)]
                           for _ in range(rng.randint(3, 20))])]


def teams_only(rng: random.Random, lang: str) -> list[Table]:
    """Teams ranked without their players: team names are not players."""
    w = W[lang]
    n = rng.randint(4, 12)
    head = [w["pos"], w["team"], "VP"]
    rows = [[str(i), f"{rng.choice(CLUBS)} {chr(64 + i)}", f"{v / 10:.1f}"]
            for i, v in enumerate(_falling(rng, n, 2000), 1)]
    return [Table([head], rows)]


def before_play(rng: random.Random, lang: str) -> list[Table]:
    """A ranking printed before play: every score 0 (or blank), places 1..n."""
    w = W[lang]
    n = rng.randint(4, 16)
    head = [w["place"], w["names"], "%"]
    zero = rng.choice(("0", "0,00", "", "-"))
    rows = [[str(i), _pair(rng, lang), zero] for i in range(1, n + 1)]
    return [Table([head], rows)]


def table_numbers(rng: random.Random, lang: str) -> list[Table]:
    """A ``Place`` column that holds table numbers in steps, not places from 1."""
    w = W[lang]
    n = rng.randint(4, 12)
    head = [w["place"], w["names"], w["score"]]
    start = rng.randint(2, 9)
    rows = [[str(start + 2 * i), _pair(rng, lang), str(rng.randint(0, 100))] for i in range(n)]
    return [Table([head], rows)]


def program_results(rng: random.Random, lang: str) -> list[Table]:
    """A ranking that a scoring program wrote (the container adds the program's mark)."""
    w = W[lang]
    n = rng.randint(4, 14)
    head = [w["place"], w["pair"], w["names"], "%"]
    rows = [[str(i), str(rng.randint(1, 20)), _pair(rng, lang), f"{s / 100:.2f}"]
            for i, s in enumerate(sorted({rng.randint(3000, 7000) for _ in range(n)},
                                         reverse=True), 1)]
    return [Table([head], rows, f"{w['results']} {_date(rng)}")]


KINDS: tuple[Maker, ...] = (
    hand_record, traveller, score_card, movement, seating, registrations, members, calendar,
    timetable, prices, news, football, ladder, chess, race, golf, numbers, teams_only,
    before_play, table_numbers, program_results,
)


# --- containers -------------------------------------------------------------------------------


def _html(rng: random.Random, lang: str, title: str, tables: list[Table],
          mark: str = "") -> bytes:
    encoding = rng.choice(("utf-8", "utf-8", "cp1250", "iso8859_2")) if lang in (
        "sk", "cz", "pl", "hu") else "utf-8"
    declared = rng.random() < 0.7
    meta = f'<meta http-equiv="Content-Type" content="text/html; charset={encoding}">' \
        if declared else ""
    parts = [f"<html lang='{lang}'><head>{meta}<title>{html.escape(title)}</title>",
             mark if mark.startswith("<meta") else "", "</head><body>"]
    layout = rng.random() < 0.3
    if layout:  # a layout table with a menu around the content
        parts.append("<table width='100%'><tr><td><ul><li>Home</li><li>Results</li>"
                     "<li>Calendar</li></ul></td><td>")
    parts.append(f"<h1>{html.escape(title)}</h1>")
    if rng.random() < 0.6:
        parts.append(f"<p>{rng.choice(CLUBS)}, {_date(rng)}</p>")
    for table in tables:
        if table.caption:
            parts.append(f"<h3>{html.escape(table.caption)}</h3>")
        parts.append("<table border='1' cellpadding='2'>")
        cell = rng.choice(("th", "td"))
        for row in table.head:
            parts.append("<tr>" + "".join(f"<{cell}>{html.escape(c)}</{cell}>" for c in row)
                         + "</tr>")
        for row in table.rows:
            parts.append("<tr>" + "".join(
                f"<td>{html.escape(c).replace(chr(10), '<br>')}</td>" for c in row) + "</tr>")
        parts.append("</table>")
        if rng.random() < 0.4:
            parts.append("<p>Lorem ipsum: see you at the club on Tuesday.</p>")
    if layout:
        parts.append("</td></tr></table>")
    if mark and not mark.startswith("<meta"):
        parts.append(mark)
    parts.append("</body></html>")
    return "\n".join(parts).encode(encoding, errors="xmlcharrefreplace")


def _sheet_rows(rng: random.Random, title: str, tables: list[Table]) -> list[list[str]]:
    rows: list[list[str]] = []
    if rng.random() < 0.6:
        rows.append([title])
    if rng.random() < 0.5:
        rows.append([_date(rng)])
    for table in tables:
        if table.caption:
            rows.append([table.caption])
        rows.extend(table.head)
        rows.extend(table.rows)
        rows.append([])
    return rows


def _csv(rng: random.Random, lang: str, rows: list[list[str]]) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=rng.choice((",", ";", "\t")), lineterminator="\r\n")
    writer.writerows(rows)
    encoding = rng.choice(("utf-8", "utf-8-sig", "cp1250")) if lang in (
        "sk", "cz", "pl", "hu") else "utf-8"
    return buf.getvalue().encode(encoding, errors="replace")


def _fixed_zip(data: bytes) -> bytes:
    """The same archive with every member dated 1 January 2020: the same input, the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2020, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_STORED if info.filename == "mimetype" \
                else zipfile.ZIP_DEFLATED
            content = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                content = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2020-01-01T00:00:00Z",
                                 content)
            target.writestr(fixed, content)
    return out.getvalue()


def _cell_value(text: str) -> object:
    if text.isdigit() and len(text) < 10:
        return int(text)
    return text


def _xlsx(title: str, rows: list[list[str]]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title[:30].replace("/", " ").replace(":", " ") or "Sheet1"
    for row in rows:
        sheet.append([_cell_value(c) for c in row])
    book.properties.created = dt.datetime(2020, 1, 1)
    out = io.BytesIO()
    book.save(out)
    return _fixed_zip(out.getvalue())


_ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" manifest:media-type='
    '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
    'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
)


def _ods(title: str, rows: list[list[str]]) -> bytes:
    """A minimal OpenDocument spreadsheet (mimetype, manifest, content), numbers as floats."""
    cells_xml = []
    for row in rows:
        cells = []
        for text in row:
            value = _cell_value(text)
            kind = f'office:value-type="float" office:value="{value}"' \
                if isinstance(value, int) else 'office:value-type="string"'
            cells.append(f"<table:table-cell {kind}><text:p>{html.escape(text)}</text:p>"
                         "</table:table-cell>")
        cells_xml.append("<table:table-row>" + "".join(cells or ["<table:table-cell/>"])
                         + "</table:table-row>")
    name = html.escape(title[:30].replace("/", " ") or "Sheet1", quote=True)
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="{name}">'
        + "".join(cells_xml) + "</table:table></office:spreadsheet></office:body>"
        "</office:document-content>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for member, text, method in (
                ("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED),
                ("META-INF/manifest.xml", _ODS_MANIFEST, zipfile.ZIP_DEFLATED),
                ("content.xml", content, zipfile.ZIP_DEFLATED)):
            info = zipfile.ZipInfo(member, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = method
            archive.writestr(info, text.encode("utf-8"))
    return out.getvalue()


_PROGRAM_CSV = (
    ("No.", "User", "Result"), ("Rank", "Name", "Score (%)", "Section"),
    ("Place", "Handle", "Percent"),
)


def _program_csv(rng: random.Random, lang: str) -> list[list[str]]:
    """An export of an online platform: BBO's ``User``/``#1234 Pairs`` or RealBridge's name."""
    header = list(rng.choice(_PROGRAM_CSV))
    rows: list[list[str]] = []
    if rng.random() < 0.5:
        rows += [["Title", f"#{rng.randint(1000, 99999)} Pairs {rng.choice(CLUBS)}"],
                 ["Host", "clubtd"]]
    elif header[1] != "User" and header[1] != "Handle":
        rows += [[f"RealBridge {W[lang]['results']}", _date(rng)]]
    rows.append(header)
    for i, s in enumerate(_falling(rng, rng.randint(6, 24), 7000), 1):
        rows.append([str(i), _person(rng, lang).replace(" ", "_").lower(), f"{s / 100:.2f}"]
                    + (["1 N/S"] if len(header) == 4 else []))
    return rows


def corpus(count: int = 1020, seed: int = 2026) -> Iterator[tuple[str, bytes]]:
    """``count`` pages and sheets that are not result lists (see the module docstring)."""
    rng = random.Random(seed)
    for i in range(count):
        lang = LANGS[i % len(LANGS)]
        kind = KINDS[i % len(KINDS)]
        w = W[lang]
        title = rng.choice((w["news"], w["title"], w["event"], w["results"], "")) + \
            f" {rng.randint(1, 52)}/{rng.randint(2005, 2025)}"
        stem = f"{kind.__name__.replace('_', '-')}-{lang}-{i:04d}"
        container = rng.random()
        mark = rng.choice(PROGRAM_FOOTERS) if kind is program_results else ""
        if kind is program_results and container >= 0.6:
            rows = _program_csv(rng, lang)
            if container < 0.85:
                yield f"{stem}.csv", _csv(rng, lang, rows)
            else:
                yield f"{stem}.xlsx", _xlsx("Results", rows)
            continue
        if container < 0.6:
            tables = [t for _ in range(rng.choice((1, 1, 1, 2, 3))) for t in kind(rng, lang)]
            yield f"{stem}.html", _html(rng, lang, title.strip(), tables, mark)
            continue
        rows = _sheet_rows(rng, title.strip(), kind(rng, lang))
        if container < 0.82:
            yield f"{stem}.csv", _csv(rng, lang, rows)
        elif container < 0.93:
            yield f"{stem}.xlsx", _xlsx(title.strip() or "Sheet1", rows)
        else:
            yield f"{stem}.ods", _ods(title.strip() or "Sheet1", rows)

# --- plain pages and sheets -------------------------------------------------------------------
# A second, simpler family kept case for case from the first corpus of the generic readers: one
# header row per table, utf-8 only, HTML (most), CSV and xlsx; the kinds of its own (Butler
# boards, movement cards with names, football tables) and its layouts are not in ``corpus``.
# ``plain_corpus(n)`` yields ``(name, bytes)`` named ``<kind>-<i>.<suffix>``; the same ``n``
# gives the same files.


_PLAIN_CARDS = "AKQJT98765432"
_PLAIN_FIRST = ("Ján", "Peter", "Eva", "Zuzana", "Piotr", "Anna", "Tomasz", "Ewa", "János",
                "Katalin", "Jiří", "Hana", "Hans", "Ute", "John", "Mary")
_PLAIN_LAST = ("Novák", "Kováč", "Horváthová", "Nowak", "Wójcik", "Kowalska", "Nagy", "Szabó",
               "Dvořák", "Svobodová", "Müller", "Schmidt", "Smith", "Jones", "Varga", "Tóth")
_PLAIN_CLUBS = ("BK Senec", "BK Modra", "KS Spójnia", "AZS Wrocław", "Budapest BC", "BK Praha",
                "Berliner BC", "Oxford BC")
_PLAIN_TEAMS = ("Arsenal", "Chelsea", "Slovan", "Sparta", "Legia", "Ferencváros", "Bayern", "Dukla",
                "Wisła", "Žilina", "Ajax", "Celtic")
_PLAIN_WORDS = {
    "en": {"name": "Name", "club": "Club", "no": "No.", "board": "Board", "contract": "Contract",
           "lead": "Lead", "result": "Result", "score": "Score", "pair": "Pair", "team": "Team",
           "date": "Date", "event": "Event", "venue": "Venue", "price": "Price", "time": "Time",
           "round": "Round", "table": "Table", "phone": "Phone", "points": "Pts",
           "pos": "Pos", "title": "Club news", "item": "Item"},
    "sk": {"name": "Meno", "club": "Klub", "no": "Č.", "board": "Rozdanie", "contract": "Záväzok",
           "lead": "Výnos", "result": "Výsledok", "score": "Skóre", "pair": "Pár", "team": "Tím",
           "date": "Dátum", "event": "Turnaj", "venue": "Miesto", "price": "Cena", "time": "Čas",
           "round": "Kolo", "table": "Stôl", "phone": "Telefón", "points": "Body",
           "pos": "Poradie", "title": "Novinky klubu", "item": "Položka"},
    "cz": {"name": "Jméno", "club": "Klub", "no": "Č.", "board": "Rozdání", "contract": "Závazek",
           "lead": "Výnos", "result": "Výsledek", "score": "Skóre", "pair": "Pár", "team": "Tým",
           "date": "Datum", "event": "Turnaj", "venue": "Místo", "price": "Cena", "time": "Čas",
           "round": "Kolo", "table": "Stůl", "phone": "Telefon", "points": "Body",
           "pos": "Pořadí", "title": "Zprávy klubu", "item": "Položka"},
    "pl": {"name": "Nazwisko", "club": "Klub", "no": "Lp.", "board": "Rozdanie",
           "contract": "Kontrakt", "lead": "Wist", "result": "Wynik", "score": "Zapis",
           "pair": "Para", "team": "Drużyna", "date": "Data", "event": "Turniej",
           "venue": "Miejsce gry", "price": "Cena", "time": "Godzina", "round": "Runda",
           "table": "Stół", "phone": "Telefon", "points": "Pkt", "pos": "Poz.",
           "title": "Aktualności", "item": "Pozycja"},
    "hu": {"name": "Név", "club": "Klub", "no": "Sz.", "board": "Leosztás", "contract": "Felvétel",
           "lead": "Kezdés", "result": "Eredmény", "score": "Írás", "pair": "Pár",
           "team": "Csapat", "date": "Dátum", "event": "Verseny", "venue": "Helyszín",
           "price": "Ár", "time": "Idő", "round": "Forduló", "table": "Asztal",
           "phone": "Telefon", "points": "Pont", "pos": "Hely", "title": "Klubhírek",
           "item": "Tétel"},
    "de": {"name": "Name", "club": "Verein", "no": "Nr.", "board": "Board", "contract": "Kontrakt",
           "lead": "Ausspiel", "result": "Ergebnis", "score": "Score", "pair": "Paar",
           "team": "Mannschaft", "date": "Datum", "event": "Turnier", "venue": "Ort",
           "price": "Preis", "time": "Zeit", "round": "Runde", "table": "Tisch",
           "phone": "Telefon", "points": "Punkte", "pos": "Platz", "title": "Vereinsnachrichten",
           "item": "Posten"},
}

PlainTable = tuple[list[str], list[list[str]]]
"""A header and its rows."""


def _plain_name(rng: random.Random) -> str:
    return f"{rng.choice(_PLAIN_FIRST)} {rng.choice(_PLAIN_LAST)}"


def _plain_hand(rng: random.Random) -> str:
    return " ".join(s + "".join(sorted(rng.sample(_PLAIN_CARDS, rng.randint(1, 5)),
                                       key=_PLAIN_CARDS.index)) for s in SUITS)


def _plain_contract(rng: random.Random) -> str:
    return f"{rng.randint(1, 7)}{rng.choice(('NT', 'S', 'H', 'D', 'C', '♠', '♥'))}" + rng.choice(
        ("", "X", "XX"))


def _plain_traveller(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = ["NS", "EW", w["contract"], "By", w["lead"], w["result"], "NS " + w["score"],
              "EW " + w["score"], "MP NS", "MP EW"]
    rows = []
    for _ in range(rng.randint(4, 14)):
        score = rng.choice((0, 50, 90, 110, 140, 420, 450, 620, 1430))
        ns = rng.random() < 0.5
        mp = rng.randint(0, 12)
        rows.append([str(rng.randint(1, 14)), str(rng.randint(1, 14)), _plain_contract(rng),
                     rng.choice("NSEW"), rng.choice(_PLAIN_CARDS) + rng.choice("SHDC"),
                     rng.choice(("=", "+1", "-1", "-2", "+2")), str(score) if ns else "",
                     "" if ns else str(score), str(mp), str(12 - mp)])
    return header, rows


def _plain_hand_record(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["board"], "Dealer", "Vul", "North", "East", "South", "West"]
    rows = [[str(b), rng.choice("NESW"), rng.choice(("None", "NS", "EW", "All")),
             _plain_hand(rng), _plain_hand(rng), _plain_hand(rng), _plain_hand(rng)]
            for b in range(1, rng.randint(4, 28))]
    return header, rows


def _plain_score_card(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["board"], "Vs", w["contract"], "By", w["result"], w["score"], "MP", "%"]
    rows = []
    for b in range(1, rng.randint(6, 27)):
        mp = rng.randint(0, 12)
        rows.append([str(b), str(rng.randint(1, 14)), _plain_contract(rng), rng.choice("NSEW"),
                     rng.choice(("=", "+1", "-1")), str(rng.choice((-100, 110, 420, -50))),
                     str(mp), f"{100 * mp / 12:.1f}"])
    return header, rows


def _plain_seating(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["round"], w["table"], "NS", "EW", w["board"]]
    rows = [[str(r), str(t), str(t), str((t + r) % 8 + 1), f"{2 * r - 1}-{2 * r}"]
            for r in range(1, 8) for t in range(1, rng.randint(3, 8))]
    return header, rows


def _plain_movement_names(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["table"], "NS", "EW"]
    rows = [[str(t), f"{_plain_name(rng)} - {_plain_name(rng)}",
             f"{_plain_name(rng)} - {_plain_name(rng)}"]
            for t in range(1, rng.randint(4, 10))]
    return header, rows


def _plain_registrations(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["no"], w["name"], w["club"], w["phone"]]
    rows = [[f"{i}.", _plain_name(rng), rng.choice(_PLAIN_CLUBS), f"+421 9{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)}"]
            for i in range(1, rng.randint(5, 30))]
    return header, rows


def _plain_members(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["name"], w["club"], "Email"]
    rows = []
    for _ in range(rng.randint(5, 40)):
        first, last = rng.choice(_PLAIN_FIRST), rng.choice(_PLAIN_LAST)
        rows.append([f"{first} {last}", rng.choice(_PLAIN_CLUBS), f"{last.lower()}@example.org"])
    return header, rows


def _plain_calendar(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["date"], w["time"], w["event"], w["venue"]]
    rows = [[f"{rng.randint(1, 28)}.{rng.randint(1, 12)}.20{rng.randint(10, 26)}",
             f"{rng.randint(17, 20)}:00", rng.choice(("Club pairs", "Teams league", "Simultan",
                                                      "Memoriál", "Grand Prix")),
             rng.choice(_PLAIN_CLUBS)] for _ in range(rng.randint(3, 15))]
    return header, rows


def _plain_prices(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["item"], w["price"]]
    items = ("Entry fee", "Members", "Juniors", "Coffee", "Bidding boxes", "Annual fee")
    return header, [[i, f"{rng.randint(2, 60)},00 €"] for i in items[:rng.randint(2, 6)]]


def _plain_league_other_sport(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["pos"], w["team"], "P", "W", "D", "L", "GF", "GA", w["points"]]
    teams = rng.sample(_PLAIN_TEAMS, rng.randint(6, 12))
    rows = []
    for pos, team in enumerate(teams, 1):
        won, drawn = rng.randint(0, 10), rng.randint(0, 5)
        rows.append([str(pos), team, "20", str(won), str(drawn), str(20 - won - drawn),
                     str(rng.randint(10, 50)), str(rng.randint(10, 50)),
                     str(3 * won + drawn)])
    rows.sort(key=lambda r: -int(r[-1]))
    return header, rows


def _plain_numbers(rng: random.Random, w: dict[str, str]) -> PlainTable:
    cols = rng.randint(3, 8)
    header = [str(c) for c in range(1, cols + 1)]
    return header, [[str(rng.randint(0, 99)) for _ in range(cols)]
                    for _ in range(rng.randint(3, 20))]


def _plain_butler_board(rng: random.Random, w: dict[str, str]) -> PlainTable:
    header = [w["pair"], w["contract"], w["result"], "IMP"]
    rows = [[f"{rng.randint(1, 12)}-{rng.randint(1, 12)}", _plain_contract(rng),
             rng.choice(("=", "+1", "-1")), str(rng.randint(-12, 12))] for _ in range(8)]
    return header, rows


_PLAIN_KINDS: tuple[Callable[[random.Random, dict[str, str]], PlainTable], ...] = (
    _plain_traveller, _plain_hand_record, _plain_score_card, _plain_seating,
    _plain_movement_names, _plain_registrations, _plain_members, _plain_calendar, _plain_prices,
    _plain_league_other_sport, _plain_numbers, _plain_butler_board,
)


def _plain_html(rng: random.Random, lang: str, title: str, tables: list[PlainTable]) -> bytes:
    parts = [f"<html lang='{lang}'><head><meta charset='utf-8'><title>{html.escape(title)}"
             "</title></head><body>", f"<h1>{html.escape(title)}</h1>"]
    if rng.random() < 0.5:
        parts.append(f"<p>{rng.choice(_PLAIN_CLUBS)}, {rng.randint(1, 28)}.{rng.randint(1, 12)}."
                     f"20{rng.randint(10, 26)}</p>")
    for header, rows in tables:
        parts.append("<table border='1'><tr>"
                     + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
        parts.append("</table><p>Lorem ipsum: see you at the club.</p>")
    parts.append("</body></html>")
    return "\n".join(parts).encode("utf-8")


def _plain_csv(rng: random.Random, title: str, table: PlainTable) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=rng.choice((",", ";")), lineterminator="\n")
    if rng.random() < 0.5:
        writer.writerow([title])
    writer.writerow(table[0])
    writer.writerows(table[1])
    return buf.getvalue().encode("utf-8")


def _plain_xlsx(title: str, table: PlainTable) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title[:30].replace("/", " ")
    sheet.append([title])
    sheet.append(table[0])
    for row in table[1]:
        sheet.append([int(c) if c.isdigit() else c for c in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def plain_corpus(count: int = 1200, seed: int = 7) -> Iterator[tuple[str, bytes]]:
    """``count`` files that are not result lists: HTML pages (most), CSV and xlsx sheets."""
    rng = random.Random(seed)
    for i in range(count):
        lang = rng.choice(tuple(_PLAIN_WORDS))
        w = _PLAIN_WORDS[lang]
        kind = _PLAIN_KINDS[i % len(_PLAIN_KINDS)]
        stem = f"{kind.__name__.removeprefix('_plain_')}-{i:04d}"
        title = f"{w['title']} {rng.randint(1, 52)}/20{rng.randint(10, 26)}"
        shape = rng.random()
        if shape < 0.7:
            tables = [kind(rng, w) for _ in range(rng.randint(1, 3))]
            yield f"{stem}.html", _plain_html(rng, lang, title, tables)
        elif shape < 0.92:
            yield f"{stem}.csv", _plain_csv(rng, title, kind(rng, w))
        else:
            yield f"{stem}.xlsx", _plain_xlsx(title, kind(rng, w))
