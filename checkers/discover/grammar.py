"""A small generic grammar of readable formulas over a game's coordinates, fitted on a table of P-positions or
Grundy values: linear, bitwise and floor-halving terms of the coordinates, atoms comparing them with 0, with
each other or with a residue, and conjunctions of up to three atoms.

The grammar knows nothing of any paper: its terms are the same for every game with the same number of
coordinates. Every formula is a syntax tree of the spec language, built with :mod:`nimjos.lang.build` (never
text parsed again); its truth on the table is computed from that tree by the language's own vectorised
evaluator (:func:`nimjos.lang.vector.vectorise`), and its text, for a reader and for the spec discover writes,
is that tree printed (:func:`nimjos.lang.build.show`), so that the formula printed is the formula fitted.

>>> import numpy as np
>>> x, y = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
>>> show(fit_p_set(("x", "y"), [x.ravel(), y.ravel()], (x ^ y).ravel() == 0)[0])
'x == y'
>>> show(fit_grundy(("x", "y"), [x.ravel(), y.ravel()], (x ^ y).ravel())[0])
'xor(x, y)'
"""
from __future__ import annotations

import ast
import functools
import itertools
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from nimjos.lang.build import (binary, call, compare, conjunction, conjuncts, constant, disjunction, name, negation,
                               show)
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import EvalError
from nimjos.lang.syntax import called_names
from nimjos.lang.vector import NotVectorisable, as_full, as_truth, vectorise

#: the moduli of the residue atoms and of the floor-division terms
MODULI = (2, 3, 4)
#: the most atoms of a conjunction, and of a disjunction of two conjunctions in all
MAX_ATOMS = 3
#: the constant offsets of the linear equations between coordinates (``x == y + 1``, ``c == a + b + 1``)
OFFSETS = (1, 2)
#: the exceptions of a formula with a finite exception set lie in the corner where every coordinate is below this
CORNER = 4
#: the most positions of a finite exception set
MAX_EXCEPTIONS = 6


def _texts(trees: Sequence[ast.expr]) -> list[str]:
    """The trees printed, for the examples."""
    return [show(t) for t in trees]


def _simplest(trees: Sequence[ast.expr]) -> list[ast.expr]:
    """The trees shortest printed first (the order kept among equally long ones)."""
    return sorted(trees, key=lambda t: len(show(t)))


def _distinct(trees: Sequence[ast.expr]) -> list[ast.expr]:
    """The trees without repeats (the same tree built twice), in order."""
    return list({ast.dump(t): t for t in reversed(trees)}.values())[::-1]


def _sum(names: Sequence[str]) -> ast.expr:
    """``a + b + ...`` of the coordinates ``names``."""
    tree = name(names[0])
    for n in names[1:]:
        tree = binary(tree, ast.Add, name(n))
    return tree


def terms(names: Sequence[str]) -> list[ast.expr]:
    """The integer terms of the grammar over the coordinates ``names``, shortest first.

    >>> _texts(terms(("n",)))
    ['n', 'n // 2', 'n // 3', 'n // 4']
    >>> len(terms(("x", "y")))
    19
    """
    def floor(a: str, m: int) -> ast.expr:
        return binary(name(a), ast.FloorDiv, constant(m))

    out: list[ast.expr] = []
    for a in names:
        out += [name(a)] + [floor(a, m) for m in MODULI]
    for a, b in itertools.combinations(names, 2):
        x, y = name(a), name(b)
        out += [binary(x, ast.Sub, y), binary(y, ast.Sub, x), binary(x, ast.Add, y), call("xor", x, y),
                binary(x, ast.BitAnd, y), binary(x, ast.BitOr, y),
                binary(x, ast.Sub, binary(constant(2), ast.Mult, y)),
                binary(y, ast.Sub, binary(constant(2), ast.Mult, x))]
        out += [call("xor", floor(a, m), floor(b, m)) for m in MODULI]
    if len(names) >= 3:
        out += [call("xor", *map(name, names)), _sum(names)]
        out += [call("xor", *(floor(a, m) for a in names)) for m in MODULI]
    return out


