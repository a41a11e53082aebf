"""The one inliner of ``[define]`` definitions, on syntax trees: a definition's body with its parameters renamed
or replaced by its arguments, capture-avoiding.

After inlining, no name the body binds (a comprehension's target, a lambda's parameter) and no parameter is one of
the names the caller says are taken (the names in scope in its tree, its environment) or a name of the arguments:
each that is gets a fresh name, which occurs in none of them nor in the body (the others keep theirs, so that
messages still name them as the spec writes them), so that

* a free name of an argument is never captured by a binder of the body (``f(y)`` with ``f(x) = any(x == y for y
  in range(3))`` keeps the caller's ``y``), and
* a parameter shadowed inside the body (``f(x) = sum(x for x in range(3))``) is not replaced there.

Two ways to use it, one renaming:

* :func:`substitute_call` -- the body with the argument trees in place of the parameters (the Walnut translation,
  which works on trees). An argument whose parameter the body uses only on some paths, or not at all, is then not
  evaluated where the scalar language evaluates it (the language evaluates every argument before the call): a
  caller that must see an argument's failures (``v2(0)``) checks those arguments itself
  (:func:`unevaluated_arguments` lists them).
* :func:`rename_definition` -- the body and its parameters renamed, for a backend that binds the arguments'
  *values* to the renamed parameters (Z3, the vectorised evaluator), evaluating each argument once, as the
  language does.

>>> from nimjos.lang.syntax import parse
>>> body = parse("any(x == y for y in range(3))")
>>> ast.unparse(substitute_call(("x",), body, [parse("y + 1")]))
'any((y + 1 == y_1 for y_1 in range(3)))'
>>> ast.unparse(substitute_call(("x",), body, [parse("z + 1")]))
'any((z + 1 == y for y in range(3)))'
"""
from __future__ import annotations

import ast
import copy
import itertools
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, overload

_COMPREHENSIONS = (ast.GeneratorExp, ast.ListComp, ast.SetComp)


def names_in(trees: Iterable[ast.AST]) -> set[str]:
    """Every name that occurs in the trees: used, bound (comprehension targets) or a lambda's parameter.

    >>> from nimjos.lang.syntax import parse
    >>> sorted(names_in([parse("lambda r: r + k"), parse("[i for i in s]")]))
    ['i', 'k', 'r', 's']
    """
    out: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                out.add(node.id)
            elif isinstance(node, ast.arg):
                out.add(node.arg)
    return out


def fresh_namer(taken: Iterable[str]) -> Callable[[str], str]:
    """A function giving, for a name, a new name ``<name>_<k>`` that is in neither `taken` nor any name it gave
    before (each call reserves the name it returns).

    >>> fresh = fresh_namer({"y", "y_1"})
    >>> fresh("y"), fresh("y"), fresh("x")
    ('y_2', 'y_3', 'x_4')
    """
    used = set(taken)
    counter = itertools.count(1)

    def fresh(name: str) -> str:
        while True:
            new = f"{name}_{next(counter)}"
            if new not in used:
                used.add(new)
                return new
    return fresh


@overload
def _rebuild(tree: ast.expr, env: dict[str, ast.expr], fresh: Callable[[str], str]) -> ast.expr: ...


@overload
def _rebuild(tree: ast.AST, env: dict[str, ast.expr], fresh: Callable[[str], str]) -> ast.AST: ...


def _rebuild(tree: ast.AST, env: dict[str, ast.expr], fresh: Callable[[str], str]) -> ast.AST:
    """`tree` with each free name of `env` replaced by (a copy of) its tree and every name bound inside `tree`
    renamed by `fresh` (which may keep it); a binder shadows `env` in its scope. A comprehension's first range is
    read outside it, as in the language."""
    if isinstance(tree, ast.Name):
        return copy.deepcopy(env[tree.id]) if tree.id in env else ast.Name(tree.id, tree.ctx)
    if isinstance(tree, ast.Lambda):
        inner, args = dict(env), copy.deepcopy(tree.args)
        for a in args.args:
            new = fresh(a.arg)
            inner[a.arg] = ast.Name(new, ast.Load())
            a.arg = new
        return ast.Lambda(args, _rebuild(tree.body, inner, fresh))
    if isinstance(tree, _COMPREHENSIONS):
        inner, gens = dict(env), []
        for g in tree.generators:
            it = _rebuild(g.iter, inner, fresh)
            renamed = {t.id: fresh(t.id) for t in ast.walk(g.target) if isinstance(t, ast.Name)}
            inner.update({old: ast.Name(new, ast.Load()) for old, new in renamed.items()})
            target = _rebuild(g.target, {old: ast.Name(new, ast.Store()) for old, new in renamed.items()}, fresh)
            gens.append(ast.comprehension(target, it, [_rebuild(c, inner, fresh) for c in g.ifs], g.is_async))
        return type(tree)(_rebuild(tree.elt, inner, fresh), gens)
    out = type(tree)()
    for field, value in ast.iter_fields(tree):
        if isinstance(value, list):
            value = [_rebuild(v, env, fresh) if isinstance(v, ast.AST) else v for v in value]
        elif isinstance(value, ast.AST):
            value = _rebuild(value, env, fresh)
        setattr(out, field, value)
    return out


