"""The methods of heap games: claims over any number of heaps sampled and proved by the Sprague-Grundy reduction
(:mod:`checkers.heaps.reduction`), periodicity proved for every heap size (:mod:`checkers.heaps.periodicity`,
the verification method ``periodicity``), arithmetic periodicity decided by the mex certificate in Walnut
(:mod:`checkers.heaps.mex`), and misère outcomes proved for every heap (:mod:`checkers.heaps.misere_proof`).
The runner (:mod:`checkers.run`) calls each where it applies; the package exports nothing of its own.

>>> from nimjos.spec.loader import load_spec
>>> from checkers.heaps.reduction import over_heaps
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
>>> any(over_heaps(c.plan()) for c in spec.claims)
True
"""
