"""Proving and refuting claims with Walnut: the verdict of the prover's first backend.

:func:`walnut_verdict` translates a grundy, p_positions or holds claim (and its declared game's moves) into
Walnut queries over msd_2 (:mod:`checkers.prove.walnut.certificate`), one run per value of the parameters the
window enumerates (a game's parameters are fixed: h = 1..5), and decides:

* every query TRUE: ``proved`` for the whole domain, or ``proved-bounded`` when the parameters' values are
  fewer than the domain's (the domain leaves h unbounded, the window has h = 2..4): the scope prints the class,
  Walnut, the largest automaton and the seconds, and the class as data (``proved_class``: the values of the
  enumerated parameters), by which the dispatcher holds the proof to the window (:mod:`checkers.prove.soundness`).
* a query FALSE: the least position of the counterexample automaton, re-evaluated with the engine
  (``as_instance(game).grundy(pos)``) or the expression language (holds); ``refuted`` only when it confirms,
  else the engine's own smallest counterexample nearby, else ``inconclusive`` with the reason.
* not automatic, Walnut missing, a limit reached (states, then the wall clock): ``inconclusive`` with the reason
  in one line; the prover then goes on with Z3 (``checkers.prove.method.prove_claim``).

None is returned for the kinds Walnut has nothing to say about (values, level sets, periodic, stair).

>>> from nimjos.spec.plan import ValuesPlan
>>> walnut_verdict(type("C", (), {"plan_type": ValuesPlan})(), None) is None
True
"""
from __future__ import annotations

import ast
import dataclasses
import itertools
import re
import time
from typing import Any

from nimjos.games.declared import MISERE, DeclaredGame, as_instance
from nimjos.games.engine import positions_at_most
from nimjos.lang.binders import Binder
from nimjos.lang.builtins import iter_items
from nimjos.lang.compiler import compile_tree
from nimjos.lang.errors import EvalError, NimjosError, SpecError
from nimjos.lang.analysis import window_constants
from nimjos.lang import build
from nimjos.lang.syntax import copy_tree
from nimjos.lang.values import format_value, json_value
from nimjos.spec.loader import Claim, claim_of
from nimjos.spec.plan import GrundyPlan, HoldsPlan, LevelSetPlan, PPositionsPlan, SetPlan, WindowPlan
from nimjos.verdict import Counterexample, Phrases, ProvedClass, Verdict, phrases
from nimjos.words import PhraseKind
from checkers.options import RunOptions
from checkers.certificate import Certificate, box_cells, game_kind
from checkers.prove.domain import proof_domain
from checkers.prove.scope import class_phrases
from checkers.z3.terms import Untranslatable
from checkers.prove.walnut.certificate import Job, decode, game_job, holds_job
from checkers.prove.walnut.run import (SearchLimit, WalnutMissing, find_jar, find_java, jar_version, run,
                                       smallest_accepted, state_limit, states_of, work_limit)
from checkers.prove.walnut.logic import (BEATTY_CHECKS, JOSEPHUS_CHECK, JOSEPHUS_LEMMA, NotAutomatic,
                                         WrongNumeration, in_numeration, library)
from checkers.prove.walnut.numeration import BASE2, UnknownNumeration, numeration

METHOD = "prove"
#: the wall clock of one Walnut run: a generous backstop behind the deterministic limits (the largest automaton,
#: and the states built in all: :func:`checkers.prove.walnut.run.state_limit` and ``work_limit`` of the profile), which
#: decide in practice
WALNUT_SECONDS = 900.0
#: the engine searches at most this many positions for a counterexample of its own
SEARCH_POSITIONS = 20_000
#: ... and re-evaluates positions up to this coordinate sum
MAX_SUM = 300
#: positions the engine may explore to confirm one failure: four times the box below the position, at least
#: 100,000 and at most 2,000,000 (a declared game with no measure may never end: x -> x + 1)
CONFIRM_POSITIONS = (100_000, 2_000_000)
#: a parameter fixed one value at a time (when the statement is automatic only so) has at most this many values
MAX_EACH_FIXED = 40


#: the engines a Walnut verdict names (Verdict.engines)
ENGINES = ("Walnut",)


def _inconclusive(claim: Claim, why: str, start: float, **kw: Any) -> Verdict:
    return Verdict(claim.id, "inconclusive", METHOD, phrases((PhraseKind.REASON, f"Walnut: {why}")),
                   seconds=time.perf_counter() - start, engines=ENGINES, **kw)


