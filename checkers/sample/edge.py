"""One step past the window, and a claim's parameters beyond it: instances the sampler evaluates with the window's
own check (:data:`checkers.window.exhaustive.WINDOW_CHECKS`: ground truth from the game's moves, every failure exact)
before it draws far away.

A window stops at an edge (``n <= 60``, ``k <= 2``) that the domain does not have (``n >= 0``, ``k >= 1``). A claim
false just past that edge (``grundy_at_most = 8`` with G(9) = 9; "for every k >= 1, Subtraction({1, 2, 4k}) has
period 3", false at k = 3) is refuted here, at the smallest counterexample found, whatever the kind of claim and
however costly it is to evaluate far away. Each *extra window* is the window with one name moved:

* *the next values*: a name whose window has a constant upper edge H (a range ``k <= 2``, or a set of integers
  ``k in {1, 2}``) that the domain lets it pass takes the values H + 1 .. H + :data:`EDGE_STEPS`, the other names
  ranging as in the window (a coordinate of a ``periodic`` or ``stair`` claim runs from the window's lowest value
  to twice as far: those claims speak about the sequence as a whole);
* *far values of a parameter* (a name of a game claim that is not a coordinate of the position: the game's and the
  claim's parameters): powers of two above the window and values drawn at random up to :data:`FAR_PARAMETER`,
  spread over the magnitudes, each with the other names as in the window.

Every instance lies in the claim's domain (the others are left out, never judged): a domain bounded above is never
left. The work is limited by counts: at most :data:`EDGE_INSTANCES` instances per claim and
:data:`WINDOW_INSTANCES` per extra window (the first ones in the window's order), :data:`EDGE_STEPS_TOTAL` steps of
the expression language per claim (reaching it ends the extra windows, with a note: the failures found stand), and
every extra window must pass the window's own resource estimate (:func:`nimjos.spec.budget.estimate`) with at most
:data:`EDGE_POSITIONS` game positions; one over it is skipped, with a note. :data:`EDGE_SECONDS` of CPU time per
extra window is only a safety net. An instance too large to evaluate is
skipped; one where the statement is undefined is reported (``ill-defined``), as the window would. The extra
windows of the next values run first, then the far values from the smallest up, stopping at the first that
fails; the smallest counterexample found is the one reported.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> edge = edge_check(spec.claims[0].plan(), seed=1)
>>> edge.failed, edge.held, edge.describe()
(False, 3, 'just past the window: 3 instances held (x = 21..23)')
"""
from __future__ import annotations

import ast
import dataclasses
import random
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Iterator

from nimjos.lang.binders import Binder, Level
from nimjos.lang.builtins import iter_items
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.ir import Const, Type
from nimjos.lang.runtime import EvaluationBudget, active_budget, using_budget
from nimjos.lang.values import format_value
from nimjos.spec.budget import estimate
from nimjos.spec.plan import ClaimPlan, PatternPlan, handler_for
from nimjos.verdict import Counterexample, Verdict, phrases
from nimjos.words import PhraseKind
from checkers.window.collector import Collector
from checkers.window.exhaustive import WINDOW_CHECKS
from checkers.window.rerun import rerun_command
from checkers.sample.domain import FAR, build_domain
from checkers.sample.evaluate import run_limited

#: next values past the window's edge evaluated for each name (the least, H + 1, always)
EDGE_STEPS = 3
#: instances one claim's extra windows may evaluate in all (a count: the same on every machine)
EDGE_INSTANCES = 4_000
#: instances of one extra window at most (its first ones, in the window's order)
WINDOW_INSTANCES = 1_000
#: powers of two, and values drawn at random, per parameter beyond its next values
FAR_POWERS, FAR_RANDOM = 6, 3
#: the largest far value of a parameter (the sampler's far bound)
FAR_PARAMETER = FAR
#: steps of the expression language (loop iterations, calls) the extra windows of one claim may take in all (a
#: count, as the sampler's own search has; reaching it ends them, with a note)
EDGE_STEPS_TOTAL = 1_000_000
#: game positions the resource estimate of one extra window may reach (a count); one over it is skipped, with a note
EDGE_POSITIONS = 2_000_000
#: the safety net of one extra window, in seconds of the process's CPU time (the counts end it long before)
EDGE_SECONDS = 60.0
#: the name of the method whose verdicts this module writes
METHOD = "sample"


