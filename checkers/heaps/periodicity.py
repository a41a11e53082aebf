"""Periodicity proved for every heap size: the verification method ``periodicity``.

A ``periodic`` claim (``periodic = { period = p, preperiod = n0 }``) about a heap game with a finite code
(``octal("0.77")``, a take-and-break game) or a subtraction game with a finite set is decided for every
n >= n0 by a theorem that needs only a finite computation (:mod:`nimjos.games.heaps.periodicity`: Guy-Smith;
the repeating state of a finite subtraction game) or by a decision procedure (:mod:`checkers.heaps.mex`: the mex
certificate of an arithmetic-periodic claim ``periodic = { period = p, preperiod = n0, saltus = s }``,
g(n + p) = g(n) + s, or of a code with a tail digit such as Lasker's Nim, decided by Walnut): the verdict is ``proved`` (the scope names the theorem and
the range computed) or ``refuted`` at the least n >= n0 with g(n + p) != g(n) where the claim speaks (n and
n + p in its domain and assumption). The theorem is applied to the window's values of the other names (a
parameter k of the game): when the domain allows more values than those, the verdict is ``proved-bounded`` and
says which were proved ("for k = 1, 2 only (domain k >= 1 and n >= 0)"). Any other claim or game (a
subtraction game with a saltus), or a theorem whose premise fails only where the claim says nothing: the
method leaves it out (a :class:`nimjos.verdict.LeftOut`, with the reason: no verdict is listed); Walnut without an answer (its state counts): ``inconclusive`` with the reason.

The ``sample`` method of a periodic claim is :func:`periodic_sample`: g(n + p) = g(n) + s at heap sizes n drawn
beyond the window within the domain (powers of two and their neighbours, multiples of the period, uniform
sizes), each value from the game's engine; the ``prove`` method does not apply to a periodic claim (the
periodicity method is its proof): :func:`periodic_prove` says so.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
>>> periodic_verdict(spec.claim("kayles-period-12"), RunOptions()).verdict
'proved'
"""
from __future__ import annotations

import dataclasses
import random
import time
from typing import Any, Callable

from checkers.context import SolverContext
from checkers.heaps.mex import MexDisagreement, audit_reach, decide, formula_commands, formula_theorem, mex_proof
from checkers.prove.walnut.logic import NotAutomatic
from checkers.options import RunOptions
from checkers.prove.bounded import covers
from checkers.prove.domain import ProofDomain
from checkers.prove.scope import instances_text
from checkers.sample.driver import db_key
from checkers.sample.edge import edge_check, parameter_bindings
from checkers.sample.evaluate import run_limited
from checkers.sample.method import MIN_BEYOND, SAFETY_SECONDS
from nimjos.games.declared import PythonGame, as_instance
from nimjos.games.recognise import recognised_octal, recognised_subtraction, subtraction_text
from nimjos.games.engine import active_engine
from nimjos.games.heaps.game import HeapGame
from nimjos.games.heaps.rules import octal_rules, plain_moves
from nimjos.games.heaps.periodicity import (PeriodicityProof, guy_smith_range, heap_sequence, octal_proof,
                                           subtraction_proof)
from nimjos.lang.binders import Binder
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.syntax import copy_tree
from nimjos.spec.loader import Claim, claim_of
from nimjos.spec.plan import ClaimPlan, GrundyPlan, PeriodicPlan, WindowPlan
from nimjos.verdict import Counterexample, LeftOut, Phrase, ProvedClass, Verdict, phrases, render_scope
from nimjos.words import Note, NoteKind, PhraseKind

