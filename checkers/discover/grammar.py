"""A small generic grammar of readable formulas over a game's coordinates, fitted on a table of P-positions or
Grundy values: linear, bitwise and floor-halving terms of the coordinates, atoms comparing them with 0, with
each other or with a residue, and conjunctions of up to three atoms.

The grammar knows nothing of any paper: its terms are the same for every game with the same number of
coordinates. Every formula is text of the spec language, and its truth on the table is computed by the
language's own vectorised evaluator (:func:`nimjos.lang.vector.vectorise`) from that text, so that the formula
printed is the formula fitted.

>>> import numpy as np
>>> x, y = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
>>> fit_p_set(("x", "y"), [x.ravel(), y.ravel()], (x ^ y).ravel() == 0)[0]
'x == y'
>>> fit_grundy(("x", "y"), [x.ravel(), y.ravel()], (x ^ y).ravel())[0]
'xor(x, y)'
"""
from __future__ import annotations

import itertools
import re
from typing import Iterator, Sequence

import numpy as np

from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import EvalError
from nimjos.lang.syntax import parse
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


def terms(names: Sequence[str]) -> list[str]:
    """The integer terms of the grammar over the coordinates ``names``, shortest first.

    >>> terms(("n",))
    ['n', 'n // 2', 'n // 3', 'n // 4']
    >>> len(terms(("x", "y")))
    19
    """
    out: list[str] = []
    for a in names:
        out += [a] + [f"{a} // {m}" for m in MODULI]
    for a, b in itertools.combinations(names, 2):
        out += [f"{a} - {b}", f"{b} - {a}", f"{a} + {b}", f"xor({a}, {b})", f"{a} & {b}", f"{a} | {b}",
                f"{a} - 2 * {b}", f"{b} - 2 * {a}"]
        out += [f"xor({a} // {m}, {b} // {m})" for m in MODULI]
    if len(names) >= 3:
        out += [f"xor({', '.join(names)})", " + ".join(names)]
        out += [f"xor({', '.join(f'{a} // {m}' for a in names)})" for m in MODULI]
    return out


def _linear(term: str) -> bool:
    """Whether a term is a sum or difference of coordinates (no bitwise or floor operation)."""
    return not any(op in term for op in ("xor", "&", "|", "//"))


def atoms(names: Sequence[str]) -> list[str]:
    """The atoms of the grammar: a term equal to 0, a residue of a linear term, a term one less than a power of
    two, and the order relations between coordinates (and their doubles).

    >>> atoms(("n",))[:4]
    ['n == 0', 'n // 2 == 0', 'n // 3 == 0', 'n // 4 == 0']
    >>> "n & (n + 1) == 0" in atoms(("n",))
    True
    """
    ts = terms(names)
    out = [f"{t} == 0" for t in ts]
    for t in ts:
        if _linear(t):
            wrapped = f"({t})" if " " in t else t
            out += [f"{wrapped} % {m} == {r}" for m in MODULI for r in range(m)]
            out.append(f"{wrapped} & ({t} + 1) == 0")
    for a, b in itertools.permutations(names, 2):
        out += [f"{a} <= {b}", f"{a} < {b}", f"2 * {a} <= {b}", f"2 * {a} < {b}"] + ([f"{a} == {b}"] if a < b else [])
    return out + offset_atoms(names)


def offset_atoms(names: Sequence[str]) -> list[str]:
    """The linear equations with a constant offset: one coordinate is another (or, with three coordinates, the sum
    of the two others) plus a small constant, written as sums so that every side is a natural number.

    >>> offset_atoms(("x", "y"))
    ['x == y + 1', 'x == y + 2', 'y == x + 1', 'y == x + 2']
    >>> "c == a + b + 1" in offset_atoms(("a", "b", "c"))
    True
    """
    out = [f"{a} == {b} + {k}" for a, b in itertools.permutations(names, 2) for k in OFFSETS]
    if len(names) == 3:
        for i, c in enumerate(names):
            a, b = [n for j, n in enumerate(names) if j != i]
            out += [f"{c} == {a} + {b}"] + [f"{c} == {a} + {b} + {k}" for k in OFFSETS]
    return out


#: an order relation between coordinates (``x <= y``, ``2 * x < y``, ``x == y``)
_ORDER = re.compile(r"^(2 \* )?\w+ (<=|<|==) \w+$")


