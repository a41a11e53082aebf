r"""Rewrite specs written before ``window`` existed: ``for_all`` becomes the domain as printed, ``window`` the part
of it that is enumerated.

Until then a claim without ``domain`` had its domain read from its window by a width rule: every bound of
``for_all`` was printed except a constant upper bound of a range wider than 8 values (or of a name that is an
exponent, ``2 ** n``, or counts heaps), which was only the window's edge. A claim with ``domain`` had
``domain`` as its domain and ``for_all`` as its window. This script rewrites each claim the way that rule read
it, so that its verdicts stay what they were: check the result against the paper (a printed finite table
"below 100" that the rule read as infinite is the case to fix by hand).

    python scripts/migrate_domains.py FILE.toml ...      # rewrites the files in place
    python scripts/migrate_domains.py --check FILE.toml  # says which claims would change, exit 1 if any

``domain = D`` with ``for_all = W`` becomes ``for_all = D`` with ``window = W`` (no window when W == D); a
``for_all`` whose bounds the rule all read as printed stays as it is; otherwise ``for_all`` keeps the printed
bounds and ``window`` gets the dropped edges. A profile's ``deep = { for_all = ... }`` becomes ``deep = { window =
... }``.

>>> print(migrate_text('[[claim]]\nid = "c"\nfor_all = "1 <= x <= 60 and 2 <= k <= 4"\nholds = "x >= 1"\n'))
[[claim]]
id = "c"
for_all = "1 <= x and 2 <= k <= 4"
window = "x <= 60"
holds = "x >= 1"
<BLANKLINE>
>>> print(migrate_text('[[claim]]\nid = "c"\ndomain = "x >= 1"\nfor_all = "1 <= x <= 9"\nholds = "x >= 1"\n'))
[[claim]]
id = "c"
for_all = "x >= 1"
window = "1 <= x <= 9"
holds = "x >= 1"
<BLANKLINE>
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path
from typing import Any

from nimjos.lang.analysis import size_names
from nimjos.lang.binders import conjuncts
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import parse
from nimjos.spec.domain import heap_count
from nimjos.spec.names import spec_namespace

#: the old rule: a constant range of at most this many values was a printed case split
SMALL_RANGE = 8
_UPPER = (ast.Lt, ast.LtE)
_LOWER = (ast.Gt, ast.GtE)


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


_OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
        ast.NotIn: "not in"}


def _show(node: ast.expr, source: str) -> str:
    """A node as the spec wrote it (a link of a split chain rebuilt from its operands' text).

    >>> text = "0 <= x <= 9 and all(y > 0 for y in S)"
    >>> [_show(link, text) for part in conjuncts(parse(text)) for link in _pairs(part)]
    ['0 <= x', 'x <= 9', 'all(y > 0 for y in S)']
    """
    segment = ast.get_source_segment(source, node) if hasattr(node, "lineno") else None
    if segment is not None:
        return segment
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPS:
        return f"{_show(node.left, source)} {_OPS[type(node.ops[0])]} {_show(node.comparators[0], source)}"
    return ast.unparse(node)


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
    kept: list[ast.expr | str] = []
    edges: list[str] = []
    for link in links:
        heaps = _heap_edge(link, ns, window_text)
        if heaps is not None:
            kept.append(heaps[0])
            edges.append(heaps[1])
            continue
        found = _bound(link, ns)
        if found and found[1] == "upper":
            high = _const_value(found[2], ns)
            low = lows.get(found[0])
            if isinstance(high, int) and (low is None or high - low + 1 > SMALL_RANGE or found[0] in sizes):
                edges.append(_show(link, window_text))
                continue
        kept.append(link)
    return _join(kept, window_text), edges


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


def _heap_edge(link: ast.expr, ns: Namespace, source: str = "") -> tuple[str, str] | None:
    """For ``h in multisets(N, LO, HI)`` with a constant HI: the domain's condition (N heaps of at least LO
    tokens: the sizes are unbounded) and the window's edge (HI); None otherwise.

    >>> from nimjos.spec.names import spec_namespace
    >>> _heap_edge(parse("h in multisets(n, 0, 15)"), spec_namespace(), "h in multisets(n, 0, 15)")
    ('len(h) == n and all(x >= 0 for x in h)', 'h in multisets(n, 0, 15)')
    """
    count = heap_count(link)
    if count is None:
        return None
    _, lo, hi = link.comparators[0].args
    if not isinstance(_const_value(hi, ns), int):
        return None
    name = link.left.id
    x = "x" if name != "x" else "y"
    return f"len({name}) == {_show(count, source)} and all({x} >= {_show(lo, source)} for {x} in {name})", _show(link, source)


def _join(links: list[ast.expr | str], source: str = "") -> str:
    """Links joined back, a lower and an upper bound of one name as one chain (``1 <= m <= n``)."""
    out: list[str] = []
    i = 0
    while i < len(links):
        a = links[i]
        if isinstance(a, str):
            out.append(a)
            i += 1
            continue
        b = links[i + 1] if i + 1 < len(links) else None
        if (b is not None and isinstance(a, ast.Compare) and not isinstance(b, str) and isinstance(b, ast.Compare) and len(a.ops) == 1
                and len(b.ops) == 1 and isinstance(a.comparators[0], ast.Name) and isinstance(b.left, ast.Name)
                and a.comparators[0].id == b.left.id and isinstance(a.ops[0], _UPPER) and isinstance(b.ops[0], _UPPER)):
            out.append(f"{_show(a.left, source)} {_OPS[type(a.ops[0])]} {_show(a.comparators[0], source)} "
                       f"{_OPS[type(b.ops[0])]} {_show(b.comparators[0], source)}")
            i += 2
            continue
        out.append(_show(a, source))
        i += 1
    return " and ".join(out)


_FIELD = re.compile(r'^(?P<indent>[ \t]*)(?P<key>for_all|domain)\s*=\s*(?P<q>["\'])(?P<text>[^"\'\n]*)(?P=q)[ \t]*(#.*)?$')
_STATEMENT = re.compile(r'^[ \t]*(holds|grundy|p_positions|level_set|assume|game)\s*=\s*(["\'])(?P<text>[^"\'\n]*)\2', re.M)
_DEEP = re.compile(r'^(?P<head>[ \t]*deep\s*=\s*\{[^\n]*?)\bfor_all(?P<tail>\s*=)', re.M)


def _blocks(text: str) -> list[tuple[int, int]]:
    """The spans of the ``[[claim]]`` tables of a spec's text."""
    starts = [m.start() for m in re.finditer(r'^[ \t]*\[\[\s*claim\s*\]\]', text, re.M)]
    spans = []
    for i, start in enumerate(starts):
        nxt = re.compile(r'^[ \t]*\[', re.M).search(text, text.index("\n", start) + 1 if "\n" in text[start:] else len(text))
        end = nxt.start() if nxt else len(text)
        spans.append((start, end))
    return spans


