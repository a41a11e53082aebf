"""Where a sampler's draws go besides uniform integers: structured values and both sides of a set claim.

*Structured values* are where statements break: powers of two and their neighbours (2^j - 1, 2^j, 2^j + 1),
multiples of the moduli of the claim's expressions (the constants c of ``% c`` and ``// c``) times powers of
two, and their neighbours, and the values just beyond the window's edge (:func:`structured`).

*Both sides* of a set claim (``p_positions``, ``level_set``): a uniform draw almost never lands in a thin set
(a P-position of four large heaps, say), so the claim's condition (b) would be the only one tested.
:class:`Members` finds positions the claim puts inside a set by Z3, near a drawn point: the high bits of each
coordinate stay as drawn, the low :data:`FREE_BITS` bits are solved for. Z3 runs under a resource limit
(``rlimit``), not a timeout, so what it finds does not depend on the machine's load.

>>> structured(0, 40, [3], 20)
[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 21, 22, 23, 24, 25, 31, 32, 33, 40]
>>> from nimjos.spec.names import spec_namespace
>>> from nimjos.lang.syntax import parse  # the example's expressions
>>> moduli([parse("x % 3 == 1 and y // 10 < x // 2**i"), parse("z % 3 > 0")], spec_namespace())
[3, 10]
"""
from __future__ import annotations

import ast
from typing import Any

import numpy as np
import z3

from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.compiler import compile_tree
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import copy_tree
from nimjos.spec.loader import claim_of
from nimjos.spec.plan import ClaimPlan, LevelSetPlan, SetPlan
from checkers.z3.budget import RLIMIT_PER_SECOND, Budget, check
from checkers.z3.solver import model_value
from checkers.z3.terms import Untranslatable
from checkers.z3.translate import Builder
from checkers.z3.world import choose_mode
from checkers.z3.steady import SteadySolver

#: a drawn coordinate below 2^FREE_BITS may move anywhere in [0, its value] when Z3 looks for a member near it
FREE_BITS = 8
#: Z3's resource limit per member search (a count of its steps: the same answer on a quiet or a loaded machine);
#: what the searches spend counts toward the sampler's SEARCH_UNITS of the claim
RLIMIT = 2_000_000
#: at most this many structured values per name (the rest are dropped, the largest first)
MAX_STRUCTURED = 600


def moduli(trees: list[ast.expr], ns: Any) -> list[int]:
    """The constants c > 1 of ``% c`` and ``// c`` in the expressions (sorted)."""
    out: set[int] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.FloorDiv)):
                try:
                    if variables_of(node.right, ns):
                        continue
                    c = compile_tree(node.right, ns)({})
                except (EvalError, SpecError, TypeError):
                    continue
                if type(c) is int and c > 1:
                    out.add(c)
    return sorted(out)


def structured(lo: int, hi: int, mods: list[int], window_hi: int | None) -> list[int]:
    """Structured values in [lo, hi]: see the module docstring (sorted, at most MAX_STRUCTURED)."""
    if hi < lo:
        return []
    vals = {lo, lo + 1, hi}
    top = max(hi, 1).bit_length()
    for j in range(top + 1):
        for c in [1, *mods]:
            m = c << j
            if m - 1 > hi:
                break
            vals.update((m - 1, m, m + 1))
    if window_hi is not None:
        vals.update((window_hi + 1, window_hi + 2))
    return sorted(v for v in vals if lo <= v <= hi)[:MAX_STRUCTURED]