def walnut_verdict(claim: Claim, opts: RunOptions) -> Verdict | None:
    """The Walnut verdict of a claim (see the module docstring); None for kinds it does not handle, or when the
    options turn Walnut off."""
    if not issubclass(claim.plan_type, (GrundyPlan, PPositionsPlan, LevelSetPlan, HoldsPlan)) or \
            (opts is not None and not opts.walnut):
        return None
    start = time.perf_counter()
    cfg = claim.prove
    if cfg.skip:
        return None
    plan = claim.plan(opts.profile)
    assert isinstance(plan, WindowPlan), "a claim Walnut reads has a window"
    if not plan.window.names:
        return None
    fixed = [] if cfg.for_all else window_constants(plan.window)
    if fixed:
        return _inconclusive(claim, f"not automatic: {', '.join(fixed)} ties the statement to the window", start)
    try:
        setup, jobs = _translate(plan, cfg)
    except (NotAutomatic, Untranslatable) as exc:
        return _inconclusive(claim, f"not automatic: {exc}", start)
    except UnknownNumeration as exc:
        return _inconclusive(claim, f"not run: {exc}", start)
    if setup is None:
        return None     # every name takes the window's values: nothing for Walnut to quantify
    try:
        java, jar = find_java(), find_jar()
    except WalnutMissing as exc:
        return _inconclusive(claim, f"not run: {exc}", start)
    timeout = float(cfg.timeout or WALNUT_SECONDS)
    # one JVM for every instance: each instance's names carry its number (q_a_0, mv1_2, ...)
    num = setup["num"]
    commands = []
    for k, (_, job) in enumerate(jobs):
        commands += [in_numeration(_tag(c, k), num) for c in job.commands]
    commands = library(commands, num) + commands
    profile = opts.profile if opts is not None else "default"
    work, largest = work_limit(profile, len(jobs)), state_limit(profile)
    stored = {name: text for _, job in jobs for name, text in job.automata.items()}
    res = run(commands, timeout=timeout, max_states=largest, java=java, jar=jar, max_total=work, automata=stored)
    runs = [(inst, job, _Answers(res, k)) for k, (inst, job) in enumerate(jobs)]
    why = res.failure(largest, timeout, work)
    if why is not None:
        if (res.work_limit or res.state_limit) and profile != "deep":
            why = re.sub(r"\(the (work|state) limit\)", rf"(the \1 limit of the {profile} profile); run with --profile deep",
                         why)
        return _inconclusive(claim, why, start, evidence=_evidence(runs, jar, res, num))
    if any("$jos(" in c for c in commands) and res.verdicts.get(JOSEPHUS_CHECK) is not True:
        return _inconclusive(claim, "the automaton of survivor(n, 2) was not proved to satisfy the Josephus recursion "
                             f"(Walnut answered {res.verdicts.get(JOSEPHUS_CHECK)}): no proof rests on it", start,
                             evidence=_evidence(runs, jar, res, num))
    for automaton, (check, _) in BEATTY_CHECKS.items():
        if any(f"${automaton}(" in c for c in commands) and res.verdicts.get(check) is not True:
            return _inconclusive(claim, f"the automaton {automaton} was not proved to be its Beatty sequence (Walnut "
                                 f"answered {res.verdicts.get(check)}): no proof rests on it", start,
                                 evidence=_evidence(runs, jar, res, num))
    found = []
    for inst, job, ans in runs:
        missing = [r for r in job.queries if r not in ans.verdicts]
        if missing:
            return _inconclusive(claim, f"Walnut gave no answer to {', '.join(missing)}{_for(inst)}", start,
                                 evidence=_evidence(runs, jar, res, num))
        failed_ob = [job.why[k] for k, role in job.queries.items() if role == "obligation" and not ans.verdicts[k]]
        if failed_ob:
            return _inconclusive(claim, f"not exact here: {failed_ob[0]}, and Walnut finds values where it is (its "
                                 f"numbers are the naturals){_for(inst)}", start, evidence=_evidence(runs, jar, res, num))
        answer = {role: ans.verdicts[k] for k, role in job.queries.items() if role != "obligation"}
        if all(answer.values()):
            continue
        main_failed = [r for r in ("total", "unique", "a", "b", "c", "holds") if r in answer and not answer[r]]
        if not main_failed:
            side = [r for r in ("descent", "closure") if not answer[r]]
            return _inconclusive(claim, f"the certificate holds but is no proof: {_SIDE[side[0]]}{_for(inst)}", start,
                                 evidence=_evidence(runs, jar, res, num))
        found.append((inst, job, ans, main_failed, answer))
    seconds = time.perf_counter() - start
    if found:
        return _refutation(plan, setup, found, start, _evidence(runs, jar, res, num))
    return _proved(plan, setup, runs, jar, res, seconds)


