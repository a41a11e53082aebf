"""The ``[define]`` definitions a claim's statement uses, so that a page can show them beside the statement.

A statement such as ``in_G(s, x, y)`` is opaque without the definition of ``in_G``; the check records, with
each result, the heads and bodies of the definitions the statement names, directly or through other
definitions (first use first), and the report shows them as written in the spec. Nothing is evaluated: the
texts are parsed under the language's whitelist only to find the names they use.

>>> import pathlib, tempfile
>>> from nimjos.spec.loader import load_spec
>>> path = pathlib.Path(tempfile.mkdtemp()) / "s.toml"
>>> _ = path.write_text('[source]\\nid = "s"\\n[define]\\n"sq(x)" = "x * x"\\n'
...                     '[[claim]]\\nid = "c"\\nfor_all = "0 <= x <= 3"\\nholds = "sq(x) >= x"\\n')
>>> definitions_used(load_spec(path).claim("c"))
[('sq(x)', 'x * x')]
"""
from __future__ import annotations

from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import free_names, parse
from nimjos.spec.fingerprint import texts_in
from nimjos.spec.loader import Claim
from nimjos.spec.schema import KIND_FIELDS

#: the fields of a claim whose expressions make its statement
STATEMENT_FIELDS = KIND_FIELDS + ("for_all", "assume")


def _names(text: str) -> list[str]:
    """The free names of an expression text, or none when it does not parse (a key, a bare word of a table).

    >>> _names("f(x) + g"), _names("not an expression (")
    (['f', 'x', 'g'], [])
    """
    try:
        return free_names(parse(text))
    except (NimjosError, SyntaxError, ValueError):
        return []


def definitions_used(claim: Claim) -> list[tuple[str, str]]:
    """The ``(head, body)`` texts of the definitions `claim`'s statement uses, directly or through another
    definition, in the order of first use (each once)."""
    definitions = claim.spec.namespace.definitions
    pending = [n for field in STATEMENT_FIELDS for text in texts_in(claim.raw.get(field)) for n in _names(text)]
    seen: list[str] = []
    while pending:
        name = pending.pop(0)
        if name in seen or name not in definitions:
            continue
        seen.append(name)
        pending = _names(definitions[name].text) + pending
    out = []
    for name in seen:
        d = definitions[name]
        out.append((f"{name}({', '.join(d.params)})" if d.params else name, d.text))
    return out
