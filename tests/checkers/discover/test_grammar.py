"""discover's grammar builds its candidates as trees (nimjos.lang.build), never as text it parses again, and prints
them with :func:`nimjos.lang.build.show` only for a reader: the text printed must mean the tree fitted, so that the
claim discover writes (which the loader parses) states the formula whose truth was computed on the table."""
from __future__ import annotations

import ast

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.discover import grammar
from nimjos.lang.build import (binary, call, compare, conjunction, constant, disjunction, integers, name, negation,
                               show)
from nimjos.lang.syntax import parse


LEAVES = st.one_of(st.sampled_from("xyn").map(name), st.integers(-5, 20).map(constant))
OPERATORS = st.sampled_from([ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr])
COMPARISONS = st.sampled_from([ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.GtE])
INTEGERS = st.recursive(LEAVES, lambda inner: st.one_of(
    st.builds(binary, inner, OPERATORS, inner),
    st.builds(lambda a, b: call("xor", a, b), inner, inner)), max_leaves=8)


def _conditions(inner):
    return st.one_of(
        st.builds(negation, inner),
        st.lists(inner, min_size=2, max_size=4).map(conjunction),
        st.lists(inner, min_size=2, max_size=4).map(disjunction))


CONDITIONS = st.recursive(st.one_of(
    st.builds(compare, INTEGERS, COMPARISONS, INTEGERS),
    st.builds(lambda a, vs: compare(a, ast.In, integers(vs)), INTEGERS, st.lists(st.integers(0, 9), min_size=1,
                                                                                 max_size=3))),
    _conditions, max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(st.one_of(INTEGERS, CONDITIONS))
def test_a_tree_printed_for_a_reader_parses_back_to_the_same_tree(tree):
    assert ast.dump(parse(show(tree))) == ast.dump(tree)


def test_every_tree_of_the_grammar_prints_as_the_same_tree():
    for names in (("n",), ("x", "y"), ("a", "b", "c")):
        trees = [*grammar.terms(names), *grammar.atoms(names), *grammar.residue_atoms(names, [5, 7])]
        for tree in trees:
            assert ast.dump(parse(show(tree))) == ast.dump(tree), show(tree)
    sides = [grammar.beatty_side("x", "y", floor, k) for floor, k in grammar.BEATTY]
    assert all(ast.dump(parse(show(t))) == ast.dump(t) for t in sides)


def test_the_printed_text_keeps_the_parentheses_a_reader_expects():
    texts = {show(a) for a in grammar.atoms(("x", "y"))}
    assert {"(x - y) & (x - y + 1) == 0", "x & (x + 1) == 0", "(x - 2 * y) % 3 == 1", "x & y == 0"} <= texts
    x, y, z = (a.ravel() for a in np.meshgrid(*[np.arange(6)] * 3, indexing="ij"))
    found = grammar.disjunctions(("x", "y", "z"), [x, y, z], (z == 0) | ((x < y) & (y == z)))
    assert show(found[0]) == "z == 0 or (x < y and y == z)"
    # a long conjunction prints without the parentheses ast.unparse (Python 3.11) puts around its third operand
    assert show(grammar.beatty_side("x", "y", "floor_sqrt2", 2)) == \
        "x <= y and (y - x) % 2 == 0 and x == floor_sqrt2((y - x) // 2)"


def test_a_fitted_formula_is_true_exactly_where_its_printed_text_is():
    """What the loader reads (the text) is what was fitted (the tree): evaluated from the parsed text, the same
    positions."""
    x, y = (a.ravel() for a in np.meshgrid(np.arange(12), np.arange(12), indexing="ij"))
    inside = ((x == y) & (x >= 2)) | ((x == 0) & (y == 1)) | ((x == 1) & (y == 0))
    for tree in grammar.with_exceptions(("x", "y"), [x, y], inside)[:3]:
        assert grammar.agrees(parse(show(tree)), ("x", "y"), [x, y], inside)
