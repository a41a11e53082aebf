"""The verification method ``sample``: claims sampled far beyond their window with hypothesis.
:func:`sample_claim` is the method (:mod:`checkers.sample.method`); the modules of the package are its jobs
(one step past the window and a claim's parameters beyond it, where and how far to draw, structured values and
the sides of a set, evaluating one instance, the hypothesis driver).

>>> from nimjos.spec.loader import load_spec
>>> from checkers.options import RunOptions, SamplingLimits
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> sample_claim(spec.claims[0], RunOptions(sampling=SamplingLimits(examples=40))).verdict
'sampled'
"""
from checkers.sample.method import sample_claim

__all__ = ["sample_claim"]
