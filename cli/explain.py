"""``clubratings explain PLAYER``: why a player's rating is what it is (docs/rules/bridge-belo.md §13).

One line per event of the period with every factor and the event's share of the change, the
normalisations, the phantom's part (docs/rules/bridge-belo.md §10) when there is one, and a footer showing that the
shares add up to the change. ``--partners`` prints the partners view, ``--json`` the same data
as JSON. Plain aligned text: no terminal library needed.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._common import READ_WAIT, Exit, config_parent, fail, load_config, locked, wait_parent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_explain_commands", "explanation_json", "format_explanation", "format_partners",
           "format_startup"]

_TOLERANCE = 1e-6
"""Rating points below which a difference between the shares and the change is rounding."""


# --- plain text ----------------------------------------------------------------------------------

def _num(value: Any, spec: str) -> str:
    """``value`` formatted with ``spec``, or ``-`` when missing."""
    import pandas as pd

    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "-"
    return format(float(value), spec)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: set[int]) -> list[str]:
    """Columns padded to their widest cell; columns in ``left`` aligned left, others right."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) if i in left else c.rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


def _title(row: Any) -> str:
    title = str(row.title) if isinstance(row.title, str) else f"event {row.event_id}"
    if isinstance(row.section, str) and row.section:
        title += f" ({row.section})"
    return title


def _event_cells(row: Any) -> list[str]:
    """The first cells of an event's line: its date, its title and ``place/n``."""
    return [str(row.event_date)[:10] if row.event_date is not None else "-", _title(row),
            f"{row.place:g}/{row.n}"]


def format_explanation(ex: Any) -> list[str]:
    """The lines ``clubratings explain`` prints for an :class:`warehouse.explain.Explanation`."""
    lines = [
        (f"player {ex.player_id} {ex.name}, pool {ex.pool}, rating run {ex.run_id} "
         f"({ex.scheme}, period_combine={ex.period_combine}, H={ex.history:g}), "
         f"period {ex.period}"),
        f"rating {ex.rating_before:.1f} -> {ex.rating:.1f} ({ex.change:+.1f})",
        "",
    ]
    with_phantom = bool(ex.rows["phantom_r_prime"].notna().any() |
                        ex.rows["phantom_share"].notna().any())
    header = ["date", "event", "place/n", "r", "field", "partner", "weight", "norm", "r'",
              "share"]
    if with_phantom:
        header += ["phantom r'", "phantom share"]
    header.append("note")
    body = []
    for row in ex.rows.itertuples(index=False):
        cells = [
            *_event_cells(row),
            _num(row.r, ".1f"),
            _num(row.field_factor, ".3f"),
            _num(row.partner_factor, ".3f"),
            _num(row.weight, ".2f"),
            _num(row.norm_factor, ".4f"),
            _num(row.r_prime, ".1f"),
            _num(row.share, "+.1f"),
        ]
        if with_phantom:
            cells += [_num(row.phantom_r_prime, ".1f"), _num(row.phantom_share, "+.1f")]
        cells.append("" if row.counted else f"not counted: {row.reason}")
        body.append(cells)
    lines += _table(header, body, left={0, 1, len(header) - 1})
    lines.append("")
    counted = int(ex.rows["counted"].sum())
    lines.append(
        f"{counted} of {len(ex.rows)} event(s) counted; the shares sum to {ex.shares_sum:+.1f}: "
        f"{ex.rating_before:.1f} {ex.shares_sum:+.1f} = {ex.combined:.1f}"
        + ("" if ex.normalised or ex.retired else ", the change of the period")
    )
    if ex.phantom is not None:
        p = ex.phantom
        lines.append(f"phantom ({p.state}, {p.events} event(s) left): starts the period at "
                     f"{_num(p.rating_before, '.1f')}"
                     + ("" if ex.phantom_combined is None
                        else f", its shares sum to {ex.phantom_combined - p.rating_before:+.1f}"))
        if ex.retired and ex.phantom_combined is not None:
            # docs/rules/bridge-belo.md §10: after the newcomer's last phantom event the two ratings are averaged.
            lines.append(f"phantom retired: the rating becomes the mean of {ex.combined:.1f} "
                         f"and {ex.phantom_combined:.1f} = {ex.before_normalisation:.1f}")
    if ex.normalised:
        # docs/rules/bridge-belo.md §9, periodic normalisation: every rating is multiplied by one factor.
        lines.append(
            f"periodic normalisation x{ex.periodic_factor:.6f}: {ex.before_normalisation:.1f} "
            f"-> {ex.before_normalisation * ex.periodic_factor:.1f}"
        )
    rest = ex.rating - ex.before_normalisation * ex.periodic_factor
    if abs(rest) > _TOLERANCE:
        lines.append(f"{rest:+.1f} from outside this period's events")
    return lines


