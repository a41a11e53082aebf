"""Every claim of two spec documents alike on the scalar and the vectorised paths (whole spec files, from
tests/test_vector.py), slow by its folder."""
from __future__ import annotations


import pathlib


import numpy as np


import pytest


import checkers.exhaustive as exhaustive


import checkers.vectorised as vectorised


from checkers.josephus_arrays import f_array, f_table, survivor_array


from nimjos.games.declared import subtraction


from nimjos.games.engine import ReferenceEngine, grundy_array


from nimjos.josephus.functions import F, survivor


from nimjos.lang.binders import Binder


from nimjos.lang.compiler import Namespace, compile_tree


from nimjos.lang.errors import EvalError


from nimjos.lang.expr import evaluate


from nimjos.lang.syntax import parse


from nimjos.lang.vector import NotVectorisable, vectorise


from nimjos.spec.loader import load_spec


SPECS = pathlib.Path(__file__).resolve().parents[2] / "specs"


DEFINE = '''[source]
id = "v"
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
[game.wyt]
position = ["x", "y"]
moves = [
  { to = "(x - t, y)", where = "1 <= t <= x" },
  { to = "(x, y - t)", where = "1 <= t <= y" },
  { to = "(x - t, y - t)", where = "1 <= t <= min(x, y)" },
]
[game.maxn]
params = ["k"]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= floor(x / k)" } ]
[define]
"sq(a)" = "a * a"
"inner(a, b)" = "sq(a) - b if a > b else b // (abs(a) + 3)"
"pair(a)" = "(a, a + 1)"
"phif(k)" = "(k + isqrt(5 * k * k)) // 2"
'''


CONSTRUCTS = [
    "x + y - 3", "x * y", "x // 3", "x % 3", "x // -4", "x % -4", "(x - y) // 7", "x ** 3", "y ** 2 + 2 ** 5",
    "x < y", "x <= y < 4", "-2 < x <= y != 3", "x == y", "x != 2",
    "x > 0 and y > 0", "x > 0 or y < -3", "not x > y", "x > 0 and y // x > 1", "x == 0 or y % x == 1",
    "x if x > y else y - 1", "(x // y) if y != 0 else 0", "min(x, y)", "max(x, y, 2)", "abs(x - y)",
    "floor(x / 3)", "ceil(x / 3)", "floor((x - y) / -4)", "ceil((x + y) / 5)",
    "x & y", "x | y", "abs(x) << 3", "abs(x) >> 1", "xor(abs(x), abs(y), 5)",
    "v2(x) if x != 0 else -1", "ilog2(abs(x) + 1)", "isqrt(abs(x * y))", "x in {0, 1, 5}", "y not in {2, 3}",
    "sq(x) + inner(x, y)", "pair(x)[1] - pair(y)[0]", "(x, y) == (1, 1) or (x, y) == pair(y)", "phif(abs(x))",
    "any(abs(x) == 2 ** n - 1 for n in range(0, 5))", "all(x + i != y for i in range(1, 4))",
    "any(i * i == abs(x) for i in range(0, abs(y) + 1) if i % 2 == 0)",
    "iterate(lambda r: 2 * r + 1, abs(y), abs(x))", "iterate(lambda r: r + r // 3 + 1, abs(x) % 6, y)",
]


@pytest.fixture(scope="module")
def ns(tmp_path_factory):
    path = tmp_path_factory.mktemp("vec") / "v.toml"
    path.write_text(DEFINE)
    return load_spec(path).namespace


def _window(lo=-9, hi=9):
    xs, ys = np.meshgrid(np.arange(lo, hi + 1), np.arange(lo, hi + 1), indexing="ij")
    return {"x": xs.ravel().astype(np.int64), "y": ys.ravel().astype(np.int64)}


def _scalar(text, ns, env):
    fn = compile_tree(parse(text), ns, set(env))
    n = len(env["x"])
    return [evaluate(fn, {k: int(v[i]) for k, v in env.items()}) for i in range(n)]


def _plain(v, n):
    if isinstance(v, tuple):
        return [tuple(_plain(x, n)[i] for x in v) for i in range(n)]
    arr = np.broadcast_to(np.asarray(v), (n,))
    return [bool(a) if arr.dtype == np.bool_ else int(a) for a in arr]


def _both(claim):
    """The exhaustive verdict by the scalar path and by the vectorised path."""
    old = vectorised.VECTOR_MIN
    try:
        vectorised.VECTOR_MIN = 10 ** 12
        scalar = exhaustive.check_exhaustive(claim)
        vectorised.VECTOR_MIN = 0
        vector = exhaustive.check_exhaustive(claim)
    finally:
        vectorised.VECTOR_MIN = old
    return scalar, vector


def _same(a, b):
    assert (a.verdict, a.instances, a.assumption_held, a.failures) == (b.verdict, b.instances, b.assumption_held,
                                                                       b.failures)
    assert [c.to_json() for c in a.counterexamples] == [c.to_json() for c in b.counterexamples]
    assert [c.to_json() for c in a.undefined] == [c.to_json() for c in b.undefined]
    assert a.evidence == b.evidence
    assert any("evaluated vectorised" in n for n in b.notes)
    assert not any("evaluated vectorised" in n for n in a.notes)
    assert not any("one position at a time" in n for n in b.notes)


