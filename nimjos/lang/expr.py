"""The expression language's entry: expression text compiled into a :class:`Compiled` expression (parsed
under the whitelist by :mod:`nimjos.lang.syntax`, compiled by :mod:`nimjos.lang.compiler`, with the operators
of :mod:`nimjos.lang.operators`), and one evaluation of a compiled closure under a fresh step budget.

Semantics: integers are exact and unbounded; ``/`` is exact (a Fraction, normalised to int when whole);
``//`` and ``%`` are exact floor division and remainder; ``**`` is power with a size guard; ``^`` is refused
with a hint; comparisons chain; ``x in S`` also accepts a predicate S (a lambda or definition).

>>> ns = Namespace()
>>> e = compile_expression("floor(x / 2) + xor(3, 5)", ns, variables={"x"})
>>> e({"x": 7})
9
>>> compile_expression("x ^ 1", ns, variables={"x"})
Traceback (most recent call last):
...
nimjos.lang.errors.SpecError: '^' is not an operator of the spec language (use ** for power, xor(a, b) for the nim-sum)
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Callable

from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import ResourceError
from nimjos.lang.runtime import Env, active_budget
from nimjos.lang.syntax import free_names, parse


@dataclass
class Compiled:
    """A compiled expression: its text, tree, free variables and the closure; calling it is one evaluation.

    >>> c = compile_expression("x // 2", Namespace(), {"x"})
    >>> c.variables, c({"x": 9})
    (('x',), 4)
    """

    text: str
    tree: ast.expr
    fn: Callable[[Env], Any]
    variables: tuple[str, ...]

    def __call__(self, env: Env) -> Any:
        return evaluate(self.fn, env)


def evaluate(fn: Callable[[Env], Any], env: Env) -> Any:
    """Run a compiled closure as one evaluation: a fresh step budget, and Python's own limits (recursion,
    memory) reported as :class:`ResourceError`.

    >>> evaluate(compile_tree(parse("x * 2"), Namespace(), {"x"}), {"x": 21})
    42
    """
    active_budget().restart()
    try:
        return fn(env)
    except RecursionError:
        raise ResourceError("expression nested too deeply to evaluate") from None
    except MemoryError:
        raise ResourceError("ran out of memory while evaluating (a collection or number too large?)") from None


def variables_of(tree: ast.AST, ns: Namespace) -> list[str]:
    """The free names of an expression that are neither built-ins, definitions nor games.

    >>> variables_of(parse("floor(x / k) + g(k, x)"), Namespace())
    ['x', 'k', 'g']
    """
    known = ns.known()
    return [n for n in free_names(tree) if n not in known]


def compile_expression(text: str, ns: Namespace, variables: set[str] | frozenset[str] = frozenset()) -> Compiled:
    """Parse, check and compile expression text; every free name must be a variable or known to `ns`.

    >>> compile_expression("max(x, 3) * 2", Namespace(), {"x"})({"x": 5})
    10
    >>> compile_expression("flor(x)", Namespace(), {"x"})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: unknown name 'flor' (did you mean 'floor' or 'floor_phi'?)
    """
    tree = parse(text)
    fn = compile_tree(tree, ns, variables)
    return Compiled(text, tree, fn, tuple(n for n in variables_of(tree, ns) if n in variables))
