"""The resource guard: before any table is built, estimate what checking a claim will cost -- instances of
the window, game positions reachable from it, options (edges), memory and time -- and refuse, quoting the
estimate, when it is over the limits.

The limit on positions is ``nimjos check --max-positions`` when given; otherwise it is sized to this machine
(the memory available to this process over the bytes a position costs in the engine that will answer, and
never above the engine's own default). The estimate is cheap: bounds are evaluated at the extreme values of
the names bound before them (exactly counted when the window is small), never by enumerating the window.

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
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from nimjos.lang.binders import Binder, Level
from nimjos.lang.errors import EvalError, NimjosError, ResourceError, SpecError
from nimjos.lang.compiler import compile_tree
from nimjos.lang.expr import evaluate
from nimjos.lang.syntax import free_names, parse

from nimjos.spec.plan import ClaimPlan, field_line, locate_error
from nimjos.lang.values import format_value
import nimjos.games.engine as engine
from nimjos.lang.builtins import iter_items
from nimjos.games.declared import as_instance
import resource
import nimjos.games.fast.lines as lines

#: bytes one position costs in the reference engine (adjacency, Grundy table, graph node)
BYTES_PER_POSITION = 320
#: bytes one option (an edge of the game graph) costs in the reference engine
BYTES_PER_EDGE = 100
#: bytes the exhaustive checker keeps per window instance of a game claim (its row)
BYTES_PER_ROW = 250
#: seconds per window instance, per position and per edge (order of magnitude, for the message)
SECONDS_PER_INSTANCE = 2e-5
SECONDS_PER_POSITION = 1e-5
SECONDS_PER_EDGE = 1e-6
#: the longest check the guard lets start (a window that only costs time, not memory, is limited by this)
MAX_SECONDS = 24 * 3600
#: the probe for moves that lead away from the window: at most this many moves, options, and options per move
PROBE_STEPS = 2_000
PROBE_OPTIONS = 10_000
PROBE_DEGREE = 2_000
#: at most this many extreme bindings are evaluated per binder
CORNERS = 64
#: at most this many bound evaluations are spent counting a window exactly
EXACT_BUDGET = 2_000


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
    extra: tuple[str, int, str] | None = None
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


# ----------------------------------------------------------------------------- the machine

def available_bytes() -> int:
    """Memory this process may still use: the system's available memory, capped by an address-space limit.

    >>> available_bytes() > 0
    True
    """
    avail = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                avail = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            room = max(0, soft - _mapped_bytes())
            avail = room if avail is None else min(avail, room)
    except (ImportError, OSError, ValueError):
        pass
    return avail if avail is not None else 4 << 30


def _mapped_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def machine_max_positions(bytes_per_position: int = BYTES_PER_POSITION) -> int:
    """The default limit on positions: half the available memory over the cost of one position.

    >>> machine_max_positions(4) > machine_max_positions(400) > 0
    True
    """
    return max(1_000, available_bytes() // 2 // max(1, bytes_per_position))


def position_limit(bytes_per_position: int = BYTES_PER_POSITION) -> tuple[int, str]:
    """(limit, where it comes from): `--max-positions` when given, else sized to the machine and never above
    the engine's default.

    >>> limit, source = position_limit(); limit > 0 and source in ("--max-positions", "sized to this machine")
    True
    """
    current = engine.default_engine().max_positions
    if current != engine.MAX_POSITIONS:
        return current, "--max-positions"
    return min(engine.MAX_POSITIONS, machine_max_positions(bytes_per_position)), "sized to this machine"


# ----------------------------------------------------------------------------- counting bindings

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


# ----------------------------------------------------------------------------- games

def _instance(value: Any) -> Any:
    try:
        return as_instance(value)
    except NimjosError:
        return None


def _coordinate_bounds(inst: Any, highs: list[int]) -> list[int]:
    """The largest value each coordinate can take among the positions reachable from a window whose
    coordinates reach `highs`: a declared move may carry one coordinate's value into another."""
    decl = getattr(inst, "decl", None)
    bounds = list(highs)
    if decl is None:
        return bounds
    coords = list(decl.position)
    feeds: list[set[int]] = [set() for _ in coords]
    for fam in decl.moves:
        parts = fam.to_tree.elts if isinstance(fam.to_tree, ast.Tuple) else [fam.to_tree]
        where_names = set(free_names(fam.binder.tree))
        for j, part in enumerate(parts[:len(coords)]):
            names = set(free_names(part))
            if names & set(fam.binder.names):
                names |= where_names
            feeds[j] |= {coords.index(n) for n in names if n in coords}
    for _ in coords:
        bounds = [max([bounds[j]] + [bounds[k] for k in feeds[j]]) for j in range(len(coords))]
    return bounds


