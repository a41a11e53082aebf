"""Proving claims for every position with Z3: the verification method ``prove``.

* ``holds`` claims: the predicate, under the domain and the assumption, is valid (no counterexample).
* grundy / p_positions claims: the local certificate (checkers.certificate) holds at a symbolic position,
  together with two side conditions that make it a proof by induction: every move stays in the domain
  (closure) and decreases a measure (descent: the game's declared one, else the sum of the coordinates or
  one coordinate, else one a search finds, :mod:`checkers.prove.measures`). Condition (b) needs a witness move: Z3
  searches for it (a quantifier), or the claim's ``strategy`` gives it, as the papers' proofs do.

The domain is the window with its constant upper edges dropped (the window is a sample of a statement
about every position), or ``prove = { for_all = "..." }``. Small parameters (h in 1..4, k in 2..10) are
proved one value at a time after a first attempt with the parameter symbolic. The verdict ``proved``
prints the class it covers: "all x, y >= 0 for h = 3", "all x, y < 2^32", "abstracting 2^n".

A model Z3 finds is re-evaluated exactly (holds) or by the engine (game claims) before it is reported;
an unconfirmed model, ``unknown`` or a timeout give ``inconclusive``. A proof is held to the window by one rule
(:mod:`checkers.prove.soundness`): the dispatcher (checkers.run) applies it to the claim's proof, and
:func:`prove_lemma` to each claim a proof uses.

The jobs live in their own modules: the domain (:mod:`checkers.prove.domain`), the world
(:mod:`checkers.z3.world`), the translation into Z3 (:mod:`checkers.z3.translate` and its mixins), the
solver driver (:mod:`checkers.prove.attempt`), the queries of holds claims (:mod:`checkers.prove.holds`,
:mod:`checkers.prove.induction`) and of game claims (:mod:`checkers.prove.queries`,
:mod:`checkers.prove.strategy`), the lemma about Maximum Nim (:mod:`checkers.prove.rule_function`), one
instance and its confirmation (:mod:`checkers.prove.instance`), the scope text (:mod:`checkers.prove.scope`).
This module runs them on a claim, in one world or two, and decides the verdict.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from checkers.context import CheckContext
>>> v = prove_claim(spec.claims[0], RunOptions(timeout=20), context=CheckContext.for_claim())  # runs Walnut
>>> v.verdict, v.scope.split(";")[0]
('proved', 'all x >= 0')
"""
from __future__ import annotations

import ast
import time
from dataclasses import replace
from typing import Any

from nimjos.spec.loader import Claim, claim_of
from nimjos.lang.analysis import window_constants
from nimjos.lang.syntax import copy_tree
from nimjos.spec.plan import ClaimPlan, LevelSetPlan, ValuesPlan, WindowPlan
from nimjos.verdict import HasId, ProvedClass, Verdict, clipped, first_phrase, phrases
from nimjos.words import Note, NoteKind, PhraseKind
from checkers.context import CheckContext
from checkers.options import PROVE_SECONDS, RunOptions
from checkers.z3.budget import Budget
from checkers.certificate import game_kind, measure_words
from checkers.prove.bounded import bounded_class
from checkers.prove.domain import MAX_EACH, ProofDomain, all_symbolic, proof_domain
from checkers.prove.finite import finite_proof
from checkers.prove.instance import Attempt, prove_instance
from checkers.prove.measures import found_words
from checkers.prove.rule_function import warm_up
from checkers.prove.scope import class_phrases
from checkers.context import SolverContext
from checkers.prove.soundness import against_window, prover_bug
from checkers.prove.stand_in import probe_beyond, stand_in_claim, stand_in_words
from checkers.z3.terms import Untranslatable
from checkers.prove.xor_law import xor_law
from checkers.prove.walnut import walnut_verdict
from checkers.z3.world import WIDTH, choose_mode, world_of, world_trees

METHOD = "prove"


def not_applicable(claim: HasId, reason: str, seconds: float = 0.0) -> Verdict:
    """The verdict for a claim this method cannot handle, with the reason as data (the scope says it too).

    >>> v = not_applicable(type("C", (), {"id": "c"})(), "a printed table"); v.verdict, v.applicable, v.reason
    ('inconclusive', False, 'a printed table')
    """
    return Verdict.not_applicable(claim.id, METHOD, reason, seconds=seconds)