def _linear(term: ast.expr) -> bool:
    """Whether a term is a sum or difference of coordinates (no bitwise or floor operation, no call).

    >>> [_linear(t) for t in terms(("x", "y"))[8:16]]
    [True, True, True, False, False, False, True, True]
    """
    return not any(isinstance(node, ast.Call) or isinstance(node, ast.BinOp)
                   and not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) for node in ast.walk(term))


def atoms(names: Sequence[str]) -> list[ast.expr]:
    """The atoms of the grammar: a term equal to 0, a residue of a linear term, a term one less than a power of
    two, and the order relations between coordinates (and their doubles).

    >>> _texts(atoms(("n",))[:4])
    ['n == 0', 'n // 2 == 0', 'n // 3 == 0', 'n // 4 == 0']
    >>> "n & (n + 1) == 0" in _texts(atoms(("n",)))
    True
    """
    ts = terms(names)
    zero = constant(0)
    out = [compare(t, ast.Eq, zero) for t in ts]
    for t in ts:
        if _linear(t):
            out += [compare(binary(t, ast.Mod, constant(m)), ast.Eq, constant(r)) for m in MODULI for r in range(m)]
            out.append(compare(binary(t, ast.BitAnd, binary(t, ast.Add, constant(1))), ast.Eq, zero))
    for a, b in itertools.permutations(names, 2):
        x, y, double = name(a), name(b), binary(constant(2), ast.Mult, name(a))
        out += [compare(x, ast.LtE, y), compare(x, ast.Lt, y), compare(double, ast.LtE, y), compare(double, ast.Lt, y)]
        out += [compare(x, ast.Eq, y)] if a < b else []
    return out + offset_atoms(names)


def offset_atoms(names: Sequence[str]) -> list[ast.expr]:
    """The linear equations with a constant offset: one coordinate is another (or, with three coordinates, the sum
    of the two others) plus a small constant, written as sums so that every side is a natural number.

    >>> _texts(offset_atoms(("x", "y")))
    ['x == y + 1', 'x == y + 2', 'y == x + 1', 'y == x + 2']
    >>> "c == a + b + 1" in _texts(offset_atoms(("a", "b", "c")))
    True
    """
    out = [compare(name(a), ast.Eq, binary(name(b), ast.Add, constant(k)))
           for a, b in itertools.permutations(names, 2) for k in OFFSETS]
    if len(names) == 3:
        for i, c in enumerate(names):
            pair = _sum([n for j, n in enumerate(names) if j != i])
            out += [compare(name(c), ast.Eq, pair)]
            out += [compare(name(c), ast.Eq, binary(pair, ast.Add, constant(k))) for k in OFFSETS]
    return out


def _plain(node: ast.expr) -> bool:
    """A coordinate or a natural-number constant."""
    return isinstance(node, ast.Name) or isinstance(node, ast.Constant) and type(node.value) is int


def is_guard(atom: ast.expr) -> bool:
    """Whether an atom is an order relation of a coordinate (or its double) with a coordinate or a constant
    (``x <= y``, ``2 * x < y``, ``x == y``, ``x == 0``).

    >>> {show(a): is_guard(a) for a in atoms(("x", "y")) if show(a) in ("2 * y <= x", "x == 0", "x == y + 1")}
    {'x == 0': True, '2 * y <= x': True, 'x == y + 1': False}
    """
    if not (isinstance(atom, ast.Compare) and len(atom.ops) == 1
            and isinstance(atom.ops[0], (ast.LtE, ast.Lt, ast.Eq)) and _plain(atom.comparators[0])):
        return False
    left = atom.left
    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mult) and isinstance(left.left, ast.Constant) \
            and left.left.value == 2 and type(left.left.value) is int:
        left = left.right
    return _plain(left)


def guards_first(atoms: Sequence[ast.expr]) -> ast.expr:
    """A conjunction with its order relations between coordinates first (:func:`is_guard`): a prover reading it
    left to right then knows, at the later atoms, that a difference such as ``x - y`` is a natural number (Walnut's
    numbers are the naturals).

    >>> x, y = name("x"), name("y")
    >>> power = compare(binary(binary(x, ast.Sub, y), ast.BitAnd, binary(binary(x, ast.Sub, y), ast.Add, constant(1))),
    ...                 ast.Eq, constant(0))
    >>> show(guards_first([power, compare(binary(constant(2), ast.Mult, y), ast.LtE, x)]))
    '2 * y <= x and (x - y) & (x - y + 1) == 0'
    """
    return conjunction(sorted(atoms, key=lambda atom: 0 if is_guard(atom) else 1))


