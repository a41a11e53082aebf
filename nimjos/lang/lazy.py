"""The one way a module is imported on first use instead of at start-up: :func:`import_on_use`, by a path
named in a registry (:data:`nimjos.app.cli.SUBCOMMANDS`, :data:`nimjos.API`) or a heavy library named in
:data:`LIBRARIES_ON_USE`.

The project imports at the top of a module, never inside a function (tests/test_architecture.py); this
module is the one exception, so that ``nimjos --help`` and ``nimjos josephus survivor`` do not load sympy,
numba, z3, matplotlib or dask. Of the project, only modules of the application layer (``nimjos.app.*``,
the top layer, which nothing below may import) are loaded this way, so a lazy import is never an import
upward through the layers; tests/test_architecture.py checks who calls it with what.

>>> import_on_use("nimjos.app.pins").__name__
'nimjos.app.pins'
"""
from __future__ import annotations

import importlib
from types import ModuleType

#: the package whose modules may be imported on first use: the top layer
LAZY_PACKAGE = "nimjos.app"

#: third-party libraries imported on first use, each with the one place that needs it
LIBRARIES_ON_USE = {
    "numba": "nimjos.josephus.kernels.compiled: the Josephus kernels, compiled when the work pays for numba",
    "networkx": "nimjos.games.engine: the reference engine's game graph, built only when a graph is solved (not for "
                "a table a compiled kernel fills: nimjos grundy on a heap game)",
}


def import_on_use(path: str) -> ModuleType:
    """Import ``path`` (a module of ``nimjos.app``, or a library of :data:`LIBRARIES_ON_USE`) now, at its first use.

    >>> import_on_use("nimjos.report")
    Traceback (most recent call last):
    ...
    ValueError: only modules of nimjos.app and the libraries numba are imported on first use, not 'nimjos.report'
    """
    if not (path.startswith(LAZY_PACKAGE + ".") or path in LIBRARIES_ON_USE):
        raise ValueError(f"only modules of {LAZY_PACKAGE} and the libraries {', '.join(LIBRARIES_ON_USE)} are "
                         f"imported on first use, not {path!r}")
    return importlib.import_module(path)
