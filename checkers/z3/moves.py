"""Declared move families in Z3, for :class:`checkers.z3.translate.Builder` (a mixin): the environment of a
position, one move of a family with its bound names given, any / all over the options of a position (one
quantifier per family), and ``q in options(game, p)`` without a quantifier when each bound name can be read
off one coordinate of the target.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> from checkers.z3.translate import Builder
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> b = Builder(spec.namespace, "int")
>>> game = GameRef(spec.namespace.games["nim1"], {})
>>> x, t = b.var("x"), b.var("t")
>>> cond, q = b.move(game, x, game.decl.moves[0], [t])
>>> q
x - t
>>> z3.is_quantifier(b.is_option(game, x, x - 2))
False
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

import z3

from nimjos.games.linear_moves import is_affine
from nimjos.lang.syntax import free_names
from checkers.z3.terms import GameRef, Untranslatable, is_term


if TYPE_CHECKING:    # the Builder's other mixins, for the type checker (checkers.z3.host)
    from checkers.z3.host import BuilderHost as _Host
else:
    _Host = object


class MoveEncoding(_Host):
    """The move families of :class:`checkers.z3.translate.Builder` (see the module docstring)."""

    def families(self, game: GameRef) -> list:
        decl = game.decl
        if not hasattr(decl, "moves"):
            raise Untranslatable("built-in game families have no declared moves to translate")
        return decl.moves

    def position_env(self, game: GameRef, position: Any) -> dict:
        decl = game.decl
        env = dict(game.params)
        coords = decl.position
        if len(coords) == 1:
            if isinstance(position, tuple):
                if len(position) != 1:
                    raise Untranslatable("a position of the wrong dimension")
                position = position[0]
            env[coords[0]] = position
        else:
            if not isinstance(position, tuple) or len(position) != len(coords):
                raise Untranslatable("a position of the wrong dimension")
            env.update(zip(coords, position))
        return env

    def move(self, game: GameRef, position: Any, fam: Any, values: list) -> tuple[Any, Any]:
        """(condition, target) of one move family with its bound names set to `values`."""
        env = self.position_env(game, position)
        env.update(zip(fam.binder.names, values))
        cond = self.formula(fam.binder.tree, env)
        target = self.term(fam.to_tree, env)
        return cond, target

    def over_options(self, game: GameRef, position: Any, exists: bool, body: Callable) -> Any:
        """any / all of body(q) over the options q of a position, one quantifier per move family."""
        parts = []
        for fam in self.families(game):
            names = list(fam.binder.names)
            holder: dict = {}

            def guard(vs: list, fam: Any = fam, holder: dict = holder) -> Any:
                cond, target = self.move(game, position, fam, vs)
                holder["q"] = target
                return cond

            parts.append(self.quantifier(exists, names, guard, lambda vs, holder=holder: body(holder["q"])))
        return self._any(parts) if exists else self._all(parts)

    def solved_bindings(self, game: GameRef, position: Any, fam: Any, target: Any) -> list | None:
        """Values of a family's bound names that make its target equal to `target`, when each bound name is
        read off one coordinate that is affine with coefficient +1 or -1 in it; None when that fails."""
        tree = fam.to_tree
        parts = list(tree.elts) if isinstance(tree, ast.Tuple) else [tree]
        tgt = list(target) if isinstance(target, tuple) else [target]
        if len(parts) != len(tgt):
            return None
        names = list(fam.binder.names)
        env = self.position_env(game, position)
        solved: dict = {}
        for name in names:
            found = None
            for part, t in zip(parts, tgt):
                fn = set(free_names(part))
                if name not in fn or not is_affine(part, name):
                    continue
                others = [n for n in names if n != name and n in fn and n not in solved]
                if others:
                    continue
                e0 = self.term(part, {**env, **solved, name: 0})
                e1 = self.term(part, {**env, **solved, name: 1})
                slope = self.binop(ast.Sub, e1, e0)
                if is_term(slope):
                    slope = z3.simplify(slope)
                    if not z3.is_int_value(slope) and not z3.is_bv_value(slope):
                        continue
                    slope = slope.as_signed_long() if z3.is_bv_value(slope) else slope.as_long()
                if slope == 1:
                    found = self.binop(ast.Sub, t, e0)
                elif slope == -1:
                    found = self.binop(ast.Sub, e0, t)
                if found is not None:
                    break
            if found is None:
                return None
            solved[name] = found
        return [solved[n] for n in names]

    def is_option(self, game: GameRef, position: Any, target: Any) -> Any:
        """q in options(game, p): quantifier-free when every family's bound names can be read off the
        target, an existential otherwise."""
        parts = []
        for fam in self.families(game):
            vals = self.solved_bindings(game, position, fam, target)
            if vals is not None:
                cond, q = self.move(game, position, fam, vals)
                parts.append(self._all([cond, self.compare(ast.Eq, q, target)]))
            else:
                parts.append(self.quantifier(True, list(fam.binder.names),
                                             lambda vs, fam=fam: self.move(game, position, fam, vs)[0],
                                             lambda vs, fam=fam: self.compare(ast.Eq, self.move(game, position, fam, vs)[1], target)))
        return self._any(parts)