def format_partners(player_id: int, name: str, run_id: int, frame: pd.DataFrame) -> list[str]:
    """The partners table (docs/rules/bridge-belo.md §13, "Partneri")."""
    lines = [f"player {player_id} {name}, rating run {run_id}: partners"]
    if frame.empty:
        return [*lines, "no counted events with a partner"]
    body = [
        [str(r.partner_id), str(r.name), str(r.events), _num(r.mean_r_prime, ".1f"),
         f"{r.first_period}..{r.last_period}"]
        for r in frame.itertuples(index=False)
    ]
    return lines + _table(["id", "partner", "events", "mean r'", "periods"], body, left={1, 4})


# --- JSON ----------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A JSON-ready value: NaN as null, numpy scalars as Python numbers, dates as ISO text."""
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "isoformat"):
        return value.isoformat()[:10]
    return value


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in rec.items()} for rec in frame.to_dict("records")]


def explanation_json(ex: Any) -> dict[str, Any]:
    """The data of :func:`format_explanation` as a JSON-ready dict."""
    return {
        "player_id": ex.player_id, "name": ex.name, "pool": ex.pool, "run_id": ex.run_id,
        "scheme": ex.scheme, "period_combine": ex.period_combine, "history": ex.history,
        "period": ex.period, "periods": list(ex.periods),
        "rating_before": _plain(ex.rating_before), "rating": _plain(ex.rating),
        "change": _plain(ex.change), "shares_sum": _plain(ex.shares_sum),
        "combined": _plain(ex.combined),
        "phantom_combined": _plain(ex.phantom_combined),
        "rating_before_normalisation": _plain(ex.before_normalisation),
        "periodic_factor": ex.periodic_factor, "normalised": ex.normalised,
        "phantom": None if ex.phantom is None else {
            "rating_before": _plain(ex.phantom.rating_before),
            "rating": _plain(ex.phantom.rating),
            "events": ex.phantom.events, "state": ex.phantom.state,
        },
        "events": _records(ex.rows),
    }


# --- go and preferans: game by game -------------------------------------------------------------

