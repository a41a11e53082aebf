"""Sampling far beyond the window with hypothesis: the verification method ``sample``.

Each name of a claim's window keeps its lower bound and every bound that depends on other names; a
constant upper bound (the window's edge) is replaced by a far bound (up to 10^18, as large as one
evaluation allows). Hypothesis spreads the values over every size, so instances of every magnitude appear, and shrinks
failures to small ones. Functions and sets bound by ``functions`` / ``nondecreasing`` / ``subsets`` are drawn from
wider families.

* ``holds`` claims are evaluated exactly (Josephus values at huge n come from the fast algorithms).
* grundy / p_positions / level_set claims are judged by the local certificate (checkers.prove.certificate) at
  each drawn position: its options are listed when there are few, searched by Z3 when there are many.

A failure shrinks to a small counterexample, is stored in the hypothesis database under ``.nimjos/hypothesis``
and is reported with a line to paste into the spec (``sample = { pins = [...] }``) so that it is re-checked
first on every run. With CI=true the search is derandomized.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> v = sample_claim(spec.claims[0], RunOptions(extra={"sample_examples": 20}))
>>> v.verdict, v.method
('sampled', 'sample')
"""
from __future__ import annotations

import ast
import math
import os
import random
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.expr import BUDGET, parse, variables_of

from checkers.prove.certificate import Certificate, PointSolver, TooManyOptions, count_options, game_kind
from nimjos.spec.plan import ClaimPlan
from checkers.options import RunOptions
from nimjos.verdict import Counterexample, Verdict
from nimjos.lang.values import format_value
from hypothesis import strategies as st
from nimjos.lang.builtins import FiniteFunction, iter_items
from hypothesis import reject
from checkers.prove.terms import Untranslatable
from checkers.prove.world import uses
from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import DirectoryBasedExampleDatabase
import hashlib
from nimjos.lang.binders import Binder
from checkers.prove.solver import fresh_context
from hypothesis import given
from hypothesis.errors import HypothesisException
from nimjos.lang.analysis import size_names, window_constants

METHOD = "sample"
#: examples per claim and seconds per claim unless the spec or the options say otherwise
EXAMPLES = 100
SECONDS = 2.0
#: the far bound tried first, and the ladder down from it when one evaluation costs too much
FAR = 10 ** 18
LADDER = (10 ** 18, 10 ** 9, 10 ** 6, 10 ** 4, 10 ** 3)
#: seconds one evaluation may take before the instance is skipped
EVAL_SECONDS = 1.0
#: a constant range of at most this many values is a stated case split, kept as it is
SMALL_RANGE = 8
#: names whose presence means ground truth comes from a table (the sample stays near the window)
TABLE_NAMES = {"G", "options", "mex"}
#: words in an evaluation error that mean "too large for the machine", not "undefined"
RESOURCE_WORDS = ("too large", "ssize_t", "exceeds the limit", "would have", "MemoryError")


class Timeout(BaseException):
    """One evaluation took longer than allowed (a BaseException, so that no `except Exception` swallows it)."""


class _Fail(AssertionError):
    """Raised inside the hypothesis test when an instance fails (hypothesis then shrinks it)."""


def not_applicable(claim: Any, reason: str, seconds: float = 0.0) -> Verdict:
    """The verdict of a claim this method cannot sample, with the reason in its scope.

    >>> not_applicable(type("C", (), {"id": "c"})(), "a printed table").scope
    'not applicable: a printed table'
    """
    return Verdict(claim.id, "inconclusive", METHOD, f"not applicable: {reason}", seconds=seconds)


def data_dir() -> Path:
    """The project's data directory (``.nimjos`` unless NIMJOS_DATA says otherwise).

    >>> data_dir().name in (".nimjos", os.path.basename(os.environ.get("NIMJOS_DATA", ".nimjos")))
    True
    """
    return Path(os.environ.get("NIMJOS_DATA", ".nimjos"))


