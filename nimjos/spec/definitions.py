"""The ``[define]`` table of a spec: each head (``name`` or ``name(a, b)``) and body parsed into a
:class:`~nimjos.lang.runtime.Definition` of the namespace, then, once the games are declared, the bodies compiled,
refusing unknown names and any recursion but a memoised one on a decreasing argument.

>>> ns, lines = Namespace(), SpecLines('[define]\\n"sq(x)" = "x * x"\\nnine = "sq(3)"\\n')
>>> declare_definitions({"sq(x)": "x * x", "nine": "sq(3)"}, ns, "s.toml", lines)
>>> compile_definitions(ns, "s.toml", lines)
>>> ns.definitions["sq"](7), ns.definitions["nine"]()
(49, 9)
"""
from __future__ import annotations

import ast
import re
from typing import Any

from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import SpecError, raise_all
from nimjos.lang.runtime import Definition
from nimjos.lang.syntax import free_names, parse, unknown_name_error
from nimjos.spec.plan import refuse_double_misere
from nimjos.spec.schema import SpecLines


def declare_definitions(defines: dict, ns: Namespace, fname: str, lines: SpecLines,
                        failed: set[str] | None = None) -> None:
    """Parse each definition of a ``[define]`` table into `ns.definitions` (compiled later by
    :func:`compile_definitions`). Each definition is read on its own: the faults of all are raised together, and the
    names of those that failed are added to `failed`.

    >>> declare_definitions({"floor(x)": "x"}, Namespace(), "s.toml", SpecLines(""))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: s.toml: definition 'floor(x)': 'floor' is already the built-in 'floor' and cannot be redefined (choose another name)
    """
    def_line = lines.header("define")
    failed = set() if failed is None else failed
    errors: list[SpecError] = []
    for head, body in defines.items():
        try:
            _declare_one(head, body, ns, fname, lines.field_in_block(def_line, head) or def_line)
        except SpecError as exc:
            errors.append(exc)
            name = re.match(r"\s*([A-Za-z][A-Za-z0-9_]*)", head)
            if name and name.group(1) not in ns.builtins:   # a built-in's name still means the built-in
                failed.add(name.group(1))
    raise_all(errors)


def _declare_one(head: str, body: Any, ns: Namespace, fname: str, dline: int | None) -> None:
    """Parse one definition into `ns.definitions`."""
    where: dict[str, Any] = {"file": fname, "item": f"definition {head!r}", "line": dline}
    m = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([^()]*)\))?\s*", head)
    if not m:
        raise SpecError("a definition's name must look like 'name' or 'name(a, b)'", **where)
    name, params_text = m.group(1), m.group(2)
    params = tuple(p.strip() for p in params_text.split(",")) if params_text and params_text.strip() else ()
    if any(not p.isidentifier() or p.startswith("_") for p in params) or len(set(params)) != len(params):
        raise SpecError(f"bad parameter list {params_text!r}", **where)
    hidden = [p for p in params if p in ns.builtins]
    if hidden:
        raise SpecError(f"parameter {hidden[0]!r} would hide {ns.kind(hidden[0])}", hint="choose another name", **where)
    if name in ns.builtins:
        raise SpecError(f"{name!r} is already {ns.kind(name)} and cannot be redefined", hint="choose another name",
                        **where)
    if not isinstance(body, str):
        raise SpecError(f"a definition's body must be an expression string, got {type(body).__name__}", **where)
    try:
        tree = parse(body)
    except SpecError as exc:
        raise exc.located(**where) from None
    ns.definitions[name] = Definition(name, params, body, tree)
    ns.definitions[name].line = dline


