"""Games: declared by move families in a spec, or built in (generalized cyclic Nimhoff, subtraction games).

A :class:`GameDecl` is a game as declared (`[game.NAME]`); calling it with its params gives a
:class:`GameInstance`, whose :meth:`~GameInstance.options` lists the positions one move away and whose
:meth:`~GameInstance.grundy` asks the engine for the Grundy value.

>>> from nimjos.lang.compiler import Namespace
>>> ns = Namespace()
>>> sub23 = GameDecl.declare("sub23", {"position": ["n"], "moves": [
...     {"to": "n - s", "where": "s in {2, 3} and s <= n"}]}, ns)
>>> g = sub23.instance(())
>>> sorted(g.options(5)), [g.grundy(n) for n in range(8)]
([2, 3], [0, 0, 1, 1, 2, 0, 0, 1])
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from nimjos.lang.binders import Binder
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import parse, unknown_name_error
from nimjos.lang.values import format_value
from nimjos.words import Play
from nimjos.games.engine import active_engine
from nimjos.games.linear_moves import LinearFamily, NotLinear
from nimjos.games.loopy import Solution, solve

#: the most options one move family may list at one position (a count): more is refused with a ResourceError
#: before any list is built, so that no caller (the engines, the resource guard's walk) runs out of memory
MAX_FAMILY_OPTIONS = 10_000_000

@dataclass
class MoveFamily:
    """One declared family of moves: ``to`` over the bindings of ``where``."""

    to_text: str
    where_text: str
    to: Callable
    binder: Binder
    index: int
    to_tree: ast.expr
    #: listed a block at a time when its innermost bound name enters linearly (nimjos.games.linear_moves)
    linear: LinearFamily | None = None


#: the play conventions of a game: normal (the player who cannot move loses) and misère (the player who cannot
#: move wins: a terminal position is an N-position)
NORMAL, MISERE = Play.NORMAL, Play.MISERE
PLAYS = (NORMAL, MISERE)


def play_of(table: dict) -> str:
    """The play convention a `[game.NAME]` table declares (``play = "misere"``; normal play when absent).

    >>> play_of({}), play_of({"play": "misere"})
    ('normal', 'misere')
    >>> play_of({"play": "misère"})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: field 'play': unknown play convention 'misère' (play is "normal" or "misere")
    """
    play = table.get("play", NORMAL)
    if play not in PLAYS:
        raise SpecError(f"unknown play convention {play!r} (play is \"normal\" or \"misere\")", field="play")
    return play


def loopy_of(table: dict, play: str = NORMAL) -> bool:
    """Whether a `[game.NAME]` table says its moves may cycle (``loopy = true``; false when absent). A loopy game's
    positions get generalized Sprague-Grundy values (:mod:`nimjos.games.loopy`), in normal play only.

    >>> loopy_of({}), loopy_of({"loopy": True})
    (False, True)
    >>> loopy_of({"loopy": True}, MISERE)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: field 'loopy': a loopy game in misère play is not supported (the generalized Sprague-Grundy values are those of normal play)
    """
    loopy = bool(table.get("loopy", False))
    if loopy and play != NORMAL:
        raise SpecError("a loopy game in misère play is not supported (the generalized Sprague-Grundy values are "
                        "those of normal play)", field="loopy")
    return loopy


class GameInstance:
    """A game with all params fixed. Positions are ints (1-D) or tuples; options come from the moves.

    Its values (``table``, ``dense``, :meth:`grundy`) are the Grundy values of its play convention, ``play``: in
    normal play the mex of the options' values, in misère play (``play == MISERE``) the misère Grundy value (1 at a
    terminal position, the mex of the options' values elsewhere), whose zeros are the misère P-positions."""

    #: the play convention: NORMAL, or MISERE (the engines value terminal positions 1, the nim-sum rule is void)
    play: str = NORMAL
    #: every play from every position ends (the built-in games do; a declared game's moves are not known to: a move
    #: x -> x + 1 never ends). The local certificate's failure shows a wrong label only in a game that ends.
    ends: bool = True
    #: the moves may cycle (``loopy = true``): no Grundy values, generalized Sprague-Grundy values instead
    #: (:mod:`nimjos.games.loopy`, asked through :meth:`loopy_values`)
    loopy: bool = False

    def __init__(self, name: str, dim: int, coords: tuple[str, ...], params: dict[str, Any], label: str):
        self.name = name
        self.dim = dim
        self.coords = coords
        self.params = params
        self.label = label
        self.table: dict[Any, int] = {}  # Grundy values computed so far (filled by an engine)
        self.dense: Any = None  # optional array of Grundy values filled by a fast engine (index = position)
        self.solved_by: set[str] = set()  # names of the engines that computed values of this instance
        self.options_kept: dict[Any, frozenset] = {}  # position -> options, kept by nimjos.games.functions.options
        self.options_kept_count = 0  # the options kept, in all

    def lookup(self, position: Any) -> int:
        """The computed Grundy value of a normalised position (KeyError when not computed yet)."""
        dense = self.dense
        if dense is not None:
            try:
                if self.dim == 1:
                    if 0 <= position < len(dense):
                        v = int(dense[position])
                        if v >= 0:
                            return v
                elif all(0 <= c < n for c, n in zip(position, dense.shape)):
                    v = int(dense[position])
                    if v >= 0:
                        return v
            except (TypeError, IndexError):
                pass
        return self.table[position]

    def filled_through(self, corner: Any) -> Any:
        """The game's own dense table of values (``dense``) covering every position from 0 up to ``corner`` (an int,
        or a tuple of the largest coordinates), when the game computes one itself; None when an engine must solve
        it first (the default). A heap game grows its sequence here (compiled kernels), so that a window's values
        are read from one array, with no Python object per position.

        >>> from nimjos.games.declared import subtraction
        >>> subtraction(frozenset({1, 2})).filled_through(5) is None
        True
        """
        return None

    def has(self, position: Any) -> bool:
        """Is the Grundy value of this normalised position computed?"""
        try:
            self.lookup(position)
            return True
        except KeyError:
            return False

    # -- to be provided by subclasses
    def options(self, position: Any) -> list:
        raise NotImplementedError

    def normalise(self, position: Any) -> Any:
        """Check a position's shape and sign; return it as an int (1-D) or a tuple."""
        if self.dim == 1:
            if isinstance(position, tuple) and len(position) == 1:
                position = position[0]
            if type(position) is not int:
                raise EvalError(f"{self.label}: a position is a non-negative integer, got {position!r}")
            if position < 0:
                raise EvalError(f"{self.label}: position {position} is negative")
            return position
        if not isinstance(position, tuple) or len(position) != self.dim:
            raise EvalError(f"{self.label}: a position is a tuple of {self.dim} integers, got {position!r}")
        for c in position:
            if type(c) is not int:
                raise EvalError(f"{self.label}: a position has integer coordinates, got {position!r}")
            if c < 0:
                raise EvalError(f"{self.label}: position {position} has a negative coordinate")
        return position

    def grundy(self, position: Any) -> int:
        """The Grundy value of a position (mex over options), computed by the engine and cached."""
        position = self.normalise(position)
        try:
            return self.lookup(position)
        except KeyError:
            active_engine().solve(self, [position])
            return self.lookup(position)

    def loopy_values(self, positions: Iterable[Any], limit: int) -> Solution:
        """The generalized Sprague-Grundy values of `positions` and every position reachable from them, over the
        game graph explored up to `limit` positions (a :class:`nimjos.games.loopy.Solution`: positions that can
        reach an unexplored one are undecided). Each call explores afresh: nothing is cached between windows.

        >>> g = subtraction(frozenset({1, 2})); s = g.loopy_values([4], 100)
        >>> [s.values[n] for n in range(5)], s.undecided
        ([0, 1, 2, 0, 1], set())
        """
        return solve(self.options, positions, limit)

    def __repr__(self) -> str:
        return self.label


