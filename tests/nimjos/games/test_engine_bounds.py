"""Memory-safe engines (issue 24, item 5): every compiled kernel runs bounds-checked here, and every fast engine
agrees with the reference at windows whose edges sit at powers of two and just past them.

How the bounds checks are switched on. numba reads ``NUMBA_BOUNDSCHECK`` once, when it is imported, and its
on-disk cache (``cache=True``) finds a compiled kernel by its bytecode and signature only, not by that setting
(numba/core/caching.py, ``_index_key``): a process that sets the variable but reads the usual cache loads the
kernels compiled without checks. So :func:`test_every_kernel_runs_bounds_checked` starts a child pytest with
``NUMBA_BOUNDSCHECK=1`` and a cache folder of its own (:data:`CHECKED_CACHE`, written only by bounds-checked
builds, so kept between runs), on the tests of this file marked :data:`child_only` and on the doctests of every
module that holds a kernel. There an index outside an array raises IndexError instead of corrupting memory, and
the first child test proves that the checks are on (a project kernel given inconsistent arguments raises
IndexError). In the parent process the child's tests are skipped: they run in the child. To run them directly::

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=.nimjos/numba-boundscheck python -m pytest tests/nimjos/games/test_engine_bounds.py

Windows: heap tables g(0..N) for N = 2^k - 1, 2^k, 2^k + 1, k = 8..12 (``NIMJOS_LONG=1``: k = 8..16), compared
with an independent numpy mex over the moves (the reference engine's game graph on multisets of heaps grows
exponentially; the numpy mex is checked against it on small heaps); the engines of declared and built-in games on
boxes with sides at powers of two against the reference engine itself (``use_fast = False``).
"""
from __future__ import annotations

import itertools
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import nimjos.games.fast.turns as turns
import nimjos.games.fast.weights as weights
from nimjos.games.declared import GameDecl, gcn, subtraction
from nimjos.games.engine import ReferenceEngine
from nimjos.games.heaps.fast import sequence
from nimjos.games.heaps.game import HeapGame, HeapPositions
from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, NIM, HeapRules, octal_rules, plain_sequence
from nimjos.lang.compiler import Namespace

ROOT = pathlib.Path(__file__).resolve().parents[3]
#: the numba cache of the bounds-checked child (only bounds-checked builds are ever written there)
CHECKED_CACHE = ROOT / ".nimjos" / "numba-boundscheck"
#: the modules that hold compiled kernels (their doctests run in the child too)
KERNEL_MODULES = ["nimjos/games/heaps/fast.py", "nimjos/games/fast/kernels.py", "nimjos/games/fast/boxes.py",
                  "nimjos/games/fast/turns.py", "nimjos/games/fast/weights.py", "nimjos/games/fast/lines.py",
                  "nimjos/games/fast/pinned.py", "nimjos/games/fast/offsets.py", "nimjos/games/fast/gcn.py",
                  "nimjos/games/fast/subtraction.py", "nimjos/josephus/kernels.py"]
#: test files of kernels that run in the child as well (all their tests)
KERNEL_TESTS = ["tests/nimjos/games/heaps/test_fast_kernels.py", "tests/slow/nimjos/games/heaps/test_fast_kernels_long.py",
                "nimjos/games/heaps/grow.py"]
IN_CHILD = os.environ.get("NUMBA_BOUNDSCHECK") == "1"
LONG = os.environ.get("NIMJOS_LONG") == "1"
#: the exponents k of the heap windows 2^k - 1, 2^k, 2^k + 1
KS = range(8, 17 if LONG else 13)
#: ... of the sides of the boxes of the other engines (the reference engine computes those)
BOX_KS = range(2, 6 if LONG else 5)
#: ... of the one-heap windows of those engines
LINE_KS = range(6, 11 if LONG else 9)
child_only = pytest.mark.skipif(not IN_CHILD, reason="runs in the bounds-checked child "
                                "(test_every_kernel_runs_bounds_checked)")


def edges(ks) -> list[int]:
    """2^k - 1, 2^k, 2^k + 1 for each k."""
    return [(1 << k) + d for k in ks for d in (-1, 0, 1)]


# ---------------------------------------------------------------------------------------------- the parent

