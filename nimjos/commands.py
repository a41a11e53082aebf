"""Subcommands beyond check / list / report, each in its own module with a ``register(subparsers)``.

>>> "nimjos.josephus_cli" in COMMAND_MODULES
True
"""
from __future__ import annotations

import argparse
import importlib

#: modules that add subcommands; each defines register(subparsers)
COMMAND_MODULES = ("nimjos.josephus_cli", "nimjos.grundy_cli", "nimjos.scaffold", "nimjos.explain")


def register(sub: argparse._SubParsersAction) -> None:
    """Let every available command module add its subcommands."""
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
