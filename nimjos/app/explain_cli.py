"""``nimjos explain FILE::CLAIM [--at POSITION] [--depth D]``: prints :func:`nimjos.api.explain.explain_text`.

>>> import argparse, pathlib
>>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
>>> cmd_explain(argparse.Namespace(target=f"{path}::nim1-grundy", at="x=1", depth=0, profile="default"))  # doctest: +ELLIPSIS
claim nim1-grundy at x=1
...
0
"""
from __future__ import annotations

import argparse

from nimjos.api.explain import explain_text


def cmd_explain(args: argparse.Namespace) -> int:
    """Run ``nimjos explain``: the text of :func:`explain_text` for the claim and position asked."""
    print(explain_text(args.target, args.at, args.depth, args.profile))
    return 0
