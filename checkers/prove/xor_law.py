"""Statements about the nim-sum alone, which the int world's abstraction of ``xor`` would prove by restating them.

In the int world the nim-sum is an unknown function with its laws as axioms (commutative, ``a xor 0 = a``,
``a xor a = 0``, cancellative, the nim lemma: :mod:`checkers.z3.facts`). A claim that says nothing but
an identity of ``xor`` (004 Proposition 1.5: ``xor(a, 0) == a``, ``xor(a, a) == 0``, commutativity) would be
"proved" by the axiom that states it, which proves nothing (DESIGN.md, principle 8). Such a claim is proved
in the bit-vector world only, where ``xor`` is z3's ``bvxor``, a definition (bit by bit), and the verdict
says for which values (``proved-bounded``, below 2^32).

A statement is *about the nim-sum alone* when its expressions (statement and assumption) are built from
names, integer constants, comparisons, ``and``/``or``/``not`` and ``xor``, and use ``xor``.

>>> from nimjos.spec.names import spec_namespace
>>> ns = spec_namespace()
>>> from nimjos.lang.syntax import parse
>>> about_xor_alone([parse("xor(a, 0) == xor(0, a) == a")], ns), about_xor_alone([parse("xor(a, b) < a + b + 1")], ns)
(True, False)
>>> about_xor_alone([parse("a == a")], ns)
False
"""
from __future__ import annotations

import ast
from typing import Any

from nimjos.spec.plan import ClaimPlan, HoldsPlan

_ALLOWED = (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Call, ast.Load, ast.cmpop, ast.boolop,
            ast.Not, ast.USub)


def about_xor_alone(trees: list[ast.expr], ns: Any) -> bool:
    """Are these expressions an identity of the nim-sum alone (module docstring)? A definition they call counts
    as its body (``nx(a, b) = xor(a, b)`` makes ``nx(a, b) == nx(b, a)`` the commutative law).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.syntax import parse
    >>> about_xor_alone([parse("xor(xor(a, b), b) == a")], Namespace())
    True
    """
    return _xor_alone(trees, ns, set()) is True


def _xor_alone(trees: list, ns: Any, seen: set) -> bool | None:
    """True when the trees are built from the allowed forms and use xor, None when allowed but xor-free,
    False otherwise (definitions looked through, each once)."""
    used: bool | None = None
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, _ALLOWED):
                return False
            if isinstance(node, ast.Constant) and not isinstance(node.value, int):
                return False
            if isinstance(node, ast.Call):
                if not isinstance(node.func, ast.Name) or node.keywords:
                    return False
                if node.func.id == "xor":
                    used = True
                elif node.func.id not in (ns.definitions if ns is not None else {}):
                    return False
            elif isinstance(node, ast.Name) and node.id != "xor" and ns is not None:
                if node.id in ns.games:
                    return False
                d = ns.definitions.get(node.id)
                if d is not None and node.id not in seen:
                    seen.add(node.id)
                    inner = _xor_alone([d.tree], ns, seen)
                    if inner is False:
                        return False
                    used = used or inner
    return used


def xor_law(plan: ClaimPlan) -> bool:
    """Is a holds claim a statement about the nim-sum alone (so that its laws may not prove it)?

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> xor_law(load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].plan())
    False
    """
    if not isinstance(plan, HoldsPlan):
        return False
    return about_xor_alone(plan.expression_trees(), plan.namespace)
