"""The expression language: Python expression syntax, parsed with ``ast`` under a whitelist and compiled
once into closures over an environment dict. Spec text is never passed to eval().

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
import difflib
import operator
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from nimjos.lang.builtins import BUILTINS
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.runtime import (BUDGET, MAX_BITS, MAX_NESTING, MAX_STEPS, Definition, Env, Lambda,
                                  _Stream, norm)
from nimjos.lang.values import format_value

@dataclass
class Namespace:
    """What names mean while compiling: built-ins, definitions and games.

    `builtins` maps a name to a Python callable or value; `definitions` to :class:`Definition`;
    `games` to a game declaration object (callable when it has params, a game instance otherwise).
    """

    builtins: dict[str, Any] = field(default_factory=dict)
    definitions: dict[str, Definition] = field(default_factory=dict)
    games: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.builtins:
            self.builtins = dict(BUILTINS)

    def known(self) -> set[str]:
        return set(self.builtins) | set(self.definitions) | set(self.games) | {"True", "False"}

    def resolve(self, name: str) -> Any:
        if name in self.definitions:
            return self.definitions[name]
        if name in self.games:
            return self.games[name]
        return self.builtins[name]


# ----------------------------------------------------------------------------- parsing and the whitelist

_REFUSED = {
    ast.Attribute: "attribute access (a.b) is not allowed in specs",
    ast.Starred: "starred arguments are not allowed",
    ast.Dict: "dictionaries are not values of the spec language",
    ast.DictComp: "dictionary comprehensions are not allowed",
    ast.NamedExpr: "assignment expressions (:=) are not allowed",
    ast.Await: "await is not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
    ast.JoinedStr: "strings are not values of the spec language",
    ast.FormattedValue: "strings are not values of the spec language",
    ast.Slice: "slices are not allowed; index with a single integer",
}

_ALLOWED = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
    ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Subscript, ast.Lambda, ast.arguments, ast.arg,
    ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.comprehension, ast.Load, ast.Store,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitOr, ast.BitAnd,
    ast.LShift, ast.RShift, ast.USub, ast.UAdd, ast.Invert, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
)


def parse(text: Any) -> ast.expr:
    """Parse expression text and apply the whitelist; return the expression node.

    >>> type(parse("a < b <= c")).__name__
    'Compare'
    >>> parse("__import__('os').system('id')")
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: attribute access (a.b) is not allowed in specs
    """
    if not isinstance(text, str):
        raise SpecError(f"expected an expression as a string, got {type(text).__name__} {text!r}")
    if len(text) > 20_000:
        raise SpecError("expression longer than 20,000 characters")
    try:
        with warnings.catch_warnings():  # a warning of Python's parser would be a second line on stderr
            warnings.simplefilter("ignore")
            tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        col = f" at column {exc.offset}" if exc.offset else ""
        raise SpecError(f"syntax error{col}: {exc.msg} in {text.strip()!r}") from None
    except (RecursionError, MemoryError):
        raise SpecError(f"expression nested too deeply to parse: {text.strip()[:40]!r}...",
                        hint=f"at most {MAX_NESTING} levels") from None
    except ValueError as exc:
        raise SpecError(f"cannot parse {text.strip()[:80]!r}: {exc}") from None
    depth = nesting(tree)
    if depth > MAX_NESTING:
        raise SpecError(f"expression nested too deeply ({depth} levels)", hint=f"at most {MAX_NESTING} levels")
    _check_whitelist(tree)
    return tree.body


def nesting(tree: ast.AST) -> int:
    """The depth of a syntax tree, computed without recursion.

    >>> nesting(ast.parse("1 + 2", mode="eval"))
    3
    """
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _check_whitelist(tree: ast.AST) -> None:
    # refused constructs first, so that the message names the worst offence (attribute access)
    nodes = list(ast.walk(tree))
    for node in nodes:
        msg = _REFUSED.get(type(node))
        if msg:
            raise SpecError(msg)
    for node in nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):
            raise SpecError("'^' is not an operator of the spec language",
                            hint="use ** for power, xor(a, b) for the nim-sum")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            raise SpecError("'@' is not an operator of the spec language")
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise SpecError(f"names starting with '_' are not allowed ({node.id!r})")
        if isinstance(node, ast.arg) and node.arg.startswith("_"):
            raise SpecError(f"names starting with '_' are not allowed ({node.arg!r})")
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, float):
                raise SpecError(f"floating-point number {v!r} is not allowed",
                                hint="write an exact fraction such as 3/2")
            if isinstance(v, complex):
                raise SpecError("complex numbers are not allowed")
            if isinstance(v, (str, bytes)):
                raise SpecError(f"strings are not values of the spec language ({v!r})")
            if v is None or v is Ellipsis:
                raise SpecError(f"{v!r} is not a value of the spec language")
        if isinstance(node, ast.Call) and node.keywords:
            raise SpecError("keyword arguments are not allowed")
        if isinstance(node, ast.Lambda):
            a = node.args
            if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
                raise SpecError("lambdas take plain positional parameters only")
        if isinstance(node, ast.comprehension) and node.is_async:
            raise SpecError("async comprehensions are not allowed")
        if not isinstance(node, _ALLOWED):
            raise SpecError(f"{type(node).__name__} is not allowed in spec expressions")


def free_names(node: ast.AST) -> list[str]:
    """Names used by an expression and not bound inside it (lambda parameters, comprehension targets),
    in order of first appearance.

    >>> free_names(parse("lambda r: g(k, r) + r"))
    ['g', 'k']
    """
    seen: dict[str, None] = {}

    def visit(n: ast.AST, bound: frozenset[str]) -> None:
        if isinstance(n, ast.Name):
            if n.id not in bound and n.id not in seen:
                seen[n.id] = None
            return
        if isinstance(n, ast.Lambda):
            visit(n.body, bound | {a.arg for a in n.args.args})
            return
        if isinstance(n, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            inner = bound
            for gen in n.generators:
                visit(gen.iter, inner)
                inner = inner | {t.id for t in ast.walk(gen.target) if isinstance(t, ast.Name)}
                for cond in gen.ifs:
                    visit(cond, inner)
            visit(n.elt, inner)
            return
        for child in ast.iter_child_nodes(n):
            visit(child, bound)

    visit(node, frozenset())
    return list(seen)


def suggest(name: str, candidates: set[str] | list[str]) -> str | None:
    """A 'did you mean' hint, or None.

    >>> suggest("floot", {"floor", "ceil"})
    "did you mean 'floor'?"
    """
    close = difflib.get_close_matches(name, sorted(candidates), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"


# ----------------------------------------------------------------------------- arithmetic helpers

def _div(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError(f"division by zero ({_fmt(a)} / 0)")
    if type(a) is int and type(b) is int:
        q = Fraction(a, b)
    else:
        q = Fraction(a) / Fraction(b)
    return norm(q)


def _floordiv(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError(f"division by zero ({_fmt(a)} // 0)")
    return norm(a // b)


def _mod(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError(f"modulo by zero ({_fmt(a)} % 0)")
    return norm(a % b)


def _pow(a: Any, b: Any) -> Any:
    if type(b) is not int:
        raise EvalError(f"non-integer exponent {_fmt(b)} (only integer powers are exact)")
    if b < 0:
        if a == 0:
            raise EvalError("0 raised to a negative power")
        return norm(Fraction(a) ** b)
    if a not in (0, 1, -1) and b > 1:
        size = abs(b) * max(1, (abs(a.numerator if type(a) is Fraction else a)).bit_length())
        if size > MAX_BITS:
            raise ResourceError(f"{_fmt(a)} ** {b} would have about {size:,} bits (limit {MAX_BITS:,})")
    return a ** b


def _lshift(a: Any, b: Any) -> Any:
    if type(a) is not int or type(b) is not int:
        raise EvalError("<< needs integers")
    if b < 0:
        raise EvalError("negative shift count")
    if b + a.bit_length() > MAX_BITS:
        raise ResourceError(f"{a} << {b} would have more than {MAX_BITS:,} bits")
    return a << b


def _rshift(a: Any, b: Any) -> Any:
    if type(a) is not int or type(b) is not int:
        raise EvalError(">> needs integers")
    if b < 0:
        raise EvalError("negative shift count")
    return a >> b


def _bitop(op: Callable) -> Callable:
    def f(a: Any, b: Any) -> Any:
        if type(a) is not int or type(b) is not int:
            if isinstance(a, bool) or isinstance(b, bool):
                return op(a, b)
            raise EvalError(f"bitwise operation on non-integers {_fmt(a)}, {_fmt(b)}")
        return op(a, b)
    return f


def _bits(v: Any) -> int:
    if type(v) is Fraction:
        return v.numerator.bit_length() + v.denominator.bit_length()
    return v.bit_length() if type(v) is int else 0


def _mul(a: Any, b: Any) -> Any:
    if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
        raise EvalError("* applies to numbers only")
    size = _bits(a) + _bits(b)
    if size > MAX_BITS:
        raise ResourceError(f"a product would have about {size:,} bits (limit {MAX_BITS:,})")
    return a * b


def _add(a: Any, b: Any) -> Any:
    return a + b


def _contains(x: Any, container: Any) -> bool:
    if callable(container) and not isinstance(container, (range, tuple, frozenset, set)):
        return bool(container(x))
    try:
        return x in container
    except TypeError:
        raise EvalError(f"'in' needs a set, tuple, range or predicate, got {_fmt(container)}") from None


def _fmt(v: Any) -> str:
    return format_value(v)


_BINOPS: dict[type, Callable] = {
    ast.Add: _add, ast.Sub: operator.sub, ast.Mult: _mul, ast.Div: _div, ast.FloorDiv: _floordiv,
    ast.Mod: _mod, ast.Pow: _pow, ast.BitOr: _bitop(operator.or_), ast.BitAnd: _bitop(operator.and_),
    ast.LShift: _lshift, ast.RShift: _rshift,
}

_CMPOPS: dict[type, Callable] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.In: _contains, ast.NotIn: lambda a, b: not _contains(a, b),
}


def _safe_cmp(op: Callable) -> Callable:
    def f(a: Any, b: Any) -> bool:
        try:
            return op(a, b)
        except TypeError:
            raise EvalError(f"cannot compare {_fmt(a)} with {_fmt(b)}") from None
    return f


_CMPOPS = {k: (_safe_cmp(v) if k not in (ast.In, ast.NotIn) else v) for k, v in _CMPOPS.items()}


# ----------------------------------------------------------------------------- the compiler

class _Compiler:
    def __init__(self, ns: Namespace, variables: set[str]):
        self.ns = ns
        self.variables = set(variables)

    def compile(self, node: ast.AST, local: frozenset[str]) -> Callable[[Env], Any]:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:  # pragma: no cover - the whitelist stops this first
            raise SpecError(f"{type(node).__name__} is not allowed in spec expressions")
        return method(node, local)

    def c_Constant(self, node: ast.Constant, local: frozenset[str]) -> Callable:
        v = node.value
        return lambda env: v

    def c_Name(self, node: ast.Name, local: frozenset[str]) -> Callable:
        name = node.id
        if name in local or name in self.variables:
            def get(env: Env, name: str = name) -> Any:
                try:
                    return env[name]
                except KeyError:
                    raise SpecError(f"name {name!r} is not bound here") from None
            return get
        if name == "True":
            return lambda env: True
        if name == "False":
            return lambda env: False
        if name in self.ns.definitions:
            d = self.ns.definitions[name]
            if not d.params:
                return lambda env: d()
            return lambda env: d
        if name in self.ns.games or name in self.ns.builtins:
            v = self.ns.resolve(name)
            return lambda env: v
        hint = suggest(name, self.ns.known() | self.variables | set(local))
        raise SpecError(f"unknown name {name!r}", hint=hint)

    def c_BinOp(self, node: ast.BinOp, local: frozenset[str]) -> Callable:
        op = _BINOPS[type(node.op)]
        left = self.compile(node.left, local)
        right = self.compile(node.right, local)
        if isinstance(node.op, ast.Add):
            def add(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a + b
                if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
                    raise EvalError("+ applies to numbers only")
                try:
                    return norm(a + b)
                except TypeError:
                    raise EvalError(f"cannot add {_fmt(a)} and {_fmt(b)}") from None
            return add
        if isinstance(node.op, ast.Sub):
            def sub(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a - b
                try:
                    return norm(a - b)
                except TypeError:
                    raise EvalError(f"cannot subtract {_fmt(b)} from {_fmt(a)}") from None
            return sub

        def binop(env: Env) -> Any:
            try:
                return op(left(env), right(env))
            except TypeError:
                raise EvalError(f"operator {type(node.op).__name__} does not apply to these values") from None
        return binop

    def c_UnaryOp(self, node: ast.UnaryOp, local: frozenset[str]) -> Callable:
        operand = self.compile(node.operand, local)
        if isinstance(node.op, ast.Not):
            return lambda env: not operand(env)
        if isinstance(node.op, ast.USub):
            def neg(env: Env) -> Any:
                v = operand(env)
                if not isinstance(v, (int, Fraction)):
                    raise EvalError(f"unary minus applies to numbers only, not {_fmt(v)}")
                return -v
            return neg
        if isinstance(node.op, ast.UAdd):
            return operand

        def inv(env: Env) -> Any:
            v = operand(env)
            if type(v) is not int:
                raise EvalError("~ needs an integer")
            return ~v
        return inv

    def c_BoolOp(self, node: ast.BoolOp, local: frozenset[str]) -> Callable:
        parts = [self.compile(v, local) for v in node.values]
        if isinstance(node.op, ast.And):
            def and_(env: Env) -> bool:
                for p in parts:
                    if not p(env):
                        return False
                return True
            return and_

        def or_(env: Env) -> bool:
            for p in parts:
                if p(env):
                    return True
            return False
        return or_

    def _not_a_number(self, node: ast.AST, local: frozenset[str]) -> None:
        """Refuse a built-in function, game or definition with params used as a number in an order comparison."""
        if not isinstance(node, ast.Name) or node.id in local or node.id in self.variables:
            return
        name = node.id
        d = self.ns.definitions.get(name)
        if name in self.ns.games or (d is not None and d.params) or callable(self.ns.builtins.get(name)):
            what = "game" if name in self.ns.games else "definition" if d is not None else "built-in function"
            raise SpecError(f"{name!r} is a {what}, not a number; it cannot be bound or compared with < or <=",
                            hint="choose another name for the variable")

    def c_Compare(self, node: ast.Compare, local: frozenset[str]) -> Callable:
        if any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops):
            for operand in (node.left, *node.comparators):
                self._not_a_number(operand, local)
        first = self.compile(node.left, local)
        rest = [(_CMPOPS[type(op)], self.compile(c, local)) for op, c in zip(node.ops, node.comparators)]
        if len(rest) == 1:
            (op, right), = rest
            return lambda env: op(first(env), right(env))

        def chain(env: Env) -> bool:
            a = first(env)
            for op, right in rest:
                b = right(env)
                if not op(a, b):
                    return False
                a = b
            return True
        return chain

    def c_IfExp(self, node: ast.IfExp, local: frozenset[str]) -> Callable:
        test, body, orelse = (self.compile(n, local) for n in (node.test, node.body, node.orelse))
        return lambda env: body(env) if test(env) else orelse(env)

    def c_Tuple(self, node: ast.Tuple, local: frozenset[str]) -> Callable:
        parts = [self.compile(e, local) for e in node.elts]
        if len(parts) == 2:
            a, b = parts
            return lambda env: (a(env), b(env))
        return lambda env: tuple(p(env) for p in parts)

    c_List = c_Tuple

    def c_Set(self, node: ast.Set, local: frozenset[str]) -> Callable:
        parts = [self.compile(e, local) for e in node.elts]

        def make(env: Env) -> frozenset:
            try:
                return frozenset(p(env) for p in parts)
            except TypeError:
                raise EvalError("set elements must be numbers or tuples") from None
        return make

    def c_Subscript(self, node: ast.Subscript, local: frozenset[str]) -> Callable:
        value = self.compile(node.value, local)
        index = self.compile(node.slice, local)

        def sub(env: Env) -> Any:
            v = value(env)
            i = index(env)
            if not isinstance(v, tuple) or type(i) is not int:
                raise EvalError(f"cannot index {_fmt(v)} by {_fmt(i)}")
            if not -len(v) <= i < len(v):
                raise EvalError(f"index {i} out of range for {_fmt(v)}")
            return v[i]
        return sub

    def c_Call(self, node: ast.Call, local: frozenset[str]) -> Callable:
        func = self.compile(node.func, local)
        args = [self.compile(a, local) for a in node.args]
        fname = node.func.id if isinstance(node.func, ast.Name) else "the called expression"

        def call(env: Env) -> Any:
            f = func(env)
            if not callable(f):
                raise EvalError(f"{fname} is not a function")
            vals = [a(env) for a in args]
            try:
                return f(*vals)
            except (EvalError, SpecError):
                raise
            except RecursionError:
                raise ResourceError("recursion too deep while evaluating") from None
            except (TypeError, ValueError, ZeroDivisionError, OverflowError, IndexError, KeyError) as exc:
                raise EvalError(f"{fname}({', '.join(_fmt(v) for v in vals)}): {exc}") from None
        return call

    def _new_names(self, names: Any, what: str) -> None:
        """Refuse a lambda parameter or comprehension target that would hide a built-in, definition or game."""
        for name in names:
            if name in self.ns.builtins or name in self.ns.definitions or name in self.ns.games:
                kind = "game" if name in self.ns.games else "definition" if name in self.ns.definitions else "built-in"
                raise SpecError(f"{what} {name!r} would hide the {kind} {name!r}", hint="choose another name")

    def c_Lambda(self, node: ast.Lambda, local: frozenset[str]) -> Callable:
        params = tuple(a.arg for a in node.args.args)
        self._new_names(params, "lambda parameter")
        inner = local | set(params)
        body = self.compile(node.body, inner)
        captured = [n for n in free_names(node) if n in local or n in self.variables]
        node_key = id(node)
        text = ast.unparse(node)

        def make(env: Env) -> Lambda:
            cap = {n: env[n] for n in captured if n in env}
            return Lambda(params, body, cap, (node_key, tuple(cap.items())), text)
        return make

    def _comprehension(self, node: Any, local: frozenset[str]) -> Callable:
        gens = []
        inner = local
        for gen in node.generators:
            it = self.compile(gen.iter, inner)
            targets = [t.id for t in ast.walk(gen.target) if isinstance(t, ast.Name)]
            self._new_names(targets, "comprehension variable")
            if not isinstance(gen.target, (ast.Name, ast.Tuple)):
                raise SpecError("comprehension targets must be names or tuples of names")
            inner = inner | set(targets)
            ifs = [self.compile(c, inner) for c in gen.ifs]
            if isinstance(gen.target, ast.Name):
                unpack = None
            else:
                unpack = tuple(t.id for t in gen.target.elts if isinstance(t, ast.Name))
            target = targets[0] if unpack is None else None
            gens.append((it, target, unpack, ifs))
        elt = self.compile(node.elt, inner)

        def generate(env: Env):
            env = dict(env)

            def rec(level: int):
                if level == len(gens):
                    yield elt(env)
                    return
                it, target, unpack, ifs = gens[level]
                iterable = it(env)
                if isinstance(iterable, range) and len(iterable) > MAX_STEPS:
                    raise ResourceError(f"a comprehension over {len(iterable):,} values exceeds the limit "
                                        f"of {MAX_STEPS:,} steps")
                if not isinstance(iterable, (range, tuple, frozenset, set, list)) and not hasattr(iterable, "__iter__"):
                    raise EvalError(f"cannot iterate over {_fmt(iterable)}")
                if isinstance(iterable, (frozenset, set)):
                    try:
                        iterable = sorted(iterable)
                    except TypeError:
                        iterable = sorted(iterable, key=repr)
                for value in iterable:
                    BUDGET.spend()
                    if unpack is None:
                        env[target] = value
                    else:
                        if not isinstance(value, tuple) or len(value) != len(unpack):
                            raise EvalError(f"cannot unpack {_fmt(value)} into {len(unpack)} names")
                        for n, v in zip(unpack, value):
                            env[n] = v
                    if all(c(env) for c in ifs):
                        yield from rec(level + 1)
            return rec(0)
        return generate

    def c_GeneratorExp(self, node: ast.GeneratorExp, local: frozenset[str]) -> Callable:
        gen = self._comprehension(node, local)
        return lambda env: _Stream(gen(env))

    def c_ListComp(self, node: ast.ListComp, local: frozenset[str]) -> Callable:
        gen = self._comprehension(node, local)
        return lambda env: tuple(gen(env))

    def c_SetComp(self, node: ast.SetComp, local: frozenset[str]) -> Callable:
        gen = self._comprehension(node, local)

        def make(env: Env) -> frozenset:
            try:
                return frozenset(gen(env))
            except TypeError:
                raise EvalError("set elements must be numbers or tuples") from None
        return make


def compile_tree(tree: ast.AST, ns: Namespace, variables: set[str] | frozenset[str] = frozenset()) -> Callable[[Env], Any]:
    """Compile a parsed (whitelisted) expression into a closure ``env -> value``.

    >>> f = compile_tree(parse("a < b"), Namespace(), {"a", "b"})
    >>> f({"a": 1, "b": 2})
    True
    """
    return _Compiler(ns, set(variables)).compile(tree, frozenset())


@dataclass
class Compiled:
    """A compiled expression: its text, tree, free variables and the closure."""

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
    BUDGET.steps = 0
    BUDGET.depth = 0
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
    nimjos.lang.errors.SpecError: unknown name 'flor' (did you mean 'floor'?)
    """
    tree = parse(text)
    fn = compile_tree(tree, ns, variables)
    return Compiled(text, tree, fn, tuple(n for n in variables_of(tree, ns) if n in variables))
