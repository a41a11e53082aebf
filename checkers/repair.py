"""Repair suggestions for a refuted claim: small edits of the printed statement, each rechecked at every
counterexample any method found (inside the window or beyond it) and on the whole window; only the candidates
that hold at all of them are returned, fewest edits first.

Edits tried: floor <-> ceil; < <-> <= (and > <-> >=); an integer constant +-1 (an index range starting at 0
instead of 1); a function argument shifted by +-1 (n numbers vs n + 1); a summand dropped; +-1 added.

>>> from nimjos.lang.syntax import parse
>>> sorted(ast.unparse(t) for _, t in single_edits(parse("floor(n / 2) < m")))[:4]
['ceil(n / 2) < m', 'floor(n / 1) < m', 'floor(n / 2 + 1) < m', 'floor(n / 2 - 1) < m']
"""
from __future__ import annotations

import ast
import copy
import time
from dataclasses import dataclass
from typing import Any, Iterator

from checkers.window.exhaustive import check_exhaustive
from nimjos.spec.loader import Claim, editable_fields, revise_claim
from nimjos.lang.syntax import copy_tree

#: functions whose arguments are not shifted (the shift of a game or a set argument is meaningless)
_NO_SHIFT = {"G", "options", "iterate", "mex", "xor", "min", "max", "set", "tuple", "sorted", "len", "sum",
             "all", "any", "range", "subtraction", "gcn", "functions", "nondecreasing", "subsets"}
_CMP_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}


@dataclass
class Repair:
    """A candidate correction that held on the whole window and at the `rechecked_at` distinct counterexamples
    of the printed statement that were given (those found by every method)."""

    field: str
    text: str
    edits: list[str]
    verdict: str
    scope: str
    instances: int
    rechecked_at: int = 0

    def to_json(self) -> dict:
        """The repair as the results store keeps it.

        >>> Repair("holds", "x >= 0", ["< -> <="], "checked", "0 <= x <= 9", 10, 2).to_json()["rechecked_at"]
        2
        """
        return {"field": self.field, "text": self.text, "edits": self.edits, "verdict": self.verdict,
                "scope": self.scope, "instances": self.instances, "rechecked_at": self.rechecked_at}


def distinct_counterexamples(counterexamples: list) -> list:
    """The counterexamples with each instance (its bindings) once, in the order given.

    >>> from nimjos.verdict import Counterexample
    >>> found = [Counterexample({"h": (256,)}, "N", "P"), Counterexample({"h": (512,)}, "N", "P"),
    ...          Counterexample({"h": (256,)}, "N", "P")]
    >>> [cx.bindings["h"] for cx in distinct_counterexamples(found)]
    [(256,), (512,)]
    """
    seen: set[str] = set()
    out = []
    for cx in counterexamples:
        key = repr(sorted(cx.bindings.items()))
        if key not in seen:
            seen.add(key)
            out.append(cx)
    return out


def _paths(tree: ast.AST) -> Iterator[tuple[ast.AST, list]]:
    """Every node with the path (list of (field, index)) from the root."""
    stack: list[tuple[ast.AST, list]] = [(tree, [])]
    while stack:
        node, path = stack.pop()
        yield node, path
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, ast.AST):
                        stack.append((v, path + [(name, i)]))
            elif isinstance(value, ast.AST):
                stack.append((value, path + [(name, None)]))


def _at(tree: ast.AST, path: list) -> ast.AST:
    node = tree
    for name, i in path:
        node = getattr(node, name) if i is None else getattr(node, name)[i]
    return node


def _replace(tree: ast.AST, path: list, new: ast.AST) -> ast.AST:
    root = copy.deepcopy(tree)
    if not path:
        return new
    parent = _at(root, path[:-1])
    name, i = path[-1]
    if i is None:
        setattr(parent, name, new)
    else:
        getattr(parent, name)[i] = new
    return root