def _translate(plan: Any, cfg: Any) -> tuple[dict | None, list]:
    """The setup and the jobs of every instance, in the numeration the spec names (``prove = { numeration = "fib" }``)
    or else the one the claim's terms need: msd_2 first, and the numeration a term asks for (floor_phi, zeck_tz:
    Fibonacci) when one does (:class:`checkers.prove.walnut.logic.WrongNumeration`)."""
    if cfg.numeration:
        return _translate_in(plan, cfg, numeration(cfg.numeration).name)
    try:
        return _translate_in(plan, cfg, BASE2.name)
    except WrongNumeration as exc:
        return _translate_in(plan, cfg, exc.wanted)


def _translate_in(plan: Any, cfg: Any, num: str) -> tuple[dict | None, list]:
    """The setup and the jobs of every instance in the numeration `num`. When the statement is not automatic with its parameters
    symbolic, one or two of them with a finite constant range in the window are fixed one value at a time
    (``x // 2**v2(x) == 2*s + 1`` is automatic for each s, not in s): the proof then covers those values only."""
    def attempt(c: Any) -> tuple[dict | None, list]:
        setup = _setup(plan, c)
        setup["num"] = numeration(num)
        if not setup["symbolic"]:
            return None, []
        return setup, [(inst, _job(plan, setup, inst)) for inst in setup["instances"]]
    try:
        return attempt(cfg)
    except (NotAutomatic, Untranslatable) as exc:
        first = exc
    if cfg.each is not None or cfg.for_all:
        raise first
    finite = [lv.name for lv in plan.window.levels if lv.name not in plan.coords and _finite(lv)]
    for k in (1, 2):
        for names in itertools.combinations(finite, k):
            try:
                setup, jobs = attempt(dataclasses.replace(cfg, each=tuple(names)))
            except (NotAutomatic, Untranslatable):
                continue
            if setup is not None and set(names) <= set(setup["enumerated"]):
                setup["fixed_because"] = f"{', '.join(names)} fixed one value at a time; in {', '.join(names)}: {first}"
                return setup, jobs
    raise first


def _finite(level: Any) -> bool:
    """Does a window level have constant bounds (a range of at most MAX_EACH_FIXED values)?"""
    try:
        lo = max(fn({}) for fn, _ in level.lows)
        hi = min(fn({}) for fn, _ in level.highs)
    except (NimjosError, KeyError, TypeError, ValueError):
        return level.members is not None
    return level.members is None and 0 <= hi - lo + 1 <= MAX_EACH_FIXED


_SIDE = {"descent": "a move does not lower the sum of the coordinates",
         "closure": "a move leaves the domain"}


_NAMES = re.compile(r"(?<![A-Za-z0-9_$])(\$?)(dm|fG|fP|mv\d+|q_[a-z]+|ob\d+|cex)(?![A-Za-z0-9_])")


def _tag(command: str, k: int) -> str:
    """A command of instance k with its def and eval names numbered.

    >>> _tag('eval q_a "A x $fG(g,x) & $mv0(y,x)";', 2)
    'eval q_a_2 "A x $fG_2(g,x) & $mv0_2(y,x)";'
    """
    return _NAMES.sub(lambda m: f"{m.group(1)}{m.group(2)}_{k}", command)


class _Answers:
    """One instance's view of a run: its verdicts and automata under its own names."""

    def __init__(self, res: Any, k: int):
        suffix = f"_{k}"
        self.verdicts = {n[:-len(suffix)]: v for n, v in res.verdicts.items() if n.endswith(suffix)}
        self.automata = {n[:-len(suffix)]: a for n, a in res.automata.items() if n.endswith(suffix)}


def _for(inst: dict) -> str:
    return f" (at {', '.join(f'{k} = {v}' for k, v in inst.items())})" if inst else ""


# ----------------------------------------------------------------------------- the class of the proof