def _degree(inst: Any, position: Any) -> int:
    """How many options a position has (estimated from the move families' bindings, without listing them)."""
    decl = getattr(inst, "decl", None)
    if decl is not None:
        env = dict(inst.params)
        values = position if isinstance(position, tuple) else (position,)
        env.update(zip(decl.position, values))
        total = 0
        for fam in decl.moves:
            try:
                total += count_bindings(fam.binder, env)[0]
            except NimjosError:
                total += 1
        return total
    coords = position if isinstance(position, tuple) else (position,)
    if inst.name == "subtraction":
        S = inst.params.get("S")
        if isinstance(S, (frozenset, set, tuple)):
            return sum(1 for s in S if type(s) is int and 1 <= s <= coords[0])
        return coords[0]
    if inst.name == "gcn":
        return sum(coords) + inst.params.get("h", 1) ** len(coords)
    return 1


def _engine_costs(inst: Any, box: list[int]) -> tuple[int, int, bool]:
    """(bytes per position, bytes per edge, fast?) for the engine that will answer for this game."""
    try:
        pieces = lines.plan(inst)
        if pieces:
            X, Y = (box[0] + 1, 1) if len(box) == 1 else (box[0] + 1, box[1] + 1)
            nbytes = lines.estimate(pieces, X, Y)[0]
            return max(1, nbytes // max(1, X * Y)), 0, True
    except (ImportError, AttributeError, TypeError, ValueError, NimjosError):
        pass
    return BYTES_PER_POSITION, BYTES_PER_EDGE, False


@dataclass
class _GameLoad:
    positions: int = 0
    edges: int = 0
    bytes: int = 0
    seconds: float = 0.0
    bytes_per_position: int = BYTES_PER_POSITION
    runaway: tuple | None = None


def runaway(inst: Any, start: Any, highs: list[int]) -> tuple[Any, int] | None:
    """Follow the moves from `start`, each time to the option with the largest coordinate; return
    (the position reached, how many moves) when it gets far beyond the window (a coordinate over
    2 * max(highs) + 1000): the moves lead away, and the game may never end. None when the path ends,
    stays near, or the probe's budget runs out.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> up = GameDecl.declare("up", {"position": ["x"], "moves": [{"to": "x + t", "where": "1 <= t <= 2"}]}, Namespace())
    >>> runaway(up.instance(()), 5, [5])
    (1011, 503)
    >>> down = GameDecl.declare("down", {"position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= x"}]}, Namespace())
    >>> runaway(down.instance(()), 5, [5]) is None
    True
    """
    far = 2 * max(highs, default=0) + 1000
    position, spent = start, 0
    for step in range(1, PROBE_STEPS + 1):
        if _degree(inst, position) > PROBE_DEGREE:
            return None
        try:
            options = inst.options(position)
        except NimjosError:  # the checker reports it where it happens
            return None
        spent += len(options)
        if not options or spent > PROBE_OPTIONS:
            return None
        position = max(options, key=lambda q: max(q) if isinstance(q, tuple) else q)
        if (max(position) if isinstance(position, tuple) else position) > far:
            return position, step
    return None


def game_load(inst: Any, highs: list[int], copies: int = 1) -> _GameLoad:
    """The cost of solving `copies` instances like `inst` from a window reaching coordinates `highs`.

    >>> from nimjos.games.declared import subtraction
    >>> game_load(subtraction(frozenset({2, 3})), [99]).positions
    100
    """
    bounds = _coordinate_bounds(inst, [max(0, h) for h in highs])
    box = math.prod(b + 1 for b in bounds)
    top = tuple(bounds) if len(bounds) > 1 else bounds[0]
    half = tuple(b // 2 for b in bounds) if len(bounds) > 1 else bounds[0] // 2
    zero = tuple(0 for _ in bounds) if len(bounds) > 1 else 0
    degree = (_degree(inst, top) + _degree(inst, half) + _degree(inst, zero)) // 3
    bpp, bpe, fast = _engine_costs(inst, bounds)
    positions = box * copies
    edges = positions * degree
    load = _GameLoad(positions, edges, positions * bpp + (0 if fast else edges * bpe),
                     positions * (SECONDS_PER_POSITION / 100 if fast else SECONDS_PER_POSITION)
                     + (0 if fast else edges * SECONDS_PER_EDGE), bpp)
    if getattr(inst, "decl", None) is not None:
        away = runaway(inst, top, bounds)
        if away is not None:
            load.runaway = (inst.name, inst.label, top, *away)
    return load


# ----------------------------------------------------------------------------- the claim

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
    out = []
    for fname, text in ((claim.kind, claim.statement), ("assume", claim.assume_text)):
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
    return out


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
    loads: list[tuple[str, _GameLoad]] = []
    sizes: dict[str, int] = {}
    envs: list[dict] = [{}]
    window_field = plan.window.where.get("field", "for_all") if plan.window is not None else "for_all"
    if plan.window is not None:
        try:
            window = survey(plan.window, {}, pins)
            est.instances, sizes, envs = window.count, window.sizes, window.corners
        except EvalError:  # the enumeration will report it, at the binding where it happens
            return est
        except SpecError as exc:
            raise exc.located(**plan.window.where) from None
        est.seconds += est.instances * SECONDS_PER_INSTANCE
    if plan.game is not None and plan.values is None and plan.coords:
        gtree = parse(plan.game_text)
        highs = _max_coords(envs, plan.coords)
        inst = next((i for i in (_instance(_safe(plan.game, e)) for e in envs) if i is not None), None)
        if inst is not None:
            loads.append((window_field, game_load(inst, highs, _game_copies(plan, gtree, sizes, est.instances))))
        est.bytes += est.instances * BYTES_PER_ROW
    if plan.values is not None and plan.game is not None:
        inst = _instance(_safe(plan.game, {}))
        if inst is not None:
            loads.append(("values", game_load(inst, _table_highs(plan.values, inst.dim))))
    for fname, call in _g_calls(plan):
        variables = set(sizes)
        try:
            game_fn = compile_tree(call.args[0], ns, variables)
            pos_fn = compile_tree(call.args[1], ns, variables)
        except SpecError:
            continue
        insts = [(_instance(_safe(game_fn, e)), _safe(pos_fn, e)) for e in envs]
        insts = [(i, p) for i, p in insts if i is not None and p is not None]
        if not insts:
            continue
        highs = [0] * insts[0][0].dim
        for _, p in insts:
            for j, c in enumerate(p if isinstance(p, tuple) else (p,)):
                if j < len(highs) and type(c) is int:
                    highs[j] = max(highs[j], c)
        loads.append((fname, game_load(insts[0][0], highs, _game_copies(plan, call.args[0], sizes, est.instances))))
    for _, load in loads:
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
        raise exc.located(**(plan.levels.where if plan.levels is not None else {})) from None
    stores_rows = plan.game is not None and plan.values is None
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
    if plan.levels is not None:
        n = max((count_bindings(plan.levels, e)[0] for e in envs[:8]), default=0)
        worst = ("levels", n * max(1, survey(plan.window, {}, pins).count), "levels")
    level_envs = envs
    if plan.levels is not None:
        level_envs = [c for e in envs[:8] for c in corners(plan.levels, e)]
    edge = max((v for e in envs for v in e.values() if type(v) is int), default=0) + 1
    for i, fam in enumerate(plan.families or []):
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
    if not est.over:
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
        name, label, start, far, moves = est.extra
        raise locate_error(claim, ResourceError(
            f"the moves of {label} lead from {format_value(start)} to {format_value(far)} in {moves} moves, far "
            f"beyond the window: the game may never end, and its positions cannot be bounded",
            hint="every move must lead to a smaller position; check 'to' and 'where'",
            item=f"game '{name}'", field="moves"))
    if what is None:
        _, n, _ = est.extra
        noun = "level and instance pairs" if est.over == "levels" else "points in the family"
        what = f"about {n:,} {noun}, over {limit}"
    raise ResourceError(f"{what}; estimate: {est.describe()}",
                        hint="shrink the window" if est.over in ("memory", "time")
                        else "shrink the window or raise --max-positions", file=str(claim.spec.path), item=claim.label,
                        field=est.where, line=field_line(claim, est.where))
