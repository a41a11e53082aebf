"""The one registry of the built-in functions of the expression language: each declared once, with its arity, where
its scalar form (the reference semantics) is, and for each backend either that it has a form or the reason it has
none.

The backends keep their forms in one table each, keyed by the names declared here (this module is the bottom
layer: it imports no backend):

* vectorised evaluation -- ``nimjos.lang.vector.VECTOR_FORMS``; the functions of the layers above (``G``,
  ``options``, the Josephus functions) get their array forms from the caller (``checkers.window.vectorised.ARRAY_CALLS``)
* Z3 -- ``checkers.z3.translate.Z3_FORMS``
* Walnut -- ``checkers.prove.walnut.arith.WALNUT_FORMS``
* the fast engines' translation of moves -- ``nimjos.games.fast.translate.FAST_FORMS``

``tests/nimjos/lang/test_registry.py`` checks every table against this registry both ways. A built-in's `domains`, when
given, are the small-argument domains the conformance grammar (``tests/conformance/grammar.py``) draws its calls
from, so that a built-in registered with them is tested by every backend that claims a form.

>>> REGISTRY["v2"].arity, REGISTRY["v2"].z3 is None, REGISTRY["gcd"].walnut
((1, 1), True, 'gcd is not automatic')
>>> sorted(b.name for b in REGISTRY.values() if b.domains)[:4]
['abs', 'ceil', 'fibonacci', 'floor']
"""
from __future__ import annotations

from dataclasses import dataclass

#: the modules that hold the scalar forms, from the bottom layer up
LANG, GAMES, DECLARED, JOSEPHUS = ("nimjos.lang.builtins", "nimjos.games.functions", "nimjos.games.declared",
                                   "nimjos.josephus.functions")

#: the argument domains of the conformance grammar: any integer expression; a small positive constant (1..4); a
#: ratio a / d; a square c * t * t (c a constant: a Beatty term when isqrt takes it), any integer expression outside
#: the linear dialect
INT, SMALL, RATIO, SQUARE = "int", "small", "ratio", "square"


@dataclass(frozen=True)
class Builtin:
    """One built-in: its name, its arity (least, most; most None: any number), the module of its scalar form and
    that function's name there, and for each backend None (it has a form, in that backend's table) or the reason it
    has none; `domains` (one per argument) when the conformance grammar may call it with small arguments."""

    name: str
    arity: tuple[int, int | None]
    scalar: str = LANG
    function: str = ""
    vector: str | None = None
    z3: str | None = None
    walnut: str | None = None
    fast: str | None = None
    domains: tuple[str, ...] = ()
    #: the type of its value whatever the arguments (a value of :class:`nimjos.lang.ir.Type`: "int", "bool",
    #: "tuple", "set", "game"), "" when it depends on them
    returns: str = ""
    #: nondecreasing in its one argument (the monotonicity analysis, :mod:`nimjos.lang.monotone`, passes it on)
    increasing: bool = False

    @property
    def scalar_name(self) -> str:
        """The name of the scalar function in its module.

        >>> REGISTRY["min"].scalar_name, REGISTRY["v2"].scalar_name
        ('_min', 'v2')
        """
        return self.function or self.name

    def reason(self, backend: str) -> str | None:
        """The reason `backend` (``vector``, ``z3``, ``walnut``, ``fast``) has no form of this built-in, None when it
        has one.

        >>> REGISTRY["mex"].reason("z3")
        'mex of a symbolic set has no symbolic model'
        """
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}")
        return getattr(self, backend)


#: the backends whose forms the registry records
BACKENDS = ("vector", "z3", "walnut", "fast")

# reasons shared by several built-ins
_COLLECTION = "a collection, not a number"
_FAMILY_Z3 = "built-in game families have no declared moves to translate"
_GAME = "a game, not a number"
_JOS_Z3 = "the Josephus functions have no symbolic model"
_NOT_IN_MOVES = "not translated in a move's arithmetic"
_NO_ARRAY = "no array form"
_NOT_AUTOMATIC = "no Walnut translation"


def _family(name: str, arity: int, module: str = GAMES, function: str = "") -> Builtin:
    """A built-in game family (its value is a game) of `arity` arguments (`function`: its scalar function's name
    when it is not the family's)."""
    return Builtin(name, (arity, arity), module, function=function, vector=_GAME, z3=_FAMILY_Z3, walnut=_GAME,
                   fast=_GAME, returns="game")


