"""The pictures of a claim page, drawn with matplotlib's Agg backend into PNG files.

* :func:`plot_grid`: a 2-D game's Grundy values over the checked window as a heatmap, the claimed set
  drawn over it, cells where the claim and the game disagree outlined, counterexamples crossed;
* :func:`plot_sequence`: a 1-D game's Grundy sequence, the claimed values beside it, disagreements marked;
* :func:`plot_josephus`: the circle 1..n, one panel per round, numbered in the order they are removed
  (like the figures of the first round, second round, ... in the paper on Maximum Nim and Josephus).

The data comes from a verdict's ``evidence`` (see :mod:`nimjos.report.pages`). Plots only show; the
values in them were computed by the checker, and the PNG bytes depend only on the data.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import BoundaryNorm, Colormap, ListedColormap
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Patch
from matplotlib.ticker import MaxNLocator
from nimjos.josephus.algorithms import simulate_circle

#: colours: counterexamples and disagreements, the claimed set, the survivor, removed earlier
RED, BLUE, GOLD, GREY = "#d62728", "#1f77b4", "#e6a700", "#bbbbbb"

#: the colour of a grid's cells outside the checked window
NOT_CHECKED_COLOUR = "#dddddd"

#: at most this many Josephus panels (start + rounds) and numbers for panels; else one circle is drawn
MAX_PANELS = 12
MAX_PANEL_N = 24

#: a sequence of more values than this is drawn as one pixel per value (no step line, no round markers): a table of
#: 10^7 values is drawn as fast as it is read, from its array
MAX_MARKED = 5000


def _save(fig: Figure, path: Path) -> Path:
    """Write `fig` as a PNG with no metadata that changes between runs, and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=100, metadata={"Software": None})
    return path


def _grundy_colours(top: int) -> tuple[Colormap, BoundaryNorm]:
    """A discrete colour map for Grundy values 0..top (0, the P-positions, is white; no value, grey).

    >>> cmap, norm = _grundy_colours(3)
    >>> cmap.N, norm.boundaries.tolist()
    (4, [-0.5, 0.5, 1.5, 2.5, 3.5])
    """
    ramp = colormaps["YlGnBu"]
    base = [(1.0, 1.0, 1.0, 1.0)] + [ramp(0.15 + 0.8 * i / max(top - 1, 1)) for i in range(top)]
    return ListedColormap(base).with_extremes(bad=NOT_CHECKED_COLOUR), BoundaryNorm(np.arange(-0.5, top + 1.5), top + 1)


def claims_membership(label: Any) -> bool:
    """Whether the evidence's `claimed` entries are P-position flags (1 or 0) rather than claimed values.

    >>> claims_membership("claimed P-positions"), claims_membership("claimed value")
    (True, False)
    """
    return "P-position" in str(label)


def grid_disagreements(grid: dict) -> np.ndarray:
    """Boolean matrix: where the claimed set or value differs from the game's (False where nothing is claimed).

    With the label "claimed P-positions" a cell disagrees when (Grundy value == 0) differs from the
    claim; otherwise (a claimed value per cell) when the claimed value differs from the Grundy value.
    Cells outside the checked window (Grundy value -1) never disagree.

    >>> grid_disagreements({"grundy": [[0, 1], [1, 0]], "claimed": [[1, 0], [0, 0]],
    ...                     "label": "claimed P-positions"}).tolist()
    [[False, False], [False, True]]
    """
    values = np.array(grid["grundy"], dtype=np.int64)
    claimed = grid.get("claimed")
    if claimed is None:
        return np.zeros(values.shape, dtype=bool)
    known = np.array([[c is not None for c in row] for row in claimed], dtype=bool) & (values >= 0)
    filled = np.array([[0 if c is None else int(c) for c in row] for row in claimed], dtype=np.int64)
    if claims_membership(grid.get("label", "claimed P-positions")):
        return known & ((values == 0) != (filled != 0))
    return known & (values != filled)


def not_checked(grid: dict) -> int:
    """How many cells of a grid lie outside the checked window (Grundy value -1: drawn grey, "not checked").

    >>> not_checked({"grundy": [[0, -1], [1, 0]]})
    1
    """
    return int((np.array(grid["grundy"], dtype=np.int64) < 0).sum())


