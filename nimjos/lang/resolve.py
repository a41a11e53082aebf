"""The resolver, from a whitelisted syntax tree (:func:`nimjos.lang.syntax.parse`) to the resolved and typed IR of
:mod:`nimjos.lang.ir`, built once: every name looked up in the :class:`~nimjos.lang.compiler.Namespace` as the scalar
compiler looks it up (a bound name or a variable first, then a definition, a game, a built-in), and every
``[define]`` definition called inlined once (its body resolved once per definition and shared by its calls,
:func:`definition_body`).

Capture-avoiding: a name bound in the tree (a lambda's parameter, a comprehension's target) that is already bound
around it or is a free variable of the tree gets a fresh name (``y_1``), occurring nowhere in the tree, the
variables or the namespace; the others keep theirs. Every bound name of a tree is then distinct from the others and
from the free variables, so a backend that keeps one environment for the whole tree cannot capture a name. A
definition's body is resolved in a scope of its parameters alone, as the language evaluates it: nothing of the
caller is visible in it.

>>> from nimjos.lang.compiler import Namespace
>>> e = resolve_text("any(x == y for y in range(3)) and all(y < x for y in range(x))", Namespace(), {"x"})
>>> [g.target for c in e.values for g in c.args[0].generators]
[('y',), ('y_1',)]
>>> e = resolve_text("any(x == x for x in range(x))", Namespace(), {"x"})
>>> gen = e.args[0].generators[0]
>>> gen.target, gen.shown, gen.iter.args[0].name
(('x_1',), ('x',), 'x')
"""
from __future__ import annotations

import ast
import weakref
from typing import Any, Iterable

from nimjos.lang import ir
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import SpecError
from nimjos.lang.inline import fresh_namer, names_in
from nimjos.lang.ir import Type
from nimjos.lang.registry import REGISTRY
from nimjos.lang.runtime import Definition
from nimjos.lang.stored import StoredAutomaton
from nimjos.lang.syntax import free_names, parse, suggest

#: the built-ins whose value has one type whatever their arguments (declared in the registry)
_RETURNS = {name: Type(b.returns) for name, b in REGISTRY.items() if b.returns}
#: the operators whose value is an integer when both operands are
_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.LShift, ast.RShift)
_NUMERIC = (Type.INT, Type.NUMBER)


def _span(node: ast.AST, source: str) -> ir.Span:
    line = getattr(node, "lineno", None)
    if line is None:
        return ir.NO_SPAN
    return ir.Span(line, node.col_offset, node.end_lineno or line, node.end_col_offset or 0, source)  # type: ignore[attr-defined]  # an expr's position


def _binop_type(op: type, a: Type, b: Type) -> Type:
    if op is ast.Div and a in _NUMERIC and b in _NUMERIC:
        return Type.NUMBER
    if op in _INT_OPS and a is Type.INT and b is Type.INT:
        return Type.INT
    if op is ast.Pow and a in _NUMERIC and b is Type.INT:
        return Type.NUMBER  # a negative exponent gives a fraction
    if op in (ast.Add, ast.Sub, ast.Mult) and a in _NUMERIC and b in _NUMERIC:
        return Type.NUMBER
    if op is ast.Add and a is b is Type.TUPLE:
        return Type.TUPLE
    if op in (ast.Sub, ast.BitOr, ast.BitAnd) and a is b is Type.SET:
        return Type.SET
    return Type.ANY


