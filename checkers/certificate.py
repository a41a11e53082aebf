"""The local certificate of a game claim: conditions at one position that involve only its options.

A formula g is the Grundy function of a game iff at every position p

  (a) no option q of p has g(q) = g(p), and
  (b) every value below g(p) is g(q) for some option q.

A set P is the set of P-positions iff (a) no option of a position in P is in P, and (b) every position
outside P has an option in P. In misère play (a terminal position is an N-position) P is the set of misère
P-positions iff (a) holds, (b) holds at every non-terminal position, and (c) no terminal position is in P (by
induction on the game's finite depth, as in normal play). A level-set claim for levels 0..S combines both: a position in the set of
level s has no option in it and options in every lower level; a position in no set has options in every
level. None of this needs a table of values, so it can be tested at a single position however large,
and (with the moves and the formula translated to Z3) proved for all positions at once (checkers.prove.queries).

Every claim is turned into a *labelling*: label(p) is g(p) (grundy), 0 or None (P-positions: None means
"not a P-position") or the level s whose set holds p, None for none (level sets).

The formula labels only positions of the claim's domain (DESIGN.md, "A claim's domain and its window"): an
option outside it (the pass of a claim stated for p = 1 leads to p = 0) is labelled by the engine's Grundy
value, and when it is too large for the engine the certificate does not apply there (:class:`OutsideDomain`).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> cert = Certificate.for_claim(spec.claims[0], {})
>>> cert.check(10) is None, cert.labels_of(3)
(True, 3)
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from nimjos.lang.errors import EvalError, SpecError
from nimjos.games.declared import MISERE, DeclaredGame, as_instance
from nimjos.games.engine import active_engine, positions_at_most
from nimjos.games.linear_moves import NotLinear
from nimjos.lang.values import format_value
from nimjos.lang.vector import NotVectorisable, as_full, as_truth, vectorise
from nimjos.lang.compiler import compile_tree
from nimjos.spec.loader import Claim, claim_of
from nimjos.spec.plan import ClaimPlan, GrundyPlan, LevelSetPlan, PPositionsPlan, SetPlan, handler_for
from checkers.window.collector import Collector
from checkers.window.families import family_points
from checkers.z3.terms import Untranslatable
from checkers.modes import Mode

#: most options enumerated at one position before the symbolic check (or a smaller position) is needed
MAX_OPTIONS = 4000
#: the most options of one position at which the confirmation of a certificate failure evaluates the claim one by
#: one (the scalar language, the reference); more, up to CONFIRM_OPTIONS, by the vectorised evaluator (conformance-
#: tested against the scalar language), or not at all (no confirmation)
CONFIRM_SCALAR, CONFIRM_OPTIONS = 20_000, 4_000_000
#: how the claim was evaluated at the options, as a confirmation's words say it
SCALAR, VECTORISED = "the scalar language", "the vectorised evaluator (conformance-tested against the scalar language)"


class TooManyOptions(Exception):
    """The position has more options than can be enumerated (the count is in args[0])."""


class Undecided(Exception):
    """Z3 could not decide the certificate at one position (a query ran out of resources, or its model did not
    survive exact evaluation): the position is neither held nor failed."""


class OutsideDomain(Untranslatable):
    """An option lies outside the claim's domain and is too large for the engine to give its value (the
    certificate does not apply at this position)."""


@dataclass
class Failure:
    """Why the certificate fails at a position: which condition, and the witness."""

    position: Any
    condition: str                  # "a", "b", "label" (the formula cannot be evaluated / is no Grundy value)
    text: str
    option: Any = None
    label: Any = None
    detail: dict = field(default_factory=dict)


@dataclass
class Confirmed:
    """A failure of the local certificate at one position, confirmed exactly: the claim evaluated at the position
    and at the witness option of condition (a), or at every option (condition (b)). For a game whose moves end and
    stay in the domain, the true labels obey the certificate at every position, so the claim's labels are wrong at
    the position or at one of the options evaluated (`every_option`: all of them; else the witness).

    `options` counts the options evaluated, `how` says by what (:data:`SCALAR` or :data:`VECTORISED`), and
    `truth` is the position's true label when the options' labels are known to be right (the mex of theirs; for
    P-positions 0 when none of them is 0, else None): known only when every option was evaluated.
    """

    failure: Failure
    options: int
    how: str
    every_option: bool
    truth: Any = None

    def words(self) -> str:
        """What failed and how it was confirmed, as one clause (the position as printed by the language).

        >>> c = Confirmed(Failure((2, 2), "b", "not a claimed P-position, but no option is one"), 4, SCALAR, True, 0)
        >>> c.words()
        'certificate (b) fails at (2, 2): not a claimed P-position, but no option is one (the claim evaluated exactly at (2, 2) and at each of its 4 options, by the scalar language)'
        """
        f = self.failure
        at = _fmt(f.position)
        if self.every_option:
            where = f"at {at} and at each of its {self.options:,} option{'' if self.options == 1 else 's'}"
        elif f.option is not None:
            where = f"at {at} and at its option {_fmt(f.option)}"
        else:
            where = f"at {at}"
        what = "the formula's value" if f.condition == "label" else f"certificate ({f.condition}) fails"
        return f"{what} at {at}: {f.text} (the claim evaluated exactly {where}, by {self.how})"

    def wrong_where(self) -> str:
        """Where the claim is wrong, as far as this failure shows it (without knowing that the options' labels are
        right).

        >>> Confirmed(Failure((2, 2), "a", "", option=(1, 2)), 2, SCALAR, False).wrong_where()
        'the claim is wrong at (2, 2) or at its option (1, 2)'
        """
        f = self.failure
        if f.condition in ("label", "c"):
            return f"the claim is wrong at {_fmt(f.position)}"
        if f.option is not None and not self.every_option:
            return f"the claim is wrong at {_fmt(f.position)} or at its option {_fmt(f.option)}"
        return f"the claim is wrong at {_fmt(f.position)} or at one of its options"


#: the local certificate of each kind of game claim it applies to: its labels are Grundy values ('grundy'),
#: P-positions ('p') or the levels of a level set ('level')
CERTIFICATE_KINDS: dict[type[ClaimPlan], Mode] = {GrundyPlan: Mode.GRUNDY, PPositionsPlan: Mode.P, LevelSetPlan: Mode.LEVEL}


def game_kind(plan: ClaimPlan) -> Mode | None:
    """'grundy', 'p' or 'level' for a claim the certificate applies to (:data:`CERTIFICATE_KINDS`), else None.

    >>> from nimjos.spec.plan import HoldsPlan
    >>> game_kind(HoldsPlan(claim=None, profile="default", window=None, domain=None, formula=None)) is None
    True
    """
    return handler_for(CERTIFICATE_KINDS, plan)


def measure_words(plan: ClaimPlan) -> str:
    """The words a proof's scope adds when the claim's game declares a termination measure (the induction is on
    it, after the queries proved it one); empty when it declares none or the game is not a declared one.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "examples" / "staircase_nim.toml")
    >>> c = spec.claim("staircase-3"); measure_words(c.plan())
    ' the measure x1 + 2*x2 + 3*x3 (proved: every move decreases it, and it is >= 0 on the domain)'
    """
    claim = claim_of(plan)
    tree = plan.game.tree if plan.game is not None else None
    if isinstance(tree, ast.Call):
        tree = tree.func
    decl = claim.spec.games.get(tree.id) if isinstance(tree, ast.Name) else None
    if decl is None or not decl.measure:
        return ""
    texts = decl.measure
    what = texts[0] if len(texts) == 1 else f"({', '.join(texts)}) lexicographically"
    return f" the measure {what} (proved: every move decreases it, and it is >= 0 on the domain)"


def _position(env: dict, coords: tuple[str, ...]) -> Any:
    return env[coords[0]] if len(coords) == 1 else tuple(env[c] for c in coords)


def bind_position(coords: tuple[str, ...], pos: Any) -> dict:
    """The coordinates' bindings at a position: a game with one coordinate binds the position whole (a number,
    or the tuple of heaps of a heap game), never its first entry.

    >>> bind_position(("x", "y"), (1, 2)), bind_position(("h",), (3, 4, 5)), bind_position(("x",), 7)
    ({'x': 1, 'y': 2}, {'h': (3, 4, 5)}, {'x': 7})
    """
    if len(coords) == 1:
        return {coords[0]: pos}
    return dict(zip(coords, pos))


def count_options(inst: Any, pos: Any, cap: int) -> int:
    """How many options `pos` has, counting no further than cap + 1 (a family whose innermost name enters linearly
    a block at a time: nimjos.games.linear_moves).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> count_options(spec.games["nim1"].instance(()), 10 ** 18, 100)
    1000000000000000000
    """
    if not isinstance(inst, DeclaredGame):
        return len(inst.options(pos))
    env = dict(inst.params)
    env.update(bind_position(inst.coords, pos))
    total = 0
    for fam in inst.decl.moves:
        if fam.linear is not None:
            try:
                total += fam.linear.count(fam.binder, dict(env), cap - total)
            except NotLinear:
                pass   # a value that is not an integer: counted value by value below
            else:
                if total > cap:
                    return total
                continue
        for _ in fam.binder.bindings(dict(env)):
            total += 1
            if total > cap:
                return total
    return total


class Certificate:
    """The local certificate of one game claim for fixed values of its non-coordinate names (`params`)."""

    def __init__(self, plan: GrundyPlan | SetPlan, params: dict, kind: Mode):
        claim = claim_of(plan)
        self.claim = claim
        self.plan = plan
        self.params = dict(params)
        self.kind = kind
        self.coords = plan.coords
        assert plan.game is not None, "a game claim's plan has its game"
        self.inst = as_instance(plan.game(dict(params, **{c: 0 for c in plan.coords})))
        if self.inst.play == MISERE and kind != Mode.P:
            raise Untranslatable("in misère play the local certificate judges P-positions only")
        self.levels: list[int] | None = None
        self._family_cache: dict = {}
        self._where: dict[int, Any] = {}   # each move family's condition, compiled once (option_of)
        self.domain = getattr(plan, "domain", None)
        if kind == Mode.LEVEL:
            assert isinstance(plan, LevelSetPlan), "a level certificate's plan is a level set's"
            lv = [e[plan.level_names[0]] for e in plan.levels.bindings(dict(params, **{c: 0 for c in plan.coords}))]
            self.levels = sorted(lv)
            if self.levels != list(range(len(self.levels))):
                raise SpecError("the local certificate needs levels 0, 1, ..., S", field="levels")

    @classmethod
    def for_claim(cls, claim: Claim, params: dict, profile: str = "default") -> "Certificate":
        """The certificate of a grundy / p_positions / level_set claim (SpecError for other kinds)."""
        plan = claim.plan(profile)
        kind = game_kind(plan)
        if kind is None or not isinstance(plan, (GrundyPlan, SetPlan)):
            raise SpecError(f"a {claim.kind} claim has no local certificate")
        return cls(plan, params, kind)

    # ------------------------------------------------------------------ labels
    def env_at(self, pos: Any) -> dict:
        env = dict(self.params)
        env.update(bind_position(self.coords, pos))
        return env

    def labels_of(self, pos: Any, others: list | None = None) -> Any:
        """The label of one position (see the module docstring)."""
        return self.labels([pos], others)[0]

    def inside(self, pos: Any) -> bool:
        """Does a position (with this certificate's params) lie in the claim's domain? A domain that names
        something else than the window's names judges nothing (True)."""
        dom = self.domain
        if dom is None or dom.predicate is None:
            return True
        env = self.env_at(pos)
        if any(n not in env for n in dom.names):
            return True
        return dom.contains(env)

    def labels(self, positions: list, context: list | None = None) -> list:
        """Labels of several positions (family membership is enumerated once for all of them); a position
        outside the domain is labelled by the engine (see the module docstring)."""
        outside = [i for i, p in enumerate(positions) if not self.inside(p)]
        if not outside:
            return self._formula_labels(positions, context)
        inside = [p for i, p in enumerate(positions) if i not in set(outside)]
        got = iter(self._formula_labels(inside, context) if inside else [])
        truth = self.engine_labels([positions[i] for i in outside])
        return [truth[p] if i in set(outside) else next(got) for i, p in enumerate(positions)]

    def engine_labels(self, positions: list) -> dict:
        """The engine's labels of positions (OutsideDomain when one is too large for it)."""
        for p in positions:
            if not small_position(p, 2_000_000):
                domain = getattr(self.domain, "text", "")
                raise OutsideDomain(f"the option {_fmt(p)} lies outside the domain ({domain}) and is too "
                                    "large for the engine: the formula may not judge it")
        active_engine().solve(self.inst, list(positions))
        out: dict[Any, int | None] = {}
        for p in positions:
            g = self.inst.lookup(p)
            if self.kind == Mode.GRUNDY:
                out[p] = g
            elif self.kind == Mode.P:
                out[p] = 0 if g == 0 else None
            else:
                out[p] = g if g in (self.levels or []) else None
        return out

    def _formula_labels(self, positions: list, context: list | None = None) -> list:
        plan = self.plan
        formula = plan.formula
        if self.kind == Mode.GRUNDY:
            assert formula is not None, "a grundy claim's plan has its formula"
            return [formula(self.env_at(p)) for p in positions]
        if self.kind == Mode.P:
            assert isinstance(plan, SetPlan), "a P-position certificate's plan is a set's"
            if plan.families is None:
                assert formula is not None, "a P-position claim without families has its predicate"
                return [0 if formula(self.env_at(p)) else None for p in positions]
            pts = self._family_points(plan.families, dict(self.params), positions + (context or []))
            return [0 if p in pts else None for p in positions]
        out: list = [None] * len(positions)
        assert isinstance(plan, LevelSetPlan), "a level certificate's plan is a level set's"
        lname = plan.level_names[0]
        for s in self.levels or []:
            if plan.families is None:
                assert formula is not None, "a level set without families has its predicate"
                hits = [bool(formula({**self.env_at(p), lname: s})) for p in positions]
            else:
                pts = self._family_points(plan.families, {**self.params, lname: s}, positions + (context or []))
                hits = [p in pts for p in positions]
            for i, h in enumerate(hits):
                if h:
                    if out[i] is not None:
                        raise EvalError(f"position {positions[i]} lies in the sets of levels {out[i]} and {s}")
                    out[i] = s
        return out

    def _family_points(self, families: Sequence, env0: dict, positions: list) -> set:
        col = Collector(1)
        pts = family_points(self.plan, families, env0, positions, col, tuple(env0))
        if col.undefined:
            raise EvalError(col.sorted(col.undefined)[0].reason or "a family point cannot be evaluated")
        return pts

    # ------------------------------------------------------------------ the check
    def options(self, pos: Any, cap: int = MAX_OPTIONS) -> list:
        """The options of a position, refusing (TooManyOptions) beyond `cap`."""
        n = count_options(self.inst, pos, cap)
        if n > cap:
            raise TooManyOptions(n)
        return list(self.inst.options(pos))

    def check(self, pos: Any, cap: int = MAX_OPTIONS) -> Failure | None:
        """None when (a) and (b) hold at `pos`, else the Failure (EvalError when a label is undefined)."""
        pos = self.inst.normalise(pos)
        opts = self.options(pos, cap)
        labels = self.labels([pos] + opts)
        return self.judge(pos, labels[0], list(zip(opts, labels[1:])))

    def judge(self, pos: Any, lp: Any, option_labels: list[tuple[Any, Any]]) -> Failure | None:
        """Apply (a) and (b) to a position's label and its options' labels."""
        kind = self.kind
        if kind == Mode.GRUNDY:
            if type(lp) is not int or lp < 0:
                return Failure(pos, "label", f"the formula gives {lp!r}, not a Grundy value", label=lp)
            for q, lq in option_labels:
                if lq == lp:
                    return Failure(pos, "a", f"the option {_fmt(q)} has the same value {lp}", option=q, label=lp)
            seen = {lq for _, lq in option_labels}
            for m in range(lp):
                if m not in seen:
                    return Failure(pos, "b", f"value {lp}, but no option has value {m}", label=lp, detail={"missing": m})
            return None
        if kind == Mode.P:
            if self.inst.play == MISERE and not option_labels:
                if lp == 0:
                    return Failure(pos, "c", "a claimed P-position, but it is terminal: an N-position in misère play",
                                   label=0)
                return None
            if lp == 0:
                for q, lq in option_labels:
                    if lq == 0:
                        return Failure(pos, "a", f"a claimed P-position with the claimed P-position {_fmt(q)} as an option",
                                       option=q, label=0)
                return None
            if not any(lq == 0 for _, lq in option_labels):
                return Failure(pos, "b", "not a claimed P-position, but no option is one", label=None)
            return None
        seen = {lq for _, lq in option_labels}
        below: Sequence[int]
        if lp is not None:
            for q, lq in option_labels:
                if lq == lp:
                    return Failure(pos, "a", f"in the set of level {lp}, and so is its option {_fmt(q)}", option=q, label=lp)
            below = range(lp)
        else:
            below = self.levels or []
        for m in below:
            if m not in seen:
                where = f"in the set of level {lp}" if lp is not None else "in no level set"
                return Failure(pos, "b", f"{where}, but no option is in the set of level {m}", label=lp,
                               detail={"missing": m})
        return None

    # ------------------------------------------------------------------ confirming a failure found by a prover
    def option_of(self, family: int, pos: Any, binding: dict) -> Any:
        """The option of `pos` that move family `family` gives at the values `binding` of its bound names, exactly
        (the family's condition evaluated there), or None when that binding is no move.

        >>> from nimjos.spec.loader import load_spec
        >>> import pathlib
        >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
        >>> cert = Certificate.for_claim(spec.claims[0], {})
        >>> cert.option_of(0, 10, {"t": 3}), cert.option_of(0, 10, {"t": 11})
        (7, None)
        """
        inst = self.inst
        if not isinstance(inst, DeclaredGame) or not 0 <= family < len(inst.decl.moves):
            return None
        fam = inst.decl.moves[family]
        if any(n not in binding for n in fam.binder.names):
            return None
        env = dict(inst.params)
        env.update(bind_position(self.coords, pos))
        env.update({n: binding[n] for n in fam.binder.names})
        if family not in self._where:
            self._where[family] = compile_tree(fam.binder.tree, self.claim.spec.namespace, set(env))
        try:
            if not self._where[family](env):
                return None
            return inst.normalise(fam.to(env))
        except (EvalError, SpecError):
            return None

    def confirm(self, pos: Any, family: int | None = None, binding: dict | None = None) -> Confirmed | None:
        """Confirm that the certificate fails at `pos` by evaluating the claim exactly: at `pos` and, for
        condition (a) found along move family `family` at the bound values `binding`, at that one option; else at
        every option (up to :data:`CONFIRM_OPTIONS`). None when it does not fail there, or cannot be confirmed:
        a position outside the domain, a claim with an assumption (the formula says nothing at an option that
        breaks it), a level set, a label the claim cannot evaluate (never a refutation: the claim is ill-defined
        there, if anything), an option outside the domain too large for the engine, too many options.

        The caller answers for the game: its moves must end and stay in the domain (a prover's descent and
        closure), so that the true labels obey the certificate; the confirmation says where the claim is wrong
        (:meth:`Confirmed.wrong_where`).

        >>> from nimjos.spec.loader import load_spec
        >>> import pathlib
        >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
        >>> Certificate.for_claim(spec.claims[0], {}).confirm(10) is None    # G(x) = x holds at 10
        True
        """
        if self.kind == Mode.LEVEL or getattr(self.plan, "assume", None) is not None:
            return None
        try:
            pos = self.inst.normalise(pos)
            if not self.inside(pos):
                return None
            lp = self.labels_of(pos)
            if self.kind == Mode.GRUNDY and (type(lp) is not int or lp < 0):
                return Confirmed(Failure(pos, "label", f"the formula gives {lp!r}, not a Grundy value", label=lp), 0,
                                 SCALAR, False)
            if family is not None:
                q = self.option_of(family, pos, binding or {})
                if q is None:
                    return None
                failure = self.judge(pos, lp, [(q, self.labels([q])[0])])
                if failure is None or failure.condition not in ("a", "label"):
                    return None
                return Confirmed(failure, 1, SCALAR, False)
            if count_options(self.inst, pos, CONFIRM_OPTIONS) > CONFIRM_OPTIONS:
                return None
            opts = list(self.inst.options(pos))
            how = SCALAR if len(opts) <= CONFIRM_SCALAR else VECTORISED
            labels = self.labels(opts) if how == SCALAR else self._vector_labels(opts)
            if labels is None:
                return None
            failure = self.judge(pos, lp, list(zip(opts, labels)))
        except (EvalError, SpecError, OutsideDomain, RecursionError):
            return None
        if failure is None:
            return None
        truth: Any
        if self.kind == Mode.GRUNDY:
            seen = set(labels)
            truth = next(m for m in range(len(seen) + 1) if m not in seen)
        else:
            terminal_misere = self.inst.play == MISERE and not opts
            truth = None if terminal_misere or any(lq == 0 for lq in labels) else 0
        return Confirmed(failure, len(opts), how, True, truth)

    def _vector_labels(self, positions: list) -> list | None:
        """The labels of many positions by the vectorised evaluator (the domain and the formula on arrays), or
        None when it cannot evaluate them exactly (a family of points, an expression it refuses, a coordinate
        beyond int64)."""
        plan = self.plan
        if plan.formula is None or getattr(plan, "families", None) is not None or not positions:
            return None
        n = len(positions)
        try:
            table = np.array(positions, dtype=np.int64).reshape(n, len(self.coords))
        except (OverflowError, ValueError, TypeError):
            return None
        if int(table.max()) >= 2 ** 62:
            return None
        env: dict = dict(self.params)
        env.update({c: table[:, i] for i, c in enumerate(self.coords)})
        ns = self.claim.spec.namespace
        dom = self.domain
        try:
            inside = np.ones(n, dtype=bool)
            if dom is not None and dom.predicate is not None and dom.text and all(m in env for m in dom.names):
                inside = as_truth(vectorise(dom.tree, ns)(env), n)
            idx = np.flatnonzero(inside)
            sub = {k: (v[idx] if isinstance(v, np.ndarray) else v) for k, v in env.items()}
            value = vectorise(plan.formula.tree, ns)(sub)
            got = as_full(value, len(idx)) if self.kind == Mode.GRUNDY else as_truth(value, len(idx))
        except NotVectorisable:
            return None
        out: list = [None] * n
        if self.kind == Mode.GRUNDY:
            for i, v in zip(idx.tolist(), got.tolist()):
                out[i] = v
        else:
            for i in idx[got].tolist():
                out[i] = 0
        outside = np.flatnonzero(~inside).tolist()
        if outside:
            truth = self.engine_labels([positions[i] for i in outside])
            for i in outside:
                out[i] = truth[positions[i]]
        return out

    # ------------------------------------------------------------------ re-evaluation by the engine
    def reevaluate(self, pos: Any, max_positions: int = 2_000_000) -> tuple[Any, Any, Any] | None:
        """Ground truth near a certificate failure: the first of pos and its options where the claim and
        the engine disagree, as (position, engine value, claimed label); None when they agree there."""
        pos = self.inst.normalise(pos)
        if not small_position(pos, max_positions):
            return None
        opts = self.options(pos)
        todo = [p for p in [pos] + sorted(set(opts), key=_size) if self.inside(p)]   # the formula judges only these
        with positions_at_most(max_positions):      # a declared game with no measure may not end from here
            active_engine().solve(self.inst, todo)
        labels = self.labels(todo)
        for q, lq in zip(todo, labels):
            g = self.inst.lookup(q)
            if not self.agrees(g, lq):
                return q, g, lq
        return None

    def agrees(self, grundy: int, label: Any) -> bool:
        """Does the engine's value agree with a label?"""
        if self.kind == Mode.GRUNDY:
            return grundy == label
        if self.kind == Mode.P:
            return (grundy == 0) == (label == 0)
        if label is None:
            return grundy > max(self.levels or [-1])
        return grundy == label


def _size(p: Any) -> int:
    return sum(p) if isinstance(p, tuple) else p


#: the largest coordinate sum the engine is asked to solve when re-evaluating (its table grows like a power of it)
MAX_SUM = 300


def box_cells(p: Any) -> int:
    """The positions of the box below position `p` (its coordinates' product of (c + 1)).

    >>> box_cells(10), box_cells((2, 3))
    (11, 12)
    """
    cells = 1
    for c in p if isinstance(p, tuple) else (p,):
        cells *= c + 1
    return cells


def small_position(p: Any, limit: int) -> bool:
    """Is the box below position `p` (:func:`box_cells`) at most `limit` positions, and a position of several
    coordinates at most :data:`MAX_SUM` in sum: a position the engine is asked to value?

    >>> small_position(10, 100), small_position((10, 10), 100), small_position((9, 9), 100)
    (True, False, True)
    """
    return box_cells(p) <= limit and (not isinstance(p, tuple) or len(p) == 1 or sum(p) <= MAX_SUM)


def _fmt(v: Any) -> str:
    return format_value(v)