def prove_claim(claim: Claim, opts: RunOptions, window: Verdict | None = None,
                using_path: tuple[str, ...] = (), context: CheckContext | None = None) -> Verdict:
    """Prove one claim for every position of its domain: Walnut first (:mod:`checkers.prove.walnut`), whose
    proved or refuted stands; otherwise Z3, with Walnut's one-line reason in its notes (Walnut's proved-bounded
    stands unless Z3 proves or refutes the claim for the whole domain).

    `window` is the window's verdict on this claim when the runner has it (None: a finite domain's proof checks
    the window itself); the proof is held to the window by the caller (:mod:`checkers.prove.soundness`). `using_path` holds the claims whose proofs led
    here through prove.using (a lemma proved for another claim), so that a cycle is seen. `context` is the claim's
    (:class:`checkers.context.CheckContext`); None: a context of its own, installed for the call.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml")
    >>> prove_claim(spec.claim("half"), RunOptions(), using_path=("half",)).verdict  # runs Walnut
    'proved'
    """
    if context is None:
        context = CheckContext.for_claim()
        with context.installed():
            return prove_claim(claim, opts, window, using_path, context)
    whole = finite_proof(claim, opts, window)   # a finite domain the window enumerated whole is proved
    if whole is not None:
        return whole
    stood = _with_stand_ins(claim, opts, using_path, context)
    if stood is not None:
        return stood
    walnut = walnut_verdict(claim, opts)
    if walnut is not None and walnut.verdict in ("proved", "refuted"):
        return walnut
    v = _prove_with_z3(claim, opts, using_path, context)
    if walnut is not None and walnut.verdict == "proved-bounded" and v.verdict not in ("proved", "refuted"):
        walnut.notes.append(f"Z3: {v.verdict} ({v.scope})"[:300])
        return walnut
    if walnut is not None:
        # Walnut's inconclusive scope names Walnut; a proved-bounded one is its class: say whose it is
        v.notes.append(f"Walnut: proved-bounded ({walnut.scope})"[:300] if walnut.verdict == "proved-bounded"
                       else walnut.scope)
        if walnut.evidence.get("walnut"):
            v.evidence.setdefault("walnut", walnut.evidence["walnut"])   # where Walnut stopped, for the report
    return v


def _with_stand_ins(claim: Claim, opts: RunOptions, using_path: tuple[str, ...],
                    context: CheckContext) -> Verdict | None:
    """The claim proved by Walnut with the formulas of the grundy / P-position claims it uses standing for G
    (:mod:`checkers.prove.stand_in`), when that proves it and each used claim is proved; else None."""
    if not claim.prove.using:
        return None
    proxy = stand_in_claim(claim)
    if proxy is None:
        return None
    # the lemmas first: a formula stands for G only once its claim is proved (a wrong one proves anything)
    seconds = float(claim.prove.timeout or opts.timeout or PROVE_SECONDS.get(opts.profile, PROVE_SECONDS["deep"]))
    lemmas = prove_used(claim, opts, seconds / 2, using_path, context)
    if any(lv.verdict != "proved" for _, lv in lemmas):
        return None
    v = walnut_verdict(proxy, opts)
    if v is None or v.verdict != "proved":
        return None
    v = replace(v, claim_id=claim.id, phrases=phrases(v.phrases, (PhraseKind.STAND_IN, stand_in_words(claim))),
                notes=list(v.notes),
                evidence=dict(v.evidence))
    out = from_lemmas(v, lemmas)
    if out.verdict != "proved":
        return None
    # checked at points before it prints: beyond the window, where the assumption holds (a sparse one too)
    evaluated, held, cx = probe_beyond(claim, opts.profile)
    if cx is not None:   # a prover bug, marked as the window and the audit mark one (checkers.prove.soundness)
        prover_bug(out, f"{out.method} (Walnut, the formulas standing for G) said proved, but the claim fails beyond "
                        f"the window at {cx.position_text()}, evaluated exactly")
        return out
    out.notes.append(f"checked beyond the window at {evaluated} point(s) of the domain, the assumption holding at "
                     f"{held}: the claim held at each")
    return out


