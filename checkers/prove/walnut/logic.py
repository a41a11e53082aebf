"""The logic the Walnut translation writes in: the base-2 automata every job starts with (:func:`library`),
the limits of Walnut's msd_2 arithmetic the translation keeps to, the text of quantifiers over the names
that occur (:func:`quant`, :func:`pad`), the values a translation carries (:class:`Exp`, :class:`Unit`) and
the reason it stops (:class:`NotAutomatic`).

>>> quant("E", ["v001"], pad(["x"], "v001 < x"))
'Ev001 v001 < x & x = x'
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

#: the base-2 automata every job starts with (reg automata take their arguments in the order written)
LIBRARY = [
    'reg xor msd_2 msd_2 msd_2 "([0,0,0]|[0,1,1]|[1,0,1]|[1,1,0])*";',
    'reg bitand msd_2 msd_2 msd_2 "([0,0,0]|[0,1,0]|[1,0,0]|[1,1,1])*";',
    'reg bitor msd_2 msd_2 msd_2 "([0,0,0]|[0,1,1]|[1,0,1]|[1,1,1])*";',
    'reg pow2 msd_2 "0*10*";',
    # low(n, p): p = 2^v2(n), n >= 1; lpow(n, p): p = 2^floor(log2 n), n >= 1
    'reg low msd_2 msd_2 "([0,0]|[1,0])*[1,1][0,0]*";',
    'reg lpow msd_2 msd_2 "[0,0]*[1,1]([0,0]|[1,0])*";',
    # jos(j, n): j = survivor(n, 2), J(n) = 2(n - 2^floor(log2 n)) + 1 (n >= 1), 0 at n = 0
    'def jos "(n = 0 & j = 0) | (n >= 1 & Ep $lpow(n,p) & j = 2*(n-p)+1)";',
]

#: 2**e with e a number (not carried as 2**e) is a table of the exponents 0..MAX_EXPONENT, and Walnut checks
#: that e stays within it where the term is evaluated (an obligation)
MAX_EXPONENT = 30
#: that table, built once per run (p2tab(e, w): w = 2**e, e <= MAX_EXPONENT) instead of at every use (some
#: 35,000 states: only in runs that use it)
P2TAB = 'def p2tab "' + " | ".join(f"(e = {i} & w = {2 ** i})" for i in range(MAX_EXPONENT + 1)) + '";'


#: the automaton jos is built from the closed form of survivor(n, 2), which a claim may state: it is no lemma.
#: What makes it survivor(n, 2) is the Josephus recursion, read off the process (one round of the circle of 2n
#: numbers removes the evens and leaves the n odd ones, 1 to go on; of 2n + 1 numbers, the evens and then 1,
#: leaving 3, 5, ..., 2n + 1): J(0) = 0 (the convention of survivor), J(1) = 1, J(2n) = 2J(n) - 1 and
#: J(2n + 1) = 2J(n) + 1 for n >= 1. Every run that uses jos proves, in Walnut, that jos is a function of n
#: satisfying the recursion, which determines it by induction on n: this query, to be TRUE
JOSEPHUS_CHECK = "josrec"
JOSEPHUS_QUERY = (f'eval {JOSEPHUS_CHECK} "(An Ej $jos(j,n)) & (An,j,k ($jos(j,n) & $jos(k,n)) => j = k) & '
                  '(An,j (n = 0 & $jos(j,n)) => j = 0) & (An,j (n = 1 & $jos(j,n)) => j = 1) & '
                  '(An,m,j,a (n >= 1 & m = 2*n & $jos(j,n) & $jos(a,m)) => a + 1 = 2*j) & '
                  '(An,m,j,b (n >= 1 & m = 2*n + 1 & $jos(j,n) & $jos(b,m)) => b = 2*j + 1)";')
#: the lemmas a proof that uses jos rests on, as its scope names them
JOSEPHUS_LEMMA = ("using, as a lemma, the Josephus closed form for k = 2, survivor(n, 2) = 2(n - 2^floor(log2 n)) + 1, "
                  "which Walnut proved in the same run from the Josephus recursion read off the process, J(1) = 1, "
                  "J(2n) = 2J(n) - 1, J(2n + 1) = 2J(n) + 1 (Graham, Knuth and Patashnik, Concrete Mathematics, (1.8))")


def library(commands: list[str]) -> list[str]:
    """The base-2 automata a run with these commands starts with: LIBRARY, the table of 2**e if they use it, and
    the proof that jos is survivor(n, 2) (:data:`JOSEPHUS_QUERY`) if they use jos.

    >>> len(library(['eval t "Ax x = x";'])) == len(LIBRARY), library(['def f "$p2tab(e,w)";'])[-1] == P2TAB
    (True, True)
    >>> library(['def f "$jos(j,n)";'])[-1] == JOSEPHUS_QUERY
    True
    """
    return (LIBRARY + ([P2TAB] if any("$p2tab(" in c for c in commands) else [])
            + ([JOSEPHUS_QUERY] if any("$jos(" in c for c in commands) else []))


#: c*x and x // c build automata of about c states
MAX_FACTOR = 10_000
#: Walnut's constants are 32-bit
MAX_CONSTANT = 2 ** 31 - 1
#: a constant set is written as a disjunction of at most this many members
MAX_MEMBERS = 256
#: the library automaton of each function whose value lives in the exponent domain (carried as 2**value)
LOG_AUTOMATA = {"v2": "low", "ilog2": "lpow"}


class NotAutomatic(Exception):
    """The statement is outside what Walnut decides in msd_2; args[0] says precisely why."""


@dataclass
class Exp:
    """A value e carried as the Walnut term t = 2**e (e from v2, ilog2, or a name used only as an exponent)."""

    t: str


@dataclass
class Unit:
    """One def or query being translated: its parameters, the path condition and the obligations so far."""

    params: list
    obligations: list = field(default_factory=list)   # (closed Walnut formula to prove TRUE, why)
    path: list = field(default_factory=list)


def quant(q: str, names: list, body: str) -> str:
    """Quantify the names that occur in body (Walnut refuses a quantified name that does not occur).

    >>> quant("A", ["x", "y"], "x = 0")
    'Ax x = 0'
    """
    used = [v for v in names if re.search(rf"\b{re.escape(v)}\b", body)]
    return f"{q}{','.join(used)} {body}" if used else body


def pad(params: list, body: str) -> str:
    """Make every parameter occur (a def's arity counts the names that occur; ``z = z`` keeps one).

    >>> pad(["a", "b"], "a < 2")
    'a < 2 & a = a & b = b'
    """
    return body + "".join(f" & {z} = {z}" for z in params)
