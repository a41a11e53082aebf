"""The options of one run of the methods on a claim: profile, pins, limits, which methods, repair, the sharding
of the window, the sampler's limits, the results store and whether Walnut runs. Every option is a named, typed
field; an unknown one is an error, not a key nobody reads.

The verdicts of the methods that ran earlier on the claim are not options: the runner (checkers.run) passes
them to the later methods as parameters.

>>> RunOptions().profile, PROVE_SECONDS["default"]
('default', 10.0)
>>> RunOptions(sharding=Sharding(workers=4)).sharding.shards_for_workers()
4
>>> RunOptions(verdicts={})
Traceback (most recent call last):
...
TypeError: RunOptions.__init__() got an unexpected keyword argument 'verdicts'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from nimjos.words import Executor, Profile

#: the prover's seconds per claim in each profile, unless --timeout or the spec's prove.timeout says otherwise:
#: the default run must stay within a few minutes, and a deep run gives Z3 the time a referee would wait
PROVE_SECONDS: dict[str, float] = {Profile.DEFAULT: 10.0, Profile.DEEP: 30.0}

#: the executors a sharded window runs on: a local process pool, or a Dask cluster
EXECUTORS = tuple(Executor)


@dataclass(frozen=True)
class Sharding:
    """How the window of a claim is cut into shards and where they run (``--workers``, ``--shards``,
    ``--executor``, ``--scheduler``, ``--resume``); the default runs the window unsharded in this process.

    >>> Sharding(workers=2, shards=8).shards_for_workers()
    8
    """

    #: processes of the local pool (1: no pool)
    workers: int = 1
    #: how many shards to cut the window into (None: at least 2, one per worker)
    shards: int | None = None
    #: "local" (a process pool) or "dask" (a cluster at `scheduler`)
    executor: Executor | str = Executor.LOCAL
    #: the Dask scheduler's address, tcp://HOST:PORT (executor "dask" only)
    scheduler: str | None = None
    #: reuse the shards an interrupted run already recorded in the results store
    resume: bool = False
    #: called as each shard finishes, with (claim, shard result, number of shards): the CLI's progress line
    progress: Callable[[Any, Any, int], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise ValueError(f"unknown executor {self.executor!r} (one of {', '.join(EXECUTORS)})")
        object.__setattr__(self, "executor", Executor(self.executor))

    def wanted(self) -> bool:
        """Is the window to be cut at all (more than one worker, or a cluster)?

        >>> Sharding().wanted(), Sharding(workers=2).wanted(), Sharding(executor="dask").wanted()
        (False, True, True)
        """
        return self.workers > 1 or self.executor == "dask"

    def shards_for_workers(self) -> int:
        """The number of shards asked for: `shards`, else at least 2 and one per worker.

        >>> Sharding(shards=8).shards_for_workers(), Sharding().shards_for_workers()
        (8, 2)
        """
        return self.shards or max(2, self.workers)


@dataclass(frozen=True)
class SamplingLimits:
    """The sampler's limits for a run, each None where the spec's ``sample`` table or the sampler's default
    (checkers.sample.method: EXAMPLES, SAFETY_SECONDS, SEARCH_UNITS) decides.

    >>> SamplingLimits(examples=40).examples, SamplingLimits().units is None
    (40, True)
    """

    #: how many instances to draw (the spec's sample.count wins)
    examples: int | None = None
    #: the safety net of the search, in seconds of CPU time (the spec's sample.seconds wins); never a verdict
    seconds: float | None = None
    #: Z3 resource units the point searches of one claim may spend
    units: int | None = None


@dataclass(frozen=True)
class RunOptions:
    """The options of one run of the methods on a claim (see the module docstring).

    >>> RunOptions(profile="deep", methods=("exhaustive",)).methods
    ('exhaustive',)
    """

    #: "default" or "deep": the windows, limits and solver budgets of the run
    profile: Profile | str = Profile.DEFAULT
    #: counterexamples kept per method (smallest first)
    max_counterexamples: int = 10
    #: a pinned re-run (``--at``): exactly these values, only the window method
    pins: dict[str, Any] | None = None
    #: the prover's seconds per claim (None: PROVE_SECONDS of the profile)
    timeout: float | None = None
    #: the methods to run by name (None: every method that applies)
    methods: tuple[str, ...] | None = None
    #: search small edits of a refuted statement that hold on the window
    repair: bool = True
    repair_seconds: float = 120.0
    #: the results store's SQLite file (the shards of a resumable run, the sampler's example database); None: none
    store: str | None = None
    #: try Walnut before Z3 in the prover (False: Z3 only)
    walnut: bool = True
    sharding: Sharding = field(default_factory=Sharding)
    sampling: SamplingLimits = field(default_factory=SamplingLimits)

    def __post_init__(self) -> None:
        if self.profile not in tuple(Profile):
            raise ValueError(f"unknown profile {self.profile!r} (one of {', '.join(Profile)})")
        object.__setattr__(self, "profile", Profile(self.profile))