METHOD = "periodicity"
#: the engines a periodicity proof names (Verdict.engines)
ENGINES = ("periodicity",)
#: ... and a mex certificate of a grundy claim, decided by Walnut
ENGINES_WALNUT = ("periodicity", "Walnut")
#: heap sizes scanned for those outside a grundy claim's domain (Walnut proves the domain holds from the last on)
OUTSIDE_SCAN = 1_000
#: the most distinct parameter bindings of a window the method proves one by one
MAX_INSTANCES = 64
#: heap sizes drawn per parameter binding by the sampler, unless the spec's sample.count says otherwise
SAMPLE_COUNT = 100
#: how far beyond the window's largest n the sampler draws: FAR_FACTOR times it, at least FAR_MIN, at most FAR_MAX
#: (a heap game's sequence is computed up to the largest n drawn; the plain mex is quadratic)
FAR_FACTOR, FAR_MIN, FAR_MAX = 100, 10_000, 60_000
#: ... at most this far for a heap game whose moves take unboundedly many tokens (Lasker's Nim: each value is a mex
#: over every smaller heap and every split, so the sequence up to n costs about n^2 / 2 options)
FAR_UNBOUNDED = 20_000
#: moves the compiled kernels may list to confirm the mex certificate's least failure of a grundy claim (the
#: engine's sequence up to it: about 2 s of this machine for Lasker's Nim up to 25,000); codes whose moves leave
#: three heaps have SAMPLE_MOVES (the plain mex)
CONFIRM_MOVES = 400_000_000
#: moves the plain mex may list to compute a code's sequence up to the sampler's far bound, for a code whose moves
#: leave three heaps (hexadecimal codes: no compiled kernel, about n^3 / 36 moves up to n): a count, the same on a
#: quiet and a loaded machine (about 3 s of this machine's Python); the far bound comes down until it fits
SAMPLE_MOVES = 20_000_000


def _proof(inst: Any, period: Any, preperiod: Any, saltus: Any, speaks: Callable[[int], bool] | None,
           profile: str) -> PeriodicityProof | str | None:
    """The theorem's record for one game: Guy-Smith for a finite code and saltus 0, the mex certificate in Walnut
    for a saltus or a code with a tail digit (Lasker's Nim), the repeating state of a finite subtraction set; a
    string is why the theorem gave no answer, None that none applies (a finite code with unequal parts, Grundy's
    game, without a saltus: the window and the sampler judge it)."""
    if isinstance(inst, HeapGame):
        plain = saltus == 0 and type(saltus) is int
        if plain and guy_smith_range(inst.rules, period, preperiod) is not None:
            return octal_proof(inst.rules, period, preperiod, speaks=speaks)
        if plain and inst.rules.max_take is not None:
            return None
        return mex_proof(inst.rules, period, preperiod, saltus, speaks, profile)
    if isinstance(inst, PythonGame) and inst.name == "subtraction" and saltus == 0 and type(saltus) is int:
        return subtraction_proof(inst.params.get("S"), period, preperiod, speaks)
    recognised = recognised_subtraction(inst) if saltus == 0 and type(saltus) is int else None
    if recognised is not None:   # a declared game whose moves are those of a finite subtraction set
        proof = subtraction_proof(recognised, period, preperiod, speaks)
        return proof and dataclasses.replace(proof, theorem=f"its moves read as {subtraction_text(recognised)}, "
                                                            f"{proof.theorem}")
    code = recognised_octal(inst) if saltus == 0 and type(saltus) is int else None
    if code is not None:   # ... or those of a take-and-break game on one heap (an octal code of digits 0 to 3)
        proof = octal_proof(octal_rules(code), period, preperiod, speaks=speaks)
        return proof and dataclasses.replace(proof, theorem=f'its moves read as octal("{code}"), {proof.theorem}')
    return None


def _binding_text(binding: dict) -> str:
    """' for k = 2, c = 3' (empty for no parameters).

    >>> _binding_text({"k": 2}), _binding_text({})
    (' for k = 2', '')
    """
    return (" for " + ", ".join(f"{k} = {v!r}" for k, v in binding.items())) if binding else ""


def speaks_at(plan: ClaimPlan, env: dict, coord: str, period: int) -> Callable[[int], bool]:
    """Whether the periodic claim states anything at heap size n for the other names' values `env`: n and n + p
    both in the claim's domain and its assumption (the window's reading: G(n + p) = G(n) + s for n >= n0 with n and
    n + p in the window). A claim is judged only where it speaks: a statement about n <= 90 is not refuted at 96.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> speaks = speaks_at(spec.claim("kayles-period-12").plan(), {}, "n", 12)
    >>> speaks(5), speaks(-1)
    (True, False)
    """
    def inside(n: int) -> bool:
        point = {**env, coord: n}
        if plan.domain is not None and not plan.domain.contains(point):
            return False
        try:
            return plan.assume is None or bool(plan.assume(point))
        except EvalError:
            return False   # an assumption that cannot be evaluated there: nothing is judged there
    return lambda n: inside(n) and inside(n + period)


