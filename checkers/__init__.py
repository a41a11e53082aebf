"""The methods (a layer between the verdict model and the results store): exhaustive over the window,
proving (Walnut; Z3: local certificates, strategies, induction, lemmas), sampling beyond the window (hypothesis), sharding
of the window, periodicity theorems for heap games, repair of refuted statements, and the run of all of them
on one claim (checkers.run).

This module is the methods' facade: the layers above (nimjos.api, nimjos.app) import what they use from here, and
every other module of the package is internal.

>>> from checkers import METHODS
>>> list(METHODS)
['exhaustive', 'prove', 'sample', 'periodicity']
"""
from checkers.audit import PROVER_BUG
from checkers.exhaustive import check_exhaustive, family_members, pinned_place, printed_cells
from checkers.result import ClaimResult
from checkers.run import METHODS, RunOptions, Sharding, run_claim

__all__ = ["METHODS", "PROVER_BUG", "ClaimResult", "RunOptions", "Sharding", "check_exhaustive", "family_members",
           "pinned_place", "printed_cells", "run_claim"]
