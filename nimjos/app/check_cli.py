"""``nimjos check``: check the claims of spec files, once :mod:`nimjos.app.check_input` has read and validated
them all (the arguments are :mod:`nimjos.app.arguments`'): this module imports the methods.

Exit status of ``check``: 0 when every verdict agrees with its claim's ``expect``; 1 when one does not; 3 when
a proof failed its audit (a prover bug); 2 on bad input (:func:`nimjos.app.cli.main` prints one line per fault).

>>> from checkers.run import ClaimResult
>>> from nimjos.verdict import Verdict
>>> _claim_seconds(ClaimResult(None, [Verdict("c", "checked", "exhaustive", "", seconds=0.25)]))
'0.25s'
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from nimjos.lang.errors import SpecError, raise_all
from nimjos.lang.values import format_value
from nimjos.results.store import ResultsStore, claim_structure
from checkers import RunOptions, Sharding
from nimjos.app.claim_pool import default_jobs, load_costs, run_claims
from nimjos.spec.loader import Claim, load_specs
from nimjos.games.engine import default_engine, set_max_positions
from nimjos.lang.syntax import suggest
from checkers import METHODS
from checkers import PROVER_BUG
from nimjos.verdict import VERDICTS, agreement
from nimjos.app.progress import ShardProgress
from nimjos.api.pins import parse_at
from nimjos.report.definitions import definitions_used
from nimjos.report.model import side_names
from nimjos.app.cli import EXIT_BAD_INPUT, EXIT_DISAGREE, EXIT_OK, EXIT_PROVER_BUG
from nimjos.results.key import verdict_key
from checkers import ClaimResult


def _claim_meta(claim: Claim, agrees: bool, why: str = "") -> dict:
    spec = claim.spec
    return {
        "file": str(spec.path), "spec_hash": spec.sha256, "source_id": spec.source.id,
        "source_title": spec.source.title, "document": spec.source.document, "cite": spec.source.cite,
        "claim_id": claim.id, "ref": claim.ref, "text": claim.text, "kind": claim.kind,
        "game": claim.game_text or "", "expect": claim.expect or "", "corrects": claim.corrects or "",
        "relaxes": claim.relaxes or "", "note": claim.note, "reading": claim.reading, "formula": claim.formula_text(),
        "agrees": agrees, "disagreement": "" if agrees else why,
        "for_all": claim.for_all_text or "", "assume": claim.assume_text or "",
        "order": claim.index, "definitions": definitions_used(claim), "claim": _structure(claim),
    }


def _structure(claim: Claim) -> dict:
    """The claim's structure as the results store keeps it (:func:`nimjos.results.store.claim_structure`): its
    kind, its pattern's fields, the names its domain binds in their order, its game's coordinates.

    >>> from nimjos.spec.loader import load_spec
    >>> spec = load_spec(Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> _structure(spec.claims[0])
    {'kind': 'grundy', 'pattern': {}, 'names': ['x'], 'coords': ['x']}
    """
    plan = claim.plan()
    names = plan.domain.names if plan.domain is not None else plan.window.names if plan.window is not None else ()
    return claim_structure(claim.kind, claim.statement, names, plan.coords)


def _human_line(claim: Claim, result: Any, agrees: bool, why: str) -> str:
    v = result.final
    mark = "ok " if agrees else "XX "
    inst = f"{v.instances:,} instance" + ("" if v.instances == 1 else "s")
    if v.assumption_held is not None and v.assumption_held != v.instances:
        inst += f", assumption held in {v.assumption_held:,}"
    lines = [f"  {mark}{v.verdict:<12} {claim.id}  [{v.method}: {v.scope}; {inst}]  {_claim_seconds(result)}"]
    for other in result.verdicts:
        if other is not v:
            lines.append(f"       also {other.verdict} by {other.method}: {other.scope}")
    for note in v.notes:
        lines.append(f"       {note}")
    if v.counterexamples:
        cx = v.counterexamples[0]
        left, right = side_names(claim.kind)
        if cx.detail.get("least") == "not known":   # a confirmed certificate failure (checkers.prove.instance)
            lines.append(f"       certificate failure at {cx.at_text()} (the claim is wrong there or at an option of "
                         f"it; the least counterexample is not known): {right} {_fmt(cx.rhs)}")
        else:
            # a closed statement has one instance, itself: nothing to order, no place to name
            head = (f"smallest counterexample: {cx.at_text()}" if cx.bindings
                    else "false as a closed statement (no variables)")
            lines.append(f"       {head}: {left} {_fmt(cx.lhs)}, {right} {_fmt(cx.rhs)}"
                         + (f"  ({v.failures:,} failing instances)" if v.failures > 1 else ""))
    elif v.undefined:
        cx = v.undefined[0]
        lines.append(f"       ill-defined at {cx.at_text()}: {cx.reason}")
    if (v.counterexamples or v.undefined) and v.evidence.get("rerun"):
        lines.append(f"       re-run: {v.evidence['rerun']}")
    if result.repairs:
        lines.append("       candidate corrections (each rechecked at every counterexample found and on the whole window):")
        for r in result.repairs:
            lines.append(f"         {r.field} = {r.text!r}   [{'; '.join(r.edits)}; {r.verdict}, {r.instances:,} instances]")
    if not agrees:
        lines.append(f"       DISAGREES: {why}")
    return "\n".join(lines)


def _claim_seconds(result: Any) -> str:
    """A claim's seconds as printed: the sum of its methods' (and of the search for corrections), each named.

    >>> from checkers.run import ClaimResult
    >>> from nimjos.verdict import Verdict
    >>> _claim_seconds(ClaimResult(None, [Verdict("c", "checked", "exhaustive", "", seconds=295.0),
    ...                                   Verdict("c", "proved", "prove", "", seconds=0.01)]))
    '295.01s (exhaustive 295.00, prove 0.01)'
    >>> _claim_seconds(ClaimResult(None, [Verdict("c", "checked", "exhaustive", "", seconds=0.5)]))
    '0.50s'
    """
    parts = [(v.method, v.seconds) for v in result.verdicts]
    if result.repair_seconds:
        parts.append(("corrections", result.repair_seconds))
    total = f"{result.seconds:.2f}s"
    if len(parts) < 2:
        return total
    return total + " (" + ", ".join(f"{name} {s:.2f}" for name, s in parts) + ")"


def _fmt(v: Any) -> str:
    return format_value(v)


def _json_entry(claim: Claim, result: Any, agrees: bool) -> dict:
    final = result.final
    entry: dict[str, Any] = {"file": str(claim.spec.path), "source": claim.spec.source.id,
             "document": claim.spec.source.document, "id": claim.id, "ref": claim.ref,
             "kind": claim.kind, "text": claim.text, "expect": claim.expect,
             "corrects": claim.corrects, "relaxes": claim.relaxes, "reading": claim.reading or None,
             "agrees": agrees}
    entry.update(final.to_json())
    entry["seconds"] = round(result.seconds, 4)  # the claim's: every method's and the corrections'; each in methods
    entry["methods"] = [{**v.to_json(), "counterexamples": v.to_json()["counterexamples"][:3]}
                        for v in result.verdicts]
    if final.evidence.get("rerun"):
        entry["rerun"] = final.evidence["rerun"]
    entry["repairs"] = [r.to_json() for r in result.repairs]
    return entry


def _open_store(args: argparse.Namespace) -> Any:
    if getattr(args, "no_store", False):
        return None
    return ResultsStore(args.store)


def cmd_check(args: argparse.Namespace) -> int:
    """``nimjos check``: the limit of ``--max-positions`` holds for this run only (it is the process's engine's)."""
    previous = default_engine().max_positions
    if args.max_positions:
        set_max_positions(args.max_positions)
    try:
        return _check(args)
    finally:
        set_max_positions(previous)


def _check(args: argparse.Namespace) -> int:
    specs = getattr(args, "specs", None)   # read and validated by nimjos.app.check_input, before the methods loaded
    if specs is None:
        specs, faults = load_specs(args.paths or ["specs"])
        raise_all(faults)
    pins = parse_at(args.at) if args.at else None
    selected = []
    for spec in specs:
        for claim in spec.claims:
            if args.claim and claim.id not in args.claim:
                continue
            selected.append(claim)
    if args.claim:
        found = {c.id for c in selected}
        missing = [c for c in args.claim if c not in found]
        if missing:
            ids = [c.id for s in specs for c in s.claims]
            raise SpecError(f"no claim with id {missing[0]!r}", hint=suggest(missing[0], ids))
    methods_sel = tuple(m.strip() for m in args.method.split(",")) if args.method else None
    if methods_sel:
        for m in methods_sel:
            if m not in METHODS:
                raise SpecError(f"--method: unknown or unavailable method {m!r} (available: {', '.join(METHODS)})",
                                hint=suggest(m, list(METHODS)))
    progress = None
    if not args.json and sys.stdout.isatty() and (args.workers > 1 or args.executor == "dask"):
        progress = ShardProgress()
    sharding = Sharding(workers=args.workers, shards=args.shards, executor=args.executor, scheduler=args.scheduler,
                        resume=args.resume, progress=progress.update if progress else None)
    opts = RunOptions(profile=args.profile, max_counterexamples=args.max_counterexamples, pins=pins,
                      timeout=args.timeout, methods=methods_sel, repair=not args.no_repair,
                      store=None if args.no_store else args.store, sharding=sharding)
    store = _open_store(args)
    run_id = store.begin_run(sys.argv[1:], args.profile) if store else None
    done: set = set()
    if store and args.resume:
        done = store.completed_claims(None)
    status = EXIT_OK
    errors: list[str] = []
    current_file = None
    t0 = time.perf_counter()
    todo = [c for c in selected if (str(c.spec.path), c.id) not in done]
    keys = [verdict_key(c, opts, args.max_positions) for c in todo] if store else []
    kept = store.reusable(keys) if store and not args.fresh else {}
    reused = {i: kept[k] for i, k in enumerate(keys) if k in kept}   # index -> (run, verdicts, repairs, seconds)
    fresh = [i for i in range(len(todo)) if i not in reused]
    jobs = args.jobs if args.jobs > 0 else default_jobs(len(fresh))
    if pins or args.workers > 1 or args.executor == "dask":
        jobs = 1  # a pinned instance is one claim; sharded claims use the cores (or the cluster) themselves
    entries: dict[int, Any] = {}   # index -> JSON entry or printed line, put back in claim order
    finals: dict[str, int] = {}    # final verdict -> claims, for the summary line
    printed = 0
    costs = load_costs(sorted({Path(todo[i].spec.path).parent for i in fresh}))
    results = _reused_first(todo, reused, fresh, run_claims([todo[i] for i in fresh], opts, jobs, args.max_positions,
                                                            costs))
    try:
        for i, claim, result in results:
            if isinstance(result, SpecError):
                errors.append(str(result))
                print(f"nimjos: {result}", file=sys.stderr, flush=True)
                entries[i] = None
            else:
                final = result.final
                finals[final.verdict] = finals.get(final.verdict, 0) + 1
                agrees, why = agreement(final, claim.expect, claim.expect_counterexample, claim.coords)
                if not agrees:
                    status = max(status, EXIT_DISAGREE)
                for bug in (v.evidence[PROVER_BUG] for v in result.verdicts if PROVER_BUG in v.evidence):
                    status = max(status, EXIT_PROVER_BUG)
                    print(f"nimjos: {claim.spec.path}: claim {claim.id!r}: {bug}", file=sys.stderr, flush=True)
                if store:
                    meta = _claim_meta(claim, agrees, why)
                    for v in result.verdicts:
                        store.record(run_id, meta, v, reused_from=reused[i][0] if i in reused else None)
                    if i not in reused and result.complete:   # kept for reuse once every verdict is recorded
                        store.remember(run_id, keys[i], str(claim.spec.path), claim.id,
                                       (result.verdicts, result.repairs, result.repair_seconds))
                entries[i] = _json_entry(claim, result, agrees) if args.json else _human_line(claim, result, agrees, why)
                entries[i] = _mark_reused(entries[i], reused[i][0] if i in reused else None)
            while not args.json and printed in entries:
                claim = todo[printed]
                if claim.spec.path != current_file:
                    current_file = claim.spec.path
                    print(f"{current_file}  ({claim.spec.source.title or claim.spec.source.id})")
                if entries[printed] is not None:
                    print(entries[printed], flush=True)
                printed += 1
    except KeyboardInterrupt:
        results.close()
        if store:
            store.finish_run(run_id, "interrupted")
        print("interrupted: finished claims are in the results store; `nimjos check --resume` continues",
              file=sys.stderr)
        return 130
    out_claims = [entries[i] for i in sorted(entries) if entries[i] is not None] if args.json else []
    if progress:
        progress.close()
    if store:
        store.finish_run(run_id, "errors" if errors else "ok")
    if args.json:
        print(json.dumps({"claims": out_claims, "errors": errors, "reused": len(reused),
                          "seconds": round(time.perf_counter() - t0, 3)}, indent=1))
    else:
        n = len(out_claims) if args.json else len(selected)
        counts = ", ".join(f"{finals[w]} {w}" for w in VERDICTS if finals.get(w))
        print(f"{n} claim{'s' if n != 1 else ''} in {time.perf_counter() - t0:.1f}s" + (f": {counts}" if counts else "")
              + (f"; {len(reused)} reused" if reused else "") + f"; exit {EXIT_BAD_INPUT if errors else status}")
    if errors:
        return EXIT_BAD_INPUT
    return status


def _reused_first(todo: list, reused: dict[int, tuple], fresh: list[int], results: Any) -> Any:
    """(index in `todo`, claim, result) for each claim: first those whose kept result is reused (`reused`: index
    -> the run that checked it, verdicts, repairs, their seconds), then those `results` checks (the claims of
    `todo` at the indices `fresh`, in the order they finish). Closing it closes `results`."""
    try:
        for i in sorted(reused):
            _, verdicts, repairs, repair_seconds = reused[i]
            yield i, todo[i], ClaimResult(todo[i], verdicts, repairs, repair_seconds)
        for j, claim, result in results:
            yield fresh[j], claim, result
    finally:
        results.close()


def _mark_reused(entry: Any, run: int | None) -> Any:
    r"""A claim's printed line or JSON entry, saying when its result is reused from an earlier run (`run`).

    >>> _mark_reused("  ok checked  c  [...]  0.50s\n       a note", 3)
    '  ok checked  c  [...]  0.50s  reused from run 3\n       a note'
    >>> _mark_reused({"id": "c"}, None), _mark_reused({"id": "c"}, 3)
    ({'id': 'c', 'reused': False}, {'id': 'c', 'reused': True, 'reused_from': 3})
    """
    if isinstance(entry, dict):
        return {**entry, "reused": run is not None, **({"reused_from": run} if run is not None else {})}
    if run is None:
        return entry
    first, newline, rest = entry.partition("\n")
    return f"{first}  reused from run {run}{newline}{rest}"

