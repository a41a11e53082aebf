"""The verification method ``exhaustive``: a claim evaluated at every instance of its window, against ground
truth from the game's moves (the engines) or from the Josephus algorithms. :func:`check_exhaustive` is the method
(:mod:`checkers.window.exhaustive`); the modules of the package are its jobs (the scalar path and the array path,
the arrays of the Josephus functions, the collector of failures, the evidence for reports, the window of a loopy
game, the window cut into shards).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> check_exhaustive(spec.claims[0]).verdict
'checked'
"""
from checkers.window.exhaustive import check_exhaustive

__all__ = ["check_exhaustive"]
