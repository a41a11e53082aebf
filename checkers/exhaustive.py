"""The exhaustive checker: evaluate a claim at every instance of its window, against ground truth from the
game's moves (the reference engine) or from the Josephus algorithms. The failures are kept by
:class:`checkers.collector.Collector`; the evidence for reports is gathered by :mod:`checkers.evidence`.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> v = check_exhaustive(spec.claims[0])
>>> v.verdict, v.instances
('checked', 21)
"""
from __future__ import annotations

import math
import shlex
import time
from typing import Any, Callable, Iterable

import numpy as np

from checkers.collector import Collector
from checkers.evidence import (evidence_rows, fixed_names, fixed_names_arrays, josephus_evidence,
                               options_evidence, position_of, window_evidence)
from checkers.josephus_arrays import ARRAY_FUNCTIONS
from nimjos.games.declared import DeclaredGame, as_instance
from nimjos.games.functions import G, options
from nimjos.games.engine import default_engine, grundy_array
import nimjos.games.fast.weights as weights
from nimjos.games.fast import outcomes_fast
from nimjos.games.periodicity import first_stair_break
from nimjos.lang.analysis import grundy_calls
from nimjos.lang.compiler import compile_tree
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.expr import evaluate
from nimjos.lang.runtime import BUDGET
from nimjos.lang.syntax import free_names, parse, suggest
from nimjos.lang.vector import GameCall, NotVectorisable, OptionSets, as_full, as_truth, vectorise
from nimjos.lang.values import format_value
from nimjos.spec.budget import enforce_limits
from nimjos.spec.plan import ClaimPlan, locate_error
from nimjos.verdict import Counterexample, Verdict

METHOD = "exhaustive"


def _bindings(env: dict, names: Iterable[str]) -> dict:
    return {n: env[n] for n in names if n in env}


def _scope(plan: ClaimPlan, engine_note: str = "") -> str:
    parts = []
    if plan.window is not None:
        parts.append(plan.window.describe())
    elif plan.values is not None:
        parts.append(printed_extent(plan.values))
    if plan.levels is not None:
        parts.append("levels " + plan.levels.describe())
    if plan.game_text:
        parts.append(f"game {plan.game_text}")
    if engine_note:
        parts.append(engine_note)
    return "; ".join(parts)


def check_exhaustive(claim: Any, profile: str = "default", max_counterexamples: int = 10,
                     pins: dict[str, Any] | None = None, shard: tuple[int, int] | None = None) -> Verdict:
    """Check `claim` at every instance of its window under `profile`; return the verdict.

    `shard` = (a, b) checks only the part of the window whose outermost variable lies in [a, b]
    (checkers.shard splits a window this way and merges the parts)."""
    start = time.perf_counter()
    plan = claim.plan(profile)
    if pins:
        known = set(plan.window.names) if plan.window is not None else set()
        unknown = [n for n in pins if n not in known]
        if unknown:
            raise SpecError(f"--at names {unknown[0]!r}, which the window does not bind "
                            f"(it binds {', '.join(sorted(known)) or 'nothing'})", hint=suggest(unknown[0], known))
    place = pinned_place(plan, pins) if pins else "window"
    enforce_limits(plan, pins if place != "domain" else None)  # refuses a window over the resource limits
    default_engine().begin_claim()  # this claim's ground truth names only the games this claim asks G about
    col = Collector(max_counterexamples)
    kind = claim.kind
    try:
        if kind == "values":
            instances, held, evidence = _check_values(plan, col)
        else:
            fast = None if pins else _check_vectorised(plan, col, shard)
            if fast is not None:
                instances, held, evidence = fast
            elif kind == "holds":
                instances, held, evidence = _check_holds(plan, col, pins, shard)
            else:
                instances, held, evidence = _check_game_claim(plan, col, pins, shard)
    except SpecError as exc:
        raise locate_error(claim, exc) from None
    failures = col.sorted(col.failures)
    undefined = col.sorted(col.undefined)
    if failures:
        verdict = "refuted"
    elif undefined:
        verdict = "ill-defined"
    elif instances == 0 or held == 0:
        verdict = "vacuous"
    else:
        verdict = "checked"
    engines = evidence.pop("engines", None)
    asked = default_engine().describe_claim()
    note = "ground truth: " + (", ".join(engines) if engines else asked) if engines or asked else ""
    scope = _scope(plan, note)
    if pins:
        at = ", ".join(f"{k}={format_value(x)}" for k, x in pins.items())
        where = f"beyond the window, inside the {plan.domain.describe()}" if place == "domain" else "pinned"
        scope = f"only at {at} ({where}); window {scope}"
        if instances == 0:
            scope += "; the window has no instance with the pinned values"
    v = Verdict(claim.id, verdict, METHOD, scope, instances=instances,
                assumption_held=held, counterexamples=failures, failures=col.n_fail, undefined=undefined,
                seconds=time.perf_counter() - start, evidence=evidence)
    if col.n_undef and failures:
        v.notes.append(f"also ill-defined at {col.n_undef} instance(s)")
    if profile != "default":
        v.notes.append(f"profile {profile}")
    v.notes.extend(v.evidence.pop("observations", []))
    first = (failures or undefined or [None])[0]
    if first is not None:
        v.evidence["rerun"] = rerun_command(claim, profile, first.bindings)
        options_evidence(plan, first, v.evidence)
        if first.reason:
            v.evidence.setdefault("reason", first.reason)
    josephus_evidence(claim, first, v.evidence)
    return v


