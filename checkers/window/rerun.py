"""Where a pinned instance (``--at``) lies, and the command that re-checks one instance: the window's words for a
person who re-runs a check.

>>> class C: id = "c"; spec = type("S", (), {"path": "s.toml"})()
>>> rerun_command(C(), "default", {"x": 5})
'nimjos check s.toml --claim c --at x=5'
"""
from __future__ import annotations

import shlex

from nimjos.lang.errors import SpecError
from nimjos.lang.values import format_value
from nimjos.spec.loader import Claim
from nimjos.spec.plan import ClaimPlan


def rerun_command(claim: Claim, profile: str, bindings: dict) -> str:
    """The command that re-checks exactly one instance.

    >>> class C: id = "c"; spec = type("S", (), {"path": "s.toml"})()
    >>> rerun_command(C(), "default", {"x": 0, "y": 2})
    'nimjos check s.toml --claim c --at x=0,y=2'
    >>> rerun_command(C(), "deep", {"y": (1, 2)})
    "nimjos check s.toml --claim c --at 'y=(1, 2)' --profile deep"

    A closed statement (no variables) has one instance, the claim itself: no ``--at``.

    >>> rerun_command(C(), "default", {})
    'nimjos check s.toml --claim c'
    """
    at = ",".join(f"{k}={format_value(v)}" for k, v in bindings.items())
    cmd = f"nimjos check {shlex.quote(str(claim.spec.path))} --claim {shlex.quote(claim.id)}"
    if at:
        cmd += f" --at {shlex.quote(at)}"
    if profile != "default":
        cmd += f" --profile {profile}"
    return cmd


def pinned_place(plan: ClaimPlan, pins: dict) -> str:
    """Where a pinned instance (``--at``) lies: "window" (an instance of the window), "domain" (beyond the window
    but inside the claim's domain: it is evaluated by itself), or "part" (the pins leave some of the window's names
    free: the window's instances with the pinned values). A point outside the domain is an error: the claim says
    nothing there.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan("default")
    >>> pinned_place(plan, {"x": 3}), pinned_place(plan, {"x": 10 ** 6})
    ('window', 'domain')
    >>> pinned_place(plan, {"x": -1})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: --at x=-1 is outside the claim's domain (domain 0 <= x): the claim says nothing there
    """
    if plan.window is None or any(n not in pins for n in plan.window.names):
        return "part"
    if next(iter(plan.window.bindings({}, pins)), None) is not None:
        return "window"
    if plan.domain is not None and not plan.domain.contains(dict(pins)):
        at = ", ".join(f"{k}={format_value(x)}" for k, x in pins.items())
        raise SpecError(f"--at {at} is outside the claim's domain ({plan.domain.describe()}): the claim says "
                        "nothing there")
    return "domain"
