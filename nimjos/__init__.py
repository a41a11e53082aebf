"""nimjos: check the closed forms printed in papers on impartial games and the Josephus problem.

The package is layered (docs/architecture.md): the expression language at the bottom (nimjos.lang), then the
Josephus algorithms, games and engines, the spec compiler, the verdict model, the methods (the top-level
package ``checkers``), the results store, the reports, and the application on top (nimjos.app).

The API for notebooks (docs/notebook.md): :func:`check` a spec file, :func:`grundy` a game on a window.
``import nimjos`` stays light: the modules that do the work are imported on first use
(:func:`nimjos.lang.lazy.import_on_use`). The lower-level API is :mod:`nimjos.app.api`: ``load_spec`` and
``check_claim``.

>>> __version__
'0.1.0'
"""
from __future__ import annotations

from typing import Any

from nimjos.lang.lazy import import_on_use
from nimjos.words import Method, Profile, Word

# re-exported: the closed vocabularies of a result (nimjos.words), light to import
__all__ = ["check", "grundy", "Method", "Profile", "Word", "__version__"]

__version__ = "0.1.0"

#: the functions of the package's API, each with the module that does the work (imported on first use)
API = {"check": "nimjos.app.api", "grundy": "nimjos.app.api"}


def check(path: Any, profile: str = "default", methods: tuple[str, ...] | None = None) -> Any:
    """Check every claim of the spec file ``path``; the results, shown as claim cards in a notebook.

    Nothing is recorded in the results store. ``methods`` limits the methods ("exhaustive", "sample", "prove").

    >>> import pathlib
    >>> results = check(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")  # runs Walnut
    >>> [(r.claim.id, r.verdict) for r in results]
    [('nim1-grundy', 'proved')]
    """
    return import_on_use(API["check"]).check(path, profile, methods)


def grundy(game: str, window: str, **params: Any) -> Any:
    """The Grundy values of ``game`` (``FILE::GAME``) on ``window``: a numpy array, with ``.corner`` its lowest position.

    ``params`` gives the game's params (``k=3``; an int, or an expression of the spec language as text).

    >>> import pathlib
    >>> spec = pathlib.Path(__file__).resolve().parents[1] / "examples" / "heap_games.toml"
    >>> kayles = grundy(f'{spec}::octal("0.77")', "1 <= n <= 9")
    >>> kayles.corner, kayles.tolist()
    ((1,), [1, 2, 3, 1, 4, 3, 2, 1, 4])
    """
    return import_on_use(API["grundy"]).grundy(game, window, **params)
