"""The scope of a prover's verdict, as phrases (:class:`nimjos.verdict.Phrase`): the class of positions proved ("all x, y >= 0 for h = 3", "every
value below 2^32"), the enumerated values, and the abstractions, lemmas and induction the proof used.

>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]
>>> dom = proof_domain(c.plan(), ProveOptions())
>>> class_text(dom, "bv", 32, [{}], {"xor", "unknown G"})
'all x >= 0, every value below 2^32; xor by its laws, G as unknown functions'
"""
from __future__ import annotations

import ast

from nimjos.lang.binders import conjuncts
from nimjos.lang.syntax import copy_tree
from nimjos.lang.values import format_value
from nimjos.verdict import Phrases, phrases, render_scope
from nimjos.words import PhraseKind
from checkers.prove.domain import ProofDomain


def clean(tree: ast.expr) -> str:
    """An expression (a tree, left as it is) as text with its constant arithmetic done: sums of constants folded,
    ``max``/``min`` of equal or constant arguments reduced (a scope prints the domain, not the window's raw bounds).

    >>> from nimjos.lang.syntax import parse
    >>> [clean(parse(t)) for t in ("max(0, 0)", "0 + 1 <= d <= min(h - 1, X)", "1 <= i <= k - 1 - 1", "n >= 2 * 3")]
    ['0', '1 <= d <= min(h - 1, X)', '1 <= i <= k - 2', 'n >= 6']
    """
    return ast.unparse(ast.fix_missing_locations(_Clean().visit(copy_tree(tree))))


def domain_words(tree: ast.expr) -> str:
    """A domain's conjuncts in clean form, joined by commas.

    >>> from nimjos.lang.syntax import parse
    >>> domain_words(parse("2 <= k and k + 1 <= n and 0 + 0 <= s <= n // k and k >= 2"))
    'k >= 2, n >= k + 1, 0 <= s <= n // k'
    """
    return ", ".join(dict.fromkeys(clean(_name_first(p)) for p in conjuncts(tree)))


def _name_first(node: ast.expr) -> ast.expr:
    """``1 <= x`` as ``x >= 1``: a single comparison of a bound with a name puts the name first."""
    flip = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in flip \
            and isinstance(node.comparators[0], ast.Name) and not isinstance(node.left, ast.Name):
        return ast.Compare(node.comparators[0], [flip[type(node.ops[0])]()], [node.left])
    return node


