"""The syntax of the expression language: Python expression syntax, parsed with ``ast`` under a whitelist
(spec text is never passed to eval()), and questions asked of a syntax tree (its depth, its free names), with
the "did you mean" hint for an unknown name.

>>> free_names(parse("floor(x / 2) + g(k, x)"))
['floor', 'x', 'g', 'k']
>>> parse("x ^ 1")
Traceback (most recent call last):
...
nimjos.lang.errors.SpecError: '^' is not an operator of the spec language (use ** for power, xor(a, b) for the nim-sum)
"""
from __future__ import annotations

import ast
import copy
import difflib
import warnings
from typing import Any

from nimjos.lang.errors import SpecError
from nimjos.lang.runtime import MAX_NESTING

_REFUSED = {
    ast.Attribute: "attribute access (a.b) is not allowed in specs",
    ast.Starred: "starred arguments are not allowed",
    ast.Dict: "dictionaries are not values of the spec language",
    ast.DictComp: "dictionary comprehensions are not allowed",
    ast.NamedExpr: "assignment expressions (:=) are not allowed",
    ast.Await: "await is not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
    ast.JoinedStr: "strings are not values of the spec language",
    ast.FormattedValue: "strings are not values of the spec language",
    ast.Slice: "slices are not allowed; index with a single integer",
}

#: the functions whose arguments may be string literals (the code of a heap game)
STRING_ARGUMENTS = ("octal", "hexadecimal")

_ALLOWED = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
    ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Subscript, ast.Lambda, ast.arguments, ast.arg,
    ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.comprehension, ast.Load, ast.Store,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitOr, ast.BitAnd,
    ast.LShift, ast.RShift, ast.USub, ast.UAdd, ast.Invert, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
)


def parse(text: Any) -> ast.expr:
    """Parse expression text and apply the whitelist; return the expression node.

    >>> type(parse("a < b <= c")).__name__
    'Compare'
    >>> parse("__import__('os').system('id')")
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: attribute access (a.b) is not allowed in specs
    """
    if not isinstance(text, str):
        raise SpecError(f"expected an expression as a string, got {type(text).__name__} {text!r}")
    if len(text) > 20_000:
        raise SpecError("expression longer than 20,000 characters")
    try:
        with warnings.catch_warnings():  # a warning of Python's parser would be a second line on stderr
            warnings.simplefilter("ignore")
            tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        col = f" at column {exc.offset}" if exc.offset else ""
        raise SpecError(f"syntax error{col}: {exc.msg} in {text.strip()!r}") from None
    except (RecursionError, MemoryError):
        raise SpecError(f"expression nested too deeply to parse: {text.strip()[:40]!r}...",
                        hint=f"at most {MAX_NESTING} levels") from None
    except ValueError as exc:
        raise SpecError(f"cannot parse {text.strip()[:80]!r}: {exc}") from None
    depth = nesting(tree)
    if depth > MAX_NESTING:
        raise SpecError(f"expression nested too deeply ({depth} levels)", hint=f"at most {MAX_NESTING} levels")
    _check_whitelist(tree)
    return tree.body


def copy_tree(tree: ast.expr) -> ast.expr:
    """A copy of a parsed tree (a plan's, parsed once), for a reader that may change the nodes it is given.

    >>> t = parse("x + 1"); c = copy_tree(t); c is t, ast.unparse(c)
    (False, 'x + 1')
    """
    return copy.deepcopy(tree)


def nesting(tree: ast.AST) -> int:
    """The depth of a syntax tree, computed without recursion.

    >>> nesting(ast.parse("1 + 2", mode="eval"))
    3
    """
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _check_whitelist(tree: ast.AST) -> None:
    # refused constructs first, so that the message names the worst offence (attribute access)
    nodes = list(ast.walk(tree))
    for node in nodes:
        msg = _REFUSED.get(type(node))
        if msg:
            raise SpecError(msg)
    # a string is a value only as the code of octal("0.77") / hexadecimal("0.f")
    codes = {id(a) for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id in STRING_ARGUMENTS for a in n.args}
    for node in nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):
            raise SpecError("'^' is not an operator of the spec language",
                            hint="use ** for power, xor(a, b) for the nim-sum")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            raise SpecError("'@' is not an operator of the spec language")
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise SpecError(f"names starting with '_' are not allowed ({node.id!r})")
        if isinstance(node, ast.arg) and node.arg.startswith("_"):
            raise SpecError(f"names starting with '_' are not allowed ({node.arg!r})")
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, float):
                raise SpecError(f"floating-point number {v!r} is not allowed",
                                hint="write an exact fraction such as 3/2")
            if isinstance(v, complex):
                raise SpecError("complex numbers are not allowed")
            if isinstance(v, (str, bytes)) and not (isinstance(v, str) and id(node) in codes):
                raise SpecError(f"strings are not values of the spec language ({v!r})")
            if v is None or v is Ellipsis:
                raise SpecError(f"{v!r} is not a value of the spec language")
        if isinstance(node, ast.Call) and node.keywords:
            raise SpecError("keyword arguments are not allowed")
        if isinstance(node, ast.Lambda):
            a = node.args
            if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
                raise SpecError("lambdas take plain positional parameters only")
        if isinstance(node, ast.comprehension) and node.is_async:
            raise SpecError("async comprehensions are not allowed")
        if not isinstance(node, _ALLOWED):
            raise SpecError(f"{type(node).__name__} is not allowed in spec expressions")


