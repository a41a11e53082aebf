"""The per-claim context of a check: the state one claim's methods need (the engine with its position limit, the
evaluation budget, Z3 contexts), made once per claim by :func:`checkers.run.run_claim` and passed down to the
methods, so that no claim's verdict depends on which claims were checked before it in the same process.

What the language and the games reach from inside an evaluation (G() asks the engine, every loop step is
counted) is found through :meth:`CheckContext.installed`, which makes this claim's engine and budget the
active ones for the duration of the claim's check and restores the previous ones afterwards.

What stays per process, and why it cannot make one claim's verdict depend on another's: the run's settings
(``--max-positions`` on the process engine, which each claim's engine copies; Z3's fixed seeds); pure caches of
deterministic functions (the numba-compiled Josephus kernels, small elimination orders, F tables, parsed lambdas,
the Maximum Nim rule-function lemma proved in a Z3 context of its own, the specs a worker loaded). Shared still:
the game instances' tables of Grundy values (values from the moves, the same whoever computes them), but the
engine's limit on positions counts only the positions not yet in a table, and a claim's "ground truth" names the
engines that filled the tables of the games it asked, whichever claim asked first.

Python's cyclic garbage collector is off while a claim is checked (:func:`frees_in_order`): Z3 gives a new term
the id of a freed one, and its search depends on the ids, so a collection that frees a claim's terms at a moment
set by what the process allocated before (other claims, other tests) changed the units a query spent, and so a
verdict (000 ``thm-3.4-eq-15-all-i`` was proved for k = 10 in 1.6 million units after one history and in 6.1
million after another). With the collector off, a term is freed when its last reference goes, at the same point
of the same claim's check in every process. Z3's memory is the process's too: before a claim, garbage that still
holds Z3 memory is collected (:data:`LINGERING_Z3_BYTES`).

>>> a, b = CheckContext.for_claim(), CheckContext.for_claim()
>>> a.budget is b.budget, a.engine is b.engine
(False, False)
>>> a.solver_context().ctx == a.solver_context().ctx
False
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import gc
import itertools

import z3

from nimjos.games.engine import ReferenceEngine, default_engine, using_engine
from nimjos.lang.runtime import EvaluationBudget, using_budget

#: Z3 memory (bytes) held when no claim is checked beyond which garbage is collected before the next claim (a Z3
#: context alone allocates about 16 MB; the process holds about 0.2 MB between claims)
LINGERING_Z3_BYTES = 4 << 20


def fix_seeds() -> None:
    """Fixed random seeds for Z3's SMT and SAT engines (its defaults, stated): a setting of the process, the same
    for every claim.

    >>> fix_seeds()
    """
    z3.set_param("smt.random_seed", 0)
    z3.set_param("sat.random_seed", 0)


@contextmanager
def frees_in_order() -> Iterator[None]:
    """In the body, objects are freed only when their last reference goes, never by a collection of cycles at a
    moment that depends on the process's past (see the module docstring); the collector's state is restored after.
    The outermost call first frees the garbage that still holds Z3 memory (Z3's bit-blasting gives up past 100 MB
    of the process's Z3 memory, so a context another claim left to the collector changed which tactic decided a
    query).

    >>> with frees_in_order():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    if was and z3.Z3_get_estimated_alloc_size() > LINGERING_Z3_BYTES:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class SolverContext:
    """One proof attempt's Z3 context: the :class:`z3.Context` its terms and solvers are made in, the counter of
    its fresh names, and which functions Z3 showed to be rule functions in it
    (:func:`checkers.prove.rule_function.facts`). A claim's :class:`CheckContext` makes one per attempt, so that
    what Z3 decides does not depend on the terms made for other claims or attempts.

    >>> a, b = SolverContext(), SolverContext()
    >>> z3.Int("x", a.ctx).ctx == z3.Int("x", b.ctx).ctx, next(a.names), next(a.names), next(b.names)
    (False, 0, 1, 0)
    """

    def __init__(self) -> None:
        fix_seeds()
        self.ctx = z3.Context()
        self.names = itertools.count()
        self.rule_functions: dict = {}


@dataclass(frozen=True)
class CheckContext:
    """One claim's engine (a copy of the run's settings, ``--max-positions``, with a record of its own), its
    evaluation budget, and the Z3 contexts its proof attempts made (each attempt starts a new one)."""

    engine: ReferenceEngine
    budget: EvaluationBudget
    solver_contexts: list[SolverContext] = field(default_factory=list)

    @classmethod
    def for_claim(cls) -> "CheckContext":
        """A new context for one claim: the engine takes the process engine's settings, nothing of its record.

        >>> c = CheckContext.for_claim(); c.engine.max_positions == default_engine().max_positions, c.budget.spent
        (True, 0)
        """
        return cls(default_engine().for_claim(), EvaluationBudget())

    @contextmanager
    def installed(self) -> Iterator["CheckContext"]:
        """In the body, evaluations count against this claim's budget and G() asks this claim's engine.

        >>> from nimjos.lang.runtime import active_budget
        >>> c = CheckContext.for_claim()
        >>> with c.installed():
        ...     active_budget() is c.budget
        True
        >>> active_budget() is c.budget
        False
        """
        with using_budget(self.budget), using_engine(self.engine), frees_in_order():
            yield self

    def solver_context(self) -> SolverContext:
        """A new Z3 context (with its fresh-name counter and rule-function checks) for one proof attempt of this
        claim: what Z3 decides depends on the order terms were made, so each attempt starts from nothing.

        >>> c = CheckContext.for_claim(); s = c.solver_context(); c.solver_contexts == [s]
        True
        """
        made = SolverContext()
        self.solver_contexts.append(made)
        return made
