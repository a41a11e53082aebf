"""nimjos: check the closed forms printed in papers on impartial games and the Josephus problem.

The small public API: load a spec and check its claims.

>>> import nimjos, pathlib
>>> spec = nimjos.load_spec(pathlib.Path(nimjos.__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> [(c.id, nimjos.check_claim(c).final.verdict) for c in spec.claims]
[('nim1-grundy', 'proved')]
"""
from __future__ import annotations

__version__ = "0.1.0"

from nimjos.lang.errors import EvalError, NimjosError, ResourceError, SpecError
from nimjos.spec.loader import load_spec


def check_claim(claim, profile: str = "default", methods=None):
    """Run the verification methods on one loaded claim; return a ClaimResult (``.final`` is the verdict)."""
    from checkers.run import RunOptions, run_claim
    import nimjos.app.methods as _methods  # noqa: F401
    return run_claim(claim, RunOptions(profile=profile, methods=methods))


__all__ = ["load_spec", "check_claim", "SpecError", "EvalError", "ResourceError", "NimjosError", "__version__"]
