"""Vectorised evaluation: a parsed expression of the language evaluated at many bindings at once, on numpy
int64 arrays, with the scalar semantics exactly (floor division and remainder of negatives, short-circuit
``and`` / ``or`` / ``if`` / ``any`` / ``all``); anything it cannot evaluate exactly raises
:class:`NotVectorisable`, so that the caller falls back to the scalar evaluation (the reference).

Exact arithmetic only: before each operation the magnitudes of its operands are checked, so that no int64
result reaches 2**62; a bound that cannot be shown, a zero divisor, a negative exponent (a Fraction in the
scalar language), ``v2(0)`` and the like raise :class:`NotVectorisable` (the scalar path then reports what
the language says there). A sub-expression that the scalar language would not evaluate (the right side of an
``and`` whose left side is false, the branch of an ``if`` not taken, the terms of ``any`` after the first
true one) is evaluated only on the bindings where the scalar language evaluates it.

Supported: integer and boolean constants, the window's names, ``+ - * // % **``, ``/`` inside ``floor`` and
``ceil`` (or where every quotient is whole), bitwise ``& | ^ << >>``, comparisons and their chains, ``in`` a
literal set, ``and / or / not``, ``if``-``else``, tuples and their constant positions, ``min``, ``max``,
``abs``, ``floor``, ``ceil``, ``isqrt``, ``v2``, ``ilog2``, ``xor``, ``any`` / ``all`` over
``range(a, b)`` (unrolled, at most :data:`MAX_UNROLL` values) or over the options of a game (an
:class:`OptionSets` from the caller's ``options``; the condition names only the option), ``sum`` over
``range(a, b)`` (unrolled), ``iterate(lambda r: ..., p, x)`` (at most :data:`MAX_UNROLL` steps), calls of
non-recursive definitions (inlined), lambdas passed to them and called there (:class:`Closure`), and the
functions a caller adds as array functions (``extra``: the scalar function object mapped to its array version).

>>> import numpy as np
>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.syntax import parse
>>> f = vectorise(parse("x // 3 if x > 0 else -x % 4"), Namespace())
>>> f({"x": np.arange(-3, 4)}).tolist()
[3, 2, 1, 0, 0, 0, 1]
>>> vectorise(parse("x ** 70"), Namespace())({"x": np.arange(3)})
Traceback (most recent call last):
...
nimjos.lang.vector.NotVectorisable: 2 ** 70 may reach 2**62 (int64 could overflow)
"""
from __future__ import annotations

import ast
from typing import Any, Callable

import numpy as np

from nimjos.lang import ir
from nimjos.lang.builtins import BUILTINS
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.ir import free_variables
from nimjos.lang.resolve import resolve
from nimjos.lang.registry import REGISTRY
from nimjos.lang.stored import StoredAutomaton
from nimjos.lang.syntax import free_names
from nimjos.lang.visitor import IRVisitor

#: every int64 value an evaluation produces stays below this in magnitude
LIMIT = 2 ** 62
#: the most values of an unrolled ``any`` / ``all`` range or ``iterate`` count
MAX_UNROLL = 512
#: the most positions of the box on which a condition over the options of a game is evaluated
MAX_OPTION_BOX = 4_000_000


class NotVectorisable(Exception):
    """The expression (or this window) cannot be evaluated exactly on arrays: use the scalar path."""


class OptionSets:
    """The options of a game at every binding, as a caller's array function for ``options`` gives them: never
    listed; ``any`` / ``all`` over them evaluate their condition once on the box of positions `box` (a position's
    options lie in it) and ask `search`, which maps a bool array over the box to whether each binding has an
    option where it is true.

    >>> sets = OptionSets((3,), lambda marked: np.array([bool(marked[:2].any())]))
    >>> sets.search(np.array([False, True, False])).tolist()
    [True]
    """

    def __init__(self, box: tuple[int, ...], search: Callable[[np.ndarray], np.ndarray]):
        self.box = box
        self.search = search


class Closure:
    """A lambda of a vectorised expression with the environment it was written in (arrays of the bindings): passed
    to a definition and called there, as the scalar language calls it.

    >>> lam = resolve(ast.parse("lambda i: i + a", mode="eval").body, Namespace(), {"a"})
    >>> c = Closure(lam, {"a": np.array([1, 2, 3])})
    >>> c.take(np.array([0, 2])).env["a"].tolist()
    [1, 3]
    """

    def __init__(self, node: ir.Lambda, env: dict):
        self.node = node
        self.env = env

    def take(self, idx: np.ndarray) -> "Closure":
        """The same lambda at the bindings `idx` only."""
        return Closure(self.node, {k: _take(v, idx) for k, v in self.env.items()})


class GameCall:
    """A game named in a vectorised expression, with its params' values (arrays or ints): ``maxnim(k)`` at every
    binding; only an array function of the caller (``G``) takes it.

    >>> GameCall("maxnim", [np.array([2, 3, 4])]).take(np.array([0, 2])).args[0].tolist()
    [2, 4]
    """

    def __init__(self, game: Any, args: list):
        self.game = game
        self.args = args

    def take(self, idx: np.ndarray) -> "GameCall":
        """The same game at the bindings `idx` only."""
        return GameCall(self.game, [_take(a, idx) for a in self.args])


