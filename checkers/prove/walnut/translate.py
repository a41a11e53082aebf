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
(``2**n``) is carried the same way. Anything else raises :class:`NotAutomatic` with the reason.

>>> from nimjos.spec.names import spec_namespace
>>> tr = Translator(spec_namespace(), {"h": 3})
>>> tr.formula(parse("x // h < 2"), {"x": "x"}, Unit([]))
'(Ev001,v002 (v002 < 3 & x = 3*v001 + v002) & (v001) < (2))'
>>> tr.formula(parse("x * y > 0"), {"x": "x", "y": "y"}, Unit([]))
Traceback (most recent call last):
...
checkers.prove.walnut.translate.NotAutomatic: multiplication of two variables in x * y (Walnut decides Presburger arithmetic: only multiplication by constants)
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import NimjosError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import parse

#: the base-2 automata every job starts with (reg automata take their arguments in the order written)
LIBRARY = [
    'reg xor msd_2 msd_2 msd_2 "([0,0,0]|[0,1,1]|[1,0,1]|[1,1,0])*";',
    'reg bitand msd_2 msd_2 msd_2 "([0,0,0]|[0,1,0]|[1,0,0]|[1,1,1])*";',
    'reg bitor msd_2 msd_2 msd_2 "([0,0,0]|[0,1,1]|[1,0,1]|[1,1,1])*";',
    'reg pow2 msd_2 "0*10*";',
    # low(n, p): p = 2^v2(n), n >= 1; lpow(n, p): p = 2^floor(log2 n), n >= 1
    'reg low msd_2 msd_2 "([0,0]|[1,0])*[1,1][0,0]*";',
    'reg lpow msd_2 msd_2 "[0,0]*[1,1]([0,0]|[1,0])*";',
    # jos(j, n): j = survivor(n, 2), J(n) = 2(n - 2^floor(log2 n)) + 1 (n >= 1), 0 at n = 0
    'def jos "(n = 0 & j = 0) | (n >= 1 & Ep $lpow(n,p) & j = 2*(n-p)+1)";',
]

#: c*x and x // c build automata of about c states
MAX_FACTOR = 10_000
#: Walnut's constants are 32-bit
MAX_CONSTANT = 2 ** 31 - 1
#: a constant set is written as a disjunction of at most this many members
MAX_MEMBERS = 256


class NotAutomatic(Exception):
    """The statement is outside what Walnut decides in msd_2; args[0] says precisely why."""


@dataclass
class Exp:
    """A value e carried as the Walnut term t = 2**e (e from v2, ilog2, or a name used only as an exponent)."""

    t: str


@dataclass
class Unit:
    """One def or query being translated: its parameters, the path condition and the obligations so far."""

    params: list
    obligations: list = field(default_factory=list)   # (closed Walnut formula to prove TRUE, why)
    path: list = field(default_factory=list)


