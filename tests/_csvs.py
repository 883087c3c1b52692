"""Small CSV-template files for tests (docs/csv-template.md)."""

from __future__ import annotations

HEADER = "organiser,event,date,kind,scoring,boards,unit,place,score,player,federation_id"


def club_event(
    date: str = "2013-10-03",
    title: str = "Club pairs",
    *,
    organiser: str = "Test Club",
    pairs: list[tuple[str, str]] | None = None,
    places: list[str] | None = None,
    boards: str = "24",
) -> str:
    """Rows of one pairs event: pairs in the order given finish 1st, 2nd, ... unless ``places``."""
    pairs = pairs or [
        ("Ján Novák", "Peter Kováč"), ("Eva Horváthová", "Mária Tóthová"),
        ("Jozef Varga", "Anna Nagyová"), ("Milan Baláž", "Zuzana Molnárová"),
    ]
    places = places or [str(i) for i in range(1, len(pairs) + 1)]
    rows = []
    for number, (pair, place) in enumerate(zip(pairs, places), 1):
        score = 60 - 3 * number
        for name in pair:
            rows.append(
                f"{organiser},{title},{date},pairs,MP,{boards},{number},{place},{score:.2f},{name},"
            )
    return "\n".join(rows)


def csv_file(*events: str) -> bytes:
    return ("\n".join([HEADER, *events]) + "\n").encode("utf-8")
