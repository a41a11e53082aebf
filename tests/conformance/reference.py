"""The reference semantics of the harness: the scalar language (parse, then
:func:`nimjos.lang.compiler.compile_tree` in the spec's namespace with its ``[define]`` table), evaluated at one
point with a small step budget.

A point's value is the exact value, :data:`UNDEFINED` when the language says the expression has no value there
(an :class:`~nimjos.lang.errors.EvalError`: v2(0), a zero divisor, the min of an empty range, xor of a negative),
or :data:`SKIP` when the evaluation would cost more than the budget (the harness does not judge that point).

>>> r = Reference({"fa(x)": "all(j < x for j in range(3))"}, "fa(j) or x // 0 == 1", ("x", "j"))
>>> r.at({"x": 5, "j": 3}), r.at({"x": 5, "j": 2}) is UNDEFINED
(True, True)
"""
from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Any, Iterator

from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.operators import BINOPS
from nimjos.lang.runtime import MAX_BITS, step_limit
from nimjos.lang.syntax import parse
from nimjos.spec.definitions import compile_definitions, declare_definitions
from nimjos.spec.names import spec_namespace
from nimjos.spec.schema import SpecLines

#: the most steps one evaluation at one point may take (loop iterations and calls)
STEPS = 20_000


class _Marker:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: the language says the expression has no value at this point
UNDEFINED = _Marker("UNDEFINED")
#: the point is too costly to evaluate: not judged
SKIP = _Marker("SKIP")


def _guarded_pow(a: Any, b: Any) -> Any:
    """The language's ``**``, refusing (ResourceError) a negative exponent whose denominator would exceed
    MAX_BITS bits: the language computes 2 ** -(2**35) as a Fraction with a 2**35-bit denominator (gigabytes; a
    defect reported from this harness), and the harness does not judge such a point."""
    if type(b) is int and b < 0 and a not in (0, 1, -1):
        numerator = a.numerator if hasattr(a, "numerator") else a
        if -b * max(1, abs(numerator).bit_length()) > MAX_BITS:
            raise ResourceError(f"** {b}: a denominator of more than {MAX_BITS:,} bits")
    return _POW(a, b)


_POW = BINOPS[ast.Pow]


@contextmanager
def _guarded() -> Iterator[None]:
    """While compiling: ``**`` is :func:`_guarded_pow` in the closures compiled (the compiler reads BINOPS once, at
    compile time, so nothing else sees the change)."""
    BINOPS[ast.Pow] = _guarded_pow
    try:
        yield
    finally:
        BINOPS[ast.Pow] = _POW


def namespace(table: dict) -> Namespace:
    """The spec namespace (every built-in) with a ``[define]`` table declared and compiled as the loader does.

    >>> namespace({"fa(i)": "i + 1"}).definitions["fa"](2)
    3
    """
    ns = spec_namespace()
    lines = SpecLines("")
    declare_definitions(dict(table), ns, "conformance.toml", lines)
    with _guarded():
        compile_definitions(ns, "conformance.toml", lines)
    return ns


class Reference:
    """One generated statement with its definitions, compiled once; :meth:`at` evaluates it at a point. Raises
    :class:`~nimjos.lang.errors.SpecError` when the language refuses the text (the harness then discards it)."""

    def __init__(self, table: dict, text: str, names: tuple[str, ...] = ("x", "y")):
        self.table = dict(table)
        self.text = text
        self.names = names
        self.ns = namespace(table)
        self.tree = parse(text)
        with _guarded():
            self.fn = compile_tree(self.tree, self.ns, set(names))

    def at(self, point: dict) -> Any:
        """The value at `point`, :data:`UNDEFINED` or :data:`SKIP` (see the module docstring)."""
        try:
            with step_limit(STEPS):
                return self.fn(dict(point))
        except (ResourceError, MemoryError):
            return SKIP
        except (EvalError, ArithmeticError):
            return UNDEFINED
        except SpecError:
            return UNDEFINED

    def spec(self, field: str = "holds", extra: str = "") -> str:
        """The statement as a spec a person can paste (its [define] table and one claim).

        >>> print(Reference({}, "x < 3").spec())
        [[claim]]
        id = "conformance"
        holds = "x < 3"
        """
        lines = []
        if self.table:
            lines.append("[define]")
            lines += [f'"{h}" = "{b}"' for h, b in self.table.items()]
        lines += ["[[claim]]", 'id = "conformance"', f'{field} = "{self.text}"']
        return "\n".join(lines + ([extra] if extra else []))


def make(table: dict, text: str, names: tuple[str, ...] = ("x", "y")) -> Reference | None:
    """A :class:`Reference`, or None when the language refuses the generated text (a name it forbids here).

    >>> make({}, "range < 1") is None
    True
    """
    try:
        return Reference(table, text, names)
    except SpecError:
        return None


def show(point: dict) -> str:
    """A point as the command line's ``--at`` writes it.

    >>> show({"x": 3, "y": -1})
    'x=3, y=-1'
    """
    return ", ".join(f"{k}={v}" for k, v in point.items())
