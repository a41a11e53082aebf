"""Facts that hold of the abstracted symbols, for :class:`checkers.z3.translate.Builder` (a mixin): the laws
of ``pow2`` (2 ** e in the int world) and of the nim-sum ``xor``, their ground instances at the terms of a
query, and the facts about G of the games in use that a fact provider (a proved lemma) gives. Abstractions
only add models, so these facts (all true) are what lets an ``unsat`` answer be a proof.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(spec_namespace(), mode="int")
>>> e = b.var("e")
>>> t = b.term(parse("2 ** e + 2 ** (e + 1)"), {"e": e})
>>> len(b.facts()), len(b.ground_facts([t])), b.describe_abstractions()
(18, 14, 'abstracting 2^n')
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable

import z3

from checkers.z3.powers import power_facts


if TYPE_CHECKING:    # the Builder's other mixins, for the type checker (checkers.z3.host)
    from checkers.z3.host import BuilderHost as _Host
else:
    _Host = object


class AbstractionFacts(_Host):
    """The facts of :class:`checkers.z3.translate.Builder` (see the module docstring)."""

    def grundy_facts(self, formulas: list, lemma: Callable[[Any, Any, Any], tuple[Any, str]]) -> list:
        """Proved facts about G of the games in use, at each ground term G(t) of `formulas` (instances, so that no
        chain of instantiations runs away). `lemma(builder, fn, game)` is the fact provider (the prover passes
        the Maximum Nim rule-function lemma, checkers.prove.rule_function.facts): it returns ``(at, words)``, where
        ``at(*t)`` lists the facts at the arguments t (the position's coordinates) and `words` names the lemma, or ``(None, "")``."""
        out = []
        made = len(self.scopes[0].defs)   # a fact may name new quotients (floor(q / k), k symbolic): their definitions
        for key, (fn, game) in list(self.grundy.items()):
            if key not in self._grundy_facts:
                self._grundy_facts[key] = lemma(self, fn, game)
            at, words = self._grundy_facts[key]
            if at is None:
                continue
            terms = _ground_apps(formulas, fn)
            if terms:
                self.abstractions.update("lemma " + w for w in words.split("; "))
            for t in terms:
                out += at(*t.children())
        return out + self.scopes[0].defs[made:]


    def facts(self) -> list:
        """True facts about 2**e and the nim-sum, for the abstracted symbols in use."""
        out = []
        if self._pow2 is not None:
            p = self._pow2
            a, b = z3.Ints("pa pb", self.ctx)
            out.append(p(0) == 1)
            out.append(z3.ForAll([a], z3.Implies(a >= 0, z3.And(p(a) >= a + 1, p(a) >= 1)), patterns=[p(a)]))
            out.append(z3.ForAll([a, b], z3.Implies(z3.And(0 <= a, a < b), 2 * p(a) <= p(b)),
                                 patterns=[z3.MultiPattern(p(a), p(b))]))
            out.append(z3.ForAll([a, b], z3.Implies(z3.And(0 <= a, b == a + 1), p(b) == 2 * p(a)),
                                 patterns=[z3.MultiPattern(p(a), p(b))]))
            terms = self.pow2_terms
            for t in terms:
                e = t.arg(0)
                out.append(z3.Implies(e >= 0, z3.And(t >= e + 1, t >= 1)))
                out.append(z3.Implies(e == 0, t == 1))
            out += self.pow2_pair_facts(terms)
        out += power_facts(self)
        if self._xor is not None:
            x = self._xor
            a, b, c = z3.Ints("xa xb xc", self.ctx)
            nn = lambda *vs: z3.And(*[v >= 0 for v in vs])  # noqa: E731
            out += [
                z3.ForAll([a, b], z3.Implies(nn(a, b), z3.And(x(a, b) == x(b, a), x(a, b) >= 0)), patterns=[x(a, b)]),
                z3.ForAll([a], z3.Implies(nn(a), z3.And(x(a, 0) == a, x(a, a) == 0)), patterns=[x(a, a)]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(x(a, b), b) == a), patterns=[x(x(a, b), b)]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(b, x(a, b)) == a), patterns=[x(b, x(a, b))]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(x(a, b), a) == b), patterns=[x(x(a, b), a)]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(a, x(a, b)) == b), patterns=[x(a, x(a, b))]),
                z3.ForAll([a, b, c], z3.Implies(z3.And(nn(a, b, c), x(a, c) == x(b, c)), a == b),
                          patterns=[z3.MultiPattern(x(a, c), x(b, c))]),
                z3.ForAll([a, b, c], z3.Implies(z3.And(nn(a, b, c), x(c, a) == x(c, b)), a == b),
                          patterns=[z3.MultiPattern(x(c, a), x(c, b))]),
                z3.ForAll([a, b, c], z3.Implies(z3.And(nn(a, b, c), c < x(a, b)), z3.Or(x(c, b) < a, x(c, a) < b)),
                          patterns=[z3.MultiPattern(x(a, b), x(c, b))]),
            ]
        return out

    def pow2_pair_facts(self, terms: list) -> list:
        """Facts between two ground terms 2^e, 2^f: doubling, and 2^f >= 2^k * 2^e when f - e >= k (k <= 4)
        (:func:`pair_facts`)."""
        return pair_facts(terms)

    def ground_facts(self, formulas: list) -> list:
        """pow2 facts for every ground 2^e term in `formulas` (after skolemization, see :func:`cases`)."""
        if self._pow2 is None:
            return []
        found = _ground_apps(formulas, self._pow2)
        out = []
        for t in found:
            a = t.arg(0)
            out.append(z3.Implies(a >= 0, z3.And(t >= a + 1, t >= 1)))
            out.append(z3.Implies(a == 0, t == 1))
        return out + self.pow2_pair_facts(found)

    def describe_abstractions(self) -> str:
        """Words for the scope of a proof that used abstractions ('' when none)."""
        parts = []
        if "2^e" in self.abstractions:
            parts.append("abstracting 2^n")
        if "xor" in self.abstractions:
            parts.append("xor by its laws")
        unknown = sorted(a.split(" ", 1)[1] for a in self.abstractions if a.startswith("unknown "))
        if unknown:
            parts.append(", ".join(unknown) + " as unknown functions")
        return ", ".join(parts)


