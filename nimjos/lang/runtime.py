"""The runtime of the expression language: the evaluation budget, exact values, and the callables a spec
defines (lambdas and ``[define]`` functions).

>>> norm(Fraction(4, 2)), MAX_STEPS
(2, 1000000)
"""
from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any, Callable

from nimjos.lang.errors import EvalError, ResourceError

#: most loop steps (comprehension iterations, iterate() applications) one evaluation may take
MAX_STEPS = 1_000_000
#: most bits an integer produced by ** or << may have
MAX_BITS = 1_000_000
#: deepest nesting of lambda / definition calls
MAX_DEPTH = 200
#: deepest nesting of an expression's syntax tree (keeps every recursive pass far from Python's stack limit)
MAX_NESTING = 200

Env = dict


class _Budget:
    """Counts loop steps and call depth of the evaluation in progress (single-threaded per process)."""

    __slots__ = ("steps", "depth")

    def __init__(self) -> None:
        self.steps = 0
        self.depth = 0

    def spend(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_STEPS:
            self.steps = 0
            raise ResourceError(f"an evaluation took more than {MAX_STEPS:,} loop steps (a comprehension or "
                                "iterate() over too large a range?)")


BUDGET = _Budget()


def norm(q: Any) -> Any:
    """Turn a whole Fraction into an int; leave everything else alone.

    >>> norm(Fraction(4, 2)), norm(Fraction(1, 2))
    (2, Fraction(1, 2))
    """
    if type(q) is Fraction and q.denominator == 1:
        return q.numerator
    return q


# ----------------------------------------------------------------------------- callables of the language

class Lambda:
    """A lambda of the spec language. Captures the values of its free names when created.

    Two lambdas are equal (and hash alike) when they come from the same source node and captured the same
    values, so game instances and memo tables keyed by them are shared safely (expressions are pure).
    """

    __slots__ = ("params", "body", "env", "key", "text")

    def __init__(self, params: tuple[str, ...], body: Callable, env: Env, key: tuple, text: str):
        self.params = params
        self.body = body
        self.env = env
        self.key = key
        self.text = text

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.params):
            raise EvalError(f"lambda {', '.join(self.params)} called with {len(args)} arguments")
        env = dict(self.env)
        for p, a in zip(self.params, args):
            env[p] = a
        BUDGET.depth += 1
        try:
            if BUDGET.depth > MAX_DEPTH:
                raise ResourceError(f"calls nested deeper than {MAX_DEPTH} (a lambda calling itself?)")
            return self.body(env)
        finally:
            BUDGET.depth -= 1

    def __hash__(self) -> int:
        try:
            return hash(self.key)
        except TypeError:
            return id(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lambda) and self.key == other.key

    def __repr__(self) -> str:
        return self.text


class Definition:
    """A function from a spec's ``[define]`` table, e.g. ``"g(k, n)" = "n + floor(n / (k - 1)) + 1"``."""

    def __init__(self, name: str, params: tuple[str, ...], text: str, tree: ast.expr):
        self.name = name
        self.params = params
        self.text = text
        self.tree = tree
        self.body: Callable | None = None  # compiled on first use (allows forward references)

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.params):
            raise EvalError(f"{self.name} takes {len(self.params)} arguments, got {len(args)}")
        BUDGET.depth += 1
        try:
            if BUDGET.depth > MAX_DEPTH:
                raise ResourceError(f"calls nested deeper than {MAX_DEPTH}")
            return self.body(dict(zip(self.params, args)))  # type: ignore[misc]
        finally:
            BUDGET.depth -= 1

    def __repr__(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


class _Stream:
    """A lazy sequence from a generator expression; consumed by all/any/sum/min/max/set/tuple."""

    __slots__ = ("gen",)

    def __init__(self, gen: Any):
        self.gen = gen

    def __iter__(self):
        return self.gen