class DeclaredGame(GameInstance):
    """An instance of a game declared by move families in a spec."""

    ends = False     # its moves are the spec's: nothing here shows that every play ends (a prover's measure may)

    def __init__(self, decl: "GameDecl", param_values: tuple):
        params = dict(zip(decl.params, param_values))
        label = decl.name + (f"({', '.join(f'{k}={format_value(v)}' for k, v in params.items())})" if params else "")
        super().__init__(decl.name, len(decl.position), tuple(decl.position), params, label)
        self.decl = decl
        self.play = decl.play
        self.loopy = decl.loopy

    def options(self, position: Any) -> list:
        decl = self.decl
        env = dict(self.params)
        if self.dim == 1:
            env[decl.position[0]] = position
        else:
            for c, v in zip(decl.position, position):
                env[c] = v
        out: list = []
        for fam in decl.moves:
            start = len(out)
            try:
                if fam.linear is not None:
                    try:
                        self._linear_options(fam, fam.linear, env, out, position)
                        continue
                    except NotLinear:
                        del out[start:]   # a value is not an integer: listed value by value, which says so
                for e in fam.binder.bindings(env):
                    out.append(fam.to(e))
            except EvalError as exc:
                raise SpecError(f"move {fam.index + 1} ({fam.to_text!r}) cannot be evaluated at position "
                                f"{position!r}: {exc}", item=f"game '{decl.name}'", field="moves") from None
            for j in range(start, len(out)):
                if not self._shaped(out[j]):
                    self._check_option(position, out[j], decl, fam)
        return out

    def _shaped(self, q: Any) -> bool:
        """Is `q` a position of this game (an integer, or a tuple of dim integers), none negative, at a glance?
        (:meth:`_check_option` says what is wrong with one that is not.)"""
        if self.dim == 1:
            return type(q) is int and q >= 0
        return type(q) is tuple and len(q) == self.dim and min(q) >= 0

    def _linear_options(self, fam: MoveFamily, linear: LinearFamily, env: dict, out: list, position: Any) -> None:
        """Append the options of a family listed a block at a time (:mod:`nimjos.games.linear_moves`). Each block's
        coordinates take their extremes at its ends: when an end is not a position, :class:`NotLinear` (the caller
        lists the family value by value, and reports the first option that is not a position, in order)."""
        for a, b, n in linear.blocks(fam.binder, env):
            if n > MAX_FAMILY_OPTIONS:
                raise ResourceError(f"move family {fam.index + 1} gives {n:,} options at position "
                                    f"{format_value(position)} (the limit is {MAX_FAMILY_OPTIONS:,})")
            if not (self._shaped(linear.option(a)) and self._shaped(linear.option([x + y * (n - 1) for x, y in zip(a, b)]))):
                raise NotLinear   # listed value by value, which names the first option that is not a position
            linear.extend(out, a, b, n)

    def _check_option(self, position: Any, q: Any, decl: "GameDecl", fam: "MoveFamily | None" = None) -> None:
        if fam is not None:
            k = len(q) if isinstance(q, tuple) else 1 if isinstance(q, int) else None
            if k is not None and k != self.dim:
                raise SpecError(f"move {fam.index + 1} of game {decl.name} gives {k} coordinate{'s' if k != 1 else ''} "
                                f"at position {format_value(position)} (the option {format_value(q)}); the position "
                                f"has {self.dim}", item=f"game '{decl.name}'", field="moves")
        bad = None
        if self.dim == 1:
            if type(q) is not int:
                bad = f"an option {q!r} is not an integer"
            elif q < 0:
                bad = f"the option {q} is negative"
        else:
            if not isinstance(q, tuple) or len(q) != self.dim or any(type(c) is not int for c in q):
                bad = f"an option {q!r} is not a tuple of {self.dim} integers"
            elif any(c < 0 for c in q):
                bad = f"the option {q!r} has a negative coordinate"
        if bad:
            raise SpecError(f"at position {position!r}, {bad} (positions must be non-negative integers)",
                            item=f"game '{decl.name}'", field="moves")