def _mag(v: Any) -> int:
    """The largest magnitude of an int value (a Python int or an int64 array).

    >>> _mag(np.array([-5, 3])), _mag(7), _mag(np.array([], dtype=np.int64))
    (5, 7, 0)
    """
    if isinstance(v, np.ndarray):
        if v.size == 0:
            return 0
        return max(abs(int(v.min())), abs(int(v.max())))
    return abs(int(v))


def _is_bool(v: Any) -> bool:
    return isinstance(v, (bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype == np.bool_)


def _is_int(v: Any) -> bool:
    if isinstance(v, np.ndarray):
        return v.dtype == np.int64
    return type(v) is int


def _int(v: Any) -> Any:
    if not _is_int(v):
        raise NotVectorisable(f"an integer was expected, got {type(v).__name__}")
    return v


def _truth(v: Any) -> Any:
    if _is_bool(v):
        return v
    if _is_int(v):
        return v != 0
    raise NotVectorisable("the truth of a tuple or another value")


def _take(v: Any, idx: np.ndarray) -> Any:
    if isinstance(v, np.ndarray):
        return v[idx]
    if isinstance(v, tuple):
        return tuple(_take(x, idx) for x in v)
    if isinstance(v, (GameCall, Closure)):
        return v.take(idx)
    return v


def _full(v: Any, n: int) -> np.ndarray:
    if isinstance(v, np.ndarray):
        return v
    if isinstance(v, (bool, np.bool_)):
        return np.full(n, bool(v))
    return np.full(n, v, dtype=np.int64)


def _merge(mask: np.ndarray, a: Any, b: Any, n: int) -> Any:
    """a where mask, b elsewhere (a is given on mask's true positions, b on the others)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)):
            raise NotVectorisable("the branches of an if give different kinds of values")
        return tuple(_merge(mask, x, y, n) for x, y in zip(a, b))
    if _is_bool(a) != _is_bool(b):
        raise NotVectorisable("the branches of an if give different kinds of values")
    out: np.ndarray = np.empty(n, dtype=np.bool_ if _is_bool(a) else np.int64)
    out[mask] = a
    out[~mask] = b
    return out


def _check(bound: int, what: str) -> None:
    if bound >= LIMIT:
        raise NotVectorisable(f"{what} may reach 2**62 (int64 could overflow)")


def _binop(op: ast.operator, a: Any, b: Any) -> Any:
    a, b = _int(a), _int(b)
    if not isinstance(a, np.ndarray) and not isinstance(b, np.ndarray):
        return _scalar_binop(op, a, b)
    ma, mb = _mag(a), _mag(b)
    if isinstance(op, (ast.Add, ast.Sub)):
        _check(ma + mb, "a sum")
        return a + b if isinstance(op, ast.Add) else a - b
    if isinstance(op, ast.Mult):
        _check(ma * mb, "a product")
        return a * b
    if isinstance(op, (ast.FloorDiv, ast.Mod)):
        if np.any(b == 0):
            raise NotVectorisable("a zero divisor")
        _check(ma + 1, "a quotient")
        return np.floor_divide(a, b) if isinstance(op, ast.FloorDiv) else np.mod(a, b)
    if isinstance(op, ast.Pow):
        if isinstance(b, np.ndarray) and b.size == 0:
            return np.zeros(0, dtype=np.int64)
        if (int(np.min(b)) if isinstance(b, np.ndarray) else b) < 0:
            raise NotVectorisable("a negative exponent (a Fraction)")
        if ma > 1:
            if mb * ma.bit_length() > 64:
                raise NotVectorisable(f"{ma} ** {mb} may reach 2**62 (int64 could overflow)")
            _check(ma ** mb, f"{ma} ** {mb}")
        return np.power(a, b)
    if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return {ast.BitAnd: np.bitwise_and, ast.BitOr: np.bitwise_or, ast.BitXor: np.bitwise_xor}[type(op)](a, b)
    if isinstance(op, (ast.LShift, ast.RShift)):
        if (int(np.min(b)) if isinstance(b, np.ndarray) and b.size else (b if not isinstance(b, np.ndarray) else 0)) < 0:
            raise NotVectorisable("a negative shift count")
        if mb >= 63:
            raise NotVectorisable("a shift by 63 or more")
        if isinstance(op, ast.LShift):
            _check(ma << mb, "a left shift")
            return np.left_shift(a, b)
        return np.right_shift(a, b)
    raise NotVectorisable(f"the operator {type(op).__name__}")


def _scalar_binop(op: ast.operator, a: int, b: int) -> int:
    """Python ints on both sides: Python's exact arithmetic; a Fraction or an error is not vectorised."""
    try:
        if isinstance(op, ast.Pow):
            if b < 0 or (abs(a) > 1 and b * abs(a).bit_length() > 64):
                raise NotVectorisable("a negative or large exponent")
        if isinstance(op, (ast.LShift, ast.RShift)) and not 0 <= b < 63:
            raise NotVectorisable("a shift count out of range")
        fn = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.FloorDiv: lambda: a // b,
              ast.Mod: lambda: a % b, ast.Pow: lambda: a ** b, ast.BitAnd: lambda: a & b, ast.BitOr: lambda: a | b,
              ast.BitXor: lambda: a ^ b, ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b}.get(type(op))
        if fn is None:
            raise NotVectorisable(f"the operator {type(op).__name__}")
        return fn()
    except ZeroDivisionError:
        raise NotVectorisable("a zero divisor") from None


