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

from checkers.prove.walnut.numeration import BASE2, Numeration

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


#: the automata of a run in Fibonacci numeration, after ``ost fib [0 2] [1];`` has built msd_fib: pow2(t): t is a place
#: (written 1 followed by zeros: a value carried as t, as 2**e is in msd_2); low(n, p): p is the
#: lowest place of n's Zeckendorf representation (the number 10^k, k = zeck_tz(n)), n >= 1; shift(n, m): m is n's
#: representation followed by a 0 (zeck_shift); phin(n, s): s = floor(n phi), by floor((k + 1) phi) = shift(k) + 1
#: (the automaton phin of Shallit, The Logical Approach to Automatic Sequences, 2022)
FIB_LIBRARY = [
    'reg pow2 msd_fib "0*10*";',
    'reg low msd_fib msd_fib "([0,0]|[1,0])*[1,1][0,0]*";',
    'reg shift msd_fib msd_fib "([0,0]|[0,1][1,1]*[1,0])*";',
    'def phin "?msd_fib (s = 0 & n = 0) | (Ex $shift(n-1,x) & s = x+1)";',
]

def beatty_query(check: str, automaton: str, c: int, walnut: str) -> str:
    """The query, to be TRUE, that the automaton `automaton`(n, s) is a function a of n with a(0) = 0, strictly
    increasing, such that {a(n) : n >= 1} and {a(n) + c n : n >= 1} partition the positive integers. These determine
    a: by induction on n, a(n) is the least positive integer not among a(i), a(i) + c i (1 <= i < n) (it is not
    among them, and the least such m is some a(j) or a(j) + c j with j >= n, where a(j) + c j > a(j) >= a(n) >= m
    rules out the second). So when floor(n alpha) satisfies them too (Beatty's theorem: for irrational alpha > 1
    with 1/alpha + 1/(alpha + c) = 1, floor(n alpha) and floor(n (alpha + c)) are complementary), the automaton
    is floor(n alpha).

    >>> beatty_query("q", "f", 2, "msd_pell")[:60]
    'eval q "?msd_pell (An Es $f(n,s)) & (An,s,t ($f(n,s) & $f(n,'
    """
    a = automaton
    return (f'eval {check} "?{walnut} (An Es ${a}(n,s)) & (An,s,t (${a}(n,s) & ${a}(n,t)) => s = t) & ${a}(0,0) & '
            f'(An,m,s,t (n < m & ${a}(n,s) & ${a}(m,t)) => s < t) & '
            f'(Ak k >= 1 => (En n >= 1 & (${a}(n,k) | Es ${a}(n,s) & k = s + {c}*n))) & '
            f'(An,m,s,t (n >= 1 & m >= 1 & ${a}(n,s) & ${a}(m,t)) => s != t + {c}*m)";')


#: phin is built from a construction, not from phi: what makes it floor(n phi) is Beatty's theorem (phi and
#: phi + 1 = phi^2 are complementary). Every run that uses phin proves that it is (:func:`beatty_query`): this
#: query, to be TRUE
PHI_CHECK = "phirec"
PHI_QUERY = beatty_query(PHI_CHECK, "phin", 1, "msd_fib")
#: the lemma a proof that uses phin rests on, as its scope names it
PHI_LEMMA = ("using, as a lemma, that the automaton phin is floor(n phi): Walnut proved in the same run that it is the "
             "increasing function a with a(0) = 0 whose values a(n) and a(n) + n (n >= 1) partition the positive "
             "integers, which determine it, and floor(n phi) is such a function by Beatty's theorem (Beatty 1926)")

#: the automata of a run in Pell numeration (msd_pell, built by ``ost pell [0] [2];``: places 1, 2, 5, 12, 29, ...,
#: digits 0..2): pshift(n, m): m is n's representation followed by a 0 (a regular expression of the 3-state
#: automaton that carries the previous digit); plowodd(n): n's lowest nonzero digit is at an odd place;
#: sqrt2n(n, s): s = floor(n sqrt 2), by floor(n (1 + sqrt 2)) = pshift(n) - [plowodd(n)] for n >= 1 (found by
#: comparing the two on n < 200,000; what makes it floor(n sqrt 2) is SQRT2_QUERY, proved in every run that uses it)
_PX1 = "([1,1]*[1,2][2,2]*[2,1])*[1,1]*([1,0]|[1,2][2,2]*[2,0])"
_PX2 = f"[2,2]*([2,0]|[2,1]{_PX1})"
PELL_LIBRARY = [
    f'reg pshift msd_pell msd_pell "([0,0]|[0,1]{_PX1}|[0,2]{_PX2})*";',
    'reg plowodd msd_pell "(0|1|2)*(1|2)0(00)*";',
    'def sqrt2n "?msd_pell (n = 0 & s = 0) | (n >= 1 & (Et $pshift(n,t) & (($plowodd(n) & s + n + 1 = t) | '
    '(~$plowodd(n) & s + n = t))))";',
]
#: sqrt2n is floor(n sqrt 2) by Beatty's theorem (sqrt 2 and 2 + sqrt 2 are complementary): this query, to be TRUE
SQRT2_CHECK = "sqrt2rec"
SQRT2_QUERY = beatty_query(SQRT2_CHECK, "sqrt2n", 2, "msd_pell")
#: the lemma a proof that uses sqrt2n rests on, as its scope names it
SQRT2_LEMMA = ("using, as a lemma, that the automaton sqrt2n is floor(n sqrt 2): Walnut proved in the same run that it is "
               "the increasing function a with a(0) = 0 whose values a(n) and a(n) + 2n (n >= 1) partition the "
               "positive integers, which determine it, and floor(n sqrt 2) is such a function by Beatty's theorem")


