"""The reference Grundy engine: ground truth from a game's moves only.

It explores every position reachable from the requested ones, builds the game graph as a networkx DiGraph,
refuses a cycle (naming it), and assigns Grundy values by mex in reverse topological order. Graphs with more
than :data:`NETWORKX_EDGE_LIMIT` edges are solved by the same mex recursion over an iterative depth-first
post-order (no networkx, same semantics, far less memory); the differential tests compare the two.
Results are cached in the game instance's ``table``.

>>> from nimjos.games.declared import subtraction
>>> g = subtraction(frozenset({1, 2}))
>>> ReferenceEngine().solve(g, [6]); [g.table[n] for n in range(7)]
[0, 1, 2, 0, 1, 2, 0]
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterable, Iterator

from nimjos.lang.errors import PositionLimitError, ResourceError, SpecError
from nimjos.lang.lazy import import_on_use

#: largest graph (in edges) solved through networkx; larger ones use the iterative post-order
NETWORKX_EDGE_LIMIT = 400_000
#: most positions one solve may explore (the resource guard; `nimjos check --max-positions`)
MAX_POSITIONS = 30_000_000
#: most moves (edges of the game graph) one solve may hold in memory, about 80 bytes each
MAX_EDGES = 40_000_000


def _mex(values: Iterable[int]) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def position_value(misere: bool, option_values: list[int]) -> int:
    """The Grundy value of a position from its options' values: their mex; in misère play a terminal position (no
    option) has the value 1 (Conway, On Numbers and Games, ch. 12), so that the zeros are the misère P-positions.

    >>> position_value(False, []), position_value(True, []), position_value(True, [1]), position_value(True, [0, 2])
    (0, 1, 0, 1)
    """
    if misere and not option_values:
        return 1
    return _mex(option_values)


def _cycle_text(cycle: list) -> str:
    path = [cycle[0][0]] + [e[1] for e in cycle]
    return " -> ".join(repr(p) for p in path)


def cycle_error(game: Any, path_text: str) -> SpecError:
    """The error for a cycle in the game graph of a game that does not say its moves may cycle: it names the cycle
    and says how to state a loopy game.

    >>> from nimjos.games.declared import subtraction
    >>> e = cycle_error(subtraction(frozenset({1})), "1 -> 0 -> 1"); e.hint[:44]
    "if the moves may cycle, add 'loopy = true' t"
    """
    name = getattr(game, "name", str(game))
    return SpecError(f"the game graph of {game.label} has a cycle: {path_text} (a move leads back to an earlier "
                     "position)", item=f"game '{name}'", field="moves",
                     hint=f"if the moves may cycle, add 'loopy = true' to [game.{name}]: its positions then get "
                          "generalized Sprague-Grundy values, and claims may state its P-positions, draws and values "
                          "(docs/spec-format.md, Loopy games)")


class ReferenceEngine:
    """Grundy values by mex over options, from the moves; a networkx game graph for the generic case."""

    name = "reference engine (game graph, mex)"

    def __init__(self, max_positions: int | None = None, networkx_edge_limit: int | None = None,
                 max_edges: int | None = None):
        self.max_positions = max_positions or MAX_POSITIONS
        self.max_edges = max_edges or MAX_EDGES
        self.networkx_edge_limit = NETWORKX_EDGE_LIMIT if networkx_edge_limit is None else networkx_edge_limit
        self.last_method = ""
        self.used: set[str] = set()
        self.asked: set = set()  # the game instances G was asked about since begin_claim
        self.use_fast = True

    def for_claim(self) -> "ReferenceEngine":
        """A new engine with this one's settings (limits, whether fast engines are tried) and none of its record
        (which engines answered, which games were asked about): one claim's engine.

        >>> e = ReferenceEngine(max_positions=7); e.used.add("x"); e.use_fast = False
        >>> c = e.for_claim(); c.max_positions, c.use_fast, c.used
        (7, False, set())
        """
        engine = ReferenceEngine(self.max_positions, self.networkx_edge_limit, self.max_edges)
        engine.use_fast = self.use_fast
        return engine

    def explore(self, game: Any, positions: Iterable[Any]) -> dict[Any, list]:
        """Every position reachable from `positions` whose value is not cached, with its options."""
        table = game.table
        adj: dict[Any, list] = {}
        stack = [p for p in positions if not game.has(p)]
        limit = self.max_positions
        edge_limit = self.max_edges
        edges = 0
        has = game.has
        while stack:
            p = stack.pop()
            if p in adj or p in table or (game.dense is not None and has(p)):
                continue
            opts = game.options(p)
            adj[p] = opts
            edges += len(opts)
            if len(adj) > limit:
                raise PositionLimitError(f"{game.label}: more than {limit:,} positions are reachable from the "
                                         "positions asked for", hint="shrink the window or raise --max-positions")
            if edges > edge_limit:
                raise ResourceError(f"{game.label}: more than {edge_limit:,} moves from the {len(adj):,} positions "
                                    f"reachable so far (about {edge_limit * 80 // 2**20:,} MiB)",
                                    hint="shrink the window")
            stack.extend(opts)
        return adj

    def begin_claim(self) -> None:
        """Start one claim's record of the games G is asked about (cached values stay cached).

        >>> e = ReferenceEngine(); e.asked.add("a game"); e.begin_claim(); e.asked
        set()
        """
        self.asked = set()

    def describe_claim(self) -> str:
        """The engines that computed the values of the games G was asked about since :meth:`begin_claim` (one
        claim's "ground truth"), "" when it was asked about none.

        >>> e = ReferenceEngine()
        >>> e.begin_claim(); e.describe_claim()
        ''
        """
        return ", ".join(sorted(set().union(*(g.solved_by for g in self.asked))))

    def describe_last(self) -> str:
        """Which engines have answered so far in this process (for a verdict's scope)."""
        return ", ".join(sorted(self.used)) if self.used else self.name

    def solve(self, game: Any, positions: Iterable[Any]) -> None:
        """Compute and cache the Grundy value of every position reachable from `positions`.

        A fast engine (nimjos.games.fast, imported at the first solve: numpy and the compiled kernels are not
        loaded to read a spec) is tried first; it answers only for games whose declared moves have a shape it
        recognises, and otherwise leaves the work to the reference engine.
        """
        if getattr(game, "loopy", False):
            raise SpecError(f"{game.label} is a loopy game (its moves may cycle): it has no Grundy values, only "
                            "generalized Sprague-Grundy values", item=f"game '{game.name}'", field="loopy")
        positions = [p for p in positions if not game.has(p)]
        if not positions:
            return
        if self.use_fast:
            name = import_on_use("nimjos.games.fast").solve_fast(game, positions, self)
            if name:
                self.used.add(name)
                game.solved_by.add(name)
                return
        adj = self.explore(game, positions)
        if not adj:
            return
        edges = sum(len(v) for v in adj.values())
        if edges <= self.networkx_edge_limit:
            self._solve_networkx(game, adj)
            self.last_method = "reference engine (networkx game graph, mex)"
        else:
            self._solve_postorder(game, adj)
            self.last_method = "reference engine (game graph by iterative post-order, mex)"
        self.used.add(self.last_method)
        game.solved_by.add(self.last_method)

    def _solve_networkx(self, game: Any, adj: dict[Any, list]) -> None:
        nx = import_on_use("networkx")   # about 0.1 s to import: not on the path that only reads a spec
        graph = nx.DiGraph()
        graph.add_nodes_from(adj)
        for p, opts in adj.items():
            for q in opts:
                graph.add_edge(p, q)
        try:
            order = list(nx.topological_sort(graph))
        except nx.NetworkXUnfeasible:
            raise cycle_error(game, _cycle_text(nx.find_cycle(graph))) from None
        table = game.table
        misere = game.play == "misere"
        for p in reversed(order):
            if p in table or p not in adj:
                continue
            table[p] = position_value(misere, [game.lookup(q) for q in adj[p]])

    def _solve_postorder(self, game: Any, adj: dict[Any, list]) -> None:
        table = game.table
        misere = game.play == "misere"
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
                    if q in table or q not in adj:
                        continue
                    st = state.get(q)
                    if st == 1:
                        path = [s for s, _ in stack]
                        cyc = path[path.index(q):] + [q]
                        raise cycle_error(game, " -> ".join(repr(c) for c in cyc))
                    if st is None:
                        state[q] = 1
                        stack.append((q, iter(adj[q])))
                        advanced = True
                        break
                if not advanced:
                    stack.pop()
                    table[p] = position_value(misere, [game.lookup(q) for q in adj[p]])
                    state[p] = 2


_DEFAULT: list[ReferenceEngine] = []
#: the engine of the claim being checked (set by :func:`using_engine`, from the claim's context)
_ACTIVE_ENGINE: ContextVar[ReferenceEngine | None] = ContextVar("claim engine", default=None)


def default_engine() -> ReferenceEngine:
    """The process's engine: it holds the run's settings (``--max-positions``), which each claim's engine
    copies (:meth:`ReferenceEngine.for_claim`), and it answers outside a claim's check (``nimjos grundy``).

    >>> default_engine() is default_engine()
    True
    """
    if not _DEFAULT:
        _DEFAULT.append(ReferenceEngine())
    return _DEFAULT[0]


def active_engine() -> ReferenceEngine:
    """The engine G() and the checkers ask: the claim's own while a claim is checked (:func:`using_engine`),
    else the process's :func:`default_engine`.

    >>> mine = default_engine().for_claim()
    >>> with using_engine(mine):
    ...     active_engine() is mine
    True
    >>> active_engine() is default_engine()
    True
    """
    return _ACTIVE_ENGINE.get() or default_engine()


@contextmanager
def using_engine(engine: ReferenceEngine) -> Iterator[ReferenceEngine]:
    """In the body, G() and the game instances ask `engine` (one claim's): the per-claim context installs it.

    >>> e = ReferenceEngine(max_positions=5)
    >>> with using_engine(e):
    ...     active_engine().max_positions
    5
    """
    token = _ACTIVE_ENGINE.set(engine)
    try:
        yield engine
    finally:
        _ACTIVE_ENGINE.reset(token)


@contextmanager
def positions_at_most(limit: int) -> Iterator[ReferenceEngine]:
    """In the body, a solve of the active engine explores at most `limit` positions (or fewer, when its own guard is
    lower) and raises :class:`ResourceError` past them: the guard of a point's value asked beyond the window, where
    a declared game with no measure may never end (a move ``x -> x + 1`` from every x >= 100).

    >>> with positions_at_most(50):
    ...     active_engine().max_positions
    50
    >>> active_engine().max_positions == default_engine().max_positions
    True
    """
    engine = active_engine()
    before = engine.max_positions
    engine.max_positions = min(before, limit)
    try:
        yield engine
    finally:
        engine.max_positions = before


def set_max_positions(limit: int) -> None:
    """Set the resource guard of the process's engine (positions one solve may explore), which the engines of
    the claims checked afterwards copy (the run's ``--max-positions``).

    >>> before = default_engine().max_positions
    >>> set_max_positions(1_000); default_engine().for_claim().max_positions
    1000
    >>> set_max_positions(before)
    """
    default_engine().max_positions = limit
