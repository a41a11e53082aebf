"""Proofs with Z3: classes of positions, strategies, abstractions, re-evaluated counterexamples, mutants."""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

from checkers.window.exhaustive import check_exhaustive
from checkers.prove import prove_claim
from checkers.prove.domain import proof_domain
from checkers.prove.soundness import against_window
from checkers.prove.strategy import read_strategy
from checkers.run import RunOptions, SamplingLimits
from nimjos.spec.loader import ProveOptions
from checkers.sample import sample_claim
from nimjos.verdict import Counterexample, Verdict
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC_004 = ROOT / "specs" / "004_cyclic_nimhoff_delete_nim.toml"

#: the winning move of the proof of 004 Theorem 3.5: with bit v of x set, <x - 2^v, 2^v - 1>
DELETE_NIM_STRATEGY = 'strategy = "(x - 2**v, 2**v - 1) if (x >> v) & 1 == 1 else (y - 2**v, 2**v - 1)"'
#: the winning move of the proof of Theorem 1.17 / 2.4 for two heaps (v = Q h + k)
NIMHOFF_STRATEGY = ('strategy = { let = { d = "(x + y) % h - v % h" }, move = "(x - min(d, x % h), y - (d - min(d, x % h))) '
                    'if v // h == xor(x // h, y // h) else ((xor(v // h, y // h) * h + (v - y) % h, y) '
                    'if xor(v // h, y // h) < x // h else (x, xor(v // h, x // h) * h + (v - x) % h))" }')

GAMES = """
[source]
id = "p"

[game.delete_nim]
position = ["x", "y"]
moves = [
  { to = "(a, x - 1 - a)", where = "0 <= a <= x - 1" },
  { to = "(a, y - 1 - a)", where = "0 <= a <= y - 1" },
]

[game.vdn]
position = ["x", "y"]
moves = [
  { to = "(a, x - a)", where = "1 <= a <= x - 1" },
  { to = "(a, y - a)", where = "1 <= a <= y - 1" },
]

[game.cyclic_nimhoff2]
params = ["h"]
position = ["x", "y"]
moves = [
  { to = "(x - t, y)", where = "1 <= t <= x" },
  { to = "(x, y - t)", where = "1 <= t <= y" },
  { to = "(x - s, y - t)", where = "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 < s + t" },
]
"""


def claim_text(cid: str, body: str) -> str:
    return f'\n[[claim]]\nid = "{cid}"\n{body}\n'


def prove(spec, cid, timeout=20.0):
    """The Z3 prover alone (these tests are about it; Walnut, tried first by prove_claim, has its own tests)."""
    return prove_claim(spec.claim(cid), RunOptions(timeout=timeout, walnut=False))


def test_delete_nim_is_proved_below_2_32(write_spec):
    spec = load_spec(write_spec(GAMES + claim_text("dn", 'game = "delete_nim"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 20 and y <= 20"\n'
                                                         f'grundy = "v2((x | y) + 1)"\n{DELETE_NIM_STRATEGY}')))
    v = prove(spec, "dn")
    # proved for the class below 2^32, which is smaller than the domain (x, y >= 0): proved-bounded, class printed
    assert v.verdict == "proved-bounded"
    assert v.scope.startswith("for x, y < 2^32 only (domain")
    assert "below 2^32" in v.scope and "strategy" in v.scope


def test_vdn_p_positions_are_proved_for_all_positions(write_spec):
    spec = load_spec(write_spec(GAMES + claim_text("vdn", 'game = "vdn"\nfor_all = "1 <= x and 1 <= y"\nwindow = "x <= 20 and y <= 20"\n'
                                                          'p_positions = "x % 2 == 1 and y % 2 == 1"')))
    v = prove(spec, "vdn")
    assert v.verdict == "proved" and v.scope.startswith("all x >= 1, y >= 1") and "2^" not in v.scope


