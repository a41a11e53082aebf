"""The one inliner of definitions (nimjos/lang/inline.py) on the cases where a careless substitution captures a name:
a body that binds the name its caller passes, a parameter shadowed inside the body, nested definitions, a lambda
argument, and an argument the body never evaluates. Each statement is checked against the scalar language through
every backend that translates it: the vectorised evaluator (its values), Z3 (at points, and its proof verdict against
the window's), Walnut (one run for the batch: the automaton against the window, and its proofs)."""
from __future__ import annotations

import ast
import itertools

import pytest
import z3

from checkers.z3.budget import Budget, check
from checkers.z3.terms import Untranslatable
from checkers.z3.translate import Builder
from checkers.prove.walnut.logic import NotAutomatic, Unit
from checkers.prove.walnut.translate import Translator
from nimjos.lang.errors import NimjosError
from nimjos.lang.inline import names_in, rename_definition, substitute_call, unevaluated_arguments
from nimjos.lang.syntax import parse

from conformance.backends import check_vector, check_walnut, check_z3
from conformance.reference import SKIP, UNDEFINED, make

#: (name, [define] table, statement over x and y, whether it holds at every point of the window and beyond)
CASES = [
    # the body binds y in a comprehension; the caller passes its own y
    ("body binds the argument's name", {"f(x)": "any(x == y + 1 for y in range(3))"},
     "f(y) == (1 <= y and y <= 3)", True),
    # the parameter x is shadowed by the comprehension's x: not replaced inside it (its range is read outside)
    ("parameter shadowed in the body", {"h(x)": "any(x == 2 for x in range(x))"}, "h(y + 1) == (y >= 2)", True),
    # nested definitions: outer's parameter i is passed into inner, whose body binds i
    ("nested definitions", {"inner(j)": "any(j == i for i in range(3))",
                            "outer(i)": "inner(i + 1) and all(i != j for j in range(1))"},
     "outer(x) == (x == 1 or x == -1)", True),
    # a lambda argument whose free y is the caller's; the body has a parameter y and binds i, the lambda's name
    ("lambda argument", {"ap(p, y)": "any(p(y) == i for i in range(2))"},
     "ap(lambda i: i + y, x) == (0 <= x + y and x + y <= 1)", True),
    # an argument the body never evaluates: the language evaluates it (v2(0) has no value), so nothing is proved
    ("unused ill-defined argument", {"first(a, b)": "a"}, "first(x, v2(x - x)) == x", False),
    # an argument evaluated only on one branch of the body: undefined at every point all the same
    ("argument on one branch", {"pick(a, b)": "a if a >= 0 else b"}, "pick(x, v2(y - y)) == x or True", False),
]
WINDOW = [{"x": x, "y": y} for x, y in itertools.product(range(-6, 7), repeat=2)]
NATURALS = [{"x": x, "y": y} for x, y in itertools.product(range(16), repeat=2)]


def _holds_on(table: dict, text: str, points: list) -> bool:
    ref = make(table, text)
    return all(ref.at(p) is True for p in points if ref.at(p) is not SKIP)


def _z3_proves(table: dict, text: str, mode: str = "int") -> bool | None:
    """The prover's question (checkers/prove/attempt.py): is ``facts & (not goal or not obligations)`` unsatisfiable
    for every x, y? None when the translation refuses."""
    ref = make(table, text)
    b = Builder(ref.ns, mode, 36)
    try:
        goal = b.formula(ref.tree, {"x": b.var("x"), "y": b.var("y")})
        ob, _ = b.obligation()
        facts = b.assertions()
    except (Untranslatable, NimjosError):
        return None
    s = z3.Solver()
    s.add(*facts)
    s.add(z3.Or(z3.Not(goal), z3.Not(ob)))
    return check(Budget.seconds(2.0), s) == z3.unsat


@pytest.mark.parametrize("name, table, text, true", CASES, ids=[c[0] for c in CASES])
def test_the_scalar_language_reads_the_case_as_stated(name, table, text, true):
    assert _holds_on(table, text, WINDOW) is true


