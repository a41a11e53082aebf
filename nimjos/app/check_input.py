"""``nimjos check`` and ``nimjos list``: every spec file read and validated before anything is checked. Only the
spec layer is imported here: a bad spec answers before the methods (z3, numba, sympy...) are loaded; once every
file and every claim is valid, ``check`` hands them to :mod:`nimjos.app.check_cli` (:data:`nimjos.app.cli.CHECKS`,
imported then). Their arguments are :mod:`nimjos.app.arguments`'.

Every independent fault of every file is reported in one run, one line each, with exit status 2, and then no
claim is checked, not even those of valid files: a run checks what the user wrote or nothing.
``nimjos list`` lists the files that are valid and then reports the faults of the others (exit status 2).

>>> [s.source.id for s in valid_specs(["tests/data/tiny.toml"])]
['tiny']
"""
from __future__ import annotations

import argparse

from nimjos.lang.errors import raise_all
from nimjos.lang.lazy import import_on_use
from nimjos.spec.loader import Spec, load_specs
from nimjos.app.cli import CHECKS, EXIT_OK


def valid_specs(paths: list[str]) -> list[Spec]:
    """Every spec file of `paths` (default: specs/), read and validated; every fault of every file raised together.

    >>> [s.source.id for s in valid_specs(["tests/data/tiny.toml"])]
    ['tiny']
    """
    specs, errors = load_specs(paths or ["specs"])
    raise_all(errors)
    return specs


def cmd_check(args: argparse.Namespace) -> int:
    """``nimjos check``: read and validate every spec, then check their claims (:func:`nimjos.app.check_cli.cmd_check`).

    >>> cmd_check(argparse.Namespace(paths=["no/such.toml"]))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: no/such.toml: no such file or directory
    """
    args.specs = valid_specs(args.paths)
    return import_on_use(CHECKS).cmd_check(args)


def cmd_list(args: argparse.Namespace) -> int:
    """``nimjos list``: the claims of every valid spec file, then the faults of the others (raised together).

    >>> cmd_list(argparse.Namespace(paths=["tests/data/tiny.toml"]))  # doctest: +ELLIPSIS
    tests/data/tiny.toml  (...)
      nim1-grundy ...
    0
    """
    specs, errors = load_specs(args.paths or ["specs"])
    for spec in specs:
        print(f"{spec.path}  ({spec.source.title or spec.source.id})")
        for c in spec.claims:
            extra = f" corrects {c.corrects}" if c.corrects else ""
            print(f"  {c.id:<40} {c.kind:<12} {c.ref:<28} expect {c.expect or '-'}{extra}")
    raise_all(errors)
    return EXIT_OK
