"""checkers.z3.facts.pair_facts makes the same Z3 nodes, with the same ids, as Z3's Python operators would.

Z3 numbers its nodes in the order they are made and orders operands by those numbers when it rewrites, so a
query built from the same formulas in another order of making can be searched differently: the fast path must
make exactly the nodes the operators make, in the same order.
"""
from __future__ import annotations

import itertools

import z3
from hypothesis import given, settings, strategies as st

from checkers.z3.facts import pair_facts


def by_operators(terms: list) -> list:
    """The facts written with Z3's Python operators (what pair_facts must equal)."""
    out = []
    for t, u in itertools.permutations(terms, 2):
        e, f = t.arg(0), u.arg(0)
        out.append(z3.Implies(z3.And(0 <= e, f == e + 1), u == 2 * t))
        for k in range(1, 5):
            out.append(z3.Implies(z3.And(0 <= e, f - e >= k), (1 << k) * t <= u))
    return out


def ids_in_order(facts: list) -> list[int]:
    """The id of every node of `facts`, depth first (each once)."""
    seen: set[int] = set()
    out: list[int] = []

    def walk(x: z3.ExprRef) -> None:
        if x.get_id() in seen:
            return
        seen.add(x.get_id())
        out.append(x.get_id())
        for c in x.children():
            walk(c)

    for f in facts:
        walk(f)
    return out


# an exponent: a variable, times 1 or 2, plus a constant
exponents = st.lists(st.tuples(st.sampled_from("xyz"), st.sampled_from([1, 2]), st.integers(-3, 3)),
                     max_size=7)


def build(spec: list, before: list) -> tuple[z3.Context, list, list]:
    """A fresh context; the nodes `before` made first (what a query made earlier), then the ground terms of
    `spec`, each once, as checkers.z3.facts._ground_apps finds them."""
    ctx = z3.Context()
    p = z3.Function("pow2", z3.IntSort(ctx), z3.IntSort(ctx))
    xs = {n: z3.Int(n, ctx) for n in "xyz"}
    earlier = [xs[n] + c if c else xs[n] for n, c in before]   # e.g. x + 1 made before the facts
    terms: dict[int, z3.ExprRef] = {}
    for n, m, c in spec:
        a = xs[n] if m == 1 else m * xs[n]
        t = p(a + c if c else a)
        terms.setdefault(t.get_id(), t)
    return ctx, list(terms.values()), earlier


@settings(max_examples=60, deadline=None)
@given(exponents, st.lists(st.tuples(st.sampled_from("xyz"), st.integers(0, 2)), max_size=3))
def test_the_same_nodes_made_in_the_same_order(spec: list, before: list) -> None:
    ctx, terms, _kept = build(spec, before)
    expected = by_operators(terms)
    ctx2, terms2, _kept2 = build(spec, before)
    got = pair_facts(terms2)
    assert [f.sexpr() for f in got] == [f.sexpr() for f in expected]
    assert ids_in_order(got) == ids_in_order(expected)
    # the next node made gets the same id in both contexts: neither made a node the other did not
    assert z3.Int("after", ctx2).get_id() == z3.Int("after", ctx).get_id()


def test_fewer_than_two_terms_give_no_facts() -> None:
    ctx = z3.Context()
    p = z3.Function("pow2", z3.IntSort(ctx), z3.IntSort(ctx))
    assert pair_facts([]) == [] and pair_facts([p(z3.Int("x", ctx))]) == []


def test_the_facts_hold_of_powers_of_two() -> None:
    """With pow2(a) = 2^a at each term's exponent, the facts cannot be false (Z3 finds no model)."""
    ctx = z3.Context()
    p = z3.Function("pow2", z3.IntSort(ctx), z3.IntSort(ctx))
    x = z3.Int("x", ctx)
    shifts = [0, 1, 3, 4]
    terms = [p(x + c) if c else p(x) for c in shifts]
    for v in range(4):
        s = z3.Solver(ctx=ctx)
        s.add(x == v, *[t == 2 ** (v + c) for t, c in zip(terms, shifts)])
        s.add(z3.Not(z3.And(*pair_facts(terms))))
        assert s.check() == z3.unsat
    # and a false fact would be caught: 2^(x + 1) is not 4 * 2^x
    s = z3.Solver(ctx=ctx)
    s.add(x == 0, *[t == 2 ** c for t, c in zip(terms, shifts)], terms[1] == 4 * terms[0])
    assert s.check() == z3.unsat