def in_ci() -> bool:
    """True when the environment says CI (then every search is derandomized).

    >>> os.environ.get("CI", "").lower() in ("1", "true", "yes") or not in_ci()
    True
    """
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Timeout in the body after `seconds` (main thread only; elsewhere no limit).

    >>> try:
    ...     with time_limit(0.05):
    ...         while True:
    ...             pass
    ... except Timeout:
    ...     print("stopped")
    stopped
    """
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # again soon, in case this one lands where it is ignored
        if frame is not None and "gc" in frame.f_code.co_name:
            return  # a garbage-collector callback would swallow it
        raise Timeout()

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ----------------------------------------------------------------------------- the domain

@dataclass
class NameDomain:
    """How one bound name is drawn: a range (lo, far or dependent hi) or members of a finite family."""

    name: str
    level: Any
    extended: bool = False          # the window's constant upper bound was replaced by the far bound
    window_hi: int | None = None
    family: tuple | None = None     # ("functions" | "nondecreasing" | "subsets", args) drawn from a wider family


@dataclass
class Domain:
    """The names of a window, in binding order, each with how it is drawn."""

    binder: Any
    names: list[NameDomain] = field(default_factory=list)
    far: int = FAR

    def describe(self) -> str:
        ext = [d.name for d in self.names if d.extended]
        fam = [d.name for d in self.names if d.family]
        parts = []
        if ext:
            parts.append(f"{', '.join(ext)} up to {_magnitude(self.far)}")
        if fam:
            parts.append(f"{', '.join(fam)} from wider families")
        return "; ".join(parts)


def _magnitude(n: int) -> str:
    e = round(math.log10(n)) if n > 0 else 0
    return f"10^{e}" if 10 ** e == n else f"{n:,}"


def _is_constant(text: str, ns: Any) -> bool:
    try:
        return not variables_of(parse(text), ns)
    except SpecError:
        return False


def build_domain(plan: ClaimPlan, binder: Any, ns: Any, widen_sets: bool = False) -> Domain:
    """Read how each name of `binder` is drawn (see the module docstring). Functions from ``functions`` /
    ``nondecreasing`` take values from a wider range (their domain 1..K stays, other bounds depend on it);
    sets from ``subsets`` are widened only with `widen_sets` (constants elsewhere in a claim are often
    tuned to the window's sets).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan()
    >>> [(d.name, d.extended, d.window_hi) for d in build_domain(plan, plan.window, spec.namespace).names]
    [('x', True, 20)]
    """
    dom = Domain(binder)
    sizes = size_names([plan.claim.statement_text, plan.claim.assume_text or "", binder.text], ns) | set(plan.coords)
    for level in binder.levels:
        nd = NameDomain(level.name, level)
        if level.members is not None:
            call = _family_call(level.member_text, ns)
            if call is not None and (call[0] != "subsets" or widen_sets):
                nd.family = call
        elif level.highs:
            const = [_is_constant(t, ns) for t in level.high_text] + [_is_constant(t, ns) for t in level.low_text]
            if all(const):
                try:
                    nd.window_hi = min(_round_high(fn({}), strict) for fn, strict in level.highs)
                    lo = max(_round_low(fn({}), strict) for fn, strict in level.lows) if level.lows else 0
                except (EvalError, SpecError, TypeError):
                    nd.window_hi, lo = None, 0
                # a range of a few values is a stated case split (0 <= e <= 1), not a window edge
                nd.extended = nd.window_hi is None or nd.window_hi - lo + 1 > SMALL_RANGE or level.name in sizes
        dom.names.append(nd)
    return dom


def _round_high(v: Any, strict: bool) -> int:
    return math.ceil(v) - 1 if strict else math.floor(v)


def _round_low(v: Any, strict: bool) -> int:
    return math.floor(v) + 1 if strict else math.ceil(v)


def _family_call(text: str | None, ns: Any) -> tuple | None:
    if not text:
        return None
    try:
        tree = parse(text)
    except SpecError:
        return None
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("functions", "nondecreasing", "subsets") \
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in tree.args):
        return (tree.func.id, tuple(a.value for a in tree.args))
    return None


def draw_int(data: Any, lo: int, hi: int, label: str) -> int:
    """An integer in [lo, hi]: hypothesis spreads its draws over every size and shrinks them towards lo."""
    return data.draw(st.integers(lo, hi), label=label)


def draw_member(data: Any, nd: NameDomain, env: dict) -> Any:
    """A member of a name's finite family: from a wider family when it is a functions/subsets call."""
    if nd.family is not None:
        kind, args = nd.family
        if kind in ("functions", "nondecreasing"):
            K, lo, hi = args
            hi2 = hi + 3 * max(1, hi - lo + 1)
            vals = data.draw(st.lists(st.integers(lo, hi2), min_size=K, max_size=K), label=nd.name)
            if kind == "nondecreasing":
                vals = sorted(vals)
            return FiniteFunction(tuple(vals))
        lo, hi = args
        hi2 = 2 * hi - lo + 1
        return frozenset(data.draw(st.sets(st.integers(lo, hi2), max_size=hi2 - lo + 1), label=nd.name))
    members = list(iter_items(nd.level.members(env)))
    if not members:
        reject()
    try:
        members = sorted(members)
    except TypeError:
        members = sorted(members, key=repr)
    return data.draw(st.sampled_from(members), label=nd.name)


def draw_env(data: Any, dom: Domain, base: dict | None = None) -> tuple[dict, bool]:
    """A binding of every name of the domain (rejecting draws that break a filter); also whether some
    extended name went beyond the window."""
    env = dict(base or {})
    for f in dom.binder.pre_filters:
        if not f(env):
            reject()
    beyond = False
    for nd in dom.names:
        level = nd.level
        if level.members is not None:
            env[nd.name] = draw_member(data, nd, env)
        else:
            lo = max(_round_low(fn(env), strict) for fn, strict in level.lows) if level.lows else 0
            if nd.extended or not level.highs:
                hi = max(lo, dom.far)
            else:
                hi = min(_round_high(fn(env), strict) for fn, strict in level.highs)
            if hi < lo:
                reject()
            v = draw_int(data, lo, hi, nd.name)
            env[nd.name] = v
            if nd.extended and nd.window_hi is not None and v > nd.window_hi:
                beyond = True
        for f in level.filters:
            if not f(env):
                reject()
    return env, beyond


def parse_pin(text: str) -> dict:
    """A pinned instance written as ``"x=3, y=(1, 2)"``.

    >>> parse_pin("x=3, y=(1, 2)")
    {'x': 3, 'y': (1, 2)}
    """
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call) and not call.args
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg}
    except (SyntaxError, ValueError, AssertionError):
        raise SpecError(f"a pinned sample is written 'x=3, y=4', got {text!r}", field="sample") from None


