"""The local certificate (:class:`checkers.certificate.Certificate`) at one concrete position whose options are too
many to list, decided by Z3: the sampler's check far beyond the window (:class:`PointSolver`).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> cert = Certificate.for_claim(spec.claims[0], {})
>>> PointSolver(cert, z3.Context()).check(10 ** 9) is None
True
"""
from __future__ import annotations

import ast
import random
from typing import Any

import z3

from nimjos.games.declared import MISERE, DeclaredGame
from nimjos.lang.errors import EvalError
from nimjos.lang.syntax import copy_tree
from nimjos.lang.values import format_value
from nimjos.spec.plan import LevelSetPlan, SetPlan
from checkers.certificate import Certificate, Failure, OutsideDomain, Undecided, bind_position
from checkers.modes import Mode
from checkers.z3.budget import Budget, check
from checkers.z3.solver import model_value
from checkers.z3.terms import GameRef, Untranslatable
from checkers.z3.translate import Builder
from checkers.z3.world import choose_mode
from checkers.z3.steady import SteadySolver


def _as_bool(b: Builder, v: Any) -> Any:
    return b.to_bool(v) if not isinstance(v, bool) else z3.BoolVal(v, b.ctx)


class PointSolver:
    """The certificate at one concrete position whose options are too many to list: the moves' bound
    names stay symbolic and Z3 searches them. Models are re-evaluated exactly before they count, so an
    abstraction can only make the check weaker (inconclusive), never wrong: where a query Z3 could not
    decide is needed for the answer, :meth:`check` raises :class:`Undecided` (never counted as held).

    Raises :class:`checkers.z3.terms.Untranslatable` when the formula or the moves have no Z3 model.
    """

    def __init__(self, cert: Certificate, ctx: z3.Context, timeout_ms: int = 1000, targets: int = 4):
        self.cert = cert
        self.ctx = ctx   # the Z3 context of the claim's point search (every term and solver is made in it)
        self.timeout_ms = timeout_ms
        self.targets = targets
        self.units = 0    # Z3 resource units spent by all checks so far (a count: the same on every machine)
        inst = cert.inst
        if not isinstance(inst, DeclaredGame):
            raise Untranslatable("built-in game families have no declared moves to translate")
        if inst.play == MISERE:
            raise Untranslatable("the symbolic search at one position does not tell a terminal position (misère play)")
        claim = cert.claim
        if isinstance(cert.plan, SetPlan) and cert.plan.families is not None:
            raise Untranslatable("P-position families are enumerated, not searched")
        self.ns = claim.spec.namespace
        formula = getattr(cert.plan, "formula", None)
        assert formula is not None, "a claim searched at one position has a formula"
        self.tree = copy_tree(formula.tree)
        self.decl = inst.decl
        trees = [self.tree] + [f.to_tree for f in self.decl.moves] + [f.binder.tree for f in self.decl.moves]
        self.mode = choose_mode(trees, self.ns, exact=True)
        self.lname = cert.plan.level_names[0] if isinstance(cert.plan, LevelSetPlan) else None

    def _label_term(self, b: Any, q: Any, value: Any) -> Any:
        """Z3 condition: the label of the symbolic option q equals value (None: 'not a P-position')."""
        env = dict(self.cert.params)
        env.update(bind_position(self.cert.coords, q))
        if self.cert.kind == Mode.GRUNDY:
            return b.compare(ast.Eq, b.term(self.tree, env), value)
        if self.cert.kind == Mode.P:
            return b.formula(self.tree, env)
        return b.formula(self.tree, {**env, self.lname: value})

    def check(self, pos: Any) -> Failure | None:
        """None when (a) and (b) hold at `pos`, else the Failure; :class:`Undecided` when a query Z3 could not
        decide (out of its resource units) leaves the answer open.

        >>> from nimjos.spec.loader import load_spec
        >>> import pathlib
        >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
        >>> cert = Certificate.for_claim(spec.claims[0], {})
        >>> PointSolver(cert, z3.Context()).check(10 ** 12) is None
        True
        >>> ps = PointSolver(cert, z3.Context(), timeout_ms=0)    # no resource units: no query is decided
        >>> ps._options_inside = lambda pos, bits: None
        >>> try:
        ...     ps.check(10 ** 12)
        ... except Undecided as exc:
        ...     print(exc)
        Z3 could not decide condition (a, b) of the certificate at 1000000000000 within its resource units
        """
        cert = self.cert
        pos = cert.inst.normalise(pos)
        lp = cert.labels_of(pos)
        big = max(abs(c) for c in (pos if isinstance(pos, tuple) else (pos,)))
        bits = max(32, 2 * big.bit_length() + 8)
        self._options_inside(pos, bits)

        def search(value: Any) -> tuple[Any, Any] | None | str:
            """An option whose label equals value (verified), None when there is none, 'unknown'."""
            unknown = False
            for i, fam in enumerate(self.decl.moves):
                # a builder per family: obligations of one family's option (v2(0) at a move that does
                # not exist, say) must not constrain the search along another
                b = Builder(self.ns, self.mode, bits, self.ctx)
                game = GameRef(self.decl, dict(cert.inst.params))
                names = list(fam.binder.names)
                vs = [b.var(f"{n}!{i}") for n in names]
                cond, q = b.move(game, pos, fam, vs)
                want = self._label_term(b, q, value)
                ob, _ = b.obligation()
                s = SteadySolver(self.ctx)
                s.add(*b.assertions(), b.to_bool(cond) if not isinstance(cond, bool) else z3.BoolVal(cond, self.ctx),
                      b.to_bool(want) if not isinstance(want, bool) else z3.BoolVal(want, self.ctx), ob)
                r = self._check(s)
                if r == z3.unknown:
                    unknown = True
                    continue
                if r == z3.unsat:
                    continue
                m = s.model()
                binding = dict(zip(names, (model_value(m, v) for v in vs)))
                exact = self._exact_option(i, pos, binding)
                if exact is not None and self._label_equals(exact, value):
                    return exact, binding
                unknown = True
            return "unknown" if unknown else None

        open_: list[str] = []   # the conditions a query Z3 could not decide left open

        def found(value: Any, condition: str) -> Any:
            hit = search(value)
            if hit == "unknown":
                open_.append(condition)
            return hit

        kind = cert.kind
        if kind == Mode.GRUNDY:
            if type(lp) is not int or lp < 0:
                return Failure(pos, "label", f"the formula gives {lp!r}, not a Grundy value", label=lp)
            hit = found(lp, "a")
            if isinstance(hit, tuple):
                return Failure(pos, "a", f"the option {format_value(hit[0])} has the same value {lp}", option=hit[0], label=lp)
            targets = list(range(lp)) if lp <= self.targets else sorted({0, lp - 1, *random.Random(str(pos)).sample(range(lp), self.targets - 2)})
            for m in targets:
                if found(m, "b") is None:
                    return Failure(pos, "b", f"value {lp}, but no option has value {m}", label=lp, detail={"missing": m})
        elif kind == Mode.P:
            hit = found(None, "a" if lp == 0 else "b")
            if lp == 0 and isinstance(hit, tuple):
                return Failure(pos, "a", f"a claimed P-position with the claimed P-position {format_value(hit[0])} as an option",
                               option=hit[0], label=0)
            if lp != 0 and hit is None:
                return Failure(pos, "b", "not a claimed P-position, but no option is one", label=None)
        else:
            if lp is not None:
                hit = found(lp, "a")
                if isinstance(hit, tuple):
                    return Failure(pos, "a", f"in the set of level {lp}, and so is its option {format_value(hit[0])}",
                                   option=hit[0], label=lp)
            for m in (range(lp) if lp is not None else cert.levels or []):
                if found(m, "b") is None:
                    where = f"in the set of level {lp}" if lp is not None else "in no level set"
                    return Failure(pos, "b", f"{where}, but no option is in the set of level {m}", label=lp,
                                   detail={"missing": m})
        if open_:
            raise Undecided(f"Z3 could not decide condition ({', '.join(sorted(set(open_)))}) of the certificate at "
                            f"{format_value(pos)} within its resource units")
        return None

    def _options_inside(self, pos: Any, bits: int) -> None:
        """OutsideDomain unless Z3 shows that every option of `pos` lies in the claim's domain (the formula
        judges only those; options outside it are too many to give to the engine one by one)."""
        dom = self.cert.domain
        if dom is None or dom.predicate is None or not dom.text:
            return
        assert dom.tree is not None, "a domain with a text has its tree"
        tree = copy_tree(dom.tree)
        for i, fam in enumerate(self.decl.moves):
            b = Builder(self.ns, self.mode, bits, self.ctx)
            game = GameRef(self.decl, dict(self.cert.inst.params))
            vs = [b.var(f"{n}!{i}") for n in fam.binder.names]
            cond, q = b.move(game, pos, fam, vs)
            env = dict(self.cert.params)
            env.update(bind_position(self.cert.coords, q))
            inside = b.formula(tree, env)
            ob, _ = b.obligation()
            s = SteadySolver(self.ctx)
            s.add(*b.assertions(), _as_bool(b, cond), z3.Not(_as_bool(b, inside)), ob)
            r = self._check(s)
            if r != z3.unsat:
                raise OutsideDomain(f"an option of {format_value(pos)} (move {i + 1}) may lie outside the domain "
                                    f"({dom.text}), where the formula may not judge it")

    def _check(self, s: SteadySolver) -> Any:
        """One query within its resource units, counted in :attr:`units`."""
        budget = Budget.seconds(self.timeout_ms / 1000)
        r = check(budget, s)
        self.units += budget.used
        return r

    def _exact_option(self, i: int, pos: Any, binding: dict) -> Any:
        return self.cert.option_of(i, pos, binding)

    def _label_equals(self, q: Any, value: Any) -> bool:
        try:
            lq = self.cert.labels_of(q)
        except EvalError:
            return False
        if self.cert.kind == Mode.P:
            return lq == 0
        return lq == value
