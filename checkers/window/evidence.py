"""The evidence a window check leaves for reports: the Grundy sequence or grid of the first instance with the
claimed values, observations of periodicity and stairs, the options of a counterexample's position, the names
held fixed over the plotted instance, and the circle of a Josephus claim.

>>> position_of({"x": 3, "y": 4}, ("x", "y"))
(3, 4)
"""
from __future__ import annotations

import re
from typing import Any, Protocol

import numpy as np

from nimjos.games.declared import MISERE, as_instance
from nimjos.games.engine import active_engine
from nimjos.games.periodicity import observe, outcome_pattern, smallest_stair
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.values import format_value
from nimjos.spec.plan import ClaimPlan, ValuesPlan
from nimjos.verdict import Counterexample

EVIDENCE_1D = 200
EVIDENCE_2D = 64


def position_of(env: dict, coords: tuple[str, ...]) -> Any:
    """The position a binding names: the value of its one coordinate, or the tuple of its coordinates.

    >>> position_of({"x": 3, "k": 2}, ("x",)), position_of({"x": 3, "y": 4}, ("x", "y"))
    (3, (3, 4))
    """
    if len(coords) == 1:
        return env[coords[0]]
    return tuple(env[c] for c in coords)


def fixed_names(rows: list, names: tuple, coords: tuple) -> dict:
    """The names besides the coordinates that keep one value over the plotted (first) instance's rows, so
    a plot marks only the counterexamples of the instance it draws.

    >>> fixed_names([((2, 0), "g2", 0), ((2, 1), "g2", 1), ((3, 0), "g3", 0)], ("k", "x"), ("x",))
    {'k': 2}
    """
    if not rows:
        return {}
    first, inst0, _ = rows[0]
    fixed = {n: v for n, v in zip(names, first) if n not in coords and type(v) is int}
    for values, inst, _ in rows:
        if inst is inst0:
            for n, v in zip(names, values):
                if n in fixed and fixed[n] != v:
                    del fixed[n]
    return fixed


def evidence_rows(names: tuple, arrays: dict, insts: list, which: Any, coords: tuple) -> tuple[list, list]:
    """The rows (binding values, game instance, position) of a vectorised window that :func:`window_evidence`
    needs, in window order: one coordinate: every row of the first 13 instances (the sequence and the
    observations); two: the first instance's rows in the plotted 64 x 64 box from its least coordinates;
    more: the first row. `arrays` are the window's held bindings, `which[i]` the index in `insts` of row i's
    game instance. Returns the rows and their indices in `arrays`.

    >>> import numpy as np
    >>> evidence_rows(("x",), {"x": np.arange(3)}, ["g"], np.zeros(3, dtype=int), ("x",))
    ([((0,), 'g', 0), ((1,), 'g', 1), ((2,), 'g', 2)], [0, 1, 2])
    """
    n = len(which)
    if n == 0:
        return [], []
    if len(coords) == 1:
        order = list(dict.fromkeys(int(w) for w in which))[:13]
        keep = np.nonzero(np.isin(which, order))[0]
    elif len(coords) == 2:
        first = which == which[0]
        xs, ys = arrays[coords[0]], arrays[coords[1]]
        x0, y0 = int(xs[first].min()), int(ys[first].min())
        box = first & (xs < x0 + EVIDENCE_2D) & (ys < y0 + EVIDENCE_2D)
        extra = [int(np.nonzero(first & (xs == x0))[0][0]), int(np.nonzero(first & (ys == y0))[0][0])]
        keep = np.union1d(np.nonzero(box)[0], np.array([0] + extra))
    else:
        keep = np.array([0])
    cols = [arrays[nm][keep].tolist() for nm in names]
    pcols = [arrays[c][keep].tolist() for c in coords]
    out = []
    for j, i in enumerate(keep.tolist()):
        pos = pcols[0][j] if len(coords) == 1 else tuple(pc[j] for pc in pcols)
        out.append((tuple(col[j] for col in cols), insts[int(which[i])], pos))
    return out, keep.tolist()


