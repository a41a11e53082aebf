"""The hypothesis driver of the sampler: the search over a domain (a failure shrinks to a small
counterexample), its settings (derandomized with CI=true), the example database under ``.nimjos/hypothesis``
keyed by the claim, and pinned instances (``sample = { pins = [...] }``), re-checked first on every run.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from checkers.sample.domain import build_domain
>>> from checkers.sample.evaluate import Outcome
>>> plan = spec.claims[0].plan()
>>> dom = build_domain(plan, plan.window, spec.namespace)
>>> search(spec.claims[0], "default", dom, lambda env, beyond: Outcome(Outcome.HELD), 10, 1.0, 0.0)
[]
"""
from __future__ import annotations

import ast
import hashlib
import os
import time
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import HypothesisException

from nimjos.lang.errors import SpecError
from nimjos.lang.values import format_value
from checkers.sample.domain import Domain, draw_env
from checkers.sample.evaluate import Outcome

class _Fail(AssertionError):
    """Raised inside the hypothesis test when an instance fails (hypothesis then shrinks it)."""


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



def _settings(claim: Any, count: int) -> Any:
    derand = in_ci()
    db = None if derand else DirectoryBasedExampleDatabase(str(data_dir() / "hypothesis"))
    return settings(max_examples=count, deadline=None, derandomize=derand, database=db,
                    suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])


def db_key(claim: Any, profile: str) -> bytes:
    """The key of a claim's examples in the hypothesis database (and the seed of its probes).

    >>> len(db_key(type("C", (), {"id": "c", "spec": type("S", (), {"path": "a/tiny.toml"})()})(), "default"))
    32
    """
    return hashlib.sha256(f"nimjos-sample|{Path(str(claim.spec.path)).name}|{claim.id}|{profile}".encode()).digest()



def search(claim: Any, profile: str, dom: Domain, run_one: Callable, count: int, seconds: float,
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
    return last
