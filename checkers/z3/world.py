"""The arithmetic world of a translation: ``bv`` (bit-vectors) when an expression needs bit-level operations
that the int world cannot abstract, else ``int``; for a proof, its width and the bits of computation.

>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]
>>> world_of(c.plan(), ProveOptions()), world_of(c.plan(), ProveOptions(width=16))
(('int', None, 4), ('bv', 16, 20))
"""
from __future__ import annotations

import ast
from typing import Sequence

from nimjos.lang.compiler import Namespace
from nimjos.spec.loader import ProveOptions
from nimjos.spec.plan import ClaimPlan

#: default bit-vector width of the domain when bit operations need the bv world
WIDTH = 32


def uses(tree: ast.AST, ns: Namespace, names: set[str], seen: set[str] | None = None) -> set[str]:
    """Which of `names` (built-in or operator names such as 'xor', '|', 'v2') an expression uses, looking
    through definitions.

    >>> from nimjos.lang.syntax import parse
    >>> sorted(uses(parse("v2((x | y) + 1)"), Namespace(), {"v2", "|", "xor"}))
    ['v2', '|']
    """
    seen = set() if seen is None else seen
    found: set[str] = set()
    ops = {ast.BitOr: "|", ast.BitAnd: "&", ast.LShift: "<<", ast.RShift: ">>", ast.Invert: "~", ast.Pow: "**"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.BinOp, ast.UnaryOp)) and ops.get(type(node.op)) in names:
            found.add(ops[type(node.op)])
        if isinstance(node, ast.Name):
            if node.id in names:
                found.add(node.id)
            d = ns.definitions.get(node.id)
            if d is not None and node.id not in seen:
                seen.add(node.id)
                found |= uses(d.tree, ns, names, seen)
            decl = ns.games.get(node.id)
            if decl is not None and hasattr(decl, "moves") and node.id not in seen:
                seen.add(node.id)
                for fam in decl.moves:
                    found |= uses(fam.to_tree, ns, names, seen) | uses(fam.binder.tree, ns, names, seen)
    return found


#: operations that need the bit-vector world (xor alone is abstracted in the int world)
#: (v2 has a model in both: exact in bv, an unknown with its facts in int, checkers.z3.powers)
BV_ONLY = {"|", "&", "~", "popcount"}


def choose_mode(trees: Sequence[ast.AST], ns: Namespace, exact: bool = False) -> str:
    """'bv' when an expression needs bit-level operations the int world cannot abstract (with `exact`:
    any bit-level operation, the nim-sum included), else 'int'.

    >>> from nimjos.lang.syntax import parse
    >>> choose_mode([parse("xor(x // 2, y)")], Namespace()), choose_mode([parse("v2(x | y)")], Namespace())
    ('int', 'bv')
    >>> choose_mode([parse("v2(x + 1)")], Namespace()), choose_mode([parse("v2(x + 1)")], Namespace(), exact=True)
    ('int', 'bv')
    """
    used: set[str] = set()
    wanted = BV_ONLY | ({"xor", "<<", ">>", "ilog2", "v2"} if exact else set())
    for t in trees:
        used |= uses(t, ns, wanted)
    return "bv" if used else "int"



def world_of(plan: ClaimPlan, cfg: ProveOptions) -> tuple[str, int | None, int]:
    """(mode, width, bits) of a proof of the claim: the world, the width of the domain's values in bv (None
    in int) and the bits of computation (see the module docstring)."""
    ns = plan.namespace
    mode = "bv" if cfg.width else choose_mode(world_trees(plan), ns)
    width = int(cfg.width or WIDTH) if mode == "bv" else None
    bits = int(cfg.bits or ((width or 0) + 4))
    return mode, width, bits


def world_trees(plan: ClaimPlan) -> list:
    """Every expression of the claim, its game and its window (what decides the world of a proof).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]
    >>> [ast.unparse(t) for t in world_trees(c.plan())]
    ['x', 'nim1', '0 <= x and x <= 20']
    """
    trees = plan.claim_trees() + list(plan.strategy_trees.values())
    if plan.game is not None:
        trees.append(plan.game.tree)
    assert plan.window is not None, "a claim the prover reads has a window"
    trees.append(plan.window.tree)
    return trees
