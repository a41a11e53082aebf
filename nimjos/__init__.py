"""nimjos: check the closed forms printed in papers on impartial games and the Josephus problem.

The package is layered (docs/architecture.md): the expression language at the bottom (nimjos.lang), then the
Josephus algorithms, games and engines, the spec compiler, the verdict model, the methods (the top-level
package ``checkers``), the results store, the reports, and the application on top (nimjos.app). The small
public API is :mod:`nimjos.app.api`: ``load_spec`` and ``check_claim``.

>>> from nimjos.app.api import check_claim, load_spec
>>> __version__
'0.1.0'
"""
from __future__ import annotations

__version__ = "0.1.0"
