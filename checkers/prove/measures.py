"""The candidate termination measures the prover searches when a game declares no ``measure`` and the
coordinate sum (or one coordinate) does not decrease on every move: the weighted sums of the coordinates with
weights 1..4 (smallest total weight first), then the lexicographic orders of the coordinates.

The search itself is :meth:`checkers.prove.queries.GameQueries.q_found_measure`: a counterexample-guided loop
in which each Z3 model of a move that does not decrease a candidate gives a change of the coordinates
(:attr:`Candidate.decreases` on it) that rules out every other candidate it does not decrease either, without
asking Z3. The candidate that survives is then proved like a declared measure: an integer >= 0 on the claim's
domain that every move decreases (lexicographically, for an order), the moves keeping the coordinates >= 0 and
staying in the domain. Over the non-negative integers a weighted sum with positive weights is a non-negative
integer and the lexicographic order is well founded, which makes either an induction order; the proof asks it
of the domain all the same, since a domain that lets a coordinate be negative makes neither bounded.

>>> [c.texts for c in candidates(("a", "b"))][:3]
[('a + 2*b',), ('2*a + b',), ('a + 3*b',)]
>>> [c.texts for c in candidates(("a", "b")) if c.kind == "lex"]
[('a', 'b'), ('b', 'a')]
>>> [c.texts for c in candidates(("a", "b")) if all(c.decreases(d) for d in [(1, -1), (-1, 0)])][:2]
[('a + 2*b',), ('a + 3*b',)]
"""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from typing import Iterator

from nimjos.lang import build

#: the weights a weighted sum of the coordinates may give each coordinate
WEIGHTS = (1, 2, 3, 4)
#: the most coordinates a game may have for the search (4^6 weighted sums and 6! orders are listed in Python)
MAX_COORDS = 6
#: the most Z3 queries one search asks (each a move's descent or the bound on the domain, without shrinking)
MAX_QUERIES = 24


@dataclass(frozen=True)
class Candidate:
    """A candidate measure: a weighted sum ("sum", the weights) or a lexicographic order ("lex", the indices of
    the coordinates, most significant first), with its expressions over the game's coordinates."""

    kind: str
    key: tuple[int, ...]
    texts: tuple[str, ...]
    #: the game's coordinates, in its order (what the expressions are built from)
    coords: tuple[str, ...] = ()

    def trees(self) -> tuple[ast.expr, ...]:
        """The candidate's expressions as fresh trees, built from the coordinates (the texts are for the words).

        >>> [ast.unparse(t) for t in Candidate("sum", (1, 2), ("a + 2*b",), ("a", "b")).trees()]
        ['a + 2 * b']
        >>> [ast.unparse(t) for t in Candidate("lex", (1, 0), ("b", "a"), ("a", "b")).trees()]
        ['b', 'a']
        """
        if self.kind == "sum":
            return (weighted_tree(self.coords, self.key),)
        return tuple(build.name(self.coords[i]) for i in self.key)

    def decreases(self, delta: tuple[int, ...]) -> bool:
        """Does a move that changes the coordinates by `delta` decrease this measure? Both kinds depend on the
        change alone, so one counterexample rules out every candidate it does not decrease.

        >>> Candidate("sum", (1, 2), ("a + 2*b",)).decreases((1, -1)), Candidate("sum", (2, 1), ("2*a + b",)).decreases((1, -1))
        (True, False)
        >>> Candidate("lex", (1, 0), ("b", "a")).decreases((5, -1)), Candidate("lex", (1, 0), ("b", "a")).decreases((0, 0))
        (True, False)
        """
        if self.kind == "sum":
            return sum(w * d for w, d in zip(self.key, delta)) < 0
        first = next((delta[i] for i in self.key if delta[i] != 0), 0)
        return first < 0


def weighted_tree(coords: tuple[str, ...], weights: tuple[int, ...]) -> ast.expr:
    """The tree of :func:`weighted_text`, built from the names (left to right, as the text reads).

    >>> ast.unparse(weighted_tree(("a", "b", "c"), (1, 2, 3)))
    'a + 2 * b + 3 * c'
    """
    terms = [build.name(c) if w == 1 else ast.BinOp(build.constant(w), ast.Mult(), build.name(c))
             for c, w in zip(coords, weights)]
    tree = terms[0]
    for t in terms[1:]:
        tree = ast.BinOp(tree, ast.Add(), t)
    return tree


def weighted_text(coords: tuple[str, ...], weights: tuple[int, ...]) -> str:
    """A weighted sum of the coordinates as a spec writes it.

    >>> weighted_text(("a", "b", "c"), (1, 2, 3))
    'a + 2*b + 3*c'
    """
    return " + ".join(c if w == 1 else f"{w}*{c}" for c, w in zip(coords, weights))


def candidates(coords: tuple[str, ...]) -> Iterator[Candidate]:
    """The weighted sums with weights 1..4 (the plain sum left out: the prover tried it first), smallest total
    weight first, then the lexicographic orders of the coordinates.

    >>> len(list(candidates(("a", "b", "c")))), next(iter(candidates(("a", "b", "c")))).texts
    (69, ('a + b + 2*c',))
    """
    k = len(coords)
    weights = sorted((w for w in itertools.product(WEIGHTS, repeat=k) if any(x != 1 for x in w)),
                     key=lambda w: (sum(w), w))
    for w in weights:
        yield Candidate("sum", w, (weighted_text(coords, w),), coords)
    for order in itertools.permutations(range(k)):
        yield Candidate("lex", order, tuple(coords[i] for i in order), coords)


def measure_text(texts: tuple[str, ...]) -> str:
    """A measure's words: its one expression, or its list compared lexicographically.

    >>> measure_text(("x1 + 2*x2",)), measure_text(("x2", "x1"))
    ('the measure x1 + 2*x2', 'the measure (x2, x1) lexicographically')
    """
    return f"the measure {texts[0]}" if len(texts) == 1 else f"the measure ({', '.join(texts)}) lexicographically"


def found_words(found: list[tuple[str, ...]]) -> str:
    """The words a proof's scope adds for the measures the search found (one per proved instance): empty for
    none; one measure when every instance found the same.

    >>> found_words([("a + 2*b",), ("a + 2*b",)])
    ' the measure a + 2*b (found by a search, as the game declares none; proved: every move decreases it, and it is >= 0 on the domain)'
    >>> found_words([("a + 2*b",), ("b", "a")])
    ' a measure found by a search for each instance, as the game declares none (the measure a + 2*b; the measure (b, a) lexicographically; proved: every move decreases it, and it is >= 0 on the domain)'
    >>> found_words([])
    ''
    """
    distinct = list(dict.fromkeys(found))
    proved = "proved: every move decreases it, and it is >= 0 on the domain"
    if not distinct:
        return ""
    if len(distinct) == 1:
        return f" {measure_text(distinct[0])} (found by a search, as the game declares none; {proved})"
    return (" a measure found by a search for each instance, as the game declares none ("
            + "; ".join(measure_text(t) for t in distinct) + f"; {proved})")


#: what a user can do when no measure is found
HINT = "a `measure` in the game's declaration can give one (see 'measure' in docs/spec-format.md)"
