"""The scope text of a prover's verdict: the class of positions proved ("all x, y >= 0 for h = 3", "every
value below 2^32"), the enumerated values, and the abstractions, lemmas and induction the proof used.

>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]
>>> dom = proof_domain(c, c.plan(), ProveOptions(), spec.namespace)
>>> class_text(dom, "bv", 32, [{}], {"xor", "unknown G"})
'all x >= 0, every value below 2^32; xor by its laws, G as unknown functions'
"""
from __future__ import annotations

from nimjos.lang.values import format_value
from checkers.prove.domain import ProofDomain

def class_text(dom: ProofDomain, mode: str, width: int | None, instances: list[dict], abstractions: set) -> str:
    """The scope of a proof over `dom` in one world, for `instances` of the enumerated names (see the module
    docstring)."""
    parts = []
    names = [n for n in dom.symbolic if n not in dom.substituted]
    if names:
        bounds = []
        for n in names:
            lo, hi = dom.lower.get(n), dom.upper.get(n)
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
    words = []
    if "2^e" in abstractions:
        words.append("abstracting 2^n")
    if "xor" in abstractions:
        words.append("xor by its laws")
    unknown = sorted(a.split(" ", 1)[1] for a in abstractions if a.startswith("unknown "))
    if unknown:
        words.append(", ".join(unknown) + " as unknown functions")
    words += sorted("using " + a.split(" ", 1)[1] for a in abstractions if a.startswith("lemma "))
    for a in sorted(a for a in abstractions if a.startswith("induction ")):
        name = a.split(" ", 1)[1]
        words.append(f"by strong induction on {name} (the mex facts of G at {name})")
    if words:
        parts.append(", ".join(words))
    return "; ".join(parts)


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
