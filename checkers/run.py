"""Run every applicable method on a claim and pick the verdict it earned.

Methods register themselves in :data:`METHODS` (name -> callable(claim, options) -> Verdict or None, where
None means "does not apply"); the exhaustive method always applies.

>>> sorted(METHODS)[:1]
['exhaustive']
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from checkers.exhaustive import check_exhaustive
from nimjos.lang.errors import NimjosError

from nimjos.verdict import STRENGTH, Verdict


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
    repair_seconds: float = 20.0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ClaimResult:
    claim: Any
    verdicts: list[Verdict]
    repairs: list = field(default_factory=list)

    @property
    def final(self) -> Verdict:
        """The verdict the claim earned, never stronger than its methods justify.

        A refutation (then ill-definedness) by any method wins; `proved` beats the window; `sampled` counts
        only when the exhaustive window also held; `inconclusive` answers never override the window.
        """
        return pick_final(self.verdicts)


def pick_final(verdicts: list) -> Any:
    """The verdict a claim earned from its methods' verdicts (objects or dicts with `verdict` and
    `method`): a refutation, then ill-definedness, by any method wins; `proved` beats the window;
    `sampled` counts only when the exhaustive window also held; `inconclusive` never overrides the window.

    >>> pick_final([{"verdict": "checked", "method": "exhaustive"}, {"verdict": "sampled", "method": "sample"}])
    {'verdict': 'sampled', 'method': 'sample'}
    """
    def word(v: Any) -> str:
        return v["verdict"] if isinstance(v, dict) else v.verdict

    def method(v: Any) -> str:
        return v["method"] if isinstance(v, dict) else v.method

    by_word: dict[str, list] = {}
    for v in verdicts:
        by_word.setdefault(word(v), []).append(v)
    for w in ("refuted", "ill-defined"):
        if w in by_word:
            exhaustive = [v for v in by_word[w] if method(v) == "exhaustive"]
            return (exhaustive or by_word[w])[0]
    window = next((v for v in verdicts if method(v) == "exhaustive"), None)
    if "proved" in by_word:
        return by_word["proved"][0]
    if window is not None and word(window) == "checked" and "sampled" in by_word:
        return by_word["sampled"][0]
    if window is not None:
        return window
    return max(verdicts, key=lambda v: STRENGTH[word(v)])


def _exhaustive(claim: Any, opts: RunOptions) -> Verdict:
    workers = opts.extra.get("workers", 1)
    executor = opts.extra.get("executor", "local")
    if opts.pins is None and (workers > 1 or executor == "dask"):
        from checkers.shard import ShardLog, run_sharded, shard_plan
        ranges = shard_plan(claim, opts.profile, opts.extra.get("shards") or max(2, workers))
        if ranges is not None:
            path = str(claim.spec.path)
            log = ShardLog(opts.extra["store"]) if opts.extra.get("store") else None
            key = (path, claim.spec.sha256, claim.id, opts.profile, tuple(ranges))
            done = log.load(key) if (log and opts.extra.get("resume")) else {}
            progress = opts.extra.get("progress")

            def on_shard(res: Any, total: int) -> None:
                if log:
                    log.save(key, res)
                if progress:
                    progress(claim, res, total)
            try:
                return run_sharded(path, claim.id, opts.profile, shards=len(ranges), workers=workers,
                                   executor=executor, scheduler=opts.extra.get("scheduler"),
                                   max_counterexamples=opts.max_counterexamples, on_shard=on_shard, skip=done,
                                   ranges=ranges)
            finally:
                if log:
                    log.close()
    return check_exhaustive(claim, opts.profile, opts.max_counterexamples, opts.pins)


METHODS: dict[str, Callable[[Any, RunOptions], Verdict | None]] = {"exhaustive": _exhaustive}


def register_method(name: str, fn: Callable[[Any, RunOptions], Verdict | None]) -> None:
    """Add a verification method (used by the sampling and proving checkers)."""
    METHODS[name] = fn


def run_claim(claim: Any, opts: RunOptions | None = None) -> ClaimResult:
    """Run the selected methods (default: all that apply) on one claim."""
    opts = opts or RunOptions()
    names = opts.methods or tuple(METHODS)
    verdicts: list[Verdict] = []
    # later methods see the earlier verdicts of this claim (the prover's soundness check reads the window's)
    opts = replace(opts, extra={**opts.extra, "verdicts": {}})
    for name in names:
        fn = METHODS.get(name)
        if fn is None:
            continue
        if opts.pins and name != "exhaustive":
            continue  # a pinned re-run checks exactly that instance
        if name == "exhaustive":
            v = fn(claim, opts)
        else:
            # a failure inside a method beyond the window must not lose the window's verdict: it is
            # reported as that method's inconclusive answer, with the error, never as a stronger word
            try:
                v = fn(claim, opts)
            except NimjosError:
                raise
            except Exception as exc:  # noqa: BLE001
                v = Verdict(claim.id, "inconclusive", name,
                            f"method failed: {type(exc).__name__}: {exc}"[:300])
        if v is not None:
            verdicts.append(v)
            opts.extra["verdicts"][name] = v
    result = ClaimResult(claim, verdicts)
    final = result.final if verdicts else None
    if opts.repair and not opts.pins and final is not None and final.verdict == "refuted":
        from checkers.repair import find_repairs
        result.repairs = find_repairs(claim, opts.profile, budget_seconds=opts.repair_seconds,
                                      counterexamples=final.counterexamples)
        final.evidence["repairs"] = [r.to_json() for r in result.repairs]
    return result
