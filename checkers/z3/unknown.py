"""Strong induction over an unknown function: a claim about every f of a family whose size is symbolic.

A claim may quantify over a function, ``f in nondecreasing(K, 1, V)`` or ``f in functions(K, lo, hi)``, with K
(and the bounds) names of the domain that are not bounded above: every nondecreasing f: {1..K} -> {1..V} for
every K and V is every nondecreasing f: N -> N, seen on the part of N a statement uses. The window enumerates
the small tables; the prover reads f as an *unknown* (uninterpreted) Z3 function constrained by exactly what the
family states and nothing else:

* ``functions(K, lo, hi)``: lo <= f(i) <= hi for 1 <= i <= K;
* ``nondecreasing(K, lo, hi)``: the same, and f(i) <= f(j) for 1 <= i <= j <= K (equivalent to
  f(1) <= f(2) <= ... <= f(K), the family's definition);

and each call f(i) carries the obligation 1 <= i <= K (outside it the language has no value: the claim would be
ill-defined there, and a proof that needs such a point is no proof). A proof then holds for every f of the class,
the tables of the window included. The scope says so ("for every f in nondecreasing(K, 1, V) (f an unknown
function)").

A sum over a symbolic range, ``sum(e(t) for t in range(a, b))``, becomes a recursive unknown S(a, b, c...) with
its defining equation S(a, b) = 0 for b <= a, S(a, b) = S(a, b - 1) + e(b - 1) otherwise (a Z3 recursive
function, unfolded on demand; c are the symbolic values e depends on). Facts about such sums for every n need
induction (``prove = { induction = "n" }``), which :mod:`checkers.prove.induction` allows for a statement with
such a sum even when it names no G.

>>> import z3
>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(spec_namespace(), mode="int")
>>> n, K = b.var("n"), b.var("K")
>>> f, axioms = unknown_function(b, "f", parse("nondecreasing(K, 1, 3)"), {"K": K})
>>> s = z3.Solver(ctx=b.ctx); s.set("rlimit", 10 ** 7)
>>> total = b.term(parse("sum(f(t) + 1 for t in range(1, n + 1))"), {"n": n, "f": f})
>>> s.add(*axioms, *b.assertions(), n == 3, n <= K, z3.Not(total >= f.fn(1) + 5))
>>> s.check()
unsat
"""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from typing import Any

import z3

from nimjos.lang.builtins import FiniteFunction
from nimjos.lang.syntax import parse   # the examples below build their trees with it
from checkers.z3.terms import Untranslatable, is_term

#: the built-in families of functions a claim may quantify over with a symbolic size
FAMILIES = ("functions", "nondecreasing")

#: unique names for the recursive functions of sums (a Z3 context keeps every declaration it was given)
_COUNTER = itertools.count()


@dataclass
class UnknownFunction:
    """A function of a family, as an uninterpreted Z3 function on 1..size (the size a Z3 term or a constant)."""

    name: str
    fn: Any
    size: Any
    family: str

    def apply(self, b: Any, args: tuple) -> Any:
        """f(i), with the obligation 1 <= i <= size (the language has no value outside it).

        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.z3.translate import Builder
        >>> b = Builder(spec_namespace(), mode="int")
        >>> f, _ = unknown_function(b, "f", parse("functions(4, 0, 1)"), {})
        >>> f.apply(b, (2,)), b.obligation()[1]
        (f!fn(2), ['an unknown function f called outside 1..its size'])
        """
        if len(args) != 1:
            raise Untranslatable(f"{self.name} takes one argument")
        i = b.to_term(args[0]) if is_term(args[0]) else b.const(args[0]) if type(args[0]) is int else None
        if i is None:
            raise Untranslatable(f"{self.name} called on a value that is not an integer")
        b.oblige(z3.And(i >= b.const(1), i <= b.to_term(self.size) if is_term(self.size) else i <= b.const(self.size)),
                 f"an unknown function {self.name} called outside 1..its size")
        return self.fn(i)


#: a model's unknown function is read back as a table of at most this many values
MAX_TABLE = 64


