"""The per-claim context (checkers.context): a claim's verdicts do not depend on which claims were checked before
it in the same process; its evaluation budget, engine and Z3 contexts are its own."""
import json
import pathlib
import re
import subprocess
import sys

import pytest

from checkers.context import CheckContext
from nimjos.games.engine import active_engine, default_engine
from nimjos.lang.errors import ResourceError
from nimjos.lang.runtime import MAX_STEPS, active_budget, step_limit

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: claims whose prover results could depend on state left by another claim: Z3 with the Maximum Nim rule-function
#: lemma (its per-context check of f), induction, a proof from a used claim (its own attempts), a refutation
CLAIMS = [("tests/data/induction.toml", "maxnim-lemma-3.1-ii"), ("tests/data/lemmas.toml", "halves"),
          ("tests/data/induction.toml", "sub2-parity"), ("tests/data/induction.toml", "maxnim-lemma-3.1-i-mutant")]

_SCRIPT = """
import json, pathlib, re, sys, z3
from nimjos.lang.errors import NimjosError
from nimjos.spec.loader import load_spec
from checkers.run import run_claim, RunOptions
out = {}
timed = lambda text: re.sub(r"\\d+(\\.\\d+)? s\\b", "(time) s", text)   # wall-clock seconds are not results
for path, cid in json.loads(sys.argv[1]):
    claim = load_spec(pathlib.Path(path)).claim(cid)
    try:
        result = run_claim(claim, RunOptions(timeout=5, repair=False))
    except NimjosError as exc:
        out[cid] = ["error", str(exc)]
        continue
    out[cid] = [[v.method, v.verdict, timed(v.scope), sorted(map(timed, v.notes)), [repr(c.bindings) for c in v.counterexamples]]
                for v in result.verdicts]
out["main context made"] = z3.z3._main_ctx is not None
print(json.dumps(out))
"""


def _run_in_order(claims: list) -> dict:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(claims)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_verdicts_and_prover_results_do_not_depend_on_the_order_of_claims(starts_processes):
    forward = _run_in_order(CLAIMS)
    backward = _run_in_order(CLAIMS[::-1])
    assert forward == backward
    assert [v[1] for v in forward["maxnim-lemma-3.1-ii"] if v[0] == "prove"] == ["proved"]
    # every Z3 term and solver of the checks is made in a claim's own z3.Context, never in z3's default one
    assert forward["main context made"] is False


#: "fills" spends most of the evaluation budget on a recursion whose values the memo keeps; "needs" needs that
#: budget: alone it takes more than the 1,000,000 steps of one evaluation (the recursion 5,000 deep, evaluated
#: bottom-up, and a comprehension of 996,000), so it is over the limit, in whichever order (before the per-claim
#: context it held after "fills", whose memo of depth() spared it the recursion's steps)
MEMO_SPEC = """
[source]
id = "memo"

[define]
"depth(n)" = "0 if n == 0 else depth(n - 1) + 1"

[[claim]]
id = "fills"
for_all = "0 <= n <= 1"
holds = "depth(5000 + n) >= n"

[[claim]]
id = "needs"
for_all = "0 <= n <= 1"
holds = "depth(5000 + n) + len([i for i in range(996000)]) >= n"
"""


def test_a_claim_that_needs_the_budget_is_judged_alike_after_one_that_spent_it(tmp_path, starts_processes):
    spec = tmp_path / "memo.toml"
    spec.write_text(MEMO_SPEC)
    alone = _run_in_order([(str(spec), "needs")])["needs"]
    after = _run_in_order([(str(spec), "fills"), (str(spec), "needs")])["needs"]
    assert alone == after
    assert alone[0] == "error" and "1,000,000 steps" in alone[1]


def test_a_claims_budget_is_not_shared_with_another_claims():
    first, second = CheckContext.for_claim(), CheckContext.for_claim()
    with first.installed():
        assert active_budget() is first.budget
        active_budget().spend(MAX_STEPS - 10)       # most of one evaluation's budget, not restarted
        with step_limit(5):
            with second.installed():                # another claim: its own count and its own limit
                assert active_budget() is second.budget and active_budget().limit == MAX_STEPS
                active_budget().spend(1_000)       # would be over the first claim's limit
            with pytest.raises(ResourceError):
                active_budget().spend(1)
    assert (first.budget.spent, second.budget.spent) == (MAX_STEPS - 9, 1_000)
    assert active_budget() is not first.budget and active_budget() is not second.budget


def test_a_claims_engine_is_its_own_with_the_runs_settings():
    before = default_engine().max_positions
    default_engine().max_positions = 12_345
    try:
        a, b = CheckContext.for_claim(), CheckContext.for_claim()
    finally:
        default_engine().max_positions = before
    assert a.engine is not b.engine and a.engine.max_positions == b.engine.max_positions == 12_345
    with a.installed():
        assert active_engine() is a.engine
        active_engine().asked.add("a game")
    assert b.engine.asked == set() and active_engine() is default_engine()


def test_each_proof_attempt_has_a_z3_context_of_its_own():
    c = CheckContext.for_claim()
    one, two = c.solver_context(), c.solver_context()
    assert one.ctx != two.ctx and one.rule_functions is not two.rule_functions
    assert c.solver_contexts == [one, two]


def test_no_module_resets_z3s_default_context():
    # a supplement to the order test above: the source neither assigns z3's private default context nor asks for it
    offenders = [str(p.relative_to(ROOT)) for d in ("nimjos", "checkers") for p in (ROOT / d).rglob("*.py")
                 if re.search(r"_main_ctx\s*=|main_ctx\(\)", p.read_text())]
    assert offenders == []
