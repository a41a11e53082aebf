"""A worker process that dies takes only its own claim down (issue 24, item 5): the claims of its pool that got no
result run again, each alone in a process of its own; a claim that ends its process again is ``inconclusive``
with the reason, and every other claim keeps the verdict it gets when the claims run one after another.

The crash is deliberate: :func:`crash_on_request`, given to :func:`nimjos.app.claim_pool.run_claims` as the
function a worker runs per claim (its ``worker`` argument), aborts the process on the claims named ``boom``
(every time) and ``once`` (only the first time: a marker file beside the spec remembers it), and runs every other
claim as the pool does (:func:`nimjos.app.claim_pool._run_one`).
"""
from __future__ import annotations

import os
import pathlib
import resource

from checkers.run import RunOptions
from nimjos.app import claim_pool
from nimjos.spec.loader import load_spec

SPEC = '''[source]
id = "crash"
[[claim]]
id = "boom"
for_all = "0 <= p"
window = "p <= 30"
holds = "p >= 0"
[[claim]]
id = "once"
for_all = "0 <= p"
window = "p <= 20"
holds = "p * p >= p"
[[claim]]
id = "ceil"
for_all = "0 <= p and 1 <= q"
window = "p <= 30 and q <= 9"
holds = "p // q == ceil(p / q)"
'''


def crash_on_request(path: str, claim_id: str, opts):
    """The pool's worker, except that it aborts its process on the claim `boom`, and on `once` the first time."""
    marker = pathlib.Path(path).with_suffix(".crashed-once")
    if claim_id == "boom" or (claim_id == "once" and not marker.exists()):
        if claim_id == "once":
            marker.touch()
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # no core file
        os.abort()
    return claim_pool._run_one(path, claim_id, opts)


def words(results) -> dict:
    return {claim.id: (r.final.verdict, r.final.instances) for _, claim, r in results}


def test_a_claim_that_kills_its_process_is_inconclusive_and_the_others_keep_their_verdicts(write_spec, starts_processes):
    spec = load_spec(write_spec(SPEC))
    opts = RunOptions(methods=("exhaustive",))
    results = list(claim_pool.run_claims(spec.claims, opts, jobs=2, worker=crash_on_request))
    assert sorted(i for i, _, _ in results) == list(range(len(spec.claims)))     # every claim, once
    got = words(results)
    boom = next(r for _, c, r in results if c.id == "boom").final
    assert boom.verdict == "inconclusive"
    assert boom.scope.startswith("the engine crashed: the claim's process ended by signal SIGABRT"), boom.scope
    # two processes: boom and ceil on one, once on the other; both die, and the three claims run alone: the
    # others, the claim that crashed only once included, get what they get one after another
    one_by_one = words(claim_pool.run_claims(spec.claims[1:], opts, jobs=1))
    assert {k: v for k, v in got.items() if k != "boom"} == one_by_one
    assert one_by_one == {"once": ("checked", 21), "ceil": ("refuted", 279)}


def test_how_a_process_ended():
    assert claim_pool.how_it_ended(-9) == "signal SIGKILL (9)"
    assert claim_pool.how_it_ended(3) == "exit status 3"


def _broken_check(claim, opts):
    raise ValueError("a bug met by this claim only")


def raise_on_request(path: str, claim_id: str, opts):
    """The pool's worker, except that the check of the claim `boom` raises an internal error (a bug of nimjos)."""
    real = claim_pool.run_claim
    if claim_id == "boom":
        claim_pool.run_claim = _broken_check     # in this worker process, for this claim only
    try:
        return claim_pool._run_one(path, claim_id, opts)
    finally:
        claim_pool.run_claim = real


def test_an_internal_error_of_one_claim_leaves_the_others_their_verdicts(write_spec, starts_processes):
    spec = load_spec(write_spec(SPEC))
    opts = RunOptions(methods=("exhaustive",))
    results = list(claim_pool.run_claims(spec.claims, opts, jobs=2, worker=raise_on_request))
    boom = next(r for _, c, r in results if c.id == "boom").final
    assert boom.verdict == "inconclusive" and "internal error: ValueError: a bug met by this claim only" in boom.scope
    assert {k: v for k, v in words(results).items() if k != "boom"} == {"once": ("checked", 21), "ceil": ("refuted", 279)}


def test_an_internal_error_run_here_leaves_the_others_their_verdicts(write_spec, monkeypatch):
    spec = load_spec(write_spec(SPEC))
    real = claim_pool.run_claim
    monkeypatch.setattr(claim_pool, "run_claim", lambda c, o: _broken_check(c, o) if c.id == "boom" else real(c, o))
    results = list(claim_pool.run_claims(spec.claims, RunOptions(methods=("exhaustive",)), jobs=1))
    assert words(results) == {"boom": ("inconclusive", 0), "once": ("checked", 21), "ceil": ("refuted", 279)}
