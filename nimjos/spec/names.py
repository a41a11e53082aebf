"""The names a spec may use: the language's built-ins, the game functions and families, the Josephus functions.

>>> ns = spec_namespace(); sorted(n for n in ("G", "survivor", "floor", "subtraction") if n in ns.builtins)
['G', 'floor', 'subtraction', 'survivor']
"""
from __future__ import annotations

from nimjos.games.functions import GAME_FUNCTIONS
from nimjos.josephus.functions import JOSEPHUS_FUNCTIONS
from nimjos.lang.builtins import BUILTINS
from nimjos.lang.compiler import Namespace

#: every built-in name of the spec language, with the function it calls
SPEC_BUILTINS = {**BUILTINS, **GAME_FUNCTIONS, **JOSEPHUS_FUNCTIONS}


def spec_namespace() -> Namespace:
    """A fresh namespace holding every built-in of the spec language (definitions and games are added by the
    loader)."""
    return Namespace(builtins=dict(SPEC_BUILTINS))


def builtin_docs() -> dict[str, str]:
    """The docstring (exact definition) of every built-in, by name.

    >>> builtin_docs()["v2"].splitlines()[0]
    'The 2-adic valuation: the largest e with 2**e dividing n; ill-defined (infinite) for n = 0.'
    """
    return {name: (getattr(fn, "__doc__", None) or "").strip() for name, fn in SPEC_BUILTINS.items()}
