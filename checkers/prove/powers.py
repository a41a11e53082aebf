"""Powers of two with a symbolic exponent in the int world, beyond ``2 ** e`` itself: the 2-adic valuation
``v2(z)`` and the odd part ``z // 2 ** v2(z)`` as unknown functions, constrained by facts that are theorems
about the real ones (never an approximation that could prove a falsehood):

* for z >= 1: ``v2(z) >= 0``, the odd part ``o(z)`` is odd and >= 1, ``z == o(z) * 2^v2(z)``, and
  ``z // 2^v2(z) == o(z)``, ``z % 2^v2(z) == 0`` (the division is exact);
* for z <= -1: ``v2(z) == v2(-z)`` and ``z // 2^v2(z) == -o(-z)``, ``z % 2^v2(z) == 0``.

``2^e`` is the abstracted ``pow2`` of :mod:`checkers.prove.arith`, with its own facts
(:mod:`checkers.prove.facts`). The real v2, odd part and 2^e satisfy every fact, so a query that is unsat with
them is unsat for the real functions: an ``unsat`` answer is a proof; a model must be re-evaluated exactly
(as every model of an abstraction is, :mod:`checkers.prove.instance`). v2(0) stays an obligation (undefined).

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.prove.translate import Builder
>>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
>>> z = b.var("z")
>>> t = b.term(parse("z // 2 ** v2(z)"), {"z": z})
>>> s = z3.Solver(ctx=b.ctx); s.add(*b.assertions(), z >= 1, t > z); s.check()   # the odd part is at most z
unsat
>>> s = z3.Solver(ctx=b.ctx); s.add(*b.assertions(), z == 12, t != 3); s.check()
unsat
>>> sorted(b.abstractions)
['2^e', 'v2']
"""
from __future__ import annotations

from typing import Any

import z3


def valuation(b: Any, t: Any) -> Any:
    """The term v2(t) of builder `b` (int world), its 2^v2(t) registered with the pow2 facts.

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.prove.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
    >>> valuation(b, b.var("z") + 1)
    v2(z + 1)
    """
    if b._v2 is None:
        b._v2 = (z3.Function("v2", z3.IntSort(b.ctx), z3.IntSort(b.ctx)),
                 z3.Function("oddpart", z3.IntSort(b.ctx), z3.IntSort(b.ctx)))
    b.abstractions.add("v2")
    e = b._v2[0](t)
    b.pow2(e)
    return e


def valuation_facts(b: Any) -> list:
    """The facts of the module docstring, for the v2 of builder `b` (empty when it has none).

    >>> from nimjos.spec.names import spec_namespace
    >>> from checkers.prove.translate import Builder
    >>> b = Builder(spec_namespace(), mode="int", ctx=z3.Context())
    >>> valuation_facts(b), len(valuation_facts((valuation(b, b.var("z")), b)[1]))
    ([], 2)
    """
    if b._v2 is None:
        return []
    v, o = b._v2
    p = b._pow2
    z = z3.Int("vz", b.ctx)
    pz = p(v(z))
    positive = z3.ForAll([z], z3.Implies(z >= 1, z3.And(
        v(z) >= 0, o(z) >= 1, o(z) % 2 == 1, z == o(z) * pz, z / pz == o(z), z % pz == 0)), patterns=[v(z)])
    negative = z3.ForAll([z], z3.Implies(z <= -1, z3.And(
        v(z) == v(-z), v(z) >= 0, o(-z) >= 1, o(-z) % 2 == 1, z == -o(-z) * pz, z / pz == -o(-z), z % pz == 0)),
        patterns=[v(z)])
    return [positive, negative]
