"""Verification strategies over a loaded claim: exhaustive (bounded window), sampling (hypothesis, far
beyond the window) and proving (Z3), and the verdict model they share.

>>> from nimjos.verdict import VERDICTS
>>> VERDICTS[0]
'refuted'
"""
