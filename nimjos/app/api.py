"""The small public API: load a spec, check its claims.

>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> [(c.id, check_claim(c).final.verdict) for c in spec.claims]
[('nim1-grundy', 'proved')]
"""
from __future__ import annotations


from checkers.run import ClaimResult, RunOptions, run_claim
from nimjos.spec.loader import Claim, Spec, load_spec

__all__ = ["load_spec", "check_claim", "Spec", "Claim", "ClaimResult"]


def check_claim(claim: Claim, profile: str = "default", methods: tuple[str, ...] | None = None) -> ClaimResult:
    """Run the verification methods on one loaded claim (all that apply, or `methods`); ``.final`` is its verdict.

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> check_claim(spec.claims[0], methods=("exhaustive",)).final.verdict
    'checked'
    """
    return run_claim(claim, RunOptions(profile=profile, methods=methods))