def _parameter_bindings(plan: PeriodicPlan) -> dict[tuple, dict] | None:
    """The window's distinct bindings of the names besides the heap (one env each, with the largest heap size
    of that binding as ``top``); None over :data:`MAX_INSTANCES`."""
    coord = plan.coords[0]
    params = [n for n in plan.window.names if n != coord]
    seen: dict[tuple, dict] = {}
    for env in plan.window.bindings({}):
        key = tuple(env[n] for n in params)
        if key not in seen:
            seen[key] = {n: env[n] for n in params}  # the binder reuses its dict
            seen[key]["top"] = env[coord]
            if len(seen) > MAX_INSTANCES:
                return None
        seen[key]["top"] = max(seen[key]["top"], env[coord])
    return seen


def proved_class(plan: WindowPlan, params: list[str], bindings: list[dict]) -> str | None:
    """None when the parameter values proved (`bindings`, the window's) are every value the claim's domain
    allows (under its assumption), else the class proved, as a scope's words: "for k = 1, 2 only (domain k >= 1
    and n >= 0)". The question is asked of Z3 (:func:`checkers.prove.bounded.covers`); a parameter whose values
    are not integers, or a domain Z3 cannot read, counts as not covered.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> c = spec.claim("kayles-period-12"); proved_class(c.plan(), [], [{}]) is None
    True
    """
    if not params or plan.domain is None or not plan.domain.text:
        return None
    instances = [{n: b[n] for n in params} for b in bindings]
    if _domain_values(plan, params) == {tuple(repr(i[n]) for n in params) for i in instances}:
        return None
    if all(type(v) is int for i in instances for v in i.values()):
        dom = ProofDomain(plan.window, enumerated=list(params), symbolic=[plan.coords[0]])
        # one question in a Z3 context of its own: nothing made for another claim or question reaches it
        if covers(plan, dom, "int", None, instances, SolverContext().ctx):
            return None
    return f"for {instances_text(list(params), instances)} only ({plan.domain.describe()})"


def _domain_values(plan: WindowPlan, params: list[str]) -> set | None:
    """The values of the parameters the domain allows, when its binder lists them first, each finite and free of
    the heap size (``c in {"0.77", "0.07"}``, ``2 <= k <= 4``); None otherwise (or over MAX_INSTANCES)."""
    claim = claim_of(plan)
    try:
        if plan.domain.tree is None:
            return None   # no condition: no values listed
        binder = Binder(copy_tree(plan.domain.tree), claim.spec.namespace, allow_unbounded=True, text=plan.domain.text)
        levels = binder.levels[:len(params)]
        if sorted(lv.name for lv in levels) != sorted(params) or any(lv.unbounded for lv in levels):
            return None
        out = set()
        for env in binder.bindings({}, depth=len(params)):
            out.add(tuple(repr(env[n]) for n in params))
            if len(out) > MAX_INSTANCES:
                return None
        return out
    except (EvalError, SpecError, KeyError, TypeError):
        return None


def periodic_applies(plan: ClaimPlan) -> bool:
    """Do this module's methods apply to the planned claim: a periodic claim about a game, on one coordinate (the
    dispatcher, checkers.run, asks before it routes a claim here)?

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> periodic_applies(spec.claim("kayles-period-12").plan()), periodic_applies(spec.claim("bouton").plan())
    (True, False)
    """
    return isinstance(plan, PeriodicPlan) and plan.game is not None and len(plan.coords) == 1


def _applies(claim: Claim, opts: RunOptions) -> PeriodicPlan | None:
    plan = claim.plan(opts.profile)
    return plan if isinstance(plan, PeriodicPlan) and periodic_applies(plan) else None


#: why the periodicity method lists no verdict for a claim it was not made for
NOT_PERIODIC = "not a periodic claim on one heap coordinate of a game, nor a grundy claim about a one-heap heap game"


