"""The options of a move family whose innermost bound name enters linearly, listed a block at a time: for each
binding of the outer names, the values of the innermost name that the family's conditions allow form an interval,
and the options are ``a + b * (v - lo)`` over it, with no evaluation of the target or the conditions at each value.

A family qualifies when, read from its syntax once (:meth:`LinearFamily.of`):

- its innermost level binds a name to an integer range;
- each coordinate of its target is affine in that name (``a + b * name``, :func:`is_affine`);
- each condition the binder keeps as a filter at that level is a comparison chain (``<``, ``<=``, ``>``, ``>=``,
  ``==``) whose every term is affine in the name: its solutions are an interval, computed exactly;
- the target and those conditions call only arithmetic built-ins (:data:`SPEND_FREE`) and name no definition, so
  that listing the options spends the evaluation's budget exactly as evaluating them value by value does (none).

At run time, a term's value at ``lo`` and its slope (its value at ``lo + 1`` less that) give the linear function,
exactly; a value that is not an integer (a fraction, a boolean) raises :class:`NotLinear`, and the caller lists
the family value by value, which reports what is wrong as it always did. The options come in the order of the
value-by-value listing.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.binders import Binder
>>> ns = Namespace()
>>> b = Binder.from_text("0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u", ns, {"x", "y"}, coords=("x", "y"))
>>> fam = LinearFamily.of(b, ast.parse("(x - t, y - u)", mode="eval").body, ns, {"x", "y", "t", "u"})
>>> [(a, step, n) for a, step, n in fam.blocks(b, {"x": 1, "y": 2})]
[([1, 1], [0, -1], 2), ([0, 2], [0, -1], 3)]
>>> out = []
>>> for a, step, n in fam.blocks(b, {"x": 1, "y": 2}): fam.extend(out, a, step, n)
>>> out
[(1, 1), (1, 0), (0, 2), (0, 1), (0, 0)]
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from nimjos.lang.binders import Binder, Level
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.builtins import BUILTINS
from nimjos.lang.syntax import free_names

#: built-ins that compute a number from numbers and spend none of the evaluation's budget (``iterate`` spends a
#: step per iterate; the collections' built-ins take comprehensions, which spend)
SPEND_FREE = frozenset({"abs", "ceil", "floor", "floor_phi", "floor_phi2", "floor_sqrt2", "gcd", "ilog2", "isqrt",
                        "max", "min", "popcount", "v2", "xor", "fibonacci", "zeck_shift", "zeck_tz"})

#: the comparisons whose solutions in one integer name, both sides affine in it, form an interval
_INTERVAL_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq)


class NotLinear(Exception):
    """A value of the family at this binding is not an integer: list it value by value instead."""


def is_affine(node: ast.AST, var: str) -> bool:
    """Is the expression affine in `var` (a + b * var with a, b free of var), by its structure?

    >>> is_affine(ast.parse("x - 1 - 2 * a", mode="eval").body, "a"), is_affine(ast.parse("a * a", mode="eval").body, "a")
    (True, False)
    """
    if var not in free_names(node):
        return True
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return is_affine(node.operand, var)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return is_affine(node.left, var) and is_affine(node.right, var)
        if isinstance(node.op, ast.Mult):
            l_free = var not in free_names(node.left)
            r_free = var not in free_names(node.right)
            return (l_free and is_affine(node.right, var)) or (r_free and is_affine(node.left, var))
    return False


def spends(tree: ast.AST, ns: Namespace) -> bool:
    """Could evaluating `tree` spend a step of the evaluation's budget: a comprehension, a lambda, a definition
    named, or a call of anything but an arithmetic built-in (:data:`SPEND_FREE`)?

    >>> ns = Namespace()
    >>> spends(ast.parse("floor((2*x + y) / 2) - 2*t", mode="eval"), ns), spends(ast.parse("f(k) + t", mode="eval"), ns)
    (False, True)
    """
    for node in ast.walk(tree):
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return True
        if isinstance(node, ast.Name) and node.id in ns.definitions:
            return True
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name not in SPEND_FREE or ns.builtins.get(name) is not BUILTINS.get(name):
                return True
    return False


def _affine_value(closures: list[Callable], env: dict, name: str, lo: int) -> tuple[list[int], list[int]]:
    """The values of affine `closures` at ``name = lo`` and their slopes (integers, else :class:`NotLinear`)."""
    env[name] = lo
    at = [f(env) for f in closures]
    env[name] = lo + 1
    slope = [f(env) - a for f, a in zip(closures, at)]
    for v in at + slope:
        if type(v) is not int:
            raise NotLinear
    return at, slope


def _cut(lo: int, hi: int, c: int, d: int, op: type) -> tuple[int, int]:
    """[lo, hi] cut to the w = v - lo with ``c + d * w  op  0`` (all integers): the interval of v left.

    >>> _cut(0, 10, -3, 1, ast.LtE), _cut(0, 10, 5, -2, ast.LtE), _cut(0, 10, -4, 2, ast.Eq), _cut(0, 10, 1, 0, ast.Lt)
    ((0, 3), (3, 10), (2, 2), (0, -1))
    """
    if op is ast.Eq:
        if d == 0:
            return (lo, hi) if c == 0 else (lo, lo - 1)
        if (-c) % d:
            return lo, lo - 1
        w = (-c) // d
        return (lo + w, lo + w) if 0 <= w <= hi - lo else (lo, lo - 1)
    if op is ast.Lt:          # c + d w < 0  <=>  c + 1 + d w <= 0
        c += 1
    elif op is ast.Gt:        # c + d w > 0  <=>  -c + 1 - d w <= 0
        c, d = -c + 1, -d
    elif op is ast.GtE:
        c, d = -c, -d
    if d == 0:
        return (lo, hi) if c <= 0 else (lo, lo - 1)
    if d > 0:                 # w <= floor(-c / d)
        return lo, min(hi, lo + (-c) // d)
    return max(lo, lo - ((-c) // (-d))), hi     # w >= ceil(c / -d)


@dataclass
class LinearFamily:
    """A move family listed a block at a time (see the module docstring): its innermost `level`, its target's
    coordinates as closures, and each condition at that level as its terms' closures and comparisons."""

    level: Level
    coords: list[Callable]
    conditions: list[tuple[list[Callable], list[type]]]
    #: the target is written as a tuple (its options are tuples, even of one coordinate)
    tuple_target: bool

    @classmethod
    def of(cls, binder: Binder, to_tree: ast.expr, ns: Namespace, variables: set[str]) -> "LinearFamily | None":
        """The family of `binder` and target `to_tree` listed a block at a time, or None when it does not qualify.

        >>> ns = Namespace(); b = Binder.from_text("1 <= t <= x", ns, {"x"}, coords=("x",))
        >>> LinearFamily.of(b, ast.parse("x - t * t", mode="eval").body, ns, {"x", "t"}) is None   # not affine in t
        True
        """
        if not binder.levels:
            return None
        level = binder.levels[-1]
        if level.members is not None or not level.lows or not level.highs or level.stop is not None:
            return None
        name = level.name
        parts = to_tree.elts if isinstance(to_tree, ast.Tuple) else [to_tree]
        if any(not is_affine(p, name) or spends(p, ns) for p in parts):
            return None
        conditions = []
        for tree in level.filter_trees:
            if not isinstance(tree, ast.Compare) or spends(tree, ns):
                return None
            terms = [tree.left, *tree.comparators]
            if any(not isinstance(op, _INTERVAL_OPS) for op in tree.ops) or any(not is_affine(t, name) for t in terms):
                return None
            conditions.append(([compile_tree(t, ns, variables) for t in terms], [type(op) for op in tree.ops]))
        return cls(level, [compile_tree(p, ns, variables) for p in parts], conditions, isinstance(to_tree, ast.Tuple))

    def blocks(self, binder: Binder, env: dict) -> Iterator[tuple[list[int], list[int], int]]:
        """For each binding of the outer names (in the binder's order), the options as ``(a, b, n)``: the target at
        the first allowed value, its step, and how many values are allowed (blocks with none are left out).
        :class:`NotLinear` when a value is not an integer.

        >>> ns = Namespace(); b = Binder.from_text("0 <= t <= x and 2 <= 3 * t", ns, {"x"}, coords=("x",))
        >>> list(LinearFamily.of(b, ast.parse("x - t", mode="eval").body, ns, {"x", "t"}).blocks(b, {"x": 5}))
        [([4], [-1], 5)]
        """
        level, name = self.level, self.level.name
        for e in binder.bindings(env, depth=len(binder.levels) - 1):
            lo, hi = binder.range_of(level, e)
            for terms, ops in self.conditions:
                if lo > hi:
                    break
                base = lo
                at, slope = _affine_value(terms, e, name, base)
                for i, op in enumerate(ops):
                    d = slope[i] - slope[i + 1]
                    lo, hi = _cut(lo, hi, at[i] - at[i + 1] + d * (lo - base), d, op)
            if lo > hi:
                continue
            a, b = _affine_value(self.coords, e, name, lo)
            yield a, b, hi - lo + 1

    def option(self, values: list[int]) -> Any:
        """The option whose coordinates are `values`, shaped as the target is written (a number or a tuple).

        >>> ns = Namespace(); b = Binder.from_text("1 <= t <= x", ns, {"x"}, coords=("x",))
        >>> LinearFamily.of(b, ast.parse("x - t", mode="eval").body, ns, {"x", "t"}).option([3])
        3
        """
        return values[0] if not self.tuple_target else tuple(values)

    def extend(self, out: list, a: list[int], b: list[int], n: int) -> None:
        """Append the n options a + b * i of one block to `out`, in order.

        >>> ns = Namespace(); b = Binder.from_text("1 <= t <= x", ns, {"x", "y"}, coords=("x", "y"))
        >>> fam = LinearFamily.of(b, ast.parse("(x - t, y)", mode="eval").body, ns, {"x", "y", "t"})
        >>> out = []; fam.extend(out, [4, 2], [-1, 0], 3); out
        [(4, 2), (3, 2), (2, 2)]
        """
        if not self.tuple_target:
            a0, b0 = a[0], b[0]
            out.extend(range(a0, a0 + b0 * n, b0) if b0 else [a0] * n)
        elif len(a) == 2:
            (a0, a1), (b0, b1) = a, b
            out.extend([(a0 + b0 * i, a1 + b1 * i) for i in range(n)])
        else:
            out.extend([tuple(x + y * i for x, y in zip(a, b)) for i in range(n)])

    def count(self, binder: Binder, env: dict, cap: int | None = None) -> int:
        """How many options (with repeats), without listing them; with `cap`, the count stops at the first block
        that takes it past `cap` (a number > cap then: the outer names of a family can range over 10^18 values).

        >>> from nimjos.lang.compiler import Namespace
        >>> ns = Namespace(); b = Binder.from_text("1 <= t <= x and t != 0", ns, {"x"}, coords=("x",))
        >>> LinearFamily.of(b, ast.parse("x - t", mode="eval").body, ns, {"x", "t"}) is None   # != is no interval
        True
        >>> b = Binder.from_text("0 <= a <= x and 0 <= c <= y and 1 <= a + c", ns, {"x", "y"}, coords=("x", "y"))
        >>> fam = LinearFamily.of(b, ast.parse("(x - a, y - c)", mode="eval").body, ns, {"x", "y", "a", "c"})
        >>> fam.count(b, {"x": 2, "y": 3}), fam.count(b, {"x": 10 ** 18, "y": 3}, cap=10)
        (11, 11)
        """
        total = 0
        for _, _, n in self.blocks(binder, env):
            total += n
            if cap is not None and total > cap:
                break
        return total