def _evaluate(tree: ast.expr, names: Sequence[str], columns: Sequence[np.ndarray], truth: bool,
              run: Callable[[dict], Any] | None = None) -> np.ndarray | None:
    """The value of ``tree`` at every position (one array per coordinate), by the language's vectorised
    evaluator (``run``: the tree's, already made); None when it cannot be evaluated exactly there (the formula is
    then not a candidate)."""
    try:
        value = (run or vectorise(tree, Namespace()))(dict(zip(names, columns)))
        n = len(columns[0])
        return as_truth(value, n) if truth else as_full(value, n)
    except (NotVectorisable, EvalError, ArithmeticError, ValueError):
        return None


def agrees(tree: ast.expr, names: Sequence[str], columns: Sequence[np.ndarray], expected: np.ndarray) -> bool:
    """Whether the formula ``tree`` (a condition when ``expected`` is boolean, else a term) evaluates to
    ``expected`` at every position, by the language's vectorised evaluator: how a fit is confirmed on a larger table.

    >>> n = np.arange(50)
    >>> three = compare(binary(name("n"), ast.Mod, constant(3)), ast.Eq, constant(0))
    >>> half = binary(name("n"), ast.FloorDiv, constant(2))
    >>> agrees(three, ("n",), [n], n % 3 == 0), agrees(half, ("n",), [n], n // 3)
    (True, False)
    """
    wrong = disagreements(tree, names, columns, expected)
    return wrong is not None and not wrong.any()


def disagreements(tree: ast.expr, names: Sequence[str], columns: Sequence[np.ndarray],
                  expected: np.ndarray) -> np.ndarray | None:
    """Where the formula ``tree`` differs from ``expected`` (a boolean array over the positions); None when it
    cannot be evaluated exactly at every position.

    >>> n = np.arange(8)
    >>> three = compare(binary(name("n"), ast.Mod, constant(3)), ast.Eq, constant(0))
    >>> np.flatnonzero(disagreements(three, ("n",), [n], n % 4 == 0)).tolist()
    [3, 4, 6]
    """
    got = _evaluate(tree, names, columns, truth=expected.dtype == bool)
    return None if got is None else got != expected


@functools.lru_cache(maxsize=8)
def _evaluated_atoms(names: tuple[str, ...]) -> tuple[tuple[ast.expr, Callable[[dict], Any]], ...]:
    """The atoms of the grammar over ``names``, each with its vectorised evaluation (resolved at its first use, then
    kept): built once per process for the fits of every class and table. Private: the trees are shared."""
    return tuple((atom, vectorise(atom, Namespace())) for atom in atoms(names))


def _atom_masks(names: Sequence[str], columns: Sequence[np.ndarray], extra: Sequence[ast.expr] = (),
                inside: np.ndarray | None = None) -> list[tuple[ast.expr, np.ndarray]]:
    """Every atom of the grammar (and of ``extra``) with its truth at the positions, leaving out those true nowhere
    (or, given ``inside``, false somewhere inside) and those true everywhere."""
    out = []
    for atom, run in [*_evaluated_atoms(tuple(names)), *((a, None) for a in extra)]:
        mask = _evaluate(atom, names, columns, truth=True, run=run)
        if mask is not None and bool(mask[inside].all() if inside is not None else mask.any()) \
                and not bool(mask.all()):
            out.append((atom, mask))
    return out


