"""A claim's domain (what the paper states) apart from its window (what the exhaustive method enumerates).

A spec states the domain in ``domain = "..."``, as printed: ``"x >= 1 and p == 1"``, ``"0 <= n < 100"``,
``"k >= 2 and 1 <= m <= n"``; bounds may be missing (the domain is then infinite). ``for_all`` is the window:
a finite part of the domain. Sampling and proving range over the domain, never outside it.

A spec written before the ``domain`` field keeps loading; its domain is read from ``for_all`` by the rule the
sampler has always used: every bound is printed except a *constant upper bound of a range wider than
:data:`SMALL_RANGE` values*, which is the window's edge (``0 <= x <= 2000`` reads as ``x >= 0``; ``2 <= k <= 4``
and ``k in {2, 3}`` are printed case splits; ``m <= n`` is printed). The docs (docs/spec-format.md) say so.

>>> from nimjos.spec.names import spec_namespace
>>> d = claim_domain(None, "1 <= x <= 2000 and 1 <= p <= 1 and x != 7", spec_namespace(), ("x", "p"))
>>> d.text, d.explicit, d.edges
('1 <= x and 1 <= p <= 1 and x != 7', False, ['x <= 2000'])
>>> d.contains({"x": 10**30, "p": 1}), d.contains({"x": 1, "p": 0}), d.unbounded
(True, False, ('x',))
>>> claim_domain("0 <= n < 100", "0 <= n < 100", spec_namespace(), ("n",)).unbounded
()
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

from nimjos.lang.binders import Binder, conjuncts
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import parse

#: a constant range of at most this many values is a printed case split (k = 2..4), not a window edge
SMALL_RANGE = 8

_UPPER = (ast.Lt, ast.LtE)
_LOWER = (ast.Gt, ast.GtE)


@dataclass
class Domain:
    """The domain of a claim: the condition the statement puts on the window's names."""

    #: the condition, as written in ``domain`` or as read from ``for_all``
    text: str
    #: written by the spec (``domain = ...``), or read from ``for_all`` by the rule above
    explicit: bool
    #: the window's bounds that are only its edge (empty when explicit)
    edges: list[str] = field(default_factory=list)
    #: the names of the domain, in the window's order
    names: tuple[str, ...] = ()
    #: the names with no upper bound in the domain (an infinite domain when not empty)
    unbounded: tuple[str, ...] = ()
    predicate: Callable[[dict], Any] | None = field(default=None, repr=False)

    def contains(self, env: dict) -> bool:
        """Whether an instance (values of the names) lies in the domain; one that cannot be evaluated does not.

        >>> from nimjos.spec.names import spec_namespace
        >>> claim_domain("n >= 2", "2 <= n <= 50", spec_namespace(), ("n",)).contains({"n": 1})
        False
        """
        if self.predicate is None:
            return True
        try:
            return bool(self.predicate(env))
        except (EvalError, KeyError, TypeError, ZeroDivisionError):
            return False

    def binder(self, ns: Namespace) -> Binder | None:
        """The domain read by a binder (each name's bounds as the domain states them); None when it has no text or
        is not a condition a binder reads (a name with no bound on the bare name).

        >>> from nimjos.spec.names import spec_namespace
        >>> ns = spec_namespace()
        >>> [lv.name for lv in claim_domain("x >= 1", "1 <= x <= 9", ns, ("x",)).binder(ns).levels]
        ['x']
        """
        if not self.text:
            return None
        try:
            return Binder(parse(self.text), ns, allow_unbounded=True, text=self.text)
        except SpecError:
            return None

    @property
    def finite(self) -> bool:
        return not self.unbounded

    def describe(self) -> str:
        """The domain in words, for scopes.

        >>> from nimjos.spec.names import spec_namespace
        >>> claim_domain(None, "0 <= x <= 99", spec_namespace(), ("x",)).describe()
        'domain 0 <= x (read from for_all: x <= 99 is the window edge)'
        """
        if self.explicit:
            return f"domain {self.text}"
        edges = ", ".join(self.edges)
        return f"domain {self.text or 'all values'}" + (f" (read from for_all: {edges} is the window edge)"
                                                        if len(self.edges) == 1 else
                                                        f" (read from for_all: {edges} are the window edges)"
                                                        if self.edges else " (read from for_all)")


