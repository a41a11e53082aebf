"""Integer terms for :class:`checkers.prove.walnut.translate.Translator` (a mixin): an expression of the language
as a *linear* Walnut term (names, naturals, ``+``, ``c*t``) and constraints on fresh variables appended to
the caller's list: differences (with the obligation that they are never negative), constant factors,
division and remainder by constants, powers of two, ``|`` ``&`` and shifts, ``xor``, ``min``, ``max``,
``abs``, ``floor`` and ``ceil`` of a ratio, a conditional, indexing, ``v2`` and ``ilog2`` (values carried
as 2**value, :class:`checkers.prove.walnut.logic.Exp`) and ``survivor(n, 2)``.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.prove.walnut.logic import Unit
>>> from checkers.prove.walnut.translate import Translator
>>> acc = []
>>> Translator(spec_namespace()).term(parse("xor(x, 3 * y)"), {"x": "x", "y": "y"}, Unit([]), acc), acc
('v001', [('v001', '$xor(x,3*y,v001)')])
"""
from __future__ import annotations

import ast
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

from nimjos.lang.registry import REGISTRY
from nimjos.lang.stored import StoredAutomaton
from checkers.prove.walnut.beatty import MAX_C, ROOT_TERMS, split_square, square_form
from checkers.prove.walnut.logic import (LOG_AUTOMATA, LOG_NUMERATION, MAX_CONSTANT, MAX_EXPONENT, MAX_FACTOR,
                                         MAX_RESIDUE_MODULUS, Exp, LogarithmicAsNumber, NotAutomatic, Unit,
                                         WrongNumeration)


if TYPE_CHECKING:    # the Translator's other mixins, for the type checker (checkers.prove.walnut.host)
    from checkers.prove.walnut.host import TranslatorHost as _Host
else:
    _Host = object

#: the Beatty terms: each built-in's automaton, its numeration, and the multiple of n added to it (floor(n phi^2) =
#: floor(n phi) + n); each automaton is checked in every run that uses it (``logic.BEATTY_CHECKS``)
BEATTY_TERMS = {"floor_phi": ("phin", "fib", 0), "floor_phi2": ("phin", "fib", 1), "floor_sqrt2": ("sqrt2n", "pell", 0)}


