"""Periodicity proved for every heap size: the verification method ``periodicity``.

A ``periodic`` claim (``periodic = { period = p, preperiod = n0 }``) about a heap game with a finite code
(``octal("0.77")``, a take-and-break game) or a subtraction game with a finite set is decided for every
n >= n0 by a theorem that needs only a finite computation (:mod:`nimjos.games.heaps.periodicity`: Guy-Smith;
the repeating state of a finite subtraction game): the verdict is ``proved`` (the scope names the theorem and
the range computed) or ``refuted`` at the least n >= n0 with g(n + p) != g(n). Any other claim, game or an
arithmetic-periodic claim (saltus != 0): the method does not apply (None).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "examples" / "heap_games.toml")
>>> periodic_verdict(spec.claim("kayles-period-12"), RunOptions()).verdict
'proved'
"""
from __future__ import annotations

import time
from typing import Any

from checkers.options import RunOptions
from nimjos.games.declared import PythonGame, as_instance
from nimjos.games.heaps.game import HeapGame
from nimjos.games.heaps.periodicity import PeriodicityProof, octal_proof, subtraction_proof
from nimjos.lang.errors import EvalError
from nimjos.verdict import Counterexample, Verdict

METHOD = "periodicity"
#: the most distinct parameter bindings of a window the method proves one by one
MAX_INSTANCES = 64


def _proof(inst: Any, period: Any, preperiod: Any) -> PeriodicityProof | None:
    if isinstance(inst, HeapGame):
        return octal_proof(inst.rules, period, preperiod)
    if isinstance(inst, PythonGame) and inst.name == "subtraction":
        return subtraction_proof(inst.params.get("S"), period, preperiod)
    return None


def periodic_verdict(claim: Any, opts: RunOptions) -> Verdict | None:
    """``proved`` / ``refuted`` for a periodic claim a periodicity theorem decides; None otherwise."""
    if claim.kind != "periodic":
        return None
    started = time.perf_counter()
    plan = claim.plan(opts.profile)
    if plan.pattern is None or plan.game is None or len(plan.coords) != 1:
        return None
    coord = plan.coords[0]
    names = plan.window.names
    params = [n for n in names if n != coord]
    seen: dict[tuple, Any] = {}
    for env in plan.window.bindings({}):
        key = tuple(env[n] for n in params)
        if key not in seen:
            seen[key] = dict(env)  # the binder reuses its dict
            if len(seen) > MAX_INSTANCES:
                return None
    proofs = []
    for key, env in seen.items():
        try:
            pat = {k: fn(env) for k, fn in plan.pattern.items()}
            if pat.get("saltus", 0) != 0:
                return None
            proof = _proof(as_instance(plan.game(env)), pat["period"], pat.get("preperiod", 0))
        except EvalError:
            return None  # the window method reports it where it happens
        if proof is None:
            return None
        proofs.append((dict(zip(params, key)), proof))
    seconds = time.perf_counter() - started
    failed = [(b, p) for b, p in proofs if not p.holds]
    if failed:
        bindings, proof = min(failed, key=lambda bp: bp[1].first_failure)
        cx = Counterexample({**bindings, coord: proof.first_failure}, proof.values[0], proof.values[1],
                            detail={"statement": f"G({proof.first_failure} + {proof.period}) = "
                                                 f"G({proof.first_failure})"})
        return Verdict(claim.id, "refuted", METHOD, f"{proof.theorem}; checked {proof.checked[0]} <= n < "
                       f"{proof.checked[1]}", instances=len(proofs), assumption_held=len(proofs),
                       counterexamples=[cx], failures=len(failed), seconds=seconds, notes=[proof.describe()])
    scopes = sorted({f"every {coord} >= {p.preperiod}: {p.theorem}; computed g(n + {p.period}) = g(n) for "
                     f"{p.checked[0]} <= n < {p.checked[1]}" for _, p in proofs})
    return Verdict(claim.id, "proved", METHOD, "; ".join(scopes), instances=len(proofs),
                   assumption_held=len(proofs), seconds=seconds,
                   largest=max(p.checked[1] + p.period for _, p in proofs),
                   notes=[p.describe() for _, p in proofs][:4])
