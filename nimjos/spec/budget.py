"""The resource guard: before any table is built, estimate what checking a claim will cost -- instances of
the window, game positions reachable from it, options (edges), memory and time -- and refuse, quoting the
estimate, when it is over the limits.

The limit on positions is ``nimjos check --max-positions`` when given; otherwise it is sized to this machine
(the memory available to this process over the bytes a position costs in the engine that will answer, and
never above the engine's own default: :mod:`nimjos.spec.limits`). The estimate is cheap: bounds are evaluated
at the extreme values of the names bound before them (exactly counted when the window is small, never by
enumerating the window: :mod:`nimjos.spec.survey`); the game's reachable positions are estimated by
:mod:`nimjos.spec.reach`. This module puts the parts of a claim together and words the refusal.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from nimjos.spec.plan import plan_claim
>>> e = estimate(plan_claim(spec.claims[0]))
>>> (e.instances, e.positions, e.edges)
(21, 21, 210)
>>> enforce_limits(plan_claim(spec.claims[0])).over  # well within the limits: no refusal
''
"""
from __future__ import annotations

import ast
import functools
import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from nimjos.lang.errors import EvalError, NimjosError, ResourceError, SpecError
from nimjos.lang.compiler import compile_tree
from nimjos.lang.expr import evaluate
from nimjos.lang.syntax import free_names, parse
from nimjos.lang.values import format_value
from nimjos.spec.limits import BYTES_PER_ROW, MAX_SECONDS, SECONDS_PER_INSTANCE, available_bytes, position_limit
from nimjos.spec.plan import ClaimPlan, LevelSetPlan, PPositionsPlan, SetPlan, ValuesPlan, field_line, locate_error
from nimjos.spec.reach import GameLoad, game_load, instance_of
from nimjos.spec.survey import corners, count_bindings, count_filtered, survey

#: a window of at most this many bindings (counted with its filters) gives its positions to the game's load, which
#: then counts the positions reachable from them when the box of coordinates is large
REACH_STARTS = 20_000


