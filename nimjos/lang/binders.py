"""Binders: read the bounds of free names from a condition and enumerate every binding.

A condition such as ``"2 <= k <= 6 and 1 <= n <= 60 and 1 <= m <= n"`` binds k, n and m. Bounds come from
top-level conjuncts (``lo <= t <= hi``, strict forms, ``t >= lo``, ``t in {2, 3}``, ``f in functions(...)``);
a bound may use names bound before it. Every conjunct not used as a bound is kept as a filter, evaluated as
soon as its names are bound.

>>> from nimjos.lang.compiler import Namespace
>>> b = Binder.from_text("1 <= n <= 3 and 1 <= m <= n and m != 2", Namespace())
>>> [(e["n"], e["m"]) for e in b.bindings({})]
[(1, 1), (2, 1), (3, 1), (3, 3)]
>>> b.names
('n', 'm')
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from nimjos.lang import ir
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.lazy import import_on_use
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.syntax import called_names, free_names, parse, unknown_name_error
from nimjos.lang.runtime import norm
from nimjos.lang.stored import StoredAutomaton
from nimjos.lang.expr import variables_of
from nimjos.lang.resolve import resolve
from nimjos.lang.builtins import iter_items
from nimjos.lang.values import format_value

if TYPE_CHECKING:   # numpy is imported when a window's bindings are made arrays, not to read a spec
    import numpy as np

_FLIP = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq}


@dataclass
class Level:
    """One bound name: either an integer range [lo, hi] (hi may be None: unbounded above) or a finite set."""

    name: str
    lows: list[tuple[Callable, bool]] = field(default_factory=list)   # (closure, strict)
    highs: list[tuple[Callable, bool]] = field(default_factory=list)
    members: Callable | None = None
    low_text: list[str] = field(default_factory=list)
    high_text: list[str] = field(default_factory=list)
    member_text: str | None = None
    filters: list[Callable] = field(default_factory=list)
    #: the filters' syntax trees, one per closure of `filters`
    filter_trees: list[ast.expr] = field(default_factory=list)
    stop: Callable | None = None  # for an unbounded index: env -> True when no later value can matter
    #: the bounds as syntax trees, one per text of `low_text` / `high_text` (a strict bound e is ``e + 1`` below,
    #: ``e - 1`` above, as its text says), and the members' tree: what a backend reads instead of parsing the texts
    low_trees: list[ast.expr] = field(default_factory=list)
    high_trees: list[ast.expr] = field(default_factory=list)
    member_tree: ast.expr | None = None
    #: the same bounds resolved and typed (:mod:`nimjos.lang.ir`), each once
    low_ir: list[ir.Expr] = field(default_factory=list)
    high_ir: list[ir.Expr] = field(default_factory=list)
    member_ir: ir.Expr | None = None

    @property
    def unbounded(self) -> bool:
        return self.members is None and not self.highs

    def describe(self) -> str:
        """The level as a reader writes it: ``lo <= name <= hi``, ``name >= lo`` or ``name in S``. Several bounds
        print as ``max(...)``/``min(...)`` of the bounds as written, less repeats, with their integer literals
        folded into one (see :func:`shown_bounds`).

        >>> Binder.from_text("2 <= k <= 8 and 1 <= n <= 40 and 1 <= n and k <= n", Namespace()).levels[1].describe()
        'max(1, k) <= n <= 40'
        >>> Binder.from_text("1 <= n <= 9 and n > 0", Namespace()).levels[0].describe()
        '1 <= n <= 9'
        >>> Binder.from_text("n >= 3 and n >= 2", Namespace(), allow_unbounded=True).levels[0].describe()
        'n >= 3'
        """
        if self.members is not None:
            return f"{self.name} in {self.member_text}"
        lo = _joined("max", shown_bounds(self.low_text, [s for _, s in self.lows], lower=True)) or "?"
        if not self.highs:
            return f"{self.name} >= {lo}"
        hi = _joined("min", shown_bounds(self.high_text, [s for _, s in self.highs], lower=False))
        return f"{lo} <= {self.name} <= {hi}"


def _int_literal(text: str) -> int | None:
    """The value of a bound text that parses as an integer literal (``7``, ``-3``), else None; nothing is
    evaluated, and ``2 + 1`` is not a literal.

    >>> _int_literal("7"), _int_literal("-3"), _int_literal("2 + 1"), _int_literal("k"), _int_literal("True")
    (7, -3, None, None, None)
    """
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        sign, node = -1, node.operand
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return sign * node.value
    return None


def _bound_literal(text: str, strict: bool, lower: bool) -> int | None:
    """The integer a bound text stands for when it is an integer literal, or the text a strict bound on an integer
    literal c was written as (``c + 1`` below, ``c - 1`` above: the enumeration's ``floor(c) + 1`` and
    ``ceil(c) - 1``, exactly c + 1 and c - 1 for an integer c), else None.

    >>> _bound_literal("3", False, True), _bound_literal("2 + 1", True, True), _bound_literal("-3 - 1", True, False)
    (3, 3, -4)
    >>> _bound_literal("2 + 1", False, True) is None, _bound_literal("k + 1", True, True) is None
    (True, True)
    """
    value = _int_literal(text)
    if value is not None:
        return value
    suffix = " + 1" if lower else " - 1"
    if strict and text.endswith(suffix):
        inner = _int_literal(text[:-len(suffix)])
        if inner is not None:
            return inner + 1 if lower else inner - 1
    return None


def shown_bounds(texts: Sequence[str], stricts: Sequence[bool], lower: bool) -> list[str]:
    """The bounds of one side of a level as printed: repeated texts once, and the integer literals among them
    folded into one (the largest of several lower bounds, the smallest of several upper bounds) where the first
    of them stood; other bounds are kept as written, since which one binds may depend on the names.
    `stricts` says which bounds were strict (their texts end in ``+ 1``/``- 1``); the printed bounds mean what
    the enumeration (:meth:`Binder.range_of`) takes, the maximum (minimum) of the bounds.

    >>> shown_bounds(["1", "1"], [False, False], lower=True)
    ['1']
    >>> shown_bounds(["n", "n"], [False, False], lower=False)
    ['n']
    >>> shown_bounds(["3", "2"], [False, False], lower=True), shown_bounds(["3", "2"], [False, False], lower=False)
    (['3'], ['2'])
    >>> shown_bounds(["1", "1", "1", "1"], [False] * 4, lower=True)
    ['1']
    >>> shown_bounds(["k + 1", "k + 1"], [True, False], lower=True)
    ['k + 1']
    >>> shown_bounds(["k + 1", "1", "k + 1", "1"], [False] * 4, lower=True)
    ['k + 1', '1']
    >>> shown_bounds(["k + 1", "2"], [False, False], lower=True)
    ['k + 1', '2']
    >>> shown_bounds(["n / k", "n / k"], [False, False], lower=False)
    ['n / k']
    >>> shown_bounds(["k - 1 - 1", "k - 1 - 1"], [True, True], lower=False)
    ['k - 1 - 1']
    >>> shown_bounds(["1", "0 + 1"], [False, True], lower=True), shown_bounds(["3", "0"], [False, False], lower=True)
    (['1'], ['3'])
    >>> shown_bounds(["-3", "-5", "x"], [False, False, False], lower=True)
    ['-3', 'x']
    >>> shown_bounds(["9", "10 - 1", "x"], [False, True, False], lower=False)
    ['9', 'x']
    """
    if len(stricts) != len(texts):   # not built side by side: read no strictness
        stricts = [False] * len(texts)
    values = [_bound_literal(t, s, lower) for t, s in zip(texts, stricts)]
    literals = [v for v in values if v is not None]
    out: list[str] = []
    placed = False
    for text, value in zip(texts, values):
        if value is None:
            if text not in out:
                out.append(text)
        elif not placed:
            out.append(str(max(literals) if lower else min(literals)))
            placed = True
    return out


def _joined(fold: str, texts: list[str]) -> str:
    """One bound text, or ``max(...)``/``min(...)`` of several; empty for none.

    >>> _joined("max", ["1"]), _joined("min", ["n", "k"]), _joined("max", [])
    ('1', 'min(n, k)', '')
    """
    if len(texts) > 1:
        return f"{fold}({', '.join(texts)})"
    return texts[0] if texts else ""


def conjuncts(tree: ast.expr) -> list[ast.expr]:
    """The top-level conjuncts of a condition (``a and (b and c)`` gives a, b, c).

    >>> [ast.unparse(c) for c in conjuncts(parse("0 <= x <= 3 and (y > 1 and x != y)"))]
    ['0 <= x <= 3', 'y > 1', 'x != y']
    """
    if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And):
        out: list[ast.expr] = []
        for v in tree.values:
            out.extend(conjuncts(v))
        return out
    return [tree]


def _unscale(x: ast.expr, e: ast.expr) -> tuple[ast.expr, ast.expr]:
    """Turn ``c * t`` (c a positive integer literal) on one side into ``t`` and the other side into ``e / c``.

    >>> [ast.unparse(n) for n in _unscale(parse("3 * t"), parse("n"))]
    ['t', 'n / 3']
    """
    if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mult):
        for c, t in ((x.left, x.right), (x.right, x.left)):
            if isinstance(c, ast.Constant) and type(c.value) is int and c.value > 0 and isinstance(t, ast.Name):
                return t, ast.BinOp(left=e, op=ast.Div(), right=ast.Constant(c.value))
    return x, e


def _implied_pairs(ops: list[ast.cmpop]) -> list[tuple[int, int, type[ast.cmpop]]]:
    """The comparisons a chain implies between terms that are not neighbours, when every comparison between them
    points the same way: ``0 <= b <= a <= 20`` implies ``0 <= a`` and ``b <= 20`` (and ``0 <= 20``). Each is
    (i, j, operator) for terms i < j; strict when any comparison between them is. They are bounds only (they
    add no condition: the chain itself is still checked), so that a name bounded through its neighbours can be
    bound first.

    >>> tree = ast.parse("0 <= b <= a <= 20", mode="eval").body
    >>> [(i, j, op.__name__) for i, j, op in _implied_pairs(tree.ops)]
    [(0, 2, 'LtE'), (0, 3, 'LtE'), (1, 3, 'LtE')]
    >>> _implied_pairs(ast.parse("0 <= b >= a", mode="eval").body.ops)
    []
    """
    out: list[tuple[int, int, type[ast.cmpop]]] = []
    for i in range(len(ops)):
        for j in range(i + 2, len(ops) + 1):
            kinds = {type(op) for op in ops[i:j]}
            if kinds <= {ast.Lt, ast.LtE}:
                out.append((i, j, ast.Lt if ast.Lt in kinds else ast.LtE))
            elif kinds <= {ast.Gt, ast.GtE}:
                out.append((i, j, ast.Gt if ast.Gt in kinds else ast.GtE))
    return out


def _round_low(v: Any, strict: bool) -> int:
    v = norm(v)
    if not isinstance(v, (int, Fraction)) or isinstance(v, bool):
        raise EvalError(f"a lower bound evaluated to {v!r}, not a number")
    if strict:
        return math.floor(v) + 1
    return math.ceil(v)


def _round_high(v: Any, strict: bool) -> int:
    v = norm(v)
    if not isinstance(v, (int, Fraction)) or isinstance(v, bool):
        raise EvalError(f"an upper bound evaluated to {v!r}, not a number")
    if strict:
        return math.ceil(v) - 1
    return math.floor(v)


def _refuse_shadowing(tree: ast.expr, ns: Namespace, text: str) -> None:
    """A name compared as a number in a condition (``s in {2, 5, 7}``, ``1 <= s <= 9``) is a bound variable; if it
    already names a game, a function of the spec or a built-in, the condition would silently compare that object:
    refuse it, naming both. (The right side of ``in`` may be a predicate, and a definition without parameters is
    a constant: both are fine.)

    >>> from nimjos.lang.syntax import parse
    >>> ns = Namespace(); ns.games["s"] = object()
    >>> _refuse_shadowing(parse("s in {2, 5, 7} and s <= n"), ns, "s in {2, 5, 7} and s <= n")
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: 's' is bound as a variable in 's in {2, 5, 7} and s <= n' but is already the game s (rename the variable)
    """
    for part in conjuncts(tree):
        for node in ast.walk(part):
            if not isinstance(node, ast.Compare):
                continue
            operands = [node.left] + [c for op, c in zip(node.ops, node.comparators) if not isinstance(op, (ast.In, ast.NotIn))]
            for operand in operands:
                if not isinstance(operand, ast.Name):
                    continue
                name = operand.id
                if name in ns.games:
                    what = f"the game {name}"
                elif name in ns.definitions and ns.definitions[name].params:
                    what = f"the function (a [define] of this spec) {name}"
                elif isinstance(ns.builtins.get(name), StoredAutomaton):
                    what = f"the stored automaton {name} ([automaton.{name}] of this spec)"
                elif name in ns.builtins:
                    what = f"the built-in function {name}"
                else:
                    continue
                raise SpecError(f"{name!r} is bound as a variable in {text!r} but is already {what} "
                                "(rename the variable)")


def _bound_trees(trees: list[ast.expr], irs: list[ir.Expr], e: ast.expr, step: type | None, ns: Namespace,
                 variables: set[str]) -> None:
    """Add a bound's tree (``e``, or ``e + 1`` / ``e - 1`` for a strict bound: `step` ``ast.Add`` / ``ast.Sub``) and
    its IR to a level's lists.

    >>> trees, irs = [], []
    >>> _bound_trees(trees, irs, parse("k // 2"), ast.Add, Namespace(), {"k"})
    >>> ast.unparse(trees[0]), irs[0].type
    ('k // 2 + 1', <Type.ANY: 'any'>)
    """
    tree = e if step is None else ast.BinOp(e, step(), ast.Constant(1))
    trees.append(tree)
    irs.append(resolve(tree, ns, variables))


class Binder:
    """Enumerates the bindings of the names a condition binds, given the values of outer names."""

    def __init__(self, tree: ast.expr, ns: Namespace, outer: set[str] | frozenset[str] = frozenset(),
                 allow_unbounded: bool = False, text: str | None = None, coords: tuple[str, ...] = ()):
        """`coords`: the position coordinates among the outer names (a game's move family), which the hint for a
        missing bound uses."""
        self.text = text if text is not None else ast.unparse(tree)
        self.tree = tree
        #: where errors found while enumerating are reported (file, item, field, line), set by the planner
        self.where: dict[str, Any] = {}
        #: a window must be defined everywhere: a bound or condition that cannot be evaluated is a spec error
        self.total = False
        outer = set(outer)
        _refuse_shadowing(tree, ns, self.text)
        all_vars = variables_of(tree, ns)
        # declared order: order of first appearance in the text
        self.names: tuple[str, ...] = tuple(n for n in all_vars if n not in outer)
        parts = conjuncts(tree)
        candidates: dict[str, list] = {n: [] for n in self.names}
        used_pairs: dict[int, set[int]] = {}
        pair_counts: dict[int, int] = {}
        for ci, part in enumerate(parts):
            if isinstance(part, ast.Compare):
                exprs = [part.left, *part.comparators]
                pair_counts[ci] = len(part.ops)
                for pi, op in enumerate(part.ops):
                    a, b = exprs[pi], exprs[pi + 1]
                    for (x, e, o) in ((a, b, type(op)), (b, a, _FLIP.get(type(op)))):
                        x, e = _unscale(x, e)
                        if o is None or not isinstance(x, ast.Name) or x.id not in candidates:
                            continue
                        if x.id in free_names(e):
                            continue
                        if o is ast.In and x is a:
                            candidates[x.id].append(("in", e, ci, pi))
                        elif o in (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq):
                            candidates[x.id].append((o, e, ci, pi))
                for (i, j, chain_op) in _implied_pairs(part.ops):
                    for (term, other, side) in ((exprs[i], exprs[j], chain_op), (exprs[j], exprs[i], _FLIP[chain_op])):
                        term, other = _unscale(term, other)
                        if isinstance(term, ast.Name) and term.id in candidates and term.id not in free_names(other):
                            candidates[term.id].append((side, other, ci, None))   # implied by the chain: no pair to mark
        called = called_names(tree)
        for name in self.names:
            if name in called and not candidates[name]:  # a function nothing binds: not a variable
                raise unknown_name_error(tree, name, ns.known() | set(outer) | set(self.names) - {name})
        # choose an order: repeatedly bind the first name (in declared order) whose bounds are available
        known = set(outer)
        remaining = list(self.names)
        levels: list[Level] = []
        variables = set(outer) | set(self.names)
        while remaining:
            chosen = None
            for name in remaining:
                usable = [c for c in candidates[name] if set(variables_of(c[1], ns)) <= known]
                has_set = any(c[0] == "in" for c in usable)
                has_lo = any(c[0] in (ast.Gt, ast.GtE, ast.Eq) for c in usable)
                has_hi = any(c[0] in (ast.Lt, ast.LtE, ast.Eq) for c in usable)
                if has_set or (has_lo and (has_hi or allow_unbounded)):
                    chosen = (name, usable)
                    break
            if chosen is None:
                name = remaining[0]
                usable = [c for c in candidates[name] if set(variables_of(c[1], ns)) <= known]
                has_lo = any(c[0] in (ast.Gt, ast.GtE, ast.Eq) for c in usable)
                raise self._no_bound(name, "upper bound" if has_lo else "lower bound", parts, candidates[name], ns,
                                     coords)
            name, usable = chosen
            level = Level(name)
            sets = [c for c in usable if c[0] == "in"]
            if sets:
                c = sets[0]
                level.members = compile_tree(c[1], ns, variables)
                level.member_text = ast.unparse(c[1])
                level.member_tree = c[1]
                level.member_ir = resolve(c[1], ns, variables)
                used_pairs.setdefault(c[2], set()).add(c[3])
            else:
                for (o, e, ci, pi) in usable:
                    fn = compile_tree(e, ns, variables)
                    if o in (ast.Gt, ast.GtE, ast.Eq):
                        level.lows.append((fn, o is ast.Gt))
                        level.low_text.append(ast.unparse(e) if o is not ast.Gt else f"{ast.unparse(e)} + 1")
                        _bound_trees(level.low_trees, level.low_ir, e, ast.Add if o is ast.Gt else None, ns,
                                     variables)
                    if o in (ast.Lt, ast.LtE, ast.Eq):
                        level.highs.append((fn, o is ast.Lt))
                        level.high_text.append(ast.unparse(e) if o is not ast.Lt else f"{ast.unparse(e)} - 1")
                        _bound_trees(level.high_trees, level.high_ir, e, ast.Sub if o is ast.Lt else None, ns,
                                     variables)
                    if pi is not None:
                        used_pairs.setdefault(ci, set()).add(pi)
            levels.append(level)
            known.add(name)
            remaining.remove(name)
        self.levels = levels
        self.order = tuple(l.name for l in levels)
        # the rest are filters, placed at the first level where all their names are bound
        position = {l.name: i for i, l in enumerate(levels)}
        self.pre_filters: list[Callable] = []
        self.filter_texts: list[str] = []
        #: the filters' syntax trees, one per text of `filter_texts`
        self.filter_trees: list[ast.expr] = []
        for ci, part in enumerate(parts):
            if ci in pair_counts and len(used_pairs.get(ci, ())) == pair_counts[ci]:
                continue
            fn = compile_tree(part, ns, variables)
            self.filter_texts.append(ast.unparse(part))
            self.filter_trees.append(part)
            names_here = [position[n] for n in variables_of(part, ns) if n in position]
            if names_here:
                levels[max(names_here)].filters.append(fn)
                levels[max(names_here)].filter_trees.append(part)
            else:
                self.pre_filters.append(fn)

    def _no_bound(self, name: str, what: str, parts: list[ast.expr], found: list, ns: Namespace,
                  coords: tuple[str, ...]) -> SpecError:
        """The error for a name the condition does not bound: a name only called is an unknown function; a name
        compared only inside a larger term (``s * s <= n``) needs a bound on the bare name; a move's variable needs
        an upper bound in terms of the position (a constant would cut the game off).

        >>> Binder.from_text("1 <= s * s <= n", Namespace(), {"n"}, coords=("n",))
        Traceback (most recent call last):
        ...
        nimjos.lang.errors.SpecError: name 's' has no lower bound in '1 <= s * s <= n': a bound must be on the bare name s, not on 's * s' (write '1 <= s <= isqrt(n)'; the condition on 's * s' may stay as a filter)
        >>> Binder.from_text("r >= 1", Namespace(), {"x"}, coords=("x",))
        Traceback (most recent call last):
        ...
        nimjos.lang.errors.SpecError: name 'r' has no upper bound in 'r >= 1' (bound it by the position, e.g. 'r <= x' (a constant bound such as 'r <= 100' would cut the game off silently))
        """
        terms = []
        for part in parts:
            if not isinstance(part, ast.Compare):
                continue
            exprs = [part.left, *part.comparators]
            for i, op in enumerate(part.ops):
                if isinstance(op, (ast.In, ast.NotIn)):
                    continue
                for side, other in ((exprs[i], exprs[i + 1]), (exprs[i + 1], exprs[i])):
                    if not isinstance(side, ast.Name) and name in free_names(side) and \
                            _unscale(side, other)[0] is side:
                        terms.append((side, other))
        if terms:
            term, other = terms[-1]
            lows = [ast.unparse(o) for t, o in terms if t is term and o is not other] or ["0"]
            square = (isinstance(term, ast.BinOp) and (
                (isinstance(term.op, ast.Mult) and all(isinstance(x, ast.Name) and x.id == name
                                                       for x in (term.left, term.right)))
                or (isinstance(term.op, ast.Pow) and isinstance(term.right, ast.Constant) and term.right.value == 2)))
            upper = f"isqrt({ast.unparse(other)})" if square else "..."
            return SpecError(f"name {name!r} has no {what} in {self.text!r}: a bound must be on the bare name {name}, "
                             f"not on {ast.unparse(term)!r}",
                             hint=f"write '{lows[0]} <= {name} <= {upper}'; the condition on {ast.unparse(term)!r} may "
                                  "stay as a filter")
        if what == "upper bound" and coords:
            return SpecError(f"name {name!r} has no upper bound in {self.text!r}",
                             hint=f"bound it by the position, e.g. '{name} <= {coords[0]}' (a constant bound such as "
                                  f"'{name} <= 100' would cut the game off silently)")
        if what == "upper bound":
            return SpecError(f"name {name!r} has no upper bound in {self.text!r}",
                             hint=f"add a conjunct such as '{name} <= 100'")
        return SpecError(f"name {name!r} has no lower bound in {self.text!r}",
                         hint=f"add a conjunct such as '0 <= {name} <= 10' (bounds may use names bound before it)")

    @classmethod
    def from_text(cls, text: str, ns: Namespace, outer: set[str] | frozenset[str] = frozenset(),
                  allow_unbounded: bool = False, coords: tuple[str, ...] = ()) -> "Binder":
        """Build a binder from condition text."""
        return cls(parse(text), ns, outer, allow_unbounded, text=text, coords=coords)

    def unbounded_levels(self) -> list[Level]:
        return [l for l in self.levels if l.unbounded]

    def describe(self) -> str:
        """The bounds as a reader writes them (each level by :meth:`Level.describe`), e.g.
        ``'0 <= x <= 3, 0 <= y <= x'``, then the conditions kept as filters.

        >>> Binder.from_text("0 <= x <= 3 and y >= 0 and y <= x", Namespace()).describe()
        '0 <= x <= 3, 0 <= y <= x'
        >>> Binder.from_text("True", Namespace()).describe()
        'no free name (one instance)'
        """
        if not self.levels and self.filter_texts == ["True"]:
            return "no free name (one instance)"
        parts = [l.describe() for l in self.levels]
        return ", ".join(parts + [t for t in self.filter_texts])

    def single_range(self) -> Level | None:
        """The one level of a binder that binds a single name to an integer range with no filters, else None."""
        if len(self.levels) == 1 and not self.pre_filters:
            level = self.levels[0]
            if level.members is None and level.highs and level.lows and not level.filters:
                return level
        return None

    @staticmethod
    def range_of(level: Level, env: dict) -> tuple[int, int]:
        """The integer range [lo, hi] of a range level in `env` (may be empty: lo > hi)."""
        lo = max(_round_low(fn(env), strict) for fn, strict in level.lows)
        hi = min(_round_high(fn(env), strict) for fn, strict in level.highs)
        return lo, hi

    def outer_range(self, env: dict | None = None) -> tuple[str, int, int] | None:
        """(name, lo, hi) of the outermost level when it is an integer range whose bounds need no other
        bound name (the axis along which a window is split into shards), else None.

        >>> Binder.from_text("1 <= n <= 9 and 1 <= m <= n", Namespace()).outer_range()
        ('n', 1, 9)
        """
        if not self.levels or self.pre_filters:
            return None
        level = self.levels[0]
        if level.members is not None or not level.highs:
            return None
        try:
            lo, hi = self.range_of(level, dict(env or {}))
        except (KeyError, SpecError, EvalError):
            return None
        return level.name, lo, hi

    def bindings(self, env: dict, pins: dict[str, Any] | None = None,
                 max_unbounded: int = 10_000_000, shard: tuple[int, int] | None = None,
                 depth: int | None = None) -> Iterator[dict]:
        """Yield `env` extended with each binding, in nested declared-bound order (the same dict, mutated).

        `pins` fixes names to single values (kept only if within bounds and filters); `shard` = (a, b)
        restricts the outermost level to a <= value <= b; `depth` binds only the first `depth` levels.
        An unbounded level runs until its `stop(env)` says so; without a stop it is an error.
        """
        for f in self.pre_filters:
            if not f(env):
                return
        depth = len(self.levels) if depth is None else depth
        pins = pins or {}
        try:
            yield from self._bind(0, env, pins, depth, shard, max_unbounded)
        except SpecError as exc:
            raise exc.located(**self.where) from None
        except EvalError as exc:
            if not self.total:
                raise
            raise self.undefined(exc, env) from None

    def _bind(self, i: int, env: dict, pins: dict[str, Any], depth: int, shard: tuple[int, int] | None,
              max_unbounded: int) -> Iterator[dict]:
        """The bindings of levels i.. of :meth:`bindings` (a method, not a closure made per call that calls itself: that
        would be a reference cycle per enumeration, left to the cycle collector)."""
        levels = self.levels
        last = depth - 1
        if i == depth:
            yield env
            return
        level = levels[i]
        name = level.name
        filters = level.filters
        if level.members is not None:
            values = iter_items(level.members(env))
            if name in pins:
                values = [v for v in values if v == pins[name]]
            for v in values:
                env[name] = v
                if all(f(env) for f in filters):
                    if i == last:
                        yield env   # the innermost level yields the bindings itself (no generator per value)
                    else:
                        yield from self._bind(i + 1, env, pins, depth, shard, max_unbounded)
            return
        lo = max(_round_low(fn(env), strict) for fn, strict in level.lows) if level.lows else None
        if lo is None:
            raise SpecError(f"name {name!r} has no lower bound")
        if level.highs:
            hi = min(_round_high(fn(env), strict) for fn, strict in level.highs)
            if name in pins:
                p = pins[name]
                rng: Sequence[int] = [p] if lo <= p <= hi else []
            else:
                if shard is not None and i == 0:
                    lo, hi = max(lo, shard[0]), min(hi, shard[1])
                rng = range(lo, hi + 1)
            for v in rng:
                env[name] = v
                if filters:
                    ok = True
                    for f in filters:
                        if not f(env):
                            ok = False
                            break
                    if not ok:
                        continue
                if i == last:
                    yield env   # the innermost level yields the bindings itself (no generator per value)
                else:
                    yield from self._bind(i + 1, env, pins, depth, shard, max_unbounded)
            return
        # unbounded above: needs a stop rule
        if level.stop is None:
            raise SpecError(f"name {name!r} is unbounded above and no stop could be justified")
        v = lo
        count = 0
        while True:
            env[name] = v
            if level.stop(env):
                return
            if (name not in pins or pins[name] == v) and all(f(env) for f in filters):
                if i == last:
                    yield env   # the innermost level yields the bindings itself (no generator per value)
                else:
                    yield from self._bind(i + 1, env, pins, depth, shard, max_unbounded)
            v += 1
            count += 1
            if count > max_unbounded:
                raise SpecError(f"family index {name!r} did not reach the edge of the window after "
                                f"{max_unbounded:,} values", hint="give it an upper bound")

    def arrays(self, env: dict, shard: tuple[int, int] | None = None,
               max_count: int = 50_000_000) -> dict[str, np.ndarray] | None:
        """Every binding at once, as one int64 array per name (index i is the i-th binding of
        :meth:`bindings`), when the innermost level is an integer range without filters and every value is an
        int; None otherwise (then use :meth:`bindings`). The outer levels are enumerated one binding at a time,
        the innermost range as a numpy range.

        >>> b = Binder.from_text("1 <= n <= 3 and 1 <= m <= n", Namespace())
        >>> {k: v.tolist() for k, v in b.arrays({}).items()}
        {'n': [1, 2, 2, 3, 3, 3], 'm': [1, 1, 2, 1, 2, 3]}
        """
        if not self.levels:
            return None
        last = self.levels[-1]
        if last.members is not None or not last.highs or not last.lows or last.filters:
            return None
        outer_names = self.order[:-1]
        blocks: list[tuple[tuple, int, int]] = []
        total = 0
        try:
            for e in self.bindings(dict(env), shard=shard, depth=len(self.levels) - 1):
                values = tuple(e[n] for n in outer_names)
                if any(type(v) is not int for v in values):
                    return None
                try:
                    lo, hi = self.range_of(last, e)
                except EvalError as exc:
                    if not self.total:
                        raise
                    raise self.undefined(exc, e) from None
                if shard is not None and len(self.levels) == 1:
                    lo, hi = max(lo, shard[0]), min(hi, shard[1])
                if hi < lo:
                    continue
                blocks.append((values, lo, hi))
                total += hi - lo + 1
                if total > max_count:
                    return None
        except SpecError as exc:
            raise exc.located(**self.where) from None
        if any(max(abs(lo), abs(hi)) >= 2 ** 62 or any(abs(v) >= 2 ** 62 for v in values)
               for values, lo, hi in blocks):
            return None
        np = import_on_use("numpy")
        lengths = np.array([hi - lo + 1 for _, lo, hi in blocks], dtype=np.int64)
        out: dict[str, Any] = {}   # int64 arrays
        for j, name in enumerate(outer_names):
            out[name] = np.repeat(np.array([b[0][j] for b in blocks], dtype=np.int64), lengths)
        starts = np.repeat(np.array([lo for _, lo, _ in blocks], dtype=np.int64), lengths)
        offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        out[last.name] = starts + offsets
        return {n: out[n] for n in self.names}

    def undefined(self, exc: EvalError, env: dict) -> SpecError:
        """The error for a bound or condition of a window that cannot be evaluated at the binding in `env`.

        >>> b = Binder.from_text("0 <= k <= 2 and 0 <= n <= 6 / k", Namespace())
        >>> str(b.undefined(EvalError("division by zero (6 / 0)"), {"k": 0}))
        "'0 <= k <= 2 and 0 <= n <= 6 / k' cannot be evaluated at k = 0: division by zero (6 / 0) (every bound and condition of a window must be defined on all of it; write a partial condition in assume, where it makes an instance ill-defined)"
        """
        at = ", ".join(f"{n} = {format_value(v)}" for n, v in env.items())
        return SpecError(f"{self.text!r} cannot be evaluated" + (f" at {at}" if at else "") + f": {exc}",
                         hint="every bound and condition of a window must be defined on all of it; write a "
                              "partial condition in assume, where it makes an instance ill-defined",
                         **self.where)
