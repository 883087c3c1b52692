"""Which movement ranks pairs most fairly: the tournament-fairness simulator.

docs/rules/simulation.md, "Pair model" and "Movements compared" (seed 004, post of 10 March 2012).
Twelve pairs of known strength play many simulated matchpoint tournaments under each *setup*
(a movement with its first-round seating); every final ranking is scored by KN, LN and KN-
against the strength order (:mod:`quality.metrics`).

Everything is vectorised over tournaments: arrays have a leading tournament axis ``T``; pairs
are numbered ``0..11`` inside (pair 1 of the spec is index 0, the best). All setups of one run
play *the same boards*: a pair's performance on board ``b`` of tournament ``t`` is drawn once
and every setup uses the first boards it needs (the seed: "tie isté rozdania"), so setups are
compared tournament by tournament.

Decisions the spec leaves open are written down in docs/movements.md.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from quality.metrics import kn_max, pairwise_fairer, places, unfairness_arrays

__all__ = [
    "DEFAULT_SETUPS",
    "FIELDS",
    "PAIRS",
    "SEATINGS",
    "SETUPS",
    "TIES",
    "MovementReport",
    "Played",
    "Setup",
    "SetupResult",
    "draw_performance",
    "final_places",
    "format_movements",
    "howell_schedule",
    "matchpoints",
    "play",
    "reseat",
    "simulate_movements",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

PAIRS = 12
TABLES = PAIRS // 2

# docs/rules/simulation.md, "Pair model": error rates c (performance 100 - U[0, c]) for the standard
# and the strong field; "early" is the first model of the seed, performance U[0, V].
FIELDS: dict[str, tuple[str, tuple[float, ...]]] = {
    "standard": ("error", tuple(float(c) for c in range(30, 90, 5))),
    "strong": ("error", tuple(float(c) for c in range(10, 70, 5))),
    "early": ("ceiling", tuple(float(v) for v in range(100, 40, -5))),
}

# docs/rules/simulation.md, "Movements compared": first-round seatings, (NS, EW) with pair numbers 1..12.
SEATINGS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)),
    2: ((1, 2), (4, 3), (5, 6), (8, 7), (9, 10), (12, 11)),
    3: ((1, 7), (2, 8), (3, 9), (4, 10), (5, 11), (6, 12)),
    4: ((1, 7), (8, 2), (3, 9), (10, 4), (5, 11), (12, 6)),
    5: ((1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)),
    6: ((1, 12), (11, 2), (3, 10), (9, 4), (5, 8), (7, 6)),
}
RANDOM = 0  # seating number meaning "random first round / random pair numbers"

# How ties in the final ranking become places (docs/movements.md, "Ties").
TIES = ("average", "random", "number")


@dataclass(frozen=True)
class Setup:
    """A movement and its first-round seating (``seating`` 1..6 or ``RANDOM``)."""

    name: str
    movement: str  # "barometer" | "howell" | "mitchell"
    seating: int
    rounds: int
    boards_per_round: int
    description: str

    @property
    def boards(self) -> int:
        """Boards each pair plays (every table plays the same boards in a round)."""
        return self.rounds * self.boards_per_round


def _setups() -> dict[str, Setup]:
    """The seed's setups: barometer B1-B7, Howell H and H3, Mitchell M1-M5."""
    found: list[Setup] = []
    for number in (1, 2, 3, 4, 5, 6):
        text = ", ".join(f"{a}-{b}" for a, b in SEATINGS[number][:3]) + ", ..."
        found.append(Setup(f"B{number}", "barometer", number, 7, 4, f"barometer 7x4, {text}"))
    found.append(Setup("B7", "barometer", RANDOM, 7, 4, "barometer 7x4, random first round"))
    found.append(Setup("H", "howell", RANDOM, 11, 2, "Howell 11x2, random numbers"))
    found.append(Setup("H3", "howell", RANDOM, 11, 3, "Howell 11x3, random numbers"))
    for number in (1, 2, 3, 4):
        text = ", ".join(f"{a}-{b}" for a, b in SEATINGS[number][:3]) + ", ..."
        found.append(Setup(f"M{number}", "mitchell", number, 6, 4, f"Mitchell 6x4, {text}"))
    found.append(Setup("M5", "mitchell", RANDOM, 6, 4, "Mitchell 6x4, random lines"))
    return {setup.name: setup for setup in found}