@dataclass(frozen=True)
class Move:
    """One extra window: the name moved past the window's edge, the range it takes there, and why."""

    name: str
    lo: int
    hi: int
    far: bool = False   # a far value of a parameter (else: the next values)

    def describe(self) -> str:
        """The values in words.

        >>> Move("k", 3, 5).describe(), Move("k", 16, 16, far=True).describe()
        ('k = 3..5', 'k = 16')
        """
        if self.lo == self.hi:
            return f"{self.name} = {format_value(self.lo)}"
        return f"{self.name} = {format_value(self.lo)}..{format_value(self.hi)}"


@dataclass
class EdgeResult:
    """What the extra windows found: instances evaluated and held, the smallest failures, and what was skipped."""

    evaluated: int = 0       # instances of the extra windows inside the domain (the assumption false included)
    held: int = 0            # ... where the assumption held (failures included)
    failures: list = field(default_factory=list)
    undefined: list = field(default_factory=list)
    n_fail: int = 0
    n_undef: int = 0
    moves: list = field(default_factory=list)     # the extra windows evaluated (Move)
    notes: list = field(default_factory=list)
    late: bool = False        # the safety net stopped an extra window

    @property
    def failed(self) -> bool:
        return bool(self.failures or self.undefined)

    def describe(self) -> str:
        """What was evaluated, for a verdict's scope ('' when nothing was).

        >>> EdgeResult(evaluated=5, held=4, moves=[Move("n", 9, 11), Move("k", 8, 8, True)]).describe()
        'just past the window: 4 instances held (n = 9..11; far parameter values k = 8)'
        """
        if not self.moves:
            return ""
        near = [m.describe() for m in self.moves if not m.far]
        far: dict[str, list[str]] = {}
        for m in self.moves:
            if m.far:
                far.setdefault(m.name, []).append(_short(m.lo))
        parts = list(near)
        if far:
            parts.append("far parameter values " + "; ".join(f"{n} = {', '.join(v)}" for n, v in far.items()))
        held = self.held - self.n_fail - len(self.undefined)
        return f"just past the window: {max(held, 0):,} instances held ({'; '.join(parts)})"

    def verdict(self, claim: Any, profile: str, seconds: float = 0.0) -> Verdict:
        """The sampler's verdict of a failure found here: ``refuted`` at the smallest counterexample found (or
        ``ill-defined`` where the statement is undefined), each re-evaluated exactly by the window's check.

        >>> from nimjos.spec.loader import load_spec
        >>> import pathlib
        >>> claim = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0]
        >>> e = EdgeResult(evaluated=2, held=2, failures=[Counterexample({"x": 21}, 21, 0)], n_fail=1,
        ...                moves=[Move("x", 21, 23)])
        >>> v = e.verdict(claim, "default"); v.verdict, v.scope
        ('refuted', "refuted just past the window's edge (x = 21..23): failed at 1 of the 2 instances evaluated there")
        """
        word = "refuted" if self.failures else "ill-defined"
        where = "; ".join(m.describe() for m in self.moves)
        bad = self.n_fail if self.failures else max(self.n_undef, len(self.undefined))
        scope = (f"{word} just past the window's edge ({where}): {'failed' if self.failures else 'undefined'} at "
                 f"{bad:,} of the {self.held:,} instances evaluated there")
        v = Verdict(claim.id, word, METHOD, phrases((PhraseKind.FINDING, scope)), instances=self.evaluated, assumption_held=self.held,
                    counterexamples=self.failures[:1] if self.failures else [], failures=self.n_fail,
                    undefined=self.undefined[:1] if not self.failures else [], seconds=seconds,
                    beyond=self.held, notes=list(self.notes))
        first = (self.failures or self.undefined)[0]
        if not isinstance(claim.plan(profile), PatternPlan):   # one instance of a sequence's pattern says nothing alone
            v.evidence["rerun"] = rerun_command(claim, profile, first.bindings)
        return v


def _short(v: int) -> str:
    """A far value in words: a power of two as such.

    >>> _short(1024), _short(1000)
    ('2^10', '1,000')
    """
    if v > 64 and v & (v - 1) == 0:
        return f"2^{v.bit_length() - 1}"
    return f"{v:,}"


class _Extra(Binder):
    """The window's binder with one name moved to a constant range, every binding checked against the claim's
    domain (one outside it is left out), and at most `limit` bindings."""

    def __init__(self, window: Binder, moved: Level, domain: Any, limit: int):
        self.__dict__.update(window.__dict__)   # the window's names, filters and where errors are reported
        self.levels = [moved if lv.name == moved.name else lv for lv in window.levels]
        self.domain = domain
        self.limit = limit

    def bindings(self, env: dict, pins: dict[str, Any] | None = None, max_unbounded: int = 10_000_000,
                 shard: tuple[int, int] | None = None, depth: int | None = None) -> Iterator[dict]:
        found = super().bindings(env, pins, max_unbounded, shard, depth)
        if depth is not None and depth < len(self.levels):
            yield from found
            return
        inside = (b for b in found if self.domain is None or self.domain.contains(b))
        yield from islice(inside, self.limit)


