"""Import the verification methods beyond the exhaustive one, so that they register with checkers.run.

Each method lives in its own module under checkers/ and calls checkers.run.register_method on import.

>>> from checkers.run import METHODS
>>> "exhaustive" in METHODS
True
"""
from __future__ import annotations

import importlib

#: modules that register a method when imported, in the order their verdicts are listed
METHOD_MODULES = ("checkers.sample", "checkers.prove")

for _name in METHOD_MODULES:
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as _exc:  # a method not built yet
        if _exc.name != _name:
            raise