def _has_var(e: Any) -> bool:
    """Does a Z3 term mention a de Bruijn (bound) variable?"""
    if z3.is_var(e):
        return True
    if z3.is_quantifier(e):
        return True
    return any(_has_var(c) for c in e.children()) if z3.is_app(e) else False



def _ground_apps(formulas: list, fn: Any) -> list:
    """The applications of fn in `formulas` that mention no bound variable, each once."""
    found: dict = {}
    seen: set = set()

    def walk(e: Any) -> None:
        if e.get_id() in seen:
            return
        seen.add(e.get_id())
        if z3.is_app(e):
            if e.decl().eq(fn) and not _has_var(e):
                found[e.get_id()] = e
            for c in e.children():
                walk(c)
        elif z3.is_quantifier(e):
            walk(e.body())

    for f in formulas:
        walk(f)
    return list(found.values())


def pair_facts(terms: list) -> list:
    """For each ordered pair of ground terms t = 2^e, u = 2^f: ``e >= 0 and f == e + 1 -> u == 2 * t``, and
    ``e >= 0 and f - e >= k -> 2^k * t <= u`` for k = 1..4.

    There are 5 n (n - 1) facts for n terms, so they are made with Z3's C functions rather than its Python
    operators (which check and convert every operand): the calls come in the order the operators would make
    them, and a node this function made before is reused instead of asked for again (Z3 would return the same
    node), so the context gets the same nodes with the same ids as ``z3.Implies(z3.And(0 <= e, f == e + 1), u ==
    2 * t)`` and so on would give it (ids order Z3's rewriting: tests/checkers/z3/test_facts.py compares them).

    >>> ctx = z3.Context(); p = z3.Function("pow2", z3.IntSort(ctx), z3.IntSort(ctx)); x = z3.Int("x", ctx)
    >>> facts = pair_facts([p(x), p(x + 1)])
    >>> len(facts), facts[0].sexpr()
    (10, '(=> (and (>= x 0) (= (+ x 1) (+ x 1))) (= (pow2 (+ x 1)) (* 2 (pow2 x))))')
    """
    if len(terms) < 2:
        return []
    ctx = terms[0].ctx
    ref = ctx.ref()
    numerals: dict[int, Any] = {}
    args: dict[int, Any] = {}     # id of a term -> its argument (the exponent)
    made: dict[tuple, Any] = {}   # (id of t, what) -> a node about t alone, made for its first pair

    def num(v: int) -> Any:
        if v not in numerals:
            numerals[v] = z3.IntVal(v, ctx)
        return numerals[v]

    def arg(t: Any) -> Any:
        if t.get_id() not in args:
            args[t.get_id()] = t.arg(0)
        return args[t.get_id()]

    def nary(mk: Any, a: Any, b: Any) -> Any:   # add, sub, mul: Z3 takes an array of operands
        return z3.ArithRef(mk(ref, 2, (z3.Ast * 2)(a.as_ast(), b.as_ast())), ctx)

    def rel(mk: Any, a: Any, b: Any) -> Any:
        return z3.BoolRef(mk(ref, a.as_ast(), b.as_ast()), ctx)

    def both(a: Any, b: Any) -> Any:
        return z3.BoolRef(z3.Z3_mk_and(ref, 2, (z3.Ast * 2)(a.as_ast(), b.as_ast())), ctx)

    def of_t(t: Any, what: Any, build: Callable[[], Any]) -> Any:
        key = (t.get_id(), what)
        if key not in made:
            made[key] = build()
        return made[key]

    out = []
    for t, u in itertools.permutations(terms, 2):
        e, f = arg(t), arg(u)
        nonneg = of_t(t, ">= 0", lambda: rel(z3.Z3_mk_ge, e, num(0)))
        succ = of_t(t, "+ 1", lambda: nary(z3.Z3_mk_add, e, num(1)))
        cond = both(nonneg, rel(z3.Z3_mk_eq, f, succ))
        twice = of_t(t, 2, lambda: nary(z3.Z3_mk_mul, num(2), t))
        out.append(rel(z3.Z3_mk_implies, cond, rel(z3.Z3_mk_eq, u, twice)))
        gap = None
        for k in range(1, 5):
            if gap is None:
                gap = nary(z3.Z3_mk_sub, f, e)
            cond = both(nonneg, rel(z3.Z3_mk_ge, gap, num(k)))
            times = of_t(t, 1 << k, lambda: nary(z3.Z3_mk_mul, num(1 << k), t))
            out.append(rel(z3.Z3_mk_implies, cond, rel(z3.Z3_mk_le, times, u)))
    return out
