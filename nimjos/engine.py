"""The reference Grundy engine: ground truth from a game's moves only.

It explores every position reachable from the requested ones, builds the game graph as a networkx DiGraph,
refuses a cycle (naming it), and assigns Grundy values by mex in reverse topological order. Graphs with more
than :data:`NETWORKX_EDGE_LIMIT` edges are solved by the same mex recursion over an iterative depth-first
post-order (no networkx, same semantics, far less memory); the differential tests compare the two.
Results are cached in the game instance's ``table``.

>>> from nimjos.games import subtraction
>>> g = subtraction(frozenset({1, 2}))
>>> ReferenceEngine().solve(g, [6]); [g.table[n] for n in range(7)]
[0, 1, 2, 0, 1, 2, 0]
"""
from __future__ import annotations

from typing import Any, Iterable

import networkx as nx

from .errors import ResourceError, SpecError

#: largest graph (in edges) solved through networkx; larger ones use the iterative post-order
NETWORKX_EDGE_LIMIT = 400_000
#: most positions one solve may explore (the resource guard; `nimjos check --max-positions`)
MAX_POSITIONS = 30_000_000


def _mex(values: Iterable[int]) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def _cycle_text(cycle: list) -> str:
    path = [cycle[0]] + [v for _, v in ((e[0], e[1]) for e in cycle)]
    return " -> ".join(repr(p) for p in path)


class ReferenceEngine:
    """Grundy values by mex over options, from the moves; a networkx game graph for the generic case."""

    name = "reference engine (game graph, mex)"

    def __init__(self, max_positions: int | None = None, networkx_edge_limit: int | None = None):
        self.max_positions = max_positions or MAX_POSITIONS
        self.networkx_edge_limit = NETWORKX_EDGE_LIMIT if networkx_edge_limit is None else networkx_edge_limit
        self.last_method = ""

    def explore(self, game: Any, positions: Iterable[Any]) -> dict[Any, list]:
        """Every position reachable from `positions` whose value is not cached, with its options."""
        table = game.table
        adj: dict[Any, list] = {}
        stack = [p for p in positions if p not in table]
        limit = self.max_positions
        while stack:
            p = stack.pop()
            if p in adj or p in table:
                continue
            opts = game.options(p)
            adj[p] = opts
            if len(adj) > limit:
                raise ResourceError(f"{game.label}: more than {limit:,} positions are reachable from the window",
                                    hint="shrink the window or raise --max-positions")
            stack.extend(opts)
        return adj

    def solve(self, game: Any, positions: Iterable[Any]) -> None:
        """Compute and cache the Grundy value of every position reachable from `positions`."""
        adj = self.explore(game, positions)
        if not adj:
            return
        edges = sum(len(v) for v in adj.values())
        if edges <= self.networkx_edge_limit:
            self._solve_networkx(game, adj)
            self.last_method = "networkx game graph"
        else:
            self._solve_postorder(game, adj)
            self.last_method = "iterative post-order"

    def _solve_networkx(self, game: Any, adj: dict[Any, list]) -> None:
        graph = nx.DiGraph()
        graph.add_nodes_from(adj)
        for p, opts in adj.items():
            for q in opts:
                graph.add_edge(p, q)
        try:
            order = list(nx.topological_sort(graph))
        except nx.NetworkXUnfeasible:
            cycle = nx.find_cycle(graph)
            raise SpecError(f"the game graph of {game.label} has a cycle: {_cycle_text(cycle)} "
                            "(a move leads back to an earlier position)", field="moves") from None
        table = game.table
        for p in reversed(order):
            if p in table:
                continue
            table[p] = _mex(map(table.__getitem__, adj[p]))

    def _solve_postorder(self, game: Any, adj: dict[Any, list]) -> None:
        table = game.table
        state: dict[Any, int] = {}  # 1 = on the stack, 2 = done
        for root in adj:
            if root in table:
                continue
            stack = [(root, iter(adj[root]))]
            state[root] = 1
            while stack:
                p, it = stack[-1]
                advanced = False
                for q in it:
                    if q in table:
                        continue
                    st = state.get(q)
                    if st == 1:
                        path = [s for s, _ in stack]
                        cyc = path[path.index(q):] + [q]
                        raise SpecError(f"the game graph of {game.label} has a cycle: "
                                        + " -> ".join(repr(c) for c in cyc)
                                        + " (a move leads back to an earlier position)", field="moves")
                    if st is None:
                        state[q] = 1
                        stack.append((q, iter(adj[q])))
                        advanced = True
                        break
                if not advanced:
                    stack.pop()
                    table[p] = _mex(map(table.__getitem__, adj[p]))
                    state[p] = 2


_DEFAULT: list[ReferenceEngine] = []


def default_engine() -> ReferenceEngine:
    """The engine used by G() and the checkers (one per process)."""
    if not _DEFAULT:
        _DEFAULT.append(ReferenceEngine())
    return _DEFAULT[0]


def set_max_positions(limit: int) -> None:
    """Set the resource guard of the default engine (positions one solve may explore)."""
    default_engine().max_positions = limit