def plot_grid(grid: dict, marks: list[tuple[int, ...]], path: Path, title: str,
              names: tuple[str, str] = ("x", "y")) -> Path:
    """Heatmap of a 2-D window of Grundy values, the claim drawn over it; write it to `path`.

    `grid` is ``evidence["grid"]``: ``x0``, ``y0``, ``grundy`` (row = x - x0, column = y - y0),
    ``claimed`` (a 0/1 matrix or claimed values, or None) and ``label``. `marks` are the
    counterexample positions (x, y) to cross out.

    >>> import tempfile, os
    >>> g = {"x0": 0, "y0": 0, "grundy": [[0, 1], [1, 0]], "claimed": [[1, 0], [0, 0]],
    ...      "label": "claimed P-positions"}
    >>> p = plot_grid(g, [(1, 1)], Path(tempfile.mkdtemp()) / "g.png", "nim")
    >>> p.stat().st_size > 1000
    True
    """
    values = np.array(grid["grundy"], dtype=np.int64)
    rows, cols = values.shape
    x0, y0 = int(grid.get("x0", 0)), int(grid.get("y0", 0))
    top = max(int(values.max()) if values.size else 0, 0)
    outside = values < 0                                  # not in the checked window
    side = min(9.0, max(4.5, 0.28 * max(rows, cols)))
    fig = Figure(figsize=(side + 2.2, side + 0.9))
    ax = fig.add_axes((0.09, 0.17, 0.66, 0.76))
    cmap, norm = _grundy_colours(top)
    extent = (y0 - 0.5, y0 + cols - 0.5, x0 + rows - 0.5, x0 - 0.5)
    image = ax.imshow(np.ma.masked_array(values, outside), cmap=cmap, norm=norm, extent=extent,
                      interpolation="nearest")
    if rows <= 24 and cols <= 24:
        for i in range(rows):
            for j in range(cols):
                if outside[i, j]:
                    continue
                ax.text(y0 + j, x0 + i, str(values[i, j]), ha="center", va="center", fontsize=7,
                        color="white" if values[i, j] > top * 0.6 and top > 1 else "black")
    handles: list[Artist] = []
    claimed = grid.get("claimed")
    label = str(grid.get("label") or "claimed")
    if claimed is not None and "P-position" in label:
        cells = [(x0 + i, y0 + j) for i, row in enumerate(claimed) for j, c in enumerate(row) if c]
        if cells:
            xs, ys = zip(*cells)
            handles.append(ax.scatter(ys, xs, s=_marker_size(rows, cols, 0.55), marker="o",
                                      facecolors="none", edgecolors=BLUE, linewidths=1.2, label=label))
    wrong = grid_disagreements(grid)
    if wrong.any():
        wrong_x, wrong_y = np.nonzero(wrong)
        handles.append(ax.scatter(wrong_y + y0, wrong_x + x0, s=_marker_size(rows, cols, 0.95), marker="s",
                                  facecolors="none", edgecolors=RED, linewidths=1.0,
                                  label="claim and game disagree"))
    inside = [(x, y) for x, y in marks if x0 <= x < x0 + rows and y0 <= y < y0 + cols]
    if inside:
        xs, ys = zip(*inside)
        handles.append(ax.scatter(ys, xs, s=_marker_size(rows, cols, 0.9), marker="X", color=RED,
                                  edgecolors="black", linewidths=0.6, label="smallest counterexamples"))
    if outside.any():
        handles.append(Patch(facecolor=NOT_CHECKED_COLOUR, edgecolor="#999999", label="not checked (outside the window)"))
    ax.set_xlabel(f"{names[1]} (column)")
    ax.set_ylabel(f"{names[0]} (row)")
    ax.set_title(title, fontsize=10)
    bar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.03, ticks=range(0, top + 1, max(1, (top + 1) // 12)))
    bar.set_label("Grundy value (from the moves)")
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    return _save(fig, path)


def _marker_size(rows: int, cols: int, fraction: float) -> float:
    """Scatter marker area (points^2) covering about `fraction` of a cell's width.

    >>> round(_marker_size(10, 10, 1.0)) > round(_marker_size(60, 60, 1.0))
    True
    """
    cell_points = 0.66 * 72 * min(9.0, max(4.5, 0.28 * max(rows, cols))) / max(rows, cols, 1)
    return max(4.0, (fraction * cell_points) ** 2)


def sequence_disagreements(seq: dict) -> list[int]:
    """Indices into ``seq["grundy"]`` where the claim and the game disagree: a claimed value that differs, or
    for P-position claims (``label`` "claimed P-positions", `claimed` 1 or 0) a claimed P-position with a
    nonzero value or an unclaimed position with value 0.

    >>> sequence_disagreements({"grundy": [0, 1, 0], "claimed": [1, 0, 1], "label": "claimed P-positions"})
    []
    >>> sequence_disagreements({"grundy": [0, 1, 0], "claimed": [1, 1, 0], "label": "claimed P-positions"})
    [1, 2]
    >>> sequence_disagreements({"grundy": [0, 1, 2], "claimed": [0, 1, 1], "label": "claimed value"})
    [2]
    """
    if not seq.get("claimed"):
        return []
    row = grid_disagreements({"grundy": [seq["grundy"]], "claimed": [seq["claimed"]],
                              "label": seq.get("label", "claimed value")})[0]
    return [int(i) for i in np.nonzero(row)[0]]


def plot_sequence(seq: dict, marks: list[int], path: Path, title: str, name: str = "x") -> Path:
    """The Grundy sequence of a 1-D game from ``x0``, claimed values beside it; write it to `path`.

    `seq` is ``evidence["sequence"]``: ``x0``, ``grundy`` and ``claimed`` (values, None where the
    claim says nothing). Disagreements are circled; `marks` (counterexample positions) are crossed.

    >>> import tempfile
    >>> s = {"x0": 0, "grundy": [0, 0, 1, 1, 2], "claimed": [0, 0, 1, 2, 2]}
    >>> plot_sequence(s, [3], Path(tempfile.mkdtemp()) / "s.png", "sub").stat().st_size > 1000
    True

    For P-position claims (``label`` "claimed P-positions") `claimed` holds 1 for a claimed P-position
    and 0 otherwise; claimed P-positions are drawn at value 0 and a disagreement is a claimed P-position
    with a nonzero value or an unclaimed one with value 0.
    """
    values = np.asarray(seq["grundy"], dtype=np.int64)   # a table's array as it is, a list of values converted once
    x0 = int(seq.get("x0", 0))
    xs = np.arange(x0, x0 + len(values))
    width = min(12.0, max(6.0, 0.12 * len(values)))
    fig = Figure(figsize=(width, 4.6))
    ax = fig.add_axes((0.08, 0.25, 0.9, 0.66))
    if len(values) <= MAX_MARKED:
        ax.step(xs, values, where="mid", color="#999999", linewidth=0.8)
        ax.plot(xs, values, "o", color="black", markersize=3.5, label="Grundy value (from the moves)")
    else:   # every value one pixel, rasterised
        ax.plot(xs, values, ",", color="black", rasterized=True, label="Grundy value (from the moves)")
    claimed = seq.get("claimed") or []
    membership = claims_membership(seq.get("label"))   # claimed holds 1 (claimed P) or 0, not values
    if membership:
        pairs = [(x, 0) for x, c in zip(xs, claimed) if c]
    else:
        pairs = [(x, c) for x, c in zip(xs, claimed) if c is not None]
    wrong = [(x0 + i, values[i]) for i in sequence_disagreements(seq)]
    if pairs:
        cx, cy = zip(*pairs)
        ax.plot(cx, cy, "o", markerfacecolor="none", markeredgecolor=BLUE, markersize=7,
                label="claimed P-position" if membership else "claimed value")
    if wrong:
        wx, wy = zip(*wrong)
        ax.plot(wx, wy, "s", markerfacecolor="none", markeredgecolor=RED, markersize=10,
                label="claim and game disagree")
    inside = [x for x in marks if x0 <= x < x0 + len(values)]
    if inside:
        ax.plot(inside, [int(values[x - x0]) for x in inside], "X", color=RED, markeredgecolor="black",
                markersize=10, label="smallest counterexamples")
    ax.set_xlabel(name)
    ax.set_ylabel("Grundy value")
    ax.set_title(title, fontsize=10)
    ax.grid(True, color="#eeeeee")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(handles) if width >= 10 else 2, fontsize=8,
               frameon=False)
    return _save(fig, path)


def removal_rounds(n: int, k: int) -> list[tuple[int, int, int]]:
    """(number, removal index, round) for 1..n in a circle, every k-th removed, in the order removed.

    A round is one pass around the circle: it ends each time the counting passes the largest
    number still standing (a round may remove nothing when k exceeds what is left). The survivor
    comes last, with index n and the round the last removal happened in.

    >>> [r for _, _, r in removal_rounds(10, 3)]
    [1, 1, 1, 2, 2, 3, 3, 4, 5, 5]
    >>> removal_rounds(10, 3)[:3]
    [(3, 1, 1), (6, 2, 1), (9, 3, 1)]
    """

    order = simulate_circle(n, k)
    standing = list(range(1, n + 1))
    start, rnd, out = 0, 1, []
    for index, number in enumerate(order[:-1], start=1):
        rnd += (start + k - 1) // len(standing)
        at = standing.index(number)
        standing.pop(at)
        out.append((number, index, rnd))
        start = at
        if at == len(standing):           # the last one standing was removed: counting goes on from the first
            start, rnd = 0, rnd + 1
    out.append((order[-1], n, out[-1][2] if out else 1))
    return out


def plot_josephus(n: int, k: int, path: Path, title: str) -> Path:
    """The Josephus circle 1..n (every k-th removed), one panel per round; write it to `path`.

    Each panel shows the circle after that round: numbers removed in that round in red with their
    removal index, numbers removed earlier in grey, the survivor in gold in the last panel. A larger
    circle (more than MAX_PANEL_N numbers or MAX_PANELS panels) is drawn once, coloured by round.

    >>> import tempfile
    >>> plot_josephus(10, 3, Path(tempfile.mkdtemp()) / "j.png", "n = 10, k = 3").stat().st_size > 1000
    True
    """
    steps = removal_rounds(n, k)
    last_round = steps[-1][2]
    panels: list[int | None]     # the round each panel shows, None: one panel of the whole elimination
    if last_round + 1 <= MAX_PANELS and n <= MAX_PANEL_N:
        panels, size = list(range(0, last_round + 1)), 2.9
    else:
        panels, size = [None], min(10.0, max(6.0, 0.16 * n))
    cols = min(len(panels), 4)
    rows = math.ceil(len(panels) / cols)
    fig = Figure(figsize=(cols * size, rows * size + 0.5))
    fig.suptitle(title, fontsize=11)
    info = {number: (index, rnd) for number, index, rnd in steps}
    survivor = steps[-1][0]
    for slot, panel in enumerate(panels):
        ax = fig.add_subplot(rows, cols, slot + 1)
        _draw_circle(ax, n, info, survivor, panel, last_round)
    return _save(fig, path)


def _draw_circle(ax, n: int, info: dict, survivor: int, panel: int | None, last_round: int) -> None:
    """One panel: the circle after round `panel` (0: the start; None: every round written in)."""
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_xlim(-1.6, 1.6)
    ax.set_ylim(-1.6, 1.6)
    width = ax.get_position().width * ax.figure.get_figwidth() * 72      # points across 3.2 units
    spacing = 2 * math.pi / n * width / 3.2                               # points between neighbours
    font = max(5.0, min(9.0, 0.42 * spacing))
    diameter = min(font * 2.6, 0.8 * spacing)
    ax.add_patch(_ring())
    for m in range(1, n + 1):
        angle = math.pi / 2 - 2 * math.pi * (m - 1) / n       # 1 at the top, clockwise
        x, y = math.cos(angle), math.sin(angle)
        index, rnd = info[m]
        if panel is None:
            colour = GOLD if m == survivor else colormaps["tab10"]((rnd - 1) % 10)
            note = "survivor" if m == survivor else f"#{index}"
        elif m == survivor and panel == last_round:
            colour, note = GOLD, "survivor"
        elif m != survivor and rnd == panel:
            colour, note = RED, f"#{index}"
        elif m != survivor and rnd < panel:
            colour, note = GREY, ""
        else:
            colour, note = "white", ""
        ax.scatter([x], [y], s=diameter ** 2, color=colour, edgecolors="black", linewidths=0.7, zorder=3)
        ax.text(x, y, str(m), ha="center", va="center", fontsize=min(font, 0.55 * diameter), zorder=4)
        if note:
            reach = 1 + 1.6 * diameter / width + (0.3 if len(note) > 4 else 0.14)
            ax.text(reach * x, reach * y, note, ha="center", va="center", fontsize=font - 1, color="#333333")
    if panel is None:
        ax.set_title("#i: removed i-th; colour: the round (one pass around the circle)", fontsize=9)
        rounds = sorted({rnd for m, (_, rnd) in info.items() if m != survivor})
        handles = [ax.scatter([], [], color=colormaps["tab10"]((r - 1) % 10), edgecolors="black",
                              label=f"round {r}") for r in rounds[:10]]
        ax.legend(handles=handles, loc="center", fontsize=8, frameon=False)
    else:
        ax.set_title("the start" if panel == 0 else f"round {panel}", fontsize=9)


def _ring() -> Circle:
    """The circle the numbers stand on."""
    return Circle((0, 0), 1.0, fill=False, color="#cccccc", linewidth=1.0, zorder=1)