def _is_const(node: ast.expr, ns: Namespace) -> bool:
    return not variables_of(node, ns)


def _const_value(node: ast.expr, ns: Namespace) -> Any:
    try:
        return compile_tree(node, ns)({})
    except (EvalError, SpecError):
        return None


def _pairs(part: ast.expr) -> list[ast.Compare]:
    """A chained comparison as its pairwise links (``0 <= x <= 9`` gives ``0 <= x`` and ``x <= 9``)."""
    if not isinstance(part, ast.Compare) or len(part.ops) == 1:
        return [part]
    operands = [part.left, *part.comparators]
    return [ast.Compare(left=operands[i], ops=[op], comparators=[operands[i + 1]]) for i, op in enumerate(part.ops)]


def _bound(link: ast.expr, ns: Namespace) -> tuple[str, str, ast.expr] | None:
    """(name, 'upper' | 'lower', bound) when `link` bounds a bare name by a constant expression."""
    if not isinstance(link, ast.Compare) or len(link.ops) != 1:
        return None
    a, op, b = link.left, link.ops[0], link.comparators[0]
    if isinstance(a, ast.Name) and _is_const(b, ns) and not _is_const(a, ns):
        return (a.id, "upper" if isinstance(op, _UPPER) else "lower" if isinstance(op, _LOWER) else "", b)
    if isinstance(b, ast.Name) and _is_const(a, ns) and not _is_const(b, ns):
        return (b.id, "lower" if isinstance(op, _UPPER) else "upper" if isinstance(op, _LOWER) else "", a)
    return None


def read_domain(window_text: str, ns: Namespace, sizes: set[str] | frozenset[str] = frozenset()) -> tuple[str, list[str]]:
    """The domain read from a window written before the ``domain`` field, and the bounds dropped as its edge.
    A name in `sizes` (an exponent of a power in the claim, ``2 ** n``) is never a printed case split: its
    constant upper bound is the window's edge however narrow.

    >>> from nimjos.spec.names import spec_namespace
    >>> read_domain("2 <= k <= 10 and 1 <= n <= 60 and 1 <= m <= n", spec_namespace())
    ('2 <= k and 1 <= n and 1 <= m <= n', ['k <= 10', 'n <= 60'])
    >>> read_domain("2 <= k <= 4 and k in {2, 3}", spec_namespace())
    ('2 <= k <= 4 and k in {2, 3}', [])
    >>> read_domain("1 <= n <= 6", spec_namespace(), sizes={"n"})
    ('1 <= n', ['n <= 6'])
    """
    tree = parse(window_text)
    links = [link for part in conjuncts(tree) for link in _pairs(part)]
    lows: dict[str, Any] = {}
    for link in links:
        found = _bound(link, ns)
        if found and found[1] == "lower":
            value = _const_value(found[2], ns)
            if isinstance(value, int):
                lows[found[0]] = max(value, lows.get(found[0], value))
    kept: list[ast.expr] = []
    edges: list[str] = []
    for link in links:
        heaps = _heap_edge(link, ns)
        if heaps is not None:
            kept.append(heaps[0])
            edges.append(heaps[1])
            continue
        found = _bound(link, ns)
        if found and found[1] == "upper":
            high = _const_value(found[2], ns)
            low = lows.get(found[0])
            if isinstance(high, int) and (low is None or high - low + 1 > SMALL_RANGE or found[0] in sizes):
                edges.append(ast.unparse(link))
                continue
        kept.append(link)
    return _join(kept), edges


def heap_count(link: ast.expr) -> ast.expr | None:
    """The number of heaps of a window's conjunct ``h in multisets(N, LO, HI)`` (the positions of N heaps of
    LO..HI tokens), else None.

    >>> ast.unparse(heap_count(parse("h in multisets(n, 0, 15)")))
    'n'
    """
    if isinstance(link, ast.Compare) and len(link.ops) == 1 and isinstance(link.ops[0], ast.In) \
            and isinstance(link.left, ast.Name):
        call = link.comparators[0]
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "multisets" \
                and len(call.args) == 3:
            return call.args[0]
    return None


