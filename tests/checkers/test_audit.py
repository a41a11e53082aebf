"""The audit of a proof (checkers.audit): a proof that lies is caught at a probe point of the domain beyond the
window, whatever backend produced it. The provers are replaced here by liars, so that these tests keep failing
loudly if the audit stops looking, however sound the real backends become."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import checkers.run as run
from checkers.audit import PROVER_BUG, audit_proof, probe_points
from nimjos.spec.loader import load_spec
from nimjos.verdict import ProvedClass, Verdict

SPEC = """
[source]
id = "audit"

[[claim]]
id = "negative-part"
text = "x >= 0, for x >= -5 (false at -5..-1, which the window leaves out)"
window = "0 <= x <= 20"
for_all = "x >= -5"
holds = "x >= 0"

[[claim]]
id = "filtered"
text = "x is even (the window keeps even x only)"
window = "0 <= x <= 40 and x % 2 == 0"
for_all = "x >= 0"
holds = "x % 2 == 0"

[[claim]]
id = "far"
text = "x < 2^40 (false far beyond the window)"
window = "0 <= x <= 20"
for_all = "x >= 0"
holds = "x < 2 ** 40"

[[claim]]
id = "assumed"
text = "odd x is odd; even x say nothing"
window = "0 <= x <= 20"
for_all = "x >= 0"
assume = "x % 2 == 1"
holds = "x % 2 == 1"

[[claim]]
id = "true"
text = "x * x >= x"
window = "0 <= x <= 20"
for_all = "x >= -3"
holds = "x * x >= x"

[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]

[[claim]]
id = "game-beyond"
text = "G(n) = n mod 3 only up to 30 (false at 31)"
game = "sub12"
window = "0 <= n <= 20"
for_all = "n >= 0"
grundy = "n % 3 if n <= 30 else 0"
"""


@pytest.fixture()
def spec(tmp_path: Path):
    path = tmp_path / "audit.toml"
    path.write_text(textwrap.dedent(SPEC))
    return load_spec(path)


def _lie(claim, word="proved"):
    return Verdict(claim.id, word, "prove", "all x: a prover that lies")


@pytest.mark.parametrize("cid, at", [("negative-part", {"x": -1}), ("filtered", {"x": 1}), ("far", {"x": 2 ** 40 - 1}),
                                     ("game-beyond", {"n": 31})])
def test_a_lying_proof_is_caught(spec, cid, at):
    claim = spec.claim(cid)
    proof = _lie(claim)
    audit = audit_proof(claim, proof)
    assert audit.verdict == "refuted"
    assert proof.verdict == "inconclusive" and PROVER_BUG in proof.evidence
    cx = audit.counterexamples[0].bindings
    # the failing probe is a real counterexample, inside the domain, outside the window
    assert claim.plan().domain.contains(cx)
    assert not claim.plan().formula(cx)
    if cid == "negative-part":
        assert cx == at   # the nearest negative value is probed first


def test_proved_bounded_is_audited_too(spec):
    claim = spec.claim("far")
    proof = _lie(claim, "proved-bounded")
    audit = audit_proof(claim, proof)
    # a refutation; not a prover bug, since the point may lie outside the class (recorded only in part)
    assert audit.verdict == "refuted" and proof.verdict == "proved-bounded" and PROVER_BUG not in proof.evidence
    # a class recorded as values of an enumerated name is probed only there
    proof = Verdict(claim.id, "proved-bounded", "prove", "for x = 0..20 only",
                    proved_class=ProvedClass(enumerated={"x": tuple(range(21))}))
    assert audit_proof(claim, proof) is None


def test_probes_respect_the_domain_and_the_assumption(spec):
    claim = spec.claim("assumed")
    points = probe_points(claim.plan())
    assert points and all(p["x"] % 2 == 1 and p["x"] > 20 for p in points)
    proof = _lie(claim)
    assert audit_proof(claim, proof).verdict == "checked" and proof.verdict == "proved"
    # a domain bounded below keeps every probe inside it
    claim = spec.claim("negative-part")
    assert all(p["x"] >= -5 for p in probe_points(claim.plan()))


def test_a_true_claim_keeps_its_proof(spec):
    claim = spec.claim("true")
    proof = _lie(claim)
    audit = audit_proof(claim, proof)
    assert audit.verdict == "checked" and proof.verdict == "proved"
    assert any(p["x"] < 0 for p in probe_points(claim.plan()))


def test_run_claim_falls_back_and_says_so(spec, monkeypatch):
    monkeypatch.setitem(run.METHODS, "prove", lambda claim, opts, earlier, context: _lie(claim))
    result = run.run_claim(spec.claim("negative-part"), run.RunOptions(repair=False))
    assert result.final.verdict == "refuted"
    prove = next(v for v in result.verdicts if v.method == "prove")
    assert prove.verdict == "inconclusive" and any("PROVER BUG" in n for n in prove.notes)


def test_the_command_line_exits_3_on_a_prover_bug(tmp_path, walnut):
    """End to end, with a prover the test cannot replace: a claim the Walnut translation is known to have
    proved falsely (negative values of the domain). When the translation is right the proof is refused and
    the claim is refuted by other means (exit 0, no note); when it is wrong the audit must say so (exit 3)."""
    path = tmp_path / "neg.toml"
    path.write_text(textwrap.dedent(SPEC))
    out = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(path), "--claim", "negative-part",
                          "--no-store", "--json"], capture_output=True, text=True)
    data = json.loads(out.stdout)
    final = data["claims"][0]
    assert final["verdict"] == "refuted"
    bug = "PROVER BUG" in out.stderr
    assert out.returncode == (3 if bug else 1)   # no expect: refuted disagrees with the default


def test_the_window_is_estimated_once_per_audit_with_the_same_count_of_steps(spec, monkeypatch):
    """Every probe lies beyond the window, where the window's resource estimate is the same at each: the audit makes
    it once (not at each of its probes), and charges each later probe the steps it counted, so the audit's verdict,
    its probes and its count of steps are those of estimating at every probe."""
    import checkers.audit as audit_module
    import checkers.window.exhaustive as exhaustive
    from checkers.context import CheckContext
    from nimjos.spec.budget import enforce_limits

    def run_audit(claim):
        context = CheckContext.for_claim()
        with context.installed():
            proof = _lie(claim)
            v = audit_proof(claim, proof)
        return (v.verdict, v.instances, v.scope, [cx.bindings for cx in v.counterexamples]), context.budget.spent

    calls = []

    def counted(plan, pins=None):
        calls.append(pins)
        return enforce_limits(plan, pins)

    for cid in ("negative-part", "far", "assumed", "true"):
        claim = spec.claim(cid)
        calls.clear()
        monkeypatch.setattr(audit_module, "enforce_limits", counted)
        monkeypatch.setattr(exhaustive, "enforce_limits", counted)
        once = run_audit(claim)
        assert calls == [None], cid
        # the audit as it was: check_exhaustive estimating the window again at every probe
        plain = exhaustive.check_exhaustive
        monkeypatch.setattr(audit_module, "enforce_limits", lambda plan, pins=None: None)
        monkeypatch.setattr(audit_module, "check_exhaustive",
                            lambda *a, window_limits=True, **k: plain(*a, **k))
        calls.clear()
        every = run_audit(claim)
        assert len(calls) == once[0][1], cid   # one estimate per probe evaluated
        assert cid in ("negative-part", "far") or len(calls) > 1, cid
        assert once == every, cid
        monkeypatch.undo()
