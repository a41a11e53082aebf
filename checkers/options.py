"""The options of one run of the methods on a claim: profile, pins, limits, which methods, repair.

>>> RunOptions().profile, PROVE_SECONDS["default"]
('default', 10.0)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the prover's seconds per claim in each profile, unless --timeout or the spec's prove.timeout says otherwise:
#: the default run must stay within a few minutes, and a deep run gives Z3 the time a referee would wait
PROVE_SECONDS = {"default": 10.0, "deep": 30.0}


@dataclass
class RunOptions:
    profile: str = "default"
    max_counterexamples: int = 10
    pins: dict[str, Any] | None = None
    timeout: float | None = None  # None: PROVE_SECONDS of the profile
    methods: tuple[str, ...] | None = None  # None: every method that applies
    repair: bool = True  # search small edits of a refuted statement that hold on the window
    repair_seconds: float = 120.0
    extra: dict[str, Any] = field(default_factory=dict)