def rerun_command(claim: Any, profile: str, bindings: dict) -> str:
    """The command that re-checks exactly one instance.

    >>> class C: id = "c"; spec = type("S", (), {"path": "s.toml"})()
    >>> rerun_command(C(), "default", {"x": 0, "y": 2})
    'nimjos check s.toml --claim c --at x=0,y=2'
    >>> rerun_command(C(), "deep", {"y": (1, 2)})
    "nimjos check s.toml --claim c --at 'y=(1, 2)' --profile deep"
    """
    at = ",".join(f"{k}={format_value(v)}" for k, v in bindings.items())
    cmd = f"nimjos check {shlex.quote(str(claim.spec.path))} --claim {shlex.quote(claim.id)} --at {shlex.quote(at)}"
    if profile != "default":
        cmd += f" --profile {profile}"
    return cmd


def pinned_place(plan: ClaimPlan, pins: dict) -> str:
    """Where a pinned instance (``--at``) lies: "window" (an instance of the window), "domain" (beyond the window
    but inside the claim's domain: it is evaluated by itself), or "part" (the pins leave some of the window's names
    free: the window's instances with the pinned values). A point outside the domain is an error: the claim says
    nothing there.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan("default")
    >>> pinned_place(plan, {"x": 3}), pinned_place(plan, {"x": 10 ** 6})
    ('window', 'domain')
    >>> pinned_place(plan, {"x": -1})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: --at x=-1 is outside the claim's domain (domain 0 <= x (read from for_all: x <= 20 is the window edge)): the claim says nothing there
    """
    if plan.window is None or any(n not in pins for n in plan.window.names):
        return "part"
    if next(iter(plan.window.bindings({}, pins)), None) is not None:
        return "window"
    if plan.domain is not None and not plan.domain.contains(dict(pins)):
        at = ", ".join(f"{k}={format_value(x)}" for k, x in pins.items())
        raise SpecError(f"--at {at} is outside the claim's domain ({plan.domain.describe()}): the claim says "
                        "nothing there")
    return "domain"


def _window_bindings(plan: ClaimPlan, pins: dict | None, shard: tuple | None) -> Iterable[dict]:
    """The window's bindings (with the pinned values), or the pinned point alone when it lies beyond the window
    inside the domain."""
    if pins and pinned_place(plan, pins) == "domain":
        return [dict(pins)]
    return plan.window.bindings({}, pins, shard=shard)


# ----------------------------------------------------------------------------- the vectorised window

#: the fewest instances for which the vectorised path is tried (below it the scalar path is as quick)
VECTOR_MIN = 5_000
#: the most held instances whose statement is evaluated one at a time when only the assumption is vectorised
SCALAR_REST = 20_000


def _check_vectorised(plan: ClaimPlan, col: Collector, shard: tuple | None) -> tuple[int, int, dict] | None:
    """The window checked at once on arrays (docs/spec-format.md, What is fast): the bindings as arrays, the
    statement by :mod:`nimjos.lang.vector`, the Grundy values from the engines as arrays; each instance where
    the claim fails is re-evaluated by the scalar path, so counterexamples, their order and their text are
    the scalar path's. None when it does not apply (then the scalar path checks the window).
    A holds claim whose assumption is vectorised but not its statement evaluates the statement one held
    instance at a time (at most :data:`SCALAR_REST` of them)."""
    claim = plan.claim
    kind = claim.kind
    if plan.window is None or kind not in ("holds", "grundy", "p_positions", "level_set") or plan.formula is None \
            or not isinstance(claim.statement, str) or not isinstance(claim.assume_text, (str, type(None))):
        return None
    if kind != "holds" and (plan.families is not None or not plan.coords or plan.game is None):
        return None
    arrays = plan.window.arrays({}, shard=shard)
    if arrays is None:
        return None
    n = len(next(iter(arrays.values()))) if arrays else 0
    if n < VECTOR_MIN:
        return None
    ns = claim.spec.namespace
    vc = Collector(col.limit)
    try:
        mask = np.ones(n, dtype=np.bool_)
        if plan.assume is not None:
            mask = as_truth(vectorise(parse(claim.assume_text), ns, _ARRAYS)(arrays), n)
        held_idx = np.nonzero(mask)[0]
        held = {k: v[held_idx] for k, v in arrays.items()}
        statement = vectorise(parse(claim.statement), ns, _ARRAYS)
        if kind == "holds":
            evidence = _vector_holds(plan, vc, held, statement)
        else:
            evidence = _vector_game(plan, vc, held, statement)
    except NotVectorisable:
        return None
    if evidence is None:
        return None
    col.failures, col.undefined, col.n_fail, col.n_undef = vc.failures, vc.undefined, vc.n_fail, vc.n_undef
    how = evidence.pop("vectorised", f"the window was evaluated vectorised ({n:,} instances at once)")
    evidence.setdefault("observations", []).insert(0, how)
    return n, len(held_idx), evidence


