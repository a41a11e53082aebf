"""Mutation testing of the checkers: mutate claims that hold and count how many mutants the checkers refute.

Each mutant changes one thing in one claim: an operator (+ -, * //, < <=, == !=, and or, | &, ...), an integer
constant by +-1, a bound by +-1, two arguments of a call swapped or one variable replaced by another,
floor <-> ceil, min <-> max, all <-> any, or one entry of a printed table by +-1. The domain (for_all) and
the window are never mutated. A mutant is *killed* when the exhaustive checker, in the default profile, does not find it
true (refuted, ill-defined or vacuous); a spec error or a timeout makes it *stillborn* (not counted).
A survivor is checked again on a window twice as wide, and its values are compared with the original's:

* refuted on the wider window: "window too small" (it counts against the score: widen the window);
* the same values as the original at every instance of the window: "equivalent on the window";
* true on the wider window although its values differ: "a different true statement" (for example, a weaker
  assumption); neither of the last two can be refuted, so they leave the score's denominator.

    python scripts/mutate.py                       # every claim of specs/ and the contract that holds
    python scripts/mutate.py specs/000_maxnim_josephus.toml --per-claim 8 --timeout 20

>>> [text for _, text in mutations("floor(x / 2) + 1")][:4]
['floor(x / 2) - 1', 'ceil(x / 2) + 1', 'floor(x / 2) + 2', 'floor(x / 2) + 0']
"""
from __future__ import annotations

import argparse
import ast
import copy
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from nimjos.lang.errors import EvalError, NimjosError  # noqa: E402
from nimjos.spec.loader import Claim  # noqa: E402
from nimjos.spec.plan import LevelSetPlan  # noqa: E402

CONTRACT = ROOT / "tests" / "data" / "contract.toml"
HOLDING = ("checked", "sampled", "proved")

_OPS = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.FloorDiv, ast.Add), ast.FloorDiv: (ast.Mult, ast.Div),
    ast.Div: (ast.FloorDiv,), ast.Mod: (ast.FloorDiv,), ast.Pow: (ast.Mult,), ast.BitOr: (ast.BitAnd,),
    ast.BitAnd: (ast.BitOr,), ast.LShift: (ast.RShift,), ast.RShift: (ast.LShift,),
    ast.Lt: (ast.LtE,), ast.LtE: (ast.Lt,), ast.Gt: (ast.GtE,), ast.GtE: (ast.Gt,), ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,), ast.In: (ast.NotIn,), ast.NotIn: (ast.In,), ast.And: (ast.Or,), ast.Or: (ast.And,),
}
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%", ast.Pow: "**",
           ast.BitOr: "|", ast.BitAnd: "&", ast.LShift: "<<", ast.RShift: ">>", ast.Lt: "<", ast.LtE: "<=",
           ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in",
           ast.And: "and", ast.Or: "or"}
_RENAMES = {"floor": "ceil", "ceil": "floor", "min": "max", "max": "min", "all": "any", "any": "all"}
_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


# ----------------------------------------------------------------------------- mutations of an expression

