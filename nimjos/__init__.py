"""nimjos: check the closed forms printed in papers on impartial games and the Josephus problem.

The package is layered (docs/architecture.md): the expression language at the bottom (nimjos.lang), then the
Josephus algorithms, games and engines, the spec compiler, the verdict model, the methods (the top-level
package ``checkers``), the results store, the reports, and the application on top (nimjos.app).

The API for notebooks and scripts (docs/notebook.md): :func:`load_spec`, :func:`check_claim` and :func:`check`
(claims), :func:`grundy` (a game on a window), :func:`quotient` (a misère quotient), :func:`josephus_values` and
:func:`explain` and :func:`discover`: the functions the command line calls too (:mod:`nimjos.api`). ``import nimjos`` stays light: the
modules that do the work are imported on first use (:func:`nimjos.lang.lazy.import_on_use`). Everything else is
internal.

>>> __version__
'0.1.0'
"""
from __future__ import annotations

from typing import Any

from nimjos.lang.lazy import import_on_use
from nimjos.words import Method, Profile, Word

# re-exported below (__all__): the closed vocabularies of a result (nimjos.words), light to import

__version__ = "0.1.0"

#: the functions of the package's API, each with the module that does the work (imported on first use)
API = {"load_spec": "nimjos.api.claims", "check_claim": "nimjos.api.claims", "check": "nimjos.api.claims",
       "grundy": "nimjos.api.tables", "quotient": "nimjos.api.quotient", "josephus_values": "nimjos.api.josephus",
       "explain": "nimjos.api.explain", "discover": "nimjos.api.discover"}

__all__ = ["load_spec", "check_claim", "check", "grundy", "quotient", "josephus_values", "explain", "discover",
           "Method", "Profile", "Word", "__version__"]


def load_spec(path: Any) -> Any:
    """Read and validate the spec file ``path``: its games, definitions and claims (``.claims``, ``.claim(id)``).

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> [c.id for c in spec.claims]
    ['nim1-grundy']
    """
    return import_on_use(API["load_spec"]).load_spec(path)


def check_claim(claim: Any, profile: str = "default", methods: tuple[str, ...] | None = None) -> Any:
    """Run the methods on one loaded claim (all that apply, or ``methods``); ``.final`` is its verdict.

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> check_claim(spec.claims[0], methods=("exhaustive",)).final.verdict
    'checked'
    """
    return import_on_use(API["check_claim"]).check_claim(claim, profile, methods)


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


def quotient(game: str, heaps: int, outcomes: Any = (), table: bool = False) -> dict[str, Any]:
    """The misère quotient of a heap game, verified for every sum of heaps of at most ``heaps`` tokens, as data
    (order, P-portion, pretending function, single heaps in P, the outcome of each position of ``outcomes``).

    >>> q = quotient('octal("0.77")', 20, outcomes=[(2, 2)])
    >>> q["order"], q["single_p"], q["outcomes"]
    (24, [1, 4, 9, 12, 20], {'2,2': 'P'})
    """
    return import_on_use(API["quotient"]).quotient(game, heaps, outcomes, table)


def josephus_values(what: str, k: int, n: int) -> Any:
    """The Josephus problem on 1..n, every k-th removed: ``"survivor"`` (an int), ``"table"`` (the survivors of every
    n' <= n) or ``"order"`` (the elimination order), the last two as int64 arrays.

    >>> josephus_values("survivor", 3, 41), josephus_values("order", 3, 7).tolist()
    (31, [3, 6, 2, 7, 5, 1, 4])
    """
    return import_on_use(API["josephus_values"]).josephus_values(what, k, n)


def explain(target: str, at: str | None = None, depth: int = 0, profile: str = "default") -> str:
    """Why the claim ``FILE::CLAIM`` fails (or holds) at its smallest counterexample, or at the position ``at``
    ("x=2"): the options, their Grundy values, the mex and what the claim says there.

    >>> import pathlib
    >>> path = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml"
    >>> print(explain(f"{path}::nim1-grundy", "x=1"))  # doctest: +ELLIPSIS
    claim nim1-grundy at x=1
    ...
    mex of the options = G(1) = 1
    the claim says: 1 (grundy = x)
    """
    return import_on_use(API["explain"]).explain_text(target, at, depth, profile)


def discover(target: str, params: list[str] | None = None, window: int | None = None, rounds: int = 1,
             domain: str | None = None) -> Any:
    """A checked description of a game's P-positions or Grundy values, from its moves: ``.found`` lists each
    description with its class, verdict, scope and the claim as TOML (``nimjos discover`` prints the same).

    >>> found = discover("subtraction({1, 2})", window=30).found[0]
    >>> found.klass, found.verdict
    ('periodic', 'proved')
    """
    return import_on_use(API["discover"]).discover(target, params, window, rounds, domain)
