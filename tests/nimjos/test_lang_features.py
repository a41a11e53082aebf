"""The language a paper needs (issue #18): recursive sequences in [define], set operations and tuple
concatenation, OEIS triangles and antidiagonal tables, closed `holds` statements, and a `holds` about G as fast
as the same `grundy` claim."""
from __future__ import annotations

import time

import pytest

from checkers.window.exhaustive import check_exhaustive
from checkers.prove import prove_claim
from checkers.run import RunOptions
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.expr import compile_expression
from nimjos.spec.loader import load_spec
from nimjos.spec.names import spec_namespace

HEAD = '[source]\nid = "f"\n\n'


def verdicts(write_spec, text: str) -> dict[str, str]:
    spec = load_spec(write_spec(HEAD + text))
    return {claim.id: check_exhaustive(claim).verdict for claim in spec.claims}


def ev(text, **env):
    return compile_expression(text, spec_namespace(), set(env))(env)


# ----------------------------------------------------------------------------- recursion in [define]

FIB = '''[define]
"fib(n)" = "n if n < 2 else fib(n - 1) + fib(n - 2)"
'''


def test_fibonacci_by_memoised_recursion(write_spec):
    spec = load_spec(write_spec(HEAD + FIB))
    fib = spec.namespace.definitions["fib"]
    assert [fib(n) for n in range(10)] == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]
    assert fib(2000) % 10**6 == 817125  # far deeper than the call depth: evaluated bottom-up, memoised


def test_zeckendorf_example(write_spec):
    got = verdicts(write_spec, FIB + '''"big(n)" = "max(fib(k) for k in range(2, 2 * ilog2(n) + 4) if fib(k) <= n)"
"zeck(n)" = "0 if n == 0 else 1 + zeck(n - big(n))"

[[claim]]
id = "zeckendorf-terms"
for_all = "1 <= n"
window = "n <= 3000"
holds = "zeck(n) <= ilog2(n) + 1"
expect = "holds"

[[claim]]
id = "one-term-at-fibonacci-numbers"
for_all = "2 <= k"
window = "k <= 80"
holds = "zeck(fib(k)) == 1"
expect = "holds"
''')
    assert got == {"zeckendorf-terms": "checked", "one-term-at-fibonacci-numbers": "checked"}


def test_recursion_on_the_first_argument_with_other_arguments(write_spec):
    spec = load_spec(write_spec(HEAD + '''[define]
"binom(n, k)" = "1 if k == 0 or k == n else binom(n - 1, k - 1) + binom(n - 1, k)"
'''))
    binom = spec.namespace.definitions["binom"]
    assert [binom(6, k) for k in range(7)] == [1, 6, 15, 20, 15, 6, 1]


def test_a_recursion_that_does_not_decrease_is_ill_defined(write_spec):
    spec = load_spec(write_spec(HEAD + '''[define]
"up(n)" = "0 if n > 5 else up(n + 1)"
"neg(n)" = "0 if n == 0 else neg(n - 2)"
'''))
    with pytest.raises(EvalError, match=r"up\(n\) at n = 0 calls itself with n = 1: a recursion must make n strictly "
                                        r"smaller"):
        spec.namespace.definitions["up"](0)
    with pytest.raises(EvalError, match=r"neg\(n\) recurses on n, which must be a non-negative integer; called with "
                                        r"n = -1"):
        spec.namespace.definitions["neg"](3)


def test_a_recursion_over_the_budget_is_a_resource_error(write_spec):
    spec = load_spec(write_spec(HEAD + '''[define]
"count(n)" = "0 if n == 0 else count(n - 1) + 1"
'''))
    with pytest.raises(ResourceError, match="a recursion deeper than 200 calls is evaluated bottom-up"):
        spec.namespace.definitions["count"](10**9)



def test_the_prover_says_it_does_not_unfold_a_recursive_definition(write_spec):
    # it raised RecursionError (Walnut's translation inlined fib into itself); now each prover names the definition
    spec = load_spec(write_spec(HEAD + FIB + '''
[[claim]]
id = "fib-parity"
for_all = "0 <= n"
window = "n <= 60"
holds = "fib(n) % 2 == n % 2"
expect = "refuted"
'''))
    v = prove_claim(spec.claims[0], RunOptions())
    assert v.verdict == "inconclusive"
    assert "not applicable: recursive definition fib" in v.scope, v.scope
    assert "Walnut: not automatic: recursive definition fib" in " ".join(v.notes), v.notes
    assert "RecursionError" not in v.scope + " ".join(v.notes)

@pytest.mark.parametrize("define,says", [
    ('"f(n)" = "f(n - 1) + 1"', "may not be recursive without a base case"),
    ('"c" = "0 if True else c"', "the constant c refers to itself"),
    ('"f(n)" = "0 if n == 0 else g(n - 1)"\n"g(n)" = "f(n)"', "may not call each other in a cycle: f -> g -> f"),
])
def test_recursions_refused_at_load(write_spec, define, says):
    with pytest.raises(SpecError) as info:
        load_spec(write_spec(HEAD + "[define]\n" + define + "\n"))
    assert says in str(info.value)


# ----------------------------------------------------------------------------- sets and tuples

