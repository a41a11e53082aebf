"""The resolved, typed tree of the expression language (the IR): one frozen node class per construct, each node with
its type (:class:`Type`) and the span of the text it came from (:class:`Span`).

Resolved means that no node names anything the reader must look up again: a name bound in the expression (a
lambda's parameter, a comprehension's target) or one of the window's variables is a :class:`Var`; a built-in
function called is a :class:`Call` holding the function and its registry entry; a ``[define]`` definition called
is a :class:`DefCall` holding the definition's body, resolved once (:class:`DefBody`); a game is a
:class:`GameRef`. Every name a node binds is distinct from every other name bound in the same tree and from the
tree's free variables, so a backend may keep one flat environment without capture (a definition's body is its own
tree: it is evaluated in an environment of its parameters alone). :mod:`nimjos.lang.resolve` builds the IR from a
whitelisted syntax tree; :mod:`nimjos.lang.visitor` walks it.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.resolve import resolve_text
>>> e = resolve_text("x + 1 < floor(x / 2)", Namespace(), {"x"})
>>> type(e).__name__, e.type, e.left.type, e.comparators[0].type
('Compare', <Type.BOOL: 'bool'>, <Type.ANY: 'any'>, <Type.INT: 'int'>)
>>> e.comparators[0].span
Span(line=1, col=8, end_line=1, end_col=20, source='')
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import Any, Iterator


class Type(enum.Enum):
    """The type of a node's value, as far as the resolver can tell without evaluating: ``INT`` an integer, ``NUMBER``
    an integer or an exact fraction, ``BOOL`` a truth value, ``TUPLE``, ``SET``, ``GAME``, ``FUNCTION`` (a lambda, a
    definition or a built-in as a value), ``ANY`` (not known before evaluation: a variable, an element of a
    collection, a value of a definition of unknown type).

    >>> Type.INT.join(Type.INT), Type.INT.join(Type.NUMBER), Type.BOOL.join(Type.INT)
    (<Type.INT: 'int'>, <Type.NUMBER: 'number'>, <Type.ANY: 'any'>)
    """

    INT = "int"
    NUMBER = "number"
    BOOL = "bool"
    TUPLE = "tuple"
    SET = "set"
    GAME = "game"
    FUNCTION = "function"
    ANY = "any"

    def join(self, other: "Type") -> "Type":
        """The type of a value that is of this type or of `other` (the two branches of an ``if``)."""
        if self is other:
            return self
        if {self, other} == {Type.INT, Type.NUMBER}:
            return Type.NUMBER
        return Type.ANY


@dataclass(frozen=True)
class Span:
    """Where a node's text is: its first and last line and column (as ``ast`` counts them, from line 1 and column
    0 of the expression's text), and the text it is in: ``""`` for the expression itself, a definition's name for
    a node of that definition's body.

    >>> Span(1, 0, 1, 5).show()
    'columns 1-5'
    >>> Span(1, 4, 1, 9, "g").show()
    'columns 5-9 of the definition g'
    """

    line: int
    col: int
    end_line: int
    end_col: int
    source: str = ""

    def show(self) -> str:
        """The span in words, for a message."""
        where = f"columns {self.col + 1}-{self.end_col}" if self.line == self.end_line else \
            f"line {self.line} column {self.col + 1} to line {self.end_line} column {self.end_col}"
        return where + (f" of the definition {self.source}" if self.source else "")


#: the span of a node made by the resolver rather than read from text (none is, today)
NO_SPAN = Span(0, 0, 0, 0)


@dataclass(frozen=True, eq=False, kw_only=True)
class Expr:
    """A node of the IR. Nodes compare by identity (a node is where it is in a tree); :meth:`children` lists the
    nodes below it in the order the language evaluates them."""

    type: Type = Type.ANY
    span: Span = NO_SPAN

    def children(self) -> Iterator["Expr"]:
        """The nodes directly below this one (a definition's body is not below its call: see :class:`DefCall`).

        >>> from nimjos.lang.compiler import Namespace
        >>> from nimjos.lang.resolve import resolve_text
        >>> [type(c).__name__ for c in resolve_text("(x, 1)", Namespace(), {"x"}).children()]
        ['Var', 'Const']
        """
        for f in fields(self):
            if f.name in ("type", "span"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, Expr):
                yield value
            elif isinstance(value, tuple):
                for v in value:
                    if isinstance(v, Expr):
                        yield v
                    elif isinstance(v, Generator):
                        yield v.iter
                        yield from v.ifs


@dataclass(frozen=True, eq=False, kw_only=True)
class Const(Expr):
    """A constant: an integer, a truth value (``True`` / ``False`` are constants, not names), or the string code of a
    heap game (``octal("0.07")``)."""

    value: int | bool | str


@dataclass(frozen=True, eq=False, kw_only=True)
class Var(Expr):
    """A variable: one of the window's (free in the tree) or one bound by a :class:`Lambda`, a :class:`Generator` or
    a definition's parameters. `name` is unique in its tree (a bound name that would shadow another, or a free
    variable, is renamed fresh); `shown` is the name as the spec writes it, for messages."""

    name: str
    shown: str


@dataclass(frozen=True, eq=False, kw_only=True)
class Ref(Expr):
    """A built-in or a definition with parameters named as a value, not called (passed to ``iterate``, say)."""

    name: str
    value: Any


@dataclass(frozen=True, eq=False, kw_only=True)
class GameRef(Expr):
    """A game of the spec: named (`args` None) or called with its parameters' values."""

    name: str
    game: Any
    args: tuple[Expr, ...] | None = None


