"""Periodicity proved: the theorems that turn a finite computation of a Grundy sequence into a statement about
every heap size.

* Guy-Smith (Winning Ways, ch. 4; generalised here to moves leaving up to J heaps): in a take-and-break game
  with a finite code, where t is the most tokens one move takes and J the most heaps it leaves, if
  g(n + p) = g(n) for every n with n0 <= n < J n1 + (J - 1) p + t, n1 = max(n0, 1), then for every n >= n0.
  For octal games (J = 2, n0 >= 1) the range is n0 <= n < 2 n0 + p + t, the theorem as printed. (Proof: for
  m >= J (n1 + p) + t, every option of m has a heap >= n1 + p and every option of m - p a heap >= n1; moving
  p tokens between that heap and its twin matches the options' values, so g(m) = g(m - p) by induction.)
* Finite subtraction sets: g(n) is the mex of g(n - s), s in S, so once n >= max(S) it depends only on the
  max(S) values before it; if g(n + p) = g(n) for n0 <= n < n0 + max(S), the state repeats, forever.

>>> from nimjos.games.heaps.rules import octal_rules
>>> proof = octal_proof(octal_rules("0.77"), 12, 71); proof.holds, proof.checked
(True, (71, 156))
>>> octal_proof(octal_rules("0.77"), 12, 70).first_failure
70
>>> subtraction_proof(frozenset({2, 3}), 5, 0).describe()
'proved: g(n + 5) = g(n) for every n >= 0 (finite subtraction set, max(S) = 3: the state of the last 3 values repeats; checked 0 <= n < 3)'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from nimjos.games.heaps.fast import sequence
from nimjos.games.heaps.rules import HeapRules, plain_sequence
from nimjos.lang.errors import EvalError

#: the largest range a proof computes (heap sizes)
MAX_RANGE = 5_000_000


@dataclass(frozen=True)
class PeriodicityProof:
    """The record of a periodicity proof: the theorem, the range checked (n0 <= n < N, each n with
    g(n + p) = g(n)), and the outcome; `first_failure` is the least n >= n0 with g(n + p) != g(n)."""

    theorem: str
    period: int
    preperiod: int
    checked: tuple[int, int]
    holds: bool
    first_failure: int | None = None
    values: tuple[int, int] | None = None  # (g(n + p), g(n)) at the first failure
    #: the least n of the range checked where the statement speaks (see :func:`_record`) and g(n + p) != g(n), with
    #: (g(n + p), g(n)) there; None when there is none in the range (the statement may still fail beyond it)
    counterexample: int | None = None
    counter_values: tuple[int, int] | None = None
    #: s of g(n + p) = g(n) + s (0: plain periodicity); `values` and `counter_values` are (g(n + p), g(n)) as ever
    saltus: int = 0
    #: how the theorem decided, when not by checking the range `checked` alone (a decision procedure's counts)
    decided: str = ""

    def describe(self) -> str:
        lo, hi = self.checked
        plus = f" + {self.saltus}" if self.saltus else ""
        if self.holds:
            how = f"; {self.decided}" if self.decided else ""
            return (f"proved: g(n + {self.period}) = g(n){plus} for every n >= {self.preperiod} ({self.theorem}; "
                    f"checked {lo} <= n < {hi}{how})")
        a, b = self.values or (None, None)
        return (f"refuted: g({self.first_failure} + {self.period}) = {a} != g({self.first_failure}){plus} = "
                f"{None if b is None else b + self.saltus}")


def _check(seq: Sequence[int], period: int, lo: int, hi: int,
           speaks: Callable[[int], bool] | None = None, saltus: int = 0) -> int | None:
    for n in range(lo, hi):
        if seq[n + period] != seq[n] + saltus and (speaks is None or speaks(n)):
            return n
    return None


def _record(theorem: str, seq: Sequence[int], period: int, preperiod: int, hi: int,
            speaks: Callable[[int], bool] | None = None, saltus: int = 0) -> PeriodicityProof:
    """The proof record of checking g(n + period) = g(n) for preperiod <= n < hi. `speaks(n)`: whether the claim
    states anything at n (n and n + period in its domain and assumption); a counterexample is a failure where it
    does, the least in the range (every failure when `speaks` is None).

    >>> r = _record("t", [0, 1, 0, 2, 0, 1], 2, 0, 4, speaks=lambda n: n != 1)
    >>> r.holds, r.first_failure, r.counterexample, r.counter_values
    (False, 1, 3, (1, 2))
    """
    bad = _check(seq, period, preperiod, hi, saltus=saltus)
    if bad is None:
        return PeriodicityProof(theorem, period, preperiod, (preperiod, hi), True, saltus=saltus)
    cx = bad if speaks is None or speaks(bad) else _check(seq, period, bad + 1, hi, speaks, saltus)
    return PeriodicityProof(theorem, period, preperiod, (preperiod, hi), False, bad,
                            (int(seq[bad + period]), int(seq[bad])), cx,
                            None if cx is None else (int(seq[cx + period]), int(seq[cx])), saltus)


def record_failure(theorem: str, seq: Sequence[int], period: int, preperiod: int, saltus: int,
                   speaks: Callable[[int], bool] | None = None) -> PeriodicityProof:
    """The record of a theorem's "no" for g(n + period) = g(n) + saltus (n >= preperiod), read off the
    sequence `seq` the engine computed: the least failure, and the least where the claim speaks, within `seq`
    (a record with `holds` False and no failure found when `seq` is too short to show one).

    >>> r = record_failure("t", [0, 1, 2, 4, 3, 5, 6, 8, 7], 4, 1, 3)
    >>> r.holds, r.first_failure, r.counter_values, r.describe()
    (False, 1, (5, 1), 'refuted: g(1 + 4) = 5 != g(1) + 3 = 4')
    """
    check_pattern(period, preperiod)
    rec = _record(theorem, seq, period, preperiod, max(preperiod, len(seq) - period), speaks, saltus)
    if rec.holds:
        return PeriodicityProof(theorem, period, preperiod, rec.checked, False, saltus=saltus)
    return rec


def heap_sequence(rules: HeapRules, n: int) -> list[int]:
    """g(0), ..., g(n) of the heap game `rules`, from its moves (the compiled kernels, or the plain mex when a
    move may leave more than two heaps).

    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> heap_sequence(LASKERS_NIM, 8)
    [0, 1, 2, 4, 3, 5, 6, 8, 7]
    """
    return plain_sequence(rules, n) if rules.max_parts > 2 else sequence(rules, n).tolist()


def check_pattern(period: int, preperiod: int) -> None:
    """Refuse (EvalError) a period that is not an integer >= 1 or a preperiod that is not an integer >= 0
    (booleans included: True is no period).

    >>> check_pattern(True, 0)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: the period must be a positive integer, got True
    """
    if type(period) is not int or period < 1:
        raise EvalError(f"the period must be a positive integer, got {period!r}")
    if type(preperiod) is not int or preperiod < 0:
        raise EvalError(f"the preperiod must be an integer >= 0, got {preperiod!r}")


def guy_smith_range(rules: HeapRules, period: int, preperiod: int) -> int | None:
    """N of the theorem: checking n0 <= n < N proves the period for every n >= n0; None when the theorem does
    not apply (a code with infinitely many digits, or unequal parts as in Grundy's game).

    >>> from nimjos.games.heaps.rules import octal_rules, GRUNDYS_GAME
    >>> guy_smith_range(octal_rules("0.07"), 34, 53), guy_smith_range(GRUNDYS_GAME, 3, 0) is None
    (142, True)
    """
    t = rules.max_take
    if t is None or rules.unequal:
        return None
    parts = max(rules.max_parts, 1)
    n1 = max(preperiod, 1)
    return parts * n1 + (parts - 1) * period + t


def octal_proof(rules: HeapRules, period: int, preperiod: int, seq: Sequence[int] | None = None,
                speaks: Callable[[int], bool] | None = None) -> PeriodicityProof | None:
    """Prove or refute "g(n + period) = g(n) for every n >= preperiod" for a heap game with a finite code
    (the Guy-Smith theorem); None when the theorem does not apply. `speaks`: as for :func:`_record`."""
    check_pattern(period, preperiod)
    hi = guy_smith_range(rules, period, preperiod)
    if hi is None:
        return None
    if hi + period > MAX_RANGE:
        raise EvalError(f"the theorem's range reaches {hi + period:,}, beyond {MAX_RANGE:,} heap sizes")
    if seq is None or len(seq) < hi + period:
        seq = heap_sequence(rules, hi + period)
    t, parts = rules.max_take, max(rules.max_parts, 1)
    theorem = (f"Guy-Smith periodicity theorem for the finite code {rules.code()}: a move takes at most t = {t} "
               f"tokens and leaves at most {parts} heap{'s' if parts > 1 else ''}")
    return _record(theorem, seq, period, preperiod, hi, speaks)


def subtraction_sequence(S: frozenset, n: int) -> list[int]:
    """g(0), ..., g(n) of the subtraction game with the finite set S.

    >>> subtraction_sequence(frozenset({1, 2}), 6)
    [0, 1, 2, 0, 1, 2, 0]
    """
    moves = sorted(s for s in S if type(s) is int and s >= 1)
    g: list[int] = []
    for m in range(n + 1):
        seen = {g[m - s] for s in moves if s <= m}
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return g


def subtraction_proof(S: Any, period: int, preperiod: int,
                      speaks: Callable[[int], bool] | None = None) -> PeriodicityProof | None:
    """Prove or refute "g(n + period) = g(n) for every n >= preperiod" for the subtraction game of a finite set
    S of positive integers; None when S is not such a set. `speaks`: as for :func:`_record`."""
    check_pattern(period, preperiod)
    if not isinstance(S, (frozenset, set, tuple)) or not S or any(type(s) is not int or s < 1 for s in S):
        return None
    top = max(S)
    hi = preperiod + top
    if hi + period > MAX_RANGE:
        raise EvalError(f"the theorem's range reaches {hi + period:,}, beyond {MAX_RANGE:,} heap sizes")
    seq = subtraction_sequence(frozenset(S), hi + period)
    theorem = f"finite subtraction set, max(S) = {top}: the state of the last {top} values repeats"
    return _record(theorem, seq, period, preperiod, hi, speaks)