_CMP = {ast.Eq: np.equal, ast.NotEq: np.not_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
        ast.Gt: np.greater, ast.GtE: np.greater_equal}


def _compare(op: ast.cmpop, a: Any, b: Any) -> Any:
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not isinstance(op, (ast.Eq, ast.NotEq)):
            raise NotVectorisable("an order comparison of tuples")
        if not (isinstance(a, tuple) and isinstance(b, tuple)):
            raise NotVectorisable("a tuple compared with a number")  # the scalar language refuses it
        if len(a) != len(b):
            eq: Any = False
        else:
            eq = True
            for x, y in zip(a, b):
                eq = np.logical_and(eq, _compare(ast.Eq(), x, y))
        return eq if isinstance(op, ast.Eq) else np.logical_not(eq)
    if _is_bool(a) != _is_bool(b):
        raise NotVectorisable("a truth value compared with a number")
    if not _is_bool(a):
        for v in (a, b):
            if not isinstance(v, np.ndarray) and _mag(v) >= 2 ** 63:
                raise NotVectorisable("a constant beyond int64 in a comparison")
    fn = _CMP.get(type(op))
    if fn is None:
        raise NotVectorisable(f"the comparison {type(op).__name__}")
    if _is_bool(a) and not isinstance(op, (ast.Eq, ast.NotEq)):
        raise NotVectorisable("an order comparison of truth values")
    return fn(a, b)


def _floor_root_times(a: np.ndarray, d: int) -> np.ndarray:
    """floor(n sqrt d) of an int64 array, exactly (:func:`nimjos.lang.builtins.floor_root_times`; d no square):
    d n^2 must stay below 2**62.

    >>> _floor_root_times(np.array([-3, 0, 3, 100]), 2).tolist()
    [-5, 0, 4, 141]
    """
    _check(d * _mag(a) ** 2 + 1, f"the square {d} n^2")
    sq = d * a * a
    r = np.floor(np.sqrt(sq.astype(np.float64))).astype(np.int64)
    for _ in range(2):  # float rounding: correct r to the exact integer square root
        r = np.where(r * r > sq, r - 1, r)
        r = np.where((r + 1) * (r + 1) <= sq, r + 1, r)
    return np.where(a >= 0, r, -r - 1)


def _floor_phi(a: np.ndarray) -> np.ndarray:
    """floor(n phi) of an int64 array, exactly (:func:`nimjos.lang.builtins.floor_phi`): 5 n^2 must stay below
    2**62.

    >>> _floor_phi(np.array([-2, -1, 0, 1, 2, 3, 100])).tolist()
    [-4, -2, 0, 1, 3, 4, 161]
    """
    return np.floor_divide(a + _floor_root_times(a, 5), 2)


def _is_generator(node: ir.Expr) -> bool:
    return isinstance(node, ir.Comprehension) and node.kind == "generator"


def _size(env: dict) -> int:
    for v in env.values():
        if isinstance(v, np.ndarray):
            return len(v)
    return 1