def _setup(plan: Any, cfg: Any) -> dict:
    """The names Walnut quantifies (symbolic), the instances of the others, and whether they cover the domain."""
    claim = claim_of(plan)
    ns = claim.spec.namespace
    dom = proof_domain(plan, cfg)
    if dom.substituted:
        raise NotAutomatic(f"{', '.join(dom.substituted)} is fixed by a set depending on other names")
    coords = list(plan.coords)
    symbolic = [n for n in plan.window.names if n in dom.symbolic]
    if plan.game_text and set(symbolic) - set(coords):
        extra = sorted(set(symbolic) - set(coords))
        raise NotAutomatic(f"{', '.join(extra)}: a game's parameters must be fixed, and the window gives no small "
                           "range of values for them")
    # the class of the proof: prove.for_all's tree, else the claim's domain (None: no condition); its text for words
    domain = plan.prove_for_all if cfg.for_all else plan.domain.tree
    domain_text = cfg.for_all or plan.domain.text or None
    instances = dom.instances(ns)
    covered, why = _covers(plan, dom.enumerated, instances, cfg)
    if issubclass(claim.plan_type, LevelSetPlan) and covered:    # the levels are the window's (a profile widens them)
        covered, why = False, f"the levels {plan.levels.text or ', '.join(plan.level_names)} of the window"
    return {"ns": ns, "dom": dom, "symbolic": symbolic, "enumerated": list(dom.enumerated), "instances": instances,
            "domain": domain, "domain_text": domain_text, "covered": covered, "why_bounded": why}


def _covers(plan: Any, names: list[str], instances: list[dict], cfg: Any) -> tuple[bool, str]:
    """Do the enumerated values cover every value the domain allows? (False, why) when not, or not known."""
    claim = claim_of(plan)
    if cfg.for_all and cfg.for_all != plan.domain.text:
        return False, f"the proof's domain prove.for_all = {cfg.for_all!r} is not the claim's domain"
    open_ = [n for n in names if n in plan.domain.unbounded]
    if open_:
        return False, f"the domain leaves {', '.join(open_)} unbounded"
    if not names:
        return True, ""
    try:
        if plan.domain.tree is None:
            raise SpecError("a domain without a condition")
        binder = Binder(copy_tree(plan.domain.tree), claim.spec.namespace, allow_unbounded=True, text=plan.domain.text)
        values = {}
        for level in binder.levels:
            if level.name not in names:
                continue
            if level.members is not None:
                values[level.name] = set(iter_items(level.members({})))
            else:
                lo = max(fn({}) for fn, _ in level.lows)
                hi = min(fn({}) for fn, _ in level.highs)
                values[level.name] = set(range(lo, hi + 1))
    except (NimjosError, KeyError, TypeError, ValueError):
        return False, f"the domain's values of {', '.join(names)} could not be listed"
    have = {tuple(i[n] for n in names) for i in instances}
    want = set(itertools.product(*(sorted(values.get(n, {None})) for n in names)))
    if not want <= have:
        return False, f"the domain has more values of {', '.join(names)} than the window"
    return True, ""


def _job(plan: Any, setup: dict, inst: dict) -> Job:
    claim = claim_of(plan)
    ns = setup["ns"]
    # Walnut's numbers are the naturals: the domain must bound every symbolic name (a claim's variable, a game's
    # coordinate) below by 0, or the method does not apply
    _check_nonneg(plan, setup, inst)
    if isinstance(plan, HoldsPlan):
        names = setup["symbolic"]
        assume = plan.assume.tree if plan.assume is not None else None
        exp = _exponent_names(plan, names) if setup["num"] is BASE2 else set()
        try:
            job = holds_job(ns, plan.formula.tree, names, inst, setup["domain"], assume, exp, num=setup["num"])
        except NotAutomatic:
            if not exp:
                raise
            job = holds_job(ns, plan.formula.tree, names, inst, setup["domain"], assume, num=setup["num"])
    else:
        if claim.assume_text:
            raise NotAutomatic("a game claim with an assumption (the certificate needs every position)")
        try:
            game = as_instance(plan.game({**inst, **{c: 0 for c in plan.coords}}))
        except (EvalError, SpecError) as exc:
            raise NotAutomatic(f"the game cannot be built: {exc}") from None
        if not isinstance(game, DeclaredGame):  # (misère play of a built-in: a MisereGame, refused here too)
            raise NotAutomatic(f"the built-in game {game.label} has no declared moves to translate")
        kind = game_kind(plan)
        assert kind is not None, "a game claim has a local certificate"
        job = game_job(ns, game.decl, dict(game.params), inst, kind,
                       plan.formula.tree if getattr(plan, "formula", None) is not None else None,
                       list(plan.families) if isinstance(plan, SetPlan) and plan.families is not None else None,
                       setup["domain"], tuple(plan.coords), _levels(plan, inst) if isinstance(plan, LevelSetPlan) else None,
                       num=setup["num"], misere=game.play == MISERE)
    return job