def free_names(node: ast.AST) -> list[str]:
    """Names used by an expression and not bound inside it (lambda parameters, comprehension targets),
    in order of first appearance.

    >>> free_names(parse("lambda r: g(k, r) + r"))
    ['g', 'k']
    """
    seen: dict[str, None] = {}
    _visit_free(node, frozenset(), seen)
    return list(seen)


def _visit_free(n: ast.AST, bound: frozenset[str], seen: dict[str, None]) -> None:
    """Add to `seen` the names of `n` not in `bound`, for :func:`free_names` (a function of the module, not a closure
    made per call that calls itself: that would be a reference cycle per call, left to the cycle collector)."""
    if isinstance(n, ast.Name):
        if n.id not in bound and n.id not in seen:
            seen[n.id] = None
        return
    if isinstance(n, ast.Lambda):
        _visit_free(n.body, bound | {a.arg for a in n.args.args}, seen)
        return
    if isinstance(n, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
        inner = bound
        for gen in n.generators:
            _visit_free(gen.iter, inner, seen)
            inner = inner | {t.id for t in ast.walk(gen.target) if isinstance(t, ast.Name)}
            for cond in gen.ifs:
                _visit_free(cond, inner, seen)
        _visit_free(n.elt, inner, seen)
        return
    for child in ast.iter_child_nodes(n):
        _visit_free(child, bound, seen)


def called_names(node: ast.AST) -> set[str]:
    """The names an expression calls as functions (``f`` in ``f(x)``).

    >>> sorted(called_names(parse("octal(n) + isqrt(m)")))
    ['isqrt', 'octal']
    """
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def unknown_name_error(tree: ast.AST, name: str, candidates: set[str] | list[str], where: str | None = None,
                       hint: str | None = None, **location: Any) -> SpecError:
    """The error for a name that is neither bound nor known. A name the expression calls is a function: say there
    is no such function (and suggest close names); otherwise the name is a variable, and `hint` says how to bind it
    when no known name is close.

    >>> str(unknown_name_error(parse("sqrt(n) <= 3"), "sqrt", {"isqrt", "n"}))
    "there is no function 'sqrt' (did you mean 'isqrt'?)"
    >>> str(unknown_name_error(parse("octal(n)"), "octal", {"n"}))
    "there is no function 'octal' (the built-in functions are listed in docs/spec-format.md, under Built-ins; a new one is written in the [define] table)"
    >>> str(unknown_name_error(parse("m + 1"), "m", {"n"}, hint="bind it in for_all"))
    "unknown name 'm' (bind it in for_all)"
    """
    close = suggest(name, candidates)
    suffix = f" in {where}" if where else ""
    if name in called_names(tree):
        return SpecError(f"there is no function {name!r}{suffix}",
                         hint=close or "the built-in functions are listed in docs/spec-format.md, under Built-ins; "
                                       "a new one is written in the [define] table", **location)
    return SpecError(f"unknown name {name!r}{suffix}", hint=close or hint, **location)


def suggest(name: str, candidates: set[str] | list[str]) -> str | None:
    """A 'did you mean' hint, or None.

    >>> suggest("floot", {"floor", "ceil"})
    "did you mean 'floor'?"
    """
    close = difflib.get_close_matches(name, sorted(candidates), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"


def literal_bindings(text: str) -> dict | None:
    """``"x=0, y=(1, 2)"`` as a dict of literal values (never evaluated: ast.literal_eval), or None when the
    text is not such a list of pairs. The callers (--at, sample.pins) say what they expected.

    >>> literal_bindings("x=0, y=(1, 2)"), literal_bindings("x")
    ({'x': 0, 'y': (1, 2)}, None)
    """
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            return None
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg}
    except (SyntaxError, ValueError):
        return None