_CMP = {ast.Eq: "=", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_LOG = {"v2": "low", "ilog2": "lpow"}


def _text(node: ast.AST) -> str:
    return ast.unparse(node)


def quant(q: str, names: list, body: str) -> str:
    """Quantify the names that occur in body (Walnut refuses a quantified name that does not occur).

    >>> quant("A", ["x", "y"], "x = 0")
    'Ax x = 0'
    """
    used = [v for v in names if re.search(rf"\b{re.escape(v)}\b", body)]
    return f"{q}{','.join(used)} {body}" if used else body


def pad(params: list, body: str) -> str:
    """Make every parameter occur (a def's arity counts the names that occur; ``z = z`` keeps one).

    >>> pad(["a", "b"], "a < 2")
    'a < 2 & a = a & b = b'
    """
    return body + "".join(f" & {z} = {z}" for z in params)


class _Subst(ast.NodeTransformer):
    def __init__(self, sub: dict):
        self.sub = sub

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.sub.get(node.id, node)


class Translator:
    """Translate trees of one claim: `consts` are the names fixed to values (parameters of one instance)."""

    def __init__(self, ns: Namespace, consts: dict | None = None):
        self.ns = ns
        self.consts = dict(consts or {})
        self.n = 0

    def fresh(self, stem: str = "v") -> str:
        self.n += 1
        return f"{stem}{self.n:03d}"

    # ------------------------------------------------------------------ constants
    def const(self, node: ast.AST, env: dict) -> Any:
        """The value of a subexpression free of symbolic names (nimjos' own semantics), else None."""
        if isinstance(node, ast.Constant):
            return node.value
        names = variables_of(node, self.ns)
        if any(n in env for n in names) or not all(n in self.consts for n in names):
            return None
        if any(isinstance(n, ast.Name) and n.id in env for n in ast.walk(node)):
            return None
        try:
            return compile_tree(node, self.ns, set(self.consts))(dict(self.consts))
        except (NimjosError, ZeroDivisionError, TypeError, ValueError) as exc:
            raise NotAutomatic(f"{_text(node)} cannot be evaluated: {exc}") from None

    def _nat(self, value: Any, node: ast.AST) -> str:
        if type(value) is bool or type(value) is not int:
            raise NotAutomatic(f"{_text(node)} = {value!r} is not a natural number")
        if value < 0:
            raise NotAutomatic(f"negative value {value} in {_text(node)}: Walnut's numbers are the naturals")
        if value > MAX_CONSTANT:
            raise NotAutomatic(f"constant {value} in {_text(node)} exceeds Walnut's 32-bit constants")
        return str(value)

    # ------------------------------------------------------------------ terms
    def term(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> Any:
        """A Walnut term (str), or an Exp, for an integer expression; constraints are appended to acc."""
        c = self.const(node, env)
        if c is not None:
            return self._nat(c, node)
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
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Tuple):
            items = [self.const(e, env) for e in node.value.elts]
            if any(type(i) is not int or i < 0 for i in items):
                raise NotAutomatic(f"indexing a tuple of non-constant values in {_text(node)}")
            i = self.int_term(node.slice, env, unit, acc)
            self.oblige(unit, acc, f"{i} >= {len(items)}", f"the index of {_text(node)} may be out of range")
            v = self.fresh()
            acc.append((v, "(" + " | ".join(f"({i} = {k} & {v} = {x})" for k, x in enumerate(items)) + ")"))
            return v
        raise NotAutomatic(f"{_text(node)} is not an automatic (msd_2) term")

    def int_term(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> str:
        t = self.term(node, env, unit, acc)
        if isinstance(t, Exp):
            raise NotAutomatic(f"{_text(node)} is a 2-adic or logarithmic value (v2, ilog2, an exponent) used as a "
                               "number: Walnut compares such values only with each other and with constants")
        return t

    def binop(self, node: ast.BinOp, env: dict, unit: Unit, acc: list) -> Any:
        op, L, R = node.op, node.left, node.right
        cl, cr = self.const(L, env), self.const(R, env)
        if isinstance(op, ast.Pow):
            if cl == 2:
                e = self.term(R, env, unit, acc)
                if isinstance(e, Exp):
                    return e.t
                raise NotAutomatic(f"2**{_text(R)} with a symbolic exponent that is also used as a number: "
                                   "n -> 2**n is not automatic (only exponents used nowhere else, v2 or ilog2)")
            if cr is not None:
                raise NotAutomatic(f"multiplication of two variables in {_text(node)} (a power of a variable)")
            raise NotAutomatic(f"the power {_text(node)} is not automatic")
        if isinstance(op, ast.Add):
            a, b = self.term(L, env, unit, acc), self.term(R, env, unit, acc)
            if isinstance(a, Exp) and type(cr) is int and cr >= 0:
                return Exp(f"{2 ** cr}*{a.t}")
            if isinstance(b, Exp) and type(cl) is int and cl >= 0:
                return Exp(f"{2 ** cl}*{b.t}")
            if isinstance(a, Exp) or isinstance(b, Exp):
                raise NotAutomatic(f"{_text(node)} adds a v2/ilog2/exponent value to a non-constant")
            return f"({a} + {b})"
        if isinstance(op, ast.Sub):
            a, b = self.int_term(L, env, unit, acc), self.int_term(R, env, unit, acc)
            d = self.fresh()
            self.oblige(unit, acc, f"{a} < {b}", f"{_text(node)} may be negative")
            acc.append((d, f"{d} + {b} = {a}"))
            return d
        if isinstance(op, ast.Mult):
            if cl is None and cr is None:
                raise NotAutomatic(f"multiplication of two variables in {_text(node)} (Walnut decides Presburger "
                                   "arithmetic: only multiplication by constants)")
            k, other = (cl, R) if cl is not None else (cr, L)
            self._factor(k, node)
            return f"{k}*{self.int_term(other, env, unit, acc)}"
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            if cr is None:
                raise NotAutomatic(f"division by a variable in {_text(node)} is not automatic")
            if type(cr) is not int or cr <= 0:
                raise NotAutomatic(f"division by {cr!r} in {_text(node)}: only positive integer divisors")
            self._factor(cr, node)
            a = self.int_term(L, env, unit, acc)
            q, r = self.fresh(), self.fresh()
            acc.append((q, None))                       # q and r are bound together by r's constraint
            acc.append((r, f"{r} < {cr} & {a} = {cr}*{q} + {r}"))
            return q if isinstance(op, ast.FloorDiv) else r
        if isinstance(op, (ast.BitOr, ast.BitAnd)):
            a, b = self.int_term(L, env, unit, acc), self.int_term(R, env, unit, acc)
            v = self.fresh()
            acc.append((v, f"${'bitor' if isinstance(op, ast.BitOr) else 'bitand'}({a},{b},{v})"))
            return v
        if isinstance(op, (ast.LShift, ast.RShift)):
            if type(cr) is not int or cr < 0:
                raise NotAutomatic(f"a shift by a symbolic amount in {_text(node)} is not automatic")
            if isinstance(op, ast.LShift):
                self._factor(2 ** cr, node)
                return f"{2 ** cr}*{self.int_term(L, env, unit, acc)}"
            return self.binop(ast.BinOp(L, ast.FloorDiv(), ast.Constant(2 ** cr)), env, unit, acc)
        raise NotAutomatic(f"{_text(node)} is not automatic in msd_2")

    def _factor(self, k: Any, node: ast.AST) -> None:
        if type(k) is not int or k < 0:
            raise NotAutomatic(f"the factor {k!r} in {_text(node)} is not a natural number")
        if k > MAX_FACTOR:
            raise NotAutomatic(f"the constant {k} in {_text(node)} exceeds {MAX_FACTOR} (its automaton has about "
                               "that many states)")

    def _inline(self, node: ast.Call) -> ast.AST | None:
        """The body of a [define] function with the call's arguments substituted, None for other calls."""
        d = self.ns.definitions.get(node.func.id)
        if d is None:
            return None
        if d.recursive:
            raise NotAutomatic(f"recursive definition {node.func.id} (Walnut does not unfold recursions)")
        if len(d.params) != len(node.args):
            raise NotAutomatic(f"{node.func.id} takes {len(d.params)} arguments")
        return _Subst(dict(zip(d.params, node.args))).visit(parse(d.text))

    def call(self, node: ast.Call, env: dict, unit: Unit, acc: list) -> Any:
        f, args = node.func.id, node.args
        body = self._inline(node)
        if body is not None:
            return self.term(body, env, unit, acc)
        if f == "xor" and args:
            cur = self.int_term(args[0], env, unit, acc)
            for a in args[1:]:
                t = self.int_term(a, env, unit, acc)
                v = self.fresh()
                acc.append((v, f"$xor({cur},{t},{v})"))
                cur = v
            return cur
        if f in ("min", "max") and len(args) >= 2:
            cur = self.int_term(args[0], env, unit, acc)
            lt = "<=" if f == "min" else ">="
            for a in args[1:]:
                t = self.int_term(a, env, unit, acc)
                v = self.fresh()
                acc.append((v, f"(({cur} {lt} {t} & {v} = {cur}) | (~({cur} {lt} {t}) & {v} = {t}))"))
                cur = v
            return cur
        if f == "abs" and len(args) == 1 and isinstance(args[0], ast.BinOp) and isinstance(args[0].op, ast.Sub):
            a = self.int_term(args[0].left, env, unit, acc)
            b = self.int_term(args[0].right, env, unit, acc)
            v = self.fresh()
            acc.append((v, f"(({a} >= {b} & {v} + {b} = {a}) | ({a} < {b} & {v} + {a} = {b}))"))
            return v
        if f in ("floor", "ceil") and len(args) == 1 and isinstance(args[0], ast.BinOp) \
                and isinstance(args[0].op, ast.Div):
            num, den = args[0].left, args[0].right
            if self.const(den, env) is None:
                raise NotAutomatic(f"{_text(node)}: a ratio with a variable denominator is not automatic")
            if f == "ceil":
                num = ast.BinOp(num, ast.Add(), ast.BinOp(den, ast.Sub(), ast.Constant(1)))
            return self.binop(ast.BinOp(num, ast.FloorDiv(), den), env, unit, acc)
        if f in _LOG and len(args) == 1:
            a = self.int_term(args[0], env, unit, acc)
            self.oblige(unit, acc, f"{a} = 0", f"{f}({_text(args[0])}) may be undefined (argument 0)")
            t = self.fresh()
            acc.append((t, f"${_LOG[f]}({a},{t})"))
            return Exp(t)
        if f == "survivor" and len(args) == 2:
            k = self.const(args[1], env)
            if k != 2:
                raise NotAutomatic(f"{_text(node)}: the Josephus survivor is automatic in base 2 only for k = 2 "
                                   "(J(n) = 2(n - 2^floor(log2 n)) + 1)")
            n = self.int_term(args[0], env, unit, acc)
            j = self.fresh()
            acc.append((j, f"$jos({j},{n})"))
            return j
        reasons = {"G": "G(...) is the Grundy function itself, with no closed form to translate",
                   "options": "options(...) is not translated (only the certificate of a game claim uses the moves)",
                   "popcount": "popcount is not automatic as a number", "isqrt": "isqrt is not automatic",
                   "gcd": "gcd is not automatic", "mex": "mex of a symbolic set is not translated"}
        raise NotAutomatic(f"{f}(...) in {_text(node)}: {reasons.get(f, 'no Walnut translation')}")

    # ------------------------------------------------------------------ formulas
    def close(self, acc: list, atom: str) -> str:
        """The atom with the constraints of its fresh variables, closed existentially."""
        if not acc:
            return atom
        cs = " & ".join(f"({c})" for _, c in acc if c is not None)
        return f"(E{','.join(v for v, _ in acc)} {cs} & {atom})"

    def oblige(self, unit: Unit, acc: list, bad: str, why: str) -> None:
        """Record: under the current path, `bad` (with the constraints so far) never happens."""
        path = " & ".join(f"({p})" for p in unit.path) or "0 = 0"
        unit.obligations.append((quant("A", unit.params, f"~({path} & {self.close(list(acc), bad)})"), why))

    def formula(self, node: ast.AST, env: dict, unit: Unit) -> str:
        """A Walnut formula for a condition (nimjos truthiness of comparisons, and, or, not, if)."""
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
            body = self._inline(node)
            if body is not None:
                return self.formula(body, env, unit)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("all", "any"):
            raise NotAutomatic(f"{node.func.id}(...) over a comprehension is not translated: {_text(node)[:80]}")
        raise NotAutomatic(f"{_text(node)[:80]} is not a first-order formula over msd_2")

    def atom(self, op: ast.cmpop, left: ast.AST, right: ast.AST, env: dict, unit: Unit) -> str:
        acc: list = []
        if isinstance(op, (ast.In, ast.NotIn)):
            f = self.close(acc, self.member(left, right, env, unit, acc))
            return f if isinstance(op, ast.In) else f"~({f})"
        if type(op) not in _CMP:
            raise NotAutomatic(f"the comparison {type(op).__name__} in {_text(left)} ... {_text(right)}")
        if self.is_exp(left, env) or self.is_exp(right, env):
            a, b = self.term(left, env, unit, acc), self.term(right, env, unit, acc)
            return self.close(acc, f"{self._exp_side(a, left)} {_CMP[type(op)]} {self._exp_side(b, right)}")
        # integer semantics, no negative intermediate: L+ - L- op R+ - R-  <=>  L+ + R- op R+ + L-
        lp, ln = self.linear(left, env, unit, acc)
        rp, rn = self.linear(right, env, unit, acc)
        return self.close(acc, f"{_sum(lp + rn)} {_CMP[type(op)]} {_sum(rp + ln)}")

    def member(self, left: ast.AST, right: ast.AST, env: dict, unit: Unit, acc: list) -> str:
        x = self.int_term(left, env, unit, acc)
        s = self.const(right, env)
        if s is not None:
            if isinstance(s, range) and s.step == 1:
                if len(s) == 0:
                    return "0 = 1"
                lo, hi = max(s.start, 0), s.stop - 1
                return f"({lo} <= {x} & {x} <= {self._nat(hi, right)})" if hi >= 0 else "0 = 1"
            if not isinstance(s, (set, frozenset, tuple, range)):
                raise NotAutomatic(f"membership in {_text(right)} (a predicate or {type(s).__name__}) is not translated")
            vals = sorted({v for v in s if type(v) is int and v >= 0})
            if len(vals) > MAX_MEMBERS:
                raise NotAutomatic(f"{_text(right)} has more than {MAX_MEMBERS} members")
            return "(" + " | ".join(f"{x} = {self._nat(v, right)}" for v in vals) + ")" if vals else "0 = 1"
        if isinstance(right, (ast.Set, ast.Tuple)):
            alts = [f"{x} = {self.int_term(e, env, unit, acc)}" for e in right.elts]
            return "(" + " | ".join(alts) + ")" if alts else "0 = 1"
        if isinstance(right, ast.Call) and getattr(right.func, "id", "") == "range" and len(right.args) == 2:
            a, b = (self.int_term(e, env, unit, acc) for e in right.args)
            return f"({a} <= {x} & {x} < {b})"
        raise NotAutomatic(f"membership in {_text(right)} (only constant sets, set literals and range(a, b))")

    def is_exp(self, node: ast.AST, env: dict) -> bool:
        """Does this term carry a value of the exponent domain (v2, ilog2, a name used only as an exponent)?"""
        if isinstance(node, ast.Name):
            return isinstance(env.get(node.id), Exp)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in _LOG:
                return True
            body = self._inline(node)
            return body is not None and self.is_exp(body, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.is_exp(node.left, env) or self.is_exp(node.right, env)
        return False

    def linear(self, node: ast.AST, env: dict, unit: Unit, acc: list, k: int = 1) -> tuple[list, list]:
        """A sum or difference as (positive terms, negative terms), constant factors multiplied in."""
        c = self.const(node, env)
        if c is not None:
            if type(c) is not int:
                raise NotAutomatic(f"{_text(node)} = {c!r} is not an integer")
            c *= k
            return ([self._nat(c, node)], []) if c >= 0 else ([], [self._nat(-c, node)])
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            ap, an = self.linear(node.left, env, unit, acc, k)
            bp, bn = self.linear(node.right, env, unit, acc, k)
            return (ap + bp, an + bn) if isinstance(node.op, ast.Add) else (ap + bn, an + bp)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            p, n = self.linear(node.operand, env, unit, acc, k)
            return n, p
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            cl, cr = self.const(node.left, env), self.const(node.right, env)
            if type(cl) is int and cl >= 0:
                return self.linear(node.right, env, unit, acc, k * cl)
            if type(cr) is int and cr >= 0:
                return self.linear(node.left, env, unit, acc, k * cr)
        t = self.int_term(node, env, unit, acc)
        if k != 1:
            self._factor(k, node)
            t = f"{k}*{t}"
        return [t], []

    def _exp_side(self, t: Any, node: ast.AST) -> str:
        if isinstance(t, Exp):
            return t.t
        if t.isdigit():                          # a constant c compared with an exponent: compare 2**c
            if int(t) > 30:
                raise NotAutomatic(f"2**{t} exceeds Walnut's 32-bit constants")
            return str(2 ** int(t))
        raise NotAutomatic(f"{_text(node)} compared with a v2/ilog2/exponent value: only constants and other such "
                           "values can be compared with those")


def _sum(ts: list) -> str:
    return "(" + " + ".join(ts) + ")" if ts else "0"