def _prove_with_z3(claim: Claim, opts: RunOptions, using_path: tuple[str, ...],
                   context: CheckContext) -> Verdict:
    """Prove one claim for every position of its domain with Z3 (see the module docstring); each attempt in a
    new Z3 context of the claim's `context`."""
    warm_up(claim.spec.namespace)
    start = time.perf_counter()
    cfg = claim.prove   # fields and types checked by the loader (nimjos.spec.schema.PROVE_FIELDS)
    if cfg.skip:
        return not_applicable(claim, str(cfg.skip))
    if issubclass(claim.plan_type, ValuesPlan):
        return not_applicable(claim, "a printed table is finite: the window check covers all of it")
    if issubclass(claim.plan_type, LevelSetPlan):
        return not_applicable(claim, "level-set claims are sampled, not proved (their certificate needs the level's "
                                     "quantifier over s)")
    plan = claim.plan(opts.profile)
    assert isinstance(plan, WindowPlan), "a claim the prover reads has a window"
    ns = claim.spec.namespace
    if plan.misere and game_kind(plan) is None:
        return not_applicable(claim, "in misère play Z3 proves P-position claims only (the local certificate with the "
                                     "terminal condition); a statement about misère values has no symbolic model")
    if not plan.window.names:
        return not_applicable(claim, "a closed statement: the window check evaluates it exactly")
    seconds = float(cfg.timeout or opts.timeout or PROVE_SECONDS.get(opts.profile, PROVE_SECONDS["deep"]))
    # the used claims are proved first (each in its own Z3 context), with half of the time between them; the
    # claim's own budget starts after them (issue #18: --timeout S is the claim's, not shared with its lemmas)
    lemmas = prove_used(claim, opts, seconds / 2, using_path, context) if cfg.using else []
    budget = Budget.seconds(seconds)   # resource units, the same on a loaded machine (checkers.z3.budget)
    solver = context.solver_context()
    fixed = [] if cfg.for_all else window_constants(plan.window)
    if fixed:
        return not_applicable(claim, f"{', '.join(fixed)} ties the statement to the window's sizes (state the domain "
                                     "with prove = { for_all = \"...\" })")
    try:
        dom = proof_domain(plan, cfg)
        mode, width, bits = world_of(plan, cfg)
        instances = dom.instances(ns)
    except Untranslatable as exc:
        return not_applicable(claim, str(exc), time.perf_counter() - start)
    exact = choose_mode(world_trees(plan), ns, exact=True)
    # a nim-sum is first proved by its laws for every size; if that does not finish in half the time, with
    # bit-vectors of WIDTH bits (a smaller class, which Z3 decides by bit-blasting). A statement about the
    # nim-sum alone would be proved by the very law it states: bit-vectors only (z3's bvxor is a definition)
    law = mode == "int" and exact == "bv" and not cfg.width and xor_law(plan)
    if law:
        mode, width, bits = "bv", WIDTH, WIDTH + 4
    both = mode == "int" and exact == "bv" and not cfg.width
    v = _prove_in_world(plan, dom, instances, mode, width, bits, start,
                        budget.part(0.5) if both else budget, solver)
    # (an int world with no model for the claim, such as v2 beside a built-in only bv has, tries bv too)
    if both and v.verdict == "inconclusive":
        dom = proof_domain(plan, cfg)
        bv = _prove_in_world(plan, dom, dom.instances(ns), "bv", WIDTH, WIDTH + 4, start, budget,
                             context.solver_context())
        if bv.verdict in ("proved", "proved-bounded", "refuted", "vacuous"):
            bv.notes.append(f"with xor by its laws (every size): inconclusive ({v.scope})")
            v = bv
        else:
            v.notes.append(f"with {WIDTH}-bit vectors: {bv.scope}")
            v.seconds = bv.seconds
    if law:
        v.notes.append("xor by its laws would restate the claim (a law of the abstraction): bit-vectors only")
    if budget.stopped:
        v.notes.append(budget.backstop_note())
    return from_lemmas(v, lemmas) if lemmas else v