class _Resolver:
    """Resolves one tree: `scope` maps each bound name in force to its unique name."""

    def __init__(self, ns: Namespace, variables: Iterable[str], tree: ast.AST, source: str,
                 params: Iterable[str] = ()):
        self.ns = ns
        self.variables = set(variables)
        self.source = source
        known = ns.known()
        # the names already claimed: a binder with one of these names is renamed
        self.claimed = self.variables | {n for n in free_names(tree) if n not in known} | set(params)
        self.fresh = fresh_namer(self.claimed | names_in([tree]) | known)

    def bind(self, name: str, scope: dict[str, str]) -> str:
        new = self.fresh(name) if name in self.claimed else name
        self.claimed.add(new)
        scope[name] = new
        return new

    def node(self, tree: ast.AST, scope: dict[str, str]) -> ir.Expr:
        method = getattr(self, "r_" + type(tree).__name__, None)
        if method is None:  # pragma: no cover - the whitelist stops this first
            raise SpecError(f"{type(tree).__name__} is not allowed in spec expressions")
        return method(tree, scope)

    def many(self, trees: list, scope: dict[str, str]) -> tuple[ir.Expr, ...]:
        return tuple(self.node(t, scope) for t in trees)

    def span(self, tree: ast.AST) -> ir.Span:
        return _span(tree, self.source)

    # -- leaves
    def r_Constant(self, tree: ast.Constant, scope: dict[str, str]) -> ir.Expr:
        v = tree.value
        kind = Type.BOOL if isinstance(v, bool) else Type.INT if isinstance(v, int) else Type.ANY
        return ir.Const(value=v, type=kind, span=self.span(tree))  # type: ignore[arg-type]  # the whitelist keeps int, bool, str

    def r_Name(self, tree: ast.Name, scope: dict[str, str]) -> ir.Expr:
        name, span = tree.id, self.span(tree)
        if name in scope:
            return ir.Var(name=scope[name], shown=name, span=span)
        if name in self.variables:
            return ir.Var(name=name, shown=name, span=span)
        if name in ("True", "False"):
            return ir.Const(value=name == "True", type=Type.BOOL, span=span)
        ns = self.ns
        if name in ns.definitions:
            d = ns.definitions[name]
            if not d.params:
                return self.def_call(d, (), span)
            return ir.Ref(name=name, value=d, type=Type.FUNCTION, span=span)
        if name in ns.games:
            return ir.GameRef(name=name, game=ns.games[name], type=Type.GAME, span=span)
        if name in ns.builtins:
            fn = ns.builtins[name]
            return ir.Ref(name=name, value=fn, type=Type.FUNCTION if callable(fn) else Type.ANY, span=span)
        raise SpecError(f"unknown name {name!r}", hint=suggest(name, ns.known() | self.variables | set(scope)))

    # -- operators
    def r_BinOp(self, tree: ast.BinOp, scope: dict[str, str]) -> ir.Expr:
        left, right = self.node(tree.left, scope), self.node(tree.right, scope)
        op = type(tree.op)
        return ir.BinOp(op=op, left=left, right=right, type=_binop_type(op, left.type, right.type),
                        span=self.span(tree))

    def r_UnaryOp(self, tree: ast.UnaryOp, scope: dict[str, str]) -> ir.Expr:
        operand = self.node(tree.operand, scope)
        op = type(tree.op)
        kind = Type.BOOL if op is ast.Not else Type.INT if op is ast.Invert else \
            operand.type if operand.type in _NUMERIC else Type.ANY
        return ir.UnaryOp(op=op, operand=operand, type=kind, span=self.span(tree))

    def r_BoolOp(self, tree: ast.BoolOp, scope: dict[str, str]) -> ir.Expr:
        return ir.BoolOp(op=type(tree.op), values=self.many(tree.values, scope), type=Type.BOOL, span=self.span(tree))

    def r_Compare(self, tree: ast.Compare, scope: dict[str, str]) -> ir.Expr:
        return ir.Compare(left=self.node(tree.left, scope), ops=tuple(type(op) for op in tree.ops),
                          comparators=self.many(tree.comparators, scope), type=Type.BOOL, span=self.span(tree))

    def r_IfExp(self, tree: ast.IfExp, scope: dict[str, str]) -> ir.Expr:
        test, body, orelse = (self.node(t, scope) for t in (tree.test, tree.body, tree.orelse))
        return ir.IfExp(test=test, body=body, orelse=orelse, type=body.type.join(orelse.type), span=self.span(tree))

    def r_Tuple(self, tree: ast.Tuple | ast.List, scope: dict[str, str]) -> ir.Expr:
        return ir.Tuple(elts=self.many(tree.elts, scope), type=Type.TUPLE, span=self.span(tree))

    r_List = r_Tuple

    def r_Set(self, tree: ast.Set, scope: dict[str, str]) -> ir.Expr:
        return ir.Set(elts=self.many(tree.elts, scope), type=Type.SET, span=self.span(tree))

    def r_Subscript(self, tree: ast.Subscript, scope: dict[str, str]) -> ir.Expr:
        return ir.Subscript(value=self.node(tree.value, scope), index=self.node(tree.slice, scope),
                            span=self.span(tree))

    # -- calls
    def r_Call(self, tree: ast.Call, scope: dict[str, str]) -> ir.Expr:
        span = self.span(tree)
        func = tree.func
        name = func.id if isinstance(func, ast.Name) else None
        if name is None or name in scope or name in self.variables or name in ("True", "False"):
            return ir.Apply(func=self.node(func, scope), args=self.many(tree.args, scope), span=span)
        ns = self.ns
        if name in ns.definitions:
            d = ns.definitions[name]
            if d.params:
                return self.def_call(d, self.many(tree.args, scope), span)
            return ir.Apply(func=self.node(func, scope), args=self.many(tree.args, scope), span=span)
        if name in ns.games:
            return ir.GameRef(name=name, game=ns.games[name], args=self.many(tree.args, scope), type=Type.GAME,
                              span=span)
        if name in ns.builtins:
            fn = ns.builtins[name]
            args = self.many(tree.args, scope)
            if isinstance(fn, StoredAutomaton):
                return ir.Call(name=name, fn=fn, args=args, type=Type.BOOL, span=span)
            kind = _RETURNS.get(name, Type.ANY)
            if name == "abs" and len(args) == 1 and args[0].type in _NUMERIC:
                kind = args[0].type
            return ir.Call(name=name, fn=fn, args=args, builtin=REGISTRY.get(name), type=kind, span=span)
        raise SpecError(f"there is no function {name!r}", hint=suggest(name, ns.known()))

    def def_call(self, d: Definition, args: tuple[ir.Expr, ...], span: ir.Span) -> ir.Expr:
        body = definition_body(d, self.ns)
        return ir.DefCall(definition=d, args=args, body=body, type=body.body.type if body else Type.ANY, span=span)

    # -- binders
    def r_Lambda(self, tree: ast.Lambda, scope: dict[str, str]) -> ir.Expr:
        inner = dict(scope)
        shown = tuple(a.arg for a in tree.args.args)
        params = tuple(self.bind(p, inner) for p in shown)
        return ir.Lambda(params=params, shown=shown, body=self.node(tree.body, inner), type=Type.FUNCTION,
                         span=self.span(tree))

    def _comprehension(self, tree: Any, scope: dict[str, str], kind: str, result: Type) -> ir.Expr:
        inner = dict(scope)
        gens = []
        for g in tree.generators:
            it = self.node(g.iter, inner)
            if not isinstance(g.target, (ast.Name, ast.Tuple)):
                raise SpecError("comprehension targets must be names or tuples of names")
            shown = tuple(t.id for t in ast.walk(g.target) if isinstance(t, ast.Name))
            target = tuple(self.bind(n, inner) for n in shown)
            ifs = self.many(g.ifs, inner)
            gens.append(ir.Generator(target, shown, isinstance(g.target, ast.Tuple), it, ifs))
        return ir.Comprehension(kind=kind, elt=self.node(tree.elt, inner), generators=tuple(gens), type=result,
                                span=self.span(tree))

    def r_GeneratorExp(self, tree: ast.GeneratorExp, scope: dict[str, str]) -> ir.Expr:
        return self._comprehension(tree, scope, "generator", Type.ANY)

    def r_ListComp(self, tree: ast.ListComp, scope: dict[str, str]) -> ir.Expr:
        return self._comprehension(tree, scope, "list", Type.TUPLE)

    def r_SetComp(self, tree: ast.SetComp, scope: dict[str, str]) -> ir.Expr:
        return self._comprehension(tree, scope, "set", Type.SET)


