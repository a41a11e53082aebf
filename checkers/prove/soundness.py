"""A proof against its window: the one rule, applied by the dispatcher (checkers.run) to the verdict of every
proving route (Z3, Walnut, the formulas standing for G, the heap reduction, the misère finite check, periodicity),
and by the prover to each claim another proof uses (:func:`checkers.prove.method.prove_lemma`).

A ``proved`` or ``proved-bounded`` verdict says the claim holds at every point of a class. The window evaluated
the claim exactly at the points it enumerated: a point where it found the claim false (``refuted``) that lies
inside the proof's class contradicts the proof. That is a prover bug: the proof's verdict becomes ``inconclusive``,
its notes and evidence say so (:func:`prover_bug`, one way with the audit of a proof, checkers.audit: ``nimjos
check`` exits with status 3), and the window's verdict stands. A point inside the class where the claim is not
defined (``ill-defined``, the claim's language, not a limit of the machine) makes the proof ``inconclusive`` too, with
a note, but is no prover bug: a proof speaks of the points where the claim has a value (Z3 reads an undefined
operation in an assumption as some value), and the window's ``ill-defined`` is the claim's verdict.

A point is inside the proof's class when it lies in the claim's domain, in the class the proof records as data
(:func:`in_class`: the values of its enumerated names, a bit width) and, when the claim states the
proof's own domain (``prove = { for_all = "..." }``), in that domain. A ``proved-bounded`` class recorded in words
only (the heaps of a reduction's lemma) cannot be tested at a point: the window's point is then named in a note,
and the verdict is left as it is (the window's refutation is the claim's verdict anyway).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> claim = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml").claim("half")
>>> from nimjos.verdict import Counterexample
>>> window = Verdict("half", "refuted", "exhaustive", "", counterexamples=[Counterexample({"x": 3}, 0, 3)])
>>> proof = Verdict("half", "proved", "prove", "all x >= 0", engines=("Z3",))
>>> against_window(claim, proof, window); proof.verdict, proof.evidence["prover_bug"][:36]
('inconclusive', 'PROVER BUG: prove (Z3) said proved, ')
"""
from __future__ import annotations

from nimjos.lang.errors import EvalError, SpecError
from nimjos.spec.loader import Claim
from nimjos.verdict import Counterexample, Verdict
from nimjos.words import Word
from checkers.window.exhaustive import check_exhaustive
from checkers.prove.domain import inside_domain, proof_domain
from checkers.z3.terms import Untranslatable

#: the words of a proof, which the rule holds to the window
PROOF_WORDS = (Word.PROVED, Word.PROVED_BOUNDED)
#: the evidence key of a proof the window or its audit contradicts (the CLI exits with status 3 when a claim has one)
PROVER_BUG = "prover_bug"


def in_class(proof: Verdict, env: dict) -> bool | None:
    """Whether a point lies in the class a proof says it proved: True for ``proved`` (the whole domain), for a
    ``proved-bounded`` the class it recorded (``proved_class``: values of the enumerated names, a bit width),
    None when the class is not known as data.

    >>> from nimjos.verdict import ProvedClass
    >>> v = Verdict("c", "proved-bounded", "prove", "for k = 2..3 only", proved_class=ProvedClass({"k": (2, 3)}))
    >>> in_class(v, {"k": 3, "x": 10 ** 9}), in_class(v, {"k": 4, "x": 1})
    (True, False)
    >>> in_class(Verdict("c", "proved-bounded", "prove", "for x < 2^32 only"), {"x": 1}) is None
    True
    >>> empty = ProvedClass()
    >>> in_class(Verdict("c", "proved-bounded", "prove", "for x >= 0 only", proved_class=empty), {"x": -1}) is None
    True
    """
    if proof.verdict == "proved":
        return True
    cls = proof.proved_class
    if cls is None or not cls.narrows():
        return None   # no data that narrows the domain: the class is in the scope's words only
    for name, vals in cls.enumerated.items():
        v = env.get(name)
        if name in env and v not in vals and repr(v) not in vals:
            return False
    if cls.width:
        return all(-(1 << cls.width) <= v < (1 << cls.width) for v in env.values() if type(v) is int)
    return True


#: the backends a failed audit names, the first a proof's engines hold (Walnut under a heap reduction, induction
#: over Z3: the part most likely at fault)
BACKENDS = ("Walnut", "Sprague-Grundy", "periodicity", "induction", "Z3")


def backend(proof: Verdict) -> str:
    """The backend a proof came from (its `engines`), for the note of a failed audit; its method when it names none.

    >>> backend(Verdict("c", "proved", "prove", "all x >= 0; Walnut 6.2 (msd_2)", engines=("Walnut",)))
    'Walnut'
    >>> backend(Verdict("c", "proved", "prove", "", engines=("Sprague-Grundy", "Z3", "induction")))
    'Sprague-Grundy'
    >>> backend(Verdict("c", "proved", "periodicity", "G has period 3"))
    'periodicity'
    """
    return next((b for b in BACKENDS if b in proof.engines), proof.method)


