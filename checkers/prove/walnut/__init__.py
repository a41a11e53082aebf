"""The Walnut proof backend of the prover: a claim and its game's moves translated into first-order formulas
over msd_2 (:mod:`.translate`, with its mixins :mod:`.arith`, :mod:`.compare` and :mod:`.quantify`, in the
logic and automata library of :mod:`.logic`), the local certificate as Walnut queries (:mod:`.certificate`),
Walnut run non-interactively (:mod:`.run`), and the verdict (:mod:`.method`), which
``checkers.prove.method.prove_claim`` asks before Z3.

>>> from checkers.prove.walnut import walnut_verdict
>>> callable(walnut_verdict)
True
"""
from checkers.prove.walnut.method import walnut_verdict

__all__ = ["walnut_verdict"]