def test_cyclic_nimhoff_is_proved_for_each_h_with_xor_by_its_laws(write_spec):
    spec = load_spec(write_spec(GAMES + claim_text(
        "cn", 'game = "cyclic_nimhoff2(h)"\nfor_all = "1 <= h <= 2 and 0 <= x and 0 <= y"\nwindow = "x <= 12 and y <= 12"\n'
              f'grundy = "xor(x // h, y // h) * h + (x + y) % h"\n{NIMHOFF_STRATEGY}\nprove = {{ timeout = 40 }}')))
    v = prove(spec, "cn")
    assert v.verdict == "proved"
    assert "for h = 1, 2" in v.scope and "xor by its laws" in v.scope


def test_floor_identities_symbolic_and_per_parameter(write_spec):
    spec = load_spec(write_spec("[source]\nid = 'f'\n" + claim_text(
        "eq-1", 'for_all = "2 <= k and 0 <= x"\nwindow = "k <= 10 and x <= 300"\nassume = "x % k != 0"\n'
                'holds = "x - floor(x / k) - 1 == floor((k - 1) * x / k)"') + claim_text(
        "eq-1-printed", 'for_all = "2 <= k and 0 <= x"\nwindow = "k <= 10 and x <= 300"\nholds = "x - floor(x / k) - 1 == floor((k - 1) * x / k)"') + claim_text(
        "ceil", 'for_all = "2 <= k and 0 <= n"\nwindow = "k <= 10 and n <= 300"\nassume = "n % k >= 2"\nholds = "floor((n + k - 1) / k) == n // k + 1 == ceil(n / k)"')))
    v = prove(spec, "eq-1")
    assert v.verdict == "proved"
    assert "k >= 2" in v.scope or "k = 2..10" in v.scope
    v = prove(spec, "eq-1-printed")
    assert v.verdict == "refuted"
    assert v.counterexamples[0].bindings == {"k": 2, "x": 0}      # smallest, re-evaluated exactly
    assert prove(spec, "ceil").verdict == "proved"


def test_power_of_two_is_abstracted_soundly(write_spec):
    spec = load_spec(write_spec("[source]\nid = 'w'\n" + claim_text(
        "weights", 'for_all = "1 <= m and 1 <= i <= 2 ** m"\nwindow = "m <= 12"\n'
                   'holds = "2*(2**m - i - 1) + 2*i - 1 == 2**(m + 1) - 3"') + claim_text(
        "spurious", 'for_all = "0 <= n"\nwindow = "n <= 12"\nholds = "2**n != 3"') + claim_text(
        "false", 'for_all = "0 <= n"\nwindow = "n <= 12"\nholds = "2**n <= 1000"')))
    v = prove(spec, "weights", timeout=10)
    assert v.verdict == "proved" and "abstracting 2^n" in v.scope and "m >= 1" in v.scope
    # 2^n = 3 is consistent with the facts Z3 knows; the exact re-evaluation refuses to call it a counterexample
    assert prove(spec, "spurious", timeout=5).verdict in ("proved", "inconclusive")
    v = prove(spec, "false", timeout=8)
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 10}


def test_unknown_and_not_applicable_are_inconclusive(write_spec):
    spec = load_spec(write_spec("[source]\nid = 'u'\n" + claim_text(
        "josephus", 'for_all = "1 <= n"\nwindow = "n <= 50"\nholds = "survivor(2 * n, 2) == 2 * survivor(n, 2) - 1"') + claim_text(
        "table", 'for_all = "True"\nholds = "1 == 1"')))
    v = prove(spec, "josephus", timeout=5)
    assert v.verdict == "inconclusive"
    v = prove(spec, "table")   # a closed statement: its one instance, evaluated by the window, is its whole domain
    assert v.verdict == "proved" and v.scope == "exhaustive: the whole domain, 1 instance (a closed statement)"


def test_strategy_cases_split_an_if_else_chain(write_spec):
    spec = load_spec(write_spec(GAMES + claim_text("dn", 'game = "delete_nim"\nfor_all = "0 <= x <= 5 and 0 <= y <= 5"\n'
                                                         f'grundy = "v2((x | y) + 1)"\n{DELETE_NIM_STRATEGY}')))
    s = read_strategy(spec.claim("dn").plan())
    assert len(s.cases) == 2 and s.value == "v"


