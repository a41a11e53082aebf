"""Hypothesis strategies that write expressions of the spec language as text, from its grammar, built to find
the places where a translation differs from the language: negative values and divisors, ``//`` and ``%`` (floor
semantics), calls of the built-ins the registry gives small-argument domains (nimjos/lang/registry.py: ``abs``,
``min``, ``max``, ``xor``, ``v2``, ``floor`` and ``ceil`` of a ratio, ... -- a built-in registered with domains is
drawn here without editing this file), the bitwise operators (``&``, ``|``, ``<<``, ``>>``), powers (small
exponents, and ``2 ** e`` with a symbolic exponent), comparisons and truth values used as integers (``(x < 3) ==
2``, ``True + x``), constant sets holding truth values (``x in {True, 3}``), comprehensions
(``all``, ``any``, ``sum``, ``min``, ``max`` over ``range(a, b)``) whose loop names shadow the claim's names and
whose ranges go below 0, ``[define]`` definitions whose bodies bind the names their callers pass as arguments,
and declared games (move families with parameters).

Every strategy returns plain text (and, for definitions, the ``[define]`` table as a dict), so that a failure
prints as a spec a person can paste.

>>> from hypothesis import find
>>> find(bool_expr(Ctx(("x", "y"))), lambda e: "in {" in e and "True" in e).startswith("(")
True
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from hypothesis import strategies as st

import nimjos.lang.registry as registry
from nimjos.lang.registry import REGISTRY

#: the claim's variables
VARS = ("x", "y")
#: small constants: signs, zero, one, powers of two and their neighbours
SMALL = (-3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 100)
#: constants at the edges of machine words (int64, the bit-vector widths, Walnut's 32-bit constants)
BIG = (2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35, 2 ** 40, 2 ** 62)
#: non-zero divisors, negative ones included
DIVISORS = (-3, -2, -1, 1, 2, 3, 4, 5, 8)
#: the constant c of a square c * t * t in the linear dialect (isqrt's Beatty terms): squares, c = m^2 times 2 or 5
#: (Pell, Fibonacci), others the backend has no numeration of, 0 and a negative
SQUARE_FACTORS = (0, 1, 2, 3, 4, 5, 8, 9, 18, 20, 45, 13, -2)
#: names a comprehension binds besides the names in scope (which it then shadows)
LOOP_NAMES = ("i", "j")
#: names of definitions' parameters: the claim's variables and the loop names, so that they clash
PARAM_NAMES = ("x", "y", "i", "j")
#: the members of a constant set: truth values and negatives among them
MEMBERS = (True, False, -1, 0, 1, 2, 3, 5, 8)


@dataclass(frozen=True)
class Ctx:
    """Where an expression is written: the names bound there, the definitions it may call ((name, arity, kind)
    with kind ``int`` or ``bool``), and the dialect: `linear` keeps to what Presburger arithmetic can say (no
    product, power, division or shift by a non-constant), `big` adds constants at machine-word edges.

    >>> Ctx(("x",)).scope
    ('x',)
    """

    scope: tuple[str, ...]
    defs: tuple[tuple[str, int, str], ...] = ()
    linear: bool = False
    big: bool = False


def _p(text: str) -> str:
    return f"({text})"


@st.composite
def constant(draw, ctx: Ctx) -> str:
    """An integer constant (negatives parenthesised), sometimes a machine-word edge when `ctx.big`."""
    pool = SMALL + (BIG if ctx.big else ())
    v = draw(st.sampled_from(pool))
    return _p(str(v)) if v < 0 else str(v)


@st.composite
def int_leaf(draw, ctx: Ctx) -> str:
    """A name in scope, a constant, or a truth value used as a number."""
    kind = draw(st.sampled_from(["name", "name", "name", "const", "const", "truth"]))
    if kind == "name" and ctx.scope:
        return draw(st.sampled_from(ctx.scope))
    if kind == "truth":
        return draw(st.sampled_from(["True", "False"]))
    return draw(constant(ctx))


INT_KINDS = ("add", "sub", "mul", "floordiv", "mod", "neg", "builtin", "builtin", "bit", "shift", "builtin", "pow",
             "truth", "if", "aggregate", "call")


def registered_calls(linear: bool) -> tuple[str, ...]:
    """The built-ins the grammar calls: those the registry gives small-argument domains, and in the linear dialect
    (Walnut's) only those Walnut has a form of.

    >>> "v2" in registered_calls(False), "isqrt" in registered_calls(True), "gcd" in registered_calls(True)
    (True, True, False)
    """
    return tuple(sorted(n for n, b in REGISTRY.items() if b.domains and (not linear or b.walnut is None)))


@st.composite
def builtin_call(draw, ctx: Ctx, depth: int) -> str:
    """A call of a registered built-in, each argument drawn from its domain: an integer expression, a small positive
    constant, a ratio (``a / d``, d a non-zero constant, or any expression outside the linear dialect), or a square
    (``c * t * t``, c a constant, in the linear dialect; any expression outside it)."""
    b = REGISTRY[draw(st.sampled_from(registered_calls(ctx.linear)))]
    low, high = b.arity
    domains = b.domains
    if high is None and len(domains) >= 2:     # min, max, xor: two or three arguments of the last domain
        domains = domains + domains[-1:] * draw(st.integers(0, 1))
    sub = int_expr(ctx, depth - 1)
    args = []
    for domain in domains:
        if domain == registry.SMALL:
            args.append(str(draw(st.integers(1, 4))))
        elif domain == registry.RATIO:
            if ctx.linear or draw(st.integers(0, 3)):
                d = draw(st.sampled_from(DIVISORS))
                args.append(f"{draw(sub)} / {_p(str(d)) if d < 0 else d}")
            else:
                args.append(f"{draw(sub)} / {draw(sub)}")
        elif domain == registry.SQUARE and ctx.linear:
            t, c = draw(sub), draw(st.sampled_from(SQUARE_FACTORS))
            c = _p(str(c)) if c < 0 else str(c)
            args.append(draw(st.sampled_from([f"{c} * {t} * {t}", f"{c} * {t} ** 2", f"{t} * {t} * {c}"])))
        else:
            assert domain in (registry.INT, registry.SQUARE), domain
            args.append(draw(sub))
    return f"{b.name}({', '.join(args)})"


@st.composite
def int_expr(draw, ctx: Ctx, depth: int = 3) -> str:
    """An integer-valued expression (it may be undefined at some points: v2(0), a zero divisor, an empty min)."""
    if depth <= 0 or draw(st.integers(0, 4)) == 0:
        return draw(int_leaf(ctx))
    kind = draw(st.sampled_from(INT_KINDS))
    sub = int_expr(ctx, depth - 1)
    if kind in ("add", "sub"):
        return _p(f"{draw(sub)} {'+' if kind == 'add' else '-'} {draw(sub)}")
    if kind == "mul":
        if ctx.linear or draw(st.booleans()):
            return _p(f"{draw(constant(ctx))} * {draw(sub)}")
        return _p(f"{draw(sub)} * {draw(sub)}")
    if kind in ("floordiv", "mod"):
        op = "//" if kind == "floordiv" else "%"
        if ctx.linear or draw(st.integers(0, 3)):
            d = draw(st.sampled_from(DIVISORS))
            return _p(f"{draw(sub)} {op} {_p(str(d)) if d < 0 else d}")
        return _p(f"{draw(sub)} {op} {draw(sub)}")
    if kind == "neg":
        return _p(f"-{draw(sub)}")
    if kind == "builtin":
        return draw(builtin_call(ctx, depth))
    if kind == "bit":
        a, b = draw(sub), draw(sub)
        return draw(st.sampled_from([_p(f"{a} & {b}"), _p(f"{a} | {b}")]))
    if kind == "shift":
        op = draw(st.sampled_from(["<<", ">>"]))
        # a symbolic count is written without machine-word constants: 1 << 2**40 would fill the memory of the
        # language's own constant folding in a backend before any check (a count of 20000 is enough to test)
        k = str(draw(st.integers(0, 5))) if ctx.linear or draw(st.integers(0, 2)) else \
            draw(st.one_of(int_expr(replace(ctx, big=False), depth - 1), st.just("20000")))
        return _p(f"{draw(sub)} {op} {k}")
    if kind == "pow":
        if draw(st.booleans()) and ctx.scope:
            # an exponent without machine-word constants: the language computes 2 ** -(2**35) in full (gigabytes)
            e = draw(st.sampled_from(ctx.scope)) if ctx.linear or draw(st.booleans()) else \
                draw(int_expr(replace(ctx, big=False), depth - 1))
            return _p(f"2 ** {e}")
        if ctx.linear:
            return _p(f"{draw(constant(ctx))} ** {draw(st.integers(0, 2))}")
        return _p(f"{draw(sub)} ** {draw(st.integers(0, 3))}")
    if kind == "truth":
        b = draw(bool_expr(ctx, depth - 1))
        return draw(st.sampled_from([_p(f"{b} + {draw(sub)}"), _p(f"True + {draw(sub)}"), _p(b),
                                     _p(f"{draw(sub)} - {b}")]))
    if kind == "if":
        return _p(f"{draw(sub)} if {draw(bool_expr(ctx, depth - 1))} else {draw(sub)}")
    if kind == "aggregate":
        f = draw(st.sampled_from(["sum", "sum", "min", "max"]))
        return f"{f}({draw(comprehension(ctx, depth, 'int'))})"
    calls = [d for d in ctx.defs if d[2] == "int"]
    if calls:
        name, arity, _ = draw(st.sampled_from(calls))
        return f"{name}({', '.join(draw(sub) for _ in range(arity))})"
    return draw(int_leaf(ctx))


@st.composite
def comprehension(draw, ctx: Ctx, depth: int, kind: str) -> str:
    """``E for v in range(a, b) [if C]``: v may shadow a name in scope, a and b may be negative and may name v's
    outer meaning (the bounds are read outside the loop)."""
    v = draw(st.sampled_from(LOOP_NAMES + ctx.scope))
    bound = int_expr(replace(ctx, defs=()), 1)
    lo, hi = draw(bound), draw(bound)
    inner = replace(ctx, scope=tuple(dict.fromkeys(ctx.scope + (v,))))
    elt = draw(int_expr(inner, depth - 1) if kind == "int" else bool_expr(inner, depth - 1))
    cond = f" if {draw(bool_expr(inner, 1))}" if draw(st.integers(0, 3)) == 0 else ""
    return f"{elt} for {v} in range({lo}, {hi}){cond}"


CMP = ("<", "<=", "==", "!=", ">", ">=")
BOOL_KINDS = ("cmp", "cmp", "cmp", "chain", "truth", "in", "not", "and", "or", "quantifier", "call")


@st.composite
def bool_expr(draw, ctx: Ctx, depth: int = 3) -> str:
    """A truth-valued expression (comparisons, membership, and / or / not, all / any, truth values compared as
    numbers, definitions that return truth values)."""
    sub = int_expr(ctx, max(depth - 1, 0))
    if depth <= 0:
        return _p(f"{draw(sub)} {draw(st.sampled_from(CMP))} {draw(sub)}")
    kind = draw(st.sampled_from(BOOL_KINDS))
    if kind == "cmp":
        return _p(f"{draw(sub)} {draw(st.sampled_from(CMP))} {draw(sub)}")
    if kind == "chain":
        ops = draw(st.lists(st.sampled_from(CMP), min_size=2, max_size=2))
        return _p(f"{draw(sub)} {ops[0]} {draw(sub)} {ops[1]} {draw(sub)}")
    if kind == "truth":
        b = draw(bool_expr(ctx, depth - 1))
        k = draw(st.sampled_from(["0", "1", "2", "(-1)", "True", "False"]))
        return draw(st.sampled_from([_p(f"{b} == {k}"), _p(f"{b} != {k}"), _p(f"{b} < {draw(sub)}"),
                                     _p(f"{b} + {draw(bool_expr(ctx, depth - 1))} == 1"), _p(f"{b} >= {k}")]))
    if kind == "in":
        members = draw(st.lists(st.sampled_from(MEMBERS), min_size=1, max_size=4, unique_by=repr))
        op = draw(st.sampled_from(["in", "not in"]))
        if draw(st.integers(0, 3)) == 0:
            return _p(f"{draw(sub)} {op} range({draw(sub)}, {draw(sub)})")
        return _p(f"{draw(sub)} {op} {{{', '.join(str(m) for m in members)}}}")
    if kind == "not":
        return _p(f"not {draw(bool_expr(ctx, depth - 1))}")
    if kind in ("and", "or"):
        return _p(f" {kind} ".join(draw(bool_expr(ctx, depth - 1)) for _ in range(draw(st.integers(2, 3)))))
    if kind == "quantifier":
        return f"{draw(st.sampled_from(['all', 'any']))}({draw(comprehension(ctx, depth, 'bool'))})"
    calls = [d for d in ctx.defs if d[2] == "bool"]
    if calls:
        name, arity, _ = draw(st.sampled_from(calls))
        return f"{name}({', '.join(draw(sub) for _ in range(arity))})"
    return _p(f"{draw(sub)} {draw(st.sampled_from(CMP))} {draw(sub)}")


@st.composite
def definitions(draw, linear: bool = False, big: bool = False, most: int = 2) -> dict:
    """A ``[define]`` table of up to `most` non-recursive definitions (``"fa(x, j)" = "..."``): their parameters
    are named like the claim's variables and the loop names, their bodies bind loop names, and a later one may
    call an earlier one. Returns {head: body}.

    >>> from hypothesis import find
    >>> sorted(find(definitions(), lambda d: len(d) == 2))
    ['fa(x)', 'fb(x)']
    """
    table: dict[str, str] = {}
    defs: list[tuple[str, int, str]] = []
    for k in range(draw(st.integers(0, most))):
        name = ("fa", "fb", "fc")[k]
        params = tuple(draw(st.permutations(PARAM_NAMES))[:draw(st.integers(1, 2))])
        kind = draw(st.sampled_from(["int", "bool"]))
        ctx = Ctx(params, tuple(defs), linear, big)
        body = draw(int_expr(ctx, 2) if kind == "int" else bool_expr(ctx, 2))
        table[f"{name}({', '.join(params)})"] = body
        defs.append((name, len(params), kind))
    return table


def signatures(table: dict) -> tuple[tuple[str, int, str], ...]:
    """The (name, arity, kind) of each definition of a table from :func:`definitions`, the kind (``int`` or
    ``bool``) read from the body's outermost form (where a call is placed only; the language accepts either).

    >>> signatures({"fa(x, j)": "(x < j)", "fb(i)": "(i + 1)"})
    (('fa', 2, 'bool'), ('fb', 1, 'int'))
    """
    out = []
    for head, body in table.items():
        name, params = head.split("(", 1)
        arity = len([p for p in params.rstrip(")").split(",") if p.strip()])
        out.append((name, arity, "bool" if _is_truth(body) else "int"))
    return tuple(out)


def _is_truth(body: str) -> bool:
    """Is a generated body a truth value (a comparison, membership, not / and / or, all / any, or a call of a
    definition returning one)? Read from the parsed body's outermost node."""
    node = ast.parse(body, mode="eval").body
    if isinstance(node, (ast.Compare, ast.BoolOp)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("all", "any")


@st.composite
def claim(draw, linear: bool = False, big: bool = False, depth: int = 3, boolean: bool = True) -> tuple[dict, str]:
    """A ``[define]`` table and a statement over the claim's variables x, y that may call its definitions: a truth
    value (`boolean`) or an integer.

    >>> from hypothesis import find
    >>> table, text = find(claim(), lambda c: bool(c[0]) and "fa(" in c[1])
    >>> "fa(" in text
    True
    """
    table = draw(definitions(linear, big))
    ctx = Ctx(VARS, signatures(table), linear, big)
    return table, draw(bool_expr(ctx, depth) if boolean else int_expr(ctx, depth))


# ---------------------------------------------------------------------------------------------- declared games

#: names of a game's parameters and of a move's bound name: they clash on purpose (a parameter named t makes
#: ``1 <= t <= x`` a condition on it, not a range of moves)
GAME_PARAMS = ("k", "t")


@st.composite
def game_bound(draw, coords: tuple[str, ...], params: tuple[str, ...]) -> str:
    """An upper bound of a move's bound name: an expression of the position and the parameters."""
    ctx = Ctx(coords + params, (), True, False)
    return draw(st.one_of(st.sampled_from(coords + params), int_expr(ctx, 2)))


@st.composite
def move_family(draw, coords: tuple[str, ...], params: tuple[str, ...]) -> dict:
    """One move family ``{"to": ..., "where": ...}`` of a game on `coords` with `params`: an interval of a bound
    name t (or s) on one coordinate (or a diagonal), a constant set of amounts (truth values among them), or a
    fixed step guarded by a condition; the conditions use //, %, abs, min, max and truth values as numbers."""
    t = draw(st.sampled_from(("t", "s")))
    c = draw(st.sampled_from(coords))
    kind = draw(st.sampled_from(["interval", "interval", "set", "step"]))
    ctx = Ctx(coords + params, (), True, False)
    if kind == "set":
        members = draw(st.lists(st.sampled_from((True, 1, 2, 3, 5)), min_size=1, max_size=3, unique_by=repr))
        where = f"{t} in {{{', '.join(map(str, members))}}} and {t} <= {c}"
        to = [f"{c} - {t}" if n == c else n for n in coords]
    elif kind == "step":
        amount = draw(st.integers(1, 3))
        where = f"{c} >= {amount} and {draw(bool_expr(replace(ctx, defs=()), 1))}"
        to = [f"{c} - {amount}" if n == c else n for n in coords]
        t = None
    else:
        lo = draw(st.sampled_from(["1", "1", "2", "True"]))
        hi = draw(game_bound(coords, params))
        extra = draw(st.sampled_from(["", f" and {t} <= {c}", f" and {t} % 2 == 1", f" and ({t} < 3) + {t} <= {c}"]))
        where = f"{lo} <= {t} <= {hi}{extra} and {t} <= {c}"
        diag = len(coords) == 2 and draw(st.integers(0, 3)) == 0
        to = [f"{n} - {t}" if n == c or diag else n for n in coords]
        if diag:
            where += f" and {t} <= " + f" and {t} <= ".join(coords)
    text = to[0] if len(to) == 1 else f"({', '.join(to)})"
    return {"to": text, "where": where}


@st.composite
def declared_game(draw) -> tuple[dict, tuple]:
    """A ``[game.g]`` table (one or two coordinates, up to two parameters named like bound names, one to three
    move families) and the values of its parameters (small, zero included).

    >>> from hypothesis import find
    >>> table, values = find(declared_game(), lambda g: len(g[0]["params"]) == 2)
    >>> table["params"], values
    (['k', 't'], (0, 0))
    """
    coords = ("x",) if draw(st.booleans()) else ("x", "y")
    params = tuple(draw(st.sampled_from([(), ("k",), ("k", "t")])))
    moves = draw(st.lists(move_family(coords, params), min_size=1, max_size=3))
    values = tuple(draw(st.integers(0, 4)) for _ in params)
    return {"position": list(coords), "params": list(params), "moves": moves}, values
