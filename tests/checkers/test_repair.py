"""Repair suggestions: only candidates rechecked on the whole window, fewest edits first."""
from __future__ import annotations

from checkers.repair import find_repairs
from checkers.run import RunOptions, run_claim
from nimjos.spec.loader import load_spec

SPEC = '''[source]
id = "rep"
[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]
[[claim]]
id = "jos"
for_all = "1 <= n"
window = "n <= 200"
holds = "survivor(n, 2) == 2 * (n - 2 ** ilog2(n + 1)) + 1"
expect = "refuted"
[[claim]]
id = "p-from-1"
game = "sub12"
for_all = "0 <= n"
window = "n <= 100"
p_positions = [ { point = "3 * j", where = "j >= 1" } ]
expect = "refuted"
[[claim]]
id = "hopeless"
game = "sub12"
for_all = "0 <= n"
window = "n <= 100"
grundy = "n % 7"
expect = "refuted"
'''


def test_repairs_found_and_rechecked(write_spec):
    spec = load_spec(write_spec(SPEC))
    texts = [r.text for r in find_repairs(spec.claim("jos"))]
    assert "survivor(n, 2) == 2 * (n - 2 ** ilog2(n)) + 1" in texts
    fams = find_repairs(spec.claim("p-from-1"))
    assert fams and fams[0].field == "p_positions[0].where" and fams[0].text == "j >= 0"
    assert all(r.verdict == "checked" and r.instances == 101 for r in fams)


def test_no_repair_is_invented(write_spec):
    spec = load_spec(write_spec(SPEC))
    assert find_repairs(spec.claim("hopeless")) == []


def test_repairs_reach_the_run_result(write_spec):
    spec = load_spec(write_spec(SPEC))
    result = run_claim(spec.claim("p-from-1"), RunOptions(methods=("exhaustive",)))
    assert result.final.evidence["repairs"][0]["text"] == "j >= 0"


def test_a_misprint_repeated_in_one_formula_is_repaired_everywhere():
    # 003 Lemma 3.2 (v), (26): the starting position (x, 2n + 2i - 2) is printed twice; its correction
    # (x, 2n + 2i) needs the same edit at both places
    import ast
    import pathlib
    from nimjos.lang.syntax import parse
    root = pathlib.Path(__file__).resolve().parents[2]
    spec = load_spec(root / "specs" / "003_turn_nim_and_weighted_nim.toml")
    found = find_repairs(spec.claim("lemma-3.2-26"))
    assert found and found[0].edits == ["summand 2 dropped from 2 * n + 2 * i - 2 (at every occurrence)"]
    # the candidate is the corrected sibling of the spec, found by search
    assert ast.dump(parse(found[0].text)) == ast.dump(parse(spec.claim("lemma-3.2-26-corrected").raw["holds"]))


def test_checking_candidates_at_the_counterexamples_first_finds_the_same_repairs(write_spec):
    from checkers.window.exhaustive import check_exhaustive
    spec = load_spec(write_spec(SPEC))
    for cid in ("jos", "p-from-1", "hopeless"):
        claim = spec.claim(cid)
        cxs = check_exhaustive(claim).counterexamples
        assert cxs
        plain = [dict(r.to_json(), rechecked_at=None) for r in find_repairs(claim)]
        found = find_repairs(claim, counterexamples=cxs)
        assert [dict(r.to_json(), rechecked_at=None) for r in found] == plain
        assert all(r.rechecked_at == len(cxs) for r in found)   # window points: the same repairs, each rechecked there


def _moore_eight_bits():
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2]
    return load_spec(root / "examples" / "heap_games.toml").claim("moore-nim-2-eight-bits")


def test_candidates_are_rechecked_at_every_counterexample_given_not_only_the_first():
    # the printed claim looks at the 8 lowest binary digits; it fails at heap 256 (found beyond the window by
    # sampling). "range(9)" holds on the window and at 256 but fails at 512: given 512 anywhere in the list of
    # counterexamples, it must not be proposed
    from nimjos.verdict import Counterexample
    claim = _moore_eight_bits()
    at = [Counterexample({"n": 1, "h": (h,)}, "N", "P") for h in (256, 256, 256, 512)]
    texts = [r.text for r in find_repairs(claim, counterexamples=at)]
    assert not any("range(9)" in t for t in texts), texts
    assert all(r.rechecked_at == 2 for r in find_repairs(claim, counterexamples=at))


def test_the_run_rechecks_corrections_at_the_counterexamples_of_every_method(monkeypatch):
    # two methods refute the claim at different heaps (256 and 512); the final verdict shows one of them, and a
    # correction must hold at both: "range(9)" holds at 256 but not at 512
    import checkers.run as run
    from nimjos.verdict import Counterexample, Verdict
    claim = _moore_eight_bits()

    def refuted_at(heap):
        def method(claim, opts, earlier, context):
            return Verdict(claim.id, "refuted", "sample", f"heap {heap}", instances=1, failures=1,
                           counterexamples=[Counterexample({"n": 1, "h": (heap,)}, "N", "P")])
        return method
    monkeypatch.setitem(run.METHODS, "prove", refuted_at(256))
    monkeypatch.setitem(run.METHODS, "sample", refuted_at(512))
    result = run_claim(claim, RunOptions(methods=("exhaustive", "prove", "sample")))
    assert result.final.verdict == "refuted"
    texts = [r.text for r in result.repairs]
    assert not any("range(9)" in t for t in texts), texts
    assert all(r.rechecked_at == 2 for r in result.repairs)


DEEP = SPEC.replace('holds = "survivor(n, 2)', 'deep = { window = "n <= 400" }\nholds = "survivor(n, 2)')


def test_candidate_compiled_for_its_profile_only(write_spec, monkeypatch):
    """A candidate is compiled for the run's profile alone; another profile is compiled when it is first asked
    for, to the plan a full compilation gives, and the corrections found are the same either way."""
    from nimjos.spec.loader import revise_claim
    claim = load_spec(write_spec(DEEP)).claim("jos")
    text = "survivor(n, 2) == 2 * (n - 2 ** ilog2(n)) + 1"
    lazy = revise_claim(claim, "holds", text, "c1", profiles=("default",))
    assert set(lazy.plans) == {"default"}
    full = revise_claim(claim, "holds", text, "c2")
    assert set(full.plans) == {"default", "deep"}
    assert lazy.plan("deep").window.describe() == full.plan("deep").window.describe() != lazy.plan().window.describe()
    plain = load_spec(write_spec(SPEC)).claim("jos")
    one = revise_claim(plain, "holds", text, "c3", profiles=("deep",))
    assert one.plan("deep") is one.plan("default")   # no deep table: one plan for both profiles
    found = {p: [r.to_json() for r in find_repairs(claim, p)] for p in ("default", "deep")}
    import checkers.repair
    every = checkers.repair.revise_claim

    def compiled_for_all(*args, profiles=(), **kw):   # the search as it was: each candidate for every profile
        return every(*args, **kw)
    monkeypatch.setattr(checkers.repair, "revise_claim", compiled_for_all)
    assert found == {p: [r.to_json() for r in find_repairs(claim, p)] for p in ("default", "deep")}
    assert found["default"] and found["default"] != found["deep"]   # each profile's own window
