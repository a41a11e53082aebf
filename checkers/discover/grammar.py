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
#: the most atoms of a conjunction
MAX_ATOMS = 3


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


def conjunctions(names: Sequence[str], columns: Sequence[np.ndarray], inside: np.ndarray) -> Iterator[str]:
    """Every conjunction of at most :data:`MAX_ATOMS` atoms that is true exactly on ``inside`` (a boolean array
    over the positions), fewest atoms first, then shortest text.

    >>> n = np.arange(40)
    >>> list(conjunctions(("n",), [n], n % 4 == 1))[:2]
    ['n % 4 == 1']
    """
    masks: list[tuple[str, np.ndarray]] = []
    for atom in atoms(names):
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
