"""Formulas of the spec language as mathematics: text -> ``ast`` -> sympy tree -> LaTeX and MathML.

The formula text is parsed with :mod:`ast` (never evaluated) and translated node by node into a sympy
tree (see :mod:`nimjos.report.mathprint` for the nodes sympy has no class for). Parentheses appear
where the written formula needed them, except around the parts of a fraction. A part that cannot be
translated (an unknown construct, a comprehension with two ``for`` clauses) is printed as its text,
so a formula always renders; :attr:`Formula.complete` says whether every part was translated.

>>> f = render_formula("n + floor(n / (k - 1)) + 1")
>>> f.latex
'n + \\\\left\\\\lfloor{\\\\frac{n}{k - 1}}\\\\right\\\\rfloor + 1'
>>> f.complete
True
>>> render_formula("(x + y) % 2 == 0").latex
'\\\\left(x + y\\\\right) \\\\bmod 2 = 0'
"""
from __future__ import annotations

import ast
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from xml.sax.saxutils import escape

import sympy
from sympy import Abs, Add, Integer, Lambda, Mod, Mul, Piecewise, Pow, Sum, Symbol, Tuple
from sympy.logic.boolalg import Boolean

import nimjos.report.mathprint as mp

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

#: the only elements and attributes a rendered formula may contain (checked before it reaches a page)
MATHML_TAGS = frozenset("math semantics annotation mrow mi mo mn mtext msub msup msubsup mfrac msqrt mroot "
                        "munder mover munderover mtable mtr mtd mspace mstyle".split())
MATHML_ATTRIBUTES = frozenset("display encoding mathvariant bevelled".split())

# Python's operator precedence (as in ast.unparse): a part is parenthesised when it binds looser
# than the place it stands in.
TEST, OR, AND, NOT, CMP, BOR, BXOR, BAND, SHIFT, ARITH, TERM, FACTOR, POWER, ATOM = range(2, 16)

_BINOP_LEVEL = {ast.BitOr: BOR, ast.BitXor: BXOR, ast.BitAnd: BAND, ast.LShift: SHIFT, ast.RShift: SHIFT,
                ast.Add: ARITH, ast.Sub: ARITH, ast.Mult: TERM, ast.Div: TERM, ast.FloorDiv: TERM,
                ast.Mod: TERM, ast.Pow: POWER}
_BITWISE = {ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "xor", ast.LShift: "<<", ast.RShift: ">>"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
            ast.In: "in", ast.NotIn: "not in"}


@dataclass(frozen=True)
class Formula:
    """A formula's text and its renderings; `complete` is False when some part is printed as text."""

    text: str
    latex: str
    mathml: str
    complete: bool


class _Untranslatable(Exception):
    """Raised inside the translation for a construct printed as text instead."""


def precedence(node: ast.AST) -> int:
    """How tightly a node binds, in Python's terms (higher binds tighter).

    >>> precedence(ast.parse("a + b", mode="eval").body) < precedence(ast.parse("a * b", mode="eval").body)
    True
    """
    if isinstance(node, (ast.IfExp, ast.Lambda)):
        return TEST
    if isinstance(node, ast.BoolOp):
        return OR if isinstance(node.op, ast.Or) else AND
    if isinstance(node, ast.UnaryOp):
        return NOT if isinstance(node.op, ast.Not) else FACTOR
    if isinstance(node, ast.Compare):
        return CMP
    if isinstance(node, ast.BinOp):
        return _BINOP_LEVEL[type(node.op)]
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and node.value < 0:
        return FACTOR
    return ATOM


