"""The picture of ``nimjos grundy --png``: a 1-D table drawn as its sequence, a 2-D table as a heatmap, by the
report's plots (matplotlib). Loaded only when a picture is asked for (:func:`nimjos.api.tables.draw_table`), so that a
table written to a file or printed never loads matplotlib.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from nimjos.lang.errors import SpecError
from nimjos.report.plots import plot_grid, plot_sequence


def draw_table(table: np.ndarray, how: dict, path: str | Path) -> Path:
    """Draw a 1-D table as its sequence, a 2-D table as a heatmap (cells outside the window grey) into ``path``.

    >>> import tempfile
    >>> how = {"coordinates": ["n"], "origin": [0], "game": "nim", "window": "0 <= n <= 3"}
    >>> draw_table(np.arange(4), how, Path(tempfile.mkdtemp()) / "nim.png").stat().st_size > 1000
    True
    """
    names, origin = how["coordinates"], how["origin"]
    title = f"{how['game']}: Grundy values on {how['window']}"
    if table.ndim == 1:
        return plot_sequence({"x0": origin[0], "grundy": table, "claimed": None}, [], Path(path), title,
                             name=names[0])
    if table.ndim == 2:
        return plot_grid({"x0": origin[0], "y0": origin[1], "grundy": table, "claimed": None}, [],
                         Path(path), title, names=(names[0], names[1]))
    raise SpecError(f"--png draws a window of one or two coordinates, not {table.ndim} ({', '.join(names)})")
