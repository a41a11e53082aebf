"""The verification method ``prove``: claims proved for every position with Z3 (local certificates,
strategies, induction, lemmas). :func:`prove_claim` is the method (:mod:`checkers.prove.method`); the
modules of the package are its jobs (the domain, the world, the translation into Z3, the solver driver,
the queries, the lemmas, the scope text), and the local certificate at one position
(:mod:`checkers.prove.certificate`) is shared with the sampler.

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