class Translator:
    """Translates one parsed formula into a sympy tree; records whether anything fell back to text."""

    def __init__(self) -> None:
        self.complete = True

    # -- entry points
    def translate(self, node: ast.AST, context: int = 0):
        """The sympy tree of `node`, in parentheses when it binds looser than `context`.

        >>> t = Translator()
        >>> mp.latex(t.translate(ast.parse("(a + b) * c", mode="eval").body))
        '\\\\left(a + b\\\\right) c'
        """
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                expr = self._node(node)
        except (_Untranslatable, TypeError, ValueError, AttributeError, KeyError, sympy.SympifyError,
                Warning, RecursionError):
            self.complete = False
            expr = mp.TextAtom(ast.unparse(node))
        if precedence(node) < context or (context and isinstance(expr, mp.Quantifier)):
            expr = mp.BoolParen(expr) if isinstance(expr, Boolean) else mp.Paren(expr)
        return expr

    def _node(self, node: ast.AST):
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise _Untranslatable(type(node).__name__)
        return method(node)

    # -- leaves
    def _Name(self, node: ast.Name):
        return Symbol(node.id)

    def _Constant(self, node: ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return sympy.true if value else sympy.false
        if isinstance(value, int):
            return Integer(value)
        raise _Untranslatable("constant")

    # -- operators
    def _BinOp(self, node: ast.BinOp):
        op = type(node.op)
        level = _BINOP_LEVEL[op]
        if op is ast.Div:
            return self._flat(Mul, self._sub(node.left, 0),
                              Pow(self._sub(node.right, 0), Integer(-1), evaluate=False))
        if op is ast.FloorDiv:
            frac = self._flat(Mul, self._sub(node.left, 0), Pow(self._sub(node.right, 0), -1, evaluate=False))
            return sympy.floor(frac, evaluate=False)
        if op is ast.Pow:
            return Pow(self._sub(node.left, POWER + 1), self._sub(node.right, 0), evaluate=False)
        left, right = self._sub(node.left, level), self._sub(node.right, level + 1)
        if op is ast.Add:
            return self._flat(sympy.Add, left, right)
        if op is ast.Sub:
            negated = Integer(-right) if right.is_Integer else self._flat(Mul, Integer(-1), right)
            return self._flat(sympy.Add, left, negated)
        if op is ast.Mult:
            return self._flat(Mul, left, right)
        if op is ast.Mod:
            return Mod(left, right, evaluate=False)
        key = _BITWISE[op]
        if key == "|" and any(isinstance(s, mp.SetBuilder) or self._is_op(s, mp.Infix, "union")
                              for s in (left, right)):
            key = "union"
        return self._infix(mp.Infix, key, left, right)

    def _UnaryOp(self, node: ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return mp.BoolPrefix(mp.Op("not"), self._sub(node.operand, NOT))
        operand = self._sub(node.operand, FACTOR)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Invert):
            return mp.Prefix(mp.Op("~"), operand)
        return Integer(-operand) if operand.is_Integer else self._flat(Mul, Integer(-1), operand)

    def _BoolOp(self, node: ast.BoolOp):
        key = "and" if isinstance(node.op, ast.And) else "or"
        values = [self._sub(v, AND + 1) for v in node.values]
        return mp.BoolInfix(mp.Op(key), *values)

    def _Compare(self, node: ast.Compare):
        parts = [self._sub(node.left, CMP + 1)]
        for op, right in zip(node.ops, node.comparators):
            if type(op) not in _COMPARE:
                raise _Untranslatable("comparison")
            parts += [mp.Op(_COMPARE[type(op)]), self._sub(right, CMP + 1)]
        return mp.Chain(*parts)

    def _IfExp(self, node: ast.IfExp):
        pieces = []
        branch: ast.expr = node
        while isinstance(branch, ast.IfExp):
            pieces.append((self._sub(branch.body, 0), self._sub(branch.test, 0)))
            branch = branch.orelse
        pieces.append((self._sub(branch, 0), sympy.true))
        return Piecewise(*pieces, evaluate=False)

    def _Lambda(self, node: ast.Lambda):
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            raise _Untranslatable("lambda")
        return Lambda(tuple(Symbol(a.arg) for a in args.args), self._sub(node.body, 0))

    # -- containers
    def _Tuple(self, node: ast.Tuple):
        return Tuple(*[self._sub(e, 0) for e in node.elts])

    def _Set(self, node: ast.Set):
        return mp.SetLiteral(*[self._sub(e, 0) for e in node.elts])

    def _Dict(self, node: ast.Dict):
        """``{point : condition}`` (a family of points, as a set-builder); several entries are a union."""
        if not node.keys or any(k is None for k in node.keys):
            raise _Untranslatable("dict")
        sets = [mp.SetBuilder(self._sub(k, 0), self._sub(v, 0))
                for k, v in zip(node.keys, node.values) if k is not None]
        return sets[0] if len(sets) == 1 else mp.Infix(mp.Op("union"), *sets)

    def _Subscript(self, node: ast.Subscript):
        if isinstance(node.slice, ast.Slice):
            raise _Untranslatable("slice")
        return mp.Subscript(self._sub(node.value, ATOM), self._sub(node.slice, 0))

    # -- calls
    def _Call(self, node: ast.Call):
        if node.keywords:
            raise _Untranslatable("call")
        if not isinstance(node.func, ast.Name):
            return mp.Apply(self._sub(node.func, ATOM), *[self._sub(a, 0) for a in node.args])
        name, raw = node.func.id, node.args
        if len(raw) == 1 and isinstance(raw[0], ast.GeneratorExp):
            return self._over_range(name, raw[0])
        if name == "G" and len(raw) == 2:
            game = raw[0]
            label = game.id if isinstance(game, ast.Name) else ast.unparse(game)
            position = self._sub(raw[1], 0)
            coords = position.args if isinstance(position, Tuple) else (position,)
            return mp.Grundy(mp.TextAtom(label), *coords)
        args = [self._sub(a, 0) for a in raw]
        simple = {"floor": lambda a: sympy.floor(a, evaluate=False),
                  "ceil": lambda a: sympy.ceiling(a, evaluate=False),
                  "abs": lambda a: Abs(a, evaluate=False),
                  "isqrt": lambda a: sympy.floor(Pow(a, sympy.Rational(1, 2), evaluate=False), evaluate=False)}
        if name in simple and len(args) == 1:
            return simple[name](args[0])
        if name == "xor" and len(args) >= 2:
            return mp.Infix(mp.Op("xor"), *args)
        if name == "iterate" and len(args) == 3:
            return mp.Iterate(*args)
        if name == "family" and len(args) == 2:
            return mp.SetBuilder(*args)
        return mp.Call(mp.TextAtom(name), *args)

    def _over_range(self, name: str, gen: ast.GeneratorExp):
        """all / any / sum / min / max of a generator: a quantifier, a sum or a reduction."""
        if name not in ("all", "any", "sum", "min", "max"):
            raise _Untranslatable("generator")
        binders = self._binders(gen)
        body = self._sub(gen.elt, 0)
        if name in ("all", "any"):
            return mp.Quantifier(mp.Op(name), binders, body)
        (single,) = binders.args if len(binders.args) == 1 else (None,)
        if name == "sum" and isinstance(single, mp.Chain) and isinstance(single.args[2], mp.IntRange):
            return Sum(body, (single.args[0], *single.args[2].args))
        return mp.Reduce(mp.TextAtom(name), binders, body)

    def _SetComp(self, node: ast.SetComp):
        return mp.SetBuilder(self._sub(node.elt, 0), self._binders(node))

    def _binders(self, node) -> mp.Binders:
        """The ``for`` clauses of a comprehension as ``v in D`` (a range as low..high) and its ``if`` clauses."""
        parts = []
        for comp in node.generators:
            if comp.is_async or not isinstance(comp.target, ast.Name):
                raise _Untranslatable("comprehension")
            parts.append(mp.Chain(Symbol(comp.target.id), mp.Op("in"), self._domain(comp.iter)))
            parts += [self._sub(cond, AND + 1) for cond in comp.ifs]
        return mp.Binders(*parts)

    def _domain(self, it: ast.AST):
        """What a ``for`` runs over: ``range(a, b)`` as the integers a..b - 1, anything else as written."""
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            if it.keywords or not 1 <= len(it.args) <= 2:
                raise _Untranslatable("range")
            low = self._sub(it.args[0], 0) if len(it.args) == 2 else Integer(0)
            return mp.IntRange(low, minus_one(self._sub(it.args[-1], 0)))    # range's end is exclusive
        return self._sub(it, 0)

    # -- helpers
    def _sub(self, node: ast.AST, context: int):
        return self.translate(node, context)

    @staticmethod
    def _is_op(expr, cls, key: str) -> bool:
        return isinstance(expr, cls) and expr.args[0].name == key

    def _infix(self, cls, key: str, left, right):
        parts = []
        for side in (left, right):
            parts += list(side.args[1:]) if self._is_op(side, cls, key) else [side]
        return cls(mp.Op(key), *parts)

    @staticmethod
    def _flat(cls, *parts):
        """An unevaluated Add or Mul of `parts`, merging nested ones of the same kind (left to right)."""
        args = []
        for part in parts:
            args += list(part.args) if type(part) is cls else [part]
        return cls(*args, evaluate=False)


def minus_one(expr):
    """``expr - 1`` as written by hand: ``n + 1`` gives ``n``, ``5`` gives ``4``, ``n`` gives ``n - 1``.

    >>> x = Symbol("n")
    >>> minus_one(Integer(5)), minus_one(Add(x, Integer(1), evaluate=False)), minus_one(x)
    (4, n, n - 1)
    """
    if expr.is_Integer:
        return expr - 1
    if isinstance(expr, Add) and expr.args[-1] == 1:
        rest = expr.args[:-1]
        return rest[0] if len(rest) == 1 else Add(*rest, evaluate=False)
    return Add(expr, Integer(-1), evaluate=False)


def to_sympy(text: str) -> tuple[sympy.Basic, bool]:
    """The sympy tree of a formula's text, and whether every part was translated.

    >>> tree, complete = to_sympy("v2((x | y) + 1)")
    >>> mp.latex(tree), complete
    ('v_{2}\\\\left(\\\\left(x \\\\mathbin{\\\\mathrm{OR}} y\\\\right) + 1\\\\right)', True)
    >>> to_sympy("not valid python (")[1]
    False
    """
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return mp.TextAtom(" ".join(text.split())), False
    translator = Translator()
    expr = translator.translate(tree)
    return expr, translator.complete


def math_element(inner: str, tex: str, display: str = "block") -> str:
    """A complete ``<math>`` element around presentation MathML, with the LaTeX as an annotation.

    >>> math_element("<mi>x</mi>", "x", "inline")
    '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x</annotation></semantics></math>'
    """
    return (f'<math xmlns="{MATHML_NS}" display="{display}"><semantics><mrow>{inner}</mrow>'
            f'<annotation encoding="application/x-tex">{escape(tex)}</annotation></semantics></math>')


def check_mathml(element: str) -> None:
    """Raise ValueError unless `element` is well-formed MathML made only of the allowed elements and attributes.

    >>> check_mathml(math_element("<mi>x</mi>", "x"))
    >>> check_mathml('<math xmlns="http://www.w3.org/1998/Math/MathML"><mtext><script/></mtext></math>')
    Traceback (most recent call last):
    ...
    ValueError: element 'script' is not allowed in a formula
    """
    try:
        root = ET.fromstring(element)
    except ET.ParseError as exc:
        raise ValueError(f"malformed MathML: {exc}") from None
    for el in root.iter():
        tag = el.tag.removeprefix("{%s}" % MATHML_NS)
        if tag not in MATHML_TAGS:
            raise ValueError(f"element {tag!r} is not allowed in a formula")
        for name in el.attrib:
            if name not in MATHML_ATTRIBUTES:
                raise ValueError(f"attribute {name!r} is not allowed in a formula")


def render_formula(text: str, display: str = "block") -> Formula:
    """LaTeX and MathML of a formula; parts that cannot be translated are printed as their text.

    The MathML is checked (:func:`check_mathml`); should it ever fail, the whole formula is printed
    as text instead (escaped), so it is always safe to put into a page.

    >>> f = render_formula("JJ(k, n, m) == G(maxnim(k), n*k - m)")
    >>> f.latex
    '\\\\operatorname{JJ}\\\\left(k, n, m\\\\right) = \\\\mathcal{G}_{\\\\text{maxnim(k)}}\\\\left(n k - m\\\\right)'
    >>> '<mo>=</mo>' in f.mathml, f.complete
    (True, True)
    >>> render_formula("'<script>'").mathml.count("<script>")
    0
    """
    expr, complete = to_sympy(text)
    tex = mp.latex(expr)
    try:
        inner = mp.mathml(expr)
        element = math_element(inner, tex, display)
        check_mathml(element)
    except Exception:                    # a printer fault must not break a report: fall back to text
        complete = False
        tex = mp.latex_text(text)
        element = math_element(f"<mtext>{escape(text)}</mtext>", tex, display)
    return Formula(text=text, latex=tex, mathml=element, complete=complete)


#: a formula whose text is longer than this many characters is shown one operand of its top-level and/or per line
WRAP_CHARS = 60

#: how an operator of a split formula is printed at the start of its line
_BOOL_SIGNS = {ast.Or: "\u2228", ast.And: "\u2227"}


@dataclass(frozen=True)
class FormulaLine:
    """One line of a formula split to fit a page: its nesting depth, the operator joining it to the lines above
    ('' for the first operand of a group), the operand rendered, and how many parentheses open before it and
    close after it (a nested group is parenthesised)."""

    depth: int
    sign: str
    formula: Formula
    opens: int = 0
    closes: int = 0


def formula_lines(text: str, limit: int = WRAP_CHARS) -> list[FormulaLine]:
    """A formula as lines that fit a page: a long ``a or b or c`` (or ``and``) becomes one line per operand, each
    after its operator, a nested long group parenthesised and indented one level deeper; a short formula, one
    without a top-level and/or, or one that does not parse, is one line (:func:`render_formula` of the whole).

    >>> lines = formula_lines("x == 1 or (y == 2 and z == 3)", limit=10)
    >>> [(l.depth, l.sign, l.opens, l.formula.text, l.closes) for l in lines]
    [(0, '', 0, 'x == 1', 0), (0, '∨', 1, 'y == 2', 0), (1, '∧', 0, 'z == 3', 1)]
    >>> [l.formula.text for l in formula_lines("x == 1 or y == 2")]
    ['x == 1 or y == 2']
    """
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return [FormulaLine(0, "", render_formula(text))]
    if not _splits(tree, limit):
        return [FormulaLine(0, "", render_formula(text))]
    return _split(tree, 0, limit)


def _splits(node: ast.expr, limit: int) -> bool:
    """Is `node` an and/or whose text is longer than `limit`?"""
    return isinstance(node, ast.BoolOp) and len(ast.unparse(node)) > limit


def _split(node: ast.expr, depth: int, limit: int) -> list[FormulaLine]:
    """The lines of `node` at `depth`: a long and/or split into its operands, nested long groups parenthesised."""
    if not _splits(node, limit):
        return [FormulaLine(depth, "", render_formula(ast.unparse(node), display="inline"))]
    assert isinstance(node, ast.BoolOp), "only an and/or splits"
    sign = _BOOL_SIGNS[type(node.op)]
    lines: list[FormulaLine] = []
    for i, operand in enumerate(node.values):
        part = _split(operand, depth + 1, limit) if _splits(operand, limit) else _split(operand, depth, limit)
        if _splits(operand, limit):
            part[0] = replace(part[0], depth=depth, opens=part[0].opens + 1)
            part[-1] = replace(part[-1], closes=part[-1].closes + 1)
        if i:
            part[0] = replace(part[0], sign=sign)
        lines += part
    return lines
