"""The verification method ``prove``: claims proved for every position with Z3 (local certificates,
strategies, induction, lemmas). :func:`prove_claim` is the method (:mod:`checkers.prove.method`); the
modules of the package are its jobs (the domain, one proof attempt, the queries, the lemmas, the scope text, and
Walnut, :mod:`checkers.prove.walnut`). The translation into Z3 (:mod:`checkers.z3`) and the local certificate at
one position (:mod:`checkers.certificate`) are shared with the sampler.

>>> from nimjos.spec.loader import load_spec
>>> from checkers.options import RunOptions
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from checkers.context import CheckContext
>>> prove_claim(spec.claims[0], RunOptions(timeout=20), context=CheckContext.for_claim()).verdict  # runs Walnut
'proved'
"""
from checkers.prove.method import prove_claim

__all__ = ["prove_claim"]
