"""The runtime of the expression language: the evaluation budget, exact values, and the callables a spec
defines (lambdas and ``[define]`` functions).

>>> norm(Fraction(4, 2)), MAX_STEPS
(2, 1000000)
"""
from __future__ import annotations

import ast
from fractions import Fraction
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator

from nimjos.lang.errors import EvalError, ResourceError, StepLimitError

#: most steps one evaluation may take (loop iterations: comprehensions, iterate(), a recursion's levels; calls of
#: lambdas and definitions; options listed)
MAX_STEPS = 1_000_000
#: most bits an integer produced by ** or << may have
MAX_BITS = 1_000_000
#: deepest nesting of lambda / definition calls
MAX_DEPTH = 200
#: most values a recursive definition memoises before its memo is cleared
MAX_MEMO = 1_000_000
#: deepest nesting of an expression's syntax tree (keeps every recursive pass far from Python's stack limit)
MAX_NESTING = 200

Env = dict


class EvaluationBudget:
    """Counts the steps and call depth of the evaluation in progress: one per claim being checked (its
    context installs it with :func:`using_budget`), so that no claim starts with another's count or limit.

    A step is one unit of work the language can repeat: a loop iteration (comprehension, iterate(), a
    recursion's level), a call of a lambda or a definition, an option listed by options(). `steps` restarts
    at each evaluation and is refused past `limit` (:data:`MAX_STEPS` unless :func:`step_limit` says less);
    `spent` only grows, so a caller measures the work of several evaluations as a difference. The memo tables of
    the claim's evaluations (:meth:`memo`) live here too: a value found in a memo costs no steps, so a claim that
    found another claim's values there would be judged with a different budget.

    >>> budget = EvaluationBudget()
    >>> with using_budget(budget), step_limit(3):
    ...     try:
    ...         active_budget().spend(5)
    ...     except ResourceError as exc:
    ...         print(exc.message)
    an evaluation took more than 3 steps (loop iterations and calls: a comprehension or iterate() over too large a range?)
    >>> budget.spent, budget.limit == MAX_STEPS, active_budget() is budget
    (5, True, False)
    """

    __slots__ = ("steps", "depth", "limit", "spent", "memos")

    def __init__(self) -> None:
        self.steps = 0
        self.depth = 0
        self.limit = MAX_STEPS
        self.spent = 0
        self.memos: dict = {}

    def memo(self, owner: Any) -> dict:
        """The memo table of `owner` (a recursive definition, the iterates of iterate()) for this budget's
        evaluations, empty at first.

        >>> b = EvaluationBudget(); b.memo("f")[3] = 9; b.memo("f"), EvaluationBudget().memo("f")
        ({3: 9}, {})
        """
        table = self.memos.get(owner)
        if table is None:
            table = self.memos[owner] = {}
        return table

    def spend(self, n: int = 1) -> None:
        """Count `n` steps of the evaluation in progress; refuse the evaluation past the limit."""
        self.steps += n
        self.spent += n
        if self.steps > self.limit:
            limit, self.steps = self.limit, 0
            raise StepLimitError(f"an evaluation took more than {limit:,} steps (loop iterations and calls: a "
                                "comprehension or iterate() over too large a range?)")

    def restart(self) -> None:
        """Begin one evaluation: no steps taken, no calls nested (`spent` keeps counting).

        >>> b = EvaluationBudget(); b.spend(2); b.restart(); b.steps, b.depth, b.spent
        (0, 0, 2)
        """
        self.steps = 0
        self.depth = 0


#: the budget of the claim being checked (set by :func:`using_budget`); outside a check (a tool, a doctest)
#: evaluations count against the default, which no check uses
_ACTIVE_BUDGET: ContextVar[EvaluationBudget] = ContextVar("evaluation budget", default=EvaluationBudget())


def active_budget() -> EvaluationBudget:
    """The evaluation budget of the claim being checked (see :func:`using_budget`), else the budget of
    evaluations outside any check.

    >>> active_budget() is active_budget()
    True
    """
    return _ACTIVE_BUDGET.get()


@contextmanager
def using_budget(budget: EvaluationBudget) -> Iterator[EvaluationBudget]:
    """Evaluations in the body count against `budget` (one claim's): the per-claim context installs it.

    >>> mine = EvaluationBudget()
    >>> with using_budget(mine):
    ...     active_budget() is mine
    True
    >>> active_budget() is mine
    False
    """
    token = _ACTIVE_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _ACTIVE_BUDGET.reset(token)


@contextmanager
def step_limit(steps: int) -> Iterator[None]:
    """Evaluations in the body may take at most `steps` steps each (at most :data:`MAX_STEPS`).

    >>> with step_limit(10):
    ...     active_budget().limit
    10
    >>> active_budget().limit == MAX_STEPS
    True
    """
    budget = active_budget()
    old = budget.limit
    budget.limit = min(steps, MAX_STEPS)
    try:
        yield
    finally:
        budget.limit = old


