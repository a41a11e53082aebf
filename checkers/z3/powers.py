"""Powers of two with a symbolic exponent in the int world, beyond ``2 ** e`` itself: the 2-adic valuation
``v2(z)``, the odd part ``z // 2 ** v2(z)`` and ``ilog2(z)`` as unknown functions, constrained by facts that are
theorems about the real ones (never an approximation that could prove a falsehood):

* for z >= 1: ``v2(z) >= 0``, the odd part ``o(z)`` is odd and >= 1, ``z == o(z) * 2^v2(z)``, and
  ``z // 2^v2(z) == o(z)``, ``z % 2^v2(z) == 0`` (the division is exact);
* for z <= -1: ``v2(z) == v2(-z)`` and ``z // 2^v2(z) == -o(-z)``, ``z % 2^v2(z) == 0``;
* for z >= 1: ``ilog2(z) >= 0`` and ``2^ilog2(z) <= z < 2 * 2^ilog2(z)``.

``2^e`` is the abstracted ``pow2`` of :mod:`checkers.z3.arith`, with its own facts
(:mod:`checkers.z3.facts`). The real v2, odd part, ilog2 and 2^e satisfy every fact, so a query that is
unsat with them is unsat for the real functions: an ``unsat`` answer is a proof; a model must be re-evaluated
exactly (as every model of an abstraction is, :mod:`checkers.prove.instance`). v2(0) and ilog2 of z <= 0 stay
obligations (undefined). Being functions, not helper variables, they keep one value per argument inside
quantifiers too: a lemma that names the level ``h + 1 + ilog2(j - h)`` lends that level to the claim it proves.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
>>> z = b.var("z")
>>> t = b.term(parse("z // 2 ** v2(z)"), {"z": z})
>>> s = z3.Solver(ctx=b.ctx); s.add(*b.assertions(), z >= 1, t > z); s.check()   # the odd part is at most z
unsat
>>> s = z3.Solver(ctx=b.ctx); s.add(*b.assertions(), z == 12, t != 3); s.check()
unsat
>>> u = b.term(parse("ilog2(z)"), {"z": z})
>>> s = z3.Solver(ctx=b.ctx); s.add(*b.assertions(), z == 9, u != 3); s.check()
unsat
>>> sorted(b.abstractions)
['2^e', 'ilog2', 'v2']
"""
from __future__ import annotations

from typing import Any

import z3


def _function(b: Any, name: str) -> Any:
    if name not in b._powers:
        b._powers[name] = z3.Function(name, z3.IntSort(b.ctx), z3.IntSort(b.ctx))
    return b._powers[name]


def valuation(b: Any, t: Any) -> Any:
    """The term v2(t) of builder `b` (int world), its 2^v2(t) registered with the pow2 facts.

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
    >>> valuation(b, b.var("z") + 1)
    v2(z + 1)
    """
    _function(b, "oddpart")
    b.abstractions.add("v2")
    e = _function(b, "v2")(t)
    b.pow2(e)
    return e


def logarithm(b: Any, t: Any) -> Any:
    """The term ilog2(t) of builder `b` (int world), its 2^ilog2(t) registered with the pow2 facts.

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
    >>> logarithm(b, b.var("z"))
    ilog2(z)
    """
    b.abstractions.add("ilog2")
    e = _function(b, "ilog2")(t)
    b.pow2(e)
    return e


def power_facts(b: Any) -> list:
    """The facts of the module docstring, for the functions builder `b` uses (empty when none).

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
    >>> power_facts(b), len(power_facts((valuation(b, b.var("z")), b)[1]))
    ([], 2)
    """
    if not b._powers:
        return []   # no term is made: a query without these functions stays the same, node for node
    out = []
    p = b._pow2
    z = z3.Int("vz", b.ctx)
    if "v2" in b._powers:
        v, o = b._powers["v2"], b._powers["oddpart"]
        pz = p(v(z))
        out.append(z3.ForAll([z], z3.Implies(z >= 1, z3.And(
            v(z) >= 0, o(z) >= 1, o(z) % 2 == 1, z == o(z) * pz, z / pz == o(z), z % pz == 0)), patterns=[v(z)]))
        out.append(z3.ForAll([z], z3.Implies(z <= -1, z3.And(
            v(z) == v(-z), v(z) >= 0, o(-z) >= 1, o(-z) % 2 == 1, z == -o(-z) * pz, z / pz == -o(-z), z % pz == 0)),
            patterns=[v(z)]))
    if "ilog2" in b._powers:
        lg = b._powers["ilog2"]
        pz = p(lg(z))
        out.append(z3.ForAll([z], z3.Implies(z >= 1, z3.And(lg(z) >= 0, pz <= z, z < 2 * pz)), patterns=[lg(z)]))
    return out


def own_instance(b: Any, axiom: Any, bound: list[str], guard: Any, body: Any, at: dict | None) -> Any:
    """A used lemma (`axiom`, for every value of the names `bound` with `guard`, `body`) together with its instance
    at the claim's own values of those names (`at`, the claim's environment), when the claim has a symbolic value
    for each: an instance of a universal statement, so it adds nothing the axiom does not say, but Z3 meets the
    terms the lemma names there (the level ``h + 1 + ilog2(j - h)`` of a witness) without searching for the
    instance. The lemma's obligations there stay under its guard. `axiom` alone otherwise.

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.z3.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
    >>> x = b.var("x")
    >>> ax = b.quantifier(False, ["x"], lambda vs: vs[0] >= 0, lambda vs: vs[0] + 1 > 0)
    >>> own_instance(b, ax, ["x"], lambda vs: vs[0] >= 0, lambda vs: vs[0] + 1 > 0, {"x": x}).children()[1]
    Implies(x >= 0, x + 1 > 0)
    >>> own_instance(b, ax, ["x"], lambda vs: vs[0] >= 0, lambda vs: vs[0] + 1 > 0, {"x": 3}) is ax
    True
    """
    if at is None or not all(n in at and z3.is_expr(at[n]) and not z3.is_bool(at[n]) for n in bound):
        return axiom
    vs = [at[n] for n in bound]
    g = guard(vs)
    g = b.to_bool(g) if z3.is_expr(g) else z3.BoolVal(bool(g), b.ctx)
    b.path.append(g)
    try:
        v = body(vs)
    finally:
        b.path.pop()
    v = b.to_bool(v) if z3.is_expr(v) else z3.BoolVal(bool(v), b.ctx)
    return z3.And(axiom, z3.Implies(g, v))