def _edits(node: ast.AST, variables: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    """(description, edit) pairs for one node; an edit mutates a copy of the node in place."""
    def set_op(attr: str, index: int | None, new: type) -> Any:
        def edit(n: ast.AST) -> None:
            if index is None:
                setattr(n, attr, new())
            else:
                getattr(n, attr)[index] = new()
        return edit

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _RENAMES:
        new = _RENAMES[node.func.id]
        yield f"'{node.func.id}' -> '{new}'", lambda n, new=new: setattr(n.func, "id", new)
    if isinstance(node, (ast.BinOp, ast.BoolOp)):
        for new in _OPS.get(type(node.op), ()):
            yield f"'{_SYMBOL[type(node.op)]}' -> '{_SYMBOL[new]}'", set_op("op", None, new)
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for new in _OPS.get(type(op), ()):
                yield f"'{_SYMBOL[type(op)]}' -> '{_SYMBOL[new]}'", set_op("ops", i, new)
        if isinstance(node.ops[-1], _ORDER) and not isinstance(node.comparators[-1], ast.Constant):
            for delta in (1, -1):
                def bound(n: ast.AST, delta: int = delta) -> None:
                    op = ast.Add() if delta > 0 else ast.Sub()
                    n.comparators[-1] = ast.BinOp(n.comparators[-1], op, ast.Constant(1))
                yield f"bound {ast.unparse(node.comparators[-1])} {'+' if delta > 0 else '-'} 1", bound
    if isinstance(node, ast.Constant) and type(node.value) is int:
        for delta in (1, -1):
            yield f"{node.value} -> {node.value + delta}", lambda n, v=node.value + delta: setattr(n, "value", v)
    if isinstance(node, ast.Call) and len(node.args) >= 2:
        for i in range(len(node.args) - 1):
            a, b = node.args[i], node.args[i + 1]
            if ast.dump(a) != ast.dump(b):
                def swap(n: ast.AST, i: int = i) -> None:
                    n.args[i], n.args[i + 1] = n.args[i + 1], n.args[i]
                yield f"swap {ast.unparse(a)}, {ast.unparse(b)}", swap
    if isinstance(node, ast.Name) and node.id in variables:
        other = next((v for v in variables if v != node.id), None)
        if other is not None:
            yield f"variable {node.id} -> {other}", lambda n, o=other: setattr(n, "id", o)


def mutations(text: str, variables: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Every single-site mutant of expression `text` as (description, mutated text), in the order of the
    expression's nodes; mutants that read the same as the original are dropped.

    >>> [text for _, text in mutations("x < y", ("x", "y"))]
    ['x <= y', 'x < y + 1', 'x < y - 1', 'y < y', 'x < x']
    """
    tree = ast.parse(text, mode="eval")
    nodes = list(ast.walk(tree))
    out: list[tuple[str, str]] = []
    seen = {ast.unparse(tree)}
    for index, node in enumerate(nodes):
        for description, edit in _edits(node, variables):
            mutant = copy.deepcopy(tree)
            edit(list(ast.walk(mutant))[index])
            new = ast.unparse(mutant)
            if new not in seen:
                seen.add(new)
                out.append((f"{description} in {ast.unparse(node)}"[:160], new))
    return out


# ----------------------------------------------------------------------------- mutants of a claim

@dataclass
class Mutant:
    claim: Any           # the mutated claim (a copy of the original with one field changed)
    original: Any
    field: str
    description: str
    verdict: str = ""
    reason: str = ""
    seconds: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.original.spec.path.name}::{self.original.id} {self.field}: {self.description}"


def _with(claim: Any, raw: dict) -> Any:
    """A copy of `claim` whose table is `raw`, compiled on first use."""
    return Claim.from_table(claim.spec, claim.index, claim.id, claim.kind, raw, claim.line, claim.field_lines)


def claim_mutants(claim: Any, per_claim: int | None = None) -> list[Mutant]:
    """The mutants of one claim; with `per_claim`, an evenly spread selection of that many.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.toml"
    >>> _ = p.write_text('[source]\\nid = "m"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 5"\\nholds = "n + 1 > n"\\n')
    >>> [m.claim.raw["holds"] for m in claim_mutants(load_spec(p).claims[0])][:3]
    ['n + 1 >= n', 'n + 1 > n + 1', 'n + 1 > n - 1']
    """
    raw = claim.raw
    plan = claim.plan()
    variables = tuple(plan.window.names) if plan.window is not None else ()
    variables += plan.level_names if isinstance(plan, LevelSetPlan) else ()
    out: list[Mutant] = []

    def text_field(name: str, text: str, put: Any) -> None:
        for description, new in mutations(text, variables):
            out.append(Mutant(_with(claim, put(new)), claim, name, description))

    kind = claim.kind
    value = raw.get(kind)
    if isinstance(value, str):
        text_field(kind, value, lambda new: {**raw, kind: new})
    elif kind in ("p_positions", "level_set") and isinstance(value, list):
        for i, fam in enumerate(value):
            for part in ("point", "where"):
                if isinstance(fam.get(part), str):
                    def put(new: str, i: int = i, part: str = part) -> dict:
                        families = [dict(f) for f in value]
                        families[i][part] = new
                        return {**raw, kind: families}
                    text_field(f"{kind}[{i}].{part}", fam[part], put)
    elif kind == "values" and isinstance(value, dict):
        if isinstance(value.get("of"), str):
            text_field("values.of", value["of"], lambda new: {**raw, "values": {**value, "of": new}})
        for key in ("grundy", "equal"):
            table = value.get(key)
            if isinstance(table, list) and table and all(type(v) is int for v in table):
                for j in sorted({0, len(table) // 2, len(table) - 1}):
                    for delta in (1, -1):
                        new_table = list(table)
                        new_table[j] += delta
                        out.append(Mutant(_with(claim, {**raw, "values": {**value, key: new_table}}), claim,
                                          f"values.{key}", f"entry {j} {table[j]} -> {table[j] + delta}"))
    if isinstance(raw.get("assume"), str):
        text_field("assume", raw["assume"], lambda new: {**raw, "assume": new})
    if per_claim is not None and len(out) > per_claim:
        step = len(out) / per_claim
        out = [out[int(i * step)] for i in range(per_claim)]
    return out


# ----------------------------------------------------------------------------- running

class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def check(claim: Any, timeout: float) -> tuple[str, str]:
    """(verdict, detail) of an exhaustive check in the default profile, or ('stillborn', why); `timeout` is
    in seconds of CPU (a loaded machine does not make mutants stillborn).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.toml"
    >>> _ = p.write_text('[source]\\nid = "m"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 5"\\nholds = "n < 5"\\n')
    >>> check(load_spec(p).claims[0], 10)
    ('refuted', 'at 5')
    """
    from checkers.window.exhaustive import check_exhaustive
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, timeout)
    try:
        v = check_exhaustive(claim, "default", max_counterexamples=1)
    except _Timeout:
        return "stillborn", f"over {timeout:g} s of CPU"
    except NimjosError as exc:
        return "stillborn", str(exc).split(": ", 1)[-1][:160]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    first = (v.counterexamples or v.undefined or [None])[0]
    return v.verdict, (f"at {first.position_text()}" if first is not None else v.scope)


def widened(for_all: str) -> str:
    """The window with every integer upper bound doubled.

    >>> widened("2 <= k <= 6 and 1 <= n <= 60 and 1 <= m <= n")
    '2 <= k <= 12 and 1 <= n <= 120 and (1 <= m <= n)'
    """
    from nimjos.lang.binders import conjuncts
    tree = ast.parse(for_all, mode="eval")
    for part in conjuncts(tree.body):
        if isinstance(part, ast.Compare) and all(isinstance(op, (ast.Lt, ast.LtE)) for op in part.ops):
            last = part.comparators[-1]
            if isinstance(last, ast.Constant) and type(last.value) is int and last.value > 1:
                last.value *= 2
    return ast.unparse(tree)


def same_values(original: Any, mutant: Any, field_name: str, limit: int = 50_000) -> bool | None:
    """Does the mutated expression take the original's values at every instance of the window (where the
    assumption holds)? None when that cannot be compared this way.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.toml"
    >>> _ = p.write_text('[source]\\nid = "m"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 5"\\nholds = "floor(n) >= 0"\\n')
    >>> c = load_spec(p).claims[0]
    >>> same_values(c, _with(c, {**c.raw, "holds": "ceil(n) >= 0"}), "holds")
    True
    """
    if field_name not in (original.kind, "assume") or original.kind == "level_set" \
            or not isinstance(original.raw.get(field_name), str):
        return None
    a, b = original.plan(), mutant.plan()
    if a.window is None:
        return None
    fa, fb = (a.assume, b.assume) if field_name == "assume" else (a.formula, b.formula)

    def value(fn: Any, env: dict) -> Any:
        try:
            return fn(env)
        except EvalError:
            return "undefined"
    for count, env in enumerate(a.window.bindings({})):
        if count >= limit:
            return None
        if field_name != "assume" and a.assume is not None and value(a.assume, env) is not True:
            continue
        if value(fa, env) != value(fb, env):
            return False
    return True


def run(mutant: Mutant, timeout: float) -> Mutant:
    """Check a mutant; classify a survivor (see the module docstring).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.toml"
    >>> _ = p.write_text('[source]\\nid = "m"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n"\\nwindow = "n <= 5"\\nholds = "n <= 5"\\n')
    >>> [(m.description, run(m, 10).verdict) for m in claim_mutants(load_spec(p).claims[0])][:2]
    [("'<=' -> '<' in n <= 5", 'refuted'), ('5 -> 6 in 5', 'survived')]
    """
    start = time.perf_counter()
    mutant.verdict, detail = check(mutant.claim, timeout)
    if mutant.verdict == "stillborn":
        mutant.reason = detail
    elif mutant.verdict not in HOLDING:
        mutant.reason = f"{mutant.verdict} {detail}"
    else:
        raw = dict(mutant.claim.raw)
        raw.pop("deep", None)
        # only the window widens: a claim whose domain is finite (no window) was checked on all of it
        if isinstance(raw.get("window"), str):
            raw["window"] = widened(raw["window"])
        wide_verdict, wide_detail = check(_with(mutant.claim, raw), timeout) if "window" in raw else ("", "")
        if wide_verdict in ("refuted", "ill-defined"):
            mutant.verdict = "survived"
            mutant.reason = f"window too small: {wide_verdict} {wide_detail} on {raw['window']!r}"
        elif same_values(mutant.original, mutant.claim, mutant.field):
            mutant.verdict = "equivalent"
            mutant.reason = "equivalent on the window (the same value at every instance)"
        elif "window" not in raw:
            mutant.verdict = "equivalent"
            mutant.reason = "a different true statement (true on the whole finite domain)"
        elif wide_verdict in HOLDING:
            mutant.verdict = "equivalent"
            mutant.reason = f"a different true statement (also true on {raw['window']!r})"
        else:
            mutant.verdict = "survived"
            mutant.reason = f"not refuted; wider window: {wide_verdict or 'none'} {wide_detail}".strip()
    mutant.seconds = time.perf_counter() - start
    return mutant


def holding_claims(paths: list[Path], timeout: float) -> Iterator[Any]:
    """The claims of the spec files that hold in the default profile (checked, not just expected).

    >>> [c.id for c in holding_claims([CONTRACT], 60)][:2]
    ['delete-nim-grundy', 'wythoff-p-positions']
    """
    from nimjos.spec.loader import load_spec
    for path in paths:
        try:
            spec = load_spec(path)
        except NimjosError as exc:
            print(f"skipping {path}: {exc}", file=sys.stderr)
            continue
        for claim in spec.claims:
            if claim.expect not in (None, "holds", "checked", "sampled", "proved"):
                continue
            if check(claim, timeout)[0] in HOLDING:
                yield claim


@dataclass
class Score:
    killed: int = 0
    survived: list[Mutant] = field(default_factory=list)
    equivalent: list[Mutant] = field(default_factory=list)
    stillborn: list[Mutant] = field(default_factory=list)

    def add(self, m: Mutant) -> None:
        if m.verdict == "survived":
            self.survived.append(m)
        elif m.verdict == "equivalent":
            self.equivalent.append(m)
        elif m.verdict == "stillborn":
            self.stillborn.append(m)
        else:
            self.killed += 1

    @property
    def ratio(self) -> float:
        """Killed over non-equivalent mutants (1.0 when there are none).

        >>> s = Score(killed=19, survived=[None]); s.ratio
        0.95
        """
        counted = self.killed + len(self.survived)
        return self.killed / counted if counted else 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="spec files (default: specs/*.toml and the contract)")
    parser.add_argument("--per-claim", type=int, default=None, help="at most this many mutants per claim")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds of CPU per check")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.paths] or sorted((ROOT / "specs").glob("*.toml")) + \
        [CONTRACT]
    score = Score()
    start = time.perf_counter()
    claims = 0
    for claim in holding_claims(paths, args.timeout):
        claims += 1
        for m in claim_mutants(claim, args.per_claim):
            score.add(run(m, args.timeout))
            if m.verdict in ("survived", "equivalent", "stillborn"):
                print(f"  {m.verdict}: {m.label}\n      {m.reason}", flush=True)
        print(f"{claim.spec.path.name}::{claim.id}: {score.killed} killed, {len(score.survived)} survived, "
              f"{len(score.equivalent)} equivalent, {len(score.stillborn)} stillborn so far", flush=True)
    counted = score.killed + len(score.survived)
    print(f"\n{claims} claims that hold; {counted + len(score.equivalent) + len(score.stillborn)} mutants in "
          f"{time.perf_counter() - start:.0f} s")
    print(f"mutation score: {score.killed} of {counted} non-equivalent mutants refuted ({100 * score.ratio:.1f}%); "
          f"{len(score.equivalent)} equivalent, {len(score.stillborn)} stillborn (spec error or timeout)")
    for title, items in (("survivors", score.survived), ("equivalent", score.equivalent),
                         ("stillborn", score.stillborn)):
        if items:
            print(f"\n{title}:")
            for m in items:
                print(f"  {m.label}\n      {m.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
