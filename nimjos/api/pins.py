"""Reading ``--at`` pins: one instance named by its variables' values.

>>> parse_at("x=0, y=2")
{'x': 0, 'y': 2}
"""
from __future__ import annotations

from typing import Any

from nimjos.lang.errors import SpecError
from nimjos.lang.syntax import literal_bindings


def parse_at(text: str) -> dict[str, Any]:
    """Parse ``--at 'x=0,y=2'`` into pins (values are literals: integers or tuples).

    >>> parse_at("x=0, y=(1, 2)")
    {'x': 0, 'y': (1, 2)}
    """
    pins = literal_bindings(text)
    if pins is None:
        raise SpecError(f"--at expects name=value pairs such as 'x=0,y=2', got {text!r}")
    return pins
