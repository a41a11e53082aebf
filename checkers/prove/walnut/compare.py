"""Comparisons and membership for :class:`checkers.prove.walnut.translate.Translator` (a mixin). A comparison
is rearranged so that no side is a difference (``a - b < c`` reads ``a < c + b``: integer semantics, also
for negative differences): each side becomes a linear sum of parts (coefficient, Walnut term), rational
factors and divisors multiplied in, ``floor`` and ``ceil`` of a ratio exact for any sign, like terms
cancelled, and a comparison the parts decide written as a constant. Values of the exponent domain (carried
as 2**value) are compared with each other and with constants, with a number alone through a table of 2**X,
and ``a // 2**e`` with a constant. Membership is in a constant set, a set literal, ``range(a, b)`` or the
options of a declared game.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.prove.walnut.logic import Unit
>>> from checkers.prove.walnut.translate import Translator
>>> Translator(spec_namespace()).formula(parse("x - y < 2 * z"), {"x": "x", "y": "y", "z": "z"}, Unit([]))
'(x) < (2*z + y)'
"""
from __future__ import annotations

import ast
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from checkers.prove.walnut.arith import is_condition
from checkers.prove.walnut.logic import (LOG_AUTOMATA, MAX_CONSTANT, MAX_EXPONENT, MAX_MEMBERS, Exp, LogarithmicAsNumber,
                                         NotAutomatic, Unit)

