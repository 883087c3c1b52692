"""A deterministic corpus of pages and sheets that are NOT result lists, for the generic readers.

What a club's website and a scorer's folder hold besides rankings: hand records, travellers,
personal score cards, seating and movement cards, registration and member lists, news pages with
a calendar, price lists, timetables, league tables of other sports, tables of numbers only. Each
comes in the languages the generic readers know (EN, SK, CZ, PL, HU, DE), as HTML and as
xlsx/ods/csv sheets. ``corpus(n)`` yields ``(name, bytes)``; the same ``n`` gives the same files.
"""

from __future__ import annotations

import csv
import html
import io
import random
from collections.abc import Callable, Iterator

__all__ = ["corpus"]

SUITS = ("♠", "♥", "♦", "♣")
CARDS = "AKQJT98765432"
FIRST = ("Ján", "Peter", "Eva", "Zuzana", "Piotr", "Anna", "Tomasz", "Ewa", "János", "Katalin",
         "Jiří", "Hana", "Hans", "Ute", "John", "Mary")
LAST = ("Novák", "Kováč", "Horváthová", "Nowak", "Wójcik", "Kowalska", "Nagy", "Szabó",
        "Dvořák", "Svobodová", "Müller", "Schmidt", "Smith", "Jones", "Varga", "Tóth")
CLUBS = ("BK Senec", "BK Modra", "KS Spójnia", "AZS Wrocław", "Budapest BC", "BK Praha",
         "Berliner BC", "Oxford BC")
TEAMS = ("Arsenal", "Chelsea", "Slovan", "Sparta", "Legia", "Ferencváros", "Bayern", "Dukla",
         "Wisła", "Žilina", "Ajax", "Celtic")