def _trees(texts: list) -> list:
    """The trees of the texts that parse (one that does not is skipped: the spec's own check reports it)."""
    out = []
    for text in texts:
        try:
            out.append(parse(text))
        except SpecError:
            continue
    return out


def migrate_claim(block: str, ns: Namespace) -> str:
    r"""One ``[[claim]]`` table's text rewritten (see the module docstring); unchanged when nothing is to do.

    >>> migrate_claim('[[claim]]\nfor_all = "0 <= n <= 6"\nholds = "n < 7"\n', spec_namespace())
    '[[claim]]\nfor_all = "0 <= n <= 6"\nholds = "n < 7"\n'
    """
    lines = block.split("\n")
    found = {m.group("key"): (i, m) for i, line in enumerate(lines) if (m := _FIELD.match(line))}
    if "for_all" not in found or re.search(r'^[ \t]*window\s*=', block, re.M):
        return _DEEP.sub(r"\g<head>window\g<tail>", block)
    i, fm = found["for_all"]
    window = fm.group("text")
    q, indent = fm.group("q"), fm.group("indent")
    if "domain" in found:
        j, dm = found["domain"]
        domain = dm.group("text")
        lines[i] = f"{indent}for_all = {q}{domain}{q}"
        if _same(domain, window):
            del lines[j]
        else:
            lines[j] = f"{indent}window = {q}{window}{q}"
            if j < i:
                lines[j], lines[i] = lines[i], lines[j]
    else:
        texts = [m.group("text") for m in _STATEMENT.finditer(block)] + [window]
        try:
            sizes = size_names(_trees(texts), ns) | heap_counts(window)
            domain, edges = read_domain(window, ns, sizes)
        except SpecError:
            return block
        if edges:
            lines[i] = f"{indent}for_all = {q}{domain}{q}"
            lines.insert(i + 1, f"{indent}window = {q}{' and '.join(edges)}{q}")
    return _DEEP.sub(r"\g<head>window\g<tail>", "\n".join(lines))


def _same(a: str, b: str) -> bool:
    try:
        return ast.dump(parse(a)) == ast.dump(parse(b))
    except SpecError:
        return a.strip() == b.strip()


def migrate_text(text: str, ns: Namespace | None = None) -> str:
    """A spec's text with every claim rewritten (see the module docstring)."""
    ns = ns or spec_namespace()
    out, last = [], 0
    for start, end in _blocks(text):
        out.append(text[last:start])
        out.append(migrate_claim(text[start:end], ns))
        last = end
    out.append(text[last:])
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--check", action="store_true", help="only say which files would change (exit 1 if any)")
    args = ap.parse_args(argv)
    changed = 0
    for path in args.files:
        text = path.read_text()
        new = migrate_text(text)
        if new != text:
            changed += 1
            print(f"{path}: {'would be ' if args.check else ''}rewritten")
            if not args.check:
                path.write_text(new)
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