def heap_counts(window_text: str) -> set[str]:
    """The names that count heaps in a window (``1 <= n <= 6 and h in multisets(n, 0, 15)`` gives n): like a
    size, their window range is only the window's edge ("for every number of heaps").

    >>> heap_counts("1 <= n <= 6 and h in multisets(n, 0, 15)"), heap_counts("0 <= x <= 9")
    ({'n'}, set())
    """
    try:
        parts = conjuncts(parse(window_text))
    except SpecError:
        return set()
    counts = (heap_count(part) for part in parts)
    return {c.id for c in counts if isinstance(c, ast.Name)}


def _heap_edge(link: ast.expr, ns: Namespace) -> tuple[ast.expr, str] | None:
    """For ``h in multisets(N, LO, HI)`` with a constant HI: the domain's condition (N heaps of at least LO
    tokens: the sizes are unbounded) and the window's edge (HI); None otherwise.

    >>> from nimjos.spec.names import spec_namespace
    >>> cond, edge = _heap_edge(parse("h in multisets(n, 0, 15)"), spec_namespace()); ast.unparse(cond), edge
    ('len(h) == n and all((x >= 0 for x in h))', 'heap sizes <= 15')
    """
    count = heap_count(link)
    if count is None:
        return None
    _, lo, hi = link.comparators[0].args
    if not isinstance(_const_value(hi, ns), int):
        return None
    name = link.left.id
    x = "x" if name != "x" else "y"
    cond = parse(f"len({name}) == {ast.unparse(count)} and all({x} >= {ast.unparse(lo)} for {x} in {name})")
    return cond, f"heap sizes <= {ast.unparse(hi)}"


def _join(links: list[ast.expr]) -> str:
    """Links joined back, a lower and an upper bound of one name as one chain (``1 <= m <= n``)."""
    out: list[str] = []
    i = 0
    while i < len(links):
        a = links[i]
        b = links[i + 1] if i + 1 < len(links) else None
        if (b is not None and isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and len(a.ops) == 1
                and len(b.ops) == 1 and isinstance(a.comparators[0], ast.Name) and isinstance(b.left, ast.Name)
                and a.comparators[0].id == b.left.id and isinstance(a.ops[0], _UPPER) and isinstance(b.ops[0], _UPPER)):
            out.append(ast.unparse(ast.Compare(left=a.left, ops=[a.ops[0], b.ops[0]],
                                               comparators=[a.comparators[0], b.comparators[0]])))
            i += 2
            continue
        out.append(ast.unparse(a))
        i += 1
    return " and ".join(out)


def claim_domain(domain_text: str | None, window_text: str, ns: Namespace, names: tuple[str, ...],
                 sizes: set[str] | frozenset[str] = frozenset()) -> Domain:
    """The compiled domain of a claim whose window binds `names`: ``domain`` as written, or read from the window
    (`sizes`: the names that are exponents of a power in the claim, see :func:`read_domain`)."""
    explicit = domain_text is not None
    text, edges = (domain_text, []) if explicit else read_domain(window_text, ns, sizes)
    if not text:
        return Domain(text, explicit, edges, names, tuple(names), None)
    tree = parse(text)
    extra = [n for n in variables_of(tree, ns) if n not in names]
    if extra:
        raise SpecError(f"domain names {extra[0]!r}, which the window (for_all) does not bind",
                        hint=f"bind it in for_all too, e.g. '0 <= {extra[0]} <= 10'")
    try:
        binder = Binder(tree, ns, allow_unbounded=True, text=text)
        bounded = {level.name for level in binder.levels if not level.unbounded}
    except SpecError:   # a name only filtered (x != 7): no bound at all
        bounded = set()
    unbounded = tuple(n for n in names if n not in bounded)
    return Domain(text, explicit, edges, names, unbounded, compile_tree(tree, ns, set(names)))