class _Vectoriser(IRVisitor):
    """Evaluates one resolved tree (:mod:`nimjos.lang.ir`) on an environment of arrays (all of the same length) and
    Python ints: a ``visit_<Node>`` per node it evaluates; any other node is not vectorised."""

    def __init__(self, ns: Namespace, extra: dict[Any, Callable] | None = None):
        self.ns = ns
        self.extra = extra or {}
        self.active: list[str] = []  # definitions being inlined (a recursive one is refused)

    def ev(self, node: ir.Expr, env: dict) -> Any:
        return self.visit(node, env)

    def generic_visit(self, node: ir.Expr, *args: Any) -> Any:
        raise NotVectorisable(f"{type(node).__name__} is not vectorised")

    def restrict(self, env: dict, idx: np.ndarray) -> dict:
        return {k: _take(v, idx) for k, v in env.items()}

    # -- leaves
    def visit_Const(self, node: ir.Const, env: dict) -> Any:
        if type(node.value) in (int, bool):
            return node.value
        raise NotVectorisable(f"the constant {node.value!r}")

    def visit_Var(self, node: ir.Var, env: dict) -> Any:
        try:
            return env[node.name]
        except KeyError:
            raise NotVectorisable(f"the name {node.shown!r} is not bound") from None

    def visit_Ref(self, node: ir.Ref, env: dict) -> Any:
        raise NotVectorisable(f"the name {node.name!r} as a value")

    def visit_GameRef(self, node: ir.GameRef, env: dict) -> Any:
        return GameCall(node.game, [] if node.args is None else [_int(self.ev(a, env)) for a in node.args])

    def visit_Tuple(self, node: ir.Tuple, env: dict) -> Any:
        return tuple(self.ev(e, env) for e in node.elts)

    def visit_Subscript(self, node: ir.Subscript, env: dict) -> Any:
        base = self.ev(node.value, env)
        if not isinstance(base, tuple) or not isinstance(node.index, ir.Const) or type(node.index.value) is not int:
            raise NotVectorisable("a subscript other than a tuple's constant position")
        i = node.index.value
        if not -len(base) <= i < len(base):
            raise NotVectorisable("a tuple position out of range")
        return base[i]

    # -- operators
    def visit_BinOp(self, node: ir.BinOp, env: dict) -> Any:
        if node.op is ast.Div:
            a, b = _int(self.ev(node.left, env)), _int(self.ev(node.right, env))
            return self.exact_div(a, b)
        return _binop(node.op(), self.ev(node.left, env), self.ev(node.right, env))

    def exact_div(self, a: Any, b: Any) -> Any:
        """a / b where every quotient is whole (else the scalar value is a Fraction: not vectorised)."""
        r = _binop(ast.Mod(), a, b)
        if np.any(r != 0):
            raise NotVectorisable("a quotient that is not whole (a Fraction)")
        return _binop(ast.FloorDiv(), a, b)

    def visit_UnaryOp(self, node: ir.UnaryOp, env: dict) -> Any:
        v = self.ev(node.operand, env)
        if node.op is ast.Not:
            return np.logical_not(_truth(v)) if isinstance(v, np.ndarray) else not _truth(v)
        v = _int(v)
        if node.op is ast.USub:
            return -v
        if node.op is ast.UAdd:
            return v
        if node.op is ast.Invert:
            return ~v
        raise NotVectorisable(f"the operator {node.op.__name__}")

    def visit_BoolOp(self, node: ir.BoolOp, env: dict) -> Any:
        n = _size(env)
        is_and = node.op is ast.And
        first = self.ev(node.values[0], env)
        if not _is_bool(first):
            raise NotVectorisable("and / or of values that are not truth values")
        result = _full(first, n).copy()
        for operand in node.values[1:]:
            pending = result if is_and else ~result  # where the scalar language evaluates the next operand
            idx = np.nonzero(pending)[0]
            if idx.size == 0:
                break
            v = self.ev(operand, self.restrict(env, idx))
            if not _is_bool(v):
                raise NotVectorisable("and / or of values that are not truth values")
            result[idx] = v
        return result

    def visit_IfExp(self, node: ir.IfExp, env: dict) -> Any:
        n = _size(env)
        test = _full(_truth(self.ev(node.test, env)), n)
        yes, no = np.nonzero(test)[0], np.nonzero(~test)[0]
        a = self.ev(node.body, self.restrict(env, yes)) if yes.size else None
        b = self.ev(node.orelse, self.restrict(env, no)) if no.size else None
        if a is None:
            return b if isinstance(b, tuple) else _full(b, n)
        if b is None:
            return a if isinstance(a, tuple) else _full(a, n)
        return _merge(test, a, b, n)

    def visit_Compare(self, node: ir.Compare, env: dict) -> Any:
        n = _size(env)
        left = self.ev(node.left, env)
        result: Any = None
        idx = None
        cur_env = env
        for op, right_node in zip(node.ops, node.comparators):
            if op in (ast.In, ast.NotIn):
                elts = right_node.elts if isinstance(right_node, ir.Set) else ()
                members = [e.value for e in elts if isinstance(e, ir.Const) and type(e.value) is int]
                if not isinstance(right_node, ir.Set) or len(members) != len(elts):
                    raise NotVectorisable("membership other than in a literal set of integers")
                lv = _int(left)
                part = np.isin(lv, members) if isinstance(lv, np.ndarray) else lv in members
                if op is ast.NotIn:
                    part = np.logical_not(part)
                right = None
            else:
                right = self.ev(right_node, cur_env)
                part = _compare(op(), left, right)
            if result is None:
                result = _full(part, n).copy() if len(node.ops) > 1 else part
                idx = np.arange(n)
            else:
                result[idx] = part
            if len(node.ops) == 1:
                return result
            # a chain: the next comparison is evaluated only where this one held
            assert idx is not None, "set with result by the first comparison"
            keep = np.nonzero(_full(part, len(idx)))[0]
            idx = idx[keep]
            if idx.size == 0:
                break
            cur_env = self.restrict(env, idx)
            left = _take(right, keep) if right is not None else None
            if left is None:
                raise NotVectorisable("a chain continuing after a membership test")
        return result

    # -- calls
    def visit_Call(self, node: ir.Call, env: dict) -> Any:
        fn = node.fn
        array_fn = self.extra.get(id(fn))
        if array_fn is not None:
            return array_fn(*[self.ev(a, env) for a in node.args])
        if isinstance(fn, StoredAutomaton):
            return STORED_VECTOR_FORM(self, node, env)
        if BUILTINS.get(node.name) is not fn:
            raise NotVectorisable(f"the function {node.name!r}")
        form = VECTOR_FORMS.get(node.name)
        if form is None:
            raise NotVectorisable(f"the built-in {node.name!r} is not vectorised ({REGISTRY[node.name].vector})")
        return form(self, node, env)

    def visit_Apply(self, node: ir.Apply, env: dict) -> Any:
        if isinstance(node.func, ir.Var) and isinstance(env.get(node.func.name), Closure):
            return self.call_closure(env[node.func.name], node, env)
        raise NotVectorisable("a call of something other than a name of a function")

    def visit_Lambda(self, node: ir.Lambda, env: dict) -> Any:
        return Closure(node, env)

    def call_closure(self, c: Closure, node: ir.Apply, env: dict) -> Any:
        params = c.node.params
        if len(node.args) != len(params) or any(_is_generator(a) for a in node.args):
            raise NotVectorisable("a lambda called with other arguments")
        args = [self.ev(a, env) for a in node.args]
        for a in args:
            if not (_is_int(a) or _is_bool(a) or isinstance(a, tuple)):
                raise NotVectorisable("a lambda called with an argument that is not a number")
        inner = dict(c.env)
        inner.update(zip(params, args))
        if not any(isinstance(v, np.ndarray) for v in inner.values()):
            inner["\0size"] = np.zeros(_size(env), dtype=np.int64)
        return self.ev(c.node.body, inner)

    def visit_DefCall(self, node: ir.DefCall, env: dict) -> Any:
        d = node.definition
        if not d.params:
            # a definition without parameters is a constant: its scalar value, when it is a number or a truth value
            v = d()
            if type(v) in (int, bool):
                return v
            raise NotVectorisable(f"the name {d.name!r} as a value")
        if node.body is None or d.name in self.active or len(node.args) != len(node.body.params):
            raise NotVectorisable(f"the definition {d.name!r} (recursive, or called with other arguments)")
        args = [self.ev(a, env) for a in node.args]
        for a in args:
            if not (_is_int(a) or _is_bool(a) or isinstance(a, (tuple, Closure))):
                raise NotVectorisable(f"an argument of {d.name!r} that is not a number or a lambda")
        # the arguments' values (each evaluated once, as the language does) bound to the parameters of the body as
        # the resolver resolved it once: the body sees nothing of the caller
        inner = dict(zip(node.body.params, args))
        if not any(isinstance(v, np.ndarray) for v in inner.values()):
            inner["\0size"] = np.zeros(_size(env), dtype=np.int64)  # keeps the length of the window
        self.active.append(d.name)
        try:
            v = self.ev(node.body.body, inner)
        finally:
            self.active.pop()
        return v

    def _args(self, node: ir.Call, env: dict, count: int | None = None) -> list:
        if any(_is_generator(a) for a in node.args):
            raise NotVectorisable("a generator argument")
        if count is not None and len(node.args) != count:
            raise NotVectorisable("a call with another number of arguments")
        return [_int(self.ev(a, env)) for a in node.args]

    def b_stored(self, node: ir.Call, env: dict) -> Any:
        """A stored automaton (:class:`nimjos.lang.stored.StoredAutomaton`) on arrays: the same answers as its scalar
        form; a negative argument (or a boolean, a wrong arity) is left to the scalar form, which refuses it."""
        fn = node.fn
        args = self._args(node, env, fn.arity)
        if any((int(np.min(a)) if a.size else 0) < 0 if isinstance(a, np.ndarray) else a < 0 for a in args):
            raise NotVectorisable(f"{fn.name} of a negative number")
        if not any(isinstance(a, np.ndarray) for a in args):
            return fn(*args)
        columns = np.broadcast_arrays(*[np.asarray(a, dtype=np.int64) for a in args])
        return fn.automaton.accepts(list(columns))

    def b_floor(self, node: ir.Call, env: dict) -> Any:
        if len(node.args) == 1 and isinstance(node.args[0], ir.BinOp) and node.args[0].op is ast.Div:
            a, b = _int(self.ev(node.args[0].left, env)), _int(self.ev(node.args[0].right, env))
            return _binop(ast.FloorDiv(), a, b)
        return self._args(node, env, 1)[0]

    def b_ceil(self, node: ir.Call, env: dict) -> Any:
        if len(node.args) == 1 and isinstance(node.args[0], ir.BinOp) and node.args[0].op is ast.Div:
            a, b = _int(self.ev(node.args[0].left, env)), _int(self.ev(node.args[0].right, env))
            return -_binop(ast.FloorDiv(), -a, b)
        return self._args(node, env, 1)[0]

    def b_abs(self, node: ir.Call, env: dict) -> Any:
        return abs(self._args(node, env, 1)[0])

    def b_min(self, node: ir.Call, env: dict) -> Any:
        return self._extreme(node, env, "min", np.minimum, min)

    def b_max(self, node: ir.Call, env: dict) -> Any:
        return self._extreme(node, env, "max", np.maximum, max)

    def _extreme(self, node: ir.Call, env: dict, name: str, on_arrays: Any, on_ints: Any) -> Any:
        """min or max of two or more arguments (numbers or arrays); of one collection: not vectorised."""
        args = self._args(node, env)
        if len(args) < 2:
            raise NotVectorisable(f"{name} of a collection")
        out = args[0]
        for a in args[1:]:
            out = on_arrays(out, a) if isinstance(out, np.ndarray) or isinstance(a, np.ndarray) else on_ints(out, a)
        return out

    def b_xor(self, node: ir.Call, env: dict) -> Any:
        args = self._args(node, env)
        out: Any = 0
        for a in args:
            if (int(np.min(a)) if isinstance(a, np.ndarray) and a.size else (a if not isinstance(a, np.ndarray) else 0)) < 0:
                raise NotVectorisable("the nim-sum of a negative number")
            out = np.bitwise_xor(out, a)
        return out

    def b_v2(self, node: ir.Call, env: dict) -> Any:
        (a,) = self._args(node, env, 1)
        a = _full(a, _size(env))
        if np.any(a == 0):
            raise NotVectorisable("v2(0)")
        _check(_mag(a) + 1, "v2's argument")
        low = np.bitwise_and(a, -a)
        return (np.frexp(low.astype(np.float64))[1] - 1).astype(np.int64)

    def b_ilog2(self, node: ir.Call, env: dict) -> Any:
        (a,) = self._args(node, env, 1)
        a = _full(a, _size(env))
        if a.size and int(a.min()) < 1:
            raise NotVectorisable("ilog2 of a number below 1")
        _check(_mag(a) + 1, "ilog2's argument")
        e = (np.frexp(a.astype(np.float64))[1] - 1).astype(np.int64)
        e = np.where(np.left_shift(np.int64(1), e) > a, e - 1, e)  # float rounding near a power of two
        e = np.where(np.left_shift(np.int64(1), e + 1) <= a, e + 1, e)
        return e

    def b_isqrt(self, node: ir.Call, env: dict) -> Any:
        (a,) = self._args(node, env, 1)
        a = _full(a, _size(env))
        if a.size and int(a.min()) < 0:
            raise NotVectorisable("isqrt of a negative number")
        _check(_mag(a) + 1, "isqrt's argument")
        r = np.floor(np.sqrt(a.astype(np.float64))).astype(np.int64)
        for _ in range(2):  # float rounding: correct r to the exact integer square root
            r = np.where(r * r > a, r - 1, r)
            r = np.where((r + 1) * (r + 1) <= a, r + 1, r)
        return r

    def b_floor_phi(self, node: ir.Call, env: dict) -> Any:
        """floor(n phi) on arrays, exactly: (n + floor(n sqrt 5)) // 2 with the integer square root of 5 n^2
        (:func:`nimjos.lang.builtins.floor_phi`)."""
        (a,) = self._args(node, env, 1)
        return _floor_phi(_full(a, _size(env)))

    def b_floor_phi2(self, node: ir.Call, env: dict) -> Any:
        """floor(n phi^2) = floor(n phi) + n on arrays, exactly."""
        (a,) = self._args(node, env, 1)
        a = _full(a, _size(env))
        return _floor_phi(a) + a

    def b_floor_sqrt2(self, node: ir.Call, env: dict) -> Any:
        """floor(n sqrt 2) on arrays, exactly (:func:`nimjos.lang.builtins.floor_sqrt2`)."""
        (a,) = self._args(node, env, 1)
        return _floor_root_times(_full(a, _size(env)), 2)

    def b_zeck_tz(self, node: ir.Call, env: dict) -> Any:
        """The trailing zeros of Zeckendorf's representation on arrays (:func:`nimjos.lang.builtins.zeck_tz`): the
        greedy digits from the largest Fibonacci place down, the last place taken."""
        (a,) = self._args(node, env, 1)
        a = _full(a, _size(env))
        if a.size and int(a.min()) < 1:
            raise NotVectorisable("zeck_tz of a number below 1")
        places = [1, 2]
        while places[-1] <= int(a.max(initial=0)):
            places.append(places[-1] + places[-2])
        rest, low = a.copy(), np.zeros_like(a)
        for j in range(len(places) - 1, -1, -1):
            take = rest >= places[j]
            rest = np.where(take, rest - places[j], rest)
            low = np.where(take, j, low)
        return low

    def _generator(self, node: ir.Call) -> tuple[ir.Comprehension, ir.Generator, bool]:
        """The one-clause generator argument of ``any`` / ``all`` / ``sum``, and whether it runs over range(a, b)."""
        if len(node.args) != 1 or not _is_generator(node.args[0]):
            raise NotVectorisable("a call over something other than a generator")
        gen = node.args[0]
        assert isinstance(gen, ir.Comprehension), "checked by _is_generator"
        if len(gen.generators) != 1:
            raise NotVectorisable("a generator with several for clauses")
        comp = gen.generators[0]
        it = comp.iter
        over_range = (not comp.unpack and isinstance(it, ir.Call) and it.name == "range"
                      and it.fn is BUILTINS.get("range") and 1 <= len(it.args) <= 2)
        return gen, comp, over_range

    def _iterations(self, comp: ir.Generator, env: dict, pending: np.ndarray | None) -> Any:
        """The iterations of ``for v in range(a, b) if C`` at every binding, unrolled (at most :data:`MAX_UNROLL`
        values): for each value v, (the indices of the bindings whose range holds v, where C holds and `pending`,
        which the caller may clear as it goes, is true; their environment with v set)."""
        it = comp.iter
        assert isinstance(it, ir.Call) and not comp.unpack, "called only over range(...) (_generator)"
        n = _size(env)
        bounds = [_int(self.ev(a, env)) for a in it.args]
        lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
        lo_a, hi_a = _full(lo, n), _full(hi, n)
        if n == 0:
            return
        first, last = int(lo_a.min()), int(hi_a.max()) - 1
        if last - first + 1 > MAX_UNROLL:
            raise NotVectorisable(f"a range of more than {MAX_UNROLL} values")
        var = comp.target[0]
        for v in range(first, last + 1):
            live = (lo_a <= v) & (v < hi_a)
            idx = np.nonzero(live if pending is None else pending & live)[0]
            if idx.size == 0:
                continue
            sub = self.restrict(env, idx)
            sub[var] = v
            for cond in comp.ifs:
                c = _full(_truth(self.ev(cond, sub)), idx.size)
                keep = np.nonzero(c)[0]
                idx = idx[keep]
                sub = {k: _take(x, keep) if isinstance(x, (np.ndarray, Closure)) else x for k, x in sub.items()}
                if idx.size == 0:
                    break
            if idx.size == 0:
                continue
            if not any(isinstance(x, np.ndarray) for x in sub.values()):
                sub["\0size"] = np.zeros(idx.size, dtype=np.int64)
            yield idx, sub

    def _unrolled(self, node: ir.Call, env: dict, want_any: bool) -> Any:
        gen, comp, over_range = self._generator(node)
        if not over_range:
            return self._over_options(gen, env, want_any)
        n = _size(env)
        result = np.full(n, not want_any)
        pending = np.ones(n, dtype=np.bool_)
        for idx, sub in self._iterations(comp, env, pending):
            t = _full(_truth(self.ev(gen.elt, sub)), idx.size)
            decided = idx[t] if want_any else idx[~t]
            result[decided] = want_any
            pending[decided] = False
        return result

    def b_sum(self, node: ir.Call, env: dict) -> Any:
        """sum(E for v in range(a, b)) at every binding, the range unrolled."""
        gen, comp, over_range = self._generator(node)
        if not over_range:
            raise NotVectorisable("a sum over something other than range(a, b)")
        total = np.zeros(_size(env), dtype=np.int64)
        bound = 0
        for idx, sub in self._iterations(comp, env, None):
            term = _full(_int(self.ev(gen.elt, sub)), idx.size)
            bound += _mag(term)
            _check(bound, "a sum")
            total[idx] += term
        return total

    def _over_options(self, gen: ir.Comprehension, env: dict, want_any: bool) -> Any:
        """any / all of a condition over ``h in options(g, p)`` (an :class:`OptionSets`): the condition, which may
        name h but no array of the bindings, is evaluated once on the box that holds every option, then searched."""
        comp = gen.generators[0]
        if comp.unpack or comp.ifs:
            raise NotVectorisable("a generator over something other than range(a, b)")
        h = comp.target[0]
        for name in free_variables(gen.elt) - {h}:
            if name in env and type(env[name]) is not int:
                raise NotVectorisable("a condition on the options that names the bindings' values")
        sets = self.ev(comp.iter, env)
        if not isinstance(sets, OptionSets):
            raise NotVectorisable("a generator over something other than range(a, b) or the options of a game")
        size = int(np.prod(sets.box))
        if not sets.box or size > MAX_OPTION_BOX:
            raise NotVectorisable("options spread over a large box")
        grid = np.indices(sets.box, dtype=np.int64).reshape(len(sets.box), size)
        sub: dict[str, Any] = {k: v for k, v in env.items() if type(v) is int}
        sub[h] = tuple(grid) if len(sets.box) > 1 else grid[0]
        sub["\0size"] = np.zeros(size, dtype=np.int64)
        marked = _full(_truth(self.ev(gen.elt, sub)), size).reshape(sets.box)
        found = sets.search(marked if want_any else ~marked)
        return found if want_any else ~found

    def b_any(self, node: ir.Call, env: dict) -> Any:
        return self._unrolled(node, env, True)

    def b_all(self, node: ir.Call, env: dict) -> Any:
        return self._unrolled(node, env, False)

    def b_iterate(self, node: ir.Call, env: dict) -> Any:
        if len(node.args) != 3 or not isinstance(node.args[0], ir.Lambda):
            raise NotVectorisable("iterate of something other than a lambda")
        lam = node.args[0]
        if len(lam.params) != 1:
            raise NotVectorisable("iterate of a lambda of other than one parameter")
        var = lam.params[0]
        n = _size(env)
        p = _full(_int(self.ev(node.args[1], env)), n)
        x = _int(self.ev(node.args[2], env))
        if p.size and int(p.min()) < 0:
            raise NotVectorisable("iterate a negative number of times")
        steps = int(p.max()) if p.size else 0
        if steps > MAX_UNROLL:
            raise NotVectorisable(f"iterate more than {MAX_UNROLL} times")
        r = _full(x, n).copy()
        for i in range(steps):
            idx = np.nonzero(p > i)[0]
            sub = self.restrict(env, idx)
            sub[var] = r[idx]
            r[idx] = _full(_int(self.ev(lam.body, sub)), idx.size)
        return r


