"""Why a claim fails (or holds) at one position: :func:`explain_text`, which ``nimjos explain FILE::CLAIM [--at POSITION]
[--depth D]`` prints and a notebook can call.

At the smallest counterexample (or the position given with ``--at``) it prints the options, each option's
Grundy value (its misère Grundy value on a game in misère play, and the column says so), the mex, and what the claim
says there (for a union of families, the member that gives the position, or that none does); ``--depth`` prints the
game tree below.

>>> import pathlib
>>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
>>> print(explain_text(f"{path}::nim1-grundy", "x=2", 0))  # doctest: +ELLIPSIS
claim nim1-grundy at x=2
position 2 in nim1
  option  Grundy
  0       0
  1       1
mex of the options = G(2) = 2
the claim says: 2 (grundy = x)
"""
from __future__ import annotations

from typing import Any, Callable

from nimjos.lang.values import format_value
from nimjos.lang.errors import SpecError
from nimjos.api.pins import parse_at
import ast
from checkers import check_exhaustive, family_members, pinned_place, printed_cells
from nimjos.spec.plan import (ClaimPlan, GrundyBoundPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PeriodicPlan, SetPlan, StairPlan, ValuesPlan,
                              handler_for, plan_claim)
from nimjos.lang.errors import EvalError
from nimjos.games.declared import MISERE, as_instance
from nimjos.games.engine import active_engine
from nimjos.games.loopy import MAX_POSITIONS as LOOPY_POSITIONS, describe, outcome
from nimjos.spec.loader import load_spec

MAX_LISTED = 40


def _split(target: str) -> tuple[str, str]:
    if "::" not in target:
        raise SpecError(f"expected FILE::CLAIM, got {target!r}")
    path, cid = target.rsplit("::", 1)
    return path, cid


def _pins(at: str | None, coords: tuple[str, ...]) -> dict[str, Any] | None:
    if at is None:
        return None
    text = at.strip()
    if text.startswith("(") or text.lstrip("-").isdigit():
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise SpecError(f"--at: cannot read position {at!r}") from None
        values = value if isinstance(value, tuple) else (value,)
        return dict(zip(coords, values))
    return parse_at(text)


def _value_name(inst: Any) -> str:
    """What a game's values are called: misère Grundy values in misère play, Grundy values in normal play.

    >>> from nimjos.games.functions import misere, nim
    >>> _value_name(nim()), _value_name(misere(nim()))
    ('Grundy', 'misère Grundy')
    """
    return "misère Grundy" if inst.play == MISERE else "Grundy"


def _tree(inst: Any, pos: Any, depth: int, indent: str, lines: list[str]) -> None:
    if depth <= 0:
        return
    opts = sorted(set(inst.options(pos)))
    g = "misère G" if inst.play == MISERE else "G"
    for q in opts[:12]:
        lines.append(f"{indent}-> {format_value(q)}  {g} = {inst.grundy(q)}")
        _tree(inst, q, depth - 1, indent + "   ", lines)
    if len(opts) > 12:
        lines.append(f"{indent}   ... {len(opts) - 12} more options")


def _sequence_lines(plan: Any, env: dict) -> list[str]:
    """A printed sequence (``values = {of, var, from, equal}``) at one index: the computed and the printed term.

    >>> class P: values = {"of": "n * n", "var": "n", "from": 1, "equal": [1, 4, 10]}; values_expr = staticmethod(lambda e: e["n"] ** 2)
    >>> _sequence_lines(P, {"n": 3})
    ['n = 3: n * n = 9; printed 10 (term 3 of the printed sequence, which starts at n = 1)']
    """
    v = plan.values
    var, start, printed = v["var"], v.get("from", 0), v["equal"]
    if var not in env:
        return [f"--at must give the index {var!r}, e.g. --at '{var}={start}'"]
    n = env[var]
    i = n - start
    shown = (f"printed {format_value(printed[i])} (term {i + 1} of the printed sequence, which starts at {var} = {start})"
             if 0 <= i < len(printed) else
             f"the printed sequence has no term there (it gives {var} = {start}..{start + len(printed) - 1})")
    try:
        value = format_value(plan.values_expr(env))
    except EvalError as exc:
        value = f"cannot be evaluated ({exc})"
    return [f"{var} = {n}: {v['of']} = {value}; {shown}"]