def heap_grundy_verdict(claim: Claim, opts: RunOptions) -> Verdict | LeftOut:
    """``proved`` / ``refuted`` / ``inconclusive`` for a grundy claim g(n) = F(n) about a one-heap heap game (a
    code, Lasker's Nim) by the mex certificate in Walnut (:func:`checkers.heaps.mex.formula_commands`): f is F on
    the domain and the engine's value at the heap sizes outside it (finitely many: Walnut proves that every n from
    the last of them on is in the domain). Left out (:class:`LeftOut`, with the reason) for any other claim
    (parameters, an assumption, another game).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> heap_grundy_verdict(spec.claim("laskers-nim"), RunOptions()).verdict  # runs Walnut
    'proved'
    """
    plan = claim.plan(opts.profile)

    def left_out(why: str) -> LeftOut:
        return LeftOut(METHOD, f"the mex certificate {why}")

    if not isinstance(plan, GrundyPlan) or claim.assume_text or not isinstance(claim.statement, str):
        return left_out("reads a grundy claim with no assumption")
    if len(plan.coords) != 1 or plan.domain is None or plan.window is None:
        return left_out("reads a claim on one coordinate with a domain")
    coord = plan.coords[0]
    if set(plan.window.names) != {coord}:
        return left_out("reads a claim with no parameters")
    try:
        inst = as_instance(plan.game({}))
    except EvalError:
        return left_out("needs the game, which cannot be evaluated")
    if not isinstance(inst, HeapGame):
        return left_out("reads a one-heap heap game (a code, Lasker's Nim)")
    first = next(iter(plan.window.bindings({})), None)
    if first is None or type(first.get(coord)) is not int:
        # a position of several heaps (a tuple): the heap reduction's claim, not this one
        return left_out("reads a position of one heap")
    started = time.perf_counter()

    def stop(why: str, states: int | None = None) -> Verdict:
        return Verdict(claim.id, "inconclusive", METHOD, phrases((PhraseKind.REASON, f"mex certificate: {why}")),
                       seconds=time.perf_counter() - started, engines=ENGINES_WALNUT, automaton_states=states)

    try:
        outside_sizes = [n for n in range(OUTSIDE_SCAN) if not plan.domain.contains({coord: n})]
    except EvalError:
        return left_out("needs a domain that reads a heap size as a number")
    if len(outside_sizes) == OUTSIDE_SCAN:
        return stop(f"no heap size below {OUTSIDE_SCAN:,} is in the domain")
    seq = heap_sequence(inst.rules, max(outside_sizes, default=0))
    try:
        commands, queries, why = formula_commands(claim.spec.namespace, inst.rules, plan.formula.tree, coord,
                                                  plan.domain.tree, {n: seq[n] for n in outside_sizes})
    except NotAutomatic as exc:
        return stop(f"not automatic in base 2: {exc}")
    except (EvalError, SpecError) as exc:   # a formula the translation cannot read: the other methods judge it
        return stop(f"not translated: {exc}")
    answer = decide(commands, queries, opts.profile)
    counts = (f"Walnut: largest automaton {answer.states:,} states, {answer.total_states:,} states in all")
    if answer.proved is None:
        return stop(answer.why)
    if any(q in why for q in answer.failed):
        return stop(f"not exact here: {why[next(q for q in answer.failed if q in why)]} (Walnut's numbers are "
                    f"the naturals)")
    if "q_domain" in answer.failed:
        return stop(f"the domain does not hold at every heap size from {max(outside_sizes, default=-1) + 1} on")
    theorem = formula_theorem(inst.rules)
    if answer.failed:
        n = answer.first_bad
        if n is None or not plan.domain.contains({coord: n}):
            return stop(f"Walnut: {', '.join(answer.failed)} false, and its least failure was not found ({counts})",
                        answer.states)
        limit = CONFIRM_MOVES if inst.rules.max_parts <= 2 else SAMPLE_MOVES
        if plain_moves(inst.rules, n) > limit:
            return stop(f"Walnut: the mex rule fails first at {coord} = {n} (so the formula is not g there), but "
                        f"the engine's sequence up to {n:,} would cost over {limit:,} moves, and the refutation is "
                        f"confirmed by the engine ({counts})", answer.states)
        truth, claimed = heap_sequence(inst.rules, n)[n], plan.formula({coord: n})
        if truth == claimed:
            raise MexDisagreement(f"claim {claim.id!r}: the certificate fails at {coord} = {n}, but the engine "
                                  f"agrees with the formula there ({truth}): a prover bug")
        scope = phrases((PhraseKind.ENGINE, formula_theorem(inst.rules, proved=False)),
                        Phrase(PhraseKind.FINDING, f"the least failure of the mex rule is the least {coord} with "
                                                   f"g({coord}) != f({coord})", ": "),
                        (PhraseKind.FINDING, f"the engine confirms g({n}) = {truth} != {claimed}"),
                        (PhraseKind.ENGINE, counts))
        return Verdict(claim.id, "refuted", METHOD, scope, instances=1, assumption_held=1,
                       counterexamples=[Counterexample({coord: n}, truth, claimed)], failures=1,
                       seconds=time.perf_counter() - started, engines=ENGINES_WALNUT, automaton_states=answer.states,
                       notes=[f"Walnut: the mex rule fails first at {coord} = {n}: g({n}) = {truth} != {claimed}"])
    # before it prints, the proof meets the engine at every heap size of the domain below the confirmation's reach
    reach = max(outside_sizes, default=0) + audit_reach(inst.rules)
    seq = heap_sequence(inst.rules, reach)
    for n in range(reach + 1):
        if plan.domain.contains({coord: n}) and plan.formula({coord: n}) != seq[n]:
            raise MexDisagreement(f"claim {claim.id!r}: Walnut proved the mex certificate, but at {coord} = {n} "
                                  f"the engine has g = {seq[n]}, the formula {plan.formula({coord: n})}: a prover bug")
    return Verdict(claim.id, "proved", METHOD, phrases((PhraseKind.CLASS, f"every {coord} of the domain "
                                                                          f"({plan.domain.describe()})"),
                                                       Phrase(PhraseKind.ENGINE, theorem, ": ")),
                   instances=1, assumption_held=1, seconds=time.perf_counter() - started, engines=ENGINES_WALNUT,
                   automaton_states=answer.states, notes=[counts + f"; the engine agrees at every heap size of the domain up to {reach}"])