MUTANTS = '''
[[claim]]
id = "wythoff-mutant"
game = "wyt"
for_all = "0 <= m and 0 <= n"
window = "m <= 60 and n <= 60"
position = ["m", "n"]
p_positions = "(m, n) == (phif(abs(n - m)), phif(abs(n - m)) + abs(n - m)) or (m, n) == (phif(abs(n - m)) + abs(n - m) + (1 if abs(n - m) == 7 else 0), phif(abs(n - m)))"
[[claim]]
id = "nim-mutant"
game = "nim2"
for_all = "0 <= x and 0 <= y <= x"
window = "x <= 70"
grundy = "xor(x, y) + (1 if x % 17 == 3 and y > 2 else 0)"
[[claim]]
id = "level-mutant"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 50 and y <= 50"
levels = "0 <= s <= 3"
level_set = "xor(x, y) == s or (x == 9 and y == 40 and s == 1)"
[[claim]]
id = "holds-mutant"
for_all = "0 <= s <= 6 and 0 <= n and 0 <= m <= (2 * s + 1) * 2 ** n - 1"
window = "n <= 4"
holds = "F(s, (2*s + 1) * 2**n + m) == 2*m + 1 + (1 if m == 5 and n >= 2 else 0)"
[[claim]]
id = "holds-assumed"
for_all = "1 <= x and 1 <= y"
window = "x <= 40 and y <= 40"
assume = "x % 3 == 0 and y > x"
holds = "(y - x) % 3 != 1 or y // x < 5"
[[claim]]
id = "g-mutant"
for_all = "2 <= k <= 4 and 0 <= x"
window = "x <= 300"
holds = "G(maxn(k), x) == x // k + (1 if x == 250 and k == 3 else 0)"
[[claim]]
id = "g2-mutant"
for_all = "0 <= a and 0 <= b"
window = "a <= 30 and b <= 30"
assume = "a != 7"
holds = "G(wyt, (a, b)) != 0 or (a, b) == (0, 0) or (a, b) == (1, 2) or (a, b) == (2, 1) or (a, b) == (3, 5)"
[[claim]]
id = "holds-overflow"
for_all = "0 <= x and 0 <= y <= 3"
window = "x <= 80"
holds = "x ** 10 + y >= 0"
'''


MAIN_VECTORISED = [
    ("002_josephus_nim", "thm-1.1", "refuted"), ("002_josephus_nim", "thm-1.1-corrected", "checked"),
    ("002_josephus_nim", "thm-2.1", "checked"), ("002_josephus_nim", "thm-2.2", "checked"),
    ("002_josephus_nim", "lemma-1.2", "checked"), ("004_cyclic_nimhoff_delete_nim", "thm-1.16-wythoff", "checked"),
    ("001_maxnim_josephus_algorithm", "thm-3.6", "checked"),
    ("003_turn_nim_and_weighted_nim", "thm-3.1-corrected", "checked"),
    ("003_turn_nim_and_weighted_nim", "lemma-3.2-corrected", "checked"),
    ("003_turn_nim_and_weighted_nim", "thm-2.1", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-1.17-cyclic-nimhoff-2", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-1.17-cyclic-nimhoff-3", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-2.4-two-heaps", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-2.4-three-heaps", "checked"), ("004_cyclic_nimhoff_delete_nim", "thm-2.9", "checked"),
]


MAIN_SMALLER: list[tuple[str, str]] = []


def _window_size(claim):
    plan = claim.plan("default")
    return sum(1 for _ in plan.window.bindings({})) if plan.window.arrays({}) is None else \
        len(next(iter(plan.window.arrays({}).values())))


@pytest.mark.parametrize("stem", ["002_josephus_nim", "004_cyclic_nimhoff_delete_nim"])
def test_spec_claims_alike_on_both_paths(stem):
    """Every claim of the spec with a window of at most 20,000 instances that the vectorised path takes: the same
    verdict, counts, counterexamples, undefined instances, evidence and scope as the scalar path."""
    taken = 0
    for claim in load_spec(SPECS / f"{stem}.toml").claims:
        if claim.kind not in ("holds", "grundy", "p_positions", "level_set"):
            continue
        plan = claim.plan("default")
        arrays = plan.window.arrays({}) if plan.window is not None else None
        if not arrays or len(next(iter(arrays.values()))) > 20_000:
            continue
        scalar, vector = _both(claim)
        if not any("vectorised" in n for n in vector.notes):
            continue
        taken += 1
        assert (scalar.verdict, scalar.instances, scalar.assumption_held, scalar.failures, scalar.scope) == \
            (vector.verdict, vector.instances, vector.assumption_held, vector.failures, vector.scope), claim.id
        assert [c.to_json() for c in scalar.counterexamples] == [c.to_json() for c in vector.counterexamples]
        assert [c.to_json() for c in scalar.undefined] == [c.to_json() for c in vector.undefined]
        assert scalar.evidence == vector.evidence, claim.id
        g_note = "one position at a time"  # true of the scalar path only where the vectorised one takes G as a table
        assert [n for n in scalar.notes if g_note not in n] == \
            [n for n in vector.notes if "vectorised" not in n and g_note not in n], claim.id
    assert taken >= 10