@pytest.mark.skipif(IN_CHILD, reason="this is the child")
def test_every_kernel_runs_bounds_checked(starts_processes):
    CHECKED_CACHE.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(CHECKED_CACHE)}
    me = str(pathlib.Path(__file__).relative_to(ROOT))
    r = subprocess.run([sys.executable, "-m", "pytest", me, *KERNEL_MODULES, *KERNEL_TESTS, "-o", "addopts=", "--doctest-modules",
                        "--import-mode=importlib",
                        "-x", "-q", "-p", "no:cacheprovider",
                        "--deselect", f"{me}::test_every_kernel_runs_bounds_checked"],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    tail = (r.stdout + r.stderr)[-4000:]
    assert r.returncode == 0, tail       # a kernel that wrote outside an array: IndexError, or the child's abort
    summary = r.stdout.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 40, tail
    assert "skipped" not in summary and "failed" not in summary, tail


# ---------------------------------------------------------------------------------------------- the child

@child_only
def test_bounds_checks_are_on_in_this_process():
    # a project kernel read through the cache of this process: starts claims three members where there is one
    from nimjos.games.fast.boxes import _mex_box
    with pytest.raises(IndexError):
        _mex_box(np.array([4]), np.array([1], dtype=np.int64), np.array([0, 3]), np.zeros((0, 1), dtype=np.int64),
                 np.zeros(4, dtype=np.int32))


#: the heap games of issue 24: Nim, Lasker's Nim, Kayles (0.77), Grundy's game
HEAP_GAMES = {"nim": NIM, "laskers_nim": LASKERS_NIM, "kayles": octal_rules("0.77"), "grundys_game": GRUNDYS_GAME}


def independent(rules: HeapRules, n: int) -> np.ndarray:
    """g(0..n) by a numpy mex over the moves of one heap (the values of a split's two parts nim-added), written
    apart from the compiled kernels and from rules.moves; a tail digit that splits is refused (cubic)."""
    assert not rules.tail & 4
    g = np.zeros(n + 1, dtype=np.int64)
    L = len(rules.digits)
    digit = np.array(rules.digits + (rules.tail,) * max(0, n + 1 - L), dtype=np.int64)[:max(n + 1, L)]
    leave_one = np.nonzero(digit[:L] & 2)[0]
    splits = np.nonzero(digit[:L] & 4)[0]
    for m in range(1, n + 1):
        parts = []
        if digit[m] & 1:
            parts.append(np.zeros(1, dtype=np.int64))
        ks = leave_one[(leave_one >= 1) & (leave_one < m)]
        parts.append(g[m - ks])
        if rules.tail & 2 and m - 1 >= L:
            parts.append(g[1:m - L + 1])         # take k = L .. m - 1, one heap of m - k left
        for k in splits[splits <= m]:
            r = m - int(k)
            half = (r - 1) // 2 if rules.unequal else r // 2
            if half >= 1:
                parts.append(g[1:half + 1] ^ g[r - half:r][::-1])
        vals = np.concatenate(parts)
        present = np.zeros(len(vals) + 1, dtype=np.bool_)
        present[vals[vals <= len(vals)]] = True
        g[m] = int(np.argmin(present))
    return g


_TRUTH: dict[str, np.ndarray] = {}


def truth(name: str) -> np.ndarray:
    """The independent table of a heap game up to the largest window (computed once)."""
    if name not in _TRUTH:
        _TRUTH[name] = independent(HEAP_GAMES[name], max(edges(KS)))
    return _TRUTH[name]


@child_only
@pytest.mark.parametrize("name", list(HEAP_GAMES))
def test_the_independent_mex_agrees_with_the_reference_engine(name):
    rules = HEAP_GAMES[name]
    engine = ReferenceEngine()
    engine.use_fast = False
    positions = HeapPositions(rules)
    engine.solve(positions, [(h,) for h in range(19)])
    assert [positions.lookup((h,)) for h in range(19)] == truth(name)[:19].tolist()
    assert plain_sequence(rules, 300) == truth(name)[:301].tolist()


@child_only
def test_known_values():
    n = np.arange(max(edges(KS)) + 1)
    assert np.array_equal(truth("nim"), n)
    lasker = np.where(n % 4 == 3, n + 1, np.where((n % 4 == 0) & (n > 0), n - 1, n))
    assert np.array_equal(truth("laskers_nim"), lasker)
    kayles = truth("kayles")
    assert np.array_equal(kayles[71:-12], kayles[83:])       # Kayles: period 12 from 71 on


@child_only
@pytest.mark.parametrize("name", list(HEAP_GAMES))
@pytest.mark.parametrize("N", edges(KS))
def test_heap_engine_at_powers_of_two(name, N):
    rules, want = HEAP_GAMES[name], truth(name)[:N + 1]
    fresh = HeapGame(rules, name)
    assert np.array_equal(fresh.values(N)[:N + 1], want)
    grown = HeapGame(rules, name)        # a table grown on demand: the values of the first half are given
    grown.values(N // 2)
    assert np.array_equal(grown.values(N)[:N + 1], want)
    for given in sorted({min(N, 1025), N}):      # given values of 512 and more (issue 24, case 16), all but one
        assert np.array_equal(sequence(rules, N, prefix=want[:given].copy()), want), given
    if N <= (1 << 13) and name in ("kayles", "grundys_game"):
        assert np.array_equal(sequence(rules, N, method="plain"), want)


# -------------------------------------------------------------------------- the engines of declared games

def declared(name: str, position: list[str], moves: list[dict], params: list[str] | None = None):
    return GameDecl.declare(name, {"params": params or [], "position": position, "moves": moves}, Namespace())


#: name -> (the arguments of :func:`declared`, the game's params); each use declares the game anew (instances of
#: one declaration share their table)
DECLARED = {
    "nim1": (("nim1", ["x"], [{"to": "x - t", "where": "1 <= t <= x"}]), ()),
    "maxnim2": (("maxnim", ["x"], [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}], ["k"]), (2,)),
    "odd_subtraction": (("odd", ["n"], [{"to": "n - s", "where": "1 <= s <= n and s % 2 == 1"}]), ()),
    "wythoff": (("wythoff", ["x", "y"], [
        {"to": "(x - t, y)", "where": "1 <= t <= x"}, {"to": "(x, y - t)", "where": "1 <= t <= y"},
        {"to": "(x - t, y - t)", "where": "1 <= t <= min(x, y)"}]), ()),
    "cyclic_nimhoff": (("cn", ["x", "y"], [
        {"to": "(x - t, y)", "where": "1 <= t <= x"}, {"to": "(x, y - t)", "where": "1 <= t <= y"},
        {"to": "(x - s, y - t)", "where": "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 < s + t"}],
        ["h"]), (3,)),
    "cyclic_nimhoff_3": (("cn3", ["x", "y", "z"], [
        {"to": "(x - t, y, z)", "where": "1 <= t <= x"}, {"to": "(x, y - t, z)", "where": "1 <= t <= y"},
        {"to": "(x, y, z - t)", "where": "1 <= t <= z"},
        {"to": "(x - s, y - t, z - u)", "where":
         "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 <= u <= min(z, h - 1 - s - t) "
         "and 0 < s + t + u"}],
        ["h"]), (2,)),
    "turn_nim": (("turn", ["x", "k"], [{"to": "(x - t, k + 1)", "where": "1 <= t <= min(x, k + 1)"}]), ()),
}
#: built-in games, each call a new instance (a predicate is its own key of the shared instances)
BUILT_IN = {"subtraction_134": lambda: subtraction(lambda s: s in (1, 3, 4)),
            "gcn_3": lambda: gcn(3, (lambda s: True, lambda s: True))}
#: the fast engine each game must be answered by (not left to the reference engine): a part of its name; nim1's
#: interval of options is read by the subtraction engine up to 64 members, by the line-interval engine beyond
ENGINE = {"nim1": ("1-D interval", "subtraction set"), "maxnim2": "1-D interval", "odd_subtraction": "subtraction set",
          "wythoff": "2-D row/column/diagonal", "cyclic_nimhoff": "outer bound names pinned",
          "cyclic_nimhoff_3": "joint offsets", "turn_nim": "a row to the left", "subtraction_134": "subtraction set",
          "gcn_3": "generalized cyclic Nimhoff"}


def _instance(name: str):
    if name in BUILT_IN:
        return BUILT_IN[name]()
    args, params = DECLARED[name]
    decl = declared(*args)
    return decl(*params) if params else decl.instance(())


def _window(name: str, side: int) -> list:
    """The positions of the box with this side (a 3-D box: side x side x 3)."""
    dim = _instance(name).dim
    if dim == 1:
        return list(range(side))
    if dim == 3:
        return list(itertools.product(range(side), range(side), range(3)))
    return list(itertools.product(range(side), repeat=dim))


def _values(name: str, positions: list, use_fast: bool) -> tuple[dict, str]:
    engine = ReferenceEngine()
    engine.use_fast = use_fast
    engine.fast_min_positions = 0
    engine.fast_min_work = 0
    game = _instance(name)
    engine.solve(game, positions)
    return {p: game.lookup(p) for p in positions}, engine.describe_last()


def _sides(name: str) -> list[int]:
    """The sides of the boxes of a game: at powers of two and just past them (one heap: longer windows; Turn
    Nim: boxes of at least 256 positions, below which its engine leaves the game to the reference engine; three
    heaps: one k less)."""
    if name == "turn_nim":
        return edges(range(4, BOX_KS.stop + 1))
    dim = _instance(name).dim
    return edges(LINE_KS) if dim == 1 else edges(BOX_KS if dim == 2 else range(BOX_KS.start, BOX_KS.stop - 1))


@child_only
@pytest.mark.parametrize("name,side", [(name, side) for name in ENGINE for side in _sides(name)])
def test_fast_engines_at_powers_of_two(name, side):
    positions = _window(name, side)
    want, _ = _values(name, positions, use_fast=False)
    got, engine = _values(name, positions, use_fast=True)
    wanted = ENGINE[name] if isinstance(ENGINE[name], tuple) else (ENGINE[name],)
    assert any(part in engine for part in wanted), engine
    assert got == want


@child_only
@pytest.mark.parametrize("side", edges(BOX_KS))
def test_weight_band_engine_at_powers_of_two(side):
    game = declared("wn", ["x", "y"], [{"to": "(x - t, y - u)", "where":
                                        "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)"}]
                    ).instance(())
    table = weights.p_table(game, side, side + 1)
    assert table is not None
    engine = ReferenceEngine()
    engine.use_fast = False
    engine.solve(game, [(x, y) for x in range(side) for y in range(side + 1)])
    assert table.tolist() == [[game.lookup((x, y)) == 0 for y in range(side + 1)] for x in range(side)]


def test_turn_engine_sizes_its_marks_from_the_options_in_the_box():
    # options up to (k + 1) * 10^12 tokens to the left, below x = 0 at every position: every value stays unknown
    # (the reference engine's to judge); the marks were sized from the intervals' lengths (10^12: MemoryError)
    game = declared("far", ["x", "k"], [{"to": "(x - t, k + 1)", "where": "1 <= t <= (k + 1) * 10**12"}]).instance(())
    values = turns.table(game, 21, 25)
    assert values is not None and (values == -1).all()


def test_weight_engine_sizes_its_arrays_from_the_positions_not_the_weights():
    # a weight 10^9 t + u: the kernels kept an array entry per weight up to 10^9 (X - 1) + (Y - 1) (MemoryError)
    game = declared("heavy", ["x", "y"], [{"to": "(x - t, y - u)", "where":
                                           "0 <= t <= x and 0 <= u <= y and 1 <= 10**9*t + u <= 10**9*(x // 2) + y"}]
                    ).instance(())
    assert weights.shape_of(game).weight == (10 ** 9, 1)
    table = weights.p_table(game, 12, 13)
    assert table is not None
    engine = ReferenceEngine()
    engine.use_fast = False
    engine.solve(game, [(x, y) for x in range(12) for y in range(13)])
    want = [[game.lookup((x, y)) == 0 for y in range(13)] for x in range(12)]
    assert table.tolist() == want and 1 < table.sum() < 12 * 13
    xs, ys = np.nonzero(np.ones((12, 13), dtype=bool))
    reach = weights.any_option_in(game, table, xs, ys)
    assert reach is not None and reach.tolist() == [not p for p in table.ravel().tolist()]