def library(commands: list[str], num: Numeration = BASE2) -> list[str]:
    """The automata a run with these commands starts with, in numeration `num`. In msd_2: LIBRARY, the table of 2**e
    if they use it, and the proof that jos is survivor(n, 2) (:data:`JOSEPHUS_QUERY`) if they use jos; in
    Fibonacci numeration: the command that builds msd_fib, :data:`FIB_LIBRARY` and the proof that phin is
    floor(n phi) (:data:`PHI_QUERY`) if they use it; in either, the residue tests of carried values they use
    (:func:`residue_automaton`).

    >>> len(library(['eval t "Ax x = x";'])) == len(LIBRARY), library(['def f "$p2tab(e,w)";'])[-1] == P2TAB
    (True, True)
    >>> library(['def f "$jos(j,n)";'])[-1] == JOSEPHUS_QUERY
    True
    >>> from checkers.prove.walnut.numeration import FIB
    >>> library(['def f "?msd_fib $phin(n,s) & $em2r0(s)";'], FIB)[0], library(['def f "$phin(n,s)";'], FIB)[-1] == PHI_QUERY
    ('ost fib [0 2] [1];', True)
    """
    used = sorted({(int(m), int(r)) for c in commands for m, r in re.findall(r"\$em(\d+)r(\d+)\(", c)})
    residues = [residue_automaton(m, r, num) for m, r in used]
    if num.name == "msd_2":
        return (LIBRARY + residues + ([P2TAB] if any("$p2tab(" in c for c in commands) else [])
                + ([JOSEPHUS_QUERY] if any("$jos(" in c for c in commands) else []))
    if num.name == "fib":
        return (list(num.setup) + FIB_LIBRARY + residues
                + ([PHI_QUERY] if any("$phin(" in c for c in commands) else []))
    if num.name == "pell":
        return (list(num.setup) + PELL_LIBRARY + residues
                + ([SQRT2_QUERY] if any("$sqrt2n(" in c for c in commands) else []))
    return list(num.setup) + residues


#: the largest modulus of a residue of a carried value (``zeck_tz(n) % m``, ``v2(n) % m``)
MAX_RESIDUE_MODULUS = 64


def residue_automaton(m: int, r: int, num: Numeration = BASE2) -> str:
    """The automaton em<m>r<r>(t): t is the number written 1 followed by e zeros (t = 2**e in msd_2, the Fibonacci
    place F_(e+2) in msd_fib: a value e carried as t) with e % m == r.

    >>> residue_automaton(2, 1)
    'reg em2r1 msd_2 "0*10(00)*";'
    """
    return f'reg em{m}r{r} {num.walnut} "0*1{"0" * r}({"0" * m})*";'


def in_numeration(command: str, num: Numeration) -> str:
    """A def or eval command with its formula marked as read in numeration `num` (unchanged in msd_2).

    >>> from checkers.prove.walnut.numeration import FIB
    >>> in_numeration('eval q "Ax x = x";', FIB), in_numeration('reg a msd_2 "0*";', FIB)
    ('eval q "?msd_fib Ax x = x";', 'reg a msd_2 "0*";')
    """
    if not num.prefix:
        return command
    return re.sub(r'^(\s*(?:eval|def)\s+[A-Za-z][A-Za-z0-9_]*\s+")', lambda mt: mt.group(1) + num.prefix, command)


#: c*x and x // c build automata of about c states
MAX_FACTOR = 10_000
#: Walnut's constants are 32-bit
MAX_CONSTANT = 2 ** 31 - 1
#: a constant set is written as a disjunction of at most this many members
MAX_MEMBERS = 256
#: the library automaton of each function whose value lives in the exponent domain (carried as 2**value)
LOG_AUTOMATA = {"v2": "low", "ilog2": "lpow", "zeck_tz": "low"}
#: the numeration each of them is automatic in (the automaton low reads the lowest digit place in either: in msd_2
#: that is 2**v2(n), in msd_fib the place F_(k+2) of k = zeck_tz(n))
LOG_NUMERATION = {"v2": "msd_2", "ilog2": "msd_2", "zeck_tz": "fib"}
#: each Beatty automaton's check (the eval name of its :func:`beatty_query`) and the lemma a proof that uses it names
BEATTY_CHECKS = {"phin": (PHI_CHECK, PHI_LEMMA), "sqrt2n": (SQRT2_CHECK, SQRT2_LEMMA)}


class NotAutomatic(Exception):
    """The statement is outside what Walnut decides in msd_2; args[0] says precisely why."""


class LogarithmicAsNumber(NotAutomatic):
    """A 2-adic or logarithmic value (v2, ilog2, an exponent carried as its power of two) used as a number: a
    translation that carried an index as 2**n may try again with the index kept a number."""


class WrongNumeration(NotAutomatic):
    """A term is automatic in another numeration than the translation's (floor_phi in msd_2, xor in msd_fib):
    `wanted` names it (``msd_2``, ``fib``), so that a translation whose numeration the spec did not name may start
    again in it."""

    def __init__(self, message: str, wanted: str):
        super().__init__(message)
        self.wanted = wanted


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