def format_games(gx: Any) -> list[str]:
    """The lines ``clubratings explain`` prints for a go or preferans player
    (:class:`warehouse.explain.GameExplanation`): every game with the expected result, the
    actual one and the change it brought, and a footer comparing their sum with the change."""
    from games import game

    change = gx.rating - gx.rating_before
    lines = [f"player {gx.player_id} {gx.name}, pool {gx.pool}, rating run {gx.run_id} "
             f"({gx.scheme}), period {gx.period}",
             f"rating {gx.rating_before:.1f} -> {gx.rating:.1f} ({change:+.1f})",
             _go_start(gx) if game(gx.game).graded else ""]
    if game(gx.game).per_game:
        results = {1.0: "win", 0.0: "loss", 0.5: "jigo"}
        rows = [[str(r.opponent), "black" if r.colour == "b" else "white", str(int(r.handicap)),
                 _num(r.expected, ".2f"), results.get(float(r.result), _num(r.result, ".1f")),
                 _num(r.change, "+.1f")] for r in gx.rows.itertuples(index=False)]
        lines += _table(["opponent", "colour", "handicap", "expected", "result", "change"],
                        rows, {0, 1, 4})
    else:
        rows = [[str(r.date)[:10], str(r.game), str(int(r.segment)), str(int(r.deals)),
                 _num(r.table_rating, ".1f"), _num(r.vists, "+.1f"), _num(r.change, "+.1f")]
                for r in gx.rows.itertuples(index=False)]
        lines += _table(["date", "game", "segment", "deals", "table rating", "vists",
                         "change"], rows, {0, 1})
        lines.append("")
        lines.append("table rating: the mean rating of the players at the table, what the "
                     "vists are measured against")
    total = float(gx.rows["change"].sum()) if "change" in gx.rows and len(gx.rows) else 0.0
    if not math.isnan(total) and gx.rows["change"].notna().all():
        lines.append(f"sum of the games' changes {total:+.1f}; the rating moved {change:+.1f}"
                     + ("" if abs(total - change) < 0.05 else
                        " (the rest: the first rating of a newcomer, or the period's "
                        "adjustments; docs/rules)"))
    return lines


def _go_start(gx: Any) -> str:
    """One line on what a go player's period started from (docs/rules/go-rfg.md "First
    entry"): newcomer or not, the grade declared and its rating, the deviation before and after
    and the RFG ``K`` every game's change is made of."""
    from ratings import SCHEMES
    from ratings._go import grade_rating

    parts: list[str] = []
    best = max(gx.grades, key=grade_rating) if gx.grades else None
    declared = f"{best} = {grade_rating(best):.1f}" if best else ""
    if gx.entry and best and abs(grade_rating(best) - gx.rating_before) < 0.05:
        parts.append(f"new: starts at the grade declared, {declared}")
    elif gx.entry:
        from_games = gx.scheme in SCHEMES and SCHEMES[gx.scheme].entry_from_games
        source = ("the rating its games against rated players give" if from_games
                  else "the scheme's default")
        parts.append(f"new: starts at {source} "
                     + (f"(declared {declared})" if best else "(no grade declared)"))
    elif best:
        parts.append(f"declared {declared}")
    if not math.isnan(gx.grade_pull) and best:
        # docs/rules/go-grades.md "A grade is a reading": pull = k (G - listed)
        gap = grade_rating(best) - gx.listed
        weight = f" (weight k {gx.grade_pull / gap:.2f})" if abs(gap) > 0.05 else ""
        parts.append(f"the grade pulled the list's {gx.listed:.1f} by {gx.grade_pull:+.1f}"
                     f"{weight} before the games")
    if not math.isnan(gx.deviation_before):
        star = " = S* = (3000 - R) / 4" if gx.entry else ""
        parts.append(f"deviation S {gx.deviation_before:.1f}{star} -> {gx.deviation:.1f}")
    if not math.isnan(gx.k):
        parts.append(f"K {gx.k:.1f}: a game's change is K B (result - expected), "
                     "B the opponent's weight (--json)")
    return "; ".join(parts)


def _games_json(gx: Any) -> dict[str, object]:
    from games import game

    out = {"player_id": gx.player_id, "name": gx.name, "pool": gx.pool, "run_id": gx.run_id,
           "scheme": gx.scheme, "period": gx.period, "periods": list(gx.periods),
           "rating_before": gx.rating_before, "rating": gx.rating,
           "games": _records(gx.rows)}
    if game(gx.game).graded:
        out |= {"entry": gx.entry, "grades": list(gx.grades),
                "deviation_before": None if math.isnan(gx.deviation_before)
                else gx.deviation_before,
                "deviation": None if math.isnan(gx.deviation) else gx.deviation,
                "k": None if math.isnan(gx.k) else gx.k,
                "listed": None if math.isnan(gx.listed) else gx.listed,
                "grade_pull": None if math.isnan(gx.grade_pull) else gx.grade_pull}
    return out


# --- the command ---------------------------------------------------------------------------------