_CMP = {ast.Eq: "=", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


if TYPE_CHECKING:    # the Translator's other mixins, for the type checker (checkers.prove.walnut.host)
    from checkers.prove.walnut.host import TranslatorHost as _Host
else:
    _Host = object


class Comparisons(_Host):
    """The comparisons of :class:`checkers.prove.walnut.translate.Translator` (see the module docstring)."""

    def atom(self, op: ast.cmpop, left: ast.AST, right: ast.AST, env: dict, unit: Unit) -> str:
        """One comparison (or membership) `left op right` as a Walnut formula, its constraints closed.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(spec_namespace()).atom(ast.Lt(), parse("x"), parse("y - 1"), {"x": "x", "y": "y"}, Unit([]))
        '(x + 1) < (y)'
        """
        acc: list = []
        if isinstance(op, (ast.In, ast.NotIn)):
            f = self.close(acc, self.member(left, right, env, unit, acc))
            return f if isinstance(op, ast.In) else f"~({f})"
        if type(op) not in _CMP:
            raise NotAutomatic(f"the comparison {type(op).__name__} in {ast.unparse(left)} ... {ast.unparse(right)}")
        if isinstance(op, (ast.Eq, ast.NotEq)) and _boolean(left) and _boolean(right):
            a, b = self.formula(left, env, unit), self.formula(right, env, unit)
            same = f"((({a}) & ({b})) | (~({a}) & ~({b})))"
            return same if isinstance(op, ast.Eq) else f"~{same}"
        if isinstance(op, (ast.Eq, ast.NotEq)) and (isinstance(left, ast.Tuple) or isinstance(right, ast.Tuple)):
            return self._tuple_equality(op, left, right, env, unit)
        shifted = self._shift_atom(op, left, right, env, unit, acc) if self.num.name == "msd_2" else None
        if shifted is not None:
            return self.close(acc, shifted)
        if self.is_exp(left, env) or self.is_exp(right, env):
            mark = len(unit.obligations)
            tried: list[tuple[str, str | None]] = []      # (a fresh name, its constraint), as acc
            try:
                a, b = self.term(left, env, unit, tried), self.term(right, env, unit, tried)
                return self.close(acc + tried, f"{self._exp_side(a, left)} {_CMP[type(op)]} {self._exp_side(b, right)}")
            except NotAutomatic:            # a number on the other side: the mixed comparison below
                del unit.obligations[mark:]
        # integer semantics, no negative intermediate: L+ - L- op R+ - R-  <=>  L+ + R- op R+ + L-
        lp, ln = self.linear(left, env, unit, acc)
        rp, rn = self.linear(right, env, unit, acc)
        mixed = self._mixed(lp + rn, ln + rp, _CMP[type(op)], unit, acc, left)
        if mixed is not None:
            return self.close(acc, mixed)
        return self.close(acc, self.relation(lp, ln, _CMP[type(op)], rp, rn, left))

    def _tuple_equality(self, op: ast.cmpop, left: ast.AST, right: ast.AST, env: dict, unit: Unit) -> str:
        """``(a, b) == (c, d)`` of two tuples written out, of one length: every component equal (each evaluated,
        as the language evaluates both tuples before comparing them; no component on the path of another).

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(spec_namespace()).formula(parse("(x, y) != (y, 2)"), {"x": "x", "y": "y"}, Unit([]))
        '~(((x) = (y)) & ((y) = (2)))'
        """
        if not (isinstance(left, ast.Tuple) and isinstance(right, ast.Tuple) and len(left.elts) == len(right.elts)):
            raise NotAutomatic(f"{ast.unparse(left)[:80]} compared with {ast.unparse(right)[:80]}: only tuples written "
                               "out, of one length, are compared")
        parts = [self.atom(ast.Eq(), a, b, env, unit) for a, b in zip(left.elts, right.elts)]
        same = "(" + " & ".join(f"({p})" for p in parts) + ")" if parts else "0 = 0"
        return same if isinstance(op, ast.Eq) else f"~{same}"

    def _mixed(self, pos: list, neg: list, op: str, unit: Unit, acc: list, node: ast.AST) -> str | None:
        """pos - neg op 0 where one value e carried as E = 2**e occurs as a number (coefficient +-1), the rest
        numbers: e op X  <=>  E op 2**X (X >= 0; for X < 0 the answer is known), 2**X a table whose bound Walnut
        checks; None when no such value is left once equal terms cancel."""
        net: dict = {}
        for sign, parts in ((1, pos), (-1, neg)):
            for c, t in parts:
                if isinstance(t, Exp):
                    net[t.t] = net.get(t.t, 0) + sign * c
        if not net:
            return None
        self.needs("msd_2", f"{ast.unparse(node)}: a carried value compared with a number (the table of 2**X)")
        num_p = [(c, t) for c, t in pos if not isinstance(t, Exp)]
        num_n = [(c, t) for c, t in neg if not isinstance(t, Exp)]
        live = {t: c for t, c in net.items() if c != 0}
        if not live:
            return self.relation(num_p, [], op, num_n, [], node)
        if len(live) > 1 or abs(next(iter(live.values()))) != 1 or _lcm(num_p + num_n, Fraction(1)) != 1:
            raise LogarithmicAsNumber(f"{ast.unparse(node)}: a 2-adic or logarithmic value (v2, ilog2, an exponent) "
                                      "used as a number with other such values or a factor: Walnut compares it with a "
                                      "number only alone")
        big, c = next(iter(live.items()))
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}
        # c = +1: e + P - N op 0  <=>  e op N - P;  c = -1: P - N - e op 0  <=>  e op' P - N
        a, b = (num_n, num_p) if c > 0 else (num_p, num_n)
        op = op if c > 0 else flip[op]
        A, B = _render(a), _render(b)
        d, w = self.fresh(), self.fresh()
        table = f"$p2tab({d},{w})"
        self.oblige(unit, acc + [(d, f"{d} + {B} = {A}")], f"{d} > {MAX_EXPONENT}",
                    f"{ast.unparse(node)}: a number compared with an exponent, exact only while the number is at most "
                    f"{MAX_EXPONENT}")
        cmp = f"(E{d},{w} {d} + {B} = {A} & {table} & {big} {op} {w})"
        if op in ("<", "<=", "="):
            return f"(({A}) >= ({B}) & {cmp})"
        return f"(({A}) < ({B}) | {cmp})"

    def _shift_atom(self, op: ast.cmpop, left: ast.AST, right: ast.AST, env: dict, unit: Unit,
                    acc: list) -> str | None:
        """``a // 2**e op c`` (e a value carried as 2**e, c a constant): a shift by a variable amount is not
        automatic, its comparison with a constant is: a // T == c  <=>  c*T <= a < (c+1)*T."""
        flip = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}
        for side, other, o in ((left, right, type(op)), (right, left, flip.get(type(op)))):
            ratio = _ratio(side)
            if o is None or ratio is None or ratio[2]:
                continue
            den = ratio[1]
            if not (isinstance(den, ast.BinOp) and isinstance(den.op, ast.Pow) and self.const(den.left, env) == 2
                    and self.is_exp(den.right, env)):
                continue
            c = self.const(other, env)
            if type(c) is not int or c < 0:
                continue
            self._factor(c + 1, side)
            a = self.int_term(ratio[0], env, unit, acc)
            t = self.term(den, env, unit, acc)
            lo, hi = f"{_mul(c, t)}" if c else "0", _mul(c + 1, t)
            return {ast.Eq: f"({lo} <= {a} & {a} < {hi})", ast.NotEq: f"~({lo} <= {a} & {a} < {hi})",
                    ast.Lt: f"{a} < {lo}", ast.LtE: f"{a} < {hi}", ast.Gt: f"{a} >= {hi}", ast.GtE: f"{a} >= {lo}"}[o]
        return None

    def member(self, left: ast.AST, right: ast.AST, env: dict, unit: Unit, acc: list) -> str:
        """`left in right` as a Walnut formula (constraints of its terms appended to acc).

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(spec_namespace()).member(parse("x"), parse("{1, 3}"), {"x": "x"}, Unit([]), [])
        '(x = 1 | x = 3)'
        """
        opts = self.options_of(right, env, unit, acc)
        if opts is not None:
            game, pos = opts
            comps = left.elts if isinstance(left, ast.Tuple) else [left]
            if len(comps) != len(pos):
                return "0 = 1"
            return self.option_formula(game, [self.int_term(c, env, unit, acc) for c in comps], pos, unit, acc)
        x = self.int_term(left, env, unit, acc)
        s = self.const(right, env)
        if s is not None:
            if isinstance(s, range) and s.step == 1:
                if len(s) == 0:
                    return "0 = 1"
                lo, hi = max(s.start, 0), s.stop - 1
                return f"({lo} <= {x} & {x} <= {self._nat(hi, right)})" if hi >= 0 else "0 = 1"
            if not isinstance(s, (set, frozenset, tuple, range)):
                raise NotAutomatic(f"membership in {ast.unparse(right)} (a predicate or {type(s).__name__}) is not "
                                   "translated")
            vals = sorted(_naturals(s, right))
            if len(vals) > MAX_MEMBERS:
                raise NotAutomatic(f"{ast.unparse(right)} has more than {MAX_MEMBERS} members")
            return "(" + " | ".join(f"{x} = {self._nat(v, right)}" for v in vals) + ")" if vals else "0 = 1"
        if isinstance(right, (ast.Set, ast.Tuple)):
            alts = [f"{x} = {self.int_term(e, env, unit, acc)}" for e in right.elts]
            return "(" + " | ".join(alts) + ")" if alts else "0 = 1"
        if isinstance(right, ast.Call) and getattr(right.func, "id", "") == "range" and len(right.args) == 2:
            a, b = (self.int_term(self.strict(e, env, "range"), env, unit, acc) for e in right.args)
            return f"({a} <= {x} & {x} < {b})"
        raise NotAutomatic(f"membership in {ast.unparse(right)} (only constant sets, set literals and range(a, b))")

    def is_exp(self, node: ast.AST, env: dict) -> bool:
        """Does this term carry a value of the exponent domain (v2, ilog2, a name used only as an exponent)?

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> [Translator(spec_namespace()).is_exp(parse(t), {"x": "x"}) for t in ("v2(x) + 1", "x + 1")]
        [True, False]
        """
        if isinstance(node, ast.Name):
            return isinstance(env.get(node.id), Exp)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in LOG_AUTOMATA:
                return True
            body = self._inline(node)
            return body is not None and self.is_exp(body, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.is_exp(node.left, env) or self.is_exp(node.right, env)
        return False

    def linear(self, node: ast.AST, env: dict, unit: Unit, acc: list, k: Fraction = Fraction(1)) -> tuple[list, list]:
        """A sum or difference as (positive parts, negative parts), each part (coefficient, Walnut term or None
        for the constant 1): rational constant factors and divisors multiplied in, ``floor``/``ceil`` of a ratio
        with a constant denominator (or ``// c``) exact also where the numerator is negative.

        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(spec_namespace()).linear(parse("x / 2 - 3"), {"x": "x"}, Unit([]), [])
        ([(Fraction(1, 2), 'x')], [(Fraction(3, 1), None)])
        """
        c = self.const(node, env)
        if c is not None:
            if type(c) not in (int, Fraction, bool):
                raise NotAutomatic(f"{ast.unparse(node)} = {c!r} is not a rational number")
            c = Fraction(int(c) if type(c) is bool else c) * k
            return ([(c, None)], []) if c >= 0 else ([], [(-c, None)])
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            ap, an = self.linear(node.left, env, unit, acc, k)
            bp, bn = self.linear(node.right, env, unit, acc, k if isinstance(node.op, ast.Add) else -k)
            return ap + bp, an + bn
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return self.linear(node.operand, env, unit, acc, -k if isinstance(node.op, ast.USub) else k)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            cl, cr = self.const(node.left, env), self.const(node.right, env)
            if type(cl) in (int, Fraction):
                return self.linear(node.right, env, unit, acc, k * cl)
            if type(cr) in (int, Fraction):
                return self.linear(node.left, env, unit, acc, k * cr)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            d = self.const(node.right, env)
            if type(d) in (int, Fraction) and d != 0:
                return self.linear(node.left, env, unit, acc, k / d)
        ratio = _ratio(node)
        if ratio is not None:
            d = self.const(ratio[1], env)
            if type(d) in (int, Fraction) and d > 0:
                p, n = self._floor(ratio[0], d, ratio[2], env, unit, acc)
                return _scaled(p, n, k)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            body = self._inline(node, env, unit)
            if body is not None:
                return self.linear(body, env, unit, acc, k)
        t = self.term(node, env, unit, acc)      # an Exp part is resolved by _mixed or refused by relation
        return ([(k, t)], []) if k >= 0 else ([], [(-k, t)])

    def _floor(self, num: ast.AST, d: Fraction, ceil: bool, env: dict, unit: Unit, acc: list) -> tuple[list, list]:
        """floor(num / d) (or ceil) as (positive, negative) parts: fresh naturals qp - qn, exact for any sign."""
        p, n = self.linear(num, env, unit, acc)
        if ceil:                                        # ceil(a / d) = -floor(-a / d)
            p, n = n, p
        p, n = [(Fraction(c) / d, t) for c, t in p], [(Fraction(c) / d, t) for c, t in n]
        D = _lcm(p + n, Fraction(1))         # floor(a / d) = floor(B / D), B = D * a / d with natural coefficients
        P, N = _render([(c * D, t) for c, t in p]), _render([(c * D, t) for c, t in n])
        self._factor(D, num)
        parts: tuple[list, list]
        if not n:
            q, r = self.fresh(), self.fresh()
            acc.append((q, None))
            acc.append((r, f"{r} < {D} & {P} = {_mul(D, q)} + {r}"))
            parts = ([(Fraction(1), q)], [])
        else:
            qp, qn = self.fresh(), self.fresh()
            acc.append((qp, None))
            acc.append((qn, f"(({P} >= {N} & {qn} = 0 & {_mul(D, qp)} + {N} <= {P} & {P} < {_mul(D, qp)} + {D} + {N}) | "
                            f"({P} < {N} & {qp} = 0 & {N} <= {_mul(D, qn)} + {P} & {_mul(D, qn)} + {P} < {N} + {D}))"))
            parts = ([(Fraction(1), qp)], [(Fraction(1), qn)])
        return (parts[1], parts[0]) if ceil else parts

    def relation(self, lp: list, ln: list, op: str, rp: list, rn: list, node: ast.AST | None = None) -> str:
        """L op R for L = lp - ln, R = rp - rn (parts from :meth:`linear`), with no negative intermediate:
        lp + rn op rp + ln, multiplied by the denominators' lcm.

        >>> from checkers.prove.walnut.translate import Translator
        >>> Translator(None).relation([(Fraction(1), "x")], [], "<=", [(Fraction(1, 2), "q")], [(Fraction(3), None)])
        '(2*x + 6) <= (q)'
        """
        left, right = lp + rn, rp + ln
        carried = [t for _, t in left + right if isinstance(t, Exp)]
        if carried:
            raise LogarithmicAsNumber(f"{ast.unparse(node) if node is not None else carried[0].t} is a 2-adic or logarithmic "
                               "value (v2, ilog2, an exponent) used as a number: Walnut compares such values only "
                               "with each other, with constants and alone with a number")
        D = _lcm(left + right, Fraction(1))
        left, right = _cancel([(c * D, t) for c, t in left], [(c * D, t) for c, t in right])
        known = _decided(left, op, right)
        if known is not None:
            return "0 = 0" if known else "0 = 1"
        for c, t in left + right:
            if t is not None and c > 1:
                self._factor(int(c), node if node is not None else ast.Constant(int(c)))
            elif t is None and c > MAX_CONSTANT:
                raise NotAutomatic(f"constant {c} exceeds Walnut's 32-bit constants")
        return f"({_render(left)}) {op} ({_render(right)})"

    def _exp_side(self, t: Any, node: ast.AST) -> str:
        if isinstance(t, Exp):
            return t.t
        if t.isdigit():                          # a constant c compared with an exponent: compare 2**c (in msd_2)
            if int(t) > 30:                      # or the place 1 followed by c zeros (its numeration)
                raise NotAutomatic(f"the place of digit {t} exceeds Walnut's 32-bit constants")
            return str(self.num.places(int(t) + 1)[-1])
        raise NotAutomatic(f"{ast.unparse(node)} compared with a v2/ilog2/exponent value: only constants and other "
                           "such values can be compared with those")


def _cancel(left: list, right: list) -> tuple[list, list]:
    """Both sides of a comparison with like terms collected and cancelled (each side keeps natural
    coefficients): Walnut builds c*x as an automaton of about c states, so ``8192*x + 2*x >= 4*x + 2*x``
    costs some 10^5 states where ``8188*x >= 0`` needs none.

    >>> _cancel([(Fraction(8192), "x"), (Fraction(2), "x"), (Fraction(5), None)], [(Fraction(6), "x"), (Fraction(1), "y"), (Fraction(7), None)])
    ([(Fraction(8188, 1), 'x')], [(Fraction(1, 1), 'y'), (Fraction(2, 1), None)])
    """
    net: dict = {}
    for sign, parts in ((1, left), (-1, right)):
        for c, t in parts:
            net[t] = net.get(t, 0) + sign * c
    const = net.pop(None, 0)
    out_l = [(c, t) for t, c in net.items() if c > 0] + ([(const, None)] if const > 0 else [])
    out_r = [(-c, t) for t, c in net.items() if c < 0] + ([(-const, None)] if const < 0 else [])
    return out_l, out_r


def _decided(left: list, op: str, right: list) -> bool | None:
    """The truth of L op R when the parts (natural coefficients of natural terms) decide it: a side that is
    only a constant c against a side whose non-constant terms are naturals (L >= c when L's own constant is
    at least c), else None.

    >>> _decided([(Fraction(3), "x")], ">=", []), _decided([(Fraction(3), "x")], "<", []), _decided([(1, "x")], ">", [])
    (True, False, None)
    """
    def const(parts: list) -> int:
        return sum(c for c, t in parts if t is None)
    vl, vr = [t for _, t in left if t is not None], [t for _, t in right if t is not None]
    cl, cr = const(left), const(right)
    if not vl and not vr:
        return {"=": cl == cr, "!=": cl != cr, "<": cl < cr, "<=": cl <= cr, ">": cl > cr, ">=": cl >= cr}[op]
    if not vr and cl >= cr:             # L (at least cl) op cr
        return {">=": True, "<": False}.get(op) if cl == cr else {">=": True, ">": True, "<": False,
                                                                    "<=": False, "=": False, "!=": True}[op]
    if not vl and cr >= cl:             # cl op R (R at least cr)
        return {"<=": True, ">": False}.get(op) if cl == cr else {"<=": True, "<": True, ">": False,
                                                                    ">=": False, "=": False, "!=": True}[op]
    return None


def _boolean(node: ast.AST) -> bool:
    """Is the node a condition by its form (a comparison, and/or/not, all/any, a boolean constant)? Two of them
    compared with == are equivalent conditions; a condition compared with a number is its 0 or 1.

    >>> from nimjos.lang.syntax import parse
    >>> _boolean(parse("x < y")), _boolean(parse("x + y")), _boolean(parse("True"))
    (True, False, True)
    """
    if isinstance(node, ast.Constant):
        return type(node.value) is bool
    return is_condition(node)


def _naturals(values: Any, node: ast.AST) -> set:
    """The naturals a (natural) number can equal among the members of a constant set: a boolean is 0 or 1 and a
    fraction with denominator 1 its integer, as in the language (True == 1); negative numbers, other fractions
    and tuples equal no natural; any other member is refused.

    >>> from nimjos.lang.syntax import parse
    >>> sorted(_naturals({True, 3, -2, Fraction(4, 1), Fraction(1, 2), (1, 2)}, parse("S")))
    [1, 3, 4]
    """
    out = set()
    for v in values:
        if type(v) is bool:
            out.add(int(v))
        elif type(v) is int:
            if v >= 0:
                out.add(v)
        elif type(v) is Fraction:
            if v.denominator == 1 and v >= 0:
                out.add(int(v))
        elif not isinstance(v, tuple):
            raise NotAutomatic(f"the member {v!r} of {ast.unparse(node)} is not a number")
    return out


def _ratio(node: ast.AST) -> tuple[ast.AST, ast.AST, bool] | None:
    """(numerator, denominator, is ceil) of floor(a / b), ceil(a / b) or a // b, else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        return node.left, node.right, False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("floor", "ceil") \
            and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) and isinstance(node.args[0].op, ast.Div):
        return node.args[0].left, node.args[0].right, node.func.id == "ceil"
    return None


def _scaled(p: list, n: list, k: Fraction) -> tuple[list, list]:
    """Parts multiplied by k (a negative k swaps the sides)."""
    p, n = [(c * abs(k), t) for c, t in p], [(c * abs(k), t) for c, t in n]
    return (p, n) if k >= 0 else (n, p)


def _lcm(parts: list, extra: Fraction) -> int:
    """The lcm of the denominators of the parts' coefficients (and of extra)."""
    out = Fraction(extra).denominator
    for c, _ in parts:
        out = math.lcm(out, Fraction(c).denominator)
    return out


def _mul(c: Any, t: str) -> str:
    return t if c == 1 else f"{c}*{t}"


def _render(parts: list) -> str:
    """A sum of parts with natural coefficients as a Walnut term ('0' when empty).

    >>> _render([(Fraction(2), "x"), (Fraction(1), "y"), (Fraction(3), None)])
    '2*x + y + 3'
    """
    out = []
    for c, t in parts:
        c = int(c)
        if t is None:
            if c:
                out.append(str(c))
        elif c:
            out.append(_mul(c, t))
    return " + ".join(out) or "0"
