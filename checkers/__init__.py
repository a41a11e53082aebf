"""The methods (a layer between the verdict model and the results store): exhaustive over the window,
proving (Walnut; Z3: local certificates, strategies, induction, lemmas), sampling beyond the window (hypothesis), sharding
of the window, periodicity theorems for heap games, repair of refuted statements, and the run of all of them
on one claim (checkers.run).

>>> from checkers.run import METHODS
>>> list(METHODS)
['exhaustive', 'prove', 'sample', 'periodicity']
"""
