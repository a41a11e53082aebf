"""The audit of a proof: before ``proved`` or ``proved-bounded`` is printed, the claim is evaluated by the
expression language, with ground truth from the engines (the path of ``nimjos check --at``), at probe points of
its domain that the window did not cover.

A translation (Walnut, Z3, periodicity, the heap reduction) is trusted only as far as it agrees with the
language it translates. The probes are chosen where translations go wrong: the domain's edges and the values
just past them, negative values the domain allows, points the window's filters left out, powers of two and
their neighbours, points just beyond the window and random far points. Each probe lies inside the claim's
domain and outside its window; one where the assumption is false says nothing and is not counted.

A probe where the claim fails (or cannot be evaluated) is a concrete instance of the domain, evaluated
exactly: the audit's verdict is ``refuted`` (or ``ill-defined``) with it as the counterexample, and the proof
is a prover bug when the proof said ``proved`` (the whole domain), which the run reports loudly
(:data:`checkers.prove.soundness.PROVER_BUG`, a note naming the backend, exit status 3 from ``nimjos check``), and the proof's own verdict
becomes ``inconclusive``: what the other methods earned stands. A ``proved-bounded`` proof is probed only inside
the part of its class it records as data (the values of its enumerated names, a bit width); since that record
does not hold every bound of the class, a failure there refutes the claim with a note, not a bug report.

The probes are counted, not timed: at most :data:`PROBES` points (:data:`GAME_PROBES` when the engines give the
ground truth), each evaluated under the language's step
budget and the engines' position limits; a point over a limit is skipped.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> claim = spec.claims[0]
>>> points = probe_points(claim.plan("default"))
>>> all(p["x"] > 20 for p in points), len(points) == GAME_PROBES   # a grundy claim: the engines' probes
(True, True)
"""
from __future__ import annotations

import ast
import random
import zlib
from typing import Any

from nimjos.lang.analysis import size_names
from nimjos.lang.binders import conjuncts
from nimjos.lang.builtins import iter_items
from nimjos.lang.errors import EvalError, NimjosError, ResourceError, SpecError
from nimjos.lang.runtime import active_budget, step_limit
from nimjos.spec.budget import enforce_limits
from nimjos.spec.domain import heap_count
from nimjos.lang.values import format_value
from nimjos.spec.loader import Claim, claim_of
from nimjos.spec.plan import ClaimPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PPositionsPlan
from nimjos.verdict import Counterexample, Phrase, Verdict, phrases
from nimjos.words import PhraseKind
from checkers.window.exhaustive import check_exhaustive
from checkers.window.rerun import pinned_place, rerun_command
from checkers.sample.scale import uses_table
from checkers.prove.soundness import PROVER_BUG, backend, in_class, prover_bug  # noqa: F401  (PROVER_BUG re-exported)

METHOD = "audit"
#: at most this many probe points are evaluated per proof, drawn from at most ATTEMPTS candidates
PROBES, ATTEMPTS = 40, 4000
#: ... and at most this many for a claim whose ground truth comes from the engines (each probe is a position the
#: engines solve from the moves, with the box below it: about a second each on a 2-D game)
GAME_PROBES = 10
#: the steps (loop iterations, calls, options listed) one probe's evaluation may take, and all of them together:
#: counts, so that the audit is the same on a quiet and a loaded machine; a probe over them is skipped
PROBE_STEPS, AUDIT_STEPS = 200_000, 2_000_000
#: the claim kinds a single point can be judged for (the path of ``--at``)
KINDS: tuple[type[ClaimPlan], ...] = (HoldsPlan, GrundyPlan, PPositionsPlan, LevelSetPlan)
#: the largest coordinate a probe of a game claim takes, beyond the window's own values: positions are solved
#: by the engines from the moves, so a probe stays near the window
GAME_REACH = 40