def fixed_names_arrays(names: tuple, arrays: dict, which: Any, coords: tuple) -> dict:
    """:func:`fixed_names` of a vectorised window: the names besides the coordinates that keep one value over
    the rows of the first game instance.

    >>> import numpy as np
    >>> fixed_names_arrays(("k", "x"), {"k": np.array([2, 2, 3]), "x": np.array([0, 1, 0])}, np.array([0, 0, 1]), ("x",))
    {'k': 2}
    """
    if len(which) == 0:
        return {}
    first = which == which[0]
    out = {}
    for nm in names:
        if nm in coords:
            continue
        col = arrays[nm][first]
        if int(col.min()) == int(col.max()):
            out[nm] = int(col[0])
    return out


def window_evidence(rows: list, claimed_map: dict, label: str) -> dict:
    """What a report plots of a game claim's window: the Grundy sequence (one coordinate) or grid (two) of the
    first instance, with the claimed values when given, and observations of periodicity and stairs.
    `rows` are (binding values, game instance, position), the instances solved.

    >>> from nimjos.games.declared import subtraction
    >>> from nimjos.games.engine import active_engine
    >>> g = subtraction(frozenset({1, 2}))
    >>> active_engine().solve(g, list(range(14)))
    >>> ev = window_evidence([((x,), g, x) for x in range(14)], {}, "")
    >>> ev["sequence"]["grundy"][:6], ev["observations"][0]
    ([0, 1, 2, 0, 1, 2], 'observation: the Grundy sequence of subtraction({1, 2}) is periodic with period 3 from 0 (exact through 13)')
    """
    if not rows:
        return {}
    inst0 = rows[0][1]
    first = [(pos, inst) for _, inst, pos in rows if inst is inst0]
    if inst0.dim == 1 and any(type(p) is not int for p, _ in first):
        return {}   # positions of several heaps (a heap game over tuples): no one sequence to plot
    if inst0.dim == 1:
        allx = sorted({p for p, _ in first})
        xs = allx[:EVIDENCE_1D]
        per_instance: dict = {}
        for _, inst, pos in rows:
            if len(per_instance) > 12 and inst not in per_instance:
                continue
            per_instance.setdefault(inst, set()).add(pos)
        observations = [o for inst, ps in list(per_instance.items())[:12] for o in _observations(inst, sorted(ps))]
        return {"observations": observations, "sequence": {"x0": xs[0], "grundy": [inst0.lookup(x) for x in xs],
                             "claimed": [claimed_map.get((inst0, x)) for x in xs] if claimed_map else None,
                             "label": label, "game": inst0.label}}
    if inst0.dim == 2:
        x0 = min(p[0] for p, _ in first)
        y0 = min(p[1] for p, _ in first)
        n = EVIDENCE_2D
        checked = {pos for pos, _ in first}     # the window's cells only, however far the engine's table reaches
        grid = [[inst0.lookup((x0 + i, y0 + j)) if (x0 + i, y0 + j) in checked else -1 for j in range(n)] for i in range(n)]
        width = max(i for i in range(n) if any(c >= 0 for c in grid[i])) + 1
        height = max(j for j in range(n) if any(grid[i][j] >= 0 for i in range(n))) + 1
        grid = [row[:height] for row in grid[:width]]
        claimed = None
        if claimed_map:
            claimed = [[_as_cell(claimed_map.get((inst0, (x0 + i, y0 + j)))) for j in range(height)]
                       for i in range(width)]
        return {"grid": {"x0": x0, "y0": y0, "coords": list(inst0.coords), "grundy": grid, "claimed": claimed, "label": label,
                         "game": inst0.label}}
    return {}


