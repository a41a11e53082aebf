"""Calls of a function fixed when the expression is compiled (a built-in, a game, a definition with parameters) take
a shorter path than calls of a function computed at run time (a lambda bound to a name): the same values, the same
errors, the same steps of the budget."""
from __future__ import annotations

import ast
from fractions import Fraction

import pytest

from nimjos.lang.errors import EvalError, ResourceError
from nimjos.lang.expr import compile_expression
from nimjos.lang.operators import BINOPS, CMPOPS
from nimjos.lang.runtime import EvaluationBudget, using_budget
from nimjos.spec.names import spec_namespace


def ev(text: str, **env):
    budget = EvaluationBudget()
    with using_budget(budget):
        value = compile_expression(text, spec_namespace(), set(env))(env)
    return value, budget.spent


@pytest.mark.parametrize("fixed,computed", [
    ("ilog2(9)", "(lambda f: f(9))(ilog2)"),
    ("min(3, 1)", "(lambda f: f(3, 1))(min)"),
    ("removal_index(7, 3, 4)", "(lambda f: f(7, 3, 4))(removal_index)"),
    ("xor(7, 8, 10, 1)", "(lambda f: f(7, 8, 10, 1))(xor)"),
    ("sum(i for i in range(4))", "(lambda f: f(i for i in range(4)))(sum)"),
    ("len({(i, j) for i in range(4) for j in range(i) if j != 1})",
     "(lambda f: f({(i, j) for i in range(4) for j in range(i) if j != 1}))(len)"),
])
def test_a_fixed_callee_gives_what_a_computed_one_gives(fixed, computed):
    assert ev(fixed)[0] == ev(computed)[0]


def test_a_nested_comprehension_yields_from_its_innermost_level():
    assert ev("{(i, j) for i in range(4) for j in range(i) if j != 1}")[0] == {(1, 0), (2, 0), (3, 0), (3, 2)}
    assert ev("[i * j for i in range(3) for j in range(2) if i > j]")[0] == (0, 0, 2)


@pytest.mark.parametrize("args", ["", "3", "1, 0", "1, 0, 2", "1, 0, 2, 5"])
def test_a_fixed_callee_fails_as_a_computed_one_does(args):
    # a built-in given arguments it refuses: the same error, in the same words (each names the callee as written)
    errors = []
    for text, name in ((f"mex({args})", "mex"), (f"(lambda f: f({args}))(mex)", "f")):
        with pytest.raises(EvalError) as info:
            ev(text)
        errors.append((type(info.value), str(info.value).replace(f"{name}(", "CALLEE(", 1)))
    assert errors[0] == errors[1]


def test_a_number_too_large_for_the_machine_is_a_limit_not_mathematics():
    with pytest.raises(ResourceError, match="too large for the machine"):
        ev("len(range(10 ** 30))")


OPERATORS = {"*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod, "==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt,
             "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}
OPERANDS = (-7, -1, 0, 1, 3, 2 ** 70, True, Fraction(1, 2), 2 ** 600_000)


def _outcome(f, *args):
    try:
        return f(*args)
    except (EvalError, ResourceError) as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("text", list(OPERATORS))
def test_an_operator_on_integers_gives_what_its_function_gives(text):
    # two integers take a shorter path than other values: the same values and the same refusals (0 divisors,
    # products past the size limit, booleans and fractions on the general path)
    kind = OPERATORS[text]
    function = BINOPS.get(kind) or CMPOPS[kind]
    compiled = compile_expression(f"a {text} b", spec_namespace(), {"a", "b"})
    for a in OPERANDS:
        for b in OPERANDS:
            assert _outcome(compiled, {"a": a, "b": b}) == _outcome(function, a, b), (a, text, b)