def unique_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(keys, axis=0, return_index=True, return_inverse=True)`` (rows in lexicographic order, the first
    index of each, the row number of each key), through one int64 key per row when the columns' ranges allow it:
    numpy sorts rows along an axis as bytes, about a second for 10^6 rows, against a few hundredths.

    >>> [a.tolist() for a in unique_rows(np.array([[2, 5], [1, 7], [2, 5]]))]
    [[[1, 7], [2, 5]], [1, 0], [1, 0, 1]]
    """
    lo, hi = keys.min(axis=0), keys.max(axis=0)
    spans = [int(b) - int(a) + 1 for a, b in zip(lo, hi)]
    if math.prod(spans) >= 2 ** 62:
        uniq, first, which = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        return uniq, first, which.reshape(-1)
    key = np.zeros(len(keys), dtype=np.int64)
    for j, span in enumerate(spans):
        key = key * span + (keys[:, j] - lo[j])
    _, first, which = np.unique(key, return_index=True, return_inverse=True)
    return keys[first], first, which.reshape(-1)


def groups_of(which: np.ndarray, count: int) -> list[np.ndarray]:
    """The indices i with which[i] == g, increasing, for each g < count (one sort, not one pass per group).

    >>> [g.tolist() for g in groups_of(np.array([1, 0, 1, 1]), 2)]
    [[1], [0, 2, 3]]
    """
    order = np.argsort(which, kind="stable")
    return np.split(order, np.cumsum(np.bincount(which, minlength=count))[:-1])


#: the largest box of positions G may be solved on at once for a vectorised statement, unless the statement asks
#: for at least a quarter of it
MAX_G_BOX = 4_000_000


def _g_array(game: Any, position: Any) -> Any:
    """G(game, position) at every binding of a vectorised statement: the game a declared game at int params, the
    position a number or a tuple of numbers (arrays or ints); each distinct game is solved on the box of its
    positions at once (:func:`nimjos.games.engine.grundy_array`). Anything else is not vectorised.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> game = next(iter(spec.namespace.games.values()))
    >>> _g_array(GameCall(game, []), np.arange(5)).tolist() == [G(game, x) for x in range(5)]
    True
    """
    if not isinstance(game, GameCall):
        raise NotVectorisable("G of something other than a declared game")
    coords = list(position) if isinstance(position, tuple) else [position]
    values = list(game.args) + coords
    if any(not (type(v) is int or (isinstance(v, np.ndarray) and v.dtype == np.int64)) for v in values):
        raise NotVectorisable("G at a position or params that are not integers")
    lengths = {len(v) for v in values if isinstance(v, np.ndarray)}
    if len(lengths) > 1:
        raise NotVectorisable("arrays of different lengths")
    if not lengths:
        return G(game.game(*game.args) if game.args or getattr(game.game, "params", ()) else game.game,
                 tuple(coords) if isinstance(position, tuple) else position)
    n = lengths.pop()
    full = [v if isinstance(v, np.ndarray) else np.full(n, v, dtype=np.int64) for v in values]
    params, coords = full[:len(game.args)], full[len(game.args):]
    if any(n and int(c.min()) < 0 for c in coords):
        raise NotVectorisable("G at a negative coordinate")
    if params:
        uniq, _, which = unique_rows(np.stack(params, axis=1))
    else:
        uniq, which = np.zeros((1, 0), dtype=np.int64), np.zeros(n, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    engine = default_engine()
    members = groups_of(which, len(uniq))
    for g, row in enumerate(uniq.tolist()):
        try:
            inst = as_instance(game.game(*row) if row or getattr(game.game, "params", ()) else game.game)
        except (EvalError, SpecError, TypeError):
            raise NotVectorisable("a game that cannot be built here") from None
        if not isinstance(inst, DeclaredGame) or inst.dim != len(coords) or isinstance(position, tuple) != (inst.dim > 1):
            raise NotVectorisable("G of a game other than a declared game of this dimension")
        idx = members[g]
        at = [c[idx] for c in coords]
        box = 1
        for c in at:
            box *= int(c.max()) + 1
        if box > max(MAX_G_BOX, 4 * len(idx)):
            raise NotVectorisable("G asked at positions spread over a large box")
        engine.asked.add(inst)  # the claim's ground truth names the engines of the games it asked
        out[idx] = grundy_array(engine, inst, at)
    return out


def _options_array(game: Any, position: Any) -> OptionSets:
    """options(game, position) at every binding of a vectorised statement, as :class:`OptionSets`: never listed;
    searched by the engine of weight-band options (:func:`nimjos.games.fast.weights.any_option_in`), the only one
    that can tell whether an option lies in a set. Anything else is not vectorised.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "specs" / "003_turn_nim_and_weighted_nim.toml")
    >>> sets = _options_array(GameCall(spec.namespace.games["weighted_nim"], []), (np.array([5, 7]), 0))
    >>> marked = np.zeros(sets.box, dtype=bool); marked[3, 0] = True
    >>> sets.search(marked).tolist()
    [True, False]
    """
    if not isinstance(game, GameCall) or game.args or getattr(game.game, "params", ()):
        raise NotVectorisable("the options of something other than a declared game without params")
    coords = list(position) if isinstance(position, tuple) else [position]
    if any(not (type(v) is int or (isinstance(v, np.ndarray) and v.dtype == np.int64)) for v in coords):
        raise NotVectorisable("options at a position that is not integers")
    lengths = {len(v) for v in coords if isinstance(v, np.ndarray)}
    if len(lengths) != 1:
        raise NotVectorisable("options at one position, or arrays of different lengths")
    n = lengths.pop()
    full = [v if isinstance(v, np.ndarray) else np.full(n, v, dtype=np.int64) for v in coords]
    try:
        inst = as_instance(game.game)
    except (EvalError, SpecError, TypeError):
        raise NotVectorisable("a game that cannot be built here") from None
    if len(full) != 2 or getattr(inst, "dim", None) != 2 or weights.shape_of(inst) is None \
            or (n and int(min(c.min() for c in full)) < 0):
        raise NotVectorisable("the options of a game whose options no engine searches")

    def search(marked: np.ndarray) -> np.ndarray:
        found = weights.any_option_in(inst, marked, *full)
        if found is None:
            raise NotVectorisable("options the engine of weight-band options does not search")
        return found
    return OptionSets(tuple(int(c.max()) + 1 if n else 1 for c in full), search)


#: the array functions a vectorised statement may call
_ARRAYS = {**ARRAY_FUNCTIONS, id(G): _g_array, id(options): _options_array}


def _smallest_first(columns: dict, limit: int) -> np.ndarray:
    """The indices of the `limit` smallest rows by :meth:`nimjos.verdict.Counterexample.key` (least sum, then
    lexicographic), of rows given as one int array per name."""
    cols = list(columns.values())
    if not cols or len(cols[0]) == 0:
        return np.zeros(0, dtype=np.int64)
    total = np.sum(np.stack(cols), axis=0)
    order = np.lexsort(tuple(reversed(cols)) + (total,))
    return order[:limit]


def _report(vc: Collector, columns: dict, bad: int, recheck: Callable[[int], None]) -> None:
    """Re-evaluate by the scalar path the smallest failing rows (`columns`: one array per name, `bad` rows) and
    count the rest; a row the scalar path does not find failing means the vectorised path is wrong there."""
    for j in _smallest_first(columns, vc.limit).tolist():
        before = vc.n_fail + vc.n_undef
        recheck(j)
        if vc.n_fail + vc.n_undef == before:
            raise NotVectorisable("the scalar path does not confirm a failure")
    vc.n_fail += bad - min(bad, vc.limit) if bad > vc.limit else 0


def _env_at(columns: dict, j: int) -> dict:
    return {k: int(v[j]) for k, v in columns.items()}


def _vector_holds(plan: ClaimPlan, vc: Collector, held: dict, statement: Callable) -> dict | None:
    n = len(next(iter(held.values())))
    try:
        ok = as_truth(statement(held), n)
    except NotVectorisable:
        ns = plan.claim.spec.namespace
        if plan.assume is None or n > SCALAR_REST or grundy_calls([plan.claim.statement, plan.claim.assume_text],
                                                                  set(plan.window.names), ns):
            return None
        for j in range(n):  # the assumption vectorised, the statement one held instance at a time
            _holds_instance(plan, _env_at(held, j), vc, assumed=True)
        evidence = _one_at_a_time(False)
        evidence["vectorised"] = (f"the window's assumption was evaluated vectorised, the statement at each of the "
                                  f"{n:,} instances where it held")
        return evidence
    bad = np.nonzero(~ok)[0]
    columns = {k: v[bad] for k, v in held.items()}
    _report(vc, columns, len(bad), lambda j: _holds_instance(plan, _env_at(columns, j), vc, assumed=True))
    return {}


def _vector_game(plan: ClaimPlan, vc: Collector, held: dict, statement: Callable) -> dict | None:
    claim, coords, names = plan.claim, plan.coords, plan.window.names
    n = len(next(iter(held.values())))
    if any(c not in held for c in coords) or set(free_names(parse(claim.game_text))) & set(coords):
        return None
    if any(n and int(held[c].min()) < 0 for c in coords):
        return None  # a negative coordinate: the scalar path reports it
    params = [nm for nm in names if nm not in coords]
    if params and n:
        keys = np.stack([held[p] for p in params], axis=1)
        uniq, first, which = unique_rows(keys)
        order = np.argsort(first)  # instances in window order
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        which = rank[which.reshape(-1)]
        groups = [dict(zip(params, (int(x) for x in uniq[g]))) for g in order]
    else:
        which = np.zeros(n, dtype=np.int64)
        groups = [{}]
    engine = default_engine()
    kind = claim.kind
    insts, actual = [], np.zeros(n, dtype=np.int64)
    members = groups_of(which, len(groups))
    for g, env0 in enumerate(groups):
        try:
            inst = as_instance(plan.game(dict(env0)))
        except (EvalError, SpecError):
            return None
        if inst.dim != len(coords):
            return None
        insts.append(inst)
        idx = members[g]
        at = [held[c][idx] for c in coords]
        is_p = outcomes_fast(inst, at, engine) if kind == "p_positions" else None
        # an engine of P-positions only: 0 at a P-position, -1 (a value it does not compute) elsewhere
        actual[idx] = np.where(is_p, 0, -1) if is_p is not None else grundy_array(engine, inst, at)

    def position(j_env: dict) -> Any:
        return position_of(j_env, coords)

    evidence: dict = {}
    if kind in ("grundy", "p_positions"):
        value = statement(held)
        if kind == "grundy":
            if isinstance(value, tuple) or (isinstance(value, np.ndarray) and value.dtype == np.bool_) \
                    or isinstance(value, bool):
                return None
            claimed = as_full(value, n)
            bad = np.nonzero(claimed != actual)[0]
        else:
            claimed = as_truth(value, n)
            bad = np.nonzero(claimed != (actual == 0))[0]
        columns = {k: v[bad] for k, v in held.items()}
        _report(vc, columns, len(bad), lambda j: _formula_row(plan, _env_at(columns, j), int(actual[bad[j]]), vc))
        rows, keep_idx = evidence_rows(names, held, insts, which, coords)
        claimed_map = {(inst, pos): (int(bool(claimed[i])) if kind == "p_positions" else int(claimed[i]))
                       for (_, inst, pos), i in zip(rows, keep_idx)}
        if not np.any(actual < 0):   # no Grundy grid to plot from an engine of P-positions only
            evidence = window_evidence(rows, claimed_map, "claimed P-positions" if kind == "p_positions"
                                       else "claimed value")
    else:
        if set(free_names(plan.levels.tree)) & set(names) or len(plan.level_names) != 1:
            return None
        level = plan.level_names[0]
        found: list[tuple[np.ndarray, dict]] = []
        for lenv in plan.levels.bindings({}):
            lvals = {nm: lenv[nm] for nm in plan.level_names}
            if type(lvals[level]) is not int:
                return None
            claimed = as_truth(statement({**held, **lvals}), n)
            bad = np.nonzero(claimed != (actual == lvals[level]))[0]
            if len(bad):
                found.append((bad, lvals))
        if found:
            all_bad = np.concatenate([b for b, _ in found])
            columns = {k: v[all_bad] for k, v in held.items()}
            columns[level] = np.concatenate([np.full(len(b), lv[level], dtype=np.int64) for b, lv in found])

            def recheck(j: int) -> None:
                env = _env_at(columns, j)
                _level_row(plan, env, position(env), int(actual[all_bad[j]]), env[level], vc)
            _report(vc, columns, len(all_bad), recheck)
        rows, _ = evidence_rows(names, held, insts, which, coords)
        evidence = window_evidence(rows, {}, "")
    evidence["engines"] = sorted(set().union(*(i.solved_by for i in insts))) if insts else []
    for key in ("grid", "sequence"):
        if key in evidence:
            evidence[key]["coords"] = list(coords)
            evidence[key]["fixed"] = fixed_names_arrays(names, held, which, coords)
    return evidence


# ----------------------------------------------------------------------------- holds

def _check_holds(plan: ClaimPlan, col: Collector, pins: dict | None, shard: tuple | None = None) -> tuple[int, int, dict]:
    instances = held = 0
    prefetched = _prefetch_grundy(plan, pins, shard)
    for env in _window_bindings(plan, pins, shard):
        instances += 1
        held += _holds_instance(plan, env, col)
    return instances, held, _one_at_a_time(prefetched)


def _one_at_a_time(prefetched: bool) -> dict:
    """The evidence of a holds check: whether G was called one position at a time."""
    evidence: dict = {}
    if not prefetched and default_engine().asked:
        # G was called, but never at the window's own bindings: one position at a time (docs: What is fast)
        evidence["observations"] = ["G is evaluated one position at a time here (called inside a comprehension, "
                                    "a lambda or a definition, or at a computed position): see 'What is fast' in "
                                    "docs/spec-format.md"]
    return evidence


def _holds_instance(plan: ClaimPlan, env: dict, col: Collector, assumed: bool = False) -> int:
    """Check a holds claim at one binding (the scalar path, the reference); 1 when the assumption held."""
    BUDGET.steps = 0  # the step budget is per evaluation, not per window
    BUDGET.depth = 0
    names = plan.window.names
    try:
        if not assumed and plan.assume is not None and not plan.assume(env):
            return 0
        ok = plan.formula(env)
    except EvalError as exc:
        col.undef(Counterexample(_bindings(env, names), reason=str(exc)))
        return 1
    if not ok:
        lhs, rhs = plan.sides_at(env)
        col.fail(Counterexample(_bindings(env, names), lhs, rhs))
    return 1


def _prefetch_grundy(plan: ClaimPlan, pins: dict | None, shard: tuple | None) -> bool:
    """Solve at once, with the engines a grundy claim uses, every position a holds statement asks G for at the
    window's bindings (``G(g, x)`` with x bound by the window), so that the check itself only looks values up.
    False when the statement has no such call."""
    ns = plan.claim.spec.namespace
    names = set(plan.window.names)
    calls = grundy_calls([plan.claim.statement, plan.claim.assume_text], names, ns)
    if not calls:
        return False
    fns = [(compile_tree(g, ns, names), compile_tree(p, ns, names)) for g, p in calls]
    groups: dict = {}
    for env in _window_bindings(plan, pins, shard):
        try:
            if plan.assume is not None and not plan.assume(env):
                continue
            for game, position in fns:
                inst = as_instance(evaluate(game, env))
                groups.setdefault(inst, []).append(inst.normalise(evaluate(position, env)))
        except (EvalError, SpecError):
            continue  # the check itself reports what cannot be evaluated
    engine = default_engine()
    for inst, positions in groups.items():
        try:
            engine.solve(inst, positions)
        except ResourceError:
            raise
        except SpecError:
            continue  # a fault of the game where the statement asks for it is reported by the check itself
    return True


# ----------------------------------------------------------------------------- game claims

def _solve_all(groups: dict) -> None:
    engine = default_engine()
    for inst, positions in groups.items():
        engine.solve(inst, positions)


def _outcomes(by_inst: dict) -> dict | None:
    """{(instance, position): 0 at a P-position, -1 elsewhere} when an engine of P-positions answers for every
    instance (:func:`nimjos.games.fast.outcomes_fast`); None to ask for the Grundy values."""
    out: dict = {}
    engine = default_engine()
    for inst, positions in by_inst.items():
        if getattr(inst, "dim", 1) < 2 or not positions:
            return None
        coords = [np.array([p[j] for p in positions], dtype=np.int64) for j in range(inst.dim)]
        is_p = outcomes_fast(inst, coords, engine)
        if is_p is None:
            return None
        out.update({(inst, p): 0 if v else -1 for p, v in zip(positions, is_p.tolist())})
    return out


def _check_game_claim(plan: ClaimPlan, col: Collector, pins: dict | None, shard: tuple | None = None) -> tuple[int, int, dict]:
    claim = plan.claim
    names = plan.window.names
    coords = plan.coords
    param_names = tuple(n for n in names if n not in coords)
    # pass 1: the window, grouped by game instance
    rows: list[tuple[tuple, Any, Any]] = []  # (binding values, instance, position)
    by_inst: dict[Any, list] = {}
    instances = held = 0
    for env in _window_bindings(plan, pins, shard):
        instances += 1
        values = tuple(env[n] for n in names)
        try:
            if plan.assume is not None and not plan.assume(env):
                continue
            inst = as_instance(plan.game(env))
            pos = inst.normalise(position_of(env, coords))
        except EvalError as exc:
            col.undef(Counterexample(dict(zip(names, values)), reason=str(exc)))
            continue
        held += 1
        rows.append((values, inst, pos))
        by_inst.setdefault(inst, []).append(pos)
    kind = claim.kind
    outcomes = _outcomes(by_inst) if kind == "p_positions" and plan.families is None else None
    if outcomes is None:
        _solve_all(by_inst)
    evidence: dict = {}
    if kind == "grundy" or (kind == "p_positions" and plan.families is None):
        predicate = kind == "p_positions"
        claimed_map: dict = {}
        for values, inst, pos in rows:
            actual = outcomes[(inst, pos)] if outcomes is not None else inst.lookup(pos)
            claimed = _formula_row(plan, dict(zip(names, values)), actual, col)
            if claimed is not None:
                claimed_map[(inst, pos)] = (1 if claimed[0] else 0) if predicate else claimed[0]
        if outcomes is None:   # no Grundy values to plot from an engine of P-positions only
            evidence = window_evidence(rows, claimed_map, "claimed P-positions" if predicate else "claimed value")
    elif kind == "p_positions":
        groups = _group(rows, names, param_names)
        claimed_map = {}
        for key, grows in groups.items():
            env0 = dict(zip(param_names, key))
            claimed_set = _family_points(plan, plan.families, env0, [p for _, _, p in grows], col, names)
            for values, inst, pos in grows:
                actual = inst.lookup(pos)
                claimed = pos in claimed_set
                claimed_map[(inst, pos)] = 1 if claimed else 0
                if claimed != (actual == 0):
                    col.fail(Counterexample(dict(zip(names, values)), "P" if actual == 0 else "N",
                                            "P" if claimed else "N", detail={"grundy": actual}))
        evidence = window_evidence(rows, claimed_map, "claimed P-positions")
    elif kind in ("periodic", "stair"):
        _check_pattern(plan, rows, names, param_names, col)
        evidence = window_evidence(rows, {}, "")
    elif kind == "level_set":
        groups = _group(rows, names, param_names)
        level_names = plan.level_names
        for key, grows in groups.items():
            env0 = dict(zip(param_names, key))
            for lenv in plan.levels.bindings(dict(env0)):
                lvals = {n: lenv[n] for n in level_names}
                s_value = lvals[level_names[0]] if level_names else None
                if plan.families is not None:
                    claimed_set = _family_points(plan, plan.families, dict(lenv), [p for _, _, p in grows], col, names)
                    member = lambda env, pos: pos in claimed_set  # noqa: E731
                else:
                    member = None
                for values, inst, pos in grows:
                    env = dict(zip(names, values))
                    env.update(lvals)
                    _level_row(plan, env, pos, inst.lookup(pos), s_value, col, member)
        evidence = window_evidence(rows, {}, "")
    evidence["engines"] = sorted(set().union(*(i.solved_by for i in by_inst))) if by_inst else []
    for key in ("grid", "sequence"):
        if key in evidence:
            evidence[key]["coords"] = list(coords)
            evidence[key]["fixed"] = fixed_names(rows, names, coords)
    return instances, held, evidence


def _formula_row(plan: ClaimPlan, env: dict, actual: int, col: Collector) -> tuple | None:
    """Check a grundy claim, or a p_positions claim stated by a predicate, at one binding (the scalar path, the
    reference): (the claimed value,), or None when the formula cannot be evaluated there."""
    try:
        claimed = plan.formula(env)
    except EvalError as exc:
        col.undef(Counterexample(env, actual, None, reason=str(exc)))
        return None
    if plan.claim.kind == "p_positions":
        if bool(claimed) != (actual == 0):   # actual -1: an N-position whose Grundy value was not computed
            col.fail(Counterexample(env, "P" if actual == 0 else "N", "P" if claimed else "N",
                                    detail={"grundy": actual} if actual >= 0 else {}))
    elif claimed != actual:
        col.fail(Counterexample(env, actual, claimed))
    return (claimed,)


def _level_row(plan: ClaimPlan, env: dict, pos: Any, actual: int, s_value: Any, col: Collector,
               member: Callable | None = None) -> None:
    """Check a level_set claim at one binding and level (in `env`), the scalar path."""
    try:
        claimed = member(env, pos) if member else bool(plan.formula(env))
    except EvalError as exc:
        col.undef(Counterexample(env, actual, None, reason=str(exc)))
        return
    if claimed != (actual == s_value):
        col.fail(Counterexample(env, actual, f"{'in' if claimed else 'not in'} the set for "
                                f"{plan.level_names[0]} = {s_value}", detail={"grundy": actual}))


def _check_pattern(plan: ClaimPlan, rows: list, names: tuple, param_names: tuple, col: Collector) -> None:
    """periodic: G(n + p) = G(n) + s for n >= n0 with n + p in the window; stair: G(xh + r) = G(xh) + r,
    h | G(xh), for every whole block of h positions in the window."""
    coord = plan.coords[0]
    for key, grows in _group(rows, names, param_names).items():
        env0 = dict(zip(param_names, key))
        inst = grows[0][1]
        try:
            pat = {k: fn(env0) for k, fn in plan.pattern.items()}
        except EvalError as exc:
            col.undef(Counterexample(env0, reason=str(exc)))
            continue
        present = {pos for _, _, pos in grows}
        if plan.claim.kind == "periodic":
            p, n0, s = pat["period"], pat.get("preperiod", 0), pat.get("saltus", 0)
            if type(p) is not int or p < 1:
                col.undef(Counterexample(env0, reason=f"period {p!r} is not a positive integer"))
                continue
            for n in sorted(present):
                if n >= n0 and n + p in present:
                    a, b = inst.lookup(n + p), inst.lookup(n) + s
                    if a != b:
                        col.fail(Counterexample({**env0, coord: n}, a, b,
                                                detail={"statement": f"G({n} + {p}) = G({n}) + {s}"}))
        else:
            h = pat["h"]
            if type(h) is not int or h < 1:
                col.undef(Counterexample(env0, reason=f"h = {h!r} is not a positive integer"))
                continue
            top = max(present)
            seq = [inst.lookup(n) for n in range(0, top + 1)] if all(n in present for n in range(top + 1)) else None
            if seq is None:
                col.undef(Counterexample(env0, reason="a stair claim needs a window 0 <= n <= N"))
                continue
            brk = first_stair_break(seq[: (len(seq) // h) * h], h)
            if brk is not None:
                base = (brk // h) * h
                col.fail(Counterexample({**env0, coord: brk}, seq[brk], seq[base] + brk - base,
                                        detail={"statement": f"{h}-stair"}))


def _group(rows: list, names: tuple, param_names: tuple) -> dict:
    idx = [names.index(n) for n in param_names]
    groups: dict = {}
    for row in rows:
        key = tuple(row[0][i] for i in idx)
        groups.setdefault(key, []).append(row)
    return groups


def _family_points(plan: ClaimPlan, families: list, env0: dict, positions: list, col: Collector,
                   names: tuple) -> set:
    """The points of the union of families for the outer values in env0, enumerated as far as the window
    (given by its positions) needs."""
    if not positions:
        return set()
    if isinstance(positions[0], tuple):
        dim = len(positions[0])
        lo = [min(p[j] for p in positions) for j in range(dim)]
        hi = [max(p[j] for p in positions) for j in range(dim)]
    else:
        lo, hi = [min(positions)], [max(positions)]
    points: set = set()
    for fam in families:
        stops_by_index: dict[str, list] = {}
        for name, j, d, fn in fam.stop_fns:
            stops_by_index.setdefault(name, []).append((j, d, fn))
        for level in fam.binder.levels:
            if level.unbounded:
                level.stop = _make_stop(stops_by_index.get(level.name, []), lo, hi)
        try:
            for env in fam.binder.bindings(dict(env0)):
                try:
                    p = fam.point(env)
                except EvalError as exc:
                    col.undef(Counterexample(dict(env0), None, None,
                                             reason=f"family point {fam.point_text!r} at "
                                                    f"{ {n: env[n] for n in fam.binder.names} }: {exc}"))
                    continue
                if isinstance(p, tuple) and len(p) == 1:
                    p = p[0]
                points.add(p)
        except EvalError as exc:
            col.undef(Counterexample(dict(env0), None, None, reason=f"family {fam.where_text!r}: {exc}"))
    return points


def _make_stop(stops: list, lo: list, hi: list) -> Callable:
    def stop(env: dict) -> bool:
        for j, d, fn in stops:
            try:
                v = fn(env)
            except EvalError:
                continue
            if d == "inc" and v > hi[j]:
                return True
            if d == "dec" and v < lo[j]:
                return True
        return False
    return stop


# ----------------------------------------------------------------------------- printed tables

def printed_extent(values: dict) -> str:
    """What a `values` claim's printed table covers, for its scope.

    >>> printed_extent({"of": "fib(k)", "var": "k", "from": 0, "equal": [0, 1, 1, 2]})
    'the printed terms k = 0..3'
    >>> printed_extent({"grundy": [0, 0, 1], "from": 2}), printed_extent({"grundy": [[0, 1], [1, 0]]})
    ('the printed table G(2)..G(4)', 'the printed table of 2 x 2 values from (0, 0)')
    """
    start = values.get("from", 0)
    if "equal" in values:
        return f"the printed terms {values['var']} = {start}..{start + len(values['equal']) - 1}"
    cells = printed_cells(values)
    if cells and isinstance(cells[0][0], tuple):
        table = values["grundy"]
        return (f"the printed table of {len(table)} x {max(len(r) for r in table)} values from "
                f"{format_value(cells[0][0])}")
    return f"the printed table G({cells[0][0]})..G({cells[-1][0]})" if cells else "the printed table (empty)"


def printed_cells(values: dict) -> list[tuple[Any, Any]]:
    """The (position, printed Grundy value) pairs of a `values` claim's printed table.

    >>> printed_cells({"grundy": [0, 0, 1], "from": 2})
    [(2, 0), (3, 0), (4, 1)]
    >>> printed_cells({"grundy": [[0, 1], [1, 0]]})
    [((0, 0), 0), ((0, 1), 1), ((1, 0), 1), ((1, 1), 0)]
    """
    start = values.get("from", 0)
    table = values["grundy"]
    if table and isinstance(table[0], list):
        x0, y0 = (start if isinstance(start, list) else [start, start])[:2]
        return [((x0 + i, y0 + j), val) for i, row in enumerate(table) for j, val in enumerate(row)]
    s0 = start[0] if isinstance(start, list) else start
    return [(s0 + i, val) for i, val in enumerate(table)]


def _check_values(plan: ClaimPlan, col: Collector) -> tuple[int, int, dict]:
    v = plan.values
    instances = 0
    if "grundy" in v:
        inst = as_instance(plan.game({}))
        cells = printed_cells(v)
        positions = [inst.normalise(p) for p, _ in cells]
        default_engine().solve(inst, positions)
        coords = plan.coords
        for p, printed in cells:
            instances += 1
            actual = inst.table[p]
            b = dict(zip(coords, p if isinstance(p, tuple) else (p,)))
            if actual != printed:
                col.fail(Counterexample(b, actual, printed))
        return instances, instances, {"engines": sorted(inst.solved_by)}
    var, start, printed_seq = v["var"], v.get("from", 0), v["equal"]
    for i, printed in enumerate(printed_seq):
        instances += 1
        env = {var: start + i}
        try:
            actual = plan.values_expr(env)
        except EvalError as exc:
            col.undef(Counterexample(env, None, printed, reason=str(exc)))
            continue
        if actual != printed:
            col.fail(Counterexample(env, actual, printed))
    return instances, instances, {}


