"""Reading ``--at`` pins: one instance named by its variables' values.

>>> parse_at("x=0, y=2")
{'x': 0, 'y': 2}
"""
from __future__ import annotations

import ast
from typing import Any

from nimjos.lang.errors import SpecError


def parse_at(text: str) -> dict[str, Any]:
    """Parse ``--at 'x=0,y=2'`` into pins (values are literals: integers or tuples).

    >>> parse_at("x=0, y=(1, 2)")
    {'x': 0, 'y': (1, 2)}
    """
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call) and not call.args
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg}
    except (SyntaxError, ValueError, AssertionError):
        raise SpecError(f"--at expects name=value pairs such as 'x=0,y=2', got {text!r}") from None