def arity(node: ast.AST, coords: tuple[str, ...] = ()) -> int | None:
    """How many coordinates an expression for a position gives, when its text says (a tuple literal, a number,
    a concatenation or an if-else of such); None when only its value can tell (a call such as ``sorted(...)``).

    >>> [arity(parse(t), ("x",)) for t in ("(x - 1, 2)", "x - 1", "sorted((x, 1))", "(x,) + (1, 2)")]
    [2, 1, None, 3]
    """
    if isinstance(node, (ast.Tuple, ast.List)):
        return len(node.elts)
    if isinstance(node, (ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp)):
        return 1
    if isinstance(node, ast.Name):
        return 1 if node.id in coords else None  # a coordinate is a number
    if isinstance(node, ast.IfExp):
        a, b = arity(node.body, coords), arity(node.orelse, coords)
        return a if a == b else None
    if isinstance(node, ast.BinOp):
        a, b = arity(node.left, coords), arity(node.right, coords)
        if isinstance(node.op, ast.Add):
            if a is not None and b is not None and (a > 1 or b > 1 or isinstance(node.left, ast.Tuple)
                                                    or isinstance(node.right, ast.Tuple)):
                return a + b
            return 1 if a == 1 and b == 1 else None
        return 1 if 1 in (a, b) else None
    return None