def test_window_edges_are_dropped_but_stated_bounds_kept(write_spec):
    spec = load_spec(write_spec("[source]\nid = 'd'\n" + claim_text(
        "c", 'for_all = "0 <= s and 0 <= m <= 2 * s and 0 <= e <= 1"\nwindow = "s <= 300"\nholds = "s - m + e <= s + 1"')))
    c = spec.claim("c")
    dom = proof_domain(c.plan(), ProveOptions())
    assert "s" in dom.dropped and ast.unparse(dom.upper["m"]) == "2 * s"   # the window's edge goes, a bound by a name stays
    # the stated bound e <= 1 is the domain's: the proof keeps it as the domain's condition
    assert dom.domain_text == "0 <= s and 0 <= m <= 2 * s and 0 <= e <= 1"
    assert "0 <= e <= 1" in [ast.unparse(tree) for tree, _ in dom.domain_conditions]


def test_a_proof_refuted_on_its_window_fails_loudly(write_spec):
    spec = load_spec(write_spec("[source]\nid = 's'\n" + claim_text("c", 'for_all = "0 <= n <= 5"\nholds = "n >= 0"')))
    c = spec.claim("c")
    proved = Verdict("c", "proved", "prove", "all n >= 0")
    window = Verdict("c", "refuted", "exhaustive", "0 <= n <= 5", counterexamples=[Counterexample({"n": 3}, False, True)])
    against_window(c, proved, window)
    assert proved.verdict == "inconclusive" and proved.evidence["prover_bug"].startswith("PROVER BUG")


# ----------------------------------------------------------------------------- mutants of the specs' true formulas

MUTATIONS = [
    ("thm-3.5-delete-nim", "v2((x | y) + 1)", "v2((x | y) + 2)", DELETE_NIM_STRATEGY),
    ("thm-3.5-delete-nim", "v2((x | y) + 1)", "v2((x | (y + 1)) + 1)", DELETE_NIM_STRATEGY),
    ("thm-1.17-cyclic-nimhoff-2", "xor(x // h, y // h)", "xor(x // (h + 1), y // h)", NIMHOFF_STRATEGY),
    ("thm-3.7-vdn", "x % 2 == 1 and y % 2 == 1", "x % 2 == 1 and y % 2 == 1 and x + y > 2", ""),
    ("thm-3.7-vdn", "x % 2 == 1 and y % 2 == 1", "x % 2 == 1 and y % 2 == 1 or x == 2", ""),
]


def mutant_spec(write_spec, cid: str, old: str, new: str, extra: str) -> pathlib.Path:
    """A copy of spec 004 holding only the claim `cid`, with its formula edited."""
    if not SPEC_004.exists():
        pytest.skip("specs/004 is not in this checkout")
    text = SPEC_004.read_text()
    head = text.split("[[claim]]")[0]
    blocks = ["[[claim]]" + b for b in text.split("[[claim]]")[1:]]
    block = next((b for b in blocks if re.search(rf'^id = "{re.escape(cid)}"', b, re.M)), None)
    if block is None:
        pytest.skip(f"claim {cid} is not in specs/004")
    assert old in block
    block = block.replace(old, new, 1)
    block = re.sub(r"^deep = .*$", "", block, flags=re.M)
    block = re.sub(r"^for_all = .*$", 'for_all = "' + _small_window(cid) + '"', block, count=1, flags=re.M)
    if extra and "strategy" not in block:
        block = block.rstrip() + "\n" + extra + "\n"
    return write_spec(head + block, name=f"mutant-{cid}.toml")


def _small_window(cid: str) -> str:
    if "nimhoff" in cid:
        return "1 <= h <= 3 and 0 <= x <= 12 and 0 <= y <= 12"
    if "vdn" in cid:
        return "1 <= x <= 16 and 1 <= y <= 16"
    return "0 <= x <= 16 and 0 <= y <= 16"


