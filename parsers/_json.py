"""The JSON form of a parse result, as ``clubratings parse`` prints it and golden files store it."""

from __future__ import annotations

from typing import Any

from ._model import Event, ParseResult, PlayerAsWritten, Unit

__all__ = ["result_to_json"]

# Game-specific event fields, written only when set so bridge output stays as documented.
_OPTIONAL_EVENT_FIELDS = (
    "end_date", "round", "parent", "handicap", "komi", "deals", "variant", "pulka", "segment",
)


def _player(p: PlayerAsWritten) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "federation_id": p.federation_id, "club": p.club}
    if p.initials:
        out["initials"] = True
    if p.handle:
        out["handle"] = True
    return out


def _unit(u: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {
        "place": u.place,
        "place_text": u.place_text,
        "label": u.label,
        "score": u.score,
        "players": [_player(p) for p in u.players],
    }
    if u.colour is not None:
        out["colour"] = u.colour
    return out


def _event(e: Event) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": e.format,
        "game": e.game,
        "title": e.title,
        "date": e.date.isoformat(),
        "kind": e.kind,
        "scoring": e.scoring,
        "boards": e.boards,
        "section": e.section,
        "organiser": e.organiser,
    }
    for name in _OPTIONAL_EVENT_FIELDS:
        value = getattr(e, name)
        if value not in (None, ""):
            out[name] = value.isoformat() if name == "end_date" else value
    out["units"] = [_unit(u) for u in e.units]
    return out


def result_to_json(result: ParseResult) -> dict[str, Any]:
    """``{"events": [...], "issues": [...]}`` with dates as ``YYYY-MM-DD``."""
    return {
        "events": [_event(e) for e in result.events],
        "issues": [
            {"level": i.level, "message": i.message, "where": i.where} for i in result.issues
        ],
    }