def explain_text(target: str, at: str | None = None, depth: int = 0, profile: str = "default") -> str:
    """The explanation of one claim at one position, as text."""

    path, cid = _split(target)
    claim = load_spec(path).claim(cid)
    plan = plan_claim(claim, profile)
    sequence = plan if isinstance(plan, ValuesPlan) and plan.values_expr is not None else None
    coords = plan.coords or ((sequence.values["var"],) if sequence is not None else ())
    pins = _pins(at, coords)
    lines: list[str] = []
    if pins is None:
        v = check_exhaustive(claim, profile, max_counterexamples=1)
        first = next(iter(v.counterexamples or v.undefined), None)
        if first is None:
            head = f"claim {cid} is {v.verdict} on its window ({v.scope}); give --at to explain a position"
            if sequence is None:
                return head
            # a printed sequence: its terms, computed and printed, side by side
            var, start, n = sequence.values["var"], sequence.values.get("from", 0), len(sequence.values["equal"])
            terms = [line for i in range(min(n, MAX_LISTED)) for line in _sequence_lines(sequence, {var: start + i})]
            more = [f"... {n - MAX_LISTED} more terms"] if n > MAX_LISTED else []
            head = f"claim {cid} is {v.verdict} ({v.scope}); each term, computed and printed:"
            return "\n".join([head, *terms, *more])
        pins = dict(first.bindings)
        lines.append(f"claim {cid}: {v.verdict}; " + (f"smallest counterexample {first.at_text()}" if pins else
                                                       "false as a closed statement (no variables)"))
    else:
        # a point outside the claim's domain is refused (the claim says nothing there); beyond the window it is
        # evaluated all the same, and said so
        try:
            place = pinned_place(plan, pins) if plan.window is not None else "window"
        except SpecError as exc:
            raise exc.located(file=path, item=f"claim {cid!r}") from None
        beyond = (f" (beyond the window, inside the {plan.domain.describe()})"
                  if place == "domain" and plan.domain is not None else "")
        lines.append(f"claim {cid} at " + ", ".join(f"{k}={format_value(x)}" for k, x in pins.items()) + beyond)
    env = dict(pins)
    if sequence is not None:
        lines += _sequence_lines(sequence, env)
        return "\n".join(lines)
    if plan.game is None or not plan.coords:
        if isinstance(plan, HoldsPlan) and plan.sides is not None:
            try:
                lines.append(f"left side = {format_value(plan.sides[0](env))}, "
                             f"right side = {format_value(plan.sides[1](env))}")
            except (EvalError, KeyError) as exc:
                lines.append(f"cannot evaluate the sides here: {exc}")
        elif isinstance(plan, HoldsPlan):
            try:
                lines.append(f"the statement evaluates to {format_value(plan.formula(env))}")
            except (EvalError, KeyError) as exc:
                lines.append(f"cannot evaluate the statement here: {exc}")
        return "\n".join(lines)
    try:
        inst = as_instance(plan.game({}) if isinstance(plan, ValuesPlan) else plan.game(env))
        pos = inst.normalise(env[plan.coords[0]] if len(plan.coords) == 1 else tuple(env[c] for c in plan.coords))
    except KeyError as exc:
        return "\n".join(lines + [f"--at must give {exc.args[0]!r} (and every param of the game)"])
    opts = sorted(set(inst.options(pos)))
    if plan.loopy:
        return "\n".join(lines + _loopy_lines(plan, env, pos, inst, opts))
    value = inst.grundy(pos)
    misere = inst.play == MISERE
    lines.append(f"position {format_value(pos)} in {inst.label}" + (" (misère play: the last player to move loses)"
                                                                     if misere else ""))
    lines.append(f"  option  {_value_name(inst)}")
    for q in opts[:MAX_LISTED]:
        lines.append(f"  {format_value(q):<7} {inst.grundy(q)}")
    if len(opts) > MAX_LISTED:
        lines.append(f"  ... {len(opts) - MAX_LISTED} more options")
    if not opts:
        lines.append("  (no options: a terminal position)")
    if not misere:
        lines.append(f"mex of the options = G({format_value(pos)}) = {value}")
    elif opts:
        lines.append(f"mex of the options' misère Grundy values = {value}: "
                     + ("a P-position in misère play" if value == 0 else "an N-position in misère play"))
    else:
        lines.append(f"misère Grundy value {value}: a terminal position is an N-position in misère play (the player "
                     "to move cannot move, and wins)")
    said = None
    says = handler_for(CLAIM_SAYS, plan)
    try:
        said = says(plan, env, pos, inst, value) if says is not None else None
    except EvalError as exc:
        said = f"nothing: it cannot be evaluated here ({exc})"
    if said:
        lines.append(f"the claim says: {said}")
    if depth > 0:
        lines.append(f"game tree to depth {depth}:")
        _tree(inst, pos, depth, "  ", lines)
    return "\n".join(lines)