class Arithmetic(_Host):
    """The terms of :class:`checkers.prove.walnut.translate.Translator` (see the module docstring)."""

    def _nat(self, value: Any, node: ast.AST) -> str:
        """A constant as a Walnut natural; a boolean is the integer 0 or 1, as in the language (True == 1).

        >>> from nimjos.lang.syntax import parse
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(None)._nat(True, parse("True")), Translator(None)._nat(7, parse("7"))
        ('1', '7')
        """
        if type(value) is bool:
            value = int(value)
        if type(value) is not int:
            raise NotAutomatic(f"{ast.unparse(node)} = {value!r} is not a natural number")
        if value < 0:
            raise NotAutomatic(f"negative value {_short(value)} in {ast.unparse(node)[:200]}: Walnut's numbers are "
                               "the naturals")
        if value > MAX_CONSTANT:
            raise NotAutomatic(f"constant {_short(value)} in {ast.unparse(node)[:200]} exceeds Walnut's 32-bit "
                               "constants")
        return str(value)

    def term(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> Any:
        """A Walnut term (str), or an Exp, for an integer expression; constraints are appended to acc.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> acc = []
        >>> Translator(spec_namespace()).term(parse("min(x, 2 * y)"), {"x": "x", "y": "y"}, Unit([]), acc), acc
        ('v001', [('v001', '((x <= 2*y & v001 = x) | (~(x <= 2*y) & v001 = 2*y))')])
        """
        c = self.const(node, env)
        if c is not None:
            return self._nat(c, node)
        if is_condition(node):        # a condition used as a number is 0 or 1, as in the language (True == 1)
            f = self.formula(node, env, unit)
            v = self.fresh()
            acc.append((v, f"((({f}) & {v} = 1) | (~({f}) & {v} = 0))"))
            return v
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            raise NotAutomatic(f"{node.id!r} is not a number here")
        if isinstance(node, ast.BinOp):
            return self.binop(node, env, unit, acc)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd):
            return self.term(node.operand, env, unit, acc)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return self.call(node, env, unit, acc)
        if isinstance(node, ast.IfExp):
            v = self.fresh()
            cond = self.formula(node.test, env, unit)
            unit.path.append(cond)
            acc_a: list = []
            a = self.int_term(node.body, env, unit, acc_a)
            unit.path[-1] = f"~({cond})"
            acc_b: list = []
            b = self.int_term(node.orelse, env, unit, acc_b)
            unit.path.pop()
            acc.append((v, f"(({cond}) & {self.close(acc_a, f'{v} = {a}')}) | "
                           f"(~({cond}) & {self.close(acc_b, f'{v} = {b}')})"))
            return v
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and isinstance(env.get(node.value.id), tuple):
            i = self.const(node.slice, env)
            items = env[node.value.id]
            if type(i) is not int or not -len(items) <= i < len(items):
                raise NotAutomatic(f"{ast.unparse(node)}: only a constant index of a position")
            return items[i]
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Tuple):
            items = [self.const(e, env) for e in node.value.elts]
            if any(type(i) is not int or i < 0 for i in items):
                raise NotAutomatic(f"indexing a tuple of non-constant values in {ast.unparse(node)}")
            i = self.int_term(self.strict(node.slice, env, "an index"), env, unit, acc)
            self.oblige(unit, acc, f"{i} >= {len(items)}", f"the index of {ast.unparse(node)} may be out of range")
            v = self.fresh()
            acc.append((v, "(" + " | ".join(f"({i} = {k} & {v} = {x})" for k, x in enumerate(items)) + ")"))
            return v
        raise NotAutomatic(f"{ast.unparse(node)} is not an automatic (msd_2) term")

    def int_term(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> str:
        """A Walnut term for an integer expression that is a number (not a value carried as 2**value).

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(spec_namespace()).int_term(parse("v2(x)"), {"x": "x"}, Unit([]), [])
        Traceback (most recent call last):
        ...
        checkers.prove.walnut.logic.LogarithmicAsNumber: v2(x) is a 2-adic or logarithmic value (v2, ilog2, an exponent) used as a number: Walnut compares such values only with each other and with constants
        """
        t = self.term(node, env, unit, acc)
        if isinstance(t, Exp):
            raise LogarithmicAsNumber(f"{ast.unparse(node)} is a 2-adic or logarithmic value (v2, ilog2, an exponent) "
                                      "used as a number: Walnut compares such values only with each other and with "
                                      "constants")
        return t

    def binop(self, node: ast.BinOp, env: dict, unit: Unit, acc: list) -> Any:
        """A binary operation (see the module docstring); constraints are appended to acc.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> acc = []
        >>> Translator(spec_namespace()).binop(parse("x % 3"), {"x": "x"}, Unit([]), acc), acc
        ('v002', [('v001', None), ('v002', 'v002 < 3 & x = 3*v001 + v002')])
        """
        op, L, R = node.op, node.left, node.right
        cl, cr = self.const(L, env), self.const(R, env)
        if isinstance(op, ast.Pow):
            if cl == 2:
                self.needs("msd_2", f"the power of two {ast.unparse(node)}")
                e = self.term(self.strict(R, env, "the exponent of a power"), env, unit, acc)
                if isinstance(e, Exp):
                    return e.t
                # n -> 2**n is not automatic; for a bounded n it is a finite table, exact where n <= MAX_EXPONENT
                self.oblige(unit, acc, f"{e} > {MAX_EXPONENT}",
                            f"2**{ast.unparse(R)}: the exponent is a number here (n -> 2**n is not automatic: only an "
                            f"exponent used nowhere else, v2 or ilog2), exact only while it is at most {MAX_EXPONENT}")
                v = self.fresh()
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", e):
                    acc.append((v, f"$p2tab({e},{v})"))
                else:
                    u = self.fresh()
                    acc.append((u, f"{u} = {e}"))
                    acc.append((v, f"$p2tab({u},{v})"))
                return v
            if cr is not None:
                raise NotAutomatic(f"multiplication of two variables in {ast.unparse(node)} (a power of a variable)")
            raise NotAutomatic(f"the power {ast.unparse(node)} is not automatic")
        if isinstance(op, ast.Add):
            a, b = self.term(L, env, unit, acc), self.term(R, env, unit, acc)
            if (isinstance(a, Exp) or isinstance(b, Exp)) and self.num.name != "msd_2":
                raise NotAutomatic(f"{ast.unparse(node)} adds to a carried value (zeck_tz): in {self.num.walnut} only "
                                   "comparisons and residues of it are translated")
            if isinstance(a, Exp) and type(cr) is int and cr >= 0:
                return Exp(f"{2 ** cr}*{a.t}")
            if isinstance(b, Exp) and type(cl) is int and cl >= 0:
                return Exp(f"{2 ** cl}*{b.t}")
            if isinstance(a, Exp) or isinstance(b, Exp):
                raise NotAutomatic(f"{ast.unparse(node)} adds a v2/ilog2/exponent value to a non-constant")
            return f"({a} + {b})"
        if isinstance(op, ast.Sub):
            a, b = self.int_term(L, env, unit, acc), self.int_term(R, env, unit, acc)
            d = self.fresh()
            self.oblige(unit, acc, f"{a} < {b}", f"{ast.unparse(node)} may be negative")
            acc.append((d, f"{d} + {b} = {a}"))
            return d
        if isinstance(op, ast.Mult):
            if cl is None and cr is None:
                raise NotAutomatic(f"multiplication of two variables in {ast.unparse(node)} (Walnut decides Presburger "
                                   "arithmetic: only multiplication by constants)")
            k, other = (cl, R) if cl is not None else (cr, L)
            self._factor(k, node)
            return f"{k}*{self.int_term(other, env, unit, acc)}"
        if isinstance(op, ast.Mod) and type(cr) is int and self.is_exp(L, env):
            return self._residue(node, cr, env, unit, acc)
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            if cr is None:
                raise NotAutomatic(f"division by a variable in {ast.unparse(node)} is not automatic")
            if type(cr) is not int or cr <= 0:
                raise NotAutomatic(f"division by {cr!r} in {ast.unparse(node)}: only positive integer divisors")
            self._factor(cr, node)
            a = self.int_term(L, env, unit, acc)
            q, r = self.fresh(), self.fresh()
            acc.append((q, None))                       # q and r are bound together by r's constraint
            acc.append((r, f"{r} < {cr} & {a} = {cr}*{q} + {r}"))
            return q if isinstance(op, ast.FloorDiv) else r
        if isinstance(op, ast.Div):
            if cr is None or type(cr) not in (int, Fraction) or cr <= 0:
                raise NotAutomatic(f"division by {ast.unparse(R)} in {ast.unparse(node)}: only by positive constants")
            if type(cr) is not int:
                raise NotAutomatic(f"division by the fraction {cr} in {ast.unparse(node)}")
            self._factor(cr, node)
            a = self.int_term(L, env, unit, acc)
            w = self.fresh("w")
            self.oblige(unit, acc, f"~(E{w} {cr}*{w} = {a})", f"{ast.unparse(node)} may not be an integer (a fraction "
                        "used as a number)")
            q = self.fresh()
            acc.append((q, f"{cr}*{q} = {a}"))
            return q
        if isinstance(op, (ast.BitOr, ast.BitAnd)):
            self.needs("msd_2", f"the bitwise operation {ast.unparse(node)}")
            a, b = self.int_term(L, env, unit, acc), self.int_term(R, env, unit, acc)
            v = self.fresh()
            acc.append((v, f"${'bitor' if isinstance(op, ast.BitOr) else 'bitand'}({a},{b},{v})"))
            return v
        if isinstance(op, (ast.LShift, ast.RShift)):
            self.strict(L, env, "a shift")
            if type(cr) is not int or cr < 0:
                raise NotAutomatic(f"a shift by a symbolic amount in {ast.unparse(node)} is not automatic")
            if isinstance(op, ast.LShift):
                self._factor(2 ** cr, node)
                return f"{2 ** cr}*{self.int_term(L, env, unit, acc)}"
            return self.binop(ast.BinOp(L, ast.FloorDiv(), ast.Constant(2 ** cr)), env, unit, acc)
        raise NotAutomatic(f"{ast.unparse(node)} is not automatic in msd_2")

    def maybe_bool(self, node: ast.AST, env: dict) -> bool:
        """May the value of this integer expression be a boolean (a condition, True, or min, max or a conditional
        expression that may pick one)? The language takes a boolean as 0 or 1 in arithmetic, but refuses it in
        xor, v2, ilog2, survivor, shifts, indices, range bounds and exponents.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> tr = Translator(spec_namespace())
        >>> [tr.maybe_bool(parse(t), {"x": "x"}) for t in ("min(x < 3, 2)", "(x < 3) + 0", "x if x > 2 else True")]
        [True, False, True]
        """
        c = self.const(node, env)
        if c is not None:
            return type(c) is bool
        if is_condition(node):
            return True
        if isinstance(node, ast.IfExp):
            return self.maybe_bool(node.body, env) or self.maybe_bool(node.orelse, env)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("min", "max"):
                return any(self.maybe_bool(a, env) for a in node.args)
            if isinstance(self.ns.builtins.get(node.func.id), StoredAutomaton):
                return True
            body = self._inline(node)
            return body is not None and self.maybe_bool(body, env)
        return False

    def strict(self, node: ast.AST, env: dict, what: str) -> ast.AST:
        """The node, when its value is an integer and never a boolean (:meth:`maybe_bool`), which `what` needs.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(spec_namespace()).strict(parse("x < 1"), {"x": "x"}, "xor")
        Traceback (most recent call last):
        ...
        checkers.prove.walnut.logic.NotAutomatic: x < 1 may be a boolean, which xor refuses (the language takes a boolean as 0 or 1 only in arithmetic)
        """
        if self.maybe_bool(node, env):
            raise NotAutomatic(f"{ast.unparse(node)} may be a boolean, which {what} refuses (the language takes a "
                               "boolean as 0 or 1 only in arithmetic)")
        return node

    def _factor(self, k: Any, node: ast.AST) -> None:
        if type(k) is not int or k < 0:
            raise NotAutomatic(f"the factor {k!r} in {ast.unparse(node)} is not a natural number")
        if k > MAX_FACTOR:
            raise NotAutomatic(f"the constant {k} in {ast.unparse(node)} exceeds {MAX_FACTOR} (its automaton has about "
                               "that many states)")

    def call(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> Any:
        """A call of a [define] function (inlined) or of a built-in with a Walnut translation.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> tr, acc = Translator(spec_namespace()), []
        >>> tr.call(parse("survivor(n, 2)"), {"n": "n"}, Unit([]), acc)
        'v001'
        >>> acc
        [('v001', '$jos(v001,n)')]
        """
        assert isinstance(node.func, ast.Name), "term() calls call() for a call of a name only"
        f = node.func.id
        body = self._inline(node, env, unit)
        if body is not None:
            return self.term(body, env, unit, acc)
        if isinstance(self.ns.builtins.get(f), StoredAutomaton):
            return STORED_WALNUT_FORM(self, node, env, unit, acc)
        form = WALNUT_FORMS.get(f)
        if callable(form):
            out = form(self, node, env, unit, acc)
            if out is not None:
                return out
        reason = form if isinstance(form, str) else REGISTRY[f].walnut if f in REGISTRY else None
        raise NotAutomatic(f"{f}(...) in {ast.unparse(node)}: {reason or 'no Walnut translation'}")

    def stored_atom(self, node: ast.Call, env: dict, unit: Unit) -> str:
        """A call of a stored automaton as a Walnut formula: ``$name(t1,...,tk)``, the automaton installed in Walnut's
        automata library under its content's name (recorded in ``self.stored``), each argument a natural-number
        term (a boolean argument refused, as the language refuses it; a difference that may go negative an
        obligation, as everywhere).

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from nimjos.lang.stored import StoredAutomaton, read_walnut
        >>> from checkers.prove.walnut.translate import Translator
        >>> ns = spec_namespace()
        >>> ns.builtins["odd"] = StoredAutomaton("odd", read_walnut("msd_2\\n\\n0 0\\n0 -> 0\\n1 -> 1\\n\\n1 1\\n0 -> 0\\n1 -> 1\\n"), "odd.txt")
        >>> tr = Translator(ns)
        >>> tr.formula(parse("odd(x + 1)"), {"x": "x"}, Unit([])).replace(ns.builtins["odd"].walnut_name, "ODD")
        '$ODD((x + 1))'
        >>> list(tr.stored) == [ns.builtins["odd"].walnut_name]
        True
        """
        assert isinstance(node.func, ast.Name), "a stored automaton is called by its name"
        fn = self.ns.builtins[node.func.id]
        assert isinstance(fn, StoredAutomaton), "stored_atom translates stored automata only"
        if len(node.args) != fn.arity or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise NotAutomatic(f"{ast.unparse(node)}: {fn.name} takes {fn.arity} argument(s)")
        numeration = fn.automaton.numeration   # msd_2, msd_fib or msd_pell: the backend's msd_2, fib or pell
        self.needs(numeration.removeprefix("msd_") if numeration != "msd_2" else numeration,
                   f"the stored automaton {ast.unparse(node)} (it reads {numeration})")
        acc: list = []
        terms = [self.int_term(self.strict(a, env, f"the automaton {fn.name}"), env, unit, acc) for a in node.args]
        self.stored[fn.walnut_name] = fn.automaton.walnut()
        return self.close(acc, f"${fn.walnut_name}({','.join(terms)})")

    def _call_stored(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str:
        """A stored automaton's call used as a number: 1 where it accepts, 0 elsewhere (True == 1)."""
        f = self.stored_atom(node, env, unit)
        v = self.fresh()
        acc.append((v, f"((({f}) & {v} = 1) | (~({f}) & {v} = 0))"))
        return v

    def _call_xor(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        if not node.args:
            return None
        self.needs("msd_2", f"the nim-sum {ast.unparse(node)}")
        return self._fold([self.strict(a, env, "xor") for a in node.args], env, unit, acc,
                          lambda cur, t, v: f"$xor({cur},{t},{v})")

    def _call_extreme(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        """min or max of two or more numbers."""
        if len(node.args) < 2:
            return None
        assert isinstance(node.func, ast.Name), "a form of a built-in, called by call() for a call of a name"
        lt = "<=" if node.func.id == "min" else ">="
        return self._fold(node.args, env, unit, acc,
                          lambda cur, t, v: f"(({cur} {lt} {t} & {v} = {cur}) | (~({cur} {lt} {t}) & {v} = {t}))")

    def _call_abs(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        """abs(a - b) (the absolute value of a difference: of a natural it is the natural itself)."""
        args = node.args
        if not (len(args) == 1 and isinstance(args[0], ast.BinOp) and isinstance(args[0].op, ast.Sub)):
            return None
        return self._magnitude(args[0], env, unit, acc)

    def _magnitude(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> str:
        """|t| of an integer expression t: of a difference a - b, a >= b ? a - b : b - a, exactly; of any other t, t
        itself (Walnut's terms are naturals: t's own differences carry their obligations).

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> acc = []
        >>> Translator(spec_namespace())._magnitude(parse("x - 3"), {"x": "x"}, Unit([]), acc), acc
        ('v001', [('v001', '((x >= 3 & v001 + 3 = x) | (x < 3 & v001 + x = 3))')])
        """
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
            return self.int_term(node, env, unit, acc)
        a = self.int_term(node.left, env, unit, acc)
        b = self.int_term(node.right, env, unit, acc)
        v = self.fresh()
        acc.append((v, f"(({a} >= {b} & {v} + {b} = {a}) | ({a} < {b} & {v} + {a} = {b}))"))
        return v

    def _call_isqrt(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        """isqrt(c * t * t) = floor(|t| sqrt c), a Beatty term (:mod:`checkers.prove.walnut.beatty`): with c = m^2 r, r
        squarefree, m |t| when r = 1 (in any numeration), else A(k m |t|) - j m |t| by the automaton A of floor(n sqrt
        r) in its numeration (:data:`checkers.prove.walnut.beatty.ROOT_TERMS`: Pell for r = 2, Fibonacci for r = 5).
        Any other argument, a negative c (isqrt is then defined only where t = 0) or another r is refused, with the
        reason.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> from checkers.prove.walnut.numeration import FIB
        >>> tr, acc = Translator(spec_namespace(), num=FIB), []
        >>> tr.term(parse("isqrt(20 * x ** 2)"), {"x": "x"}, Unit([]), acc), acc
        ('v002', [('v001', '$phin(4*x,v001)'), ('v002', 'v002 + 2*x = v001')])
        >>> tr.term(parse("isqrt(9 * x * x)"), {"x": "x"}, Unit([]), [])
        '3*x'
        >>> tr.term(parse("isqrt(3 * x * x)"), {"x": "x"}, Unit([]), [])
        Traceback (most recent call last):
        ...
        checkers.prove.walnut.logic.NotAutomatic: isqrt(3 * x * x) = floor(|t| sqrt 3) is synchronized only in the Ostrowski numeration of sqrt 3, which the Walnut backend does not build (it has those of sqrt 2, Pell, and sqrt 5, Fibonacci)
        """
        if len(node.args) != 1:
            return None
        text = ast.unparse(node)[:200]
        form = square_form(node.args[0], lambda n: self.const(n, env))
        if form is None:
            raise NotAutomatic(f"{text}: isqrt is not automatic, except in a Beatty term isqrt(c * t * t), c a constant "
                               "(floor(|t| sqrt c))")
        c, t = form
        if c < 0:
            raise NotAutomatic(f"{text}: isqrt of c * t * t with c = {_short(c)} < 0 is defined only where t = 0")
        u = self._magnitude(t, env, unit, acc)
        if c == 0:
            return "0"
        if c > MAX_C:
            raise NotAutomatic(f"{text}: the constant {_short(c)} exceeds {MAX_C} (no Beatty automaton that large)")
        m, r = split_square(c)
        self._factor(m, node)
        mu = u if m == 1 else f"{m}*{u}"
        if r == 1:
            return mu
        if r not in ROOT_TERMS:
            raise NotAutomatic(f"{text} = floor({'' if m == 1 else f'{m} '}|t| sqrt {r}) is synchronized only in the "
                               f"Ostrowski numeration of sqrt {r}, which the Walnut backend does not build (it has "
                               "those of sqrt 2, Pell, and sqrt 5, Fibonacci)")
        automaton, numeration, k, j = ROOT_TERMS[r]
        self.needs(numeration, f"{text} (floor(|t| sqrt {r}), a Beatty term synchronized in msd_{numeration})")
        self._factor(k * m, node)
        s = self.fresh()
        acc.append((s, f"${automaton}({mu if k == 1 else f'{k * m}*{u}'},{s})"))
        if not j:
            return s
        v = self.fresh()
        acc.append((v, f"{v} + {mu if j == 1 else f'{j * m}*{u}'} = {s}"))
        return v

    def _call_rounded(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> Any:
        """floor or ceil of a ratio with a constant denominator."""
        args = node.args
        if not (len(args) == 1 and isinstance(args[0], ast.BinOp) and isinstance(args[0].op, ast.Div)):
            return None
        num, den = args[0].left, args[0].right
        if self.const(den, env) is None:
            raise NotAutomatic(f"{ast.unparse(node)}: a ratio with a variable denominator is not automatic")
        assert isinstance(node.func, ast.Name), "a form of a built-in, called by call() for a call of a name"
        if node.func.id == "ceil":
            num = ast.BinOp(num, ast.Add(), ast.BinOp(den, ast.Sub(), ast.Constant(1)))
        return self.binop(ast.BinOp(num, ast.FloorDiv(), den), env, unit, acc)

    def _call_logarithm(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> Exp | None:
        """v2 or ilog2, carried as 2**value (the value is in the exponent domain)."""
        assert isinstance(node.func, ast.Name), "a form of a built-in, called by call() for a call of a name"
        f, args = node.func.id, node.args
        if len(args) != 1:
            return None
        self.needs(LOG_NUMERATION[f], f"{ast.unparse(node)}")
        a = self.int_term(self.strict(args[0], env, f), env, unit, acc)
        self.oblige(unit, acc, f"{a} = 0", f"{f}({ast.unparse(args[0])}) may be undefined (argument 0)")
        t = self.fresh()
        acc.append((t, f"${LOG_AUTOMATA[f]}({a},{t})"))
        return Exp(t)

    def _call_survivor(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        """survivor(n, 2), by the automaton jos (logic.JOSEPHUS_LEMMA)."""
        args = node.args
        if len(args) != 2:
            return None
        k = self.const(args[1], env)
        self.needs("msd_2", f"the Josephus survivor {ast.unparse(node)}")
        if k != 2:
            raise NotAutomatic(f"{ast.unparse(node)}: the Josephus survivor is automatic in base 2 only for k = 2 "
                               "(J(n) = 2(n - 2^floor(log2 n)) + 1)")
        n = self.int_term(self.strict(args[0], env, "survivor"), env, unit, acc)
        # the automaton of survivor(n, 2) rests on the Josephus recursion (logic.JOSEPHUS_LEMMA), which relates
        # survivor at n, 2n and 2n + 1: a statement about survivor at two arguments may restate it
        self.jos_args.add(n)
        if len(self.jos_args) > 1:
            raise NotAutomatic(f"{ast.unparse(node)}: survivor(., 2) at more than one argument ("
                               f"{', '.join(sorted(self.jos_args))}) may restate the Josephus recursion, the "
                               "lemma its automaton rests on; such a statement is not proved with it")
        j = self.fresh()
        acc.append((j, f"$jos({j},{n})"))
        return j

    def _call_beatty(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        """floor_phi(n) = floor(n phi), floor_phi2(n) = floor(n phi) + n (Fibonacci numeration) and floor_sqrt2(n) =
        floor(n sqrt 2) (Pell), by their automata (:data:`BEATTY_TERMS`, each checked in the run); the argument a
        natural (a difference carries its obligation)."""
        assert isinstance(node.func, ast.Name), "a form of a built-in, called by call() for a call of a name"
        if len(node.args) != 1:
            return None
        automaton, numeration, extra = BEATTY_TERMS[node.func.id]
        self.needs(numeration, f"{ast.unparse(node)} (a Beatty sequence synchronized in msd_{numeration})")
        n = self.int_term(self.strict(node.args[0], env, node.func.id), env, unit, acc)
        s = self.fresh()
        acc.append((s, f"${automaton}({n},{s})"))
        if not extra:
            return s
        v = self.fresh()
        acc.append((v, f"{v} = {s} + {extra}*{n}"))
        return v

    def _call_zeck_shift(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> str | None:
        """zeck_shift(n): n's Zeckendorf representation followed by a 0, by the automaton shift (Fibonacci)."""
        if len(node.args) != 1:
            return None
        self.needs("fib", f"{ast.unparse(node)} (a shift of Zeckendorf's digits)")
        n = self.int_term(self.strict(node.args[0], env, "zeck_shift"), env, unit, acc)
        v = self.fresh()
        acc.append((v, f"$shift({n},{v})"))
        return v

    def _residue(self, node: ast.BinOp, m: int, env: dict, unit: Unit, acc: list) -> str:
        """e % m of a value e carried as t (1 followed by e zeros, in either numeration): a regular test of t's
        digits per residue (logic.residue_automaton)."""
        if not 1 <= m <= MAX_RESIDUE_MODULUS:
            raise NotAutomatic(f"{ast.unparse(node)}: a residue of a carried value modulo {m} (only 1..{MAX_RESIDUE_MODULUS})")
        t = self.term(node.left, env, unit, acc)
        if not isinstance(t, Exp):
            raise NotAutomatic(f"{ast.unparse(node.left)} is not a carried value alone")
        v = self.fresh()
        acc.append((v, "(" + " | ".join(f"($em{m}r{r}({t.t}) & {v} = {r})" for r in range(m)) + ")"))
        return v

    def needs(self, numeration: str, what: str) -> None:
        """Refuse (WrongNumeration, with the reason) a construct automatic only in `numeration` when the translation is
        in another.

        >>> from checkers.prove.walnut.translate import Translator
        >>> from checkers.prove.walnut.numeration import FIB
        >>> Translator(None, num=FIB).needs("msd_2", "xor(x, y)")
        Traceback (most recent call last):
        ...
        checkers.prove.walnut.logic.WrongNumeration: xor(x, y) is automatic in msd_2 only, and this translation is in msd_fib
        """
        if self.num.name != numeration:
            raise WrongNumeration(f"{what} is automatic in {'msd_2' if numeration == 'msd_2' else 'msd_' + numeration} "
                               f"only, and this translation is in {self.num.walnut}", numeration)

    def _fold(self, args: list, env: dict, unit: Unit, acc: list, step: Callable[[str, str, str], str]) -> str:
        """f(a, b, c, ...) as f(f(a, b), c) ...: each step a fresh v with the constraint step(so far, next, v)."""
        cur = self.int_term(args[0], env, unit, acc)
        for a in args[1:]:
            t = self.int_term(a, env, unit, acc)
            v = self.fresh()
            acc.append((v, step(cur, t, v)))
            cur = v
        return cur


def is_condition(node: ast.AST) -> bool:
    """Is the node a condition by its form (a comparison, and/or/not, all/any), whose value is a boolean?

    >>> from nimjos.lang.syntax import parse
    >>> is_condition(parse("x < y")), is_condition(parse("x + y")), is_condition(parse("any(i > 2 for i in range(x))"))
    (True, False, True)
    """
    if isinstance(node, (ast.Compare, ast.BoolOp)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("all", "any")


def _short(value: int) -> str:
    """An integer for a message: its digits when short, else its size (Python refuses to print an int of more
    than 4,300 digits, and a message need not carry one).

    >>> _short(12345), _short(-10 ** 5000)
    ('12345', '-(an integer of 16610 bits)')
    """
    if value.bit_length() <= 64:
        return str(value)
    return f"{'-' if value < 0 else ''}(an integer of {value.bit_length()} bits)"


#: the Walnut form of each built-in that has one, keyed by the registry's names (:mod:`nimjos.lang.registry`, which
#: gives the reason for each of the others): the translation of a call as a term (it returns None for a call of a
#: shape it does not translate), or where the form lives when it is not a term
WALNUT_FORMS: dict[str, Callable | str] = {
    "xor": Arithmetic._call_xor, "min": Arithmetic._call_extreme, "max": Arithmetic._call_extreme,
    "abs": Arithmetic._call_abs, "isqrt": Arithmetic._call_isqrt, "floor": Arithmetic._call_rounded, "ceil": Arithmetic._call_rounded,
    "v2": Arithmetic._call_logarithm, "ilog2": Arithmetic._call_logarithm, "survivor": Arithmetic._call_survivor,
    "floor_phi": Arithmetic._call_beatty, "floor_phi2": Arithmetic._call_beatty, "floor_sqrt2": Arithmetic._call_beatty,
    "zeck_tz": Arithmetic._call_logarithm,
    "zeck_shift": Arithmetic._call_zeck_shift,
    "all": "all(...) is a formula (a quantifier over a range or over the options of a game), not a number",
    "any": "any(...) is a formula (a quantifier over a range or over the options of a game), not a number",
    "range": "range(...) is translated only as the range of a quantifier or in a membership test",
    "options": "options(...) is not translated (only the certificate of a game claim uses the moves)",
}
#: the Walnut form of every stored automaton (nimjos.lang.registry.STORED_AUTOMATON), whatever its name, as a term
STORED_WALNUT_FORM = Arithmetic._call_stored
