"""Evaluating expressions makes no reference cycles: what an evaluation leaves is freed by reference counting at
once. A cycle made per evaluation (a closure that calls itself, an error whose traceback holds a frame that holds
the error) is garbage only the cycle collector frees; a claim runs with the collector off (checkers.context,
frees_in_order), so millions of them piled up and were traversed when it came back on (a tenth of the sampler's
time)."""
from __future__ import annotations

import gc

from nimjos.lang.binders import Binder
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import EvalError
from nimjos.lang.syntax import free_names, parse

EXPRESSIONS = [
    "sum(x * y for x in range(5) for y in range(x) if x + y > 2)",
    "[(a, b) for (a, b) in {(1, 2), (3, 4)}]",
    "{x % 3 for x in range(10)}",
    "any(all(y < x for y in range(x)) for x in range(4))",
    "(lambda r: r + 1)(2)",
]


def _cycles_made(work) -> int:
    """The objects the cycle collector finds after `work` ran with it off (run once before, to warm caches)."""
    work()
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            work()
        return gc.collect()
    finally:
        gc.enable()


def test_comprehensions_and_lambdas_leave_no_cycles():
    ns = Namespace()
    fs = [compile_tree(parse(e), ns) for e in EXPRESSIONS]
    assert _cycles_made(lambda: [f({}) for f in fs]) == 0


def test_bindings_leave_no_cycles():
    b = Binder.from_text("1 <= n <= 9 and 1 <= m <= n and m % 2 == 0", Namespace())
    assert _cycles_made(lambda: sum(1 for _ in b.bindings({}))) == 0


def test_free_names_leaves_no_cycles():
    tree = parse("lambda r: g(k, r) + sum(r * t for t in range(n))")
    assert _cycles_made(lambda: free_names(tree)) == 0


def test_a_failed_call_leaves_no_cycles():
    """Errors raised through a built-in's call (Python's, made the language's by the compiled call, and the
    language's own) and caught by the caller."""
    ns = Namespace()
    fs = [compile_tree(parse(e), ns, {"p"}) for e in ("isqrt(p)", "gcd(p, 1 / 2)", "iterate(lambda r: r + 1, 0, p)")]

    def fail() -> None:
        for f in fs:
            try:
                f({"p": -1})
            except EvalError:
                pass
    assert _cycles_made(fail) == 0
