"""The ``[define]`` table of a spec: each head (``name`` or ``name(a, b)``) and body parsed into a
:class:`~nimjos.lang.runtime.Definition` of the namespace, then, once the games are declared, the bodies compiled,
refusing recursion and unknown names.

>>> ns, lines = Namespace(), SpecLines('[define]\\n"sq(x)" = "x * x"\\nnine = "sq(3)"\\n')
>>> declare_definitions({"sq(x)": "x * x", "nine": "sq(3)"}, ns, "s.toml", lines)
>>> compile_definitions(ns, "s.toml", lines)
>>> ns.definitions["sq"](7), ns.definitions["nine"]()
(49, 9)
"""
from __future__ import annotations

import re

from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import SpecError
from nimjos.lang.runtime import Definition
from nimjos.lang.syntax import free_names, parse, suggest
from nimjos.spec.schema import SpecLines


def declare_definitions(defines: dict, ns: Namespace, fname: str, lines: SpecLines) -> None:
    """Parse each definition of a ``[define]`` table into `ns.definitions` (compiled later by
    :func:`compile_definitions`).

    >>> declare_definitions({"floor(x)": "x"}, Namespace(), "s.toml", SpecLines(""))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: s.toml: definition 'floor(x)': 'floor' is a built-in and cannot be redefined (choose another name)
    """
    def_line = lines.header("define")
    for head, body in defines.items():
        dline = lines.field_in_block(def_line, head) or def_line
        where = {"file": fname, "item": f"definition {head!r}", "line": dline}
        m = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([^()]*)\))?\s*", head)
        if not m:
            raise SpecError("a definition's name must look like 'name' or 'name(a, b)'", **where)
        name, params_text = m.group(1), m.group(2)
        params = tuple(p.strip() for p in params_text.split(",")) if params_text and params_text.strip() else ()
        if any(not p.isidentifier() or p.startswith("_") for p in params) or len(set(params)) != len(params):
            raise SpecError(f"bad parameter list {params_text!r}", **where)
        hidden = [p for p in params if p in ns.builtins]
        if hidden:
            raise SpecError(f"parameter {hidden[0]!r} would hide the built-in {hidden[0]!r}",
                            hint="choose another name", **where)
        if name in ns.builtins:
            raise SpecError(f"{name!r} is a built-in and cannot be redefined", hint="choose another name", **where)
        if not isinstance(body, str):
            raise SpecError(f"a definition's body must be an expression string, got {type(body).__name__}", **where)
        try:
            tree = parse(body)
        except SpecError as exc:
            raise exc.located(**where) from None
        ns.definitions[name] = Definition(name, params, body, tree)


def compile_definitions(ns: Namespace, fname: str, lines: SpecLines) -> None:
    """Compile the bodies of the declared definitions, once the games are declared too (a body may name a game):
    refuse recursion (the definitions' call graph must be acyclic) and unknown names.

    >>> ns, lines = Namespace(), SpecLines('[define]\\n"f(x)" = "g(x)"\\n"g(x)" = "f(x) + 1"\\n')
    >>> declare_definitions({"f(x)": "g(x)", "g(x)": "f(x) + 1"}, ns, "s.toml", lines)
    >>> compile_definitions(ns, "s.toml", lines)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: s.toml:1: definition 'f': definitions may not be recursive: f -> g -> f
    """
    def_line = lines.header("define")
    # no recursion: the definitions' call graph must be acyclic
    graph = {name: [n for n in free_names(d.tree) if n in ns.definitions] for name, d in ns.definitions.items()}
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> None:
        if state.get(n) == 2:
            return
        if state.get(n) == 1:
            cyc = path[path.index(n):] + [n]
            raise SpecError("definitions may not be recursive: " + " -> ".join(cyc), file=fname,
                            item=f"definition {n!r}", line=lines.field_in_block(def_line, n) or def_line)
        state[n] = 1
        for m in graph[n]:
            visit(m, path + [n])
        state[n] = 2

    for n in graph:
        visit(n, [])
    for name, d in ns.definitions.items():
        unknown = [n for n in free_names(d.tree) if n not in d.params and n not in ns.known()]
        where = {"file": fname, "item": f"definition '{name}'", "line": None}
        if unknown:
            raise SpecError(f"unknown name {unknown[0]!r} in the body of {name}",
                            hint=suggest(unknown[0], ns.known() | set(d.params)), **where)
        try:
            d.body = compile_tree(d.tree, ns, set(d.params))
        except SpecError as exc:
            raise exc.located(**where) from None