SETUPS: dict[str, Setup] = _setups()
DEFAULT_SETUPS: tuple[str, ...] = tuple(SETUPS)
_MAX_BOARDS = max(setup.boards for setup in SETUPS.values())


@dataclass(frozen=True)
class Played:
    """Who sat where in every round, and the final matchpoint totals.

    ``ns`` and ``ew`` are ``(T, rounds, tables)`` pair indices; ``scores`` is ``(T, pairs)``.
    """

    ns: IntArray
    ew: IntArray
    scores: FloatArray


@dataclass(frozen=True)
class SetupResult:
    """Unfairness of one setup over all simulated tournaments (arrays are per tournament)."""

    setup: Setup
    kn: FloatArray
    ln: FloatArray
    kn_minus: FloatArray
    mean_places: FloatArray  # average final place of each pair (seed, version 1.1)

    @property
    def mean_kn(self) -> float:
        """Mean quadratic unfairness."""
        return float(self.kn.mean())

    @property
    def skn(self) -> float:
        """Standard deviation of KN over the tournaments (population, ddof 0)."""
        return float(self.kn.std())

    @property
    def min_kn(self) -> float:
        """Smallest KN of any tournament."""
        return float(self.kn.min())

    @property
    def max_kn(self) -> float:
        """Largest KN of any tournament."""
        return float(self.kn.max())

    @property
    def mean_ln(self) -> float:
        """Mean linear unfairness."""
        return float(self.ln.mean())

    @property
    def sln(self) -> float:
        """Standard deviation of LN (population, ddof 0)."""
        return float(self.ln.std())

    @property
    def mean_kn_minus(self) -> float:
        """Mean negative quadratic unfairness."""
        return float(self.kn_minus.mean())

    @property
    def kn_percent(self) -> float:
        """Mean KN as a percentage of the KN of the reversed ranking."""
        return 100.0 * self.mean_kn / kn_max(self.mean_places.size)


@dataclass(frozen=True)
class MovementReport:
    """One run of the simulator: its parameters and a result per setup."""

    tournaments: int
    seed: int
    field: str
    ties: str
    results: tuple[SetupResult, ...]

    def result(self, name: str) -> SetupResult:
        """The result of the setup called ``name``."""
        for found in self.results:
            if found.setup.name == name:
                return found
        raise KeyError(f"no setup {name!r} in this report")

    def pairwise(self) -> FloatArray:
        """``[i, j]``: share of tournaments where setup ``i`` has a lower KN than ``j``."""
        size = len(self.results)
        matrix = np.full((size, size), np.nan)
        for i, row in enumerate(self.results):
            for j, column in enumerate(self.results):
                if i != j:
                    matrix[i, j] = pairwise_fairer(row.kn, column.kn)
        return matrix


def _rng(seed: int, stream: str) -> np.random.Generator:
    """An independent generator per purpose, so a setup's numbers do not depend on the others."""
    return np.random.default_rng([seed, zlib.crc32(stream.encode("ascii"))])


def draw_performance(
    tournaments: int, seed: int = 1, field: str = "standard", boards: int = _MAX_BOARDS
) -> FloatArray:
    """Performance of every pair on every board: ``(T, boards, pairs)``.

    docs/rules/simulation.md, "Pair model": error model ``100 - h``, ``h ~ U[0, c_i]``; the early
    model draws ``U[0, V_i]``. Boards are drawn for the longest setup, so every setup of one seed
    plays the same boards.
    """
    if field not in FIELDS:
        raise ValueError(f"unknown field {field!r}; choose one of {sorted(FIELDS)}")
    kind, values = FIELDS[field]
    spread = np.asarray(values)
    unit = _rng(seed, "boards").random((tournaments, boards, spread.size))
    if kind == "error":
        return 100.0 - unit * spread
    return unit * spread


def matchpoints(results: npt.ArrayLike) -> FloatArray:
    """NS matchpoints of each table on a board: 2 per NS result beaten, 1 per equal one.

    ``results`` has the tables on the last axis (NS minus EW performance); EW's matchpoints
    are ``2 * (tables - 1)`` minus NS's (docs/rules/simulation.md, "Pair model").
    """
    r = np.asarray(results, dtype=float)
    mine = r[..., :, None]
    theirs = r[..., None, :]
    # the comparison with itself counts as one "equal" and is taken off again
    return 2.0 * (mine > theirs).sum(axis=-1) + (mine == theirs).sum(axis=-1) - 1.0