def conjunctions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
                 extra: Sequence[ast.expr] = ()) -> Iterator[ast.expr]:
    """Every conjunction of at most :data:`MAX_ATOMS` atoms (of the grammar, and the atoms ``extra``) that is true
    exactly on ``inside`` (a boolean array over the positions), fewest atoms first, then shortest text.

    >>> n = np.arange(40)
    >>> _texts(list(conjunctions(("n",), [n], n % 4 == 1))[:2])
    ['n % 4 == 1']
    >>> five = compare(binary(name("n"), ast.Mod, constant(5)), ast.Eq, constant(1))
    >>> _texts(list(conjunctions(("n",), [n], n % 5 == 1))), _texts(list(conjunctions(("n",), [n], n % 5 == 1, [five])))
    ([], ['n % 5 == 1'])
    """
    # an atom of a conjunction holds at every position of the set; one that holds everywhere says nothing
    masks = _atom_masks(names, columns, extra, inside)
    for size in range(1, MAX_ATOMS + 1):
        found = []
        for combo in itertools.combinations(masks, size):
            mask = np.logical_and.reduce([m for _, m in combo])
            if np.array_equal(mask, inside) and all(
                    not np.array_equal(np.logical_and.reduce([m for j, (_, m) in enumerate(combo) if j != i]), inside)
                    for i in range(size) if size > 1):   # every atom is needed
                found.append(guards_first([a for a, _ in combo]))
        yield from _simplest(found)