def _prove_in_world(plan: ClaimPlan, dom: ProofDomain, instances: list[dict], mode: str, width: int | None,
                    bits: int, start: float, budget: Budget, solver: SolverContext) -> Verdict:
    """Prove every instance in one world (int or bit-vectors) within `budget`, in `solver`'s Z3 context: the verdict."""
    claim = claim_of(plan)
    attempts: list[Attempt] = []
    symbolic_first = None
    if len(instances) > 4 * MAX_EACH:   # decided before any query: a finite family this large is the window's job
        return not_applicable(claim, f"{len(instances):,} values of {', '.join(dom.enumerated)} (finite families are "
                                     "the window's job)", time.perf_counter() - start)
    # parameters symbolic first (k >= 2 instead of k = 2..10), for holds claims: a game with a symbolic
    # parameter makes the moves nonlinear, which Z3 does not finish
    if dom.enumerated and game_kind(plan) is None and \
            all(l.members is None for l in dom.binder.levels if l.name in dom.enumerated):
        sym = all_symbolic(plan)
        if sym is not None:
            symbolic_first = prove_instance(plan, sym, {}, mode, width, bits, budget.part(1 / 3), solver)
            if symbolic_first.status in ("proved", "refuted"):
                attempts = [symbolic_first]
                dom = sym
                instances = [{}]
    if not attempts:
        for params in instances:
            if budget.out():
                attempts.append(Attempt(params, "inconclusive", note=budget.backstop_note() if budget.stopped
                                        else "out of resources"))
                break
            att = prove_instance(plan, dom, params, mode, width, bits, budget, solver)
            if not attempts and att.untranslatable is not None:
                return not_applicable(claim, att.untranslatable, time.perf_counter() - start)
            attempts.append(att)
            if att.status == "refuted":
                break
    return _verdict(plan, dom, mode, width, attempts, instances, symbolic_first, start, solver)


def prove_used(claim: Claim, opts: RunOptions, seconds: float,
               using_path: tuple[str, ...] = (), context: CheckContext | None = None) -> list[tuple[str, Verdict]]:
    """Try to prove each claim named in prove.using (their verdicts decide what a proof from them is worth).
    The lemmas form an acyclic graph: a used claim may use others in turn, but never one on the path that led
    to it (a cycle: A from B from A), nor a claim that states what a claim on that path states (the claim
    proved by itself under another id); such a lemma is not proved, so the proof that needs it is not either.
    `using_path` is the path that led to `claim` (empty for a claim the runner proves). Each lemma's proof checks
    the lemma's own window (the runner's window verdict is this claim's). Their proof attempts are made in new Z3
    contexts of `context`, the claim's (None: each a context of its own).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml")
    >>> [(uid, v.verdict) for uid, v in prove_used(spec.claim("halves"), RunOptions(), 10)]  # runs Walnut
    [('half', 'proved')]
    """
    using = claim.prove.using
    path = tuple(using_path) + (claim.id,)
    sub = replace(opts, timeout=seconds / len(using))
    out = []
    for uid in using:
        used = claim.spec.claim(uid)
        if uid in path:
            out.append((uid, not_applicable(used, "a cycle of prove.using: " + " -> ".join(path + (uid,)))))
            continue
        same = next((c for c in path if same_statement(claim.spec.claim(c).plan(), used.plan())), None)
        if same is not None:
            out.append((uid, not_applicable(used, f"it states what {same!r} states: a lemma may not restate the "
                                                  "claim it proves")))
            continue
        out.append((uid, prove_lemma(used, sub, path, context)))
    return out


def prove_lemma(used: Claim, opts: RunOptions, using_path: tuple[str, ...],
                context: CheckContext | None = None) -> Verdict:
    """The proof of a claim another proof uses (`using_path`: the claims whose proofs led here), held to the used
    claim's own window by the rule the dispatcher applies to a claim's proof (:mod:`checkers.prove.soundness`): a
    lemma the window contradicts is not proved, so no proof rests on it.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml")
    >>> prove_lemma(spec.claim("half"), RunOptions(), ("halves",)).verdict  # runs Walnut
    'proved'
    """
    v = prove_claim(used, opts, using_path=using_path, context=context)
    against_window(used, v, None, opts.profile)
    return v


def same_statement(a: Any, b: Any) -> bool:
    """Do the plans of two claims state the same thing (statement and assumption alike, up to the names of their
    variables)?

    >>> from nimjos.lang.syntax import parse
    >>> from nimjos.spec.plan import Compiled, HoldsPlan
    >>> C = lambda s: type("C", (), {"statement": s, "spec": None})()
    >>> P = lambda s: HoldsPlan(claim=C(s), profile="default", window=None, domain=None, formula=Compiled(s, parse(s), bool))
    >>> same_statement(P("G(g, x) == x"), P("G(g, y) == y")), same_statement(P("x + 1 > x"), P("x + 2 > x"))
    (True, False)
    """
    def shape(plan: Any) -> str | None:
        stated = plan.statement_tree() if isinstance(plan.claim.statement, str) else None
        if stated is None:
            return None
        ns = getattr(getattr(plan.claim, "spec", None), "namespace", None)
        names: dict[str, str] = {}
        out = []
        for tree in (stated, plan.assume.tree if plan.assume is not None else ast.Constant(True)):
            tree = copy_tree(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Name) and not _known(ns, node.id):
                    node.id = names.setdefault(node.id, f"v{len(names)}")
            out.append(ast.dump(tree))
        return "|".join(out)
    sa, sb = shape(a), shape(b)
    return sa is not None and sa == sb


