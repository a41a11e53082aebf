"""The hypothesis driver of the sampler: the search over a domain (a failure shrinks to a small
counterexample), its settings, the example database and pinned instances (``sample = { pins = [...] }``),
re-checked first on every run.

The search is deterministic: its seed comes from the claim (:func:`db_key`), its length is a count of
examples where the claim's assumption holds (a draw where it is false is rejected and not counted; hypothesis
gives up after ten times as many rejections), and it ends early only when the caller's `stop` says so (a count spent, or the CPU-time safety net:
the reason is reported). The example database lives beside the results store (``<store folder>/hypothesis``);
a run without a store (``--no-store``) has none, and hypothesis's own cache (the constants it reads from the
source) goes to the system's temporary folder, never into the current directory.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from checkers.sample.domain import build_domain
>>> from checkers.sample.evaluate import Outcome
>>> plan = spec.claims[0].plan()
>>> dom = build_domain(plan, plan.window, spec.namespace)
>>> found = search(spec.claims[0], "default", dom, lambda drawn: Outcome(Outcome.HELD), 10, lambda: "", None)
>>> found.failures, found.stopped
([], '')
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import HypothesisException

from nimjos.spec.loader import Claim
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.values import format_value
from checkers.sample.domain import Domain, draw_env, fits, value_range
from checkers.sample.evaluate import Outcome
from nimjos.lang.syntax import literal_bindings

class _Fail(AssertionError):
    """Raised inside the hypothesis test when an instance fails (hypothesis then shrinks it)."""


def hypothesis_dir(store: Any) -> Path | None:
    """The folder of the example database: beside the results store, or None without a store.

    >>> hypothesis_dir("/tmp/x/.nimjos/results.sqlite").as_posix(), hypothesis_dir(None)
    ('/tmp/x/.nimjos/hypothesis', None)
    """
    if not store:
        return None
    return Path(str(store)).parent / "hypothesis"


def in_ci() -> bool:
    """True when the environment says CI (then every search is derandomized).

    >>> os.environ.get("CI", "").lower() in ("1", "true", "yes") or not in_ci()
    True
    """
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")



def parse_pin(text: str) -> dict:
    """A pinned instance written as ``"x=3, y=(1, 2)"``.

    >>> parse_pin("x=3, y=(1, 2)")
    {'x': 3, 'y': (1, 2)}
    """
    pins = literal_bindings(text)
    if pins is None:
        raise SpecError(f"a pinned sample is written 'x=3, y=4', got {text!r}", field="sample")
    return pins


def pin_line(bindings: dict) -> str:
    """The line to paste into a spec to re-check an instance first on every run.

    >>> pin_line({"x": 3, "y": 10 ** 20})
    'sample = { pins = ["x=3, y=100000000000000000000"] }'
    """
    return 'sample = { pins = ["' + ", ".join(f"{k}={format_value(v)}" for k, v in bindings.items()) + '"] }'



def _settings(count: int, folder: Path | None) -> Any:
    # hypothesis's own files (the constants it reads from the source) go beside the database, or to the
    # temporary folder: never into the current directory
    set_hypothesis_home_dir(folder if folder is not None else Path(tempfile.gettempdir()) / "nimjos-hypothesis")
    db = None if folder is None or in_ci() else DirectoryBasedExampleDatabase(str(folder))
    return settings(max_examples=count, deadline=None, derandomize=False, database=db,
                    suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])


class KeyedClaim(Protocol):
    """What the key of a claim's examples is made of: its id and its spec's file."""

    @property
    def id(self) -> str: ...

    @property
    def spec(self) -> Any: ...


def db_key(claim: KeyedClaim, profile: str) -> bytes:
    """The key of a claim's examples in the hypothesis database (and the seed of its search).

    >>> len(db_key(type("C", (), {"id": "c", "spec": type("S", (), {"path": "a/tiny.toml"})()})(), "default"))
    32
    """
    return hashlib.sha256(f"nimjos-sample|{Path(str(claim.spec.path)).name}|{claim.id}|{profile}".encode()).digest()


@dataclass
class Found:
    """What a search found: the shrunk failing outcome (at most one), and why it ended early ('' when it did not)."""

    failures: list = field(default_factory=list)
    stopped: str = ""


def search(claim: Claim, profile: str, dom: Domain, run_one: Callable, count: int, stop: Callable[[], str],
           store: Any) -> Found:
    """Run the hypothesis search of `count` examples (a failure is shrunk); it ends early, with the reason
    `stop()` gives, when that is not empty."""
    found = Found()
    state = {"failing": False}

    def body(data: Any) -> None:
        if found.stopped:
            return
        why = stop()
        if why:
            found.stopped = why
            return
        drawn = draw_env(data, dom)
        out = run_one(drawn)
        if out.kind == Outcome.ASSUME:
            reject()   # not counted among the `count` examples: a claim with an assumption gets `count` where it holds
        if out.kind in (Outcome.FAIL, Outcome.UNDEF):
            state["failing"] = True
            found.failures[:] = [out]
            raise _Fail(out.kind)

    folder = hypothesis_dir(store)
    test = _settings(count, folder)(given(st.data())(body))
    # the claim's seed, set as hypothesis's seed() does but keeping the example database (seed() drops it)
    test._hypothesis_internal_use_seed = int.from_bytes(db_key(claim, profile)[:8], "big")
    test._hypothesis_internal_database_key = db_key(claim, profile)
    try:
        test()
    except _Fail:
        pass
    except HypothesisException:  # gave up (every draw rejected) or a replay ran out of time: keep what was found
        pass
    except BaseExceptionGroup as group:  # a flaky replay reports the failures it saw
        if not group.subgroup(lambda e: isinstance(e, (_Fail, HypothesisException))):
            raise
    if found.failures:
        found.stopped = ""   # a failure is exact whenever it was found
    return found


def tighten(dom: Domain, env: dict, fails: Callable[[dict], bool], budget: int = 200) -> dict:
    """A failing instance with each integer name made as small in magnitude as bisection finds (hypothesis's shrink
    can stop at a structured value such as 2^10 - 1; a negative value moves towards 0, a non-negative one towards
    its least value >= 0): every step is re-evaluated, so the result fails too; `budget` caps the evaluations.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> from checkers.sample.domain import build_domain
    >>> plan = spec.claims[0].plan()
    >>> tighten(build_domain(plan, plan.window, spec.namespace), {"x": 1023}, lambda e: e["x"] >= 1000)
    {'x': 1000}
    """
    env = dict(env)

    def ok(name: str, value: int) -> bool:
        trial = dict(env, **{name: value})
        return fits(dom, trial) and dom.in_domain(trial) and fails(trial)

    for nd in dom.names:
        v = env.get(nd.name)
        if nd.level.members is not None or isinstance(v, bool) or not isinstance(v, int):
            continue
        try:
            lo = value_range(nd, dom, env)[0]
        except (EvalError, SpecError, TypeError, KeyError, ZeroDivisionError):   # leave the name as it is
            continue
        if v < 0:   # a negative value is made small in magnitude: towards 0 (or the least value drawn above it)
            lo, hi = v, -1
            while lo < hi and budget > 0:
                mid = (lo + hi + 1) // 2
                budget -= 1
                if ok(nd.name, mid):
                    lo = mid
                else:
                    hi = mid - 1
            env[nd.name] = lo
            continue
        lo, hi = max(lo, 0), v
        while lo < hi and budget > 0:
            mid = (lo + hi) // 2
            budget -= 1
            if ok(nd.name, mid):
                hi = mid
            else:
                lo = mid + 1
        env[nd.name] = hi
    return env
