"""The compiler of the expression language: a parsed (whitelisted) syntax tree becomes, once, a closure
``env -> value`` over an environment dict; :class:`Namespace` says what the names that are not variables mean
(built-ins, definitions, games). Unknown names, and variables that would hide a known name, are refused at
compile time.

>>> from nimjos.lang.syntax import parse
>>> f = compile_tree(parse("[x * y for y in range(3) if y != 1]"), Namespace(), {"x"})
>>> f({"x": 5})
(0, 10)
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterator, NoReturn

from nimjos.lang.builtins import BUILTINS
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.operators import BINOPS, CMPOPS, INT_BINOPS, INT_CMPOPS
from nimjos.lang.runtime import MAX_BITS, MAX_STEPS, DepthError, active_budget, Definition, Env, Lambda, _Stream, norm
from nimjos.lang.stored import StoredAutomaton
from nimjos.lang.syntax import free_names, suggest
from nimjos.lang.values import format_value


@dataclass
class Namespace:
    """What names mean while compiling: built-ins, definitions and games.

    `builtins` maps a name to a Python callable or value; `definitions` to :class:`Definition`;
    `games` to a game declaration object (callable when it has params, a game instance otherwise).

    >>> ns = Namespace()
    >>> "floor" in ns.known(), ns.resolve("floor")(Fraction(7, 2))
    (True, 3)
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

    def kind(self, name: str) -> str | None:
        """What `name` already is, in words for a message: the game, the definition (a ``[define]`` of this spec),
        the stored automaton (an ``[automaton.NAME]`` of this spec) or the built-in of that name; None when it is
        free.

        >>> ns = Namespace(); ns.games["g"] = None
        >>> ns.kind("floor"), ns.kind("g"), ns.kind("free") is None
        ("the built-in 'floor'", "the game 'g'", True)
        """
        if name in self.games:
            return f"the game {name!r}"
        if name in self.definitions:
            return f"the definition {name!r} (a [define] of this spec)"
        if isinstance(self.builtins.get(name), StoredAutomaton):
            return f"the stored automaton {name!r} ([automaton.{name}] of this spec)"
        if name in self.builtins:
            return f"the built-in {name!r}"
        return None