class Members:
    """Positions a p_positions / level_set claim (written as a condition) puts inside a set, found by Z3.

    ``near(env)`` returns the env with its coordinates moved (within their magnitude) into the set (of level `level`
    for a level-set claim), or None when Z3 finds none within its resource limit or cannot translate the
    condition. Every position found is re-evaluated exactly by the caller (the certificate), so a wrong
    model can only cost a draw.
    """

    def __init__(self, plan: ClaimPlan, kind: str | None, ctx: z3.Context):
        claim = claim_of(plan)
        self.ctx = ctx   # the Z3 context of the search (the claim's: checkers.context)
        self.coords = tuple(plan.coords or ())
        self.ns = claim.spec.namespace
        self.lname = plan.level_names[0] if isinstance(plan, LevelSetPlan) and plan.level_names else None
        self.ok = isinstance(plan, SetPlan) and plan.families is None and bool(self.coords)
        self.why_not = "" if self.ok else "the set is not written as a condition"
        self.tree = None
        self.mode = "int"
        if self.ok:
            try:
                assert isinstance(plan, SetPlan) and plan.formula is not None, "a set written as a condition"
                self.tree = copy_tree(plan.formula.tree)
                self.mode = choose_mode([self.tree], self.ns, exact=True)
            except SpecError as exc:
                self.ok, self.why_not = False, str(exc)
        self.found = 0
        self.units = 0   # Z3 resource units the member searches have spent (a count: the sampler's budget)
        self.plan = plan
        self.points: Any = None   # the claimed set's members known from an engine's table (one row a position)

    def use_points(self, points: Any) -> None:
        """Take the inside of a P-position claim from an engine's table (an array, one row per P-position):
        ``near`` then moves a draw to the nearest of them, with no Z3 search.

        >>> import numpy as np
        >>> m = Members.__new__(Members); m.coords, m.ok, m.found, m.lname = ("x", "y"), True, 0, None
        >>> m.use_points(np.array([[0, 0], [3, 5], [10, 2]]))
        >>> m.near({"x": 4, "y": 4})
        {'x': 3, 'y': 5}
        """
        self.points = points

    def levels(self, env: dict) -> list:
        """The levels of a level-set claim at the params of env (empty for a P-position claim)."""
        if self.lname is None or not isinstance(self.plan, LevelSetPlan):
            return []
        base = {n: v for n, v in env.items() if n not in self.coords}
        base.update({c: 0 for c in self.coords})
        try:
            return sorted(e[self.lname] for e in self.plan.levels.bindings(base))
        except (EvalError, SpecError, KeyError, TypeError):
            return []

    def near(self, env: dict, level: Any = None) -> dict | None:
        """A copy of env whose coordinates lie in the claim's set (see the class docstring), or None."""
        if not self.ok:
            return None
        if self.points is not None and self.lname is None:
            if not len(self.points):
                return None
            try:
                at = np.array([int(env[c]) for c in self.coords], dtype=np.int64)
            except (KeyError, TypeError, ValueError, OverflowError):
                return None
            best = self.points[int(np.abs(self.points - at).max(axis=1).argmin())]
            self.found += 1
            return dict(env, **{c: int(v) for c, v in zip(self.coords, best)})
        try:
            big = max(abs(int(env[c])) for c in self.coords)
        except (KeyError, TypeError, ValueError):
            return None
        bits = max(32, 2 * big.bit_length() + 16)
        tree = self.tree
        if tree is None:   # only when not ok: no condition to search
            return None
        try:
            b = Builder(self.ns, self.mode, bits, self.ctx)
            vs = [b.var(f"{c}!m") for c in self.coords]
            e = {n: v for n, v in env.items() if n not in self.coords}
            e.update(zip(self.coords, vs))
            if self.lname is not None:
                e[self.lname] = level
            want = b.formula(tree, e)
            ob, _ = b.obligation()
            s = SteadySolver(self.ctx)
            s.add(*b.assertions(), want, ob)
            for c, v in zip(self.coords, vs):
                d = max(0, int(env[c]))
                low = d >> 1 if d >> FREE_BITS else 0
                s.add(b.to_term(v) >= b.const(low), b.to_term(v) <= b.const(d))
            budget = Budget.seconds(RLIMIT / RLIMIT_PER_SECOND)
            answer = check(budget, s)
            self.units += budget.used
            if answer != z3.sat:
                return None
            m = s.model()
            out = dict(env)
            out.update(zip(self.coords, (model_value(m, v) for v in vs)))
        except (Untranslatable, SpecError, EvalError, z3.Z3Exception) as exc:
            self.ok, self.why_not = False, str(exc)
            return None
        self.found += 1
        return out
