"""Grundy values of a game on a window, from its moves, as an array (a fast engine when the moves have a shape
one recognises, else the reference engine): :func:`grundy_table` (the array and how it was computed) and
:func:`grundy` (an array that knows its corner), which ``nimjos grundy`` and notebooks both call.

GAME is a game declared in FILE (``FILE::GAME``), or a game expression of the spec language over the built-in
families and FILE's games: ``octal("0.77")`` (Kayles), ``laskers_nim()``, ``grundys_game()``, ``moore_nim(2)``,
``subtraction({1, 2, 3})``; without ``FILE::`` the expression uses the built-in families only.

The window is any condition the language can bound: a box (``"0 <= x < 40 and 0 <= y < 40"``), a triangle
(``"0 <= a <= 20 and 0 <= b <= a"``), a filter (``"0 <= n <= 99 and n % 2 == 0"``). The table covers the window's
bounding box, its corner the lowest coordinates; a cell of the box outside the window holds -1. A declared game's
window bounds its coordinates; a built-in heap game's names one heap per name (``"0 <= a <= 9 and 0 <= b <= 9"``:
the value of the two heaps (a, b)).

>>> import pathlib
>>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
>>> values, how = grundy_table(f"{path}::nim1", [], "0 <= x <= 5")
>>> values.tolist()
[0, 1, 2, 3, 4, 5]
>>> grundy_table('octal("0.77")', [], "0 <= n <= 9")[0].tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4]
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.syntax import suggest
from nimjos.spec.loader import Spec, load_spec
from nimjos.spec.names import spec_namespace
from nimjos.lang.compiler import Namespace
from nimjos.lang.expr import compile_expression
from nimjos.lang.binders import Binder
from nimjos.games.declared import as_instance
from nimjos.games.arrays import grundy_array
from nimjos.games.engine import MAX_POSITIONS, ReferenceEngine, using_engine
from nimjos.games.heaps.fast import detect_table
from nimjos.games.heaps.game import HeapGame
from nimjos.games.periodicity import Periodicity, observe, outcome_pattern
from nimjos.lang.errors import ResourceError
from nimjos.lang.lazy import import_on_use

#: the module of the pictures, loaded on use (nimjos.lang.lazy): matplotlib, which a table alone never loads
PICTURE = "nimjos.api.picture"
#: a window the engine must fill position by position (no fast engine covers it) may hold at most this many
MAX_REFERENCE_WINDOW = 2_000_000
#: a cell of the table outside the window (the table is the window's bounding box)
OUTSIDE = -1
#: the periodicity detector of a one-heap table: (arithmetic) periodicity of nimjos.games.periodicity.detect, on
#: the int64 table (compiled for a long one: detect_table). The hook for a stronger detector
#: (nimjos.games.heaps.periodicity's arithmetic periodicity): a function of the same shape, int64 array ->
#: Periodicity | None, with A(n + period) = A(n) + saltus from the preperiod on
DETECT_PERIODICITY = detect_table


def resolve_game(target: str, assignments: list[str],
                 spec: Spec | None = None) -> tuple[Any, tuple[str, ...] | None, dict[str, Any], Namespace]:
    """(game instance, its coordinate names or None for any names, its params, the namespace of the window).

    ``FILE::NAME`` names a declared game; ``FILE::EXPR`` or ``EXPR`` is a game expression (built-in families).
    ``spec``: FILE already loaded (a caller that needs the spec as well loads it once), else it is loaded here.

    >>> resolve_game("subtraction({1, 2})", [])[:3]
    (subtraction({1, 2}), None, {})
    """
    path, sep, name = target.rpartition("::")
    spec = (spec if spec is not None else load_spec(path)) if sep else None
    ns = spec.namespace if spec else spec_namespace()
    if spec and name in spec.games:
        decl = spec.games[name]
        values = _params(spec, decl, assignments)
        return decl(*values), tuple(decl.position), dict(zip(decl.params, values)), ns
    if assignments:
        raise SpecError("--param gives the params of a declared game; write a built-in game's in its expression")
    try:
        game = as_instance(compile_expression(name, ns)({}))
    except (SpecError, EvalError) as exc:
        known = list(spec.games) if spec else []
        where = f" in {path}" if spec else ""
        raise SpecError(f"no game {name!r}{where}, and not a game expression: {exc}",
                        hint=suggest(name, known) if known else None) from None
    return game, None, {}, ns


def _params(spec: Any, decl: Any, assignments: list[str]) -> tuple:
    """The param values from ``name=EXPR`` assignments (expressions of the spec language, lambdas too)."""
    values: dict[str, Any] = {}
    for text in assignments:
        name, sep, expr = text.partition("=")
        name = name.strip()
        if not sep or name not in decl.params:
            raise SpecError(f"--param expects NAME=VALUE with NAME one of {', '.join(decl.params) or '(none)'}, "
                            f"got {text!r}")
        values[name] = compile_expression(expr, spec.namespace)({})
    missing = [p for p in decl.params if p not in values]
    if missing:
        raise SpecError(f"game {decl.name} needs --param {missing[0]}=VALUE")
    return tuple(values[p] for p in decl.params)


def _window_binder(window: str, ns: Namespace, params: dict[str, Any],
                   coords: tuple[str, ...] | None) -> tuple[Binder, tuple[str, ...]]:
    """(the window's binder, the coordinate names in the game's order: its declared coordinates, else as written)."""
    binder = Binder.from_text(window, ns, outer=set(params))
    names = tuple(binder.names)
    if coords is not None and sorted(names) != sorted(coords):
        raise SpecError(f"--window must bound exactly the coordinates {', '.join(coords)}, "
                        f"got {', '.join(names) or 'none'}")
    if not names:
        raise SpecError("--window names no coordinate")
    return binder, coords or names


def box_of(binder: Binder, params: dict[str, Any], order: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """The range [lo, hi] of each coordinate (in ``order``) when the window is a box, else None.

    >>> box_of(Binder.from_text("0 <= y <= 3 and 2 <= x <= 5", spec_namespace()), {}, ("x", "y"))
    [(2, 5), (0, 3)]
    >>> box_of(Binder.from_text("0 <= a <= 3 and 0 <= b <= a", spec_namespace()), {}, ("a", "b")) is None
    True
    """
    if binder.pre_filters or any(level.filters or level.members is not None for level in binder.levels):
        return None
    ranges: dict[str, tuple[int, int]] = {}
    for level in binder.levels:
        try:
            ranges[level.name] = Binder.range_of(level, dict(params))
        except (SpecError, KeyError, EvalError):   # a bound that uses another coordinate: not a box
            return None
    return [ranges[name] for name in order]


def window_positions(window: str, ns: Namespace, params: dict[str, Any],
                     coords: tuple[str, ...] | None) -> tuple[tuple[str, ...], list[np.ndarray]]:
    """(coordinate names, one int64 array per coordinate): every position of a window, in the game's order.

    >>> names, arrays = window_positions("0 <= a <= 2 and 0 <= b <= a", spec_namespace(), {}, None)
    >>> names, [a.tolist() for a in arrays]
    (('a', 'b'), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]])
    """
    binder, order = _window_binder(window, ns, params, coords)
    arrays = binder.arrays(dict(params), max_count=MAX_REFERENCE_WINDOW * 50)
    if arrays is None:
        points = []
        for env in binder.bindings(dict(params)):
            points.append(tuple(env[n] for n in order))
            if len(points) > MAX_REFERENCE_WINDOW:
                raise ResourceError(f"--window {window!r} has more than {MAX_REFERENCE_WINDOW:,} positions")
        arrays = {n: np.array([p[i] for p in points], dtype=object) for i, n in enumerate(order)}
    out = []
    for name in order:
        column = arrays[name]
        if column.dtype == object and any(type(v) is not int for v in column.tolist()):
            raise SpecError(f"--window: {name} takes a value that is not an integer")
        out.append(np.asarray(column, dtype=np.int64))
    _check_positions(window, [(int(a.min()), int(a.max())) for a in out] if out[0].size else [])
    return order, out


def _check_positions(window: str, ranges: list[tuple[int, int]]) -> None:
    """Refuse a window with no position or with a negative coordinate (ranges: each coordinate's [lo, hi])."""
    if not ranges or any(hi < lo for lo, hi in ranges):
        raise SpecError(f"--window {window!r} holds no position")
    if min(lo for lo, _ in ranges) < 0:
        raise SpecError(f"--window {window!r} has positions with a negative coordinate")


def _box_table(engine: ReferenceEngine, game: Any, box: list[tuple[int, int]]) -> np.ndarray | None:
    """The values of a box read from the table the game filled itself (a heap game's compiled sequence) or a fast
    engine filled (no per-position arrays), or None."""
    corner = tuple(hi for _, hi in box)
    dense = game.filled_through(corner[0] if game.dim == 1 else corner)
    if dense is None:
        engine.solve(game, [corner[0] if game.dim == 1 else corner])
        dense = game.dense
    if dense is None or any(hi >= n for (_, hi), n in zip(box, np.shape(dense))):
        return None
    table = np.array(dense[tuple(slice(lo, hi + 1) for lo, hi in box)], dtype=np.int64)
    return table if np.all(table >= 0) else None


def _heap_values(game: HeapGame, arrays: list[np.ndarray]) -> np.ndarray:
    """The values of the positions of several heaps (one array per heap): the nim-sum of the heaps' values, read
    from the one-heap sequence by array indexing (no Python object per position).

    >>> from nimjos.games.heaps.game import octal_game
    >>> _heap_values(octal_game("0.77"), [np.array([3, 1]), np.array([4, 70]), np.array([5, 0])]).tolist()
    [6, 7]
    """
    if not arrays:
        return np.zeros(0, dtype=np.int64)
    g = game.filled_through(max(int(a.max(initial=0)) for a in arrays))
    out = np.zeros(len(arrays[0]), dtype=np.int64)
    for a in arrays:
        out ^= g[a]
    return out


def _cover(highs: list[int]) -> int:
    """The positions of the box from 0 up to ``highs`` (what an engine fills to reach the window's far corner)."""
    out = 1
    for hi in highs:
        out *= hi + 1
    return out


def grundy_table(target: str, assignments: list[str], window: str, max_positions: int = 0,
                 resolved: tuple | None = None) -> tuple[np.ndarray, dict]:
    """The Grundy values on the window's bounding box as an array (-1 outside the window), and how they were
    computed (game, engine, seconds, ``origin``: the corner, the lowest coordinates). ``resolved``: what
    :func:`resolve_game` gave for ``target`` and ``assignments``, when the caller values several windows of one game
    (the spec is then not loaded again, and the game instance keeps the table it filled).

    >>> import pathlib
    >>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
    >>> grundy_table(f"{path}::nim1", [], "3 <= x <= 4")[1]["origin"]
    [3]
    >>> grundy_table("nim()", [], "1 <= a <= 3 and 1 <= b <= a")[0].tolist()
    [[0, -1, -1], [3, 0, -1], [2, 1, 0]]
    """
    game, coords, params, ns = resolved or resolve_game(target, assignments)
    binder, names = _window_binder(window, ns, params, coords)
    box = box_of(binder, params, names)
    if box is not None:
        _check_positions(window, box)
    table = None
    t0 = time.perf_counter()
    if box is not None and game.dim == len(names):   # a box: one solve, its values read from the filled table
        engine = ReferenceEngine(max_positions=max_positions or max(MAX_POSITIONS, _cover([hi for _, hi in box])))
        table = _box_table(engine, game, box)
    if table is not None and box is not None:
        lows, count = [lo for lo, _ in box], int(table.size)
    else:
        names, arrays = window_positions(window, ns, params, coords)
        count = len(arrays[0])
        lows, highs = [int(a.min()) for a in arrays], [int(a.max()) for a in arrays]
        engine = ReferenceEngine(max_positions=max_positions or max(MAX_POSITIONS, _cover(highs)))
        if game.dim == len(names):
            if count > MAX_REFERENCE_WINDOW and box is None and not isinstance(game, HeapGame):
                raise ResourceError(f"{game.label}: the window has {count:,} positions and is not a box a fast "
                                    f"engine fills (at most {MAX_REFERENCE_WINDOW:,} are valued here)")
            values = grundy_array(engine, game, arrays)
        else:   # a heap game on several heaps, Moore's Nim: a position is the tuple of the named heaps
            if isinstance(game, HeapGame):   # a sum of heaps: the nim-sum, read from the one-heap sequence
                values = _heap_values(game, arrays)
            else:
                if count > MAX_REFERENCE_WINDOW:
                    raise ResourceError(f"{game.label}: the window has {count:,} positions (at most "
                                        f"{MAX_REFERENCE_WINDOW:,} are valued one by one)")
                with using_engine(engine):
                    values = np.array([game.grundy(tuple(int(a[i]) for a in arrays)) for i in range(count)],
                                      dtype=np.int64)
        table = np.full([hi - lo + 1 for lo, hi in zip(lows, highs)], OUTSIDE, dtype=np.int64)
        table[tuple(a - lo for a, lo in zip(arrays, lows))] = values
    label = game.label + (" in misère play (misère Grundy values: 1 at a terminal position)" if game.play == "misere" else "")
    how = {"game": label, "window": window, "coordinates": list(names), "positions": count,
           "outside": int(table.size - count), "engine": _engines(game, engine),
           "seconds": round(time.perf_counter() - t0, 3), "origin": lows}
    if table.ndim == 1 and not how["outside"]:
        how["periodicity"] = (_outcomes(table, lows[0], names[0]) if game.play == "misere" else
                              _periodicity(table, lows[0]))
    return table, how


def _engines(game: Any, engine: ReferenceEngine) -> str:
    """The engines that computed the game's values: the game's own record (a heap game fills its table itself,
    no engine is asked), else the engine's.

    >>> from nimjos.games.heaps.rules import octal_rules
    >>> _engines(HeapGame(octal_rules("0.77"), "kayles"), ReferenceEngine())
    'heap engine (sequence of one heap, nim-sum of heaps)'
    """
    if isinstance(game, HeapGame):
        return ", ".join(sorted(game.solved_by))
    return engine.describe_last()


def _periodicity(values: np.ndarray, start: int) -> str:
    """What the 1-D table shows of (arithmetic) periodicity: an observation through the window's end, not a proof,
    printed only with several periods of evidence (:func:`nimjos.games.periodicity.observe`).

    >>> _periodicity(np.array([0, 1, 2] * 5), 0)
    'periodic with period 3 from 0 (exact through 14)'
    >>> _periodicity(np.array([0, 1, 2, 3, 5, 8]), 10)
    'no period within the window (10..15) with several periods of evidence'
    """
    found = observe(values, DETECT_PERIODICITY)
    if found is None:
        return f"no period within the window ({start}..{start + len(values) - 1}) with several periods of evidence"
    return Periodicity(found.period, found.preperiod + start, found.saltus, found.through + start).describe()


def _outcomes(values: np.ndarray, start: int, name: str) -> str:
    """What a 1-D table of misère Grundy values shows: a pattern of its P-positions (its outcomes), never a
    normal-play pattern of its values; an observation, as :func:`_periodicity`.

    >>> _outcomes(np.array([1, 1, 0, 0] * 5), 0, "n")
    'the P-positions (misère play) from n = 0 are the n with n % 4 in {2, 3} (exact through 19)'
    """
    found = outcome_pattern(values, start, name, DETECT_PERIODICITY)
    return found or (f"no pattern of the P-positions (misère play) within the window ({start}..{start + len(values) - 1})"
                     " with several periods of evidence")


class GrundyTable(np.ndarray):
    """Grundy values on a window's bounding box (-1 outside the window), with ``corner`` (the lowest coordinates:
    index (0, 0) is the position ``corner``) and ``coordinates`` (the axes' names)."""

    corner: tuple[int, ...]
    coordinates: tuple[str, ...]

    def __array_finalize__(self, obj: Any) -> None:
        self.corner = getattr(obj, "corner", ())
        self.coordinates = getattr(obj, "coordinates", ())


def grundy(game: str, window: str, **params: Any) -> GrundyTable:
    """The Grundy values of ``game`` on ``window`` (as ``nimjos grundy``), from the moves; ``params`` a declared game's.

    >>> table = grundy("laskers_nim()", "1 <= n <= 8")
    >>> table.corner, table.coordinates, table.tolist()
    ((1,), ('n',), [1, 2, 4, 3, 5, 6, 8, 7])
    """
    values, how = grundy_table(game, [f"{k}={v}" for k, v in params.items()], window)
    table = values.view(GrundyTable)
    table.corner = tuple(how["origin"])
    table.coordinates = tuple(how["coordinates"])
    return table


def draw_table(table: np.ndarray, how: dict, path: str | Path) -> Path:
    """Draw a 1-D table as its sequence, a 2-D table as a heatmap (cells outside the window grey) into ``path``
    (:func:`nimjos.api.picture.draw_table`: matplotlib is loaded only when a picture is asked for).

    >>> import tempfile
    >>> table, how = grundy_table("nim()", [], "0 <= a <= 5 and 0 <= b <= a")
    >>> draw_table(table, how, Path(tempfile.mkdtemp()) / "nim.png").stat().st_size > 1000
    True
    """
    return import_on_use(PICTURE).draw_table(table, how, path)