WORDS = {
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

Table = tuple[list[str], list[list[str]]]
"""A header and its rows."""


def _name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _hand(rng: random.Random) -> str:
    return " ".join(s + "".join(sorted(rng.sample(CARDS, rng.randint(1, 5)),
                                       key=CARDS.index)) for s in SUITS)


def _contract(rng: random.Random) -> str:
    return f"{rng.randint(1, 7)}{rng.choice(('NT', 'S', 'H', 'D', 'C', '♠', '♥'))}" + rng.choice(
        ("", "X", "XX"))


def _traveller(rng: random.Random, w: dict[str, str]) -> Table:
    header = ["NS", "EW", w["contract"], "By", w["lead"], w["result"], "NS " + w["score"],
              "EW " + w["score"], "MP NS", "MP EW"]
    rows = []
    for _ in range(rng.randint(4, 14)):
        score = rng.choice((0, 50, 90, 110, 140, 420, 450, 620, 1430))
        ns = rng.random() < 0.5
        mp = rng.randint(0, 12)
        rows.append([str(rng.randint(1, 14)), str(rng.randint(1, 14)), _contract(rng),
                     rng.choice("NSEW"), rng.choice(CARDS) + rng.choice("SHDC"),
                     rng.choice(("=", "+1", "-1", "-2", "+2")), str(score) if ns else "",
                     "" if ns else str(score), str(mp), str(12 - mp)])
    return header, rows


def _hand_record(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["board"], "Dealer", "Vul", "North", "East", "South", "West"]
    rows = [[str(b), rng.choice("NESW"), rng.choice(("None", "NS", "EW", "All")),
             _hand(rng), _hand(rng), _hand(rng), _hand(rng)] for b in range(1, rng.randint(4, 28))]
    return header, rows


def _score_card(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["board"], "Vs", w["contract"], "By", w["result"], w["score"], "MP", "%"]
    rows = []
    for b in range(1, rng.randint(6, 27)):
        mp = rng.randint(0, 12)
        rows.append([str(b), str(rng.randint(1, 14)), _contract(rng), rng.choice("NSEW"),
                     rng.choice(("=", "+1", "-1")), str(rng.choice((-100, 110, 420, -50))),
                     str(mp), f"{100 * mp / 12:.1f}"])
    return header, rows


def _seating(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["round"], w["table"], "NS", "EW", w["board"]]
    rows = [[str(r), str(t), str(t), str((t + r) % 8 + 1), f"{2 * r - 1}-{2 * r}"]
            for r in range(1, 8) for t in range(1, rng.randint(3, 8))]
    return header, rows


def _movement_names(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["table"], "NS", "EW"]
    rows = [[str(t), f"{_name(rng)} - {_name(rng)}", f"{_name(rng)} - {_name(rng)}"]
            for t in range(1, rng.randint(4, 10))]
    return header, rows


def _registrations(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["no"], w["name"], w["club"], w["phone"]]
    rows = [[f"{i}.", _name(rng), rng.choice(CLUBS), f"+421 9{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)}"]
            for i in range(1, rng.randint(5, 30))]
    return header, rows


def _members(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["name"], w["club"], "Email"]
    rows = []
    for _ in range(rng.randint(5, 40)):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        rows.append([f"{first} {last}", rng.choice(CLUBS), f"{last.lower()}@example.org"])
    return header, rows


def _calendar(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["date"], w["time"], w["event"], w["venue"]]
    rows = [[f"{rng.randint(1, 28)}.{rng.randint(1, 12)}.20{rng.randint(10, 26)}",
             f"{rng.randint(17, 20)}:00", rng.choice(("Club pairs", "Teams league", "Simultan",
                                                      "Memoriál", "Grand Prix")),
             rng.choice(CLUBS)] for _ in range(rng.randint(3, 15))]
    return header, rows


def _prices(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["item"], w["price"]]
    items = ("Entry fee", "Members", "Juniors", "Coffee", "Bidding boxes", "Annual fee")
    return header, [[i, f"{rng.randint(2, 60)},00 €"] for i in items[:rng.randint(2, 6)]]


def _league_other_sport(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["pos"], w["team"], "P", "W", "D", "L", "GF", "GA", w["points"]]
    teams = rng.sample(TEAMS, rng.randint(6, 12))
    rows = []
    for pos, team in enumerate(teams, 1):
        won, drawn = rng.randint(0, 10), rng.randint(0, 5)
        rows.append([str(pos), team, "20", str(won), str(drawn), str(20 - won - drawn),
                     str(rng.randint(10, 50)), str(rng.randint(10, 50)),
                     str(3 * won + drawn)])
    rows.sort(key=lambda r: -int(r[-1]))
    return header, rows


def _numbers(rng: random.Random, w: dict[str, str]) -> Table:
    cols = rng.randint(3, 8)
    header = [str(c) for c in range(1, cols + 1)]
    return header, [[str(rng.randint(0, 99)) for _ in range(cols)]
                    for _ in range(rng.randint(3, 20))]


def _butler_board(rng: random.Random, w: dict[str, str]) -> Table:
    header = [w["pair"], w["contract"], w["result"], "IMP"]
    rows = [[f"{rng.randint(1, 12)}-{rng.randint(1, 12)}", _contract(rng),
             rng.choice(("=", "+1", "-1")), str(rng.randint(-12, 12))] for _ in range(8)]
    return header, rows


KINDS: tuple[Callable[[random.Random, dict[str, str]], Table], ...] = (
    _traveller, _hand_record, _score_card, _seating, _movement_names, _registrations,
    _members, _calendar, _prices, _league_other_sport, _numbers, _butler_board,
)


def _html(rng: random.Random, lang: str, title: str, tables: list[Table]) -> bytes:
    parts = [f"<html lang='{lang}'><head><meta charset='utf-8'><title>{html.escape(title)}"
             "</title></head><body>", f"<h1>{html.escape(title)}</h1>"]
    if rng.random() < 0.5:
        parts.append(f"<p>{rng.choice(CLUBS)}, {rng.randint(1, 28)}.{rng.randint(1, 12)}."
                     f"20{rng.randint(10, 26)}</p>")
    for header, rows in tables:
        parts.append("<table border='1'><tr>"
                     + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
        parts.append("</table><p>Lorem ipsum: see you at the club.</p>")
    parts.append("</body></html>")
    return "\n".join(parts).encode("utf-8")


def _csv(rng: random.Random, title: str, table: Table) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=rng.choice((",", ";")), lineterminator="\n")
    if rng.random() < 0.5:
        writer.writerow([title])
    writer.writerow(table[0])
    writer.writerows(table[1])
    return buf.getvalue().encode("utf-8")


def _xlsx(title: str, table: Table) -> bytes:
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


def corpus(count: int = 1200, seed: int = 7) -> Iterator[tuple[str, bytes]]:
    """``count`` files that are not result lists: HTML pages (most), CSV and xlsx sheets."""
    rng = random.Random(seed)
    for i in range(count):
        lang = rng.choice(tuple(WORDS))
        w = WORDS[lang]
        kind = KINDS[i % len(KINDS)]
        title = f"{w['title']} {rng.randint(1, 52)}/20{rng.randint(10, 26)}"
        shape = rng.random()
        if shape < 0.7:
            tables = [kind(rng, w) for _ in range(rng.randint(1, 3))]
            yield f"{kind.__name__.strip('_')}-{i:04d}.html", _html(rng, lang, title, tables)
        elif shape < 0.92:
            yield f"{kind.__name__.strip('_')}-{i:04d}.csv", _csv(rng, title, kind(rng, w))
        else:
            yield f"{kind.__name__.strip('_')}-{i:04d}.xlsx", _xlsx(title, kind(rng, w))
