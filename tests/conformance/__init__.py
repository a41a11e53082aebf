"""The conformance harness (issue 24, item 1): every backend that evaluates, translates or decides the expression
language agrees with the scalar language (:mod:`nimjos.lang.compiler`, the reference semantics) at points of the
class it claims to cover, or refuses with its own exception.

:mod:`tests.conformance.grammar` generates expressions, definitions and declared games (hypothesis strategies);
:mod:`tests.conformance.reference` evaluates them with the scalar language; the test files
``tests/conformance/test_conformance_*.py`` compare one backend each (vectorised, fast engines, Z3, Walnut).

The default (CI) mode is deterministic (``derandomize=True``, no example database) and small; the long mode
(``NIMJOS_CONFORMANCE=long``) draws many more examples with a random seed, for a nightly-style run
(docs/testing.md).

>>> budget(10, 1000) in (10, 1000)
True
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

#: the harness's mode: "long" (NIMJOS_CONFORMANCE=long) or "default"
MODE = "long" if os.environ.get("NIMJOS_CONFORMANCE", "").strip().lower() == "long" else "default"


def budget(default: int, long: int) -> int:
    """The number of examples of a test: `default` in CI's mode, `long` with NIMJOS_CONFORMANCE=long.

    >>> budget(5, 50) == (50 if MODE == "long" else 5)
    True
    """
    return long if MODE == "long" else default


def conformance_settings(default: int, long: int, shrink: bool = True) -> settings:
    """Hypothesis settings of a conformance test: a fixed seed and `default` examples in CI, a random seed and
    `long` examples in the long mode; no deadline (a backend's first call compiles or starts a JVM), no example
    database (a run never depends on the one before); `shrink=False` for tests whose examples are costly.

    >>> conformance_settings(3, 30).database is None
    True
    """
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if shrink else [])
    return settings(max_examples=budget(default, long), derandomize=MODE != "long", database=None, deadline=None,
                    phases=phases, print_blob=MODE == "long",
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large])
