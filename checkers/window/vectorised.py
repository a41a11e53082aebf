"""The vectorised window: a claim checked at every instance of its window at once, on arrays
(docs/spec-format.md, What is fast). The bindings come as arrays (:meth:`nimjos.lang.binders.Binder.arrays`),
the statement is evaluated by :mod:`nimjos.lang.vector`, G and the options of a game by the engines, a whole box
at a time. Every instance where the claim fails is re-evaluated by the scalar path (:mod:`checkers.window.scalar`),
so counterexamples, their order and their text are the scalar path's; a failure the scalar path does not
confirm abandons the vectorised path for the claim.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from checkers.window.collector import Collector
from checkers.window.evidence import evidence_rows, fixed_names_arrays, position_of, window_evidence
from checkers.window.josephus_arrays import ARRAY_FUNCTIONS
from checkers.window.scalar import formula_row, holds_instance, level_row, one_at_a_time
from nimjos.games.declared import DeclaredGame, as_instance, normal_play
from nimjos.games.arrays import grundy_array
from nimjos.games.engine import active_engine
import nimjos.games.fast.weights as weights
from nimjos.games.fast import outcomes_fast
from nimjos.games.functions import G, options
from nimjos.lang.analysis import grundy_calls
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.syntax import free_names
from nimjos.lang.vector import GameCall, NotVectorisable, OptionSets, as_full, as_truth, vectorise
from nimjos.spec.plan import ClaimPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PPositionsPlan, SetPlan

#: the fewest instances for which the vectorised path is tried (below it the scalar path is as quick)
VECTOR_MIN = 5_000
#: the most held instances whose statement is evaluated one at a time when only the assumption is vectorised
SCALAR_REST = 20_000


def check_vectorised(plan: ClaimPlan, col: Collector, shard: tuple | None) -> tuple[int, int, dict] | None:
    """The window checked at once on arrays (docs/spec-format.md, What is fast): the bindings as arrays, the
    statement by :mod:`nimjos.lang.vector`, the Grundy values from the engines as arrays; each instance where
    the claim fails is re-evaluated by the scalar path, so counterexamples, their order and their text are
    the scalar path's. None when it does not apply (then the scalar path checks the window).
    A holds claim whose assumption is vectorised but not its statement evaluates the statement one held
    instance at a time (at most :data:`SCALAR_REST` of them).

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> plan = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].plan()
    >>> check_vectorised(plan, Collector(5), None) is None    # 21 instances: the scalar path is as quick
    True
    """
    claim = plan.claim
    if plan.window is None or not isinstance(plan, (HoldsPlan, GrundyPlan, PPositionsPlan, LevelSetPlan)) \
            or plan.formula is None \
            or not isinstance(claim.statement, str) or not isinstance(claim.assume_text, (str, type(None))):
        return None
    if not isinstance(plan, HoldsPlan) and (isinstance(plan, SetPlan) and plan.families is not None or not plan.coords
                                            or plan.game is None):
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
            mask = as_truth(vectorise(plan.assume.ir or plan.assume.tree, ns, ARRAY_CALLS)(arrays), n)
        held_idx = np.nonzero(mask)[0]
        held = {k: v[held_idx] for k, v in arrays.items()}
        statement = vectorise(plan.formula.ir or plan.formula.tree, ns, ARRAY_CALLS)
        if isinstance(plan, HoldsPlan):
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
    positions at once (:func:`nimjos.games.arrays.grundy_array`). Anything else is not vectorised.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
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
        return G(game.game(*game.args) if game.args or getattr(game.game, "params", None) else game.game,
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
    engine = active_engine()
    members = groups_of(which, len(uniq))
    for g, row in enumerate(uniq.tolist()):
        try:
            inst = as_instance(game.game(*row) if row or getattr(game.game, "params", None) else game.game)
        except (EvalError, SpecError, TypeError):
            raise NotVectorisable("a game that cannot be built here") from None
        normal_play(inst, "G(...)")  # a misère game has no normal-play value: the spec error of the scalar G
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
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "specs" / "003_turn_nim_and_weighted_nim.toml")
    >>> sets = _options_array(GameCall(spec.namespace.games["weighted_nim"], []), (np.array([5, 7]), 0))
    >>> marked = np.zeros(sets.box, dtype=bool); marked[3, 0] = True
    >>> sets.search(marked).tolist()
    [True, False]
    """
    if not isinstance(game, GameCall) or game.args or getattr(game.game, "params", None):
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
        found = weights.any_option_in(inst, marked, full[0], full[1])
        if found is None:
            raise NotVectorisable("options the engine of weight-band options does not search")
        return found
    return OptionSets(tuple(int(c.max()) + 1 if n else 1 for c in full), search)