def periodic_verdict(claim: Claim, opts: RunOptions) -> Verdict | LeftOut:
    """``proved`` / ``proved-bounded`` / ``refuted`` for a periodic claim a periodicity theorem decides; left out
    otherwise (:class:`LeftOut`, with the reason). The statement is read where it speaks (:func:`speaks_at`): a refutation is the least n >= n0 of the
    theorem's range with n and n + p in the domain and the assumption (when the theorem's premise fails only where
    the claim says nothing, the method does not decide); ``proved`` needs the window's parameter values to be all
    the domain's, else the verdict is ``proved-bounded`` with the values proved (:func:`proved_class`)."""
    if isinstance(claim.plan(opts.profile), GrundyPlan):
        return heap_grundy_verdict(claim, opts)
    started = time.perf_counter()
    plan = _applies(claim, opts)
    if plan is None:
        return LeftOut(METHOD, NOT_PERIODIC)
    coord = plan.coords[0]
    params = [n for n in plan.window.names if n != coord]
    seen = _parameter_bindings(plan)
    if seen is None:
        return LeftOut(METHOD, f"more than {MAX_INSTANCES} parameter bindings in the window")
    proofs = []
    for key, env in seen.items():
        binding = dict(zip(params, key))
        try:
            pat = {k: fn(dict(env)) for k, fn in plan.pattern.items()}
            speaks = speaks_at(plan, binding, coord, pat["period"]) if type(pat["period"]) is int else None
            proof = _proof(as_instance(plan.game(env)), pat["period"], pat.get("preperiod", 0), pat.get("saltus", 0),
                           speaks, opts.profile)
        except EvalError:
            return LeftOut(METHOD, "the pattern or the game cannot be evaluated at a parameter binding of the "
                                   "window (the window method reports it where it happens)")
        if proof is None:
            return LeftOut(METHOD, f"no periodicity theorem applies to {plan.game_text}{_binding_text(binding)}")
        if isinstance(proof, str):
            return Verdict(claim.id, "inconclusive", METHOD, phrases((PhraseKind.REASON, f"not decided: {proof}")),
                           seconds=time.perf_counter() - started,
                           engines=ENGINES, notes=[f"the mex certificate gave no answer{_binding_text(binding)}: {proof}"])
        proofs.append((binding, proof))
    seconds = time.perf_counter() - started
    # (binding, proof, n, (g(n + p), g(n))) of each proof refuted at n
    failed = [(b, p, p.counterexample, p.counter_values) for b, p in proofs
              if p.counterexample is not None and p.counter_values is not None]
    if failed:
        bindings, proof, n, (shifted, value) = min(failed, key=lambda f: f[2])
        plus = f" + {proof.saltus}" if proof.saltus else ""
        cx = Counterexample({**bindings, coord: n}, shifted, value + proof.saltus,
                            detail={"statement": f"G({n} + {proof.period}) = G({n}){plus}"})
        return Verdict(claim.id, "refuted", METHOD,
                       phrases((PhraseKind.ENGINE, proof.theorem),
                               (PhraseKind.FINDING, f"checked {proof.checked[0]} <= n < {proof.checked[1]}")),
                       instances=len(proofs), assumption_held=len(proofs),
                       counterexamples=[cx], failures=len(failed), seconds=seconds, engines=ENGINES,
                       notes=[f"refuted: g({n} + {proof.period}) = {shifted} != g({n}){plus} = {value + proof.saltus}"])
    if any(not p.holds for _, p in proofs):
        # the premise fails only where the claim says nothing: the theorem does not decide it
        return LeftOut(METHOD, "the theorem's premise fails where the claim says nothing: it does not decide it")
    each = {render_scope(ps): ps for ps in (
        phrases((PhraseKind.CLASS, f"every {coord} >= {p.preperiod}"), Phrase(PhraseKind.ENGINE, p.theorem, ": "),
                (PhraseKind.ENGINE, f"computed g(n + {p.period}) = g(n) for {p.checked[0]} <= n < {p.checked[1]}"))
        if not p.decided else
        phrases((PhraseKind.CLASS, f"every {coord} >= {p.preperiod}"),
                Phrase(PhraseKind.ENGINE, f"g(n + {p.period}) = g(n) + {p.saltus} by the {p.theorem}", ": "))
        for _, p in proofs)}
    bounded = proved_class(plan, params, [b for b, _ in proofs])
    scope = phrases((PhraseKind.CLASS, bounded or ""), *(each[text] for text in sorted(each)))
    v = Verdict(claim.id, "proved" if bounded is None else "proved-bounded", METHOD, scope, instances=len(proofs),
                assumption_held=len(proofs), seconds=seconds,
                largest=max(p.checked[1] + p.period for _, p in proofs),
                notes=[p.describe() for _, p in proofs][:4], engines=ENGINES)
    if bounded is not None:
        v.proved_class = ProvedClass(enumerated={n: tuple(dict.fromkeys(b[n] for b, _ in proofs)) for n in params})
    return v