def _levels(plan: Any, inst: dict) -> tuple[str, list[int]]:
    """A level set's name and its values, which the certificate needs to be 0, 1, ..., S."""
    if len(plan.level_names) != 1:
        raise NotAutomatic("a level set with more than one level name")
    name = plan.level_names[0]
    try:
        values = sorted(e[name] for e in plan.levels.bindings(dict(inst, **{c: 0 for c in plan.coords})))
    except (NimjosError, TypeError) as exc:
        raise NotAutomatic(f"the levels cannot be listed: {exc}") from None
    if values != list(range(len(values))):
        raise NotAutomatic(f"the levels {values[:6]} are not 0, 1, ..., S (the certificate needs every lower level)")
    return name, values


def _check_nonneg(plan: Any, setup: dict, inst: dict) -> None:
    """Walnut quantifies over the naturals: the class of the proof (the claim's domain, or prove.for_all, with
    a holds claim's assumption) must imply that every symbolic name is >= 0, each by a lower bound non-negative
    by its form; the window's bounds do not count (a domain ``x >= -5`` with the window ``0 <= x <= 20`` is
    about x = -5 too).

    >>> from nimjos.spec.loader import load_spec
    >>> from nimjos.lang.syntax import parse
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[3] / "tests" / "data" / "tiny.toml")
    >>> _check_nonneg(spec.claims[0].plan(), {"domain": parse("0 <= x"), "domain_text": "0 <= x", "symbolic": ["x"]}, {})
    >>> _check_nonneg(spec.claims[0].plan(), {"domain": parse("x >= -5"), "domain_text": "x >= -5", "symbolic": ["x"]}, {})
    Traceback (most recent call last):
    ...
    checkers.prove.walnut.logic.NotAutomatic: the domain x >= -5 does not bound x below by 0 (Walnut's numbers are the naturals)
    """
    claim = plan.claim
    names, text = setup["symbolic"], setup["domain_text"] or ""
    parts = [setup["domain"]] if setup["domain"] is not None else []
    if isinstance(plan, HoldsPlan) and plan.assume is not None:     # where the assumption fails, the claim holds
        text = f"({text}) and ({plan.assume.text})" if text else plan.assume.text
        parts.append(plan.assume.tree)
    ok: set = set()
    try:
        levels = Binder(build.conjunction(parts), plan.namespace, allow_unbounded=True, text=text).levels if parts else []
    except (NimjosError, KeyError, TypeError, ValueError):
        levels = []
    for level in levels:
        if level.name not in names:
            continue
        if level.members is not None:
            try:
                vals = list(iter_items(level.members(dict(inst))))
            except (NimjosError, KeyError, TypeError, ValueError):
                vals = [-1]
            if all(type(v) is int and v >= 0 for v in vals):
                ok.add(level.name)
        elif any(_nonneg_expr(copy_tree(t), ok, inst, claim) for t in level.low_trees):
            ok.add(level.name)
    missing = [n for n in names if n not in ok]
    if missing:
        where = f"the domain {text}" if text else "the domain (no condition)"
        raise NotAutomatic(f"{where} does not bound {', '.join(missing)} below by 0 (Walnut's numbers are the "
                           "naturals)")


def _exponent_names(plan: Any, names: list[str]) -> set:
    """Names used as the exponent of 2 (``2 ** n``): tried first as 2**n, the automatic view of them."""
    out = set()
    trees = plan.expression_trees() + ([plan.domain.tree] if plan.domain.tree is not None else [])
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Constant) \
                    and node.left.value == 2 and isinstance(node.right, ast.Name) and node.right.id in names:
                out.add(node.right.id)
    return out


# ----------------------------------------------------------------------------- verdicts

def _evidence(runs: list, jar: str, res: Any, num: Any = BASE2) -> dict:
    """The Walnut statements and the automata's sizes, for reports (evidence["walnut"])."""
    out = []
    for inst, job, ans in runs:
        sizes = {name: states_of(text) for name, text in ans.automata.items() if name != "cex"}
        out.append({"params": {k: json_value(v) for k, v in inst.items()},
                    "commands": "\n".join(library(job.commands, num) + [in_numeration(c, num) for c in job.commands]),
                    "states": sizes, "automata": dict(job.automata),
                    "answers": {job.queries.get(k, k): v for k, v in ans.verdicts.items()}})
    return {"walnut": {"version": jar_version(jar), "numeration": num.walnut, "runs": out, "states": res.max_states_seen,
                       "total_states": res.total_states, "seconds": round(res.seconds, 3)}}


