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

>>> from nimjos.spec.names import spec_namespace  # noqa: F401  (the docstring examples)
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
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from nimjos.games.declared import DeclaredGame, as_instance
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import NimjosError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import parse
from nimjos.spec.names import spec_namespace  # noqa: F401  (the docstring examples)

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

#: 2**e with e a number (not carried as 2**e) is a table of the exponents 0..MAX_EXPONENT, and Walnut checks
#: that e stays within it where the term is evaluated (an obligation)
MAX_EXPONENT = 30
#: that table, built once per run (p2tab(e, w): w = 2**e, e <= MAX_EXPONENT) instead of at every use (some
#: 35,000 states: only in runs that use it)
P2TAB = 'def p2tab "' + " | ".join(f"(e = {i} & w = {2 ** i})" for i in range(MAX_EXPONENT + 1)) + '";'


def library(commands: list[str]) -> list[str]:
    """The base-2 automata a run with these commands starts with: LIBRARY, and the table of 2**e if they use it.

    >>> len(library(['eval t "Ax x = x";'])) == len(LIBRARY), library(['def f "$p2tab(e,w)";'])[-1] == P2TAB
    (True, True)
    """
    return LIBRARY + ([P2TAB] if any("$p2tab(" in c for c in commands) else [])

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
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and isinstance(env.get(node.value.id), tuple):
            i = self.const(node.slice, env)
            items = env[node.value.id]
            if type(i) is not int or not -len(items) <= i < len(items):
                raise NotAutomatic(f"{_text(node)}: only a constant index of a position")
            return items[i]
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
                # n -> 2**n is not automatic; for a bounded n it is a finite table, exact where n <= MAX_EXPONENT
                self.oblige(unit, acc, f"{e} > {MAX_EXPONENT}",
                            f"2**{_text(R)}: the exponent is a number here (n -> 2**n is not automatic: only an "
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
        if isinstance(op, ast.Div):
            if cr is None or type(cr) not in (int, Fraction) or cr <= 0:
                raise NotAutomatic(f"division by {_text(R)} in {_text(node)}: only by positive constants")
            if type(cr) is not int:
                raise NotAutomatic(f"division by the fraction {cr} in {_text(node)}")
            self._factor(cr, node)
            a = self.int_term(L, env, unit, acc)
            w = self.fresh("w")
            self.oblige(unit, acc, f"~(E{w} {cr}*{w} = {a})", f"{_text(node)} may not be an integer (a fraction "
                        "used as a number)")
            q = self.fresh()
            acc.append((q, f"{cr}*{q} = {a}"))
            return q
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

    # ------------------------------------------------------------------ moves
    def natural_level(self, level: Any, nonneg: set) -> bool:
        """Does a binder level provably range over naturals (a constant lower bound >= 0, a non-negative name)?

        >>> from nimjos.lang.binders import Binder
        >>> ns = spec_namespace()
        >>> [Translator(ns).natural_level(lv, {"x"}) for lv in Binder(parse("x - 3 <= t <= x"), ns, {"x"}).levels]
        [False]
        >>> [Translator(ns).natural_level(lv, {"x"}) for lv in Binder(parse("1 <= t <= x"), ns, {"x"}).levels]
        [True]
        """
        if level.members is not None:
            try:
                vals = self.const(parse(level.member_text), {}) if level.member_text else None
            except NotAutomatic:
                return False
            return vals is not None and all(type(v) is int and v >= 0 for v in vals)
        for t in level.low_text:
            tree = parse(t)
            try:
                c = self.const(tree, {n: n for n in nonneg})
            except NotAutomatic:
                c = None
            if type(c) is int and c >= 0:
                return True
            if isinstance(tree, ast.Name) and tree.id in nonneg:
                return True
        return False

    def move(self, decl: Any, i: int, opt: list[str], pos: list[str], unit: Unit) -> str:
        """Move family i of a declared game as a formula in the option's terms `opt` and the position's `pos`:
        E bound names (where & opt = to); a move to a negative coordinate becomes an obligation."""
        fam = decl.moves[i]
        env = dict(zip(decl.position, pos))
        nonneg = set(decl.position)
        for level in fam.binder.levels:
            if not self.natural_level(level, nonneg):
                raise NotAutomatic(f"the bound name {level.name} of move {i + 1} ({fam.where_text}) may be negative "
                                   "(Walnut's numbers are the naturals)")
            nonneg.add(level.name)
        bound = [self.fresh("b") for _ in fam.binder.names]
        env.update(zip(fam.binder.names, bound))
        saved = list(unit.params)
        unit.params = saved + bound
        where = self.formula(parse(fam.where_text), env, unit) if fam.where_text else "0 = 0"
        unit.path.append(where)
        comps = fam.to_tree.elts if isinstance(fam.to_tree, ast.Tuple) else [fam.to_tree]
        if len(comps) != len(pos):
            raise NotAutomatic(f"move {i + 1} ({fam.to_text}) does not have {len(pos)} coordinates")
        eqs = []
        for j, c in enumerate(comps):
            acc: list = []
            cp, cn = self.linear(c, env, unit, acc)
            eqs.append(self.close(acc, self.relation([(Fraction(1), opt[j])] + cn, [], "=", cp, [], c)))
            if cn:   # a move to a negative coordinate is a fault of the declaration in nimjos
                self.oblige(unit, list(acc), self.relation(cp, [], "<", cn, [], c),
                            f"coordinate {j + 1} of {fam.to_text} may be negative")
        unit.path.pop()
        unit.params = saved
        return quant("E", bound, f"(({where}) & " + " & ".join(f"({e})" for e in eqs) + ")")

    def options_of(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> tuple[Any, list[str]] | None:
        """For ``options(game, position)`` (a [define] may wrap it): the declared game and the position's terms;
        None for other nodes."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            body = self._inline(node)
            if body is not None:
                return self.options_of(body, env, unit, acc)
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "options" and len(node.args) == 2):
            return None
        g = self.const(node.args[0], env)
        if g is None:
            raise NotAutomatic(f"the game of {_text(node)} depends on a quantified name")
        try:
            game = as_instance(g)
        except (NimjosError, TypeError, AttributeError) as exc:
            raise NotAutomatic(f"{_text(node.args[0])} is not a game: {exc}") from None
        if not isinstance(game, DeclaredGame):
            raise NotAutomatic(f"the built-in game {game.label} has no declared moves to translate")
        p = node.args[1]
        comps = p.elts if isinstance(p, ast.Tuple) else [p]
        if len(comps) != len(game.decl.position):
            raise NotAutomatic(f"{_text(p)} is not a position of {game.label}")
        return game, [self.int_term(c, env, unit, acc) for c in comps]

    def option_formula(self, game: Any, opt: list[str], pos: list[str], unit: Unit, acc: list) -> str:
        """opt is an option of pos in the game (its parameters fixed as constants while the moves translate);
        the constraints of acc (the fresh terms of opt and pos) hold on the path of the moves' obligations."""
        saved, params, depth = dict(self.consts), list(unit.params), len(unit.path)
        self.consts.update(game.params)
        unit.params = params + [v for v, _ in acc]
        unit.path += [c for _, c in acc if c is not None]
        try:
            fams = [self.move(game.decl, i, opt, pos, unit) for i in range(len(game.decl.moves))]
        finally:
            self.consts, unit.params = saved, params
            del unit.path[depth:]
        return "(" + " | ".join(f"({f})" for f in fams) + ")" if fams else "0 = 1"

    # ------------------------------------------------------------------ comprehensions
    def comprehension(self, node: ast.Call, env: dict, unit: Unit) -> str:
        """``all``/``any`` over a generator: ``for n in range(a, b)`` (an automatic bound; a logarithmic bound
        makes n a value carried as 2**n) or ``for h in options(game, position)``, with ``if`` conditions, as a
        universal or existential quantifier with the range (or the move) as its constraint."""
        gen = node.args[0]
        return self._generators(node.func.id == "all", gen.elt, list(gen.generators), env, unit, _text(node))

    def _generators(self, every: bool, elt: ast.AST, gens: list, env: dict, unit: Unit, text: str) -> str:
        if not gens:
            return self.formula(elt, env, unit)
        g, rest = gens[0], gens[1:]
        if g.is_async:
            raise NotAutomatic(f"an async comprehension in {text[:80]}")
        it = g.iter
        if isinstance(it, ast.Call) and getattr(it.func, "id", "") == "range" and 1 <= len(it.args) <= 2 \
                and not it.keywords:
            lo, hi = (it.args if len(it.args) == 2 else [ast.Constant(0), it.args[0]])
            if not (self.is_exp(hi, env) or self.is_exp(lo, env)):
                return self._range(every, g, lo, hi, False, elt, rest, env, unit, text)
            mark = len(unit.obligations)
            try:                            # below a logarithm: the index carried as 2**n ...
                return self._range(every, g, lo, hi, True, elt, rest, env, unit, text)
            except NotAutomatic as exc:     # ... or, when the body uses it as a number, kept a number
                if "used as a number" not in str(exc):
                    raise
                first = exc
                del unit.obligations[mark:]
            try:
                return self._range(every, g, lo, hi, False, elt, rest, env, unit, text)
            except NotAutomatic as exc:
                n = g.target.id if isinstance(g.target, ast.Name) else _text(g.target)
                raise NotAutomatic(f"{n} in {text[:120]} ranges below a logarithm ({_text(hi)}); carried as 2**{n}: "
                                   f"{first}; kept a number: {exc}") from None
        acc: list = []
        local = dict(env)
        saved = list(unit.params)
        opts = self.options_of(it, env, unit, acc)
        if opts is None:
            raise NotAutomatic(f"{'all' if every else 'any'}(...) over {_text(it)[:60]}: only range(a, b) with an "
                               "automatic bound and options(game, position) are translated")
        game, pos = opts
        names = self._targets(g.target)
        if len(names) not in (1, len(pos)):
            raise NotAutomatic(f"the target {_text(g.target)} does not unpack a position of {game.label}")
        opt = [self.fresh("o") for _ in pos]
        if len(names) == 1 and len(pos) > 1:
            local[names[0]] = tuple(opt)
        else:
            local.update(zip(names, opt if len(pos) > 1 else [opt[0]]))
        unit.params = saved + opt
        try:
            constraint = self.close(acc, self.option_formula(game, opt, pos, unit, acc))
            return self._quantified(every, opt, [constraint], g.ifs, elt, rest, local, unit, text)
        finally:
            unit.params = saved

    def _range(self, every: bool, g: ast.comprehension, lo: ast.AST, hi: ast.AST, carried: bool, elt: ast.AST,
               rest: list, env: dict, unit: Unit, text: str) -> str:
        """One ``for n in range(lo, hi)``: n carried as 2**n (carried) or a number. The upper bound of a number
        is translated last, with the body (any) or its negation (all) on the path of its obligations: a bound
        such as i < n (n carried as 2**n) is exact while i stays small where the body decides."""
        if not isinstance(g.target, ast.Name):
            raise NotAutomatic(f"range(...) unpacked into {_text(g.target)}")
        name, v = g.target.id, self.fresh("n")
        local = {**env, name: Exp(v) if carried else v}
        saved = list(unit.params)
        unit.params = saved + [v]
        try:
            if carried:
                bounds = self.formula(ast.Compare(lo, [ast.LtE(), ast.Lt()], [ast.Name(name), hi]), local, unit)
                return self._quantified(every, [v], [f"$pow2({v})", bounds], g.ifs, elt, rest, local, unit, text)
            low = self.formula(ast.Compare(lo, [ast.LtE()], [ast.Name(name)]), local, unit)
            return self._quantified(every, [v], [low], g.ifs, elt, rest, local, unit, text,
                                    last=ast.Compare(ast.Name(name), [ast.Lt()], [hi]))
        finally:
            unit.params = saved

    def _quantified(self, every: bool, qvars: list, guards: list, ifs: list, elt: ast.AST, rest: list, local: dict,
                    unit: Unit, text: str, last: ast.AST | None = None) -> str:
        """A over qvars (guards & ifs & last) => body, or E over qvars (guards & ifs & last & body)."""
        depth = len(unit.path)
        try:
            unit.path += guards
            conds = list(guards)
            for c in ifs:
                conds.append(self.formula(c, local, unit))
                unit.path.append(conds[-1])
            body = self._generators(every, elt, rest, local, unit, text)
            if last is not None:
                unit.path.append(f"~({body})" if every else body)
                conds.append(self.formula(last, local, unit))
        finally:
            del unit.path[depth:]
        guard = " & ".join(f"({c})" for c in conds)
        if every:
            return quant("A", qvars, f"(({guard}) => ({body}))")
        return quant("E", qvars, f"(({guard}) & ({body}))")

    @staticmethod
    def _targets(target: ast.AST) -> list[str]:
        if isinstance(target, ast.Name):
            return [target.id]
        if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
            return [e.id for e in target.elts]
        raise NotAutomatic(f"the comprehension target {_text(target)} is not a name or a tuple of names")

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
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("all", "any") and len(node.args) == 1 \
                and isinstance(node.args[0], ast.GeneratorExp):
            return self.comprehension(node, env, unit)
        raise NotAutomatic(f"{_text(node)[:80]} is not a first-order formula over msd_2")

    def atom(self, op: ast.cmpop, left: ast.AST, right: ast.AST, env: dict, unit: Unit) -> str:
        acc: list = []
        if isinstance(op, (ast.In, ast.NotIn)):
            f = self.close(acc, self.member(left, right, env, unit, acc))
            return f if isinstance(op, ast.In) else f"~({f})"
        if type(op) not in _CMP:
            raise NotAutomatic(f"the comparison {type(op).__name__} in {_text(left)} ... {_text(right)}")
        if isinstance(op, (ast.Eq, ast.NotEq)) and (_boolean(left) or _boolean(right)):
            a, b = self.formula(left, env, unit), self.formula(right, env, unit)
            same = f"((({a}) & ({b})) | (~({a}) & ~({b})))"
            return same if isinstance(op, ast.Eq) else f"~{same}"
        shifted = self._shift_atom(op, left, right, env, unit, acc)
        if shifted is not None:
            return self.close(acc, shifted)
        if self.is_exp(left, env) or self.is_exp(right, env):
            mark, tried = len(unit.obligations), []
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
        num_p = [(c, t) for c, t in pos if not isinstance(t, Exp)]
        num_n = [(c, t) for c, t in neg if not isinstance(t, Exp)]
        live = {t: c for t, c in net.items() if c != 0}
        if not live:
            return self.relation(num_p, [], op, num_n, [], node)
        if len(live) > 1 or abs(next(iter(live.values()))) != 1 or _lcm(num_p + num_n, Fraction(1)) != 1:
            raise NotAutomatic(f"{_text(node)}: a 2-adic or logarithmic value (v2, ilog2, an exponent) used as a number "
                               "with other such values or a factor: Walnut compares it with a number only alone")
        big, c = next(iter(live.items()))
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}
        # c = +1: e + P - N op 0  <=>  e op N - P;  c = -1: P - N - e op 0  <=>  e op' P - N
        a, b = (num_n, num_p) if c > 0 else (num_p, num_n)
        op = op if c > 0 else flip[op]
        A, B = _render(a), _render(b)
        d, w = self.fresh(), self.fresh()
        table = f"$p2tab({d},{w})"
        self.oblige(unit, acc + [(d, f"{d} + {B} = {A}")], f"{d} > {MAX_EXPONENT}",
                    f"{_text(node)}: a number compared with an exponent, exact only while the number is at most "
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

    def linear(self, node: ast.AST, env: dict, unit: Unit, acc: list, k: Fraction = Fraction(1)) -> tuple[list, list]:
        """A sum or difference as (positive parts, negative parts), each part (coefficient, Walnut term or None
        for the constant 1): rational constant factors and divisors multiplied in, ``floor``/``ceil`` of a ratio
        with a constant denominator (or ``// c``) exact also where the numerator is negative."""
        c = self.const(node, env)
        if c is not None:
            if type(c) not in (int, Fraction):
                raise NotAutomatic(f"{_text(node)} = {c!r} is not a rational number")
            c = Fraction(c) * k
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
            body = self._inline(node)
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

        >>> Translator(None).relation([(Fraction(1), "x")], [], "<=", [(Fraction(1, 2), "q")], [(Fraction(3), None)])
        '(2*x + 6) <= (q)'
        """
        left, right = lp + rn, rp + ln
        carried = [t for _, t in left + right if isinstance(t, Exp)]
        if carried:
            raise NotAutomatic(f"{_text(node) if node is not None else carried[0].t} is a 2-adic or logarithmic "
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
        if t.isdigit():                          # a constant c compared with an exponent: compare 2**c
            if int(t) > 30:
                raise NotAutomatic(f"2**{t} exceeds Walnut's 32-bit constants")
            return str(2 ** int(t))
        raise NotAutomatic(f"{_text(node)} compared with a v2/ilog2/exponent value: only constants and other such "
                           "values can be compared with those")


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
    """Is the node a condition by its form (a comparison, and/or/not, all/any, a boolean constant)?

    >>> _boolean(parse("x < y")), _boolean(parse("x + y"))
    (True, False)
    """
    if isinstance(node, (ast.Compare, ast.BoolOp)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    if isinstance(node, ast.Constant):
        return type(node.value) is bool
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("all", "any")


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