def _loopy_lines(plan: ClaimPlan, env: dict, pos: Any, inst: Any, opts: list) -> list[str]:
    """A position of a loopy game: its generalized Sprague-Grundy value and outcome, each option's, and what the
    claim says there (the values of the game graph reachable from the position; undecided past the count)."""
    sol = inst.loopy_values([pos], min(active_engine().max_positions, LOOPY_POSITIONS))

    def shown(q: Any) -> str:
        v = sol.values.get(q)
        return "undecided (the game graph from here is larger than was explored)" if v is None else \
            f"{describe(v)} ({outcome(v)})"
    lines = [f"position {format_value(pos)} in {inst.label} (loopy: generalized Sprague-Grundy values, the "
             f"game graph of {sol.explored:,} positions reachable from it)",
             "  option  value (outcome)"]
    lines += [f"  {format_value(q):<7} {shown(q)}" for q in opts[:MAX_LISTED]]
    if len(opts) > MAX_LISTED:
        lines.append(f"  ... {len(opts) - MAX_LISTED} more options")
    if not opts:
        lines.append("  (no options: a terminal position)")
    lines.append(f"its value: {shown(pos)}")
    formula = getattr(plan, "formula", None)
    if formula is not None:
        try:
            said = format_value(formula(env))
        except EvalError as exc:
            said = f"nothing: it cannot be evaluated here ({exc})"
        lines.append(f"the claim says: {said} ({plan.claim.kind} = {plan.claim.formula_text()})")
    return lines



def _grundy_says(plan: GrundyPlan, env: dict, pos: Any, inst: Any, value: int) -> str:
    return f"{format_value(plan.formula(env))} (grundy = {plan.claim.statement})"


def _set_says(plan: SetPlan, env: dict, pos: Any, inst: Any, value: int) -> str:
    if isinstance(plan, LevelSetPlan):
        return "the level sets: " + plan.claim.formula_text()
    if plan.formula is None:   # a union of families: the member that gives this position, or that none does
        assert plan.families is not None, "a set of families"
        members = family_members(plan, {k: v for k, v in env.items() if k not in plan.coords}, pos)
        if not members:
            return f"not a P-position: no family gives {format_value(pos)} ({plan.claim.formula_text()})"
        return "P-position: " + "; also ".join(_member_text(plan, number, at) for number, at in members)
    return ("P-position" if plan.formula(env) else "not a P-position") + f" ({plan.claim.formula_text()})"


def _member_text(plan: SetPlan, number: int, at: dict) -> str:
    """One member of a claim's families: ``family 2 {(j, j + 1): j >= 1} at j = 1``."""
    assert plan.families is not None, "a set of families"
    family = plan.families[number - 1]
    where = ", ".join(f"{k} = {format_value(v)}" for k, v in at.items())
    return f"family {number} {{{family.point_text}: {family.where_text}}}" + (f" at {where}" if where else "")


def _table_says(plan: ValuesPlan, env: dict, pos: Any, inst: Any, value: int) -> str:
    if "grundy" not in plan.values:
        return "the printed table"
    printed = dict(printed_cells(plan.values)).get(pos)
    return (f"the printed table has no entry at {format_value(pos)}" if printed is None else
            f"G({format_value(pos)}) = {format_value(printed)} (the printed table)")


def _periodic_says(plan: PeriodicPlan, env: dict, pos: Any, inst: Any, value: int) -> str:
    pat = {k: fn(env) for k, fn in plan.pattern.items()}
    p, n0, s = pat["period"], pat.get("preperiod", 0), pat.get("saltus", 0)
    if pos < n0:
        return f"nothing here: periodic from {n0}"
    return (f"G({pos} + {p}) = G({pos}) + {s}; here G({pos + p}) = {inst.grundy(pos + p)} "
            f"and G({pos}) + {s} = {value + s}")


def _stair_says(plan: StairPlan, env: dict, pos: Any, inst: Any, value: int) -> str:
    h = plan.pattern["h"](env)
    base = (pos // h) * h
    return (f"a {h}-stair: G({pos}) = G({base}) + {pos - base} = {inst.grundy(base) + pos - base}, "
            f"and {h} divides G({base}) = {inst.grundy(base)}")


def _bound_says(plan: GrundyBoundPlan, env: dict, pos: Any, inst: Any, value: int) -> str:
    return f"G({format_value(pos)}) <= {format_value(plan.bound(env))}"


#: what a claim of each kind says at a position of its game (plan, env, position, game instance, its Grundy value)
CLAIM_SAYS: dict[type[ClaimPlan], Callable[..., str | None]] = {
    GrundyPlan: _grundy_says, SetPlan: _set_says, ValuesPlan: _table_says, PeriodicPlan: _periodic_says,
    StairPlan: _stair_says, GrundyBoundPlan: _bound_says,
}