def _plus(node: ast.expr, k: int) -> ast.expr:
    return ast.BinOp(left=copy.deepcopy(node), op=ast.Add() if k > 0 else ast.Sub(), right=ast.Constant(abs(k)))


def _offset(node: ast.expr) -> tuple[ast.expr, int]:
    """Split ``e + c`` / ``e - c`` (c an integer literal, nested) into (e, total offset)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and \
            isinstance(node.right, ast.Constant) and type(node.right.value) is int:
        inner, k = _offset(node.left)
        return inner, k + (node.right.value if isinstance(node.op, ast.Add) else -node.right.value)
    return node, 0


class _Fold(ast.NodeTransformer):
    """Fold integer offsets so that equivalent edits print alike: ``n + 1 - 1`` -> ``n``, ``n + 0`` -> ``n``."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        inner, k = _offset(node)
        if inner is node:
            return node
        if k == 0:
            return inner
        return ast.BinOp(left=inner, op=ast.Add() if k > 0 else ast.Sub(), right=ast.Constant(abs(k)))


def fold(tree: ast.AST) -> ast.AST:
    """Fold integer offsets (a copy).

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(fold(parse("ilog2(n + 1 - 1) + 2 - 3")))
    'ilog2(n) - 1'
    """
    return _Fold().visit(copy.deepcopy(tree))


def single_edits(tree: ast.expr) -> list[tuple[str, ast.AST]]:
    """Every single small edit of an expression tree, as (description, new tree). An edit of a
    subexpression that occurs more than once is also made at every occurrence at once (a misprint
    repeated in one formula is one misprint).

    >>> from nimjos.lang.syntax import parse
    >>> [d for d, t in single_edits(parse("W(x, n - 2) == V(n - 2)")) if "every" in d]
    ['summand 2 dropped from n - 2 (at every occurrence)', 'constant 2 -> 3 (at every occurrence)', 'constant 2 -> 1 (at every occurrence)']
    """
    edits: list[tuple[str, list, ast.AST]] = []   # (description, path, replacement)
    for node, path in _paths(tree):
        text = ast.unparse(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in ("floor", "ceil"):
                new = copy.deepcopy(node)
                new.func = ast.Name("ceil" if name == "floor" else "floor", ast.Load())
                edits.append((f"{name} -> {new.func.id} in {text}", path, new))
            if name not in _NO_SHIFT:
                for i, arg in enumerate(node.args):
                    if isinstance(arg, (ast.Lambda, ast.Tuple, ast.Set)):
                        continue
                    for k in (1, -1):
                        new = copy.deepcopy(node)
                        new.args[i] = _plus(arg, k)
                        edits.append((f"argument {i + 1} of {name} shifted by {k:+d}", path, new))
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                swap = _CMP_SWAP.get(type(op))
                if swap:
                    swapped = copy.deepcopy(node)
                    swapped.ops[i] = swap()
                    edits.append((f"{ast.unparse(node)} -> {ast.unparse(swapped)}", path, swapped))
        if isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) <= 64:
            for k in (1, -1):
                edits.append((f"constant {node.value} -> {node.value + k}", path, ast.Constant(node.value + k)))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            edits.append((f"summand {ast.unparse(node.right)} dropped from {text}", path, node.left))
            if isinstance(node.op, ast.Add):
                edits.append((f"summand {ast.unparse(node.left)} dropped from {text}", path, node.right))
    out = [(desc, _replace(tree, path, new)) for desc, path, new in edits]
    if not isinstance(tree, (ast.Compare, ast.BoolOp, ast.Tuple)):
        for k in (1, -1):
            out.append((f"{k:+d} added to the whole expression", _plus(tree, k)))
    out += _everywhere(tree, edits)
    seen: set[str] = {ast.unparse(fold(tree))}
    unique = []
    for desc, t in out:
        t = fold(t)
        u = ast.unparse(t)
        if u not in seen:
            seen.add(u)
            unique.append((desc, t))
    return unique