def _constant(fn: Any) -> int | None:
    try:
        v = fn({})
    except (EvalError, SpecError, TypeError, KeyError, ZeroDivisionError):
        return None
    return v if type(v) is int else None


def _members_top(level: Level) -> int | None:
    """The largest member of a window's constant set of integers (``k in {1, 2}``), else None."""
    if level.members is None:
        return None
    try:
        items = list(iter_items(level.members({})))
    except (EvalError, SpecError, TypeError, KeyError):
        return None
    if not items or any(type(v) is not int for v in items):
        return None
    return max(items)


def _domain_top(plan: ClaimPlan, name: str) -> tuple[bool, int | None]:
    """(whether the domain binds `name` to an integer range, its constant upper bound or None)."""
    cd = plan.domain
    binder = cd.binder(plan.claim.spec.namespace) if cd is not None else None
    level = next((lv for lv in binder.levels if lv.name == name), None) if binder is not None else None
    if level is None or level.members is not None:
        return False, None
    tops = [(_constant(fn), strict) for fn, strict in level.highs]
    known = [t - 1 if strict else t for t, strict in tops if t is not None]
    return True, min(known) if known else None


def moves(plan: ClaimPlan, seed: int) -> list[Move]:
    """The extra windows of a claim, in the order they run: the next values of every name past the window's edge,
    then the far values of each parameter, smallest first (see the module docstring).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> moves(spec.claims[0].plan(), 1)
    [Move(name='x', lo=21, hi=23, far=False)]
    """
    assert plan.window is not None, "a sampled claim has a window"
    ns = plan.claim.spec.namespace
    wide = {nd.name: nd for nd in build_domain(plan, plan.window, ns).names}
    rng = random.Random(seed)
    near: list[Move] = []
    far: list[Move] = []
    pattern = isinstance(plan, PatternPlan)
    for level in plan.window.levels:
        nd = wide[level.name]
        ranged, cap = _domain_top(plan, level.name)
        if level.members is not None:
            top = _members_top(level)
            if top is None or not ranged:
                continue
        else:
            top = nd.window_hi
            if top is None or not nd.extended:
                continue
        if cap is not None and cap <= top:
            continue   # the domain ends at the window's edge: nothing lies beyond it
        hi = top + EDGE_STEPS
        lo = top + 1
        if pattern and level.name in plan.coords and level.members is None:
            low = next((v for v in (_constant(fn) for fn, _ in level.lows) if v is not None), None)
            if low is None:
                continue
            lo, hi = low, max(hi, 2 * top - low + 1)   # the sequence from its start, twice as far
        if cap is not None:
            hi = min(hi, cap)
        near.append(Move(level.name, lo, hi))
        if plan.coords and level.name not in plan.coords:
            far.extend(Move(level.name, v, v, far=True) for v in far_values(top + EDGE_STEPS, cap, rng))
    return near + sorted(far, key=lambda m: m.lo)


def far_values(above: int, cap: int | None, rng: random.Random) -> list[int]:
    """Far values of a parameter, all above `above` and at most `cap` (None: :data:`FAR_PARAMETER`): the first
    powers of two above it, then powers of two spread up to the cap, then values drawn at random with magnitudes
    spread between `above` and the cap; sorted, each once.

    >>> v = far_values(5, None, random.Random(1))
    >>> v[:4], [p for p in v if p & (p - 1) == 0][-2:], len(v) <= FAR_POWERS + FAR_RANDOM, v[-1] <= FAR_PARAMETER
    ([8, 16, 32, 1024], [1048576, 1073741824], True, True)
    >>> far_values(5, 40, random.Random(1))
    [8, 9, 16, 19, 32, 39]
    """
    top = FAR_PARAMETER if cap is None else cap
    if top <= above:
        return []
    first = max(above, 1).bit_length()
    powers = [1 << e for e in range(first, top.bit_length()) if above < 1 << e <= top]
    chosen = powers[:3] + [p for p in powers[3:] if (p.bit_length() - 1) % 10 == 0]
    chosen = chosen[:FAR_POWERS]
    out = set(chosen)
    for _ in range(FAR_RANDOM):
        e = rng.randint(max(above, 1).bit_length(), top.bit_length())
        lo, hi = max(above + 1, 1 << (e - 1)), min(top, (1 << e) - 1)
        if lo <= hi:
            out.add(rng.randint(lo, hi))
    return sorted(out)


