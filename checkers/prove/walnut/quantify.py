"""Quantifiers for :class:`checkers.prove.walnut.translate.Translator` (a mixin): ``all`` and ``any`` over
``range(a, b)`` (the index a number, or carried as 2**n below a logarithm) or over the options of a declared
game, and a declared game's move families as formulas relating an option to its position (their bound names
existential, a move to a negative coordinate an obligation).

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.prove.walnut.logic import Unit
>>> from checkers.prove.walnut.translate import Translator
>>> Translator(spec_namespace()).formula(parse("all(i < x for i in range(0, x))"), {"x": "x"}, Unit(["x"]))
'An001 (((0 = 0) & ((n001) < (x))) => ((n001) < (x)))'
"""
from __future__ import annotations

import ast
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from nimjos.games.declared import DeclaredGame, as_instance
from nimjos.lang.errors import NimjosError
from nimjos.lang.inline import substitute_call
from nimjos.lang.syntax import copy_tree
from checkers.prove.walnut.logic import Exp, LogarithmicAsNumber, NotAutomatic, Unit, quant


if TYPE_CHECKING:    # the Translator's other mixins, for the type checker (checkers.prove.walnut.host)
    from checkers.prove.walnut.host import TranslatorHost as _Host
else:
    _Host = object


class Quantifiers(_Host):
    """The quantified forms of :class:`checkers.prove.walnut.translate.Translator` (see the module docstring)."""

    # host state this mixin assigns, declared for the type checker (which otherwise takes the assignment for this
    # class's own definition of the protocol's attribute, of a type it cannot determine); set by Translator.__init__
    consts: dict

    def natural_level(self, level: Any, nonneg: set) -> bool:
        """Does a binder level provably range over naturals (a constant lower bound >= 0, a non-negative name)?

        >>> from nimjos.lang.binders import Binder
        >>> from nimjos.lang.syntax import parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> ns = spec_namespace()
        >>> [Translator(ns).natural_level(lv, {"x"}) for lv in Binder(parse("x - 3 <= t <= x"), ns, {"x"}).levels]
        [False]
        >>> [Translator(ns).natural_level(lv, {"x"}) for lv in Binder(parse("1 <= t <= x"), ns, {"x"}).levels]
        [True]
        """
        if level.members is not None:
            try:
                vals = self.const(copy_tree(level.member_tree), {}) if level.member_tree is not None else None
            except NotAutomatic:
                return False
            return vals is not None and all(type(v) is int and v >= 0 for v in vals)
        for t in level.low_trees:
            tree = copy_tree(t)
            try:
                c = self.const(tree, {n: n for n in nonneg})
            except NotAutomatic:
                c = None
            if type(c) is int and c >= 0:
                return True
            if isinstance(tree, ast.Name) and tree.id in nonneg:
                return True
        return False

    def move(self, decl: Any, i: int, opt: list[str], pos: list[str], unit: Unit) -> str:
        """Move family i of a declared game as a formula in the option's terms `opt` and the position's `pos`:
        E bound names (where & opt = to); a move to a negative coordinate becomes an obligation.

        >>> from nimjos.games.declared import GameDecl
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> ns = spec_namespace()
        >>> sub = GameDecl.declare("sub", {"position": ["n"],
        ...                                "moves": [{"to": "n - s", "where": "s in {1, 2} and s <= n"}]}, ns)
        >>> unit = Unit(["m", "n"])
        >>> Translator(ns).move(sub, 0, ["m"], ["n"], unit)
        'Eb001 (((((b001 = 1 | b001 = 2)) & ((b001) <= (n)))) & ((m + b001) = (n)))'
        >>> [why for _, why in unit.obligations]
        ['coordinate 1 of n - s may be negative']
        """
        fam = decl.moves[i]
        env = dict(zip(decl.position, pos))
        nonneg = set(decl.position)
        for level in fam.binder.levels:
            if not self.natural_level(level, nonneg):
                raise NotAutomatic(f"the bound name {level.name} of move {i + 1} ({fam.where_text}) may be negative "
                                   "(Walnut's numbers are the naturals)")
            nonneg.add(level.name)
        bound = [self.fresh("b") for _ in fam.binder.names]
        env.update(zip(fam.binder.names, bound))
        saved = list(unit.params)
        unit.params = saved + bound
        where = self.formula(copy_tree(fam.binder.tree), env, unit) if fam.where_text else "0 = 0"
        unit.path.append(where)
        comps = fam.to_tree.elts if isinstance(fam.to_tree, ast.Tuple) else [fam.to_tree]
        if len(comps) != len(pos):
            raise NotAutomatic(f"move {i + 1} ({fam.to_text}) does not have {len(pos)} coordinates")
        eqs = []
        for j, c in enumerate(comps):
            acc: list = []
            cp, cn = self.linear(c, env, unit, acc)
            eqs.append(self.close(acc, self.relation([(Fraction(1), opt[j])] + cn, [], "=", cp, [], c)))
            if cn:   # a move to a negative coordinate is a fault of the declaration in nimjos
                self.oblige(unit, list(acc), self.relation(cp, [], "<", cn, [], c),
                            f"coordinate {j + 1} of {fam.to_text} may be negative")
        unit.path.pop()
        unit.params = saved
        return quant("E", bound, f"(({where}) & " + " & ".join(f"({e})" for e in eqs) + ")")

    def options_of(self, node: ast.AST, env: dict, unit: Unit, acc: list) -> tuple[Any, list[str]] | None:
        """For ``options(game, position)`` (a [define] may wrap it): the declared game and the position's terms;
        None for other nodes.

        >>> from nimjos.lang.syntax import copy_tree, parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> tr = Translator(spec_namespace())
        >>> print(tr.options_of(parse("x + 1"), {"x": "x"}, Unit([]), []))
        None
        >>> tr.options_of(parse("options(subtraction({1, 2}), x)"), {"x": "x"}, Unit([]), [])
        Traceback (most recent call last):
        ...
        checkers.prove.walnut.logic.NotAutomatic: the built-in game subtraction({1, 2}) has no declared moves to translate
        """
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            body = self._inline(node, env, unit)
            if body is not None:
                return self.options_of(body, env, unit, acc)
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "options" and len(node.args) == 2):
            return None
        g = self.const(node.args[0], env)
        if g is None:
            raise NotAutomatic(f"the game of {ast.unparse(node)} depends on a quantified name")
        try:
            game = as_instance(g)
        except (NimjosError, TypeError, AttributeError) as exc:
            raise NotAutomatic(f"{ast.unparse(node.args[0])} is not a game: {exc}") from None
        if not isinstance(game, DeclaredGame):
            raise NotAutomatic(f"the built-in game {game.label} has no declared moves to translate")
        p = node.args[1]
        comps = p.elts if isinstance(p, ast.Tuple) else [p]
        if len(comps) != len(game.decl.position):
            raise NotAutomatic(f"{ast.unparse(p)} is not a position of {game.label}")
        return game, [self.int_term(c, env, unit, acc) for c in comps]

    def option_formula(self, game: Any, opt: list[str], pos: list[str], unit: Unit, acc: list) -> str:
        """opt is an option of pos in the game (its parameters fixed as constants while the moves translate);
        the constraints of acc (the fresh terms of opt and pos) hold on the path of the moves' obligations.

        >>> from nimjos.games.declared import GameDecl
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> ns = spec_namespace()
        >>> take = GameDecl.declare("take", {"position": ["n"], "params": ["k"],
        ...                                  "moves": [{"to": "n - s", "where": "1 <= s <= k and s <= n"}]}, ns)
        >>> Translator(ns).option_formula(take.instance((2,)), ["m"], ["n"], Unit(["m", "n"]), [])
        '((Eb001 (((((((1) <= (b001)) & ((b001) <= (2)))) & ((b001) <= (n)))) & ((m + b001) = (n)))))'
        """
        saved, params, depth = dict(self.consts), list(unit.params), len(unit.path)
        self.consts = dict(game.params)     # the moves see the game's parameters only, not the claim's names
        unit.params = params + [v for v, _ in acc]
        unit.path += [c for _, c in acc if c is not None]
        try:
            fams = [self.move(game.decl, i, opt, pos, unit) for i in range(len(game.decl.moves))]
        finally:
            self.consts, unit.params = saved, params
            del unit.path[depth:]
        return "(" + " | ".join(f"({f})" for f in fams) + ")" if fams else "0 = 1"

    def comprehension(self, node: ast.Call, env: dict, unit: Unit) -> str:
        """``all``/``any`` over a generator: ``for n in range(a, b)`` (an automatic bound; a logarithmic bound
        makes n a value carried as 2**n) or ``for h in options(game, position)``, with ``if`` conditions, as a
        universal or existential quantifier with the range (or the move) as its constraint.

        >>> from nimjos.lang.syntax import copy_tree, parse
        >>> from nimjos.spec.names import spec_namespace
        >>> from checkers.prove.walnut.translate import Translator
        >>> tr = Translator(spec_namespace())
        >>> tr.comprehension(parse("any(2 * i == x for i in range(1, x))"), {"x": "x"}, Unit(["x"]))
        'En001 ((((1) <= (n001)) & ((n001) < (x))) & ((2*n001) = (x)))'
        """
        gen = node.args[0]
        assert isinstance(node.func, ast.Name) and isinstance(gen, ast.GeneratorExp), \
            "formula() calls it for all(...) / any(...) of one generator only"
        return self._generators(node.func.id == "all", gen.elt, list(gen.generators), env, unit, ast.unparse(node))

    def _generators(self, every: bool, elt: ast.AST, gens: list, env: dict, unit: Unit, text: str) -> str:
        if not gens:
            return self.formula(elt, env, unit)
        g, rest = gens[0], gens[1:]
        if g.is_async:
            raise NotAutomatic(f"an async comprehension in {text[:80]}")
        it = g.iter
        if isinstance(it, ast.Call) and getattr(it.func, "id", "") == "range" and 1 <= len(it.args) <= 2 \
                and not it.keywords:
            lo, hi = (it.args if len(it.args) == 2 else [ast.Constant(0), it.args[0]])
            if not (self.is_exp(hi, env) or self.is_exp(lo, env)):
                return self._range(every, g, lo, hi, False, elt, rest, env, unit, text)
            mark = len(unit.obligations)
            try:                            # below a logarithm: the index carried as 2**n ...
                return self._range(every, g, lo, hi, True, elt, rest, env, unit, text)
            except LogarithmicAsNumber as exc:     # ... or, when the body uses it as a number, kept a number
                first = exc
                del unit.obligations[mark:]
            try:
                return self._range(every, g, lo, hi, False, elt, rest, env, unit, text)
            except NotAutomatic as exc:
                n = g.target.id if isinstance(g.target, ast.Name) else ast.unparse(g.target)
                # (still a value used as a number, as carried: an enclosing range may keep its own index a number)
                raise LogarithmicAsNumber(f"{n} in {text[:120]} ranges below a logarithm ({ast.unparse(hi)}); carried "
                                          f"as 2**{n}: {first}; kept a number: {exc}") from None
        acc: list = []
        local = dict(env)
        saved = list(unit.params)
        opts = self.options_of(it, env, unit, acc)
        if opts is None:
            raise NotAutomatic(f"{'all' if every else 'any'}(...) over {ast.unparse(it)[:60]}: only range(a, b) with "
                               "an automatic bound and options(game, position) are translated")
        game, pos = opts
        names = self._targets(g.target)
        if len(names) not in (1, len(pos)):
            raise NotAutomatic(f"the target {ast.unparse(g.target)} does not unpack a position of {game.label}")
        opt = [self.fresh("o") for _ in pos]
        if len(names) == 1 and len(pos) > 1:
            local[names[0]] = tuple(opt)
        else:
            local.update(zip(names, opt if len(pos) > 1 else [opt[0]]))
        unit.params = saved + opt
        try:
            constraint = self.close(acc, self.option_formula(game, opt, pos, unit, acc))
            return self._quantified(every, opt, [constraint], g.ifs, elt, rest, local, unit, text)
        finally:
            unit.params = saved

    def _range(self, every: bool, g: ast.comprehension, lo: ast.expr, hi: ast.expr, carried: bool, elt: ast.AST,
               rest: list, env: dict, unit: Unit, text: str) -> str:
        """One ``for n in range(lo, hi)``: n carried as 2**n (carried) or a number. The upper bound of a number
        is translated last, with the body (any) or its negation (all) on the path of its obligations: a bound
        such as i < n (n carried as 2**n) is exact while i stays small where the body decides."""
        if not isinstance(g.target, ast.Name):
            raise NotAutomatic(f"range(...) unpacked into {ast.unparse(g.target)}")
        name, v = g.target.id, self.fresh("n")
        for b in (lo, hi):
            self.strict(b, env, "range")
        value = Exp(v) if carried else v
        local = {**env, name: value}
        # the bounds are evaluated before the index is bound (range(1, x) in ``for x in range(1, x)`` is the outer
        # x): an outer name the index shadows is read in them under a key no spec name can be
        index = ast.Name(name)
        outer = {**env, name: value}
        if name in env:
            hidden = f"#{name}"
            outer[hidden] = env[name]
            lo, hi = (substitute_call((name,), b, [ast.Name(hidden)], fresh=lambda n: f"#{self.fresh(n)}")
                      for b in (lo, hi))
        # the index is a natural in Walnut: exact only where the range has no negative member
        negative = self.formula(ast.Compare(lo, [ast.Lt()], [ast.Constant(0)]), outer, unit)
        if negative != "0 = 1":
            self.oblige(unit, [], negative, f"range({ast.unparse(lo)}, {ast.unparse(hi)}) in {text[:80]} may start "
                        "below 0")
        saved = list(unit.params)
        unit.params = saved + [v]
        try:
            if carried:
                bounds = self.formula(ast.Compare(lo, [ast.LtE(), ast.Lt()], [index, hi]), outer, unit)
                return self._quantified(every, [v], [f"$pow2({v})", bounds], g.ifs, elt, rest, local, unit, text,
                                        bound_env=outer)
            low = self.formula(ast.Compare(lo, [ast.LtE()], [index]), outer, unit)
            return self._quantified(every, [v], [low], g.ifs, elt, rest, local, unit, text,
                                    last=ast.Compare(index, [ast.Lt()], [hi]), bound_env=outer)
        finally:
            unit.params = saved

    def _quantified(self, every: bool, qvars: list, guards: list, ifs: list, elt: ast.AST, rest: list, local: dict,
                    unit: Unit, text: str, last: ast.AST | None = None, bound_env: dict | None = None) -> str:
        """A over qvars (guards & ifs & last) => body, or E over qvars (guards & ifs & last & body); `last` is
        translated in `bound_env` (the range's upper bound, in the scope outside the comprehension)."""
        depth = len(unit.path)
        try:
            unit.path += guards
            conds = list(guards)
            for c in ifs:
                conds.append(self.formula(c, local, unit))
                unit.path.append(conds[-1])
            body = self._generators(every, elt, rest, local, unit, text)
            if last is not None:
                unit.path.append(f"~({body})" if every else body)
                conds.append(self.formula(last, local if bound_env is None else bound_env, unit))
        finally:
            del unit.path[depth:]
        guard = " & ".join(f"({c})" for c in conds)
        if every:
            return quant("A", qvars, f"(({guard}) => ({body}))")
        return quant("E", qvars, f"(({guard}) & ({body}))")

    @staticmethod
    def _targets(target: ast.AST) -> list[str]:
        if isinstance(target, ast.Name):
            return [target.id]
        if isinstance(target, ast.Tuple):
            names = [e.id for e in target.elts if isinstance(e, ast.Name)]
            if len(names) == len(target.elts):
                return names
        raise NotAutomatic(f"the comprehension target {ast.unparse(target)} is not a name or a tuple of names")
