"""What the mixins of :class:`checkers.prove.walnut.translate.Translator` use of one another, declared once for
the type checker: the translator's state and the methods one mixin calls on another.

A mixin names :class:`TranslatorHost` as its base only while it is type-checked (``if TYPE_CHECKING``); at run
time its base is ``object``, so the Translator's method resolution is the mixins' own (the same scheme as
:mod:`checkers.z3.host` for the Z3 builder).

>>> from checkers.prove.walnut.translate import Translator
>>> methods = [name for name, value in vars(TranslatorHost).items() if callable(value) and not name.startswith("__")]
>>> [name for name in TranslatorHost.__annotations__ if name not in vars(Translator(None))]
[]
>>> len(methods), [name for name in methods if getattr(Translator, name) is getattr(TranslatorHost, name)]
(17, [])
"""
from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any, Protocol

from nimjos.lang.compiler import Namespace
from checkers.prove.walnut.logic import Unit
from checkers.prove.walnut.numeration import Numeration


class TranslatorHost(Protocol):
    """The state of a Translator and the methods its mixins call on one another (see the module docstring)."""

    # -- state (set by Translator.__init__)
    ns: Namespace
    consts: dict
    n: int
    jos_args: set
    num: Numeration
    stored: dict

    # -- checkers.prove.walnut.translate.Translator
    def fresh(self, stem: str = "v") -> str: ...

    def const(self, node: ast.AST, env: dict) -> Any: ...

    def formula(self, node: ast.AST, env: dict, unit: Unit) -> str: ...

    def close(self, acc: list, atom: str) -> str: ...

    def oblige(self, unit: Unit, acc: list, bad: str, why: str) -> None: ...

    def _inline(self, node: ast.Call, env: dict | None = None, unit: Unit | None = None) -> ast.AST | None: ...

    # -- checkers.prove.walnut.arith.Arithmetic
    def term(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> Any: ...

    def int_term(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> str: ...

    def strict(self, node: ast.AST, env: dict, what: str) -> ast.AST: ...

    def _nat(self, value: Any, node: ast.AST) -> str: ...

    def _factor(self, k: Any, node: ast.AST) -> None: ...

    def needs(self, numeration: str, what: str) -> None: ...

    # -- checkers.prove.walnut.compare.Comparisons
    def is_exp(self, node: ast.AST, env: dict) -> bool: ...

    def linear(self, node: ast.AST, env: dict, unit: Unit, acc: list,
               k: Fraction = Fraction(1)) -> tuple[list, list]: ...

    def relation(self, lp: list, ln: list, op: str, rp: list, rn: list, node: ast.AST | None = None) -> str: ...

    # -- checkers.prove.walnut.quantify.Quantifiers
    def options_of(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> tuple[Any, list[str]] | None: ...

    def option_formula(self, game: Any, opt: list[str], pos: list[str], unit: Unit, acc: list) -> str: ...
