"""A claim's domain (what the paper states) apart from its window (what the exhaustive method enumerates).

``for_all`` is the domain, written as printed: ``"x >= 1 and p == 1"``, ``"0 <= n < 100"``, ``"k >= 2 and 1 <=
m <= n"``; bounds may be missing (the domain is then infinite). ``window`` is a condition added to it that makes
the enumeration finite (``"x <= 60"``): the window is ``(for_all) and (window)``, only how much of the domain the
exhaustive method enumerates. Nothing is inferred from the width of a range. Sampling and proving range over the
domain, never outside it.

>>> from nimjos.spec.names import spec_namespace
>>> d = claim_domain("1 <= x and p == 1 and x != 7", spec_namespace(), ("x", "p"), window="x <= 2000")
>>> d.text, d.window
('1 <= x and p == 1 and x != 7', 'x <= 2000')
>>> d.contains({"x": 10**30, "p": 1}), d.contains({"x": 1, "p": 0}), d.unbounded
(True, False, ('x',))
>>> claim_domain("0 <= n < 100", spec_namespace(), ("n",)).unbounded
()
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from typing import Any, Callable

from nimjos.lang.binders import Binder
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import variables_of
from nimjos.lang.ir import Expr
from nimjos.lang.resolve import resolve
from nimjos.lang.syntax import parse

@dataclass
class Domain:
    """The domain of a claim (its ``for_all``, as printed): the condition the statement puts on its names."""

    #: the condition, as written in ``for_all`` (empty for a statement with no free name)
    text: str
    #: the claim's ``window`` (what is enumerated besides the domain's own bounds), None when the domain is finite
    #: and enumerated whole
    window: str | None = None
    #: the names of the window, in its order
    names: tuple[str, ...] = ()
    #: the names the domain's condition mentions
    names_bound: tuple[str, ...] = ()
    #: the names with no upper bound in the domain (an infinite domain when not empty)
    unbounded: tuple[str, ...] = ()
    predicate: Callable[[dict], Any] | None = field(default=None, repr=False)
    #: the condition's syntax tree and its resolved IR (:mod:`nimjos.lang.ir`), None when it has no text
    tree: ast.expr | None = field(default=None, repr=False)
    ir: Expr | None = field(default=None, repr=False)

    def contains(self, env: dict) -> bool:
        """Whether an instance (values of the names) lies in the domain; one that cannot be evaluated does not.

        >>> from nimjos.spec.names import spec_namespace
        >>> claim_domain("n >= 2", spec_namespace(), ("n",), window="n <= 50").contains({"n": 1})
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
        >>> [lv.name for lv in claim_domain("x >= 1", ns, ("x",), window="x <= 9").binder(ns).levels]
        ['x']
        """
        if not self.text:
            return None
        try:
            tree = copy.deepcopy(self.tree) if self.tree is not None else parse(self.text)
            return Binder(tree, ns, allow_unbounded=True, text=self.text)
        except SpecError:
            return None

    @property
    def finite(self) -> bool:
        return not self.unbounded

    def describe(self) -> str:
        """The domain in words, for scopes.

        >>> from nimjos.spec.names import spec_namespace
        >>> claim_domain("0 <= x", spec_namespace(), ("x",), window="x <= 99").describe()
        'domain 0 <= x'
        """
        return f"domain {self.text or 'all values'}"


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


def claim_domain(text: str, ns: Namespace, names: tuple[str, ...], window: str | None = None) -> Domain:
    """The compiled domain ``for_all`` states, of a claim whose window binds `names`.

    >>> from nimjos.spec.names import spec_namespace
    >>> d = claim_domain("k >= 2 and 1 <= m <= n", spec_namespace(), ("k", "n", "m"), window="k <= 9 and n <= 9")
    >>> d.unbounded, d.names_bound
    (('k', 'n', 'm'), ('k', 'm', 'n'))
    """
    if not text:
        return Domain(text, window, names, (), tuple(names), None)
    tree = parse(text)
    mentioned = tuple(variables_of(tree, ns))
    try:
        binder = Binder(tree, ns, allow_unbounded=True, text=text)
        bounded = {level.name for level in binder.levels if not level.unbounded}
    except SpecError:   # a name only filtered (x != 7), or a heap count: no bound at all
        bounded = set()
    unbounded = tuple(n for n in names if n not in bounded)
    return Domain(text, window, names, mentioned, unbounded, compile_tree(tree, ns, set(names)), tree,
                  resolve(tree, ns, set(names)))