def table_of(m: Any, f: UnknownFunction) -> Any:
    """The table f(1), ..., f(K) of an unknown function in a Z3 model, as the language's finite function (so that a
    counterexample is re-evaluated exactly); Untranslatable when K is not a small number.

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int")
    >>> f, axioms = unknown_function(b, "f", parse("nondecreasing(3, 1, 2)"), {})
    >>> s = z3.Solver(ctx=b.ctx); s.add(*axioms, f.fn(2) == 2, f.fn(1) == 1); s.check()
    sat
    >>> table_of(s.model(), f)
    f[1,2,2]
    """
    size = m.eval(f.size, model_completion=True) if is_term(f.size) else f.size
    K = size.as_long() if z3.is_int_value(size) else size if type(size) is int else None
    if K is None or not 0 <= K <= MAX_TABLE:
        raise Untranslatable(f"the model's {f.name} has no small table")
    vals = [m.eval(f.fn(z3.IntVal(i, f.fn.ctx)), model_completion=True) for i in range(1, K + 1)]
    if not all(z3.is_int_value(v) for v in vals):
        raise Untranslatable(f"the model's {f.name} has values that are not integers")
    return FiniteFunction(tuple(v.as_long() for v in vals))


def family_call(tree: Any) -> bool:
    """Is `tree` a call of a family of functions (``nondecreasing(K, 1, V)``, ``functions(K, lo, hi)``)?

    >>> family_call(parse("nondecreasing(K, 1, V)")), family_call(parse("range(K)"))
    (True, False)
    """
    return isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in FAMILIES \
        and len(tree.args) == 3 and not tree.keywords


def unknown_function(b: Any, name: str, tree: ast.expr, env: dict) -> tuple[UnknownFunction, list]:
    """(the unknown function `name` of the family `tree` under `env`, the family's axioms as Z3 formulas).

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int")
    >>> f, axioms = unknown_function(b, "f", parse("nondecreasing(K, 1, V)"), {"K": b.var("K"), "V": b.var("V")})
    >>> f.family, len(axioms)
    ('nondecreasing(K, 1, V)', 3)
    """
    if b.mode != "int":
        raise Untranslatable("an unknown function is modelled over the integers only")
    size, lo, hi = _bounds(b, name, tree, env)
    I = z3.IntSort(b.ctx)
    fn = z3.Function(f"{name}!fn", I, I)
    axioms = _axioms(b, name, fn, tree.func.id, size, lo, hi)   # type: ignore[attr-defined]  # _bounds checked it
    b.abstractions.add(f"every {name} in {ast.unparse(tree)}")
    return UnknownFunction(name, fn, size, ast.unparse(tree)), axioms


def membership(b: Any, f: UnknownFunction, tree: ast.expr, env: dict) -> Any:
    """``f in family(...)`` for an unknown function f: its size is the family's and the family's axioms hold of it
    (what the domain states of f, as a formula: the proved class of a proof over f is then read as Z3 reads the
    domain).

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int")
    >>> K = b.var("K")
    >>> f, axioms = unknown_function(b, "f", parse("nondecreasing(K, 1, 3)"), {"K": K})
    >>> s = z3.Solver(ctx=b.ctx); s.set("rlimit", 10 ** 6)
    >>> s.add(*axioms, z3.Not(membership(b, f, parse("functions(K, 0, 3)"), {"K": K}))); s.check()
    unsat
    """
    size, lo, hi = _bounds(b, f.name, tree, env)
    return z3.And(b.to_term(f.size) == size if is_term(f.size) else size == f.size,
                  *_axioms(b, f.name, f.fn, tree.func.id, size, lo, hi))   # type: ignore[attr-defined]  # checked


def _bounds(b: Any, name: str, tree: ast.expr, env: dict) -> tuple:
    """The size and value bounds of a family call as Z3 terms (int world only)."""
    if b.mode != "int":
        raise Untranslatable("an unknown function is modelled over the integers only")
    if not family_call(tree):
        raise Untranslatable(f"{name} ranges over {ast.unparse(tree)}, not a family of functions")
    size, lo, hi = (b.to_term(v) if is_term(v) else b.const(v) if type(v) is int else None
                    for v in (b.term(a, env) for a in tree.args))   # type: ignore[attr-defined]  # a Call
    if size is None or lo is None or hi is None:
        raise Untranslatable(f"the family of {name} has bounds that are not integers")
    return size, lo, hi


def _axioms(b: Any, name: str, fn: Any, kind: str, size: Any, lo: Any, hi: Any) -> list:
    """What the family `kind` states of fn: its values in lo..hi on 1..size, and nondecreasing there for
    ``nondecreasing`` (f(i) <= f(j) for i <= j, equivalent to the adjacent steps, given both ways)."""
    i, j = z3.Int(f"{name}!i", b.ctx), z3.Int(f"{name}!j", b.ctx)
    out = [z3.ForAll([i], z3.Implies(z3.And(1 <= i, i <= size), z3.And(lo <= fn(i), fn(i) <= hi)), patterns=[fn(i)])]
    if kind == "nondecreasing":
        out.append(z3.ForAll([i], z3.Implies(z3.And(1 <= i, i < size), fn(i) <= fn(i + 1)), patterns=[fn(i)]))
        out.append(z3.ForAll([i, j], z3.Implies(z3.And(1 <= i, i <= j, j <= size), fn(i) <= fn(j)),
                             patterns=[z3.MultiPattern(fn(i), fn(j))]))
    return out