def _known(ns: Any, name: str) -> bool:
    """A name the spec's namespace defines (a game, a definition, a built-in), which renaming keeps."""
    if ns is None:
        return name in ("True", "False")
    return name in ns.definitions or name in ns.games or name in ns.builtins or name in ("True", "False")


def from_lemmas(v: Verdict, lemmas: list[tuple[str, Verdict]]) -> Verdict:
    """A proof that assumed other claims is a proof only when each of them is proved; otherwise it is reported
    as the reduction it is (inconclusive, with what it follows from and how far those claims are known).

    >>> ok = Verdict("c", "proved", "prove", "all n >= 0")
    >>> from_lemmas(ok, [("l", Verdict("l", "inconclusive", "prove", "all x >= 0; Z3 could not decide"))]).verdict
    'inconclusive'
    >>> from_lemmas(ok, [("l", Verdict("l", "proved", "prove", "all x >= 0"))]).scope
    'all n >= 0; from l (proved: all x >= 0)'
    """
    v = replace(v, notes=list(v.notes), evidence=dict(v.evidence))
    if v.verdict not in ("proved", "proved-bounded"):
        v.notes.append(Note(NoteKind.LEMMA, "assuming " + ", ".join(uid for uid, _ in lemmas)))
        return v
    if all(lv.verdict == "proved" or _covered_by(v, lv) for _, lv in lemmas):
        # every lemma is named, those the lemmas rest on included (the graph of the proof)
        v.phrases = phrases(v.phrases, (PhraseKind.LEMMA, "from " + ", ".join(
            f"{uid} ({lv.verdict}: {first_phrase(lv.phrases)}"
            + (f"; from {', '.join(lv.evidence['lemmas'])}" if lv.evidence.get("lemmas") else "") + ")"
            for uid, lv in lemmas)))
        v.evidence["lemmas"] = list(dict.fromkeys(u for uid, lv in lemmas for u in [uid, *lv.evidence.get("lemmas", [])]))
        return v
    open_ = [uid for uid, lv in lemmas if not (lv.verdict == "proved" or _covered_by(v, lv))]
    v.verdict = "inconclusive"
    v.phrases = phrases(v.phrases, (PhraseKind.LEMMA, "follows (Z3) from " + ", ".join(uid for uid, _ in lemmas)
                                    + ", each assumed for every point of the class it would be proved for; not "
                                    "proved: " + ", ".join(open_) + " (see their own verdicts)"))
    v.evidence["follows_from"] = [uid for uid, _ in lemmas]
    return v


def _covered_by(v: Verdict, lemma: Verdict) -> bool:
    """A lemma proved-bounded only in names this proof fixes to values it was proved for (k = 2..10 both) is
    assumed only where it is proved (a used claim is assumed with the names the attempt fixes at their values).

    >>> cls = lambda **k: ProvedClass(enumerated=k)
    >>> _covered_by(Verdict("c", "proved-bounded", "prove", "", proved_class=cls(k=(2, 3))),
    ...             Verdict("l", "proved-bounded", "prove", "", proved_class=cls(k=(2, 3, 4))))
    True
    >>> _covered_by(Verdict("c", "proved", "prove", "", proved_class=cls()),
    ...             Verdict("l", "proved-bounded", "prove", "", proved_class=cls(k=(2, 3, 4))))
    False
    """
    if lemma.verdict != "proved-bounded":
        return False
    mine, theirs = v.proved_class, lemma.proved_class
    if mine is None or theirs is None or theirs.width or not theirs.enumerated:
        return False
    return all(n in mine.enumerated and set(mine.enumerated[n]) <= set(vals) for n, vals in theirs.enumerated.items())