def guards_first(conjuncts: Sequence[str]) -> str:
    """A conjunction with its order relations between coordinates first: a prover reading it left to right
    then knows, at the later atoms, that a difference such as ``x - y`` is a natural number (Walnut's numbers are
    the naturals).

    >>> guards_first(["(x - y) & (x - y + 1) == 0", "2 * y <= x"])
    '2 * y <= x and (x - y) & (x - y + 1) == 0'
    """
    return " and ".join(sorted(conjuncts, key=lambda atom: 0 if _ORDER.match(atom) else 1))


def _evaluate(text: str, names: Sequence[str], columns: Sequence[np.ndarray], truth: bool) -> np.ndarray | None:
    """The value of ``text`` at every position (one array per coordinate), by the language's vectorised
    evaluator; None when it cannot be evaluated exactly there (the formula is then not a candidate)."""
    try:
        value = vectorise(parse(text), Namespace())(dict(zip(names, columns)))
        n = len(columns[0])
        return as_truth(value, n) if truth else as_full(value, n)
    except (NotVectorisable, EvalError, ArithmeticError, ValueError):
        return None


def agrees(text: str, names: Sequence[str], columns: Sequence[np.ndarray], expected: np.ndarray) -> bool:
    """Whether the formula ``text`` (a condition when ``expected`` is boolean, else a term) evaluates to
    ``expected`` at every position, by the language's vectorised evaluator: how a fit is confirmed on a larger table.

    >>> n = np.arange(50)
    >>> agrees("n % 3 == 0", ("n",), [n], n % 3 == 0), agrees("n // 2", ("n",), [n], n // 3)
    (True, False)
    """
    wrong = disagreements(text, names, columns, expected)
    return wrong is not None and not wrong.any()


def disagreements(text: str, names: Sequence[str], columns: Sequence[np.ndarray],
                  expected: np.ndarray) -> np.ndarray | None:
    """Where the formula ``text`` differs from ``expected`` (a boolean array over the positions); None when it
    cannot be evaluated exactly at every position.

    >>> n = np.arange(8)
    >>> np.flatnonzero(disagreements("n % 3 == 0", ("n",), [n], n % 4 == 0)).tolist()
    [3, 4, 6]
    """
    got = _evaluate(text, names, columns, truth=expected.dtype == bool)
    return None if got is None else got != expected


def conjunctions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
                 extra: Sequence[str] = ()) -> Iterator[str]:
    """Every conjunction of at most :data:`MAX_ATOMS` atoms (of the grammar, and the atoms ``extra``) that is true
    exactly on ``inside`` (a boolean array over the positions), fewest atoms first, then shortest text.

    >>> n = np.arange(40)
    >>> list(conjunctions(("n",), [n], n % 4 == 1))[:2]
    ['n % 4 == 1']
    >>> list(conjunctions(("n",), [n], n % 5 == 1)), list(conjunctions(("n",), [n], n % 5 == 1, ["n % 5 == 1"]))
    ([], ['n % 5 == 1'])
    """
    masks: list[tuple[str, np.ndarray]] = []
    for atom in [*atoms(names), *extra]:
        mask = _evaluate(atom, names, columns, truth=True)
        # an atom of a conjunction holds at every position of the set; one that holds everywhere says nothing
        if mask is not None and bool(mask[inside].all()) and not bool(mask.all()):
            masks.append((atom, mask))
    for size in range(1, MAX_ATOMS + 1):
        found = []
        for combo in itertools.combinations(masks, size):
            mask = np.logical_and.reduce([m for _, m in combo])
            if np.array_equal(mask, inside) and all(
                    not np.array_equal(np.logical_and.reduce([m for j, (_, m) in enumerate(combo) if j != i]), inside)
                    for i in range(size) if size > 1):   # every atom is needed
                found.append(guards_first([a for a, _ in combo]))
        yield from sorted(found, key=len)


