"""Evaluating a claim at one drawn instance, within a time limit: a ``holds`` claim exactly (Josephus values at
huge n come from the fast algorithms), a grundy / p_positions / level_set claim by the local certificate
(:mod:`checkers.certificate`) at the drawn position, its options listed when there are few and
searched by Z3 when there are many. The :class:`Outcome` says held, assumption false, skipped (too costly),
failed or undefined; a failure of the certificate is re-evaluated by the engine near the position.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> ev = GameEvaluator(spec.claims[0].plan(), "default", z3.Context())
>>> ev({"x": 10}).kind, ev({"x": 10 ** 12}).kind, ev.symbolic
('held', 'held', 1)
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import z3

from nimjos.games.engine import active_engine
from nimjos.games.fast import outcome_box, outcomes_fast
from nimjos.lang.errors import EvalError, ResourceError, SpecError, StepLimitError
from nimjos.lang.values import format_value
from nimjos.spec.loader import claim_of
from nimjos.spec.plan import GrundyPlan, HoldsPlan, PPositionsPlan, SetPlan
from nimjos.verdict import Counterexample
from nimjos.words import Note, NoteKind, Vocabulary
from checkers.certificate import (MAX_OPTIONS, Certificate, OutsideDomain, TooManyOptions, Undecided, count_options,
                                  game_kind, small_position)
from checkers.sample.point_solver import PointSolver
from checkers.prove.ending import plays_end
from checkers.z3.terms import Untranslatable
from checkers.modes import Mode

#: seconds of CPU time one evaluation may take: a safety net only, far above what the counted limits allow (steps
#: of the expression language, Z3 resource units, the engine's positions); an instance it stops is skipped, and the
#: method's verdict is then inconclusive with a note, since it would depend on the machine's speed
EVAL_SECONDS = 60.0


class Timeout(BaseException):
    """One evaluation took longer than allowed (a BaseException, so that no `except Exception` swallows it)."""



#: the timer of :func:`time_limit` and its signal: the process's CPU time (user and system), not the wall clock,
#: so that a loaded machine, where the process waits for a core, does not reach a safety net sooner
TIMER, TIMER_SIGNAL = signal.ITIMER_PROF, signal.SIGPROF
#: whether a time limit is in force (the alarm handler raises only then; cleared first thing on leaving)
_ARMED = {"on": False, "refires": 0}
#: how often the alarm fires again when its Timeout landed where it was swallowed, and at most how many times
REFIRE_SECONDS, REFIRES = 0.5, 5


def _handler(signum: int, frame: Any) -> None:
    if not _ARMED["on"]:
        return
    if _ARMED["refires"] < REFIRES:   # again later, in case this one lands where it is ignored
        _ARMED["refires"] += 1
        signal.setitimer(TIMER, REFIRE_SECONDS)
    if frame is not None and "gc" in frame.f_code.co_name:
        return  # a garbage-collector callback would swallow it
    raise Timeout()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Timeout in the body after `seconds` of the process's CPU time (main thread only; elsewhere no limit). Prefer
    :func:`run_limited`, which also stops an alarm that fires again while the Timeout unwinds.

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
    old = signal.signal(TIMER_SIGNAL, _handler)
    _ARMED.update(on=True, refires=0)
    signal.setitimer(TIMER, seconds)
    try:
        yield
    finally:
        _ARMED["on"] = False
        signal.setitimer(TIMER, 0)
        signal.signal(TIMER_SIGNAL, old)


def run_limited(fn: Any, seconds: float) -> tuple[Any, bool]:
    """(fn(), False), or (None, True) when it took over `seconds` of the process's CPU time (a backstop).

    >>> run_limited(lambda: 1 + 1, 1.0)
    (2, False)
    """
    try:
        with time_limit(seconds):
            return fn(), False
    except Timeout:
        return None, True
    finally:
        _ARMED["on"] = False   # an alarm that fires again while the Timeout unwinds is ignored from here on


class OutcomeKind(Vocabulary):
    """What one instance gave, a closed vocabulary: held, its assumption false, skipped (too costly), failed, or
    undefined (the claim's language leaves a value undefined there).

    >>> OutcomeKind("skip") is OutcomeKind.SKIP, [str(k) for k in OutcomeKind]
    (True, ['held', 'assume', 'skip', 'fail', 'undef'])
    """

    HELD = "held"
    ASSUME = "assume"
    SKIP = "skip"
    FAIL = "fail"
    UNDEF = "undef"


class Outcome:
    """What one instance gave (its :class:`OutcomeKind`), with the counterexample of a failure or an undefined
    instance and the note of a skipped one. ``Outcome.HELD`` ... ``Outcome.UNDEF`` are the kinds' members.

    >>> o = Outcome("fail", Counterexample({"x": 1}, 0, 1))
    >>> o.kind is Outcome.FAIL is OutcomeKind.FAIL
    True
    >>> Outcome("maybe")
    Traceback (most recent call last):
    ValueError: 'maybe' is not a valid OutcomeKind
    """

    HELD, ASSUME, SKIP, FAIL, UNDEF = (OutcomeKind.HELD, OutcomeKind.ASSUME, OutcomeKind.SKIP, OutcomeKind.FAIL,
                                       OutcomeKind.UNDEF)

    def __init__(self, kind: OutcomeKind | str, cx: Counterexample | None = None, note: str = "",
                 env: dict | None = None):
        self.kind = OutcomeKind(kind)
        self.cx = cx
        self.note = note
        self.env = env     # the instance evaluated (set by the sampler)


def too_large(exc: ResourceError) -> str:
    """The note of an instance the sampler drew that is over a limit: the limit's own words, without the advice
    meant for a window (the sampler chose the instance; it skips it and draws others).

    >>> too_large(ResourceError("g: more than 10 positions are reachable", hint="shrink the window or raise --max-positions"))
    'g: more than 10 positions are reachable, at an instance the sampler drew (skipped)'
    """
    kind = NoteKind.STEP_LIMIT if isinstance(exc, StepLimitError) else NoteKind.REMARK
    return Note(kind, f"{exc.message}, at an instance the sampler drew (skipped)")


def _undefined(bindings: dict, exc: Exception) -> Outcome:
    """An evaluation error: ill-defined mathematics, or (by the error's kind, :meth:`Counterexample.undefined_at`)
    only over a limit of the machine, an instance skipped.

    >>> _undefined({"x": 0}, EvalError("v2(0) is infinite (undefined)")).kind
    'undef'
    >>> _undefined({"x": 9}, ResourceError("a product would have about 10 bits")).kind
    'skip'
    """
    cx = Counterexample.undefined_at(bindings, exc)
    if cx.over_limit:
        return Outcome(Outcome.SKIP, note="too large to evaluate")
    return Outcome(Outcome.UNDEF, cx)


class HoldsEvaluator:
    """Evaluates a holds claim exactly at one binding.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml")
    >>> HoldsEvaluator(spec.claim("half").plan())({"x": 10 ** 30}).kind
    'held'
    """

    def __init__(self, plan: HoldsPlan):
        assert plan.window is not None, "a sampled claim has a window"
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
            return Outcome(Outcome.SKIP, note=too_large(exc))
        except EvalError as exc:
            return _undefined(bindings, exc)
        if ok:
            return Outcome(Outcome.HELD)
        lhs, rhs = plan.sides_at(env)
        return Outcome(Outcome.FAIL, Counterexample(bindings, lhs, rhs))


class AssumedCertificate(Certificate):
    """The local certificate of a claim with an assumption. The claim states nothing where its assumption is false
    (nor where it cannot be evaluated), so the formula labels only options where it holds, like options outside
    the domain: an option elsewhere is labelled by the engine, and when it is too large for the engine the
    certificate does not apply at that position (:class:`OutsideDomain`, the instance is skipped). A failure's
    re-evaluation looks only at positions where the claim speaks, so a counterexample always satisfies the
    assumption.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> claim = spec.claims[0]; plan = claim.plan()
    >>> cert = AssumedCertificate(plan, {}, game_kind(plan))
    >>> cert.inside(3), cert.check(10) is None
    (True, True)
    """

    def inside(self, pos: Any) -> bool:
        if not super().inside(pos):
            return False
        if self.plan.assume is None:
            return True
        try:
            return bool(self.plan.assume(self.env_at(pos)))
        except EvalError:
            return False

    def engine_labels(self, positions: list) -> dict:
        try:
            return super().engine_labels(positions)
        except OutsideDomain:
            raise OutsideDomain("an option lies outside the claim's domain or its assumption "
                                f"({self.claim.assume_text}) and is too large for the engine: the formula may not "
                                "judge it, and the certificate does not apply there") from None


class GameEvaluator:
    """Judges a game claim at one position by the local certificate (:class:`AssumedCertificate`: the formula is
    taken only where the claim speaks)."""

    def __init__(self, plan: GrundyPlan | SetPlan, profile: str, ctx: z3.Context):
        claim = claim_of(plan)
        self.claim = claim
        self.ctx = ctx   # the Z3 context of the point searches (the claim's: checkers.context)
        self.plan = plan
        self.profile = profile
        assert plan.window is not None, "a sampled claim has a window"
        self.names = plan.window.names
        self.coords = plan.coords
        self._certs: dict = {}
        self._solvers: dict = {}
        self._ends: dict = {}     # parameter values -> every play of the game ends (proved), asked on a failure
        self.symbolic = 0
        self.why_not_symbolic = ""
        self.options = 0   # options listed (and labelled) so far: the work of the listed certificates, a count
        self.box: int | None = None   # positions up to this value on every coordinate are judged by the table
        self.by_engine = 0            # ... of an engine of P-positions: how many were

    @property
    def units(self) -> int:
        """The Z3 resource units the point searches have spent so far (a count)."""
        return sum(ps.units for ps in self._solvers.values() if ps is not None)

    def certificate(self, params: dict) -> Certificate:
        key: tuple | None = tuple(sorted(params.items(), key=lambda kv: kv[0]))
        try:
            cert = self._certs.get(key)
        except TypeError:
            key, cert = None, None
        if cert is None:
            kind = game_kind(self.plan)
            assert kind is not None, "a game claim is judged by its local certificate"
            cert = AssumedCertificate(self.plan, params, kind)
            if key is not None:
                self._certs[key] = cert
        return cert

    def use_outcome_table(self, top: int) -> bool:
        """For a P-position claim on a game with no parameters: when an engine of P-positions fills the table of
        the box [0, top] (once), judge every drawn position in it by that table, the moves' ground truth, instead
        of the local certificate (whose options beyond the window are too many to list). Whether it does."""
        if not isinstance(self.plan, PPositionsPlan) or any(n not in self.coords for n in self.names):
            return False
        try:
            inst = self.certificate({}).inst
            if not outcome_box(inst, top, active_engine()):
                return False
        except (EvalError, SpecError, ResourceError):
            return False
        self.box = top
        return True

    def p_positions(self) -> np.ndarray:
        """The P-positions of the engine's table (one row each), after :meth:`use_outcome_table`."""
        if self.box is None:
            return np.zeros((0, len(self.coords)), dtype=np.int64)
        grid = np.indices((self.box + 1,) * len(self.coords), dtype=np.int64).reshape(len(self.coords), -1)
        found = outcomes_fast(self.certificate({}).inst, list(grid), active_engine())
        return grid[:, found].T if found is not None else np.zeros((0, len(self.coords)), dtype=np.int64)

    def _engine_outcome(self, cert: Certificate, pos: Any) -> bool | None:
        """Whether `pos` is a P-position by the engine's table (None: outside the box, or no table)."""
        if self.box is None or cert.kind != Mode.P:
            return None
        at = pos if isinstance(pos, tuple) else (pos,)
        if any(type(c) is not int or not 0 <= c <= self.box for c in at):
            return None
        found = outcomes_fast(cert.inst, [np.array([c], dtype=np.int64) for c in at], active_engine())
        return None if found is None else bool(found[0])

    def solver(self, cert: Certificate) -> PointSolver | None:
        key = id(cert)
        if key not in self._solvers and self.plan.assume is not None:
            # Z3's search of the options shows that they lie in the domain, not that they satisfy the assumption:
            # the formula would judge options where the claim says nothing
            self.why_not_symbolic = ("too many options to list, and the point search cannot show that each "
                                     "satisfies the assumption")
            self._solvers[key] = None
        if key not in self._solvers:
            try:
                self._solvers[key] = PointSolver(cert, self.ctx)
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
            truth = self._engine_outcome(cert, pos)
            if truth is not None:
                self.by_engine += 1
                claimed = cert.labels_of(pos) == 0
                if claimed == truth:
                    return Outcome(Outcome.HELD)
                word = {True: "P", False: "N"}
                return Outcome(Outcome.FAIL, Counterexample(bindings, word[truth], word[claimed], detail={
                    "engine": "the table of the engine of P-positions (from the game's moves)"}))
            try:
                listed = count_options(cert.inst, pos, MAX_OPTIONS)
                self.options += listed if listed <= MAX_OPTIONS else 0   # more are searched by Z3 (counted in units)
                failure = cert.check(pos)
            except TooManyOptions:
                ps = self.solver(cert)
                if ps is None:
                    return Outcome(Outcome.SKIP, note="too many options" + (
                        " (the claim has an assumption the point search does not check at the options)"
                        if self.plan.assume is not None else ""))
                try:
                    failure = ps.check(pos)
                except Undecided as exc:   # neither held nor failed: skipped, with the reason
                    return Outcome(Outcome.SKIP, note=str(exc).replace(f" at {format_value(pos)}", " at a position"))
                self.symbolic += 1
        except Untranslatable as exc:
            self.why_not_symbolic = str(exc)
            return Outcome(Outcome.SKIP, note=str(exc))
        except ResourceError as exc:
            return Outcome(Outcome.SKIP, note=too_large(exc))
        except EvalError as exc:
            return _undefined(bindings, exc)
        if failure is None:
            return Outcome(Outcome.HELD)
        detail = {"certificate": f"({failure.condition}) {failure.text}"}
        return Outcome(Outcome.FAIL, Counterexample(bindings, failure.label, None, reason=None, detail=detail))

    def plays_end(self, params: dict) -> bool:
        """Does every play of the declared game end on the claim's domain (proved by Z3, asked once per parameter
        values; :func:`checkers.prove.ending.plays_end`)?"""
        key = tuple(sorted(params.items()))
        if key not in self._ends:
            self._ends[key] = plays_end(self.plan, params) is not None
        return self._ends[key]

    def reevaluate(self, cx: Counterexample) -> Counterexample:
        """Ground truth by the engine near a certificate failure (when the position is small enough)."""
        if "engine" in cx.detail:
            return cx
        params = {n: cx.bindings[n] for n in self.names if n not in self.coords}
        cert = self.certificate(params)
        pos = tuple(cx.bindings[c] for c in self.coords) if len(self.coords) > 1 else cx.bindings[self.coords[0]]
        try:
            found = cert.reevaluate(pos, max_positions=200_000)
            why = "the engine's values agree with the claim at the position and its options"
        except (EvalError, SpecError, TooManyOptions) as exc:
            found, why = None, f"not re-evaluated ({exc})"
        if found is None and not small_position(pos, 200_000):
            why = "not re-evaluated (position too large for the engine)"
        if found is None:
            cx.detail["engine"] = why
            cx.confirmed = False
            # the claim's label here, against no value from the moves: the failure says the claim is wrong here or
            # at an option (condition (a) or (b) of the certificate), not what the value is
            label = cx.lhs
            cx.lhs = "not valued (the local certificate fails here or at an option)"
            cx.rhs = {Mode.GRUNDY: label, Mode.P: "P" if label == 0 else "N"}.get(cert.kind, label)
            if not (cert.inst.ends or self.plays_end(params)):  # the certificate judges only a game that ends
                cx.detail["unconfirmed"] = (f"the local certificate fails at {cx.position_text()}, but {why}, and "
                                            f"nothing shows that every play of {cert.inst.label} ends (its moves are "
                                            "declared): the failure shows nothing by itself")
            return cx
        q, actual, label = found
        b = dict(params)
        b.update({self.coords[0]: q} if len(self.coords) == 1 else dict(zip(self.coords, q)))
        b = {n: b[n] for n in self.names if n in b}
        shown = {Mode.GRUNDY: label, Mode.P: "P" if label == 0 else "N"}.get(cert.kind, label)
        truth = {Mode.GRUNDY: actual, Mode.P: "P" if actual == 0 else "N"}.get(cert.kind, actual)
        out = Counterexample(b, truth, shown, detail={**cx.detail, "grundy": actual, "engine": "re-evaluated by the engine"})
        return out