class DepthError(ResourceError):
    """Calls nested deeper than :data:`MAX_DEPTH` (or than Python's stack allows)."""


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
        budget = _ACTIVE_BUDGET.get()   # active_budget(), without a Python call: the hot path of every call
        budget.spend()
        budget.depth += 1
        try:
            if budget.depth > MAX_DEPTH:
                raise DepthError(f"calls nested deeper than {MAX_DEPTH} (a lambda calling itself?)")
            return self.body(env)
        finally:
            budget.depth -= 1

    @property
    def node(self) -> ast.Lambda:
        """The lambda's syntax tree (the node it was compiled from: the first part of its key)."""
        return self.key[0]

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
    """A function from a spec's ``[define]`` table, e.g. ``"g(k, n)" = "n + floor(n / (k - 1)) + 1"``.

    A *recursive* definition (one that calls itself: ``nimjos.spec.definitions`` allows it) recurses on its first
    argument, which must be a non-negative integer and strictly smaller in every call made while the definition
    is being evaluated; its values are memoised in the claim's budget (:meth:`EvaluationBudget.memo`: one claim's
    memo never spares another's steps). A recursion nested deeper than :data:`MAX_DEPTH` calls is
    evaluated bottom-up instead (the first argument 0, 1, ..., n, each value memoised), within the step budget.

    >>> fib = Definition("fib", ("n",), "", None)
    >>> fib.recursive = True
    >>> fib.body = lambda env: env["n"] if env["n"] < 2 else fib(env["n"] - 1) + fib(env["n"] - 2)
    >>> fib(10), fib(1000) % 1000
    (55, 875)
    """

    def __init__(self, name: str, params: tuple[str, ...], text: str, tree: ast.expr):
        self.name = name
        self.params = params
        self.text = text
        self.tree = tree
        self.body: Callable | None = None  # compiled on first use (allows forward references)
        self.line: int | None = None  # the line of its head in the spec, set by the loader
        self.recursive = False
        self._active: list[int] = []  # first arguments of the recursive calls being evaluated, outermost first

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.params):
            raise EvalError(f"{self.name} takes {len(self.params)} arguments, got {len(args)}")
        if self.recursive:
            return self._recursive_call(args)
        return self._evaluate(args)

    def _evaluate(self, args: tuple) -> Any:
        budget = _ACTIVE_BUDGET.get()   # active_budget(), without a Python call: the hot path of every call
        budget.spend()
        budget.depth += 1
        try:
            if budget.depth > MAX_DEPTH:
                raise DepthError(f"calls nested deeper than {MAX_DEPTH}")
            # the loader (nimjos.spec.definitions) compiles every body before a claim calls it: no check here
            return self.body(dict(zip(self.params, args)))  # type: ignore[misc]  # body set by the loader
        finally:
            budget.depth -= 1

    def _recursive_call(self, args: tuple) -> Any:
        key = args if _hashable(args) else None
        memo = active_budget().memo(self)
        if key is not None:
            hit = memo.get(key, _MISSING)
            if hit is not _MISSING:
                return hit
        n = args[0]
        if type(n) is not int or n < 0:
            raise EvalError(f"{self!r} recurses on {self.params[0]}, which must be a non-negative integer; "
                            f"called with {self.params[0]} = {n!r}")
        active = self._active
        if active and n >= active[-1]:
            raise EvalError(f"{self!r} at {self.params[0]} = {active[-1]} calls itself with {self.params[0]} = {n}: "
                            f"a recursion must make {self.params[0]} strictly smaller")
        outermost = not active
        too_deep = False
        active.append(n)
        try:
            value = self._evaluate(args)
        except (DepthError, RecursionError):
            if not outermost:
                raise
            too_deep = True
        finally:
            active.pop()
        if too_deep:
            value = self._bottom_up(args, memo)
        if key is not None:
            if len(memo) >= MAX_MEMO:
                memo.clear()
            memo[key] = value
        return value

    def _bottom_up(self, args: tuple, memo: dict) -> Any:
        """Evaluate a recursion too deep to nest: the first argument 0, 1, ..., n in turn, each value memoised
        (a value that cannot be evaluated is skipped: the recursion may never need it)."""
        n, rest = args[0], args[1:]
        try:
            if n > MAX_STEPS:
                raise StepLimitError(f"{n:,} steps would exceed the limit of {MAX_STEPS:,}")
            budget = active_budget()
            for m in range(n):
                budget.spend()
                if (m, *rest) in memo:
                    continue
                self._active.append(m)
                try:
                    memo[(m, *rest)] = self._evaluate((m, *rest))
                except EvalError:
                    pass
                finally:
                    self._active.pop()
            self._active.append(n)
            try:
                return self._evaluate(args)
            finally:
                self._active.pop()
        except DepthError:
            raise DepthError(f"{self!r}: a recursion deeper than {MAX_DEPTH} calls, even evaluated bottom-up from "
                             f"{self.params[0]} = 0") from None
        except ResourceError as exc:
            raise ResourceError(f"{self!r} at {self.params[0]} = {n}: a recursion deeper than {MAX_DEPTH} calls is "
                                f"evaluated bottom-up ({self.params[0]} = 0, 1, ..., {n}), and that went over the "
                                f"budget: {exc}") from None

    def __repr__(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


_MISSING = object()


def _hashable(v: Any) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False


class _Stream:
    """A lazy sequence from a generator expression; consumed by all/any/sum/min/max/set/tuple."""

    __slots__ = ("gen",)

    def __init__(self, gen: Any):
        self.gen = gen

    def __iter__(self):
        return self.gen

    def __repr__(self) -> str:
        return "(the values of a generator)"   # an error message names the argument, not a Python object