def _instances_text(names: list[str], instances: list[dict]) -> str:
    if len(names) == 1:
        vals = [i[names[0]] for i in instances]
        if all(type(v) is int for v in vals) and len(vals) > 2 and vals == list(range(vals[0], vals[0] + len(vals))):
            return f"{names[0]} = {vals[0]}..{vals[-1]}"
        return f"{names[0]} = " + ", ".join(str(v) for v in vals)
    return f"{len(instances)} values of ({', '.join(names)})"


def _class(setup: dict, more: str = "") -> Phrases:
    """The class Walnut covered, as the prover's other scopes (checkers.prove.scope.class_phrases), with `more` words
    at its end (why it is bounded)."""
    cls = class_phrases(setup["dom"], "int", None, setup["instances"], set())
    if not more:
        return cls
    return cls[:-1] + (dataclasses.replace(cls[-1], text=cls[-1].text + more),) if cls else phrases((PhraseKind.CLASS, more))


def _proved(plan: Any, setup: dict, runs: list, jar: str, res: Any, seconds: float) -> Verdict:
    claim = claim_of(plan)
    ev = _evidence(runs, jar, res, setup["num"])
    w = ev["walnut"]
    what = ("the statement" if issubclass(claim.plan_type, HoldsPlan) else
            "certificate (a), (b)" + (", total" if issubclass(claim.plan_type, GrundyPlan) else "") +
            (", (c) and disjoint levels" if issubclass(claim.plan_type, LevelSetPlan) else "") +
            (" in misère play, (c) no terminal position in the set" if plan.misere else "") +
            ", moves decrease and stay in the domain")
    word = "proved" if setup["covered"] else "proved-bounded"
    scope = phrases(_class(setup, ("" if setup["covered"] else f" only ({setup['why_bounded']})") +
                           (f" ({setup['fixed_because'][:200]})" if setup.get("fixed_because") else "")),
                    (PhraseKind.ENGINE, f"{w['version']} ({w['numeration']}): {what}"),
                    (PhraseKind.ENGINE, f"largest automaton {w['states']:,} states"),
                    (PhraseKind.LEMMA, JOSEPHUS_LEMMA if any("$jos(" in str(r.get("commands", ""))
                                                             for r in w.get("runs", [])) else ""),
                    *((PhraseKind.LEMMA, lemma) for automaton, (_, lemma) in BEATTY_CHECKS.items()
                      if any(f"${automaton}(" in str(r.get("commands", "")) for r in w.get("runs", []))))
    job = runs[0][1]
    notes = [f"Walnut: {job.statement[:240]}" + ("..." if len(job.statement) > 240 else "")]
    # a bounded class as data: the values of the names enumerated one at a time (checkers.audit.in_class reads it)
    cls = ProvedClass(enumerated={n: tuple(dict.fromkeys(i[n] if type(i[n]) is int else repr(i[n])
                                                         for i in setup["instances"] if n in i))
                                  for n in setup["enumerated"]})
    return Verdict(claim.id, word, METHOD, scope, instances=len(runs), assumption_held=len(runs), seconds=seconds,
                   notes=notes, evidence=ev, engines=ENGINES, automaton_states=w["states"],
                   proved_class=cls if word == "proved-bounded" else None)


def _ordered(plan: Any, env: dict) -> dict:
    return {n: env[n] for n in plan.window.names if n in env}