def substitute_call(params: Sequence[str], body: ast.expr, args: Sequence[ast.expr], taken: Iterable[str] = (),
                    fresh: Callable[[str], str] | None = None) -> ast.expr:
    """The body of a definition with the argument trees in place of its parameters, every name the body binds that
    is in `taken` (the caller's names in scope) or in the arguments renamed to a fresh name (in none of them, nor in
    the body), so no argument's name is captured, and a parameter shadowed in the body is left alone there. `fresh`
    (a :func:`fresh_namer` of the caller's, so that names stay unique across several inlinings) replaces the
    default namer.

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(substitute_call(("x", "j"), parse("all(j < x for j in range(j))"), [parse("j + 1"), parse("y")]))
    'all((j_1 < j + 1 for j_1 in range(y)))'
    """
    if len(params) != len(args):
        raise ValueError(f"{len(params)} parameters, {len(args)} arguments")
    avoid = set(taken) | names_in(args)
    return _rebuild(body, dict(zip(params, args)), _renamer(avoid, body, fresh))


def _renamer(avoid: set[str], body: ast.AST, fresh: Callable[[str], str] | None) -> Callable[[str], str]:
    """The renaming of a body's names: a name of `avoid` gets a fresh one, the others stay."""
    namer = fresh if fresh is not None else fresh_namer(avoid | names_in([body]))
    return lambda name: namer(name) if name in avoid else name


@dataclass(frozen=True)
class Renamed:
    """A definition's parameters and body, the names among them that a caller takes renamed fresh."""

    params: tuple[str, ...]
    body: ast.expr


def rename_definition(params: Sequence[str], body: ast.expr, taken: Iterable[str] = (),
                      fresh: Callable[[str], str] | None = None) -> Renamed:
    """The definition with its parameters and the names its body binds that are in `taken` (the names of the
    environment the body is evaluated in) renamed to fresh names (none of `taken`, none of the body's), for a
    backend that binds the arguments' values to the parameters: nothing of that environment can then be captured
    or hidden. With nothing taken (the body evaluated in an environment of its parameters alone, as Z3's and the
    vectorised evaluator's are), nothing needs a new name.

    >>> from nimjos.lang.syntax import parse
    >>> r = rename_definition(("x", "y"), parse("sum(x + y for x in range(x))"), taken={"x", "x_1"})
    >>> r.params, ast.unparse(r.body)
    (('x_2', 'y'), 'sum((x_3 + y for x_3 in range(x_2)))')
    """
    rename = _renamer(set(taken), body, fresh)
    new = tuple(rename(p) for p in params)
    tree = _rebuild(body, {p: ast.Name(n, ast.Load()) for p, n in zip(params, new)}, rename)
    return Renamed(new, tree)


#: the nodes whose evaluation cannot fail by themselves when their parts do not (a name bound to a value, a
#: constant, a lambda, a tuple)
_TOTAL = (ast.Name, ast.Constant, ast.Lambda, ast.Tuple, ast.List, ast.Load, ast.Store, ast.arguments, ast.arg)


def may_fail(tree: ast.AST) -> bool:
    """Whether evaluating the tree may fail (be ill-defined or refused) in the language: anything but names,
    constants, lambdas and tuples of them may (an operator on a truth value or a tuple, a division, a call).

    >>> from nimjos.lang.syntax import parse
    >>> may_fail(parse("(x, lambda r: v2(r))")), may_fail(parse("x + 1")), may_fail(parse("v2(x)"))
    (False, True, True)
    """
    if isinstance(tree, ast.Lambda):
        return False
    return not isinstance(tree, _TOTAL) or any(may_fail(c) for c in ast.iter_child_nodes(tree))


def _always_evaluated(tree: ast.AST, name: str) -> bool:
    """Whether every evaluation of `tree` evaluates the free name `name` (not only under an ``if`` branch, after
    the first operand of ``and`` / ``or`` or of a chained comparison, inside a comprehension past its first range,
    or inside a lambda)."""
    if isinstance(tree, ast.Name):
        return tree.id == name
    if isinstance(tree, ast.Lambda):
        return False
    if isinstance(tree, ast.IfExp):
        return _always_evaluated(tree.test, name)
    if isinstance(tree, ast.BoolOp):
        return _always_evaluated(tree.values[0], name)
    if isinstance(tree, ast.Compare):
        return _always_evaluated(tree.left, name) or _always_evaluated(tree.comparators[0], name)
    if isinstance(tree, _COMPREHENSIONS):
        return _always_evaluated(tree.generators[0].iter, name)
    return any(_always_evaluated(c, name) for c in ast.iter_child_nodes(tree))


def unevaluated_arguments(params: Sequence[str], body: ast.expr, args: Sequence[ast.expr]) -> list[ast.expr]:
    """The arguments of a call that may fail (:func:`may_fail`) and that :func:`substitute_call`'s tree does not
    evaluate on every path (their parameter is unused, or used only under a condition): the language evaluates
    every argument before the call, so a backend that substitutes must check these for itself.

    >>> from nimjos.lang.syntax import parse
    >>> [ast.unparse(a) for a in unevaluated_arguments(("a", "b"), parse("a if a > 0 else b"),
    ...                                                  [parse("v2(x)"), parse("v2(x - 1)")])]
    ['v2(x - 1)']
    """
    return [a for p, a in zip(params, args) if may_fail(a) and not _always_evaluated(body, p)]
