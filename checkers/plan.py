"""Compile a loaded claim, for one profile, into what the checkers run: binders and closures.

Planning happens when a spec is loaded, so a bad expression stops the run before anything is checked.

>>> from nimjos.spec import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> plan = plan_claim(spec.claims[0], "default")
>>> plan.window.names
('x',)
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

from nimjos.binders import Binder
from nimjos.errors import SpecError
from nimjos.expr import Namespace, compile_tree, parse, suggest, variables_of
from nimjos.games import GameDecl
from nimjos.monotone import INC, DEC, coordinate_nodes, direction, is_nonneg_lower

_CACHE: dict[tuple[int, str], "ClaimPlan"] = {}


@dataclass
class FamilyPlan:
    """A compiled family of points (``point`` over ``where``) and, per unbounded index, the coordinates
    that justify stopping it: (index name, coordinate number, 'inc' | 'dec')."""

    point_text: str
    where_text: str
    binder: Binder
    point: Callable
    stops: list[tuple[str, int, str]] = field(default_factory=list)
    stop_fns: list[tuple[str, int, str, Callable]] = field(default_factory=list)


@dataclass
class ClaimPlan:
    claim: Any
    profile: str
    window: Binder | None = None
    window_text: str = ""
    game: Callable | None = None
    game_text: str = ""
    coords: tuple[str, ...] = ()
    assume: Callable | None = None
    formula: Callable | None = None          # grundy formula / predicate / holds predicate / level predicate
    sides: tuple[Callable, Callable] | None = None  # lhs, rhs of a holds comparison
    families: list[FamilyPlan] | None = None
    levels: Binder | None = None
    level_names: tuple[str, ...] = ()
    values: dict | None = None
    values_expr: Callable | None = None
    pattern: dict[str, Callable] | None = None  # periodic / stair: field -> closure over the window's params


def _compile(claim: Any, field_name: str, text: Any, ns: Namespace, variables: set[str]) -> tuple[ast.expr, Callable]:
    try:
        tree = parse(text)
        unknown = [n for n in variables_of(tree, ns) if n not in variables]
        if unknown:
            raise SpecError(f"unknown name {unknown[0]!r}", hint=suggest(unknown[0], variables | ns.known())
                            or f"bind it in for_all, e.g. '0 <= {unknown[0]} <= 10'")
        return tree, compile_tree(tree, ns, variables)
    except SpecError as exc:
        raise exc.located(file=str(claim.spec.path), item=claim.label, field=field_name,
                          line=claim.field_lines.get(field_name, claim.line)) from None


def _binder(claim: Any, field_name: str, text: Any, ns: Namespace, outer: set[str], allow_unbounded: bool = False) -> Binder:
    try:
        return Binder(parse(text), ns, outer, allow_unbounded=allow_unbounded, text=text)
    except SpecError as exc:
        raise exc.located(file=str(claim.spec.path), item=claim.label, field=field_name,
                          line=claim.field_lines.get(field_name, claim.line)) from None


def _game_coords(claim: Any, tree: ast.expr, ns: Namespace) -> tuple[str, ...]:
    explicit = claim.raw.get("position")
    if explicit:
        return tuple(explicit)
    head = tree.func if isinstance(tree, ast.Call) else tree
    if isinstance(head, ast.Name) and isinstance(ns.games.get(head.id), GameDecl):
        return tuple(ns.games[head.id].position)
    raise claim.error("cannot tell this game's coordinate names", "game",
                      hint="add position = [\"x1\", \"x2\"] to the claim to name them")


def plan_claim(claim: Any, profile: str = "default") -> ClaimPlan:
    """Compile `claim` for `profile` (cached)."""
    key = (id(claim), profile)
    if key in _CACHE and _CACHE[key].claim is claim:
        return _CACHE[key]
    ns: Namespace = claim.spec.namespace
    plan = ClaimPlan(claim, profile)
    kind = claim.kind
    raw_kind = claim.raw[kind]
    if kind == "values":
        _plan_values(plan, claim, ns, profile)
        _CACHE[key] = plan
        return plan
    for_all = claim.get("for_all", profile)
    if for_all is None:
        raise claim.error("missing field 'for_all' (the window to check)", "for_all",
                          hint="e.g. for_all = \"0 <= x <= 100\"")
    plan.window_text = for_all
    plan.window = _binder(claim, "for_all", for_all, ns, set())
    window_names = set(plan.window.names)
    if claim.raw.get("game") is not None:
        plan.game_text = claim.raw["game"]
        gtree, plan.game = _compile(claim, "game", plan.game_text, ns, window_names)
        plan.coords = _game_coords(claim, gtree, ns)
        missing = [c for c in plan.coords if c not in window_names]
        if missing:
            raise claim.error(f"for_all does not bind the position coordinate {missing[0]!r}", "for_all",
                              hint=f"add a bound such as '0 <= {missing[0]} <= 100'")
    elif kind in ("grundy", "p_positions", "level_set"):
        raise claim.error(f"a {kind} claim needs a game", "game", hint="add game = \"NAME\"")
    if claim.raw.get("assume") is not None:
        _, plan.assume = _compile(claim, "assume", claim.raw["assume"], ns, window_names)
    params = window_names - set(plan.coords)
    if kind == "level_set":
        levels = claim.get("levels", profile)
        if levels is None:
            raise claim.error("a level_set claim needs levels, e.g. levels = \"0 <= s <= 5\"", "levels")
        plan.levels = _binder(claim, "levels", levels, ns, window_names)
        plan.level_names = plan.levels.names
        params = params | set(plan.level_names)
    if kind in ("periodic", "stair"):
        if len(plan.coords) != 1:
            raise claim.error(f"a {kind} claim needs a 1-D game", "game")
        allowed = {"periodic": ("period", "preperiod", "saltus"), "stair": ("h",)}[kind]
        required = {"periodic": ("period",), "stair": ("h",)}[kind]
        plan.pattern = {}
        for k, val in raw_kind.items():
            if k not in allowed:
                raise claim.error(f"unknown field {k!r} in {kind}", kind, hint=suggest(k, list(allowed)))
            if isinstance(val, bool) or not isinstance(val, (int, str)):
                raise claim.error(f"{kind}.{k} must be an integer or an expression string", kind)
            text = str(val)
            _, plan.pattern[k] = _compile(claim, kind, text, ns, params)
        for k in required:
            if k not in plan.pattern:
                raise claim.error(f"{kind} needs {k} = ...", kind)
    elif kind in ("grundy", "holds") or (kind in ("p_positions", "level_set") and isinstance(raw_kind, str)):
        variables = window_names | set(plan.level_names)
        tree, plan.formula = _compile(claim, kind, raw_kind, ns, variables)
        if kind == "holds" and isinstance(tree, ast.Compare) and len(tree.ops) == 1 and \
                isinstance(tree.ops[0], (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
            plan.sides = (compile_tree(tree.left, ns, variables), compile_tree(tree.comparators[0], ns, variables))
    elif kind in ("p_positions", "level_set"):
        plan.families = [_plan_family(claim, kind, i, fam, ns, params, plan) for i, fam in enumerate(raw_kind)]
        if not plan.families:
            raise claim.error("an empty list of families", kind)
    _CACHE[key] = plan
    return plan


def _plan_family(claim: Any, kind: str, i: int, fam: Any, ns: Namespace, outer: set[str], plan: ClaimPlan) -> FamilyPlan:
    fname = f"{kind}[{i}]"
    if not isinstance(fam, dict):
        raise claim.error("each family is an inline table {point = \"...\", where = \"...\"}", fname)
    for k in fam:
        if k not in ("point", "where"):
            raise claim.error(f"unknown field {k!r} in a family", fname, hint=suggest(k, ["point", "where"]))
    if not isinstance(fam.get("point"), str):
        raise claim.error("a family needs point = \"EXPR\" (a string)", fname)
    where = fam.get("where", "True")
    if not isinstance(where, str):
        raise claim.error("where must be a string", fname)
    binder = _binder(claim, fname, where, ns, outer, allow_unbounded=True)
    variables = set(outer) | set(binder.names)
    tree, point = _compile(claim, fname, fam["point"], ns, variables)
    coords = coordinate_nodes(tree)
    if plan.coords and len(coords) != len(plan.coords) and not (len(plan.coords) == 1 and len(coords) == 1):
        raise claim.error(f"point has {len(coords)} coordinates, the game has {len(plan.coords)}", fname)
    fp = FamilyPlan(fam["point"], where, binder, point)
    nonneg = {l.name for l in binder.levels if is_nonneg_lower(l)}
    if plan.window is not None:
        nonneg |= {l.name for l in plan.window.levels if is_nonneg_lower(l)}
    bound_so_far = set(outer)
    for level in binder.levels:
        bound_so_far.add(level.name)
        if not level.unbounded:
            continue
        found = []
        for j, node in enumerate(coords):
            if not set(variables_of(node, ns)) <= bound_so_far:
                continue
            d = direction(node, level.name, ns, nonneg)
            if d in (INC, DEC):
                found.append((level.name, j, d))
                fp.stop_fns.append((level.name, j, d, compile_tree(node, ns, variables)))
        if not found:
            raise claim.error(f"family index {level.name!r} has only a lower bound, and no coordinate of the point "
                              f"is provably monotone in it, so enumeration could not be stopped", fname,
                              hint=f"give it an upper bound, e.g. '{level.name} <= 100'")
        fp.stops.extend(found)
    return fp


def _plan_values(plan: ClaimPlan, claim: Any, ns: Namespace, profile: str) -> None:
    v = claim.get("values", profile)
    if not isinstance(v, dict):
        raise claim.error("values must be a table", "values")
    for k in v:
        if k not in ("from", "grundy", "of", "var", "equal"):
            raise claim.error(f"unknown field {k!r} in values", "values",
                              hint=suggest(k, ["from", "grundy", "of", "var", "equal"]))
    plan.values = v
    if "grundy" in v:
        if claim.raw.get("game") is None:
            raise claim.error("a values table of Grundy values needs a game", "game")
        plan.game_text = claim.raw["game"]
        gtree, plan.game = _compile(claim, "game", plan.game_text, ns, set())
        plan.coords = _game_coords(claim, gtree, ns)
        if not isinstance(v["grundy"], list):
            raise claim.error("values.grundy must be a list", "values")
    elif "of" in v:
        var = v.get("var")
        if not isinstance(var, str) or not var.isidentifier():
            raise claim.error("values with 'of' needs var = \"NAME\"", "values")
        if not isinstance(v.get("equal"), list):
            raise claim.error("values with 'of' needs equal = [...]", "values")
        if not isinstance(v.get("from", 0), int):
            raise claim.error("values.from must be an integer", "values")
        _, plan.values_expr = _compile(claim, "values", v["of"], ns, {var})
    else:
        raise claim.error("values needs grundy = [...] (with a game) or of = \"EXPR\", var, equal = [...]", "values")