def _what(node: ast.AST) -> str:
    """What a move's `to` is, in words, for an error message."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return f"a call to {node.func.id}"
    return repr(ast.unparse(node))


def _check_arity(to_tree: ast.AST, game: str, i: int, position: tuple[str, ...]) -> None:
    """Refuse, at load, a move whose `to` gives a number of coordinates other than the position's, where the text
    says how many (a tuple literal, a number, an if-else of such); a `to` that only its value can count (a call
    to sorted, a definition) is checked at evaluation.

    >>> _check_arity(parse("(x - t, t)"), "g", 0, ("x",))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: move 1 of game g gives 2 coordinates; the position has 1 (position = ["x"]: 'to' is a number for a 1-D game)
    """
    dim = len(position)
    branches = [to_tree.body, to_tree.orelse] if isinstance(to_tree, ast.IfExp) else [to_tree]
    for node in branches:
        k = arity(node, position)
        if k is not None and k != dim:
            names = ", ".join(f'"{c}"' for c in position)
            raise SpecError(f"move {i + 1} of game {game} gives {k} coordinate{'s' if k != 1 else ''}; the position "
                            f"has {dim}",
                            hint=f"position = [{names}]: " + ("'to' is a number for a 1-D game" if dim == 1 else
                                                              f"'to' must be a tuple of {dim} coordinates"))


class GameDecl:
    """A game declared in a spec: name, params, position coordinates and move families."""

    def __init__(self, name: str, title: str, params: tuple[str, ...], position: tuple[str, ...],
                 moves: list[MoveFamily], measure: tuple[str, ...] = (), play: str = NORMAL, domain: str = "",
                 loopy: bool = False):
        self.name = name
        #: the positions the game is played on (``domain = "a < b < c"``), a condition over the params and the
        #: coordinates; empty: every position. ``nimjos discover`` fits on it; a claim states its own ``for_all``
        self.domain = domain
        #: the play convention of the game's instances (NORMAL or MISERE)
        self.play = play
        #: the moves may cycle (``loopy = true``): the instances have generalized Sprague-Grundy values
        self.loopy = loopy
        self.title = title
        self.params = params
        self.position = position
        self.moves = moves
        #: the spec's termination measure (``measure = "2*x + y"``, or a list compared lexicographically), each
        #: expression over the params and the coordinates; empty: none given. A prover relies on it only after
        #: proving that every move decreases it and that it is bounded below on the claim's domain.
        self.measure = measure
        self.measure_trees = tuple(parse(t) for t in measure)
        self._instances: dict[tuple, DeclaredGame] = {}

    @classmethod
    def declare(cls, name: str, table: dict, ns: Namespace) -> "GameDecl":
        """Compile a `[game.NAME]` table (already checked for field names and types)."""
        params = tuple(table.get("params", ()))
        position = tuple(table["position"])
        for n in params + position:
            if not isinstance(n, str) or not n.isidentifier() or n.startswith("_"):
                raise SpecError(f"{n!r} is not a valid name", field="params" if n in params else "position")
        if len(set(params + position)) != len(params + position):
            raise SpecError("a name is used twice among params and position", field="position")
        outer = set(params) | set(position)
        moves = []
        for i, mv in enumerate(table["moves"]):
            try:
                where_tree = parse(mv.get("where", "True"))
                binder = Binder(where_tree, ns, outer, text=mv.get("where", "True"), coords=position)
                to_tree = parse(mv["to"])
                variables = outer | set(binder.names)
                unknown = [n for n in variables_of(to_tree, ns) if n not in variables]
                if unknown:
                    raise unknown_name_error(to_tree, unknown[0], variables | ns.known(), where=f"move {i + 1}")
                to = compile_tree(to_tree, ns, variables)
                _check_arity(to_tree, name, i, position)
            except SpecError as exc:
                raise exc.located(item=f"game '{name}'", field=f"moves[{i}]") from None
            fam = MoveFamily(mv["to"], mv.get("where", "True"), to, binder, i, to_tree)
            fam.linear = LinearFamily.of(binder, to_tree, ns, variables)
            moves.append(fam)
        play = play_of(table)
        return cls(name, table.get("title", name), params, position, moves, _measure(table, ns, outer),
                   play, _domain(table, ns, outer), loopy_of(table, play))

    def instance(self, values: tuple) -> DeclaredGame:
        """The instance with these param values (shared: one cache per distinct params)."""
        try:
            inst = self._instances.get(values)
        except TypeError:
            raise EvalError(f"params of {self.name} must be numbers, tuples, sets or functions") from None
        if inst is None:
            inst = DeclaredGame(self, values)
            self._instances[values] = inst
        return inst

    def __call__(self, *values: Any) -> DeclaredGame:
        if len(values) != len(self.params):
            raise EvalError(f"game {self.name} takes {len(self.params)} params ({', '.join(self.params)}), "
                            f"got {len(values)}")
        return self.instance(tuple(values))

    def __repr__(self) -> str:
        return self.name


def _measure(table: dict, ns: Namespace, names: set[str]) -> tuple[str, ...]:
    """The texts of a game's ``measure`` field (one expression, or a non-empty list of them, compared
    lexicographically), each naming only the game's params and coordinates and the language's built-ins.

    >>> _measure({"measure": ["x + y", "x"]}, Namespace(), {"x", "y"})
    ('x + y', 'x')
    >>> _measure({"measure": "x + t"}, Namespace(), {"x", "y"})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: field 'measure': the measure names t, which is neither a param nor a coordinate of the game
    """
    raw = table.get("measure", ())
    texts = (raw,) if isinstance(raw, str) else tuple(raw)
    if "measure" in table and (not texts or any(not isinstance(t, str) for t in texts)):
        raise SpecError("a measure is an expression or a non-empty list of expressions (strings)", field="measure")
    for text in texts:
        names_only(text, ns, names, "measure")
    return texts


def _domain(table: dict, ns: Namespace, names: set[str]) -> str:
    """The text of a game's ``domain`` field (a condition naming only the game's params and coordinates and the
    language's built-ins), or "" when it has none.

    >>> _domain({"domain": "a < b < c"}, Namespace(), {"a", "b", "c"})
    'a < b < c'
    >>> _domain({"domain": "a < d"}, Namespace(), {"a", "b"})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: field 'domain': the domain names d, which is neither a param nor a coordinate of the game
    """
    text = table.get("domain", "")
    if text:
        names_only(text, ns, names, "domain")
    return text


def names_only(text: str, ns: Namespace, names: set[str], field: str) -> None:
    """Refuse the expression ``text`` of a game's field when it names something other than ``names`` and the
    language's built-ins.

    >>> names_only("x <= y", Namespace(), {"x", "y"}, "domain")
    >>> names_only("x <= t", Namespace(), {"x", "y"}, "domain")
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: field 'domain': the domain names t, which is neither a param nor a coordinate of the game
    """
    unknown = [n for n in variables_of(parse(text), ns) if n not in names]
    if unknown:
        raise SpecError(f"the {field} names {unknown[0]}, which is neither a param nor a coordinate of the game",
                        field=field)


def normal_play(inst: GameInstance, asked: str) -> GameInstance:
    """`inst` when it is in normal play; a misère game is refused with a spec error that says what to ask instead,
    so that no normal-play Grundy value (or nim-sum) of a misère game is ever answered silently. `asked`: what was
    asked, for the message.

    >>> g = subtraction(frozenset({1})); normal_play(g, "G") is g
    True
    """
    if inst.play != NORMAL:
        raise SpecError(f"{asked} asks a normal-play Grundy value of {inst.label}, a game in misère play",
                        hint="a misère claim states its P-positions (p_positions = ...), or names the misère Grundy "
                             "value: misere_grundy(GAME, position)")
    if inst.loopy:
        raise SpecError(f"{asked} asks a Grundy value of {inst.label}, a loopy game (its moves may cycle): it has "
                        "generalized Sprague-Grundy values instead",
                        hint="a claim on a loopy game states its P-positions (p_positions = ...), its draws "
                             "(draws = ...) or its generalized values (grundy = ..., a set K for ∞(K))")
    return inst


def as_instance(game: Any) -> GameInstance:
    """The game instance a value denotes: an instance, or a declared game without params.

    >>> as_instance(3)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: 3 is not a game
    """
    if isinstance(game, GameInstance):
        return game
    if isinstance(game, GameDecl):
        if game.params:
            raise EvalError(f"game {game.name} needs its params: {game.name}({', '.join(game.params)})")
        return game.instance(())
    raise EvalError(f"{game!r} is not a game")


# ----------------------------------------------------------------------------- built-in game families

def subtraction_set(S: Any) -> Any:
    """A subtraction set as every engine reads it: a truth value among its members is the integer 0 or 1, as
    everywhere in the language (``{True, 2} == {1, 2}``); ranges and predicates as given.

    >>> sorted(subtraction_set(frozenset({True, 2}))), subtraction_set((False, 3))
    ([1, 2], (0, 3))
    """
    if isinstance(S, (frozenset, set)):
        return frozenset(int(s) if type(s) is bool else s for s in S)
    if isinstance(S, tuple):
        return tuple(int(s) if type(s) is bool else s for s in S)
    return S


def _members(S: Any, upto: int) -> Iterable[int]:
    """The elements s of a subtraction set S with 1 <= s <= upto (S: finite set, range or predicate)."""
    if isinstance(S, (frozenset, set, tuple, range)):
        return sorted(s for s in S if type(s) is int and 1 <= s <= upto)
    if callable(S):
        return [s for s in range(1, upto + 1) if S(s)]
    raise EvalError(f"a subtraction set must be a set, range or predicate, got {S!r}")


class PythonGame(GameInstance):
    """A built-in game family: options computed by a Python function of the position."""

    #: the shared instance of each built-in game (by name and params), with its table of Grundy values: values
    #: computed from the moves, the same whoever asks first. (The engine's limit on positions counts only the
    #: positions not yet in the table: see checkers/context.py on what remains shared.)
    _cache: dict[tuple, "PythonGame"] = {}

    def __init__(self, name: str, dim: int, params: dict[str, Any], label: str, options_fn: Callable):
        coords = ("x",) if dim == 1 else tuple(f"x{i + 1}" for i in range(dim))
        super().__init__(name, dim, coords, params, label)
        self._options_fn = options_fn

    def options(self, position: Any) -> list:
        return self._options_fn(position)


def _shared(key: tuple, make: Callable[[], PythonGame]) -> PythonGame:
    try:
        inst = PythonGame._cache.get(key)
    except TypeError:
        raise EvalError("game params must be numbers, tuples, sets or functions") from None
    if inst is None:
        inst = make()
        PythonGame._cache[key] = inst
    return inst


def subtraction(S: Any) -> PythonGame:
    """Subtraction(S) on one heap: remove s tokens for some s in S (a finite set, a range, or a predicate
    such as ``lambda s: s % 4 != 0`` for an all-but game).

    >>> g = subtraction(frozenset({2, 3})); [g.grundy(n) for n in range(6)]
    [0, 0, 1, 1, 2, 0]
    """
    S = subtraction_set(S)

    def opts(n: int) -> list:
        return [n - s for s in _members(S, n)]
    return _shared(("subtraction", S), lambda: PythonGame("subtraction", 1, {"S": S}, f"subtraction({format_value(S)})", opts))


def gcn(h: Any, sets: Any) -> PythonGame:
    """Generalized cyclic Nimhoff GCN(h; S_1, ..., S_n) of 004 Definition 2.1, with n = len(sets) heaps:
    remove s_i in S_i from one heap i, or remove s_i >= 0 from each heap i with 0 < s_1 + ... + s_n < h.
    Each S_i is a finite set, a range or a predicate.

    >>> g = gcn(2, (lambda s: True, lambda s: True)); g.grundy((1, 1)), g.grundy((2, 3))
    (0, 1)
    >>> gcn(3, (frozenset({2}),)).grundy((4,))  # one heap: a position is an integer, as in any 1-D game
    1
    """
    if type(h) is not int or h < 1:
        raise EvalError(f"gcn needs a positive integer h, got {h!r}")
    if not isinstance(sets, tuple) or not sets:
        raise EvalError("gcn needs a tuple of subtraction sets (S_1, ..., S_n)")
    sets = tuple(subtraction_set(S) for S in sets)
    n = len(sets)

    def opts(position: Any) -> list:
        pos = (position,) if n == 1 else position  # one heap: the position is an integer
        out = []
        for i, S in enumerate(sets):
            for s in _members(S, pos[i]):
                out.append(pos[:i] + (pos[i] - s,) + pos[i + 1:])
        # Y: s_i >= 0 with 0 < sum < h, s_i <= x_i
        def rec(i: int, left: int, acc: tuple) -> None:
            if i == n:
                if 0 < h - 1 - left:
                    out.append(tuple(p - a for p, a in zip(pos, acc)))
                return
            for s in range(0, min(left, pos[i]) + 1):
                rec(i + 1, left - s, acc + (s,))
        rec(0, h - 1, ())
        return [q[0] for q in out] if n == 1 else out

    return _shared(("gcn", h, sets), lambda: PythonGame("gcn", n, {"h": h, "sets": sets},
                                                        f"gcn({h}, {format_value(sets)})", opts))


GAME_FAMILIES = {"subtraction": subtraction, "gcn": gcn}

