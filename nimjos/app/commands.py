"""Subcommands beyond check / list / report, each in its own module with a ``register(subparsers)``.

>>> "nimjos.app.josephus_cli" in COMMAND_MODULES
True
"""
from __future__ import annotations

import argparse
import importlib

#: modules that add subcommands; each defines register(subparsers)
COMMAND_MODULES = ("nimjos.app.josephus_cli", "nimjos.app.grundy_cli", "nimjos.app.scaffold", "nimjos.app.explain")


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