def _verdict(plan: ClaimPlan, dom: ProofDomain, mode: str, width: int | None, attempts: list[Attempt], instances: list[dict], symbolic_first: Attempt | None,
             start: float, solver: SolverContext) -> Verdict:
    claim = claim_of(plan)
    seconds = time.perf_counter() - start
    abstractions = set().union(*(a.abstractions for a in attempts)) if attempts else set()
    cls = class_phrases(dom, mode, width, instances, abstractions)
    engines = ("Z3",) + (("induction",) if any(a.startswith("induction ") for a in abstractions) else ())
    kind = game_kind(plan)
    what = "" if kind is None else ("certificate (a), (b)" + (" by the strategy" if claim.strategy else "")
                                     + (" in misère play, (c) no terminal position in the set" if plan.misere else "")
                                     + ", moves stay in the domain and decrease"
                                     + (measure_words(plan) or _found_measure(attempts)))
    notes = []
    if symbolic_first is not None and symbolic_first not in attempts:
        notes.append(f"with the parameters symbolic: {symbolic_first.status}"
                     + (f" ({symbolic_first.note})" if symbolic_first.note else ""))
    refuted = [a for a in attempts if a.status == "refuted"]
    if refuted:
        a = refuted[0]
        assert a.counterexample is not None, "a refuted attempt has its counterexample (checkers.prove.instance)"
        # a refutation by a confirmed certificate failure says what was confirmed (checkers.prove.instance)
        v = Verdict(claim.id, "refuted", METHOD, phrases(cls, (PhraseKind.FINDING, a.note)), instances=len(attempts),
                    counterexamples=[a.counterexample], failures=1, seconds=seconds, notes=notes, engines=engines)
        return v
    done = [a for a in attempts if a.status in ("proved", "vacuous")]
    if len(done) == len(instances) and attempts:
        if all(a.status == "vacuous" for a in done):
            return Verdict(claim.id, "vacuous", METHOD, phrases(cls, (PhraseKind.FINDING, "the assumption holds "
                                                                      "nowhere (Z3)")), seconds=seconds,
                           notes=notes, engines=engines)
        scope = phrases(cls, (PhraseKind.ENGINE, what))
        if dom.dropped:
            notes.append(f"the window's upper edge dropped for {', '.join(dom.dropped)}")
        # proved only for the whole domain; a smaller class (k = 3..10, values below 2^32) is proved-bounded
        bounded = bounded_class(plan, dom, mode, width, instances, solver.ctx)
        if bounded is not None and dom.domain_text:
            # the scope names the proof's own bounds, not the domain it does not cover ("all x >= 0")
            scope = phrases(class_phrases(replace(dom, domain_text=""), mode, width, instances, abstractions),
                            (PhraseKind.ENGINE, what))
        v = Verdict(claim.id, "proved" if bounded is None else "proved-bounded", METHOD,
                    scope if bounded is None else phrases((PhraseKind.CLASS, bounded), scope), instances=len(done),
                    assumption_held=len(done), seconds=seconds, notes=notes, engines=engines,
                    proved_class=ProvedClass(enumerated={n: tuple(dict.fromkeys(i[n] if type(i[n]) is int else repr(i[n])
                                                                                for i in instances if n in i))
                                                         for n in dom.enumerated}, width=width))
        return v
    first = next((a for a in attempts if a.status == "inconclusive"), None)
    why = first.note if first is not None else "out of time"
    proved = len([a for a in attempts if a.status in ("proved", "vacuous")])
    if len(instances) > 1:
        notes.append(f"proved for {proved} of {len(instances)} values of {', '.join(dom.enumerated)}")
    return Verdict(claim.id, "inconclusive", METHOD, phrases(cls, (PhraseKind.REASON, why)), seconds=seconds, notes=notes,
                   engines=engines)


def _found_measure(attempts: list[Attempt]) -> str:
    """The scope's words for the measure a search found (:mod:`checkers.prove.measures`), in the proved
    attempts; empty when the descent used the coordinate sum or one coordinate.

    >>> _found_measure([Attempt({}, "proved", measure=("a + 2*b",))])
    ' the measure a + 2*b (found by a search, as the game declares none; proved: every move decreases it, and it is >= 0 on the domain)'
    >>> _found_measure([Attempt({}, "proved")])
    ''
    """
    done = [a for a in attempts if a.status in ("proved", "vacuous")]
    found = [a.measure for a in done if a.measure]
    mixed = " (for the instances where neither the coordinate sum nor one coordinate decreases)"
    return found_words(found) + (mixed if found and len(found) < len(done) else "")