@pytest.mark.parametrize("name, table, text, true", CASES, ids=[c[0] for c in CASES])
def test_vectorised_agrees(name, table, text, true):
    assert check_vector(table, text, [(p["x"], p["y"]) for p in WINDOW]) in ("compared", "refused")
    if true:   # the vectorised evaluator evaluates these (a refusal would hide nothing, but it does not refuse them)
        assert check_vector(table, text, [(p["x"], p["y"]) for p in WINDOW]) == "compared"


@pytest.mark.parametrize("name, table, text, true", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("mode", ["int", "bv"])
def test_z3_agrees_at_points_and_proves_only_what_the_window_does_not_refute(name, table, text, true, mode):
    check_z3(table, text, WINDOW[::7], mode, 16)
    proved = _z3_proves(table, text, mode)
    if not true:
        assert proved is not True, f"Z3 proves {text!r}, which the window refutes (no value at x = y = 0)"
    elif mode == "int":   # the bit-vector world may overflow in y + 1: its obligations are not all provable
        assert proved is True, f"Z3 does not prove {text!r} ({'refused' if proved is None else 'not unsat'})"


def test_walnut_agrees_and_proves_the_automatic_cases(walnut):
    walnut = [(table, text) for name, table, text, true in CASES if name != "lambda argument"]
    events = check_walnut(walnut)
    assert events[:3] == ["judged"] * 3, events


@pytest.mark.parametrize("name, table, text, true", [c for c in CASES if not c[3]],
                         ids=[c[0] for c in CASES if not c[3]])
def test_walnut_translation_keeps_the_unevaluated_argument_s_obligation(name, table, text, true):
    """The substituted body does not evaluate v2(y - y) (or v2(x - x)); the call's argument is translated for its
    obligation all the same."""
    ref = make(table, text)
    unit = Unit(["x", "y"])
    try:
        Translator(ref.ns).formula(ref.tree, {"x": "x", "y": "y"}, unit)
    except NotAutomatic:
        return
    assert any("v2" in why for _, why in unit.obligations), unit.obligations


# ---------------------------------------------------------------------------------------------- the inliner itself

def _bound(tree: ast.AST) -> set[str]:
    out = {t.id for n in ast.walk(tree) if isinstance(n, ast.comprehension)
           for t in ast.walk(n.target) if isinstance(t, ast.Name)}
    return out | {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in n.args.args}


def test_no_binder_of_the_body_captures_an_argument_s_name():
    body = parse("any(x == y for y in range(3)) and all(ok for ok in [(lambda y: y + x)(1)])")
    out = substitute_call(("x",), body, [parse("y * 2")], taken={"ok"})
    assert not _bound(out) & {"y", "ok"}, ast.unparse(out)
    assert ast.unparse(out).count("y * 2") == 2
    # a binder no argument or caller's name clashes with keeps its name (messages name it as the spec does)
    assert "y" in _bound(substitute_call(("x",), body, [parse("z")]))


def test_a_shadowed_parameter_is_left_alone_and_its_range_is_read_outside():
    out = substitute_call(("x",), parse("sum(x for x in range(x))"), [parse("n + 1")])
    assert ast.unparse(out) == "sum((x for x in range(n + 1)))"
    out = substitute_call(("x",), parse("sum(x for x in range(x))"), [parse("x + 1")])
    assert ast.unparse(out) == "sum((x_1 for x_1 in range(x + 1)))"


def test_renamed_definition_avoids_the_taken_names():
    taken = {"x", "y", "x_1", "y_2"}
    r = rename_definition(("x", "y"), parse("[x + y for x in range(y)]"), taken=taken)
    assert not set(r.params) & taken
    assert not names_in([r.body]) & taken


def test_unevaluated_arguments_are_those_the_body_may_skip():
    body = parse("a + (b if a > 0 else 0) + c(1)")
    args = [parse("v2(x)"), parse("v2(y)"), parse("lambda r: v2(r)")]
    assert [ast.unparse(a) for a in unevaluated_arguments(("a", "b", "c"), body, args)] == ["v2(y)"]