@pytest.mark.parametrize("cid, old, new, extra", MUTATIONS)
def test_mutants_are_refuted_by_every_method_that_answers(write_spec, cid, old, new, extra, tmp_path, monkeypatch, walnut):
    monkeypatch.setenv("NIMJOS_DATA", str(tmp_path / "data"))
    spec = load_spec(mutant_spec(write_spec, cid, old, new, extra))
    claim = spec.claim(cid)
    window = check_exhaustive(claim)
    assert window.verdict == "refuted"
    opts = RunOptions(timeout=8, sampling=SamplingLimits(examples=40, seconds=8))
    for method in (sample_claim, prove_claim):
        v = method(claim, opts)
        assert v.verdict in ("refuted", "inconclusive"), (method.__name__, v.verdict, v.scope)


def test_g_of_a_fraction_is_not_translated(write_spec):
    # 000 (15) prints G((n-t)k - sk - i + s - 1 + i/k): the argument is not an integer, and the window check
    # reports it ill-defined; the prover must say it cannot translate it, not fail inside Z3
    spec = load_spec(write_spec(GAMES.replace('[source]\nid = "p"', '[source]\nid = "q"\n[game.nim1]\nposition = ["x"]\nmoves = [ { to = "x - t", where = "1 <= t <= x" } ]') + claim_text(
        "frac", 'for_all = "2 <= k <= 4 and 0 <= i <= 5"\nholds = "G(nim1, i) == G(nim1, i + i / k)"')))
    v = prove(spec, "frac", timeout=5)
    assert v.verdict == "inconclusive"
    assert "need not be an integer" in v.scope and "failed" not in v.scope



def test_a_proof_from_an_unproved_claim_is_a_reduction_not_a_proof(write_spec):
    spec = load_spec(ROOT / "tests" / "data" / "lemmas.toml")
    v = prove(spec, "chain", timeout=10)
    assert v.verdict == "inconclusive"
    assert "follows (Z3) from shift" in v.scope and "not proved: shift" in v.scope
    # without the lemma Z3 cannot derive it (a claim is compiled at load: the spec is written without it)
    text = (ROOT / "tests" / "data" / "lemmas.toml").read_text()
    assert 'prove = { using = ["shift"] }\n' in text
    bare = load_spec(write_spec(text.replace('prove = { using = ["shift"] }\n', "", 1)))
    assert "follows" not in prove(bare, "chain", timeout=5).scope


def test_a_proof_from_proved_claims_is_a_proof_and_names_them():
    spec = load_spec(ROOT / "tests" / "data" / "lemmas.toml")
    v = prove(spec, "halves", timeout=10)
    assert v.verdict == "proved"
    assert "from half (proved: all x >= 0)" in v.scope


def test_a_false_lemma_cannot_prove_a_false_claim(write_spec):
    # the used claim is false (G(x) = 0 for every x); whatever Z3 derives from it, the window has the last word
    spec = load_spec(write_spec('''[source]
id = "bad-lemma"
[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]
[[claim]]
id = "zero"
for_all = "0 <= x"
window = "x <= 20"
holds = "G(nim1, x) == 0"
[[claim]]
id = "twice"
for_all = "0 <= n"
window = "n <= 20"
holds = "G(nim1, 2*n + 1) == G(nim1, 2*n)"
prove = { using = ["zero"] }
'''))
    v = prove(spec, "twice", timeout=10)
    assert v.verdict in ("inconclusive", "refuted")
    assert v.verdict != "proved"


@pytest.mark.parametrize("using, message", [
    ('["nosuch"]', "'nosuch' names no claim in this file"),
    ('["twice"]', "names the claim itself"),
    ('["table-claim"]', "not a `holds`, `grundy` or `p_positions` claim"),
])
def test_bad_using_is_a_located_spec_error(write_spec, using, message):
    from nimjos.lang.errors import SpecError
    p = write_spec(f'''[source]
id = "u"
[game.nim1]
position = ["x"]
moves = [ {{ to = "x - t", where = "1 <= t <= x" }} ]
[[claim]]
id = "game-claim"
game = "nim1"
for_all = "0 <= x <= 5"
grundy = "x"
[[claim]]
id = "twice"
for_all = "0 <= n"
window = "n <= 20"
holds = "n == n"
prove = {{ using = {using} }}
[[claim]]
id = "table-claim"
values = {{ of = "i", var = "i", from = 0, equal = [0, 1] }}
''')
    with pytest.raises(SpecError) as info:
        load_spec(p)
    text = str(info.value)
    assert message in text and str(p) in text and ":16:" in text and "field 'prove'" in text


