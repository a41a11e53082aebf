"""The Walnut queries of a claim, for one instance (its parameters fixed): the local certificate of a game
claim, or the statement of a ``holds`` claim, each quantified over every position of the domain.

Game claims (the game declared by move families, its parameters fixed): positions are x00, x01, ... (in the
declared order), an option y00, y01, ...; ``dm`` is the domain, ``mv<i>`` move family i (its bound names
existential inside), ``fG(g, position)`` the claimed value (g = 2**value when the value is a v2/ilog2) or
``fP(position)`` the claimed P-positions. The queries, each to be TRUE:

* ``descent``: every move lowers the sum of the coordinates, and ``closure``: every move stays in the
  domain (together: the certificate is a proof by induction on the sum);
* ``total``: the formula has a value at every position of the domain (grundy);
* ``a``: no option has the same value (no move P -> P); ``b``: every smaller value is the value of an
  option (every position outside P has a move into P); in misère play (P-positions only) ``b`` asks it of every
  non-terminal position outside P, and ``c``: no terminal position is in P (a terminal position is an N-position);
* ``ob<i>``: the obligations of the translation (a difference never negative where it is evaluated ...).

``cex`` is the automaton of the positions where the certificate fails; when descent and closure hold, its
least position by (sum, lexicographic) is the least counterexample. Holds claims: ``holds`` is
``A names (domain & assume) => statement`` and ``cex`` the automaton of its counterexamples.

>>> from nimjos.lang.syntax import parse  # the example's expressions
>>> job = holds_job(spec_namespace(), parse("xor(x, x) == 0"), ["x"], {}, parse("0 <= x"), None)
>>> job.commands[-2]
'eval q_holds "Ax00 ((0 = 0)) => ((Ev001 ($xor(x00,x00,v001)) & (v001) = (0)))";'
"""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from typing import AbstractSet, Any

from nimjos.lang.compiler import Namespace
from nimjos.spec.names import spec_namespace  # noqa: F401  (the docstring example)
from checkers.prove.walnut.logic import Exp, NotAutomatic, Unit, pad, quant
from checkers.prove.walnut.numeration import BASE2, Numeration
from checkers.prove.walnut.translate import Translator
from checkers.modes import Mode

#: positions of at most this many coordinates (def parameters z00..z98 sort in order)
MAX_COORDS = 24


@dataclass
class Job:
    """The Walnut commands of one instance and how to read their answers."""

    commands: list[str]
    queries: dict[str, str] = field(default_factory=dict)       # eval name -> role (descent, a, ob0, ...)
    why: dict[str, str] = field(default_factory=dict)           # obligation eval name -> what it guards
    names: list[str] = field(default_factory=list)              # the cex automaton's variables, as claim names
    exp_names: set = field(default_factory=set)                 # names carried as 2**n
    exp_value: bool = False                                     # a grundy value carried as 2**value
    statement: str = ""                                         # the claim's formula in Walnut, for notes
    automata: dict[str, str] = field(default_factory=dict)      # stored automata to install: library name -> text


def _names(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i:02d}" for i in range(n)]


def _tree(expr: ast.expr | None) -> ast.expr:
    """An expression of the claim as a syntax tree: a tree of the plan, copied (a translation may keep the nodes
    it is given); a statement asked for where the claim states a union of families is a bug of the caller.

    >>> ast.unparse(_tree(ast.parse("y", mode="eval").body))
    'y'
    """
    assert expr is not None, "a statement written as one expression"
    return copy.deepcopy(expr)


def _obligations(job: Job, units: list[tuple[Unit, str]]) -> None:
    i = 0
    for unit, where in units:
        for formula, why in unit.obligations:
            job.commands.append(f'eval ob{i} "{formula}";')
            job.queries[f"ob{i}"] = "obligation"
            job.why[f"ob{i}"] = f"{where}: {why}"
            i += 1


