"""The functions the command line and notebooks both call (the layer under :mod:`nimjos.app`, which keeps only
argument parsing and printing), one module per job:

- :mod:`nimjos.api.claims`: ``load_spec``, ``check_claim``, ``check`` (claim cards in a notebook);
- :mod:`nimjos.api.tables`: ``grundy`` and ``grundy_table``, Grundy values of a game on a window;
- :mod:`nimjos.api.quotient`: ``quotient``, the misère quotient of a heap game;
- :mod:`nimjos.api.josephus`: ``josephus_values``, survivors and elimination orders;
- :mod:`nimjos.api.explain`: ``explain_text``, options, values and mex at one position of a claim;
- :mod:`nimjos.api.pins`: reading ``--at`` pins.

``import nimjos`` exports these functions and imports their module only when one is called; this package imports
nothing itself, so that importing one module of it loads only what that module needs.

>>> from nimjos.api.josephus import josephus_values
>>> josephus_values("survivor", 2, 41)
19
"""