_ENTRIES = (
    # -- arithmetic of numbers
    Builtin("floor", (1, 1), domains=(RATIO,), returns="int", increasing=True),
    Builtin("ceil", (1, 1), domains=(RATIO,), returns="int", increasing=True),
    Builtin("abs", (1, 1), function="_abs", domains=(INT,)),
    Builtin("min", (1, None), function="_min", domains=(INT, INT)),
    Builtin("max", (1, None), function="_max", domains=(INT, INT)),
    Builtin("xor", (0, None), domains=(INT, INT), returns="int"),
    Builtin("v2", (1, 1), fast=_NOT_IN_MOVES, domains=(INT,), returns="int"),
    Builtin("ilog2", (1, 1), domains=(INT,), fast=_NOT_IN_MOVES, returns="int"),
    Builtin("isqrt", (1, 1), fast=_NOT_IN_MOVES, domains=(SQUARE,), returns="int", increasing=True),
    Builtin("popcount", (1, 1), vector=_NO_ARRAY, walnut="popcount is not automatic as a number",
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int"),
    Builtin("gcd", (2, 2), vector=_NO_ARRAY, z3="gcd has no symbolic model here", walnut="gcd is not automatic",
            fast=_NOT_IN_MOVES, domains=(INT, INT), returns="int"),
    # -- Fibonacci and Pell numeration (Walnut: msd_fib, msd_pell, built with Walnut's ost command)
    Builtin("floor_phi", (1, 1), z3="floor(n phi) has no symbolic model (an irrational factor)",
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int", increasing=True),
    Builtin("floor_phi2", (1, 1), z3="floor(n phi^2) has no symbolic model (an irrational factor)",
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int", increasing=True),
    Builtin("floor_sqrt2", (1, 1), z3="floor(n sqrt 2) has no symbolic model (an irrational factor)",
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int", increasing=True),
    Builtin("fibonacci", (1, 1), vector=_NO_ARRAY, z3="fibonacci has no symbolic model",
            walnut="i -> F_i grows exponentially: not synchronized in any numeration Walnut has here",
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int"),
    Builtin("zeck_tz", (1, 1), z3="zeck_tz has no symbolic model", fast=_NOT_IN_MOVES, domains=(INT,), returns="int"),
    Builtin("zeck_shift", (1, 1), vector=_NO_ARRAY, z3="zeck_shift has no symbolic model", fast=_NOT_IN_MOVES,
            domains=(INT,), returns="int", increasing=True),
    Builtin("tri_row", (1, 1), vector=_NO_ARRAY, z3="tri_row has no symbolic model", walnut=_NOT_AUTOMATIC,
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int"),
    Builtin("tri_col", (1, 1), vector=_NO_ARRAY, z3="tri_col has no symbolic model", walnut=_NOT_AUTOMATIC,
            fast=_NOT_IN_MOVES, domains=(INT,), returns="int"),
    Builtin("antidiagonal", (1, 1), vector="a tuple of arrays is not an array value",
            z3="antidiagonal has no symbolic model", walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES, returns="tuple"),
    # -- collections and aggregates
    Builtin("mex", (1, 1), vector=_NO_ARRAY, z3="mex of a symbolic set has no symbolic model",
            walnut="mex of a symbolic set is not translated", fast=_NOT_IN_MOVES, returns="int"),
    Builtin("sum", (1, 1), function="_sum", walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES),
    Builtin("all", (1, 1), function="_all", fast=_NOT_IN_MOVES, returns="bool"),
    Builtin("any", (1, 1), function="_any", fast=_NOT_IN_MOVES, returns="bool"),
    Builtin("len", (1, 1), function="_len", vector=_COLLECTION, z3="len of a symbolic collection",
            walnut=_COLLECTION, fast=_COLLECTION, returns="int"),
    Builtin("range", (1, 3), function="_range", vector="a range is unrolled by any / all / sum, not a value",
            fast=_COLLECTION),
    Builtin("set", (0, 1), function="_set", vector=_COLLECTION, z3="a symbolic set", walnut=_COLLECTION,
            fast=_COLLECTION, returns="set"),
    Builtin("tuple", (0, 1), function="_tuple", vector=_COLLECTION, z3="a symbolic collection", walnut=_COLLECTION,
            fast=_COLLECTION, returns="tuple"),
    Builtin("sorted", (1, 1), function="_sorted", vector=_COLLECTION, z3="a symbolic collection",
            walnut=_COLLECTION, fast=_COLLECTION, returns="tuple"),
    Builtin("iterate", (3, 3), walnut="iterate is not a first-order formula", fast=_NOT_IN_MOVES),
    Builtin("functions", (3, 3), vector=_COLLECTION, z3="a family of functions cannot be symbolic",
            walnut=_COLLECTION, fast=_COLLECTION),
    Builtin("nondecreasing", (3, 3), vector=_COLLECTION, z3="a family of functions cannot be symbolic",
            walnut=_COLLECTION, fast=_COLLECTION),
    Builtin("subsets", (2, 2), vector=_COLLECTION, z3="a family of sets cannot be symbolic", walnut=_COLLECTION,
            fast=_COLLECTION),
    # -- games
    Builtin("G", (2, 2), GAMES, walnut="G(...) is the Grundy function itself, with no closed form to translate",
            fast="the Grundy function of another game inside a move", returns="int"),
    Builtin("options", (2, 2), GAMES, fast=_COLLECTION),
    Builtin("heaps_value", (2, 2), GAMES, vector=_NO_ARRAY, z3="heaps_value has no symbolic model",
            walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES, returns="int"),
    Builtin("nimsum", (1, None), GAMES, vector=_NO_ARRAY, z3="nimsum has no symbolic model", walnut=_NOT_AUTOMATIC,
            fast=_NOT_IN_MOVES, returns="int"),
    Builtin("multisets", (3, 3), GAMES, vector=_COLLECTION, z3="a family of collections cannot be symbolic",
            walnut=_COLLECTION, fast=_COLLECTION),
    _family("subtraction", 1, DECLARED), _family("gcn", 2, DECLARED), _family("octal", 1), _family("hexadecimal", 1),
    _family("grundys_game", 0), _family("laskers_nim", 0), _family("nim", 0), _family("moore_nim", 1),
    _family("heaps", 1), _family("misere", 1, function="misere_play"),
    Builtin("misere_grundy", (2, 2), GAMES, vector=_NO_ARRAY, z3="the misère Grundy function has no symbolic model",
            walnut="misere_grundy(...) is the misère Grundy function itself, with no closed form to translate",
            fast="the Grundy function of another game inside a move", returns="int"),
    # -- the Josephus problem
    Builtin("survivor", (2, 2), JOSEPHUS, fast=_NOT_IN_MOVES, domains=(INT, SMALL), returns="int"),
    Builtin("removal_index", (3, 3), JOSEPHUS, vector=_NO_ARRAY, walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES),
    Builtin("removed", (3, 3), JOSEPHUS, vector=_NO_ARRAY, walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES),
    Builtin("JJ", (3, 3), JOSEPHUS, walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES),
    Builtin("F", (2, 2), JOSEPHUS, walnut=_NOT_AUTOMATIC, fast=_NOT_IN_MOVES),
)

#: every built-in of the language, by name
REGISTRY: dict[str, Builtin] = {b.name: b for b in _ENTRIES}

#: the forms of every stored automaton (a spec's ``[automaton.NAME]``, :mod:`nimjos.lang.stored`), whatever NAME
#: the spec gives it: not in REGISTRY (its name is the spec's); each backend dispatches on the function's type --
#: vectorised: ``nimjos.lang.vector.STORED_VECTOR_FORM``; Walnut: ``checkers.prove.walnut.arith.STORED_WALNUT_FORM``
#: (the automaton installed in Walnut's library under its content's name); Z3 and the fast engines refuse
STORED_AUTOMATON = Builtin("[automaton.NAME]", (1, None), "nimjos.lang.stored", "StoredAutomaton",
                           z3="a stored automaton is a finite-state predicate on the arguments' binary digits, with no "
                              "model in Z3's integer arithmetic",
                           fast="a stored automaton is a predicate, not a move's arithmetic")


def builtins_of(module: str) -> dict[str, Builtin]:
    """The built-ins whose scalar forms live in `module` (:data:`LANG`, :data:`GAMES`, :data:`DECLARED` or
    :data:`JOSEPHUS`).

    >>> sorted(builtins_of(JOSEPHUS))
    ['F', 'JJ', 'removal_index', 'removed', 'survivor']
    """
    return {n: b for n, b in REGISTRY.items() if b.scalar == module}


def without_form(backend: str) -> dict[str, str]:
    """The built-ins `backend` has no form of, with the reasons.

    >>> without_form("fast")["ilog2"]
    "not translated in a move's arithmetic"
    """
    return {n: r for n, b in REGISTRY.items() if (r := b.reason(backend)) is not None}
