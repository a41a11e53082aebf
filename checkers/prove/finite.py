"""A finite domain, wholly enumerated, is proved: the window's check of every instance of the domain is a proof.

A claim whose ``for_all`` bounds every name (and which gives no ``window`` of its own in the profile, so that
the window *is* the domain) states something about finitely many instances; when the window checked every one
of them against ground truth from the moves (verdict ``checked``), the claim is true on its whole domain. The
verdict is ``proved``, its scope ``exhaustive: the whole domain, N instances`` and the domain as printed.

What could make this lie, and what is checked against it:

* a domain that is only a part of the statement: a claim with a ``window`` of its own in the profile (even one
  that repeats the domain's bounds) is never proved here, nor a domain with a name unbounded above;
* a window check that covered part of the domain: pinned (``--at``) or sharded runs, a verdict other than
  ``checked`` (ill-defined or refuted instances, a vacuous assumption), a count of instances that differs from
  the count of the domain's own bindings (recounted here, up to :data:`MOST` instances);
* an assumption that filters: the statement is an implication, true where the assumption fails; the scope
  says how many instances satisfied it;
* values outside int64: the vectorised window refuses to evaluate what could overflow and falls back to the
  exact scalar path (nimjos.lang.vector), so a ``checked`` is exact arithmetic.

A printed table (``values``) is finite by construction: the window compares each printed value, so it is
proved the same way ("the whole printed table").

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "finite.toml")
>>> from checkers.options import RunOptions
>>> v = finite_proof(spec.claim("small-square"), RunOptions())
>>> v.verdict, v.scope
('proved', 'exhaustive: the whole domain, 11 instances (0 <= x <= 10)')
>>> finite_proof(spec.claim("open-domain"), RunOptions()) is None
True
"""
from __future__ import annotations

from typing import Any

from nimjos.spec.loader import Claim
from nimjos.spec.plan import ValuesPlan, WindowPlan
from nimjos.verdict import Verdict, phrases
from nimjos.words import PhraseKind
from checkers.window.exhaustive import check_exhaustive
from checkers.options import RunOptions
from checkers.prove.scope import domain_words

#: the most instances the domain's bindings are recounted for; a larger finite domain is left to the prover
MOST = 2_000_000
METHOD = "prove"


def finite_reason(claim: Claim, opts: RunOptions) -> str | None:
    """None when the claim's domain is finite and its window is that whole domain (in this profile), else why not.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "finite.toml")
    >>> finite_reason(spec.claim("small-square"), RunOptions()) is None
    True
    >>> finite_reason(spec.claim("window-equal-to-domain"), RunOptions())
    'the claim gives a window of its own (a part of the domain)'
    """
    if claim.prove.skip:
        return "the claim asks not to be proved (prove.skip)"
    if opts.pins:
        return "a pinned run checks single instances"
    if getattr(opts, "shard", None):
        return "a sharded run checks part of the window"
    plan = claim.plan(opts.profile)
    if isinstance(plan, ValuesPlan):
        return None
    if not isinstance(plan, WindowPlan):
        return "no window"
    dom = plan.domain
    if dom.window is not None or claim.get("window", opts.profile) is not None:
        return "the claim gives a window of its own (a part of the domain)"
    if dom.unbounded or plan.window.unbounded_levels():
        return "the domain is infinite"
    return None


def finite_proof(claim: Claim, opts: RunOptions, window: Verdict | None = None) -> Verdict | None:
    """``proved`` when the window enumerated the whole finite domain and the claim held at every instance
    (module docstring); None when the domain is not finite and whole, or the window did not check it all.
    `window` is the window's verdict when the runner has it (None: the window is checked here).
    """
    if finite_reason(claim, opts) is not None:
        return None
    if window is None:
        window = check_exhaustive(claim, opts.profile, 1)
    if window.verdict != "checked" or window.undefined or window.failures or not covers_domain(claim, opts, window):
        return None
    plan = claim.plan(opts.profile)
    if isinstance(plan, ValuesPlan):
        what = f"exhaustive: the whole printed table, {window.instances:,} values"
    else:
        assert isinstance(plan, WindowPlan), "finite_reason admits a printed table or a claim over a window"
        count = window.instances
        what = f"exhaustive: the whole domain, {count:,} instance{'s' if count != 1 else ''}" + \
            (f" ({domain_words(plan.domain.tree)})" if plan.domain.tree is not None else " (a closed statement)")
    return Verdict(claim.id, "proved", METHOD, phrases((PhraseKind.CLASS, what)), instances=window.instances,
                   assumption_held=window.assumption_held, seconds=window.seconds,
                   engines=("exhaustive",) + tuple(window.engines),
                   notes=["the window enumerated every instance of the finite domain, ground truth from the moves"])


def covers_domain(claim: Claim, opts: RunOptions, window: Verdict) -> bool:
    """Whether the window's verdict `window` judged every instance of the claim's domain: the domain is finite and
    the window is that whole domain (:func:`finite_reason`), the window evaluated as many instances as the domain has
    (recounted), and none was left unevaluated by a limit. Then no other method can find what the window did not:
    a window that found the claim ill-defined there decides it (a refutation would have been found too).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "finite.toml")
    >>> square = spec.claim("small-square")
    >>> covers_domain(square, RunOptions(), check_exhaustive(square, "default", 1))
    True
    >>> covers_domain(square, RunOptions(), Verdict("c", "checked", "exhaustive", "", instances=10))
    False
    >>> open_domain = spec.claim("open-domain")
    >>> covers_domain(open_domain, RunOptions(), check_exhaustive(open_domain, "default", 1))
    False
    """
    if window.method != "exhaustive" or finite_reason(claim, opts) is not None:
        return False
    if any(cx.over_limit for cx in window.undefined):
        return False
    plan = claim.plan(opts.profile)
    if isinstance(plan, ValuesPlan):
        return True
    assert isinstance(plan, WindowPlan), "finite_reason admits a printed table or a claim over a window"
    count = _count(plan)
    return count is not None and count == window.instances


def _count(plan: Any) -> int | None:
    """The number of bindings of the domain (the window's binder, the same condition), or None past MOST."""
    n = 0
    for _ in plan.window.bindings({}):
        n += 1
        if n > MOST:
            return None
    return n
