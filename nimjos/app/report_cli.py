"""``nimjos report``: render reports/ from the results store. The work is :mod:`nimjos.report`'s
(:func:`~nimjos.report.run_report_command`); this module, imported when the subcommand runs, hands it on. The
arguments are :func:`nimjos.app.arguments.register_report`'s.

>>> import argparse, os, tempfile
>>> run_report_command(argparse.Namespace(format="md", out="x", store=os.path.join(tempfile.mkdtemp(), "none")))
2
"""
from __future__ import annotations

from nimjos.report import run_report_command

__all__ = ["run_report_command"]