def _observations(inst: Any, xs: list) -> list[str]:
    """Periodicity and h-stair structure of the Grundy sequence on the window, stated as observations, each only
    with several periods of evidence (:func:`nimjos.games.periodicity.observe`); of a game in misère play, the
    pattern of its P-positions (:func:`nimjos.games.periodicity.outcome_pattern`), never a normal-play pattern.

    >>> from nimjos.games.declared import subtraction
    >>> from nimjos.games.heaps.misere import misere
    >>> from nimjos.games.engine import active_engine
    >>> g = misere(subtraction(frozenset({1, 2, 3})))
    >>> active_engine().solve(g, list(range(41)))
    >>> _observations(g, list(range(41)))
    ['observation: the P-positions (misère play) of misere(subtraction({1, 2, 3})) from n = 0 are the n with n % 4 == 1 (exact through 40)']
    """
    if len(xs) < 12 or xs[-1] - xs[0] + 1 != len(xs) or len(xs) > 200_000:
        return []
    seq = [inst.lookup(x) for x in xs]
    if inst.play == MISERE:
        pattern = outcome_pattern(seq, xs[0])
        return [f"observation: {pattern.replace(' (misère play)', f' (misère play) of {inst.label}', 1)}"] \
            if pattern else []
    out = []
    found = observe(seq)
    if found:
        text = found.describe().replace(f"from {found.preperiod}", f"from {xs[0] + found.preperiod}")
        text = text.replace(f"through {found.through}", f"through {xs[0] + found.through}")
        out.append(f"observation: the Grundy sequence of {inst.label} is {text}")
    h = smallest_stair(seq) if xs[0] == 0 else None
    if h:
        out.append(f"observation: the Grundy sequence of {inst.label} is a {h}-stair through "
                   f"{(len(seq) // h) * h - 1}")
    return out


def _as_cell(v: Any) -> Any:
    if v is None or isinstance(v, bool):
        return None if v is None else int(v)
    return v if isinstance(v, int) else None


def options_evidence(plan: ClaimPlan, cx: Counterexample, evidence: dict) -> None:
    """Add to `evidence` the options of the counterexample's position with their Grundy values (its mex).

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> plan = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].plan()
    >>> evidence = {}
    >>> options_evidence(plan, Counterexample({"x": 2}, 2, 1), evidence)
    >>> evidence["options"]["mex"], [o["grundy"] for o in evidence["options"]["options"]]
    (2, [0, 1])
    """
    if plan.game is None or not plan.coords:
        return
    try:
        env = dict(cx.bindings)
        inst = as_instance(plan.game({}) if isinstance(plan, ValuesPlan) else plan.game(env))
        pos = inst.normalise(position_of(env, plan.coords))
        opts = sorted(set(inst.options(pos)))
        active_engine().solve(inst, [pos])
        listed = [{"position": format_value(q), "grundy": inst.lookup(q)} for q in opts[:64]]
        evidence["options"] = {"position": format_value(pos), "options": listed,
                               "more": max(0, len(opts) - 64),
                               "mex": inst.lookup(pos), "claimed": format_value(cx.rhs)}
    except (EvalError, SpecError, KeyError):
        return


_JOSEPHUS_WORDS = ("survivor", "JJ(", "removed(", "removal_index", "F(")


class StatedClaim(Protocol):
    """What :func:`josephus_evidence` reads of a claim: its statement and its game, as written."""

    @property
    def statement(self) -> Any: ...

    @property
    def game_text(self) -> str | None: ...


def josephus_evidence(claim: StatedClaim, cx: Counterexample | None, evidence: dict) -> None:
    """Add to `evidence` the circle (n, k) a report draws for a Josephus claim (from the counterexample, or the
    claim's text), kept small.

    >>> class C: statement = "survivor(n, 3) == 1"; game_text = None
    >>> evidence = {}
    >>> josephus_evidence(C(), Counterexample({"n": 70}, 1, 2), evidence); evidence
    {'josephus': {'n': 40, 'k': 3}}
    """
    text = str(claim.statement or "") + " " + str(claim.game_text or "")
    if not any(w in text for w in _JOSEPHUS_WORDS):
        return
    b = cx.bindings if cx is not None else {}
    n_at, k_at = b.get("n"), b.get("k")
    n = n_at if isinstance(n_at, int) else 12
    k = k_at if isinstance(k_at, int) else None
    if k is None:
        # a k written as a number: survivor(n, 2), removed(n, 3, i), removal_index(n, 3, m), JJ(3, n, m)
        m = (re.search(r"(?:survivor|removed|removal_index)\(\s*[^,()]+,\s*(\d+)\s*[,)]", text)
             or re.search(r"JJ\(\s*(\d+)\s*,", text))
        k = int(m.group(1)) if m else (2 if "F(" in text else 3)
    n = max(1, min(n, 40))
    k = max(1, min(k, 40))
    evidence["josephus"] = {"n": n, "k": k}