@dataclass
class Estimate:
    """What checking a claim is expected to cost; `over` names the first limit it exceeds (or is empty)."""

    instances: int = 0
    positions: int = 0
    edges: int = 0
    bytes: int = 0
    seconds: float = 0.0
    limit: int = 0
    limit_source: str = ""
    over: str = ""
    where: str = ""
    #: the largest work beyond the window (what, how many, field), or for a runaway game (name, label, start, far,
    #: moves)
    extra: tuple[Any, ...] | None = None
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The estimate in words, for the refusal message.

        >>> Estimate(instances=10, positions=2000, edges=3000, bytes=2 << 20, seconds=90.0).describe()
        'about 10 instances, 2,000 positions, 3,000 options, 2.0 MiB of memory and 1.5 minutes'
        """
        return (f"about {self.instances:,} instances, {self.positions:,} positions, {self.edges:,} options, "
                f"{human_bytes(self.bytes)} of memory and {human_seconds(self.seconds)}")


def human_bytes(n: int) -> str:
    """Bytes in binary units.

    >>> human_bytes(512), human_bytes(3 << 30), human_bytes(10 ** 20)
    ('512 B', '3.0 GiB', '88,817.8 PiB')
    """
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024:
            return f"{int(value)} B" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{value:,.1f} PiB"


def human_seconds(s: float) -> str:
    """Seconds as a person would say them.

    >>> human_seconds(0.2), human_seconds(90), human_seconds(7200), human_seconds(3e9)
    ('0.2 seconds', '1.5 minutes', '2.0 hours', '95.1 years')
    """
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if s >= 2 * size if unit != "minutes" else s >= 60:
            return f"{s / size:,.1f} {unit}"
    return f"{s:.1f} seconds"


def _max_coords(envs: Iterable[dict], coords: tuple[str, ...]) -> list[int]:
    highs = [0] * len(coords)
    for e in envs:
        for j, c in enumerate(coords):
            v = e.get(c)
            if type(v) is int:
                highs[j] = max(highs[j], v)
    return highs


def _game_copies(plan: ClaimPlan, tree: ast.AST, sizes: dict[str, int], instances: int) -> int:
    names = [n for n in free_names(tree) if n in sizes]
    return max(1, min(instances, math.prod(sizes[n] for n in names))) if names else 1


def _g_calls(plan: ClaimPlan) -> list[tuple[str, ast.Call]]:
    """Calls G(game, position) and options(game, position) in the claim's expressions whose arguments use
    window names only (so they can be evaluated at the window's extremes)."""
    claim = plan.claim
    texts = [t if isinstance(t, str) else None for t in (claim.statement, claim.assume_text)]   # a table is no text
    return list(_g_calls_in(claim.kind, *texts))


@functools.lru_cache(maxsize=1024)
def _g_calls_in(kind: str, statement: str | None, assume: str | None) -> tuple[tuple[str, ast.Call], ...]:
    """:func:`_g_calls` of a claim's texts, parsed once per text (a correction's search estimates each candidate at
    every earlier counterexample: thousands of estimates of a few texts). The nodes are only read.

    >>> [(f, ast.unparse(c)) for f, c in _g_calls_in("holds", "G(g, n) == 0 and all(G(g, m) > 0 for m in range(n))", None)]
    [('holds', 'G(g, n)')]
    """
    out = []
    for fname, text in ((kind, statement), ("assume", assume)):
        if not isinstance(text, str):
            continue
        try:
            tree = parse(text)
        except SpecError:
            continue
        local = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Lambda):
                local |= {a.arg for a in node.args.args}
            if isinstance(node, ast.comprehension):
                local |= {t.id for t in ast.walk(node.target) if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("G", "options") \
                    and len(node.args) == 2 and not set(free_names(node)) & local:
                out.append((fname, node))
    return tuple(out)


def estimate(plan: ClaimPlan, pins: dict | None = None) -> Estimate:
    """Estimate the cost of checking a planned claim exhaustively, and which limit it exceeds.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "w.toml"
    >>> _ = p.write_text('[source]\\nid = "w"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 10**12"\\nholds = "n >= 0"\\n')
    >>> from nimjos.spec.plan import plan_claim
    >>> e = estimate(plan_claim(load_spec(p).claims[0]))
    >>> e.instances, e.over, e.where
    (1000000000001, 'time', 'for_all')
    """
    pins = pins or {}
    claim = plan.claim
    est = Estimate()
    ns = claim.spec.namespace
    loads: list[tuple[str, GameLoad]] = []
    sizes: dict[str, int] = {}
    envs: list[dict] = [{}]
    window_field = plan.window.where.get("field", "for_all") if plan.window is not None else "for_all"
    if plan.window is not None:
        try:
            window = survey(plan.window, {}, pins)
            est.instances, sizes, envs = window.count, window.sizes, window.corners
            if not window.exact and window.count > REACH_STARTS:
                # the product of the levels' sizes ignores the filters: count the bindings that pass them
                filtered = count_filtered(plan.window, {}, pins)
                if filtered is not None:
                    est.instances = filtered
                    est.notes.append(f"the window counted with its filters: {filtered:,} instances")
            starts = _window_envs(plan, pins, est.instances)
        except EvalError:  # the enumeration will report it, at the binding where it happens
            return est
        except SpecError as exc:
            raise exc.located(**plan.window.where) from None
        est.seconds += est.instances * SECONDS_PER_INSTANCE
    else:
        starts = None
    if plan.game is not None and not isinstance(plan, ValuesPlan) and plan.coords:
        gtree = parse(plan.game_text)
        highs = _max_coords(envs, plan.coords)
        inst = next((i for i in (instance_of(_safe(plan.game, e)) for e in envs) if i is not None), None)
        if inst is not None:
            positions = _positions(starts, plan.game, lambda e: tuple(e[c] for c in plan.coords)
                                   if len(plan.coords) > 1 else e[plan.coords[0]], inst)
            loads.append((window_field, game_load(inst, highs, _game_copies(plan, gtree, sizes, est.instances),
                                                  positions, outcomes=isinstance(plan, PPositionsPlan))))
        est.bytes += est.instances * BYTES_PER_ROW
    if isinstance(plan, ValuesPlan) and plan.game is not None:
        inst = instance_of(_safe(plan.game, {}))
        if inst is not None:
            loads.append(("values", game_load(inst, _table_highs(plan.values, inst.dim))))
    for fname, call in _g_calls(plan):
        variables = set(sizes)
        try:
            game_fn = compile_tree(call.args[0], ns, variables)
            pos_fn = compile_tree(call.args[1], ns, variables)
        except SpecError:
            continue
        insts = [(instance_of(_safe(game_fn, e)), _safe(pos_fn, e)) for e in envs]
        insts = [(i, p) for i, p in insts if i is not None and p is not None]
        if not insts:
            continue
        highs = [0] * insts[0][0].dim
        for _, p in insts:
            for j, c in enumerate(p if isinstance(p, tuple) else (p,)):
                if j < len(highs) and type(c) is int:
                    highs[j] = max(highs[j], c)
        positions = _positions(starts, game_fn, lambda e: evaluate(pos_fn, e), insts[0][0])
        loads.append((fname, game_load(insts[0][0], highs, _game_copies(plan, call.args[0], sizes, est.instances),
                                       positions)))
    for _, load in loads:
        if load.counted:
            est.notes.append(f"{load.positions:,} positions counted by following the moves from the window")
        est.positions += load.positions
        est.edges += load.edges
        est.bytes += load.bytes
        est.seconds += load.seconds
    worst, heaviest = max(loads, key=lambda fl: fl[1].positions) if loads else ("", None)
    away = next(((f, load.runaway) for f, load in loads if load.runaway), None)
    est.limit, est.limit_source = position_limit(heaviest.bytes_per_position if heaviest else 1)
    # what exceeds the limit, in the order a person would fix it
    try:
        work = est.extra = _extra_work(plan, envs, pins)
    except EvalError:
        work = None
    except SpecError as exc:
        raise exc.located(**(plan.levels.where if isinstance(plan, LevelSetPlan) else {})) from None
    stores_rows = plan.game is not None and not isinstance(plan, ValuesPlan)
    if away is not None:
        est.over, est.where, est.extra = "runaway", away[0], away[1]
    elif est.instances > est.limit and (stores_rows or est.limit_source == "--max-positions"):
        est.over, est.where = "window", window_field
    elif work is not None and work[1] > est.limit:
        est.over, est.where = work[0], work[2]
    elif est.positions > est.limit:
        est.over, est.where = "positions", worst
    elif est.bytes > available_bytes():
        est.over, est.where = "memory", worst or window_field
    elif est.seconds > MAX_SECONDS:
        est.over, est.where = "time", worst or (window_field if plan.window is not None else claim.kind)
    return est


def _window_envs(plan: ClaimPlan, pins: dict, count: int) -> list[dict] | None:
    """Every binding of a window of at most REACH_STARTS instances (copies), else None."""
    if count > REACH_STARTS or plan.window is None:
        return None
    out = []
    for env in plan.window.bindings({}, pins):
        out.append(dict(env))
        if len(out) > REACH_STARTS:
            return None
    return out


def _positions(envs: list[dict] | None, game_fn: Any, position: Any, inst: Any) -> list | None:
    """The positions of `inst` a window's bindings name (None when some binding names another game instance or
    a position that cannot be evaluated: then the box of coordinates stands)."""
    if envs is None:
        return None
    out = []
    for env in envs:
        if instance_of(_safe(game_fn, env)) is not inst:
            return None
        try:
            out.append(position(env))
        except (NimjosError, KeyError, TypeError, ValueError, ArithmeticError):
            return None
    return out


def _safe(fn: Any, env: dict) -> Any:
    try:
        return evaluate(fn, env)
    except NimjosError:
        return None
    except (TypeError, ValueError, KeyError, ArithmeticError):
        return None


def _table_highs(values: dict, dim: int) -> list[int]:
    start = values.get("from", 0)
    table = values.get("grundy") or []
    starts = start if isinstance(start, list) else [start] * dim
    if dim == 1:
        return [int(starts[0]) + len(table) - 1]
    longest = max((len(r) for r in table if isinstance(r, list)), default=0)
    return [int(starts[0]) + len(table) - 1, int(starts[1]) + longest - 1][:dim]


def _extra_work(plan: ClaimPlan, envs: list[dict], pins: dict) -> tuple[str, int, str] | None:
    """(what, how many, field) of the largest work beyond the window: levels of a level_set, points of a
    family of p_positions or level_set."""
    worst = None
    if isinstance(plan, LevelSetPlan) and plan.window is not None:
        n = max((count_bindings(plan.levels, e)[0] for e in envs[:8]), default=0)
        worst = ("levels", n * max(1, survey(plan.window, {}, pins).count), "levels")
    level_envs = envs
    if isinstance(plan, LevelSetPlan):
        level_envs = [c for e in envs[:8] for c in corners(plan.levels, e)]
    edge = max((v for e in envs for v in e.values() if type(v) is int), default=0) + 1
    for i, fam in enumerate(plan.families or () if isinstance(plan, SetPlan) else ()):
        n = 0
        for e in level_envs[:16]:
            try:
                n = max(n, count_bindings(fam.binder, e, unbounded=edge)[0])
            except (EvalError, SpecError):  # the checker reports a family it cannot enumerate
                continue
        if worst is None or n > worst[1]:
            worst = ("family", n, f"{plan.claim.kind}[{i}]")
    return worst


def enforce_limits(plan: ClaimPlan, pins: dict | None = None) -> Estimate:
    """Refuse, with :class:`~nimjos.lang.errors.ResourceError` quoting the estimate, a check over the limits;
    otherwise return the estimate.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "w.toml"
    >>> _ = p.write_text('[source]\\nid = "w"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 10**12"\\nholds = "n >= 0"\\n')
    >>> from nimjos.spec.plan import plan_claim
    >>> enforce_limits(plan_claim(load_spec(p).claims[0]))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.ResourceError: ...w.toml:5: claim 'c', field 'for_all': the check would take about 231.5 days, ...
    """
    est = estimate(plan, pins)
    if not est.over or (est.over == "runaway" and plan.loopy):
        # a loopy game's graph may be infinite: its window explores a counted part of it and leaves out, saying
        # so, the positions whose values that part cannot decide (checkers/window/loopy.py)
        return est
    claim = plan.claim
    limit = f"the limit of {est.limit:,} positions ({est.limit_source})"
    what = {
        "window": f"the window has about {est.instances:,} instances, over {limit}",
        "positions": f"about {est.positions:,} game positions are reachable from the window, over {limit}",
        "memory": f"the check needs about {human_bytes(est.bytes)} of memory, more than the "
                  f"{human_bytes(available_bytes())} available",
        "time": f"the check would take about {human_seconds(est.seconds)}, over the limit of "
                f"{human_seconds(MAX_SECONDS)}",
    }.get(est.over)
    if est.over == "runaway":
        assert est.extra is not None, "a runaway estimate names the game"
        name, label, start, far, moves = est.extra
        raise locate_error(claim, ResourceError(
            f"the moves of {label} lead from {format_value(start)} to {format_value(far)} in {moves} moves, far "
            f"beyond the window: the game may never end, and its positions cannot be bounded",
            hint="every move must lead to a smaller position; check 'to' and 'where'",
            item=f"game '{name}'", field="moves"))
    if what is None:
        assert est.extra is not None, "an estimate over its limit beyond the window says what is over"
        _, n, _ = est.extra
        noun = "level and instance pairs" if est.over == "levels" else "points in the family"
        what = f"about {n:,} {noun}, over {limit}"
    hint = "shrink the window" if est.over in ("memory", "time") else "shrink the window or raise --max-positions"
    if claim.assume_text:
        # the estimate counts the window's bounds: an assumption that keeps few instances is not seen
        hint += "; the estimate does not count 'assume': write a restrictive assumption as bounds of for_all"
    raise ResourceError(f"{what}; estimate: {est.describe()}",
                        hint=hint, file=str(claim.spec.path), item=claim.label,
                        field=est.where, line=field_line(claim, est.where))