def game_job(ns: Namespace, decl: Any, game_params: dict, consts: dict, kind: Mode, statement: ast.expr | None,
             families: list | None, domain: ast.expr | None, coords: tuple[str, ...],
             levels: tuple[str, list[int]] | None = None, num: Numeration = BASE2, misere: bool = False) -> Job:
    """The certificate of a grundy (kind 'grundy'), p_positions ('p') or level_set ('level') claim about a
    declared game; `levels` is a level set's name and its values 0..S, each level's set translated with the
    level fixed; `num` the numeration of the formulas (msd_2 unless given); `misere`: the game is played in misère
    play (P-positions only: the terminal condition ``c``)."""
    n = len(coords)
    if misere and kind != Mode.P:
        raise NotAutomatic("in misère play the certificate judges P-positions only")
    if n > MAX_COORDS:
        raise NotAutomatic(f"{n} coordinates (at most {MAX_COORDS})")
    # the claim's names (consts) and the game's parameters are different scopes, even under one name: the game
    # sub(m) with parameter k, in a claim that binds k too, moves by its k = m, while the formula reads the claim's k
    tr = Translator(ns, consts, num)
    Z = _names("z", 2 * n + 1)
    P, O = _names("x", n), _names("y", n)
    job = Job(commands=[], names=list(coords))
    units: list[tuple[Unit, str]] = []
    # the domain, dm(position)
    dunit = Unit(params=Z[:n])
    body = tr.formula(_tree(domain), dict(zip(coords, Z[:n])), dunit) if domain else "0 = 0"
    job.commands.append(f'def dm "{pad(Z[:n], body)}";')
    units.append((dunit, "the domain"))
    # the moves, mv<i>(option z00.., position z(n)..), where fam.binder's names are existential
    for i, fam in enumerate(decl.moves):
        unit = Unit(params=Z[:2 * n], path=[f"$dm({','.join(Z[n:2 * n])})"])
        tr.consts = dict(game_params)
        try:
            body = tr.move(decl, i, Z[:n], Z[n:2 * n], unit)
        finally:
            tr.consts = dict(consts)
        job.commands.append(f'def mv{i} "{pad(Z[:2 * n], body)}";')
        units.append((unit, f"move {i + 1}"))
    move = "(" + " | ".join(f"$mv{i}({','.join(O + P)})" for i in range(len(decl.moves))) + ")"
    dmP, dmO = f"$dm({','.join(P)})", f"$dm({','.join(O)})"
    Ps, Os = ",".join(P), ",".join(O)
    q = {"descent": f"A{Ps},{Os} ({dmP} & {move}) => {'+'.join(O)} < {'+'.join(P)}",
         "closure": f"A{Ps},{Os} ({dmP} & {move}) => {dmO}"}
    env = dict(zip(coords, Z[1:n + 1]))
    if kind == Mode.GRUNDY:
        unit = Unit(params=Z[:n + 1], path=[f"$dm({','.join(Z[1:n + 1])})"])
        acc: list = []
        g = tr.term(_tree(statement), env, unit, acc)
        job.exp_value = isinstance(g, Exp)
        body = tr.close(acc, f"z00 = {g.t if job.exp_value else g}")
        job.commands.append(f'def fG "{pad(Z[:n + 1], body)}";')
        job.statement = f"fG(g, {', '.join(coords)}) := {_readable(body, ['g', *coords])}"
        units.append((unit, "the formula"))
        val = "$pow2(w) & w < g" if job.exp_value else "w < g"
        q["total"] = f"A{Ps} {dmP} => (Eg $fG(g,{Ps}))"
        q["a"] = f"A{Ps},{Os},g ({dmP} & $fG(g,{Ps}) & {move}) => ~$fG(g,{Os})"
        q["b"] = f"A{Ps},g,w ({dmP} & $fG(g,{Ps}) & {val}) => (E{Os} {move} & $fG(w,{Os}))"
        cex = (f"{dmP} & (~(Eg $fG(g,{Ps})) | (E{Os},g $fG(g,{Ps}) & {move} & $fG(g,{Os})) | "
               f"(Eg,w $fG(g,{Ps}) & {val} & ~(E{Os} {move} & $fG(w,{Os}))))")
    elif kind == Mode.LEVEL:
        if levels is None:
            raise ValueError("the certificate of a level set needs its levels")
        lname, values = levels
        unit = Unit(params=Z[:n + 1], path=[f"$dm({','.join(Z[1:n + 1])})"])
        parts = []
        for value in values:
            saved = dict(tr.consts)
            tr.consts[lname] = value
            try:
                if families is None:
                    part = tr.formula(_tree(statement), env, unit)
                else:
                    part = " | ".join(_family(tr, fam, env, unit, Z[1:n + 1]) for fam in families)
            finally:
                tr.consts = saved
            parts.append(f"(z00 = {value} & ({part}))")
        body = " | ".join(parts)
        job.commands.append(f'def fG "{pad(Z[:n + 1], body)}";')
        job.statement = f"fG({lname}, {', '.join(coords)}) := {_readable(body, [lname, *coords])}"
        units.append((unit, "the level sets"))
        top = max(values)
        q["unique"] = f"A{Ps},g,w ({dmP} & $fG(g,{Ps}) & $fG(w,{Ps})) => g = w"
        q["a"] = f"A{Ps},{Os},g ({dmP} & $fG(g,{Ps}) & {move}) => ~$fG(g,{Os})"
        q["b"] = f"A{Ps},g,w ({dmP} & $fG(g,{Ps}) & w < g) => (E{Os} {move} & $fG(w,{Os}))"
        q["c"] = f"A{Ps},w ({dmP} & ~(Eg $fG(g,{Ps})) & w <= {top}) => (E{Os} {move} & $fG(w,{Os}))"
        cex = (f"{dmP} & ((Eg,w $fG(g,{Ps}) & $fG(w,{Ps}) & g != w) | (E{Os},g $fG(g,{Ps}) & {move} & $fG(g,{Os})) | "
               f"(Eg,w $fG(g,{Ps}) & w < g & ~(E{Os} {move} & $fG(w,{Os}))) | "
               f"(Ew ~(Eg $fG(g,{Ps})) & w <= {top} & ~(E{Os} {move} & $fG(w,{Os}))))")
    else:
        unit = Unit(params=Z[1:n + 1], path=[f"$dm({','.join(Z[1:n + 1])})"])
        if families is None:
            body = tr.formula(_tree(statement), env, unit)
        else:
            body = " | ".join(_family(tr, fam, env, unit, Z[1:n + 1]) for fam in families)
        job.commands.append(f'def fP "{pad(Z[1:n + 1], body)}";')
        job.statement = f"fP({', '.join(coords)}) := {_readable(body, ['', *coords])}"
        units.append((unit, "the P-positions"))
        q["a"] = f"A{Ps},{Os} ({dmP} & $fP({Ps}) & {move}) => ~$fP({Os})"
        if misere:
            # a terminal position (no move) is an N-position: never in P; (b) only where a move exists
            some_move = f"(E{Os} {move})"
            q["b"] = f"A{Ps} ({dmP} & ~$fP({Ps}) & {some_move}) => (E{Os} {move} & $fP({Os}))"
            q["c"] = f"A{Ps} ({dmP} & $fP({Ps})) => {some_move}"
            cex = (f"{dmP} & ((E{Os} $fP({Ps}) & {move} & $fP({Os})) | "
                   f"(~$fP({Ps}) & {some_move} & ~(E{Os} {move} & $fP({Os}))) | ($fP({Ps}) & ~{some_move}))")
        else:
            q["b"] = f"A{Ps} ({dmP} & ~$fP({Ps})) => (E{Os} {move} & $fP({Os}))"
            cex = f"{dmP} & ((E{Os} $fP({Ps}) & {move} & $fP({Os})) | (~$fP({Ps}) & ~(E{Os} {move} & $fP({Os}))))"
    for k, f in q.items():
        job.commands.append(f'eval q_{k} "{f}";')
        job.queries[f"q_{k}"] = k
    _obligations(job, units)
    job.commands.append(f'eval cex "{pad(P, cex)}";')
    job.automata = dict(tr.stored)
    return job