def _refutation(plan: Any, setup: dict, found: list, start: float, evidence: dict) -> Verdict:
    """Confirm each instance's least certificate failure with the engine (or the language), keep the least."""
    claim = claim_of(plan)
    confirmed, reasons = [], []
    for inst, job, res, failed, answer in found:
        try:
            vals = smallest_accepted(res.automata.get("cex", ""), num=setup["num"]) if res.automata.get("cex") else None
        except SearchLimit as exc:     # Walnut decided FALSE, but a refutation shows an instance: none in reach
            reasons.append(f"Walnut decided that the claim fails, but {exc}{_for(inst)}")
            continue
        if vals is None:
            reasons.append(f"no failing position could be read from Walnut's automaton{_for(inst)}")
            continue
        env = _ordered(plan, {**inst, **decode(vals, job)})
        exact = answer.get("descent", True) and answer.get("closure", True)
        cx = _confirm(plan, inst, env)
        if cx is not None and exact:
            confirmed.append((cx, failed, env))
            continue
        cx = _engine_search(plan, inst, env)
        if cx is not None:
            confirmed.append((cx, failed, env))
            continue
        cx = _least_failure(plan, inst, env) if exact else None
        if cx is not None:
            confirmed.append((cx, failed, env))
            continue
        reasons.append(_unconfirmed(claim, failed, env, inst, exact))
    if not confirmed:
        return _inconclusive(claim, reasons[0], start, evidence=evidence)
    cx, failed, env = min(confirmed, key=lambda c: c[0].key())
    if "certificate" in cx.detail:     # the least failure, confirmed by evaluating the claim (_least_failure)
        return Verdict(claim.id, "refuted", METHOD,
                       phrases(_class(setup), (PhraseKind.FINDING, f"{evidence['walnut']['version']} "
                                                                   f"({setup['num'].walnut}): {cx.detail['certificate']}")),
                       instances=len(found),
                       counterexamples=[cx], failures=1, seconds=time.perf_counter() - start, evidence=evidence,
                       engines=ENGINES, notes=[cx.detail["least"], f"Walnut: {found[0][1].statement[:240]}"])
    how = "the statement is false" if issubclass(claim.plan_type, HoldsPlan) else \
        "certificate " + ", ".join(f"({f})" if f in ("a", "b", "c") else f for f in failed) + (" fails" if len(failed) == 1 else " fail")
    scope = phrases(_class(setup),
                    (PhraseKind.FINDING, f"{evidence['walnut']['version']} ({setup['num'].walnut}): {how}, least "
                                         f"failure at {_show(env)}"),
                    (PhraseKind.FINDING, f"confirmed by the {'expression language' if issubclass(claim.plan_type, HoldsPlan) else 'engine'} "
                                         f"at {cx.position_text()}"))
    return Verdict(claim.id, "refuted", METHOD, scope, instances=len(found), counterexamples=[cx], failures=1,
                   seconds=time.perf_counter() - start, evidence=evidence, engines=ENGINES,
                   notes=[f"Walnut: {found[0][1].statement[:240]}"])


def _show(env: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in env.items())


def _confirm(plan: Any, inst: dict, env: dict) -> Counterexample | None:
    """The counterexample at env when the engine (game claims) or the language (holds) says the claim fails."""
    claim = claim_of(plan)
    try:
        if issubclass(claim.plan_type, HoldsPlan):
            if not plan.domain.contains(env) or (plan.assume is not None and not plan.assume(env)):
                return None
            if plan.formula(env):
                return None
            lhs, rhs = False, True
            if plan.sides is not None:
                lhs, rhs = plan.sides[0](env), plan.sides[1](env)
            return Counterexample(dict(env), lhs, rhs)
        kind = game_kind(plan)
        assert kind is not None, "a game claim has a local certificate"
        cert = Certificate(plan, inst, kind)
        pos = tuple(env[c] for c in plan.coords)
        pos = pos[0] if len(pos) == 1 else pos
        if sum(pos if isinstance(pos, tuple) else (pos,)) > MAX_SUM:
            return None
        low, high = CONFIRM_POSITIONS
        with positions_at_most(min(high, max(low, 4 * box_cells(pos)))):     # the game may not end from pos
            g = cert.inst.grundy(pos)
        label = cert.labels_of(pos)
        if cert.agrees(g, label):
            return None
        if issubclass(claim.plan_type, LevelSetPlan):       # as the window reports it: the position and the level it fails at
            name = plan.level_names[0]
            levels = cert.levels or []
            fails = ([(label, "in")] if label is not None else []) + ([(g, "not in")] if g in levels else [])
            s_value, how = min(fails)
            return Counterexample({**env, name: s_value}, g, f"{how} the set for {name} = {s_value}",
                                  detail={"grundy": g})
        if issubclass(claim.plan_type, GrundyPlan):
            return Counterexample(dict(env), g, label)
        return Counterexample(dict(env), "P" if g == 0 else "N", "P" if label == 0 else "N", detail={"grundy": g})
    except (EvalError, SpecError):
        return None