def _play_round(boards: FloatArray, ns: IntArray, ew: IntArray) -> FloatArray:
    """Matchpoints of every pair on one round's ``boards`` ``(T, nb, pairs)``: ``(T, pairs)``."""
    tables = ns.shape[-1]
    result = np.take_along_axis(boards, ns[:, None, :], axis=2) - np.take_along_axis(
        boards, ew[:, None, :], axis=2
    )
    ns_mp = matchpoints(result).sum(axis=1)
    ew_mp = 2.0 * (tables - 1) * boards.shape[1] - ns_mp
    scores = np.zeros((boards.shape[0], boards.shape[2]))
    np.put_along_axis(scores, ns, ns_mp, axis=1)
    np.put_along_axis(scores, ew, ew_mp, axis=1)
    return scores


def reseat(scores: npt.ArrayLike, tiebreak: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Barometer seating by the current ranking: 1st (NS) vs 2nd (EW), 3rd vs 4th, ...

    Equal scores are ordered by ``tiebreak`` (lower first); the simulator passes random keys.
    """
    s = np.asarray(scores, dtype=float)
    order = np.lexsort((np.asarray(tiebreak, dtype=float), -s), axis=-1)
    return order[..., 0::2], order[..., 1::2]


def _seating(number: int, tournaments: int, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
    """First-round (or line) seating ``(T, tables)`` for NS and EW: a listed one or random."""
    if number == RANDOM:
        perm = rng.permuted(np.tile(np.arange(PAIRS), (tournaments, 1)), axis=1)
        return perm[:, 0::2], perm[:, 1::2]
    listed = np.asarray(SEATINGS[number], dtype=np.intp) - 1
    return (
        np.tile(listed[:, 0], (tournaments, 1)),
        np.tile(listed[:, 1], (tournaments, 1)),
    )


def howell_schedule(pairs: int = PAIRS) -> IntArray:
    """A complete Howell by the circle method: ``(pairs - 1, pairs // 2, 2)`` (NS, EW) numbers.

    Number ``pairs - 1`` stays put; the others rotate. Directions alternate so every number sits
    NS in about half of its rounds.
    """
    if pairs % 2 or pairs < 2:
        raise ValueError(f"a Howell needs an even number of pairs, not {pairs!r}")
    circle = pairs - 1
    rounds = []
    for r in range(circle):
        table = [(pairs - 1, r) if r % 2 else (r, pairs - 1)]
        for k in range(1, pairs // 2):
            a, b = (r + k) % circle, (r - k) % circle
            table.append((a, b) if k % 2 else (b, a))
        rounds.append(table)
    return np.asarray(rounds, dtype=np.intp)


def _seats(setup: Setup, tournaments: int, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
    """Fixed seatings of Howell and Mitchell for every round: ``(T, rounds, tables)`` each."""
    if setup.movement == "howell":
        schedule = howell_schedule()[: setup.rounds]
        numbers = rng.permuted(np.tile(np.arange(PAIRS), (tournaments, 1)), axis=1)
        return numbers[:, schedule[..., 0]], numbers[:, schedule[..., 1]]
    # Mitchell: NS stay at their table, EW move one table up each round (docs/movements.md)
    ns0, ew0 = _seating(setup.seating, tournaments, rng)
    tables = np.arange(TABLES)
    ew_index = (tables[None, :] - np.arange(setup.rounds)[:, None]) % TABLES
    return (
        np.repeat(ns0[:, None, :], setup.rounds, axis=1),
        ew0[:, ew_index],
    )


def play(setup: Setup, performance: FloatArray, rng: np.random.Generator) -> Played:
    """Play ``setup`` on ``performance`` ``(T, boards, pairs)``; the first boards are used."""
    tournaments = performance.shape[0]
    if performance.shape[1] < setup.boards:
        raise ValueError(f"{setup.name} needs {setup.boards} boards, got {performance.shape[1]}")
    if setup.movement == "barometer":
        ns, ew = _seating(setup.seating, tournaments, rng)
        fixed: tuple[IntArray, IntArray] | None = None
    else:
        fixed = _seats(setup, tournaments, rng)
    scores = np.zeros((tournaments, PAIRS))
    seen_ns, seen_ew = [], []
    per = setup.boards_per_round
    for r in range(setup.rounds):
        if fixed is not None:
            ns, ew = fixed[0][:, r], fixed[1][:, r]
        elif r > 0:
            # docs/rules/simulation.md, barometer: re-seated by the current ranking, ties at random
            ns, ew = reseat(scores, rng.random(scores.shape))
        seen_ns.append(ns)
        seen_ew.append(ew)
        scores = scores + _play_round(performance[:, r * per : (r + 1) * per], ns, ew)
    return Played(ns=np.stack(seen_ns, axis=1), ew=np.stack(seen_ew, axis=1), scores=scores)


def final_places(scores: FloatArray, ties: str, rng: np.random.Generator) -> FloatArray:
    """Final places ``(T, pairs)`` from matchpoint totals; ``ties`` as in docs/movements.md."""
    if ties == "average":
        return places(scores)
    if ties == "random":
        keys = rng.random(scores.shape)
    elif ties == "number":
        keys = np.broadcast_to(np.arange(scores.shape[-1], dtype=float), scores.shape)
    else:
        raise ValueError(f"unknown tie rule {ties!r}; choose one of {TIES}")
    order = np.lexsort((keys, -scores), axis=-1)
    result = np.empty(scores.shape)
    np.put_along_axis(result, order, np.arange(1.0, scores.shape[-1] + 1.0), axis=-1)
    return result


def simulate_movements(
    tournaments: int = 1000,
    seed: int = 1,
    field: str = "standard",
    setups: Sequence[str] | None = None,
    *,
    ties: str = "random",
) -> MovementReport:
    """Simulate ``tournaments`` tournaments of every setup and measure their unfairness.

    Same ``seed`` gives identical numbers; a setup's numbers do not depend on which other setups
    are run. The expected place of pair ``i`` is ``i`` (pair 1 strongest).
    """
    if tournaments < 1:
        raise ValueError(f"tournaments must be at least 1, not {tournaments!r}")
    names = tuple(setups) if setups is not None else DEFAULT_SETUPS
    unknown = [name for name in names if name not in SETUPS]
    if unknown:
        raise ValueError(f"unknown setups {unknown!r}; choose from {list(SETUPS)}")
    if ties not in TIES:
        raise ValueError(f"unknown tie rule {ties!r}; choose one of {TIES}")
    performance = draw_performance(tournaments, seed, field)
    expected = np.arange(1.0, PAIRS + 1.0)
    results = []
    for name in names:
        setup = SETUPS[name]
        rng = _rng(seed, name)
        played = play(setup, performance, rng)
        actual = final_places(played.scores, ties, rng)
        kn, ln, kn_minus = unfairness_arrays(actual, expected)
        results.append(SetupResult(setup, kn, ln, kn_minus, actual.mean(axis=0)))
    return MovementReport(tournaments, seed, field, ties, tuple(results))


def format_movements(report: MovementReport) -> str:
    """The unfairness table (one row per setup) and the pairwise "fairer than" matrix."""
    title = (
        f"{report.tournaments} tournaments, seed {report.seed}, field {report.field}, "
        f"ties {report.ties}"
    )
    header = (
        f"{'setup':<6} {'KN':>7} {'SKN':>7} {'minKN':>6} {'maxKN':>6} {'LN':>6} {'SLN':>5} "
        f"{'KN-':>6} {'KN%':>5}  description"
    )
    lines = [title, "", header]
    for r in report.results:
        lines.append(
            f"{r.setup.name:<6} {r.mean_kn:7.2f} {r.skn:7.2f} {r.min_kn:6.1f} {r.max_kn:6.1f} "
            f"{r.mean_ln:6.2f} {r.sln:5.2f} {r.mean_kn_minus:6.2f} {r.kn_percent:5.1f}  "
            f"{r.setup.description}"
        )
    names = [r.setup.name for r in report.results]
    lines += ["", "share of tournaments where the row setup has a lower KN than the column (%)"]
    lines.append(f"{'':<6}" + "".join(f"{name:>6}" for name in names))
    matrix = report.pairwise()
    for name, row in zip(names, matrix, strict=True):
        cells = "".join(
            f"{'-':>6}" if np.isnan(value) else f"{100.0 * value:6.1f}" for value in row
        )
        lines.append(f"{name:<6}" + cells)
    return "\n".join(lines) + "\n"