def _everywhere(tree: ast.AST, edits: list[tuple[str, list, ast.AST]]) -> list[tuple[str, ast.AST]]:
    """Each edit made at every occurrence of the subexpression it edits, where that occurs more than once."""
    where: dict[str, list] = {}
    for node, path in _paths(tree):
        if path:
            where.setdefault(ast.dump(node), []).append(path)
    out = []
    done: set[tuple[str, str]] = set()
    for desc, path, new in edits:
        if not path:
            continue
        key = ast.dump(_at(tree, path))
        paths = where.get(key, [])
        if len(paths) < 2 or (key, ast.dump(new)) in done:
            continue
        done.add((key, ast.dump(new)))
        # replace the deepest occurrences first, so that no path is invalidated by a replacement above it
        t = tree
        for p in sorted(paths, key=len, reverse=True):
            if any(len(q) < len(p) and p[:len(q)] == q for q in paths):
                continue   # inside another occurrence, which is replaced whole
            t = _replace(t, p, copy.deepcopy(new))
        out.append((f"{desc} (at every occurrence)", t))
    return out


#: window instances the candidates of one claim may be checked at in all (a count, so that the same candidates are
#: found on a quiet and on a loaded machine)
REPAIR_INSTANCES = 5_000_000


def find_repairs(claim: Claim, profile: str = "default", budget_seconds: float = 120.0,
                 max_candidates: int = 400, keep: int = 5, counterexamples: list | None = None,
                 max_instances: int = REPAIR_INSTANCES) -> list[Repair]:
    """Candidate corrections of a refuted claim that hold at every counterexample given and on its whole window,
    fewest edits first.

    `counterexamples` are the printed statement's, found by any method (smallest first): points where the
    printed statement fails, inside the window or beyond it (a sampled refutation lies where the window held),
    where most candidates fail too. Each candidate is checked at every one of them (each instance once), then on
    its whole window. The search ends by counts: `max_candidates` edits tried, `keep` found, or `max_instances`
    instances checked; `budget_seconds` is only a wall-clock safety net.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> find_repairs(spec.claims[0], max_candidates=0)
    []
    """
    deadline = time.monotonic() + budget_seconds
    points = distinct_counterexamples(counterexamples or [])
    found: list[Repair] = []
    tried = spent = 0
    trees = claim.plan(profile).field_trees()
    for label, _ in editable_fields(claim):
        for desc, new_tree in single_edits(copy_tree(trees[label])):
            if (tried >= max_candidates or len(found) >= keep or spent >= max_instances
                    or time.monotonic() > deadline):
                return found
            tried += 1
            new_text = ast.unparse(new_tree)
            try:
                # compiled for this run's profile only (a candidate is checked in no other)
                candidate = revise_claim(claim, label, new_text, f"{claim.id}~repair{tried}", profiles=(profile,))
                failed_at = _fails_at(candidate, profile, points)
                if failed_at:
                    spent += failed_at
                    continue
                spent += len(points)
                v = check_exhaustive(candidate, profile, max_counterexamples=1, first_only=True)
            except Exception:  # noqa: BLE001 - a candidate that cannot be checked is simply not proposed
                continue
            spent += v.instances or 0
            if v.verdict == "checked":
                found.append(Repair(label, new_text, [desc], v.verdict, v.scope, v.instances, len(points)))
    return found


def _fails_at(candidate: Any, profile: str, counterexamples: list) -> int:
    """How many of the given points were checked until the candidate was refuted or undefined at one (each point
    checked alone, in order); 0 when it held at every one."""
    for checked, cx in enumerate(counterexamples, 1):
        v = check_exhaustive(candidate, profile, max_counterexamples=1, pins=dict(cx.bindings), first_only=True)
        if v.verdict in ("refuted", "ill-defined"):
            return checked
    return 0