def pin_line(bindings: dict) -> str:
    """The line to paste into a spec to re-check an instance first on every run.

    >>> pin_line({"x": 3, "y": 10 ** 20})
    'sample = { pins = ["x=3, y=100000000000000000000"] }'
    """
    return 'sample = { pins = ["' + ", ".join(f"{k}={format_value(v)}" for k, v in bindings.items()) + '"] }'


# ----------------------------------------------------------------------------- evaluators

class Outcome:
    """What one instance gave: held, skipped (assumption false / too costly), failed or undefined."""

    HELD, ASSUME, SKIP, FAIL, UNDEF = "held", "assume", "skip", "fail", "undef"

    def __init__(self, kind: str, cx: Counterexample | None = None, note: str = ""):
        self.kind = kind
        self.cx = cx
        self.note = note


def _undefined(bindings: dict, exc: Exception) -> Outcome:
    """An evaluation error: ill-defined mathematics, or (by its words) only too large for the machine."""
    text = str(exc)
    if any(w in text for w in RESOURCE_WORDS):
        return Outcome(Outcome.SKIP, note="too large to evaluate")
    return Outcome(Outcome.UNDEF, Counterexample(bindings, reason=text))


class HoldsEvaluator:
    """Evaluates a holds claim exactly at one binding."""

    def __init__(self, plan: ClaimPlan):
        self.plan = plan
        self.names = plan.window.names

    def __call__(self, env: dict) -> Outcome:
        plan = self.plan
        bindings = {n: env[n] for n in self.names if n in env}
        try:
            if plan.assume is not None and not plan.assume(env):
                return Outcome(Outcome.ASSUME)
            ok = plan.formula(env)
        except ResourceError as exc:
            return Outcome(Outcome.SKIP, note=str(exc))
        except EvalError as exc:
            return _undefined(bindings, exc)
        if ok:
            return Outcome(Outcome.HELD)
        lhs, rhs = False, True
        if plan.sides is not None:
            try:
                lhs, rhs = plan.sides[0](env), plan.sides[1](env)
            except (EvalError, ResourceError):
                pass
        return Outcome(Outcome.FAIL, Counterexample(bindings, lhs, rhs))