def _unconfirmed(claim: Claim, failed: list, env: dict, inst: dict, exact: bool) -> str:
    """Why Walnut's least failure at `env` refutes nothing: what the engine (or the language) and the exact
    evaluation of the certificate there could not do, and nothing they did not do."""
    if issubclass(claim.plan_type, HoldsPlan):
        return (f"the certificate ({', '.join(failed)}) fails at {_show(env)}, but the expression language finds no "
                f"counterexample there, nor searching up to that position (coordinate sums up to {MAX_SUM}, at most "
                f"{SEARCH_POSITIONS:,} positions){_for(inst)}")
    why = ("and the claim evaluated exactly there and at its options does not confirm the failure (see "
           "Certificate.confirm: an assumption, a level set, a label it cannot evaluate, too many options)" if exact
           else "and Walnut did not prove that every move lowers the coordinate sum and stays in the domain (so a "
           "failure of the certificate shows nothing by itself)")
    return (f"the certificate ({', '.join(failed)}) fails at {_show(env)}, but that position is too large for the "
            f"engine to value, {why}{_for(inst)}")


def _least_failure(plan: Any, inst: dict, env: dict) -> Counterexample | None:
    """The least counterexample at Walnut's least failure of the certificate (by coordinate sum, then
    lexicographic) when the engine cannot value it, for a game whose moves Walnut proved to lower the coordinate
    sum and stay in the domain: the failure confirmed by evaluating the claim exactly there and at every option
    (:meth:`checkers.certificate.Certificate.confirm`). Walnut decided that the certificate holds at every
    position of the domain of smaller sum, so by induction on the sum the claim is right at each option, and so
    wrong at the position itself; its true label is the one its options' labels give. None when it does not
    confirm."""
    claim = claim_of(plan)
    kind = game_kind(plan)
    if kind is None or issubclass(claim.plan_type, LevelSetPlan):
        return None
    try:
        cert = Certificate(plan, inst, kind)
    except (EvalError, SpecError, Untranslatable):
        return None
    pos = tuple(env[c] for c in plan.coords)
    conf = cert.confirm(pos[0] if len(pos) == 1 else pos)
    if conf is None or not conf.every_option:
        return None
    f = conf.failure
    grundy = issubclass(claim.plan_type, GrundyPlan)
    claimed = f.label if grundy else ("P" if f.label == 0 else "N")
    truth = conf.truth if grundy else ("P" if conf.truth == 0 else "N")
    what = "Grundy value" if grundy else "outcome"
    least = (f"the least counterexample, {format_value(f.position)}: Walnut decided that the certificate holds at every "
             f"position of the domain of smaller coordinate sum (and lexicographically before it), and that every "
             f"move lowers the sum and stays in the domain, so the claim is right at each option of "
             f"{format_value(f.position)} and its {what} is {truth}, from its options' (the engine cannot value that far)")
    return Counterexample(dict(env), truth, claimed, detail={
        "certificate": "the claimed " + ("Grundy function is not G" if grundy else "P-set is not the P-set") +
                       f": {conf.words()}", "least": least,
        "found by": "Walnut (the least failure of the certificate), confirmed by evaluating the claim exactly"})


def _engine_search(plan: Any, inst: dict, near: dict) -> Counterexample | None:
    """The least position (by sum, then lexicographic) where the claim actually fails, up to the sum of `near`."""
    claim = claim_of(plan)
    names = list(plan.coords) if not issubclass(claim.plan_type, HoldsPlan) else [n for n in plan.window.names if n not in inst]
    limit = min(MAX_SUM, sum(near[n] for n in names))
    seen = 0
    for total in range(limit + 1):
        for point in _compositions(total, len(names)):
            env = _ordered(plan, {**inst, **dict(zip(names, point))})
            if not plan.domain.contains(env):
                continue
            cx = _confirm(plan, inst, env)
            if cx is not None:
                return cx
            seen += 1
            if seen >= SEARCH_POSITIONS:
                return None
    return None


def _compositions(total: int, k: int):
    """The k-tuples of naturals with this sum, in lexicographic order.

    >>> list(_compositions(2, 2))
    [(0, 2), (1, 1), (2, 0)]
    """
    if k == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, k - 1):
            yield (first,) + rest


def _nonneg_expr(tree: ast.AST, ok: set, inst: dict, claim: Claim) -> bool:
    """Is a lower bound non-negative by its form: naturals and non-negative names under +, *, //, **?"""
    if isinstance(tree, ast.Name) and tree.id in ok:
        return True
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, (ast.Add, ast.Mult, ast.FloorDiv, ast.Pow)):
        return _nonneg_expr(tree.left, ok, inst, claim) and _nonneg_expr(tree.right, ok, inst, claim)
    try:
        v = compile_tree(tree, claim.spec.namespace, set(inst))(dict(inst))
    except (NimjosError, ZeroDivisionError, TypeError, KeyError):
        return False
    return type(v) is int and v >= 0
