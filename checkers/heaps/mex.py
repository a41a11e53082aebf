"""Arithmetic periodicity of a one-heap game proved for every heap size by the mex certificate, decided by Walnut.

The claim: g(n + p) = g(n) + s for every n >= n0, where g is the Grundy function of a take-and-break game given
by its code (:class:`nimjos.games.heaps.rules.HeapRules`: a digit for each number k of tokens taken below the
code's length, a tail digit for every larger k, bit 2^j of a digit allowing j heaps to be left; Lasker's Nim is
``4.3...``: split a heap into two, or take any number). Its moves may take unboundedly many tokens, so the
Guy-Smith theorem does not apply; this proof does, and for finite codes too (an Austin-type arithmetic
periodicity test, here decided instead of bounded).

The proof. Let f(n) = g(n) for n < n0 + p, the values the engine computes from the moves, and
f(n) = f(n - p) + s beyond. The claim says exactly that g = f. By strong induction on n, g = f iff f satisfies
the mex rule at every n: (a) no option of a heap of n tokens has value f(n), and (b) every value below f(n) is
the value of some option, where an option leaves heaps smaller than n (a code takes at least one token or
splits) and, by the Sprague-Grundy theorem, a position of several heaps has the nim-sum of their values. Both
are first-order statements over the naturals with +, constants, multiplication by constants and xor, which
Walnut decides in msd_2 for every n (the queries ``a`` and ``b``; ``total``/``unique``: f is a function of n).
When (a) or (b) fails, the least n where it fails is the least n + p with g(n + p) != g(n) + s: g = f below
it, so g(n + p) = mex != f(n + p) = g(n) + s there.

>>> from nimjos.games.heaps.rules import LASKERS_NIM
>>> cmds = mex_commands(LASKERS_NIM, [0, 1, 2, 4, 3], 4, 1, 4)
>>> cmds[0]
'def fG "(n = 0 & v = 0) | (Eq n = 1 + 4*q & v = 1 + 4*q) | (Eq n = 2 + 4*q & v = 2 + 4*q) | (Eq n = 3 + 4*q & v = 4 + 4*q) | (Eq n = 4 + 4*q & v = 3 + 4*q)";'
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable

from checkers.prove.walnut.logic import Exp, NotAutomatic, Unit, library
from checkers.prove.walnut.translate import Translator
from checkers.prove.walnut.run import (SearchLimit, WalnutMissing, find_jar, find_java, run, smallest_accepted,
                                       state_limit, work_limit)
from nimjos.games.heaps.periodicity import PeriodicityProof, check_pattern, heap_sequence, record_failure
from nimjos.games.heaps.rules import HeapRules
from nimjos.games.periodicity import holds as first_failure
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import copy_tree

#: the Walnut queries of the certificate, each to be TRUE, and what each says
QUERIES = {"q_total": "f has a value at every n", "q_unique": "f has one value at every n",
           "q_a": "(a) no option of n has the value f(n)", "q_b": "(b) every value below f(n) is an option's"}
#: seconds one Walnut run may take before the method gives up (inconclusive, never a verdict)
WALNUT_SECONDS = 120.0
#: the largest constant (a value of the base table, the period, the saltus, a code's length) written into a query
MAX_CONSTANT = 100_000
#: a proof is confirmed on the engine's values of every heap size below n0 + p + AUDIT_REACH before it prints
#: (the second number for codes whose moves may leave three heaps: the plain mex, cubic in the heap size)
AUDIT_REACH, AUDIT_REACH_THREE = 1_000, 200
#: heap sizes the engine computes past Walnut's least failure when it looks for one where the claim speaks
SEARCH_EXTRA = 200


def theorem_text(rules: HeapRules, period: int, preperiod: int, saltus: int) -> str:
    """The theorem a proof by this method rests on, as its scope names it.

    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> theorem_text(LASKERS_NIM, 4, 1, 4)[:72]
    'mex certificate for the code 4.3... (strong induction on the heap size; '
    """
    return (f"mex certificate for the code {rules.code()} (strong induction on the heap size; Sprague-Grundy for "
            f"the heaps a move leaves): f = g below {preperiod + period} (the engine), f(n + {period}) = "
            f"f(n) + {saltus} beyond; Walnut (msd_2) proved for every n that no option of n has the value f(n) "
            f"and every smaller value is an option's")


def formula_theorem(rules: HeapRules, proved: bool = True) -> str:
    """The theorem a grundy claim's proof by this method rests on, as its scope names it; `proved` False: what
    Walnut decided when the certificate fails (a refutation's scope).

    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> formula_theorem(LASKERS_NIM)[:48]
    'mex certificate for the code 4.3... (strong indu'
    >>> formula_theorem(LASKERS_NIM, proved=False)[-60:]
    "of n has the value f(n) or some smaller value is no option's"
    """
    decided = ("proved for every n that no option of n has the value f(n) and every smaller value is an option's"
               if proved else "decided that at some n an option of n has the value f(n) or some smaller value is "
               "no option's")
    return (f"mex certificate for the code {rules.code()} (strong induction on the heap size; Sprague-Grundy for "
            f"the heaps a move leaves): f = the formula on the domain, the engine's values outside it; Walnut "
            f"(msd_2) {decided}")


def _f_definition(base: list[int], period: int, preperiod: int, saltus: int) -> str:
    parts = [f"(n = {m} & v = {base[m]})" for m in range(preperiod)]
    for r in range(period):
        m = preperiod + r
        parts.append(f"(Eq n = {m} + {period}*q & v = {base[m]} + {saltus}*q)")
    return " | ".join(parts)


def _leave(digit: int, take: str, unequal: bool) -> list[str]:
    """The options of a heap of n tokens, taking `take` tokens (a constant or the bound name k), as formulas in n
    and the option's value v."""
    out = []
    if digit & 1:
        out.append(f"(n = {take} & v = 0)")
    if digit & 2:
        out.append(f"(Er r >= 1 & n = r + {take} & $fG(r,v))")
    if digit & 4:
        differ = " & a != b" if unequal else ""
        out.append(f"(Ea,b,x,y a >= 1 & b >= 1{differ} & n = a + b + {take} & $fG(a,x) & $fG(b,y) & $xor(x,y,v))")
    if digit & 8:
        out.append(f"(Ea,b,c,x,y,z,w a >= 1 & b >= 1 & c >= 1 & n = a + b + c + {take} & $fG(a,x) & $fG(b,y) & "
                   f"$fG(c,z) & $xor(x,y,w) & $xor(w,z,v))")
    return out


def mex_commands(rules: HeapRules, base: list[int], period: int, preperiod: int, saltus: int) -> list[str]:
    """The Walnut commands of the certificate (module docstring): ``fG(n, v)`` is v = f(n), ``opt(n, v)``
    "some move from a heap of n tokens leaves a position of value v", the queries of :data:`QUERIES`, and ``cex``,
    the automaton of the n where (a) or (b) fails. `base` holds g(0), ..., g(preperiod + period - 1).

    >>> from nimjos.games.heaps.rules import octal_rules
    >>> mex_commands(octal_rules("0.3"), [0, 1], 1, 1, 0)[1]
    'def opt "(n = 1 & v = 0) | (Er r >= 1 & n = r + 1 & $fG(r,v))";'
    """
    if rules.unequal and rules.max_parts > 2:
        raise ValueError("unequal parts are defined for splits into two heaps only")
    consts = [*base, period, preperiod, saltus, len(rules.digits)]
    if period < 1 or preperiod < 0 or saltus < 0 or len(base) < preperiod + period \
            or any(type(c) is not int or c < 0 or c > MAX_CONSTANT for c in consts):
        raise ValueError(f"no certificate for period {period!r}, preperiod {preperiod!r}, saltus {saltus!r} "
                         f"(non-negative integers up to {MAX_CONSTANT:,}, period >= 1, the base table complete)")
    return certificate_commands(rules, _f_definition(base, period, preperiod, saltus))


def certificate_commands(rules: HeapRules, f_definition: str) -> list[str]:
    """The certificate's commands for any f given as a Walnut formula in n and v (v = f(n)): ``fG``, ``opt``,
    the queries of :data:`QUERIES` and ``cex`` (module docstring)."""
    options = []
    for k, digit in enumerate(rules.digits):
        options += _leave(digit, str(k), rules.unequal)
    if rules.tail:
        options += [f"(Ek k >= {len(rules.digits)} & {o[1:-1]})" for o in _leave(rules.tail, "k", rules.unequal)]
    opt = " | ".join(options) or "n != n"
    return [f'def fG "{f_definition}";',
            f'def opt "{opt}";',
            'eval q_total "An Ev $fG(n,v)";',
            'eval q_unique "An,v,w ($fG(n,v) & $fG(n,w)) => v = w";',
            'eval q_a "An,v $fG(n,v) => ~$opt(n,v)";',
            'eval q_b "An,v,w ($fG(n,v) & w < v) => $opt(n,w)";',
            'eval cex "Ev,w $fG(n,v) & ($opt(n,v) | (w < v & ~$opt(n,w)))";']


class MexDisagreement(NimjosError, AssertionError):
    """Walnut proved a certificate that the engine's values contradict: a bug in the translation or the engine."""


def audit_reach(rules: HeapRules) -> int:
    """How far past n0 + p the engine confirms a proof of this code (:data:`AUDIT_REACH`).

    >>> from nimjos.games.heaps.rules import LASKERS_NIM, octal_rules
    >>> audit_reach(LASKERS_NIM), audit_reach(octal_rules("0.8"))
    (1000, 200)
    """
    return AUDIT_REACH_THREE if rules.max_parts > 2 else AUDIT_REACH


def confirm_with_engine(rules: HeapRules, period: int, preperiod: int, saltus: int, reach: int) -> None:
    """Raise :class:`MexDisagreement` unless g(n + period) = g(n) + saltus for preperiod <= n < preperiod + reach,
    g from the engine (the audit of a proof before it prints: the probe points are every heap size there).

    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> confirm_with_engine(LASKERS_NIM, 4, 1, 4, 50)
    >>> confirm_with_engine(LASKERS_NIM, 4, 1, 3, 50)
    Traceback (most recent call last):
    ...
    checkers.heaps.mex.MexDisagreement: the mex certificate of g(n + 4) = g(n) + 3 (n >= 1) for the code 4.3... was proved, but the engine has g(1 + 4) = 5 != g(1) + 3 = 4: a prover bug
    """
    seq = heap_sequence(rules, preperiod + period + reach)
    bad = first_failure(seq, period, preperiod, saltus)
    if bad is not None:
        raise MexDisagreement(f"the mex certificate of g(n + {period}) = g(n) + {saltus} (n >= {preperiod}) for the "
                              f"code {rules.code()} was proved, but the engine has g({bad} + {period}) = "
                              f"{seq[bad + period]} != g({bad}) + {saltus} = {seq[bad] + saltus}: a prover bug")


@dataclass
class MexAnswer:
    """Walnut's answer: `proved` True (every query TRUE), False (a query FALSE: `first_bad` is the least n where
    the mex rule fails, when found), or None with `why` (no complete answer); `states` the largest automaton."""

    proved: bool | None
    why: str = ""
    first_bad: int | None = None
    failed: list[str] = field(default_factory=list)
    states: int = 0
    total_states: int = 0
    seconds: float = 0.0


def prove_mex(rules: HeapRules, base: list[int], period: int, preperiod: int, saltus: int,
              profile: str = "default") -> MexAnswer:
    """Run the certificate of :func:`mex_commands` in Walnut, within the profile's state counts.

    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> prove_mex(LASKERS_NIM, [0, 1, 2, 4, 3], 4, 1, 4).proved  # runs Walnut
    True
    >>> a = prove_mex(LASKERS_NIM, [0, 1, 2, 4, 3], 4, 1, 3); a.proved, a.first_bad, a.failed
    (False, 5, ['q_a'])
    """
    try:
        commands = mex_commands(rules, base, period, preperiod, saltus)
    except ValueError as exc:
        return MexAnswer(None, str(exc))
    return decide(commands, list(QUERIES), profile)


def decide(commands: list[str], queries: list[str], profile: str = "default") -> MexAnswer:
    """Run certificate commands in Walnut within the profile's state counts: every query in `queries` TRUE
    is a proof; the least n of ``cex`` is where it fails (:class:`MexAnswer`).

    >>> decide(['def fG "v = n";', 'eval q_total "An Ev $fG(n,v)";', 'eval cex "n < 0";'], ["q_total"]).proved  # runs Walnut
    True
    """
    try:
        java, jar = find_java(), find_jar()
    except WalnutMissing as exc:
        return MexAnswer(None, f"not run: {exc}")
    largest, work = state_limit(profile), work_limit(profile, 1)
    res = run(library(commands) + commands, timeout=WALNUT_SECONDS, max_states=largest, java=java, jar=jar,
              max_total=work)
    why = res.failure(largest, WALNUT_SECONDS, work)
    answer = MexAnswer(None, why or "", states=res.max_states_seen, total_states=res.total_states,
                       seconds=res.seconds)
    if why is not None:
        return answer
    if any(q not in res.verdicts for q in queries):
        answer.why = "Walnut gave no answer to " + ", ".join(q for q in queries if q not in res.verdicts)
        return answer
    answer.failed = [q for q in queries if not res.verdicts[q]]
    answer.proved = not answer.failed
    if answer.failed and "cex" in res.automata:
        try:
            least = smallest_accepted(res.automata["cex"])
        except SearchLimit:
            least = None
        answer.first_bad = None if least is None else least[0]
    return answer


def mex_proof(rules: HeapRules, period: int, preperiod: int, saltus: int,
              speaks: Callable[[int], bool] | None = None, profile: str = "default") -> PeriodicityProof | str:
    """Prove or refute "g(n + period) = g(n) + saltus for every n >= preperiod" for the heap game `rules` by the
    mex certificate (module docstring): a proof record (``holds``, or refuted at the least n the engine
    confirms, where the claim `speaks`), or the reason Walnut gave no answer.

    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> mex_proof(LASKERS_NIM, 4, 1, 4).holds  # runs Walnut
    True
    >>> r = mex_proof(LASKERS_NIM, 4, 0, 4); r.holds, r.counterexample, r.counter_values
    (False, 0, (3, 0))
    """
    check_pattern(period, preperiod)
    if type(saltus) is not int or saltus < 0:
        return f"the saltus must be an integer >= 0 for this theorem, got {saltus!r}"
    base = heap_sequence(rules, preperiod + period - 1)
    theorem = theorem_text(rules, period, preperiod, saltus)
    answer = prove_mex(rules, base, period, preperiod, saltus, profile)
    counts = (f"Walnut: largest automaton {answer.states:,} states, {answer.total_states:,} states in all")
    if answer.proved:
        reach = audit_reach(rules)
        confirm_with_engine(rules, period, preperiod, saltus, reach)
        return PeriodicityProof(theorem, period, preperiod, (0, preperiod + period), True, saltus=saltus,
                                decided=counts + f"; the engine agrees on every n < {preperiod + period + reach}")
    if answer.proved is None:
        return answer.why
    # Walnut says no: the least failure of the mex rule at m is the least m = n + p with g(n + p) != g(n) + s;
    # the engine confirms it (and finds the least failure where the claim speaks, a little further if need be)
    reach = (answer.first_bad if answer.first_bad is not None else preperiod + period) + 4 * period + SEARCH_EXTRA
    return record_failure(theorem, heap_sequence(rules, reach), period, preperiod, saltus, speaks)


def formula_commands(ns: Namespace, rules: HeapRules, statement: ast.expr, coord: str, domain: ast.expr | None,
                     outside: dict[int, int]) -> tuple[list[str], list[str], dict[str, str]]:
    """The certificate of a grundy claim "g(n) = F(n) for n in the domain" about the heap game `rules`: f is F
    where the domain holds and the engine's value at each heap size in `outside` (every heap size outside the
    domain: below its least bound ``top``, which the query ``q_domain`` proves: every n >= top is in the
    domain). Returns the commands, the queries to be TRUE and, for each obligation of the translation (a
    difference never negative where it is evaluated...), what it guards. :class:`NotAutomatic` when F or the
    domain is outside what Walnut decides.

    >>> from nimjos.spec.names import spec_namespace
    >>> from nimjos.games.heaps.rules import LASKERS_NIM
    >>> from nimjos.lang.syntax import parse
    >>> cmds, queries, why = formula_commands(spec_namespace(), LASKERS_NIM, parse("n"), "n", parse("1 <= n"), {0: 0})
    >>> cmds[0], queries[-1]
    ('def fG "(((1) <= (n)) & (v = n)) | (n = 0 & v = 0)";', 'q_domain')
    """
    tr = Translator(ns, {})
    dunit = Unit(params=["n"])
    dm = tr.formula(copy_tree(domain), {coord: "n"}, dunit) if domain is not None else "n = n"
    unit = Unit(params=["n", "v"], path=[dm])
    acc: list = []
    g = tr.term(copy_tree(statement), {coord: "n"}, unit, acc)
    if isinstance(g, Exp):
        raise NotAutomatic("a Grundy value carried as a power of two")
    body = tr.close(acc, f"v = {g}")
    f_def = f"(({dm}) & ({body}))" + "".join(f" | (n = {c} & v = {val})" for c, val in sorted(outside.items()))
    commands = certificate_commands(rules, f_def)
    top = max(outside, default=-1) + 1
    commands.insert(-1, f'eval q_domain "An n >= {top} => ({dm})";')
    why = {}
    for i, (formula, reason) in enumerate(dunit.obligations + unit.obligations):
        commands.insert(-1, f'eval ob{i} "{formula}";')
        why[f"ob{i}"] = reason
    return commands, [*QUERIES, "q_domain", *why], why