class GameEvaluator:
    """Judges a game claim at one position by the local certificate."""

    def __init__(self, claim: Any, plan: ClaimPlan, profile: str):
        self.claim = claim
        self.plan = plan
        self.profile = profile
        self.names = plan.window.names
        self.coords = plan.coords
        self._certs: dict = {}
        self._solvers: dict = {}
        self.symbolic = 0
        self.why_not_symbolic = ""

    def certificate(self, params: dict) -> Certificate:
        key = tuple(sorted(params.items(), key=lambda kv: kv[0]))
        try:
            cert = self._certs.get(key)
        except TypeError:
            key, cert = None, None
        if cert is None:
            cert = Certificate(self.claim, self.plan, params, game_kind(self.claim, self.plan))
            if key is not None:
                self._certs[key] = cert
        return cert

    def solver(self, cert: Certificate) -> PointSolver | None:
        key = id(cert)
        if key not in self._solvers:
            try:
                self._solvers[key] = PointSolver(cert)
            except (Untranslatable, SpecError) as exc:
                self.why_not_symbolic = str(exc)
                self._solvers[key] = None
        return self._solvers[key]

    def __call__(self, env: dict) -> Outcome:
        plan = self.plan
        bindings = {n: env[n] for n in self.names if n in env}
        params = {n: env[n] for n in self.names if n not in self.coords}
        try:
            if plan.assume is not None and not plan.assume(env):
                return Outcome(Outcome.ASSUME)
            cert = self.certificate(params)
            pos = cert.inst.normalise(tuple(env[c] for c in self.coords) if len(self.coords) > 1 else env[self.coords[0]])
            try:
                failure = cert.check(pos)
            except TooManyOptions:
                ps = self.solver(cert)
                if ps is None:
                    return Outcome(Outcome.SKIP, note="too many options")
                failure = ps.check(pos)
                self.symbolic += 1
        except Untranslatable as exc:
            self.why_not_symbolic = str(exc)
            return Outcome(Outcome.SKIP, note=str(exc))
        except ResourceError as exc:
            return Outcome(Outcome.SKIP, note=str(exc))
        except EvalError as exc:
            return _undefined(bindings, exc)
        if failure is None:
            return Outcome(Outcome.HELD)
        detail = {"certificate": f"({failure.condition}) {failure.text}"}
        return Outcome(Outcome.FAIL, Counterexample(bindings, failure.label, None, reason=None, detail=detail))

    def reevaluate(self, cx: Counterexample) -> Counterexample:
        """Ground truth by the engine near a certificate failure (when the position is small enough)."""
        params = {n: cx.bindings[n] for n in self.names if n not in self.coords}
        cert = self.certificate(params)
        pos = tuple(cx.bindings[c] for c in self.coords) if len(self.coords) > 1 else cx.bindings[self.coords[0]]
        try:
            found = cert.reevaluate(pos, max_positions=200_000)
        except (EvalError, SpecError, TooManyOptions):
            found = None
        if found is None:
            cx.detail["engine"] = "not re-evaluated (position too large for the engine)"
            return cx
        q, actual, label = found
        b = dict(params)
        b.update(dict(zip(self.coords, q if isinstance(q, tuple) else (q,))))
        b = {n: b[n] for n in self.names if n in b}
        shown = {"grundy": label, "p": "P" if label == 0 else "N"}.get(cert.kind, label)
        truth = {"grundy": actual, "p": "P" if actual == 0 else "N"}.get(cert.kind, actual)
        out = Counterexample(b, truth, shown, detail={**cx.detail, "grundy": actual, "engine": "re-evaluated by the engine"})
        return out