#: the vectorised form of each built-in of :mod:`nimjos.lang.builtins` that has one, keyed by the registry's names
#: (:mod:`nimjos.lang.registry`; the built-ins of the layers above get theirs from the caller's `extra`)
VECTOR_FORMS: dict[str, Callable[[_Vectoriser, ir.Call, dict], Any]] = {
    "floor": _Vectoriser.b_floor, "ceil": _Vectoriser.b_ceil, "abs": _Vectoriser.b_abs, "min": _Vectoriser.b_min,
    "max": _Vectoriser.b_max, "xor": _Vectoriser.b_xor, "v2": _Vectoriser.b_v2, "ilog2": _Vectoriser.b_ilog2,
    "isqrt": _Vectoriser.b_isqrt, "sum": _Vectoriser.b_sum, "any": _Vectoriser.b_any, "all": _Vectoriser.b_all,
    "iterate": _Vectoriser.b_iterate, "floor_phi": _Vectoriser.b_floor_phi, "floor_phi2": _Vectoriser.b_floor_phi2,
    "zeck_tz": _Vectoriser.b_zeck_tz,
    "floor_sqrt2": _Vectoriser.b_floor_sqrt2,
}
#: the vectorised form of every stored automaton (nimjos.lang.registry.STORED_AUTOMATON), whatever its name
STORED_VECTOR_FORM = _Vectoriser.b_stored