def _draws(rng: random.Random, lo: int, hi: int, period: int, count: int) -> list[int]:
    """`count` heap sizes in [lo, hi] (fewer when the range is small): powers of two and their neighbours,
    multiples of the period and their neighbours, and uniform sizes, in equal parts; sorted, each once.

    >>> d = _draws(random.Random(1), 100, 200, 12, 6); len(d), 128 in d, all(100 <= n <= 200 for n in d)
    (6, True, True)
    >>> len(_draws(random.Random(1), 61, 124, 2, 100))   # a short range: every size once, and the draws end
    64
    """
    if hi < lo:
        return []
    special = sorted({v for e in range(hi.bit_length() + 1) for v in (2 ** e - 1, 2 ** e, 2 ** e + 1)
                      if lo <= v <= hi})
    multiples = [m + d for m in range((lo // period + 1) * period, hi + 1, period) for d in (-1, 0, 1)
                 if lo <= m + d <= hi]
    out: set[int] = set(special[-max(1, count // 3):])
    tries = 0   # a count of draws: in a short range the multiples repeat the special values, and the set stops growing
    while multiples and len(out) < 2 * count // 3 and len(out) < len(special) + len(multiples) and tries < 10 * count:
        out.add(multiples[rng.randrange(len(multiples))])
        tries += 1
    tries = 0
    while len(out) < count and tries < 10 * count:
        out.add(rng.randint(lo, hi))
        tries += 1
    return sorted(out)


def periodic_sample(claim: Claim, opts: RunOptions) -> Verdict:
    """The ``sample`` method of a periodic claim: the window's check just past its edge and at far parameter values
    (:func:`checkers.sample.edge.edge_check`), then g(n + p) = g(n) + s at heap sizes n drawn beyond the window (in
    the claim's domain, n >= n0), for the window's parameter values and values beyond it
    (:func:`checkers.sample.edge.parameter_bindings`), each value from the game's engine; not applicable to other
    claims (:func:`periodic_applies`; the dispatcher, checkers.run, routes only those here, and reads the claim's
    ``sample.skip`` before it does).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> v = periodic_sample(spec.claim("kayles-period-12"), RunOptions()); v.verdict, v.beyond >= 20
    ('sampled', True)
    """
    plan = _applies(claim, opts)
    if plan is None:
        return Verdict.not_applicable(claim.id, "sample", NOT_PERIODIC)
    started = time.perf_counter()
    coord = plan.coords[0]
    seen = _parameter_bindings(plan)
    if seen is None:
        return Verdict.not_applicable(claim.id, "sample", f"more than {MAX_INSTANCES} parameter bindings in the window")
    seed = int.from_bytes(db_key(claim, opts.profile)[:4], "big")   # the sampler's seed
    # one step past the window, and the parameters beyond it (checkers.sample.edge): with the window's check first,
    # then heap sizes drawn far for them too
    edge = edge_check(plan, seed)
    if edge.failed:
        return edge.verdict(claim, opts.profile, time.perf_counter() - started)
    tops = [env["top"] for env in seen.values()]
    window_params = [{n: v for n, v in env.items() if n != "top"} for env in seen.values()]
    extra = parameter_bindings(plan, seed, window_params, MAX_INSTANCES)
    for env in extra:
        seen.setdefault(("beyond", *sorted(env.items())), {**env, "top": max(tops, default=-1)})
    count = int(claim.sample.count or SAMPLE_COUNT)
    safety = float(claim.sample.seconds or opts.sampling.seconds or SAFETY_SECONDS)
    rng = random.Random(seed)
    held = beyond = largest = 0
    failures: list[Counterexample] = []
    notes: list[str] = []
    engine = active_engine()

    def one_binding(env: dict) -> None:
        nonlocal held, beyond, largest
        top = env.pop("top")
        try:
            pat = {k: fn(dict(env)) for k, fn in plan.pattern.items()}
            inst = as_instance(plan.game(dict(env)))
        except (EvalError, SpecError) as exc:   # only beyond the window (the window's check evaluated its own)
            notes.append(f"not sampled at {', '.join(f'{k}={v}' for k, v in env.items())}: {exc}")
            return
        p, n0, s = pat["period"], pat.get("preperiod", 0), pat.get("saltus", 0)
        if type(p) is not int or p < 1:
            return  # the window method reports it
        unbounded = isinstance(inst, HeapGame) and inst.rules.max_take is None
        far = min(FAR_UNBOUNDED if unbounded else FAR_MAX, max(FAR_MIN, FAR_FACTOR * top))
        cut = far_by_moves(inst, far, p)
        if cut < far:
            notes.append(f"heap sizes drawn up to {cut:,}, not {far:,}: {inst.label}'s moves leave three heaps, "
                         f"and its sequence beyond that would cost over {SAMPLE_MOVES:,} moves of the plain mex")
            far = cut
        speaks = speaks_at(plan, env, coord, p)
        drawn = [n for n in _draws(rng, max(top + 1, n0), far, p, count) if speaks(n)]
        engine.solve(inst, [inst.normalise(n) for n in drawn] + [inst.normalise(n + p) for n in drawn])
        for n in drawn:
            a, b = inst.lookup(inst.normalise(n + p)), inst.lookup(inst.normalise(n)) + s
            if a != b:
                failures.append(Counterexample({**env, coord: n}, a, b,
                                               detail={"statement": f"G({n} + {p}) = G({n}) + {s}"}))
            else:
                held += 1
                beyond += 1
                largest = max(largest, n + p)

    def every_binding() -> None:
        for env in seen.values():
            one_binding(env)

    # the safety net stops the work where it is done (the engine's mex included): the alarm interrupts it
    _, late = run_limited(every_binding, safety)
    if late:
        notes.insert(0, Note(NoteKind.SAFETY_NET, f"the safety net ({safety:g} s of CPU time) stopped the sampler (the "
                                                  "verdict would depend on the machine's speed)"))
    seconds = time.perf_counter() - started
    shown = ", ".join(", ".join(f"{k}={v:,}" for k, v in env.items()) for env in extra[:6])
    scope = phrases((PhraseKind.DRAWS, f"g(n + p) = g(n) + s at {held + len(failures):,} heap sizes n drawn beyond the "
                                       "window (powers of two, multiples of the period, their neighbours, uniform), "
                                       "values from the engine"),
                    (PhraseKind.DRAWS, f"largest n + p {largest:,}"),
                    (PhraseKind.DRAWS, f"for the window's parameter values and {len(extra)} beyond it "
                                       f"({shown}{', ...' if len(extra) > 6 else ''})" if extra else ""),
                    (PhraseKind.DRAWS, edge.describe() if edge.moves else ""),
                    (PhraseKind.CLASS, plan.domain.describe() if plan.domain is not None else ""))
    if failures:
        failures.sort(key=lambda cx: sum(v for v in cx.bindings.values() if type(v) is int))
        return Verdict(claim.id, "refuted", "sample", scope, instances=held + len(failures) + edge.evaluated,
                       assumption_held=held + len(failures) + edge.held, counterexamples=failures[:1],
                       failures=len(failures), seconds=seconds, beyond=beyond, largest=largest)
    word = "sampled" if beyond >= MIN_BEYOND and not late else "inconclusive"
    if word == "inconclusive" and not late:
        notes.insert(0, f"only {beyond} held instances beyond the window (at least {MIN_BEYOND} needed)")
    return Verdict(claim.id, word, "sample", scope, instances=held + edge.evaluated,
                   assumption_held=held + edge.held, seconds=seconds, beyond=beyond, largest=largest,
                   notes=notes + edge.notes)


def far_by_moves(inst: Any, far: int, period: int) -> int:
    """The far bound of the periodic sampler cut to what the plain mex computes within :data:`SAMPLE_MOVES`
    moves (a count): for a heap game whose moves leave three heaps, the largest n <= `far` whose sequence up to
    n + `period` (grown as :meth:`HeapGame.values` grows it: at least twice what it has) costs at most that;
    `far` itself for other games (their compiled kernels are bounded by the far bounds above).

    >>> from nimjos.games.functions import hexadecimal, octal
    >>> far_by_moves(octal("0.77"), 60_000, 12), 500 < far_by_moves(hexadecimal("0.f"), 60_000, 2) < 1500
    (60000, True)
    """
    if not isinstance(inst, HeapGame) or inst.rules.max_parts <= 2:
        return far
    have = len(inst.dense)

    def cost(n: int) -> int:
        return 0 if n < have else plain_moves(inst.rules, max(n, 2 * have))

    if cost(far + period) <= SAMPLE_MOVES:
        return far
    lo, hi = -1, far   # cost(lo + period) fits (lo = -1: nothing), cost(hi + period) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if cost(mid + period) <= SAMPLE_MOVES:
            lo = mid
        else:
            hi = mid
    return max(lo, 0)


def periodic_prove(claim: Claim, opts: RunOptions) -> Verdict:
    """The ``prove`` method of a periodic claim: it does not apply, and says where the proof is (the
    periodicity method).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> v = periodic_prove(spec.claim("kayles-period-12"), RunOptions()); v.applicable, v.scope[:45]
    (False, 'not applicable: a periodic claim is proved by')
    """
    if not isinstance(claim.plan(opts.profile), PeriodicPlan):
        return Verdict.not_applicable(claim.id, "prove", "not a periodic claim")
    return Verdict.not_applicable(claim.id, "prove", "a periodic claim is proved by the periodicity method (the "
                                  "Guy-Smith theorem for finite codes, the repeating state of a finite subtraction "
                                  "set, the mex certificate in Walnut for a saltus or a code with a tail digit), "
                                  "where a theorem applies")
