"""The methods (a layer between the verdict model and the results store): exhaustive over the window, sharded or
not (checkers.window), proving (checkers.prove: Walnut; Z3: local certificates, strategies, induction, lemmas),
sampling beyond the window (checkers.sample, hypothesis), the heap methods (checkers.heaps: the Sprague-Grundy
reduction, periodicity theorems, misère proofs), the Z3 toolkit that prove and sample share (checkers.z3), repair
of refuted statements, and the run of all of them on one claim (checkers.run).

This module is the methods' facade: the layers above (nimjos.api, nimjos.app) import what they use from here, and
every other module of the package is internal.

>>> from checkers import METHODS
>>> list(METHODS)
['exhaustive', 'prove', 'sample', 'periodicity']
"""
from checkers.audit import PROVER_BUG
from checkers.discover.search import (CLASSES, MISERE_CLASSES, OUTSIDE, Discovery, DiscoveryBug, GameSource,
                                      automaton_file)
from checkers.discover.search import discover as describe_game
from checkers.window.exhaustive import check_exhaustive
from checkers.window.families import family_members
from checkers.window.rerun import pinned_place
from checkers.window.values import printed_cells
from checkers.result import ClaimResult
from checkers.run import METHODS, RunOptions, Sharding, run_claim

__all__ = ["METHODS", "PROVER_BUG", "ClaimResult", "RunOptions", "Sharding", "check_exhaustive", "family_members",
           "pinned_place", "printed_cells", "run_claim", "CLASSES", "MISERE_CLASSES", "OUTSIDE", "Discovery",
           "DiscoveryBug", "GameSource", "automaton_file", "describe_game"]