def vectorise(tree: ast.AST | ir.Expr, ns: Namespace, extra: dict[Any, Callable] | None = None) -> Callable[[dict], Any]:
    """The function ``env -> value`` that evaluates `tree` on an environment of int64 arrays (one entry per
    binding, all of the same length) and Python ints; it raises :class:`NotVectorisable` where the scalar
    evaluation must decide. `tree` is a resolved tree (:mod:`nimjos.lang.ir`, a plan's expression) or a
    syntax tree, resolved once per set of names the environments bind (a name the environment binds is a variable,
    as in the scalar language). `extra` maps a built-in's scalar function object (``id`` of it) to its array
    version.

    >>> from nimjos.lang.syntax import parse
    >>> f = vectorise(parse("any(x == 2**n - 1 for n in range(0, 6))"), Namespace())
    >>> f({"x": np.arange(8)}).tolist()
    [True, True, False, True, False, False, False, True]
    """
    resolved: dict[frozenset, ir.Expr] = {}

    def run(env: dict) -> Any:
        try:
            if isinstance(tree, ir.Expr):
                return _Vectoriser(ns, extra).ev(tree, env)
            key = frozenset(env)
            node = resolved.get(key)
            if node is None:
                known = ns.known()
                names = {n for n in free_names(tree) if n in env or n not in known}
                node = resolved[key] = resolve(tree, ns, names)  # type: ignore[arg-type]  # a parsed expression
            return _Vectoriser(ns, extra).ev(node, env)
        except (ArithmeticError, LookupError, ValueError, TypeError, RecursionError, EvalError, SpecError) as exc:
            # whatever the scalar language would say here, it says it: the caller falls back to it
            raise NotVectorisable(f"{type(exc).__name__}: {exc}") from None
    return run


def as_full(value: Any, n: int) -> np.ndarray:
    """A vectorised value as an array of length n (a constant is repeated).

    >>> as_full(3, 2).tolist(), as_full(np.array([True, False]), 2).tolist()
    ([3, 3], [True, False])
    """
    if isinstance(value, tuple):
        raise NotVectorisable("a tuple where a number or truth value was expected")
    return _full(value, n)


def as_truth(value: Any, n: int) -> np.ndarray:
    """A vectorised value's truth (a number is true when not 0) as a bool array of length n.

    >>> as_truth(np.array([0, 2]), 2).tolist(), as_truth(True, 2).tolist()
    ([False, True], [True, True])
    """
    if isinstance(value, tuple):
        raise NotVectorisable("the truth of a tuple")
    return _full(_truth(value), n)