def prover_bug(proof: Verdict, what: str) -> str:
    """Mark `proof` as a prover bug, `what` saying what contradicts it (the audit's probe, the window: one way for
    both): its verdict becomes ``inconclusive``, its notes keep what it was, its evidence holds :data:`PROVER_BUG`
    (the CLI exits with status 3). Returns the bug's line.

    >>> p = Verdict("c", "proved", "prove", "all x >= 0")
    >>> prover_bug(p, "the window fails at x=3"), p.verdict, p.notes
    ('PROVER BUG: the window fails at x=3', 'inconclusive', ['PROVER BUG: the window fails at x=3; was: proved [all x >= 0]'])
    """
    bug = f"PROVER BUG: {what}"
    proof.notes.append(bug + f"; was: {proof.verdict} [{proof.scope}]")
    proof.evidence[PROVER_BUG] = bug
    proof.verdict = "inconclusive"
    return bug


def window_points(window: Verdict) -> list[Counterexample]:
    """The points where the window found the claim false, then those where it found it not defined (its language;
    a point left unevaluated only by a limit of the machine says nothing about the claim), smallest first.

    >>> w = Verdict("c", "ill-defined", "exhaustive", "", undefined=[
    ...     Counterexample({"x": 9}, reason="too big", undefined="resource"), Counterexample({"x": 0}, reason="v2(0)")])
    >>> [cx.bindings for cx in window_points(w)]
    [{'x': 0}]
    """
    return list(window.counterexamples) + [cx for cx in window.undefined if not cx.over_limit]


def inside_class(claim: Claim, proof: Verdict, bindings: dict, profile: str = "default") -> bool | None:
    """Does the point `bindings` lie inside the class `proof` covers (module docstring)? None when the proof's class
    is recorded in words only and the point lies in the claim's domain (and in prove.for_all). A condition that
    cannot be evaluated at the point counts as holding there (the stricter answer: the point is judged).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> from nimjos.verdict import ProvedClass
    >>> claim = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml").claim("half")
    >>> bounded = Verdict("half", "proved-bounded", "prove", "for x < 2^4 only", proved_class=ProvedClass(width=4))
    >>> inside_class(claim, bounded, {"x": 3}), inside_class(claim, bounded, {"x": 99}), inside_class(claim, bounded, {"x": -1})
    (True, False, False)
    """
    plan = claim.plan(profile)
    domain = getattr(plan, "domain", None)
    if domain is not None and all(n in bindings for n in domain.names):
        try:
            if not domain.contains(dict(bindings)):
                return False
        except (EvalError, SpecError):
            pass
    known = in_class(proof, bindings)
    if known is False:
        return False
    if claim.prove.for_all:
        try:
            if not inside_domain(proof_domain(plan, claim.prove), dict(bindings), claim):
                return False
        except (EvalError, SpecError, Untranslatable):
            pass
    return known


def against_window(claim: Claim, proof: Verdict, window: Verdict | None, profile: str = "default") -> None:
    """Hold `proof` (a method's verdict on `claim`) to the window's verdict `window` (None: the window is checked
    here): a ``proved`` or ``proved-bounded`` the window contradicts inside its class becomes ``inconclusive``, a
    prover bug (module docstring); any other verdict is left as it is. Changes `proof` in place."""
    if proof.verdict not in PROOF_WORDS:
        return
    if window is None:
        window = check_exhaustive(claim, profile, 1, None)
    unknown = None
    failing = {id(cx) for cx in window.counterexamples}
    for cx in window_points(window):
        inside = inside_class(claim, proof, cx.bindings, profile)
        if inside is None:
            unknown = unknown or cx
            continue
        if inside and id(cx) in failing:
            prover_bug(proof, f"{proof.method} ({backend(proof)}) said {proof.verdict}, but the window finds that the "
                              f"claim fails at {cx.position_text()}, inside the class the proof covers")
            return
        if inside:
            # the claim has no value there: a proof speaks of the points where the claim is defined (Z3 reads an
            # assumption's undefined operation as some value), so it proves nothing about the class as a whole
            proof.notes.append(f"{proof.method} ({backend(proof)}) said {proof.verdict} [{proof.scope}], but the "
                               f"window finds that the claim cannot be evaluated at {cx.position_text()}, inside the "
                               "class the proof covers: not proved (the claim is ill-defined there)")
            proof.verdict = "inconclusive"
            return
    if unknown is not None:
        proof.notes.append(f"the window finds the claim {window.verdict} at {unknown.position_text()}: the proof covers "
                           "only its class, stated in words, so the point lies outside it or the proof is wrong")
