"""The misère periodicity certificate: a finite misère quotient whose pretending function repeats across a range
that a theorem names decides the misère outcome of EVERY position of the heap game, with heaps of any size.

The theorem (Plambeck and Siegel, "Misère quotients for impartial games", J. Combin. Theory Ser. A 115 (2008),
the periodicity theorem for misère quotients; a proof is in A. N. Siegel, "Misère games and misère quotients",
Games of No Chance 5, MSRI Publ. 70 (2017)) is the misère analogue of the Guy-Smith theorem of normal play. The
form checked here, with its proof, so that nothing rests on the citation alone:

  Let a take-and-break rule take at most k tokens from one heap and leave at most two heaps, the same moves
  from every heap size (an octal code with finitely many digits, no ``unequal`` condition). Let Q be a finite
  commutative monoid with a P-portion P and Phi a map from heap sizes 0..N to Q with Phi(0) = 1, such that
  every position G with heaps of at most N tokens satisfies

      V(G):  Phi(G) in P  <=>  G has an option and no option G' has Phi(G') in P

  (Phi(G) the product of its heaps' elements). If n0 >= 1, p >= 1, N >= 2 n0 + 2 p + k - 1 and
  Phi(n + p) = Phi(n) for every n0 <= n <= N - p, extend Phi by Phi(n) = Phi(n - p) for n > N. Then every
  position G, whatever its heaps, satisfies V(G), and so (by induction on positions, a terminal position
  being an N-position) G is a misère P-position exactly when Phi(G) is in P.

  Proof. By induction on the total number of tokens, V holds at G with a heap h > N: let G* be G with h
  replaced by h - p. Phi(G*) = Phi(G) (Phi is periodic from n0). A move in another heap gives options whose
  elements agree one for one. A move in h takes t <= k tokens and leaves (a, b), a <= b, a + b = h - t
  (a = 0: one heap), so b >= (h - k) / 2 >= n0 + p, and (a, b - p) is a move of h - p of the same kind,
  with the same element since b - p >= n0 >= 1. Conversely a move (a, b') of h - p, b' >= a, has b' >= n0,
  and (a, b' + p) is a move of h. Taking everything (t = h) is not possible from h or h - p (both exceed k).
  So G and G* have the same set of option elements, and V(G) is V(G*), true by induction (G* has fewer
  tokens). The positions with heaps of at most N are the base: V is what the quotient's verification checks.

The range checked is therefore Phi(n + p) = Phi(n) for n0 <= n < 2 n0 + p + k, the Guy-Smith range; the role of
k, the most tokens one move takes, is that a move from a heap h > N leaves a part of at least (h - k) / 2. The
hypothesis n0 >= 1 keeps a part of b - p >= 1 (a heap of 0 would turn a split into a one-heap move, which the
code may not allow).

:func:`certify` does not trust the quotient it is given: it checks that the table is a commutative monoid with
identity 0 and re-runs the verification V on every position of heaps up to N (the pairs (element, option
elements), a finite search), from the moves, before it checks the periodicity; a quotient with one status
flipped, or a pretending function periodic on a shorter range than N, is refused with the reason.

>>> from nimjos.games.heaps.quotient import misere_quotient
>>> from nimjos.games.heaps.rules import octal_rules
>>> rules = octal_rules("0.75")
>>> cert = certify(misere_quotient(rules.moves, 30), rules, 8, 2)
>>> cert.needed, cert.outcome((10 ** 9, 3)), cert.outcome((2, 2))
(21, 'N', 'P')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from nimjos.games.heaps.quotient import MisereQuotient, QuotientBudget
from nimjos.games.heaps.rules import HeapRules
from nimjos.lang.errors import EvalError

#: the most pairs (element, option elements) the certificate's own verification may visit (a count, not a time)
PAIR_BUDGET = 400_000
#: the largest monoid whose laws (identity, commutativity, associativity) are checked element by element
MAX_ORDER = 200
#: the theorem, as the scope names it
THEOREM = "the periodicity theorem for misère quotients (Plambeck-Siegel, JCTA 115 (2008); Siegel, GONC 5)"


class NotCertified(Exception):
    """The certificate refuses: the reason is the message."""


def rule_reach(rules: HeapRules) -> int:
    """k of the theorem: the most tokens one move takes, for a rule the theorem applies to (finitely many code
    digits, at most two heaps left, no equal-parts condition); else :class:`NotCertified` says why.

    >>> from nimjos.games.heaps.rules import octal_rules, GRUNDYS_GAME
    >>> rule_reach(octal_rules("0.77")), rule_reach(octal_rules("4.7"))
    (2, 1)
    >>> rule_reach(GRUNDYS_GAME)
    Traceback (most recent call last):
    ...
    nimjos.games.heaps.quotient_period.NotCertified: grundys_game asks the two parts of a split to differ: a shift by the period may make them equal, outside the theorem
    """
    label = rules.name or rules.code()
    if rules.unequal:
        raise NotCertified(f"{label} asks the two parts of a split to differ: a shift by the period may make them "
                           "equal, outside the theorem")
    if rules.max_take is None:
        raise NotCertified(f"{label} takes unboundedly many tokens in one move (a tail digit): the theorem needs a "
                           "finite code")
    if rules.max_parts > 2:
        raise NotCertified(f"{label} may leave three heaps: the theorem is checked here for at most two")
    return rules.max_take


@dataclass(frozen=True)
class Certificate:
    """A quotient certified for every heap: outcomes of positions with heaps of any size. ``preperiod`` (n0),
    ``period`` (p), ``reach`` (k), ``needed`` (N = 2 n0 + 2 p + k - 1, the heaps the verification and the
    periodicity covered), ``pairs`` (the pairs the verification visited)."""

    quotient: MisereQuotient
    preperiod: int
    period: int
    reach: int
    needed: int
    pairs: int

    def image(self, h: int) -> int:
        """The element of one heap of h tokens (h any integer >= 0), by the periodic extension.

        >>> from nimjos.games.heaps.quotient import misere_quotient
        >>> from nimjos.games.heaps.rules import octal_rules
        >>> r = octal_rules("0.75"); c = certify(misere_quotient(r.moves, 30), r, 8, 2)
        >>> c.image(10 ** 6 + 1) == c.image(9)
        True
        """
        if type(h) is not int or h < 0:
            raise EvalError(f"a heap is an integer >= 0, got {h!r}")
        n0, p = self.preperiod, self.period
        if h > self.quotient.bound:
            h = n0 + (h - n0) % p
        return self.quotient.images[h]

    def element(self, heaps: Iterable[int]) -> int:
        """The element of a position (heaps of any size)."""
        x = 0
        for h in heaps:
            x = self.quotient.table[x][self.image(h)]
        return x

    def outcome(self, heaps: Iterable[int]) -> str:
        """'P' or 'N': the misère outcome of the position `heaps`, for heaps of any size."""
        return "P" if self.element(heaps) in self.quotient.p_portion else "N"

    def describe(self) -> str:
        """The evidence, in words, for a scope."""
        q = self.quotient
        return (f"misère quotient of {q.order} elements ({len(q.p_portion)} in the P-portion) verified for every "
                f"sum of heaps of at most {self.needed} tokens ({self.pairs} pairs element/option elements); its "
                f"pretending function has Phi(n + {self.period}) = Phi(n) for {self.preperiod} <= n <= "
                f"{self.needed - self.period}, the range 2 n0 + 2 p + k - 1 = {self.needed} that {THEOREM} needs "
                f"for moves taking at most k = {self.reach} tokens")


def _check_monoid(q: MisereQuotient) -> None:
    """Element 0 is the identity and the table is commutative and associative, else NotCertified."""
    n = q.order
    if n > MAX_ORDER:
        raise NotCertified(f"{n} elements: more than the {MAX_ORDER} whose monoid laws are checked here")
    t = q.table
    if any(len(row) != n or any(type(v) is not int or not 0 <= v < n for v in row) for row in t):
        raise NotCertified("the table is not a square table of elements")
    if list(t[0]) != list(range(n)) or [row[0] for row in t] != list(range(n)):
        raise NotCertified("element 0 is not the identity of the table")
    for x in range(n):
        for y in range(x + 1, n):
            if t[x][y] != t[y][x]:
                raise NotCertified(f"the table is not commutative: {x} * {y} != {y} * {x}")
    for x in range(n):
        for y in range(n):
            xy = t[x][y]
            for z in range(n):
                if t[xy][z] != t[x][t[y][z]]:
                    raise NotCertified(f"the table is not associative at ({x}, {y}, {z})")


def verify_pairs(q: MisereQuotient, rules: HeapRules, bound: int, budget: int = PAIR_BUDGET) -> int:
    """Check V(G) for every position G with heaps of at most `bound` tokens: the pairs (element of G, elements
    of G's options) are the states reachable from (identity, {}) when a heap is added, (x, T) + h =
    (x g, T g | x O) with g = Phi(h) and O the elements of h's options, all read from the table; every pair must
    have x in P exactly when T is not empty and meets no element of P. Returns the pairs visited; a failure, or
    more pairs than `budget`, raises NotCertified.

    >>> from nimjos.games.heaps.quotient import misere_quotient
    >>> from nimjos.games.heaps.rules import NIM
    >>> verify_pairs(misere_quotient(NIM.moves, 3), NIM, 3) > 0
    True
    """
    t, images, p = q.table, q.images, q.p_portion
    if bound > q.bound:
        raise NotCertified(f"the quotient covers heaps up to {q.bound}, not {bound}")
    kinds = set()
    for h in range(1, bound + 1):
        opts = set()
        for parts in rules.moves(h):
            if any(not 0 <= part < h for part in parts):
                raise NotCertified(f"a move from a heap of {h} leaves {parts}: not smaller heaps")
            x = 0
            for part in parts:
                x = t[x][images[part]]
            opts.add(x)
        if opts or images[h] != 0:
            kinds.add((images[h], frozenset(opts)))
        # a heap with no move is the empty position: it must be the identity
    for h in range(1, bound + 1):
        if not any(True for _ in rules.moves(h)) and images[h] != 0:
            raise NotCertified(f"a heap of {h} has no move but is not the identity")
    start: tuple[int, frozenset] = (0, frozenset())
    seen = {start}
    stack = [start]
    while stack:
        x, targets = stack.pop()
        says_p = bool(targets) and not (targets & p)
        if says_p != (x in p):
            raise NotCertified(f"the verification fails at an element {x} whose options' elements are "
                               f"{sorted(targets)}: its status is not the outcome its options give")
        for g, hopts in kinds:
            nxt = (t[x][g], frozenset([t[o][g] for o in targets] + [t[x][o] for o in hopts]))
            if nxt not in seen:
                seen.add(nxt)
                if len(seen) > budget:
                    raise NotCertified(f"more than {budget} pairs to verify")
                stack.append(nxt)
    return len(seen)


def certify(q: MisereQuotient, rules: HeapRules, preperiod: int, period: int,
            budget: int = PAIR_BUDGET) -> Certificate:
    """The certificate of `q` (the misère quotient of `rules` computed to ``q.bound``) with the pretending
    function periodic with `period` from `preperiod`; NotCertified with the reason when any hypothesis fails.

    >>> from nimjos.games.heaps.quotient import misere_quotient
    >>> from nimjos.games.heaps.rules import octal_rules
    >>> r = octal_rules("0.75")
    >>> certify(misere_quotient(r.moves, 20), r, 8, 4).needed
    Traceback (most recent call last):
    ...
    nimjos.games.heaps.quotient_period.NotCertified: the periodicity theorem needs heaps up to 2 n0 + 2 p + k - 1 = 25 (n0 = 8, p = 4, k = 2); the quotient covers 20
    """
    k = rule_reach(rules)
    if type(preperiod) is not int or preperiod < 1 or type(period) is not int or period < 1:
        raise NotCertified(f"the preperiod must be >= 1 and the period >= 1, got {preperiod} and {period}")
    needed = 2 * preperiod + 2 * period + k - 1
    if q.bound < needed:
        raise NotCertified(f"the periodicity theorem needs heaps up to 2 n0 + 2 p + k - 1 = {needed} (n0 = "
                           f"{preperiod}, p = {period}, k = {k}); the quotient covers {q.bound}")
    _check_monoid(q)
    if q.images[0] != 0:
        raise NotCertified("the empty heap is not the identity")
    for n in range(preperiod, needed - period + 1):
        if q.images[n + period] != q.images[n]:
            raise NotCertified(f"the pretending function is not periodic across the range the theorem needs: "
                               f"Phi({n + period}) != Phi({n}) (period {period} from {preperiod}, range to {needed})")
    pairs = verify_pairs(q, rules, needed, budget)
    return Certificate(q, preperiod, period, k, needed, pairs)


def observed_period(images: tuple[int, ...], max_period: int = 200) -> tuple[int, int] | None:
    """(n0, p) with n0 >= 1 and p >= 1 least (n0 + p, then p) such that images[n + p] == images[n] for every
    n0 <= n with n + p in range and the repeating part seen at least twice: an observation to certify, not a proof.

    >>> observed_period((0, 5, 1, 2, 1, 2, 1, 2))
    (2, 2)
    """
    last = len(images) - 1
    for total in range(2, last + 1):
        for p in range(1, min(total, max_period + 1)):
            n0 = total - p
            if n0 < 1 or last - n0 + 1 < 2 * p:
                continue
            if all(images[n + p] == images[n] for n in range(n0, last - p + 1)):
                return n0, p
    return None


def certified_quotient(rules: HeapRules, builder, limit: int) -> Certificate:
    """Grow `builder` (a :class:`~nimjos.games.heaps.quotient.QuotientBuilder` of `rules`) until its pretending
    function is certified periodic or heap `limit` is passed: NotCertified with what was seen when it is not.

    >>> from nimjos.games.heaps.quotient import QuotientBuilder
    >>> from nimjos.games.heaps.rules import octal_rules
    >>> r = octal_rules("0.75"); c = certified_quotient(r, QuotientBuilder(r.moves), 100)
    >>> c.preperiod, c.period, c.needed
    (8, 2, 21)
    """
    k = rule_reach(rules)
    bound = max(builder.bound, 4 * k + 8)
    last = ""
    while True:
        try:
            q = builder.grow(min(bound, limit))
        except QuotientBudget as exc:
            raise NotCertified(f"no verified quotient beyond heap {builder.bound} within the budget ({exc})")
        seen = observed_period(q.images)
        if seen is not None:
            n0, p = seen
            needed = 2 * n0 + 2 * p + k - 1
            if needed <= q.bound:
                return certify(q, rules, n0, p)
            last = f"observed period {p} from {n0} through heap {q.bound}, which needs heaps up to {needed}"
            bound = max(bound, needed)
        else:
            last = f"no period observed through heap {q.bound}"
            bound = 2 * bound
        if q.bound >= limit:
            raise NotCertified(f"{last}; the search stops at heap {limit}")