def symbolic_sum(b: Any, gen: ast.comprehension, elt: ast.expr, env: dict, lo: Any, hi: Any) -> Any:
    """``sum(elt for target in range(lo, hi))`` with a symbolic bound, as a recursive unknown S(lo, hi, c...)
    (see the module docstring); the terms' obligations (f's argument in range) must hold for every t in
    lo..hi - 1.

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int")
    >>> n = b.var("n")
    >>> t = b.term(parse("sum(2 * t + 1 for t in range(0, n))"), {"n": n})
    >>> s = z3.Solver(ctx=b.ctx); s.set("rlimit", 10 ** 7); s.add(z3.Not(z3.substitute(t, (n, z3.IntVal(4, b.ctx))) == 16)); s.check()
    unsat
    """
    if b.mode != "int":
        raise Untranslatable("a sum over a symbolic range (recursive sums are modelled over the integers only)")
    if gen.ifs or not isinstance(gen.target, ast.Name):
        raise Untranslatable("a sum over a symbolic range with a filter or an unpacked target")
    target = gen.target.id
    names = sorted(n for n in _names(elt) if n != target and n in env)
    captured = [n for n in names if is_term(env[n]) and not z3.is_bool(env[n])]
    for n in names:
        # the recursive function's definition is global: a value that holds Z3 terms (a lambda over a bound name,
        # a tuple) would put a quantified variable into it as a free constant; only terms themselves are passed
        if n not in captured and not isinstance(env[n], (int, bool, UnknownFunction)):
            raise Untranslatable(f"a sum over a symbolic range whose terms use {n} (not a number or an unknown function)")
    key = (ast.dump(elt), target, tuple((n, "term" if n in captured else _identity(env[n])) for n in names))
    sums = b.__dict__.setdefault("_sums", {})
    if key not in sums:
        I = z3.IntSort(b.ctx)
        k = next(_COUNTER)
        S = z3.RecFunction(f"sum!{k}", *([I] * (2 + len(captured))), I)
        p_lo, p_hi = z3.Int(f"sum!{k}!lo", b.ctx), z3.Int(f"sum!{k}!hi", b.ctx)
        params = [z3.Int(f"sum!{k}!{n}", b.ctx) for n in captured]
        inner = {**env, **dict(zip(captured, params)), target: p_hi - 1}
        mark = (len(b.scopes[-1].defs), len(b.scopes[-1].fresh), len(b.scopes[-1].obligations))
        term = b.term(elt, inner)
        top = b.scopes[-1]
        if (len(top.defs), len(top.fresh)) != mark[:2]:
            raise Untranslatable("a sum over a symbolic range whose terms need helper variables")
        del top.obligations[mark[2]:]   # stated below, for every index of the range at the call
        value = b.to_term(term) if is_term(term) else b.const(term) if type(term) is int else None
        if value is None:
            raise Untranslatable("a sum over a symbolic range of terms that are not integers")
        z3.RecAddDefinition(S, [p_lo, p_hi, *params], z3.If(p_hi <= p_lo, b.const(0), S(p_lo, p_hi - 1, *params) + value))
        sums[key] = (S, captured)
        b.abstractions.add("recursive sums")
    S, captured = sums[key]
    lo_t = b.to_term(lo) if is_term(lo) else b.const(lo)
    hi_t = b.to_term(hi) if is_term(hi) else b.const(hi)
    # the terms' obligations for every index of the range (the value is only translated for them)
    b.quantifier(False, [target], lambda vs: z3.And(vs[0] >= lo_t, vs[0] < hi_t),
                 lambda vs: (b.term(elt, {**env, target: vs[0]}), True)[1])
    return S(lo_t, hi_t, *[b.to_term(env[n]) for n in captured])


def _names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _identity(v: Any) -> str:
    """A key for a captured value that is not a term: constants by value, anything else by identity."""
    if isinstance(v, (int, bool)):
        return repr(v)
    if isinstance(v, UnknownFunction):
        return f"unknown {v.name} {v.fn}"
    return f"object {id(v)}"