def _bits(mask: np.ndarray) -> int:
    """A boolean array as the bits of one integer (bit i: position i), for fast unions and intersections."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def _atom_masks(names: Sequence[str], columns: Sequence[np.ndarray],
                extra: Sequence[str] = ()) -> list[tuple[str, np.ndarray]]:
    """Every atom of the grammar (and of ``extra``) with its truth at the positions, leaving out those true nowhere
    or everywhere."""
    out = []
    for atom in [*atoms(names), *extra]:
        mask = _evaluate(atom, names, columns, truth=True)
        if mask is not None and bool(mask.any()) and not bool(mask.all()):
            out.append((atom, mask))
    return out


def _grouped(parts: Sequence[str]) -> str:
    """Formulas joined by ``or``, each conjunction in parentheses.

    >>> _grouped(["z == 0", "x < y and y == z"])
    'z == 0 or (x < y and y == z)'
    """
    return " or ".join(f"({p})" if " and " in p and len(parts) > 1 else p for p in parts)


def disjunctions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
                 extra: Sequence[str] = ()) -> list[str]:
    """Every disjunction of two conjunctions, at most :data:`MAX_ATOMS` atoms in all, true exactly on ``inside``:
    each disjunct true only inside, neither contained in the other, every atom of a conjunction needed; fewest
    atoms first, then shortest text.

    >>> x, y, z = (a.ravel() for a in np.meshgrid(*[np.arange(6)] * 3, indexing="ij"))
    >>> p = (z == 0) | ((x < y) & (y == z))
    >>> disjunctions(("x", "y", "z"), [x, y, z], p)[0]
    'z == 0 or (x < y and y == z)'
    """
    target = _bits(inside)
    if not target:
        return []
    masks = [(a, _bits(m)) for a, m in _atom_masks(names, columns, extra)]
    singles = [(a, b, 1) for a, b in masks if not b & ~target]
    pairs = []
    for (a1, b1), (a2, b2) in itertools.combinations(masks, 2):
        both = b1 & b2
        if both and not both & ~target and both not in (b1, b2):
            pairs.append((guards_first([a1, a2]), both, 2))
    found = []
    for i, (a, b, _) in enumerate(singles):
        for text, c, size in singles[i + 1:] + pairs:
            if b | c == target and c & ~b and b & ~c and 1 + size <= MAX_ATOMS:
                found.append((1 + size, _grouped([a, text])))
    return [text for _, text in sorted(found, key=lambda f: (f[0], len(f[1])))]


def _point(names: Sequence[str], values: Sequence[int]) -> str:
    """One position as a conjunction of equations.

    >>> _point(("x", "y"), (0, 1))
    'x == 0 and y == 1'
    """
    return " and ".join(f"{n} == {int(v)}" for n, v in zip(names, values))


def with_exceptions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray,
                    extra: Sequence[str] = ()) -> list[str]:
    """Conjunctions of the grammar true exactly on ``inside`` outside the corner where every coordinate is below
    :data:`CORNER`, with the at most :data:`MAX_EXCEPTIONS` positions of the corner where they are wrong stated as a
    finite exception set: the positions to remove by a bound ``x >= m`` when one removes exactly them (else
    listed after ``not``), the positions to add joined by ``or``; simplest first.

    >>> x, y = (a.ravel() for a in np.meshgrid(np.arange(12), np.arange(12), indexing="ij"))
    >>> p = ((x == y) & (x >= 2)) | ((x == 0) & (y == 1)) | ((x == 1) & (y == 0))
    >>> with_exceptions(("x", "y"), [x, y], p)[0]
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
            cut = next((f"{n} >= {m}" for n, col in zip(names, columns) for m in range(1, CORNER)
                        if np.array_equal(mask & (col >= m), kept)), None)
            gone = [_point(names, [c[i] for c in columns]) for i in np.flatnonzero(removed)]
            core = f"{core} and {cut}" if cut else f"{core} and not ({_grouped(gone)})"
        plus = [_point(names, [c[i] for c in columns]) for i in np.flatnonzero(added)]
        out.append(_grouped([core] + plus))
    return sorted(dict.fromkeys(out), key=len)


#: the Beatty pairs tried: (the built-in giving floor(n alpha), k) for the pairs (floor(n alpha), floor(n alpha) + k n);
#: alpha = phi with k = 1 (Wythoff's P-positions) and alpha = sqrt 2 with k = 2 (Fraenkel's a-Wythoff for a = 2) are
#: complementary pairs (1 / alpha + 1 / (alpha + k) = 1)
BEATTY = (("floor_phi", 1), ("floor_sqrt2", 2), ("floor_phi", 2), ("floor_sqrt2", 1))


def beatty_side(low: str, high: str, floor: str, k: int) -> str:
    """The positions (low, high) = (floor(n alpha), floor(n alpha) + k n) for some n >= 0, as a conjunction whose
    order relation comes first (Walnut then reads ``high - low`` as a natural number).

    >>> beatty_side("x", "y", "floor_phi", 1)
    'x <= y and x == floor_phi(y - x)'
    >>> beatty_side("x", "y", "floor_sqrt2", 2)
    'x <= y and (y - x) % 2 == 0 and x == floor_sqrt2((y - x) // 2)'
    """
    if k == 1:
        return f"{low} <= {high} and {low} == {floor}({high} - {low})"
    return f"{low} <= {high} and ({high} - {low}) % {k} == 0 and {low} == {floor}(({high} - {low}) // {k})"