def format_whole_history(ex: Any) -> list[str]:
    """The lines ``clubratings explain`` prints for a whole-history run (docs/rules/bridge-whr.md
    §10): every event of the period with the place the fit expected and the points it moved."""
    lines = [
        (f"player {ex.player_id} {ex.name}, pool {ex.pool}, rating run {ex.run_id} "
         f"({ex.scheme}, whole-history fit), period {ex.period}"),
        (f"rating {ex.rating:.1f} ± {ex.deviation:.1f} (previous period's estimate "
         f"{ex.rating_before:.1f}, {ex.change:+.1f})"),
        "",
    ]
    header = ["date", "event", "place/n", "expected", "weight", "pull", "moved", "note"]
    body = []
    for row in ex.rows.itertuples(index=False):
        body.append([
            *_event_cells(row),
            _num(row.expected, ".1f"),
            _num(row.weight, ".2f"),
            _num(row.gradient, "+.3f"),
            _num(row.moved, "+.1f"),
            "" if row.counted else str(row.reason),
        ])
    lines += _table(header, body, left={1, 7})
    lines += [
        "",
        "expected: the place the fitted strengths gave the unit; pull: the event's slope of "
        "the log-likelihood on the player's strength (positive: better than expected); moved: "
        "the rating points the estimate would lose without the event (docs/rules/bridge-whr.md "
        "§10). The fit uses every period at once, so later results move this period too.",
    ]
    return lines


def format_startup(pool: str, run_id: int, scheme: str, options: dict[str, str],
                   passes: pd.DataFrame) -> list[str]:
    """The lines ``clubratings explain --startup`` prints (docs/rules/bridge-belo.md §11)."""
    method = options.get("startup_method", "accelerated")
    head = (f"pool {pool}, rating run {run_id} ({scheme}), cut-over "
            f"{options.get('cutover') or '-'}, start-up {method}, tolerance "
            f"{options.get('startup_tolerance', '0.5')}, max_passes {options.get('max_passes', '10')}")
    if passes.empty:
        return [head, "no start-up passes: the run has no cut-over (docs/rules/bridge-belo.md §11)"]
    rows = [[str(int(r.pass_)), f"{r.max_change:.3f}", f"{r.mean_before_normalisation:.2f}"]
            for r in passes.rename(columns={"pass": "pass_"}).itertuples(index=False)]
    last = passes.iloc[-1]
    tolerance = float(options.get("startup_tolerance", "0.5"))
    verdict = (f"converged: largest change {last['max_change']:.3f} < {tolerance:g} after "
               f"{len(passes)} pass(es)" if last["max_change"] < tolerance else
               f"stopped by max_passes: largest change {last['max_change']:.3f} is not below "
               f"{tolerance:g}")
    return [head, "", *_table(["pass", "largest change", "mean before normalising"], rows,
                              set()), "", verdict]


def _whole_history_json(wx: Any) -> dict[str, object]:
    return {
        "player_id": wx.player_id, "name": wx.name, "pool": wx.pool, "run_id": wx.run_id,
        "scheme": wx.scheme, "period": wx.period, "periods": list(wx.periods),
        "rating_before": _plain(wx.rating_before), "rating": _plain(wx.rating),
        "deviation": _plain(wx.deviation), "events": _records(wx.rows),
    }


