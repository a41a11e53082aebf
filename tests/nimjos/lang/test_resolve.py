"""The resolver (nimjos/lang/resolve.py) and its IR: names resolved as the scalar compiler resolves them, definitions
inlined once, and no capture. Each statement is adversarial for one way a careless inliner or resolver goes wrong
(a binder that shadows a variable, a parameter or another binder; a lambda whose free name a body binds; nested and
recursive definitions); each is checked (tests/conformance/backends.py:check_resolve) by printing the resolved
tree back as text and comparing its value with the language's at every point of a window, and by the names it
binds. The generated statements of the conformance grammar are checked the same way."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import event, given

from conformance import conformance_settings
from conformance.backends import bound_names, check_resolve, definition_bodies
from conformance.grammar import claim
from conformance.reference import namespace
from nimjos.lang import ir
from nimjos.lang.errors import SpecError
from nimjos.lang.printer import to_text
from nimjos.lang.resolve import definition_body, resolve_text
from nimjos.lang.visitor import IRVisitor

POINTS = [{"x": x, "y": y} for x, y in itertools.product(range(-4, 6), repeat=2)]

#: (name, [define] table, statement over x and y)
CASES = [
    ("a comprehension rebinds a variable", {}, "any(x == 2 for x in range(x)) or x == 0"),
    ("a lambda's parameter is a variable", {}, "(lambda x: x + y)(y + 1) == 2 * y + 1"),
    ("two comprehensions bind one name", {}, "sum(y for y in range(x)) + sum(y * y for y in range(3)) == y"),
    ("a nested comprehension rebinds the outer target", {}, "any(any(i == x for i in range(i)) for i in range(4))"),
    ("a tuple target rebinds both variables", {}, "any(x == y for (x, y) in [(1, 1), (y, x)])"),
    ("a lambda captures the comprehension's target", {}, "all((lambda i: i + x)(1) > i for i in range(x))"),
    ("the body binds the argument's name", {"f(x)": "any(x == y + 1 for y in range(3))"}, "f(y) == (1 <= y <= 3)"),
    ("a parameter shadowed in the body", {"h(x)": "any(x == 2 for x in range(x))"}, "h(y + 1) == (y >= 2)"),
    ("nested definitions with one parameter name", {"inner(j)": "any(j == i for i in range(3))",
                                                    "outer(i)": "inner(i + 1) and all(i != j for j in range(1))"},
     "outer(x) or outer(y)"),
    ("a lambda argument whose free name the body binds", {"ap(p, y)": "any(p(y) == i for i in range(2))"},
     "ap(lambda i: i + y, x)"),
    ("a parameter named as the caller's variable", {"g(y, x)": "x - y"}, "g(x, y) == y - x"),
    ("an argument the body never evaluates", {"first(a, b)": "a"}, "first(x, v2(x - x)) == x"),
    ("a definition without parameters", {"c": "3", "d": "lambda t: t + c"}, "d(x) == x + c"),
    ("a recursive definition", {"fact(n)": "1 if n == 0 else n * fact(n - 1)"}, "fact(abs(x)) >= 1"),
    ("a definition passed as a value", {"sq(n)": "n * n"}, "iterate(sq, 2, abs(x) % 3) == (abs(x) % 3) ** 4"),
]


@pytest.mark.parametrize("name,table,text", CASES, ids=[c[0] for c in CASES])
def test_adversarial_statements_keep_their_meaning(name, table, text):
    assert check_resolve(table, text, POINTS) == "compared"


def test_bound_names_are_unique_and_spare_the_variables():
    tree = resolve_text("any(x == y for y in range(x)) and all(y < x for y in range(x)) and "
                        "(lambda x: x)(y) == y", namespace({}), {"x", "y"})
    bound = bound_names(tree)
    assert len(bound) == len(set(bound)) == 3 and not {"x", "y"} & set(bound)
    assert "(lambda x: x)(y)" in to_text(tree, shown=True)   # the reader's names are kept


def test_a_definition_is_resolved_once_and_shared():
    ns = namespace({"f(n)": "n + 1", "g(m)": "f(m) * f(m + 1)"})
    tree = resolve_text("g(x) + f(x)", ns, {"x"})
    bodies = definition_bodies(tree)
    assert [b.params for b in bodies] == [("m",), ("n",)]
    assert definition_body(ns.definitions["f"], ns) is bodies[1]
    calls = [n for b in (tree, bodies[0].body) for n in ir.walk(b) if isinstance(n, ir.DefCall) and n.name == "f"]
    assert len(calls) == 3 and all(c.body is bodies[1] for c in calls)


def test_a_recursive_definition_is_not_inlined():
    ns = namespace({"fact(n)": "1 if n == 0 else n * fact(n - 1)"})
    call = resolve_text("fact(x)", ns, {"x"})
    assert isinstance(call, ir.DefCall) and call.body is None and to_text(call) == "fact(x)"


def test_names_resolve_as_the_compiler_resolves_them():
    ns = namespace({"k": "2", "sq(n)": "n * n"})
    e = resolve_text("(floor(x / k), sq, G(nim, x), True, octal('0.07'))", ns, {"x"})
    floor, ref, g, true, octal = e.elts
    assert isinstance(floor, ir.Call) and floor.builtin.name == "floor" and floor.type is ir.Type.INT
    assert isinstance(floor.args[0].right, ir.DefCall) and floor.args[0].right.args == ()
    assert isinstance(ref, ir.Ref) and ref.value is ns.definitions["sq"]
    assert isinstance(g.args[0], ir.Ref) and g.type is ir.Type.INT
    assert isinstance(true, ir.Const) and true.value is True and octal.type is ir.Type.GAME


def test_spans_point_into_the_text_they_came_from():
    ns = namespace({"f(n)": "n + v2(n)"})
    e = resolve_text("x * f(x)", ns, {"x"})
    call = e.right
    assert (call.span.col, call.span.end_col, call.span.source) == (4, 8, "")
    inner = call.body.body.right
    assert (inner.span.col, inner.span.end_col, inner.span.source) == (4, 9, "f")
    assert inner.span.show() == "columns 5-9 of the definition f"


def test_an_unknown_name_is_refused():
    with pytest.raises(SpecError, match="unknown name 'z'"):
        resolve_text("x + z", namespace({}), {"x"})


def test_the_visitor_dispatches_by_class_with_a_fallback():
    class Count(IRVisitor):
        def __init__(self):
            self.vars = 0

        def visit_Var(self, node):
            self.vars += 1

    c = Count()
    c.visit(resolve_text("x + max(y, 1) if x else -y", namespace({}), {"x", "y"}))
    assert c.vars == 4


@conformance_settings(150, 20_000)
@given(claim(big=True))
def test_generated_statements_keep_their_meaning(c):
    event(check_resolve(*c, POINTS[::7]))


def test_the_plan_carries_the_ir_of_each_expression(tmp_path):
    from nimjos.spec.loader import load_spec
    p = tmp_path / "h.toml"
    p.write_text('[source]\nid = "s"\n[define]\n"f(n)" = "sum(x for x in range(n))"\n[[claim]]\nid = "c"\n'
                 'for_all = "0 <= x <= 6"\nassume = "x != 3"\nholds = "f(x) * 2 == x * (x - 1)"\n')
    plan = load_spec(p).claims[0].plan()
    assert isinstance(plan.formula.ir, ir.Compare) and isinstance(plan.assume.ir, ir.Compare)
    left, right = plan.sides
    assert left.ir is plan.formula.ir.left and right.ir is plan.formula.ir.comparators[0]
    assert isinstance(left.ir.left, ir.DefCall) and left.ir.left.body.params == ("n",)
    # the inlined body binds x, which is not the claim's x
    assert to_text(left.ir) == "(lambda n: sum((x for x in range(n))))(x) * 2"