_NEGATIVE = [-1, -2, -3, -5, -8, -16, -17, -(2 ** 31), -(2 ** 32) - 1, -(2 ** 35), -(2 ** 63) - 1, -(2 ** 64)]
_SMALL = list(range(0, 13))
_POWERS = sorted({v for k in (3, 4, 5, 6, 7, 8, 10, 16, 31, 32, 35, 63, 64, 70) for v in (2 ** k - 1, 2 ** k, 2 ** k + 1)})


def _int_values(values: list) -> list[int]:
    return [v for v in values if type(v) is int]


def _candidates(name: str, window_values: list, game: bool, rng: random.Random) -> list:
    """The values a probe may give one name: structured integers (for an integer name), or variations of the
    window's values (tuples of integers, other values as they are)."""
    ints = _int_values(window_values)
    if window_values and not ints:
        tuples = [v for v in window_values if isinstance(v, tuple) and all(type(x) is int for x in v)]
        if not tuples:
            return list(window_values)
        sizes = sorted({len(t) for t in tuples})
        top = max((x for t in tuples for x in t), default=0)
        entries = [*_SMALL, top + 1, top + 2, *(v for v in _POWERS if v <= max(top + 2, GAME_REACH))]
        out = []
        for _ in range(200):
            n = rng.choice([*sizes, sizes[-1] + 1, sizes[-1] + 2])
            out.append(tuple(sorted(rng.choice(entries) for _ in range(n))))
        return out
    lo, hi = (min(ints), max(ints)) if ints else (0, 0)
    near = [hi + 1, hi + 2, hi + 3, lo - 1, lo - 2, *_NEGATIVE[:6], *_SMALL]
    if game:
        reach = max(hi + 2, GAME_REACH) if hi < GAME_REACH else 2 * hi + 2
        far = [v for v in _POWERS if -reach <= v <= reach]
        far += [rng.randint(hi + 1, max(hi + 1, reach)) for _ in range(8)]
        return near + far
    far = [*_POWERS, *_NEGATIVE, *(rng.randint(-10 ** 18, 10 ** 18) for _ in range(4)),
           *(rng.randint(hi + 1, hi + 1000) for _ in range(6)), *(rng.randint(0, 10 ** 30) for _ in range(2))]
    return near + far


def _window_values(plan: ClaimPlan, limit: int = 400) -> dict[str, list]:
    """Values each name takes in the first bindings of the window (the window's shape: integers, tuples...)."""
    window = plan.window
    assert window is not None, "probe_points asks only for a claim with a window"
    seen: dict[str, list] = {n: [] for n in window.names}
    try:
        for i, env in enumerate(window.bindings({})):
            if i >= limit:
                break
            for n in seen:
                v = env.get(n)
                if v is not None and v not in seen[n]:
                    seen[n].append(v)
    except (NimjosError, TypeError):
        pass
    return seen


def _heap_counts(plan: ClaimPlan) -> dict[str, str]:
    """The names that count heaps in the window (``h in multisets(n, 0, 15)``), each with its tuple's name.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "examples" / "heap_games.toml")
    >>> [_heap_counts(c.plan()) for c in spec.claims if _heap_counts(c.plan())][0]
    {'n': 'h'}
    """
    out = {}
    for part in conjuncts(plan.window.tree) if plan.window is not None and plan.window_text else []:
        count = heap_count(part)
        if isinstance(count, ast.Name):
            assert isinstance(part, ast.Compare) and isinstance(part.left, ast.Name), "heap_count: h in multisets(...)"
            out[count.id] = part.left.id
    return out


def _assumed(plan: ClaimPlan, env: dict) -> bool:
    if plan.assume is None:
        return True
    try:
        return bool(plan.assume(env))
    except ResourceError:
        return False  # too large to evaluate there: not a probe
    except (NimjosError, ArithmeticError, TypeError):
        return True   # the check itself says what an assumption that cannot be evaluated means


