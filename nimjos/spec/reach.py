"""The game side of the resource guard: how far the positions reachable from a window extend (a move may carry
one coordinate's value into another), how many options a position has, what the engine that will answer
costs per position, and whether the moves lead away from the window for ever (a runaway).

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> swap = GameDecl.declare("swap", {"position": ["x", "y"], "moves": [{"to": "(y, x - t)", "where": "1 <= t <= x"}]},
...                         Namespace())
>>> load = game_load(swap.instance(()), [9, 0])  # y takes the values of x: 10 * 10 positions, not 10 * 1
>>> load.positions, load.runaway
(100, None)
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any

import nimjos.games.fast.boxes as boxes
import nimjos.games.fast.gcn as gcn
import nimjos.games.fast.lines as lines
import nimjos.games.fast.offsets as offsets
import nimjos.games.fast.pinned as pinned
import nimjos.games.fast.subtraction as subtraction
import nimjos.games.fast.weights as weights
from nimjos.games.declared import as_instance
from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import free_names
from nimjos.spec.limits import BYTES_PER_EDGE, BYTES_PER_POSITION, SECONDS_PER_EDGE, SECONDS_PER_POSITION
from nimjos.spec.survey import count_bindings

#: the probe for moves that lead away from the window: at most this many moves, options, and options per move
PROBE_STEPS = 2_000
PROBE_OPTIONS = 10_000
PROBE_DEGREE = 2_000
#: the positions are counted by exploring the moves from the window when the box of coordinates holds more than
#: REACH_BOX positions; the exploration stops (and the box stands) past REACH_POSITIONS positions or
#: REACH_EDGES options
REACH_BOX = 100_000
REACH_POSITIONS = 50_000
REACH_EDGES = 1_000_000


def instance_of(value: Any) -> Any:
    """The game instance a value stands for, or None when it is not a game.

    >>> from nimjos.games.declared import subtraction
    >>> instance_of(subtraction(frozenset({1, 2}))).dim, instance_of(7)
    (1, None)
    """
    try:
        return as_instance(value)
    except NimjosError:
        return None


def _coordinate_bounds(inst: Any, highs: list[int]) -> list[int]:
    """The largest value each coordinate can take among the positions reachable from a window whose
    coordinates reach `highs`: a declared move may carry one coordinate's value into another."""
    decl = getattr(inst, "decl", None)
    bounds = list(highs)
    if decl is None:
        return bounds
    coords = list(decl.position)
    feeds: list[set[int]] = [set() for _ in coords]
    for fam in decl.moves:
        parts = fam.to_tree.elts if isinstance(fam.to_tree, ast.Tuple) else [fam.to_tree]
        where_names = set(free_names(fam.binder.tree))
        for j, part in enumerate(parts[:len(coords)]):
            names = set(free_names(part))
            if names & set(fam.binder.names):
                names |= where_names
            feeds[j] |= {coords.index(n) for n in names if n in coords}
    for _ in coords:
        bounds = [max([bounds[j]] + [bounds[k] for k in feeds[j]]) for j in range(len(coords))]
    return bounds


def _degree(inst: Any, position: Any) -> int:
    """How many options a position has (estimated from the move families' bindings, without listing them)."""
    decl = getattr(inst, "decl", None)
    if decl is not None:
        env = dict(inst.params)
        values = position if isinstance(position, tuple) else (position,)
        env.update(zip(decl.position, values))
        total = 0
        for fam in decl.moves:
            try:
                total += count_bindings(fam.binder, env)[0]
            except NimjosError:
                total += 1
        return total
    coords = position if isinstance(position, tuple) else (position,)
    if inst.name == "subtraction":
        S = inst.params.get("S")
        if isinstance(S, (frozenset, set, tuple)):
            return sum(1 for s in S if type(s) is int and 1 <= s <= coords[0])
        return coords[0]
    if inst.name == "gcn":
        return sum(coords) + inst.params.get("h", 1) ** len(coords)
    return 1