def cmd_explain(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    with locked(args, cfg, reader=True, project=False):
        return _explain(args, cfg)


def _explain(args: argparse.Namespace, cfg: Any) -> int:
    from games import game
    from ratings import SCHEMES
    from warehouse import latest_run, open_warehouse
    from warehouse.explain import (
        ExplainError,
        explain_games,
        explain_player,
        explain_whole_history,
        find_player,
        partners,
        player_name,
        pool_of,
        startup_passes,
    )

    pools = [p.name for p in cfg.pools]
    games = {p.name: p.game for p in cfg.pools}
    if args.player is None and not args.startup:
        fail("explain: name a PLAYER, or give --startup for the start-up passes")
    with open_warehouse(cfg.warehouse) as wh:
        try:
            if args.startup:
                pool = args.pool or (pools[0] if pools else "bridge")
                run_id, scheme, options, passes = startup_passes(wh, pool)
                if args.json:
                    print(json.dumps({"pool": pool, "run_id": run_id, "scheme": scheme,
                                      "options": options, "passes": _records(passes)},
                                     ensure_ascii=False, indent=2))
                else:
                    print("\n".join(format_startup(pool, run_id, scheme, options, passes)))
                return Exit.OK
            player = find_player(wh, args.player)
            # the pool asked for, else the first whose list rated the player
            pool = args.pool or pool_of(wh, player, pools) or (pools[0] if pools else "bridge")
            if pool in games and not game(games[pool]).placements and not args.partners:
                gx = explain_games(wh, player, pool=pool, period=args.period)
                if args.json:
                    print(json.dumps(_games_json(gx), ensure_ascii=False, indent=2))
                else:
                    print("\n".join(format_games(gx)))
                return Exit.OK
            if args.partners:
                frame = partners(wh, player, pool=pool)
                run = latest_run(wh, pool)
                assert run is not None  # partners() said so otherwise
                name = player_name(wh, player)
                if args.json:
                    print(json.dumps({"player_id": player, "name": name, "run_id": run.run_id,
                                      "partners": _records(frame)},
                                     ensure_ascii=False, indent=2))
                else:
                    print("\n".join(format_partners(player, name, run.run_id, frame)))
                return Exit.OK
            run = latest_run(wh, pool)
            if run is not None and run.scheme in SCHEMES \
                    and SCHEMES[run.scheme].whole_history:
                wx = explain_whole_history(wh, player, pool=pool, period=args.period)
                if args.json:
                    print(json.dumps(_whole_history_json(wx), ensure_ascii=False, indent=2))
                else:
                    print("\n".join(format_whole_history(wx)))
                return Exit.OK
            ex = explain_player(wh, player, pool=pool, period=args.period)
        except ExplainError as exc:
            fail(str(exc))
    if args.json:
        print(json.dumps(explanation_json(ex), ensure_ascii=False, indent=2))
    else:
        print("\n".join(format_explanation(ex)))
    return Exit.OK


def add_explain_commands(sub: Any) -> None:
    """Register ``explain`` on the CLI's sub-parsers: it only reads, so it waits for a run in
    progress (``--wait``, default :data:`cli._common.READ_WAIT`)."""
    p = sub.add_parser(
        "explain", parents=[config_parent(), wait_parent(READ_WAIT)],
        help="explain a player's rating: every event or game of a period and what it changed",
        description="For one player and one rating period of the pool's latest run. Bridge: "
        "place, n, r, field and partner factors, weight, normalisation, r' and the share of "
        "the change of every event (docs/rules/bridge-belo.md §13). Go: every game with the "
        "opponent, colour, handicap, expected and actual result and the change. Preferans: "
        "every game segment with the table's mean rating, the vists and the change. PLAYER "
        "is a player id or a name (accents and word order ignored, a surname alone when "
        "only one player has it).",
    )
    p.add_argument("player", metavar="PLAYER", nargs="?", help="player id or name")
    p.add_argument("--period", metavar="PERIOD",
                   help="e.g. 2013Q4 (default: the player's latest period with events)")
    p.add_argument("--pool", metavar="NAME",
                   help="rating list (default: the first pool of the configuration whose "
                   "list rated the player)")
    p.add_argument("--partners", action="store_true",
                   help="the partners view instead: counted events together and mean r' per "
                   "partner over all periods of the run")
    p.add_argument("--startup", action="store_true",
                   help="the start-up passes of the pool's latest run instead (no PLAYER): "
                   "the largest change per pass (docs/rules/bridge-belo.md §11)")
    p.add_argument("--json", action="store_true", help="print the same data as JSON")
    p.set_defaults(func=cmd_explain)