def test_set_operations_and_tuple_concatenation():
    assert ev("{1, 2} | {2, 3}") == frozenset({1, 2, 3})
    assert ev("{1, 2} & {2, 3}") == frozenset({2})
    assert ev("{1, 2} - {2, 3}") == frozenset({1})
    assert ev("(1, 2) + (3,)") == (1, 2, 3)
    assert ev("5 | 3") == 7 and ev("6 & 3") == 2 and ev("5 - 3") == 2  # integers keep their meaning
    assert ev("sorted((3, 1, 2))") == (1, 2, 3) and ev("sorted({x, 1})", x=0) == (0, 1)
    with pytest.raises(EvalError, match="the union of sets needs two sets"):
        ev("{1} | 1")
    with pytest.raises(EvalError, match=r"the union of sets is \|"):
        ev("{1} + {2}")


def test_set_operations_in_a_claim(write_spec):
    got = verdicts(write_spec, '''[[claim]]
id = "inclusion-exclusion"
for_all = "0 <= a <= 6 and 0 <= b <= 6"
holds = "len(set(range(a)) | set(range(2, b))) == len(set(range(a))) + len(set(range(2, b))) - len(set(range(a)) & set(range(2, b)))"
expect = "holds"
''')
    assert got == {"inclusion-exclusion": "checked"}


# ----------------------------------------------------------------------------- OEIS layouts

def test_triangle_and_antidiagonal_indices():
    cells = [(ev(f"tri_row({i})"), ev(f"tri_col({i})")) for i in range(10)]
    assert cells == [(n, k) for n in range(4) for k in range(n + 1)]
    diag = [ev(f"antidiagonal({i})") for i in range(10)]
    assert diag == [(j, d - j) for d in range(4) for j in range(d + 1)]


def test_a_table_read_by_antidiagonals(write_spec):
    got = verdicts(write_spec, '''[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]

[[claim]]
id = "nim-by-antidiagonals"
values = { of = "G(nim2, antidiagonal(i))", var = "i", from = 0, equal = [0, 1, 1, 2, 0, 2, 3, 3, 3, 3] }
expect = "holds"

[[claim]]
id = "nim-triangle"
values = { of = "xor(tri_row(i), tri_col(i))", var = "i", from = 0, equal = [0, 1, 0, 2, 3, 0, 3, 2, 1, 0] }
expect = "holds"
''')
    assert got == {"nim-by-antidiagonals": "checked", "nim-triangle": "checked"}


# ----------------------------------------------------------------------------- holds without for_all

def test_a_closed_holds_needs_no_for_all(write_spec):
    spec = load_spec(write_spec(HEAD + FIB + '''
[[claim]]
id = "fib-30"
holds = "fib(30) == 832040 and G(subtraction({1, 2}), 7) == 1"
expect = "holds"

[[claim]]
id = "false-closed"
holds = "fib(10) == 56"
expect = "refuted"
'''))
    first, second = (check_exhaustive(c) for c in spec.claims)
    assert (first.verdict, first.instances) == ("checked", 1)
    assert "no free name (one instance)" in first.scope
    assert second.verdict == "refuted"


def test_a_holds_with_a_free_name_still_needs_for_all(write_spec):
    with pytest.raises(SpecError, match="missing field 'for_all'"):
        load_spec(write_spec(HEAD + '''[[claim]]
id = "c"
holds = "n >= 0"
expect = "holds"
''')).claims[0].plan()


# ----------------------------------------------------------------------------- holds about G is fast

def test_holds_about_G_solves_the_window_at_once(write_spec):
    """`holds = "G(g, x) == ..."` asks the engine once for the whole window, as the grundy claim does (it took a
    solve per position before: 56 s for 10^4 positions of a game the fast engine knows)."""
    spec = load_spec(write_spec(HEAD + '''[game.g]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= 3 and t <= x" } ]

[[claim]]
id = "as-holds"
for_all = "0 <= x"
window = "x <= 20000"
holds = "G(g, x) == x % 4"
expect = "holds"
'''))
    start = time.perf_counter()
    v = check_exhaustive(spec.claims[0])
    assert v.verdict == "checked" and v.instances == 20001
    assert time.perf_counter() - start < 15


def test_the_run_says_when_G_is_evaluated_one_position_at_a_time(write_spec):
    # the slow form is named in the verdict's notes (the docs' What is fast), the fast one is not
    spec = load_spec(write_spec(HEAD + '''[game.g]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= 3 and t <= x" } ]

[[claim]]
id = "at-window-positions"
for_all = "0 <= x"
window = "x <= 200"
holds = "G(g, x) == x % 4"

[[claim]]
id = "inside-a-comprehension"
for_all = "0 <= x"
window = "x <= 200"
holds = "all(G(g, y) == y % 4 for y in range(x))"

[[claim]]
id = "no-G"
for_all = "0 <= x"
window = "x <= 200"
holds = "x % 4 < 4"
'''))
    notes = {c.id: " ".join(check_exhaustive(c).notes) for c in spec.claims}
    slow = "G is evaluated one position at a time here"
    assert slow in notes["inside-a-comprehension"]
    assert slow not in notes["at-window-positions"] and slow not in notes["no-G"]
