"""Proving one instance of a claim (one assignment of the enumerated names) and confirming what Z3 found: a
model is re-evaluated exactly (holds claims) or by the engine (game claims) before it is reported as a
counterexample; an unconfirmed model, ``unknown`` or a timeout make the attempt inconclusive.

>>> import time
>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]; plan = c.plan()
>>> att = prove_instance(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 20)
>>> att.status, len(att.results)
('proved', 5)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nimjos.lang.errors import EvalError, SpecError
from nimjos.spec.plan import ClaimPlan, GrundyPlan, HoldsPlan, SetPlan
from nimjos.verdict import Counterexample
from nimjos.words import Word
from checkers.z3.budget import Budget
from checkers.certificate import Certificate, TooManyOptions, game_kind
from checkers.modes import Mode
from checkers.prove.domain import ProofDomain
from checkers.prove.holds import prove_holds
from checkers.prove.queries import GameQueries
from checkers.prove.scope import abstraction_words, show_values
from checkers.context import SolverContext
from checkers.prove.attempt import CERTIFICATE_ROLES, Context, Query, QueryResult, QueryRole
from checkers.z3.terms import Untranslatable

@dataclass
class Attempt:
    """The outcome of proving one instance (one assignment of the enumerated names)."""

    params: dict
    status: Word | str          # proved, refuted, inconclusive or vacuous (made a Word at construction)
    results: list = field(default_factory=list)
    counterexample: Counterexample | None = None
    note: str = ""
    abstractions: set = field(default_factory=set)
    #: why the instance has no Z3 model (the statement or the moves cannot be translated), None when it has one
    untranslatable: str | None = None
    #: the termination measure a search found for the game (which declares none), as its expressions
    measure: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.status = Word(self.status)


def prove_instance(plan: ClaimPlan, dom: ProofDomain, params: dict, mode: str, width: int | None,
                   bits: int, deadline: Budget | float, solver: SolverContext | None = None) -> Attempt:
    """Prove one instance (one assignment of the enumerated names) within `deadline` (a :class:`Budget`, or a
    wall-clock deadline, converted, as :class:`checkers.prove.attempt.Context` does), in the Z3 context of `solver`
    (the proof attempt's; None: a new one).

    >>> import time
    >>> from nimjos.spec.loader import load_spec, ProveOptions
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]; plan = c.plan()
    >>> prove_instance(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 20).status
    'proved'
    """
    ctx = Context(plan, dom, params, mode, width, bits, deadline, solver)
    kind = game_kind(plan)
    try:
        if kind is None:
            results = prove_holds(ctx)
        else:
            gq = GameQueries(ctx, kind)
            results = []
            for q in gq.queries():
                r = q()
                results.append(r)
                if r.status in ("fails", "obligation"):
                    break
    except Untranslatable as exc:
        return Attempt(params, "inconclusive", note=f"no Z3 model: {exc}", untranslatable=str(exc))
    att = Attempt(params, "proved", results, abstractions=set(ctx.abstractions),
                  measure=next((r.measure for r in results if r.measure), ()))
    for r in results:
        if r.status == "vacuous":
            att.status = Word.VACUOUS
        elif r.status == "unknown":
            att.status = Word.INCONCLUSIVE
            att.note = f"Z3 could not decide '{r.name}' ({r.text})"
            return att
        elif r.status == "obligation":
            att.status = Word.INCONCLUSIVE
            att.note = f"'{r.name}' fails only where {r.text} (at {show_values(r.values)})"
            return att
        elif r.status == "fails":
            return _confirm(plan, kind, params, r, att, gq if kind is not None else None)
    return att


def _confirm(plan: ClaimPlan, kind: Mode | None, params: dict, r: QueryResult, att: Attempt,
             gq: GameQueries | None = None) -> Attempt:
    """Re-evaluate a Z3 model exactly (holds) or by the engine (game claims)."""
    values = dict(params)
    values.update(r.values)
    assert plan.window is not None, "a claim the prover reads has a window"
    names = plan.window.names
    if kind is None:
        assert isinstance(plan, HoldsPlan), "a claim without a local certificate is a holds claim"
        env = {n: values[n] for n in values}
        bindings = {n: values[n] for n in names if n in values}
        if not _in_domain(plan, bindings):
            att.status, att.note = "inconclusive", f"Z3's model {show_values(bindings)} lies outside the claim's domain"
            return att
        try:
            if plan.assume is not None and not plan.assume(env):
                att.status, att.note = "inconclusive", f"Z3's model {show_values(bindings)} breaks the assumption when evaluated exactly"
                return att
            ok = plan.formula(env)
        except (EvalError, SpecError) as exc:
            att.status, att.note = "inconclusive", f"Z3's model {show_values(bindings)} cannot be evaluated exactly ({exc})"
            return att
        if ok:
            att.status, att.note = "inconclusive", spurious_model(bindings, att.abstractions)
            return att
        lhs, rhs = plan.sides_at(env)
        att.status = Word.REFUTED
        att.counterexample = Counterexample(bindings, lhs, rhs, detail={"found by": "Z3, re-evaluated exactly"})
        return att
    coords = plan.coords
    pos = tuple(values.get(c) for c in coords) if len(coords) > 1 else values.get(coords[0])
    along_a_move = r.query is not None and r.query.along_a_move
    if along_a_move or any(v is None for v in (pos if isinstance(pos, tuple) else (pos,))):
        # a move's descent: the text says what else was tried (checkers.prove.queries.GameQueries.q_found_measure)
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {show_values(r.values)}" + \
            (f"; {r.text}" if r.text else "")
        return att
    game_params = {n: values[n] for n in names if n not in coords and n in values}
    if not _in_domain(plan, {**game_params, **dict(zip(coords, pos if isinstance(pos, tuple) else (pos,)))}):
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {show_values(r.values)}, outside the claim's domain"
        return att
    assert isinstance(plan, (GrundyPlan, SetPlan)), "a game claim's plan has a local certificate"
    try:
        cert = Certificate(plan, game_params, kind)
        found = cert.reevaluate(pos, max_positions=500_000)
    except (EvalError, SpecError, TooManyOptions) as exc:
        confirmed = _certificate_failure(plan, kind, game_params, pos, r, att, gq) if gq is not None else None
        if confirmed is not None:
            return confirmed
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {show_values(r.values)}; the engine could not re-evaluate it ({exc})"
        return att
    if found is None and gq is not None:
        confirmed = _certificate_failure(plan, kind, game_params, pos, r, att, gq)
        if confirmed is not None:
            return confirmed
    if found is None:
        strategy = r.query is not None and r.query.role is QueryRole.STRATEGY
        what = ("the strategy's move does not work there" if strategy else
                "Z3's model, but the engine finds no failure at that position (re-evaluated from the moves, up to "
                "500,000 positions): the model comes from Z3's abstraction of the statement (G and the built-ins "
                "as unknown functions), or the position is too large for the engine; a lemma in prove.using, "
                "prove.each or a strategy may let Z3 decide")
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {show_values(r.values)}: {what}"
        return att
    q, actual, label = found
    b = dict(game_params)
    b.update(zip(coords, q if isinstance(q, tuple) else (q,)))
    b = {n: b[n] for n in names if n in b}
    shown = {Mode.GRUNDY: label, Mode.P: "P" if label == 0 else "N"}.get(kind, label)
    truth = {Mode.GRUNDY: actual, Mode.P: "P" if actual == 0 else "N"}.get(kind, actual)
    att.status = Word.REFUTED
    att.counterexample = Counterexample(b, truth, shown, detail={"grundy": actual, "found by": f"Z3 ({r.name}), re-evaluated by the engine"})
    return att


#: the resource units (in seconds of Z3's work) of the closure queries asked to confirm a certificate failure
CLOSURE_SECONDS = 5.0

def _well_founded(att: Attempt, gq: GameQueries) -> bool:
    """Do the moves end and stay in the domain, as proved by this attempt's queries: the descent query (the first,
    the coordinate sum or the game's measure) holds, and so does the closure query of every move family (those
    not asked yet, when (a) failed along an earlier family, are asked now)?"""
    if not att.results or att.results[0].status != "holds":
        return False
    held = {r.query for r in att.results if r.status == "holds"}
    attempt_budget = gq.ctx.budget
    gq.ctx.budget = Budget.seconds(CLOSURE_SECONDS)   # resource units of their own: the attempt's may be spent
    try:
        return all(Query(QueryRole.CLOSURE, i) in held or gq.q_closure(i).status == "holds"
                   for i in range(len(gq.setup()[3].decl.moves)))
    finally:
        gq.ctx.budget = attempt_budget


def _certificate_failure(plan: ClaimPlan, kind: Mode | None, game_params: dict, pos: Any,
                         r: QueryResult, att: Attempt, gq: GameQueries) -> Attempt | None:
    """A refutation by the certificate failure of Z3's model when the engine cannot value that far: for a game
    whose moves end and stay in the domain (:func:`_well_founded`), the true labels obey the certificate at every
    position, so a failure confirmed by evaluating the claim exactly at the position and its witness option (a)
    or every option (b) (:meth:`checkers.certificate.Certificate.confirm`) shows that the claim is wrong
    there or at an option: a counterexample to the set, not necessarily the least (which is not known). None when
    it does not confirm."""
    tag = r.query
    if tag is None or tag.role not in CERTIFICATE_ROLES or kind is None or not isinstance(plan, (GrundyPlan, SetPlan)) \
            or not _well_founded(att, gq):
        return None
    try:
        cert = Certificate(plan, game_params, kind)
        # (a) along a move: the witness option is the move at Z3's values of its bound names (option_of checks it)
        conf = cert.confirm(pos, tag.move, dict(r.values)) if tag.role is QueryRole.A and tag.move is not None \
            else cert.confirm(pos)
    except (EvalError, SpecError, Untranslatable):
        return None
    if conf is None:
        return None
    f = conf.failure
    names = plan.window.names if plan.window is not None else ()
    b = dict(game_params)
    b.update(zip(plan.coords, f.position if isinstance(f.position, tuple) else (f.position,)))
    b = {n: b[n] for n in names if n in b}
    grundy = kind == Mode.GRUNDY
    claimed = f.label if grundy else ("P" if f.label == 0 else "N")
    what = ("the claimed " + ("Grundy function is not G" if grundy else "P-set is not the P-set") +
            f": {conf.words()}; proved by Z3: {att.results[0].name}, and every move stays in the domain; so " +
            conf.wrong_where())
    att.status = Word.REFUTED
    att.note = what + " (not necessarily the least counterexample, which is not known: the engine cannot value that far)"
    att.counterexample = Counterexample(b, None, claimed, detail={
        "certificate": what, "least": "not known",
        "found by": f"Z3 ({r.name}), confirmed by evaluating the claim exactly"})
    return att


def spurious_model(bindings: dict, abstractions: set) -> str:
    """The note for a Z3 model of a failure that holds when evaluated exactly: what Z3 reasoned about instead
    of the exact statement, and what may let it decide.

    >>> spurious_model({"x": 5}, {"2^e", "unknown G"})
    "Z3's model x=5 is not a counterexample when evaluated exactly: Z3 decided an abstraction of the statement (abstracting 2^n, G as unknown functions), where the model is a failure; a lemma in prove.using (a holds claim of the file about the abstracted terms), a case split in prove.each, or a smaller class in prove.for_all may let Z3 decide"
    """
    what = ", ".join(abstraction_words(abstractions)) or "numbers as bit-vectors or built-ins by their laws"
    return (f"Z3's model {show_values(bindings)} is not a counterexample when evaluated exactly: Z3 decided an "
            f"abstraction of the statement ({what}), where the model is a failure; a lemma in prove.using (a holds "
            "claim of the file about the abstracted terms), a case split in prove.each, or a smaller class in "
            "prove.for_all may let Z3 decide")


def _in_domain(plan: ClaimPlan, bindings: dict) -> bool:
    """Does a point lie in the claim's domain (a proof never refutes outside it)? A domain that names what the
    point does not bind judges nothing."""
    domain = getattr(plan, "domain", None)
    if domain is None or any(n not in bindings for n in domain.names):
        return True
    return domain.contains(bindings)
