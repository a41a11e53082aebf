"""The expression language translated into Walnut's first-order logic over msd_2 (Presburger arithmetic with
the base-2 automatic relations: xor, and, or, 2^v2(n), 2^floor(log2 n)).

A term becomes a *linear* Walnut term (names, naturals, ``+``, ``c*t``) and a list of constraints on fresh
variables (``xor``, ``|``, ``&``, ``// c``, ``% c``, ``min``, ``max``, ``if``-``else``, ``v2``...), closed
existentially around the comparison that uses them; each such constraint is a total function, so closing
them is the same under any polarity. Comparisons are rearranged so that no side is a difference
(``a - b < c`` reads ``a < c + b``): integer semantics, also for negative differences. The one partial
operation, ``a - b`` inside a non-linear operator (``xor(x - 1, y)``), becomes a fresh d with d + b = a and an
*obligation*: a closed query, to be proved TRUE, that a < b never happens where the term is evaluated (under
the conditions of the enclosing ``and``, ``if``, the claim's domain or the move's ``where``); so does v2(0).

Values of ``v2`` and ``ilog2`` live in the *exponent domain*: the translation carries T = 2**value, an
automatic relation, instead of the value, which is not. They may be compared with each other and with
constants, shifted by constants, and be exponents (``2**v2(n)`` is T). A name used only as an exponent of 2
(``2**n``) is carried the same way. Anything else raises :class:`checkers.prove.walnut.logic.NotAutomatic`
with the reason.

The :class:`Translator` is assembled from one mixin per job, each in its own module: integer terms
(:mod:`checkers.prove.walnut.arith`), comparisons and membership (:mod:`checkers.prove.walnut.compare`) and
quantifiers over ranges and over the options of declared games (:mod:`checkers.prove.walnut.quantify`), in
the logic of :mod:`checkers.prove.walnut.logic`. This module holds its state (the fixed names, the fresh
names), constant folding, the inlining of definitions, and the formulas (and, or, not, if, chained
comparisons) with their constraints and obligations.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.prove.walnut.logic import Unit
>>> tr = Translator(spec_namespace(), {"h": 3})
>>> tr.formula(parse("x // h < 2"), {"x": "x"}, Unit([]))
'(Ev001,v002 (v002 < 3 & x = 3*v001 + v002) & (v001) < (2))'
>>> tr.formula(parse("x * y > 0"), {"x": "x", "y": "y"}, Unit([]))
Traceback (most recent call last):
...
checkers.prove.walnut.logic.NotAutomatic: multiplication of two variables in x * y (Walnut decides Presburger arithmetic: only multiplication by constants)
"""
from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any

from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import NimjosError
from nimjos.lang.expr import variables_of
from nimjos.lang.inline import names_in, substitute_call, unevaluated_arguments
from nimjos.lang.stored import StoredAutomaton
from nimjos.lang.syntax import parse
from checkers.prove.walnut.arith import Arithmetic
from checkers.prove.walnut.compare import Comparisons
from checkers.prove.walnut.logic import NotAutomatic, Unit, quant
from checkers.prove.walnut.numeration import BASE2, Numeration
from checkers.prove.walnut.quantify import Quantifiers

#: a constant of more bits than this is refused at once (Walnut's constants have 32 bits; Python will not print
#: an integer of more than 4,300 digits, so a message naming it would fail)
BIG_CONSTANT = 4096


