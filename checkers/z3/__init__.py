"""The Z3 toolkit shared by the methods that ask Z3 (``prove`` and ``sample``, and the local certificate): the
translation of the language into Z3 (:class:`checkers.z3.translate.Builder` and its mixins: arithmetic, calls of
built-ins, comparisons, facts of abstractions, moves, comprehensions), the values a translation can take
(:mod:`checkers.z3.terms`), unknown functions and powers of two, the arithmetic world (int or bit-vectors), the
resource budget of a query, and the helpers that split a condition into cases and read a value from a model.
It imports no method: the prover and the sampler import it.

>>> import z3
>>> from checkers.z3.solver import model_value
>>> x = z3.Int("x"); s = z3.Solver(); s.add(x == 2); _ = s.check()
>>> model_value(s.model(), x * 3)
6
"""
