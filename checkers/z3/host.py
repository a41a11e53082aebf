"""What the mixins of :class:`checkers.z3.translate.Builder` use of one another, declared once for the type
checker: the builder's state and the methods one mixin calls on another.

A mixin names :class:`BuilderHost` as its base only while it is type-checked (``if TYPE_CHECKING``); at run
time its base is ``object``, so the Builder's method resolution is the mixins' own. A method declared here and
defined with another signature in a mixin or in the Builder is a type error, found by ``python -m mypy``.

>>> from checkers.z3.translate import Builder
>>> methods = [name for name, value in vars(BuilderHost).items() if callable(value) and not name.startswith("__")]
>>> [name for name in BuilderHost.__annotations__ if name not in vars(Builder(None))]
[]
>>> len(methods), [name for name in methods if getattr(Builder, name) is getattr(BuilderHost, name)]
(28, [])
"""
from __future__ import annotations

import ast
from typing import Any, Callable, Protocol

import z3

from nimjos.lang.compiler import Namespace
from checkers.z3.terms import GameRef, Scope


class BuilderHost(Protocol):
    """The state of a Builder and the methods its mixins call on one another (see the module docstring)."""

    # -- state (set by Builder.__init__)
    ctx: z3.Context | None
    ns: Namespace
    mode: str
    bits: int
    scopes: list[Scope]
    path: list
    _n: int
    _pow2: Any
    _xor: Any
    _powers: dict
    _unknown: dict
    grundy: dict
    _grundy_facts: dict
    pow2_terms: list
    abstractions: set[str]
    depth: int

    # -- checkers.z3.translate.Builder
    def var(self, name: str) -> Any: ...

    def const(self, v: int) -> Any: ...

    def fresh(self, stem: str) -> Any: ...

    def define(self, constraint: Any) -> None: ...

    def oblige(self, cond: Any, text: str) -> None: ...

    def to_term(self, v: Any) -> Any: ...

    def to_bool(self, v: Any) -> Any: ...

    def integer(self, v: Any, what: str) -> Any: ...

    def term(self, tree: ast.expr, env: dict) -> Any: ...

    def formula(self, tree: ast.expr, env: dict) -> Any: ...

    def _ex(self, node: ast.AST, env: dict) -> Any: ...

    def ite(self, c: Any, a: Any, b: Any) -> Any: ...

    def _unify(self, a: Any, b: Any) -> tuple: ...

    def apply(self, f: Any, args: tuple) -> Any: ...

    def _exact(self, f: Callable, args: tuple) -> Any: ...

    # -- checkers.z3.arith.Arithmetic
    def binop(self, op: type, a: Any, b: Any) -> Any: ...

    def floordiv(self, a: Any, b: Any) -> Any: ...

    def floor(self, v: Any) -> Any: ...

    def ceil(self, v: Any) -> Any: ...

    def pow2(self, e: Any) -> Any: ...

    def xor2(self, a: Any, b: Any) -> Any: ...

    # -- checkers.z3.compare.Comparisons
    def compare(self, op: type, a: Any, b: Any) -> Any: ...

    def _all(self, parts: list) -> Any: ...

    def _any(self, parts: list) -> Any: ...

    # -- checkers.z3.quantify.Comprehensions
    def _collection(self, node: ast.AST, env: dict) -> list: ...

    def quantifier(self, exists: bool, names: list[str], guard: Callable, body: Callable) -> Any: ...

    # -- checkers.z3.moves.MoveEncoding
    def over_options(self, game: GameRef, position: Any, exists: bool, body: Callable) -> Any: ...

    def is_option(self, game: GameRef, position: Any, target: Any) -> Any: ...