# ----------------------------------------------------------------------------- scale

def _uses_table(claim: Any, ns: Any) -> bool:
    texts = [claim.statement, claim.assume_text, claim.for_all_text]
    for t in texts:
        if isinstance(t, str):
            try:
                if uses(parse(t), ns, TABLE_NAMES):
                    return True
            except SpecError:
                continue
    return False


def choose_far(claim: Any, plan: ClaimPlan, dom: Domain, evaluate: Callable, kind: str | None,
               evaluator: Any, seed: int) -> tuple[int | None, str]:
    """The far bound: the largest of LADDER at which a few evaluations are cheap, or a few times the
    window when ground truth comes from a table. None with the reason when nothing beyond the window works."""
    if not any(d.extended for d in dom.names):
        return FAR, ""
    top = max((d.window_hi for d in dom.names if d.extended and d.window_hi is not None), default=100)
    if kind is None and _uses_table(claim, claim.spec.namespace):
        return max(2 * top, top + 8), "ground truth from the engine's table, so values stay within 2x the window"
    ladder = list(LADDER)
    if kind is not None:
        if _symbolic_ok(evaluator, plan):
            return FAR, ""
        ladder = [10 ** 4, 1000, 300, 100]
    rng = random.Random(seed)
    budget = time.perf_counter() + 2.0
    for far in ladder:
        if far <= top or time.perf_counter() > budget:
            break
        dom.far = far
        if _probe(dom, evaluate, rng, kind, evaluator):
            return far, ""
    return None, "one evaluation beyond the window costs too much"


def _symbolic_ok(evaluator: Any, plan: ClaimPlan) -> bool:
    try:
        env = next(iter(plan.window.bindings({})), None)
    except (EvalError, SpecError):
        env = None
    if env is None:
        return False
    try:
        params = {n: env[n] for n in plan.window.names if n not in plan.coords}
        cert = evaluator.certificate(params)
        PointSolver(cert)
        return True
    except (Untranslatable, SpecError, EvalError) as exc:
        evaluator.why_not_symbolic = str(exc)
        return False


def _probe(dom: Domain, evaluate: Callable, rng: random.Random, kind: str | None, evaluator: Any) -> bool:
    """A few random instances near the far bound: all cheap enough?"""
    for _ in range(2):
        env = _random_env(dom, rng)
        if env is None:
            continue
        if kind is not None:
            params = {n: env[n] for n in evaluator.names if n not in evaluator.coords}
            try:
                cert = evaluator.certificate(params)
                pos = tuple(env[c] for c in evaluator.coords) if len(evaluator.coords) > 1 else env[evaluator.coords[0]]
                if count_options(cert.inst, pos, 4000) > 4000:
                    return False
            except (EvalError, SpecError, KeyError):
                return False
        try:
            BUDGET.steps = 0
            with time_limit(EVAL_SECONDS / 2):
                out = evaluate(env)
        except Timeout:
            return False
        if out.kind == Outcome.SKIP:
            return False
    return True