def probe_points(plan: ClaimPlan) -> list[dict]:
    """The probe points of a claim's audit: inside its domain, under its assumption, outside its window, the
    same in every run (seeded by the claim's id). Empty when the claim's kind is not judged at one point or the
    domain has no point beyond the window among the candidates."""
    claim = claim_of(plan)
    if not isinstance(plan, KINDS) or plan.window is None or plan.domain is None:
        return []
    rng = random.Random(zlib.crc32(claim.id.encode()))
    names = list(plan.window.names)
    values = _window_values(plan)
    game = not isinstance(plan, HoldsPlan) or bool(claim.game_text) or uses_table(plan)
    cands = {n: _candidates(n, values[n], game, rng) for n in names}
    if game:
        # an exponent (2 ** n) of a claim the engines judge: n just past the window, as a table grows with 2 ** n
        # (the domain's tree too: a point fixed by the others, p in {Pt(n, c, i)}, grows with 2 ** n there)
        trees = plan.expression_trees() + [t for t in ((plan.game.tree if plan.game is not None else None),
                                                       plan.domain.tree) if t is not None]
        for n in size_names(trees, plan.namespace) & set(names):
            ints = _int_values(values[n])
            cands[n] = [max(ints) + 1, max(ints) + 2, min(ints) - 1] if ints else cands[n]
    counts = _heap_counts(plan)
    binder = plan.domain.binder(claim.spec.namespace)
    fixed = [level for level in binder.levels if level.members is not None] if binder is not None else []
    points: list[dict] = []
    seen: set = set()
    for attempt in range(ATTEMPTS):
        if len(points) >= PROBES:
            break
        # one name at a time moves off the window's values, then any number of them
        env = {n: rng.choice(values[n]) if values[n] and rng.random() < 0.5 else rng.choice(cands[n])
               for n in names}
        for count, heaps in counts.items():   # a count of heaps is the length of its tuple, as in the window
            if isinstance(env.get(heaps), tuple):
                env[count] = len(env[heaps])
        _fix_singletons(fixed, env)
        key = tuple(repr(env[n]) for n in names)
        if key in seen:
            continue
        seen.add(key)
        try:
            if not plan.domain.contains(env) or pinned_place(plan, env) != "domain":
                continue
        except (NimjosError, ArithmeticError, TypeError):
            continue
        if _assumed(plan, env):
            points.append(env)
    points.sort(key=_nearest)
    if game and len(points) > GAME_PROBES:
        # the nearest half, and the rest spread over the farther ones
        near, far = points[:GAME_PROBES // 2], points[GAME_PROBES // 2:]
        step = len(far) / (GAME_PROBES - len(near))
        points = near + [far[int(i * step)] for i in range(GAME_PROBES - len(near))]
    return points


def _fix_singletons(levels: list, env: dict) -> None:
    """A name the domain fixes by a one-member set of the other names (``p in {Pt(n, c, i)}``) takes that member's
    value, so that a probe of the other names is a point of the domain (a value drawn at random for it would
    almost never be); a set that cannot be evaluated there, or has another size, leaves the drawn value.

    >>> from nimjos.lang.binders import Level
    >>> env = {"n": 3, "p": (0, 0)}
    >>> _fix_singletons([Level("p", members=lambda e: {(e["n"], 2 * e["n"])})], env); env
    {'n': 3, 'p': (3, 6)}
    """
    for level in levels:
        try:
            members = list(iter_items(level.members(env)))
        except (NimjosError, ArithmeticError, TypeError, KeyError):
            continue
        if len(members) == 1:
            env[level.name] = members[0]


def _nearest(env: dict) -> tuple:
    """Probes nearest the origin first (least sum of magnitudes), so the first failure is a small one.

    >>> sorted([{"x": -2 ** 64}, {"x": 3}, {"x": -1}], key=_nearest)
    [{'x': -1}, {'x': 3}, {'x': -18446744073709551616}]
    """
    ints = [abs(v) for v in env.values() if type(v) is int]
    return (sum(ints), Counterexample(env).key())


def audit_proof(claim: Claim, proof: Verdict, profile: str = "default") -> Verdict | None:
    """Evaluate `claim` at its probe points (:func:`probe_points`) after `proof` said ``proved`` or
    ``proved-bounded``. Returns the audit's verdict: ``refuted`` / ``ill-defined`` at the smallest failing probe
    (the proof then becomes ``inconclusive`` with a note naming its backend, and its evidence holds
    :data:`checkers.prove.soundness.PROVER_BUG`), ``checked`` when every probe held, None when no probe applied.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> claim = spec.claims[0]
    >>> proof = Verdict(claim.id, "proved", "prove", "all x >= 0")
    >>> v = audit_proof(claim, proof); v.verdict, proof.verdict, v.instances
    ('checked', 'proved', 10)
    """
    if proof.verdict not in ("proved", "proved-bounded"):
        return None
    plan = claim.plan(profile)
    points = [p for p in probe_points(plan) if in_class(proof, p) is not False]
    if not points:
        return None
    held = evaluated = skipped = 0
    failing: list[Counterexample] = []
    undefined: list[Counterexample] = []
    budget = active_budget()
    start = budget.spent
    # every probe lies beyond the window, where the window check refuses a point when the whole window is over the
    # resource limits: that estimate is the same at every probe, so it is made once, and each later probe is
    # charged the steps it counted, as if it were made again (the audit's count of steps stays what it was)
    limits_steps: int | None = None
    for env in points:
        if budget.spent - start > AUDIT_STEPS:
            skipped += 1     # the audit's own budget is spent: the other probes are not evaluated
            continue
        try:
            with step_limit(PROBE_STEPS):
                if limits_steps is None:
                    before = budget.spent
                    enforce_limits(plan, None)
                    limits_steps = budget.spent - before
                else:
                    budget.spent += limits_steps
                v = check_exhaustive(claim, profile, max_counterexamples=1, pins=env, window_limits=False)
        except (ResourceError, SpecError, EvalError, RecursionError, MemoryError, OverflowError):
            skipped += 1
            continue
        if v.undefined and v.undefined[0].over_limit:
            skipped += 1    # too large for the machine there, not undefined mathematics
            continue
        evaluated += 1
        held += v.assumption_held or 0
        failing += v.counterexamples[:1]
        undefined += v.undefined[:1]
        if failing:
            break
    if not evaluated:
        return None
    where = f"{evaluated} probe point(s) of the domain beyond the window" + (f", {skipped} over a limit (skipped)"
                                                                         if skipped else "")
    if not failing and not undefined:
        return Verdict(claim.id, "checked" if held else "vacuous", METHOD,
                       phrases((PhraseKind.CLASS, where), Phrase(PhraseKind.FINDING, "the claim held at each", ": ")),
                       instances=evaluated, assumption_held=held)
    first = sorted(failing or undefined, key=Counterexample.key)[0]
    at = ", ".join(f"{k}={format_value(x)}" for k, x in first.bindings.items())
    word = "refuted" if failing else "ill-defined"
    audit = Verdict(claim.id, word, METHOD,
                    phrases((PhraseKind.CLASS, where),
                            Phrase(PhraseKind.FINDING, f"{'fails' if failing else 'undefined'} at {at}", ": ")),
                    instances=evaluated, assumption_held=held, counterexamples=failing[:1], failures=len(failing),
                    undefined=undefined[:1])
    audit.evidence["rerun"] = rerun_command(claim, profile, first.bindings)
    what = (f"{proof.method} ({backend(proof)}) said {proof.verdict}, but the claim "
            f"{'fails' if failing else 'cannot be evaluated'} at {at}, inside its domain (evaluated by the "
            f"expression language with ground truth from the engines)")
    if proof.verdict != "proved":
        # a bounded proof's class is recorded only in part (the values of its enumerated names, a bit width; not
        # the lower bounds it kept): the point may lie outside it, so this is a refutation, not a prover bug
        audit.notes.append(f"{what}; the proof covers only its class ({proof.scope[:200]}): the point lies outside "
                           "it, or the proof is wrong")
        return audit
    audit.notes.append(prover_bug(proof, what))
    return audit