@dataclass(frozen=True, eq=False, kw_only=True)
class BinOp(Expr):
    """``left op right``; `op` is the ``ast`` operator class (``ast.Add``...), the key of the operator tables."""

    op: type
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False, kw_only=True)
class UnaryOp(Expr):
    """``op operand`` (``ast.Not``, ``ast.USub``, ``ast.UAdd``, ``ast.Invert``)."""

    op: type
    operand: Expr


@dataclass(frozen=True, eq=False, kw_only=True)
class BoolOp(Expr):
    """``a and b and ...`` or ``a or b or ...`` (`op` ``ast.And`` or ``ast.Or``), evaluated left to right and
    stopped at the first operand that decides it."""

    op: type
    values: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, kw_only=True)
class Compare(Expr):
    """A comparison or a chain of them: ``left ops[0] comparators[0] ops[1] comparators[1] ...``."""

    left: Expr
    ops: tuple[type, ...]
    comparators: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, kw_only=True)
class IfExp(Expr):
    """``body if test else orelse``."""

    test: Expr
    body: Expr
    orelse: Expr


@dataclass(frozen=True, eq=False, kw_only=True)
class Tuple(Expr):
    """A tuple literal ``(a, b)`` (a list literal is a tuple in the language)."""

    elts: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, kw_only=True)
class Set(Expr):
    """A set literal ``{a, b}``."""

    elts: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, kw_only=True)
class Subscript(Expr):
    """``value[index]``."""

    value: Expr
    index: Expr


@dataclass(frozen=True, eq=False, kw_only=True)
class Call(Expr):
    """A built-in function called: `name` as written, `fn` the function of the namespace (a stored automaton, a game
    function...), `builtin` its entry of :data:`nimjos.lang.registry.REGISTRY` when it is the language's own
    function of that name (None for a function of the layers above or a stored automaton)."""

    name: str
    fn: Any
    args: tuple[Expr, ...]
    builtin: Any = None


@dataclass(frozen=True, eq=False)
class DefBody:
    """A ``[define]`` definition's body resolved once: its parameters (unique names in the body) and its tree, in
    which every other name is resolved against the namespace."""

    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, eq=False, kw_only=True)
class DefCall(Expr):
    """A definition called (a definition without parameters named is a call with no arguments): the arguments are
    evaluated first, each once, then `body` in an environment of its parameters bound to them. `body` is None for a
    recursive definition (not inlined: a backend calls `definition` or refuses)."""

    definition: Any
    args: tuple[Expr, ...]
    body: DefBody | None

    @property
    def name(self) -> str:
        """The definition's name."""
        return str(self.definition.name)


@dataclass(frozen=True, eq=False, kw_only=True)
class Apply(Expr):
    """A value called that is not a name of the namespace: a lambda, a bound variable, the value of a definition
    without parameters."""

    func: Expr
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, kw_only=True)
class Lambda(Expr):
    """``lambda params: body``; the parameters are unique names (`shown` as written)."""

    params: tuple[str, ...]
    shown: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, eq=False)
class Generator:
    """One ``for target in iter if ifs`` clause: `target` one name, or (`unpack`) a tuple of names."""

    target: tuple[str, ...]
    shown: tuple[str, ...]
    unpack: bool
    iter: Expr
    ifs: tuple[Expr, ...] = field(default=())


@dataclass(frozen=True, eq=False, kw_only=True)
class Comprehension(Expr):
    """A generator expression (`kind` ``"generator"``), a list comprehension (``"list"``, a tuple in the language)
    or a set comprehension (``"set"``); the first clause's range is evaluated outside it."""

    kind: str
    elt: Expr
    generators: tuple[Generator, ...]

    def children(self) -> Iterator[Expr]:
        for g in self.generators:
            yield g.iter
            yield from g.ifs
        yield self.elt


def walk(node: Expr) -> Iterator[Expr]:
    """Every node of a tree, this one first (definitions' bodies not entered), without recursion.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.resolve import resolve_text
    >>> [type(n).__name__ for n in walk(resolve_text("-x if x else 2", Namespace(), {"x"}))]
    ['IfExp', 'Var', 'UnaryOp', 'Var', 'Const']
    """
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(n.children())))


def free_variables(node: Expr) -> set[str]:
    """The names of the variables a tree uses and does not bind itself (bound names are unique in a tree, so a name
    bound anywhere in it is bound where it is used).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.resolve import resolve_text
    >>> sorted(free_variables(resolve_text("any(h == y + x for h in range(3))", Namespace(), {"x", "y"})))
    ['x', 'y']
    """
    used: set[str] = set()
    bound: set[str] = set()
    for n in walk(node):
        if isinstance(n, Var):
            used.add(n.name)
        elif isinstance(n, Lambda):
            bound.update(n.params)
        elif isinstance(n, Comprehension):
            bound.update(t for g in n.generators for t in g.target)
    return used - bound
