"""The vectorised window (nimjos.lang.vector, Binder.arrays, grundy_array, checkers.window.josephus_arrays) against the
scalar path, which stays the reference: the same values construct by construct, the same fallback where the
scalar language would fail or int64 could overflow, the same verdicts, counterexamples and evidence; and the
main theorems' default windows of at least 10^6 instances, checked vectorised."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

from checkers.window.josephus_arrays import f_array, f_table, survivor_array
from nimjos.games.declared import subtraction
from nimjos.games.arrays import grundy_array
from nimjos.games.engine import ReferenceEngine
from nimjos.josephus.functions import F, survivor
from nimjos.lang.binders import Binder
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import EvalError
from nimjos.lang.expr import evaluate
from nimjos.lang.syntax import parse
from nimjos.lang.vector import NotVectorisable, vectorise
from nimjos.spec.loader import load_spec
from vector_paths import scalar_and_vector, window_size

SPECS = pathlib.Path(__file__).resolve().parents[3] / "specs"

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

#: one expression per construct (x and y range over negative and positive values)
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


@pytest.mark.parametrize("text", CONSTRUCTS)
def test_vectorised_equals_scalar(text, ns):
    env = _window()
    expected = _scalar(text, ns, env)
    got = _plain(vectorise(parse(text), ns)(env), len(env["x"]))
    assert got == expected


@pytest.mark.parametrize("text", ["x // y", "x % (y - y)", "2 ** x", "v2(x)", "ilog2(x)", "isqrt(x)", "xor(x, 1)",
                                  "x / 3 == 1", "1 << x"])
def test_where_the_scalar_language_fails_it_falls_back(text, ns):
    """Negative exponents (Fractions), zero divisors, v2(0), ... somewhere in the window: not vectorised."""
    env = _window()
    with pytest.raises(NotVectorisable):
        vectorise(parse(text), ns)(env)


def test_short_circuit_evaluates_only_where_the_scalar_language_does(ns):
    env = _window()
    # y // x fails at x = 0, which the left side excludes; 2 ** x has a negative exponent where x < 0
    for text in ["x != 0 and y // x > 0", "x < 0 or 2 ** x > 3", "2 ** x if x >= 0 else 0",
                 "any(y // (x - i) == 1 for i in range(0, 3) if x != i)"]:
        assert _plain(vectorise(parse(text), ns)(env), len(env["x"])) == _scalar(text, ns, env)


def test_overflow_falls_back(ns):
    env = {"x": np.arange(0, 100, dtype=np.int64)}
    for text in ["x ** 12", "x * 2 ** 60", "(x << 56) * 8", "iterate(lambda r: r * r + 2, 7, x)"]:
        with pytest.raises(NotVectorisable):
            vectorise(parse(text), ns)(env)
    # within int64: exact
    assert vectorise(parse("x ** 9"), ns)(env).tolist() == [v ** 9 for v in range(100)]


def test_unsupported_forms_fall_back(ns):
    env = _window()
    for text in ["G(nim2, (abs(x), abs(y))) == 0", "sum(i for i in {x, y})", "x / 3", "(lambda a: a)(x)"]:
        with pytest.raises((NotVectorisable, EvalError)):
            vectorise(parse(text), ns)(env)


@pytest.mark.parametrize("cond", ["1 <= n <= 6 and 1 <= m <= n", "0 <= a <= 4 and a != 2 and -3 <= b <= a",
                                  "0 <= s <= 3 and 0 <= n <= 2 and 0 <= m <= (2*s + 1) * 2**n - 1",
                                  "k in {2, 5} and 0 <= x <= 3 * k", "0 <= x <= 12"])
def test_binder_arrays_are_its_bindings_in_order(cond):
    b = Binder.from_text(cond, Namespace())
    rows = [tuple(e[n] for n in b.names) for e in b.bindings({})]
    arrays = b.arrays({})
    assert list(zip(*(arrays[n].tolist() for n in b.names))) == rows
    shard = (1, 2)
    rows = [tuple(e[n] for n in b.names) for e in b.bindings({}, shard=shard)]
    arrays = b.arrays({}, shard=shard)
    assert list(zip(*(arrays[n].tolist() for n in b.names))) == rows


def test_binder_arrays_not_for_a_filtered_innermost_level():
    assert Binder.from_text("0 <= x <= 5 and 0 <= y <= 5 and x != y", Namespace()).arrays({}) is None


def test_ground_truth_arrays_match_the_scalar_functions():
    g = subtraction(frozenset({1, 3, 4}))
    engine = ReferenceEngine()
    xs = np.arange(0, 300, dtype=np.int64)[::-1].copy()
    assert grundy_array(engine, g, [xs]).tolist() == [g.lookup(int(x)) for x in xs]
    for s in range(0, 6):
        table = f_table(s, 200)
        assert [int(table[v]) for v in range(s + 1, 201)] == [F(s, v) for v in range(s + 1, 201)]
    s_arr = np.array([0, 3, 3, 7], dtype=np.int64)
    v_arr = np.array([1, 4, 90, 8], dtype=np.int64)
    assert f_array(s_arr, v_arr).tolist() == [F(int(s), int(v)) for s, v in zip(s_arr, v_arr)]
    n_arr = np.arange(0, 120, dtype=np.int64)
    k_arr = (n_arr % 5) + 1
    assert survivor_array(n_arr, k_arr).tolist() == [survivor(int(n), int(k)) for n, k in zip(n_arr, k_arr)]
    with pytest.raises(NotVectorisable):
        f_array(np.array([5]), np.array([5]))  # F_s(v) needs s <= v - 1


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


@pytest.mark.parametrize("cid", ["wythoff-mutant", "nim-mutant", "level-mutant", "holds-mutant", "holds-assumed",
                                 "g-mutant"])
def test_mutants_refuted_alike(cid, tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(DEFINE + MUTANTS)
    scalar, vector = scalar_and_vector(load_spec(path).claim(cid))
    assert scalar.verdict == "refuted"
    _same(scalar, vector)


def test_many_failures_keep_the_smallest_and_the_count(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(DEFINE + '[[claim]]\nid = "c"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 40 and y <= 40"\n'
                    'grundy = "x + y"\n')
    scalar, vector = scalar_and_vector(load_spec(path).claim("c"))
    assert scalar.failures > 1000
    _same(scalar, vector)


def test_g_of_a_two_coordinate_game_vectorised(tmp_path):
    """G of Wythoff's game at every binding where the assumption holds, as one table: refuted at the same
    P-positions as the scalar path ((5, 3) first; (7, 4) is outside the assumption)."""
    path = tmp_path / "m.toml"
    path.write_text(DEFINE + MUTANTS)
    scalar, vector = scalar_and_vector(load_spec(path).claim("g2-mutant"))
    assert scalar.verdict == "refuted" and scalar.counterexamples[0].bindings == {"a": 5, "b": 3}
    _same(scalar, vector)


def test_overflow_in_the_window_falls_back_to_the_scalar_path(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(DEFINE + MUTANTS)
    scalar, vector = scalar_and_vector(load_spec(path).claim("holds-overflow"))
    assert scalar.verdict == vector.verdict == "checked"
    assert not any("evaluated vectorised" in n for n in vector.notes)


#: the main theorems whose default window has at least 10^6 instances and is checked vectorised
#: the main theorems whose window stays smaller, with the reason in the claim's note
MAIN_SMALLER: list[tuple[str, str]] = []


def test_main_theorem_000_thm_3_4_window():
    claim = load_spec(SPECS / "000_maxnim_josephus.toml").claim("thm-3.4-corrected")
    assert window_size(claim) >= 10 ** 6


@pytest.mark.parametrize("stem,cid", MAIN_SMALLER)
def test_smaller_main_theorem_windows_say_why(stem, cid):
    claim = load_spec(SPECS / f"{stem}.toml").claim(cid)
    assert window_size(claim) < 10 ** 6
    assert "smaller than 10^6 instances" in (claim.note or "")


def test_assumption_vectorised_statement_one_at_a_time_keeps_the_g_note(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(DEFINE + '"GN(x, y)" = "G(nim2, (x, y))"\n[[claim]]\nid = "c"\n'
                    'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 30 and y <= 30"\nassume = "x % 3 == 0"\n'
                    'holds = "GN(x, y) == xor(x, y) and len({x, y}) >= 1"\n')
    scalar, vector = scalar_and_vector(load_spec(path).claim("c"))
    assert scalar.verdict == vector.verdict == "checked"
    g_note = [n for n in scalar.notes if "one position at a time" in n]
    assert g_note and g_note == [n for n in vector.notes if "one position at a time" in n]
    assert any("the statement at each of the" in n for n in vector.notes)


def test_binder_arrays_name_the_binding_where_a_bound_fails():
    b = Binder.from_text("0 <= k <= 3 and 0 <= n <= 6 / k", Namespace())
    b.total = True
    with pytest.raises(Exception) as scalar:
        list(b.bindings({}))
    with pytest.raises(Exception) as vector:
        b.arrays({})
    assert "k = 0" in str(vector.value) and str(scalar.value) == str(vector.value)
