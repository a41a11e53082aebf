"""The Z3 helpers of every method that asks Z3: the split of a condition into cases, and reading a value from a
model (the prover's attempt at a query is :class:`checkers.prove.attempt.Context`).

>>> x = z3.Int("x"); s = z3.Solver(); s.add(x == 7); _ = s.check()
>>> model_value(s.model(), x - 1)
6
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Iterator

import z3

from nimjos.lang.runtime import norm
from checkers.z3.terms import Untranslatable, is_term

def cases(f: Any, names: Iterator[int], limit: int = 64) -> list:
    """Split a condition into disjuncts, pushing positive existentials outward as fresh constants (numbered by
    `names`, the attempt's counter): f holds iff some returned case holds for some values of the fresh
    constants. Used to split a query into simpler ones (at most `limit` cases, else f itself).

    >>> x = z3.Int("x")
    >>> len(cases(z3.Or(x == 1, z3.Exists([z3.Int("n")], z3.Or(x == z3.Int("n"), x == 2))), itertools.count()))
    3
    """
    if z3.is_quantifier(f) and f.is_exists():
        consts = [z3.Const(f"{f.var_name(i)}!s{next(names)}", f.var_sort(i)) for i in range(f.num_vars())]
        body = z3.substitute_vars(f.body(), *reversed(consts))
        return cases(body, names, limit)
    if z3.is_or(f):
        out = []
        for c in f.children():
            out += cases(c, names, limit)
            if len(out) > limit:
                return [f]
        return out
    if z3.is_and(f):
        parts = [cases(c, names, limit) for c in f.children()]
        total = 1
        for p in parts:
            total *= len(p)
        if total > limit:
            return [z3.And(*[z3.Or(*p) if len(p) > 1 else p[0] for p in parts])]
        return [z3.And(*combo) for combo in itertools.product(*parts)]
    return [f]



def model_value(model: z3.ModelRef, term: Any) -> Any:
    """The integer value of a term in a model (bit-vectors read as signed), or the constant itself.

    >>> x = z3.Int("x"); s = z3.Solver(); s.add(x == 7); _ = s.check()
    >>> model_value(s.model(), x + 1), model_value(s.model(), (1, x))
    (8, (1, 7))
    """
    if isinstance(term, tuple):
        return tuple(model_value(model, t) for t in term)
    if not is_term(term):
        return term
    v = model.eval(term, model_completion=True)
    if z3.is_bv_value(v):
        return v.as_signed_long()
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        return norm(Fraction(v.numerator_as_long(), v.denominator_as_long()))
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    raise Untranslatable(f"cannot read {v} from a model")