def _family(tr: Translator, fam: Any, env: dict, unit: Unit, pos: list[str]) -> str:
    """One family of points {point : where} as a formula: E names (where & position = point)."""
    local = dict(env)
    nonneg = set(env)
    for level in fam.binder.levels:
        if not tr.natural_level(level, nonneg):
            raise NotAutomatic(f"the family index {level.name} ({fam.where_text}) may be negative")
        nonneg.add(level.name)
        local[level.name] = tr.fresh("b")
    bound = [local[lv.name] for lv in fam.binder.levels]
    unit.params = unit.params + bound
    where = tr.formula(_tree(fam.binder.tree), local, unit)
    unit.path.append(where)
    tree = _tree(fam.point.tree)
    comps = tree.elts if isinstance(tree, ast.Tuple) else [tree]
    eqs = []
    for p, c in zip(pos, comps):
        acc: list = []
        cp, cn = tr.linear(c, local, unit, acc)
        eqs.append(tr.close(acc, tr.relation([(1, p)] + cn, [], "=", cp, [], c)))
    unit.path.pop()
    return "(" + quant("E", bound, f"(({where}) & " + " & ".join(f"({e})" for e in eqs) + ")") + ")"


def holds_job(ns: Namespace, statement: ast.expr, names: list[str], consts: dict, domain: ast.expr | None,
              assume: ast.expr | None, exp_names: AbstractSet[str] = frozenset(), num: Numeration = BASE2) -> Job:
    """The statement of a holds claim over every value of `names` in the domain (and the assumption), in the
    numeration `num` (msd_2 unless given)."""
    tr = Translator(ns, consts, num)
    X = _names("x", len(names))
    env: dict = {nm: (Exp(x) if nm in exp_names else x) for nm, x in zip(names, X)}
    job = Job(commands=[], names=list(names), exp_names=set(exp_names))
    unit = Unit(params=list(X))
    hyp = [f"$pow2({x})" for nm, x in zip(names, X) if nm in exp_names]
    for text in (domain, assume):
        if text:
            f = tr.formula(_tree(text), env, unit)
            hyp.append(f)
            unit.path.append(f)
    body = tr.formula(_tree(statement), env, unit)
    h = " & ".join(f"({x})" for x in hyp) or "0 = 0"
    job.statement = _readable(body, list(names), "x")
    job.commands.append(f'eval q_holds "{quant("A", X, f"({h}) => ({body})")}";')
    job.queries["q_holds"] = "holds"
    _obligations(job, [(unit, "the statement")])
    job.commands.append(f'eval cex "{pad(X, f"({h}) & ~({body})")}";')
    job.automata = dict(tr.stored)
    return job


def _readable(text: str, names: list[str], prefix: str = "z") -> str:
    """A Walnut formula with its parameters z00, z01, ... (or x00, ...) named as the claim names them.

    >>> _readable("z00 = z01 + z02", ["g", "x", "y"])
    'g = x + y'
    """
    for i, nm in enumerate(names):
        if nm:
            text = re.sub(rf"\b{prefix}{i:02d}\b", nm, text)
    return text


def decode(values: tuple, job: Job) -> dict:
    """The cex automaton's tuple (variables in Walnut's alphabetical order = declared order) as claim names."""
    out = {}
    for nm, v in zip(job.names, values):
        out[nm] = v.bit_length() - 1 if nm in job.exp_names else v
    return out