def compile_definitions(ns: Namespace, fname: str, lines: SpecLines, failed: set[str] | None = None) -> None:
    """Compile the bodies of the declared definitions, once the games are declared too (a body may name a game):
    refuse unknown names and recursion other than a function calling itself on a strictly decreasing first
    argument (:class:`~nimjos.lang.runtime.Definition`), under a condition that can stop it.

    Each definition is compiled on its own: the faults of all are raised together. A definition that fails is
    taken out of `ns` and its name added to `failed`; one that names a failed name (a definition, game or
    automaton that `failed` holds already) fails with it, with no fault of its own (the first fault says it all).

    >>> ns, lines = Namespace(), SpecLines('[define]\\n"f(x)" = "g(x)"\\n"g(x)" = "f(x) + 1"\\n')
    >>> declare_definitions({"f(x)": "g(x)", "g(x)": "f(x) + 1"}, ns, "s.toml", lines)
    >>> compile_definitions(ns, "s.toml", lines)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: s.toml:2: definition 'f': definitions may not call each other in a cycle: f -> g -> f (only a function calling itself directly is allowed, e.g. "fib(n)" = "n if n < 2 else fib(n - 1) + fib(n - 2)")
    >>> ns, lines = Namespace(), SpecLines('[define]\\n"fib(n)" = "n if n < 2 else fib(n - 1) + fib(n - 2)"\\n')
    >>> declare_definitions({"fib(n)": "n if n < 2 else fib(n - 1) + fib(n - 2)"}, ns, "s.toml", lines)
    >>> compile_definitions(ns, "s.toml", lines)
    >>> ns.definitions["fib"](90)
    2880067194370816120
    """
    def_line = lines.header("define")
    failed = set() if failed is None else failed
    errors: list[SpecError] = []

    def line_of(name: str) -> int | None:
        return ns.definitions[name].line or def_line

    def fail(names: list[str], error: SpecError | None) -> None:
        if error is not None:
            errors.append(error)
        failed.update(names)

    # the definitions' call graph may have no cycle but a definition calling itself
    graph = {name: [n for n in free_names(d.tree) if n in ns.definitions and n != name]
             for name, d in ns.definitions.items()}
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> None:
        if state.get(n) == 2:
            return
        if state.get(n) == 1:
            cyc = path[path.index(n):] + [n]
            raise SpecError("definitions may not call each other in a cycle: " + " -> ".join(cyc), file=fname,
                            item=f"definition {n!r}", line=line_of(n), hint=_RECURSION_HINT)
        state[n] = 1
        for m in graph[n]:
            visit(m, path + [n])
        state[n] = 2

    for n in graph:
        try:
            visit(n, [])
        except SpecError as exc:   # the definitions on the cycle fail together, with one fault
            fail([m for m, seen in state.items() if seen == 1], exc)
            state.update({m: 2 for m, seen in state.items() if seen == 1})
    for name, d in ns.definitions.items():
        if name in free_names(d.tree) and name not in failed:
            try:
                _check_self_recursion(d, fname, line_of(name))
            except SpecError as exc:
                fail([name], exc)
            d.recursive = True
    order: list[str] = []   # callees first: a definition is compiled once every definition it calls has been
    entered: set[str] = set()

    def post(n: str) -> None:
        if n not in entered:
            entered.add(n)
            for m in graph[n]:
                post(m)
            order.append(n)

    for n in graph:
        post(n)
    for name in order:
        d = ns.definitions[name]
        if name in failed:
            continue
        where: dict[str, Any] = {"file": fname, "item": f"definition '{name}'", "line": line_of(name)}
        if any(n in failed and n not in d.params for n in free_names(d.tree)):
            fail([name], None)   # it names a definition, game or automaton whose fault is reported already
            continue
        unknown = [n for n in free_names(d.tree) if n not in d.params and n not in ns.known()]
        try:
            if unknown:
                raise unknown_name_error(d.tree, unknown[0], ns.known() | set(d.params), where=f"the body of {name}",
                                         **where)
            try:
                refuse_double_misere(d.tree, ns)
                d.body = compile_tree(d.tree, ns, set(d.params))
            except SpecError as exc:
                raise exc.located(**where) from None
        except SpecError as exc:
            fail([name], exc)
    for name in failed:
        ns.definitions.pop(name, None)
    raise_all(errors)


_RECURSION_HINT = 'only a function calling itself directly is allowed, e.g. "fib(n)" = "n if n < 2 else ' \
                  'fib(n - 1) + fib(n - 2)"'


def _check_self_recursion(d: Definition, fname: str, line: int | None) -> None:
    """A definition that calls itself needs a first parameter to recurse on and a call that a condition guards
    (the branch of an ``if``-``else``, a later operand of ``and`` / ``or``); otherwise it never stops.

    >>> d = Definition("f", ("n",), "f(n - 1) + 1", parse("f(n - 1) + 1"))
    >>> _check_self_recursion(d, "s.toml", 4)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: s.toml:4: definition 'f': definitions may not be recursive without a base case: f calls itself unconditionally (f -> f), so the recursion never stops (write the base case with if-else, e.g. "n if n < 2 else f(n - 1) + ...")
    """
    where: dict[str, Any] = {"file": fname, "item": f"definition {d.name!r}", "line": line}
    if not d.params:
        raise SpecError(f"the constant {d.name} refers to itself ({d.name} -> {d.name})", **where)
    stack: list[ast.AST] = [d.tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.id == d.name:
            p = d.params[0]
            raise SpecError(f"definitions may not be recursive without a base case: {d.name} calls itself "
                            f"unconditionally ({d.name} -> {d.name}), so the recursion never stops",
                            hint=f'write the base case with if-else, e.g. "{p} if {p} < 2 else {d.name}({p} - 1) + ..."',
                            **where)
        if isinstance(node, ast.IfExp):
            stack.append(node.test)
        elif isinstance(node, ast.BoolOp):
            stack.append(node.values[0])
        elif not isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            stack.extend(ast.iter_child_nodes(node))