def _moved_level(level: Level, move: Move) -> Level:
    """The name's level of an extra window: the constant range of the move (the window's filters kept)."""
    lo, hi = move.lo, move.hi
    return dataclasses.replace(level, lows=[(lambda env, v=lo: v, False)], highs=[(lambda env, v=hi: v, False)],
                               members=None, member_text=None, low_text=[str(lo)], high_text=[str(hi)],
                               member_tree=None, member_ir=None, low_trees=[ast.Constant(lo)],
                               high_trees=[ast.Constant(hi)], low_ir=[Const(value=lo, type=Type.INT)],
                               high_ir=[Const(value=hi, type=Type.INT)])


class _Beyond(Collector):
    """A collector of the failures that the window's check cannot have found: a coordinate of a sequence's pattern
    runs over the window too (the pattern needs the sequence from its start), and a failure whose pair or block lies
    inside the window is the window's."""

    def __init__(self, limit: int, plan: ClaimPlan):
        super().__init__(limit)
        self.plan = plan
        self.inside = _window_test(plan)

    def fail(self, cx: Counterexample) -> None:
        if not self._window_s(cx):
            super().fail(cx)

    def undef(self, cx: Counterexample) -> None:
        if not self._window_s(cx):
            super().undef(cx)

    def _window_s(self, cx: Counterexample) -> bool:
        plan = self.plan
        if not isinstance(plan, PatternPlan) or self.inside is None:
            return False   # the other kinds' extra windows lie wholly beyond the window
        coord = plan.coords[0]
        params = {n: v for n, v in cx.bindings.items() if n != coord}
        n = cx.bindings.get(coord)
        try:
            pat = {k: fn(dict(params)) for k, fn in plan.pattern.items()}
        except (EvalError, SpecError):
            pat = {}
        if type(n) is not int:   # the pattern itself is undefined there: the window's when its parameters are
            return any(self.inside(env) for env in _window_points(plan, params))
        if "period" in pat and type(pat["period"]) is int:
            return self.inside({**params, coord: n}) and self.inside({**params, coord: n + pat["period"]})
        if "h" in pat and type(pat["h"]) is int and pat["h"] > 0:
            h = pat["h"]
            return self.inside({**params, coord: (n // h) * h}) and self.inside({**params, coord: (n // h + 1) * h - 1})
        return self.inside({**params, coord: n})


def _window_test(plan: ClaimPlan) -> Any:
    """env -> whether the instance lies in the window (None: no window to test against)."""
    dom = build_domain(plan, plan.window, plan.claim.spec.namespace)
    return dom.in_window if dom.window is not None else None


def _window_points(plan: ClaimPlan, params: dict) -> Iterator[dict]:
    """The window's bindings with the parameters `params` (a few: enough to say whether there are any)."""
    assert plan.window is not None, "a sampled claim has a window"
    try:
        yield from islice(plan.window.bindings({}, dict(params)), 1)
    except (EvalError, SpecError):
        return


def edge_check(plan: ClaimPlan, seed: int, budget: int = EDGE_INSTANCES) -> EdgeResult:
    """Evaluate the claim at the extra windows (:func:`moves`) with the window's check, within `budget` instances;
    see the module docstring."""
    out = EdgeResult()
    assert plan.window is not None, "a sampled claim has a window"
    check = handler_for(WINDOW_CHECKS, plan)
    assert check is not None, f"the window checks every kind of claim ({type(plan).__name__})"
    col = _Beyond(10, plan)
    pattern = isinstance(plan, PatternPlan)
    todo = moves(plan, seed)
    capped = _Capped(active_budget(), EDGE_STEPS_TOTAL)
    skipped: dict[str, int] = {}
    for i, move in enumerate(todo):
        if move.far and (col.n_fail or _real(col.sorted(col.undefined))):
            break   # the next values failed: the smallest counterexample is there
        left = budget - out.evaluated
        if left <= 0:
            out.notes.append(f"the extra windows past the window's edge stopped at their {budget:,} instances")
            break
        level = next(lv for lv in plan.window.levels if lv.name == move.name)
        limit = min(left, WINDOW_INSTANCES)
        extra = _Extra(plan.window, _moved_level(level, move), plan.domain, limit + 1)
        sub = dataclasses.replace(plan, window=extra)
        try:
            count = sum(1 for _ in extra.bindings({}))
        except (EvalError, SpecError) as exc:
            skipped[f"{move.describe()}: {exc}"] = 1
            continue
        if count == 0:
            continue   # outside the domain (or the window's filters) there: nothing is judged
        if count > limit:
            if pattern:
                why = f"more than {limit:,} instances, and a sequence's pattern needs them all"
                skipped[f"{move.describe()}: {why}"] = 1
                continue
            out.notes.append(f"{move.describe()}: the first {limit:,} instances only")
        extra.limit = limit
        try:
            est = estimate(sub)
        except (EvalError, SpecError) as exc:
            skipped[f"{move.describe()}: {exc}"] = 1
            continue
        if est.over or est.positions > EDGE_POSITIONS:
            skipped[f"{move.describe()}: over the resource limits ({est.describe()})"] = 1
            continue
        before = col.n_fail, col.n_undef
        try:
            with using_budget(capped):
                result, late = run_limited(lambda: check(sub, col, None, None), EDGE_SECONDS)
        except _Spent as exc:
            out.notes.append(f"{exc.message} (in {move.describe()})")
            break
        except ResourceError as exc:
            skipped[f"{move.describe()}: {exc.message}"] = 1
            continue
        except (EvalError, SpecError) as exc:
            skipped[f"{move.describe()}: {exc}"] = 1
            continue
        if late:
            out.late = True
            out.notes.append(f"the safety net ({EDGE_SECONDS:g} s of CPU time) stopped the extra window "
                             f"{move.describe()}")
            continue
        instances, held, _ = result
        out.evaluated += instances
        out.held += held
        out.moves.append(move)
        if move.far and (col.n_fail, col.n_undef) != before and (col.n_fail or _real(col.sorted(col.undefined))):
            break
    for why in list(skipped)[:3]:
        out.notes.append(f"not evaluated past the window: {why}")
    out.failures = col.sorted(col.failures)
    undefined = col.sorted(col.undefined)
    real = _real(undefined)
    out.undefined = real
    out.n_fail = col.n_fail
    out.n_undef = len(real) if len(real) < len(undefined) else col.n_undef
    if len(real) < len(undefined):
        out.notes.append(f"{len(undefined) - len(real):,} instances past the window too large to evaluate (skipped)")
        out.held -= len(undefined) - len(real)
    return out


class _Spent(ResourceError):
    """The extra windows took their :data:`EDGE_STEPS_TOTAL` steps."""


class _Capped(EvaluationBudget):
    """The claim's evaluation budget (its per-evaluation limit and memo tables) with a ceiling on the steps of all
    the evaluations together.

    >>> capped = _Capped(EvaluationBudget(), 5)
    >>> capped.spend(3); capped.restart(); capped.spend(2)
    >>> try:
    ...     capped.spend(1)
    ... except _Spent as exc:
    ...     print(exc.message)
    the extra windows past the window's edge took their 5 steps
    """

    __slots__ = ("cap",)

    def __init__(self, base: EvaluationBudget, cap: int):
        super().__init__()
        self.limit, self.memos, self.cap = base.limit, base.memos, cap

    def spend(self, n: int = 1) -> None:
        super().spend(n)
        if self.spent > self.cap:
            raise _Spent(f"the extra windows past the window's edge took their {self.cap:,} steps")


def _real(undefined: list) -> list:
    """The undefined instances whose reason is mathematics, not the machine's size limits (by their kind)."""
    return [cx for cx in undefined if not cx.over_limit]



def parameter_bindings(plan: ClaimPlan, seed: int, window: list[dict], limit: int) -> list[dict]:
    """Bindings of a game claim's parameters beyond the window, for a sampler that draws positions per binding (the
    periodic sampler): each parameter at its next values and far values (:func:`moves`), the other parameters as in
    the first and the last of the window's bindings (`window`, dicts of the parameters); at most `limit`, the
    nearest first. Whether the claim's domain allows one is for the caller to check at each position drawn.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> parameter_bindings(spec.claim("kayles-period-12").plan(), 1, [{}], 10)
    []
    """
    names = [n for n in (plan.window.names if plan.window is not None else ()) if n not in plan.coords]
    bases = [window[0], window[-1]] if window else []
    out: list[dict] = []
    seen: set = set()
    for move in moves(plan, seed):
        if move.name not in names:
            continue
        for v in range(move.lo, min(move.hi, move.lo + EDGE_STEPS - 1) + 1):
            for base in bases:
                env = {n: base[n] for n in names if n in base}
                env[move.name] = v
                key = tuple(sorted(env.items()))
                if key not in seen:
                    seen.add(key)
                    out.append(env)
    return out[:limit]
