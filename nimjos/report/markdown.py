"""Escaping for the Markdown pages: spec text is untrusted and must appear as text.

Every filter returns :class:`markupsafe.Markup`, so the (autoescaping) template engine inserts it as
is; anything a template inserts without one of these filters is HTML-escaped, which Markdown also
shows as text.

>>> md_text("a *b* <script>")
Markup('a \\\\*b\\\\* &lt;script&gt;')
"""
from __future__ import annotations

import re

from markupsafe import Markup

_PUNCTUATION = re.compile(r"([\\`*_\[\]|~])")      # inline markup characters
_LINE_START = re.compile(r"^([#+\-]|\d+[.)])")        # a heading, list item or numbered item at the start


def _one_line(text: object) -> str:
    """Text with every run of whitespace (newlines too) made one space.

    >>> _one_line("a\\n  b")
    'a b'
    """
    return " ".join(str("" if text is None else text).split())


def md_text(text: object) -> Markup:
    """Plain text for a Markdown paragraph or table cell: markup characters backslash-escaped, <, >, & as entities.

    >>> md_text("x | y_1 & 2")
    Markup('x \\\\| y\\\\_1 &amp; 2')
    >>> md_text("# 1. not a heading")
    Markup('\\\\# 1. not a heading')
    """
    escaped = _LINE_START.sub(r"\\\1", _PUNCTUATION.sub(r"\\\1", _one_line(text)))
    return Markup(escaped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def md_code(text: object) -> Markup:
    """An inline code span that shows `text` literally (a table cell's pipes escaped, as GFM needs).

    >>> md_code("G(<x, y>) = x | y")
    Markup('`G(<x, y>) = x \\\\| y`')
    >>> md_code("a ` b")
    Markup('`` a ` b ``')
    """
    body = _one_line(text).replace("|", "\\|")
    if not body:
        return Markup("")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    if longest:
        body = f" {body} "
    return Markup(f"{fence}{body}{fence}")


def md_block(text: object) -> Markup:
    """A fenced code block showing `text` literally (the fence is longer than any backtick run in it).

    >>> print(md_block("nimjos check a.toml --at 'x=0'"))
    ```
    nimjos check a.toml --at 'x=0'
    ```
    """
    body = str("" if text is None else text).rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return Markup(f"{fence}\n{body}\n{fence}")


def md_math(latex: object) -> Markup:
    r"""LaTeX for a ``$$`` block, with < and > written as \lt and \gt (no raw HTML characters).

    >>> md_math(r"x < y")
    Markup('x \\lt y')
    """
    text = str(latex).replace("<", r"\lt ").replace(">", r"\gt ")
    return Markup(re.sub(r" +", " ", text))


def md_link(target: str) -> Markup:
    """A link target (a relative file name made by the report itself), with spaces and parentheses encoded.

    >>> md_link("claims/a b(1).md")
    Markup('claims/a%20b%281%29.md')
    """
    return Markup(str(target).replace(" ", "%20").replace("(", "%28").replace(")", "%29"))