def _bits(mask: np.ndarray) -> int:
    """A boolean array as the bits of one integer (bit i: position i), for fast unions and intersections."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def disjunctions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
                 extra: Sequence[ast.expr] = ()) -> list[ast.expr]:
    """Every disjunction of two conjunctions, at most :data:`MAX_ATOMS` atoms in all, true exactly on ``inside``:
    each disjunct true only inside, neither contained in the other, every atom of a conjunction needed; fewest
    atoms first, then shortest text.

    >>> x, y, z = (a.ravel() for a in np.meshgrid(*[np.arange(6)] * 3, indexing="ij"))
    >>> p = (z == 0) | ((x < y) & (y == z))
    >>> show(disjunctions(("x", "y", "z"), [x, y, z], p)[0])
    'z == 0 or (x < y and y == z)'
    """
    target = _bits(inside)
    if not target:
        return []
    masks = [(a, _bits(m)) for a, m in _atom_masks(names, columns, extra)]
    singles = [((a,), b) for a, b in masks if not b & ~target]
    pairs = []
    for (a1, b1), (a2, b2) in itertools.combinations(masks, 2):
        both = b1 & b2
        if both and not both & ~target and both not in (b1, b2):
            pairs.append(((a1, a2), both))
    found = []
    for i, ((a,), b) in enumerate(singles):
        for parts, c in singles[i + 1:] + pairs:
            if b | c == target and c & ~b and b & ~c and 1 + len(parts) <= MAX_ATOMS:
                found.append((1 + len(parts), disjunction([a, guards_first(parts)])))
    found.sort(key=lambda f: (f[0], len(show(f[1]))))
    return [tree for _, tree in found]


def _point(names: Sequence[str], values: Sequence[int]) -> ast.expr:
    """One position as a conjunction of equations.

    >>> show(_point(("x", "y"), (0, 1)))
    'x == 0 and y == 1'
    """
    return conjunction([compare(name(n), ast.Eq, constant(int(v))) for n, v in zip(names, values)])


def with_exceptions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
                    extra: Sequence[ast.expr] = ()) -> list[ast.expr]:
    """Conjunctions of the grammar true exactly on ``inside`` outside the corner where every coordinate is below
    :data:`CORNER`, with the at most :data:`MAX_EXCEPTIONS` positions of the corner where they are wrong stated as a
    finite exception set: the positions to remove by a bound ``x >= m`` when one removes exactly them (else
    listed after ``not``), the positions to add joined by ``or``; simplest first.

    >>> x, y = (a.ravel() for a in np.meshgrid(np.arange(12), np.arange(12), indexing="ij"))
    >>> p = ((x == y) & (x >= 2)) | ((x == 0) & (y == 1)) | ((x == 1) & (y == 0))
    >>> show(with_exceptions(("x", "y"), [x, y], p)[0])
    '(x == y and x >= 2) or (x == 0 and y == 1) or (x == 1 and y == 0)'
    """
    near = np.logical_and.reduce([c < CORNER for c in columns])
    far = ~near
    if not far.any() or not inside[far].any():
        return []
    out = []
    for core in itertools.islice(conjunctions(names, [c[far] for c in columns], inside[far], extra),
                                 4 * MAX_ATOMS):
        mask = _evaluate(core, names, columns, truth=True)
        if mask is None:
            continue
        removed, added = near & mask & ~inside, near & inside & ~mask
        if not (removed.any() or added.any()) or int(removed.sum() + added.sum()) > MAX_EXCEPTIONS:
            continue
        if removed.any():
            kept = mask & ~removed
            cut = next((compare(name(n), ast.GtE, constant(m)) for n, col in zip(names, columns)
                        for m in range(1, CORNER) if np.array_equal(mask & (col >= m), kept)), None)
            gone = [_point(names, [c[i] for c in columns]) for i in np.flatnonzero(removed)]
            core = conjunction([*conjuncts(core), cut if cut is not None else negation(disjunction(gone))])
        plus = [_point(names, [c[i] for c in columns]) for i in np.flatnonzero(added)]
        out.append(disjunction([core] + plus))
    return _simplest(_distinct(out))


#: the Beatty pairs tried: (the built-in giving floor(n alpha), k) for the pairs (floor(n alpha), floor(n alpha) + k n);
#: alpha = phi with k = 1 (Wythoff's P-positions) and alpha = sqrt 2 with k = 2 (Fraenkel's a-Wythoff for a = 2) are
#: complementary pairs (1 / alpha + 1 / (alpha + k) = 1)
BEATTY = (("floor_phi", 1), ("floor_sqrt2", 2), ("floor_phi", 2), ("floor_sqrt2", 1))


def beatty_side(low: str, high: str, floor: str, k: int) -> ast.expr:
    """The positions (low, high) = (floor(n alpha), floor(n alpha) + k n) for some n >= 0, as a conjunction whose
    order relation comes first (Walnut then reads ``high - low`` as a natural number).

    >>> show(beatty_side("x", "y", "floor_phi", 1))
    'x <= y and x == floor_phi(y - x)'
    >>> show(beatty_side("x", "y", "floor_sqrt2", 2))
    'x <= y and (y - x) % 2 == 0 and x == floor_sqrt2((y - x) // 2)'
    """
    gap = binary(name(high), ast.Sub, name(low))
    order = compare(name(low), ast.LtE, name(high))
    if k == 1:
        return conjunction([order, compare(name(low), ast.Eq, call(floor, gap))])
    return conjunction([order, compare(binary(gap, ast.Mod, constant(k)), ast.Eq, constant(0)),
                        compare(name(low), ast.Eq, call(floor, binary(gap, ast.FloorDiv, constant(k))))])


def beatty_pairs(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray) -> list[ast.expr]:
    """The P-sets of two coordinates made of a Beatty pair (:data:`BEATTY`), with its mirror image or on one side
    of the diagonal, true exactly on ``inside``.

    >>> x, y = (a.ravel() for a in np.meshgrid(np.arange(40), np.arange(40), indexing="ij"))
    >>> phi = (1 + 5 ** 0.5) / 2
    >>> pairs = {(int(n * phi), int(n * phi) + n) for n in range(40)}
    >>> p = np.array([(a, b) in pairs or (b, a) in pairs for a, b in zip(x.tolist(), y.tolist())])
    >>> _texts(beatty_pairs(("x", "y"), [x, y], p))
    ['(x <= y and x == floor_phi(y - x)) or (y <= x and y == floor_phi(x - y))']
    """
    if len(names) != 2:
        return []
    a, b = names
    out = []
    for floor, k in BEATTY:
        lower, upper = beatty_side(a, b, floor, k), beatty_side(b, a, floor, k)
        for tree in (disjunction([lower, upper]), lower, upper):
            if agrees(tree, names, columns, inside):
                out.append(tree)
    return out


#: the irrational slopes of the Beatty pairs, by the built-in giving floor(n alpha): (alpha, the density 1 / alpha)
IRRATIONAL = {"floor_phi": ("phi", "1 / phi"), "floor_sqrt2": ("sqrt 2", "1 / sqrt 2")}


def irrational_slope(formula: ast.expr) -> tuple[str, str] | None:
    """The irrational slope alpha and the density 1 / alpha of the Beatty pair a formula calls (:data:`IRRATIONAL`);
    None when it calls none.

    >>> irrational_slope(beatty_side("x", "y", "floor_sqrt2", 2)), irrational_slope(name("x"))
    (('sqrt 2', '1 / sqrt 2'), None)
    """
    called = called_names(formula)
    return next((slope for floor, slope in IRRATIONAL.items() if floor in called), None)


def fit_p_set(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray) -> list[ast.expr]:
    """The formulas of the grammar true exactly at the P-positions ``inside`` of the table, simplest first.

    >>> n = np.arange(64)
    >>> _texts(fit_p_set(("n",), [n], (n & (n + 1)) == 0))
    ['n & (n + 1) == 0']
    """
    if not inside.any():
        return []
    return list(conjunctions(names, columns, inside))


def fit_grundy(names: Sequence[str], columns: Sequence[np.ndarray], values: np.ndarray) -> list[ast.expr]:
    """The terms of the grammar, and the 2-adic valuations of a term plus one, equal to the Grundy values
    ``values`` at every position of the table, simplest first.

    >>> x, y = np.arange(8).repeat(8), np.tile(np.arange(8), 8)
    >>> v = np.array([((a | b) + 1 & -((a | b) + 1)).bit_length() - 1 for a, b in zip(x.tolist(), y.tolist())])
    >>> _texts(fit_grundy(("x", "y"), [x, y], v))
    ['v2((x | y) + 1)']
    """
    ts = terms(names)
    out = []
    for tree in ts + [call("v2", binary(t, ast.Add, constant(1))) for t in ts]:
        got = _evaluate(tree, names, columns, truth=False)
        if got is not None and np.array_equal(got, values):
            out.append(tree)
    return _simplest(out)


#: the largest modulus of the residue atoms a learned automaton is read back with
MAX_READ_MODULUS = 12


def residue_atoms(names: Sequence[str], moduli: Sequence[int]) -> list[ast.expr]:
    """Residue atoms beyond the grammar's moduli, for reading a learned automaton back: a coordinate's residue, the
    residue of a sum of two, two coordinates congruent, and a coordinate equal to another's residue.

    >>> _texts(residue_atoms(("x", "y"), [5])[-3:])
    ['x % 5 == y % 5', 'x == y % 5', 'y == x % 5']
    >>> len(residue_atoms(("n",), [5, 6]))
    11
    """
    out = []
    for m in moduli:
        def mod(tree: ast.expr) -> ast.expr:
            return binary(tree, ast.Mod, constant(m))
        out += [compare(mod(name(a)), ast.Eq, constant(r)) for a in names for r in range(m)]
        for a, b in itertools.combinations(names, 2):
            x, y = name(a), name(b)
            out += [compare(mod(binary(x, ast.Add, y)), ast.Eq, constant(r)) for r in range(m)]
            out += [compare(mod(x), ast.Eq, mod(y)), compare(x, ast.Eq, mod(y)), compare(y, ast.Eq, mod(x))]
    return out


def read_back(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
              states: int) -> list[ast.expr]:
    """The formulas true exactly on ``inside`` (where a learned automaton of ``states`` states accepts), simplest
    class first: a conjunction, a disjunction, a Beatty pair (two coordinates), a conjunction with a finite exception
    set, with the grammar's atoms
    and residue atoms of the moduli 5 to min(states, :data:`MAX_READ_MODULUS`) (an automaton counting residues
    modulo m has at least m states when m is odd); each class shortest first.

    >>> x, y = (a.ravel() for a in np.meshgrid(np.arange(20), np.arange(20), indexing="ij"))
    >>> show(read_back(("x", "y"), [x, y], x == y % 5, 13)[0])
    'x == y % 5'
    """
    if not inside.any():
        return []
    extra = residue_atoms(names, range(5, min(states, MAX_READ_MODULUS) + 1))
    out = list(conjunctions(names, columns, inside, extra))
    if not out:
        out = disjunctions(names, columns, inside, extra)
    if not out:
        out = beatty_pairs(names, columns, inside)
    if not out:
        out = with_exceptions(names, columns, inside, extra)
    return _distinct(out)
