"""The values of the Z3 translation besides Z3 terms: what a translated expression can be, and the error
for what has no Z3 model.

A translated expression is a constant of the language (bool, int, Fraction, tuple, frozenset, range), a Z3
term, or one of the records below (a lambda, a declared game with its params, a symbolic set, a symbolic
range, the options of a position).

>>> is_term(z3.Int("x")), is_const((1, frozenset({2}))), has_term((1, z3.Int("y")))
(True, True, True)
>>> show(RangeVal(0, z3.Int("n")))
'a symbolic range'
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3

#: a constant (or shift count) of more bits than this is refused: far beyond any class a proof could cover, and
#: Python will not print an integer of more than 4,300 digits, which Z3's IntVal and every message would do
BIG_CONSTANT = 4096


class Untranslatable(Exception):
    """The expression uses something without a Z3 model (the reason says what)."""


@dataclass
class Closure:
    """A lambda of the spec language, translated lazily at each call."""

    params: tuple[str, ...]
    body: ast.expr
    env: dict


@dataclass
class GameRef:
    """A declared game with its param values (constants or Z3 terms), for ``options`` and ``in``."""

    decl: Any
    params: dict


@dataclass
class SymSet:
    """A set literal with symbolic elements."""

    items: tuple


@dataclass
class RangeVal:
    lo: Any
    hi: Any  # exclusive


@dataclass
class OptionsVal:
    game: GameRef
    position: Any


@dataclass
class Scope:
    """The variables, definitions and obligations of one quantifier scope of a translation."""

    bound: list = field(default_factory=list)     # quantified variables of this scope
    fresh: list = field(default_factory=list)     # variables introduced by definitions in this scope
    defs: list = field(default_factory=list)      # constraints that define the fresh variables uniquely
    obligations: list = field(default_factory=list)  # (condition, text)
    #: floor(a / b) with b symbolic, by the texts of a and b -> its fresh quotient (one per pair in this scope)
    quotients: dict = field(default_factory=dict)



def is_term(v: Any) -> bool:
    """Is v a Z3 expression (as opposed to a constant of the language)?

    >>> is_term(z3.Int("x")), is_term(3)
    (True, False)
    """
    return isinstance(v, z3.ExprRef)


def is_const(v: Any) -> bool:
    """Is v a constant of the language (no Z3 term inside)?

    >>> is_const((1, 2)), is_const(z3.Int("x"))
    (True, False)
    """
    if isinstance(v, (bool, int, Fraction)):
        return True
    if isinstance(v, tuple):
        return all(is_const(e) for e in v)
    if isinstance(v, frozenset):
        return True
    return False


def has_term(v: Any) -> bool:
    """Is v a Z3 term, or a tuple with one inside?

    >>> has_term((1, (2, z3.Int("x")))), has_term((1, 2))
    (True, False)
    """
    if is_term(v):
        return True
    if isinstance(v, tuple):
        return any(has_term(e) for e in v)
    return False


def constants_of(e: Any) -> list:
    """The uninterpreted constants (free variables) a Z3 term names, each once.

    >>> [str(c) for c in constants_of(z3.Int("k") * z3.Int("x") + 2 * z3.Int("k"))]
    ['k', 'x']
    """
    found: dict = {}
    seen: set = set()
    todo = [e]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_quantifier(t):
            todo.append(t.body())
        elif z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            found[t.get_id()] = t
        elif z3.is_app(t):
            todo.extend(reversed(t.children()))
    return sorted(found.values(), key=str)


def show(v: Any) -> str:
    """Words for a translated value in a reason why something has no Z3 model.

    >>> show(z3.Int("x")), show((1, 2))
    ('a symbolic value', '(1, 2)')
    """
    if isinstance(v, GameRef):
        return f"game {v.decl.name}"
    if isinstance(v, OptionsVal):
        return "the options of a position"
    if isinstance(v, RangeVal):
        return "a symbolic range"
    if isinstance(v, Closure):
        return "a lambda"
    if is_term(v):
        return "a symbolic value"
    return type(v).__name__ if not isinstance(v, (int, tuple, frozenset)) else repr(v)