#: each definition's body, resolved once (keyed by the definition, with the tree it was resolved from)
_BODIES: "weakref.WeakKeyDictionary[Definition, tuple[ast.expr, ir.DefBody | None]]" = weakref.WeakKeyDictionary()
#: the definitions whose bodies are being resolved (a call back into one of them is not inlined)
_ACTIVE: list[Definition] = []


def definition_body(d: Definition, ns: Namespace) -> ir.DefBody | None:
    """The body of definition `d` resolved once in a scope of its parameters alone, or None for a recursive
    definition (or one reached again while its own body is resolved): a backend calls it or refuses.

    >>> from nimjos.lang.compiler import Namespace
    >>> ns = Namespace(); d = ns.definitions["sq"] = Definition("sq", ("n",), "n * n", parse("n * n"))
    >>> b = definition_body(d, ns); b.params, type(b.body).__name__, b.body.span.source
    (('n',), 'BinOp', 'sq')
    >>> definition_body(d, ns) is b
    True
    """
    cached = _BODIES.get(d)
    if cached is not None and cached[0] is d.tree:
        return cached[1]
    if d.recursive or d.tree is None or d in _ACTIVE:
        return None
    _ACTIVE.append(d)
    try:
        r = _Resolver(ns, (), d.tree, d.name, d.params)
        scope = {p: p for p in d.params}
        body = ir.DefBody(tuple(d.params), r.node(d.tree, scope))
    finally:
        _ACTIVE.pop()
    _BODIES[d] = (d.tree, body)
    return body


def resolve(tree: ast.expr, ns: Namespace, variables: Iterable[str] = (), source: str = "") -> ir.Expr:
    """The IR of a parsed (whitelisted) expression whose free names are `variables` or names of `ns`; `source`
    names the text for the nodes' spans.

    >>> from nimjos.lang.compiler import Namespace
    >>> type(resolve(parse("x in {1, 2}"), Namespace(), {"x"})).__name__
    'Compare'
    """
    return _Resolver(ns, variables, tree, source).node(tree, {})


def resolve_text(text: str, ns: Namespace, variables: Iterable[str] = ()) -> ir.Expr:
    """Parse `text` under the whitelist and resolve it (:func:`resolve`).

    >>> from nimjos.lang.compiler import Namespace
    >>> resolve_text("floor(7 / 2)", Namespace()).type
    <Type.INT: 'int'>
    """
    return resolve(parse(text), ns, variables)