class Translator(Arithmetic, Comparisons, Quantifiers):
    """Translate trees of one claim: `consts` are the names fixed to values (parameters of one instance), `num` the
    numeration its formulas are read in (msd_2 unless given)."""

    def __init__(self, ns: Namespace, consts: dict | None = None, num: Numeration = BASE2):
        self.ns = ns
        self.consts = dict(consts or {})
        self.n = 0
        self.jos_args: set = set()      # the Walnut terms survivor(., 2) is evaluated at
        self.num = num                  # the numeration the formulas are read in (msd_2, fib, ...)
        self.stored: dict[str, str] = {}  # the stored automata called: Walnut library name -> automaton file text

    def fresh(self, stem: str = "v") -> str:
        """A new name: the stem and a number, unique within this translator.

        >>> from nimjos.spec.names import spec_namespace
        >>> tr = Translator(spec_namespace())
        >>> tr.fresh(), tr.fresh("b")
        ('v001', 'b002')
        """
        self.n += 1
        return f"{stem}{self.n:03d}"

    # ------------------------------------------------------------------ constants
    def const(self, node: ast.AST, env: dict) -> Any:
        """The value of a subexpression free of symbolic names (nimjos' own semantics), else None.

        >>> from nimjos.spec.names import spec_namespace
        >>> tr = Translator(spec_namespace(), {"k": 3})
        >>> tr.const(parse("2 * k + 1"), {}), tr.const(parse("x + k"), {"x": "x"})
        (7, None)
        """
        if isinstance(node, ast.Constant):
            return node.value
        names = variables_of(node, self.ns)
        if any(n in env for n in names) or not all(n in self.consts for n in names):
            return None
        if any(isinstance(n, ast.Name) and n.id in env for n in ast.walk(node)):
            return None
        try:
            value = compile_tree(node, self.ns, set(self.consts))(dict(self.consts))
        except (NimjosError, ZeroDivisionError, TypeError, ValueError) as exc:
            raise NotAutomatic(f"{ast.unparse(node)[:200]} cannot be evaluated: {exc}") from None
        if isinstance(value, (int, Fraction)) and max(Fraction(value).numerator.bit_length(),
                                                      Fraction(value).denominator.bit_length()) > BIG_CONSTANT:
            # far beyond Walnut's 32-bit constants, and too long for any message to print
            raise NotAutomatic(f"{ast.unparse(node)[:200]} is a constant of more than {BIG_CONSTANT:,} bits")
        return value

    def _inline(self, node: ast.Call, env: dict | None = None, unit: Unit | None = None) -> ast.AST | None:
        """The body of a [define] function with the call's arguments substituted (:func:`nimjos.lang.inline.
        substitute_call`: every name the body binds renamed fresh), None for other calls. Given the `unit` being
        translated, the arguments the body does not evaluate on every path are translated too, for their
        obligations: the language evaluates every argument before the call (``f(x, v2(0))`` is undefined even
        where f ignores its second parameter).

        >>> from nimjos.spec.names import spec_namespace
        >>> from nimjos.lang.runtime import Definition
        >>> ns = spec_namespace()
        >>> body = "any(x == y for y in range(3))"
        >>> ns.definitions["f"] = Definition("f", ("x",), body, parse(body))
        >>> ast.unparse(Translator(ns)._inline(parse("f(y)")))
        'any((y == y_001 for y_001 in range(3)))'
        """
        func = node.func
        assert isinstance(func, ast.Name), "every caller inlines only a call of a name"
        d = self.ns.definitions.get(func.id)
        if d is None:
            return None
        if d.recursive:
            raise NotAutomatic(f"recursive definition {func.id} (Walnut does not unfold recursions)")
        if len(d.params) != len(node.args):
            raise NotAutomatic(f"{func.id} takes {len(d.params)} arguments")
        taken = names_in([d.tree, *node.args]) | set(self.consts) | set(env or ())

        def fresh(name: str) -> str:
            new = self.fresh(f"{name}_")
            while new in taken:
                new = self.fresh(f"{name}_")
            return new
        if unit is not None:
            assert env is not None, "a caller giving the unit gives its environment"
            for arg in unevaluated_arguments(d.params, d.tree, node.args):
                if self.maybe_bool(arg, env):
                    self.formula(arg, env, unit)
                else:
                    self.term(arg, env, unit, [])
        return substitute_call(d.params, d.tree, node.args, fresh=fresh)

    # ------------------------------------------------------------------ formulas
    def close(self, acc: list, atom: str) -> str:
        """The atom with the constraints of its fresh variables, closed existentially.

        >>> Translator(None).close([("v001", "$xor(x,y,v001)")], "v001 = 0")
        '(Ev001 ($xor(x,y,v001)) & v001 = 0)'
        """
        if not acc:
            return atom
        cs = " & ".join(f"({c})" for _, c in acc if c is not None)
        return f"(E{','.join(v for v, _ in acc)} {cs} & {atom})"

    def oblige(self, unit: Unit, acc: list, bad: str, why: str) -> None:
        """Record: under the current path, `bad` (with the constraints so far) never happens.

        >>> unit = Unit(["x"], path=["x > 2"])
        >>> Translator(None).oblige(unit, [], "x < 1", "x may be 0")
        >>> unit.obligations
        [('Ax ~((x > 2) & x < 1)', 'x may be 0')]
        """
        path = " & ".join(f"({p})" for p in unit.path) or "0 = 0"
        unit.obligations.append((quant("A", unit.params, f"~({path} & {self.close(list(acc), bad)})"), why))

    def formula(self, node: ast.AST, env: dict, unit: Unit) -> str:
        """A Walnut formula for a condition (nimjos truthiness of comparisons, and, or, not, if).

        >>> from nimjos.spec.names import spec_namespace
        >>> Translator(spec_namespace()).formula(parse("x < 3 or x == y"), {"x": "x", "y": "y"}, Unit([]))
        '(((x) < (3)) | ((x) = (y)))'
        """
        c = self.const(node, env)
        if c is not None:
            return "0 = 0" if c else "0 = 1"
        if isinstance(node, ast.BoolOp):
            parts = []
            for v in node.values:
                f = self.formula(v, env, unit)
                parts.append(f)
                unit.path.append(f if isinstance(node.op, ast.And) else f"~({f})")
            del unit.path[len(unit.path) - len(parts):]
            return "(" + (" & " if isinstance(node.op, ast.And) else " | ").join(f"({p})" for p in parts) + ")"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return f"~({self.formula(node.operand, env, unit)})"
        if isinstance(node, ast.IfExp):
            c = self.formula(node.test, env, unit)
            unit.path.append(c)
            a = self.formula(node.body, env, unit)
            unit.path[-1] = f"~({c})"
            b = self.formula(node.orelse, env, unit)
            unit.path.pop()
            return f"((({c}) & ({a})) | (~({c}) & ({b})))"
        if isinstance(node, ast.Compare):
            out, left = [], node.left
            for op, right in zip(node.ops, node.comparators):
                out.append(self.atom(op, left, right, env, unit))
                unit.path.append(out[-1])
                left = right
            del unit.path[len(unit.path) - len(out):]
            return out[0] if len(out) == 1 else "(" + " & ".join(f"({o})" for o in out) + ")"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if isinstance(self.ns.builtins.get(node.func.id), StoredAutomaton):
                return self.stored_atom(node, env, unit)
            body = self._inline(node, env, unit)
            if body is not None:
                return self.formula(body, env, unit)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("all", "any") and len(node.args) == 1 \
                and isinstance(node.args[0], ast.GeneratorExp):
            return self.comprehension(node, env, unit)
        raise NotAutomatic(f"{ast.unparse(node)[:80]} is not a first-order formula over msd_2")