def beatty_pairs(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray) -> list[str]:
    """The P-sets of two coordinates made of a Beatty pair (:data:`BEATTY`), with its mirror image or on one side
    of the diagonal, true exactly on ``inside``.

    >>> x, y = (a.ravel() for a in np.meshgrid(np.arange(40), np.arange(40), indexing="ij"))
    >>> phi = (1 + 5 ** 0.5) / 2
    >>> pairs = {(int(n * phi), int(n * phi) + n) for n in range(40)}
    >>> p = np.array([(a, b) in pairs or (b, a) in pairs for a, b in zip(x.tolist(), y.tolist())])
    >>> beatty_pairs(("x", "y"), [x, y], p)
    ['(x <= y and x == floor_phi(y - x)) or (y <= x and y == floor_phi(x - y))']
    """
    if len(names) != 2:
        return []
    a, b = names
    out = []
    for floor, k in BEATTY:
        lower, upper = beatty_side(a, b, floor, k), beatty_side(b, a, floor, k)
        for text in (_grouped([lower, upper]), lower, upper):
            if agrees(text, names, columns, inside):
                out.append(text)
    return out


def fit_p_set(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray) -> list[str]:
    """The formulas of the grammar true exactly at the P-positions ``inside`` of the table, simplest first.

    >>> n = np.arange(64)
    >>> fit_p_set(("n",), [n], (n & (n + 1)) == 0)
    ['n & (n + 1) == 0']
    """
    if not inside.any():
        return []
    return list(conjunctions(names, columns, inside))


def fit_grundy(names: Sequence[str], columns: Sequence[np.ndarray], values: np.ndarray) -> list[str]:
    """The terms of the grammar, and the 2-adic valuations of a term plus one, equal to the Grundy values
    ``values`` at every position of the table, simplest first.

    >>> x, y = np.arange(8).repeat(8), np.tile(np.arange(8), 8)
    >>> v = np.array([((a | b) + 1 & -((a | b) + 1)).bit_length() - 1 for a, b in zip(x.tolist(), y.tolist())])
    >>> fit_grundy(("x", "y"), [x, y], v)
    ['v2((x | y) + 1)']
    """
    candidates = terms(names) + [f"v2(({t}) + 1)" if " " in t else f"v2({t} + 1)" for t in terms(names)]
    out = []
    for text in candidates:
        got = _evaluate(text, names, columns, truth=False)
        if got is not None and np.array_equal(got, values):
            out.append(text)
    return sorted(out, key=len)


#: the largest modulus of the residue atoms a learned automaton is read back with
MAX_READ_MODULUS = 12


def residue_atoms(names: Sequence[str], moduli: Sequence[int]) -> list[str]:
    """Residue atoms beyond the grammar's moduli, for reading a learned automaton back: a coordinate's residue, the
    residue of a sum of two, two coordinates congruent, and a coordinate equal to another's residue.

    >>> residue_atoms(("x", "y"), [5])[-3:]
    ['x % 5 == y % 5', 'x == y % 5', 'y == x % 5']
    >>> len(residue_atoms(("n",), [5, 6]))
    11
    """
    out = []
    for m in moduli:
        out += [f"{a} % {m} == {r}" for a in names for r in range(m)]
        for a, b in itertools.combinations(names, 2):
            out += [f"({a} + {b}) % {m} == {r}" for r in range(m)]
            out += [f"{a} % {m} == {b} % {m}", f"{a} == {b} % {m}", f"{b} == {a} % {m}"]
    return out


def read_back(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray, states: int) -> list[str]:
    """The formulas true exactly on ``inside`` (where a learned automaton of ``states`` states accepts), simplest
    class first: a conjunction, a disjunction, a Beatty pair (two coordinates), a conjunction with a finite exception
    set, with the grammar's atoms
    and residue atoms of the moduli 5 to min(states, :data:`MAX_READ_MODULUS`) (an automaton counting residues
    modulo m has at least m states when m is odd); each class shortest first.

    >>> x, y = (a.ravel() for a in np.meshgrid(np.arange(20), np.arange(20), indexing="ij"))
    >>> read_back(("x", "y"), [x, y], x == y % 5, 13)[0]
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
    return list(dict.fromkeys(out))