def test_a_nim_sum_the_laws_cannot_settle_is_proved_with_bit_vectors(write_spec):
    # associativity of xor does not follow from the laws the int world gives xor; with 32-bit vectors Z3
    # decides it, and the verdict says which class that covers
    spec = load_spec(write_spec('''[source]
id = "assoc"
[[claim]]
id = "assoc"
for_all = "0 <= a and 0 <= b and 0 <= c"
window = "a <= 15 and b <= 15 and c <= 15"
holds = "xor(xor(a, b), c) == xor(a, xor(b, c))"
'''))
    v = prove(spec, "assoc", timeout=6)
    assert v.verdict == "proved-bounded"
    assert "every value below 2^32" in v.scope and v.scope.startswith("for a, b, c < 2^32 only")
    # a statement about xor alone is never proved by the laws of the abstraction: bit-vectors only
    assert any("restate the claim" in n for n in v.notes)


# ----------------------------------------------------------------------------- induction

INDUCTION = load_spec(ROOT / "tests" / "data" / "induction.toml")


def test_induction_proves_a_grundy_formula_from_the_moves_alone():
    v = prove_claim(INDUCTION.claim("sub2-parity"), RunOptions(timeout=20))
    assert v.verdict == "proved"
    assert "by strong induction on x" in v.scope


def test_induction_refutes_a_wrong_formula_with_a_reevaluated_counterexample():
    v = prove_claim(INDUCTION.claim("sub2-wrong"), RunOptions(timeout=20))
    assert v.verdict == "refuted"
    assert v.counterexamples[0].bindings == {"x": 2}
    assert v.counterexamples[0].detail["found by"] == "Z3, re-evaluated exactly"


def test_without_induction_the_same_claim_is_not_proved(write_spec):
    """G is an unknown function: without the induction step nothing ties it to the game."""
    text = (ROOT / "tests" / "data" / "induction.toml").read_text().replace('prove = { induction = "x" }\n', "")
    v = prove_claim(load_spec(write_spec(text)).claim("sub2-parity"), RunOptions(timeout=5))
    assert v.verdict == "inconclusive"


def test_induction_needs_a_domain_bounded_below(write_spec):
    spec = load_spec(write_spec("""
[source]
id = "p"
[game.sub1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= 1 and t <= x" } ]
[[claim]]
id = "c"
for_all = "-5 <= x"
window = "x <= 5"
holds = "G(sub1, x) >= 0"
prove = { induction = "x" }
expect = "ill-defined"
"""))
    v = prove_claim(spec.claims[0], RunOptions(timeout=5))
    assert v.verdict == "inconclusive"
    assert "needs a domain with x >= 0" in v.scope


def test_a_proof_scope_prints_the_domain_in_clean_form(write_spec):
    # the window's raw bounds printed "all n >= max(0, 0), 0 + 1 <= d <= n" and "1 <= d <= n - 1 - 0"
    spec = load_spec(write_spec("[source]\nid = 'd'\n" + claim_text(
        "two-lows", 'for_all = "0 <= n and n >= 0 and 0 + 1 <= d <= n"\nwindow = "n <= 100"\nholds = "n - d < n"') + claim_text(
        "stated", 'for_all = "n >= 1 and 1 <= d <= n - 1 - 0"\nwindow = "1 <= n <= 60 and 1 <= d <= n - 1 - 0"\n'
                  'holds = "n - d >= 1"')))
    for cid, want in [("two-lows", "all n >= 0, 1 <= d <= n"), ("stated", "all n >= 1, 1 <= d <= n - 1")]:
        v = prove(spec, cid)
        assert v.verdict == "proved", v.scope
        assert v.scope.split(";")[0] == want
        assert "max(" not in v.scope and "+ 1 <=" not in v.scope and "- 0" not in v.scope