def _terms(node, sign, out):
    """Flatten a chain of + and - into signed terms."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        _terms(node.left, sign, out)
        _terms(node.right, sign if isinstance(node.op, ast.Add) else -sign, out)
    else:
        out.append((sign, node))


class _Clean(ast.NodeTransformer):
    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, (ast.Add, ast.Sub)):
            terms = []
            _terms(node, 1, terms)
            const = sum(s * t.value for s, t in terms if _int(t))
            rest = [(s, t) for s, t in terms if not _int(t)]
            if not rest:
                return ast.Constant(const)
            out = rest[0][1] if rest[0][0] > 0 else ast.UnaryOp(ast.USub(), rest[0][1])
            for s, t in rest[1:]:
                out = ast.BinOp(out, ast.Add() if s > 0 else ast.Sub(), t)
            if const:
                out = ast.BinOp(out, ast.Add() if const > 0 else ast.Sub(), ast.Constant(abs(const)))
            return out
        if isinstance(node.op, ast.Mult) and _int(node.left) and _int(node.right):
            return ast.Constant(node.left.value * node.right.value)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("max", "min") and not node.keywords:
            args, seen = [], set()
            for a in node.args:
                key = ast.dump(a)
                if key not in seen:
                    seen.add(key)
                    args.append(a)
            consts = [a.value for a in args if _int(a)]
            others = [a for a in args if not _int(a)]
            if len(consts) > 1:
                args = others + [ast.Constant((max if node.func.id == "max" else min)(consts))]
            if len(args) == 1:
                return args[0]
            node.args = args
        return node


def _int(node):
    return isinstance(node, ast.Constant) and type(node.value) is int


def class_text(dom: ProofDomain, mode: str, width: int | None, instances: list[dict], abstractions: set) -> str:
    """The scope of a proof over `dom` in one world, for `instances` of the enumerated names (see the module
    docstring), in words: :func:`class_phrases` rendered."""
    return render_scope(class_phrases(dom, mode, width, instances, abstractions))


def class_phrases(dom: ProofDomain, mode: str, width: int | None, instances: list[dict],
                  abstractions: set) -> Phrases:
    """The scope of a proof over `dom` in one world, as phrases: the class (the domain or the bounds, the enumerated
    values), then what the proof reasoned with instead of the exact statement.

    >>> from nimjos.spec.loader import load_spec, ProveOptions
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> [p.kind for p in class_phrases(proof_domain(spec.claims[0].plan(), ProveOptions()), "int", None, [{}], {"xor"})]
    ['class', 'engine']
    """
    parts = []
    names = [n for n in dom.symbolic if n not in dom.substituted]
    if names and dom.domain_text:
        # the proof ranges over the claim's domain (the window's constant edges dropped): print the domain
        assert dom.domain_tree is not None, "a proof over the claim's domain has its tree"
        text = "all " + domain_words(dom.domain_tree)
        if mode == "bv" and width:
            text += f", every value below 2^{width}"
        parts.append(text)
    elif names:
        bounds = []
        for n in names:
            lo, hi = dom.lower.get(n), dom.upper.get(n)
            lo, hi = (None if t is None else clean(t) for t in (lo, hi))
            if lo is not None and hi is not None and lo == hi:
                bounds.append(f"{n} = {lo}")
            elif lo is not None and hi is not None:
                bounds.append(f"{lo} <= {n} <= {hi}")
            elif lo is not None:
                bounds.append(f"{n} >= {lo}")
            else:
                bounds.append(n)
        text = "all " + ", ".join(bounds)
        if mode == "bv" and width:
            text += f", every value below 2^{width}"
        parts.append(text)
    if dom.enumerated and instances and instances != [{}]:
        parts.append("for " + instances_text(dom.enumerated, instances))
    words = abstraction_words(abstractions)
    return phrases(*((PhraseKind.CLASS, p) for p in parts), (PhraseKind.ENGINE, ", ".join(words)))


def abstraction_words(abstractions: set) -> list[str]:
    """What a proof reasoned with instead of the exact statement, in words (the abstractions a Z3 world records).

    >>> abstraction_words({"2^e", "unknown G", "lemma L"})
    ['abstracting 2^n', 'G as unknown functions', 'using L']
    >>> abstraction_words({"2^e", "v2"})
    ['abstracting 2^n', 'v2 and the odd part as unknowns (z = odd(z) * 2^v2(z), odd(z) odd, for z != 0)']
    """
    words = []
    if "2^e" in abstractions:
        words.append("abstracting 2^n")
    if "v2" in abstractions:
        words.append("v2 and the odd part as unknowns (z = odd(z) * 2^v2(z), odd(z) odd, for z != 0)")
    if "ilog2" in abstractions:
        words.append("ilog2 as an unknown (2^ilog2(z) <= z < 2^(ilog2(z) + 1), for z >= 1)")
    if "xor" in abstractions:
        words.append("xor by its laws")
    unknown = sorted(a.split(" ", 1)[1] for a in abstractions if a.startswith("unknown "))
    if unknown:
        words.append(", ".join(unknown) + " as unknown functions")
    words += sorted("using " + a.split(" ", 1)[1] for a in abstractions if a.startswith("lemma "))
    for a in sorted(a for a in abstractions if a.startswith("induction ")):
        name = a.split(" ", 1)[1]
        words.append(f"by strong induction on {name}" + (f" (the mex facts of G at {name})"
                                                          if "unknown G" in abstractions else ""))
    words += sorted(f"for {a} ({a.split()[1]} an unknown function)" for a in abstractions if a.startswith("every "))
    if "recursive sums" in abstractions:
        words.append("sums over a symbolic range as recursive functions")
    return words


def instances_text(names: list[str], instances: list[dict]) -> str:
    """The enumerated values of a proof, in words.

    >>> instances_text(["k"], [{"k": 3}, {"k": 4}, {"k": 5}]), instances_text(["k", "e"], [{"k": 1, "e": 0}])
    ('k = 3..5', '1 values of (k, e)')
    """
    if len(names) == 1:
        vals = [i[names[0]] for i in instances]
        if all(type(v) is int for v in vals) and vals == list(range(vals[0], vals[0] + len(vals))) and len(vals) > 2:
            return f"{names[0]} = {vals[0]}..{vals[-1]}"
        return f"{names[0]} = " + ", ".join(format_value(v) for v in vals)
    return f"{len(instances)} values of ({', '.join(names)})"


def show_values(values: dict) -> str:
    """Values as ``x=3, y=(1, 2)`` ("-" for none).

    >>> show_values({"x": 3, "y": (1, 2)}), show_values({})
    ('x=3, y=(1, 2)', '-')
    """
    return ", ".join(f"{k}={format_value(v)}" for k, v in values.items()) or "-"