def _engine_costs(inst: Any, box: list[int], outcomes: bool = False) -> tuple[int, int, bool]:
    """(bytes per position, bytes per edge, fast?) for the engine that will answer for this game (`outcomes`:
    only its P-positions are asked for)."""
    if outcomes and len(box) == 2 and weights.MIN_POSITIONS <= (box[0] + 1) * (box[1] + 1) <= weights.MAX_POSITIONS \
            and weights.shape_of(inst) is not None:
        return weights.BYTES_PER_POSITION, 0, True
    try:
        sides = [b + 1 for b in box]
        pieces = lines.plan(inst) or lines.plan(pinned.derived(inst, sides))
        if pieces:
            X, Y = (box[0] + 1, 1) if len(box) == 1 else (box[0] + 1, box[1] + 1)
            nbytes = lines.estimate(pieces, X, Y)[0]
            return max(1, nbytes // max(1, X * Y)), 0, True
        if (len(sides) == 1 and subtraction.fits(inst, sides[0])) or gcn.fits(inst, sides) \
                or offsets.fits(inst, sides):
            return boxes.BYTES_PER_POSITION, 0, True   # a table over the box, no game graph
    except (ImportError, AttributeError, TypeError, ValueError, NimjosError):
        pass
    return BYTES_PER_POSITION, BYTES_PER_EDGE, False


def reachable(inst: Any, starts: list, most: int = REACH_POSITIONS, edges: int = REACH_EDGES) -> tuple[int, int] | None:
    """(positions, options) reachable from `starts` (the window's positions), counted by following the moves;
    None when more than `most` positions or `edges` options are reachable (counts, not time), or a position
    cannot be evaluated (the check reports it).

    >>> from nimjos.games.declared import subtraction
    >>> reachable(subtraction(frozenset({2, 3})), [10, 4])
    (10, 15)
    >>> reachable(subtraction(frozenset({1})), [10 ** 6]) is None
    True
    """
    seen: set = set()
    stack = []
    try:
        for p in starts:
            stack.append(inst.normalise(p))
        options = 0
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            if len(seen) > most:
                return None
            opts = inst.options(p)
            options += len(opts)
            if options > edges:
                return None
            stack.extend(q for q in opts if q not in seen)
    except (NimjosError, TypeError, ValueError, ArithmeticError):
        return None
    return len(seen), options


@dataclass
class GameLoad:
    """What solving a game from a window costs (see :func:`game_load`); `runaway` is (game name, label, start,
    position reached, moves) when the moves lead far away from the window."""

    positions: int = 0
    edges: int = 0
    bytes: int = 0
    seconds: float = 0.0
    bytes_per_position: int = BYTES_PER_POSITION
    runaway: tuple | None = None
    counted: bool = False  # the positions were counted by following the moves, not estimated by the box


def runaway(inst: Any, start: Any, highs: list[int]) -> tuple[Any, int] | None:
    """Follow the moves from `start`, each time to the option with the largest coordinate; return
    (the position reached, how many moves) when it gets far beyond the window (a coordinate over
    2 * max(highs) + 1000): the moves lead away, and the game may never end. None when the path ends,
    stays near, or the probe's budget runs out.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> up = GameDecl.declare("up", {"position": ["x"], "moves": [{"to": "x + t", "where": "1 <= t <= 2"}]}, Namespace())
    >>> runaway(up.instance(()), 5, [5])
    (1011, 503)
    >>> down = GameDecl.declare("down", {"position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= x"}]}, Namespace())
    >>> runaway(down.instance(()), 5, [5]) is None
    True
    """
    far = 2 * max(highs, default=0) + 1000
    position, spent = start, 0
    for step in range(1, PROBE_STEPS + 1):
        if _degree(inst, position) > PROBE_DEGREE:
            return None
        try:
            options = inst.options(position)
        except NimjosError:  # the checker reports it where it happens
            return None
        spent += len(options)
        if not options or spent > PROBE_OPTIONS:
            return None
        position = max(options, key=lambda q: max(q) if isinstance(q, tuple) else q)
        if (max(position) if isinstance(position, tuple) else position) > far:
            return position, step
    return None


def game_load(inst: Any, highs: list[int], copies: int = 1, starts: list | None = None,
              outcomes: bool = False) -> GameLoad:
    """The cost of solving `copies` instances like `inst` from a window reaching coordinates `highs`: the box of
    coordinates, or, when the box is large and the window's positions `starts` are known, the positions and
    options counted by following the moves from them (:func:`reachable`). `outcomes`: only the P-positions are
    asked for (an engine of P-positions may answer).

    >>> from nimjos.games.declared import subtraction
    >>> game_load(subtraction(frozenset({2, 3})), [99]).positions
    100
    """
    bounds = _coordinate_bounds(inst, [max(0, h) for h in highs])
    box = math.prod(b + 1 for b in bounds)
    bpp, bpe, fast = _engine_costs(inst, bounds, outcomes)
    if outcomes and fast:   # an engine of P-positions computes the box
        return GameLoad(box * copies, 0, box * copies * bpp, box * copies * SECONDS_PER_POSITION / 100, bpp)
    if starts is not None and box > REACH_BOX and copies == 1:
        found = reachable(inst, starts)
        if found is not None:
            positions, edges = found
            bpp, bpe, fast = _engine_costs(inst, bounds)
            return GameLoad(positions, edges, positions * bpp + edges * bpe,
                            positions * SECONDS_PER_POSITION + edges * SECONDS_PER_EDGE, bpp, counted=True)
    top = tuple(bounds) if len(bounds) > 1 else bounds[0]
    half = tuple(b // 2 for b in bounds) if len(bounds) > 1 else bounds[0] // 2
    zero = tuple(0 for _ in bounds) if len(bounds) > 1 else 0
    degree = (_degree(inst, top) + _degree(inst, half) + _degree(inst, zero)) // 3
    bpp, bpe, fast = _engine_costs(inst, bounds)
    positions = box * copies
    edges = positions * degree
    load = GameLoad(positions, edges, positions * bpp + (0 if fast else edges * bpe),
                     positions * (SECONDS_PER_POSITION / 100 if fast else SECONDS_PER_POSITION)
                     + (0 if fast else edges * SECONDS_PER_EDGE), bpp)
    if getattr(inst, "decl", None) is not None:
        away = runaway(inst, top, bounds)
        if away is not None:
            load.runaway = (inst.name, inst.label, top, *away)
    return load
