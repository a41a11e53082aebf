"""Compile a loaded claim, for one profile, into what the checkers run: binders and closures.

Planning happens when a spec is loaded, so a bad expression stops the run before anything is checked.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> plan = plan_claim(spec.claims[0], "default")
>>> plan.window.names
('x',)
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, TypeVar

from nimjos.lang.binders import Binder
from nimjos.spec.domain import Domain, claim_domain
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.expr import evaluate, variables_of
from nimjos.lang.ir import Compare, Expr
from nimjos.lang.resolve import resolve
from nimjos.lang.syntax import free_names, parse, suggest, unknown_name_error
from nimjos.games.declared import MISERE, GameDecl, as_instance
from nimjos.lang.monotone import INC, DEC, coordinate_nodes, direction, is_nonneg_lower
from nimjos.games.functions import FAMILIES
from nimjos.words import Kind


@dataclass(frozen=True)
class Compiled:
    """One expression of a claim, parsed and compiled once: its text as written, its tree, its closure (an
    evaluation with a fresh step budget, a spec fault located at the claim's field) and its resolved, typed IR
    (:mod:`nimjos.lang.ir`, built by :func:`nimjos.lang.resolve.resolve`; the planner always sets it). Calling it
    evaluates it.

    >>> e = Compiled("x + 1", parse("x + 1"), lambda env: env["x"] + 1, resolve(parse("x + 1"), Namespace(), {"x"}))
    >>> e({"x": 2}), ast.unparse(e.tree), type(e.ir).__name__
    (3, 'x + 1', 'BinOp')
    """

    text: str
    tree: ast.expr
    fn: Callable[[dict], Any]
    ir: Expr | None = None

    def __call__(self, env: dict) -> Any:
        return self.fn(env)


@dataclass(frozen=True)
class FamilyPlan:
    """A compiled family of points (``point`` over ``where``) and, per unbounded index, the coordinates
    that justify stopping it: (index name, coordinate number, 'inc' | 'dec')."""

    point_text: str
    where_text: str
    binder: Binder
    point: Callable
    stops: list[tuple[str, int, str]] = field(default_factory=list)
    stop_fns: list[tuple[str, int, str, Callable]] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class ClaimPlan:
    """The parts every compiled claim shares: the loaded claim, the profile, and (for a claim over a window) the
    window, the domain, the game and the assumption. The kind of claim is the plan's type: one subclass per
    kind (:data:`KIND_PLANS`), holding only the expressions that kind states, each compiled once.

    >>> ClaimPlan(claim=None, profile="default").window is None
    True
    """

    claim: PlannedClaim
    profile: str
    window: Binder | None = None
    window_text: str = ""
    #: the claim's domain as printed (nimjos.spec.domain): where sampling and proving may go
    domain: Domain | None = None
    game: Compiled | None = None
    coords: tuple[str, ...] = ()
    assume: Compiled | None = None
    #: the claim's game is played in misère play (``play = "misere"``, ``misere(GAME)``): its values are misère
    #: Grundy values, its P-positions the misère ones; a method that knows only normal play does not apply
    misere: bool = False
    #: the claim's game is loopy (``loopy = true``: its moves may cycle): it is judged by its generalized
    #: Sprague-Grundy values (nimjos.games.loopy); a method that knows only Grundy values does not apply
    loopy: bool = False
    #: the trees of the methods' option expressions, each parsed once (the loader refuses one that does not
    #: parse): ``prove.for_all``, ``prove.invariant`` and the alternatives of ``sample.for_all``
    prove_for_all: ast.expr | None = None
    invariant: ast.expr | None = None
    sample_for_all: tuple[ast.expr, ...] = ()

    @property
    def namespace(self) -> Namespace:
        """The namespace of the claim's spec (its definitions, games, automata and the built-ins)."""
        return self.claim.spec.namespace

    @property
    def label(self) -> str:
        """The claim's label for messages (``claim 'ID'``)."""
        return self.claim.label

    def error(self, message: str, field_name: str | None = None, hint: str | None = None) -> SpecError:
        """A fault located at the claim (and field): :meth:`PlannedClaim.error`."""
        return self.claim.error(message, field_name, hint)

    def statement_trees(self) -> list[ast.expr]:
        """The trees of the claim's statement as the plan compiled them (not to be changed: copy one to edit it):
        its formula, the points then the conditions of its families, the fields of its pattern, its bound, the
        expression of its table.

        >>> plan = ClaimPlan(claim=None, profile="default")
        >>> plan.statement_trees()
        []
        """
        out: list[ast.expr] = []
        for name in ("formula", "bound", "values_expr"):
            part = getattr(self, name, None)
            if part is not None:
                out.append(part.tree)
        families = getattr(self, "families", None) or ()
        out += [f.point.tree for f in families] + [f.binder.tree for f in families]
        out += [c.tree for c in (getattr(self, "pattern", None) or {}).values()]
        return out

    def statement_tree(self) -> ast.expr | None:
        """The tree of the claim's statement when it is one expression (a formula, a bound), else None (a union of
        families, a pattern, a printed table).

        >>> ClaimPlan(claim=None, profile="default").statement_tree() is None
        True
        """
        for name in ("formula", "bound"):
            part = getattr(self, name, None)
            if part is not None:
                return part.tree
        return None

    def expression_trees(self) -> list[ast.expr]:
        """The trees of the statement when it is one expression (:meth:`statement_tree`) and of the assumption."""
        stated = self.statement_tree()
        return ([stated] if stated is not None else []) + ([self.assume.tree] if self.assume is not None else [])

    def field_trees(self) -> dict[str, ast.expr]:
        """The trees of the claim's expressions by the field label a correction edits
        (:func:`nimjos.spec.loader.editable_fields`): the statement as one expression (under the kind's name), each
        family's ``KIND[i].point`` and ``KIND[i].where``, and ``assume``.

        >>> ClaimPlan(claim=None, profile="default").field_trees()
        {}
        """
        out: dict[str, ast.expr] = {}
        stated = self.statement_tree()
        if stated is not None:
            out[self.claim.kind] = stated
        for i, f in enumerate(getattr(self, "families", None) or ()):
            out[f"{self.claim.kind}[{i}].point"] = f.point.tree
            out[f"{self.claim.kind}[{i}].where"] = f.binder.tree
        if self.assume is not None:
            out["assume"] = self.assume.tree
        return out

    def claim_trees(self) -> list[ast.expr]:
        """The trees of the statement (:meth:`statement_trees`) and of the assumption, in that order."""
        return self.statement_trees() + ([self.assume.tree] if self.assume is not None else [])

    @functools.cached_property
    def strategy_trees(self) -> dict[str, ast.expr]:
        """The expressions of the claim's ``strategy``, parsed once on first use (a method that takes no strategy
        never reads them; a fault in one is reported by the method that does), by field label: ``strategy`` for
        an expression; ``strategy.move``, ``strategy.let.NAME``, ``strategy.cases[I].when`` and
        ``strategy.cases[I].move`` for a table. A value that is not a string is left to the reader to refuse.

        >>> C = type("C", (), {"strategy": {"move": "x - 1", "cases": [{"when": "x > 1", "move": "x - 2"}]}})
        >>> sorted(ClaimPlan(claim=C(), profile="default").strategy_trees)
        ['strategy.cases[0].move', 'strategy.cases[0].when', 'strategy.move']
        """
        raw = self.claim.strategy
        texts: dict[str, Any] = {}
        if isinstance(raw, str):
            texts["strategy"] = raw
        elif isinstance(raw, dict):
            texts["strategy.move"] = raw.get("move")
            let = raw.get("let")
            if isinstance(let, dict):
                texts.update((f"strategy.let.{k}", v) for k, v in let.items())
            cases = raw.get("cases")
            if isinstance(cases, list):
                for i, c in enumerate(cases):
                    if isinstance(c, dict):
                        texts[f"strategy.cases[{i}].when"] = c.get("when")
                        texts[f"strategy.cases[{i}].move"] = c.get("move")
        return {k: parse(v) for k, v in texts.items() if v is not None and (v or not k.endswith(".when"))}

    def game_instance(self, env: dict) -> Any:
        """The claim's game at a binding of the window, refused (a spec error at the claim's game) when its play
        convention is not the one the plan was compiled for (misère play hidden from the text, in a definition):
        a method must never judge a misère game by normal-play rules.

        >>> plan = ClaimPlan(claim=None, profile="default", game=Compiled("g", parse("g"), lambda env: env["g"]))
        >>> from nimjos.games.declared import subtraction
        >>> plan.game_instance({"g": subtraction(frozenset({1}))}).label
        'subtraction({1})'
        """
        assert self.game is not None, "a claim with a game"
        inst = as_instance(self.game(env))
        if (inst.play == MISERE) != self.misere:
            play = "misère play" if inst.play == MISERE else "normal play"
            raise self.claim.error(f"the game {inst.label} is played in {play}, which its text does not say",
                                   "game", hint='write misere(GAME) in the claim\'s game, or play = "misere" in '
                                                'the game\'s table')
        if inst.loopy != self.loopy:
            # a loopy game hidden behind a definition: judged by Grundy values it does not have, or the reverse
            raise self.claim.error(f"the game {inst.label} is {'' if inst.loopy else 'not '}loopy, which the claim's "
                                   "game text does not show", "game",
                                   hint="name the declared game itself in the claim's game (GAME or GAME(params))")
        return inst

    @property
    def game_text(self) -> str:
        """The game expression as written ("" for a claim without a game)."""
        return self.game.text if self.game is not None else ""


@dataclass(frozen=True, kw_only=True)
class WindowPlan(ClaimPlan):
    """A claim over a window: the window and the domain are always there (every kind but a printed table)."""

    window: Binder
    domain: Domain


@dataclass(frozen=True, kw_only=True)
class HoldsPlan(WindowPlan):
    """A statement that holds at every point of the domain (``holds``); `sides` are the two sides when it is
    one comparison (a counterexample shows both).

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> p = pathlib.Path(__import__("tempfile").mkdtemp()) / "h.toml"
    >>> _ = p.write_text('[source]\\nid = "s"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 3"\\nholds = "n * n >= n"\\n')
    >>> plan = load_spec(p).claims[0].plan()
    >>> type(plan).__name__, plan.formula.text, plan.sides_at({"n": 3})
    ('HoldsPlan', 'n * n >= n', (9, 3))
    """

    formula: Compiled
    sides: tuple[Compiled, Compiled] | None = None

    def sides_at(self, env: dict) -> tuple[Any, Any]:
        """The two sides of a failing holds comparison at `env`, for its counterexample: (False, True) when the
        statement is not a comparison or a side cannot be evaluated (the failure itself is already known).

        >>> no = Compiled("False", parse("False"), bool)
        >>> HoldsPlan(claim=None, profile="default", window=None, domain=None, formula=no).sides_at({})
        (False, True)
        """
        if self.sides is not None:
            try:
                return self.sides[0](env), self.sides[1](env)
            except (EvalError, ResourceError):
                pass
        return False, True


@dataclass(frozen=True, kw_only=True)
class GrundyPlan(WindowPlan):
    """A formula for the Grundy value of every position of the window (``grundy``)."""

    game: Compiled
    formula: Compiled


@dataclass(frozen=True, kw_only=True)
class SetPlan(WindowPlan):
    """A set of positions given by a predicate (`formula`) or by a union of families of points (`families`):
    exactly one of the two is set."""

    game: Compiled
    formula: Compiled | None = None
    families: tuple[FamilyPlan, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class PPositionsPlan(SetPlan):
    """The P-positions of the game (``p_positions``): a predicate or a union of families."""


@dataclass(frozen=True, kw_only=True)
class DrawsPlan(WindowPlan):
    """The draws of a loopy game (``draws``): the positions of the window from which neither player can force a
    win are exactly those where the predicate `formula` holds."""

    game: Compiled
    formula: Compiled


@dataclass(frozen=True, kw_only=True)
class LevelSetPlan(SetPlan):
    """For every level s of `levels`, the positions of Grundy value s (``level_set``)."""

    levels: Binder

    @property
    def level_names(self) -> tuple[str, ...]:
        """The names the levels bind."""
        return self.levels.names


@dataclass(frozen=True, kw_only=True)
class PatternPlan(WindowPlan):
    """A pattern of the Grundy sequence of a 1-D game, by field (each a closure over the window's params)."""

    game: Compiled
    pattern: dict[str, Compiled]


@dataclass(frozen=True, kw_only=True)
class PeriodicPlan(PatternPlan):
    """G(n + period) = G(n) + saltus for n >= preperiod (``periodic``)."""


@dataclass(frozen=True, kw_only=True)
class StairPlan(PatternPlan):
    """G(xh + r) = G(xh) + r and h divides G(xh) on every whole block of h positions (``stair``)."""


@dataclass(frozen=True, kw_only=True)
class GrundyBoundPlan(WindowPlan):
    """G(position) <= `bound` at every position of the window (``grundy_at_most``; the bound may use the params)."""

    game: Compiled
    bound: Compiled


@dataclass(frozen=True, kw_only=True)
class ValuesPlan(ClaimPlan):
    """A printed table (``values``): Grundy values of a game from a position on (`values` has ``grundy``), or the
    terms of an expression of one variable (`values_expr`, over ``var``). It has no window: the table is what
    it covers."""

    values: dict
    values_expr: Compiled | None = None


class LocatedClaim(Protocol):
    """What locating a fault needs of a claim: its label, its spec (path, game lines) and its lines."""

    @property
    def label(self) -> str: ...

    @property
    def spec(self) -> Any: ...

    @property
    def field_lines(self) -> dict[str, int]: ...

    @property
    def line(self) -> int | None: ...


class PlannedClaim(LocatedClaim, Protocol):
    """What compiling needs of a loaded claim (:class:`nimjos.spec.loader.Claim` is one; the loader imports this
    module, so the plan names the claim by what it uses, not by its class): its fields as loaded, its kind's
    statement, and the errors located at its fields."""

    id: str
    kind: Kind
    raw: dict
    game_text: str | None
    for_all_text: str | None
    assume_text: str | None
    statement: Any
    position: tuple[str, ...] | None
    strategy: Any
    prove: Any
    sample: Any

    def error(self, message: str, field_name: str | None = None, hint: str | None = None) -> SpecError: ...

    def get(self, name: str, profile: str = "default") -> Any: ...

    def formula_text(self) -> str: ...

    @property
    def statement_text(self) -> str: ...


def field_line(claim: LocatedClaim, field_name: str | None) -> int | None:
    """The line of a claim's field (``p_positions[1]`` is on the line of ``p_positions``), else the claim's.

    >>> class C: field_lines = {"p_positions": 9, "deep": 4}; line = 2
    >>> field_line(C(), "p_positions[1]"), field_line(C(), "deep.for_all"), field_line(C(), "assume")
    (9, 4, 2)
    """
    base = (field_name or "").split("[")[0].split(".")[0]
    return claim.field_lines.get(base, claim.line)


def locate_error(claim: LocatedClaim, exc: SpecError, field_name: str | None = None) -> SpecError:
    """Fill in where a fault found while checking `claim` is: file, claim, field and line. A fault of a game
    the claim uses keeps the game's name and points at the game's moves.

    >>> class S: path = "s.toml"; game_lines = {"g": 7}
    >>> class C: label = "claim 'c'"; spec = S(); field_lines = {"holds": 4}; line = 2
    >>> str(locate_error(C(), SpecError("bad", item="game 'g'", field="moves")))
    "s.toml:7: claim 'c', game 'g', field 'moves': bad"
    >>> str(locate_error(C(), SpecError("too big"), "holds"))
    "s.toml:4: claim 'c', field 'holds': too big"
    """
    spec = claim.spec
    if exc.item and exc.item.startswith("game '") and exc.item.endswith("'"):
        game = exc.item[len("game '"):-1]
        exc.item = f"{claim.label}, {exc.item}"
        return exc.located(file=str(spec.path), line=getattr(spec, "game_lines", {}).get(game))
    name = exc.field or field_name
    line = field_line(claim, name) if exc.item in (None, claim.label) else None
    return exc.located(file=str(spec.path), item=claim.label, field=field_name, line=line)


def _guarded(claim: PlannedClaim, field_name: str, fn: Callable) -> Callable:
    """`fn` run as one evaluation (fresh step budget), with any spec fault located at the claim's field."""
    def run(env: dict) -> Any:
        try:
            return evaluate(fn, env)
        except SpecError as exc:
            raise locate_error(claim, exc, field_name) from None
    return run


def _compile(claim: PlannedClaim, field_name: str, text: Any, ns: Namespace, variables: set[str]) -> Compiled:
    try:
        tree = parse(text)
        unknown = [n for n in variables_of(tree, ns) if n not in variables]
        if unknown:
            raise unknown_name_error(tree, unknown[0], variables | ns.known(),
                                     hint=f"bind it in for_all, e.g. '0 <= {unknown[0]} <= 10'")
        refuse_double_misere(tree, ns)
        fn = _guarded(claim, field_name, compile_tree(tree, ns, variables))
        return Compiled(str(text), tree, fn, resolve(tree, ns, variables))
    except SpecError as exc:
        raise exc.located(file=str(claim.spec.path), item=claim.label, field=field_name,
                          line=field_line(claim, field_name)) from None


def _binder(claim: PlannedClaim, field_name: str, text: Any, ns: Namespace, outer: set[str], allow_unbounded: bool = False,
            total: bool = False) -> Binder:
    where: dict[str, Any] = {"file": str(claim.spec.path), "item": claim.label, "field": field_name,
             "line": field_line(claim, field_name)}
    try:
        binder = Binder(parse(text), ns, outer, allow_unbounded=allow_unbounded, text=text)
    except SpecError as exc:
        raise exc.located(**where) from None
    binder.where = where
    binder.total = total
    return binder


def _check_game_expression(claim: PlannedClaim, tree: ast.expr, ns: Namespace) -> None:
    """Refuse a `game` that names no game, or calls one with the wrong number of params."""
    head = tree.func if isinstance(tree, ast.Call) else tree
    if not isinstance(head, ast.Name):
        if isinstance(tree, (ast.Constant, ast.Tuple, ast.Set, ast.BinOp, ast.Compare, ast.BoolOp, ast.UnaryOp)):
            raise claim.error(f"{ast.unparse(tree)!r} is not a game", "game", hint="name a [game.NAME] of this file")
        return
    name = head.id
    decl = ns.games.get(name)
    if isinstance(decl, GameDecl):
        given = len(tree.args) if isinstance(tree, ast.Call) else None
        if decl.params and given != len(decl.params):
            raise claim.error(f"game {name} takes the params ({', '.join(decl.params)}), "
                              f"{'given ' + str(given) if given is not None else 'none given'}", "game",
                              hint=f"write game = '{name}({', '.join(decl.params)})' with the params bound in for_all")
        if not decl.params and given is not None:
            raise claim.error(f"game {name} has no params, but is called with {given}", "game",
                              hint=f"write game = '{name}'")
        return
    if name in FAMILIES:
        if not isinstance(tree, ast.Call):
            raise claim.error(f"the game family {name} needs its arguments", "game")
        return
    if name in ns.builtins:
        raise claim.error(f"{name!r} is {ns.kind(name)}, not a game", "game",
                          hint=suggest(name, [g for g in ns.games if ns.games[g] is not None]) or
                          "name a [game.NAME] of this file")


#: the claim kinds that state normal-play Grundy values (refused on a game in misère play)
NORMAL_VALUE_KINDS = (Kind.GRUNDY, Kind.LEVEL_SET, Kind.PERIODIC, Kind.STAIR, Kind.GRUNDY_AT_MOST)


def plays_misere(tree: ast.expr, ns: Namespace) -> bool:
    """Does a claim's game expression denote a game in misère play: a call of ``misere`` anywhere in it, or a
    declared game with ``play = "misere"``? (Misère play is never undone: ``heaps(misere(G))`` is misère too.)

    >>> plays_misere(parse('misere(octal("0.77"))'), Namespace()), plays_misere(parse('octal("0.77")'), Namespace())
    (True, False)
    """
    return _plays_misere(tree, ns, set(), through_definitions=False)


def _plays_misere(tree: ast.expr, ns: Namespace, seen: set[str], through_definitions: bool) -> bool:
    """:func:`plays_misere`, and, `through_definitions`, reading the definitions the expression names (each once)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id == "misere" and node.id not in ns.games and node.id not in ns.definitions:
                return True
            decl = ns.games.get(node.id)
            if isinstance(decl, GameDecl) and decl.play == MISERE:
                return True
            body = ns.definitions.get(node.id)
            if through_definitions and body is not None and node.id not in seen:
                seen.add(node.id)
                if _plays_misere(body.tree, ns, seen, through_definitions):
                    return True
    return False


def refuse_double_misere(tree: ast.expr, ns: Namespace) -> None:
    """Refuse ``misere(GAME)`` of a game already in misère play (``misere(misere(nim()))``, ``misere`` of a declared
    game with ``play = "misere"``): misère play is a rule about the last move, and applying it twice does not
    undo it nor mean anything else; the text would only hide which game is meant.

    >>> refuse_double_misere(parse("misere(misere(nim()))"), Namespace())
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: misere(misere(nim())): misere(GAME) of a game already in misère play (misere(nim())) (write misere(nim()) once: misère play applied twice is still misère play, never normal play)
    >>> refuse_double_misere(parse("heaps(misere(nim()))"), Namespace())
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "misere" \
                and "misere" not in ns.games and "misere" not in ns.definitions and len(node.args) == 1 \
                and _plays_misere(node.args[0], ns, set(), through_definitions=True):
            inner = ast.unparse(node.args[0])
            raise SpecError(f"{ast.unparse(node)}: misere(GAME) of a game already in misère play ({inner})",
                            hint=f"write {inner} once: misère play applied twice is still misère play, never "
                                 "normal play")


#: the kinds of claim a loopy game's generalized values can judge
LOOPY_KINDS = (Kind.GRUNDY, Kind.P_POSITIONS, Kind.DRAWS)


def plays_loopy(tree: ast.expr, ns: Namespace) -> bool:
    """Does a claim's game expression denote a declared game whose moves may cycle (``loopy = true``)? The game's
    name is the expression, or the function it calls (``northcott(8)``).

    >>> plays_loopy(parse("subtraction({1})"), Namespace())
    False
    """
    head = tree.func if isinstance(tree, ast.Call) else tree
    decl = ns.games.get(head.id) if isinstance(head, ast.Name) else None
    return isinstance(decl, GameDecl) and decl.loopy


def _refuse_loopy_kinds(claim: PlannedClaim, kind: Kind, loopy: bool) -> None:
    """Refuse, at load, a claim kind a loopy game's values cannot judge, and a draws claim on a game that is not
    loopy (it has no draws)."""
    if loopy and kind not in LOOPY_KINDS:
        raise claim.error(f"a {kind} claim states Grundy values, and {claim.game_text} is a loopy game (its moves may "
                          "cycle)", kind,
                          hint="state its P-positions (p_positions = ...), its draws (draws = ...) or its generalized "
                               "Sprague-Grundy values (grundy = ..., a set K for ∞(K))")
    if kind is Kind.DRAWS and not loopy:
        raise claim.error(f"a draws claim on {claim.game_text}, whose table does not say loopy = true: a game whose "
                          "moves cannot cycle has no draws", "draws",
                          hint="add loopy = true to the game's table if its moves may cycle")


def _refuse_normal_values(claim: PlannedClaim, kind: Kind, misere: bool) -> None:
    """Refuse, at load, a claim that states normal-play Grundy values of a game in misère play."""
    if misere and kind in NORMAL_VALUE_KINDS + (Kind.VALUES,):
        field_name = kind
        raise claim.error(f"a {kind} claim states normal-play Grundy values, and {claim.game_text} is played in misère "
                          "play", field_name,
                          hint="state its P-positions (p_positions = ...), or its misère Grundy values with holds = "
                               "'misere_grundy(GAME, position) == ...'")


def _refuse_normal_calls(claim: PlannedClaim, field_name: str, formula: Compiled, ns: Namespace) -> None:
    """Refuse, at load, a formula that asks G(...) or heaps_value(...) of a game in misère play."""
    for node in ast.walk(formula.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("G", "heaps_value") \
                and node.args and plays_loopy(node.args[0], ns):
            raise claim.error(f"{node.func.id}(...) asks a Grundy value of {ast.unparse(node.args[0])}, a loopy game "
                              "(its moves may cycle)", field_name,
                              hint="state its P-positions, draws or generalized values as a claim of their own "
                                   "(p_positions, draws, grundy)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("G", "heaps_value") \
                and node.args and plays_misere(node.args[0], ns):
            raise claim.error(f"{node.func.id}(...) asks a normal-play Grundy value of {ast.unparse(node.args[0])}, a "
                              "game in misère play", field_name,
                              hint="name its misère Grundy value: misere_grundy(GAME, position)")


def _game_coords(claim: PlannedClaim, tree: ast.expr, ns: Namespace, window: tuple[str, ...] = ()) -> tuple[str, ...]:
    _check_game_expression(claim, tree, ns)
    explicit = claim.position
    if explicit:
        return tuple(explicit)
    head = tree.func if isinstance(tree, ast.Call) else tree
    if isinstance(head, ast.Name) and isinstance(ns.games.get(head.id), GameDecl):
        return tuple(ns.games[head.id].position)
    message, hint = _coords_needed(tree, window)
    raise claim.error(message, "game", hint=hint)


def _coords_needed(tree: ast.expr, window: tuple[str, ...]) -> tuple[str, str]:
    """The message and hint for a claim on a built-in game family that does not name the position's coordinates.

    >>> _coords_needed(parse("subtraction({1, 2})"), ("n",))[1]
    'add position = ["n"] to the claim: the name of the heap, as for_all binds it'
    >>> _coords_needed(parse("gcn(3, (lambda s: True, lambda s: True))"), ())
    ('gcn(h, (S1, S2)) has 2 coordinates: which names of for_all are they?', 'add position = ["x1", "x2"] to the claim')
    """
    head = tree.func.id if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) else None
    dim = None
    if head == "subtraction":
        dim = 1
    elif head == "gcn" and isinstance(tree, ast.Call) and len(tree.args) == 2 and isinstance(tree.args[1], ast.Tuple):
        dim = len(tree.args[1].elts)
    free = [n for n in window if n not in set(free_names(tree))]
    if dim == 1:
        name = free[0] if len(free) == 1 else "n"
        return ("subtraction(S) is a one-dimensional game (one heap): which name of for_all is the heap?",
                f'add position = ["{name}"] to the claim: the name of the heap, as for_all binds it')
    if dim is not None:
        names = free if len(free) == dim else [f"x{i + 1}" for i in range(dim)]
        sets = ", ".join(f"S{i + 1}" for i in range(dim))
        return (f"gcn(h, ({sets})) has {dim} coordinates: which names of for_all are they?",
                "add position = [" + ", ".join(f'"{n}"' for n in names) + "] to the claim")
    return ("cannot tell this game's coordinate names",
            'add position = ["x1", "x2"] to the claim to name them, one per coordinate')


def _profile_field(claim: PlannedClaim, name: str, profile: str) -> str:
    """The field a value comes from under a profile: ``deep.for_all`` when the profile overrides it."""
    override = claim.raw.get(profile) if profile != "default" else None
    return f"{profile}.{name}" if isinstance(override, dict) and name in override else name


def plan_claim(claim: PlannedClaim, profile: str = "default") -> ClaimPlan:
    """Compile `claim` for `profile` into the plan of its kind (the loader does it once per claim and profile:
    :meth:`Claim.plan`).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> plan = plan_claim(spec.claims[0]); type(plan).__name__, plan.formula.text, plan.game_text
    ('GrundyPlan', 'x', 'nim1')
    """
    ns: Namespace = claim.spec.namespace
    kind = claim.kind
    raw_kind = claim.statement
    if kind is Kind.VALUES:
        return _plan_values(claim, ns, profile)
    window, window_text, domain = _plan_window(claim, ns, profile)
    window_names = set(window.names)
    game: Compiled | None = None
    coords: tuple[str, ...] = ()
    assume: Compiled | None = None
    misere = loopy = False
    if claim.game_text is not None:
        game = _compile(claim, "game", claim.game_text, ns, window_names)
        coords = _game_coords(claim, game.tree, ns, window.names)
        misere = plays_misere(game.tree, ns)
        _refuse_normal_values(claim, kind, misere)
        loopy = plays_loopy(game.tree, ns)
        _refuse_loopy_kinds(claim, kind, loopy)
        missing = [c for c in coords if c not in window_names]
        if missing:
            raise claim.error(f"for_all does not bind the position coordinate {missing[0]!r}", "for_all",
                              hint=f"add a bound such as '0 <= {missing[0]} <= 100'")
    elif kind in (Kind.GRUNDY, Kind.P_POSITIONS, Kind.LEVEL_SET, Kind.GRUNDY_AT_MOST, Kind.DRAWS):
        raise claim.error(f"a {kind} claim needs a game", "game", hint="add game = \"NAME\"")
    if claim.assume_text is not None:
        assume = _compile(claim, "assume", claim.assume_text, ns, window_names)
    shared: dict[str, Any] = {"claim": claim, "profile": profile, "window": window, "window_text": window_text,
                              "domain": domain, "game": game, "coords": coords, "assume": assume, "misere": misere,
                              "loopy": loopy, **_option_trees(claim)}
    params = window_names - set(coords)
    if kind in (Kind.PERIODIC, Kind.STAIR):
        pattern_type = PeriodicPlan if kind is Kind.PERIODIC else StairPlan
        return pattern_type(**shared, pattern=_plan_pattern(claim, kind, raw_kind, ns, params, coords))
    if kind is Kind.GRUNDY_AT_MOST:
        if isinstance(raw_kind, bool):
            raise claim.error("grundy_at_most must be an integer or an expression string", kind)
        return GrundyBoundPlan(**shared, bound=_compile(claim, kind, str(raw_kind), ns, params))
    if kind in (Kind.GRUNDY, Kind.HOLDS, Kind.DRAWS):
        formula = _compile(claim, kind, raw_kind, ns, window_names)
        _refuse_normal_calls(claim, kind, formula, ns)
        if kind is Kind.GRUNDY:
            return GrundyPlan(**shared, formula=formula)
        if kind is Kind.DRAWS:
            return DrawsPlan(**shared, formula=formula)
        return HoldsPlan(**shared, formula=formula, sides=_sides(claim, formula, ns, window_names))
    levels: Binder | None = None
    if kind is Kind.LEVEL_SET:
        levels_text = claim.get("levels", profile)
        if levels_text is None:
            raise claim.error("a level_set claim needs levels, e.g. levels = \"0 <= s <= 5\"", "levels")
        levels = _binder(claim, _profile_field(claim, "levels", profile), levels_text, ns, window_names, total=True)
        params = params | set(levels.names)
    if isinstance(raw_kind, str):
        formula = _compile(claim, kind, raw_kind, ns, window_names | set(levels.names if levels else ()))
        _refuse_normal_calls(claim, kind, formula, ns)
        set_parts: dict[str, Any] = {"formula": formula}
    else:
        families = tuple(_plan_family(claim, kind, i, fam, ns, params, window, coords) for i, fam in enumerate(raw_kind))
        if not families:
            raise claim.error("an empty list of families", kind)
        set_parts = {"families": families}
    if levels is not None:
        return LevelSetPlan(**shared, **set_parts, levels=levels)
    return PPositionsPlan(**shared, **set_parts)


#: the plan type of each claim kind (nimjos.words.Kind, the field that states it): the only place a kind decides
#: a type; everywhere else it is the type of the claim's plan
KIND_PLANS: dict[Kind, type[ClaimPlan]] = {
    Kind.GRUNDY: GrundyPlan, Kind.P_POSITIONS: PPositionsPlan, Kind.HOLDS: HoldsPlan, Kind.VALUES: ValuesPlan,
    Kind.LEVEL_SET: LevelSetPlan, Kind.PERIODIC: PeriodicPlan, Kind.STAIR: StairPlan,
    Kind.GRUNDY_AT_MOST: GrundyBoundPlan, Kind.DRAWS: DrawsPlan,
}


Handler = TypeVar("Handler")


def handler_for(table: Mapping[type[ClaimPlan], Handler], plan: ClaimPlan) -> Handler | None:
    """The entry of a method's table for `plan`: the one of its type, else of its nearest base class listed; None
    when the table has none (the method does not apply to this kind of claim).

    >>> table = {SetPlan: "a set", HoldsPlan: "a statement"}
    >>> p = PPositionsPlan(claim=None, profile="default", window=None, domain=None, game=None)
    >>> handler_for(table, p), handler_for(table, ClaimPlan(claim=None, profile="default"))
    ('a set', None)
    """
    for cls in type(plan).__mro__:
        if cls in table:
            return table[cls]
    return None


def _sides(claim: PlannedClaim, formula: Compiled, ns: Namespace, variables: set[str]) -> tuple[Compiled, Compiled] | None:
    """The two sides of a holds statement that is one comparison, compiled, each with its part of the statement's
    IR (None for any other statement)."""
    tree, resolved = formula.tree, formula.ir
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and
            isinstance(tree.ops[0], (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE))):
        return None
    assert isinstance(resolved, Compare), "the IR of a comparison is a comparison"
    left, right = tree.left, tree.comparators[0]
    return (Compiled(ast.unparse(left), left, _guarded(claim, "holds", compile_tree(left, ns, variables)),
                     resolved.left),
            Compiled(ast.unparse(right), right, _guarded(claim, "holds", compile_tree(right, ns, variables)),
                     resolved.comparators[0]))


def _plan_pattern(claim: PlannedClaim, kind: Kind, raw_kind: Any, ns: Namespace, params: set[str],
                  coords: tuple[str, ...]) -> dict[str, Compiled]:
    """The fields of a periodic or stair claim, compiled over the window's params."""
    if len(coords) != 1:
        raise claim.error(f"a {kind} claim needs a 1-D game", "game")
    allowed = {Kind.PERIODIC: ("period", "preperiod", "saltus"), Kind.STAIR: ("h",)}[kind]
    required = {Kind.PERIODIC: ("period",), Kind.STAIR: ("h",)}[kind]
    pattern: dict[str, Compiled] = {}
    for k, val in raw_kind.items():
        if k not in allowed:
            raise claim.error(f"unknown field {k!r} in {kind}", kind, hint=suggest(k, list(allowed)))
        if isinstance(val, bool) or not isinstance(val, (int, str)):
            raise claim.error(f"{kind}.{k} must be an integer or an expression string", kind)
        pattern[k] = _compile(claim, kind, str(val), ns, params)
    for k in required:
        if k not in pattern:
            raise claim.error(f"{kind} needs {k} = ...", kind)
    return pattern


def _plan_window(claim: PlannedClaim, ns: Namespace, profile: str) -> tuple[Binder, str, Domain]:
    """The claim's domain (``for_all``, as printed) and its window (``(for_all) and (window)``, finite): a domain
    that leaves a name unbounded needs a window, and nothing is inferred from the width of a range. Returns the
    window's binder, its text and the domain."""
    for_all = claim.for_all_text
    window = claim.get("window", profile)
    if for_all is None and window is None and claim.kind is Kind.HOLDS and _closed(claim, ns):
        for_all = "True"  # a statement with no free name: the window is the single empty binding
    if for_all is None:
        raise claim.error("missing field 'for_all' (the domain, as printed)", "for_all",
                          hint="e.g. for_all = \"x >= 0\" with window = \"x <= 100\" (how much of it to enumerate), or "
                               "for_all = \"0 <= x < 100\" for a finite statement")
    try:
        names = Binder(parse(for_all), ns, allow_unbounded=True, text=for_all)
    except SpecError:
        names = None   # a domain no binder reads alone (a heap count): the window must bind its names
    if window is None and names is not None and any(level.unbounded for level in names.levels):
        open_names = [level.name for level in names.levels if level.unbounded]
        raise claim.error(f"for_all states an infinite domain ({', '.join(open_names)} unbounded above) and the "
                          "claim gives no window: how much of it should be enumerated?", "for_all",
                          hint="add window = \"" + " and ".join(f"{n} <= 100" for n in open_names) + "\"")
    window_text = for_all if window is None else f"({for_all}) and ({window})"
    field_name = _profile_field(claim, "window", profile) if window is not None else "for_all"
    binder = _binder(claim, field_name, window_text, ns, set(), total=True)
    try:
        domain = claim_domain(for_all if for_all != "True" else "", ns, binder.names, window=window)
    except SpecError as exc:
        raise locate_error(claim, exc, "for_all") from None
    if window is not None:
        unstated = [n for n in binder.names if n not in domain.names_bound]
        if unstated:
            raise claim.error(f"the window binds {unstated[0]!r}, which for_all (the domain) does not name", field_name,
                              hint=f"state its range in for_all, e.g. '0 <= {unstated[0]}', and bound it in the window")
    return binder, window_text, domain


def _closed(claim: PlannedClaim, ns: Namespace) -> bool:
    """Has the claim's statement (and assumption) no free name, so that it needs no for_all?"""
    try:
        texts = [claim.statement] + ([claim.assume_text] if claim.assume_text is not None else [])
        return all(isinstance(t, str) and not variables_of(parse(t), ns) for t in texts)
    except SpecError:
        return False  # the statement's own error is reported when it is compiled


def _plan_family(claim: PlannedClaim, kind: Kind, i: int, fam: Any, ns: Namespace, outer: set[str], window: Binder,
                 game_coords: tuple[str, ...]) -> FamilyPlan:
    fname = f"{kind}[{i}]"
    if not isinstance(fam, dict):
        raise claim.error("each family is an inline table {point = \"...\", where = \"...\"}", fname)
    for k in fam:
        if k not in ("point", "where"):
            raise claim.error(f"unknown field {k!r} in a family", fname, hint=suggest(k, ["point", "where"]))
    if not isinstance(fam.get("point"), str):
        raise claim.error("a family needs point = \"EXPR\" (a string)", fname)
    where = fam.get("where", "True")
    if not isinstance(where, str):
        raise claim.error("where must be a string", fname)
    binder = _binder(claim, fname, where, ns, outer, allow_unbounded=True)
    variables = set(outer) | set(binder.names)
    point = _compile(claim, fname, fam["point"], ns, variables)
    tree = point.tree
    coords = coordinate_nodes(tree)
    if game_coords and len(coords) != len(game_coords) and not (len(game_coords) == 1 and len(coords) == 1):
        raise claim.error(f"point has {len(coords)} coordinates, the game has {len(game_coords)}", fname)
    fp = FamilyPlan(fam["point"], where, binder, point)
    nonneg = {l.name for l in binder.levels if is_nonneg_lower(l)}
    nonneg |= {l.name for l in window.levels if is_nonneg_lower(l)}
    bound_so_far = set(outer)
    for level in binder.levels:
        bound_so_far.add(level.name)
        if not level.unbounded:
            continue
        found = []
        for j, node in enumerate(coords):
            if not set(variables_of(node, ns)) <= bound_so_far:
                continue
            d = direction(node, level.name, ns, nonneg)
            if d in (INC, DEC):
                found.append((level.name, j, d))
                fp.stop_fns.append((level.name, j, d, _guarded(claim, fname, compile_tree(node, ns, variables))))
        if not found:
            raise claim.error(f"family index {level.name!r} has only a lower bound, and no coordinate of the point "
                              f"is provably monotone in it, so enumeration could not be stopped", fname,
                              hint=f"give it an upper bound, e.g. '{level.name} <= 100'")
        fp.stops.extend(found)
    return fp


def _option_trees(claim: PlannedClaim) -> dict[str, Any]:
    """The trees of the claim's ``prove.for_all``, ``prove.invariant`` and ``sample.for_all`` (each alternative),
    parsed once: the loader has already refused one that does not parse (:func:`nimjos.spec.schema.check_method_options`)."""
    prove, sample = claim.prove, claim.sample
    alternatives = sample.for_all if isinstance(sample.for_all, tuple) else (sample.for_all,) if sample.for_all else ()
    return {"prove_for_all": parse(prove.for_all) if prove.for_all else None,
            "invariant": parse(prove.invariant) if prove.invariant else None,
            "sample_for_all": tuple(parse(t) for t in alternatives)}


def _is_int(v: Any) -> bool:
    return type(v) is int


def _check_table(claim: PlannedClaim, table: list, start: Any) -> None:
    """A printed table of Grundy values holds integers only, in a flat list or a list of rows."""
    rows = table if table and all(isinstance(r, list) for r in table) else [table]
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            if not _is_int(value):
                where = f"entry {j + 1}" + (f" of row {i + 1}" if len(rows) > 1 or rows is table else "")
                raise claim.error(f"values.grundy: {where} is {value!r}, not an integer", "values")
    if not (_is_int(start) or (isinstance(start, list) and start and all(_is_int(c) for c in start))):
        raise claim.error(f"values.from must be an integer or a list of integers, got {start!r}", "values")


def _plan_values(claim: PlannedClaim, ns: Namespace, profile: str) -> ValuesPlan:
    v = claim.get("values", profile)
    if not isinstance(v, dict):
        raise claim.error("values must be a table", "values")
    for k in v:
        if k not in ("from", "grundy", "of", "var", "equal"):
            raise claim.error(f"unknown field {k!r} in values", "values",
                              hint=suggest(k, ["from", "grundy", "of", "var", "equal"]))
    if "grundy" in v:
        if claim.game_text is None:
            raise claim.error("a values table of Grundy values needs a game", "game")
        game = _compile(claim, "game", claim.game_text, ns, set())
        coords = _game_coords(claim, game.tree, ns)
        _refuse_normal_values(claim, Kind.VALUES, plays_misere(game.tree, ns))
        _refuse_loopy_kinds(claim, Kind.VALUES, plays_loopy(game.tree, ns))
        if not isinstance(v["grundy"], list):
            raise claim.error("values.grundy must be a list", "values")
        _check_table(claim, v["grundy"], v.get("from", 0))
        return ValuesPlan(claim=claim, profile=profile, game=game, coords=coords, values=v, **_option_trees(claim))
    if "of" in v:
        var = v.get("var")
        if not isinstance(var, str) or not var.isidentifier():
            raise claim.error("values with 'of' needs var = \"NAME\"", "values")
        if not isinstance(v.get("equal"), list):
            raise claim.error("values with 'of' needs equal = [...]", "values")
        if not isinstance(v.get("from", 0), int):
            raise claim.error("values.from must be an integer", "values")
        return ValuesPlan(claim=claim, profile=profile, values=v, **_option_trees(claim),
                          values_expr=_compile(claim, "values", v["of"], ns, {var}))
    raise claim.error("values needs grundy = [...] (with a game) or of = \"EXPR\", var, equal = [...]", "values")