def _random_env(dom: Domain, rng: random.Random) -> dict | None:
    """A plain random binding near the far bound (for probing costs only)."""
    env: dict = {}
    try:
        for nd in dom.names:
            level = nd.level
            if level.members is not None:
                if nd.family is not None:
                    _family_sample(nd, rng, env)
                    continue
                items = list(iter_items(level.members(env)))
                if not items:
                    return None
                env[nd.name] = items[rng.randrange(len(items))]
                continue
            lo = max(_round_low(fn(env), strict) for fn, strict in level.lows) if level.lows else 0
            hi = dom.far if (nd.extended or not level.highs) else min(_round_high(fn(env), strict) for fn, strict in level.highs)
            if hi < lo:
                return None
            env[nd.name] = rng.randint(max(lo, hi - (hi - lo) // 4), hi)
    except (EvalError, SpecError):
        return None
    return env


def _family_sample(nd: NameDomain, rng: random.Random, env: dict) -> None:
    kind, args = nd.family
    if kind in ("functions", "nondecreasing"):
        K, lo, hi = args
        vals = [rng.randint(lo, hi) for _ in range(K)]
        env[nd.name] = FiniteFunction(tuple(sorted(vals) if kind == "nondecreasing" else vals))
    else:
        lo, hi = args
        env[nd.name] = frozenset(v for v in range(lo, hi + 1) if rng.random() < 0.5)


# ----------------------------------------------------------------------------- the method

def _settings(claim: Any, count: int) -> Any:
    derand = in_ci()
    db = None if derand else DirectoryBasedExampleDatabase(str(data_dir() / "hypothesis"))
    return settings(max_examples=count, deadline=None, derandomize=derand, database=db,
                    suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])


def _db_key(claim: Any, profile: str) -> bytes:
    return hashlib.sha256(f"nimjos-sample|{Path(str(claim.spec.path)).name}|{claim.id}|{profile}".encode()).digest()


def sample_claim(claim: Any, opts: RunOptions) -> Verdict:
    """Sample one claim far beyond its window (see the module docstring)."""
    start = time.perf_counter()
    cfg = claim.sample   # fields and types checked by the loader (nimjos.spec.loader.SAMPLE_FIELDS)
    if cfg.skip:
        return not_applicable(claim, str(cfg.skip))
    if claim.kind == "values":
        return not_applicable(claim, "a printed table is finite: the window check covers all of it")
    plan = claim.plan(opts.profile)
    ns = claim.spec.namespace
    binder = plan.window
    if cfg.for_all:
        binder = Binder(parse(cfg.for_all), ns, set(), text=cfg.for_all)
    if not binder.names:
        return not_applicable(claim, "a closed statement (no free names): nothing to sample")
    kind = game_kind(claim, plan)
    if kind is None:
        evaluator: Any = HoldsEvaluator(plan)
    else:
        fresh_context()   # the point search's answers must not depend on the claims sampled before
        evaluator = GameEvaluator(claim, plan, opts.profile)
        if kind == "level" and plan.levels is not None:
            try:
                Certificate.for_claim(claim, {n: v for n, v in next(iter(plan.window.bindings({}))).items()
                                              if n not in plan.coords}, opts.profile)
            except SpecError as exc:
                return not_applicable(claim, str(exc.message))
            except StopIteration:
                return not_applicable(claim, "the window is empty")
    fixed = [] if cfg.for_all else window_constants(binder)
    if fixed:
        return not_applicable(claim, f"{', '.join(fixed)} ties the statement to the window's sizes (state a domain "
                                     "with sample = { for_all = \"...\" })")
    dom = build_domain(plan, binder, ns, widen_sets=bool(cfg.widen))
    if not any(d.extended or d.family for d in dom.names):
        return not_applicable(claim, "every bound is stated (no window edge to go beyond); the window check covers the claim")

    def evaluate(env: dict) -> Outcome:
        BUDGET.steps = 0
        BUDGET.depth = 0
        return evaluator(env)

    seed = int.from_bytes(_db_key(claim, opts.profile)[:4], "big")
    far = cfg.scale
    note = ""
    if isinstance(far, int) and far > 0:
        dom.far = far
    else:
        far, note = choose_far(claim, plan, dom, evaluate, kind, evaluator, seed)
        if far is None:
            return not_applicable(claim, note, time.perf_counter() - start)
        dom.far = far
    count = int(cfg.count or opts.extra.get("sample_examples") or EXAMPLES)
    seconds = float(cfg.seconds or opts.extra.get("sample_seconds") or SECONDS)
    stats = {"held": 0, "assume": 0, "skip": 0, "beyond": 0, "pins": 0}
    failures: list[Outcome] = []
    skips: dict[str, int] = {}

    def run_one(env: dict, beyond: bool) -> Outcome:
        try:
            with time_limit(EVAL_SECONDS):
                out = evaluate(env)
        except Timeout:
            out = Outcome(Outcome.SKIP, note=f"an evaluation took over {EVAL_SECONDS:g} s")
        if out.kind == Outcome.HELD:
            stats["held"] += 1
            stats["beyond"] += beyond
        elif out.kind == Outcome.ASSUME:
            stats["assume"] += 1
        elif out.kind == Outcome.SKIP:
            stats["skip"] += 1
            skips[out.note] = skips.get(out.note, 0) + 1
        return out

    # pinned instances first
    for text in cfg.pins:
        env = parse_pin(text)
        stats["pins"] += 1
        out = run_one(env, False)
        if out.kind in (Outcome.FAIL, Outcome.UNDEF):
            failures.append(out)
    if not failures:
        failures = _search(claim, opts.profile, dom, run_one, count, seconds, start)
    return _verdict(claim, plan, opts, dom, stats, failures, skips, evaluator, note, start)


def _search(claim: Any, profile: str, dom: Domain, run_one: Callable, count: int, seconds: float,
            start: float) -> list:
    """Run the hypothesis search; return the shrunk failing outcome (a list of at most one)."""
    last: list = []
    state = {"failing": False}
    deadline = time.perf_counter() + seconds

    def body(data: Any) -> None:
        env, beyond = draw_env(data, dom)
        now = time.perf_counter()
        if now > deadline and not state["failing"]:
            return
        if now > deadline + 2 * seconds:
            return  # stop improving the shrink
        out = run_one(env, beyond)
        if out.kind in (Outcome.FAIL, Outcome.UNDEF):
            state["failing"] = True
            last[:] = [out]
            raise _Fail(out.kind)

    test = _settings(claim, count)(given(st.data())(body))
    test._hypothesis_internal_database_key = _db_key(claim, profile)
    try:
        test()
    except _Fail:
        pass
    except HypothesisException:  # gave up (every draw rejected) or a replay ran out of time: keep what was found
        pass
    except BaseExceptionGroup as group:  # a flaky replay reports the failures it saw
        if not group.subgroup(lambda e: isinstance(e, (_Fail, HypothesisException))):
            raise
    return last


def _verdict(claim: Any, plan: ClaimPlan, opts: RunOptions, dom: Domain, stats: dict, failures: list,
             skips: dict, evaluator: Any, note: str, start: float) -> Verdict:
    held = stats["held"]
    scope_parts = [f"{held:,} instances held ({stats['beyond']:,} beyond the window)"]
    desc = dom.describe()
    if desc:
        scope_parts.append(desc)
    if isinstance(evaluator, GameEvaluator):
        how = "local certificate (a), (b) at each position"
        if evaluator.symbolic:
            how += f"; options searched by Z3 at {evaluator.symbolic:,} positions with too many to list"
        scope_parts.append(how)
    if stats["pins"]:
        scope_parts.append(f"{stats['pins']} pinned")
    notes = []
    if note:
        notes.append(note)
    if stats["assume"]:
        notes.append(f"assumption false at {stats['assume']:,} drawn instances")
    for why, n in sorted(skips.items(), key=lambda kv: -kv[1])[:3]:
        notes.append(f"{n:,} instances skipped: {why}")
    seconds = time.perf_counter() - start
    if failures:
        out = failures[0]
        cx = out.cx
        if isinstance(evaluator, GameEvaluator) and out.kind == Outcome.FAIL:
            cx = evaluator.reevaluate(cx)
        word = "refuted" if out.kind == Outcome.FAIL else "ill-defined"
        v = Verdict(claim.id, word, METHOD, "; ".join(scope_parts), instances=held + 1, assumption_held=held + 1,
                    counterexamples=[cx] if word == "refuted" else [], failures=1,
                    undefined=[cx] if word == "ill-defined" else [], seconds=seconds, notes=notes)
        v.evidence["pin"] = pin_line(out.cx.bindings)
        v.notes.append("pin it: " + v.evidence["pin"])
        return v
    if held == 0:
        reason = "no drawn instance could be evaluated" if stats["skip"] else "the assumption held at no drawn instance"
        v = Verdict(claim.id, "inconclusive", METHOD, f"{reason}; " + "; ".join(scope_parts[1:]), seconds=seconds,
                    notes=notes)
        return v
    return Verdict(claim.id, "sampled", METHOD, "; ".join(scope_parts), instances=held + stats["assume"],
                   assumption_held=held, seconds=seconds, notes=notes)