#: the array functions a vectorised statement may call
ARRAY_CALLS = {**ARRAY_FUNCTIONS, id(G): _g_array, id(options): _options_array}


def _smallest_first(columns: dict, limit: int) -> np.ndarray:
    """The indices of the `limit` smallest rows by :meth:`nimjos.verdict.Counterexample.key` (least sum, then
    lexicographic), of rows given as one int array per name."""
    cols = list(columns.values())
    if not cols or len(cols[0]) == 0:
        return np.zeros(0, dtype=np.int64)
    total = np.sum(np.stack(cols), axis=0)
    order = np.lexsort(tuple(reversed(cols)) + (total,))
    return order[:limit]


def _report(vc: Collector, columns: dict, bad: int, recheck: Callable[[int], object]) -> None:
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


def _vector_holds(plan: HoldsPlan, vc: Collector, held: dict, statement: Callable) -> dict | None:
    assert plan.window is not None, "a holds plan has a window"
    n = len(next(iter(held.values())))
    try:
        ok = as_truth(statement(held), n)
    except NotVectorisable:
        ns = plan.claim.spec.namespace
        if plan.assume is None or n > SCALAR_REST or grundy_calls(plan.expression_trees(),
                                                                  set(plan.window.names), ns):
            return None
        for j in range(n):  # the assumption vectorised, the statement one held instance at a time
            holds_instance(plan, _env_at(held, j), vc, assumed=True)
        evidence = one_at_a_time(False)
        evidence["vectorised"] = (f"the window's assumption was evaluated vectorised, the statement at each of the "
                                  f"{n:,} instances where it held")
        return evidence
    bad = np.nonzero(~ok)[0]
    columns = {k: v[bad] for k, v in held.items()}
    _report(vc, columns, len(bad), lambda j: holds_instance(plan, _env_at(columns, j), vc, assumed=True))
    return {}


def _vector_game(plan: GrundyPlan | SetPlan, vc: Collector, held: dict, statement: Callable) -> dict | None:
    assert plan.window is not None and plan.game is not None, "a game claim's plan has a window and a game"
    coords, names = plan.coords, plan.window.names
    n = len(next(iter(held.values())))
    if any(c not in held for c in coords) or set(free_names(plan.game.tree)) & set(coords):
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
    engine = active_engine()
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
        is_p = outcomes_fast(inst, at, engine) if isinstance(plan, PPositionsPlan) else None
        # an engine of P-positions only: 0 at a P-position, -1 (a value it does not compute) elsewhere
        actual[idx] = np.where(is_p, 0, -1) if is_p is not None else grundy_array(engine, inst, at)

    def position(j_env: dict) -> Any:
        return position_of(j_env, coords)

    evidence: dict = {}
    if isinstance(plan, (GrundyPlan, PPositionsPlan)):
        value = statement(held)
        if isinstance(plan, GrundyPlan):
            if isinstance(value, tuple) or (isinstance(value, np.ndarray) and value.dtype == np.bool_) \
                    or isinstance(value, bool):
                return None
            claimed = as_full(value, n)
            bad = np.nonzero(claimed != actual)[0]
        else:
            claimed = as_truth(value, n)
            bad = np.nonzero(claimed != (actual == 0))[0]
        columns = {k: v[bad] for k, v in held.items()}
        _report(vc, columns, len(bad), lambda j: formula_row(plan, _env_at(columns, j), int(actual[bad[j]]), vc))
        rows, keep_idx = evidence_rows(names, held, insts, which, coords)
        predicate = isinstance(plan, PPositionsPlan)
        claimed_map = {(inst, pos): (int(bool(claimed[i])) if predicate else int(claimed[i]))
                       for (_, inst, pos), i in zip(rows, keep_idx)}
        if not np.any(actual < 0):   # no Grundy grid to plot from an engine of P-positions only
            evidence = window_evidence(rows, claimed_map, "claimed P-positions" if predicate
                                       else "claimed value")
    else:
        assert isinstance(plan, LevelSetPlan), "a set claim here is a P-position or a level set claim"
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
                level_row(plan, env, position(env), int(actual[all_bad[j]]), env[level], vc)
            _report(vc, columns, len(all_bad), recheck)
        rows, _ = evidence_rows(names, held, insts, which, coords)
        evidence = window_evidence(rows, {}, "")
    evidence["engines"] = sorted(set().union(*(i.solved_by for i in insts))) if insts else []
    for key in ("grid", "sequence"):
        if key in evidence:
            evidence[key]["coords"] = list(coords)
            evidence[key]["fixed"] = fixed_names_arrays(names, held, which, coords)
    return evidence
