"""Counting a binder's bindings without enumerating them: how many (exactly, when the outer levels are small),
each level's largest size, and the bindings at the extremes (each level at its least and greatest value),
found by evaluating the bounds at the extreme values of the names bound before them.

>>> from nimjos.lang.compiler import Namespace
>>> count_bindings(Binder.from_text("1 <= n <= 10**6 and 0 <= m <= n", Namespace()), {})
(1000001000000, False)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from nimjos.lang.binders import Binder, Level
from nimjos.lang.builtins import iter_items
from nimjos.lang.syntax import free_names, parse

#: at most this many extreme bindings are evaluated per binder
CORNERS = 64
#: at most this many bound evaluations are spent counting a window exactly
EXACT_BUDGET = 2_000
#: at most this many values are visited counting a window with its filters (:func:`count_filtered`)
FILTERED_BUDGET = 400_000


class _TooMany(Exception):
    pass


@dataclass
class Survey:
    """A binder's bindings in an env, found cheaply: how many (exactly, when that is cheap), each level's
    largest size, and the bindings at the extremes."""

    count: int
    exact: bool
    sizes: dict[str, int]
    corners: list[dict]


class _Surveyor:
    """Evaluates a binder's levels for :func:`survey`, each finite set of members once per distinct input."""

    def __init__(self, pins: dict, unbounded: int):
        self.pins = pins
        self.unbounded = unbounded
        self.members: dict = {}
        self.uses: dict[int, tuple[str, ...]] = {}

    def _members(self, level: Level, env: dict) -> list:
        uses = self.uses.get(id(level))
        if uses is None:
            uses = self.uses[id(level)] = tuple(free_names(parse(level.member_text or "0")))
        try:
            key = (id(level), tuple(env.get(n) for n in uses))
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self.members:
            return self.members[key]
        assert level.members is not None, "a level read by members is bound by 'in'"
        items = list(iter_items(level.members(env)))
        if key is not None:
            self.members[key] = items
        return items

    def values(self, level: Level, env: dict) -> tuple[int, Any] | None:
        """(how many values, the values or None when too many to list) of one level in `env`; None for a
        level with no upper bound."""
        pins = self.pins
        if level.members is not None:
            items = self._members(level, env)
            if level.name in pins:
                items = [v for v in items if v == pins[level.name]]
            return len(items), items
        if not level.highs:
            return None
        lo, hi = Binder.range_of(level, env)
        if level.name in pins:
            p = pins[level.name]
            return (1, [p]) if lo <= p <= hi else (0, [])
        n = max(0, hi - lo + 1)
        return n, (range(lo, hi + 1) if n <= EXACT_BUDGET else None)

    def count(self, levels: list[Level], i: int, env: dict, budget: list[int]) -> int:
        if i == len(levels):
            return 1
        got = self.values(levels[i], env)
        n, values = (self.unbounded, None) if got is None else got
        if i == len(levels) - 1:
            return n
        if values is None or n > budget[0]:
            raise _TooMany
        total = 0
        name = levels[i].name
        for v in values:
            budget[0] -= 1
            env[name] = v
            total += self.count(levels, i + 1, env, budget)
        return total

    def count_filtered(self, binder: Binder, i: int, env: dict, budget: list[int]) -> int:
        """The bindings of levels i.. that pass every filter, each value visited once (raises _TooMany when
        the visits exceed the budget)."""
        levels = binder.levels
        if i == len(levels):
            return 1
        level = levels[i]
        got = self.values(level, env)
        if got is None or got[1] is None or got[0] > budget[0]:
            raise _TooMany
        if i == len(levels) - 1 and not level.filters:
            # the innermost level without a filter: each of its values is one binding, visited as the loop below
            # would (the same count, the same visits charged)
            budget[0] -= got[0]
            if budget[0] < 0:
                raise _TooMany
            return got[0]
        total = 0
        for v in got[1]:
            budget[0] -= 1
            if budget[0] < 0:
                raise _TooMany
            env[level.name] = v
            if all(f(env) for f in level.filters):
                total += self.count_filtered(binder, i + 1, env, budget)
        return total

    def extremes(self, level: Level, envs: list[dict]) -> tuple[int, list[dict]]:
        """(the level's largest size over `envs`, the bindings extending each env by the level's least and
        greatest value), keeping at most :data:`CORNERS` bindings."""
        out: list[dict] = []
        largest = 0
        for e in envs:
            got = self.values(level, e)
            if got is None:
                lo = max(_low(fn(e), strict) for fn, strict in level.lows)
                largest = max(largest, self.unbounded)
                ends = [lo, lo + self.unbounded]
            else:
                n, values = got
                largest = max(largest, n)
                if n == 0:
                    continue
                if values is None:
                    ends = list(Binder.range_of(level, e))
                else:
                    values = list(values)
                    ends = [values[0], values[-1]]
            for v in dict.fromkeys(ends):
                out.append({**e, level.name: v})
        if len(out) > CORNERS:
            out = out[:CORNERS // 2] + out[-CORNERS // 2:]
        return largest, out


def _low(v: Any, strict: bool) -> int:
    v = v if type(v) is int else math.floor(v)
    return v + 1 if strict else v


def survey(binder: Binder, env: dict, pins: dict | None = None, unbounded: int = 0) -> Survey:
    """Survey a binder in `env`. The count ignores filters (an upper estimate); it is exact when the outer
    levels are small, otherwise the product of each level's largest size at the extremes. A level with no
    upper bound counts as `unbounded` values.

    >>> from nimjos.lang.compiler import Namespace
    >>> s = survey(Binder.from_text("1 <= n <= 60 and 1 <= m <= n", Namespace()), {})
    >>> s.count, s.exact, s.sizes
    (1830, True, {'n': 60, 'm': 60})
    >>> survey(Binder.from_text("0 <= x <= 10**12 and 0 <= y <= x", Namespace()), {}).count
    1000000000002000000000001
    """
    worker = _Surveyor(pins or {}, unbounded)
    sizes: dict[str, int] = {}
    envs = [dict(env)]
    product = 1
    for level in binder.levels:
        sizes[level.name], envs = worker.extremes(level, envs)
        product *= sizes[level.name]
    try:
        return Survey(worker.count(binder.levels, 0, dict(env), [EXACT_BUDGET]), True, sizes, envs)
    except _TooMany:
        return Survey(product, False, sizes, envs)


def corners(binder: Binder, env: dict, pins: dict | None = None, unbounded: int = 0) -> list[dict]:
    """Bindings at the extremes: each level at its least and greatest value (given the extremes chosen
    for the names before it); at most :data:`CORNERS` of them.

    >>> from nimjos.lang.compiler import Namespace
    >>> b = Binder.from_text("1 <= n <= 9 and 1 <= m <= n", Namespace())
    >>> [(e["n"], e["m"]) for e in corners(b, {})]
    [(1, 1), (9, 1), (9, 9)]
    """
    return survey(binder, env, pins, unbounded).corners


def count_bindings(binder: Binder, env: dict, pins: dict | None = None, unbounded: int = 0) -> tuple[int, bool]:
    """(number of bindings, exact?) of a binder in `env` (see :func:`survey`).

    >>> from nimjos.lang.compiler import Namespace
    >>> count_bindings(Binder.from_text("0 <= t <= 5 and s in {2, 3}", Namespace()), {})
    (12, True)
    """
    s = survey(binder, env, pins, unbounded)
    return s.count, s.exact


def count_filtered(binder: Binder, env: dict, pins: dict | None = None, budget: int = FILTERED_BUDGET) -> int | None:
    """The exact number of bindings of a binder in `env`, filters included, when visiting its values level by
    level takes at most `budget` visits (a count, not a time); None otherwise. The product of the levels' sizes
    can be far larger: sorted heaps ``0 <= a <= b <= 10 and a + b <= 10`` have 36 bindings, not 121.

    >>> from nimjos.lang.compiler import Namespace
    >>> count_filtered(Binder.from_text("0 <= a <= 10 and a <= b <= 10 and a + b <= 10", Namespace()), {})
    36
    >>> count_filtered(Binder.from_text("0 <= a <= 10**9", Namespace()), {}) is None
    True
    """
    worker = _Surveyor(pins or {}, 0)
    env = dict(env)
    if not all(f(env) for f in binder.pre_filters):
        return 0
    try:
        return worker.count_filtered(binder, 0, env, [budget])
    except _TooMany:
        return None