class _Compiler:
    """Compiles one expression: a method ``c_<node type>`` per syntax node, each returning a closure."""

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
        op = BINOPS[type(node.op)]
        left = self.compile(node.left, local)
        right = self.compile(node.right, local)
        if isinstance(node.op, ast.Add):
            def add(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a + b
                if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
                    if type(a) is tuple and type(b) is tuple:
                        return a + b  # concatenation
                    raise EvalError(f"+ adds numbers or concatenates two tuples, not {format_value(a)} and "
                                    f"{format_value(b)}" + (" (the union of sets is |)" if isinstance(a, frozenset)
                                                             and isinstance(b, frozenset) else ""))
                try:
                    return norm(a + b)
                except TypeError:
                    raise EvalError(f"cannot add {format_value(a)} and {format_value(b)}") from None
            return add
        if isinstance(node.op, ast.Sub):
            def sub(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a - b
                if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
                    if type(a) is frozenset and type(b) is frozenset:
                        return a - b  # set difference
                    raise EvalError(f"- subtracts numbers or two sets, not {format_value(a)} and {format_value(b)}")
                try:
                    return norm(a - b)
                except TypeError:
                    raise EvalError(f"cannot subtract {format_value(b)} from {format_value(a)}") from None
            return sub

        def binop(env: Env) -> Any:
            try:
                return op(left(env), right(env))
            except TypeError:
                raise EvalError(f"operator {type(node.op).__name__} does not apply to these values") from None

        raw = INT_BINOPS.get(type(node.op))
        if raw is None:
            return binop
        mult = isinstance(node.op, ast.Mult)

        def int_binop(env: Env) -> Any:
            # two integers: Python's operator at once (the checks of `op` cannot refuse them); anything else: `op`
            try:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int and \
                        (b if not mult else a.bit_length() + b.bit_length() <= MAX_BITS):
                    return raw(a, b)
                return op(a, b)
            except TypeError:
                raise EvalError(f"operator {type(node.op).__name__} does not apply to these values") from None
        return int_binop

    def c_UnaryOp(self, node: ast.UnaryOp, local: frozenset[str]) -> Callable:
        operand = self.compile(node.operand, local)
        if isinstance(node.op, ast.Not):
            return lambda env: not operand(env)
        if isinstance(node.op, ast.USub):
            def neg(env: Env) -> Any:
                v = operand(env)
                if not isinstance(v, (int, Fraction)):
                    raise EvalError(f"unary minus applies to numbers only, not {format_value(v)}")
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
        rest = [(CMPOPS[type(op)], self.compile(c, local)) for op, c in zip(node.ops, node.comparators)]
        if len(rest) == 1:
            (op, right), = rest
            raw = INT_CMPOPS.get(type(node.ops[0]))
            if raw is None:
                return lambda env: op(first(env), right(env))

            def compare(env: Env) -> bool:
                a = first(env)
                b = right(env)
                return raw(a, b) if type(a) is int and type(b) is int else op(a, b)
            return compare

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
                raise EvalError(f"cannot index {format_value(v)} by {format_value(i)}")
            if not -len(v) <= i < len(v):
                raise EvalError(f"index {i} out of range for {format_value(v)}")
            return v[i]
        return sub

    def c_Call(self, node: ast.Call, local: frozenset[str]) -> Callable:
        self._check_arity(node, local)
        func = self.compile(node.func, local)
        args = [self.compile(a, local) for a in node.args]
        fname = node.func.id if isinstance(node.func, ast.Name) else "the called expression"
        fixed = self._fixed_callee(node.func, local)
        if fixed is not None and len(args) <= 3:
            return _fixed_call(fixed, fname, args)

        def call(env: Env) -> Any:
            f = func(env)
            if not callable(f):
                raise EvalError(f"{fname} is not a function")
            vals = [a(env) for a in args]
            try:
                return f(*vals)
            except Exception as exc:  # noqa: BLE001  (re-raised as the language's error, or as it is)
                _raise_call_error(exc, fname, vals)
        return call

    def _fixed_callee(self, node: ast.expr, local: frozenset[str]) -> Any:
        """The function a call's callee names when it is the same at every evaluation (a built-in function, a
        game, a definition with parameters: what :meth:`c_Name` resolves when the expression is compiled), else
        None."""
        if not isinstance(node, ast.Name) or node.id in local or node.id in self.variables:
            return None
        name = node.id
        d = self.ns.definitions.get(name)
        if d is not None:
            return d if d.params else None
        if name in self.ns.games or name in self.ns.builtins:
            v = self.ns.resolve(name)
            return v if callable(v) else None
        return None

    def _check_arity(self, node: ast.Call, local: frozenset[str]) -> None:
        """Refuse, when the expression is compiled (at load), a call of a stored automaton or of a definition with
        parameters that gives the wrong number of arguments: it could never be evaluated."""
        if not isinstance(node.func, ast.Name) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return
        name = node.func.id
        if name in local or name in self.variables:
            return
        given = len(node.args)
        target = self.ns.definitions.get(name) if name in self.ns.definitions else self.ns.builtins.get(name)
        if isinstance(target, StoredAutomaton) and given != target.arity:
            raise SpecError(f"{ast.unparse(node)}: the stored automaton {name} reads {target.arity} number(s) (its "
                            f"automaton has {target.arity} input(s)), given {given}",
                            hint=f"call it as {name}({', '.join(f'x{i + 1}' for i in range(target.arity))})")
        if isinstance(target, Definition) and target.params and given != len(target.params):
            raise SpecError(f"{ast.unparse(node)}: {name} takes {len(target.params)} argument(s) "
                            f"({', '.join(target.params)}), given {given}",
                            hint=f"call it as {name}({', '.join(target.params)})")

    def _new_names(self, names: Any, what: str) -> None:
        """Refuse a lambda parameter or comprehension target that would hide a built-in, definition or game."""
        for name in names:
            kind = self.ns.kind(name)
            if kind is not None:
                raise SpecError(f"{what} {name!r} would hide {kind}", hint="choose another name")

    def c_Lambda(self, node: ast.Lambda, local: frozenset[str]) -> Callable:
        params = tuple(a.arg for a in node.args.args)
        self._new_names(params, "lambda parameter")
        inner = local | set(params)
        body = self.compile(node.body, inner)
        captured = [n for n in free_names(node) if n in local or n in self.variables]
        node_key = node  # the node itself (hashed by identity), never id(node): a freed node's id is reused
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

        last = len(gens) - 1

        # rec is made once per expression, and takes the evaluation's env: a closure made per evaluation that
        # calls itself would be a reference cycle, left to the cycle collector at every evaluation
        def rec(env: Env, level: int) -> Iterator[Any]:
            it, target, unpack, ifs = gens[level]
            only = ifs[0] if len(ifs) == 1 else None
            iterable = it(env)
            if isinstance(iterable, range) and len(iterable) > MAX_STEPS:
                raise ResourceError(f"a comprehension over {len(iterable):,} values exceeds the limit "
                                    f"of {MAX_STEPS:,} steps")
            if not isinstance(iterable, (range, tuple, frozenset, set, list)) and not hasattr(iterable, "__iter__"):
                raise EvalError(f"cannot iterate over {format_value(iterable)}")
            if isinstance(iterable, (frozenset, set)):
                try:
                    iterable = sorted(iterable)
                except TypeError:
                    iterable = sorted(iterable, key=repr)
            spend = active_budget().spend
            for value in iterable:
                spend()
                if unpack is None:
                    env[target] = value
                else:
                    if not isinstance(value, tuple) or len(value) != len(unpack):
                        raise EvalError(f"cannot unpack {format_value(value)} into {len(unpack)} names")
                    for n, v in zip(unpack, value):
                        env[n] = v
                if only is not None:
                    if not only(env):
                        continue
                elif ifs and not all(c(env) for c in ifs):
                    continue
                if level == last:
                    yield elt(env)   # the innermost level yields the elements itself (no generator per value)
                else:
                    yield from rec(env, level + 1)

        def generate(env: Env) -> Iterator[Any]:
            return rec(dict(env), 0)
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

    >>> from nimjos.lang.syntax import parse
    >>> f = compile_tree(parse("a < b"), Namespace(), {"a", "b"})
    >>> f({"a": 1, "b": 2})
    True
    """
    return _Compiler(ns, set(variables)).compile(tree, frozenset())


def _call_error(exc: BaseException, fname: str, vals: Any) -> BaseException:
    """What a call of `fname` with `vals` that raised `exc` raises: the language's own errors as they are, a
    number too large for the machine as a :class:`ResourceError` (a limit, not mathematics), Python's errors of
    the arguments as an :class:`EvalError`.

    >>> type(_call_error(ZeroDivisionError("division by zero"), "f", (1, 0))).__name__
    'EvalError'
    """
    if isinstance(exc, (EvalError, SpecError)):
        return exc
    if isinstance(exc, RecursionError):
        return DepthError("recursion too deep while evaluating")
    if isinstance(exc, (OverflowError, MemoryError)):
        why = "ran out of memory" if isinstance(exc, MemoryError) else f"too large for the machine: {exc}"
        return ResourceError(f"{fname}({', '.join(format_value(v) for v in vals)}): {why}")
    if isinstance(exc, (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError)):
        if "exceeds the limit" in str(exc):   # Python's cap on the digits of an int turned to text
            return ResourceError(f"{fname}: too large for the machine: {exc}")
        return EvalError(f"{fname}({', '.join(format_value(v) for v in vals)}): {exc}")
    return exc


def _raise_call_error(exc: BaseException, fname: str, vals: Any) -> NoReturn:
    """Raise what :func:`_call_error` says a call's error `exc` is: `exc` itself, or the language's error in its
    place (Python's traceback hidden)."""
    err = _call_error(exc, fname, vals)
    try:
        if err is exc:
            raise exc
        raise err from None
    finally:
        # the error's traceback keeps this frame: without the error in it, there is no reference cycle for the
        # cycle collector (the sampler meets such errors by the thousand)
        del exc, err


def _fixed_call(f: Any, fname: str, args: list) -> Callable:
    """A call of the function `f` (fixed when the expression was compiled) with the compiled arguments `args` (at
    most three): the arguments evaluated in order, then the call, its errors as :func:`_call_error` says."""
    if len(args) == 0:
        def call0(env: Env) -> Any:
            try:
                return f()
            except Exception as exc:  # noqa: BLE001  (re-raised as the language's error, or as it is)
                _raise_call_error(exc, fname, ())
        return call0
    if len(args) == 1:
        a0, = args

        def call1(env: Env) -> Any:
            v0 = a0(env)
            try:
                return f(v0)
            except Exception as exc:  # noqa: BLE001  (re-raised as the language's error, or as it is)
                _raise_call_error(exc, fname, (v0,))
        return call1
    if len(args) == 2:
        a0, a1 = args

        def call2(env: Env) -> Any:
            v0 = a0(env)
            v1 = a1(env)
            try:
                return f(v0, v1)
            except Exception as exc:  # noqa: BLE001  (re-raised as the language's error, or as it is)
                _raise_call_error(exc, fname, (v0, v1))
        return call2
    a0, a1, a2 = args

    def call3(env: Env) -> Any:
        v0 = a0(env)
        v1 = a1(env)
        v2 = a2(env)
        try:
            return f(v0, v1, v2)
        except Exception as exc:  # noqa: BLE001  (re-raised as the language's error, or as it is)
            _raise_call_error(exc, fname, (v0, v1, v2))
    return call3
